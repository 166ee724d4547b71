/* pyrandom.h: the draws of Python's random.Random, for policies that
 * reproduce a peer simulator written in Python (gavel-fifo: Gavel's FIFO
 * draws a type index with randrange, its scheduler shuffles the GPU types
 * with shuffle).
 *
 * Promises: the same numbers as CPython 3 (random.Random(seed) with an int
 * seed >= 0, randrange(n), shuffle) for seeds below 2^64: the Mersenne
 * Twister MT19937 (Matsumoto and Nishimura, 1998) seeded by its init_by_array
 * over the seed's 32-bit words, least significant first (one word 0 for the
 * seed 0); randrange(n) (and sample's draws) take k = bit length of n bits from the top of one
 * 32-bit output and retries while the value is >= n; shuffle swaps item i
 * (from the last down to 1) with item randrange(i + 1). n < 2^32. */
#ifndef MLS_PYRANDOM_H
#define MLS_PYRANDOM_H

#include <stddef.h>
#include <stdint.h>

typedef struct pyrandom {
    uint32_t mt[624];
    int i;
} pyrandom_t;

void pyrandom_seed(pyrandom_t *r, uint64_t seed);
uint32_t pyrandom_u32(pyrandom_t *r);
/* randrange(n), n >= 1. */
uint32_t pyrandom_below(pyrandom_t *r, uint32_t n);
/* shuffle() of n ints. */
void pyrandom_shuffle(pyrandom_t *r, int *x, int n);
/* sample(population, 2) of a population of n >= 2 items: the indices of the
 * two items drawn, in order (CPython 3.11: a pool for n <= 21, else redraws
 * of a repeated index). */
void pyrandom_sample2(pyrandom_t *r, int n, int out[2]);

#endif
