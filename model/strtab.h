/* strtab.h: a table of distinct strings, each given a small dense index.
 *
 * Traces name users and workloads by string; the engine and the policies work
 * with indices. strtab_intern() returns the index of a string, adding it on
 * first sight (open-addressing hash, so lookups stay O(1) on million-row
 * traces); strtab_find() only looks. Indices are stable for the table's life. */
#ifndef MLS_STRTAB_H
#define MLS_STRTAB_H

#include <stddef.h>

typedef struct strtab {
    char **names;  /* names[i] is the string of index i */
    size_t n, cap; /* strings held, capacity of names */
    int *slots;    /* hash slots: index + 1, 0 = empty */
    size_t nslots;
} strtab_t;

void strtab_init(strtab_t *t);
void strtab_free(strtab_t *t);
int strtab_intern(strtab_t *t, const char *s);
int strtab_find(const strtab_t *t, const char *s); /* -1 when absent */

#endif
