#!/bin/sh
# scripts/saxena-elastic.sh: Saxena et al.'s comparison (MASCOTS 2020, §V:
# jobs completed in a fixed time and average JCT against the arrival rate),
# elastic-dp vs elastic-fixed-batch vs fifo, on a workload like the paper's:
# Poisson arrivals of deep-learning training jobs for HOURS hours on a shared
# cluster, every job elastic (1..16 GPUs) with a batch range, each trained to
# completion. Here: Pollux's 64 T4 (traces/clusters/pollux-64t4.json) and its
# goodput catalog (traces/catalog/pollux.json), workloads cifar10, bert,
# deepspeech2, yolov3, ncf uniformly, work = dataset x completion epochs
# (M0-equivalent samples), requested GPUs 1/2/4 at 60/20/20 % (what fifo runs
# rigidly; elastic-fixed-batch keeps the total batch of that request), batch
# range [M0, max_batch] of the catalog. Jobs completed = jobs finished by
# t = HOURS h; average JCT over all jobs, the run going on to the last finish.
# Writes OUT/table.md, OUT/saxena.png (+ .dat, .gp) and OUT/saxena.db.
# Run from the build directory (./mlsched) or set MLSCHED.
set -eu
MLSCHED=${MLSCHED:-./mlsched}
SRC=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-results/saxena}
RATES=${RATES:-5 10 15 20 30}
SEEDS=${SEEDS:-1 2 3}
HOURS=${HOURS:-8}
POLICIES="elastic-dp elastic-fixed-batch fifo"
DB="$OUT/saxena.db"
mkdir -p "$OUT"
if [ -e "$DB" ]; then # every run starts from an empty database, never appends
    echo "saxena-elastic: removing the old $DB (each run starts empty)" >&2
    rm -f "$DB" "$DB-wal" "$DB-shm"
fi
cat <<EOF
# Saxena et al., "Effective Elastic Scaling of Deep Learning Workloads" (MASCOTS 2020,
# §V: jobs completed in a fixed time and average JCT against the arrival rate, their
# dynamic program against an elastic baseline that keeps each job's batch); the paper
# reports up to ~2x as many jobs completed and up to ~10x lower average JCT
# Settings: Poisson arrivals for $HOURS h at $RATES jobs/h, seeds $SEEDS, on
#   pollux-64t4.json with the pollux catalog, jobs elastic 1..16 GPUs;
#   elastic-dp vs elastic-fixed-batch vs fifo; means over seeds
EOF

# Poisson arrivals from a Park-Miller generator (exact in any awk's doubles,
# so every awk writes the same file for the same seed).
gen() {
    awk -v rate="$1" -v seed="$2" -v hours="$HOURS" 'BEGIN {
        x = (seed * 7919 + 12345) % 2147483647
        split("cifar10 bert deepspeech2 yolov3 ncf", w, " ")
        work["cifar10"] = 50048 * 100; work["bert"] = 88644 * 2
        work["deepspeech2"] = 7140 * 80; work["yolov3"] = 16552 * 50
        work["ncf"] = 4971008 * 10
        print "id,submit_time,user,workload,gpus,total_work,duration,priority,deadline,min_gpus,max_gpus,batch_size,mode"
        t = 0
        for (id = 0; ; id++) {
            x = (x * 16807) % 2147483647; u = x / 2147483647
            t += -log(1 - u) * 3600 / rate
            if (t >= hours * 3600) break
            x = (x * 16807) % 2147483647; k = 1 + int(x / 2147483647 * 5)
            x = (x * 16807) % 2147483647; u = x / 2147483647
            g = u < 0.6 ? 1 : u < 0.8 ? 2 : 4
            printf "%d,%.1f,u%d,%s,%d,%d,,1,,1,16,0,static\n", id, t, id % 4, w[k], g, work[w[k]]
        }
    }'
}

for rate in $RATES; do
    for seed in $SEEDS; do
        trace="$OUT/trace-r$rate-s$seed.csv"
        gen "$rate" "$seed" >"$trace"
        for p in $POLICIES; do
            "$MLSCHED" simulate --trace "$trace" --cluster "$SRC/traces/clusters/pollux-64t4.json" \
                --throughputs "$SRC/traces/catalog/pollux.json" --policy "$p" --seed "$seed" \
                --placement spread \
                --label "rate=$rate" -q --db "$DB" >/dev/null
        done
    done
done

# per policy and rate, the mean over seeds
sqlite3 -separator ' ' "$DB" "
  SELECT r.policy, CAST(substr(r.label, 6) AS REAL) AS rate,
         AVG((SELECT COUNT(*) FROM jobs j WHERE j.run_id = r.run_id AND j.finish <= $HOURS * 3600)),
         AVG((SELECT COUNT(*) FROM jobs j WHERE j.run_id = r.run_id)),
         AVG(s.avg_jct) / 3600.0
  FROM runs r JOIN summary s USING (run_id)
  GROUP BY r.policy, rate ORDER BY r.policy, rate;" >"$OUT/saxena.dat"

{
    echo "| jobs/h | arrived | fifo done by ${HOURS} h | fixed-batch done | elastic-dp done | fifo avg JCT (h) | fixed-batch avg JCT (h) | elastic-dp avg JCT (h) | done: dp / fixed | JCT: fixed / dp | paper: done, JCT |"
    echo "|---|---|---|---|---|---|---|---|---|---|---|"
    for rate in $RATES; do
        awk -v r="$rate" '$2 == r { done[$1] = $3; n = $4; jct[$1] = $5 }
            END { printf "| %s | %.0f | %.1f | %.1f | %.1f | %.2f | %.2f | %.2f | %.2fx | %.2fx | up to ~2x, ~10x |\n",
                  r, n, done["fifo"], done["elastic-fixed-batch"], done["elastic-dp"],
                  jct["fifo"], jct["elastic-fixed-batch"], jct["elastic-dp"],
                  done["elastic-dp"] / done["elastic-fixed-batch"],
                  jct["elastic-fixed-batch"] / jct["elastic-dp"] }' "$OUT/saxena.dat"
    done
} >"$OUT/table.md"
cat "$OUT/table.md"

cat >"$OUT/saxena.gp" <<EOF
set terminal pngcairo size 1000,400 font ",10"
set output "saxena.png"
set multiplot layout 1,2
set key bottom right
set grid
set xlabel "arrival rate (jobs/h)"
set ylabel "jobs completed in ${HOURS} h"
plot for [p in "elastic-dp elastic-fixed-batch fifo"] "< awk '\$1 == \"".p."\"' saxena.dat" \
     using 2:3 with linespoints title p
set ylabel "average JCT (h)"
set key top left
set logscale y
plot for [p in "elastic-dp elastic-fixed-batch fifo"] "< awk '\$1 == \"".p."\"' saxena.dat" \
     using 2:5 with linespoints title p
unset multiplot
EOF
(cd "$OUT" && gnuplot saxena.gp)
echo "wrote $OUT/table.md, $OUT/saxena.png"
