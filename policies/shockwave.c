/* shockwave.c: Shockwave's dynamic market scheduler for jobs that adapt
 * their batch size during training.
 *
 * Zheng, Ye, Venkataraman, Lin, Akella, "Shockwave: Fair and Efficient
 * Cluster Scheduling for Dynamic Adaptation in Machine Learning", NSDI 2023:
 * §3 (the dynamic Fisher market: equal budgets, a job's utility its epoch
 * progress, the Nash social welfare over time as an Eisenberg-Gale program
 * over a window of future rounds), §4 (the Bayesian predictor of a job's
 * future batch-size regime), §5 and Appendix G (finish-time fairness
 * constraints and the makespan term, knobs k and lambda; work-conserving
 * fill). Semantics read from the authors' code (uw-mad-dash/shockwave,
 * scheduler/shockwave.py and JobMetaData.py; configurations/tacc_32gpus.json
 * for the defaults); no code taken.
 *
 * Each re-solve plans the next `window` rounds (default 20) of the round
 * length (--round; `round` when the run has none):
 *     max  sum_j w_j log(P_j) / (N W)  -  k max_j (R_j - planned run time_j)+
 * over the number of rounds n_j each job runs (P_j its epoch progress after
 * the window, R_j the predicted remaining run time), subject to the GPUs
 * of each round and the finish-time-fairness rows
 *     now + W L + (R_j - planned_j)+ / share <= rhomax x T_j
 * with share = min(1, G / N) and T_j the momentum-averaged finish time the
 * job would get with an equal share (0.9 x the time-weighted mean of its
 * estimates at past solves + 0.1 x the latest, each estimate submit +
 * (run time so far + R_j) / share). When those rows are infeasible they are
 * dropped and w_j = rho_j^lambda for the jobs whose projected rho_j =
 * (now + R_j / share) / T_j exceeds rhomax (rho^100 for jobs with less than
 * a round left), as the authors' code does. The program and its exact
 * solution by GLPK are described in shockwave_market.c (shockwave.h).
 * The plan's rounds are packed so that the counts fit (shockwave_market.c)
 * and, where they fit either way, highest weight then shortest predicted
 * remaining time first; a round's GPUs the plan leaves idle go to the jobs
 * not planned in it, longest predicted remaining time first (the authors'
 * work-conserving fill). A job on a slower GPU type than its fastest moves
 * up when the fastest has room once the jobs already there are kept. The
 * policy follows its plan round by round and
 * re-solves on an arrival, a completion, a batch change (a job's batch_changes
 * moved, or MLS_WHY_BATCH_CHANGE), a fault, or when the window is used up
 * (resolve=N: also after N rounds of a plan).
 *
 * Sia's wrapper (Jayaram Subramanya et al., SOSP 2023, artifact
 * sia-simulator/shockwave.py and multi_simulator_unaware.py) runs the same
 * market with other settings: 60 s rounds, window 5, k = 1e-9, a re-solve
 * every round (resolve=1), and finish times measured from each job's
 * submission (ftf=age): estimate (now - submit + R_j) / share, rows
 *     now + W L - submit + (R_j - planned_j)+ / share <= rhomax x T_j
 * and rho_j = (now - submit + R_j / share) / T_j. The default (ftf=submit)
 * is the authors' code: absolute times from the run's start.
 *
 * Predictor (§4). A job of the trace's mode accordion or gns changes its
 * batch at epoch boundaries; the policy sees only what happened (the view's
 * adapt_mode, batch_changes, epoch, batch_size; never the oracle batch
 * schedule). Per job it remembers the epochs it has seen at each batch and
 * its iterations per epoch (work_done / epoch before any change; later
 * measured between two calls at the same batch; at another batch b scaled by
 * b_known / b). Its modes are the batches seen plus one not yet seen: for gns
 * the next doubling, for accordion the largest doubling the perf model rates
 * (accordion runs at the model's largest batch outside critical regimes); a
 * gns job never returns to a smaller batch. sw_predict() splits the job's
 * remaining epochs over the modes by the Dirichlet posterior and prices each
 * at its epoch time (iterations / the perf model's rate at that batch). A
 * static job's R_j is its remaining work over its rate (and every job's
 * with predict=0, the ablation: the current batch to the end).
 *
 * Knowledge: the policy declares oracle for the job's total work (Shockwave
 * reads each job's epoch count from the trace: the user states it), from
 * which its progress and remaining epochs come; it does not call
 * view->perf->batch_schedule.
 *
 * Simplifications and why:
 * - Solver: GLPK branch and bound on one integer round count per job with
 *   the log evaluated exactly at every whole round count (the paper: Gurobi
 *   on a binary per job and round with a 5-piece approximation of the log);
 *   stopped by a node count (`nodes`), not a 15 s time limit, to stay
 *   deterministic. The per-round packing of gangs comes after the solve: a
 *   count vector that does not pack loses rounds (measured by the
 *   brute-force test). The authors' second program that reorders rounds by
 *   priority (rank_in_schedule_jobs, only after a relaxed solve) is the
 *   packing's greedy priority order; among equal weights (every job when the
 *   fairness rows hold) shortest predicted remaining time goes first, where
 *   the authors' solver returns whichever optimal layout it finds.
 * - Utility rate: a job's progress per planned second is its current rate
 *   at its current batch (the authors: the mean of the epoch durations so
 *   far); its predicted batch changes enter R_j (makespan and fairness), as
 *   in the authors' code.
 * - Relaxed priorities are capped at 1e6 (rho^100 overflows the LP's scale).
 * - Heterogeneous clusters: the market counts all GPUs of up nodes as one pool
 *   and rates a job on its fastest type (Shockwave's clusters are V100 only);
 *   placement then uses the fastest type with room.
 * - The authors' memory/MPS shares (space sharing) are not modelled: a job
 *   holds whole GPUs. Throughput calibration from measurements is left to the
 *   perf model (the view's rates).
 * - Run time so far in the fairness estimate is the job's attained time
 *   (GPU-holding time, restarts included). */
#include "policies/policies.h"
#include "policies/policy_util.h"

#include "policies/idmap.h"
#include "policies/shockwave.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SW_MAX_MODES 8

typedef struct sw_mem {
    int last_batch;
    double last_epoch, last_work;
    double ipe; /* iterations per epoch at ipe_batch; 0 unknown */
    int ipe_batch;
    int n_modes;
    int mode_batch[SW_MAX_MODES];
    double mode_obs[SW_MAX_MODES];
    double ft_wsum, ft_w, ft_last; /* finish-time estimates, time-weighted */
    int64_t ft_round;
    int ft_has;
    int changes_at_solve;
} sw_mem_t;

typedef struct sw_state {
    double k, lambda, rhomax, round_param, gap;
    int window, predict;
    int ftf_age;   /* finish times as durations from submission (Sia's wrapper) */
    int resolve_n; /* re-solve at least every resolve_n rounds (0: window) */
    long nodes;
    idmap_t ids;
    sw_mem_t *mem;
    size_t mem_cap;
    int has_plan;
    int64_t plan_start;
    int plan_n;
    int64_t *plan_ids;
    unsigned char *plan_sched; /* window x plan_n */
    size_t plan_cap;
} sw_state_t;

/* What the policy derives for each active job at a call. */
typedef struct sw_info {
    int ok;          /* rate and remaining work known: in the market */
    double rate;     /* work units/s at its current batch on its fastest type */
    double progress; /* fraction done */
    double speed;    /* fraction per second of running */
    double rem_pred; /* predicted remaining run time (s) */
} sw_info_t;

int shockwave_create(void **state, const policy_args_t *args, char *err, size_t errlen)
{
    static const char *const known[] = {"window", "k",       "lambda", "rhomax",  "round", "nodes",
                                        "gap",    "predict", "ftf",    "resolve", NULL};
    double window, nodes, predict, resolve;
    sw_state_t *s = pu_alloc(1, sizeof *s);
    if (policy_args_check(args, known, "shockwave", err, errlen) ||
        policy_arg_double(args, "window", 20, &window, err, errlen) ||
        policy_arg_double(args, "k", 1e-3, &s->k, err, errlen) ||
        policy_arg_double(args, "lambda", 12, &s->lambda, err, errlen) ||
        policy_arg_double(args, "rhomax", 1.0, &s->rhomax, err, errlen) ||
        policy_arg_double(args, "round", 120, &s->round_param, err, errlen) ||
        policy_arg_double(args, "nodes", 1000, &nodes, err, errlen) ||
        policy_arg_double(args, "gap", 1e-3, &s->gap, err, errlen) ||
        policy_arg_double(args, "predict", 1, &predict, err, errlen) ||
        policy_arg_double(args, "resolve", 0, &resolve, err, errlen)) {
        free(s);
        return -1;
    }
    const char *ftf = policy_arg_str(args, "ftf", "submit");
    if (strcmp(ftf, "submit") != 0 && strcmp(ftf, "age") != 0) {
        snprintf(err, errlen, "shockwave: ftf must be submit or age, not '%s'", ftf);
        free(s);
        return -1;
    }
    if (!(resolve >= 0 && resolve <= 1000 && resolve == floor(resolve))) {
        snprintf(err, errlen, "shockwave: resolve must be a whole number in 0..1000");
        free(s);
        return -1;
    }
    s->ftf_age = strcmp(ftf, "age") == 0;
    s->resolve_n = (int)resolve;
    if (!(window >= 1 && window <= 1000 && window == floor(window)) || !(s->k >= 0) ||
        !(s->lambda >= 0) || !(s->rhomax > 0) || !(s->round_param > 0) || !(nodes >= 0) ||
        !(s->gap >= 0) || !(predict == 0 || predict == 1)) {
        snprintf(err, errlen,
                 "shockwave: window must be a whole number in 1..1000, k, lambda, nodes and gap "
                 ">= 0, rhomax and round > 0, predict 0 or 1");
        free(s);
        return -1;
    }
    s->window = (int)window;
    s->nodes = (long)nodes;
    s->predict = (int)predict;
    idmap_init(&s->ids);
    *state = s;
    return 0;
}

void shockwave_destroy(void *state)
{
    sw_state_t *s = state;
    if (!s)
        return;
    idmap_free(&s->ids);
    free(s->mem);
    free(s->plan_ids);
    free(s->plan_sched);
    free(s);
}

static void sw_add_mode(sw_mem_t *m, int batch, double epochs)
{
    for (int i = 0; i < m->n_modes; i++)
        if (m->mode_batch[i] == batch) {
            m->mode_obs[i] += epochs;
            return;
        }
    if (m->n_modes < SW_MAX_MODES) {
        m->mode_batch[m->n_modes] = batch;
        m->mode_obs[m->n_modes++] = epochs;
    }
}

/* The job's memory, created at its first sight. */
static sw_mem_t *sw_memory(sw_state_t *s, const view_job_t *j)
{
    int idx = idmap_put(&s->ids, j->id);
    if ((size_t)idx >= s->mem_cap) {
        size_t cap = s->mem_cap ? 2 * s->mem_cap : 64;
        sw_mem_t *m = realloc(s->mem, cap * sizeof *m);
        if (!m) {
            fprintf(stderr, "mlsched: out of memory in shockwave\n");
            abort();
        }
        memset(m + s->mem_cap, 0, (cap - s->mem_cap) * sizeof *m);
        s->mem = m;
        s->mem_cap = cap;
    }
    sw_mem_t *m = &s->mem[idx];
    if (m->last_batch == 0) {
        m->last_batch = j->batch_size > 0 ? j->batch_size : -1;
        m->last_epoch = j->epoch;
        m->last_work = j->work_done;
        m->changes_at_solve = -1;
        sw_add_mode(m, j->batch_size, 0);
    }
    return m;
}

/* Folds in what happened since the last call: epochs at the last batch,
 * iterations per epoch. */
static void sw_observe(sw_mem_t *m, const view_job_t *j)
{
    double de = j->epoch - m->last_epoch;
    if (isfinite(de) && de > 1e-9) {
        sw_add_mode(m, m->last_batch, de);
        if (m->last_batch == j->batch_size && j->work_done > m->last_work) {
            m->ipe = (j->work_done - m->last_work) / de;
            m->ipe_batch = j->batch_size;
        }
    }
    if (j->batch_changes == 0 && j->epoch > 1e-9 && j->work_done > 0) {
        m->ipe = j->work_done / j->epoch;
        m->ipe_batch = j->batch_size;
    }
    sw_add_mode(m, j->batch_size, 0);
    m->last_batch = j->batch_size;
    m->last_epoch = j->epoch;
    m->last_work = j->work_done;
}

/* The job's rate at per-GPU batch b (0: current) on `type`. */
static double sw_rate(const view_t *v, int job, int type, int b)
{
    const view_job_t *j = &v->jobs[job];
    if (!v->perf || !v->perf->throughput)
        return NAN;
    return v->perf->throughput(v->perf->ctx, j, type, j->gpus_requested,
                               pu_min_nodes(v, type, j->gpus_requested), b);
}

/* A batch the perf model rates differently from the current one. */
static int sw_known(double r, double cur)
{
    return isfinite(r) && r > 0 && fabs(r - cur) > 1e-9 * cur;
}

/* Predicted remaining run time of an adaptive job (see the file-top note);
 * NAN when its iterations per epoch are not known yet. */
static double sw_predict_job(const view_t *v, int job, int type, const sw_mem_t *m, double rate,
                             double *epochs_total)
{
    const view_job_t *j = &v->jobs[job];
    if (!(m->ipe > 0) || !isfinite(j->epoch) || j->batch_size <= 0)
        return NAN;
    double ipe_b = m->ipe * m->ipe_batch / j->batch_size;
    double E = j->epoch + j->remaining_work / ipe_b;
    sw_mode_t modes[SW_MAX_MODES + 1];
    int n = 0, maxb = 0;
    for (int i = 0; i < m->n_modes; i++) {
        int b = m->mode_batch[i];
        double r = b == j->batch_size ? rate : sw_rate(v, job, type, b);
        if (!(r > 0) || b <= 0)
            continue;
        int fut = j->adapt_mode == 2 ? b >= j->batch_size : 1;
        modes[n++] = (sw_mode_t){b, m->mode_obs[i], m->ipe * m->ipe_batch / b / r, fut};
        if (b > maxb)
            maxb = b;
    }
    int cand = 0;
    double cand_r = 0;
    for (int b = 2 * (j->adapt_mode == 2 ? j->batch_size : maxb), step = 0; step < 8;
         b *= 2, step++) {
        double r = sw_rate(v, job, type, b);
        if (!sw_known(r, rate))
            break;
        cand = b;
        cand_r = r;
        if (j->adapt_mode == 2)
            break; /* gns: the next doubling */
    }
    if (cand > maxb || (j->adapt_mode == 2 && cand > 0)) {
        int seen = 0;
        for (int i = 0; i < n; i++)
            seen |= modes[i].batch == cand;
        if (!seen && n < SW_MAX_MODES + 1)
            modes[n++] = (sw_mode_t){cand, 0, m->ipe * m->ipe_batch / cand / cand_r, 1};
    }
    *epochs_total = E;
    return sw_predict(modes, n, E, j->epoch, NULL);
}

static void sw_job_info(sw_state_t *s, const view_t *v, int job, sw_info_t *in)
{
    const view_job_t *j = &v->jobs[job];
    sw_mem_t *m = sw_memory(s, j);
    sw_observe(m, j);
    memset(in, 0, sizeof *in);
    int order[16];
    int nt = pu_type_order(v, job, order);
    if (nt <= 0 || !isfinite(j->remaining_work) || !isfinite(j->total_work) || j->total_work <= 0)
        return;
    double rate = sw_rate(v, job, order[0], 0);
    if (!(rate > 0) || !isfinite(rate))
        return;
    double T = j->remaining_work / rate, E = NAN;
    double R = j->adapt_mode ? sw_predict_job(v, job, order[0], m, rate, &E) : NAN;
    if (!s->predict)
        R = NAN; /* ablation: the current batch to the end */
    in->ok = 1;
    in->rate = rate;
    in->progress = isfinite(E) && E > 0 ? j->epoch / E : j->work_done / j->total_work;
    if (in->progress > 1)
        in->progress = 1;
    in->speed = T > 0 ? (1 - in->progress) / T : 0;
    in->rem_pred = isfinite(R) ? R : T;
}

/* Records this solve's finish-time estimate and returns the momentum
 * average (0.9 x time-weighted mean of past estimates + 0.1 x this one). */
static double sw_finish_target(sw_mem_t *m, int64_t round, double est)
{
    if (m->ft_has) {
        double dt = (double)(round - m->ft_round);
        m->ft_wsum += m->ft_last * dt;
        m->ft_w += dt;
    }
    m->ft_has = 1;
    m->ft_last = est;
    m->ft_round = round;
    double avg = m->ft_w > 0 ? m->ft_wsum / m->ft_w : est;
    return 0.9 * avg + 0.1 * est;
}

/* GPUs of up nodes (all GPUs when the view lists no nodes). */
static int sw_cluster_gpus(const view_t *v)
{
    pu_room_t r;
    pu_room_init(&r, v);
    int g = pu_room_total(&r);
    pu_room_free(&r);
    return g;
}

static int sw_resolve(sw_state_t *s, const view_t *v, const sw_info_t *info, double L,
                      int64_t round, char *err, size_t errlen)
{
    int N = v->n_jobs, W = s->window, G = sw_cluster_gpus(v);
    sw_job_t *mj = pu_alloc((size_t)N + 1, sizeof *mj);
    int *idx = pu_alloc((size_t)N + 1, sizeof *idx), n = 0;
    double share = N > 0 && G < N ? (double)G / N : 1.0;
    for (int i = 0; i < N; i++) {
        const view_job_t *j = &v->jobs[i];
        sw_mem_t *m = &s->mem[idmap_get(&s->ids, j->id)];
        m->changes_at_solve = j->batch_changes;
        if (!info[i].ok)
            continue;
        /* origin of the finish times: the run's (the authors' code) or the
         * job's submission (Sia's wrapper: durations, its age over share) */
        double o = s->ftf_age ? j->submit : 0;
        double est = s->ftf_age ? (v->now - j->submit + info[i].rem_pred) / share
                                : j->submit + (j->attained_time + info[i].rem_pred) / share;
        double target = sw_finish_target(m, round, est);
        mj[n] = (sw_job_t){j->gpus_requested,
                           info[i].progress,
                           info[i].speed,
                           info[i].rem_pred,
                           (target * s->rhomax - (v->now + W * L - o)) * share,
                           (v->now - o + info[i].rem_pred / share) / target};
        idx[n++] = i;
    }
    sw_market_t mk = {n, mj, G, W, L, s->k, s->lambda, s->rhomax, s->nodes, s->gap, NULL};
    int *got = pu_alloc((size_t)n + 1, sizeof *got);
    unsigned char *sched = pu_alloc((size_t)W * (n + 1), 1);
    sw_solution_t sol;
    int rc = n > 0 ? sw_plan(&mk, got, sched, &sol, err, errlen) : 0;
    if (rc == 0) {
        if ((size_t)N > s->plan_cap) {
            s->plan_cap = (size_t)N;
            free(s->plan_ids);
            free(s->plan_sched);
            s->plan_ids = pu_alloc(s->plan_cap, sizeof *s->plan_ids);
            s->plan_sched = pu_alloc(s->plan_cap * (size_t)W, 1);
        }
        memset(s->plan_sched, 0, (size_t)N * W);
        for (int i = 0; i < N; i++)
            s->plan_ids[i] = v->jobs[i].id;
        for (int r = 0; r < W; r++)
            for (int q = 0; q < n; q++)
                s->plan_sched[(size_t)r * N + idx[q]] = sched[(size_t)r * n + q];
        s->plan_n = N;
        s->plan_start = round;
        s->has_plan = 1;
    }
    free(mj);
    free(idx);
    free(got);
    free(sched);
    return rc;
}

/* A re-solve is due: no plan, window used up, the job set or a job's batch
 * changed, or the call is for an event that changes the market. */
static int sw_due(const sw_state_t *s, const view_t *v, int64_t round)
{
    int every = s->resolve_n > 0 && s->resolve_n < s->window ? s->resolve_n : s->window;
    if (!s->has_plan || round < s->plan_start || round >= s->plan_start + every ||
        s->plan_n != v->n_jobs ||
        (v->reasons &
         (MLS_WHY_ARRIVAL | MLS_WHY_COMPLETION | MLS_WHY_BATCH_CHANGE | MLS_WHY_FAULT)))
        return 1;
    for (int i = 0; i < v->n_jobs; i++) {
        const view_job_t *j = &v->jobs[i];
        int idx = idmap_get(&s->ids, j->id);
        if (s->plan_ids[i] != j->id || idx < 0 || s->mem[idx].changes_at_solve != j->batch_changes)
            return 1;
    }
    return 0;
}

/* Places jobs idx[0..n): first those that hold GPUs of their fastest type
 * with room (kept), then the rest on the fastest type with room (a job on a
 * slower type moves up when the fast type has room; on the same type the
 * mechanism keeps its GPUs). */
static void sw_place_group(const view_t *v, pu_room_t *room, plan_t *plan, const int *idx, int n)
{
    int order[16];
    unsigned char *done = pu_alloc((size_t)n + 1, 1);
    for (int i = 0; i < n; i++) {
        const view_job_t *j = &v->jobs[idx[i]];
        if (pu_holds(j) && j->cur_gpus == j->gpus_requested &&
            pu_type_order(v, idx[i], order) > 0 && order[0] == j->cur_type)
            done[i] = (unsigned char)pu_keep(v, room, plan, idx[i]);
    }
    for (int i = 0; i < n && pu_room_total(room) > 0; i++)
        if (!done[i] && pu_ever_fits(v, idx[i]))
            pu_start(v, room, plan, idx[i]);
    free(done);
}

/* The round's planned jobs, then the rest by predicted remaining time,
 * longest first, into the GPUs left (work-conserving fill). */
static void sw_build_plan(const sw_state_t *s, const view_t *v, const sw_info_t *info,
                          int64_t round, plan_t *plan)
{
    int N = v->n_jobs, n = 0;
    const unsigned char *row = s->plan_sched + (size_t)(round - s->plan_start) * N;
    int *order = pu_alloc((size_t)N + 1, sizeof *order);
    double *key = pu_alloc((size_t)N + 1, sizeof *key);
    for (int i = 0; i < N; i++)
        if (row[i])
            order[n++] = i;
    int planned = n;
    for (int i = 0; i < N; i++) {
        key[i] = info[i].ok ? -info[i].rem_pred : NAN;
        if (!row[i])
            order[n++] = i;
    }
    pu_sort(v, key, order + planned, n - planned);
    pu_room_t room;
    pu_room_init(&room, v);
    sw_place_group(v, &room, plan, order, planned);
    sw_place_group(v, &room, plan, order + planned, n - planned);
    pu_room_free(&room);
    free(order);
    free(key);
}

int shockwave_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)
{
    sw_state_t *s = state;
    if (v->n_jobs <= 0)
        return 0;
    double L = v->round_len > 0 ? v->round_len : s->round_param;
    /* nearest boundary: a live call at a round's start may come a few ms
     * early (floor would replay the last round of the plan) */
    int64_t round = (int64_t)floor(v->now / L + 0.5);
    sw_info_t *info = pu_alloc((size_t)v->n_jobs, sizeof *info);
    for (int i = 0; i < v->n_jobs; i++)
        sw_job_info(s, v, i, &info[i]);
    int rc = 0;
    if (sw_due(s, v, round))
        rc = sw_resolve(s, v, info, L, round, err, errlen);
    if (rc == 0)
        sw_build_plan(s, v, info, round, plan);
    free(info);
    return rc;
}
