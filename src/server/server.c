/* server.c - `gridsolve serve`: configuration, listening socket, signals
 * and the graceful drain.
 *
 * SIGTERM, SIGINT and SIGHUP are blocked before any thread exists, so
 * every thread (MHD's, the workers) inherits the mask and only the main
 * thread receives them, synchronously through sigwait(): no
 * async-signal-safety concerns. SIGHUP is logged and ignored: the settings
 * are read once at start, and its default action would kill the process
 * with no drain (except as a container's PID 1, where the kernel drops
 * it), losing the solves in flight.
 * A drain then refuses new solves (503) while still listening, closes idle
 * keep-alive connections with a FIN and answers everything else with
 * Connection: close, lets in-flight solves finish within the grace period,
 * cancels the rest (running ones answer `limit`, queued ones that never
 * started 503 with Retry-After), waits for every answer to go out, stops
 * listening, and stops.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "gridsolve/cjson.h"
#include "gridsolve/config.h"
#include "gridsolve/http.h"
#include "gridsolve/log.h"
#include "gridsolve/mem.h"
#include "gridsolve/server.h"

#define EXIT_USAGE 2
#define CANCEL_WAIT_MS 10000 /* a cancelled search stops within a poll */
#define SEND_WAIT_MS 2000    /* for answered solves to reach the client */
#define CLOSE_WAIT_MS 300    /* for clients to close idle connections */
#define TICK_MS 50

/* Formats a bound address as ADDR:PORT ([ADDR]:PORT for IPv6). */
static void format_addr(const struct sockaddr_storage *ss, char *buf,
                        size_t len)
{
    char host[INET6_ADDRSTRLEN] = "?";

    if (ss->ss_family == AF_INET6) {
        const struct sockaddr_in6 *a = (const struct sockaddr_in6 *)ss;
        inet_ntop(AF_INET6, &a->sin6_addr, host, sizeof host);
        snprintf(buf, len, "[%s]:%u", host, ntohs(a->sin6_port));
    } else {
        const struct sockaddr_in *a = (const struct sockaddr_in *)ss;
        inet_ntop(AF_INET, &a->sin_addr, host, sizeof host);
        snprintf(buf, len, "%s:%u", host, ntohs(a->sin_port));
    }
}

/* Binds and listens on cfg's address, trying each resolved address in
 * turn. Returns the non-blocking socket, or -1 with msg filled. */
static int open_listener(const gs_server_config *cfg, char *addr,
                         size_t addr_len, char *msg, size_t msg_len)
{
    struct addrinfo hints = {0}, *res = NULL;
    char port[16];
    int fd = -1, err = 0;

    hints.ai_family = AF_UNSPEC;
    hints.ai_socktype = SOCK_STREAM;
    hints.ai_flags = AI_PASSIVE | AI_ADDRCONFIG;
    snprintf(port, sizeof port, "%" PRIu64, cfg->port);
    int gai = getaddrinfo(cfg->bind, port, &hints, &res);
    if (gai) {
        snprintf(msg, msg_len, "cannot resolve --bind '%s': %s", cfg->bind,
                 gai_strerror(gai));
        return -1;
    }
    for (struct addrinfo *ai = res; ai; ai = ai->ai_next) {
        const int one = 1;
        fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
                    ai->ai_protocol);
        if (fd < 0) {
            err = errno;
            continue;
        }
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        if (bind(fd, ai->ai_addr, ai->ai_addrlen) == 0 &&
            listen(fd, SOMAXCONN) == 0 &&
            fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) == 0)
            break;
        err = errno;
        close(fd);
        fd = -1;
    }
    freeaddrinfo(res);
    if (fd < 0) {
        snprintf(msg, msg_len, "cannot listen on %s port %" PRIu64 ": %s",
                 cfg->bind, cfg->port, strerror(err));
        return -1;
    }
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    if (getsockname(fd, (struct sockaddr *)&ss, &sl) != 0) {
        snprintf(msg, msg_len, "getsockname: %s", strerror(errno));
        close(fd);
        return -1;
    }
    format_addr(&ss, addr, addr_len);
    return fd;
}

static void sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

/* True when another SIGTERM/SIGINT is pending (an impatient operator). */
static bool signal_pending(const sigset_t *set)
{
    const struct timespec zero = {0, 0};
    return sigtimedwait(set, NULL, &zero) > 0;
}

/* Waits for the pool to go idle until deadline; a second signal ends the
 * wait early. True when idle. */
static bool wait_idle(gs_http *h, int64_t deadline, const sigset_t *set)
{
    for (;;) {
        int64_t tick = gs_now_ns() + TICK_MS * 1000000LL;
        if (gs_pool_wait_idle(h->pool, tick < deadline ? tick : deadline))
            return true;
        if (gs_now_ns() >= deadline)
            return false;
        if (set && signal_pending(set)) {
            gs_log_note("warn", "second signal, cancelling now");
            return false;
        }
    }
}

/* The drain of a SIGTERM/SIGINT. Returns false when a solve ignored the
 * cancel flag, in which case the daemon must not be stopped. */
static bool drain(gs_http *h, const gs_server_config *cfg, const sigset_t *set)
{
    atomic_store(&h->draining, 1);
    gs_pool_close(h->pool);
    gs_http_close_idle(h);
    gs_log_note("info",
                "draining: %u solves running, %u queued, grace %" PRIu64 " ms",
                gs_pool_busy(h->pool), gs_pool_queued(h->pool), cfg->grace_ms);
    int64_t grace_end = gs_now_ns() + (int64_t)cfg->grace_ms * 1000000LL;
    if (!wait_idle(h, grace_end, set)) {
        gs_log_note("warn", "cancelling %u running and %u queued solves",
                    gs_pool_busy(h->pool), gs_pool_queued(h->pool));
        gs_http_cancel_all(h);
        if (!gs_pool_wait_idle(h->pool,
                               gs_now_ns() + CANCEL_WAIT_MS * 1000000LL)) {
            gs_log_note("error", "%u solves ignored the cancel",
                        gs_pool_busy(h->pool));
            return false;
        }
    }
    /* Every solve is answered; give MHD a moment to write the answers. */
    int64_t send_end = gs_now_ns() + SEND_WAIT_MS * 1000000LL;
    while (gs_http_pending(h) > 0 && gs_now_ns() < send_end)
        sleep_ms(5);
    gs_http_stop_listening(h, CLOSE_WAIT_MS);
    return true;
}

/* Raises the soft descriptor limit to the hard one: every connection is
 * a descriptor, and the connection limit follows this one. */
static void raise_nofile(void)
{
    struct rlimit rl;

    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur >= rl.rlim_max)
        return;
    rl.rlim_cur = rl.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &rl) != 0)
        gs_log_note("warn", "cannot raise RLIMIT_NOFILE: %s", strerror(errno));
}

/* Never runs (the signals stay blocked and are taken by sigwait). */
static void on_signal(int sig)
{
    (void)sig;
}

/* Blocks SIGTERM, SIGINT and SIGHUP (sigwait takes them; *stop gets the
 * first two, which drain, *all the three) and ignores SIGPIPE. A (never
 * run) handler is installed too: as PID 1 in a container a signal left at
 * SIG_DFL could be discarded by the kernel. */
static void block_signals(sigset_t *stop, sigset_t *all)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigemptyset(stop);
    sigaddset(stop, SIGTERM);
    sigaddset(stop, SIGINT);
    *all = *stop;
    sigaddset(all, SIGHUP);
    pthread_sigmask(SIG_BLOCK, all, NULL);
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    sigaction(SIGHUP, &sa, NULL);
    signal(SIGPIPE, SIG_IGN);
}

/* Waits for SIGTERM or SIGINT; a SIGHUP meanwhile is logged and ignored.
 * Returns the stopping signal. */
static int wait_stop(const sigset_t *all)
{
    int sig = 0;

    for (;;) {
        if (sigwait(all, &sig) != 0)
            continue;
        if (sig != SIGHUP)
            return sig;
        gs_log_note("info", "SIGHUP received: ignored (settings are read "
                            "only at start; restart to change them)");
    }
}

/* The ready line on stdout (what scripts wait for), then the settings in
 * force on stderr. */
static void announce(const gs_http *h, const gs_server_config *cfg,
                     const char *addr)
{
    printf("listening on %s\n", addr);
    fflush(stdout);
    gs_log_note("info",
                "listening on %s (io threads %u, workers %" PRIu64
                ", queue %" PRIu64 ", timeout %" PRIu64 " ms, max body %" PRIu64
                " bytes, max memory %" PRIu64
                " bytes of which requests %" PRIu64 ", max connections %u)",
                addr, h->io_threads, cfg->workers, cfg->queue, cfg->timeout_ms,
                cfg->max_body, cfg->max_memory, gs_mem_budget(),
                h->max_connections);
}

int gs_server_main(int argc, char **argv)
{
    gs_server_config cfg;
    gs_http h;
    gs_error err = {0};
    char msg[512], addr[INET6_ADDRSTRLEN + 16];
    sigset_t set, all;

    gs_config_default(&cfg);
    int rc = gs_config_parse(&cfg, argc, argv, NULL, msg, sizeof msg);
    if (rc == GS_CONFIG_HELP) {
        gs_config_usage(stdout);
        return 0;
    }
    if (rc != GS_CONFIG_OK) {
        fprintf(stderr, "gridsolve serve: %s\n", msg);
        return EXIT_USAGE;
    }
    gs_log_set_json(strcmp(cfg.log_format, "json") == 0);
    /* Before any thread parses JSON (the hooks are process-wide). */
    gs_mem_set_budget(gs_mem_process_budget(cfg.max_memory));
    if (cfg.max_memory && gs_mem_budget() < GS_MEM_MIN_REQUESTS) {
        /* Else the start fails later, on a table it cannot allocate. */
        fprintf(stderr,
                "gridsolve serve: --max-memory %" PRIu64
                " leaves requests less than %u bytes once the process's own "
                "size and slack are set aside\n",
                cfg.max_memory, GS_MEM_MIN_REQUESTS);
        return EXIT_USAGE;
    }
    /* A warning (a value clamped) only once the start goes on: a bad
     * value's error stays the one line on stderr. */
    if (msg[0])
        gs_log_note("warn", "%s", msg);
    gs_mem_install_cjson_hooks();
    /* Loaded now, not at the first request: a missing library shows at
     * start, and no request waits for it. */
    gs_cjson_load();

    /* Before any thread exists, so that all of them inherit the mask. */
    block_signals(&set, &all);

    raise_nofile();
    int fd = open_listener(&cfg, addr, sizeof addr, msg, sizeof msg);
    if (fd < 0) {
        fprintf(stderr, "gridsolve serve: %s\n", msg);
        return 1;
    }
    rc = gs_http_init(&h, &cfg, &err);
    if (rc)
        close(fd);
    if (rc || gs_http_start(&h, fd, &err)) {
        fprintf(stderr, "gridsolve serve: %s\n", err.detail);
        gs_http_free(&h);
        return 1;
    }
    /* Ready before announcing it: a client that reacts to the line must
     * find /readyz 200. */
    atomic_store(&h.ready, 1);
    announce(&h, &cfg, addr);

    int sig = wait_stop(&all);
    gs_log_note("info", "%s received", sig == SIGINT ? "SIGINT" : "SIGTERM");
    if (!drain(&h, &cfg, &set)) {
        gs_http_flush_log(&h); /* no line is lost on this exit either */
        return 1; /* stopping MHD now would be undefined; just exit */
    }
    gs_http_free(&h);
    gs_log_note("info", "stopped");
    return 0;
}
