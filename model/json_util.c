/* json_util.c: whole-file JSON reading and writing (see json_util.h), so
 * that every loader of a JSON input reports a malformed file the same way,
 * by file and line. */
#include "model/json_util.h"

#include <stdlib.h>

cJSON *mls_json_load(const char *path, mls_err_t *err)
{
    char *text = mls_read_file(path, err);
    if (!text)
        return NULL;
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithOpts(text, &end, 1);
    if (!root) {
        long line = 1;
        for (const char *p = text; end && p < end; p++)
            line += *p == '\n';
        mls_fail(err, "%s:%ld: not valid JSON", path, line);
    }
    free(text);
    return root;
}

int mls_json_save(const char *path, const cJSON *root, mls_err_t *err)
{
    char *text = cJSON_Print(root);
    if (!text)
        return mls_fail(err, "%s: out of memory", path);
    int rc = mls_write_text_file(path, text, err);
    cJSON_free(text);
    return rc;
}
