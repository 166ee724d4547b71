/* perf_pollux.c: the Pollux goodput backend (see perf_pollux.h).
 *
 * The catalog is read once into dense arrays: per workload its constants and
 * phi schedule, per (workload, type) the fitted T_iter parameters. Rates are
 * then a handful of floating-point operations; the engine asks again only at
 * epoch boundaries (next_change). */
#include "model/json_util.h"
#include "model/perf_pollux.h"
#include "model/pollux_measured.h"
#include "model/strtab.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct pmodel {
    int present;
    pollux_params_t p;
    int min_local, max_local;
} pmodel_t;

typedef struct papp {
    double dataset; /* samples per epoch */
    int epochs, m0, max_batch;
    int n_bs, n_ep;  /* profiled batches, epochs per schedule */
    double *bs;      /* n_bs */
    double *phi;     /* [k * n_ep + e] */
    pmodel_t *model; /* per type */
    pollux_steps_t steps; /* measured step times (t4), measured-rates mode */
    int node_gpus;        /* the most GPUs a node holds in steps' placements */
} papp_t;

typedef struct pcat {
    mls_perf_t base;
    strtab_t workloads, types;
    papp_t *apps;
} pcat_t;

static const papp_t *app_of(const mls_perf_t *pm, int w)
{
    const pcat_t *c = (const pcat_t *)pm;
    if (w < 0 || (size_t)w >= c->workloads.n)
        return NULL;
    return &c->apps[w];
}

static const pmodel_t *model_of(const mls_perf_t *pm, int w, int t)
{
    const pcat_t *c = (const pcat_t *)pm;
    const papp_t *a = app_of(pm, w);
    if (!a || t < 0 || (size_t)t >= c->types.n || !a->model[t].present)
        return NULL;
    return &a->model[t];
}

/* ---- the model ----------------------------------------------------------- */

static double phi_at(const papp_t *a, double total_batch, int e)
{
    if (e >= a->n_ep)
        e = a->n_ep - 1;
    if (e < 0)
        e = 0;
    const double *row0 = a->phi;
    if (total_batch <= a->bs[0] || a->n_bs == 1)
        return row0[e];
    for (int k = 1; k < a->n_bs; k++)
        if (total_batch <= a->bs[k]) {
            double lo = a->phi[(k - 1) * a->n_ep + e], hi = a->phi[k * a->n_ep + e];
            double f = (total_batch - a->bs[k - 1]) / (a->bs[k] - a->bs[k - 1]);
            return lo + f * (hi - lo);
        }
    return a->phi[(a->n_bs - 1) * a->n_ep + e];
}

static int epoch_of(const papp_t *a, double work_done)
{
    double e = floor(work_done / a->dataset);
    if (e > 1e9)
        return 1000000000;
    if ((e + 1) * a->dataset <= work_done) /* rounding at a boundary */
        e += 1;
    return (int)e;
}

double perf_pollux_phi(const mls_perf_t *pm, int w, double total_batch, int epoch)
{
    const papp_t *a = pm->ops->backend && !strcmp(pm->ops->backend, "pollux") ? app_of(pm, w)
                                                                               : NULL;
    return a ? phi_at(a, total_batch, epoch) : NAN;
}

/* batch 0: Pollux's default (total max(M0, min_local x K)); otherwise the
 * atomic batch and accumulation as given, capped at max_batch. */
static int config(const papp_t *a, const pmodel_t *m, int gpus, int batch, int accum,
                  int *atomic, int *steps)
{
    if (batch <= 0) {
        double total = a->m0 > m->min_local * gpus ? a->m0 : (double)m->min_local * gpus;
        pollux_split_batch(ceil(total / gpus - 1e-8), gpus, a->m0, a->max_batch, m->max_local,
                           atomic, steps);
        return 0;
    }
    if (accum < 0) { /* batch is the per-GPU batch per step: split it to fit */
        pollux_split_batch(batch, gpus, a->m0, a->max_batch, m->max_local, atomic, steps);
        return 0;
    }
    int cap = a->max_batch / (gpus * (accum + 1));
    *atomic = batch < cap ? batch : (cap > 0 ? cap : 1);
    *steps = accum;
    return *atomic > m->max_local ? -1 : 0;
}

static double samples_rate(const mls_perf_t *pm, int w, int t, int gpus, int nodes, int batch,
                           int accum)
{
    const pmodel_t *m = model_of(pm, w, t);
    int atomic, steps;
    if (!m || gpus < 1 || config(app_of(pm, w), m, gpus, batch, accum, &atomic, &steps) < 0)
        return 0;
    return pollux_throughput(&m->p, nodes < 1 ? 1 : nodes, gpus, atomic, steps);
}

static double goodput(const mls_perf_t *pm, int w, int t, int gpus, int nodes, int batch,
                      int accum, double work_done)
{
    const pmodel_t *m = model_of(pm, w, t);
    const papp_t *a = app_of(pm, w);
    int atomic, steps;
    if (!m || gpus < 1 || config(a, m, gpus, batch, accum, &atomic, &steps) < 0)
        return 0;
    double total = (double)gpus * atomic * (steps + 1);
    double phi = phi_at(a, total, epoch_of(a, work_done));
    return pollux_throughput(&m->p, nodes < 1 ? 1 : nodes, gpus, atomic, steps) *
           pollux_efficiency(phi, a->m0, total);
}

/* The table-style query: `batch` is the per-GPU batch per optimizer step,
 * split into micro-batches that fit the GPU (0: the default); at the start
 * of training. */
static double p_throughput(const mls_perf_t *pm, int w, int t, int gpus, int nodes, int batch)
{
    const pmodel_t *m = model_of(pm, w, t);
    const papp_t *a = app_of(pm, w);
    if (!m || gpus < 1)
        return 0;
    int atomic = 0, steps = 0;
    if (batch > 0)
        pollux_split_batch(batch, gpus, a->m0, a->max_batch, m->max_local, &atomic, &steps);
    return goodput(pm, w, t, gpus, nodes, atomic, steps, 0);
}

static double next_change(const mls_perf_t *pm, int w, double work_done)
{
    const papp_t *a = app_of(pm, w);
    if (!a)
        return INFINITY;
    int e = epoch_of(a, work_done);
    if (e + 1 >= a->n_ep)
        return INFINITY;
    return (e + 1) * a->dataset;
}

static double noise_scale(const mls_perf_t *pm, int w, double total_batch, double work_done)
{
    const papp_t *a = app_of(pm, w);
    return a ? phi_at(a, total_batch, epoch_of(a, work_done)) : NAN;
}

static int batch_limits(const mls_perf_t *pm, int w, int t, perf_batch_limits_t *out)
{
    const pcat_t *c = (const pcat_t *)pm;
    const papp_t *a = app_of(pm, w);
    if (!a)
        return -1;
    out->init_batch = a->m0;
    out->max_batch = a->max_batch;
    out->epoch_work = a->dataset;
    out->min_local_batch = out->max_local_batch = 0;
    for (int k = 0; k < (int)c->types.n; k++) {
        const pmodel_t *m = &a->model[k];
        if (!m->present || (t >= 0 && k != t))
            continue;
        if (!out->min_local_batch || m->min_local < out->min_local_batch)
            out->min_local_batch = m->min_local;
        if (m->max_local > out->max_local_batch)
            out->max_local_batch = m->max_local;
    }
    return out->max_local_batch > 0 ? 0 : -1;
}

static void p_destroy(mls_perf_t *pm)
{
    pcat_t *c = (pcat_t *)pm;
    for (size_t w = 0; c->apps && w < c->workloads.n; w++) {
        free(c->apps[w].bs);
        free(c->apps[w].phi);
        free(c->apps[w].model);
        pollux_steps_free(&c->apps[w].steps);
    }
    free(c->apps);
    perf_named_free(&c->base, &c->workloads, &c->types);
    free(c);
}

static const perf_ops_t pollux_ops = {.backend = "pollux",
                                      PERF_NAMED_OPS,
                                      .throughput = p_throughput,
                                      .pair = NULL,
                                      .destroy = p_destroy,
                                      .goodput = goodput,
                                      .next_change = next_change,
                                      .samples_rate = samples_rate,
                                      .noise_scale = noise_scale,
                                      .batch_limits = batch_limits};

/* The measured-rates mode: on the profiled type (t4), the step time of the
 * configuration is the measured one (pollux_measured.h: of the job's own
 * placement when the engine gives its GPUs per node), with s accumulation
 * steps costing s x (step - sync) more, as Pollux's simulator runs a job.
 * *atomic and *steps: the configuration's micro-batch and accumulation steps;
 * *time: seconds per optimizer step. -1 off t4 or where nothing was measured
 * (the fitted model then). */
static int measured_step(const mls_perf_t *pm, int w, int t, int gpus, int nodes,
                         const int *per_node, int n_per, int batch, int accum, int *atomic,
                         int *steps, double *time)
{
    const pmodel_t *m = model_of(pm, w, t);
    const papp_t *a = app_of(pm, w);
    const char *type = m ? pm->ops->gpu_type_name(pm, t) : NULL;
    double step, sync;
    if (!m || gpus < 1 || !type || strcmp(type, "t4") || !a->steps.n ||
        config(a, m, gpus, batch, accum, atomic, steps) < 0 ||
        (per_node && n_per > 1
             ? pollux_steps_placed(&a->steps, per_node, n_per, *atomic, &step, &sync)
             : pollux_steps_at(&a->steps, nodes < 1 ? 1 : nodes, gpus, *atomic, &step, &sync)) < 0)
        return -1;
    *time = step + *steps * (step - sync);
    return 0;
}

/* The goodput of that: the efficiency that of the profiles' gradient
 * statistics where they are given; elsewhere, or where nothing was measured,
 * the fitted model. */
static double actual_goodput(const mls_perf_t *pm, int w, int t, int gpus, int nodes,
                             const int *per_node, int n_per, int batch, int accum, double work_done)
{
    const papp_t *a = app_of(pm, w);
    int atomic, steps;
    double time;
    if (measured_step(pm, w, t, gpus, nodes, per_node, n_per, batch, accum, &atomic, &steps,
                      &time) < 0)
        return goodput(pm, w, t, gpus, nodes, batch, accum, work_done);
    double total = (double)gpus * atomic * (steps + 1);
    double eff;
    if (pollux_steps_efficiency(&a->steps, total, epoch_of(a, work_done), a->m0, &eff) < 0)
        eff = pollux_efficiency(phi_at(a, total, epoch_of(a, work_done)), a->m0, total);
    return total / time * eff;
}

/* The placement a policy that knows only the GPU and node counts is shown:
 * the GPUs packed on nodes of the profiles' size (4, 4, ..., the rest), as
 * the artifact's Optimus predicts a step time (optimus.py predict_step_time);
 * 0 (the per-(nodes, GPUs) means then) when that is not `nodes` nodes. */
static int packed(const papp_t *a, int gpus, int nodes, int *per_node, int max)
{
    int n = 0, g = a->node_gpus;
    if (g < 1 || nodes < 2 || nodes > max || (gpus + g - 1) / g != nodes)
        return 0;
    for (int left = gpus; left > 0; left -= per_node[n++])
        per_node[n] = left < g ? left : g;
    return n;
}

/* What the policies are shown in the measured-rates mode with `shown`: the
 * measured rates of the GPU and node counts, the GPUs packed. */
static double shown_goodput(const mls_perf_t *pm, int w, int t, int gpus, int nodes, int batch,
                            int accum, double work_done)
{
    const papp_t *a = app_of(pm, w);
    int per[64], n = a ? packed(a, gpus, nodes, per, 64) : 0;
    return actual_goodput(pm, w, t, gpus, nodes, n ? per : NULL, n, batch, accum, work_done);
}

/* The samples/s they are shown there (no efficiency): the measured step time
 * of that packed placement; the fitted model where nothing was measured. */
static double shown_samples(const mls_perf_t *pm, int w, int t, int gpus, int nodes, int batch,
                            int accum)
{
    const papp_t *a = app_of(pm, w);
    int per[64], n = a ? packed(a, gpus, nodes, per, 64) : 0, atomic, steps;
    double time;
    if (measured_step(pm, w, t, gpus, nodes, n ? per : NULL, n, batch, accum, &atomic, &steps,
                      &time) < 0 ||
        !(time > 0))
        return samples_rate(pm, w, t, gpus, nodes, batch, accum);
    return (double)gpus * atomic * (steps + 1) / time;
}

static const perf_ops_t pollux_measured_ops = {.backend = "pollux",
                                               PERF_NAMED_OPS,
                                               .throughput = p_throughput,
                                               .pair = NULL,
                                               .destroy = p_destroy,
                                               .goodput = goodput,
                                               .next_change = next_change,
                                               .samples_rate = samples_rate,
                                               .noise_scale = noise_scale,
                                               .batch_limits = batch_limits,
                                               .actual_goodput = actual_goodput};

/* The same, with the policies shown the measured rates too (goodput and
 * samples/s; the artifact's Optimus reads the measured times). */
static const perf_ops_t pollux_measured_shown_ops = {.backend = "pollux",
                                                     PERF_NAMED_OPS,
                                                     .throughput = p_throughput,
                                                     .pair = NULL,
                                                     .destroy = p_destroy,
                                                     .goodput = shown_goodput,
                                                     .next_change = next_change,
                                                     .samples_rate = shown_samples,
                                                     .noise_scale = noise_scale,
                                                     .batch_limits = batch_limits,
                                                     .actual_goodput = actual_goodput};

int perf_pollux_measured(mls_perf_t *pm, const char *dir, int shown, mls_err_t *err)
{
    if (!pm->ops->backend || strcmp(pm->ops->backend, "pollux"))
        return mls_fail(err, "measured rates: %s is not a pollux catalog", pm->source);
    pcat_t *c = (pcat_t *)pm;
    for (size_t w = 0; w < c->workloads.n; w++) {
        char sub[4096];
        snprintf(sub, sizeof sub, "%s/%s", dir, pm->ops->workload_name(pm, (int)w));
        pollux_steps_free(&c->apps[w].steps);
        if (pollux_steps_read(sub, &c->apps[w].steps, err) < 0)
            return -1;
        c->apps[w].node_gpus = 0;
        for (size_t r = 0; r < c->apps[w].steps.n_placed; r++)
            for (const char *d = c->apps[w].steps.placed[r].id; *d; d++)
                if (*d - '0' > c->apps[w].node_gpus)
                    c->apps[w].node_gpus = *d - '0';
    }
    pm->ops = shown ? &pollux_measured_shown_ops : &pollux_measured_ops;
    return 0;
}

/* ---- reading the catalog ------------------------------------------------------ */

typedef struct rd {
    const char *path;
    mls_err_t *err;
} rd_t;

static int only_keys(const rd_t *r, const cJSON *obj, const char *where,
                     const char *const *known)
{
    const cJSON *it;
    cJSON_ArrayForEach(it, obj)
    {
        int ok = 0;
        for (int i = 0; known[i] && !ok; i++)
            ok = !strcmp(it->string, known[i]);
        if (!ok)
            return mls_fail(r->err, "%s: %s.%s: unknown field", r->path, where, it->string);
    }
    return 0;
}

static int get_num(const rd_t *r, const cJSON *obj, const char *where, const char *key,
                   double lo, double hi, int required, double *out)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, key);
    if (!v) {
        if (!required)
            return 0;
        return mls_fail(r->err, "%s: %s.%s: missing", r->path, where, key);
    }
    if (!cJSON_IsNumber(v) || !isfinite(v->valuedouble) || v->valuedouble < lo ||
        v->valuedouble > hi)
        return mls_fail(r->err, "%s: %s.%s: must be a number in [%g, %g]", r->path, where, key,
                        lo, hi);
    *out = v->valuedouble;
    return 0;
}

static int get_int(const rd_t *r, const cJSON *obj, const char *where, const char *key, int lo,
                   int *out)
{
    double d;
    if (get_num(r, obj, where, key, lo, 1e9, 1, &d) < 0)
        return -1;
    if (d != floor(d))
        return mls_fail(r->err, "%s: %s.%s: must be an integer", r->path, where, key);
    *out = (int)d;
    return 0;
}

static int read_model(const rd_t *r, const cJSON *o, const char *where, pmodel_t *m)
{
    static const char *const known[] = {
        "alpha_grad",      "beta_grad", "alpha_local",   "beta_local", "alpha_node",
        "beta_node",       "gamma",     "min_local_batch", "max_local_batch", "gpus_per_node",
        "samples",         "median_rel_err", NULL};
    if (!cJSON_IsObject(o))
        return mls_fail(r->err, "%s: %s: must be an object", r->path, where);
    if (only_keys(r, o, where, known) < 0)
        return -1;
    pollux_params_t *p = &m->p;
    double unused = 0;
    if (get_num(r, o, where, "alpha_grad", 1e-12, 1e6, 1, &p->alpha_grad) < 0 ||
        get_num(r, o, where, "beta_grad", 1e-15, 1e6, 1, &p->beta_grad) < 0 ||
        get_num(r, o, where, "alpha_local", 0, 1e6, 1, &p->alpha_local) < 0 ||
        get_num(r, o, where, "beta_local", 0, 1e6, 1, &p->beta_local) < 0 ||
        get_num(r, o, where, "alpha_node", 0, 1e6, 1, &p->alpha_node) < 0 ||
        get_num(r, o, where, "beta_node", 0, 1e6, 1, &p->beta_node) < 0 ||
        get_num(r, o, where, "gamma", 1, 10, 1, &p->gamma) < 0 ||
        get_int(r, o, where, "min_local_batch", 1, &m->min_local) < 0 ||
        get_int(r, o, where, "max_local_batch", 1, &m->max_local) < 0 ||
        get_num(r, o, where, "gpus_per_node", 1, 1e6, 0, &unused) < 0 ||
        get_num(r, o, where, "samples", 0, 1e12, 0, &unused) < 0 ||
        get_num(r, o, where, "median_rel_err", 0, 1e6, 0, &unused) < 0)
        return -1;
    if (m->min_local > m->max_local)
        return mls_fail(r->err, "%s: %s.min_local_batch: above max_local_batch", r->path, where);
    m->present = 1;
    return 0;
}

static int read_gns(const rd_t *r, const cJSON *g, const char *where, papp_t *a)
{
    static const char *const known[] = {"batch_sizes", "phi", NULL};
    if (!cJSON_IsObject(g))
        return mls_fail(r->err, "%s: %s: must be an object", r->path, where);
    if (only_keys(r, g, where, known) < 0)
        return -1;
    const cJSON *bs = cJSON_GetObjectItemCaseSensitive(g, "batch_sizes");
    const cJSON *phi = cJSON_GetObjectItemCaseSensitive(g, "phi");
    if (!bs)
        return mls_fail(r->err, "%s: %s.batch_sizes: missing", r->path, where);
    if (!phi)
        return mls_fail(r->err, "%s: %s.phi: missing", r->path, where);
    int n = cJSON_GetArraySize(bs);
    if (!cJSON_IsArray(bs) || n < 1)
        return mls_fail(r->err, "%s: %s.batch_sizes: must be a non-empty array", r->path, where);
    if (!cJSON_IsArray(phi) || cJSON_GetArraySize(phi) != n)
        return mls_fail(r->err, "%s: %s.phi: must hold one array per batch size (%d)", r->path,
                        where, n);
    a->n_bs = n;
    a->bs = xcalloc((size_t)n, sizeof(double));
    for (int k = 0; k < n; k++) {
        const cJSON *b = cJSON_GetArrayItem(bs, k);
        if (!cJSON_IsNumber(b) || !(b->valuedouble >= 1) || (k && b->valuedouble <= a->bs[k - 1]))
            return mls_fail(r->err, "%s: %s.batch_sizes[%d]: must be increasing numbers >= 1",
                            r->path, where, k);
        a->bs[k] = b->valuedouble;
        const cJSON *row = cJSON_GetArrayItem(phi, k);
        int ne = cJSON_GetArraySize(row);
        if (!cJSON_IsArray(row) || ne < 1 || (k && ne != a->n_ep))
            return mls_fail(r->err, "%s: %s.phi[%d]: must be a non-empty array as long as phi[0]",
                            r->path, where, k);
        if (!k) {
            a->n_ep = ne;
            a->phi = xcalloc((size_t)n * (size_t)ne, sizeof(double));
        }
        for (int e = 0; e < ne; e++) {
            const cJSON *v = cJSON_GetArrayItem(row, e);
            if (!cJSON_IsNumber(v) || !(v->valuedouble > 0) || !isfinite(v->valuedouble))
                return mls_fail(r->err, "%s: %s.phi[%d][%d]: must be a number > 0", r->path,
                                where, k, e);
            a->phi[k * ne + e] = v->valuedouble;
        }
    }
    return 0;
}

static int read_app(const rd_t *r, pcat_t *c, const cJSON *o, papp_t *a)
{
    static const char *const known[] = {"dataset_size", "completion_epochs", "init_batch",
                                        "max_batch",    "gns",               "models",
                                        NULL};
    char where[300];
    snprintf(where, sizeof where, "workloads.%s", o->string);
    if (!cJSON_IsObject(o))
        return mls_fail(r->err, "%s: %s: must be an object", r->path, where);
    if (only_keys(r, o, where, known) < 0 ||
        get_num(r, o, where, "dataset_size", 1, 1e15, 1, &a->dataset) < 0 ||
        get_int(r, o, where, "completion_epochs", 1, &a->epochs) < 0 ||
        get_int(r, o, where, "init_batch", 1, &a->m0) < 0 ||
        get_int(r, o, where, "max_batch", 1, &a->max_batch) < 0)
        return -1;
    if (a->max_batch < a->m0)
        return mls_fail(r->err, "%s: %s.max_batch: below init_batch", r->path, where);
    const cJSON *g = cJSON_GetObjectItemCaseSensitive(o, "gns");
    if (!g)
        return mls_fail(r->err, "%s: %s.gns: missing", r->path, where);
    char sub[400];
    snprintf(sub, sizeof sub, "%s.gns", where);
    if (read_gns(r, g, sub, a) < 0)
        return -1;
    const cJSON *ms = cJSON_GetObjectItemCaseSensitive(o, "models"), *m;
    if (!ms)
        return mls_fail(r->err, "%s: %s.models: missing", r->path, where);
    if (!cJSON_IsObject(ms) || !ms->child)
        return mls_fail(r->err, "%s: %s.models: must be an object of GPU types", r->path, where);
    a->model = xcalloc(c->types.n, sizeof *a->model);
    cJSON_ArrayForEach(m, ms)
    {
        char type[64];
        size_t i = 0;
        for (; m->string[i] && i + 1 < sizeof type; i++)
            type[i] = (char)tolower((unsigned char)m->string[i]);
        type[i] = '\0';
        snprintf(sub, sizeof sub, "%s.models.%s", where, m->string);
        int t = strtab_find(&c->types, type);
        if (a->model[t].present)
            return mls_fail(r->err, "%s: %s: GPU type given twice", r->path, sub);
        if (read_model(r, m, sub, &a->model[t]) < 0)
            return -1;
    }
    return 0;
}

static int fill(pcat_t *c, const cJSON *root, const rd_t *r)
{
    static const char *const known[] = {"format", "version", "source", "workloads", NULL};
    if (!cJSON_IsObject(root))
        return mls_fail(r->err, "%s: must be a JSON object", r->path);
    if (only_keys(r, root, "catalog", known) < 0)
        return -1;
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(root, "format");
    if (!cJSON_IsString(f) || strcmp(f->valuestring, POLLUX_CATALOG_FORMAT))
        return mls_fail(r->err, "%s: format: must be \"%s\"", r->path, POLLUX_CATALOG_FORMAT);
    double version;
    if (get_num(r, root, "catalog", "version", 1, 1, 1, &version) < 0)
        return -1;
    const cJSON *ws = cJSON_GetObjectItemCaseSensitive(root, "workloads"), *w, *m;
    if (!ws)
        return mls_fail(r->err, "%s: workloads: missing", r->path);
    if (!cJSON_IsObject(ws) || !ws->child)
        return mls_fail(r->err, "%s: workloads: must be a non-empty object", r->path);
    cJSON_ArrayForEach(w, ws)
    {
        strtab_intern(&c->workloads, w->string);
        const cJSON *ms = cJSON_GetObjectItemCaseSensitive(w, "models");
        cJSON_ArrayForEach(m, ms)
        {
            char type[64];
            size_t i = 0;
            for (; m->string[i] && i + 1 < sizeof type; i++)
                type[i] = (char)tolower((unsigned char)m->string[i]);
            type[i] = '\0';
            strtab_intern(&c->types, type);
        }
    }
    c->apps = xcalloc(c->workloads.n, sizeof *c->apps);
    cJSON_ArrayForEach(w, ws)
    {
        int k = strtab_find(&c->workloads, w->string);
        if (c->apps[k].model)
            return mls_fail(r->err, "%s: workloads.%s: given twice", r->path, w->string);
        if (read_app(r, c, w, &c->apps[k]) < 0)
            return -1;
    }
    return 0;
}

int perf_is_pollux_catalog(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    return strstr(buf, "\"" POLLUX_CATALOG_FORMAT "\"") != NULL;
}

int perf_pollux_load(mls_perf_t **pm, const char *path, mls_err_t *err)
{
    *pm = NULL;
    cJSON *root = mls_json_load(path, err);
    if (!root)
        return -1;
    pcat_t *c = xcalloc(1, sizeof *c);
    perf_named_init(&c->base, &pollux_ops, path, &c->workloads, &c->types);
    rd_t r = {path, err};
    int rc = fill(c, root, &r);
    cJSON_Delete(root);
    if (rc < 0) {
        p_destroy(&c->base);
        return -1;
    }
    *pm = &c->base;
    return 0;
}
