/* bench/gavel_decide.c: decision time of Gavel's LP policies and AlloX with
 * 2,000 active jobs on the 2,000-GPU cluster (800 V100, 800 P100, 400 K80 as
 * traces/clusters/2000gpu.json, 8 GPUs per node).
 *
 * Builds one synthetic view (Gavel's scale-factor mix 1/2/4/8 at 70/10/15/5 %,
 * per-type rates from 12 workload classes with K80 < P100 < V100, remaining
 * work 1e4..1e6 units, half the jobs running) and times, per policy, the
 * first schedule() call (a recompute: LP + round fill), the mean of later
 * calls at the next rounds (fill only), and a recompute after churn (1 % of
 * the jobs replaced, the recompute interval passed: what a replay pays per
 * recompute, where a policy may reuse its previous solve), wall clock.
 * Deterministic inputs, no random generator.
 * Rows with a parameter: the same policy with warm_start=1 (each recompute's
 * simplex starts from the last basis) or AlloX with solver=simplex (the exact
 * LP, as before the flow). "allox busy": the jobs that fit already run,
 * leaving 10 GPUs free (4 V100, 4 P100, 2 K80), as in a loaded replay where
 * AlloX matches alpha = 20 % of the waiting jobs to many queue positions.
 *     make bench/gavel_decide && bench/gavel_decide [JOBS [POLICY]]
 * ROUNDS=N in the environment: N later calls (default 5); CPU=1: CPU time
 * instead of wall clock. */
#include "policies/policies.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define N_TYPES 3

typedef struct bench_view {
    view_gpu_type_t types[N_TYPES];
    view_node_t *nodes;
    view_job_t *jobs;
    int *holder;
    view_perf_t perf;
    view_t v;
} bench_view_t;

/* Per-GPU rate of workload class w on type t. */
static double class_rate(int w, int t)
{
    static const double speedup[N_TYPES] = {1.0, 0.55, 0.2};
    double base = 1.0 + w * 0.7;
    double skew = 1.0 + 0.15 * ((w * 5 + t * 3) % 7) / 7.0; /* heterogeneous speedups */
    return base * speedup[t] * (t ? skew : 1.0);
}

static double b_tput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch)
{
    (void)ctx, (void)nodes, (void)batch;
    return class_rate(j->workload, type) * gpus;
}

static int b_pair(void *ctx, const view_job_t *a, const view_job_t *b, int type, int gpus,
                  double out[2])
{
    (void)ctx;
    if ((a->workload + b->workload) % 3 == 0)
        return -1; /* some pairs do not fit in memory */
    out[0] = 0.6 * class_rate(a->workload, type) * gpus;
    out[1] = 0.55 * class_rate(b->workload, type) * gpus;
    return 0;
}

/* Job number j of the deterministic mix (id j, submitted at j s). */
static view_job_t make_job(int j)
{
    int u = (j * 37) % 100;
    int g = u < 70 ? 1 : u < 80 ? 2 : u < 95 ? 4 : 8;
    double work = 1e4 * pow(100.0, ((j * 53) % 101) / 100.0);
    return (view_job_t){.id = j, .workload = j % 12, .submit = j, .priority = 1,
                        .deadline = INFINITY, .duration_estimate = NAN, .gpus_requested = g,
                        .min_gpus = g, .max_gpus = g, .cur_type = -1, .first_start = NAN,
                        .last_start = NAN, .throughput = NAN, .total_work = work,
                        .remaining_work = work};
}

/* Churn: the first 1 % of the jobs finished, as many new ones arrived, and
 * Gavel's recompute interval (1920 s) has passed, so the next call
 * recomputes, with the previous allocation's state at hand. */
static void churn(bench_view_t *b)
{
    int n = b->v.n_jobs, k = n / 100 > 0 ? n / 100 : 1;
    memmove(b->jobs, b->jobs + k, (size_t)(n - k) * sizeof *b->jobs);
    for (int i = 0; i < k; i++)
        b->jobs[n - k + i] = make_job(n + i);
    b->v.now += 1920.0;
}

/* A busy cluster: jobs in arrival order run (holding their GPUs) while they
 * fit with 4 V100, 4 P100 and 2 K80 left free; the rest wait. */
static void occupy(bench_view_t *b)
{
    static const int keep_free[N_TYPES] = {4, 4, 2};
    int room[N_TYPES];
    for (int t = 0; t < N_TYPES; t++)
        room[t] = b->types[t].total_gpus - keep_free[t];
    for (int j = 0; j < b->v.n_jobs; j++) {
        view_job_t *jb = &b->jobs[j];
        for (int t = 0; t < N_TYPES; t++)
            if (room[t] >= jb->gpus_requested) {
                room[t] -= jb->gpus_requested;
                jb->state = VIEW_RUNNING, jb->cur_type = t, jb->cur_gpus = jb->gpus_requested;
                jb->cur_nodes = 1, jb->first_start = jb->last_start = 0;
                jb->throughput = class_rate(jb->workload, t) * jb->gpus_requested;
                break;
            }
    }
}

static void build(bench_view_t *b, int n_jobs)
{
    static const char *const names[N_TYPES] = {"v100", "p100", "k80"};
    static const int gpus[N_TYPES] = {800, 800, 400};
    memset(b, 0, sizeof *b);
    int n_nodes = (800 + 800 + 400) / 8, id = 0, k = 0;
    b->nodes = calloc((size_t)n_nodes, sizeof *b->nodes);
    b->holder = malloc(2000 * sizeof *b->holder);
    b->jobs = calloc((size_t)n_jobs, sizeof *b->jobs);
    for (int t = 0; t < N_TYPES; t++) {
        b->types[t] = (view_gpu_type_t){names[t], gpus[t], gpus[t], 16.0};
        for (int i = 0; i < gpus[t] / 8; i++, k++, id += 8)
            b->nodes[k] = (view_node_t){.type = t, .gpus = 8, .first_gpu = id, .up = 1};
    }
    for (int g = 0; g < 2000; g++)
        b->holder[g] = -1;
    for (int j = 0; j < n_jobs; j++)
        b->jobs[j] = make_job(j);
    b->perf = (view_perf_t){.ctx = b, .throughput = b_tput, .pair_throughput = b_pair};
    b->v = (view_t){.round_len = 360, .n_types = N_TYPES, .types = b->types,
                    .n_nodes = n_nodes, .nodes = b->nodes, .n_gpus = 2000,
                    .gpu_holder = b->holder, .n_jobs = n_jobs, .jobs = b->jobs,
                    .perf = &b->perf};
}

/* Wall clock, or with CPU=1 in the environment the process's CPU time (on
 * a loaded machine). */
static double now_s(void)
{
    struct timespec ts;
    const char *cpu = getenv("CPU");
    clock_gettime(cpu && *cpu == '1' ? CLOCK_PROCESS_CPUTIME_ID : CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int n_jobs = argc > 1 ? atoi(argv[1]) : 2000;
    const char *only = argc > 2 ? argv[2] : NULL; /* one policy */
    /* each policy as it runs by default, then with another setting: KEY and
     * VALUE a policy parameter (NULL: none), busy: on the busy cluster */
    static const struct {
        const char *name, *key, *value;
        int busy;
    } runs[] = {
        {"max-min-fairness", NULL, NULL, 0},
        {"max-min-fairness-perf", NULL, NULL, 0},
        {"max-min-fairness-packed", NULL, NULL, 0},
        {"finish-time-fairness", NULL, NULL, 0},
        {"min-total-duration", NULL, NULL, 0},
        {"max-sum-throughput-perf", NULL, NULL, 0},
        {"fifo-perf", NULL, NULL, 0},
        {"allox", NULL, NULL, 0},
        {"max-min-fairness", "warm_start", "1", 0},
        {"max-min-fairness-perf", "warm_start", "1", 0},
        {"max-min-fairness-packed", "warm_start", "1", 0},
        {"min-total-duration", "warm_start", "1", 0},
        {"max-sum-throughput-perf", "warm_start", "1", 0},
        {"allox", "solver", "simplex", 0},
        {"allox", NULL, NULL, 1},
        {"allox", "solver", "simplex", 1},
    };
    printf("%d active jobs, 2000 GPUs (800 v100, 800 p100, 400 k80)\n", n_jobs);
    printf("%-38s %14s %14s %14s %8s\n", "policy", "recompute_ms", "round_ms", "churn_ms",
           "running");
    for (size_t i = 0; i < sizeof runs / sizeof *runs; i++) {
        const char *name = runs[i].name;
        if (only && strcmp(only, name) != 0)
            continue;
        bench_view_t b;
        build(&b, n_jobs);
        if (runs[i].busy)
            occupy(&b);
        const policy_ops_t *ops = policy_find(name);
        void *st = NULL;
        char err[256] = "", label[64];
        const char *key[] = {runs[i].key}, *value[] = {runs[i].value};
        policy_args_t args = {1, key, value, 0, NULL};
        if (!ops || ops->create(&st, runs[i].key ? &args : NULL, err, sizeof err) < 0) {
            fprintf(stderr, "%s: %s\n", name, err);
            return 1;
        }
        snprintf(label, sizeof label, "%s%s%s%s%s", name, runs[i].key ? " " : "",
                 runs[i].key ? runs[i].key : "", runs[i].key ? "=" : "",
                 runs[i].key ? runs[i].value : "");
        if (runs[i].busy)
            strcat(label, " busy");
        plan_t p;
        plan_init(&p);
        double t0 = now_s();
        if (ops->schedule(st, &b.v, &p, err, sizeof err) < 0) {
            fprintf(stderr, "%s: %s\n", name, err);
            return 1;
        }
        double first = now_s() - t0;
        int running = p.n;
        double later = 0;
        const int rounds =
            getenv("ROUNDS") && atoi(getenv("ROUNDS")) > 0 ? atoi(getenv("ROUNDS")) : 5;
        for (int r = 1; r <= rounds; r++) {
            b.v.now = r * 360.0;
            plan_clear(&p);
            t0 = now_s();
            ops->schedule(st, &b.v, &p, err, sizeof err);
            later += now_s() - t0;
        }
        churn(&b);
        plan_clear(&p);
        t0 = now_s();
        if (ops->schedule(st, &b.v, &p, err, sizeof err) < 0) {
            fprintf(stderr, "%s: %s\n", name, err);
            return 1;
        }
        double churned = now_s() - t0;
        printf("%-38s %14.1f %14.2f %14.1f %8d\n", label, first * 1e3, later / rounds * 1e3,
               churned * 1e3, running);
        plan_free(&p);
        ops->destroy(st);
        free(b.nodes);
        free(b.holder);
        free(b.jobs);
    }
    return 0;
}
