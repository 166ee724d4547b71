/* gavel_assign.c: gl_assign_flow (gavel_lp.h), AlloX's min-cost assignment
 * of jobs to (GPU type, position) slots as a min-cost flow solved by GLPK's
 * out-of-kilter routine (glp_mincost_okalg) instead of the simplex.
 *
 * Network, a circulation: source -> job (flow exactly 1), job -> slot
 * (capacity 1, one arc per finite cost), slot -> sink (capacity slot_cap),
 * sink -> source (flow exactly n_jobs). The source comes first so that GLPK
 * finds its out-of-kilter arcs without scanning the others (twice as fast as
 * node supplies, which GLPK appends as arcs at the end).
 *
 * Integer costs: out-of-kilter works in ints. Each job's costs less its
 * cheapest (which moves every assignment's total by the same constant) are
 * multiplied by the power of two S with GL_ASSIGN_SCALE / 2 < S * c_max <=
 * GL_ASSIGN_SCALE (c_max the largest such reduced cost) and rounded. Each
 * rounded cost is within 1 / (2 S) of the true one (divided by S), and the
 * returned and an optimal assignment use n_jobs arcs each, so the returned
 * one costs at most n_jobs / S < 2 n_jobs c_max / GL_ASSIGN_SCALE more than
 * the optimum (gl_assign_bound; 2^30 leaves room for GLPK's potentials).
 * Integer costs up to GL_ASSIGN_SCALE stay exact. GLPK stops with
 * GLP_ERANGE when its node potentials would overflow an int; then S is cut
 * by 64 (a bound 64 times looser) and, past three tries, the simplex
 * (gl_assign) decides.
 *
 * Arcs: the solve starts from the caller's seed arcs; every left-out arc
 * whose reduced cost under GLPK's node potentials is negative is then added
 * and GLPK solves again, until none is (then the flow is optimal over all
 * arcs: LP pricing, as column generation does); a seed without a feasible
 * flow falls back to all arcs.
 *
 * Why not GLPK's other network routines: glp_mincost_relax4 aborts in
 * Debian's GLPK 5.0 ("temporarily disabled due to licensing problems"), and
 * glp_asnprob_okalg is the same out-of-kilter method on a one-to-one
 * assignment, which would need a copy of each slot per free GPU. */
#include "config.h"

#include "policies/gavel_lp.h"

#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

/* The largest finite cost less its job's cheapest. */
static double max_reduced_cost(int n_jobs, int n_slots, const double *cost)
{
    double c_max = 0;
    for (size_t j = 0; j < (size_t)n_jobs; j++) {
        double lo = INFINITY, hi = -INFINITY;
        for (size_t s = 0; s < (size_t)n_slots; s++)
            if (isfinite(cost[j * n_slots + s])) {
                lo = fmin(lo, cost[j * n_slots + s]);
                hi = fmax(hi, cost[j * n_slots + s]);
            }
        if (hi - lo > c_max)
            c_max = hi - lo;
    }
    return c_max;
}

/* The cost scale for an integer budget: the power of two S with
 * budget / 2 < S * c_max <= budget (exact in binary floating point, so
 * integer costs up to the budget stay exact). */
static double cost_scale(double c_max, double budget)
{
    if (!(c_max > 0))
        return 1.0;
    int e;
    frexp(budget / c_max, &e); /* budget / c_max in [2^(e-1), 2^e) */
    return ldexp(1.0, e - 1);
}

double gl_assign_bound(int n_jobs, int n_slots, const double *cost)
{
    return n_jobs / cost_scale(max_reduced_cost(n_jobs, n_slots, cost), GL_ASSIGN_SCALE);
}

#ifdef HAVE_GLPK

#include <glpk.h>

typedef struct arc_data {
    double low, cap, cost, x;
} arc_data_t;

typedef struct node_data {
    double pi;
} node_data_t;

/* The scaled problem: integer costs (NAN: forbidden) and the arcs given to
 * GLPK so far. */
typedef struct scaled {
    int n_jobs, n_slots;
    const int *slot_cap;
    double *icost;
    unsigned char *in;
} scaled_t;

/* icost = round(S * (cost - the job's cheapest)), S for the budget. */
static void scale_costs(scaled_t *p, const double *cost, double budget)
{
    size_t n_slots = (size_t)p->n_slots;
    double S = cost_scale(max_reduced_cost(p->n_jobs, p->n_slots, cost), budget);
    for (size_t j = 0; j < (size_t)p->n_jobs; j++) {
        double lo = INFINITY;
        for (size_t s = 0; s < n_slots; s++)
            lo = fmin(lo, cost[j * n_slots + s]);
        for (size_t s = 0; s < n_slots; s++) {
            double c = cost[j * n_slots + s];
            p->icost[j * n_slots + s] = isfinite(c) ? round(S * (c - lo)) : NAN;
        }
    }
}

/* Out-of-kilter on the arcs in p->in: 0 solved (slot_of and the node
 * potentials pi filled), else GLPK's code. Vertices: 1 source, then jobs,
 * slots, the sink; a circulation (sink -> source carries n_jobs), so that
 * GLPK finds the source's arcs out of kilter first. */
static int solve_arcs(const scaled_t *p, int *slot_of, double *pi)
{
    int n_jobs = p->n_jobs, n_slots = p->n_slots;
    int src = 1, job0 = 2, slot0 = 2 + n_jobs, sink = 2 + n_jobs + n_slots;
    glp_graph *G = glp_create_graph(sizeof(node_data_t), sizeof(arc_data_t));
    glp_add_vertices(G, sink);
    for (int j = n_jobs - 1; j >= 0; j--)
        *(arc_data_t *)glp_add_arc(G, src, job0 + j)->data = (arc_data_t){1, 1, 0, 0};
    for (int j = 0; j < n_jobs; j++)
        for (int s = n_slots - 1; s >= 0; s--) {
            size_t k = (size_t)j * n_slots + s;
            if (p->in[k])
                *(arc_data_t *)glp_add_arc(G, job0 + j, slot0 + s)->data =
                    (arc_data_t){0, 1, p->icost[k], 0};
        }
    for (int s = 0; s < n_slots; s++)
        *(arc_data_t *)glp_add_arc(G, slot0 + s, sink)->data =
            (arc_data_t){0, p->slot_cap[s] > 0 ? p->slot_cap[s] : 0, 0, 0};
    *(arc_data_t *)glp_add_arc(G, sink, src)->data = (arc_data_t){n_jobs, n_jobs, 0, 0};
    int rc = glp_mincost_okalg(G, -1, offsetof(arc_data_t, low), offsetof(arc_data_t, cap),
                               offsetof(arc_data_t, cost), NULL, offsetof(arc_data_t, x),
                               offsetof(node_data_t, pi));
    for (int j = 0; rc == 0 && j < n_jobs; j++) {
        slot_of[j] = -1;
        for (glp_arc *a = G->v[job0 + j]->out; a; a = a->t_next)
            if (((arc_data_t *)a->data)->x > 0.5)
                slot_of[j] = a->head->i - slot0;
    }
    for (int i = 0; rc == 0 && i < n_jobs + n_slots; i++)
        pi[i] = ((node_data_t *)G->v[job0 + i]->data)->pi;
    glp_delete_graph(G);
    return rc;
}

/* LP pricing: adds every left-out arc whose reduced cost under the node
 * potentials is negative; returns how many. None means the flow on the
 * given arcs is optimal on all of them (complementary slackness). GLPK's
 * potentials pi (glp_mincost_okalg's v_pi) make an arc i -> j's reduced cost
 * cost - pi_i + pi_j. */
static int price_arcs(scaled_t *p, const double *pi)
{
    int added = 0;
    for (int j = 0; j < p->n_jobs; j++)
        for (int s = 0; s < p->n_slots; s++) {
            size_t k = (size_t)j * p->n_slots + s;
            if (!p->in[k] && !isnan(p->icost[k]) && p->icost[k] - pi[j] + pi[p->n_jobs + s] < 0) {
                p->in[k] = 1;
                added++;
            }
        }
    return added;
}

/* Solves at one integer budget: 0, or GLPK's code. */
static int solve_budget(scaled_t *p, const double *cost, const unsigned char *seed, double budget,
                        int *slot_of, double *pi)
{
    size_t n = (size_t)p->n_jobs * p->n_slots;
    scale_costs(p, cost, budget);
    for (size_t k = 0; k < n; k++)
        p->in[k] = !isnan(p->icost[k]) && (!seed || seed[k]);
    for (int round = 0;; round++) {
        int rc = solve_arcs(p, slot_of, pi);
        if (rc == GLP_ENOPFS && seed) { /* the seed left no feasible flow: all arcs */
            for (size_t k = 0; k < n; k++)
                p->in[k] = !isnan(p->icost[k]);
            seed = NULL;
            continue;
        }
        if (rc != 0 || price_arcs(p, pi) == 0)
            return rc;
    }
}

int gl_assign_flow(int n_jobs, int n_slots, const double *cost, const int *slot_cap,
                   const unsigned char *seed, int *slot_of, char *err, size_t errlen)
{
    size_t n = (size_t)n_jobs * (size_t)n_slots;
    scaled_t p = {n_jobs, n_slots, slot_cap, malloc((n ? n : 1) * sizeof(double)),
                  malloc(n ? n : 1)};
    double *pi = malloc((size_t)(n_jobs + n_slots + 1) * sizeof *pi);
    if (!p.icost || !p.in || !pi) {
        fprintf(stderr, "mlsched: out of memory in the assignment\n");
        abort();
    }
    double budget = GL_ASSIGN_SCALE;
    int rc = GLP_ERANGE;
    for (int tries = 0; tries < 3 && rc == GLP_ERANGE; tries++, budget /= 64)
        rc = solve_budget(&p, cost, seed, budget, slot_of, pi);
    free(pi);
    free(p.in);
    free(p.icost);
    if (rc == GLP_ENOPFS) {
        snprintf(err, errlen, "GLPK: the assignment is infeasible");
        return -1;
    }
    if (rc != 0) /* overflow at every budget, or GLPK failed: the simplex */
        return gl_assign(n_jobs, n_slots, cost, slot_cap, slot_of, err, errlen);
    return 0;
}

#else /* !HAVE_GLPK */

int gl_assign_flow(int n_jobs, int n_slots, const double *cost, const int *slot_cap,
                   const unsigned char *seed, int *slot_of, char *err, size_t errlen)
{
    (void)seed;
    return gl_assign(n_jobs, n_slots, cost, slot_cap, slot_of, err, errlen);
}

#endif
