#!/bin/sh
# scripts/deeppool.sh: DeepPool's comparison (Park et al., MLSys 2022: total
# cluster throughput of burst parallelism + GPU multiplexing against plain data
# parallelism with a single task, strong scaling at a fixed global batch) on a
# workload like the paper's: one foreground job, VGG-16 at global batch 32,
# strong-scaled over the whole cluster of G GPUs (G = 2, 4, 8, 16; 16 = two
# 8-GPU nodes), and a backlog of background jobs (ResNet-50, batch 64 per
# GPU, data parallel over G GPUs, 1 min of one-GPU work each).
#
# The perf model (written here, into OUT/dp.json and OUT/deeppool.json), per
# iteration of the foreground on g GPUs, T1 = 0.128 s on one GPU (250
# samples/s), share s = 0.10 of its compute in layers that do not scale:
#   compute(g)  = T1 (s + (1 - s) / g)                        (Amdahl, per layer)
#   DP:    T(g) = compute(g) + A   2 (g - 1) / g              (ring all-reduce of
#                                                              every parameter, A = 8 ms)
#   burst: T(g) = compute(g) + A_b 2 (g - 1) / g + X           (only the scaled layers'
#                                                              parameters, A_b = 1 ms,
#                                                              X = 1 ms activation transfer)
#   idle(g) = 1 - T1 / (g T_burst(g))  the share of its g GPUs' time the burst
#                                      plan leaves idle (busy GPU time per
#                                      iteration is T1: the work is conserved)
# Multiplexing (the catalog's "multiplex" section): foreground x (1 - 0.1)
# (interference 10 %), background at its solo rate x idle(g). Background
# solo rate on g GPUs: 360 g 0.97^log2(g) samples/s.
#
# Rows per G: fifo on the DP catalog (plain data parallelism: the foreground
# holds every GPU, the background waits), deeppool multiplex=0 on the burst
# catalog (burst parallelism alone), deeppool (burst + multiplexing). The run
# ends when the foreground finishes (--measure 0:1; its work: 2 h at the
# burst rate on G GPUs); no restart overhead (--restart-overhead 0), so the
# numbers compare with the model's. Cluster throughput = (foreground samples
# / 250 + background samples finished / 360) / run length: one-GPU
# equivalents of work per second; "model" is the same from the formulas.
# Writes OUT/table.md, OUT/deeppool.png (+ .dat, .gp, the two catalogs, the
# traces) and OUT/deeppool.db. Run from the build directory or set MLSCHED.
set -eu
MLSCHED=${MLSCHED:-./mlsched}
OUT=${OUT:-results/deeppool}
SIZES=${SIZES:-2 4 8 16}
DB="$OUT/deeppool.db"
mkdir -p "$OUT"
if [ -e "$DB" ]; then # every run starts from an empty database, never appends
    echo "deeppool: removing the old $DB (each run starts empty)" >&2
    rm -f "$DB" "$DB-wal" "$DB-shm"
fi
FG="VGG-16 (batch size 32)"
BG="ResNet-50 (batch size 64)"

# The model: one line per g: g dp_rate burst_rate idle bg_rate (samples/s).
model() {
    awk 'BEGIN { T1 = 0.128; s = 0.10; A = 0.008; Ab = 0.001; X = 0.001
        for (g = 1; g <= 16; g++) {
            c = T1 * (s + (1 - s) / g); f = 2 * (g - 1) / g
            tdp = c + A * f; tb = c + (g > 1 ? Ab * f + X : 0)
            printf "%d %.6f %.6f %.6f %.6f\n", g, 32 / tdp, 32 / tb, 1 - T1 / (g * tb),
                360 * g * 0.97 ^ (log(g) / log(2)) }}'
}
model >"$OUT/model.txt"

# A table catalog: the foreground's curve (column 2 or 3), the background's,
# and with MUX=1 the multiplex section.
catalog() { # column mux
    awk -v col="$1" -v mux="$2" -v fg="$FG" -v bg="$BG" '
        { r[$1] = $col; idle[$1] = $4; b[$1] = $5; n = $1 }
        END {
            printf "{\n \"v100\": {\n"
            for (g = 1; g <= n; g++)
                printf "  \"(\x27%s\x27, %d)\": {\"null\": %.6f},\n  \"(\x27%s\x27, %d)\": {\"null\": %.6f}%s\n",
                    fg, g, r[g], bg, g, b[g], g < n ? "," : ""
            printf " }"
            if (mux) {
                printf ",\n \"multiplex\": {\n  \"interference\": 0.1,\n  \"idle\": {\"v100\": {\n"
                for (g = 1; g <= n; g++)
                    printf "   \"(\x27%s\x27, %d)\": %.6f%s\n", fg, g, idle[g], g < n ? "," : ""
                printf "  }}\n }"
            }
            printf "\n}\n"
        }' "$OUT/model.txt"
}
catalog 2 0 >"$OUT/dp.json"
catalog 3 1 >"$OUT/deeppool.json"

# The trace for G GPUs: the foreground (priority 2) then 3,000 background jobs.
trace() { # G
    awk -v G="$1" -v fg="$FG" -v bg="$BG" '
        $1 == G { work = $3 * 7200 }
        END {
            print "id,submit_time,user,workload,gpus,total_work,duration,priority,deadline,min_gpus,max_gpus,batch_size,mode"
            printf "0,0,fg,%s,%d,%.3f,,2,,%d,%d,0,static\n", fg, G, work, G, G
            for (i = 1; i <= 3000; i++)
                printf "%d,0,bg,%s,%d,21600,,1,,%d,%d,0,static\n", i, bg, G, G, G
        }' "$OUT/model.txt"
}

for g in $SIZES; do
    trace "$g" >"$OUT/trace$g.csv"
    if [ "$g" -gt 8 ]; then cl="v100=$((g / 8))x8"; else cl="v100=1x$g"; fi
    sim() { # label catalog policy args...
        label=$1 cat=$2 pol=$3
        shift 3
        "$MLSCHED" simulate --trace "$OUT/trace$g.csv" --cluster "$cl" --throughputs "$cat" \
            --policy "$pol" --round 0 --restart-overhead 0 --placement spread --measure 0:1 --label "$label $g" \
            -q --db "$DB" "$@" >/dev/null
    }
    sim "dp" "$OUT/dp.json" fifo
    sim "burst" "$OUT/deeppool.json" deeppool -P multiplex=0
    sim "deeppool" "$OUT/deeppool.json" deeppool
done

# Cluster throughput per run, in one-GPU equivalents (foreground 250 samples/s,
# background 360 samples/s on one GPU).
sqlite3 -separator ' ' "$DB" "
  SELECT substr(r.label, 1, instr(r.label, ' ') - 1), r.n_gpus, f.finish,
         (f.work / 250.0 + COALESCE((SELECT SUM(b.work) FROM jobs b WHERE b.run_id = r.run_id
            AND b.job_id > 0 AND b.finish <= f.finish), 0) / 360.0) / f.finish,
         (SELECT COUNT(*) FROM jobs b WHERE b.run_id = r.run_id AND b.job_id > 0
            AND b.finish <= f.finish)
  FROM runs r JOIN jobs f ON f.run_id = r.run_id AND f.job_id = 0 ORDER BY r.run_id;" >"$OUT/runs.txt"

# The model's expectation: dp = S_dp, burst = S_b, deeppool = 0.9 S_b + B idle.
awk 'NR == FNR { m[$1] = $0; next }
     { split(m[$2], x, " ")
       e = $1 == "dp" ? x[2] / 250 : $1 == "burst" ? x[3] / 250 : 0.9 * x[3] / 250 + x[4] * x[5] / 360
       print $0, e, x[4] }' "$OUT/model.txt" "$OUT/runs.txt" >"$OUT/deeppool.dat"

{
    echo "| GPUs | run | foreground time (h) | foreground speedup | idle share | background jobs done | cluster throughput (1-GPU eq.) | model | vs DP | paper, vs DP |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
    awk 'NR == FNR { sb[$1] = $3 / 250; sd[$1] = $2 / 250; next }
         { if ($1 == "dp") dp[$2] = $4
           label = $1 == "dp" ? "data parallel (fifo)" : $1 == "burst" ? "burst parallel only (deeppool multiplex=0)" : "DeepPool (burst + multiplexing)"
           sp = $1 == "dp" ? sd[$2] : $1 == "burst" ? sb[$2] : 0.9 * sb[$2]
           printf "| %d | %s | %.3f | %.2f | %s | %d | %.2f | %.2f | %.2fx | %s |\n", $2, label, $3 / 3600,
               sp, $1 == "deeppool" ? sprintf("%.2f", $7) : "-", $5, $4, $6, $4 / dp[$2],
               $1 == "deeppool" ? "1.2-2.3x (large clusters)" : "-" }' \
        "$OUT/model.txt" "$OUT/deeppool.dat"
} >"$OUT/table.md"

cat >"$OUT/deeppool.gp" <<'EOF'
set terminal pngcairo size 1000,400 font ",10"
set output "deeppool.png"
set multiplot layout 1,2
set grid
set key top left
set logscale x 2
set xtics (2, 4, 8, 16)
set xrange [1.8:18]
set xlabel "GPUs (one foreground job strong-scaled over all)"
set ylabel "cluster throughput (one-GPU equivalents)"
plot for [p in "dp burst deeppool"] "< awk '$1 == \"".p."\"' deeppool.dat" using 2:4 with linespoints title p, \
     "< awk '$1 == \"deeppool\"' deeppool.dat" using 2:6 with lines dashtype 2 title "deeppool (model)"
set ylabel "cluster throughput / data parallel"
set yrange [0:*]
plot "< awk '$1 == \"dp\" { d[$2] = $4 } $1 == \"deeppool\" { print $2, $4 / d[$2] }' deeppool.dat" \
       using 1:2 with linespoints title "DeepPool / DP", \
     "< awk '$1 == \"dp\" { d[$2] = $4 } $1 == \"burst\" { print $2, $4 / d[$2] }' deeppool.dat" \
       using 1:2 with linespoints title "burst only / DP", \
     1.2 with lines lw 2 dashtype 2 lc rgb "gray40" title "paper: 1.2-2.3x", \
     2.3 with lines lw 2 dashtype 2 lc rgb "gray40" notitle
unset multiplot
EOF
if command -v gnuplot >/dev/null; then (cd "$OUT" && gnuplot deeppool.gp); fi
cat <<EOF
# DeepPool (Park et al., MLSys 2022): total cluster throughput of burst parallelism +
# GPU multiplexing against plain data parallelism with a single task (strong scaling
# at a fixed global batch); the paper reports 1.2-2.3x when the cluster is large
# Settings: one VGG-16 foreground job (global batch 32) over all of G = $SIZES V100s,
#   3,000 background ResNet-50 jobs, the perf model written here (OUT/model.txt),
#   no restart overhead, each run to the foreground's finish
EOF
cat "$OUT/table.md"
