#!/bin/sh
# gavel_round_ids.sh: Gavel's round mechanism finds jobs by id through a
# table indexed by id (ids below 2^22) or, for other ids, a sorted map
# (policies/gavel_round.c). Both must give the same schedule: the regress
# trace, and the same trace with every id moved up by 5,000,000 (the map),
# under fifo-perf --like gavel, gandiva -P mechanism=gavel --like gavel
# (pairs) and max-min-fairness-packed --like shockwave give every job the
# same JCT, to the last digit.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
trace="$SRCDIR/tests/fixtures/regress/mix40.csv"
awk -F, 'BEGIN { OFS = "," } NR == 1 { print; next } { $1 = $1 + 5000000; print }' "$trace" \
    >"$tmp/big.csv"
for p in "fifo-perf --like gavel" "gandiva -P mechanism=gavel --like gavel" \
    "max-min-fairness-packed --like shockwave"; do
    for t in small big; do
        f=$trace
        [ "$t" = big ] && f=$tmp/big.csv
        # shellcheck disable=SC2086 # p holds the policy and its options
        "$MLSCHED" simulate --trace "$f" --cluster v100=2x4,k80=2x4 --policy $p --seed 1 -q \
            --db "$tmp/$t.db" >/dev/null || { echo "FAIL: simulate $p ($t ids)"; exit 1; }
        sqlite3 "$tmp/$t.db" "SELECT job_id % 5000000, printf('%.17g', jct) FROM jobs
            ORDER BY job_id" >"$tmp/$t.txt"
        rm -f "$tmp/$t.db"
    done
    n=$(wc -l <"$tmp/small.txt")
    if [ "$n" -lt 40 ] || ! cmp -s "$tmp/small.txt" "$tmp/big.txt"; then
        echo "FAIL: $p: JCTs differ with ids moved up by 5,000,000 ($n jobs)"
        diff "$tmp/small.txt" "$tmp/big.txt" | head -5
        fail=1
    fi
done
[ "$fail" = 0 ] && echo "PASS: same JCTs with ids in the table and in the sorted map"
exit "$fail"
