#!/bin/sh
# gavel_fifo.sh: `gavel-fifo` behaves as Gavel's fifo.py, not as a FIFO. On
# tests/fixtures/gavel_fifo/overalloc.csv (v100=1x2,k80=1x4, a 1-GPU and a
# 2-GPU job) the 2-GPU job is given the v100 that has one GPU left, so both
# share the two v100 round by round (preempting each other) and no k80 is
# ever used; fifo-perf runs them at once on three GPUs without preemption.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/test_lib.sh"
test_init gavelfifo
for p in gavel-fifo fifo-perf; do
    "$MLSCHED" simulate --trace "$SRCDIR/tests/fixtures/gavel_fifo/overalloc.csv" \
        --cluster v100=1x2,k80=1x4 --policy $p --like gavel -q --db "$tmp/r.db" >/dev/null ||
        bad "simulate $p exited $?"
done
q() { sqlite3 "$tmp/r.db" "$1"; }
[ "$(q "SELECT max(busy_gpus) FROM timeline WHERE run_id=1")" = 2 ] ||
    bad "gavel-fifo used $(q "SELECT max(busy_gpus) FROM timeline WHERE run_id=1") GPUs at once, wanted 2 (the v100 only)"
[ "$(q "SELECT min(preemptions) >= 2 FROM jobs WHERE run_id=1")" = 1 ] ||
    bad "gavel-fifo: the over-allocated jobs did not take turns: $(q "SELECT preemptions FROM jobs WHERE run_id=1")"
[ "$(q "SELECT max(busy_gpus) FROM timeline WHERE run_id=2")" = 3 ] &&
    [ "$(q "SELECT sum(preemptions) FROM jobs WHERE run_id=2")" = 0 ] || bad "fifo-perf's reference run"
[ $fail -eq 0 ] && echo "gavel_fifo.sh: all checks passed"
exit $fail
