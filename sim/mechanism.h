/* mechanism.h: the rules every plan must keep, checked in terms of the view
 * alone, so that the simulator and the live runner enforce exactly the same
 * rules on the same policy code.
 *
 * mech_check_plan() rejects a plan that breaks a rule, with a message naming
 * the policy, the job and the rule:
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

#include "policy.h"
#include "util.h"

int mech_check_plan(const view_t *v, const plan_t *p, const char *policy, mls_err_t *err);

#endif
