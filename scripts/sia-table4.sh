#!/bin/sh
# scripts/sia-table4.sh: Sia's comparison with the state of the art (Jayaram
# Subramanya et al., SOSP 2023, Table 4 and the Philly rows of Table 3) on
# Sia's own Philly workloads (8 traces of 160 jobs over 8 busy hours, 20
# jobs/h; ../shared/data/traces/generated/sia/philly, not shipped).
#
# Table 4 is Sia's *homogeneous* setting: 16 nodes x 4 T4 (64 GPUs,
# traces/clusters/pollux-64t4.json). Table 3 is the *heterogeneous* one: 6 t4
# nodes x 4, 2 a100 x 8, 3 rtx2080ti x 8 (traces/clusters/sia-hetero-64.json).
# Both with the pollux perf catalog (fitted to Sia's per-type profiles), 30 s
# restarts (the engine's; Sia's code uses 25-250 s per model), seed 1.
# Rounds as Sia §4.2: 60 s for sia and pollux, 360 s for the inelastic ones.
# Sia's baselines: Gavel = max-sum-throughput-perf (§4.2: "the max-sum-
# throughput policy for Gavel"); Themis = finish-time-fairness (Gavel's FTF
# policy, as Shockwave runs Themis; oracle), and mlsched's own themis beside
# it; Shockwave (oracle) on the homogeneous cluster as Table 4, twice: as
# Sia's artifact runs it (sia-simulator/multi_simulator_unaware.py and its
# shockwave.py wrapper: 60 s rounds, a window of 5 rounds, k = 1e-9, lambda
# 12, rhomax 1, finish times as durations from submission, a re-solve every
# round), and with Shockwave's own defaults (Zheng et al. §6 and its
# tacc_32gpus.json: 120 s rounds, window 20, k = 1e-3). The inelastic ones
# run each job at its trace's GPU count and batch (Sia's "TunedJobs": the
# workload files carry the tuned replicas and batch).
#
# Prints one row per setting and policy: mean over workloads of the average
# JCT, of the 99th-percentile JCT, of the makespan (hours) and GPU hours per
# job. Exit 77 (skip) without the data; DATA=DIR points elsewhere,
# WORKLOADS="1 2" runs fewer. Run from the build directory or set MLSCHED.
set -eu
MLSCHED=${MLSCHED:-./mlsched}
SRC=$(cd "$(dirname "$0")/.." && pwd)
DATA=${DATA:-$SRC/../shared/data/traces/generated/sia/philly}
WORKLOADS=${WORKLOADS:-"1 2 3 4 5 6 7 8"}
OUT=${OUT:-results/sia-table4}
if [ ! -f "$DATA/workload-1.csv" ]; then
    echo "sia-table4: skipped: no Sia Philly workloads in $DATA (set DATA=)" >&2
    exit 77
fi
mkdir -p "$OUT"
DB=$OUT/runs.db
rm -f "$DB"
inelastic="max-sum-throughput-perf finish-time-fairness themis"
sia_shockwave="-P window=5 -P k=1e-9 -P ftf=age -P resolve=1"
run() { # setting cluster policy round workload [policy args...]
    run_label=$1 run_cluster=$2 run_policy=$3 run_round=$4 run_w=$5
    shift 5
    "$MLSCHED" simulate --trace "$OUT/w$run_w.csv" --cluster "$SRC/traces/clusters/$run_cluster" \
        --throughputs "$SRC/traces/catalog/pollux.json" --round "$run_round" --restart-overhead 30 \
        --placement spread \
        --seed 1 --policy "$run_policy" --label "$run_label" --db "$DB" -q "$@" >/dev/null
}
for w in $WORKLOADS; do
    "$MLSCHED" trace import --format sia -o "$OUT/w$w.csv" "$DATA/workload-$w.csv" >/dev/null
    for p in sia pollux; do
        run homogeneous pollux-64t4.json "$p" 60 "$w"
        run heterogeneous sia-hetero-64.json "$p" 60 "$w"
    done
    for p in $inelastic; do
        run homogeneous pollux-64t4.json "$p" 360 "$w"
    done
    run heterogeneous sia-hetero-64.json max-sum-throughput-perf 360 "$w"
    # shellcheck disable=SC2086 # separate words
    run homogeneous pollux-64t4.json shockwave 60 "$w" $sia_shockwave
    run homogeneous pollux-64t4.json shockwave 120 "$w"
done
sqlite3 -header -column "$DB" "
SELECT s.label AS setting,
       s.policy || CASE WHEN s.params != '' THEN ' ' || s.params ELSE '' END AS policy,
       COUNT(*) AS workloads,
       ROUND(AVG(s.avg_jct) / 3600, 2) AS avg_jct_h, ROUND(AVG(s.p99_jct) / 3600, 1) AS p99_jct_h,
       ROUND(AVG(s.makespan) / 3600, 1) AS makespan_h,
       ROUND(AVG((SELECT AVG(j.gpu_seconds) FROM jobs j WHERE j.run_id = s.run_id)) / 3600, 2)
           AS gpu_h_per_job
FROM run_summary s GROUP BY s.label, s.policy, s.params ORDER BY s.label DESC, avg_jct_h"
