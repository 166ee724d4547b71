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
# Every run is `--like shockwave` (cli/like.c): Shockwave's simulator's
# semantics, read from its code (uw-mad-dash/shockwave 8a44f4a,
# scheduler/scheduler.py and scheduler/policies/): the policy called at round
# ends only; allocations recomputed at most every 1000 s (Gavel: 1920); jobs
# that arrived since then get no GPUs (new_jobs=wait); received time starts at
# half a round (received_start=half_round); Gavel's priorities and deficits
# (rules=gavel); AlloX and Gandiva-Fair through Gavel's round mechanism
# (mechanism=gavel; its Gandiva-Fair is an equal time share per job); OSSP as
# its code solves it, a 5 % bisection over T and ECOS's interior point
# (bisect=1).
# Peer's numbers: the simulation pickles Shockwave publishes for this figure
# (scheduler/reproduce/pickles/tacc_32gpus/*_simulation.pickle at 8a44f4a:
# makespan, avg_jct; made by its reproduce/tacc_32gpus.sh, --solver ECOS
# --seed 0 --time_per_iteration 120 --cluster_spec 32:0:0), and the values
# read off its published figure.
# Last, mlsched's shockwave policy with its defaults (the tacc_32gpus.json
# configuration: window 20, k 1e-3, lambda 12, rhomax 1); SHOCKWAVE= (empty)
# leaves it out.
# Measured 2026-11-26 (mlsched, this script; peer: the pickles at 8a44f4a):
#   Shockwave's name  policy                   makespan sim / ours   avg JCT sim / ours  per-job
#   OSSP              min-total-duration       24,205 / 24,301 +0.4%  19,807 / 20,174 +1.9%  8.5%
#   Themis            finish-time-fairness     31,929 / 31,989 +0.2%  11,302 / 11,459 +1.4%  4.3%
#   Gavel             max-min-fairness         33,208 / 33,149 -0.2%  11,274 / 11,386 +1.0%  4.2%
#   AlloX             allox                    32,489 / 32,369 -0.4%   9,926 /  9,890 -0.4%  2.7%
#   MST               max-sum-throughput-perf  31,909 / 31,664 -0.8%   9,655 /  9,656 +0.0%  9.9%
#   Gandiva-Fair      gandiva-fair             32,367 / 31,929 -1.4%  12,574 / 12,778 +1.6%  5.1%
#   Shockwave         shockwave                24,197 / 25,013 +3.4%   9,958 / 10,940 +9.9%
# (per-job: mean |JCT difference| / the pickle's jct_list; docs/reproducing.md.)
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
# Settings: the 120-job trace, ${CLUSTER:-v100=1x32}, tacc_throughputs.json, batch modes as
#   the trace says, --like shockwave (120 s rounds, 20 s restarts, Shockwave's Gavel rules)
# sim_*: Shockwave's published simulation pickles (its simulator); paper_*: read off its
#   figure (docs/reproducing.md); diffs are ours vs each
EOF
"$MLSCHED" trace import --format gavel -o results/sw120.csv "$DATA"/traces/120_*.trace
for p in min-total-duration finish-time-fairness max-min-fairness allox max-sum-throughput-perf \
    gandiva-fair ${SHOCKWAVE-shockwave}; do
    "$MLSCHED" simulate --trace results/sw120.csv --cluster "${CLUSTER:-v100=1x32}" \
        --throughputs "$DATA/throughputs/tacc_throughputs.json" --like shockwave \
        --policy "$p" --db "$DB" -q >/dev/null
done
sqlite3 -header "$DB" "
WITH paper(policy, name, makespan, avg_jct, sim_makespan, sim_avg_jct) AS (VALUES
    ('min-total-duration', 'OSSP', 24420, 20000, 24204.8, 19806.7),
    ('finish-time-fairness', 'Themis', 32230, 11360, 31928.7, 11302.0),
    ('max-min-fairness', 'Gavel', 33450, 11360, 33207.7, 11274.1),
    ('allox', 'AlloX', 32720, 10050, 32488.6, 9926.3),
    ('max-sum-throughput-perf', 'MST', 32230, 9750, 31909.0, 9654.7),
    ('gandiva-fair', 'Gandiva-Fair', 32500, 12700, 32367.4, 12574.3),
    ('shockwave', 'Shockwave', 24420, 10050, 24197, 9958))
SELECT s.policy, round(s.makespan) AS makespan_s, round(s.avg_jct) AS avg_jct_s,
    round(s.worst_ftf, 2) AS worst_rho, round(100 * s.unfair_fraction, 1) AS unfair_pct,
    p.name AS paper_name, round(p.sim_makespan) AS sim_makespan_s,
    printf('%+.1f%%', 100.0 * (s.makespan / p.sim_makespan - 1)) AS makespan_vs_sim,
    round(p.sim_avg_jct) AS sim_avg_jct_s,
    printf('%+.1f%%', 100.0 * (s.avg_jct / p.sim_avg_jct - 1)) AS jct_vs_sim,
    p.makespan AS paper_makespan_s,
    printf('%+.1f%%', 100.0 * (s.makespan / p.makespan - 1)) AS makespan_diff,
    p.avg_jct AS paper_avg_jct_s, printf('%+.1f%%', 100.0 * (s.avg_jct / p.avg_jct - 1)) AS jct_diff
FROM run_summary s LEFT JOIN paper p USING (policy) ORDER BY s.run_id"
