/* plan.c: building plans and reading policy arguments (see policy.h).
 * Policies use these; the mechanism reads the plan they build. */
#include "policies/policy.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return p;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    void *q = realloc(p, c * elem);
    if (!q) {
        fprintf(stderr, "mlsched: out of memory building a plan\n");
        abort();
    }
    *cap = c;
    return q;
}

void plan_init(plan_t *p)
{
    memset(p, 0, sizeof *p);
}

void plan_clear(plan_t *p)
{
    p->n = 0;
    p->n_ids = 0;
}

void plan_free(plan_t *p)
{
    free(p->allocs);
    free(p->ids);
    plan_init(p);
}

void plan_reserve(plan_t *p, int n)
{
    p->allocs = grow(p->allocs, &p->cap, (size_t)p->n + (size_t)(n > 0 ? n : 0), sizeof *p->allocs);
}

int plan_run(plan_t *p, int job, int type, int gpus)
{
    plan_reserve(p, 1);
    return plan_run_reserved(p, job, type, gpus);
}

int plan_run_on(plan_t *p, int job, int type, const int *gpu_ids, int gpus)
{
    int k = plan_run(p, job, type, gpus);
    p->ids = grow(p->ids, &p->ids_cap, p->n_ids + (size_t)(gpus > 0 ? gpus : 0), sizeof *p->ids);
    p->allocs[k].ids_off = (int)p->n_ids;
    p->allocs[k].has_ids = 1;
    for (int i = 0; i < gpus; i++)
        p->ids[p->n_ids++] = gpu_ids[i];
    return k;
}

int plan_find(const plan_t *p, int job)
{
    for (int i = 0; i < p->n; i++)
        if (p->allocs[i].job == job)
            return i;
    return -1;
}

int plan_ids_within(const plan_t *p, const plan_alloc_t *a, const int *held, int n)
{
    for (int i = 0; i < a->gpus; i++) {
        int found = 0;
        for (int k = 0; k < n && !found; k++)
            found = held[k] == p->ids[a->ids_off + i];
        if (!found)
            return 0;
    }
    return 1;
}

static const char *lookup(const policy_args_t *a, const char *key)
{
    if (!a)
        return NULL;
    for (int i = 0; i < a->n; i++)
        if (strcmp(a->keys[i], key) == 0)
            return a->values[i];
    return NULL;
}

int policy_arg_double(const policy_args_t *a, const char *key, double def, double *out,
                      char *err, size_t errlen)
{
    const char *v = lookup(a, key);
    *out = def;
    if (!v)
        return 0;
    char *end;
    errno = 0;
    double d = strtod(v, &end);
    if (end == v || *end || errno) {
        snprintf(err, errlen, "parameter %s=%s: not a number", key, v);
        return -1;
    }
    *out = d;
    return 0;
}

int policy_arg_long(const policy_args_t *a, const char *key, long def, long *out, char *err,
                    size_t errlen)
{
    const char *v = lookup(a, key);
    *out = def;
    if (!v)
        return 0;
    char *end;
    errno = 0;
    long d = strtol(v, &end, 10);
    if (end == v || *end || errno) {
        snprintf(err, errlen, "parameter %s=%s: not an integer", key, v);
        return -1;
    }
    *out = d;
    return 0;
}

const char *policy_arg_str(const policy_args_t *a, const char *key, const char *def)
{
    const char *v = lookup(a, key);
    return v ? v : def;
}

const long *policy_arg_samples(const policy_args_t *a, const char *key, long *n)
{
    *n = 0;
    for (int i = 0; a && i < a->n_samples; i++)
        if (!strcmp(a->samples[i].key, key)) {
            *n = a->samples[i].n;
            return a->samples[i].values;
        }
    return NULL;
}

const long *policy_arg_keyed(const policy_args_t *a, const char *key, const int64_t **ids, long *n)
{
    const long *v = policy_arg_samples(a, key, n);
    *ids = NULL;
    for (int i = 0; v && i < a->n_samples; i++)
        if (!strcmp(a->samples[i].key, key))
            *ids = a->samples[i].ids;
    if (!*ids)
        *n = 0;
    return *ids ? v : NULL;
}

int policy_args_check(const policy_args_t *a, const char *const *known, const char *policy,
                      char *err, size_t errlen)
{
    if (!a)
        return 0;
    for (int i = 0; i < a->n; i++) {
        int ok = 0;
        for (const char *const *k = known; k && *k; k++)
            ok |= strcmp(*k, a->keys[i]) == 0;
        if (!ok) {
            snprintf(err, errlen, "policy %s has no parameter '%s'", policy, a->keys[i]);
            return -1;
        }
    }
    return 0;
}
