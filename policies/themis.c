/* themis.c: Themis, finish-time fair GPU leases sold by a partial-allocation
 * auction (Mahajan et al., "Themis: Fair and Efficient GPU Cluster
 * Scheduling", NSDI 2020, §3-§5).
 *
 * Finish-time fairness rho = T_shared / T_id (§3.1), with the project's
 * convention (sim/metrics.h): T_id = T_ex x max(1, g x N_avg / C), T_ex the
 * job's exclusive run time on its g requested GPUs of the fastest type, N_avg
 * the time-averaged number of active jobs over its life so far (integrated by
 * this policy between calls), C the GPUs of the cluster that are up.
 * An estimate of a job's rho if it held GPUs of type t from now on is
 *     rho(t) = (now - submit + remaining / rate(t)) / T_id,
 * and if it waits one more lease for the fastest type
 *     rho0 = (now - submit + lease + remaining / best_rate) / T_id.
 *
 * Each call (every round and on arrivals/completions): jobs whose lease has
 * not ended keep their GPUs (§4: resources are leased; a lease runs to its
 * end). The free GPUs are then auctioned (§4.1-§4.2, §5):
 *  1. The arbiter ranks all active jobs by their current rho estimate
 *     (rho if run at full speed from now on) and offers the free GPUs to the
 *     1 - f fraction with the worst rho (f the fairness knob, at least one
 *     job); those holding an unexpired lease do not bid.
 *  2. Each bidder bids its value v(t) = rho0 / rho(t) for its request on each
 *     GPU type t with room (no bid where v <= 1), rho(t) at the rate of the
 *     placement it would get now: on one node when some node has the GPUs
 *     free, else spread over the fewest nodes (the table's unconsolidated
 *     rate). Themis's bids are placement-aware for this reason (§2, §4.1).
 *  3. Partial allocation (PA): the winning allocation maximises the product of
 *     the values (sum of log v; a knapsack over the free GPUs per type,
 *     solved exactly by dynamic programming when the state space is small,
 *     greedily by value per GPU otherwise). Each winner i pays the hidden
 *     payment c_i = prod_{j!=i} v_j(S*) / prod_{j!=i} v_j(S*_{-i}), S*_{-i}
 *     the PA allocation without i: it receives only the fraction c_i of what
 *     it won.
 *  4. Leftover GPUs go to the other jobs, worst rho first, each on the type
 *     it values most (§5, leftover allocation), when that value exceeds 1: a
 *     job does not take a placement that finishes it later than waiting one
 *     lease for its best one would.
 *
 * Simplifications, and why:
 * - Jobs are single-job apps with rigid gang requests (the trace format): a
 *   bid is the job's request on one type or nothing, not a table over GPU
 *   subsets and placements. Bids are valued at the placement the free GPUs
 *   offer at the start of the auction; winners are then placed, largest
 *   first, best fit on one node or over the fewest nodes, with
 *   explicit GPU ids (a winner keeps its own GPUs when they are no more
 *   spread). When the view lists no GPU ids the mechanism places.
 * - Gangs cannot be split, so the hidden payment c_i is taken in time, not in
 *   GPUs: the winner's lease is c_i x lease long (GPU-time is what the paper's
 *   fraction of resources buys over a lease).
 * - T_ex ignores the start overhead; rho0 assumes the fastest type after one
 *   lease. Unknown throughputs are taken as 1 unit/s on every type.
 * - Remaining work: `themis-oracle` reads the true remaining work (Themis's
 *   agents are assumed to know their app's progress and length, §4.1).
 *   `themis` estimates the total work from the job's duration estimate (x its
 *   best rate), else from the mean GPU-holding time of finished jobs of the
 *   same workload and request (then workload, then all), else (or when the
 *   estimate is already exceeded) as work done plus one lease at the best rate.
 * - The exact knapsack is a dynamic program over the vector of free GPUs per
 *   type; when that space times the bidders exceeds 4e6 states (large
 *   multi-type clusters) a greedy by log-value per GPU stands in, for the
 *   allocation and for the hidden payments alike.
 * - Partial allocation leaves GPUs idle only when no job values them.
 * Defaults: f = 0.8 and 10-minute leases, the paper's evaluation settings
 * (§8). Shockwave's "Themis" baseline is Gavel's finish-time-fairness LP run
 * in 120 s rounds, a different algorithm; --round 120 gives its cadence. */
#include "policies/placement.h"
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TH_DP_STATES_MAX 4000000 /* bidders x capacity states the exact DP may use */

typedef struct th_job {
    int64_t id;
    double area;      /* integral of active jobs over [submit, last call] */
    double lease_end; /* s; -INFINITY when none */
} th_job_t;

typedef struct th_state {
    double f, lease;
    int oracle;
    th_job_t *jobs; /* sorted by id */
    int n;
    double last; /* time of the last call; NAN before the first */
    int last_n;  /* active jobs at the last call */
} th_state_t;

static int th_create(void **state, const policy_args_t *args, int oracle, const char *name,
                     char *err, size_t errlen)
{
    static const char *const known[] = {"f", "lease", NULL};
    *state = NULL;
    if (policy_args_check(args, known, name, err, errlen))
        return -1;
    double f, lease;
    if (policy_arg_double(args, "f", 0.8, &f, err, errlen) ||
        policy_arg_double(args, "lease", 600, &lease, err, errlen))
        return -1;
    if (!(f >= 0 && f < 1)) {
        snprintf(err, errlen, "%s: f=%g must be in [0, 1)", name, f);
        return -1;
    }
    if (!(lease > 0) || isinf(lease)) {
        snprintf(err, errlen, "%s: lease=%g must be a positive number of seconds", name, lease);
        return -1;
    }
    th_state_t *s = pu_alloc(1, sizeof *s);
    s->f = f;
    s->lease = lease;
    s->oracle = oracle;
    s->last = NAN;
    *state = s;
    return 0;
}

int themis_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    return th_create(state, args, 0, "themis", err, errlen);
}

int themis_oracle_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    return th_create(state, args, 1, "themis-oracle", err, errlen);
}

void themis_destroy(void *state)
{
    th_state_t *s = state;
    if (s)
        free(s->jobs);
    free(s);
}

void themis_oracle_destroy(void *state)
{
    themis_destroy(state);
}

static int cmp_job_id(const void *pa, const void *pb)
{
    const th_job_t *a = pa, *b = pb;
    return a->id < b->id ? -1 : a->id > b->id ? 1 : 0;
}

static const th_job_t *th_find(const th_state_t *s, int64_t id)
{
    th_job_t k = {id, 0, 0};
    return s->n ? bsearch(&k, s->jobs, (size_t)s->n, sizeof k, cmp_job_id) : NULL;
}

/* Per job, what the auction needs. */
typedef struct th_est {
    double t_id;      /* s */
    double remaining; /* work units */
    double best;      /* best rate, units/s */
    double rho_now;   /* rho if run at full speed from now on */
    double lease_end; /* carried over */
} th_est_t;

/* Rate of job j on type t, 1 where unknown, 0 where it cannot run. */
static double th_rate(const view_t *v, int j, int t)
{
    if (v->jobs[j].gpus_requested > v->types[t].total_gpus)
        return 0;
    double r = pu_rate(v, j, t);
    return isnan(r) ? 1.0 : r;
}

static double th_best(const view_t *v, int j)
{
    double b = pu_best_rate(v, j);
    return isnan(b) ? 1.0 : b;
}

/* Mean GPU-holding time of finished jobs like j (workload and request, then
 * workload, then all); NAN when none finished. */
static double history_time(const view_t *v, const view_job_t *jb)
{
    for (int level = 0; level < 3; level++) {
        double sum = 0;
        int n = 0;
        for (int i = 0; i < v->n_finished; i++) {
            const view_finished_t *f = &v->finished[i];
            if (level < 2 && f->workload != jb->workload)
                continue;
            if (level < 1 && f->gpus_requested != jb->gpus_requested)
                continue;
            sum += f->run_time;
            n++;
        }
        if (n)
            return sum / n;
    }
    return NAN;
}

static double remaining_estimate(const th_state_t *s, const view_t *v, int j, double best)
{
    const view_job_t *jb = &v->jobs[j];
    if (s->oracle && !isnan(jb->remaining_work))
        return fmax(jb->remaining_work, 0.0);
    double t = !isnan(jb->duration_estimate) && jb->duration_estimate > 0 ? jb->duration_estimate
                                                                          : history_time(v, jb);
    double total = t * best;
    if (isnan(total) || total <= jb->work_done)
        total = jb->work_done + best * s->lease;
    return total - jb->work_done;
}

/* Brings N_avg areas up to now, stores leases, fills est[]. */
static void th_update(th_state_t *s, const view_t *v, th_est_t *est)
{
    pu_room_t r;
    pu_room_init(&r, v);
    int cap = pu_room_total(&r);
    pu_room_free(&r);
    th_job_t *next = pu_alloc((size_t)v->n_jobs, sizeof *next);
    for (int j = 0; j < v->n_jobs; j++) {
        const view_job_t *jb = &v->jobs[j];
        const th_job_t *old = th_find(s, jb->id);
        double area;
        if (old && !isnan(s->last))
            area = old->area + s->last_n * fmax(0.0, v->now - s->last);
        else
            area = v->n_jobs * fmax(0.0, v->now - jb->submit);
        double life = v->now - jb->submit;
        double navg = life > 0 ? area / life : v->n_jobs;
        double best = th_best(v, j);
        double rem = remaining_estimate(s, v, j, best);
        double total = s->oracle && !isnan(jb->total_work) ? jb->total_work : jb->work_done + rem;
        double t_ex = total / best;
        double share = cap > 0 ? jb->gpus_requested * navg / cap : 1.0;
        est[j].t_id = fmax(t_ex * fmax(1.0, share), 1e-9);
        est[j].remaining = rem;
        est[j].best = best;
        est[j].rho_now = (life + rem / best) / est[j].t_id;
        est[j].lease_end = old && pu_holds(jb) ? old->lease_end : -INFINITY;
        next[j] = (th_job_t){jb->id, area, est[j].lease_end};
    }
    qsort(next, (size_t)v->n_jobs, sizeof *next, cmp_job_id);
    free(s->jobs);
    s->jobs = next;
    s->n = v->n_jobs;
    s->last = v->now;
    s->last_n = v->n_jobs;
}

/* The auction: bidders b[0..nb-1], each with log-value w[i*T + t] (-INFINITY
 * for no bid) for its request g[i] on type t, and free GPUs room[t]. */
typedef struct auction {
    int nb, n_types;
    const int *g;
    const double *w;
    const int *room;
} auction_t;

/* Best allocation leaving out bidder `skip` (-1: none): fills choice[i]
 * (type, -1 none) and returns the total log-value. Exact DP over the
 * mixed-radix vector of free GPUs when small enough, else greedy. */
static double pa_solve(const auction_t *a, int skip, int *choice)
{
    int T = a->n_types;
    long states = 1;
    long *radix = pu_alloc((size_t)T, sizeof *radix);
    for (int t = 0; t < T; t++) {
        radix[t] = states;
        if (states <= TH_DP_STATES_MAX)
            states *= a->room[t] + 1;
    }
    double total = 0;
    for (int i = 0; i < a->nb; i++)
        choice[i] = -1;
    if (states * (long)(a->nb ? a->nb : 1) <= TH_DP_STATES_MAX) {
        /* val[s]: best value of bidders i..nb-1 with free vector s */
        double *val = pu_alloc((size_t)states, sizeof *val);
        double *nv = pu_alloc((size_t)states, sizeof *nv);
        signed char *pick = pu_alloc((size_t)states * (size_t)(a->nb ? a->nb : 1), 1);
        for (int i = a->nb - 1; i >= 0; i--) {
            for (long st = 0; st < states; st++) {
                double best = val[st];
                int bt = -1;
                for (int t = 0; t < T && i != skip; t++) {
                    double w = a->w[(size_t)i * T + t];
                    long free_t = (st / radix[t]) % (a->room[t] + 1);
                    if (isinf(w) || free_t < a->g[i])
                        continue;
                    double cand = w + val[st - a->g[i] * radix[t]];
                    if (cand > best + 1e-12) {
                        best = cand;
                        bt = t;
                    }
                }
                nv[st] = best;
                pick[(size_t)i * states + st] = (signed char)(bt + 1);
            }
            double *tmp = val;
            val = nv;
            nv = tmp;
        }
        long st = states - 1; /* all free */
        total = a->nb ? val[st] : 0;
        for (int i = 0; i < a->nb; i++) {
            int t = pick[(size_t)i * states + st] - 1;
            choice[i] = t;
            if (t >= 0)
                st -= a->g[i] * radix[t];
        }
        free(val);
        free(nv);
        free(pick);
    } else {
        /* greedy: bidders by best log-value per GPU, each on its best type with room */
        int *left = pu_alloc((size_t)T, sizeof *left);
        memcpy(left, a->room, sizeof *left * (size_t)T);
        for (;;) {
            int bi = -1, bt = -1;
            double bd = 0;
            for (int i = 0; i < a->nb; i++) {
                if (i == skip || choice[i] >= 0)
                    continue;
                for (int t = 0; t < T; t++) {
                    double w = a->w[(size_t)i * T + t];
                    if (isinf(w) || left[t] < a->g[i])
                        continue;
                    if (w / a->g[i] > bd) {
                        bd = w / a->g[i];
                        bi = i;
                        bt = t;
                    }
                }
            }
            if (bi < 0)
                break;
            choice[bi] = bt;
            left[bt] -= a->g[bi];
            total += a->w[(size_t)bi * T + bt];
        }
        free(left);
    }
    free(radix);
    return total;
}

/* Rate of job j on its GPUs of type t as it would be placed now. */
static double placed_rate(const view_t *v, const pl_map_t *m, int j, int t)
{
    int g = v->jobs[j].gpus_requested;
    if (!m->on || !v->perf || !v->perf->throughput)
        return th_rate(v, j, t);
    int nodes = pl_fit(v, m, t, g, NULL);
    if (nodes <= 0)
        return 0;
    double r = v->perf->throughput(v->perf->ctx, &v->jobs[j], t, g, nodes, 0);
    return isnan(r) ? 1.0 : r;
}

/* Allocates job j on type t, explicitly placed when GPU ids are known. */
static void th_run(const view_t *v, pl_map_t *m, plan_t *p, int j, int t)
{
    if (!pl_run(v, m, p, j, t, 0))
        plan_run(p, j, t, v->jobs[j].gpus_requested); /* the mechanism places it */
}

/* Job j's value rho0 / rho(t) for its request on type t as it would be
 * placed now; 0 when it does not fit. */
static double bid_value(const th_state_t *s, const view_t *v, const pl_map_t *fr,
                        const pu_room_t *room, const th_est_t *est, int j, int t)
{
    const view_job_t *jb = &v->jobs[j];
    if (jb->gpus_requested > room->room[t])
        return 0;
    double r = placed_rate(v, fr, j, t);
    if (!(r > 0))
        return 0;
    double life = v->now - jb->submit;
    double rho0 = (life + s->lease + est[j].remaining / est[j].best) / est[j].t_id;
    return rho0 / ((life + est[j].remaining / r) / est[j].t_id);
}

static int th_schedule(th_state_t *s, const view_t *v, plan_t *plan)
{
    int n = v->n_jobs, T = v->n_types;
    th_est_t *est = pu_alloc((size_t)n, sizeof *est);
    th_update(s, v, est);
    pu_room_t room;
    pu_room_init(&room, v);
    char *done = pu_alloc((size_t)n, 1);

    /* 1. unexpired leases keep their GPUs */
    int *order = pu_alloc((size_t)n, sizeof *order);
    pu_arrival_order(v, order);
    for (int i = 0; i < n; i++) {
        int j = order[i];
        if (est[j].lease_end > v->now + 1e-6 && pu_keep(v, &room, plan, j))
            done[j] = 1;
    }

    pl_map_t fr;
    pl_init(&fr, v, done);

    /* 2. rank every job that can ever run by rho, worst first */
    double *key = pu_alloc((size_t)n, sizeof *key);
    int nfit = 0;
    for (int j = 0; j < n; j++) {
        key[j] = -est[j].rho_now;
        if (pu_ever_fits(v, j))
            order[nfit++] = j;
    }
    pu_sort(v, key, order, nfit);
    int n_offer = (int)ceil((1.0 - s->f) * nfit - 1e-9);
    if (n_offer < 1)
        n_offer = 1;
    if (n_offer > nfit)
        n_offer = nfit;

    /* 3. bids of the offered jobs without a lease */
    int *bidder = pu_alloc((size_t)n, sizeof *bidder);
    int *g = pu_alloc((size_t)n, sizeof *g);
    double *w = pu_alloc((size_t)n * (size_t)(T ? T : 1), sizeof *w);
    int nb = 0;
    for (int i = 0; i < n_offer; i++) {
        int j = order[i];
        if (done[j])
            continue;
        int any = 0;
        for (int t = 0; t < T; t++) {
            double val = bid_value(s, v, &fr, &room, est, j, t);
            w[(size_t)nb * T + t] = val > 1.0 ? log(val) : -INFINITY;
            any |= val > 1.0;
        }
        if (any) {
            bidder[nb] = j;
            g[nb++] = v->jobs[j].gpus_requested;
        }
    }

    /* 4. partial allocation with hidden payments taken as shorter leases */
    auction_t a = {nb, T, g, w, room.room};
    int *choice = pu_alloc((size_t)(nb ? nb : 1), sizeof *choice);
    int *alt = pu_alloc((size_t)(nb ? nb : 1), sizeof *alt);
    double total = pa_solve(&a, -1, choice);
    double *frac = pu_alloc((size_t)(nb ? nb : 1), sizeof *frac);
    for (int i = 0; i < nb; i++)
        if (choice[i] >= 0) {
            double wi = w[(size_t)i * T + choice[i]];
            double without = pa_solve(&a, i, alt);
            frac[i] = fmin(1.0, exp(total - wi - without));
        }
    int *by_size = pu_alloc((size_t)(nb ? nb : 1), sizeof *by_size);
    for (int i = 0; i < nb; i++) { /* winners placed largest first, stable */
        int k = i;
        for (; k > 0 && g[by_size[k - 1]] < g[i]; k--)
            by_size[k] = by_size[k - 1];
        by_size[k] = i;
    }
    for (int x = 0; x < nb; x++) {
        int i = by_size[x], j = bidder[i], t = choice[i];
        if (t < 0)
            continue;
        th_run(v, &fr, plan, j, t);
        room.room[t] -= g[i];
        done[j] = 1;
        est[j].lease_end = v->now + frac[i] * s->lease;
    }

    /* 5. leftover GPUs: everyone else, worst rho first, on the type it
     * values most, when that beats waiting a lease */
    for (int i = 0; i < nfit && pu_room_total(&room) > 0; i++) {
        int j = order[i], bt = -1;
        double bv = 1.0;
        for (int t = 0; t < T && !done[j]; t++) {
            double val = bid_value(s, v, &fr, &room, est, j, t);
            if (val > bv) {
                bv = val;
                bt = t;
            }
        }
        if (bt >= 0) {
            th_run(v, &fr, plan, j, bt);
            room.room[bt] -= v->jobs[j].gpus_requested;
            done[j] = 1;
            est[j].lease_end = v->now + s->lease;
        }
    }

    /* leases of this plan, for the next call */
    for (int j = 0; j < n; j++) {
        th_job_t *rec = (th_job_t *)th_find(s, v->jobs[j].id);
        if (rec)
            rec->lease_end = done[j] ? est[j].lease_end : -INFINITY;
    }
    free(by_size);
    pl_free(&fr);
    free(frac);
    free(alt);
    free(choice);
    free(w);
    free(g);
    free(bidder);
    free(key);
    free(order);
    free(done);
    pu_room_free(&room);
    free(est);
    return 0;
}

int themis_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return th_schedule(state, v, plan);
}

int themis_oracle_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    return themis_schedule(state, v, plan, err, errlen);
}
