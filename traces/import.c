/* import.c: the table of trace formats and what importers share (see
 * import.h). */
#include "traces/import.h"
#include "traces/import_readers.h"

#include <stdlib.h>
#include <string.h>

static const import_format_t formats[] = {
    {"gavel",
     "Gavel's 10-column TSV, its older 7-column per-VC format, Shockwave's 12-column format",
     import_gavel, NULL},
    {"philly",
     "Philly cluster_job_log JSON (+ cluster_machine_list), Pollux's philly.csv, DIR-LAB CSV",
     NULL, import_philly},
    {"helios", "Helios cluster_log CSV, Acme (Seren/Kalos) trace CSV, DIR-LAB CSV", NULL,
     import_helios},
    {"itp", "Microsoft ITP raw CSVs and ElasticFlow's generated ones", NULL, import_itp},
    {"pai2020",
     "Alibaba PAI 2020: job/task/instance tables (a directory or the job table), machine spec",
     NULL, pai_read_records},
    {"openb2023", "Alibaba openb 2023 pod lists (fractional GPUs) and node lists", NULL,
     openb_read_records},
    {"pollux", "Pollux's workload-N.csv (name,time,application,num_replicas,batch_size)",
     import_pollux, NULL},
    {"sia", "Sia's workload CSVs (Pollux's format; Philly, Helios Saturn, ITP samples)",
     import_pollux, NULL},
    {"tiresias", "Tiresias job CSVs (60_job.csv, tf_job.csv): model, GPUs, submit, duration",
     NULL, tiresias_read_records},
};

size_t import_count(void)
{
    return sizeof formats / sizeof formats[0];
}

const import_format_t *import_at(size_t i)
{
    return i < import_count() ? &formats[i] : NULL;
}

const import_format_t *import_find(const char *name)
{
    for (size_t i = 0; i < import_count(); i++)
        if (!strcmp(formats[i].name, name))
            return &formats[i];
    return NULL;
}

static int by_submit_id(const void *a, const void *b)
{
    const mls_job_t *x = a, *y = b;
    if (x->submit != y->submit)
        return x->submit < y->submit ? -1 : 1;
    return (x->id > y->id) - (x->id < y->id);
}

int import_bad_row(unsigned flags, long *skipped)
{
    if (!(flags & IMPORT_SKIP_BAD))
        return -1;
    (*skipped)++;
    return 0;
}

void import_sort_renumber(mls_trace_t *t)
{
    if (t->n > 1) /* no jobs: t->jobs is NULL, which qsort must not get (fuzz_import) */
        qsort(t->jobs, t->n, sizeof *t->jobs, by_submit_id);
    for (size_t i = 0; i < t->n; i++)
        t->jobs[i].id = (int64_t)i;
}
