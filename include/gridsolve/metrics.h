/* metrics.h - counters behind GET /metrics (Prometheus text format 0.0.4).
 *
 * Requests by route, puzzle and status code; solves by puzzle and result;
 * a solve-latency histogram and states expanded per puzzle. Gauges (queue
 * depth, busy workers, readiness) are sampled by the caller at scrape time;
 * gridsolve_build_info carries the version and commit. All calls are
 * thread-safe.
 */
#ifndef GRIDSOLVE_METRICS_H
#define GRIDSOLVE_METRICS_H

#include <stdbool.h>
#include <stdint.h>

#include "gridsolve/buf.h"
#include "gridsolve/service.h"

/* Route label of a request. */
enum gs_route {
    GS_ROUTE_SOLVE = 0,
    GS_ROUTE_PUZZLES,
    GS_ROUTE_HEALTHZ,
    GS_ROUTE_READYZ,
    GS_ROUTE_METRICS,
    GS_ROUTE_OPENAPI,
    GS_ROUTE_VERSION,
    GS_ROUTE_INDEX, /* the web playground at / */
    GS_ROUTE_OTHER, /* unknown paths */
    GS_ROUTE_COUNT
};

/* The label value of a route, e.g. "/solve/{puzzle}". */
const char *gs_route_label(enum gs_route r);

typedef struct gs_metrics gs_metrics;

/* Values sampled at scrape time. */
typedef struct gs_metrics_gauges {
    unsigned queued, capacity, busy, workers;
    bool ready;
    unsigned fast_pending; /* fast lane (pool.h): attempts waiting or running */
    uint64_t requeued;     /* fast attempts moved to the workers so far */
    unsigned connections, max_connections;
} gs_metrics_gauges;

/* GS_OK or GS_ENOMEM. */
int gs_metrics_new(gs_metrics **out);
void gs_metrics_free(gs_metrics *m);

/* Counts one answered request. `puzzle` indexes gs_puzzles (solve route)
 * or is -1; status is the HTTP status sent. */
void gs_metrics_request(gs_metrics *m, enum gs_route route, int puzzle,
                        int status);

/* Records one solve that ran on a worker: info when it succeeded (ok),
 * else only its duration under the "error" result. */
void gs_metrics_solve(gs_metrics *m, int puzzle, bool ok,
                      const gs_solve_info *info, double seconds);

/* Counts a solve whose client hung up (queued or running) under the
 * "abandoned" result. */
void gs_metrics_abandoned(gs_metrics *m, int puzzle);

/* Counts a connection the server closed for its header deadline, or
 * (slow_body) for sending its body under the minimum rate. */
void gs_metrics_conn_killed(gs_metrics *m, bool slow_body);

/* Counts the open connections reaching --max-connections (reached), or
 * a connection refused at the per-address limit. */
void gs_metrics_conn_limit(gs_metrics *m, bool reached);

/* Appends the exposition text to out; GS_OK or GS_ENOMEM. */
int gs_metrics_render(gs_metrics *m, const gs_metrics_gauges *g, gs_buf *out);

#endif
