/* gavel_fifo_packed.c: FIFO with packing through Gavel's rounds (`fifo-packed`).
 *
 * Narayanan et al., OSDI 2020: the FIFO baseline with space sharing, as Gavel's
 * code has it (stanford-futuredata/gavel c4fa400, scheduler/policies/fifo.py,
 * FIFOPolicyWithPacking, read, not copied). At each recompute the queue is
 * allocated as fifo-perf does (each job in arrival order on its fastest type
 * with room); then each job the pass did not reach, in order, is packed with
 * the allocated single job of its GPU count whose pair throughput, each
 * normalised by its isolated throughput on that job's type and summed, is the
 * highest above 1.5; the first job with no such partner ends the packing (no
 * job overtakes it). A pair takes its partner's X = 1. Rows with X = 0 never
 * run (Gavel's rule for FIFO); the types are visited v100, p100, k80 under
 * rules=gavel (Gavel does not shuffle for its Packing policies).
 * Simplifications: see gavel.c; pair throughputs are the perf model's
 * (view->perf->pair_throughput; a pair it refuses is not packed). */
#include "policies/gavel.h"
#include "policies/policies.h"

GAVEL_POLICY(gavel_fifo_packed, GV_FIFO_PACKED, "fifo-packed")
