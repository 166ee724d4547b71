/* runner.h: a pool of child processes, each a run of an mlsched subcommand.
 *
 * runner_run() starts the tasks with fork/exec (no shell: every argument is
 * passed as it is), at most `jobs` at a time, and reads each child's stdout
 * and stderr through pipes with poll(). Lines of the form printed by
 * `mlsched simulate --progress`
 *     simulate: t=<hours> h, <done>/<total> jobs done, <n> active
 * update the task's progress and are not kept; every other stderr line is
 * kept (the last 8 KiB) to explain a failure. A callback sees the pool about
 * every `tick` seconds and whenever a task ends. Exit statuses are collected
 * with waitpid; a child killed by signal S has status 128+S.
 *
 * runner_capture() runs one command to completion and returns its output, for
 * the small helpers (sbatch, squeue, a probe of a subcommand). */
#ifndef MLS_RUNNER_H
#define MLS_RUNNER_H

#include "model/util.h"

#include <stddef.h>
#include <sys/types.h>

typedef enum { TASK_PENDING, TASK_RUNNING, TASK_DONE } task_state_t;

typedef struct runner_task {
    /* given */
    char **argv; /* argv[0] = the program's name for messages; NULL-ended */
    char *name;  /* e.g. "fifo seed 1", for messages */
    /* filled */
    task_state_t state;
    int status; /* exit status once done; 127: could not exec */
    pid_t pid;
    double start, wall; /* s, monotonic */
    double sim_hours;   /* last progress: simulated time reached */
    long jobs_done, jobs_total;
    char *out; /* stdout, whole (NUL-terminated) */
    char *err; /* stderr minus progress lines, the last 8 KiB */
    size_t out_len, out_cap, err_len, err_cap;
    char line[512]; /* partial stderr line */
    size_t line_len;
    int fd_out, fd_err; /* -1 when closed */
} runner_task_t;

typedef void (*runner_cb_t)(void *ctx, const runner_task_t *tasks, size_t n, double elapsed);

typedef struct runner_opts {
    const char *exe; /* program to exec for every task (argv[0] is only a name);
                      * a name without '/' is searched in PATH */
    int jobs;        /* at most this many at once (>= 1) */
    double tick;     /* s between callbacks while nothing ends; default 1 */
    runner_cb_t cb;
    void *ctx;
} runner_opts_t;

/* Sets a task's argv (copied; argv[0] a name) and name. */
void runner_task_init(runner_task_t *t, const char *name, char *const *argv);
void runner_task_free(runner_task_t *t);

/* Runs every task. Returns the number of tasks that did not exit 0, or -1
 * with a message when the pool itself failed (pipe, fork). */
int runner_run(runner_task_t *tasks, size_t n, const runner_opts_t *o, mls_err_t *err);

/* Runs exe with argv (argv[0] a name) to completion: *out and *err (may be
 * NULL to discard) get its output, *status its exit status. */
int runner_capture(const char *exe, char *const *argv, char **out, char **err, int *status,
                   mls_err_t *err_out);

/* The path of the running executable (/proc/self/exe), for re-exec. */
int runner_self_exe(char *buf, size_t len, mls_err_t *err);

/* Parses a progress line; 0 when it is one. */
int runner_parse_progress(const char *line, double *hours, long *done, long *total);

#endif
