/* view_perf.h: the perf model as a policy sees it (view->perf), one
 * implementation for the simulator (sim/engine.c) and the live daemon
 * (live/daemon.c), so that a policy gets the same answers from both.
 *
 * A view_perf_src_t names the perf model and how the view's indices map onto
 * it (cluster GPU type -> perf type, view workload -> perf workload).
 * view_perf_bind() fills a view_perf_t whose callbacks read that source:
 * throughput (goodput at the job's progress where the backend has it),
 * samples/s, batch limits, statistical efficiency (from the job's gradient
 * noise scale), goodput, and space sharing (the perf model's pair rates:
 * view_perf_pair() is the one implementation the engine's rates, the view's
 * pair_throughput and the live fake job all use). The future batch schedule
 * depends on what the caller knows (the engine's oracle adaptation state;
 * live has none), so the caller supplies it. */
#ifndef MLS_VIEW_PERF_H
#define MLS_VIEW_PERF_H

#include "model/perf.h"
#include "policies/policy.h"

typedef struct view_perf_src {
    const mls_perf_t *perf;
    int n_types;
    const int *typemap;        /* cluster type -> perf type, -1 when the model lacks it */
    const int *type_node_gpus; /* most GPUs on one node of each type */
    int one_node;              /* 1: every rate on one node (--spread-rate consolidated) */
    const int *wmap;           /* view workload -> perf workload; NULL: the same index */
    void *owner;               /* passed to schedule */
    int (*schedule)(void *owner, const view_job_t *j, view_batch_step_t *out, int max);
} view_perf_src_t;

/* Space sharing: the rates of perf workloads a and b sharing the same `gpus`
 * GPUs of perf type t, a's in out[0] and b's in out[1] (the simulator rates
 * the job that holds the GPUs as a, the one that joined it as b). When the
 * model marks exactly one of them a multiplexing foreground on these GPUs
 * (perf_ops_t.multiplex: DeepPool's GPU multiplexing), the rates come from
 * that model, in either order: the foreground at its solo rate x (1 -
 * interference), the background at its solo rate on these GPUs x the
 * foreground's idle fraction; otherwise from the model's pair data. Returns 0,
 * or -1 when they cannot share (no pair data, an index out of range, the
 * model refuses the pair); out is then untouched. */
int view_perf_pair(const mls_perf_t *perf, int a, int b, int t, int gpus, double out[2]);
/* Points vp's callbacks at src (which must outlive vp). */
void view_perf_bind(view_perf_t *vp, view_perf_src_t *src);
/* The perf workload of a view job, -1 when the model lacks it. */
int view_perf_workload(const view_perf_src_t *src, const view_job_t *vj);

#endif
