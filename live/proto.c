/* proto.c: parsing and validating the live daemon's requests (see proto.h).
 *
 * cJSON parses; every field is then looked up by name and type-checked by
 * hand, and any field the op does not know is an error, so a typo never
 * silently becomes a default. Integers must be integral and in range.
 *
 * A request is read exactly as written (issue 19): one JSON document and
 * nothing after it, no key twice, no NUL (raw or \u0000: the strings would
 * be cut there, and "/bin/sleep\u0000x" would run /bin/sleep), and the
 * strings that reach a process or the state store (argv, user, workload)
 * must be valid UTF-8. Error replies quote request bytes only after
 * mls_utf8_sanitize(), so every reply is valid UTF-8 JSON. */
#include "live/proto.h"

#include "model/json_util.h"

#include <cjson/cJSON.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const submit_fields[] = {
    "op",        "argv",      "workload", "gpus", "work",     "min_gpus",  "max_gpus",
    "batch",     "min_batch", "max_batch", "user", "priority", "id",        "submit_at", "gang", NULL};
static const char *const report_fields[] = {"op",    "id",  "iter", "samples",
                                            "iter_time", "batch", "gns", "token", NULL};
static const char *const id_fields[] = {"op", "id", NULL};
static const char *const op_fields[] = {"op", NULL};

static int check_known(const cJSON *o, const char *const *known, const char *op, mls_err_t *err)
{
    for (const cJSON *f = o->child; f; f = f->next) {
        int ok = 0;
        for (int i = 0; known[i] && !ok; i++)
            ok = !strcmp(f->string, known[i]);
        if (!ok)
            return mls_fail(err, "request: field '%s': unknown for op '%s'", f->string, op);
    }
    return 0;
}

/* A number field; absent -> def (when `required` is 0). */
static int get_num(const cJSON *o, const char *name, int required, double def, double *out,
                   mls_err_t *err)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, name);
    if (!f) {
        if (required)
            return mls_fail(err, "request: field '%s': missing", name);
        *out = def;
        return 0;
    }
    if (!cJSON_IsNumber(f) || !isfinite(f->valuedouble))
        return mls_fail(err, "request: field '%s': not a finite number", name);
    *out = f->valuedouble;
    return 0;
}

static int get_int(const cJSON *o, const char *name, int required, long def, long lo, long hi,
                   long *out, mls_err_t *err)
{
    double d;
    if (get_num(o, name, required, (double)def, &d, err) < 0)
        return -1;
    if (d != floor(d) || d < (double)lo || d > (double)hi)
        return mls_fail(err, "request: field '%s': %g is not an integer in [%ld, %ld]", name, d,
                        lo, hi);
    *out = (long)d;
    return 0;
}

static int get_str(const cJSON *o, const char *name, int required, char **out, mls_err_t *err)
{
    const cJSON *f = cJSON_GetObjectItemCaseSensitive(o, name);
    *out = NULL;
    if (!f)
        return required ? mls_fail(err, "request: field '%s': missing", name) : 0;
    if (!cJSON_IsString(f) || !f->valuestring[0])
        return mls_fail(err, "request: field '%s': not a non-empty string", name);
    if (strlen(f->valuestring) > 4096)
        return mls_fail(err, "request: field '%s': longer than 4096 bytes", name);
    if (!mls_utf8_valid(f->valuestring, strlen(f->valuestring)))
        return mls_fail(err, "request: field '%s': not valid UTF-8", name);
    *out = xstrdup(f->valuestring);
    return 0;
}

static int parse_argv(const cJSON *o, live_submit_t *s, mls_err_t *err)
{
    const cJSON *a = cJSON_GetObjectItemCaseSensitive(o, "argv");
    if (!a)
        return mls_fail(err, "request: field 'argv': missing");
    if (!cJSON_IsArray(a))
        return mls_fail(err, "request: field 'argv': not an array of strings");
    int n = cJSON_GetArraySize(a);
    if (n < 1 || n > LIVE_MAX_ARGV)
        return mls_fail(err, "request: field 'argv': wants 1 to %d strings, has %d",
                        LIVE_MAX_ARGV, n);
    s->argv = xcalloc((size_t)n + 1, sizeof *s->argv);
    int i = 0;
    for (const cJSON *e = a->child; e; e = e->next, i++) {
        if (!cJSON_IsString(e) || (i == 0 && !e->valuestring[0]))
            return mls_fail(err, "request: field 'argv': element %d is not a string%s", i,
                            i == 0 ? " (the program must be non-empty)" : "");
        if (!mls_utf8_valid(e->valuestring, strlen(e->valuestring)))
            return mls_fail(err, "request: field 'argv': element %d is not valid UTF-8", i);
        s->argv[i] = xstrdup(e->valuestring);
        s->argc = i + 1;
    }
    return 0;
}

static int parse_submit(const cJSON *o, live_submit_t *s, mls_err_t *err)
{
    long gpus, lo, hi, b, blo, bhi, id, gang;
    memset(s, 0, sizeof *s);
    if (check_known(o, submit_fields, "submit", err) < 0 || parse_argv(o, s, err) < 0 ||
        get_str(o, "workload", 1, &s->workload, err) < 0 ||
        get_str(o, "user", 0, &s->user, err) < 0 ||
        get_int(o, "gpus", 1, 1, 1, 1 << 20, &gpus, err) < 0 ||
        get_int(o, "min_gpus", 0, gpus, 1, 1 << 20, &lo, err) < 0 ||
        get_int(o, "max_gpus", 0, gpus, 1, 1 << 20, &hi, err) < 0 ||
        get_int(o, "batch", 0, 0, 0, 1 << 24, &b, err) < 0 ||
        get_int(o, "min_batch", 0, b, 0, 1 << 24, &blo, err) < 0 ||
        get_int(o, "max_batch", 0, b, 0, 1 << 24, &bhi, err) < 0 ||
        get_int(o, "id", 0, -1, -1, (long)1 << 52, &id, err) < 0 ||
        get_num(o, "work", 1, 0, &s->work, err) < 0 ||
        get_num(o, "priority", 0, 1, &s->priority, err) < 0 ||
        get_num(o, "submit_at", 0, NAN, &s->submit_at, err) < 0 ||
        get_int(o, "gang", 0, 0, 0, (long)1 << 52, &gang, err) < 0)
        return -1;
    s->gang = gang;
    s->gpus = (int)gpus;
    s->min_gpus = (int)lo;
    s->max_gpus = (int)hi;
    s->batch = (int)b;
    s->min_batch = (int)blo;
    s->max_batch = (int)bhi;
    s->id = id;
    if (!(s->work > 0))
        return mls_fail(err, "request: field 'work': %g is not > 0", s->work);
    if (!(s->priority > 0))
        return mls_fail(err, "request: field 'priority': %g is not > 0", s->priority);
    if (s->min_gpus > s->gpus || s->gpus > s->max_gpus)
        return mls_fail(err, "request: fields 'min_gpus' <= 'gpus' <= 'max_gpus' do not hold "
                             "(%d, %d, %d)",
                        s->min_gpus, s->gpus, s->max_gpus);
    if (s->min_batch > s->batch || s->batch > s->max_batch)
        return mls_fail(err, "request: fields 'min_batch' <= 'batch' <= 'max_batch' do not hold "
                             "(%d, %d, %d)",
                        s->min_batch, s->batch, s->max_batch);
    if (!isnan(s->submit_at) && s->submit_at < 0)
        return mls_fail(err, "request: field 'submit_at': %g is negative", s->submit_at);
    if (!isnan(s->submit_at) && s->submit_at > MLS_MAX_TIME)
        return mls_fail(err, "request: field 'submit_at': %g s is above the largest time "
                             "accepted (%g s)",
                        s->submit_at, MLS_MAX_TIME);
    return 0;
}

static int parse_report(const cJSON *o, live_progress_t *p, mls_err_t *err)
{
    long id, b;
    if (check_known(o, report_fields, "report", err) < 0 ||
        get_int(o, "id", 1, 0, 0, (long)1 << 52, &id, err) < 0 ||
        get_num(o, "iter", 1, 0, &p->iter, err) < 0 ||
        get_num(o, "samples", 0, NAN, &p->samples, err) < 0 ||
        get_num(o, "iter_time", 0, NAN, &p->iter_time, err) < 0 ||
        get_int(o, "batch", 0, 0, 0, 1 << 24, &b, err) < 0 ||
        get_num(o, "gns", 0, NAN, &p->gns, err) < 0)
        return -1;
    const cJSON *tok = cJSON_GetObjectItemCaseSensitive(o, "token");
    p->token[0] = '\0';
    if (tok && (!cJSON_IsString(tok) || strlen(tok->valuestring) > LIVE_TOKEN_MAX))
        return mls_fail(err, "request: field 'token': not a string of at most %d characters",
                        LIVE_TOKEN_MAX);
    if (tok)
        snprintf(p->token, sizeof p->token, "%s", tok->valuestring);
    p->id = id;
    p->batch = (int)b;
    if (p->iter < 0)
        return mls_fail(err, "request: field 'iter': %g is negative", p->iter);
    if (!isnan(p->iter_time) && !(p->iter_time > 0))
        return mls_fail(err, "request: field 'iter_time': %g is not > 0", p->iter_time);
    return 0;
}

static int parse_object(const cJSON *o, live_request_t *r, mls_err_t *err)
{
    const cJSON *op = cJSON_GetObjectItemCaseSensitive(o, "op");
    if (!op || !cJSON_IsString(op))
        return mls_fail(err, "request: field 'op': missing or not a string");
    const char *name = op->valuestring;
    long id;
    if (!strcmp(name, "submit")) {
        r->op = LIVE_OP_SUBMIT;
        return parse_submit(o, &r->sub, err);
    }
    if (!strcmp(name, "report")) {
        r->op = LIVE_OP_REPORT;
        return parse_report(o, &r->prog, err);
    }
    if (!strcmp(name, "cancel")) {
        r->op = LIVE_OP_CANCEL;
        if (check_known(o, id_fields, name, err) < 0 ||
            get_int(o, "id", 1, 0, 0, (long)1 << 52, &id, err) < 0)
            return -1;
        r->id = id;
        return 0;
    }
    if (!strcmp(name, "status") || !strcmp(name, "drain")) {
        r->op = name[0] == 's' ? LIVE_OP_STATUS : LIVE_OP_DRAIN;
        return check_known(o, op_fields, name, err);
    }
    return mls_fail(err, "request: field 'op': unknown op '%.64s' (submit, status, cancel, "
                         "drain, report)",
                    name);
}

int live_parse_request(const char *text, size_t len, live_request_t *out, mls_err_t *err)
{
    memset(out, 0, sizeof *out);
    if (len > LIVE_MAX_REQUEST)
        return mls_fail(err, "request: %zu bytes, more than the limit of %d", len,
                        LIVE_MAX_REQUEST);
    mls_err_t why;
    cJSON *o = mls_json_parse(text, len, "request", 1, &why);
    if (!o) { /* one line: "request:1: ..." says no more than "request: ..." */
        const char *what = strstr(why.msg, ": ");
        if (!what || strstr(what, "not valid JSON"))
            return mls_fail(err, "request: malformed JSON");
        return mls_fail(err, "request: %s", what + 2);
    }
    int rc = 0;
    if (!cJSON_IsObject(o))
        rc = mls_fail(err, "request: not a JSON object");
    else
        rc = parse_object(o, out, err);
    cJSON_Delete(o);
    if (rc < 0)
        live_request_free(out);
    return rc;
}

void live_submit_free(live_submit_t *s)
{
    for (int i = 0; s->argv && i < s->argc; i++)
        free(s->argv[i]);
    free(s->argv);
    free(s->workload);
    free(s->user);
    memset(s, 0, sizeof *s);
}

void live_request_free(live_request_t *r)
{
    if (r->op == LIVE_OP_SUBMIT)
        live_submit_free(&r->sub);
    memset(r, 0, sizeof *r);
}

void live_submit_copy(live_submit_t *dst, const live_submit_t *src)
{
    *dst = *src;
    dst->argv = xcalloc((size_t)src->argc + 1, sizeof *dst->argv);
    for (int i = 0; i < src->argc; i++)
        dst->argv[i] = xstrdup(src->argv[i]);
    dst->workload = xstrdup(src->workload);
    dst->user = src->user ? xstrdup(src->user) : NULL;
}

int live_check_submit(const live_submit_t *s, const mls_cluster_t *c, const mls_perf_t *perf,
                      mls_err_t *err)
{
    int pw = perf_workload_index(perf, s->workload);
    if (pw < 0)
        return mls_fail(err, "submit: workload '%.200s': unknown to the perf model %s",
                        s->workload, perf->source ? perf->source : "");
    int largest = 0, runs = 0;
    for (int t = 0; t < c->n_types; t++) {
        if (c->types[t].total_gpus > largest)
            largest = c->types[t].total_gpus;
        int pt = perf_gpu_type_index(perf, c->types[t].name);
        if (pt >= 0 && c->types[t].total_gpus >= s->min_gpus) {
            double r = perf_throughput(perf, pw, pt, s->min_gpus, 1, s->batch);
            runs |= isfinite(r) && r > 0;
        }
    }
    if (s->min_gpus > largest)
        return mls_fail(err, "submit: gpus: needs %d GPUs but the cluster's largest GPU type has "
                             "%d",
                        s->min_gpus, largest);
    if (!runs)
        return mls_fail(err, "submit: workload '%.200s' on %d GPUs: the perf model gives it no "
                             "throughput on any GPU type of the cluster",
                        s->workload, s->min_gpus);
    return 0;
}

char *live_submit_to_json(const live_submit_t *s)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "op", "submit");
    cJSON *a = cJSON_AddArrayToObject(o, "argv");
    for (int i = 0; i < s->argc; i++)
        cJSON_AddItemToArray(a, cJSON_CreateString(s->argv[i]));
    cJSON_AddStringToObject(o, "workload", s->workload);
    if (s->user)
        cJSON_AddStringToObject(o, "user", s->user);
    cJSON_AddNumberToObject(o, "gpus", s->gpus);
    cJSON_AddNumberToObject(o, "min_gpus", s->min_gpus);
    cJSON_AddNumberToObject(o, "max_gpus", s->max_gpus);
    cJSON_AddNumberToObject(o, "batch", s->batch);
    cJSON_AddNumberToObject(o, "min_batch", s->min_batch);
    cJSON_AddNumberToObject(o, "max_batch", s->max_batch);
    mls_json_add_exact(o, "work", s->work);
    mls_json_add_exact(o, "priority", s->priority);
    cJSON_AddNumberToObject(o, "id", (double)s->id);
    if (!isnan(s->submit_at))
        mls_json_add_exact(o, "submit_at", s->submit_at);
    if (s->gang > 0)
        cJSON_AddNumberToObject(o, "gang", (double)s->gang);
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    return text;
}

int live_submit_from_json(const char *text, live_submit_t *out, mls_err_t *err)
{
    live_request_t r;
    if (live_parse_request(text, strlen(text), &r, err) < 0)
        return -1;
    if (r.op != LIVE_OP_SUBMIT) {
        live_request_free(&r);
        return mls_fail(err, "stored job spec is not a submission");
    }
    *out = r.sub;
    return 0;
}

static char *reply(cJSON *o)
{
    char *text = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    size_t n = strlen(text);
    char *line = xmalloc(n + 2);
    memcpy(line, text, n);
    line[n] = '\n';
    line[n + 1] = '\0';
    cJSON_free(text);
    return line;
}

char *live_reply_error(const char *msg)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "ok", 0);
    char *clean = mls_utf8_sanitize(msg); /* messages quote request bytes */
    cJSON_AddStringToObject(o, "error", clean);
    free(clean);
    return reply(o);
}

char *live_reply_ok(void)
{
    cJSON *o = cJSON_CreateObject();
    cJSON_AddBoolToObject(o, "ok", 1);
    return reply(o);
}
