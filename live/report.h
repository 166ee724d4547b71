/* report.h: the client side of the live daemon's socket.
 *
 * live_request() sends one request line to the daemon's Unix socket and
 * reads its one reply line. live_report() is what a training job calls (C
 * programs link it; others run `mlsched live report`): it sends a progress
 * record for the job named by MLSCHED_JOB_ID to the socket named by
 * MLSCHED_SOCKET. A job never depends on it: when the daemon is away the call
 * fails quietly after a short timeout and the job goes on.
 *
 * Environment a job is started with (the live README lists them all):
 *   MLSCHED_JOB_ID, MLSCHED_SOCKET, MLSCHED_NUM_GPUS, MLSCHED_GPU_TYPE,
 *   MLSCHED_NUM_NODES, MLSCHED_BATCH_SIZE, MLSCHED_CHECKPOINT (file to save
 *   and resume progress), MLSCHED_TIME_SCALE, MLSCHED_START_OVERHEAD,
 *   MLSCHED_ATTEMPT, MLSCHED_WORKLOAD, MLSCHED_TOTAL_WORK, MLSCHED_PACK_FILE
 *   and MLSCHED_PACK_WITH (space sharing, live/pack.h), and
 *   CUDA_VISIBLE_DEVICES. SIGTERM means: checkpoint and exit (exit 0 only
 *   when the job's work is complete); SIGKILL follows after the grace period. */
#ifndef MLS_LIVE_REPORT_H
#define MLS_LIVE_REPORT_H

#include "live/proto.h"
#include "model/util.h"

/* Sends `line` (a JSON object, no newline needed) and returns the reply line
 * (caller frees) or NULL with err. timeout_s bounds connect+send+receive. */
char *live_request(const char *socket_path, const char *line, double timeout_s, mls_err_t *err);

/* Sends a progress record; p->id < 0 takes MLSCHED_JOB_ID, socket_path NULL
 * takes MLSCHED_SOCKET. Returns 0 when the daemon accepted it. */
int live_report(const char *socket_path, const live_progress_t *p, mls_err_t *err);

/* The default socket: $MLSCHED_SOCKET, else $XDG_RUNTIME_DIR/mlsched/live.sock,
 * else /tmp/mlsched-UID/live.sock. Writes into buf. */
const char *live_default_socket(char *buf, size_t len);

#endif
