/* gavel_lp.c: Gavel's allocation LPs built and solved with GLPK (see
 * gavel_lp.h).
 *
 * One problem layout serves every objective. Columns: X[r][t] (1-based index
 * 1 + r*n_types + t) and one extra column z. Rows: n_jobs "time" rows
 * (sum of X over the job's rows <= 1), n_types "capacity" rows
 * (sum gpus_r X[r][t] <= cap[t]) and n_jobs "link" rows
 *     coef_j * eff_j(X) - zcoef_j * z  >= lb_j
 * whose meaning depends on the objective: z is the max-min level (coef =
 * weight, zcoef = 1), the makespan's inverse s = 1/T (coef = 1, zcoef = R_j),
 * or absent (ftf's feasibility rows, lb = the needed rate; max-sum is built
 * without link rows and z: they would be free rows, always basic).
 * Optimal allocations are rarely unique, and which one is returned matters
 * for JCT. Max-min takes a second phase: with the level z held at its optimum,
 * maximise the total weighted rate sum_j weight_j eff_j (Pareto-efficient:
 * slack above the level is not left unused). Finish-time fairness returns an
 * interior point of the feasible set at the final rho (GLPK's interior-point
 * method, as Gavel's interior-point solver ECOS would), not a simplex vertex:
 * on Gavel's 108-GPU sweep at 3 jobs/h this halves its average JCT.
 * Bisection steps that gl_certify_needs (gavel_farkas.c) decides skip the
 * simplex: the same verdicts, so the same final rho and the same interior
 * point.
 * Simplex with GLPK's automatic scaling (terminal output off), no presolve (so that bisection steps
 * start from the last basis), messages off. With a basis memo in the gl_lp_t
 * (warm_start=1), max-min, max-sum and makespan start from the last
 * recompute's basis mapped by job id (gavel_warm.c); should GLPK find it
 * singular, the standard basis (the cold path) decides. */
#include "config.h"

#include "policies/gavel_lp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void gl_effective(const gl_lp_t *lp, const double *x, double *eff)
{
    for (int j = 0; j < lp->n_jobs; j++)
        eff[j] = 0.0;
    for (int r = 0; r < lp->n_rows; r++)
        for (int t = 0; t < lp->n_types; t++) {
            double xv = x[r * lp->n_types + t];
            for (int k = 0; k < 2; k++)
                if (lp->rows[r].job[k] >= 0)
                    eff[lp->rows[r].job[k]] += lp->rate[(r * lp->n_types + t) * 2 + k] * xv;
        }
}

#ifdef HAVE_GLPK

#include "policies/gavel_warm.h"

#include <glpk.h>

/* A (row, type) may run only when every member has a positive rate there. */
static int usable(const gl_lp_t *lp, int r, int t)
{
    for (int k = 0; k < 2; k++)
        if (lp->rows[r].job[k] >= 0 && !(lp->rate[(r * lp->n_types + t) * 2 + k] > 0))
            return 0;
    return 1;
}

/* 1 when job j has a usable (row, type) with a positive rate. */
static void runnable_jobs(const gl_lp_t *lp, int *can)
{
    for (int j = 0; j < lp->n_jobs; j++)
        can[j] = 0;
    for (int r = 0; r < lp->n_rows; r++)
        for (int t = 0; t < lp->n_types; t++)
            if (usable(lp, r, t))
                for (int k = 0; k < 2; k++)
                    if (lp->rows[r].job[k] >= 0)
                        can[lp->rows[r].job[k]] = 1;
}

typedef struct built {
    glp_prob *p;
    int n_x;  /* X columns */
    int z;    /* index of the z column */
    int link; /* index of job 0's link row */
    int has_z; /* z and the link rows exist (not max-sum) */
    int *can; /* per job: 1 when it can run somewhere */
} built_t;

static void *xalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "mlsched: out of memory in the LP builder\n");
        abort();
    }
    return p;
}

/* Builds the layout; link row j gets coefficients coef[j] * rate on X and
 * -zcoef[j] on z (zcoef may be NULL: 0). Link rows start free. coef NULL:
 * no link rows and no z column (max-sum, whose link rows would all be free:
 * free rows stay basic, so leaving them out changes no simplex step, only
 * the size of the basis). */
static void build(built_t *b, const gl_lp_t *lp, const double *coef, const double *zcoef)
{
    int T = lp->n_types, J = lp->n_jobs;
    b->n_x = lp->n_rows * T;
    b->z = b->n_x + 1;
    b->has_z = coef != NULL;
    b->can = xalloc((size_t)J, sizeof *b->can);
    runnable_jobs(lp, b->can);
    glp_term_out(GLP_OFF);
    glp_prob *p = b->p = glp_create_prob();
    glp_set_obj_dir(p, GLP_MAX);
    glp_add_cols(p, b->n_x + (coef ? 1 : 0));
    for (int r = 0; r < lp->n_rows; r++)
        for (int t = 0; t < T; t++) {
            int c = 1 + r * T + t;
            if (usable(lp, r, t))
                glp_set_col_bnds(p, c, GLP_DB, 0.0, 1.0);
            else
                glp_set_col_bnds(p, c, GLP_FX, 0.0, 0.0);
        }
    if (coef)
        glp_set_col_bnds(p, b->z, GLP_LO, 0.0, 0.0);
    glp_add_rows(p, (coef ? 2 * J : J) + T);
    b->link = J + T + 1;
    for (int j = 0; j < J; j++) {
        glp_set_row_bnds(p, 1 + j, GLP_UP, 0.0, 1.0);
        if (coef)
            glp_set_row_bnds(p, b->link + j, GLP_FR, 0.0, 0.0);
    }
    for (int t = 0; t < T; t++)
        glp_set_row_bnds(p, 1 + J + t, GLP_UP, 0.0, lp->cap[t]);
    /* Nonzeros: per (row, type, member) one time and one link entry, one
     * capacity entry per (row, type), one z entry per job. */
    size_t cap = (size_t)lp->n_rows * (size_t)T * 5 + (size_t)J + 1;
    int *ia = xalloc(cap, sizeof *ia), *ja = xalloc(cap, sizeof *ja);
    double *ar = xalloc(cap, sizeof *ar);
    size_t n = 0;
    for (int r = 0; r < lp->n_rows; r++)
        for (int t = 0; t < T; t++) {
            if (!usable(lp, r, t))
                continue;
            int c = 1 + r * T + t;
            for (int k = 0; k < 2; k++) {
                int j = lp->rows[r].job[k];
                if (j < 0)
                    continue;
                n++, ia[n] = 1 + j, ja[n] = c, ar[n] = 1.0;
                double v = coef ? coef[j] * lp->rate[(r * T + t) * 2 + k] : 0.0;
                if (v != 0)
                    n++, ia[n] = b->link + j, ja[n] = c, ar[n] = v;
            }
            n++, ia[n] = 1 + J + t, ja[n] = c, ar[n] = lp->rows[r].gpus;
        }
    for (int j = 0; j < J; j++)
        if (zcoef && zcoef[j] != 0)
            n++, ia[n] = b->link + j, ja[n] = b->z, ar[n] = -zcoef[j];
    glp_load_matrix(p, (int)n, ia, ja, ar);
    free(ia);
    free(ja);
    free(ar);
    glp_scale_prob(p, GLP_SF_AUTO);
}

static void unbuild(built_t *b)
{
    glp_delete_prob(b->p);
    free(b->can);
}

/* Runs the simplex; 1 = optimal, 0 = infeasible, -1 = solver failure. */
static int solve(built_t *b, char *err, size_t errlen)
{
    glp_smcp parm;
    glp_init_smcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    parm.presolve = GLP_OFF;
    int rc = glp_simplex(b->p, &parm);
    if (rc != 0) {
        glp_std_basis(b->p); /* a singular warm basis: retry from scratch */
        rc = glp_simplex(b->p, &parm);
    }
    if (rc != 0) {
        snprintf(err, errlen, "GLPK simplex failed (code %d)", rc);
        return -1;
    }
    int st = glp_get_status(b->p);
    if (st == GLP_OPT)
        return 1;
    if (st == GLP_NOFEAS || st == GLP_INFEAS)
        return 0;
    snprintf(err, errlen, "GLPK: LP status %d (unbounded or undefined)", st);
    return -1;
}

static void read_x(const built_t *b, double *x)
{
    for (int c = 0; c < b->n_x; c++) {
        double v = glp_get_col_prim(b->p, 1 + c);
        v = round(v * 1e6) / 1e6; /* drop solver noise: ties stay ties */
        x[c] = v < 0 ? 0.0 : v > 1 ? 1.0 : v;
    }
}

static int solve_into(built_t *b, double *x, char *err, size_t errlen)
{
    int rc = solve(b, err, errlen);
    if (rc == 0)
        snprintf(err, errlen, "GLPK: the allocation LP is infeasible");
    if (rc == 1)
        read_x(b, x);
    return rc == 1 ? 0 : -1;
}

/* The last solve's basis, where lp carries a memo (gavel_warm.c). */
static void warm_start(built_t *b, const gl_lp_t *lp)
{
    if (lp->warm && lp->job_id)
        gl_warm_apply(lp->warm, b->p, lp, b->has_z ? b->z : 0, b->has_z ? b->link : 0);
}

/* Keeps the final basis in lp's memo after a solve that worked (rc 0). */
static void warm_keep(built_t *b, const gl_lp_t *lp, int rc)
{
    if (lp->warm && lp->job_id && rc == 0)
        gl_warm_save(lp->warm, b->p, lp, b->has_z ? b->z : 0, b->has_z ? b->link : 0);
}

/* Objective: sum over jobs of weight_j * eff_j. */
static void set_sum_objective(built_t *b, const gl_lp_t *lp, const double *weight)
{
    int T = lp->n_types;
    for (int r = 0; r < lp->n_rows; r++)
        for (int t = 0; t < T; t++) {
            double v = 0;
            for (int k = 0; k < 2; k++)
                if (lp->rows[r].job[k] >= 0)
                    v += weight[lp->rows[r].job[k]] * lp->rate[(r * T + t) * 2 + k];
            glp_set_obj_coef(b->p, 1 + r * T + t, v);
        }
}

/* Replaces x by an interior point of the feasible set (objective 0, GLPK's
 * interior-point method), as an interior-point solver such as Gavel's ECOS
 * returns, instead of the simplex's vertex; 0 (x kept) when the method
 * fails. */
static int central_point(built_t *b, double *x)
{
    glp_iptcp parm;
    glp_init_iptcp(&parm);
    parm.msg_lev = GLP_MSG_OFF;
    if (glp_interior(b->p, &parm) != 0 || glp_ipt_status(b->p) != GLP_OPT)
        return 0;
    for (int c = 0; c < b->n_x; c++) {
        double v = round(glp_ipt_col_prim(b->p, 1 + c) * 1e6) / 1e6;
        x[c] = v < 0 ? 0.0 : v > 1 ? 1.0 : v;
    }
    return 1;
}

int gl_max_min(const gl_lp_t *lp, const double *weight, double *x, char *err, size_t errlen)
{
    double *one = xalloc((size_t)lp->n_jobs, sizeof *one);
    for (int j = 0; j < lp->n_jobs; j++)
        one[j] = 1.0;
    built_t b;
    build(&b, lp, weight, one);
    int any = 0;
    for (int j = 0; j < lp->n_jobs; j++)
        if (b.can[j] && weight[j] > 0) {
            glp_set_row_bnds(b.p, b.link + j, GLP_LO, 0.0, 0.0);
            any = 1;
        }
    glp_set_obj_coef(b.p, b.z, 1.0);
    if (!any) /* nobody can run: keep z bounded */
        glp_set_col_bnds(b.p, b.z, GLP_FX, 0.0, 0.0);
    warm_start(&b, lp);
    int rc = solve_into(&b, x, err, errlen);
    if (rc == 0 && any) { /* phase 2: the most total weighted rate at that level */
        double z = glp_get_col_prim(b.p, b.z);
        glp_set_col_bnds(b.p, b.z, GLP_LO, z * (1 - 1e-9), 0.0);
        glp_set_obj_coef(b.p, b.z, 0.0);
        set_sum_objective(&b, lp, weight);
        if (solve(&b, err, errlen) == 1)
            read_x(&b, x);
    }
    warm_keep(&b, lp, rc);
    unbuild(&b);
    free(one);
    return rc;
}

int gl_max_sum(const gl_lp_t *lp, const double *weight, double *x, char *err, size_t errlen)
{
    built_t b;
    build(&b, lp, NULL, NULL);
    set_sum_objective(&b, lp, weight);
    warm_start(&b, lp);
    int rc = solve_into(&b, x, err, errlen);
    warm_keep(&b, lp, rc);
    unbuild(&b);
    return rc;
}

int gl_min_makespan(const gl_lp_t *lp, const double *R, double *x, double *T_out, char *err,
                    size_t errlen)
{
    double *one = xalloc((size_t)lp->n_jobs, sizeof *one);
    for (int j = 0; j < lp->n_jobs; j++)
        one[j] = 1.0;
    built_t b;
    build(&b, lp, one, R);
    int any = 0;
    for (int j = 0; j < lp->n_jobs; j++)
        if (b.can[j] && R[j] > 0) {
            glp_set_row_bnds(b.p, b.link + j, GLP_LO, 0.0, 0.0);
            any = 1;
        }
    glp_set_obj_coef(b.p, b.z, 1.0);
    if (!any)
        glp_set_col_bnds(b.p, b.z, GLP_FX, 0.0, 0.0);
    warm_start(&b, lp);
    int rc = solve_into(&b, x, err, errlen);
    warm_keep(&b, lp, rc);
    if (rc == 0) {
        double s = glp_get_col_prim(b.p, b.z);
        *T_out = s > 0 ? 1.0 / s : INFINITY;
    }
    unbuild(&b);
    free(one);
    return rc;
}

/* Sets ftf's link rows for a given rho; 0 when some job cannot meet it. */
static int set_rho(built_t *b, const gl_lp_t *lp, const double *a, const double *c,
                   const double *R, double rho)
{
    for (int j = 0; j < lp->n_jobs; j++) {
        if (!b->can[j] || !(R[j] > 0)) {
            glp_set_row_bnds(b->p, b->link + j, GLP_FR, 0.0, 0.0);
            continue;
        }
        double room = rho * c[j] - a[j];
        if (!(room > 0))
            return 0;
        glp_set_row_bnds(b->p, b->link + j, GLP_LO, R[j] / room, 0.0);
    }
    return 1;
}

/* Sets ftf's rows for rho and decides: 1 feasible (the simplex's vertex is
 * in the problem), 2 feasible by a pricing certificate (no vertex), 0
 * infeasible (a job cannot wait that long, a certificate, or the simplex),
 * -1 solver failure. */
static int ftf_step(built_t *b, const gl_lp_t *lp, const double *a, const double *c,
                    const double *R, double rho, double *need, char *err, size_t errlen)
{
    if (!set_rho(b, lp, a, c, R, rho))
        return 0;
    for (int j = 0; j < lp->n_jobs; j++)
        need[j] = b->can[j] && R[j] > 0 ? R[j] / (rho * c[j] - a[j]) : 0.0;
    int verdict = gl_certify_needs(lp, need);
    if (verdict == GL_NEEDS_INFEASIBLE)
        return 0;
    if (verdict == GL_NEEDS_FEASIBLE)
        return 2;
    return solve(b, err, errlen);
}

int gl_ftf(const gl_lp_t *lp, const double *a, const double *c, const double *R, double rho_lo,
           double rho_hi, double tol, double *x, double *rho_out, char *err, size_t errlen)
{
    double *need = xalloc((size_t)lp->n_jobs, sizeof *need);
    double *one = xalloc((size_t)lp->n_jobs, sizeof *one);
    for (int j = 0; j < lp->n_jobs; j++)
        one[j] = 1.0;
    built_t b;
    build(&b, lp, one, NULL);
    glp_set_col_bnds(b.p, b.z, GLP_FX, 0.0, 0.0);
    int found = 0, rc = 0;
    /* The upper end must be feasible: widen it a few times if rounding
     * makes the caller's bound fail. */
    for (int tries = 0; tries < 8 && !found && rc >= 0; tries++) {
        rc = ftf_step(&b, lp, a, c, R, rho_hi, need, err, errlen);
        if (rc >= 1) {
            if (rc == 1)
                read_x(&b, x);
            found = 1;
        } else if (rc == 0) {
            rho_lo = rho_hi;
            rho_hi *= 2;
        }
    }
    if (!found) {
        if (rc >= 0)
            snprintf(err, errlen, "GLPK: no feasible finish-time-fairness level found");
        unbuild(&b);
        free(one);
        free(need);
        return -1;
    }
    while (rho_hi - rho_lo > tol * rho_hi) {
        double mid = 0.5 * (rho_lo + rho_hi);
        rc = ftf_step(&b, lp, a, c, R, mid, need, err, errlen);
        if (rc < 0)
            break;
        if (rc >= 1) {
            if (rc == 1)
                read_x(&b, x);
            rho_hi = mid;
        } else {
            rho_lo = mid;
        }
    }
    /* the interior point; should GLPK's method fail, the simplex's vertex */
    if (rc >= 0 && set_rho(&b, lp, a, c, R, rho_hi) && !central_point(&b, x)) {
        rc = solve(&b, err, errlen);
        if (rc == 1)
            read_x(&b, x);
        else if (rc == 0)
            snprintf(err, errlen, "GLPK: finish-time fairness infeasible at rho %g", rho_hi);
        rc = rc == 1 ? 0 : -1;
    }
    *rho_out = rho_hi;
    unbuild(&b);
    free(one);
    free(need);
    return rc < 0 ? -1 : 0;
}

int gl_assign(int n_jobs, int n_slots, const double *cost, const int *slot_cap, int *slot_of,
              char *err, size_t errlen)
{
    glp_term_out(GLP_OFF);
    glp_prob *p = glp_create_prob();
    glp_set_obj_dir(p, GLP_MIN);
    size_t nc = (size_t)n_jobs * (size_t)n_slots;
    glp_add_cols(p, (int)nc);
    glp_add_rows(p, n_jobs + n_slots);
    int *ia = xalloc(2 * nc + 1, sizeof *ia), *ja = xalloc(2 * nc + 1, sizeof *ja);
    double *ar = xalloc(2 * nc + 1, sizeof *ar);
    size_t n = 0;
    for (int j = 0; j < n_jobs; j++)
        glp_set_row_bnds(p, 1 + j, GLP_FX, 1.0, 1.0);
    for (int s = 0; s < n_slots; s++)
        glp_set_row_bnds(p, 1 + n_jobs + s, GLP_UP, 0.0, slot_cap[s]);
    for (int j = 0; j < n_jobs; j++)
        for (int s = 0; s < n_slots; s++) {
            int c = 1 + j * n_slots + s;
            double v = cost[(size_t)j * n_slots + s];
            if (!isfinite(v)) {
                glp_set_col_bnds(p, c, GLP_FX, 0.0, 0.0);
                continue;
            }
            glp_set_col_bnds(p, c, GLP_DB, 0.0, 1.0);
            glp_set_obj_coef(p, c, v);
            n++, ia[n] = 1 + j, ja[n] = c, ar[n] = 1.0;
            n++, ia[n] = 1 + n_jobs + s, ja[n] = c, ar[n] = 1.0;
        }
    glp_load_matrix(p, (int)n, ia, ja, ar);
    free(ia);
    free(ja);
    free(ar);
    glp_scale_prob(p, GLP_SF_AUTO);
    built_t b = {p, (int)nc, 0, 0, 0, NULL};
    int rc = solve(&b, err, errlen);
    if (rc == 0)
        snprintf(err, errlen, "GLPK: the assignment LP is infeasible");
    for (int j = 0; rc == 1 && j < n_jobs; j++) {
        slot_of[j] = -1;
        for (int s = 0; s < n_slots; s++)
            if (glp_get_col_prim(p, 1 + j * n_slots + s) > 0.5)
                slot_of[j] = s;
    }
    glp_delete_prob(p);
    return rc == 1 ? 0 : -1;
}

#else /* !HAVE_GLPK */

static int no_glpk(char *err, size_t errlen)
{
    snprintf(err, errlen, "mlsched was built without GLPK (install libglpk-dev and reconfigure)");
    return -1;
}

int gl_max_min(const gl_lp_t *lp, const double *weight, double *x, char *err, size_t errlen)
{
    (void)lp, (void)weight, (void)x;
    return no_glpk(err, errlen);
}

int gl_max_sum(const gl_lp_t *lp, const double *weight, double *x, char *err, size_t errlen)
{
    (void)lp, (void)weight, (void)x;
    return no_glpk(err, errlen);
}

int gl_min_makespan(const gl_lp_t *lp, const double *R, double *x, double *T_out, char *err,
                    size_t errlen)
{
    (void)lp, (void)R, (void)x, (void)T_out;
    return no_glpk(err, errlen);
}

int gl_ftf(const gl_lp_t *lp, const double *a, const double *c, const double *R, double rho_lo,
           double rho_hi, double tol, double *x, double *rho_out, char *err, size_t errlen)
{
    (void)lp, (void)a, (void)c, (void)R, (void)rho_lo, (void)rho_hi, (void)tol, (void)x,
        (void)rho_out;
    return no_glpk(err, errlen);
}

int gl_assign(int n_jobs, int n_slots, const double *cost, const int *slot_cap, int *slot_of,
              char *err, size_t errlen)
{
    (void)n_jobs, (void)n_slots, (void)cost, (void)slot_cap, (void)slot_of;
    return no_glpk(err, errlen);
}

#endif
