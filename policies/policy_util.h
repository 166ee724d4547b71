/* policy_util.h: helpers shared by the policies (policies/NAME.c).
 *
 * Promises: everything here reads only the view (policy.h) and is
 * deterministic. Orders break ties by (submit, id). GPU types are chosen by the
 * profiled throughput (view->perf) of the job on its requested GPU count. The
 * room tracker counts, per GPU type, the GPUs of nodes that are up and not yet
 * given to an allocation of the plan being built; policies fill it greedily.
 * All jobs here are rigid: a job runs on exactly gpus_requested GPUs of one
 * type, placed by the mechanism (plan_run without explicit GPU ids). */
#ifndef MLS_POLICY_UTIL_H
#define MLS_POLICY_UTIL_H

#include "policies/policy.h"

#include <stddef.h>

/* malloc/calloc that abort with a message when memory runs out. */
void *pu_alloc(size_t n, size_t size);

/* Free GPUs per type while a plan is built. */
typedef struct pu_room {
    int n_types;
    int *room;     /* GPUs of each type on up nodes not yet in the plan */
    int *node_max; /* most GPUs on one node of each type (any node, up or not), 0 none */
} pu_room_t;

/* room = GPUs of each type on nodes that are up (types[t].total_gpus when the
 * view lists no nodes); in a queued-only view (view->partial), the free GPUs
 * (types[t].free_gpus): what the running jobs, all kept, leave. */
void pu_room_init(pu_room_t *r, const view_t *v);
void pu_room_free(pu_room_t *r);
/* Sum of r->room over types. */
int pu_room_total(const pu_room_t *r);

/* Fewest nodes of `type` that hold `gpus` GPUs (1 when nodes are unknown). */
int pu_min_nodes(const view_t *v, int type, int gpus);
/* Profiled throughput of job j alone on its request on `type` (packed on the
 * fewest nodes): 0 = cannot run there, NAN = unknown (or no perf table). */
double pu_rate(const view_t *v, int job, int type);
/* Highest known positive rate over the types large enough for the job, NAN
 * when none is known. */
double pu_best_rate(const view_t *v, int job);
/* 1 when the job could run in the empty cluster: it asks for at least one GPU
 * and some type it may run on (rate not 0) has at least that many GPUs. */
int pu_ever_fits(const view_t *v, int job);
/* The types job may run on, fastest first: known rates descending, then
 * unknown rates, ties by type index; types with rate 0 or fewer GPUs than the
 * request are left out. Writes at most v->n_types entries; returns the count. */
int pu_type_order(const view_t *v, int job, int *order);

/* Defines `static void NAME(TYPE *a, TYPE *tmp, int n)`: a stable merge sort
 * of a[0..n) by LESS (an int function of two const TYPE *), with scratch
 * tmp[0..n) (the includer includes <string.h>). Typed copies, insertion sort
 * below 17 elements, and halves already in order are not merged: on the
 * mostly sorted arrays policies order at every call (jobs in arrival order,
 * ranked by keys that change a little) it does much less than qsort. With a
 * total order it returns what qsort returns. */
#define PU_DEFINE_MERGE_SORT(NAME, TYPE, LESS)                                                     \
    static void NAME(TYPE *a, TYPE *tmp, int n)                                                    \
    {                                                                                              \
        if (n <= 16) {                                                                             \
            for (int i_ = 1; i_ < n; i_++) {                                                       \
                TYPE x_ = a[i_];                                                                   \
                int k_ = i_;                                                                       \
                for (; k_ > 0 && LESS(&x_, &a[k_ - 1]); k_--)                                      \
                    a[k_] = a[k_ - 1];                                                             \
                a[k_] = x_;                                                                        \
            }                                                                                      \
            return;                                                                                \
        }                                                                                          \
        int h_ = n / 2, l_ = 0, r_ = h_, o_ = 0;                                                   \
        NAME(a, tmp, h_);                                                                          \
        NAME(a + h_, tmp, n - h_);                                                                 \
        if (!LESS(&a[h_], &a[h_ - 1]))                                                             \
            return;                                                                                \
        memcpy(tmp, a, sizeof *a *(size_t)h_);                                                     \
        while (l_ < h_ && r_ < n)                                                                  \
            a[o_++] = LESS(&a[r_], &tmp[l_]) ? a[r_++] : tmp[l_++];                                \
        while (l_ < h_)                                                                            \
            a[o_++] = tmp[l_++];                                                                   \
    }

/* Sorts n job indices by (key[job] ascending, NAN last; submit; id). */
void pu_sort(const view_t *v, const double *key, int *idx, int n);
/* All active jobs' indices in (submit, id) order, into idx (n_jobs entries). */
void pu_arrival_order(const view_t *v, int *idx);

/* 1 when the job holds GPUs now (running or restarting); inline: policies
 * ask it of every job at every decision. */
static inline int pu_holds(const view_job_t *j)
{
    return j->state != VIEW_QUEUED && j->cur_type >= 0 && j->cur_gpus > 0;
}
/* Keeps a job that holds GPUs on exactly its current allocation when its type
 * has room; returns 1 when added to the plan, 0 otherwise. */
int pu_keep(const view_t *v, pu_room_t *r, plan_t *p, int job);
/* Starts the job on its requested GPU count on the fastest type with room;
 * returns 1 when added to the plan, 0 when no type has room. */
int pu_start(const view_t *v, pu_room_t *r, plan_t *p, int job);
/* Preemptive placement: a job that holds its requested count keeps it when
 * its type has room (no restart cost), otherwise pu_start(). */
int pu_place(const view_t *v, pu_room_t *r, plan_t *p, int job);
/* Preemptive greedy fill: places the n jobs of `order` in turn, skipping those
 * that do not fit (or never can); running jobs left out are preempted. */
void pu_fill(const view_t *v, const int *order, int n, plan_t *p);

/* pu_fill() on a queued-only view (view->partial): places the n listed jobs
 * of `order` in turn on the free GPUs. Returns 1 when each job that ever
 * fits went on the first type of its pu_type_order(): then pu_fill() over
 * the full view, in an order that ranks these jobs alike, plans the same
 * starts in the same order and keeps every running job that holds its
 * request (each queued job finds at least the room it found here, and its
 * first choice; every running job still finds its own GPUs). Returns 0
 * otherwise (some job would take a running job's GPUs or another type):
 * then discard p and decide on the full view. */
int pu_fill_queued(const view_t *v, const int *order, int n, plan_t *p);

/* create() for a policy without parameters: rejects any --param. */
int pu_create_noargs(const char *policy, void **state, const policy_args_t *args, char *err,
                     size_t errlen);

#endif
