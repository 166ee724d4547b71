/* fuzz_faults.c: libFuzzer harness for the fault schedule CSV
 * (faults_read_csv) on a 4-node cluster. Property: a schedule that reads is
 * in time order, names existing nodes, gives slow events a speed in (0, 1]
 * and never fails a failed node or recovers a healthy one. */
#include "model/cluster.h"
#include "sim/faults.h"
#include "tests/fuzz/fuzz_util.h"

#include <string.h>

static void check(const fault_plan_t *f, const mls_cluster_t *c)
{
    char failed[4] = {0};
    for (size_t i = 0; i < f->n; i++) {
        const fault_event_t *e = &f->events[i];
        if (e->node < 0 || e->node >= c->n_nodes || (i && e->time < f->events[i - 1].time))
            fuzz_fail("a fault schedule that reads is out of order or names no node", NULL);
        if (e->kind == FAULT_SLOW && !(e->factor > 0 && e->factor <= 1))
            fuzz_fail("a slow event with a speed outside (0, 1]", NULL);
        if ((e->kind == FAULT_FAIL && failed[e->node]) ||
            (e->kind == FAULT_RECOVER && !failed[e->node]))
            fuzz_fail("a schedule fails a failed node or recovers a healthy one", NULL);
        if (e->kind == FAULT_FAIL || e->kind == FAULT_RECOVER)
            failed[e->node] = e->kind == FAULT_FAIL;
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mls_cluster_t c;
    mls_err_t err;
    if (cluster_from_spec(&c, "v100=2x4,k80=2x2", &err) < 0)
        fuzz_fail("the fixed cluster does not read", err.msg);
    fault_plan_t f;
    faults_init(&f);
    if (faults_read_csv(&f, fuzz_file(data, size, "faults.csv"), &c, &err) == 0)
        check(&f, &c);
    faults_free(&f);
    cluster_free(&c);
    return 0;
}
