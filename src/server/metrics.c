/* metrics.c - Prometheus counters and histogram (see metrics.h).
 *
 * Counters are dense arrays indexed by route, puzzle and status code, of
 * atomic words bumped with relaxed adds: a request touches a few words
 * and takes no lock (the I/O threads count every request), and a scrape
 * renders them without any allocation beyond the output buffer. Each
 * histogram is rendered self-consistent: its count is its +Inf bucket.
 *
 * The per-request counters come in SHARDS copies, one per thread (round
 * robin): two I/O threads bumping the same word would pass its cache line
 * back and forth on every request. A scrape sums the shards.
 */
#include <math.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/mem.h"
#include "gridsolve/metrics.h"
#include "gridsolve/puzzle.h"
#include "gridsolve/version.h"

#define CODE_MIN 100
#define CODE_SPAN 500 /* status codes 100..599 */

static const double bucket_le[] = {0.001, 0.0025, 0.005, 0.01, 0.025,
                                   0.05,  0.1,    0.25,  0.5,  1,
                                   2.5,   5,      10,    30,   60};
#define NBUCKETS (sizeof bucket_le / sizeof bucket_le[0])

enum {
    RES_SOLVED,
    RES_IMPOSSIBLE,
    RES_LIMIT,
    RES_ERROR,
    RES_ABANDONED, /* the client hung up; never answered */
    RES_COUNT
};
static const char *const result_label[RES_COUNT] = {
    "solved", "impossible", "limit", "error", "abandoned"};

typedef _Atomic uint64_t counter;

typedef struct puzzle_stats {
    counter results[RES_COUNT];
    counter buckets[NBUCKETS + 1]; /* last: above every bound (+Inf) */
    counter sum_ns;                /* the durations' sum, in nanoseconds */
    counter expanded;
} puzzle_stats;

#define SHARDS 8
#define SHARD_ALIGN 128 /* two cache lines: no false sharing between shards */

struct gs_metrics {
    size_t npuzzles;
    size_t nslots; /* of one shard's requests */
    /* [shard][route][puzzle + 1][code - CODE_MIN]; puzzle -1 is slot 0. */
    counter *requests;
    size_t stats_stride;  /* bytes from one shard's puzzle_stats to the next */
    unsigned char *stats; /* SHARDS arrays of npuzzles puzzle_stats */
    counter header_timeouts, slow_bodies, conn_rejected, conn_limit_hits;
};

/* This thread's shard, assigned on its first count. */
static size_t my_shard(void)
{
    static atomic_uint next;
    static _Thread_local unsigned shard = UINT32_MAX;

    if (shard == UINT32_MAX)
        shard =
            atomic_fetch_add_explicit(&next, 1, memory_order_relaxed) % SHARDS;
    return shard;
}

static puzzle_stats *stats_of(gs_metrics *m, size_t shard, int puzzle)
{
    return (puzzle_stats *)(m->stats + shard * m->stats_stride) + puzzle;
}

static void bump(counter *c, uint64_t n)
{
    atomic_fetch_add_explicit(c, n, memory_order_relaxed);
}

static unsigned long long get(counter *c)
{
    return (unsigned long long)atomic_load_explicit(c, memory_order_relaxed);
}

static const char *const route_labels[GS_ROUTE_COUNT] = {
    "/solve/{puzzle}", "/puzzles", "/healthz", "/readyz", "/metrics",
    "/openapi.yaml",   "/version", "/",        "other"};

const char *gs_route_label(enum gs_route r)
{
    return (unsigned)r < GS_ROUTE_COUNT ? route_labels[r] : "other";
}

/* Appends s as a label value: backslash, quote and newline escaped, as
 * the text format requires. */
static void label_value(gs_buf *out, const char *s)
{
    for (; *s; s++) {
        if (*s == '\\' || *s == '"')
            gs_buf_printf(out, "\\%c", *s);
        else if (*s == '\n')
            gs_buf_puts(out, "\\n");
        else
            gs_buf_append(out, s, 1);
    }
}

/* The conventional build-info gauge: constant 1, the build in labels, so
 * dashboards can tell which version each replica runs. */
static void render_build_info(gs_buf *out)
{
    gs_buf_puts(out, "# HELP gridsolve_build_info The running build: "
                     "version and git commit.\n"
                     "# TYPE gridsolve_build_info gauge\n"
                     "gridsolve_build_info{version=\"");
    label_value(out, gs_version());
    gs_buf_puts(out, "\",commit=\"");
    label_value(out, gs_commit_label());
    gs_buf_puts(out, "\"} 1\n");
}

int gs_metrics_new(gs_metrics **out)
{
    gs_metrics *m = calloc(1, sizeof *m);

    *out = NULL;
    if (!m)
        return GS_ENOMEM;
    m->npuzzles = gs_puzzle_count;
    m->nslots = (size_t)GS_ROUTE_COUNT * (m->npuzzles + 1) * CODE_SPAN;
    m->requests = calloc(SHARDS * m->nslots, sizeof *m->requests);
    size_t one = (m->npuzzles ? m->npuzzles : 1) * sizeof(puzzle_stats);
    m->stats_stride = (one + SHARD_ALIGN - 1) / SHARD_ALIGN * SHARD_ALIGN;
    m->stats = aligned_alloc(SHARD_ALIGN, SHARDS * m->stats_stride);
    /* Zero bytes are zero counters (lock-free 64-bit atomics are plain
     * words). */
    if (!m->requests || !m->stats) {
        free(m->requests);
        free(m->stats);
        free(m);
        return GS_ENOMEM;
    }
    memset(m->stats, 0, SHARDS * m->stats_stride);
    *out = m;
    return GS_OK;
}

void gs_metrics_free(gs_metrics *m)
{
    if (!m)
        return;
    free(m->requests);
    free(m->stats);
    free(m);
}

static counter *request_slot(gs_metrics *m, size_t shard, int route, int puzzle,
                             int code)
{
    size_t p = (size_t)(puzzle + 1);
    return &m->requests[shard * m->nslots +
                        ((size_t)route * (m->npuzzles + 1) + p) * CODE_SPAN +
                        (size_t)(code - CODE_MIN)];
}

/* A request counter summed over the shards. */
static unsigned long long request_count(gs_metrics *m, int route, int puzzle,
                                        int code)
{
    unsigned long long n = 0;
    for (size_t s = 0; s < SHARDS; s++)
        n += get(request_slot(m, s, route, puzzle, code));
    return n;
}

/* A puzzle's counter at `field` (an offset into puzzle_stats) summed
 * over the shards. */
static unsigned long long stat_sum(gs_metrics *m, int puzzle, size_t field)
{
    unsigned long long n = 0;
    for (size_t s = 0; s < SHARDS; s++)
        n += get((counter *)((unsigned char *)stats_of(m, s, puzzle) + field));
    return n;
}

void gs_metrics_request(gs_metrics *m, enum gs_route route, int puzzle,
                        int status)
{
    if ((unsigned)route >= GS_ROUTE_COUNT || status < CODE_MIN ||
        status >= CODE_MIN + CODE_SPAN)
        return;
    if (puzzle < -1 || puzzle >= (int)m->npuzzles)
        puzzle = -1;
    bump(request_slot(m, my_shard(), route, puzzle, status), 1);
}

void gs_metrics_solve(gs_metrics *m, int puzzle, bool ok,
                      const gs_solve_info *info, double seconds)
{
    size_t b = 0;
    int res = RES_ERROR;

    if (puzzle < 0 || puzzle >= (int)m->npuzzles)
        return;
    if (ok && info) {
        switch (info->status) {
        case GS_SOLVED:
            res = RES_SOLVED;
            break;
        case GS_IMPOSSIBLE:
            res = RES_IMPOSSIBLE;
            break;
        default:
            res = RES_LIMIT;
            break;
        }
    }
    while (b < NBUCKETS && seconds > bucket_le[b])
        b++;
    puzzle_stats *ps = stats_of(m, my_shard(), puzzle);
    bump(&ps->results[res], 1);
    bump(&ps->buckets[b], 1);
    if (seconds > 0)
        bump(&ps->sum_ns, (uint64_t)(seconds * 1e9 + 0.5));
    if (ok && info)
        bump(&ps->expanded, info->expanded);
}

void gs_metrics_abandoned(gs_metrics *m, int puzzle)
{
    if (puzzle < 0 || puzzle >= (int)m->npuzzles)
        return;
    bump(&stats_of(m, my_shard(), puzzle)->results[RES_ABANDONED], 1);
}

void gs_metrics_conn_killed(gs_metrics *m, bool slow_body)
{
    bump(slow_body ? &m->slow_bodies : &m->header_timeouts, 1);
}

void gs_metrics_conn_limit(gs_metrics *m, bool reached)
{
    bump(reached ? &m->conn_limit_hits : &m->conn_rejected, 1);
}

/* The connection counters. */
static void render_connections(gs_metrics *m, gs_buf *out)
{
    gs_buf_printf(out,
                  "# HELP gridsolve_connections_closed_total Connections "
                  "the server closed, by reason.\n"
                  "# TYPE gridsolve_connections_closed_total counter\n"
                  "gridsolve_connections_closed_total{reason=\"header_"
                  "timeout\"} %llu\n"
                  "gridsolve_connections_closed_total{reason=\"slow_body\"}"
                  " %llu\n"
                  "# HELP gridsolve_connections_rejected_total Connections "
                  "refused at --max-connections-per-ip.\n"
                  "# TYPE gridsolve_connections_rejected_total counter\n"
                  "gridsolve_connections_rejected_total %llu\n"
                  "# HELP gridsolve_connection_limit_reached_total Times the "
                  "open connections reached --max-connections (new ones "
                  "then wait in the listen backlog).\n"
                  "# TYPE gridsolve_connection_limit_reached_total counter\n"
                  "gridsolve_connection_limit_reached_total %llu\n",
                  get(&m->header_timeouts), get(&m->slow_bodies),
                  get(&m->conn_rejected), get(&m->conn_limit_hits));
}

static void render_requests(gs_metrics *m, gs_buf *out)
{
    gs_buf_puts(out, "# HELP gridsolve_http_requests_total HTTP requests "
                     "answered, by route, puzzle and status code.\n"
                     "# TYPE gridsolve_http_requests_total counter\n");
    for (int r = 0; r < GS_ROUTE_COUNT; r++) {
        for (int p = -1; p < (int)m->npuzzles; p++) {
            for (int c = CODE_MIN; c < CODE_MIN + CODE_SPAN; c++) {
                unsigned long long n = request_count(m, r, p, c);
                if (!n)
                    continue;
                gs_buf_printf(out, "gridsolve_http_requests_total{route=\"%s\"",
                              route_labels[r]);
                if (p >= 0)
                    gs_buf_printf(out, ",puzzle=\"%s\"", gs_puzzles[p]->name);
                gs_buf_printf(out, ",code=\"%d\"} %llu\n", c, n);
            }
        }
    }
}

static void render_solves(gs_metrics *m, gs_buf *out)
{
    gs_buf_puts(out, "# HELP gridsolve_solves_total Solves run by a worker, "
                     "by puzzle and result (abandoned: the client hung "
                     "up first).\n"
                     "# TYPE gridsolve_solves_total counter\n");
    for (size_t p = 0; p < m->npuzzles; p++)
        for (int r = 0; r < RES_COUNT; r++)
            gs_buf_printf(out,
                          "gridsolve_solves_total{puzzle=\"%s\",result=\"%s\"} "
                          "%llu\n",
                          gs_puzzles[p]->name, result_label[r],
                          stat_sum(m, (int)p,
                                   offsetof(puzzle_stats, results) +
                                       (size_t)r * sizeof(counter)));

    gs_buf_puts(out, "# HELP gridsolve_solve_duration_seconds Wall time of "
                     "a solve on its worker.\n"
                     "# TYPE gridsolve_solve_duration_seconds histogram\n");
    for (size_t p = 0; p < m->npuzzles; p++) {
        const char *name = gs_puzzles[p]->name;
        unsigned long long cum = 0;
        for (size_t b = 0; b < NBUCKETS; b++) {
            cum +=
                stat_sum(m, (int)p,
                         offsetof(puzzle_stats, buckets) + b * sizeof(counter));
            gs_buf_printf(out,
                          "gridsolve_solve_duration_seconds_bucket{puzzle="
                          "\"%s\",le=\"%g\"} %llu\n",
                          name, bucket_le[b], cum);
        }
        cum += stat_sum(m, (int)p, /* the +Inf bucket: the count */
                        offsetof(puzzle_stats, buckets) +
                            NBUCKETS * sizeof(counter));
        double sum =
            (double)stat_sum(m, (int)p, offsetof(puzzle_stats, sum_ns)) / 1e9;
        gs_buf_printf(out,
                      "gridsolve_solve_duration_seconds_bucket{puzzle=\"%s\","
                      "le=\"+Inf\"} %llu\n"
                      "gridsolve_solve_duration_seconds_sum{puzzle=\"%s\"} "
                      "%.6f\n"
                      "gridsolve_solve_duration_seconds_count{puzzle=\"%s\"} "
                      "%llu\n",
                      name, cum, name, sum, name, cum);
    }

    gs_buf_puts(out, "# HELP gridsolve_states_expanded_total Search states "
                     "expanded, by puzzle.\n"
                     "# TYPE gridsolve_states_expanded_total counter\n");
    for (size_t p = 0; p < m->npuzzles; p++)
        gs_buf_printf(out,
                      "gridsolve_states_expanded_total{puzzle=\"%s\"} "
                      "%llu\n",
                      gs_puzzles[p]->name,
                      stat_sum(m, (int)p, offsetof(puzzle_stats, expanded)));
}

static void gauge(gs_buf *out, const char *name, const char *help, unsigned v)
{
    gs_buf_printf(out, "# HELP %s %s\n# TYPE %s gauge\n%s %u\n", name, help,
                  name, name, v);
}

/* The process memory budget (mem.h): read from its counters, so nothing
 * needs to be sampled by the caller. */
static void render_memory(gs_buf *out)
{
    gs_buf_printf(out,
                  "# HELP gridsolve_memory_bytes Process memory budget: "
                  "bytes reserved now, what the budget leaves requests (0 = "
                  "none), the most reserved at once.\n"
                  "# TYPE gridsolve_memory_bytes gauge\n"
                  "gridsolve_memory_bytes{kind=\"used\"} %llu\n"
                  "gridsolve_memory_bytes{kind=\"budget\"} %llu\n"
                  "gridsolve_memory_bytes{kind=\"peak\"} %llu\n",
                  (unsigned long long)gs_mem_used(),
                  (unsigned long long)gs_mem_budget(),
                  (unsigned long long)gs_mem_peak());
    gs_buf_printf(out,
                  "# HELP gridsolve_memory_refusals_total Reservations the "
                  "memory budget refused.\n"
                  "# TYPE gridsolve_memory_refusals_total counter\n"
                  "gridsolve_memory_refusals_total %llu\n",
                  (unsigned long long)gs_mem_refused());
}

int gs_metrics_render(gs_metrics *m, const gs_metrics_gauges *g, gs_buf *out)
{
    render_build_info(out);
    render_requests(m, out);
    render_solves(m, out);
    render_connections(m, out);
    gauge(out, "gridsolve_queue_depth", "Solves waiting for a worker.",
          g->queued);
    gauge(out, "gridsolve_queue_capacity", "Solves allowed to wait before 503.",
          g->capacity);
    gauge(out, "gridsolve_workers_busy", "Workers running a solve.", g->busy);
    gauge(out, "gridsolve_workers", "Worker threads.", g->workers);
    gauge(out, "gridsolve_ready", "1 when ready to take solves.",
          g->ready ? 1 : 0);
    gauge(out, "gridsolve_connections", "Open client connections.",
          g->connections);
    gauge(out, "gridsolve_connections_max",
          "Connections allowed at once (--max-connections).",
          g->max_connections);
    gauge(out, "gridsolve_fast_lane_pending",
          "Solves on the fast lane (first attempts), waiting or running.",
          g->fast_pending);
    gs_buf_printf(out,
                  "# HELP gridsolve_fast_lane_requeued_total First attempts "
                  "that ran out of the fast lane's budget and went to the "
                  "workers.\n"
                  "# TYPE gridsolve_fast_lane_requeued_total counter\n"
                  "gridsolve_fast_lane_requeued_total %llu\n",
                  (unsigned long long)g->requeued);
    render_memory(out);
    return gs_buf_status(out);
}
