#!/bin/sh
# live_requests.sh: the live daemon's handling of bad and good requests over
# its Unix socket: malformed JSON, an oversized request, unknown fields, an
# unknown workload, more GPUs than exist, unknown jobs — each a clear error
# and the daemon still serving; another user refused (by the 0700 folder, and
# by SO_PEERCRED when it reaches the socket); argv run without a shell; the
# job's environment; a failing job; a job that never reports; `live report`.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/live_lib.sh"
test_init req
test_cleanup_more() { for p in $pids; do wait "$p" 2>/dev/null; done; }
sock="$tmp/run/sock"
"$MLSCHED" live serve --cluster v100=1x4 --policy fifo --round 0 --max-failures 0 \
    --state "$tmp/s.db" --socket "$sock" 2>"$tmp/daemon.log" &
pids="$pids $!"
live_wait_up "$sock" "$!" "$tmp/daemon.log"

# expect_reject PATTERN LINE: the request is refused with PATTERN in the reply
expect_reject() {
    "$MLSCHED" live request --socket "$sock" "$2" >"$tmp/out" 2>&1 &&
        bad "'$2' was accepted: $(cat "$tmp/out")"
    grep -q '"ok":false' "$tmp/out" && grep -q -- "$1" "$tmp/out" ||
        bad "'$(echo "$2" | cut -c1-60)' reply lacks '$1': $(cut -c1-300 "$tmp/out")"
}
expect_reject "malformed JSON" '{"op":"submit",'
expect_reject "not a JSON object" '"status"'
expect_reject "unknown op" '{"op":"format-disk"}'
expect_reject "field 'colour': unknown" '{"op":"status","colour":"red"}'
expect_reject "field 'argv': missing" '{"op":"submit","workload":"A3C","gpus":1,"work":1}'
expect_reject "field 'gpus': not a finite number" \
    '{"op":"submit","argv":["/bin/true"],"workload":"A3C","gpus":"all","work":1}'
expect_reject "unknown to the perf model" \
    '{"op":"submit","argv":["/bin/true"],"workload":"NoSuchNet","gpus":1,"work":1}'
expect_reject "needs 64 GPUs but the cluster's largest GPU type has 4" \
    '{"op":"submit","argv":["/bin/true"],"workload":"A3C","gpus":64,"work":1}'
expect_reject "cancel: job 999: no such job" '{"op":"cancel","id":999}'
expect_reject "report: job 999: no such job" '{"op":"report","id":999,"iter":1}'
big=$(awk 'BEGIN { s = "{\"op\":\"status\",\"pad\":\""; for (i = 0; i < 70000; i++) s = s "x"; print s "\"}" }')
expect_reject "more than the limit of 65536 bytes" "$big"
# read exactly as written (issue 19): a NUL cut argv[0] to /bin/sleep, the first of
# two keys won, the request after the first was dropped
expect_reject 'a \\\\u0000 (NUL) in a string' \
    '{"op":"submit","argv":["/bin/sleep\u0000x","1"],"workload":"A3C","gpus":1,"work":1}'
expect_reject "key 'gpus' appears twice" \
    '{"op":"submit","argv":["/bin/true"],"workload":"A3C","gpus":1,"gpus":64,"work":1}'
expect_reject "key 'op' appears twice" '{"op":"status","op":"drain"}'
expect_reject "data after the JSON document" '{"op":"status"} {"op":"drain"}'
# invalid UTF-8 is refused in a user, and quoted as \xNN in a valid UTF-8 reply
expect_reject "field 'user': not valid UTF-8" \
    "$(printf '{"op":"submit","argv":["/bin/true"],"user":"\377","workload":"A3C","gpus":1,"work":1}')"
expect_reject "unknown op" "$(printf '{"op":"x\303\251\377"}')"
iconv -f UTF-8 -t UTF-8 "$tmp/out" >/dev/null 2>&1 || bad "a reply is not valid UTF-8: $(cat "$tmp/out")"
grep -qF '\\xFF' "$tmp/out" || bad "the invalid byte is not quoted as \\xFF: $(cat "$tmp/out")"
# the CLI says the same on stderr, exit 1
"$MLSCHED" live submit --socket "$sock" --workload NoSuchNet --gpus 1 --work 1 -- /bin/true \
    2>"$tmp/err" && bad "submit of an unknown workload exited 0"
grep -q "workload 'NoSuchNet': unknown" "$tmp/err" || bad "submit CLI: $(cat "$tmp/err")"
"$MLSCHED" live submit --socket "$sock" --workload A3C --gpus 5 --work 1 -- /bin/true \
    2>"$tmp/err" && bad "submit of 5 GPUs exited 0"
grep -q "needs 5 GPUs" "$tmp/err" || bad "submit CLI: $(cat "$tmp/err")"
"$MLSCHED" live status --socket "$sock" >/dev/null || bad "the daemon stopped serving"

# argv is exec'd as given: no shell expands it
"$MLSCHED" live submit --socket "$sock" --workload A3C --gpus 1 --work 1 -- \
    /bin/echo '$(touch '"$tmp/inj1"')' '`touch '"$tmp/inj2"'`;touch '"$tmp/inj3" >/dev/null ||
    bad "submit echo failed"
# the environment a job gets
"$MLSCHED" live submit --socket "$sock" --workload A3C --gpus 2 --work 1 -- \
    /bin/sh -c 'env | grep -E "^(CUDA_VISIBLE_DEVICES|MLSCHED_)" >"$0"' "$tmp/env.txt" \
    >/dev/null || bad "submit env job failed"
# a failing job (exit 3, --max-failures 0: given up), a silent job
fid=$("$MLSCHED" live submit --socket "$sock" --workload A3C --gpus 1 --work 1 -- /bin/sh -c 'exit 3')
sid=$("$MLSCHED" live submit --socket "$sock" --workload A3C --gpus 1 --work 1 -- /bin/sleep 0.5)
# a job that reports progress through the CLI, then lingers
rid=$("$MLSCHED" live submit --socket "$sock" --workload A3C --gpus 1 --work 100 -- \
    /bin/sh -c '"$0" live report --iter 5 --iter-time 0.25 && sleep 3' "$MLSCHED")
i=0
until "$MLSCHED" live status --json --socket "$sock" | grep -q "\"id\":$rid,\"state\":\"running\"[^}]*\"work_done\":5,\"throughput\":4"; do
    i=$((i + 1))
    [ $i -gt 50 ] && { bad "job $rid's report never showed: $("$MLSCHED" live status --socket "$sock")"; break; }
    sleep 0.1
done
# a report from outside the job's run (a shell, another process) is refused
(unset MLSCHED_TOKEN; "$MLSCHED" live report --socket "$sock" --job "$rid" --iter 50 2>"$tmp/err") &&
    bad "a report without the run's token was taken"
grep -q "report: job $rid: no token" "$tmp/err" || bad "report without token: $(cat "$tmp/err")"
expect_reject "report: job $rid: wrong token" \
    "{\"op\":\"report\",\"id\":$rid,\"iter\":50,\"token\":\"0123456789abcdef\"}"
"$MLSCHED" live status --json --socket "$sock" | grep -q "\"id\":$rid,[^}]*\"work_done\":5," ||
    bad "a refused report moved job $rid"
i=0
until [ "$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM jobs WHERE state IN ('done','failed')")" = 5 ]; do
    i=$((i + 1))
    [ $i -gt 100 ] && { bad "jobs did not end: $("$MLSCHED" live status --socket "$sock")"; break; }
    sleep 0.1
done
[ -e "$tmp/inj1" ] || [ -e "$tmp/inj2" ] || [ -e "$tmp/inj3" ] && bad "a shell ran the argv"
grep -F -q '$(touch' "$tmp/s.db.d/job-0.log" || bad "echo's output: $(cat "$tmp/s.db.d/job-0.log")"
grep -q "^CUDA_VISIBLE_DEVICES=[0-3],[0-3]$" "$tmp/env.txt" || bad "env: $(cat "$tmp/env.txt")"
grep -q "^MLSCHED_TOKEN=[0-9a-f]\{16\}$" "$tmp/env.txt" || bad "env lacks MLSCHED_TOKEN: $(cat "$tmp/env.txt")"
for v in MLSCHED_JOB_ID=1 MLSCHED_SOCKET="$sock" MLSCHED_NUM_GPUS=2 MLSCHED_GPU_TYPE=v100 \
    MLSCHED_WORKLOAD=A3C MLSCHED_ATTEMPT=1 MLSCHED_CHECKPOINT="$tmp/s.db.d/job-1.ckpt"; do
    grep -q -x -F "$v" "$tmp/env.txt" || bad "env lacks $v: $(cat "$tmp/env.txt")"
done
st=$(sqlite3 "$tmp/s.db" "SELECT state || ' ' || exit_code FROM jobs WHERE id=$fid")
[ "$st" = "failed 3" ] || bad "failing job: '$st', wanted 'failed 3'"
st=$(sqlite3 "$tmp/s.db" "SELECT state FROM jobs WHERE id=$sid")
[ "$st" = "done" ] || bad "silent job: '$st', wanted done"
# cancel a long job
cid=$("$MLSCHED" live submit --socket "$sock" --workload A3C --gpus 1 --work 1 -- /bin/sleep 60)
sleep 0.3
"$MLSCHED" live cancel --socket "$sock" "$cid" || bad "cancel failed"
st=$(sqlite3 "$tmp/s.db" "SELECT state FROM jobs WHERE id=$cid")
[ "$st" = "cancelled" ] || bad "cancelled job: '$st'"
expect_reject "has already ended" "{\"op\":\"cancel\",\"id\":$cid}"

# another user: refused by the folder's mode, and by SO_PEERCRED
if [ "$(id -u)" = 0 ] && command -v setpriv >/dev/null 2>&1 &&
    setpriv --reuid=nobody --regid=nogroup --clear-groups "$MLSCHED" --version >/dev/null 2>&1; then
    asnobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
    asnobody "$MLSCHED" live request --socket "$sock" '{"op":"status"}' >"$tmp/out" 2>&1 &&
        bad "nobody reached root's daemon: $(cat "$tmp/out")"
    grep -q "Permission denied" "$tmp/out" || bad "nobody: $(cat "$tmp/out")"
    # a daemon of nobody's, reached by root (who passes any folder mode)
    mkdir "$tmp/nb" && chown nobody:nogroup "$tmp/nb" && chmod 0700 "$tmp/nb"
    chmod 0711 "$tmp"
    # nobody may not be able to read the checkout (a clone in a 0700 folder):
    # its daemon reads a copy of the default catalog
    cp "$SRCDIR/traces/catalog/default-throughputs.json" "$tmp/nb/thr.json" &&
        chown nobody:nogroup "$tmp/nb/thr.json"
    # setpriv itself (not the function, whose subshell $! would name) execs the daemon
    setpriv --reuid=nobody --regid=nogroup --clear-groups "$MLSCHED" live serve \
        --cluster v100=1x4 --policy fifo --state "$tmp/nb/s.db" --throughputs "$tmp/nb/thr.json" \
        --socket "$tmp/nb/run/sock" 2>"$tmp/nb.log" &
    pids="$pids $!"
    i=0
    until [ -S "$tmp/nb/run/sock" ]; do
        i=$((i + 1))
        [ $i -gt 100 ] && { bad "nobody's daemon did not start: $(cat "$tmp/nb.log")"; break; }
        sleep 0.1
    done
    "$MLSCHED" live request --socket "$tmp/nb/run/sock" '{"op":"status"}' >"$tmp/out" 2>&1 &&
        bad "root was served by nobody's daemon"
    grep -q "permission denied: uid 0 is not the daemon's uid 65534" "$tmp/out" ||
        bad "SO_PEERCRED: $(cat "$tmp/out")"
    [ "$(stat -c %a "$tmp/nb/run")" = 700 ] || bad "socket folder mode $(stat -c %a "$tmp/nb/run")"
    [ "$(stat -c %a "$tmp/nb/run/sock")" = 600 ] || bad "socket mode $(stat -c %a "$tmp/nb/run/sock")"
else
    echo "note: not root, or nobody cannot run $MLSCHED: other-user checks skipped"
fi
[ $fail -eq 0 ] || exit 1
echo "live_requests: ok"
