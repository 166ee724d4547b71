#!/bin/sh
# live_exec.sh: the Python las (examples/policies/las.py, an exec: policy)
# runs live on the 8 fake jobs of tests/live_e2e.sh (local executor, time
# scale 100), and each job's JCT is compared with `mlsched simulate` of the
# C las on the same trace, as live_e2e.sh compares the C las: the mean
# per-job difference must stay under 10 % (exact ties of attained service a
# few ms can break the other way), and every job finishes exactly once.
# Needs live/daemon.c to take the resolved policy (live_config_t.ops);
# skips with that message when the daemon still looks names up itself.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/live_lib.sh"
test_init livex sqlite3 python3
trace="$SRCDIR/tests/fixtures/live/trace8.csv"
tp="$SRCDIR/traces/catalog/default-throughputs.json"
# LIVE_EXEC_POLICY=las runs the C las the same way, for reference
pol=${LIVE_EXEC_POLICY:-"exec:$SRCDIR/examples/policies/las.py"}
live_run live "$trace" "$tp" --cluster v100=1x4 --throughputs "$tp" --policy "$pol" \
    --time-scale "${LIVE_TIME_SCALE:-100}" -q
"$MLSCHED" simulate --trace "$trace" --cluster v100=1x4 --throughputs "$tp" --policy las -q \
    --db "$tmp/sim.db" >/dev/null || bad "simulate las failed"
want=$(grep -c '^[0-9]' "$trace")
n=$(sqlite3 "$tmp/live.db" "SELECT count(*) FROM jobs WHERE state='done' AND completions=1")
[ "$n" = "$want" ] || bad "$n of $want jobs done exactly once"
live_jct_compare "Python las live vs C las simulated" "$tmp/live.db" "$tmp/sim.db" 10
[ $fail -eq 0 ] || exit 1
echo "live_exec: ok"
