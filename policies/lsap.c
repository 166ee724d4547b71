/* lsap.c: the rectangular assignment problem by shortest augmenting paths
 * (Crouse 2016), making the choices scipy.optimize.linear_sum_assignment
 * makes among equal costs; see lsap.h for the idea and the tie rules.
 * Simplifications: none of the algorithm's; no transposition (nr <= nc is
 * required, which is what AlloX's matrices are) and no maximisation. */
#include "policies/lsap.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>

typedef struct lsap {
    int nr, nc;
    lsap_row_fn row_cost;
    const void *ctx;
    double *u, *v, *dist, *row; /* duals, labels of this search, one row's costs */
    int *path, *row4col, *col4row, *todo;
    unsigned char *row_seen, *col_seen;
} lsap_t;

/* One Dijkstra search from row cur; returns the free column it ends at (the
 * sink) and its distance, or -1 when every remaining column is forbidden. */
static int search(lsap_t *s, int cur, double *min_out)
{
    int n_todo = s->nc, i = cur, sink = -1;
    double min_val = 0;
    for (int k = 0; k < s->nc; k++) {
        s->todo[k] = s->nc - 1 - k; /* scanned from the last column */
        s->dist[k] = INFINITY;
        s->col_seen[k] = 0;
    }
    for (int r = 0; r < s->nr; r++)
        s->row_seen[r] = 0;
    while (sink < 0) {
        s->row_seen[i] = 1;
        s->row_cost(s->ctx, i, s->row);
        int best = -1;
        double lowest = INFINITY;
        for (int k = 0; k < n_todo; k++) {
            int j = s->todo[k];
            double r = min_val + s->row[j] - s->u[i] - s->v[j];
            if (r < s->dist[j]) {
                s->path[j] = i;
                s->dist[j] = r;
            }
            if (s->dist[j] < lowest || (s->dist[j] == lowest && s->row4col[j] < 0)) {
                lowest = s->dist[j];
                best = k;
            }
        }
        min_val = lowest;
        if (min_val == INFINITY)
            return -1;
        int j = s->todo[best];
        if (s->row4col[j] < 0)
            sink = j;
        else
            i = s->row4col[j];
        s->col_seen[j] = 1;
        s->todo[best] = s->todo[--n_todo];
    }
    *min_out = min_val;
    return sink;
}

/* Adds row cur to the assignment: a search, the duals, the path flipped. */
static int add_row(lsap_t *s, int cur)
{
    double min_val;
    int sink = search(s, cur, &min_val);
    if (sink < 0)
        return -1;
    s->u[cur] += min_val;
    for (int r = 0; r < s->nr; r++)
        if (s->row_seen[r] && r != cur)
            s->u[r] += min_val - s->dist[s->col4row[r]];
    for (int j = 0; j < s->nc; j++)
        if (s->col_seen[j])
            s->v[j] -= min_val - s->dist[j];
    for (int j = sink;;) {
        int r = s->path[j];
        s->row4col[j] = r;
        int prev = s->col4row[r];
        s->col4row[r] = j;
        j = prev;
        if (r == cur)
            break;
    }
    return 0;
}

int lsap_solve(int nr, int nc, lsap_row_fn row_cost, const void *ctx, int *col_of, char *err,
               size_t errlen)
{
    if (nr <= 0)
        return 0;
    if (nr > nc) {
        snprintf(err, errlen, "assignment: %d rows but only %d columns", nr, nc);
        return -1;
    }
    lsap_t s = {nr, nc, row_cost, ctx, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL};
    s.u = pu_alloc((size_t)nr, sizeof *s.u);
    s.v = pu_alloc((size_t)nc, sizeof *s.v);
    s.dist = pu_alloc((size_t)nc, sizeof *s.dist);
    s.row = pu_alloc((size_t)nc, sizeof *s.row);
    s.path = pu_alloc((size_t)nc, sizeof *s.path);
    s.row4col = pu_alloc((size_t)nc, sizeof *s.row4col);
    s.col4row = pu_alloc((size_t)nr, sizeof *s.col4row);
    s.todo = pu_alloc((size_t)nc, sizeof *s.todo);
    s.row_seen = pu_alloc((size_t)nr, 1);
    s.col_seen = pu_alloc((size_t)nc, 1);
    for (int j = 0; j < nc; j++)
        s.path[j] = s.row4col[j] = -1;
    for (int r = 0; r < nr; r++)
        s.col4row[r] = -1;
    int rc = 0;
    for (int cur = 0; cur < nr && rc == 0; cur++)
        rc = add_row(&s, cur);
    if (rc != 0)
        snprintf(err, errlen, "assignment: no assignment avoids the forbidden pairs");
    for (int r = 0; rc == 0 && r < nr; r++)
        col_of[r] = s.col4row[r];
    free(s.u);
    free(s.v);
    free(s.dist);
    free(s.row);
    free(s.path);
    free(s.row4col);
    free(s.col4row);
    free(s.todo);
    free(s.row_seen);
    free(s.col_seen);
    return rc;
}
