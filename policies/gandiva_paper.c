/* gandiva_paper.c: the Gandiva scheduler as its paper describes it (Xiao et
 * al., "Gandiva: Introspective Cluster Scheduling for Deep Learning", OSDI
 * 2018): §4.1 (the mechanisms: suspend-resume and time-slicing, packing,
 * migration, grow-shrink), §4.2 (the scheduling policy: reactive mode on
 * arrivals and departures, introspective mode that monitors and improves a
 * placement, over-subscription by jobs of the same size sharing GPU sets);
 * scripts/gandiva-paper.sh redoes §6.1-6.2 (micro-benchmarks, the multi-job
 * AutoML exploration) in spirit.
 * `gandiva` (Gavel's version: random pairs in equal-share rounds) stays as it
 * is; this file is the paper's system.
 *
 * The idea: every job belongs to a *slot*, a fixed set of GPU ids of one type
 * sized for it (its request). A slot is created on the fewest nodes that can
 * hold it (locality). When no slot can be created, the job joins the slot of
 * its size with the fewest members (over-subscription) and the members
 * time-slice it: at every round boundary (the quantum, --round, about a
 * minute in the paper) the member with the least time received in the slot
 * runs; the others are suspended and resume on exactly the GPUs they left, so
 * the mechanism charges them only the suspend-resume cost (OVH_SUSPEND, 50-250
 * ms in the paper, set per workload with --overheads). Between round boundaries
 * (arrivals, completions) a slot's running unit is kept: time-slicing happens
 * at quantum boundaries only.
 *
 * The mechanisms, each used here:
 * - Packing (§4.1): in a slot with at least two members whose solo mini-batch
 *   rates have been observed (view throughput while they ran alone), two of
 *   them are packed on the slot's GPUs (pack_with) if their memory fits (the
 *   perf model's pair_throughput refusal is the memory check). The packing is
 *   a trial: at the next decision where both run, the measured rates decide
 *   (introspection): the sum of measured pair rate / measured solo rate over
 *   the two must reach `pack_keep` (1: the pair does more than time-slicing),
 *   else the pair is split and never tried again. Kept pairs stay monitored.
 * - Migration (§4.1): (a) defragmentation: a job that finds no slot on its
 *   fewest nodes and no slot of its size to share, while enough GPUs are free
 *   in pieces, moves the slots off one node to free GPUs elsewhere (fewest
 *   GPUs moved) and starts there; (b) locality: a slot spread over more nodes
 *   than needed moves when a placement on fewer nodes is free; (c) a slot
 *   with one job moves to another GPU type that the perf model rates at
 *   least 25 % faster for it, when such GPUs are free on its fewest nodes.
 *   Moves (b) and (c) are trials: the running job's measured rate after the
 *   move is compared with its rate before; a move that made it slower is
 *   reverted (when the old GPUs are still free) and that job is not moved
 *   again. The mechanism charges a moved job OVH_MIGRATE.
 * - Grow-shrink (§4.1): when no job waits and no slot is shared, a slot whose
 *   only member is elastic (max_gpus above its request) grows onto free GPUs
 *   of its type (its own nodes first) to the count the perf model rates
 *   fastest, if that gains at least 5 %; as soon as a job waits or a slot is
 *   shared again, grown slots shrink back to their request (OVH_RESIZE).
 * - Suspend-resume (§4.1): the time-slicing above.
 *
 * Simplifications, all of them:
 * - The paper picks packing candidates by their profiled GPU utilization and
 *   memory; the view has no utilization, so every pair whose memory fits is a
 *   candidate, and introspection alone decides (the paper's fallback too).
 *   Pairs are formed, measured and split at quantum boundaries only.
 *   Candidates are the two least-served single members of a slot; one pair per
 *   slot; a pair is formed only inside an over-subscribed slot.
 * - Time-slicing is per slot (jobs of the same size and type share a GPU set,
 *   the paper's "affinity"); a job of a size for which no slot exists and no
 *   GPUs are free waits; a slot never mixes sizes.
 * - Equal time share: a member joins with the least time received among the
 *   slot's members (it neither starves them nor is starved); a pair counts the
 *   mean of its two members.
 * - When a slot frees (its jobs finish) or GPUs free up, a suspended member of
 *   a shared slot moves to a new slot there (it pays a restart: other GPUs).
 * - Defragmentation moves only slots lying wholly on one node, and only for
 *   jobs that fit in one node; the moved slots are not reverted.
 * - Grow-shrink uses the perf model's scaling (the paper uses the job's
 *   observed scaling); a grown job shrinks back to its request, not below.
 * - No reservation: a job of a size with no slot waits until a placement on
 *   its fewest nodes frees (or defragmentation makes one) while smaller jobs
 *   keep taking free GPUs; multi-node jobs are never defragmented for.
 * - A node failure dissolves the slots on it; their jobs are placed again.
 * - GPU types (the paper's cluster is homogeneous per job): a new slot takes
 *   the fastest type with room (the perf model's order), and move (c) above.
 * - The quantum is the run's round (--round; the paper's is about a minute,
 *   the simulator's default 360 s): run with --round 60.
 * - The slots live in this policy's memory: a live daemon restarted after a
 *   crash calls a fresh policy. A running job without a slot then gets one on
 *   the GPUs it holds (if no slot has them), so the restart moves nothing;
 *   the other jobs (a suspended one, the second of a pair) are admitted
 *   anew, in arrival order, and the time a member received in its slot is
 *   then all the time it has received. Never the case in the simulator, whose policy lives as long
 *   as the run.
 * Mechanism limits met (sim/engine.c, live): packing a partner onto a running
 * job restarts the running one (charged OVH_MIGRATE), and a suspended pair
 * member resumes at OVH_RESTART, not OVH_SUSPEND. */
#include "policies/placement.h"
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gp_member {
    int64_t id;
    double offset; /* key = attained_time - offset: time received in the slot */
} gp_member_t;

typedef struct gp_slot {
    int type, size; /* size: the members' request; n_ids > size when grown */
    int n_ids;
    int *ids; /* cap: view n_gpus */
    gp_member_t *mem;
    int n_mem, cap_mem;
    int64_t pa, pb;  /* packed pair (ids), -1 none */
    int trial;       /* 1 while the pair has not been measured */
    int64_t mig_job; /* locality-migration trial: job measured, -1 none */
    double mig_rate; /* its rate before the move */
    int *old_ids;    /* the GPUs it left (n_ids of them) */
    int old_type;
    int64_t faster_for; /* the job `faster` was found for (on this type), -1 none */
    unsigned faster;    /* types the perf model rates >= 25 % faster for it */
} gp_slot_t;

typedef struct gp_solo {
    int64_t id;
    int type, gpus;
    double rate;
} gp_solo_t;

typedef struct gp_state {
    double pack_keep;
    int pack, migrate, grow, slice;
    gp_slot_t *slots;
    int n_slots, cap_slots;
    gp_solo_t *solo;
    int n_solo, cap_solo;
    int64_t (*banned)[2];
    int n_banned, cap_banned;
    int64_t *no_loc;
    int n_no_loc, cap_no_loc;
    long calls; /* schedule() calls so far */
} gp_state_t;

/* What one call knows: the view, job lookup by id, the free map. */
typedef struct gp_call {
    const view_t *v;
    int64_t (*byid)[2]; /* (id, index) sorted by id */
    int *sharers;       /* per GPU id: jobs holding it now */
    int *gnode;         /* per GPU id: its node, -1 none */
    char *nmark;        /* per node: scratch, all 0 between uses */
    pl_map_t map;       /* free: up and in no slot */
    int first;          /* the policy's first call (a restarted daemon's too) */
} gp_call_t;

static void *grow_array(void *p, int n, int *cap, size_t size)
{
    if (n < *cap)
        return p;
    *cap = *cap ? 2 * *cap : 8;
    p = realloc(p, size * (size_t)*cap);
    if (!p)
        abort();
    return p;
}

int gandiva_paper_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    static const char *const known[] = {"pack", "migrate", "grow", "slice", "pack_keep", NULL};
    if (policy_args_check(args, known, "gandiva-paper", err, errlen))
        return -1;
    gp_state_t *s = pu_alloc(1, sizeof *s);
    long pk, mg, gr, sl;
    if (policy_arg_long(args, "pack", 1, &pk, err, errlen) ||
        policy_arg_long(args, "migrate", 1, &mg, err, errlen) ||
        policy_arg_long(args, "grow", 1, &gr, err, errlen) ||
        policy_arg_long(args, "slice", 1, &sl, err, errlen) ||
        policy_arg_double(args, "pack_keep", 1.0, &s->pack_keep, err, errlen)) {
        free(s);
        return -1;
    }
    if ((pk | mg | gr | sl) & ~1L || !(s->pack_keep > 0)) {
        snprintf(err, errlen,
                 "gandiva-paper: pack, migrate, grow and slice take 0 or 1, pack_keep a "
                 "positive number");
        free(s);
        return -1;
    }
    s->pack = (int)pk;
    s->migrate = (int)mg;
    s->grow = (int)gr;
    s->slice = (int)sl;
    *state = s;
    return 0;
}

static void slot_free(gp_slot_t *sl)
{
    free(sl->ids);
    free(sl->mem);
    free(sl->old_ids);
}

void gandiva_paper_destroy(void *state)
{
    gp_state_t *s = state;
    if (!s)
        return;
    for (int i = 0; i < s->n_slots; i++)
        slot_free(&s->slots[i]);
    free(s->slots);
    free(s->solo);
    free(s->banned);
    free(s->no_loc);
    free(s);
}

/* ---- lookups ----------------------------------------------------------- */

static int cmp_id(const void *a, const void *b)
{
    const int64_t *x = a, *y = b;
    return (x[0] > y[0]) - (x[0] < y[0]);
}

/* Index in the view of the active job with this id, -1 when gone. */
static int jidx(const gp_call_t *c, int64_t id)
{
    int64_t key[2] = {id, 0};
    const int64_t *hit = bsearch(key, c->byid, (size_t)c->v->n_jobs, sizeof *c->byid, cmp_id);
    return hit ? (int)hit[1] : -1;
}

static int banned(const gp_state_t *s, int64_t a, int64_t b)
{
    for (int i = 0; i < s->n_banned; i++)
        if ((s->banned[i][0] == a && s->banned[i][1] == b) ||
            (s->banned[i][0] == b && s->banned[i][1] == a))
            return 1;
    return 0;
}

static int no_locality(const gp_state_t *s, int64_t id)
{
    for (int i = 0; i < s->n_no_loc; i++)
        if (s->no_loc[i] == id)
            return 1;
    return 0;
}

/* s->solo is kept sorted by id (the first member of gp_solo_t). */
static gp_solo_t *solo_in(gp_solo_t *solo, int n, int64_t id)
{
    gp_solo_t key = {id, 0, 0, 0};
    return n > 0 ? bsearch(&key, solo, (size_t)n, sizeof *solo, cmp_id) : NULL; /* none yet */
}

static gp_solo_t *solo_of(gp_state_t *s, int64_t id)
{
    return solo_in(s->solo, s->n_solo, id);
}

/* Observed solo rate of job j on `gpus` GPUs of `type`, NAN when unseen. */
static double solo_rate(gp_state_t *s, const view_job_t *j, int type, int gpus)
{
    gp_solo_t *o = solo_of(s, j->id);
    return o && o->type == type && o->gpus == gpus ? o->rate : NAN;
}

/* A job that holds GPUs shared with no other job, at its request, running
 * (overhead paid) with a measured rate: remember that rate. */
static void observe(gp_state_t *s, const gp_call_t *c)
{
    const view_t *v = c->v;
    int kept = 0; /* forget finished jobs */
    for (int i = 0; i < s->n_solo; i++)
        if (jidx(c, s->solo[i].id) >= 0)
            s->solo[kept++] = s->solo[i];
    s->n_solo = kept;
    int sorted = kept; /* solo[0..sorted) is sorted by id */
    for (int j = 0; j < v->n_jobs; j++) {
        const view_job_t *jb = &v->jobs[j];
        if (jb->state != VIEW_RUNNING || !jb->cur_gpu_ids || jb->cur_gpus != jb->gpus_requested ||
            !(jb->throughput > 0) || c->sharers[jb->cur_gpu_ids[0]] != 1)
            continue;
        gp_solo_t *o = solo_in(s->solo, sorted, jb->id); /* view ids are unique */
        if (!o) {
            s->solo = grow_array(s->solo, s->n_solo, &s->cap_solo, sizeof *s->solo);
            o = &s->solo[s->n_solo++];
        }
        *o = (gp_solo_t){jb->id, jb->cur_type, jb->cur_gpus, jb->throughput};
    }
    if (s->n_solo > sorted)
        qsort(s->solo, (size_t)s->n_solo, sizeof *s->solo, cmp_id);
}

/* Marks, per view job, whether it is in a slot (after clean_slots). */
static char *slotted(const gp_state_t *s, const gp_call_t *c)
{
    char *in = pu_alloc((size_t)(c->v->n_jobs ? c->v->n_jobs : 1), 1);
    for (int i = 0; i < s->n_slots; i++)
        for (int m = 0; m < s->slots[i].n_mem; m++)
            in[jidx(c, s->slots[i].mem[m].id)] = 1;
    return in;
}

/* Time received in the slot. */
static double key_of(const gp_call_t *c, const gp_member_t *m)
{
    return c->v->jobs[jidx(c, m->id)].attained_time - m->offset;
}

/* 1 when job j (view index) holds exactly the slot's GPUs now. */
static int holds_slot(const view_t *v, int j, const gp_slot_t *sl)
{
    const view_job_t *jb = &v->jobs[j];
    if (!pu_holds(jb) || !jb->cur_gpu_ids || jb->cur_gpus != sl->n_ids || jb->cur_type != sl->type)
        return 0;
    for (int i = 0; i < sl->n_ids; i++) {
        int found = 0;
        for (int k = 0; k < sl->n_ids && !found; k++)
            found = jb->cur_gpu_ids[i] == sl->ids[k];
        if (!found)
            return 0;
    }
    return 1;
}

/* ---- slots ------------------------------------------------------------- */

static void take_ids(gp_call_t *c, const int *ids, int n, int taken)
{
    for (int i = 0; i < n; i++)
        pl_set(&c->map, ids[i], !taken);
}

static gp_slot_t *new_slot(gp_state_t *s, gp_call_t *c, int type, int size, const int *ids)
{
    s->slots = grow_array(s->slots, s->n_slots, &s->cap_slots, sizeof *s->slots);
    gp_slot_t *sl = &s->slots[s->n_slots++];
    memset(sl, 0, sizeof *sl);
    size_t n = (size_t)(c->v->n_gpus > 0 ? c->v->n_gpus : 1);
    sl->ids = pu_alloc(n, sizeof *sl->ids);
    sl->old_ids = pu_alloc(n, sizeof *sl->old_ids);
    sl->type = type;
    sl->size = sl->n_ids = size;
    sl->pa = sl->pb = sl->mig_job = sl->faster_for = -1;
    memcpy(sl->ids, ids, sizeof *ids * (size_t)size);
    take_ids(c, ids, size, 1);
    return sl;
}

/* A member joins with the least time received among the slot's members; at
 * the first call (nothing ran before it in the simulator; after a live
 * daemon's restart, the slots are rebuilt) a member counts all the time it
 * has received. */
static void add_member(gp_slot_t *sl, const gp_call_t *c, int64_t id)
{
    double least = INFINITY;
    for (int i = 0; i < sl->n_mem; i++)
        least = fmin(least, key_of(c, &sl->mem[i]));
    double att = c->v->jobs[jidx(c, id)].attained_time;
    sl->mem = grow_array(sl->mem, sl->n_mem, &sl->cap_mem, sizeof *sl->mem);
    sl->mem[sl->n_mem++] = (gp_member_t){id, c->first ? 0 : isfinite(least) ? att - least : att};
}

static void remove_member(gp_slot_t *sl, int64_t id)
{
    int k = 0;
    for (int i = 0; i < sl->n_mem; i++)
        if (sl->mem[i].id != id)
            sl->mem[k++] = sl->mem[i];
    sl->n_mem = k;
    if (sl->pa == id || sl->pb == id)
        sl->pa = sl->pb = -1;
    if (sl->mig_job == id)
        sl->mig_job = -1;
}

static int node_of(const gp_call_t *c, int gpu)
{
    return c->gnode[gpu];
}

/* Nodes the GPUs span. */
static int nodes_spanned(gp_call_t *c, const int *ids, int n)
{
    int cnt = 0;
    for (int i = 0; i < n; i++) {
        int nd = node_of(c, ids[i]);
        if (nd >= 0 && !c->nmark[nd]) {
            c->nmark[nd] = 1;
            cnt++;
        }
    }
    for (int i = 0; i < n; i++)
        if (node_of(c, ids[i]) >= 0)
            c->nmark[node_of(c, ids[i])] = 0;
    return cnt;
}

/* Drops finished members, slots left empty and slots on failed nodes. */
static void clean_slots(gp_state_t *s, gp_call_t *c)
{
    const view_t *v = c->v;
    int kept = 0;
    for (int i = 0; i < s->n_slots; i++) {
        gp_slot_t *sl = &s->slots[i];
        for (int m = sl->n_mem - 1; m >= 0; m--)
            if (jidx(c, sl->mem[m].id) < 0)
                remove_member(sl, sl->mem[m].id);
        int up = 1;
        for (int g = 0; g < sl->n_ids && up; g++) {
            int nd = node_of(c, sl->ids[g]);
            up = nd >= 0 && v->nodes[nd].up;
        }
        if (!sl->n_mem || !up) {
            slot_free(sl);
            continue;
        }
        s->slots[kept++] = *sl;
    }
    s->n_slots = kept;
    for (int i = 0; i < s->n_slots; i++)
        take_ids(c, s->slots[i].ids, s->slots[i].n_ids, 1);
}

/* ---- introspection ------------------------------------------------------ */

/* Measured normalized throughput of the slot's pair, NAN when it cannot be
 * measured now (not both running together past their overhead, or a solo
 * rate unseen). */
static double pair_measure(gp_state_t *s, const gp_call_t *c, const gp_slot_t *sl)
{
    int a = jidx(c, sl->pa), b = jidx(c, sl->pb);
    const view_job_t *ja = &c->v->jobs[a], *jb = &c->v->jobs[b];
    if (ja->state != VIEW_RUNNING || jb->state != VIEW_RUNNING || !holds_slot(c->v, a, sl) ||
        !holds_slot(c->v, b, sl) || !(ja->throughput > 0) || !(jb->throughput > 0))
        return NAN;
    double sa = solo_rate(s, ja, sl->type, sl->size), sb = solo_rate(s, jb, sl->type, sl->size);
    return ja->throughput / sa + jb->throughput / sb;
}

static void introspect_pairs(gp_state_t *s, const gp_call_t *c)
{
    for (int i = 0; i < s->n_slots; i++) {
        gp_slot_t *sl = &s->slots[i];
        if (sl->pa < 0)
            continue;
        double norm = pair_measure(s, c, sl);
        if (isnan(norm))
            continue;
        if (norm >= s->pack_keep) {
            sl->trial = 0;
            continue;
        }
        s->banned = grow_array(s->banned, s->n_banned, &s->cap_banned, sizeof *s->banned);
        s->banned[s->n_banned][0] = sl->pa;
        s->banned[s->n_banned++][1] = sl->pb;
        sl->pa = sl->pb = -1;
        sl->trial = 0;
    }
}

static int ids_free(const gp_call_t *c, const int *ids, int n)
{
    for (int i = 0; i < n; i++)
        if (!c->map.free[ids[i]])
            return 0;
    return 1;
}

/* A locality move measured: kept when the job is no slower, else moved back
 * (if its old GPUs are free) and the job is not moved for locality again. */
static void introspect_moves(gp_state_t *s, gp_call_t *c)
{
    for (int i = 0; i < s->n_slots; i++) {
        gp_slot_t *sl = &s->slots[i];
        int j = sl->mig_job >= 0 ? jidx(c, sl->mig_job) : -1;
        if (j < 0)
            continue;
        const view_job_t *jb = &c->v->jobs[j];
        if (jb->state != VIEW_RUNNING || !holds_slot(c->v, j, sl) || !(jb->throughput > 0))
            continue;
        sl->mig_job = -1;
        if (jb->throughput >= sl->mig_rate)
            continue;
        s->no_loc = grow_array(s->no_loc, s->n_no_loc, &s->cap_no_loc, sizeof *s->no_loc);
        s->no_loc[s->n_no_loc++] = jb->id;
        if (!ids_free(c, sl->old_ids, sl->n_ids))
            continue;
        take_ids(c, sl->ids, sl->n_ids, 0);
        memcpy(sl->ids, sl->old_ids, sizeof *sl->ids * (size_t)sl->n_ids);
        sl->type = sl->old_type;
        sl->faster_for = -1;
        take_ids(c, sl->ids, sl->n_ids, 1);
    }
}

/* ---- placement ---------------------------------------------------------- */

static int usable_type(const view_t *v, int j, int t)
{
    double r = pu_rate(v, j, t);
    return !(r == 0) && v->types[t].total_gpus >= v->jobs[j].gpus_requested;
}

/* A new slot for job j on the fewest nodes, fastest type first; 1 if made. */
static int place_new(gp_state_t *s, gp_call_t *c, int j)
{
    const view_t *v = c->v;
    int g = v->jobs[j].gpus_requested;
    int order[64], *ord = v->n_types <= 64 ? order : pu_alloc((size_t)v->n_types, sizeof *ord);
    int nt = pu_type_order(v, j, ord), done = 0;
    int *ids = pu_alloc((size_t)g, sizeof *ids);
    for (int i = 0; i < nt && !done; i++) {
        int t = ord[i];
        int nodes = pl_fit(v, &c->map, t, g, ids);
        if (nodes > 0 && nodes <= pu_min_nodes(v, t, g)) {
            add_member(new_slot(s, c, t, g, ids), c, v->jobs[j].id);
            done = 1;
        }
    }
    free(ids);
    if (ord != order)
        free(ord);
    return done;
}

/* A copy of the free map with node n's GPUs taken. */
static void map_without_node(const gp_call_t *c, int n, char *out)
{
    memcpy(out, c->map.free, (size_t)c->v->n_gpus);
    const view_node_t *nd = &c->v->nodes[n];
    for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus; g++)
        out[g] = 0;
}

/* Moves the slots lying wholly on node n elsewhere, largest first, until n
 * has `need` free GPUs. Returns the GPUs moved, -1 when it cannot; applies
 * the moves only when `apply`. */
static int clear_node(gp_state_t *s, gp_call_t *c, int n, int need, int apply)
{
    const view_t *v = c->v;
    pl_map_t tmp = c->map;
    tmp.free = pu_alloc((size_t)v->n_gpus, 1);
    tmp.ix = NULL; /* its own free map: queries scan the nodes */
    map_without_node(c, n, tmp.free);
    const view_node_t *nd = &v->nodes[n];
    int have = 0, moved = 0;
    for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus; g++)
        have += c->map.free[g];
    char *done = pu_alloc((size_t)(s->n_slots ? s->n_slots : 1), 1);
    int *ids = pu_alloc((size_t)v->n_gpus, sizeof *ids);
    while (have < need) {
        int pick = -1;
        for (int i = 0; i < s->n_slots; i++) {
            const gp_slot_t *sl = &s->slots[i];
            int on = !done[i];
            for (int g = 0; g < sl->n_ids && on; g++)
                on = node_of(c, sl->ids[g]) == n;
            if (on && (pick < 0 || sl->n_ids > s->slots[pick].n_ids))
                pick = i;
        }
        if (pick < 0)
            break;
        done[pick] = 1;
        gp_slot_t *sl = &s->slots[pick];
        int nodes = pl_fit(v, &tmp, sl->type, sl->n_ids, ids);
        if (nodes <= 0 || nodes > pu_min_nodes(v, sl->type, sl->n_ids))
            continue;
        for (int g = 0; g < sl->n_ids; g++)
            tmp.free[ids[g]] = 0;
        have += sl->n_ids;
        moved += sl->n_ids;
        if (apply) {
            take_ids(c, sl->ids, sl->n_ids, 0);
            memcpy(sl->ids, ids, sizeof *ids * (size_t)sl->n_ids);
            take_ids(c, ids, sl->n_ids, 1);
            sl->mig_job = -1;
        }
    }
    free(ids);
    free(done);
    free(tmp.free);
    return have >= need ? moved : -1;
}

/* Defragmentation: frees one node for job j by moving the fewest GPUs of
 * slots elsewhere, then places j there. 1 when done. */
static int defragment(gp_state_t *s, gp_call_t *c, int j)
{
    const view_t *v = c->v;
    int g = v->jobs[j].gpus_requested, best = -1, best_moved = INT_MAX, spare = 0;
    char *ok = pu_alloc((size_t)(v->n_types ? v->n_types : 1), 1);
    for (int t = 0; t < v->n_types; t++)
        ok[t] = (char)usable_type(v, j, t);
    for (int id = 0; id < v->n_gpus; id++) /* moves free no GPUs: enough must be */
        spare += c->map.free[id] && c->gnode[id] >= 0 && ok[v->nodes[c->gnode[id]].type];
    for (int n = 0; n < v->n_nodes && spare >= g; n++) {
        const view_node_t *nd = &v->nodes[n];
        if (!nd->up || nd->gpus < g || !ok[nd->type])
            continue;
        int moved = clear_node(s, c, n, g, 0);
        if (moved > 0 && moved < best_moved) {
            best = n;
            best_moved = moved;
        }
    }
    free(ok);
    if (best < 0)
        return 0;
    clear_node(s, c, best, g, 1);
    int *ids = pu_alloc((size_t)g, sizeof *ids);
    const view_node_t *nd = &v->nodes[best];
    int k = 0;
    for (int id = nd->first_gpu; id < nd->first_gpu + nd->gpus && k < g; id++)
        if (c->map.free[id])
            ids[k++] = id;
    add_member(new_slot(s, c, nd->type, g, ids), c, v->jobs[j].id);
    free(ids);
    return 1;
}

/* Over-subscription: joins the same-size slot with the fewest members. */
static int join_slot(gp_state_t *s, gp_call_t *c, int j)
{
    const view_t *v = c->v;
    int g = v->jobs[j].gpus_requested, best = -1;
    for (int i = 0; i < s->n_slots; i++) {
        const gp_slot_t *sl = &s->slots[i];
        if (sl->size == g && usable_type(v, j, sl->type) &&
            (best < 0 || sl->n_mem < s->slots[best].n_mem))
            best = i;
    }
    if (best < 0)
        return 0;
    add_member(&s->slots[best], c, v->jobs[j].id);
    return 1;
}

/* Grown slots go back to their request when anyone needs GPUs. */
static void shrink_all(gp_state_t *s, gp_call_t *c)
{
    for (int i = 0; i < s->n_slots; i++) {
        gp_slot_t *sl = &s->slots[i];
        if (sl->n_ids > sl->size) {
            take_ids(c, sl->ids + sl->size, sl->n_ids - sl->size, 0);
            sl->n_ids = sl->size;
            sl->mig_job = -1;
        }
    }
}

static int units_of(const gp_slot_t *sl)
{
    return sl->n_mem - (sl->pa >= 0);
}

/* Jobs without a slot get one: a new slot, a defragmented node, or a share of
 * a slot of their size. Returns how many still wait. */
static int admit(gp_state_t *s, gp_call_t *c, const int *arrival, const char *in_slot)
{
    const view_t *v = c->v;
    int waiting = 0;
    for (int i = 0; i < v->n_jobs; i++) {
        int j = arrival[i];
        if (in_slot[j] || !pu_ever_fits(v, j))
            continue;
        if (place_new(s, c, j) || (s->migrate && defragment(s, c, j)) ||
            (s->slice && join_slot(s, c, j)))
            continue;
        waiting++;
    }
    return waiting;
}

/* A running job without a slot (this policy's state was lost: a restarted
 * live daemon) gets a slot on the GPUs it holds, when it holds its request
 * and no slot has them: it keeps running there. */
static void readopt(gp_state_t *s, gp_call_t *c, const int *arrival)
{
    const view_t *v = c->v;
    char *in_slot = slotted(s, c);
    for (int i = 0; i < v->n_jobs; i++) {
        int j = arrival[i];
        const view_job_t *jb = &v->jobs[j];
        if (in_slot[j] || !pu_holds(jb) || !jb->cur_gpu_ids ||
            jb->cur_gpus != jb->gpus_requested || !ids_free(c, jb->cur_gpu_ids, jb->cur_gpus))
            continue;
        add_member(new_slot(s, c, jb->cur_type, jb->cur_gpus, jb->cur_gpu_ids), c, jb->id);
    }
    free(in_slot);
}

/* When GPUs are free again, the last-joined suspended single member of a
 * shared slot moves to a slot of its own there. */
static void rebalance(gp_state_t *s, gp_call_t *c)
{
    for (int i = 0; i < s->n_slots; i++) {
        while (units_of(&s->slots[i]) > 1) {
            gp_slot_t *sl = &s->slots[i];
            int pick = -1;
            for (int m = sl->n_mem - 1; m >= 0 && pick < 0; m--) {
                int64_t id = sl->mem[m].id;
                if (id != sl->pa && id != sl->pb && !holds_slot(c->v, jidx(c, id), sl))
                    pick = m;
            }
            if (pick < 0)
                break;
            gp_member_t m = sl->mem[pick];
            remove_member(sl, m.id);
            if (!place_new(s, c, jidx(c, m.id))) { /* may move s->slots */
                sl = &s->slots[i];
                sl->mem = grow_array(sl->mem, sl->n_mem, &sl->cap_mem, sizeof *sl->mem);
                sl->mem[sl->n_mem++] = m; /* back, as it was */
                break;
            }
        }
    }
}

/* Moves slot sl to ids (of `type`), remembering where it was and the rate
 * of its running member for the check after the move. */
static void move_slot(gp_call_t *c, gp_slot_t *sl, int type, const int *ids)
{
    const view_t *v = c->v;
    memcpy(sl->old_ids, sl->ids, sizeof *ids * (size_t)sl->n_ids);
    sl->old_type = sl->type;
    take_ids(c, sl->ids, sl->n_ids, 0);
    memcpy(sl->ids, ids, sizeof *ids * (size_t)sl->n_ids);
    sl->type = type;
    sl->faster_for = -1;
    take_ids(c, sl->ids, sl->n_ids, 1);
    sl->mig_job = -1;
    for (int m = 0; m < sl->n_mem; m++) {
        int j = jidx(c, sl->mem[m].id);
        if (v->jobs[j].state == VIEW_RUNNING && v->jobs[j].throughput > 0) {
            sl->mig_job = sl->mem[m].id;
            sl->mig_rate = v->jobs[j].throughput;
        }
    }
}

/* A better place for slot sl now: fewer nodes of its type, or, for a lone
 * member, a type the perf model rates 25 % faster on its fewest nodes.
 * Writes the type and ids; 0 when none. */
static int better_place(gp_call_t *c, gp_slot_t *sl, int *type, int *ids)
{
    const view_t *v = c->v;
    int now = nodes_spanned(c, sl->ids, sl->n_ids);
    take_ids(c, sl->ids, sl->n_ids, 0); /* its own GPUs count as free */
    int found = 0;
    if (now > pu_min_nodes(v, sl->type, sl->n_ids)) {
        int nodes = pl_fit(v, &c->map, sl->type, sl->n_ids, ids);
        found = nodes > 0 && nodes < now;
        *type = sl->type;
    }
    int j = jidx(c, sl->mem[0].id);
    if (sl->faster_for != sl->mem[0].id && sl->n_mem == 1) { /* rates are fixed: once */
        double here = pu_rate(v, j, sl->type);
        sl->faster = 0;
        for (int t = 0; t < v->n_types && t < 32; t++)
            if (t != sl->type && pu_rate(v, j, t) > 1.25 * here)
                sl->faster |= 1u << t;
        sl->faster_for = sl->mem[0].id;
    }
    for (int t = 0; t < v->n_types && t < 32 && !found && sl->n_mem == 1 && sl->n_ids == sl->size;
         t++) {
        if (!(sl->faster & (1u << t)))
            continue;
        int nodes = pl_fit(v, &c->map, t, sl->n_ids, ids);
        found = nodes > 0 && nodes <= pu_min_nodes(v, t, sl->n_ids);
        *type = t;
    }
    take_ids(c, sl->ids, sl->n_ids, 1);
    return found;
}

/* Locality (and a faster type): slots move when a better place is free; the
 * running member's rate before the move is kept for the check. */
static void improve_placement(gp_state_t *s, gp_call_t *c)
{
    int *ids = pu_alloc((size_t)c->v->n_gpus, sizeof *ids);
    for (int i = 0; i < s->n_slots; i++) {
        gp_slot_t *sl = &s->slots[i];
        int any_no_loc = 0, type;
        for (int m = 0; m < sl->n_mem; m++)
            any_no_loc |= no_locality(s, sl->mem[m].id);
        if (!any_no_loc && sl->mig_job < 0 && better_place(c, sl, &type, ids))
            move_slot(c, sl, type, ids);
    }
    free(ids);
}

/* Grow: a lone elastic member takes free GPUs of its type (its nodes first)
 * up to the count the perf model rates fastest, if 5 % faster. */
static void grow_slots(gp_state_t *s, gp_call_t *c)
{
    const view_t *v = c->v;
    int *cand = pu_alloc((size_t)v->n_gpus, sizeof *cand);
    for (int i = 0; i < s->n_slots; i++) {
        gp_slot_t *sl = &s->slots[i];
        if (sl->n_mem != 1)
            continue;
        int j = jidx(c, sl->mem[0].id);
        const view_job_t *jb = &v->jobs[j];
        if (jb->max_gpus <= sl->n_ids)
            continue;
        int nc = 0; /* free GPUs of the type: the slot's nodes first */
        for (int pass = 0; pass < 2; pass++)
            for (int g = 0; g < v->n_gpus; g++) {
                int nd = node_of(c, g), mine = 0;
                if (nd < 0 || !c->map.free[g] || v->nodes[nd].type != sl->type)
                    continue;
                for (int k = 0; k < sl->n_ids && !mine; k++)
                    mine = node_of(c, sl->ids[k]) == nd;
                if (mine == (pass == 0))
                    cand[nc++] = g;
            }
        double cur = v->perf->throughput(v->perf->ctx, jb, sl->type, sl->n_ids,
                                         nodes_spanned(c, sl->ids, sl->n_ids), 0);
        int best = sl->n_ids;
        double best_rate = cur * 1.05;
        for (int n = sl->n_ids + 1; n <= jb->max_gpus && n - sl->n_ids <= nc; n++) {
            memcpy(sl->ids + sl->n_ids, cand, sizeof *cand * (size_t)(n - sl->n_ids));
            double r =
                v->perf->throughput(v->perf->ctx, jb, sl->type, n, nodes_spanned(c, sl->ids, n), 0);
            if (r > best_rate) {
                best = n;
                best_rate = r;
            }
        }
        memcpy(sl->ids + sl->n_ids, cand, sizeof *cand * (size_t)(best - sl->n_ids));
        take_ids(c, sl->ids + sl->n_ids, best - sl->n_ids, 1);
        if (best != sl->n_ids)
            sl->mig_job = -1;
        sl->n_ids = best;
    }
    free(cand);
}

/* Packing trials: the two least-served single members with seen solo rates
 * whose memory fits on the slot's GPUs, in a slot without a pair. */
static void try_packing(gp_state_t *s, gp_call_t *c)
{
    const view_t *v = c->v;
    if (!v->perf->pair_throughput)
        return;
    for (int i = 0; i < s->n_slots; i++) {
        gp_slot_t *sl = &s->slots[i];
        if (sl->pa >= 0 || sl->n_mem < 2 || sl->n_ids != sl->size)
            continue;
        int best[2] = {-1, -1};
        double bk = INFINITY;
        for (int a = 0; a < sl->n_mem; a++)
            for (int b = a + 1; b < sl->n_mem; b++) {
                int ja = jidx(c, sl->mem[a].id), jb = jidx(c, sl->mem[b].id);
                double out[2];
                if (banned(s, sl->mem[a].id, sl->mem[b].id) ||
                    isnan(solo_rate(s, &v->jobs[ja], sl->type, sl->size)) ||
                    isnan(solo_rate(s, &v->jobs[jb], sl->type, sl->size)) ||
                    v->perf->pair_throughput(v->perf->ctx, &v->jobs[ja], &v->jobs[jb], sl->type,
                                             sl->size, out) < 0)
                    continue;
                double k = key_of(c, &sl->mem[a]) + key_of(c, &sl->mem[b]);
                if (k < bk) {
                    bk = k;
                    best[0] = a;
                    best[1] = b;
                }
            }
        if (best[0] < 0)
            continue;
        sl->pa = sl->mem[best[0]].id;
        sl->pb = sl->mem[best[1]].id;
        sl->trial = 1;
    }
}

/* ---- the plan ------------------------------------------------------------ */

static int earlier(const view_t *v, int a, int b)
{
    const view_job_t *x = &v->jobs[a], *y = &v->jobs[b];
    return x->submit < y->submit || (x->submit == y->submit && x->id < y->id);
}

/* The slot's unit that runs: at a round boundary the least-served (a pair
 * counts its mean), else the unit running now if any. */
static void run_slot(const gp_call_t *c, const gp_slot_t *sl, plan_t *p)
{
    const view_t *v = c->v;
    int round = (v->reasons & MLS_WHY_ROUND) != 0;
    int pick = -1, pair = 0;
    double best = INFINITY;
    /* Times received within 1 % of a quantum are equal: live, they carry ms
     * of jitter, and a tie must fall the same way as in the simulator. */
    double tol = 0.01 * (v->round_len > 0 ? v->round_len : 60);
    for (int m = 0; m < sl->n_mem; m++) {
        int64_t id = sl->mem[m].id;
        if (id == sl->pb)
            continue; /* the pair is led by pa */
        int j = jidx(c, id), is_pair = id == sl->pa;
        double k = key_of(c, &sl->mem[m]);
        if (is_pair) {
            for (int q = 0; q < sl->n_mem; q++)
                if (sl->mem[q].id == sl->pb)
                    k = 0.5 * (k + key_of(c, &sl->mem[q]));
        }
        if (!round && holds_slot(v, j, sl))
            k = -INFINITY; /* between quanta the running unit stays */
        if (pick < 0 || k < best - tol || (k <= best + tol && earlier(v, j, pick))) {
            pick = j;
            best = k;
            pair = is_pair;
        }
    }
    if (pick < 0)
        return;
    int a = plan_run_on(p, pick, sl->type, sl->ids, sl->n_ids);
    if (!pair)
        return;
    int mate = jidx(c, sl->pb);
    int b = plan_run_on(p, mate, sl->type, sl->ids, sl->n_ids);
    p->allocs[a].pack_with = mate;
    p->allocs[b].pack_with = pick;
}

static void call_init(gp_call_t *c, const view_t *v)
{
    c->v = v;
    c->byid = pu_alloc((size_t)(v->n_jobs ? v->n_jobs : 1), sizeof *c->byid);
    for (int j = 0; j < v->n_jobs; j++) {
        c->byid[j][0] = v->jobs[j].id;
        c->byid[j][1] = j;
    }
    qsort(c->byid, (size_t)v->n_jobs, sizeof *c->byid, cmp_id);
    c->sharers = pu_alloc((size_t)(v->n_gpus > 0 ? v->n_gpus : 1), sizeof *c->sharers);
    for (int j = 0; j < v->n_jobs; j++) {
        const view_job_t *jb = &v->jobs[j];
        for (int g = 0; pu_holds(jb) && jb->cur_gpu_ids && g < jb->cur_gpus; g++)
            c->sharers[jb->cur_gpu_ids[g]]++;
    }
    c->gnode = pu_alloc((size_t)(v->n_gpus > 0 ? v->n_gpus : 1), sizeof *c->gnode);
    for (int g = 0; g < v->n_gpus; g++)
        c->gnode[g] = -1;
    for (int k = 0; k < v->n_nodes; k++)
        for (int g = v->nodes[k].first_gpu;
             g < v->nodes[k].first_gpu + v->nodes[k].gpus && g < v->n_gpus; g++)
            c->gnode[g] = k;
    c->nmark = pu_alloc((size_t)(v->n_nodes > 0 ? v->n_nodes : 1), 1);
    pl_init(&c->map, v, NULL);
}

static void call_free(gp_call_t *c)
{
    free(c->byid);
    free(c->sharers);
    free(c->gnode);
    free(c->nmark);
    pl_free(&c->map);
}

int gandiva_paper_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    gp_state_t *s = state;
    gp_call_t c;
    call_init(&c, v);
    c.first = s->calls++ == 0;
    if (v->n_nodes == 0 || v->n_types == 0) { /* nothing to place on */
        call_free(&c);
        return 0;
    }
    if (!c.map.on) {
        call_free(&c);
        snprintf(err, errlen, "gandiva-paper: the view gives no GPU ids (nodes) to place on");
        return -1;
    }
    int round = (v->reasons & MLS_WHY_ROUND) != 0;
    observe(s, &c);
    clean_slots(s, &c);
    if (round) /* trials are judged and made at quantum boundaries only */
        introspect_pairs(s, &c);
    if (s->migrate)
        introspect_moves(s, &c);
    int *arrival = pu_alloc((size_t)(v->n_jobs ? v->n_jobs : 1), sizeof *arrival);
    pu_arrival_order(v, arrival);
    readopt(s, &c, arrival);
    char *in_slot = slotted(s, &c);
    int need = 0;
    for (int i = 0; i < v->n_jobs && !need; i++)
        need = !in_slot[i] && pu_ever_fits(v, i);
    for (int i = 0; i < s->n_slots; i++)
        need |= s->slots[i].n_mem > 1;
    if (need)
        shrink_all(s, &c);
    int waiting = admit(s, &c, arrival, in_slot);
    free(in_slot);
    rebalance(s, &c);
    if (s->migrate)
        improve_placement(s, &c);
    int shared = 0;
    for (int i = 0; i < s->n_slots; i++)
        shared |= s->slots[i].n_mem > 1;
    if (s->grow && !waiting && !shared)
        grow_slots(s, &c);
    if (s->pack && round)
        try_packing(s, &c);
    for (int i = 0; i < s->n_slots; i++)
        run_slot(&c, &s->slots[i], plan);
    free(arrival);
    call_free(&c);
    return 0;
}
