/* proto.h: the live daemon's request protocol, parsed and validated.
 *
 * A client opens the daemon's Unix socket, writes ONE request as a JSON
 * object on one line (at most LIVE_MAX_REQUEST bytes, newline-terminated or
 * ended by closing its write side) and reads ONE JSON reply line:
 *
 *   {"op":"submit", "argv":["prog","arg",...], "workload":"ResNet-50 (batch size 64)",
 *    "gpus":2, "work":1000, [ "min_gpus":1, "max_gpus":4, "batch":64,
 *    "min_batch":16, "max_batch":256, "user":"alice", "priority":1,
 *    "id":7, "submit_at":120.5 ]}                        -> {"ok":true,"id":7}
 *   {"op":"status"}                 -> {"ok":true,"now":..,"jobs":[{...},...]}
 *   {"op":"cancel","id":7}          -> {"ok":true}
 *   {"op":"drain"}                  -> {"ok":true}
 *   {"op":"report","id":7,"iter":N,"samples":N,"iter_time":S,"batch":B[,"gns":G]}
 *                                   -> {"ok":true}
 * Any failure is {"ok":false,"error":"<what and why>"}.
 *
 * live_parse_request() checks the shape (every field's type and range, no
 * unknown field, no unknown op); live_check_submit() checks a submission
 * against the cluster and the perf model (known workload, enough GPUs of
 * some type, a throughput for it). Neither ever aborts on bad input. */
#ifndef MLS_LIVE_PROTO_H
#define MLS_LIVE_PROTO_H

#include "model/cluster.h"
#include "model/perf.h"
#include "model/util.h"

#include <stddef.h>
#include <stdint.h>

#define LIVE_MAX_REQUEST 65536
#define LIVE_TOKEN_MAX 32 /* a run's report token (MLSCHED_TOKEN), in hex digits at most */
#define LIVE_MAX_ARGV 256

typedef enum live_op {
    LIVE_OP_SUBMIT = 1,
    LIVE_OP_STATUS,
    LIVE_OP_CANCEL,
    LIVE_OP_DRAIN,
    LIVE_OP_REPORT,
} live_op_t;

typedef struct live_submit {
    int argc;
    char **argv; /* argc strings, NULL-terminated */
    char *workload;
    char *user; /* NULL = the submitter's uid */
    int gpus, min_gpus, max_gpus;
    int batch, min_batch, max_batch; /* per-GPU; 0 = the workload's own */
    double work;                     /* work units (iterations for the table model) */
    double priority;
    double submit_at; /* daemon time (s) the job arrives; NAN = now */
    int64_t id;       /* -1 = the daemon assigns one */
    int64_t gang;     /* the multi-component program it is one computation of (Pathways), 0 none */
} live_submit_t;

typedef struct live_progress {
    int64_t id;
    double iter, samples, iter_time; /* iterations, samples, s per iteration */
    int batch;                       /* per-GPU batch */
    double gns;                      /* gradient noise scale, NAN when not given */
    char token[LIVE_TOKEN_MAX + 1];  /* its run's MLSCHED_TOKEN ("": from the environment) */
} live_progress_t;

typedef struct live_request {
    live_op_t op;
    live_submit_t sub;    /* LIVE_OP_SUBMIT */
    int64_t id;           /* LIVE_OP_CANCEL */
    live_progress_t prog; /* LIVE_OP_REPORT */
} live_request_t;

/* Parses `len` bytes of text (need not be NUL-terminated). Returns 0, or -1
 * with a message naming the field. On success free with live_request_free(). */
int live_parse_request(const char *text, size_t len, live_request_t *out, mls_err_t *err);
void live_request_free(live_request_t *r);
void live_submit_free(live_submit_t *s);
/* A deep copy. */
void live_submit_copy(live_submit_t *dst, const live_submit_t *src);

/* Checks a parsed submission against the cluster and the perf model. */
int live_check_submit(const live_submit_t *s, const mls_cluster_t *c, const mls_perf_t *perf,
                      mls_err_t *err);

/* The submission as a JSON object text (caller frees), and back: used by the
 * state store to keep a job's spec. */
char *live_submit_to_json(const live_submit_t *s);
int live_submit_from_json(const char *text, live_submit_t *out, mls_err_t *err);

/* Reply lines (caller frees; each ends in '\n'). */
char *live_reply_error(const char *msg);
char *live_reply_ok(void);

#endif
