#!/bin/sh
# gpu_bench.sh: the built-in CUDA workloads (mlsched-gpu-bench transformer|resnet|recsys|
# allreduce) and `mlsched profile builtin --workload`. Everywhere: --help, argument
# errors (exit 2), --describe (no GPU needed: ResNet-18/50 parameter counts are
# torchvision's). Without a GPU each workload must exit 77 saying "no CUDA device",
# and the test then skips (77). With one: every self-test, a tiny sweep of each
# training workload read back by `mlsched profile fit`, the all-reduce table,
# --progress lines, --grad-bytes.
# Without mlsched-gpu-bench (configure found no nvcc) it skips too.
set -u
: "${MLSCHED:=./mlsched}" "${SRCDIR:=.}" "${BUILDDIR:=.}"
BENCH=$BUILDDIR/mlsched-gpu-bench
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail=0
pass=0
ok() { pass=$((pass + 1)); }
bad() { echo "FAIL: $*"; fail=$((fail + 1)); }
finish() { # STATUS-IF-NO-FAILURE
    echo "gpu_bench.sh: $pass passed, $fail failed"
    [ "$fail" -eq 0 ] || exit 1
    exit "$1"
}
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
expect_out() { # PATTERN CMD...: exit 0 and PATTERN on stdout
    pat=$1
    shift
    if ! "$@" >"$tmp/out" 2>"$tmp/err"; then
        bad "'$*' failed: $(cat "$tmp/err")"
    elif ! grep -q -- "$pat" "$tmp/out"; then
        bad "'$*' stdout lacks '$pat': $(head -20 "$tmp/out")"
    else
        ok
    fi
}

# mlsched's side needs no harness
expect_error 2 "--workload wants" "$MLSCHED" profile builtin --workload bogus
expect_error 2 "--workload wants" "$MLSCHED" profile builtin --workload
expect_out "--workload transformer|resnet|recsys|allreduce" "$MLSCHED" profile builtin --help
if [ ! -x "$BENCH" ]; then
    echo "SKIP: mlsched-gpu-bench not built (configure found no nvcc)"
    expect_error 1 'was not built' \
        env PATH=/nonexistent "$MLSCHED" profile builtin --workload resnet
    finish 77
fi

# 1. the command line of every workload
expect_out "allreduce" "$BENCH" --help
expect_error 2 "unknown workload" "$BENCH" bogus
for w in transformer resnet recsys allreduce; do
    expect_out "usage: mlsched-gpu-bench $w" "$BENCH" $w --help
    expect_out "usage: mlsched-gpu-bench $w" "$MLSCHED" profile builtin --workload $w --help
    expect_error 2 "unknown option --bogus" "$BENCH" $w --bogus 1
    expect_error 2 "bad value for --iters" "$BENCH" $w --iters x
    expect_error 2 "bad value for --iters" "$BENCH" $w --iters 0
    expect_error 2 "bad value for --warmup" "$BENCH" $w --warmup -1
    expect_error 2 "needs a value" "$BENCH" $w --warmup
    expect_error 2 "needs --progress" "$BENCH" $w --iters -1
    expect_error 2 "bad value for --progress" "$BENCH" $w --progress 0
    expect_error 2 "unexpected argument" "$BENCH" $w stray
done
for w in transformer resnet recsys; do
    expect_error 2 "bad value for --batch-sizes" "$BENCH" $w --batch-sizes 8,0
    expect_error 2 "bad value for --batch-sizes" "$BENCH" $w --batch-sizes 8,,16
    expect_error 2 "bad value for --grad-bytes" "$BENCH" $w --grad-bytes 12X
done
expect_error 2 "heads must divide" "$BENCH" transformer --hidden 100 --heads 8
expect_error 2 "depth must be" "$BENCH" resnet --depth 20
expect_error 2 "bad value for --width" "$BENCH" resnet --width 0
expect_error 2 "bad value for --rows" "$BENCH" recsys --rows 1.5
expect_error 2 "--sizes wants" "$BENCH" allreduce --sizes 1M,3
expect_error 2 "do not apply" "$BENCH" allreduce --batch-sizes 8

# 2. --describe needs no GPU: the shapes are torchvision's
expect_out "^parameters: 25557032$" "$BENCH" resnet --describe
expect_out "^parameters: 11689512$" "$BENCH" resnet --describe --depth 18
expect_out "^gradient bytes (--grad-bytes model): 102228128$" "$BENCH" resnet --describe
expect_out "^parameters: 21797672$" "$BENCH" resnet --describe --depth 34
expect_out "final 512 channels 4x4" "$BENCH" resnet --describe --depth 18 --image 32 --classes 10
expect_out "^dense parameters: 5417345$" "$BENCH" recsys --describe
expect_out "^gradient bytes (--grad-bytes model): 21669380$" "$BENCH" recsys --describe
expect_out "allreduce 64MiB: 67108864 bytes" "$BENCH" allreduce --describe --sizes 64M
expect_out "^transformer-h512-l6-s128: " "$BENCH" --describe

# 3. without a GPU: "no CUDA device", 77, for each workload; then skip
"$BENCH" transformer --self-test >"$tmp/out" 2>"$tmp/err"
if [ $? -eq 77 ]; then
    for w in transformer resnet recsys allreduce; do
        expect_error 77 "no CUDA device" "$BENCH" $w --iters 1
        expect_error 77 "no CUDA device" "$MLSCHED" profile builtin --workload $w --self-test
    done
    echo "SKIP: no CUDA device: the self-tests and sweeps need a GPU"
    finish 77
fi

# 4. on a GPU: the self-tests, a tiny sweep of each read back by profile fit
for w in transformer resnet recsys allreduce; do
    if "$BENCH" $w --self-test >"$tmp/st" 2>&1 && grep -q ok "$tmp/st" &&
        ! grep -q FAIL "$tmp/st"; then
        ok
    else
        bad "$w self-test: $(cat "$tmp/st")"
    fi
done
sweep() { # NAME ROWS ARGS...: a curve file of ROWS rows that profile fit reads
    name=$1 rows=$2
    shift 2
    if ! "$BENCH" "$@" --iters 3 --warmup 1 >"$tmp/$name.csv" 2>"$tmp/$name.err"; then
        bad "$name: $(tail -5 "$tmp/$name.err")"
    elif [ "$(grep -cv '^#' "$tmp/$name.csv")" -ne $((rows + 1)) ]; then
        bad "$name: not $rows rows: $(cat "$tmp/$name.csv")"
    elif ! "$MLSCHED" profile fit -q -o "$tmp/$name.json" "$tmp/$name.csv" 2>"$tmp/fit.err"; then
        bad "$name: profile fit refused it: $(cat "$tmp/fit.err")"
    else
        ok
    fi
}
sweep transformer 2 transformer --layers 2 --batch-sizes 4,8
sweep resnet18 2 resnet --depth 18 --width 16 --image 64 --classes 10 --batch-sizes 4,8
sweep resnet50 1 resnet --depth 50 --width 8 --image 128 --batch-sizes 4 --algo-search 0
sweep recsys 2 recsys --tables 4 --rows 1000 --dim 16 --hidden 64 --batch-sizes 64,128
if "$BENCH" allreduce --sizes 4K,1M --iters 3 --warmup 1 >"$tmp/ar" 2>"$tmp/ar.err" &&
    head -1 "$tmp/ar" | grep -qx '# mlsched-allreduce v1' &&
    [ "$(grep -c '^[0-9]*,[0-9]*,1,[0-9.]*,[0-9.]*,[0-9.]*,[0-9.]*,[0-9.]*,3$' "$tmp/ar")" \
        -eq 2 ]; then
    ok
else
    bad "allreduce table: $(cat "$tmp/ar" "$tmp/ar.err")"
fi
sweep gradbytes 1 recsys --tables 2 --rows 100 --dim 8 --hidden 16 --batch-sizes 32 \
    --grad-bytes model
grep -q "^cudnn-resnet18-w16-64-fp32,[^,]*,1,1,8,1," "$tmp/resnet18.csv" && ok ||
    bad "resnet18 row: $(cat "$tmp/resnet18.csv")"
ngpu=$(grep '^1048576,' "$tmp/ar" | cut -d, -f2)
if [ "${ngpu:-1}" -eq 1 ]; then
    grep -q "one GPU visible: no all-reduce" "$tmp/gradbytes.csv" && ok ||
        bad "--grad-bytes on one GPU: $(head -15 "$tmp/gradbytes.csv")"
fi
"$BENCH" resnet --depth 18 --width 8 --image 32 --progress 4 --iters 3 --warmup 0 >"$tmp/p" 2>&1
progress='^mlsched-progress iter=[0-9]* samples=[0-9]* iter_time=[0-9.]* batch=4 mem='
[ "$(grep -c "$progress" "$tmp/p")" -eq 3 ] &&
    ok || bad "--progress: $(cat "$tmp/p")"
finish 0
