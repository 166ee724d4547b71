/* view_perf.h: the perf model as a policy sees it (view->perf), one
 * implementation for the simulator (sim/engine.c) and the live daemon
 * (live/daemon.c), so that a policy gets the same answers from both.
 *
 * A view_perf_src_t names the perf model and how the view's indices map onto
 * it (cluster GPU type -> perf type, view workload -> perf workload).
 * view_perf_bind() fills a view_perf_t whose callbacks read that source:
 * throughput (goodput at the job's progress where the backend has it),
 * samples/s, batch limits, statistical efficiency (from the job's gradient
 * noise scale) and goodput. Space sharing and the future batch schedule
 * depend on what the caller knows (the engine's pair table and oracle
 * adaptation state; live has neither), so the caller supplies those two. */
#ifndef MLS_VIEW_PERF_H
#define MLS_VIEW_PERF_H

#include "perf.h"
#include "policy.h"

typedef struct view_perf_src {
    const mls_perf_t *perf;
    int n_types;
    const int *typemap;        /* cluster type -> perf type, -1 when the model lacks it */
    const int *type_node_gpus; /* most GPUs on one node of each type */
    const int *wmap;           /* view workload -> perf workload; NULL: the same index */
    void *owner;               /* passed to pair and schedule */
    int (*pair)(void *owner, const view_job_t *a, const view_job_t *b, int type, int gpus,
                double out[2]);
    int (*schedule)(void *owner, const view_job_t *j, view_batch_step_t *out, int max);
} view_perf_src_t;

/* Points vp's callbacks at src (which must outlive vp). */
void view_perf_bind(view_perf_t *vp, view_perf_src_t *src);
/* The perf workload of a view job, -1 when the model lacks it. */
int view_perf_workload(const view_perf_src_t *src, const view_job_t *vj);

#endif
