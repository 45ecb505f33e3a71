/* log.c - request log lines (text or JSON) and traceparent validation.
 * See log.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gridsolve/log.h"

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

/* A bounded writer: appends what fits and remembers the length. */
typedef struct line {
    char *buf;
    size_t n, len;
} line;

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

/* Appends "name":"value" (value JSON-escaped; NULL as null). */
static void put_str(line *l, const char *name, const char *value)
{
    put(l, "%s\"%s\":", l->len > 1 ? "," : "", name);
    if (!value) {
        put(l, "null");
        return;
    }
    put(l, "\"");
    for (const unsigned char *p = (const unsigned char *)value; *p; p++) {
        if (*p == '"' || *p == '\\')
            put(l, "\\%c", *p);
        else if (*p < 0x20)
            put(l, "\\u%04x", *p);
        else
            put(l, "%c", *p);
    }
    put(l, "\"");
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
    put(l, "{");
    put_str(l, "time", e->time);
    put_str(l, "method", e->method);
    put_str(l, "path", e->path);
    if (e->status)
        put(l, ",\"status\":%d", e->status);
    else
        put(l, ",\"status\":null");
    put(l, ",\"ms\":%.3f", e->ms);
    put_str(l, "id", e->id);
    if (e->result) {
        put_str(l, "result", e->result);
        put(l, ",\"expanded\":%llu", (unsigned long long)e->expanded);
    }
    if (e->traceparent) {
        put_str(l, "traceparent", e->traceparent);
        put(l, ",\"trace_id\":\"%.32s\"", e->traceparent + 3);
    }
    if (outcome(e))
        put_str(l, "outcome", outcome(e));
    put(l, "}\n");
}

static void format_text(const gs_log_entry *e, line *l)
{
    char status[16] = "-";
    if (e->status)
        snprintf(status, sizeof status, "%d", e->status);
    put(l, "%s %s %s %s %.3fms id=%s", e->time, e->method, e->path, status,
        e->ms, e->id);
    if (e->result)
        put(l, " result=%s expanded=%llu", e->result,
            (unsigned long long)e->expanded);
    if (e->traceparent)
        put(l, " traceparent=%s", e->traceparent);
    if (outcome(e))
        put(l, " %s", outcome(e));
    put(l, "\n");
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
