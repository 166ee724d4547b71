/* engine_fixture.h: tiny hand-built clusters, traces and a linear perf model
 * for engine tests, so they do not depend on files. Rate of workload w on g
 * GPUs = rates[w] * g work units/s, on every GPU type ("v100" and "k80" at
 * half speed). Two jobs may share GPUs at 0.6 of their solo rates, except
 * workload 2, which cannot share. */
#ifndef MLS_ENGINE_FIXTURE_H
#define MLS_ENGINE_FIXTURE_H

#include "model/cluster.h"
#include "model/perf.h"
#include "model/trace.h"

mls_perf_t *fixture_perf(int n_workloads, const double *rates);
/* n_nodes nodes of gpus_per_node GPUs of one type ("v100"). */
void fixture_cluster(mls_cluster_t *c, int n_nodes, int gpus_per_node);
/* Appends a rigid job of workload "w<wl>". */
void fixture_job(mls_trace_t *t, int64_t id, double submit, int wl, int gpus, double work);

#endif
