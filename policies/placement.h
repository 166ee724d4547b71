/* placement.h: explicit, consolidated GPU placement for policies that care
 * where a job lands (Themis's placement-aware bids, Gandiva-Fair's jobs that
 * run within a server).
 *
 * Promises: a map of the GPUs still free while a plan is built, read from the
 * view alone (nodes, gpu_holder, each holding job's cur_gpu_ids). A placement
 * takes the fewest nodes: best fit on one node when some node has the GPUs,
 * else the nodes with the most free GPUs. GPUs held now by running jobs are
 * avoided when an equally consolidated placement exists elsewhere, so that a
 * job placed early does not evict one planned later. A job that holds GPUs
 * of the type keeps them when they are free and no more spread than a new
 * placement (no restart). When the view does not say who holds which GPUs
 * the map is off and allocations are left to the mechanism (plan_run).
 * Deterministic: ties go to the lowest node index.
 *
 * Queries cost O(GPUs per node + nodes/64), not O(GPUs): pl_init builds an
 * index of each type's nodes by free count (a bit set of nodes per (type,
 * free count), once counting GPUs held now as free and once not), and
 * pl_set keeps it up to date. So `free` must change only through pl_set
 * (pl_run does); a copy of a map that writes its own `free` must set ix to
 * NULL, and queries on it then scan every node as before. */
#ifndef MLS_PLACEMENT_H
#define MLS_PLACEMENT_H

#include "policies/policy.h"

struct pl_index;

typedef struct pl_map {
    int on;              /* 0: no GPU ids known; the mechanism places */
    char *free;          /* per GPU id: on an up node and not yet in the plan */
    char *held;          /* per GPU id: held now by some job */
    struct pl_index *ix; /* nodes by free count (NULL: scan the nodes) */
} pl_map_t;

/* All GPUs of up nodes free, except those of jobs with reserved[j] != 0
 * (reserved may be NULL), which keep their GPUs outside this map. */
void pl_init(pl_map_t *m, const view_t *v, const char *reserved);
void pl_free(pl_map_t *m);
/* Marks GPU g free (is_free != 0) or taken, keeping the index. */
void pl_set(pl_map_t *m, int g, int is_free);
/* Nodes a placement of `gpus` GPUs of `type` would span now (0: too few
 * free GPUs); writes the GPU ids when ids != NULL. */
int pl_fit(const view_t *v, const pl_map_t *m, int type, int gpus, int *ids);
/* Adds job j on its requested GPUs of `type` to the plan with explicit ids
 * and takes them from the map. max_nodes > 0 refuses placements over more
 * nodes. Returns the nodes spanned, 0 when not placed. With the map off it
 * calls plan_run and returns 1. */
int pl_run(const view_t *v, pl_map_t *m, plan_t *p, int j, int type, int max_nodes);

#endif
