/* datadir.c: the search for bundled data (see datadir.h).
 *
 * "Running from the build tree" is decided by the binary's own path
 * (/proc/self/exe) starting with the build directory configure recorded;
 * every test and the README's commands run ./mlsched there. An installed
 * binary elsewhere looks in its installed data directory first, so a build
 * tree left on the machine does not shadow what was installed. */
#include "model/datadir.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N_PLACES 4

static const char *const src_sub[] = {"traces/catalog", "traces/clusters", "traces/samples",
                                      "scripts/plots"};
static const char *const inst_sub[] = {"catalog", "clusters", "samples", "plots"};

static int from_build_tree(void)
{
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    if (len <= 0)
        return 0;
    exe[len] = '\0';
    size_t b = strlen(MLS_BUILDDIR);
    return b > 0 && strncmp(exe, MLS_BUILDDIR, b) == 0 && exe[b] == '/';
}

/* The folders to search for KIND, in order; unused slots are NULL. Each is
 * written into its own buffer of dirs (N_PLACES x PATH_MAX). */
static int places(mls_data_kind_t kind, char dirs[N_PLACES][PATH_MAX])
{
    int n = 0;
    const char *env = getenv("MLSCHED_DATADIR");
    if (env && *env)
        snprintf(dirs[n++], PATH_MAX, "%s/%s", env, inst_sub[kind]);
    int build = from_build_tree();
    if (build)
        snprintf(dirs[n++], PATH_MAX, "%s/%s", MLS_SRCDIR, src_sub[kind]);
    snprintf(dirs[n++], PATH_MAX, "%s/%s", MLS_DATADIR, inst_sub[kind]);
    if (!build)
        snprintf(dirs[n++], PATH_MAX, "%s/%s", MLS_SRCDIR, src_sub[kind]);
    return n;
}

int mls_data_find(mls_data_kind_t kind, const char *name, char *buf, size_t n)
{
    char dirs[N_PLACES][PATH_MAX];
    int k = places(kind, dirs);
    int have_name = name && *name;
    for (int i = 0; i < k; i++) {
        snprintf(buf, n, "%s%s%s", dirs[i], have_name ? "/" : "", have_name ? name : "");
        if (access(buf, R_OK) == 0)
            return 0;
    }
    snprintf(buf, n, "%s%s%s", dirs[0], have_name ? "/" : "", have_name ? name : "");
    return -1;
}

int mls_data_find_named(mls_data_kind_t kind, const char *name, char *buf, size_t n)
{
    if (!name || !*name || strchr(name, '/')) {
        snprintf(buf, n, "a name has no '/'");
        return -1;
    }
    size_t len = strlen(name);
    char file[512];
    snprintf(file, sizeof file, "%s%s", name,
             len > 5 && !strcmp(name + len - 5, ".json") ? "" : ".json");
    return mls_data_find(kind, file, buf, n);
}
