/* like.h: `--like PEER` (simulate, compare, sweep): one flag for every
 * semantic of a peer's simulator that mlsched models as separate flags.
 *
 * A peer is a row of settings: engine settings (round length, cadence,
 * restart overhead, placement, spread rate, round end; each may be left unset) and
 * policy parameters (KEY=VALUE, given only to a policy that takes KEY: its
 * create() accepts the pair alone). Where the settings come from is each
 * row's note in like.c (the peer's code, shared/notes/peers.md, the README
 * sections that reproduce its results).
 *
 * Order on the command line: --like sets its engine settings where it
 * stands, so an engine flag after it overrides one setting and one before it
 * is overridden. A --param (-P) of the same key always wins over the peer's.
 * compare and sweep pass --like first to every simulate and forget the engine
 * flags given before it, which keeps the same rule. */
#ifndef MLS_LIKE_H
#define MLS_LIKE_H

#include "cli/opts.h"
#include "policies/policy.h"
#include "sim/engine.h"

#define LIKE_MAX_PARAMS 8

typedef struct like_peer {
    const char *name;
    double round_len;        /* s; < 0: not set */
    const char *cadence;     /* events|rounds|both; NULL: not set */
    double restart_overhead; /* s; < 0: not set */
    const char *placement;   /* spread|consolidate|auto|hold; NULL: not set */
    const char *spread_rate; /* placed|consolidated; NULL: not set */
    const char *round_end;   /* fixed|steps; NULL: not set */
    const char *params[LIKE_MAX_PARAMS]; /* KEY=VALUE, NULL-ended */
    const char *epoch_times;             /* exact|whole; NULL: not set */
} like_peer_t;

/* The peer called name, NULL when unknown. */
const like_peer_t *like_find(const char *name);
/* The peers, in table order, NULL after the last. */
const like_peer_t *like_at(int i);

/* Sets cfg's engine settings from peer p (those p sets). */
void like_apply_engine(const like_peer_t *p, engine_config_t *cfg);
/* Adds to params each of p's KEY=VALUE that policy pol takes and params
 * does not give (pol NULL: an exec: policy, none). Returns 0, or
 * MLS_EXIT_USAGE after printing why (too many --param). */
int like_apply_params(const like_peer_t *p, const policy_ops_t *pol, opt_params_t *params,
                      const char *who);

#endif
