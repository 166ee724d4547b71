/* util.h: the few helpers every module shares.
 *
 * Checked allocation (out of memory is fatal and says so), an error buffer that
 * carries one message naming where a problem is ("FILE:LINE: field 'x': ..."),
 * strict number parsing, a monotonic clock, and an FNV-1a checksum used to
 * record which exact trace a result came from. Nothing here holds state. */
#ifndef MLS_UTIL_H
#define MLS_UTIL_H

#include <stddef.h>
#include <stdint.h>

typedef struct mls_err {
    char msg[1024];
} mls_err_t;

/* Sets err->msg (err may be NULL). Always returns -1 so callers can
 * `return mls_fail(err, ...)`. */
int mls_fail(mls_err_t *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
char *xstrdup(const char *s);
/* Grows *p (of *cap elements of size elem) to hold at least need elements. */
void xgrow(void **p, size_t *cap, size_t need, size_t elem);

/* Strict parsers: the whole string must be a number (surrounding blanks ok).
 * Return 0 on success, -1 otherwise. */
int mls_parse_double(const char *s, double *out);
int mls_parse_long(const char *s, long *out);
/* Strips leading and trailing blanks in place; returns the first kept character. */
char *mls_trim(char *s);
/* "R" (per hour) or "R/UNIT" (R >= 0, finite) -> *per_hour, where UNIT is one
 * of the comma list `units` drawn from h, min, s, d. -1 otherwise. */
int mls_parse_rate(const char *s, const char *units, double *per_hour);

/* Seconds on a monotonic clock, for measuring (never for simulated time). */
double mls_wall_seconds(void);

#define MLS_FNV_OFFSET 1469598103934665603ULL
uint64_t mls_fnv1a(uint64_t h, const void *data, size_t n);
/* 16 hex digits of the FNV-1a 64 checksum of a file's bytes. */
int mls_file_checksum(const char *path, char out[17], mls_err_t *err);

/* The whole file as a NUL-terminated string (caller frees), or NULL with err. */
char *mls_read_file(const char *path, mls_err_t *err);

/* Writes to PATH atomically: open a temporary file beside it, and rename it
 * over PATH only on commit, so a failed run never leaves a half-written file. */
typedef struct mls_atomic_file {
    void *fp; /* FILE * */
    char *path;
    char *tmp;
} mls_atomic_file_t;
int mls_atomic_open(mls_atomic_file_t *af, const char *path, mls_err_t *err);
int mls_atomic_commit(mls_atomic_file_t *af, mls_err_t *err);
void mls_atomic_abort(mls_atomic_file_t *af);
/* Writes text and a newline to PATH atomically (as above). */
int mls_write_text_file(const char *path, const char *text, mls_err_t *err);

#endif
