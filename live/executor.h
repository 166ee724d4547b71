/* executor.h: how the live daemon runs a job's process (local or Slurm).
 *
 * The daemon decides; an executor only carries out: start a job on given GPUs
 * with its environment, deliver a signal (SIGTERM = checkpoint and stop,
 * SIGKILL, SIGSTOP/SIGCONT for suspension), tell whether it has ended and
 * with which exit status, and after a daemon restart tell whether a job it
 * started before is still alive (re-adoption) or how it ended meanwhile. */
#ifndef MLS_LIVE_EXECUTOR_H
#define MLS_LIVE_EXECUTOR_H

#include "live/state.h"
#include "model/util.h"

typedef struct live_launch {
    const char *gpu_type;  /* cluster type name */
    const char *node_name; /* the node of its first GPU */
    int node;              /* that node's index in the cluster */
    const char *socket;    /* the daemon's socket */
    const char *run_dir;   /* per-daemon folder: logs, pid/exit/checkpoint files */
    double time_scale;
    double start_overhead; /* s (daemon time) the job is told to spend restoring */
    double launch_time;    /* wall clock (CLOCK_REALTIME s) of the decision that starts it */
    char *note;            /* NULL, or a buffer where start() says how it started the job */
    size_t note_len;       /* (the daemon records a non-empty note as an 'exec' event) */
    int partner_attempt;   /* a joiner (j->joined): its partner's current attempt, whose
                              run files tell it the GPUs (Slurm); else unused */
    const char *token;     /* the run's report token (MLSCHED_TOKEN) */
    const int *gpu_node;   /* the cluster node of each global GPU id (a run over several
                              nodes names them all on Slurm), or NULL */
} live_launch_t;

typedef struct live_exec live_exec_t;

typedef struct live_exec_ops {
    const char *name;
    /* Starts attempt j->attempt of j on j->gpu_ids; sets j->pid/pid_start or
     * j->ext_id. */
    int (*start)(live_exec_t *x, live_job_t *j, const live_launch_t *l, mls_err_t *err);
    /* Delivers sig to the job's processes (no-op when it has ended). */
    void (*signal)(live_exec_t *x, live_job_t *j, int sig);
    /* 1 when the job has ended (*status: 0 ok, >0 exit code, 128+N killed by
     * signal N, -1 vanished without a trace) and *when (wall clock,
     * CLOCK_REALTIME s, NAN unknown), 0 while it runs. */
    int (*ended)(live_exec_t *x, live_job_t *j, const char *run_dir, int *status,
                 double *when);
    void (*destroy)(live_exec_t *x);
    /* NULL, or the wall clock (CLOCK_REALTIME s; 0 none) before which the
     * job's next run (after attempt j->attempt) cannot start well: the
     * daemon keeps the job waiting until then instead of start() sleeping,
     * and asks again then (an executor still waiting for a command about the
     * job answers a moment from now). Only l->run_dir, l->node_name and
     * l->node are set. */
    double (*start_after)(live_exec_t *x, const live_job_t *j, const live_launch_t *l);
    /* NULL, or: what became of j's start, which may still be under way when
     * start() returns (Slurm: sbatch, a restart's scontrol commands; the run
     * counts as started meanwhile, and ended() says 0, or 1 with status 127
     * when the start failed): sets j->ext_id once it is known, and a note for
     * an 'exec' event in note (how it started, or why it failed). 1 when
     * there is news (the daemon records the note and saves j), else 0. */
    int (*news)(live_exec_t *x, live_job_t *j, char *note, size_t len);
    /* NULL, or: the executor's work between the loop's turns (the commands it
     * runs beside the loop: their output read, their ends acted on); puts in
     * fds (at most max) the descriptors the loop waits on besides its own,
     * so that it turns again once one is readable; returns how many. */
    int (*poll)(live_exec_t *x, int *fds, int max);
} live_exec_ops_t;

struct live_exec {
    const live_exec_ops_t *ops;
    void *ctx;
};

int live_exec_local(live_exec_t *x, mls_err_t *err);
/* nodes: "a,b,..." the Slurm node name of each cluster node, or NULL. */
int live_exec_slurm(live_exec_t *x, const char *partition, const char *nodes, mls_err_t *err);

/* Sets the job's environment (CUDA_VISIBLE_DEVICES, MLSCHED_*) in this
 * process: call it in a child before exec. */
void live_job_environment(const live_job_t *j, const live_launch_t *l);
/* /proc/PID/stat start time (clock ticks since boot); 0 when PID does not
 * exist or has ended (zombie). */
unsigned long long live_proc_start_time(pid_t pid);

/* Paths of a job attempt's files under run_dir. */
void live_job_path(char *buf, size_t len, const char *run_dir, const live_job_t *j,
                   const char *suffix);

#endif
