/* trace.h: the canonical job list that every importer produces and the
 * simulator replays.
 *
 * On disk it is a CSV with a header line; columns may come in any order:
 *
 *   id            integer, unique                                (required)
 *   submit_time   s since the trace's start, >= 0, non-decreasing (required)
 *                 (every time and duration is at most MLS_MAX_TIME, 10^12 s)
 *   user          string, default "default"
 *   workload      key into the perf model, e.g. "ResNet-50 (batch size 64)" (required)
 *   gpus          GPUs requested, >= 1                           (required)
 *   total_work    work units (iterations, or samples, per workload), > 0 (required)
 *   duration      the user's duration estimate in s, empty = none
 *   priority      weight > 0, default 1
 *   deadline      absolute s, not before submit_time, empty = none
 *   min_gpus, max_gpus   elastic range, default = gpus
 *   batch_size    per-GPU batch, default 0 (the workload's own)
 *   mode          batch-size adaptation: static (default), accordion, gns
 *   cpus          CPU cores the job asks for, > 0; empty = the cluster's CPUs per
 *                 GPU times gpus (filled where the view is built)
 *   mem_gb        host memory in GB, > 0; empty = the cluster's memory per GPU
 *                 times gpus
 *   gang          id > 0 of the multi-component program the row is one
 *                 computation of (Pathways, Barham et al., MLSys 2022): the
 *                 rows of one gang arrive together (same submit_time), start
 *                 together or not at all, each within one island of the
 *                 cluster (a rack), and progress in lockstep; empty or 0 = none
 *   total_batch   the job's total batch (samples per optimizer step over all
 *                 its GPUs) as the source gives it, > 0; empty or 0 = not
 *                 given. batch_size stays the per-GPU batch at `gpus` (a
 *                 total that does not divide by gpus is rounded up there, so
 *                 the exact total is only here); a policy that keeps the
 *                 total batch as a job's GPUs change (optimus -P batch=total)
 *                 reads it
 *
 * The writer emits the cpus and mem_gb columns only when some job sets them,
 * gang only when some job has one, and total_batch only when some job gives
 * one, so traces without them are written exactly as before.
 * Numbers are decimal (no hexadecimal, inf or nan); a NUL byte is an error.
 * Fields may be double-quoted (RFC 4180). Lines starting with '#' are comments.
 * A column not listed above is an error unless TRACE_IGNORE_EXTRA is given.
 * Every error names the file, the line and the field. */
#ifndef MLS_TRACE_H
#define MLS_TRACE_H

#include "model/strtab.h"
#include "model/util.h"

#include <stdint.h>

typedef enum mls_adapt_mode { ADAPT_STATIC = 0, ADAPT_ACCORDION = 1, ADAPT_GNS = 2 } mls_adapt_mode_t;

typedef struct mls_job {
    int64_t id;
    double submit; /* s */
    int user;      /* index into trace->users */
    int workload;  /* index into trace->workloads */
    int gpus;
    double work;     /* work units */
    double duration; /* user's estimate in s, NAN = none */
    double priority;
    double deadline; /* absolute s, INFINITY = none */
    int min_gpus, max_gpus;
    int batch_size;
    mls_adapt_mode_t mode;
    double cpus;   /* CPU cores asked for, 0 = not given (cluster default) */
    double mem_gb; /* host memory in GB, 0 = not given (cluster default) */
    int64_t gang;  /* multi-component program it belongs to, 0 = none */
    int total_batch; /* total batch over all its GPUs as the source gives it, 0 = none */
    long line;     /* the line it was read from, 0 when not read from a file */
} mls_job_t;

typedef struct mls_trace {
    mls_job_t *jobs;
    size_t n, cap;
    strtab_t users;
    strtab_t workloads;
    char *path;        /* where it was read from, or NULL */
    char checksum[17]; /* FNV-1a 64 of the file's bytes, "" when not from a file */
} mls_trace_t;

/* TRACE_NO_CHECKSUM: the checksum is left "" (a reader that stores none
 * skips a second pass over the file's bytes). */
enum { TRACE_IGNORE_EXTRA = 1, TRACE_NO_CHECKSUM = 2 };

void trace_init(mls_trace_t *t);
void trace_free(mls_trace_t *t);
/* Appends a job (fields copied); returns its index. */
size_t trace_add(mls_trace_t *t, const mls_job_t *job);
/* Validates ids unique, times >= 0 and non-decreasing, gpus >= 1, work > 0,
 * min <= gpus <= max. */
int trace_validate(const mls_trace_t *t, mls_err_t *err);
int trace_read_csv(mls_trace_t *t, const char *path, unsigned flags, mls_err_t *err);
/* "PATH:LINE: job ID" (or "PATH: job ID" when the job has no line) for
 * messages about job i. */
void trace_job_where(const mls_trace_t *t, size_t i, char *buf, size_t cap);
/* The shortest "%.*g" text, precision 10 to 17, that reads back to v (the
 * writer's number format). */
void trace_format_num(char *buf, size_t cap, double v);
/* Writes atomically (a failed write leaves no file). */
int trace_write_csv(const mls_trace_t *t, const char *path, mls_err_t *err);

#endif
