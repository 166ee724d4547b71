/* gavel_max_min_fairness_packed.c: Gavel's max-min fairness with space sharing.
 *
 * Narayanan et al., OSDI 2020, sections 3.1 and 4.1: rows of X are single jobs
 * and pairs of jobs with the same GPU count sharing the same GPUs; a job's
 * effective throughput sums its rate over every row holding it (pair rates
 * from view->perf->pair_throughput, pairs the model refuses are left out);
 * each job's rows take at most all of its time; the objective is the perf
 * variant's. Simplification: each job's candidate partners are its
 * pair_candidates (default 4) best by combined normalised throughput (> 1),
 * where Gavel's code aggregates pairs by job type instead. See gavel.c. */
#include "policies/gavel.h"
#include "policies/policies.h"

GAVEL_POLICY(gavel_mmf_packed, GV_MMF_PACKED, "max-min-fairness-packed")
