/* test_tiresias_optimus_drf.c: unit tests of tiresias-las, tiresias-gittins, optimus,
 * optimus-oracle, drf and qssf, and of the trace's cpus/mem_gb columns.
 *
 * Each test builds a small view by hand (one or two GPU types on nodes of
 * chosen sizes, a few jobs, a throughput table per job where one is needed, a
 * history of finished jobs) and asserts who runs, on what, and in which order,
 * with numbers worked out in the comments. Every plan is also checked against
 * the mechanism's rules (capacity, a job at most once, elastic bounds,
 * explicit GPU ids distinct and on up nodes of the type). */
#include "model/trace.h"
#include "policies/idmap.h"
#include "policies/policy.h"
#include "sim/policy_exec.h"
#include "tests/check_main.h"

#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define MAXJ 12
#define MAXN 8
#define MAXG 64
#define MAXF 16

typedef struct fx {
    view_gpu_type_t types[2];
    view_node_t nodes[MAXN];
    view_job_t jobs[MAXJ];
    view_finished_t fin[MAXF];
    int holder[MAXG];
    int ids[MAXJ][8];         /* cur_gpu_ids storage */
    double table[MAXJ][9];    /* per job: tput on n GPUs; 0 row = rate x n */
    double spread_loss[MAXJ]; /* fraction lost per extra node */
    double rate[2];           /* per-GPU rate of each type */
    view_batch_limits_t lim;  /* every job's batch limits, when has_lim */
    int has_lim;
    int asked[MAXJ][9];       /* the batch each job's rate on n GPUs was last asked at */
    view_perf_t perf;
    view_t v;
} fx_t;

static double fx_tput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch)
{
    fx_t *f = ctx;
    int k = 0;
    while (k < f->v.n_jobs && &f->jobs[k] != j)
        k++;
    if (k >= f->v.n_jobs) /* a copy of a view job (optimus: at another progress) */
        for (k = 0; k < f->v.n_jobs && f->jobs[k].id != j->id; k++)
            ;
    if (k >= f->v.n_jobs)
        return 0;
    if (gpus >= 0 && gpus <= 8 && j == &f->jobs[k])
        f->asked[k][gpus] = batch;
    double base = f->table[k][0] > 0 && gpus <= 8 ? f->table[k][gpus] : f->rate[type] * gpus;
    return base * (1.0 - f->spread_loss[k] * (nodes - 1));
}

static int fx_limits(void *ctx, const view_job_t *j, int type, view_batch_limits_t *out)
{
    (void)j;
    (void)type;
    const fx_t *f = ctx;
    if (!f->has_lim)
        return -1;
    *out = f->lim;
    return 0;
}

/* One type per entry of node_gpus... : n nodes of type 0 with the given GPU
 * counts (rate 1 per GPU). */
static void fx_init(fx_t *f, int n_nodes, const int *node_gpus)
{
    memset(f, 0, sizeof *f);
    int id = 0;
    for (int k = 0; k < n_nodes; k++) {
        f->nodes[k] = (view_node_t){0, node_gpus[k], id, 0, 1, 0, 0};
        id += node_gpus[k];
    }
    f->types[0] = (view_gpu_type_t){"t0", id, id, 16.0};
    f->rate[0] = 1.0;
    for (int i = 0; i < MAXG; i++)
        f->holder[i] = -1;
    f->perf = (view_perf_t){.ctx = f, .throughput = fx_tput, .batch_limits = fx_limits};
    f->v.n_types = 1;
    f->v.types = f->types;
    f->v.n_nodes = n_nodes;
    f->v.nodes = f->nodes;
    f->v.n_gpus = id;
    f->v.gpu_holder = f->holder;
    f->v.jobs = f->jobs;
    f->v.finished = f->fin;
    f->v.perf = &f->perf;
    f->v.round_len = 360;
    f->v.n_users = 3;
}

/* Adds a queued rigid job (in (submit, id) order); the oracle fields are set
 * (only oracle policies would see them from the engine). */
static int fx_job(fx_t *f, int64_t id, double submit, int gpus, double work)
{
    int j = f->v.n_jobs++;
    view_job_t *jb = &f->jobs[j];
    *jb = (view_job_t){0};
    jb->id = id;
    jb->submit = submit;
    jb->priority = 1;
    jb->deadline = INFINITY;
    jb->duration_estimate = NAN;
    jb->gpus_requested = jb->min_gpus = jb->max_gpus = gpus;
    jb->cur_type = -1;
    jb->first_start = jb->last_start = jb->throughput = NAN;
    jb->total_work = jb->remaining_work = work;
    return j;
}

/* Job j runs since `since` on the given GPU ids. */
static void fx_run_on(fx_t *f, int j, double since, const int *ids, int n)
{
    view_job_t *jb = &f->jobs[j];
    jb->state = VIEW_RUNNING;
    jb->cur_type = 0;
    jb->cur_gpus = n;
    jb->cur_nodes = 1;
    jb->first_start = jb->last_start = since;
    memcpy(f->ids[j], ids, sizeof(int) * (size_t)n);
    jb->cur_gpu_ids = f->ids[j];
    for (int i = 0; i < n; i++)
        f->holder[ids[i]] = j;
    f->types[0].free_gpus -= n;
}

static void fx_stop(fx_t *f, int j)
{
    view_job_t *jb = &f->jobs[j];
    for (int i = 0; i < jb->cur_gpus; i++)
        f->holder[jb->cur_gpu_ids[i]] = -1;
    f->types[0].free_gpus += jb->cur_gpus;
    jb->state = VIEW_QUEUED;
    jb->cur_type = -1;
    jb->cur_gpus = 0;
    jb->cur_gpu_ids = NULL;
}

static void fx_finished(fx_t *f, int user, int gpus, double run_time)
{
    f->fin[f->v.n_finished++] =
        (view_finished_t){user, 0, gpus, 0, 0, run_time, run_time, run_time * gpus};
}

static void check_plan(const fx_t *f, const plan_t *p)
{
    int used = 0;
    char seen[MAXG] = {0};
    for (int k = 0; k < p->n; k++) {
        const plan_alloc_t *a = &p->allocs[k];
        ck_assert(a->job >= 0 && a->job < f->v.n_jobs);
        ck_assert_int_eq(plan_find(p, a->job), k);
        ck_assert_int_eq(a->type, 0);
        ck_assert_int_ge(a->gpus, f->jobs[a->job].min_gpus);
        ck_assert_int_le(a->gpus, f->jobs[a->job].max_gpus);
        for (int i = 0; a->has_ids && i < a->gpus; i++) {
            int id = p->ids[a->ids_off + i];
            ck_assert(id >= 0 && id < f->v.n_gpus && !seen[id]);
            seen[id] = 1;
        }
        used += a->gpus;
    }
    ck_assert_int_le(used, f->types[0].total_gpus);
}

/* A policy instance with key=value parameters (NULL-ended pairs). */
static void *make(const char *name, const char *const *kv)
{
    const char *keys[8], *vals[8];
    int n = 0;
    for (; kv && kv[2 * n]; n++) {
        keys[n] = kv[2 * n];
        vals[n] = kv[2 * n + 1];
    }
    policy_args_t args = {n, keys, vals, 0, NULL};
    policy_ref_t ref;
    mls_err_t e;
    void *st = NULL;
    char err[256] = "";
    /* as simulate and live serve do: sample files are read by the resolve */
    ck_assert_msg(policy_resolve(name, &args, &ref, &e) == 0, "%s", e.msg);
    ck_assert_msg(ref.ops->create(&st, &ref.args, err, sizeof err) == 0, "%s", err);
    policy_release(&ref);
    return st;
}

/* policy_resolve's error for name with the one parameter key=value. */
static const char *resolve_error(const char *name, const char *key, const char *value,
                                 mls_err_t *e)
{
    const char *k[] = {key}, *v[] = {value};
    policy_args_t args = {1, k, v, 0, NULL};
    policy_ref_t ref;
    e->msg[0] = '\0';
    ck_assert_int_eq(policy_resolve(name, &args, &ref, e), -1);
    policy_release(&ref);
    return e->msg;
}

static void decide_with(fx_t *f, const char *name, void *st, plan_t *p)
{
    char err[256] = "";
    plan_clear(p);
    ck_assert_int_eq(policy_find(name)->schedule(st, &f->v, p, err, sizeof err), 0);
    check_plan(f, p);
}

/* One decision of a fresh instance. */
static void decide(fx_t *f, const char *name, const char *const *kv, plan_t *p)
{
    void *st = make(name, kv);
    decide_with(f, name, st, p);
    policy_find(name)->destroy(st);
}

static int runs(const plan_t *p, int j)
{
    return plan_find(p, j) >= 0;
}

static int gpus_of(const plan_t *p, int j)
{
    int k = plan_find(p, j);
    return k < 0 ? 0 : p->allocs[k].gpus;
}

/* Node index of each explicit id of j's allocation, all equal: that node,
 * else -2 (spread); -1 when j has no ids. */
static int node_of(const fx_t *f, const plan_t *p, int j)
{
    int k = plan_find(p, j), node = -1;
    if (k < 0 || !p->allocs[k].has_ids)
        return -1;
    for (int i = 0; i < p->allocs[k].gpus; i++) {
        int id = p->ids[p->allocs[k].ids_off + i], here = -1;
        for (int n = 0; n < f->v.n_nodes; n++)
            if (id >= f->nodes[n].first_gpu && id < f->nodes[n].first_gpu + f->nodes[n].gpus)
                here = n;
        if (node >= 0 && here != node)
            return -2;
        node = here;
    }
    return node;
}

static const int TWO4[] = {4, 4};

/* ---- tiresias ------------------------------------------------------------------ */

START_TEST(tiresias_demotes_at_the_limit)
{
    static const char *const kv[] = {"queues", "2", "limits", "100", NULL};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 2, TWO4);
    int a = fx_job(&f, 1, 0, 8, 1e6);
    int b = fx_job(&f, 2, 1, 8, 1e6);
    static const int all[] = {0, 1, 2, 3, 4, 5, 6, 7};
    fx_run_on(&f, a, 0, all, 8);
    f.v.now = 20;
    f.jobs[a].attained_service = 99.9; /* still in queue 0: FIFO keeps a */
    decide(&f, "tiresias-las", kv, &p);
    ck_assert(runs(&p, a) && !runs(&p, b));
    ck_assert_int_eq(node_of(&f, &p, a), -1); /* kept: no ids, no restart */
    f.jobs[a].attained_service = 100;         /* reaches the limit: demoted, b runs */
    decide(&f, "tiresias-las", kv, &p);
    ck_assert(!runs(&p, a) && runs(&p, b));
    /* Plain LAS would have preempted a long before: tiresias only at limits. */
    f.jobs[a].attained_service = 50;
    decide(&f, "las", NULL, &p);
    ck_assert(!runs(&p, a) && runs(&p, b));
    plan_free(&p);
}
END_TEST

START_TEST(tiresias_promotes_starved_jobs)
{
    /* 4 GPUs (one node), queue 0 below 10000 GPU-s. a and c (4 GPUs each)
     * both sit in queue 1; c (submitted first) wins the tie and a, which ran
     * 10..1000, is preempted. With promote_knob=2, once a has waited 2 x 990 s
     * it goes back to queue 0 and takes the GPUs from c; without it, c keeps
     * them. */
    static const int one4[] = {4};
    static const char *const kv[] = {"queues", "2", "limits", "10000", "promote_knob", "2", NULL};
    static const char *const off[] = {"queues", "2", "limits", "10000", NULL};
    static const int all[] = {0, 1, 2, 3};
    for (int knob = 0; knob < 2; knob++) {
        fx_t f;
        plan_t p;
        plan_init(&p);
        fx_init(&f, 1, one4);
        int c = fx_job(&f, 1, 0, 4, 1e9);
        int a = fx_job(&f, 2, 10, 4, 1e9);
        const char *name = "tiresias-las";
        void *st = make(name, knob ? kv : off);
        fx_run_on(&f, a, 10, all, 4);
        f.v.now = 1000;
        f.jobs[a].attained_service = 12000;
        f.jobs[c].attained_service = 11000;
        decide_with(&f, name, st, &p);
        ck_assert(!runs(&p, a) && runs(&p, c));
        fx_stop(&f, a);
        fx_run_on(&f, c, 1000, all, 4);
        f.v.now = 2500; /* a waited 1500 < 2 x 990 */
        f.jobs[c].attained_service = 17000;
        decide_with(&f, name, st, &p);
        ck_assert(!runs(&p, a) && runs(&p, c));
        f.v.now = 3100; /* waited 2100 >= 1980: promoted when the knob is on */
        f.jobs[c].attained_service = 19400;
        decide_with(&f, name, st, &p);
        ck_assert_int_eq(runs(&p, a), knob);
        ck_assert_int_eq(runs(&p, c), !knob);
        policy_find(name)->destroy(st);
        plan_free(&p);
    }
}
END_TEST

START_TEST(tiresias_fifo_by_queue_entry)
{
    /* Queue 0 below 100 GPU-s. b (submitted after a) entered queue 1 at
     * t=10, a only at t=20: in queue 1 b goes first, and a, demoted, is
     * preempted for it. */
    static const int one4[] = {4};
    static const char *const kv[] = {"queues", "2", "limits", "100", NULL};
    static const int all[] = {0, 1, 2, 3};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, one4);
    int a = fx_job(&f, 1, 0, 4, 1e9);
    int b = fx_job(&f, 2, 1, 4, 1e9);
    void *st = make("tiresias-las", kv);
    fx_run_on(&f, a, 5, all, 4);
    f.v.now = 10;
    f.jobs[a].attained_service = 50;
    f.jobs[b].attained_service = 200;
    decide_with(&f, "tiresias-las", st, &p);
    ck_assert(runs(&p, a) && !runs(&p, b));
    f.v.now = 20;
    f.jobs[a].attained_service = 120;
    decide_with(&f, "tiresias-las", st, &p);
    ck_assert(!runs(&p, a) && runs(&p, b));
    policy_find("tiresias-las")->destroy(st);
    plan_free(&p);
}
END_TEST

START_TEST(tiresias_running_first_keeps_list_order)
{
    /* One node of 4 GPUs. At t=2 a (2 GPUs), b (4) and c (2) wait: a and c
     * run, b does not fit. At t=50 a has ended: under FIFO b (submitted
     * before c) takes the node and c is preempted; under within=running_first
     * (Tiresias's simulator's list) c, running, stays ahead of b, which waits. */
    static const int one4[] = {4};
    static const char *const sim[] = {"within", "running_first", NULL};
    static const int two[] = {2, 3};
    for (int keep = 0; keep < 2; keep++) {
        fx_t f;
        plan_t p;
        plan_init(&p);
        void *st = make("tiresias-las", keep ? sim : NULL);
        fx_init(&f, 1, one4);
        int a = fx_job(&f, 1, 0, 2, 1e6);
        int b = fx_job(&f, 2, 1, 4, 1e6);
        int c = fx_job(&f, 3, 2, 2, 1e6);
        f.v.now = 2;
        decide_with(&f, "tiresias-las", st, &p);
        ck_assert(runs(&p, a) && !runs(&p, b) && runs(&p, c));
        fx_init(&f, 1, one4); /* a ended */
        b = fx_job(&f, 2, 1, 4, 1e6);
        c = fx_job(&f, 3, 2, 2, 1e6);
        fx_run_on(&f, c, 2, two, 2);
        f.v.now = 50;
        f.jobs[c].attained_service = 96;
        decide_with(&f, "tiresias-las", st, &p);
        ck_assert_int_eq(runs(&p, b), !keep);
        ck_assert_int_eq(runs(&p, c), keep);
        policy_find("tiresias-las")->destroy(st);
        plan_free(&p);
    }
}
END_TEST

START_TEST(tiresias_time_service)
{
    /* Queue 0 below 100. a (4 GPUs) has run 50 s: 200 GPU-s. Counted in
     * GPU-seconds it is demoted and b runs; counted in seconds (its
     * simulator's dlas) it stays in queue 0, first by FIFO. */
    static const int one4[] = {4};
    static const char *const gpu[] = {"queues", "2", "limits", "100", NULL};
    static const char *const secs[] = {"queues", "2", "limits", "100", "service", "time", NULL};
    static const int all[] = {0, 1, 2, 3};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, one4);
    int a = fx_job(&f, 1, 0, 4, 1e6);
    int b = fx_job(&f, 2, 1, 4, 1e6);
    fx_run_on(&f, a, 0, all, 4);
    f.v.now = 50;
    f.jobs[a].attained_service = 200;
    decide(&f, "tiresias-las", gpu, &p);
    ck_assert(!runs(&p, a) && runs(&p, b));
    decide(&f, "tiresias-las", secs, &p);
    ck_assert(runs(&p, a) && !runs(&p, b));
    plan_free(&p);
}
END_TEST

START_TEST(tiresias_gittins_samples_file)
{
    /* samples 100, 100, 100, 1000, 1000 and delta 200 (its simulator's
     * table): service 0 -> p = 3/5, e = (300 + 2 x 200) / 5 = 140, index
     * 4285.7; service 150 -> p = 1/2, e = (1000 + 200) / 2 = 600, index 833.3.
     * One GPU: a (service 0, submitted last) runs before b (150). A file
     * with a bad line is an error naming file, line and field. */
    static const int one1[] = {1};
    char path[] = "/tmp/test_tiresias_XXXXXX";
    int fd = mkstemp(path);
    ck_assert(fd >= 0);
    FILE *fp = fdopen(fd, "w");
    fputs("duration\n100\n1000\n100\n1000\n100\n", fp);
    fclose(fp);
    const char *kv[] = {"queues", "1", "samples", path, "delta", "200", NULL};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, one1);
    int b = fx_job(&f, 1, 0, 1, 1e6);
    int a = fx_job(&f, 2, 5, 1, 1e6);
    f.jobs[b].attained_service = 150;
    decide(&f, "tiresias-gittins", kv, &p);
    ck_assert(runs(&p, a) && !runs(&p, b));
    fp = fopen(path, "w");
    fputs("duration\n100\nten\n", fp);
    fclose(fp);
    mls_err_t e;
    const char *msg = resolve_error("tiresias-gittins", "samples", path, &e);
    ck_assert_msg(strstr(msg, "tiresias-gittins: samples=") && strstr(msg, ":3: field 'duration'"),
                  "%s", msg);
    /* a NUL does not end the line: "1000\0junk" is not read as 1000 */
    fp = fopen(path, "w");
    fwrite("duration\n100\n1000\0junk\n100\n", 1, 27, fp);
    fclose(fp);
    msg = resolve_error("tiresias-gittins", "samples", path, &e);
    ck_assert_msg(strstr(msg, ":3: a NUL byte") != NULL, "%s", msg);
    /* the column is found by name: other columns (and their order) do not
     * matter; a file without it is an error naming the column */
    fp = fopen(path, "w");
    fputs("id,duration\n1,100\n2,1000\n3,100\n4,1000\n5,100\n", fp);
    fclose(fp);
    decide(&f, "tiresias-gittins", kv, &p);
    ck_assert(runs(&p, a) && !runs(&p, b));
    fp = fopen(path, "w");
    fputs("id,secs\n1,100\n2,1000\n", fp);
    fclose(fp);
    msg = resolve_error("tiresias-gittins", "samples", path, &e);
    ck_assert_msg(strstr(msg, ":1: want a header with a 'duration' column") != NULL, "%s", msg);
    msg = resolve_error("tiresias-gittins", "samples", "/nonexistent/yarn.csv", &e);
    ck_assert_msg(strstr(msg, "/nonexistent/yarn.csv: cannot open it") != NULL, "%s", msg);
    /* created without the resolve (no samples in its args), the policy says so
     * instead of opening the file itself */
    const char *k[] = {"samples"}, *v[] = {path};
    policy_args_t args = {1, k, v, 0, NULL};
    void *st = NULL;
    char err[256] = "";
    ck_assert_int_eq(policy_find("tiresias-gittins")->create(&st, &args, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "the file was not read") != NULL, "%s", err);
    unlink(path);
    plan_free(&p);
}
END_TEST

START_TEST(tiresias_gittins_orders_by_index)
{
    /* Service samples: five of 100 and five of 1000 GPU-s; queue 0 up to 200.
     *   a = 150: D = 50, no sample in (150, 200]      -> G = 0
     *   b = 0:   D = 200, P = 1/2, E[min(S,200)] = 150 -> G = 1/300
     *   c = 90:  D = 110, P = 1/2, E = (5x10+5x110)/10 = 60 -> G = 1/120
     * Gittins runs c and b; FIFO (2D-LAS) runs a and b. */
    static const int one2[] = {2};
    static const char *const kv[] = {"queues", "2", "limits", "200", NULL};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, one2);
    int a = fx_job(&f, 1, 0, 1, 1e6);
    int b = fx_job(&f, 2, 1, 1, 1e6);
    int c = fx_job(&f, 3, 2, 1, 1e6);
    f.jobs[a].attained_service = 150;
    f.jobs[c].attained_service = 90;
    for (int i = 0; i < 5; i++) {
        fx_finished(&f, 0, 1, 100);
        fx_finished(&f, 0, 1, 1000);
    }
    decide(&f, "tiresias-gittins", kv, &p);
    ck_assert(!runs(&p, a) && runs(&p, b) && runs(&p, c));
    decide(&f, "tiresias-las", kv, &p);
    ck_assert(runs(&p, a) && runs(&p, b) && !runs(&p, c));
    /* One GPU: c alone (highest index). */
    f.nodes[0].gpus = 1;
    f.types[0].total_gpus = f.types[0].free_gpus = f.v.n_gpus = 1;
    decide(&f, "tiresias-gittins", kv, &p);
    ck_assert(runs(&p, c) && p.n == 1);
    plan_free(&p);
}
END_TEST

START_TEST(tiresias_consolidates_skewed_models)
{
    /* Two nodes of 4 GPUs; r holds GPUs 0-1 of node 0 (free: 2 + 4). */
    static const int r_ids[] = {0, 1};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 2, TWO4);
    int r = fx_job(&f, 1, 0, 2, 1e6);
    int s = fx_job(&f, 2, 1, 3, 1e6);
    fx_run_on(&f, r, 0, r_ids, 2);
    f.jobs[r].attained_service = 10;
    /* s is skew-sensitive (spreading costs 30 %): one node, node 1. */
    f.spread_loss[s] = 0.3;
    decide(&f, "tiresias-las", NULL, &p);
    ck_assert(runs(&p, r) && runs(&p, s));
    ck_assert_int_eq(node_of(&f, &p, s), 1);
    /* Not sensitive (5 % < consolidate_loss 10 %): relaxed placement takes the
     * most fragmented node first, so it spreads and leaves node 1 whole for
     * jobs that need it. */
    f.spread_loss[s] = 0.05;
    decide(&f, "tiresias-las", NULL, &p);
    ck_assert_int_eq(node_of(&f, &p, s), -2);
    /* consolidate_loss=0.01 makes it sensitive again. */
    static const char *const strict[] = {"consolidate_loss", "0.01", NULL};
    decide(&f, "tiresias-las", strict, &p);
    ck_assert_int_eq(node_of(&f, &p, s), 1);
    plan_free(&p);
}
END_TEST

START_TEST(tiresias_sensitive_job_waits_for_a_node)
{
    /* r1 holds 2 GPUs on node 0, r2 2 on node 1 (both older: higher
     * priority). s (3 GPUs, sensitive) fits in the 4 free GPUs only spread: it
     * waits, and the later 1-GPU job t runs. */
    static const int r1_ids[] = {0, 1}, r2_ids[] = {4, 5};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 2, TWO4);
    int r1 = fx_job(&f, 1, 0, 2, 1e6);
    int r2 = fx_job(&f, 2, 0, 2, 1e6);
    int s = fx_job(&f, 3, 1, 3, 1e6);
    int t = fx_job(&f, 4, 2, 1, 1e6);
    fx_run_on(&f, r1, 0, r1_ids, 2);
    fx_run_on(&f, r2, 0, r2_ids, 2);
    f.spread_loss[s] = 0.5;
    decide(&f, "tiresias-las", NULL, &p);
    ck_assert(runs(&p, r1) && runs(&p, r2) && !runs(&p, s) && runs(&p, t));
    /* If s had priority over r2 (r2 has attained more: r2 in queue 1), r2 is
     * preempted and s takes node 1. */
    f.jobs[r2].attained_service = 5000;
    decide(&f, "tiresias-las", NULL, &p);
    ck_assert(runs(&p, r1) && runs(&p, s));
    ck_assert_int_eq(node_of(&f, &p, s), 1);
    plan_free(&p);
}
END_TEST

/* The ids of j's allocation, in plan order, into ids; their count. */
static int ids_of(const plan_t *p, int j, int *ids)
{
    int k = plan_find(p, j);
    if (k < 0 || !p->allocs[k].has_ids)
        return 0;
    for (int i = 0; i < p->allocs[k].gpus; i++)
        ids[i] = p->ids[p->allocs[k].ids_off + i];
    return p->allocs[k].gpus;
}

START_TEST(tiresias_most_free_placement)
{
    /* The case above under place=most_free (Pollux's artifact, tiresias.py):
     * who runs is decided by GPU count alone (r1 2 + s 3 + t 1 + r2 2 = 8
     * GPUs: all run), running jobs keep their GPUs, and s, sensitive or not,
     * takes min(free, needed) from the node with the most free GPUs, the
     * lowest index among equals: 2 on node 0 (GPUs 2, 3), then 1 on node 1
     * (GPU 6); t the last free GPU, 7. */
    static const int r1_ids[] = {0, 1}, r2_ids[] = {4, 5};
    static const char *const mf[] = {"place", "most_free", NULL};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 2, TWO4);
    int r1 = fx_job(&f, 1, 0, 2, 1e6);
    int r2 = fx_job(&f, 2, 0, 2, 1e6);
    int s = fx_job(&f, 3, 1, 3, 1e6);
    int t = fx_job(&f, 4, 2, 1, 1e6);
    fx_run_on(&f, r1, 0, r1_ids, 2);
    fx_run_on(&f, r2, 0, r2_ids, 2);
    f.spread_loss[s] = 0.5;
    f.jobs[r2].attained_service = 5000; /* queue 1: last in the order */
    decide(&f, "tiresias-las", mf, &p);
    int ids[8];
    ck_assert(runs(&p, r1) && runs(&p, r2) && runs(&p, s) && runs(&p, t));
    ck_assert_int_eq(gpus_of(&p, r2), 2); /* kept where it is (no ids: the mechanism keeps it) */
    ck_assert_int_eq(ids_of(&p, s, ids), 3);
    ck_assert(ids[0] == 2 && ids[1] == 3 && ids[2] == 6);
    ck_assert_int_eq(ids_of(&p, t, ids), 1);
    ck_assert_int_eq(ids[0], 7);
    /* The default (place=skew) gives the sensitive s one node, node 1,
     * taking GPU 4 from r2 (which restarts elsewhere). */
    decide(&f, "tiresias-las", NULL, &p);
    ck_assert_int_eq(node_of(&f, &p, s), 1);
    /* s asks 4: r2 no longer fits by count (2 + 4 + 1 + 2 > 8) and is
     * stopped; s then takes node 1 (4 free) whole, t GPU 2 of node 0. */
    f.jobs[s].gpus_requested = f.jobs[s].min_gpus = f.jobs[s].max_gpus = 4;
    decide(&f, "tiresias-las", mf, &p);
    ck_assert(runs(&p, r1) && !runs(&p, r2) && runs(&p, s) && runs(&p, t));
    ck_assert_int_eq(node_of(&f, &p, s), 1);
    ck_assert_int_eq(ids_of(&p, t, ids), 1);
    ck_assert_int_eq(ids[0], 2);
    /* A job that does not fit by count is passed over: u (8 GPUs, before t
     * in the order) waits, t still runs. */
    f.jobs[s].gpus_requested = f.jobs[s].min_gpus = f.jobs[s].max_gpus = 8;
    decide(&f, "tiresias-las", mf, &p);
    ck_assert(runs(&p, r1) && !runs(&p, s) && runs(&p, t) && runs(&p, r2));
    plan_free(&p);
}
END_TEST

/* ---- optimus -------------------------------------------------------------------- */

START_TEST(optimus_marginal_gain)
{
    /* 4 GPUs, a and b elastic 1..4. tput a: 10, 18, 24, 28; b: 10 n.
     * Remaining: a 1000, b 100. After the minimums (1 each), gains:
     *   a 1->2: 1000 (1/10 - 1/18) = 44.4   b 1->2: 100 (1/10 - 1/20) = 5
     *   a 2->3: 1000 (1/18 - 1/24) = 13.9 > 5
     * so a ends with 3 GPUs, b with 1. */
    static const int one4[] = {4};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, one4);
    int a = fx_job(&f, 1, 0, 1, 1000);
    int b = fx_job(&f, 2, 1, 1, 100);
    for (int j = 0; j < 2; j++) {
        f.jobs[j].min_gpus = 1;
        f.jobs[j].max_gpus = 4;
    }
    static const double ta[] = {1, 10, 18, 24, 28};
    for (int n = 0; n <= 4; n++) {
        f.table[a][n] = ta[n];
        f.table[b][n] = n ? 10.0 * n : 1;
    }
    decide(&f, "optimus-oracle", NULL, &p);
    ck_assert_int_eq(gpus_of(&p, a), 3);
    ck_assert_int_eq(gpus_of(&p, b), 1);
    /* b with 1000 left too: b 1->2 gains 50 > a's 44.4; then a 1->2 (44.4)
     * beats b 2->3 (1000 (1/20 - 1/30) = 16.7). */
    f.jobs[b].remaining_work = 1000;
    decide(&f, "optimus-oracle", NULL, &p);
    ck_assert_int_eq(gpus_of(&p, a), 2);
    ck_assert_int_eq(gpus_of(&p, b), 2);
    /* Without the oracle: remaining from duration estimates (s on the
     * requested GPU, 10 units/s): a 100 s -> 1000, b 10 s -> 100. */
    f.jobs[a].duration_estimate = 100;
    f.jobs[b].duration_estimate = 10;
    decide(&f, "optimus", NULL, &p);
    ck_assert_int_eq(gpus_of(&p, a), 3);
    ck_assert_int_eq(gpus_of(&p, b), 1);
    /* No estimates, no history: both get the prior: the first GPU after the
     * minimums goes to b (gain 1/10-1/20 = .05 x R beats a's .044 x R), the
     * next to a (.044 > b's 2->3 .0167). */
    f.jobs[a].duration_estimate = f.jobs[b].duration_estimate = NAN;
    decide(&f, "optimus", NULL, &p);
    ck_assert_int_eq(gpus_of(&p, a), 2);
    ck_assert_int_eq(gpus_of(&p, b), 2);
    /* History per workload: workload 0's jobs ran 100 s, workload 1's 10 s:
     * the same estimates as the duration estimates above. */
    f.jobs[b].workload = 1;
    fx_finished(&f, 0, 1, 100);
    fx_finished(&f, 0, 1, 10);
    f.fin[1].workload = 1;
    decide(&f, "optimus", NULL, &p);
    ck_assert_int_eq(gpus_of(&p, a), 3);
    ck_assert_int_eq(gpus_of(&p, b), 1);
    /* Work done counts: a has done 950 of its estimated 1000 (50 left; the
     * floor, 10 % of 1000, makes it 100): b's 1->2 gain 5 beats a's
     * 100 x (1/10 - 1/18) = 4.4, then a's 4.4 beats b's 2->3 1.7. */
    f.jobs[a].work_done = 950;
    decide(&f, "optimus", NULL, &p);
    ck_assert_int_eq(gpus_of(&p, a), 2);
    ck_assert_int_eq(gpus_of(&p, b), 2);
    plan_free(&p);
}
END_TEST

START_TEST(optimus_minimums_smallest_first)
{
    /* 4 GPUs; minimums 3, 2, 2 (rigid): the two 2-GPU jobs get theirs first,
     * though the 3-GPU job arrived first. */
    static const int one4[] = {4};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, one4);
    int a = fx_job(&f, 1, 0, 3, 100);
    int b = fx_job(&f, 2, 1, 2, 100);
    int c = fx_job(&f, 3, 2, 2, 100);
    decide(&f, "optimus-oracle", NULL, &p);
    ck_assert(!runs(&p, a) && runs(&p, b) && runs(&p, c));
    /* A job never grows past the point where one more GPU stops helping. */
    f.v.n_jobs = 1;
    f.jobs[a].min_gpus = 1;
    f.jobs[a].max_gpus = 4;
    static const double flat[] = {1, 10, 15, 15, 15};
    memcpy(f.table[a], flat, sizeof flat);
    decide(&f, "optimus-oracle", NULL, &p);
    ck_assert_int_eq(gpus_of(&p, a), 2);
    plan_free(&p);
}
END_TEST

/* -P batch=total: a job keeps its trace's total batch on any GPU count. The
 * limits are cifar10's on a T4 (init 128, max 4096, per GPU 32..1024). */
START_TEST(optimus_keeps_total_batch)
{
    static const int one4[] = {4}, one3[] = {3}, one1[] = {1}, one8[] = {8};
    static const char *const total[] = {"batch", "total", NULL};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, one4);
    f.has_lim = 1;
    f.lim = (view_batch_limits_t){128, 4096, 32, 1024, 50048};
    int a = fx_job(&f, 1, 0, 1, 1e6);
    f.jobs[a].max_gpus = 64;
    f.jobs[a].total_batch = 2048;
    /* rate n per GPU: every GPU helps; on 4 GPUs 512 per GPU, no accumulation,
     * and each rate was asked at ceil(2048 / n) per GPU */
    decide(&f, "optimus-oracle", total, &p);
    ck_assert_int_eq(gpus_of(&p, a), 4);
    ck_assert_int_eq(p.allocs[plan_find(&p, a)].batch_size, 512);
    ck_assert_int_eq(p.allocs[plan_find(&p, a)].accum_steps, 0);
    ck_assert_int_eq(f.asked[a][1], 2048);
    ck_assert_int_eq(f.asked[a][2], 1024);
    ck_assert_int_eq(f.asked[a][3], 683);
    ck_assert_int_eq(f.asked[a][4], 512);
    /* the same under per_gpu (the default): the engine's own batch */
    decide(&f, "optimus-oracle", NULL, &p);
    ck_assert_int_eq(gpus_of(&p, a), 4);
    ck_assert_int_eq(p.allocs[plan_find(&p, a)].batch_size, 0);
    ck_assert_int_eq(f.asked[a][4], 0);
    /* 3 GPUs: 683 per GPU (the total 2,049: ceil, as the artifact) */
    fx_init(&f, 1, one3);
    f.has_lim = 1;
    f.lim = (view_batch_limits_t){128, 4096, 32, 1024, 50048};
    a = fx_job(&f, 1, 0, 1, 1e6);
    f.jobs[a].max_gpus = 64;
    f.jobs[a].total_batch = 2048;
    decide(&f, "optimus", total, &p);
    ck_assert_int_eq(gpus_of(&p, a), 3);
    ck_assert_int_eq(p.allocs[plan_find(&p, a)].batch_size, 683);
    /* 1 GPU: 2048 is above the GPU's 1024: two steps of 1024 */
    fx_init(&f, 1, one1);
    f.has_lim = 1;
    f.lim = (view_batch_limits_t){128, 4096, 32, 1024, 50048};
    a = fx_job(&f, 1, 0, 1, 1e6);
    f.jobs[a].max_gpus = 64;
    f.jobs[a].total_batch = 2048;
    decide(&f, "optimus-oracle", total, &p);
    ck_assert_int_eq(p.allocs[plan_find(&p, a)].batch_size, 1024);
    ck_assert_int_eq(p.allocs[plan_find(&p, a)].accum_steps, 1);
    /* at most total / min_local GPUs: 128 / 32 = 4 of 8, though every GPU
     * helps and max_gpus is 64; per_gpu takes all 8 */
    fx_init(&f, 1, one8);
    f.has_lim = 1;
    f.lim = (view_batch_limits_t){128, 4096, 32, 1024, 50048};
    a = fx_job(&f, 1, 0, 1, 1e6);
    f.jobs[a].max_gpus = 64;
    f.jobs[a].total_batch = 128;
    decide(&f, "optimus-oracle", total, &p);
    ck_assert_int_eq(gpus_of(&p, a), 4);
    ck_assert_int_eq(p.allocs[plan_find(&p, a)].batch_size, 32);
    decide(&f, "optimus-oracle", NULL, &p);
    ck_assert_int_eq(gpus_of(&p, a), 8);
    /* no total_batch in the trace, or no batch limits: as per_gpu */
    f.jobs[a].total_batch = 0;
    decide(&f, "optimus-oracle", total, &p);
    ck_assert_int_eq(gpus_of(&p, a), 8);
    ck_assert_int_eq(p.allocs[plan_find(&p, a)].batch_size, 0);
    f.jobs[a].total_batch = 128;
    f.has_lim = 0;
    decide(&f, "optimus-oracle", total, &p);
    ck_assert_int_eq(gpus_of(&p, a), 8);
    ck_assert_int_eq(p.allocs[plan_find(&p, a)].batch_size, 0);
    plan_free(&p);
}
END_TEST

/* A fixed-total job's step time on n GPUs (s): linear speed-up to 8 GPUs,
 * the 9th a hair slower (as cifar10's measured 4+4 against 4+4+1 at total
 * 2,048: 0.25993 s against 0.25998 s). */
static double st_of(int n)
{
    return n <= 8 ? 1.0 / n : 1.0001 / 8;
}

/* Samples/s at micro-batch m and s accumulation steps, and the goodput at
 * per-GPU batch `batch` (efficiency 1): what a step time gives. */
static double st_samples(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int m,
                         int s)
{
    (void)ctx, (void)j, (void)type, (void)nodes;
    return (double)gpus * m * (s + 1) / st_of(gpus);
}

static double st_goodput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch)
{
    (void)ctx, (void)j, (void)type, (void)nodes;
    return (double)gpus * batch / st_of(gpus);
}

/* -P batch=total gains as the artifact's Optimus makes them (optimus.py):
 * step time(n) - step time(n+1), times the steps left after the current
 * epoch at the total batch (1 in its last epoch). */
START_TEST(optimus_total_batch_gains_in_steps)
{
    static const int one9[] = {9}, one8[] = {8};
    static const char *const total[] = {"batch", "total", NULL};
    fx_t f;
    plan_t p;
    plan_init(&p);
    /* 9 GPUs at ceil(2048 / 9) = 228 each run 2,052 samples a step, 0.2 %
     * more than 8 GPUs' 2,048, in a step 0.01 % longer: a work rate would
     * take the 9th GPU, the step time does not */
    fx_init(&f, 1, one9);
    f.has_lim = 1;
    f.lim = (view_batch_limits_t){128, 4096, 32, 1024, 50048};
    f.perf.throughput = st_goodput;
    f.perf.samples_throughput = st_samples;
    int a = fx_job(&f, 1, 0, 1, 50048 * 20.0);
    f.jobs[a].max_gpus = 64;
    f.jobs[a].total_batch = 2048;
    decide(&f, "optimus-oracle", total, &p);
    ck_assert_int_eq(gpus_of(&p, a), 8);
    /* a job in its last epoch counts one step left: the other job, with an
     * epoch after its current one, takes every GPU but the first (counted
     * in work, the job in its last epoch, 0.9 epoch left against 2, got a
     * second GPU before the other's fourth) */
    fx_init(&f, 1, one8);
    f.has_lim = 1;
    f.lim = (view_batch_limits_t){128, 4096, 32, 1024, 50048};
    f.perf.throughput = st_goodput;
    f.perf.samples_throughput = st_samples;
    int last = fx_job(&f, 1, 0, 1, 50048 * 10.0), two = fx_job(&f, 2, 1, 1, 50048 * 2.0);
    for (int j = 0; j < 2; j++) {
        f.jobs[j].max_gpus = 64;
        f.jobs[j].total_batch = 2048;
    }
    f.jobs[last].work_done = 50048 * 9.1;
    f.jobs[last].remaining_work = 50048 * 0.9;
    decide(&f, "optimus-oracle", total, &p);
    ck_assert_int_eq(gpus_of(&p, last), 1);
    ck_assert_int_eq(gpus_of(&p, two), 7);
    plan_free(&p);
}
END_TEST

/* -P place=most_free: jobs whose count changed, fewest GPUs first, take the
 * node with the most free GPUs (ties to the lower index); a job keeping its
 * count keeps its GPUs. */
START_TEST(optimus_places_most_free_first)
{
    static const int two4[] = {4, 4};
    static const char *const mf[] = {"place", "most_free", NULL};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 2, two4);
    int big = fx_job(&f, 1, 0, 4, 100), one = fx_job(&f, 2, 1, 1, 100);
    /* the 1-GPU job first: node 0 (4 free, lower index), GPU 0; then the
     * 4-GPU job: node 1 (4 free against 3) */
    decide(&f, "optimus-oracle", mf, &p);
    ck_assert_int_eq(node_of(&f, &p, one), 0);
    ck_assert_int_eq(p.ids[p.allocs[plan_find(&p, one)].ids_off], 0);
    ck_assert_int_eq(node_of(&f, &p, big), 1);
    /* the mechanism's placement (default): no ids */
    decide(&f, "optimus-oracle", NULL, &p);
    ck_assert_int_eq(node_of(&f, &p, big), -1);
    /* a 2-GPU job runs on GPUs 4, 5 and keeps them; a new 2-GPU job and a
     * new 1-GPU job: the 1-GPU job takes GPU 0 (node 0: 4 free against 2),
     * the 2-GPU job GPUs 1, 2 (node 0: 3 free against 2) */
    fx_init(&f, 2, two4);
    int kept = fx_job(&f, 1, 0, 2, 100), two = fx_job(&f, 2, 1, 2, 100);
    one = fx_job(&f, 3, 2, 1, 100);
    static const int ids45[] = {4, 5};
    fx_run_on(&f, kept, 0, ids45, 2);
    f.jobs[kept].cur_partner = -1;
    decide(&f, "optimus-oracle", mf, &p);
    ck_assert_int_eq(node_of(&f, &p, kept), -1); /* kept: no new ids */
    ck_assert_int_eq(p.ids[p.allocs[plan_find(&p, one)].ids_off], 0);
    ck_assert_int_eq(p.ids[p.allocs[plan_find(&p, two)].ids_off], 1);
    ck_assert_int_eq(p.ids[p.allocs[plan_find(&p, two)].ids_off + 1], 2);
    plan_free(&p);
}
END_TEST

/* ---- drf ------------------------------------------------------------------------ */

START_TEST(drf_dominant_shares)
{
    /* The DRF paper's example (§4): 9 CPUs, 18 GB; user 0's jobs <1 CPU, 4 GB>,
     * user 1's <3 CPU, 1 GB>; GPUs plentiful (16, one per job). Progressive
     * filling gives user 0 three jobs (3 CPU, 12 GB: share 2/3) and user 1
     * two (6 CPU, 2 GB: share 2/3). */
    static const int two8[] = {8, 8};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 2, two8);
    f.nodes[0].cpus = 5;
    f.nodes[1].cpus = 4;
    f.nodes[0].mem_gb = f.nodes[1].mem_gb = 9;
    int n_run[2] = {0, 0};
    for (int i = 0; i < 10; i++) {
        int j = fx_job(&f, i + 1, i, 1, 100);
        f.jobs[j].user = i % 2;
        f.jobs[j].cpus = i % 2 ? 3 : 1;
        f.jobs[j].mem_gb = i % 2 ? 1 : 4;
    }
    decide(&f, "drf", NULL, &p);
    for (int j = 0; j < 10; j++)
        n_run[f.jobs[j].user] += runs(&p, j);
    ck_assert_int_eq(n_run[0], 3);
    ck_assert_int_eq(n_run[1], 2);
    ck_assert(runs(&p, 0) && runs(&p, 2) && runs(&p, 4)); /* oldest first */
    ck_assert(runs(&p, 1) && runs(&p, 3));
    /* GPU-dominant demands: user 0 holds 6 of 8 GPUs; the next 2 GPUs go to
     * user 1 although user 0's waiting job is older. Non-preemptive: user
     * 0's jobs keep running. */
    static const int one8[] = {8};
    fx_init(&f, 1, one8);
    f.nodes[0].cpus = 64;
    f.nodes[0].mem_gb = 512;
    int a = fx_job(&f, 1, 0, 6, 100);
    int b = fx_job(&f, 2, 1, 2, 100);
    int c = fx_job(&f, 3, 2, 2, 100);
    f.jobs[c].user = 1;
    static const int a_ids[] = {0, 1, 2, 3, 4, 5};
    fx_run_on(&f, a, 0, a_ids, 6);
    for (int j = 0; j < 3; j++) {
        f.jobs[j].cpus = 1;
        f.jobs[j].mem_gb = 1;
    }
    decide(&f, "drf", NULL, &p);
    ck_assert(runs(&p, a) && !runs(&p, b) && runs(&p, c));
    plan_free(&p);
}
END_TEST

/* ---- qssf ------------------------------------------------------------------------ */

START_TEST(qssf_orders_by_predicted_service)
{
    /* History: user 0 on 1 GPU ran 100 s twice; user 1 on 1 GPU ran 1000 s.
     * Predicted service: j1 (user 1, 1 GPU) 1000; j2 (user 0, 1) 100;
     * j3 (user 0, 4 GPUs: falls back to user 0's 100 s) 400; j4 (user 2:
     * everyone's 400 s) 400, after j3 (submit). 6 GPUs: j2, j3, j4 run. */
    static const int one6[] = {6};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, one6);
    int j1 = fx_job(&f, 1, 0, 1, 100);
    int j2 = fx_job(&f, 2, 1, 1, 100);
    int j3 = fx_job(&f, 3, 2, 4, 100);
    int j4 = fx_job(&f, 4, 3, 1, 100);
    f.jobs[j1].user = 1;
    f.jobs[j4].user = 2;
    fx_finished(&f, 0, 1, 100);
    fx_finished(&f, 1, 1, 1000);
    fx_finished(&f, 0, 1, 100);
    decide(&f, "qssf", NULL, &p);
    ck_assert(!runs(&p, j1) && runs(&p, j2) && runs(&p, j3) && runs(&p, j4));
    /* No backfilling: with 4 GPUs, j3 (4 GPUs) does not fit after j2 and
     * blocks j4, although j4 would fit. */
    f.nodes[0].gpus = 4;
    f.types[0].total_gpus = f.types[0].free_gpus = f.v.n_gpus = 4;
    decide(&f, "qssf", NULL, &p);
    ck_assert(runs(&p, j2) && p.n == 1);
    /* A prediction is made once per job. User 1 then finishes three 1 s
     * jobs: a fresh instance predicts j1 at (1000 + 3) / 4 = 250.75 and j4 at
     * everyone's 1303 / 6 = 217.2, so j2, j4, j1 run before j3 blocks; the
     * instance that already saw them waiting keeps 1000 and 400: only j2. */
    void *st = make("qssf", NULL);
    decide_with(&f, "qssf", st, &p);
    ck_assert(runs(&p, j2) && p.n == 1);
    for (int i = 0; i < 3; i++)
        fx_finished(&f, 1, 1, 1);
    decide_with(&f, "qssf", st, &p);
    ck_assert(runs(&p, j2) && p.n == 1);
    policy_find("qssf")->destroy(st);
    decide(&f, "qssf", NULL, &p);
    ck_assert(runs(&p, j2) && runs(&p, j4) && runs(&p, j1) && !runs(&p, j3));
    f.v.n_finished = 3; /* back to the first history */
    /* 5 GPUs: j2 and j3; j4 (400, after j3) and j1 wait. */
    f.nodes[0].gpus = 5;
    f.types[0].total_gpus = f.types[0].free_gpus = f.v.n_gpus = 5;
    decide(&f, "qssf", NULL, &p);
    ck_assert(!runs(&p, j1) && runs(&p, j2) && runs(&p, j3) && !runs(&p, j4));
    /* The rolling window, on one GPU: user 1's last run was short. window=1
     * predicts 10 s for j1 (first); all of user 1's history averages 505 s, and
     * j2 (100) goes first. */
    f.nodes[0].gpus = 1;
    f.types[0].total_gpus = f.types[0].free_gpus = f.v.n_gpus = 1;
    fx_finished(&f, 1, 1, 10);
    static const char *const w1[] = {"window", "1", NULL};
    decide(&f, "qssf", w1, &p);
    ck_assert(runs(&p, j1) && p.n == 1);
    decide(&f, "qssf", NULL, &p);
    ck_assert(runs(&p, j2) && p.n == 1);
    /* Non-preemptive: a running job with a huge prediction keeps running. */
    static const int j1_ids[] = {0};
    fx_run_on(&f, j1, 0, j1_ids, 1);
    fx_finished(&f, 1, 1, 1e6);
    decide(&f, "qssf", NULL, &p);
    ck_assert(runs(&p, j1) && p.n == 1);
    plan_free(&p);
}
END_TEST

/* ---- parameters, idmap, trace columns -------------------------------------------- */

START_TEST(bad_params_rejected)
{
    static const char *const bad[][4] = {
        {"tiresias-las", "queues", "0"},
        {"tiresias-las", "queues", "5"}, /* 3 limits: at most 4 queues */
        {"tiresias-las", "limits", "500,100"},
        {"tiresias-las", "limits", "abc"},
        {"tiresias-las", "limits", "100;200"},
        {"tiresias-las", "promote_knob", "-1"},
        {"tiresias-las", "consolidate_loss", "1.5"},
        {"tiresias-las", "min_history", "3"},
        {"tiresias-gittins", "min_history", "-1"},
        {"tiresias-las", "service", "gpus"},
        {"tiresias-las", "within", "lifo"},
        {"tiresias-las", "place", "most-free"},
        {"tiresias-las", "samples", "x.csv"}, /* Gittins only */
        {"tiresias-gittins", "delta", "0"},
        {"tiresias-gittins", "samples", "/nonexistent/yarn.csv"},
        {"optimus", "prior_s", "0"},
        {"optimus-oracle", "prior_s", "60"},
        {"optimus", "batch", "global"},
        {"optimus-oracle", "place", "best_fit"},
        {"drf", "x", "1"},
        {"qssf", "window", "-1"},
        {"qssf", "prior_s", "-5"},
        {"qssf", "window", "ten"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        const char *k[] = {bad[i][1]}, *v[] = {bad[i][2]};
        policy_args_t args = {1, k, v, 0, NULL};
        void *st = NULL;
        char err[256] = "";
        const policy_ops_t *ops = policy_find(bad[i][0]);
        ck_assert_ptr_nonnull(ops);
        ck_assert_msg(ops->create(&st, &args, err, sizeof err) == -1, "%s %s=%s accepted",
                      bad[i][0], bad[i][1], bad[i][2]);
        ck_assert_msg(strstr(err, bad[i][1]) != NULL, "error '%s' does not name %s", err,
                      bad[i][1]);
        ops->destroy(st);
    }
    /* Good ones, with ':' separators too. */
    static const char *const good[] = {"queues", "4", "limits", "10:20:30", NULL};
    policy_find("tiresias-gittins")->destroy(make("tiresias-gittins", good));
    ck_assert(policy_find("optimus-oracle")->oracle && !policy_find("optimus")->oracle);
    ck_assert(!policy_find("qssf")->oracle && !policy_find("drf")->oracle);
}
END_TEST

START_TEST(idmap_dense_indices)
{
    idmap_t m;
    idmap_init(&m);
    ck_assert_int_eq(idmap_get(&m, 5), -1);
    for (int64_t k = 0; k < 1000; k++)
        ck_assert_int_eq(idmap_put(&m, k * 7919 - 500), (int)k);
    for (int64_t k = 0; k < 1000; k++)
        ck_assert_int_eq(idmap_get(&m, k * 7919 - 500), (int)k);
    ck_assert_int_eq(idmap_put(&m, -500), 0);
    ck_assert_int_eq(idmap_get(&m, 1), -1);
    ck_assert_int_eq(m.n, 1000);
    idmap_free(&m);
}
END_TEST

static void write_file(const char *path, const char *text)
{
    FILE *fp = fopen(path, "w");
    ck_assert_ptr_nonnull(fp);
    fputs(text, fp);
    fclose(fp);
}

START_TEST(trace_host_columns)
{
    char dir[] = "/tmp/test_tiresias_optimus_drf_XXXXXX", in[64], out[64];
    ck_assert_ptr_nonnull(mkdtemp(dir));
    snprintf(in, sizeof in, "%s/in.csv", dir);
    snprintf(out, sizeof out, "%s/out.csv", dir);
    write_file(in, "id,submit_time,workload,gpus,total_work,cpus,mem_gb\n"
                   "1,0,w,2,100,12,\n"
                   "2,5,w,1,100,,40.5\n");
    mls_trace_t t;
    mls_err_t err = {0};
    trace_init(&t);
    ck_assert_int_eq(trace_read_csv(&t, in, 0, &err), 0);
    ck_assert_double_eq(t.jobs[0].cpus, 12);
    ck_assert_double_eq(t.jobs[0].mem_gb, 0); /* empty: the cluster default */
    ck_assert_double_eq(t.jobs[1].cpus, 0);
    ck_assert_double_eq(t.jobs[1].mem_gb, 40.5);
    ck_assert_int_eq(trace_write_csv(&t, out, &err), 0);
    mls_trace_t back;
    trace_init(&back);
    ck_assert_int_eq(trace_read_csv(&back, out, 0, &err), 0);
    ck_assert_double_eq(back.jobs[0].cpus, 12);
    ck_assert_double_eq(back.jobs[1].mem_gb, 40.5);
    trace_free(&back);
    /* Without them the writer leaves the columns out. */
    t.jobs[0].cpus = 0;
    t.jobs[1].mem_gb = 0;
    ck_assert_int_eq(trace_write_csv(&t, out, &err), 0);
    char head[256] = "";
    FILE *fp = fopen(out, "r");
    ck_assert_ptr_nonnull(fgets(head, sizeof head, fp));
    fclose(fp);
    ck_assert_ptr_null(strstr(head, "cpus"));
    trace_free(&t);
    /* Bad values name the line and the field. */
    write_file(in, "id,submit_time,workload,gpus,total_work,cpus\n1,0,w,2,100,-3\n");
    trace_init(&t);
    ck_assert_int_eq(trace_read_csv(&t, in, 0, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, ":2: field 'cpus'"));
    trace_free(&t);
    write_file(in, "id,submit_time,workload,gpus,total_work,mem_gb\n1,0,w,2,100,lots\n");
    trace_init(&t);
    ck_assert_int_eq(trace_read_csv(&t, in, 0, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.msg, "field 'mem_gb'"));
    trace_free(&t);
    unlink(in);
    unlink(out);
    rmdir(dir);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("tiresias_optimus_drf");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, tiresias_demotes_at_the_limit);
    tcase_add_test(tc, tiresias_promotes_starved_jobs);
    tcase_add_test(tc, tiresias_fifo_by_queue_entry);
    tcase_add_test(tc, tiresias_gittins_orders_by_index);
    tcase_add_test(tc, tiresias_running_first_keeps_list_order);
    tcase_add_test(tc, tiresias_time_service);
    tcase_add_test(tc, tiresias_gittins_samples_file);
    tcase_add_test(tc, tiresias_consolidates_skewed_models);
    tcase_add_test(tc, tiresias_sensitive_job_waits_for_a_node);
    tcase_add_test(tc, tiresias_most_free_placement);
    tcase_add_test(tc, optimus_marginal_gain);
    tcase_add_test(tc, optimus_minimums_smallest_first);
    tcase_add_test(tc, optimus_keeps_total_batch);
    tcase_add_test(tc, optimus_total_batch_gains_in_steps);
    tcase_add_test(tc, optimus_places_most_free_first);
    tcase_add_test(tc, drf_dominant_shares);
    tcase_add_test(tc, qssf_orders_by_predicted_service);
    tcase_add_test(tc, bad_params_rejected);
    tcase_add_test(tc, idmap_dense_indices);
    tcase_add_test(tc, trace_host_columns);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(suite(), 0);
}
