/* policy.h: the whole interface between the mechanism and a policy.
 *
 * A policy sees a *view* and returns a *plan*. Nothing else: a policy includes
 * no engine header and reads no engine state, so the same policy file decides
 * in the simulator (sim/engine.c) and live (live/), and cannot tell which.
 *
 * The view holds the time, the cluster (GPU types and nodes), the active jobs
 * (arrived, not finished) with what has been observed of them, the history of
 * finished jobs, and a throughput oracle-free estimator (view->perf: the
 * profiled throughput table that a real scheduler like Gavel also has).
 * What a real scheduler would not know (a job's true total and remaining work)
 * is filled in only for policies that declare `oracle`; for the others those
 * fields are NAN. The oracle flag is recorded with every result.
 *
 * The plan is declarative and complete: the set of jobs that run from now on,
 * each with a GPU type and count (and optionally explicit GPU ids, a per-GPU
 * batch size, and a partner for space sharing). A running job missing from the
 * plan is preempted. A job whose type, count and GPUs are unchanged keeps
 * running at no cost; any other change (re)starts it and costs its restart
 * overhead. Allocations without explicit GPU ids are placed by the mechanism:
 * a job keeps its current GPUs when it can (lease extension), otherwise it is
 * packed onto as few nodes as possible. The mechanism validates every plan
 * (capacity per type, gang: all GPUs or none, a job at most once, GPU ids that
 * exist and are free, elastic bounds) and rejects a bad plan with an error
 * naming the policy, the job and the rule; it never trims a plan silently.
 *
 * Space sharing: two allocations that name each other in pack_with, with the
 * same GPU type and count, run on the same GPUs, each at its pair throughput
 * (view->perf->pair_throughput; a pair the perf model refuses, e.g. because
 * their memory exceeds the GPU's, is a rejected plan). When one of the pair
 * finishes, the other goes on alone on those GPUs at its isolated rate.
 *
 * Units: seconds, work units (iterations or samples, per workload), work
 * units per second. */
#ifndef MLS_POLICY_H
#define MLS_POLICY_H

#include <stddef.h>
#include <stdint.h>

/* When the mechanism calls schedule(). */
enum {
    MLS_CADENCE_EVENTS = 1, /* after arrivals and completions */
    MLS_CADENCE_ROUNDS = 2, /* at every round boundary (view->round_len) */
    /* A hint, not a time: the policy keeps every running job exactly as it
     * runs (type, GPUs, batch) whenever the cluster lost no capacity, and only
     * starts queued jobs (non-preemptive, no resizing). A call while no job is
     * queued then changes nothing, and the mechanism may leave it out (never
     * after a fault). The simulator does; the live daemon calls anyway. */
    MLS_CADENCE_WHEN_QUEUED = 4,
};

/* Why this call happened (view->reasons, a bit set). */
enum {
    MLS_WHY_ARRIVAL = 1,
    MLS_WHY_COMPLETION = 2,
    MLS_WHY_ROUND = 4,
    MLS_WHY_FAULT = 8,
    MLS_WHY_BATCH_CHANGE = 16,
};

typedef enum view_job_state {
    VIEW_QUEUED = 0,     /* waiting, holds no GPUs */
    VIEW_RUNNING = 1,    /* holds GPUs and progresses */
    VIEW_RESTARTING = 2, /* holds GPUs, paying its (re)start overhead */
} view_job_state_t;

typedef struct view_gpu_type {
    const char *name; /* e.g. "v100" */
    int total_gpus;   /* in the cluster */
    int free_gpus;    /* not held by any job at the time of the call */
    double mem_gb;    /* per GPU */
} view_gpu_type_t;

typedef struct view_node {
    int type;      /* index into view->types */
    int gpus;      /* GPUs on the node */
    int first_gpu; /* global id of the node's GPU 0; ids are contiguous */
    int rack;
    int up; /* 0 while failed */
    int cpus;      /* CPU cores on the node (cluster JSON `cpus`, default 8 per GPU) */
    double mem_gb; /* host memory (cluster JSON `mem_gb`, default 64 GB per GPU) */
} view_node_t;

typedef struct view_job {
    /* (The fields that the shared mechanism and the round-based policies
     * read of every job at every decision come first, so that they share a
     * cache line or two.) */
    int64_t id; /* the trace's job id */
    int user;   /* index into view->users */
    int workload;
    int gpus_requested;
    int min_gpus, max_gpus; /* elastic range; both = gpus_requested when rigid */
    int batch_size;         /* per-GPU batch the job runs with now (0 = workload default) */

    /* What has been observed (first part). */
    view_job_state_t state;
    int cur_type;           /* -1 when queued */
    int cur_gpus;           /* 0 when queued */
    int cur_partner;        /* index into view->jobs of the job sharing its GPUs, -1 none */
    const int *cur_gpu_ids; /* cur_gpus ids, or NULL */
    double throughput;      /* observed work units/s now, NAN when unknown or queued */
    double work_done;       /* work units completed */
    /* Multi-component programs (Pathways): the gang (> 0) this job is one
     * computation of, 0 none. The mechanism runs the computations of a gang
     * all or none, each within one island (a rack: view_node_t.rack), and
     * they progress in lockstep, at the pace of the slowest. */
    int64_t gang;

    /* The rest of the request. */
    const char *workload_name;
    double submit;            /* s */
    double priority;          /* weight, default 1 */
    double deadline;          /* absolute s, INFINITY when none */
    double duration_estimate; /* s, as given by the user/trace; NAN when none */
    int total_batch;          /* the trace's total batch over all its GPUs (trace column
                                 total_batch), 0 when not given */

    /* What has been observed (the rest). */
    int cur_nodes;           /* nodes its GPUs span */
    double first_start;      /* NAN before the first start */
    double last_start;       /* start of the current (or last) stint, NAN if never */
    double attained_time;    /* s held GPUs (running or restarting) */
    double attained_service; /* GPU-seconds held */
    int preemptions;
    int restarts;

    /* Oracle knowledge: NAN unless the policy declared oracle. */
    double total_work;
    double remaining_work;

    /* Elastic training and batch-size adaptation. */
    int accum_steps;         /* gradient-accumulation steps now; -1: the perf model splits
                                batch_size into micro-batches that fit the GPU (default) */
    double grad_noise_scale; /* phi (samples) the job reported at its last epoch boundary
                                (Pollux's PGNS); NAN until it has run under a model with one */
    double epoch;            /* epochs completed (fractional); NAN when the workload has no
                                epoch size (table workloads that do not adapt) */
    int adapt_mode;          /* the trace's mode: 0 static, 1 accordion, 2 gns */
    int batch_changes;       /* batch-size changes the job made itself so far */
    /* Host resources the job asks for (trace columns `cpus`, `mem_gb`; when
     * absent, the cluster's CPUs and memory per GPU times gpus_requested). */
    double cpus;
    double mem_gb;
} view_job_t;

/* A finished job, as a real scheduler's log would show it. */
typedef struct view_finished {
    int user;
    int workload;
    int gpus_requested;
    double submit, first_start, finish; /* s */
    double run_time;                    /* s held GPUs */
    double gpu_seconds;
} view_finished_t;

/* A workload's batch sizes (view->perf->batch_limits), in samples. */
typedef struct view_batch_limits {
    int init_batch;      /* M0: the total batch its hyper-parameters were tuned for */
    int max_batch;       /* largest total batch */
    int min_local_batch; /* per GPU per micro-step */
    int max_local_batch; /* per GPU per micro-step (the GPU's memory) */
    double epoch_work;   /* work units in one epoch, 0 when unknown */
} view_batch_limits_t;

/* One step of a job's batch-size schedule: from epoch `epoch` on, the job
 * runs at per-GPU batch `batch`. */
typedef struct view_batch_step {
    int epoch;
    int batch;
} view_batch_step_t;

/* Throughput estimates (the profiled table, or a fitted model). A real
 * scheduler has these too (Gavel, Shockwave, Pollux all assume them). */
typedef struct view_perf {
    void *ctx;
    /* Work units/s of job j alone on `gpus` GPUs of `type` spread over
     * `nodes` nodes, at per-GPU batch `batch` (0 = the job's current).
     * 0 when it cannot run there; NAN when unknown. */
    double (*throughput)(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch);
    /* Space sharing of a and b on the same `gpus` GPUs of `type`: each one's
     * rate in out[0], out[1]. Returns 0 when the pair may share, -1 when it
     * may not (unknown pair, or their memory exceeds the GPU's). May be NULL. */
    int (*pair_throughput)(void *ctx, const view_job_t *a, const view_job_t *b, int type,
                           int gpus, double out[2]);

    /* Elastic training and batch sizes. Every pointer is set; each returns NAN (or -1) when
     * the perf model cannot answer (e.g. the table backend has no fitted
     * model). Under the pollux backend, `throughput` above is the goodput at
     * the job's current progress in work units/s (M0-equivalent samples),
     * with `batch` the per-GPU batch per optimizer step, split into
     * micro-batches that fit the GPU (0: the job's current batch and steps).
     *
     * Samples/s of the *fitted* model (Pollux's T_iter) of job j on `gpus`
     * GPUs of `type` over `nodes` nodes (0: fewest) at per-GPU micro-batch
     * `batch` with `accum` accumulation steps; no efficiency. */
    double (*samples_throughput)(void *ctx, const view_job_t *j, int type, int gpus, int nodes,
                                 int batch, int accum);
    /* Statistical efficiency (phi + M0) / (phi + M) at total batch M with the
     * job's observed gradient noise scale (j->grad_noise_scale); NAN before
     * the job has reported one. */
    double (*efficiency)(void *ctx, const view_job_t *j, double total_batch);
    /* samples_throughput x efficiency at M = gpus x batch x (accum + 1):
     * M0-equivalent samples/s, Pollux's goodput as its scheduler predicts it. */
    double (*goodput)(void *ctx, const view_job_t *j, int type, int gpus, int nodes, int batch,
                      int accum);
    /* The job's batch limits on `type` (-1: over all types); -1 when the
     * model has none. */
    int (*batch_limits)(void *ctx, const view_job_t *j, int type, view_batch_limits_t *out);
    /* ORACLE: the job's future per-GPU batch sizes (accordion/gns jobs change
     * them at epoch boundaries). Writes up to `max` steps, the current one
     * first, and returns how many there are in all (1 for a job that never
     * changes); -1 for a policy that did not declare oracle: a real
     * scheduler sees only the batch changes as they happen (batch_changes,
     * MLS_WHY_BATCH_CHANGE), and predicts the rest itself (Shockwave §4). */
    int (*batch_schedule)(void *ctx, const view_job_t *j, view_batch_step_t *out, int max);
    /* 1 when `throughput` depends only on its arguments and the job's
     * workload and batch size, never on the job's progress (a perf model
     * without goodput: the table and curves backends), so a policy may keep
     * an answer for as long as those stay the same; 0 (a zeroed struct's)
     * when it may change as the job runs (the pollux backend). */
    int rates_fixed;
    /* 1 when throughput, pair_throughput, samples_throughput, efficiency,
     * goodput and batch_limits may be called from several threads at once
     * during one policy call (each a pure function of its arguments and of
     * data that stays the same during the call: view_perf_bind's are), so
     * a policy may ask them on threads of its own; 0 (a zeroed struct's):
     * one thread at a time. */
    int concurrent;
} view_perf_t;

typedef struct view {
    double now;       /* s */
    double round_len; /* s; 0 = event-driven only */
    int64_t round;    /* rounds elapsed */
    unsigned reasons; /* MLS_WHY_* bits */
    uint64_t seed;    /* the run's seed, for a policy's own generator */

    int n_types;
    const view_gpu_type_t *types;
    int n_nodes;
    const view_node_t *nodes;
    int n_gpus;
    const int *gpu_holder; /* n_gpus entries: index into jobs of the job holding it, -1 free */

    int n_jobs;
    const view_job_t *jobs; /* active jobs in (submit, id) order */
    int n_users;
    const char *const *users;

    int n_finished;
    const view_finished_t *finished;

    const view_perf_t *perf;

    /* 1 in a queued-only view (policy_ops_t.schedule_queued): `jobs` lists
     * only the active jobs that hold no GPUs, in (submit, id) order;
     * types[].free_gpus is what the unlisted, running jobs leave, and
     * gpu_holder[g] is -1 for a free GPU, MLS_HELD_UNLISTED for one a
     * running job holds. 0 in a full view (every call of schedule()). */
    int partial;
} view_t;

/* One allocation of a plan. */
typedef struct plan_alloc {
    int job;        /* index into view->jobs */
    int type;       /* GPU type index */
    int gpus;       /* GPU count */
    int batch_size; /* per-GPU batch; 0 = keep the job's current */
    int pack_with;  /* index into view->jobs of the job sharing these GPUs, -1 none */
    int ids_off;    /* explicit GPU ids: plan->ids[ids_off .. ids_off+gpus-1] */
    int has_ids;    /* 0: the mechanism places it */
    /* With batch_size > 0, the gradient-accumulation
     * steps (batch_size is then the micro-batch per GPU; the job's total batch
     * is gpus x batch_size x (accum_steps + 1)). A change of batch_size or
     * accum_steps alone, on unchanged GPUs, takes effect at once at no cost
     * (Pollux, AdaptDL re-pick the batch between steps). */
    int accum_steps;
} plan_alloc_t;

typedef struct plan {
    plan_alloc_t *allocs;
    int n;
    size_t cap;
    int *ids;
    size_t n_ids, ids_cap;
} plan_t;

/* Plan building (policies/plan.c). Each returns the allocation's index. */
void plan_init(plan_t *p);
void plan_clear(plan_t *p);
void plan_free(plan_t *p);
int plan_run(plan_t *p, int job, int type, int gpus);
/* Room for n more allocations, which plan_run_reserved then writes with no
 * check (a policy that emits many per decision: one growth for all). */
void plan_reserve(plan_t *p, int n);
static inline int plan_run_reserved(plan_t *p, int job, int type, int gpus)
{
    p->allocs[p->n] = (plan_alloc_t){.job = job, .type = type, .gpus = gpus, .pack_with = -1};
    return p->n++;
}
int plan_run_on(plan_t *p, int job, int type, const int *gpu_ids, int gpus);
/* Index of job's allocation in p, or -1. */
int plan_find(const plan_t *p, int job);
/* 1 when every GPU id that allocation a names (p->ids) is among held[0..n). */
int plan_ids_within(const plan_t *p, const plan_alloc_t *a, const int *held, int n);

/* Samples: a parameter whose value names a file of numbers (declared in the
 * policy's file_params) reaches the policy as those numbers. The layer that
 * creates the policy (policy_resolve in sim/) reads the file with the model
 * layer's reader, so no policy opens a file and every policy input stays
 * either the view or a parameter. */
typedef struct policy_samples {
    const char *key;    /* the parameter, e.g. "samples" */
    const long *values; /* in file order */
    long n;
    const int64_t *ids; /* per-job samples ("key:id_column:column"): values[i] is
                         * job ids[i]'s, each id once; NULL for a plain column */
} policy_samples_t;

/* Policy arguments: key=value pairs given with --param, and the samples read
 * for those of them that name files (none: n_samples 0). */
typedef struct policy_args {
    int n;
    const char *const *keys;
    const char *const *values;
    int n_samples;
    const policy_samples_t *samples;
} policy_args_t;

/* Reads a numeric/string argument with a default; -1 (and err) when the value
 * does not parse. policy_args_check() rejects keys not in `known` (NULL-ended). */
int policy_arg_double(const policy_args_t *a, const char *key, double def, double *out,
                      char *err, size_t errlen);
int policy_arg_long(const policy_args_t *a, const char *key, long def, long *out, char *err,
                    size_t errlen);
const char *policy_arg_str(const policy_args_t *a, const char *key, const char *def);
/* The samples read for parameter key (*n of them), or NULL when none were
 * (the parameter was not given, or the policy was created without
 * policy_resolve). */
const long *policy_arg_samples(const policy_args_t *a, const char *key, long *n);
/* The same for a per-job parameter: *ids gets the job id of each value
 * (NULL, as the result, when the file was read as a plain column). */
const long *policy_arg_keyed(const policy_args_t *a, const char *key, const int64_t **ids, long *n);
int policy_args_check(const policy_args_t *a, const char *const *known, const char *policy,
                      char *err, size_t errlen);

typedef struct policy_ops {
    const char *name;    /* as given to --policy */
    const char *paper;   /* citation, e.g. "Gu et al., NSDI 2019" */
    const char *summary; /* one line */
    const char *params;  /* "key=default: meaning; ..." or "" */
    int oracle;          /* 1: sees total_work and remaining_work */
    unsigned cadence;    /* MLS_CADENCE_* default */
    /* Allocates the policy's own state (may set *state = NULL). Returns 0,
     * or -1 with a message in err. */
    int (*create)(void **state, const policy_args_t *args, char *err, size_t errlen);
    /* Fills `plan` (given empty). Returns 0, or -1 with a message in err. */
    int (*schedule)(void *state, const view_t *view, plan_t *plan, char *err, size_t errlen);
    void (*destroy)(void *state);
    /* Parameters that name a CSV file of samples, as "key:column" words
     * (e.g. "samples:duration"), or "key:id_column:column" for one value per
     * job (e.g. "predictions:jobname:priority"); the file's column reaches
     * create() as args->samples (see policy_samples_t). NULL: none. */
    const char *file_params;
    /* 1: schedule() reads no job's progress (attained_time, attained_service,
     * work_done, remaining_work, epoch) and does not tell a restarting job
     * from a running one. The simulator may then leave those fields of a job
     * whose state and allocation did not change as they were when they did
     * (when neither the perf model, e.g. a goodput backend, nor an oracle
     * reads them either). 0 (the default): every field is at now. */
    int progress_unread;
    /* Optional, NULL: none (every decision gets the full view). A decision
     * from the queued jobs alone: `view` is a queued-only view (view->partial;
     * every active job it does not list holds GPUs and runs), and the plan
     * names only listed jobs, those that start; every unlisted job keeps its
     * allocation as it runs, unchecked and at no cost. Returns 0 (the plan is
     * the decision), MLS_DECIDE_FULL when the queued jobs are not enough to
     * decide (e.g. one of them would preempt a running job): the mechanism
     * then builds the full view and calls schedule(), or -1 with err. A
     * policy returns 0 only when schedule() on the full view would plan the
     * same: every running job kept as it runs, the same starts in the same
     * order (the mechanism places starts in plan order). The simulator offers
     * it while the trace has no gangs and outside Gavel's rounds; so the
     * cost of a decision follows the queue, not every active job. */
    int (*schedule_queued)(void *state, const view_t *view, plan_t *plan, char *err,
                           size_t errlen);
} policy_ops_t;

/* view->gpu_holder in a queued-only view: a GPU a running (unlisted) job holds. */
#define MLS_HELD_UNLISTED (-2)

/* schedule_queued(): decide on the full view instead. */
#define MLS_DECIDE_FULL 1

/* The registry (policies/registry.c): one table of every policy. */
size_t policy_count(void);
const policy_ops_t *policy_at(size_t i);
const policy_ops_t *policy_find(const char *name); /* NULL when unknown */

#endif
