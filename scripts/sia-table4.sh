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
if [ -e "$DB" ]; then # every run starts from an empty database, never appends
    echo "sia-table4: removing the old $DB (each run starts empty)" >&2
    rm -f "$DB" "$DB-wal" "$DB-shm"
fi
sia_shockwave="-P window=5 -P k=1e-9 -P ftf=age -P resolve=1"
cat <<EOF
# Sia's comparison with the state of the art (Jayaram Subramanya et al., SOSP 2023):
# Table 4 (homogeneous: 16 x 4 T4) and Table 3's Philly rows (heterogeneous: 6 x 4 t4,
# 2 x 8 a100, 3 x 8 rtx2080ti), on Sia's Philly workloads $WORKLOADS
# Settings: pollux catalog, 30 s restarts, seed 1, rounds 60 s (sia, pollux), 360 s
#   (inelastic); shockwave with Sia's artifact's settings (60 s, $sia_shockwave)
#   and with its own defaults (120 s); inelastic jobs at the trace's GPUs and batch
# Columns: means over workloads (hours; GPU hours per job); paper_*: Sia's published
#   numbers for that row (NULL where the paper has none)
EOF
inelastic="max-sum-throughput-perf finish-time-fairness themis"
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
WITH paper(setting, policy, avg, p99, makespan, gpu_h) AS (VALUES
    ('homogeneous', 'sia', 1.9, 18.1, 21.4, 8.4), ('homogeneous', 'pollux', 2.0, 19.3, 21.7, 8.6),
    ('homogeneous', 'shockwave', 3.6, 32.8, 35.0, 12.5),
    ('homogeneous', 'max-sum-throughput-perf', 4.3, 37.1, 44.3, 15.3),
    ('homogeneous', 'finish-time-fairness', 5.4, 44.7, 49.7, 17.2),
    ('heterogeneous', 'sia', 0.6, 9.5, 14.2, 4.0), ('heterogeneous', 'pollux', 1.0, 14.9, 24.5, 5.6),
    ('heterogeneous', 'max-sum-throughput-perf', 1.9, 30.0, 33.8, 9.0)),
ours AS (
SELECT s.label AS setting, s.policy AS name,
       s.policy || CASE WHEN s.params != '' THEN ' ' || s.params ELSE '' END AS policy,
       COUNT(*) AS workloads,
       ROUND(AVG(s.avg_jct) / 3600, 2) AS avg_jct_h, ROUND(AVG(s.p99_jct) / 3600, 1) AS p99_jct_h,
       ROUND(AVG(s.makespan) / 3600, 1) AS makespan_h,
       ROUND(AVG((SELECT AVG(j.gpu_seconds) FROM jobs j WHERE j.run_id = s.run_id)) / 3600, 2)
           AS gpu_h_per_job
FROM run_summary s GROUP BY s.label, s.policy, s.params)
SELECT o.setting, o.policy, o.workloads, o.avg_jct_h, o.p99_jct_h, o.makespan_h, o.gpu_h_per_job,
       p.avg AS paper_avg_h, p.p99 AS paper_p99_h, p.makespan AS paper_makespan_h,
       p.gpu_h AS paper_gpu_h
FROM ours o LEFT JOIN paper p ON p.setting = o.setting AND p.policy = o.name
ORDER BY o.setting DESC, o.avg_jct_h"
