/* cmd-model.c: `mlsched model fit`, the Pollux catalog from published
 * profiles (model/pollux_catalog.h), with the fit error of every workload and
 * GPU type on stdout. The catalog it writes is what the pollux perf backend
 * reads (--throughputs FILE); traces/catalog/pollux.json is its output on
 * ../shared/data. */
#include "cli/cmd.h"
#include "cli/opts.h"
#include "model/pollux_catalog.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct fit_opts {
    const char *pollux, *sia, *output;
    int quiet;
} fit_opts_t;

static const opt_t fit_options[] = {
    OPT_STRING("pollux", 0, "DIR", fit_opts_t, pollux,
               "Pollux profiles: DIR/<app>/placements.csv, validation-<B>.csv\n"
               "(e.g. ../shared/data/pollux/profiles); GPU type t4"),
    OPT_STRING("sia", 0, "DIR", fit_opts_t, sia,
               "Sia profiles: DIR/<app>/placements-<cluster>.csv for the\n"
               "v100, a100, rtx6000 and rtx2080ti types (optional)"),
    OPT_STRING("output", 'o', "FILE", fit_opts_t, output, "catalog to write (default: stdout)"),
    OPT_FLAG("quiet", 'q', fit_opts_t, quiet, "no fit table"), OPT_END_ROW};

static const opt_cmd_t fit_cmd = {
    .who = "model fit",
    .usage = "--pollux DIR [--sia DIR] [-o FILE]",
    .about = "Fits Pollux's iteration-time model (OSDI 2021, 3.2) to every profile and\n"
             "writes the pollux perf catalog (JSON; see docs/simulate.md, \"Perf model\").",
    .opts = fit_options,
};

static int write_text(const char *path, const char *text)
{
    mls_err_t err = {{0}};
    if (mls_write_text_file(path, text, &err) < 0) {
        fprintf(stderr, "mlsched model: %s\n", err.msg);
        return -1;
    }
    return 0;
}

static int model_fit(int argc, char **argv)
{
    fit_opts_t o = {NULL, NULL, NULL, 0};
    int rc = opt_parse_only(&fit_cmd, &o, argc, argv);
    if (rc)
        return rc < 0 ? MLS_EXIT_OK : rc;
    if (!o.pollux)
        return cmd_usage_error("model fit", "%s", "--pollux DIR is required");
    const char *pollux = o.pollux, *sia = o.sia, *output = o.output;
    int quiet = o.quiet;
    pollux_fit_row_t rows[64];
    size_t n = 0;
    mls_err_t err = {{0}};
    char *text = pollux_catalog_build(pollux, sia, rows, 64, &n, &err);
    if (!text) {
        fprintf(stderr, "mlsched model fit: %s\n", err.msg);
        return MLS_EXIT_FAIL;
    }
    rc = MLS_EXIT_OK;
    if (output)
        rc = write_text(output, text) < 0 ? MLS_EXIT_FAIL : MLS_EXIT_OK;
    else
        printf("%s\n", text);
    free(text);
    FILE *out = output ? stdout : stderr;
    for (size_t i = 0; !quiet && i < n; i++)
        fprintf(out,
                "%-12s %-10s %5zu samples  median rel. error %5.2f %%  max %6.2f %%  "
                "gamma %.2f\n",
                rows[i].app, rows[i].type, rows[i].samples, 100 * rows[i].rep.median_rel_err,
                100 * rows[i].rep.max_rel_err, rows[i].params.gamma);
    return rc;
}

static const cmd_verb_t verbs[] = {
    {"fit", "fit Pollux's model to profiles, write the pollux perf catalog", model_fit},
};

static void usage(FILE *out)
{
    fprintf(out, "usage: mlsched model <verb> [options]   (mlsched model <verb> --help)\n\n"
                 "verbs:\n");
    cmd_list_verbs(out, verbs, sizeof verbs / sizeof verbs[0], 4);
}

static int cmd_model(int argc, char **argv)
{
    return cmd_run_verb("model", verbs, sizeof verbs / sizeof verbs[0], usage, argc, argv);
}

const cmd_entry_t cmd_model_entry = {"model", "fit the Pollux perf catalog from profiles",
                                     cmd_model};
