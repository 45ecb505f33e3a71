/* log.h - the request log line of `gridsolve serve`, as text or as one
 * JSON object, and the W3C traceparent header it records.
 *
 * Formatting writes into a caller's fixed buffer: logging allocates
 * nothing, so it cannot fail for want of memory.
 */
#ifndef GRIDSOLVE_LOG_H
#define GRIDSOLVE_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Length of a version-00 traceparent: 2 + 1 + 32 + 1 + 16 + 1 + 2. */
#define GS_TRACEPARENT_LEN 55

/* True when v is a valid W3C traceparent (Trace Context level 1):
 * version-traceid-parentid-flags in lowercase hex, version not ff, ids
 * not all zero, exactly 55 characters for version 00, and for a later
 * version at least that with a '-' after them. Its first 55 characters
 * (the fields this version understands) go to out. */
bool gs_traceparent_parse(const char *v, char out[GS_TRACEPARENT_LEN + 1]);

/* One request as logged. Strings are printable ASCII (the HTTP layer
 * makes them so); JSON escaping is done here. */
typedef struct gs_log_entry {
    const char *time; /* "2026-11-29T16:04:50.904Z" */
    const char *method;
    const char *path;
    int status;              /* 0: no response was sent */
    double ms;               /* request start to completion */
    const char *id;          /* X-Request-Id */
    const char *result;      /* solve result, NULL when no solve ran */
    uint64_t expanded;       /* with result */
    const char *traceparent; /* validated, NULL when none */
    const char *outcome;     /* NULL: answered; else e.g. "aborted" (the
                                connection ended first); blanks before
                                the word are ignored */
} gs_log_entry;

/* Writes the line for e, '\n' included, into buf (n bytes, NUL-ended,
 * cut short only if n is too small) and returns its length. text:
 *   TIME METHOD PATH STATUS 1.234ms id=ID [result=R expanded=N]
 *   [traceparent=T] [OUTCOME]
 * json: {"time":..,"method":..,"path":..,"status":N|null,"ms":..,"id":..,
 *   ["result":..,"expanded":N,]["traceparent":..,"trace_id":..,]
 *   ["outcome":..]} */
size_t gs_log_format(const gs_log_entry *e, bool json, char *buf, size_t n);

/* Writes the UTC time at `mono` (a gs_now_ns() value; 0: now) as
 * "2026-11-29T16:04:50.904Z" into when (at least 32 bytes). Per thread,
 * the wall clock is read once a second and the time in between derived
 * from the monotonic clock the request's duration already read, and the
 * part up to the seconds is formatted once a second (gmtime and strftime
 * cost more than a solve of the README's example). */
void gs_log_stamp(char *when, int64_t mono);

/* The server's own lines (start, signals, drain), in the request log's
 * format so that a JSON log stays one object a line. text:
 *   gridsolve: MSG
 * json: {"time":..,"level":..,"msg":..}
 * Written into buf as gs_log_format does. */
size_t gs_log_format_note(const char *time, const char *level, const char *msg,
                          bool json, char *buf, size_t n);

/* Chooses gs_log_note's format (text until called; serve sets it from
 * --log-format before its first line). */
void gs_log_set_json(bool json);

/* Formats and writes one such line to stderr, stamped now; level is
 * "info", "warn" or "error". */
void gs_log_note(const char *level, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

#endif
