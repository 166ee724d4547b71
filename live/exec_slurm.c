/* exec_slurm.c: the Slurm executor — each job is ONE Slurm batch job, for all
 * its runs: preemption parks it (requeued and held), a restart updates it to
 * the new allocation and releases it.
 *
 * first start: sbatch --requeue --gres=gpu:N [--nodelist=NODE] [--partition=P]
 * of a fixed wrapper script, given the job's environment file and then the
 * job's argv as its arguments (sbatch is exec'd with an argv array; the
 * wrapper runs "$@", which expands to exactly those words, so nothing is ever
 * re-parsed by a shell). Slurm fixes a batch job's exported environment at
 * submit, so the MLSCHED_* variables of each run (attempt number, GPU type,
 * launch time, exit file...) are in run_dir/job-ID.env, written (quoted,
 * renamed into place) before the run is started or released; the wrapper
 * sources it. Slurm itself sets CUDA_VISIBLE_DEVICES from the GRES it grants.
 * The wrapper traps SIGTERM so that it outlives the job's checkpoint, then
 * writes the job's exit status and time to the attempt's exit file, as the
 * local executor's watcher does, and logs one line per run (launch and start
 * wall times: the decision-to-running delay).
 *
 * preemption (SIGTERM to a job the daemon is stopping to preempt): scancel
 * --signal=TERM --full (the job checkpoints and exits); after the grace,
 * scancel --signal=KILL --full, which ends the run but not the Slurm job. Once
 * Slurm lists the run as ended, `scontrol requeuehold` parks the job: pending
 * and held, so Slurm never starts it by itself (a plain requeue would, when
 * Slurm chooses, ~11-120 s later).
 *
 * restart: `scontrol update JobId=J` to the new run's name, NumNodes,
 * TresPerNode=gres:gpu:N, ReqNodeList and StartTime=now (a requeued job's
 * begin time is otherwise some seconds away), then `scontrol release`. A job
 * that ended another way (failure) and that Slurm still lists is requeued and
 * held first. A fresh sbatch (a new Slurm job) is the fallback only when Slurm
 * no longer knows the job (purged after MinJobAge), refuses the requeue or the
 * update, or lists it as still running; the reason goes back to the daemon as
 * the start's note (an 'exec' event), as does every release.
 * MLSCHED_SLURM_RESUME=sbatch in the daemon's environment forces the fresh
 * sbatch for every run (to measure it against the release).
 *
 * other signals (sent without waiting: scancel retries for seconds on a job
 * Slurm is still configuring): SIGKILL to a job not being preempted (a
 * cancellation) -> scancel, which also ends a parked job for good;
 * SIGSTOP/SIGCONT -> scontrol suspend/resume (Slurm keeps a suspended job's
 * GPUs, so the daemon refuses --preempt suspend here).
 *
 * placement: with --slurm-nodes (the Slurm name of each cluster node, in the
 * cluster's order) a one-node job goes to the node the plan chose; Slurm then
 * picks the GPUs on it (the plan's GPU ids are advisory). A job over k nodes
 * asks for its N GPUs in all (--gpus=N, TresPerJob) on k nodes, the plan's
 * (with --slurm-nodes), not ceil(N/k) on each: a plan splits N unevenly
 * (6 GPUs as 4 + 2 beside other jobs), and Slurm, asked for 3 and 3 where
 * only 2 were free on one node, kept the job pending while the daemon
 * counted it running (elastic-dp, tests/live_elastic_slurm.sh); without
 * --slurm-nodes such a job could also land on another daemon's nodes. Slurm
 * fills the named nodes in order, so the split is the plan's where the
 * plan's is the only one left free.
 *
 * space sharing (a pair, live/pack.h): Slurm grants a GRES GPU to one job, so
 * the owner is an ordinary --gres=gpu:N job and the joiner a job with no GRES
 * (a CPU only; TresPerNode emptied on a restart) on the same node, which
 * must be named by --slurm-nodes. The wrapper does the rest through files
 * in run_dir: the owner writes "PID CUDA_VISIBLE_DEVICES" to RUN.gpus (RUN =
 * job-ID-ATTEMPT); the joiner (MLSCHED_SLURM_JOIN = the owner's RUN) puts
 * its pid in OWNER.joiner, waits for OWNER.gpus and runs on those GPUs. An
 * owner whose job ends while its joiner runs keeps its Slurm job, and so
 * the GPUs in Slurm's books, until the joiner's wrapper is gone: otherwise
 * Slurm would hand the survivor's device to the next --gres job on the node
 * (without cgroups the ids are global: a real collision). Its exit file then
 * ends in "linger": the run has ended for the daemon though Slurm lists it
 * running (a preempted one is requeued and held once Slurm lists it ended).
 * The joiner writes its exit file only after the owner's wrapper has left,
 * so its GPUs are free in Slurm when the daemon hands them on. A stop that
 * comes before Slurm started the run holds the pending job (scancel cannot
 * signal it), and a release in the wall second in which the job's last run
 * ended waits for the next one (slurmd revokes the job's credentials dated
 * up to that second: "Job credential revoked").
 *
 * Never blocking the daemon's loop (which serves clients and decides): the
 * signals, the hold of a run not yet started, the requeue-hold of a
 * preempted run that has ended and the scancel before a fresh sbatch run
 * beside it (spawn_op(), finished by poll_ops()); the job's next start waits
 * for its hold or requeue-hold, and for a lingering pair owner, through
 * slurm_start_after() as for the revocation second. Only squeue and a
 * restart's update and release are waited for, each for SLURM_CMD_TIMEOUT_S
 * at most, and sbatch.
 *
 * Each run is named mlsched-ID-ATTEMPT, so a daemon killed between sbatch
 * and recording the Slurm id finds the run again by its name.
 *
 * state: the exit file first; else `squeue --json` (every job, one call per
 * 0.2 s at most, cached), falling back to `squeue -h -t all -o "%i %T %Q %j"`
 * on Slurm versions without --json. A run has ended once Slurm lists its job
 * as ended, or parked (pending with priority 0: held), so that a daemon killed
 * around a requeue or a release sees the truth; one that left no exit file
 * was killed or never started (status -1). */
#include "live/executor.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

typedef struct slurm_job_state {
    long id;
    long priority; /* 0 = held */
    char state[24];
    char name[64];
} slurm_job_state_t;

/* A Slurm command the daemon does not wait for: the loop goes on serving
 * and deciding, and poll_ops() finishes it (what `kind` says) once it has
 * exited, or kills it at give_up (it then failed). A start of a job whose
 * hold or requeue-hold is still running waits for it (slurm_start_after). */
typedef enum {
    OP_SIGNAL,      /* scancel/scontrol suspend|resume: nothing to do after */
    OP_HOLD,        /* scontrol hold of a run not yet started (hold_unstarted) */
    OP_REQUEUEHOLD, /* scontrol requeuehold of a preempted run that has ended */
} slurm_op_kind_t;

typedef struct slurm_op {
    pid_t pid;
    int out; /* its stdout and stderr (non-blocking), -1 none */
    slurm_op_kind_t kind;
    long id;         /* the Slurm job */
    double give_up;  /* wall s (monotonic); INFINITY: never killed */
    char what[16];   /* "hold", ... for messages */
    char said[160];  /* the start of its output */
    size_t n_said;
} slurm_op_t;

typedef struct slurm_ctx {
    char *partition;
    char **node_names; /* Slurm node of each cluster node, NULL = let Slurm pick */
    int n_node_names;
    slurm_job_state_t *jobs; /* the last squeue answer */
    size_t n_jobs, cap;
    double queried_at; /* wall s (monotonic); -inf = never */
    struct slurm_op *ops; /* scancel/scontrol still running (slurm_op_t) */
    size_t n_ops, ops_cap;
    long *parked; /* Slurm jobs this daemon requeued and held since */
    size_t n_parked, parked_cap;
    long *released; /* Slurm jobs it released and has not seen out of hold yet */
    size_t n_released, released_cap;
    long *lingering; /* preempted pair owners still keeping their GPUs for the joiner:
                        requeued and held once Slurm lists them ended */
    size_t n_lingering, lingering_cap;
    struct slurm_wait {
        long id;
        double since; /* wall s (monotonic) a start first waited for its lingering run */
    } *waits;
    size_t n_waits, waits_cap;
    struct slurm_end {
        long id;
        time_t sec; /* wall second in which we saw its last run end */
    } *ends;
    size_t n_ends, ends_cap;
    int json_ok;     /* 1 until squeue --json fails once */
    int fresh_only;  /* MLSCHED_SLURM_RESUME=sbatch: no requeue, a new job per run */
} slurm_ctx_t;

static const char wrapper_text[] =
    "#!/bin/sh\n"
    "# mlsched live: $1 is the run's environment file (MLSCHED_*, written by the\n"
    "# daemon before each run); then runs the job's argv (\"$@\") as given and\n"
    "# records how it ended. SIGTERM is for the job (checkpoint and exit): the\n"
    "# wrapper waits. Space sharing: the owner of a pair writes its GPUs to\n"
    "# RUN.gpus; the joiner (MLSCHED_SLURM_JOIN=the owner's DB.d/job-ID-ATTEMPT,\n"
    "# no GRES of its own) registers its pid in OWNER.joiner, takes those GPUs,\n"
    "# and once it ends waits for the owner's wrapper to go; an owner whose job\n"
    "# ends while its joiner runs keeps its Slurm job (and GPUs) until the joiner\n"
    "# ends (\"linger\" in its exit file: its run has ended all the same). A SIGTERM\n"
    "# before the job began (a stop right after a start) means: do not begin it.\n"
    "term=\"\"\n"
    "trap 'term=1' TERM INT HUP\n"
    ". \"$1\" || exit 1\n"
    "shift\n"
    "run=${MLSCHED_EXIT_FILE%.exit}\n"
    "put() { printf '%s\\n' \"$2\" >\"$1.tmp\" && mv \"$1.tmp\" \"$1\"; }\n"
    "own=${MLSCHED_SLURM_JOIN:-}\n"
    "alone() { grep -q '^partner none' \"$MLSCHED_PACK_FILE\" 2>/dev/null; }\n"
    "if [ -n \"$own\" ]; then\n"
    "    put \"$own.joiner\" $$\n"
    "    i=0\n"
    "    while [ ! -s \"$own.gpus\" ] && [ -z \"$term\" ] && ! alone && [ $i -lt 600 ]; do\n"
    "        sleep 0.1\n"
    "        i=$((i + 1))\n"
    "    done\n"
    "    read -r opid CUDA_VISIBLE_DEVICES <\"$own.gpus\" 2>/dev/null\n"
    "    export CUDA_VISIBLE_DEVICES\n"
    "    gone=\"\"\n"
    "    [ -e \"$own.exit\" ] && ! grep -q ' linger$' \"$own.exit\" && gone=1\n"
    "    if [ -z \"$term\" ] && { [ -z \"${opid:-}\" ] || [ -n \"$gone\" ]; }; then\n"
    "        echo \"mlsched-slurm: job $MLSCHED_JOB_ID: its partner's GPUs are not held\" >&2\n"
    "        put \"$own.joiner\" done\n"
    "        put \"$MLSCHED_EXIT_FILE\" \"1 $(date +%s.%N)\"\n"
    "        exit 1\n"
    "    fi\n"
    "elif [ -n \"${MLSCHED_PACK_WITH:-}\" ]; then\n"
    "    put \"$run.gpus\" \"$$ ${CUDA_VISIBLE_DEVICES:-}\"\n"
    "fi\n"
    "printf 'mlsched-slurm: job %s attempt %s slurm_job %s restart %s launch %s "
    "start %s %s\\n' \\\n"
    "    \"$MLSCHED_JOB_ID\" \"$MLSCHED_ATTEMPT\" \"$SLURM_JOB_ID\" "
    "\"${SLURM_RESTART_COUNT:-0}\" \\\n"
    "    \"$MLSCHED_LAUNCH_TIME\" \"$(date +%s.%N)\" \\\n"
    "    \"cvd ${CUDA_VISIBLE_DEVICES:--} slurm_gpus ${SLURM_JOB_GPUS:--}\" >&2\n"
    "code=143\n"
    "[ -n \"$term\" ] || { \"$@\"; code=$?; }\n"
    "end=$(date +%s.%N)\n"
    "linger=\"\"\n"
    "if [ -n \"$own\" ]; then\n"
    "    put \"$own.joiner\" done\n"
    "    i=0\n"
    "    while [ -e \"$own.exit\" ] && kill -0 \"$opid\" 2>/dev/null && [ $i -lt 300 ]; do\n"
    "        sleep 0.1\n"
    "        i=$((i + 1))\n"
    "    done\n"
    "elif [ -n \"${MLSCHED_PACK_WITH:-}\" ]; then\n"
    "    i=0\n"
    "    while [ ! -s \"$run.joiner\" ] && [ -z \"$term\" ] && ! alone && [ $i -lt 600 ]; do\n"
    "        sleep 0.1\n"
    "        i=$((i + 1))\n"
    "    done\n"
    "    jpid=$(cat \"$run.joiner\" 2>/dev/null)\n"
    "    [ -n \"$jpid\" ] && [ \"$jpid\" != done ] && kill -0 \"$jpid\" 2>/dev/null &&\n"
    "        linger=\" linger\"\n"
    "fi\n"
    "put \"$MLSCHED_EXIT_FILE\" \"$code $end$linger\"\n"
    "while [ -n \"$linger\" ] && [ \"$(cat \"$run.joiner\" 2>/dev/null)\" = \"$jpid\" ] &&\n"
    "    kill -0 \"$jpid\" 2>/dev/null; do\n"
    "    sleep 0.1\n"
    "done\n"
    "exit $code\n";

/* Wall seconds a Slurm command the daemon waits for (squeue, and a
 * restart's scontrol update and release, and sbatch) may take: one that has
 * not answered by then (slurmctld down or overloaded: its clients retry for
 * MessageTimeout, 10 s by default) is killed and counts as failed, so that
 * the daemon's loop, which serves clients and decides, is never held up
 * longer. The others are not waited for at all (spawn_op(): signals, the
 * hold of a run not yet started, the requeue-hold of a preempted run that
 * has ended, the scancel before a fresh sbatch); a hold or requeue-hold is
 * still killed after SLURM_CMD_TIMEOUT_S. sbatch gets longer: killed after it had
 * submitted, it would leave a run the daemon never recorded (found again by
 * its name only after a restart), so it is given up on only when Slurm is
 * clearly gone. */
#define SLURM_CMD_TIMEOUT_S 5.0
#define SLURM_SUBMIT_TIMEOUT_S 60.0
/* A start that waits for a Slurm command on its job (hold, requeue-hold)
 * or for its lingering pair owner asks again this many wall s later; the
 * owner is waited for this long at most. */
#define SLURM_RECHECK_S 0.05
#define LINGER_WAIT_S 5.0

/* Runs argv (no shell); returns the exit status (-1 when it could not run,
 * or was killed after SLURM_CMD_TIMEOUT_S, sbatch SLURM_SUBMIT_TIMEOUT_S)
 * and its stdout (and stderr, with_err) in *out (caller frees). */
static int run_cmd(char *const *argv, char **out, int with_err)
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
        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(with_err ? p[1] : devnull, 2);
        close(p[0]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(p[1]);
    size_t cap = 4096, len = 0;
    char *buf = xmalloc(cap);
    double limit = strcmp(argv[0], "sbatch") ? SLURM_CMD_TIMEOUT_S : SLURM_SUBMIT_TIMEOUT_S;
    double give_up = mls_wall_seconds() + limit;
    int timed_out = 0;
    for (;;) {
        if (len + 1 >= cap)
            buf = xrealloc(buf, cap *= 2);
        struct pollfd pf = {p[0], POLLIN, 0};
        int ms = (int)((give_up - mls_wall_seconds()) * 1000) + 1;
        int ready = ms > 0 ? poll(&pf, 1, ms) : 0;
        if (ready < 0 && errno == EINTR)
            continue;
        if (ready == 0) {
            timed_out = 1;
            break;
        }
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
    if (timed_out)
        kill(pid, SIGKILL);
    for (;;) { /* the output ended: the command exits now, or is killed at the deadline */
        pid_t w = waitpid(pid, &st, timed_out ? 0 : WNOHANG);
        if (w < 0 && errno == EINTR)
            continue;
        if (w != 0)
            break;
        if (mls_wall_seconds() >= give_up) {
            timed_out = 1;
            kill(pid, SIGKILL);
            continue;
        }
        struct timespec ts = {0, 2 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (timed_out) {
        fprintf(stderr, "live: %s: no answer within %.0f s: killed\n", argv[0], limit);
        if (len == 0)
            snprintf(buf, cap, "no answer within %.0f s", limit);
    }
    if (out)
        *out = buf;
    else
        free(buf);
    return !timed_out && WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Runs a Slurm command; on failure puts "what: exit N: its output" in why. */
static int slurm_cmd(char *const *argv, const char *what, char *why, size_t len)
{
    char *out = NULL;
    int rc = run_cmd(argv, &out, 1);
    if (rc != 0 && why) {
        size_t n = strlen(out);
        while (n > 0 && (out[n - 1] == '\n' || out[n - 1] == ' '))
            out[--n] = '\0';
        snprintf(why, len, "%s: exit %d: %.120s", what, rc, out);
    }
    free(out);
    return rc;
}

static int write_wrapper(const char *path, mls_err_t *err)
{
    FILE *f = fopen(path, "w");
    if (!f || fputs(wrapper_text, f) < 0 || fclose(f) != 0)
        return mls_fail(err, "%s: cannot write the Slurm wrapper: %s", path, strerror(errno));
    return chmod(path, 0700) < 0 ? mls_fail(err, "%s: chmod: %s", path, strerror(errno)) : 0;
}

/* One shell assignment, the value single-quoted (' as '\\''). */
static void put_assignment(FILE *f, const char *entry)
{
    const char *eq = strchr(entry, '=');
    fprintf(f, "export %.*s='", (int)(eq - entry), entry);
    for (const char *p = eq + 1; *p; p++)
        if (*p == '\'')
            fputs("'\\''", f);
        else
            fputc(*p, f);
    fputs("'\n", f);
}

/* Writes the run's MLSCHED_* environment to `path` for the wrapper to source:
 * a child sets it exactly as the local executor does (live_job_environment)
 * and writes out its MLSCHED_* variables (CUDA_VISIBLE_DEVICES is Slurm's, or
 * for a joiner its owner's: join is the owner's run, DB.d/job-ID-ATTEMPT). */
static int write_env_file(const char *path, const live_job_t *j, const live_launch_t *l,
                          const char *exit_file, const char *join, mls_err_t *err)
{
    fflush(NULL);
    pid_t pid = fork();
    if (pid < 0)
        return mls_fail(err, "fork: %s", strerror(errno));
    if (pid == 0) {
        char tmp[4200];
        live_job_environment(j, l);
        setenv("MLSCHED_EXIT_FILE", exit_file, 1);
        if (join)
            setenv("MLSCHED_SLURM_JOIN", join, 1);
        else
            unsetenv("MLSCHED_SLURM_JOIN");
        snprintf(tmp, sizeof tmp, "%s.tmp", path);
        FILE *f = fopen(tmp, "w");
        if (!f)
            _exit(1);
        for (char **e = environ; *e; e++)
            if (!strncmp(*e, "MLSCHED_", 8) && strchr(*e, '='))
                put_assignment(f, *e);
        if (fflush(f) != 0 || fsync(fileno(f)) != 0 || fclose(f) != 0 || rename(tmp, path) != 0)
            _exit(1);
        _exit(0);
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
        ;
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
        return mls_fail(err, "%s: cannot write the job's environment file", path);
    return 0;
}

/* Where a run goes: its Slurm name and resources. */
typedef struct slurm_place {
    char name[64];       /* mlsched-ID-ATTEMPT */
    int nodes;           /* how many nodes */
    int gpus_per_node;   /* N on one node; 0 for a joiner (it uses its owner's) or a
                            job over several nodes */
    int gpus_per_job;    /* N over several nodes, else 0 */
    const char *node;    /* the Slurm node(s), or NULL: Slurm picks */
    char node_list[256]; /* the nodes of a job over several (node points here) */
} slurm_place_t;

/* The Slurm names of the nodes of a job over several, comma-separated, in
 * the order of its GPUs; 0, or -1 when one is not named. */
static int node_list(const slurm_ctx_t *c, const live_job_t *j, const live_launch_t *l,
                     char *buf, size_t len)
{
    size_t k = 0;
    buf[0] = '\0';
    for (int i = 0; i < j->ngpus; i++) {
        int n = l->gpu_node[j->gpu_ids[i]];
        int seen = 0;
        for (int q = 0; q < i && !seen; q++)
            seen = l->gpu_node[j->gpu_ids[q]] == n;
        if (seen)
            continue;
        if (n < 0 || n >= c->n_node_names || k + strlen(c->node_names[n]) + 2 > len)
            return -1;
        k += (size_t)snprintf(buf + k, len - k, "%s%s", k ? "," : "", c->node_names[n]);
    }
    return 0;
}

static void place_of(const slurm_ctx_t *c, const live_job_t *j, const live_launch_t *l,
                     slurm_place_t *p)
{
    snprintf(p->name, sizeof p->name, "mlsched-%lld-%d", (long long)j->id, j->attempt);
    p->nodes = j->nodes > 0 ? j->nodes : 1;
    p->gpus_per_node = j->joined || p->nodes > 1 ? 0 : j->ngpus;
    p->gpus_per_job = j->joined || p->nodes == 1 ? 0 : j->ngpus;
    p->node = c->node_names && p->nodes == 1 && l->node < c->n_node_names
                  ? c->node_names[l->node]
                  : NULL;
    if (c->node_names && p->nodes > 1 && l->gpu_node &&
        node_list(c, j, l, p->node_list, sizeof p->node_list) == 0)
        p->node = p->node_list;
}

static int submit_fresh(slurm_ctx_t *c, live_job_t *j, const slurm_place_t *p,
                        const char *wrapper, const char *env_file, const char *log,
                        mls_err_t *err)
{
    char name[96], gres[64], out_opt[4200], part_opt[256], node_opt[272], nodes_opt[64];
    snprintf(name, sizeof name, "--job-name=%s", p->name);
    if (p->gpus_per_job > 0)
        snprintf(gres, sizeof gres, "--gpus=%d", p->gpus_per_job);
    else
        snprintf(gres, sizeof gres, "--gres=gpu:%d", p->gpus_per_node);
    snprintf(nodes_opt, sizeof nodes_opt, "--nodes=%d", p->nodes);
    snprintf(out_opt, sizeof out_opt, "--output=%s", log);
    char *argv[32 + LIVE_MAX_ARGV];
    int n = 0;
    argv[n++] = "sbatch";
    argv[n++] = "--parsable";
    argv[n++] = "--requeue";
    argv[n++] = name;
    if (p->gpus_per_node > 0 || p->gpus_per_job > 0)
        argv[n++] = gres;
    argv[n++] = nodes_opt;
    argv[n++] = out_opt;
    argv[n++] = "--open-mode=append";
    argv[n++] = "--export=ALL";
    if (c->partition) {
        snprintf(part_opt, sizeof part_opt, "--partition=%s", c->partition);
        argv[n++] = part_opt;
    }
    if (p->node) {
        snprintf(node_opt, sizeof node_opt, "--nodelist=%.250s", p->node);
        argv[n++] = node_opt;
    }
    argv[n++] = (char *)wrapper;
    argv[n++] = (char *)env_file;
    for (int i = 0; i < j->spec.argc; i++)
        argv[n++] = j->spec.argv[i];
    argv[n] = NULL;
    char *out = NULL;
    int rc = run_cmd(argv, &out, 0);
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
    return 0;
}

static int refresh(slurm_ctx_t *c);
static const slurm_job_state_t *find_state(const slurm_ctx_t *c, long id);
static int active_state(const char *s);

/* A small set of Slurm job ids: index of id, or -1. */
static int id_index(const long *ids, size_t n, long id)
{
    for (size_t i = 0; i < n; i++)
        if (ids[i] == id)
            return (int)i;
    return -1;
}

static void id_set(long **ids, size_t *n, size_t *cap, long id, int in)
{
    int k = id_index(*ids, *n, id);
    if (in && k < 0) {
        xgrow((void **)ids, cap, *n + 1, sizeof **ids);
        (*ids)[(*n)++] = id;
    } else if (!in && k >= 0)
        (*ids)[k] = (*ids)[--*n];
}

static int parked_index(const slurm_ctx_t *c, long id)
{
    return id_index(c->parked, c->n_parked, id);
}

static void set_parked(slurm_ctx_t *c, long id, int parked)
{
    id_set(&c->parked, &c->n_parked, &c->parked_cap, id, parked);
}

static void set_lingering(slurm_ctx_t *c, long id, int in)
{
    id_set(&c->lingering, &c->n_lingering, &c->lingering_cap, id, in);
    for (size_t i = 0; !in && i < c->n_waits; i++)
        if (c->waits[i].id == id)
            c->waits[i--] = c->waits[--c->n_waits];
}

/* Wall s (monotonic) since which a start has waited for lingering job id. */
static double wait_since(slurm_ctx_t *c, long id)
{
    for (size_t i = 0; i < c->n_waits; i++)
        if (c->waits[i].id == id)
            return c->waits[i].since;
    xgrow((void **)&c->waits, &c->waits_cap, c->n_waits + 1, sizeof *c->waits);
    c->waits[c->n_waits] = (struct slurm_wait){id, mls_wall_seconds()};
    return c->waits[c->n_waits++].since;
}

/* Slurm job id's run was seen ended now. */
static void note_end(slurm_ctx_t *c, long id)
{
    size_t i = 0;
    while (i < c->n_ends && c->ends[i].id != id)
        i++;
    if (i == c->n_ends) {
        xgrow((void **)&c->ends, &c->ends_cap, c->n_ends + 1, sizeof *c->ends);
        c->n_ends++;
    }
    c->ends[i] = (struct slurm_end){id, time(NULL)};
}

/* Sleeps until wall clock (CLOCK_REALTIME s) `until`; returns at once when
 * it has passed. */
static void sleep_until(double until)
{
    for (;;) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        double left = until - (double)ts.tv_sec - ts.tv_nsec * 1e-9;
        if (left <= 0)
            return;
        ts.tv_sec = (time_t)left;
        ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
        nanosleep(&ts, NULL);
    }
}

/* Before a release: slurmd refuses to launch a job whose credential is
 * dated no later than the second in which its last run was killed ("Job
 * credential revoked": the run fails at once), so a job stopped and started
 * again in the same second (a pair re-formed) waits for the next second. */
static double past_end(const slurm_ctx_t *c, long id)
{
    for (size_t i = 0; i < c->n_ends; i++)
        if (c->ends[i].id == id)
            return (double)c->ends[i].sec + 1.02;
    return 0;
}

/* Just released by us: squeue may list it as held (priority 0) for some ms
 * after `scontrol release` (seen on 22.05), which must not read as parked. */
static void set_released(slurm_ctx_t *c, long id, int released)
{
    id_set(&c->released, &c->n_released, &c->released_cap, id, released);
}

/* Pending and held: requeued and parked, never started by Slurm itself. */
static int held(const slurm_job_state_t *s)
{
    return (!strcmp(s->state, "PENDING") && s->priority == 0) ||
           !strcmp(s->state, "REQUEUE_HOLD");
}

/* Starts argv without waiting (a slurm_op_t of `kind` about Slurm job id,
 * given up on after `limit` s): scancel retries for seconds on a job that
 * Slurm is still configuring, and scontrol waits for a slow slurmctld; the
 * daemon must not stall meanwhile. poll_ops() reaps it. */
static void spawn_op(slurm_ctx_t *c, char *const *argv, slurm_op_kind_t kind, long id,
                     double limit)
{
    int p[2] = {-1, -1};
    if (pipe(p) < 0)
        p[0] = p[1] = -1;
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        int devnull = open("/dev/null", O_RDWR);
        int out = p[1] >= 0 ? p[1] : devnull;
        if (devnull >= 0)
            dup2(devnull, 0);
        if (out >= 0) {
            dup2(out, 1);
            dup2(out, 2);
        }
        if (p[0] >= 0)
            close(p[0]);
        execvp(argv[0], argv);
        _exit(127);
    }
    if (p[1] >= 0)
        close(p[1]);
    if (pid < 0) {
        if (p[0] >= 0)
            close(p[0]);
        fprintf(stderr, "live: %s: fork: %s\n", argv[0], strerror(errno));
        return;
    }
    if (p[0] >= 0)
        fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
    xgrow((void **)&c->ops, &c->ops_cap, c->n_ops + 1, sizeof *c->ops);
    slurm_op_t *o = &c->ops[c->n_ops++];
    *o = (slurm_op_t){.pid = pid, .out = p[0], .kind = kind, .id = id,
                      .give_up = mls_wall_seconds() + limit};
    snprintf(o->what, sizeof o->what, "%s", !strcmp(argv[0], "scontrol") ? argv[1] : argv[0]);
}

/* Reads what op o wrote so far (keeping the start, for a message). */
static void op_read(slurm_op_t *o)
{
    char buf[512];
    ssize_t r;
    while (o->out >= 0 && (r = read(o->out, buf, sizeof buf)) > 0) {
        size_t room = sizeof o->said - 1 - o->n_said;
        size_t k = (size_t)r < room ? (size_t)r : room;
        memcpy(o->said + o->n_said, buf, k);
        o->n_said += k;
        o->said[o->n_said] = '\0';
    }
}

static void op_done(slurm_ctx_t *c, slurm_op_t *o, int ok, const char *why);

/* Reaps the Slurm commands that have exited (and kills those past their
 * time), doing what each one's end calls for. */
static void poll_ops(slurm_ctx_t *c)
{
    double now = mls_wall_seconds();
    for (size_t i = 0; i < c->n_ops;) {
        slurm_op_t *o = &c->ops[i];
        op_read(o);
        int st = 0, late = 0;
        pid_t w = waitpid(o->pid, &st, WNOHANG);
        if (w == 0 && now > o->give_up) {
            kill(o->pid, SIGKILL);
            while (waitpid(o->pid, &st, 0) < 0 && errno == EINTR)
                ;
            late = 1;
        } else if (w == 0 || (w < 0 && errno == EINTR)) {
            i++;
            continue;
        }
        op_read(o);
        if (o->out >= 0)
            close(o->out);
        slurm_op_t done = *o;
        c->ops[i] = c->ops[--c->n_ops]; /* the last one moves here: i stays */
        size_t n = done.n_said;
        while (n > 0 && (done.said[n - 1] == '\n' || done.said[n - 1] == ' '))
            done.said[--n] = '\0';
        char why[240];
        if (late)
            snprintf(why, sizeof why, "%s: no answer within %.0f s: killed", done.what,
                     SLURM_CMD_TIMEOUT_S);
        else
            snprintf(why, sizeof why, "%s: exit %d: %s", done.what,
                     w > 0 && WIFEXITED(st) ? WEXITSTATUS(st) : -1, done.said);
        op_done(c, &done, !late && w > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0, why);
    }
}

/* 1 while a hold or requeue-hold of Slurm job id is running. */
static int op_pending(const slurm_ctx_t *c, long id)
{
    for (size_t i = 0; i < c->n_ops; i++)
        if (c->ops[i].id == id && c->ops[i].kind != OP_SIGNAL)
            return 1;
    return 0;
}

/* Makes Slurm job `id` pending and held, whatever it did last; 0, or -1 with
 * the reason in why. */
static int park(slurm_ctx_t *c, long id, const char *ext_id, char *why, size_t len)
{
    if (parked_index(c, id) >= 0)
        return 0;
    c->queried_at = -INFINITY;
    if (refresh(c) < 0)
        return snprintf(why, len, "squeue failed"), -1;
    const slurm_job_state_t *s = find_state(c, id);
    /* a pair's owner whose wrapper kept its GPUs for the joiner: the start
     * waited up to LINGER_WAIT_S for it to go (slurm_start_after) */
    if (id_index(c->lingering, c->n_lingering, id) >= 0)
        note_end(c, id);
    set_lingering(c, id, 0);
    if (!s)
        return snprintf(why, len, "Slurm job %ld is no longer known (purged)", id), -1;
    if (held(s)) {
        set_parked(c, id, 1);
        return 0;
    }
    char *argv[4] = {"scontrol", NULL, (char *)ext_id, NULL};
    if (!strcmp(s->state, "PENDING") || !strcmp(s->state, "REQUEUED"))
        argv[1] = "hold"; /* released by a daemon killed before it recorded the run */
    else if (active_state(s->state))
        return snprintf(why, len, "Slurm job %ld is still %s", id, s->state), -1;
    else
        argv[1] = "requeuehold";
    if (slurm_cmd(argv, argv[1], why, len) != 0)
        return -1;
    set_parked(c, id, 1);
    return 0;
}

/* slurmd revokes a job's credential when its run ends, to the second, and
 * refuses a launch whose credential is not newer ("Job credential revoked":
 * the run fails and waits for the next decision). A Pollux resize restarts a
 * job on the node it just left within milliseconds, so a release onto the
 * previous run's node waits for the wall second after that run's end (its
 * exit file; 0.1 s margin for slurmd's own bookkeeping). */
static double after_revoke_second(const live_job_t *prev, const char *run_dir)
{
    char path[4096];
    live_job_path(path, sizeof path, run_dir, prev, "exit");
    FILE *f = fopen(path, "r");
    double end = NAN;
    if (f) {
        if (fscanf(f, "%*d %lf", &end) != 1)
            end = NAN;
        fclose(f);
    }
    return isfinite(end) ? floor(end + 0.1) + 1 : 0;
}

/* Whether the run about to start may share a node with the job's previous
 * run, as its environment file (not yet rewritten) says: 1 unless both are
 * on one node named by --slurm-nodes and the nodes differ (only there is the
 * revocation no risk). Without --slurm-nodes Slurm picks the node, whatever
 * cluster node the plan chose: a migration between cluster nodes may land on
 * the Slurm node the previous run left (seen: "Job credential revoked"). */
static int may_share_node(const char *env_file, const live_launch_t *l, const slurm_place_t *p)
{
    if (!p->node)
        return 1;
    int nodes = p->nodes;
    FILE *f = fopen(env_file, "r");
    if (!f)
        return 1;
    char line[512], node[256] = "";
    int old_nodes = 0;
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "export MLSCHED_NODE='", 21))
            sscanf(line + 21, "%255[^'\n]", node);
        else if (!strncmp(line, "export MLSCHED_NUM_NODES='", 26))
            old_nodes = atoi(line + 26);
    }
    fclose(f);
    return nodes != 1 || old_nodes != 1 || !node[0] || !strcmp(node, l->node_name);
}

/* The parked Slurm job of j, updated to the new run and released; 0, or -1
 * with the reason in why (the job is then cancelled: a fresh sbatch follows,
 * without waiting for the scancel: the old job is still held, as the update
 * or release was refused, so it cannot start meanwhile). */
static int resume(slurm_ctx_t *c, live_job_t *j, const slurm_place_t *p, const char *env_file,
                  const live_launch_t *l, const char *exit_file, const char *join, char *why,
                  size_t len, mls_err_t *err)
{
    long id = strtol(j->ext_id, NULL, 10);
    if (park(c, id, j->ext_id, why, len) < 0)
        return -1;
    char *cancel[] = {"scancel", j->ext_id, NULL};
    int wait_revoke = may_share_node(env_file, l, p);
    if (write_env_file(env_file, j, l, exit_file, join, err) < 0) {
        snprintf(why, len, "%.180s", err->msg);
        set_parked(c, id, 0);
        spawn_op(c, cancel, OP_SIGNAL, id, INFINITY);
        return -1;
    }
    char jobid[48], name[96], nodes[48], tres[64], tres_job[64], reqnodes[272];
    snprintf(jobid, sizeof jobid, "JobId=%ld", id);
    snprintf(name, sizeof name, "JobName=%s", p->name);
    /* min-max: NumNodes=N alone keeps the max of the first sbatch (--nodes=1) */
    snprintf(nodes, sizeof nodes, "NumNodes=%d-%d", p->nodes, p->nodes);
    /* a joiner has no GRES ("gres:gpu:0" kept a GPU on 22.05; empty clears it) */
    if (p->gpus_per_node > 0)
        snprintf(tres, sizeof tres, "TresPerNode=gres:gpu:%d", p->gpus_per_node);
    else
        snprintf(tres, sizeof tres, "TresPerNode=");
    /* over several nodes: N in all (the other form emptied, as for a joiner) */
    if (p->gpus_per_job > 0)
        snprintf(tres_job, sizeof tres_job, "TresPerJob=gres:gpu:%d", p->gpus_per_job);
    else
        snprintf(tres_job, sizeof tres_job, "TresPerJob=");
    snprintf(reqnodes, sizeof reqnodes, "ReqNodeList=%.250s", p->node ? p->node : "");
    char *update[] = {"scontrol", "update", jobid,    name,           nodes, tres,
                      tres_job,   reqnodes, "StartTime=now", NULL};
    char *release[] = {"scontrol", "release", j->ext_id, NULL};
    set_parked(c, id, 0);
    if (slurm_cmd(update, "update", why, len) != 0) {
        spawn_op(c, cancel, OP_SIGNAL, id, INFINITY);
        return -1;
    }
    if (wait_revoke) { /* the daemon waits for this itself (slurm_start_after): a safeguard */
        live_job_t prev = *j;
        prev.attempt--;
        sleep_until(past_end(c, id));
        sleep_until(after_revoke_second(&prev, l->run_dir));
    }
    if (slurm_cmd(release, "release", why, len) != 0) {
        spawn_op(c, cancel, OP_SIGNAL, id, INFINITY);
        return -1;
    }
    set_released(c, id, 1);
    return 0;
}

static double realtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

static void settle_lingering(slurm_ctx_t *c);

/* 1 while Slurm job id is a pair's owner whose wrapper keeps its GPUs for
 * the joiner: gone in a moment (the joiner's run ended after it), so its
 * next start waits, for LINGER_WAIT_S at most (then park() finds it still
 * running, and a fresh sbatch follows). */
static int owner_lingers(slurm_ctx_t *c, long id)
{
    if (id_index(c->lingering, c->n_lingering, id) < 0 || refresh(c) < 0)
        return 0;
    settle_lingering(c); /* requeue-holds it once Slurm lists it ended */
    if (id_index(c->lingering, c->n_lingering, id) < 0)
        return 0;
    const slurm_job_state_t *s = find_state(c, id);
    return s && !held(s) && active_state(s->state) &&
           mls_wall_seconds() - wait_since(c, id) < LINGER_WAIT_S;
}

/* When releasing j's parked job for its next run (after attempt j->attempt)
 * must wait for slurmd's revocation second (past_end, after_revoke_second):
 * the daemon keeps the job waiting until then, serving and deciding, rather
 * than sleeping in slurm_start(). Likewise while the hold or requeue-hold of
 * its last run is still running, or its lingering pair owner has not gone
 * (up to LINGER_WAIT_S): SLURM_RECHECK_S from now, asked again then. */
static double slurm_start_after(live_exec_t *x, const live_job_t *j, const live_launch_t *l)
{
    slurm_ctx_t *c = x->ctx;
    poll_ops(c);
    if (!j->ext_id[0] || c->fresh_only)
        return 0;
    long id = strtol(j->ext_id, NULL, 10);
    if (owner_lingers(c, id) || op_pending(c, id))
        return realtime() + SLURM_RECHECK_S;
    char env_file[4096];
    snprintf(env_file, sizeof env_file, "%s/job-%lld.env", l->run_dir, (long long)j->id);
    slurm_place_t p;
    place_of(c, j, l, &p);
    if (!may_share_node(env_file, l, &p))
        return 0;
    double a = past_end(c, id);
    double b = after_revoke_second(j, l->run_dir);
    return a > b ? a : b;
}

static int slurm_start(live_exec_t *x, live_job_t *j, const live_launch_t *l, mls_err_t *err)
{
    slurm_ctx_t *c = x->ctx;
    char wrapper[4096], exit_file[4096], log[4096], env_file[4096], why[200] = "";
    snprintf(wrapper, sizeof wrapper, "%s/slurm-wrapper.sh", l->run_dir);
    if (write_wrapper(wrapper, err) < 0)
        return -1;
    live_job_path(exit_file, sizeof exit_file, l->run_dir, j, "exit");
    live_job_path(log, sizeof log, l->run_dir, j, "log");
    snprintf(env_file, sizeof env_file, "%s/job-%lld.env", l->run_dir, (long long)j->id);
    unlink(exit_file);
    slurm_place_t p;
    place_of(c, j, l, &p);
    char join[4096];
    if (j->joined) {
        if (!p.node || p.nodes != 1)
            return mls_fail(err, "job %lld joins job %lld's GPUs: on Slurm a pair must be on one "
                                 "node named by --slurm-nodes",
                            (long long)j->id, (long long)j->partner);
        live_job_t owner = {.id = j->partner, .attempt = l->partner_attempt};
        live_job_path(join, sizeof join, l->run_dir, &owner, "exit");
        join[strlen(join) - strlen(".exit")] = '\0';
    }
    const char *joinp = j->joined ? join : NULL;
    int rc = -1;
    if (j->ext_id[0] && !c->fresh_only) {
        char old[32];
        snprintf(old, sizeof old, "%s", j->ext_id);
        rc = resume(c, j, &p, env_file, l, exit_file, joinp, why, sizeof why, err);
        if (l->note && rc == 0)
            snprintf(l->note, l->note_len, "Slurm job %s updated and released", j->ext_id);
        else if (l->note)
            snprintf(l->note, l->note_len, "fresh sbatch: Slurm job %s: %s", old, why);
    }
    if (rc < 0 && write_env_file(env_file, j, l, exit_file, joinp, err) == 0)
        rc = submit_fresh(c, j, &p, wrapper, env_file, log, err);
    c->queried_at = -INFINITY; /* the next state check asks Slurm again: the cache may
                                  predate the new job or the release */
    return rc;
}

/* Preempting: the daemon is stopping the job to run it again later. */
static int preempting(const live_job_t *j)
{
    return j->state == LJ_STOPPING && j->stop_kind == 0;
}

/* A run stopped before Slurm started it (a decision undone at once, as
 * packing policies do): scancel cannot signal a pending job (it retries
 * for 5 s), so the job is held instead; its run has then ended, never
 * begun. 1 when the hold is under way (op_done() finishes it, or sends the
 * checkpoint signal after all when the run began meanwhile), 0 when it is
 * not pending (it may have just started). */
static int hold_unstarted(slurm_ctx_t *c, live_job_t *j)
{
    long id = strtol(j->ext_id, NULL, 10);
    c->queried_at = -INFINITY;
    if (refresh(c) < 0)
        return 0;
    const slurm_job_state_t *s = find_state(c, id);
    if (!s || strcmp(s->state, "PENDING") || held(s))
        return 0;
    char *argv[] = {"scontrol", "hold", j->ext_id, NULL};
    spawn_op(c, argv, OP_HOLD, id, SLURM_CMD_TIMEOUT_S);
    return 1;
}

/* What the end of a Slurm command the daemon did not wait for calls for. */
static void op_done(slurm_ctx_t *c, slurm_op_t *o, int ok, const char *why)
{
    char ext[32];
    snprintf(ext, sizeof ext, "%ld", o->id);
    if (o->kind == OP_HOLD && ok) { /* the run has ended, never begun */
        set_released(c, o->id, 0);
        set_parked(c, o->id, 1);
    } else if (o->kind == OP_HOLD) { /* it began meanwhile: checkpoint it after all */
        char *term[] = {"scancel", "--signal=TERM", "--full", ext, NULL};
        spawn_op(c, term, OP_SIGNAL, o->id, INFINITY);
    } else if (o->kind == OP_REQUEUEHOLD && ok)
        set_parked(c, o->id, 1);
    else if (o->kind == OP_REQUEUEHOLD) /* the restart tries again, else a fresh sbatch */
        fprintf(stderr, "live: Slurm job %ld not requeued: %s\n", o->id, why);
    if (o->kind != OP_SIGNAL)
        c->queried_at = -INFINITY;
}

static void slurm_signal(live_exec_t *x, live_job_t *j, int sig)
{
    slurm_ctx_t *c = x->ctx;
    if (!j->ext_id[0])
        return;
    char *argv[6] = {NULL};
    if (sig == SIGTERM && preempting(j) && !c->fresh_only && hold_unstarted(c, j))
        return;
    if (sig == SIGTERM) {
        argv[0] = "scancel", argv[1] = "--signal=TERM", argv[2] = "--full", argv[3] = j->ext_id;
    } else if (sig == SIGKILL && preempting(j) && !c->fresh_only) {
        /* ends the run, not the Slurm job: it is requeued once it has ended */
        argv[0] = "scancel", argv[1] = "--signal=KILL", argv[2] = "--full", argv[3] = j->ext_id;
    } else if (sig == SIGKILL) {
        argv[0] = "scancel", argv[1] = j->ext_id;
        set_parked(c, strtol(j->ext_id, NULL, 10), 0);
    } else if (sig == SIGSTOP || sig == SIGCONT) {
        argv[0] = "scontrol", argv[1] = sig == SIGSTOP ? "suspend" : "resume",
        argv[2] = j->ext_id;
    } else
        return;
    spawn_op(c, argv, OP_SIGNAL, strtol(j->ext_id, NULL, 10), INFINITY);
}

static void remember(slurm_ctx_t *c, long id, const char *state, long priority, const char *name)
{
    xgrow((void **)&c->jobs, &c->cap, c->n_jobs + 1, sizeof *c->jobs);
    slurm_job_state_t *s = &c->jobs[c->n_jobs++];
    s->id = id;
    s->priority = priority;
    snprintf(s->state, sizeof s->state, "%s", state);
    snprintf(s->name, sizeof s->name, "%s", name);
}

static int query_json(slurm_ctx_t *c)
{
    char *argv[] = {"squeue", "--json", NULL};
    char *out = NULL;
    if (run_cmd(argv, &out, 0) != 0) {
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
        const cJSON *pr = cJSON_GetObjectItemCaseSensitive(e, "priority");
        if (cJSON_IsNumber(id) && cJSON_IsString(st))
            remember(c, (long)id->valuedouble, st->valuestring,
                     cJSON_IsNumber(pr) ? (long)pr->valuedouble : 1,
                     cJSON_IsString(nm) ? nm->valuestring : "");
    }
    cJSON_Delete(o);
    return 0;
}

static int query_text(slurm_ctx_t *c)
{
    char *argv[] = {"squeue", "-h", "-t", "all", "-o", "%i %T %Q %j", NULL};
    char *out = NULL;
    if (run_cmd(argv, &out, 0) != 0) {
        free(out);
        return -1;
    }
    char *save = NULL;
    for (char *line = strtok_r(out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
        long id, priority = 1;
        char st[24], nm[64] = "";
        if (sscanf(line, "%ld %23s %ld %63s", &id, st, &priority, nm) >= 2)
            remember(c, id, st, priority, nm);
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

static const slurm_job_state_t *find_state(const slurm_ctx_t *c, long id)
{
    for (size_t i = 0; i < c->n_jobs; i++)
        if (c->jobs[i].id == id)
            return &c->jobs[i];
    return NULL;
}

static int active_state(const char *s)
{
    static const char *const active[] = {"PENDING",   "RUNNING",    "SUSPENDED", "COMPLETING",
                                         "CONFIGURING", "REQUEUED", "RESIZING",  "SIGNALING",
                                         "STAGE_OUT", "REQUEUE_HOLD", "REQUEUE_FED", NULL};
    for (int i = 0; active[i]; i++)
        if (!strcmp(s, active[i]))
            return 1;
    return 0;
}

/* The run's exit file: 1 with its status and time (and *linger: 1 when the
 * wrapper keeps its Slurm job for a joiner), 0 when there is none yet. */
static int read_exit(const char *run_dir, const live_job_t *j, int *status, double *when,
                     int *linger)
{
    char path[4096], word[16] = "";
    live_job_path(path, sizeof path, run_dir, j, "exit");
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    int n = fscanf(f, "%d %lf %15s", status, when, word);
    fclose(f);
    if (linger)
        *linger = n == 3 && !strcmp(word, "linger");
    return n >= 2;
}

/* Preempted owners that kept their GPUs for a joiner: parked once ended. */
static void settle_lingering(slurm_ctx_t *c)
{
    for (size_t i = 0; i < c->n_lingering;) {
        long id = c->lingering[i];
        const slurm_job_state_t *s = find_state(c, id);
        if (s && !held(s) && active_state(s->state)) {
            i++;
            continue;
        }
        char ext[32], *requeue[] = {"scontrol", "requeuehold", ext, NULL};
        snprintf(ext, sizeof ext, "%ld", id);
        note_end(c, id);
        if (s && held(s))
            set_parked(c, id, 1);
        else if (s)
            spawn_op(c, requeue, OP_REQUEUEHOLD, id, SLURM_CMD_TIMEOUT_S);
        set_lingering(c, id, 0); /* swaps the last one in: i stays */
    }
}

static int slurm_ended(live_exec_t *x, live_job_t *j, const char *run_dir, int *status,
                       double *when)
{
    slurm_ctx_t *c = x->ctx;
    *when = NAN;
    poll_ops(c);
    int linger = 0;
    int have_exit = read_exit(run_dir, j, status, when, &linger);
    if (!have_exit)
        *status = -1;
    /* Ended for the daemon only once Slurm has released the job too (not
     * COMPLETING any more): its GPUs are then free for the next run. */
    if (refresh(c) < 0)
        return j->ext_id[0] ? 0 : 1; /* Slurm is not answering: assume it still runs */
    settle_lingering(c);
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
    const slurm_job_state_t *s = find_state(c, id);
    if (!s) {
        fprintf(stderr, "live: job %lld attempt %d: Slurm job %ld is not listed\n",
                (long long)j->id, j->attempt, id);
        return 1;
    }
    if (held(s) && !have_exit && id_index(c->released, c->n_released, id) >= 0)
        return 0; /* released moments ago, not yet listed so */
    set_released(c, id, 0);
    if (!active_state(s->state) || (held(s) && have_exit))
        note_end(c, id); /* a run that never began revoked no credential */
    if (held(s)) { /* parked: this run has ended (its exit file), or never started */
        if (!have_exit)
            fprintf(stderr, "live: job %lld attempt %d: Slurm job %ld is held (%s, priority "
                            "%ld) and the run left no exit file\n",
                    (long long)j->id, j->attempt, id, s->state, s->priority);
        return 1;
    }
    if (active_state(s->state) && have_exit && linger) {
        /* a pair's owner: its run has ended, its wrapper keeps the Slurm job
         * (and its GPUs) while the joiner runs; parked once it ends */
        if (preempting(j) && *status != 0 && !c->fresh_only)
            set_lingering(c, id, 1);
        return 1;
    }
    if (active_state(s->state))
        return 0;
    if (!have_exit) /* the wrapper writes its file just before it exits */
        read_exit(run_dir, j, status, when, NULL);
    if (preempting(j) && *status != 0 && !c->fresh_only) {
        /* parked once it has run (op_done); the next start waits for it */
        char *requeue[] = {"scontrol", "requeuehold", j->ext_id, NULL};
        c->queried_at = -INFINITY;
        spawn_op(c, requeue, OP_REQUEUEHOLD, id, SLURM_CMD_TIMEOUT_S);
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
    free(c->parked);
    free(c->released);
    free(c->lingering);
    free(c->waits);
    free(c->ends);
    while (c->n_ops > 0) { /* the commands under way end, or are killed at their time */
        poll_ops(c);
        struct timespec ts = {0, 10 * 1000 * 1000};
        if (c->n_ops > 0)
            nanosleep(&ts, NULL);
    }
    free(c->ops);
    free(c);
    x->ctx = NULL;
}

static const live_exec_ops_t slurm_ops = {"slurm", slurm_start, slurm_signal, slurm_ended,
                                          slurm_destroy, slurm_start_after};

int live_exec_slurm(live_exec_t *x, const char *partition, const char *nodes, mls_err_t *err)
{
    char *argv[] = {"sinfo", "-h", "-o", "%N", NULL};
    char *out = NULL;
    int rc = run_cmd(argv, &out, 0);
    free(out);
    if (rc != 0)
        return mls_fail(err, "--executor slurm: sinfo failed (exit %d): is Slurm running and "
                             "SLURM_CONF set?",
                        rc);
    slurm_ctx_t *c = xcalloc(1, sizeof *c);
    c->partition = partition ? xstrdup(partition) : NULL;
    c->queried_at = -INFINITY;
    c->json_ok = 1;
    const char *resume_how = getenv("MLSCHED_SLURM_RESUME");
    c->fresh_only = resume_how && !strcmp(resume_how, "sbatch");
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
