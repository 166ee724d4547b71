/* view_perf.c: view->perf over a perf model, shared by the simulator and the
 * live daemon (see view_perf.h). */
#include "sim/view_perf.h"

#include "model/pollux_model.h"

#include <math.h>

int view_perf_workload(const view_perf_src_t *s, const view_job_t *vj)
{
    if (vj->workload < 0)
        return -1;
    return s->wmap ? s->wmap[vj->workload] : vj->workload;
}

/* The perf type of a cluster type, -1 when out of range or absent. */
static int perf_type(const view_perf_src_t *s, int type)
{
    return type >= 0 && type < s->n_types ? s->typemap[type] : -1;
}

static int fewest_nodes(const view_perf_src_t *s, int type, int gpus, int nodes)
{
    if (s->one_node)
        return 1;
    if (nodes > 0)
        return nodes;
    return (gpus + s->type_node_gpus[type] - 1) / s->type_node_gpus[type];
}

static double vp_throughput(void *ctx, const view_job_t *vj, int type, int gpus, int nodes,
                            int batch)
{
    const view_perf_src_t *s = ctx;
    int pt = perf_type(s, type), w = view_perf_workload(s, vj);
    if (pt < 0 || w < 0 || gpus <= 0)
        return 0;
    nodes = fewest_nodes(s, type, gpus, nodes);
    const perf_ops_t *ops = s->perf->ops;
    double r = ops->goodput ? ops->goodput(s->perf, w, pt, gpus, nodes,
                                           batch ? batch : vj->batch_size,
                                           batch ? -1 : vj->accum_steps, vj->work_done)
                            : perf_throughput(s->perf, w, pt, gpus, nodes,
                                              batch ? batch : vj->batch_size);
    return isfinite(r) && r > 0 ? r : 0;
}

static double vp_samples(void *ctx, const view_job_t *vj, int type, int gpus, int nodes,
                         int batch, int accum)
{
    const view_perf_src_t *s = ctx;
    const perf_ops_t *ops = s->perf->ops;
    int pt = perf_type(s, type), w = view_perf_workload(s, vj);
    if (!ops->samples_rate || pt < 0 || w < 0 || gpus <= 0)
        return NAN;
    if (batch <= 0) {
        batch = vj->batch_size;
        accum = vj->accum_steps;
    }
    return ops->samples_rate(s->perf, w, pt, gpus, fewest_nodes(s, type, gpus, nodes), batch,
                             accum);
}

static int vp_limits(void *ctx, const view_job_t *vj, int type, view_batch_limits_t *out)
{
    const view_perf_src_t *s = ctx;
    const perf_ops_t *ops = s->perf->ops;
    perf_batch_limits_t l;
    int pt = perf_type(s, type), w = view_perf_workload(s, vj);
    if (!ops->batch_limits || w < 0 || (type >= 0 && pt < 0) ||
        ops->batch_limits(s->perf, w, pt, &l) < 0)
        return -1;
    *out = (view_batch_limits_t){l.init_batch, l.max_batch, l.min_local_batch,
                                 l.max_local_batch, l.epoch_work};
    return 0;
}

static double vp_efficiency(void *ctx, const view_job_t *vj, double total_batch)
{
    view_batch_limits_t l;
    if (isnan(vj->grad_noise_scale) || vp_limits(ctx, vj, -1, &l) < 0)
        return NAN;
    return pollux_efficiency(vj->grad_noise_scale, l.init_batch, total_batch);
}

static double vp_goodput(void *ctx, const view_job_t *vj, int type, int gpus, int nodes,
                         int batch, int accum)
{
    if (batch <= 0) {
        batch = vj->batch_size;
        accum = vj->accum_steps;
    }
    double x = vp_samples(ctx, vj, type, gpus, nodes, batch, accum);
    return x * vp_efficiency(ctx, vj, (double)gpus * batch * (accum > 0 ? accum + 1 : 1));
}

/* 1 when the model marks w a multiplexing foreground on gpus GPUs of type t. */
static int mux_of(const mls_perf_t *perf, int w, int t, int gpus, double *idle, double *slow)
{
    return perf->ops->multiplex && perf->ops->multiplex(perf, w, t, gpus, idle, slow) == 0;
}

/* GPU multiplexing (DeepPool): foreground f and background g on the same
 * `gpus` GPUs. f runs at its solo rate slowed by the interference factor; g
 * at its solo rate on those GPUs times f's idle fraction (it runs only in the
 * cycles f's burst-parallel plan leaves idle, at low priority). Solo rates are
 * taken on the fewest nodes (nodes = 1: the consolidated rate), as pair
 * entries are. -1 when either cannot run there or nothing is left idle. */
static int mux_pair(const mls_perf_t *perf, int f, int g, int t, int gpus, double idle, double slow,
                    double *rf, double *rg)
{
    double sf = perf_throughput(perf, f, t, gpus, 1, 0),
           sg = perf_throughput(perf, g, t, gpus, 1, 0);
    if (!(sf > 0) || !(sg > 0) || !(idle > 0))
        return -1;
    *rf = sf * (1 - slow);
    *rg = sg * idle;
    return 0;
}

int view_perf_pair(const mls_perf_t *perf, int a, int b, int t, int gpus, double out[2])
{
    if (!perf || a < 0 || b < 0 || t < 0 || gpus <= 0)
        return -1;
    double r[2] = {0, 0}, ia, sa, ib, sb;
    int fa = mux_of(perf, a, t, gpus, &ia, &sa), fb = mux_of(perf, b, t, gpus, &ib, &sb);
    if (fa != fb) { /* one foreground, one background: the multiplexing model */
        if (fa ? mux_pair(perf, a, b, t, gpus, ia, sa, &r[0], &r[1])
               : mux_pair(perf, b, a, t, gpus, ib, sb, &r[1], &r[0]))
            return -1;
    } else if (!perf->ops->pair || perf->ops->pair(perf, a, b, t, gpus, r) < 0) {
        return -1;
    }
    out[0] = r[0];
    out[1] = r[1];
    return 0;
}

static int vp_pair(void *ctx, const view_job_t *a, const view_job_t *b, int type, int gpus,
                   double out[2])
{
    const view_perf_src_t *s = ctx;
    return view_perf_pair(s->perf, view_perf_workload(s, a), view_perf_workload(s, b),
                          perf_type(s, type), gpus, out);
}

static int vp_schedule(void *ctx, const view_job_t *vj, view_batch_step_t *out, int max)
{
    const view_perf_src_t *s = ctx;
    return s->schedule ? s->schedule(s->owner, vj, out, max) : -1;
}

void view_perf_bind(view_perf_t *vp, view_perf_src_t *src)
{
    *vp = (view_perf_t){.ctx = src,
                        .throughput = vp_throughput,
                        .pair_throughput = vp_pair,
                        .samples_throughput = vp_samples,
                        .efficiency = vp_efficiency,
                        .goodput = vp_goodput,
                        .batch_limits = vp_limits,
                        .batch_schedule = vp_schedule,
                        .rates_fixed = src->perf && !src->perf->ops->goodput,
                        .concurrent = 1};
}
