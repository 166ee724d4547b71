#!/bin/sh
# live_mech_crash.sh: the live daemon SIGKILLed in the middle of each of the
# seed mechanisms (local executor, fake jobs, time scale 100), kept away 0.3
# wall s (30 daemon s) and restarted; three scenarios, side by side:
# - slice: gandiva-paper (-P pack=0) time-slices two jobs on v100=1x1 by
#   SIGSTOP/SIGCONT (--preempt suspend, quanta of --round 120,
#   tests/fixtures/live/trace-slice-crash.csv). The daemon is killed once job
#   0 is suspended (a stopped process) and job 1 runs. The restarted daemon
#   re-adopts the stopped job, and later resumes it with SIGCONT: both jobs
#   run one process each from start to end. (Before the fix, the watcher
#   stayed in the daemon's session, and the daemon's death sent SIGHUP to
#   the suspended job's group, orphaned and stopped: job 0 died, 129.)
# - migrate: gandiva-paper (-P pack=0) on v100=2x2 moves job 0 to the other
#   node when job 1 ends, so that job 3 gets a node's two GPUs
#   (defragmentation; trace-migrate-crash.csv). The daemon is killed once
#   job 0 runs again after the move and job 3 has started. The restarted
#   daemon's policy, which lost its slots, re-adopts the GPUs each running
#   job holds: nothing moves again (before the fix it placed jobs anew).
# - gang: pathways starts a gang of two 4-GPU computations on two islands
#   of 8 GPUs (tests/fixtures/pathways/islands.json, trace-gang-crash.csv).
#   The daemon is killed once the decision that started the gang (and job
#   2 beside it) is carried out: both computations are re-adopted and go
#   on, neither restarts. Computation 1's row is then put back as it was
#   before its pid and start event were committed (the daemon killed while
#   forking it): the restarted daemon finds its process by its pid file and
#   records the start event it missed (before, its attempt had none).
# In each: every job finishes exactly once (one 'finish' event, attempts
# matching 'start' events), no run fails or is lost, every job that held a
# process at the kill is re-adopted, and the per-job JCTs stay within 5 % of
# `mlsched simulate` on the average (asserted unless this is a sanitizer
# build: live_timing_asserted; measured at load 7-12: slice 0.8-3.9 % (as
# without a crash: each SIGSTOP loses the fake job's step in progress), about
# 4-6 % before the daemon was woken by exit files, since re-adopted jobs are
# not its children; migrate 0.2-1.0 %; gang 0.1-0.5 %); the differences are
# printed. The three
# daemons run side by side (~10 s). Set KEEP=1 to keep the databases.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/live_lib.sh"
test_init mcrash sqlite3
test_cleanup_more() { # the fake jobs of a failed run
    for s in slice migrate gang; do live_kill_jobs "$tmp/$s.db"; done
}
bad() { # also from the scenarios' subshells
    echo "FAIL: $*"
    echo "$*" >>"$tmp/failed"
}
fix="$SRCDIR/tests/fixtures"
tp="$SRCDIR/traces/catalog/default-throughputs.json"
printf '{"default": {"start": 20, "restart": 20, "resize": 20, "migrate": 20, "suspend": 0.25}}\n' \
    >"$tmp/ovh.json"

# scenario NAME TRACE CLUSTER "OPTS" "SIM_OPTS" "LIVE_OPTS" TRIGGER_SQL [SQL]: runs the trace
# on a daemon, SIGKILLs it once TRIGGER_SQL (a SELECT ... WHERE) gives a row and no
# job's start is under way (15 s at most), runs SQL on its state if given, restarts it
# 0.3 s later, waits for the end (60 s) and simulates; notes go to $tmp/NAME.out.
scenario() {
    s=$1 trace=$2 cluster=$3 opts=$4 simopts=$5 liveopts=$6 trig=$7 doctor=${8:-}
    db="$tmp/$s.db" sock="$tmp/$s/sock" out="$tmp/$s.out"
    serve() {
        live_serve "$s" --cluster "$cluster" --throughputs "$tp" $opts $liveopts --time-scale 100
        live_up "$s"
    }
    serve
    live_submit_trace "$sock" "$trace" "$tp" "$s"
    i=0 hit=""
    while [ -z "$hit" ] && [ $i -lt 750 ]; do
        sleep 0.02
        i=$((i + 1))
        # and no start under way (committed, its process not yet recorded)
        hit=$(sqlite3 "$db" "$trig AND NOT EXISTS (SELECT 1 FROM jobs
            WHERE state = 'running' AND pid = 0)" 2>/dev/null)
    done
    pid=$(cat "$tmp/$s.pid")
    kill -KILL "$pid"
    wait "$pid" 2>/dev/null
    [ -n "$hit" ] || bad "$s: the moment to kill the daemon did not come within 15 s"
    sqlite3 "$db" "SELECT id, state, suspended, attempt, pid FROM jobs" >"$tmp/$s.killed"
    [ -z "$doctor" ] || sqlite3 "$db" "$doctor" || bad "$s: $doctor: failed"
    echo "$s: daemon SIGKILLed at t=$(sqlite3 "$db" "SELECT printf('%.1f', max(t)) FROM events")" \
        "(jobs: $(sqlite3 "$db" "SELECT group_concat(id || '=' || state ||
            CASE WHEN suspended THEN '(suspended)' ELSE '' END, ' ') FROM jobs"))" >"$out"
    sleep 0.3
    serve
    live_down "$s" 60
    "$MLSCHED" simulate --trace "$trace" --cluster "$cluster" --throughputs "$tp" $opts \
        $simopts -q --db "$tmp/$s-sim.db" >/dev/null || bad "$s: simulate failed"
}

q() { sqlite3 "$tmp/$1.db" "$2" 2>/dev/null; }

# the checks every scenario passes
common() {
    s=$1
    cat "$tmp/$s.out"
    want=$(grep -c '^[0-9]' "$2")
    n=$(q $s "SELECT count(*) FROM jobs WHERE state = 'done' AND completions = 1")
    [ "$n" = "$want" ] || bad "$s: $n of $want jobs done exactly once: $(q $s \
        'SELECT id, state, completions, exit_code FROM jobs')"
    n=$(q $s "SELECT count(*) FROM (SELECT id FROM events WHERE event = 'finish' GROUP BY id
        HAVING count(*) = 1)")
    [ "$n" = "$want" ] || bad "$s: $n jobs with exactly one finish event, wanted $want"
    n=$(q $s "SELECT count(*) FROM events WHERE event IN ('fail', 'lost')")
    [ "$n" = 0 ] || bad "$s: $n failed or lost runs: $(q $s "SELECT t, id, event, detail FROM
        events WHERE event IN ('fail', 'lost')")"
    n=$(q $s "SELECT count(*) FROM jobs WHERE attempt <> (SELECT count(*) FROM events e
        WHERE e.id = jobs.id AND e.event = 'start')")
    [ "$n" = 0 ] || bad "$s: $n jobs whose attempts do not match their start events"
    n=$(q $s "SELECT count(*) FROM decisions WHERE error IS NOT NULL")
    [ "$n" = 0 ] || bad "$s: $n plans refused: $(q $s \
        'SELECT error FROM decisions WHERE error IS NOT NULL LIMIT 1')"
    # every job that held a process at the kill was re-adopted
    for j in $(awk -F'|' '$5 > 0 && ($2 == "running" || $3 == 1) { print $1 }' "$tmp/$s.killed"); do
        n=$(q $s "SELECT count(*) FROM events WHERE id = $j AND event = 'adopt'")
        [ "$n" = 1 ] || bad "$s: job $j was not re-adopted"
    done
    if live_timing_asserted; then
        live_jct_compare "$s" "$tmp/$s.db" "$tmp/$s-sim.db" 5
    else
        live_jct_compare "$s" "$tmp/$s.db" "$tmp/$s-sim.db" 1000
        echo "$s: sanitizer build: the JCT difference is not asserted"
    fi
}

gp="--policy gandiva-paper -P pack=0 --round 120"
scenario slice "$fix/live/trace-slice-crash.csv" v100=1x1 "$gp" "--overheads $tmp/ovh.json" \
    "--preempt suspend" "SELECT 1 FROM jobs a JOIN jobs b ON a.id = 0 AND b.id = 1
        WHERE a.suspended = 1 AND b.state = 'running' AND b.pid > 0" &
scenario migrate "$fix/live/trace-migrate-crash.csv" v100=2x2 "$gp" "" "" \
    "SELECT 1 FROM jobs a JOIN jobs b ON a.id = 0 AND b.id = 3 WHERE a.attempt = 2
        AND a.state = 'running' AND a.pid > 0 AND b.state = 'running' AND b.pid > 0" &
scenario gang "$fix/live/trace-gang-crash.csv" "$fix/pathways/islands.json" \
    "--policy pathways --round 120" "" "" "SELECT 1 WHERE (SELECT count(*) FROM jobs
        WHERE id IN (0, 1, 2) AND state = 'running' AND pid > 0) = 3" \
    "UPDATE jobs SET pid = 0, pid_start = 0 WHERE id = 1;
        DELETE FROM events WHERE id = 1 AND event = 'start'" &
wait

# slice: job 0 was suspended (a stopped process) when the daemon died, was
# re-adopted, and resumed after the restart: no job ran more than one process
common slice "$fix/live/trace-slice-crash.csv"
grep -q '^0|queued|1|1|[1-9]' "$tmp/slice.killed" ||
    bad "slice: job 0 was not suspended when the daemon was killed: $(cat "$tmp/slice.killed")"
n=$(q slice "SELECT count(*) FROM events r JOIN events a ON a.id = 0 AND a.event = 'adopt'
    AND r.seq > a.seq WHERE r.id = 0 AND r.event = 'resume'")
[ "$n" -gt 0 ] || bad "slice: job 0 was not resumed after the restart"
n=$(q slice "SELECT group_concat(id || ':' || attempt || ':' || exit_code, ' ') FROM jobs")
[ "$n" = "0:1:0 1:1:0" ] || bad "slice: a job ran more than one process (id:attempts:exit) $n:
    $(q slice "SELECT t, id, event, detail FROM events WHERE event IN ('start', 'stop')")"
echo "slice: $(q slice "SELECT count(*) FROM events WHERE event = 'suspend'") suspensions," \
    "$(q slice "SELECT count(*) FROM events WHERE event = 'resume'") resumptions (SIGCONT)"

# migrate: job 0 moved once (before the kill), nothing moved after the restart
common migrate "$fix/live/trace-migrate-crash.csv"
n=$(q migrate "SELECT group_concat(id || ':' || attempt, ' ') FROM jobs")
[ "$n" = "0:2 1:1 2:1 3:1" ] || bad "migrate: runs per job (id:attempts) $n, wanted job 0 moved" \
    "once and no other restart: $(q migrate "SELECT t, id, event, detail FROM events
    WHERE event IN ('start', 'stop', 'adopt')")"

# gang: both computations started in one decision, once, and were re-adopted
common gang "$fix/live/trace-gang-crash.csv"
n=$(q gang "SELECT count(DISTINCT first_start) || ':' || sum(attempt) FROM jobs WHERE id IN (0, 1)")
[ "$n" = "1:2" ] || bad "gang: the gang's computations (distinct first starts:runs) $n, wanted 1:2"

if [ -s "$tmp/failed" ]; then
    exit 1
fi
echo "live_mech_crash: ok"
