/* registry.c: the one table of every policy mlsched knows.
 *
 * Each row is a policy_ops_t: the name given to --policy, the paper it follows,
 * whether it reads oracle fields (total and remaining work), a one-line
 * summary, its parameters ("key=default: meaning; ..."), the default cadence,
 * and its create/schedule/destroy (declared in policies.h). Adding a policy is
 * one file under policies/ plus one row here. Lookups are linear: the table is
 * small and read once per run. */
#include "policies/policies.h"

#include <string.h>

#define ENTRY(fn) fn##_create, fn##_schedule, fn##_destroy, NULL, 0, NULL
/* a policy that reads no job's progress (policy_ops_t.progress_unread) */
#define ENTRY_PROGRESS_UNREAD(fn) fn##_create, fn##_schedule, fn##_destroy, NULL, 1, NULL
/* a policy that decides from the queued jobs when it can (policy_ops_t.schedule_queued) */
#define ENTRY_QUEUED(fn, unread)                                                                   \
    fn##_create, fn##_schedule, fn##_destroy, NULL, unread, fn##_schedule_queued
/* a policy with parameters that name sample files (policy_ops_t.file_params) */
#define ENTRY_FILES(fn, files) fn##_create, fn##_schedule, fn##_destroy, files, 0, NULL
#define GAVEL_PARAMS                                                                               \
    "recompute_interval=1920: s between allocation recomputes (Gavel); "                           \
    "pair_candidates=4: partners per job (packed only); "                                          \
    "warm_start=0: 1 starts each recompute from the last basis (faster, another optimum); "        \
    "new_jobs=run: jobs that arrived since the last recompute may take idle GPUs, or wait "        \
    "(Gavel's and Shockwave's placement); "                                                        \
    "received_start=zero: received time at a recompute, or half_round (Gavel's code); "            \
    "rules=paper: or gavel, the rules of Gavel's simulator its paper does not state "              \
    "(policies/gavel_round.h); shortcuts=1: 0 computes every round in full (same plans, slower)"

static const policy_ops_t table[] = {
    {"fifo", "Gu et al., NSDI 2019 (YARN-CS baseline); Narayanan et al., OSDI 2020",
     "first in, first out; strict head-of-line blocking; non-preemptive", "", 0,
     MLS_CADENCE_EVENTS | MLS_CADENCE_WHEN_QUEUED, ENTRY_QUEUED(fifo, 1)},
    {"fifo-backfill", "Lifka, JSSPP 1995 (EASY); Mu'alem & Feitelson, TPDS 2001",
     "FIFO; later jobs backfill free GPUs (EASY reservation when estimates exist)",
     "easy=1: reserve GPUs for the blocked head from duration estimates (0: greedy backfill)", 0,
     MLS_CADENCE_EVENTS | MLS_CADENCE_WHEN_QUEUED, ENTRY(fifo_backfill)},
    {"sjf", "classic SJF; a baseline of the Tiresias simulator (Gu et al., NSDI 2019)",
     "shortest isolated duration first (total work / throughput); non-preemptive",
     "fill=greedy: a job that does not fit is passed over (stop: the queue stops there, as "
     "Helios's sjf)",
     1,
     MLS_CADENCE_EVENTS | MLS_CADENCE_WHEN_QUEUED, ENTRY(sjf)},
    {"srtf", "Gu et al., NSDI 2019 (SRTF oracle baseline)",
     "shortest remaining time first; preemptive; greedy fill", "", 1, MLS_CADENCE_EVENTS,
     ENTRY(srtf)},
    {"las", "Gu et al., NSDI 2019 (2D attained service); Nuyens & Wierman 2008",
     "least attained service (GPU-seconds) first; preemptive; every round", "", 0,
     MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY_QUEUED(las, 0)},
    {"isolated", "Mahajan et al., NSDI 2020 (Themis); Narayanan et al., OSDI 2020 (Gavel)",
     "1/N of the cluster each, realised in rounds by largest time deficit first",
     "mechanism=own, or gavel: Gavel's isolated.py through Gavel's rounds, with "
     "recompute_interval, new_jobs, received_start and rules (see max-min-fairness)",
     0, MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY(isolated)},
    {"themis", "Mahajan et al., NSDI 2020 (Themis), sec. 3-5",
     "finish-time fair leases: the 1-f worst-rho jobs bid in a partial-allocation auction",
     "f=0.8: fairness knob (1-f of the jobs, worst rho first, bid); lease=600: lease in s", 0,
     MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY(themis)},
    {"themis-oracle", "Mahajan et al., NSDI 2020 (Themis), sec. 3-5",
     "Themis with the true remaining work in its rho estimates",
     "f=0.8: fairness knob (1-f of the jobs, worst rho first, bid); lease=600: lease in s", 1,
     MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY(themis_oracle)},
    {"gandiva-fair", "Chaudhary et al., EuroSys 2020 (Gandiva-Fair), sec. 3-5",
     "per-user tickets by gang-aware stride scheduling per GPU type, with speedup trading",
     "tickets=: USER:WEIGHT,... (default 1 each); trade=1: trade fast for slow GPU shares; "
     "per=user: fairness unit, user or job; mechanism=own, or gavel: Shockwave's Gandiva-Fair "
     "(an equal time share per job) through Gavel's rounds, with recompute_interval, new_jobs, "
     "received_start and rules (see max-min-fairness)", 0,
     MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY(gandiva_fair)},
    {"gandiva", "Xiao et al., OSDI 2018 (Gandiva); Narayanan et al., OSDI 2020 (Gavel's version)",
     "time-slicing with random pairs packed on shared GPUs, split when they lose",
     "mechanism=own, or gavel: Gavel's gandiva.py through Gavel's rounds, with "
     "recompute_interval, new_jobs, received_start and rules (see max-min-fairness)",
     0, MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY(gandiva)},
    {"gandiva-paper", "Xiao et al., OSDI 2018 (Gandiva), sections 4.1-4.2",
     "over-subscription by time-slicing GPU sets each quantum (--round), packing kept or "
     "reverted by measured rates, migration (defragment, locality), grow-shrink",
     "pack=1: try packing; migrate=1: defragment and move for locality; grow=1: elastic jobs "
     "take idle GPUs; slice=1: over-subscribe by time-slicing (0: jobs wait); "
     "pack_keep=1.0: measured normalized throughput a packing must reach to stay",
     0, MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY(gandiva_paper)},
    {"tiresias-las", "Gu et al., NSDI 2019 (Tiresias), sections 3-4",
     "discretized 2D-LAS: GPU-second priority queues, FIFO within; consolidates skewed models",
     "queues=3: priority queues; limits=3250,7200,18000: GPU-s demotion limits (queues-1 used); "
     "promote_knob=0: starved when waiting > knob x last run (0: off); "
     "consolidate_loss=0.1: spread slowdown that marks a job skew-sensitive; "
     "service=gpu: gpu (GPU-seconds) or time (seconds) counts a job's service; "
     "within=fifo: fifo or running_first orders a queue; "
     "place=skew: skew (consolidate skew-sensitive jobs) or most_free (who runs by GPU "
     "count, then GPUs from the node with the most free: Pollux's artifact)",
     0, MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY_QUEUED(tiresias_las, 0)},
    {"tiresias-gittins", "Gu et al., NSDI 2019 (Tiresias), sections 3-4",
     "discretized 2D-Gittins: queues as tiresias-las, Gittins index within (learned service "
     "distribution)",
     "queues=3; limits=3250,7200,18000; promote_knob=0; consolidate_loss=0.1 (as tiresias-las); "
     "min_history=10: finished jobs before the log-uniform prior is dropped; "
     "service=gpu: gpu (GPU-seconds) or time (seconds) counts a job's service; "
     "within=fifo: fifo or running_first orders a queue; "
     "samples=FILE: a CSV whose duration column (GPU-s) is the fixed service distribution "
     "of Tiresias's simulator (default: learned); delta=3250: that table's step (GPU-s); "
     "place=skew (as tiresias-las)",
     0, MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY_FILES(tiresias_gittins, "samples:duration")},
    {"optimus", "Peng et al., EuroSys 2018 (Optimus), sections 4-5",
     "elastic: minimums, then GPUs one at a time by largest remaining-time reduction; "
     "remaining work estimated",
     "prior_s=3600: duration (s) assumed with no estimate and no finished jobs; "
     "batch=per_gpu: per_gpu (a job's per-GPU batch stays as its GPUs change) or total (its "
     "trace total_batch stays, as Pollux's Optimus; --like pollux); place=mechanism: mechanism "
     "or most_free (a job whose GPU count changed takes the nodes with the most free GPUs, as "
     "Pollux's Optimus; --like pollux)",
     0, MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY(optimus)},
    {"optimus-oracle", "Peng et al., EuroSys 2018 (Optimus); Pollux's Optimus+Oracle baseline",
     "optimus with the true remaining work", "batch=per_gpu, place=mechanism: as optimus", 1,
     MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY(optimus_oracle)},
    {"drf", "Ghodsi et al., NSDI 2011 (DRF), section 4",
     "dominant resource fairness across users over GPUs, CPUs, memory; progressive filling; "
     "non-preemptive",
     "", 0, MLS_CADENCE_EVENTS, ENTRY(drf)},
    {"qssf", "Hu et al., SC 2021 (Helios), section 6",
     "quasi-shortest-service-first: GPUs x duration predicted from each user's history (or "
     "read from a predictions file); "
     "non-preemptive, no backfilling",
     "window=0: finished jobs per estimate (0: all); prior_s=3600: duration with no history; "
     "predictions=FILE: each job's predicted duration instead, a CSV with jobname (the job's "
     "id) and priority (s) columns, the layout of Helios's estimator file "
     "(scripts/helios-predictions.py); order=service: or helios, its simulator's queue order "
     "(ties by GPUs; jobs that all arrived this instant by GPUs)",
     0, MLS_CADENCE_EVENTS, ENTRY_FILES(qssf, "predictions:jobname:priority")},
    {"max-min-fairness", "Narayanan et al., OSDI 2020 (Gavel, section 4.1, LAS)",
     "Gavel's max-min fairness over time shares, heterogeneity-agnostic; LP, rounds",
     GAVEL_PARAMS, 0, MLS_CADENCE_ROUNDS, ENTRY(gavel_mmf)},
    {"max-min-fairness-perf", "Narayanan et al., OSDI 2020 (Gavel, section 4.1)",
     "Gavel's heterogeneity-aware max-min fairness of normalised throughput; LP, rounds",
     GAVEL_PARAMS, 0, MLS_CADENCE_ROUNDS, ENTRY(gavel_mmf_perf)},
    {"max-min-fairness-packed", "Narayanan et al., OSDI 2020 (Gavel, sections 3.1, 4.1)",
     "Gavel's max-min fairness with space sharing (job-pair rows); LP, rounds",
     GAVEL_PARAMS, 0, MLS_CADENCE_ROUNDS, ENTRY(gavel_mmf_packed)},
    {"finish-time-fairness", "Narayanan et al., OSDI 2020 (Gavel, 4.1); Mahajan et al., NSDI 2020",
     "Gavel's minimax finish-time fairness rho (Themis's metric); LP bisection, rounds",
     GAVEL_PARAMS, 1, MLS_CADENCE_ROUNDS, ENTRY(gavel_ftf)},
    {"min-total-duration", "Narayanan et al., OSDI 2020 (Gavel, section 4.3); Shockwave's OSSP",
     "Gavel's makespan minimisation (LP in 1/T), rounds",
     GAVEL_PARAMS "; bisect=0: 1 is Gavel's code, its bisection's T (5 %) and an interior "
                  "point (the analytic centre) instead of the exact LP's vertex",
     1, MLS_CADENCE_ROUNDS,
     ENTRY(gavel_mtd)},
    {"max-sum-throughput-perf", "Narayanan et al., OSDI 2020 (Gavel, section 4.3); Shockwave's MST",
     "Gavel's total-throughput maximisation; LP, rounds", GAVEL_PARAMS, 0, MLS_CADENCE_ROUNDS,
     ENTRY(gavel_mst)},
    {"fifo-perf", "Narayanan et al., OSDI 2020 (Gavel, FIFO baseline, heterogeneity-aware)",
     "arrival order, each job on its fastest type with room; Gavel's rounds", GAVEL_PARAMS, 0,
     MLS_CADENCE_ROUNDS, ENTRY(gavel_fifo_perf)},
    {"allox", "Le et al., EuroSys 2020 (AlloX); as run by Gavel and Shockwave",
     "min-cost matching of waiting jobs to (GPU type, queue position) via GLPK; non-preemptive",
     "alpha=0.2: fairness knob, match only the max(alpha*m, free GPUs) longest-waiting jobs; "
     "solver=flow: GLPK min-cost flow on integer-scaled costs, simplex (the exact LP), or lsap "
     "(mechanism=gavel: Gavel's own matrix with scipy's tie-breaking, as --like gavel sets); "
     "mechanism=own: non-preemptive, or gavel (the matching as an allocation for Gavel's "
     "rounds, as Gavel's and Shockwave's simulators run it; preemptive); "
     "recompute_interval=1920, new_jobs=run|wait, received_start=zero|half_round "
     "rules=paper|gavel (mechanism=gavel)",
     1, MLS_CADENCE_ROUNDS, ENTRY(allox)},
    {"pollux", "Qiao et al., OSDI 2021 (Pollux), sections 3-4",
     "goodput-optimal batch per job; genetic algorithm over per-node allocations maximising the "
     "power mean of speedups (run with --round 60)",
     "p=-1: power-mean exponent of the fitness (0: geometric); population=100; generations=100; "
     "restart_delay=30: s in the re-allocation penalty; explore=1: at most twice the GPUs a job "
     "has run on (0: off)",
     0, MLS_CADENCE_ROUNDS, ENTRY(pollux)},
    {"pathways", "Barham et al., MLSys 2022 (Pathways), sections 4.1, 4.4",
     "gang scheduler: a program's computations (trace column gang) start together, each "
     "within one island (rack); programs in arrival order; non-preemptive",
     "backfill=0: 1 lets a later program start when the head does not fit", 0,
     MLS_CADENCE_EVENTS, ENTRY(pathways)},
    {"shockwave", "Zheng et al., NSDI 2023 (Shockwave), sections 3-5, appendix G",
     "dynamic Fisher market over a window of rounds: Nash social welfare of epoch progress, "
     "finish-time fairness and makespan terms, Bayesian batch-change predictor; GLPK MILP",
     "window=20: rounds planned per solve; k=1e-3: makespan weight; lambda=12: priority power "
     "of unfair jobs when the fairness rows are relaxed; rhomax=1: fairness bound; "
     "round=120: s per planned round when the run has no --round; nodes=1000: "
     "branch-and-bound nodes before the best found is taken; gap=1e-3: relative MIP gap; "
     "predict=1: Bayesian batch-change predictor (0: the current batch to the end); "
     "ftf=submit: finish times from the run's start (age: durations from submission, as "
     "Sia's wrapper); resolve=0: re-solve only at events and the window's end (N: at "
     "least every N rounds)",
     1, MLS_CADENCE_ROUNDS, ENTRY(shockwave)},
    {"elastic-dp", "Saxena et al., MASCOTS 2020 (Effective Elastic Scaling), sections III-V",
     "elastic: GPUs and batch size per job by a dynamic program maximising the sum of "
     "efficiency-scaled throughputs; FIFO admission of minimums; at arrivals and completions",
     "", 0, MLS_CADENCE_EVENTS, ENTRY(elastic_dp)},
    {"elastic-fixed-batch", "Saxena et al., MASCOTS 2020 (the baseline of section V)",
     "elastic-dp with each job's total batch fixed: scales GPUs, not the batch", "", 0,
     MLS_CADENCE_EVENTS, ENTRY(elastic_fixed_batch)},
    {"autoscale", "Or, Zhang and Freedman, MLSys 2020 (Resource Elasticity), sections 3-4",
     "per job, grow workers step by step while the observed marginal throughput per added "
     "worker is >= eff of one worker's; batch scales with workers; stragglers replaced",
     "eff=0.5: scaling condition; step=1: workers added per trial; straggle=0.8: observed/expected "
     "throughput below which a node is a straggler; start=0: first size (0: min_gpus)",
     0, MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY(autoscale)},
    {"sia", "Jayaram Subramanya et al., SOSP 2023 (Sia), sections 3.1-3.3",
     "heterogeneity-aware goodput: per job and (GPU type, count) configuration the normalized "
     "goodput; GLPK integer program over (job, configuration) pairs (run with --round 60)",
     "p=-0.5: fairness power on normalized goodputs (not 0); lambda=1.1: penalty of a job left "
     "without GPUs; restart_delay=30: s in the restart factor; time_limit=10: s for GLPK's "
     "branch and cut; explore=1: at most twice the GPUs a job has held (0: off); decimals=2: "
     "G^p rounded to that many decimals, as Sia's code (-1: not rounded)",
     0, MLS_CADENCE_ROUNDS, ENTRY(sia)},
    {"deeppool", "Park et al., MLSys 2022 (DeepPool: burst parallel training)",
     "foreground jobs (priority > fg_priority) get burst allocations of up to max_gpus first; "
     "one background job per foreground soaks up its idle cycles (pack_with, the perf model's "
     "multiplex rates); other background jobs run alone on what is left, preempted first",
     "fg_priority=1: jobs with a higher priority are foreground; multiplex=1: pack background "
     "jobs with foregrounds (0: burst parallelism only)",
     0, MLS_CADENCE_EVENTS, ENTRY(deeppool)},
    {"gavel-fifo", "Narayanan et al., OSDI 2020 (Gavel's FIFO baseline as its simulator runs it)",
     "Gavel's own fifo.py: a job keeps the type left in Gavel's loop (over-allocating it), a "
     "finished job's type goes to the head; Gavel's rounds share over-allocated types",
     "recompute_interval=1920: s between allocation recomputes (Gavel); new_jobs=run|wait; "
     "received_start=zero|half_round; rules=paper|gavel (see max-min-fairness)",
     0, MLS_CADENCE_ROUNDS, ENTRY(gavel_fifo)},
    {"fifo-packed", "Narayanan et al., OSDI 2020 (Gavel's FIFO baseline with packing)",
     "fifo-perf, then queued jobs packed with allocated ones when their normalised pair "
     "throughput exceeds 1.5; Gavel's rounds",
     GAVEL_PARAMS, 0, MLS_CADENCE_ROUNDS, ENTRY(gavel_fifo_packed)},
};

#define N_POLICIES (sizeof table / sizeof table[0])

size_t policy_count(void)
{
    return N_POLICIES;
}

const policy_ops_t *policy_at(size_t i)
{
    return i < N_POLICIES ? &table[i] : NULL;
}

const policy_ops_t *policy_find(const char *name)
{
    if (!name)
        return NULL;
    for (size_t i = 0; i < N_POLICIES; i++)
        if (strcmp(table[i].name, name) == 0)
            return &table[i];
    return NULL;
}
