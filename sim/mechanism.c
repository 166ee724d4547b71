/* mechanism.c: the shared mechanism (see mechanism.h): plan validation
 * against the view, GPU occupancy, and the one way a plan is carried out. */
#include "sim/mechanism.h"

#include "sim/placer.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct checker {
    const view_t *v;
    const plan_t *p;
    const char *policy;
    const int *gpu_node;     /* node of each GPU */
    unsigned char *seen_job; /* per view job */
    unsigned char *seen_gpu; /* per GPU */
    long *want;              /* GPUs planned per type */
    int skip_kept;           /* 1: no throughput query for a job's unchanged allocation */
    mls_err_t *err;
    int gangs;               /* view jobs of a gang (the mechanism's own view), -1 unknown */
    /* mech_apply's keep marks, written while each allocation's job is at
     * hand (NULL: a check alone) */
    int *alloc_of;
    unsigned char *keep;
    /* ... and, with them, mark_kept()'s tallies in the same pass: the
     * allocations not unchanged (plan order), pairs and kept batches seen */
    int *changed;
    int n_changed, pairs, any_rebatch;
    const long *type_up; /* GPUs up per type in the view, NULL: summed here */
} checker_t;

static int unchanged(const view_job_t *j, const plan_t *p, const plan_alloc_t *a);

static int fail_rule(const checker_t *c, const view_job_t *vj, const char *rule, const char *detail)
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

/* A gang's explicit GPUs lie in one island (a rack). */
static int check_island(const checker_t *c, const plan_alloc_t *a)
{
    const view_t *v = c->v;
    if (!a->has_ids || v->jobs[a->job].gang <= 0)
        return 0;
    int rack = v->nodes[c->gpu_node[c->p->ids[a->ids_off]]].rack;
    for (int i = 1; i < a->gpus; i++) {
        int g = c->p->ids[a->ids_off + i];
        if (v->nodes[c->gpu_node[g]].rack != rack) {
            char d[256];
            snprintf(d, sizeof d,
                     "a computation of gang %lld must lie in one island: GPU %d is in rack "
                     "%d, GPU %d in rack %d",
                     (long long)v->jobs[a->job].gang, c->p->ids[a->ids_off], rack, g,
                     v->nodes[c->gpu_node[g]].rack);
            return fail_rule(c, &v->jobs[a->job], "gang", d);
        }
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
    /* a running job planned on exactly what it runs, alone, at its batch, was
     * checked when it started and runs at a positive rate: not asked again */
    int same = c->skip_kept && vj->state != VIEW_QUEUED && vj->cur_type == a->type &&
               vj->cur_gpus == a->gpus && vj->cur_partner < 0 && a->pack_with < 0 &&
               a->batch_size == 0 && vj->throughput > 0;
    double r = same ? 1 : v->perf->throughput(v->perf->ctx, vj, a->type, a->gpus, 0, a->batch_size);
    if (!(r > 0)) {
        snprintf(d, sizeof d, "the perf model gives workload '%s' no throughput on %d %s GPUs",
                 vj->workload_name, a->gpus, v->types[a->type].name);
        return fail_rule(c, vj, "GPU type", d);
    }
    return check_ids(c, a, second) < 0 ? -1 : check_island(c, a);
}

typedef struct gang_member {
    int64_t gang;
    int k; /* view index */
} gang_member_t;

static int cmp_member(const void *a, const void *b)
{
    const gang_member_t *x = a, *y = b;
    if (x->gang != y->gang)
        return (x->gang > y->gang) - (x->gang < y->gang);
    return (x->k > y->k) - (x->k < y->k);
}

/* The computations of a gang in the view run all or none. */
static int check_gangs(const checker_t *c)
{
    const view_t *v = c->v;
    int n = 0;
    if (c->gangs == 0)
        return 0;
    for (int k = 0; k < v->n_jobs; k++)
        n += v->jobs[k].gang > 0;
    if (!n)
        return 0;
    gang_member_t *m = xmalloc(sizeof *m * (size_t)n);
    n = 0;
    for (int k = 0; k < v->n_jobs; k++)
        if (v->jobs[k].gang > 0)
            m[n++] = (gang_member_t){v->jobs[k].gang, k};
    qsort(m, (size_t)n, sizeof *m, cmp_member);
    int rc = 0;
    for (int i = 1; i < n && rc == 0; i++) {
        int a = m[i - 1].k, b = m[i].k;
        if (m[i].gang != m[i - 1].gang || c->seen_job[a] == c->seen_job[b])
            continue;
        int in = c->seen_job[a] ? a : b, out = c->seen_job[a] ? b : a;
        char d[256];
        snprintf(d, sizeof d,
                 "gang %lld runs all its computations or none: job %lld is planned, job %lld "
                 "is not",
                 (long long)v->jobs[in].gang, (long long)v->jobs[in].id,
                 (long long)v->jobs[out].id);
        rc = fail_rule(c, &v->jobs[out], "gang", d);
    }
    free(m);
    return rc;
}

static void view_type_up(const view_t *v, long *up)
{
    for (int t = 0; t < v->n_types; t++)
        up[t] = 0;
    for (int i = 0; i < v->n_nodes; i++)
        if (v->nodes[i].up)
            up[v->nodes[i].type] += v->nodes[i].gpus;
}

static int check_capacity(const checker_t *c)
{
    const view_t *v = c->v;
    long *up = c->want + v->n_types; /* GPUs on nodes that are up, per type */
    if (v->partial) /* a queued-only view: what the running jobs leave */
        for (int t = 0; t < v->n_types; t++)
            up[t] = v->types[t].free_gpus;
    else if (c->type_up)
        memcpy(up, c->type_up, sizeof *up * (size_t)v->n_types);
    else
        view_type_up(v, up);
    for (int t = 0; t < v->n_types; t++) {
        if (c->want[t] > up[t]) {
            char d[256];
            snprintf(d, sizeof d, "%ld %s GPUs planned, the cluster has %d (%ld %s)", c->want[t],
                     v->types[t].name, v->types[t].total_gpus, up[t],
                     v->partial ? "free" : "up");
            return fail_rule(c, NULL, "capacity", d);
        }
    }
    return 0;
}

/* A running job planned alone on exactly what it runs, alone, at its batch,
 * without ids, a first time in the plan, with a positive rate: check_alloc
 * passes it without asking anything (see there: checked when it started),
 * and it is unchanged (kept). Most allocations of a round-based policy. */
static inline int kept_as_is(const checker_t *c, const plan_alloc_t *a)
{
    const view_t *v = c->v;
    if (!c->skip_kept || a->job < 0 || a->job >= v->n_jobs || c->seen_job[a->job] ||
        a->pack_with != -1 || a->has_ids || a->batch_size != 0 || a->type < 0 ||
        a->type >= v->n_types)
        return 0;
    const view_job_t *vj = &v->jobs[a->job];
    return vj->state != VIEW_QUEUED && vj->cur_type == a->type && vj->cur_gpus == a->gpus &&
           vj->cur_partner == -1 && vj->throughput > 0 && a->gpus >= vj->min_gpus &&
           a->gpus <= vj->max_gpus;
}

/* The checker's work; its arrays are the caller's (scratch kept between
 * calls by mech_apply(), or fresh ones), zeroed here. */
static int check_plan(checker_t *c)
{
    const view_t *v = c->v;
    const plan_t *p = c->p;
    memset(c->seen_job, 0, (size_t)v->n_jobs + 1);
    memset(c->seen_gpu, 0, (size_t)v->n_gpus + 1);
    memset(c->want, 0, sizeof *c->want * (size_t)(2 * v->n_types + 1));
    int rc = 0;
    for (int i = 0; i < p->n && rc == 0; i++) {
        const plan_alloc_t *a = &p->allocs[i];
        if (kept_as_is(c, a)) { /* check_alloc's and the marks' answer, in short */
            c->seen_job[a->job] = 1;
            c->want[a->type] += a->gpus;
            if (c->keep) {
                c->alloc_of[a->job] = i;
                c->keep[a->job] = 1;
            }
            continue;
        }
        /* the second of a pair shares its partner's GPUs: counted once */
        int second = a->pack_with >= 0 && a->pack_with < v->n_jobs &&
                     plan_find(p, a->pack_with) >= 0 && plan_find(p, a->pack_with) < i;
        rc = check_alloc(c, a, second);
        if (rc == 0 && !second)
            c->want[a->type] += a->gpus;
        if (rc == 0 && c->keep) {
            c->alloc_of[a->job] = i;
            c->keep[a->job] = (unsigned char)unchanged(&v->jobs[a->job], p, a);
            c->pairs |= a->pack_with >= 0;
            c->any_rebatch |= c->keep[a->job] && a->batch_size;
            if (!c->keep[a->job])
                c->changed[c->n_changed++] = i;
        }
    }
    if (rc == 0)
        rc = check_gangs(c);
    if (rc == 0)
        rc = check_capacity(c);
    return rc;
}

static int *gpu_nodes_of(const view_t *v, int *gpu_node)
{
    for (int i = 0; i < v->n_nodes; i++)
        for (int g = 0; g < v->nodes[i].gpus; g++)
            gpu_node[v->nodes[i].first_gpu + g] = i;
    return gpu_node;
}

int mech_check_plan(const view_t *v, const plan_t *p, const char *policy, mls_err_t *err)
{
    int *gpu_node = gpu_nodes_of(v, xmalloc(sizeof(int) * (size_t)(v->n_gpus ? v->n_gpus : 1)));
    checker_t c = {v,
                   p,
                   policy,
                   gpu_node,
                   xmalloc((size_t)v->n_jobs + 1),
                   xmalloc((size_t)v->n_gpus + 1),
                   xmalloc(sizeof(long) * (size_t)(2 * v->n_types + 1)),
                   0,
                   err,
                   -1,
                   NULL,
                   NULL,
                   NULL,
                   0,
                   0,
                   0,
                   NULL};
    int rc = check_plan(&c);
    free(gpu_node);
    free(c.seen_job);
    free(c.seen_gpu);
    free(c.want);
    return rc;
}

/* ---- the view -------------------------------------------------------------- */

static void view_setup(mech_t *m)
{
    const mls_cluster_t *c = m->cluster;
    m->vtypes = xcalloc((size_t)c->n_types + 1, sizeof *m->vtypes);
    for (int t = 0; t < c->n_types; t++)
        m->vtypes[t] = (view_gpu_type_t){c->types[t].name, c->types[t].total_gpus,
                                         c->types[t].total_gpus, c->types[t].mem_gb};
    m->vnodes = xcalloc((size_t)c->n_nodes + 1, sizeof *m->vnodes);
    for (int i = 0; i < c->n_nodes; i++)
        m->vnodes[i] = (view_node_t){
            c->nodes[i].type, c->nodes[i].gpus,  c->nodes[i].first_gpu, c->nodes[i].rack, 1,
            c->nodes[i].cpus, c->nodes[i].mem_gb};
    for (int i = 0; i < c->n_nodes; i++) {
        m->cpus_per_gpu += (double)c->nodes[i].cpus / (c->n_gpus > 0 ? c->n_gpus : 1);
        m->mem_gb_per_gpu += c->nodes[i].mem_gb / (c->n_gpus > 0 ? c->n_gpus : 1);
    }
    m->vholder = xmalloc(sizeof(int) * (size_t)(c->n_gpus ? c->n_gpus : 1));
    m->vheld = xmalloc(sizeof(int) * (size_t)(c->n_gpus ? c->n_gpus : 1));
    for (int g = 0; g < c->n_gpus; g++)
        m->vheld[g] = -1;
    view_t *v = &m->view;
    v->n_types = c->n_types;
    v->types = m->vtypes;
    v->n_nodes = c->n_nodes;
    v->nodes = m->vnodes;
    v->n_gpus = c->n_gpus;
    v->gpu_holder = m->vholder;
}

view_job_t *mech_view_begin(mech_t *m, int n)
{
    xgrow((void **)&m->vjobs, &m->vjobs_cap, (size_t)n + 1, sizeof *m->vjobs);
    return m->vjobs;
}

/* What a full and a queued-only view share: free GPUs, nodes, time, history. */
static void view_common(mech_t *m, const view_job_t *jobs, int n, double now, unsigned reasons)
{
    const mls_cluster_t *c = m->cluster;
    for (int t = 0; t < c->n_types; t++)
        m->vtypes[t].free_gpus = m->type_free[t];
    view_t *v = &m->view;
    if (m->vnodes_stale) { /* the nodes and their sums change only with a node */
        for (int i = 0; i < c->n_nodes; i++)
            m->vnodes[i].up = m->node_up[i];
        view_type_up(v, m->vtype_up);
        m->vnodes_stale = 0;
    }
    v->now = now;
    v->reasons = reasons;
    v->round = v->round_len > 0 ? (int64_t)floor(now / v->round_len) : 0;
    v->n_jobs = n;
    v->jobs = jobs;
    v->n_finished = (int)m->n_finished;
    v->finished = m->finished;
}

void mech_view_end_queued(mech_t *m, view_job_t *jobs, int n, double now, unsigned reasons)
{
    m->view_gangs = 0;
    for (int k = 0; k < n; k++) {
        m->view_gangs += jobs[k].gang > 0;
        jobs[k].cur_partner = -1;
    }
    view_common(m, jobs, n, now, reasons);
    m->view.gpu_holder = m->vheld;
    m->view.partial = 1;
}

void mech_view_end(mech_t *m, int n, double now, unsigned reasons)
{
    const mls_cluster_t *c = m->cluster;
    memset(m->vholder, 0xff, sizeof(int) * (size_t)c->n_gpus); /* -1: none */
    m->view_gangs = 0;
    for (int k = 0; k < n; k++) {
        view_job_t *j = &m->vjobs[k];
        m->view_gangs += j->gang > 0;
        j->cur_partner = -1;
        for (int i = 0; j->state != VIEW_QUEUED && i < j->cur_gpus; i++) {
            int g = j->cur_gpu_ids[i], h = m->vholder[g];
            if (h >= 0 && h != k) { /* two jobs on one GPU: a pair */
                j->cur_partner = h;
                m->vjobs[h].cur_partner = k;
            }
            m->vholder[g] = k; /* a pair's later job */
        }
    }
    view_common(m, m->vjobs, n, now, reasons);
    m->view.gpu_holder = m->vholder;
    m->view.partial = 0;
}

void mech_finished_add(mech_t *m, const view_finished_t *f)
{
    xgrow((void **)&m->finished, &m->finished_cap, m->n_finished + 1, sizeof *m->finished);
    m->finished[m->n_finished++] = *f;
}

/* ---- occupancy ------------------------------------------------------------ */

void mech_init(mech_t *m, const mls_cluster_t *c, int accum_steps)
{
    memset(m, 0, sizeof *m);
    m->cluster = c;
    m->accum_steps = accum_steps;
    m->placement = MECH_PLACE_AUTO;
    size_t g = (size_t)(c->n_gpus ? c->n_gpus : 1), nn = (size_t)(c->n_nodes ? c->n_nodes : 1);
    size_t nt = (size_t)(c->n_types ? c->n_types : 1);
    m->owner = xmalloc(sizeof(int) * g);
    m->gpu_free = xmalloc(g);
    m->ids = xmalloc(sizeof(int) * 2 * g); /* a placement, and the GPUs a job left */
    for (int i = 0; i < c->n_gpus; i++) {
        m->owner[i] = -1;
        m->gpu_free[i] = 1;
    }
    m->node_free = xmalloc(sizeof(int) * nn);
    m->node_up = xmalloc(nn);
    for (int i = 0; i < c->n_nodes; i++) {
        m->node_free[i] = c->nodes[i].gpus;
        m->node_up[i] = 1;
    }
    m->type_free = xmalloc(sizeof(int) * nt);
    m->type_up = xmalloc(sizeof(int) * nt);
    for (int t = 0; t < c->n_types; t++)
        m->type_free[t] = m->type_up[t] = c->types[t].total_gpus;
    view_setup(m);
    m->vtype_up = xmalloc(sizeof(long) * (nt + 1));
    view_type_up(&m->view, m->vtype_up); /* every node up, as node_up */
    m->chk_gpu_node = gpu_nodes_of(&m->view, xmalloc(sizeof(int) * g));
    m->chk_seen_gpu = xmalloc(g + 1);
    m->chk_want = xmalloc(sizeof(long) * (2 * nt + 1));
}

void mech_free(mech_t *m)
{
    free(m->owner);
    free(m->gpu_free);
    free(m->ids);
    free(m->node_free);
    free(m->node_up);
    free(m->type_free);
    free(m->type_up);
    free(m->alloc_of);
    free(m->keep);
    free(m->changed);
    free(m->chk_gpu_node);
    free(m->chk_seen_gpu);
    free(m->chk_seen_job);
    free(m->chk_want);
    free(m->vjobs);
    free(m->vtypes);
    free(m->vnodes);
    free(m->vtype_up);
    free(m->vholder);
    free(m->vheld);
    free(m->finished);
    memset(m, 0, sizeof *m);
}

void mech_gpus_take(mech_t *m, int who, const int *ids, int n)
{
    const mls_cluster_t *c = m->cluster;
    for (int i = 0; i < n; i++) {
        int g = ids[i], node = c->gpu_node[g];
        m->owner[g] = who;
        if (!m->gpu_free[g])
            continue;
        m->gpu_free[g] = 0;
        m->vheld[g] = MLS_HELD_UNLISTED;
        m->node_free[node]--;
        m->type_free[c->nodes[node].type] -= m->node_up[node];
    }
}

void mech_gpus_give(mech_t *m, int who, const int *ids, int n)
{
    const mls_cluster_t *c = m->cluster;
    for (int i = 0; i < n; i++) {
        int g = ids[i], node = c->gpu_node[g];
        if (m->owner[g] != who || m->gpu_free[g])
            continue;
        m->owner[g] = -1;
        m->gpu_free[g] = 1;
        m->vheld[g] = -1;
        m->node_free[node]++;
        m->type_free[c->nodes[node].type] += m->node_up[node];
    }
}

void mech_gpus_pass(mech_t *m, int who, const int *ids, int n)
{
    for (int i = 0; i < n; i++)
        m->owner[ids[i]] = who;
}

void mech_node_set_up(mech_t *m, int node, int up)
{
    const mls_node_t *nd = &m->cluster->nodes[node];
    up = !!up;
    if (m->node_up[node] == up)
        return;
    m->node_up[node] = (unsigned char)up;
    m->vnodes_stale = 1;
    m->type_free[nd->type] += up ? m->node_free[node] : -m->node_free[node];
    m->type_up[nd->type] += up ? nd->gpus : -nd->gpus;
}

/* ---- carrying out a plan ----------------------------------------------------- */

static int apply_error(const view_t *v, int k, const char *policy, const char *rule,
                       const char *detail, mls_err_t *err)
{
    return mls_fail(err, "policy '%s' planned job %lld: %s: %s", policy, (long long)v->jobs[k].id,
                    rule, detail);
}

/* A running job keeps its GPUs when its allocation is unchanged: same type,
 * count and partner, and its explicit ids (if any) are the GPUs it holds. A
 * batch change alone is made in place. */
static int unchanged(const view_job_t *j, const plan_t *p, const plan_alloc_t *a)
{
    if (j->state == VIEW_QUEUED || j->cur_type != a->type || j->cur_gpus != a->gpus ||
        j->cur_partner != a->pack_with)
        return 0;
    return !a->has_ids || plan_ids_within(p, a, j->cur_gpu_ids, j->cur_gpus);
}

static void clear_marks(mech_t *m, int n)
{
    memset(m->alloc_of, 0xff, sizeof(int) * (size_t)n); /* -1: none */
    memset(m->keep, 0, (size_t)n);
}

/* Which running jobs keep their allocation: unchanged in the plan and, for a
 * pair, both members kept (any change to a pair restarts both). c: the plan
 * check that already wrote alloc_of, the unchanged marks and their tallies
 * (NULL: none did). */
static void mark_kept(mech_t *m, const view_t *v, const plan_t *p, const checker_t *c)
{
    int pairs = 0;
    if (c) {
        pairs = c->pairs;
        m->any_rebatch = c->any_rebatch;
        m->n_changed = c->n_changed;
    } else {
        clear_marks(m, v->n_jobs);
        m->n_changed = 0;
        m->any_rebatch = 0;
        for (int i = 0; i < p->n; i++) {
            const plan_alloc_t *a = &p->allocs[i];
            m->alloc_of[a->job] = i;
            m->keep[a->job] = (unsigned char)unchanged(&v->jobs[a->job], p, a);
            pairs |= a->pack_with >= 0;
            m->any_rebatch |= m->keep[a->job] && a->batch_size;
        }
    }
    if (!pairs) {
        for (int i = 0; !c && i < p->n; i++) /* the allocations that start, in plan order */
            if (!m->keep[p->allocs[i].job])
                m->changed[m->n_changed++] = i;
        return;
    }
    for (int i = 0; i < p->n; i++) { /* pairs are mutual (checked): kept only whole */
        const plan_alloc_t *a = &p->allocs[i];
        if (a->pack_with >= 0 && m->keep[a->job] && !m->keep[a->pack_with])
            m->keep[a->job] = 0;
    }
    m->n_changed = 0;
    for (int i = 0; i < p->n; i++) /* the allocations that start, in plan order */
        if (!m->keep[p->allocs[i].job])
            m->changed[m->n_changed++] = i;
}

/* Kept jobs whose plan changes only their batch change it in place. */
static void rebatch(const mech_t *m, const view_t *v, const plan_t *p, const mech_exec_ops_t *ops,
                    void *ctx)
{
    for (int k = 0; m->any_rebatch && k < v->n_jobs; k++) {
        if (!m->keep[k] || !p->allocs[m->alloc_of[k]].batch_size)
            continue;
        const view_job_t *j = &v->jobs[k];
        const plan_alloc_t *a = &p->allocs[m->alloc_of[k]];
        int accum = m->accum_steps ? a->accum_steps : j->accum_steps;
        if (a->batch_size && (a->batch_size != j->batch_size || accum != j->accum_steps))
            ops->rebatch(ctx, k, a->batch_size, accum);
    }
}

/* Every running job not kept stops, so that its GPUs are free for the starts. */
static void stop_changed(const mech_t *m, const view_t *v, const plan_t *p,
                         const mech_exec_ops_t *ops, void *ctx)
{
    for (int k = 0; k < v->n_jobs; k++) {
        const view_job_t *j = &v->jobs[k];
        if (m->keep[k] || j->state == VIEW_QUEUED)
            continue;
        const plan_alloc_t *a = m->alloc_of[k] >= 0 ? &p->allocs[m->alloc_of[k]] : NULL;
        ops->stop(ctx, k, !a ? MECH_PREEMPT : a->gpus != j->cur_gpus ? MECH_RESIZE : MECH_MIGRATE);
    }
    if (ops->stopped)
        ops->stopped(ctx);
}

int mech_same_gpus(const int *a, const int *b, int n)
{
    for (int i = 0; i < n; i++) {
        int found = 0;
        for (int k = 0; k < n && !found; k++)
            found = a[k] == b[i];
        if (!found)
            return 0;
    }
    return 1;
}

const char *mech_placement_name(int placement)
{
    static const char *const names[] = {"spread", "consolidate", "auto", "hold"};
    return placement >= 0 && placement < (int)(sizeof names / sizeof *names) ? names[placement]
                                                                              : NULL;
}

int mech_placement_parse(const char *name)
{
    for (int i = 0; mech_placement_name(i); i++)
        if (!strcmp(name, mech_placement_name(i)))
            return i;
    return -1;
}

/* Whether a placement of allocation a over `nodes` nodes waits instead
 * (m->placement): the job fits one node of its type that is up and, under
 * auto, the perf model rates it more than MECH_SPREAD_LOSS slower there than
 * on one node. */
static int waits_for_node(const mech_t *m, const view_t *v, const plan_alloc_t *a, int nodes)
{
    const mls_cluster_t *c = m->cluster;
    if (nodes <= 1 || m->placement == MECH_PLACE_SPREAD)
        return 0;
    int fits = 0;
    for (int i = 0; i < c->n_nodes && !fits; i++)
        fits = c->nodes[i].type == a->type && m->node_up[i] && c->nodes[i].gpus >= a->gpus;
    if (!fits || m->placement != MECH_PLACE_AUTO)
        return fits;
    const view_perf_t *vp = v->perf;
    if (!vp || !vp->throughput)
        return 1;
    const view_job_t *j = &v->jobs[a->job];
    double one = vp->throughput(vp->ctx, j, a->type, a->gpus, 1, a->batch_size);
    double spread = vp->throughput(vp->ctx, j, a->type, a->gpus, nodes, a->batch_size);
    return !(spread >= (1 - MECH_SPREAD_LOSS) * one);
}

/* Where allocation a of view job k goes: its explicit ids (which must be
 * free), the GPUs it left suspended, or the placer's choice. Returns the
 * nodes spanned, 0 when its start waits (waits_for_node), or -1 with err set. */
static int place(mech_t *m, const view_t *v, const plan_t *p, const plan_alloc_t *a,
                 const char *policy, const mech_exec_ops_t *ops, void *ctx, int *resumed,
                 mls_err_t *err)
{
    const mls_cluster_t *c = m->cluster;
    int *ids = m->ids, k = a->job;
    *resumed = 0;
    if (a->has_ids) {
        for (int i = 0; i < a->gpus; i++) {
            ids[i] = p->ids[a->ids_off + i];
            if (!m->gpu_free[ids[i]]) {
                char d[160];
                int h = v->gpu_holder ? v->gpu_holder[ids[i]] : -1;
                if (h >= 0 && m->keep[h])
                    snprintf(d, sizeof d, "GPU %d is held by job %lld, which keeps running", ids[i],
                             (long long)v->jobs[h].id);
                else
                    snprintf(d, sizeof d, "GPU %d is not free", ids[i]);
                return apply_error(v, k, policy, "capacity", d, err);
            }
        }
        /* the GPUs it left suspended, named explicitly: it resumes there */
        int *left = m->ids + a->gpus;
        *resumed = ops->resume_on && ops->resume_on(ctx, k, a, left) && mech_same_gpus(ids, left, a->gpus);
        return placer_nodes_spanned(c, ids, a->gpus);
    }
    if (ops->resume_on && ops->resume_on(ctx, k, a, ids)) {
        int free_all = 1;
        for (int i = 0; i < a->gpus && free_all; i++)
            free_all = m->gpu_free[ids[i]];
        if (free_all) {
            *resumed = 1;
            return placer_nodes_spanned(c, ids, a->gpus);
        }
    }
    if (v->jobs[k].gang > 0) { /* a computation of a gang: within one island */
        int nodes = placer_choose_island(c, m->node_free, m->gpu_free, m->node_up, a->type,
                                         a->gpus, ids);
        if (nodes < 0)
            return apply_error(v, k, policy, "gang",
                               "no island (rack) has enough free GPUs for this computation", err);
        return nodes;
    }
    int nodes = placer_choose(c, m->node_free, m->gpu_free, m->node_up, a->type, a->gpus, ids);
    if (nodes < 0)
        return apply_error(v, k, policy, "capacity", "not enough free GPUs", err);
    return waits_for_node(m, v, a, nodes) ? 0 : nodes;
}

/* Starts: explicit placements first (they name their GPUs), then the
 * placer's, then the second job of each pair, onto its partner's GPUs. */
static int start_planned(mech_t *m, const view_t *v, const plan_t *p, const char *policy,
                         const mech_exec_ops_t *ops, void *ctx, mls_err_t *err)
{
    int held = 0; /* MECH_PLACE_HOLD: a placer start waited */
    for (int pass = 0; pass < 3; pass++)
        for (int c = 0; c < m->n_changed; c++) {
            int i = m->changed[c];
            const plan_alloc_t *a = &p->allocs[i];
            int joiner = a->pack_with >= 0 && plan_find(p, a->pack_with) < i;
            if ((joiner ? 2 : a->has_ids ? 0 : 1) != pass)
                continue;
            if (held && pass == 1) {
                m->alloc_of[a->job] = -1;
                continue;
            }
            if (joiner) { /* alloc_of -1: its partner's start waits, so does its own */
                if (m->alloc_of[a->pack_with] >= 0 && ops->join(ctx, a->job, a, err) < 0)
                    return -1;
                continue;
            }
            int resumed, nodes = place(m, v, p, a, policy, ops, ctx, &resumed, err);
            if (nodes == 0) {
                m->alloc_of[a->job] = -1;
                held = m->placement == MECH_PLACE_HOLD;
            } else if (nodes < 0 || ops->start(ctx, a->job, a, m->ids, nodes, resumed, err) < 0)
                return -1;
        }
    return 0;
}

int mech_apply(mech_t *m, const view_t *v, const plan_t *p, const char *policy,
               const mech_exec_ops_t *ops, void *ctx, mls_err_t *err)
{
    if ((size_t)v->n_jobs + 1 > m->jobs_cap) {
        m->jobs_cap = (size_t)v->n_jobs * 2 + 16;
        m->alloc_of = xrealloc(m->alloc_of, sizeof(int) * m->jobs_cap);
        m->keep = xrealloc(m->keep, m->jobs_cap);
        m->changed = xrealloc(m->changed, sizeof(int) * m->jobs_cap);
        m->chk_seen_job = xrealloc(m->chk_seen_job, m->jobs_cap);
    }
    /* the mechanism's own view (the cluster's GPUs and types): its scratch fits */
    int own = v == &m->view;
    checker_t c = {v,   p,   policy, m->chk_gpu_node, m->chk_seen_job, m->chk_seen_gpu, m->chk_want,
                   own, err, own ? m->view_gangs : -1, m->alloc_of, m->keep, m->changed, 0, 0, 0,
                   own ? m->vtype_up : NULL};
    if (own)
        clear_marks(m, v->n_jobs);
    if ((own ? check_plan(&c) : mech_check_plan(v, p, policy, err)) < 0 ||
        (ops->can_do && ops->can_do(ctx, v, p, err) < 0))
        return -1;
    mark_kept(m, v, p, own ? &c : NULL);
    rebatch(m, v, p, ops, ctx);
    stop_changed(m, v, p, ops, ctx);
    return start_planned(m, v, p, policy, ops, ctx, err);
}

int mech_decide(mech_t *m, const policy_ops_t *policy, void *pstate, plan_t *plan,
                const mech_exec_ops_t *ops, void *ctx, double *secs, mls_err_t *err)
{
    char perr[512] = "";
    plan_clear(plan);
    double t0 = mls_wall_seconds();
    int rc = m->view.partial ? policy->schedule_queued(pstate, &m->view, plan, perr, sizeof perr)
                             : policy->schedule(pstate, &m->view, plan, perr, sizeof perr);
    *secs = mls_wall_seconds() - t0;
    if (rc == MLS_DECIDE_FULL && m->view.partial)
        return MLS_DECIDE_FULL;
    if (rc < 0)
        return mls_fail(err, "policy '%s' failed at t=%.3f s: %s", policy->name, m->view.now,
                        perr[0] ? perr : "(no message)");
    return mech_apply(m, &m->view, plan, policy->name, ops, ctx, err);
}
