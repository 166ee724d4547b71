/* gavel_max_min_fairness_perf.c: Gavel's heterogeneity-aware max-min fairness.
 *
 * Narayanan et al., OSDI 2020, section 4.1: maximise min_j w_j * sum_t T_jt X_jt
 * with T the profiled throughputs and w_j = gpus_j / (priority_j * prop_j),
 * prop_j = sum_t T_jt cap_t / sum cap the job's throughput under the
 * proportional split: every job's throughput normalised by what an equal
 * share of the cluster would give it. Simplifications: see gavel.c. */
#include "policies/gavel.h"
#include "policies/policies.h"

GAVEL_POLICY(gavel_mmf_perf, GV_MMF_PERF, "max-min-fairness-perf")
