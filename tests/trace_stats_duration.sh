#!/bin/sh
# trace_stats_duration.sh: `trace stats` warns when jobs would run far from
# their traced duration on the reference GPU (issue 18; traces/stats.h): work
# / the perf model's rate there against the duration column, over 2x either
# way and 10 min apart. A hand-made trace (ResNet-18 at 24.09 it/s on one
# V100): a job whose work matches its hour, one with 5x the work (far: named
# as the worst, with its line), one 5x too short but only 400 s apart (not
# far); the bundled sample on its own reference GPU (none far) and on k80
# (most far). Text and JSON. Well under a second.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
tmp=$(mktemp -d /tmp/mls-tsdur-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
w="ResNet-18 (batch size 64)"
{
    echo "id,submit_time,user,workload,gpus,total_work,duration"
    echo "0,0,ann,$w,1,86724,3600"
    echo "7,10,bob,$w,1,433620,3600"
    echo "9,20,ann,$w,1,12045,100"
} >"$tmp/t.csv"
"$MLSCHED" trace stats "$tmp/t.csv" >"$tmp/out" 2>&1 || bad "trace stats failed: $(cat "$tmp/out")"
line=$(grep '^sim duration' "$tmp/out")
echo "$line"
case $line in
*"warning: 1 of 3 jobs would run over 2x longer or shorter on v100"*"worst: job 7 (line 3), traced 1.0 h, simulated 5.0 h (5.00x)"*) ;;
*) bad "hand-made trace: $line" ;;
esac
"$MLSCHED" trace stats --json "$tmp/t.csv" >"$tmp/json" || bad "trace stats --json failed"
grep -q '"duration_check": {"judged": 3, "far": 1, "worst": {"id": 7, "line": 3, "traced_s": 3600, "simulated_s": 18000}}' "$tmp/json" ||
    bad "JSON: $(grep -o '"duration_check.*' "$tmp/json")"
sample="$SRCDIR/traces/samples/gavel-mix-200.csv"
"$MLSCHED" trace stats "$sample" | grep -q '^sim duration     every job within 2x of its traced duration on v100 (200 judged)$' ||
    bad "sample on v100: $("$MLSCHED" trace stats "$sample" | grep '^sim duration')"
line=$("$MLSCHED" trace stats --reference-gpu k80 "$sample" | grep '^sim duration')
echo "$line"
case $line in
*"warning: 162 of 199 jobs"*"on k80"*"worst: job 21 (line 23)"*) ;;
*) bad "sample on k80: $line" ;;
esac
[ $fail = 0 ] && echo "trace_stats_duration: ok"
exit $fail
