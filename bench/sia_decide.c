/* bench/sia_decide.c: decision time of the sia policy (goodput matrix over
 * Sia's configurations, GLPK integer program, placement) with many active jobs.
 *
 * Builds one synthetic view shaped as Sia's heterogeneous cluster scaled by
 * GPUS/64 (per 64 GPUs: 6 nodes of 4 T4-like, 2 of 8 A100-like, 3 of 8
 * RTX-like GPUs, as Sia scales it in §5.6), JOBS active elastic jobs (1..64
 * GPUs) of six classes whose goodput follows Pollux's model (T_iter with
 * per-class constants, 1x / 3x / 1.5x compute speed by type, efficiency
 * (phi + M0) / (phi + M)), three in four with a reported noise scale, the
 * first jobs running on 1, 2 or 4 GPUs until half of each type is held.
 * Times the first schedule() call and the mean of the next three (the
 * exploration bounds have grown by then), wall clock. Deterministic.
 *     make bench/sia_decide && bench/sia_decide [JOBS [GPUS [KEY=VALUE...]]]
 * (KEY=VALUE: sia parameters, e.g. decimals=-1). Wall clock and CPU time. */
#include "policies/policies.h"
#include "policies/sia.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define CLASSES 6
#define NT 3

static const int PER_NODE[NT] = {4, 8, 8};
static const int NODES_PER_64[NT] = {6, 2, 3};
static const double SPEED[NT] = {1.0, 3.0, 1.5};

typedef struct bench_view {
    view_gpu_type_t types[NT];
    view_node_t *nodes;
    view_job_t *jobs;
    int *holder, *ids;
    view_perf_t perf;
    view_t v;
} bench_view_t;

static double iter_time(int w, int type, int gpus, int nodes, double m, int s)
{
    double t_grad = (0.02 * (1 + w) + 2e-4 * m) / SPEED[type];
    double t_sync = gpus == 1   ? 0
                    : nodes > 1 ? 0.05 + 0.01 * (gpus - 2)
                                : 0.01 + 0.002 * (gpus - 2);
    double g = 1.5;
    return s * t_grad + pow(pow(t_grad, g) + pow(t_sync, g), 1 / g);
}

static double b_samples(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch,
                        int accum)
{
    (void)ctx;
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
           iter_time(j->workload, type, gpus, nodes < 1 ? 1 : nodes, batch, accum);
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

static void add_nodes(bench_view_t *b, int scale)
{
    int n = 0, g = 0;
    for (int t = 0; t < NT; t++) {
        int count = NODES_PER_64[t] * scale;
        b->types[t] = (view_gpu_type_t){t == 0   ? "t4"
                                        : t == 1 ? "a100"
                                                 : "rtx",
                                        count * PER_NODE[t], 0, 16};
        for (int k = 0; k < count; k++, n++) {
            b->nodes[n] = (view_node_t){t, PER_NODE[t], g, 0, 1, 48, 192};
            g += PER_NODE[t];
        }
    }
    b->v.n_nodes = n;
    b->v.n_gpus = g;
}

/* Job j runs on k GPUs of the first node of type t with room, below half. */
static void start_job(bench_view_t *b, int j, int t, int k, int *used)
{
    view_job_t *jb = &b->jobs[j];
    if (used[t] + k > b->types[t].total_gpus / 2)
        return;
    for (int n = 0; n < b->v.n_nodes; n++) {
        const view_node_t *nd = &b->nodes[n];
        int free = 0, first = -1;
        for (int g = nd->first_gpu; g < nd->first_gpu + nd->gpus; g++)
            if (nd->type == t && b->holder[g] < 0) {
                free++;
                first = first < 0 ? g : first;
            }
        if (free < k)
            continue;
        jb->state = VIEW_RUNNING;
        jb->cur_type = t;
        jb->cur_gpus = k;
        jb->cur_nodes = 1;
        jb->cur_gpu_ids = &b->ids[first];
        jb->attained_service = 3600.0 * k;
        jb->restarts = j % 3;
        for (int g = first; g < first + k; g++) {
            b->ids[g] = g;
            b->holder[g] = j;
        }
        used[t] += k;
        return;
    }
}

static void build(bench_view_t *b, int n_jobs, int n_gpus)
{
    int scale = n_gpus / 64 > 0 ? n_gpus / 64 : 1;
    memset(b, 0, sizeof *b);
    b->nodes = calloc((size_t)11 * scale, sizeof *b->nodes);
    b->jobs = calloc((size_t)n_jobs, sizeof *b->jobs);
    add_nodes(b, scale);
    b->holder = malloc(sizeof(int) * (size_t)b->v.n_gpus);
    b->ids = malloc(sizeof(int) * (size_t)b->v.n_gpus);
    for (int g = 0; g < b->v.n_gpus; g++)
        b->holder[g] = -1;
    int used[NT] = {0, 0, 0};
    for (int j = 0; j < n_jobs; j++) {
        view_job_t *jb = &b->jobs[j];
        *jb = (view_job_t){.id = j,
                           .workload = j % CLASSES,
                           .workload_name = "bench",
                           .submit = j,
                           .priority = 1,
                           .deadline = INFINITY,
                           .duration_estimate = NAN,
                           .gpus_requested = 1 + j % 4,
                           .min_gpus = 1,
                           .max_gpus = 64,
                           .cur_type = -1,
                           .first_start = NAN,
                           .last_start = NAN,
                           .throughput = NAN,
                           .total_work = NAN,
                           .remaining_work = NAN,
                           .accum_steps = -1,
                           .grad_noise_scale = j % 4 == 3 ? NAN : 200.0 * (1 + j % 7),
                           .epoch = NAN};
        if (!isnan(jb->grad_noise_scale))
            start_job(b, j, j % NT, 1 << (j % 3), used);
    }
    b->perf = (view_perf_t){.ctx = b,
                            .throughput = b_tput,
                            .samples_throughput = b_samples,
                            .efficiency = b_eff,
                            .goodput = b_goodput,
                            .batch_limits = b_limits};
    b->v.now = 1e5;
    b->v.round_len = 60;
    b->v.reasons = MLS_WHY_ROUND;
    b->v.seed = 1;
    b->v.n_types = NT;
    b->v.types = b->types;
    b->v.nodes = b->nodes;
    b->v.gpu_holder = b->holder;
    b->v.n_jobs = n_jobs;
    b->v.jobs = b->jobs;
    b->v.perf = &b->perf;
}

static double now_ms(clockid_t c)
{
    struct timespec ts;
    clock_gettime(c, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

int main(int argc, char **argv)
{
    int jobs = argc > 1 ? atoi(argv[1]) : 2000;
    int gpus = argc > 2 ? atoi(argv[2]) : 2048;
    if (jobs < 1 || gpus < 64) {
        fprintf(stderr, "usage: sia_decide [JOBS >= 1 [GPUS >= 64 [KEY=VALUE...]]]\n");
        return 2;
    }
    bench_view_t b;
    build(&b, jobs, gpus);
    void *st = NULL;
    char err[256];
    enum { MAX_ARGS = 8 };
    const char *keys[MAX_ARGS], *vals[MAX_ARGS];
    char kv[MAX_ARGS][64];
    int n_args = 0;
    for (int i = 3; i < argc && n_args < MAX_ARGS; i++) { /* policy parameters */
        snprintf(kv[n_args], sizeof kv[n_args], "%s", argv[i]);
        char *eq = strchr(kv[n_args], '=');
        if (!eq) {
            fprintf(stderr, "sia_decide: %s: want KEY=VALUE\n", argv[i]);
            return 2;
        }
        *eq = 0;
        keys[n_args] = kv[n_args];
        vals[n_args] = eq + 1;
        n_args++;
    }
    policy_args_t args = {n_args, keys, vals, 0, NULL};
    if (sia_create(&st, &args, err, sizeof err)) {
        fprintf(stderr, "%s\n", err);
        return 1;
    }
    double times[4], cpu[4];
    int placed = 0, held = 0;
    for (int r = 0; r < 4; r++) {
        plan_t p;
        plan_init(&p);
        double t0 = now_ms(CLOCK_MONOTONIC), c0 = now_ms(CLOCK_PROCESS_CPUTIME_ID);
        if (sia_schedule(st, &b.v, &p, err, sizeof err)) {
            fprintf(stderr, "%s\n", err);
            return 1;
        }
        times[r] = now_ms(CLOCK_MONOTONIC) - t0;
        cpu[r] = now_ms(CLOCK_PROCESS_CPUTIME_ID) - c0;
        placed = p.n;
        held = 0;
        for (int k = 0; k < p.n; k++)
            held += p.allocs[k].gpus;
        plan_free(&p);
    }
    printf("sia: %d jobs, %d GPUs (%d configurations), ms wall / CPU: first %.1f / %.1f, next "
           "%.1f / %.1f mean; %d jobs given %d GPUs\n",
           jobs, b.v.n_gpus, sia_configs(&b.v, NULL, 0), times[0], cpu[0],
           (times[1] + times[2] + times[3]) / 3, (cpu[1] + cpu[2] + cpu[3]) / 3, placed, held);
    sia_destroy(st);
    free(b.nodes);
    free(b.jobs);
    free(b.holder);
    free(b.ids);
    return 0;
}
