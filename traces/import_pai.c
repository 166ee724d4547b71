/* import_pai.c: the Alibaba PAI GPU trace v2020 (NSDI'22 "MLaaS in the Wild")
 * as records, and its machine spec for --emit-cluster.
 *
 * The trace is three headerless tables joined on job_name (column names in
 * the *.header files):
 *
 *   pai_job_table       job_name,inst_id,user,status,start_time,end_time
 *   pai_task_table      job_name,task_name,inst_num,status,start_time,end_time,
 *                       plan_cpu,plan_mem,plan_gpu,gpu_type
 *   pai_instance_table  job_name,task_name,inst_name,worker_name,inst_id,status,
 *                       start_time,end_time,machine
 *
 * The full tables have ~1.3 M rows each, so each is read once as a stream:
 * the job table makes one record per job and interns its name (a hash of
 * job_name -> record index), and task and instance rows add to their job's
 * record through that hash. Nothing but the records and one small
 * accumulator per job is held.
 *
 * Mapping: submit = the job's start_time (PAI's job start_time is the
 * submission; end_time its completion; seconds with a constant offset).
 * GPUs = sum over tasks of plan_gpu / 100 x inst_num (plan_gpu is a percent:
 * 50 = half a GPU, 800 = 8 GPUs; empty = none); cores and memory likewise
 * from plan_cpu (percent) and plan_mem (GB). The GPU type is that of the task
 * asking for the most GPUs (MISC, T4, P100, V100, V100M32; other names are
 * kept as they are). start = the first instance start (the first task start
 * when the instance table is absent or has none; never before the submit);
 * duration = job end_time - start; nodes = the distinct machines its
 * instances ran on (unknown without instance rows; at most its GPU count
 * rounded up, since CPU-only instances such as parameter servers may run on
 * machines that hold none of its GPUs). Status: Terminated = pass, Failed =
 * failed, Running and Waiting = running at the snapshot (duration unknown
 * when end_time is empty).
 *
 * Inputs: a directory (its pai_job_table.csv, pai_task_table.csv, and
 * pai_instance_table.csv and pai_machine_spec.csv when present), a job table
 * (its tables found by name, see import_readers.h), or the machine spec alone (a
 * file named *machine_spec*: machines, no jobs).
 *
 * Machines (pai_machine_spec.csv: machine,gpu_type,cap_cpu,cap_mem,cap_gpu)
 * get the perf model's GPU names (V100, V100M32 -> v100 with 16 / 32 GB,
 * P100 -> p100, T4 -> t4, MISC -> k80; see rows_gpu_model); CPU machines
 * have no GPU type.
 *
 * Join misses are bad rows: a task or instance row whose job is not in the
 * job table (named at the task/instance row), and a job without any task
 * row (named at the job row; its GPUs would be unknown). */
#include "traces/import.h"
#include "traces/import_readers.h"
#include "traces/import_rows.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct pai_acc {
    double end;        /* the job's end_time, NAN unknown */
    double type_gpus;  /* GPUs of the task that set the GPU type */
    double task_start; /* earliest task start, NAN none */
    double inst_start; /* earliest instance start, NAN none */
    long tasks;        /* task rows seen */
    int nodes;         /* distinct machines its instances ran on */
} pai_acc_t;

/* A set of (job, machine) pairs, to count each job's machines once:
 * open addressing over key + 1 (0 = empty). */
typedef struct pair_set {
    uint64_t *slots;
    size_t cap, n;
} pair_set_t;

typedef struct pai_state {
    import_records_t *rs;
    size_t base;    /* index of this read's first record in rs */
    strtab_t names; /* job_name -> index from base */
    pai_acc_t *acc;
    size_t acc_cap;
    strtab_t machines; /* instance machine names */
    pair_set_t seen;   /* (job, machine) pairs met */
    const char *job_path;
} pai_state_t;

static size_t pair_slot(const pair_set_t *s, uint64_t key)
{
    uint64_t h = (key + 1) * 0x9E3779B97F4A7C15ULL;
    size_t i = (size_t)(h >> 17) & (s->cap - 1);
    while (s->slots[i] && s->slots[i] != key + 1)
        i = (i + 1) & (s->cap - 1);
    return i;
}

/* 1 when the pair is new (and now in the set), 0 when it was there. */
static int pair_add(pair_set_t *s, uint64_t key)
{
    if (2 * (s->n + 1) > s->cap) {
        pair_set_t bigger = {xcalloc(s->cap ? 2 * s->cap : 1024, sizeof *s->slots),
                             s->cap ? 2 * s->cap : 1024, 0};
        for (size_t i = 0; i < s->cap; i++)
            if (s->slots[i])
                bigger.slots[pair_slot(&bigger, s->slots[i] - 1)] = s->slots[i];
        bigger.n = s->n;
        free(s->slots);
        *s = bigger;
    }
    size_t i = pair_slot(s, key);
    if (s->slots[i])
        return 0;
    s->slots[i] = key + 1;
    s->n++;
    return 1;
}

static double fmin_known(double a, double b)
{
    return isnan(a) ? b : isnan(b) ? a : fmin(a, b);
}

static double add_known(double sum, double v)
{
    return isnan(v) ? sum : (isnan(sum) ? 0 : sum) + v;
}

static int status_of(const rows_ctx_t *row, int col, rec_status_t *out)
{
    const char *s;
    if (rows_str(row, col, "status", &s) < 0)
        return -1;
    *out = !strcmp(s, "Terminated")                         ? REC_PASS
           : !strcmp(s, "Failed")                           ? REC_FAILED
           : !strcmp(s, "Running") || !strcmp(s, "Waiting") ? REC_RUNNING
                                                            : REC_UNKNOWN;
    if (*out == REC_UNKNOWN)
        return mls_fail(row->err,
                        "%s:%ld: field 'status': '%s' is not Terminated, Failed, Running or "
                        "Waiting",
                        row->path, row->r->line_no, s);
    return 0;
}

static int job_row(void *state, const rows_ctx_t *row)
{
    pai_state_t *st = state;
    const char *name;
    import_record_t rec = record_blank();
    double end;
    if (rows_nfields(row, 6, "pai_job_table") < 0 || rows_str(row, 0, "job_name", &name) < 0 ||
        status_of(row, 3, &rec.status) < 0 ||
        rows_num(row, 4, "start_time", ROWS_NONNEG, &rec.submit) < 0 ||
        rows_num(row, 5, "end_time", ROWS_NONNEG | ROWS_MISSING_OK, &end) < 0)
        return -1;
    if (end < rec.submit)
        return mls_fail(row->err, "%s:%ld: field 'end_time': %.17g is before start_time %.17g",
                        row->path, row->r->line_no, end, rec.submit);
    int idx = strtab_find(&st->names, name);
    if (idx >= 0)
        return mls_fail(row->err,
                        "%s:%ld: field 'job_name': '%s' appears twice (first at line %ld)",
                        row->path, row->r->line_no, name, st->rs->r[st->base + idx].line);
    const char *user = row->r->fields[2];
    rec.user = rows_is_missing(user) ? -1 : strtab_intern(&st->rs->users, user);
    rec.gpus = 0; /* summed over the tasks */
    rec.line = row->r->line_no;
    idx = strtab_intern(&st->names, name);
    records_add(st->rs, &rec);
    xgrow((void **)&st->acc, &st->acc_cap, (size_t)idx + 1, sizeof *st->acc);
    st->acc[idx] = (pai_acc_t){end, 0, NAN, NAN, 0, 0};
    return 0;
}

/* The job a task or instance row belongs to, or -1 (a join miss). */
static int job_of(pai_state_t *st, const rows_ctx_t *row)
{
    const char *name;
    if (rows_str(row, 0, "job_name", &name) < 0)
        return -1;
    int idx = strtab_find(&st->names, name);
    if (idx < 0)
        return mls_fail(row->err, "%s:%ld: field 'job_name': no job '%s' in %s", row->path,
                        row->r->line_no, name, st->job_path);
    return idx;
}

static int task_row(void *state, const rows_ctx_t *row)
{
    pai_state_t *st = state;
    double inst, start, end, cpu, mem, gpu;
    if (rows_nfields(row, 10, "pai_task_table") < 0)
        return -1;
    int idx = job_of(st, row);
    if (idx < 0 || rows_num(row, 2, "inst_num", ROWS_NONNEG | ROWS_INTEGER, &inst) < 0 ||
        rows_num(row, 4, "start_time", ROWS_NONNEG | ROWS_MISSING_OK, &start) < 0 ||
        rows_num(row, 5, "end_time", ROWS_NONNEG | ROWS_MISSING_OK, &end) < 0 ||
        rows_num(row, 6, "plan_cpu", ROWS_NONNEG | ROWS_MISSING_OK, &cpu) < 0 ||
        rows_num(row, 7, "plan_mem", ROWS_NONNEG | ROWS_MISSING_OK, &mem) < 0 ||
        rows_num(row, 8, "plan_gpu", ROWS_NONNEG | ROWS_MISSING_OK, &gpu) < 0)
        return -1;
    if (end < start)
        return mls_fail(row->err, "%s:%ld: field 'end_time': %.17g is before start_time %.17g",
                        row->path, row->r->line_no, end, start);
    import_record_t *rec = &st->rs->r[st->base + idx];
    pai_acc_t *a = &st->acc[idx];
    double task_gpus = isnan(gpu) ? 0 : gpu / 100 * inst;
    rec->gpus += task_gpus;
    rec->cpus = add_known(rec->cpus, cpu / 100 * inst);
    rec->mem_gb = add_known(rec->mem_gb, mem * inst);
    const char *type = row->r->fields[9];
    if (!rows_is_missing(type) && (rec->gpu_type < 0 || task_gpus > a->type_gpus)) {
        rec->gpu_type = strtab_intern(&st->rs->gpu_types, type);
        a->type_gpus = task_gpus;
    }
    a->task_start = fmin_known(a->task_start, start);
    a->tasks++;
    return 0;
}

static int instance_row(void *state, const rows_ctx_t *row)
{
    pai_state_t *st = state;
    double start, end;
    if (rows_nfields(row, 9, "pai_instance_table") < 0)
        return -1;
    int idx = job_of(st, row);
    if (idx < 0 || rows_num(row, 6, "start_time", ROWS_NONNEG | ROWS_MISSING_OK, &start) < 0 ||
        rows_num(row, 7, "end_time", ROWS_NONNEG | ROWS_MISSING_OK, &end) < 0)
        return -1;
    if (end < start)
        return mls_fail(row->err, "%s:%ld: field 'end_time': %.17g is before start_time %.17g",
                        row->path, row->r->line_no, end, start);
    st->acc[idx].inst_start = fmin_known(st->acc[idx].inst_start, start);
    const char *machine = row->r->fields[8];
    if (!rows_is_missing(machine)) {
        uint64_t m = (uint64_t)strtab_intern(&st->machines, machine);
        st->acc[idx].nodes += pair_add(&st->seen, (uint64_t)idx << 32 | m);
    }
    return 0;
}

/* Start and duration from the accumulators; drops (or fails on) jobs that no
 * task row named. */
static int finish(pai_state_t *st, unsigned flags, long *skipped, mls_err_t *err)
{
    import_records_t *rs = st->rs;
    size_t out = st->base;
    for (size_t i = 0; i < st->names.n; i++) {
        import_record_t rec = rs->r[st->base + i];
        const pai_acc_t *a = &st->acc[i];
        int bad = 0;
        if (a->tasks == 0) {
            bad = mls_fail(err, "%s:%ld: field 'job_name': job '%s' has no row in the task table",
                           st->job_path, rec.line, st->names.names[i]);
        } else {
            double start = isnan(a->inst_start) ? a->task_start : a->inst_start;
            rec.start = isnan(start) ? NAN : fmax(start, rec.submit);
            double from = isnan(rec.start) ? rec.submit : rec.start;
            if (a->end < from)
                bad = mls_fail(err,
                               "%s:%ld: field 'end_time': %.17g is before the job's first "
                               "start %.17g (task/instance tables)",
                               st->job_path, rec.line, a->end, from);
            rec.duration = a->end - from; /* NAN when end_time is empty */
            /* parameter servers and other CPU-only instances may add machines
             * that hold none of the job's GPUs */
            double gpu_cap = fmax(1, ceil(rec.gpus));
            rec.nodes = a->nodes < gpu_cap ? a->nodes : (int)gpu_cap;
        }
        if (bad < 0) {
            if (import_bad_row(flags, skipped) < 0)
                return -1;
            continue;
        }
        rs->r[out++] = rec;
    }
    rs->n = out;
    return 0;
}

static int is_dir(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 && S_ISDIR(sb.st_mode);
}

/* DIR/NAME, or PATH with "job_table" in its file name replaced by `table`. */
static char *sibling(const char *path, const char *table, const char *dir_name)
{
    if (is_dir(path)) {
        char *s = xmalloc(strlen(path) + strlen(dir_name) + 2);
        sprintf(s, "%s/%s", path, dir_name);
        return s;
    }
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (!table) { /* the machine spec: beside the job table */
        size_t dlen = (size_t)(base - path);
        char *s = xmalloc(dlen + strlen(dir_name) + 1);
        memcpy(s, path, dlen);
        strcpy(s + dlen, dir_name);
        return s;
    }
    const char *at = strstr(base, "job_table");
    if (!at)
        return NULL;
    size_t pre = (size_t)(at - path);
    char *s = xmalloc(strlen(path) + strlen(table) + 1);
    memcpy(s, path, pre);
    sprintf(s + pre, "%s%s", table, at + strlen("job_table"));
    return s;
}

int pai_read_records(import_records_t *rs, const char *path, unsigned flags, long *skipped,
                     mls_err_t *err)
{
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (strstr(base, "machine_spec") && !is_dir(path))
        return pai_read_machines(rs, path, flags, skipped, err);
    char *job = is_dir(path) ? sibling(path, NULL, "pai_job_table.csv") : xstrdup(path);
    char *task = sibling(path, "task_table", "pai_task_table.csv");
    char *inst = sibling(path, "instance_table", "pai_instance_table.csv");
    pai_state_t st = {.rs = rs, .base = rs->n, .job_path = job};
    strtab_init(&st.names);
    strtab_init(&st.machines);
    int rc = 0;
    if (!task)
        rc = mls_fail(err,
                      "%s: cannot name the task table: give the directory, a file named "
                      "*job_table*, or the machine spec (*machine_spec*)",
                      path);
    if (rc == 0)
        rc = rows_each(job, NULL, job_row, &st, flags, skipped, err);
    if (rc == 0)
        rc = rows_each(task, NULL, task_row, &st, flags, skipped, err);
    if (rc == 0 && access(inst, R_OK) == 0)
        rc = rows_each(inst, NULL, instance_row, &st, flags, skipped, err);
    if (rc == 0)
        rc = finish(&st, flags, skipped, err);
    if (rc < 0)
        rs->n = st.base;
    if (rc == 0 && is_dir(path)) {
        char *spec = sibling(path, NULL, "pai_machine_spec.csv");
        if (access(spec, R_OK) == 0)
            rc = pai_read_machines(rs, spec, flags, skipped, err);
        free(spec);
    }
    strtab_free(&st.names);
    strtab_free(&st.machines);
    free(st.seen.slots);
    free(st.acc);
    free(job);
    free(task);
    free(inst);
    return rc;
}

static int machine_row(void *state, const rows_ctx_t *row)
{
    import_records_t *rs = state;
    const char *name, *type;
    double cpu, mem, gpus;
    if (rows_nfields(row, 5, "pai_machine_spec") < 0 || rows_str(row, 0, "machine", &name) < 0 ||
        rows_str(row, 1, "gpu_type", &type) < 0 ||
        rows_num(row, 2, "cap_cpu", ROWS_NONNEG, &cpu) < 0 ||
        rows_num(row, 3, "cap_mem", ROWS_NONNEG, &mem) < 0 ||
        rows_num(row, 4, "cap_gpu", ROWS_NONNEG | ROWS_INTEGER, &gpus) < 0)
        return -1;
    int cpu_only = !strcmp(type, "CPU");
    if (cpu_only != (gpus == 0))
        return mls_fail(row->err, "%s:%ld: field 'cap_gpu': %g GPUs on a '%s' machine", row->path,
                        row->r->line_no, gpus, type);
    double gpu_mem;
    const char *model = cpu_only ? NULL : rows_gpu_model(type, &gpu_mem);
    if (!cpu_only && !model)
        return mls_fail(row->err,
                        "%s:%ld: field 'gpu_type': '%s' is not CPU, MISC, T4, P100, "
                        "V100 or V100M32",
                        row->path, row->r->line_no, type);
    import_machine_t m = {cpu_only ? -1 : strtab_intern(&rs->gpu_types, model),
                          (int)gpus,
                          cpu_only ? NAN : gpu_mem,
                          cpu,
                          mem,
                          -1};
    records_add_machine(rs, &m);
    return 0;
}

int pai_read_machines(import_records_t *rs, const char *path, unsigned flags, long *skipped,
                      mls_err_t *err)
{
    size_t base = rs->n_machines;
    int rc = rows_each(path, NULL, machine_row, rs, flags, skipped, err);
    if (rc < 0)
        rs->n_machines = base;
    return rc;
}
