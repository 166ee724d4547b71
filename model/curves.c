/* curves.c: reading, checking and writing curve files (see curves.h).
 *
 * The reader walks the text line by line: the magic line, metadata and
 * comments, one header naming the columns (required ones checked, unknown ones
 * refused), then rows whose fields are looked up through the header's column
 * map, each checked with the same rules the writer's callers use
 * (curves_check_row), and de-duplicated by a linear scan of the rows already
 * held (curve files have tens of rows, not millions). Pair files go through
 * the same walk with their own columns and row reader (a file_format_t picked
 * by the magic line). */
#include "model/curves.h"

#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum {
    C_WORKLOAD,
    C_GPU_TYPE,
    C_NUM_GPUS,
    C_NUM_NODES,
    C_LOCAL_BSZ,
    C_ACCUM,
    C_ITER,
    C_P10,
    C_P90,
    C_SYNC,
    C_RATE,
    C_MEM,
    C_ITERS,
    N_COLS
};

static const char *const col_names[N_COLS] = {
    "workload",        "gpu_type",        "num_gpus",    "num_nodes",     "local_bsz",
    "accum_steps",     "iter_time_s",     "iter_time_p10_s", "iter_time_p90_s", "sync_time_s",
    "samples_per_s",   "mem_bytes",       "iters"};

/* The pair file's columns (PAIRS_HEADER). */
enum { P_TYPE, P_GPUS, P_WA, P_BA, P_WB, P_BB, P_TA, P_TB, P_RA, P_RB, P_ITERS, N_PCOLS };
static const char *const pcol_names[N_PCOLS] = {
    "gpu_type",      "num_gpus",      "workload_a",      "local_bsz_a",
    "workload_b",    "local_bsz_b",   "iter_time_a_s",   "iter_time_b_s",
    "samples_per_s_a", "samples_per_s_b", "iters"};

static const char *const numeric_meta[] = {"gpu_mem_bytes", "sm_clock_mhz", "mem_clock_mhz"};

void curves_init(curve_set_t *cs)
{
    memset(cs, 0, sizeof *cs);
}

void curves_free(curve_set_t *cs)
{
    for (size_t i = 0; i < cs->n_meta; i++) {
        free(cs->meta[i].key);
        free(cs->meta[i].value);
    }
    for (size_t i = 0; i < cs->n_files; i++)
        free(cs->files[i]);
    free(cs->meta);
    free(cs->files);
    free(cs->rows);
    free(cs->pairs);
    memset(cs, 0, sizeof *cs);
}

void curves_set_meta(curve_set_t *cs, int file, const char *key, const char *value)
{
    xgrow((void **)&cs->meta, &cs->meta_cap, cs->n_meta + 1, sizeof *cs->meta);
    cs->meta[cs->n_meta++] = (curve_meta_t){file, xstrdup(key), xstrdup(value)};
}

const char *curves_meta(const curve_set_t *cs, int file, const char *key)
{
    for (size_t i = 0; i < cs->n_meta; i++)
        if ((file < 0 || cs->meta[i].file == file) && !strcmp(cs->meta[i].key, key))
            return cs->meta[i].value;
    return NULL;
}

const char *curves_where(const curve_set_t *cs, const curve_row_t *r, char *buf, size_t n)
{
    if (r->file >= 0 && (size_t)r->file < cs->n_files)
        snprintf(buf, n, "%s:%ld", cs->files[r->file], r->line);
    else
        snprintf(buf, n, "row %ld", r->line);
    return buf;
}

const char *curves_pair_where(const curve_set_t *cs, const curve_pair_t *p, char *buf, size_t n)
{
    if (p->file >= 0 && (size_t)p->file < cs->n_files)
        snprintf(buf, n, "%s:%ld", cs->files[p->file], p->line);
    else
        snprintf(buf, n, "pairs[%ld]", p->line);
    return buf;
}

double curves_expected_rate(const curve_row_t *r)
{
    return (double)r->num_gpus * r->local_bsz * r->accum_steps / r->iter_time;
}

int curves_check_row(const curve_row_t *r, const char *where, mls_err_t *err)
{
    if (!r->workload[0])
        return mls_fail(err, "%s: workload: empty", where);
    if (strpbrk(r->workload, ",\"\n\r"))
        return mls_fail(err, "%s: workload: '%s' must not hold a comma, quote or newline", where,
                        r->workload);
    if (!r->gpu_type[0] || strpbrk(r->gpu_type, ",\"\n\r"))
        return mls_fail(err, "%s: gpu_type: must be a non-empty name without commas", where);
    if (r->num_gpus < 1)
        return mls_fail(err, "%s: num_gpus: must be >= 1, got %d", where, r->num_gpus);
    if (r->num_nodes < 1 || r->num_nodes > r->num_gpus)
        return mls_fail(err, "%s: num_nodes: must be in 1..num_gpus (%d), got %d", where,
                        r->num_gpus, r->num_nodes);
    if (r->local_bsz < 1)
        return mls_fail(err, "%s: local_bsz: must be >= 1, got %d", where, r->local_bsz);
    if (r->accum_steps < 1)
        return mls_fail(err, "%s: accum_steps: must be >= 1, got %d", where, r->accum_steps);
    if (!(r->iter_time > 0) || !isfinite(r->iter_time))
        return mls_fail(err, "%s: iter_time_s: must be > 0, got %g", where, r->iter_time);
    if (!(r->iter_p10 > 0) || r->iter_p10 > r->iter_time * (1 + 1e-9))
        return mls_fail(err, "%s: iter_time_p10_s: must be in (0, iter_time_s = %g], got %g",
                        where, r->iter_time, r->iter_p10);
    if (!isfinite(r->iter_p90) || r->iter_p90 < r->iter_time * (1 - 1e-9))
        return mls_fail(err, "%s: iter_time_p90_s: must be >= iter_time_s = %g, got %g", where,
                        r->iter_time, r->iter_p90);
    if (!(r->sync_time >= 0) || r->sync_time >= r->iter_time)
        return mls_fail(err, "%s: sync_time_s: must be in [0, iter_time_s = %g), got %g", where,
                        r->iter_time, r->sync_time);
    double want = curves_expected_rate(r);
    if (!(fabs(r->samples_per_s - want) <= 0.01 * want))
        return mls_fail(err,
                        "%s: samples_per_s: %g, but num_gpus*local_bsz*accum_steps/iter_time_s "
                        "= %g (more than 1%% apart)",
                        where, r->samples_per_s, want);
    if (r->mem_bytes < 0)
        return mls_fail(err, "%s: mem_bytes: must be >= 0, got %lld", where,
                        (long long)r->mem_bytes);
    if (r->iters < 0)
        return mls_fail(err, "%s: iters: must be >= 0, got %d", where, r->iters);
    return 0;
}

static int same_point(const curve_row_t *a, const curve_row_t *b)
{
    return !strcmp(a->workload, b->workload) && !strcasecmp(a->gpu_type, b->gpu_type) &&
           a->num_gpus == b->num_gpus && a->num_nodes == b->num_nodes &&
           a->local_bsz == b->local_bsz && a->accum_steps == b->accum_steps;
}

int curves_add(curve_set_t *cs, const curve_row_t *r, const char *where, mls_err_t *err)
{
    if (curves_check_row(r, where, err) < 0)
        return -1;
    for (size_t i = 0; i < cs->n; i++)
        if (same_point(&cs->rows[i], r)) {
            char other[512];
            return mls_fail(err,
                            "%s: duplicate row: %s on %s, %d GPU(s), %d node(s), batch %d, "
                            "accum %d is already at %s",
                            where, r->workload, r->gpu_type, r->num_gpus, r->num_nodes,
                            r->local_bsz, r->accum_steps,
                            curves_where(cs, &cs->rows[i], other, sizeof other));
        }
    xgrow((void **)&cs->rows, &cs->cap, cs->n + 1, sizeof *cs->rows);
    curve_row_t *dst = &cs->rows[cs->n++];
    *dst = *r;
    for (char *p = dst->gpu_type; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    return 0;
}

double curves_pair_rate(const curve_pair_t *p, int k)
{
    return (double)p->num_gpus * p->local_bsz[k] / p->iter_time[k];
}

static int check_name(const char *s, const char *where, const char *col, mls_err_t *err)
{
    if (!s[0])
        return mls_fail(err, "%s: %s: empty", where, col);
    if (strpbrk(s, ",\"\n\r"))
        return mls_fail(err, "%s: %s: '%s' must not hold a comma, quote or newline", where, col,
                        s);
    return 0;
}

int curves_check_pair(const curve_pair_t *p, const char *where, mls_err_t *err)
{
    if (check_name(p->gpu_type, where, "gpu_type", err) < 0)
        return -1;
    if (p->num_gpus < 1)
        return mls_fail(err, "%s: num_gpus: must be >= 1, got %d", where, p->num_gpus);
    for (int k = 0; k < 2; k++) {
        const char *x = k ? "b" : "a";
        char col[32];
        snprintf(col, sizeof col, "workload_%s", x);
        if (check_name(p->workload[k], where, col, err) < 0)
            return -1;
        if (p->local_bsz[k] < 1)
            return mls_fail(err, "%s: local_bsz_%s: must be >= 1, got %d", where, x,
                            p->local_bsz[k]);
        if (!(p->iter_time[k] > 0) || !isfinite(p->iter_time[k]))
            return mls_fail(err, "%s: iter_time_%s_s: must be > 0, got %g", where, x,
                            p->iter_time[k]);
        double want = curves_pair_rate(p, k);
        if (!(fabs(p->samples_per_s[k] - want) <= 0.01 * want))
            return mls_fail(err,
                            "%s: samples_per_s_%s: %g, but num_gpus*local_bsz_%s/iter_time_%s_s "
                            "= %g (more than 1%% apart)",
                            where, x, p->samples_per_s[k], x, x, want);
    }
    if (p->iters < 0)
        return mls_fail(err, "%s: iters: must be >= 0, got %d", where, p->iters);
    return 0;
}

static int same_pair(const curve_pair_t *a, const curve_pair_t *b)
{
    if (strcasecmp(a->gpu_type, b->gpu_type) || a->num_gpus != b->num_gpus)
        return 0;
    return (!strcmp(a->workload[0], b->workload[0]) && !strcmp(a->workload[1], b->workload[1])) ||
           (!strcmp(a->workload[0], b->workload[1]) && !strcmp(a->workload[1], b->workload[0]));
}

int curves_add_pair(curve_set_t *cs, const curve_pair_t *p, const char *where, mls_err_t *err)
{
    if (curves_check_pair(p, where, err) < 0)
        return -1;
    for (size_t i = 0; i < cs->n_pairs; i++)
        if (same_pair(&cs->pairs[i], p)) {
            char other[512];
            return mls_fail(err, "%s: duplicate pair: %s with %s on %s, %d GPU(s) is already at %s",
                            where, p->workload[0], p->workload[1], p->gpu_type, p->num_gpus,
                            curves_pair_where(cs, &cs->pairs[i], other, sizeof other));
        }
    xgrow((void **)&cs->pairs, &cs->pairs_cap, cs->n_pairs + 1, sizeof *cs->pairs);
    curve_pair_t *dst = &cs->pairs[cs->n_pairs++];
    *dst = *p;
    for (char *c = dst->gpu_type; *c; c++)
        *c = (char)tolower((unsigned char)*c);
    return 0;
}

/* ---- reading ---------------------------------------------------------------------- */

typedef struct reader reader_t;

/* One of the two file kinds: its magic line, columns (a bit per required one)
 * and the reader of one row. */
typedef struct file_format {
    const char *magic, *header, *what;
    const char *const *cols;
    int n_cols;
    unsigned required;
    int (*row)(curve_set_t *cs, int file, reader_t *rd, char *line, mls_err_t *err);
} file_format_t;

struct reader {
    const char *name;
    const file_format_t *fmt;
    long line_no;
    int col_of[N_COLS]; /* field index of each column, -1 absent (N_COLS >= N_PCOLS) */
    int n_fields;
};

/* Splits s at commas in place; returns the field count (at most cap). */
static int split(char *s, char **f, int cap)
{
    int n = 0;
    for (;;) {
        char *c = strchr(s, ',');
        if (n < cap)
            f[n] = mls_trim(s);
        n++;
        if (!c)
            break;
        *c = '\0';
        s = c + 1;
    }
    return n;
}

static int read_header(reader_t *rd, char *line, mls_err_t *err)
{
    char *f[64];
    int n = split(line, f, 64);
    if (n > 64)
        return mls_fail(err, "%s:%ld: header: %d columns, at most 64", rd->name, rd->line_no, n);
    const file_format_t *fmt = rd->fmt;
    for (int c = 0; c < fmt->n_cols; c++)
        rd->col_of[c] = -1;
    for (int i = 0; i < n; i++) {
        int c = 0;
        while (c < fmt->n_cols && strcmp(f[i], fmt->cols[c]))
            c++;
        if (c == fmt->n_cols)
            return mls_fail(err, "%s:%ld: header: unknown column '%s'", rd->name, rd->line_no,
                            f[i]);
        if (rd->col_of[c] >= 0)
            return mls_fail(err, "%s:%ld: header: column '%s' twice", rd->name, rd->line_no,
                            f[i]);
        rd->col_of[c] = i;
    }
    for (int c = 0; c < fmt->n_cols; c++)
        if ((fmt->required >> c & 1u) && rd->col_of[c] < 0)
            return mls_fail(err, "%s:%ld: header: missing column '%s'", rd->name, rd->line_no,
                            fmt->cols[c]);
    rd->n_fields = n;
    return 0;
}

static int field_int(const reader_t *rd, char **f, int c, int *out, mls_err_t *err)
{
    long v;
    if (rd->col_of[c] < 0)
        return 0;
    const char *s = f[rd->col_of[c]];
    if (mls_parse_long(s, &v) < 0 || v < INT32_MIN || v > INT32_MAX)
        return mls_fail(err, "%s:%ld: %s: '%s' is not an integer", rd->name, rd->line_no,
                        rd->fmt->cols[c], s);
    *out = (int)v;
    return 0;
}

static int field_double(const reader_t *rd, char **f, int c, double *out, mls_err_t *err)
{
    if (rd->col_of[c] < 0)
        return 0;
    const char *s = f[rd->col_of[c]];
    if (mls_parse_double(s, out) < 0 || !isfinite(*out))
        return mls_fail(err, "%s:%ld: %s: '%s' is not a number", rd->name, rd->line_no,
                        rd->fmt->cols[c], s);
    return 0;
}

static int field_name(const reader_t *rd, char **f, int c, char *out, size_t cap,
                      mls_err_t *err)
{
    const char *s = f[rd->col_of[c]];
    if (strlen(s) >= cap)
        return mls_fail(err, "%s:%ld: %s: longer than %zu characters", rd->name, rd->line_no,
                        rd->fmt->cols[c], cap - 1);
    memcpy(out, s, strlen(s) + 1);
    return 0;
}

static int read_row(curve_set_t *cs, int file, reader_t *rd, char *line, mls_err_t *err)
{
    char *f[64];
    int n = split(line, f, 64);
    if (n != rd->n_fields)
        return mls_fail(err, "%s:%ld: row has %d fields, the header %d", rd->name, rd->line_no,
                        n, rd->n_fields);
    curve_row_t r = {.file = file, .line = rd->line_no};
    double mem = 0;
    if (field_name(rd, f, C_WORKLOAD, r.workload, sizeof r.workload, err) < 0 ||
        field_name(rd, f, C_GPU_TYPE, r.gpu_type, sizeof r.gpu_type, err) < 0 ||
        field_int(rd, f, C_NUM_GPUS, &r.num_gpus, err) < 0 ||
        field_int(rd, f, C_NUM_NODES, &r.num_nodes, err) < 0 ||
        field_int(rd, f, C_LOCAL_BSZ, &r.local_bsz, err) < 0 ||
        field_int(rd, f, C_ACCUM, &r.accum_steps, err) < 0 ||
        field_double(rd, f, C_ITER, &r.iter_time, err) < 0)
        return -1;
    r.iter_p10 = r.iter_p90 = r.iter_time;
    if (field_double(rd, f, C_P10, &r.iter_p10, err) < 0 ||
        field_double(rd, f, C_P90, &r.iter_p90, err) < 0 ||
        field_double(rd, f, C_SYNC, &r.sync_time, err) < 0 ||
        field_double(rd, f, C_RATE, &r.samples_per_s, err) < 0 ||
        field_double(rd, f, C_MEM, &mem, err) < 0 || field_int(rd, f, C_ITERS, &r.iters, err) < 0)
        return -1;
    if (mem != floor(mem) || mem < 0 || mem > 9.0e18)
        return mls_fail(err, "%s:%ld: mem_bytes: '%s' is not a byte count >= 0", rd->name,
                        rd->line_no, f[rd->col_of[C_MEM]]);
    r.mem_bytes = (int64_t)mem;
    char where[512];
    snprintf(where, sizeof where, "%s:%ld", rd->name, rd->line_no);
    return curves_add(cs, &r, where, err);
}

static int read_pair(curve_set_t *cs, int file, reader_t *rd, char *line, mls_err_t *err)
{
    char *f[64];
    int n = split(line, f, 64);
    if (n != rd->n_fields)
        return mls_fail(err, "%s:%ld: row has %d fields, the header %d", rd->name, rd->line_no,
                        n, rd->n_fields);
    curve_pair_t p = {.file = file, .line = rd->line_no};
    if (field_name(rd, f, P_TYPE, p.gpu_type, sizeof p.gpu_type, err) < 0 ||
        field_int(rd, f, P_GPUS, &p.num_gpus, err) < 0 ||
        field_name(rd, f, P_WA, p.workload[0], sizeof p.workload[0], err) < 0 ||
        field_name(rd, f, P_WB, p.workload[1], sizeof p.workload[1], err) < 0 ||
        field_int(rd, f, P_BA, &p.local_bsz[0], err) < 0 ||
        field_int(rd, f, P_BB, &p.local_bsz[1], err) < 0 ||
        field_double(rd, f, P_TA, &p.iter_time[0], err) < 0 ||
        field_double(rd, f, P_TB, &p.iter_time[1], err) < 0 ||
        field_int(rd, f, P_ITERS, &p.iters, err) < 0)
        return -1;
    for (int k = 0; k < 2; k++)
        if (p.iter_time[k] > 0)
            p.samples_per_s[k] = curves_pair_rate(&p, k);
    if (field_double(rd, f, P_RA, &p.samples_per_s[0], err) < 0 ||
        field_double(rd, f, P_RB, &p.samples_per_s[1], err) < 0)
        return -1;
    char where[512];
    snprintf(where, sizeof where, "%s:%ld", rd->name, rd->line_no);
    return curves_add_pair(cs, &p, where, err);
}

static const file_format_t formats[] = {
    {CURVES_MAGIC, CURVES_HEADER, "curve file", col_names, N_COLS,
     (1u << (C_ITER + 1)) - 1 + (1u << C_RATE), read_row},
    {PAIRS_MAGIC, PAIRS_HEADER, "pair file", pcol_names, N_PCOLS, (1u << (P_TB + 1)) - 1,
     read_pair},
};

static int read_meta(curve_set_t *cs, int file, const reader_t *rd, const char *body,
                     mls_err_t *err)
{
    const char *eq = strchr(body, '=');
    if (!eq)
        return 0; /* a comment */
    char key[128];
    size_t kl = (size_t)(eq - body);
    while (kl && isspace((unsigned char)body[kl - 1]))
        kl--;
    if (kl == 0 || kl >= sizeof key)
        return 0;
    memcpy(key, body, kl);
    key[kl] = '\0';
    for (size_t i = 0; i < kl; i++)
        if (!isalnum((unsigned char)key[i]) && key[i] != '_')
            return 0; /* prose with an '=' in it: a comment */
    const char *value = eq + 1;
    for (size_t i = 0; i < sizeof numeric_meta / sizeof numeric_meta[0]; i++) {
        double v;
        if (!strcmp(key, numeric_meta[i]) && (mls_parse_double(value, &v) < 0 || !(v >= 0)))
            return mls_fail(err, "%s:%ld: %s: '%s' is not a number >= 0", rd->name, rd->line_no,
                            key, value);
    }
    curves_set_meta(cs, file, key, value);
    return 0;
}

static int parse_lines(curve_set_t *cs, int file, reader_t *rd, char *text, mls_err_t *err)
{
    int have_header = 0;
    size_t rows_before = cs->n + cs->n_pairs;
    char *save = NULL;
    rd->line_no = 0;
    for (char *p = text; p; p = save) {
        char *nl = strchr(p, '\n');
        save = nl ? nl + 1 : NULL;
        if (nl)
            *nl = '\0';
        if (!nl && !*p)
            break;
        rd->line_no++;
        size_t len = strlen(p);
        if (len && p[len - 1] == '\r')
            p[len - 1] = '\0';
        if (rd->line_no == 1) {
            for (size_t k = 0; !rd->fmt && k < sizeof formats / sizeof formats[0]; k++)
                if (!strcmp(mls_trim(p), formats[k].magic))
                    rd->fmt = &formats[k];
            if (!rd->fmt)
                return mls_fail(err,
                                "%s:1: not a curve file: the first line must be '%s' (or '%s' "
                                "for a pair file)",
                                rd->name, CURVES_MAGIC, PAIRS_MAGIC);
            continue;
        }
        char *s = mls_trim(p);
        if (!*s)
            continue;
        if (*s == '#') {
            if (!have_header && read_meta(cs, file, rd, mls_trim(s + 1), err) < 0)
                return -1;
            continue;
        }
        if (!have_header) {
            if (read_header(rd, s, err) < 0)
                return -1;
            have_header = 1;
        } else if (rd->fmt->row(cs, file, rd, s, err) < 0) {
            return -1;
        }
    }
    if (rd->line_no == 0)
        return mls_fail(err, "%s:1: empty file (a curve file starts with '%s')", rd->name,
                        CURVES_MAGIC);
    if (!have_header)
        return mls_fail(err, "%s:%ld: no header line (%s)", rd->name, rd->line_no,
                        rd->fmt->header);
    if (cs->n + cs->n_pairs == rows_before)
        return mls_fail(err, "%s:%ld: no rows", rd->name, rd->line_no);
    return 0;
}

int curves_parse(curve_set_t *cs, const char *text, const char *name, mls_err_t *err)
{
    cs->files = xrealloc(cs->files, sizeof *cs->files * (cs->n_files + 1));
    int file = (int)cs->n_files;
    cs->files[cs->n_files++] = xstrdup(name);
    reader_t rd = {.name = name};
    char *copy = xstrdup(text);
    size_t rows_before = cs->n, pairs_before = cs->n_pairs;
    int rc = parse_lines(cs, file, &rd, copy, err);
    free(copy);
    if (rc < 0) {
        cs->n = rows_before;
        cs->n_pairs = pairs_before;
    }
    return rc;
}

int curves_read(curve_set_t *cs, const char *path, mls_err_t *err)
{
    char *text = mls_read_file(path, err);
    if (!text)
        return -1;
    int rc = curves_parse(cs, text, path, err);
    free(text);
    return rc;
}

/* ---- writing ---------------------------------------------------------------------- */

static int key_written_before(const curve_set_t *cs, size_t i)
{
    for (size_t k = 0; k < i; k++)
        if (!strcmp(cs->meta[k].key, cs->meta[i].key))
            return 1;
    return 0;
}

int curves_write_fp(const curve_set_t *cs, FILE *fp)
{
    fprintf(fp, "%s\n", CURVES_MAGIC);
    for (size_t i = 0; i < cs->n_meta; i++)
        if (!key_written_before(cs, i) && !strpbrk(cs->meta[i].value, "\n\r"))
            fprintf(fp, "# %s=%s\n", cs->meta[i].key, cs->meta[i].value);
    fprintf(fp, "%s\n", CURVES_HEADER);
    for (size_t i = 0; i < cs->n; i++) {
        const curve_row_t *r = &cs->rows[i];
        fprintf(fp, "%s,%s,%d,%d,%d,%d,%.6g,%.6g,%.6g,%.6g,%.2f,%lld,%d\n", r->workload,
                r->gpu_type, r->num_gpus, r->num_nodes, r->local_bsz, r->accum_steps,
                r->iter_time, r->iter_p10, r->iter_p90, r->sync_time, r->samples_per_s,
                (long long)r->mem_bytes, r->iters);
    }
    return ferror(fp) ? -1 : 0;
}

int curves_write(const curve_set_t *cs, const char *path, mls_err_t *err)
{
    mls_atomic_file_t af;
    if (mls_atomic_open(&af, path, err) < 0)
        return -1;
    if (curves_write_fp(cs, af.fp) < 0) {
        mls_atomic_abort(&af);
        return mls_fail(err, "%s: write error", path);
    }
    return mls_atomic_commit(&af, err);
}
