#!/bin/bash
# compare.sh [DIR]: the live runs of profiler/gpu-predict.sh (DIR, default
# gpu-out/predict: NAME-live.csv, NAME.starts, the traces, pairs.csv, and the
# catalogs or the curves they are fitted from, builtin-*.csv) against
# `mlsched simulate` on the same traces, catalogs, policies and rounds. Runs
# anywhere (no GPU; needs sqlite3): profiler/predict/runs/* hold the runs so
# far, e.g. `profiler/predict/compare.sh profiler/predict/runs/2026-11-27-a`.
#
# Start-up costs: the simulator charges each job's (re)start as a fixed
# overhead per workload, taken from the fifo run (one start per job), written
# to DIR/overheads.json and used for all three simulations, so las's restarts
# and the packed run are predicted, not fitted. COST picks what it is:
#   startup (default)  the mean time from a start to the first progress line
#                      that the wrapper logged;
#   lost               the mean time a fifo job ran beyond its work at the
#                      curve's rate (its start-up, its slower first iterations,
#                      and any steady-state gap to the curve), so that fifo is
#                      fitted and only the other policies are predicted.
#
# Prints, per run, each job's simulated and live JCT and |live - sim| / sim,
# and writes the same as DIR/compare.md. Exit 1 when a run is missing.
set -u
D=${1:-gpu-out/predict}
B=${MLSCHED:-./mlsched}
[ -s "$D/mixed.csv" ] && [ -s "$D/fifo.starts" ] || {
    echo "compare.sh: $D has no gpu-predict.sh results" >&2
    exit 1
}

# the per-workload start costs from the fifo run
python3 - "$D" "${COST:-startup}" >"$D/overheads.json" <<'PY' || exit 1
import collections, csv, json, re, sys
d, mode = sys.argv[1], sys.argv[2]
jobs = {r["id"]: r for r in csv.DictReader(open(f"{d}/mixed.csv"))}
cost = collections.defaultdict(list)
if mode == "startup":
    for line in open(f"{d}/fifo.starts"):
        m = re.match(r"job-(\d+)\.log: .*? lines; ([0-9.]+) s", line)
        if m:
            cost[jobs[m.group(1)]["workload"]].append(float(m.group(2)))
elif mode == "lost":
    rate = {}
    for f in ("builtin-transformer.csv", "builtin-resnet18.csv"):
        for r in csv.DictReader(l for l in open(f"{d}/{f}") if not l.startswith("#")):
            rate[(r["workload"], r["local_bsz"])] = float(r["samples_per_s"])
    for r in csv.DictReader(open(f"{d}/fifo-live.csv")):
        j = jobs[r["id"]]
        busy = float(r["finish"]) - float(r["first_start"])
        cost[j["workload"]].append(busy - float(j["total_work"]) / rate[(j["workload"], j["batch_size"])])
else:
    sys.exit(f"compare.sh: COST={mode}: startup or lost")
w = {k: {"start": round(sum(v) / len(v), 3), "restart": round(sum(v) / len(v), 3)}
     for k, v in sorted(cost.items())}
json.dump({"default": {"start": 0, "restart": 0, "suspend": 0}, "workloads": w}, sys.stdout)
print()
PY

compare() { # NAME TRACE CATALOG POLICY
    local name=$1 trace=$2 cat=$3 pol=$4
    local live=$T/$name-live.db
    [ -s "$D/$name-live.csv" ] || {
        echo "compare.sh: no live run $name ($D/$name-live.csv)" >&2
        return 1
    }
    sqlite3 "$live" ".import --csv $D/$name-live.csv jobs" || return 1
    "$B" simulate --trace "$trace" --cluster h100=1x1 --throughputs "$cat" --policy "$pol" \
        --round 10 --overheads "$D/overheads.json" -q --db "$T/$name-sim.db" >/dev/null || return 1
    echo
    echo "### $name: $pol on $(basename "$trace")"
    echo
    echo "| job | workload | batch | sim JCT (s) | live JCT (s) | live - sim |"
    echo "|---|---|---|---|---|---|"
    sqlite3 -separator '|' "$live" "ATTACH '$T/$name-sim.db' AS s;
        SELECT '', j.id, j.workload, j.batch, printf('%.1f', s.jct), printf('%.1f', j.jct),
               printf('%+.1f %%', 100.0 * (j.jct - s.jct) / s.jct), ''
        FROM jobs j JOIN s.jobs s ON s.job_id = j.id ORDER BY j.id;"
    sqlite3 "$live" "ATTACH '$T/$name-sim.db' AS s;
        SELECT printf('mean |live - sim| / sim: %.1f %%; worst job %.1f %%; average JCT %+.1f %%',
               100.0 * avg(abs(j.jct - s.jct) / s.jct), 100.0 * max(abs(j.jct - s.jct) / s.jct),
               100.0 * (avg(j.jct) - avg(s.jct)) / avg(s.jct))
        FROM jobs j JOIN s.jobs s ON s.job_id = j.id WHERE j.jct != '';"
}
# the catalogs, from the run's curves (and pairs) when they are not there
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat=$D/catalog.json packcat=$D/catalog-pairs.json
[ -s "$cat" ] || cat=$T/catalog.json
[ -s "$cat" ] || "$B" profile fit -q -o "$cat" "$D"/builtin-*.csv >&2 || exit 1
if [ ! -s "$packcat" ]; then
    packcat=$T/catalog-pairs.json
    "$B" profile fit -q -o "$packcat" "$D"/builtin-*.csv "$D/pairs.csv" >&2 2>/dev/null ||
        packcat=$cat
fi
{
    echo "Start cost per workload (COST=${COST:-startup}, from the fifo run, s): $(cat "$D/overheads.json")"
    compare fifo "$D/mixed.csv" "$cat" fifo &&
        compare las "$D/mixed.csv" "$cat" las &&
        compare packed "$D/pack.csv" "$packcat" max-min-fairness-packed
} | tee "$D/compare.md"
exit "${PIPESTATUS[0]}"
