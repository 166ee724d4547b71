/* curve_catalog.h: measured curves plus their Pollux fits, in one JSON file that
 * the simulator's curves perf backend loads (`mlsched profile fit` writes it).
 *
 *   {"format": "mlsched-curves-catalog v1",
 *    "sources": [{"file": "h100-torch-resnet50.csv", "metadata": {"gpu_name": ...}}],
 *    "gpu_types": {"h100": {"gpu_name": "NVIDIA H100 80GB HBM3",
 *                           "gpu_mem_bytes": 85520809984}},
 *    "workloads": {"resnet50-224-fp32": {"default_batch": 256}},
 *    "columns": ["workload", "gpu_type", ... the 13 curve-file columns],
 *    "rows": [["resnet50-224-fp32", "h100", 1, 1, 16, 1, 0.022155, ...], ...],
 *    "fits": [{"workload": "resnet50-224-fp32", "gpu_type": "h100", "rows": 5,
 *              "alpha_grad": ..., "beta_grad": ..., "alpha_local": ..., "beta_local": ...,
 *              "alpha_node": ..., "beta_node": ..., "gamma": ...,
 *              "median_rel_err": ..., "max_rel_err": ...,
 *              "identified_local": false, "identified_node": false}],
 *    "pairs": [{"gpu_type": "h100", "num_gpus": 1,
 *               "workload_a": "resnet50-224-fp32", "local_bsz_a": 64,
 *               "workload_b": "transformer-h512-l6-s128", "local_bsz_b": 32,
 *               "iter_time_a_s": 0.0712, "iter_time_b_s": 0.0301,
 *               "samples_per_s_a": 898.876, "samples_per_s_b": 1063.12, "iters": 30}]}
 *
 * Rows are the curve file's rows, checked by the same rules (curves.h).
 * A fit is Pollux's T_iter model (model/pollux_model.h) fitted to every row of
 * one workload on one GPU type, with the curve file's accum_steps (micro-
 * batches per optimizer step) mapped to Pollux's s = accum_steps - 1; it needs
 * at least 3 rows. identified_local/node say whether any row had several GPUs
 * on one node / across nodes: otherwise that sync term is the fitter's
 * starting value and the backend does not use it. gpu_mem_bytes comes from the
 * curve files' `gpu_mem_bytes` metadata (0 = unknown); default_batch is the
 * largest batch measured on one GPU.
 *
 * "pairs" (written only when there are some, so a catalog of curves alone is
 * what it was before pairs existed; absent = none) are the pair files' rows
 * (curves.h), checked by the same rules; each workload of a pair must have
 * curve rows on the pair's GPU type (else an error naming the pair's place and
 * the workload). Pair files' metadata is in "sources" like curve files'. */
#ifndef MLS_CURVE_CATALOG_H
#define MLS_CURVE_CATALOG_H

#include "model/curves.h"
#include "model/pollux_model.h"

#define CATALOG_FORMAT "mlsched-curves-catalog v1"

typedef struct curve_fit {
    char workload[128];
    char gpu_type[32];
    int rows;
    pollux_params_t p;
    pollux_fit_report_t rep;
} curve_fit_t;

typedef struct curve_gpu {
    char gpu_type[32];
    char gpu_name[128];
    int64_t mem_bytes; /* per GPU, 0 = unknown */
} curve_gpu_t;

typedef struct curve_default {
    char workload[128];
    int batch;
} curve_default_t;

typedef struct curve_catalog {
    curve_set_t curves;
    curve_fit_t *fits;
    size_t n_fits;
    curve_gpu_t *gpus;
    size_t n_gpus;
    curve_default_t *defaults;
    size_t n_defaults;
} curve_catalog_t;

void catalog_init(curve_catalog_t *cat);
void catalog_free(curve_catalog_t *cat);

/* Takes over the rows and metadata of cs (cs is left empty), derives GPU
 * types, memory and default batches, and with `fit` fits every workload x GPU
 * type that has >= 3 rows. */
int catalog_build(curve_catalog_t *cat, curve_set_t *cs, int fit, mls_err_t *err);
/* Sets the per-GPU memory of a GPU type (adds the type when absent). */
void catalog_set_gpu_mem(curve_catalog_t *cat, const char *gpu_type, int64_t bytes);

int catalog_write(const curve_catalog_t *cat, const char *path, mls_err_t *err);
/* Reads a catalog JSON; every error names the file and the field. */
int catalog_read(curve_catalog_t *cat, const char *path, mls_err_t *err);

const curve_fit_t *catalog_fit_of(const curve_catalog_t *cat, const char *workload,
                                  const char *gpu_type);
const curve_gpu_t *catalog_gpu_of(const curve_catalog_t *cat, const char *gpu_type);
int catalog_default_batch(const curve_catalog_t *cat, const char *workload); /* 0 = none */

#endif
