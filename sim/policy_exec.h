/* policy_exec.h: policies in any language, as a process that speaks the
 * view/plan protocol over a pipe (docs/exec-policy.md), and the one lookup
 * that finds a policy by what was given to --policy.
 *
 * The idea: a policy outside the binary is still a policy_ops_t. For
 * `--policy 'exec:PATH [ARGS]'`, policy_resolve() starts PATH once (the
 * run's policy process), reads its hello (name, oracle flag, cadence) and
 * returns ops whose create/schedule/destroy talk to that process: create
 * sends the run's parameters, schedule sends the view and reads back the
 * plan (answering the process's perf questions with view->perf, the code
 * that answers C policies), destroy ends the process. The engine, the
 * daemon and the mechanism see an ordinary policy: the plan is validated by
 * the mechanism exactly as a C policy's. For any other name policy_resolve()
 * is policy_find().
 *
 * Why here and not in policies/registry.c: the registry includes only
 * policies/ headers and never spawns processes; the adapter needs the
 * process, cJSON and util.h. Callers that look a policy up by name (the
 * simulate command, the live daemon) call policy_resolve() instead of
 * policy_find(), and pass ref.ops and &ref.args to engine_run() / create().
 *
 * The ops of an exec policy are per run (their name is the spec as given,
 * their oracle flag and cadence the process's hello), so they live in the
 * ref, which policy_release() frees after the run (and ends the process if
 * create() was never called). */
#ifndef MLS_POLICY_EXEC_H
#define MLS_POLICY_EXEC_H

#include "model/util.h"
#include "policies/policy.h"

#define MLS_EXEC_PROTOCOL 1
#define MLS_EXEC_PREFIX "exec:"

typedef struct policy_ref {
    const policy_ops_t *ops; /* the policy to run */
    policy_args_t args;      /* what to give ops->create() */
    void *exec;              /* the exec adapter's state; NULL for a built-in policy */
    policy_samples_t *samples; /* the files its file_params named, read (args.samples) */
} policy_ref_t;

/* 1 when spec names an external policy ("exec:PATH [ARGS]"). */
int policy_is_exec(const char *spec);

/* A built-in name, or "exec:PATH [ARGS]" (PATH and ARGS split at blanks;
 * PATH found on $PATH as execvp does). args: the run's --param pairs, given
 * to the policy (the key exec.timeout=S, seconds per decision, default 60,
 * is the adapter's own). A built-in policy's parameters that name sample
 * files (its file_params) are read here, into out->args.samples. Returns 0,
 * or -1 with err (unknown name, a process that cannot start, a bad hello, a
 * sample file that cannot be read: its file, line and field). */
int policy_resolve(const char *spec, const policy_args_t *args, policy_ref_t *out, mls_err_t *err);

/* Frees what policy_resolve() made; ends a process never created. */
void policy_release(policy_ref_t *ref);

/* Protocol overhead of an exec policy so far (0 for a built-in): decisions,
 * seconds between sending the view and reading the plan, and of those the
 * seconds the policy reported as its own work. */
void policy_exec_stats(const policy_ref_t *ref, long *decisions, double *total_s, double *policy_s);

#endif
