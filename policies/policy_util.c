/* policy_util.c: orderings, GPU-type choice and greedy filling shared by the
 * policies (see policy_util.h). Reads only the view. */
#include "policies/policy_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *pu_alloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "mlsched: out of memory in a policy\n");
        abort();
    }
    return p;
}

void pu_room_init(pu_room_t *r, const view_t *v)
{
    r->n_types = v->n_types;
    r->room = pu_alloc((size_t)v->n_types, sizeof *r->room);
    r->node_max = pu_alloc((size_t)v->n_types, sizeof *r->node_max);
    if (v->n_nodes <= 0 || !v->nodes || v->partial) {
        for (int t = 0; t < v->n_types; t++)
            r->room[t] = v->partial ? v->types[t].free_gpus : v->types[t].total_gpus;
        for (int k = 0; k < v->n_nodes && v->nodes; k++) {
            const view_node_t *nd = &v->nodes[k];
            if (nd->type >= 0 && nd->type < v->n_types && nd->gpus > r->node_max[nd->type])
                r->node_max[nd->type] = nd->gpus;
        }
        return;
    }
    for (int k = 0; k < v->n_nodes; k++) {
        const view_node_t *nd = &v->nodes[k];
        if (nd->type >= 0 && nd->type < v->n_types && nd->gpus > r->node_max[nd->type])
            r->node_max[nd->type] = nd->gpus;
        if (nd->up && nd->type >= 0 && nd->type < v->n_types)
            r->room[nd->type] += nd->gpus;
    }
}

void pu_room_free(pu_room_t *r)
{
    free(r->room);
    free(r->node_max);
    r->room = r->node_max = NULL;
    r->n_types = 0;
}

int pu_room_total(const pu_room_t *r)
{
    int s = 0;
    for (int t = 0; t < r->n_types; t++)
        s += r->room[t];
    return s;
}

static int nodes_for(int biggest, int gpus)
{
    if (biggest <= 0 || gpus <= biggest)
        return 1;
    return (gpus + biggest - 1) / biggest;
}

int pu_min_nodes(const view_t *v, int type, int gpus)
{
    int biggest = 0;
    for (int k = 0; k < v->n_nodes; k++)
        if (v->nodes[k].type == type && v->nodes[k].gpus > biggest)
            biggest = v->nodes[k].gpus;
    return nodes_for(biggest, gpus);
}

/* pu_rate(); with a room tracker, the fewest nodes from its per-type node
 * sizes instead of a scan of every node. */
static double rate_in(const view_t *v, const pu_room_t *r, int job, int type)
{
    if (!v->perf || !v->perf->throughput)
        return NAN;
    const view_job_t *j = &v->jobs[job];
    int g = j->gpus_requested;
    int nodes = r ? nodes_for(r->node_max[type], g) : pu_min_nodes(v, type, g);
    return v->perf->throughput(v->perf->ctx, j, type, g, nodes, 0);
}

double pu_rate(const view_t *v, int job, int type)
{
    return rate_in(v, NULL, job, type);
}

/* A type the job may use: big enough and not known to be unable to run it. */
static int usable(const view_t *v, const pu_room_t *r, int job, int type, double *rate)
{
    int g = v->jobs[job].gpus_requested;
    if (g <= 0 || g > v->types[type].total_gpus)
        return 0;
    *rate = rate_in(v, r, job, type);
    return isnan(*rate) || *rate > 0;
}

double pu_best_rate(const view_t *v, int job)
{
    double best = NAN, r;
    for (int t = 0; t < v->n_types; t++)
        if (usable(v, NULL, job, t, &r) && !isnan(r) && (isnan(best) || r > best))
            best = r;
    return best;
}

static int ever_fits_in(const view_t *v, const pu_room_t *room, int job)
{
    double r;
    for (int t = 0; t < v->n_types; t++)
        if (usable(v, room, job, t, &r))
            return 1;
    return 0;
}

int pu_ever_fits(const view_t *v, int job)
{
    return ever_fits_in(v, NULL, job);
}

typedef struct type_rank {
    double rate; /* NAN = unknown */
    int type;
} type_rank_t;

static int cmp_type_rank(const void *pa, const void *pb)
{
    const type_rank_t *a = pa, *b = pb;
    int ua = isnan(a->rate), ub = isnan(b->rate);
    if (ua != ub)
        return ua - ub; /* known rates first */
    if (!ua && a->rate != b->rate)
        return a->rate > b->rate ? -1 : 1;
    return a->type - b->type;
}

static int type_order_in(const view_t *v, const pu_room_t *room, int job, int *order)
{
    type_rank_t *rk = pu_alloc((size_t)v->n_types, sizeof *rk);
    int n = 0;
    for (int t = 0; t < v->n_types; t++) {
        double r;
        if (usable(v, room, job, t, &r))
            rk[n++] = (type_rank_t){r, t};
    }
    qsort(rk, (size_t)n, sizeof *rk, cmp_type_rank);
    for (int i = 0; i < n; i++)
        order[i] = rk[i].type;
    free(rk);
    return n;
}

int pu_type_order(const view_t *v, int job, int *order)
{
    return type_order_in(v, NULL, job, order);
}

typedef struct sort_item {
    double key, submit;
    int64_t id;
    int idx;
} sort_item_t;

static int cmp_double_nan_last(double a, double b)
{
    int na = isnan(a), nb = isnan(b);
    if (na || nb)
        return na - nb;
    return a < b ? -1 : a > b ? 1 : 0;
}

static int cmp_sort_item(const void *pa, const void *pb)
{
    const sort_item_t *a = pa, *b = pb;
    int c = cmp_double_nan_last(a->key, b->key);
    if (c)
        return c;
    c = cmp_double_nan_last(a->submit, b->submit);
    if (c)
        return c;
    return a->id < b->id ? -1 : a->id > b->id ? 1 : 0;
}

static int item_less(const sort_item_t *a, const sort_item_t *b)
{
    return cmp_sort_item(a, b) < 0;
}

/* (key, submit, id) is a total order: the result is qsort's */
PU_DEFINE_MERGE_SORT(merge_sort, sort_item_t, item_less)

void pu_sort(const view_t *v, const double *key, int *idx, int n)
{
    sort_item_t *it = pu_alloc((size_t)n * 2, sizeof *it);
    for (int i = 0; i < n; i++) {
        const view_job_t *j = &v->jobs[idx[i]];
        it[i] = (sort_item_t){key ? key[idx[i]] : 0.0, j->submit, j->id, idx[i]};
    }
    merge_sort(it, it + n, n);
    for (int i = 0; i < n; i++)
        idx[i] = it[i].idx;
    free(it);
}

void pu_arrival_order(const view_t *v, int *idx)
{
    int sorted = 1;
    for (int i = 0; i < v->n_jobs; i++) {
        idx[i] = i;
        if (i && (v->jobs[i].submit < v->jobs[i - 1].submit ||
                  (v->jobs[i].submit == v->jobs[i - 1].submit &&
                   v->jobs[i].id < v->jobs[i - 1].id)))
            sorted = 0;
    }
    if (!sorted) /* the mechanism gives (submit, id) order; sort only if not */
        pu_sort(v, NULL, idx, v->n_jobs);
}

int pu_keep(const view_t *v, pu_room_t *r, plan_t *p, int job)
{
    const view_job_t *j = &v->jobs[job];
    if (!pu_holds(j) || j->cur_type >= r->n_types || r->room[j->cur_type] < j->cur_gpus)
        return 0;
    plan_run(p, job, j->cur_type, j->cur_gpus);
    r->room[j->cur_type] -= j->cur_gpus;
    return 1;
}

int pu_start(const view_t *v, pu_room_t *r, plan_t *p, int job)
{
    int g = v->jobs[job].gpus_requested;
    int *order = pu_alloc((size_t)v->n_types, sizeof *order);
    int n = type_order_in(v, r, job, order), placed = 0;
    for (int i = 0; i < n && !placed; i++) {
        if (r->room[order[i]] >= g) {
            plan_run(p, job, order[i], g);
            r->room[order[i]] -= g;
            placed = 1;
        }
    }
    free(order);
    return placed;
}

int pu_place(const view_t *v, pu_room_t *r, plan_t *p, int job)
{
    const view_job_t *j = &v->jobs[job];
    if (j->cur_gpus == j->gpus_requested && pu_keep(v, r, p, job))
        return 1;
    return pu_start(v, r, p, job);
}

void pu_fill(const view_t *v, const int *order, int n, plan_t *p)
{
    pu_room_t r;
    pu_room_init(&r, v);
    for (int i = 0; i < n && pu_room_total(&r) > 0; i++)
        if (ever_fits_in(v, &r, order[i]))
            pu_place(v, &r, p, order[i]);
    pu_room_free(&r);
}

int pu_fill_queued(const view_t *v, const int *order, int n, plan_t *p)
{
    if (n <= 0) /* nothing queued: every running job runs on */
        return 1;
    pu_room_t r;
    pu_room_init(&r, v);
    int *types = pu_alloc((size_t)v->n_types, sizeof *types), ok = 1;
    for (int i = 0; i < n && ok; i++) {
        int job = order[i], g = v->jobs[job].gpus_requested;
        if (!ever_fits_in(v, &r, job))
            continue;
        ok = type_order_in(v, &r, job, types) > 0 && r.room[types[0]] >= g;
        if (ok) {
            plan_run(p, job, types[0], g);
            r.room[types[0]] -= g;
        }
    }
    free(types);
    pu_room_free(&r);
    return ok;
}

int pu_create_noargs(const char *policy, void **state, const policy_args_t *args, char *err,
                     size_t errlen)
{
    static const char *const none[] = {NULL};
    *state = NULL;
    return policy_args_check(args, none, policy, err, errlen);
}
