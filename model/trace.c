/* trace.c: reading, validating and writing the canonical trace CSV (see
 * trace.h). The reader maps header names to columns once, then parses each
 * record with strict number parsing; every error names FILE:LINE and the
 * field. The writer prints numbers in their shortest exact form. */
#include "model/trace.h"

#include "model/csv.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum col {
    C_ID,
    C_SUBMIT,
    C_USER,
    C_WORKLOAD,
    C_GPUS,
    C_WORK,
    C_DURATION,
    C_PRIORITY,
    C_DEADLINE,
    C_MIN_GPUS,
    C_MAX_GPUS,
    C_BATCH,
    C_MODE,
    C_CPUS,
    C_MEM,
    C_GANG,
    C_TOTAL_BATCH,
    N_COLS
};

static const char *const col_names[N_COLS] = {
    "id",       "submit_time", "user",     "workload", "gpus",       "total_work", "duration",
    "priority", "deadline",    "min_gpus", "max_gpus", "batch_size", "mode",
    "cpus",     "mem_gb",      "gang",     "total_batch"};
static const int col_required[N_COLS] = {1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
static const char *const mode_names[] = {"static", "accordion", "gns"};

void trace_init(mls_trace_t *t)
{
    memset(t, 0, sizeof *t);
    strtab_init(&t->users);
    strtab_init(&t->workloads);
}

void trace_free(mls_trace_t *t)
{
    free(t->jobs);
    strtab_free(&t->users);
    strtab_free(&t->workloads);
    free(t->path);
    memset(t, 0, sizeof *t);
}

size_t trace_add(mls_trace_t *t, const mls_job_t *job)
{
    xgrow((void **)&t->jobs, &t->cap, t->n + 1, sizeof *t->jobs);
    t->jobs[t->n] = *job;
    return t->n++;
}

static int cmp_id(const void *a, const void *b)
{
    int64_t x = **(const int64_t *const *)a, y = **(const int64_t *const *)b;
    return (x > y) - (x < y);
}

static int check_time(double v, const char *where, const char *name, mls_err_t *err)
{
    if (v > MLS_MAX_TIME)
        return mls_fail(err, "%s: field '%s': %g s is above the largest time accepted (%g s)",
                        where, name, v, MLS_MAX_TIME);
    return 0;
}

static int check_job(const mls_job_t *j, const char *where, mls_err_t *err)
{
    if (!(j->submit >= 0) || !isfinite(j->submit))
        return mls_fail(err, "%s: field 'submit_time': %g is not a time >= 0", where, j->submit);
    if (j->gpus < 1)
        return mls_fail(err, "%s: field 'gpus': %d, must be >= 1", where, j->gpus);
    if (!(j->work > 0) || !isfinite(j->work))
        return mls_fail(err, "%s: field 'total_work': %g, must be > 0", where, j->work);
    if (j->min_gpus < 1 || j->min_gpus > j->gpus)
        return mls_fail(err, "%s: field 'min_gpus': %d, must be in 1..gpus (%d)", where,
                        j->min_gpus, j->gpus);
    if (j->max_gpus < j->gpus)
        return mls_fail(err, "%s: field 'max_gpus': %d, must be >= gpus (%d)", where,
                        j->max_gpus, j->gpus);
    if (!(j->priority > 0) || !isfinite(j->priority))
        return mls_fail(err, "%s: field 'priority': %g, must be > 0", where, j->priority);
    if (j->batch_size < 0)
        return mls_fail(err, "%s: field 'batch_size': %d, must be >= 0", where, j->batch_size);
    if (j->total_batch < 0)
        return mls_fail(err, "%s: field 'total_batch': %d, must be >= 0", where, j->total_batch);
    if (!isnan(j->duration) && !(j->duration > 0))
        return mls_fail(err, "%s: field 'duration': %g, must be > 0", where, j->duration);
    if (!(j->cpus >= 0) || !isfinite(j->cpus))
        return mls_fail(err, "%s: field 'cpus': %g, must be > 0 (0 or empty: default)", where,
                        j->cpus);
    if (!(j->mem_gb >= 0) || !isfinite(j->mem_gb))
        return mls_fail(err, "%s: field 'mem_gb': %g, must be > 0 (0 or empty: default)", where,
                        j->mem_gb);
    if (check_time(j->submit, where, "submit_time", err) < 0 ||
        (!isnan(j->duration) && check_time(j->duration, where, "duration", err) < 0) ||
        (isfinite(j->deadline) && check_time(j->deadline, where, "deadline", err) < 0))
        return -1;
    if (j->deadline < j->submit)
        return mls_fail(err, "%s: field 'deadline': %g is before the job's submit_time %g", where,
                        j->deadline, j->submit);
    return 0;
}

/* check_job's conditions without the message (validation's fast path). */
static int job_ok(const mls_job_t *j)
{
    int duration_ok = isnan(j->duration) || (j->duration > 0 && j->duration <= MLS_MAX_TIME);
    int deadline_ok = !(j->deadline < j->submit) &&
                      !(isfinite(j->deadline) && j->deadline > MLS_MAX_TIME);
    return j->submit >= 0 && j->submit <= MLS_MAX_TIME && j->gpus >= 1 && j->work > 0 &&
           isfinite(j->work) && j->min_gpus >= 1 && j->min_gpus <= j->gpus &&
           j->max_gpus >= j->gpus && j->priority > 0 && isfinite(j->priority) &&
           j->batch_size >= 0 && j->total_batch >= 0 && duration_ok && j->cpus >= 0 && isfinite(j->cpus) &&
           j->mem_gb >= 0 && isfinite(j->mem_gb) && deadline_ok;
}

void trace_job_where(const mls_trace_t *t, size_t i, char *buf, size_t cap)
{
    const char *path = t->path ? t->path : "trace";
    const mls_job_t *j = &t->jobs[i];
    if (j->line > 0)
        snprintf(buf, cap, "%s:%ld: job %lld", path, j->line, (long long)j->id);
    else
        snprintf(buf, cap, "%s: job %lld", path, (long long)j->id);
}

/* The second job of a repeated id, by where it was read: "first at ..." */
static int dup_fail(const mls_trace_t *t, size_t first, size_t again, mls_err_t *err)
{
    char where[512];
    if (t->jobs[first].line > t->jobs[again].line) {
        size_t k = first;
        first = again;
        again = k;
    }
    trace_job_where(t, again, where, sizeof where);
    if (t->jobs[first].line > 0)
        return mls_fail(err, "%s: field 'id': job id %lld appears twice (first at line %ld)",
                        where, (long long)t->jobs[again].id, t->jobs[first].line);
    return mls_fail(err, "%s: field 'id': job id %lld appears twice", where,
                    (long long)t->jobs[again].id);
}

static int cmp_gang(const void *a, const void *b)
{
    const mls_job_t *x = *(const mls_job_t *const *)a, *y = *(const mls_job_t *const *)b;
    if (x->gang != y->gang)
        return (x->gang > y->gang) - (x->gang < y->gang);
    return (x->submit > y->submit) - (x->submit < y->submit);
}

/* The computations of one gang arrive together. */
static int check_gangs(const mls_trace_t *t, const char *path, mls_err_t *err)
{
    size_t n = 0;
    const mls_job_t **g = xmalloc(sizeof *g * (t->n ? t->n : 1));
    for (size_t i = 0; i < t->n; i++)
        if (t->jobs[i].gang > 0)
            g[n++] = &t->jobs[i];
    qsort(g, n, sizeof *g, cmp_gang);
    int rc = 0;
    for (size_t i = 1; i < n && rc == 0; i++)
        if (g[i]->gang == g[i - 1]->gang && g[i]->submit != g[i - 1]->submit)
            rc = mls_fail(err,
                          "%s: job %lld: field 'gang': gang %lld's computations must arrive "
                          "together, but job %lld arrives at %g and job %lld at %g",
                          path, (long long)g[i]->id, (long long)g[i]->gang,
                          (long long)g[i - 1]->id, g[i - 1]->submit, (long long)g[i]->id,
                          g[i]->submit);
    free(g);
    return rc;
}

int trace_validate(const mls_trace_t *t, mls_err_t *err)
{
    int increasing = 1;
    if (check_gangs(t, t->path ? t->path : "trace", err) < 0)
        return -1;
    for (size_t i = 0; i < t->n; i++) {
        char where[512];
        if (!job_ok(&t->jobs[i])) {
            trace_job_where(t, i, where, sizeof where);
            if (check_job(&t->jobs[i], where, err) < 0)
                return -1;
        }
        if (i && t->jobs[i].submit < t->jobs[i - 1].submit) {
            trace_job_where(t, i, where, sizeof where);
            return mls_fail(err, "%s: field 'submit_time': %g is before the previous job's %g",
                            where, t->jobs[i].submit, t->jobs[i - 1].submit);
        }
        if (i && t->jobs[i].id <= t->jobs[i - 1].id)
            increasing = 0;
    }
    if (increasing) /* ids in increasing order (the usual 0..n-1) are distinct */
        return 0;
    const int64_t **ids = xmalloc(sizeof *ids * (t->n ? t->n : 1));
    for (size_t i = 0; i < t->n; i++)
        ids[i] = &t->jobs[i].id;
    qsort(ids, t->n, sizeof *ids, cmp_id);
    int rc = 0;
    for (size_t i = 1; i < t->n && rc == 0; i++)
        if (*ids[i] == *ids[i - 1])
            /* id is mls_job_t's first member: the pointer is the job's */
            rc = dup_fail(t, (size_t)((const mls_job_t *)(const void *)ids[i - 1] - t->jobs),
                          (size_t)((const mls_job_t *)(const void *)ids[i] - t->jobs), err);
    free(ids);
    return rc;
}

/* ---- reading ---------------------------------------------------------------- */

typedef struct reader {
    csv_reader_t csv;
    int col[N_COLS]; /* field index of each known column, -1 absent */
    size_t n_header;
    const char *path;
    mls_err_t *err;
} reader_t;

/* Reads the next record that is not a '#' comment: 1, 0 at the end, -1 on an
 * unclosed quote or a NUL byte. */
static int next_record(reader_t *r)
{
    int got;
    while ((got = csv_next(&r->csv)) > 0 && r->csv.fields[0][0] == '#')
        ;
    if (got < 0)
        csv_fail(&r->csv, r->path, r->err);
    return got;
}

static int read_header(reader_t *r, unsigned flags)
{
    for (int c = 0; c < N_COLS; c++)
        r->col[c] = -1;
    int got = next_record(r);
    if (got < 0)
        return -1;
    if (got == 0)
        return mls_fail(r->err, "%s: empty file: expected a header line", r->path);
    r->n_header = r->csv.n_fields;
    for (size_t i = 0; i < r->csv.n_fields; i++) {
        const char *name = r->csv.fields[i];
        int c = 0;
        while (c < N_COLS && strcmp(name, col_names[c]))
            c++;
        if (c == N_COLS) {
            if (flags & TRACE_IGNORE_EXTRA)
                continue;
            return mls_fail(r->err,
                            "%s:%ld: column '%s' is not a trace column (use "
                            "--ignore-extra-columns to accept it)",
                            r->path, r->csv.line_no, name);
        }
        if (r->col[c] >= 0)
            return mls_fail(r->err, "%s:%ld: column '%s' appears twice", r->path,
                            r->csv.line_no, name);
        r->col[c] = (int)i;
    }
    for (int c = 0; c < N_COLS; c++)
        if (col_required[c] && r->col[c] < 0)
            return mls_fail(r->err, "%s:%ld: the required column '%s' is missing", r->path,
                            r->csv.line_no, col_names[c]);
    return 0;
}

static const char *field(const reader_t *r, int c)
{
    return r->col[c] >= 0 ? r->csv.fields[r->col[c]] : "";
}

static int bad_field(const reader_t *r, int c, const char *what)
{
    return mls_fail(r->err, "%s:%ld: field '%s': '%s' %s", r->path, r->csv.line_no,
                    col_names[c], field(r, c), what);
}

static int get_double(const reader_t *r, int c, double def, double *out)
{
    const char *s = field(r, c);
    if (!*s) {
        if (col_required[c])
            return bad_field(r, c, "is empty");
        *out = def;
        return 0;
    }
    if (mls_parse_double(s, out) < 0)
        return bad_field(r, c, mls_number_why(s));
    return 0;
}

static int get_int(const reader_t *r, int c, long def, long lo, long *out)
{
    const char *s = field(r, c);
    if (!*s) {
        if (col_required[c])
            return bad_field(r, c, "is empty");
        *out = def;
        return 0;
    }
    if (mls_parse_long(s, out) < 0) {
        double d;
        return bad_field(r, c,
                         mls_parse_double(s, &d) == 0 && d == floor(d)
                             ? "is out of range"
                             : "is not a decimal integer");
    }
    if (*out < lo)
        return bad_field(r, c, lo > 0 ? "must be >= 1" : "must be >= 0");
    return 0;
}

static int parse_mode(const reader_t *r, mls_adapt_mode_t *out)
{
    const char *s = field(r, C_MODE);
    if (!*s) {
        *out = ADAPT_STATIC;
        return 0;
    }
    for (int m = 0; m < 3; m++)
        if (!strcmp(s, mode_names[m])) {
            *out = (mls_adapt_mode_t)m;
            return 0;
        }
    return bad_field(r, C_MODE, "is not static, accordion or gns");
}

static int parse_record(reader_t *r, mls_trace_t *t, mls_job_t *j)
{
    long id, gpus, mn, mx, bs, gang, total;
    if (r->csv.n_fields != r->n_header)
        return mls_fail(r->err, "%s:%ld: %zu fields, the header has %zu", r->path,
                        r->csv.line_no, r->csv.n_fields, r->n_header);
    if (get_int(r, C_ID, 0, 0, &id) < 0 || get_double(r, C_SUBMIT, 0, &j->submit) < 0 ||
        get_int(r, C_GPUS, 1, 1, &gpus) < 0 || get_double(r, C_WORK, 0, &j->work) < 0 ||
        get_double(r, C_DURATION, NAN, &j->duration) < 0 ||
        get_double(r, C_PRIORITY, 1, &j->priority) < 0 ||
        get_double(r, C_DEADLINE, INFINITY, &j->deadline) < 0 ||
        get_int(r, C_MIN_GPUS, gpus, 1, &mn) < 0 || get_int(r, C_MAX_GPUS, gpus, 1, &mx) < 0 ||
        get_int(r, C_BATCH, 0, 0, &bs) < 0 || parse_mode(r, &j->mode) < 0 ||
        get_double(r, C_CPUS, 0, &j->cpus) < 0 || get_double(r, C_MEM, 0, &j->mem_gb) < 0 ||
        get_int(r, C_GANG, 0, 0, &gang) < 0 || get_int(r, C_TOTAL_BATCH, 0, 0, &total) < 0)
        return -1;
    j->gang = gang;
    if (*field(r, C_CPUS) && !(j->cpus > 0))
        return bad_field(r, C_CPUS, "must be > 0");
    if (*field(r, C_MEM) && !(j->mem_gb > 0))
        return bad_field(r, C_MEM, "must be > 0");
    if (gpus > 1 << 20)
        return bad_field(r, C_GPUS, "is more than 1048576 GPUs");
    if (mn > 1 << 20)
        return bad_field(r, C_MIN_GPUS, "is more than 1048576 GPUs");
    if (mx > 1 << 20)
        return bad_field(r, C_MAX_GPUS, "is more than 1048576 GPUs");
    if (bs > 1 << 24)
        return bad_field(r, C_BATCH, "is more than 16777216 samples per GPU");
    if (total > 1 << 30)
        return bad_field(r, C_TOTAL_BATCH, "is more than 1073741824 samples");
    if (j->submit < 0)
        return bad_field(r, C_SUBMIT, "is negative: times must be >= 0");
    if (j->work <= 0)
        return bad_field(r, C_WORK, "must be > 0");
    if (!*field(r, C_WORKLOAD))
        return bad_field(r, C_WORKLOAD, "is empty");
    j->id = id;
    j->gpus = (int)gpus;
    j->min_gpus = (int)mn;
    j->max_gpus = (int)mx;
    j->batch_size = (int)bs;
    j->total_batch = (int)total;
    j->line = r->csv.line_no;
    const char *user = field(r, C_USER);
    j->user = strtab_intern(&t->users, *user ? user : "default");
    j->workload = strtab_intern(&t->workloads, field(r, C_WORKLOAD));
    if (!job_ok(j)) { /* the place is written only for a message (as trace_validate) */
        char where[512];
        snprintf(where, sizeof where, "%s:%ld", r->path, r->csv.line_no);
        if (check_job(j, where, r->err) < 0)
            return -1;
    }
    if (t->n && j->submit < t->jobs[t->n - 1].submit)
        return mls_fail(r->err,
                        "%s:%ld: field 'submit_time': %g is before the previous row's %g "
                        "(submit times must not decrease)",
                        r->path, r->csv.line_no, j->submit, t->jobs[t->n - 1].submit);
    return 0;
}

int trace_read_csv(mls_trace_t *t, const char *path, unsigned flags, mls_err_t *err)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return mls_fail(err, "%s: cannot open: %s", path, strerror(errno));
    reader_t r = {.path = path, .err = err};
    csv_open(&r.csv, fp, ',');
    int rc = read_header(&r, flags), got;
    while (rc == 0 && (got = next_record(&r)) != 0) {
        mls_job_t j = {0};
        rc = got < 0 ? -1 : parse_record(&r, t, &j);
        if (rc == 0)
            trace_add(t, &j);
    }
    csv_close(&r.csv);
    fclose(fp);
    if (rc == 0) {
        free(t->path);
        t->path = xstrdup(path);
        rc = trace_validate(t, err);
    }
    if (rc == 0 && !(flags & TRACE_NO_CHECKSUM))
        rc = mls_file_checksum(path, t->checksum, err);
    return rc;
}

/* ---- writing ---------------------------------------------------------------- */

/* An integer in decimal (fprintf's %lld, without its cost). */
static void put_int(FILE *f, long long v)
{
    char buf[24];
    int n = 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        buf[n++] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        fputc('-', f);
    while (n)
        fputc(buf[--n], f);
}

static int round_trips(char *buf, size_t cap, int prec, double v)
{
    snprintf(buf, cap, "%.*g", prec, v);
    return strtod(buf, NULL) == v;
}

/* The %g text at precision p of the p leading digits d (exponent x of d[0])
 * of a number with the given sign; trailing zeros dropped as %g does. */
static void g_style(char *buf, int neg, const char *d, int p, int x)
{
    int last = p - 1;
    while (last > 0 && d[last] == '0')
        last--;
    char *o = buf;
    if (neg)
        *o++ = '-';
    if (x < -4 || x >= p) {
        *o++ = d[0];
        if (last > 0) {
            *o++ = '.';
            for (int k = 1; k <= last; k++)
                *o++ = d[k];
        }
        o += sprintf(o, "e%c%02d", x < 0 ? '-' : '+', x < 0 ? -x : x);
    } else if (x >= 0) {
        for (int k = 0; k <= x; k++)
            *o++ = k <= last ? d[k] : '0';
        if (last > x) {
            *o++ = '.';
            for (int k = x + 1; k <= last; k++)
                *o++ = d[k];
        }
        *o = '\0';
    } else {
        *o++ = '0';
        *o++ = '.';
        for (int k = 0; k < -x - 1; k++)
            *o++ = '0';
        for (int k = 0; k <= last; k++)
            *o++ = d[k];
        *o = '\0';
    }
}

/* The p-digit rounding of the 17 digits d17 into d (exponent *x adjusted on
 * a carry); -1 when the dropped digits are exactly a half, where rounding the
 * 17 digits may differ from rounding the double itself. */
static int round_digits(const char *d17, int p, char *d, int *x)
{
    memcpy(d, d17, (size_t)p);
    if (p == 17)
        return 0;
    if (d17[p] == '5') {
        int k = p + 1;
        while (k < 17 && d17[k] == '0')
            k++;
        if (k == 17)
            return -1;
    }
    if (d17[p] >= '5') {
        int k = p - 1;
        while (k >= 0 && d[k] == '9')
            d[k--] = '0';
        if (k >= 0)
            d[k]++;
        else {
            d[0] = '1'; /* 99..9 -> 100..0 */
            (*x)++;
        }
    }
    return 0;
}

/* The shortest %g form, at 10 to 17 digits, that reads back to the same
 * double (what "%.*g" with p = 10, 11, ... 17 and a strtod check gives).
 * Integers below 1e10 print as themselves; other numbers are formatted once
 * at 17 digits and rounded in decimal for each p (printf again only where
 * that rounding is a tie), which keeps writing a million-row trace cheap. */
/* The decimal digits of n at buf (no terminator); returns their count. */
static int utoa(char *buf, unsigned long long n)
{
    char tmp[24];
    int len = 0;
    do {
        tmp[len++] = (char)('0' + n % 10);
        n /= 10;
    } while (n);
    for (int i = 0; i < len; i++)
        buf[i] = tmp[len - 1 - i];
    return len;
}

/* v as a decimal of at most 15 significant digits in fixed notation, when
 * it is one: v = q / 10^k exactly as strtod reads it. Then that text is what
 * the search below finds (fewer digits read back to another double). */
static int short_decimal(char *buf, size_t cap, double v)
{
    static const double pow10[16] = {1,    1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,
                                     1e8,  1e9,  1e10, 1e11, 1e12, 1e13, 1e14, 1e15};
    double a = fabs(v);
    if (!(a >= 1e-4 && a < 1e10) || cap < 40)
        return -1;
    for (int k = 1; k <= 15; k++) {
        double q = nearbyint(a * pow10[k]);
        if (q >= 1e15)
            return -1;
        if (q / pow10[k] != a)
            continue;
        char digits[24];
        int len = utoa(digits, (unsigned long long)q), pad = len <= k ? k + 1 - len : 0;
        char *o = buf;
        if (v < 0)
            *o++ = '-';
        /* digits with `pad` leading zeros, the point before the last k */
        int total = len + pad, int_len = total - k, last = total - 1;
        while (last >= int_len && (last < pad ? '0' : digits[last - pad]) == '0')
            last--;
        for (int i = 0; i <= last; i++) {
            if (i == int_len)
                *o++ = '.';
            *o++ = i < pad ? '0' : digits[i - pad];
        }
        *o = '\0';
        return 0;
    }
    return -1;
}

void trace_format_num(char *buf, size_t cap, double v)
{
    if (fabs(v) < 1e10 && v == (double)(long long)v && !(v == 0 && signbit(v)) && cap >= 24) {
        char *o = buf;
        if (v < 0)
            *o++ = '-';
        o[utoa(o, (unsigned long long)fabs(v))] = '\0';
        return;
    }
    if (short_decimal(buf, cap, v) == 0)
        return;
    char e17[40];
    if (!isfinite(v) || cap < 32 || snprintf(e17, sizeof e17, "%.16e", v) >= (int)sizeof e17) {
        for (int prec = 10; prec <= 17 && !round_trips(buf, cap, prec, v); prec++)
            ;
        return;
    }
    const char *s = e17;
    int neg = *s == '-';
    if (neg)
        s++;
    char d17[17], d[17];
    d17[0] = s[0];
    memcpy(d17 + 1, s + 2, 16); /* "d.dddddddddddddddde+XX" */
    int x17 = atoi(s + 19);
    char tried[40] = "";
    for (int p = 10; p <= 17; p++) {
        int x = x17;
        if (round_digits(d17, p, d, &x) < 0) {
            if (round_trips(buf, cap, p, v))
                return;
            continue;
        }
        g_style(buf, neg, d, p, x);
        if (!strcmp(buf, tried))
            continue; /* the same text as at p - 1 (trailing zeros): it did not read back */
        double back;
        if (mls_parse_double(buf, &back) < 0)
            back = strtod(buf, NULL); /* subnormals: ERANGE, but they read back */
        if (p == 17 || back == v)
            return;
        snprintf(tried, sizeof tried, "%s", buf);
    }
    snprintf(buf, cap, "%.17g", v);
}

static void put_num(FILE *f, double v)
{
    char buf[40];
    trace_format_num(buf, sizeof buf, v);
    fputs(buf, f);
}

static void put_str(FILE *f, const char *s)
{
    if (!strpbrk(s, ",\"\n\r")) {
        fputs(s, f);
        return;
    }
    fputc('"', f);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', f);
        fputc(*s, f);
    }
    fputc('"', f);
}

static void write_job(FILE *f, const mls_trace_t *t, const mls_job_t *j, int host_cols,
                      int gang_col, int total_col)
{
    put_int(f, (long long)j->id);
    fputc(',', f);
    put_num(f, j->submit);
    fputc(',', f);
    put_str(f, t->users.names[j->user]);
    fputc(',', f);
    put_str(f, t->workloads.names[j->workload]);
    fputc(',', f);
    put_int(f, j->gpus);
    fputc(',', f);
    put_num(f, j->work);
    fputc(',', f);
    if (!isnan(j->duration))
        put_num(f, j->duration);
    fputc(',', f);
    put_num(f, j->priority);
    fputc(',', f);
    if (isfinite(j->deadline))
        put_num(f, j->deadline);
    fputc(',', f);
    put_int(f, j->min_gpus);
    fputc(',', f);
    put_int(f, j->max_gpus);
    fputc(',', f);
    put_int(f, j->batch_size);
    fputc(',', f);
    fputs(mode_names[j->mode], f);
    if (host_cols) {
        fputc(',', f);
        if (j->cpus > 0)
            put_num(f, j->cpus);
        fputc(',', f);
        if (j->mem_gb > 0)
            put_num(f, j->mem_gb);
    }
    if (gang_col) {
        fputc(',', f);
        if (j->gang > 0)
            put_int(f, (long long)j->gang);
    }
    if (total_col) {
        fputc(',', f);
        if (j->total_batch > 0)
            put_int(f, j->total_batch);
    }
    fputc('\n', f);
}

/* 1 when some job sets cpus or mem_gb (the writer then adds those columns). */
static int has_host_cols(const mls_trace_t *t)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->jobs[i].cpus > 0 || t->jobs[i].mem_gb > 0)
            return 1;
    return 0;
}

/* 1 when some job belongs to a gang (the writer then adds that column). */
static int has_gang_col(const mls_trace_t *t)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->jobs[i].gang > 0)
            return 1;
    return 0;
}

/* 1 when some job gives its total batch (the writer then adds that column). */
static int has_total_col(const mls_trace_t *t)
{
    for (size_t i = 0; i < t->n; i++)
        if (t->jobs[i].total_batch > 0)
            return 1;
    return 0;
}

int trace_write_csv(const mls_trace_t *t, const char *path, mls_err_t *err)
{
    mls_atomic_file_t af;
    if (mls_atomic_open(&af, path, err) < 0)
        return -1;
    FILE *f = af.fp;
    int host_cols = has_host_cols(t), gang_col = has_gang_col(t), total_col = has_total_col(t);
    for (int c = 0; c < C_GANG; c++)
        if (c < C_CPUS || host_cols)
            fprintf(f, "%s%s", c ? "," : "", col_names[c]);
    if (gang_col)
        fputs(",gang", f);
    if (total_col)
        fputs(",total_batch", f);
    fputc('\n', f);
    for (size_t i = 0; i < t->n; i++)
        write_job(f, t, &t->jobs[i], host_cols, gang_col, total_col);
    return mls_atomic_commit(&af, err);
}
