/* import_itp.c: Microsoft ITP traces as released with ElasticFlow (ASPLOS'23,
 * microsoft/elasticflow-traces).
 *
 *   raw/clusterNN.csv        job_id,submission_time,duration,num_gpu
 *   elasticflow_generated/   job_id,submission_time,num_iteration,model_name,
 *                            deadline,batch_size,num_gpu,duration
 *
 * submission_time is s since the collection start, duration s of execution,
 * num_gpu GPUs. ElasticFlow's generated columns are its own random choices:
 * model_name becomes the job's workload (kept unless --remap-workloads),
 * num_iteration its work, deadline (absolute s) its deadline. batch_size is
 * ElasticFlow's global batch for its own models and is not mapped. The VC of
 * every job is the file's name without directory and extension
 * ("cluster04"), so --vc picks clusters. The release gives no job status
 * (status unknown). Files have no trailing newline. */
#include "traces/import.h"
#include "traces/import_prod.h"

#include <math.h>
#include <string.h>

enum { I_SUBMIT, I_DUR, I_GPU, I_ITER, I_MODEL, I_DEADLINE };

static int itp_row(prod_ctx_t *c, const csv_reader_t *r, import_record_t *rec, mls_err_t *err)
{
    double submit, dur, gpus;
    if (prod_num(c, r, I_SUBMIT, 0, &submit, err) < 0 || prod_num(c, r, I_DUR, 0, &dur, err) < 0 ||
        prod_num(c, r, I_GPU, 0, &gpus, err) < 0)
        return -1;
    rec->submit = submit;
    rec->duration = dur;
    rec->gpus = gpus;
    if (c->layout->cols[I_ITER]) {
        double iter, deadline;
        if (prod_num(c, r, I_ITER, 1, &iter, err) < 0 ||
            prod_num(c, r, I_DEADLINE, submit, &deadline, err) < 0)
            return -1;
        if (!*prod_field(c, r, I_MODEL))
            return prod_fail(c, r, I_MODEL, "is empty", err);
        rec->iterations = iter;
        rec->deadline = deadline;
        rec->workload = strtab_intern(&c->rs->workloads, prod_field(c, r, I_MODEL));
    }
    const char *base = strrchr(c->path, '/');
    base = base ? base + 1 : c->path;
    char vc[128];
    snprintf(vc, sizeof vc, "%s", base);
    char *dot = strrchr(vc, '.');
    if (dot)
        *dot = '\0';
    rec->vc = strtab_intern(&c->rs->vcs, vc);
    return 0;
}

static const prod_layout_t itp_elasticflow = {
    "ElasticFlow (job_id,submission_time,num_iteration,model_name,deadline,batch_size,num_gpu,"
    "duration)",
    {"submission_time", "duration", "num_gpu", "num_iteration", "model_name", "deadline", NULL},
    0,
    itp_row,
};

static const prod_layout_t itp_raw = {
    "ITP raw (job_id,submission_time,duration,num_gpu)",
    {"submission_time", "duration", "num_gpu", NULL},
    0,
    itp_row,
};

int import_itp(import_records_t *rs, const char *path, unsigned flags, long *skipped,
               mls_err_t *err)
{
    static const prod_layout_t *const layouts[] = {&itp_elasticflow, &itp_raw};
    return prod_read_csv(rs, path, layouts, 2, "itp", flags, skipped, err);
}
