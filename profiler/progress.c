/* progress.c: the progress protocol and regex-described progress lines (see
 * progress.h). */
#include "profiler/progress.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define MARKER "mlsched-progress"

static const char *const key_names[PG_N] = {"iter",  "iter_time", "iter_time_ms",
                                            "samples", "batch",   "mem"};

static int key_index(const char *key, size_t len)
{
    for (int k = 0; k < PG_N; k++)
        if (strlen(key_names[k]) == len && !strncmp(key_names[k], key, len))
            return k;
    return -1;
}

static int set_value(progress_line_t *out, int k, const char *text, size_t len, mls_err_t *err)
{
    char buf[64];
    double v;
    if (len >= sizeof buf)
        len = sizeof buf - 1;
    memcpy(buf, text, len);
    buf[len] = '\0';
    if (mls_parse_double(buf, &v) < 0 || !isfinite(v) || v < 0)
        return mls_fail(err, "%s: '%s' is not a number >= 0", key_names[k], buf);
    out->has[k] = 1;
    out->value[k] = v;
    return 0;
}

int progress_parse(const char *line, progress_line_t *out, mls_err_t *err)
{
    memset(out, 0, sizeof *out);
    const char *p = strstr(line, MARKER);
    if (!p || (p[strlen(MARKER)] && !isspace((unsigned char)p[strlen(MARKER)])))
        return 0;
    p += strlen(MARKER);
    while (*p) {
        while (isspace((unsigned char)*p))
            p++;
        const char *tok = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        const char *eq = memchr(tok, '=', (size_t)(p - tok));
        if (!eq)
            continue;
        int k = key_index(tok, (size_t)(eq - tok));
        if (k >= 0 && set_value(out, k, eq + 1, (size_t)(p - eq - 1), err) < 0)
            return -1;
    }
    return 1;
}

double progress_iter_time(const progress_line_t *pl)
{
    if (pl->has[PG_ITER_TIME])
        return pl->value[PG_ITER_TIME];
    if (pl->has[PG_ITER_TIME_MS])
        return pl->value[PG_ITER_TIME_MS] / 1000;
    return -1;
}

/* ---- regex -------------------------------------------------------------------------- */

/* Copies the pattern with "(?<name>" / "(?P<name>" turned into "(", numbering
 * every capture group as POSIX does (each unescaped '(' outside brackets). */
static int rewrite(progress_regex_t *pr, const char *pat, char *out, mls_err_t *err)
{
    int group = 0;
    const char *p = pat;
    while (*p) {
        if (*p == '\\' && p[1]) {
            *out++ = *p++;
            *out++ = *p++;
        } else if (*p == '[') { /* bracket expression: copied as is */
            *out++ = *p++;
            if (*p == '^')
                *out++ = *p++;
            if (*p == ']')
                *out++ = *p++;
            while (*p && *p != ']')
                *out++ = *p++;
            if (!*p)
                return mls_fail(err, "--regex: '[' without ']'");
            *out++ = *p++;
        } else if (*p == '(') {
            group++;
            if (p[1] == '?') {
                const char *name = p + 2 + (p[2] == 'P');
                if (*name != '<')
                    return mls_fail(err, "--regex: only (?<name>...) groups are supported");
                const char *end = strchr(name, '>');
                if (!end)
                    return mls_fail(err, "--regex: group name without '>'");
                int k = key_index(name + 1, (size_t)(end - name - 1));
                if (k < 0)
                    return mls_fail(err,
                                    "--regex: unknown group name '%.*s' (iter, iter_time, "
                                    "iter_time_ms, samples, batch, mem)",
                                    (int)(end - name - 1), name + 1);
                if (pr->group[k])
                    return mls_fail(err, "--regex: group '%s' twice", key_names[k]);
                pr->group[k] = group;
                p = end + 1;
                *out++ = '(';
            } else {
                *out++ = *p++;
            }
        } else {
            *out++ = *p++;
        }
    }
    *out = '\0';
    pr->n_groups = group;
    return 0;
}

int progress_regex_compile(progress_regex_t *pr, const char *pattern, mls_err_t *err)
{
    memset(pr, 0, sizeof *pr);
    char *plain = xmalloc(strlen(pattern) + 1);
    int rc = rewrite(pr, pattern, plain, err);
    if (pr->group[PG_ITER_TIME] && pr->group[PG_ITER_TIME_MS] && rc == 0)
        rc = mls_fail(err, "--regex: give iter_time or iter_time_ms, not both");
    if (rc == 0) {
        int e = regcomp(&pr->re, plain, REG_EXTENDED);
        if (e) {
            char msg[256];
            regerror(e, &pr->re, msg, sizeof msg);
            rc = mls_fail(err, "--regex: %s", msg);
        } else {
            pr->compiled = 1;
        }
    }
    free(plain);
    return rc;
}

int progress_regex_parse(const progress_regex_t *pr, const char *line, progress_line_t *out,
                         mls_err_t *err)
{
    memset(out, 0, sizeof *out);
    regmatch_t m[64];
    size_t nm = (size_t)pr->n_groups + 1 < 64 ? (size_t)pr->n_groups + 1 : 64;
    if (regexec(&pr->re, line, nm, m, 0) != 0)
        return 0;
    for (int k = 0; k < PG_N; k++) {
        int g = pr->group[k];
        if (!g || g >= 64 || m[g].rm_so < 0)
            continue;
        if (set_value(out, k, line + m[g].rm_so, (size_t)(m[g].rm_eo - m[g].rm_so), err) < 0)
            return -1;
    }
    return 1;
}

void progress_regex_free(progress_regex_t *pr)
{
    if (pr->compiled)
        regfree(&pr->re);
    pr->compiled = 0;
}
