/* perf_pollux.h: the Pollux goodput backend and its catalog (Qiao et al.,
 * "Pollux: Co-adaptive Cluster Scheduling for Goodput-Optimized Deep
 * Learning", OSDI 2021, §3-§4).
 *
 * A job of workload w on K GPUs of type t over N nodes, per-GPU (atomic)
 * batch m and s accumulation steps, runs at
 *     throughput = K m (s + 1) / T_iter          samples/s (pollux_model.h)
 * with the type's fitted T_iter parameters, and makes statistical progress at
 *     goodput = throughput x (phi_e + M0) / (phi_e + M)       M = K m (s + 1)
 * M0-equivalent samples/s: the work units of this backend are samples at the
 * initial batch M0, so a job's total work is dataset_size x epochs samples,
 * as Pollux's simulator counts progress in M0-equivalent iterations.
 *
 * phi_e, the gradient noise scale during statistical epoch e = floor(work /
 * dataset_size), comes from Pollux's validation-<B>.csv profiles: row e of
 * the file for total batch B gives phi = grad_var / grad_sqr x M0 (adaptdl's
 * PGNS normalisation). A job at total batch M uses phi linearly interpolated
 * in M between the two profiled batches around it (clamped outside them), as
 * the adaptdl simulator interpolates its gradient statistics; past the last
 * profiled epoch phi stays at its last value. The rate is constant within an
 * epoch, so next_change() is the next epoch boundary.
 *
 * The catalog (JSON; every field required unless marked optional):
 *
 *   {"format": "mlsched-pollux-catalog", "version": 1,
 *    "source": "free text (optional)",
 *    "workloads": {
 *      "cifar10": {
 *        "dataset_size": 50048,          samples per epoch (> 0)
 *        "completion_epochs": 100,       epochs to completion (> 0)
 *        "init_batch": 128,              M0, total batch (> 0)
 *        "max_batch": 4096,              largest total batch (>= init_batch)
 *        "gns": {"batch_sizes": [128, 256],       increasing, >= 1 entry
 *                "phi": [[72.1, 163.0, ...], [...]]}, per batch, per epoch (> 0)
 *        "models": {                     per GPU type (>= 1)
 *          "t4": {"alpha_grad": .., "beta_grad": ..,    s, s/sample (> 0)
 *                 "alpha_local": .., "beta_local": ..,  sync within a node (>= 0)
 *                 "alpha_node": .., "beta_node": ..,    sync across nodes (>= 0)
 *                 "gamma": ..,                          [1, 10]
 *                 "min_local_batch": 32, "max_local_batch": 1024,
 *                 "gpus_per_node": 4,                   (optional, informative)
 *                 "samples": 1183, "median_rel_err": 0.039}}}}}  (optional)
 *
 * Any other key is an error; every error names the file and the field, e.g.
 * "cat.json: workloads.cifar10.models.t4.gamma: missing". */
#ifndef MLS_PERF_POLLUX_H
#define MLS_PERF_POLLUX_H

#include "model/perf.h"
#include "model/pollux_model.h"

#define POLLUX_CATALOG_FORMAT "mlsched-pollux-catalog"

/* phi of workload w at total batch M in epoch e (the catalog's schedule);
 * exposed for tests. NAN when w is not a Pollux workload. */
double perf_pollux_phi(const mls_perf_t *pm, int w, double total_batch, int epoch);

/* The measured-rates mode: reads DIR/<workload>/placements.csv,
 * scalability.csv and validation-*.csv (Pollux's profiles, as
 * ../shared/data/pollux/profiles) for every workload of the catalog; from
 * then on the engine advances a job on the t4 type at the measured step
 * times of its placement and the profiles' statistical efficiency, as
 * Pollux's simulator does (model/pollux_measured.h; its actual_goodput op), while the policies
 * keep the fitted model (goodput), or with `shown` set see the measured rates
 * through goodput too. 0, or -1 (pm unchanged in its rates). */
int perf_pollux_measured(mls_perf_t *pm, const char *dir, int shown, mls_err_t *err);

#endif
