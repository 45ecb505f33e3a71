/* fuzz_http.c - libFuzzer harness for the HTTP front end, in process.
 *
 * One server (libmicrohttpd daemon, gs_http routing, a one-worker pool
 * with tiny solve limits) listens on 127.0.0.1 for the whole run. Each
 * input is written raw to a fresh connection, the write side is shut, and
 * the answer read until the server closes. So the fuzzer reaches request
 * line and header parsing, routing, query strings, media types, CORS,
 * request ids, body size checks and both solve modes, with ASan and UBSan
 * watching every thread. Oracles: whatever comes back starts as an
 * HTTP/1.x response and is not a 500; and every PROBE_EVERY inputs and at
 * exit, GET /healthz answers 200 and a trivial solve 200 "solved", each
 * within PROBE_MS, so an input that hangs or wedges the server (which
 * the short read below cannot tell from an incomplete request) is found.
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
#include <time.h>
#include <unistd.h>

#include "fuzz.h"
#include "gridsolve/config.h"
#include "gridsolve/http.h"
#include "gridsolve/mem.h"

static gs_server_config cfg;
static gs_http server;
static int port;

#ifndef PROBE_EVERY
#define PROBE_EVERY 100
#endif
#define PROBE_MS 5000
#define SILENCE_MS 50
static const char probe_solve_body[] =
    "{\"grid\":[\"######\",\"#XEEO#\",\"######\"]}";

static void probe_server(void);

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
    /* A list rather than "*": requests' Origin headers meet the matching. */
    snprintf(cfg.cors_origin, sizeof cfg.cors_origin, "%s",
             "https://a.example, http://b.example:8080");
    gs_mem_set_budget(GS_FUZZ_BUDGET);
    gs_mem_install_cjson_hooks();
    if (gs_http_init(&server, &cfg, &err) ||
        gs_http_start(&server, listen_local(), &err)) {
        fprintf(stderr, "fuzz_http: %s\n", err.detail);
        exit(1);
    }
    atomic_store(&server.ready, 1);
    /* libFuzzer ends a run with exit(): the last inputs are probed too. */
    atexit(probe_server);
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

/* The status code of the response starting buf, or 0. */
static int status_of(const char *buf)
{
    int code = 0;
    return sscanf(buf, "HTTP/1.%*d %3d", &code) == 1 ? code : 0;
}

/* Sends req on a fresh connection and reads the answer into buf (cap
 * bytes, NUL-terminated) until it is complete, the server closes, or
 * PROBE_MS pass. Returns the status code, 0 when no whole answer came in
 * time. */
static int probe(const char *req, char *buf, size_t cap)
{
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    struct timespec t0, t;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int fd = connect_server(&a);
    size_t len = strlen(req), off = 0, got = 0;
    while (off < len) {
        ssize_t n = send(fd, req + off, len - off, MSG_NOSIGNAL);
        if (n <= 0)
            break;
        off += (size_t)n;
    }
    buf[0] = '\0';
    bool closed = false;
    for (;;) {
        clock_gettime(CLOCK_MONOTONIC, &t);
        long left = PROBE_MS - ((t.tv_sec - t0.tv_sec) * 1000 +
                                (t.tv_nsec - t0.tv_nsec) / 1000000);
        if (left <= 0 || got >= cap - 1 || !readable(fd, (int)left))
            break;
        ssize_t n = recv(fd, buf + got, cap - 1 - got, 0);
        if (n <= 0) {
            closed = n == 0;
            break;
        }
        got += (size_t)n;
        buf[got] = '\0';
        if (complete(buf, got))
            break;
    }
    close(fd);
    /* Whole: by its Content-Length, or closed after its head. */
    bool whole = complete(buf, got) || (closed && strstr(buf, "\r\n\r\n"));
    return whole ? status_of(buf) : 0;
}

/* Aborts (a finding) unless the server answers a health check and a
 * trivial solve in time. */
static void probe_server(void)
{
    static char buf[8192];
    char req[512];
    int code = probe("GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: "
                     "close\r\n\r\n",
                     buf, sizeof buf);
    if (code != 200)
        fprintf(stderr, "fuzz_http: GET /healthz: %s\n",
                code ? buf : "no whole answer in time");
    gs_fuzz_check(code == 200, "/healthz did not answer 200 in 5 s after "
                               "the last inputs");
    snprintf(req, sizeof req,
             "POST /solve/bloxorz HTTP/1.1\r\nHost: x\r\nContent-Type: "
             "application/json\r\nContent-Length: %zu\r\nConnection: "
             "close\r\n\r\n%s",
             sizeof probe_solve_body - 1, probe_solve_body);
    code = probe(req, buf, sizeof buf);
    bool solved = code == 200 && strstr(buf, "\"status\":\"solved\"");
    if (!solved)
        fprintf(stderr, "fuzz_http: trivial solve: %s\n",
                code ? buf : "no whole answer in time");
    gs_fuzz_check(solved, "a trivial solve did not answer 200 solved in 5 s "
                          "after the last inputs");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static unsigned long inputs;
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
     * first whole response, or after SILENCE_MS without a first byte (an
     * incomplete request the server is still waiting on: most mutated
     * inputs, so this wait sets the pace: 200 ms ran 4 times fewer inputs)
     * or 200 ms without the next one. An answer slower than SILENCE_MS
     * goes unchecked (and its client is gone, which the server must
     * survive); the probes still require timely answers. */
    shutdown(fd, SHUT_WR);
    static char buf[65536];
    size_t got = 0;
    while (got < sizeof buf - 1 && readable(fd, got ? 200 : SILENCE_MS)) {
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
    /* A 500 is an internal error: a bug whatever the input. */
    gs_fuzz_check(got < 12 || status_of(buf) != 500, "a 500 answer");
    if (++inputs % PROBE_EVERY == 0)
        probe_server();
    return 0;
}
