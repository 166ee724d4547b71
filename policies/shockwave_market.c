/* shockwave_market.c: Shockwave's dynamic market over a window of rounds as
 * a mixed-integer program solved by GLPK, its round-by-round packing, and its
 * Bayesian remaining-time predictor (see shockwave.h for the model).
 *
 * The idea: the objective depends on the rounds only through how many each
 * job gets (n_j), and is concave in n_j. So instead of Shockwave's binary
 * x[j][r] per job and round (Gurobi, 15 s time limit) and its 5-piece
 * approximation of the log, we give each job one integer n_j and one
 * continuous increment y_jt in [0, 1] per possible round t = 1..nmax_j, with
 * n_j = sum_t y_jt, utility increments du_jt = u_j(t) - u_j(t-1) and run-time
 * increments dtau_jt = tau_j(t) - tau_j(t-1). Both are non-increasing in t (u
 * is concave, the last round may be cut short), so an optimal LP fills the
 * increments in order and the program's value at every integer n is the exact
 * objective: no approximation of the log, and far fewer integer variables
 * (one per job, not W). Rows: n_j - sum_t y_jt = 0; capacity sum_j g_j n_j
 * <= G W; makespan M + sum_t dtau_jt y_jt >= R_j; fairness sum_t dtau_jt y_jt
 * >= R_j - cap_j; per gang size s not dividing G, sum_{g_j >= s} n_j <=
 * floor(G / s) W (valid for every packing). The per-round packing of gangs
 * (at most G GPUs in each round) is left to sw_assign_rounds: with gangs a
 * count vector may not pack, and then a job loses planned rounds. sw_plan
 * then re-solves (up to 3 times) with two repairs and keeps the best packed
 * schedule: the jobs that lost rounds bounded by what they got, or every
 * gang one round less; GPUs a packing leaves idle in a round go to the jobs
 * that gain most from one more round. The brute-force test in
 * tests/test_shockwave.c measures what is left: no gap with 1-GPU jobs, a
 * mean gap of 0.8-2.1 % on tiny gang markets (3 or 8 GPUs).
 *
 * Rounds are packed twice: by urgency (rounds still needed over rounds
 * left, largest gang first; it packs the most count vectors), then, when the
 * same counts pack that way, in priority order (weight, then shortest
 * predicted remaining time): a job that can finish in the window runs early,
 * so the next re-solve does not push its rounds back again (without it every
 * short job was paced to the end: average JCT 19,938 s instead of 10,940 s
 * on Shockwave's 120-job experiment).
 *
 * Speed: the simplex starts from the basis of a greedy solution (sw_greedy:
 * a search over the makespan level with increments taken by utility per
 * GPU), which is optimal or close: 1-2 iterations at 2,000 jobs instead of
 * 12,000 from the standard basis (4.5 s to 0.05 s).
 *
 * Why GLPK's branch and bound and not an exact convex method: the program is
 * a separable concave knapsack with a max term, integral because a job runs
 * whole rounds; its LP relaxation has few fractional n_j (the capacity row
 * and the makespan rows that are tight), so branch and bound closes quickly.
 * Determinism: a node limit (node_limit), counted in GLPK's callback, stops
 * the search, never a wall-clock limit (results would depend on the
 * machine's speed); if no integer point was found by then, the LP's n_j are
 * rounded down (feasible: capacity holds, M grows). Should GLPK fail, or
 * mlsched be built without it, the greedy counts (sw_greedy) are the plan. */
#include "config.h"

#include "policies/shockwave.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SW_LOG_ORIGIN 1e-6 /* log(0) stands for log(1e-6), as Shockwave's bases */
#define SW_WEIGHT_CAP 1e6
#define SW_REPAIRS 4 /* solves per plan: the first, then with lost rounds as bounds */

static void *sw_xalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "mlsched: out of memory in shockwave\n");
        abort();
    }
    return p;
}

void sw_weights(const sw_market_t *m, int relaxed, double *w)
{
    for (int j = 0; j < m->n; j++) {
        const sw_job_t *jb = &m->jobs[j];
        w[j] = 1.0;
        if (!relaxed || !(jb->rho > m->rhomax))
            continue;
        double p = jb->rem_pred < m->round_len ? 100.0 : m->lambda;
        double v = pow(jb->rho, p);
        w[j] = isfinite(v) && v < SW_WEIGHT_CAP ? v : SW_WEIGHT_CAP;
    }
}

int sw_max_rounds(const sw_market_t *m, int j)
{
    const sw_job_t *jb = &m->jobs[j];
    if (!(jb->speed > 0) || jb->progress >= 1.0 || jb->gpus > m->gpus || jb->gpus <= 0)
        return 0;
    double need = ceil((1.0 - jb->progress) / (m->round_len * jb->speed) - 1e-9);
    int r = need < m->window ? (int)need : m->window;
    return m->ub && m->ub[j] < r ? m->ub[j] : r;
}

static double sw_u(const sw_job_t *jb, double L, int n)
{
    double p = jb->progress + (jb->speed > 0 ? n * L * jb->speed : 0);
    if (p > 1.0)
        p = 1.0;
    return log(p > SW_LOG_ORIGIN ? p : SW_LOG_ORIGIN);
}

static double sw_tau(const sw_job_t *jb, double L, int n)
{
    if (!(jb->speed > 0))
        return 0;
    double full = (1.0 - jb->progress) / jb->speed;
    return n * L < full ? n * L : full;
}

double sw_objective(const sw_market_t *m, const int *n, const double *w, int check_cap)
{
    double used = 0, sum = 0, mk = 0;
    for (int j = 0; j < m->n; j++) {
        const sw_job_t *jb = &m->jobs[j];
        used += (double)jb->gpus * n[j];
        double left = jb->rem_pred - sw_tau(jb, m->round_len, n[j]);
        if (left < 0)
            left = 0;
        if (check_cap && left > jb->cap + 1e-6)
            return -INFINITY;
        if (left > mk)
            mk = left;
        sum += w[j] * sw_u(jb, m->round_len, n[j]);
    }
    if (used > (double)m->gpus * m->window + 1e-9)
        return -INFINITY;
    double nw = (double)(m->n > 0 ? m->n : 1) * m->window;
    return sum / nw - m->k * mk;
}

/* Priority order of the packing: weight descending, then predicted
 * remaining time ascending; then index. */
typedef struct sw_key {
    double w, r;
    int j;
} sw_key_t;

static int sw_key_cmp(const void *a, const void *b)
{
    const sw_key_t *x = a, *y = b;
    if (x->w != y->w)
        return x->w > y->w ? -1 : 1;
    if (x->r != y->r)
        return x->r < y->r ? -1 : 1;
    return (x->j > y->j) - (x->j < y->j);
}

/* Packing order within a round. Urgency packing: rounds still needed over
 * rounds left, then largest gang, then priority rank (packs the most count
 * vectors). Priority packing: the jobs that need every round left first
 * (largest gang first), then the priority rank (weight, then shortest
 * predicted remaining time: the rounds of a job that can finish in the
 * window come early, so a re-solve at the next arrival does not push them
 * back), then largest gang. */
typedef struct sw_slot {
    double urgency;
    int forced, gpus, rank, j;
} sw_slot_t;

static int sw_urgency_cmp(const void *a, const void *b)
{
    const sw_slot_t *x = a, *y = b;
    if (x->urgency != y->urgency)
        return x->urgency > y->urgency ? -1 : 1;
    if (x->gpus != y->gpus)
        return x->gpus > y->gpus ? -1 : 1;
    return (x->rank > y->rank) - (x->rank < y->rank);
}

static int sw_priority_cmp(const void *a, const void *b)
{
    const sw_slot_t *x = a, *y = b;
    if (x->forced != y->forced)
        return x->forced ? -1 : 1;
    if (x->forced && x->gpus != y->gpus)
        return x->gpus > y->gpus ? -1 : 1;
    if (x->rank != y->rank)
        return x->rank < y->rank ? -1 : 1;
    return (x->gpus < y->gpus) - (x->gpus > y->gpus);
}

static void sw_pack(const sw_market_t *m, const int *n, const int *rank, int urgency,
                    unsigned char *sched, int *got, sw_slot_t *slot, int *need)
{
    int J = m->n, W = m->window;
    for (int j = 0; j < J; j++) {
        need[j] = n[j];
        got[j] = 0;
    }
    memset(sched, 0, (size_t)J * (size_t)W);
    for (int r = 0; r < W; r++) {
        int room = m->gpus, k = 0;
        for (int j = 0; j < J; j++)
            if (need[j] > 0)
                slot[k++] = (sw_slot_t){(double)need[j] / (W - r), need[j] >= W - r,
                                        m->jobs[j].gpus, rank[j], j};
        qsort(slot, (size_t)k, sizeof *slot, urgency ? sw_urgency_cmp : sw_priority_cmp);
        for (int i = 0; i < k && room > 0; i++) {
            int j = slot[i].j;
            if (m->jobs[j].gpus > room)
                continue;
            sched[(size_t)r * J + j] = 1;
            room -= m->jobs[j].gpus;
            need[j]--;
            got[j]++;
        }
    }
}

/* Packs n (urgency first when `reorder` is 0; when 1, the counts the
 * urgency packing achieves are laid out again in priority order if that
 * packs them all too). */
static void sw_assign(const sw_market_t *m, const int *n, const double *w, int reorder,
                      unsigned char *sched, int *got)
{
    int J = m->n, W = m->window;
    sw_key_t *key = sw_xalloc((size_t)J, sizeof *key);
    sw_slot_t *slot = sw_xalloc((size_t)J, sizeof *slot);
    int *need = sw_xalloc((size_t)J, sizeof *need), *rank = sw_xalloc((size_t)J, sizeof *rank);
    int *got2 = sw_xalloc((size_t)J, sizeof *got2);
    unsigned char *s2 = sw_xalloc((size_t)J * W, 1);
    for (int j = 0; j < J; j++)
        key[j] = (sw_key_t){w ? w[j] : 1.0, m->jobs[j].rem_pred, j};
    /* urgency packing breaks ties longest remaining first (it packs more
     * count vectors); the priority order is shortest remaining first */
    int *urank = sw_xalloc((size_t)J, sizeof *urank);
    qsort(key, (size_t)J, sizeof *key, sw_key_cmp);
    for (int i = 0; i < J; i++) {
        rank[key[i].j] = i;
        urank[key[i].j] = 0;
    }
    for (int i = 0; i < J; i++) { /* same weight: reverse the remaining-time order */
        int a = i;
        while (a + 1 < J && key[a + 1].w == key[i].w)
            a++;
        for (int q = i; q <= a; q++)
            urank[key[q].j] = i + (a - q);
        i = a;
    }
    if (reorder == 2) { /* got holds a packing's counts already: reorder only */
        int *cnt = sw_xalloc((size_t)J, sizeof *cnt);
        memcpy(cnt, got, (size_t)J * sizeof *cnt);
        sw_pack(m, cnt, rank, 0, s2, got2, slot, need);
        free(cnt);
    } else {
        sw_pack(m, n, urank, 1, sched, got, slot, need);
        if (reorder)
            sw_pack(m, got, rank, 0, s2, got2, slot, need);
    }
    if (reorder && !memcmp(got, got2, (size_t)J * sizeof *got))
        memcpy(sched, s2, (size_t)J * W);
    free(key);
    free(slot);
    free(need);
    free(rank);
    free(got2);
    free(s2);
    free(urank);
}

void sw_assign_rounds(const sw_market_t *m, const int *n, const double *w, unsigned char *sched,
                      int *got)
{
    sw_assign(m, n, w, 1, sched, got);
}

double sw_predict(const sw_mode_t *modes, int n_modes, double epochs, double done, double *rem)
{
    if (n_modes <= 0)
        return 0;
    double left = epochs - done;
    if (left < 0)
        left = 0;
    double prior = epochs / n_modes, total = 0, sum = 0, t = 0;
    for (int i = 0; i < n_modes; i++)
        total += prior + modes[i].observed;
    double *r = sw_xalloc((size_t)n_modes, sizeof *r);
    for (int i = 0; i < n_modes; i++) {
        double expect = epochs * (prior + modes[i].observed) / total - modes[i].observed;
        r[i] = modes[i].future && expect > 0 ? expect : 0;
        sum += r[i];
    }
    if (sum <= 0) { /* nothing left at a future mode: all at the last future one */
        for (int i = n_modes - 1; i >= 0; i--)
            if (modes[i].future || i == 0) {
                r[i] = 1;
                sum = 1;
                break;
            }
    }
    for (int i = 0; i < n_modes; i++) {
        r[i] *= left / sum;
        t += r[i] * modes[i].epoch_time;
        if (rem)
            rem[i] = r[i];
    }
    free(r);
    return t;
}

/* GPUs a packing leaves idle in a round go to the jobs not in it that still
 * gain from a round (fewer than sw_max_rounds), best gain first: the change
 * of the job's weighted log term plus k times the drop of the makespan term
 * when the job is the one left with the most remaining time. */
static void sw_fill_rounds(const sw_market_t *m, const double *w, unsigned char *sched, int *got)
{
    int J = m->n, W = m->window;
    double nw = (double)(J > 0 ? J : 1) * W;
    for (int r = 0; r < W; r++) {
        int room = m->gpus;
        for (int j = 0; j < J; j++)
            room -= sched[(size_t)r * J + j] ? m->jobs[j].gpus : 0;
        while (room > 0) {
            double mk = 0, mk2 = 0;
            int arg = -1;
            for (int j = 0; j < J; j++) {
                double left = m->jobs[j].rem_pred - sw_tau(&m->jobs[j], m->round_len, got[j]);
                if (left > mk) {
                    mk2 = mk;
                    mk = left;
                    arg = j;
                } else if (left > mk2)
                    mk2 = left;
            }
            int best = -1;
            double gain = 0;
            for (int j = 0; j < J; j++) {
                const sw_job_t *jb = &m->jobs[j];
                if (sched[(size_t)r * J + j] || jb->gpus > room || got[j] >= sw_max_rounds(m, j))
                    continue;
                double g = w[j] *
                           (sw_u(jb, m->round_len, got[j] + 1) - sw_u(jb, m->round_len, got[j])) /
                           nw;
                if (j == arg) {
                    double left = jb->rem_pred - sw_tau(jb, m->round_len, got[j] + 1);
                    g += m->k * (mk - (left > mk2 ? left : mk2));
                }
                if (g > gain + 1e-15) {
                    gain = g;
                    best = j;
                }
            }
            if (best < 0)
                break;
            sched[(size_t)r * J + best] = 1;
            got[best]++;
            room -= m->jobs[best].gpus;
        }
    }
}

/* One solve and packing under bounds ub; 0 when solved (obj, got, sched
 * filled), -1 when the solver failed or its relaxed mode is not `mode`
 * (mode -1: any). */
typedef struct sw_try {
    int *n, *got;
    unsigned char *sched;
    double *w;
    double obj;
    sw_solution_t sol;
} sw_try_t;

static int sw_try(const sw_market_t *m, int mode, sw_try_t *t, char *err, size_t errlen)
{
    if (sw_solve(m, t->n, &t->sol, err, errlen) < 0 || (mode >= 0 && t->sol.relaxed != mode))
        return -1;
    sw_weights(m, t->sol.relaxed, t->w);
    sw_assign(m, t->n, t->w, 0, t->sched, t->got);
    sw_fill_rounds(m, t->w, t->sched, t->got);
    t->obj = sw_objective(m, t->got, t->w, 0);
    return 0;
}

static void sw_try_alloc(sw_try_t *t, int J, int W)
{
    t->n = sw_xalloc((size_t)J, sizeof *t->n);
    t->got = sw_xalloc((size_t)J, sizeof *t->got);
    t->w = sw_xalloc((size_t)J, sizeof *t->w);
    t->sched = sw_xalloc((size_t)J * W, 1);
}

static void sw_try_free(sw_try_t *t)
{
    free(t->n);
    free(t->got);
    free(t->w);
    free(t->sched);
}

int sw_plan(const sw_market_t *m0, int *got, unsigned char *sched, sw_solution_t *out, char *err,
            size_t errlen)
{
    int J = m0->n, W = m0->window;
    sw_market_t m = *m0, mb = *m0;
    int *ub = sw_xalloc((size_t)J, sizeof *ub), *ubb = sw_xalloc((size_t)J, sizeof *ubb);
    sw_try_t cur, alt;
    sw_try_alloc(&cur, J, W);
    sw_try_alloc(&alt, J, W);
    for (int j = 0; j < J; j++)
        ub[j] = m0->ub ? m0->ub[j] : W;
    m.ub = ub;
    mb.ub = ubb;
    if (sw_try(&m, -1, &cur, err, errlen) < 0) {
        sw_try_free(&cur);
        sw_try_free(&alt);
        free(ub);
        free(ubb);
        return -1;
    }
    int mode = cur.sol.relaxed;
    *out = cur.sol;
    out->objective = cur.obj;
    memcpy(got, cur.got, (size_t)J * sizeof *got);
    memcpy(sched, cur.sched, (size_t)J * W);
    for (int it = 1; it < SW_REPAIRS; it++) {
        /* repairs: (a) jobs that lost rounds bounded by what they got; (b)
         * every gang (g > 1) planned one round less */
        int lost = 0, gangs = 0;
        for (int j = 0; j < J; j++) {
            ubb[j] = ub[j];
            if (cur.got[j] < cur.n[j]) {
                ub[j] = cur.got[j];
                lost = 1;
            }
            if (m.jobs[j].gpus > 1 && cur.n[j] > 0) {
                ubb[j] = cur.n[j] - 1;
                gangs = 1;
            }
        }
        if (!lost)
            break;
        int okb = gangs && sw_try(&mb, mode, &alt, err, errlen) == 0;
        int oka = sw_try(&m, mode, &cur, err, errlen) == 0;
        if (okb && (!oka || alt.obj > cur.obj)) {
            sw_try_t t = cur;
            cur = alt;
            alt = t;
            memcpy(ub, ubb, (size_t)J * sizeof *ub);
            oka = 1;
        }
        if (!oka)
            break;
        out->repairs = it;
        if (cur.obj > out->objective) {
            int r = out->repairs;
            *out = cur.sol;
            out->repairs = r;
            out->objective = cur.obj;
            memcpy(got, cur.got, (size_t)J * sizeof *got);
            memcpy(sched, cur.sched, (size_t)J * W);
        }
    }
    /* the final counts laid out in priority order when they pack that way */
    sw_weights(&m, out->relaxed, cur.w);
    sw_assign(&m, NULL, cur.w, 2, sched, got);
    sw_try_free(&cur);
    sw_try_free(&alt);
    free(ub);
    free(ubb);
    return 0;
}

/* Greedy solution of the count problem (no per-round packing): for a level M
 * of the makespan term, each job needs the fewest rounds that bring its
 * remaining time to M (and, unless relaxed, to its fairness cap); the GPU
 * rounds left go increment by increment to the best utility per GPU
 * (increments of a job come in order: u is concave). The level is searched
 * over the values the remaining times take at whole round counts (ternary
 * search over the sorted feasible levels, then the neighbours of the best).
 * Exact for the LP relaxation's structure with 1-GPU jobs and a unimodal
 * value in M; used as the simplex's starting point. Returns the objective,
 * -INFINITY when no count vector meets the lower bounds. */
typedef struct sw_inc {
    double ratio;
    int j, t;
} sw_inc_t;

static int sw_inc_cmp(const void *a, const void *b)
{
    const sw_inc_t *x = a, *y = b;
    if (x->ratio != y->ratio)
        return x->ratio > y->ratio ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->j > y->j) - (x->j < y->j);
}

typedef struct sw_greedy_ctx {
    const sw_market_t *m;
    const double *w;
    int *nmax, *lo, *cur;
    sw_inc_t *inc;
    int n_inc;
} sw_greedy_ctx_t;

/* Fewest rounds (<= nmax) that bring job j's remaining time to `level`; -1
 * when even nmax does not. */
static int sw_need(const sw_market_t *m, int j, int nmax, double level)
{
    const sw_job_t *jb = &m->jobs[j];
    for (int n = 0; n <= nmax; n++) /* nmax <= W: short */
        if (jb->rem_pred - sw_tau(jb, m->round_len, n) <= level + 1e-9)
            return n;
    return -1;
}

static double sw_greedy_at(sw_greedy_ctx_t *c, double level, int *out)
{
    const sw_market_t *m = c->m;
    double room = (double)m->gpus * m->window;
    for (int j = 0; j < m->n; j++) {
        int need = m->k > 0 ? sw_need(m, j, c->nmax[j], level) : 0;
        if (need < 0)
            return -INFINITY;
        c->cur[j] = need > c->lo[j] ? need : c->lo[j];
        room -= (double)m->jobs[j].gpus * c->cur[j];
    }
    if (room < -1e-9)
        return -INFINITY;
    for (int i = 0; i < c->n_inc; i++) {
        int j = c->inc[i].j;
        if (c->inc[i].t == c->cur[j] + 1 && m->jobs[j].gpus <= room) {
            c->cur[j]++;
            room -= m->jobs[j].gpus;
        }
    }
    if (out)
        memcpy(out, c->cur, (size_t)m->n * sizeof *out);
    return sw_objective(m, c->cur, c->w, 0);
}

static int sw_dbl_cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

double sw_greedy(const sw_market_t *m, const double *w, int relaxed, int *n)
{
    int J = m->n, W = m->window;
    double nw = (double)(J > 0 ? J : 1) * W;
    sw_greedy_ctx_t c = {m,
                         w,
                         sw_xalloc((size_t)J, sizeof(int)),
                         sw_xalloc((size_t)J, sizeof(int)),
                         sw_xalloc((size_t)J, sizeof(int)),
                         sw_xalloc((size_t)J * W + 1, sizeof(sw_inc_t)),
                         0};
    double *lv = sw_xalloc((size_t)J * (W + 1) + 1, sizeof *lv), best = -INFINITY;
    int n_lv = 0, ok = 1;
    for (int j = 0; j < J && ok; j++) {
        const sw_job_t *jb = &m->jobs[j];
        c.nmax[j] = sw_max_rounds(m, j);
        c.lo[j] = relaxed || !isfinite(jb->cap) ? 0 : sw_need(m, j, c.nmax[j], jb->cap);
        ok = c.lo[j] >= 0;
        for (int t = 1; t <= c.nmax[j]; t++)
            c.inc[c.n_inc++] = (sw_inc_t){
                w[j] * (sw_u(jb, m->round_len, t) - sw_u(jb, m->round_len, t - 1)) / nw / jb->gpus,
                j, t};
        for (int t = c.lo[j]; t <= c.nmax[j]; t++) {
            double left = jb->rem_pred - sw_tau(jb, m->round_len, t);
            lv[n_lv++] = left > 0 ? left : 0;
        }
    }
    if (ok) {
        qsort(c.inc, (size_t)c.n_inc, sizeof *c.inc, sw_inc_cmp);
        qsort(lv, (size_t)n_lv, sizeof *lv, sw_dbl_cmp);
        int k = 0;
        for (int i = 0; i < n_lv; i++) /* distinct levels */
            if (k == 0 || lv[i] > lv[k - 1] + 1e-9)
                lv[k++] = lv[i];
        n_lv = m->k > 0 ? k : 0;
        int lo = 0, hi = n_lv - 1; /* first feasible level: feasibility grows with it */
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (sw_greedy_at(&c, lv[mid], NULL) > -INFINITY)
                hi = mid;
            else
                lo = mid + 1;
        }
        int a = lo, b = n_lv - 1;
        while (b - a > 2) {
            int m1 = a + (b - a) / 3, m2 = b - (b - a) / 3;
            if (sw_greedy_at(&c, lv[m1], NULL) < sw_greedy_at(&c, lv[m2], NULL))
                a = m1 + 1;
            else
                b = m2 - 1;
        }
        int arg = -1;
        for (int i = a - 3; i <= b + 3; i++)
            if (i >= lo && i < n_lv) {
                double v = sw_greedy_at(&c, lv[i], NULL);
                if (v > best) {
                    best = v;
                    arg = i;
                }
            }
        if (n_lv == 0) { /* k == 0: no level */
            best = sw_greedy_at(&c, INFINITY, n);
        } else if (arg >= 0)
            sw_greedy_at(&c, lv[arg], n);
    }
    free(c.nmax);
    free(c.lo);
    free(c.cur);
    free(c.inc);
    free(lv);
    return best;
}

/* The relaxed greedy counts (weights w), marked as a fallback; 1 when found. */
static int sw_greedy_fallback(const sw_market_t *m, const double *w, int *n, sw_solution_t *out)
{
    out->relaxed = 1;
    out->fallback = 1;
    out->optimal = 0;
    return sw_greedy(m, w, 1, n) > -INFINITY;
}

#ifdef HAVE_GLPK

#include <glpk.h>

typedef struct sw_lp {
    glp_prob *p;
    int *ncol; /* column of n_j, 0 when the job has no rounds to plan */
    int *nmax; /* rounds worth planning */
    int mcol;  /* column of M, 0 when k == 0 */
    int *mrow; /* makespan row of job j, 0 when none */
    int *lrow; /* link row of job j */
} sw_lp_t;

/* Adds row `name` sum_t dtau_jt y_jt (+ M when with_m) >= lb. */
static int sw_tau_row(const sw_market_t *m, sw_lp_t *lp, int j, int with_m, double lb)
{
    int nm = lp->nmax[j], cnt = 0;
    int *ind = sw_xalloc((size_t)nm + 2, sizeof *ind);
    double *val = sw_xalloc((size_t)nm + 2, sizeof *val);
    for (int t = 1; t <= nm; t++) {
        ind[++cnt] = lp->ncol[j] + t;
        val[cnt] = sw_tau(&m->jobs[j], m->round_len, t) - sw_tau(&m->jobs[j], m->round_len, t - 1);
    }
    if (with_m) {
        ind[++cnt] = lp->mcol;
        val[cnt] = 1.0;
    }
    int row = glp_add_rows(lp->p, 1);
    glp_set_row_bnds(lp->p, row, GLP_LO, lb, 0.0);
    glp_set_mat_row(lp->p, row, cnt, ind, val);
    free(ind);
    free(val);
    return row;
}

/* Per distinct gang size s > 1: a round holds at most floor(G / s) jobs of
 * s GPUs or more, so sum_{g_j >= s} n_j <= floor(G / s) W (valid for every
 * packing; binding only when s does not divide G). */
static void sw_gang_rows(const sw_market_t *m, sw_lp_t *lp)
{
    int J = m->n;
    int *ind = sw_xalloc((size_t)J + 1, sizeof *ind);
    double *val = sw_xalloc((size_t)J + 1, sizeof *val);
    for (int i = 0; i < J; i++) {
        int s = m->jobs[i].gpus, dup = 0, cnt = 0;
        for (int q = 0; q < i && !dup; q++)
            dup = m->jobs[q].gpus == s;
        if (s <= 1 || dup || m->gpus % s == 0)
            continue;
        for (int j = 0; j < J; j++)
            if (lp->ncol[j] && m->jobs[j].gpus >= s) {
                ind[++cnt] = lp->ncol[j];
                val[cnt] = 1.0;
            }
        if (cnt <= m->gpus / s)
            continue; /* implied by n_j <= W */
        int row = glp_add_rows(lp->p, 1);
        glp_set_row_bnds(lp->p, row, GLP_UP, 0.0, (double)(m->gpus / s) * m->window);
        glp_set_mat_row(lp->p, row, cnt, ind, val);
    }
    free(ind);
    free(val);
}

/* Builds the program with weights w; fairness rows unless relaxed. */
static void sw_build(const sw_market_t *m, const double *w, int relaxed, sw_lp_t *lp)
{
    int J = m->n;
    double nw = (double)(J > 0 ? J : 1) * m->window;
    glp_term_out(GLP_OFF);
    lp->p = glp_create_prob();
    glp_set_obj_dir(lp->p, GLP_MAX);
    lp->ncol = sw_xalloc((size_t)J, sizeof *lp->ncol);
    lp->nmax = sw_xalloc((size_t)J, sizeof *lp->nmax);
    lp->mrow = sw_xalloc((size_t)J, sizeof *lp->mrow);
    lp->lrow = sw_xalloc((size_t)J, sizeof *lp->lrow);
    int *cind = sw_xalloc((size_t)J + 1, sizeof *cind);
    double *cval = sw_xalloc((size_t)J + 1, sizeof *cval);
    int ccnt = 0;
    double base = 0;
    for (int j = 0; j < J; j++) {
        const sw_job_t *jb = &m->jobs[j];
        base += w[j] * sw_u(jb, m->round_len, 0) / nw;
        int nm = lp->nmax[j] = sw_max_rounds(m, j);
        if (nm <= 0)
            continue;
        int c = lp->ncol[j] = glp_add_cols(lp->p, nm + 1);
        glp_set_col_kind(lp->p, c, GLP_IV);
        glp_set_col_bnds(lp->p, c, GLP_DB, 0.0, nm);
        int *lind = sw_xalloc((size_t)nm + 2, sizeof *lind);
        double *lval = sw_xalloc((size_t)nm + 2, sizeof *lval);
        lind[1] = c;
        lval[1] = 1.0;
        for (int t = 1; t <= nm; t++) {
            glp_set_col_bnds(lp->p, c + t, GLP_DB, 0.0, 1.0);
            double du = sw_u(jb, m->round_len, t) - sw_u(jb, m->round_len, t - 1);
            glp_set_obj_coef(lp->p, c + t, w[j] * du / nw);
            lind[t + 1] = c + t;
            lval[t + 1] = -1.0;
        }
        int row = lp->lrow[j] = glp_add_rows(lp->p, 1);
        glp_set_row_bnds(lp->p, row, GLP_FX, 0.0, 0.0);
        glp_set_mat_row(lp->p, row, nm + 1, lind, lval);
        free(lind);
        free(lval);
        cind[++ccnt] = c;
        cval[ccnt] = jb->gpus;
    }
    glp_set_obj_coef(lp->p, 0, base);
    if (ccnt > 0) {
        int row = glp_add_rows(lp->p, 1);
        glp_set_row_bnds(lp->p, row, GLP_UP, 0.0, (double)m->gpus * m->window);
        glp_set_mat_row(lp->p, row, ccnt, cind, cval);
    }
    free(cind);
    free(cval);
    sw_gang_rows(m, lp);
    lp->mcol = 0;
    if (m->k > 0) {
        lp->mcol = glp_add_cols(lp->p, 1);
        glp_set_col_bnds(lp->p, lp->mcol, GLP_LO, 0.0, 0.0);
        glp_set_obj_coef(lp->p, lp->mcol, -m->k);
        for (int j = 0; j < J; j++)
            if (m->jobs[j].rem_pred > 0)
                lp->mrow[j] = sw_tau_row(m, lp, j, 1, m->jobs[j].rem_pred);
    }
    for (int j = 0; !relaxed && j < J; j++) {
        double lb = m->jobs[j].rem_pred - m->jobs[j].cap;
        if (lb > 0)
            sw_tau_row(m, lp, j, 0, lb);
    }
}

static void sw_free_lp(sw_lp_t *lp)
{
    glp_delete_prob(lp->p);
    free(lp->ncol);
    free(lp->nmax);
    free(lp->mrow);
    free(lp->lrow);
}

typedef struct sw_cb {
    long limit, nodes;
} sw_cb_t;

static void sw_callback(glp_tree *tree, void *info)
{
    sw_cb_t *cb = info;
    int a, n, t;
    glp_ios_tree_size(tree, &a, &n, &t);
    cb->nodes = t;
    if (cb->limit > 0 && t > cb->limit)
        glp_ios_terminate(tree);
}

/* A job's fairness row cannot hold even with every round it can use. */
static int sw_ftf_hopeless(const sw_market_t *m)
{
    for (int j = 0; j < m->n; j++) {
        const sw_job_t *jb = &m->jobs[j];
        if (jb->rem_pred - jb->cap > sw_tau(jb, m->round_len, sw_max_rounds(m, j)) + 1e-9)
            return 1;
    }
    return 0;
}

/* A starting basis at round counts n (sw_greedy's): every n_j basic with its
 * increments at their bounds (the first n_j at 1), its link row nonbasic; M
 * basic with the row of the job that sets it nonbasic; every other row
 * basic. Primal feasible when n is, so the simplex starts near the optimum
 * instead of at zero (12,000 iterations fewer at 2,000 jobs). */
static void sw_warm_basis(const sw_market_t *m, sw_lp_t *lp, const int *n)
{
    int rows = glp_get_num_rows(lp->p), arg = -1;
    double mk = 0;
    for (int i = 1; i <= rows; i++)
        glp_set_row_stat(lp->p, i, GLP_BS);
    for (int j = 0; j < m->n; j++) {
        int c = lp->ncol[j];
        if (!c)
            continue;
        glp_set_col_stat(lp->p, c, GLP_BS);
        for (int t = 1; t <= lp->nmax[j]; t++)
            glp_set_col_stat(lp->p, c + t, t <= n[j] ? GLP_NU : GLP_NL);
        glp_set_row_stat(lp->p, lp->lrow[j], GLP_NS);
        double left = m->jobs[j].rem_pred - sw_tau(&m->jobs[j], m->round_len, n[j]);
        if (lp->mrow[j] && left > mk) {
            mk = left;
            arg = j;
        }
    }
    for (int j = 0; j < m->n; j++) /* jobs with nothing to plan keep M up too */
        if (!lp->ncol[j] && lp->mrow[j] && m->jobs[j].rem_pred > mk) {
            mk = m->jobs[j].rem_pred;
            arg = j;
        }
    if (lp->mcol) {
        if (arg >= 0) {
            glp_set_col_stat(lp->p, lp->mcol, GLP_BS);
            glp_set_row_stat(lp->p, lp->mrow[arg], GLP_NL);
        } else
            glp_set_col_stat(lp->p, lp->mcol, GLP_NL);
    }
}

/* One attempt; 1 when an integer (or rounded LP) solution was written, 0 when
 * infeasible. */
static int sw_attempt(const sw_market_t *m, const double *w, int relaxed, int *n,
                      sw_solution_t *out)
{
    sw_lp_t lp;
    sw_build(m, w, relaxed, &lp);
    glp_smcp sp;
    glp_init_smcp(&sp);
    sp.msg_lev = GLP_MSG_OFF;
    int *g = sw_xalloc((size_t)m->n, sizeof *g);
    int warm = sw_greedy(m, w, relaxed, g) > -INFINITY;
    if (warm)
        sw_warm_basis(m, &lp, g);
    free(g);
    int rc = glp_simplex(lp.p, &sp);
    if (warm && rc != 0) { /* a basis GLPK refuses: start from the standard one */
        glp_std_basis(lp.p);
        rc = glp_simplex(lp.p, &sp);
    }
    if (rc != 0 || glp_get_status(lp.p) != GLP_OPT) {
        sw_free_lp(&lp);
        return 0;
    }
    sw_cb_t cb = {m->node_limit, 0};
    glp_iocp ip;
    glp_init_iocp(&ip);
    ip.msg_lev = GLP_MSG_OFF;
    ip.mip_gap = m->mip_gap;
    ip.cb_func = sw_callback;
    ip.cb_info = &cb;
    glp_intopt(lp.p, &ip);
    int st = glp_mip_status(lp.p);
    out->nodes = cb.nodes;
    out->optimal = st == GLP_OPT;
    out->fallback = !(st == GLP_OPT || st == GLP_FEAS);
    if (st == GLP_NOFEAS) {
        sw_free_lp(&lp);
        return 0;
    }
    for (int j = 0; j < m->n; j++) {
        if (!lp.ncol[j]) {
            n[j] = 0;
            continue;
        }
        double v = out->fallback ? floor(glp_get_col_prim(lp.p, lp.ncol[j]) + 1e-6)
                                 : floor(glp_mip_col_val(lp.p, lp.ncol[j]) + 0.5);
        n[j] = v < 0 ? 0 : (int)v;
    }
    sw_free_lp(&lp);
    return 1;
}

int sw_solve(const sw_market_t *m, int *n, sw_solution_t *out, char *err, size_t errlen)
{
    double *w = sw_xalloc((size_t)m->n, sizeof *w);
    memset(out, 0, sizeof *out);
    int ok = 0;
    if (!sw_ftf_hopeless(m)) {
        sw_weights(m, 0, w);
        ok = sw_attempt(m, w, 0, n, out);
    }
    if (!ok) {
        out->relaxed = 1;
        sw_weights(m, 1, w);
        ok = sw_attempt(m, w, 1, n, out);
    }
    if (!ok) /* GLPK failed (numerically): the greedy counts */
        ok = sw_greedy_fallback(m, w, n, out);
    if (!ok) {
        free(w);
        snprintf(err, errlen, "shockwave: the market program has no solution (%d jobs)", m->n);
        return -1;
    }
    out->objective = sw_objective(m, n, w, 0);
    free(w);
    return 0;
}

#else /* !HAVE_GLPK */

/* Without GLPK the greedy counts are the plan (fairness rows when they can
 * hold, else relaxed). */
int sw_solve(const sw_market_t *m, int *n, sw_solution_t *out, char *err, size_t errlen)
{
    double *w = sw_xalloc((size_t)m->n, sizeof *w);
    memset(out, 0, sizeof *out);
    sw_weights(m, 0, w);
    int ok = sw_greedy(m, w, 0, n) > -INFINITY;
    out->fallback = 1;
    if (!ok) {
        sw_weights(m, 1, w);
        ok = sw_greedy_fallback(m, w, n, out);
    }
    if (!ok) {
        free(w);
        snprintf(err, errlen, "shockwave: the market program has no solution (%d jobs)", m->n);
        return -1;
    }
    out->objective = sw_objective(m, n, w, 0);
    free(w);
    return 0;
}

#endif
