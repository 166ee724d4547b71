/* generate.c: Gavel-style synthetic traces (see generate.h). */
#include "traces/generate.h"

#include <gsl/gsl_randist.h>
#include <gsl/gsl_rng.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

void gen_config_defaults(gen_config_t *g)
{
    g->jobs = 100;
    g->rate_per_hour = 3;
    g->seed = 1;
    g->multi_gpu = 0;
    g->reference_gpu = "v100";
    g->duration_scale = 1;
    g->users = 1;
}

static int draw_scale_factor(gsl_rng *r, int multi)
{
    if (!multi)
        return 1;
    double u = gsl_rng_uniform(r);
    return u < 0.70 ? 1 : u < 0.80 ? 2 : u < 0.95 ? 4 : 8;
}

static double draw_duration(gsl_rng *r)
{
    double lo = 1.5, hi = 3;
    if (gsl_rng_uniform(r) >= 0.8) {
        lo = 3;
        hi = 4;
    }
    return 60 * pow(10, lo + (hi - lo) * gsl_rng_uniform(r));
}

/* Workloads that run alone on the reference GPU at each scale factor. */
static int *candidates(const mls_perf_t *pm, int ref, int sf, int *n)
{
    int nw = pm->ops->n_workloads(pm);
    int *c = xmalloc(sizeof(int) * (size_t)(nw ? nw : 1));
    *n = 0;
    for (int w = 0; w < nw; w++)
        if (perf_throughput(pm, w, ref, sf, 1, 0) > 0)
            c[(*n)++] = w;
    return c;
}

int trace_generate(mls_trace_t *t, const mls_perf_t *pm, const gen_config_t *g, mls_err_t *err)
{
    int ref = perf_gpu_type_index(pm, g->reference_gpu);
    if (ref < 0)
        return mls_fail(err, "%s: no GPU type '%s' to use as the reference", pm->source,
                        g->reference_gpu);
    int *cand[9] = {0}, ncand[9] = {0};
    for (int sf = 1; sf <= 8; sf *= 2) {
        cand[sf] = candidates(pm, ref, sf, &ncand[sf]);
        if (!ncand[sf] && (sf == 1 || g->multi_gpu)) {
            for (int k = 1; k <= 8; k *= 2)
                free(cand[k]);
            return mls_fail(err, "%s: no workload runs on %d %s GPU(s)", pm->source, sf,
                            g->reference_gpu);
        }
    }
    gsl_rng *r = gsl_rng_alloc(gsl_rng_mt19937);
    gsl_rng_set(r, (unsigned long)g->seed);
    double now = 0, mean_gap = 3600 / g->rate_per_hour;
    for (long i = 0; i < g->jobs; i++) {
        if (i)
            now += gsl_ran_exponential(r, mean_gap);
        int sf = draw_scale_factor(r, g->multi_gpu);
        int w = cand[sf][gsl_rng_uniform_int(r, (unsigned long)ncand[sf])];
        double dur = draw_duration(r) * g->duration_scale;
        char user[32];
        snprintf(user, sizeof user, "user%ld",
                 g->users > 1 ? (long)gsl_rng_uniform_int(r, (unsigned long)g->users) : 0L);
        mls_job_t j = {0};
        j.id = i;
        j.submit = now;
        j.user = strtab_intern(&t->users, user);
        j.workload = strtab_intern(&t->workloads, pm->ops->workload_name(pm, w));
        j.gpus = j.min_gpus = j.max_gpus = sf;
        j.work = dur * perf_throughput(pm, w, ref, sf, 1, 0);
        j.duration = dur;
        j.priority = 1;
        j.deadline = INFINITY;
        trace_add(t, &j);
    }
    gsl_rng_free(r);
    for (int sf = 1; sf <= 8; sf *= 2)
        free(cand[sf]);
    return 0;
}
