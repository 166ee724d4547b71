#!/bin/sh
# e2e_simulate.sh: generate -> simulate -> query the database, determinism of
# whole runs, and the CLI's handling of bad input (message + exit status).
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }

# expect_error STATUS PATTERN CMD...: the command exits STATUS and stderr matches.
expect_error() {
    want=$1 pat=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        bad "'$*' exited $got, wanted $want; stderr: $(cat "$tmp/err")"
    elif ! grep -q -- "$pat" "$tmp/err"; then
        bad "'$*' stderr lacks '$pat': $(cat "$tmp/err")"
    else
        ok
    fi
}

# 1. generate -> simulate -> query
"$MLSCHED" trace generate --jobs 60 --rate 6/h --seed 3 --multi-gpu -o "$tmp/t.csv" ||
    bad "trace generate failed"
for p in fifo las; do
    "$MLSCHED" simulate --trace "$tmp/t.csv" --cluster v100=4x4 --policy $p --quiet \
        --db "$tmp/r.db" >"$tmp/$p.out" || bad "simulate $p failed"
    grep -q "avg JCT" "$tmp/$p.out" && ok || bad "simulate $p printed no summary"
done
n=$(sqlite3 "$tmp/r.db" "SELECT count(*) FROM run_summary")
[ "$n" = 2 ] && ok || bad "run_summary has $n rows, wanted 2"
n=$(sqlite3 "$tmp/r.db" "SELECT count(*) FROM jobs WHERE run_id=1 AND finish IS NOT NULL")
[ "$n" = 60 ] && ok || bad "run 1 has $n finished jobs, wanted 60"
n=$(sqlite3 "$tmp/r.db" "SELECT count(*) FROM runs WHERE trace_checksum IS NOT NULL AND length(trace_checksum)=16 AND version IS NOT NULL")
[ "$n" = 2 ] && ok || bad "runs lack checksum/version"
avg=$(sqlite3 "$tmp/r.db" "SELECT abs(avg(jct) - (SELECT avg_jct FROM summary WHERE run_id=1)) < 1e-6 FROM jobs WHERE run_id=1")
[ "$avg" = 1 ] && ok || bad "summary avg_jct disagrees with the jobs table"

# 2. determinism: two runs, identical databases (wall-clock columns aside)
for i in 1 2; do
    "$MLSCHED" simulate --trace "$tmp/t.csv" --cluster v100=4x4 --policy las --quiet \
        --seed 5 --db "$tmp/d$i.db" >/dev/null
    sqlite3 "$tmp/d$i.db" "SELECT * FROM jobs; SELECT * FROM timeline;
        SELECT jobs, avg_jct, p50_jct, p99_jct, makespan, utilization, unfair_fraction,
        worst_ftf, preemptions FROM summary;
        SELECT policy, params, trace_checksum, cluster_json, seed, events FROM runs;" >"$tmp/d$i.txt"
done
cmp -s "$tmp/d1.txt" "$tmp/d2.txt" && ok || bad "two identical runs differ"

# 3. bad input: a clear message naming the place, exit 1
f="$SRCDIR/tests/fixtures/e2e"
expect_error 1 "negative.csv:3" "$MLSCHED" simulate --trace "$f/negative.csv" --cluster v100=2x1 --policy fifo -q
expect_error 1 "nonmonotonic.csv:4" "$MLSCHED" simulate --trace "$f/nonmonotonic.csv" --cluster v100=2x1 --policy fifo -q
expect_error 1 "malformed.csv:2" "$MLSCHED" simulate --trace "$f/malformed.csv" --cluster v100=2x1 --policy fifo -q
expect_error 1 "workload 'NoSuchNet" "$MLSCHED" simulate --trace "$f/unknown_workload.csv" --cluster v100=2x1 --policy fifo -q
expect_error 1 "job 2: gpus" "$MLSCHED" simulate --trace "$f/too_big.csv" --cluster v100=2x1 --policy fifo -q
expect_error 1 "no_such_file.csv" "$MLSCHED" simulate --trace "$tmp/no_such_file.csv" --cluster v100=2x1 --policy fifo -q
expect_error 2 "unknown policy" "$MLSCHED" simulate --trace "$f/negative.csv" --cluster v100=2x1 --policy nosuch -q
expect_error 2 "required" "$MLSCHED" simulate --cluster v100=2x1 --policy fifo
expect_error 2 "round" "$MLSCHED" simulate --trace x --cluster y --policy fifo --round -3
expect_error 2 "unknown command" "$MLSCHED" nosuchcommand
"$MLSCHED" simulate --help | grep -q -- "--measure" && ok || bad "simulate --help"

# faults: a schedule and a seeded rate; every job still finishes
"$MLSCHED" simulate --trace "$tmp/t.csv" --cluster v100=4x4 --policy fifo --quiet \
    --faults "$f/faults.csv" --checkpoint-interval 600 --db "$tmp/f.db" >/dev/null || bad "faults run failed"
"$MLSCHED" simulate --trace "$tmp/t.csv" --cluster v100=4x4 --policy las --quiet \
    --failure-rate 0.5/d --mttr 1800 --db "$tmp/f.db" >/dev/null || bad "failure-rate run failed"
n=$(sqlite3 "$tmp/f.db" "SELECT count(*) FROM runs r JOIN summary s USING(run_id) WHERE r.faults IS NOT NULL AND s.jobs = 60")
[ "$n" = 2 ] && ok || bad "fault runs: $n of 2 recorded with all jobs finished"
expect_error 1 "bad_faults.csv:2: field 'event'" "$MLSCHED" simulate --trace "$tmp/t.csv" --cluster v100=4x4 --policy fifo -q --faults "$f/bad_faults.csv"

# a failed run leaves the database as it was
cp "$tmp/r.db" "$tmp/before.db"
"$MLSCHED" simulate --trace "$f/too_big.csv" --cluster v100=2x1 --policy fifo -q --db "$tmp/r.db" 2>/dev/null
n=$(sqlite3 "$tmp/r.db" "SELECT count(*) FROM runs")
[ "$n" = 2 ] && ok || bad "a failed run wrote rows ($n runs)"

# slow jobs: on single-GPU nodes the 8-GPU jobs of the bundled trace must spread
# at the unconsolidated rate, 9.4x its traced duration; the summary says so and
# names the worst. With a free 8-GPU V100 node for every job, none is slow.
sample="$SRCDIR/traces/samples/gavel-mix-200.csv"
"$MLSCHED" simulate --trace "$sample" --cluster 36v100 --policy fifo >"$tmp/slow" 2>&1 &&
    grep -q "^slow jobs         4 ran over 2x (and 10 min over) their traced duration; worst: job 57, 2.46 h on 8 GPUs for a traced 942.6 s (9.4x" "$tmp/slow" &&
    ok || bad "slow jobs on 36v100: $(grep slow "$tmp/slow")"
"$MLSCHED" simulate --trace "$sample" --cluster v100=200x8 --policy fifo >"$tmp/slow" 2>&1 &&
    ! grep -q "^slow jobs" "$tmp/slow" && ok || bad "slow jobs on v100=200x8: $(grep slow "$tmp/slow")"

# the diagnosis of a stored run: 300 jobs arriving in 9 h on 8 GPUs drain for
# weeks, and fifo's 8-GPU jobs on 4-GPU nodes keep GPUs idle while jobs wait
"$MLSCHED" trace generate --jobs 300 --rate 30/h --seed 1 --multi-gpu -o "$tmp/sat.csv" 2>/dev/null &&
    "$MLSCHED" simulate --trace "$tmp/sat.csv" --cluster v100=2x4 --policy fifo --db "$tmp/diag.db" \
        >"$tmp/diag" 2>&1 &&
    grep -q "^load              a batch that drains: arrivals end at 9.1 h" "$tmp/diag" &&
    grep -q "^idle while queued 69.0 % of the run" "$tmp/diag" &&
    ok || bad "diagnosis: $(cat "$tmp/diag")"

echo "e2e_simulate: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
