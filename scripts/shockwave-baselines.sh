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
sqlite3 "$DB" "SELECT policy, round(makespan), round(avg_jct), round(worst_ftf, 2),
    round(100 * unfair_fraction, 1) FROM run_summary"
