#!/bin/sh
# scripts/gandiva-paper.sh: Gandiva's micro-benchmarks (Xiao et al., OSDI 2018,
# §5-6) in spirit, on the simulator with the bundled Gavel catalog, 60 s
# quanta (--round 60), 20 s restarts/migrations and Gandiva's 0.25 s
# suspend-resume (an overheads file):
#   1. time-slicing: six 1-GPU ResNet-18 jobs (1 h each alone) on 4 GPUs:
#      gandiva-paper (packing off) vs fifo: the same total throughput, and every
#      job starts within the first minute;
#   2. packing: two light jobs (A3C + ResNet-18, normalized pair throughput
#      1.75) on one GPU, packing on vs off: higher throughput; a harmful pair
#      (ResNet-50 + Transformer, 0.79) is tried, measured and reverted, so it
#      costs little against never packing;
#   3. migration: v100=2x8, three 4-GPU jobs fill node 0 and half of node 1,
#      one ends; an 8-GPU job arrives: with migration a 4-GPU job moves to
#      node 1 and the 8-GPU job starts at once, without it it waits;
#   4. AutoML: 48 one-GPU trials at once on 8 GPUs, 40 stopped early (10 min
#      of work) and 8 long (4 h), in a shuffled order: time to the N-th
#      finished trial and to every trial's first feedback (its first start)
#      under time-slicing vs fifo and vs gandiva-paper slice=0.
# Prints a markdown table per scenario and KEY=VALUE lines (tests/gandiva_paper.sh
# checks them). FIG=DIR also draws the time-slicing and AutoML figures there
# with gnuplot (docs/figures/gandiva-paper in the README).
# Run from the build directory (./mlsched) or set MLSCHED.
set -eu
MLSCHED=${MLSCHED:-./mlsched}
command -v sqlite3 >/dev/null 2>&1 || { echo "SKIP: sqlite3 is not installed"; exit 77; }
tmp=$(mktemp -d /tmp/mls-gandiva-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
db="$tmp/r.db"
printf '{"default": {"start": 20, "restart": 20, "resize": 20, "migrate": 20, "suspend": 0.25}}\n' \
    >"$tmp/ovh.json"
R18="ResNet-18 (batch size 64)"
cat <<'EOF'
# Gandiva's micro-benchmarks and multi-job experiment (Xiao et al., "Gandiva:
# Introspective Cluster Scheduling for Deep Learning", OSDI 2018, §6.1-6.2), in spirit
# Settings: bundled Gavel catalog, 60 s quanta (--round 60), 20 s starts, restarts and
#   migrations, 0.25 s suspend-resume, seed 1; gandiva-paper against fifo
# The paper (abstract, §6): time-slicing gives every job of a multi-job early feedback;
#   packing is kept only where it raises throughput; migration defragments for a
#   better job-to-resource fit; hyper-parameter search "up to an order of magnitude"
#   faster (the AutoML table's last column). Its figures are from its own cluster: no
#   numbers are compared here, the claims are (tests/gandiva_paper.sh checks them).

EOF

# sim LABEL TRACE CLUSTER POLICY [PARAM...]: one run, labelled, into $db
sim() {
    label=$1 trace=$2 cluster=$3 policy=$4
    shift 4
    args=""
    for p in "$@"; do args="$args -P $p"; done
    # shellcheck disable=SC2086
    "$MLSCHED" simulate --trace "$trace" --cluster "$cluster" --policy "$policy" $args \
        --round 60 --placement spread --overheads "$tmp/ovh.json" --seed 1 -q --db "$db" --label "$label" >/dev/null
}
q() { sqlite3 "$db" "$1"; }
run_of() { q "SELECT run_id FROM runs WHERE label='$1'"; }
# per run: makespan (s), total work / makespan, the longest wait before a first start
makespan() { q "SELECT printf('%.0f', MAX(finish)) FROM jobs WHERE run_id=$(run_of "$1")"; }
rate() { q "SELECT printf('%.4f', SUM(work)/MAX(finish)) FROM jobs WHERE run_id=$(run_of "$1")"; }
maxwait() { q "SELECT printf('%.0f', MAX(first_start-submit)) FROM jobs WHERE run_id=$(run_of "$1")"; }
avgjct() { q "SELECT printf('%.0f', AVG(finish-submit)) FROM jobs WHERE run_id=$(run_of "$1")"; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", a / b }'; }

# ---- 1. time-slicing ---------------------------------------------------------
w=$(awk 'BEGIN { printf "%.1f", 3600 * 24.09 }') # 1 h of ResNet-18 on a V100
{
    echo "id,submit_time,user,workload,gpus,total_work"
    for i in 0 1 2 3 4 5; do echo "$i,0,u$i,$R18,1,$w"; done
} >"$tmp/slice.csv"
sim slice-fifo "$tmp/slice.csv" v100=1x4 fifo
sim slice-gandiva "$tmp/slice.csv" v100=1x4 gandiva-paper pack=0
echo "### Time-slicing: six 1-GPU jobs (1 h each alone) on 4 GPUs"
echo
ideal=$(awk 'BEGIN { printf "%.2f", 4 * 24.09 }')
echo "Total throughput = all work / makespan, against 4 V100s busy all along ($ideal work/s)."
echo
echo "| policy | makespan (s) | total throughput (work/s) | of 4 busy GPUs | longest wait to start (s) | avg JCT (s) |"
echo "|---|---|---|---|---|---|"
for l in slice-fifo slice-gandiva; do
    echo "| ${l#slice-} | $(makespan $l) | $(rate $l) | $(ratio "$(rate $l)" "$ideal") | $(maxwait $l) | $(avgjct $l) |"
done
echo
echo "SLICE_OF_IDEAL=$(ratio "$(rate slice-gandiva)" "$ideal")"
echo "SLICE_MAXWAIT_FIFO=$(maxwait slice-fifo)"
echo "SLICE_MAXWAIT_GANDIVA=$(maxwait slice-gandiva)"
echo

# ---- 2. packing --------------------------------------------------------------
pack_trace() { # A B RATE_A RATE_B: 1 h of each alone, one GPU
    echo "id,submit_time,user,workload,gpus,total_work"
    echo "0,0,u0,$1,1,$(awk -v r="$3" 'BEGIN { printf "%.1f", 3600 * r }')"
    echo "1,0,u1,$2,1,$(awk -v r="$4" 'BEGIN { printf "%.1f", 3600 * r }')"
}
pack_trace A3C "$R18" 7.176 24.09 >"$tmp/light.csv"
pack_trace "ResNet-50 (batch size 64)" "Transformer (batch size 64)" 4.395 8.618 >"$tmp/heavy.csv"
for t in light heavy; do
    sim "$t-off" "$tmp/$t.csv" v100=1x1 gandiva-paper pack=0
    sim "$t-on" "$tmp/$t.csv" v100=1x1 gandiva-paper pack=1
done
echo "### Packing two jobs on one GPU (1 h each alone)"
echo
echo "| pair | makespan, time-slicing only (s) | makespan, packing tried (s) | throughput gain |"
echo "|---|---|---|---|"
echo "| A3C + ResNet-18 (light, pair 1.75) | $(makespan light-off) | $(makespan light-on) | $(ratio "$(makespan light-off)" "$(makespan light-on)")x |"
echo "| ResNet-50 + Transformer (harmful, pair 0.79) | $(makespan heavy-off) | $(makespan heavy-on) | $(ratio "$(makespan heavy-off)" "$(makespan heavy-on)")x |"
echo
echo "PACK_LIGHT_GAIN=$(ratio "$(makespan light-off)" "$(makespan light-on)")"
echo "PACK_HEAVY_GAIN=$(ratio "$(makespan heavy-off)" "$(makespan heavy-on)")"
echo

# ---- 3. migration ------------------------------------------------------------
R50="ResNet-50 (batch size 64)"
{
    echo "id,submit_time,user,workload,gpus,total_work"
    echo "0,0,u0,$R50,4,$(awk 'BEGIN { printf "%.1f", 4 * 3600 * 9.452 }')"
    echo "1,0,u1,$R50,4,$(awk 'BEGIN { printf "%.1f", 0.5 * 3600 * 9.452 }')"
    echo "2,0,u2,$R50,4,$(awk 'BEGIN { printf "%.1f", 4 * 3600 * 9.452 }')"
    echo "3,3600,u3,$R50,8,$(awk 'BEGIN { printf "%.1f", 3600 * 17.3 }')"
} >"$tmp/migrate.csv"
sim mig-off "$tmp/migrate.csv" v100=2x8 gandiva-paper migrate=0
sim mig-on "$tmp/migrate.csv" v100=2x8 gandiva-paper migrate=1
wait8() { q "SELECT printf('%.0f', first_start-submit) FROM jobs WHERE job_id=3 AND run_id=$(run_of "$1")"; }
moved() { q "SELECT restarts FROM jobs WHERE job_id=0 AND run_id=$(run_of "$1")"; }
echo "### Migration: an 8-GPU job arrives on a fragmented v100=2x8"
echo
echo "| gandiva-paper | 8-GPU job's wait (s) | moves of job 0 | avg JCT (s) | makespan (s) |"
echo "|---|---|---|---|---|"
for l in mig-off mig-on; do
    echo "| migrate=$([ $l = mig-on ] && echo 1 || echo 0) | $(wait8 $l) | $(moved $l) | $(avgjct $l) | $(makespan $l) |"
done
echo
echo "MIG_WAIT_ON=$(wait8 mig-on)"
echo "MIG_WAIT_OFF=$(wait8 mig-off)"
echo "MIG_MOVES_ON=$(moved mig-on)"
echo

# ---- 4. AutoML ---------------------------------------------------------------
awk -v r="$R18" 'BEGIN {
    srand(7)
    for (i = 0; i < 48; i++) long[i] = i < 8
    for (i = 47; i > 0; i--) { k = int(rand() * (i + 1)); t = long[i]; long[i] = long[k]; long[k] = t }
    print "id,submit_time,user,workload,gpus,total_work"
    for (i = 0; i < 48; i++)
        printf "%d,0,trial,%s,1,%.1f\n", i, r, (long[i] ? 4 * 3600 : 600) * 24.09
}' >"$tmp/automl.csv"
sim automl-fifo "$tmp/automl.csv" v100=2x4 fifo
sim automl-noslice "$tmp/automl.csv" v100=2x4 gandiva-paper slice=0 pack=0
sim automl-gandiva "$tmp/automl.csv" v100=2x4 gandiva-paper pack=0
sim automl-gandiva-pack "$tmp/automl.csv" v100=2x4 gandiva-paper
nth() { # LABEL N: time (s) of the N-th finished trial
    q "SELECT printf('%.0f', finish) FROM jobs WHERE run_id=$(run_of "$1") ORDER BY finish LIMIT 1 OFFSET $(($2 - 1))"
}
h() { awk -v s="$1" 'BEGIN { printf "%.2f", s / 3600 }'; }
echo "### AutoML: 48 trials (40 stopped after 10 min, 8 run 4 h) on 8 GPUs (hours)"
echo
echo "| | fifo | gandiva-paper slice=0 | gandiva-paper (time-slicing) | with packing | fifo / time-slicing | paper |"
echo "|---|---|---|---|---|---|---|"
for n in 10 20 30 40; do
    f=$(nth automl-fifo $n) s0=$(nth automl-noslice $n) g=$(nth automl-gandiva $n)
    gp=$(nth automl-gandiva-pack $n)
    echo "| ${n}th finished trial | $(h "$f") | $(h "$s0") | $(h "$g") | $(h "$gp") | $(ratio "$f" "$g")x | - |"
    echo "AUTOML_${n}_SPEEDUP=$(ratio "$f" "$g")" >>"$tmp/keys"
done
f=$(maxwait automl-fifo) s0=$(maxwait automl-noslice) g=$(maxwait automl-gandiva)
gp=$(maxwait automl-gandiva-pack)
echo "| every trial started (first feedback) | $(h "$f") | $(h "$s0") | $(h "$g") | $(h "$gp") | $(ratio "$f" "$g")x | search up to ~10x faster |"
echo
cat "$tmp/keys"
echo "AUTOML_FIRST_FEEDBACK_SPEEDUP=$(ratio "$f" "$g")"
echo "AUTOML_MAKESPAN_RATIO=$(ratio "$(makespan automl-gandiva)" "$(makespan automl-fifo)")"

# ---- figures -----------------------------------------------------------------
[ -n "${FIG:-}" ] || exit 0
command -v gnuplot >/dev/null 2>&1 || { echo "no gnuplot: figures skipped"; exit 0; }
mkdir -p "$FIG"
finished_curve() { # LABEL: "time_h finished" steps
    q "SELECT finish FROM jobs WHERE run_id=$(run_of "$1") ORDER BY finish" |
        awk 'BEGIN { print 0, 0 } { printf "%.4f %d\n", $1 / 3600, NR }'
}
for l in automl-fifo automl-noslice automl-gandiva slice-fifo slice-gandiva; do
    finished_curve $l >"$FIG/$l.dat"
done
cat >"$FIG/automl.gp" <<'EOF'
set terminal pngcairo size 900,560 font "sans,13"
set output "automl.png"
set title "AutoML: 48 one-GPU trials on 8 V100s (40 stopped at 10 min, 8 run 4 h)"
set xlabel "time (h)"
set ylabel "trials finished"
set key right bottom
set grid
set yrange [0:50]
plot "automl-fifo.dat" using 1:2 with steps lw 2 title "fifo", \
     "automl-noslice.dat" using 1:2 with steps lw 2 dt 2 title "gandiva-paper, no time-slicing", \
     "automl-gandiva.dat" using 1:2 with steps lw 3 title "gandiva-paper (60 s quanta)"
EOF
cat >"$FIG/timeslice.gp" <<'EOF'
set terminal pngcairo size 900,560 font "sans,13"
set output "timeslice.png"
set title "Six 1-GPU jobs (1 h each alone) on 4 V100s"
set xlabel "time (h)"
set ylabel "jobs finished"
set key left top
set grid
set yrange [0:6.5]
set xrange [0:2.2]
plot "slice-fifo.dat" using 1:2 with steps lw 2 title "fifo: 4 run, 2 wait", \
     "slice-gandiva.dat" using 1:2 with steps lw 3 title "gandiva-paper: all 6 time-sliced"
EOF
(cd "$FIG" && gnuplot automl.gp && gnuplot timeslice.gp)
echo "figures: $FIG/automl.png $FIG/timeslice.png"
