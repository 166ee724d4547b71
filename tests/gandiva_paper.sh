#!/bin/sh
# gandiva_paper.sh: Gandiva's micro-benchmarks in spirit (scripts/gandiva-paper.sh,
# about 2 s): time-slicing six jobs on four GPUs keeps the four GPUs' throughput
# (>= 98 % of 4 busy GPUs, suspend-resume and starts included; fifo idles half
# the cluster for the second hour) and starts every job within one quantum;
# packing a light pair raises throughput (>= 1.4x, measured 1.58x) while a
# harmful pair is reverted after one quantum (within 2 % of never packing);
# migration starts a waiting 8-GPU job at once (one move) where without it the
# job waits (> 1 h); AutoML: the last early-stopped trial (40th) finishes >= 3x
# sooner than under fifo, and every trial gets its first feedback >= 10x sooner.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
out=$(MLSCHED="$MLSCHED" sh "$SRCDIR/scripts/gandiva-paper.sh")
rc=$?
[ $rc -eq 77 ] && { echo "$out"; exit 77; }
[ $rc -eq 0 ] || { echo "$out"; echo "FAIL: scripts/gandiva-paper.sh exited $rc"; exit 1; }
echo "$out"
fail=0
val() { echo "$out" | sed -n "s/^$1=//p"; }
check() { # KEY OP BOUND
    v=$(val "$1")
    if [ -z "$v" ] || ! awk -v v="$v" -v b="$3" -v op="$2" \
        'BEGIN { exit !((op == "ge" && v >= b) || (op == "le" && v <= b) || (op == "eq" && v == b)) }'; then
        echo "FAIL: $1=$v, wanted $2 $3"
        fail=1
    fi
}
check SLICE_OF_IDEAL ge 0.98
check SLICE_MAXWAIT_GANDIVA le 60
check SLICE_MAXWAIT_FIFO ge 3600
check PACK_LIGHT_GAIN ge 1.4
check PACK_HEAVY_GAIN ge 0.98
check PACK_HEAVY_GAIN le 1.0
check MIG_WAIT_ON eq 0
check MIG_MOVES_ON eq 1
check MIG_WAIT_OFF ge 3600
check AUTOML_40_SPEEDUP ge 3
check AUTOML_FIRST_FEEDBACK_SPEEDUP ge 10
[ $fail -eq 0 ] && echo "PASS: Gandiva's micro-benchmarks"
exit $fail
