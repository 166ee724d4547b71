/* import_gavel.c: Gavel's and Shockwave's job traces (tab-separated, no header).
 *
 *   10 fields (Gavel): job_type, command, working_directory, num_steps_arg,
 *       needs_data_dir, total_steps, scale_factor, priority_weight, SLO,
 *       arrival_time
 *   7 fields (Gavel's older per-VC traces): job_type, command, num_steps_arg,
 *       needs_data_dir, total_steps, arrival_time, scale_factor
 *   12 fields (Shockwave): the 10 above with mode (static|accordion|gns) after
 *       scale_factor and duration before arrival_time
 * job_type is the workload ("ResNet-50 (batch size 64)"), total_steps the work
 * in iterations, scale_factor the GPU count, arrival_time the submit time (s).
 * Not mapped: command, working directory and the SLO (Gavel's SLO policies are
 * not implemented). Rows are sorted
 * by arrival and numbered 0..n-1 in that order (the row order breaks ties). */
#include "model/csv.h"
#include "traces/import.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

typedef struct cols {
    int type, steps, sf, mode, prio, duration, arrival;
} cols_t;

static const cols_t cols10 = {0, 5, 6, -1, 7, -1, 9};
static const cols_t cols7 = {0, 4, 6, -1, -1, -1, 5};
static const cols_t cols12 = {0, 5, 6, 7, 8, 10, 11};

static int num(const csv_reader_t *r, int col, const char *name, double *out, const char *path,
               mls_err_t *err)
{
    if (mls_parse_double(r->fields[col], out) < 0)
        return mls_fail(err, "%s:%ld: field '%s': '%s' %s", path, r->line_no, name,
                        r->fields[col], mls_number_why(r->fields[col]));
    return 0;
}

static int parse_row(mls_trace_t *t, const csv_reader_t *r, const char *path, mls_err_t *err)
{
    const cols_t *c = r->n_fields == 10 ? &cols10 : r->n_fields == 7 ? &cols7
                      : r->n_fields == 12 ? &cols12 : NULL;
    if (!c)
        return mls_fail(err, "%s:%ld: %zu tab-separated fields; Gavel traces have 7 or 10, "
                             "Shockwave's 12",
                        path, r->line_no, r->n_fields);
    double steps, sf, arrival, prio = 1, dur = NAN;
    if (num(r, c->steps, "total_steps", &steps, path, err) < 0 ||
        num(r, c->sf, "scale_factor", &sf, path, err) < 0 ||
        num(r, c->arrival, "arrival_time", &arrival, path, err) < 0 ||
        (c->prio >= 0 && num(r, c->prio, "priority_weight", &prio, path, err) < 0) ||
        (c->duration >= 0 && num(r, c->duration, "duration", &dur, path, err) < 0))
        return -1;
    if (!*r->fields[c->type])
        return mls_fail(err, "%s:%ld: field 'job_type': empty", path, r->line_no);
    if (!(steps > 0))
        return mls_fail(err, "%s:%ld: field 'total_steps': %g, must be > 0", path, r->line_no,
                        steps);
    if (sf < 1 || sf != floor(sf) || sf > 1 << 20)
        return mls_fail(err, "%s:%ld: field 'scale_factor': %g, must be an integer >= 1", path,
                        r->line_no, sf);
    if (arrival < 0)
        return mls_fail(err, "%s:%ld: field 'arrival_time': %g is negative", path, r->line_no,
                        arrival);
    if (arrival > MLS_MAX_TIME || dur > MLS_MAX_TIME)
        return mls_fail(err, "%s:%ld: field '%s': %g s is above the largest time accepted (%g s)",
                        path, r->line_no, arrival > MLS_MAX_TIME ? "arrival_time" : "duration",
                        arrival > MLS_MAX_TIME ? arrival : dur, MLS_MAX_TIME);
    if (!(prio > 0))
        return mls_fail(err, "%s:%ld: field 'priority_weight': %g, must be > 0", path,
                        r->line_no, prio);
    mls_job_t j = {0};
    if (c->mode >= 0) {
        const char *m = r->fields[c->mode];
        j.mode = !strcmp(m, "static")      ? ADAPT_STATIC
                 : !strcmp(m, "accordion") ? ADAPT_ACCORDION
                 : !strcmp(m, "gns")       ? ADAPT_GNS
                                           : (mls_adapt_mode_t)-1;
        if ((int)j.mode < 0)
            return mls_fail(err, "%s:%ld: field 'mode': '%s' is not static, accordion or gns",
                            path, r->line_no, m);
    }
    j.id = (int64_t)t->n;
    j.submit = arrival;
    j.user = strtab_intern(&t->users, "default");
    j.workload = strtab_intern(&t->workloads, r->fields[c->type]);
    j.gpus = j.min_gpus = j.max_gpus = (int)sf;
    j.work = steps;
    j.duration = dur > 0 ? dur : NAN;
    j.priority = prio;
    j.deadline = INFINITY;
    trace_add(t, &j);
    return 0;
}

int import_gavel(mls_trace_t *t, const char *path, unsigned flags, long *skipped,
                 mls_err_t *err)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return mls_fail(err, "%s: cannot open: %s", path, strerror(errno));
    csv_reader_t r;
    csv_open(&r, fp, '\t');
    r.quote = 0; /* commands are free text */
    int rc = 0, got;
    while (rc == 0 && (got = csv_next(&r)) != 0) {
        if (got < 0) {
            rc = csv_fail(&r, path, err);
            break;
        }
        if (parse_row(t, &r, path, err) < 0)
            rc = import_bad_row(flags, skipped);
    }
    csv_close(&r);
    fclose(fp);
    return rc;
}
