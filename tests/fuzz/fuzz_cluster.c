/* fuzz_cluster.c: libFuzzer harness for the cluster readers: the first
 * byte picks the JSON file reader (even) or the inline spec (odd; the rest
 * is the spec, cut at its first NUL as a command line would be). Property:
 * a cluster that reads has nodes, and every GPU id maps to a node that
 * holds it. */
#include "model/cluster.h"
#include "tests/fuzz/fuzz_util.h"

#include <string.h>

static void check(const mls_cluster_t *c)
{
    if (c->n_nodes < 1 || c->n_gpus < 1)
        fuzz_fail("a cluster that reads has no GPUs", c->name);
    for (int g = 0; g < c->n_gpus; g++) {
        const mls_node_t *n = &c->nodes[c->gpu_node[g]];
        if (g < n->first_gpu || g >= n->first_gpu + n->gpus)
            fuzz_fail("a GPU maps to a node that does not hold it", c->name);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    mls_cluster_t c;
    mls_err_t err;
    int rc;
    if (data[0] & 1) {
        char *spec = xmalloc(size);
        memcpy(spec, data + 1, size - 1);
        spec[size - 1] = '\0';
        rc = cluster_from_spec(&c, spec, &err);
        free(spec);
    } else {
        rc = cluster_from_json_file(&c, fuzz_file(data + 1, size - 1, "cluster.json"), &err);
    }
    if (rc == 0) {
        check(&c);
        cluster_free(&c);
    }
    return 0;
}
