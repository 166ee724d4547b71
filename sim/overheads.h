/* overheads.h: what each change of a job's allocation costs, per workload.
 *
 * A job that starts, restarts after a preemption, is resized (other GPU
 * count), migrated (same count, other GPUs or type) or resumed from suspension
 * holds its new GPUs for that many seconds without progress (checkpoint,
 * teardown, restore, warm-up). Kinds, their defaults and sources:
 *
 *   start    --restart-overhead (20 s): Shockwave's simulator charges 20 s to a
 *            job that was not running in the previous round (notes/peers.md,
 *            "Shockwave"); Pollux's simulator charges 30 s for any
 *            re-allocation (adaptdl osdi21-artifact simulator/simulator.py,
 *            Job.reallocate: rescale_time = 30).
 *   restart  --restart-overhead: the same sources (a preempted job restores
 *            its last checkpoint).
 *   resize   --restart-overhead: the same sources (Pollux's 30 s is exactly a
 *            resize: the same job on a new set of GPUs).
 *   migrate  --restart-overhead: the same sources (Shockwave charges any job
 *            (re)started in a round the same 20 s, moved or not).
 *   suspend  --restart-overhead by default, i.e. off: a preempted job that
 *            comes back on exactly the GPUs it left resumes from GPU/host memory
 *            when the scheduler suspends it at a mini-batch boundary, which costs
 *            50-250 ms in Gandiva (Xiao et al., OSDI 2018, §5, "suspend-resume");
 *            set "suspend": 0.25 to model Gandiva-style time slicing. A job whose
 *            node failed has lost that memory and pays "restart".
 *
 * A JSON file overrides them:
 *
 *   {"default":   {"start": 20, "restart": 20, "resize": 30, "migrate": 20,
 *                  "suspend": 0.25},
 *    "workloads": {"ResNet-50 (batch size 64)": {"restart": 45}},
 *    "gpus":      {"1": {"restart": 7}, "8": {"restart": 30}, "1024": {"restart": 60}}}
 *
 * Keys not given keep the default; a "suspend" that no object gives follows
 * "restart". A "gpus" entry N applies to jobs of up to N GPUs (the smallest N
 * that holds the job; none: "default"), as HeliosArtifact's SRTF charges a
 * preempted job 7 s on 1 GPU, 30 s up to 8 and 60 s above (policy.py,
 * ckpt_overhead); a workload's own entry comes first. */
#ifndef MLS_OVERHEADS_H
#define MLS_OVERHEADS_H

#include "model/strtab.h"
#include "model/util.h"

typedef enum ovh_kind {
    OVH_START,
    OVH_RESTART,
    OVH_RESIZE,
    OVH_MIGRATE,
    OVH_SUSPEND, /* resume of a suspended job on the GPUs it left */
    OVH_KINDS
} ovh_kind_t;

typedef struct overheads {
    double def[OVH_KINDS];
    strtab_t names;           /* workloads with their own values */
    double (*per)[OVH_KINDS]; /* per[names index] */
    size_t cap;
    int n_gpus;    /* "gpus" entries, by increasing GPU count */
    int *gpus_max; /* gpus_max[i]: the entry's GPU count */
    double (*by_gpus)[OVH_KINDS];
    char *source; /* file it came from, or NULL */
} overheads_t;

void overheads_init(overheads_t *o, double base);
void overheads_free(overheads_t *o);
int overheads_load_json(overheads_t *o, const char *path, mls_err_t *err);
double overheads_get(const overheads_t *o, const char *workload, ovh_kind_t kind);
/* The cost for a job of `gpus` GPUs: its workload's entry, else the "gpus"
 * entry that holds it, else the default. */
double overheads_get_job(const overheads_t *o, const char *workload, int gpus, ovh_kind_t kind);
const char *overheads_kind_name(ovh_kind_t kind);

#endif
