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
 * pollux_steps_placed() looks a job's GPUs per node up as the artifact does
 * (the placement's lexicographically smallest rotation among the rows as
 * written, then linear in the local batch); pollux_steps_at() knows only the
 * GPU and node counts and uses the per-(nodes, replicas, local batch) means
 * (exact on one node, where a placement is its GPU count).
 *
 * validation-<batch>.csv (progress, iteration, metric, grad_sqr, grad_var per
 * epoch) gives the statistical efficiency as the artifact computes it:
 * pollux_steps_efficiency().
 *
 * Simplifications: where no pair has the job's (nodes, replicas) (5, 7,
 * 9-11, 13-15 nodes, or GPU counts scalability.csv skips) the artifact
 * interpolates linearly over a 3-D Delaunay triangulation of all the points
 * (scipy's LinearNDInterpolator, Qhull); here the value is linear along the
 * axes instead: in the local batch within a pair, then in the GPUs between
 * the nearest pairs of the same node count, then in the nodes between the
 * nearest node counts that give a value (nothing clamped across pairs; no
 * value: -1, and the backend uses its fitted model). On the configurations
 * Pollux's eight workloads reach under tiresias-las (16 GPUs on 5 nodes, 24
 * on 7, 32 on 9-10, 48 on 13) the step times are those of the artifact to
 * 0.1 %, except 24 GPUs on 7 nodes (0.4 %) and 48 on 13 (1 %); on random
 * points median 0.5 %, at most 8 %. Outside the measured local batches of a
 * pair the nearest measured one is used (the artifact would stop). Nodes
 * are capped at 16, as the artifact does. */
#ifndef MLS_POLLUX_MEASURED_H
#define MLS_POLLUX_MEASURED_H

#include "model/util.h"

#include <stddef.h>

typedef struct pollux_step {
    int nodes, gpus;
    double local_bsz, step_time, sync_time; /* s */
} pollux_step_t;

/* A row of placements.csv as written: placement digits (GPUs per node). */
typedef struct pollux_placed {
    char id[20];
    double local_bsz, step_time, sync_time; /* s */
} pollux_placed_t;

/* One row of placements.csv or scalability.csv as read (pollux_rows_read). */
typedef struct pollux_row {
    char id[20]; /* the placement's digits; "" for scalability.csv or a longer one */
    int nodes, gpus;
    double local_bsz, step_time, sync_time; /* s; sync_time 0 when the file has none */
} pollux_row_t;

enum {
    POLLUX_ROWS_OPTIONAL = 1,     /* a file that cannot be opened: 0 rows, no error */
    POLLUX_ROWS_SYNC_OPTIONAL = 2 /* no sync_time column: sync_time 0 */
};

/* The one reader of Pollux's and Sia's profile tables (the measured rates
 * here and the catalog fit, pollux_catalog.c): columns found by header,
 * placement or else num_nodes and num_replicas, local_bsz, step_time,
 * sync_time; numbers as written (mls_parse_double: decimal, no hex, inf or
 * nan); placement digits 1-9; local_bsz, step_time > 0; 0 <= sync_time <=
 * step_time. Fills *out (malloc'd, file order); returns the count, or -1
 * with "FILE:LINE: field: not a valid sample" (or the header's need) in err. */
long pollux_rows_read(const char *path, int flags, pollux_row_t **out, mls_err_t *err);

/* One validation-<batch>.csv: the gradient statistics of each epoch. */
typedef struct pollux_valid {
    double batch;
    double *sqr, *var; /* per epoch (row) */
    int n_ep;
} pollux_valid_t;

typedef struct pollux_steps {
    pollux_step_t *rows; /* means per (nodes, gpus, local_bsz), sorted */
    size_t n;
    pollux_placed_t *placed; /* placements.csv's rows, sorted by (id, local_bsz) */
    size_t n_placed;
    pollux_valid_t *valid; /* validation-*.csv, by batch; none: 0 */
    int n_valid;
} pollux_steps_t;

/* Reads DIR/placements.csv, DIR/scalability.csv and DIR/validation-B.csv
 * (the last two when present) into *out; 0, or -1 with FILE:LINE in err. */
int pollux_steps_read(const char *dir, pollux_steps_t *out, mls_err_t *err);
/* Step and synchronisation time at (nodes, gpus, local batch): 0, or -1
 * when no row has those nodes and GPUs. */
int pollux_steps_at(const pollux_steps_t *s, int nodes, int gpus, double local_bsz, double *step,
                    double *sync);
/* The same for a job with per_node[0..nodes) GPUs per node (in the order its
 * GPUs name the nodes): that placement's own rows when placements.csv has
 * them (as a rotation), else pollux_steps_at(). 0, or -1 as it. */
int pollux_steps_placed(const pollux_steps_t *s, const int *per_node, int nodes, double local_bsz,
                        double *step, double *sync);
/* The statistical efficiency of a total batch in an epoch (0-based) for a
 * job whose initial batch is m0, as the artifact's simulator makes it:
 * gain / scale = (var + sqr) / (var + sqr x batch / m0), with grad_sqr and
 * grad_var each linear in the batch between the validation files around it
 * (get_grad_stats(); the nearest file outside them, the last row past the
 * last epoch). 0, or -1 when there are no validation files. */
int pollux_steps_efficiency(const pollux_steps_t *s, double batch, int epoch, double m0,
                            double *eff);
void pollux_steps_free(pollux_steps_t *s);

#endif
