#!/bin/sh
# live_e2e.sh: the live daemon runs an 8-job trace of fake jobs (local
# executor, time scale 100, so 3000 s of trace time take ~30 s) under fifo and
# under las, and a 6-job trace on a heterogeneous cluster (v100=1x2,k80=1x2,
# throughputs from tests/fixtures/live) under Gavel's max-min-fairness-perf
# (LP and rounds: --round 120, recompute_interval 240, so the allocation is
# recomputed and the round mechanism rotates jobs between types); each job's
# JCT is compared with `mlsched simulate` on the same trace: per-job and mean
# relative difference are printed, the mean must stay under 5 % (fifo, Gavel)
# or 10 % (las, whose exact ties of attained service a few ms can break the
# other way; not asserted in a sanitizer build: live_timing_asserted).
# Every job finishes exactly once. A fourth daemon runs las with
# --preempt suspend (SIGSTOP/SIGCONT): it must suspend and resume jobs and
# finish them all once. Only Unix sockets are used.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
. "$SRCDIR/tests/live_lib.sh"
test_init live sqlite3
fix="$SRCDIR/tests/fixtures/live"
scale=${LIVE_TIME_SCALE:-100}
# per daemon: policy, trace, cluster, perf model and options (the simulator's too)
setup() {
    trace=$fix/trace8.csv cluster=v100=1x4 tp="$SRCDIR/traces/catalog/default-throughputs.json"
    pol=$1 opts="" limit=5
    case $1 in
    las) limit=10 ;;
    susp) pol=las ;;
    gavel)
        pol=max-min-fairness-perf trace=$fix/trace-het.csv cluster=v100=1x2,k80=1x2
        tp=$fix/throughputs-v100-k80.json opts="--round 120 -P recompute_interval=240"
        ;;
    esac
}
daemons="fifo las gavel susp"

for p in $daemons; do
    setup $p
    extra=""
    [ $p = susp ] && extra="--preempt suspend"
    live_serve $p --cluster $cluster --throughputs "$tp" --policy $pol $opts \
        --time-scale "$scale" $extra -q
done
for p in $daemons; do
    setup $p
    live_up $p
    live_submit_trace "$tmp/$p/sock" "$trace" "$tp" "$p"
done
# wait (bounded) for the daemons to drain and exit
for p in $daemons; do live_down $p; done

for p in fifo las gavel; do
    setup $p
    "$MLSCHED" simulate --trace "$trace" --cluster $cluster --throughputs "$tp" --policy $pol \
        $opts -q --db "$tmp/sim-$p.db" >/dev/null || bad "simulate $p failed"
    want=$(grep -c '^[0-9]' "$trace")
    n=$(sqlite3 "$tmp/$p.db" "SELECT count(*) FROM jobs WHERE state='done' AND completions=1")
    [ "$n" = "$want" ] || bad "$p: $n of $want jobs done exactly once"
    n=$(sqlite3 "$tmp/$p.db" "SELECT count(*) FROM events WHERE event='finish'")
    [ "$n" = "$want" ] || bad "$p: $n finish events, wanted $want"
    live_jct_compare "$p ($pol)" "$tmp/$p.db" "$tmp/sim-$p.db" $limit
done
n=$(sqlite3 "$tmp/susp.db" "SELECT count(*) FROM jobs WHERE state='done' AND completions=1")
[ "$n" = 8 ] || bad "suspend: $n of 8 jobs done exactly once"
n=$(sqlite3 "$tmp/susp.db" "SELECT count(*) FROM events WHERE event='resume'")
[ "$n" -gt 0 ] || bad "suspend: no job was resumed with SIGCONT"
n=$(sqlite3 "$tmp/susp.db" "SELECT count(*) FROM events WHERE event='fail'")
[ "$n" = 0 ] || bad "suspend: $n failed runs: $(cat "$tmp/susp.log")"
[ $fail -eq 0 ] || exit 1
echo "live_e2e: ok"
