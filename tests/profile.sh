#!/bin/sh
# profile.sh: `mlsched profile run` against a fake training job (tests/fake_train)
# with known iteration times — medians, warm-up, {batch}/{gpus} and the environment,
# stderr, duplicate ranks, --regex, SIGTERM/SIGKILL, early stop on the CI, a job
# that never reports (--timeout) or exits early — NVML through a fake library,
# argument errors (exit 2), `profile fit` of the committed H100 curves and
# `simulate` replaying a trace with the catalog on an H100 cluster. Parts that
# need a GPU (the CUDA harness) skip with a message.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}" "${BUILDDIR:=.}"
FAKE=$BUILDDIR/tests/fake_train
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
# No real NVML: runs see no GPU unless a test points at the fake one.
MLSCHED_NVML_LIB=$tmp/no-such-libnvidia-ml.so
export MLSCHED_NVML_LIB

expect_error() { # STATUS PATTERN CMD...
    want=$1 pat=$2
    shift 2
    "$@" >"$tmp/out" 2>"$tmp/err"
    got=$?
    if [ "$got" -ne "$want" ]; then
        bad "'$*' exited $got, wanted $want; stderr: $(cat "$tmp/err")"
    elif ! grep -q -- "$pat" "$tmp/err"; then
        bad "'$*' stderr lacks '$pat': $(cat "$tmp/err")"
    else
        ok
    fi
}

# field FILE BATCH GPUS COLUMN: a column of the row at that batch and GPU count
field() {
    awk -F, -v b="$2" -v g="$3" -v c="$4" \
        '!/^#/ && $5 == b && $3 == g { print $c }' "$1"
}
check() { # FILE BATCH GPUS COLUMN WANT WHAT
    got=$(field "$1" "$2" "$3" "$4")
    [ "$got" = "$5" ] && ok || bad "$6: column $4 at batch $2 x $3 GPUs is '$got', wanted '$5'"
}

run() { "$MLSCHED" profile run --gpu-type h100 --ci 0 -n 10 -w 3 "$@"; }

# 1. medians, p10/p90, samples/s; warm-up dropped; {batch}; CUDA_VISIBLE_DEVICES
#    (fake: T = 0.01 + 0.001 * batch + 0.001 * (GPUs - 1))
run -b 16,32 -g 1,2 --devices 0,1 -o "$tmp/c.csv" -- \
    "$FAKE" --batch '{batch}' --alpha 0.01 --beta 0.001 --slow-first 3 2>"$tmp/log" ||
    bad "profile run failed: $(cat "$tmp/log")"
head -1 "$tmp/c.csv" | grep -qx '# mlsched-curves v1' && ok || bad "no magic line"
grep -q '^# source=wrap$' "$tmp/c.csv" && ok || bad "no source=wrap"
grep -q '^# command=.*fake_train --batch {batch}' "$tmp/c.csv" && ok || bad "no command="
check "$tmp/c.csv" 16 1 7 0.026 "median"
check "$tmp/c.csv" 32 1 7 0.042 "median"
check "$tmp/c.csv" 16 2 7 0.027 "median (2 GPUs)"
check "$tmp/c.csv" 32 2 7 0.043 "median (2 GPUs)"
check "$tmp/c.csv" 16 1 8 0.02496 "p10"
check "$tmp/c.csv" 16 1 9 0.02704 "p90"
check "$tmp/c.csv" 16 1 11 615.38 "samples_per_s"
check "$tmp/c.csv" 32 2 11 1488.37 "samples_per_s (2 GPUs)"
check "$tmp/c.csv" 16 1 12 0 "mem_bytes without NVML"
check "$tmp/c.csv" 16 1 13 10 "iters"
[ "$(grep -c '^fake,h100,' "$tmp/c.csv")" = 0 ] && ok # name defaults to the base name
[ "$(grep -c '^fake_train,h100,[12],1,' "$tmp/c.csv")" = 4 ] && ok || bad "4 rows wanted"

# 2. MLSCHED_BATCH_SIZE without {batch}; progress on stderr, printed by 4 ranks
run -b 64 -o "$tmp/e.csv" --workload envbatch -- "$FAKE" --stderr --ranks 4 --slow-first 3 \
    2>"$tmp/log" || bad "env/stderr run failed: $(cat "$tmp/log")"
check "$tmp/e.csv" 64 1 7 0.0164 "median from MLSCHED_BATCH_SIZE, 4 ranks"
check "$tmp/e.csv" 64 1 13 10 "iters with 4 ranks"

# 3. --regex with named groups, milliseconds
run -b 8 -o "$tmp/r.csv" \
    --regex 'step (?<iter>[0-9]+): (?<iter_time_ms>[0-9.]+) ms/it' -- \
    "$FAKE" --custom --ranks 2 --alpha 0.02 --beta 0 2>"$tmp/log" ||
    bad "regex run failed: $(cat "$tmp/log")"
check "$tmp/r.csv" 8 1 7 0.02 "median through --regex"

# 4. a job that ignores SIGTERM is killed
start=$(date +%s)
run -b 8 --kill-after 0.5 -o "$tmp/k.csv" -- "$FAKE" --ignore-term 2>"$tmp/log" ||
    bad "SIGTERM-ignoring run failed: $(cat "$tmp/log")"
grep -q 'needed SIGKILL' "$tmp/log" && ok || bad "no SIGKILL reported: $(cat "$tmp/log")"
[ $(($(date +%s) - start)) -lt 20 ] && ok || bad "SIGKILL took too long"

# 5. early stop on the median's CI: +-4 % jitter, n = 10 gives a CI of exactly 4 %
"$MLSCHED" profile run --gpu-type h100 -b 8 -n 50 -w 0 --ci 0.05 -o "$tmp/ci.csv" -- \
    "$FAKE" 2>"$tmp/log" || bad "ci run failed: $(cat "$tmp/log")"
check "$tmp/ci.csv" 8 1 13 10 "iterations with --ci 0.05"

# 6. a job that exits on its own after enough iterations keeps them
run -b 8 -n 20 --min-iters 10 -o "$tmp/x.csv" -- "$FAKE" --exit-after 15 2>"$tmp/log" ||
    bad "exit-after-15 run failed: $(cat "$tmp/log")"
check "$tmp/x.csv" 8 1 13 12 "iterations of a job that exited"

# 7. failures: never a progress line (--timeout), too few, malformed, not runnable
start=$(date +%s)
expect_error 1 'printed no progress line' run -b 8 --timeout 1.5 -o "$tmp/n.csv" -- \
    "$FAKE" --silent
grep -q 'timed out (--timeout)' "$tmp/err" && ok || bad "timeout not said: $(cat "$tmp/err")"
grep -q 'loading' "$tmp/err" && ok || bad "last output not quoted: $(cat "$tmp/err")"
[ $(($(date +%s) - start)) -lt 15 ] && ok || bad "--timeout 1.5 did not stop it in time"
[ ! -e "$tmp/n.csv" ] && ok || bad "a failed run wrote its file"
expect_error 1 'exited with status 3 after 5 progress line(s)' run -b 8 -o "$tmp/n.csv" -- \
    "$FAKE" --exit-after 5
expect_error 1 "malformed progress line.*iter_time: 'fast'" run -b 8 -o "$tmp/n.csv" -- \
    "$FAKE" --bad
expect_error 1 "reports batch=16 but this point's per-GPU batch is 8" run -b 8 -o "$tmp/n.csv" \
    -- "$FAKE" --batch 16
expect_error 1 "cannot run '/no/such/trainer'" run -o "$tmp/n.csv" -- /no/such/trainer
run -b 8,20 -o "$tmp/kg.csv" --keep-going -- "$FAKE" --batch '{batch}' --exit-after '{batch}' \
    2>"$tmp/log" || bad "--keep-going run failed: $(cat "$tmp/log")"
grep -q '^# failed_points=1x8/a1$' "$tmp/kg.csv" && ok || bad "failed point not recorded"
[ "$(grep -c '^fake_train,' "$tmp/kg.csv")" = 1 ] && ok || bad "--keep-going: 1 row wanted"

# 8. NVML (a fake libnvidia-ml): type from the GPU name, metadata, peak memory
MLSCHED_NVML_LIB=$BUILDDIR/tests/libfake-nvml.so FAKE_NVML_USED_FILE=$tmp/used \
    "$MLSCHED" profile run -b 8 -n 10 -w 3 --ci 0 -o "$tmp/nv.csv" -- \
    "$FAKE" --nvml-file "$tmp/used" --sleep 0.02 2>"$tmp/log" ||
    bad "NVML run failed: $(cat "$tmp/log")"
for kv in 'gpu_name=NVIDIA H100 80GB HBM3' gpu_type=h100 driver=580.159.04 cuda_driver=13.0 \
    sm_clock_mhz=1980 mem_clock_mhz=2619 gpu_mem_bytes=85520809984; do
    grep -qx "# $kv" "$tmp/nv.csv" && ok || bad "NVML metadata lacks $kv"
done
grep -q '^fake_train,h100,' "$tmp/nv.csv" && ok || bad "GPU type not taken from NVML"
check "$tmp/nv.csv" 8 1 12 4294967296 "peak memory through NVML"
rm -f "$tmp/used"
MLSCHED_NVML_LIB=$BUILDDIR/tests/libfake-nvml.so run -b 8 -o "$tmp/m.csv" -- \
    "$FAKE" --mem 12345 2>"$tmp/log" || bad "mem= run failed"
check "$tmp/m.csv" 8 1 12 12345 "mem= from the progress lines"

# 9. argument errors: exit 2
expect_error 2 '-o CURVES is required' "$MLSCHED" profile run -- "$FAKE"
expect_error 2 'no command' "$MLSCHED" profile run -o "$tmp/a.csv"
expect_error 2 '--batch-sizes wants' run -b 0,8 -o "$tmp/a.csv" -- "$FAKE"
expect_error 2 '--gpus wants' run -g two -o "$tmp/a.csv" -- "$FAKE"
expect_error 2 '--ci wants a number >= 0' run --ci -1 -o "$tmp/a.csv" -- "$FAKE"
expect_error 2 '--timeout wants a number > 0' run --timeout 0 -o "$tmp/a.csv" -- "$FAKE"
expect_error 2 'unknown option' run --bogus -o "$tmp/a.csv" -- "$FAKE"
expect_error 2 'exceeds the devices' run -g 4 --devices 0,1 -o "$tmp/a.csv" -- "$FAKE"
expect_error 2 'min-iters must be' run --min-iters 20 -o "$tmp/a.csv" -- "$FAKE"
expect_error 2 "unknown group name 'speed'" run --regex '(?<speed>[0-9]+)' -o "$tmp/a.csv" \
    -- "$FAKE"
expect_error 2 '--gpu-type is required' "$MLSCHED" profile run -o "$tmp/a.csv" -- "$FAKE"
expect_error 2 '-o CATALOG is required' "$MLSCHED" profile fit "$tmp/c.csv"
expect_error 2 'no curve files' "$MLSCHED" profile fit -o "$tmp/cat.json"
expect_error 2 '--gpu-mem wants' "$MLSCHED" profile fit --gpu-mem h100=lots -o "$tmp/x" "$tmp/c.csv"
expect_error 2 "unknown verb 'bogus'" "$MLSCHED" profile bogus
for v in run fit builtin; do
    "$MLSCHED" profile $v --help | grep -q "usage: mlsched profile $v" && ok ||
        bad "profile $v --help"
done
"$MLSCHED" --help | grep -q '^  profile ' && ok || bad "profile not in mlsched --help"

# 10. fit: bad files name FILE:LINE; the run's own curves fit
printf '# mlsched-curves v1\nworkload,gpu_type,num_gpus,num_nodes,local_bsz,accum_steps,iter_time_s,samples_per_s\nw,h100,1,1,8,1,-1,8\n' >"$tmp/bad.csv"
expect_error 1 "bad.csv:3: iter_time_s: must be > 0" "$MLSCHED" profile fit -o "$tmp/x.json" \
    "$tmp/bad.csv"
expect_error 1 'duplicate row' "$MLSCHED" profile fit -o "$tmp/x.json" "$tmp/c.csv" "$tmp/c.csv"
"$MLSCHED" profile fit -o "$tmp/own.json" "$tmp/c.csv" >"$tmp/fit.txt" 2>&1 ||
    bad "fit of the run's curves failed: $(cat "$tmp/fit.txt")"
grep -q '^fake_train  *h100  *4 ' "$tmp/fit.txt" && ok || bad "fit table: $(cat "$tmp/fit.txt")"

# 11. the committed H100 curves: fit, then replay a trace on an H100 cluster
curves=$SRCDIR/profiler/curves
"$MLSCHED" profile fit -o "$tmp/h100.json" "$curves"/h100-*.csv >"$tmp/fit.txt" 2>&1 ||
    bad "fit of the H100 curves failed: $(cat "$tmp/fit.txt")"
[ "$(grep -c ' h100 ' "$tmp/fit.txt")" = 8 ] && ok || bad "8 fits wanted: $(cat "$tmp/fit.txt")"
"$MLSCHED" trace generate --jobs 30 --rate 6/h --seed 2 --multi-gpu \
    --throughputs "$tmp/h100.json" --reference-gpu h100 -o "$tmp/t.csv" || bad "generate failed"
for p in fifo las; do
    "$MLSCHED" simulate --trace "$tmp/t.csv" --cluster h100=4x8 --policy $p \
        --throughputs "$tmp/h100.json" --db "$tmp/r.db" >"$tmp/sim.txt" 2>&1 ||
        bad "simulate $p with the H100 catalog failed: $(cat "$tmp/sim.txt")"
    grep -q 'jobs *30 finished' "$tmp/sim.txt" && ok || bad "$p: $(cat "$tmp/sim.txt")"
done
"$MLSCHED" simulate --trace "$tmp/t.csv" --cluster h100=4x8 --policy fifo --quiet \
    --throughputs "$tmp/h100.json" >"$tmp/sim2.txt" 2>&1
"$MLSCHED" simulate --trace "$tmp/t.csv" --cluster h100=4x8 --policy fifo --quiet \
    --throughputs "$tmp/h100.json" >"$tmp/sim3.txt" 2>&1
grep -v 'wall\|decision' "$tmp/sim2.txt" >"$tmp/a" && grep -v 'wall\|decision' "$tmp/sim3.txt" >"$tmp/b"
cmp -s "$tmp/a" "$tmp/b" && ok || bad "two replays with the catalog differ"
expect_error 1 "none of the cluster's GPU types" "$MLSCHED" simulate --trace "$tmp/t.csv" \
    --cluster v100=4x8 --policy fifo --throughputs "$tmp/h100.json"
# the shipped catalog is exactly what profile fit makes of the shipped curves
(cd "$SRCDIR" && "$MLSCHED" profile fit -q -o "$tmp/again.json" profiler/curves/h100-*.csv) &&
    cmp -s "$tmp/again.json" "$SRCDIR/traces/catalog/h100.json" && ok ||
    bad "traces/catalog/h100.json is not what profile fit makes of profiler/curves/h100-*.csv (regenerate it)"
# the bundled names: --throughputs h100 (traces/catalog/h100.json) on --cluster h100-4x8,
# the same run as with the file's path; an unknown name names the bundled ones
"$MLSCHED" simulate --trace "$tmp/t.csv" --cluster h100-4x8 --policy fifo --quiet \
    --throughputs h100 >"$tmp/sim4.txt" 2>&1 || bad "--throughputs h100: $(cat "$tmp/sim4.txt")"
"$MLSCHED" simulate --trace "$tmp/t.csv" --cluster h100-4x8 --policy fifo --quiet \
    --throughputs "$SRCDIR/traces/catalog/h100.json" >"$tmp/sim5.txt" 2>&1
grep -v 'wall\|decision' "$tmp/sim4.txt" >"$tmp/a" && grep -v 'wall\|decision' "$tmp/sim5.txt" >"$tmp/b"
grep -q 'jobs *30 finished' "$tmp/a" && cmp -s "$tmp/a" "$tmp/b" && ok ||
    bad "--throughputs h100 is not the bundled catalog's run: $(cat "$tmp/sim4.txt")"
expect_error 1 "no bundled catalog of that name (bundled: default-throughputs, pollux, h100)" \
    "$MLSCHED" simulate --trace "$tmp/t.csv" --cluster h100-4x8 --policy fifo --throughputs h200
# a single curve file loads directly too
"$MLSCHED" trace generate --jobs 5 --rate 6/h --seed 1 --throughputs \
    "$curves/h100-torch-resnet50.csv" --reference-gpu h100 -o "$tmp/t1.csv" &&
    "$MLSCHED" simulate --trace "$tmp/t1.csv" --cluster h100=1x8 --policy fifo \
        --throughputs "$curves/h100-torch-resnet50.csv" >"$tmp/sim.txt" 2>&1 &&
    grep -q 'jobs *5 finished' "$tmp/sim.txt" && ok || bad "curve file as perf model failed"

# 12. valgrind: fit, the curves backend in a replay, a profile run (not in sanitizer builds)
if command -v valgrind >/dev/null 2>&1 && ! nm "$MLSCHED" 2>/dev/null | grep -q __asan_init; then
    vg() { valgrind -q --leak-check=full --errors-for-leak-kinds=definite,indirect \
        --error-exitcode=99 "$@"; }
    vg "$MLSCHED" profile fit -q -o "$tmp/vg.json" "$curves"/h100-*.csv 2>"$tmp/vg.txt" &&
        vg "$MLSCHED" simulate --trace "$tmp/t.csv" --cluster h100=4x8 --policy las --quiet \
            --throughputs "$tmp/vg.json" >/dev/null 2>>"$tmp/vg.txt" &&
        vg "$MLSCHED" profile run --gpu-type h100 -b 8,16 -n 10 -w 2 -o "$tmp/vg.csv" -- \
            "$FAKE" --batch '{batch}' 2>>"$tmp/vg.txt" && ok ||
        bad "valgrind: $(cat "$tmp/vg.txt")"
else
    echo "SKIP: valgrind part (no valgrind, or a sanitizer build)"
fi

# 13. the CUDA harness: only with a GPU
if [ -x "$BUILDDIR/mlsched-gpu-bench" ] && nvidia-smi >/dev/null 2>&1; then
    "$MLSCHED" profile builtin --self-test >"$tmp/st.txt" 2>&1 && grep -q ok "$tmp/st.txt" && ok ||
        bad "harness self-test: $(cat "$tmp/st.txt")"
else
    echo "SKIP: CUDA harness self-test (needs mlsched-gpu-bench built with --with-cuda and a GPU)"
    [ -x "$BUILDDIR/mlsched-gpu-bench" ] ||
        expect_error 1 'was not built' env PATH=/nonexistent "$MLSCHED" profile builtin
fi

echo "profile.sh: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
