#!/bin/bash
# gpu-session.sh: every measurement of profiler/curves/ in one go on a GPU
# machine (run from the repository root; results under $OUT, default ./gpu-out).
# Builds the built-in CUDA workload, checks it, sweeps batch sizes on GPU 0, and
# wraps real PyTorch training loops (profiler/examples/train.py) at the same sizes.
set -u
OUT=${OUT:-gpu-out}
mkdir -p "$OUT"
log() { echo "== $*"; }
log "machine"
nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,memory.total --format=csv | tee "$OUT/gpu.txt"
python3 -c "import torch, torchvision; print('torch', torch.__version__, 'cuda', torch.version.cuda, 'torchvision', torchvision.__version__)" | tee -a "$OUT/gpu.txt"

log "build the built-in transformer (cuBLAS)"
nvcc -O2 -arch=sm_90 -o /tmp/mlsched-gpu-bench profiler/cuda/transformer.cu -lcublas || exit 1
/tmp/mlsched-gpu-bench --self-test || exit 1
/tmp/mlsched-gpu-bench --batch-sizes 8,16,32,64,128,256 --hidden 512 --heads 8 --layers 6 \
    --seq 128 --iters 40 --warmup 10 | tee "$OUT/builtin-transformer.csv"

wrap() { # model bs amp extra...
    local m=$1 bs=$2 amp=$3
    shift 3
    python3 profiler/examples/train.py --model "$m" --bs "$bs" --amp "$amp" --iters 30 \
        --warmup 10 "$@" | grep '^mlsched-summary' | sed 's/^mlsched-summary //'
}
log "PyTorch transformer, same sizes, bf16 autocast"
for bs in 8 16 32 64 128 256; do wrap transformer $bs bf16; done | tee "$OUT/torch-transformer.jsonl"
log "PyTorch ResNet-50, 224x224, fp32 (TF32 convolutions) and bf16 autocast"
for amp in none bf16; do for bs in 16 32 64 128 256; do wrap resnet50 $bs $amp; done; done | tee "$OUT/torch-resnet50.jsonl"
log "PyTorch ResNet-18, 224x224, bf16 autocast"
for bs in 32 64 128 256; do wrap resnet18 $bs bf16; done | tee "$OUT/torch-resnet18.jsonl"
log "done"
