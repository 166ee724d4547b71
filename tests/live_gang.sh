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
if ! command -v sqlite3 >/dev/null 2>&1; then
    echo "SKIP: the sqlite3 command is not installed"
    exit 77
fi
tmp=$(mktemp -d /tmp/mls-gang-XXXXXX)
pid=""
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
fx="$SRCDIR/tests/fixtures/pathways"
trace=$fx/gang-live.csv cluster=$fx/islands.json
tp="$SRCDIR/traces/catalog/default-throughputs.json"
scale=${LIVE_TIME_SCALE:-100}

"$MLSCHED" live serve --cluster "$cluster" --throughputs "$tp" --policy pathways \
    --time-scale "$scale" --state "$tmp/live.db" --socket "$tmp/sock" -q 2>"$tmp/log" &
pid=$!
i=0
until "$MLSCHED" live status --socket "$tmp/sock" >/dev/null 2>&1; do
    i=$((i + 1))
    [ $i -gt 100 ] && { bad "daemon did not come up: $(cat "$tmp/log")"; exit 1; }
    sleep 0.1
done
"$MLSCHED" live submit --socket "$tmp/sock" --trace "$trace" --throughputs "$tp" >/dev/null ||
    bad "submit --trace failed"
"$MLSCHED" live drain --socket "$tmp/sock" || bad "drain failed"
i=0
while kill -0 "$pid" 2>/dev/null; do
    i=$((i + 1))
    [ $i -gt 1200 ] && { bad "daemon still running after 120 s"; break; }
    sleep 0.1
done
wait "$pid" || bad "daemon exited $?: $(cat "$tmp/log")"
pid=""

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
echo "pathways (live, local): job  sim_jct  live_jct  diff"
sqlite3 -separator ' ' "$tmp/live.db" "ATTACH '$tmp/sim.db' AS s;
    SELECT j.id, printf('%.1f', s.jct), printf('%.1f', j.jct),
           printf('%+.2f%%', 100.0 * (j.jct - s.jct) / s.jct)
    FROM jobs j JOIN s.jobs s ON s.job_id = j.id ORDER BY j.id;" | sed 's/^/  /'
res=$(sqlite3 "$tmp/live.db" "ATTACH '$tmp/sim.db' AS s;
    SELECT printf('%.2f', 100.0 * avg(abs(j.jct - s.jct) / s.jct))
    FROM jobs j JOIN s.jobs s ON s.job_id = j.id WHERE j.jct IS NOT NULL;")
echo "pathways: mean |live - sim| / sim = $res %"
awk -v d="${res:-100}" 'BEGIN { exit !(d < 5) }' ||
    bad "mean per-job JCT difference $res % is not under 5 %"
[ $fail -eq 0 ] || exit 1
echo "live_gang: ok"
