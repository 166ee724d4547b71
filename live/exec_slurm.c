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
 * Never blocking the daemon's loop (which serves clients and decides): every
 * Slurm command runs beside it as a child (spawn_op()) whose output comes
 * through non-blocking pipes the loop waits on (slurm_poll()), reaped by
 * poll_ops() (killed after SLURM_CMD_TIMEOUT_S; sbatch after
 * SLURM_SUBMIT_TIMEOUT_S; signals never), its end acted on by op_done():
 *  - squeue: one at a time (an answer under way is not asked again); the
 *    cache is the last answer, as of when it was asked; a start, release or
 *    requeue makes older answers stale (invalidate()), and until a fresh one
 *    comes a run counts as still running.
 *  - a start (slurm_start() returns at once) is a chain of steps
 *    (slurm_start_t): for a restart, a squeue asked after the start tells
 *    whether the parked job must be held or requeue-held first (park_decide),
 *    then update, the revocation second, release; a fresh sbatch when one of
 *    them fails (the reason as the start's note), the Slurm id then arriving
 *    with sbatch's answer. The daemon sees the run as started meanwhile,
 *    learns the id and the note through slurm_news(), and a run whose sbatch
 *    failed (and that squeue does not list under its name: sbatch killed
 *    after it had submitted) as failed, exit 127 (the daemon requeues the job
 *    or gives up, as for any failed run). Signals sent meanwhile are kept
 *    and delivered once the run's Slurm job is known.
 *  - the hold of a run not yet started (as a squeue asked after the stop
 *    says, and checked by one asked after the hold: settle_checks), the
 *    requeue-hold of a preempted run that has ended, the scancel before a
 *    fresh sbatch: the job's next start waits for its hold or requeue-hold,
 *    and for a lingering pair owner, through slurm_start_after() as for the
 *    revocation second.
 * Only the executor's setup waits: sinfo and a first squeue (a restarted
 * daemon adopts or settles its jobs from that answer at once).
 *
 * Each run is named mlsched-ID-ATTEMPT, so a daemon killed between sbatch
 * and recording the Slurm id finds the run again by its name.
 *
 * state: the exit file first; else `squeue --json` (every job, one call per
 * 0.2 s at most, cached), falling back to `squeue -h -t all -o "%i|%T|%Q|%j|%o"`
 * on Slurm versions without --json. A run has ended once Slurm lists its job
 * as ended, or parked (pending with priority 0: held), so that a daemon killed
 * around a requeue or a release sees the truth; one that left no exit file
 * was killed or never started (status -1). */
#include "live/executor.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
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
    char cmd[512]; /* its command, for a job named mlsched-*: the script's absolute
                      path and its arguments (else empty) */
} slurm_job_state_t;

/* A Slurm command the daemon does not wait for: the loop goes on serving
 * and deciding, reading its output through non-blocking pipes (whose
 * descriptors it waits on: slurm_poll), and poll_ops() finishes it (what
 * `kind` says) once it has exited, or kills it at give_up (it then failed).
 * A start of a job whose hold or requeue-hold is still running waits for it
 * (slurm_start_after). */
typedef enum {
    OP_SIGNAL,      /* scancel/scontrol suspend|resume: nothing to do after */
    OP_HOLD,        /* scontrol hold of a run not yet started (hold_unstarted) */
    OP_REQUEUEHOLD, /* scontrol requeuehold of a preempted run that has ended */
    OP_QUERY,       /* squeue: the state cache (query_done) */
    OP_STEP,        /* a step of a start under way (slurm_start_t, step_done) */
} slurm_op_kind_t;

typedef struct slurm_op {
    pid_t pid;
    int out, err; /* its stdout and stderr (non-blocking pipes), -1 none (or closed) */
    slurm_op_kind_t kind;
    long id;         /* the Slurm job (OP_QUERY: 1 for squeue --json) */
    long long job;   /* OP_STEP: the daemon's job */
    double issued;   /* wall s (monotonic) it was started */
    double give_up;  /* wall s (monotonic); INFINITY: never killed */
    double limit;    /* give_up - issued, for messages */
    char what[16];   /* "hold", "squeue", ... for messages */
    char *text;      /* its stdout */
    size_t n_text, text_cap;
    int overflow;    /* stdout beyond SLURM_MAX_OUTPUT: dropped, the command failed */
    char said[160];  /* the start of its stderr */
    size_t n_said;
} slurm_op_t;

/* A start under way (slurm_start() returns at once): the steps of a restart
 * of the job's parked Slurm job (the state asked of squeue, a hold or
 * requeue-hold, update, the revocation second, release) or of a fresh sbatch,
 * each one command spawned when the one before has ended. The daemon asks
 * for news (slurm_news: the Slurm id, a note for an 'exec' event) and sees
 * the run as started meanwhile; signals it sends meanwhile are kept and
 * delivered once the run's Slurm job is known. */
typedef enum {
    ST_QUERY,   /* waiting for a squeue answer asked for after the start (park) */
    ST_PARK,    /* scontrol hold or requeuehold: the job pending and held first */
    ST_UPDATE,  /* scontrol update to the new run */
    ST_WAIT,    /* the release waits for the revocation second */
    ST_RELEASE, /* scontrol release */
    ST_SUBMIT,  /* sbatch: a new Slurm job */
    ST_FIND,    /* sbatch failed: is the run in Slurm all the same (by its name)? */
    ST_DONE,    /* started: the run's Slurm job is known */
    ST_FAILED,  /* not started: the run failed (exit 127, slurm_ended) */
} slurm_step_t;

typedef struct slurm_start {
    long long job;      /* the daemon's job */
    slurm_step_t step;
    long id;            /* the parked Slurm job resumed (0: a fresh sbatch) */
    double asked;       /* wall s (monotonic): ST_QUERY, ST_FIND want a squeue asked since */
    double revoke_at;   /* CLOCK_REALTIME s the release waits for (0 none) */
    int wait_revoke;    /* the release may share a node with the last run */
    char name[64];      /* mlsched-ID-ATTEMPT */
    char **update;      /* scontrol update's argv (owned) */
    char **submit;      /* sbatch's argv (owned) */
    long was;           /* the Slurm job a fresh sbatch replaces (0 none) */
    char ext_id[32];    /* the daemon's j->ext_id to be ("" while a fresh sbatch runs) */
    int ext_news;       /* ext_id changed since the daemon last asked */
    char note[256];     /* for an 'exec' event: how it started, or why it failed */
    char failed[256];   /* why sbatch failed (ST_FIND, ST_FAILED) */
    int sigs[4];        /* signals the daemon sent meanwhile, in order */
    int n_sigs;
} slurm_start_t;

typedef struct slurm_ctx {
    char *partition;
    char **node_names; /* Slurm node of each cluster node, NULL = let Slurm pick */
    int n_node_names;
    slurm_job_state_t *jobs; /* the last squeue answer */
    size_t n_jobs, cap;
    double queried_at;  /* wall s (monotonic) the squeue behind `jobs` was started; -inf none */
    double failed_at;   /* ... the last squeue that failed was started; -inf none */
    double stale_before; /* an answer to a squeue started before this is stale (a start,
                            release or requeue since): the cache is asked again */
    int querying;        /* a squeue is running (never two at once) */
    int closing;         /* slurm_destroy: commands end, no next step is taken */
    struct slurm_op *ops; /* Slurm commands still running (slurm_op_t) */
    size_t n_ops, ops_cap;
    slurm_start_t *starts; /* starts under way */
    size_t n_starts, starts_cap;
    struct slurm_check {
        long id;
        double since;  /* wall s (monotonic): decided on a squeue asked since */
        int held;      /* 0: a preempted job's SIGTERM (hold or signal: term_or_hold);
                          1: a hold done, the run perhaps begun first (check_hold) */
    } *checks;         /* what waits for a fresh squeue answer (settle_checks) */
    size_t n_checks, checks_cap;
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
    char *wrapper;   /* this daemon's wrapper, absolute: its runs' command (ours()) */
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

/* Wall seconds a Slurm command may take: one that has not answered by then
 * (slurmctld down or overloaded: its clients retry for MessageTimeout, 10 s
 * by default) is killed and counts as failed. None is waited for (the
 * daemon's loop, which serves clients and decides, goes on meanwhile:
 * spawn_op), except sinfo and the first squeue when the executor is set up.
 * sbatch gets longer: killed after it had submitted, it would leave a run
 * under the run's name that the daemon looks for (ST_FIND) but may miss, so
 * it is given up on only when Slurm is clearly gone. Signals are never
 * killed. */
#define SLURM_CMD_TIMEOUT_S 5.0
#define SLURM_SUBMIT_TIMEOUT_S 60.0
/* squeue is asked at most this often (wall s) while the daemon needs states */
#define SLURM_POLL_S 0.2
/* What a command may print on its stdout (squeue --json lists every job) */
#define SLURM_MAX_OUTPUT ((size_t)256 << 20)
/* A start that waits for a Slurm command on its job (hold, requeue-hold)
 * or for its lingering pair owner asks again this many wall s later; the
 * owner is waited for this long at most. */
#define SLURM_RECHECK_S 0.05
#define LINGER_WAIT_S 5.0

/* Runs argv (no shell) and waits for it, for the executor's setup only;
 * returns the exit status (-1 when it could not run, or was killed after
 * SLURM_CMD_TIMEOUT_S) and its stdout in *out (caller frees). */
static int run_cmd(char *const *argv, char **out)
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
        dup2(devnull, 2);
        close(p[0]);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(p[1]);
    size_t cap = 4096, len = 0;
    char *buf = xmalloc(cap);
    double limit = SLURM_CMD_TIMEOUT_S;
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

/* A new copy of the wrapper renamed into place, never the old one rewritten:
 * sbatch runs beside the loop, and one still reading the script while the
 * next start truncated it submitted an empty one ("sbatch: error: Batch
 * script is empty!", two starts in one decision in live_mech_slurm.sh). */
static int write_wrapper(const char *path, mls_err_t *err)
{
    mls_atomic_file_t af;
    if (mls_atomic_open(&af, path, err) < 0)
        return -1;
    if (fputs(wrapper_text, af.fp) < 0 || fchmod(fileno(af.fp), 0700) < 0) {
        int e = errno;
        mls_atomic_abort(&af);
        return mls_fail(err, "%s: cannot write the Slurm wrapper: %s", path, strerror(e));
    }
    return mls_atomic_commit(&af, err);
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

/* A copy of argv (NULL-terminated, each string copied); argv_free frees it. */
static char **argv_copy(char *const *argv)
{
    size_t n = 0;
    while (argv[n])
        n++;
    char **a = xmalloc(sizeof(char *) * (n + 1));
    for (size_t i = 0; i < n; i++)
        a[i] = xstrdup(argv[i]);
    a[n] = NULL;
    return a;
}

static void argv_free(char **a)
{
    for (size_t i = 0; a && a[i]; i++)
        free(a[i]);
    free(a);
}

/* The sbatch of a fresh Slurm job for j's run (caller frees: argv_free). */
static char **submit_argv(const slurm_ctx_t *c, const live_job_t *j, const slurm_place_t *p,
                          const char *wrapper, const char *env_file, const char *log)
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
    return argv_copy(argv);
}

/* The scontrol update of parked Slurm job id to run p (caller frees). */
static char **update_argv(long id, const slurm_place_t *p)
{
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
    return argv_copy(update);
}

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

static double realtime(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

/* ---- commands beside the loop ---------------------------------------------- */

static int pipe_nb(int p[2])
{
    if (pipe(p) < 0)
        return -1;
    for (int k = 0; k < 2; k++)
        fcntl(p[k], F_SETFD, FD_CLOEXEC);
    fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_NONBLOCK);
    return 0;
}

/* Starts argv without waiting: a slurm_op_t of `kind` about Slurm job id
 * (OP_STEP: of the daemon's job `job`), killed after `limit` s: scancel
 * retries for seconds on a job that Slurm is still configuring, and every
 * Slurm client waits for a slow slurmctld; the daemon must not stall
 * meanwhile. poll_ops() reaps it. 0, or -1 when it could not start. */
static int spawn_op(slurm_ctx_t *c, char *const *argv, slurm_op_kind_t kind, long id,
                    long long job, double limit)
{
    int out[2] = {-1, -1}, err[2] = {-1, -1};
    if (pipe_nb(out) < 0 || pipe_nb(err) < 0) {
        fprintf(stderr, "live: %s: pipe: %s\n", argv[0], strerror(errno));
        for (int k = 0; k < 2; k++)
            if (out[k] >= 0)
                close(out[k]);
        return -1;
    }
    fflush(NULL);
    pid_t pid = fork();
    if (pid == 0) {
        sigset_t none;
        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        int devnull = open("/dev/null", O_RDWR);
        if (devnull >= 0)
            dup2(devnull, 0);
        dup2(out[1], 1);
        dup2(err[1], 2);
        execvp(argv[0], argv);
        _exit(127);
    }
    close(out[1]);
    close(err[1]);
    if (pid < 0) {
        close(out[0]);
        close(err[0]);
        fprintf(stderr, "live: %s: fork: %s\n", argv[0], strerror(errno));
        return -1;
    }
    xgrow((void **)&c->ops, &c->ops_cap, c->n_ops + 1, sizeof *c->ops);
    slurm_op_t *o = &c->ops[c->n_ops++];
    double now = mls_wall_seconds();
    *o = (slurm_op_t){.pid = pid, .out = out[0], .err = err[0], .kind = kind, .id = id,
                      .job = job, .issued = now, .give_up = now + limit, .limit = limit};
    snprintf(o->what, sizeof o->what, "%s", !strcmp(argv[0], "scontrol") ? argv[1] : argv[0]);
    return 0;
}

/* Reads what op o wrote so far: its stdout whole (up to SLURM_MAX_OUTPUT),
 * the start of its stderr; a pipe is closed at its end. */
static void op_read(slurm_op_t *o)
{
    char buf[4096];
    ssize_t r = -1;
    while (o->out >= 0 && (r = read(o->out, buf, sizeof buf)) != 0) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break; /* EAGAIN: nothing more for now */
        if (o->n_text + (size_t)r + 1 > SLURM_MAX_OUTPUT) {
            o->overflow = 1;
            continue;
        }
        xgrow((void **)&o->text, &o->text_cap, o->n_text + (size_t)r + 1, 1);
        memcpy(o->text + o->n_text, buf, (size_t)r);
        o->n_text += (size_t)r;
        o->text[o->n_text] = '\0';
    }
    if (o->out >= 0 && r == 0) {
        close(o->out);
        o->out = -1;
    }
    while (o->err >= 0 && (r = read(o->err, buf, sizeof buf)) != 0) {
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            break;
        size_t room = sizeof o->said - 1 - o->n_said;
        size_t k = (size_t)r < room ? (size_t)r : room;
        memcpy(o->said + o->n_said, buf, k);
        o->n_said += k;
        o->said[o->n_said] = '\0';
    }
    if (o->err >= 0 && r == 0) {
        close(o->err);
        o->err = -1;
    }
}

/* "WHAT: exit N: what it said" (its stderr, else the start of its stdout), or
 * that it was killed at its time. */
static void op_why(const slurm_op_t *o, int late, int st, char *why, size_t len)
{
    char said[160];
    snprintf(said, sizeof said, "%s", o->n_said ? o->said : o->text ? o->text : "");
    size_t n = strlen(said);
    while (n > 0 && (said[n - 1] == '\n' || said[n - 1] == ' '))
        said[--n] = '\0';
    for (char *p = said; *p; p++)
        if (*p == '\n')
            *p = ' ';
    if (late)
        snprintf(why, len, "%s: no answer within %.0f s: killed", o->what, o->limit);
    else if (o->overflow)
        snprintf(why, len, "%s: more than %zu bytes of output", o->what, SLURM_MAX_OUTPUT);
    else
        snprintf(why, len, "%s: exit %d: %s", o->what, WIFEXITED(st) ? WEXITSTATUS(st) : -1,
                 said);
}

static void op_done(slurm_ctx_t *c, slurm_op_t *o, int ok, int late, const char *why);

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
            while ((w = waitpid(o->pid, &st, 0)) < 0 && errno == EINTR)
                ;
            late = 1;
        } else if (w == 0 || (w < 0 && errno == EINTR)) {
            i++;
            continue;
        }
        op_read(o); /* what it wrote before it exited */
        if (o->out >= 0)
            close(o->out);
        if (o->err >= 0)
            close(o->err);
        slurm_op_t done = *o;
        c->ops[i] = c->ops[--c->n_ops]; /* the last one moves here: i stays */
        char why[240];
        op_why(&done, late, st, why, sizeof why);
        if (late)
            fprintf(stderr, "live: %s\n", why);
        int ok = !late && !done.overflow && w > 0 && WIFEXITED(st) && WEXITSTATUS(st) == 0;
        op_done(c, &done, ok, late, why);
        free(done.text);
    }
}

/* 1 while a hold or requeue-hold of Slurm job id is running, or its SIGTERM
 * or a hold waits for squeue (settle_checks). */
static int op_pending(const slurm_ctx_t *c, long id)
{
    for (size_t i = 0; i < c->n_ops; i++)
        if (c->ops[i].id == id && (c->ops[i].kind == OP_HOLD || c->ops[i].kind == OP_REQUEUEHOLD))
            return 1;
    for (size_t i = 0; i < c->n_checks; i++)
        if (c->checks[i].id == id)
            return 1;
    return 0;
}

/* ---- the state cache: squeue beside the loop ----------------------------------- */

static void remember(slurm_ctx_t *c, long id, const char *state, long priority, const char *name,
                     const char *cmd)
{
    xgrow((void **)&c->jobs, &c->cap, c->n_jobs + 1, sizeof *c->jobs);
    slurm_job_state_t *s = &c->jobs[c->n_jobs++];
    s->id = id;
    s->priority = priority;
    snprintf(s->state, sizeof s->state, "%s", state);
    snprintf(s->name, sizeof s->name, "%s", name);
    snprintf(s->cmd, sizeof s->cmd, "%s", strncmp(name, "mlsched-", 8) ? "" : cmd);
}

/* This daemon's wrapper in run_dir, absolute (as Slurm lists a command). */
static const char *our_wrapper(slurm_ctx_t *c, const char *run_dir)
{
    if (!c->wrapper) {
        char path[4096], abs[PATH_MAX];
        snprintf(path, sizeof path, "%s/slurm-wrapper.sh", run_dir);
        c->wrapper = xstrdup(realpath(path, abs) ? abs : path);
    }
    return c->wrapper;
}

/* Whether Slurm job s is this daemon's run `name` (mlsched-ID-ATTEMPT): the
 * name alone is not enough, as other daemons on the same Slurm name their
 * runs alike; its command is this daemon's wrapper. */
static int ours(const slurm_ctx_t *c, const slurm_job_state_t *s, const char *name)
{
    if (strcmp(s->name, name) || !c->wrapper)
        return 0;
    size_t n = strlen(c->wrapper);
    if (n >= sizeof s->cmd - 1) /* the listed command is cut short: its start */
        return !strncmp(s->cmd, c->wrapper, sizeof s->cmd - 1);
    return !strncmp(s->cmd, c->wrapper, n) && (s->cmd[n] == ' ' || s->cmd[n] == '\0');
}

/* squeue --json's answer into the cache; -1 (the cache kept) when it is
 * not one. */
static int parse_json(slurm_ctx_t *c, const char *out)
{
    cJSON *o = out ? cJSON_Parse(out) : NULL;
    const cJSON *jobs = o ? cJSON_GetObjectItemCaseSensitive(o, "jobs") : NULL;
    if (!cJSON_IsArray(jobs)) {
        cJSON_Delete(o);
        return -1;
    }
    c->n_jobs = 0;
    const cJSON *e;
    cJSON_ArrayForEach(e, jobs)
    {
        const cJSON *id = cJSON_GetObjectItemCaseSensitive(e, "job_id");
        const cJSON *st = cJSON_GetObjectItemCaseSensitive(e, "job_state");
        const cJSON *nm = cJSON_GetObjectItemCaseSensitive(e, "name");
        const cJSON *pr = cJSON_GetObjectItemCaseSensitive(e, "priority");
        const cJSON *cm = cJSON_GetObjectItemCaseSensitive(e, "command");
        if (cJSON_IsNumber(id) && cJSON_IsString(st))
            remember(c, (long)id->valuedouble, st->valuestring,
                     cJSON_IsNumber(pr) ? (long)pr->valuedouble : 1,
                     cJSON_IsString(nm) ? nm->valuestring : "",
                     cJSON_IsString(cm) ? cm->valuestring : "");
    }
    cJSON_Delete(o);
    return 0;
}

/* squeue -h -t all -o "%i|%T|%Q|%j|%o"'s answer into the cache. */
static void parse_text(slurm_ctx_t *c, char *out)
{
    c->n_jobs = 0;
    char *save = NULL;
    for (char *line = out ? strtok_r(out, "\n", &save) : NULL; line;
         line = strtok_r(NULL, "\n", &save)) {
        long id, priority = 1;
        char st[24], nm[64] = "", cmd[512] = "";
        if (sscanf(line, "%ld|%23[^|]|%ld|%63[^|]|%511[^\n]", &id, st, &priority, nm, cmd) >= 2)
            remember(c, id, st, priority, nm, cmd);
    }
}

static void spawn_query(slurm_ctx_t *c)
{
    char *json[] = {"squeue", "--json", NULL};
    char *text[] = {"squeue", "-h", "-t", "all", "-o", "%i|%T|%Q|%j|%o", NULL};
    if (spawn_op(c, c->json_ok ? json : text, OP_QUERY, c->json_ok, 0, SLURM_CMD_TIMEOUT_S) == 0)
        c->querying = 1;
    else
        c->failed_at = mls_wall_seconds();
}

/* A squeue has ended: its answer is the cache, as of when it was asked. One
 * whose --json answer is refused or not JSON is asked again without --json
 * (Slurm versions without it), from then on. */
static void query_done(slurm_ctx_t *c, slurm_op_t *o, int ok, int late)
{
    c->querying = 0;
    if (ok && o->id && parse_json(c, o->text) == 0) {
        c->queried_at = o->issued;
        return;
    }
    if (ok && !o->id) {
        parse_text(c, o->text);
        c->queried_at = o->issued;
        return;
    }
    if (o->id && !late && !c->closing) {
        c->json_ok = 0;
        spawn_query(c);
        return;
    }
    c->failed_at = o->issued;
}

/* What Slurm said may have changed since (a start, a release, a requeue):
 * an answer to a squeue asked before now is stale. */
static void invalidate(slurm_ctx_t *c)
{
    c->stale_before = mls_wall_seconds();
}

/* 1 when the cache answers a squeue asked at `since` or later (and after the
 * last invalidate()); failed_since: the last squeue asked then failed. */
static int answered_since(const slurm_ctx_t *c, double since)
{
    return c->queried_at > -INFINITY && c->queried_at >= since &&
           c->queried_at >= c->stale_before;
}

static int failed_since(const slurm_ctx_t *c, double since)
{
    return c->failed_at > -INFINITY && c->failed_at >= since && c->failed_at >= c->stale_before;
}

/* Asks squeue (one at a time) unless the cache answers one asked since
 * `since` less than SLURM_POLL_S ago (or one failed that recently). */
static void want_query(slurm_ctx_t *c, double since)
{
    if (c->querying || c->closing)
        return;
    double now = mls_wall_seconds();
    if ((answered_since(c, since) && now - c->queried_at < SLURM_POLL_S) ||
        (failed_since(c, since) && now - c->failed_at < SLURM_POLL_S))
        return;
    spawn_query(c);
}

/* Whether Slurm's states are known: 1 (the cache), 0 not yet (a squeue is
 * under way), -1 Slurm did not answer. Asks squeue when the cache is old. */
static int state_known(slurm_ctx_t *c)
{
    want_query(c, -INFINITY);
    if (answered_since(c, -INFINITY))
        return 1;
    return failed_since(c, -INFINITY) ? -1 : 0;
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

/* ---- starts under way ---------------------------------------------------------- */

static slurm_start_t *find_start(slurm_ctx_t *c, long long job)
{
    for (size_t i = 0; i < c->n_starts; i++)
        if (c->starts[i].job == job)
            return &c->starts[i];
    return NULL;
}

static void drop_start(slurm_ctx_t *c, slurm_start_t *s)
{
    argv_free(s->update);
    argv_free(s->submit);
    *s = c->starts[--c->n_starts];
}

static void step_done(slurm_ctx_t *c, long long job, int ok, const char *why, const char *out);

/* Runs argv as the step s is at; one that cannot start has failed. */
static void step_spawn(slurm_ctx_t *c, slurm_start_t *s, char *const *argv, double limit)
{
    if (spawn_op(c, argv, OP_STEP, s->id, s->job, limit) < 0) {
        char why[64];
        snprintf(why, sizeof why, "%s: could not start", argv[0]);
        step_done(c, s->job, 0, why, NULL);
    }
}

/* Ends Slurm job id (a parked job whose update or release was refused), not
 * waited for: it stays held meanwhile, so it cannot start. */
static void cancel_job(slurm_ctx_t *c, long id)
{
    char ext[32], *argv[] = {"scancel", ext, NULL};
    snprintf(ext, sizeof ext, "%ld", id);
    set_parked(c, id, 0);
    spawn_op(c, argv, OP_SIGNAL, id, 0, INFINITY);
}

/* The resume cannot go on (why): a fresh sbatch, the reason in the note. */
static void to_submit(slurm_ctx_t *c, slurm_start_t *s, const char *why)
{
    if (s->id > 0) {
        snprintf(s->note, sizeof s->note, "fresh sbatch: Slurm job %ld: %.200s", s->id, why);
        s->ext_id[0] = '\0'; /* a daemon killed now finds the run by its name */
        s->ext_news = 1;
    }
    s->was = s->id;
    s->id = 0;
    s->step = ST_SUBMIT;
    step_spawn(c, s, s->submit, SLURM_SUBMIT_TIMEOUT_S);
}

static void begin_update(slurm_ctx_t *c, slurm_start_t *s)
{
    set_parked(c, s->id, 0);
    s->step = ST_UPDATE;
    step_spawn(c, s, s->update, SLURM_CMD_TIMEOUT_S);
}

/* The job's parked Slurm job, pending and held whatever it did last (as
 * squeue answered after the start was asked): updated at once when it is,
 * else held or requeue-held first; a fresh sbatch when Slurm no longer knows
 * it or it still runs. */
static void park_decide(slurm_ctx_t *c, slurm_start_t *s)
{
    long id = s->id;
    const slurm_job_state_t *st = find_state(c, id);
    char why[160], ext[32];
    /* a pair's owner whose wrapper kept its GPUs for the joiner: the start
     * waited up to LINGER_WAIT_S for it to go (slurm_start_after) */
    if (id_index(c->lingering, c->n_lingering, id) >= 0)
        note_end(c, id);
    set_lingering(c, id, 0);
    if (!st) {
        snprintf(why, sizeof why, "Slurm job %ld is no longer known (purged)", id);
        to_submit(c, s, why);
        return;
    }
    if (held(st)) {
        set_parked(c, id, 1);
        begin_update(c, s);
        return;
    }
    char *argv[4] = {"scontrol", NULL, ext, NULL};
    snprintf(ext, sizeof ext, "%ld", id);
    if (!strcmp(st->state, "PENDING") || !strcmp(st->state, "REQUEUED"))
        argv[1] = "hold"; /* released by a daemon killed before it recorded the run */
    else if (active_state(st->state)) {
        snprintf(why, sizeof why, "Slurm job %ld is still %s", id, st->state);
        to_submit(c, s, why);
        return;
    } else
        argv[1] = "requeuehold";
    s->step = ST_PARK;
    step_spawn(c, s, argv, SLURM_CMD_TIMEOUT_S);
}

/* The run did not start: said on stderr and in the note; slurm_ended then
 * reports it failed. */
static void fail_start(slurm_ctx_t *c, slurm_start_t *s)
{
    (void)c;
    fprintf(stderr, "live: job %lld: %s\n", s->job, s->failed);
    size_t n = strlen(s->note);
    snprintf(s->note + n, sizeof s->note - n, "%s%s", n ? "; " : "", s->failed);
    s->step = ST_FAILED;
}

/* sbatch failed: the run may be in Slurm all the same (killed after it had
 * submitted), under its name; adopted then, else the start has failed. */
static void find_by_name(slurm_ctx_t *c, slurm_start_t *s)
{
    for (size_t i = 0; i < c->n_jobs; i++) {
        const slurm_job_state_t *st = &c->jobs[i];
        if (!ours(c, st, s->name) || st->id == s->was || !active_state(st->state))
            continue;
        snprintf(s->ext_id, sizeof s->ext_id, "%ld", st->id);
        s->ext_news = 1;
        size_t n = strlen(s->note);
        snprintf(s->note + n, sizeof s->note - n, "%s%.150s; Slurm job %ld found by its name",
                 n ? "; " : "", s->failed, st->id);
        s->step = ST_DONE;
        invalidate(c);
        return;
    }
    fail_start(c, s);
}

/* What start s does next, without a command ending: its squeue answer has
 * come, or the release's time. */
static void advance_start(slurm_ctx_t *c, slurm_start_t *s)
{
    if (c->closing)
        return;
    if (s->step == ST_QUERY || s->step == ST_FIND) {
        want_query(c, s->asked);
        if (answered_since(c, s->asked))
            s->step == ST_QUERY ? park_decide(c, s) : find_by_name(c, s);
        else if (failed_since(c, s->asked) && s->step == ST_QUERY)
            to_submit(c, s, "squeue failed");
        else if (failed_since(c, s->asked))
            fail_start(c, s);
    } else if (s->step == ST_WAIT) {
        double at = s->wait_revoke ? past_end(c, s->id) : 0;
        if (s->wait_revoke && s->revoke_at > at)
            at = s->revoke_at;
        if (realtime() < at) /* slurm_start_after waited for it: a safeguard */
            return;
        char ext[32], *release[] = {"scontrol", "release", ext, NULL};
        snprintf(ext, sizeof ext, "%ld", s->id);
        s->step = ST_RELEASE;
        step_spawn(c, s, release, SLURM_CMD_TIMEOUT_S);
    }
}

/* The command of job's start step has ended (ok: exit 0; out: its stdout). */
static void step_done(slurm_ctx_t *c, long long job, int ok, const char *why, const char *out)
{
    slurm_start_t *s = find_start(c, job);
    if (!s || c->closing)
        return;
    switch (s->step) {
    case ST_PARK:
        if (!ok) {
            to_submit(c, s, why);
            break;
        }
        set_parked(c, s->id, 1);
        begin_update(c, s);
        break;
    case ST_UPDATE:
    case ST_RELEASE:
        if (!ok) {
            cancel_job(c, s->id);
            to_submit(c, s, why);
        } else if (s->step == ST_UPDATE) {
            s->step = ST_WAIT;
            advance_start(c, s);
        } else {
            set_released(c, s->id, 1);
            snprintf(s->note, sizeof s->note, "Slurm job %ld updated and released", s->id);
            s->step = ST_DONE;
            invalidate(c); /* the cache predates the release */
        }
        break;
    case ST_SUBMIT: {
        char *end = NULL;
        long id = out ? strtol(out, &end, 10) : 0;
        if (ok && id > 0) {
            snprintf(s->ext_id, sizeof s->ext_id, "%ld", id);
            s->ext_news = 1;
            s->step = ST_DONE;
            invalidate(c); /* the cache predates the new job */
            break;
        }
        if (ok)
            snprintf(s->failed, sizeof s->failed, "sbatch: no job id in its answer '%.80s'",
                     out ? out : "");
        else
            snprintf(s->failed, sizeof s->failed, "%.250s", why);
        s->step = ST_FIND;
        s->asked = mls_wall_seconds();
        advance_start(c, s);
        break;
    }
    default:
        break;
    }
}

/* ---- preemption of a run not yet started ------------------------------------- */

static void send_term(slurm_ctx_t *c, long id)
{
    char ext[32], *term[] = {"scancel", "--signal=TERM", "--full", ext, NULL};
    snprintf(ext, sizeof ext, "%ld", id);
    spawn_op(c, term, OP_SIGNAL, id, 0, INFINITY);
}

/* Job id's fate waits for a squeue asked from now on (settle_checks). */
static void add_check(slurm_ctx_t *c, long id, int held_)
{
    xgrow((void **)&c->checks, &c->checks_cap, c->n_checks + 1, sizeof *c->checks);
    c->checks[c->n_checks++] = (struct slurm_check){id, mls_wall_seconds(), held_};
}

/* SIGTERM to preempted Slurm job id, as a squeue asked since the stop says:
 * a run Slurm has not started (a decision undone at once, as packing
 * policies do) is held instead, as scancel cannot signal a pending job (it
 * retries for 5 s): its run has then ended, never begun. A hold is checked
 * afterwards (check_hold): on Slurm 22.05 the hold of a job that has just
 * started succeeds too. */
static void term_or_hold(slurm_ctx_t *c, long id)
{
    char ext[32];
    snprintf(ext, sizeof ext, "%ld", id);
    const slurm_job_state_t *s = find_state(c, id);
    if (s && !strcmp(s->state, "PENDING") && !held(s)) {
        char *hold[] = {"scontrol", "hold", ext, NULL};
        if (spawn_op(c, hold, OP_HOLD, id, 0, SLURM_CMD_TIMEOUT_S) == 0)
            return;
    }
    send_term(c, id);
}

/* After the hold of job id, as a squeue asked since says: still pending,
 * its run has ended, never begun (parked); begun meanwhile, the checkpoint
 * signal after all. */
static void check_hold(slurm_ctx_t *c, long id)
{
    const slurm_job_state_t *s = find_state(c, id);
    if (s && !strcmp(s->state, "PENDING")) {
        set_released(c, id, 0);
        set_parked(c, id, 1);
    } else if (s && active_state(s->state))
        send_term(c, id);
}

/* The preemptions and holds whose squeue answer has come; when squeue
 * failed, the signal (in vain for a job still pending, which counts as
 * ended once squeue lists it held). */
static void settle_checks(slurm_ctx_t *c)
{
    if (c->n_checks == 0)
        return;
    double oldest = INFINITY;
    for (size_t i = 0; i < c->n_checks; i++)
        oldest = c->checks[i].since < oldest ? c->checks[i].since : oldest;
    want_query(c, oldest);
    for (size_t i = 0; i < c->n_checks;) {
        struct slurm_check k = c->checks[i];
        int known = answered_since(c, k.since);
        if (!known && !failed_since(c, k.since)) {
            i++;
            continue;
        }
        c->checks[i] = c->checks[--c->n_checks]; /* the last one moves here: i stays */
        if (known && k.held)
            check_hold(c, k.id);
        else if (known)
            term_or_hold(c, k.id);
        else
            send_term(c, k.id);
    }
}

static void settle_lingering(slurm_ctx_t *c);

/* What the end of a Slurm command the daemon did not wait for calls for. */
static void op_done(slurm_ctx_t *c, slurm_op_t *o, int ok, int late, const char *why)
{
    if (o->kind == OP_QUERY) {
        query_done(c, o, ok, late);
        return;
    }
    if (o->kind == OP_STEP) {
        step_done(c, o->job, ok, why, o->text);
        return;
    }
    if (o->kind == OP_HOLD && ok) /* ended, never begun, unless it began first */
        add_check(c, o->id, 1);
    else if (o->kind == OP_HOLD) /* it began meanwhile: checkpoint it after all */
        send_term(c, o->id);
    else if (o->kind == OP_REQUEUEHOLD && ok)
        set_parked(c, o->id, 1);
    else if (o->kind == OP_REQUEUEHOLD) /* the restart tries again, else a fresh sbatch */
        fprintf(stderr, "live: Slurm job %ld not requeued: %s\n", o->id, why);
    if (o->kind != OP_SIGNAL)
        invalidate(c); /* the check above waits for a squeue asked after this */
}

/* The executor's work between the loop's turns: commands reaped, starts and
 * held-back signals moved on. */
static void pump(slurm_ctx_t *c)
{
    poll_ops(c);
    for (size_t i = 0; i < c->n_starts; i++)
        advance_start(c, &c->starts[i]);
    settle_checks(c);
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
            spawn_op(c, requeue, OP_REQUEUEHOLD, id, 0, SLURM_CMD_TIMEOUT_S);
        set_lingering(c, id, 0); /* swaps the last one in: i stays */
    }
}

/* 1 while Slurm job id is a pair's owner whose wrapper keeps its GPUs for
 * the joiner: gone in a moment (the joiner's run ended after it), so its
 * next start waits, for LINGER_WAIT_S at most (then park_decide() finds it
 * still running, and a fresh sbatch follows). */
static int owner_lingers(slurm_ctx_t *c, long id)
{
    if (id_index(c->lingering, c->n_lingering, id) < 0)
        return 0;
    int known = state_known(c);
    int within = mls_wall_seconds() - wait_since(c, id) < LINGER_WAIT_S;
    if (known <= 0)
        return known == 0 && within; /* squeue's answer is on its way */
    settle_lingering(c); /* requeue-holds it once Slurm lists it ended */
    if (id_index(c->lingering, c->n_lingering, id) < 0)
        return 0;
    const slurm_job_state_t *s = find_state(c, id);
    return s && !held(s) && active_state(s->state) && within;
}

/* When releasing j's parked job for its next run (after attempt j->attempt)
 * must wait for slurmd's revocation second (past_end, after_revoke_second):
 * the daemon keeps the job waiting until then, serving and deciding, rather
 * than the start waiting. Likewise while the hold or requeue-hold of its
 * last run is still running (or its SIGTERM waits for squeue), or its
 * lingering pair owner has not gone (up to LINGER_WAIT_S): SLURM_RECHECK_S
 * from now, asked again then. */
static double slurm_start_after(live_exec_t *x, const live_job_t *j, const live_launch_t *l)
{
    slurm_ctx_t *c = x->ctx;
    pump(c);
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

/* Starts j's run: writes the wrapper and the run's environment file, then
 * begins the start's steps (slurm_start_t) and returns: the resume of the
 * job's parked Slurm job, else a fresh sbatch. */
static int slurm_start(live_exec_t *x, live_job_t *j, const live_launch_t *l, mls_err_t *err)
{
    slurm_ctx_t *c = x->ctx;
    char wrapper[4096], exit_file[4096], log[4096], env_file[4096];
    snprintf(wrapper, sizeof wrapper, "%s/slurm-wrapper.sh", l->run_dir);
    if (write_wrapper(wrapper, err) < 0)
        return -1;
    our_wrapper(c, l->run_dir);
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
    slurm_start_t s = {.job = j->id, .asked = mls_wall_seconds()};
    s.id = j->ext_id[0] && !c->fresh_only ? strtol(j->ext_id, NULL, 10) : 0;
    if (s.id > 0) { /* before the environment file is rewritten: it tells the last run's node */
        live_job_t prev = *j;
        prev.attempt--;
        s.wait_revoke = may_share_node(env_file, l, &p);
        s.revoke_at = after_revoke_second(&prev, l->run_dir);
    }
    if (write_env_file(env_file, j, l, exit_file, j->joined ? join : NULL, err) < 0)
        return -1;
    snprintf(s.name, sizeof s.name, "%s", p.name);
    snprintf(s.ext_id, sizeof s.ext_id, "%s", j->ext_id);
    s.update = s.id > 0 ? update_argv(s.id, &p) : NULL;
    s.submit = submit_argv(c, j, &p, wrapper, env_file, log);
    slurm_start_t *old = find_start(c, j->id);
    if (old) /* not expected: the run before has ended */
        drop_start(c, old);
    xgrow((void **)&c->starts, &c->starts_cap, c->n_starts + 1, sizeof *c->starts);
    slurm_start_t *sp = &c->starts[c->n_starts++];
    *sp = s;
    if (sp->id <= 0) {
        sp->step = ST_SUBMIT;
        step_spawn(c, sp, sp->submit, SLURM_SUBMIT_TIMEOUT_S);
    } else if (parked_index(c, sp->id) >= 0)
        begin_update(c, sp);
    else { /* what the job did last, as squeue answers from now on */
        sp->step = ST_QUERY;
        advance_start(c, sp);
    }
    return 0;
}

/* Preempting: the daemon is stopping the job to run it again later. */
static int preempting(const live_job_t *j)
{
    return j->state == LJ_STOPPING && j->stop_kind == 0;
}

static void slurm_signal(live_exec_t *x, live_job_t *j, int sig)
{
    slurm_ctx_t *c = x->ctx;
    slurm_start_t *s = find_start(c, j->id);
    if (s) { /* its start is under way: delivered once the run's Slurm job is known */
        if (s->step != ST_FAILED && s->n_sigs < (int)(sizeof s->sigs / sizeof *s->sigs))
            s->sigs[s->n_sigs++] = sig;
        return;
    }
    if (!j->ext_id[0])
        return;
    long id = strtol(j->ext_id, NULL, 10);
    char *argv[6] = {NULL};
    if (sig == SIGTERM && preempting(j) && !c->fresh_only) {
        add_check(c, id, 0); /* as a squeue asked from now on says (settle_checks) */
        return;
    }
    if (sig == SIGTERM) {
        argv[0] = "scancel", argv[1] = "--signal=TERM", argv[2] = "--full", argv[3] = j->ext_id;
    } else if (sig == SIGKILL && preempting(j) && !c->fresh_only) {
        /* ends the run, not the Slurm job: it is requeued once it has ended */
        argv[0] = "scancel", argv[1] = "--signal=KILL", argv[2] = "--full", argv[3] = j->ext_id;
    } else if (sig == SIGKILL) {
        argv[0] = "scancel", argv[1] = j->ext_id;
        set_parked(c, id, 0);
    } else if (sig == SIGSTOP || sig == SIGCONT) {
        argv[0] = "scontrol", argv[1] = sig == SIGSTOP ? "suspend" : "resume",
        argv[2] = j->ext_id;
    } else
        return;
    spawn_op(c, argv, OP_SIGNAL, id, 0, INFINITY);
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

static int slurm_ended(live_exec_t *x, live_job_t *j, const char *run_dir, int *status,
                       double *when)
{
    slurm_ctx_t *c = x->ctx;
    *when = NAN;
    pump(c);
    slurm_start_t *st = find_start(c, j->id);
    if (st && st->step == ST_FAILED) { /* its start failed (the note says why) */
        *status = 127;
        drop_start(c, st);
        return 1;
    }
    if (st) /* its start is under way: the run counts as started */
        return 0;
    int linger = 0;
    int have_exit = read_exit(run_dir, j, status, when, &linger);
    if (!have_exit)
        *status = -1;
    /* Ended for the daemon only once Slurm has released the job too (not
     * COMPLETING any more): its GPUs are then free for the next run. */
    int known = state_known(c);
    if (known <= 0) /* Slurm's answer is on its way, or Slurm is not answering */
        return known < 0 && !j->ext_id[0] ? 1 : 0; /* assume it still runs */
    settle_lingering(c);
    if (!j->ext_id[0]) {
        /* A daemon killed between sbatch and recording its id: find the run
         * by its name, mlsched-ID-ATTEMPT. */
        char want[64];
        snprintf(want, sizeof want, "mlsched-%lld-%d", (long long)j->id, j->attempt);
        our_wrapper(c, run_dir);
        for (size_t i = 0; i < c->n_jobs && !j->ext_id[0]; i++)
            if (ours(c, &c->jobs[i], want))
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
        invalidate(c);
        spawn_op(c, requeue, OP_REQUEUEHOLD, id, 0, SLURM_CMD_TIMEOUT_S);
    }
    return 1;
}

/* What became of j's start under way: its Slurm id (set in j->ext_id) and
 * the note for an 'exec' event; once started, the signals the daemon sent
 * meanwhile are delivered. 1 when there is news. */
static int slurm_news(live_exec_t *x, live_job_t *j, char *note, size_t len)
{
    slurm_ctx_t *c = x->ctx;
    pump(c);
    slurm_start_t *s = find_start(c, j->id);
    if (!s)
        return 0;
    int news = 0;
    if (s->ext_news) {
        snprintf(j->ext_id, sizeof j->ext_id, "%s", s->ext_id);
        s->ext_news = 0;
        news = 1;
    }
    if (s->note[0]) {
        snprintf(note, len, "%s", s->note);
        s->note[0] = '\0';
        news = 1;
    }
    if (s->step == ST_DONE) {
        int sigs[sizeof s->sigs / sizeof *s->sigs], n = s->n_sigs;
        memcpy(sigs, s->sigs, sizeof sigs);
        drop_start(c, s);
        for (int k = 0; k < n; k++)
            slurm_signal(x, j, sigs[k]);
    }
    return news;
}

/* The loop's turn: commands reaped, starts moved on; the pipes of the
 * commands still running, for the loop to wait on. */
static int slurm_poll(live_exec_t *x, int *fds, int max)
{
    slurm_ctx_t *c = x->ctx;
    pump(c);
    int n = 0;
    for (size_t i = 0; i < c->n_ops; i++) {
        if (c->ops[i].out >= 0 && n < max)
            fds[n++] = c->ops[i].out;
        if (c->ops[i].err >= 0 && n < max)
            fds[n++] = c->ops[i].err;
    }
    return n;
}

static void slurm_destroy(live_exec_t *x)
{
    slurm_ctx_t *c = x->ctx;
    if (!c)
        return;
    c->closing = 1; /* starts under way stop where they are: the next daemon sees */
    while (c->n_ops > 0) { /* the commands under way end, or are killed at their time */
        poll_ops(c);
        struct timespec ts = {0, 10 * 1000 * 1000};
        if (c->n_ops > 0)
            nanosleep(&ts, NULL);
    }
    while (c->n_starts > 0)
        drop_start(c, &c->starts[0]);
    free(c->starts);
    free(c->ops);
    free(c->checks);
    free(c->partition);
    free(c->wrapper);
    for (int i = 0; i < c->n_node_names; i++)
        free(c->node_names[i]);
    free(c->node_names);
    free(c->jobs);
    free(c->parked);
    free(c->released);
    free(c->lingering);
    free(c->waits);
    free(c->ends);
    free(c);
    x->ctx = NULL;
}

static const live_exec_ops_t slurm_ops = {.name = "slurm",
                                          .start = slurm_start,
                                          .signal = slurm_signal,
                                          .ended = slurm_ended,
                                          .destroy = slurm_destroy,
                                          .start_after = slurm_start_after,
                                          .news = slurm_news,
                                          .poll = slurm_poll};

int live_exec_slurm(live_exec_t *x, const char *partition, const char *nodes, mls_err_t *err)
{
    char *argv[] = {"sinfo", "-h", "-o", "%N", NULL};
    char *out = NULL;
    int rc = run_cmd(argv, &out);
    free(out);
    if (rc != 0)
        return mls_fail(err, "--executor slurm: sinfo failed (exit %d): is Slurm running and "
                             "SLURM_CONF set?",
                        rc);
    slurm_ctx_t *c = xcalloc(1, sizeof *c);
    c->partition = partition ? xstrdup(partition) : NULL;
    c->queried_at = c->failed_at = c->stale_before = -INFINITY;
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
    /* the states as the daemon sets out (a restarted daemon adopts or settles
     * its jobs from them at once): this squeue is waited for */
    spawn_query(c);
    while (c->querying) {
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
        poll_ops(c);
    }
    x->ops = &slurm_ops;
    x->ctx = c;
    return 0;
}
