#!/bin/sh
# live_slurm.sh: the live daemon with --executor slurm on a real single-node
# Slurm that this test starts (scripts/slurm/start with 4 fake GPUs: mknod'ed
# devices as GRES) and always stops. A 4-job trace under las at time scale 40:
# jobs become sbatch jobs with --gres=gpu:N, Slurm hands each its
# CUDA_VISIBLE_DEVICES, preemption is scancel --signal=TERM (the fake job
# checkpoints) and a later sbatch resumes it. The daemon is SIGKILLed mid-trace
# and restarted: it re-adopts its Slurm jobs; every job finishes exactly once.
# The JCTs are printed beside `mlsched simulate`'s (not asserted: Slurm's own
# latencies, ~1 s a start, are 40 s of trace time at this scale).
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
cleanup() {
    [ -n "$pid" ] && kill "$pid" 2>/dev/null
    "$SRCDIR/scripts/slurm/stop" "$tmp/slurm"
    rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
if ! MLS_SLURM_GPUS=4 "$SRCDIR/scripts/slurm/start" "$tmp/slurm" >"$tmp/start.log" 2>&1; then
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
serve
"$MLSCHED" live submit --socket "$sock" --trace "$SRCDIR/tests/fixtures/live/trace4.csv" \
    >/dev/null || bad "submit --trace failed"
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
echo "las on Slurm: job  sim_jct  live_jct  diff"
sqlite3 -separator ' ' "$tmp/s.db" "ATTACH '$tmp/sim.db' AS s;
    SELECT j.id, printf('%.1f', s.jct), printf('%.1f', j.jct),
           printf('%+.2f%%', 100.0 * (j.jct - s.jct) / s.jct)
    FROM jobs j JOIN s.jobs s ON s.job_id = j.id ORDER BY j.id;" | sed 's/^/  /'
[ $fail -eq 0 ] || exit 1
echo "live_slurm: ok"
