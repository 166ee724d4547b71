/* wrap.h: measuring one point of a user's training command (`profile run`).
 *
 * wrap_measure() runs the command once, without a shell (fork + execvp), with
 * "{batch}", "{gpus}" and "{accum}" in its arguments replaced by the point's
 * values and with CUDA_VISIBLE_DEVICES (the point's devices),
 * CUDA_DEVICE_ORDER=PCI_BUS_ID, MLSCHED_BATCH_SIZE, MLSCHED_NUM_GPUS and
 * MLSCHED_ACCUM_STEPS set. It reads the command's stdout and stderr line by
 * line (progress.h): the first `warmup` iterations are dropped, then it
 * measures until `iters` iterations, or — with ci > 0 — until at least
 * `min_iters` and the median's 95 % confidence interval (order statistics,
 * distribution-free) is within +-ci of the median. Lines that repeat an
 * iteration number already seen (several ranks printing) count once. Lines
 * without an iteration time are timed by the clock between progress lines.
 * A `batch=` that is neither the point's per-GPU batch nor that times the GPUs
 * and/or accumulation steps is an error (the job ignores {batch}). An
 * iteration is one optimizer step (accum micro-batches on each GPU).
 * Then it stops the command: SIGTERM, and SIGKILL after `kill_after` seconds.
 * A command that exits first keeps what it gave if that is >= min_iters.
 * A command that gives too few iterations within `timeout` seconds, or exits
 * with too few, is an error that says how many it gave and quotes its last
 * output lines. With NVML, the peak device memory above the idle baseline is
 * sampled every 100 ms; a `mem=` value in the progress lines wins over it. */
#ifndef MLS_WRAP_H
#define MLS_WRAP_H

#include "model/util.h"
#include "profiler/nvml.h"
#include "profiler/progress.h"

#include <stdint.h>

typedef struct wrap_opts {
    char *const *argv; /* the command template, NULL-terminated */
    int batch, gpus, accum;
    const int *devices; /* device index of each of the gpus GPUs */
    int warmup, iters, min_iters;
    double ci;         /* relative half-width that stops early; 0 = run to iters */
    double timeout;    /* s for the whole point */
    double kill_after; /* s between SIGTERM and SIGKILL */
    const progress_regex_t *re; /* NULL: the mlsched-progress protocol */
    mls_nvml_t *nvml;           /* NULL: no memory sampling */
    int verbose;                /* echo the command's output to stderr */
} wrap_opts_t;

typedef struct wrap_result {
    double median, p10, p90; /* s per iteration */
    double rel_ci;           /* the median's 95 % CI half-width / median */
    int measured;            /* iterations measured (after warm-up) */
    int64_t mem_bytes;       /* 0 = unknown */
    int stopped;             /* 1: we stopped it, 0: it exited on its own */
    int killed;              /* 1: it needed SIGKILL */
} wrap_result_t;

int wrap_measure(const wrap_opts_t *o, wrap_result_t *res, mls_err_t *err);

/* The argv with placeholders replaced (caller frees with wrap_free_argv). */
char **wrap_expand_argv(char *const *argv, int batch, int gpus, int accum);
void wrap_free_argv(char **argv);

/* Median, p10, p90 and the median's relative 95 % CI of x (sorted in place). */
void wrap_summarize(double *x, int n, double *median, double *p10, double *p90,
                    double *rel_ci);

#endif
