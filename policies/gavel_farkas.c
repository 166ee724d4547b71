/* gavel_farkas.c: gl_certify_needs (gavel_lp.h), a cheap proof that Gavel's
 * base constraints admit no allocation giving every job a needed rate, or
 * that they do, so that finish-time fairness's bisection can skip the
 * simplex on its clear steps.
 *
 * For single-job rows, price the GPU types with mu >= 0 (sum 1). Any feasible
 * X spends sum_t mu_t sum_j gpus_j X[j][t] <= sum_t mu_t cap_t, while job j
 * alone must spend at least
 *     f_j(mu) = min { sum_t mu_t gpus_j x_t : sum_t rate_jt x_t >= need_j,
 *                     sum_t x_t <= 1, x >= 0 }
 * (a 2-row LP whose optimum is at a vertex: one type alone, or two types
 * filling the whole time). So F(mu) = sum_j f_j(mu) - sum_t mu_t cap_t > 0
 * proves infeasibility (Farkas), and by LP duality max F <= 0 over the
 * prices proves feasibility. F is concave and positively homogeneous, so
 * F(mu) = g.mu for its supergradient g at mu and F <= g.mu' everywhere:
 * Kelley's cutting planes over the simplex of prices (a master LP in T + 1
 * variables, GLPK) give the next prices and an upper bound on max F, the
 * evaluations a lower bound; it stops when either passes the margin. Only
 * margins well beyond GLPK's tolerances count (needs raised by 1e-4, F above
 * 1e-4 of the priced capacity, or the bound below -1e-4 of the largest
 * capacity), so every step it certifies is one the simplex would decide the
 * same way: the bisection takes the same steps and returns the same
 * allocation. */
#include "config.h"

#include "policies/gavel_lp.h"

#include <math.h>
#include <stdlib.h>

#ifdef HAVE_GLPK

#include <glpk.h>

#define MAX_CUTS 60 /* at most; low-dimensional, so a bound passes in a few */
#define MARGIN 1e-4

/* f_j(mu) for a single-job row; adds gpus * x_t to grad. INFINITY when the
 * need exceeds every rate (the caller rules that out). */
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

/* The best rate of single-job row r over the types (0: none). */
static double best_rate(const gl_lp_t *lp, int r)
{
    double best = 0;
    for (int t = 0; t < lp->n_types; t++)
        best = fmax(best, lp->rate[(r * lp->n_types + t) * 2]);
    return best;
}

/* F(mu) with the needs raised by MARGIN; its supergradient goes to grad. */
static double evaluate(const gl_lp_t *lp, const double *need, const double *mu, double *grad)
{
    int T = lp->n_types;
    double F = 0;
    for (int t = 0; t < T; t++) {
        grad[t] = -lp->cap[t];
        F -= mu[t] * lp->cap[t];
    }
    for (int j = 0; j < lp->n_jobs; j++)
        if (need[j] > 0)
            F += job_cost(lp, j, need[j] * (1 + MARGIN), mu, grad);
    return F;
}

/* The master LP: maximise theta over mu on the simplex, theta <= g_k . mu
 * for every cut k (columns mu_1..mu_T, then theta; row 1: sum mu = 1). */
static glp_prob *master_create(int T)
{
    glp_prob *m = glp_create_prob();
    glp_set_obj_dir(m, GLP_MAX);
    glp_add_cols(m, T + 1);
    glp_add_rows(m, 1);
    int *idx = malloc(sizeof *idx * (size_t)(T + 2));
    double *val = malloc(sizeof *val * (size_t)(T + 2));
    if (!idx || !val) {
        free(idx);
        free(val);
        glp_delete_prob(m);
        return NULL;
    }
    for (int t = 1; t <= T; t++) {
        glp_set_col_bnds(m, t, GLP_LO, 0.0, 0.0);
        idx[t] = t, val[t] = 1.0;
    }
    glp_set_col_bnds(m, T + 1, GLP_FR, 0.0, 0.0);
    glp_set_obj_coef(m, T + 1, 1.0);
    glp_set_mat_row(m, 1, T, idx, val);
    glp_set_row_bnds(m, 1, GLP_FX, 1.0, 1.0);
    free(idx);
    free(val);
    return m;
}

static void master_cut(glp_prob *m, int T, const double *g, int *idx, double *val)
{
    int row = glp_add_rows(m, 1);
    for (int t = 1; t <= T; t++)
        idx[t] = t, val[t] = -g[t - 1];
    idx[T + 1] = T + 1, val[T + 1] = 1.0;
    glp_set_mat_row(m, row, T + 1, idx, val);
    glp_set_row_bnds(m, row, GLP_UP, 0.0, 0.0);
}

int gl_certify_needs(const gl_lp_t *lp, const double *need)
{
    int T = lp->n_types, J = lp->n_jobs;
    if (lp->n_rows != J || T <= 0)
        return 0;
    for (int r = 0; r < J; r++)
        if (lp->rows[r].job[0] != r || lp->rows[r].job[1] >= 0)
            return 0; /* pair rows: not handled */
    for (int j = 0; j < J; j++) { /* a need beyond the job's best rate */
        double best = best_rate(lp, j);
        if (need[j] > 0 && need[j] * (1 - MARGIN) > best)
            return GL_NEEDS_INFEASIBLE;
        if (need[j] > 0 && need[j] * (1 + MARGIN) > best)
            return 0; /* too close to call */
    }
    double *mu = calloc((size_t)T * 2 + 2 * ((size_t)T + 2), sizeof *mu);
    int *idx = calloc((size_t)T + 2, sizeof *idx);
    glp_prob *m = mu && idx ? master_create(T) : NULL;
    if (!m) {
        free(mu);
        free(idx);
        return 0;
    }
    double *grad = mu + T, *val = mu + 2 * T, cap_max = 0, F_best = -INFINITY;
    for (int t = 0; t < T; t++) {
        mu[t] = 1.0 / T;
        cap_max = fmax(cap_max, lp->cap[t]);
    }
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    int verdict = 0;
    for (int cut = 0; cut < MAX_CUTS && !verdict; cut++) {
        double F = evaluate(lp, need, mu, grad), scale = 0;
        for (int t = 0; t < T; t++)
            scale += mu[t] * lp->cap[t];
        if (F > MARGIN * scale) {
            verdict = GL_NEEDS_INFEASIBLE;
            break;
        }
        F_best = fmax(F_best, F);
        master_cut(m, T, grad, idx, val);
        if (glp_simplex(m, &parm) != 0 || glp_get_status(m) != GLP_OPT)
            break;
        double U = glp_get_obj_val(m); /* max F <= U */
        if (U < -MARGIN * cap_max)
            verdict = GL_NEEDS_FEASIBLE;
        else if (U - F_best <= 1e-9 * (1.0 + cap_max))
            break; /* converged inside the margin: too close to call */
        for (int t = 0; t < T; t++)
            mu[t] = fmax(0.0, glp_get_col_prim(m, t + 1));
    }
    glp_delete_prob(m);
    free(idx);
    free(mu);
    return verdict;
}

#else /* !HAVE_GLPK */

int gl_certify_needs(const gl_lp_t *lp, const double *need)
{
    (void)lp, (void)need;
    return 0;
}

#endif
