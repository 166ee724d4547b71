/* util.c: checked allocation, error messages, strict parsing, checksums and
 * atomic file writes shared by every module (see util.h). */
#include "model/util.h"

#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int mls_fail(mls_err_t *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

static void oom(size_t n)
{
    fprintf(stderr, "mlsched: out of memory (asked for %zu bytes)\n", n);
    abort();
}

void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p)
        oom(n);
    return p;
}

void *xcalloc(size_t n, size_t size)
{
    void *p = calloc(n ? n : 1, size ? size : 1);
    if (!p)
        oom(n * size);
    return p;
}

void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q)
        oom(n);
    return q;
}

char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = xmalloc(n);
    memcpy(d, s, n);
    return d;
}

void xgrow(void **p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap)
        return;
    size_t c = *cap ? *cap : 16;
    while (c < need)
        c *= 2;
    *p = xrealloc(*p, c * elem);
    *cap = c;
}

static int only_blanks(const char *s)
{
    while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
        s++;
    return *s == '\0';
}

#ifdef __SIZEOF_INT128__
__extension__ typedef unsigned __int128 u128_t;

/* m / 10^k correctly rounded to nearest, ties to even (0 < m < 2^64,
 * 0 < k <= 19): the quotient of m * 2^s by 10^k in 128-bit integers, scaled
 * to 55-56 bits, is the 53-bit significand plus the rounding bit; the lower
 * bits and the remainder say whether the rest is exactly half. Returns -1
 * where m is too large for the shift (the caller falls back to strtod). */
static int div_pow10(unsigned long long m, int k, double *out)
{
    static const unsigned long long p10[20] = {1ULL,
                                               10ULL,
                                               100ULL,
                                               1000ULL,
                                               10000ULL,
                                               100000ULL,
                                               1000000ULL,
                                               10000000ULL,
                                               100000000ULL,
                                               1000000000ULL,
                                               10000000000ULL,
                                               100000000000ULL,
                                               1000000000000ULL,
                                               10000000000000ULL,
                                               100000000000000ULL,
                                               1000000000000000ULL,
                                               10000000000000000ULL,
                                               100000000000000000ULL,
                                               1000000000000000000ULL,
                                               10000000000000000000ULL};
    unsigned long long d = p10[k];
    int lm = 63 - __builtin_clzll(m), ld = 63 - __builtin_clzll(d);
    int s = 55 + ld - lm; /* m * 2^s / d in (2^54, 2^56) */
    if (s < 0)
        return -1;
    u128_t num = (u128_t)m << s;
    u128_t q128 = num / d;
    int rem = num - q128 * d != 0;
    unsigned long long q = (unsigned long long)q128;
    int drop = 64 - __builtin_clzll(q) - 53; /* 2 or 3 */
    unsigned long long mant = q >> drop, half = (q >> (drop - 1)) & 1;
    int sticky = rem || (q & ((1ULL << (drop - 1)) - 1)) != 0;
    if (half && (sticky || (mant & 1)))
        mant++; /* 2^53 at most: exact as a double */
    *out = ldexp((double)mant, drop - s);
    return 0;
}
#endif

/* "[-]digits[.digits]" with at most 15 significant digits: the integer of
 * its digits and the power of ten are exact doubles, so one division is the
 * correctly rounded value (Clinger's fast path; strtod gives the same). With
 * 16 to 19 digits (a double printed in full: 17), the same quotient rounded
 * in integers (div_pow10). */
static int fast_decimal(const char *s, double *out)
{
    int neg = *s == '-';
    if (neg)
        s++;
    unsigned long long m = 0;
    int digits = 0, frac = 0, dot = 0;
    for (;; s++) {
        if (*s >= '0' && *s <= '9') {
            if (++digits > 19)
                return -1;
            m = m * 10 + (unsigned long long)(*s - '0');
            frac += dot;
        } else if (*s == '.' && !dot) {
            dot = 1;
        } else
            break;
    }
    if (*s || !digits)
        return -1;
    static const double pow10[16] = {1,    1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    double v;
    if (digits <= 15)
        v = (double)m / pow10[frac];
    else if (frac == 0 || m == 0)
        v = (double)m; /* an integer below 2^64: converted correctly rounded */
#ifdef __SIZEOF_INT128__
    else if (div_pow10(m, frac, &v) < 0)
        return -1;
#else
    else
        return -1;
#endif
    *out = neg ? -v : v;
    return 0;
}

/* The decimal grammar [blanks][+-]digits[.digits][(e|E)[+-]digits][blanks]
 * (digits on at least one side of the point): what strtod accepts besides
 * it (hexadecimal, inf, nan) is refused. */
static int is_decimal(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (*s == '+' || *s == '-')
        s++;
    int digits = 0;
    while (*s >= '0' && *s <= '9')
        s++, digits++;
    if (*s == '.')
        for (s++; *s >= '0' && *s <= '9'; s++)
            digits++;
    if (!digits)
        return 0;
    if (*s == 'e' || *s == 'E') {
        s++;
        if (*s == '+' || *s == '-')
            s++;
        if (!(*s >= '0' && *s <= '9'))
            return 0;
        while (*s >= '0' && *s <= '9')
            s++;
    }
    return only_blanks(s);
}

int mls_parse_double(const char *s, double *out)
{
    char *end;
    if (!s || !*s)
        return -1;
    if (fast_decimal(s, out) == 0)
        return 0;
    if (!is_decimal(s))
        return -1;
    errno = 0;
    double v = strtod(s, &end);
    if (end == s || !only_blanks(end))
        return -1;
    if (errno == ERANGE && !(fabs(v) <= DBL_MIN)) /* overflow; underflow keeps its tiny value */
        return -1;
    *out = v;
    return 0;
}

const char *mls_number_why(const char *s)
{
    if (!s || only_blanks(s))
        return "is empty";
    if (!is_decimal(s)) {
        char *end;
        double v = strtod(s, &end); /* hexadecimal, inf, nan: not a decimal number */
        if (end == s || !only_blanks(end))
            return "is not a number";
        return isfinite(v) ? "is not a decimal number" : "is not a finite number";
    }
    return "is out of range";
}

int mls_parse_long(const char *s, long *out)
{
    char *end;
    if (!s || !*s)
        return -1;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || errno == ERANGE || !only_blanks(end))
        return -1;
    *out = v;
    return 0;
}

double mls_wall_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec * 1e-9;
}

uint64_t mls_fnv1a(uint64_t h, const void *data, size_t n)
{
    const unsigned char *p = data;
    for (size_t i = 0; i < n; i++) {
        h ^= p[i];
        h *= 1099511628211ULL;
    }
    return h;
}

uint64_t mls_hash_bytes(const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t h = 0x9E3779B97F4A7C15ULL ^ n, w;
    for (; n >= 8; p += 8, n -= 8) {
        memcpy(&w, p, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdULL;
        h ^= h >> 32;
    }
    w = 0;
    memcpy(&w, p, n);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ULL;
    return h ^ (h >> 29);
}

int mls_file_checksum(const char *path, char out[17], mls_err_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return mls_fail(err, "%s: cannot open: %s", path, strerror(errno));
    uint64_t h = MLS_FNV_OFFSET;
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0)
        h = mls_fnv1a(h, buf, n);
    int bad = ferror(f);
    fclose(f);
    if (bad)
        return mls_fail(err, "%s: read error", path);
    snprintf(out, 17, "%016llx", (unsigned long long)h);
    return 0;
}

long mls_nul_line(const char *buf, size_t n)
{
    const char *nul = memchr(buf, '\0', n);
    if (!nul)
        return 0;
    long line = 1;
    for (const char *p = buf; p < nul; p++)
        line += *p == '\n';
    return line;
}

static int nul_fail(mls_err_t *err, const char *path, long line)
{
    return mls_fail(err, "%s:%ld: a NUL byte: a text input must not contain one", path, line);
}

char *mls_read_file(const char *path, mls_err_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        mls_fail(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t n = 0, cap = 0, got;
    char *buf = NULL, chunk[1 << 15];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        xgrow((void **)&buf, &cap, n + got + 1, 1);
        memcpy(buf + n, chunk, got);
        n += got;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        mls_fail(err, "%s: read error", path);
        return NULL;
    }
    xgrow((void **)&buf, &cap, n + 1, 1);
    buf[n] = '\0';
    long nul = mls_nul_line(buf, n);
    if (nul) {
        free(buf);
        nul_fail(err, path, nul);
        return NULL;
    }
    return buf;
}

long mls_read_line(FILE *fp, char **buf, size_t *cap, const char *path, long line,
                   mls_err_t *err)
{
    ssize_t n = getline(buf, cap, fp);
    if (n < 0)
        return -1;
    if (memchr(*buf, '\0', (size_t)n))
        return nul_fail(err, path, line) - 1;
    return (long)n;
}

/* Length of the valid UTF-8 sequence at s (at most n bytes), 0 if invalid. */
static size_t utf8_seq(const unsigned char *s, size_t n)
{
    if (s[0] < 0x80)
        return 1;
    size_t len = s[0] >= 0xF0 ? 4 : s[0] >= 0xE0 ? 3 : s[0] >= 0xC2 ? 2 : 0;
    if (!len || len > n || s[0] > 0xF4)
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((s[i] & 0xC0) != 0x80)
            return 0;
    /* overlong forms, UTF-16 surrogates, code points above U+10FFFF */
    if ((s[0] == 0xE0 && s[1] < 0xA0) || (s[0] == 0xED && s[1] >= 0xA0) ||
        (s[0] == 0xF0 && s[1] < 0x90) || (s[0] == 0xF4 && s[1] >= 0x90))
        return 0;
    return len;
}

int mls_utf8_valid(const char *s, size_t n)
{
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq(p + i, n - i);
        if (!k)
            return 0;
        i += k;
    }
    return 1;
}

char *mls_utf8_sanitize(const char *s)
{
    size_t n = strlen(s), o = 0;
    char *out = xmalloc(4 * n + 1);
    const unsigned char *p = (const unsigned char *)s;
    for (size_t i = 0; i < n;) {
        size_t k = utf8_seq(p + i, n - i);
        if (k) {
            memcpy(out + o, s + i, k);
            o += k;
            i += k;
        } else {
            o += (size_t)sprintf(out + o, "\\x%02X", p[i]);
            i++;
        }
    }
    out[o] = '\0';
    return out;
}

int mls_atomic_open(mls_atomic_file_t *af, const char *path, mls_err_t *err)
{
    size_t n = strlen(path) + 32;
    af->path = xstrdup(path);
    af->tmp = xmalloc(n);
    snprintf(af->tmp, n, "%s.tmp.%ld", path, (long)getpid());
    af->fp = fopen(af->tmp, "w");
    if (!af->fp) {
        int e = errno;
        free(af->path);
        free(af->tmp);
        af->path = af->tmp = NULL;
        return mls_fail(err, "%s: cannot write: %s", path, strerror(e));
    }
    return 0;
}

int mls_atomic_commit(mls_atomic_file_t *af, mls_err_t *err)
{
    FILE *f = af->fp;
    int bad = ferror(f) | fflush(f);
    bad |= fclose(f);
    af->fp = NULL;
    int rc = 0;
    if (bad) {
        remove(af->tmp);
        rc = mls_fail(err, "%s: write error", af->path);
    } else if (rename(af->tmp, af->path) != 0) {
        rc = mls_fail(err, "%s: cannot rename into place: %s", af->path, strerror(errno));
        remove(af->tmp);
    }
    free(af->path);
    free(af->tmp);
    af->path = af->tmp = NULL;
    return rc;
}

void mls_atomic_abort(mls_atomic_file_t *af)
{
    if (af->fp) {
        fclose(af->fp);
        remove(af->tmp);
    }
    free(af->path);
    free(af->tmp);
    af->fp = NULL;
    af->path = af->tmp = NULL;
}

int mls_write_text_file(const char *path, const char *text, mls_err_t *err)
{
    mls_atomic_file_t af;
    if (mls_atomic_open(&af, path, err) < 0)
        return -1;
    fputs(text, (FILE *)af.fp);
    fputc('\n', (FILE *)af.fp);
    return mls_atomic_commit(&af, err);
}

char *mls_trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
    return s;
}

int mls_parse_rate(const char *s, const char *units, double *per_hour)
{
    static const struct {
        const char *unit;
        double scale;
    } known[] = {{"h", 1}, {"min", 60}, {"s", 3600}, {"d", 1.0 / 24}};
    char buf[64];
    snprintf(buf, sizeof buf, "%s", s);
    double scale = 1;
    char *slash = strchr(buf, '/');
    if (slash) {
        char want[72], allowed[64];
        snprintf(want, sizeof want, ",%s,", slash + 1);
        snprintf(allowed, sizeof allowed, ",%s,", units);
        size_t k = 0;
        while (k < sizeof known / sizeof known[0] && strcmp(slash + 1, known[k].unit))
            k++;
        if (k == sizeof known / sizeof known[0] || !strstr(allowed, want))
            return -1;
        scale = known[k].scale;
        *slash = '\0';
    }
    double r;
    if (mls_parse_double(buf, &r) < 0 || r < 0 || !isfinite(r))
        return -1;
    *per_hour = r * scale;
    return 0;
}
