# profiler/: curve files and (with CUDA) the harness; `mlsched profile` is not built yet
# (the measurements in profiler/curves/ come from profiler/gpu-session.sh).
EXTRA_DIST += profiler/gpu-session.sh profiler/cuda/transformer.cu profiler/examples/train.py
