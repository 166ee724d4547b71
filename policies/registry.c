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
     "per=user: fairness unit, user or job", 0,
     MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY(gandiva_fair)},
    {"gandiva", "Xiao et al., OSDI 2018 (Gandiva); Narayanan et al., OSDI 2020 (Gavel's version)",
     "time-slicing with random pairs packed on shared GPUs, split when they lose", "", 0,
     MLS_CADENCE_EVENTS | MLS_CADENCE_ROUNDS, ENTRY(gandiva)},
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
