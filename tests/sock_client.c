/* sock_client.c: a deliberately bad client of the live daemon's socket, for
 * tests/live_clients.sh.
 *   sock_client SOCKET idle S     connect, send nothing, hold it S seconds
 *   sock_client SOCKET partial S  send half a request, no newline, hold S s
 *   sock_client SOCKET big        send 70,000 bytes without a newline, then
 *                                 print the reply line the daemon sends */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: sock_client SOCKET idle|partial|big [SECONDS]\n");
        return 2;
    }
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un a = {.sun_family = AF_UNIX};
    snprintf(a.sun_path, sizeof a.sun_path, "%s", argv[1]);
    if (fd < 0 || connect(fd, (struct sockaddr *)&a, sizeof a) < 0) {
        perror("sock_client: connect");
        return 1;
    }
    double hold = argc > 3 ? atof(argv[3]) : 0;
    if (!strcmp(argv[2], "partial") && write(fd, "{\"op\":", 6) != 6)
        return 1;
    if (!strcmp(argv[2], "big")) {
        static char buf[70000];
        memset(buf, 'x', sizeof buf);
        size_t off = 0;
        while (off < sizeof buf) {
            ssize_t w = send(fd, buf + off, sizeof buf - off, MSG_NOSIGNAL);
            if (w <= 0)
                break; /* the daemon may stop reading once it has answered */
            off += (size_t)w;
        }
        char reply[512];
        ssize_t n, got = 0;
        while (got < (ssize_t)sizeof reply - 1 &&
               (n = read(fd, reply + got, sizeof reply - 1 - (size_t)got)) > 0)
            got += n;
        reply[got > 0 ? got : 0] = '\0';
        fputs(reply, stdout);
        close(fd);
        return got > 0 ? 0 : 1;
    }
    usleep((useconds_t)(hold * 1e6));
    close(fd);
    return 0;
}
