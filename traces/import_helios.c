/* import_helios.c: SenseTime Helios (SC'21, S-Lab-System-Group/HeliosData)
 * and Shanghai AI Lab Acme (NSDI'24, InternLM/AcmeTrace) job logs, and the
 * DIR-LAB normalised Helios file.
 *
 *   Helios <Cluster>/cluster_log.csv: job_id,user,vc,gpu_num,cpu_num,node_num,
 *       state,submit_time,start_time,end_time,duration,queue
 *   Acme trace_seren.csv / trace_kalos.csv: job_id,user,node_num,gpu_num,
 *       cpu_num,type,state,submit_time,start_time,end_time,duration,queue,
 *       gpu_time (Kalos adds mem_per_pod_GB,shared_mem_per_pod,fail_time,
 *       stop_time); no VC
 *
 * Times are "YYYY-MM-DD HH:MM:SS", without a zone in Helios (read as UTC
 * wall clock) and with one in Acme (+08:00 Seren, +00:00 Kalos; converted to
 * UTC). A time that is not one (Helios has NaN) makes the row bad, as does a
 * missing duration. duration is the column when numeric, else end - start.
 * state: COMPLETED -> pass; CANCELLED -> killed; FAILED, TIMEOUT, NODE_FAIL
 * -> failed; RUNNING, PENDING, SUSPENDED -> running. Acme's `type` (LLM task
 * kind) is not a perf-model workload and is not mapped. */
#include "traces/import.h"
#include "traces/import_prod.h"

#include <math.h>
#include <string.h>

enum { H_USER, H_VC, H_GPU, H_CPU, H_NODE, H_STATE, H_SUBMIT, H_START, H_END, H_DUR };

static int state_of(const char *s, rec_status_t *st)
{
    static const struct {
        const char *name;
        rec_status_t st;
    } map[] = {{"COMPLETED", REC_PASS},    {"CANCELLED", REC_KILLED}, {"FAILED", REC_FAILED},
               {"TIMEOUT", REC_FAILED},    {"NODE_FAIL", REC_FAILED}, {"OUT_OF_MEMORY", REC_FAILED},
               {"RUNNING", REC_RUNNING},   {"PENDING", REC_RUNNING},  {"SUSPENDED", REC_RUNNING}};
    for (size_t i = 0; i < sizeof map / sizeof map[0]; i++)
        if (!strcmp(s, map[i].name)) {
            *st = map[i].st;
            return 0;
        }
    return -1;
}

static int helios_row(prod_ctx_t *c, const csv_reader_t *r, import_record_t *rec, mls_err_t *err)
{
    double gpus, cpus = NAN, nodes = 0, submit, start, end, dur;
    if (prod_num(c, r, H_GPU, 0, &gpus, err) < 0 ||
        (c->col[H_CPU] >= 0 && prod_num(c, r, H_CPU, 0, &cpus, err) < 0) ||
        (c->col[H_NODE] >= 0 && prod_num(c, r, H_NODE, 0, &nodes, err) < 0))
        return -1;
    if (state_of(prod_field(c, r, H_STATE), &rec->status) < 0)
        return prod_fail(c, r, H_STATE,
                         "is not COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL, RUNNING, "
                         "PENDING or SUSPENDED",
                         err);
    if (prod_time(c, r, H_SUBMIT, &submit, err) < 0 || prod_time(c, r, H_START, &start, err) < 0 ||
        prod_time(c, r, H_END, &end, err) < 0)
        return -1;
    if (start < submit)
        return prod_fail(c, r, H_START, "is before submit_time", err);
    if (end < start)
        return prod_fail(c, r, H_END, "is before start_time", err);
    if (c->col[H_DUR] >= 0 && *prod_field(c, r, H_DUR)) {
        if (prod_num(c, r, H_DUR, 0, &dur, err) < 0)
            return -1;
    } else
        dur = end - start;
    rec->submit = submit;
    rec->start = start;
    rec->duration = dur;
    rec->gpus = gpus;
    rec->cpus = cpus;
    rec->nodes = nodes > 1e6 ? 0 : (int)nodes;
    rec->user = strtab_intern(&c->rs->users, prod_field(c, r, H_USER));
    if (c->col[H_VC] >= 0)
        rec->vc = strtab_intern(&c->rs->vcs, prod_field(c, r, H_VC));
    return 0;
}

static const prod_layout_t helios_log = {
    "Helios/Acme (job_id,user,[vc,]gpu_num,cpu_num,node_num,state,submit_time,start_time,"
    "end_time,duration,...)",
    {"user", "?vc", "gpu_num", "?cpu_num", "?node_num", "state", "submit_time", "start_time",
     "end_time", "?duration", NULL},
    1,
    helios_row,
};

int import_helios(import_records_t *rs, const char *path, unsigned flags, long *skipped,
                  mls_err_t *err)
{
    static const prod_layout_t *const layouts[] = {&helios_log, &prod_dirlab};
    return prod_read_csv(rs, path, layouts, 2, "helios", flags, skipped, err);
}
