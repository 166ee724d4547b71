/* bench/pollux_decide.c: decision time of the pollux policy (PolluxAgent's
 * batch search and PolluxSched's genetic algorithm, population 100 x 100
 * generations unless given) with many active jobs.
 *
 * Builds one synthetic view: a homogeneous cluster of 4-GPU nodes (Pollux's
 * node shape, T4-like), JOBS active elastic jobs (1..64 GPUs) of six classes
 * whose goodput follows Pollux's model (T_iter with per-class constants,
 * efficiency (phi + M0) / (phi + M)), three in four with a reported noise
 * scale, the first jobs running on whole or partial nodes until half the GPUs
 * are held. Times the first schedule() call (cold: the GA starts from the
 * current allocation) and the mean of the next three (warm: seeded with the
 * previous population), wall clock and the process's CPU time (the one to
 * trust on a shared machine). Deterministic inputs; the policy's own
 * generator is seeded by the view. PATIENCE: the policy's patience=N (0 when
 * not given: all the generations); THREADS: its threads=N (0: the online
 * CPUs).
 * SHAPE=philly (environment): Philly's shape instead: 8-GPU nodes, rigid
 * jobs (min = max) of 1 GPU (70 %), 2 (8 %), 4 (9 %), 8 (9 %), 16 (3 %) or
 * 32 (1 %), a table-like perf model (no batch limits: goodput is
 * throughput, K x a per-class rate, 0.8 of it over several nodes), the
 * first jobs running, each on the fewest nodes, until 85 % of the GPUs are
 * held, the rest queued.
 * SEED=S: the view's seed (1 by default); LANES=1: print the threads each
 * next decision used.
 *     make bench/pollux_decide && bench/pollux_decide [JOBS [GPUS [POP GENS [PATIENCE [THREADS]]]]] */
#include "policies/policies.h"
#include "policies/pollux.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PER_NODE 4 /* Pollux's shape; SHAPE=philly: 8 */
#define CLASSES 6

typedef struct bench_view {
    int per_node;
    view_gpu_type_t type;
    view_node_t *nodes;
    view_job_t *jobs;
    int *holder, *ids;
    view_perf_t perf;
    view_t v;
} bench_view_t;

/* Pollux's T_iter for class w: K GPUs over N nodes, micro-batch m, s steps. */
static double iter_time(int w, int gpus, int nodes, double m, int s)
{
    double t_grad = 0.02 * (1 + w) + 2e-4 * m;
    double t_sync = gpus == 1   ? 0
                    : nodes > 1 ? 0.05 + 0.01 * (gpus - 2)
                                : 0.01 + 0.002 * (gpus - 2);
    double g = 1.5;
    return s * t_grad + pow(pow(t_grad, g) + pow(t_sync, g), 1 / g);
}

static double b_samples(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch,
                        int accum)
{
    (void)ctx, (void)type;
    if (gpus < 1)
        return 0;
    if (batch <= 0) {
        batch = 128 / gpus > 32 ? 128 / gpus : 32;
        accum = 0;
    }
    if (accum < 0)
        accum = 0;
    if (batch > 256)
        return 0;
    return (double)gpus * batch * (accum + 1) /
           iter_time(j->workload, gpus, nodes < 1 ? 1 : nodes, batch, accum);
}

static double b_eff(void *ctx, const view_job_t *j, double total)
{
    (void)ctx;
    if (isnan(j->grad_noise_scale))
        return NAN;
    return (j->grad_noise_scale + 128) / (j->grad_noise_scale + total);
}

static double b_goodput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch,
                        int accum)
{
    double x = b_samples(ctx, j, type, gpus, nodes, batch, accum);
    double e = b_eff(ctx, j, (double)gpus * batch * (accum > 0 ? accum + 1 : 1));
    return x * (isnan(e) ? 1 : e);
}

static double b_tput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch)
{
    return b_goodput(ctx, j, type, gpus, nodes, batch, -1);
}

static int b_limits(void *ctx, const view_job_t *j, int type, view_batch_limits_t *out)
{
    (void)ctx, (void)j, (void)type;
    *out = (view_batch_limits_t){128, 4096, 32, 256, 50000};
    return 0;
}

/* n_nodes nodes of `per` GPUs of one type, all free; room for n_jobs jobs. */
static void cluster(bench_view_t *b, const char *type, int n_nodes, int per, int n_jobs)
{
    b->per_node = per;
    b->type = (view_gpu_type_t){type, n_nodes * per, 0, 16};
    b->nodes = calloc((size_t)n_nodes, sizeof *b->nodes);
    b->jobs = calloc((size_t)n_jobs, sizeof *b->jobs);
    b->holder = malloc(sizeof(int) * (size_t)n_nodes * per);
    b->ids = malloc(sizeof(int) * (size_t)n_nodes * per);
    for (int k = 0; k < n_nodes; k++)
        b->nodes[k] = (view_node_t){0, per, k * per, 0, 1, 48, 192};
    for (int g = 0; g < n_nodes * per; g++)
        b->holder[g] = -1;
}

/* Job j, queued, of class j % CLASSES, asking for `ask` GPUs (min..max), no
 * noise scale. */
static void queued_job(view_job_t *jb, int j, int ask, int min, int max)
{
    *jb = (view_job_t){0};
    jb->id = j;
    jb->workload = j % CLASSES;
    jb->workload_name = "bench";
    jb->submit = j;
    jb->priority = 1;
    jb->deadline = INFINITY;
    jb->duration_estimate = NAN;
    jb->gpus_requested = ask;
    jb->min_gpus = min;
    jb->max_gpus = max;
    jb->cur_type = -1;
    jb->first_start = jb->last_start = jb->throughput = NAN;
    jb->total_work = jb->remaining_work = NAN;
    jb->accum_steps = -1;
    jb->grad_noise_scale = NAN;
    jb->epoch = NAN;
}

/* Philly's shape: K x a per-class rate, 0.8 of it spread. */
static double r_tput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch)
{
    (void)ctx, (void)type, (void)batch;
    return gpus < 1 ? 0 : gpus * (1.0 + j->workload) * (nodes > 1 ? 0.8 : 1);
}

static void build_philly(bench_view_t *b, int n_jobs, int n_gpus)
{
    static const int size[] = {1, 2, 4, 8, 16, 32}, cum[] = {70, 78, 87, 96, 99, 100};
    int per = 8, n_nodes = n_gpus / per;
    cluster(b, "v100", n_nodes, per, n_jobs);
    int next = 0, limit = n_nodes * per * 85 / 100;
    for (int j = 0; j < n_jobs; j++) {
        view_job_t *jb = &b->jobs[j];
        int pct = (int)((j * 37u + 11) % 100), c = 0;
        while (pct >= cum[c])
            c++;
        int k = size[c];
        queued_job(jb, j, k, k, k);
        int start = k >= per ? (next + per - 1) / per * per : next;
        if (k < per && start % per + k > per)
            start += per - start % per;
        if (start + k <= limit) {
            jb->state = VIEW_RUNNING;
            jb->cur_type = 0;
            jb->cur_gpus = k;
            jb->cur_nodes = (k + per - 1) / per;
            jb->cur_gpu_ids = &b->ids[start];
            jb->attained_service = 3600.0 * k * (1 + j % 5);
            jb->restarts = j % 3;
            for (int i = 0; i < k; i++) {
                b->ids[start + i] = start + i;
                b->holder[start + i] = j;
            }
            next = start + k;
        }
    }
    b->perf = (view_perf_t){.ctx = b, .throughput = r_tput, .concurrent = 1};
}

static void build_pollux(bench_view_t *b, int n_jobs, int n_gpus)
{
    int n_nodes = n_gpus / PER_NODE;
    cluster(b, "t4", n_nodes, PER_NODE, n_jobs);
    int next = 0; /* next free GPU id while half the GPUs are handed out */
    for (int j = 0; j < n_jobs; j++) {
        view_job_t *jb = &b->jobs[j];
        queued_job(jb, j, 1 + j % 4, 1, 64);
        jb->grad_noise_scale = j % 4 == 3 ? NAN : 200.0 * (1 + j % 7);
        int k = 1 << (j % 3); /* 1, 2, 4 GPUs on one node */
        if (next % PER_NODE + k > PER_NODE)
            next += PER_NODE - next % PER_NODE;
        if (next + k <= n_nodes * PER_NODE / 2 && !isnan(jb->grad_noise_scale)) {
            jb->state = VIEW_RUNNING;
            jb->cur_type = 0;
            jb->cur_gpus = k;
            jb->cur_nodes = 1;
            jb->cur_gpu_ids = &b->ids[next];
            jb->attained_service = 3600.0 * k;
            jb->restarts = j % 3;
            for (int i = 0; i < k; i++) {
                b->ids[next] = next;
                b->holder[next++] = j;
            }
        }
    }
    b->perf = (view_perf_t){.ctx = b,
                            .throughput = b_tput,
                            .samples_throughput = b_samples,
                            .efficiency = b_eff,
                            .goodput = b_goodput,
                            .batch_limits = b_limits,
                            .concurrent = 1};
}

static void build(bench_view_t *b, int n_jobs, int n_gpus)
{
    memset(b, 0, sizeof *b);
    const char *shape = getenv("SHAPE");
    if (shape && !strcmp(shape, "philly"))
        build_philly(b, n_jobs, n_gpus);
    else
        build_pollux(b, n_jobs, n_gpus);
    int n_nodes = n_gpus / b->per_node;
    b->v.now = 100000;
    b->v.round_len = 60;
    b->v.seed = getenv("SEED") ? (uint64_t)atoll(getenv("SEED")) : 1;
    b->v.n_types = 1;
    b->v.types = &b->type;
    b->v.n_nodes = n_nodes;
    b->v.nodes = b->nodes;
    b->v.n_gpus = n_nodes * b->per_node;
    b->v.gpu_holder = b->holder;
    b->v.n_jobs = n_jobs;
    b->v.jobs = b->jobs;
    b->v.perf = &b->perf;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* CPU time of the process: what a decision costs on a shared machine, where
 * the wall clock also counts the other processes' turns. */
static double cpu_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int n_jobs = argc > 1 ? atoi(argv[1]) : 2000;
    int n_gpus = argc > 2 ? atoi(argv[2]) : 2000;
    const char *pop = argc > 3 ? argv[3] : "100", *gens = argc > 4 ? argv[4] : "100";
    const char *patience = argc > 5 ? argv[5] : "0"; /* the policy's default: off */
    const char *threads = argc > 6 ? argv[6] : "0";  /* the policy's default: the online CPUs */
    if (n_jobs < 1 || n_gpus < PER_NODE) {
        fprintf(stderr, "usage: pollux_decide [JOBS [GPUS [POP GENS [PATIENCE [THREADS]]]]]\n");
        return 2;
    }
    bench_view_t b;
    build(&b, n_jobs, n_gpus);
    const char *keys[] = {"population", "generations", "patience", "threads"},
               *vals[] = {pop, gens, patience, threads};
    policy_args_t args = {argc > 6 ? 4 : 3, keys, vals, 0, NULL}; /* without threads: older builds */
    void *st = NULL;
    char err[256] = "";
    if (pollux_create(&st, &args, err, sizeof err) < 0) {
        fprintf(stderr, "pollux_decide: %s\n", err);
        return 2;
    }
    plan_t p;
    plan_init(&p);
    double t0 = now_s(), c0 = cpu_s();
    if (pollux_schedule(st, &b.v, &p, err, sizeof err) < 0) {
        fprintf(stderr, "pollux_decide: %s\n", err);
        return 1;
    }
    double cold = now_s() - t0, cold_cpu = cpu_s() - c0;
    int placed = p.n, gpus = 0;
    for (int i = 0; i < p.n; i++)
        gpus += p.allocs[i].gpus;
    double warm = 0, warm_cpu = 0;
    for (int r = 1; r <= 3; r++) {
        b.v.now += 60;
        b.v.round = r;
        plan_clear(&p);
        t0 = now_s();
        c0 = cpu_s();
        if (pollux_schedule(st, &b.v, &p, err, sizeof err) < 0) {
            fprintf(stderr, "pollux_decide: %s\n", err);
            return 1;
        }
        warm += now_s() - t0;
        warm_cpu += cpu_s() - c0;
        if (getenv("LANES")) fprintf(stderr, "decision %d: %d threads\n", r, pollux_lanes_used(st));
    }
    printf(
        "pollux%s: %d jobs, %d GPUs (%d nodes), population %s x %s generations, patience %s: first "
        "decision %.1f ms (%.1f ms CPU; %d jobs placed on %d GPUs), next decisions %.1f ms "
        "mean (%.1f ms CPU)\n",
        getenv("SHAPE") ? " (SHAPE=philly)" : "", n_jobs, b.v.n_gpus, b.v.n_nodes, pop, gens, patience, cold * 1e3, cold_cpu * 1e3, placed,
        gpus, warm / 3 * 1e3, warm_cpu / 3 * 1e3);
    plan_free(&p);
    pollux_destroy(st);
    free(b.nodes);
    free(b.jobs);
    free(b.holder);
    free(b.ids);
    return 0;
}
