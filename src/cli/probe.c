/* probe.c - `gridsolve health`: a tiny HTTP GET against a local server, so
 * that container health checks need no curl in a slim image. */
#include <errno.h>
#include <netdb.h>
#include <stdbool.h>
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

#define PROBE_USAGE                                                            \
    "usage: gridsolve health [--host H] [--port N] [--path /healthz]\n"        \
    "\nGETs http://H:N/P (default 127.0.0.1, $GRIDSOLVE_PORT or 8080,\n"       \
    "/healthz) and prints the status code. Exit status: 0 when it is 200,\n"   \
    "1 otherwise or when no server answers, 2 usage error.\n"

/* A port is 1..65535 in decimal. */
static bool port_ok(const char *s)
{
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    return s[0] >= '0' && s[0] <= '9' && !*end && !errno && v >= 1 &&
           v <= 65535;
}

/* A path goes verbatim into the request line: "/" then printable ASCII
 * without blanks, so it cannot split the request. */
static bool path_ok(const char *s)
{
    if (s[0] != '/')
        return false;
    for (; *s; s++)
        if (*s <= 0x20 || *s >= 0x7f)
            return false;
    return true;
}

/* Prints a usage error and returns the usage exit status. */
static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "gridsolve health: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, " (see gridsolve health --help)\n");
    return 2;
}

int gs_probe_main(int argc, char **argv)
{
    const char *host = "127.0.0.1", *path = "/healthz";
    const char *port = getenv("GRIDSOLVE_PORT");
    if (!port || !*port)
        port = "8080";
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            fputs(PROBE_USAGE, stdout);
            return 0;
        }
        if (strcmp(a, "--host") != 0 && strcmp(a, "--port") != 0 &&
            strcmp(a, "--path") != 0)
            return usage_error(a[0] == '-' ? "unknown option '%s'"
                                           : "unexpected argument '%s'",
                               a);
        if (i + 1 >= argc)
            return usage_error("%s needs a value", a);
        const char *v = argv[++i];
        if (a[2] == 'h')
            host = v;
        else if (a[3] == 'o')
            port = v;
        else
            path = v;
    }
    if (!port_ok(port))
        return usage_error("port '%s' is not a number in 1..65535", port);
    if (!path_ok(path))
        return usage_error("path '%s' must start with / and hold no blanks",
                           path);
    if (!*host)
        return usage_error("%sthe host is empty", "");
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
