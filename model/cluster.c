/* cluster.c: reading a cluster from JSON or an inline spec (see cluster.h).
 *
 * Node groups expand to nodes named "<type>-<i>" (i counts per type); GPU ids
 * are assigned node after node. Defaults per GPU type (memory, link
 * bandwidths) come from one table below; bandwidths are in Gbit/s:
 * NVLink per GPU as NVIDIA lists it (V100 300 GB/s, A100 600 GB/s, H100
 * 900 GB/s), PCIe 3.0 x16 (~126 Gbit/s) for PCIe cards, and a 25 Gbit/s
 * network link (AWS p3.8xlarge; Gavel's and Pollux's clusters are of that
 * order) unless the file says otherwise. */
#include "model/cluster.h"

#include "model/datadir.h"

#include "model/json_util.h"

#include <cjson/cJSON.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

typedef struct type_defaults {
    const char *name;
    double mem_gb, intra_gbps;
} type_defaults_t;

static const type_defaults_t known_types[] = {
    {"k80", 12, 126},   {"p100", 16, 126},  {"v100", 16, 2400}, {"t4", 16, 126},
    {"a100", 40, 4800}, {"h100", 80, 7200}, {"h200", 141, 7200}, {"rtx", 11, 126},
    {"quadro", 24, 126}};

static type_defaults_t defaults_for(const char *type)
{
    for (size_t i = 0; i < sizeof known_types / sizeof known_types[0]; i++)
        if (!strcasecmp(type, known_types[i].name))
            return known_types[i];
    return (type_defaults_t){type, 16, 126};
}

typedef struct group {
    char type[32];
    int count, gpus_per_node, cpus, rack;
    double gpu_mem_gb, mem_gb, intra_bw, inter_bw;
} group_t;

static void group_defaults(group_t *g, const char *type)
{
    type_defaults_t d = defaults_for(type);
    memset(g, 0, sizeof *g);
    snprintf(g->type, sizeof g->type, "%s", type);
    for (char *p = g->type; *p; p++)
        *p = (char)tolower((unsigned char)*p);
    g->count = 1;
    g->gpus_per_node = 1;
    g->gpu_mem_gb = d.mem_gb;
    g->intra_bw = d.intra_gbps;
    g->inter_bw = 25;
    g->cpus = -1;
    g->mem_gb = -1;
}

int cluster_type_index(const mls_cluster_t *c, const char *name)
{
    for (int t = 0; t < c->n_types; t++)
        if (!strcasecmp(c->types[t].name, name))
            return t;
    return -1;
}

static int add_type(mls_cluster_t *c, const group_t *g)
{
    int t = cluster_type_index(c, g->type);
    if (t >= 0)
        return t;
    c->types = xrealloc(c->types, sizeof *c->types * (size_t)(c->n_types + 1));
    mls_gpu_type_t *ty = &c->types[c->n_types];
    memset(ty, 0, sizeof *ty);
    snprintf(ty->name, sizeof ty->name, "%s", g->type);
    ty->mem_gb = g->gpu_mem_gb;
    return c->n_types++;
}

static void add_group(mls_cluster_t *c, const group_t *g)
{
    int t = add_type(c, g);
    c->nodes = xrealloc(c->nodes, sizeof *c->nodes * (size_t)(c->n_nodes + g->count));
    for (int i = 0; i < g->count; i++) {
        mls_node_t *nd = &c->nodes[c->n_nodes++];
        memset(nd, 0, sizeof *nd);
        snprintf(nd->name, sizeof nd->name, "%s-%d", g->type, c->types[t].n_nodes);
        nd->type = t;
        nd->gpus = g->gpus_per_node;
        nd->first_gpu = c->n_gpus;
        nd->gpu_mem_gb = g->gpu_mem_gb;
        nd->cpus = g->cpus >= 0 ? g->cpus : 8 * g->gpus_per_node;
        nd->mem_gb = g->mem_gb >= 0 ? g->mem_gb : 64.0 * g->gpus_per_node;
        nd->rack = g->rack;
        nd->intra_bw_gbps = g->intra_bw;
        nd->inter_bw_gbps = g->inter_bw;
        c->n_gpus += g->gpus_per_node;
        c->types[t].n_nodes++;
        c->types[t].total_gpus += g->gpus_per_node;
    }
}

static void finish(mls_cluster_t *c)
{
    c->gpu_node = xmalloc(sizeof(int) * (size_t)(c->n_gpus ? c->n_gpus : 1));
    for (int i = 0; i < c->n_nodes; i++)
        for (int g = 0; g < c->nodes[i].gpus; g++)
            c->gpu_node[c->nodes[i].first_gpu + g] = i;
}

/* ---- JSON --------------------------------------------------------------------- */

static int json_int(const cJSON *it, const char *path, int i, int lo, int *out, mls_err_t *err)
{
    if (!cJSON_IsNumber(it))
        return mls_fail(err, "%s: node_groups[%d].%s: must be an integer in [%d, 1000000], not "
                             "a %s",
                        path, i, it->string, lo, cJSON_IsString(it) ? "string" : "non-number");
    if (it->valuedouble != floor(it->valuedouble) || it->valuedouble < lo ||
        it->valuedouble > 1e6)
        return mls_fail(err, "%s: node_groups[%d].%s: %g is not an integer in [%d, 1000000]",
                        path, i, it->string, it->valuedouble, lo);
    *out = (int)it->valuedouble;
    return 0;
}

static int json_num(const cJSON *it, const char *path, int i, double *out, mls_err_t *err)
{
    if (!cJSON_IsNumber(it) || !(it->valuedouble > 0) || !isfinite(it->valuedouble))
        return mls_fail(err, "%s: node_groups[%d].%s: must be a number > 0", path, i,
                        it->string);
    *out = it->valuedouble;
    return 0;
}

static int parse_group(const cJSON *obj, const char *path, int i, group_t *g, mls_err_t *err)
{
    if (!cJSON_IsObject(obj))
        return mls_fail(err, "%s: node_groups[%d]: must be an object", path, i);
    const cJSON *ty = cJSON_GetObjectItemCaseSensitive(obj, "gpu_type");
    if (!cJSON_IsString(ty) || !ty->valuestring[0] || strlen(ty->valuestring) >= 24)
        return mls_fail(err, "%s: node_groups[%d].gpu_type: must be a short non-empty string",
                        path, i);
    group_defaults(g, ty->valuestring);
    if (!cJSON_GetObjectItemCaseSensitive(obj, "count"))
        return mls_fail(err, "%s: node_groups[%d].count: missing", path, i);
    const cJSON *it;
    int rc = 0;
    cJSON_ArrayForEach(it, obj)
    {
        const char *k = it->string;
        if (rc < 0 || !strcmp(k, "gpu_type"))
            continue;
        if (!strcmp(k, "count"))
            rc = json_int(it, path, i, 1, &g->count, err);
        else if (!strcmp(k, "gpus_per_node"))
            rc = json_int(it, path, i, 1, &g->gpus_per_node, err);
        else if (!strcmp(k, "cpus"))
            rc = json_int(it, path, i, 0, &g->cpus, err);
        else if (!strcmp(k, "rack"))
            rc = json_int(it, path, i, 0, &g->rack, err);
        else if (!strcmp(k, "gpu_mem_gb"))
            rc = json_num(it, path, i, &g->gpu_mem_gb, err);
        else if (!strcmp(k, "mem_gb"))
            rc = json_num(it, path, i, &g->mem_gb, err);
        else if (!strcmp(k, "intra_bw_gbps"))
            rc = json_num(it, path, i, &g->intra_bw, err);
        else if (!strcmp(k, "inter_bw_gbps"))
            rc = json_num(it, path, i, &g->inter_bw, err);
        else
            rc = mls_fail(err, "%s: node_groups[%d].%s: unknown key", path, i, k);
    }
    return rc;
}

static int parse_cluster_json(mls_cluster_t *c, const cJSON *root, const char *path,
                              mls_err_t *err)
{
    if (!cJSON_IsObject(root))
        return mls_fail(err, "%s: must be a JSON object with node_groups", path);
    const cJSON *it;
    cJSON_ArrayForEach(it, root)
    {
        if (strcmp(it->string, "name") && strcmp(it->string, "node_groups"))
            return mls_fail(err, "%s: %s: unknown key (name, node_groups)", path, it->string);
    }
    const cJSON *name = cJSON_GetObjectItemCaseSensitive(root, "name");
    if (name && !cJSON_IsString(name))
        return mls_fail(err, "%s: name: must be a string", path);
    c->name = xstrdup(name ? name->valuestring : path);
    const cJSON *groups = cJSON_GetObjectItemCaseSensitive(root, "node_groups");
    if (!cJSON_IsArray(groups) || cJSON_GetArraySize(groups) == 0)
        return mls_fail(err, "%s: node_groups: must be a non-empty array", path);
    int i = 0;
    cJSON_ArrayForEach(it, groups)
    {
        group_t g;
        if (parse_group(it, path, i++, &g, err) < 0)
            return -1;
        add_group(c, &g);
    }
    return 0;
}

int cluster_from_json_file(mls_cluster_t *c, const char *path, mls_err_t *err)
{
    memset(c, 0, sizeof *c);
    cJSON *root = mls_json_load(path, err);
    if (!root)
        return -1;
    int rc = parse_cluster_json(c, root, path, err);
    cJSON_Delete(root);
    if (rc == 0) {
        c->source = xstrdup(path);
        finish(c);
    } else {
        cluster_free(c);
    }
    return rc;
}

/* ---- inline spec: v100=32x1,k80=4x8 -------------------------------------------- */

static int parse_token(const char *tok, group_t *g, mls_err_t *err)
{
    const char *eq = strchr(tok, '=');
    if (!eq || eq == tok || eq - tok >= 24)
        return mls_fail(err, "cluster spec: '%s': expected TYPE=NODESxGPUS (e.g. v100=8x4)", tok);
    char type[32];
    snprintf(type, sizeof type, "%.*s", (int)(eq - tok), tok);
    group_defaults(g, type);
    long nodes, gpus = 1;
    char *end;
    errno = 0;
    nodes = strtol(eq + 1, &end, 10);
    if (end == eq + 1 || errno || nodes < 1 || nodes > 1000000)
        return mls_fail(err, "cluster spec: '%s': the node count must be an integer >= 1", tok);
    if (*end == 'x' || *end == 'X') {
        const char *g0 = end + 1;
        gpus = strtol(g0, &end, 10);
        if (end == g0 || gpus < 1 || gpus > 1024)
            return mls_fail(err, "cluster spec: '%s': GPUs per node must be in 1..1024", tok);
    }
    if (*end)
        return mls_fail(err, "cluster spec: '%s': unexpected '%s'", tok, end);
    g->count = (int)nodes;
    g->gpus_per_node = (int)gpus;
    return 0;
}

int cluster_from_spec(mls_cluster_t *c, const char *spec, mls_err_t *err)
{
    memset(c, 0, sizeof *c);
    char *copy = xstrdup(spec);
    int rc = 0;
    /* every comma separates two groups: "v100=1x4," or "a,,b" is a typo */
    for (char *tok = copy, *next; tok && rc == 0; tok = next) {
        next = strchr(tok, ',');
        if (next)
            *next++ = '\0';
        group_t g;
        rc = *tok ? parse_token(tok, &g, err)
                  : mls_fail(err, "cluster spec: '%s': an empty group (a stray comma)", spec);
        if (rc == 0)
            add_group(c, &g);
    }
    if (rc == 0 && c->n_nodes == 0)
        rc = mls_fail(err, "cluster spec: '%s' names no nodes", spec);
    free(copy);
    if (rc == 0) {
        c->name = xstrdup(spec);
        c->source = xstrdup(spec);
        finish(c);
    } else {
        cluster_free(c);
    }
    return rc;
}

static int looks_like_spec(const char *s)
{
    return strchr(s, '=') && !strchr(s, '/') && !strstr(s, ".json");
}

/* A bundled cluster by name: "36v100" or "36v100.json" is the file of that
 * name among the bundled clusters (model/datadir.h). A name with a '/' is a
 * path, never a bundled name. */
static int bundled_cluster(const char *name, char *buf, size_t n)
{
    return mls_data_find_named(MLS_DATA_CLUSTERS, name, buf, n);
}

int cluster_load(mls_cluster_t *c, const char *path_or_spec, mls_err_t *err)
{
    struct stat st;
    if (stat(path_or_spec, &st) == 0)
        return cluster_from_json_file(c, path_or_spec, err);
    if (looks_like_spec(path_or_spec))
        return cluster_from_spec(c, path_or_spec, err);
    char bundled[4096];
    if (bundled_cluster(path_or_spec, bundled, sizeof bundled) == 0)
        return cluster_from_json_file(c, bundled, err);
    memset(c, 0, sizeof *c);
    return mls_fail(err,
                    "%s: no such file, no bundled cluster of that name (%s), and not a cluster "
                    "spec like v100=8x4,k80=4x1",
                    path_or_spec, bundled);
}

char *cluster_to_json(const mls_cluster_t *c)
{
    cJSON *root = cJSON_CreateObject();
    cJSON_AddStringToObject(root, "name", c->name ? c->name : "");
    cJSON *groups = cJSON_AddArrayToObject(root, "node_groups");
    for (int i = 0; i < c->n_nodes;) {
        const mls_node_t *a = &c->nodes[i];
        int k = i + 1;
        while (k < c->n_nodes && c->nodes[k].type == a->type && c->nodes[k].gpus == a->gpus &&
               c->nodes[k].gpu_mem_gb == a->gpu_mem_gb && c->nodes[k].cpus == a->cpus &&
               c->nodes[k].mem_gb == a->mem_gb && c->nodes[k].rack == a->rack &&
               c->nodes[k].intra_bw_gbps == a->intra_bw_gbps &&
               c->nodes[k].inter_bw_gbps == a->inter_bw_gbps)
            k++;
        cJSON *g = cJSON_CreateObject();
        cJSON_AddStringToObject(g, "gpu_type", c->types[a->type].name);
        cJSON_AddNumberToObject(g, "count", k - i);
        cJSON_AddNumberToObject(g, "gpus_per_node", a->gpus);
        cJSON_AddNumberToObject(g, "gpu_mem_gb", a->gpu_mem_gb);
        cJSON_AddNumberToObject(g, "cpus", a->cpus);
        cJSON_AddNumberToObject(g, "mem_gb", a->mem_gb);
        cJSON_AddNumberToObject(g, "rack", a->rack);
        cJSON_AddNumberToObject(g, "intra_bw_gbps", a->intra_bw_gbps);
        cJSON_AddNumberToObject(g, "inter_bw_gbps", a->inter_bw_gbps);
        cJSON_AddItemToArray(groups, g);
        i = k;
    }
    char *text = cJSON_PrintUnformatted(root);
    cJSON_Delete(root);
    char *out = xstrdup(text);
    cJSON_free(text);
    return out;
}

void cluster_free(mls_cluster_t *c)
{
    free(c->name);
    free(c->source);
    free(c->nodes);
    free(c->types);
    free(c->gpu_node);
    memset(c, 0, sizeof *c);
}
