/* pollux_catalog.h: building the Pollux catalog (model/perf_pollux.h) from the
 * published profiles, and the profile readers the fit and the tests share.
 *
 * Input: a Pollux profile tree (adaptdl osdi21-artifact simulator/traces, as in
 * ../shared/data/pollux/profiles: <app>/placements.csv and
 * <app>/validation-<B>.csv) and optionally a Sia tree (siasosp23/artifacts
 * sia-simulator/traces: <app>/placements-<cluster>.csv per GPU type).
 * Per workload it derives:
 *   - init_batch M0 = the smallest validated B, max_batch = the largest (as
 *     adaptdl's Application does);
 *   - dataset_size = the statistical progress at the end of the first epoch of
 *     the M0 run (in M0 iterations, the `progress` column) x M0: cifar10
 *     391 x 128 = 50,048 samples;
 *   - completion_epochs = adaptdl's max_epochs (simulator/applications.py:
 *     bert 2, cifar10 100, ncf 10, imagenet 90, deepspeech2 80, yolov3 50);
 *   - the phi schedule: for each validated B and epoch row, grad_var /
 *     grad_sqr x M0 (adaptdl normalises the variance to M0, so PGNS = var /
 *     sqr x M0);
 *   - per GPU type, the T_iter parameters fitted by pollux_fit() to every
 *     measured (placement, local batch, step time) of that type, with the
 *     local-batch range measured (yolov3's max_local_bsz = 8 as adaptdl sets).
 * Sia cluster names map to GPU types: aws t4 (= Pollux's profiles), azure
 * v100, dgx-ext a100 (Sia's default A100 profile; dgx is its reduced batch
 * range, not used), quad rtx6000, rtx rtx2080ti. */
#ifndef MLS_POLLUX_CATALOG_H
#define MLS_POLLUX_CATALOG_H

#include "model/pollux_model.h"
#include "model/util.h"

#include <stddef.h>

/* Reads a placements CSV (columns found by header: placement, local_bsz,
 * step_time[, sync_time]) into *out (malloc'd); returns the count, -1 on
 * error (FILE:LINE: field). The rows are pollux_rows_read()'s
 * (pollux_measured.h), the reader the measured rates use. */
long pollux_read_placements(const char *path, pollux_sample_t **out, mls_err_t *err);

typedef struct pollux_fit_row {
    char app[32], type[32];
    size_t samples;
    pollux_fit_report_t rep;
    pollux_params_t params;
} pollux_fit_row_t;

/* Builds the catalog JSON text (malloc'd) from the trees; sia_dir may be NULL.
 * Fills up to max_rows rows of fit reports (*n_rows). NULL on error. */
char *pollux_catalog_build(const char *pollux_dir, const char *sia_dir, pollux_fit_row_t *rows,
                           size_t max_rows, size_t *n_rows, mls_err_t *err);

#endif
