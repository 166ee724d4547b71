/* pack.c: the pack control file (see pack.h): format, strict parse, atomic
 * write. The parser is line by line over a bounded buffer and never aborts
 * on bad input. */
#include "live/ctlfile.h"
#include "live/pack.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PACK_MAGIC "mlsched-pack 1"

enum { K_PARTNER, K_ROLE, K_WORKLOAD, K_SINCE, K_N };
static const char *const keys[K_N] = {"partner", "role", "workload", "since"};

/* One "key value" line (no newline, NUL-terminated, trailing space cut). */
typedef struct pack_parse {
    const char *path;
    live_pack_t *out;
    int seen[K_N];
} pack_parse_t;

static int parse_line(char *line, int ln, void *arg, mls_err_t *err)
{
    pack_parse_t *pp = arg;
    const char *path = pp->path;
    live_pack_t *out = pp->out;
    int *seen = pp->seen;
    char *sp = strchr(line, ' ');
    const char *val = sp ? sp + 1 : "";
    if (sp)
        *sp = '\0';
    int k = 0;
    while (k < K_N && strcmp(line, keys[k]))
        k++;
    if (k == K_N)
        return mls_fail(err, "%s:%d: '%s': unknown key (partner, role, workload, since)", path,
                        ln, line);
    if (seen[k])
        return mls_fail(err, "%s:%d: %s: given twice", path, ln, keys[k]);
    seen[k] = 1;
    long id;
    double t;
    switch (k) {
    case K_PARTNER:
        if (!strcmp(val, "none"))
            out->partner = -1;
        else if (mls_parse_long(val, &id) == 0 && id >= 0)
            out->partner = id;
        else
            return mls_fail(err, "%s:%d: partner: '%s' is not a job id or none", path, ln, val);
        break;
    case K_ROLE:
        if (strcmp(val, "owner") && strcmp(val, "joiner"))
            return mls_fail(err, "%s:%d: role: '%s' is not owner or joiner", path, ln, val);
        out->owner = !strcmp(val, "owner");
        break;
    case K_WORKLOAD:
        if (!*val || strlen(val) >= sizeof out->workload)
            return mls_fail(err, "%s:%d: workload: empty or longer than %zu bytes", path, ln,
                            sizeof out->workload - 1);
        memcpy(out->workload, val, strlen(val) + 1);
        break;
    case K_SINCE:
        if (mls_parse_double(val, &t) < 0 || !isfinite(t) || t < 0)
            return mls_fail(err, "%s:%d: since: '%s' is not a wall-clock time", path, ln, val);
        out->since = t;
        break;
    }
    return 0;
}

int live_pack_parse(const char *text, size_t len, const char *path, live_pack_t *out,
                    mls_err_t *err)
{
    *out = (live_pack_t){.partner = -1, .owner = 0, .workload = "", .since = NAN};
    pack_parse_t pp = {path, out, {0}};
    if (ctl_parse(text, len, LIVE_PACK_MAX_FILE, path, PACK_MAGIC, "pack", parse_line, &pp,
                  err) < 0)
        return -1;
    const int *seen = pp.seen;
    if (!seen[K_PARTNER] || !seen[K_SINCE])
        return mls_fail(err, "%s: %s: missing", path, seen[K_PARTNER] ? "since" : "partner");
    if (out->partner >= 0 && (!seen[K_ROLE] || !seen[K_WORKLOAD]))
        return mls_fail(err, "%s: %s: missing (a job with a partner needs role and workload)",
                        path, seen[K_ROLE] ? "workload" : "role");
    if (out->partner < 0 && (seen[K_ROLE] || seen[K_WORKLOAD]))
        return mls_fail(err, "%s: %s: given with partner none", path,
                        seen[K_ROLE] ? "role" : "workload");
    return 0;
}

char *live_pack_format(const live_pack_t *p)
{
    char *s = xmalloc(LIVE_PACK_MAX_FILE);
    if (p->partner < 0)
        snprintf(s, LIVE_PACK_MAX_FILE, "%s\npartner none\nsince %.6f\n", PACK_MAGIC, p->since);
    else
        snprintf(s, LIVE_PACK_MAX_FILE, "%s\npartner %lld\nrole %s\nworkload %s\nsince %.6f\n",
                 PACK_MAGIC, (long long)p->partner, p->owner ? "owner" : "joiner", p->workload,
                 p->since);
    return s;
}

int live_pack_write(const char *path, const live_pack_t *p, mls_err_t *err)
{
    mls_atomic_file_t af;
    if (mls_atomic_open(&af, path, err) < 0)
        return -1;
    char *text = live_pack_format(p);
    fputs(text, af.fp);
    free(text);
    return mls_atomic_commit(&af, err);
}

int live_pack_read(const char *path, live_pack_t *out, mls_err_t *err)
{
    *out = (live_pack_t){.partner = -1, .owner = 0, .workload = "", .since = NAN};
    char *text;
    size_t len;
    int rc = ctl_read(path, LIVE_PACK_MAX_FILE, &text, &len, err);
    if (rc == 0)
        rc = live_pack_parse(text, len, path, out, err);
    free(text);
    return rc;
}
