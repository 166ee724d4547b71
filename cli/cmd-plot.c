/* cmd-plot.c: `mlsched plot` — paper-style figures from a results database.
 *
 * The command line of the figures drawn by plot.c: which runs (policies,
 * label, run ids), which format, the baseline of the relative bars, and the
 * timeline's time axis. Each figure's data and gnuplot script are written
 * beside it, so `gnuplot DIR/jct_cdf.gp` redraws it after a restyle. */
#include "cli/cmd.h"
#include "cli/dbinput.h"
#include "cli/opts.h"
#include "cli/plot.h"

#include <stdio.h>
#include <string.h>

static const opt_t options[] = {
    OPT_SHARED_DB(plot_req_t, db, "results database, or a live state database (its run)"),
    OPT_STRING("out", 'o', "DIR", plot_req_t, out_dir,
               "where figures, data and scripts go (created)"),
    OPT_STRING("format", 'f', "F", plot_req_t, format,
               "png (default), svg or pdf (3.3in paper column)"),
    OPT_STRING("baseline", 'b', "P", plot_req_t, baseline,
               "baseline policy for relative bars (default fifo)"),
    OPT_STRING("policies", 'p', "LIST", plot_req_t, policies,
               "only these policies: a comma list of names or\n"
               "patterns (* ? [...]), e.g. fifo,las,themis*"),
    OPT_STRING("label", 'l', "GLOB", plot_req_t, f.label, "only runs whose label matches"),
    OPT_CALL("runs", 0, "LO:HI", plot_req_t, f, db_input_parse_runs,
             "--runs wants LO:HI with 1 <= LO <= HI, got '%s'", "only run ids in [LO, HI]"),
    OPT_FLAG("log-time", 0, plot_req_t, log_time, "timeline and user shares on a log time axis"),
    OPT_FLAG("full-time", 0, plot_req_t, full_time,
             "timeline to the end of the runs (default: to the\n"
             "99th-percentile finish of the measured jobs)"),
    OPT_END_ROW};

static const opt_cmd_t command = {
    .who = "plot",
    .usage = "--db FILE --out DIR [--format png|svg|pdf] [--baseline P]\n"
             "                    [--policies LIST] [--label GLOB] [--runs LO:HI]",
    .about = "Draws paper-style figures with gnuplot: JCT CDF, finish-time fairness CDF,\n"
             "GPU utilization and queue length over time (one line per policy: its first\n"
             "run; one panel per policy beyond six), metrics relative to a baseline policy\n"
             "(mean over seeds; a log axis when one bar dominates), average JCT vs load\n"
             "with 95% confidence bands (runs labelled rate=R, as sweep does), and each\n"
             "user's share of the GPUs over time (the baseline's run).\n"
             "A policy has the same colour, dash and marker in every figure and every\n"
             "experiment (families share a hue); series with identical data say so in the\n"
             "key (\"= fifo\"). Each figure's data and gnuplot script are written beside\n"
             "it: edit the script and run `gnuplot NAME.gp` in DIR to restyle.",
    .opts = options,
    .footer = "Exit status: 0 drawn (a figure that cannot be drawn is skipped with its\n"
              "reason), 1 the database cannot be read or no run matches, 2 usage.",
};

static int exec_plot(int argc, char **argv)
{
    plot_req_t r;
    memset(&r, 0, sizeof r);
    r.format = "png";
    r.baseline = "fifo";
    int prc = opt_parse_only(&command, &r, argc, argv);
    if (prc)
        return prc < 0 ? MLS_EXIT_OK : prc;
    if (!r.db || !r.out_dir ||
        (strcmp(r.format, "png") && strcmp(r.format, "svg") && strcmp(r.format, "pdf")))
        return cmd_usage_error("plot", "%s",
                               "--db and --out are required; --format png, svg or pdf");
    mls_err_t err = {{0}};
    db_input_t in;
    int rc = db_input_open(&r.db, 1, &in, &err);
    if (rc == 0) {
        r.db = in.path; /* a live state database: its run, exported */
        rc = plot_draw(&r, &err);
        db_input_close(&in);
    }
    if (rc < 0) {
        fprintf(stderr, "mlsched plot: %s\n", err.msg);
        return MLS_EXIT_FAIL;
    }
    return MLS_EXIT_OK;
}

const cmd_entry_t cmd_plot_entry = {"plot", "draw paper-style figures from a results database",
                                    exec_plot};
