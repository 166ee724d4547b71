/* policies.h: the entry points of every policy, as the registry lists them.
 *
 * Each policy file (policies/NAME.c) defines its create/schedule/destroy with
 * the signatures of policy_ops_t; registry.c puts them in its one table with
 * the policy's name, paper, oracle flag, summary, parameters and cadence.
 * Nothing outside registry.c and the tests calls these directly. */
#ifndef MLS_POLICIES_H
#define MLS_POLICIES_H

#include "policies/policy.h"

#define MLS_POLICY_ENTRY_POINTS(p)                                                                 \
    int p##_create(void **state, const policy_args_t *args, char *err, size_t errlen);             \
    int p##_schedule(void *state, const view_t *view, plan_t *plan, char *err, size_t errlen);     \
    void p##_destroy(void *state)

MLS_POLICY_ENTRY_POINTS(fifo);
/* policy_ops_t.schedule_queued of the policies that have one */
int fifo_schedule_queued(void *state, const view_t *view, plan_t *plan, char *err, size_t errlen);
int las_schedule_queued(void *state, const view_t *view, plan_t *plan, char *err, size_t errlen);
int tiresias_las_schedule_queued(void *state, const view_t *view, plan_t *plan, char *err,
                                 size_t errlen);
MLS_POLICY_ENTRY_POINTS(fifo_backfill);
MLS_POLICY_ENTRY_POINTS(sjf);
MLS_POLICY_ENTRY_POINTS(srtf);
MLS_POLICY_ENTRY_POINTS(las);
MLS_POLICY_ENTRY_POINTS(isolated);
MLS_POLICY_ENTRY_POINTS(themis);
MLS_POLICY_ENTRY_POINTS(themis_oracle);
MLS_POLICY_ENTRY_POINTS(gandiva_fair);
MLS_POLICY_ENTRY_POINTS(gandiva);
MLS_POLICY_ENTRY_POINTS(gandiva_paper);
MLS_POLICY_ENTRY_POINTS(tiresias_las);
MLS_POLICY_ENTRY_POINTS(tiresias_gittins);
MLS_POLICY_ENTRY_POINTS(optimus);
MLS_POLICY_ENTRY_POINTS(optimus_oracle);
MLS_POLICY_ENTRY_POINTS(drf);
MLS_POLICY_ENTRY_POINTS(qssf);
MLS_POLICY_ENTRY_POINTS(gavel_mmf);
MLS_POLICY_ENTRY_POINTS(gavel_mmf_perf);
MLS_POLICY_ENTRY_POINTS(gavel_mmf_packed);
MLS_POLICY_ENTRY_POINTS(gavel_ftf);
MLS_POLICY_ENTRY_POINTS(gavel_mtd);
MLS_POLICY_ENTRY_POINTS(gavel_mst);
MLS_POLICY_ENTRY_POINTS(gavel_fifo_perf);
MLS_POLICY_ENTRY_POINTS(gavel_fifo_packed);
MLS_POLICY_ENTRY_POINTS(allox);
MLS_POLICY_ENTRY_POINTS(pollux);
MLS_POLICY_ENTRY_POINTS(pathways);
MLS_POLICY_ENTRY_POINTS(shockwave);
MLS_POLICY_ENTRY_POINTS(elastic_dp);
MLS_POLICY_ENTRY_POINTS(elastic_fixed_batch);
MLS_POLICY_ENTRY_POINTS(autoscale);
MLS_POLICY_ENTRY_POINTS(sia);
MLS_POLICY_ENTRY_POINTS(deeppool);
MLS_POLICY_ENTRY_POINTS(gavel_fifo);

#endif
