/* perf_table.c: the throughput-table backend (Gavel's format).
 *
 *   {"v100": {"('ResNet-50 (batch size 64)', 4)": {
 *        "null": 3.2,                                   iterations/s alone
 *        "('LM (batch size 20)', 4)": [1.9, 7.7]},       pair: [this, other]
 *    "v100_unconsolidated": {...}, ...}
 *
 * Keys may also be bare workload names (scale factor 1), as in Gavel's
 * motivation table. A type "<t>_unconsolidated" holds the rates of jobs
 * spread over several nodes: throughput(.., nodes > 1, ..) uses it when the
 * entry exists, the consolidated one otherwise. A GPU count without an entry
 * is served from the nearest smaller scale factor, scaled linearly (an
 * assumption: ideal scaling from the closest measured point); with no smaller
 * entry the job cannot run there (0).
 *
 * Beyond the largest measured count M of a workload on a type (8 in Gavel's
 * tables; t_max_gpus), the rate is extrapolated (perf_extrapolated() says so):
 * K GPUs run at K x the per-GPU rate measured at M, where over several nodes
 * that per-GPU rate is the unconsolidated one at M (it carries the inter-node
 * penalty measured there), or, when M has no unconsolidated entry, the
 * consolidated one times the inter-node penalty unconsolidated/consolidated at
 * the largest count that has both (1 when none has). So the last measured
 * per-GPU efficiency is assumed to hold at any size: no further loss from more
 * nodes (an optimistic simplification; a job of 128 GPUs is modelled as 16
 * copies of the measured 8-GPU job). At M and below nothing changes.
 *
 * A pair entry of 0 means the pair cannot share (Gavel: out of memory).
 * Lookups are one array read for isolated rates (every answer up to MAX_SF
 * GPUs is worked out at load, per workload, type and one node or several:
 * the engine and the policies ask for the same allocations of every job at
 * every event; another batch size of the model is a walk over its few
 * batch sizes, linked at load) and one hash probe for pairs.
 *
 * GPU multiplexing (DeepPool): an optional top-level key "multiplex" (a
 * reserved name, never a GPU type) marks foreground workloads:
 *
 *   "multiplex": {"interference": 0.1,
 *                 "idle": {"v100": {"('VGG-16 burst (batch size 32)', 8)": 0.47}}}
 *
 * idle: the fraction of its GPUs' time the foreground's burst-parallel plan
 * leaves idle on that many GPUs (in [0, 1)); a count without an entry takes
 * the nearest smaller one's (the idle share grows with the count, so this
 * errs low). interference: the foreground's slowdown (in [0, 1)) while a
 * background job soaks up those cycles. A workload listed there is a
 * foreground; view_perf_pair() rates a foreground paired with any other
 * workload from these two numbers (ops->multiplex), not from pair entries.
 * Files without the key behave exactly as before. */
#include "model/json_util.h"
#include "model/perf.h"
#include "model/strtab.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_SF 64

typedef struct pair_slot {
    uint64_t key; /* 0 = empty */
    double rate[2];
} pair_slot_t;

typedef struct table {
    mls_perf_t base;
    strtab_t workloads, types;
    double *iso; /* [type][cons 0/1][workload][sf 0..MAX_SF], NAN = absent */
    size_t iso_n;
    pair_slot_t *pairs;
    size_t n_pairs, pair_cap;
    char (*model)[96]; /* model name of each workload ("ResNet-50") */
    int *batch;        /* its batch size, 0 when the name has none */
    int *largest;      /* [type][workload]: the largest measured scale factor, 0 none */
    int *sibling;      /* next workload of the same model (larger index), -1 none */
    int *first;        /* the first workload (lowest index) of each workload's model */
    double *rate;      /* [workload][type][nodes > 1][gpus 0..MAX_SF]: t_throughput's answer */
    double *idle;      /* [type][workload][sf]: multiplex idle fraction, NAN = none */
    double interference;
} table_t;

#define MUX_KEY "multiplex"

static double *iso_at(const table_t *tb, int t, int uncons, int w, int sf)
{
    size_t nw = tb->workloads.n;
    return &tb->iso[(((size_t)t * 2 + (size_t)uncons) * nw + (size_t)w) * (MAX_SF + 1) +
                    (size_t)sf];
}

static uint64_t pair_key(int t, int sf, int a, int b)
{
    return 1 + (((uint64_t)t << 48) | ((uint64_t)sf << 40) | ((uint64_t)a << 20) | (uint64_t)b);
}

static pair_slot_t *pair_find(const table_t *tb, uint64_t key)
{
    if (!tb->pair_cap)
        return NULL;
    size_t mask = tb->pair_cap - 1, i = (size_t)(key * 0x9E3779B97F4A7C15ULL) & mask;
    while (tb->pairs[i].key && tb->pairs[i].key != key)
        i = (i + 1) & mask;
    return &tb->pairs[i];
}

static void pair_put(table_t *tb, uint64_t key, double a, double b)
{
    if ((tb->n_pairs + 1) * 2 > tb->pair_cap) {
        pair_slot_t *old = tb->pairs;
        size_t old_cap = tb->pair_cap;
        tb->pair_cap = old_cap ? old_cap * 2 : 1024;
        tb->pairs = xcalloc(tb->pair_cap, sizeof *tb->pairs);
        for (size_t i = 0; i < old_cap; i++)
            if (old[i].key)
                *pair_find(tb, old[i].key) = old[i];
        free(old);
    }
    pair_slot_t *s = pair_find(tb, key);
    if (!s->key)
        tb->n_pairs++;
    s->key = key;
    s->rate[0] = a;
    s->rate[1] = b;
}

/* "('Name', 4)" -> Name, 4; "Name" -> Name, 1. */
static int parse_key(const char *key, char *name, size_t n, int *sf)
{
    size_t len = strlen(key);
    if (len >= 4 && key[0] == '(' && key[1] == '\'' && key[len - 1] == ')') {
        const char *q = strrchr(key, '\'');
        if (!q || q <= key + 1 || q[1] != ',')
            return -1;
        char *end;
        long v = strtol(q + 2, &end, 10);
        if (end == q + 2 || *end != ')' || v < 1 || v > MAX_SF)
            return -1;
        size_t nl = (size_t)(q - (key + 2));
        if (nl + 1 > n)
            return -1;
        memcpy(name, key + 2, nl);
        name[nl] = '\0';
        *sf = (int)v;
        return 0;
    }
    if (len + 1 > n || !len)
        return -1;
    memcpy(name, key, len + 1);
    *sf = 1;
    return 0;
}

static void split_type(const char *key, char *type, size_t n, int *uncons)
{
    const char *suffix = "_unconsolidated";
    size_t len = strlen(key), sl = strlen(suffix);
    *uncons = len > sl && !strcmp(key + len - sl, suffix);
    size_t tl = *uncons ? len - sl : len;
    if (tl >= n)
        tl = n - 1;
    for (size_t i = 0; i < tl; i++)
        type[i] = (char)tolower((unsigned char)key[i]);
    type[tl] = '\0';
}

/* First pass: collect names, so the dense arrays can be sized. */
static int collect_names(table_t *tb, const cJSON *root, const char *path, mls_err_t *err)
{
    const cJSON *gpu, *entry;
    cJSON_ArrayForEach(gpu, root)
    {
        char type[64], name[256];
        int uncons, sf;
        if (!strcmp(gpu->string, MUX_KEY))
            continue;
        if (!cJSON_IsObject(gpu))
            return mls_fail(err, "%s: \"%s\": must be an object of workloads", path,
                            gpu->string);
        split_type(gpu->string, type, sizeof type, &uncons);
        strtab_intern(&tb->types, type);
        cJSON_ArrayForEach(entry, gpu)
        {
            if (parse_key(entry->string, name, sizeof name, &sf) < 0)
                return mls_fail(err,
                                "%s: \"%s\" / \"%s\": not a workload key like \"('Model (batch "
                                "size 32)', 1)\"",
                                path, gpu->string, entry->string);
            strtab_intern(&tb->workloads, name);
        }
    }
    if (tb->workloads.n == 0)
        return mls_fail(err, "%s: no workloads", path);
    return 0;
}

static int read_pair(table_t *tb, const cJSON *p, int t, int w, int sf, const char *path,
                     const char *gname, const char *wkey, mls_err_t *err)
{
    char name[256];
    int sf2;
    if (parse_key(p->string, name, sizeof name, &sf2) < 0 || !cJSON_IsArray(p) ||
        cJSON_GetArraySize(p) != 2)
        return mls_fail(err, "%s: \"%s\" / \"%s\" / \"%s\": a pair must be [rate, rate]", path,
                        gname, wkey, p->string);
    const cJSON *a = cJSON_GetArrayItem(p, 0), *b = cJSON_GetArrayItem(p, 1);
    if (!cJSON_IsNumber(a) || !cJSON_IsNumber(b) || a->valuedouble < 0 || b->valuedouble < 0)
        return mls_fail(err, "%s: \"%s\" / \"%s\" / \"%s\": rates must be numbers >= 0", path,
                        gname, wkey, p->string);
    int w2 = strtab_find(&tb->workloads, name);
    if (w2 < 0) /* a partner never listed alone: keep it known */
        return 0;
    if (sf2 == sf)
        pair_put(tb, pair_key(t, sf, w, w2), a->valuedouble, b->valuedouble);
    return 0;
}

static int read_entry(table_t *tb, const cJSON *entry, int t, int uncons, const char *path,
                      const char *gname, mls_err_t *err)
{
    char name[256];
    int sf;
    parse_key(entry->string, name, sizeof name, &sf);
    int w = strtab_find(&tb->workloads, name);
    if (cJSON_IsNumber(entry)) { /* a bare number: the isolated rate */
        *iso_at(tb, t, uncons, w, sf) = entry->valuedouble;
        return 0;
    }
    if (!cJSON_IsObject(entry))
        return mls_fail(err, "%s: \"%s\" / \"%s\": must be an object with \"null\"", path,
                        gname, entry->string);
    const cJSON *p;
    cJSON_ArrayForEach(p, entry)
    {
        if (!strcmp(p->string, "null")) {
            if (!cJSON_IsNumber(p) || p->valuedouble < 0 || !isfinite(p->valuedouble))
                return mls_fail(err, "%s: \"%s\" / \"%s\" / null: must be a rate >= 0", path,
                                gname, entry->string);
            *iso_at(tb, t, uncons, w, sf) = p->valuedouble;
        } else if (!uncons && read_pair(tb, p, t, w, sf, path, gname, entry->string, err) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Links the workloads of each model (the same name before " (batch size"),
 * in index order, for with_batch(). */
static void link_siblings(table_t *tb)
{
    size_t n = tb->workloads.n;
    tb->sibling = xmalloc(n * sizeof *tb->sibling);
    tb->first = xmalloc(n * sizeof *tb->first);
    for (size_t w = 0; w < n; w++) {
        tb->sibling[w] = -1;
        tb->first[w] = (int)w;
        for (size_t k = 0; k < w; k++)
            if (!strcmp(tb->model[k], tb->model[w])) {
                tb->first[w] = tb->first[k];
                break;
            }
        int last = -1;
        for (int k = tb->first[w]; k >= 0 && k < (int)w; k = tb->sibling[k])
            last = k;
        if (last >= 0)
            tb->sibling[last] = (int)w;
    }
}

static void parse_model_names(table_t *tb)
{
    size_t n = tb->workloads.n;
    tb->model = xcalloc(n, sizeof *tb->model);
    tb->batch = xcalloc(n, sizeof *tb->batch);
    for (size_t w = 0; w < n; w++) {
        const char *s = tb->workloads.names[w];
        const char *b = strstr(s, " (batch size ");
        size_t ml = b ? (size_t)(b - s) : strlen(s);
        if (ml >= sizeof tb->model[w])
            ml = sizeof tb->model[w] - 1;
        memcpy(tb->model[w], s, ml);
        tb->model[w][ml] = '\0';
        tb->batch[w] = b ? atoi(b + 13) : 0;
    }
    link_siblings(tb);
}

/* ---- ops ------------------------------------------------------------------------ */

/* The sibling workload of w at another batch size, or w: the first, in
 * index order, of w's model with that batch (a walk over the model's few
 * batch sizes, linked at load). */
static int with_batch(const table_t *tb, int w, int batch)
{
    if (batch <= 0 || batch == tb->batch[w])
        return w;
    for (int k = tb->first[w]; k >= 0; k = tb->sibling[k])
        if (tb->batch[k] == batch)
            return k;
    return w;
}

static double rate_at(const table_t *tb, int t, int uncons, int w, int gpus)
{
    int top = gpus < MAX_SF ? gpus : MAX_SF;
    for (int sf = top; sf >= 1; sf--) {
        double r = *iso_at(tb, t, uncons, w, sf);
        if (!isnan(r))
            return r * gpus / sf;
    }
    return NAN;
}

static int scan_largest_sf(const table_t *tb, int t, int w)
{
    for (int sf = MAX_SF; sf >= 1; sf--)
        if (!isnan(*iso_at(tb, t, 0, w, sf)) || !isnan(*iso_at(tb, t, 1, w, sf)))
            return sf;
    return 0;
}

static int largest_sf(const table_t *tb, int t, int w)
{
    return tb->largest[(size_t)t * tb->workloads.n + (size_t)w];
}

/* Unconsolidated / consolidated at the largest count <= m measured both ways. */
static double node_penalty(const table_t *tb, int t, int w, int m)
{
    for (int sf = m; sf >= 1; sf--) {
        double c = *iso_at(tb, t, 0, w, sf), u = *iso_at(tb, t, 1, w, sf);
        if (!isnan(c) && !isnan(u) && c > 0)
            return u / c;
    }
    return 1;
}

/* `gpus` above m, the largest measured count (see the file's comment). */
static double beyond_measured(const table_t *tb, int t, int w, int gpus, int nodes, int m)
{
    double cons = *iso_at(tb, t, 0, w, m), uncons = *iso_at(tb, t, 1, w, m), per;
    if (nodes > 1 && !isnan(uncons))
        per = uncons / m;
    else if (!isnan(cons))
        per = cons / m * (nodes > 1 ? node_penalty(tb, t, w, m) : 1);
    else
        per = uncons / m;
    return per * gpus;
}

/* The rate of w (batch already resolved) on `gpus` GPUs of type t over
 * `nodes` nodes, by the rules of the file's comment. */
static double rule_rate(const table_t *tb, int w, int t, int gpus, int nodes)
{
    int m = largest_sf(tb, t, w);
    if (m > 0 && gpus > m)
        return beyond_measured(tb, t, w, gpus, nodes, m);
    double r = NAN;
    if (nodes > 1)
        r = rate_at(tb, t, 1, w, gpus);
    if (isnan(r))
        r = rate_at(tb, t, 0, w, gpus);
    return isnan(r) ? 0 : r;
}

static const double *rate_row(const table_t *tb, int w, int t, int multi)
{
    return &tb->rate[(((size_t)w * tb->types.n + (size_t)t) * 2 + (size_t)multi) * (MAX_SF + 1)];
}

/* rule_rate() of every workload, type, one node or several (the rule reads
 * only whether nodes > 1) and count up to MAX_SF, so that a lookup is one
 * read: the policies and the engine ask for the same few allocations of
 * every job at every event. */
static void fill_rates(table_t *tb)
{
    size_t nw = tb->workloads.n, nt = tb->types.n;
    tb->rate = xcalloc(nw * nt * 2 * (MAX_SF + 1), sizeof *tb->rate);
    for (size_t w = 0; w < nw; w++)
        for (size_t t = 0; t < nt; t++)
            for (int multi = 0; multi < 2; multi++) {
                double *row = (double *)rate_row(tb, (int)w, (int)t, multi);
                for (int g = 1; g <= MAX_SF; g++)
                    row[g] = rule_rate(tb, (int)w, (int)t, g, multi ? 2 : 1);
            }
}

static double t_throughput(const mls_perf_t *pm, int w, int t, int gpus, int nodes, int batch)
{
    const table_t *tb = (const table_t *)pm;
    if (w < 0 || t < 0 || gpus < 1 || (size_t)w >= tb->workloads.n || (size_t)t >= tb->types.n)
        return 0;
    w = with_batch(tb, w, batch);
    if (gpus <= MAX_SF)
        return rate_row(tb, w, t, nodes > 1)[gpus];
    return rule_rate(tb, w, t, gpus, nodes);
}

static int t_pair(const mls_perf_t *pm, int a, int b, int t, int gpus, double out[2])
{
    const table_t *tb = (const table_t *)pm;
    if (gpus < 1 || gpus > MAX_SF)
        return -1;
    const pair_slot_t *s = pair_find(tb, pair_key(t, gpus, a, b));
    if (!s || !s->key || !(s->rate[0] > 0) || !(s->rate[1] > 0))
        return -1;
    out[0] = s->rate[0];
    out[1] = s->rate[1];
    return 0;
}

static void t_destroy(mls_perf_t *pm)
{
    table_t *tb = (table_t *)pm;
    free(tb->iso);
    free(tb->pairs);
    free(tb->model);
    free(tb->batch);
    free(tb->largest);
    free(tb->sibling);
    free(tb->first);
    free(tb->rate);
    free(tb->idle);
    perf_named_free(&tb->base, &tb->workloads, &tb->types);
    free(tb);
}

static int t_max_gpus(const mls_perf_t *pm, int w, int t)
{
    const table_t *tb = (const table_t *)pm;
    if (w < 0 || t < 0 || (size_t)w >= tb->workloads.n || (size_t)t >= tb->types.n)
        return 0;
    return largest_sf(tb, t, w);
}

/* ---- multiplex section --------------------------------------------------------- */

static double *idle_at(const table_t *tb, int t, int w, int sf)
{
    return &tb->idle[((size_t)t * tb->workloads.n + (size_t)w) * (MAX_SF + 1) + (size_t)sf];
}

static int read_idle_type(table_t *tb, const cJSON *gpu, const char *path, mls_err_t *err)
{
    char type[64], name[256];
    int uncons, sf;
    split_type(gpu->string, type, sizeof type, &uncons);
    int t = strtab_find(&tb->types, type);
    if (t < 0 || uncons || !cJSON_IsObject(gpu))
        return mls_fail(err, "%s: multiplex / idle / \"%s\": not a GPU type of the table", path,
                        gpu->string);
    const cJSON *e;
    cJSON_ArrayForEach(e, gpu)
    {
        int w = parse_key(e->string, name, sizeof name, &sf) < 0
                    ? -1
                    : strtab_find(&tb->workloads, name);
        if (w < 0)
            return mls_fail(err, "%s: multiplex / idle / %s / \"%s\": not a workload of the table",
                            path, gpu->string, e->string);
        if (!cJSON_IsNumber(e) || !(e->valuedouble >= 0 && e->valuedouble < 1))
            return mls_fail(err, "%s: multiplex / idle / %s / \"%s\": must be a fraction in [0, 1)",
                            path, gpu->string, e->string);
        *idle_at(tb, t, w, sf) = e->valuedouble;
    }
    return 0;
}

static int read_multiplex(table_t *tb, const cJSON *mux, const char *path, mls_err_t *err)
{
    if (!mux)
        return 0;
    const cJSON *it = cJSON_GetObjectItemCaseSensitive(mux, "interference");
    const cJSON *idle = cJSON_GetObjectItemCaseSensitive(mux, "idle");
    if (!cJSON_IsObject(mux) || !cJSON_IsObject(idle))
        return mls_fail(
            err, "%s: multiplex: must be an object with \"idle\" (and \"interference\")", path);
    if (it && (!cJSON_IsNumber(it) || !(it->valuedouble >= 0 && it->valuedouble < 1)))
        return mls_fail(err, "%s: multiplex / interference: must be a fraction in [0, 1)", path);
    tb->interference = it ? it->valuedouble : 0;
    size_t n = tb->types.n * tb->workloads.n * (MAX_SF + 1);
    tb->idle = xmalloc(sizeof(double) * n);
    for (size_t i = 0; i < n; i++)
        tb->idle[i] = NAN;
    const cJSON *gpu;
    cJSON_ArrayForEach(gpu, idle)
    {
        if (read_idle_type(tb, gpu, path, err) < 0)
            return -1;
    }
    return 0;
}

static int t_multiplex(const mls_perf_t *pm, int w, int t, int gpus, double *idle,
                       double *interference)
{
    const table_t *tb = (const table_t *)pm;
    if (!tb->idle || w < 0 || t < 0 || gpus < 1 || (size_t)w >= tb->workloads.n ||
        (size_t)t >= tb->types.n)
        return -1;
    for (int sf = gpus < MAX_SF ? gpus : MAX_SF; sf >= 1; sf--) {
        double f = *idle_at(tb, t, w, sf);
        if (!isnan(f)) {
            *idle = f;
            *interference = tb->interference;
            return 0;
        }
    }
    return -1;
}

static const perf_ops_t table_ops = {.backend = "table",
                                     PERF_NAMED_OPS,
                                     .throughput = t_throughput,
                                     .pair = t_pair,
                                     .destroy = t_destroy,
                                     .max_gpus = t_max_gpus,
                                     .multiplex = t_multiplex};

static int fill(table_t *tb, const cJSON *root, const char *path, mls_err_t *err)
{
    if (!cJSON_IsObject(root))
        return mls_fail(err, "%s: must be a JSON object keyed by GPU type", path);
    if (collect_names(tb, root, path, err) < 0)
        return -1;
    tb->iso_n = tb->types.n * 2 * tb->workloads.n * (MAX_SF + 1);
    tb->iso = xmalloc(sizeof(double) * tb->iso_n);
    for (size_t i = 0; i < tb->iso_n; i++)
        tb->iso[i] = NAN;
    const cJSON *gpu, *entry;
    cJSON_ArrayForEach(gpu, root)
    {
        char type[64];
        int uncons;
        if (!strcmp(gpu->string, MUX_KEY))
            continue;
        split_type(gpu->string, type, sizeof type, &uncons);
        int t = strtab_find(&tb->types, type);
        cJSON_ArrayForEach(entry, gpu)
        {
            if (read_entry(tb, entry, t, uncons, path, gpu->string, err) < 0)
                return -1;
        }
    }
    parse_model_names(tb);
    tb->largest = xcalloc(tb->types.n * tb->workloads.n + 1, sizeof *tb->largest);
    for (size_t t = 0; t < tb->types.n; t++)
        for (size_t w = 0; w < tb->workloads.n; w++)
            tb->largest[t * tb->workloads.n + w] = scan_largest_sf(tb, (int)t, (int)w);
    fill_rates(tb);
    return read_multiplex(tb, cJSON_GetObjectItemCaseSensitive(root, MUX_KEY), path, err);
}

int perf_table_load(mls_perf_t **pm, const char *path, mls_err_t *err)
{
    cJSON *root = mls_json_load(path, err);
    if (!root)
        return -1;
    table_t *tb = xcalloc(1, sizeof *tb);
    perf_named_init(&tb->base, &table_ops, path, &tb->workloads, &tb->types);
    int rc = fill(tb, root, path, err);
    cJSON_Delete(root);
    if (rc < 0) {
        t_destroy(&tb->base);
        return -1;
    }
    *pm = &tb->base;
    return 0;
}
