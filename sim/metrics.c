/* metrics.c: per-run summary statistics over the measured jobs (see metrics.h).
 * Percentiles use GSL's linear interpolation between order statistics (the
 * same convention as numpy's default), over JCTs sorted by sort_values. */
#include "sim/metrics.h"

#include "model/util.h"

#include <gsl/gsl_sort.h>
#include <gsl/gsl_statistics_double.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

static double quantile(const double *sorted, size_t n, double q)
{
    return n ? gsl_stats_quantile_from_sorted_data(sorted, 1, n, q) : NAN;
}

/* Sorts a ascending: positive finite values (JCTs) by a radix sort of their
 * bits, which order as the values do (a fifth of gsl_sort's heapsort time on
 * 100,000 jobs); anything else (a zero, a NaN) by gsl_sort. Equal values are
 * indistinguishable, so both give the same array. */
static void sort_values(double *a, size_t n)
{
    int radix = n >= 256;
    for (size_t i = 0; i < n && radix; i++)
        radix = a[i] > 0 && isfinite(a[i]);
    if (!radix) {
        gsl_sort(a, 1, n);
        return;
    }
    enum { BITS = 11, BUCKETS = 1 << BITS };
    uint64_t *key = xmalloc(2 * n * sizeof *key), *tmp = key + n;
    memcpy(key, a, n * sizeof *key);
    size_t count[BUCKETS];
    for (int shift = 0; shift < 64; shift += BITS) {
        memset(count, 0, sizeof count);
        for (size_t i = 0; i < n; i++)
            count[(key[i] >> shift) & (BUCKETS - 1)]++;
        if (count[(key[0] >> shift) & (BUCKETS - 1)] == n)
            continue; /* one digit for all: nothing moves */
        size_t at = 0;
        for (int b = 0; b < BUCKETS; b++) {
            size_t c = count[b];
            count[b] = at;
            at += c;
        }
        for (size_t i = 0; i < n; i++)
            tmp[count[(key[i] >> shift) & (BUCKETS - 1)]++] = key[i];
        uint64_t *t = key;
        key = tmp;
        tmp = t;
    }
    memcpy(a, key, n * sizeof *a);
    free(key < tmp ? key : tmp);
}

static void fairness(run_summary_t *s, const job_result_t *jobs, size_t n)
{
    double sum = 0, sumsq = 0, worst = NAN;
    int unfair = 0, counted = 0;
    for (size_t i = 0; i < n; i++) {
        const job_result_t *j = &jobs[i];
        if (!j->measured || !j->finished || !isfinite(j->rho) || j->rho <= 0)
            continue;
        counted++;
        unfair += j->rho > MLS_UNFAIR_RHO;
        if (isnan(worst) || j->rho > worst)
            worst = j->rho;
        sum += 1.0 / j->rho;
        sumsq += 1.0 / (j->rho * j->rho);
    }
    s->unfair_fraction = counted ? (double)unfair / counted : NAN;
    s->worst_ftf = worst;
    s->jain_index = counted ? sum * sum / (counted * sumsq) : NAN;
}

void metrics_summarize(sim_result_t *r)
{
    run_summary_t *s = &r->summary;
    double *jct = xmalloc(sizeof(double) * (r->n_jobs ? r->n_jobs : 1));
    size_t n = 0;
    double queue = 0, last_finish = 0, feedback = 0;
    size_t n_feedback = 0;
    s->unfinished = 0;
    s->deadline_jobs = s->deadlines_met = 0;
    s->preemptions = s->restarts = 0;
    for (size_t i = 0; i < r->n_jobs; i++) {
        const job_result_t *j = &r->jobs[i];
        if (j->finished && j->finish > last_finish)
            last_finish = j->finish;
        if (!j->measured)
            continue;
        s->preemptions += j->preemptions;
        s->restarts += j->restarts;
        if (isfinite(j->feedback)) {
            feedback += j->feedback;
            n_feedback++;
        }
        if (!j->finished) {
            s->unfinished++;
            continue;
        }
        jct[n++] = j->finish - j->submit;
        queue += j->first_start - j->submit;
        if (isfinite(j->deadline)) {
            s->deadline_jobs++;
            s->deadlines_met += j->finish <= j->deadline;
        }
    }
    sort_values(jct, n);
    s->jobs = (int)n;
    s->avg_jct = n ? gsl_stats_mean(jct, 1, n) : NAN;
    s->p50_jct = quantile(jct, n, 0.50);
    s->p95_jct = quantile(jct, n, 0.95);
    s->p99_jct = quantile(jct, n, 0.99);
    s->avg_queue_delay = n ? queue / n : NAN;
    s->avg_feedback = n_feedback ? feedback / (double)n_feedback : NAN;
    if (s->makespan <= 0)
        s->makespan = last_finish;
    s->utilization = (s->makespan > 0 && r->n_gpus > 0)
                         ? r->busy_gpu_seconds / (r->n_gpus * s->makespan)
                         : NAN;
    fairness(s, r->jobs, r->n_jobs);
    s->decision_time_mean = s->decisions ? s->decision_time_total / s->decisions : 0;
    free(jct);
}

void sim_result_free(sim_result_t *r)
{
    free(r->jobs);
    free(r->timeline);
    r->jobs = NULL;
    r->timeline = NULL;
    r->n_jobs = r->n_timeline = r->timeline_cap = 0;
}
