/* json_util.h: reading and writing whole JSON files with cJSON, with the
 * errors every loader gives: "FILE:LINE: not valid JSON" (the line where the
 * parser stopped), "FILE: cannot read/write: ...".
 *
 * Every JSON input is read exactly as written: one document and nothing
 * after it but blanks, no NUL byte (raw or as \u0000: cJSON would cut the
 * string there), and no key twice in one object (cJSON keeps both and a
 * lookup silently takes the first). */
#ifndef MLS_JSON_UTIL_H
#define MLS_JSON_UTIL_H

#include "model/util.h"

#include <cjson/cJSON.h>

/* The parsed file (caller cJSON_Delete()s it), or NULL with err. Trailing
 * garbage after the JSON value, a NUL and a duplicate key are errors. */
cJSON *mls_json_load(const char *path, mls_err_t *err);
/* The one JSON document in text[0..len) (need not be NUL-terminated), with
 * the checks above, or NULL with err "NAME:LINE: ..." (NAME: a file, or
 * "request"; first_line: the line text starts on, for messages). */
cJSON *mls_json_parse(const char *text, size_t len, const char *name, long first_line,
                      mls_err_t *err);
/* 0 when no object in the tree has a key twice, else -1 with err
 * "NAME: key 'K' appears twice in PATH" (PATH like node_groups[0]). */
int mls_json_check_unique(const cJSON *root, const char *name, mls_err_t *err);
/* Prints root (formatted) to path atomically, with a final newline. */
int mls_json_save(const char *path, const cJSON *root, mls_err_t *err);
/* Adds number v under key, written with the fewest digits (15 to 17) that
 * read back as exactly v: cJSON's own printing stops at 15 digits when they
 * come within a unit in the last place, so a stored double could read back
 * as its neighbour. A value that is not finite is added as cJSON does (null). */
cJSON *mls_json_add_exact(cJSON *o, const char *key, double v);

#endif
