/* service.c - request-level logic shared by the HTTP server and the CLI:
 * body -> instance -> solve -> response body, in JSON or judge text mode.
 *
 * Memory: JSON trees (cJSON, once gs_mem_install_cjson_hooks() ran), the
 * search stores and the puzzles' tables draw from the process budget
 * (mem.h). When the budget refuses, the answer depends on the stage:
 * - before solving (parsing the body, building the instance) the request
 *   cannot be held now: GS_EBUSY, a 503 with Retry-After, since the same
 *   body may well fit once other requests have finished;
 * - while solving, the solve ran out like it runs out of time or states:
 *   a 200 `limit` with "limit": "memory" (judge text: `limit`).
 * A failure is put down to the budget only when this thread saw a refusal
 * during the call (gs_mem_refused_here()); a real malloc failure stays 500.
 */
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/cjson.h"

#include "gridsolve/json.h"
#include "gridsolve/mem.h"
#include "gridsolve/service.h"

#define DEFAULT_TIMEOUT_MS 10000.0
#define DEFAULT_MAX_TIMEOUT_MS 60000.0
#define DEFAULT_MAX_STATES 20000000ull
#define DEFAULT_MAX_STATES_LIMIT 100000000ull
#define DEFAULT_MAX_CELLS (4096ull * 4096ull)
#define DEFAULT_MAX_SOLVE_BYTES (2048ull * 1024 * 1024)
/* The stack arena of a JSON body's tree (mem.h): the README's examples
 * take about 1 KB; a larger tree goes on in the heap. */
#define JSON_ARENA_BYTES 8192

void gs_solve_opts_default(gs_solve_opts *o)
{
    memset(o, 0, sizeof *o);
    o->timeout_ms = DEFAULT_TIMEOUT_MS;
    o->max_timeout_ms = DEFAULT_MAX_TIMEOUT_MS;
    o->max_states = DEFAULT_MAX_STATES;
    o->max_states_limit = DEFAULT_MAX_STATES_LIMIT;
    o->caps.max_cells = DEFAULT_MAX_CELLS;
    o->max_solve_bytes = DEFAULT_MAX_SOLVE_BYTES;
}

void gs_solve_opts_probe(const gs_solve_opts *full, gs_solve_opts *probe)
{
    *probe = *full;
    probe->probe.timeout_ms = GS_PROBE_TIMEOUT_MS;
    probe->probe.max_states = GS_PROBE_MAX_STATES;
    probe->probe.max_bytes = GS_PROBE_MAX_BYTES;
}

/* Which bounds a probe made tighter than the request's own. */
typedef struct tightened {
    bool time, states, bytes;
} tightened;

/* gs_deadline_after_ms(ms) as of `now` (a gs_now_ns() value): one clock
 * read serves a request's deadlines and its solve's start. */
static int64_t deadline_at(int64_t now, double ms)
{
    if (!(ms > 0)) /* also NaN */
        return 0;
    double ns = ms * 1e6;
    if (ns >= 4e18) /* about 126 years: never (no int64_t overflow) */
        return INT64_MAX;
    return now + (int64_t)ns;
}

/* Applies o's probe budget (if any) to lim, recording what it tightened. */
static tightened probe_limits(const gs_solve_opts *o, gs_limits *lim,
                              int64_t now)
{
    tightened t = {false, false, false};
    const gs_probe *pr = &o->probe;

    if (pr->timeout_ms > 0) {
        int64_t d = deadline_at(now, pr->timeout_ms);
        if (!lim->deadline_ns || d < lim->deadline_ns) {
            lim->deadline_ns = d;
            t.time = true;
        }
    }
    if (pr->max_states &&
        (!lim->max_states || pr->max_states < lim->max_states)) {
        lim->max_states = pr->max_states;
        t.states = true;
    }
    if (pr->max_bytes && (!lim->max_bytes || pr->max_bytes < lim->max_bytes)) {
        lim->max_bytes = pr->max_bytes;
        t.bytes = true;
    }
    return t;
}

/* True when res stopped at a bound the probe tightened: the request's own
 * limits might have let it finish. */
static bool probe_ran_out(const gs_result *res, tightened t)
{
    if (res->status != GS_LIMIT)
        return false;
    switch (res->limit) {
    case GS_LIMIT_STATES:
        return t.states;
    case GS_LIMIT_MEMORY:
        return t.bytes || t.time; /* the process budget may be freer later */
    default:
        return t.time;
    }
}

/* The limits of one request: requested values (< 0 = default) clamped. */
static gs_limits make_limits(const gs_solve_opts *o, double timeout_ms,
                             long long max_states, int64_t now)
{
    gs_limits lim = {0};
    double t = timeout_ms >= 0 ? timeout_ms : o->timeout_ms;
    if (o->max_timeout_ms > 0 && t > o->max_timeout_ms)
        t = o->max_timeout_ms;
    uint64_t m = max_states >= 0 ? (uint64_t)max_states : o->max_states;
    if (o->max_states_limit > 0 && m > o->max_states_limit)
        m = o->max_states_limit;
    /* A zero timeout means "as the server allows", never "no deadline". */
    if (t <= 0)
        t = o->max_timeout_ms > 0 ? o->max_timeout_ms : o->timeout_ms;
    lim.deadline_ns = deadline_at(now, t);
    lim.max_states = m;
    lim.max_bytes = o->max_solve_bytes;
    lim.cancel = o->cancel;
    lim.progress = o->progress;
    return lim;
}

const char *const gs_service_common_fields[] = {"limits", NULL};
const char *const gs_service_common_query[] = {"timeout_ms", "max_states",
                                               NULL};
static const char *const limits_fields[] = {"timeout_ms", "max_states", NULL};

int gs_service_check_query(const gs_puzzle *p, bool text, const char *name,
                           gs_error *err)
{
    if (!text) {
        const char *best = gs_closest_name(name, gs_service_common_query, NULL);
        if (best)
            return gs_error_set(err, GS_EBADREQ,
                                "query parameter \"%.64s\" is for judge text "
                                "mode; in JSON mode send \"limits\": "
                                "{\"%s\": N} in the body",
                                name, best);
        return gs_error_set(err, GS_EBADREQ,
                            "unknown query parameter \"%.64s\"; JSON mode "
                            "takes its options in the body",
                            name);
    }
    for (const char *const *q = gs_service_common_query; *q; q++)
        if (strcmp(name, *q) == 0)
            return GS_OK;
    for (const char *const *q = p->text_options; q && *q; q++)
        if (strcmp(name, *q) == 0)
            return GS_OK;
    return gs_unknown_name(err, "query parameter", "", name,
                           gs_service_common_query, p->text_options);
}

int gs_service_check_format(const gs_puzzle *p, const char *format,
                            gs_error *err)
{
    if (!format)
        return GS_OK;
    if (!p->text_formats)
        return gs_error_set(err, GS_EBADREQ,
                            "%s judge text has one notation: there is no "
                            "format to choose",
                            p->name);
    gs_buf known = GS_BUF_INIT;
    for (const char *const *f = p->text_formats; *f; f++) {
        if (strcmp(format, *f) == 0) {
            gs_buf_free(&known);
            return GS_OK;
        }
        const char *sep = f == p->text_formats ? "" : f[1] ? ", " : " or ";
        gs_buf_printf(&known, "%s%s", sep, *f);
    }
    int rc = gs_error_set(
        err, GS_EBADREQ, "unknown text format \"%.32s\"; %s reads %s", format,
        p->name,
        gs_buf_status(&known) || !known.data ? "other notations" : known.data);
    gs_buf_free(&known);
    return rc;
}

/* Reads the optional "limits" object of a JSON body. */
static int read_limits(const cJSON *body, double *timeout_ms,
                       long long *max_states, gs_error *err)
{
    const cJSON *lim = cJSON_GetObjectItemCaseSensitive(body, "limits");
    *timeout_ms = -1;
    *max_states = -1;
    if (!lim)
        return GS_OK;
    if (!cJSON_IsObject(lim))
        return gs_error_set(err, GS_EBADREQ,
                            "field \"limits\" must be an object");
    int rc = gs_json_only_fields(lim, "limits.", limits_fields, NULL, err);
    if (rc)
        return rc;
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(lim, "timeout_ms");
    if (t) {
        if (!cJSON_IsNumber(t))
            return gs_error_set(err, GS_EBADREQ,
                                "field \"limits.timeout_ms\" must be a number");
        /* A huge value (1e400 reads as infinity) is clamped, as any
         * value past the server's maximum. */
        if (!(t->valuedouble >= 0))
            return gs_error_set(err, GS_EINVALID,
                                "field \"limits.timeout_ms\" must be >= 0");
        *timeout_ms = t->valuedouble;
    }
    const cJSON *m = cJSON_GetObjectItemCaseSensitive(lim, "max_states");
    if (m) {
        if (!cJSON_IsNumber(m) || m->valuedouble != floor(m->valuedouble))
            return gs_error_set(
                err, GS_EBADREQ,
                "field \"limits.max_states\" must be an integer");
        if (m->valuedouble < 1)
            return gs_error_set(err, GS_EINVALID,
                                "field \"limits.max_states\" must be >= 1");
        *max_states =
            m->valuedouble > 9e18 ? (long long)9e18 : (long long)m->valuedouble;
    }
    return GS_OK;
}

/* True when the memory budget refused this thread since `mark` (a value
 * of gs_mem_refused_here()). */
static bool budget_refused(uint64_t mark)
{
    return gs_mem_refused_here() != mark;
}

/* The 503 of a request the budget cannot hold before its solve starts. */
static int busy_error(gs_error *err, const char *what)
{
    return gs_error_set(err, GS_EBUSY,
                        "not enough memory to %s: %llu of the %llu bytes "
                        "the memory budget leaves requests are in use; "
                        "retry later",
                        what, (unsigned long long)gs_mem_used(),
                        (unsigned long long)gs_mem_budget());
}

/* Line and column (1-based) of byte offset `pos` in body. */
static void locate(const char *body, size_t pos, int *line, int *col)
{
    *line = 1;
    *col = 1;
    for (size_t i = 0; i < pos; i++) {
        if (body[i] == '\n') {
            (*line)++;
            *col = 1;
        } else {
            (*col)++;
        }
    }
}

/* Offset of the first \u0000 escape in a JSON text, or len when there is
 * none: cJSON keeps strings as C strings, so a NUL would silently cut a
 * grid row short. "u0000" is an escape after an odd run of backslashes
 * (an even run is escaped backslashes, then plain text). */
static size_t nul_escape_at(const char *body, size_t len)
{
    for (size_t i = 1; i + 5 <= len; i++) {
        if (body[i] != 'u' || memcmp(body + i, "u0000", 5) != 0)
            continue;
        size_t run = 0;
        while (run < i && body[i - 1 - run] == '\\')
            run++;
        if (run % 2)
            return i - 1;
    }
    return len;
}

/* Whether cJSON stopped at pos for its nesting limit: an array or object
 * opens there inside as many as the limit (strings skipped). */
static bool too_deep(const char *body, size_t pos, size_t len)
{
    if (pos >= len)
        return false;
    size_t depth = 0;
    bool in_string = false;
    for (size_t i = 0; i < pos; i++) {
        char c = body[i];
        if (in_string) {
            if (c == '\\')
                i++;
            else if (c == '"')
                in_string = false;
        } else if (c == '"') {
            in_string = true;
        } else if (c == '[' || c == '{') {
            depth++;
        } else if ((c == ']' || c == '}') && depth > 0) {
            depth--;
        }
    }
    return depth >= CJSON_NESTING_LIMIT &&
           (body[pos] == '[' || body[pos] == '{');
}

static int parse_body(const char *body, size_t len, cJSON **out, gs_error *err)
{
    const char *end = NULL;
    uint64_t mark = gs_mem_refused_here();
    cJSON *doc = cJSON_ParseWithLengthOpts(body, len, &end, false);
    if (!doc && budget_refused(mark))
        return busy_error(err, "parse the body");
    if (!doc) {
        int line, col;
        size_t pos =
            end && end >= body && end <= body + len ? (size_t)(end - body) : 0;
        locate(body, pos, &line, &col);
        if (too_deep(body, pos, len))
            return gs_error_set(err, GS_EBADREQ,
                                "body nests arrays and objects deeper than "
                                "%d levels (line %d, column %d)",
                                CJSON_NESTING_LIMIT, line, col);
        return gs_error_set(err, GS_EBADREQ,
                            "body is not valid JSON (line %d, column %d)", line,
                            col);
    }
    /* Anything but whitespace after the document is an error too. */
    for (const char *p = end; p && p < body + len; p++) {
        if (*p != ' ' && *p != '\t' && *p != '\r' && *p != '\n') {
            cJSON_Delete(doc);
            return gs_error_set(err, GS_EBADREQ,
                                "body is not valid JSON: trailing data");
        }
    }
    if (!cJSON_IsObject(doc)) {
        cJSON_Delete(doc);
        return gs_error_set(err, GS_EBADREQ, "body must be a JSON object");
    }
    size_t nul = nul_escape_at(body, len);
    if (nul < len) {
        cJSON_Delete(doc);
        int line, col;
        locate(body, nul, &line, &col);
        return gs_error_set(err, GS_EINVALID,
                            "\\u0000 (a NUL character) at line %d, column %d: "
                            "no field takes one",
                            line, col);
    }
    *out = doc;
    return GS_OK;
}

/* Runs the puzzle's solver with timing. A solver that fails because the
 * memory budget refused one of its allocations ran out of memory like it
 * runs out of states: that is a `limit` answer, not an error. */
static int run_solve(const gs_puzzle *p, void *inst, const gs_limits *lim,
                     gs_result *res, gs_error *err, int64_t t0, int64_t *end_ns)
{
    if (!t0) /* else the clock was read just before */
        t0 = gs_now_ns();
    uint64_t mark = gs_mem_refused_here();
    gs_result_clear(res);
    int rc = p->solve(inst, lim, res, err);
    if (rc == GS_ENOMEM && budget_refused(mark)) {
        gs_result_free(res);
        gs_result_clear(res);
        res->status = GS_LIMIT;
        res->limit = GS_LIMIT_MEMORY;
        rc = GS_OK;
    }
    *end_ns = gs_now_ns();
    res->elapsed_ms = (double)(*end_ns - t0) / 1e6;
    if (rc == GS_OK && res->status == GS_SOLVED && !res->moves)
        rc = gs_error_set(err, GS_EINTERNAL, "solver returned no moves");
    return rc;
}

/* The result of a judge case left unsolved because the shared deadline
 * (or cancel) came first: a body can hold many cases whose preparation
 * alone (allocating and scanning a large board) takes time, so past the
 * deadline they are not even set up. */
static void expired_result(gs_result *res)
{
    gs_result_clear(res);
    res->status = GS_LIMIT;
    res->limit = GS_LIMIT_TIME;
}

/* The answer's writer: pieces gather in a small array and go to `out` in
 * few appends (the buffer then grows once or twice, not per piece). */
typedef struct jw {
    gs_buf *out;
    size_t n;
    char tmp[240];
} jw;

static void jw_flush(jw *w)
{
    if (w->n)
        gs_buf_append(w->out, w->tmp, w->n);
    w->n = 0;
}

static void jw_put(jw *w, const char *s, size_t k)
{
    if (w->n + k > sizeof w->tmp) {
        jw_flush(w);
        if (k > sizeof w->tmp) {
            gs_buf_append(w->out, s, k);
            return;
        }
    }
    memcpy(w->tmp + w->n, s, k);
    w->n += k;
}

#define JW_LIT(w, lit) jw_put((w), (lit), sizeof(lit) - 1)

static void jw_puts(jw *w, const char *s)
{
    jw_put(w, s, strlen(s));
}

/* Appends s as a JSON string, escaped exactly as cJSON escapes it. */
static void put_string(jw *w, const char *s)
{
    static const char named[] = "\"\\\b\f\n\r\t", as[] = "\"\\bfnrt";
    char esc[8];

    JW_LIT(w, "\"");
    for (const char *run = s;; s++) {
        unsigned char c = (unsigned char)*s;
        if (c >= 32 && c != '"' && c != '\\')
            continue;
        jw_put(w, run, (size_t)(s - run));
        if (!c)
            break;
        const char *k = strchr(named, c);
        if (k)
            snprintf(esc, sizeof esc, "\\%c", as[k - named]);
        else
            snprintf(esc, sizeof esc, "\\u%04x", c);
        jw_puts(w, esc);
        run = s + 1;
    }
    JW_LIT(w, "\"");
}

/* Appends v in decimal (a minus sign when negative). */
static void put_int(jw *w, long long v)
{
    char d[24];
    size_t i = sizeof d;
    unsigned long long u =
        v < 0 ? 0ull - (unsigned long long)v : (unsigned long long)v;

    do {
        d[--i] = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        d[--i] = '-';
    jw_put(w, d + i, sizeof d - i);
}

/* Appends d as cJSON prints a number: as an int when it equals its int
 * value (saturated, like cJSON's valueint), else with 15 significant
 * digits when they read back as d, else 17. */
static void put_number(jw *w, double d)
{
    char tmp[32];

    if (isnan(d) || isinf(d)) {
        JW_LIT(w, "null");
        return;
    }
    int i = d >= (double)INT_MAX   ? INT_MAX
            : d <= (double)INT_MIN ? INT_MIN
                                   : (int)d;
    if (d == (double)i) {
        put_int(w, i);
        return;
    }
    snprintf(tmp, sizeof tmp, "%1.15g", d);
    double back = strtod(tmp, NULL);
    double big = fabs(back) > fabs(d) ? fabs(back) : fabs(d);
    if (!(fabs(back - d) <= big * DBL_EPSILON))
        snprintf(tmp, sizeof tmp, "%1.17g", d);
    jw_puts(w, tmp);
}

/* Appends ms rounded to the microsecond, as put_number prints that
 * value: k / 1000 with k < 10^15 has at most 15 significant digits, so
 * "%1.15g" prints the decimal itself, trailing zeros dropped; written
 * here by hand (printf's floating point cost as much as a tiny solve). */
static void put_ms(jw *w, double ms)
{
    double x = ms * 1000;

    if (!(x >= 0 && x < 1e15)) {
        put_number(w, ms); /* anything unusual */
        return;
    }
    unsigned long long u = (unsigned long long)(x + 0.5); /* rounded */
    if (u % 1000 == 0) {
        put_number(w, (double)(u / 1000)); /* whole milliseconds */
        return;
    }
    unsigned frac = (unsigned)(u % 1000);
    char f[4] = {(char)('0' + frac / 100), (char)('0' + frac / 10 % 10),
                 (char)('0' + frac % 10), '\0'};
    size_t n = 3;
    while (f[n - 1] == '0')
        n--;
    put_int(w, (long long)(u / 1000));
    JW_LIT(w, ".");
    jw_put(w, f, n);
}

/* Serializes a result as the JSON response of API.md, written directly:
 * byte for byte what cJSON printed from a tree, which cost more than the
 * whole solve of a small instance. */
static int result_json(const gs_puzzle *p, const gs_result *res, gs_buf *out,
                       gs_error *err)
{
    bool solved = res->status == GS_SOLVED;
    jw w = {.out = out};

    (void)err;
    JW_LIT(&w, "{\"puzzle\":");
    put_string(&w, p->name);
    JW_LIT(&w, ",\"status\":");
    put_string(&w, gs_status_name(res->status));
    if (res->status == GS_LIMIT) {
        JW_LIT(&w, ",\"limit\":");
        put_string(&w, gs_limit_name(res->limit));
    }
    JW_LIT(&w, ",\"steps\":");
    if (solved)
        put_number(&w, (double)res->steps);
    else
        JW_LIT(&w, "null");
    JW_LIT(&w, ",\"moves\":");
    if (solved)
        put_string(&w, res->moves ? res->moves : "");
    else
        JW_LIT(&w, "null");
    if (p->reports_pushes) {
        JW_LIT(&w, ",\"pushes\":");
        if (solved && res->pushes >= 0)
            put_number(&w, (double)res->pushes);
        else
            JW_LIT(&w, "null");
    }
    JW_LIT(&w, ",\"optimal\":");
    if (solved && res->optimal)
        JW_LIT(&w, "true");
    else
        JW_LIT(&w, "false");
    JW_LIT(&w, ",\"stats\":{\"expanded\":");
    put_number(&w, (double)res->expanded);
    JW_LIT(&w, ",\"elapsed_ms\":");
    put_ms(&w, res->elapsed_ms);
    JW_LIT(&w, "}}\n");
    jw_flush(&w);
    return gs_buf_status(out);
}

static int service_json(const gs_puzzle *p, const char *body, size_t len,
                        const gs_solve_opts *opts, gs_buf *out,
                        gs_solve_info *info, gs_error *err)
{
    cJSON *doc = NULL;
    void *inst = NULL;
    gs_result res;
    double timeout_ms;
    long long max_states;

    gs_result_clear(&res);
    /* The tree of a small body fits in this (mem.h): deleted below,
     * before the arena ends. */
    _Alignas(16) unsigned char space[JSON_ARENA_BYTES];
    gs_mem_arena arena;
    gs_mem_arena_begin(&arena, space, sizeof space);
    int rc = parse_body(body, len, &doc, err);
    gs_mem_arena_close(&arena);
    if (rc) {
        gs_mem_arena_end(&arena);
        return rc;
    }
    uint64_t mark = gs_mem_refused_here();
    rc = read_limits(doc, &timeout_ms, &max_states, err);
    /* Strict input: a misspelt option must not silently fall back to
     * its default. */
    if (!rc && p->fields)
        rc = gs_json_only_fields(doc, "", p->fields, gs_service_common_fields,
                                 err);
    if (!rc)
        rc = p->parse_json(doc, &opts->caps, &inst, err);
    /* A tree wholly in the arena goes with it: no walk to free nothing. */
    if (!gs_mem_arena_holds_all(&arena))
        cJSON_Delete(doc);
    gs_mem_arena_end(&arena);
    if (rc == GS_ENOMEM && budget_refused(mark))
        rc = busy_error(err, "hold the puzzle");
    if (rc) {
        if (inst)
            p->free(inst);
        return rc;
    }
    int64_t now = gs_now_ns();
    gs_limits lim = make_limits(opts, timeout_ms, max_states, now);
    tightened t = probe_limits(opts, &lim, now);
    int64_t end = 0;
    rc = run_solve(p, inst, &lim, &res, err, now, &end);
    p->free(inst);
    if (!rc && probe_ran_out(&res, t))
        rc = GS_SERVICE_AGAIN;
    if (!rc)
        rc = result_json(p, &res, out, err);
    if (info) {
        info->status = res.status;
        info->expanded = res.expanded;
        info->elapsed_ms = res.elapsed_ms;
        info->end_ns = end;
    }
    gs_result_free(&res);
    return rc;
}

/* Frees the first n instances of a parsed text body. */
static void free_cases(const gs_puzzle *p, void **cases, size_t n)
{
    for (size_t i = 0; i < n; i++)
        p->free(cases[i]);
    free(cases);
}

/* Parses every case first, so that a bad case late in the input costs no
 * solving time and the answer is all-or-nothing. */
static int parse_cases(const gs_puzzle *p, const char *body, size_t len,
                       const gs_caps *caps, const char *format, void ***cases,
                       size_t *count, gs_error *err)
{
    gs_text t;
    void **v = NULL;
    size_t n = 0, cap = 0;

    gs_text_init(&t, body, len);
    t.format = format;
    for (;;) {
        void *inst = NULL;
        int rc = p->parse_text(&t, caps, &inst, err);
        if (rc == 0)
            break;
        if (rc < 0) {
            if (inst)
                p->free(inst);
            free_cases(p, v, n);
            gs_error_prefix(err, "case %zu: ", n + 1);
            return rc;
        }
        if (n == cap) {
            size_t ncap = cap ? cap * 2 : 8;
            void **nv = realloc(v, ncap * sizeof *nv);
            if (!nv) {
                p->free(inst);
                free_cases(p, v, n);
                return gs_error_set(err, GS_ENOMEM, "out of memory");
            }
            v = nv;
            cap = ncap;
        }
        v[n++] = inst;
        t.cases++;
    }
    *cases = v;
    *count = n;
    return GS_OK;
}

static int service_text(const gs_puzzle *p, const char *body, size_t len,
                        const gs_solve_opts *opts, double query_timeout_ms,
                        long long query_max_states, gs_buf *out,
                        gs_solve_info *info, gs_error *err)
{
    void **cases = NULL;
    size_t n = 0;
    uint64_t mark = gs_mem_refused_here();
    int rc = gs_service_check_format(p, opts->text_format, err);
    if (rc)
        return rc;
    rc = parse_cases(p, body, len, &opts->caps, opts->text_format, &cases, &n,
                     err);
    if (rc == GS_ENOMEM && budget_refused(mark))
        return busy_error(err, "hold the puzzles");
    if (rc)
        return rc;
    int64_t now = gs_now_ns();
    gs_limits lim = make_limits(opts, query_timeout_ms, query_max_states, now);
    tightened t = probe_limits(opts, &lim, now);
    size_t out_len = out->len;
    int64_t end = 0;
    if (info)
        memset(info, 0, sizeof *info);
    for (size_t i = 0; i < n && !rc; i++) {
        gs_result res;
        end = 0; /* the last case's end, when it ran */
        if (gs_limits_expired(&lim))
            expired_result(&res);
        else
            rc =
                run_solve(p, cases[i], &lim, &res, err, i == 0 ? now : 0, &end);
        if (!rc && probe_ran_out(&res, t)) {
            gs_result_free(&res);
            rc = GS_SERVICE_AGAIN;
            break;
        }
        if (!rc) {
            p->format_text(cases[i], &res, (int)i + 1, out);
            rc = gs_buf_status(out);
        }
        if (info) {
            /* A limit anywhere marks the whole body: its answer is
             * incomplete (the CLI exits 3, metrics count a limit). */
            if (i == 0 || info->status != GS_LIMIT)
                info->status = res.status;
            info->expanded += res.expanded;
            info->elapsed_ms += res.elapsed_ms;
            info->end_ns = end;
        }
        gs_result_free(&res);
        if (rc)
            gs_error_prefix(err, "case %zu: ", i + 1);
    }
    free_cases(p, cases, n);
    if (rc == GS_SERVICE_AGAIN && out->data) { /* out as it was */
        out->len = out_len;
        out->data[out_len] = '\0';
    }
    return rc;
}

/* The service calls run in a memory scope (mem.h): the JSON tree's nodes,
 * the instance and the search's small blocks draw on this thread's credit
 * instead of an atomic operation each on the shared counter. */
int gs_service_json(const gs_puzzle *p, const char *body, size_t len,
                    const gs_solve_opts *opts, gs_buf *out, gs_solve_info *info,
                    gs_error *err)
{
    gs_mem_scope_begin();
    int rc = service_json(p, body, len, opts, out, info, err);
    gs_mem_scope_end();
    return rc;
}

int gs_service_text(const gs_puzzle *p, const char *body, size_t len,
                    const gs_solve_opts *opts, double query_timeout_ms,
                    long long query_max_states, gs_buf *out,
                    gs_solve_info *info, gs_error *err)
{
    gs_mem_scope_begin();
    int rc = service_text(p, body, len, opts, query_timeout_ms,
                          query_max_states, out, info, err);
    gs_mem_scope_end();
    return rc;
}

/* Adds `text` (a JSON document from a puzzle's table) parsed into o. */
static bool add_parsed(cJSON *o, const char *name, const char *text)
{
    cJSON *v = cJSON_Parse(text ? text : "{}");
    if (!v)
        return false;
    if (!cJSON_AddItemToObject(o, name, v)) {
        cJSON_Delete(v);
        return false;
    }
    return true;
}

/* Adds the puzzle's JSON fields, then the common ones, as an array. */
static bool add_names(cJSON *o, const char *name, const char *const *list)
{
    cJSON *arr = cJSON_AddArrayToObject(o, name);
    bool ok = arr != NULL;
    for (; ok && list && *list; list++)
        ok = cJSON_AddItemToArray(arr, cJSON_CreateString(*list));
    for (list = gs_service_common_fields; ok && *list; list++)
        ok = cJSON_AddItemToArray(arr, cJSON_CreateString(*list));
    return ok;
}

int gs_service_puzzles_json(gs_buf *out)
{
    cJSON *doc = cJSON_CreateObject();
    cJSON *arr = doc ? cJSON_AddArrayToObject(doc, "puzzles") : NULL;
    bool ok = arr != NULL;
    for (size_t i = 0; ok && i < gs_puzzle_count; i++) {
        const gs_puzzle *p = gs_puzzles[i];
        cJSON *o = cJSON_CreateObject();
        char path[96];
        snprintf(path, sizeof path, "/solve/%s", p->name);
        ok = o && cJSON_AddItemToArray(arr, o);
        if (!ok) {
            cJSON_Delete(o);
            break;
        }
        ok = cJSON_AddStringToObject(o, "name", p->name) &&
             cJSON_AddStringToObject(o, "description", p->summary) &&
             cJSON_AddStringToObject(o, "path", path) &&
             add_names(o, "fields", p->fields) &&
             add_parsed(o, "options", p->options) &&
             add_parsed(o, "example", p->example);
    }
    char *text = ok ? cJSON_PrintUnformatted(doc) : NULL;
    cJSON_Delete(doc);
    if (!text)
        return GS_ENOMEM;
    gs_buf_puts(out, text);
    gs_buf_puts(out, "\n");
    cJSON_free(text);
    return gs_buf_status(out);
}

/* Length of the valid UTF-8 sequence that starts s (NUL-terminated), or
 * 0 when its first byte does not start one. Never reads past a NUL. */
static size_t utf8_seq(const unsigned char *s)
{
    unsigned char c = s[0], lo = 0x80, hi = 0xBF;
    size_t n;
    if (c < 0x80)
        return 1;
    if (c >= 0xC2 && c <= 0xDF) {
        n = 2;
    } else if (c >= 0xE0 && c <= 0xEF) {
        n = 3;
        lo = c == 0xE0 ? 0xA0 : 0x80; /* no overlong forms */
        hi = c == 0xED ? 0x9F : 0xBF; /* no surrogates */
    } else if (c >= 0xF0 && c <= 0xF4) {
        n = 4;
        lo = c == 0xF0 ? 0x90 : 0x80;
        hi = c == 0xF4 ? 0x8F : 0xBF; /* nothing above U+10FFFF */
    } else {
        return 0;
    }
    if (s[1] < lo || s[1] > hi)
        return 0;
    for (size_t i = 2; i < n; i++)
        if (s[i] < 0x80 || s[i] > 0xBF)
            return 0;
    return n;
}

/* A malloc'd copy of s with each byte that is not part of valid UTF-8
 * replaced by '?'. Details and paths echo request bytes, and JSON text
 * must be UTF-8 for clients to parse it. NULL when out of memory. */
static char *utf8_clean(const char *s)
{
    const unsigned char *p = (const unsigned char *)s;
    char *out = malloc(strlen(s) + 1);
    size_t i = 0;
    if (!out)
        return NULL;
    while (*p) {
        size_t n = utf8_seq(p);
        if (n == 0) {
            out[i++] = '?';
            p++;
        } else {
            memcpy(out + i, p, n);
            i += n;
            p += n;
        }
    }
    out[i] = '\0';
    return out;
}

void gs_service_problem_json(const gs_error *err, int http_status,
                             const char *instance, gs_buf *out)
{
    const char *type = gs_problem_type(http_status);
    const char *title = gs_problem_title(http_status);
    char *detail = utf8_clean(err && err->detail[0] ? err->detail : title);
    char *inst = utf8_clean(instance ? instance : "");
    cJSON *o = cJSON_CreateObject();
    bool ok = o && detail && inst && cJSON_AddStringToObject(o, "type", type) &&
              cJSON_AddStringToObject(o, "title", title) &&
              cJSON_AddNumberToObject(o, "status", http_status) &&
              cJSON_AddStringToObject(o, "detail", detail) &&
              cJSON_AddStringToObject(o, "instance", inst);
    char *text = ok ? cJSON_PrintUnformatted(o) : NULL;
    cJSON_Delete(o);
    free(detail);
    free(inst);
    if (!text) {
        out->oom = 1;
        return;
    }
    gs_buf_puts(out, text);
    gs_buf_puts(out, "\n");
    cJSON_free(text);
}

/* Writes s as the inside of a JSON string into dst, at most cap bytes
 * (a NUL after them): printable ASCII kept, quote and backslash escaped,
 * any other byte '?'; stops before an escape that would not fit. */
static void ascii_json(char *dst, size_t cap, const char *s)
{
    size_t n = 0;

    for (; s && *s; s++) {
        unsigned char c = (unsigned char)*s;
        bool esc = c == '"' || c == '\\';
        if (n + (esc ? 2 : 1) > cap)
            break;
        if (esc)
            dst[n++] = '\\';
        dst[n++] = c >= 0x20 && c < 0x7f ? (char)c : '?';
    }
    dst[n] = '\0';
}

size_t gs_service_problem_fallback(const gs_error *err, int http_status,
                                   const char *instance, char *buf, size_t len)
{
    /* The type and title are ours (ASCII, no quotes); 160 bytes each for
     * the detail and the instance leave room for them and the keys. */
    enum { PART = 160 };
    char detail[PART + 1], inst[PART + 1];
    const char *title = gs_problem_title(http_status);

    ascii_json(detail, PART, err && err->detail[0] ? err->detail : title);
    ascii_json(inst, PART, instance ? instance : "");
    int n = snprintf(buf, len,
                     "{\"type\":\"%s\",\"title\":\"%s\",\"status\":%d,"
                     "\"detail\":\"%s\",\"instance\":\"%s\"}\n",
                     gs_problem_type(http_status), title, http_status, detail,
                     inst);
    return n < 0 ? 0 : (size_t)n < len ? (size_t)n : len - 1;
}
