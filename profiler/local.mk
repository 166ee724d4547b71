# profiler/: `profile run` (the wrap mode: progress parsers, NVML sampling), the
# measured H100 curves, the PyTorch example and the CUDA harness mlsched-gpu-bench
# (built only when configure found nvcc). The curve file and catalog formats are
# model/curves.h and model/curve_catalog.h.
libmlsched_a_SOURCES += profiler/nvml.c profiler/nvml.h profiler/progress.c profiler/progress.h profiler/wrap.c \
	profiler/wrap.h
EXTRA_DIST += profiler/gpu-session.sh profiler/gpu-predict.sh profiler/predict \
	profiler/cuda/transformer.cu profiler/examples/train.py profiler/examples/pair_rates.py \
	profiler/cuda/bench.h profiler/cuda/bench.cu profiler/cuda/main.cu profiler/cuda/resnet.cu \
	profiler/cuda/recsys.cu profiler/cuda/allreduce.cu \
	profiler/curves/README.md profiler/curves/h100-builtin-transformer.csv \
	profiler/curves/h100-torch-resnet18.csv profiler/curves/h100-torch-resnet50.csv \
	profiler/curves/h100-torch-transformer.csv profiler/curves/measured-2026-11-22-gpu.txt \
	profiler/curves/h100-builtin-resnet50.csv profiler/curves/h100-builtin-resnet18.csv \
	profiler/curves/h100-builtin-recsys.csv profiler/curves/h100-allreduce-1gpu.txt \
	profiler/curves/measured-2026-11-27-gpu.txt

# The CUDA harness, only when configure found nvcc (--with-cuda[=PATH]); nothing else
# needs CUDA. nvcc compiles and links it; NVCC_ARCH (default sm_90) picks the GPU. One
# binary, a subcommand per workload (profiler/cuda/main.cu). GPU_BENCH_CPPFLAGS and
# GPU_BENCH_LIBS may be overridden on make's command line where cuDNN or NCCL are not in
# the toolkit's prefix (gpu-session.sh does so with PyTorch's pip wheels).
GPU_BENCH_CPPFLAGS =
GPU_BENCH_LIBS = -lcublas -lcudnn -lnccl
SUFFIXES = .cu
.cu.$(OBJEXT):
	$(AM_V_CC)$(NVCC) -O2 -arch=$(NVCC_ARCH) -Xcompiler -Wall,-Wextra -I$(top_srcdir) $(GPU_BENCH_CPPFLAGS) -c -o $@ $<
if HAVE_CUDA
bin_PROGRAMS += mlsched-gpu-bench
mlsched_gpu_bench_SOURCES = profiler/cuda/main.cu profiler/cuda/bench.cu profiler/cuda/bench.h \
	profiler/cuda/transformer.cu profiler/cuda/resnet.cu profiler/cuda/recsys.cu \
	profiler/cuda/allreduce.cu
mlsched_gpu_bench_LINK = $(NVCC) -arch=$(NVCC_ARCH) -o $@
mlsched_gpu_bench_LDADD = $(GPU_BENCH_LIBS)
# the objects include bench.h (no automatic dependencies for .cu)
$(mlsched_gpu_bench_OBJECTS): profiler/cuda/bench.h
endif
