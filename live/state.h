/* state.h: the live daemon's jobs and their durable store (SQLite, WAL).
 *
 * Every job the daemon has accepted is one row of `jobs`; the daemon writes a
 * job's row whenever it changes state (accepted, started, stopped, finished),
 * so a daemon killed at any instant restarts from the last committed row of
 * each job: none is lost (accepted = committed before the client hears "ok")
 * and none runs twice (a start is committed before the process exists, with
 * the attempt number the process's pid and exit files are named by).
 *
 * Tables:
 *   meta(key, value)        epoch (wall clock of daemon time 0), time_scale,
 *                           draining, next_id, and what runs: policy,
 *                           cluster, n_gpus (live/export.h reads them)
 *   jobs(id, ...)           spec (the submission as JSON), state, allocation,
 *                           pid and its start time, progress, counters,
 *                           partner (space sharing: both rows of a pair name
 *                           the same GPUs and each other)
 *   events(t, id, event, detail)   submit, start, stop, finish, fail, cancel,
 *                           adopt, lost, pack (it joined its partner's
 *                           GPUs), unpack (its partner ended: it goes on
 *                           alone): the job's history (a finished job has
 *                           exactly one 'finish' event)
 *   decisions(t, reasons, jobs, plan, decide_ms, error)   every policy call */
#ifndef MLS_LIVE_STATE_H
#define MLS_LIVE_STATE_H

#include "live/proto.h"
#include "model/util.h"

#include <stdint.h>
#include <sys/types.h>

typedef enum live_job_state {
    LJ_PENDING = 0, /* accepted, arrives at submit_at */
    LJ_QUEUED,      /* arrived, holds no GPUs */
    LJ_RUNNING,     /* holds GPUs, its process runs */
    LJ_STOPPING,    /* asked to checkpoint and stop, its process not yet exited: its
                       GPUs are the next job's in the books, which starts on them once
                       this process has gone (the daemon's loop goes on meanwhile) */
    LJ_DONE,        /* exited 0 */
    LJ_FAILED,      /* failed more often than allowed */
    LJ_CANCELLED,
} live_job_state_t;

const char *live_state_name(live_job_state_t s);
int live_state_terminal(live_job_state_t s);

typedef struct live_job {
    int64_t id;
    live_submit_t spec;
    int state;
    int stop_kind; /* why it is stopping: 0 preempt, 1 cancel */
    int suspended; /* stopped with SIGSTOP, process kept (queued in the view) */
    int type, ngpus, nodes, batch;
    int accum;    /* gradient-accumulation steps the plan gave, -1 none (not stored) */
    int *gpu_ids; /* capacity spec.max_gpus */
    int attempt;  /* starts so far; names its pid/exit files */
    pid_t pid;
    unsigned long long pid_start; /* /proc/PID/stat start time, 0 unknown */
    char ext_id[32];              /* executor's own id (Slurm job id), "" none */
    double submit, first_start, last_start, finish, last_update; /* daemon s */
    double attained_time, attained_service, work_done, throughput;
    double gns;         /* gradient noise scale last reported, NAN none (not stored) */
    double reported_at; /* daemon s of its last progress report, NAN none (not stored) */
    double stop_deadline; /* wall s (monotonic) of the SIGKILL after SIGTERM */
    int preemptions, restarts, failures, completions, exit_code;
    int64_t partner; /* id of the job sharing its GPUs (space sharing), -1 none */
    int joined;      /* 1: it joined its partner's GPUs (the partner holds them) */
    int vslot;       /* its index in the daemon's last view (not stored) */
    /* Stops and starts are asynchronous (live/daemon.c); not stored: */
    int *drain_ids;  /* STOPPING: the GPUs its exiting process still occupies */
    int n_drain;
    int relaunch;    /* STOPPING: a plan gave it a new allocation (gpu_ids...), taken
                        up once the old process has exited */
    int waiting;     /* RUNNING in the books, its process not started yet: its GPUs
                        are still draining (or its pair's owner has not started) */
    int launch_resume; /* waiting: it resumes its suspended process (SIGCONT) */
    double launch_t; /* waiting: daemon s of the decision that started it */
    double start_after; /* waiting: not before this wall clock (CLOCK_REALTIME s; the
                           executor's start_after), 0 none */
} live_job_t;

void live_job_free(live_job_t *j);

typedef struct live_db live_db_t;

int live_db_open(live_db_t **db, const char *path, mls_err_t *err);
void live_db_close(live_db_t *db);
/* meta: NULL-returning get (caller frees), set. */
char *live_db_meta_get(live_db_t *db, const char *key);
/* The same on any open handle (live/export.c reads a state database read-only). */
struct sqlite3;
char *live_meta_read(struct sqlite3 *db, const char *key);
int live_db_meta_set(live_db_t *db, const char *key, const char *value, mls_err_t *err);
/* Inserts or replaces the job's row. */
int live_db_put_job(live_db_t *db, const live_job_t *j, mls_err_t *err);
/* Every job, in id order (caller frees each with live_job_free, then the array). */
int live_db_load_jobs(live_db_t *db, live_job_t **jobs, size_t *n, mls_err_t *err);
int live_db_event(live_db_t *db, double t, int64_t id, const char *event, const char *detail);
int live_db_decision(live_db_t *db, double t, unsigned reasons, int n_jobs, const char *plan,
                     double decide_ms, const char *error);
/* Groups writes in one transaction (begin/commit); nesting is not supported. */
int live_db_begin(live_db_t *db);
int live_db_commit(live_db_t *db);

#endif
