/* test_policies.c: unit tests of the policy registry and the first policies.
 *
 * Each test builds a small view by hand (1-3 GPU types, 3-6 jobs, a perf table
 * where a GPU of type t does rate[t] work units/s) and asserts exactly which
 * jobs run on which type. Every plan is also checked against the rules the
 * mechanism enforces (capacity per type, a job at most once, rigid counts,
 * explicit GPU ids on up nodes of the right type, each given once). */
#include "policies/lsap.h"
#include "policies/policy.h"
#include "tests/check_main.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXJ 8
#define MAXT 3

typedef struct fx {
    view_gpu_type_t types[MAXT];
    view_node_t nodes[2 * MAXT];
    view_job_t jobs[MAXJ];
    int holder[64];
    double rate[MAXT]; /* work units/s per GPU of each type; 0 = cannot run */
    view_perf_t perf;
    view_t v;
} fx_t;

static double fx_tput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch)
{
    (void)nodes;
    (void)batch;
    const fx_t *f = ctx;
    if (j->workload == 7 && type == 0)
        return 0.0; /* workload 7 cannot run on type 0 */
    return f->rate[type] * gpus;
}

/* Types with the given GPU counts and per-GPU rates, each type on two equal
 * nodes; names t0, t1, t2. */
static void fx_init(fx_t *f, int n_types, const int *gpus, const double *rate)
{
    static const char *const names[] = {"t0", "t1", "t2"};
    memset(f, 0, sizeof *f);
    int id = 0;
    for (int t = 0; t < n_types; t++) {
        f->types[t] = (view_gpu_type_t){names[t], gpus[t], gpus[t], 16.0};
        f->rate[t] = rate[t];
        for (int k = 0; k < 2; k++) {
            int g = gpus[t] / 2 + (k == 0 ? gpus[t] % 2 : 0);
            f->nodes[f->v.n_nodes++] = (view_node_t){t, g, id, 0, 1, 8 * g, 64.0 * g};
            id += g;
        }
    }
    for (int i = 0; i < 64; i++)
        f->holder[i] = -1;
    f->perf = (view_perf_t){.ctx = f, .throughput = fx_tput};
    f->v.n_types = n_types;
    f->v.types = f->types;
    f->v.nodes = f->nodes;
    f->v.n_gpus = id;
    f->v.gpu_holder = f->holder;
    f->v.jobs = f->jobs;
    f->v.perf = &f->perf;
    f->v.round_len = 360;
}

/* Adds a queued job (jobs must be added in (submit, id) order). */
static int fx_job(fx_t *f, int64_t id, double submit, int gpus, double work)
{
    int j = f->v.n_jobs++;
    f->jobs[j] = (view_job_t){0};
    view_job_t *jb = &f->jobs[j];
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

static void fx_running(fx_t *f, int j, int type, double since)
{
    view_job_t *jb = &f->jobs[j];
    jb->state = VIEW_RUNNING;
    jb->cur_type = type;
    jb->cur_gpus = jb->gpus_requested;
    jb->cur_nodes = 1;
    jb->first_start = jb->last_start = since;
    f->types[type].free_gpus -= jb->cur_gpus;
}

static void fx_queued(fx_t *f, int j)
{
    view_job_t *jb = &f->jobs[j];
    if (jb->cur_type >= 0)
        f->types[jb->cur_type].free_gpus += jb->cur_gpus;
    jb->state = VIEW_QUEUED;
    jb->cur_type = -1;
    jb->cur_gpus = 0;
}

/* Explicit GPU ids: distinct, on up nodes of the allocation's type. */
static void check_ids(const fx_t *f, const plan_t *p, const plan_alloc_t *a, char *seen)
{
    for (int i = 0; i < a->gpus; i++) {
        int id = p->ids[a->ids_off + i], node = -1;
        ck_assert_int_ge(id, 0);
        ck_assert_int_lt(id, f->v.n_gpus);
        ck_assert(!seen[id]);
        seen[id] = 1;
        for (int k = 0; k < f->v.n_nodes; k++)
            if (id >= f->nodes[k].first_gpu && id < f->nodes[k].first_gpu + f->nodes[k].gpus)
                node = k;
        ck_assert_int_ge(node, 0);
        ck_assert_int_eq(f->nodes[node].type, a->type);
        ck_assert(f->nodes[node].up);
    }
}

/* The rules the mechanism checks (rigid jobs: exactly their request). */
static void check_plan(const fx_t *f, const plan_t *p)
{
    int used[MAXT] = {0};
    char seen[64] = {0};
    for (int k = 0; k < p->n; k++) {
        const plan_alloc_t *a = &p->allocs[k];
        ck_assert_int_ge(a->job, 0);
        ck_assert_int_lt(a->job, f->v.n_jobs);
        ck_assert_int_eq(plan_find(p, a->job), k);
        ck_assert_int_ge(a->type, 0);
        ck_assert_int_lt(a->type, f->v.n_types);
        ck_assert_int_ge(a->gpus, f->jobs[a->job].min_gpus);
        ck_assert_int_le(a->gpus, f->jobs[a->job].max_gpus);
        if (a->has_ids)
            check_ids(f, p, a, seen);
        used[a->type] += a->gpus;
    }
    for (int t = 0; t < f->v.n_types; t++)
        ck_assert_int_le(used[t], f->types[t].total_gpus);
}

/* Runs one decision of policy `name` with a fresh instance. */
static void decide(fx_t *f, const char *name, plan_t *p)
{
    const policy_ops_t *ops = policy_find(name);
    ck_assert_ptr_nonnull(ops);
    void *st = NULL;
    char err[256] = "";
    ck_assert_int_eq(ops->create(&st, NULL, err, sizeof err), 0);
    plan_clear(p);
    ck_assert_int_eq(ops->schedule(st, &f->v, p, err, sizeof err), 0);
    ops->destroy(st);
    check_plan(f, p);
}

/* Type job j runs on in p, -1 when left out. */
static int on(const plan_t *p, int j)
{
    int k = plan_find(p, j);
    return k < 0 ? -1 : p->allocs[k].type;
}

static const int ONE4[] = {4};
static const double RATE1[] = {1.0};

START_TEST(fifo_head_of_line_blocks)
{
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, ONE4, RATE1);
    int a = fx_job(&f, 1, 0, 2, 100);
    int b = fx_job(&f, 2, 1, 4, 100);
    int c = fx_job(&f, 3, 2, 1, 100);
    fx_running(&f, a, 0, 0);
    decide(&f, "fifo", &p);
    ck_assert_int_eq(p.n, 1);
    ck_assert_int_eq(on(&p, a), 0);
    ck_assert_int_eq(on(&p, b), -1);
    ck_assert_int_eq(on(&p, c), -1);

    /* Greedy backfill (no estimates): the small job behind the head starts. */
    decide(&f, "fifo-backfill", &p);
    ck_assert_int_eq(p.n, 2);
    ck_assert_int_eq(on(&p, a), 0);
    ck_assert_int_eq(on(&p, b), -1);
    ck_assert_int_eq(on(&p, c), 0);
    plan_free(&p);
}
END_TEST

START_TEST(fifo_starts_in_order_on_fastest_type)
{
    static const int gpus[] = {4, 4, 2};
    static const double rate[] = {1.0, 4.0, 2.0};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 3, gpus, rate);
    int a = fx_job(&f, 10, 0, 2, 100);
    int b = fx_job(&f, 11, 0, 2, 100);
    int c = fx_job(&f, 12, 1, 2, 100);
    int d = fx_job(&f, 13, 2, 2, 100);
    int e = fx_job(&f, 14, 3, 4, 100);
    int g = fx_job(&f, 15, 4, 1, 100);
    decide(&f, "fifo", &p);
    ck_assert_int_eq(on(&p, a), 1); /* fastest */
    ck_assert_int_eq(on(&p, b), 1);
    ck_assert_int_eq(on(&p, c), 2); /* next fastest with room */
    ck_assert_int_eq(on(&p, d), 0);
    ck_assert_int_eq(on(&p, e), -1); /* 4 GPUs: no type has room */
    ck_assert_int_eq(on(&p, g), -1); /* blocked behind e */
    decide(&f, "fifo-backfill", &p);
    ck_assert_int_eq(on(&p, e), -1);
    ck_assert_int_eq(on(&p, g), 0); /* backfills the last t0 GPUs */
    plan_free(&p);
}
END_TEST

START_TEST(fifo_backfill_easy_reservation)
{
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, ONE4, RATE1);
    f.v.now = 1000;
    int a = fx_job(&f, 1, 0, 2, 100);
    int b = fx_job(&f, 2, 1, 4, 100);
    int c = fx_job(&f, 3, 2, 1, 100);
    int d = fx_job(&f, 4, 3, 1, 100);
    fx_running(&f, a, 0, 900);
    f.jobs[a].attained_time = 100;
    f.jobs[a].duration_estimate = 200; /* ends at 1100: the head's shadow time */
    f.jobs[c].duration_estimate = 500; /* would end at 1500: delays the head */
    f.jobs[d].duration_estimate = 50;  /* ends at 1050: harmless */
    decide(&f, "fifo-backfill", &p);
    ck_assert_int_eq(on(&p, a), 0);
    ck_assert_int_eq(on(&p, b), -1);
    ck_assert_int_eq(on(&p, c), -1);
    ck_assert_int_eq(on(&p, d), 0);

    /* easy=0: greedy, both start. */
    const policy_ops_t *ops = policy_find("fifo-backfill");
    const char *k[] = {"easy"}, *val[] = {"0"};
    policy_args_t args = {1, k, val, 0, NULL};
    void *st = NULL;
    char err[256];
    ck_assert_int_eq(ops->create(&st, &args, err, sizeof err), 0);
    plan_clear(&p);
    ck_assert_int_eq(ops->schedule(st, &f.v, &p, err, sizeof err), 0);
    ops->destroy(st);
    check_plan(&f, &p);
    ck_assert_int_eq(on(&p, c), 0);
    ck_assert_int_eq(on(&p, d), 0);

    /* A running job without an estimate: no reservation, greedy. */
    f.jobs[a].duration_estimate = NAN;
    decide(&f, "fifo-backfill", &p);
    ck_assert_int_eq(on(&p, c), 0);
    ck_assert_int_eq(on(&p, d), 0);
    plan_free(&p);
}
END_TEST

START_TEST(sjf_shortest_first_non_preemptive)
{
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, ONE4, RATE1);
    int a = fx_job(&f, 1, 0, 2, 1e6); /* long, running */
    int b = fx_job(&f, 2, 1, 1, 300);
    int c = fx_job(&f, 3, 2, 1, 10);
    int d = fx_job(&f, 4, 3, 1, 50);
    fx_running(&f, a, 0, 0);
    decide(&f, "sjf", &p);
    ck_assert_int_eq(p.n, 3);
    ck_assert_int_eq(on(&p, a), 0); /* not preempted by shorter jobs */
    ck_assert_int_eq(on(&p, b), -1);
    ck_assert_int_eq(on(&p, c), 0);
    ck_assert_int_eq(on(&p, d), 0);
    ck_assert(policy_find("sjf")->oracle);

    /* Length is work / throughput: on 2 GPUs 100 units take 50 s < 60 s. */
    fx_queued(&f, a);
    f.jobs[a].total_work = 100;
    f.jobs[a].gpus_requested = f.jobs[a].min_gpus = f.jobs[a].max_gpus = 2;
    f.jobs[c].total_work = 60;
    f.jobs[d].total_work = 70;
    decide(&f, "sjf", &p);
    ck_assert_int_eq(on(&p, a), 0);
    ck_assert_int_eq(on(&p, c), 0);
    ck_assert_int_eq(on(&p, d), 0);
    ck_assert_int_eq(on(&p, b), -1);
    plan_free(&p);
}
END_TEST

START_TEST(srtf_preempts_long_job)
{
    static const int gpus[] = {2};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, gpus, RATE1);
    int a = fx_job(&f, 1, 0, 2, 1e5);
    int b = fx_job(&f, 2, 5, 2, 10);
    fx_running(&f, a, 0, 0);
    f.jobs[a].remaining_work = 5e4;
    decide(&f, "srtf", &p);
    ck_assert_int_eq(p.n, 1);
    ck_assert_int_eq(on(&p, a), -1); /* preempted */
    ck_assert_int_eq(on(&p, b), 0);

    /* A longer newcomer does not preempt. */
    f.jobs[b].remaining_work = 1e6;
    decide(&f, "srtf", &p);
    ck_assert_int_eq(on(&p, a), 0);
    ck_assert_int_eq(on(&p, b), -1);
    plan_free(&p);
}
END_TEST

START_TEST(srtf_running_job_keeps_its_type)
{
    static const int gpus[] = {2, 2};
    static const double rate[] = {1.0, 3.0};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 2, gpus, rate);
    int a = fx_job(&f, 1, 0, 2, 100);
    int b = fx_job(&f, 2, 1, 2, 1000);
    fx_running(&f, a, 0, 0); /* on the slow type, the fast one is free */
    decide(&f, "srtf", &p);
    ck_assert_int_eq(on(&p, a), 0); /* kept: no restart */
    ck_assert_int_eq(on(&p, b), 1);
    ck_assert_int_eq(p.allocs[plan_find(&p, a)].gpus, 2);
    plan_free(&p);
}
END_TEST

START_TEST(las_orders_by_attained_service)
{
    static const int gpus[] = {2};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, gpus, RATE1);
    int a = fx_job(&f, 1, 0, 1, 100);
    int b = fx_job(&f, 2, 1, 1, 100);
    int c = fx_job(&f, 3, 2, 1, 100);
    int d = fx_job(&f, 4, 3, 1, 100);
    fx_running(&f, a, 0, 0);
    fx_running(&f, b, 0, 1);
    f.jobs[a].attained_service = 100;
    f.jobs[b].attained_service = 30;
    f.jobs[c].attained_service = 50;
    f.jobs[d].attained_service = 50;
    decide(&f, "las", &p);
    ck_assert_int_eq(p.n, 2);
    ck_assert_int_eq(on(&p, a), -1); /* most service: preempted */
    ck_assert_int_eq(on(&p, b), 0);
    ck_assert_int_eq(on(&p, c), 0); /* tie with d, earlier submit */
    ck_assert_int_eq(on(&p, d), -1);
    ck_assert(!policy_find("las")->oracle);
    ck_assert(policy_find("las")->cadence & MLS_CADENCE_ROUNDS);
    plan_free(&p);
}
END_TEST

START_TEST(las_reads_no_oracle_fields)
{
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, ONE4, RATE1);
    int a = fx_job(&f, 1, 0, 2, NAN);
    int b = fx_job(&f, 2, 0, 2, NAN);
    decide(&f, "las", &p);
    ck_assert_int_eq(on(&p, a), 0);
    ck_assert_int_eq(on(&p, b), 0);
    decide(&f, "fifo", &p);
    ck_assert_int_eq(p.n, 2);
    decide(&f, "isolated", &p);
    ck_assert_int_eq(p.n, 2);
    plan_free(&p);
}
END_TEST

START_TEST(isolated_everyone_runs_when_room)
{
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, ONE4, RATE1);
    int a = fx_job(&f, 1, 0, 1, 100);
    for (int j = 0; j < 3; j++)
        fx_job(&f, 2 + j, 1, 1, 100);
    fx_running(&f, a, 0, 0);
    f.v.now = 1e4;
    f.jobs[a].attained_time = 1e4; /* far ahead of its share, yet N x 1 <= 4 */
    decide(&f, "isolated", &p);
    ck_assert_int_eq(p.n, 4);
    for (int j = 0; j < 4; j++)
        ck_assert_int_eq(on(&p, j), 0);
    /* A fifth job: 5 x 1 > 4, the job furthest ahead waits. */
    fx_job(&f, 9, 2, 1, 100);
    decide(&f, "isolated", &p);
    ck_assert_int_eq(p.n, 4);
    ck_assert_int_eq(on(&p, a), -1);
    plan_free(&p);
}
END_TEST

/* One decision of a long-lived isolated instance at time `now`. */
static void iso_round(fx_t *f, const policy_ops_t *ops, void *st, double now, plan_t *p)
{
    char err[256];
    f->v.now = now;
    plan_clear(p);
    ck_assert_int_eq(ops->schedule(st, &f->v, p, err, sizeof err), 0);
    check_plan(f, p);
}

/* Advances the view by dt under plan p: planned jobs run, others queue. */
static void iso_advance(fx_t *f, const plan_t *p, double dt)
{
    for (int j = 0; j < f->v.n_jobs; j++) {
        int k = plan_find(p, j);
        fx_queued(f, j);
        if (k >= 0) {
            fx_running(f, j, p->allocs[k].type, f->v.now);
            f->jobs[j].attained_time += dt;
            f->jobs[j].attained_service += dt * p->allocs[k].gpus;
        }
    }
}

START_TEST(isolated_rotates_when_oversubscribed)
{
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, ONE4, RATE1);
    int a = fx_job(&f, 1, 0, 2, 1e6);
    int b = fx_job(&f, 2, 0, 2, 1e6);
    int c = fx_job(&f, 3, 0, 2, 1e6);
    const policy_ops_t *ops = policy_find("isolated");
    void *st = NULL;
    char err[256];
    ck_assert_int_eq(ops->create(&st, NULL, err, sizeof err), 0);
    iso_round(&f, ops, st, 0, &p); /* all unserved: (submit, id) */
    ck_assert(on(&p, a) == 0 && on(&p, b) == 0 && on(&p, c) == -1);
    iso_advance(&f, &p, 360);
    iso_round(&f, ops, st, 360, &p); /* c has the deficit; a before b */
    ck_assert(on(&p, a) == 0 && on(&p, b) == -1 && on(&p, c) == 0);
    iso_advance(&f, &p, 360);
    iso_round(&f, ops, st, 720, &p); /* entitled 480 each: a 720, b 360, c 360 */
    ck_assert(on(&p, a) == -1 && on(&p, b) == 0 && on(&p, c) == 0);
    /* Over many rounds each job gets about 2/3 of the time. */
    for (int r = 3; r < 30; r++) {
        iso_advance(&f, &p, 360);
        iso_round(&f, ops, st, 360.0 * r, &p);
    }
    iso_advance(&f, &p, 360);
    for (int j = 0; j < 3; j++)
        ck_assert_double_eq_tol(f.jobs[j].attained_time / (30 * 360.0), 2.0 / 3.0, 0.05);

    /* When N x gpus <= GPUs, everyone runs. */
    f.v.n_jobs = 2;
    iso_round(&f, ops, st, 30 * 360.0, &p);
    ck_assert(on(&p, a) == 0 && on(&p, b) == 0);
    ops->destroy(st);
    plan_free(&p);
}
END_TEST

START_TEST(oversized_job_never_crashes)
{
    static const int gpus[] = {4, 2};
    static const double rate[] = {1.0, 2.0};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 2, gpus, rate);
    int big = fx_job(&f, 1, 0, 8, 100);    /* larger than every type */
    int t0only = fx_job(&f, 2, 0, 4, 100); /* needs t0's 4 GPUs */
    int onlyt1 = fx_job(&f, 3, 1, 4, 100); /* workload 7: t0 cannot, t1 too small */
    int small = fx_job(&f, 4, 2, 1, 100);
    f.jobs[onlyt1].workload = 7;
    f.jobs[onlyt1].duration_estimate = 10;
    for (size_t i = 0; i < policy_count(); i++) {
        decide(&f, policy_at(i)->name, &p);
        ck_assert_int_eq(on(&p, big), -1);
        ck_assert_int_eq(on(&p, onlyt1), -1);
        ck_assert_int_eq(on(&p, t0only), 0);
        ck_assert_int_eq(on(&p, small), 1);
    }
    /* No cluster at all. */
    f.v.n_types = 0;
    f.v.n_nodes = 0;
    for (size_t i = 0; i < policy_count(); i++) {
        decide(&f, policy_at(i)->name, &p);
        ck_assert_int_eq(p.n, 0);
    }
    plan_free(&p);
}
END_TEST

START_TEST(failed_node_shrinks_room)
{
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, ONE4, RATE1);
    int a = fx_job(&f, 1, 0, 2, 100);
    int b = fx_job(&f, 2, 1, 2, 100);
    f.nodes[1].up = 0; /* half the GPUs */
    for (size_t i = 0; i < policy_count(); i++) {
        decide(&f, policy_at(i)->name, &p);
        /* one of the two fits the room left; pollux may pick either (equal
         * goodput, no arrival order), the others the first */
        if (strcmp(policy_at(i)->name, "pollux")) {
            ck_assert_int_eq(on(&p, a), 0);
            ck_assert_int_eq(on(&p, b), -1);
        } else
            ck_assert_int_eq((on(&p, a) == 0) + (on(&p, b) == 0), 1);
    }
    plan_free(&p);
}
END_TEST

START_TEST(deterministic)
{
    static const int gpus[] = {3, 5};
    static const double rate[] = {1.0, 1.0};
    fx_t f;
    plan_t p, q;
    plan_init(&p);
    plan_init(&q);
    fx_init(&f, 2, gpus, rate);
    for (int j = 0; j < 6; j++)
        fx_job(&f, 100 - j, 0, 1 + j % 3, 100); /* same submit: ties by id */
    for (size_t i = 0; i < policy_count(); i++) {
        decide(&f, policy_at(i)->name, &p);
        decide(&f, policy_at(i)->name, &q);
        ck_assert_int_eq(p.n, q.n);
        for (int k = 0; k < p.n; k++) {
            ck_assert_int_eq(p.allocs[k].job, q.allocs[k].job);
            ck_assert_int_eq(p.allocs[k].type, q.allocs[k].type);
        }
    }
    /* Equal submit: the lowest id (job index 5, id 95) goes first under fifo. */
    decide(&f, "fifo", &p);
    ck_assert_int_eq(p.allocs[0].job, 5);
    plan_free(&p);
    plan_free(&q);
}
END_TEST

START_TEST(registry_lookups)
{
    ck_assert_ptr_null(policy_find("no-such-policy"));
    ck_assert_ptr_null(policy_find(NULL));
    ck_assert_ptr_null(policy_at(policy_count()));
    ck_assert_uint_ge(policy_count(), 6);
    static const char *const mine[] = {"fifo", "fifo-backfill", "sjf", "srtf", "las", "isolated"};
    for (size_t i = 0; i < sizeof mine / sizeof mine[0]; i++)
        ck_assert_ptr_nonnull(policy_find(mine[i]));
    ck_assert(policy_find("srtf")->oracle && !policy_find("fifo")->oracle);
    ck_assert(!policy_find("isolated")->oracle && !policy_find("fifo-backfill")->oracle);
    for (size_t i = 0; i < policy_count(); i++) {
        const policy_ops_t *p = policy_at(i);
        ck_assert(p->name && *p->name && p->paper && *p->paper);
        ck_assert(p->summary && *p->summary && p->params);
        ck_assert(p->cadence != 0 && p->create && p->schedule && p->destroy);
        ck_assert_ptr_eq(policy_find(p->name), p);
    }
}
END_TEST

START_TEST(bad_params_rejected)
{
    const char *k[] = {"bogus"}, *val[] = {"1"};
    policy_args_t args = {1, k, val, 0, NULL};
    char err[256] = "";
    for (size_t i = 0; i < policy_count(); i++) {
        const policy_ops_t *ops = policy_at(i);
        void *st = NULL;
        ck_assert_int_eq(ops->create(&st, &args, err, sizeof err), -1);
        ck_assert_ptr_nonnull(strstr(err, "bogus"));
        ops->destroy(st);
    }
    const char *k2[] = {"easy"}, *v2[] = {"yes"};
    policy_args_t a2 = {1, k2, v2, 0, NULL};
    void *st = NULL;
    ck_assert_int_eq(policy_find("fifo-backfill")->create(&st, &a2, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "easy"));
    policy_find("fifo-backfill")->destroy(st);
}
END_TEST

/* lsap_solve picks, among equal-cost optima, the one scipy 1.10's
 * linear_sum_assignment returns (each expected answer is scipy's on the same
 * matrix): a constant matrix, a 0/1/2 matrix with many optima, and AlloX's
 * matrix as Gavel builds it (workers k80, p100, p100; positions 1..3). */
typedef struct dense {
    int nc;
    const double *c;
} dense_t;

static void dense_row(const void *ctx, int i, double *out)
{
    const dense_t *d = ctx;
    memcpy(out, d->c + (size_t)i * d->nc, (size_t)d->nc * sizeof *out);
}

START_TEST(lsap_breaks_ties_as_scipy)
{
    static const double flat[3 * 5] = {2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
    static const double small[4 * 6] = {1, 0, 1, 0, 2, 1, 0, 1, 0, 1, 1, 0,
                                        1, 1, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1};
    static const double allox[3 * 9] = {8720, 4720, 4720, 16720, 8720, 8720, 24720, 12720, 12720,
                                        2360, 1360, 1360, 4360,  2360, 2360, 6360,  3360,  3360,
                                        4000, 2000, 2000, 8000,  4000, 4000, 12000, 6000,  6000};
    const struct {
        int nr, nc;
        const double *c;
        int want[4];
    } cases[] = {{3, 5, flat, {0, 1, 2}}, {4, 6, small, {3, 0, 2, 1}}, {3, 9, allox, {1, 0, 2}}};
    char err[128];
    for (size_t k = 0; k < sizeof cases / sizeof *cases; k++) {
        dense_t d = {cases[k].nc, cases[k].c};
        int col[4] = {-1, -1, -1, -1};
        ck_assert_int_eq(lsap_solve(cases[k].nr, cases[k].nc, dense_row, &d, col, err, sizeof err),
                         0);
        for (int i = 0; i < cases[k].nr; i++)
            ck_assert_msg(col[i] == cases[k].want[i], "case %zu row %d: column %d, scipy %d", k, i,
                          col[i], cases[k].want[i]);
    }
    static const double forbidden[2 * 2] = {INFINITY, 1, INFINITY, 2};
    dense_t d = {2, forbidden};
    int col[2];
    ck_assert_int_eq(lsap_solve(2, 2, dense_row, &d, col, err, sizeof err), -1);
    ck_assert_ptr_nonnull(strstr(err, "no assignment"));
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("policies");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, fifo_head_of_line_blocks);
    tcase_add_test(tc, fifo_starts_in_order_on_fastest_type);
    tcase_add_test(tc, fifo_backfill_easy_reservation);
    tcase_add_test(tc, sjf_shortest_first_non_preemptive);
    tcase_add_test(tc, srtf_preempts_long_job);
    tcase_add_test(tc, srtf_running_job_keeps_its_type);
    tcase_add_test(tc, las_orders_by_attained_service);
    tcase_add_test(tc, las_reads_no_oracle_fields);
    tcase_add_test(tc, isolated_everyone_runs_when_room);
    tcase_add_test(tc, isolated_rotates_when_oversubscribed);
    tcase_add_test(tc, oversized_job_never_crashes);
    tcase_add_test(tc, failed_node_shrinks_room);
    tcase_add_test(tc, deterministic);
    tcase_add_test(tc, registry_lookups);
    tcase_add_test(tc, bad_params_rejected);
    tcase_add_test(tc, lsap_breaks_ties_as_scipy);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    return check_run_suite(suite(), 0);
}
