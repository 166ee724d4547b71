# live_lib.sh: what the live tests share, sourced after they set MLSCHED and
# SRCDIR (it sources tests/test_lib.sh: test_init, bad): wait for a daemon to
# answer, run a trace through it to its end, and compare each job's JCT with
# `mlsched simulate` on the same trace.

. "$SRCDIR/tests/test_lib.sh"

# live_timing_asserted: true unless $MLSCHED is a sanitizer build, whose
# slower processes (and CI's parallel suite beside them) make a tight wall-time
# comparison a test of the machine's speed; such a build still prints it.
live_timing_asserted() {
    ! grep -q __asan_init "${MLSCHED:-./mlsched}" 2>/dev/null
}

# live_sanitizer_skip WHY: in a sanitizer build, exits 77 with WHY. For a
# wall-clock-bound live test whose JCT comparison such a build does not
# assert anyway and whose code another test runs there (WHY names it): CI
# runs the whole suite a second time under ASan + UBSan, where such a test
# would spend its wall time checking nothing new.
live_sanitizer_skip() {
    live_timing_asserted && return 0
    echo "SKIP: sanitizer build: $1"
    exit 77
}

# live_mode_init NAME MODE: test_init NAME sqlite3 for a test whose daemons
# run on the local executor or, MODE slurm, on a private Slurm: then it also
# skips unless one can start here (slurm_test_require, tests/slurm_serial.sh).
live_mode_init() {
    if [ "$2" = slurm ]; then
        . "$SRCDIR/tests/slurm_serial.sh"
        slurm_test_require sqlite3
    fi
    test_init "$1" sqlite3
}

# live_wait_up SOCKET PID LOG: until the daemon answers (10 s at most).
live_wait_up() {
    _i=0
    until "$MLSCHED" live status --socket "$1" >/dev/null 2>&1; do
        _i=$((_i + 1))
        kill -0 "$2" 2>/dev/null || { bad "daemon exited: $(cat "$3")"; exit 1; }
        [ $_i -gt 100 ] && { bad "daemon did not come up: $(cat "$3")"; exit 1; }
        sleep 0.1
    done
}

# live_serve NAME ARG...: starts `mlsched live serve ARG...` in the background
# as daemon NAME: its state in $tmp/NAME.db, its socket $tmp/NAME/sock, its
# stderr appended to $tmp/NAME.log, its pid in $tmp/NAME.pid (which the exit
# trap kills). live_up NAME waits for it to answer; live_down NAME [SECONDS]
# waits (120 s by default) for the drained daemon to exit, and forgets it.
live_serve() {
    _n=$1
    shift
    "$MLSCHED" live serve "$@" --state "$tmp/$_n.db" --socket "$tmp/$_n/sock" 2>>"$tmp/$_n.log" &
    echo $! >"$tmp/$_n.pid"
}

live_up() {
    live_wait_up "$tmp/$1/sock" "$(cat "$tmp/$1.pid")" "$tmp/$1.log"
}

live_down() {
    live_wait_exit "$(cat "$tmp/$1.pid")" "$tmp/$1.log" "${2:-120}" "$1"
    rm -f "$tmp/$1.pid"
}

# live_run NAME TRACE THROUGHPUTS ARG...: daemon NAME (live_serve NAME
# ARG...) runs TRACE as fake jobs (THROUGHPUTS may be "") to its end.
live_run() {
    _run=$1 _trace=$2 _tput=$3
    shift 3
    live_serve "$_run" "$@"
    live_up "$_run"
    live_submit_trace "$tmp/$_run/sock" "$_trace" "$_tput" "$_run"
    live_down "$_run"
}

# live_run_trace SOCKET PID LOG TRACE [THROUGHPUTS]: submits the trace as
# fake jobs, drains, and waits (120 s at most) for the daemon to exit.
live_run_trace() {
    live_submit_trace "$1" "$4" "${5:-}"
    live_wait_exit "$2" "$3"
}

# live_submit_trace SOCKET TRACE [THROUGHPUTS [WHAT]]: submits the trace as
# fake jobs and drains, without waiting (daemons side by side); WHAT names
# the daemon in a failure.
live_submit_trace() {
    "$MLSCHED" live submit --socket "$1" --trace "$2" ${3:+--throughputs "$3"} >/dev/null ||
        bad "${4:+$4: }submit --trace failed"
    "$MLSCHED" live drain --socket "$1" || bad "${4:+$4: }drain failed"
}

# live_wait_exit PID LOG [SECONDS [WHAT]]: waits (SECONDS, 120 by default, at
# most) for a drained daemon to exit, and for its exit status; WHAT names the
# daemon in a failure.
live_wait_exit() {
    _i=0
    while kill -0 "$1" 2>/dev/null; do
        _i=$((_i + 1))
        [ $_i -gt $((${3:-120} * 10)) ] && {
            bad "${4:+$4: }daemon still running after ${3:-120} s: $(tail -n 20 "$2")"
            break
        }
        sleep 0.1
    done
    wait "$1" || bad "${4:+$4: }daemon exited $?: $(tail -n 20 "$2")"
}

# live_kill_jobs DB: SIGKILLs the process groups of the fake jobs whose pids
# the state database DB records (a failed run's jobs, from a cleanup).
live_kill_jobs() {
    [ -f "$1" ] || return 0
    for _p in $(sqlite3 "$1" "SELECT pid FROM jobs WHERE pid > 0" 2>/dev/null); do
        kill -KILL -- "-$_p" 2>/dev/null
    done
}

# live_jct_compare NAME LIVE_DB SIM_DB LIMIT: prints each job's simulated
# and live JCT and the mean relative difference (live_mean, %), which must
# stay under LIMIT % (not asserted in a sanitizer build: live_timing_asserted).
live_jct_compare() {
    echo "$1: job  sim_jct  live_jct  diff"
    sqlite3 -separator ' ' "$2" "ATTACH '$3' AS s;
        SELECT j.id, printf('%.1f', s.jct), printf('%.1f', j.jct),
               printf('%+.2f%%', 100.0 * (j.jct - s.jct) / s.jct)
        FROM jobs j JOIN s.jobs s ON s.job_id = j.id ORDER BY j.id;" | sed 's/^/  /'
    _res=$(sqlite3 "$2" "ATTACH '$3' AS s;
        SELECT printf('%.2f %.2f', 100.0 * avg(abs(j.jct - s.jct) / s.jct),
                      100.0 * (avg(j.jct) - avg(s.jct)) / avg(s.jct))
        FROM jobs j JOIN s.jobs s ON s.job_id = j.id WHERE j.jct IS NOT NULL;")
    live_mean=${_res%% *}
    echo "$1: mean |live - sim| / sim = ${live_mean:-?} %, avg JCT difference = ${_res#* } %"
    if ! live_timing_asserted; then
        echo "$1: sanitizer build, the JCT difference is not asserted"
        return 0
    fi
    awk -v d="${live_mean:-100}" -v l="$4" 'BEGIN { exit !(d < l) }' ||
        bad "$1: mean per-job JCT difference ${live_mean:-?} % is not under $4 %"
}
