/* registry.c: the one table of every policy mlsched knows.
 *
 * Each row is a policy_ops_t: the name given to --policy, the paper it follows,
 * whether it reads oracle fields (total and remaining work), a one-line
 * summary, its parameters ("key=default: meaning; ..."), the default cadence,
 * and its create/schedule/destroy (declared in policies.h). Adding a policy is
 * one file under policies/ plus one row here. Lookups are linear: the table is
 * small and read once per run. */
#include "policies.h"

#include <string.h>

#define ENTRY(fn) fn##_create, fn##_schedule, fn##_destroy
#define GAVEL_PARAMS                                                                               \
    "recompute_interval=1920: s between allocation recomputes (Gavel); "                           \
    "pair_candidates=4: partners per job (packed only)"

static const policy_ops_t table[] = {
    {"fifo", "Gu et al., NSDI 2019 (YARN-CS baseline); Narayanan et al., OSDI 2020",
     "first in, first out; strict head-of-line blocking; non-preemptive", "", 0, MLS_CADENCE_EVENTS,
     ENTRY(fifo)},
    {"fifo-backfill", "Lifka, JSSPP 1995 (EASY); Mu'alem & Feitelson, TPDS 2001",
     "FIFO; later jobs backfill free GPUs (EASY reservation when estimates exist)",
     "easy=1: reserve GPUs for the blocked head from duration estimates (0: greedy backfill)", 0,
     MLS_CADENCE_EVENTS, ENTRY(fifo_backfill)},
    {"sjf", "classic SJF; a baseline of the Tiresias simulator (Gu et al., NSDI 2019)",
     "shortest isolated duration first (total work / throughput); non-preemptive", "", 1,
     MLS_CADENCE_EVENTS, ENTRY(sjf)},
    {"srtf", "Gu et al., NSDI 2019 (SRTF oracle baseline)",
     "shortest remaining time first; preemptive; greedy fill", "", 1, MLS_CADENCE_EVENTS,
     ENTRY(srtf)},
    {"las", "Gu et al., NSDI 2019 (2D attained service); Nuyens & Wierman 2008",
     "least attained service (GPU-seconds) first; preemptive; every round", "", 0,
     MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY(las)},
    {"isolated", "Mahajan et al., NSDI 2020 (Themis); Narayanan et al., OSDI 2020 (Gavel)",
     "1/N of the cluster each, realised in rounds by largest time deficit first", "", 0,
     MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY(isolated)},
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
     "Gavel's makespan minimisation (LP in 1/T), rounds", GAVEL_PARAMS, 1, MLS_CADENCE_ROUNDS,
     ENTRY(gavel_mtd)},
    {"max-sum-throughput-perf", "Narayanan et al., OSDI 2020 (Gavel, section 4.3); Shockwave's MST",
     "Gavel's total-throughput maximisation; LP, rounds", GAVEL_PARAMS, 0, MLS_CADENCE_ROUNDS,
     ENTRY(gavel_mst)},
    {"fifo-perf", "Narayanan et al., OSDI 2020 (Gavel, FIFO baseline, heterogeneity-aware)",
     "arrival order, each job on its fastest type with room; Gavel's rounds", GAVEL_PARAMS, 0,
     MLS_CADENCE_ROUNDS, ENTRY(gavel_fifo_perf)},
    {"allox", "Le et al., EuroSys 2020 (AlloX); as run by Gavel and Shockwave",
     "min-cost matching of waiting jobs to (GPU type, queue position) via GLPK; non-preemptive",
     "alpha=0.2: fairness knob, match only the max(alpha*m, free GPUs) longest-waiting jobs", 1,
     MLS_CADENCE_ROUNDS, ENTRY(allox)},
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
