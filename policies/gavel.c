/* gavel.c: the driver shared by Gavel's heterogeneity-aware policies
 * (Narayanan et al., "Heterogeneity-Aware Cluster Scheduling Policies for Deep
 * Learning Workloads", OSDI 2020); see gavel.h. Each policy file
 * (gavel_max_min_fairness.c, gavel_finish_time_fairness.c, ...) names its
 * objective; this file assembles its LP from the view (jobs that can run,
 * per-type profiled throughputs, capacities of the up nodes, pair rows for
 * the packed variant), solves it with gavel_lp.c, and hands the allocation X
 * to Gavel's round mechanism (section 5, gavel_round.c). X is recomputed only
 * when jobs arrived or finished and at least `recompute_interval` seconds
 * (Gavel: 1920) have passed since the last recompute. Throughputs are the
 * profiled table (view->perf, as Gavel's oracle throughputs).
 *
 * Simplifications (all policies):
 * - Jobs are rigid (their requested GPU count); a count with no table entry
 *   runs at the perf model's scaled rate. Unknown throughputs (NAN) count as
 *   0 in the perf LPs; such a job can still run on leftover GPUs.
 * - Jobs that can never fit get nothing and are left out of the LP.
 * - The packed variant limits candidate pairs to each job's
 *   `pair_candidates` best partners (by combined normalised throughput on the
 *   best type, which must exceed 1), to keep the LP small; Gavel's code
 *   instead aggregates pairs by job type.
 * - Leftover GPUs go to jobs with no allocation (priority 0) as in Gavel's
 *   queue, except under fifo-perf; jobs that arrived after the last
 *   recompute take them too unless new_jobs=wait (Gavel's and Shockwave's
 *   placement, see gavel_round.h); received_start=half_round gives the
 *   priorities of Gavel's code (see gavel_round.h). */
#include "policies/gavel.h"
#include "policies/gavel_lp.h"
#include "policies/gavel_round.h"
#include "policies/policies.h"
#include "policies/policy_util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct ftf_mem {
    int64_t id;
    double iso_time;  /* isolated time accumulated, s */
    double remaining; /* R at the last recompute */
    double iso_rate;  /* iso_j at the last recompute */
} ftf_mem_t;

/* compute_allocation's arrays (gv_buf). */
enum { GB_VIEW_OF, GB_ROWS, GB_JOB_ID, GB_RATE, GB_CAP, GB_X, GB_JOBS, GB_W, GB_N };

typedef struct gv_state {
    gv_kind_t kind;
    const char *name;
    gr_state_t *round;
    double min_interval;
    long pair_candidates;
    ftf_mem_t *mem; /* sorted by id */
    int n_mem;
    gl_warm_t *warm; /* the last LP's basis (NULL: every recompute starts cold) */
    int gavel_rules; /* rules=gavel (gavel_round.h) */
    int bisect;      /* min-total-duration: bisect=1, Gavel's T and X (gavel_center.c) */
    void *buf[GB_N]; /* compute_allocation's arrays, kept between recomputes */
    size_t buf_cap[GB_N];
} gv_state_t;

/* Buffer k of s with n bytes, zeroed. */
static void *gv_buf(gv_state_t *s, int k, size_t n)
{
    if (n > s->buf_cap[k] || !s->buf[k]) { /* (n 0: still a buffer, memset's) */
        free(s->buf[k]);
        s->buf_cap[k] = n + n / 2 + 64;
        s->buf[k] = pu_alloc(s->buf_cap[k], 1);
    }
    memset(s->buf[k], 0, n);
    return s->buf[k];
}

/* Buffer k of s with room for n bytes, its contents kept. */
static void *gv_grow(gv_state_t *s, int k, size_t n)
{
    if (n > s->buf_cap[k] || !s->buf[k]) {
        void *p = realloc(s->buf[k], n ? n : 1);
        if (!p) {
            fprintf(stderr, "mlsched: out of memory in %s\n", s->name);
            abort();
        }
        s->buf[k] = p;
        s->buf_cap[k] = n;
    }
    return s->buf[k];
}

/* The LP's jobs (view indices), rows and rates being assembled. */
typedef struct gv_problem {
    int n_jobs;     /* LP jobs */
    int *view_of;   /* LP job -> view index */
    int64_t *job_id; /* LP job -> job id */
    gl_row_t *rows; /* singles first (row i = LP job i), then pairs */
    int n_rows;
    double *rate; /* (r * T + t) * 2 + k */
    double *cap;
    gl_lp_t lp;
} gv_problem_t;

static const char *const known_params[] = {"recompute_interval", "pair_candidates", "warm_start",
                                           "new_jobs", "received_start", "rules", "bisect",
                                           "shortcuts", NULL};

int gv_create(gv_kind_t kind, const char *name, void **state, const policy_args_t *args,
                     char *err, size_t errlen)
{
    *state = NULL;
    if (policy_args_check(args, known_params, name, err, errlen))
        return -1;
    double interval;
    long pairs, warm, bisect;
    if (policy_arg_double(args, "recompute_interval", 1920.0, &interval, err, errlen) ||
        policy_arg_long(args, "pair_candidates", 4, &pairs, err, errlen) ||
        policy_arg_long(args, "warm_start", 0, &warm, err, errlen) ||
        policy_arg_long(args, "bisect", 0, &bisect, err, errlen))
        return -1;
    if (bisect != 0 && (kind != GV_MTD || bisect != 1)) {
        snprintf(err, errlen, "%s: bisect is min-total-duration's, 0 or 1 (got %ld)", name, bisect);
        return -1;
    }
    if (warm != 0 && warm != 1) {
        snprintf(err, errlen, "%s: warm_start must be 0 or 1 (got %ld)", name, warm);
        return -1;
    }
    if (!(interval >= 0) || !isfinite(interval)) {
        snprintf(err, errlen, "%s: recompute_interval must be a finite number >= 0 (got %g)", name,
                 interval);
        return -1;
    }
    if (pairs < 0 || pairs > 1000) {
        snprintf(err, errlen, "%s: pair_candidates must be in [0, 1000] (got %ld)", name, pairs);
        return -1;
    }
    gr_opts_t opts;
    if (gr_opts_parse(args, name, &opts, err, errlen))
        return -1;
    gv_state_t *s = pu_alloc(1, sizeof *s);
    s->kind = kind;
    s->name = name;
    s->round = gr_create();
    gr_set_opts(s->round, &opts);
    s->min_interval = interval;
    s->gavel_rules = opts.gavel_rules;
    s->bisect = (int)bisect;
    s->pair_candidates = pairs;
    s->warm = warm ? gl_warm_create() : NULL;
    *state = s;
    return 0;
}

void gv_destroy(void *state)
{
    gv_state_t *s = state;
    if (!s)
        return;
    gr_destroy(s->round);
    gl_warm_free(s->warm);
    free(s->mem);
    for (int k = 0; k < GB_N; k++)
        free(s->buf[k]);
    free(s);
}

/* ---- assembling the LP ---------------------------------------------------- */

/* Rate of view job j alone on type t for the policy's LP (pu_rate, through
 * the round state's memo). */
static double single_rate(const gv_state_t *s, const view_t *v, int j, int t)
{
    int g = v->jobs[j].gpus_requested;
    if (g <= 0 || g > v->types[t].total_gpus)
        return 0.0;
    double r = gr_rate(s->round, v, j, t);
    if (s->kind == GV_MMF)
        return isnan(r) || r > 0 ? 1.0 : 0.0;
    return isnan(r) || r < 0 ? 0.0 : r;
}

/* pu_ever_fits() through the round state's rates. */
static int ever_fits(const gv_state_t *s, const view_t *v, int j)
{
    int g = v->jobs[j].gpus_requested;
    for (int t = 0; t < v->n_types && g > 0; t++) {
        if (g > v->types[t].total_gpus)
            continue;
        double r = gr_rate(s->round, v, j, t);
        if (isnan(r) || r > 0)
            return 1;
    }
    return 0;
}

static void add_singles(gv_state_t *s, const view_t *v, gv_problem_t *pb)
{
    int T = v->n_types;
    pb->view_of = gv_buf(s, GB_VIEW_OF, (size_t)v->n_jobs * sizeof *pb->view_of);
    for (int j = 0; j < v->n_jobs; j++)
        if (ever_fits(s, v, j))
            pb->view_of[pb->n_jobs++] = j;
    pb->rows = gv_buf(s, GB_ROWS, (size_t)pb->n_jobs * sizeof *pb->rows);
    pb->job_id = gv_buf(s, GB_JOB_ID, (size_t)pb->n_jobs * sizeof *pb->job_id);
    pb->rate = gv_buf(s, GB_RATE, (size_t)pb->n_jobs * T * 2 * sizeof *pb->rate);
    for (int i = 0; i < pb->n_jobs; i++) {
        int j = pb->view_of[i];
        pb->rows[i] = (gl_row_t){{i, -1}, v->jobs[j].gpus_requested};
        pb->job_id[i] = v->jobs[j].id;
        for (int t = 0; t < T; t++)
            pb->rate[(i * T + t) * 2] = single_rate(s, v, j, t);
    }
    pb->n_rows = pb->n_jobs;
    pb->cap = gv_buf(s, GB_CAP, (size_t)T * sizeof *pb->cap);
    pu_room_t room;
    pu_room_init(&room, v);
    for (int t = 0; t < T; t++)
        pb->cap[t] = room.room[t];
    pu_room_free(&room);
}

typedef struct pair_cand {
    int other;
    double score;
} pair_cand_t;

static int cmp_cand(const void *pa, const void *pb)
{
    const pair_cand_t *a = pa, *b = pb;
    if (a->score != b->score)
        return a->score > b->score ? -1 : 1;
    return a->other - b->other;
}

/* Combined normalised throughput of LP jobs i and k sharing GPUs on their best
 * type; the pair rates go to out (per type, 2 each); 0 when they cannot. */
static double pair_score(const view_t *v, const gv_problem_t *pb, int i, int k, double *out)
{
    int T = v->n_types, g = pb->rows[i].gpus;
    double best = 0.0;
    const view_job_t *a = &v->jobs[pb->view_of[i]], *b = &v->jobs[pb->view_of[k]];
    for (int t = 0; t < T; t++) {
        double r[2] = {0, 0};
        double ra = pb->rate[(i * T + t) * 2], rb = pb->rate[(k * T + t) * 2];
        out[2 * t] = out[2 * t + 1] = 0.0;
        if (!(ra > 0 && rb > 0) ||
            v->perf->pair_throughput(v->perf->ctx, a, b, t, g, r) != 0 || !(r[0] > 0) ||
            !(r[1] > 0))
            continue;
        out[2 * t] = r[0];
        out[2 * t + 1] = r[1];
        double sc = r[0] / ra + r[1] / rb;
        if (sc > best)
            best = sc;
    }
    return best;
}

/* Pair rows: each job's pair_candidates best partners with the same GPU
 * count whose combined normalised throughput exceeds 1. */
static void add_pairs(gv_state_t *s, const view_t *v, gv_problem_t *pb)
{
    int n = pb->n_jobs, T = v->n_types, K = (int)s->pair_candidates;
    if (K <= 0 || !v->perf || !v->perf->pair_throughput || n < 2)
        return;
    pair_cand_t *cand = pu_alloc((size_t)n, sizeof *cand);
    double *tmp = pu_alloc((size_t)T * 2, sizeof *tmp);
    unsigned char *chosen = pu_alloc((size_t)n * (size_t)n, 1);
    int n_pairs = 0;
    for (int i = 0; i < n; i++) {
        int nc = 0;
        for (int k = 0; k < n; k++) {
            if (k == i || pb->rows[k].gpus != pb->rows[i].gpus)
                continue;
            double sc = pair_score(v, pb, i, k, tmp);
            if (sc > 1.0)
                cand[nc++] = (pair_cand_t){k, sc};
        }
        qsort(cand, (size_t)nc, sizeof *cand, cmp_cand);
        for (int c = 0; c < nc && c < K; c++) {
            int lo = i < cand[c].other ? i : cand[c].other, hi = i + cand[c].other - lo;
            if (!chosen[(size_t)lo * n + hi]) {
                chosen[(size_t)lo * n + hi] = 1;
                n_pairs++;
            }
        }
    }
    pb->rows = gv_grow(s, GB_ROWS, (size_t)(n + n_pairs) * sizeof *pb->rows);
    pb->rate = gv_grow(s, GB_RATE, (size_t)(n + n_pairs) * T * 2 * sizeof *pb->rate);
    for (int lo = 0; lo < n; lo++)
        for (int hi = lo + 1; hi < n; hi++)
            if (chosen[(size_t)lo * n + hi]) {
                int r = pb->n_rows++;
                pb->rows[r] = (gl_row_t){{lo, hi}, pb->rows[lo].gpus};
                pair_score(v, pb, lo, hi, &pb->rate[(size_t)r * T * 2]);
            }
    free(chosen);
    free(tmp);
    free(cand);
}

static void problem_link(gv_problem_t *pb, int n_types, gl_warm_t *warm)
{
    pb->lp = (gl_lp_t){pb->n_jobs, n_types, pb->n_rows, pb->rows, pb->rate, pb->cap,
                       warm ? pb->job_id : NULL, warm};
}

/* ---- objectives ---------------------------------------------------------- */

/* Gavel's max-min weights: gpus / (priority * proportional throughput). */
static void maxmin_weights(const view_t *v, const gv_problem_t *pb, double *w)
{
    int T = v->n_types;
    double total = 0;
    for (int t = 0; t < T; t++)
        total += pb->cap[t];
    for (int i = 0; i < pb->n_jobs; i++) {
        const view_job_t *j = &v->jobs[pb->view_of[i]];
        double prop = 0;
        for (int t = 0; t < T; t++)
            prop += pb->rate[(i * T + t) * 2] * (total > 0 ? pb->cap[t] / total : 0);
        double prio = j->priority > 0 ? j->priority : 1.0;
        w[i] = prop > 0 ? j->gpus_requested / (prio * prop) : 0.0;
    }
}

/* Gavel's isolated throughput: X_t = cap_t / (N * gpus), rows scaled to <= 1. */
static double isolated_rate(const view_t *v, const gv_problem_t *pb, int i)
{
    int T = v->n_types;
    double sum = 0, rate = 0;
    for (int t = 0; t < T; t++)
        sum += pb->cap[t] / ((double)pb->n_jobs * pb->rows[i].gpus);
    double scale = sum > 1 ? 1 / sum : 1, share = (double)pb->n_jobs * pb->rows[i].gpus;
    for (int t = 0; t < T; t++)
        rate += pb->rate[(i * T + t) * 2] * scale * pb->cap[t] / share;
    return rate;
}

static int cmp_mem(const void *pa, const void *pb)
{
    const ftf_mem_t *a = pa, *b = pb;
    return a->id < b->id ? -1 : a->id > b->id ? 1 : 0;
}

static int ftf_solve(gv_state_t *s, const view_t *v, gv_problem_t *pb, double *x, char *err,
                     size_t errlen)
{
    int n = pb->n_jobs, T = v->n_types;
    double *a = pu_alloc((size_t)n, sizeof *a), *c = pu_alloc((size_t)n, sizeof *c);
    double *R = pu_alloc((size_t)n, sizeof *R);
    ftf_mem_t *next = pu_alloc((size_t)n, sizeof *next);
    double lo = 0, hi = 0;
    for (int i = 0; i < n; i++) {
        const view_job_t *j = &v->jobs[pb->view_of[i]];
        double iso = isolated_rate(v, pb, i);
        double rem = isnan(j->remaining_work) ? 0 : j->remaining_work;
        ftf_mem_t key = {j->id, 0, 0, 0};
        const ftf_mem_t *old =
            s->n_mem ? bsearch(&key, s->mem, (size_t)s->n_mem, sizeof key, cmp_mem) : NULL;
        double acc = old ? old->iso_time : 0;
        if (old && old->iso_rate > 0)
            acc += fmax(0.0, old->remaining - rem) / old->iso_rate;
        next[i] = (ftf_mem_t){j->id, acc, rem, iso};
        a[i] = fmax(0.0, v->now - j->submit);
        R[i] = iso > 0 ? rem : 0;
        c[i] = acc + (iso > 0 ? rem / iso : 0);
        double best = 0;
        for (int t = 0; t < T; t++)
            best = fmax(best, pb->rate[(i * T + t) * 2]);
        if (R[i] > 0 && c[i] > 0 && best > 0) {
            lo = fmax(lo, (a[i] + R[i] / best) / c[i]);
            hi = fmax(hi, (a[i] + R[i] / iso) / c[i]);
        }
    }
    qsort(next, (size_t)n, sizeof *next, cmp_mem);
    free(s->mem);
    s->mem = next;
    s->n_mem = n;
    int rc = 0;
    if (hi > 0) {
        double rho;
        rc = gl_ftf(&pb->lp, a, c, R, lo, fmax(hi, lo), 1e-3, x, &rho, err, errlen);
    }
    free(a);
    free(c);
    free(R);
    return rc;
}

/* Types in name order (Gavel's sorted worker types). */
static void name_order(const view_t *v, int *order)
{
    for (int t = 0; t < v->n_types; t++) {
        int i = t;
        while (i > 0 && strcmp(v->types[order[i - 1]].name, v->types[t].name) > 0) {
            order[i] = order[i - 1];
            i--;
        }
        order[i] = t;
    }
}

/* FIFO by performance: each job in arrival order on its fastest type with
 * room; the first job with none ends the pass. gavel: as Gavel's code
 * (fifo.py, perf mode), the fastest among the types with room in name order,
 * a job whose fastest is 0 skipped (the pass goes on), and the pass ends
 * before the next job once every type is full. Returns the LP index of the
 * first job the pass did not reach (the one that ended it excluded). */
static int fifo_alloc(const view_t *v, const gv_problem_t *pb, int gavel, double *x)
{
    int T = v->n_types;
    enum { FEW = 8 }; /* up to this many types: no allocation */
    double avail_few[FEW];
    int order_few[FEW];
    double *avail = T <= FEW ? avail_few : pu_alloc((size_t)T, sizeof *avail);
    int *order = T <= FEW ? order_few : pu_alloc((size_t)T, sizeof *order);
    memcpy(avail, pb->cap, (size_t)T * sizeof *avail);
    name_order(v, order);
    int i = 0;
    for (; i < pb->n_jobs; i++) { /* LP jobs are in arrival order */
        int best = -1, left = 0;
        for (int t = 0; t < T; t++)
            left |= avail[t] > 0;
        if (gavel && !left)
            break;
        for (int k = 0; k < T; k++) {
            int t = gavel ? order[k] : k;
            double r = pb->rate[(i * T + t) * 2];
            if ((gavel || r > 0) && avail[t] >= pb->rows[i].gpus &&
                (best < 0 || r > pb->rate[(i * T + best) * 2]))
                best = t;
        }
        if (best < 0) {
            i++;
            break;
        }
        if (!(pb->rate[(i * T + best) * 2] > 0))
            continue;
        x[i * T + best] = 1.0;
        avail[best] -= pb->rows[i].gpus;
    }
    if (T > FEW) {
        free(order);
        free(avail);
    }
    return i;
}

/* Gavel's fifo_packed (fifo.py _pack): each queued job from `next` on, in
 * order, packs with the allocated single job of its GPU count whose pair
 * throughput, normalised by each one's isolated throughput on that job's
 * type, is the highest above 1.5 (the first such in allocation order on a
 * tie); the first queued job with none ends the packing. The pair gets the
 * single job's X; pairs are written to rows[n_jobs..] and x, the count is
 * returned. */
static int fifo_pack(const view_t *v, const gv_problem_t *pb, int next, double *x,
                     int (*rows)[2])
{
    int T = v->n_types, n = pb->n_jobs, n_pairs = 0;
    int *alloc = pu_alloc((size_t)n + 1, sizeof *alloc), na = 0; /* LP singles, allocation order */
    int *type = pu_alloc((size_t)n + 1, sizeof *type);
    for (int i = 0; i < n; i++)
        for (int t = 0; t < T; t++)
            if (x[i * T + t] > 0) {
                alloc[na++] = i;
                type[i] = t;
            }
    for (int q = next; q < n; q++) {
        double most = 1.5;
        int with = -1;
        for (int k = 0; k < na; k++) {
            int a = alloc[k], t = type[a];
            double r[2];
            if (pb->rows[a].gpus != pb->rows[q].gpus || !v->perf->pair_throughput ||
                v->perf->pair_throughput(v->perf->ctx, &v->jobs[pb->view_of[a]],
                                         &v->jobs[pb->view_of[q]], t, pb->rows[a].gpus, r) < 0)
                continue;
            double iso[2] = {pb->rate[(a * T + t) * 2], pb->rate[(q * T + t) * 2]}, norm = 0;
            for (int m = 0; m < 2; m++)
                if (r[m] > 0 && iso[m] > 0)
                    norm += r[m] / iso[m];
            if (norm > most) {
                most = norm;
                with = k;
            }
        }
        if (with < 0)
            break;
        int a = alloc[with], t = type[a];
        memmove(alloc + with, alloc + with + 1, sizeof *alloc * (size_t)(na - with - 1));
        na--;
        x[a * T + t] = 0;
        rows[n + n_pairs][0] = a;
        rows[n + n_pairs][1] = q;
        x[(n + n_pairs) * T + t] = 1.0;
        n_pairs++;
    }
    free(type);
    free(alloc);
    return n_pairs;
}

static int compute_allocation(gv_state_t *s, const view_t *v, char *err, size_t errlen)
{
    gv_problem_t pb = {0};
    add_singles(s, v, &pb);
    if (s->kind == GV_MMF_PACKED)
        add_pairs(s, v, &pb);
    problem_link(&pb, v->n_types, s->warm);
    int T = v->n_types, rc = 0, n_pairs = 0;
    /* fifo-packed adds its pairs after the LP's rows */
    int n_max = pb.n_rows + (s->kind == GV_FIFO_PACKED ? pb.n_jobs : 0);
    double *x = gv_buf(s, GB_X, ((size_t)n_max * T + 1) * sizeof *x);
    int(*jobs)[2] = gv_buf(s, GB_JOBS, ((size_t)n_max + 1) * sizeof *jobs);
    double *w = gv_buf(s, GB_W, (size_t)pb.n_jobs * sizeof *w);
    if (pb.n_jobs > 0) {
        switch (s->kind) {
        case GV_MMF:
        case GV_MMF_PERF:
        case GV_MMF_PACKED:
            maxmin_weights(v, &pb, w);
            rc = gl_max_min(&pb.lp, w, x, err, errlen);
            break;
        case GV_MST:
            for (int i = 0; i < pb.n_jobs; i++)
                w[i] = 1.0;
            rc = gl_max_sum(&pb.lp, w, x, err, errlen);
            break;
        case GV_MTD: {
            double T_make;
            for (int i = 0; i < pb.n_jobs; i++) {
                double rem = v->jobs[pb.view_of[i]].remaining_work;
                w[i] = isnan(rem) ? 0 : rem;
            }
            rc = gl_min_makespan(&pb.lp, w, x, &T_make, err, errlen);
            if (rc == 0 && s->bisect) /* else the exact LP's vertex stays */
                gl_center_single(&pb.lp, w, gl_gavel_bisect_T(T_make), x);
            break;
        }
        case GV_FTF:
            rc = ftf_solve(s, v, &pb, x, err, errlen);
            break;
        case GV_FIFO_PERF:
            fifo_alloc(v, &pb, s->gavel_rules, x);
            break;
        case GV_FIFO_PACKED:
            n_pairs = fifo_pack(v, &pb, fifo_alloc(v, &pb, 1, x), x, jobs);
            break;
        }
    }
    if (rc == 0) {
        for (int r = 0; r < pb.n_rows; r++) {
            jobs[r][0] = pb.rows[r].job[0];
            jobs[r][1] = pb.rows[r].job[1];
        }
        for (int r = 0; r < pb.n_rows + n_pairs; r++) {
            jobs[r][0] = pb.view_of[jobs[r][0]];
            jobs[r][1] = jobs[r][1] >= 0 ? pb.view_of[jobs[r][1]] : -1;
        }
        gr_set_allocation(s->round, v, pb.n_rows + n_pairs, (const int(*)[2])jobs, x);
    } else {
        char msg[256];
        snprintf(msg, sizeof msg, "%s", err);
        snprintf(err, errlen, "%s at t=%.0f s: %s", s->name, v->now, msg);
    }

    return rc;
}

int gv_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    gv_state_t *s = state;
    gr_begin(s->round, v);
    if (gr_need_recompute(s->round, v, s->min_interval) &&
        compute_allocation(s, v, err, errlen) < 0)
        return -1;
    gr_fill(s->round, v, plan, s->kind == GV_FIFO_PERF || s->kind == GV_FIFO_PACKED,
            s->kind == GV_MMF);
    return 0;
}

/* For tests: the round state of a Gavel policy instance. */
const gr_state_t *gavel_round_state(const void *state)
{
    return state ? ((const gv_state_t *)state)->round : NULL;
}
