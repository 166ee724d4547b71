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

/* A row's event against the file's own story of each node: a node is failed
 * twice only after a recover, and recovered only after a fail. */
static int check_state(const fault_event_t *ev, char *failed, const char *path, long ln,
                       const mls_cluster_t *c, mls_err_t *err)
{
    const char *name = c->nodes[ev->node].name;
    if (ev->kind == FAULT_FAIL && failed[ev->node])
        return mls_fail(err, "%s:%ld: field 'event': node %s fails again, but has not "
                             "recovered since it failed",
                        path, ln, name);
    if (ev->kind == FAULT_RECOVER && !failed[ev->node])
        return mls_fail(err, "%s:%ld: field 'event': node %s recovers, but the schedule has "
                             "not failed it",
                        path, ln, name);
    if (ev->kind == FAULT_FAIL || ev->kind == FAULT_RECOVER)
        failed[ev->node] = ev->kind == FAULT_FAIL;
    return 0;
}

static int parse_kind(const char *name, fault_kind_t *kind)
{
    static const char *const names[] = {"fail", "recover", "slow", "unslow"};
    for (int k = 0; k < 4; k++)
        if (!strcmp(name, names[k])) {
            *kind = (fault_kind_t)k;
            return 0;
        }
    return -1;
}

static int parse_row(fault_plan_t *f, char *line, const mls_cluster_t *c, char *failed,
                     const char *path, long ln, mls_err_t *err)
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
    const char *factor = n == 4 ? mls_trim(fields[3]) : "";
    if (mls_parse_double(fields[0], &ev.time) < 0 || ev.time < 0 || ev.time > MLS_MAX_TIME)
        return mls_fail(err, "%s:%ld: field 'time': '%s' is not a time in [0, %g] s", path, ln,
                        mls_trim(fields[0]), MLS_MAX_TIME);
    if ((ev.node = node_index(c, mls_trim(fields[1]))) < 0)
        return mls_fail(err, "%s:%ld: field 'node': no node '%s' in the cluster", path, ln,
                        mls_trim(fields[1]));
    if (parse_kind(ev_name, &ev.kind) < 0)
        return mls_fail(err, "%s:%ld: field 'event': '%s' is not fail, recover, slow or unslow",
                        path, ln, ev_name);
    if (ev.kind == FAULT_SLOW &&
        (!*factor || mls_parse_double(factor, &ev.factor) < 0 || !(ev.factor > 0) ||
         ev.factor > 1))
        return mls_fail(err, "%s:%ld: field 'factor': a slow event needs a speed in (0, 1]",
                        path, ln);
    if (ev.kind != FAULT_SLOW && *factor)
        return mls_fail(err, "%s:%ld: field 'factor': '%s' given, but only a slow event takes "
                             "a factor (%s does not)",
                        path, ln, factor, ev_name);
    if (f->n && ev.time < f->events[f->n - 1].time)
        return mls_fail(err, "%s:%ld: field 'time': %g is before the previous row's %g", path,
                        ln, ev.time, f->events[f->n - 1].time);
    if (check_state(&ev, failed, path, ln, c, err) < 0)
        return -1;
    xgrow((void **)&f->events, &f->cap, f->n + 1, sizeof *f->events);
    f->events[f->n++] = ev;
    return 0;
}

int faults_read_csv(fault_plan_t *f, const char *path, const mls_cluster_t *c, mls_err_t *err)
{
    FILE *fp = fopen(path, "r");
    if (!fp)
        return mls_fail(err, "%s: cannot open: %s", path, strerror(errno));
    char *line = NULL, *failed = xcalloc((size_t)c->n_nodes + 1, 1);
    size_t cap = 0;
    long ln = 0, got;
    int rc = 0, header = 1;
    while (rc == 0 && (got = mls_read_line(fp, &line, &cap, path, ln + 1, err)) != -1) {
        ln++;
        if (got < 0) {
            rc = -1;
            break;
        }
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
        rc = parse_row(f, s, c, failed, path, ln, err);
    }
    free(line);
    free(failed);
    fclose(fp);
    return rc;
}
