/* gavel_center.c: min-total-duration as Gavel's and Shockwave's code solve it
 * (`-P bisect=1`), beside the exact LP of gavel_lp.c.
 *
 * Narayanan et al., OSDI 2020, section 4.3 (makespan); their code
 * (stanford-futuredata/gavel and its fork uw-mad-dash/shockwave,
 * scheduler/policies/min_total_duration.py, read, not copied) does not find
 * the smallest T: it bisects T between 100 s and 1e6 s until the bounds are
 * within 5 % (widening to [1e6, 1e7], ... when nothing there is feasible),
 * keeps the last feasible T, and takes the X that cvxpy's solver returns for
 * the feasibility problem at that T (objective Maximize(1)). Shockwave's
 * canonical experiment runs it with ECOS, an interior-point method: with a
 * constant objective every point of its central path is the analytic centre
 * of the feasible set (the centring condition G'(1/s) = 0 does not involve
 * the barrier weight), so the X it returns is that centre, not a vertex. So
 * the allocation leaves every job slack above its R_j / T and spreads the 5 %
 * left over; a vertex gives it to a few jobs.
 *
 * Here: T is the same bisection run against the exact optimum T* (a T is
 * feasible exactly when T >= T*), and X is the analytic centre of
 *   x_j >= 0, x_j <= 1, rate_j x_j >= R_j / T, sum_j gpus_j x_j <= C
 * (Gavel's base constraints and the makespan rows, one barrier term each, as
 * cvxpy hands them to ECOS), found by bisection on the capacity row's
 * multiplier, each job's x_j by bisection on its own first-order condition.
 * Simplifications: one GPU type and single rows only (Shockwave's clusters
 * are V100 only); with more, or pair rows, the caller keeps the exact LP's X.
 * ECOS stops within its tolerances of the centre; this goes to 1e-12. */
#include "policies/gavel_lp.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdlib.h>

double gl_gavel_bisect_T(double T_star)
{
    if (!(T_star > 0) || !isfinite(T_star))
        return T_star;
    double max_T = 1e6, min_T = 100.0, last_max_T = max_T, found = NAN;
    for (int widen = 0; isnan(found) && widen < 64; widen++) {
        while (1.05 * min_T < max_T) {
            double T = (min_T + max_T) / 2.0;
            if (T >= T_star * (1 - 1e-12)) {
                found = T;
                max_T = T;
            } else
                min_T = T;
        }
        max_T = last_max_T * 10.0;
        min_T = last_max_T;
        last_max_T *= 10;
    }
    return isnan(found) ? T_star : found;
}

/* x in (lo, 1) with 1/x + 1/(x - lo) - 1/(1 - x) = g lambda (lo >= 0). */
static double job_x(double lo, double g, double lambda)
{
    double a = lo, b = 1.0;
    for (int i = 0; i < 200 && b - a > 1e-15; i++) {
        double x = (a + b) / 2;
        double f = 1.0 / x + 1.0 / (x - lo) - 1.0 / (1.0 - x) - g * lambda;
        if (f > 0)
            a = x;
        else
            b = x;
    }
    return (a + b) / 2;
}

/* sum_j gpus_j x_j(lambda). */
static double used(int n, const double *lo, const double *g, double lambda, double *x)
{
    double u = 0;
    for (int j = 0; j < n; j++)
        if (g[j] > 0) {
            x[j] = job_x(lo[j], g[j], lambda);
            u += g[j] * x[j];
        }
    return u;
}

int gl_center_single(const gl_lp_t *lp, const double *R, double T, double *x)
{
    if (lp->n_types != 1 || lp->n_rows != lp->n_jobs || !(T > 0))
        return -1;
    int n = lp->n_jobs;
    double C = lp->cap[0], need = 0;
    double *lo = pu_alloc((size_t)n + 1, sizeof *lo), *g = pu_alloc((size_t)n + 1, sizeof *g);
    int rc = 0;
    for (int j = 0; j < n; j++) {
        double rate = lp->rate[(size_t)j * 2];
        g[j] = rate > 0 && lp->rows[j].gpus > 0 ? lp->rows[j].gpus : 0;
        lo[j] = g[j] > 0 && R[j] > 0 ? R[j] / (T * rate) : 0;
        if (lo[j] >= 1)
            rc = -1;
        need += g[j] * lo[j];
    }
    if (rc || !(need < C)) {
        free(lo);
        free(g);
        return -1;
    }
    for (int j = 0; j < n; j++)
        x[j] = 0;
    /* lambda = 1 / (C - sum g x(lambda)): bisect on h = lambda (C - used) - 1,
     * which grows with lambda. */
    double a = 0, b = 1;
    while (b * (C - used(n, lo, g, b, x)) - 1 < 0 && b < 1e300)
        b *= 2;
    for (int i = 0; i < 200 && b - a > 1e-12 * b; i++) {
        double m = (a + b) / 2;
        if (m * (C - used(n, lo, g, m, x)) - 1 < 0)
            a = m;
        else
            b = m;
    }
    used(n, lo, g, b, x);
    free(lo);
    free(g);
    return 0;
}
