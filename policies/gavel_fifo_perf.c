/* gavel_fifo_perf.c: heterogeneity-aware FIFO through Gavel's rounds.
 *
 * Narayanan et al., OSDI 2020 (its FIFO baseline in "perf" mode): jobs in
 * arrival order each get X = 1 on the fastest type (profiled throughput) that
 * still has room for them; the first job that fits nowhere ends the pass (no
 * job overtakes it). As in Gavel's mechanism for FIFO, rows with X = 0 are
 * never scheduled, so a job waits for the next recompute. Not an LP; shares
 * the driver. Simplifications: see gavel.c. */
#include "policies/gavel.h"
#include "policies/policies.h"

GAVEL_POLICY(gavel_fifo_perf, GV_FIFO_PERF, "fifo-perf")
