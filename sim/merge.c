/* merge.c: folds runs from several results databases into one (see merge.h).
 *
 * The copy is generic: the runs table first (each run gets the next run_id of
 * the output, old -> new kept in a sorted map), then every other table that
 * has a run_id column, copied row by row through sqlite3_value with columns
 * matched by name, run_id rewritten through the map. Inputs are opened one at
 * a time (read-only, a separate connection, so any number of them works —
 * ATTACH is limited to ten and refused inside a transaction). */
#include "sim/merge.h"

#include "sim/store.h"

#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

typedef struct id_map {
    int64_t *old_id, *new_id; /* old ids ascending */
    size_t n, cap_o, cap_n;
} id_map_t;

typedef struct cols {
    char **name;
    size_t n, cap;
    int run_col; /* index of run_id, -1 none */
} cols_t;

static int sq_fail(sqlite3 *db, const char *path, const char *what, mls_err_t *err)
{
    return mls_fail(err, "%s: %s: %s", path, what, sqlite3_errmsg(db));
}

static void cols_free(cols_t *c)
{
    for (size_t i = 0; i < c->n; i++)
        free(c->name[i]);
    free(c->name);
    memset(c, 0, sizeof *c);
}

static int table_cols(sqlite3 *db, const char *table, cols_t *c)
{
    memset(c, 0, sizeof *c);
    c->run_col = -1;
    char sql[256];
    snprintf(sql, sizeof sql, "PRAGMA table_info(\"%s\")", table);
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, sql, -1, &st, NULL) != SQLITE_OK)
        return -1;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 1);
        xgrow((void **)&c->name, &c->cap, c->n + 1, sizeof *c->name);
        if (!strcmp(name, "run_id"))
            c->run_col = (int)c->n;
        c->name[c->n++] = xstrdup(name);
    }
    sqlite3_finalize(st);
    return 0;
}

/* "SELECT a,b,c FROM t ORDER BY rowid" and "INSERT INTO t(a,c) VALUES(?,?)":
 * the INSERT leaves out column `skip` (-1: none). */
static void build_sql(const char *table, const cols_t *c, int skip, char **sel, char **ins)
{
    size_t len = 64 + strlen(table) * 2;
    for (size_t i = 0; i < c->n; i++)
        len += 2 * strlen(c->name[i]) + 8;
    *sel = xmalloc(len);
    *ins = xmalloc(len);
    size_t a = (size_t)snprintf(*sel, len, "SELECT ");
    size_t b = (size_t)snprintf(*ins, len, "INSERT INTO \"%s\"(", table);
    for (size_t i = 0, k = 0; i < c->n; i++) {
        a += (size_t)snprintf(*sel + a, len - a, "%s\"%s\"", i ? "," : "", c->name[i]);
        if ((int)i != skip)
            b += (size_t)snprintf(*ins + b, len - b, "%s\"%s\"", k++ ? "," : "", c->name[i]);
    }
    snprintf(*sel + a, len - a, " FROM \"%s\" ORDER BY rowid", table);
    b += (size_t)snprintf(*ins + b, len - b, ") VALUES(");
    for (size_t i = 0, k = 0; i < c->n; i++)
        if ((int)i != skip)
            b += (size_t)snprintf(*ins + b, len - b, "%s?", k++ ? "," : "");
    snprintf(*ins + b, len - b, ")");
}

static int map_find(const id_map_t *m, int64_t old, int64_t *out)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (m->old_id[mid] < old)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == m->n || m->old_id[lo] != old)
        return -1;
    *out = m->new_id[lo];
    return 0;
}

/* Reads meta.schema_version: 0 = found, -1 = no meta table or no version. */
static int read_version(sqlite3 *db, long *version)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT value FROM meta WHERE key='schema_version'", -1, &st,
                           NULL) != SQLITE_OK)
        return -1;
    int rc = -1;
    if (sqlite3_step(st) == SQLITE_ROW) {
        const char *v = (const char *)sqlite3_column_text(st, 0);
        rc = v && mls_parse_long(v, version) == 0 ? 0 : -1;
    }
    sqlite3_finalize(st);
    return rc;
}

static int has_object(sqlite3 *db, const char *name)
{
    sqlite3_stmt *st;
    if (sqlite3_prepare_v2(db, "SELECT 1 FROM sqlite_master WHERE name=?", -1, &st, NULL) !=
        SQLITE_OK)
        return 0;
    sqlite3_bind_text(st, 1, name, -1, SQLITE_TRANSIENT);
    int found = sqlite3_step(st) == SQLITE_ROW;
    sqlite3_finalize(st);
    return found;
}

/* Creates in `out` every table, index and view of `in` that out lacks. */
static int ensure_schema(sqlite3 *out, sqlite3 *in, const char *in_path, const char *out_path,
                         mls_err_t *err)
{
    sqlite3_stmt *st;
    const char *sql = "SELECT name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT"
                      " LIKE 'sqlite_%' ORDER BY type <> 'table', rowid";
    if (sqlite3_prepare_v2(in, sql, -1, &st, NULL) != SQLITE_OK)
        return sq_fail(in, in_path, "cannot read the schema", err);
    int rc = 0;
    while (rc == 0 && sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        if (!has_object(out, name) && sqlite3_exec(out, (const char *)sqlite3_column_text(st, 1),
                                                   NULL, NULL, NULL) != SQLITE_OK)
            rc = sq_fail(out, out_path, "cannot create the schema", err);
    }
    sqlite3_finalize(st);
    return rc;
}

static void map_add(id_map_t *m, int64_t old, int64_t new_id)
{
    xgrow((void **)&m->old_id, &m->cap_o, m->n + 1, sizeof *m->old_id);
    xgrow((void **)&m->new_id, &m->cap_n, m->n + 1, sizeof *m->new_id);
    m->old_id[m->n] = old;
    m->new_id[m->n++] = new_id;
}

/* Binds one selected row to the INSERT: a runs row leaves its run_id out,
 * any other row has its run_id rewritten through the map. */
static int bind_row(sqlite3_stmt *s, sqlite3_stmt *w, int run_col, int is_runs, const id_map_t *map,
                    const char *table, const char *in_path, mls_err_t *err)
{
    int nc = sqlite3_column_count(s);
    for (int i = 0, k = 1; i < nc; i++) {
        if (i != run_col) {
            sqlite3_bind_value(w, k++, sqlite3_column_value(s, i));
            continue;
        }
        if (is_runs)
            continue;
        int64_t nid, old = sqlite3_column_int64(s, i);
        if (map_find(map, old, &nid) < 0)
            return mls_fail(err, "%s: table %s has a row of run %lld, which is not in runs",
                            in_path, table, (long long)old);
        sqlite3_bind_int64(w, k++, nid);
    }
    return 0;
}

/* Copies every row of `table`; rows of runs get new ids (recorded in map),
 * other tables have their run_id rewritten through map. */
static int copy_table(sqlite3 *out, sqlite3 *in, const char *table, int is_runs, id_map_t *map,
                      long *rows, const char *in_path, mls_err_t *err)
{
    cols_t c;
    if (table_cols(in, table, &c) < 0 || c.run_col < 0) {
        cols_free(&c);
        return mls_fail(err, "%s: table %s has no run_id column", in_path, table);
    }
    char *sel, *ins;
    build_sql(table, &c, is_runs ? c.run_col : -1, &sel, &ins);
    sqlite3_stmt *s = NULL, *w = NULL;
    int rc = 0;
    if (sqlite3_prepare_v2(in, sel, -1, &s, NULL) != SQLITE_OK)
        rc = sq_fail(in, in_path, "cannot read", err);
    else if (sqlite3_prepare_v2(out, ins, -1, &w, NULL) != SQLITE_OK)
        rc = mls_fail(err, "%s: table %s does not fit the output's: %s", in_path, table,
                      sqlite3_errmsg(out));
    while (rc == 0 && sqlite3_step(s) == SQLITE_ROW) {
        rc = bind_row(s, w, c.run_col, is_runs, map, table, in_path, err);
        if (rc == 0 && sqlite3_step(w) != SQLITE_DONE)
            rc = sq_fail(out, in_path, "cannot copy a row", err);
        sqlite3_reset(w);
        (*rows)++;
        if (rc == 0 && is_runs)
            map_add(map, sqlite3_column_int64(s, c.run_col), sqlite3_last_insert_rowid(out));
    }
    sqlite3_finalize(s);
    sqlite3_finalize(w);
    free(sel);
    free(ins);
    cols_free(&c);
    return rc;
}

/* Copies meta rows the output lacks (the schema version, first of all). */
static int copy_meta(sqlite3 *out, sqlite3 *in, const char *out_path, mls_err_t *err)
{
    sqlite3_stmt *s, *w;
    if (sqlite3_prepare_v2(in, "SELECT key, value FROM meta", -1, &s, NULL) != SQLITE_OK)
        return 0;
    if (sqlite3_prepare_v2(out, "INSERT OR IGNORE INTO meta(key, value) VALUES(?,?)", -1, &w,
                           NULL) != SQLITE_OK) {
        sqlite3_finalize(s);
        return sq_fail(out, out_path, "cannot write meta", err);
    }
    int rc = 0;
    while (rc == 0 && sqlite3_step(s) == SQLITE_ROW) {
        sqlite3_bind_value(w, 1, sqlite3_column_value(s, 0));
        sqlite3_bind_value(w, 2, sqlite3_column_value(s, 1));
        if (sqlite3_step(w) != SQLITE_DONE)
            rc = sq_fail(out, out_path, "cannot write meta", err);
        sqlite3_reset(w);
    }
    sqlite3_finalize(s);
    sqlite3_finalize(w);
    return rc;
}

static int cmp_pair(const void *a, const void *b)
{
    int64_t x = ((const int64_t *)a)[0], y = ((const int64_t *)b)[0];
    return (x > y) - (x < y);
}

/* The map must be sorted by old id for map_find. */
static void map_sort(id_map_t *m)
{
    int64_t *pairs = xmalloc(2 * m->n * sizeof *pairs + 1);
    for (size_t i = 0; i < m->n; i++) {
        pairs[2 * i] = m->old_id[i];
        pairs[2 * i + 1] = m->new_id[i];
    }
    qsort(pairs, m->n, 2 * sizeof *pairs, cmp_pair);
    for (size_t i = 0; i < m->n; i++) {
        m->old_id[i] = pairs[2 * i];
        m->new_id[i] = pairs[2 * i + 1];
    }
    free(pairs);
}

/* Every table of `in` with a run_id column, runs excepted. */
static int child_tables(sqlite3 *in, char ***names, size_t *n)
{
    sqlite3_stmt *st;
    *names = NULL;
    *n = 0;
    size_t cap = 0;
    if (sqlite3_prepare_v2(in,
                           "SELECT name FROM sqlite_master WHERE type='table' AND name"
                           " NOT LIKE 'sqlite_%' AND name <> 'runs' ORDER BY rowid",
                           -1, &st, NULL) != SQLITE_OK)
        return -1;
    while (sqlite3_step(st) == SQLITE_ROW) {
        const char *name = (const char *)sqlite3_column_text(st, 0);
        cols_t c;
        table_cols(in, name, &c);
        if (c.run_col >= 0) {
            xgrow((void **)names, &cap, *n + 1, sizeof **names);
            (*names)[(*n)++] = xstrdup(name);
        }
        cols_free(&c);
    }
    sqlite3_finalize(st);
    return 0;
}

static int check_version(sqlite3 *db, const char *path, const char *role, mls_err_t *err)
{
    long v;
    if (read_version(db, &v) < 0)
        return mls_fail(err, "%s: not an mlsched results database (no meta.schema_version)", path);
    if (v != MLS_SCHEMA_VERSION)
        return mls_fail(err,
                        "%s: %s has results schema version %ld, this mlsched writes version %d;"
                        " refusing to merge different schemas",
                        path, role, v, MLS_SCHEMA_VERSION);
    return 0;
}

static int copy_children(sqlite3 *out, sqlite3 *in, const char *path, id_map_t *map,
                         merge_stats_t *st, mls_err_t *err)
{
    char **tables;
    size_t nt;
    if (child_tables(in, &tables, &nt) < 0)
        return sq_fail(in, path, "cannot list tables", err);
    int rc = 0;
    for (size_t i = 0; i < nt; i++) {
        if (rc == 0)
            rc = copy_table(out, in, tables[i], 0, map, &st->rows, path, err);
        free(tables[i]);
    }
    free(tables);
    return rc;
}

static int merge_one(sqlite3 *out, const char *out_path, const char *path, merge_stats_t *st,
                     mls_err_t *err)
{
    struct stat sb;
    if (stat(path, &sb) < 0)
        return mls_fail(err, "%s: no such results database", path);
    sqlite3 *in = NULL;
    if (sqlite3_open_v2(path, &in, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK) {
        int rc = mls_fail(err, "%s: cannot open: %s", path, in ? sqlite3_errmsg(in) : "");
        sqlite3_close(in);
        return rc;
    }
    sqlite3_busy_timeout(in, 60000);
    id_map_t map = {0};
    int rc = check_version(in, path, "input", err);
    if (rc == 0)
        rc = ensure_schema(out, in, path, out_path, err);
    if (rc == 0)
        rc = copy_meta(out, in, out_path, err);
    if (rc == 0)
        rc = check_version(out, out_path, "the output", err);
    if (rc == 0) {
        long before = st->rows;
        rc = copy_table(out, in, "runs", 1, &map, &st->rows, path, err);
        st->runs += st->rows - before;
    }
    if (rc == 0 && map.n) {
        if (!st->first_run)
            st->first_run = map.new_id[0];
        st->last_run = map.new_id[map.n - 1];
    }
    map_sort(&map);
    if (rc == 0)
        rc = copy_children(out, in, path, &map, st, err);
    free(map.old_id);
    free(map.new_id);
    sqlite3_close(in);
    return rc;
}

static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return stat(a, &sa) == 0 && stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
           sa.st_ino == sb.st_ino;
}

int merge_dbs(const char *out_path, const char *const *inputs, size_t n, merge_stats_t *st,
              mls_err_t *err)
{
    memset(st, 0, sizeof *st);
    for (size_t i = 0; i < n; i++)
        if (same_file(out_path, inputs[i]))
            return mls_fail(err, "%s: the output is also an input", inputs[i]);
    sqlite3 *out = NULL;
    if (sqlite3_open(out_path, &out) != SQLITE_OK) {
        int rc = mls_fail(err, "%s: cannot open: %s", out_path, out ? sqlite3_errmsg(out) : "");
        sqlite3_close(out);
        return rc;
    }
    sqlite3_busy_timeout(out, 60000);
    int rc = 0;
    long v;
    if (has_object(out, "meta") && read_version(out, &v) == 0)
        rc = check_version(out, out_path, "the output", err);
    if (rc == 0 && sqlite3_exec(out, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
        rc = sq_fail(out, out_path, "cannot begin a transaction", err);
    else if (rc == 0) {
        for (size_t i = 0; i < n && rc == 0; i++)
            rc = merge_one(out, out_path, inputs[i], st, err);
        if (rc == 0 && sqlite3_exec(out, "COMMIT", NULL, NULL, NULL) != SQLITE_OK)
            rc = sq_fail(out, out_path, "cannot commit", err);
        if (rc < 0)
            sqlite3_exec(out, "ROLLBACK", NULL, NULL, NULL);
    }
    sqlite3_close(out);
    if (rc < 0)
        memset(st, 0, sizeof *st);
    return rc;
}
