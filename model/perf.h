/* perf.h: the performance model — how fast a job runs on an allocation.
 *
 * The engine moves each job at perf_throughput() work units per second for
 * its current allocation; that is the only place rates come from. Backends
 * implement perf_ops_t:
 *   - table   (model/perf_table.c): Gavel's throughput JSON, as measured files
 *             are published (../shared/data/gavel/throughputs, Shockwave's);
 *             work units are iterations; pair entries give space sharing; an
 *             optional "multiplex" section marks foreground workloads for
 *             DeepPool's GPU multiplexing (ops->multiplex).
 *   - pollux  (model/perf_pollux.c): Pollux's fitted goodput model (OSDI 2021,
 *             §3); work units are samples at the initial batch size M0
 *             ("M0-equivalent samples"), and the rate depends on progress,
 *             because the gradient noise scale grows over training. The
 *             catalog schema is in model/perf_pollux.h and the README.
 *   - curves  (model/perf_curves.c): profiler/ curve files (`# mlsched-curves v1`)
 *             or the catalog `mlsched profile fit` writes ("format":
 *             "mlsched-curves-catalog v1"); work units are samples; the catalog's
             measured pairs (pair files) give space sharing.
 * The backends are one table (model/perf.c, perf_backend_t rows: name, sniff,
 * load); perf_load() loads a file with the first backend whose sniff
 * recognises its content (a JSON object whose "format" is
 * "mlsched-pollux-catalog" is a Pollux catalog; table is the fallback).
 *
 * Progress-dependent rates: a backend whose rate changes with progress sets
 * `goodput` and `next_change`. The rate is constant on [work_done,
 * next_change(work_done)), so the engine integrates exactly by issuing an
 * event at next_change (an epoch boundary) and re-rating there. Backends with
 * constant rates leave both NULL and the engine never asks.
 *
 * Workloads and GPU types are named by strings in the model ("ResNet-50
 * (batch size 64)", "v100"); callers resolve names to indices once and use
 * indices in the hot path. */
#ifndef MLS_PERF_H
#define MLS_PERF_H

#include "model/strtab.h"
#include "model/util.h"

typedef struct mls_perf mls_perf_t;

/* An elastic workload's batch sizes (samples). */
typedef struct perf_batch_limits {
    int init_batch;      /* M0: the batch the user's hyper-parameters were tuned for */
    int max_batch;       /* largest total batch */
    int min_local_batch; /* per GPU, per micro-step */
    int max_local_batch; /* per GPU, per micro-step (memory) */
    double epoch_work;   /* work units in one epoch (the dataset), 0 when unknown */
} perf_batch_limits_t;

typedef struct perf_ops {
    const char *backend;
    int (*n_workloads)(const mls_perf_t *pm);
    const char *(*workload_name)(const mls_perf_t *pm, int w);
    int (*n_gpu_types)(const mls_perf_t *pm);
    const char *(*gpu_type_name)(const mls_perf_t *pm, int t);
    /* Work units/s of workload w alone on `gpus` GPUs of model type t spread
     * over `nodes` nodes at per-GPU batch `batch` (0 = the workload's own).
     * 0 when it cannot run there. */
    double (*throughput)(const mls_perf_t *pm, int w, int t, int gpus, int nodes, int batch);
    /* Rates of a and b sharing the same `gpus` GPUs of type t; -1 when they
     * cannot share. NULL when the backend has no pair data. */
    int (*pair)(const mls_perf_t *pm, int a, int b, int t, int gpus, double out[2]);
    void (*destroy)(mls_perf_t *pm);

    /* ---- optional: NULL when the backend lacks them ---- */
    /* Work units/s of w on `gpus` GPUs of type t over `nodes` nodes at
     * per-GPU (atomic) batch `batch` with `accum` gradient-accumulation
     * steps, once `work_done` units are done: throughput x efficiency. 0 when
     * it cannot run so (batch over the GPU's memory limit). */
    double (*goodput)(const mls_perf_t *pm, int w, int t, int gpus, int nodes, int batch,
                      int accum, double work_done);
    /* The least work amount > work_done at which goodput may change (the
     * next epoch boundary); INFINITY when it never changes again. */
    double (*next_change)(const mls_perf_t *pm, int w, double work_done);
    /* Samples/s of the fitted model (no efficiency). */
    double (*samples_rate)(const mls_perf_t *pm, int w, int t, int gpus, int nodes, int batch,
                           int accum);
    /* The gradient noise scale phi (samples) that training at total batch
     * `total_batch` shows once `work_done` units are done. */
    double (*noise_scale)(const mls_perf_t *pm, int w, double total_batch, double work_done);
    /* Batch limits of w on type t (t = -1: the loosest over types). */
    int (*batch_limits)(const mls_perf_t *pm, int w, int t, perf_batch_limits_t *out);
    /* The largest GPU count at which workload w has data on type t (beyond
     * it, rates are extrapolated); 0 when none. NULL: no limit. */
    int (*max_gpus)(const mls_perf_t *pm, int w, int t);
    /* GPU multiplexing (DeepPool, Park et al., MLSys 2022): when the model
     * marks w as a foreground workload with a known idle fraction on `gpus`
     * GPUs of type t (the share of its GPUs' time its burst-parallel plan
     * leaves idle), writes that fraction to *idle and the foreground's
     * slowdown under a background job sharing its GPUs to *interference, and
     * returns 0; -1 when w is no such workload there. view_perf_pair() rates
     * such a pair from this model instead of `pair`. */
    int (*multiplex)(const mls_perf_t *pm, int w, int t, int gpus, double *idle,
                     double *interference);
    /* The rate the engine advances a job at, when it differs from the
     * goodput the policies are shown (the pollux backend's measured-rates
     * mode: the measured step times, as Pollux's simulator runs its jobs);
     * the arguments of goodput and, when the job spans n_per > 1 nodes, its
     * GPUs per node (per_node, in the order its GPUs name the nodes; NULL
     * when unknown or on one node). NULL: goodput. */
    double (*actual_goodput)(const mls_perf_t *pm, int w, int t, int gpus, int nodes,
                             const int *per_node, int n_per, int batch, int accum,
                             double work_done);
} perf_ops_t;

struct mls_perf {
    const perf_ops_t *ops;
    char *source; /* path it came from */
    /* The backend's name tables, for the shared name ops below. */
    const strtab_t *workload_names, *type_names;
};

/* Name ops every backend shares: they read pm->workload_names and
 * pm->type_names, which the backend points at its own tables on load. */
int perf_named_n_workloads(const mls_perf_t *pm);
const char *perf_named_workload(const mls_perf_t *pm, int w);
int perf_named_n_types(const mls_perf_t *pm);
const char *perf_named_type(const mls_perf_t *pm, int t);
/* The four name ops above, for a backend's perf_ops_t initializer. */
#define PERF_NAMED_OPS                                                                             \
    .n_workloads = perf_named_n_workloads, .workload_name = perf_named_workload,                   \
    .n_gpu_types = perf_named_n_types, .gpu_type_name = perf_named_type
/* Sets up the base of a backend that owns two name tables: its ops, source
 * (a copy of path), and the tables, made empty and pointed at. */
void perf_named_init(mls_perf_t *pm, const perf_ops_t *ops, const char *path,
                     strtab_t *workloads, strtab_t *types);
/* Frees what perf_named_init made (not pm itself). */
void perf_named_free(mls_perf_t *pm, strtab_t *workloads, strtab_t *types);

/* One backend: its name, whether PATH is in its format (non-zero: yes; read
 * cheaply, without a full parse) and its loader. */
typedef struct perf_backend {
    const char *name;
    int (*sniff)(const char *path);
    int (*load)(mls_perf_t **pm, const char *path, mls_err_t *err);
} perf_backend_t;

size_t perf_backend_count(void);
const perf_backend_t *perf_backend_at(size_t i); /* NULL past the end */
/* The first backend (in table order) whose sniff recognises PATH. */
const perf_backend_t *perf_backend_for(const char *path);
/* Loads PATH with perf_backend_for(PATH). */
int perf_load(mls_perf_t **pm, const char *path, mls_err_t *err);
/* The default catalog shipped with mlsched (Gavel's simulation table), found
 * as model/datadir.h says; its path is written into buf (size n), returned. */
const char *perf_default_catalog(char *buf, size_t n);
/* perf_load(PATH), or of the default catalog when PATH is NULL. */
int perf_load_or_default(mls_perf_t **pm, const char *path, mls_err_t *err);
void perf_free(mls_perf_t *pm);

int perf_workload_index(const mls_perf_t *pm, const char *name); /* -1 when absent */
int perf_gpu_type_index(const mls_perf_t *pm, const char *name); /* case-insensitive, -1 */

static inline double perf_throughput(const mls_perf_t *pm, int w, int t, int gpus, int nodes,
                                     int batch)
{
    return pm->ops->throughput(pm, w, t, gpus, nodes, batch);
}

/* ops->max_gpus, or a very large count when the backend has no limit. */
int perf_max_gpus(const mls_perf_t *pm, int w, int t);

/* The backends' sniffs and loaders (rows of the table in model/perf.c). */
/* Extrapolation. A rate at more GPUs than the largest count measured for the
 * workload on that type (perf_max_gpus) is not a measurement but the
 * backend's scaling model: the table's extrapolation (model/perf_table.c: the
 * per-GPU rate at the largest measured count, over several nodes with the
 * inter-node penalty measured there), or a fitted model (Pollux's, curves).
 * perf_extrapolated() says whether the rate of w on `gpus` GPUs of type t is
 * such an answer (0 as well when w has no data on t at all: it cannot run). */
int perf_extrapolated(const mls_perf_t *pm, int w, int t, int gpus);
/* The largest GPU count measured for w on every one of types[0..n) that has
 * data for it (the smallest of their largest counts); 0 when none has data.
 * A job of more GPUs is extrapolated on at least one of those types. */
int perf_measured_gpus(const mls_perf_t *pm, int w, const int *types, int n);

/* The backends' sniffs and loaders (rows of the table in model/perf.c). */
/* Table backend, directly. */
int perf_table_load(mls_perf_t **pm, const char *path, mls_err_t *err);
/* Pollux catalog backend, directly (model/perf_pollux.c); perf_is_pollux_catalog()
 * says whether a file looks like one (without a full parse). */
int perf_pollux_load(mls_perf_t **pm, const char *path, mls_err_t *err);
int perf_is_pollux_catalog(const char *path);
/* Curves backend: 1 when PATH is a curve file, 2 a curves catalog, else 0. */
int perf_curves_sniff(const char *path);
int perf_curves_load(mls_perf_t **pm, const char *path, mls_err_t *err);

#endif
