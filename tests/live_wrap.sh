#!/bin/sh
# live_wrap.sh: `mlsched live wrap` makes a command that prints progress
# lines a live job (tests/fixtures/live/progress-job.sh stands in for
# `mlsched-gpu-bench W --progress B --iters -1`):
# 1. alone, it stops the command once $MLSCHED_TOTAL_WORK samples are done,
#    exit 0, the count in the checkpoint;
# 2. SIGTERM: exit 143 with the work of the completed iterations saved; the
#    next run resumes the count (fewer iterations, the total exact);
# 3. a command that ends early is a failure naming its exit status;
#    a malformed progress line and bad usage are errors;
# 4. under the daemon (las, 2 s rounds, two jobs on one GPU): both are
#    preempted and resumed through their checkpoints and each finishes exactly
#    once with its whole work, counted in iterations (--unit iters).
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/live_lib.sh"
test_init live_wrap sqlite3
job="$SRCDIR/tests/fixtures/live/progress-job.sh"

# 1: 400 samples at batch 8 = 50 iterations of 2 ms
MLSCHED_TOTAL_WORK=400 MLSCHED_BATCH_SIZE=8 MLSCHED_CHECKPOINT="$tmp/ck1" \
    "$MLSCHED" live wrap -- "$job" '{batch}' 0.002 >"$tmp/out1" 2>"$tmp/err1"
rc=$?
[ $rc = 0 ] || bad "1: exit $rc: $(cat "$tmp/err1")"
[ "$(cat "$tmp/ck1")" = 400 ] || bad "1: checkpoint '$(cat "$tmp/ck1")', want 400"
n=$(grep -c mlsched-progress "$tmp/out1")
[ "$n" = 50 ] || bad "1: $n progress lines passed on, want 50"
grep -q 'first progress .* s after the start' "$tmp/err1" || bad "1: no start-up time: $(cat "$tmp/err1")"

# 2: preempted after ~0.5 s of 20 ms iterations (8 samples each), then resumed
MLSCHED_TOTAL_WORK=800 MLSCHED_CHECKPOINT="$tmp/ck2" \
    "$MLSCHED" live wrap -- "$job" 8 0.02 >"$tmp/out2" 2>"$tmp/err2" &
pid=$!
sleep 0.5
kill -TERM $pid
wait $pid
rc=$?
[ $rc = 143 ] || bad "2: exit $rc after SIGTERM, want 143: $(cat "$tmp/err2")"
ck=$(cat "$tmp/ck2" 2>/dev/null)
n=$(grep -c mlsched-progress "$tmp/out2")
[ "$ck" = $((n * 8)) ] && [ "$n" -gt 0 ] && [ "$n" -lt 100 ] ||
    bad "2: checkpoint '$ck' after $n iterations of 8 samples"
MLSCHED_TOTAL_WORK=800 MLSCHED_CHECKPOINT="$tmp/ck2" \
    "$MLSCHED" live wrap -- "$job" 8 0.002 >"$tmp/out2b" 2>"$tmp/err2b" ||
    bad "2: resumed run failed: $(cat "$tmp/err2b")"
m=$(grep -c mlsched-progress "$tmp/out2b")
[ $((n + m)) = 100 ] || bad "2: $n + $m iterations over the two runs, want 100"
[ "$(cat "$tmp/ck2")" = 800 ] || bad "2: final checkpoint $(cat "$tmp/ck2")"

# 3: failures
MLSCHED_TOTAL_WORK=800 "$MLSCHED" live wrap -- "$job" 8 0.001 3 >/dev/null 2>"$tmp/err3"
rc=$?
[ $rc = 1 ] || bad "3: exit $rc for a command that ended early, want 1"
grep -q 'exited with status 3 after 24 of 800 work units' "$tmp/err3" ||
    bad "3: message: $(cat "$tmp/err3")"
MLSCHED_TOTAL_WORK=8 "$MLSCHED" live wrap -- sh -c 'echo "mlsched-progress iter=x"; sleep 5' \
    >/dev/null 2>"$tmp/err4"
rc=$?
[ $rc = 1 ] && grep -q "iter" "$tmp/err4" || bad "3: malformed line: exit $rc: $(cat "$tmp/err4")"
"$MLSCHED" live wrap -- true 2>"$tmp/err5"
[ $? = 2 ] && grep -q 'needs --work' "$tmp/err5" || bad "3: no work: $(cat "$tmp/err5")"
"$MLSCHED" live wrap --work 5 --unit epochs -- true 2>"$tmp/err6"
[ $? = 2 ] && grep -q "samples or iters" "$tmp/err6" || bad "3: --unit: $(cat "$tmp/err6")"

# 4: under the daemon: 60 iterations of 50 ms each, two jobs, las, 2 s rounds
tp="$SRCDIR/traces/catalog/default-throughputs.json"
live_serve d --cluster v100=1x1 --policy las --round 2 --restart-overhead 0 --grace 2 -q
trap 'live_kill_jobs "$tmp/d.db"; kill "$(cat "$tmp/d.pid" 2>/dev/null)" 2>/dev/null' EXIT
live_up d
for id in 1 2; do
    "$MLSCHED" live submit --socket "$tmp/d/sock" --id $id --workload "ResNet-50 (batch size 64)" \
        --gpus 1 --work 60 -- "$MLSCHED" live wrap --unit iters -- "$job" 64 0.05 >/dev/null ||
        bad "4: submit $id failed"
done
"$MLSCHED" live drain --socket "$tmp/d/sock" || bad "4: drain failed"
live_down d 60
n=$(sqlite3 "$tmp/d.db" "SELECT count(*) FROM jobs WHERE state='done' AND completions=1 AND work_done=60")
[ "$n" = 2 ] || bad "4: $n of 2 jobs done exactly once with their work: $(sqlite3 "$tmp/d.db" "SELECT id, state, completions, work_done FROM jobs")"
p=$(sqlite3 "$tmp/d.db" "SELECT sum(preemptions) FROM jobs")
[ "${p:-0}" -ge 1 ] || bad "4: no job was preempted (las, 2 s rounds, two 3 s jobs)"
for id in 1 2; do
    it=$(cat "$tmp/d.db.d/job-$id.log" | grep -c mlsched-progress)
    [ "$it" -ge 60 ] && [ "$it" -le 66 ] || bad "4: job $id ran $it iterations for 60 of work"
done
[ $fail -eq 0 ] || exit 1
echo "live_wrap: ok (job 1: $(sqlite3 "$tmp/d.db" "SELECT preemptions FROM jobs WHERE id=1") preemptions)"
