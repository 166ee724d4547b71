/* pollux_model.h: Pollux's model of a data-parallel job's iteration time, and
 * its fit from observed iterations (Qiao et al., "Pollux: Co-adaptive Cluster
 * Scheduling for Goodput-Optimized Deep Learning", OSDI 2021, §3.2).
 *
 *   T_grad(m) = alpha_grad + beta_grad * m               (m: per-GPU batch)
 *   T_sync    = 0 on one GPU; alpha_local + beta_local * (K - 2) within a node;
 *               alpha_node + beta_node * (K - 2) across nodes   (K GPUs)
 *   T_iter    = s * T_grad + (T_grad^gamma + T_sync^gamma)^(1/gamma)
 *               (s: gradient-accumulation steps before a synchronizing step)
 *   throughput = K * m * (s + 1) / T_iter                 samples/s
 * Statistical efficiency at total batch M with initial batch M0 and gradient
 * noise scale phi: E = (phi + M0) / (phi + M); goodput = throughput * E.
 *
 * pollux_fit() fits the seven parameters to observed (nodes, GPUs, batch,
 * accumulation, iteration time) samples by nonlinear least squares on the
 * relative error (GSL's trust-region solver), with every alpha/beta kept
 * positive (fitted in log space) and gamma in [1, 10] (a logistic map), as
 * Pollux's own fitter bounds them. Sync terms that no sample identifies (e.g.
 * only one-GPU samples) stay at their starting values and are reported as
 * unidentified. */
#ifndef MLS_POLLUX_MODEL_H
#define MLS_POLLUX_MODEL_H

#include "model/util.h"

#include <stddef.h>

typedef struct pollux_params {
    double alpha_grad, beta_grad;
    double alpha_local, beta_local;
    double alpha_node, beta_node;
    double gamma;
} pollux_params_t;

typedef struct pollux_sample {
    int nodes, gpus;
    double local_bsz;
    int accum;        /* accumulation steps s */
    double iter_time; /* s, observed */
} pollux_sample_t;

typedef struct pollux_fit_report {
    double median_rel_err, max_rel_err;
    int identified_local, identified_node; /* sync terms the samples constrain */
    int iterations;
} pollux_fit_report_t;

double pollux_iter_time(const pollux_params_t *p, int nodes, int gpus, double local_bsz,
                        int accum);
double pollux_throughput(const pollux_params_t *p, int nodes, int gpus, double local_bsz,
                         int accum);
double pollux_efficiency(double phi, double m0, double total_batch);
/* Pollux's split of a per-GPU batch `local` (samples per GPU per optimizer
 * step) into an atomic batch and accumulation steps that fit `max_local`
 * (adaptdl simulator's Job.update_local_bsz): accum = ceil(local/max_local)
 * - 1, at least 1 on one GPU above the initial batch m0; atomic =
 * ceil(local / (accum + 1)), capped so the total stays <= max_batch. */
void pollux_split_batch(double local, int gpus, int m0, int max_batch, int max_local,
                        int *atomic, int *accum);
int pollux_fit(const pollux_sample_t *s, size_t n, pollux_params_t *out, pollux_fit_report_t *rep,
               mls_err_t *err);

#endif
