/* test_themis_gandiva.c: unit tests of themis, gandiva-fair and gandiva.
 *
 * Each test builds a small view by hand: GPU types of two equal nodes, jobs
 * with a user and a workload, a perf table where a GPU of type t runs
 * workload w at rate[w][t] work units/s, and pairs that share at 0.6 of their
 * solo rates (workloads 0, 1: the pair gains), 0.4 (workload 2: it loses) or
 * not at all (workload 3). play() runs a policy instance over several rounds,
 * applying each plan to the view as the mechanism would (who holds which
 * type, attained time and service), and sums each user's GPU-seconds per type.
 * The expected numbers are worked out by hand in the comments. */
#include "policies/placement.h"
#include "policies/policy.h"
#include "tests/check_main.h"

#include <check.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MAXJ 8
#define MAXT 2
#define MAXW 4

typedef struct fx {
    view_gpu_type_t types[MAXT];
    view_node_t nodes[2 * MAXT];
    view_job_t jobs[MAXJ];
    int holder[32];
    double rate[MAXW][MAXT];
    double spread;    /* rate divisor when a job spans several nodes (1 = none) */
    int ids[MAXJ][8]; /* GPU ids each job holds */
    view_perf_t perf;
    const char *users[2];
    view_t v;
} fx_t;

static double fx_tput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch)
{
    (void)nodes;
    (void)batch;
    const fx_t *f = ctx;
    return f->rate[j->workload][type] * gpus / (nodes > 1 ? f->spread : 1.0);
}

static int fx_pair(void *ctx, const view_job_t *a, const view_job_t *b, int type, int gpus,
                   double out[2])
{
    if (a->workload == 3 || b->workload == 3)
        return -1;
    double k = a->workload == 2 || b->workload == 2 ? 0.4 : 0.6;
    out[0] = k * fx_tput(ctx, a, type, gpus, 1, 0);
    out[1] = k * fx_tput(ctx, b, type, gpus, 1, 0);
    return 0;
}

/* n_types types with the given GPU counts, each on two nodes; every workload
 * runs at 1 unit/s per GPU until set otherwise. Users "alice" and "bob". */
static void fx_init(fx_t *f, int n_types, const int *gpus)
{
    memset(f, 0, sizeof *f);
    int id = 0;
    static const char *const names[] = {"fast", "slow"};
    for (int t = 0; t < n_types; t++) {
        f->types[t] = (view_gpu_type_t){names[t], gpus[t], gpus[t], 16.0};
        for (int k = 0; k < 2; k++) {
            int g = gpus[t] / 2 + (k == 0 ? gpus[t] % 2 : 0);
            f->nodes[f->v.n_nodes++] = (view_node_t){.type = t, .gpus = g, .first_gpu = id, .rack = 0, .up = 1};
            id += g;
        }
        for (int w = 0; w < MAXW; w++)
            f->rate[w][t] = 1.0;
    }
    for (int i = 0; i < 32; i++)
        f->holder[i] = -1;
    f->perf = (view_perf_t){.ctx = f, .throughput = fx_tput, .pair_throughput = fx_pair};
    f->users[0] = "alice";
    f->users[1] = "bob";
    f->v.n_users = 2;
    f->v.users = f->users;
    f->v.n_types = n_types;
    f->v.types = f->types;
    f->v.nodes = f->nodes;
    f->v.n_gpus = id;
    f->v.gpu_holder = f->holder;
    f->v.jobs = f->jobs;
    f->v.perf = &f->perf;
    f->v.round_len = 120;
    f->v.seed = 1;
    f->spread = 1.0;
}

/* Adds a queued job (in (submit, id) order) with total = remaining = work. */
static int fx_job(fx_t *f, int64_t id, double submit, int user, int wl, int gpus, double work)
{
    int j = f->v.n_jobs++;
    view_job_t *jb = &f->jobs[j];
    *jb = (view_job_t){0};
    jb->id = id;
    jb->user = user;
    jb->workload = wl;
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

/* Node of GPU id g. */
static int node_of(const fx_t *f, int g)
{
    for (int k = 0; k < f->v.n_nodes; k++)
        if (g >= f->nodes[k].first_gpu && g < f->nodes[k].first_gpu + f->nodes[k].gpus)
            return k;
    return -1;
}

/* Job j holds GPU ids[0..n-1] (running since now). */
static void fx_hold(fx_t *f, int j, int type, const int *ids, int n)
{
    view_job_t *jb = &f->jobs[j];
    jb->state = VIEW_RUNNING;
    jb->cur_type = type;
    jb->cur_gpus = n;
    jb->last_start = f->v.now;
    int nodes = 0, seen[2 * MAXT] = {0};
    for (int i = 0; i < n; i++) {
        f->ids[j][i] = ids[i];
        f->holder[ids[i]] = j;
        int k = node_of(f, ids[i]);
        nodes += !seen[k];
        seen[k] = 1;
    }
    jb->cur_nodes = nodes;
    jb->cur_gpu_ids = f->ids[j];
}

/* Applies a plan to the view as the mechanism would (no restart costs);
 * explicit GPU ids become the jobs' holdings. */
static void apply(fx_t *f, const plan_t *p)
{
    for (int g = 0; g < 32; g++)
        f->holder[g] = -1;
    for (int j = 0; j < f->v.n_jobs; j++) {
        int k = plan_find(p, j);
        if (k >= 0 && p->allocs[k].has_ids) {
            fx_hold(f, j, p->allocs[k].type, &p->ids[p->allocs[k].ids_off], p->allocs[k].gpus);
            continue;
        }
        f->jobs[j].cur_gpu_ids = NULL;
    }
    for (int j = 0; j < f->v.n_jobs; j++) {
        view_job_t *jb = &f->jobs[j];
        int k = plan_find(p, j);
        if (k < 0) {
            jb->state = VIEW_QUEUED;
            jb->cur_type = -1;
            jb->cur_gpus = 0;
            continue;
        }
        if (p->allocs[k].has_ids)
            continue; /* done above */
        if (jb->state == VIEW_QUEUED || jb->cur_type != p->allocs[k].type)
            jb->last_start = f->v.now;
        jb->state = VIEW_RUNNING;
        jb->cur_type = p->allocs[k].type;
        jb->cur_gpus = p->allocs[k].gpus;
        jb->cur_nodes = 1;
    }
}

/* Capacity per type (a packed pair counted once), one allocation per job. */
static void check_plan(const fx_t *f, const plan_t *p)
{
    int used[MAXT] = {0};
    for (int k = 0; k < p->n; k++) {
        const plan_alloc_t *a = &p->allocs[k];
        ck_assert_int_eq(plan_find(p, a->job), k);
        ck_assert_int_eq(a->gpus, f->jobs[a->job].gpus_requested);
        if (a->pack_with >= 0) {
            int m = plan_find(p, a->pack_with);
            ck_assert_int_ge(m, 0);
            ck_assert_int_eq(p->allocs[m].pack_with, a->job);
            ck_assert_int_eq(p->allocs[m].type, a->type);
            if (m < k)
                continue;
        }
        used[a->type] += a->gpus;
    }
    for (int t = 0; t < f->v.n_types; t++)
        ck_assert_int_le(used[t], f->types[t].total_gpus);
}

/* A policy instance with the given "key=value" parameters (NULL-ended). */
static void *make(const char *name, const char *const *kv, int expect_ok)
{
    const char *keys[4], *vals[4];
    char buf[4][64];
    int n = 0;
    for (; kv && kv[n]; n++) {
        strncpy(buf[n], kv[n], sizeof buf[n] - 1);
        buf[n][sizeof buf[n] - 1] = '\0';
        char *eq = strchr(buf[n], '=');
        *eq = '\0';
        keys[n] = buf[n];
        vals[n] = eq + 1;
    }
    policy_args_t args = {n, keys, vals, 0, NULL};
    void *st = NULL;
    char err[256] = "";
    int rc = policy_find(name)->create(&st, &args, err, sizeof err);
    if (!expect_ok) {
        ck_assert_msg(rc == -1 && err[0], "%s accepted bad parameters", name);
        return NULL;
    }
    ck_assert_msg(rc == 0, "%s: %s", name, err);
    return st;
}

static void decide(fx_t *f, const char *name, void *st, plan_t *p)
{
    char err[256] = "";
    plan_clear(p);
    ck_assert_msg(policy_find(name)->schedule(st, &f->v, p, err, sizeof err) == 0, "%s", err);
    check_plan(f, p);
}

/* Runs `rounds` rounds from now; served[u][t] += GPU-seconds. */
static void play(fx_t *f, const char *name, void *st, int rounds, double served[2][MAXT])
{
    plan_t p;
    plan_init(&p);
    for (int r = 0; r < rounds; r++) {
        decide(f, name, st, &p);
        apply(f, &p);
        double dt = f->v.round_len;
        for (int j = 0; j < f->v.n_jobs; j++) {
            view_job_t *jb = &f->jobs[j];
            if (jb->state == VIEW_QUEUED)
                continue;
            jb->attained_time += dt;
            jb->attained_service += jb->cur_gpus * dt;
            served[jb->user][jb->cur_type] += jb->cur_gpus * dt;
        }
        f->v.now += dt;
        f->v.round++;
    }
    plan_free(&p);
}

static int on(const plan_t *p, int j)
{
    int k = plan_find(p, j);
    return k < 0 ? -1 : p->allocs[k].type;
}

static const int FOUR[] = {4};

/* Themis on 4 GPUs at 1 unit/s per GPU, now = 1000, N_avg = 3 for all:
 *   A: submit 0,   2 GPUs, 2000 units: T_id = 1000 x 1.5 = 1500, rho = 1.333
 *   B: submit 500, 2 GPUs, 4000 units: T_id = 2000 x 1.5 = 3000, rho = 0.833
 *   C: submit 900, 4 GPUs, 1200 units: T_id =  300 x 3   =  900, rho = 0.444
 * With lease 600 the values rho0/rho are A 1.30, B 1.24, C 2.50.
 * f=0.5 offers the 2 worst (A, B): both win. f=0 offers all three: the
 * product is maximised by C alone (2.50 > 1.30 x 1.24 = 1.612), and C's
 * hidden payment leaves it 1/1.612 = 0.620 of the lease: 372 s. */
static void themis_three(fx_t *f)
{
    fx_init(f, 1, FOUR);
    fx_job(f, 1, 0, 0, 0, 2, 2000);
    fx_job(f, 2, 500, 0, 0, 2, 4000);
    fx_job(f, 3, 900, 1, 0, 4, 1200);
    f->v.now = 1000;
}

START_TEST(themis_offers_worst_rho)
{
    fx_t f;
    plan_t p;
    plan_init(&p);
    themis_three(&f);
    const char *const half[] = {"f=0.5", NULL};
    void *st = make("themis-oracle", half, 1);
    decide(&f, "themis-oracle", st, &p);
    ck_assert_int_eq(p.n, 2);
    ck_assert_int_eq(on(&p, 0), 0);
    ck_assert_int_eq(on(&p, 1), 0);
    ck_assert_int_eq(on(&p, 2), -1);
    policy_find("themis-oracle")->destroy(st);
    plan_free(&p);
}
END_TEST

START_TEST(themis_auction_and_lease)
{
    fx_t f;
    plan_t p;
    plan_init(&p);
    themis_three(&f);
    const char *const all[] = {"f=0", NULL};
    void *st = make("themis-oracle", all, 1);
    decide(&f, "themis-oracle", st, &p);
    ck_assert_int_eq(p.n, 1);
    ck_assert_int_eq(on(&p, 2), 0);
    apply(&f, &p);

    /* C now looks long (v = 1.17): a fresh auction would pick A and B, but C
     * holds its lease until 1000 + 372 s */
    f.jobs[2].total_work = f.jobs[2].remaining_work = 12000;
    f.v.now = 1360;
    void *fresh = make("themis-oracle", all, 1);
    decide(&f, "themis-oracle", fresh, &p);
    ck_assert_int_eq(on(&p, 0), 0);
    ck_assert_int_eq(on(&p, 1), 0);
    ck_assert_int_eq(on(&p, 2), -1);
    policy_find("themis-oracle")->destroy(fresh);
    decide(&f, "themis-oracle", st, &p);
    ck_assert_int_eq(p.n, 1);
    ck_assert_int_eq(on(&p, 2), 0);

    f.v.now = 1380; /* the shortened lease is over */
    decide(&f, "themis-oracle", st, &p);
    ck_assert_int_eq(on(&p, 0), 0);
    ck_assert_int_eq(on(&p, 1), 0);
    ck_assert_int_eq(on(&p, 2), -1);
    policy_find("themis-oracle")->destroy(st);
    plan_free(&p);
}
END_TEST

/* Non-oracle Themis sees no remaining work, and still fills the cluster. */
START_TEST(themis_estimates_without_oracle)
{
    fx_t f;
    plan_t p;
    plan_init(&p);
    themis_three(&f);
    for (int j = 0; j < 3; j++)
        f.jobs[j].total_work = f.jobs[j].remaining_work = NAN;
    f.jobs[0].duration_estimate = 1000;
    void *st = make("themis", NULL, 1);
    decide(&f, "themis", st, &p);
    ck_assert_int_eq(on(&p, 0), 0); /* A, worst rho, bids and wins */
    ck_assert_int_eq(on(&p, 1), 0); /* leftover GPUs go to B */
    ck_assert_int_eq(on(&p, 2), -1);
    policy_find("themis")->destroy(st);
    plan_free(&p);
}
END_TEST

/* Stride on 2 GPUs, tickets 2:1, three 1-GPU jobs each: E = 4/3 and 2/3
 * GPUs. Round 1: one each (passes 90, 180); round 2: alice both (ties go to
 * the lower user); round 3: one each; then it repeats: 4 : 2 per 3 rounds. */
START_TEST(gandiva_fair_tickets_2_to_1)
{
    static const int two[] = {2};
    fx_t f;
    fx_init(&f, 1, two);
    for (int k = 0; k < 6; k++)
        fx_job(&f, k, 0, k % 2, 0, 1, 1e9);
    const char *const tk[] = {"tickets=alice:2,bob:1", NULL};
    void *st = make("gandiva-fair", tk, 1);
    double served[2][MAXT] = {{0}};
    play(&f, "gandiva-fair", st, 1, served);
    ck_assert(fabs(served[0][0] - 120) < 1e-9 && fabs(served[1][0] - 120) < 1e-9);
    play(&f, "gandiva-fair", st, 1, served);
    ck_assert(fabs(served[0][0] - 360) < 1e-9 && fabs(served[1][0] - 120) < 1e-9);
    play(&f, "gandiva-fair", st, 10, served);
    ck_assert_msg(fabs(served[0][0] / served[1][0] - 2.0) < 0.05, "alice/bob = %g",
                  served[0][0] / served[1][0]);
    policy_find("gandiva-fair")->destroy(st);

    /* equal tickets: equal time */
    memset(served, 0, sizeof served);
    st = make("gandiva-fair", NULL, 1);
    play(&f, "gandiva-fair", st, 12, served);
    ck_assert(fabs(served[0][0] / served[1][0] - 1.0) < 0.05);
    policy_find("gandiva-fair")->destroy(st);
}
END_TEST

/* Trading on 2 fast + 2 slow GPUs: alice (2 jobs) runs 4x faster on fast
 * GPUs, bob (4 jobs) 1.5x. Equal tickets: 2 GPUs each, 1 fast + 1 slow.
 * Price (4 + 1.5) / 2 = 2.75 slow per fast: alice pays her whole slow GPU
 * for 1/2.75 = 0.364 fast GPUs, so she is entitled to 1.364 of the 2 fast
 * GPUs (68 %) and runs nothing on slow ones. Without trading: 50 %. */
START_TEST(gandiva_fair_trades_fast_for_slow)
{
    static const int two_two[] = {2, 2};
    fx_t f;
    fx_init(&f, 2, two_two);
    f.rate[0][0] = 4.0; /* alice's workload */
    f.rate[1][0] = 1.5; /* bob's */
    fx_job(&f, 1, 0, 0, 0, 1, 1e9);
    fx_job(&f, 2, 0, 0, 0, 1, 1e9);
    for (int k = 3; k < 7; k++)
        fx_job(&f, k, 0, 1, 1, 1, 1e9);
    double served[2][MAXT] = {{0}};
    void *st = make("gandiva-fair", NULL, 1);
    play(&f, "gandiva-fair", st, 44, served);
    double fast = served[0][0] / (served[0][0] + served[1][0]);
    ck_assert_msg(fabs(fast - (1 + 1 / 2.75) / 2) < 0.03, "alice's fast share %g", fast);
    ck_assert(served[0][1] == 0);
    policy_find("gandiva-fair")->destroy(st);

    fx_t g;
    fx_init(&g, 2, two_two);
    memcpy(g.rate, f.rate, sizeof g.rate);
    g.v.n_jobs = 0;
    fx_job(&g, 1, 0, 0, 0, 1, 1e9);
    fx_job(&g, 2, 0, 0, 0, 1, 1e9);
    for (int k = 3; k < 7; k++)
        fx_job(&g, k, 0, 1, 1, 1, 1e9);
    memset(served, 0, sizeof served);
    const char *const off[] = {"trade=0", NULL};
    st = make("gandiva-fair", off, 1);
    play(&g, "gandiva-fair", st, 44, served);
    fast = served[0][0] / (served[0][0] + served[1][0]);
    ck_assert_msg(fabs(fast - 0.5) < 0.03, "alice's fast share without trading %g", fast);
    ck_assert(served[0][1] > 0);
    policy_find("gandiva-fair")->destroy(st);
}
END_TEST

/* Fairness units: alice has one 1-GPU job, bob three, on 2 GPUs. By user
 * (the paper), alice's job holds a GPU all the time (half the GPU time); by
 * job (Shockwave's baseline), every job gets a quarter. */
START_TEST(gandiva_fair_per_job)
{
    static const int two[] = {2};
    fx_t f;
    fx_init(&f, 1, two);
    fx_job(&f, 1, 0, 0, 0, 1, 1e9);
    for (int k = 2; k < 5; k++)
        fx_job(&f, k, 0, 1, 0, 1, 1e9);
    double served[2][MAXT] = {{0}};
    void *st = make("gandiva-fair", NULL, 1);
    play(&f, "gandiva-fair", st, 12, served);
    ck_assert(fabs(served[0][0] / (served[0][0] + served[1][0]) - 0.5) < 0.02);
    policy_find("gandiva-fair")->destroy(st);

    for (int k = 0; k < 4; k++)
        f.jobs[k].attained_service = f.jobs[k].attained_time = 0;
    memset(served, 0, sizeof served);
    const char *const per_job[] = {"per=job", NULL};
    st = make("gandiva-fair", per_job, 1);
    play(&f, "gandiva-fair", st, 12, served);
    ck_assert_msg(fabs(served[0][0] / (served[0][0] + served[1][0]) - 0.25) < 0.02,
                  "alice's share by job %g", served[0][0] / (served[0][0] + served[1][0]));
    policy_find("gandiva-fair")->destroy(st);
}
END_TEST

/* Four 1-GPU jobs on 2 GPUs whose pairs gain (0.6 + 0.6 = 1.2): all four
 * run, as two packed pairs. When they fit, nothing is packed. */
START_TEST(gandiva_packs_gaining_pairs)
{
    static const int two[] = {2};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, two);
    for (int k = 0; k < 4; k++)
        fx_job(&f, k, k, 0, k % 2, 1, 1e6);
    void *st = make("gandiva", NULL, 1);
    decide(&f, "gandiva", st, &p);
    ck_assert_int_eq(p.n, 4);
    for (int k = 0; k < 4; k++)
        ck_assert_int_ge(p.allocs[k].pack_with, 0);
    policy_find("gandiva")->destroy(st);

    f.v.n_jobs = 2;
    st = make("gandiva", NULL, 1);
    decide(&f, "gandiva", st, &p);
    ck_assert_int_eq(p.n, 2);
    ck_assert_int_eq(p.allocs[0].pack_with, -1);
    ck_assert_int_eq(p.allocs[1].pack_with, -1);
    policy_find("gandiva")->destroy(st);
    plan_free(&p);
}
END_TEST

/* Two 1-GPU jobs on 1 GPU whose pair loses (0.4 + 0.4 = 0.8): the random
 * draw packs them once, introspection splits them at the next decision and
 * they then take turns alone; a pair the perf model refuses is never formed. */
START_TEST(gandiva_unpacks_losing_pair)
{
    static const int one[] = {1};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, one);
    f.nodes[1].gpus = 0;
    fx_job(&f, 1, 0, 0, 2, 1, 1e6);
    fx_job(&f, 2, 1, 1, 2, 1, 1e6);
    void *st = make("gandiva", NULL, 1);
    decide(&f, "gandiva", st, &p);
    ck_assert_int_eq(p.n, 2);
    ck_assert_int_eq(p.allocs[0].pack_with, p.allocs[1].job);
    apply(&f, &p);
    f.v.now = 120;
    for (int r = 0; r < 3; r++) {
        decide(&f, "gandiva", st, &p);
        ck_assert_int_eq(p.n, 1);
        ck_assert_int_eq(p.allocs[0].pack_with, -1);
        f.jobs[p.allocs[0].job].attained_time += 120;
        f.v.now += 120;
    }
    policy_find("gandiva")->destroy(st);

    f.jobs[0].workload = f.jobs[1].workload = 3; /* cannot share */
    st = make("gandiva", NULL, 1);
    decide(&f, "gandiva", st, &p);
    ck_assert_int_eq(p.n, 1);
    ck_assert_int_eq(p.allocs[0].pack_with, -1);
    policy_find("gandiva")->destroy(st);
    plan_free(&p);
}
END_TEST

/* Placement on a type of two 4-GPU nodes (ids 0-3, 4-7). */
START_TEST(placement_consolidates)
{
    static const int eight[] = {8};
    fx_t f;
    plan_t p;
    plan_init(&p);
    fx_init(&f, 1, eight);
    int a = fx_job(&f, 1, 0, 0, 0, 2, 100);
    int b = fx_job(&f, 2, 0, 0, 0, 2, 100);
    int w = fx_job(&f, 3, 0, 1, 0, 4, 100);
    pl_map_t m;
    pl_init(&m, &f.v, NULL);
    ck_assert(m.on);
    /* best fit: both 2-GPU jobs on node 0, the 4-GPU job alone on node 1 */
    ck_assert_int_eq(pl_run(&f.v, &m, &p, a, 0, 0), 1);
    ck_assert_int_eq(pl_run(&f.v, &m, &p, b, 0, 0), 1);
    ck_assert_int_eq(pl_run(&f.v, &m, &p, w, 0, 1), 1);
    for (int i = 0; i < 2; i++) {
        ck_assert_int_eq(node_of(&f, p.ids[p.allocs[0].ids_off + i]), 0);
        ck_assert_int_eq(node_of(&f, p.ids[p.allocs[1].ids_off + i]), 0);
    }
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(p.ids[p.allocs[2].ids_off + i], 4 + i);
    pl_free(&m);

    /* a and b hold 0-1 and 4-5 and stay: 4 GPUs are free, but over two
     * nodes, so a one-node placement of w is refused */
    static const int ida[] = {0, 1}, idb[] = {4, 5};
    fx_hold(&f, a, 0, ida, 2);
    fx_hold(&f, b, 0, idb, 2);
    char keep[MAXJ] = {1, 1, 0};
    plan_clear(&p);
    pl_init(&m, &f.v, keep);
    ck_assert_int_eq(pl_fit(&f.v, &m, 0, 4, NULL), 2);
    ck_assert_int_eq(pl_run(&f.v, &m, &p, w, 0, 1), 0);
    ck_assert_int_eq(p.n, 0);
    pl_free(&m);

    /* nothing reserved: a keeps its own GPUs, and a new 2-GPU job avoids
     * b's GPUs (4-5) for the free ones next to a (2-3) */
    int c = fx_job(&f, 4, 0, 1, 0, 2, 100);
    pl_init(&m, &f.v, NULL);
    ck_assert_int_eq(pl_run(&f.v, &m, &p, a, 0, 0), 1);
    ck_assert_int_eq(p.ids[p.allocs[0].ids_off], 0);
    ck_assert_int_eq(p.ids[p.allocs[0].ids_off + 1], 1);
    ck_assert_int_eq(pl_run(&f.v, &m, &p, c, 0, 0), 1);
    ck_assert_int_eq(p.ids[p.allocs[1].ids_off], 2);
    ck_assert_int_eq(p.ids[p.allocs[1].ids_off + 1], 3);
    pl_free(&m);
    plan_free(&p);
}
END_TEST

/* The placement index answers as the scan of every node did: a random
 * cluster (two types, nodes of 1 to 8 GPUs, some down, some GPUs held by
 * queued jobs) and 3,000 random steps, each taking or freeing a GPU in
 * both maps or asking both for a placement (GPU count and ids compared).
 * The scan's map is a copy without index, as a caller's scratch copy. */
START_TEST(placement_index_matches_scan)
{
    enum { NODES = 40, JOBS = 4 };
    static const int sizes[] = {1, 2, 4, 8, 8};
    view_node_t nodes[NODES];
    view_job_t jobs[JOBS];
    view_gpu_type_t types[2] = {{0}};
    int holder[NODES * 8], n = 0;
    unsigned seed = 12345;
#define RND(k) ((int)((seed = seed * 1103515245u + 12345u) >> 16) % (k))
    for (int k = 0; k < NODES; k++) {
        nodes[k] = (view_node_t){.type = RND(2), .gpus = sizes[RND(5)], .first_gpu = n, .up = 1};
        nodes[k].up = RND(10) != 0;
        n += nodes[k].gpus;
    }
    for (int g = 0; g < n; g++)
        holder[g] = RND(3) == 0 ? RND(JOBS) : -1;
    memset(jobs, 0, sizeof jobs);
    for (int j = 0; j < JOBS; j++)
        jobs[j].state = VIEW_QUEUED;
    view_t v = {0};
    v.nodes = nodes;
    v.n_nodes = NODES;
    v.types = types;
    v.n_types = 2;
    v.jobs = jobs;
    v.n_jobs = JOBS;
    v.gpu_holder = holder;
    v.n_gpus = n;
    pl_map_t m, scan;
    pl_init(&m, &v, NULL);
    ck_assert(m.on && m.ix);
    scan = m;
    scan.ix = NULL;
    scan.free = malloc((size_t)n);
    memcpy(scan.free, m.free, (size_t)n);
    int a[40], b[40], fits = 0;
    for (int step = 0; step < 3000; step++) {
        if (RND(3) == 0) {
            int g = RND(n), f = RND(2);
            pl_set(&m, g, f);
            pl_set(&scan, g, f);
            continue;
        }
        int t = RND(2), gpus = 1 + RND(20);
        int na = pl_fit(&v, &m, t, gpus, a), nb = pl_fit(&v, &scan, t, gpus, b);
        ck_assert_int_eq(na, nb);
        for (int i = 0; na > 0 && i < gpus; i++)
            ck_assert_int_eq(a[i], b[i]);
        fits += na > 0;
    }
#undef RND
    ck_assert_int_gt(fits, 100); /* the queries did place */
    free(scan.free);
    pl_free(&m);
}
END_TEST

/* Themis bids at the placement it would get: two 3-GPU leases leave one
 * free GPU on each node; a 2-GPU job spread over both runs 4x slower. With
 * 2000 units (1000 s alone) waiting a lease is better (value
 * (600 + 1000) / 4000 < 1): it stays queued. With 100 units (50 s) the
 * spread placement pays (value (600 + 50) / 200 > 1) and it runs there. */
START_TEST(themis_bids_at_placement)
{
    static const int eight[] = {8};
    for (int small = 0; small < 2; small++) {
        fx_t f;
        plan_t p;
        plan_init(&p);
        fx_init(&f, 1, eight);
        f.spread = 4.0;
        fx_job(&f, 1, 0, 0, 0, 3, 1e6);
        fx_job(&f, 2, 0, 0, 0, 3, 1e6);
        void *st = make("themis-oracle", NULL, 1);
        decide(&f, "themis-oracle", st, &p);
        ck_assert_int_eq(p.n, 2);
        ck_assert(p.allocs[0].has_ids && p.allocs[1].has_ids);
        apply(&f, &p);
        ck_assert_int_eq(f.jobs[0].cur_nodes, 1);
        ck_assert_int_eq(f.jobs[1].cur_nodes, 1);
        f.v.now = 60;
        int w = fx_job(&f, 3, 60, 1, 0, 2, small ? 100 : 2000);
        decide(&f, "themis-oracle", st, &p);
        ck_assert_int_eq(on(&p, 0), 0); /* leases kept */
        ck_assert_int_eq(on(&p, 1), 0);
        ck_assert_int_eq(on(&p, w), small ? 0 : -1);
        policy_find("themis-oracle")->destroy(st);
        plan_free(&p);
    }
}
END_TEST

START_TEST(bad_params_rejected)
{
    const char *const bad_f[] = {"f=1", NULL};
    const char *const neg_f[] = {"f=-0.1", NULL};
    const char *const zero_lease[] = {"lease=0", NULL};
    const char *const word_lease[] = {"lease=long", NULL};
    const char *const unknown[] = {"knob=1", NULL};
    make("themis", bad_f, 0);
    make("themis-oracle", neg_f, 0);
    make("themis", zero_lease, 0);
    make("themis", word_lease, 0);
    make("themis", unknown, 0);
    const char *const no_weight[] = {"tickets=alice", NULL};
    const char *const zero_weight[] = {"tickets=alice:0", NULL};
    const char *const word_weight[] = {"tickets=alice:2,bob:x", NULL};
    const char *const trade2[] = {"trade=2", NULL};
    make("gandiva-fair", no_weight, 0);
    make("gandiva-fair", zero_weight, 0);
    make("gandiva-fair", word_weight, 0);
    make("gandiva-fair", trade2, 0);
    const char *const per_rack[] = {"per=rack", NULL};
    make("gandiva-fair", per_rack, 0);
    make("gandiva-fair", unknown, 0);
    make("gandiva", unknown, 0);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {
        themis_offers_worst_rho,
        themis_auction_and_lease,
        themis_estimates_without_oracle,
        gandiva_fair_tickets_2_to_1,
        gandiva_fair_trades_fast_for_slow,
        gandiva_fair_per_job,
        gandiva_packs_gaining_pairs,
        gandiva_unpacks_losing_pair,
        placement_consolidates,
        placement_index_matches_scan,
        themis_bids_at_placement,
        bad_params_rejected,
    };
    return check_main("themis_gandiva", tests, sizeof tests / sizeof tests[0]);
}
