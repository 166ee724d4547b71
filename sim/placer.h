/* placer.h: where the mechanism puts a job that the policy gave only a GPU
 * type and count.
 *
 * Consolidation first (Tiresias, Gandiva and Gavel all prefer it, because a
 * job spread over nodes synchronizes over the slower link): if one node of
 * the type has enough free GPUs, take the one with the fewest that still fit
 * (best fit, ties to the lower node index, which keeps large holes for large
 * jobs); otherwise take nodes in decreasing order of free GPUs until the job
 * fits, so it spans as few nodes as possible. Deterministic. */
#ifndef MLS_PLACER_H
#define MLS_PLACER_H

#include "model/cluster.h"

/* Chooses `count` free GPUs of `type`. node_free[i] is the number of free GPUs
 * on node i, gpu_free[g] is 1 when GPU g is free and node_up[i] 1 when node i
 * can be used (NULL: all up). Writes the ids to out and returns the number of
 * nodes spanned, or -1 when the type has fewer than `count` free GPUs. Does not
 * change node_free/gpu_free. */
int placer_choose(const mls_cluster_t *c, const int *node_free, const unsigned char *gpu_free,
                  const unsigned char *node_up, int type, int count, int *out);

/* As placer_choose(), within one island (the nodes of one rack): the rack
 * with the fewest free GPUs of `type` that still fit (ties to the lower
 * rack), then best fit inside it. -1 when no rack has `count` free. */
int placer_choose_island(const mls_cluster_t *c, const int *node_free,
                         const unsigned char *gpu_free, const unsigned char *node_up, int type,
                         int count, int *out);

/* Nodes spanned by a set of GPU ids. */
int placer_nodes_spanned(const mls_cluster_t *c, const int *ids, int n);

#endif
