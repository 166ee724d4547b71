#!/bin/sh
# scripts/autoscale-knee.sh: Or, Zhang and Freedman's scenario (MLSys 2020,
# §5: a ResNet job on CIFAR-10 autoscaled from one worker, against the same job
# run at fixed sizes) on a job whose throughput stops scaling at a known size.
# tests/fixtures/elastic/knee.json: samples/s T(k) = 1000 k 0.97^(k-1) up to 8
# workers (marginal per added worker 633-940, above eff x T(1) = 500), then
# +150 per worker (below 500): the knee is 8. The job (knee.csv) has 4 h of
# work at 8 workers, arrives asking for 1 GPU, elastic 1..16, on v100=3x8.
# Rows: autoscale (eff=0.5, 120 s rounds = one trial per round, 20 s per
# resize), fifo at fixed sizes 1, 8 and 16; then a straggler (slow.csv: node
# v100-0 at half speed from t = 2 h) with and without replacement
# (straggle=0.01 never flags one). Prints a markdown table.
# Run from the build directory (./mlsched) or set MLSCHED.
set -eu
MLSCHED=${MLSCHED:-./mlsched}
SRC=$(cd "$(dirname "$0")/.." && pwd)
F="$SRC/tests/fixtures/elastic"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
run() { # label trace policy extra-args...
    label=$1 trace=$2 policy=$3
    shift 3
    "$MLSCHED" simulate --trace "$trace" --cluster v100=3x8 --throughputs "$F/knee.json" \
        --policy "$policy" --round 120 --placement spread --timeline-step 60 --label "$label" -q \
        --db "$tmp/k.db" "$@" >/dev/null
}
for g in 1 8 16; do
    sed "2s/,ann,\(.*\),1,\([0-9]*\),,1,,1,16,/,ann,\1,$g,\2,,1,,$g,$g,/" "$F/knee.csv" >"$tmp/fixed$g.csv"
done
run "autoscale" "$F/knee.csv" autoscale
run "fifo, fixed 1 GPU" "$tmp/fixed1.csv" fifo
run "fifo, fixed 8 GPUs" "$tmp/fixed8.csv" fifo
run "fifo, fixed 16 GPUs" "$tmp/fixed16.csv" fifo
run "autoscale, straggler at 2 h" "$F/knee.csv" autoscale --faults "$F/slow.csv"
run "autoscale straggle=0.01 (no replacement), straggler at 2 h" "$F/knee.csv" autoscale \
    -P straggle=0.01 --faults "$F/slow.csv"
run "fifo, fixed 8 GPUs, straggler at 2 h" "$tmp/fixed8.csv" fifo --faults "$F/slow.csv"
cat <<EOF
Or, Zhang and Freedman, "Resource Elasticity in Distributed Deep Learning" (MLSys 2020,
§5: a job autoscaled from one worker against the same job at fixed sizes; the paper
reports up to 45 % lower JCT than too few workers, up to 85.1 % less GPU time than too
many). Here: one job of 4 h at 8 workers whose throughput stops scaling at 8 (knee.json),
elastic 1..16 on v100=3x8, 120 s rounds, 20 s per resize; straggler rows: node v100-0 at
half speed from 2 h. Last columns: autoscale against each fixed-size run, ours and the
paper's claim for that comparison.

EOF
echo "| run | final GPUs | JCT (h) | GPU-hours | restarts | autoscale vs this run | paper |"
echo "|---|---|---|---|---|---|---|"
sqlite3 -separator ' | ' "$tmp/k.db" "
  WITH a AS (SELECT j.jct, j.gpu_seconds FROM runs r JOIN jobs j USING (run_id)
             WHERE r.label = 'autoscale')
  SELECT '| ' || r.label, (SELECT busy_gpus FROM timeline t WHERE t.run_id = r.run_id AND
         t.busy_gpus > 0 ORDER BY t.t DESC LIMIT 1),
         printf('%.2f', j.jct / 3600.0), printf('%.1f', j.gpu_seconds / 3600.0),
         j.restarts,
         CASE WHEN r.label LIKE 'fifo, fixed % GPU%' AND r.label NOT LIKE '%straggler%'
              THEN printf('JCT %+.0f %%, GPU-hours %+.0f %%', 100.0 * (a.jct / j.jct - 1),
                          100.0 * (a.gpu_seconds / j.gpu_seconds - 1)) ELSE '-' END,
         CASE r.label WHEN 'fifo, fixed 1 GPU' THEN 'JCT up to -45 %'
                      WHEN 'fifo, fixed 16 GPUs' THEN 'GPU time up to -85.1 %'
                      ELSE '-' END || ' |'
  FROM runs r JOIN jobs j USING (run_id), a ORDER BY r.run_id;"
