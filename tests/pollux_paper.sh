#!/bin/sh
# pollux_paper.sh: the Pollux paper's main comparison (Qiao et al., OSDI 2021,
# §5.3: Pollux against Optimus+Oracle and Tiresias on a 160-job Philly-derived
# workload, 16 nodes x 4 T4) on Pollux's own workload-1.csv with the pollux
# perf catalog, Pollux's 60 s rounds and 30 s restarts. The paper's order must hold: Pollux's
# average JCT below Optimus+Oracle's, Tiresias's (Pollux's variant: 2 queues,
# 16 GPU-hour limit) and FIFO's. Prints the numbers (docs/reproducing.md: "Pollux
# against its paper"). Reads ../shared/data; skips (77) when it is absent.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
# In a sanitizer build: skipped. The simulator is deterministic, so the
# ordering is the normal build's; pollux runs under the sanitizers in
# regress.sh, pollux_policy.sh and the unit tests, on smaller inputs (here
# 160 jobs, about 40 CPU s under ASan).
if grep -q __asan_init "$MLSCHED" 2>/dev/null; then
    echo "pollux_paper.sh: SKIP: sanitizer build: the ordering is the normal build's (a deterministic simulator); pollux runs under the sanitizers in regress.sh and the unit tests"
    exit 77
fi
data="$SRCDIR/../shared/data/traces/generated/pollux/workloads/workload-1.csv"
if [ ! -f "$data" ]; then
    echo "pollux_paper.sh: SKIP: $data is absent (the shared data set)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
bad() { echo "FAIL: $*"; fail=1; }
"$MLSCHED" trace import --format pollux -o "$tmp/w1.csv" "$data" 2>"$tmp/err" ||
    { echo "FAIL: import: $(cat "$tmp/err")"; exit 1; }
jct() { # jct POLICY [PARAMS...]: prints "avg_jct makespan unfinished"
    p=$1
    shift
    "$MLSCHED" simulate --trace "$tmp/w1.csv" --cluster "$SRCDIR/traces/clusters/pollux-64t4.json" \
        --throughputs "$SRCDIR/traces/catalog/pollux.json" --policy "$p" "$@" --round 60 \
        --restart-overhead 30 --placement spread --seed 1 -q --db "$tmp/r.db" >/dev/null || { echo "simulate $p failed"; return 1; }
    sqlite3 -separator ' ' "$tmp/r.db" "SELECT avg_jct, makespan, unfinished FROM summary
        WHERE run_id=(SELECT max(run_id) FROM runs)"
}
px=$(jct pollux) || bad "$px"
op=$(jct optimus-oracle) || bad "$op"
ti=$(jct tiresias-las -P queues=2 -P limits=57600) || bad "$ti"
ff=$(jct fifo) || bad "$ff"
printf '%-16s %12s %12s %s\n' policy avg_jct_s makespan_s unfinished pollux $px \
    optimus-oracle $op tiresias-las $ti fifo $ff
for other in "$op" "$ti" "$ff"; do
    awk -v p="${px%% *}" -v o="${other%% *}" 'BEGIN { exit !(p > 0 && p < o) }' ||
        bad "pollux avg JCT ${px%% *} not below ${other%% *}"
done
for r in "$px" "$op" "$ti" "$ff"; do
    [ "${r##* }" = 0 ] || bad "unfinished jobs: $r"
done
[ $fail -eq 0 ] && echo "pollux_paper.sh: all checks passed"
exit $fail
