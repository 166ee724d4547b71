/* gavel.h: the driver behind Gavel's policy files (gavel.c).
 *
 * A Gavel policy is an objective over the allocation X (gv_kind_t); the
 * driver builds and solves its LP at each recompute and runs Gavel's rounds.
 * Each policy file defines its three entry points with GAVEL_POLICY, which
 * forwards to gv_create/gv_schedule/gv_destroy. Parameters, shared by all:
 * recompute_interval (s, default 1920, >= 0) and pair_candidates (default 4,
 * 0..1000; used by the packed variant only). */
#ifndef MLS_GAVEL_H
#define MLS_GAVEL_H

#include "policies/policy.h"

typedef enum gv_kind {
    GV_MMF,
    GV_MMF_PERF,
    GV_MMF_PACKED,
    GV_FTF,
    GV_MTD,
    GV_MST,
    GV_FIFO_PERF,
    GV_FIFO_PACKED,
} gv_kind_t;
int gv_create(gv_kind_t kind, const char *name, void **state, const policy_args_t *args,
              char *err, size_t errlen);
int gv_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen);
void gv_destroy(void *state);

#define GAVEL_POLICY(fn, kind, name)                                                               \
    int fn##_create(void **state, const policy_args_t *args, char *err, size_t errlen)             \
    {                                                                                              \
        return gv_create(kind, name, state, args, err, errlen);                                    \
    }                                                                                              \
    int fn##_schedule(void *state, const view_t *v, plan_t *plan, char *err, size_t errlen)        \
    {                                                                                              \
        return gv_schedule(state, v, plan, err, errlen);                                           \
    }                                                                                              \
    void fn##_destroy(void *state)                                                                 \
    {                                                                                              \
        gv_destroy(state);                                                                         \
    }

#endif
