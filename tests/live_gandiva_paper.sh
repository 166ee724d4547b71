#!/bin/sh
# live_gandiva_paper.sh: gandiva-paper carried out live on fake jobs (local
# executor, --preempt suspend: time-slicing by SIGSTOP/SIGCONT on the GPUs a
# job left, time scale 100, about 20 s wall). Six one-GPU jobs whose pairs the
# bundled catalog rates (tests/fixtures/live/trace-gandiva.csv: trace-pack.csv
# with job 1 at 0.9 of its work, off a quantum boundary) on v100=1x2 with
# quanta of --round 120: more jobs than GPUs, so slots are shared and
# time-sliced, pairs are tried, measured (the fake jobs' reported mini-batch
# rates) and kept or split, and suspended jobs move to GPUs that free up.
# Each job's JCT is compared with `mlsched simulate` on the same trace with
# the same costs: per-job and mean relative differences are printed, the mean
# must stay under 5 % (measured 1.5-2.3 % at load 4-8). Costs: the shared mechanism resumes a suspended job
# where it left off when the plan names the GPUs it left (gandiva-paper does),
# so live a resume is a SIGCONT that costs nothing; the simulator is run with
# Gandiva's suspend/resume cost of 0.25 s ("suspend": 0.25) and 20 s for the
# other (re)starts, which live pay as a restart from the checkpoint. Every job
# finishes exactly once, jobs were suspended
# (SIGSTOP) and packed, no run fails. Set KEEP=1 to keep the databases.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/live_lib.sh"
test_init gdv sqlite3
live_sanitizer_skip "gandiva-paper's time-slicing and migration run live under the sanitizers in live_mech_crash.sh, suspension in live_e2e.sh"
trace="$SRCDIR/tests/fixtures/live/trace-gandiva.csv"
# A fake job stopped (SIGSTOP) and then ended (SIGTERM, SIGCONT: what the
# daemon does to a suspended job it does not resume) counts no progress for
# the time it was stopped: rate 10 units/s, 0.5 s running, 1.5 s stopped.
"$MLSCHED" live fake-job --workload A3C --work 1000 --rate 10 --time-scale 1 >"$tmp/fj.out" &
fj=$!
sleep 0.5
kill -STOP $fj
sleep 1.5
kill -TERM $fj
kill -CONT $fj
wait $fj
done_=$(tail -n 1 "$tmp/fj.out" | sed 's/.*iter=\([0-9]*\).*/\1/')
[ -n "$done_" ] && [ "$done_" -ge 3 ] && [ "$done_" -le 9 ] ||
    bad "fake job stopped 1.5 s then ended: $done_ units done, wanted about 5 (the stop not counted)"

cluster=v100=1x2
scale=${LIVE_TIME_SCALE:-100}
round=${GANDIVA_ROUND:-120}
want=$(grep -c '^[0-9]' "$trace")
live_run g "$trace" "" --cluster $cluster --policy gandiva-paper --round "$round" \
    --preempt suspend --time-scale "$scale" -q

printf '{"default": {"start": 20, "restart": 20, "resize": 20, "migrate": 20, "suspend": 0.25}}\n' \
    >"$tmp/ovh.json"
"$MLSCHED" simulate --trace "$trace" --cluster $cluster --policy gandiva-paper --round "$round" \
    --overheads "$tmp/ovh.json" -q --db "$tmp/sim.db" >/dev/null || bad "simulate failed"
n=$(sqlite3 "$tmp/g.db" "SELECT count(*) FROM jobs WHERE state='done' AND completions=1")
[ "$n" = "$want" ] || bad "$n of $want jobs done exactly once"
echo "events: $(sqlite3 "$tmp/g.db" "SELECT group_concat(event || '=' || c, ' ') FROM (SELECT event, count(*) c FROM events GROUP BY event)")"
n=$(sqlite3 "$tmp/g.db" "SELECT count(*) FROM events WHERE event='suspend'")
[ "$n" -gt 0 ] || bad "no job was suspended (SIGSTOP)"
n=$(sqlite3 "$tmp/g.db" "SELECT count(*) FROM events WHERE event='pack'")
[ "$n" -gt 0 ] || bad "no pair was packed"
n=$(sqlite3 "$tmp/g.db" "SELECT count(*) FROM events WHERE event='fail'")
[ "$n" = 0 ] || bad "$n failed runs: $(cat "$tmp/g.log")"
live_jct_compare gandiva-paper "$tmp/g.db" "$tmp/sim.db" 5
[ $fail -eq 0 ] || exit 1
echo "live_gandiva_paper: ok"
