#!/bin/sh
# live_pack_crash.sh: SIGKILL the live daemon while a pair of jobs shares a
# GPU (gandiva on tests/fixtures/live/trace-pack.csv, v100=1x2, time scale
# 100), start it again on the same state db: it re-adopts both members of the
# pair (both rows name the same GPU and each other), a member whose partner
# ended while it was away goes on alone, and every job finishes exactly once
# (one 'finish' event, completions = 1) with no failed run.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
if ! command -v sqlite3 >/dev/null 2>&1; then
    echo "SKIP: the sqlite3 command is not installed"
    exit 77
fi
tmp=$(mktemp -d /tmp/mls-pkcrash-XXXXXX)
pid=""
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null
    if [ -f "$tmp/s.db" ]; then # the fake jobs of a failed run, by the pids the db recorded
        for p in $(sqlite3 "$tmp/s.db" "SELECT pid FROM jobs WHERE pid > 0" 2>/dev/null); do
            kill -KILL -- "-$p" 2>/dev/null
        done
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
sock="$tmp/run/sock"
trace="$SRCDIR/tests/fixtures/live/trace-pack.csv"
serve() {
    "$MLSCHED" live serve --cluster v100=1x2 --policy gandiva --round 120 --time-scale 100 \
        --state "$tmp/s.db" --socket "$sock" 2>>"$tmp/daemon.log" &
    pid=$!
    i=0
    until "$MLSCHED" live status --socket "$sock" >/dev/null 2>&1; do
        i=$((i + 1))
        [ $i -gt 100 ] && { echo "FAIL: daemon did not come up: $(cat "$tmp/daemon.log")"; exit 1; }
        sleep 0.1
    done
}
# the pair running now: "ID ID" of two running jobs that name each other
pair_now() {
    sqlite3 -separator ' ' "$tmp/s.db" "SELECT a.id, b.id FROM jobs a JOIN jobs b
        ON a.partner = b.id AND b.partner = a.id AND a.gpu_ids = b.gpu_ids AND a.id < b.id
        WHERE a.state = 'running' AND b.state = 'running' AND a.joined + b.joined = 1
        LIMIT 1" 2>/dev/null
}

serve
"$MLSCHED" live submit --socket "$sock" --trace "$trace" >/dev/null || bad "submit --trace failed"
i=0
pair=""
while [ -z "$pair" ] && [ $i -lt 300 ]; do
    sleep 0.05
    pair=$(pair_now)
    i=$((i + 1))
done
[ -n "$pair" ] || bad "no pair was running within 15 s"
sleep 0.3 # both members have started their processes
kill -KILL "$pid"
wait "$pid" 2>/dev/null
pid=""
echo "killed the daemon while jobs $pair shared a GPU"
sleep 1
serve
"$MLSCHED" live drain --socket "$sock" || bad "drain failed"
i=0
while kill -0 "$pid" 2>/dev/null; do
    i=$((i + 1))
    [ $i -gt 900 ] && { bad "daemon still running 90 s after the restart"; break; }
    sleep 0.1
done
wait "$pid" || bad "restarted daemon exited $?"
pid=""

want=$(grep -c '^[0-9]' "$trace")
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM jobs WHERE state='done' AND completions=1")
[ "$n" = "$want" ] || bad "$n of $want jobs done exactly once: $(sqlite3 "$tmp/s.db" 'SELECT id, state, completions FROM jobs')"
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM (SELECT id FROM events WHERE event='finish' GROUP BY id HAVING count(*) = 1)")
[ "$n" = "$want" ] || bad "$n jobs with exactly one finish event, wanted $want"
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM events WHERE event='fail'")
[ "$n" = 0 ] || bad "$n failed runs: $(cat "$tmp/daemon.log")"
# both members of the pair were re-adopted or settled by the restarted daemon
for id in $pair; do
    n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM events WHERE id = $id AND event IN ('adopt', 'finish')
        AND t >= (SELECT max(t) FROM events WHERE id = $id AND event = 'start' AND t <= (SELECT min(t) FROM events WHERE event = 'adopt'))")
    [ "$n" -gt 0 ] || bad "job $id of the pair was neither re-adopted nor settled after the restart"
done
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM events WHERE event='adopt'")
[ "$n" -gt 0 ] || bad "the restarted daemon re-adopted no job: $(cat "$tmp/daemon.log")"
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM jobs WHERE attempt <> (SELECT count(*) FROM events e WHERE e.id = jobs.id AND e.event = 'start')")
[ "$n" = 0 ] || bad "$n jobs whose attempts do not match their start events"
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM jobs WHERE partner >= 0 OR joined = 1")
[ "$n" = 0 ] || bad "$n ended jobs still name a partner"
echo "events:"
sqlite3 "$tmp/s.db" "SELECT event, count(*) FROM events GROUP BY event" | sed 's/^/  /'
[ $fail -eq 0 ] || exit 1
echo "live_pack_crash: ok"
