/* probe.c - `gridsolve health`: a tiny HTTP GET against a local server, so
 * that container health checks need no curl in a slim image. */
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "probe.h"

/* Connects to host:port with a receive/send timeout; -1 on failure. */
static int dial(const char *host, const char *port, int timeout_s)
{
    struct addrinfo hints = {.ai_family = AF_UNSPEC,
                             .ai_socktype = SOCK_STREAM};
    struct addrinfo *res, *ai;
    if (getaddrinfo(host, port, &hints, &res) != 0)
        return -1;
    int fd = -1;
    for (ai = res; ai; ai = ai->ai_next) {
        fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
        if (fd < 0)
            continue;
        struct timeval tv = {.tv_sec = timeout_s};
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
        if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0)
            break;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    return fd;
}

int gs_probe_main(int argc, char **argv)
{
    const char *host = "127.0.0.1", *path = "/healthz";
    const char *port = getenv("GRIDSOLVE_PORT");
    if (!port || !*port)
        port = "8080";
    for (int i = 1; i + 1 < argc; i += 2) {
        if (strcmp(argv[i], "--host") == 0)
            host = argv[i + 1];
        else if (strcmp(argv[i], "--port") == 0)
            port = argv[i + 1];
        else if (strcmp(argv[i], "--path") == 0)
            path = argv[i + 1];
        else {
            fprintf(stderr, "usage: gridsolve health [--host H] [--port N]"
                            " [--path /healthz]\n");
            return 2;
        }
    }
    int fd = dial(host, port, 3);
    if (fd < 0) {
        fprintf(stderr, "gridsolve health: cannot connect to %s:%s\n", host,
                port);
        return 1;
    }
    char req[512];
    int n = snprintf(req, sizeof req,
                     "GET %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n",
                     path, host);
    char resp[64] = {0};
    ssize_t got = 0;
    if (n > 0 && (size_t)n < sizeof req && write(fd, req, (size_t)n) == n)
        got = read(fd, resp, sizeof resp - 1);
    close(fd);
    int status = 0;
    if (got <= 0 || sscanf(resp, "HTTP/%*s %d", &status) != 1) {
        fprintf(stderr, "gridsolve health: no HTTP answer from %s:%s\n", host,
                port);
        return 1;
    }
    printf("%d\n", status);
    return status == 200 ? 0 : 1;
}
