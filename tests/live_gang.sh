#!/bin/sh
# live_gang.sh: Pathways' gang scheduling live (local executor, fake jobs,
# time scale 100) on two islands of 8 GPUs (tests/fixtures/pathways): the
# pathways policy starts each program's computations together, each within
# one island, and the shared mechanism refuses anything else, exactly as in
# the simulator. Each job's JCT is compared with `mlsched simulate` on the
# same trace (mean per-job difference under 5 %); the computations of a gang
# start in the same decision; every job finishes exactly once. The trace's
# computations of one gang have equal durations: a real multi-component job
# moves in lockstep by itself (its computations exchange data every step),
# fake jobs do not, so the simulator's lockstep is not what is tested here
# (tests/pathways.sh does that).
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/live_lib.sh"
test_init gang sqlite3
live_sanitizer_skip "its gang starts run under the sanitizers in live_mech_crash.sh (and pathways in pathways.sh)"
fx="$SRCDIR/tests/fixtures/pathways"
trace=$fx/gang-live.csv cluster=$fx/islands.json
tp="$SRCDIR/traces/catalog/default-throughputs.json"
scale=${LIVE_TIME_SCALE:-100}

live_run live "$trace" "$tp" --cluster "$cluster" --throughputs "$tp" --policy pathways \
    --time-scale "$scale" -q

"$MLSCHED" simulate --trace "$trace" --cluster "$cluster" --throughputs "$tp" --policy pathways \
    -q --db "$tmp/sim.db" >/dev/null || bad "simulate failed"
n=$(sqlite3 "$tmp/live.db" "SELECT count(*) FROM jobs WHERE state='done' AND completions=1")
[ "$n" = 5 ] || bad "$n of 5 jobs done exactly once"
for g in "0,1" "2,3"; do
    n=$(sqlite3 "$tmp/live.db" "SELECT count(DISTINCT first_start) FROM jobs WHERE id IN ($g)")
    [ "$n" = 1 ] || bad "gang of jobs $g did not start in one decision"
done
n=$(sqlite3 "$tmp/live.db" "SELECT count(*) FROM decisions WHERE error IS NOT NULL")
[ "$n" = 0 ] || bad "$n plans refused: $(sqlite3 "$tmp/live.db" "SELECT error FROM decisions WHERE error IS NOT NULL LIMIT 1")"
live_jct_compare pathways "$tmp/live.db" "$tmp/sim.db" 5
[ $fail -eq 0 ] || exit 1
echo "live_gang: ok"
