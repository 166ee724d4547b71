/* bench/gavel_decide.c: decision time of Gavel's LP policies and AlloX with
 * 2,000 active jobs on the 2,000-GPU cluster (800 V100, 800 P100, 400 K80 as
 * traces/clusters/2000gpu.json, 8 GPUs per node).
 *
 * Builds one synthetic view (Gavel's scale-factor mix 1/2/4/8 at 70/10/15/5 %,
 * per-type rates from 12 workload classes with K80 < P100 < V100, remaining
 * work 1e4..1e6 units, half the jobs running) and times, per policy, the
 * first schedule() call (a recompute: LP + round fill) and then the mean of
 * later calls at the next rounds (fill only), wall clock. Deterministic
 * inputs, no random generator.
 *     make bench/gavel_decide && bench/gavel_decide [JOBS]  */
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
            b->nodes[k] = (view_node_t){t, 8, id, 0, 1};
    }
    for (int g = 0; g < 2000; g++)
        b->holder[g] = -1;
    for (int j = 0; j < n_jobs; j++) {
        int u = (j * 37) % 100;
        int g = u < 70 ? 1 : u < 80 ? 2 : u < 95 ? 4 : 8;
        double work = 1e4 * pow(100.0, ((j * 53) % 101) / 100.0);
        b->jobs[j] = (view_job_t){.id = j, .workload = j % 12, .submit = j, .priority = 1,
                                  .deadline = INFINITY, .duration_estimate = NAN,
                                  .gpus_requested = g, .min_gpus = g, .max_gpus = g,
                                  .cur_type = -1, .first_start = NAN, .last_start = NAN,
                                  .throughput = NAN, .total_work = work,
                                  .remaining_work = work};
    }
    b->perf = (view_perf_t){b, b_tput, b_pair};
    b->v = (view_t){.round_len = 360, .n_types = N_TYPES, .types = b->types,
                    .n_nodes = n_nodes, .nodes = b->nodes, .n_gpus = 2000,
                    .gpu_holder = b->holder, .n_jobs = n_jobs, .jobs = b->jobs,
                    .perf = &b->perf};
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(int argc, char **argv)
{
    int n_jobs = argc > 1 ? atoi(argv[1]) : 2000;
    static const char *const names[] = {"max-min-fairness",       "max-min-fairness-perf",
                                        "max-min-fairness-packed", "finish-time-fairness",
                                        "min-total-duration",      "max-sum-throughput-perf",
                                        "fifo-perf",               "allox"};
    printf("%d active jobs, 2000 GPUs (800 v100, 800 p100, 400 k80)\n", n_jobs);
    printf("%-26s %14s %14s %8s\n", "policy", "recompute_ms", "round_ms", "running");
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        bench_view_t b;
        build(&b, n_jobs);
        const policy_ops_t *ops = policy_find(names[i]);
        void *st = NULL;
        char err[256] = "";
        if (!ops || ops->create(&st, NULL, err, sizeof err) < 0) {
            fprintf(stderr, "%s: %s\n", names[i], err);
            return 1;
        }
        plan_t p;
        plan_init(&p);
        double t0 = now_s();
        if (ops->schedule(st, &b.v, &p, err, sizeof err) < 0) {
            fprintf(stderr, "%s: %s\n", names[i], err);
            return 1;
        }
        double first = now_s() - t0;
        int running = p.n;
        double later = 0;
        const int rounds = 5;
        for (int r = 1; r <= rounds; r++) {
            b.v.now = r * 360.0;
            plan_clear(&p);
            t0 = now_s();
            ops->schedule(st, &b.v, &p, err, sizeof err);
            later += now_s() - t0;
        }
        printf("%-26s %14.1f %14.2f %8d\n", names[i], first * 1e3, later / rounds * 1e3, running);
        plan_free(&p);
        ops->destroy(st);
        free(b.nodes);
        free(b.holder);
        free(b.jobs);
    }
    return 0;
}
