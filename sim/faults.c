/* faults.c: reading a fault schedule (see faults.h). */
#include "sim/faults.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void faults_init(fault_plan_t *f)
{
    memset(f, 0, sizeof *f);
    f->mttr = 3600;
}

void faults_free(fault_plan_t *f)
{
    free(f->events);
    f->events = NULL;
    f->n = f->cap = 0;
}

static int node_index(const mls_cluster_t *c, const char *s)
{
    for (int i = 0; i < c->n_nodes; i++)
        if (!strcmp(c->nodes[i].name, s))
            return i;
    long l;
    if (mls_parse_long(s, &l) == 0 && l >= 0 && l < c->n_nodes)
        return (int)l;
    return -1;
}

static int parse_row(fault_plan_t *f, char *line, const mls_cluster_t *c, const char *path,
                     long ln, mls_err_t *err)
{
    char *fields[5] = {0};
    int n = 0;
    for (char *tok = line; tok && n < 5; n++) {
        fields[n] = tok;
        tok = strchr(tok, ',');
        if (tok)
            *tok++ = '\0';
    }
    if (n < 3 || n > 4)
        return mls_fail(err, "%s:%ld: expected time,node,event[,factor], got %d fields", path,
                        ln, n);
    fault_event_t ev = {0, 0, FAULT_FAIL, 1};
    char *ev_name = mls_trim(fields[2]);
    if (mls_parse_double(fields[0], &ev.time) < 0 || ev.time < 0 || !isfinite(ev.time))
        return mls_fail(err, "%s:%ld: field 'time': '%s' is not a time >= 0", path, ln,
                        mls_trim(fields[0]));
    if ((ev.node = node_index(c, mls_trim(fields[1]))) < 0)
        return mls_fail(err, "%s:%ld: field 'node': no node '%s' in the cluster", path, ln,
                        mls_trim(fields[1]));
    if (!strcmp(ev_name, "fail"))
        ev.kind = FAULT_FAIL;
    else if (!strcmp(ev_name, "recover"))
        ev.kind = FAULT_RECOVER;
    else if (!strcmp(ev_name, "slow"))
        ev.kind = FAULT_SLOW;
    else if (!strcmp(ev_name, "unslow"))
        ev.kind = FAULT_UNSLOW;
    else
        return mls_fail(err, "%s:%ld: field 'event': '%s' is not fail, recover, slow or unslow",
                        path, ln, ev_name);
    if (ev.kind == FAULT_SLOW &&
        (n < 4 || mls_parse_double(fields[3], &ev.factor) < 0 || !(ev.factor > 0) ||
         ev.factor > 1))
        return mls_fail(err, "%s:%ld: field 'factor': a slow event needs a speed in (0, 1]",
                        path, ln);
    if (f->n && ev.time < f->events[f->n - 1].time)
        return mls_fail(err, "%s:%ld: field 'time': %g is before the previous row's %g", path,
                        ln, ev.time, f->events[f->n - 1].time);
    xgrow((void **)&f->events, &f->cap, f->n + 1, sizeof *f->events);
    f->events[f->n++] = ev;
    return 0;
}

int faults_read_csv(fault_plan_t *f, const char *path, const mls_cluster_t *c, mls_err_t *err)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return mls_fail(err, "%s: cannot open: %s", path, strerror(errno));
    char line[1024];
    long ln = 0;
    int rc = 0, header = 1;
    while (rc == 0 && fgets(line, sizeof line, fp)) {
        ln++;
        char *s = mls_trim(line);
        if (!*s || *s == '#')
            continue;
        if (header) {
            header = 0;
            if (strncmp(s, "time,node,event", 15) != 0)
                rc = mls_fail(err, "%s:%ld: expected the header time,node,event[,factor]", path,
                              ln);
            continue;
        }
        rc = parse_row(f, s, c, path, ln, err);
    }
    fclose(fp);
    return rc;
}
