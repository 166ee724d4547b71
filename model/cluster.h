/* cluster.h: the cluster model — GPU types, nodes, racks and links.
 *
 * A cluster is a list of nodes, each with one GPU type and a GPU count; GPUs
 * get global ids 0..n_gpus-1, contiguous per node. It is read from JSON
 *
 *   {"name": "gavel-108",
 *    "node_groups": [
 *      {"gpu_type": "v100", "count": 9, "gpus_per_node": 4, "gpu_mem_gb": 16,
 *       "cpus": 32, "mem_gb": 244, "rack": 0,
 *       "intra_bw_gbps": 300, "inter_bw_gbps": 25}, ...]}
 *
 * (every field but gpu_type and count has a default), or from an inline spec
 * "v100=32x1,k80=4x8" (type = nodes x GPUs per node, default properties).
 * cluster_load() takes either, or a bundled cluster's name ("36v100", see
 * traces/clusters and model/datadir.h): a path that exists is read as JSON. */
#ifndef MLS_CLUSTER_H
#define MLS_CLUSTER_H

#include "model/util.h"

typedef struct mls_node {
    char name[48];
    int type;      /* index into cluster->types */
    int gpus;      /* GPUs on this node */
    int first_gpu; /* global id of the node's GPU 0 */
    double gpu_mem_gb;
    int cpus;
    double mem_gb;
    int rack;
    double intra_bw_gbps; /* between GPUs of this node */
    double inter_bw_gbps; /* this node's network link */
} mls_node_t;

typedef struct mls_gpu_type {
    char name[32]; /* lower case, e.g. "v100" */
    int total_gpus;
    int n_nodes;
    double mem_gb;
} mls_gpu_type_t;

typedef struct mls_cluster {
    char *name;   /* the JSON's name, or the spec */
    char *source; /* the path or spec it came from */
    mls_node_t *nodes;
    int n_nodes;
    mls_gpu_type_t *types;
    int n_types;
    int n_gpus;
    int *gpu_node; /* n_gpus entries: node index of each GPU */
} mls_cluster_t;

int cluster_load(mls_cluster_t *c, const char *path_or_spec, mls_err_t *err);
int cluster_from_json_file(mls_cluster_t *c, const char *path, mls_err_t *err);
int cluster_from_spec(mls_cluster_t *c, const char *spec, mls_err_t *err);
/* Index of a GPU type by name (case-insensitive), -1 when absent. */
int cluster_type_index(const mls_cluster_t *c, const char *name);
/* A JSON text describing the cluster, for the results database (caller frees). */
char *cluster_to_json(const mls_cluster_t *c);
void cluster_free(mls_cluster_t *c);

#endif
