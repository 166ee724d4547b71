/* engine_fixture.c: in-memory test inputs for the engine (see engine_fixture.h). */
#include "tests/engine_fixture.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

typedef struct fixture_perf {
    mls_perf_t base;
    int n;
    double rates[16];
    char names[16][16];
} fixture_perf_t;

static int fp_n_workloads(const mls_perf_t *pm)
{
    return ((const fixture_perf_t *)pm)->n;
}

static const char *fp_workload_name(const mls_perf_t *pm, int w)
{
    return ((const fixture_perf_t *)pm)->names[w];
}

static int fp_n_types(const mls_perf_t *pm)
{
    (void)pm;
    return 2;
}

static const char *fp_type_name(const mls_perf_t *pm, int t)
{
    (void)pm;
    return t == 0 ? "v100" : "k80";
}

static double fp_throughput(const mls_perf_t *pm, int w, int t, int gpus, int nodes, int batch)
{
    (void)nodes;
    (void)batch;
    const fixture_perf_t *f = (const fixture_perf_t *)pm;
    return f->rates[w] * gpus * (t == 0 ? 1.0 : 0.5);
}

/* Pairs share at 0.6 of each one's solo rate; workload 2 cannot share. */
static int fp_pair(const mls_perf_t *pm, int a, int b, int t, int gpus, double out[2])
{
    if (a == 2 || b == 2)
        return -1;
    out[0] = 0.6 * fp_throughput(pm, a, t, gpus, 1, 0);
    out[1] = 0.6 * fp_throughput(pm, b, t, gpus, 1, 0);
    return 0;
}

static void fp_destroy(mls_perf_t *pm)
{
    free(pm->source);
    free(pm);
}

static const perf_ops_t fixture_ops = {.backend = "fixture",
                                       .n_workloads = fp_n_workloads,
                                       .workload_name = fp_workload_name,
                                       .n_gpu_types = fp_n_types,
                                       .gpu_type_name = fp_type_name,
                                       .throughput = fp_throughput,
                                       .pair = fp_pair,
                                       .destroy = fp_destroy};

mls_perf_t *fixture_perf(int n_workloads, const double *rates)
{
    fixture_perf_t *f = xcalloc(1, sizeof *f);
    f->base.ops = &fixture_ops;
    f->base.source = xstrdup("fixture");
    f->n = n_workloads;
    for (int i = 0; i < n_workloads; i++) {
        f->rates[i] = rates[i];
        snprintf(f->names[i], sizeof f->names[i], "w%d", i);
    }
    return &f->base;
}

void fixture_cluster(mls_cluster_t *c, int n_nodes, int gpus_per_node)
{
    memset(c, 0, sizeof *c);
    c->name = xstrdup("fixture");
    c->source = xstrdup("fixture");
    c->n_types = 1;
    c->types = xcalloc(1, sizeof *c->types);
    snprintf(c->types[0].name, sizeof c->types[0].name, "v100");
    c->types[0].total_gpus = n_nodes * gpus_per_node;
    c->types[0].n_nodes = n_nodes;
    c->types[0].mem_gb = 16;
    c->n_nodes = n_nodes;
    c->nodes = xcalloc((size_t)n_nodes, sizeof *c->nodes);
    c->n_gpus = n_nodes * gpus_per_node;
    c->gpu_node = xmalloc(sizeof(int) * (size_t)c->n_gpus);
    for (int i = 0; i < n_nodes; i++) {
        mls_node_t *nd = &c->nodes[i];
        snprintf(nd->name, sizeof nd->name, "n%d", i);
        nd->type = 0;
        nd->gpus = gpus_per_node;
        nd->first_gpu = i * gpus_per_node;
        nd->gpu_mem_gb = 16;
        for (int g = 0; g < gpus_per_node; g++)
            c->gpu_node[nd->first_gpu + g] = i;
    }
}

void fixture_job(mls_trace_t *t, int64_t id, double submit, int wl, int gpus, double work)
{
    char name[16];
    snprintf(name, sizeof name, "w%d", wl);
    mls_job_t j = {0};
    j.id = id;
    j.submit = submit;
    j.user = strtab_intern(&t->users, id % 2 ? "alice" : "bob");
    j.workload = strtab_intern(&t->workloads, name);
    j.gpus = j.min_gpus = j.max_gpus = gpus;
    j.work = work;
    j.duration = NAN;
    j.priority = 1;
    j.deadline = INFINITY;
    trace_add(t, &j);
}
