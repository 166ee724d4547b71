/* pollux_measured.h: Pollux's measured step times, interpolated as the
 * adaptdl osdi21-artifact simulator does (simulator/applications.py,
 * Application.get_throughput), for the pollux backend's measured-rates mode.
 *
 * A profile directory holds placements.csv (placement, local_bsz, step_time,
 * sync_time; a placement "13" is 1 GPU on one node and 3 on another) and,
 * optionally, scalability.csv (num_nodes, num_replicas, local_bsz,
 * step_time, sync_time) for more nodes than placements.csv covers. The
 * artifact interpolates linearly in the local batch among the rows of the
 * job's exact placement, and for a placement it has no rows for, linearly
 * over (nodes, replicas, local batch) among the per-(nodes, replicas,
 * local batch) means of placements.csv and the rows of scalability.csv.
 *
 * Simplifications: the engine knows a job's GPU and node counts, not its GPUs
 * per node, so every lookup uses the per-(nodes, replicas, local batch)
 * means (exact on one node, where a placement is its GPU count); a (nodes,
 * replicas) pair without rows is not interpolated across pairs (the
 * artifact's 3-D Delaunay interpolation): pollux_steps_at() returns -1 and
 * the backend uses its fitted model. Outside the measured local batches
 * the nearest measured one is used (the artifact would stop). Nodes are
 * capped at 16, as the artifact does. */
#ifndef MLS_POLLUX_MEASURED_H
#define MLS_POLLUX_MEASURED_H

#include "model/util.h"

#include <stddef.h>

typedef struct pollux_step {
    int nodes, gpus;
    double local_bsz, step_time, sync_time; /* s */
} pollux_step_t;

typedef struct pollux_steps {
    pollux_step_t *rows; /* means per (nodes, gpus, local_bsz), sorted */
    size_t n;
} pollux_steps_t;

/* Reads DIR/placements.csv and DIR/scalability.csv (when present) into *out
 * (sorted by nodes, gpus, local batch); 0, or -1 with FILE:LINE in err. */
int pollux_steps_read(const char *dir, pollux_steps_t *out, mls_err_t *err);
/* Step and synchronisation time at (nodes, gpus, local batch): 0, or -1
 * when no row has those nodes and GPUs. */
int pollux_steps_at(const pollux_steps_t *s, int nodes, int gpus, double local_bsz, double *step,
                    double *sync);
void pollux_steps_free(pollux_steps_t *s);

#endif
