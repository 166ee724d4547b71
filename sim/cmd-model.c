/* cmd-model.c: `mlsched model fit`, the Pollux catalog from published
 * profiles (sim/pollux_catalog.h), with the fit error of every workload and
 * GPU type on stdout. The catalog it writes is what the pollux perf backend
 * reads (--throughputs FILE); traces/catalog/pollux.json is its output on
 * ../shared/data. */
#include "cmd.h"
#include "pollux_catalog.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(FILE *out)
{
    fprintf(out,
            "usage: mlsched model fit --pollux DIR [--sia DIR] [-o FILE]\n\n"
            "Fits Pollux's iteration-time model (OSDI 2021, 3.2) to every profile and\n"
            "writes the pollux perf catalog (JSON; see README, \"Perf model\").\n\n"
            "  --pollux DIR   Pollux profiles: DIR/<app>/placements.csv, validation-<B>.csv\n"
            "                 (e.g. ../shared/data/pollux/profiles); GPU type t4\n"
            "  --sia DIR      Sia profiles: DIR/<app>/placements-<cluster>.csv for the\n"
            "                 v100, a100, rtx6000 and rtx2080ti types (optional)\n"
            "  -o, --output FILE  catalog to write (default: stdout)\n"
            "  -q, --quiet    no fit table\n"
            "  -h, --help     show this help\n");
}

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
    static const struct option opts[] = {{"pollux", required_argument, 0, 'P'},
                                         {"sia", required_argument, 0, 'S'},
                                         {"output", required_argument, 0, 'o'},
                                         {"quiet", no_argument, 0, 'q'},
                                         {"help", no_argument, 0, 'h'},
                                         {0, 0, 0, 0}};
    const char *pollux = NULL, *sia = NULL, *output = NULL;
    int quiet = 0, c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "o:qh", opts, NULL)) != -1) {
        switch (c) {
        case 'P': pollux = optarg; break;
        case 'S': sia = optarg; break;
        case 'o': output = optarg; break;
        case 'q': quiet = 1; break;
        case 'h': usage(stdout); return MLS_EXIT_OK;
        default: usage(stderr); return MLS_EXIT_USAGE;
        }
    }
    if (!pollux || optind != argc) {
        usage(stderr);
        return MLS_EXIT_USAGE;
    }
    pollux_fit_row_t rows[64];
    size_t n = 0;
    mls_err_t err = {{0}};
    char *text = pollux_catalog_build(pollux, sia, rows, 64, &n, &err);
    if (!text) {
        fprintf(stderr, "mlsched model fit: %s\n", err.msg);
        return MLS_EXIT_FAIL;
    }
    int rc = MLS_EXIT_OK;
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

static int cmd_model(int argc, char **argv)
{
    if (argc < 2 || !strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        usage(argc < 2 ? stderr : stdout);
        return argc < 2 ? MLS_EXIT_USAGE : MLS_EXIT_OK;
    }
    if (!strcmp(argv[1], "fit"))
        return model_fit(argc - 1, argv + 1);
    fprintf(stderr, "mlsched model: unknown subcommand '%s' (fit)\n", argv[1]);
    return MLS_EXIT_USAGE;
}

const cmd_entry_t cmd_model_entry = {"model", "fit the Pollux perf catalog from profiles",
                                     cmd_model};
