/* placement.c: consolidated explicit placement while a plan is built (see
 * placement.h). Small clusters of a few hundred nodes: linear scans. */
#include "policies/placement.h"
#include "policies/policy_util.h"

#include <stdlib.h>
#include <string.h>

void pl_init(pl_map_t *m, const view_t *v, const char *reserved)
{
    m->on = v->n_nodes > 0 && v->nodes && v->gpu_holder && v->n_gpus > 0;
    for (int j = 0; j < v->n_jobs && m->on; j++)
        if (pu_holds(&v->jobs[j]) && !v->jobs[j].cur_gpu_ids)
            m->on = 0;
    size_t n = (size_t)(v->n_gpus > 0 ? v->n_gpus : 1);
    m->free = pu_alloc(n, 1);
    m->held = pu_alloc(n, 1);
    for (int k = 0; k < v->n_nodes && m->on; k++) {
        const view_node_t *nd = &v->nodes[k];
        for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus && g < v->n_gpus; g++) {
            int h = v->gpu_holder[g];
            int busy = h >= 0 && h < v->n_jobs;
            m->held[g] = busy;
            m->free[g] = nd->up && !(busy && reserved && reserved[h]);
        }
    }
}

void pl_free(pl_map_t *m)
{
    free(m->free);
    free(m->held);
    m->free = m->held = NULL;
}

static int usable(const pl_map_t *m, int g, int avoid_held)
{
    return m->free[g] && !(avoid_held && m->held[g]);
}

static int node_room(const pl_map_t *m, const view_node_t *nd, int avoid_held)
{
    int n = 0;
    for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus; g++)
        n += usable(m, g, avoid_held);
    return n;
}

static int fit(const view_t *v, const pl_map_t *m, int type, int gpus, int avoid_held, int *ids)
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
        const view_node_t *nd = &v->nodes[best];
        for (int g = nd->first_gpu, n = 0; ids && n < gpus; g++)
            if (usable(m, g, avoid_held))
                ids[n++] = g;
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
        m->free[ids[i]] = 0;
    free(ids);
    return nodes;
}
