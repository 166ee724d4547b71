#!/bin/sh
# live_async_stop.sh: stops are asynchronous (issue 19). One GPU, srtf: job 0
# ignores SIGTERM (fake-job --ignore-term) and is preempted by the shorter
# job 1 with a 3 s grace period. During the grace the daemon must keep
# serving and deciding: `live status` and a `live submit` (job 2) answer in
# under 0.5 s, the daemon clock follows the wall clock (no jump), and job 2's
# arrival is decided at once (a decision at its submit time, before the
# SIGKILL). Job 0 is killed when its grace has passed (exit 137) and not
# before, job 1's process starts only once job 0's has exited (its GPU is
# clear), and every job finishes exactly once. Then cancels (fifo, grace
# 2 s): the cancel of a job that ignores SIGTERM is answered once the job
# has been killed (2 s) while `live status` answers at once; a job whose
# process waits for that GPU is cancelled at once and never starts; the next
# job starts once the GPU is clear. Beside it all, a Slurm daemon
# whose `sinfo` never answers (a fake one first in PATH) gives up on it after
# 5 s (live/exec_slurm.c bounds every Slurm command it waits for).
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/live_lib.sh"
test_init async sqlite3
spid=""
test_cleanup_more() {
    [ -n "$pid" ] && wait "$pid" 2>/dev/null
    [ -n "$spid" ] && kill "$spid" 2>/dev/null && wait "$spid" 2>/dev/null
}
mkdir "$tmp/bin"
printf '#!/bin/sh\nexec sleep 60\n' >"$tmp/bin/sinfo"
chmod +x "$tmp/bin/sinfo"
s0=$(date +%s.%N)
(PATH="$tmp/bin:$PATH" "$MLSCHED" live serve --cluster v100=1x1 --policy fifo --executor slurm \
    --state "$tmp/slurm.db" --socket "$tmp/srun/sock" 2>"$tmp/slurm.log"
    echo "$? $(date +%s.%N)" >"$tmp/slurm.rc") &
spid=$!
sock="$tmp/run/sock"
scale=10
grace=3
"$MLSCHED" live serve --cluster v100=1x1 --policy srtf --round 0 --time-scale $scale \
    --grace $grace --restart-overhead 0 --state "$tmp/s.db" --socket "$sock" \
    2>"$tmp/daemon.log" &
pid=$!
live_wait_up "$sock" "$pid" "$tmp/daemon.log"

wall() { date +%s.%N; }
# timed CMD...: runs it, its output in $tmp/out, its wall time in $took
timed() {
    _t0=$(wall)
    "$@" >"$tmp/out" 2>&1 || bad "'$*' failed: $(cat "$tmp/out")"
    took=$(echo "$_t0 $(wall)" | awk '{ printf "%.3f", $2 - $1 }')
}
slow=0
fast_enough() { # WHAT: $took under 0.5 s
    echo "$1: $took s"
    awk -v t="$took" 'BEGIN { exit !(t < 0.5) }' || { slow=1; echo "  (over 0.5 s)"; }
}
daemon_now() { sed -n 's/.*"now":\([-0-9.e+]*\).*/\1/p' "$tmp/out"; }
fake() { # WORK [OPTION]: a fake job at 1 work unit per daemon s
    _work=$1
    shift
    "$MLSCHED" live submit --socket "$sock" --workload A3C --gpus 1 --work "$_work" -- \
        "$MLSCHED" live fake-job --rate 1 --report-interval 0.2 "$@"
}

fake 60 --ignore-term >/dev/null || bad "submit of job 0 failed"
sleep 1
w0=$(wall)
timed "$MLSCHED" live status --json --socket "$sock"
n0=$(daemon_now)
fake 10 >/dev/null || bad "submit of job 1 failed" # srtf preempts job 0 for it
sleep 0.3
# the grace period: job 0 ignores its SIGTERM
timed "$MLSCHED" live status --json --socket "$sock"
fast_enough "status during the grace"
grep -q '"id":0,"state":"stopping"' "$tmp/out" || bad "job 0 is not stopping: $(cat "$tmp/out")"
timed fake 20
fast_enough "submit during the grace"
t_submit2=$(sqlite3 "$tmp/s.db" "SELECT submit FROM jobs WHERE id = 2")
sleep 1
timed "$MLSCHED" live status --json --socket "$sock"
fast_enough "status later in the grace"
w1=$(wall)
n1=$(daemon_now)
grep -q '"id":0,"state":"stopping"' "$tmp/out" || bad "job 0 stopped before its grace: $(cat "$tmp/out")"
# the daemon clock kept pace with the wall clock (0.3 wall s of slack)
echo "$w0 $n0 $w1 $n1" | awk -v x=$scale '{ d = ($4 - $2) / x - ($3 - $1); printf "clock drift %.3f wall s\n", d;
    exit !(d < 0.3 && d > -0.3) }' || bad "the daemon clock jumped: $w0 $n0 -> $w1 $n1"
if live_timing_asserted; then
    [ $slow = 0 ] || bad "a request took 0.5 s or more during the grace period"
else
    echo "(sanitizer build: request times not asserted)"
fi

# to the end
"$MLSCHED" live drain --socket "$sock" || bad "drain failed"
live_wait_exit "$pid" "$tmp/daemon.log" 40
pid=""

wait "$spid"
spid=""
read -r src s1 <"$tmp/slurm.rc"
echo "$s0 $s1" | awk '{ printf "the Slurm daemon gave up on sinfo after %.1f s\n", $2 - $1; exit !($2 - $1 < 15) }' ||
    bad "the Slurm daemon waited for sinfo $(echo "$s0 $s1" | awk '{ print $2 - $1 }') s"
[ "$src" != 0 ] && grep -q "sinfo failed" "$tmp/slurm.log" ||
    bad "a Slurm daemon without sinfo: exit $src, $(cat "$tmp/slurm.log")"
grep -q "sinfo: no answer within 5 s: killed" "$tmp/slurm.log" ||
    bad "sinfo was not killed after 5 s: $(cat "$tmp/slurm.log")"
q() { sqlite3 "$tmp/s.db" "$1"; }
[ "$(q "SELECT group_concat(state || ' ' || completions, ',') FROM jobs")" = "done 1,done 1,done 1" ] ||
    bad "jobs: $(q "SELECT group_concat(id || ' ' || state || ' ' || completions, ',') FROM jobs")"
[ "$(q "SELECT group_concat(n) FROM (SELECT count(*) AS n FROM events WHERE event = 'finish' GROUP BY id)")" = "1,1,1" ] ||
    bad "finish events: $(q "SELECT id, count(*) FROM events WHERE event = 'finish' GROUP BY id")"
grep -q "job 0 ignored SIGTERM for $grace s: SIGKILL" "$tmp/daemon.log" ||
    bad "no SIGKILL for job 0: $(cat "$tmp/daemon.log")"
[ "$(q "SELECT detail FROM events WHERE id = 0 AND event = 'stop'")" = "exit 137 attempt 1" ] ||
    bad "job 0's stop: $(q "SELECT t, event, detail FROM events WHERE id = 0")"
# killed after its grace (SIGTERM at job 1's arrival), not before and not much later;
# the SIGKILL ends its watcher too, so the daemon times the exit itself
term=$(q "SELECT submit FROM jobs WHERE id = 1")
kill0=$(q "SELECT t FROM events WHERE id = 0 AND event = 'stop'")
echo "$term $kill0" | awk -v x=$scale -v g=$grace '{ k = ($2 - $1) / x;
    printf "job 0 killed %.2f wall s after its SIGTERM (grace %d s)\n", k, g; exit !(k >= g && k < g + 1) }' ||
    bad "job 0 was not killed at the end of its grace"
# job 1's process (its watcher's pid file) started after job 0's had exited
epoch=$(q "SELECT value FROM meta WHERE key = 'epoch'")
start1=$(date -r "$tmp/s.db.d/job-1-1.pid" +%s.%N)
echo "$epoch $kill0 $start1" | awk -v x=$scale '{ s = ($3 - $1) * x;
    printf "job 1 started at daemon time %.2f, job 0 exited at %.2f\n", s, $2; exit !(s >= $2 - 0.05 * x) }' ||
    bad "job 1 started before job 0 exited"
# job 2's arrival was decided at once, during the grace
d2=$(q "SELECT min(t) FROM decisions WHERE t >= $t_submit2 - 0.01")
echo "$t_submit2 $d2 $kill0" | awk -v x=$scale '{ exit !($2 - $1 < 0.5 * x && $2 < $3) }' ||
    bad "no decision at job 2's arrival ($t_submit2) before job 0's exit: $(q "SELECT group_concat(printf('%.1f', t), ' ') FROM decisions")"

# cancels, while the GPU drains
slow=0
sock="$tmp/run2/sock"
"$MLSCHED" live serve --cluster v100=1x1 --policy fifo --round 0 --time-scale $scale \
    --grace 2 --restart-overhead 0 --state "$tmp/c.db" --socket "$sock" 2>"$tmp/daemon2.log" &
pid=$!
live_wait_up "$sock" "$pid" "$tmp/daemon2.log"
fake 1000 --ignore-term >/dev/null || bad "cancels: submit of job 0 failed"
sleep 0.5
c0=$(wall)
("$MLSCHED" live cancel --socket "$sock" 0 >"$tmp/cancel0" 2>&1; echo "$? $(wall)" >"$tmp/cancel0.rc") &
cpid=$!
sleep 0.3
timed fake 10 # fifo starts it on the GPU job 0 still holds: its process waits
fast_enough "submit while a cancelled job ignores SIGTERM"
timed "$MLSCHED" live status --json --socket "$sock"
fast_enough "status while a cancelled job ignores SIGTERM"
grep -q '"id":0,"state":"stopping"' "$tmp/out" || bad "cancels: job 0 is not stopping: $(cat "$tmp/out")"
timed "$MLSCHED" live cancel --socket "$sock" 1
fast_enough "cancel of a job whose process waits"
fake 10 >/dev/null || bad "cancels: submit of job 2 failed"
wait "$cpid"
read -r crc c1 <"$tmp/cancel0.rc"
echo "$c0 $c1" | awk '{ printf "cancel of job 0 (ignores SIGTERM, grace 2 s) answered after %.2f s\n", $2 - $1;
    exit !($2 - $1 >= 2 && $2 - $1 < 3.5) }' || bad "cancel of job 0 not answered at its SIGKILL"
[ "$crc" = 0 ] || bad "cancel of job 0 failed: $(cat "$tmp/cancel0")"
"$MLSCHED" live drain --socket "$sock" || bad "cancels: drain failed"
live_wait_exit "$pid" "$tmp/daemon2.log" 20 cancels
pid=""
[ "$(sqlite3 "$tmp/c.db" "SELECT group_concat(state || ' ' || attempt, ',') FROM jobs")" = \
    "cancelled 1,cancelled 0,done 1" ] ||
    bad "cancels: jobs $(sqlite3 "$tmp/c.db" "SELECT group_concat(id || ' ' || state || ' ' || attempt, ',') FROM jobs")"
if live_timing_asserted; then
    [ $slow = 0 ] || bad "a request took 0.5 s or more while a job stopped"
fi
[ $fail = 0 ] || { echo "daemon logs:"; cat "$tmp/daemon.log" "$tmp/daemon2.log"; }
exit $((fail > 0))
