/* gavel_share.h: Gavel's `isolated` and `gandiva` allocations, and
 * Shockwave's Gandiva-Fair, run by Gavel's round mechanism (gavel_round.h);
 * `-P mechanism=gavel` on isolated, gandiva and gandiva-fair (see
 * gavel_share.c for what each does and where it comes from). */
#ifndef MLS_GAVEL_SHARE_H
#define MLS_GAVEL_SHARE_H

#include "policies/policy.h"

typedef struct gs_state gs_state_t;

enum { GS_ISOLATED = 0, GS_GANDIVA = 1, GS_PROPORTIONAL = 2 };

/* gandiva: GS_ISOLATED, GS_GANDIVA, or GS_PROPORTIONAL (Shockwave's
 * Gandiva-Fair baseline). Parameters: mechanism (must be gavel),
 * recompute_interval (default 1920), new_jobs, received_start, rules
 * (gavel_round.h). Returns NULL with err set on a bad parameter. */
gs_state_t *gs_create(int gandiva, const policy_args_t *args, const char *policy, char *err,
                      size_t errlen);
void gs_schedule(gs_state_t *s, const view_t *v, plan_t *plan);
void gs_destroy(gs_state_t *s);

/* 1 when args asks for mechanism=gavel; -1 with err on an unknown mechanism
 * or a mechanism=gavel parameter without it. */
int gs_wanted(const policy_args_t *args, const char *policy, char *err, size_t errlen);

#endif
