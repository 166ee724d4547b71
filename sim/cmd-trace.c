/* cmd-trace.c: `mlsched trace` — generate, stats, sample (and, with the
 * importers, import). Each verb is one function in one table. */
#include "cmd.h"
#include "generate.h"
#include "import.h"
#include "mapping.h"
#include "perf.h"
#include "stats.h"
#include "trace.h"

#include <getopt.h>
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

static void generate_help(void)
{
    printf("usage: mlsched trace generate --jobs N --rate R[/h|/min|/s] -o OUT.csv [options]\n"
           "\n"
           "Poisson arrivals with Gavel's job mix: workloads uniform over the perf model's,\n"
           "durations 60*10^U(1.5,3) s (80%%) or 60*10^U(3,4) s (20%%), total work =\n"
           "duration x isolated throughput on the reference GPU.\n"
           "\n"
           "  -n, --jobs N            number of jobs (required)\n"
           "  -r, --rate R            arrivals per hour (3, 3/h, 0.5/min, 0.01/s) (required)\n"
           "  -s, --seed N            seed (default 1): the same seed gives the same file\n"
           "  -m, --multi-gpu         scale factors 1/2/4/8 at 70/10/15/5%% (default: all 1)\n"
           "      --throughputs FILE  perf model to draw workloads from (default: the catalog)\n"
           "      --reference-gpu T   GPU type that sets total work (default v100)\n"
           "      --duration-scale X  multiply every duration by X (default 1)\n"
           "      --users N           spread jobs over N users (default 1)\n"
           "  -o, --output FILE       where to write the trace (required)\n");
}

static int cmd_generate(int argc, char **argv)
{
    enum { O_THR = 256, O_REF, O_DS, O_USERS };
    static const struct option lo[] = {{"jobs", 1, 0, 'n'},         {"rate", 1, 0, 'r'},
                                       {"seed", 1, 0, 's'},         {"multi-gpu", 0, 0, 'm'},
                                       {"throughputs", 1, 0, O_THR}, {"reference-gpu", 1, 0, O_REF},
                                       {"duration-scale", 1, 0, O_DS}, {"users", 1, 0, O_USERS},
                                       {"output", 1, 0, 'o'},       {"help", 0, 0, 'h'},
                                       {0, 0, 0, 0}};
    gen_config_t g;
    gen_config_defaults(&g);
    const char *out = NULL, *thr = NULL;
    int have_jobs = 0, have_rate = 0, c;
    long l;
    double d;
    optind = 1;
    while ((c = getopt_long(argc, argv, "n:r:s:mo:h", lo, NULL)) != -1) {
        switch (c) {
        case 'n':
            if (mls_parse_long(optarg, &l) < 0 || l < 1 || l > 100000000)
                return usage_error("generate", "--jobs wants an integer >= 1, got", optarg);
            g.jobs = l;
            have_jobs = 1;
            break;
        case 'r':
            if (mls_parse_rate(optarg, "h,min,s,d", &g.rate_per_hour) < 0 ||
                !(g.rate_per_hour > 0))
                return usage_error("generate", "--rate wants a positive rate, got", optarg);
            have_rate = 1;
            break;
        case 's':
            if (mls_parse_long(optarg, &l) < 0 || l < 0)
                return usage_error("generate", "--seed wants an integer >= 0, got", optarg);
            g.seed = (uint64_t)l;
            break;
        case 'm': g.multi_gpu = 1; break;
        case O_THR: thr = optarg; break;
        case O_REF: g.reference_gpu = optarg; break;
        case O_DS:
            if (mls_parse_double(optarg, &d) < 0 || !(d > 0))
                return usage_error("generate", "--duration-scale wants a number > 0, got",
                                   optarg);
            g.duration_scale = d;
            break;
        case O_USERS:
            if (mls_parse_long(optarg, &l) < 0 || l < 1 || l > 1000000)
                return usage_error("generate", "--users wants an integer >= 1, got", optarg);
            g.users = (int)l;
            break;
        case 'o': out = optarg; break;
        case 'h': generate_help(); return MLS_EXIT_OK;
        default: return usage_error("generate", "unknown option", NULL);
        }
    }
    if (!have_jobs || !have_rate || !out)
        return usage_error("generate", "--jobs, --rate and -o are required", NULL);
    if (optind < argc)
        return usage_error("generate", "unexpected argument", argv[optind]);
    mls_err_t err = {{0}};
    mls_perf_t *pm = NULL;
    mls_trace_t t;
    trace_init(&t);
    int rc = perf_load(&pm, thr ? thr : perf_default_catalog(), &err);
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

static int cmd_stats(int argc, char **argv)
{
    static const struct option lo[] = {{"json", 0, 0, 'j'},
                                       {"ignore-extra-columns", 0, 0, 'x'},
                                       {"help", 0, 0, 'h'},
                                       {0, 0, 0, 0}};
    int json = 0, c;
    unsigned flags = 0;
    optind = 1;
    while ((c = getopt_long(argc, argv, "jh", lo, NULL)) != -1) {
        if (c == 'j')
            json = 1;
        else if (c == 'x')
            flags |= TRACE_IGNORE_EXTRA;
        else if (c == 'h') {
            printf("usage: mlsched trace stats TRACE.csv [--json] [--ignore-extra-columns]\n\n"
                   "Jobs, users, GPU-hours, arrival rate, GPU-count histogram, duration\n"
                   "percentiles and per-user shares of a canonical trace.\n");
            return MLS_EXIT_OK;
        } else
            return usage_error("stats", "unknown option", NULL);
    }
    if (optind != argc - 1)
        return usage_error("stats", "wants exactly one trace file", NULL);
    mls_err_t err = {{0}};
    mls_trace_t t;
    trace_init(&t);
    int rc = trace_read_csv(&t, argv[optind], flags, &err);
    if (rc == 0)
        trace_stats_print(&t, stdout, json);
    else
        fprintf(stderr, "mlsched trace stats: %s\n", err.msg);
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

static int parse_window(const char *s, sample_opts_t *o)
{
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

static int cmd_sample(int argc, char **argv)
{
    static const struct option lo[] = {{"window", 1, 0, 'w'}, {"jobs", 1, 0, 'n'},
                                       {"first", 1, 0, 'f'},  {"seed", 1, 0, 's'},
                                       {"rebase", 0, 0, 'r'}, {"output", 1, 0, 'o'},
                                       {"help", 0, 0, 'h'},   {0, 0, 0, 0}};
    sample_opts_t o = {-1, -1, 0, 0, 1, 0};
    const char *out = NULL;
    int c, modes = 0;
    long l;
    optind = 1;
    while ((c = getopt_long(argc, argv, "w:n:f:s:ro:h", lo, NULL)) != -1) {
        switch (c) {
        case 'w':
            if (parse_window(optarg, &o) < 0)
                return usage_error("sample", "--window wants START:END seconds, got", optarg);
            modes++;
            break;
        case 'n':
        case 'f':
            if (mls_parse_long(optarg, &l) < 0 || l < 1)
                return usage_error("sample", "wants a job count >= 1, got", optarg);
            *(c == 'n' ? &o.n : &o.first) = l;
            modes++;
            break;
        case 's':
            if (mls_parse_long(optarg, &l) < 0 || l < 0)
                return usage_error("sample", "--seed wants an integer >= 0, got", optarg);
            o.seed = (uint64_t)l;
            break;
        case 'r': o.rebase = 1; break;
        case 'o': out = optarg; break;
        case 'h':
            printf("usage: mlsched trace sample TRACE.csv (--window START:END | --jobs N "
                   "[--seed S] | --first N)\n"
                   "                            [--rebase] -o OUT.csv\n\n"
                   "  --window START:END  jobs submitted in [START, END) seconds\n"
                   "  --jobs N            N jobs drawn at random, kept in order (seeded)\n"
                   "  --first N           the first N jobs\n"
                   "  --rebase            shift submit times so the first is 0\n");
            return MLS_EXIT_OK;
        default: return usage_error("sample", "unknown option", NULL);
        }
    }
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

static void import_help(void)
{
    printf("usage: mlsched trace import --format NAME [options] -o OUT.csv IN...\n\n"
           "Turns traces in other formats into the canonical trace (several inputs are\n"
           "concatenated, then sorted by submit time and numbered 0..n-1). A bad row is\n"
           "an error naming FILE:LINE and the field; --skip-bad skips such rows and says\n"
           "how many.\n\n"
           "Production traces (philly, helios, itp, ...) give sizes and times, not models:\n"
           "their records are filtered, preprocessed by a preset, and mapped to workloads of\n"
           "the perf model; total work = traced duration x the workload's throughput at the\n"
           "traced GPU count on the reference GPU. One line on stderr counts every record\n"
           "dropped or adjusted.\n\n"
           "  -f, --format NAME        input format (below)\n"
           "  -o, --output FILE        the canonical trace to write\n"
           "      --skip-bad           skip bad rows (counted) instead of failing\n"
           "  -w, --window START:END   submit in [START, END): s after the trace's first\n"
           "                           submit, or dates (2017-10-03 or \"2017-10-03 12:00:00\")\n"
           "      --vc A,B,...         keep these VCs / clusters\n"
           "      --user A,B,...       keep these users\n"
           "      --min-gpus N, --max-gpus N   keep jobs of N..M GPUs\n"
           "      --status LIST        keep pass,killed,failed,running,unknown\n"
           "  -p, --preset NAME        pollux | gavel | blox | helios (see the README)\n"
           "      --workloads HOW      uniform (default) | gpu-time-buckets | FILE\n"
           "      --remap-workloads    map even jobs whose trace names a model\n"
           "  -s, --seed N             seed of the mapping and sampling (default 1)\n"
           "      --reference-gpu T    GPU type that sets total work (default v100)\n"
           "      --throughputs FILE   perf model (default: the catalog)\n"
           "  -n, --jobs N             jobs the pollux preset samples (default 160)\n"
           "      --vc-sizes FILE      helios preset: \"vc,nodes\" lines; writes\n"
           "                           OUT-<vc>.csv and OUT-<vc>.json per VC\n"
           "      --gpus-per-node N    helios preset: GPUs per node (default 8)\n"
           "      --emit-cluster FILE  the machines the inputs list, as cluster JSON\n"
           "\nformats:\n");
    for (size_t i = 0; i < import_count(); i++)
        printf("  %-10s %s\n", import_at(i)->name, import_at(i)->summary);
}

typedef struct import_cli {
    const char *fmt, *out, *thr, *emit, *workloads;
    import_options_t o;
    int pipeline_flags; /* options that only production formats take */
} import_cli_t;

static int parse_import_args(int argc, char **argv, import_cli_t *a)
{
    enum { O_SKIP = 256, O_VC, O_USER, O_MING, O_MAXG, O_STATUS, O_WL, O_REF, O_THR, O_EMIT,
           O_REMAP, O_VCS, O_GPN };
    static const struct option lo[] = {
        {"format", 1, 0, 'f'},      {"output", 1, 0, 'o'},        {"skip-bad", 0, 0, O_SKIP},
        {"window", 1, 0, 'w'},      {"vc", 1, 0, O_VC},           {"user", 1, 0, O_USER},
        {"min-gpus", 1, 0, O_MING}, {"max-gpus", 1, 0, O_MAXG},   {"status", 1, 0, O_STATUS},
        {"preset", 1, 0, 'p'},      {"workloads", 1, 0, O_WL},    {"seed", 1, 0, 's'},
        {"reference-gpu", 1, 0, O_REF}, {"throughputs", 1, 0, O_THR},
        {"emit-cluster", 1, 0, O_EMIT}, {"remap-workloads", 0, 0, O_REMAP},
        {"jobs", 1, 0, 'n'},        {"vc-sizes", 1, 0, O_VCS},    {"gpus-per-node", 1, 0, O_GPN},
        {"help", 0, 0, 'h'},        {0, 0, 0, 0}};
    import_options_defaults(&a->o);
    const char *preset = NULL;
    long l;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "f:o:w:p:s:n:h", lo, NULL)) != -1) {
        if (c != 'f' && c != 'o' && c != O_SKIP && c != 'h')
            a->pipeline_flags = 1;
        switch (c) {
        case 'f': a->fmt = optarg; break;
        case 'o': a->out = optarg; break;
        case O_SKIP: a->o.flags |= IMPORT_SKIP_BAD; break;
        case 'w':
            if (import_parse_window(optarg, &a->o.filters) < 0)
                return usage_error("import", "--window wants START:END (s >= 0, or two dates), got",
                                   optarg);
            break;
        case O_VC: a->o.filters.vcs = optarg; break;
        case O_USER: a->o.filters.users = optarg; break;
        case O_MING:
        case O_MAXG:
        case O_GPN:
            if (mls_parse_long(optarg, &l) < 0 || l < 1 || l > 65536)
                return usage_error("import", "wants a GPU count >= 1, got", optarg);
            *(c == O_MING ? &a->o.filters.min_gpus
              : c == O_MAXG ? &a->o.filters.max_gpus : &a->o.gpus_per_node) = (int)l;
            break;
        case O_STATUS:
            if (import_parse_status(optarg, &a->o.filters.status_mask) < 0)
                return usage_error("import",
                                   "--status wants pass,killed,failed,running,unknown, got",
                                   optarg);
            break;
        case 'p': preset = optarg; break;
        case O_WL: a->workloads = optarg; break;
        case 's':
            if (mls_parse_long(optarg, &l) < 0 || l < 0)
                return usage_error("import", "--seed wants an integer >= 0, got", optarg);
            a->o.seed = (uint64_t)l;
            break;
        case 'n':
            if (mls_parse_long(optarg, &l) < 0 || l < 1)
                return usage_error("import", "--jobs wants a count >= 1, got", optarg);
            a->o.rules.sample_jobs = l;
            break;
        case O_REF: a->o.reference_gpu = optarg; break;
        case O_THR: a->thr = optarg; break;
        case O_EMIT: a->emit = optarg; break;
        case O_REMAP: a->o.remap = 1; break;
        case O_VCS: a->o.vc_sizes = optarg; break;
        case 'h': import_help(); return -1;
        default: return usage_error("import", "unknown option", NULL);
        }
    }
    if (preset && import_apply_preset(&a->o, preset) < 0)
        return usage_error("import", "--preset wants pollux, gavel, blox or helios, got", preset);
    if (a->workloads)
        import_parse_mapping(a->workloads, &a->o);
    if (a->o.filters.min_gpus && a->o.filters.max_gpus &&
        a->o.filters.min_gpus > a->o.filters.max_gpus)
        return usage_error("import", "--min-gpus is above --max-gpus", NULL);
    if (!a->fmt || !a->out || optind >= argc)
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

static int import_records_run(const import_format_t *f, import_cli_t *a, int argc, char **argv,
                              mls_trace_t *t, long *skipped, mls_err_t *err)
{
    import_records_t rs;
    records_init(&rs);
    mls_perf_t *pm = NULL;
    int rc = 0, *job_vc = NULL;
    for (int i = optind; i < argc && rc == 0; i++) {
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
        rc = perf_load(&pm, a->thr ? a->thr : perf_default_catalog(), err);
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
    }
    free(job_vc);
    perf_free(pm);
    records_free(&rs);
    return rc;
}

static int cmd_import(int argc, char **argv)
{
    import_cli_t a = {0};
    int prc = parse_import_args(argc, argv, &a);
    if (prc != 0)
        return prc < 0 ? MLS_EXIT_OK : prc;
    const import_format_t *f = import_find(a.fmt);
    if (!f)
        return usage_error("import", "unknown format (see --help):", a.fmt);
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
        for (int i = optind; i < argc && rc == 0; i++)
            rc = f->read(&t, argv[i], a.o.flags, &skipped, &err);
        if (rc == 0 && t.n == 0)
            rc = mls_fail(&err, "no jobs in the input");
        if (rc == 0)
            import_sort_renumber(&t);
    } else {
        rc = import_records_run(f, &a, argc, argv, &t, &skipped, &err);
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
