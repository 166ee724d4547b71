/* daemon.h: `mlsched live serve` — the live scheduler daemon.
 *
 * One loop, wall clock: jobs arrive through the socket (or at the submit_at
 * they were given), end when their process exits, and at the policy's cadence
 * (on arrivals and completions, every round, or both) the daemon builds a
 * view from live state (policies/policy.h), calls the same policy code the
 * simulator calls, checks the plan with mech_check_plan(), places it with
 * placer_choose() and carries it out through an executor: preempted jobs get
 * SIGTERM (checkpoint and exit) and, after the grace period, SIGKILL, and
 * their GPUs are handed on only once they have exited; started jobs get
 * CUDA_VISIBLE_DEVICES and the MLSCHED_* variables.
 *
 * Daemon time is (wall clock - epoch) x time_scale seconds, so a trace whose
 * jobs report progress at time-scaled rates replays X times faster; every time
 * the policy sees, and every time in the state db, is daemon time. The epoch
 * is kept in the state db, so a restarted daemon goes on with the same clock. */
#ifndef MLS_LIVE_DAEMON_H
#define MLS_LIVE_DAEMON_H

#include "model/util.h"
#include "policies/policy.h"

typedef struct live_config {
    const char *cluster;     /* JSON path or inline spec */
    const char *policy;      /* registry name, or "exec:PATH [ARGS]" */
    /* The policy as policy_resolve() (sim/policy_exec.h) found it, with
     * `args` its resolved arguments; NULL: the daemon looks `policy` up. */
    const policy_ops_t *ops;
    const char *throughputs; /* perf model; NULL = the bundled catalog */
    const char *db_path;     /* state db */
    const char *socket;      /* NULL = live_default_socket() */
    const char *executor;    /* "local" or "slurm" */
    const char *partition;   /* Slurm partition, NULL = default */
    const char *slurm_nodes; /* Slurm name of each cluster node, "a,b,..." or NULL */
    int preempt_suspend;     /* 1: preempt by SIGSTOP, resume by SIGCONT on the same GPUs */
    policy_args_t args;
    double round_len;        /* daemon s; 0 = events only */
    unsigned cadence;        /* 0 = the policy's own */
    double time_scale;       /* daemon s per wall s */
    double restart_overhead; /* daemon s a (re)started job is told to spend restoring */
    double grace;            /* wall s between SIGTERM and SIGKILL */
    int max_failures;        /* failed runs before a job is given up */
    int placement;           /* mech_placement_t (sim/mechanism.h); default auto */
    int quiet;
} live_config_t;

void live_config_defaults(live_config_t *cfg);

/* Runs until drained (every job ended after a drain request) or SIGTERM/SIGINT
 * (jobs keep running and are re-adopted by the next daemon). Returns 0, or -1
 * with err when it cannot start. */
int live_serve(const live_config_t *cfg, mls_err_t *err);

#endif
