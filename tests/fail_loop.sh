#!/bin/sh
# fail_loop.sh: a run with random node failures whose job can never finish
# between two failures (no checkpoints: each failure takes it back to its
# last start) must stop with a clear error naming the job, its GPU type, its
# uninterrupted need against the mean time between failures and the remedy,
# exit 1 and store nothing, instead of running for ever (the engine's
# failure watch, sim/engine.c). Cases: one 1,000 h job on a K80-only cluster
# under fifo (no policy could help); Gavel's FIFO keeping a job on K80s for
# life while V100s stand idle (the bug report's case, on 40 jobs); the same
# runs with --checkpoint-interval finish; and fifo on a job that fails over
# and over on K80s but escapes to a V100 when its K80 node is down finishes
# (no false alarm). Without the watch the first two time out.
set -u
: "${MLSCHED:=./mlsched}"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
H=id,submit_time,user,workload,gpus,total_work,duration,priority,deadline,min_gpus,max_gpus,batch_size,mode
# CycleGAN runs 0.5048 work units/s on a K80: 1,817,280 units = 1,000 h
printf '%s\n0,0,user0,CycleGAN,1,1817280,410000,1,,1,1,0,static\n' "$H" >"$tmp/one.csv"
printf '%s\n0,0,user0,CycleGAN,1,159480,36000,1,,1,1,0,static\n1,60,user0,CycleGAN,1,1817280,410000,1,,1,1,0,static\n' \
    "$H" >"$tmp/two.csv"
"$MLSCHED" trace generate --jobs 40 --rate 30/h --seed 2 -o "$tmp/g40.csv" >/dev/null ||
    { echo "FAIL: trace generate"; exit 1; }

# expect_stuck NAME JOB TYPE POLICY TRACE CLUSTER RATE
expect_stuck() {
    timeout 30 "$MLSCHED" simulate --trace "$5" --cluster "$6" --policy "$4" --failure-rate "$7" \
        -q --db "$tmp/$1.db" >"$tmp/$1.out" 2>"$tmp/$1.err"
    rc=$?
    [ "$rc" = 1 ] || { bad "$1: exit $rc, want 1 (124: it ran for ever)"; return; }
    for want in "job $2 cannot finish between node failures" "policy '$4'" "on $3 GPUs" \
        "uninterrupted" "fail every" "--checkpoint-interval"; do
        grep -qF -- "$want" "$tmp/$1.err" || bad "$1: the error lacks '$want': $(cat "$tmp/$1.err")"
    done
    [ ! -s "$tmp/$1.out" ] || bad "$1: wrote results: $(head -3 "$tmp/$1.out")"
    [ ! -e "$tmp/$1.db" ] || bad "$1: created its results database"
}

# expect_done NAME JOBS POLICY TRACE CLUSTER OPTIONS...: all JOBS finish
expect_done() {
    n=$1 k=$2 p=$3 tr=$4 cl=$5
    shift 5
    timeout 30 "$MLSCHED" simulate --trace "$tr" --cluster "$cl" --policy "$p" -q "$@" \
        >"$tmp/$n.out" 2>"$tmp/$n.err" || { bad "$n: exit $?: $(cat "$tmp/$n.err")"; return; }
    grep -Eq "^jobs +$k finished \(measured: all\)" "$tmp/$n.out" ||
        bad "$n: not all $k jobs finished: $(grep '^jobs' "$tmp/$n.out")"
}

expect_stuck one 0 k80 fifo "$tmp/one.csv" k80=1x4 0.05
expect_stuck pinned 29 k80 gavel-fifo "$tmp/g40.csv" v100=4x4,p100=2x4,k80=2x4 0.02
expect_done one-ckpt 1 fifo "$tmp/one.csv" k80=1x4 --failure-rate 0.05 --checkpoint-interval 3600
expect_done pinned-ckpt 40 gavel-fifo "$tmp/g40.csv" v100=4x4,p100=2x4,k80=2x4 --failure-rate 0.02 \
    --checkpoint-interval 3600
expect_done escapes 2 fifo "$tmp/two.csv" v100=1x1,k80=1x1 --failure-rate 0.05
[ $fail = 0 ] && echo "PASS: fail_loop"
exit $fail
