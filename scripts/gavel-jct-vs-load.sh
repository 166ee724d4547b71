#!/bin/sh
# scripts/gavel-jct-vs-load.sh: Gavel's evaluation figure (OSDI 2020, average JCT
# vs input job rate) on 36 V100 + 36 P100 + 36 K80, Gavel's multi-GPU job mix,
# jobs 4000-5000 measured, 360 s rounds, no restart overhead (as Gavel).
# Default: a reduced grid (rates 1-3, seed 0). The README's figure used
# RATES=0.5,1,1.5,2,2.5,3,3.5,4 SEEDS=0,1,2 JOBS=2.
# Run from the build directory (./mlsched) or set MLSCHED.
set -eu
MLSCHED=${MLSCHED:-./mlsched}
SRC=$(cd "$(dirname "$0")/.." && pwd)
DB=${DB:-results/gavel-jct-vs-load.db}
RATES=${RATES:-1,2,3}
SEEDS=${SEEDS:-0}
mkdir -p "$(dirname "$DB")"
if [ -e "$DB" ]; then # every run starts from an empty database, never appends
    echo "gavel-jct-vs-load: removing the old $DB (each run starts empty)" >&2
    rm -f "$DB" "$DB-wal" "$DB-shm"
fi
cat <<EOF
# Gavel's evaluation (Narayanan et al., OSDI 2020: average JCT against the input job
# rate, continuous multi-GPU trace); the paper reports the heterogeneity-aware
# policies up to 3.5x lower average JCT than the heterogeneity-agnostic ones
# Settings: 36 V100 + 36 P100 + 36 K80 (gavel-108.json), Gavel's job mix with
#   1/2/4/8-GPU jobs, rates $RATES jobs/h, seeds $SEEDS, jobs 4000-5000 measured,
#   360 s rounds, no restart overhead
EOF
"$MLSCHED" sweep --trace-gen "--jobs 5000 --multi-gpu" --rates "$RATES" --seeds "$SEEDS" \
    --cluster "$SRC/traces/clusters/gavel-108.json" \
    --policies fifo,max-min-fairness,max-min-fairness-perf,max-min-fairness-packed,finish-time-fairness,gandiva,allox \
    --round 360 --restart-overhead 0 --placement spread --measure 4000:5000 -j "${JOBS:-1}" --db "$DB" --format markdown
echo
echo "Heterogeneity-aware against agnostic max-min fairness (average JCT, mean over seeds):"
echo
echo "| rate (jobs/h) | max-min-fairness / max-min-fairness-perf | paper |"
echo "|---|---|---|"
sqlite3 -separator ' | ' "$DB" "
  SELECT '| ' || substr(label, 6), printf('%.2fx', AVG(CASE WHEN policy = 'max-min-fairness'
             THEN avg_jct END) / AVG(CASE WHEN policy = 'max-min-fairness-perf' THEN avg_jct END)),
         'up to 3.5x |'
  FROM run_summary GROUP BY label ORDER BY CAST(substr(label, 6) AS REAL)"
"$MLSCHED" plot --db "$DB" -o "${PLOTS:-results/plots-gavel}"
