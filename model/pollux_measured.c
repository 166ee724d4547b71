/* pollux_measured.c: reading and interpolating Pollux's measured step times
 * (see pollux_measured.h). pollux_rows_read() is the one reader of the
 * profile tables (the catalog fit's too). Rows are summed per (nodes, gpus, local batch)
 * while reading, then averaged and sorted, so a lookup is a scan of the
 * rows of one (nodes, gpus) pair. */
#include "model/pollux_measured.h"
#include "model/csv.h"

#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void interp_bsz(double lb, double ls, double lt, double hb, double hs, double ht,
                       double local_bsz, double *step, double *sync);

typedef struct acc {
    pollux_step_t *rows;
    int *count;
    size_t n, cap, ccap;
    pollux_placed_t *placed;
    size_t n_placed, pcap;
} acc_t;

static void add_placed(acc_t *a, const char *id, double bsz, double step, double sync)
{
    xgrow((void **)&a->placed, &a->pcap, a->n_placed + 1, sizeof *a->placed);
    pollux_placed_t *r = &a->placed[a->n_placed++];
    snprintf(r->id, sizeof r->id, "%s", id);
    r->local_bsz = bsz;
    r->step_time = step;
    r->sync_time = sync;
}

static void add(acc_t *a, int nodes, int gpus, double bsz, double step, double sync)
{
    for (size_t i = 0; i < a->n; i++) {
        pollux_step_t *r = &a->rows[i];
        if (r->nodes == nodes && r->gpus == gpus && r->local_bsz == bsz) {
            r->step_time += step;
            r->sync_time += sync;
            a->count[i]++;
            return;
        }
    }
    xgrow((void **)&a->rows, &a->cap, a->n + 1, sizeof *a->rows);
    xgrow((void **)&a->count, &a->ccap, a->n + 1, sizeof *a->count);
    a->rows[a->n] = (pollux_step_t){nodes, gpus, bsz, step, sync};
    a->count[a->n++] = 1;
}

/* A row's fields: 0, or -1 with the first bad field named in err. The
 * placement is digits 1-9 (GPUs per node); num_nodes and num_replicas whole
 * numbers, 1 <= nodes <= replicas <= 1e6; local_bsz and step_time > 0;
 * 0 <= sync_time <= step_time. */
static int parse_row(const csv_reader_t *r, const int *col, const char *path, pollux_row_t *row,
                     mls_err_t *err)
{
    enum { CP, CN, CR, CB, CT, CS };
    static const char *const names[] = {"placement", "num_nodes", "num_replicas",
                                        "local_bsz", "step_time", "sync_time"};
    double dn = 0, dg = 0;
    int bad = -1; /* the first bad column */
    *row = (pollux_row_t){{0}, 0, 0, 0, 0, 0};
    for (int c = 0; c < 6 && bad < 0; c++)
        if (col[c] >= 0 && (int)r->n_fields <= col[c])
            bad = c;
    if (bad < 0 && col[CP] >= 0) {
        const char *p = r->fields[col[CP]];
        for (const char *c = p; *c; c++, row->nodes++)
            if (*c < '1' || *c > '9')
                bad = CP;
            else
                row->gpus += *c - '0';
        if (!*p)
            bad = CP;
        else if (strlen(p) < sizeof row->id)
            memcpy(row->id, p, strlen(p) + 1);
    } else if (bad < 0) {
        if (mls_parse_double(r->fields[col[CN]], &dn) < 0 || dn < 1 || dn > 1e6 || dn != floor(dn))
            bad = CN;
        else if (mls_parse_double(r->fields[col[CR]], &dg) < 0 || dg < dn || dg > 1e6 ||
                 dg != floor(dg))
            bad = CR;
        row->nodes = (int)dn, row->gpus = (int)dg;
    }
    if (bad < 0 &&
        (mls_parse_double(r->fields[col[CB]], &row->local_bsz) < 0 || !(row->local_bsz > 0)))
        bad = CB;
    if (bad < 0 &&
        (mls_parse_double(r->fields[col[CT]], &row->step_time) < 0 || !(row->step_time > 0)))
        bad = CT;
    if (bad < 0 && col[CS] >= 0 &&
        (mls_parse_double(r->fields[col[CS]], &row->sync_time) < 0 || row->sync_time < 0 ||
         row->sync_time > row->step_time))
        bad = CS;
    if (bad < 0)
        return 0;
    return mls_fail(err, "%s:%ld: %s: not a valid sample", path, r->line_no, names[bad]);
}

long pollux_rows_read(const char *path, int flags, pollux_row_t **out, mls_err_t *err)
{
    *out = NULL;
    FILE *f = fopen(path, "r");
    if (!f)
        return (flags & POLLUX_ROWS_OPTIONAL) ? 0 : mls_fail(err, "%s: cannot open", path);
    csv_reader_t r;
    csv_open(&r, f, ',');
    static const char *const names[] = {"placement", "num_nodes", "num_replicas",
                                        "local_bsz", "step_time", "sync_time"};
    int col[6] = {-1, -1, -1, -1, -1, -1};
    int rc = csv_next(&r);
    for (int c = 0; rc == 1 && c < 6; c++)
        col[c] = (int)csv_column(&r, names[c]);
    int need_sync = !(flags & POLLUX_ROWS_SYNC_OPTIONAL);
    size_t n = 0, cap = 0;
    if (rc != 1 || col[3] < 0 || col[4] < 0 || (need_sync && col[5] < 0) ||
        (col[0] < 0 && (col[1] < 0 || col[2] < 0))) {
        rc = rc < 0 ? csv_fail(&r, path, err)
                    : mls_fail(err,
                               "%s:1: header: needs placement (or num_nodes, "
                               "num_replicas), local_bsz, step_time%s",
                               path, need_sync ? ", sync_time" : "");
        goto out;
    }
    if (col[0] >= 0) /* a placement column: the node counts are not read */
        col[1] = col[2] = -1;
    while ((rc = csv_next(&r)) == 1) {
        xgrow((void **)out, &cap, n + 1, sizeof **out);
        if ((rc = parse_row(&r, col, path, &(*out)[n], err)) < 0)
            goto out;
        n++;
    }
    if (rc < 0)
        rc = csv_fail(&r, path, err);
out:
    csv_close(&r);
    fclose(f);
    if (rc < 0) {
        free(*out);
        *out = NULL;
        return -1;
    }
    return (long)n;
}

/* One file into the accumulator (see pollux_rows_read()). */
static int read_file(const char *path, int optional, acc_t *a, mls_err_t *err)
{
    pollux_row_t *rows;
    long n = pollux_rows_read(path, optional ? POLLUX_ROWS_OPTIONAL : 0, &rows, err);
    for (long i = 0; i < n; i++) {
        const pollux_row_t *w = &rows[i];
        add(a, w->nodes, w->gpus, w->local_bsz, w->step_time, w->sync_time);
        if (w->id[0])
            add_placed(a, w->id, w->local_bsz, w->step_time, w->sync_time);
    }
    free(rows);
    return n < 0 ? -1 : 0;
}

static int cmp_row(const void *x, const void *y)
{
    const pollux_step_t *a = x, *b = y;
    if (a->nodes != b->nodes)
        return a->nodes < b->nodes ? -1 : 1;
    if (a->gpus != b->gpus)
        return a->gpus < b->gpus ? -1 : 1;
    return (a->local_bsz > b->local_bsz) - (a->local_bsz < b->local_bsz);
}

/* One validation file: its grad_sqr and grad_var columns. */
static int read_valid(const char *path, double batch, pollux_valid_t *v, mls_err_t *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return mls_fail(err, "%s: cannot open", path);
    csv_reader_t r;
    csv_open(&r, f, ',');
    size_t cap_s = 0, cap_v = 0;
    *v = (pollux_valid_t){batch, NULL, NULL, 0};
    int rc = csv_next(&r), cq = -1, cv = -1;
    if (rc == 1) {
        cq = (int)csv_column(&r, "grad_sqr");
        cv = (int)csv_column(&r, "grad_var");
    }
    if (rc != 1 || cq < 0 || cv < 0) {
        rc = rc < 0 ? csv_fail(&r, path, err)
                    : mls_fail(err, "%s:1: header: needs grad_sqr and grad_var", path);
        goto out;
    }
    while ((rc = csv_next(&r)) == 1) {
        double q, w;
        if ((int)r.n_fields <= (cq > cv ? cq : cv) || mls_parse_double(r.fields[cq], &q) < 0 ||
            mls_parse_double(r.fields[cv], &w) < 0 || !(q >= 0) || !(w >= 0) || !isfinite(q) ||
            !isfinite(w)) {
            rc = mls_fail(err, "%s:%ld: grad_sqr/grad_var: want numbers >= 0", path, r.line_no);
            goto out;
        }
        xgrow((void **)&v->sqr, &cap_s, (size_t)v->n_ep + 1, sizeof *v->sqr);
        xgrow((void **)&v->var, &cap_v, (size_t)v->n_ep + 1, sizeof *v->var);
        v->sqr[v->n_ep] = q;
        v->var[v->n_ep++] = w;
    }
    if (rc < 0)
        rc = csv_fail(&r, path, err);
    else if (v->n_ep == 0)
        rc = mls_fail(err, "%s: no epochs", path);
out:
    csv_close(&r);
    fclose(f);
    if (rc < 0) { /* not kept: free what was read */
        free(v->sqr);
        free(v->var);
        *v = (pollux_valid_t){0};
    }
    return rc < 0 ? -1 : 0;
}

static int cmp_valid(const void *x, const void *y)
{
    const pollux_valid_t *a = x, *b = y;
    return (a->batch > b->batch) - (a->batch < b->batch);
}

/* Every DIR/validation-<batch>.csv (<batch> a positive integer), sorted. */
static int read_valids(const char *dir, pollux_steps_t *out, mls_err_t *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return mls_fail(err, "%s: cannot open the directory", dir);
    size_t cap = 0;
    int rc = 0;
    for (struct dirent *de; rc == 0 && (de = readdir(d));) {
        const char *nm = de->d_name;
        size_t len = strlen(nm);
        if (strncmp(nm, "validation-", 11) || len < 16 || strcmp(nm + len - 4, ".csv"))
            continue;
        char num[64], path[4096];
        if (len - 15 >= sizeof num)
            continue;
        memcpy(num, nm + 11, len - 15);
        num[len - 15] = '\0';
        double b;
        if (strspn(num, "0123456789") != strlen(num) || mls_parse_double(num, &b) < 0 || !(b > 0))
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, nm);
        xgrow((void **)&out->valid, &cap, (size_t)out->n_valid + 1, sizeof *out->valid);
        rc = read_valid(path, b, &out->valid[out->n_valid], err);
        if (rc == 0)
            out->n_valid++;
    }
    closedir(d);
    if (out->n_valid > 1)
        qsort(out->valid, (size_t)out->n_valid, sizeof *out->valid, cmp_valid);
    return rc;
}

int pollux_steps_efficiency(const pollux_steps_t *s, double batch, int epoch, double m0,
                            double *eff)
{
    if (s->n_valid < 1)
        return -1;
    int lo = 0, hi = s->n_valid - 1; /* the files around batch (the artifact's bounds) */
    for (int k = 0; k < s->n_valid; k++)
        if (s->valid[k].batch <= batch)
            lo = k;
    for (int k = s->n_valid; k-- > 0;)
        if (s->valid[k].batch >= batch)
            hi = k;
    if (s->valid[lo].batch > batch)
        hi = lo;
    if (s->valid[hi].batch < batch)
        lo = hi;
    const pollux_valid_t *a = &s->valid[lo], *b = &s->valid[hi];
    int ea = epoch < a->n_ep ? epoch : a->n_ep - 1, eb = epoch < b->n_ep ? epoch : b->n_ep - 1;
    ea = ea < 0 ? 0 : ea;
    eb = eb < 0 ? 0 : eb;
    double sqr, var;
    interp_bsz(a->batch, a->sqr[ea], a->var[ea], b->batch, b->sqr[eb], b->var[eb], batch, &sqr,
               &var);
    double den = var + sqr * batch / m0;
    *eff = den > 0 ? (var + sqr) / den : 1; /* no gradient statistics: no loss */
    return 0;
}

static int cmp_placed(const void *x, const void *y)
{
    const pollux_placed_t *a = x, *b = y;
    int c = strcmp(a->id, b->id);
    if (c)
        return c;
    return (a->local_bsz > b->local_bsz) - (a->local_bsz < b->local_bsz);
}

int pollux_steps_read(const char *dir, pollux_steps_t *out, mls_err_t *err)
{
    acc_t a = {0};
    char path[4096];
    *out = (pollux_steps_t){0};
    snprintf(path, sizeof path, "%s/placements.csv", dir);
    int rc = read_file(path, 0, &a, err);
    size_t n_placed = a.n;
    snprintf(path, sizeof path, "%s/scalability.csv", dir);
    if (rc == 0)
        rc = read_file(path, 1, &a, err);
    if (rc == 0 && n_placed == 0)
        rc = mls_fail(err, "%s/placements.csv: no samples", dir);
    if (rc < 0) {
        free(a.rows);
        free(a.count);
        free(a.placed);
        return -1;
    }
    for (size_t i = 0; i < a.n; i++) {
        a.rows[i].step_time /= a.count[i];
        a.rows[i].sync_time /= a.count[i];
    }
    free(a.count);
    qsort(a.rows, a.n, sizeof *a.rows, cmp_row);
    out->rows = a.rows;
    out->n = a.n;
    if (a.n_placed)
        qsort(a.placed, a.n_placed, sizeof *a.placed, cmp_placed);
    out->placed = a.placed;
    out->n_placed = a.n_placed;
    if (read_valids(dir, out, err) < 0) {
        pollux_steps_free(out);
        return -1;
    }
    return 0;
}

/* Linear in the local batch between rows lo and hi (clamped outside). */
static void interp_bsz(double lb, double ls, double lt, double hb, double hs, double ht,
                       double local_bsz, double *step, double *sync)
{
    double f = hb > lb ? (local_bsz - lb) / (hb - lb) : 0;
    *step = ls + f * (hs - ls);
    *sync = lt + f * (ht - lt);
}

/* The rows of one (nodes, gpus) pair at local_bsz: linear between the two
 * around it; outside them the nearest when clamp is set, else -1 (and -1
 * when the pair has no rows). */
static int pair_at(const pollux_steps_t *s, int nodes, int gpus, double local_bsz, int clamp,
                   double *step, double *sync)
{
    const pollux_step_t *lo = NULL, *hi = NULL, *first = NULL, *last = NULL;
    for (size_t i = 0; i < s->n; i++) {
        const pollux_step_t *r = &s->rows[i];
        if (r->nodes != nodes || r->gpus != gpus)
            continue;
        if (!first)
            first = r;
        last = r;
        if (r->local_bsz <= local_bsz)
            lo = r;
        if (r->local_bsz >= local_bsz && !hi)
            hi = r;
    }
    if (!first || (!clamp && (!lo || !hi)))
        return -1;
    if (!lo)
        lo = hi = first;
    if (!hi)
        lo = hi = last;
    interp_bsz(lo->local_bsz, lo->step_time, lo->sync_time, hi->local_bsz, hi->step_time,
               hi->sync_time, local_bsz, step, sync);
    return 0;
}

/* Linear between (x0: s0, t0) and (x1: s1, t1) at x. */
static void between(double x0, double s0, double t0, double x1, double s1, double t1, double x,
                    double *step, double *sync)
{
    interp_bsz(x0, s0, t0, x1, s1, t1, x, step, sync);
}

/* Within the rows of `nodes` nodes: the pair's own rows, else linear in the
 * GPUs between the nearest pairs with fewer and with more GPUs; no clamping. */
static int layer_at(const pollux_steps_t *s, int nodes, int gpus, double local_bsz, double *step,
                    double *sync)
{
    if (pair_at(s, nodes, gpus, local_bsz, 0, step, sync) == 0)
        return 0;
    int glo = 0, ghi = 0;
    for (size_t i = 0; i < s->n; i++) {
        const pollux_step_t *r = &s->rows[i];
        if (r->nodes == nodes && r->gpus < gpus && r->gpus > glo)
            glo = r->gpus;
        if (r->nodes == nodes && r->gpus > gpus && (!ghi || r->gpus < ghi))
            ghi = r->gpus;
    }
    double s0, t0, s1, t1;
    if (!glo || !ghi || pair_at(s, nodes, glo, local_bsz, 0, &s0, &t0) < 0 ||
        pair_at(s, nodes, ghi, local_bsz, 0, &s1, &t1) < 0)
        return -1;
    between(glo, s0, t0, ghi, s1, t1, gpus, step, sync);
    return 0;
}

int pollux_steps_at(const pollux_steps_t *s, int nodes, int gpus, double local_bsz, double *step,
                    double *sync)
{
    if (nodes > 16)
        nodes = 16;
    if (pair_at(s, nodes, gpus, local_bsz, 1, step, sync) == 0)
        return 0;
    if (layer_at(s, nodes, gpus, local_bsz, step, sync) == 0)
        return 0;
    /* across node counts: the nearest counts below and above where the
     * layer has a value (rows are sorted by nodes) */
    int nlo = 0, nhi = 0;
    double s0 = 0, t0 = 0, s1 = 0, t1 = 0;
    for (size_t i = 0; i < s->n; i++) {
        int n = s->rows[i].nodes;
        if (i > 0 && n == s->rows[i - 1].nodes)
            continue;
        double a, b;
        if (n < nodes && layer_at(s, n, gpus, local_bsz, &a, &b) == 0) {
            nlo = n;
            s0 = a;
            t0 = b;
        } else if (n > nodes && !nhi && layer_at(s, n, gpus, local_bsz, &a, &b) == 0) {
            nhi = n;
            s1 = a;
            t1 = b;
        }
    }
    if (!nlo || !nhi)
        return -1;
    between(nlo, s0, t0, nhi, s1, t1, nodes, step, sync);
    return 0;
}

/* The placement's id as the artifact normalises it: its smallest rotation,
 * as digits; 0 when it has none (a node with 0 or over 9 GPUs, too many). */
static int placement_id(const int *per_node, int nodes, char *id, size_t len)
{
    if (nodes < 1 || (size_t)nodes >= len)
        return 0;
    int best = 0;
    for (int i = 0; i < nodes; i++)
        if (per_node[i] < 1 || per_node[i] > 9)
            return 0;
    for (int r = 1; r < nodes; r++) /* compare rotation r with the best so far */
        for (int k = 0; k < nodes; k++) {
            int a = per_node[(r + k) % nodes], b = per_node[(best + k) % nodes];
            if (a != b) {
                if (a < b)
                    best = r;
                break;
            }
        }
    for (int k = 0; k < nodes; k++)
        id[k] = (char)('0' + per_node[(best + k) % nodes]);
    id[nodes] = '\0';
    return 1;
}

int pollux_steps_placed(const pollux_steps_t *s, const int *per_node, int nodes, double local_bsz,
                        double *step, double *sync)
{
    char id[sizeof s->placed->id];
    int gpus = 0;
    for (int i = 0; per_node && i < nodes; i++)
        gpus += per_node[i];
    if (!per_node || !placement_id(per_node, nodes, id, sizeof id))
        return per_node ? pollux_steps_at(s, nodes, gpus, local_bsz, step, sync) : -1;
    size_t lo = 0, hi = s->n_placed; /* first row of id */
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (strcmp(s->placed[mid].id, id) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t end = lo;
    while (end < s->n_placed && !strcmp(s->placed[end].id, id))
        end++;
    if (end == lo)
        return pollux_steps_at(s, nodes, gpus, local_bsz, step, sync);
    size_t a = lo, b = end - 1; /* the rows around local_bsz, clamped */
    for (size_t i = lo; i < end; i++)
        if (s->placed[i].local_bsz <= local_bsz)
            a = i;
    for (size_t i = end; i-- > lo;)
        if (s->placed[i].local_bsz >= local_bsz)
            b = i;
    if (s->placed[a].local_bsz > local_bsz)
        b = a;
    if (s->placed[b].local_bsz < local_bsz)
        a = b;
    const pollux_placed_t *x = &s->placed[a], *y = &s->placed[b];
    interp_bsz(x->local_bsz, x->step_time, x->sync_time, y->local_bsz, y->step_time, y->sync_time,
               local_bsz, step, sync);
    return 0;
}

void pollux_steps_free(pollux_steps_t *s)
{
    free(s->rows);
    free(s->placed);
    for (int k = 0; k < s->n_valid; k++) {
        free(s->valid[k].sqr);
        free(s->valid[k].var);
    }
    free(s->valid);
    *s = (pollux_steps_t){0};
}
