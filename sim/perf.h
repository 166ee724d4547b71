/* perf.h: the performance model — how fast a job runs on an allocation.
 *
 * The engine moves each job at perf_throughput() work units per second for
 * its current allocation; that is the only place rates come from. Backends
 * implement perf_ops_t:
 *   - table   (sim/perf_table.c): Gavel's throughput JSON, as measured files
 *             are published (../shared/data/gavel/throughputs, Shockwave's);
 *             work units are iterations; pair entries give space sharing.
 *   - pollux  (later): the parametric goodput model.
 *   - curves  (sim/perf_curves.c): profiler/ curve files (`# mlsched-curves v1`)
 *             or the catalog `mlsched profile fit` writes; work units are
 *             samples.
 * perf_load() picks the backend from the file's content.
 *
 * Workloads and GPU types are named by strings in the model ("ResNet-50
 * (batch size 64)", "v100"); callers resolve names to indices once and use
 * indices in the hot path. */
#ifndef MLS_PERF_H
#define MLS_PERF_H

#include "util.h"

typedef struct mls_perf mls_perf_t;

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
} perf_ops_t;

struct mls_perf {
    const perf_ops_t *ops;
    char *source; /* path it came from */
};

int perf_load(mls_perf_t **pm, const char *path, mls_err_t *err);
/* The default catalog shipped with mlsched (Gavel's simulation table). */
const char *perf_default_catalog(void);
void perf_free(mls_perf_t *pm);

int perf_workload_index(const mls_perf_t *pm, const char *name); /* -1 when absent */
int perf_gpu_type_index(const mls_perf_t *pm, const char *name); /* case-insensitive, -1 */

static inline double perf_throughput(const mls_perf_t *pm, int w, int t, int gpus, int nodes,
                                     int batch)
{
    return pm->ops->throughput(pm, w, t, gpus, nodes, batch);
}

/* Table backend, directly. */
int perf_table_load(mls_perf_t **pm, const char *path, mls_err_t *err);
/* Curves backend: 1 when PATH is a curve file, 2 a curves catalog, else 0. */
int perf_curves_sniff(const char *path);
int perf_curves_load(mls_perf_t **pm, const char *path, mls_err_t *err);

#endif
