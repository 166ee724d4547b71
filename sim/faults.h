/* faults.h: node failures, recoveries and stragglers injected into a run.
 *
 * Two sources, which may be combined:
 *   - a schedule file (CSV with a header): time,node,event[,factor]
 *       time    s since the trace's start, in [0, MLS_MAX_TIME]; rows in time order
 *       node    a node name from the cluster (e.g. "v100-3") or its index
 *       event   fail | recover | slow | unslow
 *       factor  for slow only (an error on any other event): the node's speed
 *               in (0, 1] (0.5 = half speed)
 *     The file's events tell each node's story: failing a node the file has
 *     failed and not recovered, or recovering one it has not failed, is an
 *     error (the engine would ignore the second fail, so the row means
 *     nothing). slow and unslow set the node's speed, and may repeat.
 *   - a seeded rate: each node fails after an exponential time with mean
 *     1/rate and comes back after an exponential repair time with mean mttr
 *     (drawn by the engine from the run's generator, so runs stay
 *     reproducible).
 * A failed node's GPUs cannot be used; the jobs on it lose the work done since
 * their last checkpoint and wait to be rescheduled. A slowed node slows every
 * synchronous job with a GPU on it to that node's pace (Or et al.: a straggler
 * sets the pace of its data-parallel job). */
#ifndef MLS_FAULTS_H
#define MLS_FAULTS_H

#include "model/cluster.h"
#include "model/util.h"

#include <stddef.h>

typedef enum fault_kind { FAULT_FAIL, FAULT_RECOVER, FAULT_SLOW, FAULT_UNSLOW } fault_kind_t;

typedef struct fault_event {
    double time;
    int node;
    fault_kind_t kind;
    double factor; /* speed for FAULT_SLOW */
} fault_event_t;

typedef struct fault_plan {
    fault_event_t *events; /* from a schedule file, sorted by time */
    size_t n, cap;
    double rate_per_hour;  /* failures per node per hour; 0 = none */
    double mttr;           /* mean time to repair, s */
    double checkpoint_interval; /* s of progress between checkpoints; 0 = at (re)starts only */
} fault_plan_t;

void faults_init(fault_plan_t *f);
void faults_free(fault_plan_t *f);
int faults_read_csv(fault_plan_t *f, const char *path, const mls_cluster_t *c, mls_err_t *err);

#endif
