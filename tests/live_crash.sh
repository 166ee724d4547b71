#!/bin/sh
# live_crash.sh: SIGKILL the live daemon in the middle of a trace (las, so
# jobs are being preempted and restarted), start it again on the same state
# db: it re-adopts the jobs still running (pid + start time), settles those
# that ended while it was away (their watcher's exit record), and every job
# finishes exactly once (one 'finish' event, completions = 1, state done).
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/live_lib.sh"
test_init crash sqlite3
# the fake jobs of a failed run: end them by the pids the db recorded
test_cleanup_more() { live_kill_jobs "$tmp/s.db"; }
sock="$tmp/run/sock"
serve() {
    "$MLSCHED" live serve --cluster v100=1x4 --policy las --time-scale 100 \
        --state "$tmp/s.db" --socket "$sock" 2>>"$tmp/daemon.log" &
    pid=$!
    live_wait_up "$sock" "$pid" "$tmp/daemon.log"
}

serve
"$MLSCHED" live submit --socket "$sock" --trace "$SRCDIR/tests/fixtures/live/trace8.csv" \
    >/dev/null || bad "submit --trace failed"
sleep 12
running=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM jobs WHERE state='running'")
[ "$running" -gt 0 ] || bad "no job was running when the daemon was killed"
kill -KILL "$pid"
wait "$pid" 2>/dev/null
pid=""
sleep 2
serve
"$MLSCHED" live drain --socket "$sock" || bad "drain failed"
live_wait_exit "$pid" "$tmp/daemon.log" 90 restarted
pid=""

n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM jobs WHERE state='done' AND completions=1")
[ "$n" = 8 ] || bad "$n of 8 jobs done exactly once: $(sqlite3 "$tmp/s.db" 'SELECT id, state, completions FROM jobs')"
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM (SELECT id FROM events WHERE event='finish' GROUP BY id HAVING count(*) = 1)")
[ "$n" = 8 ] || bad "$n jobs with exactly one finish event, wanted 8"
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM events WHERE event IN ('adopt', 'lost')")
[ "$n" -gt 0 ] || bad "the restarted daemon neither re-adopted nor settled any job"
# no two runs of one job overlapped: each start follows the previous run's end
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM jobs WHERE attempt <> (SELECT count(*) FROM events e WHERE e.id = jobs.id AND e.event = 'start')")
[ "$n" = 0 ] || bad "$n jobs whose attempts do not match their start events"
grep -q "re-adopted" "$tmp/daemon.log" || bad "no re-adoption logged: $(cat "$tmp/daemon.log")"
echo "events after the restart:"
sqlite3 "$tmp/s.db" "SELECT event, count(*) FROM events GROUP BY event" | sed 's/^/  /'
[ $fail -eq 0 ] || exit 1
echo "live_crash: ok"
