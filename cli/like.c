/* like.c: the peers `--like` mimics (see like.h), one row each, with where
 * each setting comes from. Read from the peers' code (shared/notes/peers.md
 * has the facts and the commits); what a peer does that mlsched does not
 * model is said in the docs/reproducing.md's "Comparing with peer simulators" table. */
#include "cli/like.h"

#include "cli/cmd.h"
#include "sim/mechanism.h"
#include "sim/policy_exec.h"

#include <stdlib.h>
#include <string.h>

static const like_peer_t peers[] = {
    /* Gavel (stanford-futuredata/gavel, scheduler.py): 360 s rounds, the
     * policy called at round ends only; no restart cost in simulation; the
     * round mechanism uses consolidated throughputs wherever a job is placed
     * (its _unconsolidated keys are unused); allocations recomputed at most
     * every 1920 s, jobs outside the allocation get priority 0 (new jobs wait
     * for the next recompute), received time reset to half a round at
     * add_job and at each recompute; AlloX runs as a Gavel allocation,
     * matched on allox.py's own matrix with scipy's choices among equal
     * costs (solver=lsap: which job is first on a worker hangs on them); a
     * round ends when its last job's steps end (simulate()), a job given fewer
     * steps than GPUs fails the round, and is dropped after 5 in a row;
     * rules=gavel: the mechanism's rules that its paper does not state
     * (policies/gavel_round.h). */
    {"gavel",
     360,
     "rounds",
     0,
     "spread",
     "consolidated",
     "steps",
     {"mechanism=gavel", "solver=lsap", "recompute_interval=1920", "new_jobs=wait",
      "received_start=half_round", "rules=gavel", NULL},
     NULL},
    /* Shockwave (uw-mad-dash/shockwave 8a44f4a, a Gavel fork): 120 s rounds,
     * the policy called at round ends only (its simulate() loop, as Gavel's),
     * 20 s lost by a job not scheduled in the previous round, recompute at
     * most every 1000 s, Gavel's new-job and received-time rules and the
     * rest of Gavel's mechanism (rules=gavel: scheduler.py's priorities and
     * deficits are Gavel's), every GPU its own server (consolidated
     * throughputs). Its baselines: AlloX, isolated and gandiva run as Gavel
     * allocations (mechanism=gavel), its Gandiva-Fair too (an equal time
     * share per job, gandiva_fair_proportional.py), its OSSP
     * (min_total_duration.py) as its code solves it: Gavel's 5 % bisection
     * and ECOS's interior point (bisect=1). Its round ends at the round
     * length, not at the last job's steps (its 20 s are taken from the steps
     * of a full round only, which --round-end steps does not model). */
    {"shockwave",
     120,
     "rounds",
     20,
     "spread",
     "consolidated",
     NULL,
     {"mechanism=gavel", "recompute_interval=1000", "new_jobs=wait", "received_start=half_round",
      "rules=gavel", "bisect=1", NULL},
     NULL},
    /* Pollux (petuum/adaptdl osdi21-artifact simulator/): 60 s steps, every
     * policy called at their ends only (Cluster.step: jobs that arrive or end
     * within a step wait for its end), 30 s without progress after an
     * allocation change, jobs spread over nodes at the rate of their
     * placement, each epoch's time rounded to whole seconds (Job.step's
     * round()). Its Tiresias (tiresias.py): 2 queues, demotion at 16
     * GPU-hours, the jobs that run chosen by GPU count and placed from the
     * node with the most free GPUs on (place=most_free). Its Optimus keeps
     * each job's total batch as its GPUs change (Job.update_local_bsz:
     * batch=total) and places a job whose GPU count changed from the node
     * with the most free GPUs on (optimus.py: place=most_free). Its Pollux
     * pins ncf's batch at 32,768, ncf's only GPU count being 1 (simulator.py:
     * target_batch_size, max_replicas 1): rigid_batch=1, a job of one GPU
     * count at its trace's total batch. Its pollux
     * runs all 100 generations of its GA at every call (patience=0, also
     * pollux's default: set here so that --like pollux keeps it if that
     * default changes). */
    {"pollux",
     60,
     "rounds",
     30,
     "spread",
     "placed",
     NULL,
     {"queues=2", "limits=57600", "batch=total", "place=most_free", "rigid_batch=1", "patience=0", NULL},
     "whole"},
    /* Tiresias (SymbioticLab/Tiresias simulator, run_sim.py dlas_sim_jobs): a
     * job runs its trace duration (placement does not change its speed),
     * preemption is free, a job starts wherever enough GPUs are free (its
     * "count" placement: no node constraint), and within a queue the running
     * jobs stay ahead of the waiting ones (its list order). It decides at
     * arrivals, completions and its queue-jump times (late for multi-GPU jobs
     * under GPU-time: (limit - seconds run) / GPUs ahead); ours at arrivals
     * and completions (round 0): its Gittins ranks change only there. Its
     * `dlas` counts seconds run: -P service=time; its Gittins table:
     * tiresias-gittins -P samples=yarn-gput1000.csv. */
    {"tiresias", 0, NULL, 0, "spread", "consolidated", NULL, {"within=running_first", NULL}, NULL},
    /* Helios (S-Lab-System-Group/HeliosArtifact, QSSF simulator): a job runs
     * its traced duration on whole nodes of its VC, waiting for them: a job of
     * up to 8 GPUs on one node, a larger one on the nodes the trace importer
     * priced it on (placed rates: consolidated ones would run a 16-GPU job at
     * an extrapolated one-node rate, faster than traced). Its fifo, sjf and
     * qssf stop at the first queued job the placer cannot place (hold) or
     * that does not fit (sjf's fill=stop). Its srtf passes over such a job
     * and pays 7/30/60 s per preemption: --placement consolidate --overheads
     * with a "gpus" table after --like helios (docs/reproducing.md). Its qssf
     * sorts its queue as order=helios says (policies/qssf.c); its Philly
     * predictor's file: qssf -P predictions=FILE. */
    {"helios", -1, NULL, 0, "hold", "placed", NULL, {"fill=stop", "order=helios", NULL}, NULL},
};

const like_peer_t *like_at(int i)
{
    return i >= 0 && (size_t)i < sizeof peers / sizeof *peers ? &peers[i] : NULL;
}

const like_peer_t *like_find(const char *name)
{
    for (int i = 0; like_at(i); i++)
        if (!strcmp(peers[i].name, name))
            return &peers[i];
    return NULL;
}

void like_apply_engine(const like_peer_t *p, engine_config_t *cfg)
{
    if (p->round_len >= 0)
        cfg->round_len = p->round_len;
    if (p->cadence)
        cfg->cadence = opt_cadence_parse(p->cadence);
    if (p->restart_overhead >= 0)
        cfg->restart_overhead = p->restart_overhead;
    if (p->placement)
        cfg->placement = mech_placement_parse(p->placement);
    if (p->spread_rate)
        cfg->consolidated_rates = !strcmp(p->spread_rate, "consolidated");
    if (p->round_end)
        cfg->round_end = engine_round_end_parse(p->round_end);
    if (p->epoch_times)
        cfg->whole_epochs = !strcmp(p->epoch_times, "whole");
}

/* 1 when params has key k (the first len bytes of kv). */
static int has_key(const opt_params_t *params, const char *kv, size_t len)
{
    for (int i = 0; i < params->n; i++)
        if (strlen(params->keys[i]) == len && !strncmp(params->keys[i], kv, len))
            return 1;
    return 0;
}

/* 1 when pol's create() takes kv beside the parameters it is given already
 * (some keys are taken only with another: allox's new_jobs with
 * mechanism=gavel). */
static int takes(const policy_ops_t *pol, const opt_params_t *given, const char *kv)
{
    char *buf = xstrdup(kv), *eq = strchr(buf, '=');
    *eq = '\0';
    const char *keys[OPT_LIST_MAX + 1], *values[OPT_LIST_MAX + 1];
    int n = 0;
    for (; n < given->n; n++) {
        keys[n] = given->keys[n];
        values[n] = given->values[n];
    }
    keys[n] = buf;
    values[n++] = eq + 1;
    policy_args_t args = {n, keys, values, 0, NULL};
    policy_ref_t ref;
    mls_err_t e;
    void *state = NULL;
    char err[256];
    /* through policy_resolve, so a sample file given with the flags is read */
    int ok = policy_resolve(pol->name, &args, &ref, &e) == 0 &&
             pol->create(&state, &ref.args, err, sizeof err) == 0;
    if (ok && pol->destroy)
        pol->destroy(state);
    policy_release(&ref);
    free(buf);
    return ok;
}

int like_apply_params(const like_peer_t *p, const policy_ops_t *pol, opt_params_t *params,
                      const char *who)
{
    for (int i = 0; pol && p->params[i]; i++) {
        const char *kv = p->params[i];
        if (has_key(params, kv, (size_t)(strchr(kv, '=') - kv)) || !takes(pol, params, kv))
            continue;
        int rc = opt_param_call(params, 0, kv, who);
        if (rc)
            return rc;
    }
    return 0;
}
