/* elastic.h: the pieces of the elastic policies (policies/elastic.c,
 * policies/autoscale.c) that have a meaning of their own, exposed for their
 * unit tests.
 *
 * elastic_dp_solve is Saxena et al.'s dynamic program (MASCOTS 2020, §IV):
 * n jobs, `gpus` GPUs; job i must get k_i in kmin[i]..kmax[i] GPUs, worth
 * value[i * stride + k_i] (-INFINITY or NAN: k_i not allowed). It maximises
 * the sum of the values with sum k_i <= gpus (GPUs may stay idle) and writes
 * the k_i into k_out. Returns the optimum, or -INFINITY (k_out untouched)
 * when no choice is feasible. Needs kmax[i] < stride. Ties go to the smaller
 * k of the later job (deterministic). Time O(n x E x K), memory O(n x E)
 * with E = gpus - sum kmin, K the widest range, at worst; only the sizes
 * worth more than every smaller size of the job are tried, and only the
 * cells the answer can depend on are computed (elastic.c), with the same
 * optimum and the same k as the plain program. */
#ifndef MLS_ELASTIC_H
#define MLS_ELASTIC_H

#include "policies/policy.h"

double elastic_dp_solve(int n, int gpus, const int *kmin, const int *kmax, const double *value,
                        int stride, int *k_out);

/* Pollux's split of a per-GPU batch `local` (samples per optimizer step) into
 * a micro-batch *m and *s accumulation steps that fit max_local, as the
 * pollux backend splits it when asked with accum -1 (one step at least on one
 * GPU above m0; the micro-batch capped so the total stays <= max_batch). */
void elastic_split_batch(int local, int gpus, int m0, int max_batch, int max_local, int *m, int *s);

#endif
