/* gavel_assign.c: gl_assign (gavel_lp.h), the min-cost assignment of jobs to
 * capacitated slots that AlloX solves at each decision, by successive
 * shortest paths on the slots.
 *
 * The problem is a min-cost flow: source -> job (capacity 1) -> slot (cost
 * c_js) -> sink (capacity cap_s). Successive shortest paths adds one job per
 * step along a cheapest augmenting path of the residual graph; with no
 * negative cycle at the start (empty flow) each step keeps the flow optimal
 * for its value, so after all jobs are in, the total cost is the optimum
 * (the same as the transportation LP's, whose vertices are integral). There
 * are few slots and many jobs, so paths are found on the slots alone: slot a
 * reaches slot b by moving one of a's jobs i to b, at cost c_ib - c_ia (the
 * cheapest such i), and the path starts with a free job j entering a slot s
 * at cost c_js (the cheapest free job per slot). Bellman-Ford on those S
 * slots finds the path. Each pair of slots keeps a heap of its candidate
 * moves (a job entering a slot pushes S entries; one leaving goes stale and
 * is dropped when it surfaces), so a step costs O(S^2) for the paths plus
 * O(S log m) per job placed or moved, against GLPK's simplex on m * S
 * columns before.
 *
 * Ties: among equal costs the lower slot and the lower job index win, so the
 * result is deterministic; it can be a different optimal assignment from the
 * one GLPK's simplex returned before (same total cost). */
#include "gavel_lp.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Candidate moves from one slot to another, a binary min-heap on (cost,
 * job); entries whose job has left the slot are dropped when they surface. */
typedef struct move {
    double d;
    int i;
} move_t;

typedef struct move_heap {
    move_t *e;
    int n, cap;
} move_heap_t;

typedef struct asg {
    int m, S;
    const double *cost; /* cost[j * S + s]; not finite: forbidden */
    const int *cap;
    int *slot_of; /* per job, -1 while free */
    int *count;   /* jobs per slot */
    int *order;   /* per slot: jobs by increasing cost (S * m) */
    int *next;    /* per slot: first entry of order that may still be free */
    double *w;    /* w[a * S + b]: cheapest move of a job from a to b */
    int *via;     /* the job that achieves it */
    unsigned char *dirty; /* slot whose w row must be refreshed */
    move_heap_t *heap;    /* heap[a * S + b]: a's jobs (and stale ones) by move cost */
} asg_t;

static void *xalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "mlsched: out of memory in the assignment solver\n");
        abort();
    }
    return p;
}

/* One job's cost in a slot, for sorting a slot's jobs by (cost, index). */
typedef struct cost_key {
    double c;
    int j;
} cost_key_t;

static int cmp_key(const void *pa, const void *pb)
{
    const cost_key_t *a = pa, *b = pb;
    if (a->c != b->c)
        return a->c < b->c ? -1 : 1;
    return a->j - b->j;
}

static void sort_slots(asg_t *g)
{
    cost_key_t *k = xalloc((size_t)g->m, sizeof *k);
    for (int s = 0; s < g->S; s++) {
        int n = 0;
        for (int j = 0; j < g->m; j++) {
            double c = g->cost[(size_t)j * g->S + s];
            if (isfinite(c))
                k[n++] = (cost_key_t){c, j};
        }
        qsort(k, (size_t)n, sizeof *k, cmp_key);
        for (int i = 0; i < g->m; i++)
            g->order[(size_t)s * g->m + i] = i < n ? k[i].j : -1;
    }
    free(k);
}

/* The cheapest free job for slot s (-1: none); skips jobs already placed. */
static int cheapest_free(asg_t *g, int s)
{
    const int *ord = &g->order[(size_t)s * g->m];
    while (g->next[s] < g->m && ord[g->next[s]] >= 0 && g->slot_of[ord[g->next[s]]] >= 0)
        g->next[s]++;
    return g->next[s] < g->m ? ord[g->next[s]] : -1;
}

static int move_less(move_t x, move_t y)
{
    return x.d < y.d || (x.d == y.d && x.i < y.i);
}

static void heap_push(move_heap_t *h, move_t m)
{
    if (h->n == h->cap) {
        h->cap = h->cap ? 2 * h->cap : 8;
        h->e = realloc(h->e, (size_t)h->cap * sizeof *h->e);
        if (!h->e) {
            fprintf(stderr, "mlsched: out of memory in the assignment solver\n");
            abort();
        }
    }
    int k = h->n++;
    while (k > 0 && move_less(m, h->e[(k - 1) / 2])) {
        h->e[k] = h->e[(k - 1) / 2];
        k = (k - 1) / 2;
    }
    h->e[k] = m;
}

static void heap_pop(move_heap_t *h)
{
    move_t last = h->e[--h->n];
    int k = 0;
    for (;;) {
        int c = 2 * k + 1;
        if (c >= h->n)
            break;
        if (c + 1 < h->n && move_less(h->e[c + 1], h->e[c]))
            c++;
        if (!move_less(h->e[c], last))
            break;
        h->e[k] = h->e[c];
        k = c;
    }
    if (h->n > 0)
        h->e[k] = last;
}

/* Refreshes row a of w from its heaps: the cheapest move of a job still in a. */
static void update_row(asg_t *g, int a)
{
    int S = g->S;
    for (int b = 0; b < S; b++) {
        move_heap_t *h = &g->heap[(size_t)a * S + b];
        while (h->n > 0 && g->slot_of[h->e[0].i] != a)
            heap_pop(h);
        g->w[(size_t)a * S + b] = h->n > 0 ? h->e[0].d : INFINITY;
        g->via[(size_t)a * S + b] = h->n > 0 ? h->e[0].i : -1;
    }
    g->dirty[a] = 0;
}

/* Job i enters slot b: its moves to every other slot join b's heaps. */
static void join(asg_t *g, int i, int b)
{
    int S = g->S;
    const double *c = &g->cost[(size_t)i * S];
    g->slot_of[i] = b;
    g->count[b]++;
    g->dirty[b] = 1;
    for (int s = 0; s < S; s++)
        if (s != b && isfinite(c[s]))
            heap_push(&g->heap[(size_t)b * S + s], (move_t){c[s] - c[b], i});
}

/* Job i leaves its slot (its heap entries go stale). */
static void leave(asg_t *g, int i)
{
    int a = g->slot_of[i];
    g->count[a]--;
    g->dirty[a] = 1;
    g->slot_of[i] = -1;
}

/* Bellman-Ford from the source over the slots; dist/pred/entry filled.
 * pred[s] = -1: entered directly by the free job entry[s]. */
static void shortest_paths(asg_t *g, double *dist, int *pred, int *entry)
{
    int S = g->S;
    for (int s = 0; s < S; s++) {
        entry[s] = cheapest_free(g, s);
        dist[s] = entry[s] >= 0 ? g->cost[(size_t)entry[s] * S + s] : INFINITY;
        pred[s] = -1;
    }
    for (int pass = 0; pass < S; pass++) {
        int changed = 0;
        for (int a = 0; a < S; a++) {
            if (!isfinite(dist[a]) || g->count[a] == 0)
                continue;
            for (int b = 0; b < S; b++) {
                double d = dist[a] + g->w[(size_t)a * S + b];
                /* a strict improvement beyond rounding: no cycles from noise */
                double slack = isinf(dist[b]) ? 0 : 1e-12 * (1.0 + fabs(dist[b]));
                if (d < dist[b] - slack) {
                    dist[b] = d;
                    pred[b] = a;
                    changed = 1;
                }
            }
        }
        if (!changed)
            break;
    }
}

/* Adds one job along the cheapest path; 0 when no job can be added. */
static int augment(asg_t *g, double *dist, int *pred, int *entry, int *path)
{
    int S = g->S;
    for (int s = 0; s < S; s++)
        if (g->dirty[s])
            update_row(g, s);
    shortest_paths(g, dist, pred, entry);
    int target = -1;
    for (int s = 0; s < S; s++)
        if (g->count[s] < g->cap[s] && isfinite(dist[s]) && (target < 0 || dist[s] < dist[target]))
            target = s;
    if (target < 0)
        return 0;
    int len = 0;
    for (int s = target; s >= 0 && len <= S; s = pred[s])
        path[len++] = s;
    if (len > S || pred[path[len - 1]] >= 0)
        return 0; /* a cycle: cannot happen without noise */
    /* path[len-1] is entered by its free job; each later slot by a move. */
    int moves[2 * 64], *mv = len <= 64 ? moves : xalloc((size_t)len * 2, sizeof *mv);
    for (int k = len - 1; k > 0; k--) {
        int a = path[k], b = path[k - 1];
        mv[2 * k] = g->via[(size_t)a * S + b];
        mv[2 * k + 1] = b;
    }
    int first = path[len - 1], j0 = entry[first];
    for (int k = len - 1; k > 0; k--) {
        int i = mv[2 * k], b = mv[2 * k + 1];
        leave(g, i);
        join(g, i, b);
    }
    join(g, j0, first);
    if (mv != moves)
        free(mv);
    return 1;
}

int gl_assign(int n_jobs, int n_slots, const double *cost, const int *slot_cap, int *slot_of,
              char *err, size_t errlen)
{
    asg_t g = {n_jobs, n_slots, cost, slot_cap, slot_of, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    int S = n_slots;
    g.count = xalloc((size_t)S, sizeof *g.count);
    g.order = xalloc((size_t)S * (size_t)n_jobs, sizeof *g.order);
    g.next = xalloc((size_t)S, sizeof *g.next);
    g.w = xalloc((size_t)S * (size_t)S, sizeof *g.w);
    g.via = xalloc((size_t)S * (size_t)S, sizeof *g.via);
    g.dirty = xalloc((size_t)S, 1);
    g.heap = xalloc((size_t)S * (size_t)S, sizeof *g.heap);
    double *dist = xalloc((size_t)S, sizeof *dist);
    int *pred = xalloc((size_t)S, sizeof *pred), *entry = xalloc((size_t)S, sizeof *entry);
    int *path = xalloc((size_t)S + 1, sizeof *path);
    for (int j = 0; j < n_jobs; j++)
        slot_of[j] = -1;
    for (int s = 0; s < S; s++)
        g.dirty[s] = 1;
    sort_slots(&g);
    int placed = 0;
    while (placed < n_jobs && augment(&g, dist, pred, entry, path))
        placed++;
    int rc = 0;
    if (placed < n_jobs) {
        snprintf(err, errlen, "the assignment is infeasible (%d of %d jobs placed)", placed,
                 n_jobs);
        rc = -1;
    }
    free(path);
    free(entry);
    free(pred);
    free(dist);
    for (size_t e = 0; e < (size_t)S * (size_t)S; e++)
        free(g.heap[e].e);
    free(g.heap);
    free(g.dirty);
    free(g.via);
    free(g.w);
    free(g.next);
    free(g.order);
    free(g.count);
    return rc;
}
