/* report.c: one request, one reply over the daemon's Unix socket (see report.h). */
#include "live/report.h"

#include <cjson/cJSON.h>
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

const char *live_default_socket(char *buf, size_t len)
{
    const char *env = getenv("MLSCHED_SOCKET");
    const char *xdg = getenv("XDG_RUNTIME_DIR");
    if (env && *env)
        snprintf(buf, len, "%s", env);
    else if (xdg && *xdg)
        snprintf(buf, len, "%s/mlsched/live.sock", xdg);
    else
        snprintf(buf, len, "/tmp/mlsched-%u/live.sock", (unsigned)getuid());
    return buf;
}

static int wait_fd(int fd, short events, double deadline)
{
    for (;;) {
        double left = deadline - mls_wall_seconds();
        if (left <= 0)
            return -1;
        struct pollfd p = {fd, events, 0};
        int r = poll(&p, 1, (int)(left * 1000) + 1);
        if (r > 0)
            return 0;
        if (r < 0 && errno != EINTR)
            return -1;
    }
}

static int send_all(int fd, const char *buf, size_t n, double deadline)
{
    while (n > 0) {
        if (wait_fd(fd, POLLOUT, deadline) < 0)
            return -1;
        ssize_t w = send(fd, buf, n, MSG_NOSIGNAL);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return -1;
        buf += w;
        n -= (size_t)w;
    }
    return 0;
}

char *live_request(const char *path, const char *line, double timeout_s, mls_err_t *err)
{
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    if (strlen(path) >= sizeof a.sun_path) {
        mls_fail(err, "%s: socket path too long", path);
        return NULL;
    }
    memcpy(a.sun_path, path, strlen(path) + 1);
    int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) {
        mls_fail(err, "socket: %s", strerror(errno));
        return NULL;
    }
    double deadline = mls_wall_seconds() + timeout_s;
    if (connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        mls_fail(err, "%s: cannot connect to the live daemon: %s", path, strerror(errno));
        close(fd);
        return NULL;
    }
    size_t n = strlen(line);
    /* A daemon that refuses early (too big, another uid) replies and closes
     * while we still send: then read its reply rather than report EPIPE. */
    int sent = send_all(fd, line, n, deadline) == 0 &&
               (n > 0 && line[n - 1] == '\n' ? 0 : send_all(fd, "\n", 1, deadline)) == 0;
    int send_errno = errno;
    if (sent)
        shutdown(fd, SHUT_WR);
    size_t cap = 4096, len = 0;
    char *buf = xmalloc(cap);
    for (;;) {
        if (wait_fd(fd, POLLIN, deadline) < 0) {
            mls_fail(err, "%s: no reply from the live daemon within %.0f s", path, timeout_s);
            break;
        }
        if (len + 1 >= cap)
            buf = xrealloc(buf, cap *= 2);
        ssize_t r = recv(fd, buf + len, cap - len - 1, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0) {
            buf[len] = '\0';
            close(fd);
            if (len == 0) {
                if (!sent)
                    mls_fail(err, "%s: sending the request failed: %s", path,
                             strerror(send_errno));
                else
                    mls_fail(err, "%s: the live daemon closed the connection without a reply",
                             path);
                free(buf);
                return NULL;
            }
            return buf;
        }
        len += (size_t)r;
    }
    close(fd);
    free(buf);
    return NULL;
}

int live_report(const char *socket_path, const live_progress_t *p, mls_err_t *err)
{
    char sock[512];
    int64_t id = p->id;
    if (id < 0) {
        const char *env = getenv("MLSCHED_JOB_ID");
        long v;
        if (!env || mls_parse_long(env, &v) < 0 || v < 0)
            return mls_fail(err, "MLSCHED_JOB_ID is not set to a job id");
        id = v;
    }
    if (!socket_path) {
        if (!getenv("MLSCHED_SOCKET"))
            return mls_fail(err, "MLSCHED_SOCKET is not set");
        socket_path = live_default_socket(sock, sizeof sock);
    }
    cJSON *o = cJSON_CreateObject();
    cJSON_AddStringToObject(o, "op", "report");
    cJSON_AddNumberToObject(o, "id", (double)id);
    cJSON_AddNumberToObject(o, "iter", p->iter);
    if (isfinite(p->samples))
        cJSON_AddNumberToObject(o, "samples", p->samples);
    if (isfinite(p->iter_time))
        cJSON_AddNumberToObject(o, "iter_time", p->iter_time);
    if (p->batch > 0)
        cJSON_AddNumberToObject(o, "batch", p->batch);
    if (isfinite(p->gns))
        cJSON_AddNumberToObject(o, "gns", p->gns);
    const char *token = p->token[0] ? p->token : getenv("MLSCHED_TOKEN");
    if (token && *token)
        cJSON_AddStringToObject(o, "token", token);
    char *line = cJSON_PrintUnformatted(o);
    cJSON_Delete(o);
    char *reply = live_request(socket_path, line, 2.0, err);
    free(line);
    if (!reply)
        return -1;
    int ok = strstr(reply, "\"ok\":true") != NULL;
    if (!ok)
        mls_fail(err, "the live daemon refused the report: %.900s", reply);
    free(reply);
    return ok ? 0 : -1;
}
