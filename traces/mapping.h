/* mapping.h: the pipeline that turns production-trace records into jobs.
 *
 *   records -> filters -> preset -> workload mapping -> canonical trace
 *
 * Filters keep records by time window, VC, user, GPU count and status.
 * Presets reproduce the preprocessing of a paper (pollux, gavel, blox, helios;
 * each documented in mapping.c and the README). Mapping gives every job a
 * workload of the perf model, chosen by an explicit seeded rule:
 *
 *   uniform           Gavel's way: uniform among the workloads that run at
 *                     the job's GPU count on the reference GPU
 *   gpu-time-buckets  Pollux's way: the class follows the job's GPU-hours
 *   FILE              a mapping file (format in mapping.c and the README)
 *
 * and total work = traced duration x that workload's throughput at the traced
 * GPU count on the reference GPU, so a job replayed alone on its traced
 * allocation takes its traced duration. Records that name a workload keep it
 * (work = iterations where given). The canonical trace has submit times
 * rebased to 0, sorted, ids 0..n-1, and the traced duration in `duration`.
 *
 * Nothing is dropped or changed silently: every dropped or adjusted record
 * is counted in an import_report_t, printed as one line. */
#ifndef MLS_MAPPING_H
#define MLS_MAPPING_H

#include "model/perf.h"
#include "model/trace.h"
#include "traces/records.h"

#include <stdint.h>
#include <stdio.h>

typedef enum import_mapping {
    MAP_UNIFORM = 0,
    MAP_GPU_TIME_BUCKETS = 1,
    MAP_FILE = 2,
} import_mapping_t;

typedef struct import_filters {
    double win_lo, win_hi; /* [lo, hi); NAN = no window */
    int win_absolute;      /* 1: the trace's clock (dates given); 0: s after its first submit */
    const char *vcs;       /* comma-separated names kept; NULL = all */
    const char *users;     /* comma-separated names kept; NULL = all */
    int min_gpus, max_gpus; /* 0 = no bound (after fractional counts are rounded up) */
    unsigned status_mask;  /* bit (1 << rec_status_t) per status kept; 0 = all */
} import_filters_t;

/* A preset's fixed preprocessing (set by import_apply_preset). */
typedef struct import_preset_rules {
    double min_duration, max_duration; /* s, [min, max]; NAN = none */
    double max_gpu_hours;              /* GPU-hours < this; NAN = none */
    int max_gpus;                      /* 0 = none */
    int drop_no_attempts;              /* drop records with attempts == 0 */
    int pollux_window;                 /* Pollux's time-of-day window and sample */
    double tod_start_h, tod_hours;     /* that window: [start, start + hours) of each day */
    long sample_jobs;                  /* jobs drawn from it */
    int per_vc;                        /* helios: one trace and cluster per VC */
} import_preset_rules_t;

typedef struct import_options {
    import_filters_t filters;
    const char *preset; /* NULL, "pollux", "gavel", "blox", "helios" */
    import_preset_rules_t rules;
    import_mapping_t mapping;
    const char *mapping_file; /* MAP_FILE */
    uint64_t seed;
    const char *reference_gpu; /* default "v100" */
    int remap;                 /* map even records that name a workload */
    const char *vc_sizes;      /* helios preset: "vc,nodes" file */
    int gpus_per_node;         /* helios preset: GPUs per node of a VC (default 8) */
    unsigned flags;            /* IMPORT_SKIP_BAD */
} import_options_t;

/* Counts of what the pipeline read, dropped and changed. */
typedef struct import_report {
    long records;      /* read */
    long bad;          /* rows the readers skipped (--skip-bad) */
    long bad_mapping;  /* records the pipeline found bad and skipped (--skip-bad) */
    long filtered;     /* left out by --window/--vc/--user/--min-gpus/--max-gpus/--status */
    long preset_out;   /* left out by the preset's rules */
    long cpu_only;     /* GPU count 0 */
    long no_attempts;  /* never started (Philly: no attempts) */
    long no_duration;  /* no usable duration (running at the snapshot, 0 s) */
    long rounded_up;   /* fractional GPU counts rounded up */
    long fallback;     /* gpu-time-buckets: class analog cannot run at that size; uniform used */
    long kept_named;   /* jobs that kept the workload their trace names */
    long jobs;         /* written */
    double gpu_hours;  /* of the written jobs with a duration */
    long extrapolated; /* written jobs above their workload's measured GPU count (perf.h) */
    double extrapolated_gpu_hours;
    int extrapolated_max_gpus;
    long pollux_elastic; /* preset pollux: jobs of Pollux's applications, made elastic */
    long pollux_rigid;   /* preset pollux: jobs whose workload is none of Pollux's */
} import_report_t;

void import_options_defaults(import_options_t *o);
/* Sets o->preset, its rules and its mapping; -1 for an unknown name. */
int import_apply_preset(import_options_t *o, const char *name);
/* "START:END" in s after the trace's first submit, or two dates
 * ("2017-10-03" or "2017-10-03 12:00:00"; then the trace's clock). */
int import_parse_window(const char *s, import_filters_t *f);
/* "pass,killed,failed,running,unknown" -> status mask. */
int import_parse_status(const char *s, unsigned *mask);
/* "uniform", "gpu-time-buckets", or a path (MAP_FILE). */
void import_parse_mapping(const char *s, import_options_t *o);

/* Records -> canonical jobs appended to `out` (sorted, rebased, ids 0..n-1).
 * job_vc, when not NULL, receives a malloc'd array: the VC index (into
 * rs->vcs, -1 none) of each output job. */
int import_map_records(const import_records_t *rs, const mls_perf_t *pm,
                       const import_options_t *o, mls_trace_t *out, int **job_vc,
                       import_report_t *rep, mls_err_t *err);

/* One line: "N jobs from R records; dropped: ...; adjusted: ..." (no newline). */
void import_report_print(const import_report_t *rep, FILE *fp);

/* The machines a trace names, as a cluster JSON (traces/clusters format):
 * one node group per distinct (GPU type, GPUs, GPU memory, CPUs, memory).
 * Machines of unknown GPU type get `default_gpu`; CPU-only ones are left out. */
int import_write_cluster(const import_records_t *rs, const char *name, const char *default_gpu,
                         const char *path, mls_err_t *err);

/* A VC-size file ("vc,node num" or ",num", one VC a line) -> cluster JSON of
 * `nodes x gpus_per_node` GPUs of `gpu` for VC `vc`. 1 when the VC is not in
 * the file, 0 written, -1 error. */
int import_write_vc_cluster(const char *sizes_path, const char *vc, int gpus_per_node,
                            const char *gpu, const char *path, mls_err_t *err);

#endif
