#!/bin/sh
# live_placement.sh: `live serve --placement` is the simulator's setting. On
# tests/fixtures/placement/split.csv (v100=2x4: jobs 0 and 1 leave one free GPU
# per node when a 2-GPU LM job arrives at t = 10 s), run as fake jobs at time
# scale 2000 by two daemons side by side: under spread the LM job starts at once
# over both nodes, under consolidate it waits for job 0's node (t ~ 5020 s), as
# `simulate --placement` does (tests/placement.sh), and spread it runs at the
# spread rate (~4,340 s against ~1,000 s on one node). Each daemon records its
# setting in the state db's meta; a bad value is a usage error. ~10 s.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/live_lib.sh"
test_init place sqlite3
tr="$SRCDIR/tests/fixtures/placement/split.csv"
for m in spread consolidate; do
    live_serve $m --cluster v100=2x4 --policy fifo --round 0 --placement $m --time-scale 2000 -q
done
for m in spread consolidate; do
    live_up $m
    live_submit_trace "$tmp/$m/sock" "$tr"
done
for m in spread consolidate; do live_down $m; done
start() { sqlite3 "$tmp/$1.db" "SELECT CAST(first_start - submit AS INT) FROM jobs WHERE gpus = 2"; }
ran() { sqlite3 "$tmp/$1.db" "SELECT CAST(finish - first_start AS INT) FROM jobs WHERE gpus = 2"; }
s=$(start spread)
c=$(start consolidate)
echo "LM job: spread waited ${s:-?} s, ran $(ran spread) s; consolidate ${c:-?} s, $(ran consolidate) s"
[ -n "$s" ] && [ "$s" -lt 500 ] || bad "spread: the LM job waited ${s:-?} s, wanted to start at once"
[ -n "$c" ] && [ "$c" -gt 4000 ] || bad "consolidate: the LM job waited ${c:-?} s, wanted ~5010 (job 0's end)"
# over two nodes at the table's spread rate (30.44 it/s, ~4,340 s), on one at 132.2 (~1,000 s)
[ "$(ran spread)" -gt 3000 ] && [ "$(ran consolidate)" -lt 2000 ] ||
    bad "the LM job ran $(ran spread) s spread and $(ran consolidate) s consolidated"
for m in spread consolidate; do
    v=$(sqlite3 "$tmp/$m.db" "SELECT value FROM meta WHERE key = 'placement'")
    [ "$v" = $m ] || bad "$m daemon recorded placement '$v'"
done
"$MLSCHED" live serve --cluster v100=2x4 --policy fifo --placement packed --state "$tmp/x.db" \
    --socket "$tmp/x/sock" >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 2 ] && grep -q -- "--placement wants spread, consolidate, auto or hold" "$tmp/err" ||
    bad "a bad --placement exited $rc: $(cat "$tmp/err")"
[ $fail -eq 0 ] && echo "live_placement.sh: all checks passed"
exit $fail
