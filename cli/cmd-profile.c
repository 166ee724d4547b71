/* cmd-profile.c: `mlsched profile` — measure training throughput curves and
 * fit the perf model to them.
 *
 *   run      wrap a user's training command: one run per (GPU count, accumulation,
 *            batch) point, its progress lines read, a curve file written
 *   fit      Pollux fits of curve files, written with the curves into one catalog
 *            that `simulate --throughputs` loads
 *   builtin  the CUDA harness (mlsched-gpu-bench; --workload transformer|resnet|
 *            recsys|allreduce): runs it when it was built, says how to build it
 *            otherwise
 * Each verb is one function in one table, as in cmd-trace.c. */
#include "cli/cmd.h"
#include "cli/opts.h"
#include "model/curve_catalog.h"
#include "model/curves.h"
#include "profiler/nvml.h"
#include "profiler/progress.h"
#include "profiler/wrap.h"

#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MAX_POINTS 64

static int usage_error(const char *verb, const char *msg, const char *arg)
{
    return cmd_verb_usage_error("profile", verb, msg, arg);
}

/* "16,32,64" -> values >= lo; the count, or -1. */
static int parse_list(const char *s, int *out, int cap, int lo)
{
    char buf[512];
    snprintf(buf, sizeof buf, "%s", s);
    int n = 0;
    for (char *save = NULL, *tok = strtok_r(buf, ",", &save); tok;
         tok = strtok_r(NULL, ",", &save)) {
        long v;
        if (n == cap || mls_parse_long(tok, &v) < 0 || v < lo || v > INT_MAX / 4)
            return -1;
        out[n++] = (int)v;
    }
    return n ? n : -1;
}

/* ---- run ------------------------------------------------------------------------ */

typedef struct int_list {
    int v[MAX_POINTS], n;
} int_list_t;

typedef struct run_opts {
    int_list_t batches, gpus, accums, devices;
    int iters, warmup, min_iters, keep_going, verbose;
    double ci, timeout, kill_after;
    const char *regex, *workload, *gpu_type, *notes, *out;
    char **cmd;
} run_opts_t;

/* A comma list of integers >= 1 (>= 0 for device indices). */
static int list_call(void *base, size_t off, const char *arg, int lo)
{
    int_list_t *l = (int_list_t *)((char *)base + off);
    return (l->n = parse_list(arg, l->v, MAX_POINTS, lo)) < 0 ? -1 : 0;
}

static int counts_call(void *base, size_t off, const char *arg, const char *who)
{
    (void)who;
    return list_call(base, off, arg, 1);
}

static int indices_call(void *base, size_t off, const char *arg, const char *who)
{
    (void)who;
    return list_call(base, off, arg, 0);
}

#define R run_opts_t
static const opt_t run_options[] = {
    OPT_CALL("batch-sizes", 'b', "LIST", R, batches, counts_call,
             "--batch-sizes wants integers >= 1 like 16,32,64, got '%s'",
             "per-GPU batch sizes (default 32)"),
    OPT_CALL("gpus", 'g', "LIST", R, gpus, counts_call,
             "--gpus wants integers >= 1 like 1,2,4, got '%s'", "GPU counts (default 1); one node"),
    OPT_CALL("accum", 'a', "LIST", R, accums, counts_call, "--accum wants integers >= 1, got '%s'",
             "gradient accumulation steps (default 1)"),
    OPT_NUM(OPT_INT, "iters", 'n', "N", R, iters, 1, 1e7, 0, NULL,
            "measure at most N iterations per point (default 50)"),
    OPT_NUM(OPT_INT, "warmup", 'w', "N", R, warmup, 0, 1e7, 0, NULL,
            "iterations dropped first (default 10)"),
    OPT_NUM(OPT_DOUBLE, "ci", 0, "REL", R, ci, 0, 1e300, 0, NULL,
            "stop early once the median's 95% CI is within +-REL of it\n"
            "(default 0.01; 0 = always N iterations)"),
    OPT_NUM(OPT_INT, "min-iters", 0, "N", R, min_iters, 1, 1e7, 0, NULL,
            "fewest measured iterations to accept (default 10, <= N)"),
    OPT_STRING("regex", 0, "RE", R, regex,
               "POSIX ERE with named groups (?<iter_time>...) seconds,\n"
               "(?<iter_time_ms>...), (?<iter>...), (?<samples>...),\n"
               "(?<mem>...) bytes; a match without a time is timed by the\n"
               "clock between matches"),
    OPT_STRING("workload", 0, "NAME", R, workload,
               "the curve's workload name (default: CMD's base name)"),
    OPT_STRING("gpu-type", 0, "T", R, gpu_type,
               "GPU type (default: from the GPU's name through NVML;\n"
               "required without NVML)"),
    OPT_CALL("devices", 0, "LIST", R, devices, indices_call,
             "--devices wants device indices like 0,1, got '%s'",
             "device indices to use (default: CUDA_VISIBLE_DEVICES's,\nelse 0,1,...)"),
    OPT_NUM(OPT_DOUBLE, "timeout", 0, "S", R, timeout, 0, 1e300, OPT_ABOVE_LO, NULL,
            "give up on a point after S seconds (default 600)"),
    OPT_NUM(OPT_DOUBLE, "kill-after", 0, "S", R, kill_after, 0, 1e300, 0, NULL,
            "SIGKILL S seconds after SIGTERM (default 10)"),
    OPT_FLAG("keep-going", 0, R, keep_going,
             "a failing point (e.g. out of memory) is reported and left\n"
             "out instead of failing the run"),
    OPT_STRING("notes", 0, "TEXT", R, notes, "a notes= metadata line"),
    OPT_FLAG("verbose", 'v', R, verbose, "echo the command's output"),
    OPT_STRING("output", 'o', "CURVES", R, out, "the curve file to write (atomically; required)"),
    OPT_END_ROW};
#undef R

/* '+' (OPT_STOP_AT_ARG): options end at CMD, so CMD's own options stay CMD's. */
static const opt_cmd_t run_cmd = {
    .who = "profile run",
    .usage = "[options] -o CURVES -- CMD [ARGS...]",
    .about = "Runs CMD once per point (GPU count x accumulation steps x per-GPU batch), reads its\n"
             "progress lines, stops it when enough iterations are measured, and writes a curve\n"
             "file (profiler/README.md). CMD runs without a shell, with {batch}, {gpus} and\n"
             "{accum} in its arguments replaced, and CUDA_VISIBLE_DEVICES, CUDA_DEVICE_ORDER=\n"
             "PCI_BUS_ID, MLSCHED_BATCH_SIZE, MLSCHED_NUM_GPUS, MLSCHED_ACCUM_STEPS set.\n"
             "It must print, per iteration, on stdout or stderr:\n"
             "    mlsched-progress iter=<n> iter_time=<seconds> [samples=<n>] [batch=<b>] "
             "[mem=<bytes>]\n"
             "or lines that --regex describes.",
    .opts = run_options,
    .footer = "GPU memory (peak above idle), the GPU's name, driver and clocks come from NVML\n"
              "(libnvidia-ml.so.1, loaded at run time) when it is there; 0/absent otherwise.",
    .flags = OPT_STOP_AT_ARG,
};

static int parse_run(int argc, char **argv, run_opts_t *o)
{
    memset(o, 0, sizeof *o);
    o->batches = (int_list_t){{32}, 1};
    o->gpus = o->accums = (int_list_t){{1}, 1};
    o->iters = 50;
    o->warmup = 10;
    o->min_iters = -1;
    o->ci = 0.01;
    o->timeout = 600;
    o->kill_after = 10;
    int first, rc = opt_parse(&run_cmd, o, argc, argv, &first);
    if (rc)
        return rc;
    if (!o->out)
        return usage_error("run", "-o CURVES is required", NULL);
    if (first >= argc)
        return usage_error("run", "no command: put it after --, as in -- python3 train.py",
                           NULL);
    if (o->min_iters < 0)
        o->min_iters = o->iters < 10 ? o->iters : 10;
    if (o->min_iters > o->iters)
        return usage_error("run", "--min-iters must be <= --iters", NULL);
    o->cmd = argv + first;
    return 0;
}

/* Devices of the run: --devices, else CUDA_VISIBLE_DEVICES's indices, else 0..; -1 when
 * a requested GPU count exceeds them. */
static int pick_devices(run_opts_t *o)
{
    int most = 0;
    for (int i = 0; i < o->gpus.n; i++)
        most = o->gpus.v[i] > most ? o->gpus.v[i] : most;
    if (!o->devices.n) {
        const char *env = getenv("CUDA_VISIBLE_DEVICES");
        if (env && *env && (o->devices.n = parse_list(env, o->devices.v, MAX_POINTS, 0)) < 0)
            o->devices.n = 0; /* UUIDs or garbage: fall back to indices */
        if (!o->devices.n) {
            o->devices.n = most < MAX_POINTS ? most : MAX_POINTS;
            for (int i = 0; i < o->devices.n; i++)
                o->devices.v[i] = i;
        }
    }
    return most <= o->devices.n ? 0 : -1;
}

static void add_gpu_metadata(curve_set_t *cs, mls_nvml_t *nv, int device, const char *type)
{
    nvml_gpu_info_t gi;
    char buf[128];
    if (nv && nvml_gpu_info(nv, device, &gi) == 0) {
        curves_set_meta(cs, -1, "gpu_name", gi.name);
        curves_set_meta(cs, -1, "gpu_type", type);
        if (nvml_driver_version(nv, buf, sizeof buf) == 0)
            curves_set_meta(cs, -1, "driver", buf);
        if (nvml_cuda_version(nv, buf, sizeof buf) == 0)
            curves_set_meta(cs, -1, "cuda_driver", buf);
        snprintf(buf, sizeof buf, "%u", gi.sm_clock_mhz);
        curves_set_meta(cs, -1, "sm_clock_mhz", buf);
        snprintf(buf, sizeof buf, "%u", gi.mem_clock_mhz);
        curves_set_meta(cs, -1, "mem_clock_mhz", buf);
        snprintf(buf, sizeof buf, "%llu", (unsigned long long)gi.mem_total);
        curves_set_meta(cs, -1, "gpu_mem_bytes", buf);
    } else {
        curves_set_meta(cs, -1, "gpu_type", type);
        curves_set_meta(cs, -1, "gpu_name", "unknown (no NVML)");
    }
}

static void add_run_metadata(curve_set_t *cs, const run_opts_t *o)
{
    char buf[2048] = "", date[32];
    for (char **a = o->cmd; *a; a++) {
        if (a != o->cmd)
            strncat(buf, " ", sizeof buf - strlen(buf) - 1);
        strncat(buf, *a, sizeof buf - strlen(buf) - 1);
    }
    for (char *p = buf; *p; p++)
        if (*p == '\n' || *p == '\r')
            *p = ' ';
    time_t now = time(NULL);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%d", &tm);
    curves_set_meta(cs, -1, "date", date);
    curves_set_meta(cs, -1, "source", "wrap");
    curves_set_meta(cs, -1, "command", buf);
    snprintf(buf, sizeof buf, "mlsched %s profile run: %d warm-up, at most %d measured, ci %g%s",
             PACKAGE_VERSION, o->warmup, o->iters, o->ci, o->regex ? ", --regex" : "");
    curves_set_meta(cs, -1, "method", buf);
    if (o->notes)
        curves_set_meta(cs, -1, "notes", o->notes);
}

static int measure_point(const wrap_opts_t *base, int g, int a, int b,
                         const char *workload, const char *type, curve_set_t *cs,
                         mls_err_t *err)
{
    wrap_opts_t w = *base;
    w.gpus = g;
    w.accum = a;
    w.batch = b;
    wrap_result_t res;
    if (wrap_measure(&w, &res, err) < 0)
        return -1;
    curve_row_t r = {.num_gpus = g, .num_nodes = 1, .local_bsz = b, .accum_steps = a,
                     .iter_time = res.median, .iter_p10 = res.p10, .iter_p90 = res.p90,
                     .mem_bytes = res.mem_bytes, .iters = res.measured, .file = -1,
                     .line = (long)cs->n + 1};
    snprintf(r.workload, sizeof r.workload, "%s", workload);
    snprintf(r.gpu_type, sizeof r.gpu_type, "%s", type);
    r.samples_per_s = curves_expected_rate(&r);
    fprintf(stderr,
            "  %s on %d x %s, batch %d, accum %d: median %.6g s (p10 %.6g, p90 %.6g, CI +-%.1f%%) "
            "over %d iterations, %.2f samples/s, mem %lld B%s\n",
            workload, g, type, b, a, res.median, res.p10, res.p90, 100 * res.rel_ci,
            res.measured, r.samples_per_s, (long long)r.mem_bytes,
            res.killed ? " (needed SIGKILL)" : "");
    return curves_add(cs, &r, "measured point", err);
}

static const char *base_name(const char *path)
{
    const char *s = strrchr(path, '/');
    return s ? s + 1 : path;
}

static int cmd_run(int argc, char **argv)
{
    run_opts_t o;
    int prc = parse_run(argc, argv, &o);
    if (prc != 0)
        return prc < 0 ? MLS_EXIT_OK : prc;
    if (pick_devices(&o) < 0)
        return usage_error("run", "a --gpus count exceeds the devices (--devices or "
                                  "CUDA_VISIBLE_DEVICES)",
                           NULL);
    mls_nvml_t *nv = nvml_open();
    char type[32];
    if (o.gpu_type) {
        snprintf(type, sizeof type, "%s", o.gpu_type);
    } else if (nv) {
        nvml_gpu_info_t gi;
        if (nvml_gpu_info(nv, o.devices.v[0], &gi) < 0) {
            nvml_close(nv);
            return usage_error("run", "NVML knows no device with the first index; give "
                                      "--gpu-type",
                               NULL);
        }
        nvml_type_from_name(gi.name, type, sizeof type);
    } else {
        return usage_error("run", "--gpu-type is required when NVML (libnvidia-ml.so.1) is "
                                  "not available",
                           NULL);
    }
    mls_err_t err = {{0}};
    progress_regex_t re;
    int have_re = 0;
    if (o.regex) {
        if (progress_regex_compile(&re, o.regex, &err) < 0) {
            nvml_close(nv);
            return cmd_usage_error("profile run", "%s", err.msg);
        }
        have_re = 1;
    }
    const char *workload = o.workload ? o.workload : base_name(o.cmd[0]);
    curve_set_t cs;
    curves_init(&cs);
    add_gpu_metadata(&cs, nv, o.devices.v[0], type);
    add_run_metadata(&cs, &o);
    wrap_opts_t base = {o.cmd,   0,           0,    0,         o.devices.v,  o.warmup,
                        o.iters, o.min_iters, o.ci, o.timeout, o.kill_after, have_re ? &re : NULL,
                        nv,      o.verbose};
    int rc = 0, failed = 0;
    char failures[1024] = "";
    for (int gi = 0; gi < o.gpus.n && rc == 0; gi++)
        for (int ai = 0; ai < o.accums.n && rc == 0; ai++)
            for (int bi = 0; bi < o.batches.n && rc == 0; bi++) {
                rc = measure_point(&base, o.gpus.v[gi], o.accums.v[ai], o.batches.v[bi], workload,
                                   type, &cs, &err);
                if (rc < 0 && o.keep_going) {
                    fprintf(stderr,
                            "mlsched profile run: %d GPU(s), batch %d, accum %d: %s "
                            "(left out: --keep-going)\n",
                            o.gpus.v[gi], o.batches.v[bi], o.accums.v[ai], err.msg);
                    char one[64];
                    snprintf(one, sizeof one, "%s%dx%d/a%d", failed++ ? " " : "", o.gpus.v[gi],
                             o.batches.v[bi], o.accums.v[ai]);
                    strncat(failures, one, sizeof failures - strlen(failures) - 1);
                    rc = 0;
                }
            }
    if (failed)
        curves_set_meta(&cs, -1, "failed_points", failures);
    if (rc == 0 && cs.n == 0)
        rc = mls_fail(&err, "every point failed: nothing to write");
    if (rc == 0)
        rc = curves_write(&cs, o.out, &err);
    if (rc < 0)
        fprintf(stderr, "mlsched profile run: %s\n", err.msg);
    else
        fprintf(stderr, "mlsched profile run: %zu point(s) written to %s\n", cs.n, o.out);
    curves_free(&cs);
    if (have_re)
        progress_regex_free(&re);
    nvml_close(nv);
    return rc == 0 ? MLS_EXIT_OK : MLS_EXIT_FAIL;
}

/* ---- fit ------------------------------------------------------------------------ */

static int parse_size(const char *s, int64_t *bytes)
{
    char num[64];
    const char *u = s;
    while (*u && (strchr("0123456789.eE+-", *u)))
        u++;
    size_t nl = (size_t)(u - s);
    if (!nl || nl >= sizeof num)
        return -1;
    memcpy(num, s, nl);
    num[nl] = '\0';
    double v, scale = 1;
    if (mls_parse_double(num, &v) < 0 || !(v > 0))
        return -1;
    if (!strcmp(u, "GiB"))
        scale = 1024.0 * 1024 * 1024;
    else if (!strcmp(u, "GB"))
        scale = 1e9;
    else if (!strcmp(u, "MiB"))
        scale = 1024.0 * 1024;
    else if (!strcmp(u, "MB"))
        scale = 1e6;
    else if (*u)
        return -1;
    *bytes = (int64_t)(v * scale);
    return 0;
}

static void print_fits(const curve_catalog_t *cat)
{
    printf("%-38s %-6s %4s %9s %9s %11s %11s %6s %s\n", "workload", "gpu", "rows", "med.err%",
           "max.err%", "alpha_grad", "beta_grad", "gamma", "sync");
    for (size_t i = 0; i < cat->n_fits; i++) {
        const curve_fit_t *f = &cat->fits[i];
        printf("%-38s %-6s %4d %9.2f %9.2f %11.4g %11.4g %6.2f %s\n", f->workload, f->gpu_type,
               f->rows, 100 * f->rep.median_rel_err, 100 * f->rep.max_rel_err, f->p.alpha_grad,
               f->p.beta_grad, f->p.gamma,
               f->rep.identified_node    ? "node+local"
               : f->rep.identified_local ? "local"
                                         : "none (one GPU only: GPU counts scale linearly)");
    }
    for (size_t g = 0; g < cat->n_gpus; g++)
        if (!cat->gpus[g].mem_bytes)
            printf("note: %s: GPU memory unknown (no gpu_mem_bytes; --gpu-mem): batches above "
                   "the largest measured are refused\n",
                   cat->gpus[g].gpu_type);
}

/* samples/s of w alone on `gpus` GPUs of one node of gpu_type at batch m (no
 * accumulation), as measured; 0 when that point has no row. */
static double solo_rate(const curve_set_t *cs, const char *w, const char *gpu_type, int gpus,
                        int m)
{
    for (size_t i = 0; i < cs->n; i++) {
        const curve_row_t *r = &cs->rows[i];
        if (!strcmp(r->workload, w) && !strcmp(r->gpu_type, gpu_type) && r->num_gpus == gpus &&
            r->num_nodes == 1 && r->local_bsz == m && r->accum_steps == 1)
            return r->samples_per_s;
    }
    return 0;
}

/* Each pair's rates, and as a share of each member's rate alone at the same
 * batch when measured (their sum above 1: sharing beats taking turns). */
static void print_pairs(const curve_catalog_t *cat)
{
    const curve_set_t *cs = &cat->curves;
    if (!cs->n_pairs)
        return;
    printf("\n%-6s %4s %-30s %-30s %11s %11s %s\n", "gpu", "gpus", "workload_a@batch",
           "workload_b@batch", "a samples/s", "b samples/s", "share of alone (a + b)");
    for (size_t i = 0; i < cs->n_pairs; i++) {
        const curve_pair_t *p = &cs->pairs[i];
        char name[2][160], share[96] = "not measured alone at these batches";
        double x[2];
        for (int k = 0; k < 2; k++) {
            snprintf(name[k], sizeof name[k], "%s@%d", p->workload[k], p->local_bsz[k]);
            double alone = solo_rate(cs, p->workload[k], p->gpu_type, p->num_gpus, p->local_bsz[k]);
            x[k] = alone > 0 ? curves_pair_rate(p, k) / alone : 0;
        }
        if (x[0] > 0 && x[1] > 0)
            snprintf(share, sizeof share, "%.3f + %.3f = %.3f", x[0], x[1], x[0] + x[1]);
        printf("%-6s %4d %-30s %-30s %11.2f %11.2f %s\n", p->gpu_type, p->num_gpus, name[0],
               name[1], curves_pair_rate(p, 0), curves_pair_rate(p, 1), share);
    }
}

typedef struct fit_opts {
    const char *out;
    opt_list_t mem;
    int quiet;
} fit_opts_t;

static int gpu_mem_call(void *base, size_t off, const char *arg, const char *who)
{
    opt_list_t *l = (opt_list_t *)((char *)base + off);
    (void)who;
    if (l->n == MAX_POINTS || !strchr(arg, '='))
        return -1;
    l->v[l->n++] = arg;
    return 0;
}

static const opt_t fit_options[] = {
    OPT_STRING("output", 'o', "CATALOG", fit_opts_t, out, "where to write (required)"),
    OPT_CALL("gpu-mem", 0, "TYPE=SIZE", fit_opts_t, mem, gpu_mem_call,
             "--gpu-mem wants TYPE=SIZE, got '%s'",
             "per-GPU memory of a type (bytes, or 80GiB, 16GB, ...)\n"
             "when the curve files carry no gpu_mem_bytes (repeatable)"),
    OPT_FLAG("quiet", 'q', fit_opts_t, quiet, "no table"), OPT_END_ROW};

static const opt_cmd_t fit_cmd = {
    .who = "profile fit",
    .usage = "CURVES... [PAIRS...] -o CATALOG [--gpu-mem TYPE=SIZE]...",
    .about = "Reads curve files, fits Pollux's iteration-time model (T_iter = s*T_grad +\n"
             "(T_grad^g + T_sync^g)^(1/g)) to each workload x GPU type with >= 3 rows, and\n"
             "writes the curves and the fits into one JSON catalog that\n"
             "`mlsched simulate --throughputs CATALOG` loads (the curves perf backend; work in\n"
             "samples). Prints each fit's median and max relative error of iteration time.\n"
             "Pair-rate files (`# mlsched-pairs v1`: two jobs measured sharing GPUs) among\n"
             "the files go into the catalog's \"pairs\", so that packing policies can pair\n"
             "those workloads (profiler/README.md).",
    .opts = fit_options,
};

static int cmd_fit(int argc, char **argv)
{
    fit_opts_t o;
    memset(&o, 0, sizeof o);
    int optind, prc = opt_parse(&fit_cmd, &o, argc, argv, &optind);
    if (prc)
        return prc < 0 ? MLS_EXIT_OK : prc;
    const char *out = o.out;
    const char *const *mem_args = o.mem.v;
    int n_mem = (int)o.mem.n, quiet = o.quiet;
    if (!out)
        return usage_error("fit", "-o CATALOG is required", NULL);
    if (optind >= argc)
        return usage_error("fit", "no curve files given", NULL);
    int64_t mem_bytes[MAX_POINTS];
    for (int i = 0; i < n_mem; i++)
        if (parse_size(strchr(mem_args[i], '=') + 1, &mem_bytes[i]) < 0)
            return usage_error("fit", "--gpu-mem wants a size like 85520809984, 80GiB or 16GB, got",
                               mem_args[i]);
    mls_err_t err = {{0}};
    curve_set_t cs;
    curve_catalog_t cat;
    curves_init(&cs);
    catalog_init(&cat);
    int rc = 0;
    for (int i = optind; i < argc && rc == 0; i++)
        rc = curves_read(&cs, argv[i], &err);
    if (rc == 0)
        rc = catalog_build(&cat, &cs, 1, &err);
    for (int i = 0; i < n_mem && rc == 0; i++) {
        char type[32];
        size_t tl = (size_t)(strchr(mem_args[i], '=') - mem_args[i]);
        snprintf(type, sizeof type, "%.*s", (int)tl, mem_args[i]);
        catalog_set_gpu_mem(&cat, type, mem_bytes[i]);
    }
    if (rc == 0)
        rc = catalog_write(&cat, out, &err);
    if (rc == 0 && !quiet) {
        print_fits(&cat);
        print_pairs(&cat);
    }
    if (rc < 0)
        fprintf(stderr, "mlsched profile fit: %s\n", err.msg);
    curves_free(&cs);
    catalog_free(&cat);
    return rc == 0 ? MLS_EXIT_OK : MLS_EXIT_FAIL;
}

/* ---- builtin -------------------------------------------------------------------- */

static const char *const builtin_workloads[] = {"transformer", "resnet", "recsys", "allreduce"};

static void builtin_help(void)
{
    printf("usage: mlsched profile builtin [--workload transformer|resnet|recsys|allreduce] "
           "[ARGS...]\n"
           "\n"
           "Runs a built-in CUDA workload of mlsched-gpu-bench with ARGS (its options:\n"
           "mlsched profile builtin --workload W --help):\n"
           "  transformer  Transformer encoder, cuBLAS bf16 (the default)\n"
           "  resnet       ResNet-18/50-style conv + batch-norm + ReLU stack, cuDNN fp32/TF32\n"
           "  recsys       DLRM-like embedding gathers / scatter-add + MLPs, cuBLAS fp32\n"
           "  allreduce    NCCL all-reduce of gradient sizes across the visible GPUs\n"
           "each forward + backward + optimizer step, e.g.\n"
           "    mlsched profile builtin --batch-sizes 8,16,32 --iters 40 --warmup 10 > h100.csv\n"
           "    mlsched profile builtin --workload resnet --depth 18 --batch-sizes 64,128\n"
           "    mlsched profile builtin --workload resnet --self-test\n"
           "It writes a curve file to stdout. It is built with the rest of mlsched when\n"
           "configure finds nvcc:\n"
           "    ./configure --with-cuda[=/usr/local/cuda] [NVCC_ARCH=sm_90] && make\n"
           "and looked for beside the mlsched binary, then on PATH.\n");
}

static int find_bench(char *path, size_t n)
{
    char self[4096];
    ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
    if (len > 0) {
        self[len] = '\0';
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = '\0';
            snprintf(path, n, "%s/mlsched-gpu-bench", self);
            if (access(path, X_OK) == 0)
                return 0;
        }
    }
    const char *env = getenv("PATH");
    char buf[4096];
    snprintf(buf, sizeof buf, "%s", env ? env : "");
    for (char *save = NULL, *dir = strtok_r(buf, ":", &save); dir;
         dir = strtok_r(NULL, ":", &save)) {
        snprintf(path, n, "%s/mlsched-gpu-bench", dir);
        if (access(path, X_OK) == 0)
            return 0;
    }
    return -1;
}

/* --workload NAME (or --workload=NAME) anywhere in argv: NAME, taken out of argv;
 * NULL when absent, "" when malformed */
static const char *take_workload(int *argc, char **argv)
{
    const char *name = NULL;
    for (int i = 1; i < *argc; i++) {
        int width = 1;
        if (!strcmp(argv[i], "--workload")) {
            name = i + 1 < *argc ? argv[i + 1] : "";
            width = i + 1 < *argc ? 2 : 1;
        } else if (!strncmp(argv[i], "--workload=", 11)) {
            name = argv[i] + 11;
        } else {
            continue;
        }
        memmove(argv + i, argv + i + width, (size_t)(*argc - i - width + 1) * sizeof *argv);
        *argc -= width;
        i--;
    }
    return name;
}

static int cmd_builtin(int argc, char **argv)
{
    const char *workload = take_workload(&argc, argv);
    if (!workload && argc > 1 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
        builtin_help();
        return MLS_EXIT_OK;
    }
    int known = !workload;
    for (size_t i = 0; workload && i < sizeof builtin_workloads / sizeof *builtin_workloads; i++)
        known |= !strcmp(workload, builtin_workloads[i]);
    if (!known)
        return usage_error("builtin",
                           "--workload wants transformer, resnet, recsys or allreduce, got",
                           *workload ? workload : "nothing");
    char path[4200];
    if (find_bench(path, sizeof path) < 0) {
        fprintf(stderr,
                "mlsched profile builtin: mlsched-gpu-bench was not built (configure found no "
                "nvcc).\nBuild it with: ./configure --with-cuda[=PATH] && make, or by hand:\n"
                "    nvcc -O2 -arch=sm_90 -o mlsched-gpu-bench profiler/cuda/*.cu "
                "-lcublas -lcudnn -lnccl\n");
        return MLS_EXIT_FAIL;
    }
    /* mlsched-gpu-bench WORKLOAD ARGS... (argv[argc] is NULL) */
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args) {
        perror("mlsched profile builtin");
        return MLS_EXIT_FAIL;
    }
    int n = 0;
    args[n++] = path;
    args[n++] = (char *)(workload ? workload : "transformer");
    for (int i = 1; i < argc; i++)
        args[n++] = argv[i];
    args[n] = NULL;
    fflush(NULL);
    execv(path, args);
    perror("mlsched profile builtin: exec mlsched-gpu-bench");
    free(args);
    return MLS_EXIT_FAIL;
}

/* ---- the command ----------------------------------------------------------------- */

static const cmd_verb_t verbs[] = {
    {"run", "measure a training command's throughput curve (wrap mode)", cmd_run},
    {"fit", "fit Pollux's model to curve files; write a simulator catalog", cmd_fit},
    {"builtin", "run a built-in CUDA workload (mlsched-gpu-bench)", cmd_builtin},
};

static void profile_help(FILE *out)
{
    fprintf(out, "usage: mlsched profile <verb> [options]   (mlsched profile <verb> --help)\n\n"
                 "verbs:\n");
    cmd_list_verbs(out, verbs, sizeof verbs / sizeof verbs[0], 8);
}

static int profile_exec(int argc, char **argv)
{
    return cmd_run_verb("profile", verbs, sizeof verbs / sizeof verbs[0], profile_help, argc,
                        argv);
}

const cmd_entry_t cmd_profile_entry = {"profile", "measure throughput curves (run, fit, builtin)",
                                       profile_exec};
