/* log.c - request log lines (text or JSON) and traceparent validation.
 * See log.h. */
#include <math.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gridsolve/log.h"
#include "gridsolve/search.h"

/* True when s[0..n) is lowercase hex; *all_zero tells whether every
 * digit is '0' (an invalid id in Trace Context). */
static bool lower_hex(const char *s, size_t n, bool *all_zero)
{
    bool zero = true;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f')))
            return false;
        zero = zero && c == '0';
    }
    if (all_zero)
        *all_zero = zero;
    return true;
}

bool gs_traceparent_parse(const char *v, char out[GS_TRACEPARENT_LEN + 1])
{
    bool zero;
    size_t len = v ? strlen(v) : 0;

    if (len < GS_TRACEPARENT_LEN || v[2] != '-' || v[35] != '-' || v[52] != '-')
        return false;
    if (!lower_hex(v, 2, NULL) || strncmp(v, "ff", 2) == 0)
        return false;
    /* Version 00 is exactly 55 characters; a later version may append
     * fields, after a '-', that this parser does not know. */
    if (strncmp(v, "00", 2) == 0
            ? len != GS_TRACEPARENT_LEN
            : len > GS_TRACEPARENT_LEN && v[GS_TRACEPARENT_LEN] != '-')
        return false;
    if (!lower_hex(v + 3, 32, &zero) || zero)
        return false;
    if (!lower_hex(v + 36, 16, &zero) || zero)
        return false;
    if (!lower_hex(v + 53, 2, NULL))
        return false;
    memcpy(out, v, GS_TRACEPARENT_LEN);
    out[GS_TRACEPARENT_LEN] = '\0';
    return true;
}

/* A bounded writer: appends what fits and remembers the length. Lines
 * are built from plain copies and hand-written numbers (one per request:
 * printf's parsing of its format cost more than the rest of the line). */
typedef struct line {
    char *buf;
    size_t n, len;
} line;

/* Appends the k bytes at s, or as many as fit. */
static void put_raw(line *l, const char *s, size_t k)
{
    if (l->len + 1 >= l->n)
        return;
    size_t room = l->n - l->len - 1;
    if (k > room)
        k = room;
    memcpy(l->buf + l->len, s, k);
    l->len += k;
    l->buf[l->len] = '\0';
}

static void put_s(line *l, const char *s)
{
    put_raw(l, s, strlen(s));
}

#define PUT_LIT(l, lit) put_raw((l), (lit), sizeof(lit) - 1)

/* Appends a client's word for a text line: its spaces (and '%', so that
 * the encoding reads back) percent-encoded, so that a path or id cannot
 * pass for the fields after it. */
static void put_word(line *l, const char *s)
{
    const char *run = s;
    for (; *s; s++) {
        if (*s != ' ' && *s != '%')
            continue;
        put_raw(l, run, (size_t)(s - run));
        if (*s == ' ')
            PUT_LIT(l, "%20");
        else
            PUT_LIT(l, "%25");
        run = s + 1;
    }
    put_raw(l, run, (size_t)(s - run));
}

static void put(line *l, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void put(line *l, const char *fmt, ...)
{
    va_list ap;
    if (l->len + 1 >= l->n)
        return;
    va_start(ap, fmt);
    int w = vsnprintf(l->buf + l->len, l->n - l->len, fmt, ap);
    va_end(ap);
    if (w > 0)
        l->len += (size_t)w < l->n - l->len ? (size_t)w : l->n - l->len - 1;
}

/* Appends v in decimal. */
static void put_u64(line *l, uint64_t v)
{
    char d[24];
    size_t i = sizeof d;

    do {
        d[--i] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    put_raw(l, d + i, sizeof d - i);
}

/* Appends ms as "%.3f" prints it (by hand in the usual range). */
static void put_ms(line *l, double ms)
{
    if (!(ms >= 0 && ms < 1e12)) {
        put(l, "%.3f", ms);
        return;
    }
    uint64_t k = (uint64_t)(ms * 1000.0 + 0.5); /* ms >= 0: rounded */
    char frac[4] = {(char)('0' + k / 100 % 10), (char)('0' + k / 10 % 10),
                    (char)('0' + k % 10), '\0'};
    put_u64(l, k / 1000);
    PUT_LIT(l, ".");
    put_raw(l, frac, 3);
}

/* Appends "name":"value" (value JSON-escaped; NULL as null). */
static void put_str(line *l, const char *name, const char *value)
{
    if (l->len > 1)
        PUT_LIT(l, ",");
    PUT_LIT(l, "\"");
    put_s(l, name);
    PUT_LIT(l, "\":");
    if (!value) {
        PUT_LIT(l, "null");
        return;
    }
    PUT_LIT(l, "\"");
    const char *run = value;
    for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
        if (*p != '"' && *p != '\\' && *p >= 0x20)
            continue;
        put_raw(l, run, (size_t)((const char *)p - run));
        if (*p == '"' || *p == '\\')
            put(l, "\\%c", *p);
        else
            put(l, "\\u%04x", *p);
        run = (const char *)p + 1;
    }
    put_s(l, run);
    PUT_LIT(l, "\"");
}

/* The outcome word, or NULL when the request was answered. */
static const char *outcome(const gs_log_entry *e)
{
    const char *o = e->outcome;
    while (o && *o == ' ')
        o++;
    return o && *o ? o : NULL;
}

static void format_json(const gs_log_entry *e, line *l)
{
    PUT_LIT(l, "{");
    put_str(l, "time", e->time);
    put_str(l, "method", e->method);
    put_str(l, "path", e->path);
    PUT_LIT(l, ",\"status\":");
    if (e->status)
        put(l, "%d", e->status);
    else
        PUT_LIT(l, "null");
    PUT_LIT(l, ",\"ms\":");
    put_ms(l, e->ms);
    put_str(l, "id", e->id);
    if (e->result) {
        put_str(l, "result", e->result);
        PUT_LIT(l, ",\"expanded\":");
        put_u64(l, e->expanded);
    }
    if (e->traceparent) {
        put_str(l, "traceparent", e->traceparent);
        put(l, ",\"trace_id\":\"%.32s\"", e->traceparent + 3);
    }
    if (outcome(e))
        put_str(l, "outcome", outcome(e));
    PUT_LIT(l, "}\n");
}

static void format_text(const gs_log_entry *e, line *l)
{
    put_s(l, e->time);
    PUT_LIT(l, " ");
    put_s(l, e->method);
    PUT_LIT(l, " ");
    put_word(l, e->path);
    PUT_LIT(l, " ");
    if (e->status && e->status > 0)
        put_u64(l, (uint64_t)e->status);
    else if (e->status)
        put(l, "%d", e->status);
    else
        PUT_LIT(l, "-");
    PUT_LIT(l, " ");
    put_ms(l, e->ms);
    PUT_LIT(l, "ms id=");
    put_word(l, e->id);
    if (e->result) {
        PUT_LIT(l, " result=");
        put_s(l, e->result);
        PUT_LIT(l, " expanded=");
        put_u64(l, e->expanded);
    }
    if (e->traceparent) {
        PUT_LIT(l, " traceparent=");
        put_s(l, e->traceparent);
    }
    if (outcome(e)) {
        PUT_LIT(l, " ");
        put_s(l, outcome(e));
    }
    PUT_LIT(l, "\n");
}

size_t gs_log_format(const gs_log_entry *e, bool json, char *buf, size_t n)
{
    line l = {buf, n, 0};
    if (!n)
        return 0;
    buf[0] = '\0';
    if (json)
        format_json(e, &l);
    else
        format_text(e, &l);
    /* A line cut short still ends the line. */
    if (l.len && buf[l.len - 1] != '\n') {
        buf[l.len - 1] = '\n';
    }
    return l.len;
}

void gs_log_stamp(char *when, int64_t mono)
{
    static _Thread_local int64_t base_mono = INT64_MIN / 2, offset;
    static _Thread_local time_t sec = (time_t)-1;
    static _Thread_local char head[32];
    static _Thread_local size_t head_len;

    if (!mono)
        mono = gs_now_ns();
    if (mono - base_mono >= 1000000000LL || mono < base_mono) {
        struct timespec real;
        clock_gettime(CLOCK_REALTIME, &real);
        base_mono = gs_now_ns();
        offset = (int64_t)real.tv_sec * 1000000000LL + real.tv_nsec - base_mono;
    }
    int64_t ns = mono + offset;
    time_t now_sec = (time_t)(ns / 1000000000LL);
    if (now_sec != sec) {
        struct tm tm;
        gmtime_r(&now_sec, &tm);
        head_len = strftime(head, sizeof head, "%Y-%m-%dT%H:%M:%S", &tm);
        sec = now_sec;
    }
    unsigned ms = (unsigned)(ns % 1000000000LL / 1000000);
    memcpy(when, head, head_len);
    char *p = when + head_len;
    *p++ = '.';
    *p++ = (char)('0' + ms / 100);
    *p++ = (char)('0' + ms / 10 % 10);
    *p++ = (char)('0' + ms % 10);
    *p++ = 'Z';
    *p = '\0';
}

static atomic_bool note_json;

void gs_log_set_json(bool json)
{
    atomic_store(&note_json, json);
}

size_t gs_log_format_note(const char *time, const char *level, const char *msg,
                          bool json, char *buf, size_t n)
{
    line l = {buf, n, 0};
    if (!n)
        return 0;
    buf[0] = '\0';
    if (json) {
        PUT_LIT(&l, "{");
        put_str(&l, "time", time);
        put_str(&l, "level", level);
        put_str(&l, "msg", msg);
        PUT_LIT(&l, "}\n");
    } else {
        PUT_LIT(&l, "gridsolve: ");
        put_s(&l, msg);
        PUT_LIT(&l, "\n");
    }
    if (l.len && buf[l.len - 1] != '\n')
        buf[l.len - 1] = '\n';
    return l.len;
}

void gs_log_note(const char *level, const char *fmt, ...)
{
    char msg[768], out[1024], stamp[40] = "";
    va_list ap;

    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    bool json = atomic_load(&note_json);
    if (json)
        gs_log_stamp(stamp, 0);
    size_t len = gs_log_format_note(stamp, level, msg, json, out, sizeof out);
    /* One write: a line is not split by another thread's. */
    if (write(STDERR_FILENO, out, len) < 0)
        return; /* nowhere left to say so */
}
