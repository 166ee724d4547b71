/* curve_catalog.c: building, fitting, writing and reading the curves catalog
 * (see curve_catalog.h). The JSON is written with cJSON in a fixed key order
 * so that the same curves give byte-identical catalogs. */
#include "model/curve_catalog.h"
#include "model/json_util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const columns[] = {
    "workload",    "gpu_type",    "num_gpus",        "num_nodes",       "local_bsz",
    "accum_steps", "iter_time_s", "iter_time_p10_s", "iter_time_p90_s", "sync_time_s",
    "samples_per_s", "mem_bytes", "iters"};
#define N_COLUMNS (sizeof columns / sizeof columns[0])

void catalog_init(curve_catalog_t *cat)
{
    memset(cat, 0, sizeof *cat);
    curves_init(&cat->curves);
}

void catalog_free(curve_catalog_t *cat)
{
    curves_free(&cat->curves);
    free(cat->fits);
    free(cat->gpus);
    free(cat->defaults);
    memset(cat, 0, sizeof *cat);
}

static void copy_name(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
}

const curve_fit_t *catalog_fit_of(const curve_catalog_t *cat, const char *workload,
                                  const char *gpu_type)
{
    for (size_t i = 0; i < cat->n_fits; i++)
        if (!strcmp(cat->fits[i].workload, workload) &&
            !strcasecmp(cat->fits[i].gpu_type, gpu_type))
            return &cat->fits[i];
    return NULL;
}

const curve_gpu_t *catalog_gpu_of(const curve_catalog_t *cat, const char *gpu_type)
{
    for (size_t i = 0; i < cat->n_gpus; i++)
        if (!strcasecmp(cat->gpus[i].gpu_type, gpu_type))
            return &cat->gpus[i];
    return NULL;
}

int catalog_default_batch(const curve_catalog_t *cat, const char *workload)
{
    for (size_t i = 0; i < cat->n_defaults; i++)
        if (!strcmp(cat->defaults[i].workload, workload))
            return cat->defaults[i].batch;
    return 0;
}

static curve_gpu_t *gpu_add(curve_catalog_t *cat, const char *gpu_type)
{
    curve_gpu_t *g = (curve_gpu_t *)catalog_gpu_of(cat, gpu_type);
    if (g)
        return g;
    cat->gpus = xrealloc(cat->gpus, sizeof *cat->gpus * (cat->n_gpus + 1));
    g = &cat->gpus[cat->n_gpus++];
    memset(g, 0, sizeof *g);
    copy_name(g->gpu_type, sizeof g->gpu_type, gpu_type);
    for (char *p = g->gpu_type; *p; p++)
        *p = (char)(*p >= 'A' && *p <= 'Z' ? *p - 'A' + 'a' : *p);
    return g;
}

void catalog_set_gpu_mem(curve_catalog_t *cat, const char *gpu_type, int64_t bytes)
{
    gpu_add(cat, gpu_type)->mem_bytes = bytes;
}

/* GPU types of the rows, their names and memory from each row's file metadata. */
static void derive_gpus(curve_catalog_t *cat)
{
    const curve_set_t *cs = &cat->curves;
    for (size_t i = 0; i < cs->n; i++) {
        const curve_row_t *r = &cs->rows[i];
        curve_gpu_t *g = gpu_add(cat, r->gpu_type);
        if (r->file < 0)
            continue;
        const char *mt = curves_meta(cs, r->file, "gpu_type");
        if (mt && strcasecmp(mt, r->gpu_type))
            continue; /* the file's metadata describes another type */
        const char *name = curves_meta(cs, r->file, "gpu_name");
        const char *mem = curves_meta(cs, r->file, "gpu_mem_bytes");
        if (name && !g->gpu_name[0])
            copy_name(g->gpu_name, sizeof g->gpu_name, name);
        double v;
        if (mem && !g->mem_bytes && mls_parse_double(mem, &v) == 0 && v > 0)
            g->mem_bytes = (int64_t)v;
    }
}

/* The largest batch of each workload on one GPU without accumulation (or of any
 * row when it has none), for workloads that have no default yet. */
static void derive_defaults(curve_catalog_t *cat)
{
    const curve_set_t *cs = &cat->curves;
    size_t keep = cat->n_defaults; /* entries below keep are not changed */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < cs->n; i++) {
            const curve_row_t *r = &cs->rows[i];
            if (pass == 0 && (r->num_gpus != 1 || r->accum_steps != 1))
                continue;
            size_t k = 0;
            while (k < cat->n_defaults && strcmp(cat->defaults[k].workload, r->workload))
                k++;
            if (k < keep)
                continue;
            if (k == cat->n_defaults) {
                cat->defaults =
                    xrealloc(cat->defaults, sizeof *cat->defaults * (cat->n_defaults + 1));
                copy_name(cat->defaults[k].workload, sizeof cat->defaults[k].workload,
                          r->workload);
                cat->defaults[k].batch = 0;
                cat->n_defaults++;
            }
            if (r->local_bsz > cat->defaults[k].batch)
                cat->defaults[k].batch = r->local_bsz;
        }
        keep = cat->n_defaults; /* pass 1 only adds workloads without one-GPU rows */
    }
}

static int fit_one(curve_catalog_t *cat, const char *workload, const char *gpu_type,
                   mls_err_t *err)
{
    const curve_set_t *cs = &cat->curves;
    pollux_sample_t *s = xmalloc(sizeof *s * (cs->n ? cs->n : 1));
    size_t n = 0;
    for (size_t i = 0; i < cs->n; i++) {
        const curve_row_t *r = &cs->rows[i];
        if (!strcmp(r->workload, workload) && !strcasecmp(r->gpu_type, gpu_type))
            s[n++] = (pollux_sample_t){r->num_nodes, r->num_gpus, r->local_bsz,
                                       r->accum_steps - 1, r->iter_time};
    }
    int rc = 0;
    if (n >= 3) {
        curve_fit_t f;
        memset(&f, 0, sizeof f);
        copy_name(f.workload, sizeof f.workload, workload);
        copy_name(f.gpu_type, sizeof f.gpu_type, gpu_type);
        f.rows = (int)n;
        mls_err_t ferr = {{0}};
        if (pollux_fit(s, n, &f.p, &f.rep, &ferr) < 0) {
            rc = mls_fail(err, "%s on %s: %s", workload, gpu_type, ferr.msg);
        } else {
            cat->fits = xrealloc(cat->fits, sizeof *cat->fits * (cat->n_fits + 1));
            cat->fits[cat->n_fits++] = f;
        }
    }
    free(s);
    return rc;
}

/* 1 when workload w has curve rows on gpu_type. */
static int has_rows(const curve_set_t *cs, const char *w, const char *gpu_type)
{
    for (size_t i = 0; i < cs->n; i++)
        if (!strcmp(cs->rows[i].workload, w) && !strcasecmp(cs->rows[i].gpu_type, gpu_type))
            return 1;
    return 0;
}

/* Every pair's workloads have curve rows on its GPU type; `path` (the
 * catalog's, or NULL) prefixes the message. */
static int check_pairs(const curve_set_t *cs, const char *path, mls_err_t *err)
{
    for (size_t i = 0; i < cs->n_pairs; i++) {
        const curve_pair_t *p = &cs->pairs[i];
        for (int k = 0; k < 2; k++)
            if (!has_rows(cs, p->workload[k], p->gpu_type)) {
                char where[512];
                return mls_fail(err, "%s%s%s: workload_%s: '%s' has no curve rows on %s",
                                path ? path : "", path ? ": " : "",
                                curves_pair_where(cs, p, where, sizeof where), k ? "b" : "a",
                                p->workload[k], p->gpu_type);
            }
    }
    return 0;
}

int catalog_build(curve_catalog_t *cat, curve_set_t *cs, int fit, mls_err_t *err)
{
    curves_free(&cat->curves);
    cat->curves = *cs;
    curves_init(cs);
    if (check_pairs(&cat->curves, NULL, err) < 0)
        return -1;
    derive_gpus(cat);
    derive_defaults(cat);
    if (!fit)
        return 0;
    const curve_set_t *all = &cat->curves;
    for (size_t i = 0; i < all->n; i++) {
        const curve_row_t *r = &all->rows[i];
        int first = 1;
        for (size_t k = 0; k < i && first; k++)
            first = strcmp(all->rows[k].workload, r->workload) ||
                    strcasecmp(all->rows[k].gpu_type, r->gpu_type);
        if (first && fit_one(cat, r->workload, r->gpu_type, err) < 0)
            return -1;
    }
    return 0;
}

/* ---- writing ---------------------------------------------------------------------- */

static cJSON *sources_json(const curve_set_t *cs)
{
    cJSON *arr = cJSON_CreateArray();
    for (size_t f = 0; f < cs->n_files; f++) {
        cJSON *o = cJSON_CreateObject(), *m = cJSON_CreateObject();
        cJSON_AddStringToObject(o, "file", cs->files[f]);
        for (size_t i = 0; i < cs->n_meta; i++)
            if (cs->meta[i].file == (int)f && !cJSON_GetObjectItemCaseSensitive(m, cs->meta[i].key))
                cJSON_AddStringToObject(m, cs->meta[i].key, cs->meta[i].value);
        cJSON_AddItemToObject(o, "metadata", m);
        cJSON_AddItemToArray(arr, o);
    }
    return arr;
}

static cJSON *row_json(const curve_row_t *r)
{
    cJSON *a = cJSON_CreateArray();
    cJSON_AddItemToArray(a, cJSON_CreateString(r->workload));
    cJSON_AddItemToArray(a, cJSON_CreateString(r->gpu_type));
    double v[] = {r->num_gpus,    r->num_nodes, r->local_bsz, r->accum_steps,
                  r->iter_time,   r->iter_p10,  r->iter_p90,  r->sync_time,
                  r->samples_per_s, (double)r->mem_bytes, r->iters};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        cJSON_AddItemToArray(a, cJSON_CreateNumber(v[i]));
    return a;
}

static cJSON *fit_json(const curve_fit_t *f)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "workload", f->workload);
    cJSON_AddStringToObject(o, "gpu_type", f->gpu_type);
    cJSON_AddNumberToObject(o, "rows", f->rows);
    cJSON_AddNumberToObject(o, "alpha_grad", f->p.alpha_grad);
    cJSON_AddNumberToObject(o, "beta_grad", f->p.beta_grad);
    cJSON_AddNumberToObject(o, "alpha_local", f->p.alpha_local);
    cJSON_AddNumberToObject(o, "beta_local", f->p.beta_local);
    cJSON_AddNumberToObject(o, "alpha_node", f->p.alpha_node);
    cJSON_AddNumberToObject(o, "beta_node", f->p.beta_node);
    cJSON_AddNumberToObject(o, "gamma", f->p.gamma);
    cJSON_AddNumberToObject(o, "median_rel_err", f->rep.median_rel_err);
    cJSON_AddNumberToObject(o, "max_rel_err", f->rep.max_rel_err);
    cJSON_AddBoolToObject(o, "identified_local", f->rep.identified_local);
    cJSON_AddBoolToObject(o, "identified_node", f->rep.identified_node);
    return o;
}

static cJSON *pair_json(const curve_pair_t *p)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "gpu_type", p->gpu_type);
    cJSON_AddNumberToObject(o, "num_gpus", p->num_gpus);
    cJSON_AddStringToObject(o, "workload_a", p->workload[0]);
    cJSON_AddNumberToObject(o, "local_bsz_a", p->local_bsz[0]);
    cJSON_AddStringToObject(o, "workload_b", p->workload[1]);
    cJSON_AddNumberToObject(o, "local_bsz_b", p->local_bsz[1]);
    cJSON_AddNumberToObject(o, "iter_time_a_s", p->iter_time[0]);
    cJSON_AddNumberToObject(o, "iter_time_b_s", p->iter_time[1]);
    cJSON_AddNumberToObject(o, "samples_per_s_a", p->samples_per_s[0]);
    cJSON_AddNumberToObject(o, "samples_per_s_b", p->samples_per_s[1]);
    cJSON_AddNumberToObject(o, "iters", p->iters);
    return o;
}

int catalog_write(const curve_catalog_t *cat, const char *path, mls_err_t *err)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "format", CATALOG_FORMAT);
    cJSON_AddItemToObject(root, "sources", sources_json(&cat->curves));
    cJSON *gpus = cJSON_AddObjectToObject(root, "gpu_types");
    for (size_t i = 0; i < cat->n_gpus; i++) {
        cJSON *g = cJSON_AddObjectToObject(gpus, cat->gpus[i].gpu_type);
        cJSON_AddStringToObject(g, "gpu_name", cat->gpus[i].gpu_name);
        cJSON_AddNumberToObject(g, "gpu_mem_bytes", (double)cat->gpus[i].mem_bytes);
    }
    cJSON *wl = cJSON_AddObjectToObject(root, "workloads");
    for (size_t i = 0; i < cat->n_defaults; i++) {
        cJSON *w = cJSON_AddObjectToObject(wl, cat->defaults[i].workload);
        cJSON_AddNumberToObject(w, "default_batch", cat->defaults[i].batch);
    }
    cJSON *cols = cJSON_AddArrayToObject(root, "columns");
    for (size_t c = 0; c < N_COLUMNS; c++)
        cJSON_AddItemToArray(cols, cJSON_CreateString(columns[c]));
    cJSON *rows = cJSON_AddArrayToObject(root, "rows");
    for (size_t i = 0; i < cat->curves.n; i++)
        cJSON_AddItemToArray(rows, row_json(&cat->curves.rows[i]));
    cJSON *fits = cJSON_AddArrayToObject(root, "fits");
    for (size_t i = 0; i < cat->n_fits; i++)
        cJSON_AddItemToArray(fits, fit_json(&cat->fits[i]));
    if (cat->curves.n_pairs) {
        cJSON *pairs = cJSON_AddArrayToObject(root, "pairs");
        for (size_t i = 0; i < cat->curves.n_pairs; i++)
            cJSON_AddItemToArray(pairs, pair_json(&cat->curves.pairs[i]));
    }
    int rc = mls_json_save(path, root, err);
    cJSON_Delete(root);
    return rc;
}

/* ---- reading ---------------------------------------------------------------------- */

static int get_number(const cJSON *o, const char *key, double *out, const char *path,
                      const char *where, mls_err_t *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble))
        return mls_fail(err, "%s: %s: %s: must be a number", path, where, key);
    *out = v->valuedouble;
    return 0;
}

static int read_sources(curve_catalog_t *cat, const cJSON *root, const char *path,
                        mls_err_t *err)
{
    const cJSON *src = cJSON_GetObjectItemCaseSensitive(root, "sources"), *s;
    if (!src)
        return 0;
    if (!cJSON_IsArray(src))
        return mls_fail(err, "%s: sources: must be an array", path);
    curve_set_t *cs = &cat->curves;
    cJSON_ArrayForEach(s, src)
    {
        const cJSON *file = cJSON_GetObjectItemCaseSensitive(s, "file");
        const cJSON *meta = cJSON_GetObjectItemCaseSensitive(s, "metadata"), *m;
        if (!cJSON_IsString(file))
            return mls_fail(err, "%s: sources: each needs \"file\": a string", path);
        cs->files = xrealloc(cs->files, sizeof *cs->files * (cs->n_files + 1));
        cs->files[cs->n_files++] = xstrdup(file->valuestring);
        cJSON_ArrayForEach(m, meta)
        {
            if (cJSON_IsString(m))
                curves_set_meta(cs, (int)cs->n_files - 1, m->string, m->valuestring);
        }
    }
    return 0;
}

static int read_gpus(curve_catalog_t *cat, const cJSON *root, const char *path, mls_err_t *err)
{
    const cJSON *gpus = cJSON_GetObjectItemCaseSensitive(root, "gpu_types"), *g;
    if (gpus && !cJSON_IsObject(gpus))
        return mls_fail(err, "%s: gpu_types: must be an object keyed by GPU type", path);
    cJSON_ArrayForEach(g, gpus)
    {
        char where[96];
        snprintf(where, sizeof where, "gpu_types.%s", g->string);
        double mem = 0;
        const cJSON *name = cJSON_GetObjectItemCaseSensitive(g, "gpu_name");
        if (cJSON_GetObjectItemCaseSensitive(g, "gpu_mem_bytes") &&
            get_number(g, "gpu_mem_bytes", &mem, path, where, err) < 0)
            return -1;
        if (mem < 0)
            return mls_fail(err, "%s: %s: gpu_mem_bytes: must be >= 0", path, where);
        curve_gpu_t *cg = gpu_add(cat, g->string);
        cg->mem_bytes = (int64_t)mem;
        if (cJSON_IsString(name))
            copy_name(cg->gpu_name, sizeof cg->gpu_name, name->valuestring);
    }
    return 0;
}

static int read_workloads(curve_catalog_t *cat, const cJSON *root, const char *path,
                          mls_err_t *err)
{
    const cJSON *wl = cJSON_GetObjectItemCaseSensitive(root, "workloads"), *w;
    if (wl && !cJSON_IsObject(wl))
        return mls_fail(err, "%s: workloads: must be an object keyed by workload", path);
    cJSON_ArrayForEach(w, wl)
    {
        char where[192];
        snprintf(where, sizeof where, "workloads.%s", w->string);
        double b = 0;
        if (get_number(w, "default_batch", &b, path, where, err) < 0)
            return -1;
        if (b < 1 || b != floor(b) || b > 1e9)
            return mls_fail(err, "%s: %s: default_batch: must be an integer >= 1", path, where);
        cat->defaults = xrealloc(cat->defaults, sizeof *cat->defaults * (cat->n_defaults + 1));
        copy_name(cat->defaults[cat->n_defaults].workload, sizeof cat->defaults->workload,
                  w->string);
        cat->defaults[cat->n_defaults++].batch = (int)b;
    }
    return 0;
}

static int read_row(curve_catalog_t *cat, const cJSON *a, size_t i, const char *path,
                    mls_err_t *err)
{
    char where[512];
    snprintf(where, sizeof where, "%s: rows[%zu]", path, i);
    if (!cJSON_IsArray(a) || cJSON_GetArraySize(a) != (int)N_COLUMNS)
        return mls_fail(err, "%s: must be an array of %zu values (see columns)", where,
                        N_COLUMNS);
    const cJSON *w = cJSON_GetArrayItem(a, 0), *t = cJSON_GetArrayItem(a, 1);
    if (!cJSON_IsString(w) || !cJSON_IsString(t))
        return mls_fail(err, "%s: workload and gpu_type must be strings", where);
    double v[N_COLUMNS];
    for (size_t c = 2; c < N_COLUMNS; c++) {
        const cJSON *x = cJSON_GetArrayItem(a, (int)c);
        if (!cJSON_IsNumber(x) || !isfinite(x->valuedouble))
            return mls_fail(err, "%s: %s: must be a number", where, columns[c]);
        v[c] = x->valuedouble;
        if (c <= 5 && (v[c] != floor(v[c]) || fabs(v[c]) > 1e9))
            return mls_fail(err, "%s: %s: must be an integer", where, columns[c]);
    }
    curve_row_t r = {.num_gpus = (int)v[2], .num_nodes = (int)v[3], .local_bsz = (int)v[4],
                     .accum_steps = (int)v[5], .iter_time = v[6], .iter_p10 = v[7],
                     .iter_p90 = v[8], .sync_time = v[9], .samples_per_s = v[10],
                     .mem_bytes = (int64_t)v[11], .iters = (int)v[12], .file = -1,
                     .line = (long)i};
    if (strlen(w->valuestring) >= sizeof r.workload || strlen(t->valuestring) >= sizeof r.gpu_type)
        return mls_fail(err, "%s: workload or gpu_type name too long", where);
    copy_name(r.workload, sizeof r.workload, w->valuestring);
    copy_name(r.gpu_type, sizeof r.gpu_type, t->valuestring);
    return curves_add(&cat->curves, &r, where, err);
}

static int read_rows(curve_catalog_t *cat, const cJSON *root, const char *path, mls_err_t *err)
{
    const cJSON *cols = cJSON_GetObjectItemCaseSensitive(root, "columns");
    int ok = cJSON_IsArray(cols) && cJSON_GetArraySize(cols) == (int)N_COLUMNS;
    for (size_t c = 0; ok && c < N_COLUMNS; c++) {
        const cJSON *s = cJSON_GetArrayItem(cols, (int)c);
        ok = cJSON_IsString(s) && !strcmp(s->valuestring, columns[c]);
    }
    if (!ok)
        return mls_fail(err, "%s: columns: must be [\"%s\", ...] as the curve file's header",
                        path, columns[0]);
    const cJSON *rows = cJSON_GetObjectItemCaseSensitive(root, "rows"), *a;
    if (!cJSON_IsArray(rows) || cJSON_GetArraySize(rows) == 0)
        return mls_fail(err, "%s: rows: must be a non-empty array", path);
    size_t i = 0;
    cJSON_ArrayForEach(a, rows)
    {
        if (read_row(cat, a, i++, path, err) < 0)
            return -1;
    }
    return 0;
}

static int read_fit(curve_catalog_t *cat, const cJSON *o, size_t i, const char *path,
                    mls_err_t *err)
{
    char where[64];
    snprintf(where, sizeof where, "fits[%zu]", i);
    const cJSON *w = cJSON_GetObjectItemCaseSensitive(o, "workload");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(o, "gpu_type");
    if (!cJSON_IsString(w) || !cJSON_IsString(t))
        return mls_fail(err, "%s: %s: needs \"workload\" and \"gpu_type\" strings", path, where);
    curve_fit_t f;
    memset(&f, 0, sizeof f);
    copy_name(f.workload, sizeof f.workload, w->valuestring);
    copy_name(f.gpu_type, sizeof f.gpu_type, t->valuestring);
    double *dst[] = {&f.p.alpha_grad, &f.p.beta_grad,  &f.p.alpha_local, &f.p.beta_local,
                     &f.p.alpha_node, &f.p.beta_node};
    const char *names[] = {"alpha_grad", "beta_grad",  "alpha_local",
                           "beta_local", "alpha_node", "beta_node"};
    for (size_t k = 0; k < 6; k++) {
        if (get_number(o, names[k], dst[k], path, where, err) < 0)
            return -1;
        if (*dst[k] < 0)
            return mls_fail(err, "%s: %s: %s: must be >= 0", path, where, names[k]);
    }
    if (get_number(o, "gamma", &f.p.gamma, path, where, err) < 0)
        return -1;
    if (f.p.gamma < 1 || f.p.gamma > 10)
        return mls_fail(err, "%s: %s: gamma: must be in [1, 10]", path, where);
    double d = 0;
    if (get_number(o, "median_rel_err", &d, path, where, err) == 0)
        f.rep.median_rel_err = d;
    if (get_number(o, "max_rel_err", &d, path, where, err) == 0)
        f.rep.max_rel_err = d;
    if (get_number(o, "rows", &d, path, where, err) == 0)
        f.rows = (int)d;
    f.rep.identified_local = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "identified_local"));
    f.rep.identified_node = cJSON_IsTrue(cJSON_GetObjectItemCaseSensitive(o, "identified_node"));
    if (catalog_fit_of(cat, f.workload, f.gpu_type))
        return mls_fail(err, "%s: %s: a second fit of %s on %s", path, where, f.workload,
                        f.gpu_type);
    cat->fits = xrealloc(cat->fits, sizeof *cat->fits * (cat->n_fits + 1));
    cat->fits[cat->n_fits++] = f;
    return 0;
}

static int read_fits(curve_catalog_t *cat, const cJSON *root, const char *path, mls_err_t *err)
{
    const cJSON *fits = cJSON_GetObjectItemCaseSensitive(root, "fits"), *o;
    if (fits && !cJSON_IsArray(fits))
        return mls_fail(err, "%s: fits: must be an array", path);
    size_t i = 0;
    cJSON_ArrayForEach(o, fits)
    {
        if (read_fit(cat, o, i++, path, err) < 0)
            return -1;
    }
    return 0;
}

static int get_int(const cJSON *o, const char *key, int *out, const char *path,
                   const char *where, mls_err_t *err)
{
    double v = 0;
    if (get_number(o, key, &v, path, where, err) < 0)
        return -1;
    if (v != floor(v) || fabs(v) > 1e9)
        return mls_fail(err, "%s: %s: %s: must be an integer", path, where, key);
    *out = (int)v;
    return 0;
}

static int get_name(const cJSON *o, const char *key, char *out, size_t cap, const char *path,
                    const char *where, mls_err_t *err)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(o, key);
    if (!cJSON_IsString(v) || strlen(v->valuestring) >= cap)
        return mls_fail(err, "%s: %s: %s: must be a string of at most %zu characters", path,
                        where, key, cap - 1);
    copy_name(out, cap, v->valuestring);
    return 0;
}

static int read_pair(curve_catalog_t *cat, const cJSON *o, size_t i, const char *path,
                     mls_err_t *err)
{
    char where[64], full[600];
    snprintf(where, sizeof where, "pairs[%zu]", i);
    curve_pair_t p = {.file = -1, .line = (long)i};
    if (!cJSON_IsObject(o))
        return mls_fail(err, "%s: %s: must be an object", path, where);
    if (get_name(o, "gpu_type", p.gpu_type, sizeof p.gpu_type, path, where, err) < 0 ||
        get_int(o, "num_gpus", &p.num_gpus, path, where, err) < 0 ||
        get_name(o, "workload_a", p.workload[0], sizeof p.workload[0], path, where, err) < 0 ||
        get_int(o, "local_bsz_a", &p.local_bsz[0], path, where, err) < 0 ||
        get_name(o, "workload_b", p.workload[1], sizeof p.workload[1], path, where, err) < 0 ||
        get_int(o, "local_bsz_b", &p.local_bsz[1], path, where, err) < 0 ||
        get_number(o, "iter_time_a_s", &p.iter_time[0], path, where, err) < 0 ||
        get_number(o, "iter_time_b_s", &p.iter_time[1], path, where, err) < 0 ||
        get_number(o, "samples_per_s_a", &p.samples_per_s[0], path, where, err) < 0 ||
        get_number(o, "samples_per_s_b", &p.samples_per_s[1], path, where, err) < 0)
        return -1;
    if (cJSON_GetObjectItemCaseSensitive(o, "iters") &&
        get_int(o, "iters", &p.iters, path, where, err) < 0)
        return -1;
    snprintf(full, sizeof full, "%s: %s", path, where);
    return curves_add_pair(&cat->curves, &p, full, err);
}

static int read_pairs(curve_catalog_t *cat, const cJSON *root, const char *path, mls_err_t *err)
{
    const cJSON *pairs = cJSON_GetObjectItemCaseSensitive(root, "pairs"), *o;
    if (pairs && !cJSON_IsArray(pairs))
        return mls_fail(err, "%s: pairs: must be an array", path);
    size_t i = 0;
    cJSON_ArrayForEach(o, pairs)
    {
        if (read_pair(cat, o, i++, path, err) < 0)
            return -1;
    }
    return 0;
}

int catalog_read(curve_catalog_t *cat, const char *path, mls_err_t *err)
{
    cJSON *root = mls_json_load(path, err);
    if (!root)
        return -1;
    int rc = 0;
    const cJSON *fmt = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(fmt) || strcmp(fmt->valuestring, CATALOG_FORMAT))
        rc = mls_fail(err, "%s: format: must be \"%s\"", path, CATALOG_FORMAT);
    if (rc == 0)
        rc = read_sources(cat, root, path, err);
    if (rc == 0)
        rc = read_gpus(cat, root, path, err);
    if (rc == 0)
        rc = read_workloads(cat, root, path, err);
    if (rc == 0)
        rc = read_rows(cat, root, path, err);
    if (rc == 0)
        rc = read_fits(cat, root, path, err);
    if (rc == 0)
        rc = read_pairs(cat, root, path, err);
    if (rc == 0)
        rc = check_pairs(&cat->curves, path, err);
    for (size_t i = 0; rc == 0 && i < cat->curves.n; i++)
        gpu_add(cat, cat->curves.rows[i].gpu_type);
    if (rc == 0)
        derive_defaults(cat);
    cJSON_Delete(root);
    return rc;
}
