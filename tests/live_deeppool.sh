#!/bin/sh
# live_deeppool.sh: DeepPool's multiplexing carried out live. Six fake jobs
# (tests/fixtures/deeppool/live.csv: two VGG-16 foregrounds at priority 2 on 4
# GPUs, four ResNet-50 background jobs, one of them rigid at 2 GPUs so it can
# share no foreground) on v100=1x4 under deeppool with the perf model
# tests/fixtures/deeppool/live.json (the scenario's curves up to 4 GPUs and
# its "multiplex" section), local executor, time scale 100, event cadence.
# Each job's JCT is compared with `mlsched simulate` on the same trace, cluster
# and model: the mean per-job relative difference must stay under 5 %. At
# least one background job must really have shared a foreground's GPUs (a
# 'pack' event whose partner started at the same time), every job finishes
# exactly once, no run fails and no plan is rejected.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/live_lib.sh"
test_init deeppool sqlite3
live_sanitizer_skip "packed runs are live under the sanitizers in live_pack.sh, deeppool in test_deeppool and deeppool.sh"
F="$SRCDIR/tests/fixtures/deeppool"
trace="$F/live.csv"
model="$F/live.json"
cluster=v100=1x4
opts="--round 0 --throughputs $model"
want=$(grep -c '^[0-9]' "$trace")
live_run live "$trace" "$model" --cluster $cluster --policy deeppool $opts \
    --time-scale "${LIVE_TIME_SCALE:-100}" -q
db="$tmp/live.db"
"$MLSCHED" simulate --trace "$trace" --cluster $cluster --policy deeppool $opts -q \
    --db "$tmp/sim.db" >/dev/null || bad "simulate failed"
n=$(sqlite3 "$db" "SELECT count(*) FROM jobs WHERE state='done' AND completions=1")
[ "$n" = "$want" ] || bad "$n of $want jobs done exactly once"
n=$(sqlite3 "$db" "SELECT count(*) FROM events WHERE event='fail'")
[ "$n" = 0 ] || bad "$n failed runs: $(cat "$tmp/live.log")"
n=$(sqlite3 "$db" "SELECT count(*) FROM decisions WHERE error IS NOT NULL")
[ "$n" = 0 ] || bad "$n plans not carried out: $(sqlite3 "$db" \
    'SELECT error FROM decisions WHERE error IS NOT NULL LIMIT 3')"
packs=$(sqlite3 "$db" "SELECT count(*) FROM events WHERE event='pack'")
[ "$packs" -gt 0 ] || bad "no background job ever shared a foreground's GPUs (no 'pack' event)"
n=$(sqlite3 "$db" "SELECT count(*) FROM events p JOIN events s
    ON s.event = 'start' AND s.t = p.t AND s.id = CAST(substr(p.detail, 10) AS INTEGER)
    WHERE p.event = 'pack'")
[ "$n" = "$packs" ] || bad "$n of $packs pack events have their partner's start"
echo "deeppool: $packs pairs ran packed"
live_jct_compare deeppool "$db" "$tmp/sim.db" 5
if grep -q "fake-job: .*pack" "$tmp/live.db.d"/*.log 2>/dev/null; then
    bad "a fake job complained of its pack file: $(grep -h "fake-job" "$tmp/live.db.d"/*.log | head -3)"
fi
[ $fail -eq 0 ] || exit 1
echo "live_deeppool: ok"
