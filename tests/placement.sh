#!/bin/sh
# placement.sh: --placement on simulate, compare and sweep. On
# tests/fixtures/placement/split.csv (v100=2x4, one free GPU per node when a
# 2-GPU LM job arrives at t = 10 s) `spread` starts it over both nodes at once,
# at the unconsolidated rate; `consolidate` makes it wait for job 0's node
# (t = 5020 s); `auto` makes it wait too (the table rates it 77 % slower over
# two nodes) but spreads a 2-GPU ResNet-18 job at once (+2 % over two nodes).
# `hold` (Helios): on v100=3x4 with one free GPU per node, a 1-GPU job queued
# behind the waiting 2-GPU job starts at once under consolidate (t = 20 s)
# and waits behind it under hold (the queue stops at the first job the placer
# cannot place). The setting is stored in run_settings; compare and sweep pass it to every
# run; a bad value is a usage error naming the option.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/test_lib.sh"
test_init placement
q() { sqlite3 "$tmp/r.db" "$1"; }
tr="$SRCDIR/tests/fixtures/placement/split.csv"
sim() { "$MLSCHED" simulate --trace "$tr" --cluster v100=2x4 --policy fifo -q --db "$tmp/r.db" "$@" >/dev/null ||
    bad "simulate $* exited $?"; }

sim --placement spread
sim --placement consolidate
sim
sim --placement auto
sed 's/LM (batch size 20),2,132200/ResNet-18 (batch size 128),2,23990/' "$tr" >"$tmp/r18.csv"
cp "$tr" "$tmp/lm.csv"
tr="$tmp/r18.csv"
sim --placement auto
tr="$tmp/lm.csv"
start() { q "SELECT CAST(first_start AS INT) FROM jobs WHERE run_id=$1 AND job_id=2"; }
setting() { q "SELECT value FROM run_settings WHERE run_id=$1 AND key='$2'"; }
[ "$(start 1)" = 10 ] || bad "spread: job 2 started at $(start 1), wanted 10 (over two nodes)"
[ "$(start 2)" = 5020 ] || bad "consolidate: job 2 started at $(start 2), wanted 5020 (one node)"
[ "$(setting 1 placement)" = spread ] || bad "run 1 placement '$(setting 1 placement)'"
[ "$(setting 2 placement)" = consolidate ] || bad "run 2 placement '$(setting 2 placement)'"
[ -n "$(setting 3 placement)" ] || bad "the default placement is not recorded"
[ "$(start 4)" = 5020 ] || bad "auto: LM started at $(start 4), wanted 5020 (-77 % spread)"
[ "$(start 5)" = 10 ] || bad "auto: ResNet-18 started at $(start 5), wanted 10 (+2 % spread)"
[ "$(setting 4 placement)" = auto ] || bad "run 4 placement '$(setting 4 placement)'"

{
    grep -v '^#' "$tr" | sed 's/^2,10,/3,10,/; /^1,0,/p; s/^1,0,/2,0,/'
    echo "4,20,u,ResNet-18 (batch size 128),1,1000"
} >"$tmp/hold.csv"
for m in consolidate hold; do
    "$MLSCHED" simulate --trace "$tmp/hold.csv" --cluster v100=3x4 --policy fifo --placement $m \
        -q --db "$tmp/h.db" >/dev/null || bad "simulate --placement $m exited $?"
done
h4() { sqlite3 "$tmp/h.db" "SELECT CAST(first_start AS INT) FROM jobs WHERE run_id=$1 AND job_id=4"; }
h3() { sqlite3 "$tmp/h.db" "SELECT CAST(first_start AS INT) FROM jobs WHERE run_id=$1 AND job_id=3"; }
[ "$(h4 1)" = 20 ] || bad "consolidate: the 1-GPU job started at $(h4 1), wanted 20"
[ "$(h4 2)" -ge "$(h3 2)" ] && [ "$(h3 2)" -gt 1000 ] ||
    bad "hold: the 1-GPU job started at $(h4 2), before the waiting 2-GPU job ($(h3 2))"
[ "$(sqlite3 "$tmp/h.db" "SELECT value FROM run_settings WHERE run_id=2 AND key='placement'")" = hold ] ||
    bad "hold is not recorded"

"$MLSCHED" simulate --trace "$tr" --cluster v100=2x4 --policy fifo --placement packed -q \
    2>"$tmp/err" >/dev/null
rc=$?
[ $rc = 2 ] && grep -q -- "--placement wants spread, consolidate, auto or hold" "$tmp/err" ||
    bad "a bad --placement exited $rc: $(cat "$tmp/err")"

"$MLSCHED" compare --trace "$tr" --cluster v100=2x4 --policies fifo --seeds 1 -q \
    --placement consolidate --db "$tmp/c.db" >/dev/null 2>"$tmp/err" || bad "compare: $(cat "$tmp/err")"
[ "$(sqlite3 "$tmp/c.db" "SELECT value FROM run_settings WHERE key='placement'")" = consolidate ] ||
    bad "compare did not pass --placement"
"$MLSCHED" sweep --trace "$tr" --cluster v100=2x4 --policies fifo --seeds 1 -q \
    --grid placement=spread,consolidate --db "$tmp/s.db" >/dev/null 2>"$tmp/err" ||
    bad "sweep: $(cat "$tmp/err")"
[ "$(sqlite3 "$tmp/s.db" "SELECT group_concat(value) FROM (SELECT value FROM run_settings
    WHERE key='placement' ORDER BY value)")" = consolidate,spread ] || bad "sweep's placement axis"
[ $fail -eq 0 ] && echo "placement.sh: all checks passed"
exit $fail
