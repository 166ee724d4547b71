/* transformer.cu: mlsched-gpu-bench's built-in Transformer encoder workload.
 *
 * One training iteration of an L-layer encoder stack (hidden H, heads nh, FFN 4H,
 * sequence S, batch B) in bf16 storage with fp32 accumulation: per layer the
 * forward GEMMs (QKV projection, per-head scores and context as strided-batched
 * GEMMs, output projection, FFN up and down) through cuBLAS, softmax, layer-norm
 * and GELU kernels; the backward pass as the two GEMMs per forward GEMM (input
 * and weight gradients) plus kernels of the same memory traffic as the forward
 * elementwise ones; then an SGD-with-momentum step over all parameters.
 * Simplification: the backward elementwise kernels move the right bytes but do not
 * compute exact gradients (nothing is learned; only time is measured); GEMM
 * shapes and counts are exact. Timed with CUDA events after warm-up; prints one
 * curve row per batch size (median, p10, p90 of the iteration time, samples/s,
 * peak device memory from cudaMemGetInfo) as a curve file (# mlsched-curves v1);
 * with --progress BATCH it runs one batch and prints mlsched-progress lines, the
 * protocol `mlsched profile run` reads.
 *
 * The command line, timing and output are bench.cu's (shared by all workloads).
 *
 *   mlsched-gpu-bench [transformer] [--self-test] [--batch-sizes 8,16,...] [--hidden 512]
 *       [--heads 8] [--layers 6] [--seq 128] [--iters 30] [--warmup 10]
 *       [--gpu-type T] [--progress BATCH] [--grad-bytes SIZE]   */
#include "profiler/cuda/bench.h"

#include <cuda_bf16.h>

#include <algorithm>
#include <cmath>
#include <cstring>

typedef __nv_bfloat16 bf16;

struct cfg {
    int hidden = 512, heads = 8, layers = 6, seq = 128;
};

static __global__ void fill_kernel(bf16 *p, size_t n, unsigned seed)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        unsigned h = (unsigned)i * 2654435761u ^ seed;
        h ^= h >> 13;
        h *= 0x5bd1e995;
        p[i] = __float2bfloat16(((h & 0xffff) / 65536.0f - 0.5f) * 0.1f);
    }
}

/* one warp per row: max, exp, sum, normalize */
static __global__ void softmax_rows(bf16 *x, int rows, int cols)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (row >= rows)
        return;
    bf16 *r = x + (size_t)row * cols;
    float m = -1e30f;
    for (int c = lane; c < cols; c += 32)
        m = fmaxf(m, __bfloat162float(r[c]));
    for (int o = 16; o; o /= 2)
        m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
    float s = 0;
    for (int c = lane; c < cols; c += 32)
        s += __expf(__bfloat162float(r[c]) - m);
    for (int o = 16; o; o /= 2)
        s += __shfl_xor_sync(0xffffffff, s, o);
    for (int c = lane; c < cols; c += 32)
        r[c] = __float2bfloat16(__expf(__bfloat162float(r[c]) - m) / s);
}

static __global__ void layernorm_rows(const bf16 *x, bf16 *y, int rows, int cols)
{
    int row = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (row >= rows)
        return;
    const bf16 *r = x + (size_t)row * cols;
    float s = 0, ss = 0;
    for (int c = lane; c < cols; c += 32) {
        float v = __bfloat162float(r[c]);
        s += v;
        ss += v * v;
    }
    for (int o = 16; o; o /= 2) {
        s += __shfl_xor_sync(0xffffffff, s, o);
        ss += __shfl_xor_sync(0xffffffff, ss, o);
    }
    float mean = s / cols, inv = rsqrtf(fmaxf(ss / cols - mean * mean, 0.f) + 1e-5f);
    for (int c = lane; c < cols; c += 32)
        y[(size_t)row * cols + c] = __float2bfloat16((__bfloat162float(r[c]) - mean) * inv);
}

static __global__ void gelu(bf16 *x, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        float v = __bfloat162float(x[i]);
        x[i] = __float2bfloat16(0.5f * v * (1.f + tanhf(0.7978845608f * (v + 0.044715f * v * v * v))));
    }
}

static __global__ void sgd_momentum(bf16 *p, const bf16 *g, float *m, size_t n, float lr)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n) {
        float mi = 0.9f * m[i] + __bfloat162float(g[i]);
        m[i] = mi;
        p[i] = __float2bfloat16(__bfloat162float(p[i]) - lr * mi);
    }
}

static unsigned blocks(size_t n, int t)
{
    return bench_blocks(n, t);
}

/* C[m,n] = A[m,k] B[k,n] in column-major bf16, fp32 accumulation */
static void gemm(cublasHandle_t h, int m, int n, int k, const bf16 *A, const bf16 *B, bf16 *C)
{
    float one = 1, zero = 0;
    CB(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, CUDA_R_16BF, m, B,
                    CUDA_R_16BF, k, &zero, C, CUDA_R_16BF, m, CUBLAS_COMPUTE_32F,
                    CUBLAS_GEMM_DEFAULT));
}

static void gemm_batched(cublasHandle_t h, int m, int n, int k, const bf16 *A, const bf16 *B,
                         bf16 *C, int count)
{
    float one = 1, zero = 0;
    CB(cublasGemmStridedBatchedEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, A, CUDA_R_16BF, m,
                                  (long long)m * k, B, CUDA_R_16BF, k, (long long)k * n, &zero,
                                  C, CUDA_R_16BF, m, (long long)m * n, count,
                                  CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
}

/* the two backward GEMMs of a forward C[m,n] = A[m,k] B[k,n] */
static void gemm_bwd(cublasHandle_t h, int m, int n, int k, bf16 *dA, bf16 *dB, const bf16 *A,
                     const bf16 *B, const bf16 *dC)
{
    gemm(h, m, k, n, dC, B, dA); /* shapes of dA = dC B^T (transposes cost the same) */
    gemm(h, k, n, m, A, dC, dB); /* shapes of dB = A^T dC */
}

struct buffers {
    std::vector<bf16 *> w, act;
    bf16 *grad_w = nullptr, *scratch = nullptr;
    float *mom = nullptr;
    size_t n_params = 0;
};

static bf16 *dalloc(dev_pool &pool, size_t n)
{
    bf16 *p = pool.get<bf16>(n);
    fill_kernel<<<blocks(n, 256), 256>>>(p, n, (unsigned)n);
    CK(cudaGetLastError());
    return p;
}

/* Forward and backward through every layer (the optimizer step is update()). */
static void forward_backward(cublasHandle_t h, const cfg &c, int B, buffers &bf)
{
    int H = c.hidden, S = c.seq, nh = c.heads, dh = H / nh, F = 4 * H, T = B * S;
    for (int l = 0; l < c.layers; l++) {
        bf16 **a = &bf.act[(size_t)l * 8], **w = &bf.w[(size_t)l * 4];
        gemm(h, 3 * H, T, H, w[0], a[0], a[1]);                        /* QKV */
        gemm_batched(h, S, S, dh, a[1], a[1] + (size_t)T * H, a[2], B * nh); /* scores */
        softmax_rows<<<blocks((size_t)B * nh * S, 8), 256>>>(a[2], B * nh * S, S);
        gemm_batched(h, dh, S, S, a[1] + 2 * (size_t)T * H, a[2], a[3], B * nh); /* context */
        gemm(h, H, T, H, w[1], a[3], a[4]);                            /* out proj */
        layernorm_rows<<<blocks(T, 8), 256>>>(a[4], a[5], T, H);
        gemm(h, F, T, H, w[2], a[5], a[6]);                            /* FFN up */
        gelu<<<blocks((size_t)T * F, 256), 256>>>(a[6], (size_t)T * F);
        gemm(h, H, T, F, w[3], a[6], a[7]);                            /* FFN down */
        layernorm_rows<<<blocks(T, 8), 256>>>(a[7], l + 1 < c.layers ? bf.act[(size_t)(l + 1) * 8] : a[0], T, H);
    }
    bf16 *g = bf.scratch, *gw = bf.grad_w;
    for (int l = c.layers - 1; l >= 0; l--) {
        bf16 **a = &bf.act[(size_t)l * 8], **w = &bf.w[(size_t)l * 4];
        size_t o0 = 0, o1 = (size_t)3 * H * H, o2 = o1 + (size_t)H * H, o3 = o2 + (size_t)F * H;
        bf16 *gl = gw + (size_t)l * 12 * H * H;
        layernorm_rows<<<blocks(T, 8), 256>>>(a[7], g, T, H);
        gemm_bwd(h, H, T, F, gl + o3, g + (size_t)T * H, w[3], a[6], g);
        gelu<<<blocks((size_t)T * F, 256), 256>>>(g + (size_t)T * H, (size_t)T * F);
        gemm_bwd(h, F, T, H, gl + o2, g, w[2], a[5], g + (size_t)T * H);
        layernorm_rows<<<blocks(T, 8), 256>>>(a[4], g, T, H);
        gemm_bwd(h, H, T, H, gl + o1, g + (size_t)T * H, w[1], a[3], g);
        gemm_batched(h, dh, S, S, g + (size_t)T * H, a[2], g, B * nh);   /* d context wrt V */
        gemm_batched(h, S, S, dh, g, a[1], a[2], B * nh);                /* d probs */
        softmax_rows<<<blocks((size_t)B * nh * S, 8), 256>>>(a[2], B * nh * S, S);
        gemm_batched(h, S, dh, S, a[2], a[1], g, B * nh);                /* dQ */
        gemm_batched(h, S, dh, S, a[2], a[1] + (size_t)T * H, g + (size_t)T * H, B * nh); /* dK */
        gemm_bwd(h, 3 * H, T, H, gl + o0, g, w[0], a[0], a[1]);
    }
}

static void update(const buffers &bf)
{
    sgd_momentum<<<blocks(bf.n_params, 256), 256>>>(bf.w[0], bf.grad_w, bf.mom, bf.n_params,
                                                    1e-4f);
}

static void setup(const cfg &c, int B, buffers &bf, dev_pool &pool)
{
    int H = c.hidden, S = c.seq, nh = c.heads, F = 4 * H;
    size_t T = (size_t)B * S;
    bf.n_params = (size_t)c.layers * 12 * H * H;
    bf16 *wall = dalloc(pool, bf.n_params);
    for (int l = 0; l < c.layers; l++) {
        bf16 *base = wall + (size_t)l * 12 * H * H;
        bf.w.push_back(base);
        bf.w.push_back(base + (size_t)3 * H * H);
        bf.w.push_back(base + (size_t)4 * H * H);
        bf.w.push_back(base + (size_t)4 * H * H + (size_t)F * H);
        size_t sizes[8] = {T * H, 3 * T * H, (size_t)B * nh * S * S, T * H, T * H, T * H, T * F, T * H};
        for (int k = 0; k < 8; k++)
            bf.act.push_back(dalloc(pool, sizes[k]));
    }
    bf.grad_w = dalloc(pool, bf.n_params);
    size_t sc = std::max(T * (H + F), (size_t)2 * B * nh * S * S);
    bf.scratch = dalloc(pool, sc + 3 * T * H);
    bf.mom = pool.get<float>(bf.n_params);
    CK(cudaMemset(bf.mom, 0, bf.n_params * sizeof(float)));
}

/* GEMM check against a CPU reference on a small random problem. */
static int self_test(cublasHandle_t h, FILE *out)
{
    const int m = 67, n = 45, k = 129;
    std::vector<bf16> A(m * k), B(k * n), C(m * n);
    for (int i = 0; i < m * k; i++)
        A[i] = __float2bfloat16((float)((i * 37) % 101) / 101.f - 0.5f);
    for (int i = 0; i < k * n; i++)
        B[i] = __float2bfloat16((float)((i * 53) % 97) / 97.f - 0.5f);
    bf16 *dA, *dB, *dC;
    CK(cudaMalloc(&dA, A.size() * 2));
    CK(cudaMalloc(&dB, B.size() * 2));
    CK(cudaMalloc(&dC, C.size() * 2));
    CK(cudaMemcpy(dA, A.data(), A.size() * 2, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, B.data(), B.size() * 2, cudaMemcpyHostToDevice));
    gemm(h, m, n, k, dA, dB, dC);
    CK(cudaMemcpy(C.data(), dC, C.size() * 2, cudaMemcpyDeviceToHost));
    double num = 0, den = 0;
    for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) {
            double ref = 0;
            for (int p = 0; p < k; p++)
                ref += (double)__bfloat162float(A[i + p * m]) * __bfloat162float(B[p + j * k]);
            double d = __bfloat162float(C[i + j * m]) - ref;
            num += d * d;
            den += ref * ref;
        }
    double rel = sqrt(num / den);
    fprintf(out, "self-test: GEMM %dx%dx%d bf16 vs float64 CPU: relative error %.2e (%s)\n", m, n, k,
           rel, rel < 1e-2 ? "ok" : "FAIL");
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dC);
    return rel < 1e-2 ? 0 : 1;
}

/* The workload for bench.cu: one encoder stack per batch size. */
class transformer_workload : public bench_workload {
  public:
    cfg c;
    cublasHandle_t h = nullptr;
    buffers bf;
    dev_pool pool;
    int batch = 0;

    ~transformer_workload() override
    {
        if (h)
            cublasDestroy(h);
    }
    cublasHandle_t handle()
    {
        if (!h)
            CB(cublasCreate(&h));
        return h;
    }
    std::string name() const override
    {
        return "transformer-h" + std::to_string(c.hidden) + "-l" + std::to_string(c.layers) +
               "-s" + std::to_string(c.seq);
    }
    std::string notes() const override
    {
        return "built-in Transformer encoder (profiler/cuda/transformer.cu): bf16 storage, "
               "fp32 accumulation; mem_bytes = device memory taken (cudaMemGetInfo difference)";
    }
    int self_test(FILE *out) override { return ::self_test(handle(), out); }
    void setup(int B) override
    {
        batch = B;
        ::setup(c, B, bf, pool);
    }
    void forward_backward() override { ::forward_backward(handle(), c, batch, bf); }
    void update() override { ::update(bf); }
    void teardown() override
    {
        pool.free_all();
        bf = buffers();
    }
    size_t param_bytes() const override
    {
        return (size_t)c.layers * 12 * c.hidden * c.hidden * sizeof(bf16);
    }
    void describe(FILE *out) const override
    {
        fprintf(out, "%s: %d layers, hidden %d, %d heads, FFN %d, sequence %d; %zu parameters "
                     "(bf16)\n",
                name().c_str(), c.layers, c.hidden, c.heads, 4 * c.hidden, c.seq,
                param_bytes() / sizeof(bf16));
    }
};

int transformer_main(int argc, char **argv)
{
    transformer_workload w;
    bench_common bc;
    bc.batches = {8, 16, 32, 64, 128};
    std::vector<bench_opt> opts = {
        {"hidden", &w.c.hidden, 8, "model width H"},
        {"heads", &w.c.heads, 1, "attention heads (must divide H)"},
        {"layers", &w.c.layers, 1, "encoder layers"},
        {"seq", &w.c.seq, 1, "sequence length"},
    };
    int rc = bench_parse(argc, argv, "transformer",
                         "One training iteration of an L-layer Transformer encoder (cuBLAS, bf16 "
                         "with fp32\naccumulation): forward, backward, SGD with momentum.",
                         bc, opts);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (w.c.hidden % w.c.heads) {
        fprintf(stderr, "mlsched-gpu-bench transformer: --heads must divide --hidden\n");
        return 2;
    }
    return bench_run_training(w, bc);
}
