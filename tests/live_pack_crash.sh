#!/bin/sh
# live_pack_crash.sh: SIGKILL the live daemon while a pair of jobs shares a
# GPU, and keep it away while one of the pair ends. gandiva (seed 1) on
# v100=1x2 packs jobs 1 and 2 of tests/fixtures/live/trace-pack-crash.csv at
# once; job 2 is short (80 s of trace time, 0.8 wall s at time scale 100).
# The daemon is killed 0.2 s after the pair started and restarted 1.5 s
# later, when job 2 has ended: the restarted daemon settles job 2 from its
# watcher's exit record, re-adopts job 1, records that job 1 went on alone
# from job 2's exit time ('unpack' at that time, its pack file rewritten with
# `since` = that wall time), and job 1's fake job, told a second late,
# redoes its progress since then at its solo rate: job 1's JCT stays within
# 1 % of `mlsched simulate` (measured 0.02-0.04 % on a quiet machine, 0.45 %
# with four busy loops beside an ASan build; +1.6 % when the job does not
# correct from `since`), the mean over the jobs within 5 %, every job
# finishes exactly once, and no run fails. A sanitizer build prints the JCT
# differences but does not assert them (live_timing_asserted): job 2 lives
# 0.8 wall s, and CI's parallel sanitizer suite delays it by a tenth of that.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/live_lib.sh"
test_init pkcrash sqlite3
# the fake jobs of a failed run, by the pids the db recorded
test_cleanup_more() { live_kill_jobs "$tmp/s.db"; }
sock="$tmp/run/sock"
trace="$SRCDIR/tests/fixtures/live/trace-pack-crash.csv"
opts="--cluster v100=1x2 --policy gandiva --round 120"
serve() {
    "$MLSCHED" live serve $opts --time-scale 100 --state "$tmp/s.db" --socket "$sock" \
        2>>"$tmp/daemon.log" &
    pid=$!
    live_wait_up "$sock" "$pid" "$tmp/daemon.log"
}
q() { sqlite3 "$tmp/s.db" "$1" 2>/dev/null; }

serve
"$MLSCHED" live submit --socket "$sock" --trace "$trace" >/dev/null || bad "submit --trace failed"
i=0
pair=""
while [ -z "$pair" ] && [ $i -lt 300 ]; do
    sleep 0.05
    pair=$(q "SELECT a.id || ' ' || b.id FROM jobs a JOIN jobs b ON a.partner = b.id
        AND b.partner = a.id AND a.gpu_ids = b.gpu_ids AND a.id < b.id
        WHERE a.state = 'running' AND b.state = 'running' AND a.joined + b.joined = 1")
    i=$((i + 1))
done
[ "$pair" = "1 2" ] || bad "jobs 1 and 2 did not run as a pair within 15 s (pair: '$pair')"
sleep 0.2 # both processes run
kill -KILL "$pid"
wait "$pid" 2>/dev/null
pid=""
n=$(q "SELECT count(*) FROM jobs WHERE id IN (1, 2) AND state = 'running'")
[ "$n" = 2 ] || bad "the pair was not running when the daemon was killed"
echo "killed the daemon while jobs $pair shared a GPU"
sleep 1.5 # job 2 ends meanwhile
serve
"$MLSCHED" live drain --socket "$sock" || bad "drain failed"
live_wait_exit "$pid" "$tmp/daemon.log" 90 restarted
pid=""

want=$(grep -c '^[0-9]' "$trace")
n=$(q "SELECT count(*) FROM jobs WHERE state='done' AND completions=1")
[ "$n" = "$want" ] || bad "$n of $want jobs done exactly once: $(q 'SELECT id, state, completions FROM jobs')"
n=$(q "SELECT count(*) FROM (SELECT id FROM events WHERE event='finish' GROUP BY id HAVING count(*) = 1)")
[ "$n" = "$want" ] || bad "$n jobs with exactly one finish event, wanted $want"
n=$(q "SELECT count(*) FROM events WHERE event='fail'")
[ "$n" = 0 ] || bad "$n failed runs: $(cat "$tmp/daemon.log")"
n=$(q "SELECT count(*) FROM jobs WHERE attempt <> (SELECT count(*) FROM events e WHERE e.id = jobs.id AND e.event = 'start')")
[ "$n" = 0 ] || bad "$n jobs whose attempts do not match their start events"
adopt=$(q "SELECT min(t) FROM events WHERE event = 'adopt'")
n=$(q "SELECT count(*) FROM events WHERE id = 1 AND event = 'adopt'")
[ "$n" -gt 0 ] || bad "job 1 was not re-adopted: $(cat "$tmp/daemon.log")"
n=$(q "SELECT count(*) FROM events WHERE id = 2 AND event = 'finish' AND t < $adopt")
[ "$n" = 1 ] || bad "job 2 did not end while the daemon was away (settled from its exit record)"
# job 1 went on alone from job 2's exit time, and was told so
n=$(q "SELECT count(*) FROM events u JOIN events f ON f.id = 2 AND f.event = 'finish'
    AND abs(u.t - f.t) < 0.01 WHERE u.id = 1 AND u.event = 'unpack'")
[ "$n" = 1 ] || bad "job 1 has no 'unpack' at job 2's exit time: $(q "SELECT t, id, event FROM events WHERE id IN (1, 2)")"
grep -q '^partner none$' "$tmp/s.db.d/job-1-1.pack" ||
    bad "job 1's pack file does not say it runs alone: $(cat "$tmp/s.db.d/job-1-1.pack")"
n=$(q "SELECT count(*) FROM jobs WHERE partner >= 0 OR joined = 1")
[ "$n" = 0 ] || bad "$n ended jobs still name a partner"
"$MLSCHED" simulate --trace "$trace" $opts -q --db "$tmp/sim.db" >/dev/null || bad "simulate failed"
echo "job  sim_jct  live_jct  diff"
q "ATTACH '$tmp/sim.db' AS s; SELECT j.id, printf('%.1f', s.jct), printf('%.1f', j.jct),
    printf('%+.2f%%', 100.0 * (j.jct - s.jct) / s.jct) FROM jobs j JOIN s.jobs s
    ON s.job_id = j.id ORDER BY j.id" | tr '|' ' ' | sed 's/^/  /'
res=$(q "ATTACH '$tmp/sim.db' AS s; SELECT printf('%.2f', 100.0 * avg(abs(j.jct - s.jct) / s.jct))
    FROM jobs j JOIN s.jobs s ON s.job_id = j.id")
echo "mean |live - sim| / sim = $res % (daemon SIGKILLed for 1.5 wall s)"
d1=$(q "ATTACH '$tmp/sim.db' AS s; SELECT printf('%.3f', 100.0 * abs(j.jct - s.jct) / s.jct)
    FROM jobs j JOIN s.jobs s ON s.job_id = j.id WHERE j.id = 1")
if live_timing_asserted; then
    awk -v d="${res:-100}" 'BEGIN { exit !(d < 5) }' ||
        bad "mean per-job JCT difference $res % is not under 5 %"
    awk -v d="${d1:-100}" 'BEGIN { exit !(d < 1) }' ||
        bad "job 1's JCT is $d1 % off the simulator's: it ran alone at the pair rate after job 2 ended"
else
    echo "sanitizer build: the JCT differences are not asserted (job 1: $d1 %)"
fi
echo "events:"
q "SELECT event, count(*) FROM events GROUP BY event" | sed 's/^/  /'
[ $fail -eq 0 ] || exit 1
echo "live_pack_crash: ok"
