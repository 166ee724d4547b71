/* pollux_catalog.c: the Pollux catalog from published profiles (see
 * pollux_catalog.h). Everything is derived by the rules in the header; the
 * output is deterministic (fixed application and type order, numbers printed
 * to 6 significant digits). */
#include "model/perf_pollux.h"
#include "model/pollux_catalog.h"
#include "model/pollux_measured.h"

#include <cjson/cJSON.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const struct {
    const char *name;
    int epochs;    /* adaptdl simulator/applications.py max_epochs */
    int max_local; /* its max_local_bsz override, 0 none */
} apps[] = {{"bert", 2, 0},      {"cifar10", 100, 0}, {"deepspeech2", 80, 0},
            {"imagenet", 90, 0}, {"ncf", 10, 0},      {"yolov3", 50, 8}};

static const struct {
    const char *file, *type;
} sia_types[] = {{"placements-azure.csv", "v100"},
                 {"placements-dgx-ext.csv", "a100"},
                 {"placements-quad.csv", "rtx6000"},
                 {"placements-rtx.csv", "rtx2080ti"}};

/* ---- reading ------------------------------------------------------------- */

static int column(const char *header, const char *name)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", header);
    int i = 0;
    for (char *tok = strtok(buf, ",\r\n"); tok; tok = strtok(NULL, ",\r\n"), i++)
        if (!strcmp(tok, name))
            return i;
    return -1;
}

static int split(char *line, char **f, int max)
{
    int n = 0;
    for (char *tok = strtok(line, ",\r\n"); tok && n < max; tok = strtok(NULL, ",\r\n"))
        f[n++] = tok;
    return n;
}

long pollux_read_placements(const char *path, pollux_sample_t **out, mls_err_t *err)
{
    pollux_row_t *rows;
    *out = NULL;
    long n = pollux_rows_read(path, POLLUX_ROWS_SYNC_OPTIONAL, &rows, err);
    if (n > 0)
        *out = xmalloc((size_t)n * sizeof **out);
    for (long i = 0; i < n; i++)
        (*out)[i] =
            (pollux_sample_t){rows[i].nodes, rows[i].gpus, rows[i].local_bsz, 0, rows[i].step_time};
    free(rows);
    return n;
}

#define PHI_CAP 1e9

typedef struct valid {
    int batch;
    int rows;
    double *phi;      /* var / sqr (times M0 later) */
    double progress0; /* progress after the first epoch */
} valid_t;

static int cmp_valid(const void *a, const void *b)
{
    return ((const valid_t *)a)->batch - ((const valid_t *)b)->batch;
}

static int read_validation(const char *path, int batch, valid_t *v, mls_err_t *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return mls_fail(err, "%s: cannot open", path);
    char *line = NULL;
    size_t line_cap = 0;
    int cp = -1, cs = -1, cv = -1;
    long got = mls_read_line(f, &line, &line_cap, path, 1, err);
    if (got >= 0) {
        cp = column(line, "progress");
        cs = column(line, "grad_sqr");
        cv = column(line, "grad_var");
    }
    if (cp < 0 || cs < 0 || cv < 0) {
        fclose(f);
        free(line);
        if (got == -2)
            return -1;
        return mls_fail(err, "%s:1: header: needs progress, grad_sqr, grad_var", path);
    }
    size_t cap = 0;
    *v = (valid_t){batch, 0, NULL, 0};
    long lineno = 1;
    while ((got = mls_read_line(f, &line, &line_cap, path, lineno + 1, err)) >= 0) {
        char *fs[16];
        lineno++;
        int nf = split(line, fs, 16);
        if (!nf)
            continue;
        double p = nf > cp ? atof(fs[cp]) : 0, sq = nf > cs ? atof(fs[cs]) : 0,
               var = nf > cv ? atof(fs[cv]) : 0;
        if (!(sq >= 0) || !(var > 0) || !(p > 0)) {
            fclose(f);
            free(line);
            return mls_fail(err, "%s:%ld: progress/grad_sqr/grad_var: must be > 0 (sqr >= 0)", path,
                            lineno);
        }
        if (!v->rows)
            v->progress0 = p;
        xgrow((void **)&v->phi, &cap, (size_t)v->rows + 1, sizeof *v->phi);
        /* grad_sqr 0: no signal left, efficiency 1 (adaptdl's `denom > 0` guard);
         * phi is capped at PHI_CAP x M0 so that it stays a finite number. */
        v->phi[v->rows++] = sq > 0 && var / sq < PHI_CAP ? var / sq : PHI_CAP;
    }
    fclose(f);
    free(line);
    if (got == -2)
        return -1;
    return v->rows ? 0 : mls_fail(err, "%s: no rows", path);
}

static int read_validations(const char *dir, valid_t **out, int *n, mls_err_t *err)
{
    DIR *d = opendir(dir);
    if (!d)
        return mls_fail(err, "%s: cannot open directory", dir);
    size_t cap = 0;
    *n = 0;
    *out = NULL;
    struct dirent *de;
    int rc = 0;
    while (rc == 0 && (de = readdir(d))) {
        int b;
        char tail[8];
        if (sscanf(de->d_name, "validation-%d.%7s", &b, tail) != 2 || strcmp(tail, "csv"))
            continue;
        char path[1400];
        snprintf(path, sizeof path, "%s/%s", dir, de->d_name);
        xgrow((void **)out, &cap, (size_t)*n + 1, sizeof **out);
        rc = read_validation(path, b, &(*out)[*n], err);
        (*n)++;
    }
    closedir(d);
    if (rc == 0 && *n == 0)
        rc = mls_fail(err, "%s: no validation-<B>.csv files", dir);
    if (rc == 0)
        qsort(*out, (size_t)*n, sizeof **out, cmp_valid);
    return rc;
}

/* ---- building -------------------------------------------------------------- */

static double sig(double x, int digits)
{
    char b[64];
    snprintf(b, sizeof b, "%.*g", digits, x);
    return strtod(b, NULL);
}

static cJSON *model_json(const pollux_params_t *p, const pollux_sample_t *s, size_t n,
                         int max_local_override, int gpn, const pollux_fit_report_t *rep)
{
    double lo = INFINITY, hi = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i].local_bsz < lo)
            lo = s[i].local_bsz;
        if (s[i].local_bsz > hi)
            hi = s[i].local_bsz;
    }
    if (max_local_override > 0 && hi > max_local_override)
        hi = max_local_override;
    cJSON *m = cJSON_CreateObject();
    cJSON_AddNumberToObject(m, "alpha_grad", sig(p->alpha_grad, 6));
    cJSON_AddNumberToObject(m, "beta_grad", sig(p->beta_grad, 6));
    cJSON_AddNumberToObject(m, "alpha_local", sig(p->alpha_local, 6));
    cJSON_AddNumberToObject(m, "beta_local", sig(p->beta_local, 6));
    cJSON_AddNumberToObject(m, "alpha_node", sig(p->alpha_node, 6));
    cJSON_AddNumberToObject(m, "beta_node", sig(p->beta_node, 6));
    cJSON_AddNumberToObject(m, "gamma", sig(p->gamma, 6));
    cJSON_AddNumberToObject(m, "min_local_batch", lo);
    cJSON_AddNumberToObject(m, "max_local_batch", hi);
    cJSON_AddNumberToObject(m, "gpus_per_node", gpn);
    cJSON_AddNumberToObject(m, "samples", (double)n);
    cJSON_AddNumberToObject(m, "median_rel_err", sig(rep->median_rel_err, 3));
    return m;
}

static int fit_type(cJSON *models, const char *path, const char *app, const char *type,
                    int max_local, int gpn, pollux_fit_row_t *rows, size_t max_rows,
                    size_t *n_rows, mls_err_t *err)
{
    pollux_sample_t *s = NULL;
    long n = pollux_read_placements(path, &s, err);
    if (n < 0)
        return -1;
    pollux_params_t p;
    pollux_fit_report_t rep;
    if (pollux_fit(s, (size_t)n, &p, &rep, err) < 0) {
        free(s);
        return mls_fail(err, "%s: %s", path, err->msg);
    }
    cJSON_AddItemToObject(models, type, model_json(&p, s, (size_t)n, max_local, gpn, &rep));
    if (*n_rows < max_rows) {
        pollux_fit_row_t *r = &rows[(*n_rows)++];
        snprintf(r->app, sizeof r->app, "%s", app);
        snprintf(r->type, sizeof r->type, "%s", type);
        r->samples = (size_t)n;
        r->rep = rep;
        r->params = p;
    }
    free(s);
    return 0;
}

static cJSON *gns_json(const valid_t *v, int n, int m0)
{
    cJSON *g = cJSON_CreateObject(), *bs = cJSON_AddArrayToObject(g, "batch_sizes"),
          *phi = cJSON_AddArrayToObject(g, "phi");
    int rows = v[0].rows;
    for (int k = 0; k < n; k++)
        if (v[k].rows < rows)
            rows = v[k].rows;
    for (int k = 0; k < n; k++) {
        cJSON_AddItemToArray(bs, cJSON_CreateNumber(v[k].batch));
        cJSON *row = cJSON_CreateArray();
        for (int e = 0; e < rows; e++)
            cJSON_AddItemToArray(row, cJSON_CreateNumber(sig(v[k].phi[e] * m0, 4)));
        cJSON_AddItemToArray(phi, row);
    }
    return g;
}

static int build_app(cJSON *ws, size_t a, const char *pollux_dir, const char *sia_dir,
                     pollux_fit_row_t *rows, size_t max_rows, size_t *n_rows, mls_err_t *err)
{
    char dir[1024], path[1200];
    snprintf(dir, sizeof dir, "%s/%s", pollux_dir, apps[a].name);
    valid_t *v = NULL;
    int nv = 0;
    if (read_validations(dir, &v, &nv, err) < 0)
        return -1;
    int m0 = v[0].batch;
    cJSON *o = cJSON_CreateObject();
    cJSON_AddItemToObject(ws, apps[a].name, o);
    cJSON_AddNumberToObject(o, "dataset_size", round(v[0].progress0 * m0));
    cJSON_AddNumberToObject(o, "completion_epochs", apps[a].epochs);
    cJSON_AddNumberToObject(o, "init_batch", m0);
    cJSON_AddNumberToObject(o, "max_batch", v[nv - 1].batch);
    cJSON_AddItemToObject(o, "gns", gns_json(v, nv, m0));
    for (int k = 0; k < nv; k++)
        free(v[k].phi);
    free(v);
    cJSON *models = cJSON_AddObjectToObject(o, "models");
    snprintf(path, sizeof path, "%s/placements.csv", dir);
    if (fit_type(models, path, apps[a].name, "t4", apps[a].max_local, 4, rows, max_rows, n_rows,
                 err) < 0)
        return -1;
    for (size_t t = 0; sia_dir && t < sizeof sia_types / sizeof sia_types[0]; t++) {
        snprintf(path, sizeof path, "%s/%s/%s", sia_dir, apps[a].name, sia_types[t].file);
        if (access(path, R_OK) != 0)
            continue;
        int gpn = !strcmp(sia_types[t].type, "rtx6000") ? 4 : 8;
        if (fit_type(models, path, apps[a].name, sia_types[t].type, 0, gpn, rows,
                     max_rows, n_rows, err) < 0)
            return -1;
    }
    return 0;
}

char *pollux_catalog_build(const char *pollux_dir, const char *sia_dir, pollux_fit_row_t *rows,
                           size_t max_rows, size_t *n_rows, mls_err_t *err)
{
    *n_rows = 0;
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", POLLUX_CATALOG_FORMAT);
    cJSON_AddNumberToObject(root, "version", 1);
    cJSON_AddStringToObject(
        root, "source",
        "mlsched model fit: Pollux T_iter fitted to petuum/adaptdl osdi21-artifact "
        "simulator/traces (t4) and siasosp23/artifacts sia-simulator/traces (other types); "
        "phi = grad_var/grad_sqr x M0 from validation-<B>.csv; see traces/catalog/README.md");
    cJSON *ws = cJSON_AddObjectToObject(root, "workloads");
    for (size_t a = 0; a < sizeof apps / sizeof apps[0]; a++)
        if (build_app(ws, a, pollux_dir, sia_dir, rows, max_rows, n_rows, err) < 0) {
            cJSON_Delete(root);
            return NULL;
        }
    char *text = cJSON_Print(root);
    cJSON_Delete(root);
    return text;
}
