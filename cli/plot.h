/* plot.h: paper-style figures of a results database, drawn with gnuplot.
 *
 * Used by `mlsched plot` (PNG, SVG or PDF files), by `compare --plots` and by
 * the HTML report (`report --html`, which inlines the SVG). For each figure
 * the data (whitespace tables, one block per policy) and a copy of its
 * gnuplot script from scripts/plots/, with the variables and the policies'
 * styles (plotstyle.h) defined at its top, are written beside it: editing
 * the script and running `gnuplot NAME.gp` redraws it. */
#ifndef MLS_PLOT_H
#define MLS_PLOT_H

#include "model/util.h"
#include "sim/results.h"

typedef struct plot_req {
    const char *db, *out_dir;
    const char *format;   /* "png", "svg" or "pdf" */
    const char *baseline; /* relative bars' baseline policy; NULL: none drawn */
    const char *policies; /* comma list of names or patterns (* ? [...]); NULL: all */
    result_filter_t f;    /* label, trace, cluster patterns and run range (its policy too) */
    int log_time;         /* timeline on a log time axis */
    int full_time;        /* timeline to the end of the runs (default: p99 finish) */
} plot_req_t;

/* The figures in the order they are drawn (file names without extension). */
#define PLOT_N_FIGURES 6
const char *plot_figure_name(int i);

/* Draws every figure the runs allow. A figure that cannot be drawn is skipped
 * with a one-line reason on stdout; returns -1 (with a message) only when the
 * database cannot be read, no run matches, or a file cannot be written. */
int plot_draw(const plot_req_t *r, mls_err_t *err);

#endif
