/* import_prod.c: the header-driven CSV loop the production readers share,
 * and the DIR-LAB layout (see import_prod.h).
 *
 * DIR-LAB (Gen-Parallel-Workloads, JSSPP'24) normalises Philly and Helios to
 *   u_id,user,gpu_num,cpu_num,node_num,interval,run_time,wall_time,new_status
 * with CRLF line ends: `interval` = s since the previous submission (the
 * submit clock is their running sum, from 0 in each file), `run_time` s,
 * `new_status` Pass/Failed/Killed; `wall_time` (all 0) is not read. */
#include "traces/import_prod.h"

#include "traces/import.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

const char *prod_field(const prod_ctx_t *c, const csv_reader_t *r, int i)
{
    int k = c->col[i];
    return k >= 0 && (size_t)k < r->n_fields ? r->fields[k] : "";
}

static const char *col_name(const prod_ctx_t *c, int i)
{
    const char *n = c->layout->cols[i];
    return *n == '?' ? n + 1 : n;
}

int prod_fail(const prod_ctx_t *c, const csv_reader_t *r, int i, const char *why, mls_err_t *err)
{
    return mls_fail(err, "%s:%ld: field '%s': '%s' %s", c->path, r->line_no, col_name(c, i),
                    prod_field(c, r, i), why);
}

int prod_num(const prod_ctx_t *c, const csv_reader_t *r, int i, double lo, double *out,
             mls_err_t *err)
{
    if (mls_parse_double(prod_field(c, r, i), out) < 0)
        return prod_fail(c, r, i, mls_number_why(prod_field(c, r, i)), err);
    if (*out < lo) {
        char why[64];
        snprintf(why, sizeof why, "is below %g", lo);
        return prod_fail(c, r, i, why, err);
    }
    return 0;
}

int prod_time(const prod_ctx_t *c, const csv_reader_t *r, int i, double *out, mls_err_t *err)
{
    if (rec_parse_time(prod_field(c, r, i), out) < 0)
        return prod_fail(c, r, i, "is not a time (YYYY-MM-DD HH:MM:SS[+HH:MM])", err);
    return 0;
}

/* Maps the header to the layout's columns: 0 when every required one is there. */
static int match_layout(prod_ctx_t *c, const prod_layout_t *l, const csv_reader_t *hdr)
{
    c->layout = l;
    for (int i = 0; i < PROD_MAX_COLS && l->cols[i]; i++) {
        const char *want = *l->cols[i] == '?' ? l->cols[i] + 1 : l->cols[i];
        c->col[i] = -1;
        for (size_t k = 0; k < hdr->n_fields; k++)
            if (!strcmp(hdr->fields[k], want))
                c->col[i] = (int)k;
        if (c->col[i] < 0 && *l->cols[i] != '?')
            return -1;
    }
    return 0;
}

static int pick_layout(prod_ctx_t *c, const prod_layout_t *const *layouts, int n,
                       const csv_reader_t *hdr, const char *format, mls_err_t *err)
{
    for (int i = 0; i < n; i++)
        if (match_layout(c, layouts[i], hdr) == 0)
            return 0;
    char got[160] = "", want[400] = "";
    for (size_t k = 0; k < hdr->n_fields && strlen(got) < 120; k++)
        snprintf(got + strlen(got), sizeof got - strlen(got), "%s%s", k ? "," : "",
                 hdr->fields[k]);
    for (int i = 0; i < n; i++)
        snprintf(want + strlen(want), sizeof want - strlen(want), "%s%s", i ? "; " : "",
                 layouts[i]->name);
    return mls_fail(err, "%s:%ld: header '%s' is not a %s trace (known: %s)", c->path,
                    hdr->line_no, got, format, want);
}

int prod_read_csv(import_records_t *rs, const char *path, const prod_layout_t *const *layouts,
                  int n_layouts, const char *format, unsigned flags, long *skipped,
                  mls_err_t *err)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return mls_fail(err, "%s: cannot open: %s", path, strerror(errno));
    prod_ctx_t c = {rs, path, NULL, {0}, 0};
    csv_reader_t r;
    csv_open(&r, fp, ',');
    int rc = 0, got = csv_next(&r);
    size_t ncols = r.n_fields;
    if (got < 0)
        rc = csv_fail(&r, path, err);
    else if (got == 0)
        rc = mls_fail(err, "%s: empty: no header line", path);
    else
        rc = pick_layout(&c, layouts, n_layouts, &r, format, err);
    if (rc == 0 && c.layout->clock_epoch)
        rs->clock_epoch = 1;
    while (rc == 0 && (got = csv_next(&r)) != 0) {
        if (got < 0) {
            rc = csv_fail(&r, path, err);
            break;
        }
        import_record_t rec = record_blank();
        rec.line = r.line_no;
        int row_rc;
        if (r.n_fields != ncols)
            row_rc = mls_fail(err, "%s:%ld: %zu fields, the header has %zu", path, r.line_no,
                              r.n_fields, ncols);
        else
            row_rc = c.layout->row(&c, &r, &rec, err);
        if (row_rc == 0)
            records_add(rs, &rec);
        else
            rc = import_bad_row(flags, skipped);
    }
    csv_close(&r);
    fclose(fp);
    return rc;
}

/* ---- DIR-LAB --------------------------------------------------------------------- */

enum { DL_USER, DL_GPU, DL_CPU, DL_NODE, DL_INTERVAL, DL_RUN, DL_STATUS };

static int dirlab_row(prod_ctx_t *c, const csv_reader_t *r, import_record_t *rec, mls_err_t *err)
{
    double gpus, cpus, nodes, interval, run;
    if (prod_num(c, r, DL_GPU, 0, &gpus, err) < 0 || prod_num(c, r, DL_CPU, 0, &cpus, err) < 0 ||
        prod_num(c, r, DL_NODE, 0, &nodes, err) < 0 ||
        prod_num(c, r, DL_INTERVAL, 0, &interval, err) < 0 ||
        prod_num(c, r, DL_RUN, 0, &run, err) < 0)
        return -1;
    const char *st = prod_field(c, r, DL_STATUS);
    rec->status = !strcmp(st, "Pass")     ? REC_PASS
                  : !strcmp(st, "Killed") ? REC_KILLED
                  : !strcmp(st, "Failed") ? REC_FAILED
                                          : REC_UNKNOWN;
    if (rec->status == REC_UNKNOWN)
        return prod_fail(c, r, DL_STATUS, "is not Pass, Killed or Failed", err);
    c->clock += interval;
    rec->submit = c->clock;
    rec->duration = run;
    rec->gpus = gpus;
    rec->cpus = cpus;
    if (nodes != floor(nodes) || nodes > 1e6)
        return prod_fail(c, r, DL_NODE, "is not a node count (an integer up to 10^6)", err);
    if (nodes == 0 && gpus > 0)
        return prod_fail(c, r, DL_NODE, "is 0, but the job has GPUs (gpu_num > 0)", err);
    rec->nodes = (int)nodes;
    rec->user = strtab_intern(&c->rs->users, prod_field(c, r, DL_USER));
    return 0;
}

const prod_layout_t prod_dirlab = {
    "DIR-LAB (u_id,user,gpu_num,cpu_num,node_num,interval,run_time,wall_time,new_status)",
    {"user", "gpu_num", "cpu_num", "node_num", "interval", "run_time", "new_status", NULL},
    0,
    dirlab_row,
};
