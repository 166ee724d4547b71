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
 *    "workloads": {"ResNet-50 (batch size 64)": {"restart": 45}}}
 *
 * Keys not given keep the default; a "suspend" that no object gives follows
 * "restart". */
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
    strtab_t names;              /* workloads with their own values */
    double (*per)[OVH_KINDS];    /* per[names index] */
    size_t cap;
    char *source;                /* file it came from, or NULL */
} overheads_t;

void overheads_init(overheads_t *o, double base);
void overheads_free(overheads_t *o);
int overheads_load_json(overheads_t *o, const char *path, mls_err_t *err);
double overheads_get(const overheads_t *o, const char *workload, ovh_kind_t kind);
const char *overheads_kind_name(ovh_kind_t kind);

#endif
