/* pack.h: space sharing carried out live — the pack control file.
 *
 * When a policy packs two jobs (pack_with, policies/policy.h) the live daemon
 * runs both on the same GPUs (the same CUDA_VISIBLE_DEVICES). A real job
 * needs to know nothing of it: it simply shares the GPU. The synthetic job
 * (`mlsched live fake-job`) must run at the pair rate the perf model gives
 * while its partner runs and at its solo rate once the partner has ended,
 * as the simulator rates it, so it learns its partner from a small text file
 * that the daemon keeps in its run dir (named to the job by
 * MLSCHED_PACK_FILE) and rewrites, atomically (write and rename), whenever
 * the job's partner changes:
 *
 *   mlsched-pack 1
 *   partner 7                      id of the job sharing its GPUs, or "none"
 *   role owner                     owner: it was placed first and holds the
 *                                  GPUs; joiner: it joined them. The perf
 *                                  model's pair entry is read owner first
 *                                  (as the simulator reads it).
 *   workload LM (batch size 20)    the partner's workload (the rest of the line)
 *   since 1763859123.250000        wall clock (CLOCK_REALTIME s) from which
 *                                  this holds: the partner's exit time when
 *                                  it has ended, so a job that reads the file
 *                                  late can correct its progress since then
 *
 * "partner none" takes only `since`. Blank lines and lines starting with '#'
 * are ignored; an unknown key, a key given twice, a missing key or a bad
 * value is an error naming PATH:LINE and the field. */
#ifndef MLS_LIVE_PACK_H
#define MLS_LIVE_PACK_H

#include "model/util.h"

#include <stddef.h>
#include <stdint.h>

#define LIVE_PACK_MAX_FILE 4096 /* bytes: a longer file is malformed */

typedef struct live_pack {
    int64_t partner;    /* -1: the job runs alone */
    int owner;          /* 1: it holds the GPUs (rated first), 0: it joined them */
    char workload[512]; /* the partner's workload, "" alone */
    double since;       /* wall clock s */
} live_pack_t;

/* Parses len bytes of a pack file (need not be NUL-terminated); path names it
 * in errors. Returns 0, or -1 with err (out is then unspecified). */
int live_pack_parse(const char *text, size_t len, const char *path, live_pack_t *out,
                    mls_err_t *err);
/* The file's text (caller frees); live_pack_parse() reads it back. */
char *live_pack_format(const live_pack_t *p);
/* Writes the file atomically (mode 0600). */
int live_pack_write(const char *path, const live_pack_t *p, mls_err_t *err);
/* Reads and parses the file: 0, 1 when it does not exist (out: alone), -1
 * with err when it cannot be read or is malformed. */
int live_pack_read(const char *path, live_pack_t *out, mls_err_t *err);

#endif
