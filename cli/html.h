/* html.h: one self-contained HTML page that explains a set of runs.
 *
 * `report --html DIR` and `compare --html DIR` write DIR/index.html: the
 * comparison table (sortable by a click on a column: a few lines of inline
 * script, nothing fetched), every figure of `mlsched plot` inlined as SVG,
 * the runs' parameters (those shared by every run once, the others per run),
 * and per run a diagnostics list (sim/diagnose.h) that points a surprising
 * number at its cause. The page opens from a file with no network; the
 * figures' data and gnuplot scripts stay beside it in DIR/figures. */
#ifndef MLS_HTML_H
#define MLS_HTML_H

#include "model/util.h"
#include "sim/results.h"

typedef struct html_req {
    const char *db, *dir;
    const char *baseline; /* relate metrics and bars to it; NULL: none */
    result_filter_t f;    /* the runs */
    unsigned by;          /* grouping of the table (RES_BY_*) */
    const char *title;    /* what the page is about; NULL: the database's path */
} html_req_t;

/* Writes r->dir/index.html (and r->dir/figures/). Returns 0, or -1 with a
 * message (no run matches, the database or a file cannot be read/written).
 * A figure gnuplot cannot draw is left out with its reason on stdout. */
int html_report(const html_req_t *r, mls_err_t *err);

#endif
