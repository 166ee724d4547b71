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
 *  Placement: a job runs within one server when it fits one (the paper's
 *  local schedulers gang-schedule a job on its server), else on the fewest
 *  servers; a job that cannot be placed so now waits. Jobs are placed with
 *  explicit GPU ids (policies/placement.h), keeping their GPUs when they stay.
 *
 * Fairness units: users (per=user, the paper's), or every job its own unit
 * with its user's tickets (per=job: what Shockwave's Gandiva-Fair baseline
 * does, an equal share per job, for traces without users).
 *
 * -P mechanism=gavel runs Shockwave's baseline of this name instead (an equal
 * time share per job through Gavel's round mechanism, gavel_share.c), with
 * recompute_interval, new_jobs, received_start and rules as there.
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
#include "policies/gavel_share.h"
#include "policies/placement.h"
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GF_EPS 1e-9

typedef struct gf_ticket {
    char *user;
    double tickets;
} gf_ticket_t;

typedef struct gf_slot {
    int64_t id;
    int slot;
} gf_slot_t;

typedef struct gf_state {
    gf_ticket_t *tk;
    int n_tk;
    int trade;
    int per_job;      /* 1: every job is its own fairness unit */
    gf_slot_t *slots; /* per_job: job id -> unit, sorted by id */
    int n_slots;
    int n_users, n_types;
    double *pass;   /* [u * n_types + t] */
    double *charge; /* entitlement used to charge the time since the last call */
    long *seen;     /* number of the last call at which (u, t) took part */
    long calls;     /* calls so far */
    double last;
    gs_state_t *gavel; /* mechanism=gavel, NULL otherwise */
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
    free(s->seen);
    free(s->slots);
    gs_destroy(s->gavel);
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
    static const char *const known[] = {"tickets", "trade", "per", "mechanism", NULL};
    *state = NULL;
    int gavel = gs_wanted(args, "gandiva-fair", err, errlen);
    if (gavel < 0)
        return -1;
    if (gavel) {
        gs_state_t *g = gs_create(GS_PROPORTIONAL, args, "gandiva-fair", err, errlen);
        if (!g)
            return -1;
        gf_state_t *s = pu_alloc(1, sizeof *s);
        s->gavel = g;
        *state = s;
        return 0;
    }
    if (policy_args_check(args, known, "gandiva-fair", err, errlen))
        return -1;
    long trade;
    if (policy_arg_long(args, "trade", 1, &trade, err, errlen))
        return -1;
    if (trade != 0 && trade != 1) {
        snprintf(err, errlen, "gandiva-fair: trade=%ld must be 0 or 1", trade);
        return -1;
    }
    const char *per = policy_arg_str(args, "per", "user");
    if (strcmp(per, "user") != 0 && strcmp(per, "job") != 0) {
        snprintf(err, errlen, "gandiva-fair: per=%s must be user or job", per);
        return -1;
    }
    gf_state_t *s = pu_alloc(1, sizeof *s);
    s->trade = (int)trade;
    s->per_job = strcmp(per, "job") == 0;
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

static int cmp_slot(const void *pa, const void *pb)
{
    const gf_slot_t *a = pa, *b = pb;
    return a->id < b->id ? -1 : a->id > b->id ? 1 : 0;
}

/* unit[j]: the fairness unit of job j, its user or (per=job) a slot kept by
 * job id while the job is active; a finished job's slot is reused, its
 * passes reset. */
static void gf_units(gf_state_t *s, const view_t *v, int *unit)
{
    if (!s->per_job) {
        for (int j = 0; j < v->n_jobs; j++)
            unit[j] = v->jobs[j].user;
        return;
    }
    int cap = v->n_jobs + s->n_users + 1; /* above every slot in use */
    char *used = pu_alloc((size_t)cap, 1);
    gf_slot_t *next = pu_alloc((size_t)(v->n_jobs ? v->n_jobs : 1), sizeof *next);
    for (int j = 0; j < v->n_jobs; j++) {
        gf_slot_t key = {v->jobs[j].id, -1};
        gf_slot_t *hit =
            s->n_slots ? bsearch(&key, s->slots, (size_t)s->n_slots, sizeof key, cmp_slot) : NULL;
        unit[j] = hit ? hit->slot : -1;
        if (hit)
            used[hit->slot] = 1;
    }
    int free_slot = 0;
    for (int j = 0; j < v->n_jobs; j++) {
        if (unit[j] < 0) {
            while (used[free_slot])
                free_slot++;
            unit[j] = free_slot;
            used[free_slot] = 1;
            for (int t = 0; t < s->n_types && free_slot < s->n_users; t++) {
                int k = free_slot * s->n_types + t;
                s->pass[k] = s->charge[k] = 0;
                s->seen[k] = 0;
            }
        }
        next[j] = (gf_slot_t){v->jobs[j].id, unit[j]};
    }
    qsort(next, (size_t)v->n_jobs, sizeof *next, cmp_slot);
    free(s->slots);
    s->slots = next;
    s->n_slots = v->n_jobs;
    free(used);
}

/* Grows the per-(unit, type) arrays to the units in use. */
static void gf_resize(gf_state_t *s, const view_t *v, const int *unit)
{
    int nu = !s->per_job && v->n_users > 0 ? v->n_users : 1;
    for (int j = 0; j < v->n_jobs; j++)
        if (unit[j] + 1 > nu)
            nu = unit[j] + 1;
    if (nu <= s->n_users && v->n_types == s->n_types)
        return;
    int nt = v->n_types;
    double *pass = pu_alloc((size_t)nu * (size_t)nt, sizeof *pass);
    double *charge = pu_alloc((size_t)nu * (size_t)nt, sizeof *charge);
    long *seen = pu_alloc((size_t)nu * (size_t)nt, sizeof *seen);
    for (int u = 0; u < s->n_users && u < nu; u++)
        for (int t = 0; t < nt && t < s->n_types; t++) {
            pass[u * nt + t] = s->pass[u * s->n_types + t];
            charge[u * nt + t] = s->charge[u * s->n_types + t];
            seen[u * nt + t] = s->seen[u * s->n_types + t];
        }
    free(s->pass);
    free(s->charge);
    free(s->seen);
    s->pass = pass;
    s->charge = charge;
    s->seen = seen;
    s->n_users = nu;
    s->n_types = nt;
}

static int cmp_int(const void *pa, const void *pb)
{
    int a = *(const int *)pa, b = *(const int *)pb;
    return a < b ? -1 : a > b;
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
static void trade_pair(const view_t *v, const int *cu, int nu, int a, int b, const double *demand,
                       double *E)
{
    int T = v->n_types;
    double *speed = pu_alloc((size_t)nu, sizeof *speed);
    int *cnt = pu_alloc((size_t)nu, sizeof *cnt);
    for (int j = 0; j < v->n_jobs; j++) {
        double ra = gf_rate(v, j, a), rb = gf_rate(v, j, b);
        if (ra > 0 && rb > 0) {
            speed[cu[j]] += ra / rb;
            cnt[cu[j]]++;
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
static void entitlements(const gf_state_t *s, const view_t *v, const int *cu, int nu, double *E,
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
        tickets[u] = 1.0;
    for (int j = 0; j < v->n_jobs; j++) {
        tickets[cu[j]] = user_tickets(s, v, v->jobs[j].user);
        if (pu_ever_fits(v, j))
            demand[cu[j]] += v->jobs[j].gpus_requested;
    }
    water_fill(nu, tickets, demand, cap, share);
    for (int u = 0; u < nu; u++)
        for (int t = 0; t < T; t++)
            E[u * T + t] = cap > 0 ? share[u] * r.room[t] / cap : 0;
    if (s->trade)
        for (int i = 0; i < T; i++)
            for (int k = i + 1; k < T; k++)
                trade_pair(v, cu, nu, type_order[i], type_order[k], demand, E);
    free(share);
    free(demand);
    free(tickets);
    pu_room_free(&r);
}

/* Charges the GPU time held since the last call to the users' passes. */
static void advance_passes(gf_state_t *s, const view_t *v, const int *unit)
{
    int T = s->n_types;
    double dt = isnan(s->last) ? 0 : fmax(0.0, v->now - s->last);
    for (int j = 0; j < v->n_jobs && dt > 0; j++) {
        const view_job_t *jb = &v->jobs[j];
        if (!pu_holds(jb) || jb->cur_type >= T)
            continue;
        int k = unit[j] * T + jb->cur_type;
        double held = fmin(dt, v->now - (isnan(jb->last_start) ? s->last : jb->last_start));
        if (s->charge[k] > GF_EPS && held > 0)
            s->pass[k] += jb->cur_gpus * held / s->charge[k];
    }
}

/* 1 when job j can run on type t now: room for its request, on as few
 * nodes as it could ever span (within one server when it fits one). */
static int fits_now(const view_t *v, const pl_map_t *m, int j, int t, int room)
{
    int g = v->jobs[j].gpus_requested;
    if (g > room)
        return 0;
    if (!m->on)
        return 1;
    int nodes = pl_fit(v, m, t, g, NULL);
    return nodes > 0 && nodes <= pu_min_nodes(v, t, g);
}

/* Next job of user u that fits type t now, least attained first: u's jobs
 * in that order are ujobs[0..n), and *cur is where the last call stopped.
 * Within one type's pass GPUs are only taken, so a job that does not fit
 * now never fits again in it (room only falls, and the fewest nodes a
 * placement can span only grows): the cursor skips it for good. */
static int next_job(const view_t *v, const pl_map_t *m, const int *ujobs, int n, int *cur, int t,
                    int room, const char *placed)
{
    for (; *cur < n; ++*cur) {
        int j = ujobs[*cur];
        const view_job_t *jb = &v->jobs[j];
        if (placed[j] || jb->gpus_requested <= 0 || !(gf_rate(v, j, t) > 0) ||
            !fits_now(v, m, j, t, room))
            continue;
        return j;
    }
    return -1;
}

/* Each compact user's jobs in `las` order: ujobs[ustart[u] .. ustart[u+1]). */
static void user_lists(const view_t *v, const int *cu, int nu, const int *las, int *ustart,
                       int *ujobs)
{
    memset(ustart, 0, sizeof *ustart * (size_t)(nu + 1));
    for (int j = 0; j < v->n_jobs; j++)
        ustart[cu[j] + 1]++;
    for (int u = 0; u < nu; u++)
        ustart[u + 1] += ustart[u];
    int *fill = pu_alloc((size_t)(nu ? nu : 1), sizeof *fill);
    memcpy(fill, ustart, sizeof *fill * (size_t)nu);
    for (int i = 0; i < v->n_jobs; i++)
        ujobs[fill[cu[las[i]]]++] = las[i];
    free(fill);
}

int gandiva_fair_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    gf_state_t *s = state;
    if (s->gavel) {
        gs_schedule(s->gavel, v, plan);
        return 0;
    }
    int *unit = pu_alloc((size_t)v->n_jobs, sizeof *unit);
    gf_units(s, v, unit);
    gf_resize(s, v, unit);
    advance_passes(s, v, unit);
    s->calls++;
    /* the units of the active jobs, compacted (ascending, so ties go to the
     * lower user): act[c] is a unit, cu[j] the compact index of j's unit */
    int *act = pu_alloc((size_t)v->n_jobs, sizeof *act);
    int *cu = pu_alloc((size_t)v->n_jobs, sizeof *cu);
    int nu = 0;
    for (int j = 0; j < v->n_jobs; j++)
        act[nu++] = unit[j];
    qsort(act, (size_t)nu, sizeof *act, cmp_int);
    int na = 0;
    for (int i = 0; i < nu; i++)
        if (na == 0 || act[na - 1] != act[i])
            act[na++] = act[i];
    for (int j = 0; j < v->n_jobs; j++)
        cu[j] = (int)((int *)bsearch(&unit[j], act, (size_t)na, sizeof *act, cmp_int) - act);
    nu = na;
    int T = v->n_types;
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
    entitlements(s, v, cu, nu, E, type_order);

    /* (re)joining users start at the smallest pass of those already there */
    for (int t = 0; t < T; t++) {
        double floor_pass = INFINITY;
        for (int u = 0; u < nu; u++)
            if (s->seen[act[u] * T + t] == s->calls - 1 && E[u * T + t] > GF_EPS)
                floor_pass = fmin(floor_pass, s->pass[act[u] * T + t]);
        for (int u = 0; u < nu; u++) {
            int k = act[u] * T + t;
            if (E[u * T + t] > GF_EPS && s->seen[k] != s->calls - 1 && isfinite(floor_pass))
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
    pl_map_t map;
    pl_init(&map, v, NULL);
    int *ustart = pu_alloc((size_t)nu + 1, sizeof *ustart);
    int *ujobs = pu_alloc((size_t)(v->n_jobs ? v->n_jobs : 1), sizeof *ujobs);
    int *ucur = pu_alloc((size_t)(nu ? nu : 1), sizeof *ucur);
    user_lists(v, cu, nu, las, ustart, ujobs);

    for (int i = 0; i < T; i++) {
        int t = type_order[i];
        for (int u = 0; u < nu; u++) {
            vp[u] = E[u * T + t] > GF_EPS ? s->pass[act[u] * T + t] : INFINITY;
            ucur[u] = 0;
        }
        for (;;) {
            int pick = -1, job = -1;
            for (int u = 0; u < nu; u++) {
                if (isinf(vp[u]) || (pick >= 0 && vp[u] >= vp[pick]))
                    continue;
                int j = next_job(v, &map, ujobs + ustart[u], ustart[u + 1] - ustart[u], &ucur[u], t,
                                 room.room[t], placed);
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
            pl_run(v, &map, plan, job, t, 0);
            room.room[t] -= g;
            placed[job] = 1;
            vp[pick] += g * round / E[pick * T + t];
        }
    }
    /* work conservation: any job that fits, on its fastest type with room */
    int *torder = pu_alloc((size_t)(T ? T : 1), sizeof *torder);
    for (int i = 0; i < v->n_jobs && pu_room_total(&room) > 0; i++) {
        int j = las[i];
        int nt = placed[j] ? 0 : pu_type_order(v, j, torder);
        for (int k = 0; k < nt && !placed[j]; k++) {
            int t = torder[k];
            if (fits_now(v, &map, j, t, room.room[t])) {
                pl_run(v, &map, plan, j, t, 0);
                room.room[t] -= v->jobs[j].gpus_requested;
                placed[j] = 1;
            }
        }
    }
    free(torder);
    free(ucur);
    free(ujobs);
    free(ustart);
    pl_free(&map);

    /* what the next call charges with, and who was present */
    for (int u = 0; u < nu; u++)
        for (int t = 0; t < T; t++) {
            int k = act[u] * T + t;
            double e = E[u * T + t], base = 0;
            if (e > GF_EPS)
                s->seen[k] = s->calls;
            for (int tt = 0; tt < T; tt++)
                base += E[u * T + tt];
            /* time run beyond the share (work conservation) is charged at the
             * user's whole share spread over the type's GPUs */
            s->charge[k] = e > GF_EPS ? e : base / (T ? T : 1);
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
    free(cu);
    free(act);
    free(unit);
    return 0;
}
