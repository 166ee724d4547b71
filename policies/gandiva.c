/* gandiva.c: Gandiva's introspective packing, as Gavel evaluates it (Xiao et
 * al., "Gandiva: Introspective Cluster Scheduling for Deep Learning", OSDI
 * 2018, §3.3 packing and §4 introspection; Narayanan et al., OSDI 2020, the
 * "gandiva" baseline of Gavel's space-sharing experiments).
 *
 * When the active jobs ask for no more GPUs than the cluster has, every job
 * runs alone. Otherwise the policy space-shares: jobs not yet in a pair are
 * paired at random (as many draws as there are such jobs; a draw of two jobs
 * with the same GPU count that the perf model lets share a type forms a
 * pair), and the pairs and the remaining single jobs time-slice the cluster
 * in equal shares. Introspection undoes a pair that does not pay: at every
 * decision a pair whose normalized throughput (the sum over its two jobs of
 * pair rate / isolated rate, on the best type for the pair) is below 1 is
 * split, and a pair also ends when either job finishes.
 *
 * Equal time shares are realised by rounds (cadence rounds+events): units
 * (pairs and singles) are ranked by the GPU time their jobs have received
 * (attained_time, the mean over a pair), least first, ties by (submit, id),
 * and fill the GPUs greedily: a pair runs both jobs on the same GPUs
 * (pack_with) on the type where the pair's normalized throughput is highest
 * among the types with room; a single job goes to the fastest type with room.
 * Jobs are placed on the fewest nodes free (policies/placement.h) and keep
 * their GPUs unless a less spread placement has become free: Gandiva's
 * migration for locality (§3.3), without which a job started across nodes in
 * a busy cluster would stay there, slow, after the cluster empties.
 *
 * Differences from Gavel's gandiva.py, and why:
 * - Gavel recomputes equal time fractions and lets its round mechanism
 *   realise them; here the least-served unit goes first, which gives equal
 *   shares over rounds without a fraction matrix.
 * - Gavel sums the normalized throughput over all GPU types (so a pair can
 *   look profitable on a three-type cluster when it loses on every type);
 *   here it is the best single type, where the pair would run.
 * - Gavel may draw the same losing pair again right after splitting it; here
 *   a split pair is remembered and never formed again (Gandiva's
 *   introspection learns that the pair does not pack well).
 * - Gavel draws pairs without asking whether they can share; here a pair the
 *   perf model refuses (memory, unknown) is not formed, since the mechanism
 *   would reject the plan.
 * Randomness: a GSL mt19937 seeded with the run's seed at the first call.
 * -P mechanism=gavel runs Gavel's gandiva.py itself instead (its allocation
 * through Gavel's rounds, with Python's draws; policies/gavel_share.c). */
#include "policies/gavel_share.h"
#include "policies/placement.h"
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>

typedef struct gd_pair {
    int64_t a, b; /* job ids, a < b */
} gd_pair_t;

typedef struct gd_list {
    gd_pair_t *p;
    int n, cap;
} gd_list_t;

typedef struct gd_state {
    gs_state_t *gavel; /* mechanism=gavel, NULL otherwise */
    gsl_rng *rng;     /* NULL before the first call */
    gd_list_t pairs;  /* current pairs */
    gd_list_t banned; /* pairs split by introspection */
} gd_state_t;

int gandiva_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    static const char *const own[] = {"mechanism", NULL};
    *state = NULL;
    int gavel = gs_wanted(args, "gandiva", err, errlen);
    if (gavel < 0 || (!gavel && policy_args_check(args, own, "gandiva", err, errlen)))
        return -1;
    gs_state_t *g = gavel ? gs_create(1, args, "gandiva", err, errlen) : NULL;
    if (gavel && !g)
        return -1;
    gd_state_t *s = pu_alloc(1, sizeof *s);
    s->gavel = g;
    *state = s;
    return 0;
}

void gandiva_destroy(void *state)
{
    gd_state_t *s = state;
    if (!s)
        return;
    gs_destroy(s->gavel);
    if (s->rng)
        gsl_rng_free(s->rng);
    free(s->pairs.p);
    free(s->banned.p);
    free(s);
}

static void list_add(gd_list_t *l, int64_t a, int64_t b)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 16;
        l->p = realloc(l->p, sizeof *l->p * (size_t)l->cap);
        if (!l->p)
            abort();
    }
    l->p[l->n++] = a < b ? (gd_pair_t){a, b} : (gd_pair_t){b, a};
}

static int list_has(const gd_list_t *l, int64_t a, int64_t b)
{
    if (a > b) {
        int64_t t = a;
        a = b;
        b = t;
    }
    for (int i = 0; i < l->n; i++)
        if (l->p[i].a == a && l->p[i].b == b)
            return 1;
    return 0;
}

/* Index of the active job with this id, -1 when gone. */
static int job_index(const view_t *v, int64_t id)
{
    for (int j = 0; j < v->n_jobs; j++)
        if (v->jobs[j].id == id)
            return j;
    return -1;
}

/* Normalized throughput of the pair (i, k) on type t: -1 when they cannot
 * share there. */
static double pair_norm(const view_t *v, int i, int k, int t)
{
    const view_job_t *a = &v->jobs[i], *b = &v->jobs[k];
    int g = a->gpus_requested;
    double out[2] = {0, 0};
    if (g != b->gpus_requested || g > v->types[t].total_gpus || !v->perf->pair_throughput ||
        v->perf->pair_throughput(v->perf->ctx, a, b, t, g, out) < 0 || !(out[0] > 0) ||
        !(out[1] > 0))
        return -1;
    double ra = pu_rate(v, i, t), rb = pu_rate(v, k, t);
    if (!(ra > 0) || !(rb > 0))
        return -1;
    return out[0] / ra + out[1] / rb;
}

/* Best type for the pair among those with at least `need` room (room NULL:
 * any type); writes its normalized throughput. -1 when none. */
static int pair_type(const view_t *v, int i, int k, const int *room, double *norm)
{
    int best = -1;
    *norm = -1;
    for (int t = 0; t < v->n_types; t++) {
        if (room && room[t] < v->jobs[i].gpus_requested)
            continue;
        double n = pair_norm(v, i, k, t);
        if (n > *norm + 1e-12) {
            *norm = n;
            best = t;
        }
    }
    return best;
}

/* Drops pairs with a finished job, splits (and bans) pairs that lose. */
static void introspect(gd_state_t *s, const view_t *v)
{
    int kept = 0;
    for (int i = 0; i < s->pairs.n; i++) {
        gd_pair_t pr = s->pairs.p[i];
        int a = job_index(v, pr.a), b = job_index(v, pr.b);
        if (a < 0 || b < 0)
            continue;
        double norm;
        if (pair_type(v, a, b, NULL, &norm) < 0 || norm < 1.0) {
            list_add(&s->banned, pr.a, pr.b);
            continue;
        }
        s->pairs.p[kept++] = pr;
    }
    s->pairs.n = kept;
}

/* Partner of job j in the current pairs, -1 when single. */
static int partner(const gd_state_t *s, const view_t *v, int j)
{
    int64_t id = v->jobs[j].id;
    for (int i = 0; i < s->pairs.n; i++) {
        if (s->pairs.p[i].a == id)
            return job_index(v, s->pairs.p[i].b);
        if (s->pairs.p[i].b == id)
            return job_index(v, s->pairs.p[i].a);
    }
    return -1;
}

/* Random pairing of the unpaired jobs (Gavel's draw loop). */
static void pair_randomly(gd_state_t *s, const view_t *v, const int *arrival)
{
    int *pool = pu_alloc((size_t)v->n_jobs, sizeof *pool);
    int n = 0;
    for (int i = 0; i < v->n_jobs; i++) {
        int j = arrival[i];
        if (pu_ever_fits(v, j) && partner(s, v, j) < 0)
            pool[n++] = j;
    }
    int draws = n;
    for (int d = 0; d < draws && n > 1; d++) {
        int x = (int)gsl_rng_uniform_int(s->rng, (unsigned long)n);
        int y = (int)gsl_rng_uniform_int(s->rng, (unsigned long)(n - 1));
        if (y >= x)
            y++;
        int a = pool[x], b = pool[y];
        double norm;
        if (v->jobs[a].gpus_requested != v->jobs[b].gpus_requested ||
            list_has(&s->banned, v->jobs[a].id, v->jobs[b].id) ||
            pair_type(v, a, b, NULL, &norm) < 0)
            continue;
        list_add(&s->pairs, v->jobs[a].id, v->jobs[b].id);
        int hi = x > y ? x : y, lo = x > y ? y : x; /* remove both, keep order */
        for (int i = hi; i + 1 < n; i++)
            pool[i] = pool[i + 1];
        n--;
        for (int i = lo; i + 1 < n; i++)
            pool[i] = pool[i + 1];
        n--;
    }
    free(pool);
}

/* A single job on the fastest type with room, on the fewest nodes free
 * (it keeps its GPUs when they are no more spread). */
static void run_single(const view_t *v, pu_room_t *room, pl_map_t *map, plan_t *p, int j)
{
    int g = v->jobs[j].gpus_requested;
    int *order = pu_alloc((size_t)(v->n_types ? v->n_types : 1), sizeof *order);
    int nt = pu_type_order(v, j, order);
    for (int i = 0; i < nt; i++)
        if (room->room[order[i]] >= g && pl_run(v, map, p, j, order[i], 0)) {
            room->room[order[i]] -= g;
            break;
        }
    free(order);
}

/* The pair (j, m) on the same GPUs of type t. */
static void run_pair(const view_t *v, pu_room_t *room, pl_map_t *map, plan_t *p, int j, int m,
                     int t)
{
    int g = v->jobs[j].gpus_requested;
    if (!pl_run(v, map, p, j, t, 0))
        return;
    int ka = p->n - 1, kb;
    if (p->allocs[ka].has_ids) {
        int *ids = pu_alloc((size_t)g, sizeof *ids);
        for (int i = 0; i < g; i++)
            ids[i] = p->ids[p->allocs[ka].ids_off + i];
        kb = plan_run_on(p, m, t, ids, g);
        free(ids);
    } else {
        kb = plan_run(p, m, t, g);
    }
    p->allocs[ka].pack_with = m;
    p->allocs[kb].pack_with = j;
    room->room[t] -= g;
}

int gandiva_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    gd_state_t *s = state;
    if (s->gavel) {
        gs_schedule(s->gavel, v, plan);
        return 0;
    }
    if (!s->rng) {
        s->rng = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(s->rng, (unsigned long)v->seed);
    }
    int n = v->n_jobs;
    int *arrival = pu_alloc((size_t)n, sizeof *arrival);
    pu_arrival_order(v, arrival);
    introspect(s, v);

    pu_room_t room;
    pu_room_init(&room, v);
    long want = 0;
    for (int j = 0; j < n; j++)
        if (pu_ever_fits(v, j))
            want += v->jobs[j].gpus_requested;
    pl_map_t map;
    pl_init(&map, v, NULL);
    if (want <= pu_room_total(&room)) { /* everyone fits: no packing */
        for (int i = 0; i < n; i++)
            if (pu_ever_fits(v, arrival[i]))
                run_single(v, &room, &map, plan, arrival[i]);
        pl_free(&map);
        pu_room_free(&room);
        free(arrival);
        return 0;
    }
    pair_randomly(s, v, arrival);

    /* units: a pair is led by its earlier job; ranked by GPU time received */
    double *key = pu_alloc((size_t)n, sizeof *key);
    int *order = pu_alloc((size_t)n, sizeof *order);
    int *mate = pu_alloc((size_t)n, sizeof *mate);
    int nu = 0;
    for (int i = 0; i < n; i++) {
        int j = arrival[i];
        mate[j] = partner(s, v, j);
    }
    for (int i = 0; i < n; i++) {
        int j = arrival[i], m = mate[j];
        if (m >= 0 && (v->jobs[m].submit < v->jobs[j].submit ||
                       (v->jobs[m].submit == v->jobs[j].submit && v->jobs[m].id < v->jobs[j].id)))
            continue; /* led by its partner */
        key[j] = m >= 0 ? 0.5 * (v->jobs[j].attained_time + v->jobs[m].attained_time)
                        : v->jobs[j].attained_time;
        order[nu++] = j;
    }
    pu_sort(v, key, order, nu);
    for (int i = 0; i < nu && pu_room_total(&room) > 0; i++) {
        int j = order[i], m = mate[j];
        if (m < 0) {
            if (pu_ever_fits(v, j))
                run_single(v, &room, &map, plan, j);
            continue;
        }
        double norm;
        int t = pair_type(v, j, m, room.room, &norm);
        if (t >= 0)
            run_pair(v, &room, &map, plan, j, m, t);
    }
    pl_free(&map);
    pu_room_free(&room);
    free(mate);
    free(order);
    free(key);
    free(arrival);
    return 0;
}
