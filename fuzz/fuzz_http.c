/* fuzz_http.c - libFuzzer harness for the HTTP front end, in process.
 *
 * One server (libmicrohttpd daemon, gs_http routing, a one-worker pool
 * with tiny solve limits) listens on 127.0.0.1 for the whole run. Each
 * input is written raw to a fresh connection, the write side is shut, and
 * the answer read until the server closes. So the fuzzer reaches request
 * line and header parsing, routing, query strings, media types, CORS,
 * request ids, body size checks and both solve modes, with ASan and UBSan
 * watching every thread. Oracle: whatever comes back starts as an HTTP/1.x
 * response.
 */
#define _GNU_SOURCE /* strcasestr */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz.h"
#include "gridsolve/config.h"
#include "gridsolve/http.h"
#include "gridsolve/mem.h"

static gs_server_config cfg;
static gs_http server;
static int port;

/* A non-blocking listening socket on 127.0.0.1, any free port. */
static int listen_local(void)
{
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t sl = sizeof a;
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) != 0 ||
        listen(fd, 128) != 0 ||
        fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0 ||
        getsockname(fd, (struct sockaddr *)&a, &sl) != 0) {
        perror("fuzz_http: listen");
        exit(1);
    }
    port = ntohs(a.sin_port);
    return fd;
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    gs_error err = {0};
    gs_config_default(&cfg);
    cfg.workers = 1;
    cfg.queue = 4;
    cfg.max_body = 64 * 1024;
    cfg.timeout_ms = (uint64_t)GS_FUZZ_TIMEOUT_MS;
    cfg.max_timeout_ms = 2 * (uint64_t)GS_FUZZ_TIMEOUT_MS;
    cfg.max_states = GS_FUZZ_MAX_STATES;
    cfg.max_states_limit = 2 * GS_FUZZ_MAX_STATES;
    cfg.max_cells = GS_FUZZ_MAX_CELLS;
    cfg.max_solve_memory = 16u << 20;
    gs_mem_set_budget(GS_FUZZ_BUDGET);
    gs_mem_install_cjson_hooks();
    if (gs_http_init(&server, &cfg, &err) ||
        gs_http_start(&server, listen_local(), &err)) {
        fprintf(stderr, "fuzz_http: %s\n", err.detail);
        exit(1);
    }
    atomic_store(&server.ready, 1);
    return 0;
}

/* Waits up to ms for fd to become readable: true when it did. */
static bool readable(int fd, int ms)
{
    struct pollfd p = {.fd = fd, .events = POLLIN};
    return poll(&p, 1, ms) > 0;
}

/* A connection to the server. Other programs on this machine may hold
 * most of the ephemeral ports for a moment (EADDRNOTAVAIL), so a failed
 * connect is retried for 2 s before it counts as the server having
 * stopped accepting; the reason is printed either way. */
static int connect_server(const struct sockaddr_in *a)
{
    for (int attempt = 0;; attempt++) {
        int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        gs_fuzz_check(fd >= 0, "socket");
        if (connect(fd, (const struct sockaddr *)a, sizeof *a) == 0)
            return fd;
        int e = errno;
        close(fd);
        fprintf(stderr, "fuzz_http: connect: %s\n", strerror(e));
        gs_fuzz_check(attempt < 200,
                      "the server stopped accepting connections");
        usleep(10000);
    }
}

/* True when buf (len bytes, NUL-terminated) holds a whole response with a
 * Content-Length body, so the harness need not wait for the close. */
static bool complete(const char *buf, size_t len)
{
    const char *end = strstr(buf, "\r\n\r\n");
    const char *cl = strcasestr(buf, "\r\nContent-Length:");
    if (!end || !cl || cl > end)
        return false;
    size_t body = strtoull(cl + 17, NULL, 10);
    return len >= (size_t)(end + 4 - buf) + body;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int fd = connect_server(&a);
    /* The server may answer and close before taking every byte. */
    size_t off = 0;
    while (off < size) {
        ssize_t n = send(fd, data + off, size - off, MSG_NOSIGNAL);
        if (n <= 0)
            break;
        off += (size_t)n;
    }
    /* libmicrohttpd keeps a half-closed connection until its idle timeout
     * (30 s), so the harness does not wait for the close: it stops at the
     * first whole response, or after 200 ms of silence (an incomplete
     * request the server is still waiting on). */
    shutdown(fd, SHUT_WR);
    static char buf[65536];
    size_t got = 0;
    while (got < sizeof buf - 1 && readable(fd, 200)) {
        ssize_t n = recv(fd, buf + got, sizeof buf - 1 - got, 0);
        if (n <= 0)
            break;
        got += (size_t)n;
        buf[got] = '\0';
        if (complete(buf, got))
            break;
    }
    /* An abortive close frees the server's side at once. */
    struct linger lg = {.l_onoff = 1, .l_linger = 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof lg);
    close(fd);
    gs_fuzz_check(got == 0 || strncmp(buf, "HTTP/1.", got < 7 ? got : 7) == 0,
                  "the answer is not an HTTP response");
    return 0;
}
