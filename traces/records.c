/* records.c: the record list that production-trace importers fill (see
 * records.h). */
#include "records.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

void records_init(import_records_t *rs)
{
    memset(rs, 0, sizeof *rs);
    strtab_init(&rs->users);
    strtab_init(&rs->vcs);
    strtab_init(&rs->gpu_types);
    strtab_init(&rs->workloads);
}

void records_free(import_records_t *rs)
{
    free(rs->r);
    free(rs->machines);
    strtab_free(&rs->users);
    strtab_free(&rs->vcs);
    strtab_free(&rs->gpu_types);
    strtab_free(&rs->workloads);
    memset(rs, 0, sizeof *rs);
}

import_record_t record_blank(void)
{
    import_record_t r = {
        .submit = NAN,
        .start = NAN,
        .duration = NAN,
        .gpus = NAN,
        .nodes = 0,
        .cpus = NAN,
        .mem_gb = NAN,
        .user = -1,
        .vc = -1,
        .gpu_type = -1,
        .workload = -1,
        .status = REC_UNKNOWN,
        .attempts = -1,
        .iterations = NAN,
        .batch_size = 0,
        .deadline = INFINITY,
        .line = 0,
    };
    return r;
}

size_t records_add(import_records_t *rs, const import_record_t *r)
{
    xgrow((void **)&rs->r, &rs->cap, rs->n + 1, sizeof *rs->r);
    rs->r[rs->n] = *r;
    return rs->n++;
}

size_t records_add_machine(import_records_t *rs, const import_machine_t *m)
{
    xgrow((void **)&rs->machines, &rs->machines_cap, rs->n_machines + 1, sizeof *rs->machines);
    rs->machines[rs->n_machines] = *m;
    return rs->n_machines++;
}
