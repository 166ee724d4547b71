/* perf_curves.c: the curves perf backend — rates from profiler/ curve files,
 * or from the catalog `mlsched profile fit` writes (curves + Pollux fits).
 *
 * Work units are samples: throughput() is samples/s of the whole job,
 * num_gpus * local_bsz / iter_time. Only rows without gradient accumulation
 * (accum_steps = 1) are looked up; rows with accumulation feed the fit only.
 * For workload w on GPU type t, at `gpus` GPUs over `nodes` nodes and per-GPU
 * batch m (0 = the workload's default batch: the catalog's default_batch,
 * else the largest batch measured on one GPU):
 *
 * - Batch. At a measured (GPU count, node count), the iteration time and the
 *   memory are linear between the two measured batches around m. Below the
 *   smallest measured batch both are clamped to that batch's (a conservative
 *   rate: the iteration time does not fall with the batch). Above the largest,
 *   the rate is given only when the GPU type's memory is known (gpu_mem_bytes):
 *   memory is extrapolated linearly through the last two batches, and the
 *   iteration time follows the Pollux fit (T(m) = T_last * T_fit(m) /
 *   T_fit(m_last)) or, without a fit, keeps the last measured samples/s. A
 *   batch whose per-GPU memory exceeds the GPU's is refused (0), measured or
 *   not.
 * - GPU count. A (GPU count, node count) without rows is derived from the
 *   measured configuration with the most GPUs not above the request (same
 *   single/multi-node kind preferred): scaled by the Pollux fit's throughput
 *   ratio when a fit is present and the sync term the target needs (one node or
 *   across nodes) was identified by multi-GPU rows; otherwise linearly, as the
 *   table backend does. No configuration with at most that many GPUs: 0.
 *
 * samples_rate() (what policies see) is throughput(); with gradient
 * accumulation it is scaled by the fit's ratio, or unchanged without a fit.
 *
 * Pairs (space sharing: Gavel's packing, Gandiva). pair(a, b, t, gpus) gives
 * the measured rates of the catalog's "pairs" (pair files, model/curves.h):
 * member x runs at gpus * local_bsz_x / iter_time_x_s samples/s, when a and b
 * (in either order) were measured together on exactly `gpus` GPUs of type t.
 * Any other pair, GPU count or type cannot share (-1, as the table backend
 * answers for a pair without an entry): a pair rate is never derived from
 * solo curves or from another GPU count. pair() is given no batch, so the
 * rates are the ones measured at the pair file's batches, whatever batch the
 * jobs run at alone (a simplification: a job whose trace batch differs from
 * the measured one gets its solo rate at its own batch but its pair rate at
 * the measured batch; measure pairs at the batches the trace uses). Two jobs
 * of one workload (a = b) get the row's workload_a rate and workload_b rate,
 * in the order they are asked.
 * A plain curve file (no catalog) has no pairs. No batch limits or goodput
 * (the engine runs the trace's batch). */
#include "model/curve_catalog.h"
#include "model/perf.h"
#include "model/strtab.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cpoint {
    int batch;
    double iter_time, mem;
} cpoint_t;

typedef struct cconfig {
    int gpus, nodes;
    cpoint_t *pts; /* sorted by batch */
    size_t n, cap;
} cconfig_t;

typedef struct ccell {
    cconfig_t *cfg;
    size_t n_cfg;
    int have_fit, id_local, id_node;
    pollux_params_t fit;
} ccell_t;

/* One measured pair, as seen from its first member w: rates {w's, other's}. */
typedef struct cpair {
    int other, t, gpus;
    double rate[2];
    int next; /* the next entry of w's chain for the same other, -1 at the end */
} cpair_t;

typedef struct curves_perf {
    mls_perf_t base;
    cpair_t *pairs;  /* each measured pair twice, once from each member (once when a = b) */
    size_t n_pairs;
    int *pair_head;  /* [a * n_workloads + b]: first entry of a with b, -1 none */
    strtab_t workloads, types;
    ccell_t *cells;  /* [w * n_types + t] */
    double *gpu_mem; /* bytes per GPU of each type, 0 = unknown */
    int *default_batch;
} curves_perf_t;

static ccell_t *cell_at(const curves_perf_t *cp, int w, int t)
{
    return &cp->cells[(size_t)w * cp->types.n + (size_t)t];
}

static cconfig_t *config_find(const ccell_t *c, int gpus, int nodes)
{
    for (size_t i = 0; i < c->n_cfg; i++)
        if (c->cfg[i].gpus == gpus && c->cfg[i].nodes == nodes)
            return &c->cfg[i];
    return NULL;
}

/* ---- rates ---------------------------------------------------------------------- */

static double fit_time(const ccell_t *cell, const cconfig_t *c, double m)
{
    return pollux_iter_time(&cell->fit, c->nodes, c->gpus, m, 0);
}

/* Iteration time and memory above the largest measured batch. */
static void extrapolate(const ccell_t *cell, const cconfig_t *c, double m, double *T,
                        double *mem)
{
    const cpoint_t *b = &c->pts[c->n - 1], *a = c->n > 1 ? &c->pts[c->n - 2] : NULL;
    if (cell->have_fit)
        *T = b->iter_time * fit_time(cell, c, m) / fit_time(cell, c, b->batch);
    else
        *T = b->iter_time * m / b->batch;
    double slope = a ? (b->mem - a->mem) / (b->batch - a->batch) : b->mem / b->batch;
    *mem = b->mem + (slope > 0 ? slope : 0) * (m - b->batch);
}

static double config_rate(const curves_perf_t *cp, const ccell_t *cell, const cconfig_t *c,
                          int t, double m)
{
    const cpoint_t *p = c->pts;
    size_t n = c->n;
    double T, mem, cap = cp->gpu_mem[t];
    if (m <= p[0].batch) {
        T = p[0].iter_time;
        mem = p[0].mem;
    } else if (m <= p[n - 1].batch) {
        size_t i = 0;
        while (p[i + 1].batch < m)
            i++;
        double f = (m - p[i].batch) / (p[i + 1].batch - p[i].batch);
        T = p[i].iter_time + f * (p[i + 1].iter_time - p[i].iter_time);
        mem = p[i].mem + f * (p[i + 1].mem - p[i].mem);
    } else {
        if (!(cap > 0))
            return 0; /* beyond the measured batches, memory cannot be checked */
        extrapolate(cell, c, m, &T, &mem);
    }
    if (cap > 0 && mem > cap)
        return 0;
    return c->gpus * m / T;
}

/* The measured configuration a request for gpus over nodes is derived from. */
static const cconfig_t *base_config(const ccell_t *cell, int gpus, int nodes)
{
    const cconfig_t *best = NULL;
    for (size_t i = 0; i < cell->n_cfg; i++) {
        const cconfig_t *c = &cell->cfg[i];
        if (c->gpus > gpus)
            continue;
        int kind = (c->nodes > 1) == (nodes > 1);
        if (!best || c->gpus > best->gpus ||
            (c->gpus == best->gpus && kind && (best->nodes > 1) != (nodes > 1)))
            best = c;
    }
    return best;
}

static double c_throughput(const mls_perf_t *pm, int w, int t, int gpus, int nodes, int batch)
{
    const curves_perf_t *cp = (const curves_perf_t *)pm;
    if (w < 0 || t < 0 || gpus < 1 || (size_t)w >= cp->workloads.n || (size_t)t >= cp->types.n)
        return 0;
    const ccell_t *cell = cell_at(cp, w, t);
    double m = batch > 0 ? batch : cp->default_batch[w];
    if (nodes < 1)
        nodes = 1;
    if (!(m > 0) || nodes > gpus)
        return 0;
    const cconfig_t *c = config_find(cell, gpus, nodes);
    if (c)
        return config_rate(cp, cell, c, t, m);
    c = base_config(cell, gpus, nodes);
    if (!c)
        return 0;
    double r0 = config_rate(cp, cell, c, t, m);
    if (!(r0 > 0))
        return 0;
    int need_local = nodes == 1 && gpus > 1, need_node = nodes > 1;
    if (cell->have_fit && (!need_local || cell->id_local) && (!need_node || cell->id_node))
        return r0 * pollux_throughput(&cell->fit, nodes, gpus, m, 0) /
               pollux_throughput(&cell->fit, c->nodes, c->gpus, m, 0);
    return r0 * gpus / c->gpus;
}

/* Samples/s with `accum` extra accumulation steps (Pollux's s): the rate without
 * them, scaled by the fit's ratio when there is a fit (fewer syncs per sample);
 * without one, unchanged (the sync cost it saves was never measured). */
static double c_samples_rate(const mls_perf_t *pm, int w, int t, int gpus, int nodes, int batch,
                             int accum)
{
    const curves_perf_t *cp = (const curves_perf_t *)pm;
    double r = c_throughput(pm, w, t, gpus, nodes, batch);
    if (accum <= 0 || !(r > 0))
        return r;
    const ccell_t *cell = cell_at(cp, w, t);
    double m = batch > 0 ? batch : cp->default_batch[w];
    if (nodes < 1)
        nodes = 1;
    if (!cell->have_fit)
        return r;
    return r * pollux_throughput(&cell->fit, nodes, gpus, m, accum) /
           pollux_throughput(&cell->fit, nodes, gpus, m, 0);
}

static int c_pair(const mls_perf_t *pm, int a, int b, int t, int gpus, double out[2])
{
    const curves_perf_t *cp = (const curves_perf_t *)pm;
    size_t nw = cp->workloads.n;
    if (!cp->pair_head || a < 0 || b < 0 || (size_t)a >= nw || (size_t)b >= nw)
        return -1;
    for (int i = cp->pair_head[(size_t)a * nw + (size_t)b]; i >= 0; i = cp->pairs[i].next) {
        const cpair_t *p = &cp->pairs[i];
        if (p->t == t && p->gpus == gpus) {
            out[0] = p->rate[0];
            out[1] = p->rate[1];
            return 0;
        }
    }
    return -1;
}

static void c_destroy(mls_perf_t *pm)
{
    curves_perf_t *cp = (curves_perf_t *)pm;
    size_t n = cp->workloads.n * cp->types.n;
    for (size_t i = 0; cp->cells && i < n; i++) {
        for (size_t k = 0; k < cp->cells[i].n_cfg; k++)
            free(cp->cells[i].cfg[k].pts);
        free(cp->cells[i].cfg);
    }
    free(cp->cells);
    free(cp->pairs);
    free(cp->pair_head);
    free(cp->gpu_mem);
    free(cp->default_batch);
    perf_named_free(&cp->base, &cp->workloads, &cp->types);
    free(cp);
}

static const perf_ops_t curves_ops = {.backend = "curves",
                                      PERF_NAMED_OPS,
                                      .throughput = c_throughput,
                                      .pair = c_pair,
                                      .destroy = c_destroy,
                                      .samples_rate = c_samples_rate};

/* ---- building ------------------------------------------------------------------- */

static int point_cmp(const void *a, const void *b)
{
    const cpoint_t *x = a, *y = b;
    return (x->batch > y->batch) - (x->batch < y->batch);
}

static void add_row(curves_perf_t *cp, const curve_row_t *r)
{
    int w = strtab_find(&cp->workloads, r->workload), t = strtab_find(&cp->types, r->gpu_type);
    ccell_t *cell = cell_at(cp, w, t);
    cconfig_t *c = config_find(cell, r->num_gpus, r->num_nodes);
    if (!c) {
        cell->cfg = xrealloc(cell->cfg, sizeof *cell->cfg * (cell->n_cfg + 1));
        c = &cell->cfg[cell->n_cfg++];
        *c = (cconfig_t){r->num_gpus, r->num_nodes, NULL, 0, 0};
    }
    xgrow((void **)&c->pts, &c->cap, c->n + 1, sizeof *c->pts);
    c->pts[c->n++] = (cpoint_t){r->local_bsz, r->iter_time, (double)r->mem_bytes};
}

static void pair_link(curves_perf_t *cp, int w, int other, int t, int gpus, double rw,
                      double ro)
{
    size_t k = (size_t)w * cp->workloads.n + (size_t)other;
    cp->pairs[cp->n_pairs] = (cpair_t){other, t, gpus, {rw, ro}, cp->pair_head[k]};
    cp->pair_head[k] = (int)cp->n_pairs++;
}

/* The catalog's pairs (their workloads and types have curve rows: the catalog
 * checked that, so both are in the name tables). */
static void build_pairs(curves_perf_t *cp, const curve_set_t *cs)
{
    size_t nw = cp->workloads.n;
    if (!cs->n_pairs)
        return;
    cp->pairs = xcalloc(2 * cs->n_pairs, sizeof *cp->pairs);
    cp->pair_head = xmalloc(nw * nw * sizeof *cp->pair_head);
    for (size_t k = 0; k < nw * nw; k++)
        cp->pair_head[k] = -1;
    for (size_t i = 0; i < cs->n_pairs; i++) {
        const curve_pair_t *p = &cs->pairs[i];
        int a = strtab_find(&cp->workloads, p->workload[0]),
            b = strtab_find(&cp->workloads, p->workload[1]), t = strtab_find(&cp->types, p->gpu_type);
        if (a < 0 || b < 0 || t < 0)
            continue;
        double ra = curves_pair_rate(p, 0), rb = curves_pair_rate(p, 1);
        pair_link(cp, a, b, t, p->num_gpus, ra, rb);
        if (a != b)
            pair_link(cp, b, a, t, p->num_gpus, rb, ra);
    }
}

static void build(curves_perf_t *cp, const curve_catalog_t *cat)
{
    const curve_set_t *cs = &cat->curves;
    for (size_t i = 0; i < cs->n; i++) {
        strtab_intern(&cp->workloads, cs->rows[i].workload);
        strtab_intern(&cp->types, cs->rows[i].gpu_type);
    }
    size_t nw = cp->workloads.n, nt = cp->types.n;
    cp->cells = xcalloc(nw * nt, sizeof *cp->cells);
    cp->gpu_mem = xcalloc(nt, sizeof *cp->gpu_mem);
    cp->default_batch = xcalloc(nw, sizeof *cp->default_batch);
    for (size_t i = 0; i < cs->n; i++)
        if (cs->rows[i].accum_steps == 1)
            add_row(cp, &cs->rows[i]);
    for (size_t k = 0; k < nw * nt; k++)
        for (size_t c = 0; c < cp->cells[k].n_cfg; c++)
            qsort(cp->cells[k].cfg[c].pts, cp->cells[k].cfg[c].n, sizeof(cpoint_t), point_cmp);
    for (size_t t = 0; t < nt; t++) {
        const curve_gpu_t *g = catalog_gpu_of(cat, cp->types.names[t]);
        cp->gpu_mem[t] = g ? (double)g->mem_bytes : 0;
    }
    for (size_t w = 0; w < nw; w++) {
        cp->default_batch[w] = catalog_default_batch(cat, cp->workloads.names[w]);
        for (size_t t = 0; t < nt; t++) {
            const curve_fit_t *f = catalog_fit_of(cat, cp->workloads.names[w], cp->types.names[t]);
            ccell_t *cell = cell_at(cp, (int)w, (int)t);
            if (!f)
                continue;
            cell->have_fit = 1;
            cell->fit = f->p;
            cell->id_local = f->rep.identified_local;
            cell->id_node = f->rep.identified_node;
        }
    }
    build_pairs(cp, cs);
}

int perf_curves_sniff(const char *path)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    if (!strncmp(buf, CURVES_MAGIC, strlen(CURVES_MAGIC)))
        return 1;
    return buf[0] == '{' && strstr(buf, "\"" CATALOG_FORMAT "\"") ? 2 : 0;
}

int perf_curves_load(mls_perf_t **pm, const char *path, mls_err_t *err)
{
    *pm = NULL;
    curve_catalog_t cat;
    catalog_init(&cat);
    int rc, kind = perf_curves_sniff(path);
    if (kind == 2) {
        rc = catalog_read(&cat, path, err);
    } else if (kind == 1) {
        curve_set_t cs;
        curves_init(&cs);
        rc = curves_read(&cs, path, err);
        if (rc == 0)
            rc = catalog_build(&cat, &cs, 0, err);
        curves_free(&cs);
    } else {
        rc = mls_fail(err, "%s: neither a curve file (%s) nor a curves catalog", path,
                      CURVES_MAGIC);
    }
    if (rc < 0) {
        catalog_free(&cat);
        return -1;
    }
    curves_perf_t *cp = xcalloc(1, sizeof *cp);
    perf_named_init(&cp->base, &curves_ops, path, &cp->workloads, &cp->types);
    build(cp, &cat);
    catalog_free(&cat);
    *pm = &cp->base;
    return 0;
}
