/* pollux_measured.c: reading and interpolating Pollux's measured step times
 * (see pollux_measured.h). Rows are summed per (nodes, gpus, local batch)
 * while reading, then averaged and sorted, so a lookup is a scan of the
 * rows of one (nodes, gpus) pair. */
#include "model/pollux_measured.h"
#include "model/csv.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct acc {
    pollux_step_t *rows;
    int *count;
    size_t n, cap, ccap;
} acc_t;

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


/* One file: placements (a placement column) or scalability (num_nodes,
 * num_replicas). A missing optional file is not an error. Numbers are read as
 * written (mls_parse_double: decimal; no hex, inf or nan). */
static int read_file(const char *path, int optional, acc_t *a, mls_err_t *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return optional ? 0 : mls_fail(err, "%s: cannot open", path);
    csv_reader_t r;
    csv_open(&r, f, ',');
    int rc = csv_next(&r), cp = -1, cn = -1, cr = -1, cb = -1, ct = -1, cs = -1;
    if (rc == 1) {
        cp = (int)csv_column(&r, "placement");
        cn = (int)csv_column(&r, "num_nodes");
        cr = (int)csv_column(&r, "num_replicas");
        cb = (int)csv_column(&r, "local_bsz");
        ct = (int)csv_column(&r, "step_time");
        cs = (int)csv_column(&r, "sync_time");
    }
    if (rc != 1 || cb < 0 || ct < 0 || cs < 0 || (cp < 0 && (cn < 0 || cr < 0))) {
        rc = rc < 0 ? csv_fail(&r, path, err)
                    : mls_fail(err,
                               "%s:1: header: needs placement (or num_nodes, "
                               "num_replicas), local_bsz, step_time, sync_time",
                               path);
        goto out;
    }
    while ((rc = csv_next(&r)) == 1) {
        int need = cp >= 0 ? cp : (cn > cr ? cn : cr);
        need = need > cb ? need : cb;
        need = need > ct ? need : ct;
        need = need > cs ? need : cs;
        double b, t, s, dn = 0, dg = 0;
        int nodes = 0, gpus = 0, bad = (int)r.n_fields <= need;
        if (!bad && cp >= 0) {
            for (const char *c = r.fields[cp]; *c; c++, nodes++)
                if (*c < '1' || *c > '9')
                    bad = 1;
                else
                    gpus += *c - '0';
        } else if (!bad) {
            bad = mls_parse_double(r.fields[cn], &dn) < 0 || mls_parse_double(r.fields[cr], &dg) < 0 || dn < 1 || dg < dn ||
                  dn > 1e6 || dg > 1e6 || dn != floor(dn) || dg != floor(dg);
            nodes = (int)dn, gpus = (int)dg;
        }
        if (bad || nodes < 1 || mls_parse_double(r.fields[cb], &b) < 0 || mls_parse_double(r.fields[ct], &t) < 0 ||
            mls_parse_double(r.fields[cs], &s) < 0 || !(b > 0) || !(t > 0) || s < 0 || s > t) {
            rc = mls_fail(err, "%s:%ld: nodes/local_bsz/step_time/sync_time: not a valid sample",
                          path, r.line_no);
            goto out;
        }
        add(a, nodes, gpus, b, t, s);
    }
    if (rc < 0)
        rc = csv_fail(&r, path, err);
out:
    csv_close(&r);
    fclose(f);
    return rc < 0 ? -1 : 0;
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

int pollux_steps_read(const char *dir, pollux_steps_t *out, mls_err_t *err)
{
    acc_t a = {0};
    char path[4096];
    out->rows = NULL;
    out->n = 0;
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
    return 0;
}

int pollux_steps_at(const pollux_steps_t *s, int nodes, int gpus, double local_bsz, double *step,
                    double *sync)
{
    if (nodes > 16)
        nodes = 16;
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
    if (!first)
        return -1;
    if (!lo)
        lo = hi = first;
    if (!hi)
        lo = hi = last;
    double f = hi->local_bsz > lo->local_bsz
                   ? (local_bsz - lo->local_bsz) / (hi->local_bsz - lo->local_bsz)
                   : 0;
    *step = lo->step_time + f * (hi->step_time - lo->step_time);
    *sync = lo->sync_time + f * (hi->sync_time - lo->sync_time);
    return 0;
}

void pollux_steps_free(pollux_steps_t *s)
{
    free(s->rows);
    s->rows = NULL;
    s->n = 0;
}
