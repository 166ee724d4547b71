/* gavel_finish_time_fairness.c: Gavel's finish-time fairness (Themis's metric).
 *
 * Narayanan et al., OSDI 2020, section 4.1, with Themis's rho (Mahajan et
 * al., NSDI 2020): minimise max_j rho_j, rho_j = (t_j + R_j / eff_j(X)) /
 * (I_j + R_j / iso_j): t_j time since arrival, R_j remaining work (oracle, as
 * Gavel reads the remaining steps), iso_j the job's throughput under Gavel's
 * isolated split (cap_t / (N gpus_j), rows scaled to <= 1), I_j the isolated
 * time accumulated so far (work done between recomputes / iso_j then). Not
 * linear in rho: bisection over rho to 0.1 %, each step a feasibility LP
 * eff_j >= R_j / (rho c_j - t_j) warm-started from the last basis; the bounds
 * are each job alone on its best type (below) and the isolated split (above,
 * feasible). Shockwave's "Themis" baseline. Simplifications: see gavel.c. */
#include "policies/gavel.h"
#include "policies/policies.h"

GAVEL_POLICY(gavel_ftf, GV_FTF, "finish-time-fairness")
