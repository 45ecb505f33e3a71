/* http.c - routing and libmicrohttpd callbacks for `gridsolve serve`.
 *
 * MHD's single polling thread only does I/O. For POST /solve/{puzzle} the
 * access handler accumulates the body (refusing it with 413 as soon as it
 * is known to be too large), then suspends the connection and queues the
 * solve on the worker pool; the worker stores the response and resumes the
 * connection, and the handler, called again, queues that response. Every
 * other route answers at once from the polling thread.
 *
 * Every response carries X-Request-Id and the CORS headers; every error is
 * problem+json; one log line per request is written when MHD reports the
 * request complete, which is also where metrics are counted.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#include <microhttpd.h>

#include "gridsolve/buf.h"
#include "gridsolve/http.h"
#include "gridsolve/log.h"
#include "gridsolve/puzzle.h"
#include "gridsolve/version.h"

#define REQ_ID_MAX 128
#define PATH_MAX_LOG 256
#define SOLVE_PREFIX "/solve/"
#define ALLOW_GET "GET, HEAD, OPTIONS"
#define ALLOW_POST "POST, OPTIONS"
#define RETRY_AFTER_S "1"

/* Where a request is. READY and WAITING are shared with a worker. */
enum stage {
    ST_READING, /* receiving the body */
    ST_WAITING, /* suspended; a worker owns the request */
    ST_READY,   /* a response is stored, not yet queued */
    ST_SENT     /* handed to MHD */
};

typedef struct req {
    gs_http *h;
    struct MHD_Connection *conn;
    int64_t start_ns;
    char id[REQ_ID_MAX + 1];
    char method[16];
    char path[PATH_MAX_LOG]; /* printable copy, for instance and logs */
    char trace[GS_TRACEPARENT_LEN + 1]; /* valid traceparent, or "" */
    enum gs_route route;
    int puzzle; /* index into gs_puzzles, or -1 */
    bool text;  /* judge mode */
    double q_timeout;
    long long q_states;
    gs_buf body;
    uint64_t received; /* body bytes seen, kept or not */
    bool too_big;
    bool no_mem;  /* the memory budget refused the body: 503 */
    bool pending; /* counted in h->pending */
    atomic_int stage;

    /* The response, once decided. */
    int status;
    char *resp; /* malloc'd unless resp_static */
    size_t resp_len;
    bool resp_static;
    const char *ctype;
    const char *allow;
    const char *etag;  /* ETag of the body, or NULL */
    const char *cache; /* Cache-Control; NULL: no-store */
    bool preflight;
    bool solved; /* info is valid (for the log) */
    gs_solve_info info;
} req;

/* ---- responses ---------------------------------------------------------- */

/* Stores a response body (malloc'd, owned from now on; may be NULL). */
static void set_response(req *r, int status, const char *ctype, char *body,
                         size_t len)
{
    if (!r->resp_static)
        free(r->resp);
    r->status = status;
    r->ctype = ctype;
    r->resp = body;
    r->resp_len = body ? len : 0;
    r->resp_static = false;
}

static void set_buf_response(req *r, int status, const char *ctype, gs_buf *b)
{
    size_t len = 0;
    char *data = gs_buf_take(b, &len);
    set_response(r, status, ctype, data, len);
}

/* A problem+json response for err at this request's path. When even that
 * cannot be allocated the status goes out with an empty body. */
static void set_problem_err(req *r, int status, const gs_error *err)
{
    gs_buf b = GS_BUF_INIT;

    gs_service_problem_json(err, status, r->path, &b);
    if (gs_buf_status(&b)) {
        gs_buf_free(&b);
        set_response(r, status, NULL, NULL, 0);
        return;
    }
    set_buf_response(r, status, "application/problem+json", &b);
}

static void set_problem(req *r, int status, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void set_problem(req *r, int status, const char *fmt, ...)
{
    gs_error err = {0};
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(err.detail, sizeof err.detail, fmt, ap);
    va_end(ap);
    set_problem_err(r, status, &err);
}

static bool add_header(struct MHD_Response *resp, const char *name,
                       const char *value)
{
    return MHD_add_response_header(resp, name, value) == MHD_YES;
}

/* The CORS headers: with "*" any origin may read; with a list, the
 * request's Origin is echoed when it is listed and nothing is granted
 * otherwise, and Vary: Origin tells caches the answer depends on it. */
static bool add_cors(req *r, struct MHD_Response *resp)
{
    const gs_server_config *cfg = r->h->cfg;
    bool any = strcmp(cfg->cors_origin, "*") == 0;
    const char *origin =
        MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, "Origin");

    if (!any && !add_header(resp, "Vary", "Origin"))
        return false;
    if (!gs_config_origin_allowed(cfg->cors_origin, origin))
        return true;
    bool ok =
        add_header(resp, "Access-Control-Allow-Origin", any ? "*" : origin) &&
        add_header(resp, "Access-Control-Expose-Headers",
                   "X-Request-Id, Retry-After");
    if (ok && r->preflight)
        ok = add_header(resp, "Access-Control-Allow-Methods", r->allow) &&
             add_header(resp, "Access-Control-Allow-Headers", cfg->cors_hdrs) &&
             add_header(resp, "Access-Control-Max-Age", "86400");
    return ok;
}

/* The headers every response carries, plus those its kind needs. */
static bool add_headers(req *r, struct MHD_Response *resp)
{
    /* Answers are computed per request: nothing may be cached unless a
     * route says so (the OpenAPI document, with its ETag). */
    bool ok =
        add_header(resp, "X-Request-Id", r->id) && add_cors(r, resp) &&
        add_header(resp, "Cache-Control", r->cache ? r->cache : "no-store");

    if (ok && r->etag)
        ok = add_header(resp, MHD_HTTP_HEADER_ETAG, r->etag);

    if (ok && r->ctype)
        ok = add_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, r->ctype);
    if (ok && r->allow)
        ok = add_header(resp, MHD_HTTP_HEADER_ALLOW, r->allow);
    if (ok && r->status == MHD_HTTP_SERVICE_UNAVAILABLE)
        ok = add_header(resp, MHD_HTTP_HEADER_RETRY_AFTER, RETRY_AFTER_S);
    if (ok && r->route == GS_ROUTE_INDEX) /* the playground: nothing else */
        ok = add_header(resp, "Content-Security-Policy", gs_web_csp);
    return ok;
}

/* Queues the stored response. MHD_NO makes MHD close the connection. */
static enum MHD_Result send_response(req *r)
{
    struct MHD_Response *resp;
    enum MHD_Result ret;

    atomic_store(&r->stage, ST_SENT);
    if (r->resp && !r->resp_static) {
        resp = MHD_create_response_from_buffer(r->resp_len, r->resp,
                                               MHD_RESPMEM_MUST_FREE);
        if (resp)
            r->resp = NULL; /* MHD frees it now */
    } else {
        resp = MHD_create_response_from_buffer(r->resp_len,
                                               r->resp ? r->resp : (char *)"",
                                               MHD_RESPMEM_PERSISTENT);
    }
    if (!resp)
        return MHD_NO;
    if (!add_headers(r, resp)) {
        MHD_destroy_response(resp);
        return MHD_NO;
    }
    ret = MHD_queue_response(r->conn, (unsigned)r->status, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* ---- request setup ------------------------------------------------------ */

/* Copies s into dst (size n), replacing anything but printable ASCII,
 * so logs and problem documents never carry control bytes. */
static void printable_copy(char *dst, size_t n, const char *s)
{
    size_t i = 0;

    for (; s && s[i] && i + 1 < n; i++)
        dst[i] = (s[i] >= 0x20 && s[i] < 0x7f) ? s[i] : '?';
    dst[i] = '\0';
}

/* A client's id is echoed when it is short and printable ASCII; anything
 * else could smuggle bytes into our logs or headers. */
static bool id_is_sane(const char *id)
{
    size_t n = 0;

    if (!id || !*id)
        return false;
    for (; id[n]; n++)
        if (n >= REQ_ID_MAX || id[n] < 0x20 || id[n] > 0x7e)
            return false;
    return true;
}

static void assign_id(req *r)
{
    const char *given =
        MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND, "X-Request-Id");
    if (id_is_sane(given)) {
        snprintf(r->id, sizeof r->id, "%s", given);
        return;
    }
    unsigned long long n = atomic_fetch_add(&r->h->id_seq, 1) + 1;
    snprintf(r->id, sizeof r->id, "%s-%06llx", r->h->id_prefix, n);
}

static req *req_new(gs_http *h, struct MHD_Connection *conn, const char *url,
                    const char *method)
{
    req *r = calloc(1, sizeof *r);

    if (!r)
        return NULL;
    r->h = h;
    r->conn = conn;
    r->start_ns = gs_now_ns();
    r->puzzle = -1;
    r->route = GS_ROUTE_OTHER;
    r->q_timeout = -1;
    r->q_states = -1;
    r->body.budget = 1; /* buffered bodies draw from the memory budget */
    atomic_init(&r->stage, ST_READING);
    printable_copy(r->method, sizeof r->method, method);
    printable_copy(r->path, sizeof r->path, url);
    assign_id(r);
    /* W3C Trace Context: an invalid traceparent is ignored, not refused. */
    if (!gs_traceparent_parse(
            MHD_lookup_connection_value(conn, MHD_HEADER_KIND, "traceparent"),
            r->trace))
        r->trace[0] = '\0';
    return r;
}

static void req_free(req *r)
{
    gs_buf_free(&r->body);
    if (!r->resp_static)
        free(r->resp);
    free(r);
}

/* ---- routing ------------------------------------------------------------ */

static bool is_get(const char *m)
{
    return strcmp(m, MHD_HTTP_METHOD_GET) == 0 ||
           strcmp(m, MHD_HTTP_METHOD_HEAD) == 0;
}

static bool is_options(const char *m)
{
    return strcmp(m, MHD_HTTP_METHOD_OPTIONS) == 0;
}

/* 204 preflight for a route that allows `allow`. */
static void set_preflight(req *r, const char *allow)
{
    r->allow = allow;
    r->preflight = true;
    set_response(r, MHD_HTTP_NO_CONTENT, NULL, NULL, 0);
}

static void set_not_allowed(req *r, const char *allow)
{
    r->allow = allow;
    set_problem(r, MHD_HTTP_METHOD_NOT_ALLOWED,
                "method %s is not allowed on %s; allowed: %s", r->method,
                r->path, allow);
}

/* GET /readyz: 200 only once started and until a drain begins. */
static void answer_readyz(req *r)
{
    gs_http *h = r->h;

    if (atomic_load(&h->draining)) {
        set_problem(r, MHD_HTTP_SERVICE_UNAVAILABLE,
                    "server is draining and takes no new solves");
    } else if (!atomic_load(&h->ready)) {
        set_problem(r, MHD_HTTP_SERVICE_UNAVAILABLE, "server is starting");
    } else {
        static char ok[] = "{\"status\":\"ready\"}\n";
        set_response(r, MHD_HTTP_OK, "application/json", ok, sizeof ok - 1);
        r->resp_static = true;
    }
}

static void answer_metrics(req *r)
{
    gs_http *h = r->h;
    gs_buf b = GS_BUF_INIT;
    gs_metrics_gauges g = {
        .queued = gs_pool_queued(h->pool),
        .capacity = gs_pool_capacity(h->pool),
        .busy = gs_pool_busy(h->pool),
        .workers = gs_pool_workers(h->pool),
        .ready = atomic_load(&h->ready) && !atomic_load(&h->draining),
        .fast_pending = gs_pool_fast_pending(h->pool),
        .requeued = gs_pool_requeued(h->pool),
    };

    if (gs_metrics_render(h->metrics, &g, &b)) {
        gs_buf_free(&b);
        set_problem(r, MHD_HTTP_INTERNAL_SERVER_ERROR,
                    "out of memory rendering metrics");
        return;
    }
    set_buf_response(r, MHD_HTTP_OK, "text/plain; version=0.0.4; charset=utf-8",
                     &b);
}

/* GET /version: {"name", "version", "commit"}; commit "unknown" when the
 * build did not know it, so the field is always a string. */
static void answer_version(req *r)
{
    const char *commit = gs_commit();
    cJSON *o = cJSON_CreateObject();
    bool ok =
        o && cJSON_AddStringToObject(o, "name", "gridsolve") &&
        cJSON_AddStringToObject(o, "version", gs_version()) &&
        cJSON_AddStringToObject(o, "commit", commit[0] ? commit : "unknown");
    char *text = ok ? cJSON_PrintUnformatted(o) : NULL;
    gs_buf b = GS_BUF_INIT;

    cJSON_Delete(o);
    if (text) {
        gs_buf_puts(&b, text);
        gs_buf_puts(&b, "\n");
        cJSON_free(text); /* cJSON's allocator: the memory budget's */
    }
    if (!text || gs_buf_status(&b)) {
        gs_buf_free(&b);
        set_problem(r, MHD_HTTP_INTERNAL_SERVER_ERROR,
                    "out of memory writing the version");
        return;
    }
    set_buf_response(r, MHD_HTTP_OK, "application/json", &b);
}

static void answer_static(req *r, int status, const char *ctype,
                          const char *body, size_t len)
{
    set_response(r, status, ctype, (char *)body, len);
    r->resp_static = true;
}

/* Answers a GET or HEAD of a document built into the binary, tagged with
 * its strong etag (computed once, at start) and cacheable as
 * cache_control says: 304 without a body when If-None-Match holds the
 * tag, else 200 with the body. For /openapi.yaml, and any other static
 * page (a web playground). */
static void answer_cached(req *r, const char *ctype, const char *body,
                          size_t len, const char *etag,
                          const char *cache_control)
{
    const char *inm = MHD_lookup_connection_value(
        r->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_IF_NONE_MATCH);

    r->etag = etag;
    r->cache = cache_control;
    if (gs_etag_matches(inm, etag))
        answer_static(r, MHD_HTTP_NOT_MODIFIED, NULL, NULL, 0);
    else
        answer_static(r, MHD_HTTP_OK, ctype, body, len);
}

/* The GET-only routes. Returns true when url is one of them. */
static bool route_get(req *r, const char *url, const char *method)
{
    static const struct {
        const char *path;
        enum gs_route route;
    } routes[] = {
        {"/healthz", GS_ROUTE_HEALTHZ},
        {"/readyz", GS_ROUTE_READYZ},
        {"/puzzles", GS_ROUTE_PUZZLES},
        {"/metrics", GS_ROUTE_METRICS},
        {"/openapi.yaml", GS_ROUTE_OPENAPI},
        {"/version", GS_ROUTE_VERSION},
        {"/", GS_ROUTE_INDEX},
    };
    static const char healthy[] = "{\"status\":\"ok\"}\n";
    size_t i = 0, n = sizeof routes / sizeof routes[0];

    while (i < n && strcmp(url, routes[i].path) != 0)
        i++;
    if (i == n)
        return false;
    r->route = routes[i].route;
    if (is_options(method)) {
        set_preflight(r, ALLOW_GET);
        return true;
    }
    if (!is_get(method)) {
        set_not_allowed(r, ALLOW_GET);
        return true;
    }
    switch (r->route) {
    case GS_ROUTE_HEALTHZ:
        answer_static(r, MHD_HTTP_OK, "application/json", healthy,
                      sizeof healthy - 1);
        break;
    case GS_ROUTE_READYZ:
        answer_readyz(r);
        break;
    case GS_ROUTE_PUZZLES:
        answer_static(r, MHD_HTTP_OK, "application/json", r->h->puzzles_json,
                      r->h->puzzles_len);
        break;
    case GS_ROUTE_METRICS:
        answer_metrics(r);
        break;
    case GS_ROUTE_VERSION:
        answer_version(r);
        break;
    case GS_ROUTE_INDEX:
        /* Revalidated on every load (the ETag makes that cheap), so a new
         * build's page is never stale. */
        answer_cached(r, "text/html; charset=utf-8", gs_web_index_html,
                      gs_web_index_len, r->h->index_etag, "no-cache");
        break;
    default:
        if (gs_openapi_yaml_len == 0) {
            set_problem(r, MHD_HTTP_NOT_FOUND,
                        "api/openapi.yaml was not embedded in this build");
            break;
        }
        /* Changes only with a new build: clients may keep it for five
         * minutes, then revalidate cheaply with the ETag. */
        answer_cached(r, "application/yaml", gs_openapi_yaml,
                      gs_openapi_yaml_len, r->h->openapi_etag,
                      "public, max-age=300");
        break;
    }
    return true;
}

/* True when the media type of a Content-Type value (before any ';'
 * parameters, case-insensitively, surrounding blanks ignored) is `want`. */
static bool media_type_is(const char *value, const char *want)
{
    size_t n = strlen(want);

    while (*value == ' ' || *value == '\t')
        value++;
    if (strncasecmp(value, want, n) != 0)
        return false;
    value += n;
    while (*value == ' ' || *value == '\t')
        value++;
    return *value == '\0' || *value == ';';
}

/* Reads the judge-mode query options. False with a 400 stored. */
static bool read_query(req *r)
{
    const char *t = MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND,
                                                "timeout_ms");
    const char *m = MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND,
                                                "max_states");
    char *end;

    if (t) {
        errno = 0;
        double v = strtod(t, &end);
        if (!*t || *end || errno || !isfinite(v) || v < 0) {
            set_problem(r, MHD_HTTP_BAD_REQUEST,
                        "query parameter timeout_ms must be a number >= 0, "
                        "got '%.64s'",
                        t);
            return false;
        }
        r->q_timeout = v;
    }
    if (m) {
        errno = 0;
        unsigned long long v = strtoull(m, &end, 10);
        if (!isdigit((unsigned char)*m) || *end || v < 1) {
            set_problem(r, MHD_HTTP_BAD_REQUEST,
                        "query parameter max_states must be an integer >= 1, "
                        "got '%.64s'",
                        m);
            return false;
        }
        /* Huge values are clamped to the server's ceiling later. */
        r->q_states = (errno == ERANGE || v > (unsigned long long)LLONG_MAX)
                          ? LLONG_MAX
                          : (long long)v;
    }
    return true;
}

/* State of the walk over a request's query parameters. */
typedef struct query_walk {
    req *r;
    const gs_puzzle *p;
    bool bad;
} query_walk;

static enum MHD_Result query_arg(void *cls, enum MHD_ValueKind kind,
                                 const char *key, const char *value)
{
    query_walk *w = cls;
    gs_error err = {0};

    if (gs_service_check_query(w->p, w->r->text, key ? key : "", &err)) {
        set_problem_err(w->r, MHD_HTTP_BAD_REQUEST, &err);
        w->bad = true;
        return MHD_NO; /* stop at the first unknown one */
    }
    return MHD_YES;
}

/* Strict input: every query parameter must be one the mode accepts, so
 * a misspelt option is a 400, not its default. False with a 400 stored. */
static bool check_query(req *r, const gs_puzzle *p)
{
    query_walk w = {r, p, false};

    MHD_get_connection_values(r->conn, MHD_GET_ARGUMENT_KIND, query_arg, &w);
    return !w.bad;
}

/* Appends the registered puzzle names, for a 404's detail. */
static void known_puzzles(char *buf, size_t len)
{
    size_t used = 0;

    buf[0] = '\0';
    for (size_t i = 0; i < gs_puzzle_count && used < len; i++) {
        int n = snprintf(buf + used, len - used, "%s%s", i ? ", " : "",
                         gs_puzzles[i]->name);
        if (n < 0)
            break;
        used += (size_t)n;
    }
}

/* Header checks of POST /solve/{puzzle}. True when the body should be read;
 * false when a response is already stored. */
static bool route_solve(req *r, const char *name, const char *method)
{
    gs_http *h = r->h;
    char names[256];

    r->route = GS_ROUTE_SOLVE;
    const gs_puzzle *p = gs_puzzle_find(name, strlen(name));
    if (!p) {
        known_puzzles(names, sizeof names);
        set_problem(r, MHD_HTTP_NOT_FOUND,
                    "unknown puzzle '%.64s'; known puzzles: %s", name, names);
        return false;
    }
    for (size_t i = 0; i < gs_puzzle_count; i++)
        if (gs_puzzles[i] == p)
            r->puzzle = (int)i;
    if (is_options(method)) {
        set_preflight(r, ALLOW_POST);
        return false;
    }
    if (strcmp(method, MHD_HTTP_METHOD_POST) != 0) {
        set_not_allowed(r, ALLOW_POST);
        return false;
    }
    const char *ct = MHD_lookup_connection_value(r->conn, MHD_HEADER_KIND,
                                                 MHD_HTTP_HEADER_CONTENT_TYPE);
    char shown[96];
    printable_copy(shown, sizeof shown, ct);
    if (!ct) {
        set_problem(r, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE,
                    "missing Content-Type; use application/json (JSON "
                    "mode) or text/plain (judge mode)");
        return false;
    }
    if (media_type_is(ct, "text/plain")) {
        r->text = true;
    } else if (!media_type_is(ct, "application/json")) {
        set_problem(r, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE,
                    "unsupported Content-Type '%s'; use application/json "
                    "(JSON mode) or text/plain (judge mode)",
                    shown);
        return false;
    }
    if (!check_query(r, p) || (r->text && !read_query(r)))
        return false;
    const char *cl = MHD_lookup_connection_value(
        r->conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    if (cl) {
        char *end;
        errno = 0;
        unsigned long long v = strtoull(cl, &end, 10);
        if (errno == ERANGE || (!*end && v > h->cfg->max_body)) {
            set_problem(r, MHD_HTTP_CONTENT_TOO_LARGE,
                        "body of %.32s bytes exceeds the limit of %" PRIu64
                        " bytes",
                        cl, h->cfg->max_body);
            return false;
        }
    }
    if (atomic_load(&h->draining)) {
        set_problem(r, MHD_HTTP_SERVICE_UNAVAILABLE,
                    "server is shutting down and takes no new solves");
        return false;
    }
    return true;
}

/* First call for a request: routes it. True when the body must be read. */
static bool begin(req *r, const char *url, const char *method)
{
    size_t plen = strlen(SOLVE_PREFIX);

    if (strncmp(url, SOLVE_PREFIX, plen) == 0 && url[plen] &&
        !strchr(url + plen, '/'))
        return route_solve(r, url + plen, method);
    if (route_get(r, url, method))
        return false;
    set_problem(r, MHD_HTTP_NOT_FOUND, "no such resource: %s %s", r->method,
                r->path);
    return false;
}

/* ---- solving ------------------------------------------------------------ */

/* Worker thread: runs the service call, stores the response, resumes the
 * connection. After the resume the request belongs to MHD again. On the
 * fast lane (pool.h) it is a probe with a small budget, and a probe that
 * runs out leaves the request untouched for the main lane. */
static enum gs_pool_ret solve_job(void *arg, enum gs_pool_lane lane)
{
    req *r = arg;
    gs_http *h = r->h;
    struct MHD_Connection *conn = r->conn;
    const gs_puzzle *p = gs_puzzles[r->puzzle];
    const char *body = r->body.data ? r->body.data : "";
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    gs_solve_info info = {0};
    int64_t t0 = gs_now_ns();
    gs_solve_opts probe;
    const gs_solve_opts *opts = &h->opts;
    int rc;

    if (lane == GS_POOL_LANE_FAST) {
        if (r->body.len > GS_PROBE_MAX_BODY)
            return GS_POOL_AGAIN;
        gs_solve_opts_probe(&h->opts, &probe);
        opts = &probe;
    }
    if (lane == GS_POOL_LANE_FULL) {
        set_problem(r, MHD_HTTP_SERVICE_UNAVAILABLE,
                    "solve queue is full (%u workers busy, %u waiting); "
                    "retry later",
                    gs_pool_workers(h->pool), gs_pool_capacity(h->pool));
        atomic_store(&r->stage, ST_READY);
        MHD_resume_connection(conn);
        return GS_POOL_DONE;
    }
    if (r->text)
        rc = gs_service_text(p, body, r->body.len, opts, r->q_timeout,
                             r->q_states, &out, &info, &err);
    else
        rc = gs_service_json(p, body, r->body.len, opts, &out, &info, &err);
    if (rc == GS_SERVICE_AGAIN) {
        gs_buf_free(&out);
        return GS_POOL_AGAIN;
    }
    gs_metrics_solve(h->metrics, r->puzzle, rc == GS_OK, &info,
                     (double)(gs_now_ns() - t0) / 1e9);
    gs_buf_free(&r->body);
    if (rc == GS_OK) {
        r->solved = true;
        r->info = info;
        set_buf_response(
            r, MHD_HTTP_OK,
            r->text ? "text/plain; charset=utf-8" : "application/json", &out);
    } else {
        gs_buf_free(&out);
        if (!err.detail[0])
            gs_error_set(&err, rc, "%s", gs_error_title(rc));
        set_problem_err(r, gs_error_http_status(rc), &err);
    }
    atomic_store(&r->stage, ST_READY);
    MHD_resume_connection(conn);
    return GS_POOL_DONE;
}

/* The whole body is in: refuse it, or suspend and hand it to a worker. */
static enum MHD_Result body_complete(req *r)
{
    gs_http *h = r->h;

    if (r->too_big) {
        set_problem(r, MHD_HTTP_CONTENT_TOO_LARGE,
                    "body exceeds the limit of %" PRIu64 " bytes",
                    h->cfg->max_body);
        return send_response(r);
    }
    if (r->no_mem) {
        set_problem(r, MHD_HTTP_SERVICE_UNAVAILABLE,
                    "not enough memory to hold the body now; retry later");
        return send_response(r);
    }
    if (atomic_load(&h->draining)) {
        set_problem(r, MHD_HTTP_SERVICE_UNAVAILABLE,
                    "server is shutting down and takes no new solves");
        return send_response(r);
    }
    /* Suspend before submitting: the worker may resume at once, and
     * resuming a connection that is not suspended is undefined. */
    atomic_store(&r->stage, ST_WAITING);
    r->pending = true;
    atomic_fetch_add(&h->pending, 1);
    MHD_suspend_connection(r->conn);
    int rc = gs_pool_submit_lane(h->pool, solve_job, r);
    if (rc == GS_OK)
        return MHD_YES;
    if (rc == GS_POOL_EFULL)
        set_problem(r, MHD_HTTP_SERVICE_UNAVAILABLE,
                    "solve queue is full (%u workers busy, %u waiting); "
                    "retry later",
                    gs_pool_workers(h->pool), gs_pool_capacity(h->pool));
    else
        set_problem(r, MHD_HTTP_SERVICE_UNAVAILABLE,
                    "server is shutting down and takes no new solves");
    atomic_store(&r->stage, ST_READY);
    MHD_resume_connection(r->conn);
    return MHD_YES;
}

/* Takes one chunk of body. Past the limit the body is dropped and the
 * rest is only counted, so memory stays bounded by max_body. (A declared
 * Content-Length over the limit was refused before reading; libmicrohttpd
 * 0.9.75 cannot queue a response in the middle of a chunked upload, so
 * that 413 goes out when the upload ends, the bytes in between unread
 * into memory.) */
static void body_chunk(req *r, const char *data, size_t n)
{
    uint64_t max = r->h->cfg->max_body;

    r->received += n;
    if (r->too_big || r->no_mem)
        return;
    if (r->received > max) {
        r->too_big = true;
        gs_buf_free(&r->body);
        return;
    }
    gs_buf_append(&r->body, data, n);
    if (gs_buf_status(&r->body)) { /* give the budget back at once */
        r->no_mem = true;
        gs_buf_free(&r->body);
    }
}

/* True when the request announces a body (chunked or a non-zero length). */
static bool has_body(struct MHD_Connection *conn)
{
    const char *cl = MHD_lookup_connection_value(
        conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
    const char *te = MHD_lookup_connection_value(
        conn, MHD_HEADER_KIND, MHD_HTTP_HEADER_TRANSFER_ENCODING);

    if (te)
        return true;
    if (!cl)
        return false;
    while (*cl == '0')
        cl++;
    return *cl != '\0' && *cl != ' ';
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn,
                                  const char *url, const char *method,
                                  const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    gs_http *h = cls;
    req *r = *con_cls;

    if (!r) {
        r = req_new(h, conn, url, method);
        if (!r)
            return MHD_NO; /* no memory even for the context: close */
        *con_cls = r;
        if (begin(r, url, method))
            return MHD_YES; /* read the body */
        /* Answering before the request is complete makes MHD close the
         * connection: right when refusing a body, wasteful otherwise. */
        if (has_body(conn))
            return send_response(r);
        atomic_store(&r->stage, ST_READY);
        return MHD_YES;
    }
    switch (atomic_load(&r->stage)) {
    case ST_READING:
        if (*upload_data_size) {
            body_chunk(r, upload_data, *upload_data_size);
            *upload_data_size = 0;
            return MHD_YES;
        }
        return body_complete(r);
    case ST_READY:
        if (*upload_data_size) {
            *upload_data_size = 0; /* a body nobody asked for */
            return MHD_YES;
        }
        return send_response(r);
    default:
        /* Already answered (MHD may still offer trailing body bytes). */
        *upload_data_size = 0;
        return MHD_YES;
    }
}

/* ---- completion: log and metrics --------------------------------------- */

static void log_request(const req *r, enum MHD_RequestTerminationCode toe)
{
    struct timespec now;
    struct tm tm;
    char when[40], line[1024];

    clock_gettime(CLOCK_REALTIME, &now);
    gmtime_r(&now.tv_sec, &tm);
    size_t n = strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(when + n, sizeof when - n, ".%03ldZ", now.tv_nsec / 1000000);
    gs_log_entry e = {
        .time = when,
        .method = r->method,
        .path = r->path,
        .status = r->status,
        .ms = (double)(gs_now_ns() - r->start_ns) / 1e6,
        .id = r->id,
        .result = r->solved ? gs_status_name(r->info.status) : NULL,
        .expanded = r->info.expanded,
        .traceparent = r->trace[0] ? r->trace : NULL,
        .outcome =
            toe == MHD_REQUEST_TERMINATED_COMPLETED_OK ? NULL : "aborted",
    };
    gs_log_format(&e, strcmp(r->h->cfg->log_format, "json") == 0, line,
                  sizeof line);
    /* One fputs per line: stdio locks the stream, lines never mix. */
    fputs(line, stderr);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    gs_http *h = cls;
    req *r = *con_cls;

    if (!r)
        return;
    *con_cls = NULL;
    if (r->status)
        gs_metrics_request(h->metrics, r->route, r->puzzle, r->status);
    log_request(r, toe);
    if (r->pending)
        atomic_fetch_sub(&h->pending, 1);
    req_free(r);
}

/* MHD's own diagnostics (bad requests it rejects itself, socket errors). */
static void on_mhd_log(void *cls, const char *fmt, va_list ap)
{
    char msg[512];

    vsnprintf(msg, sizeof msg, fmt, ap);
    msg[strcspn(msg, "\n")] = '\0';
    fprintf(stderr, "gridsolve: http: %s\n", msg);
}

/* ---- lifecycle ---------------------------------------------------------- */

/* A per-process random prefix for generated request ids. */
static void make_id_prefix(gs_http *h)
{
    uint32_t v;

    if (getrandom(&v, sizeof v, GRND_NONBLOCK) != (ssize_t)sizeof v)
        v = (uint32_t)time(NULL) ^ ((uint32_t)getpid() << 16) ^
            (uint32_t)gs_now_ns();
    snprintf(h->id_prefix, sizeof h->id_prefix, "%08" PRIx32, v);
}

int gs_http_init(gs_http *h, const gs_server_config *cfg, gs_error *err)
{
    gs_buf b = GS_BUF_INIT;
    int rc;

    memset(h, 0, sizeof *h);
    h->cfg = cfg;
    atomic_init(&h->ready, 0);
    atomic_init(&h->draining, 0);
    atomic_init(&h->cancel, 0);
    atomic_init(&h->pending, 0);
    atomic_init(&h->id_seq, 0);
    make_id_prefix(h);

    gs_solve_opts_default(&h->opts);
    h->opts.timeout_ms = (double)cfg->timeout_ms;
    h->opts.max_timeout_ms = (double)cfg->max_timeout_ms;
    h->opts.max_states = cfg->max_states;
    h->opts.max_states_limit = cfg->max_states_limit;
    h->opts.max_solve_bytes = cfg->max_solve_memory;
    h->opts.caps.max_cells = cfg->max_cells;
    h->opts.cancel = &h->cancel;

    rc = gs_metrics_new(&h->metrics);
    if (rc)
        return gs_error_set(err, rc, "cannot allocate metrics");
    rc = gs_pool_new((unsigned)cfg->workers, (unsigned)cfg->queue, &h->pool);
    if (rc)
        return gs_error_set(err, rc, "cannot start %" PRIu64 " workers",
                            cfg->workers);
    rc = gs_service_puzzles_json(&b);
    if (rc) {
        gs_buf_free(&b);
        return gs_error_set(err, rc, "cannot build the puzzle list");
    }
    h->puzzles_json = gs_buf_take(&b, &h->puzzles_len);
    gs_etag_make(gs_openapi_yaml, gs_openapi_yaml_len, h->openapi_etag);
    gs_etag_make(gs_web_index_html, gs_web_index_len, h->index_etag);
    return GS_OK;
}

int gs_http_start(gs_http *h, int listen_fd, gs_error *err)
{
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD |
                     MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC | MHD_USE_ERROR_LOG;

    flags |= MHD_is_feature_supported(MHD_FEATURE_EPOLL) == MHD_YES
                 ? MHD_USE_EPOLL
                 : MHD_USE_POLL;
    h->daemon = MHD_start_daemon(
        flags, 0, NULL, NULL, on_request, h, MHD_OPTION_EXTERNAL_LOGGER,
        on_mhd_log, NULL, MHD_OPTION_LISTEN_SOCKET, listen_fd,
        MHD_OPTION_NOTIFY_COMPLETED, on_completed, h,
        MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30, MHD_OPTION_END);
    if (!h->daemon)
        return gs_error_set(err, GS_EINTERNAL, "libmicrohttpd failed to start");
    return GS_OK;
}

void gs_http_free(gs_http *h)
{
    if (h->daemon)
        MHD_stop_daemon(h->daemon);
    h->daemon = NULL;
    gs_pool_free(h->pool);
    h->pool = NULL;
    gs_metrics_free(h->metrics);
    h->metrics = NULL;
    free(h->puzzles_json);
    h->puzzles_json = NULL;
}
