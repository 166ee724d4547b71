#!/bin/sh
# live_slurm.sh: the live daemon with --executor slurm on a real single-node
# Slurm that this test starts (scripts/slurm/start with 4 fake GPUs: mknod'ed
# devices as GRES) and always stops. A 4-job trace under las at time scale 40:
# jobs become sbatch jobs with --gres=gpu:N, Slurm hands each its
# CUDA_VISIBLE_DEVICES, preemption is scancel --signal=TERM (the fake job
# checkpoints) and a later sbatch resumes it. The daemon is SIGKILLed mid-trace
# and restarted: it re-adopts its Slurm jobs; every job finishes exactly once.
# Beside it, on the same Slurm (12 fake GPUs), two more daemons run the same
# trace under fifo and under las for JCT accuracy: with --restart-overhead 60
# (1.5 wall s at this scale: a start's cost on Slurm, sbatch to running plus
# the release of the preempted job's GPUs, is ~0.5-1.5 s) and `mlsched
# simulate --restart-overhead 60`, the mean per-job difference must stay
# under 10 % (measured: under 1 %).
# Skips (77) when Slurm is not installed, we are not root, or it cannot start.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
if ! command -v slurmctld >/dev/null 2>&1 && [ ! -x /usr/sbin/slurmctld ]; then
    echo "SKIP: slurmctld is not installed (scripts/install-deps --slurm)"
    exit 77
fi
if [ "$(id -u)" != 0 ]; then
    echo "SKIP: starting a private Slurm needs root"
    exit 77
fi
if ! command -v sqlite3 >/dev/null 2>&1; then
    echo "SKIP: the sqlite3 command is not installed"
    exit 77
fi
tmp=$(mktemp -d /tmp/mls-lslurm-XXXXXX)
pid=""
apids=""
cleanup() {
    for p in $pid $apids; do kill "$p" 2>/dev/null; done
    "$SRCDIR/scripts/slurm/stop" "$tmp/slurm"
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
if ! MLS_SLURM_GPUS=12 "$SRCDIR/scripts/slurm/start" "$tmp/slurm" >"$tmp/start.log" 2>&1; then
    echo "SKIP: Slurm did not start: $(cat "$tmp/start.log")"
    exit 77
fi
export SLURM_CONF="$tmp/slurm/slurm.conf"
node=$(sinfo -h -o %N | head -n 1)
fail=0
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
sock="$tmp/run/sock"
serve() {
    "$MLSCHED" live serve --cluster v100=1x4 --policy las --executor slurm \
        --slurm-nodes "$node" --time-scale 40 --state "$tmp/s.db" --socket "$sock" \
        2>>"$tmp/daemon.log" &
    pid=$!
    i=0
    until "$MLSCHED" live status --socket "$sock" >/dev/null 2>&1; do
        i=$((i + 1))
        [ $i -gt 100 ] && { echo "FAIL: daemon did not come up: $(cat "$tmp/daemon.log")"; exit 1; }
        sleep 0.1
    done
}
trace="$SRCDIR/tests/fixtures/live/trace4.csv"
# the accuracy daemons: no SIGKILL, a start cost that covers Slurm's latency
apids=""
for p in fifo las; do
    "$MLSCHED" live serve --cluster v100=1x4 --policy $p --executor slurm --slurm-nodes "$node" \
        --time-scale 40 --restart-overhead 60 --state "$tmp/$p.db" --socket "$tmp/$p/sock" -q \
        2>"$tmp/$p.log" &
    apids="$apids $!"
    echo $! >"$tmp/$p.pid"
done
for p in fifo las; do
    i=0
    until "$MLSCHED" live status --socket "$tmp/$p/sock" >/dev/null 2>&1; do
        i=$((i + 1))
        [ $i -gt 100 ] && { echo "FAIL: $p daemon did not come up: $(cat "$tmp/$p.log")"; exit 1; }
        sleep 0.1
    done
    "$MLSCHED" live submit --socket "$tmp/$p/sock" --trace "$trace" >/dev/null ||
        bad "$p: submit --trace failed"
    "$MLSCHED" live drain --socket "$tmp/$p/sock" || bad "$p: drain failed"
done
serve
"$MLSCHED" live submit --socket "$sock" --trace "$trace" >/dev/null || bad "submit --trace failed"
# a job that shows what Slurm gave it
"$MLSCHED" live submit --socket "$sock" --workload A3C --gpus 2 --work 1 -- \
    /bin/sh -c 'echo "CVD=$CUDA_VISIBLE_DEVICES SLURM_JOB_ID=$SLURM_JOB_ID" >"$0"' \
    "$tmp/env.txt" >/dev/null || bad "submit env job failed"
"$MLSCHED" live drain --socket "$sock" || bad "drain failed"
# SIGKILL the daemon mid-trace; the next one re-adopts the Slurm jobs
sleep 20
kill -KILL "$pid"
wait "$pid" 2>/dev/null
sleep 1
serve
i=0
while kill -0 "$pid" 2>/dev/null; do
    i=$((i + 1))
    [ $i -gt 2400 ] && { bad "daemon still running after 240 s: $(tail -5 "$tmp/daemon.log")"; break; }
    sleep 0.1
done
wait "$pid" || bad "daemon exited $?: $(cat "$tmp/daemon.log")"
pid=""

n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM jobs WHERE state='done' AND completions=1")
[ "$n" = 5 ] || bad "$n of 5 jobs done exactly once: $(sqlite3 "$tmp/s.db" 'SELECT id, state, exit_code FROM jobs')"
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM events WHERE event='stop' AND detail LIKE 'exit 143%'")
[ "$n" -gt 0 ] || bad "no job was preempted through Slurm (checkpoint exit 143)"
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM events WHERE event IN ('adopt', 'lost')")
[ "$n" -gt 0 ] || bad "the restarted daemon neither re-adopted nor settled a Slurm job"
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM jobs WHERE ext_id = '' OR ext_id IS NULL")
[ "$n" = 0 ] || bad "$n jobs without a Slurm job id"
grep -q "^CVD=[0-9],[0-9] SLURM_JOB_ID=[0-9]" "$tmp/env.txt" ||
    bad "the job's Slurm environment: $(cat "$tmp/env.txt" 2>&1)"
"$MLSCHED" simulate --trace "$SRCDIR/tests/fixtures/live/trace4.csv" --cluster v100=1x4 \
    --policy las -q --db "$tmp/sim.db" >/dev/null || bad "simulate failed"
echo "las on Slurm, daemon SIGKILLed once (not asserted): job  sim_jct  live_jct  diff"
sqlite3 -separator ' ' "$tmp/s.db" "ATTACH '$tmp/sim.db' AS s;
    SELECT j.id, printf('%.1f', s.jct), printf('%.1f', j.jct),
           printf('%+.2f%%', 100.0 * (j.jct - s.jct) / s.jct)
    FROM jobs j JOIN s.jobs s ON s.job_id = j.id ORDER BY j.id;" | sed 's/^/  /'
for p in fifo las; do
    apid=$(cat "$tmp/$p.pid")
    i=0
    while kill -0 "$apid" 2>/dev/null; do
        i=$((i + 1))
        [ $i -gt 1200 ] && { bad "$p daemon still running 120 s later"; break; }
        sleep 0.1
    done
    wait "$apid" || bad "$p daemon exited $?: $(cat "$tmp/$p.log")"
    n=$(sqlite3 "$tmp/$p.db" "SELECT count(*) FROM jobs WHERE state='done' AND completions=1")
    [ "$n" = 4 ] || bad "$p: $n of 4 jobs done exactly once"
    "$MLSCHED" simulate --trace "$trace" --cluster v100=1x4 --policy $p --restart-overhead 60 \
        -q --db "$tmp/sim-$p.db" >/dev/null || bad "simulate $p failed"
    echo "$p on Slurm, restart overhead 60: job  sim_jct  live_jct  diff"
    sqlite3 -separator ' ' "$tmp/$p.db" "ATTACH '$tmp/sim-$p.db' AS s;
        SELECT j.id, printf('%.1f', s.jct), printf('%.1f', j.jct),
               printf('%+.2f%%', 100.0 * (j.jct - s.jct) / s.jct)
        FROM jobs j JOIN s.jobs s ON s.job_id = j.id ORDER BY j.id;" | sed 's/^/  /'
    res=$(sqlite3 "$tmp/$p.db" "ATTACH '$tmp/sim-$p.db' AS s;
        SELECT printf('%.2f %.2f', 100.0 * avg(abs(j.jct - s.jct) / s.jct),
                      100.0 * (avg(j.jct) - avg(s.jct)) / avg(s.jct))
        FROM jobs j JOIN s.jobs s ON s.job_id = j.id WHERE j.jct IS NOT NULL;")
    set -- $res
    echo "$p on Slurm: mean |live - sim| / sim = $1 %, avg JCT difference = $2 %"
    awk -v d="${1:-100}" 'BEGIN { exit !(d < 10) }' ||
        bad "$p on Slurm: mean per-job JCT difference $1 % is not under 10 %"
done
apids=""
[ $fail -eq 0 ] || exit 1
echo "live_slurm: ok"
