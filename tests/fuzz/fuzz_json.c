/* fuzz_json.c: libFuzzer harness for the one JSON parser every JSON input
 * goes through (mls_json_parse: one document, no NUL, no duplicate key).
 * Properties: what it accepts holds no NUL byte and no object with a key
 * twice, and prints to text that it accepts again. */
#include "model/json_util.h"
#include "tests/fuzz/fuzz_util.h"

#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    mls_err_t err;
    cJSON *o = mls_json_parse((const char *)data, size, "fuzz", 1, &err);
    if (!o)
        return 0;
    if (memchr(data, '\0', size))
        fuzz_fail("a document with a NUL byte was accepted", NULL);
    if (mls_json_check_unique(o, "fuzz", &err) < 0)
        fuzz_fail("a document with a duplicate key was accepted", err.msg);
    char *text = cJSON_PrintUnformatted(o);
    cJSON *again = text ? mls_json_parse(text, strlen(text), "printed", 1, &err) : NULL;
    if (!again)
        fuzz_fail("a printed document is refused", err.msg);
    cJSON_Delete(again);
    cJSON_free(text);
    cJSON_Delete(o);
    return 0;
}
