/* datadir.h: where mlsched finds its bundled data — the workload catalogs,
 * the cluster descriptions, the sample traces and the plot scripts — whether
 * it runs from its build tree or from an installed copy.
 *
 * Each kind of data has a place in the source tree and one under the
 * installed data directory ($(pkgdatadir), e.g. /usr/local/share/mlsched):
 *
 *   kind       source tree        installed
 *   catalog    traces/catalog     catalog
 *   clusters   traces/clusters    clusters
 *   samples    traces/samples     samples
 *   plots      scripts/plots      plots
 *
 * The order of the search: $MLSCHED_DATADIR when set (a relocated install,
 * e.g. one made with DESTDIR); then the source tree when the running binary
 * is the build tree's (so a developer's edits are seen without installing);
 * then the installed data directory; then the source tree when it is still
 * there. */
#ifndef MLS_DATADIR_H
#define MLS_DATADIR_H

#include <stddef.h>

typedef enum { MLS_DATA_CATALOG, MLS_DATA_CLUSTERS, MLS_DATA_SAMPLES, MLS_DATA_PLOTS } mls_data_kind_t;

/* Writes into buf (size n) the path of NAME of that kind (NAME NULL or "":
 * the folder itself) in the first place of the search that has it, and
 * returns 0; when no place has it, writes the first candidate (for an error
 * message that names a path) and returns -1. */
int mls_data_find(mls_data_kind_t kind, const char *name, char *buf, size_t n);

/* A bundled JSON file by name: NAME or NAME.json among that kind's files
 * ("36v100", "h100.json"), as mls_data_find(); a NAME with a '/' is a path,
 * never a bundled name (-1). */
int mls_data_find_named(mls_data_kind_t kind, const char *name, char *buf, size_t n);

#endif
