#!/bin/sh
# gavel_rounds.sh: --round-end steps (set by --like gavel) is Gavel's round.
# A job runs floor(rate x 360) steps a round and a round ends when the last
# scheduled job has run its steps: a job that arrives during the first round
# starts when the round's only job has run floor(rate x 360) steps, not at
# 360 s as with --round-end fixed. A 4-GPU job left with 2 steps (fewer than
# its GPUs) fails its rounds and is dropped after 5, unfinished and out of
# the average JCT, as Gavel's failed jobs; --round-end fixed finishes it.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
w="ResNet-18 (batch size 32)"
sim() { # trace cluster db [flags]
    t=$1 c=$2 d=$3
    shift 3
    "$MLSCHED" simulate --trace "$t" --cluster "$c" --policy fifo-perf --like gavel -q \
        --db "$tmp/$d" "$@" >/dev/null || bad "simulate $d exited $?"
}
q() { sqlite3 "$tmp/$1" "$2"; }
# One job alone gives its rate on 1 and on 4 GPUs (no round ends inside a step).
printf 'id,submit_time,user,workload,gpus,total_work\n0,0,u,%s,1,1000000\n1,0,u,%s,4,1000000\n' \
    "$w" "$w" >"$tmp/probe.csv"
sim "$tmp/probe.csv" v100=1x8 probe.db
r1=$(q probe.db "SELECT 1000000 / jct FROM jobs WHERE job_id = 0")
r4=$(q probe.db "SELECT 1000000 / jct FROM jobs WHERE job_id = 1")
# The round's end: job 1 arrives at 100 s, during job 0's first round.
printf 'id,submit_time,user,workload,gpus,total_work\n0,0,u,%s,1,1000000\n1,100,u,%s,1,1000\n' \
    "$w" "$w" >"$tmp/end.csv"
sim "$tmp/end.csv" v100=1x2 steps.db
sim "$tmp/end.csv" v100=1x2 fixed.db --round-end fixed
want=$(awk -v r="$r1" 'BEGIN { printf "%.6f", int(r * 360) / r }')
got=$(q steps.db "SELECT printf('%.6f', first_start) FROM jobs WHERE job_id = 1")
[ "$got" = "$want" ] || bad "steps: job 1 started at $got, wanted the round's end $want (rate $r1)"
got=$(q fixed.db "SELECT printf('%.6f', first_start) FROM jobs WHERE job_id = 1")
[ "$got" = 360.000000 ] || bad "fixed: job 1 started at $got, wanted 360"
# Failures: 3 full rounds, then 2 steps left for 4 GPUs.
steps=$(awk -v r="$r4" 'BEGIN { printf "%d", 3 * int(r * 360) + 2 }')
printf 'id,submit_time,user,workload,gpus,total_work\n0,0,u,%s,4,%s\n1,0,u,%s,1,1000\n' \
    "$w" "$steps" "$w" >"$tmp/fail.csv"
sim "$tmp/fail.csv" v100=1x8 fail.db
sim "$tmp/fail.csv" v100=1x8 nofail.db --round-end fixed
[ "$(q fail.db "SELECT finish IS NULL FROM jobs WHERE job_id = 0")" = 1 ] ||
    bad "steps: the 4-GPU job with 2 steps left finished"
[ "$(q fail.db "SELECT jobs FROM run_summary")" = 1 ] ||
    bad "steps: $(q fail.db "SELECT jobs FROM run_summary") jobs counted, wanted 1"
[ "$(q fail.db "SELECT avg_jct = (SELECT jct FROM jobs WHERE job_id = 1) FROM run_summary")" = 1 ] ||
    bad "steps: the average JCT counts the failed job"
end=$(q fail.db "SELECT printf('%.0f', makespan) FROM run_summary")
want=$(awk -v r="$r4" 'BEGIN { q = int(r * 360); printf "%.0f", 3 * q / r + 5 * 2 / r }')
[ "$end" = "$want" ] || bad "steps: the failed job's rounds ended at $end, wanted $want (3 + 5 rounds)"
[ "$(q nofail.db "SELECT finish IS NOT NULL FROM jobs WHERE job_id = 0")" = 1 ] ||
    bad "fixed: the 4-GPU job did not finish"
[ $fail -eq 0 ] && echo "gavel_rounds.sh: all checks passed"
exit $fail
