# profiler/: the curve file, `mlsched profile run|fit|builtin`, and (with CUDA) the
# built-in GPU harness mlsched-gpu-bench.
libmlsched_a_SOURCES += profiler/curves.h profiler/curves.c
EXTRA_DIST += profiler/gpu-session.sh profiler/cuda/transformer.cu profiler/examples/train.py \
	profiler/cuda/bench.h profiler/cuda/bench.cu profiler/cuda/main.cu profiler/cuda/resnet.cu \
	profiler/cuda/recsys.cu profiler/cuda/allreduce.cu \
	profiler/curves/README.md profiler/curves/h100-builtin-transformer.csv \
	profiler/curves/h100-torch-resnet18.csv profiler/curves/h100-torch-resnet50.csv \
	profiler/curves/h100-torch-transformer.csv profiler/curves/measured-2026-11-22-gpu.txt \
	profiler/curves/h100-catalog.json
libmlsched_a_SOURCES += profiler/curve_catalog.h profiler/curve_catalog.c sim/perf_curves.c \
	sim/cmd-profile.c
libmlsched_a_SOURCES += profiler/progress.h profiler/progress.c profiler/nvml.h profiler/nvml.c \
	profiler/wrap.h profiler/wrap.c

# Tests: the curve file, the curves backend, the fit and the progress parsers (Check),
# and `profile run|fit` end to end against a fake training job and a fake NVML.
check_PROGRAMS += tests/test_curves tests/fake_train tests/libfake-nvml.so
TESTS += tests/test_curves tests/profile.sh
tests_test_curves_CFLAGS = $(TEST_CFLAGS)
tests_test_curves_LDADD = $(TEST_LIBS)
tests_fake_train_SOURCES = tests/fake_train.c
tests_libfake_nvml_so_SOURCES = tests/fake_nvml.c
tests_libfake_nvml_so_CFLAGS = $(AM_CFLAGS) -fPIC
tests_libfake_nvml_so_LDFLAGS = -shared
EXTRA_DIST += tests/profile.sh

# The CUDA harness, only when configure found nvcc (--with-cuda[=PATH]); nothing else
# needs CUDA. nvcc compiles and links it; NVCC_ARCH (default sm_90) picks the GPU. One
# binary, a subcommand per workload (profiler/cuda/main.cu). GPU_BENCH_CPPFLAGS and
# GPU_BENCH_LIBS may be overridden on make's command line where cuDNN or NCCL are not in
# the toolkit's prefix (gpu-session.sh does so with PyTorch's pip wheels).
GPU_BENCH_CPPFLAGS =
GPU_BENCH_LIBS = -lcublas -lcudnn -lnccl
SUFFIXES = .cu
.cu.$(OBJEXT):
	$(AM_V_CC)$(NVCC) -O2 -arch=$(NVCC_ARCH) -Xcompiler -Wall,-Wextra $(GPU_BENCH_CPPFLAGS) -c -o $@ $<
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
TESTS += tests/gpu_bench.sh
EXTRA_DIST += tests/gpu_bench.sh
