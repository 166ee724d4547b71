/* fuzz_perf.c: libFuzzer harness for the perf-model files through
 * perf_load(), which picks the reader from the content: Gavel-style
 * throughput tables (JSON), curve catalogs (JSON), Pollux catalogs (JSON)
 * and curve files (CSV with the "# mlsched-curves v1" line). Property: none
 * beyond the sanitizers' (no crash, no leak, no undefined behaviour). */
#include "model/perf.h"
#include "tests/fuzz/fuzz_util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mls_perf_t *pm = NULL;
    mls_err_t err;
    if (perf_load(&pm, fuzz_file(data, size, "perf"), &err) == 0)
        perf_free(pm);
    return 0;
}
