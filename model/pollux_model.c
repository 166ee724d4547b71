/* pollux_model.c: Pollux's iteration-time model and its least-squares fit
 * (see pollux_model.h). */
#include "model/pollux_model.h"

#include <gsl/gsl_blas.h>
#include <gsl/gsl_multifit_nlinear.h>
#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <gsl/gsl_vector.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double pollux_iter_time(const pollux_params_t *p, int nodes, int gpus, double m, int accum)
{
    double tg = p->alpha_grad + p->beta_grad * m, ts = 0;
    if (gpus > 1 && nodes <= 1)
        ts = p->alpha_local + p->beta_local * (gpus - 2);
    else if (gpus > 1)
        ts = p->alpha_node + p->beta_node * (gpus - 2);
    return accum * tg + pow(pow(tg, p->gamma) + pow(ts, p->gamma), 1 / p->gamma);
}

double pollux_throughput(const pollux_params_t *p, int nodes, int gpus, double m, int accum)
{
    return gpus * m * (accum + 1) / pollux_iter_time(p, nodes, gpus, m, accum);
}

double pollux_efficiency(double phi, double m0, double total_batch)
{
    return (phi + m0) / (phi + total_batch);
}

void pollux_split_batch(double local, int gpus, int m0, int max_batch, int max_local,
                        int *atomic, int *accum)
{
    const double eps = 1e-8;
    int s = (int)ceil(local / max_local - eps) - 1;
    if (s < 0)
        s = 0;
    if (gpus == 1 && local > m0 + eps && s < 1)
        s = 1;
    int m = (int)ceil(local / (s + 1) - eps);
    int cap = max_batch / (gpus * (s + 1));
    if (m > cap)
        m = cap;
    *atomic = m > 0 ? m : 1;
    *accum = s;
}

/* x = (log alpha_grad, log beta_grad, log alpha_local, log beta_local,
 *      log alpha_node, log beta_node, logit((gamma - 1) / 9)) */
static void from_x(const gsl_vector *x, pollux_params_t *p)
{
    p->alpha_grad = exp(gsl_vector_get(x, 0));
    p->beta_grad = exp(gsl_vector_get(x, 1));
    p->alpha_local = exp(gsl_vector_get(x, 2));
    p->beta_local = exp(gsl_vector_get(x, 3));
    p->alpha_node = exp(gsl_vector_get(x, 4));
    p->beta_node = exp(gsl_vector_get(x, 5));
    p->gamma = 1 + 9 / (1 + exp(-gsl_vector_get(x, 6)));
}

typedef struct fit_data {
    const pollux_sample_t *s;
    size_t n;
    double x0[7]; /* the starting point, which a weak prior pulls towards */
    double *wt;   /* per-sample robust weight (1 in the first pass) */
} fit_data_t;

/* A weak pull of each parameter (in its transformed space) towards the start:
 * it keeps parameters that no sample constrains (e.g. cross-node sync from
 * one-node samples) finite, and is negligible where the data speak. */
#define PRIOR_WEIGHT 1e-3

static int residuals(const gsl_vector *x, void *data, gsl_vector *f)
{
    const fit_data_t *d = data;
    pollux_params_t p;
    from_x(x, &p);
    for (size_t i = 0; i < d->n; i++) {
        const pollux_sample_t *s = &d->s[i];
        double pred = pollux_iter_time(&p, s->nodes, s->gpus, s->local_bsz, s->accum);
        gsl_vector_set(f, i, d->wt[i] * (pred - s->iter_time) / s->iter_time);
    }
    for (size_t k = 0; k < 7; k++)
        gsl_vector_set(f, d->n + k, PRIOR_WEIGHT * (gsl_vector_get(x, k) - d->x0[k]));
    return GSL_SUCCESS;
}

static void initial_guess(const pollux_sample_t *s, size_t n, gsl_vector *x)
{
    double tmin = INFINITY, mmin = INFINITY;
    for (size_t i = 0; i < n; i++) {
        if (s[i].iter_time < tmin)
            tmin = s[i].iter_time;
        if (s[i].local_bsz < mmin)
            mmin = s[i].local_bsz;
    }
    double a = tmin / 2, b = tmin / (2 * (mmin > 0 ? mmin : 1));
    double init[7] = {log(a), log(b), log(a / 4), log(a / 40), log(a / 2), log(a / 20), 0};
    for (int k = 0; k < 7; k++)
        gsl_vector_set(x, (size_t)k, init[k]);
}

static void report(const fit_data_t *d, const pollux_params_t *p, pollux_fit_report_t *rep)
{
    double *e = malloc(sizeof(double) * d->n);
    rep->max_rel_err = 0;
    rep->identified_local = rep->identified_node = 0;
    for (size_t i = 0; i < d->n; i++) {
        const pollux_sample_t *s = &d->s[i];
        double pred = pollux_iter_time(p, s->nodes, s->gpus, s->local_bsz, s->accum);
        e[i] = fabs(pred - s->iter_time) / s->iter_time;
        if (e[i] > rep->max_rel_err)
            rep->max_rel_err = e[i];
        rep->identified_local |= s->gpus > 1 && s->nodes <= 1;
        rep->identified_node |= s->gpus > 1 && s->nodes > 1;
    }
    gsl_sort(e, 1, d->n);
    rep->median_rel_err = gsl_stats_median_from_sorted_data(e, 1, d->n);
    free(e);
}

/* One least-squares solve from x (in place); returns the GSL status. */
static int solve(fit_data_t *d, gsl_vector *x, int *iters)
{
    gsl_multifit_nlinear_fdf fdf = {residuals, NULL, NULL, d->n + 7, 7, d, 0, 0, 0};
    gsl_multifit_nlinear_parameters params = gsl_multifit_nlinear_default_parameters();
    params.scale = gsl_multifit_nlinear_scale_levenberg;
    gsl_multifit_nlinear_workspace *w =
        gsl_multifit_nlinear_alloc(gsl_multifit_nlinear_trust, &params, d->n + 7, 7);
    for (size_t k = 0; k < 7; k++)
        d->x0[k] = gsl_vector_get(x, k);
    gsl_multifit_nlinear_init(x, &fdf, w);
    int info = 0;
    int status = gsl_multifit_nlinear_driver(500, 1e-10, 1e-10, 1e-10, NULL, NULL, &info, w);
    gsl_vector_memcpy(x, w->x);
    *iters += (int)gsl_multifit_nlinear_niter(w);
    gsl_multifit_nlinear_free(w);
    return status;
}

/* Robust re-weighting (Cauchy): a sample whose relative error is well above
 * the typical one counts less in the next pass, so a few placements that the
 * model cannot follow do not pull the fit off the bulk of the profile. */
static void reweight(fit_data_t *d, const gsl_vector *x)
{
    pollux_params_t p;
    from_x(x, &p);
    double *e = malloc(sizeof(double) * d->n);
    for (size_t i = 0; i < d->n; i++) {
        const pollux_sample_t *s = &d->s[i];
        e[i] = fabs(pollux_iter_time(&p, s->nodes, s->gpus, s->local_bsz, s->accum) -
                    s->iter_time) / s->iter_time;
    }
    double *sorted = malloc(sizeof(double) * d->n);
    memcpy(sorted, e, sizeof(double) * d->n);
    gsl_sort(sorted, 1, d->n);
    double c = 2.385 * (gsl_stats_median_from_sorted_data(sorted, 1, d->n) + 1e-6);
    for (size_t i = 0; i < d->n; i++)
        d->wt[i] = 1 / sqrt(1 + (e[i] / c) * (e[i] / c));
    free(sorted);
    free(e);
}

static double median_error(const fit_data_t *d, const gsl_vector *x)
{
    pollux_params_t p;
    pollux_fit_report_t r;
    from_x(x, &p);
    report(d, &p, &r);
    return r.median_rel_err;
}

/* Starting points: the data-driven guess, with gamma low, middle or high
 * and the sync terms a quarter, once or four times the guess. The fit from
 * each (plus ROBUST_PASSES re-weighted passes) is kept when its median
 * relative error is the lowest. */
#define ROBUST_PASSES 3

int pollux_fit(const pollux_sample_t *s, size_t n, pollux_params_t *out, pollux_fit_report_t *rep,
               mls_err_t *err)
{
    if (n < 3)
        return mls_fail(err, "the Pollux fit needs at least 3 samples, got %zu", n);
    for (size_t i = 0; i < n; i++)
        if (!(s[i].iter_time > 0) || s[i].gpus < 1 || s[i].local_bsz <= 0 || s[i].accum < 0)
            return mls_fail(err, "sample %zu: iteration time, GPUs and batch must be > 0", i);
    fit_data_t d = {s, n, {0}, malloc(sizeof(double) * n)};
    gsl_vector *x = gsl_vector_alloc(7), *best = gsl_vector_alloc(7);
    static const double gamma_logit[] = {0, -3, 3}, sync_scale[] = {1, 0.25, 4};
    double best_err = INFINITY;
    int iters = 0, status = GSL_SUCCESS, ok = 0;
    for (int g = 0; g < 3; g++)
        for (int k = 0; k < 3; k++) {
            initial_guess(s, n, x);
            gsl_vector_set(x, 6, gamma_logit[g]);
            for (size_t j = 2; j < 6; j += 2)
                gsl_vector_set(x, j, gsl_vector_get(x, j) + log(sync_scale[k]));
            for (size_t i = 0; i < n; i++)
                d.wt[i] = 1;
            int st = solve(&d, x, &iters);
            for (int pass = 0; pass < ROBUST_PASSES && (st == GSL_SUCCESS || st == GSL_EMAXITER);
                 pass++) {
                reweight(&d, x);
                st = solve(&d, x, &iters);
            }
            if (st != GSL_SUCCESS && st != GSL_EMAXITER) {
                status = st;
                continue;
            }
            double e = median_error(&d, x);
            if (e < best_err) {
                best_err = e;
                gsl_vector_memcpy(best, x);
                ok = 1;
            }
        }
    from_x(best, out);
    gsl_vector_free(x);
    gsl_vector_free(best);
    free(d.wt);
    if (!ok)
        return mls_fail(err, "the Pollux fit did not converge: %s", gsl_strerror(status));
    if (rep) {
        report(&d, out, rep);
        rep->iterations = iters;
    }
    return 0;
}
