/* batch.h: a batch-size change carried out live, in place — the batch
 * control file.
 *
 * A plan may change a running job's batch (batch_size, accum_steps,
 * policies/policy.h) on unchanged GPUs; the policy API promises that such a
 * change takes effect at once and at no cost, and the simulator does exactly
 * that (Pollux's agent re-tunes the batch of a running job; adaptdl does it
 * without a restart). So the live daemon does not restart the job: it tells
 * it through a small text file in its run dir (named to the job by
 * MLSCHED_BATCH_FILE), written before each run starts and rewritten,
 * atomically (write and rename), at every change:
 *
 *   mlsched-batch 1
 *   batch 64                      per-GPU (micro-)batch, 0: the job's own
 *   accum 1                       gradient-accumulation steps, -1: the job
 *                                 splits the batch itself
 *   since 1763859123.250000       wall clock (CLOCK_REALTIME s) of the
 *                                 decision; a job that reads the file late
 *                                 can correct its progress since then
 *
 * The synthetic job (`mlsched live fake-job`) looks at it every step and
 * re-rates itself; a real job may read it at its next step or ignore it (it
 * then runs on at the batch it was started with). Blank lines and lines
 * starting with '#' are ignored; an unknown key, a key given twice, a missing
 * key or a bad value is an error naming PATH:LINE and the field. */
#ifndef MLS_LIVE_BATCH_H
#define MLS_LIVE_BATCH_H

#include "model/util.h"

#include <stddef.h>

#define LIVE_BATCH_MAX_FILE 1024 /* bytes: a longer file is malformed */

typedef struct live_batch {
    int batch;    /* per GPU, 0: the job's own */
    int accum;    /* accumulation steps, -1: the job splits the batch */
    double since; /* wall clock s */
} live_batch_t;

/* Parses len bytes of a batch file (need not be NUL-terminated); path names
 * it in errors. Returns 0, or -1 with err. */
int live_batch_parse(const char *text, size_t len, const char *path, live_batch_t *out,
                     mls_err_t *err);
/* Writes the file atomically (mode 0600). */
int live_batch_write(const char *path, const live_batch_t *b, mls_err_t *err);
/* Reads and parses the file: 0, 1 when it does not exist, -1 with err. */
int live_batch_read(const char *path, live_batch_t *out, mls_err_t *err);

#endif
