#!/bin/sh
# gavel_shortcuts.sh: Gavel's round mechanism (policies/gavel_round.c) takes
# shortcuts that must give the plans of the full computation: a job's rates
# kept across rounds under a perf model with fixed rates, a type's fill in one
# pass when its queue fits, and replay (a round whose inputs are the last
# one's, less the jobs that left, gets the last round's plan less those jobs).
# -P shortcuts=0 turns them off. Every job's JCT must be the same to the last
# digit, with and without them: on the regress trace under fifo-perf,
# gavel-fifo and fifo-packed with Gavel's rules, fifo-perf with the paper's,
# max-min-fairness-perf with Shockwave's; on a 1-GPU trace with node failures
# (the GPUs up change, jobs restart); and under the pollux perf model (rates
# that change with progress: none kept).
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mix="$SRCDIR/tests/fixtures/regress/mix40.csv"
px="$SRCDIR/tests/fixtures/regress/px12.csv"
"$MLSCHED" trace generate --jobs 150 --rate 10/h --seed 4 -o "$tmp/one150.csv" >/dev/null ||
    { echo "FAIL: trace generate"; exit 1; }
fail=0
# each line: trace|cluster|policy and options
while IFS='|' read -r trace cluster opts; do
    for sc in 1 0; do
        # shellcheck disable=SC2086 # opts holds the policy and its options
        "$MLSCHED" simulate --trace "$trace" --cluster "$cluster" --policy $opts -P shortcuts=$sc \
            --seed 1 -q --db "$tmp/$sc.db" >/dev/null || { echo "FAIL: simulate $opts"; exit 1; }
        sqlite3 "$tmp/$sc.db" "SELECT job_id, printf('%.17g %.17g', jct, queue_delay), preemptions,
            restarts FROM jobs ORDER BY job_id" >"$tmp/$sc.txt"
        rm -f "$tmp/$sc.db"
    done
    n=$(wc -l <"$tmp/1.txt")
    if [ "$n" -lt 12 ] || ! cmp -s "$tmp/1.txt" "$tmp/0.txt"; then
        echo "FAIL: $opts on $(basename "$trace"): JCTs differ without the shortcuts ($n jobs)"
        diff "$tmp/1.txt" "$tmp/0.txt" | head -5
        fail=1
    fi
done <<RUNS
$mix|v100=2x4,k80=2x4|fifo-perf --like gavel
$mix|v100=2x4,k80=2x4|gavel-fifo --like gavel
$mix|v100=2x4,k80=2x4|fifo-packed --like gavel
$mix|v100=2x4,k80=2x4|fifo-perf
$mix|v100=2x4,k80=2x4|max-min-fairness-perf --like shockwave
$tmp/one150.csv|v100=4x2,p100=3x2,k80=3x2|fifo-perf --like gavel --failure-rate 0.05 --checkpoint-interval 600
$tmp/one150.csv|v100=4x2,p100=3x2,k80=3x2|fifo-perf --failure-rate 0.05
$px|t4=2x4|fifo-perf --like gavel --throughputs $SRCDIR/traces/catalog/pollux.json
RUNS
[ "$fail" = 0 ] && echo "PASS: the same JCTs with and without the round mechanism's shortcuts"
exit "$fail"
