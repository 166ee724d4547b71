/* overheads.h: what each change of a job's allocation costs, per workload.
 *
 * A job that starts, restarts after a preemption, is resized (other GPU
 * count) or migrated (same count, other GPUs or type) holds its new GPUs for
 * that many seconds without progress (checkpoint, teardown, restore, warm-up).
 * Defaults: every kind costs --restart-overhead (20 s, the value Shockwave's
 * simulator charges a job that was not running in the previous round; Pollux's
 * simulator charges 30 s for any re-allocation). A JSON file overrides them:
 *
 *   {"default":   {"start": 20, "restart": 20, "resize": 30, "migrate": 20},
 *    "workloads": {"ResNet-50 (batch size 64)": {"restart": 45}}}
 *
 * Keys not given keep the default. Suspend/resume at a mini-batch boundary
 * (Gandiva: 50-250 ms) is not modelled: a preempted job releases its GPUs. */
#ifndef MLS_OVERHEADS_H
#define MLS_OVERHEADS_H

#include "strtab.h"
#include "util.h"

typedef enum ovh_kind { OVH_START, OVH_RESTART, OVH_RESIZE, OVH_MIGRATE, OVH_KINDS } ovh_kind_t;

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
