/* pathways.c: Pathways' centralized gang scheduler over islands.
 *
 * Barham et al., "Pathways: Asynchronous Distributed Dataflow for ML",
 * MLSys 2022, sections 4.1 (islands of accelerators; a program's
 * computations are placed on virtual devices within islands), 4.4 (a
 * centralized scheduler per island consistently orders all computations, so
 * that gang-scheduled computations start together and never deadlock) and
 * 4.5 (parallel asynchronous dispatch).
 *
 * The idea: a program is a gang of computations (trace column `gang`; a job
 * without one is a program of one computation). A program starts only when
 * every one of its computations can be placed, each within one island, and
 * then they all start at once; programs are served in arrival order, so the
 * order is the same for every island and no two programs can each hold part
 * of what the other waits for.
 *
 * Here:
 * - An island is a rack of the cluster (view_node_t.rack). Each computation
 *   gets explicit GPU ids inside one island: the island with the fewest free
 *   GPUs of the type that still fit (best fit), then within it one node when
 *   one has room (best fit), else the nodes with the most free GPUs.
 * - A computation runs on the fastest GPU type (profiled throughput on its
 *   request) that has room in some island; computations of one program may
 *   land on different types and islands.
 * - Strict FIFO between programs by default (head-of-line blocking, as the
 *   paper's FIFO scheduler); `backfill=1` lets a later program start when the
 *   head does not fit.
 * - Non-preemptive: a program whose computations all run keeps them. A
 *   program with only some running (a node failed under one) is placed anew,
 *   whole, in its arrival position.
 * - The mechanism enforces the all-or-none rule and the island rule on every
 *   plan, and couples a gang's progress (lockstep, sim/engine.c); the
 *   dispatch latency (parallel or sequential) is the mechanism's
 *   (`simulate --dispatch-latency`, `--dispatch`).
 * Simplified away: the dataflow inside a program (computations are modelled
 * by their GPU counts and a lockstep pace), sharding across islands by the
 * client, and the per-island schedulers (one central order gives the same
 * result). */
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pathways {
    long backfill;
} pathways_t;

int pathways_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    static const char *const known[] = {"backfill", NULL};
    if (policy_args_check(args, known, "pathways", err, errlen) < 0)
        return -1;
    pathways_t *s = pu_alloc(1, sizeof *s);
    if (policy_arg_long(args, "backfill", 0, &s->backfill, err, errlen) < 0 || s->backfill < 0 ||
        s->backfill > 1) {
        if (!err[0])
            snprintf(err, errlen, "backfill must be 0 or 1");
        free(s);
        return -1;
    }
    *state = s;
    return 0;
}

void pathways_destroy(void *state)
{
    free(state);
}

/* Free GPUs while the plan is built. */
typedef struct room {
    char *free;     /* per GPU */
    int *node_free; /* per node */
} room_t;

static int rack_free(const view_t *v, const room_t *r, int rack, int type)
{
    int n = 0;
    for (int i = 0; i < v->n_nodes; i++)
        if (v->nodes[i].rack == rack && v->nodes[i].type == type && v->nodes[i].up)
            n += r->node_free[i];
    return n;
}

static void take(const view_t *v, room_t *r, int node, int want, int *ids, int *got)
{
    const view_node_t *nd = &v->nodes[node];
    for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus && *got < want; g++)
        if (r->free[g]) {
            r->free[g] = 0;
            r->node_free[node]--;
            ids[(*got)++] = g;
        }
}

static int usable(const view_t *v, const room_t *r, int i, int rack, int type)
{
    return v->nodes[i].rack == rack && v->nodes[i].type == type && v->nodes[i].up &&
           r->node_free[i] > 0;
}

/* Takes `gpus` GPUs of `type` within one island; 0 when no island has room. */
static int place_in_island(const view_t *v, room_t *r, int type, int gpus, int *ids)
{
    int best = -1, best_free = 0;
    for (int i = 0; i < v->n_nodes; i++) { /* each rack once, at its first node */
        int rack = v->nodes[i].rack, seen = 0;
        for (int k = 0; k < i && !seen; k++)
            seen = v->nodes[k].rack == rack;
        int f = seen ? 0 : rack_free(v, r, rack, type);
        if (!seen && f >= gpus && (best < 0 || f < best_free || (f == best_free && rack < best)))
            best = rack, best_free = f;
    }
    if (best < 0)
        return 0;
    int one = -1, got = 0;
    for (int i = 0; i < v->n_nodes; i++)
        if (usable(v, r, i, best, type) && r->node_free[i] >= gpus &&
            (one < 0 || r->node_free[i] < r->node_free[one]))
            one = i;
    if (one >= 0) {
        take(v, r, one, gpus, ids, &got);
        return 1;
    }
    while (got < gpus) {
        int pick = -1;
        for (int i = 0; i < v->n_nodes; i++)
            if (usable(v, r, i, best, type) && (pick < 0 || r->node_free[i] > r->node_free[pick]))
                pick = i;
        take(v, r, pick, gpus, ids, &got); /* up to gpus in all */
    }
    return 1;
}

/* The program of view job k: its first member and members (view order). */
static int members(const view_t *v, int k, int *out)
{
    int n = 0;
    if (v->jobs[k].gang <= 0) {
        out[0] = k;
        return 1;
    }
    for (int i = 0; i < v->n_jobs; i++)
        if (v->jobs[i].gang == v->jobs[k].gang)
            out[n++] = i;
    return n;
}

/* Places every computation of a program; on success adds them to the plan,
 * otherwise leaves room as it was. */
static int start_program(const view_t *v, room_t *r, plan_t *p, const int *mem, int n, int *ids_buf)
{
    char *save_free = pu_alloc((size_t)v->n_gpus + 1, 1);
    int *save_node = pu_alloc((size_t)v->n_nodes + 1, sizeof(int));
    memcpy(save_free, r->free, (size_t)v->n_gpus);
    memcpy(save_node, r->node_free, sizeof(int) * (size_t)v->n_nodes);
    int *type_of = pu_alloc((size_t)n, sizeof(int)),
        *order = pu_alloc((size_t)v->n_types + 1, sizeof(int));
    int *off = pu_alloc((size_t)n + 1, sizeof(int)), ok = 1;
    for (int i = 0; i < n && ok; i++) {
        const view_job_t *j = &v->jobs[mem[i]];
        int nt = pu_type_order(v, mem[i], order);
        off[i + 1] = off[i] + j->gpus_requested;
        type_of[i] = -1;
        for (int t = 0; t < nt && type_of[i] < 0; t++)
            if (place_in_island(v, r, order[t], j->gpus_requested, ids_buf + off[i]))
                type_of[i] = order[t];
        ok = type_of[i] >= 0;
    }
    if (ok)
        for (int i = 0; i < n; i++)
            plan_run_on(p, mem[i], type_of[i], ids_buf + off[i], v->jobs[mem[i]].gpus_requested);
    else {
        memcpy(r->free, save_free, (size_t)v->n_gpus);
        memcpy(r->node_free, save_node, sizeof(int) * (size_t)v->n_nodes);
    }
    free(save_free);
    free(save_node);
    free(type_of);
    free(order);
    free(off);
    return ok;
}

/* Whether the program would fit in the whole cluster, every node up and free. */
static int ever_fits(const view_t *v, const int *mem, int n, int *ids_buf)
{
    room_t all = {pu_alloc((size_t)v->n_gpus + 1, 1),
                  pu_alloc((size_t)v->n_nodes + 1, sizeof(int))};
    for (int i = 0; i < v->n_nodes; i++)
        for (int g = v->nodes[i].first_gpu; g < v->nodes[i].first_gpu + v->nodes[i].gpus; g++) {
            all.free[g] = v->nodes[i].up != 0;
            all.node_free[i] += all.free[g];
        }
    plan_t scratch;
    plan_init(&scratch);
    int ok = start_program(v, &all, &scratch, mem, n, ids_buf);
    plan_free(&scratch);
    free(all.free);
    free(all.node_free);
    return ok;
}

int pathways_schedule(void *state, const view_t *v, plan_t *p, char *err, size_t errlen)
{
    const pathways_t *s = state;
    (void)err, (void)errlen;
    int n = v->n_jobs;
    int *mem = pu_alloc((size_t)n + 1, sizeof(int)), *ids = NULL;
    char *done = pu_alloc((size_t)n + 1, 1), *keep = pu_alloc((size_t)n + 1, 1);
    room_t r = {pu_alloc((size_t)v->n_gpus + 1, 1), pu_alloc((size_t)v->n_nodes + 1, sizeof(int))};
    long gpus_asked = 0;
    for (int k = 0; k < n; k++)
        gpus_asked += v->jobs[k].gpus_requested;
    ids = pu_alloc((size_t)gpus_asked + 1, sizeof(int));
    /* Programs whose computations all run keep them. */
    for (int k = 0; k < n; k++) {
        if (done[k])
            continue;
        int m = members(v, k, mem), all = 1;
        for (int i = 0; i < m; i++) {
            done[mem[i]] = 1;
            all &= pu_holds(&v->jobs[mem[i]]);
        }
        for (int i = 0; i < m && all; i++)
            keep[mem[i]] = 1;
    }
    for (int g = 0; g < v->n_gpus; g++) {
        int h = v->gpu_holder[g];
        r.free[g] = h < 0 || !keep[h];
    }
    for (int i = 0; i < v->n_nodes; i++)
        for (int g = v->nodes[i].first_gpu; g < v->nodes[i].first_gpu + v->nodes[i].gpus; g++) {
            r.free[g] &= v->nodes[i].up != 0;
            r.node_free[i] += r.free[g];
        }
    for (int k = 0; k < n; k++)
        if (keep[k])
            plan_run_on(p, k, v->jobs[k].cur_type, v->jobs[k].cur_gpu_ids, v->jobs[k].cur_gpus);
    /* The others in arrival order, whole programs at a time. */
    memset(done, 0, (size_t)n);
    for (int k = 0; k < n; k++) {
        if (done[k] || keep[k])
            continue;
        int m = members(v, k, mem);
        for (int i = 0; i < m; i++)
            done[mem[i]] = 1;
        if (!start_program(v, &r, p, mem, m, ids) && !s->backfill && ever_fits(v, mem, m, ids))
            break; /* head-of-line blocking; a program too large for the cluster is skipped */
    }
    free(mem);
    free(ids);
    free(done);
    free(keep);
    free(r.free);
    free(r.node_free);
    return 0;
}
