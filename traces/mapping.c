/* mapping.c: production-trace records -> canonical jobs (see mapping.h).
 *
 * The order of the steps, each counted in the report:
 *  1. GPU count: 0 -> dropped (CPU-only); fractional -> rounded up (counted).
 *  2. Filters (--window, --vc, --user, --min-gpus/--max-gpus, --status).
 *  3. A usable duration (> 0) or, for records naming a workload, iterations;
 *     else dropped ("no attempts" when the job never started).
 *  4. The preset's rules:
 *     pollux  Qiao et al., OSDI'21, and its generator (petuum/adaptdl,
 *             osdi21-artifact, simulator/generate.py): duration >= 60 s,
 *             GPU-time < 1000 GPU-hours; keep jobs whose time of day (UTC
 *             wall clock of the trace) falls in [2 h, 10 h); draw 160 of
 *             them (seeded, without replacement); submit = time of day - 2 h;
 *             workloads by GPU-time buckets. A job whose workload is one of
 *             Pollux's applications (the perf model is Pollux's catalog,
 *             traces/catalog/pollux.json) is made as Pollux's simulator
 *             makes it, and as `--format pollux` does: elastic from 1 GPU
 *             to max(traced GPUs, the application's max_replicas), its work
 *             the application's training to completion (not the traced
 *             duration at a reference GPU's rate), its batch the
 *             application's initial batch. Any other workload (e.g. the
 *             Gavel catalog's analogs) keeps a rigid, duration-sized job;
 *             the report counts those and the CLI warns. Pollux also
 *             re-draws the GPU count of 10+ GPU-hour jobs; we keep the
 *             traced GPU count as the starting size.
 *     gavel   Narayanan et al., OSDI'20, as its Philly-derived per-VC traces
 *             show (../shared/data/traces/philly_derived/gavel_msr): traced
 *             arrivals and GPU counts, job type uniform among the models
 *             that run at that scale factor, total_steps = duration x V100
 *             throughput. No filter.
 *     blox    Blox's (msr-fiddle/blox) Philly workload as the project's
 *             import requirements state it (its loader was not re-read):
 *             drop jobs with no attempt, keep durations in [60*10^1.5,
 *             60*10^4] s (Gavel's duration range, 10^1.5..10^4 minutes) and
 *             <= 16 GPUs; uniform.
 *     helios  Hu et al., SC'21 (HeliosArtifact, QSSF simulator): each VC is
 *             replayed alone on a cluster of its own size; jobs of VCs
 *             without a size, or larger than their VC, are left out (the
 *             CLI writes one trace and one cluster per VC); uniform.
 *  5. Mapping (uniform, gpu-time-buckets, file) and total work (rounded to
 *     12 significant digits: the exact decimal product of a 4-digit rate
 *     and a duration, without binary noise).
 *     Jobs above the largest GPU count the perf model measured on the
 *     reference GPU (issue 16) are mapped like the others among the
 *     workloads measured at that count, with draws from a second generator
 *     (seed ^ 0x9E3779B97F4A7C15) so that every other job's draw is the one
 *     it gets without them; their rate is extrapolated (perf.h), and when
 *     the trace gives no node count their work is taken over
 *     ceil(GPUs / gpus_per_node) nodes, as they will run. They are counted
 *     in the report (jobs, GPU-hours, share). Simplification: only jobs
 *     above the largest count get a node count from gpus_per_node; smaller
 *     ones keep 1 node when the trace does not say, as before (so nothing
 *     within the table moves).
 *  6. Sort by (submit, record order), rebase the first submit to 0, ids.
 *
 * gpu-time-buckets (Pollux's generator): GPU-hours = duration x GPUs / 3600;
 *     < 1     cifar10 or ncf (1:1)
 *     1..10   deepspeech2 or bert (1:1)
 *     10..100 yolov3
 *     >= 100  imagenet
 * A class is the perf model's workload of that name when there is one (the
 * Pollux profiles); otherwise its analog in Gavel's catalog: cifar10 ->
 * ResNet-18 (trained on CIFAR-10 there), ncf -> Recommendation, deepspeech2
 * -> LM, bert -> Transformer, yolov3 and imagenet -> ResNet-50; among an
 * analog's batch sizes that run at the GPU count, uniform. When none runs
 * there, uniform over all (counted as a fallback).
 *
 * Mapping file: CSV with the header
 *     gpu_hours_min,gpu_hours_max,gpus_min,gpus_max,weight,workload
 * one rule a line ('#' lines are comments; an empty max = no bound). A job
 * matches a rule when its GPU-hours are in [min, max) and its GPUs in
 * [min, max]; among the matching rules whose workload runs at its GPU count,
 * one is drawn with probability proportional to weight. A job no rule
 * matches is a bad row. */
#include "traces/mapping.h"

#include "model/csv.h"
#include "traces/import.h"
#include "traces/pollux_apps.h"

#include <ctype.h>
#include <errno.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

enum { MAX_TRACE_GPUS = 65536 };

void import_options_defaults(import_options_t *o)
{
    memset(o, 0, sizeof *o);
    o->filters.win_lo = o->filters.win_hi = NAN;
    o->rules.min_duration = o->rules.max_duration = o->rules.max_gpu_hours = NAN;
    o->mapping = MAP_UNIFORM;
    o->seed = 1;
    o->reference_gpu = "v100";
    o->gpus_per_node = 8;
}

int import_apply_preset(import_options_t *o, const char *name)
{
    import_preset_rules_t *r = &o->rules;
    r->min_duration = r->max_duration = r->max_gpu_hours = NAN;
    if (!strcmp(name, "pollux")) {
        r->min_duration = 60;
        r->max_gpu_hours = 1000;
        r->pollux_window = 1;
        r->tod_start_h = 2;
        r->tod_hours = 8;
        if (!r->sample_jobs)
            r->sample_jobs = 160;
        o->mapping = MAP_GPU_TIME_BUCKETS;
    } else if (!strcmp(name, "gavel")) {
        o->mapping = MAP_UNIFORM;
    } else if (!strcmp(name, "blox")) {
        r->drop_no_attempts = 1;
        r->min_duration = 60 * pow(10, 1.5);
        r->max_duration = 60 * 1e4;
        r->max_gpus = 16;
        o->mapping = MAP_UNIFORM;
    } else if (!strcmp(name, "helios")) {
        r->per_vc = 1;
        o->mapping = MAP_UNIFORM;
    } else {
        return -1;
    }
    o->preset = name;
    return 0;
}

static int parse_bound(const char *s, double *v, int *dated)
{
    if (mls_parse_double(s, v) == 0 && isfinite(*v)) {
        *dated = 0;
        return 0;
    }
    if (rec_parse_time(s, v) == 0) {
        *dated = 1;
        return 0;
    }
    return -1;
}

int import_parse_window(const char *s, import_filters_t *f)
{
    /* dates hold ':' too: split at the ':' that starts a bound */
    const char *colon = NULL;
    for (const char *p = strchr(s, ':'); p; p = strchr(p + 1, ':')) {
        char a[64];
        if (p - s >= 63)
            return -1;
        snprintf(a, sizeof a, "%.*s", (int)(p - s), s);
        double v;
        int d;
        if (parse_bound(a, &v, &d) == 0 && parse_bound(p + 1, &v, &d) == 0) {
            colon = p;
            break;
        }
    }
    if (!colon)
        return -1;
    char a[64];
    snprintf(a, sizeof a, "%.*s", (int)(colon - s), s);
    int da, db;
    if (parse_bound(a, &f->win_lo, &da) < 0 || parse_bound(colon + 1, &f->win_hi, &db) < 0 ||
        da != db || !(f->win_hi > f->win_lo) || (!da && f->win_lo < 0))
        return -1;
    f->win_absolute = da;
    return 0;
}

int import_parse_status(const char *s, unsigned *mask)
{
    static const char *const names[] = {"unknown", "pass", "killed", "failed", "running"};
    *mask = 0;
    const char *p = s;
    while (*p) {
        size_t len = strcspn(p, ",");
        int found = 0;
        for (int i = 0; i < 5; i++)
            if (strlen(names[i]) == len && !strncasecmp(p, names[i], len)) {
                *mask |= 1u << i;
                found = 1;
            }
        if (!found)
            return -1;
        p += len;
        if (*p == ',')
            p++;
    }
    return *mask ? 0 : -1;
}

void import_parse_mapping(const char *s, import_options_t *o)
{
    if (!strcmp(s, "uniform"))
        o->mapping = MAP_UNIFORM;
    else if (!strcmp(s, "gpu-time-buckets"))
        o->mapping = MAP_GPU_TIME_BUCKETS;
    else {
        o->mapping = MAP_FILE;
        o->mapping_file = s;
    }
}

/* ---- name sets (--vc, --user) ----------------------------------------------------- */

/* keep[i] for each name of the table; NULL when every name is kept. */
static unsigned char *name_set(const strtab_t *tab, const char *list)
{
    if (!list)
        return NULL;
    unsigned char *keep = xcalloc(tab->n + 1, 1);
    char *copy = xstrdup(list), *save = NULL;
    for (char *tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
        int i = strtab_find(tab, tok);
        if (i >= 0)
            keep[i] = 1;
    }
    free(copy);
    return keep;
}

/* ---- workload choice ------------------------------------------------------------- */

typedef struct rule {
    double h_lo, h_hi;
    int g_lo, g_hi;
    double weight;
    int w;
} rule_t;

typedef struct mapper {
    const mls_perf_t *pm;
    int ref;
    gsl_rng *rng;
    gsl_rng *rng_big; /* draws for jobs above `largest`, so the others' draws do not move */
    int nw;
    int **cand; /* per GPU count: workloads that run there (lazily), cand_n[g] entries */
    int *cand_n;
    int max_g;
    int largest; /* the largest GPU count any workload has data for on the reference GPU */
    int *cls[6]; /* gpu-time-bucket classes: workloads of each class */
    int cls_n[6];
    rule_t *rules;
    size_t n_rules, rules_cap;
} mapper_t;

static const char *const class_name[6] = {"cifar10", "ncf", "deepspeech2", "bert", "yolov3",
                                          "imagenet"};
static const char *const class_analog[6] = {"ResNet-18",   "Recommendation", "LM",
                                            "Transformer", "ResNet-50",      "ResNet-50"};

static int name_has_prefix(const char *name, const char *prefix)
{
    size_t n = strlen(prefix);
    return !strncasecmp(name, prefix, n) && (name[n] == '\0' || name[n] == ' ' || name[n] == '(');
}

static void classes_resolve(mapper_t *m)
{
    for (int c = 0; c < 6; c++) {
        m->cls[c] = xmalloc(sizeof(int) * (size_t)(m->nw ? m->nw : 1));
        m->cls_n[c] = 0;
        for (int pass = 0; pass < 2 && !m->cls_n[c]; pass++)
            for (int w = 0; w < m->nw; w++)
                if (name_has_prefix(m->pm->ops->workload_name(m->pm, w),
                                    pass ? class_analog[c] : class_name[c]))
                    m->cls[c][m->cls_n[c]++] = w;
    }
}

/* w runs at g: the model has data for w at g GPUs or more (not only
 * extrapolated from fewer) and a rate there; above the largest count any
 * workload has data for, the workloads measured at that largest count run
 * (extrapolated: perf.h). */
static int runs(const mapper_t *m, int w, int g)
{
    int need = g < m->largest ? g : m->largest;
    return perf_max_gpus(m->pm, w, m->ref) >= need &&
           perf_throughput(m->pm, w, m->ref, g, 1, 0) > 0;
}

static const int *candidates(mapper_t *m, int g, int *n)
{
    if (g > m->max_g) {
        int old = m->max_g;
        m->max_g = g > 2 * old ? g : 2 * old;
        m->cand = xrealloc(m->cand, sizeof *m->cand * (size_t)(m->max_g + 1));
        m->cand_n = xrealloc(m->cand_n, sizeof *m->cand_n * (size_t)(m->max_g + 1));
        for (int k = old + 1; k <= m->max_g; k++) {
            m->cand[k] = NULL;
            m->cand_n[k] = -1;
        }
    }
    if (m->cand_n[g] < 0) {
        m->cand[g] = xmalloc(sizeof(int) * (size_t)(m->nw ? m->nw : 1));
        m->cand_n[g] = 0;
        for (int w = 0; w < m->nw; w++)
            if (runs(m, w, g))
                m->cand[g][m->cand_n[g]++] = w;
    }
    *n = m->cand_n[g];
    return m->cand[g];
}

static int load_rules(mapper_t *m, const char *path, mls_err_t *err)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return mls_fail(err, "%s: cannot open the mapping file: %s", path, strerror(errno));
    static const char *const header[6] = {"gpu_hours_min", "gpu_hours_max", "gpus_min",
                                          "gpus_max",      "weight",        "workload"};
    csv_reader_t r;
    csv_open(&r, fp, ',');
    int rc = 0, got, seen_header = 0;
    while (rc == 0 && (got = csv_next(&r)) != 0) {
        if (got < 0) {
            rc = csv_fail(&r, path, err);
            break;
        }
        if (r.fields[0][0] == '#')
            continue;
        if (r.n_fields != 6) {
            rc = mls_fail(err, "%s:%ld: %zu fields; a mapping rule has 6 (%s,...)", path,
                          r.line_no, r.n_fields, header[0]);
            break;
        }
        if (!seen_header) {
            for (int i = 0; i < 6 && rc == 0; i++)
                if (strcmp(r.fields[i], header[i]))
                    rc = mls_fail(err, "%s:%ld: column %d is '%s', wants '%s'", path, r.line_no,
                                  i + 1, r.fields[i], header[i]);
            seen_header = 1;
            continue;
        }
        rule_t u;
        double v[5];
        for (int i = 0; i < 5 && rc == 0; i++) {
            if ((i == 1 || i == 3) && !*r.fields[i])
                v[i] = INFINITY;
            else if (mls_parse_double(r.fields[i], &v[i]) < 0 || isnan(v[i]) || v[i] < 0)
                rc = mls_fail(err, "%s:%ld: field '%s': '%s' is not a number >= 0", path,
                              r.line_no, header[i], r.fields[i]);
        }
        if (rc)
            break;
        u.h_lo = v[0];
        u.h_hi = v[1];
        u.g_lo = (int)fmin(v[2], MAX_TRACE_GPUS);
        u.g_hi = (int)fmin(v[3], MAX_TRACE_GPUS);
        u.weight = v[4];
        u.w = perf_workload_index(m->pm, r.fields[5]);
        if (u.w < 0)
            rc = mls_fail(err, "%s:%ld: field 'workload': '%s' is not in the perf model %s", path,
                          r.line_no, r.fields[5], m->pm->source);
        else if (!(u.weight > 0) || !(u.h_hi > u.h_lo) || u.g_hi < u.g_lo)
            rc = mls_fail(err, "%s:%ld: field 'weight': a rule wants weight > 0 and min < max",
                          path, r.line_no);
        else {
            xgrow((void **)&m->rules, &m->rules_cap, m->n_rules + 1, sizeof *m->rules);
            m->rules[m->n_rules++] = u;
        }
    }
    if (rc == 0 && !m->n_rules)
        rc = mls_fail(err, "%s: no mapping rules", path);
    csv_close(&r);
    fclose(fp);
    return rc;
}

static int mapper_init(mapper_t *m, const mls_perf_t *pm, const import_options_t *o,
                       mls_err_t *err)
{
    memset(m, 0, sizeof *m);
    m->pm = pm;
    m->nw = pm->ops->n_workloads(pm);
    m->ref = perf_gpu_type_index(pm, o->reference_gpu);
    m->max_g = 0;
    m->cand = xcalloc(1, sizeof *m->cand);
    m->cand_n = xcalloc(1, sizeof *m->cand_n);
    m->rng = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(m->rng, (unsigned long)o->seed);
    m->rng_big = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(m->rng_big, (unsigned long)(o->seed ^ UINT64_C(0x9E3779B97F4A7C15)));
    classes_resolve(m);
    if (m->ref < 0)
        return mls_fail(err, "%s: no GPU type '%s' to use as the reference", pm->source,
                        o->reference_gpu);
    for (int w = 0; w < m->nw; w++) {
        int g = perf_max_gpus(pm, w, m->ref);
        if (g > m->largest)
            m->largest = g;
    }
    if (o->mapping == MAP_FILE)
        return load_rules(m, o->mapping_file, err);
    return 0;
}

static void mapper_free(mapper_t *m)
{
    for (int g = 0; m->cand && g <= m->max_g; g++)
        free(m->cand[g]);
    free(m->cand);
    free(m->cand_n);
    for (int c = 0; c < 6; c++)
        free(m->cls[c]);
    free(m->rules);
    if (m->rng)
        gsl_rng_free(m->rng);
    if (m->rng_big)
        gsl_rng_free(m->rng_big);
}

static int pick(gsl_rng *rng, const int *ws, int n)
{
    return ws[gsl_rng_uniform_int(rng, (unsigned long)n)];
}

static int bucket_class(gsl_rng *rng, double gpu_hours)
{
    if (gpu_hours < 1)
        return gsl_rng_uniform_int(rng, 2) ? 1 : 0;
    if (gpu_hours < 10)
        return gsl_rng_uniform_int(rng, 2) ? 3 : 2;
    return gpu_hours < 100 ? 4 : 5;
}

/* The workload for a job of g GPUs and h GPU-hours; -1 with err set. Jobs
 * above the largest measured count draw from their own generator. */
static int choose(mapper_t *m, const import_options_t *o, int g, double h, long *fallback,
                  const import_records_t *rs, const import_record_t *r, mls_err_t *err)
{
    int n;
    gsl_rng *rng = g > m->largest ? m->rng_big : m->rng;
    const int *all = candidates(m, g, &n);
    if (o->mapping == MAP_GPU_TIME_BUCKETS) {
        int c = bucket_class(rng, h), ok[64], k = 0;
        for (int i = 0; i < m->cls_n[c] && k < 64; i++)
            if (runs(m, m->cls[c][i], g))
                ok[k++] = m->cls[c][i];
        if (k)
            return pick(rng, ok, k);
        (*fallback)++;
    } else if (o->mapping == MAP_FILE) {
        double total = 0;
        for (size_t i = 0; i < m->n_rules; i++) {
            const rule_t *u = &m->rules[i];
            if (h >= u->h_lo && h < u->h_hi && g >= u->g_lo && g <= u->g_hi && runs(m, u->w, g))
                total += u->weight;
        }
        if (!(total > 0)) {
            mls_fail(err, "%s:%ld: field 'gpus': no rule of %s maps a job of %d GPUs and %.3g "
                          "GPU-hours to a workload that runs on %d %s GPUs",
                     records_file(rs, r), r->line, o->mapping_file, g, h, g, o->reference_gpu);
            return -1;
        }
        double u01 = gsl_rng_uniform(rng) * total;
        int last = -1;
        for (size_t i = 0; i < m->n_rules; i++) {
            const rule_t *u = &m->rules[i];
            if (h >= u->h_lo && h < u->h_hi && g >= u->g_lo && g <= u->g_hi &&
                runs(m, u->w, g)) {
                last = u->w;
                if ((u01 -= u->weight) < 0)
                    return u->w;
            }
        }
        return last;
    }
    if (!n) {
        mls_fail(err, "%s:%ld: field 'gpus': %d GPUs: no workload of the perf model %s runs on %d "
                      "%s GPUs (drop such jobs with --max-gpus or --skip-bad)",
                 records_file(rs, r), r->line, g, m->pm->source, g, o->reference_gpu);
        return -1;
    }
    return pick(rng, all, n);
}

static int read_vc_sizes(const char *path, const strtab_t *vcs, long *nodes, mls_err_t *err);

/* ---- the pipeline ---------------------------------------------------------------- */

typedef struct kept {
    size_t rec;
    double submit;
    int gpus;
} kept_t;

static int by_submit_rec(const void *a, const void *b)
{
    const kept_t *x = a, *y = b;
    if (x->submit != y->submit)
        return x->submit < y->submit ? -1 : 1;
    return (x->rec > y->rec) - (x->rec < y->rec);
}

static int bad(const import_options_t *o, import_report_t *rep, mls_err_t *err, int rc)
{
    (void)err;
    if (o->flags & IMPORT_SKIP_BAD) {
        rep->bad_mapping++;
        return 0;
    }
    return rc;
}

/* Steps 1-4 for one record: 1 kept (with its GPU count), 0 left out, -1 error. */
static int keep_record(const import_records_t *rs, const import_record_t *r,
                       const import_options_t *o, double t0, const unsigned char *vcs,
                       const unsigned char *users, const long *vc_nodes, int *gpus_out,
                       import_report_t *rep, mls_err_t *err)
{
    const import_filters_t *f = &o->filters;
    const import_preset_rules_t *p = &o->rules;
    int named = r->workload >= 0 && !o->remap;
    if (r->attempts == 0 && !named) {
        rep->no_attempts++;
        return 0;
    }
    if (isnan(r->gpus) || r->gpus < 0 || r->gpus > MAX_TRACE_GPUS)
        return bad(o, rep, err,
                   mls_fail(err, "%s:%ld: field 'gpus': %g is not a GPU count in [0, %d]",
                            records_file(rs, r), r->line, r->gpus, MAX_TRACE_GPUS));
    if (r->gpus == 0) {
        rep->cpu_only++;
        return 0;
    }
    int g = (int)ceil(r->gpus);
    if (!isfinite(r->submit))
        return bad(o, rep, err,
                   mls_fail(err, "%s:%ld: field 'submit': no submit time", records_file(rs, r),
                            r->line));
    if (fabs(r->submit) > MLS_MAX_TIME || r->duration > MLS_MAX_TIME)
        return bad(o, rep, err,
                   mls_fail(err, "%s:%ld: a submit time or duration above %g s (submit %g, "
                                 "duration %g)",
                            records_file(rs, r), r->line, MLS_MAX_TIME, r->submit, r->duration));
    double t = f->win_absolute ? r->submit : r->submit - t0;
    int out = (!isnan(f->win_lo) && (t < f->win_lo || t >= f->win_hi)) ||
              (vcs && (r->vc < 0 || !vcs[r->vc])) || (users && (r->user < 0 || !users[r->user])) ||
              (f->min_gpus && g < f->min_gpus) || (f->max_gpus && g > f->max_gpus) ||
              (f->status_mask && !(f->status_mask & (1u << r->status)));
    if (out) {
        rep->filtered++;
        return 0;
    }
    int has_iter = named && isfinite(r->iterations) && r->iterations > 0;
    if (!has_iter && !(isfinite(r->duration) && r->duration > 0)) {
        rep->no_duration++;
        return 0;
    }
    double h = r->duration * g / 3600;
    if ((p->drop_no_attempts && r->attempts == 0) ||
        (!isnan(p->min_duration) && !(r->duration >= p->min_duration)) ||
        (!isnan(p->max_duration) && !(r->duration <= p->max_duration)) ||
        (!isnan(p->max_gpu_hours) && !(h < p->max_gpu_hours)) || (p->max_gpus && g > p->max_gpus) ||
        (vc_nodes && (r->vc < 0 || vc_nodes[r->vc] <= 0 ||
                      g > vc_nodes[r->vc] * o->gpus_per_node))) {
        rep->preset_out++;
        return 0;
    }
    if ((double)g != r->gpus)
        rep->rounded_up++; /* counted for the jobs that stay */
    *gpus_out = g;
    return 1;
}

/* Pollux's window: time of day in [start, start + hours), then `sample_jobs`
 * drawn without replacement (selection sampling, in record order). */
static size_t pollux_window(kept_t *k, size_t n, const import_options_t *o, import_report_t *rep,
                            mls_err_t *err, int *rc)
{
    const import_preset_rules_t *p = &o->rules;
    size_t m = 0;
    for (size_t i = 0; i < n; i++) {
        double tod = fmod(fmod(k[i].submit, 86400) + 86400, 86400) - p->tod_start_h * 3600;
        if (tod < 0)
            tod += 86400;
        if (tod < p->tod_hours * 3600) {
            k[m] = k[i];
            k[m++].submit = tod;
        } else
            rep->preset_out++;
    }
    if ((long)m < p->sample_jobs) {
        *rc = mls_fail(err, "preset pollux: %zu jobs in the %g-hour window, fewer than the %ld "
                            "to sample (set --jobs)",
                       m, p->tod_hours, p->sample_jobs);
        return 0;
    }
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, (unsigned long)o->seed);
    size_t need = (size_t)p->sample_jobs, out = 0;
    for (size_t i = 0; i < m; i++) {
        if (need && gsl_rng_uniform(r) * (double)(m - i) < (double)need) {
            k[out++] = k[i];
            need--;
        } else
            rep->preset_out++;
    }
    gsl_rng_free(r);
    return out;
}

/* Work rounded to 12 significant digits: the catalog's rates have 4 and
 * durations at most 8, so this is the exact decimal product without the
 * binary noise of the multiplication (relative change < 5e-13). */
static double round12(double w)
{
    if (!(w > 0) || !isfinite(w))
        return w;
    int e = (int)floor(log10(w));
    if (e > 11 || e < -10)
        return w;
    double scale = pow(10, 11 - e);
    double r = nearbyint(w * scale) / scale;
    return r > 0 ? r : w;
}

/* The report's GPU-hours, and the extrapolated jobs among them: more GPUs
 * than their workload was measured at on the reference GPU (perf.h). */
static void count_job(const mapper_t *m, int w, const mls_job_t *j, import_report_t *rep)
{
    double h = isfinite(j->duration) ? j->duration * j->gpus / 3600 : 0;
    rep->gpu_hours += h;
    if (w >= 0 && perf_extrapolated(m->pm, w, m->ref, j->gpus)) {
        rep->extrapolated++;
        rep->extrapolated_gpu_hours += h;
        if (j->gpus > rep->extrapolated_max_gpus)
            rep->extrapolated_max_gpus = j->gpus;
    }
}

/* Preset pollux: a job of one of Pollux's applications as Pollux's simulator
 * makes it (see the file's top); any other stays rigid and is counted. */
static void pollux_elastic(mls_job_t *j, const char *workload, import_report_t *rep)
{
    const pollux_app_t *app = pollux_app_find(workload);
    if (!app) {
        rep->pollux_rigid++;
        return;
    }
    j->min_gpus = 1;
    j->max_gpus = j->gpus > app->max_replicas ? j->gpus : app->max_replicas;
    j->work = pollux_app_work(app);
    j->batch_size = (app->init_batch_size + j->gpus - 1) / j->gpus;
    rep->pollux_elastic++;
}

/* Step 5 for one kept record: the job. 0 ok, 1 skipped as bad, -1 error. */
static int map_one(const import_records_t *rs, const import_record_t *r, const kept_t *k,
                   mapper_t *m, const import_options_t *o, mls_trace_t *out,
                   import_report_t *rep, mls_err_t *err)
{
    mls_job_t j = {0};
    j.id = (int64_t)out->n;
    j.submit = k->submit;
    j.gpus = j.min_gpus = j.max_gpus = k->gpus;
    j.duration = isfinite(r->duration) && r->duration > 0 ? r->duration : NAN;
    j.priority = 1;
    j.deadline = r->deadline;
    j.user = strtab_intern(&out->users, r->user >= 0 ? rs->users.names[r->user] : "default");
    int nodes = r->nodes > 0 ? r->nodes : 1;
    if (r->nodes <= 0 && k->gpus > m->largest) /* extrapolated: over nodes, as it will run */
        nodes = (k->gpus + o->gpus_per_node - 1) / o->gpus_per_node;
    int w;
    const char *name;
    if (r->workload >= 0 && !o->remap) {
        name = rs->workloads.names[r->workload];
        w = perf_workload_index(m->pm, name);
        if (isfinite(r->iterations) && r->iterations > 0)
            j.work = r->iterations;
        else if (w >= 0 && isfinite(j.duration))
            j.work = round12(j.duration * perf_throughput(m->pm, w, m->ref, k->gpus, nodes, 0));
        if (!(j.work > 0)) {
            int rc = mls_fail(err, "%s:%ld: field 'workload': '%s' gives no work: no iterations in "
                                   "the trace and no rate at %d %s GPUs in %s",
                              records_file(rs, r), r->line, name, k->gpus, o->reference_gpu,
                              m->pm->source);
            return bad(o, rep, err, rc) ? -1 : 1;
        }
        rep->kept_named++;
    } else {
        w = choose(m, o, k->gpus, j.duration * k->gpus / 3600, &rep->fallback, rs, r, err);
        if (w < 0)
            return bad(o, rep, err, -1) ? -1 : 1;
        name = m->pm->ops->workload_name(m->pm, w);
        j.work = round12(j.duration * perf_throughput(m->pm, w, m->ref, k->gpus, nodes, 0));
        if (!(j.work > 0)) {
            int rc = mls_fail(err, "%s:%ld: field 'gpus': '%s' has no rate at %d GPUs",
                              records_file(rs, r), r->line, name, k->gpus);
            return bad(o, rep, err, rc) ? -1 : 1;
        }
    }
    if (o->rules.pollux_window)
        pollux_elastic(&j, name, rep);
    j.workload = strtab_intern(&out->workloads, name);
    trace_add(out, &j);
    count_job(m, w, &j, rep);
    return 0;
}

int import_map_records(const import_records_t *rs, const mls_perf_t *pm,
                       const import_options_t *o, mls_trace_t *out, int **job_vc,
                       import_report_t *rep, mls_err_t *err)
{
    if (job_vc)
        *job_vc = NULL;
    rep->records = (long)rs->n;
    if (o->filters.win_absolute && !isnan(o->filters.win_lo) && !rs->clock_epoch)
        return mls_fail(err, "--window with dates: this trace's times are seconds from its "
                             "start, not dates; give the window in seconds");
    double t0 = INFINITY;
    for (size_t i = 0; i < rs->n; i++)
        if (rs->r[i].submit < t0)
            t0 = rs->r[i].submit;
    unsigned char *vcs = name_set(&rs->vcs, o->filters.vcs);
    unsigned char *users = name_set(&rs->users, o->filters.users);
    long *vc_nodes = NULL;
    if (o->rules.per_vc) {
        vc_nodes = xmalloc(sizeof(long) * (rs->vcs.n + 1));
        if (!o->vc_sizes || read_vc_sizes(o->vc_sizes, &rs->vcs, vc_nodes, err) < 0) {
            if (!o->vc_sizes)
                mls_fail(err, "preset helios wants --vc-sizes FILE (vc,nodes per line)");
            free(vcs);
            free(users);
            free(vc_nodes);
            return -1;
        }
    }
    kept_t *k = xmalloc(sizeof *k * (rs->n ? rs->n : 1));
    size_t n = 0;
    int rc = 0;
    for (size_t i = 0; i < rs->n && rc == 0; i++) {
        int g = 0, got = keep_record(rs, &rs->r[i], o, t0, vcs, users, vc_nodes, &g, rep, err);
        if (got < 0)
            rc = -1;
        else if (got > 0)
            k[n++] = (kept_t){i, rs->r[i].submit, g};
    }
    free(vcs);
    free(users);
    free(vc_nodes);
    if (rc == 0 && o->rules.pollux_window)
        n = pollux_window(k, n, o, rep, err, &rc);
    mapper_t m;
    if (rc == 0)
        rc = mapper_init(&m, pm, o, err);
    else
        memset(&m, 0, sizeof m);
    if (rc == 0) {
        size_t unsorted = 1;
        while (unsorted < n && by_submit_rec(&k[unsorted - 1], &k[unsorted]) < 0)
            unsorted++;
        if (unsorted < n) /* most traces come sorted */
            qsort(k, n, sizeof *k, by_submit_rec);
        int *vc = job_vc ? xmalloc(sizeof(int) * (n ? n : 1)) : NULL;
        size_t first = out->n;
        for (size_t i = 0; i < n && rc == 0; i++) {
            int got = map_one(rs, &rs->r[k[i].rec], &k[i], &m, o, out, rep, err);
            if (got < 0)
                rc = -1;
            else if (got == 0 && vc)
                vc[out->n - 1 - first] = rs->r[k[i].rec].vc;
        }
        if (rc == 0 && out->n > first) {
            double base = out->jobs[first].submit;
            for (size_t i = first; i < out->n; i++) {
                out->jobs[i].submit -= base;
                if (isfinite(out->jobs[i].deadline))
                    out->jobs[i].deadline -= base;
                out->jobs[i].id = (int64_t)(i - first);
            }
        }
        if (job_vc)
            *job_vc = vc;
    }
    mapper_free(&m);
    free(k);
    rep->jobs = (long)out->n;
    return rc;
}

void import_report_print(const import_report_t *rep, FILE *fp)
{
    fprintf(fp, "%ld jobs from %ld records", rep->jobs, rep->records);
    const struct {
        long v;
        const char *what;
    } dropped[] = {
        {rep->bad + rep->bad_mapping, "bad rows skipped"},
        {rep->cpu_only, "CPU-only"},
        {rep->no_attempts, "never started"},
        {rep->no_duration, "no duration"},
        {rep->filtered, "filtered out"},
        {rep->preset_out, "left out by the preset"},
    };
    int any = 0;
    for (size_t i = 0; i < sizeof dropped / sizeof dropped[0]; i++)
        if (dropped[i].v) {
            fprintf(fp, "%s%ld %s", any ? ", " : "; dropped: ", dropped[i].v, dropped[i].what);
            any = 1;
        }
    any = 0;
    if (rep->rounded_up) {
        fprintf(fp, "; adjusted: %ld fractional GPU counts rounded up", rep->rounded_up);
        any = 1;
    }
    if (rep->fallback)
        fprintf(fp, "%s%ld bucket classes with no workload at that size (uniform used)",
                any ? ", " : "; adjusted: ", rep->fallback);
    if (rep->kept_named)
        fprintf(fp, "; %ld kept the trace's workload", rep->kept_named);
    if (rep->pollux_elastic)
        fprintf(fp, "; preset pollux: %ld jobs of Pollux's applications made elastic (1 GPU to "
                    "max_replicas, work to completion)", rep->pollux_elastic);
    if (rep->extrapolated)
        fprintf(fp,
                "; extrapolated: %ld jobs above the GPU counts the perf model measured (up to "
                "%d GPUs; %.1f GPU-hours, %.1f %% of the trace's)",
                rep->extrapolated, rep->extrapolated_max_gpus, rep->extrapolated_gpu_hours,
                rep->gpu_hours > 0 ? 100 * rep->extrapolated_gpu_hours / rep->gpu_hours : 0);
}

/* ---- clusters -------------------------------------------------------------------- */

typedef struct group {
    int gpu_type, gpus, count, rack;
    double gpu_mem_gb, cpus, mem_gb;
} group_t;

static int same_kind(const group_t *g, const import_machine_t *m)
{
    return g->gpu_type == m->gpu_type && g->gpus == m->gpus && g->rack == m->rack &&
           ((isnan(g->gpu_mem_gb) && isnan(m->gpu_mem_gb)) || g->gpu_mem_gb == m->gpu_mem_gb) &&
           ((isnan(g->cpus) && isnan(m->cpus)) || g->cpus == m->cpus) &&
           ((isnan(g->mem_gb) && isnan(m->mem_gb)) || g->mem_gb == m->mem_gb);
}

static void lower_copy(char *dst, size_t cap, const char *src)
{
    size_t i = 0;
    for (; src[i] && i + 1 < cap; i++)
        dst[i] = (char)tolower((unsigned char)src[i]);
    dst[i] = '\0';
}

int import_write_cluster(const import_records_t *rs, const char *name, const char *default_gpu,
                         const char *path, mls_err_t *err)
{
    group_t *gs = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < rs->n_machines; i++) {
        const import_machine_t *m = &rs->machines[i];
        if (m->gpus <= 0)
            continue;
        size_t k = 0;
        while (k < n && !same_kind(&gs[k], m))
            k++;
        if (k == n) {
            xgrow((void **)&gs, &cap, n + 1, sizeof *gs);
            gs[n++] = (group_t){m->gpu_type, m->gpus, 0, m->rack, m->gpu_mem_gb, m->cpus,
                                m->mem_gb};
        }
        gs[k].count++;
    }
    if (!n) {
        free(gs);
        return mls_fail(err, "--emit-cluster: the inputs name no GPU machines");
    }
    mls_atomic_file_t af;
    if (mls_atomic_open(&af, path, err) < 0) {
        free(gs);
        return -1;
    }
    fprintf(af.fp, "{\"name\": \"%s\",\n \"node_groups\": [\n", name);
    for (size_t k = 0; k < n; k++) {
        char type[32];
        lower_copy(type, sizeof type,
                   gs[k].gpu_type >= 0 ? rs->gpu_types.names[gs[k].gpu_type] : default_gpu);
        fprintf(af.fp, "  {\"gpu_type\": \"%s\", \"count\": %d, \"gpus_per_node\": %d", type,
                gs[k].count, gs[k].gpus);
        if (!isnan(gs[k].gpu_mem_gb))
            fprintf(af.fp, ", \"gpu_mem_gb\": %g", gs[k].gpu_mem_gb);
        if (!isnan(gs[k].cpus))
            fprintf(af.fp, ", \"cpus\": %d", (int)gs[k].cpus);
        if (!isnan(gs[k].mem_gb))
            fprintf(af.fp, ", \"mem_gb\": %g", gs[k].mem_gb);
        if (gs[k].rack >= 0)
            fprintf(af.fp, ", \"rack\": %d", gs[k].rack);
        fprintf(af.fp, "}%s\n", k + 1 < n ? "," : "");
    }
    fprintf(af.fp, " ]}\n");
    free(gs);
    return mls_atomic_commit(&af, err);
}

/* A VC-size file: a header line, then "vc,nodes" lines. Calls `each` per
 * line; stops at an error. */
static int scan_vc_sizes(const char *path, int (*each)(void *, const char *, long), void *ctx,
                         mls_err_t *err)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return mls_fail(err, "%s: cannot open: %s", path, strerror(errno));
    csv_reader_t r;
    csv_open(&r, fp, ',');
    int rc = 0, got, first = 1;
    long nodes;
    while (rc == 0 && (got = csv_next(&r)) > 0) {
        if (first) { /* the header: "vc,node num" or ",num" */
            first = 0;
            continue;
        }
        if (r.n_fields != 2)
            rc = mls_fail(err, "%s:%ld: %zu fields; a VC size line has 2 (vc,nodes)", path,
                          r.line_no, r.n_fields);
        else if (mls_parse_long(r.fields[1], &nodes) < 0 || nodes < 0)
            rc = mls_fail(err, "%s:%ld: field 'nodes': '%s' is not a node count", path,
                          r.line_no, r.fields[1]);
        else
            rc = each(ctx, r.fields[0], nodes);
    }
    if (rc == 0 && got < 0)
        rc = csv_fail(&r, path, err);
    csv_close(&r);
    fclose(fp);
    return rc;
}

typedef struct vc_sizes_ctx {
    const strtab_t *vcs;
    long *nodes;
    const char *want;
    long found;
} vc_sizes_ctx_t;

static int vc_size_into_table(void *p, const char *vc, long nodes)
{
    vc_sizes_ctx_t *c = p;
    int i = strtab_find(c->vcs, vc);
    if (i >= 0)
        c->nodes[i] = nodes;
    return 0;
}

static int read_vc_sizes(const char *path, const strtab_t *vcs, long *nodes, mls_err_t *err)
{
    for (size_t i = 0; i < vcs->n; i++)
        nodes[i] = -1;
    vc_sizes_ctx_t c = {vcs, nodes, NULL, -1};
    return scan_vc_sizes(path, vc_size_into_table, &c, err);
}

static int vc_size_one(void *p, const char *vc, long nodes)
{
    vc_sizes_ctx_t *c = p;
    if (!strcmp(vc, c->want))
        c->found = nodes;
    return 0;
}

int import_write_vc_cluster(const char *sizes_path, const char *vc, int gpus_per_node,
                            const char *gpu, const char *path, mls_err_t *err)
{
    vc_sizes_ctx_t c = {NULL, NULL, vc, -1};
    if (scan_vc_sizes(sizes_path, vc_size_one, &c, err) < 0)
        return -1;
    if (c.found <= 0)
        return 1;
    mls_atomic_file_t af;
    if (mls_atomic_open(&af, path, err) < 0)
        return -1;
    fprintf(af.fp,
            "{\"name\": \"%s\",\n \"node_groups\": [\n  {\"gpu_type\": \"%s\", \"count\": %ld, "
            "\"gpus_per_node\": %d}\n ]}\n",
            vc, gpu, c.found, gpus_per_node);
    return mls_atomic_commit(&af, err);
}
