#!/bin/sh
# live_elastic.sh: the elastic schedulers of issue 14 run live against
# `mlsched simulate`. One daemon per policy (elastic-dp, elastic-fixed-batch,
# autoscale, sia, shockwave), side by side, each over
# tests/fixtures/live/trace-elastic.csv (5 elastic jobs of the Pollux catalog,
# 1..4-8 GPUs, 14 GPUs requested) on t4=2x4 with the Pollux catalog as perf
# model, --round 60, --restart-overhead 20 on both sides, local executor,
# fake jobs, time scale 100 (1100-2400 s of trace time in 11-24 wall s; ~25 s
# in all). A GPU-count change restarts the job (overhead), a batch-only change
# goes to the job's batch file in place, as in the simulator (see docs/live.md,
# Pollux live). Asserted per policy: every job done exactly once, no failed
# run, no refused plan, and the elastic mechanism really ran live: some job
# ran at two GPU counts (a resize) for the four elastic policies; shockwave,
# which keeps each job at its requested GPUs (the trace's jobs are static:
# `live submit --trace` refuses a job of mode accordion or gns, checked
# here), preempted live exactly when the simulator preempts (under the
# default placement, auto, it does not on this trace).
# Each job's JCT is compared with the simulator's: the mean per-job relative
# difference must stay under 5 % (not asserted in a sanitizer build:
# live_timing_asserted). Measured (2-core build machine shared by other
# builds, load 7-12, 5 runs): elastic-dp 0.20-0.34 %, elastic-fixed-batch
# 0.11-0.19 %, autoscale 0.07-0.20 %, sia 0.02-0.42 %, shockwave 0.04-0.25 %;
# every run with the simulator's restarts. Before the fake job reported its
# noise scale at each epoch boundary, sia was 0.96-2.37 % (one job -7 %: a
# decision went otherwise). See docs/reproducing.md, Saxena et al.'s elastic scaling.
# LIVE_ELASTIC_MODE=slurm (tests/live_elastic_slurm.sh): elastic-dp,
# autoscale and sia with --executor slurm on a private Slurm this test starts
# and always stops (six slurmds, two 4-GPU t4 nodes per daemon:
# scripts/slurm/start), under the Slurm test lock (tests/slurm_serial.sh), at
# time scale 25 with --restart-overhead 75 on both sides (3 wall s: it covers
# a Slurm start, 0.2-2.2 wall s here with three daemons releasing jobs at
# once; 50 left one start in four runs slower than the next decision, and
# 60, a round, made every restore end on a round boundary, where the
# simulator sees the job's new throughput and the daemon its first report a
# moment later); ~65 s. Asserted there too: no fresh-sbatch fallback (each
# job one Slurm job, resized by requeue, update and release), and no run the
# daemon counted running for over 5 wall s that Slurm never started (its
# wrapper's log line); failed runs are printed, not asserted (see docs/live.md,
# Pollux live); mean per-job JCT difference under 5 % (not asserted in a
# sanitizer build: slurm_accuracy_asserted). Measured (load 9-12, 4 runs):
# elastic-dp 1.39-2.05 % (jobs end 1.3-1.7 % early: a preempted run works
# on while its signal travels through Slurm), autoscale 0.98-1.39 %, sia
# 0.26-0.40 %. Skips (77) without Slurm or root, or when it does not start.
# LIVE_ELASTIC_POLICIES replaces the policy list, LIVE_ELASTIC_TRACE the trace
# (live_elastic_slurm.sh's second pass: elastic-fixed-batch and shockwave on
# trace-elastic-short.csv; asserted for them: no in-place batch change, and
# shockwave never runs a job at two GPU counts).
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
mode=${LIVE_ELASTIC_MODE:-local}
. "$SRCDIR/tests/live_lib.sh"
live_mode_init lelastic "$mode"
trace=${LIVE_ELASTIC_TRACE:-"$SRCDIR/tests/fixtures/live/trace-elastic.csv"}
tp="$SRCDIR/traces/catalog/pollux.json"
cluster=t4=2x4
if [ "$mode" = slurm ]; then
    ovh=75
    scale=${LIVE_TIME_SCALE:-25}
    policies=${LIVE_ELASTIC_POLICIES:-"elastic-dp autoscale sia"}
else
    ovh=20
    scale=${LIVE_TIME_SCALE:-100}
    policies=${LIVE_ELASTIC_POLICIES:-"elastic-dp elastic-fixed-batch autoscale sia shockwave"}
fi
want=$(grep -c '^[0-9]' "$trace")
opts="--throughputs $tp --round 60 --restart-overhead $ovh"

# The fake job alone reports at every epoch boundary, where the noise scale
# it reports changes, also when its rate does not (cifar10 at its M0 batch,
# 2 x 64, trains at full efficiency at any noise scale; epochs of 50,000
# work units): without it, the daemon's view gave Sia the previous epoch's
# noise scale for up to a report interval, and a decision went otherwise.
[ "$mode" = local ] && iters=$(MLSCHED_GPU_TYPE=t4 CUDA_VISIBLE_DEVICES=0,1 MLSCHED_BATCH_SIZE=64 MLSCHED_ACCUM_STEPS=0 \
    "$MLSCHED" live fake-job --workload cifar10 --throughputs "$tp" --work 110000 \
    --time-scale 20 --report-interval 1000 | sed -n 's/.*iter=\([0-9]*\).*/\1/p' | tr '\n' ' ')
[ "$mode" = local ] && echo "fake job cifar10, reports at iterations: $iters"
[ "$mode" = local ] && for e in 50000 100000; do
    echo "$iters" | tr ' ' '\n' | awk -v e=$e '$1 >= e && $1 < e + 15000 { f = 1 } END { exit !f }' ||
        bad "the fake job did not report at its epoch boundary $e (reports at $iters)"
done

# A trace job that adapts its own batch (Shockwave's accordion and gns modes)
# is refused by `live submit --trace`, naming it, before anything is sent:
# the fake job keeps its batch, so the run would silently differ from
# `simulate` on the same trace
if [ "$mode" = local ]; then
    printf 'id,submit_time,workload,gpus,total_work,mode\n0,0,ResNet-18 (batch size 32),1,900,static\n1,0,ResNet-18 (batch size 32),1,900,gns\n' \
        >"$tmp/adaptive.csv"
    if "$MLSCHED" live submit --socket "$tmp/none/sock" --trace "$tmp/adaptive.csv" \
        >"$tmp/adaptive.out" 2>&1; then
        bad "a trace with a gns job was submitted live"
    fi
    grep -q "adaptive.csv: job 1: mode gns: .*not run live" "$tmp/adaptive.out" ||
        bad "submitting a gns job live: $(cat "$tmp/adaptive.out")"
fi

# executor options per policy: two Slurm nodes of their own each
exec_opts() {
    [ "$mode" = slurm ] && echo "--executor slurm --slurm-nodes ${1}a,${1}b"
}
slot() { # POLICY: n1, n2, ... by its place in the list
    _k=0
    for _q in $policies; do
        _k=$((_k + 1))
        [ "$_q" = "$1" ] && echo "n$_k"
    done
}
if [ "$mode" = slurm ]; then
    nodes=""
    for p in $policies; do
        nodes="$nodes $(slot "$p")a=t4:4 $(slot "$p")b=t4:4"
    done
    MLS_SLURM_NODES="$nodes" slurm_test_start "$tmp/slurm"
fi

for p in $policies; do
    "$MLSCHED" live serve --cluster $cluster --policy "$p" $opts --time-scale "$scale" \
        $(exec_opts "$(slot "$p")") \
        --state "$tmp/$p.db" --socket "$tmp/$p/sock" -q 2>"$tmp/$p.log" &
    eval "pid_$(echo "$p" | tr - _)=$!"
    pids="$pids $!"
done
for p in $policies; do
    eval "pid=\$pid_$(echo "$p" | tr - _)"
    live_wait_up "$tmp/$p/sock" "$pid" "$tmp/$p.log"
    live_submit_trace "$tmp/$p/sock" "$trace" "$tp"
done
for p in $policies; do
    eval "pid=\$pid_$(echo "$p" | tr - _)"
    live_wait_exit "$pid" "$tmp/$p.log"
done
pids=""

for p in $policies; do
    db="$tmp/$p.db"
    "$MLSCHED" simulate --trace "$trace" --cluster $cluster --policy "$p" $opts -q \
        --db "$tmp/sim-$p.db" >/dev/null || bad "$p: simulate failed"
    n=$(sqlite3 "$db" "SELECT count(*) FROM jobs WHERE state='done' AND completions=1")
    [ "$n" = "$want" ] || bad "$p: $n of $want jobs done exactly once"
    n=$(sqlite3 "$db" "SELECT count(*) FROM events WHERE event='fail'")
    if [ "$mode" = slurm ]; then
        # Slurm may refuse a launch ("Job credential revoked"; see
        # live_pollux.sh): the run fails and restarts at the next decision
        echo "$p: $n failed runs"
        n=$(sqlite3 "$db" "SELECT count(*) FROM events WHERE event = 'exec'
            AND detail LIKE 'fresh%'")
        [ "$n" = 0 ] || bad "$p: $n fresh-sbatch fallbacks: $(sqlite3 "$db" \
            "SELECT detail FROM events WHERE detail LIKE 'fresh%' LIMIT 2")"
        # every run the daemon counted for long really ran: its wrapper
        # logged it (a job resized to 6 GPUs as 4 + 2 over two nodes, asked
        # of Slurm as 3 per node, stayed pending 900 daemon s while the
        # daemon counted it running). A run stopped before Slurm started it
        # (a start slower than the time to the next decision) never runs.
        sqlite3 "$db" "WITH s AS (SELECT id, t, CAST(substr(detail, instr(detail, 'attempt ') + 8,
            instr(detail, ' pid') - instr(detail, 'attempt ') - 8) AS INTEGER) AS att
            FROM events WHERE event = 'start')
            SELECT s.id, s.att, printf('%.0f', (SELECT min(e.t) FROM events e WHERE e.id = s.id
                AND e.t >= s.t AND e.event IN ('stop', 'fail', 'finish', 'cancel')
                AND e.detail LIKE '%attempt ' || s.att) - s.t) FROM s" |
            tr '|' ' ' | while read -r id att held; do
                grep -q "^mlsched-slurm: job $id attempt $att " "$db.d/job-$id.log" 2>/dev/null ||
                    echo "job $id attempt $att (counted running ${held:-?} daemon s)"
            done >"$tmp/$p.unrun"
        [ -s "$tmp/$p.unrun" ] && echo "$p: runs never started on Slurm: $(tr '\n' ';' <"$tmp/$p.unrun")"
        awk -v lim=$((5 * scale)) '$7 == "?" || $7 + 0 > lim { f = 1 } END { exit f }' \
            "$tmp/$p.unrun" || bad "$p: a run counted running for over 5 wall s never started on Slurm"
    else
        [ "$n" = 0 ] || bad "$p: $n failed runs: $(tail -5 "$tmp/$p.log")"
    fi
    n=$(sqlite3 "$db" "SELECT count(*) FROM decisions WHERE error IS NOT NULL")
    [ "$n" = 0 ] || bad "$p: $n plans refused: $(sqlite3 "$db" \
        "SELECT error FROM decisions WHERE error IS NOT NULL LIMIT 2")"
    # a resize: a job whose runs started on different GPU counts (a start
    # event's detail is "TYPE xN attempt A pid P")
    nr=$(sqlite3 "$db" "SELECT count(*) FROM (SELECT id FROM events WHERE event='start'
        GROUP BY id HAVING count(DISTINCT substr(detail, 1, instr(detail, ' attempt'))) > 1)")
    nb=$(sqlite3 "$db" "SELECT count(*) FROM events WHERE event='batch'")
    ns=$(sqlite3 "$db" "SELECT count(*) FROM events WHERE event='stop'")
    rl=$(sqlite3 "$db" "SELECT sum(restarts) FROM jobs")
    rs=$(sqlite3 "$tmp/sim-$p.db" "SELECT sum(restarts) FROM jobs")
    echo "$p: $nr jobs resized, $nb in-place batch changes, $ns stops; restarts live $rl, simulated $rs"
    if [ "$p" = shockwave ]; then
        # preempted live exactly when the simulator preempts (under the default
        # placement, auto, shockwave keeps every job of this trace where it
        # started; under spread it preempts one; on trace-elastic-short.csv
        # it preempts two), and never resized: it keeps the requested GPUs
        if [ "${rs:-0}" -gt 0 ]; then
            [ "$ns" -gt 0 ] || bad "$p: the simulator preempted ($rs restarts), no job was preempted live"
        else
            [ "$ns" = 0 ] || bad "$p: $ns jobs stopped live, none in the simulator"
        fi
        [ "$nr" = 0 ] || bad "$p: $nr jobs ran at two GPU counts (shockwave keeps the requested GPUs)"
    else
        [ "$nr" -gt 0 ] || bad "$p: no job was resized live"
    fi
    case $p in
    elastic-dp | sia) # they change batches: some in place
        [ "$nb" -gt 0 ] || bad "$p: no batch was changed in place" ;;
    elastic-fixed-batch | shockwave) # they keep each job's batch
        [ "$nb" = 0 ] || bad "$p: $nb in-place batch changes (it keeps each job's batch)" ;;
    esac
    if live_timing_asserted && { [ "$mode" = local ] || slurm_accuracy_asserted; }; then
        live_jct_compare "$p" "$db" "$tmp/sim-$p.db" 5
    else
        live_jct_compare "$p" "$db" "$tmp/sim-$p.db" 1000000
        echo "$p: sanitizer build, the JCT difference is not asserted"
    fi
done
[ $fail -eq 0 ] || exit 1
echo "live_elastic ($mode): ok"
