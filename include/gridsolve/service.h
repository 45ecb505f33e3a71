/* service.h - request-level logic shared by the server and the CLI.
 *
 * Turns a request body into a response body: JSON mode (one instance, a
 * JSON response) or judge text mode (many cases, the classic output). No
 * HTTP here; callers map a returned error to a status via error.h.
 */
#ifndef GRIDSOLVE_SERVICE_H
#define GRIDSOLVE_SERVICE_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gridsolve/buf.h"
#include "gridsolve/error.h"
#include "gridsolve/puzzle.h"

/* The budget of a first, cheap attempt at a request (the server's fast
 * lane, pool.h). Each bound tightens the request's own; all 0: not a probe.
 * A probe that stops at a bound it tightened is not answered: the caller
 * runs the request again with full limits (GS_SERVICE_AGAIN). */
typedef struct gs_probe {
    double timeout_ms;
    uint64_t max_states;
    uint64_t max_bytes;
} gs_probe;

#define GS_PROBE_TIMEOUT_MS 20.0
#define GS_PROBE_MAX_STATES 200000ull
#define GS_PROBE_MAX_BYTES (16ull * 1024 * 1024)
/* Larger bodies skip the probe: parsing alone could take longer than it. */
#define GS_PROBE_MAX_BODY (64u * 1024)

/* Returned (> 0, not an error) by a probe that ran out of its budget. */
#define GS_SERVICE_AGAIN 1

/* Limits a request may ask for, and the ceilings the server clamps to. */
typedef struct gs_solve_opts {
    double timeout_ms;         /* default deadline of one request */
    double max_timeout_ms;     /* ceiling for a requested timeout_ms */
    uint64_t max_states;       /* default state cap */
    uint64_t max_states_limit; /* ceiling for a requested max_states */
    uint64_t max_solve_bytes;  /* memory budget of one solve's states */
    gs_caps caps;
    const atomic_int *cancel; /* may be NULL */
    gs_progress *progress;    /* live counters of the solve; may be NULL */
    gs_probe probe;           /* all 0 unless a first attempt */
    const char *text_format;  /* judge text notation asked for (the
                                 `format` query option), NULL = detect */
} gs_solve_opts;

/* Defaults used by the CLI and the server before configuration. */
void gs_solve_opts_default(gs_solve_opts *o);

/* The options of a probe of a request that `full` would run: the same,
 * with the GS_PROBE_* budget. */
void gs_solve_opts_probe(const gs_solve_opts *full, gs_solve_opts *probe);

/* What a solve produced, for logs and metrics. */
typedef struct gs_solve_info {
    enum gs_status status; /* text mode: limit if any case hit one */
    uint64_t expanded;     /* summed over cases */
    double elapsed_ms;
    int64_t end_ns; /* gs_now_ns() as the last solve ended, read there
                       anyway (a caller timing the call need not read the
                       clock again); 0 when no solve ran */
} gs_solve_info;

/* JSON mode: parses body (len bytes), solves, writes the response JSON to
 * out. The body's "limits" object is clamped to opts. Returns GS_OK, an
 * error with err filled (400/422/500/503 kinds), or with opts->probe set
 * GS_SERVICE_AGAIN (out untouched). */
int gs_service_json(const gs_puzzle *p, const char *body, size_t len,
                    const gs_solve_opts *opts, gs_buf *out, gs_solve_info *info,
                    gs_error *err);

/* Judge text mode: every case of body, one output line each, sharing one
 * deadline. `query_timeout_ms` / `query_max_states` override the defaults
 * when >= 0 (clamped). An input error names the case and line. Returns as
 * gs_service_json; a probe is redone when any case ran out of its budget. */
int gs_service_text(const gs_puzzle *p, const char *body, size_t len,
                    const gs_solve_opts *opts, double query_timeout_ms,
                    long long query_max_states, gs_buf *out,
                    gs_solve_info *info, gs_error *err);

/* Fields every JSON body may hold, and query parameters every judge text
 * request may carry, besides the puzzle's own (NULL-terminated). */
extern const char *const gs_service_common_fields[];
extern const char *const gs_service_common_query[];

/* Checks one query parameter name of a request to p: GS_OK when judge
 * text mode (text) accepts it, else a 400 naming it with the closest
 * known name. JSON mode takes no query parameters (its options are in the
 * body). */
int gs_service_check_query(const gs_puzzle *p, bool text, const char *name,
                           gs_error *err);

/* Checks a judge text notation named by `format` (NULL: detect) against
 * p's text_formats: GS_OK, or a 400 naming the notations p reads. */
int gs_service_check_format(const gs_puzzle *p, const char *format,
                            gs_error *err);

/* The JSON document for GET /puzzles. */
int gs_service_puzzles_json(gs_buf *out);

/* An RFC 9457 problem+json body for err at `instance` (the request path). */
void gs_service_problem_json(const gs_error *err, int http_status,
                             const char *instance, gs_buf *out);

/* Room for gs_service_problem_fallback's document. */
#define GS_PROBLEM_FALLBACK_MAX 512

/* The same document written into buf (len bytes, at least
 * GS_PROBLEM_FALLBACK_MAX) without allocating, for when the memory
 * budget refuses gs_service_problem_json: the detail and the instance
 * keep printable ASCII only (any other byte becomes '?') and are cut to
 * fit. Returns the document's length. */
size_t gs_service_problem_fallback(const gs_error *err, int http_status,
                                   const char *instance, char *buf, size_t len);

#endif
