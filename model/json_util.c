/* json_util.c: whole-file JSON reading and writing (see json_util.h), so
 * that every loader of a JSON input reports a malformed file the same way,
 * by file and line, and reads it exactly as written (one document, no NUL,
 * no duplicate key). */
#include "model/json_util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long line_at(const char *text, const char *end, long first)
{
    long line = first;
    for (const char *p = text; p < end; p++)
        line += *p == '\n';
    return line;
}

/* Whether the six characters \u0000 appear anywhere in text[0..n) (from
 * backslash to backslash): when they do not, nul_escape finds none. */
static int any_u0000(const char *text, size_t n)
{
    const char *p = text, *end = text + n;
    for (; (p = memchr(p, '\\', (size_t)(end - p))) != NULL; p++)
        if (end - p >= 6 && !memcmp(p + 1, "u0000", 5))
            return 1;
    return 0;
}

/* Where a \u0000 escape sits inside a string of text[0..n), or NULL. An
 * escaped backslash ("\\u0000" is the text \u0000, not a NUL) is skipped. */
static const char *nul_escape(const char *text, size_t n)
{
    if (!any_u0000(text, n))
        return NULL;
    int in_str = 0;
    for (size_t i = 0; i < n; i++) {
        char c = text[i];
        if (!in_str) {
            in_str = c == '"';
            continue;
        }
        if (c == '"')
            in_str = 0;
        else if (c == '\\' && i + 1 < n) {
            if (text[i + 1] == 'u' && i + 5 < n && !memcmp(text + i + 2, "0000", 4))
                return text + i;
            i++;
        }
    }
    return NULL;
}

cJSON *mls_json_parse(const char *text, size_t len, const char *name, long first_line,
                      mls_err_t *err)
{
    const char *nul = memchr(text, '\0', len);
    if (nul) {
        mls_fail(err, "%s:%ld: a NUL byte: a text input must not contain one", name,
                 line_at(text, nul, first_line));
        return NULL;
    }
    const char *end = NULL;
    cJSON *root = cJSON_ParseWithLengthOpts(text, len, &end, 0);
    if (!root) {
        mls_fail(err, "%s:%ld: not valid JSON", name, line_at(text, end ? end : text, first_line));
        return NULL;
    }
    const char *p = end;
    while (p < text + len && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
        p++;
    if (p < text + len) {
        mls_fail(err, "%s:%ld: data after the JSON document (one document per input)", name,
                 line_at(text, p, first_line));
        cJSON_Delete(root);
        return NULL;
    }
    const char *esc = nul_escape(text, len);
    if (esc) {
        mls_fail(err, "%s:%ld: a \\u0000 (NUL) in a string: a text input must not contain one",
                 name, line_at(text, esc, first_line));
        cJSON_Delete(root);
        return NULL;
    }
    if (mls_json_check_unique(root, name, err) < 0) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

cJSON *mls_json_load(const char *path, mls_err_t *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        mls_fail(err, "%s: cannot open: %s", path, strerror(errno));
        return NULL;
    }
    size_t n = 0, cap = 0, got;
    char *text = NULL, chunk[1 << 15];
    while ((got = fread(chunk, 1, sizeof chunk, f)) > 0) {
        xgrow((void **)&text, &cap, n + got + 1, 1);
        memcpy(text + n, chunk, got);
        n += got;
    }
    int bad = ferror(f);
    fclose(f);
    if (bad) {
        free(text);
        mls_fail(err, "%s: read error", path);
        return NULL;
    }
    cJSON *root = mls_json_parse(text ? text : "", n, path, 1, err);
    free(text);
    return root;
}

static int cmp_key(const void *a, const void *b)
{
    return strcmp((*(const cJSON *const *)a)->string, (*(const cJSON *const *)b)->string);
}

/* The first key of object o that appears twice, or NULL. */
static const char *dup_key(const cJSON *o)
{
    size_t n = 0;
    for (const cJSON *c = o->child; c; c = c->next)
        n++;
    if (n < 2)
        return NULL;
    const cJSON **keys = xmalloc(n * sizeof *keys);
    n = 0;
    for (const cJSON *c = o->child; c; c = c->next)
        if (c->string)
            keys[n++] = c;
    qsort(keys, n, sizeof *keys, cmp_key);
    const char *dup = NULL;
    for (size_t i = 1; i < n && !dup; i++)
        if (!strcmp(keys[i]->string, keys[i - 1]->string))
            dup = keys[i]->string;
    free(keys);
    return dup;
}

/* Depth-first; `where` holds the path of node. */
static int check_node(const cJSON *node, char *where, size_t cap, const char *name, mls_err_t *err)
{
    if (cJSON_IsObject(node)) {
        const char *dup = dup_key(node);
        if (dup)
            return mls_fail(err, "%s: key '%.200s' appears twice in %s", name, dup,
                            *where ? where : "the top-level object");
    }
    if (!cJSON_IsObject(node) && !cJSON_IsArray(node))
        return 0;
    size_t len = strlen(where);
    int i = 0;
    for (const cJSON *c = node->child; c; c = c->next, i++) {
        if (cJSON_IsObject(node))
            snprintf(where + len, cap - len, "%s%.200s", len ? "." : "", c->string);
        else
            snprintf(where + len, cap - len, "[%d]", i);
        if (check_node(c, where, cap, name, err) < 0)
            return -1;
        where[len] = '\0';
    }
    return 0;
}

/* any_dup's table of an object's keys, kept across objects. */
typedef struct key_set {
    const char **slot;
    size_t cap;
} key_set_t;

/* Whether object o has a key twice: a hash set of its keys. */
static int has_dup(const cJSON *o, key_set_t *ks)
{
    size_t n = 0;
    for (const cJSON *c = o->child; c; c = c->next)
        n++;
    if (n < 2)
        return 0;
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    if (cap > ks->cap) {
        free(ks->slot);
        ks->slot = xmalloc(cap * sizeof *ks->slot);
        ks->cap = cap;
    }
    memset(ks->slot, 0, cap * sizeof *ks->slot);
    for (const cJSON *c = o->child; c; c = c->next) {
        if (!c->string)
            continue;
        size_t i = (size_t)mls_hash_bytes(c->string, strlen(c->string)) & (cap - 1);
        for (; ks->slot[i]; i = (i + 1) & (cap - 1))
            if (!strcmp(ks->slot[i], c->string))
                return 1;
        ks->slot[i] = c->string;
    }
    return 0;
}

/* Whether some object under node (node too) has a key twice: check_node's
 * answer without its paths and sorts, so that a valid file costs no
 * formatting. */
static int any_dup(const cJSON *node, key_set_t *ks)
{
    if (!cJSON_IsObject(node) && !cJSON_IsArray(node))
        return 0;
    if (cJSON_IsObject(node) && has_dup(node, ks))
        return 1;
    for (const cJSON *c = node->child; c; c = c->next)
        if (any_dup(c, ks))
            return 1;
    return 0;
}

int mls_json_check_unique(const cJSON *root, const char *name, mls_err_t *err)
{
    char where[512] = "";
    key_set_t ks = {NULL, 0};
    int dup = any_dup(root, &ks);
    free(ks.slot);
    if (!dup)
        return 0;
    return check_node(root, where, sizeof where, name, err);
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

cJSON *mls_json_add_exact(cJSON *o, const char *key, double v)
{
    if (!isfinite(v))
        return cJSON_AddNumberToObject(o, key, v);
    char buf[40];
    for (int digits = 15; digits <= 17; digits++) {
        snprintf(buf, sizeof buf, "%.*g", digits, v);
        if (strtod(buf, NULL) == v)
            break;
    }
    return cJSON_AddRawToObject(o, key, buf);
}
