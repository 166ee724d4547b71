/* exec_slurm.c: the Slurm executor — each run of a job is one Slurm batch job.
 *
 * start: sbatch --gres=gpu:N [--nodelist=NODE] [--partition=P] on a fixed
 * wrapper script, the job's argv passed as the script's arguments (sbatch is
 * exec'd with an argv array; the wrapper runs "$@", which expands to exactly
 * those words, so nothing is ever re-parsed by a shell). The MLSCHED_*
 * variables travel in sbatch's environment (--export=ALL); Slurm itself sets
 * CUDA_VISIBLE_DEVICES from the GRES it grants. The wrapper traps SIGTERM so
 * that it outlives the job's checkpoint, then writes the job's exit status and
 * time to the attempt's exit file, as the local executor's watcher does.
 *
 * signals (sent without waiting: scancel retries for seconds on a job Slurm is
 * still configuring): SIGTERM -> scancel --signal=TERM --full (the job checkpoints and
 * exits; the daemon later submits a fresh run where and when the policy says,
 * so `scontrol requeue`, which lets Slurm choose the time, is not used);
 * SIGKILL -> scancel; SIGSTOP/SIGCONT -> scontrol suspend/resume (Slurm keeps
 * a suspended job's GPUs, so the daemon refuses --preempt suspend here).
 *
 * placement: with --slurm-nodes (the Slurm name of each cluster node, in the
 * cluster's order) a one-node job goes to the node the plan chose; Slurm then
 * picks the GPUs on it (the plan's GPU ids are advisory), and a job over k
 * nodes asks for ceil(N/k) GPUs on each of k nodes.
 *
 * Each run is named mlsched-ID-ATTEMPT, so a daemon killed between sbatch
 * and recording the Slurm id finds the run again by its name.
 *
 * state: the exit file first; else `squeue --json` (every job, one call per
 * 0.2 s at most, cached), falling back to `squeue -h -t all -o "%i %T"`
 * on Slurm versions without --json. A job Slurm no longer lists as active and
 * that left no exit file was killed (status -1). */
#include "executor.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

typedef struct slurm_job_state {
    long id;
    char state[24];
    char name[64];
} slurm_job_state_t;

typedef struct slurm_ctx {
    char *partition;
    char **node_names; /* Slurm node of each cluster node, NULL = let Slurm pick */
    int n_node_names;
    slurm_job_state_t *jobs; /* the last squeue answer */
    size_t n_jobs, cap;
    double queried_at; /* wall s (monotonic); -inf = never */
    pid_t *spawned;    /* scancel/scontrol still running */
    size_t n_spawned, spawned_cap;
    int json_ok;       /* 1 until squeue --json fails once */
} slurm_ctx_t;

static const char wrapper_text[] =
    "#!/bin/sh\n"
    "# mlsched live: runs the job's argv (\"$@\") as given and records how it\n"
    "# ended. SIGTERM is for the job (checkpoint and exit): the wrapper waits.\n"
    "trap 'true' TERM INT HUP\n"
    "\"$@\"\n"
    "code=$?\n"
    "printf '%s %s\\n' \"$code\" \"$(date +%s.%N)\" >\"$MLSCHED_EXIT_FILE.tmp\" &&\n"
    "    mv \"$MLSCHED_EXIT_FILE.tmp\" \"$MLSCHED_EXIT_FILE\"\n"
    "exit $code\n";

/* Runs argv (no shell), optionally in a child prepared by `prep`; returns the
 * exit status (-1 when it could not run) and its stdout in *out (caller frees). */
static int run_cmd(char *const *argv, char **out, void (*prep)(const void *), const void *arg)
{
    int p[2];
    if (pipe(p) < 0)
        return -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0) {
        close(p[0]);
        close(p[1]);
        return -1;
    }
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        dup2(p[1], 1);
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, 0);
            dup2(devnull, 2);
        }
        close(p[0]);
        if (prep)
            prep(arg);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(p[1]);
    size_t cap = 4096, len = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (len + 1 >= cap)
            buf = xrealloc(buf, cap *= 2);
        ssize_t r = read(p[0], buf + len, cap - len - 1);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        len += (size_t)r;
    }
    buf[len] = '\0';
    close(p[0]);
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (out)
        *out = buf;
    else
        free(buf);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

typedef struct env_arg {
    const live_job_t *j;
    const live_launch_t *l;
    const char *exit_file;
} env_arg_t;

static void set_job_env(const void *p)
{
    const env_arg_t *a = p;
    live_job_environment(a->j, a->l);
    setenv("MLSCHED_EXIT_FILE", a->exit_file, 1);
}

static int write_wrapper(const char *path, mls_err_t *err)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(wrapper_text, f) < 0 || fclose(f) != 0)
        return mls_fail(err, "%s: cannot write the Slurm wrapper: %s", path, strerror(errno));
    return chmod(path, 0700) < 0 ? mls_fail(err, "%s: chmod: %s", path, strerror(errno)) : 0;
}

static int slurm_start(live_exec_t *x, live_job_t *j, const live_launch_t *l, mls_err_t *err)
{
    slurm_ctx_t *c = x->ctx;
    char wrapper[4096], exit_file[4096], log[4096], name[64], gres[64], out_opt[4200];
    char part_opt[256], node_opt[128], nodes_opt[64];
    snprintf(wrapper, sizeof wrapper, "%s/slurm-wrapper.sh", l->run_dir);
    if (write_wrapper(wrapper, err) < 0)
        return -1;
    live_job_path(exit_file, sizeof exit_file, l->run_dir, j, "exit");
    live_job_path(log, sizeof log, l->run_dir, j, "log");
    unlink(exit_file);
    int nodes = j->nodes > 0 ? j->nodes : 1;
    snprintf(name, sizeof name, "--job-name=mlsched-%lld-%d", (long long)j->id, j->attempt);
    snprintf(gres, sizeof gres, "--gres=gpu:%d", (j->ngpus + nodes - 1) / nodes);
    snprintf(nodes_opt, sizeof nodes_opt, "--nodes=%d", nodes);
    snprintf(out_opt, sizeof out_opt, "--output=%s", log);
    char *argv[32 + LIVE_MAX_ARGV];
    int n = 0;
    argv[n++] = "sbatch";
    argv[n++] = "--parsable";
    argv[n++] = name;
    argv[n++] = gres;
    argv[n++] = nodes_opt;
    argv[n++] = out_opt;
    argv[n++] = "--open-mode=append";
    argv[n++] = "--export=ALL";
    if (c->partition) {
        snprintf(part_opt, sizeof part_opt, "--partition=%s", c->partition);
        argv[n++] = part_opt;
    }
    if (c->node_names && nodes == 1 && l->node < c->n_node_names) {
        snprintf(node_opt, sizeof node_opt, "--nodelist=%s", c->node_names[l->node]);
        argv[n++] = node_opt;
    }
    argv[n++] = wrapper;
    for (int i = 0; i < j->spec.argc; i++)
        argv[n++] = j->spec.argv[i];
    argv[n] = NULL;
    env_arg_t ea = {j, l, exit_file};
    char *out = NULL;
    int rc = run_cmd(argv, &out, set_job_env, &ea);
    long id = 0;
    char *end = NULL;
    if (out)
        id = strtol(out, &end, 10);
    if (rc != 0 || id <= 0) {
        mls_fail(err, "job %lld: sbatch failed (exit %d): %.200s", (long long)j->id, rc,
                 out ? out : "");
        free(out);
        return -1;
    }
    free(out);
    snprintf(j->ext_id, sizeof j->ext_id, "%ld", id);
    j->pid = 0;
    j->pid_start = 0;
    c->queried_at = -INFINITY; /* the next state check asks Slurm again */
    return 0;
}

/* Starts argv without waiting: scancel retries for seconds on a job that
 * Slurm is still configuring, and the daemon must not stall meanwhile. The
 * child is reaped later by reap_spawned(). */
static void spawn(slurm_ctx_t *c, char *const *argv)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0) {
            dup2(devnull, 0);
            dup2(devnull, 1);
            dup2(devnull, 2);
        }
        execvp(argv[0], argv);
        _exit(127);
    }
    if (pid > 0) {
        xgrow((void **)&c->spawned, &c->spawned_cap, c->n_spawned + 1, sizeof *c->spawned);
        c->spawned[c->n_spawned++] = pid;
    }
}

static void reap_spawned(slurm_ctx_t *c)
{
    size_t k = 0;
    for (size_t i = 0; i < c->n_spawned; i++)
        if (waitpid(c->spawned[i], NULL, WNOHANG) == 0)
            c->spawned[k++] = c->spawned[i];
    c->n_spawned = k;
}

static void slurm_signal(live_exec_t *x, live_job_t *j, int sig)
{
    if (!j->ext_id[0])
        return;
    char *argv[6] = {NULL};
    if (sig == SIGTERM) {
        argv[0] = "scancel", argv[1] = "--signal=TERM", argv[2] = "--full", argv[3] = j->ext_id;
    } else if (sig == SIGKILL) {
        argv[0] = "scancel", argv[1] = j->ext_id;
    } else if (sig == SIGSTOP || sig == SIGCONT) {
        argv[0] = "scontrol", argv[1] = sig == SIGSTOP ? "suspend" : "resume",
        argv[2] = j->ext_id;
    } else
        return;
    spawn(x->ctx, argv);
}

static void remember(slurm_ctx_t *c, long id, const char *state, const char *name)
{
    xgrow((void **)&c->jobs, &c->cap, c->n_jobs + 1, sizeof *c->jobs);
    slurm_job_state_t *s = &c->jobs[c->n_jobs++];
    s->id = id;
    snprintf(s->state, sizeof s->state, "%s", state);
    snprintf(s->name, sizeof s->name, "%s", name);
}

static int query_json(slurm_ctx_t *c)
{
    char *argv[] = {"squeue", "--json", NULL};
    char *out = NULL;
    if (run_cmd(argv, &out, NULL, NULL) != 0) {
        free(out);
        return -1;
    }
    cJSON *o = cJSON_Parse(out);
    free(out);
    const cJSON *jobs = o ? cJSON_GetObjectItemCaseSensitive(o, "jobs") : NULL;
    if (!cJSON_IsArray(jobs)) {
        cJSON_Delete(o);
        return -1;
    }
    const cJSON *e;
    cJSON_ArrayForEach(e, jobs)
    {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "job_id");
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "job_state");
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
        if (cJSON_IsNumber(id) && cJSON_IsString(st))
            remember(c, (long)id->valuedouble, st->valuestring,
                     cJSON_IsString(nm) ? nm->valuestring : "");
    }
    cJSON_Delete(o);
    return 0;
}

static int query_text(slurm_ctx_t *c)
{
    char *argv[] = {"squeue", "-h", "-t", "all", "-o", "%i %T %j", NULL};
    char *out = NULL;
    if (run_cmd(argv, &out, NULL, NULL) != 0) {
        free(out);
        return -1;
    }
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        long id;
        char st[24], nm[64] = "";
        if (sscanf(line, "%ld %23s %63s", &id, st, nm) >= 2)
            remember(c, id, st, nm);
    }
    free(out);
    return 0;
}

/* Refreshes the cache; -1 when Slurm did not answer. */
static int refresh(slurm_ctx_t *c)
{
    double now = mls_wall_seconds();
    if (now - c->queried_at < 0.2)
        return 0;
    c->n_jobs = 0;
    int rc = c->json_ok ? query_json(c) : -1;
    if (rc < 0) {
        c->json_ok = 0;
        c->n_jobs = 0;
        rc = query_text(c);
    }
    if (rc == 0)
        c->queried_at = now;
    return rc;
}

static int active_state(const char *s)
{
    static const char *const active[] = {"PENDING",   "RUNNING",    "SUSPENDED", "COMPLETING",
                                         "CONFIGURING", "REQUEUED", "RESIZING",  "SIGNALING",
                                         "STAGE_OUT", NULL};
    for (int i = 0; active[i]; i++)
        if (!strcmp(s, active[i]))
            return 1;
    return 0;
}

static int read_exit(const char *run_dir, const live_job_t *j, int *status, double *when)
{
    char path[4096];
    live_job_path(path, sizeof path, run_dir, j, "exit");
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int ok = fscanf(f, "%d %lf", status, when) == 2;
    fclose(f);
    return ok;
}

static int slurm_ended(live_exec_t *x, live_job_t *j, const char *run_dir, int *status,
                       double *when)
{
    slurm_ctx_t *c = x->ctx;
    *when = NAN;
    reap_spawned(c);
    int have_exit = read_exit(run_dir, j, status, when);
    if (!have_exit)
        *status = -1;
    /* Ended for the daemon only once Slurm has released the job too (not
     * COMPLETING any more): its GPUs are then free for the next sbatch. */
    if (refresh(c) < 0)
        return j->ext_id[0] ? 0 : 1; /* Slurm is not answering: assume it still runs */
    if (!j->ext_id[0]) {
        /* A daemon killed between sbatch and recording its id: find the run
         * by its name, mlsched-ID-ATTEMPT. */
        char want[64];
        snprintf(want, sizeof want, "mlsched-%lld-%d", (long long)j->id, j->attempt);
        for (size_t i = 0; i < c->n_jobs && !j->ext_id[0]; i++)
            if (!strcmp(c->jobs[i].name, want))
                snprintf(j->ext_id, sizeof j->ext_id, "%ld", c->jobs[i].id);
        if (!j->ext_id[0])
            return 1;
    }
    long id = strtol(j->ext_id, NULL, 10);
    for (size_t i = 0; i < c->n_jobs; i++)
        if (c->jobs[i].id == id) {
            if (active_state(c->jobs[i].state))
                return 0;
            if (!have_exit) /* the wrapper writes its file just before it exits */
                read_exit(run_dir, j, status, when);
            return 1;
        }
    return 1;
}

static void slurm_destroy(live_exec_t *x)
{
    slurm_ctx_t *c = x->ctx;
    if (!c)
        return;
    free(c->partition);
    for (int i = 0; i < c->n_node_names; i++)
        free(c->node_names[i]);
    free(c->node_names);
    free(c->jobs);
    for (size_t i = 0; i < c->n_spawned; i++)
        waitpid(c->spawned[i], NULL, 0);
    free(c->spawned);
    free(c);
    x->ctx = NULL;
}

static const live_exec_ops_t slurm_ops = {"slurm", slurm_start, slurm_signal, slurm_ended,
                                          slurm_destroy};

int live_exec_slurm(live_exec_t *x, const char *partition, const char *nodes, mls_err_t *err)
{
    char *argv[] = {"sinfo", "-h", "-o", "%N", NULL};
    char *out = NULL;
    int rc = run_cmd(argv, &out, NULL, NULL);
    free(out);
    if (rc != 0)
        return mls_fail(err, "--executor slurm: sinfo failed (exit %d): is Slurm running and "
                             "SLURM_CONF set?",
                        rc);
    slurm_ctx_t *c = xcalloc(1, sizeof *c);
    c->partition = partition ? xstrdup(partition) : NULL;
    c->queried_at = -INFINITY;
    c->json_ok = 1;
    if (nodes && *nodes) {
        char *copy = xstrdup(nodes), *save = NULL;
        for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            c->node_names = xrealloc(c->node_names, sizeof(char *) * (size_t)(c->n_node_names + 1));
            c->node_names[c->n_node_names++] = xstrdup(t);
        }
        free(copy);
    }
    x->ops = &slurm_ops;
    x->ctx = c;
    return 0;
}
