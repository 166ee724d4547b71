/* dbinput.c: results and live state databases folded into one results
 * database for reading, and the --runs range of what is read (see dbinput.h). */
#include "cli/dbinput.h"

#include "live/export.h"
#include "sim/merge.h"
#include "sim/results.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int db_input_open(const char *const *paths, size_t n, db_input_t *in, mls_err_t *err)
{
    memset(in, 0, sizeof *in);
    for (size_t i = 0; i < n; i++)
        if (access(paths[i], R_OK) != 0)
            return mls_fail(err, "%s: cannot read: %s", paths[i], strerror(errno));
    if (n == 1 && !live_is_state_db(paths[0])) {
        snprintf(in->path, sizeof in->path, "%s", paths[0]);
        return 0;
    }
    const char *tmp = getenv("TMPDIR");
    snprintf(in->path, sizeof in->path, "%s/mlsched-db-XXXXXX", tmp && tmp[0] ? tmp : "/tmp");
    int fd = mkstemp(in->path);
    if (fd < 0)
        return mls_fail(err, "%s: cannot create a temporary database: %s", in->path,
                        strerror(errno));
    close(fd); /* an empty file is an empty SQLite database */
    in->temp = 1;
    const char **results = xmalloc(sizeof *results * (n ? n : 1));
    size_t nr = 0;
    for (size_t i = 0; i < n; i++)
        if (!live_is_state_db(paths[i]))
            results[nr++] = paths[i];
    merge_stats_t st;
    int rc = nr ? merge_dbs(in->path, results, nr, &st, err) : 0;
    free(results);
    for (size_t i = 0; i < n && rc == 0; i++) {
        int64_t id;
        if (live_is_state_db(paths[i]))
            rc = live_export(paths[i], in->path, &id, err);
    }
    if (rc < 0)
        db_input_close(in);
    return rc;
}

void db_input_close(db_input_t *in)
{
    if (!in->temp)
        return;
    char side[4200];
    unlink(in->path);
    snprintf(side, sizeof side, "%s-journal", in->path);
    unlink(side);
    snprintf(side, sizeof side, "%s-wal", in->path);
    unlink(side);
    snprintf(side, sizeof side, "%s-shm", in->path);
    unlink(side);
    in->temp = 0;
}

int db_input_parse_runs(void *base, size_t off, const char *s, const char *who)
{
    result_filter_t *f = (result_filter_t *)((char *)base + off);
    (void)who;
    long lo, hi;
    char extra;
    if (sscanf(s, "%ld:%ld%c", &lo, &hi, &extra) != 2 || lo < 1 || hi < lo)
        return -1;
    f->run_lo = lo;
    f->run_hi = hi;
    return 0;
}
