/* gavel_lp.h: the linear programs of Gavel's heterogeneity-aware policies.
 *
 * Gavel (Narayanan et al., OSDI 2020, section 3) writes every policy as an
 * optimisation over an allocation X: X[r][t] is the fraction of time that row
 * r runs on GPU type t. A row is one job, or (space sharing, section 3.1) a
 * pair of jobs that share the same GPUs. A job's effective throughput is
 *     eff_j(X) = sum over rows r holding j, types t: rate[r][t][j's slot] * X[r][t]
 * and every X obeys the base constraints
 *     X >= 0;  for each job j: sum over rows r holding j, types t of X[r][t] <= 1;
 *     for each type t: sum over rows r of gpus_r * X[r][t] <= cap[t].
 * A (row, type) with a zero rate for a member is fixed at 0.
 *
 * This module builds those LPs with GLPK (simplex, messages off) and solves
 * the four objectives Gavel's policies need:
 *     max-min     maximise min_j weight_j * eff_j            (sections 4.1, 4.2)
 *     max-sum     maximise sum_j weight_j * eff_j            (section 4.3, MST)
 *     makespan    minimise T such that eff_j >= R_j / T       (section 4.3)
 *     ftf         minimise rho such that for every job
 *                 (a_j + R_j / eff_j) / c_j <= rho            (section 4.1, Themis)
 * Makespan is solved exactly as one LP in s = 1/T (maximise s subject to
 * eff_j >= R_j * s), the limit of Gavel's bisection over T. Finish-time
 * fairness is not linear in rho; it is solved by bisection over rho, each
 * step a feasibility LP (eff_j >= R_j / (rho c_j - a_j)) warm-started from
 * the last basis (or, for a step gl_certify_needs decides, no LP at all),
 * and returns an interior point of the last feasible set.
 * Max-min returns, among its optima, one of most total weighted rate.
 *
 * Promises: deterministic (same input, same X); returns 0 and fills x
 * (n_rows * n_types), or -1 with a message when GLPK fails or mlsched was
 * built without GLPK. Jobs whose every rate is 0 are left out of the
 * objective (they get nothing). */
#ifndef MLS_GAVEL_LP_H
#define MLS_GAVEL_LP_H

#include <stddef.h>
#include <stdint.h>

/* One row of X: a single job (job[1] = -1) or a pair sharing the same GPUs. */
typedef struct gl_row {
    int job[2]; /* indices into the LP's jobs (0..n_jobs-1) */
    int gpus;   /* GPUs the row occupies on a type when it runs */
} gl_row_t;

typedef struct gl_lp {
    int n_jobs, n_types, n_rows;
    const gl_row_t *rows;
    /* rate[(r * n_types + t) * 2 + k]: work/s of member k of row r on type t;
     * 0 when the row cannot run there. */
    const double *rate;
    const double *cap; /* GPUs of each type */
    /* Optional warm start (both or neither; zero: a cold start): the jobs'
     * ids, and a memo of the last solve's basis by job id (gavel_warm.c).
     * gl_max_min, gl_max_sum and gl_min_makespan start the simplex from the
     * memo's basis for the jobs it knows and leave their final one there. */
    const int64_t *job_id;
    struct gl_warm *warm;
} gl_lp_t;

typedef struct gl_warm gl_warm_t;
gl_warm_t *gl_warm_create(void);
void gl_warm_free(gl_warm_t *w);
/* How many solves started from the memo's basis (for tests). */
int gl_warm_applied(const gl_warm_t *w);

/* Maximise min_j weight[j] * eff_j. */
int gl_max_min(const gl_lp_t *lp, const double *weight, double *x, char *err, size_t errlen);
/* Maximise sum_j weight[j] * eff_j. */
int gl_max_sum(const gl_lp_t *lp, const double *weight, double *x, char *err, size_t errlen);
/* Minimise the makespan T of the remaining work R[j]; *T_out gets T (INFINITY
 * when nothing can run). */
int gl_min_makespan(const gl_lp_t *lp, const double *R, double *x, double *T_out, char *err,
                    size_t errlen);
/* Minimise max_j (a[j] + R[j] / eff_j) / c[j] by bisection over rho between
 * rho_lo and rho_hi (rho_hi must be feasible), to relative tolerance tol.
 * *rho_out gets the rho of the returned x. */
int gl_ftf(const gl_lp_t *lp, const double *a, const double *c, const double *R, double rho_lo,
           double rho_hi, double tol, double *x, double *rho_out, char *err, size_t errlen);

/* Min-cost assignment (a transportation LP, whose relaxation is integral):
 * every job to exactly one slot, slot s taking at most slot_cap[s] jobs,
 * cost[j * n_slots + s] (INFINITY: forbidden). slot_of[j] gets the slot.
 * Solved as an LP with GLPK's simplex (the issue asks for GLPK or a library
 * routine, not a hand-written assignment algorithm). */
int gl_assign(int n_jobs, int n_slots, const double *cost, const int *slot_cap, int *slot_of,
              char *err, size_t errlen);

/* The same assignment as a min-cost flow, GLPK's out-of-kilter routine
 * (glp_mincost_okalg) on costs scaled to integers (gavel_assign.c): each
 * job's costs less its cheapest, times the power of two that maps the
 * largest of those into (GL_ASSIGN_SCALE / 2, GL_ASSIGN_SCALE]. The result
 * costs at most gl_assign_bound() more than the optimum (n_jobs / scale,
 * under 2 n_jobs c_max / GL_ASSIGN_SCALE). seed (n_jobs * n_slots flags, or
 * NULL: all) names the arcs to start from; the others are added while their
 * reduced cost under GLPK's node potentials is negative (LP pricing), so
 * the seed changes the time, not the optimum. Should GLPK's integers
 * overflow at every scale tried, gl_assign decides. */
#define GL_ASSIGN_SCALE 1073741824.0 /* 2^30 */
int gl_assign_flow(int n_jobs, int n_slots, const double *cost, const int *slot_cap,
                   const unsigned char *seed, int *slot_of, char *err, size_t errlen);
double gl_assign_bound(int n_jobs, int n_slots, const double *cost);

/* Whether some X gives every job j eff_j >= need[j] (need 0: no need), by
 * a pricing of the GPU types (gavel_farkas.c): GL_NEEDS_INFEASIBLE or
 * GL_NEEDS_FEASIBLE when proven by a margin of 1e-4, well beyond GLPK's
 * tolerances; 0 when too close to call or lp has pair rows. gl_ftf skips
 * the simplex on the steps it decides. */
#define GL_NEEDS_INFEASIBLE (-1)
#define GL_NEEDS_FEASIBLE 1
int gl_certify_needs(const gl_lp_t *lp, const double *need);

/* Gavel's and Shockwave's makespan bisection (gavel_center.c): the T their
 * code keeps (100 s .. 1e6 s to 5 %, widened by 10x while infeasible) when the
 * exact optimum is T_star. */
double gl_gavel_bisect_T(double T_star);
/* The analytic centre of the makespan feasibility set at T (what an
 * interior-point solver returns for it, gavel_center.c) into x (one entry per
 * row); -1 (x untouched) unless one type and single rows, or when T is not
 * strictly feasible. */
int gl_center_single(const gl_lp_t *lp, const double *R, double T, double *x);

/* eff_j of every job under x (eff has n_jobs entries). */
void gl_effective(const gl_lp_t *lp, const double *x, double *eff);

#endif
