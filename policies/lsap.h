/* lsap.h: the rectangular linear sum assignment problem (every row to a
 * distinct column, least total cost) by shortest augmenting paths, with the
 * tie rules of scipy.optimize.linear_sum_assignment (SciPy 1.4 and later).
 *
 * Why: Gavel's AlloX (scheduler/policies/allox.py) matches jobs to
 * (worker, position) columns with scipy's solver, and its matrices are full
 * of equal costs (the workers of one type give identical columns), so which
 * optimum comes back decides which job runs first on a worker. A solver of
 * our own that makes the same choices gives Gavel's schedule; any other
 * optimum gives the same total cost but another schedule.
 *
 * The algorithm is the one Crouse describes ("On implementing 2D rectangular
 * assignment algorithms", IEEE TAES 52(4), 2016, pages 1685-1686): rows are
 * added one at a time, each by a Dijkstra search for the cheapest augmenting
 * path on reduced costs, then the duals are updated and the path flipped.
 * The choices that fix which optimum is found, as SciPy makes them: the
 * columns a search has not reached are scanned from the last column down at
 * the start of each search, a reached column taking the place of the last
 * unreached one; a reduced distance replaces a column's label only when
 * strictly smaller; of equally distant columns the first scanned is taken,
 * unless a later one is unassigned (the last unassigned one scanned wins);
 * the arithmetic is the same, term by term, so equal floating-point inputs
 * give equal labels.
 *
 * Promises: nr <= nc; costs finite (or +INFINITY for a forbidden pair);
 * returns 0 and fills col_of[nr], or -1 with a message when no assignment
 * avoids the forbidden pairs. O(nr^2 nc) at worst, O(nr nc) per row in
 * practice. The cost matrix is read a row at a time through row_cost, so it
 * need not be stored. */
#ifndef MLS_LSAP_H
#define MLS_LSAP_H

#include <stddef.h>

/* Writes the nc costs of row i into out. */
typedef void (*lsap_row_fn)(const void *ctx, int i, double *out);

int lsap_solve(int nr, int nc, lsap_row_fn row_cost, const void *ctx, int *col_of, char *err,
               size_t errlen);

#endif
