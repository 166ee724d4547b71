/* bench.cu: the shared part of mlsched-gpu-bench (see bench.h): command line,
 * device metadata, the timed loop, the curve file, NCCL set-up and small kernels.
 *
 * Timing: one iteration is forward + backward (+ the all-reduce of --grad-bytes when
 * more than one GPU is visible) + the optimizer step, bracketed by CUDA events on
 * device 0's default stream and synchronized after each, so iterations never
 * overlap; the first --warmup are dropped. Memory: the device memory the batch took,
 * the cudaMemGetInfo difference between before setup and its lowest point after
 * setup or after the first iteration (library workspaces allocated lazily count). */
#include "profiler/cuda/bench.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstring>
#include <ctime>

#define CN(x)                                                                                \
    do {                                                                                     \
        ncclResult_t r_ = (x);                                                               \
        if (r_ != ncclSuccess) {                                                             \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, ncclGetErrorString(r_)); \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

/* ---- allocations ---------------------------------------------------------------- */

void *dev_pool::alloc(size_t bytes)
{
    void *p = nullptr;
    cudaError_t e = cudaMalloc(&p, bytes ? (bytes + 255) / 256 * 256 : 256);
    if (e == cudaErrorMemoryAllocation) {
        cudaGetLastError(); /* not sticky: clear it */
        throw bench_oom{bytes};
    }
    CK(e);
    ptrs.push_back(p);
    return p;
}

void dev_pool::free_all()
{
    for (void *p : ptrs)
        cudaFree(p);
    ptrs.clear();
}

/* ---- command line --------------------------------------------------------------- */

static bool parse_int(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

long long bench_parse_size(const char *s)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || v < 1)
        return -1;
    long long scale = 1;
    if (!strcmp(end, "K") || !strcmp(end, "KiB"))
        scale = 1LL << 10;
    else if (!strcmp(end, "M") || !strcmp(end, "MiB"))
        scale = 1LL << 20;
    else if (!strcmp(end, "G") || !strcmp(end, "GiB"))
        scale = 1LL << 30;
    else if (*end)
        return -1;
    if (v > (1LL << 50) / scale)
        return -1;
    return v * scale;
}

static bool parse_batches(const char *s, std::vector<int> &out)
{
    out.clear();
    std::string all(s);
    size_t start = 0;
    while (true) {
        size_t comma = all.find(',', start);
        std::string tok = all.substr(start, comma == std::string::npos ? comma : comma - start);
        long long v;
        if (!parse_int(tok.c_str(), 1, 1 << 24, &v))
            return false;
        out.push_back((int)v);
        if (comma == std::string::npos)
            return true;
        start = comma + 1;
    }
}

static std::string join(const std::vector<int> &v)
{
    std::string s;
    for (size_t i = 0; i < v.size(); i++)
        s += (i ? "," : "") + std::to_string(v[i]);
    return s;
}

static void usage(const char *workload, const char *summary, const bench_common &c,
                  const std::vector<bench_opt> &opts)
{
    printf("usage: mlsched-gpu-bench %s [options]\n\n%s\n\n", workload, summary);
    printf("  --batch-sizes LIST  per-GPU batch sizes to sweep (default %s)\n"
           "  --iters N           timed iterations per batch (default %d; -1 = forever, with\n"
           "                      --progress)\n"
           "  --warmup N          untimed iterations first (default %d)\n"
           "  --gpu-type T        the curve rows' gpu_type (default: from the GPU's name)\n"
           "  --progress BATCH    run one batch size and print mlsched-progress lines instead\n"
           "                      of a curve file (for `mlsched profile run -- ... --progress\n"
           "                      {batch} --iters -1`)\n"
           "  --grad-bytes SIZE   all-reduce SIZE bytes (64M, 1G, ..., or `model` for the\n"
           "                      model's gradient) across the visible GPUs every iteration\n"
           "                      (NCCL); rows then have num_gpus = the GPU count and\n"
           "                      sync_time_s; with one GPU visible nothing is added\n"
           "  --self-test         only check the kernels against a float64 CPU reference\n"
           "  --no-self-test      sweep without running the self-test first\n"
           "  --describe          print the model's layers and sizes (no GPU needed)\n",
           join(c.batches).c_str(), c.iters, c.warmup);
    if (!opts.empty())
        printf("workload options:\n");
    for (const bench_opt &o : opts)
        printf("  --%-17s %s (default %d)\n", (std::string(o.name) + " N").c_str(), o.help,
               *o.value);
    printf("\nWrites a curve file (# mlsched-curves v1, profiler/README.md) to stdout.\n"
           "Exit: 0 ok, 1 failed, 2 usage error, 77 no CUDA device.\n");
}

static int usage_error(const char *workload, const std::string &msg)
{
    fprintf(stderr, "mlsched-gpu-bench %s: %s (see mlsched-gpu-bench %s --help)\n", workload,
            msg.c_str(), workload);
    return 2;
}

int bench_parse(int argc, char **argv, const char *workload, const char *summary,
                bench_common &c, const std::vector<bench_opt> &opts)
{
    c.command = std::string("mlsched-gpu-bench ") + workload;
    for (int i = 0; i < argc; i++) {
        c.command += std::string(" ") + argv[i];
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            usage(workload, summary, c, opts);
            return -1;
        }
        if (!strcmp(a, "--self-test")) {
            c.self_test = true;
            continue;
        }
        if (!strcmp(a, "--describe")) {
            c.describe = true;
            continue;
        }
        if (!strcmp(a, "--no-self-test")) {
            c.no_self_test = true;
            continue;
        }
        if (strncmp(a, "--", 2))
            return usage_error(workload, std::string("unexpected argument ") + a);
        if (i + 1 >= argc)
            return usage_error(workload, std::string(a) + " needs a value");
        const char *v = argv[++i];
        c.command += std::string(" ") + v;
        long long n;
        const std::string bad = std::string("bad value for ") + a + ": '" + v + "'";
        if (!strcmp(a, "--batch-sizes")) {
            if (!parse_batches(v, c.batches))
                return usage_error(workload, bad + " (want integers >= 1 like 16,32,64)");
        } else if (!strcmp(a, "--iters")) {
            if (!parse_int(v, -1, 1 << 30, &n) || n == 0)
                return usage_error(workload, bad + " (want >= 1, or -1 with --progress)");
            c.iters = (int)n;
        } else if (!strcmp(a, "--warmup")) {
            if (!parse_int(v, 0, 1 << 30, &n))
                return usage_error(workload, bad + " (want >= 0)");
            c.warmup = (int)n;
        } else if (!strcmp(a, "--progress")) {
            if (!parse_int(v, 1, 1 << 24, &n))
                return usage_error(workload, bad + " (want a batch size >= 1)");
            c.progress = (int)n;
        } else if (!strcmp(a, "--gpu-type")) {
            if (!*v || strpbrk(v, ", \n"))
                return usage_error(workload, bad + " (want a word like h100)");
            c.gpu_type = v;
        } else if (!strcmp(a, "--grad-bytes")) {
            c.grad_bytes = !strcmp(v, "model") ? -1 : bench_parse_size(v);
            if (c.grad_bytes == -1 && strcmp(v, "model"))
                return usage_error(workload, bad + " (want bytes like 104857600, 100M, or model)");
        } else {
            const bench_opt *o = nullptr;
            for (const bench_opt &k : opts)
                if (!strcmp(a + 2, k.name))
                    o = &k;
            if (!o)
                return usage_error(workload, std::string("unknown option ") + a);
            if (!parse_int(v, o->min, INT_MAX, &n))
                return usage_error(workload, bad + " (want an integer >= " +
                                                 std::to_string(o->min) + ")");
            *o->value = (int)n;
        }
    }
    if (c.iters < 0 && !c.progress)
        return usage_error(workload, "--iters -1 needs --progress");
    return 0;
}

int bench_device_count(void)
{
    int n = 0;
    if (cudaGetDeviceCount(&n) != cudaSuccess) {
        cudaGetLastError();
        return 0;
    }
    return n;
}

int bench_require_device(void)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e != cudaSuccess || n == 0) {
        fprintf(stderr, "mlsched-gpu-bench: no CUDA device (%s)\n",
                e != cudaSuccess ? cudaGetErrorString(e) : "none visible");
        return 77;
    }
    return 0;
}

/* ---- metadata and rows ---------------------------------------------------------- */

void bench_device_info(int dev, bench_device &d)
{
    CK(cudaGetDeviceProperties(&d.prop, dev));
    cudaDriverGetVersion(&d.driver);
    cudaRuntimeGetVersion(&d.runtime);
    int khz = 0;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrClockRate, dev) == cudaSuccess)
        d.sm_clock_mhz = khz / 1000;
    if (cudaDeviceGetAttribute(&khz, cudaDevAttrMemoryClockRate, dev) == cudaSuccess)
        d.mem_clock_mhz = khz / 1000;
    cudaGetLastError();
}

/* "NVIDIA H100 80GB HBM3" -> "h100": the first word with a digit that is not a
 * brand word (as mlsched's profiler/nvml.c does). */
std::string bench_gpu_type(const char *name)
{
    static const char *const skip[] = {"nvidia", "tesla", "geforce", "quadro", "rtx", "gtx"};
    std::string word;
    for (const char *p = name;; p++) {
        if (*p && isalnum((unsigned char)*p)) {
            word += (char)tolower((unsigned char)*p);
            continue;
        }
        bool brand = false, digit = false;
        for (const char *k : skip)
            brand |= word == k;
        for (char ch : word)
            digit |= isdigit((unsigned char)ch) != 0;
        if (!word.empty() && digit && !brand)
            return word;
        word.clear();
        if (!*p)
            return "gpu";
    }
}

void bench_print_header(const bench_device &d, const std::string &gpu_type,
                        const std::string &command, const std::string &notes, const char *magic,
                        const char *columns)
{
    char date[32];
    time_t now = time(nullptr);
    struct tm tm;
    gmtime_r(&now, &tm);
    strftime(date, sizeof date, "%Y-%m-%d", &tm);
    printf("# %s\n# gpu_name=%s\n# gpu_type=%s\n# gpu_mem_bytes=%zu\n"
           "# cuda_driver=%d.%d\n# cuda_runtime=%d.%d\n# sms=%d\n# sm_clock_mhz=%d\n"
           "# mem_clock_mhz=%d\n# date=%s\n# source=builtin\n# command=%s\n# notes=%s\n",
           magic, d.prop.name, gpu_type.c_str(), d.prop.totalGlobalMem, d.driver / 1000,
           (d.driver % 1000) / 10, d.runtime / 1000, (d.runtime % 1000) / 10,
           d.prop.multiProcessorCount, d.sm_clock_mhz, d.mem_clock_mhz, date, command.c_str(),
           notes.c_str());
    printf("%s\n", columns);
}

/* seconds as the rows write them: 6 decimals (microseconds), 9 below a millisecond */
std::string bench_fmt_seconds(double t)
{
    char buf[32];
    snprintf(buf, sizeof buf, t >= 1e-3 ? "%.6f" : "%.9f", t);
    return buf;
}

void bench_print_row(const std::string &workload, const std::string &gpu_type, int gpus,
                     int batch, const double t[3], double sync_s, size_t mem, int iters)
{
    std::string median = bench_fmt_seconds(t[0]);
    /* samples/s from the median as written, so that readers' 1 % check holds */
    double rate = (double)gpus * batch / atof(median.c_str());
    printf("%s,%s,%d,1,%d,1,%s,%s,%s,%s,%.2f,%zu,%d\n", workload.c_str(), gpu_type.c_str(), gpus,
           batch, median.c_str(), bench_fmt_seconds(t[1]).c_str(), bench_fmt_seconds(t[2]).c_str(),
           sync_s > 0 ? bench_fmt_seconds(sync_s).c_str() : "0", rate, mem, iters);
    fflush(stdout);
}

void bench_percentiles(std::vector<float> ms, double t[3])
{
    if (ms.empty()) {
        t[0] = t[1] = t[2] = 0;
        return;
    }
    std::sort(ms.begin(), ms.end());
    t[0] = ms[ms.size() / 2] / 1e3;
    t[1] = ms[ms.size() / 10] / 1e3;
    t[2] = ms[ms.size() * 9 / 10] / 1e3;
}

/* ---- NCCL ------------------------------------------------------------------------ */

void bench_nccl_init(bench_nccl &n, int ndev, size_t bytes)
{
    n.ndev = ndev;
    n.count = (bytes + sizeof(float) - 1) / sizeof(float);
    n.comms.resize(ndev);
    std::vector<int> devs(ndev);
    for (int i = 0; i < ndev; i++)
        devs[i] = i;
    CN(ncclCommInitAll(n.comms.data(), ndev, devs.data()));
    for (int i = 0; i < ndev; i++) {
        CK(cudaSetDevice(i));
        cudaStream_t s;
        CK(cudaStreamCreate(&s)); /* blocking: orders itself with the legacy stream */
        float *b;
        CK(cudaMalloc(&b, n.count * sizeof(float)));
        CK(cudaMemset(b, 0, n.count * sizeof(float)));
        n.streams.push_back(s);
        n.bufs.push_back(b);
    }
    CK(cudaSetDevice(0));
    CK(cudaDeviceSynchronize());
}

void bench_nccl_allreduce(bench_nccl &n, size_t count)
{
    CN(ncclGroupStart());
    for (int i = 0; i < n.ndev; i++)
        CN(ncclAllReduce(n.bufs[i], n.bufs[i], count, ncclFloat, ncclSum, n.comms[i],
                         n.streams[i]));
    CN(ncclGroupEnd());
}

void bench_nccl_sync(bench_nccl &n)
{
    for (int i = 0; i < n.ndev; i++) {
        CK(cudaSetDevice(i));
        CK(cudaStreamSynchronize(n.streams[i]));
    }
    CK(cudaSetDevice(0));
}

void bench_nccl_free(bench_nccl &n)
{
    for (int i = 0; i < n.ndev; i++) {
        cudaSetDevice(i);
        cudaStreamDestroy(n.streams[i]);
        cudaFree(n.bufs[i]);
        ncclCommDestroy(n.comms[i]);
    }
    cudaSetDevice(0);
    n = bench_nccl();
}

/* ---- the timed loop --------------------------------------------------------------- */

struct batch_result {
    double t[3], sync;
    size_t mem;
};

static size_t free_mem(void)
{
    size_t f, total;
    CK(cudaMemGetInfo(&f, &total));
    return f;
}

/* One batch size: false when it does not fit. With `progress`, one mlsched-progress
 * line per iteration (forever when iters < 0). */
static bool run_batch(bench_workload &w, const bench_common &c, int B, bench_nccl *nc,
                      batch_result &r)
{
    CK(cudaDeviceSynchronize());
    size_t free0 = free_mem(), lowest;
    try {
        w.setup(B);
    } catch (const bench_oom &oom) {
        w.teardown();
        fprintf(stderr, "mlsched-gpu-bench %s: batch %d does not fit in device memory (an "
                        "allocation of %zu bytes failed): left out\n",
                w.name().c_str(), B, oom.bytes);
        return false;
    }
    CK(cudaDeviceSynchronize());
    lowest = free_mem();
    cudaEvent_t e0, e1, s0, s1;
    CK(cudaEventCreate(&e0));
    CK(cudaEventCreate(&e1));
    CK(cudaEventCreate(&s0));
    CK(cudaEventCreate(&s1));
    std::vector<float> ms, sync_ms;
    for (long it = 0; c.iters < 0 || it < c.warmup + c.iters; it++) {
        CK(cudaEventRecord(e0, 0));
        w.forward_backward();
        if (nc) {
            CK(cudaEventRecord(s0, 0));
            bench_nccl_allreduce(*nc, nc->count);
            CK(cudaEventRecord(s1, 0)); /* the legacy stream waits for the NCCL stream */
        }
        w.update();
        CK(cudaEventRecord(e1, 0));
        CK(cudaEventSynchronize(e1));
        CK(cudaGetLastError());
        float t, ts = 0;
        CK(cudaEventElapsedTime(&t, e0, e1));
        if (nc)
            CK(cudaEventElapsedTime(&ts, s0, s1));
        if (it == 0)
            lowest = std::min(lowest, free_mem());
        if (c.progress) {
            printf("mlsched-progress iter=%ld samples=%ld iter_time=%.6f batch=%d mem=%zu\n",
                   it + 1, (it + 1) * (long)B * (nc ? nc->ndev : 1), t / 1e3, B,
                   free0 > lowest ? free0 - lowest : 0);
            fflush(stdout);
        }
        if (it >= c.warmup) {
            ms.push_back(t);
            sync_ms.push_back(ts);
        }
    }
    if (nc)
        bench_nccl_sync(*nc);
    bench_percentiles(ms, r.t);
    double st[3];
    bench_percentiles(sync_ms, st);
    r.sync = st[0];
    r.mem = free0 > lowest ? free0 - lowest : 0;
    cudaEventDestroy(e0);
    cudaEventDestroy(e1);
    cudaEventDestroy(s0);
    cudaEventDestroy(s1);
    w.teardown();
    return true;
}

int bench_run_training(bench_workload &w, const bench_common &c)
{
    if (c.describe) {
        w.describe(stdout);
        printf("gradient bytes (--grad-bytes model): %zu\n", w.param_bytes());
        return 0;
    }
    int rc = bench_require_device();
    if (rc)
        return rc;
    /* the self-test's lines go to stderr unless it is all that was asked */
    if (!c.no_self_test || c.self_test) {
        int bad = w.self_test(c.self_test ? stdout : stderr);
        if (bad || c.self_test)
            return bad;
    }
    bench_device d;
    bench_device_info(0, d);
    std::string type = c.gpu_type.empty() ? bench_gpu_type(d.prop.name) : c.gpu_type;
    int ndev = bench_device_count();
    bench_nccl nc;
    bool reduce = c.grad_bytes != 0 && ndev > 1;
    std::string notes = w.notes();
    if (c.grad_bytes != 0) {
        size_t bytes = std::max<size_t>(c.grad_bytes < 0 ? w.param_bytes() : (size_t)c.grad_bytes,
                                        sizeof(float));
        if (reduce) {
            bench_nccl_init(nc, ndev, bytes);
            notes += "; every iteration all-reduces " + std::to_string(bytes) +
                     " bytes (NCCL, fp32 sum) across " + std::to_string(ndev) +
                     " GPUs after backward; the other GPUs run only the all-reduce (data "
                     "parallel: their compute is GPU 0's, not replicated)";
        } else {
            notes += "; --grad-bytes given but one GPU visible: no all-reduce";
        }
    }
    int gpus = reduce ? ndev : 1;
    if (c.progress) {
        batch_result r;
        rc = run_batch(w, c, c.progress, reduce ? &nc : nullptr, r) ? 0 : 1;
    } else {
        bench_print_header(d, type, c.command, notes, "mlsched-curves v1", BENCH_CURVE_COLUMNS);
        int rows = 0;
        for (int B : c.batches) {
            batch_result r;
            if (run_batch(w, c, B, reduce ? &nc : nullptr, r)) {
                bench_print_row(w.name(), type, gpus, B, r.t, reduce ? r.sync : 0, r.mem,
                                c.iters);
                rows++;
            }
        }
        rc = rows ? 0 : 1; /* no batch size fit */
    }
    if (reduce)
        bench_nccl_free(nc);
    return rc;
}

/* ---- shared kernels --------------------------------------------------------------- */

unsigned bench_blocks(size_t n, int t)
{
    return (unsigned)((n + t - 1) / t);
}

static __global__ void fill_uniform_kernel(float *p, size_t n, unsigned seed, float scale)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        h ^= h >> 13;
        h *= 0x5bd1e995;
        h ^= h >> 15;
        p[i] = ((h & 0xffffff) / 16777216.0f * 2.f - 1.f) * scale;
    }
}

void bench_fill_uniform(float *p, size_t n, unsigned seed, float scale)
{
    if (n == 0)
        return;
    fill_uniform_kernel<<<bench_blocks(n, 256), 256>>>(p, n, seed, scale);
    CK(cudaGetLastError());
}

static __global__ void fill_kernel(float *p, size_t n, float v)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        p[i] = v;
}

void bench_fill(float *p, size_t n, float value)
{
    if (n == 0)
        return;
    fill_kernel<<<bench_blocks(n, 256), 256>>>(p, n, value);
    CK(cudaGetLastError());
}

static __global__ void sgd_kernel(float *p, const float *g, float *m, size_t n, float lr)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        float mi = 0.9f * m[i] + g[i];
        m[i] = mi;
        p[i] -= lr * mi;
    }
}

void bench_sgd(float *param, const float *grad, float *momentum, size_t n, float lr)
{
    if (n == 0)
        return;
    sgd_kernel<<<bench_blocks(n, 256), 256>>>(param, grad, momentum, n, lr);
    CK(cudaGetLastError());
}

double bench_rel_err(const std::vector<double> &got, const std::vector<double> &want)
{
    double num = 0, den = 0;
    for (size_t i = 0; i < got.size() && i < want.size(); i++) {
        num += (got[i] - want[i]) * (got[i] - want[i]);
        den += want[i] * want[i];
    }
    if (got.size() != want.size())
        return INFINITY;
    return den > 0 ? sqrt(num / den) : sqrt(num);
}
