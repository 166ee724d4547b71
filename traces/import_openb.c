/* import_openb.c: Alibaba's 2023 "openb" GPU-sharing trace (ATC'23, FGD) as
 * records, and its node list for --emit-cluster.
 *
 * A pod list has a header; columns are found by name:
 *
 *   name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,
 *   creation_time,deletion_time,scheduled_time
 *
 * The first five are required (without pod_phase the status is unknown).
 * The resampled multigpuNN lists have only those (FGD replays pods one after
 * another, with no clock): their pods get submit times 0, 1, 2, ... in file
 * order, unknown durations and unknown status.
 *
 * Mapping: GPUs = num_gpu x gpu_milli / 1000 (a sharing pod asks for a
 * fraction of one GPU: num_gpu 1, gpu_milli 460 = 0.46 GPU; whole-GPU pods
 * have gpu_milli 1000); cores = cpu_milli / 1000; memory = memory_mib / 1024
 * GB. gpu_spec (the GPU models a pod accepts, "V100M16|V100M32", empty = any)
 * becomes the record's GPU type as written; qos (LS, BE, Burstable,
 * Guaranteed) becomes its VC, so that the VC filter selects a QoS class.
 * submit = creation_time, start = scheduled_time (empty for pods never
 * scheduled), duration = deletion_time - scheduled_time. Status: Succeeded =
 * pass, Failed = failed, Running = running at the end of the trace (its
 * deletion_time is the trace's end), Pending = killed (deleted before it was
 * scheduled).
 *
 * The node list (sn,cpu_milli,memory_mib,gpu,model) gives the machines: model
 * is the GPU model, empty on CPU-only nodes, named as the perf model names it
 * (V100M16 -> v100, P100 -> p100, T4 -> t4, A10 -> a10, see rows_gpu_model);
 * the undisclosed G2 and G3 get no type (the cluster emitter gives them the
 * reference GPU). */
#include "traces/import.h"
#include "traces/import_readers.h"
#include "traces/import_rows.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

enum {
    C_NAME,
    C_CPU,
    C_MEM,
    C_NGPU,
    C_MILLI,
    C_SPEC,
    C_QOS,
    C_PHASE,
    C_CREATE,
    C_DELETE,
    C_SCHED,
    C_N
};
static const char *const pod_cols[C_N] = {
    "name", "cpu_milli", "memory_mib",    "num_gpu",       "gpu_milli",     "gpu_spec",
    "qos",  "pod_phase", "creation_time", "deletion_time", "scheduled_time"};

enum { N_SN, N_CPU, N_MEM, N_GPU, N_MODEL, N_N };
static const char *const node_cols[N_N] = {"sn", "cpu_milli", "memory_mib", "gpu", "model"};

typedef struct openb_state {
    import_records_t *rs;
    int nodes; /* the file is a node list (its header starts with sn) */
    int col[C_N];
    int node_col[N_N];
    size_t n_cols; /* fields in the header: every row has as many */
    long ordinal;  /* pods read, the clock of lists without times */
} openb_state_t;

static int pod_header(void *state, const rows_ctx_t *row)
{
    openb_state_t *st = state;
    st->n_cols = row->r->n_fields;
    st->nodes = !strcmp(row->r->fields[0], "sn");
    if (st->nodes)
        return rows_columns(row, node_cols, st->node_col, N_N, 0x1f);
    if (rows_columns(row, pod_cols, st->col, C_N, 0x1f) < 0)
        return -1;
    /* the three times come together or not at all */
    int times = (st->col[C_CREATE] >= 0) + (st->col[C_DELETE] >= 0) + (st->col[C_SCHED] >= 0);
    if (times != 0 && times != 3)
        return mls_fail(row->err,
                        "%s:%ld: header: creation_time, deletion_time and scheduled_time come "
                        "together",
                        row->path, row->r->line_no);
    return 0;
}

static int phase_of(const rows_ctx_t *row, int col, rec_status_t *out)
{
    const char *s;
    if (rows_str(row, col, "pod_phase", &s) < 0)
        return -1;
    *out = !strcmp(s, "Succeeded") ? REC_PASS
           : !strcmp(s, "Failed")  ? REC_FAILED
           : !strcmp(s, "Running") ? REC_RUNNING
           : !strcmp(s, "Pending") ? REC_KILLED
                                   : REC_UNKNOWN;
    if (*out == REC_UNKNOWN)
        return mls_fail(row->err,
                        "%s:%ld: field 'pod_phase': '%s' is not Succeeded, Failed, Running or "
                        "Pending",
                        row->path, row->r->line_no, s);
    return 0;
}

/* submit, start, duration from the three times */
static int pod_times(const openb_state_t *st, const rows_ctx_t *row, import_record_t *rec)
{
    double del, sched;
    if (rows_num(row, st->col[C_CREATE], "creation_time", ROWS_NONNEG, &rec->submit) < 0 ||
        rows_num(row, st->col[C_DELETE], "deletion_time", ROWS_NONNEG, &del) < 0 ||
        rows_num(row, st->col[C_SCHED], "scheduled_time", ROWS_NONNEG | ROWS_MISSING_OK, &sched) <
            0)
        return -1;
    if (del < rec->submit)
        return mls_fail(row->err,
                        "%s:%ld: field 'deletion_time': %.17g is before creation_time %.17g",
                        row->path, row->r->line_no, del, rec->submit);
    if (sched < rec->submit || sched > del)
        return mls_fail(row->err,
                        "%s:%ld: field 'scheduled_time': %.17g is outside creation..deletion "
                        "(%.17g..%.17g)",
                        row->path, row->r->line_no, sched, rec->submit, del);
    rec->start = sched;
    rec->duration = del - sched; /* NAN when never scheduled */
    return 0;
}

static int pod_row(void *state, const rows_ctx_t *row)
{
    openb_state_t *st = state;
    const int *c = st->col;
    const char *name;
    double cpu, mem, ngpu, milli;
    import_record_t rec = record_blank();
    if (rows_str(row, c[C_NAME], "name", &name) < 0 ||
        rows_num(row, c[C_CPU], "cpu_milli", ROWS_NONNEG, &cpu) < 0 ||
        rows_num(row, c[C_MEM], "memory_mib", ROWS_NONNEG, &mem) < 0 ||
        rows_num(row, c[C_NGPU], "num_gpu", ROWS_NONNEG | ROWS_INTEGER, &ngpu) < 0 ||
        rows_num(row, c[C_MILLI], "gpu_milli", ROWS_NONNEG | ROWS_INTEGER, &milli) < 0)
        return -1;
    if (milli > 1000 || (ngpu == 0) != (milli == 0) || (ngpu > 1 && milli != 1000))
        return mls_fail(row->err,
                        "%s:%ld: field 'gpu_milli': %g with num_gpu %g (0 with 0 GPUs, 1..1000 "
                        "with one, 1000 with several)",
                        row->path, row->r->line_no, milli, ngpu);
    if (c[C_CREATE] >= 0) {
        if (pod_times(st, row, &rec) < 0 ||
            (c[C_PHASE] >= 0 && phase_of(row, c[C_PHASE], &rec.status) < 0))
            return -1;
    } else {
        rec.submit = (double)st->ordinal;
    }
    const char *spec = c[C_SPEC] >= 0 ? row->r->fields[c[C_SPEC]] : "";
    const char *qos = c[C_QOS] >= 0 ? row->r->fields[c[C_QOS]] : "";
    rec.gpus = ngpu * milli / 1000;
    rec.cpus = cpu / 1000;
    rec.mem_gb = mem / 1024;
    rec.gpu_type = *spec ? strtab_intern(&st->rs->gpu_types, spec) : -1;
    rec.vc = *qos ? strtab_intern(&st->rs->vcs, qos) : -1;
    rec.line = row->r->line_no;
    records_add(st->rs, &rec);
    st->ordinal++;
    return 0;
}

static int node_row(const openb_state_t *st, const rows_ctx_t *row)
{
    const int *c = st->node_col;
    const char *sn;
    double cpu, mem, gpus;
    if (rows_str(row, c[N_SN], "sn", &sn) < 0 ||
        rows_num(row, c[N_CPU], "cpu_milli", ROWS_NONNEG, &cpu) < 0 ||
        rows_num(row, c[N_MEM], "memory_mib", ROWS_NONNEG, &mem) < 0 ||
        rows_num(row, c[N_GPU], "gpu", ROWS_NONNEG | ROWS_INTEGER, &gpus) < 0)
        return -1;
    const char *model = row->r->fields[c[N_MODEL]];
    if (!*model != (gpus == 0))
        return mls_fail(row->err, "%s:%ld: field 'model': '%s' with %g GPUs", row->path,
                        row->r->line_no, model, gpus);
    double gpu_mem = NAN;
    const char *type = *model ? rows_gpu_model(model, &gpu_mem) : NULL;
    import_machine_t m = {type ? strtab_intern(&st->rs->gpu_types, type) : -1,
                          (int)gpus,
                          gpu_mem,
                          cpu / 1000,
                          mem / 1024,
                          -1};
    records_add_machine(st->rs, &m);
    return 0;
}

static int any_row(void *state, const rows_ctx_t *row)
{
    const openb_state_t *st = state;
    if (row->r->n_fields != st->n_cols)
        return mls_fail(row->err, "%s:%ld: %zu fields; the header names %zu", row->path,
                        row->r->line_no, row->r->n_fields, st->n_cols);
    return st->nodes ? node_row(st, row) : pod_row(state, row);
}

int openb_read_records(import_records_t *rs, const char *path, unsigned flags, long *skipped,
                       mls_err_t *err)
{
    openb_state_t st = {.rs = rs};
    size_t base = rs->n, base_machines = rs->n_machines;
    int rc = rows_each(path, pod_header, any_row, &st, flags, skipped, err);
    if (rc < 0) {
        rs->n = base;
        rs->n_machines = base_machines;
    }
    return rc;
}
