#!/bin/bash
# gpu-session.sh: every measurement of profiler/curves/ in one go on a GPU
# machine (run from the repository root; results under $OUT, default ./gpu-out).
# Builds mlsched with the CUDA harness, checks the harness, sweeps its batch sizes
# on GPU 0, and measures real PyTorch training loops (profiler/examples/train.py)
# at the same sizes through `mlsched profile run`, then fits them all.
set -u
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
log() { echo "== $*"; }
log "machine"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv | tee "$OUT/gpu.txt"
python3 -c "import torch, torchvision; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'torchvision', torchvision.__version__)" | tee -a "$OUT/gpu.txt"

log "build mlsched and the built-in transformer (cuBLAS)"
[ -x ./mlsched ] && [ -x ./mlsched-gpu-bench ] ||
    { autoreconf -fi && ./configure --with-cuda && make -j"$(nproc)"; } >"$OUT/build.log" 2>&1 ||
    { tail -20 "$OUT/build.log"; exit 1; }
./mlsched profile builtin --self-test || exit 1
./mlsched profile builtin --batch-sizes 8,16,32,64,128,256 --hidden 512 --heads 8 --layers 6 \
    --seq 128 --iters 40 --warmup 10 >"$OUT/builtin-transformer.csv" || exit 1

wrap() { # name batches args...
    local name=$1 bs=$2
    shift 2
    ./mlsched profile run -b "$bs" -w 10 -n 30 --ci 0 --workload "$name" \
        -o "$OUT/torch-$name.csv" -- python3 profiler/examples/train.py --bs '{batch}' \
        --iters 100000 --warmup 0 "$@"
}
log "PyTorch transformer, same sizes, bf16 autocast"
wrap torch-transformer-h512-l6-s128-bf16 8,16,32,64,128,256 --model transformer --amp bf16
log "PyTorch ResNet-50, 224x224, fp32 (TF32 convolutions) and bf16 autocast"
wrap resnet50-224-fp32 16,32,64,128,256 --model resnet50 --amp none
wrap resnet50-224-bf16 16,32,64,128,256 --model resnet50 --amp bf16
log "PyTorch ResNet-18, 224x224, bf16 autocast"
wrap resnet18-224-bf16 32,64,128,256 --model resnet18 --amp bf16
log "fit"
./mlsched profile fit -o "$OUT/catalog.json" "$OUT"/*.csv | tee "$OUT/fit.txt"
log "done"
