/* bench/exec_decide.c: protocol time of an external (exec:) policy per
 * decision, at a given number of active jobs.
 *
 * Builds one synthetic view: three GPU types of 8-GPU nodes (GPUS in all),
 * JOBS active 1-GPU jobs, the first GPUS of them running (so their attained
 * service, work and throughput change at every decision), the rest queued;
 * a perf model that answers a fixed rate per (workload, type). Starts the
 * policy through policy_resolve() (as simulate and live serve do) and makes
 * DECISIONS decisions, advancing time and the running jobs' progress between
 * them. Reports per decision the wall time from sending the view to reading
 * the plan, the policy's own time as it reports it (the Python binding: time
 * in schedule() less its waits for perf answers), and their difference, the
 * protocol: writing and reading the view and the plan on both sides, the
 * pipe, and any perf round trips. The first decision (every job's static
 * fields) is reported apart.
 *     make bench/exec_decide && bench/exec_decide 'exec:examples/policies/las.py' 2000 */
#include "sim/policy_exec.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TYPES 3
#define PER_NODE 8

static double rate(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch)
{
    (void)ctx;
    (void)nodes;
    (void)batch;
    return gpus * (10.0 + j->workload) * (1.0 + 0.5 * type);
}

typedef struct bench {
    view_gpu_type_t types[TYPES];
    view_node_t *nodes;
    view_job_t *jobs;
    int *ids;
    view_perf_t perf;
    view_t v;
} bench_t;

static void build(bench_t *b, int n_jobs, int gpus)
{
    static const char *const names[TYPES] = {"v100", "p100", "k80"};
    int per_type = gpus / TYPES / PER_NODE * PER_NODE, n_nodes = per_type / PER_NODE * TYPES;
    b->nodes = calloc((size_t)n_nodes, sizeof *b->nodes);
    for (int k = 0; k < n_nodes; k++)
        b->nodes[k] = (view_node_t){k % TYPES, PER_NODE, k * PER_NODE, k / 4, 1, 64, 512};
    for (int t = 0; t < TYPES; t++)
        b->types[t] = (view_gpu_type_t){names[t], per_type, 0, 16};
    int held = per_type * TYPES;
    b->ids = calloc((size_t)held + 1, sizeof *b->ids);
    b->jobs = calloc((size_t)n_jobs, sizeof *b->jobs);
    for (int i = 0; i < n_jobs; i++) {
        int run = i < held;
        if (run)
            b->ids[i] = i;
        b->jobs[i] = (view_job_t){.id = i,
                                  .user = i % 7,
                                  .workload = i % 11,
                                  .workload_name = "w",
                                  .submit = i * 3.5,
                                  .priority = 1,
                                  .deadline = INFINITY,
                                  .duration_estimate = NAN,
                                  .gpus_requested = 1,
                                  .min_gpus = 1,
                                  .max_gpus = 1,
                                  .state = run ? VIEW_RUNNING : VIEW_QUEUED,
                                  .cur_type = run ? b->nodes[i / PER_NODE].type : -1,
                                  .cur_gpus = run,
                                  .cur_nodes = run,
                                  .cur_gpu_ids = run ? &b->ids[i] : NULL,
                                  .cur_partner = -1,
                                  .first_start = run ? 0 : NAN,
                                  .last_start = run ? 0 : NAN,
                                  .throughput = run ? 12.5 : NAN,
                                  .total_work = NAN,
                                  .remaining_work = NAN,
                                  .accum_steps = -1,
                                  .grad_noise_scale = NAN,
                                  .epoch = NAN,
                                  .cpus = 8,
                                  .mem_gb = 64};
    }
    b->perf = (view_perf_t){.throughput = rate};
    b->v = (view_t){.round_len = 360,
                    .reasons = MLS_WHY_ROUND,
                    .seed = 1,
                    .n_types = TYPES,
                    .types = b->types,
                    .n_nodes = n_nodes,
                    .nodes = b->nodes,
                    .n_gpus = n_nodes * PER_NODE,
                    .n_jobs = n_jobs,
                    .jobs = b->jobs,
                    .perf = &b->perf};
}

/* 360 s pass: running jobs progress. */
static void advance(bench_t *b)
{
    b->v.now += 360;
    b->v.round++;
    for (int i = 0; i < b->v.n_jobs; i++) {
        view_job_t *j = &b->jobs[i];
        if (j->cur_gpus) {
            j->attained_time += 360;
            j->attained_service += 360 * j->cur_gpus;
            j->work_done += 360 * 12.5 + i * 1e-3;
        }
    }
}

int main(int argc, char **argv)
{
    const char *spec = argc > 1 ? argv[1] : "exec:examples/policies/las.py";
    int n_jobs = argc > 2 ? atoi(argv[2]) : 2000, gpus = argc > 3 ? atoi(argv[3]) : 96;
    int decisions = argc > 4 ? atoi(argv[4]) : 50;
    if (n_jobs < 1 || gpus < TYPES * PER_NODE || decisions < 2) {
        fprintf(stderr, "usage: exec_decide [SPEC [JOBS [GPUS [DECISIONS]]]]\n");
        return 2;
    }
    bench_t b;
    memset(&b, 0, sizeof b);
    build(&b, n_jobs, gpus);
    policy_ref_t ref;
    mls_err_t err;
    void *st = NULL;
    char perr[512];
    if (policy_resolve(spec, NULL, &ref, &err) < 0) {
        fprintf(stderr, "exec_decide: %s\n", err.msg);
        return 1;
    }
    if (ref.ops->create && ref.ops->create(&st, &ref.args, perr, sizeof perr) < 0) {
        fprintf(stderr, "exec_decide: %s\n", perr);
        return 1;
    }
    plan_t plan;
    plan_init(&plan);
    long n0;
    double t0, own0, t1, own1;
    for (int d = 0; d < decisions; d++) {
        plan_clear(&plan);
        if (ref.ops->schedule(st, &b.v, &plan, perr, sizeof perr) < 0) {
            fprintf(stderr, "exec_decide: %s\n", perr);
            return 1;
        }
        if (d == 0)
            policy_exec_stats(&ref, &n0, &t0, &own0);
        advance(&b);
    }
    policy_exec_stats(&ref, &n0, &t1, &own1);
    int k = decisions - 1;
    printf("%s: %d active jobs, %d GPUs, %d decisions\n", spec, n_jobs, b.v.n_gpus, decisions);
    printf("  first decision: %.3f ms in all, %.3f ms policy, %.3f ms protocol\n", 1e3 * t0,
           1e3 * own0, 1e3 * (t0 - own0));
    printf("  next %d: %.3f ms in all, %.3f ms policy, %.3f ms protocol per decision\n", k,
           1e3 * (t1 - t0) / k, 1e3 * (own1 - own0) / k, 1e3 * ((t1 - t0) - (own1 - own0)) / k);
    if (ref.ops->destroy)
        ref.ops->destroy(st);
    policy_release(&ref);
    plan_free(&plan);
    free(b.nodes);
    free(b.jobs);
    free(b.ids);
    return 0;
}
