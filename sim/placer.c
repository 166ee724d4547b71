/* placer.c: consolidated best-fit placement of a job's GPUs (see placer.h). */
#include "sim/placer.h"

#include "model/util.h"

#include <stdlib.h>

static int take_from_node(const mls_cluster_t *c, const unsigned char *gpu_free, int node,
                          int want, int *out)
{
    const mls_node_t *nd = &c->nodes[node];
    int got = 0;
    for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus && got < want; g++)
        if (gpu_free[g])
            out[got++] = g;
    return got;
}

static int usable(const int *node_free, const unsigned char *node_up, const mls_cluster_t *c,
                  int i, int type)
{
    return c->nodes[i].type == type && (!node_up || node_up[i]) && node_free[i] > 0;
}

int placer_choose(const mls_cluster_t *c, const int *node_free, const unsigned char *gpu_free,
                  const unsigned char *node_up, int type, int count, int *out)
{
    int best = -1, total = 0;
    for (int i = 0; i < c->n_nodes; i++) {
        if (!usable(node_free, node_up, c, i, type))
            continue;
        total += node_free[i];
        if (node_free[i] >= count && (best < 0 || node_free[i] < node_free[best]))
            best = i;
    }
    if (total < count || count <= 0)
        return -1;
    if (best >= 0) {
        take_from_node(c, gpu_free, best, count, out);
        return 1;
    }
    /* Spread: repeatedly take the node with the most free GPUs (ties to the
     * lower index). Nodes are few compared with events, so O(nodes^2) in the
     * worst case is fine here. */
    unsigned char *used = xcalloc((size_t)c->n_nodes, 1);
    int got = 0, spanned = 0;
    while (got < count) {
        int pick = -1;
        for (int i = 0; i < c->n_nodes; i++)
            if (!used[i] && usable(node_free, node_up, c, i, type) &&
                (pick < 0 || node_free[i] > node_free[pick]))
                pick = i;
        used[pick] = 1;
        got += take_from_node(c, gpu_free, pick, count - got, out + got);
        spanned++;
    }
    free(used);
    return spanned;
}

int placer_nodes_spanned(const mls_cluster_t *c, const int *ids, int n)
{
    int spanned = 0;
    for (int i = 0; i < n; i++) {
        int node = c->gpu_node[ids[i]], seen = 0;
        for (int k = 0; k < i && !seen; k++)
            seen = c->gpu_node[ids[k]] == node;
        spanned += !seen;
    }
    return spanned;
}

int placer_choose_island(const mls_cluster_t *c, const int *node_free,
                         const unsigned char *gpu_free, const unsigned char *node_up, int type,
                         int count, int *out)
{
    int max_rack = -1;
    for (int i = 0; i < c->n_nodes; i++)
        if (c->nodes[i].rack > max_rack)
            max_rack = c->nodes[i].rack;
    if (max_rack < 0 || count <= 0)
        return -1;
    int *free_in = xcalloc((size_t)max_rack + 1, sizeof(int)), best = -1;
    for (int i = 0; i < c->n_nodes; i++)
        if (usable(node_free, node_up, c, i, type) && c->nodes[i].rack >= 0)
            free_in[c->nodes[i].rack] += node_free[i];
    for (int r = 0; r <= max_rack; r++)
        if (free_in[r] >= count && (best < 0 || free_in[r] < free_in[best]))
            best = r;
    int spanned = -1;
    if (best >= 0) {
        unsigned char *in = xmalloc((size_t)c->n_nodes);
        for (int i = 0; i < c->n_nodes; i++)
            in[i] = c->nodes[i].rack == best && (!node_up || node_up[i]);
        spanned = placer_choose(c, node_free, gpu_free, in, type, count, out);
        free(in);
    }
    free(free_in);
    return spanned;
}
