/* mechanism.c: plan validation against the view (see mechanism.h). */
#include "mechanism.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct checker {
    const view_t *v;
    const plan_t *p;
    const char *policy;
    int *gpu_node;           /* node of each GPU */
    unsigned char *seen_job; /* per view job */
    unsigned char *seen_gpu; /* per GPU */
    long *want;              /* GPUs planned per type */
    mls_err_t *err;
} checker_t;

static int fail_rule(const checker_t *c, const view_job_t *vj, const char *rule,
                     const char *detail)
{
    if (vj)
        return mls_fail(c->err, "policy '%s' planned job %lld: %s: %s", c->policy,
                        (long long)vj->id, rule, detail);
    return mls_fail(c->err, "policy '%s': %s: %s", c->policy, rule, detail);
}

static int check_pair(const checker_t *c, const plan_alloc_t *a)
{
    const view_t *v = c->v;
    const plan_t *p = c->p;
    const view_job_t *vj = &v->jobs[a->job];
    char d[256];
    int k = a->pack_with < 0 || a->pack_with >= v->n_jobs ? -1 : plan_find(p, a->pack_with);
    if (k < 0 || a->pack_with == a->job) {
        snprintf(d, sizeof d, "packs with view job %d, which has no allocation in the plan",
                 a->pack_with);
        return fail_rule(c, vj, "space sharing", d);
    }
    const plan_alloc_t *b = &p->allocs[k];
    const view_job_t *vb = &v->jobs[b->job];
    if (b->pack_with != a->job || b->type != a->type || b->gpus != a->gpus) {
        snprintf(d, sizeof d,
                 "job %lld must pack with it in return, on the same GPU type and count",
                 (long long)vb->id);
        return fail_rule(c, vj, "space sharing", d);
    }
    if (a->has_ids && b->has_ids &&
        memcmp(&p->ids[a->ids_off], &p->ids[b->ids_off], sizeof(int) * (size_t)a->gpus)) {
        snprintf(d, sizeof d, "job %lld is given other GPU ids", (long long)vb->id);
        return fail_rule(c, vj, "space sharing", d);
    }
    double r[2] = {0, 0};
    const view_perf_t *pf = v->perf;
    if (!pf->pair_throughput || pf->pair_throughput(pf->ctx, vj, vb, a->type, a->gpus, r) < 0 ||
        !(r[0] > 0) || !(r[1] > 0)) {
        snprintf(d, sizeof d, "the perf model does not let it share %d %s GPUs with job %lld",
                 a->gpus, v->types[a->type].name, (long long)vb->id);
        return fail_rule(c, vj, "space sharing", d);
    }
    return 0;
}

static int check_ids(const checker_t *c, const plan_alloc_t *a, int second)
{
    const view_t *v = c->v;
    const view_job_t *vj = &v->jobs[a->job];
    char d[256];
    for (int i = 0; a->has_ids && i < a->gpus; i++) {
        int g = c->p->ids[a->ids_off + i];
        if (g < 0 || g >= v->n_gpus) {
            snprintf(d, sizeof d, "GPU id %d does not exist (0..%d)", g, v->n_gpus - 1);
            return fail_rule(c, vj, "placement", d);
        }
        const view_node_t *nd = &v->nodes[c->gpu_node[g]];
        if (nd->type != a->type) {
            snprintf(d, sizeof d, "GPU %d is a %s, not a %s", g, v->types[nd->type].name,
                     v->types[a->type].name);
            return fail_rule(c, vj, "GPU type", d);
        }
        if (!nd->up) {
            snprintf(d, sizeof d, "GPU %d is on node %d, which has failed", g, c->gpu_node[g]);
            return fail_rule(c, vj, "placement", d);
        }
        if (!second && c->seen_gpu[g]) {
            snprintf(d, sizeof d, "GPU %d is given to two jobs", g);
            return fail_rule(c, vj, "capacity", d);
        }
        c->seen_gpu[g] = 1;
    }
    return 0;
}

static int check_alloc(const checker_t *c, const plan_alloc_t *a, int second)
{
    const view_t *v = c->v;
    char d[256];
    if (a->job < 0 || a->job >= v->n_jobs) {
        snprintf(d, sizeof d, "job index %d is not in the view (0..%d)", a->job, v->n_jobs - 1);
        return fail_rule(c, NULL, "unknown job", d);
    }
    const view_job_t *vj = &v->jobs[a->job];
    if (c->seen_job[a->job])
        return fail_rule(c, vj, "one allocation per job", "the job appears twice");
    c->seen_job[a->job] = 1;
    if (a->type < 0 || a->type >= v->n_types) {
        snprintf(d, sizeof d, "GPU type index %d does not exist", a->type);
        return fail_rule(c, vj, "GPU type", d);
    }
    if (a->gpus < vj->min_gpus || a->gpus > vj->max_gpus) {
        snprintf(d, sizeof d, "%d GPUs given, the job runs on %d..%d", a->gpus, vj->min_gpus,
                 vj->max_gpus);
        return fail_rule(c, vj, "gang", d);
    }
    if (a->pack_with != -1 && check_pair(c, a) < 0)
        return -1;
    double r = v->perf->throughput(v->perf->ctx, vj, a->type, a->gpus, 0, a->batch_size);
    if (!(r > 0)) {
        snprintf(d, sizeof d, "the perf model gives workload '%s' no throughput on %d %s GPUs",
                 vj->workload_name, a->gpus, v->types[a->type].name);
        return fail_rule(c, vj, "GPU type", d);
    }
    return check_ids(c, a, second);
}

static int check_capacity(const checker_t *c)
{
    const view_t *v = c->v;
    for (int t = 0; t < v->n_types; t++) {
        long up = 0;
        for (int i = 0; i < v->n_nodes; i++)
            if (v->nodes[i].type == t && v->nodes[i].up)
                up += v->nodes[i].gpus;
        if (c->want[t] > up) {
            char d[256];
            snprintf(d, sizeof d, "%ld %s GPUs planned, the cluster has %d (%ld up)",
                     c->want[t], v->types[t].name, v->types[t].total_gpus, up);
            return fail_rule(c, NULL, "capacity", d);
        }
    }
    return 0;
}

int mech_check_plan(const view_t *v, const plan_t *p, const char *policy, mls_err_t *err)
{
    checker_t c = {v, p, policy, NULL, NULL, NULL, NULL, err};
    c.gpu_node = xmalloc(sizeof(int) * (size_t)(v->n_gpus ? v->n_gpus : 1));
    for (int i = 0; i < v->n_nodes; i++)
        for (int g = 0; g < v->nodes[i].gpus; g++)
            c.gpu_node[v->nodes[i].first_gpu + g] = i;
    c.seen_job = xcalloc((size_t)v->n_jobs + 1, 1);
    c.seen_gpu = xcalloc((size_t)v->n_gpus + 1, 1);
    c.want = xcalloc((size_t)v->n_types + 1, sizeof *c.want);
    int rc = 0;
    for (int i = 0; i < p->n && rc == 0; i++) {
        const plan_alloc_t *a = &p->allocs[i];
        /* the second of a pair shares its partner's GPUs: counted once */
        int second = a->pack_with >= 0 && a->pack_with < v->n_jobs &&
                     plan_find(p, a->pack_with) >= 0 && plan_find(p, a->pack_with) < i;
        rc = check_alloc(&c, a, second);
        if (rc == 0 && !second)
            c.want[a->type] += a->gpus;
    }
    if (rc == 0)
        rc = check_capacity(&c);
    free(c.gpu_node);
    free(c.seen_job);
    free(c.seen_gpu);
    free(c.want);
    return rc;
}
