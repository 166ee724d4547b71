/* gavel_max_min_fairness.c: Gavel's max-min fairness ("LAS"), heterogeneity-agnostic.
 *
 * Narayanan et al., OSDI 2020, section 4.1: maximise min_j w_j * sum_t X_jt,
 * every GPU type the job can use counted as throughput 1 (Gavel's
 * MaxMinFairnessPolicy sets all throughputs to 1), with Gavel's weights
 * w_j = gpus_j / (priority_j * prop_j), prop_j the job's throughput under the
 * proportional split X_jt = cap_t / sum cap. So each job gets an equal share
 * of GPU-time scaled by its priority (a 4-GPU job gets a quarter of the time
 * fraction of a 1-GPU job). As in Gavel's mechanism for agnostic policies,
 * each round visits the GPU types in a shuffled order (seeded by the run's
 * seed). Shockwave's "Gavel" baseline. Simplifications: see gavel.c. */
#include "policies/gavel.h"
#include "policies/policies.h"

GAVEL_POLICY(gavel_mmf, GV_MMF, "max-min-fairness")
