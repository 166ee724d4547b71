/* cmd-trace.c: `mlsched trace` — generate, stats, sample (and, with the
 * importers, import). Each verb is one function in one table. */
#include "cli/cmd.h"
#include "cli/opts.h"
#include "model/perf.h"
#include "model/trace.h"
#include "traces/generate.h"
#include "traces/import.h"
#include "traces/mapping.h"
#include "traces/stats.h"

#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int usage_error(const char *verb, const char *msg, const char *arg)
{
    return cmd_verb_usage_error("trace", verb, msg, arg);
}

/* ---- generate ------------------------------------------------------------------ */

typedef struct gen_opts {
    gen_config_t g;
    long jobs, seed;
    double rate;
    const char *out, *thr;
} gen_opts_t;

static int parse_rate(void *base, size_t off, const char *arg, const char *who)
{
    double *r = (double *)((char *)base + off);
    (void)who;
    return mls_parse_rate(arg, "h,min,s,d", r) < 0 || !(*r > 0) ? -1 : 0;
}

#define G gen_opts_t
static const opt_t gen_options[] = {
    OPT_NUM(OPT_LONG, "jobs", 'n', "N", G, jobs, 1, 1e8, 0,
            "--jobs wants an integer >= 1, got '%s'", "number of jobs (required)"),
    OPT_CALL("rate", 'r', "R", G, rate, parse_rate, "--rate wants a positive rate, got '%s'",
             "arrivals per hour (3, 3/h, 0.5/min, 0.01/s) (required)"),
    OPT_SHARED_SEED(G, seed, "seed (default 1): the same seed gives the same file"),
    OPT_FLAG("multi-gpu", 'm', G, g.multi_gpu,
             "scale factors 1/2/4/8 at 70/10/15/5% (default: all 1)"),
    OPT_SHARED_THROUGHPUTS(G, thr, "perf model to draw workloads from (default: the catalog)"),
    OPT_STRING("reference-gpu", 0, "T", G, g.reference_gpu,
               "GPU type that sets total work (default v100)"),
    OPT_NUM(OPT_DOUBLE, "duration-scale", 0, "X", G, g.duration_scale, 0, INFINITY,
            OPT_ABOVE_LO | OPT_INF_OK, "--duration-scale wants a number > 0, got '%s'",
            "multiply every duration by X (default 1)"),
    OPT_NUM(OPT_INT, "users", 0, "N", G, g.users, 1, 1e6, 0,
            "--users wants an integer >= 1, got '%s'", "spread jobs over N users (default 1)"),
    OPT_STRING("output", 'o', "FILE", G, out, "where to write the trace (required)"),
    OPT_END_ROW};
#undef G

static const opt_cmd_t gen_cmd = {
    .who = "trace generate",
    .usage = "--jobs N --rate R[/h|/min|/s] -o OUT.csv [options]",
    .about = "Poisson arrivals with Gavel's job mix: workloads uniform over the perf model's,\n"
             "durations 60*10^U(1.5,3) s (80%) or 60*10^U(3,4) s (20%), total work =\n"
             "duration x isolated throughput on the reference GPU.",
    .opts = gen_options,
};

static int cmd_generate(int argc, char **argv)
{
    gen_opts_t o = {.jobs = 0, .rate = 0};
    gen_config_defaults(&o.g);
    o.seed = (long)o.g.seed;
    int prc = opt_parse_only(&gen_cmd, &o, argc, argv);
    if (prc)
        return prc < 0 ? MLS_EXIT_OK : prc;
    if (!o.jobs || !(o.rate > 0) || !o.out)
        return usage_error("generate", "--jobs, --rate and -o are required", NULL);
    gen_config_t g = o.g;
    g.jobs = o.jobs;
    g.rate_per_hour = o.rate;
    g.seed = (uint64_t)o.seed;
    const char *out = o.out, *thr = o.thr;
    mls_err_t err = {{0}};
    mls_perf_t *pm = NULL;
    mls_trace_t t;
    trace_init(&t);
    int rc = perf_load_or_default(&pm, thr, &err);
    if (rc == 0)
        rc = trace_generate(&t, pm, &g, &err);
    if (rc == 0)
        rc = trace_write_csv(&t, out, &err);
    if (rc < 0)
        fprintf(stderr, "mlsched trace generate: %s\n", err.msg);
    trace_free(&t);
    perf_free(pm);
    return rc == 0 ? MLS_EXIT_OK : MLS_EXIT_FAIL;
}

/* ---- stats ---------------------------------------------------------------------- */

typedef struct stats_opts {
    int json, extra;
    const char *thr, *ref;
} stats_opts_t;

static const opt_t stats_options[] = {
    OPT_FLAG("json", 'j', stats_opts_t, json, "print the statistics as JSON"),
    OPT_FLAG("ignore-extra-columns", 0, stats_opts_t, extra,
             "accept trace columns mlsched does not know"),
    OPT_SHARED_THROUGHPUTS(stats_opts_t, thr,
                           "perf model that says which jobs are extrapolated\n"
                           "(default: the catalog)"),
    OPT_STRING("reference-gpu", 0, "T", stats_opts_t, ref,
               "GPU type the measured counts are read on (default v100)"),
    OPT_END_ROW};

static const opt_cmd_t stats_cmd = {
    .who = "trace stats",
    .usage = "TRACE.csv [--json] [--ignore-extra-columns] [--throughputs FILE] "
             "[--reference-gpu T]",
    .about = "Jobs, users, GPU-hours, arrival rate, GPU-count histogram, duration\n"
             "percentiles and per-user shares of a canonical trace, and the jobs (and\n"
             "GPU-hours) above the GPU counts the perf model measured for their workload\n"
             "on the reference GPU: their rates are extrapolated; warns when jobs would\n"
             "run there over 2x longer or shorter than their traced duration.",
    .opts = stats_options,
};

/* The extrapolation counts of t under the perf model *pm it loads (the
 * caller frees it: x->model points into it); -1 with err set. */
static int stats_extrap(const mls_trace_t *t, const stats_opts_t *o, mls_perf_t **pm,
                        trace_extrap_t *x, mls_err_t *err)
{
    if (perf_load_or_default(pm, o->thr, err) < 0)
        return -1;
    const char *ref = o->ref ? o->ref : "v100";
    int rt = perf_gpu_type_index(*pm, ref);
    if (rt < 0)
        return mls_fail(err, "--reference-gpu: the perf model %s has no GPU type '%s'",
                        (*pm)->source, ref);
    trace_extrap_count(t, *pm, rt, ref, x);
    return 0;
}

static int cmd_stats(int argc, char **argv)
{
    stats_opts_t o = {0, 0, NULL, NULL};
    int optind, prc = opt_parse(&stats_cmd, &o, argc, argv, &optind);
    if (prc)
        return prc < 0 ? MLS_EXIT_OK : prc;
    if (optind != argc - 1)
        return usage_error("stats", "wants exactly one trace file", NULL);
    int json = o.json;
    unsigned flags = o.extra ? TRACE_IGNORE_EXTRA : 0;
    mls_err_t err = {{0}};
    mls_trace_t t;
    trace_init(&t);
    trace_extrap_t x;
    mls_perf_t *pm = NULL;
    int rc = trace_read_csv(&t, argv[optind], flags, &err);
    if (rc == 0)
        rc = stats_extrap(&t, &o, &pm, &x, &err);
    if (rc == 0)
        trace_stats_print(&t, stdout, json, &x);
    else
        fprintf(stderr, "mlsched trace stats: %s\n", err.msg);
    perf_free(pm);
    trace_free(&t);
    return rc == 0 ? MLS_EXIT_OK : MLS_EXIT_FAIL;
}

/* ---- sample -------------------------------------------------------------------- */

typedef struct sample_opts {
    double lo, hi; /* window, s; lo < 0: none */
    long n, first;
    uint64_t seed;
    int rebase;
} sample_opts_t;

static void sample_into(const mls_trace_t *in, mls_trace_t *out, const sample_opts_t *o)
{
    unsigned char *keep = xcalloc(in->n ? in->n : 1, 1);
    if (o->lo >= 0) {
        for (size_t i = 0; i < in->n; i++)
            keep[i] = in->jobs[i].submit >= o->lo && in->jobs[i].submit < o->hi;
    } else if (o->first > 0) {
        for (size_t i = 0; i < in->n && (long)i < o->first; i++)
            keep[i] = 1;
    } else {
        /* N random jobs, kept in order: selection sampling (Knuth, TAOCP 3.4.2 S) */
        gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
        gsl_rng_set(r, (unsigned long)o->seed);
        long need = o->n;
        for (size_t i = 0; i < in->n && need > 0; i++)
            if (gsl_rng_uniform(r) * (double)(in->n - i) < (double)need) {
                keep[i] = 1;
                need--;
            }
        gsl_rng_free(r);
    }
    double base = -1;
    for (size_t i = 0; i < in->n; i++) {
        if (!keep[i])
            continue;
        mls_job_t j = in->jobs[i];
        if (base < 0)
            base = j.submit;
        if (o->rebase) {
            j.submit -= base;
            if (isfinite(j.deadline))
                j.deadline -= base;
        }
        j.user = strtab_intern(&out->users, in->users.names[j.user]);
        j.workload = strtab_intern(&out->workloads, in->workloads.names[j.workload]);
        trace_add(out, &j);
    }
    free(keep);
}

static int parse_window(void *base, size_t off, const char *s, const char *who)
{
    sample_opts_t *o = (sample_opts_t *)((char *)base + off);
    (void)who;
    char a[64], b[64];
    const char *colon = strchr(s, ':');
    if (!colon || colon - s >= 63 || strlen(colon + 1) >= 63)
        return -1;
    snprintf(a, sizeof a, "%.*s", (int)(colon - s), s);
    snprintf(b, sizeof b, "%s", colon + 1);
    if (mls_parse_double(a, &o->lo) < 0 || mls_parse_double(b, &o->hi) < 0 || o->lo < 0 ||
        o->hi <= o->lo)
        return -1;
    return 0;
}

typedef struct sample_cli {
    sample_opts_t o;
    long seed;
    const char *out;
} sample_cli_t;

#define S sample_cli_t
static const opt_t sample_options[] = {
    OPT_CALL("window", 'w', "START:END", S, o, parse_window,
             "--window wants START:END seconds, got '%s'",
             "jobs submitted in [START, END) seconds"),
    OPT_NUM(OPT_LONG, "jobs", 'n', "N", S, o.n, 1, 9.2e18, 0,
            "--jobs wants a job count >= 1, got '%s'",
            "N jobs drawn at random, kept in order (seeded)"),
    OPT_NUM(OPT_LONG, "first", 'f', "N", S, o.first, 1, 9.2e18, 0,
            "--first wants a job count >= 1, got '%s'", "the first N jobs"),
    OPT_SHARED_SEED(S, seed, "seed of --jobs (default 1)"),
    OPT_FLAG("rebase", 'r', S, o.rebase, "shift submit times so the first is 0"),
    OPT_STRING("output", 'o', "FILE", S, out, "where to write the sample"),
    OPT_END_ROW};
#undef S

static const opt_cmd_t sample_cmd = {
    .who = "trace sample",
    .usage = "TRACE.csv (--window START:END | --jobs N [--seed S] | --first N)\n"
             "                            [--rebase] -o OUT.csv",
    .opts = sample_options,
};

static int cmd_sample(int argc, char **argv)
{
    sample_cli_t c = {{-1, -1, 0, 0, 1, 0}, 1, NULL};
    int optind, prc = opt_parse(&sample_cmd, &c, argc, argv, &optind);
    if (prc)
        return prc < 0 ? MLS_EXIT_OK : prc;
    sample_opts_t o = c.o;
    o.seed = (uint64_t)c.seed;
    const char *out = c.out;
    int modes = (o.lo >= 0) + (o.n > 0) + (o.first > 0);
    if (modes != 1 || !out || optind != argc - 1)
        return usage_error("sample",
                           "wants one trace, one of --window/--jobs/--first, and -o", NULL);
    mls_err_t err = {{0}};
    mls_trace_t in, res;
    trace_init(&in);
    trace_init(&res);
    int rc = trace_read_csv(&in, argv[optind], 0, &err);
    if (rc == 0) {
        sample_into(&in, &res, &o);
        rc = trace_write_csv(&res, out, &err);
    }
    if (rc < 0)
        fprintf(stderr, "mlsched trace sample: %s\n", err.msg);
    else
        fprintf(stderr, "mlsched trace sample: %zu of %zu jobs -> %s\n", res.n, in.n, out);
    trace_free(&in);
    trace_free(&res);
    return rc == 0 ? MLS_EXIT_OK : MLS_EXIT_FAIL;
}

/* ---- import ------------------------------------------------------------------- */

static void import_formats(FILE *out)
{
    fprintf(out, "\nformats:\n");
    for (size_t i = 0; i < import_count(); i++)
        fprintf(out, "  %-10s %s\n", import_at(i)->name, import_at(i)->summary);
}

typedef struct import_cli {
    const char *fmt, *out, *thr, *emit, *workloads, *preset;
    import_options_t o;
    int skip_bad;
    long seed;
    int pipeline_flags; /* options that only production formats take were given */
} import_cli_t;

static int parse_window_filter(void *base, size_t off, const char *arg, const char *who)
{
    (void)who;
    return import_parse_window(arg, (import_filters_t *)((char *)base + off));
}

static int parse_status(void *base, size_t off, const char *arg, const char *who)
{
    (void)who;
    return import_parse_status(arg, (unsigned *)((char *)base + off));
}

/* An option of the production pipeline (not for formats read directly). */
#define PIPE_STRING(n_, l_, a_, f_, h_)                                                            \
    {                                                                                              \
        .kind = OPT_STRING, .name = (n_), .letter = (l_), .arg = (a_),                             \
        .off = offsetof(import_cli_t, f_), .help = (h_), .flags = OPT_MARKS                        \
    }
#define PIPE_GPUS(n_, f_, h_)                                                                      \
    {                                                                                              \
        .kind = OPT_INT, .name = (n_), .arg = "N", .off = offsetof(import_cli_t, f_),              \
        .help = (h_), .lo = 1, .hi = 65536, .flags = OPT_MARKS,                                    \
        .bad = "--" n_ " wants a GPU count >= 1, got '%s'"                                         \
    }
#define I import_cli_t
static const opt_t import_options[] = {
    OPT_STRING("format", 'f', "NAME", I, fmt, "input format (below)"),
    OPT_STRING("output", 'o', "FILE", I, out, "the canonical trace to write"),
    OPT_FLAG("skip-bad", 0, I, skip_bad, "skip bad rows (counted) instead of failing"),
    {.kind = OPT_CALL,
     .name = "window",
     .letter = 'w',
     .arg = "START:END",
     .off = offsetof(I, o.filters),
     .call = parse_window_filter,
     .flags = OPT_MARKS,
     .bad = "--window wants START:END (s >= 0, or two dates), got '%s'",
     .help = "submit in [START, END): s after the trace's first\n"
             "submit, or dates (2017-10-03 or \"2017-10-03 12:00:00\")"},
    PIPE_STRING("vc", 0, "A,B,...", o.filters.vcs, "keep these VCs / clusters"),
    PIPE_STRING("user", 0, "A,B,...", o.filters.users, "keep these users"),
    PIPE_GPUS("min-gpus", o.filters.min_gpus, "keep jobs of N or more GPUs"),
    PIPE_GPUS("max-gpus", o.filters.max_gpus, "keep jobs of N or fewer GPUs"),
    {.kind = OPT_CALL,
     .name = "status",
     .arg = "LIST",
     .off = offsetof(I, o.filters.status_mask),
     .call = parse_status,
     .flags = OPT_MARKS,
     .bad = "--status wants pass,killed,failed,running,unknown, got '%s'",
     .help = "keep pass,killed,failed,running,unknown"},
    PIPE_STRING("preset", 'p', "NAME", preset, "pollux | gavel | blox | helios (see docs/traces.md)"),
    PIPE_STRING("workloads", 0, "HOW", workloads, "uniform (default) | gpu-time-buckets | FILE"),
    {.kind = OPT_FLAG,
     .name = "remap-workloads",
     .off = offsetof(I, o.remap),
     .flags = OPT_MARKS,
     .help = "map even jobs whose trace names a model"},
    {.kind = OPT_LONG,
     .name = "seed",
     .letter = 's',
     .arg = "N",
     .off = offsetof(I, seed),
     .hi = 9.2e18,
     .flags = OPT_MARKS,
     .bad = "--seed wants an integer >= 0, got '%s'",
     .help = "seed of the mapping and sampling (default 1)"},
    PIPE_STRING("reference-gpu", 0, "T", o.reference_gpu,
                "GPU type that sets total work (default v100)"),
    PIPE_STRING("throughputs", 0, "FILE", thr, "perf model (default: the catalog)"),
    {.kind = OPT_LONG,
     .name = "jobs",
     .letter = 'n',
     .arg = "N",
     .off = offsetof(I, o.rules.sample_jobs),
     .lo = 1,
     .hi = 9.2e18,
     .flags = OPT_MARKS,
     .bad = "--jobs wants a count >= 1, got '%s'",
     .help = "jobs the pollux preset samples (default 160)"},
    PIPE_STRING("vc-sizes", 0, "FILE", o.vc_sizes,
                "helios preset: \"vc,nodes\" lines; writes\n"
                "OUT-<vc>.csv and OUT-<vc>.json per VC"),
    PIPE_GPUS("gpus-per-node", o.gpus_per_node,
              "GPUs per node: of the helios preset's VC clusters, and\n"
              "of the nodes a job above the perf model's measured\n"
              "GPU counts spans when the trace does not say (default 8)"),
    PIPE_STRING("emit-cluster", 0, "FILE", emit, "the machines the inputs list, as cluster JSON"),
    OPT_END_ROW};
#undef I
#undef PIPE_STRING
#undef PIPE_GPUS

static const opt_cmd_t import_cmd = {
    .who = "trace import",
    .usage = "--format NAME [options] -o OUT.csv IN...",
    .about = "Turns traces in other formats into the canonical trace (several inputs are\n"
             "concatenated, then sorted by submit time and numbered 0..n-1). A bad row is\n"
             "an error naming FILE:LINE and the field; --skip-bad skips such rows and says\n"
             "how many.\n\n"
             "Production traces (philly, helios, itp, ...) give sizes and times, not models:\n"
             "their records are filtered, preprocessed by a preset, and mapped to workloads of\n"
             "the perf model; total work = traced duration x the workload's throughput at the\n"
             "traced GPU count on the reference GPU. One line on stderr counts every record\n"
             "dropped or adjusted.",
    .opts = import_options,
    .more_help = import_formats,
    .mark_off = offsetof(import_cli_t, pipeline_flags),
};

/* Returns 0 with *first the first input, -1 after --help, or a usage error. */
static int parse_import_args(int argc, char **argv, import_cli_t *a, int *first)
{
    import_options_defaults(&a->o);
    a->seed = (long)a->o.seed;
    int rc = opt_parse(&import_cmd, a, argc, argv, first);
    if (rc)
        return rc;
    a->o.seed = (uint64_t)a->seed;
    if (a->skip_bad)
        a->o.flags |= IMPORT_SKIP_BAD;
    if (a->preset && import_apply_preset(&a->o, a->preset) < 0)
        return usage_error("import", "--preset wants pollux, gavel, blox or helios, got",
                           a->preset);
    if (a->workloads)
        import_parse_mapping(a->workloads, &a->o);
    if (a->o.filters.min_gpus && a->o.filters.max_gpus &&
        a->o.filters.min_gpus > a->o.filters.max_gpus)
        return usage_error("import", "--min-gpus is above --max-gpus", NULL);
    if (!a->fmt || !a->out || *first >= argc)
        return usage_error("import", "wants --format, -o and at least one input", NULL);
    return 0;
}

/* OUT.csv -> OUT-<vc>.<ext> */
static void vc_path(char *buf, size_t cap, const char *out, const char *vc, const char *ext)
{
    const char *dot = strrchr(out, '.'), *slash = strrchr(out, '/');
    int stem = dot && (!slash || dot > slash) ? (int)(dot - out) : (int)strlen(out);
    snprintf(buf, cap, "%.*s-%s.%s", stem, out, vc, ext);
}

/* Helios preset: one trace and one cluster per VC. */
static int write_per_vc(const mls_trace_t *t, const int *job_vc, const import_records_t *rs,
                        const import_cli_t *a, mls_err_t *err)
{
    int rc = 0;
    for (size_t v = 0; v < rs->vcs.n && rc == 0; v++) {
        mls_trace_t sub;
        trace_init(&sub);
        for (size_t i = 0; i < t->n; i++) {
            if (job_vc[i] != (int)v)
                continue;
            mls_job_t j = t->jobs[i];
            j.id = (int64_t)sub.n;
            j.user = strtab_intern(&sub.users, t->users.names[j.user]);
            j.workload = strtab_intern(&sub.workloads, t->workloads.names[j.workload]);
            trace_add(&sub, &j);
        }
        if (sub.n) {
            double base = sub.jobs[0].submit;
            for (size_t i = 0; i < sub.n; i++) {
                sub.jobs[i].submit -= base;
                if (isfinite(sub.jobs[i].deadline))
                    sub.jobs[i].deadline -= base;
            }
            char tp[4096], cp[4096];
            vc_path(tp, sizeof tp, a->out, rs->vcs.names[v], "csv");
            vc_path(cp, sizeof cp, a->out, rs->vcs.names[v], "json");
            rc = trace_write_csv(&sub, tp, err);
            if (rc == 0)
                rc = import_write_vc_cluster(a->o.vc_sizes, rs->vcs.names[v], a->o.gpus_per_node,
                                             a->o.reference_gpu, cp, err) < 0 ? -1 : 0;
            if (rc == 0)
                fprintf(stderr, "mlsched trace import: VC %s: %zu jobs -> %s, cluster %s\n",
                        rs->vcs.names[v], sub.n, tp, cp);
        }
        trace_free(&sub);
    }
    return rc;
}

static int import_records_run(const import_format_t *f, import_cli_t *a, int first, int argc,
                              char **argv, mls_trace_t *t, long *skipped, mls_err_t *err)
{
    import_records_t rs;
    records_init(&rs);
    mls_perf_t *pm = NULL;
    int rc = 0, *job_vc = NULL;
    for (int i = first; i < argc && rc == 0; i++) {
        records_begin_file(&rs, argv[i]);
        rc = f->read_records(&rs, argv[i], a->o.flags, skipped, err);
    }
    if (rc == 0 && a->emit) {
        char name[256];
        const char *base = strrchr(a->emit, '/');
        snprintf(name, sizeof name, "%s", base ? base + 1 : a->emit);
        char *dot = strrchr(name, '.');
        if (dot)
            *dot = '\0';
        rc = import_write_cluster(&rs, name, a->o.reference_gpu, a->emit, err);
        if (rc == 0)
            fprintf(stderr, "mlsched trace import: %zu machines -> %s\n", rs.n_machines, a->emit);
    }
    if (rc == 0 && rs.n == 0 && a->emit) {
        records_free(&rs);
        return 1; /* a machine list alone: no trace */
    }
    if (rc == 0)
        rc = perf_load_or_default(&pm, a->thr, err);
    import_report_t rep = {0};
    rep.bad = *skipped;
    if (rc == 0)
        rc = import_map_records(&rs, pm, &a->o, t, &job_vc, &rep, err);
    *skipped += rep.bad_mapping;
    if (rc == 0 && t->n == 0)
        rc = mls_fail(err, "no jobs left (%ld records read; see the filters)", rep.records);
    if (rc == 0 && a->o.rules.per_vc)
        rc = write_per_vc(t, job_vc, &rs, a, err);
    if (rc == 0) {
        fprintf(stderr, "mlsched trace import: ");
        import_report_print(&rep, stderr);
        fprintf(stderr, "\n");
        if (rep.pollux_rigid)
            fprintf(stderr,
                    "mlsched trace import: warning: preset pollux: %ld of %ld jobs are rigid "
                    "(min = max = traced GPUs) and sized by their traced duration on %s: their "
                    "workloads are not Pollux's applications in the perf model %s, so Pollux "
                    "cannot resize them; give --throughputs traces/catalog/pollux.json for "
                    "Pollux's elastic jobs\n",
                    rep.pollux_rigid, rep.jobs, a->o.reference_gpu, pm->source);
    }
    free(job_vc);
    perf_free(pm);
    records_free(&rs);
    return rc;
}

static int cmd_import(int argc, char **argv)
{
    import_cli_t a = {0};
    int first, prc = parse_import_args(argc, argv, &a, &first);
    if (prc != 0)
        return prc < 0 ? MLS_EXIT_OK : prc;
    const import_format_t *f = import_find(a.fmt);
    if (!f)
        return usage_error("import", "unknown format:", a.fmt);
    if (f->read && a.pipeline_flags)
        return usage_error("import", "filters, presets and mapping apply to production formats, "
                                     "not to",
                           a.fmt);
    mls_err_t err = {{0}};
    mls_trace_t t;
    trace_init(&t);
    long skipped = 0;
    int rc = 0;
    if (f->read) {
        for (int i = first; i < argc && rc == 0; i++)
            rc = f->read(&t, argv[i], a.o.flags, &skipped, &err);
        if (rc == 0 && t.n == 0)
            rc = mls_fail(&err, "no jobs in the input");
        if (rc == 0)
            import_sort_renumber(&t);
    } else {
        rc = import_records_run(f, &a, first, argc, argv, &t, &skipped, &err);
        if (rc == 1) { /* only machines */
            trace_free(&t);
            return MLS_EXIT_OK;
        }
    }
    if (rc == 0)
        rc = trace_validate(&t, &err);
    if (rc == 0)
        rc = trace_write_csv(&t, a.out, &err);
    if (rc < 0)
        fprintf(stderr, "mlsched trace import: %s\n", err.msg);
    else
        fprintf(stderr, "mlsched trace import: %zu jobs -> %s%s", t.n, a.out,
                skipped ? "" : "\n");
    if (rc == 0 && skipped)
        fprintf(stderr, " (%ld bad rows skipped)\n", skipped);
    trace_free(&t);
    return rc == 0 ? MLS_EXIT_OK : MLS_EXIT_FAIL;
}

static const cmd_verb_t verbs[] = {
    {"import", "turn another format (gavel, philly, helios, itp, ...) into the canonical trace",
     cmd_import},
    {"generate", "a synthetic trace with Gavel's job mix", cmd_generate},
    {"stats", "jobs, GPU-hours, arrival rate, size and duration distributions", cmd_stats},
    {"sample", "a time window, N random jobs, or the first N", cmd_sample},
};

static void trace_help(FILE *out)
{
    fprintf(out, "usage: mlsched trace <verb> [options]\n\nverbs:\n");
    cmd_list_verbs(out, verbs, sizeof verbs / sizeof verbs[0], 10);
}

static int exec_trace(int argc, char **argv)
{
    return cmd_run_verb("trace", verbs, sizeof verbs / sizeof verbs[0], trace_help, argc, argv);
}

const cmd_entry_t cmd_trace_entry = {"trace", "generate, inspect and sample job traces",
                                     exec_trace};
