#!/bin/bash
# gpu-predict.sh: the simulator's prediction held against real jobs on one GPU.
#
# Run by gpu-session.sh (PARTS=live) after its sweeps and fit, from the
# repository root, on a machine with one GPU; everything goes to $OUT/predict.
# It takes the built-in Transformer's and ResNet-18's curves that run measured
# ($OUT/builtin-transformer.csv, $OUT/builtin-resnet18.csv) and:
# 1. writes traces of six one-GPU jobs whose work is a given number of solo
#    seconds at the measured rate of their batch (profiler/predict/*.jobs,
#    through profiler/predict/make-trace.sh):
#    mixed.csv (batches 32-256, for fifo and las at 10 s rounds), slice.csv
#    (arrivals whose preemptions leave every job a distinct attained service,
#    for las deciding at arrivals and completions: --round 0), pack.csv (batch
#    64) and packsmall.csv (the Transformer at batch 16, launch-bound, whose
#    pairs beat time-sharing under MPS), both for max-min-fairness-packed;
# 2. measures the pairs a packing trace can form (each two of its kinds and
#    batches, each with itself too) by running both at once
#    (profiler/examples/pair_rates.py: wall seconds per iteration while both
#    run) and writes them as a pair-rates file, fitted with the curves into
#    the run's catalog (pack: pairs.csv, catalog-pairs.json; packsmall:
#    pairs-small.csv, catalog-small.json, measured and run under MPS where
#    nvidia-cuda-mps-control exists and MPS is not 0);
# 3. runs each trace through `mlsched live serve` on the local executor with
#    real jobs: `mlsched live wrap -- mlsched-gpu-bench W --progress {batch}
#    --iters -1`, each arriving at its submit time. Each run's jobs and events
#    (NAME-live.csv, NAME-events.csv), its jobs' start-up times (NAME.starts)
#    and every attempt's iteration times read from the jobs' own progress lines
#    (NAME-iters.csv) are kept, and the GPU's clocks, power and temperature
#    every 250 ms over all runs (gpu-clocks.csv);
# 4. (RUNS=probe) runs ResNet-18 at batch 128 for 400 iterations in a fresh
#    process three times: after 8 s idle, at once again, and with every kernel
#    module loaded at the start (CUDA_MODULE_LOADING=EAGER) (probe-*.txt):
#    whether a cold GPU, a sustained run's clocks or CUDA's lazy loading during
#    cudnnFind slow a live job against the sweep.
# The simulations of the same traces run afterwards anywhere (no GPU needed):
# profiler/predict/compare.sh. Estimated: 15 s per pair, ~60 s per live run.
# RUNS="fifo las slice packsmall probe" (the default; also: packed) picks the
# live runs; the pairs are measured only for the packing runs picked.
set -u
OUT=${OUT:-gpu-out}
RUNS=${RUNS:-fifo las slice packsmall probe}
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
work_of() { [ "$1" = T ] && echo "$T_W" || echo "$R_W"; }
cmd_of() { [ "$1" = T ] && echo "$T_CMD" || echo "$R_CMD"; }

# 1. traces: "id submit kind batch seconds" -> the canonical trace
for t in mixed slice pack packsmall; do
    bash profiler/predict/make-trace.sh "profiler/predict/$t.jobs" "$T_CSV" "$R_CSV" \
        >"$P/$t.csv" || exit 1
    cat "$P/$t.csv" >&2
done

# 2. pair rates, written as a pair-rates file and fitted
want() { case " $RUNS " in *" $1 "*) return 0 ;; esac; return 1; }
"$B" profile fit -q -o "$P/catalog.json" "$T_CSV" "$R_CSV" >&2 || exit 1
sub() { echo "$1" | sed "s/{batch}/$2/g"; }
measure_pairs() { # JOBS PAIRS CATALOG: every two (kind, batch) of JOBS, each with itself too
    log "pairs of $(basename "$1")"
    {
        echo "# mlsched-pairs v1"
        echo "# gpu_type=$TYPE"
        echo "# date=$(date -u +%F)"
        echo "# source=pair_rates"
        echo "# command=profiler/gpu-predict.sh (profiler/examples/pair_rates.py --seconds 10 --skip 3: wall s per iteration while both run)"
        echo "gpu_type,num_gpus,workload_a,local_bsz_a,workload_b,local_bsz_b,iter_time_a_s,iter_time_b_s"
    } >"$2"
    local kinds i j file=$2
    mapfile -t kinds < <(grep -v '^#' "$1" | awk 'NF { print $3, $4 }' | sort -u)
    for ((i = 0; i < ${#kinds[@]}; i++)); do
        for ((j = i; j < ${#kinds[@]}; j++)); do
            # shellcheck disable=SC2086
            set -- ${kinds[i]} ${kinds[j]}
            local tag=$1$2-$3$4 txt
            [ "$2" = 64 ] && [ "$4" = 64 ] && tag=$1$3 # the names of the first runs
            txt=$P/pair-$tag.txt
            # shellcheck disable=SC2046
            timeout 40 python3 profiler/examples/pair_rates.py --seconds 10 --skip 3 \
                -- $(sub "$(cmd_of "$1")" "$2") -- $(sub "$(cmd_of "$3")" "$4") >"$txt" 2>&1
            cat "$txt" >&2
            ta=$(sed -n 's/^cmd0 iter_time_s=\([^ ]*\).*/\1/p' "$txt")
            tb=$(sed -n 's/^cmd1 iter_time_s=\([^ ]*\).*/\1/p' "$txt")
            [ -n "$ta" ] && [ -n "$tb" ] && [ "$ta" != nan ] && [ "$tb" != nan ] &&
                echo "$TYPE,1,$(work_of "$1"),$2,$(work_of "$3"),$4,$ta,$tb" >>"$file"
        done
    done
    cat "$file" >&2
}
pairs_catalog() { # JOBS PAIRS CATALOG
    measure_pairs "$1" "$2"
    "$B" profile fit -q -o "$3" "$T_CSV" "$R_CSV" "$2" >&2 ||
        log "pairs: profile fit failed (the run uses the catalog without pairs)"
}
want packed && pairs_catalog profiler/predict/pack.jobs "$P/pairs.csv" "$P/catalog-pairs.json"

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

# every attempt's iterations, read from a run's job logs (the progress lines the
# jobs printed; an attempt starts where the iteration count starts again)
iter_summary() { # DB.d CSV
    python3 - "$1" "$2" <<'PY'
import csv, glob, os, re, statistics, sys
out = csv.writer(open(sys.argv[2], "w", newline=""))
out.writerow(["job", "attempt", "iters", "first10_mean_s", "median_s", "last100_median_s"])
pat = re.compile(r"mlsched-progress iter=(\d+) .*?iter_time=([0-9.eE+-]+)")
for f in sorted(glob.glob(os.path.join(sys.argv[1], "job-*.log"))):
    job = re.sub(r"\D", "", os.path.basename(f))
    attempts, last = [], None
    for line in open(f, errors="replace"):
        m = pat.search(line)
        if not m:
            continue
        it, t = int(m.group(1)), float(m.group(2))
        if last is None or it <= last:
            attempts.append([])
        attempts[-1].append(t)
        last = it
    for a, ts in enumerate(attempts, 1):
        out.writerow([job, a, len(ts), f"{statistics.mean(ts[:10]):.6f}",
                      f"{statistics.median(ts):.6f}", f"{statistics.median(ts[-100:]):.6f}"])
PY
}

# 3. live runs with real jobs (daemons with 10 s rounds count the arrivals from
# a round boundary; with --round 0 from 2 s on; the simulations take the same
# --round)
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
        python3 -c 'import json,math,sys; s=json.load(sys.stdin); r=s["round"]; t=s["now"]+2; print(math.ceil(t/r)*r if r > 0 else math.ceil(t))')
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
    for f in "$db.d"/job-*.log; do
        echo "$(basename "$f"): $(grep -c mlsched-progress "$f") progress lines;" \
            "$(grep 'first progress' "$f" | sed 's/.*first progress //' | tr '\n' ' ')"
    done >"$P/$name.starts"
    export_run "$db" "$P/$name"
    iter_summary "$db.d" "$P/$name-iters.csv"
    cat "$P/$name-live.csv" "$P/$name-iters.csv" >&2
}
# 4. ResNet-18 at batch 128, cold and at once again: medians by 100 iterations
probe() {
    local f c
    c=$(sub "$R_CMD" 128 | sed 's/--iters -1/--iters 400 --warmup 0/')
    log "probe: idle 8 s, then $c three times"
    sleep 8
    for f in cold warm eager; do
        # shellcheck disable=SC2086
        if [ $f = eager ]; then # every kernel module loaded at the start
            CUDA_MODULE_LOADING=EAGER timeout 60 $c >"$P/probe-$f.txt" 2>&1
        else
            timeout 60 $c >"$P/probe-$f.txt" 2>&1
        fi
        python3 - "$P/probe-$f.txt" "$f" <<'PY' | tee -a "$P/probe.txt" >&2
import re, statistics, sys
ts = [float(m.group(1)) for m in map(re.compile(r"iter_time=([0-9.eE+-]+)").search,
                                     open(sys.argv[1])) if m]
meds = [f"{statistics.median(ts[i:i + 100]) * 1e3:.2f}" for i in range(0, len(ts), 100)]
print(f"probe {sys.argv[2]}: {len(ts)} iterations, first {ts[0] * 1e3 if ts else 0:.1f} ms, "
      f"medians by 100 (ms): {' '.join(meds)}")
PY
    done
}
cd "$SRC" || exit 1
# the GPU's clocks over all runs (nvidia-smi, where there is one)
smi=""
if command -v nvidia-smi >/dev/null; then
    nvidia-smi --query-gpu=timestamp,clocks.sm,clocks.mem,power.draw,temperature.gpu,utilization.gpu \
        --format=csv -lms 250 >"$P/gpu-clocks.csv" 2>&1 &
    smi=$!
fi
catalog_or() { [ -s "$1" ] && echo "$1" || echo "$P/catalog.json"; }
want fifo && live_run fifo "$P/mixed.csv" "$P/catalog.json" fifo --round 10
want las && live_run las "$P/mixed.csv" "$P/catalog.json" las --round 10
want slice && live_run slice "$P/slice.csv" "$P/catalog.json" las --round 0
want packed && live_run packed "$P/pack.csv" "$(catalog_or "$P/catalog-pairs.json")" \
    max-min-fairness-packed --round 10
# the launch-bound pairs and their packed run under MPS (two processes then
# share the GPU's SMs instead of taking turns on it), where there is one
mps_start() {
    export CUDA_MPS_PIPE_DIRECTORY=/tmp/mls-mps-pipe CUDA_MPS_LOG_DIRECTORY=/tmp/mls-mps-log
    mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
    timeout 10 nvidia-cuda-mps-control -d && log "MPS started" && return 0
    log "MPS did not start: the pairs and the run take turns on the GPU"
    unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
    return 1
}
mps_stop() {
    echo quit | timeout 10 nvidia-cuda-mps-control
    unset CUDA_MPS_PIPE_DIRECTORY CUDA_MPS_LOG_DIRECTORY
}
if want packsmall; then
    mps=0
    command -v nvidia-cuda-mps-control >/dev/null && [ "${MPS:-1}" = 1 ] && mps_start && mps=1
    echo "$mps" >"$P/packsmall.mps"
    pairs_catalog profiler/predict/packsmall.jobs "$P/pairs-small.csv" "$P/catalog-small.json"
    live_run packsmall "$P/packsmall.csv" "$(catalog_or "$P/catalog-small.json")" \
        max-min-fairness-packed --round 10
    [ "$mps" = 1 ] && mps_stop
fi
want probe && probe
[ -n "$smi" ] && kill "$smi"
log "done"
