#!/bin/sh
# exec_policy.sh: external policies over the view/plan protocol
# (docs/exec-policy.md, sim/policy_exec.c).
# 1. The Python fifo and las (examples/policies/) give per-job results
#    byte-identical to the C fifo and las on the regress trace (mix40.csv):
#    every column of every job row, doubles compared by their exact text.
# 2. Each protocol error class (tests/fixtures/exec/bad_policy.py MODE) fails
#    the run with exit status 1, a message naming the decision and what went
#    wrong, and no row in the results database.
# 3. compare and sweep run an exec policy beside C ones.
# 4. A job's static fields carry the trace's total_batch (0 where none).
# The 2,000-job comparison takes minutes: tests/exec_policy_2000.sh.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
if ! command -v python3 >/dev/null 2>&1 || ! command -v sqlite3 >/dev/null 2>&1; then
    echo "SKIP: python3 or sqlite3 is not installed"
    exit 77
fi
tmp=$(mktemp -d /tmp/mls-exec-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
ex="$SRCDIR/examples/policies"
rows() {
    sqlite3 "$1" "SELECT job_id, user, workload, gpus, quote(work), quote(submit),
        quote(first_start), quote(finish), quote(jct), quote(queue_delay), quote(run_time),
        quote(gpu_seconds), preemptions, restarts, quote(isolated_time), quote(contention),
        quote(ftf_rho), quote(deadline), deadline_met, measured
        FROM jobs j JOIN runs r USING (run_id) WHERE r.policy = '$2' ORDER BY job_id"
}

# 1. identical results
trace="$SRCDIR/tests/fixtures/regress/mix40.csv"
for p in fifo las; do
    for q in "$p" "exec:$ex/$p.py"; do
        "$MLSCHED" simulate --trace "$trace" --cluster v100=2x4,k80=2x4 --policy "$q" --seed 1 \
            -q --db "$tmp/r.db" >/dev/null || bad "simulate $q failed"
    done
    rows "$tmp/r.db" "$p" >"$tmp/c.txt"
    rows "$tmp/r.db" "exec:$ex/$p.py" >"$tmp/py.txt"
    n=$(wc -l <"$tmp/c.txt")
    [ "$n" = 40 ] || bad "$p: $n job rows, wanted 40"
    cmp -s "$tmp/c.txt" "$tmp/py.txt" || bad "$p: Python results differ from C: $(diff "$tmp/c.txt" "$tmp/py.txt" | head -5)"
    echo "$p: the Python policy's 40 job rows are identical to C's"
done

# 2. protocol errors: MODE, then a pattern the message must match
t6="$SRCDIR/tests/fixtures/exec/trace6.csv"
while IFS='|' read -r mode want; do
    [ -n "$mode" ] || continue
    "$MLSCHED" simulate --trace "$t6" --cluster v100=1x2 -P exec.timeout=2 \
        --policy "exec:$SRCDIR/tests/fixtures/exec/bad_policy.py $mode" -q \
        --db "$tmp/e.db" >/dev/null 2>"$tmp/err"
    rc=$?
    msg=$(cat "$tmp/err")
    [ $rc -eq 1 ] || bad "$mode: exit status $rc, wanted 1 ($msg)"
    echo "$msg" | grep -Eq "$want" || bad "$mode: message '$msg' does not match '$want'"
    echo "$mode: $msg"
done <<'EOF2'
not-json|decision 3 \(t=30.000 s\): malformed message \(not JSON\): 'this is not json'
no-type|decision 3 .*malformed message \(no string "type"\)
wrong-type|decision 3 .*expected a "plan" or a "perf" request, got '\{"type":"plane"
wrong-decision|decision 3 .*expected a plan with this decision's number
alloc-not-int|decision 3 .*malformed plan: allocation 0 has a field that is not an integer
ids-count|decision 3 .*allocation 0 has "ids" that is not a list of `gpus` GPU ids
perf-unknown|decision 3 .*malformed perf call 0: '\["speed_of_light",0\]'
policy-error|decision 3 .*the policy reported an error: out of ideas
crash|decision 3 .*the policy process exited with status 5
kill|decision 3 .*the policy process was killed by signal 9
hang|decision 3 .*no answer within 2 s \(timeout
overcommit|policy 'exec:.*bad_policy.py overcommit': capacity: 3 v100 GPUs planned, the cluster has 2
unknown-job|policy 'exec:.*unknown-job'.*job
hello-protocol|at its hello: protocol 2, mlsched speaks protocol 1
hello-cadence|at its hello: malformed message: "cadence"
exit-at-hello|at its hello: the policy process exited with status 3
EOF2
n=$(sqlite3 "$tmp/e.db" "SELECT count(*) FROM runs" 2>/dev/null || echo 0)
[ "$n" = 0 ] || bad "failed runs left $n runs in the database"
# a program that does not exist; parameters the policy refuses; the adapter's own
"$MLSCHED" simulate --trace "$t6" --cluster v100=1x2 --policy "exec:/nonexistent/policy" -q \
    2>"$tmp/err" >/dev/null
[ $? -eq 1 ] && grep -q "cannot run '/nonexistent/policy'" "$tmp/err" &&
    grep -q "at its hello: the policy process exited with status 127" "$tmp/err" ||
    bad "missing program: $(cat "$tmp/err")"
"$MLSCHED" simulate --trace "$t6" --cluster v100=1x2 -P color=blue \
    --policy "exec:$SRCDIR/tests/fixtures/exec/bad_policy.py refuse-params" -q 2>"$tmp/err" >/dev/null
[ $? -eq 1 ] && grep -q "at start: the policy reported an error: unknown parameter color" "$tmp/err" ||
    bad "refused parameter: $(cat "$tmp/err")"
"$MLSCHED" simulate --trace "$t6" --cluster v100=1x2 -P color=blue --policy "exec:$ex/fifo.py" \
    -q 2>"$tmp/err" >/dev/null
[ $? -eq 1 ] && grep -q "py-fifo takes no parameters, got color" "$tmp/err" ||
    bad "Python policy parameters: $(cat "$tmp/err")"
"$MLSCHED" simulate --trace "$t6" --cluster v100=1x2 -P exec.timeout=-1 --policy "exec:$ex/fifo.py" \
    -q 2>"$tmp/err" >/dev/null
[ $? -eq 1 ] && grep -q "exec.timeout wants seconds > 0" "$tmp/err" || bad "exec.timeout: $(cat "$tmp/err")"

# 3. compare: an exec policy beside C ones
"$MLSCHED" compare --trace "$trace" --cluster v100=2x4,k80=2x4 \
    --policies "las,exec:$ex/las.py" --db "$tmp/c.db" >"$tmp/cmp" 2>&1 || bad "compare: $(cat "$tmp/cmp")"
grep -q "exec:.*las.py" "$tmp/cmp" || bad "compare does not list the exec policy: $(cat "$tmp/cmp")"
# a Python exception in schedule(), reported by the binding
"$MLSCHED" simulate --trace "$t6" --cluster v100=1x2 \
    --policy "exec:$SRCDIR/tests/fixtures/exec/raise_policy.py" -q >/dev/null 2>"$tmp/err"
[ $? -eq 1 ] && grep -q "decision 3 .*the policy reported an error: KeyError: 'no such key'" "$tmp/err" ||
    bad "raise: $(cat "$tmp/err")"
# oracle: remaining_work and batch_schedule only for a policy whose hello says so
for mode in ok oracle; do
    "$MLSCHED" simulate --trace "$t6" --cluster v100=1x2 \
        --policy "exec:$SRCDIR/tests/fixtures/exec/bad_policy.py $mode" -q --db "$tmp/o.db" \
        >/dev/null 2>"$tmp/err" || bad "$mode: $(cat "$tmp/err")"
done
[ "$(sqlite3 "$tmp/o.db" "SELECT group_concat(oracle) FROM (SELECT oracle FROM runs ORDER BY run_id)")" = "0,1" ] ||
    bad "the runs' oracle flags are not 0,1"
# mlsched policies shows an exec policy's hello
"$MLSCHED" policies "exec:$ex/las.py" >"$tmp/pol" 2>&1 &&
    grep -q "^cadence: *events+rounds" "$tmp/pol" && grep -q "^paper: *Gu et al" "$tmp/pol" ||
    bad "mlsched policies exec: $(cat "$tmp/pol")"
# sweep: the same over a grid
"$MLSCHED" sweep --trace "$t6" --cluster v100=1x2 --policies "las,exec:$ex/las.py" \
    --grid round=120,360 --db "$tmp/s.db" >"$tmp/sw" 2>&1 || bad "sweep: $(cat "$tmp/sw")"
[ "$(grep -c "exec:.*las.py" "$tmp/sw")" = 2 ] || bad "sweep does not list the exec policy twice: $(cat "$tmp/sw")"

# 4. the static total_batch field: a trace's column, 0 where a row gives none
printf '%s\n' "id,submit_time,user,workload,gpus,total_work,total_batch" \
    "1,10,u,CycleGAN,1,2000,2048" "2,20,u,CycleGAN,2,2000," >"$tmp/tb.csv"
"$MLSCHED" simulate --trace "$tmp/tb.csv" --cluster v100=1x2 -q \
    --policy "exec:$SRCDIR/tests/fixtures/exec/total_batch.py" -P out="$tmp/tb.out" \
    >/dev/null 2>"$tmp/err" || bad "total_batch.py: $(cat "$tmp/err")"
[ "$(tr '\n' ' ' <"$tmp/tb.out" 2>/dev/null)" = "1 2048 2 0 " ] ||
    bad "the static total_batch field: $(cat "$tmp/tb.out" 2>/dev/null)"

[ $fail -eq 0 ] || exit 1
echo "exec_policy: ok"
