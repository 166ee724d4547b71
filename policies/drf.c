/* drf.c: Dominant Resource Fairness across users over GPUs, CPUs and host
 * memory (non-preemptive, gang).
 *
 * Ghodsi et al., "Dominant Resource Fairness: Fair Allocation of Multiple
 * Resource Types", NSDI 2011, §4 (the DRF scheduling algorithm, Algorithm 1,
 * progressive filling). A user's dominant share is the largest of its shares
 * of the cluster's GPUs, CPUs and memory, summed over its running jobs. Free
 * resources are offered to the user with the lowest dominant share, who
 * launches its oldest waiting job (the "task" of the paper) when the job's
 * GPUs (all of them: gang), CPUs and memory fit; shares are updated and the
 * loop repeats until nothing more fits. Jobs that hold GPUs keep them.
 *
 * Demands: view_job_t.cpus and .mem_gb (trace columns cpus, mem_gb; by
 * default the cluster's CPUs and memory per GPU times the job's GPUs, in which
 * case DRF reduces to GPU fairness across users). Capacity: the GPUs, CPUs and
 * memory of the nodes that are up.
 *
 * Simplifications and why:
 * - CPUs and memory are one cluster-wide pool, as in the paper's model of a
 *   cluster (§4); the mechanism places GPUs, and a node's CPUs are not tracked
 *   per job, so a per-node CPU check would have nothing to check against.
 * - GPUs of all types count as one resource for the shares (DRF has no notion
 *   of heterogeneous units); a job runs on the fastest type with room.
 * - When the lowest-share user's oldest job does not fit, that user gets
 *   nothing more in this decision (Algorithm 1 stops at the first task that
 *   does not fit; stopping only that user lets the others use what is left,
 *   without letting a user's small jobs overtake its own large one).
 * - Ties between users with equal shares go to the one whose waiting job
 *   arrived first (submit, id); users are unweighted (job priorities are not
 *   user weights).
 * - Non-preemptive, decided on arrivals and completions, as Algorithm 1
 *   (resources are offered when tasks finish). */
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <stdlib.h>

int drf_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    return pu_create_noargs("drf", state, args, err, errlen);
}

void drf_destroy(void *state)
{
    (void)state;
}

/* Capacity (0 = that resource is unknown and left out of the shares). */
typedef struct drf_cap {
    double gpus, cpus, mem;
} drf_cap_t;

static drf_cap_t capacity(const view_t *v)
{
    drf_cap_t c = {0, 0, 0};
    for (int k = 0; k < v->n_nodes; k++)
        if (v->nodes[k].up) {
            c.gpus += v->nodes[k].gpus;
            c.cpus += v->nodes[k].cpus;
            c.mem += v->nodes[k].mem_gb;
        }
    if (v->n_nodes <= 0 || !v->nodes)
        for (int t = 0; t < v->n_types; t++)
            c.gpus += v->types[t].total_gpus;
    return c;
}

static double share(const drf_cap_t *c, const drf_cap_t *used)
{
    double s = c->gpus > 0 ? used->gpus / c->gpus : 0;
    if (c->cpus > 0 && used->cpus / c->cpus > s)
        s = used->cpus / c->cpus;
    if (c->mem > 0 && used->mem / c->mem > s)
        s = used->mem / c->mem;
    return s;
}

static void add_use(drf_cap_t *u, const view_job_t *jb, int gpus)
{
    u->gpus += gpus;
    u->cpus += jb->cpus;
    u->mem += jb->mem_gb;
}

/* 1 when the job's CPUs and memory fit next to what is in use. */
static int host_fits(const drf_cap_t *c, const drf_cap_t *in_use, const view_job_t *jb)
{
    const double eps = 1e-9;
    return (c->cpus <= 0 || in_use->cpus + jb->cpus <= c->cpus * (1 + eps)) &&
           (c->mem <= 0 || in_use->mem + jb->mem_gb <= c->mem * (1 + eps));
}

int drf_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)state;
    (void)err;
    (void)errlen;
    int n_users = v->n_users;
    for (int j = 0; j < v->n_jobs; j++)
        n_users = v->jobs[j].user >= n_users ? v->jobs[j].user + 1 : n_users;
    drf_cap_t cap = capacity(v), in_use = {0, 0, 0};
    drf_cap_t *used = pu_alloc((size_t)n_users, sizeof *used);
    int *next = pu_alloc((size_t)n_users, sizeof *next); /* position in order, per user */
    char *blocked = pu_alloc((size_t)n_users, 1);
    int *order = pu_alloc((size_t)v->n_jobs, sizeof *order);
    pu_room_t r;
    pu_room_init(&r, v);
    pu_arrival_order(v, order);
    for (int i = 0; i < v->n_jobs; i++) { /* running jobs keep their GPUs */
        int j = order[i];
        const view_job_t *jb = &v->jobs[j];
        if (pu_holds(jb) && jb->user >= 0 && pu_keep(v, &r, plan, j)) {
            add_use(&used[jb->user], jb, jb->cur_gpus);
            add_use(&in_use, jb, jb->cur_gpus);
        }
    }
    for (;;) {
        int pick = -1, pick_job = -1; /* the lowest-share user with a waiting job */
        double pick_share = 0;
        for (int u = 0; u < n_users; u++) {
            while (!blocked[u] && next[u] < v->n_jobs) {
                int j = order[next[u]];
                if (v->jobs[j].user == u && plan_find(plan, j) < 0 && !pu_holds(&v->jobs[j]) &&
                    pu_ever_fits(v, j))
                    break;
                next[u]++;
            }
            if (blocked[u] || next[u] >= v->n_jobs)
                continue;
            double s = share(&cap, &used[u]);
            if (pick < 0 || s < pick_share || (s == pick_share && next[u] < next[pick])) {
                pick = u;
                pick_share = s;
            }
        }
        if (pick < 0)
            break;
        pick_job = order[next[pick]];
        const view_job_t *jb = &v->jobs[pick_job];
        if (host_fits(&cap, &in_use, jb) && pu_start(v, &r, plan, pick_job)) {
            add_use(&used[pick], jb, jb->gpus_requested);
            add_use(&in_use, jb, jb->gpus_requested);
            next[pick]++;
        } else {
            blocked[pick] = 1;
        }
    }
    pu_room_free(&r);
    free(order);
    free(blocked);
    free(next);
    free(used);
    return 0;
}
