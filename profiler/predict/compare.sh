#!/bin/bash
# compare.sh [DIR]: the live runs of profiler/gpu-predict.sh (DIR, default
# gpu-out/predict: NAME-live.csv, NAME.starts, the traces, the pair-rates
# files, and the catalogs or the curves they are fitted from, builtin-*.csv)
# against `mlsched simulate` on the same traces, catalogs, policies and rounds:
#   fifo       fifo on mixed.csv, 10 s rounds (required: it gives the costs)
#   las        las on mixed.csv, 10 s rounds
#   slice      las on slice.csv, deciding at arrivals and completions (--round 0)
#   packed     max-min-fairness-packed on pack.csv with pairs.csv, 10 s rounds
#   packsmall  max-min-fairness-packed on packsmall.csv with pairs-small.csv
# each where DIR has its live run (runs made before a kind existed lack it). Runs
# anywhere (no GPU; needs sqlite3): profiler/predict/runs/* hold the runs so
# far, e.g. `profiler/predict/compare.sh profiler/predict/runs/2026-11-27-a`.
#
# Start-up costs: the simulator charges each job's (re)start as a fixed
# overhead per workload, taken from the fifo run (one start per job), written
# to DIR/overheads.json and used for every simulation, so las's restarts and
# the packed runs are predicted, not fitted. A preempted job's resumption costs
# a start too (the live runs checkpoint: a new process), also on the GPU it
# left (the simulator's "suspend" cost). COST picks what it is:
#   startup (default)  the mean time from a start to the first progress line
#                      that the wrapper logged;
#   lost               the mean time a fifo job ran beyond its work at the
#                      curve's rate (its start-up, its slower first iterations,
#                      and any steady-state gap to the curve), so that fifo is
#                      fitted and only the other policies are predicted.
#
# Prints, per run, each job's simulated and live JCT and |live - sim| / sim,
# and writes the same as DIR/compare.md. Exit 1 when the fifo run is missing or
# a simulation fails.
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
# a live preemption (the local executor's default, --preempt checkpoint) ends the
# process and a resumption starts a new one, on the same GPU too: its cost is a
# start's, which the simulator charges a job that comes back on the GPUs it left
# as "suspend"
w = {k: {c: round(sum(v) / len(v), 3) for c in ("start", "restart", "suspend")}
     for k, v in sorted(cost.items())}
json.dump({"default": {"start": 0, "restart": 0, "suspend": 0}, "workloads": w}, sys.stdout)
print()
PY

compare() { # NAME TRACE CATALOG POLICY ROUND
    local name=$1 trace=$2 cat=$3 pol=$4 round=$5
    local live=$T/$name-live.db
    sqlite3 "$live" ".import --csv $D/$name-live.csv jobs" || return 1
    "$B" simulate --trace "$trace" --cluster h100=1x1 --throughputs "$cat" --policy "$pol" \
        --round "$round" --overheads "$D/overheads.json" -q --db "$T/$name-sim.db" >/dev/null ||
        return 1
    echo
    echo "### $name: $pol on $(basename "$trace"), --round $round"
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
# a run's catalog: the one gpu-predict.sh wrote, else fitted from the curves (and
# PAIRS), else (no pairs) the plain one
catalog() { # NAME [PAIRS]
    if [ -s "$D/$1" ]; then
        echo "$D/$1"
    elif [ -n "${2:-}" ] && [ -s "$D/$2" ] &&
        "$B" profile fit -q -o "$T/$1" "$D"/builtin-*.csv "$D/$2" >&2 2>/dev/null; then
        echo "$T/$1"
    else
        echo "$cat"
    fi
}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
cat=$D/catalog.json
[ -s "$cat" ] || cat=$T/catalog.json
[ -s "$cat" ] || "$B" profile fit -q -o "$cat" "$D"/builtin-*.csv >&2 || exit 1
{
    echo "Start cost per workload (COST=${COST:-startup}, from the fifo run, s): $(cat "$D/overheads.json")"
    rc=0
    while read -r name trace catname pairs pol round; do
        [ -s "$D/$name-live.csv" ] || { [ "$name" != fifo ] && continue; }
        [ "$pairs" = - ] && pairs=
        compare "$name" "$D/$trace" "$(catalog "$catname" "$pairs")" "$pol" "$round" || rc=1
    done <<'RUNS'
fifo mixed.csv catalog.json - fifo 10
las mixed.csv catalog.json - las 10
slice slice.csv catalog.json - las 0
packed pack.csv catalog-pairs.json pairs.csv max-min-fairness-packed 10
packsmall packsmall.csv catalog-small.json pairs-small.csv max-min-fairness-packed 10
RUNS
    exit $rc
} | tee "$D/compare.md"
exit "${PIPESTATUS[0]}"
