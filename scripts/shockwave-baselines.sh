#!/bin/sh
# scripts/shockwave-baselines.sh: Shockwave's canonical experiment (NSDI 2023,
# 120-job trace, 32 V100, 120 s rounds, its TACC throughputs, 20 s restart
# overhead) under the baselines of its figure: OSSP = min-total-duration,
# Themis = finish-time-fairness, Gavel = max-min-fairness, AlloX (alpha 0.2),
# MST = max-sum-throughput-perf, Gandiva-Fair. Needs ../shared/data/shockwave (not shipped).
# The 32 V100 are one 32-GPU node here: Shockwave's simulator runs with one GPU
# per "server" and never applies its unconsolidated throughputs, so a job's rate
# does not depend on placement; one node gives mlsched the same (CLUSTER=... to
# use traces/clusters/shockwave-32v100.json, 8 nodes x 4, with the penalty).
# Shockwave's scheduler recomputes allocations at most every 1000 s (Gavel:
# 1920), gives jobs that arrived since then no GPUs (new_jobs=wait), starts
# every job's received time at half a round (received_start=half_round), and
# runs AlloX through Gavel's round mechanism (allox mechanism=gavel).
# Last, mlsched's shockwave policy with its defaults (the tacc_32gpus.json
# configuration: window 20, k 1e-3, lambda 12, rhomax 1); SHOCKWAVE= (empty)
# leaves it out.
# Run from the build directory (./mlsched) or set MLSCHED.
set -eu
MLSCHED=${MLSCHED:-./mlsched}
SRC=$(cd "$(dirname "$0")/.." && pwd)
DATA=${DATA:-$SRC/../shared/data/shockwave}
DB=${DB:-results/shockwave.db}
mkdir -p "$(dirname "$DB")"
if [ -e "$DB" ]; then # every run starts from an empty database, never appends
    echo "shockwave-baselines: removing the old $DB (each run starts empty)" >&2
    rm -f "$DB" "$DB-wal" "$DB-shm"
fi
cat <<EOF
# Shockwave's baselines (Zheng et al., NSDI 2023, its canonical 32-GPU TACC figure:
# makespan and average JCT per scheduler, ratios to Shockwave on the bars)
# Settings: the 120-job trace, ${CLUSTER:-v100=1x32}, 120 s rounds, tacc_throughputs.json,
#   20 s restarts, batch modes as the trace says; Gavel-family policies with
#   recompute_interval=1000, new_jobs=wait, received_start=half_round; allox mechanism=gavel
# Paper columns: read off the published figure (docs/reproducing.md); diffs are ours vs paper
EOF
"$MLSCHED" trace import --format gavel -o results/sw120.csv "$DATA"/traces/120_*.trace
for p in min-total-duration finish-time-fairness max-min-fairness allox max-sum-throughput-perf \
    gandiva-fair ${SHOCKWAVE-shockwave}; do
    gavel="-P recompute_interval=1000 -P new_jobs=wait -P received_start=half_round"
    case $p in
    allox) params="-P mechanism=gavel $gavel" ;;
    gandiva-fair | shockwave) params="" ;;
    *) params=$gavel ;;
    esac
    # shellcheck disable=SC2086 # params are separate words
    "$MLSCHED" simulate --trace results/sw120.csv --cluster "${CLUSTER:-v100=1x32}" \
        --throughputs "$DATA/throughputs/tacc_throughputs.json" --round 120 --restart-overhead 20 \
        --placement spread \
        --policy "$p" $params --db "$DB" -q >/dev/null
done
sqlite3 -header "$DB" "
WITH paper(policy, name, makespan, avg_jct) AS (VALUES
    ('min-total-duration', 'OSSP', 24420, 20000), ('finish-time-fairness', 'Themis', 32230, 11360),
    ('max-min-fairness', 'Gavel', 33450, 11360), ('allox', 'AlloX', 32720, 10050),
    ('max-sum-throughput-perf', 'MST', 32230, 9750), ('gandiva-fair', 'Gandiva-Fair', 32500, 12700),
    ('shockwave', 'Shockwave', 24420, 10050))
SELECT s.policy, round(s.makespan) AS makespan_s, round(s.avg_jct) AS avg_jct_s,
    round(s.worst_ftf, 2) AS worst_rho, round(100 * s.unfair_fraction, 1) AS unfair_pct,
    p.name AS paper_name, p.makespan AS paper_makespan_s,
    printf('%+.1f%%', 100.0 * (s.makespan / p.makespan - 1)) AS makespan_diff,
    p.avg_jct AS paper_avg_jct_s, printf('%+.1f%%', 100.0 * (s.avg_jct / p.avg_jct - 1)) AS jct_diff
FROM run_summary s LEFT JOIN paper p USING (policy) ORDER BY s.run_id"
