/* http.c - routing and libmicrohttpd callbacks for `gridsolve serve`.
 *
 * MHD runs one polling thread per core (a thread pool with epoll); each
 * connection belongs to one of them. Those threads only do I/O, plus
 * solves of bounded, tiny cost. For POST /solve/{puzzle} the access
 * handler accumulates the body (refusing it with 413 as soon as it is
 * known to be too large), then first tries the solve itself under a
 * budget of about a millisecond (run_inline), which answers most small
 * requests without any hand-off. A request that needs more suspends its
 * connection and is queued on the worker pool; the worker stores the
 * response and resumes the connection, and the handler, called again,
 * queues that response. Every other route answers at once.
 *
 * Around that: the gate (gate.h) accepts connections and screens their
 * first request head; the watcher (conns.h) applies header and body
 * deadlines and, while a solve is suspended, polls its socket, so a
 * client that hangs up cancels its solve (request stages below). With
 * Accept: text/event-stream the answer is a stream (stream.h) of progress
 * events, fed by the watcher, and a final result event from the worker.
 *
 * Every response carries X-Request-Id and the CORS headers; every error is
 * problem+json. Metrics are counted when an answer is queued (or at the
 * end when none was), and one log line per request is queued to the
 * batched log writer (logq.h) when MHD reports the request complete.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "gridsolve/buf.h"
#include "gridsolve/conns.h"
#include "gridsolve/gate.h"
#include "gridsolve/http.h"
#include "gridsolve/log.h"
#include "gridsolve/logq.h"
#include "gridsolve/mem.h"
#include "gridsolve/mhd.h" /* libmicrohttpd, loaded by gs_http_start */
#include "gridsolve/puzzle.h"
#include "gridsolve/stream.h"
#include "gridsolve/version.h"

#define REQ_ID_MAX 128
#define PATH_MAX_LOG 256
#define SOLVE_PREFIX "/solve/"
#define ALLOW_GET "GET, HEAD, OPTIONS"
#define ALLOW_POST "POST, OPTIONS"
#define ALLOW_ANY "GET, HEAD, POST, OPTIONS" /* OPTIONS *: every route's */
#define RETRY_AFTER_S "1"
#define IDLE_TIMEOUT_S 30 /* keep-alive idle, and MHD's inactivity timeout */
#define WATCH_TICK_MS 20  /* hang-ups are seen within about this */
#define FD_RESERVE 64     /* descriptors kept for everything else */
#define ADMIT_WAIT_MS 100 /* a full queue: wait this long for a slot */
#define PROGRESS_MS 250   /* event stream: progress events this often */
#define STREAM_LAG 65536  /* skip progress while this much is unread */
#define IO_THREADS_MAX 16 /* MHD polling threads, at most */
#define LOG_FLUSH_MS 20   /* a request's log line is written within */
/* MHD's memory per connection: it holds a request's head (request line
 * and headers: so at most about 16 KB, Node.js's default limit; a longer
 * one gets MHD's 431) and its read and write buffers, and MHD zeroes all
 * of it after every request. 16 KB instead of MHD's 32 KB default saves
 * about a tenth of the CPU of a tiny solve (make bench-http). */
#define CONN_MEMORY_BYTES 16384
/* Of that, what a first request's head leaves for the answer's headers
 * (the gate's 431 past it): with less, MHD 0.9.75 reads the head, then
 * fails to build the answer's and closes the connection without one. */
#define ANSWER_HEAD_ROOM 2048
/* The budget of a solve on the I/O thread itself (run_inline): about a
 * millisecond at most, parsing included. */
#define INLINE_MAX_BODY 4096
#define INLINE_TIMEOUT_MS 1.0
#define INLINE_MAX_STATES 10000u
#define INLINE_MAX_BYTES (4u * 1024 * 1024)

/* Where a request is. QUEUED..GONE are shared with a worker and the
 * watcher: QUEUED -> RUNNING is the worker's claim, QUEUED -> GONE the
 * watcher's (the client left before a worker took the job); whoever wins
 * resumes the connection. */
enum stage {
    ST_READING, /* receiving the body */
    ST_ADMIT,   /* suspended, waiting for room in the queue */
    ST_QUEUED,  /* suspended, waiting for a worker */
    ST_RUNNING, /* suspended, a worker solves it */
    ST_READY,   /* a response is stored, not yet queued */
    ST_SENT,    /* handed to MHD */
    ST_GONE     /* abandoned by its client: close without answering */
};

/* Values of a request's cancel flag (any non-zero stops its search). */
enum { CANCEL_NONE = 0, CANCEL_GONE = 1, CANCEL_DRAIN = 2 };

/* The request headers this file reads, found in one pass over them
 * (scan_heads): the first of each, as MHD_lookup_connection_value finds
 * it, and for the framing headers their count and the last one. */
typedef struct heads {
    const char *content_length, *transfer_encoding, *content_type, *accept,
        *request_id, *traceparent, *origin, *if_none_match;
    int n_content_length, n_transfer_encoding, n_host;
    const char *last_content_length, *last_transfer_encoding;
    bool bad_name; /* a field name with a blank ("Content-Length :") */
} heads;

typedef struct req {
    gs_http *h;
    struct MHD_Connection *conn;
    gs_conn *cr;       /* the connection's watcher record; may be NULL */
    atomic_int refs;   /* MHD's, plus a queued job's */
    atomic_int cancel; /* this solve's flag, CANCEL_* */
    gs_progress progress;
    int64_t start_ns;
    int64_t admit_until_ns; /* ST_ADMIT: 503 after this */
    char id[REQ_ID_MAX + 1];
    char method[16];
    char path[PATH_MAX_LOG]; /* printable copy, for instance and logs */
    char trace[GS_TRACEPARENT_LEN + 1]; /* valid traceparent, or "" */
    heads hd; /* valid while MHD holds the request (its memory) */
    enum gs_route route;
    int puzzle; /* index into gs_puzzles, or -1 */
    bool text;  /* judge mode */
    double q_timeout;
    long long q_states;
    char q_format[16]; /* judge text notation (`format`), "" = detect */
    gs_buf body;
    uint64_t received; /* body bytes seen, kept or not */
    bool too_big;
    bool no_mem;           /* the memory budget refused the body: 503 */
    bool close;            /* answer with Connection: close */
    int pending;           /* counted in h->pending[pending - 1]; 0: not */
    atomic_bool suspended; /* by body_complete; cleared by one resume */

    /* Accept: text/event-stream: progress events, then the answer as a
     * `result` or `problem` event (see start_stream). */
    bool wants_stream;
    gs_stream *stream;
    bool completed; /* a stream MHD reported done, to log at the end */
    enum MHD_RequestTerminationCode toe;
    atomic_bool stream_started; /* its 200 response is queued */
    int64_t stream_t0, next_progress_ns;
    atomic_int stage;

    /* The response, once decided. */
    int status;
    char *resp; /* malloc'd unless resp_static */
    size_t resp_len;
    bool resp_static;
    bool resp_fallback; /* no body: send_response writes the problem's */
    const char *ctype;
    const char *allow;
    const char *etag;  /* ETag of the body, or NULL */
    const char *cache; /* Cache-Control; NULL: no-store */
    bool preflight;
    bool solved;  /* info is valid (for the log) */
    bool ran;     /* the solve ran: counted with the request */
    bool counted; /* in the metrics already (count_request) */
    bool ran_ok;
    double ran_s;
    gs_solve_info info;

    /* Last, and not zeroed by req_new: a tiny body's bytes (the README's
     * examples), with no allocation and no budget. Sized so that the
     * record stays within glibc's per-thread cache (blocks of up to 1032
     * bytes). */
    char body_small[128];
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
    r->resp_fallback = false;
}

static void set_buf_response(req *r, int status, const char *ctype, gs_buf *b)
{
    size_t len = 0;
    char *data = gs_buf_take(b, &len);
    set_response(r, status, ctype, data, len);
}

/* A problem+json response for err at this request's path. When the
 * memory budget refuses the document (a 503 under memory pressure, say),
 * send_response writes a plainer one without allocating, so that every
 * error still carries its problem document. */
static void set_problem_err(req *r, int status, const gs_error *err)
{
    gs_buf b = GS_BUF_INIT;

    gs_service_problem_json(err, status, r->path, &b);
    if (gs_buf_status(&b)) {
        gs_buf_free(&b);
        set_response(r, status, "application/problem+json", NULL, 0);
        r->resp_fallback = true;
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

/* What every response lets a page read (Access-Control-Expose-Headers). */
#define CORS_EXPOSE "X-Request-Id, Retry-After"

/* The CORS policy: with "*" any origin may read; with a list, the
 * request's Origin is echoed when it is listed (so no bytes but a
 * configured origin's reach the header) and nothing is granted
 * otherwise. Returns the Access-Control-Allow-Origin value, or NULL. */
static const char *cors_allow(const gs_http *h, const char *origin)
{
    if (h->cors_any)
        return "*";
    return gs_config_origin_allowed(h->cfg->cors_origin, origin) ? origin
                                                                 : NULL;
}

/* The CORS headers; with a list, Vary: Origin tells caches the answer
 * depends on it. */
static bool add_cors(req *r, struct MHD_Response *resp)
{
    const gs_server_config *cfg = r->h->cfg;

    if (!r->h->cors_any && !add_header(resp, "Vary", "Origin"))
        return false;
    const char *allow = cors_allow(r->h, r->hd.origin);
    if (!allow)
        return true;
    bool ok = add_header(resp, "Access-Control-Allow-Origin", allow) &&
              add_header(resp, "Access-Control-Expose-Headers", CORS_EXPOSE);
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
    bool ok = add_cors(r, resp) && add_header(resp, "Cache-Control",
                                              r->cache ? r->cache : "no-store");

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
    /* Last, as in a reused response (reuse_response). */
    return ok && add_header(resp, "X-Request-Id", r->id);
}

/* Connection: close for a request whose framing we distrust, and for
 * every answer while draining, so no client sends another request on a
 * connection that is about to go away. */
static bool add_drain_header(req *r, struct MHD_Response *resp)
{
    if (!r->close && !atomic_load(&r->h->draining))
        return true;
    return add_header(resp, MHD_HTTP_HEADER_CONNECTION, "close");
}

static void count_request(req *r);

/* ---- reused responses ---------------------------------------------------
 *
 * Most answers are a tiny solve's 200: the same five headers but the
 * request id, a body of a few dozen bytes. Making the MHD response for
 * each (the response, then per header a record and two copies, all freed
 * again) cost as much as the solve. A connection answers one request at
 * a time, MHD writes a response's head from its headers when it starts
 * the reply, and it reads a persistent body while it sends it; so a
 * connection keeps such responses, one per body length, and reuses one
 * for its next answer of that length: the body rewritten in the
 * connection's buffer, the X-Request-Id swapped. */
#define REUSE_SLOTS 4
#define REUSE_BODY 512

typedef struct reuse_slot {
    struct MHD_Response *resp; /* one reference ours; NULL: free slot */
    size_t len;
    char id[REQ_ID_MAX + 1]; /* its X-Request-Id now */
    time_t date;             /* the second of its Date header; 0: none */
} reuse_slot;

/* A connection's reused responses (in its gs_conn_user slot). */
typedef struct reuse_set {
    char body[REUSE_BODY]; /* every slot's body: one answer at a time */
    reuse_slot slot[REUSE_SLOTS];
    unsigned next; /* the slot to take over when none fits */
} reuse_set;

/* The Date header's value for second t, as MHD writes it ("Tue, 01 Dec
 * 2026 11:15:41 GMT"), made once a second per thread. A reused response
 * carries its own, changed once a second: MHD's, made per response, took
 * the C library's time zone lock each time. */
static const char *http_date(time_t t)
{
    static const char days[] = "SunMonTueWedThuFriSat";
    static const char months[] = "JanFebMarAprMayJunJulAugSepOctNovDec";
    static _Thread_local time_t made = (time_t)-1;
    static _Thread_local char text[32];
    struct tm tm;

    if (t == made)
        return text;
    if (!gmtime_r(&t, &tm) || tm.tm_year + 1900 > 9999 || tm.tm_year < -1900)
        return NULL;
    int y = tm.tm_year + 1900;
    char *p = text;
    memcpy(p, days + 3 * tm.tm_wday, 3);
    p += 3;
    *p++ = ',';
    *p++ = ' ';
    *p++ = (char)('0' + tm.tm_mday / 10);
    *p++ = (char)('0' + tm.tm_mday % 10);
    *p++ = ' ';
    memcpy(p, months + 3 * tm.tm_mon, 3);
    p += 3;
    *p++ = ' ';
    *p++ = (char)('0' + y / 1000);
    *p++ = (char)('0' + y / 100 % 10);
    *p++ = (char)('0' + y / 10 % 10);
    *p++ = (char)('0' + y % 10);
    *p++ = ' ';
    int hms[3] = {tm.tm_hour, tm.tm_min, tm.tm_sec};
    for (int i = 0; i < 3; i++) {
        *p++ = (char)('0' + hms[i] / 10);
        *p++ = (char)('0' + hms[i] % 10);
        *p++ = i < 2 ? ':' : ' ';
    }
    memcpy(p, "GMT", 4);
    made = t;
    return text;
}

static void reuse_free(reuse_set *rs)
{
    if (!rs)
        return;
    for (int i = 0; i < REUSE_SLOTS; i++)
        if (rs->slot[i].resp)
            MHD_destroy_response(rs->slot[i].resp);
    free(rs);
}

/* True when r's answer has exactly the headers of a reused response. */
static bool reusable(const req *r)
{
    return r->route == GS_ROUTE_SOLVE && r->status == MHD_HTTP_OK && r->resp &&
           !r->resp_static && r->resp_len > 0 && r->resp_len <= REUSE_BODY &&
           r->ctype && strcmp(r->ctype, "application/json") == 0 && !r->etag &&
           !r->cache && !r->allow && !r->preflight && r->h->cors_any &&
           !r->close && !atomic_load(&r->h->draining) && r->cr;
}

/* A new slot response: every header but the id. */
static struct MHD_Response *reuse_make(reuse_set *rs, size_t len)
{
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(len, rs->body, MHD_RESPMEM_PERSISTENT);
    if (resp && add_header(resp, "Access-Control-Allow-Origin", "*") &&
        add_header(resp, "Access-Control-Expose-Headers", CORS_EXPOSE) &&
        add_header(resp, "Cache-Control", "no-store") &&
        add_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json"))
        return resp;
    if (resp)
        MHD_destroy_response(resp);
    return NULL;
}

/* r's answer as a reused response of its connection (a reference of the
 * connection's, not the caller's), or NULL: then it is made as usual. */
static struct MHD_Response *reuse_response(req *r)
{
    void **user = gs_conn_user(r->cr);
    reuse_set *rs = *user;

    if (!rs) {
        rs = calloc(1, sizeof *rs);
        if (!rs)
            return NULL;
        *user = rs;
    }
    reuse_slot *s = NULL;
    for (int i = 0; i < REUSE_SLOTS && !s; i++)
        if (rs->slot[i].resp && rs->slot[i].len == r->resp_len)
            s = &rs->slot[i];
    if (s && !MHD_del_response_header(s->resp, "X-Request-Id", s->id)) {
        MHD_destroy_response(s->resp); /* cannot happen */
        s->resp = NULL;
    }
    if (!s || !s->resp) {
        if (!s)
            s = &rs->slot[rs->next++ % REUSE_SLOTS];
        if (s->resp)
            MHD_destroy_response(s->resp);
        s->len = r->resp_len;
        s->date = 0;
        s->resp = reuse_make(rs, s->len);
        if (!s->resp)
            return NULL;
    }
    /* Adding a Date replaces the one there (MHD), and keeps MHD from
     * writing its own. Before the id, which stays last. */
    time_t now = time(NULL);
    if (now != s->date) {
        const char *date = http_date(now);
        if (!date || !add_header(s->resp, MHD_HTTP_HEADER_DATE, date)) {
            MHD_destroy_response(s->resp); /* never a stale Date */
            s->resp = NULL;
            return NULL;
        }
        s->date = now;
    }
    if (!add_header(s->resp, "X-Request-Id", r->id)) {
        MHD_destroy_response(s->resp);
        s->resp = NULL;
        return NULL;
    }
    memcpy(s->id, r->id, sizeof s->id);
    memcpy(rs->body, r->resp, r->resp_len);
    return s->resp;
}

/* Queues the stored response. MHD_NO makes MHD close the connection. */
static enum MHD_Result send_response(req *r)
{
    struct MHD_Response *resp;
    enum MHD_Result ret;

    atomic_store(&r->stage, ST_SENT);
    if (reusable(r) && (resp = reuse_response(r)) != NULL) {
        count_request(r); /* before the client can see the answer */
        return MHD_queue_response(r->conn, (unsigned)r->status, resp);
    }
    if (r->resp_fallback) {
        /* The detail is the title's: the error's own did not fit the
         * budget (a request's struct has no room to keep it). */
        char doc[GS_PROBLEM_FALLBACK_MAX];
        size_t n = gs_service_problem_fallback(NULL, r->status, r->path, doc,
                                               sizeof doc);
        resp = MHD_create_response_from_buffer(n, doc, MHD_RESPMEM_MUST_COPY);
    } else if (r->resp && !r->resp_static) {
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
    if (!add_headers(r, resp) || !add_drain_header(r, resp)) {
        MHD_destroy_response(resp);
        return MHD_NO;
    }
    count_request(r); /* before the client can see the answer */
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

/* Writes "PREFIX-%06llx" of n into id (REQ_ID_MAX + 1 bytes), by hand:
 * snprintf cost more than the rest of the request's setup. */
static void format_id(char *id, const char *prefix, unsigned long long n)
{
    static const char hex[] = "0123456789abcdef";
    char d[16];
    size_t k = 0, plen = strlen(prefix);

    do {
        d[k++] = hex[n & 15];
        n >>= 4;
    } while (n);
    while (k < 6)
        d[k++] = '0';
    memcpy(id, prefix, plen);
    id[plen] = '-';
    for (size_t i = 0; i < k; i++)
        id[plen + 1 + i] = d[k - 1 - i];
    id[plen + 1 + k] = '\0';
}

/* This thread's shard of the per-request counters. */
static unsigned thread_shard(void)
{
    static atomic_uint next;
    static _Thread_local unsigned idx = UINT_MAX;

    if (idx == UINT_MAX)
        idx = atomic_fetch_add_explicit(&next, 1, memory_order_relaxed);
    return idx % GS_HTTP_SHARDS;
}

/* The next generated id number (from 1): each thread takes a block of
 * GS_HTTP_ID_BLOCK numbers at a time, so ids stay unique without every
 * request bumping one shared counter. Numbers are not in request order
 * across threads (they never were, with several threads). */
static unsigned long long next_id(gs_http *h)
{
    static _Thread_local const gs_http *of;
    static _Thread_local unsigned long long next, end;

    if (of != h || next == end) {
        next = atomic_fetch_add_explicit(&h->id_seq, GS_HTTP_ID_BLOCK,
                                         memory_order_relaxed);
        end = next + GS_HTTP_ID_BLOCK;
        of = h;
    }
    return ++next;
}

long gs_http_pending(gs_http *h)
{
    long n = 0;

    for (int i = 0; i < GS_HTTP_SHARDS; i++)
        n += atomic_load_explicit(&h->pending[i].n, memory_order_acquire);
    return n;
}

static void assign_id(req *r)
{
    const char *given = r->hd.request_id;
    if (id_is_sane(given)) {
        snprintf(r->id, sizeof r->id, "%s", given);
        return;
    }
    format_id(r->id, r->h->id_prefix, next_id(r->h));
}

static void note_first(const char **slot, const char *value)
{
    if (!*slot)
        *slot = value;
}

/* One header, for scan_heads: names told apart by length first. */
static enum MHD_Result scan_head(void *cls, enum MHD_ValueKind kind,
                                 const char *key, const char *value)
{
    heads *hd = cls;

    (void)kind;
    if (!key || !value)
        return MHD_YES;
    /* libmicrohttpd keeps the blanks of "Content-Length : 5" in the name,
     * so it reads no body where a lenient proxy reads one. */
    if (key[strcspn(key, " \t")])
        hd->bad_name = true;
    switch (strlen(key)) {
    case 4:
        if (strcasecmp(key, MHD_HTTP_HEADER_HOST) == 0)
            hd->n_host++;
        break;
    case 6:
        if (strcasecmp(key, MHD_HTTP_HEADER_ACCEPT) == 0)
            note_first(&hd->accept, value);
        else if (strcasecmp(key, "Origin") == 0)
            note_first(&hd->origin, value);
        break;
    case 11:
        if (strcasecmp(key, "traceparent") == 0)
            note_first(&hd->traceparent, value);
        break;
    case 12:
        if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_TYPE) == 0)
            note_first(&hd->content_type, value);
        else if (strcasecmp(key, "X-Request-Id") == 0)
            note_first(&hd->request_id, value);
        break;
    case 13:
        if (strcasecmp(key, MHD_HTTP_HEADER_IF_NONE_MATCH) == 0)
            note_first(&hd->if_none_match, value);
        break;
    case 14:
        if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
            note_first(&hd->content_length, value);
            hd->last_content_length = value;
            hd->n_content_length++;
        }
        break;
    case 17:
        if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
            note_first(&hd->transfer_encoding, value);
            hd->last_transfer_encoding = value;
            hd->n_transfer_encoding++;
        }
        break;
    default:
        break;
    }
    return MHD_YES;
}

/* Reads the headers this file needs in one pass (instead of a lookup,
 * each a walk over all of them, per header). */
static void scan_heads(struct MHD_Connection *conn, heads *hd)
{
    memset(hd, 0, sizeof *hd);
    MHD_get_connection_values(conn, MHD_HEADER_KIND, scan_head, hd);
}

static req *req_new(gs_http *h, struct MHD_Connection *conn, const char *url,
                    const char *method)
{
    /* malloc and memset, not calloc: glibc's calloc skips the per-thread
     * cache that serves a block of this size without a lock (and a block
     * of over 1 KB then merges all the fast bins first). The memset stops
     * short of the whole block, or gcc turns the pair into calloc. */
    req *r = malloc(sizeof *r);

    if (!r)
        return NULL;
    memset(r, 0, offsetof(req, body_small));
    r->h = h;
    r->conn = conn;
    r->start_ns = gs_now_ns();
    r->puzzle = -1;
    r->route = GS_ROUTE_OTHER;
    r->q_timeout = -1;
    r->q_states = -1;
    atomic_init(&r->suspended, false);
    atomic_init(&r->stream_started, false);
    gs_buf_init_fixed(&r->body, r->body_small, sizeof r->body_small);
    r->body.budget = 1; /* buffered bodies draw from the memory budget */
    atomic_init(&r->stage, ST_READING);
    atomic_init(&r->refs, 1);
    atomic_init(&r->cancel, CANCEL_NONE);
    atomic_init(&r->progress.expanded, 0);
    atomic_init(&r->progress.stored, 0);
    atomic_init(&r->progress.bound, 0);
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    r->cr = ci ? ci->socket_context : NULL;
    printable_copy(r->method, sizeof r->method, method);
    printable_copy(r->path, sizeof r->path, url);
    scan_heads(conn, &r->hd);
    assign_id(r);
    /* W3C Trace Context: an invalid traceparent is ignored, not refused. */
    if (!gs_traceparent_parse(r->hd.traceparent, r->trace))
        r->trace[0] = '\0';
    return r;
}

static void req_done(req *r);

/* Drops one reference; the last one (MHD's, the job's or the stream
 * response's) frees r, logging a stream first: by then no other thread
 * can touch it. */
static void req_unref(req *r)
{
    if (atomic_fetch_sub(&r->refs, 1) != 1)
        return;
    if (r->completed)
        req_done(r);
    gs_buf_free(&r->body);
    gs_stream_free(r->stream);
    if (!r->resp_static)
        free(r->resp);
    free(r);
}

/* Suspends r's connection from its handler (body_complete). */
static void suspend(req *r)
{
    atomic_store(&r->suspended, true);
    MHD_suspend_connection(r->conn);
}

/* Resumes what suspend() suspended, once: the worker, the watcher and a
 * failed submission may each try, and resuming twice is undefined. */
static void resume_once(req *r)
{
    if (atomic_exchange(&r->suspended, false))
        MHD_resume_connection(r->conn);
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

/* The method a problem's detail names: GET for a HEAD, whose answer
 * carries no content but must have the Content-Length of the GET's
 * (RFC 9110 9.3.2), so the details must be the same length. */
static const char *detail_method(const req *r)
{
    return strcmp(r->method, MHD_HTTP_METHOD_HEAD) == 0 ? MHD_HTTP_METHOD_GET
                                                        : r->method;
}

static void set_not_allowed(req *r, const char *allow)
{
    r->allow = allow;
    set_problem(r, MHD_HTTP_METHOD_NOT_ALLOWED,
                "method %s is not allowed on %s; allowed: %s", detail_method(r),
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
        .connections = (unsigned)gs_conns_count(h->conns),
        .max_connections = h->max_connections,
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
    cJSON *o = cJSON_CreateObject();
    bool ok = o && cJSON_AddStringToObject(o, "name", "gridsolve") &&
              cJSON_AddStringToObject(o, "version", gs_version()) &&
              cJSON_AddStringToObject(o, "commit", gs_commit_label());
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
    const char *inm = r->hd.if_none_match;

    r->etag = etag;
    r->cache = cache_control;
    if (gs_etag_matches(inm, etag))
        answer_static(r, MHD_HTTP_NOT_MODIFIED, NULL, NULL, 0);
    else
        answer_static(r, MHD_HTTP_OK, ctype, body, len);
}

/* Answers a GET of a fixed resource (r->route set). */
static void answer_get(req *r)
{
    static const char healthy[] = "{\"status\":\"ok\"}\n";
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
    size_t i = 0, n = sizeof routes / sizeof routes[0];

    while (i < n && strcmp(url, routes[i].path) != 0)
        i++;
    if (i == n)
        return false;
    r->route = routes[i].route;
    if (is_options(method))
        set_preflight(r, ALLOW_GET);
    else if (!is_get(method))
        set_not_allowed(r, ALLOW_GET);
    else
        answer_get(r);
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

/* The q value of one Accept item (after its media range): 1 without a
 * q parameter, 0 for a malformed one. */
static double accept_q(const char *params)
{
    for (const char *p = params; (p = strchr(p, ';')) != NULL;) {
        p++;
        while (*p == ' ' || *p == '\t')
            p++;
        if ((p[0] == 'q' || p[0] == 'Q') && p[1] == '=') {
            char *end;
            double q = strtod(p + 2, &end);
            return end == p + 2 || !isfinite(q) || q < 0 ? 0 : q > 1 ? 1 : q;
        }
    }
    return 1;
}

/* True when Accept asks for the event stream rather than the plain
 * answer (`plain`, application/json or text/plain): text/event-stream is
 * listed by name with q > 0, and no range covering the plain type is
 * preferred to it (RFC 9110 12.5.1; the most specific range covering a
 * type gives its q, and a tie goes to the stream the client named). So
 * `application/json;q=0.9, text/event-stream;q=0.5` gets JSON. */
static bool accepts_event_stream(const char *a, const char *plain)
{
    char item[128];
    double q_stream = 0, q_plain = 0;
    int plain_rank = 0; /* 1: a wildcard, 2: type, 3: the type itself */
    size_t slash = strcspn(plain, "/");

    while (a && *a) {
        size_t n = strcspn(a, ",");
        snprintf(item, sizeof item, "%.*s", (int)(n < 127 ? n : 127), a);
        double q = accept_q(item);
        int rank = media_type_is(item, plain)   ? 3
                   : media_type_is(item, "*/*") ? 1
                                                : 0;
        const char *t = item + strspn(item, " \t");
        if (!rank && strncasecmp(t, plain, slash + 1) == 0 &&
            media_type_is(t + slash + 1, "*"))
            rank = 2;
        if (media_type_is(item, "text/event-stream") && q > q_stream)
            q_stream = q;
        if (rank > plain_rank || (rank == plain_rank && rank && q > q_plain)) {
            plain_rank = rank;
            q_plain = q;
        }
        a += n;
        if (*a == ',')
            a++;
    }
    return q_stream > 0 && q_stream >= q_plain;
}

/* Reads the judge-mode query options. False with a 400 stored. */
static bool read_query(req *r)
{
    const char *t = MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND,
                                                "timeout_ms");
    const char *m = MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND,
                                                "max_states");
    const char *f =
        MHD_lookup_connection_value(r->conn, MHD_GET_ARGUMENT_KIND, "format");
    char *end;

    if (f) {
        /* The puzzle's own list, as the CLI's --format: one message. */
        gs_error ferr = {0};
        size_t n = strlen(f);
        if (gs_service_check_format(gs_puzzles[r->puzzle], f, &ferr) ||
            n >= sizeof r->q_format) {
            if (!ferr.code)
                gs_error_set(&ferr, GS_EBADREQ, "text format name too long");
            set_problem_err(r, MHD_HTTP_BAD_REQUEST, &ferr);
            return false;
        }
        memcpy(r->q_format, f, n + 1);
    }

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
#define QUERY_SEEN 8 /* more than the options of any mode */
typedef struct query_walk {
    req *r;
    const gs_puzzle *p;
    bool bad;
    int n_seen;
    const char *seen[QUERY_SEEN];
} query_walk;

static enum MHD_Result query_arg(void *cls, enum MHD_ValueKind kind,
                                 const char *key, const char *value)
{
    query_walk *w = cls;
    gs_error err = {0};

    key = key ? key : "";
    if (gs_service_check_query(w->p, w->r->text, key, &err)) {
        set_problem_err(w->r, MHD_HTTP_BAD_REQUEST, &err);
        w->bad = true;
        return MHD_NO; /* stop at the first unknown one */
    }
    /* A repeated option is refused: libmicrohttpd's lookup takes the
     * first, a proxy or filter in front may check the last one. Every
     * key seen is a known option, so a repeat shows up within the table. */
    for (int i = 0; i < w->n_seen; i++)
        if (strcmp(w->seen[i], key) == 0) {
            set_problem(w->r, MHD_HTTP_BAD_REQUEST,
                        "query parameter \"%.64s\" is repeated; give it once",
                        key);
            w->bad = true;
            return MHD_NO;
        }
    if (w->n_seen < QUERY_SEEN)
        w->seen[w->n_seen++] = key;
    return MHD_YES;
}

/* Strict input: every query parameter must be one the mode accepts, so
 * a misspelt option is a 400, not its default. False with a 400 stored. */
static bool check_query(req *r, const gs_puzzle *p)
{
    query_walk w = {.r = r, .p = p};

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

/* The solve's Content-Type: JSON, or text/plain (r->text) for judge
 * mode. False when a 415 is stored. */
/* The charset parameter of a Content-Type value into out ("" when
 * there is none; quotes dropped, truncated to cap). */
static void charset_of(const char *ct, char *out, size_t cap)
{
    out[0] = '\0';
    for (const char *p = strchr(ct, ';'); p; p = strchr(p, ';')) {
        p++;
        p += strspn(p, " \t");
        if (strncasecmp(p, "charset", 7) != 0)
            continue;
        const char *v = p + 7 + strspn(p + 7, " \t");
        if (*v != '=')
            continue;
        v++;
        v += strspn(v, " \t\"");
        size_t n = strcspn(v, "\"; \t");
        snprintf(out, cap, "%.*s", (int)(n < cap ? n : cap - 1), v);
        return;
    }
}

static bool check_media_type(req *r)
{
    const char *ct = r->hd.content_type;
    char shown[96];
    if (!ct) {
        set_problem(r, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE,
                    "missing Content-Type; use application/json (JSON "
                    "mode) or text/plain (judge mode)");
        return false;
    }
    if (media_type_is(ct, "text/plain")) {
        r->text = true;
    } else if (!media_type_is(ct, "application/json")) {
        printable_copy(shown, sizeof shown, ct);
        set_problem(r, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE,
                    "unsupported Content-Type '%s'; use application/json "
                    "(JSON mode) or text/plain (judge mode)",
                    shown);
        return false;
    }
    /* Bodies are read as UTF-8: one in another charset (UTF-16, say)
     * would be misread into a 400 or 422 about its content. */
    char cs[32];
    charset_of(ct, cs, sizeof cs);
    if (cs[0] && strcasecmp(cs, "utf-8") != 0 &&
        strcasecmp(cs, "us-ascii") != 0) {
        printable_copy(shown, sizeof shown, cs);
        set_problem(r, MHD_HTTP_UNSUPPORTED_MEDIA_TYPE,
                    "unsupported charset '%s'; send UTF-8", shown);
        return false;
    }
    return true;
}

/* A declared Content-Length past the body limit is refused before the
 * body is read. False when a 413 is stored. */
static bool check_length(req *r)
{
    const char *cl = r->hd.content_length;
    if (!cl)
        return true;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(cl, &end, 10);
    if (errno == ERANGE || (!*end && v > r->h->cfg->max_body)) {
        set_problem(r, MHD_HTTP_CONTENT_TOO_LARGE,
                    "body of %.32s bytes exceeds the limit of %" PRIu64
                    " bytes",
                    cl, r->h->cfg->max_body);
        return false;
    }
    return true;
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
    if (!check_media_type(r) || !check_query(r, p) ||
        (r->text && !read_query(r)))
        return false;
    r->wants_stream = accepts_event_stream(
        r->hd.accept, r->text ? "text/plain" : "application/json");
    if (!check_length(r))
        return false;
    if (atomic_load(&h->draining)) {
        set_problem(r, MHD_HTTP_SERVICE_UNAVAILABLE,
                    "server is shutting down and takes no new solves");
        return false;
    }
    return true;
}

/* Body framing libmicrohttpd accepts but a proxy in front of us may read
 * differently, which would let a request hide in another's body: two
 * Content-Length headers (it takes the first), a Transfer-Encoding other
 * than chunked (it reads until the connection closes), or both headers;
 * Transfer-Encoding in HTTP/1.0; and heads RFC 9112 says to refuse: a
 * blank before a header's colon (libmicrohttpd then ignores the header),
 * no Host in HTTP/1.1, or two.
 * False with a 400 stored; the connection is then closed. (A malformed
 * Content-Length value never reaches us: libmicrohttpd answers it.) */
static bool framing_ok(req *r, const char *version)
{
    struct {
        int cl, te;
        const char *te_value;
    } f = {r->hd.n_content_length, r->hd.n_transfer_encoding,
           r->hd.last_transfer_encoding};
    char shown[64];

    /* RFC 9112 5.1 and 3.2: each a MUST-400. */
    if (r->hd.bad_name) {
        set_problem(
            r, MHD_HTTP_BAD_REQUEST,
            "a header name holds a blank (as in 'Content-Length : 5'); write "
            "the colon right after the name");
        return false;
    }
    if (r->hd.n_host > 1 ||
        (r->hd.n_host == 0 && strcmp(version, MHD_HTTP_VERSION_1_1) == 0)) {
        set_problem(r, MHD_HTTP_BAD_REQUEST,
                    "%d Host headers; send exactly one", r->hd.n_host);
        return false;
    }
    if (f.cl > 1) {
        set_problem(r, MHD_HTTP_BAD_REQUEST,
                    "%d Content-Length headers; send exactly one", f.cl);
        return false;
    }
    /* RFC 9112 6.1: HTTP/1.0 has no chunked framing, so a front end may
     * read such a body as the next request; libmicrohttpd reads it
     * chunked and would keep the connection. */
    if (f.te && strcmp(version, MHD_HTTP_VERSION_1_0) == 0) {
        set_problem(r, MHD_HTTP_BAD_REQUEST,
                    "Transfer-Encoding needs HTTP version 1.1; send "
                    "Content-Length");
        return false;
    }
    if (f.te && f.cl) {
        set_problem(r, MHD_HTTP_BAD_REQUEST,
                    "both Transfer-Encoding and Content-Length; send one");
        return false;
    }
    if (f.te > 1 || (f.te && strcasecmp(f.te_value, "chunked") != 0)) {
        printable_copy(shown, sizeof shown, f.te_value);
        set_problem(r, MHD_HTTP_BAD_REQUEST,
                    "Transfer-Encoding '%s' is not supported; use chunked "
                    "(alone) or Content-Length",
                    f.te > 1 ? "(repeated)" : shown);
        return false;
    }
    return true;
}

/* First call for a request: routes it. True when the body must be read. */
static bool begin(req *r, const char *url, const char *method,
                  const char *version)
{
    size_t plen = strlen(SOLVE_PREFIX);

    if (!framing_ok(r, version)) {
        r->close = true;
        return false;
    }
    if (strcmp(url, "*") == 0 && is_options(method)) {
        /* RFC 9110 9.3.7: OPTIONS * asks about the server as a whole. */
        r->allow = ALLOW_ANY;
        set_response(r, MHD_HTTP_NO_CONTENT, NULL, NULL, 0);
        return false;
    }
    if (strncmp(url, SOLVE_PREFIX, plen) == 0 && url[plen] &&
        !strchr(url + plen, '/'))
        return route_solve(r, url + plen, method);
    if (route_get(r, url, method))
        return false;
    set_problem(r, MHD_HTTP_NOT_FOUND, "no such resource: %s %s",
                detail_method(r), r->path);
    return false;
}

/* ---- solving ------------------------------------------------------------ */

/* Runs the service call for r with opts plus its own cancel flag and
 * progress counters, and stores the response (unless the client left).
 * With opts->probe set, a probe that runs out returns GS_SERVICE_AGAIN
 * and leaves r, body included, untouched for the next attempt. */
static int run_solve_opts(req *r, gs_solve_opts opts)
{
    const gs_puzzle *p = gs_puzzles[r->puzzle];
    const char *body = r->body.data ? r->body.data : "";
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    gs_solve_info info = {0};
    int64_t t0 = gs_now_ns();
    int rc;

    opts.cancel = &r->cancel;
    opts.progress = &r->progress;
    opts.text_format = r->q_format[0] ? r->q_format : NULL;
    if (r->text)
        rc = gs_service_text(p, body, r->body.len, &opts, r->q_timeout,
                             r->q_states, &out, &info, &err);
    else
        rc = gs_service_json(p, body, r->body.len, &opts, &out, &info, &err);
    if (rc == GS_SERVICE_AGAIN && atomic_load(&r->cancel) == CANCEL_NONE) {
        gs_buf_free(&out);
        return GS_SERVICE_AGAIN;
    }
    gs_buf_free(&r->body);
    if (atomic_load(&r->cancel) == CANCEL_GONE) {
        gs_buf_free(&out); /* nobody to answer; counted as abandoned */
        return GS_OK;
    }
    if (rc == GS_SERVICE_AGAIN) { /* a probe the drain cut short */
        gs_buf_free(&out);
        set_problem(r, MHD_HTTP_SERVICE_UNAVAILABLE,
                    "server is shutting down; the solve was not finished");
        return GS_OK;
    }
    r->ran = true;
    r->ran_ok = rc == GS_OK;
    /* The service read the clock as the solve ended: the formatting of
     * its answer since then is a few microseconds. */
    r->ran_s = (double)((info.end_ns ? info.end_ns : gs_now_ns()) - t0) / 1e9;
    r->info = info;
    if (rc == GS_OK && info.status == GS_LIMIT &&
        atomic_load(&r->cancel) == CANCEL_DRAIN) {
        /* Cut short by the drain, not by its own limits: a `limit` would
         * tell the client to ask for more time; a 503 with Retry-After is
         * retried elsewhere, by a client or a mesh. */
        gs_buf_free(&out);
        set_problem(r, MHD_HTTP_SERVICE_UNAVAILABLE,
                    "server is shutting down; the solve was cancelled after "
                    "the grace period");
        return GS_OK;
    }
    if (rc == GS_OK) {
        r->solved = true;
        set_buf_response(
            r, MHD_HTTP_OK,
            r->text ? "text/plain; charset=utf-8" : "application/json", &out);
    } else {
        gs_buf_free(&out);
        if (!err.detail[0])
            gs_error_set(&err, rc, "%s", gs_error_title(rc));
        set_problem_err(r, gs_error_http_status(rc), &err);
    }
    return GS_OK;
}

/* run_solve_opts on a pool lane: on the fast lane (pool.h) a probe with
 * a small budget, on the main lane the request's full limits. */
static int run_solve(req *r, enum gs_pool_lane lane)
{
    gs_solve_opts opts = r->h->opts;

    if (lane == GS_POOL_LANE_FAST) { /* never a stream's (submit) */
        if (r->body.len > GS_PROBE_MAX_BODY)
            return GS_SERVICE_AGAIN;
        gs_solve_opts_probe(&r->h->opts, &opts);
    }
    return run_solve_opts(r, opts);
}

/* The I/O thread's own attempt at a tiny request, before any hand-off:
 * a probe whose budget (INLINE_*) bounds its cost to about a
 * millisecond, body parsing included, so no solve of unbounded cost ever
 * runs here. It saves the suspend, the worker's wake-up and the resume,
 * which cost far more than such a solve. GS_SERVICE_AGAIN when it ran
 * out (r untouched: the pool takes it from there). */
static int run_inline(req *r)
{
    gs_solve_opts opts = r->h->opts;

    if (r->body.len > INLINE_MAX_BODY)
        return GS_SERVICE_AGAIN;
    opts.probe = (gs_probe){.timeout_ms = INLINE_TIMEOUT_MS,
                            .max_states = INLINE_MAX_STATES,
                            .max_bytes = INLINE_MAX_BYTES};
    return run_solve_opts(r, opts);
}

/* Stores the 503 of a refused submission (rc from gs_pool_submit). */
static void set_refused(req *r, int rc)
{
    gs_http *h = r->h;

    if (rc == GS_POOL_EFULL)
        set_problem(r, MHD_HTTP_SERVICE_UNAVAILABLE,
                    "solve queue is full (%u workers busy, %u waiting); "
                    "retry later",
                    gs_pool_workers(h->pool), gs_pool_capacity(h->pool));
    else
        set_problem(r, MHD_HTTP_SERVICE_UNAVAILABLE,
                    "server is shutting down and takes no new solves");
}

/* Stops watching r's connection and resumes it with whatever r holds: a
 * response (READY) or nothing (GONE, the handler then closes). */
static void finish_suspended(req *r)
{
    gs_conns_watch(r->h->conns, r->cr, NULL);
    /* After the unwatch no hang-up can be reported any more, so this
     * read of the flag is final. */
    bool gone = atomic_load(&r->cancel) == CANCEL_GONE;
    if (gone)
        r->status = 0; /* whatever was stored, nothing will be sent */
    atomic_store(&r->stage, gone ? ST_GONE : ST_READY);
    resume_once(r);
}

/* Stream version of finish_suspended: the answer becomes the last event.
 * The connection is not resumed: its handler already queued the stream
 * (or will, having been resumed when the job was admitted). Nor is it
 * unwatched here: it may be closed already, its watcher record gone; the
 * watcher drops a finished stream itself (on_tick). */
static void finish_stream(req *r)
{
    if (atomic_load(&r->cancel) == CANCEL_GONE)
        gs_stream_close(r->stream);
    else /* one step: the watcher's progress must not follow the answer */
        gs_stream_end(r->stream,
                      r->status == MHD_HTTP_OK ? "result" : "problem", r->resp,
                      r->resp_len);
}

/* Worker thread: claims the job (unless its client already left), solves
 * it, and resumes the connection. A job the drain cancelled before it
 * started is answered 503: it is worth retrying elsewhere, and so is one
 * whose fast attempt ran out while the main lane is full. A fast attempt
 * that ran out puts r back in the queue (QUEUED: a hang-up may still
 * claim it) and asks for the main lane. */
static enum gs_pool_ret solve_job(void *arg, enum gs_pool_lane lane)
{
    req *r = arg;
    int queued = ST_QUEUED;

    if (!atomic_compare_exchange_strong(&r->stage, &queued, ST_RUNNING)) {
        req_unref(r); /* the client left: the job's reference goes */
        return GS_POOL_DONE;
    }
    if (atomic_load(&r->cancel) == CANCEL_DRAIN || atomic_load(&r->h->cancel))
        set_problem(r, MHD_HTTP_SERVICE_UNAVAILABLE,
                    "server is shutting down; the solve was not started");
    else if (lane == GS_POOL_LANE_FULL)
        set_refused(r, GS_POOL_EFULL);
    else if (atomic_load(&r->cancel) == CANCEL_NONE &&
             run_solve(r, lane) == GS_SERVICE_AGAIN) {
        atomic_store(&r->stage, ST_QUEUED);
        return GS_POOL_AGAIN; /* the job keeps its reference */
    }
    if (r->stream)
        finish_stream(r);
    else
        finish_suspended(r);
    req_unref(r); /* the job's reference */
    return GS_POOL_DONE;
}

/* Watcher thread, registry lock held: r's client hung up. A running
 * search sees the flag within a millisecond; a queued job is taken from
 * its worker here and the connection closed at once. */
static void on_hangup(void *ud, void *watch)
{
    req *r = watch;
    int queued = ST_QUEUED, admit = ST_ADMIT;

    (void)ud;
    atomic_store(&r->cancel, CANCEL_GONE);
    /* The stream is failed before the resume: a plain request waiting
     * for admission holds no job's reference, and once resumed its MHD
     * thread may complete and free it without taking the registry lock
     * (a stream's completion takes it, in end_stream). */
    if (r->stream)
        gs_stream_fail(r->stream);
    if (atomic_compare_exchange_strong(&r->stage, &queued, ST_GONE) ||
        atomic_compare_exchange_strong(&r->stage, &admit, ST_GONE))
        resume_once(r); /* a no-op for a stream already started; r may be
                           freed from here on */
}

/* solve_job for a stream, queued on the main lane alone. */
static void solve_stream_job(void *arg)
{
    solve_job(arg, GS_POOL_LANE_MAIN);
}

/* Submits r to the pool (the one place that calls the pool). The
 * stage is QUEUED before the job exists: its worker may start at once.
 * On a refusal the stage stays QUEUED for the caller to move on. A
 * stream skips the fast lane: it asks for a long solve, and a probe's
 * counters would start over in its progress events; nor would its 200
 * be sent on the way to a main lane with no room, whose 503 must stay a
 * plain answer with Retry-After. */
static int submit(req *r)
{
    atomic_store(&r->stage, ST_QUEUED);
    atomic_fetch_add(&r->refs, 1);
    int rc = r->stream ? gs_pool_submit(r->h->pool, solve_stream_job, r)
                       : gs_pool_submit_lane(r->h->pool, solve_job, r);
    if (rc)
        atomic_fetch_sub(&r->refs, 1); /* never MHD's last reference */
    return rc;
}

/* A job was queued for r. A stream starts now: its handler, resumed,
 * queues the 200 event-stream response (start_stream); a plain request
 * stays suspended until its worker is done. */
static void admitted(req *r)
{
    if (r->stream)
        resume_once(r);
}

/* Watcher thread: one `progress` event with the search's live counters.
 * Skipped while the client lags behind (the next one supersedes it). */
static void send_progress(req *r, int64_t now_ns)
{
    char data[160];
    int n = snprintf(
        data, sizeof data,
        "{\"expanded\":%llu,\"stored\":%llu,\"bound\":%llu,\"elapsed_ms\":"
        "%lld}",
        (unsigned long long)atomic_load_explicit(&r->progress.expanded,
                                                 memory_order_relaxed),
        (unsigned long long)atomic_load_explicit(&r->progress.stored,
                                                 memory_order_relaxed),
        (unsigned long long)atomic_load_explicit(&r->progress.bound,
                                                 memory_order_relaxed),
        (long long)((now_ns - r->stream_t0) / 1000000));
    gs_stream_event(r->stream, "progress", data, (size_t)n, STREAM_LAG);
    r->next_progress_ns += PROGRESS_MS * 1000000LL;
    if (r->next_progress_ns <= now_ns)
        r->next_progress_ns = now_ns + PROGRESS_MS * 1000000LL;
}

/* Watcher thread, registry lock held: a periodic tick for a watched
 * request. One waiting for queue room tries again: the queue may be full
 * of jobs whose clients just left, which free their slots within
 * milliseconds of being seen. Returns false to stop watching r. */
static bool on_tick(void *ud, void *watch, int64_t now_ns)
{
    req *r = watch;
    int admit = ST_ADMIT;

    (void)ud;
    if (!atomic_compare_exchange_strong(&r->stage, &admit, ST_READING)) {
        if (r->stream && gs_stream_finished(r->stream))
            return false; /* answered: no more progress */
        if (r->stream && now_ns >= r->next_progress_ns)
            send_progress(r, now_ns);
        return true; /* not waiting for room, or claimed by its handler */
    }
    int rc = submit(r);
    if (rc == GS_OK) {
        admitted(r);
        return true;
    }
    if (rc == GS_POOL_EFULL && now_ns < r->admit_until_ns) {
        atomic_store(&r->stage, ST_ADMIT);
        return true;
    }
    set_refused(r, rc);
    atomic_store(&r->stage, ST_READY);
    resume_once(r);
    return false;
}

/* The whole body is in: refuse it, or suspend and hand it to a worker. */
static enum MHD_Result body_complete(req *r)
{
    gs_http *h = r->h;

    gs_conn_body_done(h->conns, r->cr);
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
    /* Counted until answered, like every accepted solve: a drain waits
     * for the answer to go out. */
    r->pending = thread_shard() + 1;
    atomic_fetch_add_explicit(&h->pending[r->pending - 1].n, 1,
                              memory_order_relaxed);
    if (!r->wants_stream && run_inline(r) != GS_SERVICE_AGAIN)
        return send_response(r);
    if (r->wants_stream && gs_stream_new(r->conn, &r->stream)) {
        set_problem(r, MHD_HTTP_INTERNAL_SERVER_ERROR,
                    "out of memory starting the event stream");
        return send_response(r);
    }
    /* Suspend before submitting: the worker may resume at once, and
     * resuming a connection that is not suspended is undefined. Watch
     * before submitting too, so a hang-up is seen from the start; the
     * watcher only acts on ADMIT and QUEUED, which submit() sets. */
    r->admit_until_ns = gs_now_ns() + ADMIT_WAIT_MS * 1000000LL;
    r->stream_t0 = gs_now_ns();
    r->next_progress_ns = r->stream_t0 + PROGRESS_MS * 1000000LL;
    suspend(r);
    gs_conns_watch(h->conns, r->cr, r);
    int rc = submit(r);
    if (rc == GS_OK) {
        admitted(r);
        return MHD_YES;
    }
    /* A full queue may be full of jobs whose clients just left: the
     * watcher retries for ADMIT_WAIT_MS before the 503 (on_tick). From
     * ADMIT on, r is the watcher's unless claimed back by a CAS. */
    int st = ST_QUEUED;
    if (!atomic_compare_exchange_strong(&r->stage, &st, ST_ADMIT))
        return MHD_YES; /* the client left; the watcher resumed it */
    if (rc == GS_POOL_EFULL && r->cr && atomic_load(&r->cancel) == CANCEL_NONE)
        return MHD_YES;
    st = ST_ADMIT;
    if (atomic_compare_exchange_strong(&r->stage, &st, ST_RUNNING)) {
        set_refused(r, rc);
        finish_suspended(r);
    }
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

    gs_conn_body_bytes(r->cr, n);
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

/* MHD's content reader of an event stream. */
static ssize_t stream_read(void *cls, uint64_t pos, char *buf, size_t max)
{
    req *r = cls;

    (void)pos;
    return gs_stream_read(r->stream, buf, max);
}

/* MHD is done with the stream's response: its reference goes. */
static void stream_done(void *cls)
{
    req_unref(cls);
}

/* Queues the 200 text/event-stream response of an admitted solve; its
 * body is read from r->stream until the answer event. The answer's own
 * status (a 422, say) is in the `problem` event: the HTTP status of a
 * stream is fixed once it started. */
static enum MHD_Result start_stream(req *r)
{
    struct MHD_Response *resp = MHD_create_response_from_callback(
        MHD_SIZE_UNKNOWN, 4096, stream_read, r, stream_done);

    if (!resp)
        return MHD_NO;
    atomic_fetch_add(&r->refs, 1); /* released by stream_done */
    atomic_store(&r->stream_started, true);
    /* The worker may be writing r's own answer fields: the headers are
     * built from a view holding only what they need. */
    req view = {.h = r->h,
                .conn = r->conn,
                .status = MHD_HTTP_OK,
                .ctype = "text/event-stream",
                .close = r->close,
                .hd = r->hd}; /* set once in req_new: read-only since */
    memcpy(view.id, r->id, sizeof view.id);
    enum MHD_Result ret = MHD_NO;
    if (add_headers(&view, resp) && add_drain_header(&view, resp) &&
        add_header(resp, "X-Accel-Buffering", "no"))
        ret = MHD_queue_response(r->conn, MHD_HTTP_OK, resp);
    MHD_destroy_response(resp);
    return ret;
}

/* True when the request announces a body (chunked or a non-zero length). */
static bool has_body(const heads *hd)
{
    const char *cl = hd->content_length, *te = hd->transfer_encoding;

    if (te)
        return true;
    if (!cl)
        return false;
    while (*cl == '0')
        cl++;
    return *cl != '\0' && *cl != ' ';
}

/* libmicrohttpd before 1.0 writes its header block twice when it refuses
 * a request's Content-Length itself (its state machine builds the error
 * answer's head, then builds it again as for a normal answer). The gate
 * screens a connection's first head; for a later request on a kept-alive
 * connection the only hook left is MHD's log line, written on the
 * connection's own thread just before the faulty answer. So each thread
 * notes the connections whose request line it saw and whose head is not
 * done yet (several: another's line may come between one's line and its
 * headers), and the log handler answers the one whose head is complete
 * and refusable itself (answer_bad_length). Past LINE_SLOTS such heads at
 * once, the oldest is forgotten: its refusal is then MHD's doubled one. */
#define LINE_SLOTS 32
typedef struct line_seen {
    struct MHD_Connection *conn;
    const char *uri; /* MHD's request buffer: lives as long as the request */
} line_seen;
static _Thread_local line_seen tls_lines[LINE_SLOTS];
static _Thread_local int tls_nlines;
/* MHD's lines that follow an answer_bad_length are noise: skipped. */
static _Thread_local bool tls_answered;

/* Forgets entry i, keeping the others in order (oldest first). */
static void line_drop(int i)
{
    memmove(tls_lines + i, tls_lines + i + 1,
            sizeof *tls_lines * (size_t)(tls_nlines - i - 1));
    tls_nlines--;
}

/* Forgets conn's request line on this thread, if noted. */
static void line_forget(struct MHD_Connection *conn)
{
    for (int i = 0; i < tls_nlines; i++)
        if (tls_lines[i].conn == conn) {
            line_drop(i);
            return;
        }
}

/* Notes conn's request line (uri) on this thread. */
static void line_note(struct MHD_Connection *conn, const char *uri)
{
    line_forget(conn);
    if (tls_nlines == LINE_SLOTS)
        line_drop(0); /* the oldest goes */
    tls_lines[tls_nlines++] = (line_seen){conn, uri};
}

/* The origin-form path of a request target. RFC 9112 3.2.2: a server
 * MUST accept the absolute-form (`POST http://host/solve/x`), which a
 * client configured to use us as its proxy sends; libmicrohttpd hands it
 * over as it came. The authority is ignored, as Host is; an empty path
 * is "/". Any other target is returned as it is. */
static const char *origin_form(const char *url)
{
    size_t n = strncasecmp(url, "http://", 7) == 0    ? 7
               : strncasecmp(url, "https://", 8) == 0 ? 8
                                                      : 0;
    if (!n)
        return url;
    const char *path = strchr(url + n, '/');
    return path ? path : "/";
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn,
                                  const char *url, const char *method,
                                  const char *version, const char *upload_data,
                                  size_t *upload_data_size, void **con_cls)
{
    gs_http *h = cls;
    req *r = *con_cls;

    if (!r) {
        line_forget(conn); /* its head is done: MHD refused nothing */
        url = origin_form(url);
        r = req_new(h, conn, url, method);
        if (!r)
            return MHD_NO; /* no memory even for the context: close */
        *con_cls = r;
        bool body = has_body(&r->hd);
        gs_conn_headers_done(h->conns, r->cr, body);
        if (begin(r, url, method, version))
            return MHD_YES; /* read the body */
        /* Answering before the request is complete makes MHD close the
         * connection: right when refusing a body, wasteful otherwise. */
        if (body || r->close)
            return send_response(r);
        atomic_store(&r->stage, ST_READY);
        return MHD_YES;
    }
    int st = atomic_load(&r->stage);
    if (r->stream && st != ST_READING && st != ST_READY && st != ST_GONE) {
        if (atomic_load(&r->cancel) == CANCEL_GONE)
            return MHD_NO;
        return start_stream(r);
    }
    switch (st) {
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
    case ST_GONE:
        return MHD_NO; /* the client left: close, answer nothing */
    default:
        /* Already answered (MHD may still offer trailing body bytes). */
        *upload_data_size = 0;
        return MHD_YES;
    }
}

/* ---- completion: log and metrics --------------------------------------- */

/* The log outcome of a request that did not end normally, else NULL. */
static const char *log_outcome(const req *r,
                               enum MHD_RequestTerminationCode toe)
{
    if (atomic_load(&r->cancel) == CANCEL_GONE)
        return "abandoned";
    return toe == MHD_REQUEST_TERMINATED_COMPLETED_OK ? NULL : "aborted";
}

/* Writes one request log line for e, stamped at mono (0: now). */
static void log_line(const gs_http *h, gs_log_entry *e, int64_t mono)
{
    char when[40], line[1024];

    gs_log_stamp(when, mono);
    e->time = when;
    size_t n = gs_log_format(e, h->log_json, line, sizeof line);
    /* Batched (logq.h): no system call per request on the I/O thread. */
    gs_logq_put(h->logq, line, n);
}

static void log_request(const req *r, enum MHD_RequestTerminationCode toe)
{
    int64_t now = gs_now_ns();
    gs_log_entry e = {
        .method = r->method,
        .path = r->path,
        .status = r->status,
        .ms = (double)(now - r->start_ns) / 1e6,
        .id = r->id,
        .result = r->solved ? gs_status_name(r->info.status) : NULL,
        .expanded = r->info.expanded,
        .traceparent = r->trace[0] ? r->trace : NULL,
        .outcome = log_outcome(r, toe),
    };
    log_line(r->h, &e, now);
}

/* Counts r in the metrics, once. A plain answer is counted when it is
 * queued (send_response): with several polling threads the client's next
 * request may be served by another thread before this one reports r
 * complete, and must find r counted (a client reading /metrics right
 * after its answer). Everything else is counted at the end (req_done);
 * nothing counted changes in between: a plain request is no longer
 * watched once answered, so it cannot turn abandoned. */
static void count_request(req *r)
{
    gs_http *h = r->h;

    if (r->counted)
        return;
    r->counted = true;
    if (r->status)
        gs_metrics_request(h->metrics, r->route, r->puzzle, r->status);
    /* A solve is counted once: abandoned when its client left before
     * the answer went out, else by its result. */
    if (atomic_load(&r->cancel) == CANCEL_GONE)
        gs_metrics_abandoned(h->metrics, r->puzzle);
    else if (r->ran)
        gs_metrics_solve(h->metrics, r->puzzle, r->ran_ok, &r->info, r->ran_s);
}

/* Counts (unless done already) and logs a finished request (from its
 * last reference). A stream's HTTP status is 200 whatever its answer
 * event said. */
static void req_done(req *r)
{
    gs_http *h = r->h;

    if (atomic_load(&r->stream_started))
        r->status = MHD_HTTP_OK;
    count_request(r);
    log_request(r, r->toe);
    if (r->pending) /* its shard's, whichever thread ends it */
        atomic_fetch_sub_explicit(&h->pending[r->pending - 1].n, 1,
                                  memory_order_release);
}

/* A stream's request ended: an unfinished solve lost its client (MHD saw
 * the hang-up first, or could not write): cancel it, skip it if queued. */
static void end_stream(req *r)
{
    int queued = ST_QUEUED;

    gs_conns_watch(r->h->conns, r->cr, NULL);
    /* Not started: answered plainly (a 503, say) or already abandoned. */
    if (!atomic_load(&r->stream_started) || gs_stream_finished(r->stream))
        return;
    atomic_store(&r->cancel, CANCEL_GONE);
    atomic_compare_exchange_strong(&r->stage, &queued, ST_GONE);
    gs_stream_fail(r->stream);
}

static void on_completed(void *cls, struct MHD_Connection *conn, void **con_cls,
                         enum MHD_RequestTerminationCode toe)
{
    gs_http *h = cls;
    req *r = *con_cls;

    line_forget(conn);
    if (!r) {
        const union MHD_ConnectionInfo *ci =
            MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
        gs_conn_request_done(h->conns, ci ? ci->socket_context : NULL);
        return;
    }
    /* The connection's record, as req_new found it: no lookup. */
    gs_conn_request_done(h->conns, r->cr);
    *con_cls = NULL;
    r->toe = toe;
    /* A plain request's worker is done with it once MHD completes it, so
     * it is logged now; a stream's worker may still be stopping, so the
     * last reference logs it. */
    if (r->stream) {
        r->completed = true;
        end_stream(r);
    } else {
        req_done(r);
    }
    req_unref(r);
}

/* True at most once a second per `last` (a flood must not turn into a
 * flood of log lines). */
static bool log_once_a_second(_Atomic int64_t *last)
{
    int64_t now = gs_now_ns(), was = atomic_load(last);
    return now - was >= 1000000000LL &&
           atomic_compare_exchange_strong(last, &was, now);
}

/* A connection opens or closes: its watcher record follows. */
static void on_connection(void *cls, struct MHD_Connection *conn,
                          void **socket_context,
                          enum MHD_ConnectionNotificationCode toe)
{
    gs_http *h = cls;

    if (toe == MHD_CONNECTION_NOTIFY_CLOSED) {
        line_forget(conn); /* never looked at once freed */
        if (*socket_context)
            reuse_free(*gs_conn_user(*socket_context));
        gs_conns_close(h->conns, *socket_context);
        *socket_context = NULL;
        return;
    }
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_CONNECTION_FD);
    *socket_context = ci ? gs_conns_open(h->conns, ci->connect_fd) : NULL;
}

/* A request line arrived (headers not yet): its head deadline starts. */
static void *on_uri(void *cls, const char *uri, struct MHD_Connection *conn)
{
    gs_http *h = cls;
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(conn, MHD_CONNECTION_INFO_SOCKET_CONTEXT);

    line_note(conn, uri);
    tls_answered = false;
    gs_conn_request_line(h->conns, ci ? ci->socket_context : NULL);
    return NULL; /* the request context is made by on_request */
}

/* Watcher thread: a connection was shut down for a deadline. */
static void on_killed(void *ud, enum gs_conn_kill why)
{
    gs_http *h = ud;

    if (why == GS_CONN_IDLE)
        return; /* a kept-alive connection unused for 30 s: routine */
    gs_metrics_conn_killed(h->metrics, why == GS_CONN_SLOW_BODY);
    gs_log_note("warn", "closed a connection: %s",
                why == GS_CONN_SLOW_BODY ? "body slower than --min-body-rate"
                                         : "no complete request head within "
                                           "--header-timeout-ms");
}

static void gate_refuse(void *ud, int fd, int status, const char *method,
                        const char *path, const char *id, const char *origin,
                        const char *detail);

/* The noted connection whose head is complete, unanswered and carries a
 * Content-Length the gate refuses: the one MHD is refusing. Forgets it;
 * sets *path to its request line's path. NULL when none. */
static struct MHD_Connection *line_refused(const char **path)
{
    for (int i = 0; i < tls_nlines; i++) {
        struct MHD_Connection *c = tls_lines[i].conn;
        if (!MHD_get_connection_info(c,
                                     MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE) ||
            MHD_get_connection_info(c, MHD_CONNECTION_INFO_HTTP_STATUS))
            continue;
        const char *v = MHD_lookup_connection_value(
            c, MHD_HEADER_KIND, MHD_HTTP_HEADER_CONTENT_LENGTH);
        if (!v || gs_gate_length_ok(v, strlen(v)))
            continue;
        *path = tls_lines[i].uri;
        line_drop(i);
        return c;
    }
    return NULL;
}

/* Called from MHD's log line about a Content-Length it refuses: answers
 * the connection whose head is being parsed (line_refused) with the
 * gate's one 400 and shuts its write side, so MHD's doubled answer goes
 * nowhere (its send fails and it closes the connection). True when
 * answered; when no noted connection matches (forgotten past LINE_SLOTS),
 * MHD answers as it would. */
static bool answer_bad_length(gs_http *h)
{
    const char *path = NULL;
    struct MHD_Connection *c = h->mhd_doubles_400 ? line_refused(&path) : NULL;
    if (!c)
        return false;
    const union MHD_ConnectionInfo *ci =
        MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    if (!ci)
        return false;
    char sink[4096];
    gate_refuse(h, ci->connect_fd, MHD_HTTP_BAD_REQUEST, "-", path ? path : "/",
                MHD_lookup_connection_value(c, MHD_HEADER_KIND, "X-Request-Id"),
                MHD_lookup_connection_value(c, MHD_HEADER_KIND, "Origin"),
                GS_GATE_BAD_LENGTH);
    shutdown(ci->connect_fd, SHUT_WR);
    /* Unread bytes at MHD's close would reset the answer away. */
    for (int i = 0; i < 16; i++)
        if (recv(ci->connect_fd, sink, sizeof sink, MSG_DONTWAIT) <= 0)
            break;
    tls_answered = true;
    return true;
}

/* MHD's own diagnostics (bad requests it rejects itself, socket errors).
 * A refusal at the connection limit is counted, and logged at most once
 * a second: a flood must not turn into a flood of log lines. */
static void on_mhd_log(void *cls, const char *fmt, va_list ap)
{
    static _Atomic int64_t last_limit_log;
    gs_http *h = cls;
    char msg[512];

    vsnprintf(msg, sizeof msg, fmt, ap);
    msg[strcspn(msg, "\n")] = '\0';
    if (strstr(msg, "Content-Length") && answer_bad_length(h))
        return;
    if (tls_answered && (strstr(msg, "Error processing request") ||
                         strstr(msg, "Failed to send")))
        return;
    if (strstr(msg, "reached connection limit")) {
        gs_metrics_conn_limit(h->metrics, false);
        if (log_once_a_second(&last_limit_log))
            gs_log_note("warn", "refusing connections over "
                                "--max-connections-per-ip");
        return;
    }
    /* Our own MHD_NO and stream error (an abandoned request) are logged
     * with the request. */
    if (strstr(msg, "Application reported internal error") ||
        strstr(msg, "application error generating response"))
        return;
    gs_log_note("warn", "http: %s", msg);
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

/* The connection watcher with cfg's deadlines. */
static int start_conns(gs_http *h)
{
    const gs_server_config *cfg = h->cfg;
    int64_t head = (int64_t)cfg->header_timeout_ms * 1000000LL;
    gs_conns_cfg cc = {
        .header_timeout_ns = head,
        .idle_timeout_ns = (int64_t)IDLE_TIMEOUT_S * 1000000000LL,
        .min_body_rate = cfg->min_body_rate,
        .body_grace_ns = head ? head : 10000000000LL,
        .tick_ms = WATCH_TICK_MS,
    };
    gs_conns_hooks hooks = {
        .hangup = on_hangup, .tick = on_tick, .killed = on_killed, .ud = h};
    return gs_conns_new(&cc, &hooks, &h->conns);
}

/* The connection limit: the flag, or what RLIMIT_NOFILE leaves after a
 * reserve for the listener, epoll, logs and the process's other files. */
static unsigned connection_limit(const gs_server_config *cfg)
{
    struct rlimit rl;

    if (cfg->max_connections)
        return (unsigned)cfg->max_connections;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY ||
        rl.rlim_cur > 1000000 + FD_RESERVE)
        return 1000000;
    return rl.rlim_cur > 2 * FD_RESERVE ? (unsigned)(rl.rlim_cur - FD_RESERVE)
                                        : (unsigned)(rl.rlim_cur / 2);
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
    for (int i = 0; i < GS_HTTP_SHARDS; i++)
        atomic_init(&h->pending[i].n, 0);
    atomic_init(&h->id_seq, 0);
    make_id_prefix(h);
    h->log_json = strcmp(cfg->log_format, "json") == 0;
    h->cors_any = strcmp(cfg->cors_origin, "*") == 0;

    gs_solve_opts_default(&h->opts);
    h->opts.timeout_ms = (double)cfg->timeout_ms;
    h->opts.max_timeout_ms = (double)cfg->max_timeout_ms;
    h->opts.max_states = cfg->max_states;
    h->opts.max_states_limit = cfg->max_states_limit;
    h->opts.max_solve_bytes = cfg->max_solve_memory;
    h->opts.caps.max_cells = cfg->max_cells;

    rc = gs_metrics_new(&h->metrics);
    if (rc)
        return gs_error_set(err, rc, "cannot allocate metrics");
    rc = gs_logq_new(STDERR_FILENO, 0, LOG_FLUSH_MS, &h->logq);
    if (rc)
        return gs_error_set(err, rc, "cannot start the log writer");
    rc = start_conns(h);
    if (rc)
        return gs_error_set(err, rc, "cannot start the connection watcher");
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

/* ---- the gate (gate.h) ------------------------------------------------- */

static bool gate_pass(void *ud, int fd, const struct sockaddr *addr,
                      socklen_t len)
{
    gs_http *h = ud;
    return MHD_add_connection(h->daemon, fd, addr, len) == MHD_YES;
}

/* Writes all of data on the non-blocking fd, giving up when the client
 * does not take it (its loss: the connection closes anyway). */
static void send_all(int fd, const char *data, size_t len)
{
    for (int tries = 0; len && tries < 100; tries++) {
        ssize_t n = send(fd, data, len, MSG_NOSIGNAL);
        if (n > 0) {
            data += n;
            len -= (size_t)n;
        } else if (n < 0 && errno != EAGAIN && errno != EINTR) {
            return;
        } else {
            struct timespec ts = {0, 1000000L};
            nanosleep(&ts, NULL);
        }
    }
}

/* add_cors's header lines, for a response written by hand. */
static void cors_lines(const gs_http *h, const char *origin, gs_buf *out)
{
    if (!h->cors_any)
        gs_buf_puts(out, "Vary: Origin\r\n");
    const char *allow = cors_allow(h, origin);
    if (allow)
        gs_buf_printf(out,
                      "Access-Control-Allow-Origin: %s\r\n"
                      "Access-Control-Expose-Headers: " CORS_EXPOSE "\r\n",
                      allow);
}

/* The gate's refusal (400, 414 or 431) of a head libmicrohttpd would answer
 * wrongly, with the headers every response carries. */
static void gate_refuse(void *ud, int fd, int status, const char *method,
                        const char *path, const char *client_id,
                        const char *origin, const char *detail)
{
    gs_http *h = ud;
    gs_error e = {0};
    gs_buf body = GS_BUF_INIT, out = GS_BUF_INIT;
    char id[REQ_ID_MAX + 1];

    if (id_is_sane(client_id))
        snprintf(id, sizeof id, "%s", client_id);
    else
        format_id(id, h->id_prefix, next_id(h));
    gs_error_set(&e, GS_EBADREQ, "%s", detail);
    gs_service_problem_json(&e, status, path, &body);
    const char *date = http_date(time(NULL));
    const char *reason = status == MHD_HTTP_REQUEST_HEADER_FIELDS_TOO_LARGE
                             ? "Request Header Fields Too Large"
                         : status == MHD_HTTP_URI_TOO_LONG ? "URI Too Long"
                                                           : "Bad Request";
    gs_buf_printf(&out, "HTTP/1.1 %d %s\r\n", status, reason);
    /* RFC 9110 6.6.1: a 4xx from a server with a clock carries a Date. */
    if (date)
        gs_buf_printf(&out, "Date: %s\r\n", date);
    gs_buf_printf(&out,
                  "Connection: close\r\n"
                  "Content-Type: application/problem+json\r\n"
                  "Cache-Control: no-store\r\nX-Request-Id: %s\r\n",
                  id);
    cors_lines(h, origin, &out);
    gs_buf_printf(&out, "Content-Length: %zu\r\n\r\n", body.len);
    /* A HEAD answer has no content (RFC 9110, 9.3.2); "-" when MHD, not
     * the gate, parsed the head: the method is not known there. */
    if (strcmp(method, "HEAD") != 0)
        gs_buf_append(&out, body.data, body.len);
    if (gs_buf_status(&out) == GS_OK)
        send_all(fd, out.data, out.len);
    gs_buf_free(&body);
    gs_buf_free(&out);
    bool solve = strncmp(path, SOLVE_PREFIX, strlen(SOLVE_PREFIX)) == 0;
    gs_metrics_request(h->metrics, solve ? GS_ROUTE_SOLVE : GS_ROUTE_OTHER, -1,
                       status);
    log_line(h,
             &(gs_log_entry){
                 .method = method, .path = path, .status = status, .id = id},
             0);
}

static void gate_timed_out(void *ud)
{
    on_killed(ud, GS_CONN_HEADER_TIMEOUT);
}

static size_t gate_open(void *ud)
{
    gs_http *h = ud;
    return gs_conns_count(h->conns);
}

static size_t gate_open_from(void *ud, const struct sockaddr *addr)
{
    gs_http *h = ud;
    return gs_conns_count_addr(h->conns, addr);
}

static void gate_rejected(void *ud)
{
    static _Atomic int64_t last_log;
    gs_http *h = ud;

    gs_metrics_conn_limit(h->metrics, false);
    if (log_once_a_second(&last_log))
        gs_log_note("warn", "refusing connections over "
                            "--max-connections-per-ip");
}

static void gate_at_limit(void *ud, size_t open)
{
    static _Atomic int64_t last_log;
    gs_http *h = ud;

    gs_metrics_conn_limit(h->metrics, true);
    if (log_once_a_second(&last_log))
        gs_log_note("warn",
                    "%zu connections open, the --max-connections limit; new "
                    "ones wait",
                    open);
}

/* Starts the gate on listen_fd, in front of the running daemon. */
static int start_gate(gs_http *h, int listen_fd)
{
    gs_gate_cfg gc = {
        .head_timeout_ns = (int64_t)h->cfg->header_timeout_ms * 1000000LL,
        .head_room = CONN_MEMORY_BYTES - ANSWER_HEAD_ROOM,
        .max_connections = h->max_connections,
        .max_per_ip = h->cfg->max_connections_per_ip,
    };
    gs_gate_hooks hooks = {.pass = gate_pass,
                           .refuse = gate_refuse,
                           .timed_out = gate_timed_out,
                           .open = gate_open,
                           .open_from = gate_open_from,
                           .rejected = gate_rejected,
                           .at_limit = gate_at_limit,
                           .ud = h};
    return gs_gate_new(listen_fd, &gc, &hooks, &h->gate);
}

/* MHD's polling threads: one per core (capped), so that under load the
 * I/O of many connections is not serialised on one thread. Never more
 * than the connection limit: a thread beyond it would idle. */
static unsigned io_threads(const gs_http *h)
{
    unsigned n = gs_config_cpu_count();

    if (n > IO_THREADS_MAX)
        n = IO_THREADS_MAX;
    if (n > h->max_connections)
        n = h->max_connections;
    return n ? n : 1;
}

/* The value of hex digit c, or -1. */
static int hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

/* Percent-decodes s in place (path, query keys and values). Unlike
 * libmicrohttpd's own, it keeps "%00" as it came: a decoded NUL would end
 * the string for every later reader, so /healthz%00/x was served as
 * /healthz, another resource than the one a filter in front checked.
 * Such a path is now a 404, such a query value refused as any bad one. */
static size_t unescape(void *cls, struct MHD_Connection *conn, char *s)
{
    char *w = s;

    (void)cls;
    (void)conn;
    for (const char *p = s; *p;) {
        int hi = p[0] == '%' ? hex_digit(p[1]) : -1;
        int lo = hi >= 0 ? hex_digit(p[2]) : -1;
        if (lo >= 0 && (hi | lo)) {
            *w++ = (char)(hi * 16 + lo);
            p += 3;
        } else {
            *w++ = *p++;
        }
    }
    *w = '\0';
    return (size_t)(w - s);
}

int gs_http_start(gs_http *h, int listen_fd, gs_error *err)
{
    /* No listening socket of MHD's own: the gate accepts (gate.h) and
     * MHD_add_connection gives each connection to one polling thread
     * with room, which then owns it: its callbacks, suspend and resume
     * (whichever thread calls it: MHD wakes the owner) all happen there. */
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD |
                     MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC |
                     MHD_USE_ERROR_LOG | MHD_USE_NO_LISTEN_SOCKET;
    char msg[256];

    if (gs_mhd_load(msg, sizeof msg)) {
        close(listen_fd);
        return gs_error_set(err, GS_EINTERNAL, "%s", msg);
    }
    flags |= MHD_is_feature_supported(MHD_FEATURE_EPOLL) == MHD_YES
                 ? MHD_USE_EPOLL
                 : MHD_USE_POLL;
    h->max_connections = connection_limit(h->cfg);
    h->io_threads = io_threads(h);
    h->mhd_doubles_400 = strncmp(MHD_get_version(), "0.", 2) == 0;
    /* The gate holds --max-connections; MHD gets no limit of its own
     * (UINT_MAX, never reached: every connection holds a descriptor).
     * Its count runs behind the gate's, since it counts a handed-over
     * connection only once its thread takes it, and a closed one until
     * that thread cleans it up; and libmicrohttpd 0.9.75 refuses a
     * connection over its limit there without releasing a lock, which
     * stalls that thread for good. */
    struct MHD_OptionItem opts[] = {
        /* First, so that MHD's own messages about the rest reach it. */
        {MHD_OPTION_EXTERNAL_LOGGER, (intptr_t)on_mhd_log, h},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)on_completed, h},
        {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)on_connection, h},
        {MHD_OPTION_URI_LOG_CALLBACK, (intptr_t)on_uri, h},
        {MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)unescape, h},
        {MHD_OPTION_CONNECTION_LIMIT, UINT_MAX, NULL},
        {MHD_OPTION_PER_IP_CONNECTION_LIMIT,
         (intptr_t)h->cfg->max_connections_per_ip, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, IDLE_TIMEOUT_S, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, CONN_MEMORY_BYTES, NULL},
        /* Last: left out for one thread (MHD warns about a pool of 0). */
        {MHD_OPTION_THREAD_POOL_SIZE, (intptr_t)h->io_threads, NULL},
        {MHD_OPTION_END, 0, NULL}};
    if (h->io_threads < 2)
        opts[sizeof opts / sizeof opts[0] - 2].option = MHD_OPTION_END;
    h->daemon = MHD_start_daemon(flags, 0, NULL, NULL, on_request, h,
                                 MHD_OPTION_ARRAY, opts, MHD_OPTION_END);
    if (!h->daemon) {
        close(listen_fd);
        return gs_error_set(err, GS_EINTERNAL, "libmicrohttpd failed to start");
    }
    if (start_gate(h, listen_fd)) {
        close(listen_fd);
        return gs_error_set(err, GS_EINTERNAL, "cannot start accepting");
    }
    return GS_OK;
}

/* Sets the drain's cancel flag of one in-flight solve (under the
 * watcher's lock, so r is alive). */
static void cancel_one(void *watch, void *arg)
{
    req *r = watch;
    int none = CANCEL_NONE;

    (void)arg;
    atomic_compare_exchange_strong(&r->cancel, &none, CANCEL_DRAIN);
}

void gs_http_cancel_all(gs_http *h)
{
    atomic_store(&h->cancel, 1);
    gs_conns_each_watched(h->conns, cancel_one, NULL);
}

void gs_http_close_idle(gs_http *h)
{
    size_t n = gs_conns_close_idle(h->conns);
    if (n)
        gs_log_note("info", "closing %zu idle connections", n);
}

void gs_http_stop_listening(gs_http *h, long wait_ms)
{
    gs_gate_stop_listening(h->gate);
    gs_http_close_idle(h);
    int64_t end = gs_now_ns() + (int64_t)wait_ms * 1000000LL;
    while (gs_conns_count(h->conns) > 0 && gs_now_ns() < end) {
        struct timespec ts = {0, 5000000L};
        nanosleep(&ts, NULL);
    }
}

void gs_http_flush_log(gs_http *h)
{
    gs_logq_flush(h->logq);
}

void gs_http_free(gs_http *h)
{
    /* The gate first: it hands connections to the daemon. */
    gs_gate_free(h->gate);
    h->gate = NULL;
    if (h->daemon)
        MHD_stop_daemon(h->daemon);
    h->daemon = NULL;
    gs_conns_free(h->conns);
    h->conns = NULL;
    gs_pool_free(h->pool);
    h->pool = NULL;
    gs_metrics_free(h->metrics);
    h->metrics = NULL;
    /* Last: every request's line is queued by now. */
    gs_logq_free(h->logq);
    h->logq = NULL;
    free(h->puzzles_json);
    h->puzzles_json = NULL;
}
