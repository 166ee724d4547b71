/* idmap.h: a map from 64-bit keys (job ids, or packed (user, gpus) pairs) to
 * small dense indices, for policies that remember something across decisions.
 *
 * Promises: idmap_get() returns the index a key was first given by
 * idmap_put(), -1 for a key never put; indices are 0, 1, 2, ... in the order
 * keys were first put, so a policy keeps its per-key data in a plain array
 * grown alongside. Open addressing with linear probing; deterministic; never
 * shrinks (a policy's memory lives as long as the run). */
#ifndef MLS_IDMAP_H
#define MLS_IDMAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct idmap {
    int64_t *keys;
    int *vals;  /* -1 = empty slot */
    size_t cap; /* slots, a power of two */
    int n;      /* keys held */
} idmap_t;

void idmap_init(idmap_t *m);
void idmap_free(idmap_t *m);
/* The key's index, or -1. */
int idmap_get(const idmap_t *m, int64_t key);
/* The key's index, adding it with index m->n when new. */
int idmap_put(idmap_t *m, int64_t key);
/* The int a policy keeps per key in its array *vals (capacity *cap, grown
 * alongside the map, new entries 0): its slot for key, added when new. */
int *idmap_int(idmap_t *m, int **vals, size_t *cap, int64_t key);

#endif
