#!/bin/sh
# pathways.sh: multi-component programs (trace column gang) under the
# pathways gang scheduler, end to end, on two islands (racks) of 8 V100
# (tests/fixtures/pathways/islands.json). Hand-checked on the default table:
# - gang 1 = ResNet-18 on 4 GPUs (114.7 it/s, 1000 s of work) and a
#   Transformer on 4 (22.82 it/s, 2000 s): they start together at 0 and move
#   in lockstep at the slower's pace, so both finish at 2000 s + the 20 s
#   start overhead (the ResNet alone would finish at 1020);
# - gang 2 = two 8-GPU computations, one island each: it waits for gang 1 and
#   starts at 2020 with both members at once;
# - job 4 (4 GPUs, no gang) arrives at 10: strict FIFO keeps it behind gang 2;
#   backfill=1 starts it at 10 in the free island;
# - dispatch latency 5 s: parallel dispatch starts gang 1's progress at 25
#   (finish 2025), sequential at 30 (the second computation is dispatched
#   after two latencies, and a step needs both: finish 2030);
# - a policy that is not gang-aware (fifo) plans part of gang 2: the plan is
#   rejected by the gang rule, exit 1 with the rule named;
# - a gang whose rows arrive at different times is refused at load, naming it.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
fx="$SRCDIR/tests/fixtures/pathways"

q() { # q SQL-on-the-last-run's-jobs
    sqlite3 "$tmp/r.db" "SELECT $1 FROM jobs WHERE run_id=(SELECT max(run_id) FROM runs) $2"
}

"$MLSCHED" simulate --trace "$fx/gang.csv" --cluster "$fx/islands.json" --policy pathways -q \
    --db "$tmp/r.db" >/dev/null || bad "simulate pathways failed"
[ "$(q 'first_start || " " || finish' 'AND job_id IN (0,1) GROUP BY 1')" = "0.0 2020.0" ] ||
    bad "gang 1: $(q 'job_id, first_start, finish' 'AND job_id IN (0,1)')"
[ "$(q 'count(DISTINCT first_start) || " " || min(first_start)' 'AND job_id IN (2,3)')" = "1 2020.0" ] ||
    bad "gang 2: $(q 'job_id, first_start' 'AND job_id IN (2,3)')"
[ "$(q 'count(DISTINCT finish)' 'AND job_id IN (2,3)')" = 1 ] || bad "gang 2 not in lockstep"
s4=$(q first_start 'AND job_id=4')
[ "$(q "first_start = (SELECT finish FROM jobs j WHERE j.run_id=jobs.run_id AND j.job_id=2)" \
    'AND job_id=4')" = 1 ] || bad "strict FIFO: job 4 started at $s4, not when gang 2 ended"

"$MLSCHED" simulate --trace "$fx/gang.csv" --cluster "$fx/islands.json" --policy pathways \
    -P backfill=1 -q --db "$tmp/r.db" >/dev/null || bad "simulate pathways backfill=1 failed"
[ "$(q first_start 'AND job_id=4')" = 10.0 ] || bad "backfill: job 4 at $(q first_start 'AND job_id=4')"

for mode in parallel:2025.0 sequential:2030.0; do
    "$MLSCHED" simulate --trace "$fx/gang.csv" --cluster "$fx/islands.json" --policy pathways -q \
        --dispatch "${mode%%:*}" --dispatch-latency 5 --db "$tmp/r.db" >/dev/null ||
        bad "simulate --dispatch ${mode%%:*} failed"
    [ "$(q 'finish' 'AND job_id IN (0,1) GROUP BY 1')" = "${mode#*:}" ] ||
        bad "dispatch ${mode%%:*}: gang 1 finished at $(q 'job_id, finish' 'AND job_id IN (0,1)')"
done

"$MLSCHED" simulate --trace "$fx/gang.csv" --cluster "$fx/islands.json" --policy fifo -q \
    >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "gang: gang 2 runs all its computations or none" "$tmp/err" ||
    bad "fifo on gangs: exit $rc, $(cat "$tmp/err")"

sed 's/^3,0,/3,5,/' "$fx/gang.csv" | sed 's/^4,10,/4,12,/' >"$tmp/split.csv"
"$MLSCHED" simulate --trace "$tmp/split.csv" --cluster "$fx/islands.json" --policy pathways \
    -q >/dev/null 2>"$tmp/err"
rc=$?
[ $rc = 1 ] && grep -q "job 3: field 'gang': gang 2's computations must arrive together" \
    "$tmp/err" || bad "split gang: exit $rc, $(cat "$tmp/err")"
exit $fail
