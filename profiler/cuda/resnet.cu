/* resnet.cu: mlsched-gpu-bench's ResNet workload: one training iteration of a
 * ResNet-style convolutional network through cuDNN (legacy API), fp32 NCHW.
 *
 * The network is torchvision's ResNet v1.5 layout: a stem (7x7/2 conv + BN + ReLU +
 * 3x3/2 max-pool for images >= 128 pixels, as ImageNet ResNets; 3x3/1 conv + BN +
 * ReLU for smaller ones, as CIFAR ResNets), four stages of basic blocks (depth 18,
 * 34) or bottleneck blocks (50, 101, 152; stride on the 3x3 conv), base width W
 * doubling per stage, 1x1-conv + BN shortcuts where the shape changes, global
 * average pooling, a fully connected classifier (cuBLAS) and softmax cross-entropy.
 * With W = 64 and 1000 classes the parameter counts are torchvision's exactly
 * (--describe prints them: 11,689,512 for depth 18, 25,557,032 for 50).
 * Forward: cudnnConvolutionForward, cudnnBatchNormalizationForwardTraining,
 * ReLU / residual-add kernels. Backward: exact gradients through all of it
 * (cudnnBatchNormalizationBackward, cudnnConvolutionBackwardData/Filter, max-pool
 * backward; the stem conv computes no input gradient, as frameworks skip it), with
 * four activation-sized gradient buffers reused block by block. Then SGD with
 * momentum over every parameter. Convolution algorithms are chosen per layer shape
 * and batch by cudnnFind*AlgorithmEx (as PyTorch's cudnn.benchmark) or by the
 * cudnnGet*_v7 heuristics (--algo-search 0), within --workspace-mb; TF32 tensor cores
 * are allowed (as PyTorch's default for convolutions) unless --tf32 0.
 * --self-test checks one small convolution forward, backward-data and
 * backward-filter and batch-norm forward and backward against a float64 CPU
 * reference; then, on two tiny networks (CIFAR basic blocks; ImageNet stem with
 * bottlenecks; no TF32), the whole backward pass: the loss's central difference along
 * the computed gradient must equal the gradient's norm; then three iterations keep
 * every parameter finite and move most. */
#include "profiler/cuda/bench.h"

#include <cudnn.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>

#define CD(x)                                                                                \
    do {                                                                                     \
        cudnnStatus_t s_ = (x);                                                              \
        if (s_ != CUDNN_STATUS_SUCCESS) {                                                    \
            fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #x, cudnnGetErrorString(s_)); \
            exit(1);                                                                         \
        }                                                                                    \
    } while (0)

static const double BN_EPS = 1e-5;

struct rcfg {
    int depth = 50, width = 64, image = 224, classes = 1000, algo_search = 1,
        workspace_mb = 512, tf32 = 1;
};

/* conv + batch norm (+ ReLU): the unit every layer of the network is made of */
struct unit {
    int cin = 0, cout = 0, k = 0, stride = 1, pad = 0, hin = 0, hout = 0;
    bool relu = true, dgrad = true;
    size_t w_off = 0, scale_off = 0, bias_off = 0, state_off = 0; /* in floats */
    /* per batch */
    const float *x = nullptr;
    float *y = nullptr, *z = nullptr; /* conv output, BN (+add) (+ReLU) output */
    float *w = nullptr, *scale = nullptr, *bias = nullptr, *dw = nullptr, *dscale = nullptr,
          *dbias = nullptr, *state = nullptr; /* state: running mean, var, saved mean, inv std */
    cudnnTensorDescriptor_t xd = nullptr, yd = nullptr, bnd = nullptr;
    cudnnFilterDescriptor_t wd = nullptr;
    cudnnConvolutionDescriptor_t cd[3] = {nullptr, nullptr, nullptr}; /* fwd, data, filter */
    cudnnConvolutionFwdAlgo_t fwd_algo = CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM;
    cudnnConvolutionBwdDataAlgo_t data_algo = CUDNN_CONVOLUTION_BWD_DATA_ALGO_0;
    cudnnConvolutionBwdFilterAlgo_t filter_algo = CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0;
    size_t weights() const { return (size_t)cout * cin * k * k; }
    size_t in_count(int B) const { return (size_t)B * cin * hin * hin; }
    size_t out_count(int B) const { return (size_t)B * cout * hout * hout; }
};

struct block {
    std::vector<int> main; /* unit indices; the last one's ReLU comes after the add */
    int shortcut = -1;     /* a 1x1 conv + BN unit, or -1 for the identity */
    const float *in = nullptr;
};

/* the algorithms chosen for one layer shape, and their math types */
struct algo_choice {
    cudnnConvolutionFwdAlgo_t f;
    cudnnConvolutionBwdDataAlgo_t d;
    cudnnConvolutionBwdFilterAlgo_t w;
    cudnnMathType_t fm, dm, wm;
    size_t ws;
};

/* ---- elementwise kernels ---------------------------------------------------------- */

static __global__ void relu_k(float *z, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = fmaxf(z[i], 0.f);
}

static __global__ void add_relu_k(float *z, const float *sc, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        z[i] = fmaxf(z[i] + sc[i], 0.f);
}

static __global__ void relu_bwd_k(float *dz, const float *z, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n && !(z[i] > 0.f))
        dz[i] = 0.f;
}

static __global__ void add_k(float *a, const float *b, size_t n)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < n)
        a[i] += b[i];
}

/* feat[bc] = mean of z[bc][0..hw) */
static __global__ void avgpool_k(const float *z, float *feat, size_t bc, int hw)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < bc) {
        float s = 0;
        for (int j = 0; j < hw; j++)
            s += z[i * hw + j];
        feat[i] = s / hw;
    }
}

static __global__ void avgpool_bwd_k(const float *dfeat, float *dz, size_t bc, int hw)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < bc * hw)
        dz[i] = dfeat[i / hw] / hw;
}

static __global__ void bias_add_k(float *logits, const float *bias, int classes, int B)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < (size_t)classes * B)
        logits[i] += bias[i % classes];
}

/* one warp per sample: dlogits = (softmax(logits) - onehot(b % classes)) / B, and the
 * mean cross-entropy added to *loss */
static __global__ void xent_grad_k(const float *logits, float *dlogits, float *loss, int classes,
                                   int B)
{
    int b = blockIdx.x * (blockDim.x / 32) + threadIdx.x / 32, lane = threadIdx.x % 32;
    if (b >= B)
        return;
    const float *l = logits + (size_t)b * classes;
    float m = -1e30f, s = 0;
    for (int c = lane; c < classes; c += 32)
        m = fmaxf(m, l[c]);
    for (int o = 16; o; o /= 2)
        m = fmaxf(m, __shfl_xor_sync(0xffffffff, m, o));
    for (int c = lane; c < classes; c += 32)
        s += __expf(l[c] - m);
    for (int o = 16; o; o /= 2)
        s += __shfl_xor_sync(0xffffffff, s, o);
    for (int c = lane; c < classes; c += 32)
        dlogits[(size_t)b * classes + c] =
            (__expf(l[c] - m) / s - (c == b % classes ? 1.f : 0.f)) / B;
    if (lane == 0)
        atomicAdd(loss, (logf(s) + m - l[b % classes]) / B);
}

#define LAUNCH(kernel, n, ...)                                                               \
    do {                                                                                     \
        kernel<<<bench_blocks((n), 256), 256>>>(__VA_ARGS__);                                \
        CK(cudaGetLastError());                                                              \
    } while (0)

static size_t align64(size_t n)
{
    return (n + 63) / 64 * 64;
}

/* ---- the workload ------------------------------------------------------------------- */

class resnet_workload : public bench_workload {
  public:
    rcfg c;
    std::vector<unit> units;
    std::vector<block> blocks;
    int stem = 0, pool_h = 0, final_c = 0, final_h = 0;
    bool maxpool = false;
    size_t n_params = 0, n_real = 0, n_state = 0, fc_w_off = 0, fc_b_off = 0;

    cudnnHandle_t dnn = nullptr;
    cublasHandle_t blas = nullptr;
    dev_pool pool;
    int B = 0;
    float *params = nullptr, *grads = nullptr, *mom = nullptr, *image = nullptr,
          *pooled = nullptr, *feat = nullptr, *dfeat = nullptr, *logits = nullptr,
          *dlogits = nullptr, *ones = nullptr, *loss = nullptr,
          *tmp[4] = {nullptr, nullptr, nullptr, nullptr};
    void *ws = nullptr;
    size_t ws_bytes = 0;
    cudnnTensorDescriptor_t pooled_d = nullptr;
    cudnnPoolingDescriptor_t pool_desc = nullptr;

    ~resnet_workload() override
    {
        teardown();
        if (dnn)
            cudnnDestroy(dnn);
        if (blas)
            cublasDestroy(blas);
    }

    void handles()
    {
        if (!dnn)
            CD(cudnnCreate(&dnn));
        if (!blas)
            CB(cublasCreate(&blas));
    }

    /* ---- the plan: shapes and parameter offsets, no GPU ---- */

    int add_unit(int cin, int cout, int k, int stride, int hin, bool relu, size_t &off,
                 size_t &st)
    {
        unit u;
        u.cin = cin;
        u.cout = cout;
        u.k = k;
        u.stride = stride;
        u.pad = k / 2;
        u.hin = hin;
        u.hout = (hin + 2 * u.pad - k) / stride + 1;
        u.relu = relu;
        u.w_off = off;
        off += align64(u.weights());
        u.scale_off = off;
        off += align64(cout);
        u.bias_off = off;
        off += align64(cout);
        u.state_off = st;
        st += align64(4 * (size_t)cout);
        n_real += u.weights() + 2 * (size_t)cout;
        units.push_back(u);
        return (int)units.size() - 1;
    }

    static bool valid_depth(int d) { return d == 18 || d == 34 || d == 50 || d == 101 || d == 152; }

    void plan()
    {
        units.clear();
        blocks.clear();
        n_real = 0;
        size_t off = 0, st = 0;
        maxpool = c.image >= 128;
        stem = add_unit(3, c.width, maxpool ? 7 : 3, maxpool ? 2 : 1, c.image, true, off, st);
        units[stem].dgrad = false;
        int h = units[stem].hout;
        if (maxpool)
            h = (h + 2 - 3) / 2 + 1;
        pool_h = h;
        bool bottleneck = c.depth >= 50;
        int counts[4] = {2, 2, 2, 2};
        if (c.depth == 34 || c.depth == 50)
            counts[0] = 3, counts[1] = 4, counts[2] = 6, counts[3] = 3;
        else if (c.depth == 101)
            counts[0] = 3, counts[1] = 4, counts[2] = 23, counts[3] = 3;
        else if (c.depth == 152)
            counts[0] = 3, counts[1] = 8, counts[2] = 36, counts[3] = 3;
        int cin = c.width;
        for (int s = 0; s < 4; s++) {
            int inner = c.width << s, cout = bottleneck ? 4 * inner : inner;
            for (int b = 0; b < counts[s]; b++) {
                int stride = s > 0 && b == 0 ? 2 : 1;
                block bl;
                if (bottleneck) {
                    int u1 = add_unit(cin, inner, 1, 1, h, true, off, st);
                    int u2 = add_unit(inner, inner, 3, stride, units[u1].hout, true, off, st);
                    int u3 = add_unit(inner, cout, 1, 1, units[u2].hout, true, off, st);
                    bl.main = {u1, u2, u3};
                } else {
                    int u1 = add_unit(cin, inner, 3, stride, h, true, off, st);
                    int u2 = add_unit(inner, cout, 3, 1, units[u1].hout, true, off, st);
                    bl.main = {u1, u2};
                }
                if (stride != 1 || cin != cout)
                    bl.shortcut = add_unit(cin, cout, 1, stride, h, false, off, st);
                h = units[bl.main.back()].hout;
                cin = cout;
                blocks.push_back(bl);
            }
        }
        final_c = cin;
        final_h = h;
        fc_w_off = off;
        off += align64((size_t)c.classes * final_c);
        fc_b_off = off;
        off += align64(c.classes);
        n_real += (size_t)c.classes * final_c + c.classes;
        n_params = off;
        n_state = st;
    }

    std::string name() const override
    {
        std::string n = "cudnn-resnet" + std::to_string(c.depth);
        if (c.width != 64)
            n += "-w" + std::to_string(c.width);
        return n + "-" + std::to_string(c.image) + (c.tf32 ? "-fp32" : "-fp32strict");
    }

    std::string notes() const override
    {
        return "built-in ResNet-" + std::to_string(c.depth) + " (profiler/cuda/resnet.cu): cuDNN " +
               std::to_string(cudnnGetVersion()) + ", NCHW fp32" +
               (c.tf32 ? " (TF32 tensor cores allowed)" : " (no TF32)") + ", width " +
               std::to_string(c.width) + ", " + std::to_string(c.image) + "x" +
               std::to_string(c.image) + " images, " + std::to_string(c.classes) +
               " classes; conv algorithms by " +
               (c.algo_search ? "cudnnFind*Ex" : "cudnnGet*_v7 heuristics") + " within " +
               std::to_string(c.workspace_mb) + " MiB; forward, exact backward, SGD momentum; "
               "mem_bytes = device memory taken (cudaMemGetInfo difference)";
    }

    size_t param_bytes() const override
    {
        resnet_workload p; /* the plan, without touching this one's set-up */
        p.c = c;
        p.plan();
        return p.n_real * sizeof(float);
    }

    void describe(FILE *out) const override
    {
        resnet_workload p;
        p.c = c;
        p.plan();
        size_t act = 0;
        fprintf(out, "%s: %zu units (conv + batch norm), %zu blocks\n", p.name().c_str(),
                p.units.size(), p.blocks.size());
        fprintf(out, "  %-4s %5s %5s %2s %2s %4s %4s %10s\n", "unit", "cin", "cout", "k", "s",
                "hin", "hout", "weights");
        for (size_t i = 0; i < p.units.size(); i++) {
            const unit &u = p.units[i];
            fprintf(out, "  %-4zu %5d %5d %2d %2d %4d %4d %10zu\n", i, u.cin, u.cout, u.k,
                    u.stride, u.hin, u.hout, u.weights());
            act += 2 * u.out_count(1);
        }
        fprintf(out, "  stem%s, final %d channels %dx%d, fc %d classes\n",
                p.maxpool ? " 7x7/2 + max-pool 3x3/2" : " 3x3/1", p.final_c, p.final_h,
                p.final_h, c.classes);
        fprintf(out, "parameters: %zu\nactivations kept per sample: %zu floats (%.1f MiB)\n",
                p.n_real, act, act * 4.0 / (1 << 20));
    }

    /* ---- per layer: descriptors, algorithms, the cuDNN calls ---- */

    void make_desc(unit &u, int batch)
    {
        CD(cudnnCreateTensorDescriptor(&u.xd));
        CD(cudnnCreateTensorDescriptor(&u.yd));
        CD(cudnnCreateTensorDescriptor(&u.bnd));
        CD(cudnnCreateFilterDescriptor(&u.wd));
        CD(cudnnSetTensor4dDescriptor(u.xd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, batch, u.cin,
                                      u.hin, u.hin));
        CD(cudnnSetTensor4dDescriptor(u.yd, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, batch, u.cout,
                                      u.hout, u.hout));
        CD(cudnnSetFilter4dDescriptor(u.wd, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, u.cout, u.cin,
                                      u.k, u.k));
        CD(cudnnDeriveBNTensorDescriptor(u.bnd, u.yd, CUDNN_BATCHNORM_SPATIAL));
        for (int d = 0; d < 3; d++) {
            CD(cudnnCreateConvolutionDescriptor(&u.cd[d]));
            CD(cudnnSetConvolution2dDescriptor(u.cd[d], u.pad, u.pad, u.stride, u.stride, 1, 1,
                                               CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
            CD(cudnnSetConvolutionMathType(u.cd[d], c.tf32 ? CUDNN_DEFAULT_MATH : CUDNN_FMA_MATH));
        }
        int n, ch, hh, ww;
        CD(cudnnGetConvolution2dForwardOutputDim(u.cd[0], u.xd, u.wd, &n, &ch, &hh, &ww));
        if (n != batch || ch != u.cout || hh != u.hout || ww != u.hout) {
            fprintf(stderr, "resnet: cuDNN's output shape %dx%dx%dx%d is not the plan's "
                            "%dx%dx%dx%d\n",
                    n, ch, hh, ww, batch, u.cout, u.hout, u.hout);
            exit(1);
        }
    }

    static void free_desc(unit &u)
    {
        if (u.xd)
            cudnnDestroyTensorDescriptor(u.xd);
        if (u.yd)
            cudnnDestroyTensorDescriptor(u.yd);
        if (u.bnd)
            cudnnDestroyTensorDescriptor(u.bnd);
        if (u.wd)
            cudnnDestroyFilterDescriptor(u.wd);
        for (int d = 0; d < 3; d++)
            if (u.cd[d])
                cudnnDestroyConvolutionDescriptor(u.cd[d]);
        u.xd = u.yd = u.bnd = nullptr;
        u.wd = nullptr;
        u.cd[0] = u.cd[1] = u.cd[2] = nullptr;
    }

    /* the fastest (find) or first (heuristics) algorithm per direction that succeeds
     * within `bytes` of workspace; dy and dx are scratch buffers of the output's and
     * the input's size */
    algo_choice choose(unit &u, void *space, size_t bytes, float *dy, float *dx)
    {
        algo_choice a{};
        int max = 0, n = 0, i, p;
        /* cudnnFind times each algorithm once, and in a fresh process the first
         * launch of each of its kernels also loads that kernel's module (CUDA's
         * lazy loading): the first search ranks algorithms partly by their loading
         * time. Measured on an H100: a process that ran only batch 128 chose
         * algorithms 11 % slower (30.0 ms an iteration) than the sweep, whose
         * batch 128 came after 32 and 64 had loaded them (26.9 ms). So the search
         * runs twice and the second ranking is kept. */
        const int passes = 2;
        CD(cudnnGetConvolutionForwardAlgorithmMaxCount(dnn, &max));
        std::vector<cudnnConvolutionFwdAlgoPerf_t> pf(max);
        for (p = 0; c.algo_search && p < passes; p++)
            CD(cudnnFindConvolutionForwardAlgorithmEx(dnn, u.xd, u.x, u.wd, u.w, u.cd[0], u.yd,
                                                      u.y, max, &n, pf.data(), space, bytes));
        if (!c.algo_search)
            CD(cudnnGetConvolutionForwardAlgorithm_v7(dnn, u.xd, u.wd, u.cd[0], u.yd, max, &n,
                                                      pf.data()));
        for (i = 0; i < n && (pf[i].status != CUDNN_STATUS_SUCCESS || pf[i].memory > bytes); i++)
            ;
        if (i == n)
            no_algo(u, "forward");
        a.f = pf[i].algo;
        a.fm = pf[i].mathType;

        if (u.dgrad) {
            CD(cudnnGetConvolutionBackwardDataAlgorithmMaxCount(dnn, &max));
            std::vector<cudnnConvolutionBwdDataAlgoPerf_t> pd(max);
            for (p = 0; c.algo_search && p < passes; p++)
                CD(cudnnFindConvolutionBackwardDataAlgorithmEx(dnn, u.wd, u.w, u.yd, dy, u.cd[1],
                                                               u.xd, dx, max, &n, pd.data(),
                                                               space, bytes));
            if (!c.algo_search)
                CD(cudnnGetConvolutionBackwardDataAlgorithm_v7(dnn, u.wd, u.yd, u.cd[1], u.xd,
                                                               max, &n, pd.data()));
            for (i = 0; i < n && (pd[i].status != CUDNN_STATUS_SUCCESS || pd[i].memory > bytes);
                 i++)
                ;
            if (i == n)
                no_algo(u, "backward data");
            a.d = pd[i].algo;
            a.dm = pd[i].mathType;
        }

        CD(cudnnGetConvolutionBackwardFilterAlgorithmMaxCount(dnn, &max));
        std::vector<cudnnConvolutionBwdFilterAlgoPerf_t> pw(max);
        for (p = 0; c.algo_search && p < passes; p++)
            CD(cudnnFindConvolutionBackwardFilterAlgorithmEx(dnn, u.xd, u.x, u.yd, dy, u.cd[2],
                                                             u.wd, u.dw, max, &n, pw.data(),
                                                             space, bytes));
        if (!c.algo_search)
            CD(cudnnGetConvolutionBackwardFilterAlgorithm_v7(dnn, u.xd, u.yd, u.cd[2], u.wd, max,
                                                             &n, pw.data()));
        for (i = 0; i < n && (pw[i].status != CUDNN_STATUS_SUCCESS || pw[i].memory > bytes); i++)
            ;
        if (i == n)
            no_algo(u, "backward filter");
        a.w = pw[i].algo;
        a.wm = pw[i].mathType;
        return a;
    }

    static void no_algo(const unit &u, const char *dir)
    {
        fprintf(stderr, "resnet: no cuDNN %s algorithm for conv %dx%d/%d %d->%d at %d pixels "
                        "within the workspace (--workspace-mb)\n",
                dir, u.k, u.k, u.stride, u.cin, u.cout, u.hin);
        exit(1);
    }

    /* sets the unit's algorithms and math types; returns the workspace they need */
    size_t apply(unit &u, const algo_choice &a)
    {
        u.fwd_algo = a.f;
        u.data_algo = a.d;
        u.filter_algo = a.w;
        size_t need = 0, s;
        CD(cudnnSetConvolutionMathType(u.cd[0], a.fm));
        CD(cudnnGetConvolutionForwardWorkspaceSize(dnn, u.xd, u.wd, u.cd[0], u.yd, a.f, &s));
        need = std::max(need, s);
        if (u.dgrad) {
            CD(cudnnSetConvolutionMathType(u.cd[1], a.dm));
            CD(cudnnGetConvolutionBackwardDataWorkspaceSize(dnn, u.wd, u.yd, u.cd[1], u.xd, a.d,
                                                            &s));
            need = std::max(need, s);
        }
        CD(cudnnSetConvolutionMathType(u.cd[2], a.wm));
        CD(cudnnGetConvolutionBackwardFilterWorkspaceSize(dnn, u.xd, u.yd, u.cd[2], u.wd, a.w,
                                                          &s));
        return std::max(need, s);
    }

    void conv_fwd(unit &u)
    {
        const float one = 1, zero = 0;
        CD(cudnnConvolutionForward(dnn, &one, u.xd, u.x, u.wd, u.w, u.cd[0], u.fwd_algo, ws,
                                   ws_bytes, &zero, u.yd, u.y));
    }

    void bn_fwd(unit &u)
    {
        const float one = 1, zero = 0;
        float *s = u.state;
        CD(cudnnBatchNormalizationForwardTraining(dnn, CUDNN_BATCHNORM_SPATIAL, &one, &zero, u.yd,
                                                  u.y, u.yd, u.z, u.bnd, u.scale, u.bias, 0.1, s,
                                                  s + u.cout, BN_EPS, s + 2 * u.cout,
                                                  s + 3 * u.cout));
    }

    /* dy = d(BN)/d(y) given dz; parameter gradients overwritten */
    void bn_bwd(unit &u, const float *dz, float *dy)
    {
        const float one = 1, zero = 0;
        float *s = u.state;
        CD(cudnnBatchNormalizationBackward(dnn, CUDNN_BATCHNORM_SPATIAL, &one, &zero, &one, &zero,
                                           u.yd, u.y, u.yd, dz, u.yd, dy, u.bnd, u.scale,
                                           u.dscale, u.dbias, BN_EPS, s + 2 * u.cout,
                                           s + 3 * u.cout));
    }

    void conv_bwd_data(unit &u, const float *dy, float *dx, float beta)
    {
        const float one = 1;
        CD(cudnnConvolutionBackwardData(dnn, &one, u.wd, u.w, u.yd, dy, u.cd[1], u.data_algo, ws,
                                        ws_bytes, &beta, u.xd, dx));
    }

    void conv_bwd_filter(unit &u, const float *dy)
    {
        const float one = 1, zero = 0;
        CD(cudnnConvolutionBackwardFilter(dnn, &one, u.xd, u.x, u.yd, dy, u.cd[2],
                                          u.filter_algo, ws, ws_bytes, &zero, u.wd, u.dw));
    }

    /* ---- set-up ---- */

    void setup(int batch) override
    {
        handles();
        plan();
        B = batch;
        params = pool.get<float>(n_params);
        grads = pool.get<float>(n_params);
        mom = pool.get<float>(n_params);
        float *state = pool.get<float>(n_state);
        CK(cudaMemset(params, 0, n_params * sizeof(float)));
        CK(cudaMemset(grads, 0, n_params * sizeof(float)));
        CK(cudaMemset(mom, 0, n_params * sizeof(float)));
        CK(cudaMemset(state, 0, n_state * sizeof(float)));
        size_t most = 0;
        for (size_t i = 0; i < units.size(); i++) {
            unit &u = units[i];
            u.w = params + u.w_off;
            u.scale = params + u.scale_off;
            u.bias = params + u.bias_off;
            u.dw = grads + u.w_off;
            u.dscale = grads + u.scale_off;
            u.dbias = grads + u.bias_off;
            u.state = state + u.state_off;
            bench_fill_uniform(u.w, u.weights(), 1000 + (unsigned)i,
                               sqrtf(6.f / (u.cin * u.k * u.k)));
            bench_fill(u.scale, u.cout, 1.f);
            u.y = pool.get<float>(u.out_count(B));
            u.z = pool.get<float>(u.out_count(B));
            most = std::max(most, u.out_count(B));
        }
        bench_fill_uniform(params + fc_w_off, (size_t)c.classes * final_c, 7,
                           1.f / sqrtf((float)final_c));
        image = pool.get<float>((size_t)B * 3 * c.image * c.image);
        bench_fill_uniform(image, (size_t)B * 3 * c.image * c.image, 11, 1.f);
        size_t pooled_n = (size_t)B * c.width * pool_h * pool_h;
        pooled = maxpool ? pool.get<float>(pooled_n) : units[stem].z;
        most = std::max(most, pooled_n);
        feat = pool.get<float>((size_t)B * final_c);
        dfeat = pool.get<float>((size_t)B * final_c);
        logits = pool.get<float>((size_t)B * c.classes);
        dlogits = pool.get<float>((size_t)B * c.classes);
        ones = pool.get<float>(B);
        bench_fill(ones, B, 1.f);
        loss = pool.get<float>(1);
        for (float *&t : tmp)
            t = pool.get<float>(most);
        wire();
        for (unit &u : units)
            make_desc(u, B);
        if (maxpool) {
            CD(cudnnCreateTensorDescriptor(&pooled_d));
            CD(cudnnSetTensor4dDescriptor(pooled_d, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, B,
                                          c.width, pool_h, pool_h));
            CD(cudnnCreatePoolingDescriptor(&pool_desc));
            CD(cudnnSetPooling2dDescriptor(pool_desc, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN,
                                           3, 3, 1, 1, 2, 2));
        }
        pick_algorithms();
    }

    /* every unit's input: the block's input for its first unit and shortcut, the
     * previous unit's output after that */
    void wire()
    {
        units[stem].x = image;
        const float *in = pooled;
        for (block &b : blocks) {
            b.in = in;
            for (size_t j = 0; j < b.main.size(); j++)
                units[b.main[j]].x = j ? units[b.main[j - 1]].z : in;
            if (b.shortcut >= 0)
                units[b.shortcut].x = in;
            in = units[b.main.back()].z;
        }
    }

    void pick_algorithms()
    {
        size_t bytes = (size_t)c.workspace_mb << 20;
        void *space = nullptr;
        while (bytes && cudaMalloc(&space, bytes) != cudaSuccess) {
            cudaGetLastError();
            bytes /= 2;
        }
        CK(cudaDeviceSynchronize());
        std::map<std::vector<int>, algo_choice> seen;
        size_t need = 0;
        for (unit &u : units) {
            std::vector<int> key = {u.cin, u.cout, u.k, u.stride, u.hin, u.dgrad};
            auto it = seen.find(key);
            if (it == seen.end())
                it = seen.emplace(key, choose(u, space, bytes, tmp[0], tmp[1])).first;
            need = std::max(need, apply(u, it->second));
        }
        CK(cudaDeviceSynchronize());
        cudaFree(space);
        ws_bytes = need;
        ws = pool.alloc(need);
    }

    void teardown() override
    {
        for (unit &u : units)
            free_desc(u);
        if (pooled_d)
            cudnnDestroyTensorDescriptor(pooled_d);
        if (pool_desc)
            cudnnDestroyPoolingDescriptor(pool_desc);
        pooled_d = nullptr;
        pool_desc = nullptr;
        pool.free_all();
    }

    /* ---- the iteration ---- */

    void forward_backward() override
    {
        const float one = 1, zero = 0;
        unit &s0 = units[stem];
        conv_fwd(s0);
        bn_fwd(s0);
        LAUNCH(relu_k, s0.out_count(B), s0.z, s0.out_count(B));
        if (maxpool)
            CD(cudnnPoolingForward(dnn, pool_desc, &one, s0.yd, s0.z, &zero, pooled_d, pooled));
        for (block &b : blocks) {
            if (b.shortcut >= 0) {
                conv_fwd(units[b.shortcut]);
                bn_fwd(units[b.shortcut]);
            }
            for (size_t j = 0; j < b.main.size(); j++) {
                unit &u = units[b.main[j]];
                conv_fwd(u);
                bn_fwd(u);
                size_t n = u.out_count(B);
                if (j + 1 < b.main.size())
                    LAUNCH(relu_k, n, u.z, n);
                else
                    LAUNCH(add_relu_k, n, u.z, b.shortcut >= 0 ? units[b.shortcut].z : b.in, n);
            }
        }
        const float *last = units[blocks.back().main.back()].z;
        size_t bc = (size_t)B * final_c;
        int hw = final_h * final_h;
        LAUNCH(avgpool_k, bc, last, feat, bc, hw);
        float *fw = params + fc_w_off, *fb = params + fc_b_off;
        CB(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_N, c.classes, B, final_c, &one, fw, c.classes,
                       feat, final_c, &zero, logits, c.classes));
        LAUNCH(bias_add_k, (size_t)c.classes * B, logits, fb, c.classes, B);
        CK(cudaMemsetAsync(loss, 0, sizeof(float)));
        xent_grad_k<<<bench_blocks(B, 8), 256>>>(logits, dlogits, loss, c.classes, B);
        CK(cudaGetLastError());
        /* classifier backward: dW = dlogits feat^T, db = dlogits 1, dfeat = W^T dlogits */
        CB(cublasSgemm(blas, CUBLAS_OP_N, CUBLAS_OP_T, c.classes, final_c, B, &one, dlogits,
                       c.classes, feat, final_c, &zero, grads + fc_w_off, c.classes));
        CB(cublasSgemv(blas, CUBLAS_OP_N, c.classes, B, &one, dlogits, c.classes, ones, 1, &zero,
                       grads + fc_b_off, 1));
        CB(cublasSgemm(blas, CUBLAS_OP_T, CUBLAS_OP_N, final_c, B, c.classes, &one, fw, c.classes,
                       dlogits, c.classes, &zero, dfeat, final_c));
        float *g_out = tmp[2], *g_in = tmp[3], *t1 = tmp[0], *t2 = tmp[1];
        LAUNCH(avgpool_bwd_k, bc * hw, dfeat, g_out, bc, hw);
        for (size_t bi = blocks.size(); bi-- > 0;) {
            block_backward(blocks[bi], g_out, g_in, t1, t2);
            std::swap(g_in, g_out);
        }
        /* g_out: the gradient of the stem's output (after max-pool when there is one) */
        size_t n = s0.out_count(B);
        float *dz = g_out;
        if (maxpool) {
            CD(cudnnPoolingBackward(dnn, pool_desc, &one, pooled_d, pooled, pooled_d, g_out,
                                    s0.yd, s0.z, &zero, s0.yd, t1));
            dz = t1;
        }
        LAUNCH(relu_bwd_k, n, dz, s0.z, n);
        float *dy = dz == t1 ? t2 : t1;
        bn_bwd(s0, dz, dy);
        conv_bwd_filter(s0, dy);
    }

    /* g_out: the gradient of the block's output (destroyed); g_in receives its input's */
    void block_backward(block &b, float *g_out, float *g_in, float *t1, float *t2)
    {
        unit &last = units[b.main.back()];
        size_t n = last.out_count(B);
        LAUNCH(relu_bwd_k, n, g_out, last.z, n);
        const float *cur = g_out;
        for (size_t j = b.main.size(); j-- > 0;) {
            unit &u = units[b.main[j]];
            if (j + 1 < b.main.size())
                LAUNCH(relu_bwd_k, u.out_count(B), t2, u.z, u.out_count(B));
            bn_bwd(u, cur, t1);
            conv_bwd_filter(u, t1);
            conv_bwd_data(u, t1, j ? t2 : g_in, 0.f);
            cur = t2;
        }
        if (b.shortcut >= 0) {
            unit &s = units[b.shortcut];
            bn_bwd(s, g_out, t1);
            conv_bwd_filter(s, t1);
            conv_bwd_data(s, t1, g_in, 1.f); /* accumulates onto the main path's */
        } else {
            size_t m = units[b.main[0]].in_count(B);
            LAUNCH(add_k, m, g_in, g_out, m);
        }
    }

    void update() override { bench_sgd(params, grads, mom, n_params, 1e-3f); }

    int self_test(FILE *out) override;
};

/* ---- self-test ---------------------------------------------------------------------- */

static std::vector<float> host_uniform(size_t n, unsigned seed, float lo, float hi)
{
    std::vector<float> v(n);
    unsigned s = seed * 2654435761u + 1;
    for (float &x : v) {
        s = s * 1664525u + 1013904223u;
        x = lo + (hi - lo) * ((s >> 8) / 16777216.f);
    }
    return v;
}

static std::vector<double> to_double(const float *d, size_t n)
{
    std::vector<float> h(n);
    CK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    return std::vector<double>(h.begin(), h.end());
}

static float *upload(dev_pool &p, const std::vector<float> &h)
{
    float *d = p.get<float>(h.size());
    CK(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}

static int report(FILE *out, const char *what, double err, double tol)
{
    fprintf(out, "self-test: %s vs float64 CPU: relative error %.2e (%s)\n", what, err,
            err < tol ? "ok" : "FAIL");
    return err < tol ? 0 : 1;
}

/* One 3x3/2 convolution (N=2, 3->4 channels, 9x9) forward, backward data and filter,
 * then batch norm forward and backward on its output, against float64 loops. */
static int check_layer(resnet_workload &w, FILE *out)
{
    const int N = 2;
    unit u;
    u.cin = 3, u.cout = 4, u.k = 3, u.stride = 2, u.pad = 1, u.hin = 9;
    u.hout = (u.hin + 2 * u.pad - u.k) / u.stride + 1;
    size_t nx = u.in_count(N), ny = u.out_count(N), nw = u.weights(), C = u.cout;
    std::vector<float> hx = host_uniform(nx, 1, -1, 1), hw = host_uniform(nw, 2, -0.5f, 0.5f),
                       hdy = host_uniform(ny, 3, -1, 1), hdz = host_uniform(ny, 4, -1, 1),
                       hg = host_uniform(C, 5, 0.5f, 1.5f), hb = host_uniform(C, 6, -0.2f, 0.2f);
    dev_pool p;
    u.x = upload(p, hx);
    u.w = upload(p, hw);
    float *dy = upload(p, hdy), *dz = upload(p, hdz), *dx = p.get<float>(nx);
    u.scale = upload(p, hg);
    u.bias = upload(p, hb);
    u.y = p.get<float>(ny);
    u.z = p.get<float>(ny);
    u.dw = p.get<float>(nw);
    u.dscale = p.get<float>(C);
    u.dbias = p.get<float>(C);
    u.state = p.get<float>(4 * C);
    float *dyb = p.get<float>(ny);
    CK(cudaMemset(u.state, 0, 4 * C * sizeof(float)));
    w.make_desc(u, N);
    size_t bytes = 64 << 20;
    void *space = p.alloc(bytes);
    w.ws_bytes = w.apply(u, w.choose(u, space, bytes, dyb, dx));
    w.ws = p.alloc(w.ws_bytes);
    w.conv_fwd(u);
    w.conv_bwd_data(u, dy, dx, 0.f);
    w.conv_bwd_filter(u, dy);
    w.bn_fwd(u);
    w.bn_bwd(u, dz, dyb);
    CK(cudaDeviceSynchronize());

    int H = u.hin, O = u.hout, K = u.k;
    std::vector<double> ry(ny, 0), rdx(nx, 0), rdw(nw, 0);
    for (int n = 0; n < N; n++)
        for (int k = 0; k < u.cout; k++)
            for (int oh = 0; oh < O; oh++)
                for (int ow = 0; ow < O; ow++)
                    for (int ci = 0; ci < u.cin; ci++)
                        for (int r = 0; r < K; r++)
                            for (int s = 0; s < K; s++) {
                                int ih = oh * u.stride - u.pad + r, iw = ow * u.stride - u.pad + s;
                                if (ih < 0 || ih >= H || iw < 0 || iw >= H)
                                    continue;
                                size_t xi = (((size_t)n * u.cin + ci) * H + ih) * H + iw;
                                size_t yi = (((size_t)n * u.cout + k) * O + oh) * O + ow;
                                size_t wi = (((size_t)k * u.cin + ci) * K + r) * K + s;
                                ry[yi] += (double)hx[xi] * hw[wi];
                                rdx[xi] += (double)hdy[yi] * hw[wi];
                                rdw[wi] += (double)hx[xi] * hdy[yi];
                            }
    int bad = 0;
    bad |= report(out, "conv 3x3/2 forward", bench_rel_err(to_double(u.y, ny), ry), 3e-2);
    bad |= report(out, "conv backward data", bench_rel_err(to_double(dx, nx), rdx), 3e-2);
    bad |= report(out, "conv backward filter", bench_rel_err(to_double(u.dw, nw), rdw), 3e-2);

    /* batch norm on the GPU's conv output */
    std::vector<double> y = to_double(u.y, ny), rz(ny), rdy(ny), rdg(C), rdb(C);
    size_t M = (size_t)N * O * O;
    for (size_t k = 0; k < C; k++) {
        double mean = 0, var = 0, sdz = 0, sdzx = 0;
        auto at = [&](size_t n, size_t i) { return (n * C + k) * O * O + i; };
        for (int n = 0; n < N; n++)
            for (int i = 0; i < O * O; i++)
                mean += y[at(n, i)] / M;
        for (int n = 0; n < N; n++)
            for (int i = 0; i < O * O; i++)
                var += (y[at(n, i)] - mean) * (y[at(n, i)] - mean) / M;
        double inv = 1 / sqrt(var + BN_EPS);
        for (int n = 0; n < N; n++)
            for (int i = 0; i < O * O; i++) {
                size_t j = at(n, i);
                double xh = (y[j] - mean) * inv;
                rz[j] = hg[k] * xh + hb[k];
                sdz += hdz[j];
                sdzx += hdz[j] * xh;
            }
        rdg[k] = sdzx;
        rdb[k] = sdz;
        for (int n = 0; n < N; n++)
            for (int i = 0; i < O * O; i++) {
                size_t j = at(n, i);
                double xh = (y[j] - mean) * inv;
                rdy[j] = hg[k] * inv / M * (M * hdz[j] - sdz - xh * sdzx);
            }
    }
    bad |= report(out, "batch-norm forward", bench_rel_err(to_double(u.z, ny), rz), 1e-3);
    bad |= report(out, "batch-norm backward", bench_rel_err(to_double(dyb, ny), rdy), 1e-3);
    bad |= report(out, "batch-norm scale/bias gradients",
                  bench_rel_err(to_double(u.dscale, C), rdg) +
                      bench_rel_err(to_double(u.dbias, C), rdb),
                  1e-3);
    resnet_workload::free_desc(u);
    p.free_all();
    return bad;
}

/* After a failed whole-network check: the same check along each unit's own part of the
 * gradient (its conv weights, BN scale and bias) at step 1e-4, printing the units whose
 * central difference is more than 10 % off: where the wrong gradient is. */
static void blame_units(resnet_workload &t, const std::vector<double> &g, FILE *out)
{
    for (size_t i = 0; i < t.units.size(); i++) {
        const unit &u = t.units[i];
        std::vector<float> dir(g.size(), 0.f);
        size_t ranges[3][2] = {{u.w_off, u.weights()},
                               {u.scale_off, (size_t)u.cout},
                               {u.bias_off, (size_t)u.cout}};
        double n2 = 0;
        for (auto &r : ranges)
            for (size_t k = r[0]; k < r[0] + r[1]; k++)
                n2 += g[k] * g[k];
        double nu = sqrt(n2);
        if (!(nu > 0))
            continue;
        for (auto &r : ranges)
            for (size_t k = r[0]; k < r[0] + r[1]; k++)
                dir[k] = (float)(g[k] / nu);
        dev_pool p;
        float *d_dir = upload(p, dir), loss[2];
        const float eps = 1e-4f, step[2] = {eps, -2 * eps}, back = eps;
        for (int k = 0; k < 2; k++) {
            CB(cublasSaxpy(t.blas, (int)t.n_params, &step[k], d_dir, 1, t.params, 1));
            t.forward_backward();
            CK(cudaMemcpy(&loss[k], t.loss, sizeof(float), cudaMemcpyDeviceToHost));
        }
        CB(cublasSaxpy(t.blas, (int)t.n_params, &back, d_dir, 1, t.params, 1));
        double fd = ((double)loss[0] - loss[1]) / (2 * eps), e = fabs(fd - nu) / nu;
        if (e > 0.1)
            fprintf(out, "self-test:   unit %zu (%dx%d/%d, %d -> %d channels, %d px in): |gradient| "
                         "%.6g vs central difference %.6g (relative error %.2e)\n",
                    i, u.k, u.k, u.stride, u.cin, u.cout, u.hin, nu, fd, e);
        p.free_all();
    }
}

/* The whole backward pass of a tiny network, checked: the loss's central difference
 * along the computed gradient g, (L(p + eps g/|g|) - L(p - eps g/|g|)) / 2 eps, must be
 * |g| within 3 % at eps 1e-3, 1e-4 or 1e-5 (no TF32 here, so that only the gradient's
 * errors show). Then three training
 * iterations: every parameter stays finite and most move. */
static int check_network(const rcfg &base, int depth, int width, int image, FILE *out)
{
    resnet_workload t;
    t.c = base;
    t.c.depth = depth;
    t.c.width = width;
    t.c.image = image;
    t.c.classes = 10;
    t.c.tf32 = 0;
    t.setup(4);
    std::vector<double> before = to_double(t.params, t.n_params);
    t.forward_backward();
    std::vector<double> g = to_double(t.grads, t.n_params);
    double norm = 0;
    for (double x : g)
        norm += x * x;
    norm = sqrt(norm);
    std::vector<float> dir(g.size());
    for (size_t i = 0; i < g.size(); i++)
        dir[i] = (float)(g[i] / (norm > 0 ? norm : 1));
    dev_pool p;
    float *d_dir = upload(p, dir), loss[2];
    /* three steps: the loss is piecewise smooth (ReLU and max-pool switch), so a step
     * that crosses switches is off by O(step); the bottleneck network's loss is steep
     * (|g| ~140 at batch 4): on an H100 its error was 27.5 % at 1e-3 and 4.2 % at 1e-4,
     * with no unit over 10 % (blame_units). A wrong gradient is off at every step; a
     * right one comes closer as the step shrinks. */
    const float epss[3] = {1e-3f, 1e-4f, 1e-5f};
    double fd[3], err[3];
    for (int e = 0; e < 3; e++) {
        const float eps = epss[e], step[2] = {eps, -2 * eps};
        for (int k = 0; k < 2; k++) {
            CB(cublasSaxpy(t.blas, (int)t.n_params, &step[k], d_dir, 1, t.params, 1));
            t.forward_backward();
            CK(cudaMemcpy(&loss[k], t.loss, sizeof(float), cudaMemcpyDeviceToHost));
        }
        const float back = eps;
        CB(cublasSaxpy(t.blas, (int)t.n_params, &back, d_dir, 1, t.params, 1));
        fd[e] = ((double)loss[0] - loss[1]) / (2 * eps);
        err[e] = fabs(fd[e] - norm) / norm;
    }
    int bad = !(err[0] < 3e-2 || err[1] < 3e-2 || err[2] < 3e-2);
    if (bad)
        blame_units(t, g, out);
    fprintf(out, "self-test: %s backward: |gradient| %.6g vs central difference of the loss "
                 "along it %.6g, %.6g, %.6g (steps 1e-3, 1e-4, 1e-5): relative error %.2e, %.2e, "
                 "%.2e (%s)\n",
            t.name().c_str(), norm, fd[0], fd[1], fd[2], err[0], err[1], err[2],
            bad ? "FAIL" : "ok");
    p.free_all();

    for (int i = 0; i < 3; i++) {
        t.forward_backward();
        t.update();
    }
    CK(cudaDeviceSynchronize());
    std::vector<double> after = to_double(t.params, t.n_params);
    size_t finite = 0, moved = 0;
    for (size_t i = 0; i < after.size(); i++) {
        finite += std::isfinite(after[i]) != 0;
        moved += after[i] != before[i];
    }
    bool ok = finite == after.size() && moved >= t.n_real / 2;
    fprintf(out, "self-test: %s, batch 4, 3 iterations: %zu/%zu parameters finite, %zu of %zu "
                 "moved (%s)\n",
            t.name().c_str(), finite, after.size(), moved, t.n_real, ok ? "ok" : "FAIL");
    return bad | (ok ? 0 : 1);
}

int resnet_workload::self_test(FILE *out)
{
    handles();
    int bad = check_layer(*this, out);
    bad |= check_network(c, 18, 8, 32, out);
    bad |= check_network(c, 50, 4, 128, out);
    return bad;
}

int resnet_main(int argc, char **argv)
{
    resnet_workload w;
    bench_common bc;
    bc.batches = {16, 32, 64, 128, 256};
    std::vector<bench_opt> opts = {
        {"depth", &w.c.depth, 18, "18, 34 (basic blocks), 50, 101, 152 (bottlenecks)"},
        {"width", &w.c.width, 1, "channels of the first stage (64 as ResNet)"},
        {"image", &w.c.image, 8, "image side; >= 128: ImageNet stem, else CIFAR stem"},
        {"classes", &w.c.classes, 1, "classifier outputs"},
        {"algo-search", &w.c.algo_search, 0, "1: cudnnFind (measure), 0: cudnnGet_v7 heuristics"},
        {"workspace-mb", &w.c.workspace_mb, 0, "most cuDNN workspace per convolution, MiB"},
        {"tf32", &w.c.tf32, 0, "1: TF32 tensor cores allowed in convolutions, 0: not"},
    };
    int rc = bench_parse(argc, argv, "resnet",
                         "One training iteration of a ResNet (cuDNN, fp32 NCHW): conv + batch norm "
                         "+ ReLU\nblocks with residual adds, average pool, classifier GEMM, "
                         "softmax cross-entropy,\nexact backward, SGD with momentum. ResNet-50 at "
                         "224: the defaults; ResNet-18:\n--depth 18; CIFAR: --image 32 "
                         "--classes 10.",
                         bc, opts);
    if (rc)
        return rc < 0 ? 0 : rc;
    if (!resnet_workload::valid_depth(w.c.depth) || w.c.algo_search > 1 || w.c.tf32 > 1) {
        fprintf(stderr, "mlsched-gpu-bench resnet: --depth must be 18, 34, 50, 101 or 152; "
                        "--algo-search and --tf32 0 or 1\n");
        return 2;
    }
    return bench_run_training(w, bc);
}
