/* sia.h: the parts of the Sia policy (policies/sia.c) that have a meaning of
 * their own, exposed so that tests check them by hand: the configuration set
 * (Sia §3.2), the utility of a normalized goodput under the fairness power p
 * (§3.3) and the selection integer program (§3.3, Equation 1) solved by GLPK.
 *
 * Promises: each function reads only its arguments (and the view) and is
 * deterministic. */
#ifndef MLS_SIA_POLICY_H
#define MLS_SIA_POLICY_H

#include "policies/policy.h"

#include <stddef.h>

/* A configuration (n, r, t): r GPUs of type t over n nodes. */
typedef struct sia_config {
    int type, nodes, gpus;
} sia_config_t;

/* Sia's configuration set for the view's up nodes (§3.2): per GPU type with
 * R GPUs on its largest node and N up nodes of that size, the single-node
 * set 1, 2, 4, ... (powers of two below R) and R, then the multi-node set
 * 2R, 3R, ..., N·R. Types in index order, sizes ascending. Writes at most max
 * configurations and returns how many there are in all. */
int sia_configs(const view_t *v, sia_config_t *out, int max);

/* The utility of a configuration whose normalized goodput is g (>= 1 for the
 * job's smallest configuration): lambda + g^p for p > 0 and lambda - g^p for
 * p < 0 (Sia minimises sum g^p + lambda x unallocated jobs when p < 0; both
 * are that objective written as a maximisation with lambda the gain of an
 * allocation). g is floored at 1e-4 and g^p capped at 3000, as Sia's code. */
double sia_utility(double g, double p, double lambda);

/* sia_utility with g^p rounded half to even to `decimals` decimals before it
 * is capped (decimals < 0: not rounded), as Sia's code rounds the powered-up
 * goodput matrix to 2. */
double sia_utility_rounded(double g, double p, double lambda, int decimals);

/* The selection problem: choose at most one configuration per job maximising
 * the sum of util[i*n_cfg + c] over chosen pairs (NAN: pair not allowed),
 * with the GPUs chosen of each type within cap[type]; fixed[i] >= 0 forces
 * job i onto that configuration (fixed may be NULL). A binary integer program
 * solved by GLPK's branch and cut (relative gap 1e-4, time limit time_limit
 * s; on a timeout the best integer solution found is used). choice[i] gets
 * the configuration index or -1. Returns 0, or -1 with a message in err
 * (forced pairs that do not fit, or GLPK found no integer solution). */
int sia_select(int n_jobs, int n_cfg, const double *util, const sia_config_t *cfg, int n_types,
               const int *cap, const int *fixed, double time_limit, int *choice, char *err,
               size_t errlen);

#endif
