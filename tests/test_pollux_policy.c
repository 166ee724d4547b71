/* test_pollux_policy.c: unit tests of the pollux policy (policies/pollux.c).
 *
 * Each test builds a small view by hand: one GPU type on nodes of a few GPUs,
 * jobs with an elastic range, and a fake perf model whose goodput is a known
 * function of the GPU count (and, for the batch test, of the total batch).
 * The expected allocations and batches are worked out in the comments. */
#include "policies/policies.h"
#include "policies/pollux.h"

#include "tests/check_main.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#define MAXJ 8
#define MAXN 24
#define MAXG 128

typedef struct fx {
    view_gpu_type_t type;
    view_node_t nodes[MAXN];
    view_job_t jobs[MAXJ];
    int holder[MAXG];
    int ids[MAXJ][MAXG];
    double curve[MAXJ][MAXG + 1]; /* goodput of job j on k GPUs (k <= MAXG) */
    int batch_curve;              /* 1: goodput M / (1 + (M/256)^2) instead */
    view_batch_limits_t limits;
    view_perf_t perf;
    view_t v;
} fx_t;

static int job_of(const fx_t *f, const view_job_t *j)
{
    return (int)(j - f->jobs);
}

static double fx_goodput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch,
                         int accum)
{
    (void)type;
    (void)nodes;
    const fx_t *f = ctx;
    if (gpus < 1 || gpus > MAXG)
        return 0;
    if (f->batch_curve) {
        double m = (double)gpus * batch * (accum + 1);
        return m / (1 + (m / 256) * (m / 256));
    }
    return f->curve[job_of(f, j)][gpus];
}

static double fx_tput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch)
{
    return fx_goodput(ctx, j, type, gpus, nodes, batch > 0 ? batch : 16, 0);
}

static double fx_samples(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch,
                         int accum)
{
    return fx_goodput(ctx, j, type, gpus, nodes, batch, accum);
}

static int fx_limits(void *ctx, const view_job_t *j, int type, view_batch_limits_t *out)
{
    (void)j;
    (void)type;
    *out = ((const fx_t *)ctx)->limits;
    return 0;
}

/* n_nodes nodes of per_node GPUs, all up; M0 32, batches up to 1024, 16..64
 * per GPU. */
static void fx_init(fx_t *f, int n_nodes, int per_node)
{
    memset(f, 0, sizeof *f);
    f->type = (view_gpu_type_t){"t4", n_nodes * per_node, n_nodes * per_node, 16};
    for (int k = 0; k < n_nodes; k++)
        f->nodes[k] = (view_node_t){0, per_node, k * per_node, 0, 1, 8, 64};
    for (int g = 0; g < MAXG; g++)
        f->holder[g] = -1;
    f->limits = (view_batch_limits_t){32, 1024, 16, 64, 1000};
    f->perf = (view_perf_t){.ctx = f,
                            .throughput = fx_tput,
                            .samples_throughput = fx_samples,
                            .goodput = fx_goodput,
                            .batch_limits = fx_limits};
    f->v.n_types = 1;
    f->v.types = &f->type;
    f->v.n_nodes = n_nodes;
    f->v.nodes = f->nodes;
    f->v.n_gpus = n_nodes * per_node;
    f->v.gpu_holder = f->holder;
    f->v.jobs = f->jobs;
    f->v.perf = &f->perf;
    f->v.round_len = 60;
    f->v.now = 1e6;
    f->v.seed = 7;
}

/* A queued job with an elastic range and a reported noise scale, old enough
 * that the re-allocation penalty is ~1; goodput linear in GPUs until set. */
static int fx_job(fx_t *f, int min, int max)
{
    int j = f->v.n_jobs++;
    view_job_t *jb = &f->jobs[j];
    *jb = (view_job_t){0};
    jb->id = 100 + j;
    jb->submit = j;
    jb->priority = 1;
    jb->gpus_requested = min;
    jb->min_gpus = min;
    jb->max_gpus = max;
    jb->cur_type = -1;
    jb->first_start = jb->last_start = jb->throughput = NAN;
    jb->total_work = jb->remaining_work = NAN;
    jb->grad_noise_scale = 100;
    jb->accum_steps = -1;
    for (int k = 0; k <= MAXG; k++)
        f->curve[j][k] = k;
    return j;
}

/* Job j holds ids[0..n-1]. */
static void fx_hold(fx_t *f, int j, const int *ids, int n)
{
    view_job_t *jb = &f->jobs[j];
    jb->state = VIEW_RUNNING;
    jb->cur_type = 0;
    jb->cur_gpus = n;
    for (int i = 0; i < n; i++) {
        f->ids[j][i] = ids[i];
        f->holder[ids[i]] = j;
    }
    jb->cur_gpu_ids = f->ids[j];
}

/* Applies a plan to the view as the mechanism would (GPUs only). */
static void fx_apply(fx_t *f, const plan_t *p)
{
    for (int g = 0; g < MAXG; g++)
        f->holder[g] = -1;
    for (int j = 0; j < f->v.n_jobs; j++) {
        f->jobs[j].state = VIEW_QUEUED;
        f->jobs[j].cur_gpus = 0;
        f->jobs[j].cur_gpu_ids = NULL;
    }
    for (int i = 0; i < p->n; i++)
        fx_hold(f, p->allocs[i].job, &p->ids[p->allocs[i].ids_off], p->allocs[i].gpus);
}

static void *make(const char *const *kv, int n)
{
    const char *keys[8], *vals[8];
    char buf[8][32];
    for (int i = 0; i < n; i++) {
        snprintf(buf[i], sizeof buf[i], "%s", kv[i]);
        char *eq = strchr(buf[i], '=');
        *eq = 0;
        keys[i] = buf[i];
        vals[i] = eq + 1;
    }
    policy_args_t a = {n, keys, vals, 0, NULL};
    void *s = NULL;
    char err[256] = "";
    ck_assert_msg(pollux_create(&s, &a, err, sizeof err) == 0, "%s", err);
    return s;
}

static void decide(void *s, const fx_t *f, plan_t *p)
{
    char err[256] = "";
    plan_clear(p);
    ck_assert_msg(pollux_schedule(s, &f->v, p, err, sizeof err) == 0, "%s", err);
}

static int gpus_of(const plan_t *p, int job)
{
    int k = plan_find(p, job);
    return k < 0 ? 0 : p->allocs[k].gpus;
}

/* The plan's constraints: capacity (each GPU once, on an up node), at most
 * one distributed job per node, every allocation within min..max. */
static void check_plan(const fx_t *f, const plan_t *p)
{
    int used[MAXG] = {0}, distributed_on[MAXN] = {0};
    for (int i = 0; i < p->n; i++) {
        const plan_alloc_t *a = &p->allocs[i];
        const view_job_t *jb = &f->jobs[a->job];
        ck_assert(a->has_ids);
        ck_assert_int_ge(a->gpus, jb->min_gpus);
        ck_assert_int_le(a->gpus, jb->max_gpus);
        int on[MAXN] = {0}, nodes = 0;
        for (int k = 0; k < a->gpus; k++) {
            int g = p->ids[a->ids_off + k];
            ck_assert(g >= 0 && g < f->v.n_gpus);
            ck_assert_int_eq(used[g]++, 0);
            int node = g / f->nodes[0].gpus;
            ck_assert(f->nodes[node].up);
            nodes += !on[node];
            on[node] = 1;
        }
        for (int n = 0; nodes > 1 && n < f->v.n_nodes; n++)
            if (on[n])
                ck_assert_int_eq(distributed_on[n]++, 0);
    }
}

START_TEST(fitness_and_penalty)
{
    /* p = -1: harmonic mean of s + 1e-3: 2 / (1/1.001 + 1/0.501) */
    double s[3] = {1.0, 0.5, 0.0};
    ck_assert(fabs(pollux_fitness(s, 2, -1) - 2 / (1 / 1.001 + 1 / 0.501)) < 1e-12);
    /* a job with nothing weighs 1/0.001 = 1000 */
    ck_assert(fabs(pollux_fitness(s, 3, -1) - 3 / (1 / 1.001 + 1 / 0.501 + 1000)) < 1e-12);
    /* p = 1: arithmetic mean (+eps); p = 0: geometric mean of max(s, eps) */
    ck_assert(fabs(pollux_fitness(s, 2, 1) - 0.751) < 1e-12);
    ck_assert(fabs(pollux_fitness(s, 2, 0) - sqrt(0.5)) < 1e-12);
    /* penalty: (age - R d) / (age + d) */
    ck_assert(fabs(pollux_restart_factor(90, 1, 30) - 0.5) < 1e-12);
    ck_assert(pollux_restart_factor(10, 1, 30) == 0);
    ck_assert(pollux_restart_factor(0, 0, 30) == 0);
    ck_assert(fabs(pollux_restart_factor(30, 0, 30) - 0.5) < 1e-12);
}
END_TEST

START_TEST(agent_batch)
{
    /* goodput M / (1 + (M/256)^2) peaks at M = 256. On 2 GPUs the candidates
     * are M = 32 x 32^(i/49): i = 29 gives 248.8 -> 124.4 per GPU -> 1
     * accumulation step of 63 (M = 252, goodput 128.0); i = 30 gives 267.1 ->
     * 2 steps of 45 (M = 270, 127.8); i = 28: 1 step of 58 (M = 232, 127.4). */
    static fx_t f;
    fx_init(&f, 1, 2);
    f.batch_curve = 1;
    int j = fx_job(&f, 2, 2);
    int m, s;
    double g = pollux_agent_batch(&f.v, &f.jobs[j], 0, 2, 1, &m, &s);
    ck_assert_int_eq(m, 63);
    ck_assert_int_eq(s, 1);
    ck_assert(fabs(g - 252 / (1 + (252.0 / 256) * (252.0 / 256))) < 1e-9);
    /* one GPU: the same candidates; i = 29: M 248.8 -> ceil(248.8 / 64) = 4 micro-batches
     * (3 accumulation steps) of 63, M = 252 again */
    g = pollux_agent_batch(&f.v, &f.jobs[j], 0, 1, 1, &m, &s);
    ck_assert_int_eq(m * (s + 1), 252);
    ck_assert_int_le(m, 64);
    /* the plan carries the agent's choice */
    void *st = make(NULL, 0);
    plan_t p;
    plan_init(&p);
    decide(st, &f, &p);
    ck_assert_int_eq(p.n, 1);
    ck_assert_int_eq(p.allocs[0].batch_size, 63);
    ck_assert_int_eq(p.allocs[0].accum_steps, 1);
    pollux_destroy(st);
    /* no noise scale reported yet (never ran): Pollux's default batch, total
     * max(M0, min_local x K) = max(32, 16 x 2) = 32, i.e. 16 per GPU, no
     * accumulation */
    f.jobs[j].grad_noise_scale = NAN;
    st = make(NULL, 0);
    decide(st, &f, &p);
    ck_assert_int_eq(p.n, 1);
    ck_assert_int_eq(p.allocs[0].batch_size, 16);
    ck_assert_int_eq(p.allocs[0].accum_steps, 0);
    pollux_destroy(st);
    /* no batch limits (a table backend): no batch chosen, the job still runs
     * at its own batch (plan batch_size 0) */
    f.perf.batch_limits = NULL;
    ck_assert(pollux_agent_batch(&f.v, &f.jobs[j], 0, 2, 1, &m, &s) == 0);
    st = make(NULL, 0);
    decide(st, &f, &p);
    ck_assert_int_eq(p.n, 1);
    ck_assert_int_eq(p.allocs[0].gpus, 2);
    ck_assert_int_eq(p.allocs[0].batch_size, 0);
    plan_free(&p);
    pollux_destroy(st);
}
END_TEST

/* rigid_batch=1 (--like pollux): a job of one GPU count runs at its trace's
 * total batch, split as Pollux splits a target batch (the artifact's ncf at
 * 32,768); an elastic job, and every job without the parameter, at the
 * agent's. */
START_TEST(rigid_batch)
{
    static fx_t f;
    fx_init(&f, 1, 2);
    f.batch_curve = 1;
    int r = fx_job(&f, 1, 1), el = fx_job(&f, 1, 1);
    f.jobs[r].total_batch = f.jobs[el].total_batch = 512;
    void *st = make((const char *const[]){"rigid_batch=1"}, 1);
    plan_t p;
    plan_init(&p);
    decide(st, &f, &p);
    /* 512 on 1 GPU above M0 32: ceil(512 / 64) = 8 micro-batches of 64 */
    int k = plan_find(&p, r);
    ck_assert_int_ge(k, 0);
    ck_assert_int_eq(p.allocs[k].batch_size, 64);
    ck_assert_int_eq(p.allocs[k].accum_steps, 7);
    pollux_destroy(st);
    /* never ran (no noise scale): the pin too, not Pollux's default batch */
    f.jobs[r].grad_noise_scale = NAN;
    st = make((const char *const[]){"rigid_batch=1"}, 1);
    decide(st, &f, &p);
    k = plan_find(&p, r);
    ck_assert_int_ge(k, 0);
    ck_assert_int_eq(p.allocs[k].batch_size * (p.allocs[k].accum_steps + 1), 512);
    pollux_destroy(st);
    /* without the parameter: the agent's batch (M = 252 on one GPU, as in
     * agent_batch) */
    f.jobs[r].grad_noise_scale = 100;
    st = make(NULL, 0);
    decide(st, &f, &p);
    k = plan_find(&p, r);
    ck_assert_int_ge(k, 0);
    ck_assert_int_eq(p.allocs[k].batch_size * (p.allocs[k].accum_steps + 1), 252);
    pollux_destroy(st);
    /* an elastic job (1..2 GPUs) keeps the agent's batch under rigid_batch=1 */
    f.jobs[el].max_gpus = 2;
    st = make((const char *const[]){"rigid_batch=1"}, 1);
    decide(st, &f, &p);
    k = plan_find(&p, el);
    ck_assert_int_ge(k, 0);
    ck_assert_int_ne(p.allocs[k].batch_size * (p.allocs[k].accum_steps + 1) * p.allocs[k].gpus,
                     512);
    plan_free(&p);
    pollux_destroy(st);
    const char *keys[] = {"rigid_batch"}, *vals[] = {"2"};
    policy_args_t a = {1, keys, vals, 0, NULL};
    char err[256] = "";
    ck_assert_int_eq(pollux_create(&st, &a, err, sizeof err), -1);
    ck_assert(strstr(err, "rigid_batch=2") != NULL);
}
END_TEST

START_TEST(speedup_and_penalty_choose)
{
    /* One node of 4 GPUs, two jobs; fair share ceil(4/2) = 2 GPUs.
     * A: goodput = K, speedup K/2. B: 1, 1.2, 1.2, 1.2: speedup g/1.2.
     * (3,1): 1.5 and 0.833 -> harmonic ~1.072; (2,2): 1 and 1 -> ~1.0;
     * (1,3): 0.5, 1 -> 0.667; (4,0) ~0.002. Pollux picks (3,1). */
    static fx_t f;
    fx_init(&f, 1, 4);
    int a = fx_job(&f, 1, 4), b = fx_job(&f, 1, 4);
    f.curve[b][1] = 1;
    f.curve[b][2] = f.curve[b][3] = f.curve[b][4] = 1.2;
    void *st = make((const char *const[]){"explore=0"}, 1);
    plan_t p;
    plan_init(&p);
    decide(st, &f, &p);
    check_plan(&f, &p);
    ck_assert_int_eq(gpus_of(&p, a), 3);
    ck_assert_int_eq(gpus_of(&p, b), 1);
    pollux_destroy(st);

    /* B holds GPUs 2,3, restarted once, 30 s old: changing it costs all its
     * speedup ((30 - 30) / 60 = 0), so it keeps exactly its GPUs and A gets
     * the other two: (2,2). */
    fx_hold(&f, b, (const int[]){2, 3}, 2);
    f.jobs[b].restarts = 1;
    f.jobs[b].submit = f.v.now - 30;
    st = make((const char *const[]){"explore=0"}, 1);
    decide(st, &f, &p);
    check_plan(&f, &p);
    ck_assert_int_eq(gpus_of(&p, a), 2);
    int kb = plan_find(&p, b);
    ck_assert_int_ge(kb, 0);
    ck_assert_int_eq(p.allocs[kb].gpus, 2);
    int i0 = p.ids[p.allocs[kb].ids_off], i1 = p.ids[p.allocs[kb].ids_off + 1];
    ck_assert((i0 == 2 && i1 == 3) || (i0 == 3 && i1 == 2));
    pollux_destroy(st);

    /* p = 1 (arithmetic mean): (3,1) gives 1.17, (4,0) 1.0: still (3,1);
     * with B flat at 1 everywhere, (4,0) gives (2 + 0)/2 = 1 and (3,1)
     * gives (1.5 + 1)/2 = 1.25: (3,1) again; make A superlinear instead:
     * A 1, 2, 3, 8: (4,0) = (4 + 0)/2 = 2 beats (3,1) = (1.5 + 1)/2. */
    static fx_t g;
    fx_init(&g, 1, 4);
    a = fx_job(&g, 1, 4);
    b = fx_job(&g, 1, 4);
    g.curve[a][4] = 8;
    for (int k = 1; k <= 4; k++)
        g.curve[b][k] = 1;
    st = make((const char *const[]){"explore=0", "p=1"}, 2);
    decide(st, &g, &p);
    ck_assert_int_eq(gpus_of(&p, a), 4);
    ck_assert_int_eq(gpus_of(&p, b), 0);
    pollux_destroy(st);
    /* the same with p = -1: leaving B out costs 1000 in the mean; (3,1) */
    st = make((const char *const[]){"explore=0"}, 1);
    decide(st, &g, &p);
    ck_assert_int_eq(gpus_of(&p, a), 3);
    ck_assert_int_eq(gpus_of(&p, b), 1);
    pollux_destroy(st);
    plan_free(&p);
}
END_TEST

START_TEST(interference_capacity_minmax)
{
    /* 3 nodes x 2 GPUs. A and B need exactly 3 GPUs (two nodes each): with
     * at most one distributed job per node only one of them can run; C (1
     * GPU) runs beside it on the node it shares. */
    static fx_t f;
    fx_init(&f, 3, 2);
    int a = fx_job(&f, 3, 3), b = fx_job(&f, 3, 3), c = fx_job(&f, 1, 1);
    void *st = make(NULL, 0);
    plan_t p;
    plan_init(&p);
    for (int round = 0; round < 3; round++) {
        decide(st, &f, &p);
        check_plan(&f, &p);
        ck_assert_int_eq((gpus_of(&p, a) == 3) + (gpus_of(&p, b) == 3), 1);
        ck_assert_int_eq(gpus_of(&p, c), 1);
        fx_apply(&f, &p);
        f.v.now += 60;
    }
    pollux_destroy(st);

    /* node 1 fails: nothing is placed there; 4 GPUs left on 2 nodes; a
     * 3-GPU job and the 1-GPU job still fit (3 + 1 = 4). */
    f.nodes[1].up = 0;
    st = make(NULL, 0);
    decide(st, &f, &p);
    check_plan(&f, &p);
    ck_assert_int_eq(gpus_of(&p, c), 1);
    pollux_destroy(st);

    /* min..max: alone on 8 GPUs, a 2..3 job with linear goodput gets 3;
     * with the exploration bound and never seen running, its min (2); once
     * seen on 2, up to 4, so 3 again. */
    static fx_t g;
    fx_init(&g, 2, 4);
    int e = fx_job(&g, 2, 3);
    st = make((const char *const[]){"explore=0"}, 1);
    decide(st, &g, &p);
    ck_assert_int_eq(gpus_of(&p, e), 3);
    pollux_destroy(st);
    st = make(NULL, 0);
    decide(st, &g, &p);
    ck_assert_int_eq(gpus_of(&p, e), 2);
    fx_apply(&g, &p);
    g.v.now += 60;
    decide(st, &g, &p);
    ck_assert_int_eq(gpus_of(&p, e), 3);
    pollux_destroy(st);
    plan_free(&p);
}
END_TEST

/* A busier view: 4 nodes x 4 GPUs, 8 elastic jobs with different curves. */
static void busy(fx_t *f)
{
    fx_init(f, 4, 4);
    for (int j = 0; j < MAXJ; j++) {
        fx_job(f, 1 + j % 3, 4 + j);
        for (int k = 1; k <= MAXG; k++)
            f->curve[j][k] = pow(k, 0.5 + 0.05 * j);
    }
}

/* Two policies decide on two copies of the busy view, each plan applied to
 * its copy, four rounds: the same plans (jobs, GPUs, GPU ids, batches). */
static void same_plans(void *s1, void *s2)
{
    static fx_t f1, f2;
    busy(&f1);
    busy(&f2);
    f2.perf.concurrent = 1; /* s2 may make its first entries on threads */
    plan_t p1, p2;
    plan_init(&p1);
    plan_init(&p2);
    for (int round = 0; round < 4; round++) {
        decide(s1, &f1, &p1);
        decide(s2, &f2, &p2);
        check_plan(&f1, &p1);
        ck_assert_int_eq(p1.n, p2.n);
        ck_assert_int_eq((int)p1.n_ids, (int)p2.n_ids);
        for (int i = 0; i < p1.n; i++) {
            ck_assert_int_eq(p1.allocs[i].job, p2.allocs[i].job);
            ck_assert_int_eq(p1.allocs[i].gpus, p2.allocs[i].gpus);
            ck_assert_int_eq(p1.allocs[i].batch_size, p2.allocs[i].batch_size);
        }
        ck_assert(memcmp(p1.ids, p2.ids, p1.n_ids * sizeof *p1.ids) == 0);
        fx_apply(&f1, &p1);
        fx_apply(&f2, &p2);
        f1.v.now += 60;
        f2.v.now += 60;
    }
    plan_free(&p1);
    plan_free(&p2);
}

START_TEST(deterministic)
{
    void *s1 = make(NULL, 0), *s2 = make(NULL, 0);
    same_plans(s1, s2);
    pollux_destroy(s1);
    pollux_destroy(s2);
}
END_TEST

/* The GA's children made on 4 threads from the first generation give the
 * plans of one thread (each pair of children draws from a seed of its own,
 * and they join the population in order), as do the warm start's entries
 * made on threads (warm_entries: each as lookup would make it). */
START_TEST(threads_same_plans)
{
    const char *one[] = {"threads=1"}, *four[] = {"threads=4"};
    void *s1 = make(one, 1), *s4 = make(four, 1);
    pollux_lanes_from(s4, 0);
    pollux_warm_from(s4, 1);
    same_plans(s1, s4);
    ck_assert_int_eq(pollux_lanes_used(s1), 1);
    ck_assert_int_eq(pollux_lanes_used(s4), 4);
    ck_assert_int_eq(pollux_warm_used(s1), 1);
    ck_assert_int_gt(pollux_warm_used(s4), 1); /* the warm start's entries on threads */
    pollux_destroy(s1);
    pollux_destroy(s4);
}
END_TEST

/* More nodes than one job may span (24 > 16): the GA places on a subset of
 * the nodes, by their index there. Nodes 0-3 are down (so an index taken
 * for a node would land on them), jobs hold GPUs on nodes 20 and 21, node
 * 20 fails: over warm-started decisions every plan stays valid on the
 * view's own nodes (nothing on a failed node, capacity, interference,
 * min..max) and jobs run. */
START_TEST(many_nodes_failed_held)
{
    static fx_t f;
    fx_init(&f, 24, 4);
    for (int j = 0; j < MAXJ; j++)
        fx_job(&f, 1, 2 + j);
    fx_hold(&f, 0, (const int[]){80, 81, 84}, 3); /* nodes 20 and 21 */
    fx_hold(&f, 1, (const int[]){82}, 1);         /* node 20 */
    fx_hold(&f, 2, (const int[]){24, 25}, 2);     /* node 6 */
    for (int k = 0; k < 4; k++)
        f.nodes[k].up = 0;
    f.nodes[20].up = 0;
    void *st = make(NULL, 0);
    plan_t p;
    plan_init(&p);
    for (int round = 0; round < 4; round++) {
        decide(st, &f, &p);
        check_plan(&f, &p);
        ck_assert_int_gt(p.n, 3);
        fx_apply(&f, &p);
        f.v.now += 60;
    }
    pollux_destroy(st);
    plan_free(&p);
}
END_TEST

START_TEST(bad_params)
{
    const char *keys[] = {"p"}, *vals[] = {"2"};
    policy_args_t a = {1, keys, vals, 0, NULL};
    void *s = NULL;
    char err[256] = "";
    ck_assert_int_eq(pollux_create(&s, &a, err, sizeof err), -1);
    ck_assert(strstr(err, "p=2") != NULL);
    const char *k2[] = {"population"}, *v2[] = {"1"};
    policy_args_t b = {1, k2, v2, 0, NULL};
    ck_assert_int_eq(pollux_create(&s, &b, err, sizeof err), -1);
    const char *k3[] = {"nope"}, *v3[] = {"1"};
    policy_args_t c = {1, k3, v3, 0, NULL};
    ck_assert_int_eq(pollux_create(&s, &c, err, sizeof err), -1);
    const char *k4[] = {"patience"}, *v4[] = {"-1"};
    policy_args_t d = {1, k4, v4, 0, NULL};
    ck_assert_int_eq(pollux_create(&s, &d, err, sizeof err), -1);
    ck_assert(strstr(err, "patience=-1") != NULL);
    const char *k5[] = {"threads"}, *v5[] = {"-2"};
    policy_args_t e = {1, k5, v5, 0, NULL};
    ck_assert_int_eq(pollux_create(&s, &e, err, sizeof err), -1);
    ck_assert(strstr(err, "threads=-2") != NULL);
    v5[0] = "33"; /* above the lanes there are: refused, not silently fewer */
    ck_assert_int_eq(pollux_create(&s, &e, err, sizeof err), -1);
    ck_assert(strstr(err, "threads=33: want 1..32") != NULL);
}
END_TEST

/* patience=N stops the GA after N generations without a better best: plans
 * stay valid with N = 1, and a patience the generations never reach changes
 * nothing (the same draws, the same plans as without it). */
START_TEST(patience)
{
    static fx_t f1, f2, f3;
    busy(&f1);
    busy(&f2);
    busy(&f3);
    const char *never[] = {"generations=20", "patience=20"},
               *off[] = {"generations=20", "patience=0"}, *one[] = {"generations=20", "patience=1"};
    void *s1 = make(never, 2), *s2 = make(off, 2), *s3 = make(one, 2);
    plan_t p1, p2, p3;
    plan_init(&p1);
    plan_init(&p2);
    plan_init(&p3);
    for (int round = 0; round < 4; round++) {
        decide(s1, &f1, &p1);
        decide(s2, &f2, &p2);
        decide(s3, &f3, &p3);
        check_plan(&f3, &p3);
        ck_assert_int_gt(p3.n, 0);
        ck_assert_int_eq(p1.n, p2.n);
        ck_assert_int_eq((int)p1.n_ids, (int)p2.n_ids);
        for (int i = 0; i < p1.n; i++) {
            ck_assert_int_eq(p1.allocs[i].job, p2.allocs[i].job);
            ck_assert_int_eq(p1.allocs[i].gpus, p2.allocs[i].gpus);
        }
        ck_assert(memcmp(p1.ids, p2.ids, p1.n_ids * sizeof *p1.ids) == 0);
        fx_apply(&f1, &p1);
        fx_apply(&f2, &p2);
        fx_apply(&f3, &p3);
        f1.v.now += 60;
        f2.v.now += 60;
        f3.v.now += 60;
    }
    plan_free(&p1);
    plan_free(&p2);
    plan_free(&p3);
    pollux_destroy(s1);
    pollux_destroy(s2);
    pollux_destroy(s3);
}
END_TEST

/* A rigid job over several nodes (min = max = 64 GPUs on 8 nodes of 8) is
 * placed whole at the first decision: a mutation that raises its row tops
 * it up to its min (fill_to_min). Before, the 8 entries had to be drawn 8
 * each in one offspring (1 in 9^8) and the job never ran (Philly's 64- and
 * 128-GPU jobs under pollux: the engine's livelock stop). A job above what
 * Pollux can ever give it (16 nodes of one type, here 64 of 20 x 4 GPUs) is
 * an error that names it, not a wait. */
START_TEST(gang_min)
{
    static fx_t f;
    fx_init(&f, 8, 8);
    int a = fx_job(&f, 64, 64);
    void *st = make((const char *const[]){"generations=10"}, 1);
    plan_t p;
    plan_init(&p);
    decide(st, &f, &p);
    check_plan(&f, &p);
    ck_assert_int_eq(gpus_of(&p, a), 64);
    pollux_destroy(st);

    /* beside a 1-GPU job running on node 0: 32 GPUs on 4 whole free nodes */
    fx_init(&f, 8, 8);
    int c = fx_job(&f, 1, 1), b = fx_job(&f, 32, 32);
    fx_hold(&f, c, (const int[]){0}, 1);
    st = make((const char *const[]){"generations=10"}, 1);
    decide(st, &f, &p);
    check_plan(&f, &p);
    ck_assert_int_eq(gpus_of(&p, b), 32);
    ck_assert_int_eq(gpus_of(&p, c), 1);
    pollux_destroy(st);

    fx_init(&f, 20, 4);
    fx_job(&f, 1, 1);
    fx_job(&f, 72, 72);
    st = make(NULL, 0);
    char err[512] = "";
    plan_clear(&p);
    ck_assert_int_eq(pollux_schedule(st, &f.v, &p, err, sizeof err), -1);
    ck_assert_msg(strstr(err, "job 101 needs at least 72 GPUs") && strstr(err, "at most 64"), "%s",
                  err);
    pollux_destroy(st);
    plan_free(&p);
}
END_TEST

/* One-GPU jobs (cap 1: the rows the GA mutates and repairs in one loop)
 * beside a distributed job. 3 nodes x 4 GPUs; a job of exactly 6 GPUs spans
 * two nodes, and six 1-GPU jobs fill the 6 GPUs left, two of them on a node
 * the distributed job holds (a one-GPU job is not distributed: it may share
 * that node). Every GPU is used in every round, and once placed nobody moves
 * (a move only costs its penalty). */
START_TEST(one_gpu_jobs)
{
    static fx_t f;
    fx_init(&f, 3, 4);
    fx_job(&f, 6, 6);
    for (int j = 0; j < 6; j++)
        fx_job(&f, 1, 1);
    void *st = make(NULL, 0);
    plan_t p;
    plan_init(&p);
    int held[MAXG];
    for (int round = 0; round < 4; round++) {
        decide(st, &f, &p);
        check_plan(&f, &p);
        int used = 0;
        for (int j = 0; j < f.v.n_jobs; j++) {
            ck_assert_int_eq(gpus_of(&p, j), j == 0 ? 6 : 1);
            used += gpus_of(&p, j);
        }
        ck_assert_int_eq(used, 12);
        fx_apply(&f, &p);
        if (round > 0)
            ck_assert(memcmp(held, f.holder, sizeof held) == 0);
        memcpy(held, f.holder, sizeof held);
        f.v.now += 60;
    }
    pollux_destroy(st);
    plan_free(&p);
}
END_TEST

int main(void)
{
    const TTest *const tests[] = {fitness_and_penalty,
                                  agent_batch,
                                  rigid_batch,
                                  speedup_and_penalty_choose,
                                  interference_capacity_minmax,
                                  deterministic,
                                  threads_same_plans,
                                  bad_params,
                                  patience,
                                  gang_min,
                                  one_gpu_jobs,
                                  many_nodes_failed_held};
    return check_main("pollux_policy", tests, sizeof tests / sizeof tests[0]);
}
