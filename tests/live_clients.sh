#!/bin/sh
# live_clients.sh: the daemon serves its clients concurrently. With eight
# connections open that send nothing and two that send half a request, a
# `live status` is answered at once (it waited 2 s per idle connection when
# the daemon served one connection at a time: 16 s with eight); the idle
# ones get the "incomplete" error after 2 s; a client that sends more than
# 64 KiB gets the documented error line (not a reset); and the daemon still
# runs a job to its end meanwhile.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}" "${BUILDDIR:=.}"
client="$BUILDDIR/tests/sock_client"
. "$SRCDIR/tests/live_lib.sh"
test_init clients
"$MLSCHED" live serve --cluster v100=1x1 --policy fifo --time-scale 100 --state "$tmp/s.db" \
    --socket "$tmp/sock" -q 2>"$tmp/log" &
pid=$!
live_wait_up "$tmp/sock" "$pid" "$tmp/log"
holders=""
for k in 1 2 3 4 5 6 7 8; do
    "$client" "$tmp/sock" idle 4 & holders="$holders $!"
done
for k in 1 2; do
    "$client" "$tmp/sock" partial 4 & holders="$holders $!"
done
sleep 0.3
t0=$(date +%s.%N)
"$MLSCHED" live status --socket "$tmp/sock" >/dev/null || bad "status failed"
t1=$(date +%s.%N)
took=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.2f", b - a }')
echo "live status with 10 idle connections open: $took s"
awk -v t="$took" 'BEGIN { exit !(t < 1.0) }' || bad "status took $took s with idle clients open"
"$MLSCHED" live submit --socket "$tmp/sock" --workload "ResNet-18 (batch size 32)" --gpus 1 \
    --work 3000 -- "$MLSCHED" live fake-job >/dev/null || bad "submit failed"
reply=$("$client" "$tmp/sock" big)
echo "70,000-byte request: $reply"
case $reply in
*"more than the limit of 65536 bytes"*) ;;
*) bad "no error line for a 70,000-byte request: '$reply'" ;;
esac
for h in $holders; do wait "$h"; done
"$MLSCHED" live drain --socket "$tmp/sock" >/dev/null || bad "drain failed"
live_wait_exit "$pid" "$tmp/log" 60
pid=""
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM jobs WHERE state='done' AND completions=1")
[ "$n" = 1 ] || bad "the job did not finish once ($n)"
[ $fail -eq 0 ] || exit 1
echo "live_clients: ok"
