/* allreduce.cu: mlsched-gpu-bench's NCCL all-reduce workload: the data-parallel
 * gradient sync alone, across every visible GPU of one process (ncclCommInitAll).
 *
 * For each gradient size (--sizes, fp32 in place, sum) it times --iters all-reduces
 * after --warmup with CUDA events on device 0's NCCL stream, one at a time, and
 * writes one row per size of an all-reduce table (# mlsched-allreduce v1: the curve
 * file's metadata lines, then bytes,num_gpus,num_nodes,sync_time_s,sync_time_p10_s,
 * sync_time_p90_s,algbw_gbps,busbw_gbps,iters) with nccl-tests' bandwidths: algbw =
 * bytes / time, busbw = algbw * 2 (n - 1) / n. Not a curve file: a curve row's
 * sync_time_s must be below its iteration time, and these are all sync; the training
 * workloads' --grad-bytes puts the same all-reduce into their iterations and its time
 * into their rows' sync_time_s. With one GPU it still runs: a 1-rank all-reduce,
 * which only launches a kernel (sync ~ 0, busbw 0), recorded with num_gpus 1.
 * --self-test checks the sums on every device. --progress MIB repeats one size and
 * prints mlsched-progress lines (without batch=). */
#include "profiler/cuda/bench.h"

#include <cstring>

static std::string size_name(long long b)
{
    if (b % (1LL << 30) == 0)
        return std::to_string(b >> 30) + "GiB";
    if (b % (1LL << 20) == 0)
        return std::to_string(b >> 20) + "MiB";
    if (b % (1LL << 10) == 0)
        return std::to_string(b >> 10) + "KiB";
    return std::to_string(b) + "B";
}

static __global__ void fill_rank(float *p, size_t n, int rank)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = (float)((rank + 1) * (int)(i % 1000));
}

/* every device gets (rank + 1) * (i % 1000); the sum is n(n+1)/2 * (i % 1000) */
static int self_test(int ndev, FILE *out)
{
    const size_t count = 1 << 20;
    bench_nccl nc;
    bench_nccl_init(nc, ndev, count * sizeof(float));
    for (int r = 0; r < ndev; r++) {
        CK(cudaSetDevice(r));
        fill_rank<<<bench_blocks(count, 256), 256>>>(nc.bufs[r], count, r);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
    }
    CK(cudaSetDevice(0));
    bench_nccl_allreduce(nc, count);
    bench_nccl_sync(nc);
    size_t wrong = 0;
    std::vector<float> host(count);
    for (int r = 0; r < ndev; r++) {
        CK(cudaSetDevice(r));
        CK(cudaMemcpy(host.data(), nc.bufs[r], count * sizeof(float), cudaMemcpyDeviceToHost));
        for (size_t i = 0; i < count; i++)
            wrong += host[i] != (float)(ndev * (ndev + 1) / 2 * (int)(i % 1000));
    }
    CK(cudaSetDevice(0));
    bench_nccl_free(nc);
    int ver = 0;
    ncclGetVersion(&ver);
    fprintf(out, "self-test: NCCL %d all-reduce of %zu floats on %d GPU(s): %zu wrong sums (%s)\n",
            ver, count, ndev, wrong, wrong ? "FAIL" : "ok");
    return wrong ? 1 : 0;
}

static bool parse_sizes(const char *s, std::vector<long long> &out)
{
    out.clear();
    std::string all(s);
    for (size_t start = 0;;) {
        size_t comma = all.find(',', start);
        long long v = bench_parse_size(
            all.substr(start, comma == std::string::npos ? comma : comma - start).c_str());
        if (v < 4)
            return false;
        out.push_back(v);
        if (comma == std::string::npos)
            return true;
        start = comma + 1;
    }
}

/* median/p10/p90 of `iters` timed all-reduces of `bytes` (after warm-up); progress
 * lines instead when asked */
static void time_size(bench_nccl &nc, long long bytes, const bench_common &c, double t[3])
{
    size_t count = (size_t)bytes / sizeof(float);
    cudaEvent_t e0, e1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    std::vector<float> ms;
    for (long it = 0; c.iters < 0 || it < c.warmup + c.iters; it++) {
        CK(cudaEventRecord(e0, nc.streams[0]));
        bench_nccl_allreduce(nc, count);
        CK(cudaEventRecord(e1, nc.streams[0]));
        bench_nccl_sync(nc);
        float x;
        CK(cudaEventElapsedTime(&x, e0, e1));
        if (c.progress) {
            printf("mlsched-progress iter=%ld iter_time=%.6f mem=%lld\n", it + 1, x / 1e3, bytes);
            fflush(stdout);
        }
        if (it >= c.warmup)
            ms.push_back(x);
    }
    bench_percentiles(ms, t);
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
}

int allreduce_main(int argc, char **argv)
{
    std::vector<long long> sizes = {1LL << 20, 16LL << 20, 64LL << 20, 256LL << 20, 1LL << 30};
    std::vector<char *> rest;
    std::string sizes_arg;
    for (int i = 0; i < argc; i++) {
        if (!strcmp(argv[i], "--sizes")) {
            if (i + 1 >= argc || !parse_sizes(argv[i + 1], sizes)) {
                fprintf(stderr, "mlsched-gpu-bench allreduce: --sizes wants sizes >= 4 bytes "
                                "like 1M,64M,1G (see mlsched-gpu-bench allreduce --help)\n");
                return 2;
            }
            sizes_arg = std::string(" --sizes ") + argv[++i];
        } else {
            rest.push_back(argv[i]);
        }
    }
    bench_common c;
    c.iters = 20;
    c.warmup = 5;
    int rc = bench_parse((int)rest.size(), rest.data(), "allreduce",
                         "NCCL all-reduce (fp32 sum, in place) across every visible GPU, one "
                         "process.\n  --sizes LIST        gradient sizes in bytes (K, M, G = "
                         "KiB, MiB, GiB; default\n                      1M,16M,64M,256M,1G); "
                         "--batch-sizes and --grad-bytes do not apply,\n                      "
                         "--progress MIB repeats one size of MIB MiB",
                         c, {});
    if (rc)
        return rc < 0 ? 0 : rc;
    c.command += sizes_arg;
    if (!c.batches.empty() || c.grad_bytes) {
        fprintf(stderr, "mlsched-gpu-bench allreduce: --batch-sizes and --grad-bytes do not "
                        "apply; give --sizes\n");
        return 2;
    }
    if (c.progress)
        sizes = {(long long)c.progress << 20};
    if (c.describe) {
        for (long long b : sizes)
            printf("allreduce %s: %lld bytes, %lld floats\n", size_name(b).c_str(), b, b / 4);
        return 0;
    }
    if ((rc = bench_require_device()))
        return rc;
    int ndev = bench_device_count();
    if (!c.no_self_test || c.self_test) {
        int bad = self_test(ndev, c.self_test ? stdout : stderr);
        if (bad || c.self_test)
            return bad;
    }
    long long most = 0;
    for (long long b : sizes)
        most = b > most ? b : most;
    bench_device d;
    bench_device_info(0, d);
    std::string type = c.gpu_type.empty() ? bench_gpu_type(d.prop.name) : c.gpu_type;
    bench_nccl nc;
    bench_nccl_init(nc, ndev, (size_t)most);
    int ver = 0;
    ncclGetVersion(&ver);
    if (!c.progress)
        bench_print_header(d, type, c.command,
                           "built-in NCCL all-reduce (profiler/cuda/allreduce.cu): NCCL " +
                               std::to_string(ver) + ", fp32 sum in place across " +
                               std::to_string(ndev) + " GPU(s) of one process, one at a time",
                           "mlsched-allreduce v1",
                           "bytes,num_gpus,num_nodes,sync_time_s,sync_time_p10_s,"
                           "sync_time_p90_s,algbw_gbps,busbw_gbps,iters");
    for (long long b : sizes) {
        double t[3];
        time_size(nc, b, c, t);
        if (c.progress)
            break;
        double algbw = b / t[0] / 1e9, busbw = algbw * 2 * (ndev - 1) / ndev;
        printf("%lld,%d,1,%s,%s,%s,%.3f,%.3f,%d\n", b, ndev, bench_fmt_seconds(t[0]).c_str(),
               bench_fmt_seconds(t[1]).c_str(), bench_fmt_seconds(t[2]).c_str(), algbw, busbw,
               c.iters);
        fprintf(stderr, "allreduce %s on %d GPU(s): %.1f us, algbw %.2f GB/s, busbw %.2f GB/s\n",
                size_name(b).c_str(), ndev, t[0] * 1e6, algbw, busbw);
        fflush(stdout);
    }
    bench_nccl_free(nc);
    return 0;
}
