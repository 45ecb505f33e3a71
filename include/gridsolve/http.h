/* http.h - the HTTP front end of `gridsolve serve`: routing, libmicrohttpd
 * callbacks, CORS, request ids, logging. Solves run on the gs_pool; the
 * server lifecycle (signals, drain) is in server.c.
 */
#ifndef GRIDSOLVE_HTTP_H
#define GRIDSOLVE_HTTP_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

#include "gridsolve/config.h"
#include "gridsolve/conns.h"
#include "gridsolve/error.h"
#include "gridsolve/etag.h"
#include "gridsolve/metrics.h"
#include "gridsolve/pool.h"
#include "gridsolve/service.h"

struct MHD_Daemon;

/* api/openapi.yaml, embedded at build time ($(BUILD)/gen/openapi.c). */
extern const char gs_openapi_yaml[];
extern const size_t gs_openapi_yaml_len;

/* The web playground page served at GET / (web/, embedded by
 * web/embed.sh) and the Content-Security-Policy its inline code needs. */
extern const char gs_web_index_html[];
extern const size_t gs_web_index_len;
extern const char gs_web_csp[];

/* Shards of the per-request counters touched by every I/O thread. */
#define GS_HTTP_SHARDS 8
/* Generated request ids a thread takes at a time (format_id). */
#define GS_HTTP_ID_BLOCK 64

typedef struct gs_http {
    const gs_server_config *cfg;
    gs_solve_opts opts; /* template: each solve gets a copy with its own
                           cancel flag and progress counters */
    gs_pool *pool;
    gs_metrics *metrics;
    struct gs_logq *logq; /* request log lines, batched (logq.h) */
    gs_conns *conns;      /* connection watcher: deadlines, hang-ups, ticks */
    struct gs_gate *gate; /* accepts, screens first heads (gate.h) */
    struct MHD_Daemon *daemon;
    unsigned max_connections; /* effective limit */
    unsigned io_threads;      /* MHD's polling threads */
    atomic_int ready;         /* /readyz 200 */
    atomic_int draining;      /* solves refused with 503, Connection: close */
    atomic_int cancel;        /* drain: no queued solve starts any more */
    /* Accepted solves not yet answered (gs_http_pending): a counter per
     * shard of threads, on its own cache line, so that the I/O threads
     * do not pass one line back and forth twice a request. */
    struct {
        _Alignas(64) atomic_long n;
    } pending[GS_HTTP_SHARDS];
    char *puzzles_json; /* GET /puzzles, built once */
    size_t puzzles_len;
    bool log_json;        /* --log-format json */
    bool cors_any;        /* --cors-origin "*" */
    bool mhd_doubles_400; /* libmicrohttpd < 1.0: see answer_bad_length */
    char id_prefix[9];    /* random per process: ids stay unique */
    atomic_ullong id_seq; /* taken GS_HTTP_ID_BLOCK at a time per thread */
    /* Validator of GET /openapi.yaml, made once at start. */
    char openapi_etag[GS_ETAG_MAX];
    char index_etag[GS_ETAG_MAX]; /* GET /, the playground */
} gs_http;

/* Builds the pool, metrics and cached documents for cfg (which must
 * outlive h). GS_OK or an error with err filled. */
int gs_http_init(gs_http *h, const gs_server_config *cfg, gs_error *err);

/* Starts serving on an already listening socket, which it owns from now
 * on (closed on failure too). */
int gs_http_start(gs_http *h, int listen_fd, gs_error *err);

/* Accepted solves not yet answered. */
long gs_http_pending(gs_http *h);

/* Drain, at the end of the grace period: cancels every solve in flight
 * (running ones answer `limit`, queued ones 503). */
void gs_http_cancel_all(gs_http *h);

/* Drain: closes idle keep-alive connections cleanly (FIN, never a
 * reset). The listener stays open: late requests still get a 503. */
void gs_http_close_idle(gs_http *h);

/* End of a drain: stops accepting, closes the connections left idle, and
 * waits up to wait_ms for their clients to close them. */
void gs_http_stop_listening(gs_http *h, long wait_ms);

/* Writes every request log line queued so far (before an exit that
 * skips gs_http_free). */
void gs_http_flush_log(gs_http *h);

/* Stops the daemon (no suspended connection may remain: drain first) and
 * frees everything gs_http_init built. Safe on a partly built h. */
void gs_http_free(gs_http *h);

#endif
