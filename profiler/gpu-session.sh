#!/bin/bash
# gpu-session.sh: every measurement of profiler/curves/ in one go on a GPU
# machine (run from the repository root; results under $OUT, default ./gpu-out).
# Builds mlsched with the CUDA harness, runs every built-in workload's self-test,
# sweeps the built-in workloads on GPU 0 (Transformer, ResNet-50/18 at 224, the
# DLRM-like recsys model, the NCCL all-reduce sizes), then measures real PyTorch
# training loops (profiler/examples/train.py) through `mlsched profile run`, then
# fits them all. Estimated device time per step on one H100 in brackets (about
# 7 minutes in all; each step is also capped by `timeout`); the new built-in
# workloads come first so that they are measured even if a later step runs long.
# PARTS="build builtin torch fit gputest" (the default) picks steps, and within
# builtin SELF_TESTS (default: transformer resnet recsys allreduce) and SWEEPS
# (default: transformer resnet50 resnet18 recsys allreduce gradbytes) pick theirs; `bench` instead of
# `build` compiles only mlsched-gpu-bench with nvcc, beside a prebuilt mlsched
# named by $MLSCHED (a machine without the C build's dependencies), and `live`
# holds the simulator's prediction against real jobs (profiler/gpu-predict.sh).
# ARCHIVE=FILE packs $OUT into FILE at the end. A prebuilt mlsched run outside
# its build tree finds the bundled data with MLSCHED_DATADIR=$PWD/traces.
set -u
OUT=${OUT:-gpu-out}
PARTS=${PARTS:-build builtin torch fit gputest}
B=${MLSCHED:-./mlsched}
BENCH=$(dirname "$B")/mlsched-gpu-bench
mkdir -p "$OUT"
log() { echo "== $(date -u +%T) $*" >&2; }
want() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }
# step SECONDS NAME CMD...: run with a cap; a failure is reported and the run goes on
fails=0
step() {
    local cap=$1 name=$2
    shift 2
    log "$name (cap ${cap}s)"
    timeout -k 10 "$cap" "$@"
    local rc=$?
    [ $rc -eq 0 ] || { echo "!! $name failed (exit $rc)" >&2; fails=$((fails + 1)); }
    return $rc
}

log "machine"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv | tee "$OUT/gpu.txt"
python3 -c "import torch, torchvision; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'cudnn', torch.backends.cudnn.version(), 'nccl', torch.cuda.nccl.version(), 'torchvision', torchvision.__version__)" | tee -a "$OUT/gpu.txt"

# cuDNN and NCCL: the toolkit's, else /usr, else PyTorch's pip wheels (nvidia-cudnn-*,
# nvidia-nccl-*), whose headers and libraries then go to make and the loader.
bench_flags() {
    local inc="" libs="-lcublas" dirs="" h lib short
    for pair in "cudnn.h:libcudnn.so" "nccl.h:libnccl.so"; do
        h=${pair%%:*} lib=${pair##*:}
        if [ -e "/usr/local/cuda/include/$h" ] || [ -e "/usr/include/$h" ]; then
            short=${lib#lib}
            libs="$libs -l${short%.so}"
            continue
        fi
        local site hdr so
        site=$(python3 -c 'import site; print(" ".join(site.getsitepackages()))' 2>/dev/null)
        # shellcheck disable=SC2086
        hdr=$(find $site -path '*nvidia*' -name "$h" 2>/dev/null | head -1)
        # shellcheck disable=SC2086
        so=$(find $site -path '*nvidia*' -name "$lib.*" 2>/dev/null | sort | head -1)
        [ -n "$hdr" ] && [ -n "$so" ] || { echo "no $h / $lib found" >&2; return 1; }
        inc="$inc -I$(dirname "$hdr")"
        libs="$libs -L$(dirname "$so") -l:$(basename "$so") -Xlinker -rpath=$(dirname "$so")"
        dirs="$dirs:$(dirname "$so")"
    done
    echo "GPU_BENCH_CPPFLAGS=$inc"
    echo "GPU_BENCH_LIBS=$libs"
    echo "LD_DIRS=$dirs"
}

if want build; then
    # [60 s: configure, make -j16; nvcc takes ~20 s for the cuDNN workload]
    log "build mlsched and mlsched-gpu-bench (cuBLAS, cuDNN, NCCL)"
    bench_flags >"$OUT/bench-flags.txt" || { cat "$OUT/bench-flags.txt"; exit 1; }
    cat "$OUT/bench-flags.txt"
    cppflags=$(sed -n 's/^GPU_BENCH_CPPFLAGS=//p' "$OUT/bench-flags.txt")
    libs=$(sed -n 's/^GPU_BENCH_LIBS=//p' "$OUT/bench-flags.txt")
    { [ -f Makefile ] || { autoreconf -fi && ./configure --with-cuda; }; } >"$OUT/build.log" 2>&1 &&
        make -j"$(nproc)" GPU_BENCH_CPPFLAGS="$cppflags" GPU_BENCH_LIBS="$libs" \
            >>"$OUT/build.log" 2>&1 ||
        { tail -30 "$OUT/build.log"; exit 1; }
fi
[ -f "$OUT/bench-flags.txt" ] && dirs=$(sed -n 's/^LD_DIRS=//p' "$OUT/bench-flags.txt") &&
    [ -n "$dirs" ] && export LD_LIBRARY_PATH="${LD_LIBRARY_PATH:-}$dirs"
if want bench; then
    # [40 s: the six .cu files compiled side by side, cuDNN's the longest]
    log "build mlsched-gpu-bench alone (nvcc; cuBLAS, cuDNN, NCCL), mlsched prebuilt: $B"
    bench_flags >"$OUT/bench-flags.txt" || { cat "$OUT/bench-flags.txt"; exit 1; }
    cat "$OUT/bench-flags.txt"
    cppflags=$(sed -n 's/^GPU_BENCH_CPPFLAGS=//p' "$OUT/bench-flags.txt")
    libs=$(sed -n 's/^GPU_BENCH_LIBS=//p' "$OUT/bench-flags.txt")
    objs=()
    for f in profiler/cuda/*.cu; do
        o=/tmp/mls-bench-$(basename "$f" .cu).o
        objs+=("$o")
        # shellcheck disable=SC2086
        nvcc -O2 -arch=sm_90 -Xcompiler -Wall,-Wextra -I. $cppflags -c -o "$o" "$f" \
            >"$o.log" 2>&1 &
    done
    wait
    cat /tmp/mls-bench-*.o.log >"$OUT/build.log"
    # shellcheck disable=SC2086
    nvcc -arch=sm_90 -o "$BENCH" "${objs[@]}" $libs >>"$OUT/build.log" 2>&1 ||
        { tail -30 "$OUT/build.log"; exit 1; }
fi
[ -x "$B" ] && [ -x "$BENCH" ] || { echo "mlsched or mlsched-gpu-bench is not built"; exit 1; }

S="$B profile builtin --no-self-test"
SELF_TESTS=${SELF_TESTS-transformer resnet recsys allreduce}
SWEEPS=${SWEEPS:-transformer resnet50 resnet18 recsys allreduce gradbytes}
sweep() { case " $SWEEPS " in *" $1 "*) return 0 ;; esac; return 1; }
if want builtin; then
    # [15 s: cuDNN and NCCL initialisation, algorithm search on tiny networks]
    for w in $SELF_TESTS; do
        step 120 "self-test $w" $B profile builtin --workload $w --self-test >>"$OUT/self-test.txt"
    done
    cat "$OUT/self-test.txt"
    # the sweeps run even if a self-test failed (self-test.txt says so), to use the GPU
    # time; a CUDA error still stops a sweep
    # [10 s] the Transformer, as in earlier sessions, over 200 iterations a batch (a
    # sustained rate, as a live job sees it: 0.2-2.5 s a batch)
    sweep transformer && step 120 "built-in transformer" $S --batch-sizes 8,16,32,64,128,256 \
        --hidden 512 --heads 8 --layers 6 --seq 128 --iters 200 --warmup 20 \
        >"$OUT/builtin-transformer.csv"
    # [60 s: 5 batches x (cudnnFind over ~23 layer shapes x 3 directions, ~8 s, + 20
    #  iterations of 0.02-0.15 s)]
    sweep resnet50 && step 240 "built-in ResNet-50, 224x224, fp32 (TF32)" $S --workload resnet \
        --depth 50 --image 224 --batch-sizes 16,32,64,128,256 --iters 15 --warmup 5 \
        >"$OUT/builtin-resnet50.csv"
    # [30 s: 100 iterations a batch, a sustained rate (1-5 s a batch)]
    sweep resnet18 && step 180 "built-in ResNet-18, 224x224, fp32 (TF32)" $S --workload resnet \
        --depth 18 --image 224 --batch-sizes 32,64,128,256 --iters 100 --warmup 10 \
        >"$OUT/builtin-resnet18.csv"
    # [15 s: 26 tables x 1M rows x 128 (12.4 GiB) filled per batch; iterations of ms]
    sweep recsys && step 180 "built-in recsys (DLRM-like)" $S --workload recsys \
        --batch-sizes 1024,2048,4096,8192,16384,32768 --iters 20 --warmup 5 \
        >"$OUT/builtin-recsys.csv"
    # [5 s] one GPU here: a 1-rank all-reduce (sync ~ 0); more GPUs would be all-reduced
    sweep allreduce && step 120 "built-in NCCL all-reduce sizes" $S --workload allreduce \
        --sizes 1M,4M,16M,64M,256M,1G --iters 20 --warmup 5 >"$OUT/allreduce.txt"
    # [5 s] --grad-bytes on one GPU records that nothing was added (the row is sync 0)
    sweep gradbytes && step 120 "built-in ResNet-50 with --grad-bytes model (1 GPU: no all-reduce)" \
        $S --workload resnet --batch-sizes 64 --iters 10 --warmup 3 \
        --grad-bytes model >"$OUT/gradbytes-resnet50.txt"
fi

wrap() { # name batches args...
    local name=$1 bs=$2
    shift 2
    step 240 "PyTorch $name" $B profile run -b "$bs" -w 10 -n 30 --ci 0 --workload "$name" \
        -o "$OUT/torch-$name.csv" -- python3 profiler/examples/train.py --bs '{batch}' \
        --iters 100000 --warmup 0 "$@"
}
if want torch; then
    # [200 s in all: 21 points, each a fresh Python process (~5 s start, cudnn.benchmark)
    #  plus 40 iterations]
    wrap torch-transformer-h512-l6-s128-bf16 8,16,32,64,128,256 --model transformer --amp bf16
    wrap resnet50-224-fp32 16,32,64,128,256 --model resnet50 --amp none
    wrap resnet50-224-bf16 16,32,64,128,256 --model resnet50 --amp bf16
    wrap resnet18-224-bf16 32,64,128,256 --model resnet18 --amp bf16
fi
if want fit; then
    # [1 s] every curve file (the all-reduce table and the --grad-bytes check are not)
    # (a step that failed early leaves an empty file: only real curve files are fitted)
    log "fit"
    curves=()
    for f in "$OUT"/*.csv; do
        head -1 "$f" | grep -qx '# mlsched-curves v1' && curves+=("$f")
    done
    [ ${#curves[@]} -gt 0 ] && $B profile fit -o "$OUT/catalog.json" "${curves[@]}" >"$OUT/fit.txt"
    cat "$OUT/fit.txt"
fi
if want live; then
    # [~4 min: 30 s of pairs, three live runs of six real jobs, ~60 s each]
    step 420 "prediction against real jobs (profiler/gpu-predict.sh)" \
        env OUT="$OUT" MLSCHED="$B" MLSCHED_GPU_BENCH="$BENCH" bash profiler/gpu-predict.sh
fi
if want gputest; then
    # [20 s] the test suite's GPU part: tiny sweeps read back by profile fit, --progress
    step 180 "tests/gpu_bench.sh" \
        env MLSCHED="$B" SRCDIR=. BUILDDIR="$(dirname "$B")" sh tests/gpu_bench.sh \
        >"$OUT/gpu_bench-test.txt" 2>&1
    tail -3 "$OUT/gpu_bench-test.txt" >&2
fi
log "done ($fails step(s) failed)"
# ARCHIVE=FILE: everything under $OUT in one archive as well (a machine that
# returns only a few files; sockets and job folders' state stay out)
if [ -n "${ARCHIVE:-}" ]; then
    tar czf "$ARCHIVE" --exclude='*.sock' -C "$OUT" . && log "archived to $ARCHIVE" ||
        fails=$((fails + 1))
fi
[ "$fails" -eq 0 ]
