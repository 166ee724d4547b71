/* idmap.c: open-addressing hash from 64-bit keys to dense indices (see
 * idmap.h). The table doubles when half full, so probes stay short. */
#include "policies/idmap.h"

#include "policies/policy_util.h"

#include <stdlib.h>
#include <string.h>

void idmap_init(idmap_t *m)
{
    m->keys = NULL;
    m->vals = NULL;
    m->cap = 0;
    m->n = 0;
}

void idmap_free(idmap_t *m)
{
    free(m->keys);
    free(m->vals);
    idmap_init(m);
}

static size_t slot_of(int64_t key, size_t cap)
{
    uint64_t h = (uint64_t)key * 0x9E3779B97F4A7C15ull; /* Fibonacci hashing */
    return (size_t)(h ^ (h >> 29)) & (cap - 1);
}

int idmap_get(const idmap_t *m, int64_t key)
{
    if (!m->cap)
        return -1;
    for (size_t s = slot_of(key, m->cap);; s = (s + 1) & (m->cap - 1)) {
        if (m->vals[s] < 0)
            return -1;
        if (m->keys[s] == key)
            return m->vals[s];
    }
}

static void insert(int64_t *keys, int *vals, size_t cap, int64_t key, int val)
{
    size_t s = slot_of(key, cap);
    while (vals[s] >= 0)
        s = (s + 1) & (cap - 1);
    keys[s] = key;
    vals[s] = val;
}

static void grow(idmap_t *m)
{
    size_t cap = m->cap ? 2 * m->cap : 64;
    int64_t *keys = pu_alloc(cap, sizeof *keys);
    int *vals = pu_alloc(cap, sizeof *vals);
    for (size_t s = 0; s < cap; s++)
        vals[s] = -1;
    for (size_t s = 0; s < m->cap; s++)
        if (m->vals[s] >= 0)
            insert(keys, vals, cap, m->keys[s], m->vals[s]);
    free(m->keys);
    free(m->vals);
    m->keys = keys;
    m->vals = vals;
    m->cap = cap;
}

int idmap_put(idmap_t *m, int64_t key)
{
    int got = idmap_get(m, key);
    if (got >= 0)
        return got;
    if ((size_t)(m->n + 1) * 2 > m->cap)
        grow(m);
    insert(m->keys, m->vals, m->cap, key, m->n);
    return m->n++;
}

int *idmap_int(idmap_t *m, int **vals, size_t *cap, int64_t key)
{
    int k = idmap_put(m, key);
    if ((size_t)k >= *cap) {
        size_t c = *cap ? 2 * *cap : 64;
        while (c <= (size_t)k)
            c *= 2;
        int *v = pu_alloc(c, sizeof *v);
        if (*cap)
            memcpy(v, *vals, *cap * sizeof *v);
        free(*vals);
        *vals = v;
        *cap = c;
    }
    return &(*vals)[k];
}
