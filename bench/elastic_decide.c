/* bench/elastic_decide.c: decision time of elastic-dp, elastic-fixed-batch
 * (Saxena et al.'s dynamic program) and autoscale (Or et al.) with many active
 * jobs.
 *
 * One synthetic view: a homogeneous cluster of 4-GPU nodes, JOBS active
 * elastic jobs (1..64 GPUs) of six classes whose goodput follows Pollux's
 * model (iteration time with per-class constants, efficiency
 * (phi + M0) / (phi + M)) with batch limits (M0 128, up to 4096, 32..256 per
 * GPU), each at some epoch; the first jobs run on 1, 2 or 4 GPUs of one node
 * until half the GPUs are held, at their model throughput. Per policy, wall
 * clock and CPU time: the first schedule() call (cold: every job's worths computed), the
 * mean of three more calls on the same view (warm: the worths cached), and a
 * call after every job has moved to its next epoch (every cache entry stale:
 * the worst call). Deterministic inputs. Each line ends with a digest of
 * the four plans (job, GPUs, batch, accumulation of every allocation) and
 * the number of throughput calls the policy made, so that a faster version
 * can be shown to plan alike.
 *     make bench/elastic_decide && bench/elastic_decide [JOBS [GPUS [POLICY]]] */
#include "policies/policies.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define PER_NODE 4
#define CLASSES 6

typedef struct bench_view {
    long calls;       /* throughput calls */
    int *rec, rec_on; /* the calls' (job, gpus, nodes, batch) while rec_on */
    long n_rec, rec_cap;
    view_gpu_type_t type;
    view_node_t *nodes;
    view_job_t *jobs;
    int *holder, *ids;
    view_perf_t perf;
    view_t v;
} bench_view_t;

/* Samples/s x efficiency of class w on k GPUs over n nodes, per-GPU batch b
 * (split into micro-batches of at most 256). */
static double goodput(const view_job_t *j, int k, int n, int b)
{
    if (k < 1 || b < 32 || (double)b * k > 4096)
        return 0;
    int s = (b + 255) / 256 - 1;
    double m = (double)b / (s + 1), t_grad = 0.02 * (1 + j->workload) + 2e-4 * m;
    double t_sync = k == 1 ? 0 : n > 1 ? 0.05 + 0.01 * (k - 2) : 0.01 + 0.002 * (k - 2);
    double t = s * t_grad + pow(pow(t_grad, 1.5) + pow(t_sync, 1.5), 1 / 1.5);
    double phi = 200.0 * (1 + (j->id % 7)) * (1 + j->epoch);
    return (double)k * b / t * (phi + 128) / (phi + (double)k * b);
}

static double b_tput(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch)
{
    (void)type;
    ((bench_view_t *)ctx)->calls++;
    if (nodes < 1)
        nodes = (gpus + PER_NODE - 1) / PER_NODE;
    if (batch <= 0)
        batch = j->batch_size > 0 ? j->batch_size : (128 / gpus > 32 ? 128 / gpus : 32);
    bench_view_t *b = ctx;
    if (b->rec_on) {
        if (b->n_rec == b->rec_cap) {
            b->rec_cap = b->rec_cap ? 2 * b->rec_cap : 4096;
            b->rec = realloc(b->rec, sizeof(int) * 4 * (size_t)b->rec_cap);
        }
        int *r = b->rec + 4 * b->n_rec++;
        r[0] = (int)(j - b->jobs), r[1] = gpus, r[2] = nodes, r[3] = batch;
    }
    return goodput(j, gpus, nodes, batch);
}

static int b_limits(void *ctx, const view_job_t *j, int type, view_batch_limits_t *out)
{
    (void)ctx, (void)j, (void)type;
    *out = (view_batch_limits_t){128, 4096, 32, 256, 50000};
    return 0;
}

static void build(bench_view_t *b, int n_jobs, int n_gpus)
{
    int n_nodes = n_gpus / PER_NODE;
    memset(b, 0, sizeof *b);
    b->type = (view_gpu_type_t){"t4", n_nodes * PER_NODE, 0, 16};
    b->nodes = calloc((size_t)n_nodes, sizeof *b->nodes);
    b->jobs = calloc((size_t)n_jobs, sizeof *b->jobs);
    b->holder = malloc(sizeof(int) * (size_t)n_nodes * PER_NODE);
    b->ids = malloc(sizeof(int) * (size_t)n_nodes * PER_NODE);
    for (int k = 0; k < n_nodes; k++)
        b->nodes[k] = (view_node_t){0, PER_NODE, k * PER_NODE, 0, 1, 48, 192};
    for (int g = 0; g < n_nodes * PER_NODE; g++)
        b->holder[g] = -1;
    b->perf = (view_perf_t){.ctx = b, .throughput = b_tput, .batch_limits = b_limits};
    int next = 0;
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
                           .accum_steps = -1,
                           .epoch = j % 10,
                           .grad_noise_scale = NAN};
        jb->first_start = jb->last_start = jb->throughput = NAN;
        jb->total_work = jb->remaining_work = NAN;
        int k = 1 << (j % 3);
        if (next % PER_NODE + k > PER_NODE)
            next += PER_NODE - next % PER_NODE;
        if (next + k <= n_nodes * PER_NODE / 2) {
            jb->state = VIEW_RUNNING;
            jb->cur_type = 0;
            jb->cur_gpus = k;
            jb->cur_nodes = 1;
            jb->cur_gpu_ids = &b->ids[next];
            jb->batch_size = 128 / k > 32 ? 128 / k : 32;
            jb->throughput = b_tput(b, jb, 0, k, 1, 0);
            for (int i = 0; i < k; i++) {
                b->ids[next] = next;
                b->holder[next++] = j;
            }
        }
    }
    b->v = (view_t){.now = 100000,
                    .round_len = 60,
                    .seed = 1,
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

static double now_s(clockid_t c)
{
    struct timespec t;
    clock_gettime(c, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

typedef struct took {
    double wall, cpu; /* ms */
} took_t;

/* FNV-1a over the plan's allocations, folded into *h. */
static void digest(const plan_t *p, unsigned long long *h)
{
    for (int i = 0; i < p->n; i++) {
        const plan_alloc_t *a = &p->allocs[i];
        int f[5] = {a->job, a->type, a->gpus, a->batch_size, a->accum_steps};
        for (int q = 0; q < 5; q++) {
            *h ^= (unsigned long long)(unsigned)f[q];
            *h *= 1099511628211ULL;
        }
    }
}

/* Wall and CPU time of one call (the policies are single-threaded: on an
 * idle machine the two agree; on a loaded one the CPU time varies less). */
static took_t timed(const policy_ops_t *ops, void *st, const view_t *v, plan_t *p,
                    unsigned long long *h)
{
    char err[256] = "";
    plan_clear(p);
    double t0 = now_s(CLOCK_MONOTONIC), c0 = now_s(CLOCK_PROCESS_CPUTIME_ID);
    if (ops->schedule(st, v, p, err, sizeof err) < 0) {
        fprintf(stderr, "elastic_decide: %s: %s\n", ops->name, err);
        exit(1);
    }
    took_t t = {(now_s(CLOCK_MONOTONIC) - t0) * 1e3, (now_s(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1e3};
    digest(p, h);
    return t;
}

/* CPU ms the model takes to answer again the throughput calls recorded
 * during the first decision, so that the decision's time can be split into
 * the model's and the policy's own. */
static double replay_ms(bench_view_t *b)
{
    double c0 = now_s(CLOCK_PROCESS_CPUTIME_ID), sum = 0;
    for (long i = 0; i < b->n_rec; i++) {
        const int *r = b->rec + 4 * i;
        sum += goodput(&b->jobs[r[0]], r[1], r[2], r[3]);
    }
    double ms = (now_s(CLOCK_PROCESS_CPUTIME_ID) - c0) * 1e3;
    return sum >= 0 ? ms : -ms;
}

int main(int argc, char **argv)
{
    int n_jobs = argc > 1 ? atoi(argv[1]) : 2000;
    int n_gpus = argc > 2 ? atoi(argv[2]) : 2000;
    const char *only = argc > 3 ? argv[3] : NULL;
    if (n_jobs < 1 || n_gpus < PER_NODE) {
        fprintf(stderr, "usage: elastic_decide [JOBS [GPUS [POLICY]]]\n");
        return 2;
    }
    const char *names[] = {"elastic-dp", "elastic-fixed-batch", "autoscale"};
    for (int i = 0; i < 3; i++) {
        if (only && strcmp(only, names[i]) != 0)
            continue;
        bench_view_t b;
        build(&b, n_jobs, n_gpus);
        const policy_ops_t *ops = policy_find(names[i]);
        void *st = NULL;
        char err[256] = "";
        policy_args_t none = {0, NULL, NULL, 0, NULL};
        if (!ops || ops->create(&st, &none, err, sizeof err) < 0) {
            fprintf(stderr, "elastic_decide: %s: %s\n", names[i], err);
            return 2;
        }
        plan_t p;
        plan_init(&p);
        unsigned long long h = 14695981039346656037ULL;
        b.rec_on = 1;
        took_t cold = timed(ops, st, &b.v, &p, &h), warm = {0, 0};
        b.rec_on = 0;
        int placed = p.n, gpus = 0;
        for (int k = 0; k < p.n; k++)
            gpus += p.allocs[k].gpus;
        for (int r = 1; r <= 3; r++) {
            b.v.now += 60;
            took_t t = timed(ops, st, &b.v, &p, &h);
            warm.wall += t.wall / 3;
            warm.cpu += t.cpu / 3;
        }
        for (int j = 0; j < n_jobs; j++)
            b.jobs[j].epoch += 1;
        took_t stale = timed(ops, st, &b.v, &p, &h);
        printf("%-20s %d jobs, %d GPUs (%d jobs placed on %d GPUs), ms wall / CPU: first %.1f / "
               "%.1f, next (mean) %.2f / %.2f, all epochs changed %.1f / %.1f; plans %016llx, "
               "%ld throughput calls\n",
               names[i], n_jobs, b.v.n_gpus, placed, gpus, cold.wall, cold.cpu, warm.wall, warm.cpu,
               stale.wall, stale.cpu, h, b.calls);
        printf("  (of the first decision, %.1f ms CPU are the model's %ld throughput calls)\n",
               replay_ms(&b), b.n_rec);
        free(b.rec);
        plan_free(&p);
        ops->destroy(st);
        free(b.nodes);
        free(b.jobs);
        free(b.holder);
        free(b.ids);
    }
    return 0;
}
