/* gavel_warm.c: the basis memo of gavel_warm.h.
 *
 * Gavel recomputes its allocation when jobs arrive or finish; most jobs,
 * and their part of the optimal basis, are the same as last time. The memo
 * keeps the statuses of each job's time and link rows by job id, of each X
 * row's columns by its members' ids (a single or a pair), and of the
 * capacity rows and z. Applying it to the new
 * problem copies the statuses of the jobs still there; arrivals start
 * nonbasic at zero with their rows' slacks basic. Departures leave the
 * count of basic variables off by a few: it is restored by making row
 * slacks basic (from the last row back) or, when there are too many,
 * the last basic X columns nonbasic. */
#include "config.h"

#include "policies/gavel_warm.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct warm_job {
    int64_t id;
    int time_stat, link_stat;
} warm_job_t;

typedef struct warm_row {
    int64_t id[2]; /* the members' ids; -1: a single */
    int first_col; /* into col_stat: n_types entries */
} warm_row_t;

struct gl_warm {
    int n_jobs, n_rows, n_types, has_link, has_z;
    warm_job_t *jobs; /* sorted by id */
    warm_row_t *rows; /* sorted by ids */
    int *col_stat;
    int *cap_stat;
    int z_stat;
    int applied; /* bases given to GLPK so far */
};

static void *walloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p) {
        fprintf(stderr, "mlsched: out of memory in the basis memo\n");
        abort();
    }
    return p;
}

gl_warm_t *gl_warm_create(void)
{
    return walloc(1, sizeof(gl_warm_t));
}

static void warm_clear(gl_warm_t *w)
{
    int applied = w->applied;
    free(w->jobs);
    free(w->rows);
    free(w->col_stat);
    free(w->cap_stat);
    memset(w, 0, sizeof *w);
    w->applied = applied;
}

int gl_warm_applied(const gl_warm_t *w)
{
    return w ? w->applied : 0;
}

void gl_warm_free(gl_warm_t *w)
{
    if (w)
        warm_clear(w);
    free(w);
}

static int cmp_job(const void *pa, const void *pb)
{
    const warm_job_t *a = pa, *b = pb;
    return a->id < b->id ? -1 : a->id > b->id ? 1 : 0;
}

static int cmp_row(const void *pa, const void *pb)
{
    const warm_row_t *a = pa, *b = pb;
    for (int k = 0; k < 2; k++)
        if (a->id[k] != b->id[k])
            return a->id[k] < b->id[k] ? -1 : 1;
    return 0;
}

/* Row r's key: its members' ids. */
static warm_row_t row_key(const gl_lp_t *lp, int r)
{
    const gl_row_t *row = &lp->rows[r];
    return (warm_row_t){{lp->job_id[row->job[0]], row->job[1] >= 0 ? lp->job_id[row->job[1]] : -1},
                        r * lp->n_types};
}

void gl_warm_save(gl_warm_t *w, glp_prob *p, const gl_lp_t *lp, int z_col, int link_row)
{
    int J = lp->n_jobs, T = lp->n_types, R = lp->n_rows;
    warm_clear(w);
    w->n_jobs = J, w->n_rows = R, w->n_types = T;
    w->has_link = link_row > 0, w->has_z = z_col > 0;
    w->jobs = walloc((size_t)J, sizeof *w->jobs);
    w->rows = walloc((size_t)R, sizeof *w->rows);
    w->col_stat = walloc((size_t)R * T, sizeof *w->col_stat);
    w->cap_stat = walloc((size_t)T, sizeof *w->cap_stat);
    for (int j = 0; j < J; j++)
        w->jobs[j] = (warm_job_t){lp->job_id[j], glp_get_row_stat(p, 1 + j),
                                  link_row ? glp_get_row_stat(p, link_row + j) : 0};
    for (int r = 0; r < R; r++) {
        w->rows[r] = row_key(lp, r);
        for (int t = 0; t < T; t++)
            w->col_stat[r * T + t] = glp_get_col_stat(p, 1 + r * T + t);
    }
    for (int t = 0; t < T; t++)
        w->cap_stat[t] = glp_get_row_stat(p, 1 + J + t);
    w->z_stat = z_col ? glp_get_col_stat(p, z_col) : 0;
    qsort(w->jobs, (size_t)J, sizeof *w->jobs, cmp_job);
    qsort(w->rows, (size_t)R, sizeof *w->rows, cmp_row);
}

/* Makes the number of basic variables equal to the number of rows. */
static void balance(glp_prob *p, int n_x)
{
    int m = glp_get_num_rows(p), n = glp_get_num_cols(p), basic = 0;
    for (int i = 1; i <= m; i++)
        basic += glp_get_row_stat(p, i) == GLP_BS;
    for (int c = 1; c <= n; c++)
        basic += glp_get_col_stat(p, c) == GLP_BS;
    for (int i = m; i >= 1 && basic < m; i--)
        if (glp_get_row_stat(p, i) != GLP_BS) {
            glp_set_row_stat(p, i, GLP_BS);
            basic++;
        }
    for (int c = n_x; c >= 1 && basic > m; c--)
        if (glp_get_col_stat(p, c) == GLP_BS) {
            glp_set_col_stat(p, c, GLP_NL);
            basic--;
        }
}

int gl_warm_apply(gl_warm_t *w, glp_prob *p, const gl_lp_t *lp, int z_col, int link_row)
{
    int J = lp->n_jobs, T = lp->n_types;
    if (!w || !lp->job_id || w->n_jobs == 0 || w->n_types != T || w->has_link != (link_row > 0) ||
        w->has_z != (z_col > 0))
        return 0;
    for (int j = 0; j < J; j++) {
        warm_job_t key = {lp->job_id[j], 0, 0};
        const warm_job_t *old = bsearch(&key, w->jobs, (size_t)w->n_jobs, sizeof key, cmp_job);
        if (!old)
            continue;
        glp_set_row_stat(p, 1 + j, old->time_stat);
        if (link_row)
            glp_set_row_stat(p, link_row + j, old->link_stat);
    }
    for (int r = 0; r < lp->n_rows; r++) {
        warm_row_t key = row_key(lp, r);
        const warm_row_t *old = bsearch(&key, w->rows, (size_t)w->n_rows, sizeof key, cmp_row);
        for (int t = 0; old && t < T; t++)
            glp_set_col_stat(p, 1 + r * T + t, w->col_stat[old->first_col + t]);
    }
    for (int t = 0; t < T; t++)
        glp_set_row_stat(p, 1 + J + t, w->cap_stat[t]);
    if (z_col)
        glp_set_col_stat(p, z_col, w->z_stat);
    balance(p, lp->n_rows * T);
    w->applied++;
    return 1;
}
