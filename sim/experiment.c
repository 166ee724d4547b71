/* experiment.c: building an experiment's run list and running it locally
 * (see experiment.h). Each run writes its own temporary database, so runs
 * never contend for one SQLite file and a failed run leaves nothing behind;
 * the successful ones are folded into the target database by one merge. */
#include "sim/experiment.h"

#include "policies/policy.h"
#include "sim/policy_exec.h"
#include "sim/runner.h"

#include <dirent.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

void exp_init(experiment_t *e, const char *who, const char *db)
{
    memset(e, 0, sizeof *e);
    e->who = who;
    e->db = db;
    e->jobs = 1;
}

static void run_free(exp_run_t *r)
{
    for (size_t i = 0; i < r->argc; i++)
        free(r->argv[i]);
    free(r->argv);
    free(r->name);
}

void exp_free(experiment_t *e)
{
    for (size_t i = 0; i < e->n_runs; i++)
        run_free(&e->runs[i]);
    for (size_t i = 0; i < e->n_prep; i++)
        run_free(&e->prep[i]);
    free(e->runs);
    free(e->prep);
    memset(e, 0, sizeof *e);
}

static void push_arg(exp_run_t *r, char *s)
{
    xgrow((void **)&r->argv, &r->cap, r->argc + 2, sizeof *r->argv);
    r->argv[r->argc++] = s;
    r->argv[r->argc] = NULL;
}

static exp_run_t *add(exp_run_t **arr, size_t *n, size_t *cap, const char *name, const char *sub)
{
    xgrow((void **)arr, cap, *n + 1, sizeof **arr);
    exp_run_t *r = &(*arr)[(*n)++];
    memset(r, 0, sizeof *r);
    r->name = xstrdup(name);
    push_arg(r, xstrdup(sub));
    return r;
}

exp_run_t *exp_add_run(experiment_t *e, const char *name, const char *sub)
{
    return add(&e->runs, &e->n_runs, &e->cap_runs, name, sub);
}

exp_run_t *exp_add_prep(experiment_t *e, const char *name, const char *sub)
{
    return add(&e->prep, &e->n_prep, &e->cap_prep, name, sub);
}

void exp_arg(exp_run_t *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *s = xmalloc((size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(s, (size_t)n + 1, fmt, ap);
    va_end(ap);
    push_arg(r, s);
}

static void print_quoted(FILE *out, const char *s)
{
    if (*s && !strpbrk(s, " \t\n'\"\\$`*?[]#~;&|<>(){}!")) {
        fputs(s, out);
        return;
    }
    fputc('\'', out);
    for (; *s; s++) {
        if (*s == '\'')
            fputs("'\\''", out);
        else
            fputc(*s, out);
    }
    fputc('\'', out);
}

static void print_cmd(FILE *out, const char *exe, const exp_run_t *r, const char *db)
{
    fputs(exe, out);
    for (size_t i = 0; i < r->argc; i++) {
        fputc(' ', out);
        print_quoted(out, r->argv[i]);
    }
    if (db) {
        fputs(" --db ", out);
        print_quoted(out, db);
    }
    fputc('\n', out);
}

void exp_print_plan(FILE *out, const experiment_t *e, const char *exe)
{
    if (e->n_prep)
        fprintf(out, "# %zu preparatory command(s)\n", e->n_prep);
    for (size_t i = 0; i < e->n_prep; i++)
        print_cmd(out, exe, &e->prep[i], NULL);
    fprintf(out, "# %zu run(s), each into its own database, then merged into %s\n", e->n_runs,
            e->db);
    for (size_t i = 0; i < e->n_runs; i++) {
        fprintf(out, "# %s\n", e->runs[i].name);
        print_cmd(out, exe, &e->runs[i], NULL);
    }
}

void exp_report_failure(const char *who, const char *name, int status, const char *text)
{
    fprintf(stderr, "mlsched %s: FAILED: %s (exit %d)\n", who, name, status);
    const char *p = text && *text ? text : "(no output on stderr)\n";
    while (*p) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        fprintf(stderr, "    %.*s\n", (int)n, p);
        p += n + (nl != NULL);
    }
}

/* ---- progress ------------------------------------------------------------ */

typedef struct progress {
    const char *who;
    int tty, quiet;
    size_t last_done;
    double last_print;
    int drawn;
} progress_t;

static void fmt_eta(char *buf, size_t n, double s)
{
    if (!isfinite(s) || s < 0)
        snprintf(buf, n, "?");
    else if (s >= 3600)
        snprintf(buf, n, "%dh%02dm", (int)(s / 3600), (int)fmod(s / 60, 60));
    else
        snprintf(buf, n, "%dm%02ds", (int)(s / 60), (int)fmod(s, 60));
}

static void on_progress(void *ctx, const runner_task_t *t, size_t n, double elapsed)
{
    progress_t *p = ctx;
    size_t done = 0, running = 0, failed = 0;
    double frac = 0, slowest = INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (t[i].state == TASK_DONE) {
            done++;
            failed += t[i].status != 0;
            frac += 1;
        } else if (t[i].state == TASK_RUNNING) {
            running++;
            if (t[i].sim_hours < slowest)
                slowest = t[i].sim_hours;
            if (t[i].jobs_total > 0)
                frac += (double)t[i].jobs_done / (double)t[i].jobs_total;
        }
    }
    if (p->quiet || (!p->tty && done == p->last_done && elapsed - p->last_print < 10))
        return;
    char eta[32], slow[48] = "";
    double left = frac > 0 ? elapsed * ((double)n - frac) / frac : NAN;
    /* the estimate counts finished jobs; a run whose last jobs are long would
     * show 0m00s for as long as they run: say unknown instead */
    fmt_eta(eta, sizeof eta, running && left < 1 ? NAN : left);
    if (running && isfinite(slowest))
        snprintf(slow, sizeof slow, ", slowest at t=%.1f h", slowest);
    fprintf(stderr, "%s%s: %zu/%zu runs done%s, %zu running%s, ETA %s%s", p->tty ? "\r" : "",
            p->who, done, n, failed ? " (some FAILED)" : "", running, slow, eta,
            p->tty ? "\033[K" : "\n");
    fflush(stderr);
    p->drawn = p->tty;
    p->last_done = done;
    p->last_print = elapsed;
}

/* ---- temporary folder ----------------------------------------------------- */

static char *make_tmpdir(const char *who, mls_err_t *err)
{
    const char *base = getenv("TMPDIR");
    char path[PATH_MAX];
    snprintf(path, sizeof path, "%s/mlsched-%s-XXXXXX", base && *base ? base : "/tmp", who);
    if (!mkdtemp(path)) {
        mls_fail(err, "%s: cannot create a temporary folder", path);
        return NULL;
    }
    return xstrdup(path);
}

static void remove_tree(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    char path[PATH_MAX];
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        unlink(path);
    }
    closedir(d);
    rmdir(dir);
}

/* ---- running -------------------------------------------------------------- */

/* A pool task for run r: argv[0] "mlsched", then the run's arguments. */
static void task_of(runner_task_t *t, const exp_run_t *r)
{
    char **av = xcalloc(r->argc + 2, sizeof *av);
    av[0] = "mlsched";
    memcpy(av + 1, r->argv, r->argc * sizeof *av);
    runner_task_init(t, r->name, av);
    free(av);
}

int exp_prepare(experiment_t *e, const char *exe, mls_err_t *err)
{
    if (!e->n_prep)
        return 0;
    runner_task_t *t = xcalloc(e->n_prep, sizeof *t);
    for (size_t i = 0; i < e->n_prep; i++)
        task_of(&t[i], &e->prep[i]);
    runner_opts_t o = {exe, e->jobs, 1, NULL, NULL};
    int rc = runner_run(t, e->n_prep, &o, err);
    for (size_t i = 0; i < e->n_prep; i++) {
        if (rc >= 0 && t[i].status != 0)
            exp_report_failure(e->who, t[i].name, t[i].status, t[i].err);
        runner_task_free(&t[i]);
    }
    free(t);
    if (rc > 0)
        return mls_fail(err, "%d preparatory command(s) failed; nothing was run", rc);
    return rc < 0 ? -1 : 0;
}

static void init_tasks(experiment_t *e, runner_task_t *t, const char *tmp)
{
    for (size_t i = 0; i < e->n_runs; i++) {
        exp_run_t *r = &e->runs[i];
        char db[PATH_MAX + 32];
        snprintf(db, sizeof db, "%s/run-%zu.db", tmp, i);
        exp_arg(r, "--db");
        exp_arg(r, "%s", db);
        exp_arg(r, "--progress");
        task_of(&t[i], r);
        /* the run list stays as the caller built it */
        for (int k = 0; k < 3; k++)
            free(r->argv[--r->argc]);
        r->argv[r->argc] = NULL;
    }
}

/* Merges the databases of the runs that succeeded, in run order. */
static int merge_ok(experiment_t *e, runner_task_t *t, const char *tmp, exp_outcome_t *out,
                    mls_err_t *err)
{
    char **paths = xcalloc(e->n_runs + 1, sizeof *paths);
    size_t k = 0;
    for (size_t i = 0; i < e->n_runs; i++) {
        if (t[i].status != 0) {
            exp_report_failure(e->who, t[i].name, t[i].status, t[i].err);
            out->failed++;
            continue;
        }
        char p[PATH_MAX + 32];
        snprintf(p, sizeof p, "%s/run-%zu.db", tmp, i);
        paths[k++] = xstrdup(p);
    }
    int rc = k ? merge_dbs(e->db, (const char *const *)paths, k, &out->merged, err) : 0;
    for (size_t i = 0; i < k; i++)
        free(paths[i]);
    free(paths);
    return rc;
}

int exp_run_local(experiment_t *e, exp_outcome_t *out, mls_err_t *err)
{
    memset(out, 0, sizeof *out);
    char exe[PATH_MAX];
    if (runner_self_exe(exe, sizeof exe, err) < 0 || exp_prepare(e, exe, err) < 0)
        return -1;
    char *tmp = make_tmpdir(e->who, err);
    if (!tmp)
        return -1;
    runner_task_t *t = xcalloc(e->n_runs + 1, sizeof *t);
    init_tasks(e, t, tmp);
    progress_t p = {e->who, isatty(2), e->quiet, (size_t)-1, 0, 0};
    runner_opts_t o = {exe, e->jobs, 1, on_progress, &p};
    int rc = runner_run(t, e->n_runs, &o, err);
    if (p.drawn)
        fputc('\n', stderr);
    if (rc >= 0)
        rc = merge_ok(e, t, tmp, out, err);
    for (size_t i = 0; i < e->n_runs; i++)
        runner_task_free(&t[i]);
    free(t);
    remove_tree(tmp);
    free(tmp);
    return rc < 0 ? -1 : 0;
}

/* ---- helpers of the compare and sweep command lines ------------------------ */

int exp_split(const char *s, char sep, char ***items, size_t *n)
{
    *items = NULL;
    *n = 0;
    size_t cap = 0;
    const char *p = s;
    for (;;) {
        const char *end = strchr(p, sep);
        size_t len = end ? (size_t)(end - p) : strlen(p);
        xgrow((void **)items, &cap, *n + 1, sizeof **items);
        (*items)[*n] = xmalloc(len + 1);
        memcpy((*items)[*n], p, len);
        (*items)[(*n)++][len] = '\0';
        if (len == 0)
            return -1;
        if (!end)
            return 0;
        p = end + 1;
    }
}

void exp_split_free(char **items, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(items[i]);
    free(items);
}

int exp_policies(const char *spec, char ***names, size_t *n, const char **bad)
{
    *bad = NULL;
    if (!strcmp(spec, "all")) {
        *n = policy_count();
        *names = xcalloc(*n + 1, sizeof **names);
        for (size_t i = 0; i < *n; i++)
            (*names)[i] = xstrdup(policy_at(i)->name);
        return 0;
    }
    if (exp_split(spec, ',', names, n) < 0) {
        *bad = "";
        return -1;
    }
    for (size_t i = 0; i < *n; i++)
        if (!policy_is_exec((*names)[i]) && !policy_find((*names)[i])) {
            *bad = (*names)[i];
            return -1;
        }
    return 0;
}

int exp_seeds(const char *s, long **seeds, size_t *n)
{
    char **items;
    size_t k;
    int rc = exp_split(s, ',', &items, &k);
    *seeds = xcalloc(k + 1, sizeof **seeds);
    *n = k;
    for (size_t i = 0; i < k && rc == 0; i++)
        if (mls_parse_long(items[i], &(*seeds)[i]) < 0 || (*seeds)[i] < 0)
            rc = -1;
    exp_split_free(items, k);
    return rc;
}

int exp_show(const char *db, const merge_stats_t *m, unsigned by, const char *baseline,
             const result_print_opts_t *po, mls_err_t *err)
{
    if (!m->runs)
        return 0;
    result_filter_t f = {0};
    f.run_lo = m->first_run;
    f.run_hi = m->last_run;
    result_set_t rs;
    if (results_load(db, &f, &rs, err) < 0)
        return -1;
    result_group_t *g;
    size_t ng;
    results_group(&rs, by, baseline, &g, &ng);
    results_print(stdout, g, ng, po);
    free(g);
    results_free(&rs);
    return 0;
}

int exp_ncpu(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n > 0 ? (int)n : 1;
}
