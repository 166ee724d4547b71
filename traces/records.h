/* records.h: production-trace records, before they become jobs.
 *
 * Production traces (Philly, Helios, PAI, openb, ITP) give sizes, times and
 * durations, not models. Their importers therefore do not write jobs: each
 * reads its files as a stream into import_record_t rows (one per job, times
 * in the trace's own clock, strings interned), and one shared pipeline turns
 * records into jobs (traces/mapping.c):
 *
 *   format reader -> records -> filters (window, VC, user, GPUs, status)
 *                 -> preset (the papers' preprocessing) -> workload mapping
 *                 -> canonical trace (submit rebased to 0, ids 0..n-1)
 *
 * Mapping is an explicit, seeded choice (uniform, gpu-time-buckets, or a
 * mapping file); total work = duration x the workload's throughput at the
 * traced GPU count on the reference GPU, so that a job replayed alone on its
 * traced allocation takes its traced duration.
 *
 * Readers may also record the machines a trace names (Philly's machine list,
 * PAI's machine spec, openb's node list) for --emit-cluster. */
#ifndef MLS_RECORDS_H
#define MLS_RECORDS_H

#include "model/strtab.h"
#include "model/util.h"

#include <stdint.h>

typedef enum rec_status {
    REC_UNKNOWN = 0,
    REC_PASS = 1,    /* completed / Pass / Terminated */
    REC_KILLED = 2,  /* cancelled / Killed */
    REC_FAILED = 3,  /* failed, timeout, node failure */
    REC_RUNNING = 4, /* still running or waiting at the snapshot */
} rec_status_t;

typedef struct import_record {
    double submit;     /* s in the trace's own clock (epoch s, or s since its start) */
    double start;      /* first start, same clock; NAN unknown */
    double duration;   /* s of execution (summed over attempts); NAN unknown */
    double gpus;       /* GPUs; fractional for shared GPUs (0.5 = half of one) */
    int nodes;         /* nodes spanned; 0 unknown */
    double cpus;       /* cores; NAN unknown */
    double mem_gb;     /* NAN unknown */
    int user;          /* index into records->users, -1 none */
    int vc;            /* index into records->vcs (VC, cluster, queue), -1 none */
    int gpu_type;      /* index into records->gpu_types, -1 none */
    int workload;      /* index into records->workloads when the trace names a model, -1 */
    rec_status_t status;
    int attempts;      /* -1 unknown */
    double iterations; /* given by some generated traces (ElasticFlow, Tiresias); NAN */
    int batch_size;    /* 0 unknown */
    double deadline;   /* absolute, the submit clock; INFINITY none */
    long line;         /* source line, for messages */
    int file;          /* index into records->files (set by records_add), for messages */
} import_record_t;

typedef struct import_machine {
    int gpu_type; /* index into records->gpu_types, -1 CPU-only */
    int gpus;
    double gpu_mem_gb; /* NAN unknown */
    double cpus, mem_gb;
    int rack; /* -1 unknown */
} import_machine_t;

typedef struct import_records {
    import_record_t *r;
    size_t n, cap;
    strtab_t users, vcs, gpu_types, workloads;
    import_machine_t *machines;
    size_t n_machines, machines_cap;
    strtab_t files;   /* input paths; records_begin_file() sets the current one */
    int cur_file;     /* stamped on each record records_add() appends */
    int clock_epoch;  /* 1 when submit is Unix time (calendar dates mean something) */
} import_records_t;

void records_init(import_records_t *rs);
void records_free(import_records_t *rs);
/* A record with every field "unknown" (NAN, -1, 0 as documented above). */
import_record_t record_blank(void);
size_t records_add(import_records_t *rs, const import_record_t *r);
size_t records_add_machine(import_records_t *rs, const import_machine_t *m);
/* Names the input the next records come from (the pipeline calls it before
 * each reader; readers need not). */
void records_begin_file(import_records_t *rs, const char *path);
/* The path a record came from ("-" when none). */
const char *records_file(const import_records_t *rs, const import_record_t *r);

/* "YYYY-MM-DD[ |T]HH:MM[:SS[.fff]][Z|+HH:MM|-HH:MM|+HHMM]" or "YYYY-MM-DD" ->
 * Unix seconds. Without a zone the wall-clock time is read as UTC. -1 when
 * the text is not such a time (NaN, empty, out-of-range fields). */
int rec_parse_time(const char *s, double *epoch);

#endif
