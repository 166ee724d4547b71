/* perf.c: loading a perf model and name lookups common to every backend
 * (see perf.h).
 *
 * The backends are one table, as policies/registry.c is for policies: each
 * row names a backend, says whether a file is in its format (sniff) and loads
 * it. perf_load() asks the rows in order and loads with the first that
 * recognises the file; the last row (table) takes any file, so it is the
 * fallback. Adding a backend is one row here. */
#include "model/perf.h"

#include "model/datadir.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define CATALOG_NAME "default-throughputs.json"

const char *perf_default_catalog(char *buf, size_t n)
{
    mls_data_find(MLS_DATA_CATALOG, CATALOG_NAME, buf, n);
    return buf;
}

int perf_load_or_default(mls_perf_t **pm, const char *path, mls_err_t *err)
{
    char buf[4096];
    return perf_load(pm, path ? path : perf_default_catalog(buf, sizeof buf), err);
}

/* The table backend reads any JSON object; its loader says what is wrong. */
static int table_sniff(const char *path)
{
    (void)path;
    return 1;
}

/* In the order they are asked: the specific formats first. */
static const perf_backend_t backends[] = {
    {"pollux", perf_is_pollux_catalog, perf_pollux_load},
    {"curves", perf_curves_sniff, perf_curves_load},
    {"table", table_sniff, perf_table_load},
};

size_t perf_backend_count(void)
{
    return sizeof backends / sizeof backends[0];
}

const perf_backend_t *perf_backend_at(size_t i)
{
    return i < perf_backend_count() ? &backends[i] : NULL;
}

const perf_backend_t *perf_backend_for(const char *path)
{
    for (size_t i = 0; i < perf_backend_count(); i++)
        if (backends[i].sniff(path))
            return &backends[i];
    return NULL;
}

/* A bundled catalog by name: a NAME with no '/' that is no file here is
 * NAME or NAME.json among the bundled catalogs (model/datadir.h): "h100",
 * "pollux", "default-throughputs". 0 with the path in buf, else -1. */
static int bundled_catalog(const char *name, char *buf, size_t n)
{
    if (access(name, F_OK) == 0)
        return -1;
    return mls_data_find_named(MLS_DATA_CATALOG, name, buf, n);
}

int perf_load(mls_perf_t **pm, const char *path, mls_err_t *err)
{
    *pm = NULL;
    char bundled[4096];
    if (bundled_catalog(path, bundled, sizeof bundled) == 0)
        path = bundled;
    else if (access(path, F_OK) != 0 && !strchr(path, '/'))
        return mls_fail(err,
                        "%s: no such file, and no bundled catalog of that name (bundled: "
                        "default-throughputs, pollux, h100)",
                        path);
    const perf_backend_t *b = perf_backend_for(path);
    if (!b)
        return mls_fail(err, "%s: not a perf model any backend reads", path);
    return b->load(pm, path, err);
}

void perf_free(mls_perf_t *pm)
{
    if (pm)
        pm->ops->destroy(pm);
}

int perf_workload_index(const mls_perf_t *pm, const char *name)
{
    int n = pm->ops->n_workloads(pm);
    for (int w = 0; w < n; w++)
        if (!strcmp(pm->ops->workload_name(pm, w), name))
            return w;
    return -1;
}

int perf_gpu_type_index(const mls_perf_t *pm, const char *name)
{
    int n = pm->ops->n_gpu_types(pm);
    for (int t = 0; t < n; t++)
        if (!strcasecmp(pm->ops->gpu_type_name(pm, t), name))
            return t;
    return -1;
}

int perf_max_gpus(const mls_perf_t *pm, int w, int t)
{
    return pm->ops->max_gpus ? pm->ops->max_gpus(pm, w, t) : 1 << 30;
}

int perf_extrapolated(const mls_perf_t *pm, int w, int t, int gpus)
{
    int m = perf_max_gpus(pm, w, t);
    return m > 0 && gpus > m;
}

int perf_measured_gpus(const mls_perf_t *pm, int w, const int *types, int n)
{
    int least = 0;
    for (int i = 0; i < n; i++) {
        int m = types[i] >= 0 ? perf_max_gpus(pm, w, types[i]) : 0;
        if (m > 0 && (least == 0 || m < least))
            least = m;
    }
    return least;
}

int perf_named_n_workloads(const mls_perf_t *pm)
{
    return (int)pm->workload_names->n;
}

const char *perf_named_workload(const mls_perf_t *pm, int w)
{
    return pm->workload_names->names[w];
}

int perf_named_n_types(const mls_perf_t *pm)
{
    return (int)pm->type_names->n;
}

const char *perf_named_type(const mls_perf_t *pm, int t)
{
    return pm->type_names->names[t];
}

void perf_named_init(mls_perf_t *pm, const perf_ops_t *ops, const char *path,
                     strtab_t *workloads, strtab_t *types)
{
    pm->ops = ops;
    pm->source = xstrdup(path);
    pm->workload_names = workloads;
    pm->type_names = types;
    strtab_init(workloads);
    strtab_init(types);
}

void perf_named_free(mls_perf_t *pm, strtab_t *workloads, strtab_t *types)
{
    strtab_free(workloads);
    strtab_free(types);
    free(pm->source);
    pm->source = NULL;
}
