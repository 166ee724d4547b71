/* strtab.c: string interning with an open-addressing hash (see strtab.h). */
#include "model/strtab.h"

#include "model/util.h"

#include <stdlib.h>
#include <string.h>

void strtab_init(strtab_t *t)
{
    memset(t, 0, sizeof *t);
}

void strtab_free(strtab_t *t)
{
    for (size_t i = 0; i < t->n; i++)
        free(t->names[i]);
    free(t->names);
    free(t->slots);
    memset(t, 0, sizeof *t);
}

static size_t hash_str(const char *s)
{
    return (size_t)mls_hash_bytes(s, strlen(s));
}

static size_t slot_of(const strtab_t *t, const char *s)
{
    size_t mask = t->nslots - 1, i = hash_str(s) & mask;
    while (t->slots[i] && strcmp(t->names[t->slots[i] - 1], s) != 0)
        i = (i + 1) & mask;
    return i;
}

static void rehash(strtab_t *t)
{
    free(t->slots);
    t->nslots = t->nslots ? t->nslots * 2 : 64;
    t->slots = xcalloc(t->nslots, sizeof *t->slots);
    for (size_t k = 0; k < t->n; k++)
        t->slots[slot_of(t, t->names[k])] = (int)k + 1;
}

int strtab_find(const strtab_t *t, const char *s)
{
    if (!t->nslots)
        return -1;
    size_t i = slot_of(t, s);
    return t->slots[i] ? t->slots[i] - 1 : -1;
}

int strtab_intern(strtab_t *t, const char *s)
{
    int found = strtab_find(t, s);
    if (found >= 0)
        return found;
    if ((t->n + 1) * 2 > t->nslots)
        rehash(t);
    xgrow((void **)&t->names, &t->cap, t->n + 1, sizeof *t->names);
    t->names[t->n] = xstrdup(s);
    t->slots[slot_of(t, s)] = (int)t->n + 1;
    return (int)t->n++;
}
