/* tiresias.c: Tiresias's discretized 2D-LAS and 2D-Gittins (preemptive,
 * non-oracle).
 *
 * Gu et al., "Tiresias: A GPU Cluster Manager for Distributed Deep Learning",
 * NSDI 2019, §3.2 (two-dimensional attained service, priority discretization,
 * the Gittins index, PROMOTEKNOB against starvation), §3.3 (the profiler and
 * the placement algorithm) and §4 (implementation: preemption by checkpoint).
 * A job's attained service is GPUs x time held (view->attained_service,
 * GPU-seconds). K queues: a job sits in the first queue k whose limit its
 * service has not reached (limits[k]); the last queue has no limit, so a job
 * is demoted each time its service crosses a limit. Queues are served in
 * order; within a queue
 * - tiresias-las: FIFO: by the time the job entered the queue (its submit
 *   time for a new job, the decision that demoted or promoted it otherwise),
 *   then (submit, id);
 * - tiresias-gittins: highest Gittins index first, with the index of a job
 *   with service a in a queue whose limit is a + D:
 *       G(a, D) = P(a < S <= a + D) / E[min(S - a, D); S > a]
 *   (the conditioning on S > a cancels), D = infinity in the last queue, ties
 *   FIFO as above. S is the GPU-service distribution, learned from
 *   view->finished (gpu_seconds); a counts from the last promotion, as the
 *   queues do (as in Tiresias's simulator).
 * GPUs are filled greedily in that order (a job that does not fit is passed
 * over); running jobs left out are preempted. Starvation promotion
 * (PROMOTEKNOB): a preempted job that has waited longer than promote_knob x
 * its last run goes back to the top queue, its service counted from then.
 * (Tiresias's simulator compares the total time waited with the total time
 * run, both since the last promotion; the two agree for a job preempted
 * once. Its runs use knobs 1, 2, 4 and 8.)
 *
 * Placement (§3.3): Tiresias's profiler marks a model skew-sensitive when
 * spreading its workers over machines slows it; only those are consolidated,
 * the others go wherever GPUs are free. Here the profiler's decision is the
 * perf model's: a job is skew-sensitive on a type when its throughput with one
 * GPU per node falls more than consolidate_loss below its throughput on the
 * fewest nodes (unknown rates count as sensitive). The plan is built in
 * priority order at node level: a running job keeps exactly its GPUs unless a
 * higher-priority job took one of them; any other job goes on the fastest type
 * where it can be placed, with explicit GPU ids, sensitive jobs on the fewest
 * nodes (the tightest node that holds them all), the others on the most
 * fragmented nodes first so whole nodes stay free for consolidated jobs. Idle
 * GPUs are used first, then GPUs of lower-priority running jobs (which are
 * preempted, as priority demands). A sensitive job that cannot be
 * consolidated waits (the paper's consolidation constraint), and its GPUs go
 * to the jobs after it.
 *
 * place=most_free is the Tiresias of Pollux's artifact instead (petuum/adaptdl
 * osdi21-artifact, simulator/tiresias.py; --like pollux sets it): no
 * profiler and no consolidation, see fill_most_free().
 *
 * Simplifications and why:
 * - Demotion is noticed at decisions (events and rounds), not at the exact
 *   instant a limit is crossed (the policy API has no "wake me at" call); with
 *   the default cadence a job overshoots a limit by at most one round.
 * - Defaults follow Tiresias's simulator: 3 queues, limits 3250 / 7200 /
 *   18000 GPU-s (the third limit unused with 3 queues). Pollux's re-
 *   implementation uses queues=2 limits=57600 (16 GPU-hours) promote_knob=0.
 *   promote_knob defaults to 0 (off): the paper leaves the knob to the operator.
 * - The Gittins distribution: the finished jobs' GPU-seconds. While fewer than
 *   min_history jobs have finished, 32 prior pseudo-samples are added, log-
 *   uniform over 60 s .. 10^6 GPU-s (the span of Philly's job GPU-times),
 *   so early decisions favour short-looking jobs without data. A job whose
 *   service already exceeds every sample gets index 0 (FIFO among such jobs).
 * - Heterogeneous clusters: a job goes on the fastest type with room (the
 *   paper's cluster is homogeneous).
 * - A job larger than every type it may run on is skipped.
 * - A view without the GPUs of running jobs (cur_gpu_ids) cannot be placed
 *   at node level: then the fill is type-level and the mechanism places (it
 *   packs every job on the fewest nodes, i.e. all are consolidated).
 * - tiresias-las decides from the queued jobs alone (policy.h's
 *   schedule_queued; within=fifo, place=skew, no fault seen) when each of them, in
 *   priority order, can be placed on idle GPUs of its fastest type: the full
 *   fill would then keep every running job and start the same jobs on the
 *   same GPUs. A running job's demotion is noticed at the same decision as on
 *   the full view: the policy predicts when each job it runs crosses its
 *   queue's limit (its service grows by its GPUs each second), and a
 *   decision too close to a crossing to tell (1e-8 relative) takes the full
 *   view. See ti_schedule_queued. */
#include "policies/idmap.h"
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TI_MAX_QUEUES 16
#define TI_PRIOR_SAMPLES 32

/* What the policy remembers of a job between decisions. */
typedef struct ti_job_mem {
    double offset;       /* attained_service at the last promotion */
    double preempted_at; /* s; NAN while running or never run */
    double last_run;     /* s, length of the last stint */
    double stint;        /* length of the current stint at the last decision */
    int held;            /* held GPUs at the end of the last decision */
    int queue;           /* queue at the last decision, -1 before the first */
    double entered;      /* s, when it entered that queue (FIFO key) */
    double pos;          /* within=running_first: place in its queue's list */
    int starts;          /* queued-only decisions: starts it was given there */
    long listed_at;      /* the queued-only decision that last listed it */
} ti_job_mem_t;

/* Queued-only decisions: when a running job's service reaches its queue's
 * limit, from its service svc0 at t0 and its rate (per s). */
typedef struct ti_cross {
    double t, t0, svc0, rate;
    int slot, starts, queue;
} ti_cross_t;

typedef struct ti_state {
    int gittins;
    int queues;
    double limits[TI_MAX_QUEUES];
    double promote_knob;
    double consolidate_loss;
    long min_history;
    int time_service;  /* service=time: seconds run, not GPU-seconds */
    int running_first; /* within=running_first: the simulator's list order */
    int most_free;     /* place=most_free: Pollux's artifact's placement */
    double next_pos;   /* the list's next free place */
    idmap_t ids;
    ti_job_mem_t *mem;
    size_t mem_cap;
    /* The last view's job ids and their slots in mem, in view order: the
     * next view mostly shows the same jobs in the same order. */
    int64_t *prev_ids;
    int *prev_slots;
    int n_prev;
    /* Gittins: sorted service samples and their prefix sums. */
    double *real; /* finished jobs' GPU-seconds, sorted */
    int n_real, n_seen, with_prior;
    double *samples, *prefix; /* real (+ prior), sorted, and prefix sums */
    int n_samples;
    /* samples=FILE: the simulator's fixed distribution and index table. */
    long *dist;      /* sorted service samples (GPU-s) */
    double *dist_gi; /* index of a service in (dist[k-1], dist[k]] */
    long n_dist;
    long delta;
    /* Queued-only decisions: a min-heap of crossings, rebuilt at every full
     * decision; 1 once a fault was seen (then every decision is full). */
    ti_cross_t *cross;
    int n_cross, cross_cap;
    long n_queued_calls;
    int faulted;
} ti_state_t;

/* ---- parameters ------------------------------------------------------------ */

static int parse_limits(const char *s, double *out, int *n, char *err, size_t errlen)
{
    *n = 0;
    const char *p = s;
    while (*p) {
        char *end;
        double d = strtod(p, &end);
        if (end == p || !(d > 0) || !isfinite(d) || (*n && d <= out[*n - 1]) ||
            *n >= TI_MAX_QUEUES) {
            snprintf(err, errlen,
                     "parameter limits=%s: want increasing GPU-second limits > 0 separated by "
                     "',' or ':' (at most %d)",
                     s, TI_MAX_QUEUES);
            return -1;
        }
        out[(*n)++] = d;
        p = end;
        if (*p == ',' || *p == ':')
            p++;
        else if (*p) {
            snprintf(err, errlen, "parameter limits=%s: '%c' is not a separator", s, *p);
            return -1;
        }
    }
    return 0;
}

/* ---- samples=FILE: Tiresias's simulator's fixed Gittins table ----------------
 * Its run_sim.py (parse_job_dist, cal_r_gittins_index, get_gittins_index)
 * learns nothing: it reads the `duration` column of a CSV (yarn-gput1000.csv,
 * GPU-seconds), sorts it (n samples d_0..d_n-1), and for each sample k
 * computes, at a = d_k - 1, with i = #{d <= a}, m = #{d <= a + delta} (n - 1
 * when a + delta > d_n-1 - 1):
 *     p = round((m - i) / (n - i), 5)
 *     e = floor((d_i + ... + d_m-1 + delta (n - m)) / (n - i))   (Python 2 ints)
 *     index_k = round(p 10^6 / e, 4)
 * A job with service a gets index_k of the first sample d_k > a, and 0 above
 * the largest sample. Its E sums the samples, not the samples minus a, and
 * delta is fixed (not the distance to the queue's limit): reproduced as is.
 * The file is read before the policy is created (its registry entry declares
 * samples:duration; policy_resolve reads the column with model/samples.h and
 * hands the numbers over in args): this policy only builds the table. */

static int cmp_long(const void *pa, const void *pb)
{
    long a = *(const long *)pa, b = *(const long *)pb;
    return a < b ? -1 : a > b;
}

static double round_to(double x, double scale)
{
    return round(x * scale) / scale;
}

static void dist_table(ti_state_t *s)
{
    long n = s->n_dist, *d = s->dist;
    s->dist_gi = pu_alloc((size_t)n, sizeof *s->dist_gi);
    for (long k = 0, i = 0; k < n; k++) {
        long a = d[k] - 1, m = i;
        if (a > d[n - 1] - 1)
            continue; /* index 0 */
        while (i < n && d[i] <= a)
            i++;
        if (a + s->delta > d[n - 1] - 1)
            m = n - 1;
        else
            for (m = i; m < n && d[m] <= a + s->delta; m++)
                ;
        long sum = s->delta * (n - m);
        for (long x = i; x < m; x++)
            sum += d[x];
        double p = round_to((double)(m - i) / (double)(n - i), 1e5);
        long e = sum / (n - i);
        s->dist_gi[k] = e > 0 ? round_to(p * 1e6 / (double)e, 1e4) : 0;
    }
}

/* The samples=FILE distribution, as read for this run by policy_resolve:
 * sorted into the policy's own copy, and its index table built. */
static int dist_load(ti_state_t *s, const policy_args_t *args, const char *path, char *err,
                     size_t errlen)
{
    long n;
    const long *v = policy_arg_samples(args, "samples", &n);
    if (!v) {
        snprintf(err, errlen,
                 "tiresias-gittins: samples=%s: the file was not read (a policy is given its "
                 "samples by policy_resolve)",
                 path);
        return -1;
    }
    if (n < 2) {
        snprintf(err, errlen, "tiresias-gittins: samples=%s: want at least 2 samples", path);
        return -1;
    }
    s->dist = pu_alloc((size_t)n, sizeof *s->dist);
    memcpy(s->dist, v, (size_t)n * sizeof *v);
    s->n_dist = n;
    qsort(s->dist, (size_t)n, sizeof *s->dist, cmp_long);
    dist_table(s);
    return 0;
}

/* The simulator's index of a job with service a (GPU-seconds). */
static double dist_index(const ti_state_t *s, double service)
{
    long a = (long)floor(service + 1e-6), lo = 0, hi = s->n_dist;
    if (a > s->dist[s->n_dist - 1])
        return 0;
    while (lo < hi) { /* first sample > a */
        long mid = (lo + hi) / 2;
        if (s->dist[mid] <= a)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < s->n_dist ? s->dist_gi[lo] : 0;
}

static int ti_create(void **state, const policy_args_t *args, int gittins, char *err, size_t errlen)
{
    static const char *const known_las[] = {
        "queues", "limits", "promote_knob", "consolidate_loss", "service", "within", "place", NULL};
    static const char *const known_git[] = {
        "queues",      "limits",  "promote_knob", "consolidate_loss",
        "min_history", "service", "within",       "samples",
        "delta",       "place",   NULL};
    const char *name = gittins ? "tiresias-gittins" : "tiresias-las";
    long queues, min_history, delta;
    double knob, loss;
    *state = NULL;
    if (policy_args_check(args, gittins ? known_git : known_las, name, err, errlen) ||
        policy_arg_long(args, "queues", 3, &queues, err, errlen) ||
        policy_arg_double(args, "promote_knob", 0, &knob, err, errlen) ||
        policy_arg_double(args, "consolidate_loss", 0.1, &loss, err, errlen) ||
        policy_arg_long(args, "min_history", 10, &min_history, err, errlen) ||
        policy_arg_long(args, "delta", 3250, &delta, err, errlen))
        return -1;
    ti_state_t *s = pu_alloc(1, sizeof *s);
    int n_limits = 0;
    if (parse_limits(policy_arg_str(args, "limits", "3250,7200,18000"), s->limits, &n_limits, err,
                     errlen) < 0)
        goto fail;
    if (queues < 1 || queues > TI_MAX_QUEUES || n_limits < queues - 1) {
        snprintf(err, errlen, "%s: queues=%ld: want 1..%d, and at least queues-1 limits (%d given)",
                 name, queues, TI_MAX_QUEUES, n_limits);
        goto fail;
    }
    if (!(knob >= 0) || !isfinite(knob)) {
        snprintf(err, errlen, "%s: promote_knob=%g: want >= 0 (0 = no promotion)", name, knob);
        goto fail;
    }
    if (!(loss >= 0 && loss < 1)) {
        snprintf(err, errlen, "%s: consolidate_loss=%g: want a fraction in [0, 1)", name, loss);
        goto fail;
    }
    const char *service = policy_arg_str(args, "service", "gpu");
    const char *within = policy_arg_str(args, "within", "fifo");
    if (strcmp(service, "gpu") && strcmp(service, "time")) {
        snprintf(err, errlen, "%s: service=%s: want gpu (GPU-seconds) or time (seconds)", name,
                 service);
        goto fail;
    }
    if (strcmp(within, "fifo") && strcmp(within, "running_first")) {
        snprintf(err, errlen, "%s: within=%s: want fifo or running_first", name, within);
        goto fail;
    }
    const char *place = policy_arg_str(args, "place", "skew");
    if (strcmp(place, "skew") && strcmp(place, "most_free")) {
        snprintf(err, errlen,
                 "%s: place=%s: want skew (consolidate skew-sensitive jobs) or most_free "
                 "(Pollux's artifact)",
                 name, place);
        goto fail;
    }
    s->most_free = !strcmp(place, "most_free");
    if (delta <= 0) {
        snprintf(err, errlen, "%s: delta=%ld: want > 0 GPU-seconds", name, delta);
        goto fail;
    }
    s->delta = delta;
    const char *file = policy_arg_str(args, "samples", NULL);
    if (file && dist_load(s, args, file, err, errlen) < 0)
        goto fail;
    s->time_service = !strcmp(service, "time");
    s->running_first = !strcmp(within, "running_first");
    if (min_history < 0) {
        snprintf(err, errlen, "%s: min_history=%ld: want >= 0", name, min_history);
        goto fail;
    }
    s->gittins = gittins;
    s->queues = (int)queues;
    s->promote_knob = knob;
    s->consolidate_loss = loss;
    s->min_history = min_history;
    idmap_init(&s->ids);
    *state = s;
    return 0;
fail:
    free(s->dist);
    free(s->dist_gi);
    free(s);
    return -1;
}

int tiresias_las_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    return ti_create(state, args, 0, err, errlen);
}

int tiresias_gittins_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    return ti_create(state, args, 1, err, errlen);
}

static void ti_destroy(void *state)
{
    ti_state_t *s = state;
    if (!s)
        return;
    idmap_free(&s->ids);
    free(s->mem);
    free(s->prev_ids);
    free(s->prev_slots);
    free(s->real);
    free(s->samples);
    free(s->prefix);
    free(s->dist);
    free(s->dist_gi);
    free(s->cross);
    free(s);
}

void tiresias_las_destroy(void *state)
{
    ti_destroy(state);
}

void tiresias_gittins_destroy(void *state)
{
    ti_destroy(state);
}

/* ---- per-job memory: promotion and starvation ------------------------------- */

/* The job's slot in s->mem (stable across growth, unlike a pointer). */
static int job_mem(ti_state_t *s, int64_t id)
{
    int before = s->ids.n, k = idmap_put(&s->ids, id);
    if ((size_t)k >= s->mem_cap) {
        size_t cap = s->mem_cap ? 2 * s->mem_cap : 64;
        ti_job_mem_t *m = pu_alloc(cap, sizeof *m);
        if (s->mem)
            memcpy(m, s->mem, s->mem_cap * sizeof *m);
        free(s->mem);
        s->mem = m;
        s->mem_cap = cap;
    }
    if (k >= before)
        s->mem[k] = (ti_job_mem_t){0, NAN, 0, 0, 0, -1, 0, 0, 0, -1};
    return k;
}

/* Notes stints, fault preemptions, and promotes starved jobs. */
/* Each view job's slot in s->mem: from the last view where it shows the
 * same job a few places on (jobs leave, new ones come at the end), else
 * from the id map; either way the id map's index for its id. */
static void find_slots(ti_state_t *s, const view_t *v, int *slot)
{
    int p = 0;
    for (int j = 0; j < v->n_jobs; j++) {
        int64_t id = v->jobs[j].id;
        int k = -1;
        for (int q = p; k < 0 && q < s->n_prev && q < p + 4; q++)
            if (s->prev_ids[q] == id) {
                k = s->prev_slots[q];
                p = q + 1;
            }
        slot[j] = k >= 0 ? k : job_mem(s, id);
    }
    free(s->prev_ids);
    free(s->prev_slots);
    s->prev_ids = pu_alloc((size_t)v->n_jobs, sizeof *s->prev_ids);
    s->prev_slots = pu_alloc((size_t)v->n_jobs, sizeof *s->prev_slots);
    for (int j = 0; j < v->n_jobs; j++) {
        s->prev_ids[j] = v->jobs[j].id;
        s->prev_slots[j] = slot[j];
    }
    s->n_prev = v->n_jobs;
}

static void observe(ti_state_t *s, const view_t *v, int *slot)
{
    find_slots(s, v, slot);
    for (int j = 0; j < v->n_jobs; j++) {
        const view_job_t *jb = &v->jobs[j];
        ti_job_mem_t *m = &s->mem[slot[j]];
        if (pu_holds(jb)) {
            m->stint = v->now - jb->last_start;
            m->held = 1;
            m->preempted_at = NAN;
            continue;
        }
        if (m->held) { /* stopped without our plan (a fault) */
            m->held = 0;
            m->preempted_at = v->now;
            m->last_run = m->stint;
        }
        if (s->promote_knob > 0 && !isnan(m->preempted_at) && m->last_run > 0 &&
            v->now - m->preempted_at >= s->promote_knob * m->last_run) {
            m->offset = jb->attained_service;
            m->preempted_at = NAN;
        }
    }
}

/* After the plan is made: jobs that held GPUs and are left out are preempted. */
static void note_preemptions(ti_state_t *s, const view_t *v, const plan_t *p, const int *slot)
{
    char *planned = pu_alloc((size_t)v->n_jobs, 1);
    for (int k = 0; k < p->n; k++)
        planned[p->allocs[k].job] = 1;
    for (int j = 0; j < v->n_jobs; j++) {
        ti_job_mem_t *m = &s->mem[slot[j]];
        if (m->held && !planned[j]) {
            m->held = 0;
            m->preempted_at = v->now;
            m->last_run = m->stint;
        }
    }
    free(planned);
}

/* ---- queues and the Gittins index -------------------------------------------- */

static int queue_of(const ti_state_t *s, double service)
{
    for (int k = 0; k < s->queues - 1; k++)
        if (service < s->limits[k])
            return k;
    return s->queues - 1;
}

static int cmp_double(const void *pa, const void *pb)
{
    double a = *(const double *)pa, b = *(const double *)pb;
    return a < b ? -1 : a > b ? 1 : 0;
}

/* Merges sorted a (na) and b (nb) into out. */
static void merge(const double *a, int na, const double *b, int nb, double *out)
{
    int i = 0, k = 0, n = 0;
    while (i < na || k < nb)
        out[n++] = k >= nb || (i < na && a[i] <= b[k]) ? a[i++] : b[k++];
}

/* Brings the sorted samples up to date with view->finished (and the prior):
 * new finished jobs are sorted among themselves and merged in, O(F) per
 * decision that follows completions instead of a full sort. */
static void refresh_samples(ti_state_t *s, const view_t *v)
{
    if (v->n_finished < s->n_seen) { /* a different history: start again */
        s->n_real = 0;
        s->n_seen = 0;
    }
    int prior = v->n_finished < s->min_history;
    if (s->samples && v->n_finished == s->n_seen && prior == s->with_prior)
        return;
    int fresh = v->n_finished - s->n_seen;
    double *add = pu_alloc((size_t)fresh, sizeof *add);
    for (int k = 0; k < fresh; k++)
        add[k] = v->finished[s->n_seen + k].gpu_seconds;
    qsort(add, (size_t)fresh, sizeof *add, cmp_double);
    double *real = pu_alloc((size_t)(s->n_real + fresh), sizeof *real);
    merge(s->real, s->n_real, add, fresh, real);
    free(s->real);
    free(add);
    s->real = real;
    s->n_real += fresh;
    s->n_seen = v->n_finished;
    s->with_prior = prior;
    double grid[TI_PRIOR_SAMPLES]; /* 60 .. 1e6 GPU-s, log-uniform */
    for (int k = 0; k < TI_PRIOR_SAMPLES; k++)
        grid[k] = 60.0 * pow(1e6 / 60.0, (k + 0.5) / TI_PRIOR_SAMPLES);
    int n = s->n_real + (prior ? TI_PRIOR_SAMPLES : 0);
    free(s->samples);
    free(s->prefix);
    s->samples = pu_alloc((size_t)n, sizeof *s->samples);
    s->prefix = pu_alloc((size_t)n + 1, sizeof *s->prefix);
    merge(s->real, s->n_real, grid, prior ? TI_PRIOR_SAMPLES : 0, s->samples);
    for (int k = 0; k < n; k++)
        s->prefix[k + 1] = s->prefix[k] + s->samples[k];
    s->n_samples = n;
}

/* Number of samples <= x. */
static int count_le(const ti_state_t *s, double x)
{
    int lo = 0, hi = s->n_samples;
    while (lo < hi) {
        int mid = (lo + hi) / 2;
        if (s->samples[mid] <= x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* G(a, d) over the samples; d = INFINITY in the last queue. */
static double gittins_index(const ti_state_t *s, double a, double d)
{
    int i = count_le(s, a);                                  /* samples <= a */
    int k = isfinite(d) ? count_le(s, a + d) : s->n_samples; /* samples <= a + d */
    int above = s->n_samples - i;
    if (above <= 0)
        return 0.0;
    double done_in = (s->prefix[k] - s->prefix[i]) - (double)(k - i) * a;
    double expect = done_in + (isfinite(d) ? (double)(s->n_samples - k) * d : 0.0);
    return expect > 0 ? (double)(k - i) / expect : 0.0;
}

/* ---- order ------------------------------------------------------------------- */

typedef struct ti_rank {
    int queue;
    double index;   /* higher first; 0 for LAS */
    int waiting;    /* within=running_first: 0 running, 1 waiting */
    double entered; /* into its queue: first in, first served (or its list place) */
    double submit;  /* (or the list place when entered is the submit) */
    int64_t id;
    int job;
} ti_rank_t;

static int cmp_rank(const void *pa, const void *pb)
{
    const ti_rank_t *a = pa, *b = pb;
    if (a->queue != b->queue)
        return a->queue - b->queue;
    if (a->index != b->index)
        return a->index > b->index ? -1 : 1;
    if (a->waiting != b->waiting)
        return a->waiting - b->waiting;
    if (a->entered != b->entered)
        return a->entered < b->entered ? -1 : 1;
    if (a->submit != b->submit)
        return a->submit < b->submit ? -1 : 1;
    return a->id < b->id ? -1 : a->id > b->id ? 1 : 0;
}

static int rank_less(const ti_rank_t *a, const ti_rank_t *b)
{
    return cmp_rank(a, b) < 0;
}

/* cmp_rank is a total order (indexes are finite, ids differ): qsort's result */
PU_DEFINE_MERGE_SORT(sort_ranks, ti_rank_t, rank_less)

static void priority_order(ti_state_t *s, const view_t *v, const int *slot, int *order)
{
    ti_rank_t *rk = pu_alloc((size_t)v->n_jobs * 2, sizeof *rk); /* and sort scratch */
    if (s->gittins && !s->dist)
        refresh_samples(s, v);
    for (int j = 0; j < v->n_jobs; j++) {
        const view_job_t *jb = &v->jobs[j];
        ti_job_mem_t *m = &s->mem[slot[j]];
        double svc = fmax(0.0, jb->attained_service - m->offset);
        if (s->time_service)
            svc /= jb->gpus_requested > 0 ? jb->gpus_requested : 1;
        int q = queue_of(s, svc), joined = q != m->queue;
        if (joined) { /* arrived, demoted or promoted: joins the tail */
            m->entered = m->queue < 0 && q == 0 ? jb->submit : v->now;
            m->pos = s->next_pos++;
            m->queue = q;
        }
        double index = 0;
        if (s->gittins && s->dist) {
            index = dist_index(s, svc);
        } else if (s->gittins) {
            double d = q < s->queues - 1 ? s->limits[q] - svc : INFINITY;
            index = gittins_index(s, svc, d);
        }
        /* The simulator's list: running jobs ahead of waiting ones, each in
         * list order, and a job that joins now behind both (with Gittins it
         * sorts by index, then submit, first). */
        int waiting = s->running_first && !s->gittins && (joined || !pu_holds(jb));
        double key = !s->running_first ? m->entered : s->gittins ? jb->submit : m->pos;
        double tie = s->running_first && s->gittins ? m->pos : jb->submit;
        rk[j] = (ti_rank_t){q, index, waiting, key, tie, jb->id, j};
    }
    /* queues first (a stable bucket pass), so that the merge sort starts
     * from runs already nearly in order; the order is total, so the result
     * is the same from any start */
    int *start = pu_alloc((size_t)s->queues + 1, sizeof *start);
    for (int j = 0; j < v->n_jobs; j++)
        start[rk[j].queue + 1]++;
    for (int q = 0; q < s->queues; q++)
        start[q + 1] += start[q];
    ti_rank_t *tmp = rk + v->n_jobs;
    for (int j = 0; j < v->n_jobs; j++)
        tmp[start[rk[j].queue]++] = rk[j];
    memcpy(rk, tmp, sizeof *rk * (size_t)v->n_jobs);
    free(start);
    sort_ranks(rk, rk + v->n_jobs, v->n_jobs);
    for (int j = 0; j < v->n_jobs; j++)
        order[j] = rk[j].job;
    free(rk);
}

/* ---- placement ----------------------------------------------------------------- */

/* Up nodes of `type`. */
static int up_nodes(const view_t *v, int type)
{
    int n = 0;
    for (int k = 0; k < v->n_nodes; k++)
        n += v->nodes[k].type == type && v->nodes[k].up;
    return n;
}

/* The profiler's decision, from the perf model (see the top of the file). */
static int skew_sensitive(const ti_state_t *s, const view_t *v, int job, int type)
{
    const view_job_t *jb = &v->jobs[job];
    int g = jb->gpus_requested, fewest = pu_min_nodes(v, type, g);
    int spread = up_nodes(v, type);
    if (spread > g)
        spread = g;
    if (spread <= fewest)
        return 0; /* it cannot be spread: nothing to decide */
    if (!v->perf || !v->perf->throughput)
        return 1;
    double packed = v->perf->throughput(v->perf->ctx, jb, type, g, fewest, 0);
    double spreaded = v->perf->throughput(v->perf->ctx, jb, type, g, spread, 0);
    if (isnan(packed) || isnan(spreaded))
        return 1;
    return spreaded < (1.0 - s->consolidate_loss) * packed;
}

/* The GPUs while the plan is built, in priority order. A GPU is claimed once
 * a job of the plan has it; it is "soft" while a running job that has not been
 * decided yet (so of lower priority) holds it: a higher-priority job may take
 * it, preempting that job. */
typedef struct ti_gpus {
    const view_t *v;
    unsigned char *claimed; /* per GPU id */
    unsigned char *decided; /* per job */
    int *free_n;            /* per node: usable GPUs in the current pick */
    int unclaimed;
} ti_gpus_t;

static int is_soft(const ti_gpus_t *tg, int id)
{
    int h = tg->v->gpu_holder ? tg->v->gpu_holder[id] : -1;
    return h >= 0 && h < tg->v->n_jobs && !tg->decided[h];
}

/* Usable GPUs per node of `type`: unclaimed, and not soft unless allowed. */
static void count_free(ti_gpus_t *tg, int type, int allow_soft)
{
    const view_t *v = tg->v;
    for (int k = 0; k < v->n_nodes; k++) {
        const view_node_t *nd = &v->nodes[k];
        tg->free_n[k] = 0;
        for (int i = 0; nd->type == type && nd->up && i < nd->gpus; i++) {
            int id = nd->first_gpu + i;
            tg->free_n[k] += !tg->claimed[id] && (allow_soft || !is_soft(tg, id));
        }
    }
}

/* The next node to take GPUs from, `need` GPUs still to place. consolidated:
 * the tightest node that holds them all, else the largest; relaxed: the most
 * fragmented node. -1 when no node has a usable GPU. */
static int next_node(const ti_gpus_t *tg, int type, int need, int consolidated)
{
    const view_t *v = tg->v;
    int best = -1;
    for (int k = 0; k < v->n_nodes; k++) {
        int f = tg->free_n[k];
        if (v->nodes[k].type != type || f <= 0)
            continue;
        int bf = best >= 0 ? tg->free_n[best] : 0, better;
        if (!consolidated)
            better = best < 0 || f < bf;
        else if (need <= f)
            better = best < 0 || bf < need || f < bf;
        else
            better = best < 0 || (bf < need && f > bf);
        if (better)
            best = k;
    }
    return best;
}

/* Takes up to `need` usable GPUs of node k into ids, idle ones first. */
static int take_from(ti_gpus_t *tg, int k, int need, int allow_soft, int *ids)
{
    const view_node_t *nd = &tg->v->nodes[k];
    int got = 0;
    for (int pass = 0; pass < 1 + allow_soft; pass++)
        for (int i = 0; i < nd->gpus && got < need; i++) {
            int id = nd->first_gpu + i;
            if (!tg->claimed[id] && is_soft(tg, id) == pass) {
                tg->claimed[id] = 1;
                ids[got++] = id;
            }
        }
    tg->free_n[k] -= got;
    return got;
}

/* Picks g GPUs of `type` (see next_node); consolidated picks may span no more
 * than the fewest nodes possible. Claims them and returns 0, or claims nothing
 * and returns -1. */
static int pick_gpus(ti_gpus_t *tg, int type, int g, int consolidated, int allow_soft, int *ids)
{
    const view_t *v = tg->v;
    count_free(tg, type, allow_soft);
    int avail = 0;
    for (int k = 0; k < v->n_nodes; k++)
        avail += tg->free_n[k];
    if (avail < g)
        return -1;
    int fewest = pu_min_nodes(v, type, g), got = 0, used = 0;
    while (got < g) {
        int k = next_node(tg, type, g - got, consolidated);
        if (k < 0 || (consolidated && ++used > fewest)) {
            for (int i = 0; i < got; i++) /* undo */
                tg->claimed[ids[i]] = 0;
            return -1;
        }
        got += take_from(tg, k, g - got, allow_soft, ids + got);
    }
    tg->unclaimed -= g;
    return 0;
}

/* Keeps a running job on exactly its GPUs when none of them is claimed. */
static int keep_in_place(ti_gpus_t *tg, int job, plan_t *plan)
{
    const view_job_t *jb = &tg->v->jobs[job];
    if (!pu_holds(jb) || jb->cur_gpus != jb->gpus_requested || !jb->cur_gpu_ids)
        return 0;
    for (int i = 0; i < jb->cur_gpus; i++) {
        int id = jb->cur_gpu_ids[i];
        if (id < 0 || id >= tg->v->n_gpus || tg->claimed[id])
            return 0;
    }
    for (int i = 0; i < jb->cur_gpus; i++)
        tg->claimed[jb->cur_gpu_ids[i]] = 1;
    tg->unclaimed -= jb->cur_gpus;
    plan_run(plan, job, jb->cur_type, jb->cur_gpus);
    return 1;
}

/* Starts a job on the fastest type where it can be placed; on each type idle
 * GPUs first, else GPUs of lower-priority running jobs (which are preempted,
 * as a type-level priority fill would preempt them). */
static void start_placed(const ti_state_t *s, ti_gpus_t *tg, int job, plan_t *plan, int *ids)
{
    const view_t *v = tg->v;
    int g = v->jobs[job].gpus_requested;
    int *types = pu_alloc((size_t)v->n_types, sizeof *types);
    int n = pu_type_order(v, job, types), done = 0;
    for (int i = 0; i < n && !done; i++) {
        int cons = skew_sensitive(s, v, job, types[i]);
        for (int allow_soft = 0; allow_soft < 2 && !done; allow_soft++)
            if (pick_gpus(tg, types[i], g, cons, allow_soft, ids) == 0) {
                plan_run_on(plan, job, types[i], ids, g);
                done = 1;
            }
    }
    free(types);
}

/* Fills the plan in priority order with node-level placement. */
static void fill_placed(const ti_state_t *s, const view_t *v, const int *order, plan_t *plan)
{
    ti_gpus_t tg = {v, pu_alloc((size_t)v->n_gpus, 1), pu_alloc((size_t)v->n_jobs, 1),
                    pu_alloc((size_t)v->n_nodes, sizeof(int)), 0};
    int *ids = pu_alloc((size_t)v->n_gpus, sizeof *ids);
    memset(tg.claimed, 1, (size_t)v->n_gpus); /* unclaimed: the GPUs of nodes that are up */
    for (int k = 0; k < v->n_nodes; k++) {
        int lo = v->nodes[k].first_gpu, hi = lo + v->nodes[k].gpus;
        hi = hi < v->n_gpus ? hi : v->n_gpus;
        if (v->nodes[k].up && hi > lo) {
            memset(tg.claimed + lo, 0, (size_t)(hi - lo));
            tg.unclaimed += hi - lo;
        }
    }
    for (int i = 0; i < v->n_jobs && tg.unclaimed > 0; i++) {
        int j = order[i];
        if (v->jobs[j].gpus_requested <= tg.unclaimed && !keep_in_place(&tg, j, plan) &&
            pu_ever_fits(v, j))
            start_placed(s, &tg, j, plan, ids);
        tg.decided[j] = 1;
    }
    free(ids);
    free(tg.claimed);
    free(tg.decided);
    free(tg.free_n);
}

/* ---- place=most_free: the Tiresias of Pollux's artifact ----------------------
 * (petuum/adaptdl osdi21-artifact, simulator/tiresias.py optimize()): first the
 * jobs that run are chosen by GPU count alone, in priority order, a job that
 * does not fit in what is left passed over; running jobs among them keep their
 * GPUs, the others are stopped; then each job to start, in priority order,
 * takes min(free, needed) GPUs from the node with the most free GPUs (the
 * lowest index among equals: Counter.most_common), again until it has them
 * all. No job waits for a node, and a job may span more nodes than it needs.
 * On several types (the artifact has one) a job counts against, and is
 * placed on, the first type of pu_type_order with room. */

/* Node of `type` with the most unclaimed GPUs (lowest index first), -1 if none. */
static int most_free_node(const view_t *v, const unsigned char *claimed, int type, int *n_free)
{
    int best = -1, bf = 0;
    for (int k = 0; k < v->n_nodes; k++) {
        const view_node_t *nd = &v->nodes[k];
        int f = 0;
        for (int i = 0; nd->type == type && nd->up && i < nd->gpus; i++)
            f += nd->first_gpu + i < v->n_gpus && !claimed[nd->first_gpu + i];
        if (f > bf) {
            best = k;
            bf = f;
        }
    }
    *n_free = bf;
    return best;
}

static void fill_most_free(const view_t *v, const int *order, plan_t *plan)
{
    unsigned char *claimed = pu_alloc((size_t)v->n_gpus, 1);
    int *avail = pu_alloc((size_t)v->n_types, sizeof *avail);
    int *type_of = pu_alloc((size_t)v->n_jobs, sizeof *type_of);
    int *types = pu_alloc((size_t)v->n_types, sizeof *types);
    int *ids = pu_alloc((size_t)v->n_gpus, sizeof *ids);
    memset(claimed, 1, (size_t)v->n_gpus);
    for (int k = 0; k < v->n_nodes; k++)
        for (int i = 0; v->nodes[k].up && i < v->nodes[k].gpus; i++)
            if (v->nodes[k].first_gpu + i < v->n_gpus) {
                claimed[v->nodes[k].first_gpu + i] = 0;
                avail[v->nodes[k].type]++;
            }
    for (int i = 0; i < v->n_jobs; i++) { /* who runs: by count */
        int j = order[i], g = v->jobs[j].gpus_requested, n = pu_type_order(v, j, types);
        type_of[j] = -1;
        for (int t = 0; t < n && type_of[j] < 0; t++)
            if (g > 0 && g <= avail[types[t]]) {
                type_of[j] = types[t];
                avail[types[t]] -= g;
            }
    }
    for (int i = 0; i < v->n_jobs; i++) { /* running jobs keep their GPUs */
        int j = order[i];
        const view_job_t *jb = &v->jobs[j];
        int keep = type_of[j] >= 0 && pu_holds(jb) && jb->cur_type == type_of[j] &&
                   jb->cur_gpus == jb->gpus_requested && jb->cur_gpu_ids;
        for (int k = 0; keep && k < jb->cur_gpus; k++)
            keep = jb->cur_gpu_ids[k] >= 0 && jb->cur_gpu_ids[k] < v->n_gpus &&
                   !claimed[jb->cur_gpu_ids[k]];
        if (!keep)
            continue;
        for (int k = 0; k < jb->cur_gpus; k++)
            claimed[jb->cur_gpu_ids[k]] = 1;
        plan_run(plan, j, jb->cur_type, jb->cur_gpus);
        type_of[j] = -1; /* placed */
    }
    for (int i = 0; i < v->n_jobs; i++) { /* the others start: most free node first */
        int j = order[i], t = type_of[j], g = v->jobs[j].gpus_requested, got = 0, f;
        if (t < 0)
            continue;
        for (int k; got < g && (k = most_free_node(v, claimed, t, &f)) >= 0;) {
            const view_node_t *nd = &v->nodes[k];
            for (int x = 0; x < nd->gpus && got < g; x++)
                if (!claimed[nd->first_gpu + x]) {
                    claimed[nd->first_gpu + x] = 1;
                    ids[got++] = nd->first_gpu + x;
                }
        }
        if (got == g)
            plan_run_on(plan, j, t, ids, g);
    }
    free(ids);
    free(types);
    free(type_of);
    free(avail);
    free(claimed);
}

/* ---- schedule ------------------------------------------------------------------ */

/* within=running_first: after each decision the simulator moves every waiting
 * job behind the running ones of its queue, both kept in list order. */
static void relist(ti_state_t *s, const view_t *v, const plan_t *p, const int *slot,
                   const int *order)
{
    char *planned = pu_alloc((size_t)v->n_jobs, 1);
    for (int k = 0; k < p->n; k++)
        planned[p->allocs[k].job] = 1;
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < v->n_jobs; i++)
            if (planned[order[i]] == !pass)
                s->mem[slot[order[i]]].pos = s->next_pos++;
    free(planned);
}

/* Node-level placement needs the nodes and the GPUs each running job holds. */
static int gpus_known(const view_t *v)
{
    if (v->n_nodes <= 0 || !v->nodes || v->n_gpus <= 0)
        return 0;
    for (int j = 0; j < v->n_jobs; j++)
        if (pu_holds(&v->jobs[j]) && !v->jobs[j].cur_gpu_ids)
            return 0;
    return 1;
}

/* ---- queued-only decisions (tiresias_las_schedule_queued) ------------------------ */

static double cross_margin(double t)
{
    return 1e-8 * (1 + fabs(t));
}

static void cross_push(ti_state_t *s, ti_cross_t c)
{
    if (s->n_cross == s->cross_cap) {
        int cap = s->cross_cap ? 2 * s->cross_cap : 64;
        ti_cross_t *h = pu_alloc((size_t)cap, sizeof *h);
        if (s->cross)
            memcpy(h, s->cross, sizeof *h * (size_t)s->n_cross);
        free(s->cross);
        s->cross = h;
        s->cross_cap = cap;
    }
    int i = s->n_cross++;
    while (i > 0 && s->cross[(i - 1) / 2].t > c.t) {
        s->cross[i] = s->cross[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    s->cross[i] = c;
}

static void cross_pop(ti_state_t *s)
{
    ti_cross_t last = s->cross[--s->n_cross];
    int i = 0, n = s->n_cross;
    for (;;) {
        int c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && s->cross[c + 1].t < s->cross[c].t)
            c++;
        if (!(s->cross[c].t < last.t))
            break;
        s->cross[i] = s->cross[c];
        i = c;
    }
    if (n > 0)
        s->cross[i] = last;
}

/* A job that runs from now on `gpus` GPUs with service svc in queue m->queue
 * (as priority_order() computed them): when it reaches the queue's limit. */
static void cross_watch(ti_state_t *s, int slot, const view_job_t *jb, int gpus, double now)
{
    const ti_job_mem_t *m = &s->mem[slot];
    if (m->queue < 0 || m->queue >= s->queues - 1)
        return;
    double svc = fmax(0.0, jb->attained_service - m->offset), rate = gpus;
    if (s->time_service) {
        svc /= jb->gpus_requested > 0 ? jb->gpus_requested : 1;
        rate /= jb->gpus_requested > 0 ? jb->gpus_requested : 1;
    }
    if (!(rate > 0))
        return;
    cross_push(s, (ti_cross_t){now + (s->limits[m->queue] - svc) / rate, now, svc, rate, slot,
                               m->starts, m->queue});
}

/* After a full decision: the crossings of every job of the plan. */
static void cross_rebuild(ti_state_t *s, const view_t *v, const plan_t *p, const int *slot)
{
    s->n_cross = 0;
    for (int k = 0; k < p->n; k++)
        cross_watch(s, slot[p->allocs[k].job], &v->jobs[p->allocs[k].job], p->allocs[k].gpus,
                    v->now);
}

/* The demotions the full view would show now: running jobs whose service
 * passed their queue's limit join the next queue now (priority_order()'s
 * `joined`). Returns -1 when a crossing is too close to now to tell. */
static int cross_demote(ti_state_t *s, double now)
{
    while (s->n_cross > 0 && s->cross[0].t <= now + cross_margin(s->cross[0].t)) {
        ti_cross_t c = s->cross[0];
        ti_job_mem_t *m = &s->mem[c.slot];
        if (c.starts != m->starts || c.queue != m->queue || m->listed_at == s->n_queued_calls) {
            cross_pop(s); /* it stopped (or never started): no longer running */
            continue;
        }
        if (c.t > now - cross_margin(c.t))
            return -1;
        double svc = c.svc0 + (now - c.t0) * c.rate;
        for (int k = 0; k < s->queues - 1; k++)
            if (fabs(svc - s->limits[k]) <= cross_margin(svc))
                return -1;
        cross_pop(s);
        int q = queue_of(s, svc);
        m->entered = now;
        m->pos = s->next_pos++;
        m->queue = q;
        if (q < s->queues - 1)
            cross_push(s, (ti_cross_t){c.t0 + (s->limits[q] - c.svc0) / c.rate, c.t0, c.svc0,
                                       c.rate, c.slot, c.starts, q});
    }
    return 0;
}

/* fill_placed() for the queued jobs alone: each on idle GPUs of its fastest
 * type, or -1 (the full fill might preempt, or choose another type). */
static int fill_queued(ti_state_t *s, const view_t *v, const int *order, const int *slot,
                       plan_t *plan)
{
    ti_gpus_t tg = {v, pu_alloc((size_t)v->n_gpus, 1), pu_alloc((size_t)v->n_jobs + 1, 1),
                    pu_alloc((size_t)v->n_nodes, sizeof(int)), 0};
    int *ids = pu_alloc((size_t)v->n_gpus, sizeof *ids);
    int *types = pu_alloc((size_t)v->n_types, sizeof *types), rc = 0;
    unsigned char *ready = pu_alloc((size_t)v->n_types, 1);
    /* unclaimed: the idle GPUs of nodes that are up, marked type by type as
     * a job first looks at one (free_gpus counts them) */
    memset(tg.claimed, 1, (size_t)v->n_gpus);
    for (int t = 0; t < v->n_types; t++)
        tg.unclaimed += v->types[t].free_gpus;
    for (int i = 0; i < v->n_jobs && rc == 0; i++) {
        int j = order[i], g = v->jobs[j].gpus_requested;
        if (!pu_ever_fits(v, j))
            continue;
        if (g > tg.unclaimed || pu_type_order(v, j, types) < 1) {
            rc = -1;
            break;
        }
        for (int k = 0; !ready[types[0]] && k < v->n_nodes; k++)
            for (int q = 0; v->nodes[k].type == types[0] && v->nodes[k].up && q < v->nodes[k].gpus;
                 q++) {
                int id = v->nodes[k].first_gpu + q;
                if (id < v->n_gpus && v->gpu_holder[id] == -1)
                    tg.claimed[id] = 0;
            }
        ready[types[0]] = 1;
        if (pick_gpus(&tg, types[0], g, skew_sensitive(s, v, j, types[0]), 0, ids) < 0) {
            rc = -1;
            break;
        }
        plan_run_on(plan, j, types[0], ids, g);
        s->mem[slot[j]].starts++;
        cross_watch(s, slot[j], &v->jobs[j], g, v->now);
    }
    free(ready);
    free(types);
    free(ids);
    free(tg.claimed);
    free(tg.decided);
    free(tg.free_n);
    return rc;
}

/* A decision from the queued jobs (see the top). The memory it writes before
 * it gives up is what the full decision writes too (observe, promotions and
 * queue changes are idempotent at one instant). */
static int ti_schedule_queued(ti_state_t *s, const view_t *v, plan_t *plan)
{
    s->faulted |= (v->reasons & MLS_WHY_FAULT) != 0;
    if (s->faulted || s->gittins || s->running_first || s->most_free || !v->gpu_holder ||
        v->n_nodes <= 0 || !v->nodes || v->n_gpus <= 0)
        return MLS_DECIDE_FULL;
    s->n_queued_calls++;
    int *slot = pu_alloc((size_t)v->n_jobs + 1, sizeof *slot);
    int *order = pu_alloc((size_t)v->n_jobs + 1, sizeof *order);
    observe(s, v, slot);
    for (int j = 0; j < v->n_jobs; j++)
        s->mem[slot[j]].listed_at = s->n_queued_calls;
    int rc = cross_demote(s, v->now);
    if (rc == 0 && v->n_jobs > 0) { /* (none listed: nothing starts) */
        priority_order(s, v, slot, order);
        rc = fill_queued(s, v, order, slot, plan);
    }
    free(order);
    free(slot);
    return rc < 0 ? MLS_DECIDE_FULL : 0;
}

static int ti_schedule(void *state, const view_t *v, plan_t *plan)
{
    ti_state_t *s = state;
    int *slot = pu_alloc((size_t)v->n_jobs, sizeof *slot);
    int *order = pu_alloc((size_t)v->n_jobs, sizeof *order);
    s->faulted |= (v->reasons & MLS_WHY_FAULT) != 0;
    observe(s, v, slot);
    priority_order(s, v, slot, order);
    if (gpus_known(v) && s->most_free)
        fill_most_free(v, order, plan);
    else if (gpus_known(v))
        fill_placed(s, v, order, plan);
    else /* GPUs unknown: type-level greedy fill, the mechanism places */
        pu_fill(v, order, v->n_jobs, plan);
    note_preemptions(s, v, plan, slot);
    if (s->running_first)
        relist(s, v, plan, slot, order);
    if (!s->gittins && !s->running_first) /* what ti_schedule_queued() may use */
        cross_rebuild(s, v, plan, slot);
    free(order);
    free(slot);
    return 0;
}

int tiresias_las_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return ti_schedule(state, v, plan);
}

int tiresias_las_schedule_queued(void *state, const view_t *v, plan_t *plan, char *err,
                                 size_t errlen)
{
    (void)err;
    (void)errlen;
    return ti_schedule_queued(state, v, plan);
}

int tiresias_gittins_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    (void)err;
    (void)errlen;
    return ti_schedule(state, v, plan);
}
