/* gavel_farkas.c: gl_certify_infeasible (gavel_lp.h), a cheap proof that
 * Gavel's base constraints admit no allocation giving every job a needed
 * rate, so that finish-time fairness's bisection can skip the simplex on its
 * clearly infeasible steps.
 *
 * For single-job rows, price the GPU types with mu >= 0 (sum 1). Any feasible
 * X spends sum_t mu_t sum_j gpus_j X[j][t] <= sum_t mu_t cap_t, while job j
 * alone must spend at least
 *     f_j(mu) = min { sum_t mu_t gpus_j x_t : sum_t rate_jt x_t >= need_j,
 *                     sum_t x_t <= 1, x >= 0 }
 * (a 2-row LP whose optimum is at a vertex: one type alone, or two types
 * filling the whole time). So F(mu) = sum_j f_j(mu) - sum_t mu_t cap_t > 0
 * proves infeasibility (Farkas; Lagrangian duality makes it also necessary
 * for the best mu). F is concave; a projected supergradient ascent looks for
 * such a mu (Polyak's step towards the certifying level; it stops early when
 * the supergradient bounds F below zero everywhere). Only a margin well
 * beyond GLPK's tolerances counts, so every step it certifies is one the
 * simplex would also find infeasible: the bisection takes the same steps and
 * returns the same allocation. */
#include "gavel_lp.h"

#include <math.h>
#include <stdlib.h>

#define ASCENT_STEPS 400
#define MARGIN 1e-4 /* relative: F must exceed MARGIN * sum mu cap */

/* f_j(mu) for a single-job row; adds gpus * x_t to grad. INFINITY when the
 * need exceeds every rate. */
static double job_cost(const gl_lp_t *lp, int r, double need, const double *mu, double *grad)
{
    int T = lp->n_types, g = lp->rows[r].gpus;
    double best = INFINITY, bx[2] = {0, 0};
    int bt[2] = {-1, -1};
    for (int s = 0; s < T; s++) {
        double rs = lp->rate[(r * T + s) * 2];
        if (!(rs > 0))
            continue;
        if (need <= rs) { /* type s alone */
            double v = mu[s] * g * need / rs;
            if (v < best)
                best = v, bt[0] = s, bx[0] = need / rs, bt[1] = -1;
        }
        for (int u = s + 1; u < T; u++) { /* s and u share the whole time */
            double ru = lp->rate[(r * T + u) * 2];
            if (!(ru > 0) || rs == ru)
                continue;
            double xs = (need - ru) / (rs - ru);
            if (!(xs >= 0 && xs <= 1))
                continue;
            double v = g * (mu[s] * xs + mu[u] * (1 - xs));
            if (v < best)
                best = v, bt[0] = s, bx[0] = xs, bt[1] = u, bx[1] = 1 - xs;
        }
    }
    for (int k = 0; k < 2 && grad && isfinite(best); k++)
        if (bt[k] >= 0)
            grad[bt[k]] += g * bx[k];
    return best;
}

/* Euclidean projection of v onto the simplex {mu >= 0, sum mu = 1}. */
static void project(double *v, int T, double *tmp)
{
    for (int t = 0; t < T; t++)
        tmp[t] = v[t];
    for (int i = 1; i < T; i++) /* sort descending (T is small) */
        for (int k = i; k > 0 && tmp[k] > tmp[k - 1]; k--) {
            double s = tmp[k];
            tmp[k] = tmp[k - 1];
            tmp[k - 1] = s;
        }
    double sum = 0, theta = 0;
    for (int i = 0; i < T; i++) {
        sum += tmp[i];
        double th = (sum - 1) / (i + 1);
        if (tmp[i] - th > 0)
            theta = th;
    }
    for (int t = 0; t < T; t++)
        v[t] = fmax(0.0, v[t] - theta);
}

int gl_certify_infeasible(const gl_lp_t *lp, const double *need)
{
    int T = lp->n_types, J = lp->n_jobs;
    if (lp->n_rows != J || T <= 0)
        return 0;
    for (int r = 0; r < J; r++)
        if (lp->rows[r].job[0] != r || lp->rows[r].job[1] >= 0)
            return 0; /* pair rows: not handled */
    double *mu = calloc((size_t)T * 3, sizeof *mu);
    if (!mu)
        return 0;
    double *grad = mu + T, *tmp = mu + 2 * T;
    int certified = 0;
    for (int t = 0; t < T; t++)
        mu[t] = 1.0 / T;
    for (int step = 0; step < ASCENT_STEPS && !certified; step++) {
        double F = 0, scale = 0, norm = 0, gmax = -INFINITY, gmu = 0;
        for (int t = 0; t < T; t++) {
            grad[t] = -lp->cap[t];
            F -= mu[t] * lp->cap[t];
            scale += mu[t] * lp->cap[t];
        }
        for (int j = 0; j < J && isfinite(F); j++)
            if (need[j] > 0)
                F += job_cost(lp, j, need[j] * (1 + MARGIN), mu, grad);
        if (!isfinite(F) || F > MARGIN * scale) {
            certified = 1;
            break;
        }
        for (int t = 0; t < T; t++) {
            norm += grad[t] * grad[t];
            gmax = fmax(gmax, grad[t]);
            gmu += grad[t] * mu[t];
        }
        /* concavity: no mu on the simplex has F above F + max_t g_t - g.mu */
        if (!(norm > 0) || F + gmax - gmu <= 0)
            break;
        /* Polyak's step towards the level that would certify */
        double len = (2 * MARGIN * scale - F) / norm;
        for (int t = 0; t < T; t++)
            mu[t] += len * grad[t];
        project(mu, T, tmp);
    }
    free(mu);
    return certified;
}
