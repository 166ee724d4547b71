/* bench/shockwave_decide.c: decision time of the shockwave policy with many
 * active jobs.
 *
 * One synthetic view like Shockwave's traces at scale: JOBS active jobs on
 * GPUS V100 (8 per node; default JOBS / 4, Shockwave's 900-job runs use 256
 * GPUs), gangs of 1/2/4/8 GPUs at 60/30/9/1 %, modes static / accordion /
 * gns at 20/40/40 %, 12 workload classes with rates 1..8.7 work units/s per
 * GPU (x1.6 at twice the batch), total work 2e4..1e6 units, progress 0..90 %
 * (adaptive jobs 100 iterations per epoch), half the jobs running.
 * Deterministic inputs. Times, wall clock, per schedule() call: the first
 * (a solve of the 20-round market), the mean of the next 3 rounds (the plan
 * followed, no solve), and a re-solve after churn (1 % of the jobs replaced,
 * MLS_WHY_ARRIVAL): what a replay pays at each arrival or completion.
 *     make bench/shockwave_decide && bench/shockwave_decide [JOBS [GPUS [NODES]]]
 * NODES: shockwave's branch-and-bound node limit (default its 1000). */
#include "policies/policies.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define PER_NODE 8

typedef struct bench_view {
    view_gpu_type_t type;
    view_node_t *nodes;
    view_job_t *jobs;
    int *holder;
    int *ids;
    view_perf_t perf;
    view_t v;
} bench_view_t;

static double b_tput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch)
{
    (void)ctx, (void)type, (void)nodes;
    double base = 1.0 + 0.7 * (j->workload % 12);
    int b = batch > 0 ? batch : j->batch_size;
    return base * gpus * (b > 32 ? 1.6 : 1.0);
}

static void set_job(bench_view_t *b, int i, int64_t id)
{
    view_job_t *j = &b->jobs[i];
    unsigned h = (unsigned)(id * 2654435761u);
    int g = h % 100 < 60 ? 1 : h % 100 < 90 ? 2 : h % 100 < 99 ? 4 : 8;
    double total = 2e4 + (double)(h % 9803) / 9803.0 * 9.8e5;
    double done = total * 0.9 * ((h >> 8) % 101) / 100.0;
    int mode = (h >> 4) % 10 < 2 ? 0 : (h >> 4) % 10 < 6 ? 1 : 2;
    *j = (view_job_t){.id = id,
                      .submit = (double)id,
                      .priority = 1,
                      .workload = (int)(id % 12),
                      .gpus_requested = g,
                      .min_gpus = g,
                      .max_gpus = g,
                      .batch_size = 32,
                      .cur_type = -1,
                      .first_start = NAN,
                      .last_start = NAN,
                      .throughput = NAN,
                      .work_done = done,
                      .total_work = total,
                      .remaining_work = total - done,
                      .accum_steps = -1,
                      .grad_noise_scale = NAN,
                      .epoch = mode ? done / 100 : NAN,
                      .adapt_mode = mode,
                      .attained_time = done / 3};
}

static void build(bench_view_t *b, int n_jobs, int n_gpus)
{
    int n_nodes = n_gpus / PER_NODE;
    b->type = (view_gpu_type_t){"v100", n_nodes * PER_NODE, 0, 16};
    b->nodes = calloc((size_t)n_nodes, sizeof *b->nodes);
    b->jobs = calloc((size_t)n_jobs, sizeof *b->jobs);
    b->holder = malloc((size_t)n_nodes * PER_NODE * sizeof *b->holder);
    b->ids = malloc((size_t)n_nodes * PER_NODE * sizeof *b->ids);
    for (int k = 0; k < n_nodes; k++)
        b->nodes[k] = (view_node_t){0, PER_NODE, k * PER_NODE, 0, 1, 64, 512};
    for (int g = 0; g < n_nodes * PER_NODE; g++) {
        b->holder[g] = -1;
        b->ids[g] = g;
    }
    int next = 0;
    for (int i = 0; i < n_jobs; i++) {
        set_job(b, i, i);
        view_job_t *j = &b->jobs[i];
        if (i % 2 == 0 && next + j->gpus_requested <= n_nodes * PER_NODE) {
            j->state = VIEW_RUNNING;
            j->cur_type = 0;
            j->cur_gpus = j->gpus_requested;
            j->cur_nodes = 1;
            j->cur_gpu_ids = &b->ids[next];
            for (int k = 0; k < j->gpus_requested; k++)
                b->holder[next + k] = i;
            next += j->gpus_requested;
        }
    }
    b->type.free_gpus = n_nodes * PER_NODE - next;
    b->perf = (view_perf_t){.throughput = b_tput};
    b->v = (view_t){.now = 1e5,
                    .round_len = 120,
                    .round = 833,
                    .reasons = MLS_WHY_ARRIVAL,
                    .n_types = 1,
                    .types = &b->type,
                    .n_nodes = n_nodes,
                    .nodes = b->nodes,
                    .n_gpus = n_nodes * PER_NODE,
                    .gpu_holder = b->holder,
                    .n_jobs = n_jobs,
                    .jobs = b->jobs,
                    .perf = &b->perf};
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int call(void *st, bench_view_t *b, plan_t *p, double *dt)
{
    char err[256] = "";
    plan_clear(p);
    double t0 = now_s();
    if (shockwave_schedule(st, &b->v, p, err, sizeof err) < 0) {
        fprintf(stderr, "shockwave_decide: %s\n", err);
        return -1;
    }
    *dt = now_s() - t0;
    return 0;
}

int main(int argc, char **argv)
{
    int n_jobs = argc > 1 ? atoi(argv[1]) : 2000;
    int n_gpus = argc > 2 ? atoi(argv[2]) : n_jobs / 4;
    const char *nodes = argc > 3 ? argv[3] : "1000";
    if (n_jobs < 1 || n_gpus < PER_NODE) {
        fprintf(stderr, "usage: shockwave_decide [JOBS [GPUS [NODES]]]\n");
        return 2;
    }
    bench_view_t b;
    build(&b, n_jobs, n_gpus);
    const char *keys[] = {"nodes"}, *vals[] = {nodes};
    policy_args_t args = {1, keys, vals, 0, NULL};
    void *st = NULL;
    char err[256] = "";
    if (shockwave_create(&st, &args, err, sizeof err) < 0) {
        fprintf(stderr, "shockwave_decide: %s\n", err);
        return 2;
    }
    plan_t p;
    plan_init(&p);
    double first, t, follow = 0, churn;
    if (call(st, &b, &p, &first) < 0)
        return 1;
    int placed = p.n;
    for (int r = 1; r <= 3; r++) {
        b.v.now += 120;
        b.v.round++;
        b.v.reasons = MLS_WHY_ROUND;
        if (call(st, &b, &p, &t) < 0)
            return 1;
        follow += t;
    }
    for (int i = 0; i < n_jobs / 100 + 1; i++) /* 1 % replaced by new arrivals */
        if (b.jobs[i * 97 % n_jobs].state == VIEW_QUEUED)
            set_job(&b, i * 97 % n_jobs, 1000000 + i);
    b.v.now += 120;
    b.v.round++;
    b.v.reasons = MLS_WHY_ARRIVAL | MLS_WHY_ROUND;
    if (call(st, &b, &p, &churn) < 0)
        return 1;
    printf("shockwave: %d jobs, %d GPUs, window 20, nodes %s: first solve %.0f ms (%d jobs "
           "placed), next rounds %.1f ms mean (plan followed), re-solve after 1 %% churn "
           "%.0f ms\n",
           n_jobs, b.v.n_gpus, nodes, first * 1e3, placed, follow / 3 * 1e3, churn * 1e3);
    plan_free(&p);
    shockwave_destroy(st);
    free(b.nodes);
    free(b.jobs);
    free(b.holder);
    free(b.ids);
    return 0;
}
