/* gavel_min_total_duration.c: Gavel's makespan minimisation (Shockwave's OSSP).
 *
 * Narayanan et al., OSDI 2020, section 4.3: the smallest T such that every
 * active job finishes its remaining work R_j (oracle) by T: eff_j(X) >= R_j / T.
 * Gavel bisects over T (100 s .. 1e6 s, to 5 %), solving a feasibility LP at
 * each step; here it is one LP in s = 1/T (maximise s subject to
 * eff_j >= R_j s), the exact limit of that bisection, so the allocation is the
 * optimum rather than within 5 % of it. Simplifications: see gavel.c. */
#include "policies/gavel.h"
#include "policies/policies.h"

GAVEL_POLICY(gavel_mtd, GV_MTD, "min-total-duration")
