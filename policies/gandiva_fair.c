/* gandiva_fair.c: Gandiva-Fair, user-level fair shares by gang-aware stride
 * scheduling, with GPU-generation trading (Chaudhary et al., "Balancing
 * Efficiency and Fairness in Heterogeneous GPU Clusters for Deep Learning",
 * EuroSys 2020, §3-§5).
 *
 * Each user holds tickets (param `tickets`, equal by default). Every round:
 *  1. Fair share (§3): the cluster's GPUs are divided among the active users
 *     in proportion to their tickets, capped by each user's demand (the GPUs
 *     its active jobs ask for) and water-filled, so what one user cannot use
 *     goes to the others. Each user's share is split over the GPU types in
 *     proportion to the types' sizes: E[u][t] GPUs of type t.
 *  2. Heterogeneity trading (§4.3): for each pair of types (fast, slow), a
 *     user's speedup is the mean over its jobs of rate(fast) / rate(slow),
 *     from the profiled throughputs (view->perf). The user with the highest
 *     speedup buys fast-GPU share from the user with the lowest, paying
 *     `price` slow GPUs per fast GPU, price = the midpoint of the two speedups
 *     (any price strictly between them makes both better off, the paper's
 *     condition). Trades repeat while some pair gains, within each side's
 *     share and the seller's demand (it receives more GPUs than it gives).
 *  3. Gang-aware stride scheduling (§3.2): each (user, type) has a pass. On a
 *     type, the user with the smallest pass runs its next job (least attained
 *     service first among its own jobs, so a user's jobs take turns), and its
 *     pass advances by stride x g, stride = round / E[u][t], g the job's GPU
 *     count; this repeats while a job fits. Between calls each user's pass
 *     advances by the GPU-seconds its jobs actually held on the type divided
 *     by E[u][t]. A user that (re)joins a type starts at the smallest pass of
 *     the users already there (stride scheduling's global pass), so it cannot
 *     claim the past. Types are visited fastest first.
 *  4. Work conservation: GPUs still free go to any remaining job, least
 *     attained service first (charged to its user's pass on that type).
 *
 * Simplifications, and why:
 * - One cluster-wide stride scheduler per GPU type instead of the paper's
 *   split scheduler (a central scheduler balancing users over servers plus a
 *   local stride scheduler per server): the mechanism places jobs on nodes
 *   (keeping a job's GPUs when it stays), and the per-type split of the share
 *   stands in for the per-server split.
 * - Jobs are rigid; a user's share is split over types by type size, not by
 *   which of its jobs can run where; user speedups are plain means over jobs.
 * - Trading is between every pair of types in order of mean throughput, each
 *   pair separately, and needs at least two types with a known rate.
 * - The paper measures speedups by profiling jobs on each generation; here
 *   they come from the profiled table (an unknown rate counts as 1). */
#include "policies.h"
#include "policy_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GF_EPS 1e-9

typedef struct gf_ticket {
    char *user;
    double tickets;
} gf_ticket_t;

typedef struct gf_state {
    gf_ticket_t *tk;
    int n_tk;
    int trade;
    int n_users, n_types;
    double *pass;   /* [u * n_types + t] */
    double *charge; /* entitlement used to charge the time since the last call */
    char *present;  /* (u, t) took part at the last call */
    double last;
} gf_state_t;

void gandiva_fair_destroy(void *state)
{
    gf_state_t *s = state;
    if (!s)
        return;
    for (int i = 0; i < s->n_tk; i++)
        free(s->tk[i].user);
    free(s->tk);
    free(s->pass);
    free(s->charge);
    free(s->present);
    free(s);
}

/* "alice:2,bob:1" */
static int parse_tickets(gf_state_t *s, const char *spec, char *err, size_t errlen)
{
    char *copy = pu_alloc(strlen(spec) + 1, 1);
    strcpy(copy, spec);
    int rc = 0;
    for (char *save = NULL, *tok = strtok_r(copy, ",", &save); tok && rc == 0;
         tok = strtok_r(NULL, ",", &save)) {
        char *colon = strrchr(tok, ':');
        char *end = NULL;
        double w = colon ? strtod(colon + 1, &end) : NAN;
        if (!colon || colon == tok || end == colon + 1 || *end || !(w > 0) || isinf(w)) {
            snprintf(err, errlen,
                     "gandiva-fair: tickets entry '%s' is not USER:WEIGHT with WEIGHT > 0", tok);
            rc = -1;
            break;
        }
        *colon = '\0';
        s->tk = realloc(s->tk, sizeof *s->tk * (size_t)(s->n_tk + 1));
        if (!s->tk)
            abort();
        s->tk[s->n_tk].user = pu_alloc(strlen(tok) + 1, 1);
        strcpy(s->tk[s->n_tk].user, tok);
        s->tk[s->n_tk++].tickets = w;
    }
    free(copy);
    return rc;
}

int gandiva_fair_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    static const char *const known[] = {"tickets", "trade", NULL};
    *state = NULL;
    if (policy_args_check(args, known, "gandiva-fair", err, errlen))
        return -1;
    long trade;
    if (policy_arg_long(args, "trade", 1, &trade, err, errlen))
        return -1;
    if (trade != 0 && trade != 1) {
        snprintf(err, errlen, "gandiva-fair: trade=%ld must be 0 or 1", trade);
        return -1;
    }
    gf_state_t *s = pu_alloc(1, sizeof *s);
    s->trade = (int)trade;
    s->last = NAN;
    if (parse_tickets(s, policy_arg_str(args, "tickets", ""), err, errlen)) {
        gandiva_fair_destroy(s);
        return -1;
    }
    *state = s;
    return 0;
}

static double user_tickets(const gf_state_t *s, const view_t *v, int u)
{
    const char *name = u >= 0 && u < v->n_users && v->users ? v->users[u] : NULL;
    for (int i = 0; name && i < s->n_tk; i++)
        if (strcmp(s->tk[i].user, name) == 0)
            return s->tk[i].tickets;
    return 1.0;
}

/* Grows the per-(user, type) arrays to the view's sizes. */
static void gf_resize(gf_state_t *s, const view_t *v)
{
    int nu = v->n_users > 0 ? v->n_users : 1;
    for (int j = 0; j < v->n_jobs; j++)
        if (v->jobs[j].user + 1 > nu)
            nu = v->jobs[j].user + 1;
    if (nu <= s->n_users && v->n_types == s->n_types)
        return;
    int nt = v->n_types;
    double *pass = pu_alloc((size_t)nu * (size_t)nt, sizeof *pass);
    double *charge = pu_alloc((size_t)nu * (size_t)nt, sizeof *charge);
    char *present = pu_alloc((size_t)nu * (size_t)nt, 1);
    for (int u = 0; u < s->n_users && u < nu; u++)
        for (int t = 0; t < nt && t < s->n_types; t++) {
            pass[u * nt + t] = s->pass[u * s->n_types + t];
            charge[u * nt + t] = s->charge[u * s->n_types + t];
            present[u * nt + t] = s->present[u * s->n_types + t];
        }
    free(s->pass);
    free(s->charge);
    free(s->present);
    s->pass = pass;
    s->charge = charge;
    s->present = present;
    s->n_users = nu;
    s->n_types = nt;
}

/* Water-fills cap GPUs over users by tickets, each capped by its demand. */
static void water_fill(int nu, const double *tickets, const double *demand, double cap,
                       double *share)
{
    char *fixed = pu_alloc((size_t)nu, 1);
    for (int u = 0; u < nu; u++) {
        share[u] = 0;
        fixed[u] = !(demand[u] > 0);
    }
    for (int iter = 0; iter < nu + 1; iter++) {
        double wsum = 0, left = cap;
        for (int u = 0; u < nu; u++) {
            if (fixed[u])
                left -= share[u];
            else
                wsum += tickets[u];
        }
        if (wsum <= 0 || left <= GF_EPS)
            break;
        int capped = 0;
        for (int u = 0; u < nu; u++)
            if (!fixed[u] && left * tickets[u] / wsum >= demand[u]) {
                share[u] = demand[u];
                fixed[u] = 1;
                capped = 1;
            }
        if (!capped) {
            for (int u = 0; u < nu; u++)
                if (!fixed[u])
                    share[u] = left * tickets[u] / wsum;
            break;
        }
    }
    free(fixed);
}

static double gf_rate(const view_t *v, int j, int t)
{
    if (v->jobs[j].gpus_requested > v->types[t].total_gpus)
        return 0;
    double r = pu_rate(v, j, t);
    return isnan(r) ? 1.0 : r;
}

/* Heterogeneity trading between fast type a and slow type b (§4.3). */
static void trade_pair(const view_t *v, int nu, int a, int b, const double *demand, double *E)
{
    int T = v->n_types;
    double *speed = pu_alloc((size_t)nu, sizeof *speed);
    int *cnt = pu_alloc((size_t)nu, sizeof *cnt);
    for (int j = 0; j < v->n_jobs; j++) {
        double ra = gf_rate(v, j, a), rb = gf_rate(v, j, b);
        if (ra > 0 && rb > 0) {
            speed[v->jobs[j].user] += ra / rb;
            cnt[v->jobs[j].user]++;
        }
    }
    for (int u = 0; u < nu; u++)
        speed[u] = cnt[u] ? speed[u] / cnt[u] : NAN;
    for (int iter = 0; iter < 4 * nu * nu + 4; iter++) {
        int hi = -1, lo = -1;
        for (int u = 0; u < nu; u++) {
            if (isnan(speed[u]))
                continue;
            if (E[u * T + b] > GF_EPS && (hi < 0 || speed[u] > speed[hi]))
                hi = u;
        }
        for (int u = 0; u < nu; u++) {
            if (isnan(speed[u]) || u == hi)
                continue;
            double total = 0;
            for (int t = 0; t < T; t++)
                total += E[u * T + t];
            if (E[u * T + a] > GF_EPS && demand[u] - total > GF_EPS &&
                (lo < 0 || speed[u] < speed[lo]))
                lo = u;
        }
        if (hi < 0 || lo < 0 || !(speed[hi] > speed[lo] * (1 + 1e-9)))
            break;
        double price = 0.5 * (speed[hi] + speed[lo]);
        double total_lo = 0;
        for (int t = 0; t < T; t++)
            total_lo += E[lo * T + t];
        double x = fmin(E[lo * T + a], E[hi * T + b] / price);
        if (price > 1)
            x = fmin(x, (demand[lo] - total_lo) / (price - 1));
        if (!(x > GF_EPS))
            break;
        E[lo * T + a] -= x;
        E[hi * T + a] += x;
        E[hi * T + b] -= price * x;
        E[lo * T + b] += price * x;
    }
    free(cnt);
    free(speed);
}

/* Mean throughput of every active job on type t (types ordered by it). */
static double type_speed(const view_t *v, int t)
{
    double sum = 0;
    for (int j = 0; j < v->n_jobs; j++)
        sum += gf_rate(v, j, t);
    return v->n_jobs ? sum / v->n_jobs : 0;
}

/* Per-user shares E[u * T + t] for this call. */
static void entitlements(const gf_state_t *s, const view_t *v, int nu, double *E,
                         const int *type_order)
{
    int T = v->n_types;
    pu_room_t r;
    pu_room_init(&r, v);
    double cap = pu_room_total(&r);
    double *tickets = pu_alloc((size_t)nu, sizeof *tickets);
    double *demand = pu_alloc((size_t)nu, sizeof *demand);
    double *share = pu_alloc((size_t)nu, sizeof *share);
    for (int u = 0; u < nu; u++)
        tickets[u] = user_tickets(s, v, u);
    for (int j = 0; j < v->n_jobs; j++)
        if (pu_ever_fits(v, j))
            demand[v->jobs[j].user] += v->jobs[j].gpus_requested;
    water_fill(nu, tickets, demand, cap, share);
    for (int u = 0; u < nu; u++)
        for (int t = 0; t < T; t++)
            E[u * T + t] = cap > 0 ? share[u] * r.room[t] / cap : 0;
    if (s->trade)
        for (int i = 0; i < T; i++)
            for (int k = i + 1; k < T; k++)
                trade_pair(v, nu, type_order[i], type_order[k], demand, E);
    free(share);
    free(demand);
    free(tickets);
    pu_room_free(&r);
}

/* Charges the GPU time held since the last call to the users' passes. */
static void advance_passes(gf_state_t *s, const view_t *v)
{
    int T = s->n_types;
    double dt = isnan(s->last) ? 0 : fmax(0.0, v->now - s->last);
    for (int j = 0; j < v->n_jobs && dt > 0; j++) {
        const view_job_t *jb = &v->jobs[j];
        if (!pu_holds(jb) || jb->cur_type >= T)
            continue;
        int k = jb->user * T + jb->cur_type;
        double held = fmin(dt, v->now - (isnan(jb->last_start) ? s->last : jb->last_start));
        if (s->charge[k] > GF_EPS && held > 0)
            s->pass[k] += jb->cur_gpus * held / s->charge[k];
    }
}

/* Next job of user u that fits type t with `room` GPUs, least attained first. */
static int next_job(const view_t *v, const int *las, int u, int t, int room, const char *placed)
{
    for (int i = 0; i < v->n_jobs; i++) {
        int j = las[i];
        const view_job_t *jb = &v->jobs[j];
        if (jb->user != u || placed[j] || jb->gpus_requested > room ||
            jb->gpus_requested <= 0 || !(gf_rate(v, j, t) > 0))
            continue;
        return j;
    }
    return -1;
}

int gandiva_fair_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    gf_state_t *s = state;
    gf_resize(s, v);
    advance_passes(s, v);
    int T = v->n_types, nu = s->n_users;
    double round = v->round_len > 0 ? v->round_len : 1.0;

    int *type_order = pu_alloc((size_t)T, sizeof *type_order);
    double *tspeed = pu_alloc((size_t)T, sizeof *tspeed);
    for (int t = 0; t < T; t++) {
        type_order[t] = t;
        tspeed[t] = type_speed(v, t);
    }
    for (int i = 1; i < T; i++) /* insertion sort, fastest first, ties by index */
        for (int k = i; k > 0 && tspeed[type_order[k]] > tspeed[type_order[k - 1]]; k--) {
            int tmp = type_order[k];
            type_order[k] = type_order[k - 1];
            type_order[k - 1] = tmp;
        }
    double *E = pu_alloc((size_t)nu * (size_t)T, sizeof *E);
    entitlements(s, v, nu, E, type_order);

    /* (re)joining users start at the smallest pass of those already there */
    for (int t = 0; t < T; t++) {
        double floor_pass = INFINITY;
        for (int u = 0; u < nu; u++)
            if (s->present[u * T + t] && E[u * T + t] > GF_EPS)
                floor_pass = fmin(floor_pass, s->pass[u * T + t]);
        for (int u = 0; u < nu; u++) {
            int k = u * T + t;
            if (E[k] > GF_EPS && !s->present[k] && isfinite(floor_pass))
                s->pass[k] = fmax(s->pass[k], floor_pass);
        }
    }

    double *served = pu_alloc((size_t)v->n_jobs, sizeof *served);
    int *las = pu_alloc((size_t)v->n_jobs, sizeof *las);
    for (int j = 0; j < v->n_jobs; j++) {
        served[j] = v->jobs[j].attained_service;
        las[j] = j;
    }
    pu_sort(v, served, las, v->n_jobs);
    char *placed = pu_alloc((size_t)v->n_jobs, 1);
    double *vp = pu_alloc((size_t)nu, sizeof *vp);
    pu_room_t room;
    pu_room_init(&room, v);

    for (int i = 0; i < T; i++) {
        int t = type_order[i];
        for (int u = 0; u < nu; u++)
            vp[u] = E[u * T + t] > GF_EPS ? s->pass[u * T + t] : INFINITY;
        for (;;) {
            int pick = -1, job = -1;
            for (int u = 0; u < nu; u++) {
                if (isinf(vp[u]) || (pick >= 0 && vp[u] >= vp[pick]))
                    continue;
                int j = next_job(v, las, u, t, room.room[t], placed);
                if (j < 0)
                    vp[u] = INFINITY; /* nothing of u fits any more */
                else {
                    pick = u;
                    job = j;
                }
            }
            if (pick < 0)
                break;
            int g = v->jobs[job].gpus_requested;
            plan_run(plan, job, t, g);
            room.room[t] -= g;
            placed[job] = 1;
            vp[pick] += g * round / E[pick * T + t];
        }
    }
    /* work conservation */
    for (int i = 0; i < v->n_jobs && pu_room_total(&room) > 0; i++) {
        int j = las[i];
        if (!placed[j] && pu_ever_fits(v, j) && pu_place(v, &room, plan, j))
            placed[j] = 1;
    }

    /* what the next call charges with, and who was present */
    for (int u = 0; u < nu; u++)
        for (int t = 0; t < T; t++) {
            int k = u * T + t;
            s->present[k] = E[k] > GF_EPS;
            double base = 0;
            for (int tt = 0; tt < T; tt++)
                base += E[u * T + tt];
            /* time run beyond the share (work conservation) is charged at the
             * user's whole share spread over the type's GPUs */
            s->charge[k] = E[k] > GF_EPS ? E[k] : base / (T ? T : 1);
        }
    s->last = v->now;
    pu_room_free(&room);
    free(vp);
    free(placed);
    free(las);
    free(served);
    free(E);
    free(tspeed);
    free(type_order);
    return 0;
}
