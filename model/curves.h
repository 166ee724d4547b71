/* curves.h: the profiler's curve file (`# mlsched-curves v1`), read and written.
 *
 *   # mlsched-curves v1
 *   # gpu_name=NVIDIA H100 80GB HBM3          key=value metadata lines
 *   # gpu_type=h100
 *   workload,gpu_type,num_gpus,num_nodes,local_bsz,accum_steps,iter_time_s,
 *       iter_time_p10_s,iter_time_p90_s,sync_time_s,samples_per_s,mem_bytes,iters
 *   resnet50-224-fp32,h100,1,1,64,1,0.038458,0.038350,0.038770,0,1664.17,10917775872,30
 *
 * One row per workload x GPU type x GPU count x node count x per-GPU batch x
 * accumulation steps (a second row with the same six is a duplicate). The
 * first eight columns are required, in any order; p10/p90 (default: the
 * median), sync_time_s, mem_bytes and iters (default 0) may be left out. Other
 * "#" lines are comments. The reader checks every row and names the first
 * problem as FILE:LINE: column: what; nothing is skipped silently:
 * num_gpus >= 1, 1 <= num_nodes <= num_gpus, local_bsz >= 1, accum_steps >= 1,
 * iter_time_s > 0, p10 <= median <= p90, 0 <= sync_time_s < iter_time_s,
 * samples_per_s within 1 % of num_gpus * local_bsz * accum_steps / iter_time_s,
 * mem_bytes >= 0. Numeric metadata (gpu_mem_bytes, sm_clock_mhz, mem_clock_mhz)
 * must be numbers >= 0.
 *
 * A curve set may hold rows of several files (`mlsched profile fit A B`); each
 * row remembers its file and line, and a duplicate across files is an error
 * naming both. The writer emits the columns in the order above and is atomic
 * (a temporary file renamed into place). GPU types are kept in lower case.
 *
 * The pair-rate file (`# mlsched-pairs v1`): two jobs measured at once on the
 * same GPUs (space sharing), read by the same reader into the same set (the
 * first line says which of the two a file is):
 *
 *   # mlsched-pairs v1
 *   # gpu_type=h100                              key=value metadata, as above
 *   gpu_type,num_gpus,workload_a,local_bsz_a,workload_b,local_bsz_b,
 *       iter_time_a_s,iter_time_b_s,samples_per_s_a,samples_per_s_b,iters
 *   h100,1,resnet50-224-fp32,64,transformer-h512-l6-s128,32,0.0712,0.0301,898.88,1063.12,30
 *
 * iter_time_x_s: the median time of one iteration (one optimizer step, no
 * gradient accumulation) of job x, at per-GPU batch local_bsz_x, while both
 * ran at once on the same num_gpus GPUs of one node. The first eight columns
 * are required, in any order; samples_per_s_x (default num_gpus *
 * local_bsz_x / iter_time_x_s, else it must be within 1 % of that) and iters
 * (default 0) may be left out. Rules: num_gpus >= 1, local_bsz_x >= 1,
 * iter_time_x_s > 0, names as in curve rows. A pair is a GPU type x GPU count
 * x the two workloads in either order; a second row of the same pair (at any
 * batches) is a duplicate. The writer writes curve rows only (pairs go into
 * the catalog, model/curve_catalog.h). */
#ifndef MLS_CURVES_H
#define MLS_CURVES_H

#include "model/util.h"

#include <stdint.h>
#include <stdio.h>

#define CURVES_MAGIC "# mlsched-curves v1"
#define CURVES_HEADER                                                                           \
    "workload,gpu_type,num_gpus,num_nodes,local_bsz,accum_steps,iter_time_s,iter_time_p10_s,"   \
    "iter_time_p90_s,sync_time_s,samples_per_s,mem_bytes,iters"
#define PAIRS_MAGIC "# mlsched-pairs v1"
#define PAIRS_HEADER                                                                            \
    "gpu_type,num_gpus,workload_a,local_bsz_a,workload_b,local_bsz_b,iter_time_a_s,"            \
    "iter_time_b_s,samples_per_s_a,samples_per_s_b,iters"

typedef struct curve_row {
    char workload[128];
    char gpu_type[32];
    int num_gpus, num_nodes, local_bsz, accum_steps;
    double iter_time, iter_p10, iter_p90; /* s: median, 10th and 90th percentile */
    double sync_time;                     /* s: the all-reduce part (0 on one GPU) */
    double samples_per_s;
    int64_t mem_bytes; /* peak per-GPU memory, 0 = unknown */
    int iters;         /* iterations measured */
    int file;          /* index into curve_set_t.files, -1 when made in memory */
    long line;         /* line in that file */
} curve_row_t;

/* One measured pair: member k (0 = a, 1 = b) at per-GPU batch local_bsz[k]. */
typedef struct curve_pair {
    char gpu_type[32];
    int num_gpus;
    char workload[2][128];
    int local_bsz[2];
    double iter_time[2];     /* s, median, while both ran */
    double samples_per_s[2]; /* num_gpus * local_bsz / iter_time */
    int iters;
    int file; /* as in curve_row_t */
    long line;
} curve_pair_t;

typedef struct curve_meta {
    int file;
    char *key, *value;
} curve_meta_t;

typedef struct curve_set {
    curve_row_t *rows;
    size_t n, cap;
    curve_pair_t *pairs;
    size_t n_pairs, pairs_cap;
    curve_meta_t *meta;
    size_t n_meta, meta_cap;
    char **files;
    size_t n_files;
} curve_set_t;

void curves_init(curve_set_t *cs);
void curves_free(curve_set_t *cs);

/* Reads a curve file or a pair file (by its first line) and appends its rows
 * or pairs and metadata. On error, err says FILE:LINE: column: what, and cs
 * keeps only the rows and pairs read before. */
int curves_read(curve_set_t *cs, const char *path, mls_err_t *err);
/* The same from text already in memory; `name` stands for the file. */
int curves_parse(curve_set_t *cs, const char *text, const char *name, mls_err_t *err);

/* Checks a row on its own (the per-row rules above). `where` prefixes the
 * message ("FILE:LINE" or "rows[3]"). */
int curves_check_row(const curve_row_t *r, const char *where, mls_err_t *err);
/* Checks a row and appends it; a duplicate of a row already held is an error
 * naming both places. */
int curves_add(curve_set_t *cs, const curve_row_t *r, const char *where, mls_err_t *err);
/* num_gpus * local_bsz * accum_steps / iter_time. */
double curves_expected_rate(const curve_row_t *r);

/* The same for a pair (the rules above), and appending one; a duplicate pair
 * is an error naming both places. */
int curves_check_pair(const curve_pair_t *p, const char *where, mls_err_t *err);
int curves_add_pair(curve_set_t *cs, const curve_pair_t *p, const char *where, mls_err_t *err);
/* num_gpus * local_bsz[k] / iter_time[k]: member k's samples/s in the pair. */
double curves_pair_rate(const curve_pair_t *p, int k);

/* Adds a metadata entry for file `file` (-1: the set's own, written first). */
void curves_set_meta(curve_set_t *cs, int file, const char *key, const char *value);
/* The value of the first metadata entry with `key` in `file` (-1: any file). */
const char *curves_meta(const curve_set_t *cs, int file, const char *key);

/* "FILE:LINE" of a row (or "row N" when made in memory) into buf. */
const char *curves_where(const curve_set_t *cs, const curve_row_t *r, char *buf, size_t n);
/* The same of a pair ("pairs[N]" when made in memory). */
const char *curves_pair_where(const curve_set_t *cs, const curve_pair_t *p, char *buf, size_t n);

/* Writes the metadata (each key once: its first entry, in the order added)
 * and every row. */
int curves_write_fp(const curve_set_t *cs, FILE *fp);
int curves_write(const curve_set_t *cs, const char *path, mls_err_t *err);

#endif
