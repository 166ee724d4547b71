/* import_philly.c: Microsoft Philly (Jeon et al., ATC'19, msr-fiddle/philly-traces)
 * and the one-row-per-job files derived from it. The file's content says
 * which it is:
 *
 *   cluster_job_log (JSON array of jobs)  {"status": Pass|Killed|Failed,
 *       "vc", "jobid", "user", "submitted_time": "YYYY-MM-DD HH:MM:SS",
 *       "attempts": [{"start_time", "end_time" (may be "None"),
 *                     "detail": [{"ip", "gpus": ["gpu0", ...]}]}]}
 *     Streamed: the array is scanned one top-level object at a time (string-
 *     and escape-aware brace matching) and each object alone goes to
 *     mls_json_parse, so a 40 MB log never sits in memory as one tree. A NUL
 *     byte, a key twice in an object and anything after the array are
 *     errors; so are a GPU listed twice on one machine and a submitted_time
 *     more than a day after the first attempt's start.
 *     GPUs = GPUs of the first attempt's detail, nodes = its machines;
 *     duration = sum over attempts of end - start; an attempt whose
 *     end_time is "None" (running at the snapshot) leaves the duration
 *     unknown; a job with no attempts never ran (attempts = 0).
 *   cluster_machine_list  machineId,number of GPUs,single GPU mem
 *     ("m31,8, 24GB"): machines for --emit-cluster (GPU model unknown).
 *   Pollux's philly.csv  timestamp,duration,num_gpus,gpu_time,cluster
 *     (petuum/adaptdl osdi21-artifact): one row per job, duration = sum of
 *     attempt durations, cluster = VC; not sorted.
 *   DIR-LAB  (see import_prod.c): CRLF, interval-based submit clock.
 *
 * Timestamps have no zone (the cluster ran on US Pacific time); they are
 * read as UTC wall clock, which keeps differences and times of day exact. */
#include "model/json_util.h"
#include "traces/import.h"
#include "traces/import_prod.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* ---- JSON, one object at a time ---------------------------------------------------- */

/* How far a job's submitted_time may lie after its first attempt's start
 * (s): clock skew between the log's writers, never days. A submit years
 * after its attempts is a corrupted row, and an error. */
#define PHILLY_SUBMIT_SKEW 86400.0

typedef struct jscan {
    FILE *fp;
    char buf[1 << 16];
    size_t len, pos;
    long line;
    char *obj; /* the current object's text */
    size_t obj_len, obj_cap;
} jscan_t;

static int jget(jscan_t *s)
{
    if (s->pos == s->len) {
        s->len = fread(s->buf, 1, sizeof s->buf, s->fp);
        s->pos = 0;
        if (!s->len)
            return EOF;
    }
    int c = (unsigned char)s->buf[s->pos++];
    if (c == '\n')
        s->line++;
    return c;
}

static int jget_nonspace(jscan_t *s)
{
    int c;
    while ((c = jget(s)) != EOF && isspace(c))
        ;
    return c;
}

static inline void obj_put(jscan_t *s, char c)
{
    if (s->obj_len + 2 > s->obj_cap)
        xgrow((void **)&s->obj, &s->obj_cap, s->obj_len + 2, 1);
    s->obj[s->obj_len++] = c;
}

/* Reads the object whose '{' was just read into s->obj, without the
 * whitespace between tokens: 0, -1 at an early end of file, -2 at a NUL byte
 * (s->line is its line). Works on the read buffer directly (this loop is the
 * reader's hot path). */
static int read_object(jscan_t *s)
{
    s->obj_len = 0;
    obj_put(s, '{');
    int depth = 1, in_str = 0, esc = 0;
    while (depth > 0) {
        if (s->pos == s->len) {
            s->len = fread(s->buf, 1, sizeof s->buf, s->fp);
            s->pos = 0;
            if (!s->len)
                break;
        }
        const char *p = s->buf + s->pos, *end = s->buf + s->len;
        for (; p < end && depth > 0; p++) {
            char c = *p;
            if (c == '\n')
                s->line++;
            if (c == '\0') {
                s->pos = (size_t)(p - s->buf);
                return -2;
            }
            if (in_str) {
                obj_put(s, c);
                if (esc)
                    esc = 0;
                else if (c == '\\')
                    esc = 1;
                else if (c == '"')
                    in_str = 0;
                continue;
            }
            switch (c) {
            case ' ': case '\t': case '\r': case '\n': continue;
            case '"': in_str = 1; break;
            case '{': case '[': depth++; break;
            case '}': case ']': depth--; break;
            default: break;
            }
            obj_put(s, c);
        }
        s->pos = (size_t)(p - s->buf);
    }
    s->obj[s->obj_len] = '\0';
    return depth == 0 ? 0 : -1;
}

static const char *jstr(const cJSON *o, const char *key)
{
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(o, key);
    return cJSON_IsString(it) ? it->valuestring : NULL;
}

static int job_fail(const char *path, long line, const char *field, const char *val,
                    const char *why, mls_err_t *err)
{
    return mls_fail(err, "%s:%ld: field '%s': %s%s%s%s", path, line, field, val ? "'" : "",
                    val ? val : "", val ? "' " : "", why);
}

static int status_of(const char *s, rec_status_t *st)
{
    *st = !strcmp(s, "Pass")      ? REC_PASS
          : !strcmp(s, "Killed")  ? REC_KILLED
          : !strcmp(s, "Failed")  ? REC_FAILED
          : !strcmp(s, "Running") ? REC_RUNNING
                                  : REC_UNKNOWN;
    return *st == REC_UNKNOWN ? -1 : 0;
}

/* One attempt: adds its run time to *dur (NAN once an end is "None"). */
static int attempt(const cJSON *a, int i, const char *path, long line, double *first_start,
                   double *dur, mls_err_t *err)
{
    char field[48];
    const char *st = jstr(a, "start_time"), *en = jstr(a, "end_time");
    double t0, t1;
    snprintf(field, sizeof field, "attempts[%d].start_time", i);
    if (!cJSON_IsObject(a))
        return job_fail(path, line, field, NULL, "the attempt is not an object", err);
    if (!st || !strcmp(st, "None")) {
        *dur = NAN; /* never started */
        return 0;
    }
    if (rec_parse_time(st, &t0) < 0)
        return job_fail(path, line, field, st, "is not a time", err);
    if (i == 0)
        *first_start = t0;
    snprintf(field, sizeof field, "attempts[%d].end_time", i);
    if (!en || !strcmp(en, "None")) {
        *dur = NAN; /* running at the snapshot */
        return 0;
    }
    if (rec_parse_time(en, &t1) < 0)
        return job_fail(path, line, field, en, "is not a time", err);
    if (t1 < t0)
        return job_fail(path, line, field, en, "is before its start_time", err);
    *dur += t1 - t0;
    return 0;
}

/* A GPU name listed twice in one machine's list (a GPU counts once), or
 * NULL. Lists are a machine's GPUs: a few, so pairs are compared. */
static const char *repeated_gpu(const cJSON *gpus)
{
    for (const cJSON *a = gpus->child; a; a = a->next)
        for (const cJSON *b = a->next; b && cJSON_IsString(a); b = b->next)
            if (cJSON_IsString(b) && !strcmp(a->valuestring, b->valuestring))
                return a->valuestring;
    return NULL;
}

/* GPUs and machines of the first attempt. */
static int first_alloc(const cJSON *a, const char *path, long line, import_record_t *rec,
                       mls_err_t *err)
{
    const cJSON *detail = cJSON_GetObjectItemCaseSensitive(a, "detail");
    if (!detail)
        detail = cJSON_GetObjectItemCaseSensitive(a, "details");
    if (!cJSON_IsArray(detail))
        return job_fail(path, line, "attempts[0].detail", NULL, "is not an array", err);
    int gpus = 0, nodes = 0;
    const cJSON *d;
    cJSON_ArrayForEach(d, detail)
    {
        const cJSON *g = cJSON_GetObjectItemCaseSensitive(d, "gpus");
        if (!cJSON_IsArray(g))
            return job_fail(path, line, "attempts[0].detail.gpus", NULL, "is not an array",
                            err);
        const char *dup = repeated_gpu(g);
        if (dup)
            return job_fail(path, line, "attempts[0].detail.gpus", dup,
                            "appears twice on one machine", err);
        gpus += cJSON_GetArraySize(g);
        nodes++;
    }
    rec->gpus = gpus;
    rec->nodes = nodes;
    return 0;
}

static int philly_job(import_records_t *rs, const cJSON *o, const char *path, long line,
                      import_record_t *rec, mls_err_t *err)
{
    if (!cJSON_IsObject(o))
        return mls_fail(err, "%s:%ld: a job is not a JSON object", path, line);
    const char *status = jstr(o, "status"), *submitted = jstr(o, "submitted_time");
    const char *vc = jstr(o, "vc"), *user = jstr(o, "user");
    if (!status)
        return job_fail(path, line, "status", NULL, "is missing", err);
    if (status_of(status, &rec->status) < 0)
        return job_fail(path, line, "status", status, "is not Pass, Killed, Failed or Running",
                        err);
    if (!submitted)
        return job_fail(path, line, "submitted_time", NULL, "is missing", err);
    if (rec_parse_time(submitted, &rec->submit) < 0)
        return job_fail(path, line, "submitted_time", submitted, "is not a time", err);
    const cJSON *attempts = cJSON_GetObjectItemCaseSensitive(o, "attempts");
    if (!cJSON_IsArray(attempts))
        return job_fail(path, line, "attempts", NULL, "is not an array", err);
    rec->attempts = cJSON_GetArraySize(attempts);
    if (rec->attempts > 0) {
        double dur = 0, first = NAN;
        int i = 0;
        const cJSON *a;
        cJSON_ArrayForEach(a, attempts)
        {
            if (attempt(a, i, path, line, &first, &dur, err) < 0)
                return -1;
            if (i == 0 && first_alloc(a, path, line, rec, err) < 0)
                return -1;
            i++;
        }
        rec->duration = dur;
        rec->start = first;
        if (rec->submit > first + PHILLY_SUBMIT_SKEW)
            return job_fail(path, line, "submitted_time", submitted,
                            "is more than a day after the first attempt's start_time", err);
    }
    rec->vc = vc ? strtab_intern(&rs->vcs, vc) : -1;
    rec->user = user ? strtab_intern(&rs->users, user) : -1;
    return 0;
}

/* mls_json_parse's message about the object that starts on `line`, which
 * names that line when the message names none (a duplicate key). */
static int object_fail(const char *path, long line, const mls_err_t *why, mls_err_t *err)
{
    size_t n = strlen(path);
    if (!strncmp(why->msg, path, n) && !strncmp(why->msg + n, ": ", 2))
        return mls_fail(err, "%s:%ld:%s (in the job object that starts here)", path, line,
                        why->msg + n + 1);
    return mls_fail(err, "%s (in the job object that starts here)", why->msg);
}

static int read_json(import_records_t *rs, FILE *fp, const char *path, unsigned flags,
                     long *skipped, mls_err_t *err)
{
    jscan_t *s = xcalloc(1, sizeof *s);
    s->fp = fp;
    s->line = 1;
    int rc = 0, c = jget_nonspace(s), in_array = c == '[';
    rs->clock_epoch = 1;
    if (in_array)
        c = jget_nonspace(s);
    while (rc == 0 && c != EOF && !(in_array && c == ']')) {
        if (c != '{') {
            rc = c == 0 ? mls_fail(err, "%s:%ld: a NUL byte: a text input must not contain one",
                                   path, s->line)
                 : c < 0x20 || c > 0x7e
                     ? mls_fail(err, "%s:%ld: expected a job object '{', found byte 0x%02X",
                                path, s->line, (unsigned)c)
                     : mls_fail(err, "%s:%ld: expected a job object '{', found '%c'", path,
                                s->line, c);
            break;
        }
        long line = s->line;
        int got = read_object(s);
        if (got == -2) {
            rc = mls_fail(err, "%s:%ld: a NUL byte: a text input must not contain one", path,
                          s->line);
            break;
        }
        if (got < 0) {
            rc = mls_fail(err, "%s:%ld: the job object that starts here is not closed", path,
                          line);
            break;
        }
        mls_err_t why;
        cJSON *o = mls_json_parse(s->obj, s->obj_len, path, line, &why);
        import_record_t rec = record_blank();
        rec.line = line;
        int row_rc =
            o ? philly_job(rs, o, path, line, &rec, err) : object_fail(path, line, &why, err);
        cJSON_Delete(o);
        if (row_rc == 0)
            records_add(rs, &rec);
        else
            rc = import_bad_row(flags, skipped);
        c = jget_nonspace(s);
        if (c == ',')
            c = jget_nonspace(s);
    }
    if (rc == 0 && in_array && c != ']')
        rc = mls_fail(err, "%s:%ld: the job array is not closed", path, s->line);
    if (rc == 0 && in_array && (c = jget_nonspace(s)) != EOF)
        rc = c == 0 ? mls_fail(err, "%s:%ld: a NUL byte: a text input must not contain one",
                               path, s->line)
                    : mls_fail(err, "%s:%ld: data after the job array (one JSON document per "
                                    "file)",
                               path, s->line);
    free(s->obj);
    free(s);
    return rc;
}

/* ---- cluster_machine_list ------------------------------------------------------------ */

static int read_machines(import_records_t *rs, FILE *fp, const char *path, unsigned flags,
                         long *skipped, mls_err_t *err)
{
    csv_reader_t r;
    csv_open(&r, fp, ',');
    int rc = 0, got;
    while (rc == 0 && (got = csv_next(&r)) > 0) {
        long gpus;
        if (r.line_no == 1 && r.n_fields >= 2 && mls_parse_long(mls_trim(r.fields[1]), &gpus) < 0)
            continue; /* the header */
        import_machine_t m = {-1, 0, NAN, NAN, NAN, -1};
        int row_rc = 0;
        if (r.n_fields != 3)
            row_rc = mls_fail(err, "%s:%ld: %zu fields; a machine line has 3 (machineId,number "
                                   "of GPUs,single GPU mem)",
                              path, r.line_no, r.n_fields);
        else if (mls_parse_long(mls_trim(r.fields[1]), &gpus) < 0 || gpus < 0 || gpus > 1024)
            row_rc = mls_fail(err, "%s:%ld: field 'number of GPUs': '%s' is not a GPU count",
                              path, r.line_no, r.fields[1]);
        else {
            char *mem = mls_trim(r.fields[2]);
            size_t n = strlen(mem);
            if (n >= 2 && !strcasecmp(mem + n - 2, "GB"))
                mem[n - 2] = '\0';
            if (*mem &&
                (mls_parse_double(mls_trim(mem), &m.gpu_mem_gb) < 0 || !(m.gpu_mem_gb >= 0)))
                row_rc = mls_fail(err, "%s:%ld: field 'single GPU mem': '%s' is not a size "
                                       "like 24GB",
                                  path, r.line_no, r.fields[2]);
            m.gpus = (int)gpus;
        }
        if (row_rc == 0)
            records_add_machine(rs, &m);
        else
            rc = import_bad_row(flags, skipped);
    }
    if (rc == 0 && got < 0)
        rc = csv_fail(&r, path, err);
    csv_close(&r);
    return rc;
}

/* ---- Pollux's one-row-per-job CSV ----------------------------------------------------- */

enum { P_TIME, P_DUR, P_GPUS, P_VC };

static int pollux_row(prod_ctx_t *c, const csv_reader_t *r, import_record_t *rec, mls_err_t *err)
{
    double dur, gpus;
    if (prod_time(c, r, P_TIME, &rec->submit, err) < 0 ||
        prod_num(c, r, P_DUR, 0, &dur, err) < 0 || prod_num(c, r, P_GPUS, 0, &gpus, err) < 0)
        return -1;
    rec->duration = dur;
    rec->gpus = gpus;
    rec->vc = strtab_intern(&c->rs->vcs, prod_field(c, r, P_VC));
    return 0;
}

static const prod_layout_t pollux_csv = {
    "Pollux (timestamp,duration,num_gpus,gpu_time,cluster)",
    {"timestamp", "duration", "num_gpus", "cluster", NULL},
    1,
    pollux_row,
};

/* ---- which file is it ------------------------------------------------------------------ */

static int first_byte(FILE *fp)
{
    int c;
    while ((c = getc(fp)) != EOF && isspace(c))
        ;
    return c;
}

static int is_machine_list(FILE *fp)
{
    char line[256];
    if (!fgets(line, sizeof line, fp))
        return 0;
    rewind(fp);
    return !strncasecmp(line, "machine", 7) ||
           (line[0] == 'm' && isdigit((unsigned char)line[1]) && strchr(line, ',') &&
            strstr(line, "GB"));
}

int import_philly(import_records_t *rs, const char *path, unsigned flags, long *skipped,
                  mls_err_t *err)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return mls_fail(err, "%s: cannot open: %s", path, strerror(errno));
    int c = first_byte(fp), rc;
    rewind(fp);
    if (c == '[' || c == '{')
        rc = read_json(rs, fp, path, flags, skipped, err);
    else if (is_machine_list(fp))
        rc = read_machines(rs, fp, path, flags, skipped, err);
    else {
        fclose(fp);
        static const prod_layout_t *const layouts[] = {&pollux_csv, &prod_dirlab};
        return prod_read_csv(rs, path, layouts, 2, "philly", flags, skipped, err);
    }
    fclose(fp);
    return rc;
}
