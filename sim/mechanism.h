/* mechanism.h: the one mechanism that carries out a policy's plans, shared by
 * the simulator (sim/engine.c) and the live daemon (live/daemon.c).
 *
 * DESIGN.md's rule "one mechanism, two clocks": the engine and the daemon
 * each keep their clock and their jobs' progress (exact integration in the
 * simulator; the jobs' own reports live), and everything about where jobs run
 * and how a plan changes that is here, written once:
 *
 *   the view    its storage, cluster part, GPU holders, pairs, free GPUs,
 *               nodes up and finished-job history; the owner only describes
 *               each active job (its request and what was observed of it:
 *               mech_view_begin() .. mech_view_end());
 *   occupancy   who holds each GPU, free GPUs per node and per type, nodes up;
 *   the rules   mech_check_plan(): a plan that breaks one is rejected, with a
 *               message naming the policy, the job and the rule;
 *   the diff    mech_apply(): which running jobs keep their allocation (same
 *               type, count, GPUs and partner; a pair is kept only whole),
 *               which only change their batch (in place, no restart), which
 *               stop (preempted, resized, migrated), which start where;
 *   the order   batch changes, then every stop, then starts in three passes:
 *               explicit GPU ids, then the placer's (best fit, fewest nodes:
 *               sim/placer.h), then the second job of each pair joining its
 *               partner's GPUs;
 *   placement   explicit ids are checked free; a job that left GPUs suspended
 *               may go back to them (the executor says which); otherwise the
 *               placer chooses, and m->placement says what happens to a job
 *               that fits one node of its type when no node has room for it
 *               (mech_placement_t): it spreads over nodes, or its start waits
 *               (consolidate; auto: when spreading loses more than 10 %)
 *               (it stays queued; the policy sees it queued next time, and
 *               the second job of a pair whose first waits waits too).
 *
 * Each change is carried out by an executor (mech_exec_ops_t): the
 * simulator's applies it at once and charges its overhead; the daemon's
 * signals, waits for and launches processes (local or Slurm). Executors get
 * view indices: the view the policy saw is the mechanism's frame of
 * reference.
 *
 * The rules mech_check_plan() enforces:
 *   unknown job           an allocation for a job not in the view
 *   one allocation per job
 *   GPU type              a type that does not exist, or where the perf model
 *                         gives the job no throughput; explicit GPUs of another type
 *   gang                  a GPU count outside the job's [min_gpus, max_gpus]
 *   placement             explicit GPU ids that do not exist or are on a failed node
 *   capacity              more GPUs of a type than are up; a GPU given twice
 *   space sharing         pack_with not mutual, not the same type and count,
 *                         or a pair the perf model refuses */
#ifndef MLS_MECHANISM_H
#define MLS_MECHANISM_H

#include "model/cluster.h"
#include "model/util.h"
#include "policies/policy.h"

#include <stddef.h>

int mech_check_plan(const view_t *v, const plan_t *p, const char *policy, mls_err_t *err);

/* Why a running job stops. */
typedef enum mech_stop {
    MECH_PREEMPT = 0, /* not in the plan: it waits */
    MECH_RESIZE,      /* to restart on another GPU count */
    MECH_MIGRATE,     /* to restart on other GPUs (or another type, or partner) */
} mech_stop_t;

/* How an executor carries out one plan's changes. Every `k` is an index into
 * the view the plan was made for. */
typedef struct mech_exec_ops {
    /* NULL, or -1 with err set when this executor cannot carry out plan p
     * (e.g. space sharing on Slurm without node names); called after the
     * plan passed mech_check_plan(). */
    int (*can_do)(void *ctx, const view_t *v, const plan_t *p, mls_err_t *err);
    /* Kept job k runs on from now at per-GPU batch `batch` with `accum`
     * accumulation steps, without a restart. */
    void (*rebatch)(void *ctx, int k, int batch, int accum);
    /* Running job k stops (its GPUs go back through mech_gpus_give()). */
    void (*stop)(void *ctx, int k, mech_stop_t why);
    /* NULL, or called once after the plan's stops (live: waits for the
     * processes to exit). */
    void (*stopped)(void *ctx);
    /* NULL, or 1 with the `a->gpus` GPUs queued job k should go back to (it
     * left them suspended), written to ids: a plan without explicit ids puts
     * it there when they are all free, and one that names exactly those GPUs
     * (in any order) resumes it there too. */
    int (*resume_on)(void *ctx, int k, const plan_alloc_t *a, int *ids);
    /* Queued job k starts as `a` says on GPUs ids (spanning `nodes` nodes;
     * `resumed`: the GPUs resume_on gave) and takes them with
     * mech_gpus_take(). Returns 0, 1 when the job cannot start any more
     * (it ended meanwhile: live), -1 with err set. */
    int (*start)(void *ctx, int k, const plan_alloc_t *a, const int *ids, int nodes, int resumed,
                 mls_err_t *err);
    /* Queued job k joins the GPUs its partner (view job a->pack_with) was
     * given or keeps. Returns 0 or -1 with err set. */
    int (*join)(void *ctx, int k, const plan_alloc_t *a, mls_err_t *err);
} mech_exec_ops_t;

/* A job the policy gave a type and count (no ids), that fits one node of the
 * type that is up, when no node has room for it now (--placement): */
typedef enum mech_placement {
    MECH_PLACE_SPREAD = 0,  /* over the fewest nodes, at the spread rate (Gavel) */
    MECH_PLACE_CONSOLIDATE, /* its start waits for one node (Tiresias, Helios) */
    MECH_PLACE_AUTO,        /* spread when the perf model (view->perf) rates it
                               at most MECH_SPREAD_LOSS slower over those nodes
                               than on one, else wait (the default) */
    MECH_PLACE_HOLD,        /* as consolidate, and a start that waits holds
                               back the plan's later placer starts: Helios's
                               queue stops at the first job it cannot place */
} mech_placement_t;

/* The rate loss auto accepts: Tiresias's consolidate_loss default (a job
 * spread more than 10 % slower is "skewed" and consolidated). */
#define MECH_SPREAD_LOSS 0.1

/* "spread", "consolidate", "auto", "hold"; NULL for another value. */
const char *mech_placement_name(int placement);
/* The mech_placement_t of a name, -1 when unknown. */
int mech_placement_parse(const char *name);

typedef struct mech {
    const mls_cluster_t *cluster;
    int accum_steps; /* the perf model takes accumulation steps (goodput backends) */
    int placement;   /* mech_placement_t, the owner's to set (mech_init: auto) */

    /* The view a policy sees (view.perf, .seed, .round_len, .users are the
     * owner's to set). */
    view_t view;
    view_job_t *vjobs;
    size_t vjobs_cap;
    view_gpu_type_t *vtypes;
    view_node_t *vnodes;
    int *vholder;
    int *vheld; /* per GPU: -1 free, MLS_HELD_UNLISTED held (a queued-only view's holders) */
    view_finished_t *finished;
    size_t n_finished, finished_cap;
    double cpus_per_gpu, mem_gb_per_gpu; /* cluster totals / GPUs: a job's default host demand */

    /* Occupancy. */
    int *owner;              /* per GPU: the owner's job (its own numbering), -1 free */
    unsigned char *gpu_free; /* per GPU */
    int *node_free;          /* free GPUs per node */
    unsigned char *node_up;  /* per node */
    int *type_free;          /* free GPUs on nodes that are up, per type */
    int *type_up;            /* GPUs on nodes that are up, per type */

    /* Scratch of mech_apply(), kept between calls. */
    int *alloc_of;       /* per view job: its allocation, -1 none */
    unsigned char *keep; /* per view job: its allocation is unchanged */
    int *changed;        /* the plan's allocations that are not kept, in plan order */
    int n_changed;
    int any_rebatch; /* some kept allocation names a batch */
    int view_gangs;  /* view jobs of a gang (mech_view_end) */
    long *vtype_up;  /* GPUs on the view's nodes that are up, per type (mech_view_end) */
    int vnodes_stale; /* a node went up or down since the view's nodes were written */
    size_t jobs_cap;
    int *ids; /* one job's GPU ids */
    /* Scratch of the plan check in mech_apply(): node of each GPU, GPUs and
     * view jobs seen, GPUs planned and up per type. */
    int *chk_gpu_node;
    unsigned char *chk_seen_gpu, *chk_seen_job;
    long *chk_want;
} mech_t;

/* accum_steps: whether a plan's accum_steps are taken (else a job keeps its own). */
void mech_init(mech_t *m, const mls_cluster_t *c, int accum_steps);
void mech_free(mech_t *m);

/* Room for n active jobs, which the owner describes in view order (submit
 * time, then id) into the returned array: request, state, progress, and
 * cur_type, cur_gpus, cur_nodes, cur_gpu_ids of the running ones. The array
 * keeps what the owner wrote last time (also when it grows), so an owner may
 * rewrite only what changed. */
view_job_t *mech_view_begin(mech_t *m, int n);
/* Completes the view of n jobs at time now: GPU holders (a pair's later
 * job), each pair's cur_partner, free GPUs per type, nodes up, the round,
 * the finished jobs. */
void mech_view_end(mech_t *m, int n, double now, unsigned reasons);
/* A queued-only view (view.partial, policy_ops_t.schedule_queued) of the
 * n queued jobs the owner wrote into jobs (its own array, in view order):
 * as mech_view_end(), with GPU holders kept by mech_gpus_take/give (free or
 * held, not by whom); a plan for it is checked against the free GPUs and
 * names starts only. */
void mech_view_end_queued(mech_t *m, view_job_t *jobs, int n, double now, unsigned reasons);
/* A job finished: one more entry of the view's history. */
void mech_finished_add(mech_t *m, const view_finished_t *f);

/* 1 when a[0..n) and b[0..n) are the same GPUs, in any order. */
int mech_same_gpus(const int *a, const int *b, int n);

/* Job `who` (the caller's numbering) holds ids: the owner of each, no longer free. */
void mech_gpus_take(mech_t *m, int who, const int *ids, int n);
/* The GPUs among ids that `who` owns are free again. */
void mech_gpus_give(mech_t *m, int who, const int *ids, int n);
/* Job `who` owns ids from now on (a pair's survivor keeps its GPUs). */
void mech_gpus_pass(mech_t *m, int who, const int *ids, int n);
/* A node fails (up = 0; its jobs must have given their GPUs back) or recovers. */
void mech_node_set_up(mech_t *m, int node, int up);

/* Checks plan p against view v (mech_check_plan, then ops->can_do) and
 * carries it out through ops. Returns 0, or -1 with err naming the policy,
 * the job and the rule. */
int mech_apply(mech_t *m, const view_t *v, const plan_t *p, const char *policy,
               const mech_exec_ops_t *ops, void *ctx, mls_err_t *err);

/* One decision on the view the owner just built (mech_view_end, or
 * mech_view_end_queued: then the policy's schedule_queued): the
 * policy fills plan (cleared first), then mech_apply() carries it out.
 * *secs: the policy's own time. Returns 0, MLS_DECIDE_FULL when a
 * queued-only view was not enough (nothing was done: build the full view
 * and call again), or -1 with err: the policy
 * failed ("policy 'P' failed at t=T s: ..."), or its plan broke a rule. */
int mech_decide(mech_t *m, const policy_ops_t *policy, void *pstate, plan_t *plan,
                const mech_exec_ops_t *ops, void *ctx, double *secs, mls_err_t *err);

#endif
