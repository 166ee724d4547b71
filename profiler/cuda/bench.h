/* bench.h: what every workload of mlsched-gpu-bench shares.
 *
 * A training workload is a class with setup(batch) / forward_backward() / update() /
 * teardown() and a self-test; bench_run_training() does the rest the same way for
 * all of them: the command line (--batch-sizes, --iters, --warmup, --gpu-type,
 * --progress, --self-test, --grad-bytes plus the workload's own integer options),
 * the "no CUDA device" exit (77), the device metadata, timing every iteration with
 * CUDA events after warm-up, median/p10/p90, device memory from cudaMemGetInfo, the
 * optional NCCL all-reduce of a gradient buffer across the visible GPUs, and the
 * curve file rows (# mlsched-curves v1, profiler/README.md) or mlsched-progress lines.
 * Exit codes: 0 ok, 1 failed (self-test, CUDA error), 2 usage, 77 no CUDA device.
 * Everything runs on the legacy default stream of device 0. */
#ifndef MLSCHED_BENCH_H
#define MLSCHED_BENCH_H

#include <cublas_v2.h>
#include <cuda_runtime.h>
#include <nccl.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#define CK(x)                                                                                \
    do {                                                                                     \
        cudaError_t e_ = (x);                                                                \
        if (e_ != cudaSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)
#define CB(x)                                                                                \
    do {                                                                                     \
        cublasStatus_t s_ = (x);                                                             \
        if (s_ != CUBLAS_STATUS_SUCCESS) {                                                   \
            fprintf(stderr, "%s:%d: %s: cublas status %d\n", __FILE__, __LINE__, #x, (int)s_); \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

/* thrown by dev_pool::alloc when the device has no room: the batch is left out */
struct bench_oom {
    size_t bytes;
};

/* Device allocations of one batch size, freed together. */
struct dev_pool {
    std::vector<void *> ptrs;
    void *alloc(size_t bytes); /* 256-byte aligned; throws bench_oom */
    template <class T> T *get(size_t n) { return (T *)alloc(n * sizeof(T)); }
    void free_all();
};

/* A workload-specific integer option: --name N with N >= min. */
struct bench_opt {
    const char *name;
    int *value;
    int min;
    const char *help;
};

struct bench_common {
    std::vector<int> batches;
    int iters = 30, warmup = 10, progress = 0;
    bool self_test = false, describe = false, no_self_test = false;
    long long grad_bytes = 0; /* 0: no all-reduce; -1: the model's gradient bytes */
    std::string gpu_type, command;
};

class bench_workload {
  public:
    virtual ~bench_workload() {}
    virtual std::string name() const = 0;  /* the curve rows' workload column */
    virtual std::string notes() const = 0; /* the notes= metadata line */
    virtual int self_test(FILE *out) = 0;  /* 0: ok */
    virtual void setup(int batch) = 0;     /* may throw bench_oom */
    virtual void forward_backward() = 0;
    virtual void update() = 0;
    virtual void teardown() = 0;           /* frees everything setup allocated */
    virtual size_t param_bytes() const = 0; /* the gradient an all-reduce would sum */
    virtual void describe(FILE *out) const { (void)out; } /* --describe: no GPU needed */
};

/* Parses argv (after the workload name). Returns 0 to go on, -1 after --help (exit 0),
 * 2 on a usage error (already reported). */
int bench_parse(int argc, char **argv, const char *workload, const char *summary,
                bench_common &c, const std::vector<bench_opt> &opts);
/* "1048576", "64K", "1M", "2G" (powers of 1024) -> bytes >= 1; -1 if malformed */
long long bench_parse_size(const char *s);
/* 77 and a "no CUDA device" message when there is none, else 0 */
int bench_require_device(void);

struct bench_device {
    cudaDeviceProp prop;
    int driver = 0, runtime = 0, sm_clock_mhz = 0, mem_clock_mhz = 0;
};
void bench_device_info(int dev, bench_device &d);
std::string bench_gpu_type(const char *gpu_name); /* "NVIDIA H100 80GB HBM3" -> "h100" */
/* "# MAGIC", the metadata lines (key=value), the column header */
#define BENCH_CURVE_COLUMNS                                                                  \
    "workload,gpu_type,num_gpus,num_nodes,local_bsz,accum_steps,iter_time_s,"              \
    "iter_time_p10_s,iter_time_p90_s,sync_time_s,samples_per_s,mem_bytes,iters"
void bench_print_header(const bench_device &d, const std::string &gpu_type,
                        const std::string &command, const std::string &notes, const char *magic,
                        const char *columns);
/* seconds as rows write them: 6 decimals, 9 below a millisecond */
std::string bench_fmt_seconds(double t);
void bench_print_row(const std::string &workload, const std::string &gpu_type, int gpus,
                     int batch, const double t[3], double sync_s, size_t mem, int iters);
/* t[0..2] = median, p10, p90 of ms (milliseconds), in seconds */
void bench_percentiles(std::vector<float> ms, double t[3]);

/* All of it for a training workload: returns the exit code. */
int bench_run_training(bench_workload &w, const bench_common &c);

/* Kernels and helpers shared by the workloads */
unsigned bench_blocks(size_t n, int threads);
void bench_fill_uniform(float *p, size_t n, unsigned seed, float scale); /* [-scale, scale) */
void bench_fill(float *p, size_t n, float value);
void bench_sgd(float *param, const float *grad, float *momentum, size_t n, float lr);
/* relative L2 error |a - b| / |b| */
double bench_rel_err(const std::vector<double> &got, const std::vector<double> &want);

/* NCCL across the visible GPUs, one process (ncclCommInitAll): a float buffer and a
 * blocking stream per device; the stream of device 0 orders itself with device 0's
 * legacy default stream, where the workloads run. */
struct bench_nccl {
    int ndev = 0;
    size_t count = 0; /* floats per buffer */
    std::vector<ncclComm_t> comms;
    std::vector<cudaStream_t> streams;
    std::vector<float *> bufs;
};
void bench_nccl_init(bench_nccl &n, int ndev, size_t bytes); /* exits on failure */
/* enqueues an in-place sum of the first `count` floats on every device */
void bench_nccl_allreduce(bench_nccl &n, size_t count);
void bench_nccl_sync(bench_nccl &n);
void bench_nccl_free(bench_nccl &n);
int bench_device_count(void);

/* workload entry points (main.cu's table) */
int transformer_main(int argc, char **argv);
int resnet_main(int argc, char **argv);
int recsys_main(int argc, char **argv);
int allreduce_main(int argc, char **argv);

#endif
