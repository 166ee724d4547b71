/* overheads.c: per-workload allocation-change costs (see overheads.h). */
#include "sim/overheads.h"

#include "model/json_util.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const kind_names[OVH_KINDS] = {"start", "restart", "resize", "migrate",
                                                   "suspend"};

const char *overheads_kind_name(ovh_kind_t kind)
{
    return kind_names[kind];
}

void overheads_init(overheads_t *o, double base)
{
    memset(o, 0, sizeof *o);
    for (int k = 0; k < OVH_KINDS; k++)
        o->def[k] = base;
    strtab_init(&o->names);
}

void overheads_free(overheads_t *o)
{
    strtab_free(&o->names);
    free(o->per);
    free(o->gpus_max);
    free(o->by_gpus);
    free(o->source);
    o->gpus_max = NULL;
    o->by_gpus = NULL;
    o->n_gpus = 0;
    o->per = NULL;
    o->source = NULL;
}

/* Reads {"start": s, ...} into vals; where names the object for errors.
 * Returns the bit set of kinds given, or -1. A "suspend" that no object gives
 * follows "restart" (resuming is then no cheaper than restarting). */
static int read_kinds(const cJSON *obj, double *vals, const char *path, const char *where,
                      mls_err_t *err)
{
    int given = 0;
    if (!cJSON_IsObject(obj))
        return mls_fail(err, "%s: %s: must be an object of seconds", path, where);
    const cJSON *it;
    cJSON_ArrayForEach(it, obj)
    {
        int k = 0;
        while (k < OVH_KINDS && strcmp(it->string, kind_names[k]))
            k++;
        if (k == OVH_KINDS)
            return mls_fail(err,
                            "%s: %s.%s: unknown overhead (start, restart, resize, migrate, "
                            "suspend)",
                            path, where, it->string);
        if (!cJSON_IsNumber(it) || it->valuedouble < 0 || !isfinite(it->valuedouble))
            return mls_fail(err, "%s: %s.%s: must be seconds >= 0", path, where, it->string);
        vals[k] = it->valuedouble;
        given |= 1 << k;
    }
    return given;
}

static int read_workloads(overheads_t *o, const cJSON *ws, int def_suspend, const char *path,
                          mls_err_t *err)
{
    if (!cJSON_IsObject(ws))
        return mls_fail(err, "%s: workloads: must be an object", path);
    const cJSON *w;
    cJSON_ArrayForEach(w, ws)
    {
        int i = strtab_intern(&o->names, w->string);
        xgrow((void **)&o->per, &o->cap, o->names.n, sizeof *o->per);
        memcpy(o->per[i], o->def, sizeof o->def);
        char where[300];
        snprintf(where, sizeof where, "workloads[\"%s\"]", w->string);
        int given = read_kinds(w, o->per[i], path, where, err);
        if (given < 0)
            return -1;
        if (!def_suspend && !(given & (1 << OVH_SUSPEND)))
            o->per[i][OVH_SUSPEND] = o->per[i][OVH_RESTART];
    }
    return 0;
}

/* "gpus": {"N": {...}, ...}, kept sorted by N. */
static int read_gpus(overheads_t *o, const cJSON *gs, int def_suspend, const char *path,
                     mls_err_t *err)
{
    if (!cJSON_IsObject(gs))
        return mls_fail(err, "%s: gpus: must be an object", path);
    int n = cJSON_GetArraySize(gs);
    o->gpus_max = xcalloc((size_t)(n ? n : 1), sizeof *o->gpus_max);
    o->by_gpus = xcalloc((size_t)(n ? n : 1), sizeof *o->by_gpus);
    const cJSON *g;
    cJSON_ArrayForEach(g, gs)
    {
        char *end;
        errno = 0;
        long max = strtol(g->string, &end, 10);
        if (end == g->string || *end || errno || max < 1 || max > 1000000)
            return mls_fail(err, "%s: gpus[\"%s\"]: want a GPU count >= 1", path, g->string);
        int i = o->n_gpus++;
        while (i > 0 && o->gpus_max[i - 1] > max) { /* insertion by count */
            o->gpus_max[i] = o->gpus_max[i - 1];
            memcpy(o->by_gpus[i], o->by_gpus[i - 1], sizeof o->by_gpus[i]);
            i--;
        }
        if (i > 0 && o->gpus_max[i - 1] == max)
            return mls_fail(err, "%s: gpus[\"%s\"]: given twice", path, g->string);
        o->gpus_max[i] = (int)max;
        memcpy(o->by_gpus[i], o->def, sizeof o->def);
        char where[64];
        snprintf(where, sizeof where, "gpus[\"%ld\"]", max);
        int given = read_kinds(g, o->by_gpus[i], path, where, err);
        if (given < 0)
            return -1;
        if (!def_suspend && !(given & (1 << OVH_SUSPEND)))
            o->by_gpus[i][OVH_SUSPEND] = o->by_gpus[i][OVH_RESTART];
    }
    return 0;
}

int overheads_load_json(overheads_t *o, const char *path, mls_err_t *err)
{
    cJSON *root = mls_json_load(path, err);
    if (!root)
        return -1;
    int rc = 0;
    const cJSON *it;
    cJSON_ArrayForEach(it, root)
    {
        if (rc == 0 && strcmp(it->string, "default") && strcmp(it->string, "workloads") &&
            strcmp(it->string, "gpus"))
            rc = mls_fail(err, "%s: %s: unknown key (default, workloads, gpus)", path, it->string);
    }
    const cJSON *def = cJSON_GetObjectItemCaseSensitive(root, "default");
    int given = 0;
    if (rc == 0 && def)
        rc = given = read_kinds(def, o->def, path, "default", err);
    if (rc >= 0 && !(given & (1 << OVH_SUSPEND)))
        o->def[OVH_SUSPEND] = o->def[OVH_RESTART];
    const cJSON *ws = cJSON_GetObjectItemCaseSensitive(root, "workloads");
    if (rc >= 0 && ws)
        rc = read_workloads(o, ws, given & (1 << OVH_SUSPEND), path, err);
    const cJSON *gs = cJSON_GetObjectItemCaseSensitive(root, "gpus");
    if (rc >= 0 && gs)
        rc = read_gpus(o, gs, given & (1 << OVH_SUSPEND), path, err);
    if (rc > 0)
        rc = 0;
    cJSON_Delete(root);
    if (rc == 0)
        o->source = xstrdup(path);
    return rc;
}

double overheads_get(const overheads_t *o, const char *workload, ovh_kind_t kind)
{
    int i = workload ? strtab_find(&o->names, workload) : -1;
    return i >= 0 ? o->per[i][kind] : o->def[kind];
}

double overheads_get_job(const overheads_t *o, const char *workload, int gpus, ovh_kind_t kind)
{
    if (workload && strtab_find(&o->names, workload) >= 0)
        return overheads_get(o, workload, kind);
    for (int i = 0; i < o->n_gpus; i++)
        if (gpus <= o->gpus_max[i])
            return o->by_gpus[i][kind];
    return o->def[kind];
}
