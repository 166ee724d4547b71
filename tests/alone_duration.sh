#!/bin/sh
# alone_duration.sh: a job alone on its traced allocation finishes at its
# traced duration (plus its start overhead) within one round, on the bundled
# table. traces/samples/gavel-mix-200.csv was generated with total work =
# duration x the default catalog's v100 rate on the job's GPU count; its first
# 40 jobs, on a v100 cluster large enough that none waits, under fifo with
# 360 s rounds.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
head -41 "$SRCDIR/traces/samples/gavel-mix-200.csv" >"$tmp/t.csv"
"$MLSCHED" simulate --trace "$tmp/t.csv" --cluster v100=40x8 --policy fifo --round 360 \
    --restart-overhead 20 -q --db "$tmp/r.db" >/dev/null || { echo "FAIL: simulate"; exit 1; }
n=$(sqlite3 "$tmp/r.db" "select count(*) from jobs")
[ "$n" -eq 40 ] || { echo "FAIL: $n jobs in the database"; exit 1; }
# job_id -> traced duration
tail -n +2 "$tmp/t.csv" | awk -F, '{print $1, $7}' | sort -n >"$tmp/dur"
sqlite3 -separator ' ' "$tmp/r.db" "select job_id, queue_delay, jct from jobs order by job_id" \
    >"$tmp/jct"
bad=$(join "$tmp/dur" "$tmp/jct" |
    awk '{ d = $4 - 20 - $2; if ($3 != 0 || d > 360 || d < -360) print "job " $1 ": duration " $2 ", jct " $4 }')
[ -z "$bad" ] || { echo "FAIL: $bad"; exit 1; }
# and no slack at all: progress is exact
worst=$(join "$tmp/dur" "$tmp/jct" | awk '{ d = $4 - 20 - $2; if (d < 0) d = -d; if (d > w) w = d } END { print w + 0 }')
awk -v w="$worst" 'BEGIN { exit !(w < 1e-6 * 86400) }' || { echo "FAIL: off by $worst s"; exit 1; }
echo "alone_duration: 40 jobs within $worst s of their traced duration"
