#!/bin/sh
# pollux_measured.sh: simulate --measured-rates (the pollux backend's
# measured-rates mode, docs/simulate.md): bad input fails with the file named;
# on the five Pollux-catalog jobs of tests/fixtures/live/trace-pollux.csv under
# tiresias-las on t4=2x4, the run at Pollux's measured step times differs from
# the fitted one (avg JCT 1,727 s fitted, 1,638 s measured on 2026-11-26);
# --policy-rates-measured changes optimus-oracle's decisions (1,573 s -> 1,293 s)
# and not tiresias-las's, which reads no rates; optimus-oracle --like pollux keeps
# a lone cifar10 job at total 2,048 on 8 of 16 GPUs, as the artifact's Optimus
# (the step times it predicts). Reads ../shared/data/pollux/profiles;
# skips (77) when absent.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}"
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
T="$SRCDIR/tests/fixtures/live/trace-pollux.csv"
CAT="$SRCDIR/traces/catalog/pollux.json"
"$MLSCHED" simulate --trace "$T" --cluster t4=2x4 --policy fifo --measured-rates "$tmp" \
    >/dev/null 2>"$tmp/e1" && fail "a Gavel catalog with --measured-rates ran"
grep -q "not a pollux catalog" "$tmp/e1" || fail "message: $(cat "$tmp/e1")"
"$MLSCHED" simulate --trace "$T" --cluster t4=2x4 --throughputs "$CAT" --policy fifo \
    --measured-rates "$tmp" >/dev/null 2>"$tmp/e2" && fail "a missing profile ran"
grep -q "placements.csv: cannot open" "$tmp/e2" || fail "message: $(cat "$tmp/e2")"
P="$SRCDIR/../shared/data/pollux/profiles"
if [ ! -r "$P/yolov3/placements.csv" ]; then
    echo "SKIP: $P is absent"
    exit 77
fi
run() {
    "$MLSCHED" simulate --trace "$T" --cluster t4=2x4 --throughputs "$CAT" \
        --policy "${POL:-tiresias-las}" --round 60 -q --json "$@" |
        sed -n 's/.*"avg_jct": *\([0-9.]*\).*/\1/p'
}
fit=$(run) meas=$(run --measured-rates "$P")
echo "avg JCT fitted $fit s, measured $meas s"
awk -v f="$fit" -v m="$meas" 'BEGIN { exit !(f > 1700 && f < 1760 && m > 1610 && m < 1670) }' ||
    fail "fitted $fit (want ~1727), measured $meas (want ~1638)"
shown=$(run --measured-rates "$P" --policy-rates-measured)
[ "$shown" = "$meas" ] || fail "tiresias-las with --policy-rates-measured: $shown, want $meas"
o1=$(POL=optimus-oracle run --measured-rates "$P")
o2=$(POL=optimus-oracle run --measured-rates "$P" --policy-rates-measured)
echo "optimus-oracle measured: policies fitted $o1 s, measured $o2 s"
awk -v a="$o1" -v b="$o2" 'BEGIN { exit !(a > 1540 && a < 1610 && b > 1260 && b < 1330) }' ||
    fail "optimus-oracle: $o1 (want ~1573), $o2 (want ~1293)"
# --like pollux's Optimus (batch=total) with the measured step times shown:
# cifar10 at total batch 2,048 alone on 4 x 4 T4 stays on 8 GPUs (4 + 4), as
# in the artifact's simulator (run here: JCT 955 s on (4, 4)): its 9th GPU,
# packed 4 + 4 + 1, is predicted 0.02 % slower a step (0.25998 s against
# 0.25993 s). Counting the rounded-up batch (9 x 228) as progress, or showing
# the mean of the 3-node placements, it took more GPUs (732 s).
printf 'id,submit_time,user,workload,gpus,total_work,duration,priority,deadline,min_gpus,max_gpus,batch_size,mode,total_batch\n0,0,default,cifar10,6,5004800,,1,,1,64,342,static,2048\n' \
    >"$tmp/one.csv"
one=$("$MLSCHED" simulate --trace "$tmp/one.csv" --cluster t4=4x4 --throughputs "$CAT" \
    --policy optimus-oracle --like pollux -q --json --measured-rates "$P" --policy-rates-measured |
    sed -n 's/.*"avg_jct": *\([0-9.]*\).*/\1/p')
echo "optimus-oracle --like pollux, cifar10 total 2,048 alone on 16 T4: $one s"
awk -v a="$one" 'BEGIN { exit !(a > 940 && a < 970) }' || fail "cifar10 alone: $one s (want ~955)"
# the mode is stored with the run (run_settings), so a database says how its
# rates were made
if command -v sqlite3 >/dev/null 2>&1; then
    run --measured-rates "$P" --policy-rates-measured --db "$tmp/r.db" >/dev/null
    got=$(sqlite3 "$tmp/r.db" "SELECT group_concat(key || '=' || value) FROM (SELECT * FROM
        run_settings WHERE key IN ('measured_rates', 'policy_rates') ORDER BY key)")
    [ "$got" = "measured_rates=$P,policy_rates=measured" ] || fail "run_settings: $got"
fi
