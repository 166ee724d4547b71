/* slurm_array.c: the Slurm backend of an experiment (see experiment.h).
 *
 * The runs become one job array. A work folder (on a file system the compute
 * nodes share) holds:
 *   tasks.tsv      line i+1 = the arguments of task i, separated by tabs
 *   job.sh         the array script: reads its line, runs this mlsched binary,
 *                  records the exit status in status/<i> (there is no sacct
 *                  without slurmdbd, so the script tells us itself)
 *   db/task-<i>.db each task's own database
 *   logs/<i>.out, logs/<i>.err
 * `sbatch --array=0-(N-1)[%J]` submits it. With `wait`, `squeue -j ID` is
 * polled until the array has left the queue, and the databases of the tasks
 * that exited 0 are merged into the target in one transaction. */
#include "sim/experiment.h"

#include "sim/runner.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

typedef struct work {
    char dir[PATH_MAX];
    char exe[PATH_MAX];
    long job_id;
} work_t;

static int make_dir(const char *path, mls_err_t *err)
{
    if (mkdir(path, 0777) < 0 && errno != EEXIST)
        return mls_fail(err, "%s: cannot create: %s", path, strerror(errno));
    return 0;
}

static void dir_of(const char *path, char *out, size_t n)
{
    snprintf(out, n, "%s", path);
    char *slash = strrchr(out, '/');
    if (!slash)
        snprintf(out, n, ".");
    else if (slash == out)
        out[1] = '\0';
    else
        *slash = '\0';
}

/* The work folder: so->dir, or a new folder beside the target database. */
static int make_work(const experiment_t *e, const exp_slurm_t *so, work_t *w, mls_err_t *err)
{
    char base[PATH_MAX], sub[PATH_MAX + 64];
    if (so->dir) {
        if (make_dir(so->dir, err) < 0 || !realpath(so->dir, w->dir))
            return mls_fail(err, "%s: cannot use as the Slurm work folder", so->dir);
    } else {
        char d[PATH_MAX];
        dir_of(e->db, d, sizeof d);
        if (!realpath(d, base))
            return mls_fail(err, "%s: no such folder (for the Slurm work folder)", d);
        if (strlen(base) + strlen(e->who) + 16 >= sizeof w->dir)
            return mls_fail(err, "%s: path too long", base);
        snprintf(w->dir, sizeof w->dir, "%.3000s/slurm-%.64s-XXXXXX", base, e->who);
        if (!mkdtemp(w->dir))
            return mls_fail(err, "%s: cannot create: %s", w->dir, strerror(errno));
    }
    if (strchr(w->dir, '\'') || strchr(w->exe, '\''))
        return mls_fail(err, "%s: a quote in the path cannot go into the job script", w->dir);
    const char *subs[] = {"db", "logs", "status"};
    for (int i = 0; i < 3; i++) {
        snprintf(sub, sizeof sub, "%s/%s", w->dir, subs[i]);
        if (make_dir(sub, err) < 0)
            return -1;
    }
    return 0;
}

static int write_tasks(const experiment_t *e, const work_t *w, mls_err_t *err)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/tasks.tsv", w->dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return mls_fail(err, "%s: cannot write: %s", path, strerror(errno));
    int rc = 0;
    for (size_t i = 0; i < e->n_runs && rc == 0; i++) {
        const exp_run_t *r = &e->runs[i];
        for (size_t k = 0; k < r->argc; k++) {
            if (!r->argv[k][0] || strpbrk(r->argv[k], "\t\n"))
                rc = mls_fail(err,
                              "run '%s': argument '%s' is empty or has a tab or newline,"
                              " which a task list line cannot hold",
                              r->name, r->argv[k]);
            fprintf(f, "%s%s", k ? "\t" : "", r->argv[k]);
        }
        fprintf(f, "\t--db\t%s/db/task-%zu.db\t--quiet\n", w->dir, i);
    }
    if (fclose(f) != 0 && rc == 0)
        rc = mls_fail(err, "%s: cannot write: %s", path, strerror(errno));
    return rc;
}

static int write_script(const experiment_t *e, const work_t *w, mls_err_t *err)
{
    char path[PATH_MAX + 32];
    snprintf(path, sizeof path, "%s/job.sh", w->dir);
    FILE *f = fopen(path, "w");
    if (!f)
        return mls_fail(err, "%s: cannot write: %s", path, strerror(errno));
    fprintf(f,
            "#!/bin/sh\n"
            "# mlsched %s: Slurm array task -> line TASK_ID+1 of tasks.tsv\n"
            "dir='%s'\n"
            "exe='%s'\n"
            "i=${SLURM_ARRAY_TASK_ID:?not run as a Slurm array task}\n"
            "line=$(sed -n \"$((i + 1))p\" \"$dir/tasks.tsv\")\n"
            "[ -n \"$line\" ] || { echo \"no task $i in $dir/tasks.tsv\" >&2; exit 2; }\n"
            "set -f\n"
            "IFS='\t'\n"
            "set -- $line\n"
            "\"$exe\" \"$@\"\n"
            "rc=$?\n"
            "echo $rc >\"$dir/status/$i.tmp\" && mv \"$dir/status/$i.tmp\" \"$dir/status/$i\"\n"
            "exit $rc\n",
            e->who, w->dir, w->exe);
    if (fclose(f) != 0)
        return mls_fail(err, "%s: cannot write: %s", path, strerror(errno));
    chmod(path, 0755);
    return 0;
}

static char **sbatch_argv(const experiment_t *e, const exp_slurm_t *so, const work_t *w)
{
    char **av = xcalloc(8 + so->n_sbatch_args, sizeof *av);
    size_t n = 0;
    char buf[PATH_MAX + 64];
    av[n++] = xstrdup("sbatch");
    av[n++] = xstrdup("--parsable");
    if (e->jobs > 0)
        snprintf(buf, sizeof buf, "--array=0-%zu%%%d", e->n_runs - 1, e->jobs);
    else
        snprintf(buf, sizeof buf, "--array=0-%zu", e->n_runs - 1);
    av[n++] = xstrdup(buf);
    snprintf(buf, sizeof buf, "--job-name=mlsched-%s", e->who);
    av[n++] = xstrdup(buf);
    snprintf(buf, sizeof buf, "--output=%s/logs/%%a.out", w->dir);
    av[n++] = xstrdup(buf);
    snprintf(buf, sizeof buf, "--error=%s/logs/%%a.err", w->dir);
    av[n++] = xstrdup(buf);
    for (size_t i = 0; i < so->n_sbatch_args; i++)
        av[n++] = xstrdup(so->sbatch_args[i]);
    snprintf(buf, sizeof buf, "%s/job.sh", w->dir);
    av[n++] = xstrdup(buf);
    return av;
}

static void free_argv(char **av)
{
    for (size_t i = 0; av[i]; i++)
        free(av[i]);
    free(av);
}

static int submit(const experiment_t *e, const exp_slurm_t *so, work_t *w, mls_err_t *err)
{
    char **av = sbatch_argv(e, so, w);
    char *out = NULL, *errtext = NULL;
    int status = -1;
    int rc = runner_capture("sbatch", av, &out, &errtext, &status, err);
    free_argv(av);
    if (rc == 0 && status != 0)
        rc = mls_fail(err, "sbatch failed (exit %d): %s", status,
                      status == 127 ? "sbatch not found in PATH" : errtext);
    if (rc == 0 && (sscanf(out, "%ld", &w->job_id) != 1 || w->job_id <= 0))
        rc = mls_fail(err, "sbatch printed no job id: '%s'", out);
    free(out);
    free(errtext);
    return rc;
}

/* 1 while the array is in the queue, 0 when it has left, -1 on error. */
static int in_queue(long job_id, mls_err_t *err)
{
    char id[32];
    snprintf(id, sizeof id, "%ld", job_id);
    char *av[] = {"squeue", "-h", "-j", id, "-o", "%i", NULL};
    char *out = NULL, *errtext = NULL;
    int status = -1;
    if (runner_capture("squeue", av, &out, &errtext, &status, err) < 0)
        return -1;
    int rc;
    if (status == 0)
        rc = strspn(out, " \t\n") != strlen(out);
    else if (strstr(errtext, "Invalid job id"))
        rc = 0;
    else
        rc = mls_fail(err, "squeue failed (exit %d): %s", status, errtext);
    free(out);
    free(errtext);
    return rc;
}

static size_t count_status(const experiment_t *e, const work_t *w)
{
    size_t k = 0;
    char path[PATH_MAX + 64];
    for (size_t i = 0; i < e->n_runs; i++) {
        snprintf(path, sizeof path, "%s/status/%zu", w->dir, i);
        k += access(path, F_OK) == 0;
    }
    return k;
}

static int wait_array(const experiment_t *e, const exp_slurm_t *so, const work_t *w, mls_err_t *err)
{
    double poll = so->poll > 0 ? so->poll : 2;
    size_t last = (size_t)-1;
    int errors = 0;
    for (;;) {
        int q = in_queue(w->job_id, err);
        if (q == 0)
            return 0;
        if (q < 0 && ++errors > 10)
            return -1;
        size_t done = count_status(e, w);
        if (!e->quiet && done != last)
            fprintf(stderr, "%s: Slurm job %ld: %zu/%zu tasks done\n", e->who, w->job_id, done,
                    e->n_runs);
        last = done;
        struct timespec ts = {(time_t)poll, (long)((poll - (long)poll) * 1e9)};
        nanosleep(&ts, NULL);
    }
}

static char *read_small(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return NULL;
    char *buf = xmalloc(8193);
    fseek(f, 0, SEEK_END);
    long size = ftell(f);
    fseek(f, size > 8192 ? size - 8192 : 0, SEEK_SET);
    size_t n = fread(buf, 1, 8192, f);
    buf[n] = '\0';
    fclose(f);
    return buf;
}

/* Exit status of task i from status/<i>; -1 when it has none. */
static int task_status(const work_t *w, size_t i)
{
    char path[PATH_MAX + 64];
    snprintf(path, sizeof path, "%s/status/%zu", w->dir, i);
    char *s = read_small(path);
    long v = -1;
    if (s)
        mls_parse_long(s, &v);
    free(s);
    return (int)v;
}

static int collect(const experiment_t *e, const work_t *w, exp_outcome_t *out, mls_err_t *err)
{
    char **paths = xcalloc(e->n_runs + 1, sizeof *paths);
    size_t k = 0;
    char path[PATH_MAX + 64];
    for (size_t i = 0; i < e->n_runs; i++) {
        int st = task_status(w, i);
        if (st != 0) {
            snprintf(path, sizeof path, "%s/logs/%zu.err", w->dir, i);
            char *text = read_small(path);
            exp_report_failure(e->who, e->runs[i].name, st,
                               st < 0 ? "no exit status: the task never ran to its end"
                                        " (cancelled, timed out or killed by Slurm?)"
                                      : text);
            free(text);
            out->failed++;
            continue;
        }
        snprintf(path, sizeof path, "%s/db/task-%zu.db", w->dir, i);
        paths[k++] = xstrdup(path);
    }
    int rc = k ? merge_dbs(e->db, (const char *const *)paths, k, &out->merged, err) : 0;
    for (size_t i = 0; i < k; i++)
        free(paths[i]);
    free(paths);
    return rc;
}

int exp_run_slurm(experiment_t *e, const exp_slurm_t *so, exp_outcome_t *out, mls_err_t *err)
{
    memset(out, 0, sizeof *out);
    work_t w;
    memset(&w, 0, sizeof w);
    if (e->n_runs == 0)
        return mls_fail(err, "nothing to run");
    if (runner_self_exe(w.exe, sizeof w.exe, err) < 0 || exp_prepare(e, w.exe, err) < 0 ||
        make_work(e, so, &w, err) < 0 || write_tasks(e, &w, err) < 0 ||
        write_script(e, &w, err) < 0 || submit(e, so, &w, err) < 0)
        return -1;
    fprintf(stderr, "%s: submitted Slurm job array %ld (%zu tasks), work folder %s\n", e->who,
            w.job_id, e->n_runs, w.dir);
    if (!so->wait) {
        fprintf(stderr,
                "%s: when it has finished: %s merge -o %s %s/db/*.db\n"
                "  (tasks that failed have a log in %s/logs/ and no status/<task> of 0)\n",
                e->who, w.exe, e->db, w.dir, w.dir);
        out->submitted = 1;
        return 0;
    }
    if (wait_array(e, so, &w, err) < 0)
        return -1;
    return collect(e, &w, out, err);
}
