/* fuzz_trace.c: libFuzzer harness for the canonical trace CSV reader
 * (trace_read_csv). Property: a trace that reads is valid (trace_validate)
 * and survives a write and a re-read with the same jobs. */
#include "model/trace.h"
#include "tests/fuzz/fuzz_util.h"

#include <math.h>
#include <string.h>

static int same_job(const mls_trace_t *a, const mls_trace_t *b, size_t i)
{
    const mls_job_t *x = &a->jobs[i], *y = &b->jobs[i];
    return x->id == y->id && x->submit == y->submit && x->gpus == y->gpus && x->work == y->work &&
           x->min_gpus == y->min_gpus && x->max_gpus == y->max_gpus &&
           x->batch_size == y->batch_size && x->total_batch == y->total_batch &&
           x->mode == y->mode &&
           !strcmp(a->workloads.names[x->workload], b->workloads.names[y->workload]) &&
           !strcmp(a->users.names[x->user], b->users.names[y->user]);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *path = fuzz_file(data, size, "trace.csv");
    mls_trace_t t, back;
    mls_err_t err;
    trace_init(&t);
    trace_init(&back);
    if (trace_read_csv(&t, path, size && data[0] == '#' ? TRACE_IGNORE_EXTRA : 0, &err) == 0) {
        if (trace_validate(&t, &err) < 0)
            fuzz_fail("a trace that reads does not validate", err.msg);
        char out[300];
        snprintf(out, sizeof out, "%s.out.csv", path);
        if (trace_write_csv(&t, out, &err) < 0)
            fuzz_fail("cannot write a trace that read", err.msg);
        if (trace_read_csv(&back, out, 0, &err) < 0)
            fuzz_fail("a written trace does not read back", err.msg);
        if (back.n != t.n)
            fuzz_fail("a written trace reads back with another job count", out);
        for (size_t i = 0; i < t.n; i++)
            if (!same_job(&t, &back, i))
                fuzz_fail("a written trace reads back with another job", out);
        remove(out);
    }
    trace_free(&t);
    trace_free(&back);
    return 0;
}
