/* gavel_round.c: Gavel's round mechanism (see gavel_round.h): priorities from
 * allocation over received share, greedy per-type filling, lease extension by
 * listing kept jobs first, recompute gating. State lives in gr_state_t, keyed
 * by job id, so it survives the view's reindexing between calls.
 *
 * Cost per round (issue 16): what depends only on which jobs are active (a
 * map from id to view index, each row's members' view indices, the
 * recompute check's comparison of ids) is kept from the last call while the
 * view lists the same ids in the same order; scratch arrays live in the
 * state; rates are asked only where a queue needs them; a type's queue is
 * not sorted when every entry it may take fits whatever the order (fifo-perf
 * between recomputes), and a policy that never runs priority-0 rows does not
 * build them; such a type's fill is then one pass over its rows (fill_fits).
 * A job's rates are kept across calls while the perf model's rates are fixed
 * (view_perf_t.rates_fixed) and its workload, batch and GPU count stay the
 * same. A fill whose inputs are the last call's, less the jobs that left,
 * gives the last fill's plan less those jobs (replay: most rounds between
 * recomputes under fifo-perf). Every shortcut gives the plan the full
 * computation gives. */
#include "policies/gavel_round.h"
#include "policies/policy_util.h"
#include "policies/pyrandom.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gr_row {
    int64_t id[2]; /* id[1] = -1 for a single job */
    double *x;     /* n_types: allocation */
    double *recv;  /* n_types: s received since the recompute */
    double *prio;  /* n_types: priority at the last fill */
    double *deficit; /* n_types: rules=gavel, summed at the recomputes (Gavel's _deficits) */
} gr_row_t;

/* rules=gavel: what a pair of jobs has had, row or not (Gavel keeps a
 * deficit for every pair of equal-sized jobs). */
typedef struct gr_pair_mem {
    int64_t id[2];      /* the lower id first */
    double *alloc_part; /* n_types: x * elapsed summed at the recomputes it was a row */
    double *ran;        /* n_types: s it ran, up to the last recompute */
    double *ran_now;    /* n_types: s it ran since */
} gr_pair_mem_t;

typedef struct gr_last {
    int row; /* index into rows, -1 for a job run from leftovers */
    int type;
    int64_t id[2];   /* its jobs (rules=gavel), id[1] = -1 for one */
    int idx[2];      /* their view indices at the fill */
    double work0[2]; /* their work done at the fill */
} gr_last_t;

struct gr_state {
    int n_types;
    gr_row_t *rows;
    int n_rows;
    double *row_mem; /* every row's x, recv, prio and deficit, in one block */
    int *pos;        /* per type t: pos[t * (n_rows + 1)] rows with x[t] > 0, then their indices */
    int have_alloc;
    double reset_time;  /* time of the last recompute */
    int64_t *alloc_ids; /* sorted active job ids at the last recompute */
    int n_alloc_ids;
    long alloc_batch_changes; /* the active jobs' batch changes then, summed */
    gr_last_t *last;          /* what the previous fill scheduled */
    int n_last, last_cap;
    long calls, fill_call; /* gr_begin calls; the one whose fill made `last` */
    double last_call;      /* NAN before the first call */
    double recv0;          /* where rows' received time starts: half a round under rules=gavel and
                              received_start=half_round (Gavel's _job_time_so_far), else 0 */
    int idle_again;        /* this call is at the previous one's instant and no job runs */
    gr_opts_t opts;
    int leftover_pairs; /* gr_set_leftover_pairs */
    gr_pair_mem_t *pm;  /* rules=gavel: by ids */
    int n_pm;
    gsl_rng *rng;   /* type-order shuffles, seeded from the view at first use */
    pyrandom_t *py; /* gr_set_python_shuffle: Gavel's own shuffles instead */
    /* kept between calls while the view lists the same ids (see the top) */
    int64_t *seen_ids;  /* the view's job ids, view order, at the last sync */
    struct id_idx *map; /* the same, sorted by id, with view indices (ensure_map) */
    int n_seen, seen_cap, map_ok;
    int *slot; /* use_slots: view index by job id, -1 when not in the view */
    int slot_cap, use_slots;
    int same_as_alloc;         /* gr_need_recompute's id comparison for seen_ids; -1 unknown */
    int members_ok;            /* members/has_single hold for seen_ids and the rows */
    int (*members)[2];         /* per row: view indices, -1 not active (or no second) */
    unsigned char *has_single; /* per job: has a single row of its own */
    int members_cap, single_cap;
    void *scratch; /* gr_fill's arrays, grown as needed */
    size_t scratch_cap;
    long synced_at; /* the call whose view seen_ids hold (sync_view), -1 none */
    /* rates (rate_of): per view index j and type t, rate[j * rate_T + t] once
     * known[j * rate_T + t]; kept across calls while the perf model's rates
     * are fixed (view_perf_t.rates_fixed) and the job's key is the one they
     * were asked for, moved with the view's indices (move_rates); forgotten at
     * every call otherwise */
    struct gr_rates *rs; /* two sets: the view's now, and a spare one for move_rates */
    int rs_cur, rate_T, rates_fixed;
    int *node_max, *room0, *room; /* per type: the largest node's GPUs; GPUs up; the fill's room */
    int types_cap;
    char **order_names; /* gavel_order's memo: the type names it was made for */
    int *order_memo, n_order_memo;
    /* gr_set_allocation's arrays, kept for the next one (byte capacities):
     * rows and row_mem in use, the last ones spare; pos; alloc_ids; and
     * carry_deficits' scratch */
    size_t rows_cap, row_mem_cap, pos_cap, alloc_ids_cap;
    void *rows_spare, *row_mem_spare, *carry_old, *carry_single;
    size_t rows_spare_cap, row_mem_spare_cap, carry_old_cap, carry_single_cap;
    long rows_gen;        /* gr_set_allocation calls */
    int pair_rows;        /* some row is a pair */
    int view_same;        /* this call's view lists the last call's ids, in the same order */
    struct gr_replay *rp; /* gr_fill's record of its last fill (replay) */
    int *rp_now, *rp_at;  /* replay's scratch */
    size_t rp_now_cap;
};

/* replay's marks per entry of a type's list */
#define GR_BIT_POSITIVE 1 /* the row's priority was > 0 */
#define GR_BIT_ACTIVE 2   /* its members were active */
/* Views of up to this many jobs keep gavel_seq within an int. */
#define GR_SEQ_JOBS 46000

/* What a fill in which every type took its queue whole (fill_fits) chose,
 * and what it depended on that may change by the next call (replay). */
typedef struct gr_replay {
    int ok;                 /* the record holds */
    long call, gen;         /* the call it was made at; rows_gen then */
    int skip_zero, shuffle; /* gr_fill's arguments */
    int *order, *room0;     /* T each: the types' visit order, the GPUs up */
    unsigned char *pos_bit; /* per entry of pos, type by type: GR_BIT_* */
    int *pick;              /* per chosen, in the plan's order: its index into last */
    int n, T, n_bits;
    size_t order_cap, bits_cap, pick_cap;
} gr_replay_t;

/* What a job's rates were asked for: the perf model reads no other field of
 * the job when its rates are fixed. */
typedef struct gr_rkey {
    int workload, batch, gpus;
} gr_rkey_t;

/* Rates by view index (see gr_state). */
typedef struct gr_rates {
    double *rate;         /* cap x T */
    unsigned char *known; /* cap x T */
    gr_rkey_t *key;       /* cap */
    int cap, T;
} gr_rates_t;

static gr_rkey_t rkey_of(const view_job_t *j)
{
    return (gr_rkey_t){j->workload, j->batch_size, j->gpus_requested};
}

/* Room in r for n jobs of T types (contents lost when it grows). */
static void rates_room(gr_rates_t *r, int n, int T)
{
    if (n <= r->cap && T == r->T)
        return;
    free(r->rate);
    free(r->known);
    free(r->key);
    r->cap = n + n / 2 + 16;
    r->T = T;
    r->rate = pu_alloc((size_t)r->cap * (size_t)(T > 0 ? T : 1), sizeof *r->rate);
    r->known = pu_alloc((size_t)r->cap * (size_t)(T > 0 ? T : 1), 1);
    r->key = pu_alloc((size_t)r->cap, sizeof *r->key);
}

static void rates_free(gr_rates_t *r)
{
    free(r->rate);
    free(r->known);
    free(r->key);
}

typedef struct id_idx {
    int64_t id;
    int idx;
} id_idx_t;

static int cmp_id_idx(const void *pa, const void *pb)
{
    int64_t a = ((const id_idx_t *)pa)->id, b = ((const id_idx_t *)pb)->id;
    return a < b ? -1 : a > b ? 1 : 0;
}

/* View index of a job id in map[0..n) (sorted by id), -1 when not active. */
static int index_of(const id_idx_t *map, int n, int64_t id)
{
    int lo = 0, hi = n;
    while (id >= 0 && lo < hi) {
        int m = lo + (hi - lo) / 2;
        if (map[m].id < id)
            lo = m + 1;
        else
            hi = m;
    }
    return id >= 0 && lo < n && map[lo].id == id ? map[lo].idx : -1;
}

/* Job ids below this are looked up in a table indexed by id (traces number
 * their jobs from 0); a run with other ids uses the sorted map. */
#define GR_SLOT_IDS (1 << 22)

/* The view's ids sorted, with their view indices, in s->map (built when
 * first needed after the view changed). */
static void ensure_map(gr_state_t *s)
{
    if (s->map_ok)
        return;
    int sorted = 1; /* the view is in (submit, id) order: ids mostly ascend already */
    for (int j = 0; j < s->n_seen; j++) {
        s->map[j] = (id_idx_t){s->seen_ids[j], j};
        sorted = sorted && (j == 0 || s->map[j - 1].id < s->map[j].id);
    }
    if (!sorted)
        qsort(s->map, (size_t)s->n_seen, sizeof *s->map, cmp_id_idx);
    s->map_ok = 1;
}

static inline int find_job(const gr_state_t *s, int64_t id);

/* The view's jobs' rates, from the last sync's (before seen_ids and the
 * slots move on): a job's row moves to its new view index under fixed rates,
 * else starts unknown. */
static void move_rates(gr_state_t *s, const view_t *v)
{
    int J = v->n_jobs, T = v->n_types, keep = s->rates_fixed && s->rate_T == T;
    gr_rates_t *o = &s->rs[s->rs_cur], *n = &s->rs[!s->rs_cur];
    rates_room(n, J, T);
    if (keep && !s->use_slots)
        ensure_map(s); /* the last sync's ids, for find_job */
    for (int j = 0; j < J;) {
        int k = keep ? find_job(s, v->jobs[j].id) : -1, m = 1;
        if (k < 0) {
            memset(n->known + (size_t)j * T, 0, (size_t)T);
            n->key[j] = rkey_of(&v->jobs[j]);
            j++;
            continue;
        }
        while (j + m < J && k + m < s->n_seen && s->seen_ids[k + m] == v->jobs[j + m].id)
            m++; /* a run of jobs in the same order: one copy */
        size_t jt = (size_t)j * T, kt = (size_t)k * T, mt = (size_t)m * T;
        memcpy(n->rate + jt, o->rate + kt, mt * sizeof *n->rate);
        memcpy(n->known + jt, o->known + kt, mt);
        memcpy(n->key + j, o->key + k, (size_t)m * sizeof *n->key);
        j += m;
    }
    s->rs_cur = !s->rs_cur;
    s->rate_T = T;
}

/* Notes the view's job ids and where each is (s->slot, or s->map); 1 when
 * they are the last sync's, in the same order (at once when this call
 * synced already: the view does not change within a call). */
static int sync_view(gr_state_t *s, const view_t *v)
{
    if (s->synced_at == s->calls)
        return 1;
    s->synced_at = s->calls;
    int same = s->n_seen == v->n_jobs;
    for (int j = 0; j < v->n_jobs && same; j++)
        same = s->seen_ids[j] == v->jobs[j].id;
    if (same)
        return 1;
    move_rates(s, v);
    for (int j = 0; j < s->n_seen && s->use_slots; j++)
        s->slot[s->seen_ids[j]] = -1;
    if (v->n_jobs > s->seen_cap) {
        free(s->seen_ids);
        free(s->map);
        s->seen_cap = v->n_jobs + v->n_jobs / 2 + 16;
        s->seen_ids = pu_alloc((size_t)s->seen_cap, sizeof *s->seen_ids);
        s->map = pu_alloc((size_t)s->seen_cap, sizeof *s->map);
    }
    int64_t lo = 0, hi = -1;
    for (int j = 0; j < v->n_jobs; j++) {
        int64_t id = s->seen_ids[j] = v->jobs[j].id;
        lo = id < lo ? id : lo;
        hi = id > hi ? id : hi;
    }
    s->n_seen = v->n_jobs;
    s->map_ok = 0;
    s->use_slots = lo >= 0 && hi < GR_SLOT_IDS;
    if (s->use_slots && hi >= s->slot_cap) {
        int cap = (int)hi + 1 > 2 * s->slot_cap ? (int)hi + 1 : 2 * s->slot_cap;
        int *n = pu_alloc((size_t)cap, sizeof *n);
        for (int k = 0; k < cap; k++)
            n[k] = -1;
        free(s->slot);
        s->slot = n;
        s->slot_cap = cap;
    }
    for (int j = 0; j < v->n_jobs && s->use_slots; j++)
        s->slot[s->seen_ids[j]] = j;
    if (!s->use_slots)
        ensure_map(s);
    s->same_as_alloc = -1;
    s->members_ok = 0;
    return 0;
}

/* *p with room for n bytes (contents lost when it grows). */
static void *room_for(void **p, size_t *cap, size_t n)
{
    if (n > *cap) {
        free(*p);
        *cap = n + n / 2 + 64;
        *p = pu_alloc(*cap, 1);
    }
    return *p;
}

void gr_set_python_shuffle(gr_state_t *s, uint64_t seed)
{
    if (!s->py)
        s->py = pu_alloc(1, sizeof *s->py);
    pyrandom_seed(s->py, seed);
}

/* Gavel's list of types (scheduler.py: v100, p100, k80, those present),
 * then any other type in index order. */
static void gavel_order_of(const view_t *v, int *order)
{
    static const char *const gavel[] = {"v100", "p100", "k80"};
    int n = 0;
    for (int g = 0; g < 3; g++)
        for (int t = 0; t < v->n_types; t++)
            if (!strcmp(v->types[t].name, gavel[g]))
                order[n++] = t;
    for (int t = 0; t < v->n_types; t++) {
        int named = 0;
        for (int g = 0; g < 3; g++)
            named |= !strcmp(v->types[t].name, gavel[g]);
        if (!named)
            order[n++] = t;
    }
}

/* gavel_order_of(), kept while the types have the same names (one
 * comparison per type instead of up to four). */
static void gavel_order(gr_state_t *s, const view_t *v, int *order)
{
    int T = v->n_types, same = s->order_memo && s->n_order_memo == T;
    for (int t = 0; t < T && same; t++)
        same = !strcmp(s->order_names[t], v->types[t].name);
    if (!same) {
        for (int t = 0; t < s->n_order_memo; t++)
            free(s->order_names[t]);
        free(s->order_names);
        free(s->order_memo);
        s->order_names = pu_alloc((size_t)T + 1, sizeof *s->order_names);
        s->order_memo = pu_alloc((size_t)T + 1, sizeof *s->order_memo);
        for (int t = 0; t < T; t++) {
            size_t len = strlen(v->types[t].name) + 1;
            s->order_names[t] = memcpy(pu_alloc(len, 1), v->types[t].name, len);
        }
        gavel_order_of(v, s->order_memo);
        s->n_order_memo = T;
    }
    if (T)
        memcpy(order, s->order_memo, (size_t)T * sizeof *order);
}

/* gavel_order() shuffled by Python's shuffle. */
static void python_order(gr_state_t *s, const view_t *v, int *order)
{
    gavel_order(s, v, order);
    pyrandom_shuffle(s->py, order, v->n_types);
}

int gr_opts_parse(const policy_args_t *args, const char *policy, gr_opts_t *o, char *err,
                  size_t errlen)
{
    const char *nj = policy_arg_str(args, "new_jobs", "run");
    const char *rs = policy_arg_str(args, "received_start", "zero");
    const char *ru = policy_arg_str(args, "rules", "paper");
    if (strcmp(ru, "paper") != 0 && strcmp(ru, "gavel") != 0) {
        snprintf(err, errlen, "%s: rules must be paper or gavel (got %s)", policy, ru);
        return -1;
    }
    o->gavel_rules = strcmp(ru, "gavel") == 0;
    if (strcmp(nj, "run") != 0 && strcmp(nj, "wait") != 0) {
        snprintf(err, errlen, "%s: new_jobs must be run or wait (got %s)", policy, nj);
        return -1;
    }
    if (strcmp(rs, "zero") != 0 && strcmp(rs, "half_round") != 0) {
        snprintf(err, errlen, "%s: received_start must be zero or half_round (got %s)", policy, rs);
        return -1;
    }
    o->new_jobs_wait = strcmp(nj, "wait") == 0;
    o->half_round = strcmp(rs, "half_round") == 0;
    long sc;
    if (policy_arg_long(args, "shortcuts", 1, &sc, err, errlen))
        return -1;
    if (sc != 0 && sc != 1) {
        snprintf(err, errlen, "%s: shortcuts must be 0 or 1 (got %ld)", policy, sc);
        return -1;
    }
    o->no_shortcuts = sc == 0;
    return 0;
}

void gr_set_opts(gr_state_t *s, const gr_opts_t *o)
{
    s->opts = *o;
}

void gr_set_leftover_pairs(gr_state_t *s, int on)
{
    s->leftover_pairs = on;
}

gr_state_t *gr_create(void)
{
    gr_state_t *s = pu_alloc(1, sizeof *s);
    s->last_call = NAN;
    s->same_as_alloc = -1;
    s->synced_at = -1;
    s->rs = pu_alloc(2, sizeof *s->rs);
    s->rp = pu_alloc(1, sizeof *s->rp);
    return s;
}

static void free_rows(gr_state_t *s)
{
    free(s->row_mem);
    free(s->rows);
    free(s->pos);
    free(s->rows_spare);
    free(s->row_mem_spare);
    free(s->carry_old);
    free(s->carry_single);
    s->rows = NULL;
    s->row_mem = NULL;
    s->pos = NULL;
    s->n_rows = 0;
}

static void pm_free(gr_pair_mem_t *m)
{
    free(m->alloc_part);
    free(m->ran);
    free(m->ran_now);
}

void gr_destroy(gr_state_t *s)
{
    if (!s)
        return;
    for (int i = 0; i < s->n_pm; i++)
        pm_free(&s->pm[i]);
    free(s->pm);
    free_rows(s);
    free(s->alloc_ids);
    free(s->last);
    free(s->seen_ids);
    free(s->map);
    free(s->slot);
    free(s->members);
    free(s->has_single);
    free(s->scratch);
    rates_free(&s->rs[0]);
    rates_free(&s->rs[1]);
    free(s->rs);
    free(s->rp->order);
    free(s->rp->pos_bit);
    free(s->rp->pick);
    free(s->rp);
    free(s->rp_now);
    free(s->node_max);
    free(s->room0);
    free(s->room);
    for (int t = 0; t < s->n_order_memo; t++)
        free(s->order_names[t]);
    free(s->order_names);
    free(s->order_memo);
    if (s->rng)
        gsl_rng_free(s->rng);
    free(s->py);
    free(s);
}

/* View index of job id, -1 when not active (after sync_view). */
static inline int find_job(const gr_state_t *s, int64_t id)
{
    if (s->use_slots)
        return id >= 0 && id < s->slot_cap ? s->slot[id] : -1;
    return index_of(s->map, s->n_seen, id);
}

/* rules=gavel: the time row k's jobs progressed since the fill at t0 (the
 * longer of a pair's), rounded as Gavel's (t0 + steps / rate) - t0.
 * same: the view lists the fill's ids in the fill's order. */
static double steps_credit(const gr_state_t *s, const view_t *v, const gr_last_t *l, double t0,
                           int same)
{
    double t = 0;
    for (int m = 0; m < 2; m++) {
        int j = l->id[m] < 0 ? -1 : same ? l->idx[m] : find_job(s, l->id[m]);
        double r = j >= 0 ? v->jobs[j].throughput : NAN;
        if (r > 0 && (t0 + (v->jobs[j].work_done - l->work0[m]) / r) - t0 > t)
            t = (t0 + (v->jobs[j].work_done - l->work0[m]) / r) - t0;
    }
    return t;
}

/* The memory of pair (a, b) (ids), NULL when none and !create. */
static gr_pair_mem_t *pm_find(gr_state_t *s, int64_t a, int64_t b, int create)
{
    int64_t lo = a < b ? a : b, hi = a < b ? b : a;
    int i = 0, j = s->n_pm;
    while (i < j) { /* first entry >= (lo, hi) */
        int m = (i + j) / 2;
        const int64_t *k = s->pm[m].id;
        if (k[0] < lo || (k[0] == lo && k[1] < hi))
            i = m + 1;
        else
            j = m;
    }
    if (i < s->n_pm && s->pm[i].id[0] == lo && s->pm[i].id[1] == hi)
        return &s->pm[i];
    if (!create)
        return NULL;
    gr_pair_mem_t *n = pu_alloc((size_t)s->n_pm + 1, sizeof *n);
    if (i)
        memcpy(n, s->pm, sizeof *n * (size_t)i);
    if (s->n_pm > i)
        memcpy(n + i + 1, s->pm + i, sizeof *n * (size_t)(s->n_pm - i));
    free(s->pm);
    s->pm = n;
    s->n_pm++;
    size_t T = (size_t)(s->n_types > 0 ? s->n_types : 1);
    n[i] = (gr_pair_mem_t){{lo, hi},
                           pu_alloc(T, sizeof(double)),
                           pu_alloc(T, sizeof(double)),
                           pu_alloc(T, sizeof(double))};
    return &n[i];
}

static int in_allocation(const gr_state_t *s, int64_t id);

/* rules=gavel: pair (a, b)'s deficit on t (view indices): half a round once
 * a recompute found both active (Gavel starts a pair's time at 0, not half a
 * round, so its first reset finds it half a round short), plus the time its
 * allocations promised, less the time it ran, up to the last recompute. */
static double pm_deficit(gr_state_t *s, const view_t *v, int a, int b, int t)
{
    const gr_pair_mem_t *m = pm_find(s, v->jobs[a].id, v->jobs[b].id, 0);
    double d =
        in_allocation(s, v->jobs[a].id) && in_allocation(s, v->jobs[b].id) ? v->round_len / 2 : 0;
    return m && t < s->n_types ? d + m->alloc_part[t] - m->ran[t] : d;
}

/* rules=gavel at a recompute: the pairs' promised and run time move to the
 * past; pairs with a finished job are forgotten. */
static void pm_reset(gr_state_t *s, double elapsed)
{
    for (int r = 0; r < s->n_rows; r++) {
        const gr_row_t *row = &s->rows[r];
        gr_pair_mem_t *m = row->id[1] >= 0 ? pm_find(s, row->id[0], row->id[1], 1) : NULL;
        for (int t = 0; m && t < s->n_types; t++)
            m->alloc_part[t] += row->x[t] * elapsed;
    }
    int k = 0;
    for (int i = 0; i < s->n_pm; i++) {
        gr_pair_mem_t *m = &s->pm[i];
        int alive = 1;
        for (int q = 0; q < 2; q++)
            alive &= find_job(s, m->id[q]) >= 0;
        if (!alive) {
            pm_free(m);
            continue;
        }
        for (int t = 0; t < s->n_types; t++) {
            m->ran[t] += m->ran_now[t];
            m->ran_now[t] = 0;
        }
        s->pm[k++] = *m;
    }
    s->n_pm = k;
}

/* Each type's largest node and GPUs up (as pu_room_init counts them), for
 * this call. */
static void note_nodes(gr_state_t *s, const view_t *v)
{
    int T = v->n_types;
    if (T > s->types_cap) {
        free(s->node_max);
        free(s->room0);
        free(s->room);
        s->types_cap = T;
        s->node_max = pu_alloc((size_t)T, sizeof *s->node_max);
        s->room0 = pu_alloc((size_t)T, sizeof *s->room0);
        s->room = pu_alloc((size_t)T, sizeof *s->room);
    }
    for (int t = 0; t < T; t++) {
        s->node_max[t] = 0;
        s->room0[t] = v->n_nodes <= 0 || !v->nodes ? v->types[t].total_gpus : 0;
    }
    for (int k = 0; k < v->n_nodes && v->nodes; k++) {
        const view_node_t *nd = &v->nodes[k];
        if (nd->type >= 0 && nd->type < T && nd->gpus > s->node_max[nd->type])
            s->node_max[nd->type] = nd->gpus;
        if (nd->up && nd->type >= 0 && nd->type < T)
            s->room0[nd->type] += nd->gpus;
    }
}

void gr_begin(gr_state_t *s, const view_t *v)
{
    s->calls++;
    s->rates_fixed = !s->opts.no_shortcuts && v->perf && v->perf->rates_fixed;
    s->view_same = sync_view(s, v);
    int same = s->view_same && s->fill_call == s->calls - 1; /* last's idx hold */
    /* every rate asked anew */
    if (!s->rates_fixed || s->rate_T != v->n_types) {
        gr_rates_t *r = &s->rs[s->rs_cur];
        rates_room(r, v->n_jobs, v->n_types);
        memset(r->known, 0, (size_t)v->n_jobs * (size_t)v->n_types);
        for (int j = 0; j < v->n_jobs; j++)
            r->key[j] = rkey_of(&v->jobs[j]);
        s->rate_T = v->n_types;
    }
    note_nodes(s, v);
    double dt = isnan(s->last_call) ? 0.0 : v->now - s->last_call;
    for (int k = 0; k < s->n_last && dt > 0; k++) {
        const gr_last_t *l = &s->last[k];
        double credit = s->opts.gavel_rules ? steps_credit(s, v, l, s->last_call, same) : dt;
        if (l->row >= 0 && l->row < s->n_rows)
            s->rows[l->row].recv[l->type] += credit;
        gr_pair_mem_t *m = s->opts.gavel_rules && l->id[1] >= 0 && l->type < s->n_types
                               ? pm_find(s, l->id[0], l->id[1], 1)
                               : NULL;
        if (m)
            m->ran_now[l->type] += credit;
    }
    int running = 0;
    for (int j = 0; j < v->n_jobs && !running; j++)
        running = v->jobs[j].state != VIEW_QUEUED;
    s->idle_again = s->opts.gavel_rules && dt == 0 && !isnan(s->last_call) && !running;
    s->last_call = v->now;
}

static int cmp_i64(const void *pa, const void *pb)
{
    int64_t a = *(const int64_t *)pa, b = *(const int64_t *)pb;
    return a < b ? -1 : a > b ? 1 : 0;
}

static long batch_changes(const view_t *v)
{
    long n = 0;
    for (int j = 0; j < v->n_jobs; j++)
        n += v->jobs[j].batch_changes;
    return n;
}

int gr_need_recompute(gr_state_t *s, const view_t *v, double min_interval)
{
    if (!s->have_alloc)
        return 1;
    /* rules=gavel: Gavel tests its _last_reset_time == 0 for "never", and a
     * recompute at time 0 leaves it 0 */
    int never = s->opts.gavel_rules && s->reset_time == 0;
    if (v->now - s->reset_time < min_interval && !s->idle_again && !never)
        return 0;
    if (s->n_alloc_ids != v->n_jobs)
        return 1;
    if (batch_changes(v) != s->alloc_batch_changes)
        return 1; /* same jobs: a sum that moved means some batch changed */
    if (!sync_view(s, v) || s->same_as_alloc < 0) {
        int same = 1;
        ensure_map(s);
        for (int j = 0; j < v->n_jobs && same; j++) /* the map is the view's ids, sorted */
            same = s->map[j].id == s->alloc_ids[j];
        s->same_as_alloc = same;
    }
    return !s->same_as_alloc;
}

/* rules=gavel: a row's deficit per type, kept across recomputes. */
typedef struct gr_deficit {
    int64_t id[2];
    const double *d;
} gr_deficit_t;

static int cmp_deficit(const void *pa, const void *pb)
{
    const gr_deficit_t *a = pa, *b = pb;
    int c = cmp_i64(&a->id[0], &b->id[0]);
    return c ? c : cmp_i64(&a->id[1], &b->id[1]);
}

static int deficit_less(const gr_deficit_t *a, const gr_deficit_t *b)
{
    return cmp_deficit(a, b) < 0;
}

/* rows' ids differ: a total order */
PU_DEFINE_MERGE_SORT(sort_deficits, gr_deficit_t, deficit_less)

/* Gavel's _reset_time_run_so_far: each old row's deficit grows by the time
 * its allocation promised since the last recompute less the time it got;
 * the new rows take theirs (0 for a new job; pairs: pm_deficit). */
static void carry_deficits(gr_state_t *s, const view_t *v, gr_row_t *rows, int n_rows,
                           const int (*jobs)[2], double now)
{
    int T = s->n_types, n = 0;
    gr_deficit_t *old = room_for(&s->carry_old, &s->carry_old_cap, /* and sort scratch */
                                 (2 * (size_t)s->n_rows + 1) * sizeof *old);
    const double **single = room_for(&s->carry_single, &s->carry_single_cap, /* by view index */
                                     ((size_t)v->n_jobs + 1) * sizeof *single);
    memset(single, 0, ((size_t)v->n_jobs + 1) * sizeof *single);
    for (int r = 0; r < s->n_rows; r++) {
        gr_row_t *o = &s->rows[r];
        for (int t = 0; t < T && o->deficit; t++)
            o->deficit[t] += o->x[t] * (now - s->reset_time) - (o->recv[t] - s->recv0);
        int j = o->id[1] < 0 && o->deficit ? find_job(s, o->id[0]) : -1;
        if (j >= 0 && !single[j]) /* a single job's row: found by its view index */
            single[j] = o->deficit;
        else if (o->deficit)
            old[n++] = (gr_deficit_t){{o->id[0], o->id[1]}, o->deficit};
    }
    sort_deficits(old, old + n, n);
    for (int r = 0; r < n_rows; r++) {
        rows[r].deficit = rows[r].x + 3 * (size_t)T; /* its slice of the block, zeroed */
        if (jobs[r][1] < 0 && single[jobs[r][0]]) {
            for (int t = 0; t < T; t++) /* (a few types: no memcpy call) */
                rows[r].deficit[t] = single[jobs[r][0]][t];
            continue;
        }
        gr_deficit_t key = {{rows[r].id[0], rows[r].id[1]}, NULL};
        int lo = 0, hi = n; /* the first old entry >= key */
        while (lo < hi) {
            int m = lo + (hi - lo) / 2;
            if (cmp_deficit(&old[m], &key) < 0)
                lo = m + 1;
            else
                hi = m;
        }
        const gr_deficit_t *hit = lo < n && !cmp_deficit(&old[lo], &key) ? &old[lo] : NULL;
        if (hit)
            memcpy(rows[r].deficit, hit->d, (size_t)T * sizeof *rows[r].deficit);
    }
}

void gr_set_allocation(gr_state_t *s, const view_t *v, int n_rows, const int (*jobs)[2],
                       const double *x)
{
    sync_view(s, v);
    int T = v->n_types;
    size_t mem_n = ((size_t)n_rows * 4 * (size_t)T + 1) * sizeof(double);
    gr_row_t *rows =
        room_for(&s->rows_spare, &s->rows_spare_cap, ((size_t)n_rows + 1) * sizeof *rows);
    double *mem = room_for(&s->row_mem_spare, &s->row_mem_spare_cap, mem_n);
    memset(mem, 0, mem_n);
    for (int r = 0; r < n_rows; r++) {
        rows[r].id[0] = v->jobs[jobs[r][0]].id;
        rows[r].id[1] = jobs[r][1] >= 0 ? v->jobs[jobs[r][1]].id : -1;
        rows[r].x = mem + (size_t)r * 4 * (size_t)T; /* x, recv, prio, deficit */
        rows[r].recv = rows[r].x + T;
        rows[r].prio = rows[r].x + 2 * (size_t)T;
        rows[r].deficit = NULL; /* carry_deficits' */
    }
    if (s->opts.gavel_rules && (s->n_types == v->n_types || !s->n_rows)) {
        s->n_types = v->n_types;
        carry_deficits(s, v, rows, n_rows, jobs, v->now);
        pm_reset(s, v->now - s->reset_time);
    }
    s->recv0 = s->opts.gavel_rules && s->opts.half_round ? v->round_len / 2 : 0;
    /* the new rows in use, the old ones spare */
    void *old_rows = s->rows, *old_mem = s->row_mem;
    size_t old_rows_cap = s->rows_cap, old_mem_cap = s->row_mem_cap;
    s->rows = rows;
    s->rows_cap = s->rows_spare_cap;
    s->row_mem = mem;
    s->row_mem_cap = s->row_mem_spare_cap;
    s->rows_spare = old_rows;
    s->rows_spare_cap = old_rows_cap;
    s->row_mem_spare = old_mem;
    s->row_mem_spare_cap = old_mem_cap;
    s->n_types = T;
    s->n_rows = n_rows;
    void *p = s->pos;
    s->pos = room_for(&p, &s->pos_cap, ((size_t)T * ((size_t)n_rows + 1) + 1) * sizeof *s->pos);
    for (int t = 0; t < T; t++)
        s->pos[(size_t)t * ((size_t)n_rows + 1)] = 0;
    for (int r = 0; r < n_rows; r++) {
        gr_row_t *row = &s->rows[r];
        for (int t = 0; t < T; t++) {
            row->recv[t] = s->recv0;
            row->x[t] = x[(size_t)r * T + (size_t)t];
        }
        for (int t = 0; t < T; t++) {
            int *pt = &s->pos[(size_t)t * ((size_t)n_rows + 1)];
            if (row->x[t] > 0)
                pt[1 + pt[0]++] = r;
        }
    }
    p = s->alloc_ids;
    s->alloc_ids = room_for(&p, &s->alloc_ids_cap, ((size_t)v->n_jobs + 1) * sizeof *s->alloc_ids);
    ensure_map(s);
    for (int j = 0; j < v->n_jobs; j++) /* the map is the view's ids, sorted */
        s->alloc_ids[j] = s->map[j].id;
    s->n_alloc_ids = v->n_jobs;
    s->alloc_batch_changes = batch_changes(v);
    s->have_alloc = 1;
    s->reset_time = v->now;
    s->n_last = 0; /* rows were replaced: nothing to credit */
    s->same_as_alloc = -1;
    s->members_ok = 0;
    s->rows_gen++;
    s->pair_rows = 0;
    for (int r = 0; r < n_rows; r++)
        s->pair_rows |= s->rows[r].id[1] >= 0;
}

/* ---- filling ----------------------------------------------------------- */

/* A candidate for a type's queue. */
typedef struct entry {
    int row;    /* allocation row, or -1 - job for a job run from leftovers */
    int job[2]; /* view indices */
    double prio, deficit, x;
    int seq; /* tie-break: position in row order */
} entry_t;

static int cmp_entry(const void *pa, const void *pb)
{
    const entry_t *a = pa, *b = pb;
    if (a->prio != b->prio)
        return a->prio > b->prio ? -1 : 1;
    if (a->deficit != b->deficit)
        return a->deficit > b->deficit ? -1 : 1;
    if (a->x != b->x)
        return a->x > b->x ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

/* One fill's view of the jobs: the round state (its rates) and each
 * allocation row's members' view indices. */
typedef struct fill_ctx {
    gr_state_t *s;
    int (*members)[2]; /* per row: view indices, -1 not active (or no second) */
} fill_ctx_t;

/* pu_rate() of job j on type t: the fewest nodes from the type's largest
 * node (as pu_min_nodes finds it), asked at the first need in this call, or
 * kept from an earlier call (see gr_state). */
static double ask_rate(gr_state_t *s, const view_t *v, int j, int t)
{
    gr_rates_t *r = &s->rs[s->rs_cur];
    const view_job_t *vj = &v->jobs[j];
    size_t T = (size_t)v->n_types, k = (size_t)j * T + (size_t)t;
    gr_rkey_t *key = &r->key[j];
    if (key->workload != vj->workload || key->batch != vj->batch_size ||
        key->gpus != vj->gpus_requested) {
        memset(r->known + (size_t)j * T, 0, T);
        *key = rkey_of(vj);
    }
    if (!r->known[k]) {
        int g = vj->gpus_requested, big = s->node_max[t];
        int nodes = big <= 0 || g <= big ? 1 : (g + big - 1) / big;
        r->rate[k] = v->perf && v->perf->throughput
                         ? v->perf->throughput(v->perf->ctx, vj, t, g, nodes, 0)
                         : NAN;
        r->known[k] = 1;
    }
    return r->rate[k];
}

static inline double state_rate(gr_state_t *s, const view_t *v, int j, int t)
{
    const gr_rates_t *r = &s->rs[s->rs_cur];
    const view_job_t *vj = &v->jobs[j];
    size_t k = (size_t)j * (size_t)v->n_types + (size_t)t;
    const gr_rkey_t *key = &r->key[j];
    if (r->known[k] && key->workload == vj->workload && key->batch == vj->batch_size &&
        key->gpus == vj->gpus_requested)
        return r->rate[k];
    return ask_rate(s, v, j, t);
}

double gr_rate(gr_state_t *s, const view_t *v, int j, int t)
{
    return state_rate(s, v, j, t);
}

static inline double rate_of(const view_t *v, const fill_ctx_t *c, int j, int t)
{
    return state_rate(c->s, v, j, t);
}

/* A single job may run on a type when it fits and its rate is not known 0. */
static inline int single_usable(const view_t *v, const fill_ctx_t *c, int j, int t)
{
    int g = v->jobs[j].gpus_requested;
    if (g <= 0 || g > v->types[t].total_gpus)
        return 0;
    double r = rate_of(v, c, j, t);
    return isnan(r) || r > 0;
}

/* A pair may share type t when the perf model gives both a rate there. */
static int pair_usable(const view_t *v, int a, int b, int t)
{
    double r[2];
    int g = v->jobs[a].gpus_requested;
    return g == v->jobs[b].gpus_requested && g <= v->types[t].total_gpus &&
           v->perf->pair_throughput &&
           v->perf->pair_throughput(v->perf->ctx, &v->jobs[a], &v->jobs[b], t, g, r) == 0 &&
           r[0] > 0 && r[1] > 0;
}

/* pu_best_rate() from the cached rates. */
static double best_rate(const view_t *v, const fill_ctx_t *c, int j)
{
    double best = NAN;
    for (int t = 0; t < v->n_types; t++) {
        double r = rate_of(v, c, j, t);
        if (single_usable(v, c, j, t) && !isnan(r) && (isnan(best) || r > best))
            best = r;
    }
    return best;
}

/* Types fastest first: by the mean over jobs of rate / the job's best rate. */
static void type_order(const view_t *v, const fill_ctx_t *c, int *order)
{
    double *score = pu_alloc((size_t)v->n_types, sizeof *score);
    for (int j = 0; j < v->n_jobs; j++) {
        double best = best_rate(v, c, j);
        for (int t = 0; t < v->n_types && best > 0; t++) {
            double r = rate_of(v, c, j, t);
            if (r > 0)
                score[t] += r / best;
        }
    }
    for (int t = 0; t < v->n_types; t++)
        order[t] = t;
    for (int a = 1; a < v->n_types; a++) /* insertion sort: few types */
        for (int b = a; b > 0 && score[order[b]] > score[order[b - 1]]; b--) {
            int tmp = order[b];
            order[b] = order[b - 1];
            order[b - 1] = tmp;
        }
    free(score);
}

/* rules=gavel: ties go by Gavel's priority list order, each job as it
 * arrived followed by its pairs with the jobs before it (view order is
 * arrival order). */
static int gavel_seq(const view_t *v, int a, int b)
{
    int hi = b > a ? b : a, lo = b < 0 ? -1 : b > a ? a : b;
    return hi * (v->n_jobs + 1) + 1 + lo;
}

static int entry_less(const entry_t *a, const entry_t *b)
{
    return cmp_entry(a, b) < 0;
}

/* cmp_entry is a total order (seq differs; priorities are not NAN): the
 * result is qsort's */
PU_DEFINE_MERGE_SORT(sort_entries, entry_t, entry_less)

/* A row's priority on a type from its allocation x and received time
 * (recv_raw: row->recv[t], from recv0). */
static inline double prio_of(const gr_state_t *s, const view_t *v, double x, double recv_raw,
                             double elapsed)
{
    double recv = recv_raw - s->recv0;
    if (x > 0 && s->opts.half_round && s->recv0 > 0) /* Gavel's sum, from half a round */
        return x / recv_raw;
    if (x > 0 && s->opts.half_round) /* the share's denominator is common to all rows */
        return x / (recv + v->round_len / 2);
    if (x > 0)
        return recv > 0 && elapsed > 0 ? x / (recv / elapsed) : x * GR_NEW_PRIORITY;
    return 0.0;
}

/* The queue of type t, unsorted: allocation rows with every member active,
 * then every active job without a single row of its own (priority 0).
 * Entries of priority 0 are left out under skip_zero (they are never taken).
 * Returns the count; *nan when a priority is NAN. */
static int build_queue(gr_state_t *s, const view_t *v, const fill_ctx_t *c, int t,
                       const unsigned char *has_single, int skip_zero, entry_t *q, int *nan)
{
    int n = 0, n_look = s->n_rows;
    double elapsed = v->now - s->reset_time;
    const int *look = NULL; /* under skip_zero: only rows with x > 0 (the others' priority is 0) */
    if (skip_zero && t < s->n_types && s->pos) {
        look = &s->pos[(size_t)t * ((size_t)s->n_rows + 1)];
        n_look = *look++;
    }
    for (int i = 0; i < n_look; i++) {
        int r = look ? look[i] : i;
        gr_row_t *row = &s->rows[r];
        int a = c->members[r][0], b = c->members[r][1];
        double x = t < s->n_types ? row->x[t] : 0.0;
        double recv = t < s->n_types ? row->recv[t] - s->recv0 : 0.0;
        double prio = t < s->n_types ? prio_of(s, v, x, row->recv[t], elapsed) : 0.0;
        if (t < s->n_types)
            row->prio[t] = prio;
        if (a < 0 || (row->id[1] >= 0 && b < 0))
            continue; /* a member finished */
        if (isnan(prio))
            *nan = 1;
        else if (skip_zero && !(prio > 0))
            continue;
        if (b < 0 ? !single_usable(v, c, a, t) : !(x > 0) || !pair_usable(v, a, b, t))
            continue; /* pairs run only where they are allocated and can share */
        double deficit = !row->deficit      ? x * elapsed - recv
                         : b >= 0 && a >= 0 ? pm_deficit(s, v, a, b, t)
                         : t < s->n_types   ? row->deficit[t]
                                            : 0;
        q[n++] =
            (entry_t){r, {a, b}, prio, deficit, x, s->opts.gavel_rules ? gavel_seq(v, a, b) : r};
    }
    for (int j = 0; j < v->n_jobs && !skip_zero; j++)
        if (!has_single[j] && single_usable(v, c, j, t))
            q[n++] = (entry_t){-1 - j, {j, -1},
                               0.0,    0.0,
                               0.0,    s->opts.gavel_rules ? gavel_seq(v, j, -1) : s->n_rows + j};
    return n;
}

/* Moves q's entries of positive priority first (no NAN among them); returns
 * how many. */
static int split_positive(entry_t *q, int n)
{
    int k = 0;
    for (int i = 0; i < n; i++)
        if (q[i].prio > 0) {
            entry_t e = q[i];
            q[i] = q[k];
            q[k++] = e;
        }
    return k;
}

/* 1 when the fill of a type would take every entry of q it may take
 * (members not taken yet, a positive priority under skip_zero) whatever
 * their order: their jobs are distinct, each asks for GPUs, and together
 * they fit the room. Then q need not be sorted: the same entries are chosen
 * (and emit() orders the chosen by its own order). `mark` is all 0 on entry
 * and on return. */
static int all_fit(const view_t *v, const entry_t *q, int n, const unsigned char *taken,
                   int skip_zero, int room, unsigned char *mark)
{
    long want = 0;
    int ok = 1, i = 0;
    for (; i < n && ok; i++) {
        int a = q[i].job[0], b = q[i].job[1];
        if (taken[a] || (b >= 0 && taken[b]) || (skip_zero && !(q[i].prio > 0)))
            continue;
        int g = v->jobs[a].gpus_requested;
        ok = g > 0 && !mark[a] && (b < 0 || !mark[b]);
        mark[a] = 1;
        if (b >= 0)
            mark[b] = 1;
        want += g;
        ok = ok && want <= room;
    }
    for (int k = 0; k < i; k++) {
        mark[q[k].job[0]] = 0;
        if (q[k].job[1] >= 0)
            mark[q[k].job[1]] = 0;
    }
    return ok;
}

typedef struct chosen {
    entry_t e;
    int type, gpus, kept;
} chosen_t;

static int cmp_chosen(const void *pa, const void *pb)
{
    const chosen_t *a = pa, *b = pb;
    if (a->kept != b->kept)
        return b->kept - a->kept; /* kept jobs first */
    if (a->gpus != b->gpus)
        return b->gpus - a->gpus; /* then large jobs first */
    return a->e.seq - b->e.seq;
}

static int chosen_less(const chosen_t *a, const chosen_t *b)
{
    return cmp_chosen(a, b) < 0;
}

/* stable, as glibc's qsort (a merge sort): the same order where seq ties */
PU_DEFINE_MERGE_SORT(sort_chosen, chosen_t, chosen_less)

/* 1 when job j (-1: none) holds exactly this type and count. */
static inline int holds_as(const view_t *v, int j, int type, int gpus)
{
    if (j < 0)
        return 1;
    const view_job_t *vj = &v->jobs[j];
    return pu_holds(vj) && vj->cur_type == type && vj->cur_gpus == gpus;
}

/* 1 when every member already holds exactly this type and count. */
static inline int keeps(const view_t *v, const entry_t *e, int type, int gpus)
{
    return holds_as(v, e->job[0], type, gpus) && holds_as(v, e->job[1], type, gpus);
}

/* cmp_chosen's order as one number (kept first, GPUs descending, seq
 * ascending), with the entry's place. */
typedef struct chosen_key {
    uint64_t key;
    int i;
} chosen_key_t;

static int key_less(const chosen_key_t *a, const chosen_key_t *b)
{
    return a->key < b->key;
}

/* A stable sort of a[0..n) (equal keys keep their order, as sort_chosen's
 * equal entries) for input made of a few ascending runs, as the chosen are
 * (one per type, in queue order): each pass merges neighbouring runs, ties
 * from the left one, until one is left: one pass over sorted input. tmp:
 * room for n. */
static void sort_keys(chosen_key_t *a, chosen_key_t *tmp, int n)
{
    for (int runs = 2; runs > 1;) {
        runs = 0;
        for (int i = 0; i < n; runs++) {
            int m = i + 1, e;
            while (m < n && !key_less(&a[m], &a[m - 1]))
                m++;
            for (e = m < n ? m + 1 : n; e < n && !key_less(&a[e], &a[e - 1]);)
                e++;
            if (m < n) { /* merge a[i..m) and a[m..e) */
                int l = 0, h = m - i, r = m, o = i;
                memcpy(tmp, a + i, sizeof *a * (size_t)h);
                while (l < h && r < e)
                    a[o++] = key_less(&a[r], &tmp[l]) ? a[r++] : tmp[l++];
                while (l < h)
                    a[o++] = tmp[l++];
            }
            i = e;
        }
    }
}

/* Adds the chosen entries to the plan, in cmp_chosen's order (tmp: room for
 * n chosen). Returns 1 when that order was ch[k[0].i], ch[k[1].i], ... of
 * ch as given, k at tmp. */
static int emit(chosen_t *ch, chosen_t *tmp, int n, plan_t *plan)
{
    chosen_key_t *k = (chosen_key_t *)tmp; /* n keys and their sort's scratch fit in n chosen */
    int keyed = 1;
    for (int i = 0; i < n && keyed; i++) {
        keyed = ch[i].gpus >= 0 && ch[i].e.seq >= 0 && (ch[i].kept == 0 || ch[i].kept == 1);
        k[i] = (chosen_key_t){(uint64_t)!ch[i].kept << 63 |
                                  (uint64_t)(INT32_MAX - (ch[i].gpus < 0 ? 0 : ch[i].gpus)) << 32 |
                                  (uint32_t)ch[i].e.seq,
                              i};
    }
    if (keyed) {
        sort_keys(k, k + n, n);
    } else {
        sort_chosen(ch, tmp, n);
        for (int i = 0; i < n; i++)
            k[i].i = i;
    }
    plan_reserve(plan, 2 * n);
    for (int o = 0; o < n; o++) {
        int i = k[o].i;
        int a = ch[i].e.job[0], b = ch[i].e.job[1];
        int ia = plan_run_reserved(plan, a, ch[i].type, ch[i].gpus);
        if (b >= 0) {
            int ib = plan_run_reserved(plan, b, ch[i].type, ch[i].gpus);
            plan->allocs[ia].pack_with = b;
            plan->allocs[ib].pack_with = a;
        }
    }
    return keyed;
}

/* 1 when job id was active at the last recompute. */
static int in_allocation(const gr_state_t *s, int64_t id)
{
    return s->n_alloc_ids &&
           bsearch(&id, s->alloc_ids, (size_t)s->n_alloc_ids, sizeof id, cmp_i64) != NULL;
}

/* The greedy fill of type t from the sorted entries q[0..n). */
static void take(const gr_state_t *s, const view_t *v, const entry_t *q, int n, int t,
                 int skip_zero, unsigned char *taken, pu_room_t *room, chosen_t *ch, int *n_ch)
{
    for (int i = 0; i < n && room->room[t] > 0; i++) {
        const entry_t *e = &q[i];
        int a = e->job[0], b = e->job[1];
        int g = v->jobs[a].gpus_requested;
        if (taken[a] || (b >= 0 && taken[b]) || g > room->room[t])
            continue;
        if (skip_zero && !(e->prio > 0))
            continue;
        taken[a] = 1;
        if (b >= 0)
            taken[b] = 1;
        room->room[t] -= g;
        if (e->row < 0 && s->opts.new_jobs_wait &&
            (b < 0 || !in_allocation(s, v->jobs[a].id) || !in_allocation(s, v->jobs[b].id)))
            continue; /* chosen, but Gavel's placement gives it no workers */
        ch[(*n_ch)++] = (chosen_t){*e, t, g, keeps(v, e, t, g)};
    }
}

/* gr_set_leftover_pairs: the priority-0 entries z[0..n) of type t and every
 * pair of jobs not yet taken, of equal GPU counts, that may share t and has
 * no row of its own (priority 0, pm_deficit), sorted. */
static entry_t *leftover_queue(gr_state_t *s, const view_t *v, const fill_ctx_t *c, int t,
                               const unsigned char *taken, const entry_t *z, int n, int *out_n)
{
    int J = v->n_jobs, nu = 0;
    int *u = pu_alloc((size_t)J + 1, sizeof *u);
    for (int j = 0; j < J; j++)
        if (!taken[j] && single_usable(v, c, j, t))
            u[nu++] = j;
    unsigned char *paired = pu_alloc((size_t)J * J + 1, 1); /* pairs that have a row */
    for (int r = 0; r < s->n_rows; r++) {
        int a = c->members[r][0], b = c->members[r][1];
        if (a >= 0 && b >= 0)
            paired[(size_t)a * J + b] = paired[(size_t)b * J + a] = 1;
    }
    size_t cap = (size_t)n + (size_t)nu * (nu > 0 ? nu - 1 : 0) / 2 + 1;
    entry_t *q = pu_alloc(2 * cap, sizeof *q); /* and sort scratch */
    memcpy(q, z, sizeof *q * (size_t)n);
    int m = n;
    for (int i = 0; i < nu; i++)
        for (int k = i + 1; k < nu; k++) {
            int a = u[i], b = u[k];
            if (paired[(size_t)a * J + b] || !pair_usable(v, a, b, t))
                continue;
            q[m++] = (entry_t){-1, {a, b}, 0.0, pm_deficit(s, v, a, b, t), 0.0, gavel_seq(v, a, b)};
        }
    sort_entries(q, q + m, m);
    free(paired);
    free(u);
    *out_n = m;
    return q;
}

/* Each row's members' view indices and which jobs have a single row: kept
 * while the view lists the same ids and the rows are the same. */
static void find_members(gr_state_t *s, const view_t *v)
{
    if (sync_view(s, v) && s->members_ok)
        return;
    int J = v->n_jobs;
    if (s->n_rows > s->members_cap) {
        free(s->members);
        s->members_cap = s->n_rows + s->n_rows / 2 + 16;
        s->members = pu_alloc((size_t)s->members_cap, sizeof *s->members);
    }
    if (J > s->single_cap) {
        free(s->has_single);
        s->single_cap = J + J / 2 + 16;
        s->has_single = pu_alloc((size_t)s->single_cap, 1);
    }
    if (J)
        memset(s->has_single, 0, (size_t)J);
    for (int r = 0; r < s->n_rows; r++) {
        s->members[r][0] = find_job(s, s->rows[r].id[0]);
        s->members[r][1] = s->rows[r].id[1] >= 0 ? find_job(s, s->rows[r].id[1]) : -1;
        if (s->rows[r].id[1] < 0 && s->members[r][0] >= 0)
            s->has_single[s->members[r][0]] = 1;
    }
    s->members_ok = 1;
}

/* The order in which gr_fill visits the types. */
static void visit_order(gr_state_t *s, const view_t *v, const fill_ctx_t *c, int shuffle_types,
                        int *order)
{
    if (shuffle_types && s->py) {
        python_order(s, v, order); /* whatever the fastest-first order */
        return;
    }
    if (s->opts.gavel_rules && !shuffle_types)
        gavel_order(s, v, order); /* Gavel's code: fixed for its Perf and Packing policies */
    else
        type_order(v, c, order);
    if (shuffle_types && v->n_types > 1) {
        if (!s->rng) {
            s->rng = gsl_rng_alloc(gsl_rng_mt19937);
            if (!s->rng) {
                fprintf(stderr, "mlsched: out of memory in a policy\n");
                abort();
            }
            gsl_rng_set(s->rng, (unsigned long)v->seed);
        }
        gsl_ran_shuffle(s->rng, order, (size_t)v->n_types, sizeof *order);
    }
}

/* Under skip_zero, type t's fill in one pass over its rows with x > 0, for
 * the common case: the entries its queue would hold that it may take
 * (members active and not taken yet, a positive priority, usable on t) have
 * distinct jobs, each asking for GPUs, and together fit the room. fill_type
 * then takes every one of them in queue order (all_fit), which is row order;
 * so does this, writing the rows' priorities as build_queue does. Returns 0
 * when that does not hold, or a priority is NAN, having changed nothing but
 * those priorities (which build_queue then writes alike): the caller builds
 * the queue. cand: room for the rows. */
static int fill_fits(gr_state_t *s, const view_t *v, const fill_ctx_t *c, int t,
                     unsigned char *taken, unsigned char *mark, pu_room_t *room, int *cand,
                     chosen_t *ch, int *n_ch)
{
    if (!(t < s->n_types && s->pos))
        return 0;
    const int *look = &s->pos[(size_t)t * ((size_t)s->n_rows + 1)];
    int n_look = *look++, n = 0, ok = 1;
    long want = 0;
    double elapsed = v->now - s->reset_time;
    for (int i = 0; i < n_look && ok; i++) {
        int r = look[i];
        gr_row_t *row = &s->rows[r];
        int a = c->members[r][0], b = c->members[r][1];
        double x = row->x[t], prio = prio_of(s, v, x, row->recv[t], elapsed);
        row->prio[t] = prio;
        if (a < 0 || (row->id[1] >= 0 && b < 0))
            continue;
        if (isnan(prio))
            ok = 0;
        else if (!(prio > 0) ||
                 (b < 0 ? !single_usable(v, c, a, t) : !(x > 0) || !pair_usable(v, a, b, t)) ||
                 taken[a] || (b >= 0 && taken[b]))
            continue;
        int g = v->jobs[a].gpus_requested; /* as all_fit */
        ok = ok && g > 0 && !mark[a] && (b < 0 || !mark[b]);
        mark[a] = 1;
        if (b >= 0)
            mark[b] = 1;
        want += g;
        ok = ok && want <= room->room[t];
        cand[n++] = r;
    }
    for (int k = 0; k < n; k++) {
        int r = cand[k], a = c->members[r][0], b = c->members[r][1];
        mark[a] = 0;
        if (b >= 0)
            mark[b] = 0;
        if (!ok)
            continue;
        int g = v->jobs[a].gpus_requested;
        taken[a] = 1;
        if (b >= 0)
            taken[b] = 1;
        room->room[t] -= g;
        chosen_t *o = &ch[(*n_ch)++];
        o->e.row = r;
        o->e.job[0] = a;
        o->e.job[1] = b;
        o->e.prio = s->rows[r].prio[t];
        o->e.deficit = 0.0;
        o->e.x = s->rows[r].x[t];
        o->e.seq = s->opts.gavel_rules ? gavel_seq(v, a, b) : r;
        o->type = t;
        o->gpus = g;
        o->kept = holds_as(v, a, t, g) && (b < 0 || holds_as(v, b, t, g));
    }
    return ok;
}

/* Fills type t from its queue q[0..nq) (unsorted; q has room for 2 nq). */
static void fill_type(gr_state_t *s, const view_t *v, const fill_ctx_t *c, int t, entry_t *q,
                      int nq, int nan, int skip_zero, unsigned char *taken, unsigned char *mark,
                      pu_room_t *room, chosen_t *ch, int *n_ch)
{
    int npos;
    if (nan) { /* not a total order: the whole queue sorted and taken, as always */
        sort_entries(q, q + nq, nq);
        for (npos = 0; npos < nq && q[npos].prio > 0;)
            npos++;
        take(s, v, q, npos, t, skip_zero, taken, room, ch, n_ch);
        if (s->leftover_pairs && !skip_zero && room->room[t] > 0) {
            int nl;
            entry_t *lq = leftover_queue(s, v, c, t, taken, q + npos, nq - npos, &nl);
            take(s, v, lq, nl, t, skip_zero, taken, room, ch, n_ch);
            free(lq);
        } else {
            take(s, v, q + npos, nq - npos, t, skip_zero, taken, room, ch, n_ch);
        }
        return;
    } else {
        npos = split_positive(q, nq);
        if (!all_fit(v, q, npos, taken, skip_zero, room->room[t], mark))
            sort_entries(q, q + nq, npos);
    }
    take(s, v, q, npos, t, skip_zero, taken, room, ch, n_ch);
    entry_t *z = q + npos;
    int nz = nq - npos;
    if (s->leftover_pairs && !skip_zero && room->room[t] > 0) {
        entry_t *lq = leftover_queue(s, v, c, t, taken, z, nz, &nz); /* sorts */
        take(s, v, lq, nz, t, skip_zero, taken, room, ch, n_ch);
        free(lq);
    } else if (nz && room->room[t] > 0 && !skip_zero) {
        if (!all_fit(v, z, nz, taken, skip_zero, room->room[t], mark))
            sort_entries(z, q + nq, nz);
        take(s, v, z, nz, t, skip_zero, taken, room, ch, n_ch);
    }
}

/* Replay: a fill whose inputs are the last call's, less the jobs that left,
 * gives that fill's plan less those jobs. Made (record) when every type took
 * its queue whole (fill_fits), under skip_zero (no leftovers: a job without a
 * row never runs), without pairs and under fixed rates. It holds at the next
 * call when the rows, the types' order and the GPUs up are the same; no row
 * has a member now that it lacked then; every job of a row keeps the key its
 * rates were asked for (so every usable check answers alike); and every
 * priority of the types' lists is again positive where it was. Then each
 * type's queue holds the same entries less those of jobs that left, which
 * fit as before: the same ones are taken, in the same order. When each chosen
 * job also again holds, or again does not hold, its type and count, and the
 * chosen's keys (emit) are still ascending in the recorded order (view
 * indices shift when jobs leave), emit would give them in that order. The
 * priorities are written as a fill writes them, and last (the chosen, in
 * fill order) keeps the jobs still there with their view indices and work
 * marks now. Returns 0 when it does not hold (the priorities written alike). */
static int replay(gr_state_t *s, const view_t *v, plan_t *plan, int skip_zero, int shuffle,
                  const int *order)
{
    gr_replay_t *rp = s->rp;
    int T = v->n_types;
    if (!rp->ok || rp->call != s->calls - 1 || s->fill_call != s->calls - 1 ||
        rp->gen != s->rows_gen || !s->rates_fixed || !s->pos || rp->skip_zero != skip_zero ||
        rp->shuffle != shuffle || rp->T != T || s->n_types != T || v->n_jobs > GR_SEQ_JOBS)
        return 0;
    for (int t = 0; t < T; t++)
        if (order[t] != rp->order[t] || s->room0[t] != rp->room0[t])
            return 0;
    const gr_rates_t *rt = &s->rs[s->rs_cur];
    unsigned char *bit = rp->pos_bit;
    double elapsed = v->now - s->reset_time;
    int ok = 1;
    for (int t = 0; t < T; t++) {
        const int *pt = &s->pos[(size_t)t * ((size_t)s->n_rows + 1)];
        for (int i = 0; i < pt[0]; i++) {
            gr_row_t *row = &s->rows[pt[1 + i]];
            double prio = prio_of(s, v, row->x[t], row->recv[t], elapsed);
            int a = s->members[pt[1 + i]][0];
            row->prio[t] = prio;
            if (a < 0) {
                bit[i] &= (unsigned char)~GR_BIT_ACTIVE; /* left: no longer a candidate */
                continue;
            }
            const view_job_t *vj = &v->jobs[a];
            const gr_rkey_t *key = &rt->key[a];
            ok &= key->workload == vj->workload && key->batch == vj->batch_size &&
                  key->gpus == vj->gpus_requested && (bit[i] & GR_BIT_ACTIVE) && !isnan(prio) &&
                  (prio > 0) == !!(bit[i] & GR_BIT_POSITIVE);
        }
        bit += pt[0];
    }
    /* the chosen in the plan's order, written as they are checked (the
     * plan is taken back when the check fails); each one's view index now
     * (-1 left) by its index into last, where pick is a permutation of last
     * (as record makes it) */
    int *now = s->rp_now, by_last = rp->n == s->n_last, n0 = plan->n;
    uint64_t prev = 0;
    plan_reserve(plan, rp->n);
    for (int o = 0; o < rp->n && ok; o++) {
        const gr_last_t *l = &s->last[rp->pick[o] >> 1];
        int j = s->view_same ? l->idx[0] : find_job(s, l->id[0]);
        now[by_last ? rp->pick[o] >> 1 : o] = j;
        if (j < 0)
            continue;
        int g = v->jobs[j].gpus_requested, kept = rp->pick[o] & 1;
        int seq = s->opts.gavel_rules ? gavel_seq(v, j, -1) : l->row;
        ok = holds_as(v, j, l->type, g) == kept && g >= 0 && seq >= 0;
        uint64_t key = ok ? (uint64_t)!kept << 63 | (uint64_t)(INT32_MAX - g) << 32 | (uint32_t)seq
                          : 0;
        ok = ok && key >= prev;
        prev = key;
        if (ok)
            plan_run_reserved(plan, j, l->type, g);
    }
    if (!ok) {
        plan->n = n0;
        return 0;
    }
    int *at = s->rp_at, n_last = 0, n = 0; /* last's entries kept, and where they went */
    for (int i = 0; i < s->n_last; i++) {
        gr_last_t *l = &s->last[i];
        int j = by_last ? now[i] : s->view_same ? l->idx[0] : find_job(s, l->id[0]);
        at[i] = j < 0 ? -1 : n_last;
        if (j < 0)
            continue;
        gr_last_t *d = &s->last[n_last++];
        if (d != l)
            *d = *l;
        d->idx[0] = j;
        d->work0[0] = v->jobs[j].work_done;
    }
    for (int o = 0; o < rp->n && n_last < s->n_last; o++) /* none left: pick stays */
        if (at[rp->pick[o] >> 1] >= 0)
            rp->pick[n++] = at[rp->pick[o] >> 1] << 1 | (rp->pick[o] & 1);
    rp->n = n_last < s->n_last ? n : rp->n;
    s->n_last = n_last;
    s->fill_call = rp->call = s->calls;
    return 1;
}

/* Notes the fill just made for replay: its chosen ch[k[o].i] in the plan's
 * order (ch in last's order). */
static void record(gr_state_t *s, const view_t *v, int skip_zero, int shuffle, const int *order,
                   const chosen_t *ch, const chosen_key_t *k, int n)
{
    gr_replay_t *rp = s->rp;
    int T = v->n_types, n_bits = 0;
    for (int t = 0; t < T; t++)
        n_bits += s->pos[(size_t)t * ((size_t)s->n_rows + 1)];
    void *p = rp->order;
    rp->order = room_for(&p, &rp->order_cap, (2 * (size_t)T + 1) * sizeof *rp->order);
    rp->room0 = rp->order + T;
    p = rp->pos_bit;
    rp->pos_bit = room_for(&p, &rp->bits_cap, (size_t)n_bits + 1);
    p = rp->pick;
    rp->pick = room_for(&p, &rp->pick_cap, ((size_t)n + 1) * sizeof *rp->pick);
    if ((size_t)n + 1 > s->rp_now_cap) { /* replay's scratch: n chosen, and last */
        free(s->rp_now);
        s->rp_now_cap = (size_t)n + (size_t)n / 2 + 16;
        s->rp_now = pu_alloc(2 * s->rp_now_cap, sizeof *s->rp_now);
        s->rp_at = s->rp_now + s->rp_now_cap;
    }
    for (int t = 0; t < T; t++) {
        rp->order[t] = order[t];
        rp->room0[t] = s->room0[t];
    }
    unsigned char *bit = rp->pos_bit;
    for (int t = 0; t < T; t++) {
        const int *pt = &s->pos[(size_t)t * ((size_t)s->n_rows + 1)];
        for (int i = 0; i < pt[0]; i++)
            *bit++ = (unsigned char)((s->rows[pt[1 + i]].prio[t] > 0 ? GR_BIT_POSITIVE : 0) |
                                     (s->members[pt[1 + i]][0] >= 0 ? GR_BIT_ACTIVE : 0));
    }
    for (int o = 0; o < n; o++)
        rp->pick[o] = k[o].i << 1 | (ch[k[o].i].kept != 0);
    rp->n = n;
    rp->T = T;
    rp->n_bits = n_bits;
    rp->call = s->calls;
    rp->gen = s->rows_gen;
    rp->skip_zero = skip_zero;
    rp->shuffle = shuffle;
    rp->ok = 1;
}

void gr_fill(gr_state_t *s, const view_t *v, plan_t *plan, int skip_zero, int shuffle_types)
{
    int J = v->n_jobs, T = v->n_types;
    find_members(s, v);
    /* scratch: taken + mark, order and fill_fits' rows, queue (and its sort's room), chosen
     * (and its) */
    size_t n_q = (size_t)(s->n_rows + J) * 2 + 1;
    size_t off_order = ((size_t)J * 2 + 15) / 16 * 16;
    size_t off_q = off_order + (((size_t)T + (size_t)s->n_rows) * sizeof(int) + 15) / 16 * 16;
    size_t off_ch = off_q + n_q * sizeof(entry_t);
    size_t need = off_ch + ((size_t)J * 2 + 1) * sizeof(chosen_t);
    char *mem = room_for(&s->scratch, &s->scratch_cap, need);
    if (T)
        memcpy(s->room, s->room0, (size_t)T * sizeof *s->room);
    pu_room_t room = {T, s->room, s->node_max};
    fill_ctx_t c = {s, s->members};
    unsigned char *taken = (unsigned char *)mem, *mark = taken + J;
    int *order = (int *)(mem + off_order);
    entry_t *q = (entry_t *)(mem + off_q);
    chosen_t *ch = (chosen_t *)(mem + off_ch);
    memset(taken, 0, (size_t)J * 2);
    visit_order(s, v, &c, shuffle_types, order);
    int fast = !s->opts.no_shortcuts;
    if (fast && replay(s, v, plan, skip_zero, shuffle_types, order))
        return;
    s->rp->ok = 0;
    int n_ch = 0, all_fit_whole = skip_zero && fast;
    for (int oi = 0; oi < T; oi++) {
        int t = order[oi], nan = 0;
        if (fast && skip_zero && fill_fits(s, v, &c, t, taken, mark, &room, order + T, ch, &n_ch))
            continue;
        all_fit_whole = 0;
        int nq = build_queue(s, v, &c, t, s->has_single, skip_zero, q, &nan);
        if (nan && skip_zero) /* the whole queue, as always */
            nq = build_queue(s, v, &c, t, s->has_single, 0, q, &nan);
        fill_type(s, v, &c, t, q, nq, nan, skip_zero, taken, mark, &room, ch, &n_ch);
    }
    if (n_ch > s->last_cap) {
        free(s->last);
        s->last_cap = n_ch + n_ch / 2 + 16;
        s->last = pu_alloc((size_t)s->last_cap, sizeof *s->last);
    }
    s->n_last = n_ch;
    s->fill_call = s->calls;
    for (int i = 0; i < n_ch; i++) {
        int a = ch[i].e.job[0], b = ch[i].e.job[1];
        s->last[i] = (gr_last_t){ch[i].e.row,
                                 ch[i].type,
                                 {v->jobs[a].id, b >= 0 ? v->jobs[b].id : -1},
                                 {a, b},
                                 {v->jobs[a].work_done, b >= 0 ? v->jobs[b].work_done : 0}};
    }
    if (emit(ch, ch + n_ch, n_ch, plan) && all_fit_whole && s->rates_fixed && !s->pair_rows &&
        s->pos && s->n_types == T)
        record(s, v, skip_zero, shuffle_types, order, ch, (const chosen_key_t *)(ch + n_ch), n_ch);
}

static const gr_row_t *single_row(const gr_state_t *s, int64_t job_id)
{
    for (int r = 0; r < s->n_rows; r++)
        if (s->rows[r].id[0] == job_id && s->rows[r].id[1] < 0)
            return &s->rows[r];
    return NULL;
}

double gr_priority(const gr_state_t *s, int64_t job_id, int type)
{
    const gr_row_t *row = single_row(s, job_id);
    return row && type >= 0 && type < s->n_types ? row->prio[type] : NAN;
}

double gr_received(const gr_state_t *s, int64_t job_id, int type)
{
    const gr_row_t *row = single_row(s, job_id);
    return row && type >= 0 && type < s->n_types ? row->recv[type] - s->recv0 : NAN;
}
