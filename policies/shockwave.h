/* shockwave.h: the pieces of the shockwave policy (policies/shockwave.c) that
 * are pure functions of numbers, so that tests and benches can call them:
 * the dynamic market over a window of rounds (policies/shockwave_market.c),
 * its round-by-round schedule, and the Bayesian predictor of a job's
 * remaining run time under future batch-size changes.
 *
 * Market. Each job j asks for g_j GPUs (a gang). Over the next W rounds of L
 * seconds it is planned in n_j rounds (0 <= n_j <= W). Its utility is its
 * epoch progress, as a fraction of the job: running a round moves it from F_j
 * by L v_j (v_j: fraction of the job per second of running), capped at 1, so
 *     P_j(n) = min(1, F_j + n L v_j),   u_j(n) = log(max(P_j(n), 1e-6)).
 * The planned run time is tau_j(n) = min(n L, (1 - F_j) / v_j), and the
 * predicted remaining run time after the window m_j(n) = max(0, R_j - tau_j(n))
 * with R_j the predictor's estimate. The objective (Shockwave, Eq. 7-11 as
 * its code writes it) is
 *     max  sum_j w_j u_j(n_j) / (N W)  -  k max_j m_j(n_j)
 *     s.t. sum_j g_j n_j <= G W,  m_j(n_j) <= cap_j (finish-time fairness)
 * with w_j = 1; when the fairness rows make it infeasible they are dropped
 * and w_j = rho_j^lambda for the jobs whose projected rho_j exceeds rhomax.
 * The per-round packing (sum of g_j over the jobs of a round <= G) is done
 * after the solve (sw_assign_rounds). */
#ifndef MLS_SHOCKWAVE_H
#define MLS_SHOCKWAVE_H

#include <stddef.h>

typedef struct sw_job {
    int gpus;        /* g_j */
    double progress; /* F_j in [0, 1] */
    double speed;    /* v_j: fraction of the job per second of running, > 0 */
    double rem_pred; /* R_j: predicted remaining run time (s) */
    double cap;      /* largest m_j allowed by finish-time fairness (s); INFINITY: none */
    double rho;      /* projected finish-time fairness, for the relaxed weights */
} sw_job_t;

typedef struct sw_market {
    int n;
    const sw_job_t *jobs;
    int gpus;         /* G */
    int window;       /* W rounds */
    double round_len; /* L (s) */
    double k;         /* makespan weight */
    double lambda;    /* priority power of unfair jobs when relaxed */
    double rhomax;    /* rho above which a job is prioritised when relaxed */
    long node_limit;  /* branch-and-bound nodes before the best found is taken */
    double mip_gap;   /* relative gap at which branch and bound stops */
    const int *ub;    /* per job, most rounds it may get (NULL: W) */
} sw_market_t;

/* The weight of each job: 1 when !relaxed, else rho^lambda for the jobs with
 * rho > rhomax (rho^100 when R_j < L, as Shockwave's code), capped at 1e6. */
void sw_weights(const sw_market_t *m, int relaxed, double *w);
/* Rounds a job is worth planning: min(W, ceil((1 - F) / (L v))). */
int sw_max_rounds(const sw_market_t *m, int j);
/* The objective of round counts n (weights w), -INFINITY when n breaks the
 * capacity or (when check_cap) a fairness cap. */
double sw_objective(const sw_market_t *m, const int *n, const double *w, int check_cap);

typedef struct sw_solution {
    int relaxed;  /* 1: the fairness rows were infeasible and dropped */
    int optimal;  /* 1: branch and bound proved the optimum (within mip_gap) */
    int fallback; /* 1: no integer solution in node_limit: the LP rounded down */
    double objective;
    long nodes;
    int repairs; /* sw_plan: re-solves after a packing lost rounds */
} sw_solution_t;

/* Solves the market with GLPK (an integer n_j per job, continuous increments
 * per round: the exact log at every whole round count, no approximation).
 * Writes n (m->n entries). Returns 0, or -1 with a message in err. */
int sw_solve(const sw_market_t *m, int *n, sw_solution_t *out, char *err, size_t errlen);

/* The greedy count solution the simplex starts from (see
 * shockwave_market.c): n gets counts meeting the capacity and (unless
 * relaxed) the fairness caps; returns their objective, or -INFINITY. */
double sw_greedy(const sw_market_t *m, const double *w, int relaxed, int *n);

/* Packs the planned round counts into W rounds: round by round by urgency
 * (rounds still needed over rounds left, then largest gang), each job when
 * its gang fits; then, if the counts achieved also pack in priority order
 * (the jobs that need every round left first, then weight descending and
 * predicted remaining time ascending), that layout. sched[r * m->n + j] = 1
 * when job j runs in round r. got[j]: the rounds job j got (<= n[j]). */
void sw_assign_rounds(const sw_market_t *m, const int *n, const double *w, unsigned char *sched,
                      int *got);

/* Solve, pack (sw_assign_rounds), and when the packing lost rounds of some
 * jobs solve again (up to 3 times) with the better of two repairs: those
 * jobs bounded by what they got, or every gang one round less; idle GPUs of
 * a packed round go to the jobs that gain most from one more round. Keeps
 * the best packed schedule. got[j]: rounds job j runs; sched as
 * sw_assign_rounds; out's objective is that of the packed schedule.
 * Returns 0, or -1 and err. */
int sw_plan(const sw_market_t *m, int *got, unsigned char *sched, sw_solution_t *out, char *err,
            size_t errlen);

/* Predictor. A batch-size mode of a job: its per-GPU batch, the epochs
 * observed at it, the run time of one epoch at it (s), and whether the job
 * may run at it again (a gns job never goes back to a smaller batch). */
typedef struct sw_mode {
    int batch;
    double observed;
    double epoch_time;
    int future;
} sw_mode_t;

/* Shockwave's Bayesian estimate (§4, its JobMetaData's Dirichlet posterior):
 * the share of the job's `epochs` spent at each mode has a Dirichlet prior of
 * total concentration `epochs` spread evenly over the modes; the observed
 * epochs update it; the posterior mean share times `epochs`, less what was
 * observed, is each mode's remaining epochs (0 for modes not `future`), scaled
 * to sum to epochs - done. Writes the remaining epochs per mode to rem
 * (may be NULL) and returns the remaining run time (s). */
double sw_predict(const sw_mode_t *modes, int n_modes, double epochs, double done, double *rem);

#endif
