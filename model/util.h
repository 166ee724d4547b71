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
#include <stdio.h>

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

/* The largest time or duration in seconds an input may give (submit times,
 * durations, deadlines, fault times): 10^12 s, about 31,700 years. Beyond it
 * a double no longer resolves a millisecond, and such a value is a typo or
 * a corrupted file, never a trace. */
#define MLS_MAX_TIME 1e12

/* Strict parsers: the whole string must be a decimal number (surrounding
 * blanks ok): [+-]digits[.digits][e[+-]digits]. Hexadecimal ("0x10"),
 * "inf", "nan" and numbers out of a double's range are refused; a number too
 * small for a double (5e-324) reads as its nearest double. Return 0 on
 * success, -1 otherwise. */
int mls_parse_double(const char *s, double *out);
int mls_parse_long(const char *s, long *out);
/* Why mls_parse_double refuses s, for messages: "is empty", "is not a
 * number", "is not a decimal number" (0x10), "is not a finite number" (inf,
 * nan), "is out of range" (1e999). */
const char *mls_number_why(const char *s);
/* Strips leading and trailing blanks in place; returns the first kept character. */
char *mls_trim(char *s);
/* "R" (per hour) or "R/UNIT" (R >= 0, finite) -> *per_hour, where UNIT is one
 * of the comma list `units` drawn from h, min, s, d. -1 otherwise. */
int mls_parse_rate(const char *s, const char *units, double *per_hour);

/* Seconds on a monotonic clock, for measuring (never for simulated time). */
double mls_wall_seconds(void);

#define MLS_FNV_OFFSET 1469598103934665603ULL
uint64_t mls_fnv1a(uint64_t h, const void *data, size_t n);
/* A hash of n bytes for in-memory tables (8 bytes a step; not FNV-1a, and
 * not stable across machines of another byte order: never stored). */
uint64_t mls_hash_bytes(const void *data, size_t n);
/* 16 hex digits of the FNV-1a 64 checksum of a file's bytes. */
int mls_file_checksum(const char *path, char out[17], mls_err_t *err);

/* The whole file as a NUL-terminated string (caller frees), or NULL with err.
 * A text input never holds a NUL byte: one is an error "PATH:LINE: a NUL
 * byte ...", so no reader silently stops at it. */
char *mls_read_file(const char *path, mls_err_t *err);
/* The line (from 1) of the first NUL byte in buf[0..n), 0 when there is none. */
long mls_nul_line(const char *buf, size_t n);
/* getline(3) for text inputs: the line's length (newline kept), -1 at the
 * end of the file, -2 with err "PATH:LINE: a NUL byte ..." when the line
 * holds a NUL byte (`line` is the line's number, for the message). */
long mls_read_line(FILE *fp, char **buf, size_t *cap, const char *path, long line,
                   mls_err_t *err);

/* UTF-8 checks for text that ends up in JSON: 1 when s[0..n) is valid UTF-8
 * (no overlong forms, no surrogates, nothing above U+10FFFF), 0 otherwise. */
int mls_utf8_valid(const char *s, size_t n);
/* A copy of s (caller frees) where every byte that is not part of valid
 * UTF-8 is written as the four characters \xNN, so that a message quoting
 * untrusted bytes is always valid UTF-8. */
char *mls_utf8_sanitize(const char *s);

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
