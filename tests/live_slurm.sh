#!/bin/sh
# live_slurm.sh: the live daemon with --executor slurm on a real Slurm that
# this test starts (scripts/slurm/start: one node with 12 fake GPUs, mknod'ed
# devices as GRES, and two more slurmds, gv100 and gk80, with 2 typed fake
# GPUs each) and always stops. Each mlsched job is ONE Slurm job: sbatch
# --gres=gpu:N for its first run, Slurm hands it CUDA_VISIBLE_DEVICES;
# preemption is scancel --signal=TERM (the fake job checkpoints, exit 143) and
# scontrol requeuehold; a restart is scontrol update (GPUs, node, StartTime)
# and release, the run's environment from the file the wrapper sources.
# Asserted: no fresh-sbatch fallback, one Slurm job id per mlsched job, some
# releases. A 5-job las daemon (4 GPUs of the big node) is SIGKILLed once
# some job of it is parked (held in Slurm), and restarted: it re-adopts its
# Slurm jobs, resumes the held one; every job finishes exactly once.
# Then a small las daemon (1 GPU): cancelling a job held in Slurm cancels its
# Slurm job; a held job Slurm has forgotten restarts by a fresh sbatch, with
# the reason recorded as an 'exec' event.
# Beside them, three daemons for JCT accuracy against `mlsched simulate` with
# --restart-overhead 60 on both sides (1.5 wall s at time scale 40: a start on
# Slurm, decision to running, costs ~0.2-1.5 s): fifo and las on trace4.csv
# (4 GPUs of the big node), and Gavel's max-min-fairness-perf (LP and rounds:
# --round 120, recompute_interval 240) on trace-het.csv over v100=1x2,k80=1x2
# = gv100,gk80; the mean per-job difference must stay under 10 % (measured:
# fifo 0.02-0.15 %, las 0.60-1.04 %, Gavel 0.24-2.5 %: a preempted run works on
# while the checkpoint signal travels through Slurm). The delay from each decision to the run starting is printed:
# first runs (sbatch) and restarts (release). MLSCHED_SLURM_RESUME=sbatch in
# the environment makes every run a fresh sbatch (the old way, to compare;
# the one-Slurm-job assertions are then skipped). ~80 s.
# Skips (77) when Slurm is not installed, we are not root, or it cannot start.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/slurm_serial.sh"
slurm_test_require sqlite3
. "$SRCDIR/tests/live_lib.sh"
test_init lslurm
MLS_SLURM_GPUS=12 MLS_SLURM_NODES="gv100=v100:2 gk80=k80:2" slurm_test_start "$tmp/slurm"
node=$(sinfo -h -N -o %N | grep -v '^gv100$\|^gk80$' | head -n 1)
sock="$tmp/run/sock"
serve() {
    "$MLSCHED" live serve --cluster v100=1x4 --policy las --executor slurm \
        --slurm-nodes "$node" --time-scale 40 --state "$tmp/s.db" --socket "$sock" \
        2>>"$tmp/daemon.log" &
    pid=$!
    live_wait_up "$sock" "$pid" "$tmp/daemon.log"
}
fix="$SRCDIR/tests/fixtures/live"
trace="$fix/trace4.csv"
# per accuracy daemon: policy, trace, cluster, Slurm nodes, perf model, options
setup() {
    pol=$1 trace=$fix/trace4.csv cluster=v100=1x4 nodes=$node opts=""
    tp="$SRCDIR/traces/catalog/default-throughputs.json"
    if [ $1 = gavel ]; then
        pol=max-min-fairness-perf trace=$fix/trace-het.csv cluster=v100=1x2,k80=1x2
        nodes=gv100,gk80 tp=$fix/throughputs-v100-k80.json
        opts="--round 120 -P recompute_interval=240"
    fi
}
# the accuracy daemons: no SIGKILL, a start cost that covers Slurm's latency
for p in fifo las gavel; do
    setup $p
    live_serve $p --cluster $cluster --throughputs "$tp" --policy $pol $opts \
        --executor slurm --slurm-nodes $nodes --time-scale 40 --restart-overhead 60 -q
done
for p in fifo las gavel; do
    setup $p
    live_up $p
    live_submit_trace "$tmp/$p/sock" "$trace" "$tp" "$p"
done
trace="$fix/trace4.csv"
serve
"$MLSCHED" live submit --socket "$sock" --trace "$trace" >/dev/null || bad "submit --trace failed"
# a job that shows what Slurm gave it
"$MLSCHED" live submit --socket "$sock" --workload A3C --gpus 2 --work 1 -- \
    /bin/sh -c 'echo "CVD=$CUDA_VISIBLE_DEVICES SLURM_JOB_ID=$SLURM_JOB_ID" >"$0"' \
    "$tmp/env.txt" >/dev/null || bad "submit env job failed"
"$MLSCHED" live drain --socket "$sock" || bad "drain failed"
# SIGKILL the daemon mid-trace, once a job of it is parked (pending, held:
# priority 0) in Slurm while another runs, else after 30 s; the next daemon
# re-adopts the running Slurm jobs and later releases the held one
sleep 5
parked=""
i=0
while [ -z "$parked" ] && [ $i -lt 250 ]; do
    parked=$(squeue -h -t PD,R -o "%T|%Q|%j|%o" | awk -F'|' -v d="$tmp/s.db.d/" '
        index($4, d) != 1 { next }
        $1 == "RUNNING" { r++ }
        $1 == "PENDING" && $2 == 0 { split($3, n, "-"); p = n[2] }
        END { if (r && p != "") print p }')
    i=$((i + 1))
    [ -z "$parked" ] && sleep 0.1
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null
sleep 1
serve
live_wait_exit "$pid" "$tmp/daemon.log" 240
pid=""

# Cancelling a job held in Slurm ends its Slurm job; a held job that Slurm has
# forgotten (scancel'ed here, its id replaced by an unknown one, as after a
# purge) is restarted by a fresh sbatch, recorded with the reason.
msock="$tmp/misc/sock"
mserve() {
    "$MLSCHED" live serve --cluster v100=1x1 --policy las --executor slurm \
        --slurm-nodes "$node" --time-scale 40 --state "$tmp/m.db" --socket "$msock" \
        2>>"$tmp/misc.log" &
    pid=$!
    live_wait_up "$msock" "$pid" "$tmp/misc.log"
}
held_job() { # ID: waits (up to 10 s) until mlsched job ID is held in Slurm
    i=0
    while [ $i -lt 100 ]; do
        squeue -h -t PD -o "%Q|%j|%o" | awk -F'|' -v d="$tmp/m.db.d/" -v id="$1" '
            $1 == 0 && index($3, d) == 1 { split($2, n, "-"); if (n[2] == id) f = 1 }
            END { exit !f }' && return 0
        i=$((i + 1))
        sleep 0.1
    done
    return 1
}
mls=$(cd "$(dirname "$MLSCHED")" && pwd)/$(basename "$MLSCHED")
msubmit() {
    "$MLSCHED" live submit --socket "$msock" --workload A3C --gpus 1 --work 1500 -- \
        "$mls" live fake-job >/dev/null || bad "misc: submit failed"
}
if mserve; then
    msubmit
    sleep 1
    msubmit # las preempts job 0 for job 1
    if held_job 0; then
        sid=$(sqlite3 "$tmp/m.db" "SELECT ext_id FROM jobs WHERE id = 0")
        "$MLSCHED" live cancel --socket "$msock" 0 || bad "misc: cancel of the held job failed"
        sleep 1
        st=$(squeue -h -t all -j "$sid" -o %T 2>/dev/null)
        [ "$st" = CANCELLED ] || [ -z "$st" ] ||
            bad "misc: the cancelled job's Slurm job $sid is $st, not cancelled"
    else
        bad "misc: job 0 was not held in Slurm after its preemption"
    fi
    msubmit # las preempts job 1 for job 2
    if held_job 1; then
        kill "$pid" # SIGTERM: the jobs are left to the next daemon
        wait "$pid"
        scancel "$(sqlite3 "$tmp/m.db" "SELECT ext_id FROM jobs WHERE id = 1")"
        sqlite3 "$tmp/m.db" "UPDATE jobs SET ext_id = '999999' WHERE id = 1"
        mserve && "$MLSCHED" live drain --socket "$msock"
        wait "$pid" || bad "misc daemon exited $?: $(cat "$tmp/misc.log")"
        n=$(sqlite3 "$tmp/m.db" "SELECT count(*) FROM jobs WHERE state = 'done' AND completions = 1")
        [ "$n" = 2 ] || bad "misc: $n of 2 jobs done exactly once"
        n=$(sqlite3 "$tmp/m.db" "SELECT count(*) FROM events WHERE id = 1 AND event = 'exec'
            AND detail LIKE 'fresh sbatch: Slurm job 999999: %no longer known%'")
        [ "$n" = 1 ] || bad "misc: no fresh-sbatch fallback recorded for the forgotten job"
    else
        bad "misc: job 1 was not held in Slurm after its preemption"
        kill "$pid"
    fi
    pid=""
fi

n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM jobs WHERE state='done' AND completions=1")
[ "$n" = 5 ] || bad "$n of 5 jobs done exactly once: $(sqlite3 "$tmp/s.db" 'SELECT id, state, exit_code FROM jobs')"
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM events WHERE event='stop' AND detail LIKE 'exit 143%'")
[ "$n" -gt 0 ] || bad "no job was preempted through Slurm (checkpoint exit 143)"
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM events WHERE event IN ('adopt', 'lost')")
[ "$n" -gt 0 ] || bad "the restarted daemon neither re-adopted nor settled a Slurm job"
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM jobs WHERE ext_id = '' OR ext_id IS NULL")
[ "$n" = 0 ] || bad "$n jobs without a Slurm job id"
if [ -n "$parked" ]; then
    echo "job $parked was parked (held in Slurm) when the daemon was SIGKILLed"
    n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM jobs WHERE id = $parked AND state = 'done'
        AND completions = 1")
    [ "$n" = 1 ] || bad "the job parked at the SIGKILL, $parked, did not finish exactly once"
else
    echo "no job was parked in Slurm when the daemon was SIGKILLed (30 s)"
fi
grep -q "^CVD=[0-9],[0-9] SLURM_JOB_ID=[0-9]" "$tmp/env.txt" ||
    bad "the job's Slurm environment: $(cat "$tmp/env.txt" 2>&1)"
"$MLSCHED" simulate --trace "$SRCDIR/tests/fixtures/live/trace4.csv" --cluster v100=1x4 \
    --policy las -q --db "$tmp/sim.db" >/dev/null || bad "simulate failed"
# requeue, not a new Slurm job: checked on every daemon's db and wrapper logs
# (lines "mlsched-slurm: job ID attempt N slurm_job J restart R launch L start S")
one_slurm_job() { # NAME DB
    dir="$2.d"
    n=$(sqlite3 "$2" "SELECT count(*) FROM events WHERE event = 'exec' AND detail LIKE 'fresh%'")
    if [ "${MLSCHED_SLURM_RESUME:-}" != sbatch ]; then
        [ "$n" = 0 ] || bad "$1: $n fresh-sbatch fallbacks: $(sqlite3 "$2" \
            "SELECT detail FROM events WHERE event = 'exec' AND detail LIKE 'fresh%' LIMIT 3")"
        n=$(cat "$dir"/job-*.log | awk '$1 == "mlsched-slurm:" { print $3, $7 }' | sort -u |
            awk '{ c[$1]++ } END { for (j in c) if (c[j] > 1) n++; print n + 0 }')
        [ "$n" = 0 ] || bad "$1: $n jobs ran as more than one Slurm job"
    fi
    cat "$dir"/job-*.log | awk -v who="$1" '$1 == "mlsched-slurm:" {
        d = $13 - $11; k = ($5 > 1); n[k]++; s[k] += d; if (d > m[k]) m[k] = d }
        END { printf "%s: decision to running: first runs %d, mean %.2f s (max %.2f); " \
              "restarts %d, mean %.2f s (max %.2f)\n", who, n[0], n[0] ? s[0] / n[0] : 0,
              m[0], n[1], n[1] ? s[1] / n[1] : 0, m[1] }'
}
one_slurm_job "las (SIGKILLed)" "$tmp/s.db"
n=$(sqlite3 "$tmp/s.db" "SELECT count(*) FROM events WHERE event = 'exec' AND detail LIKE '%released'")
[ "$n" -gt 0 ] || [ "${MLSCHED_SLURM_RESUME:-}" = sbatch ] ||
    bad "no job was restarted by releasing its held Slurm job"
echo "las on Slurm, daemon SIGKILLed once (not asserted): job  sim_jct  live_jct  diff"
sqlite3 -separator ' ' "$tmp/s.db" "ATTACH '$tmp/sim.db' AS s;
    SELECT j.id, printf('%.1f', s.jct), printf('%.1f', j.jct),
           printf('%+.2f%%', 100.0 * (j.jct - s.jct) / s.jct)
    FROM jobs j JOIN s.jobs s ON s.job_id = j.id ORDER BY j.id;" | sed 's/^/  /'
for p in fifo las gavel; do
    setup $p
    live_down $p
    want=$(grep -c '^[0-9]' "$trace")
    n=$(sqlite3 "$tmp/$p.db" "SELECT count(*) FROM jobs WHERE state='done' AND completions=1")
    [ "$n" = "$want" ] || bad "$p: $n of $want jobs done exactly once"
    one_slurm_job $p "$tmp/$p.db"
    "$MLSCHED" simulate --trace "$trace" --cluster $cluster --throughputs "$tp" --policy $pol \
        $opts --restart-overhead 60 -q --db "$tmp/sim-$p.db" >/dev/null || bad "simulate $p failed"
    echo "$p ($pol) on Slurm, restart overhead 60: job  sim_jct  live_jct  diff"
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
    if slurm_accuracy_asserted; then
        awk -v d="${1:-100}" 'BEGIN { exit !(d < 10) }' ||
            bad "$p on Slurm: mean per-job JCT difference $1 % is not under 10 %"
    else
        echo "$p on Slurm: sanitizer build, the JCT difference is not asserted"
    fi
done
n=$(sqlite3 "$tmp/gavel.db" "SELECT count(*) FROM events WHERE event = 'exec' AND detail LIKE '%released'")
echo "gavel: $n restarts by release of the held Slurm job"
[ $fail -eq 0 ] || exit 1
echo "live_slurm: ok"
