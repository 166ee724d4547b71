/* placement.c: consolidated explicit placement while a plan is built (see
 * placement.h). The index: per (avoid held, type, free count) a bit set of
 * the nodes with that many usable GPUs, and the count of its nodes. A best
 * fit is the first node of the lowest non-empty bucket at or above the
 * request; a spread placement walks the buckets from the fullest down, nodes
 * in index order: the same nodes the scan of every node picked (largest
 * room first, ties to the lowest index; room does not change during a
 * query). A map without index (a caller's copy) is scanned as before. */
#include "policies/placement.h"
#include "policies/policy_util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct pl_index {
    int n_nodes, n_types, maxg, words;
    int *gnode;     /* per GPU id: its node, -1 none */
    int *ntype;     /* per node: its type, -1 outside the view's types */
    int *room;      /* [a * n_nodes + k]: usable GPUs of node k, a = avoid held */
    int *count;     /* [bucket]: nodes in it, bucket = (a * T + t) * (maxg + 1) + r */
    uint64_t *bits; /* [bucket * words + k / 64] */
};

static int usable(const pl_map_t *m, int g, int avoid_held)
{
    return m->free[g] && !(avoid_held && m->held[g]);
}

static size_t bucket(const struct pl_index *ix, int a, int t, int r)
{
    return ((size_t)a * (size_t)ix->n_types + (size_t)t) * (size_t)(ix->maxg + 1) + (size_t)r;
}

static void ix_put(struct pl_index *ix, int a, int k, int r, int on)
{
    int t = ix->ntype[k];
    if (t < 0)
        return;
    size_t b = bucket(ix, a, t, r);
    uint64_t *w = &ix->bits[b * (size_t)ix->words + (size_t)(k / 64)];
    uint64_t bit = (uint64_t)1 << (k % 64);
    if (on)
        *w |= bit;
    else
        *w &= ~bit;
    ix->count[b] += on ? 1 : -1;
}

static void ix_move(struct pl_index *ix, int a, int k, int delta)
{
    int *r = &ix->room[(size_t)a * (size_t)ix->n_nodes + (size_t)k];
    ix_put(ix, a, k, *r, 0);
    *r += delta;
    ix_put(ix, a, k, *r, 1);
}

static struct pl_index *ix_build(const view_t *v, const pl_map_t *m)
{
    struct pl_index *ix = pu_alloc(1, sizeof *ix);
    ix->n_nodes = v->n_nodes;
    ix->n_types = v->n_types > 0 ? v->n_types : 1;
    for (int k = 0; k < v->n_nodes; k++)
        if (v->nodes[k].gpus > ix->maxg)
            ix->maxg = v->nodes[k].gpus;
    ix->words = (v->n_nodes + 63) / 64;
    size_t nb = bucket(ix, 2, 0, 0);
    ix->gnode = pu_alloc((size_t)v->n_gpus, sizeof *ix->gnode);
    ix->ntype = pu_alloc((size_t)v->n_nodes, sizeof *ix->ntype);
    ix->room = pu_alloc(2 * (size_t)v->n_nodes, sizeof *ix->room);
    ix->count = pu_alloc(nb, sizeof *ix->count);
    ix->bits = pu_alloc(nb * (size_t)(ix->words ? ix->words : 1), sizeof *ix->bits);
    for (int g = 0; g < v->n_gpus; g++)
        ix->gnode[g] = -1;
    for (int k = 0; k < v->n_nodes; k++) {
        const view_node_t *nd = &v->nodes[k];
        ix->ntype[k] = nd->type >= 0 && nd->type < v->n_types ? nd->type : -1;
        for (int a = 0; a < 2; a++) {
            int r = 0;
            for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus && g < v->n_gpus; g++)
                r += usable(m, g, a);
            ix->room[(size_t)a * (size_t)v->n_nodes + (size_t)k] = r;
            ix_put(ix, a, k, r, 1);
        }
        for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus && g < v->n_gpus; g++)
            ix->gnode[g] = k;
    }
    return ix;
}

static void ix_free(struct pl_index *ix)
{
    if (!ix)
        return;
    free(ix->gnode);
    free(ix->ntype);
    free(ix->room);
    free(ix->count);
    free(ix->bits);
    free(ix);
}

void pl_init(pl_map_t *m, const view_t *v, const char *reserved)
{
    m->on = v->n_nodes > 0 && v->nodes && v->gpu_holder && v->n_gpus > 0;
    for (int j = 0; j < v->n_jobs && m->on; j++)
        if (pu_holds(&v->jobs[j]) && !v->jobs[j].cur_gpu_ids)
            m->on = 0;
    size_t n = (size_t)(v->n_gpus > 0 ? v->n_gpus : 1);
    m->free = pu_alloc(n, 1);
    m->held = pu_alloc(n, 1);
    m->ix = NULL;
    for (int k = 0; k < v->n_nodes && m->on; k++) {
        const view_node_t *nd = &v->nodes[k];
        for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus && g < v->n_gpus; g++) {
            int h = v->gpu_holder[g];
            int busy = h >= 0 && h < v->n_jobs;
            m->held[g] = busy;
            m->free[g] = nd->up && !(busy && reserved && reserved[h]);
        }
    }
    if (m->on)
        m->ix = ix_build(v, m);
}

void pl_free(pl_map_t *m)
{
    free(m->free);
    free(m->held);
    ix_free(m->ix);
    m->free = m->held = NULL;
    m->ix = NULL;
}

void pl_set(pl_map_t *m, int g, int is_free)
{
    char f = (char)(is_free != 0);
    if (m->free[g] == f)
        return;
    m->free[g] = f;
    struct pl_index *ix = m->ix;
    int k = ix ? ix->gnode[g] : -1;
    if (k < 0)
        return;
    ix_move(ix, 0, k, f ? 1 : -1);
    if (!m->held[g])
        ix_move(ix, 1, k, f ? 1 : -1);
}

/* Writes the first `want` usable GPUs of node nd to ids (when not NULL). */
static void take_ids(const pl_map_t *m, const view_node_t *nd, int avoid_held, int want, int *ids)
{
    for (int g = nd->first_gpu, n = 0; ids && n < want; g++)
        if (usable(m, g, avoid_held))
            ids[n++] = g;
}

static int first_bit(const uint64_t *w, int words)
{
    for (int i = 0; i < words; i++)
        if (w[i])
            return i * 64 + __builtin_ctzll(w[i]);
    return -1;
}

static int fit_indexed(const view_t *v, const pl_map_t *m, int type, int gpus, int a, int *ids)
{
    const struct pl_index *ix = m->ix;
    if (type < 0 || type >= v->n_types || type >= ix->n_types)
        return 0;
    for (int r = gpus; r <= ix->maxg; r++) {
        size_t b = bucket(ix, a, type, r);
        if (ix->count[b] > 0) {
            int k = first_bit(&ix->bits[b * (size_t)ix->words], ix->words);
            take_ids(m, &v->nodes[k], a, gpus, ids);
            return 1;
        }
    }
    int got = 0, nodes = 0;
    for (int r = ix->maxg; r > 0 && got < gpus; r--) {
        size_t b = bucket(ix, a, type, r);
        if (ix->count[b] == 0)
            continue;
        const uint64_t *w = &ix->bits[b * (size_t)ix->words];
        for (int i = 0; i < ix->words && got < gpus; i++)
            for (uint64_t x = w[i]; x && got < gpus; x &= x - 1) {
                int k = i * 64 + __builtin_ctzll(x);
                int take = r < gpus - got ? r : gpus - got;
                take_ids(m, &v->nodes[k], a, take, ids ? ids + got : NULL);
                got += take;
                nodes++;
            }
    }
    return got < gpus ? 0 : nodes;
}

static int node_room(const pl_map_t *m, const view_node_t *nd, int avoid_held)
{
    int n = 0;
    for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus; g++)
        n += usable(m, g, avoid_held);
    return n;
}

static int fit_scan(const view_t *v, const pl_map_t *m, int type, int gpus, int avoid_held,
                    int *ids)
{
    int best = -1, best_room = 0;
    for (int k = 0; k < v->n_nodes; k++) {
        int r = v->nodes[k].type == type ? node_room(m, &v->nodes[k], avoid_held) : 0;
        if (r >= gpus && (best < 0 || r < best_room)) {
            best = k;
            best_room = r;
        }
    }
    if (best >= 0) {
        take_ids(m, &v->nodes[best], avoid_held, gpus, ids);
        return 1;
    }
    char *used = pu_alloc((size_t)v->n_nodes, 1);
    int got = 0, nodes = 0;
    while (got < gpus) {
        int pick = -1, pick_room = 0;
        for (int k = 0; k < v->n_nodes; k++) {
            int r =
                !used[k] && v->nodes[k].type == type ? node_room(m, &v->nodes[k], avoid_held) : 0;
            if (r > pick_room) {
                pick = k;
                pick_room = r;
            }
        }
        if (pick < 0)
            break;
        used[pick] = 1;
        nodes++;
        const view_node_t *nd = &v->nodes[pick];
        for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus && got < gpus; g++)
            if (usable(m, g, avoid_held)) {
                if (ids)
                    ids[got] = g;
                got++;
            }
    }
    free(used);
    return got < gpus ? 0 : nodes;
}

static int fit(const view_t *v, const pl_map_t *m, int type, int gpus, int avoid_held, int *ids)
{
    return m->ix ? fit_indexed(v, m, type, gpus, avoid_held, ids)
                 : fit_scan(v, m, type, gpus, avoid_held, ids);
}

int pl_fit(const view_t *v, const pl_map_t *m, int type, int gpus, int *ids)
{
    if (gpus <= 0)
        return 0;
    int any = fit(v, m, type, gpus, 0, NULL);
    int spare = any ? fit(v, m, type, gpus, 1, NULL) : 0;
    int avoid = spare > 0 && spare <= any;
    return fit(v, m, type, gpus, avoid, ids);
}

int pl_run(const view_t *v, pl_map_t *m, plan_t *p, int j, int type, int max_nodes)
{
    const view_job_t *jb = &v->jobs[j];
    int g = jb->gpus_requested;
    if (!m->on) {
        plan_run(p, j, type, g);
        return 1;
    }
    int *ids = pu_alloc((size_t)(g > 0 ? g : 1), sizeof *ids);
    int nodes = pl_fit(v, m, type, g, ids);
    int own = pu_holds(jb) && jb->cur_type == type && jb->cur_gpus == g;
    for (int i = 0; own && i < g; i++)
        own = m->free[jb->cur_gpu_ids[i]];
    if (own && (nodes == 0 || jb->cur_nodes <= nodes)) {
        memcpy(ids, jb->cur_gpu_ids, sizeof *ids * (size_t)g);
        nodes = jb->cur_nodes > 0 ? jb->cur_nodes : 1;
    }
    if (nodes == 0 || (max_nodes > 0 && nodes > max_nodes)) {
        free(ids);
        return 0;
    }
    plan_run_on(p, j, type, ids, g);
    for (int i = 0; i < g; i++)
        pl_set(m, ids[i], 0);
    free(ids);
    return nodes;
}
