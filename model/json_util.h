/* json_util.h: reading and writing whole JSON files with cJSON, with the
 * errors every loader gives: "FILE:LINE: not valid JSON" (the line where the
 * parser stopped), "FILE: cannot read/write: ...". */
#ifndef MLS_JSON_UTIL_H
#define MLS_JSON_UTIL_H

#include "model/util.h"

#include <cjson/cJSON.h>

/* The parsed file (caller cJSON_Delete()s it), or NULL with err. Trailing
 * garbage after the JSON value is an error. */
cJSON *mls_json_load(const char *path, mls_err_t *err);
/* Prints root (formatted) to path atomically, with a final newline. */
int mls_json_save(const char *path, const cJSON *root, mls_err_t *err);

#endif
