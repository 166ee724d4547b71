/* recsys.cu: mlsched-gpu-bench's recommendation workload: one training iteration of
 * a DLRM-like model, fp32.
 *
 * Per sample: `dense` continuous features through a bottom MLP (dense -> H/2 -> H/4 ->
 * dim, ReLU), and for each of T embedding tables (`rows` x `dim`) `lookups` rows
 * gathered and summed (DLRM's pooled embedding bags); the bottom output and the T
 * pooled vectors are concatenated (DLRM's "cat" interaction; the default dot
 * interaction is not modelled) into a top MLP (-> H -> H -> H/2 -> H/4 -> 1, ReLU
 * between) and a sigmoid binary cross-entropy. With the defaults the MLP widths are
 * MLPerf DLRM's (H = 1024, dim 128, 13 dense features, 26 tables; its tables hold up
 * to 40M rows and span several GPUs, here every table has --rows rows on one GPU).
 * The GEMMs are cuBLAS (fp32, no TF32, as PyTorch's default for matmul); the
 * backward pass is exact; the dense parameters take SGD with momentum, the
 * embedding rows plain SGD applied sparsely: a scatter-add (atomicAdd) of -lr times
 * each pooled gradient into every row it was gathered from (duplicates add up), as
 * DLRM's sparse SGD. Each iteration draws new indices (uniform, hashed from the
 * iteration number; real traffic is skewed, so caches help it more), dense features
 * and labels on the GPU. --self-test checks the gather and the scatter-add (with
 * duplicate rows, a dimension above a warp, a strided output) and one MLP layer's
 * forward and backward against a float64 CPU reference; on a tiny model, the MLPs'
 * backward (the loss's central difference along the gradient equals its norm), then
 * three iterations that keep everything finite and move the parameters.
 * --grad-bytes model all-reduces the dense MLP gradient only (embeddings are
 * model-parallel in DLRM: an all-to-all, not modelled). */
#include "profiler/cuda/bench.h"

#include <algorithm>
#include <cmath>
#include <cstring>

struct scfg {
    int tables = 26, rows = 1000000, dim = 128, lookups = 1, dense = 13, hidden = 1024;
};

/* one fully connected layer: y[out x B] (leading dimension ldy) = W x[in x B] + b */
struct fc_layer {
    int in = 0, out = 0, ldx = 0, ldy = 0;
    bool relu = true;
    size_t w_off = 0, b_off = 0;
    const float *x = nullptr;
    float *y = nullptr, *dy = nullptr, *dx = nullptr; /* dx null: no input gradient */
};

static __device__ __forceinline__ unsigned mix(unsigned h)
{
    h ^= h >> 16;
    h *= 0x7feb352d;
    h ^= h >> 15;
    h *= 0x846ca68b;
    h ^= h >> 16;
    return h;
}

/* the batch: indices (B x T x L), dense features (dense x B) in [0,1), labels 0/1 */
static __global__ void make_batch_k(int *idx, const int *rows, float *dense_x, float *labels, int B,
                             int T, int L, int dense, unsigned seed)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    size_t n_idx = (size_t)B * T * L;
    if (i < n_idx) {
        int t = (int)(i / L % T);
        idx[i] = (int)(mix((unsigned)i * 2654435761u ^ seed) % (unsigned)rows[t]);
    }
    if (i < (size_t)dense * B)
        dense_x[i] = (mix((unsigned)i ^ seed * 40503u) & 0xffff) / 65536.f;
    if (i < (size_t)B)
        labels[i] = (float)(mix((unsigned)i + seed) & 1);
}

/* one warp per (sample, table): out[b*ld + row0 + t*dim + k] = sum_l table_t[idx][k] */
static __global__ void gather_k(const float *tables, const long long *offs, const int *idx,
                                float *out, int ld, int row0, int B, int T, int L, int dim)
{
    size_t w = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (w >= (size_t)B * T)
        return;
    int b = (int)(w / T), t = (int)(w % T);
    const int *ix = idx + w * L;
    const float *tab = tables + offs[t];
    float *o = out + (size_t)b * ld + row0 + (size_t)t * dim;
    for (int k = lane; k < dim; k += 32) {
        float s = 0;
        for (int l = 0; l < L; l++)
            s += tab[(size_t)ix[l] * dim + k];
        o[k] = s;
    }
}

/* the sparse SGD step: table_t[idx][k] -= lr * grad[b*ld + row0 + t*dim + k] */
static __global__ void scatter_sgd_k(float *tables, const long long *offs, const int *idx,
                              const float *grad, int ld, int row0, int B, int T, int L, int dim,
                              float lr)
{
    size_t w = (blockIdx.x * (size_t)blockDim.x + threadIdx.x) / 32;
    int lane = threadIdx.x % 32;
    if (w >= (size_t)B * T)
        return;
    int b = (int)(w / T), t = (int)(w % T);
    const int *ix = idx + w * L;
    float *tab = tables + offs[t];
    const float *g = grad + (size_t)b * ld + row0 + (size_t)t * dim;
    for (int k = lane; k < dim; k += 32) {
        float v = -lr * g[k];
        for (int l = 0; l < L; l++)
            atomicAdd(&tab[(size_t)ix[l] * dim + k], v);
    }
}

static __global__ void bias_act_k(float *y, int ld, const float *bias, int out, int B, bool relu)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < (size_t)out * B) {
        size_t r = i % out, b = i / out;
        float v = y[b * ld + r] + bias[r];
        y[b * ld + r] = relu ? fmaxf(v, 0.f) : v;
    }
}

static __global__ void relu_bwd_k(float *dy, const float *y, int ld, int out, int B)
{
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    if (i < (size_t)out * B) {
        size_t j = i / out * ld + i % out;
        if (!(y[j] > 0.f))
            dy[j] = 0.f;
    }
}

/* d(mean BCE)/d(logit) = (sigmoid(z) - label) / B; the mean BCE added to *loss */
static __global__ void bce_grad_k(const float *z, const float *label, float *dz, float *loss,
                                  int B)
{
    int b = blockIdx.x * blockDim.x + threadIdx.x;
    if (b < B) {
        float x = z[b];
        dz[b] = (1.f / (1.f + expf(-x)) - label[b]) / B;
        atomicAdd(loss, (fmaxf(x, 0.f) - x * label[b] + log1pf(expf(-fabsf(x)))) / B);
    }
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

static void gather(const float *tables, const long long *offs, const int *idx, float *out, int ld,
                   int row0, int B, int T, int L, int dim)
{
    LAUNCH(gather_k, (size_t)B * T * 32, tables, offs, idx, out, ld, row0, B, T, L, dim);
}

static void scatter_sgd(float *tables, const long long *offs, const int *idx, const float *grad,
                        int ld, int row0, int B, int T, int L, int dim, float lr)
{
    LAUNCH(scatter_sgd_k, (size_t)B * T * 32, tables, offs, idx, grad, ld, row0, B, T, L, dim,
           lr);
}

static void fc_forward(cublasHandle_t h, const fc_layer &l, const float *params, int B)
{
    const float one = 1, zero = 0;
    CB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, l.out, B, l.in, &one, params + l.w_off, l.out,
                   l.x, l.ldx, &zero, l.y, l.ldy));
    LAUNCH(bias_act_k, (size_t)l.out * B, l.y, l.ldy, params + l.b_off, l.out, B, l.relu);
}

/* dy is the gradient of the layer's output (after ReLU); it is masked in place */
static void fc_backward(cublasHandle_t h, const fc_layer &l, const float *params, float *grads,
                        const float *ones, int B)
{
    const float one = 1, zero = 0;
    if (l.relu)
        LAUNCH(relu_bwd_k, (size_t)l.out * B, l.dy, l.y, l.ldy, l.out, B);
    CB(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, l.out, l.in, B, &one, l.dy, l.ldy, l.x, l.ldx,
                   &zero, grads + l.w_off, l.out));
    CB(cublasSgemv(h, CUBLAS_OP_N, l.out, B, &one, l.dy, l.ldy, ones, 1, &zero, grads + l.b_off,
                   1));
    if (l.dx)
        CB(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, l.in, B, l.out, &one, params + l.w_off, l.out,
                       l.dy, l.ldy, &zero, l.dx, l.ldx));
}

class recsys_workload : public bench_workload {
  public:
    scfg c;
    std::vector<fc_layer> bottom, top;
    size_t n_params = 0, n_real = 0;
    int concat = 0;

    cublasHandle_t blas = nullptr;
    dev_pool pool;
    int B = 0;
    unsigned iter = 0;
    float *params = nullptr, *grads = nullptr, *mom = nullptr, *tables = nullptr,
          *dense_x = nullptr, *labels = nullptr, *cat = nullptr, *dcat = nullptr,
          *ones = nullptr, *loss = nullptr;
    bool hold_batch = false; /* the self-test's gradient check keeps one batch */
    long long *offs = nullptr;
    int *rows_d = nullptr, *idx = nullptr;

    ~recsys_workload() override
    {
        pool.free_all();
        if (blas)
            cublasDestroy(blas);
    }

    void plan()
    {
        bottom.clear();
        top.clear();
        n_params = n_real = 0;
        concat = c.dim * (1 + c.tables);
        int H = c.hidden;
        auto add = [&](std::vector<fc_layer> &v, int in, int out, bool relu) {
            fc_layer l;
            l.in = in;
            l.out = out;
            l.ldx = in;
            l.ldy = out;
            l.relu = relu;
            l.w_off = n_params;
            n_params += align64((size_t)in * out);
            l.b_off = n_params;
            n_params += align64(out);
            n_real += (size_t)in * out + out;
            v.push_back(l);
        };
        add(bottom, c.dense, std::max(H / 2, 1), true);
        add(bottom, std::max(H / 2, 1), std::max(H / 4, 1), true);
        add(bottom, std::max(H / 4, 1), c.dim, true);
        add(top, concat, H, true);
        add(top, H, H, true);
        add(top, H, std::max(H / 2, 1), true);
        add(top, std::max(H / 2, 1), std::max(H / 4, 1), true);
        add(top, std::max(H / 4, 1), 1, false);
        bottom.back().ldy = concat; /* writes rows [0, dim) of the concatenation */
        top.front().ldx = concat;
    }

    std::string name() const override
    {
        return "recsys-t" + std::to_string(c.tables) + "-r" + std::to_string(c.rows) + "-d" +
               std::to_string(c.dim) + "-l" + std::to_string(c.lookups) + "-h" +
               std::to_string(c.hidden);
    }

    std::string notes() const override
    {
        return "built-in DLRM-like recommendation model (profiler/cuda/recsys.cu): fp32, " +
               std::to_string(c.tables) + " tables x " + std::to_string(c.rows) + " rows x " +
               std::to_string(c.dim) + ", " + std::to_string(c.lookups) +
               " lookups per table per sample (uniform), cat interaction, bottom/top MLPs of "
               "width " + std::to_string(c.hidden) + " (cuBLAS, no TF32), sparse SGD on the "
               "embeddings (scatter-add), SGD momentum on the MLPs; mem_bytes = device memory "
               "taken (cudaMemGetInfo difference)";
    }

    size_t param_bytes() const override
    {
        recsys_workload p;
        p.c = c;
        p.plan();
        return p.n_real * sizeof(float);
    }

    void describe(FILE *out) const override
    {
        recsys_workload p;
        p.c = c;
        p.plan();
        size_t emb = (size_t)c.tables * c.rows * c.dim;
        fprintf(out, "%s:\n", p.name().c_str());
        for (const fc_layer &l : p.bottom)
            fprintf(out, "  bottom %5d -> %5d%s\n", l.in, l.out, l.relu ? " relu" : "");
        fprintf(out, "  embeddings: %d tables x %d rows x %d (%.2f GiB), %d lookups each\n",
                c.tables, c.rows, c.dim, emb * 4.0 / (1 << 30), c.lookups);
        for (const fc_layer &l : p.top)
            fprintf(out, "  top    %5d -> %5d%s\n", l.in, l.out, l.relu ? " relu" : "");
        fprintf(out, "dense parameters: %zu\nembedding parameters: %zu\n", p.n_real, emb);
    }

    void setup(int batch) override
    {
        if (!blas)
            CB(cublasCreate(&blas));
        plan();
        B = batch;
        size_t emb = (size_t)c.tables * c.rows * c.dim;
        tables = pool.get<float>(emb);
        bench_fill_uniform(tables, emb, 3, 0.05f);
        std::vector<long long> h_offs(c.tables);
        std::vector<int> h_rows(c.tables, c.rows);
        for (int t = 0; t < c.tables; t++)
            h_offs[t] = (long long)t * c.rows * c.dim;
        offs = pool.get<long long>(c.tables);
        rows_d = pool.get<int>(c.tables);
        CK(cudaMemcpy(offs, h_offs.data(), c.tables * sizeof(long long), cudaMemcpyHostToDevice));
        CK(cudaMemcpy(rows_d, h_rows.data(), c.tables * sizeof(int), cudaMemcpyHostToDevice));
        params = pool.get<float>(n_params);
        grads = pool.get<float>(n_params);
        mom = pool.get<float>(n_params);
        CK(cudaMemset(params, 0, n_params * sizeof(float)));
        CK(cudaMemset(grads, 0, n_params * sizeof(float)));
        CK(cudaMemset(mom, 0, n_params * sizeof(float)));
        idx = pool.get<int>((size_t)B * c.tables * c.lookups);
        dense_x = pool.get<float>((size_t)B * c.dense);
        labels = pool.get<float>(B);
        ones = pool.get<float>(B);
        bench_fill(ones, B, 1.f);
        loss = pool.get<float>(1);
        cat = pool.get<float>((size_t)B * concat);
        dcat = pool.get<float>((size_t)B * concat);
        wire(bottom, dense_x, nullptr);
        wire(top, cat, dcat);
        bottom.back().y = cat;
        bottom.back().dy = dcat;
    }

    /* each layer's output (and its gradient) is the next one's input */
    void wire(std::vector<fc_layer> &v, const float *x, float *dx)
    {
        for (size_t i = 0; i < v.size(); i++) {
            fc_layer &l = v[i];
            l.x = x;
            l.dx = dx;
            bench_fill_uniform(params + l.w_off, (size_t)l.in * l.out, 100 + (unsigned)i,
                               sqrtf(6.f / l.in));
            l.y = pool.get<float>((size_t)l.out * B);
            l.dy = pool.get<float>((size_t)l.out * B);
            x = l.y;
            dx = l.dy;
        }
    }

    void forward_backward() override
    {
        int T = c.tables, L = c.lookups;
        size_t n = std::max({(size_t)B * T * L, (size_t)B * c.dense, (size_t)B});
        LAUNCH(make_batch_k, n, idx, rows_d, dense_x, labels, B, T, L, c.dense,
               0x9e3779b9u * (hold_batch ? iter : ++iter));
        for (const fc_layer &l : bottom)
            fc_forward(blas, l, params, B);
        gather(tables, offs, idx, cat, concat, c.dim, B, T, L, c.dim);
        for (const fc_layer &l : top)
            fc_forward(blas, l, params, B);
        CK(cudaMemsetAsync(loss, 0, sizeof(float)));
        bce_grad_k<<<bench_blocks(B, 256), 256>>>(top.back().y, labels, top.back().dy, loss, B);
        CK(cudaGetLastError());
        for (size_t i = top.size(); i-- > 0;)
            fc_backward(blas, top[i], params, grads, ones, B);
        for (size_t i = bottom.size(); i-- > 0;)
            fc_backward(blas, bottom[i], params, grads, ones, B);
    }

    void update() override
    {
        scatter_sgd(tables, offs, idx, dcat, concat, c.dim, B, c.tables, c.lookups, c.dim, 1e-2f);
        bench_sgd(params, grads, mom, n_params, 1e-3f);
    }

    void teardown() override { pool.free_all(); }

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

template <class T> static T *upload(dev_pool &p, const std::vector<T> &h)
{
    T *d = p.get<T>(h.size());
    CK(cudaMemcpy(d, h.data(), h.size() * sizeof(T), cudaMemcpyHostToDevice));
    return d;
}

static std::vector<double> download(const float *d, size_t n)
{
    std::vector<float> h(n);
    CK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    return std::vector<double>(h.begin(), h.end());
}

static int report(FILE *out, const char *what, double err, double tol)
{
    fprintf(out, "self-test: %s vs float64 CPU: relative error %.2e (%s)\n", what, err,
            err < tol ? "ok" : "FAIL");
    return err < tol ? 0 : 1;
}

/* 3 tables of 5, 17, 40 rows (duplicates certain), dim 37, 3 lookups, 6 samples,
 * written at row 2 of a 118-row output */
static int check_embeddings(FILE *out)
{
    const int T = 3, L = 3, B = 6, dim = 37, row0 = 2, ld = row0 + T * dim + 5;
    const int rows[T] = {5, 17, 40};
    std::vector<long long> offs(T);
    long long total = 0;
    for (int t = 0; t < T; t++) {
        offs[t] = total;
        total += (long long)rows[t] * dim;
    }
    std::vector<float> tab = host_uniform(total, 1, -1, 1),
                       grad = host_uniform((size_t)B * ld, 2, -1, 1);
    std::vector<int> idx((size_t)B * T * L);
    for (size_t i = 0; i < idx.size(); i++)
        idx[i] = (int)((i * 7919 + 3) % rows[i / L % T]);
    dev_pool p;
    float *d_tab = upload(p, tab), *d_grad = upload(p, grad), *d_out = p.get<float>((size_t)B * ld);
    long long *d_offs = upload(p, offs);
    int *d_idx = upload(p, idx);
    CK(cudaMemset(d_out, 0, (size_t)B * ld * sizeof(float)));
    const float lr = 0.5f;
    gather(d_tab, d_offs, d_idx, d_out, ld, row0, B, T, L, dim);
    scatter_sgd(d_tab, d_offs, d_idx, d_grad, ld, row0, B, T, L, dim, lr);
    CK(cudaDeviceSynchronize());
    std::vector<double> want_out((size_t)B * ld, 0), want_tab(tab.begin(), tab.end());
    for (int b = 0; b < B; b++)
        for (int t = 0; t < T; t++)
            for (int l = 0; l < L; l++)
                for (int k = 0; k < dim; k++) {
                    size_t row = idx[((size_t)b * T + t) * L + l];
                    size_t o = (size_t)b * ld + row0 + (size_t)t * dim + k;
                    want_out[o] += tab[offs[t] + row * dim + k];
                    want_tab[offs[t] + row * dim + k] -= (double)lr * grad[o];
                }
    int bad = report(out, "embedding gather (pooled sum)",
                     bench_rel_err(download(d_out, want_out.size()), want_out), 1e-5);
    bad |= report(out, "embedding scatter-add SGD",
                  bench_rel_err(download(d_tab, want_tab.size()), want_tab), 1e-5);
    p.free_all();
    return bad;
}

/* one ReLU layer 5 -> 7 on 3 samples, input and output strided (ld 6 and 9) */
static int check_layer(cublasHandle_t h, FILE *out)
{
    const int in = 5, o = 7, B = 3;
    fc_layer l;
    l.in = in, l.out = o, l.ldx = 6, l.ldy = 9, l.relu = true, l.w_off = 0, l.b_off = 64;
    std::vector<float> prm = host_uniform(128, 3, -1, 1),
                       x = host_uniform((size_t)l.ldx * B, 4, -1, 1),
                       dy = host_uniform((size_t)l.ldy * B, 5, -1, 1), ones(B, 1.f);
    dev_pool p;
    float *d_prm = upload(p, prm), *d_grad = p.get<float>(128), *d_ones = upload(p, ones);
    l.x = upload(p, x);
    l.y = p.get<float>((size_t)l.ldy * B);
    l.dy = upload(p, dy);
    l.dx = p.get<float>((size_t)l.ldx * B);
    fc_forward(h, l, d_prm, B);
    fc_backward(h, l, d_prm, d_grad, d_ones, B);
    CK(cudaDeviceSynchronize());
    std::vector<double> y(o * B), gdy(o * B), dW(in * o, 0), db(o, 0), dx(in * B, 0);
    std::vector<double> got_y, got_dw, got_db, got_dx;
    std::vector<double> dy_all = download(l.y, (size_t)l.ldy * B),
                        dx_all = download(l.dx, (size_t)l.ldx * B);
    for (int b = 0; b < B; b++)
        for (int r = 0; r < o; r++) {
            double s = prm[l.b_off + r];
            for (int k = 0; k < in; k++)
                s += (double)prm[l.w_off + r + (size_t)k * o] * x[k + (size_t)b * l.ldx];
            y[r + b * o] = s > 0 ? s : 0;
            gdy[r + b * o] = s > 0 ? dy[r + (size_t)b * l.ldy] : 0;
            got_y.push_back(dy_all[r + (size_t)b * l.ldy]);
        }
    for (int b = 0; b < B; b++)
        for (int r = 0; r < o; r++) {
            db[r] += gdy[r + b * o];
            for (int k = 0; k < in; k++) {
                dW[r + k * o] += gdy[r + b * o] * x[k + (size_t)b * l.ldx];
                dx[k + b * in] += (double)prm[l.w_off + r + (size_t)k * o] * gdy[r + b * o];
            }
        }
    std::vector<double> grad = download(d_grad, 128);
    got_dw.assign(grad.begin(), grad.begin() + in * o);
    got_db.assign(grad.begin() + 64, grad.begin() + 64 + o);
    for (int b = 0; b < B; b++)
        for (int k = 0; k < in; k++)
            got_dx.push_back(dx_all[k + (size_t)b * l.ldx]);
    /* 1e-3: loose enough for TF32, were cuBLAS to use it; a layout error is O(1) */
    int bad = report(out, "MLP layer forward (strided)", bench_rel_err(got_y, y), 1e-3);
    bad |= report(out, "MLP layer backward dW, db, dx",
                  bench_rel_err(got_dw, dW) + bench_rel_err(got_db, db) + bench_rel_err(got_dx, dx),
                  1e-3);
    p.free_all();
    return bad;
}

int recsys_workload::self_test(FILE *out)
{
    if (!blas)
        CB(cublasCreate(&blas));
    int bad = check_embeddings(out) | check_layer(blas, out);
    recsys_workload t;
    t.c = {4, 100, 16, 2, 13, 64};
    t.setup(32);
    std::vector<double> before = download(t.params, t.n_params),
                        tb = download(t.tables, (size_t)4 * 100 * 16);
    /* the MLPs' backward: the loss's central difference along the gradient is |g| */
    t.hold_batch = true;
    t.forward_backward();
    std::vector<double> g = download(t.grads, t.n_params);
    double norm = 0;
    for (double x : g)
        norm += x * x;
    norm = sqrt(norm);
    std::vector<float> dir(g.size());
    for (size_t i = 0; i < g.size(); i++)
        dir[i] = (float)(g[i] / (norm > 0 ? norm : 1));
    dev_pool p;
    float *d_dir = upload(p, dir), loss[2];
    const float eps = 1e-3f, step[3] = {eps, -2 * eps, eps};
    for (int k = 0; k < 2; k++) {
        CB(cublasSaxpy(t.blas, (int)t.n_params, &step[k], d_dir, 1, t.params, 1));
        t.forward_backward();
        CK(cudaMemcpy(&loss[k], t.loss, sizeof(float), cudaMemcpyDeviceToHost));
    }
    CB(cublasSaxpy(t.blas, (int)t.n_params, &step[2], d_dir, 1, t.params, 1));
    p.free_all();
    t.hold_batch = false;
    double fd = ((double)loss[0] - loss[1]) / (2 * eps), err = fabs(fd - norm) / norm;
    bool grad_ok = err < 3e-2;
    fprintf(out, "self-test: %s MLP backward: |gradient| %.6g vs central difference of the loss "
                 "along it %.6g (losses %.7g, %.7g): relative error %.2e (%s)\n",
            t.name().c_str(), norm, fd, loss[0], loss[1], err, grad_ok ? "ok" : "FAIL");
    bad |= grad_ok ? 0 : 1;
    for (int i = 0; i < 3; i++) {
        t.forward_backward();
        t.update();
    }
    CK(cudaDeviceSynchronize());
    std::vector<double> after = download(t.params, t.n_params),
                        ta = download(t.tables, (size_t)4 * 100 * 16);
    size_t finite = 0, moved = 0, rows_moved = 0;
    for (size_t i = 0; i < after.size(); i++) {
        finite += std::isfinite(after[i]) != 0;
        moved += after[i] != before[i];
    }
    for (size_t i = 0; i < ta.size(); i++) {
        finite += std::isfinite(ta[i]) != 0;
        rows_moved += ta[i] != tb[i];
    }
    bool ok = finite == after.size() + ta.size() && moved >= t.n_real / 2 && rows_moved > 0;
    fprintf(out, "self-test: %s, batch 32, 3 iterations: all finite %s, %zu of %zu MLP "
                 "parameters and %zu embedding values moved (%s)\n",
            t.name().c_str(), finite == after.size() + ta.size() ? "yes" : "NO", moved, t.n_real,
            rows_moved, ok ? "ok" : "FAIL");
    return bad | (ok ? 0 : 1);
}

int recsys_main(int argc, char **argv)
{
    recsys_workload w;
    bench_common bc;
    bc.batches = {1024, 2048, 4096, 8192, 16384, 32768};
    std::vector<bench_opt> opts = {
        {"tables", &w.c.tables, 1, "embedding tables"},
        {"rows", &w.c.rows, 1, "rows per table"},
        {"dim", &w.c.dim, 1, "embedding dimension"},
        {"lookups", &w.c.lookups, 1, "rows gathered (and summed) per table per sample"},
        {"dense", &w.c.dense, 1, "dense input features"},
        {"hidden", &w.c.hidden, 4, "MLP width H (bottom H/2, H/4; top H, H, H/2, H/4)"},
    };
    int rc = bench_parse(argc, argv, "recsys",
                         "One training iteration of a DLRM-like recommendation model (fp32): "
                         "embedding-bag\ngathers, bottom and top MLPs (cuBLAS), BCE loss, exact "
                         "backward, sparse SGD\n(scatter-add) on the tables, SGD momentum on the "
                         "MLPs.",
                         bc, opts);
    if (rc)
        return rc < 0 ? 0 : rc;
    if ((long long)w.c.tables * w.c.rows * w.c.dim > (1LL << 40)) {
        fprintf(stderr, "mlsched-gpu-bench recsys: tables x rows x dim is too large\n");
        return 2;
    }
    return bench_run_training(w, bc);
}
