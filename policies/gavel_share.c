/* gavel_share.c: Gavel's `isolated` and `gandiva` policies as Gavel's
 * simulator runs them: an allocation X of time shares per GPU type, realised
 * by Gavel's round mechanism (gavel_round.h). `-P mechanism=gavel` on
 * isolated and gandiva; their own mechanisms (isolated.c, gandiva.c) are the
 * papers' policies.
 *
 * Narayanan et al., OSDI 2020, the baselines of its evaluation, as its code
 * has them (stanford-futuredata/gavel c4fa400, scheduler/policies/isolated.py
 * and gandiva.py, read, not copied). At each recompute (gavel_round.h's rule):
 *   - isolated: every active job gets, on every type t, the share
 *     C_t / (N x gpus) (C_t the type's GPUs, N the active jobs), its row
 *     scaled down to sum to at most 1: 1/N of each type's GPUs each, in time.
 *     The mechanism visits the types in an order shuffled each round (Python's
 *     shuffle seeded with the run's seed + 5, as Gavel's scheduler), so a lone
 *     job runs on a random type each round.
 *   - gandiva: when the jobs' GPUs fit the cluster's, isolated's shares.
 *     Otherwise the jobs are grouped: pairs formed earlier stay while both
 *     jobs are active and their pair throughput, each normalised by its
 *     isolated throughput, summed over the types, is at least 1 (0 when either
 *     has none on some type); the others are drawn into pairs of the same GPU
 *     count by Python's random.sample of two (seeded with the run's seed), as
 *     many draws as there were ungrouped jobs, and the rest stay alone; each
 *     group (pair or single) then gets 1/G of each type's GPUs (G groups), as
 *     above, and a job in a pair none alone. Types are visited v100, p100,
 *     k80 (Gavel does not shuffle for its Packing policies).
 *   - gandiva-fair (Shockwave's baseline of that name, uw-mad-dash/shockwave
 *     8a44f4a, scheduler/policies/gandiva_fair_proportional.py, read, not
 *     copied): every active job gets, on every type t, the share C_t / N,
 *     whatever its GPU count, its row scaled down to sum to at most 1: equal
 *     time per job, so the GPUs asked for exceed the cluster's and the
 *     mechanism's priorities ration them. Types shuffled as isolated's.
 * Leftover GPUs go to rows with X = 0 (priority 0), as in Gavel.
 * Simplifications: C_t counts down nodes too (Gavel's cluster_spec); pair
 * throughputs are the perf model's; Gavel's scheduler may also run a pair it
 * did not allocate on leftover GPUs (its priority list holds every pair of
 * equal-sized jobs), which is not modelled: pairs run only where X > 0. */
#include "policies/gavel_share.h"

#include "policies/gavel_round.h"
#include "policies/policy_util.h"
#include "policies/pyrandom.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gs_group {
    int64_t a, b; /* b = -1: alone */
} gs_group_t;

struct gs_state {
    int gandiva;
    double interval;
    gr_state_t *round;
    pyrandom_t *rng;   /* gandiva's draws, seeded at the first call */
    gs_group_t *pairs; /* gandiva's pairs, kept across recomputes */
    int n_pairs;
};

int gs_wanted(const policy_args_t *args, const char *policy, char *err, size_t errlen)
{
    static const char *const gavel_only[] = {"recompute_interval", "new_jobs", "received_start",
                                             "rules", NULL};
    const char *mech = policy_arg_str(args, "mechanism", "own");
    if (strcmp(mech, "own") != 0 && strcmp(mech, "gavel") != 0) {
        snprintf(err, errlen, "%s: mechanism must be own or gavel (got %s)", policy, mech);
        return -1;
    }
    int gavel = strcmp(mech, "gavel") == 0;
    for (int i = 0; gavel_only[i] && !gavel; i++)
        if (policy_arg_str(args, gavel_only[i], NULL)) {
            snprintf(err, errlen, "%s: %s needs mechanism=gavel", policy, gavel_only[i]);
            return -1;
        }
    return gavel;
}

gs_state_t *gs_create(int gandiva, const policy_args_t *args, const char *policy, char *err,
                      size_t errlen)
{
    static const char *const known[] = {"mechanism", "recompute_interval", "new_jobs",
                                        "received_start", "rules", "shortcuts", NULL};
    double interval;
    gr_opts_t opts;
    if (policy_args_check(args, known, policy, err, errlen) ||
        policy_arg_double(args, "recompute_interval", 1920.0, &interval, err, errlen) ||
        gr_opts_parse(args, policy, &opts, err, errlen))
        return NULL;
    if (!(interval >= 0) || !isfinite(interval)) {
        snprintf(err, errlen, "%s: recompute_interval must be a finite number >= 0 (got %g)",
                 policy, interval);
        return NULL;
    }
    gs_state_t *s = pu_alloc(1, sizeof *s);
    s->gandiva = gandiva;
    s->interval = interval;
    s->round = gr_create();
    gr_set_opts(s->round, &opts);
    return s;
}

void gs_destroy(gs_state_t *s)
{
    if (!s)
        return;
    gr_destroy(s->round);
    free(s->rng);
    free(s->pairs);
    free(s);
}

/* View index of job id, -1 when not active. */
static int view_index(const view_t *v, int64_t id)
{
    for (int j = 0; j < v->n_jobs; j++)
        if (v->jobs[j].id == id)
            return j;
    return -1;
}

/* Gandiva's test of a pair: its pair throughputs over the isolated ones,
 * summed over the types; 0 when either has none on some type. */
static double pair_gain(const view_t *v, int a, int b)
{
    double sum = 0;
    int g = v->jobs[a].gpus_requested;
    for (int t = 0; t < v->n_types; t++) {
        double r[2], iso[2] = {pu_rate(v, a, t), pu_rate(v, b, t)};
        if (!v->perf->pair_throughput ||
            v->perf->pair_throughput(v->perf->ctx, &v->jobs[a], &v->jobs[b], t, g, r) < 0)
            return 0;
        for (int m = 0; m < 2; m++) {
            if (!(r[m] > 0) || !(iso[m] > 0))
                return 0;
            sum += r[m] / iso[m];
        }
    }
    return sum;
}

/* Gandiva's grouping when oversubscribed: keeps the good pairs, draws new
 * ones; grp[j] = the view index of j's partner, -1 alone. */
static void group(gs_state_t *s, const view_t *v, int *grp)
{
    int n = v->n_jobs, kept = 0;
    for (int j = 0; j < n; j++)
        grp[j] = -1;
    for (int k = 0; k < s->n_pairs; k++) {
        int a = view_index(v, s->pairs[k].a), b = view_index(v, s->pairs[k].b);
        if (a < 0 || b < 0 || pair_gain(v, a, b) < 1.0)
            continue;
        grp[a] = b;
        grp[b] = a;
        s->pairs[kept++] = s->pairs[k];
    }
    s->n_pairs = kept;
    int *free_ = pu_alloc((size_t)n + 1, sizeof *free_), nf = 0; /* in id order */
    int *ord = pu_alloc((size_t)n + 1, sizeof *ord);
    pu_arrival_order(v, ord);
    for (int i = 0; i < n; i++)
        if (grp[ord[i]] < 0)
            free_[nf++] = ord[i];
    for (int i = 0, draws = nf; nf > 1 && i < draws; i++) {
        int d[2];
        pyrandom_sample2(s->rng, nf, d);
        int a = free_[d[0]], b = free_[d[1]];
        if (v->jobs[a].gpus_requested != v->jobs[b].gpus_requested)
            continue;
        grp[a] = b;
        grp[b] = a;
        s->pairs = realloc(s->pairs, sizeof *s->pairs * (size_t)(s->n_pairs + 1));
        if (!s->pairs)
            abort();
        s->pairs[s->n_pairs++] = (gs_group_t){v->jobs[a].id, v->jobs[b].id};
        int lo = d[0] < d[1] ? d[0] : d[1], hi = d[0] + d[1] - lo; /* list.remove, in order */
        memmove(free_ + hi, free_ + hi + 1, sizeof *free_ * (size_t)(nf - hi - 1));
        memmove(free_ + lo, free_ + lo + 1, sizeof *free_ * (size_t)(nf - 1 - lo - 1));
        nf -= 2;
    }
    free(ord);
    free(free_);
}

/* A row's shares: C_t / (G x gpus) per type, scaled to sum to at most 1
 * (gpus 1: Shockwave's Gandiva-Fair). */
static void share_row(const view_t *v, int gpus, int groups, double *x)
{
    double sum = 0;
    for (int t = 0; t < v->n_types; t++) {
        x[t] = (double)v->types[t].total_gpus / groups / gpus;
        sum += x[t];
    }
    for (int t = 0; t < v->n_types && sum > 1; t++)
        x[t] /= sum;
}

static void allocate(gs_state_t *s, const view_t *v)
{
    int n = v->n_jobs, T = v->n_types;
    long want = 0, have = 0;
    for (int j = 0; j < n; j++)
        want += v->jobs[j].gpus_requested;
    for (int t = 0; t < T; t++)
        have += v->types[t].total_gpus;
    int *grp = pu_alloc((size_t)n + 1, sizeof *grp);
    for (int j = 0; j < n; j++)
        grp[j] = -1;
    if (s->gandiva == GS_GANDIVA && want > have)
        group(s, v, grp);
    int per_gpu = s->gandiva != GS_PROPORTIONAL;
    int groups = 0;
    for (int j = 0; j < n; j++)
        groups += grp[j] < 0 || grp[j] > j;
    int(*rows)[2] = pu_alloc((size_t)2 * n + 1, sizeof *rows), nr = 0;
    double *x = pu_alloc(((size_t)2 * n + 1) * (size_t)T, sizeof *x);
    for (int j = 0; j < n; j++) { /* every job has a row, 0 when in a pair */
        rows[nr][0] = j;
        rows[nr][1] = -1;
        if (grp[j] < 0)
            share_row(v, per_gpu ? v->jobs[j].gpus_requested : 1, groups, x + (size_t)nr * T);
        nr++;
    }
    for (int j = 0; j < n; j++)
        if (grp[j] > j) {
            rows[nr][0] = j;
            rows[nr][1] = grp[j];
            share_row(v, v->jobs[j].gpus_requested, groups, x + (size_t)nr * T);
            nr++;
        }
    gr_set_allocation(s->round, v, nr, (const int(*)[2])rows, x);
    free(x);
    free(rows);
    free(grp);
}

void gs_schedule(gs_state_t *s, const view_t *v, plan_t *plan)
{
    if (!s->rng) { /* Gavel: GandivaPolicy(seed), its scheduler's type shuffler seed + 5 */
        s->rng = pu_alloc(1, sizeof *s->rng);
        pyrandom_seed(s->rng, v->seed);
        if (s->gandiva != GS_GANDIVA)
            gr_set_python_shuffle(s->round, v->seed + 5);
        else
            gr_set_leftover_pairs(s->round, 1);
    }
    gr_begin(s->round, v);
    if (gr_need_recompute(s->round, v, s->interval))
        allocate(s, v);
    gr_fill(s->round, v, plan, 0, s->gandiva != GS_GANDIVA);
}
