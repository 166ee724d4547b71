/* fuzz_import.c: libFuzzer harness for every trace importer: the first
 * byte picks the format (import_at(byte % import_count())), the rest is
 * the file. Formats that yield jobs are validated; formats that yield
 * records are read (the mapping pipeline after them is the same for all).
 * Property: jobs from an importer that succeeded validate. */
#include "tests/fuzz/fuzz_util.h"
#include "traces/import.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    const import_format_t *fmt = import_at(data[0] % import_count());
    const char *path = fuzz_file(data + 1, size - 1, "import");
    mls_err_t err;
    long skipped = 0;
    unsigned flags = data[0] & 0x80 ? IMPORT_SKIP_BAD : 0;
    if (fmt->read) {
        mls_trace_t t;
        trace_init(&t);
        if (fmt->read(&t, path, flags, &skipped, &err) == 0) {
            import_sort_renumber(&t);
            if (trace_validate(&t, &err) < 0)
                fuzz_fail("an imported trace does not validate", err.msg);
        }
        trace_free(&t);
    } else if (fmt->read_records) {
        import_records_t rs;
        records_init(&rs);
        records_begin_file(&rs, path);
        fmt->read_records(&rs, path, flags, &skipped, &err);
        records_free(&rs);
    }
    return 0;
}
