# profiler/: the curve file, `mlsched profile run|fit|builtin`, and (with CUDA) the
# built-in GPU harness mlsched-gpu-bench.
libmlsched_a_SOURCES += profiler/curves.h profiler/curves.c
EXTRA_DIST += profiler/gpu-session.sh profiler/cuda/transformer.cu profiler/examples/train.py \
	profiler/curves/README.md profiler/curves/h100-builtin-transformer.csv \
	profiler/curves/h100-torch-resnet18.csv profiler/curves/h100-torch-resnet50.csv \
	profiler/curves/h100-torch-transformer.csv profiler/curves/measured-2026-11-22-gpu.txt
libmlsched_a_SOURCES += profiler/curve_catalog.h profiler/curve_catalog.c sim/perf_curves.c \
	sim/cmd-profile.c
libmlsched_a_SOURCES += profiler/progress.h profiler/progress.c profiler/nvml.h profiler/nvml.c \
	profiler/wrap.h profiler/wrap.c
