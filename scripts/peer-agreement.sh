#!/bin/sh
# peer-agreement.sh: mlsched with --like PEER on the peers' own inputs, beside
# the numbers the peers' simulators give on them (issue 17). One line per run:
# the peer's makespan and average JCT, ours, the differences, and the mean
# per-job |JCT difference| / the peer's JCT where the peer's per-job JCTs are at
# hand (Gavel's: with GAVEL_DIR set to a checkout of Gavel, the script runs its
# simulator again; "-" otherwise). Skips (exit 77) without ../shared/data.
#
#     MLSCHED=./mlsched scripts/peer-agreement.sh            # every row
#     PEERS="gavel" QUICK=1 scripts/peer-agreement.sh        # the 300-job Gavel rows
#     GAVEL_DIR=/path/to/gavel PYTHON=/usr/bin/python3 ...   # + per-job column (Gavel)
#     GAVEL_RUNS=DIR ...        # per-job column from saved runs: DIR/TRACE.POLICY.jobs
#                               # ("ID JCT" lines; TRACE without .trace), else GAVEL_DIR
#
# Where the peers' numbers come from (recorded 2026-11-26):
# - gavel: Gavel (github.com/stanford-futuredata/gavel, commit c4fa400), its
#   unchanged trace driver, run here with Debian's python3 3.11, python3-numpy
#   1.24 and python3-scipy 1.10 (cvxpy, psutil, grpc, matrix_completion and
#   runtime.rpc stubbed: the trace path of these policies does not use them):
#     cd scheduler && python3 scripts/drivers/simulate_scheduler_with_trace.py \
#       -t ../shared/data/gavel/derived/crossval_traces/TRACE.trace -p POLICY \
#       --throughputs_file ../shared/data/gavel/throughputs/simulation_throughputs.json \
#       -c 36:36:36 --seed 0
#   average JCT as it prints it (its failed jobs left out), makespan = its
#   clock at shutdown (get_current_timestamp(), printed by a wrapper that
#   patches nothing else). Gavel's allox asserts one GPU per job: 1-GPU
#   traces only. Ours: one node of 36 GPUs per type, --seed 0.
#   The rows of gavel_rows_more (fifo_packed, isolated and gandiva; the
#   3000-job traces and the 10,000-job replay) were recorded the same way on
#   2026-11-26 (Gavel c4fa400, Debian python3 3.11.2, numpy 1.24.2, scipy
#   1.10.1; its "Total duration" and "Average job completion time" lines).
#   Ours for them: --like gavel, which gives isolated and gandiva
#   mechanism=gavel (Gavel's own allocations through its rounds).
# - shockwave: the simulation pickles Shockwave publishes for its canonical
#   experiment (scheduler/reproduce/pickles/tacc_32gpus, makespan and avg_jct;
#   docs/reproducing.md "Reproducing Shockwave's baselines"), not run here.
# - pollux: the artifact's published results-jobload at load 1.0, workload-1
#   (docs/reproducing.md "Pollux against its paper"; average JCT only), not run here.
set -u
: "${MLSCHED:=./mlsched}"
SRC=$(cd "$(dirname "$0")/.." && pwd)
DATA=${DATA:-$SRC/../shared/data}
PEERS=${PEERS:-gavel shockwave pollux}
QUICK=${QUICK:-0}
if [ ! -d "$DATA/gavel/derived/crossval_traces" ]; then
    echo "SKIP: $DATA/gavel/derived/crossval_traces not found (the peers' inputs)"
    exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
GT="$DATA/gavel/derived/crossval_traces"
GTP="$DATA/gavel/throughputs/simulation_throughputs.json"
G108=v100=1x36,p100=1x36,k80=1x36

# Gavel's other policies and its larger traces (issue 17): fifo_packed, and
# isolated and gandiva (ours with mechanism=gavel, which --like gavel gives).
gavel_rows_more() {
    for r in \
        "1 gavel_gen_300jobs_lam120_multigpu fifo_packed fifo-packed 70937.014 17960.343" \
        "1 gavel_gen_300jobs_lam120_multigpu isolated isolated 65106.447 16684.871" \
        "1 gavel_gen_300jobs_lam120_multigpu gandiva gandiva 61968.095 16584.400" \
        "1 gavel_gen_300jobs_lam900_multigpu fifo_packed fifo-packed 282956.872 8649.445" \
        "1 gavel_gen_300jobs_lam900_multigpu isolated isolated 290725.940 12831.846" \
        "1 gavel_gen_300jobs_lam900_multigpu gandiva gandiva 282957.940 9936.275" \
        "1 gavel_gen_300jobs_lam120_1gpu fifo_packed fifo-packed 52368.742 9938.109" \
        "1 gavel_gen_300jobs_lam120_1gpu isolated isolated 61027.391 12855.135" \
        "1 gavel_gen_300jobs_lam120_1gpu gandiva gandiva 51883.169 10513.159" \
        "1 gavel_gen_300jobs_lam900_1gpu fifo_packed fifo-packed 282954.250 8741.600" \
        "1 gavel_gen_300jobs_lam900_1gpu isolated isolated 290723.945 13013.228" \
        "1 gavel_gen_300jobs_lam900_1gpu gandiva gandiva 282955.303 9969.154" \
        "0 gavel_gen_3000jobs_lam300_multigpu isolated isolated 931464.439 13293.112" \
        "0 gavel_gen_3000jobs_lam300_1gpu isolated isolated 931877.444 13334.317" \
        "0 gavel_gen_3000jobs_lam300_multigpu fifo_packed fifo-packed 923838.832 9193.542" \
        "0 gavel_gen_3000jobs_lam300_multigpu gandiva gandiva 922449.398 10135.715" \
        "0 gavel_gen_3000jobs_lam300_1gpu fifo_packed fifo-packed 921953.033 9039.341" \
        "0 gavel_gen_3000jobs_lam300_1gpu gandiva gandiva 921951.032 10093.886" \
        "0 replay_seed0_lam900_1gpu_10k fifo gavel-fifo 10078587.687 81874.899" \
        "0 replay_seed0_lam900_1gpu_10k isolated isolated 9781361.663 80430.177" \
        "0 replay_seed0_lam900_1gpu_10k allox allox 9549506.551 57575.972" \
        ; do
        # shellcheck disable=SC2086 # the row's words
        set -- $r
        echo "gavel|$1|$GT/$2.trace|gavel|$G108|$GTP|$3|$4|$5|$6"
    done
}

# peer|quick|trace (imported by format)|format|cluster|throughputs|peer policy|ours|makespan|avg JCT
rows() {
    cat <<EOF
gavel|1|$GT/gavel_gen_300jobs_lam120_multigpu.trace|gavel|$G108|$GTP|fifo_perf|fifo-perf|71844.262|18146.941
gavel|1|$GT/gavel_gen_300jobs_lam120_multigpu.trace|gavel|$G108|$GTP|fifo|gavel-fifo|147823.682|22830.550
gavel|1|$GT/gavel_gen_300jobs_lam900_multigpu.trace|gavel|$G108|$GTP|fifo_perf|fifo-perf|282956.872|8649.445
gavel|1|$GT/gavel_gen_300jobs_lam900_multigpu.trace|gavel|$G108|$GTP|fifo|gavel-fifo|282957.940|9936.275
gavel|1|$GT/gavel_gen_300jobs_lam120_1gpu.trace|gavel|$G108|$GTP|fifo_perf|fifo-perf|52368.742|9938.109
gavel|1|$GT/gavel_gen_300jobs_lam120_1gpu.trace|gavel|$G108|$GTP|fifo|gavel-fifo|123486.261|14207.182
gavel|1|$GT/gavel_gen_300jobs_lam120_1gpu.trace|gavel|$G108|$GTP|allox|allox|51480.996|9421.989
gavel|1|$GT/gavel_gen_300jobs_lam900_1gpu.trace|gavel|$G108|$GTP|fifo_perf|fifo-perf|282954.250|8741.600
gavel|1|$GT/gavel_gen_300jobs_lam900_1gpu.trace|gavel|$G108|$GTP|fifo|gavel-fifo|282955.303|9969.154
gavel|1|$GT/gavel_gen_300jobs_lam900_1gpu.trace|gavel|$G108|$GTP|allox|allox|282955.303|9969.154
gavel|0|$GT/gavel_gen_3000jobs_lam300_multigpu.trace|gavel|$G108|$GTP|fifo_perf|fifo-perf|923838.832|9193.542
gavel|0|$GT/gavel_gen_3000jobs_lam300_multigpu.trace|gavel|$G108|$GTP|fifo|gavel-fifo|998486.323|11861.139
gavel|0|$GT/gavel_gen_3000jobs_lam300_1gpu.trace|gavel|$G108|$GTP|fifo_perf|fifo-perf|921953.033|9039.341
gavel|0|$GT/gavel_gen_3000jobs_lam300_1gpu.trace|gavel|$G108|$GTP|fifo|gavel-fifo|921953.141|10224.687
gavel|0|$GT/gavel_gen_3000jobs_lam300_1gpu.trace|gavel|$G108|$GTP|allox|allox|921951.003|9925.779
gavel|0|$GT/replay_seed0_lam900_1gpu_10k.trace|gavel|$G108|$GTP|fifo_perf|fifo-perf|9533691.388|56715.601
EOF
    gavel_rows_more
    sw="$DATA/shockwave"
    for r in "min_total_duration min-total-duration 24205 19807" \
        "finish_time_fairness finish-time-fairness 31929 11302" \
        "max_min_fairness max-min-fairness 33208 11274" "allox allox 32489 9926" \
        "max_sum_throughput_perf max-sum-throughput-perf 31909 9655" \
        "gandiva_fair gandiva-fair 32367 12574" "shockwave shockwave 24197 9958"; do
        # shellcheck disable=SC2086 # the row's words
        set -- $r
        echo "shockwave|0|$sw/traces/120_*.trace|gavel|$SRC/traces/clusters/shockwave-32v100.json|$sw/throughputs/tacc_throughputs.json|$1|$2|$3|$4"
    done
    pw="$DATA/traces/generated/pollux/workloads/workload-1.csv"
    for r in "pollux pollux 2089" "optimus+oracle optimus-oracle 4087" "tiresias tiresias-las 2474"; do
        # shellcheck disable=SC2086
        set -- $r
        echo "pollux|0|$pw|pollux|$SRC/traces/clusters/pollux-64t4.json|$SRC/traces/catalog/pollux.json|$1|$2|-|$3"
    done
}

whole() { awk -v a="$1" 'BEGIN { if (a == "-") print "-"; else printf "%.0f", a }'; }
pct() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == "-" || b == 0) print "-"; else printf "%+.1f %%", 100 * (a - b) / b }'; }

# Gavel's per-job JCTs of one run ("Job N: JCT" lines), when GAVEL_DIR is set.
gavel_jobs() { # trace policy out
    saved="${GAVEL_RUNS:-}/$(basename "$1" .trace).$2.jobs"
    if [ -n "${GAVEL_RUNS:-}" ] && [ -s "$saved" ]; then
        cp "$saved" "$3"
        return 0
    fi
    [ -n "${GAVEL_DIR:-}" ] || return 1
    stubs="$tmp/stubs"
    if [ ! -d "$stubs" ]; then
        mkdir -p "$stubs/runtime/rpc"
        : >"$stubs/matrix_completion.py"
        : >"$stubs/runtime/__init__.py"
        printf 'scheduler_server = None\nscheduler_client = None\n' >"$stubs/runtime/rpc/__init__.py"
        printf 'def cpu_count(*a, **k):\n    return 1\n' >"$stubs/psutil.py"
        printf 'def __getattr__(name):\n    raise RuntimeError("cvxpy stub")\n' >"$stubs/cvxpy.py"
    fi
    (cd "$GAVEL_DIR/scheduler" && PYTHONPATH="$stubs" "${PYTHON:-python3}" \
        scripts/drivers/simulate_scheduler_with_trace.py -t "$1" -p "$2" \
        --throughputs_file "$GTP" -c 36:36:36 --seed 0) 2>/dev/null |
        sed -n 's/^Job \([0-9]*\): \([0-9.]*\)$/\1 \2/p' >"$3"
    [ -s "$3" ]
}

printf '%-9s %-36s %-23s %-23s %9s %9s %8s %9s %9s %8s %8s\n' peer trace "peer's policy" ours \
    "peer mksp" "ours" diff "peer JCT" "ours" diff "per-job"
n=0
rows | while IFS='|' read -r peer quick trace fmt cluster tp ppol ours pmk pjct; do
    case " $PEERS " in *" $peer "*) ;; *) continue ;; esac
    [ "$QUICK" = 1 ] && [ "$quick" != 1 ] && continue
    n=$((n + 1))
    csv="$tmp/$(echo "$trace $fmt" | cksum | cut -d' ' -f1).csv"
    # shellcheck disable=SC2086 # trace may be a glob (Shockwave's file name)
    [ -s "$csv" ] || "$MLSCHED" trace import --format "$fmt" -o "$csv" $trace >/dev/null 2>&1 ||
        { echo "$peer: cannot import $trace"; continue; }
    db="$tmp/r$n.db"
    seed=1 # as the README's tables; Gavel's runs: its --seed 0
    [ "$peer" = gavel ] && seed=0
    "$MLSCHED" simulate --trace "$csv" --cluster "$cluster" --throughputs "$tp" --policy "$ours" \
        --like "$peer" --seed $seed -q --db "$db" >/dev/null 2>"$tmp/err" ||
        { echo "$peer $ours: $(cat "$tmp/err")"; continue; }
    mk=$(sqlite3 "$db" "SELECT printf('%.0f', makespan) FROM run_summary")
    jct=$(sqlite3 "$db" "SELECT printf('%.0f', avg_jct) FROM run_summary")
    perjob=-
    if [ "$peer" = gavel ] && gavel_jobs "$trace" "$ppol" "$tmp/g$n"; then
        sqlite3 -separator ' ' "$db" "SELECT job_id, jct FROM jobs" >"$tmp/o$n"
        perjob=$(awk 'NR == FNR { g[$1] = $2; next } ($1 in g) && g[$1] > 0 {
            d = ($2 - g[$1]) / g[$1]; s += d < 0 ? -d : d; k++ }
            END { if (k) printf "%.1f %%", 100 * s / k; else print "-" }' "$tmp/g$n" "$tmp/o$n")
    fi
    printf '%-9s %-36s %-23s %-23s %9s %9s %8s %9s %9s %8s %8s\n' "$peer" \
        "$(basename "$trace" | cut -c1-36)" "$ppol" "$ours" "$(whole "$pmk")" \
        "$mk" "$(pct "$mk" "$pmk")" "$(whole "$pjct")" "$jct" "$(pct "$jct" "$pjct")" "$perjob"
done
