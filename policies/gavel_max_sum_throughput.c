/* gavel_max_sum_throughput.c: Gavel's total-throughput maximisation ("MST").
 *
 * Narayanan et al., OSDI 2020, section 4.3: maximise sum_j sum_t T_jt X_jt over
 * raw profiled throughputs (work units/s), as Gavel's ThroughputSumWithPerf
 * (instance costs 1, no SLOs). Jobs with slow iterations may get no
 * allocation and run only on leftover GPUs. Shockwave's "MST" baseline.
 * Simplifications: see gavel.c. */
#include "policies/gavel.h"
#include "policies/policies.h"

GAVEL_POLICY(gavel_mst, GV_MST, "max-sum-throughput-perf")
