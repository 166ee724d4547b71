/* fuzz_samples.c: libFuzzer harness for the sample-file reader
 * (samples_read, model/samples.h: a CSV column of positive integers, as
 * tiresias-gittins's samples=FILE) and its per-job form (samples_read_keyed,
 * qssf's predictions=FILE). Property: a file that reads gives at least one
 * sample, every plain sample is >= 1 and every job id is there once; one
 * that does not says why. */
#include "model/samples.h"
#include "tests/fuzz/fuzz_util.h"

#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    long *v, n;
    mls_err_t err;
    err.msg[0] = '\0';
    if (samples_read(fuzz_file(data, size, "samples.csv"), "duration", &v, &n, &err) == 0) {
        if (n < 1)
            fuzz_fail("a sample file that reads has no sample", NULL);
        for (long i = 0; i < n; i++)
            if (v[i] < 1)
                fuzz_fail("a sample below 1 was read", NULL);
        free(v);
    } else if (!err.msg[0]) {
        fuzz_fail("a sample file that does not read gives no reason", NULL);
    }
    int64_t *ids;
    err.msg[0] = '\0';
    if (samples_read_keyed(fuzz_file(data, size, "samples.csv"), "id", "duration", &ids, &v, &n,
                           &err) == 0) {
        if (n < 1)
            fuzz_fail("a per-job file that reads has no row", NULL);
        for (long i = 1; i < n && n < 4096; i++)
            for (long k = 0; k < i; k++)
                if (ids[i] == ids[k])
                    fuzz_fail("a repeated job id was read", NULL);
        free(ids);
        free(v);
    } else if (!err.msg[0]) {
        fuzz_fail("a per-job file that does not read gives no reason", NULL);
    }
    return 0;
}
