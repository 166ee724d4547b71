#!/bin/bash
# gpu-predict.sh: the simulator's prediction held against real jobs on one GPU.
#
# Run by gpu-session.sh (PARTS=live) after its sweeps and fit, from the
# repository root, on a machine with one GPU; everything goes to $OUT/predict.
# It takes the built-in Transformer's and ResNet-18's curves that run measured
# ($OUT/builtin-transformer.csv, $OUT/builtin-resnet18.csv) and:
# 1. writes two traces of six one-GPU jobs whose work is a given number of solo
#    seconds at the measured rate of their batch (profiler/predict/*.jobs):
#    mixed.csv (batches 32-256, for fifo and las) and pack.csv (batch 64, for
#    max-min-fairness-packed);
# 2. measures the three pairs pack.csv can form (Transformer+ResNet-18, and
#    each with itself) by running both at once (profiler/examples/pair_rates.py:
#    wall seconds per iteration while both run) and writes them as a pair-rates
#    file, fitted with the curves into $OUT/predict/catalog-pairs.json;
# 3. runs each trace through `mlsched live serve` on the local executor with
#    real jobs: `mlsched live wrap -- mlsched-gpu-bench W --progress {batch}
#    --iters -1`, each arriving at its submit time, under fifo and las
#    (mixed.csv) and max-min-fairness-packed (pack.csv). Each run's state
#    database and job logs (the wrapper's start-up time per run) are kept.
# The simulations of the same traces run afterwards anywhere (no GPU needed):
# profiler/predict/compare.sh. Estimated: 30 s of pairs, ~60 s per live run.
# RUNS="fifo las packed" (the default) picks the live runs; the pairs are
# measured only for packed.
set -u
OUT=${OUT:-gpu-out}
RUNS=${RUNS:-fifo las packed}
P=$OUT/predict
mkdir -p "$P"
B=$(readlink -f "${MLSCHED:-./mlsched}")
BENCH=$(readlink -f "${MLSCHED_GPU_BENCH:-./mlsched-gpu-bench}")
SRC=$(pwd)
log() { echo "== $(date -u +%T) predict: $*" >&2; }

# the curve files and the command of each kind of job (as the sweeps ran them)
T_CSV=$OUT/builtin-transformer.csv
R_CSV=$OUT/builtin-resnet18.csv
T_CMD="$BENCH transformer --no-self-test --hidden 512 --heads 8 --layers 6 --seq 128 --progress {batch} --iters -1"
R_CMD="$BENCH resnet --no-self-test --depth 18 --image 224 --progress {batch} --iters -1"
for f in "$T_CSV" "$R_CSV"; do
    [ -s "$f" ] || { echo "gpu-predict: $f is missing (run the builtin part first)" >&2; exit 1; }
done
curve_field() { # FILE COLUMN [BATCH]: a column of the row at BATCH (the first row without)
    awk -F, -v col="$2" -v b="${3:-}" '
        /^#/ { next }
        !h { for (i = 1; i <= NF; i++) c[$i] = i; h = 1; next }
        b == "" || $c["local_bsz"] == b { print $c[col]; exit }' "$1"
}
TYPE=$(sed -n 's/^# gpu_type=//p' "$T_CSV")
T_W=$(curve_field "$T_CSV" workload)
R_W=$(curve_field "$R_CSV" workload)
file_of() { [ "$1" = T ] && echo "$T_CSV" || echo "$R_CSV"; }
work_of() { [ "$1" = T ] && echo "$T_W" || echo "$R_W"; }
cmd_of() { [ "$1" = T ] && echo "$T_CMD" || echo "$R_CMD"; }

# 1. traces: "id submit kind batch seconds" -> the canonical trace
make_trace() { # JOBS CSV
    echo "id,submit_time,user,workload,gpus,total_work,batch_size" >"$2"
    grep -v '^#' "$1" | while read -r id at kind batch secs; do
        [ -n "$id" ] || continue
        r=$(curve_field "$(file_of "$kind")" samples_per_s "$batch")
        [ -n "$r" ] || { echo "gpu-predict: no $kind row at batch $batch" >&2; return 1; }
        w=$(awk -v r="$r" -v s="$secs" -v b="$batch" 'BEGIN { printf "%d", int(r * s / b + 0.5) * b }')
        echo "$id,$at,u$id,$(work_of "$kind"),1,$w,$batch"
    done >>"$2"
}
make_trace profiler/predict/mixed.jobs "$P/mixed.csv" || exit 1
make_trace profiler/predict/pack.jobs "$P/pack.csv" || exit 1
cat "$P/mixed.csv" "$P/pack.csv" >&2

# 2. pair rates at batch 64, written as a pair-rates file and fitted
want() { case " $RUNS " in *" $1 "*) return 0 ;; esac; return 1; }
"$B" profile fit -q -o "$P/catalog.json" "$T_CSV" "$R_CSV" >&2 || exit 1
sub() { echo "$1" | sed "s/{batch}/$2/g"; }
measure_pairs() {
    log "pairs"
    {
        echo "# mlsched-pairs v1"
        echo "# gpu_type=$TYPE"
        echo "# date=$(date -u +%F)"
        echo "# source=pair_rates"
        echo "# command=profiler/gpu-predict.sh (profiler/examples/pair_rates.py --seconds 10 --skip 3: wall s per iteration while both run)"
        echo "gpu_type,num_gpus,workload_a,local_bsz_a,workload_b,local_bsz_b,iter_time_a_s,iter_time_b_s"
    } >"$P/pairs.csv"
    for pr in "T T" "T R" "R R"; do
        set -- $pr
        # shellcheck disable=SC2046
        timeout 40 python3 profiler/examples/pair_rates.py --seconds 10 --skip 3 \
            -- $(sub "$(cmd_of "$1")" 64) -- $(sub "$(cmd_of "$2")" 64) >"$P/pair-$1$2.txt" 2>&1
        cat "$P/pair-$1$2.txt" >&2
        ta=$(sed -n 's/^cmd0 iter_time_s=\([^ ]*\).*/\1/p' "$P/pair-$1$2.txt")
        tb=$(sed -n 's/^cmd1 iter_time_s=\([^ ]*\).*/\1/p' "$P/pair-$1$2.txt")
        [ -n "$ta" ] && [ -n "$tb" ] && [ "$ta" != nan ] && [ "$tb" != nan ] &&
            echo "$TYPE,1,$(work_of "$1"),64,$(work_of "$2"),64,$ta,$tb" >>"$P/pairs.csv"
    done
    cat "$P/pairs.csv" >&2
    "$B" profile fit -q -o "$P/catalog-pairs.json" "$T_CSV" "$R_CSV" "$P/pairs.csv" >&2 ||
        log "pairs: profile fit failed (the packed run uses the catalog without pairs)"
}
want packed && measure_pairs

# a live run's jobs and events as CSV (NAME-live.csv, NAME-events.csv): what
# compare.sh reads, and what is kept of a run (the machine may lack sqlite3)
export_run() { # DB PREFIX
    python3 - "$1" "$2" <<'PY'
import csv, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for name, q in (("live", "SELECT id, workload, batch, submit, first_start, finish, jct, "
                 "preemptions, restarts, attained_time, state FROM jobs ORDER BY id"),
                ("events", "SELECT seq, t, id, event, detail FROM events ORDER BY seq")):
    cur = db.execute(q)
    with open(f"{sys.argv[2]}-{name}.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([d[0] for d in cur.description])
        w.writerows(cur)
PY
}

# 3. live runs with real jobs (every daemon with 10 s rounds: the arrivals are
# counted from a round boundary, and the simulations take the same --round)
live_run() { # NAME TRACE CATALOG POLICY ARGS...
    local name=$1 trace=$2 cat=$3 pol=$4
    shift 4
    local db=$P/$name.db sock=/tmp/mls-predict-$name.sock
    log "live $name: $pol on $(basename "$trace")"
    rm -rf "$db" "$db.d" "$sock"
    "$B" live serve --cluster "$TYPE=1x1" --throughputs "$cat" --policy "$pol" --state "$db" \
        --socket "$sock" --grace 5 "$@" 2>"$P/$name.log" &
    local pid=$! i=0
    until "$B" live status --socket "$sock" >/dev/null 2>&1; do
        sleep 0.1
        i=$((i + 1))
        [ $i -gt 100 ] && { log "live $name: daemon did not come up"; cat "$P/$name.log"; return 1; }
    done
    local base
    base=$("$B" live status --json --socket "$sock" |
        python3 -c 'import json,math,sys; s=json.load(sys.stdin); r=s["round"]; t=s["now"]+2; print(math.ceil(t/r)*r)')
    tail -n +2 "$trace" | while IFS=, read -r id at user w g work batch; do
        local kind=R
        [ "$w" = "$T_W" ] && kind=T
        # shellcheck disable=SC2046
        "$B" live submit --socket "$sock" --id "$id" --workload "$w" --gpus "$g" --batch "$batch" \
            --work "$work" --user "$user" --at "$(awk -v b="$base" -v a="$at" 'BEGIN{print b + a}')" \
            -- "$B" live wrap -- $(cmd_of "$kind") >/dev/null
    done
    "$B" live drain --socket "$sock" >/dev/null
    i=0
    while kill -0 $pid 2>/dev/null; do
        sleep 0.5
        i=$((i + 1))
        [ $i -gt 400 ] && { log "live $name: still running after 200 s: killed"; kill $pid; break; }
    done
    wait $pid
    echo "$base" >"$P/$name.base"
    grep -h 'first progress' "$db.d"/job-*.log >/dev/null 2>&1
    for f in "$db.d"/job-*.log; do
        echo "$(basename "$f"): $(grep -c mlsched-progress "$f") progress lines;" \
            "$(grep 'first progress' "$f" | sed 's/.*first progress //' | tr '\n' ' ')"
    done >"$P/$name.starts"
    export_run "$db" "$P/$name"
    cat "$P/$name-live.csv" >&2
}
cd "$SRC" || exit 1
want fifo && live_run fifo "$P/mixed.csv" "$P/catalog.json" fifo --round 10
want las && live_run las "$P/mixed.csv" "$P/catalog.json" las --round 10
packcat=$P/catalog-pairs.json
[ -s "$packcat" ] || packcat=$P/catalog.json
want packed && live_run packed "$P/pack.csv" "$packcat" max-min-fairness-packed --round 10
log "done"
