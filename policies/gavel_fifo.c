/* gavel_fifo.c: FIFO as Gavel's simulator runs it (`gavel-fifo`), beside our
 * own `fifo` (strict arrival order, each job on the GPUs it asked for).
 *
 * Narayanan et al., OSDI 2020: the FIFO baseline of its evaluation, as its
 * code has it (stanford-futuredata/gavel c4fa400, scheduler/policies/fifo.py,
 * FIFOPolicy in its default "base" mode, read, not copied), fed to Gavel's
 * round mechanism (policies/gavel_round.h). It is another algorithm than
 * the FIFO the paper describes, and mlsched keeps it only to reproduce
 * Gavel's numbers (issue 17). At each recompute:
 *   - a job keeps the GPU type it was given for as long as it runs (the
 *     allocation is remembered across recomputes);
 *   - the allocated jobs are visited in id order: each one still running
 *     takes its GPU count from its type's capacity; the type of one that
 *     finished goes to the queue's head (the lowest-id unallocated job) when
 *     the head's GPU count is at most what that type has left at that point
 *     of the visit (so a type can be over-allocated) and the head has a
 *     throughput there;
 *   - the other queued jobs, in id order, while some type has GPUs left:
 *     the types with GPUs left are listed in name order; a job that fits
 *     none of them ends the pass; otherwise it draws a random index among
 *     the types it fits, but is given the LAST listed type (Gavel's loop
 *     variable), fits or not, when it has a throughput there; when that
 *     type's count reaches exactly 0, the type at the drawn index leaves the
 *     list (a random one, not necessarily the exhausted one);
 *   - each allocated job's row is X = 1 on its type, every other job's 0.
 * Gavel's mechanism then runs the rows by priority: rows with X = 0 never
 * run (as for fifo-perf), jobs over-allocated on a type share it round-robin
 * through their priorities (many preemptions), and the types are visited in
 * a shuffled order each round (Gavel shuffles for all but its Perf and
 * Packing policies).
 *
 * Parameters: recompute_interval (default 1920 s), new_jobs and
 * received_start (gavel_round.h); `--like gavel` sets Gavel's values.
 *
 * Randomness as Gavel's (policies/pyrandom.h): the draw is Python's
 * random.Random(seed).randrange, the round's type order Python's shuffle of
 * [v100, p100, k80] from random.Random(seed + 5), seed the run's --seed (as
 * Gavel's --seed); the same seed gives Gavel's draws as long as the calls
 * come in the same order. Simplifications: capacity is the
 * cluster's total GPUs of a type (Gavel's cluster_spec); throughput is the
 * view's on the fewest nodes (with --spread-rate consolidated, on one node,
 * as Gavel's); Gavel's jobs that fail when fewer steps than GPUs remain are
 * the engine's (--round-end steps, which --like gavel sets). Two departures where Gavel's run would
 * hang: a job that fits no type of the cluster is passed over (Gavel's queue
 * stops at it for good), and a job whose last listed type has fewer GPUs in
 * all than it needs takes the drawn type instead (Gavel's would never run). */
#include "policies/gavel_round.h"
#include "policies/idmap.h"
#include "policies/policies.h"
#include "policies/policy_util.h"
#include "policies/pyrandom.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gf_alloc {
    int64_t id;
    int type, gpus;
} gf_alloc_t;

typedef struct gf_state {
    gr_state_t *round;
    double interval;
    pyrandom_t *rng; /* Gavel's FIFOPolicy draws, seeded at the first call */
    gf_alloc_t *alloc; /* the jobs given a type, kept across recomputes */
    int n_alloc;
    size_t alloc_cap;
} gf_state_t;

int gavel_fifo_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    static const char *const known[] = {"recompute_interval", "new_jobs", "received_start", "rules",
                                        "shortcuts", NULL};
    *state = NULL;
    double interval;
    gr_opts_t opts;
    if (policy_args_check(args, known, "gavel-fifo", err, errlen) ||
        policy_arg_double(args, "recompute_interval", 1920.0, &interval, err, errlen) ||
        gr_opts_parse(args, "gavel-fifo", &opts, err, errlen))
        return -1;
    if (!(interval >= 0)) {
        snprintf(err, errlen, "gavel-fifo: recompute_interval must be >= 0 (got %g)", interval);
        return -1;
    }
    gf_state_t *s = pu_alloc(1, sizeof *s);
    s->interval = interval;
    s->round = gr_create();
    gr_set_opts(s->round, &opts);
    *state = s;
    return 0;
}

void gavel_fifo_destroy(void *state)
{
    gf_state_t *s = state;
    if (!s)
        return;
    gr_destroy(s->round);
    free(s->rng);
    free(s->alloc);
    free(s);
}

static int cmp_alloc(const void *pa, const void *pb)
{
    const gf_alloc_t *a = pa, *b = pb;
    return (a->id > b->id) - (a->id < b->id);
}

static void give(gf_state_t *s, const view_t *v, int j, int t, long *avail)
{
    if ((size_t)s->n_alloc == s->alloc_cap) {
        s->alloc_cap = s->alloc_cap ? 2 * s->alloc_cap : 64;
        gf_alloc_t *a = pu_alloc(s->alloc_cap, sizeof *a);
        if (s->n_alloc)
            memcpy(a, s->alloc, sizeof *a * (size_t)s->n_alloc);
        free(s->alloc);
        s->alloc = a;
    }
    s->alloc[s->n_alloc++] = (gf_alloc_t){v->jobs[j].id, t, v->jobs[j].gpus_requested};
    avail[t] -= v->jobs[j].gpus_requested;
}

/* The types with GPUs left, by name (Gavel sorts its type names). */
static int list_types(const view_t *v, const long *avail, int *types)
{
    int n = 0;
    for (int t = 0; t < v->n_types; t++) {
        if (avail[t] <= 0)
            continue;
        int i = n++;
        while (i > 0 && strcmp(v->types[types[i - 1]].name, v->types[t].name) > 0) {
            types[i] = types[i - 1];
            i--;
        }
        types[i] = t;
    }
    return n;
}

/* The allocated jobs in id order: a running one keeps its type (and takes
 * its GPUs from what is left); a finished one's type goes to the queue's
 * head when the head fits what is left of it at that point and has a
 * throughput there. vidx: the view's ids (index = view index). Returns how
 * many queued jobs were taken from the head. */
static int visit_allocated(gf_state_t *s, const view_t *v, const idmap_t *vidx, const int *queue,
                           int nq, long *avail)
{
    if (s->n_alloc > 1)
        qsort(s->alloc, (size_t)s->n_alloc, sizeof *s->alloc, cmp_alloc);
    int n0 = s->n_alloc, head = 0;
    gf_alloc_t *old = pu_alloc((size_t)(n0 ? n0 : 1), sizeof *old);
    if (n0)
        memcpy(old, s->alloc, sizeof *old * (size_t)n0);
    s->n_alloc = 0;
    for (int i = 0; i < n0; i++) {
        int t = old[i].type;
        if (idmap_get(vidx, old[i].id) >= 0) {
            s->alloc[s->n_alloc++] = old[i];
            avail[t] -= old[i].gpus;
        } else if (head < nq && v->jobs[queue[head]].gpus_requested <= avail[t] &&
                   pu_rate(v, queue[head], t) > 0) {
            give(s, v, queue[head++], t, avail);
        }
    }
    free(old);
    return head;
}

/* The queued jobs after the head, while some type has GPUs left (see the top). */
static void fill_queue(gf_state_t *s, const view_t *v, const int *queue, int head, int nq,
                       long *avail)
{
    int T = v->n_types;
    int *types = pu_alloc((size_t)T + 1, sizeof *types), *fits = pu_alloc((size_t)T + 1, sizeof *fits);
    int nt = list_types(v, avail, types);
    while (head < nq && nt > 0) {
        int j = queue[head++], g = v->jobs[j].gpus_requested, nf = 0;
        if (!pu_ever_fits(v, j))
            continue; /* Gavel's queue would stop here for good */
        for (int i = 0; i < nt; i++)
            if (avail[types[i]] >= g)
                fits[nf++] = i;
        if (nf == 0)
            break;
        int drawn = fits[pyrandom_below(s->rng, (uint32_t)nf)], t = types[nt - 1];
        if (v->types[t].total_gpus < g)
            t = types[drawn]; /* Gavel's job would never run there */
        if (!(pu_rate(v, j, t) > 0))
            continue;
        give(s, v, j, t, avail);
        if (avail[t] == 0) {
            memmove(types + drawn, types + drawn + 1, sizeof *types * (size_t)(nt - drawn - 1));
            nt--;
        }
    }
    free(types);
    free(fits);
}

/* Gavel's FIFO allocation: x[k * n_types + t] = 1 for each allocated job. */
static void allocate(gf_state_t *s, const view_t *v, double *x)
{
    int T = v->n_types, n = v->n_jobs;
    long *avail = pu_alloc((size_t)T + 1, sizeof *avail);
    for (int t = 0; t < T; t++)
        avail[t] = v->types[t].total_gpus;
    idmap_t vidx; /* id -> view index (put in view order) */
    idmap_init(&vidx);
    for (int k = 0; k < n; k++)
        idmap_put(&vidx, v->jobs[k].id);
    unsigned char *held = pu_alloc((size_t)n + 1, 1);
    for (int i = 0; i < s->n_alloc; i++) {
        int k = idmap_get(&vidx, s->alloc[i].id);
        if (k >= 0)
            held[k] = 1;
    }
    int *queue = pu_alloc((size_t)n + 1, sizeof *queue), nq = 0;
    pu_arrival_order(v, queue);
    for (int i = 0; i < n; i++)
        if (!held[queue[i]])
            queue[nq++] = queue[i];
    int head = visit_allocated(s, v, &vidx, queue, nq, avail);
    fill_queue(s, v, queue, head, nq, avail);
    for (int i = 0; i < s->n_alloc; i++)
        x[(size_t)idmap_get(&vidx, s->alloc[i].id) * T + s->alloc[i].type] = 1.0;
    idmap_free(&vidx);
    free(queue);
    free(held);
    free(avail);
}

int gavel_fifo_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    gf_state_t *s = state;
    if (!s->rng) { /* Gavel: FIFOPolicy(seed), its scheduler's type shuffler seed + 5 */
        s->rng = pu_alloc(1, sizeof *s->rng);
        pyrandom_seed(s->rng, v->seed);
        gr_set_python_shuffle(s->round, v->seed + 5);
    }
    gr_begin(s->round, v);
    if (gr_need_recompute(s->round, v, s->interval)) {
        int n = v->n_jobs, T = v->n_types;
        double *x = pu_alloc((size_t)n * T + 1, sizeof *x);
        int(*rows)[2] = pu_alloc((size_t)n + 1, sizeof *rows);
        allocate(s, v, x);
        for (int k = 0; k < n; k++) {
            rows[k][0] = k;
            rows[k][1] = -1;
        }
        gr_set_allocation(s->round, v, n, (const int(*)[2])rows, x);
        free(rows);
        free(x);
    }
    gr_fill(s->round, v, plan, 1, 1);
    return 0;
}
