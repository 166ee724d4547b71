/* pyrandom.c: Python's random.Random draws (see pyrandom.h): MT19937 with
 * its init_by_array seeding, and CPython's randrange and shuffle on top. */
#include "policies/pyrandom.h"

#define PR_N 624
#define PR_M 397

static void init_genrand(pyrandom_t *r, uint32_t s)
{
    r->mt[0] = s;
    for (int i = 1; i < PR_N; i++)
        r->mt[i] = 1812433253u * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
    r->i = PR_N;
}

static void init_by_array(pyrandom_t *r, const uint32_t *key, int len)
{
    init_genrand(r, 19650218u);
    int i = 1, j = 0;
    for (int k = PR_N > len ? PR_N : len; k; k--) {
        r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1664525u)) + key[j] +
                   (uint32_t)j;
        i++;
        j++;
        if (i >= PR_N) {
            r->mt[0] = r->mt[PR_N - 1];
            i = 1;
        }
        if (j >= len)
            j = 0;
    }
    for (int k = PR_N - 1; k; k--) {
        r->mt[i] = (r->mt[i] ^ ((r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) * 1566083941u)) - (uint32_t)i;
        i++;
        if (i >= PR_N) {
            r->mt[0] = r->mt[PR_N - 1];
            i = 1;
        }
    }
    r->mt[0] = 0x80000000u;
}

void pyrandom_seed(pyrandom_t *r, uint64_t seed)
{
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    init_by_array(r, key, key[1] ? 2 : 1);
}

static uint32_t twist(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t y = (a & 0x80000000u) | (b & 0x7fffffffu);
    return c ^ (y >> 1) ^ ((y & 1u) ? 0x9908b0dfu : 0u);
}

uint32_t pyrandom_u32(pyrandom_t *r)
{
    if (r->i >= PR_N) {
        int k = 0;
        for (; k < PR_N - PR_M; k++)
            r->mt[k] = twist(r->mt[k], r->mt[k + 1], r->mt[k + PR_M]);
        for (; k < PR_N - 1; k++)
            r->mt[k] = twist(r->mt[k], r->mt[k + 1], r->mt[k + PR_M - PR_N]);
        r->mt[PR_N - 1] = twist(r->mt[PR_N - 1], r->mt[0], r->mt[PR_M - 1]);
        r->i = 0;
    }
    uint32_t y = r->mt[r->i++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680u;
    y ^= (y << 15) & 0xefc60000u;
    y ^= y >> 18;
    return y;
}

uint32_t pyrandom_below(pyrandom_t *r, uint32_t n)
{
    int k = 0;
    while (k < 32 && (n >> k))
        k++;
    uint32_t x;
    do
        x = pyrandom_u32(r) >> (32 - k);
    while (x >= n);
    return x;
}

void pyrandom_shuffle(pyrandom_t *r, int *x, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)pyrandom_below(r, (uint32_t)i + 1), t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

void pyrandom_sample2(pyrandom_t *r, int n, int out[2])
{
    if (n <= 21) { /* CPython's pool: the first pick's slot takes the last item */
        int a = (int)pyrandom_below(r, (uint32_t)n), b = (int)pyrandom_below(r, (uint32_t)n - 1);
        out[0] = a;
        out[1] = b == a ? n - 1 : b;
        return;
    }
    out[0] = (int)pyrandom_below(r, (uint32_t)n); /* CPython's set: redraw a repeat */
    do
        out[1] = (int)pyrandom_below(r, (uint32_t)n);
    while (out[1] == out[0]);
}
