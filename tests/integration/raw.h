/* raw.h - raw TCP clients for the integration tests that need what
 * libcurl hides: dropping a connection mid-request, malformed framing
 * headers, counting status lines, telling a clean close from a reset, and
 * connecting from another loopback address (127.0.0.2). */
#ifndef GS_ITEST_RAW_H
#define GS_ITEST_RAW_H

#include <stdbool.h>
#include <stddef.h>

#include "harness.h"

/* How a raw read ended. */
enum raw_end { RAW_EOF, RAW_RESET, RAW_TIMEOUT, RAW_ERROR };

/* A blocking TCP connection to the server from source address `from`
 * (NULL: any, i.e. 127.0.0.1); -1 on failure. */
int raw_connect(const gs_srv *s, const char *from);

/* Writes all of data; false on any error. */
bool raw_send(int fd, const char *data, size_t len);
bool raw_send_str(int fd, const char *s);

/* A complete request text (caller frees): method, path, optional
 * Content-Type and body (Content-Length added), and `extra` header lines
 * ("Name: value\r\n" each, may be NULL). */
char *raw_request(const char *method, const char *path, const char *ctype,
                  const char *body, const char *extra);

/* Reads until EOF, a reset, or timeout_ms; returns what came (NUL-ended,
 * caller frees) and how it ended in *end. */
char *raw_read(int fd, long timeout_ms, size_t *len, enum raw_end *end);

/* Reads one HTTP response (status line, headers, Content-Length body) or
 * until timeout_ms; NUL-ended text, caller frees; NULL on EOF first. */
char *raw_read_response(int fd, long timeout_ms);

/* Sends req on a new connection and reads one response (raw_exchange)
 * or everything until the server closes (raw_exchange_all, how it ended
 * in *end); NULL when it cannot connect, send or read. */
char *raw_exchange(const gs_srv *s, const char *req);
char *raw_exchange_all(const gs_srv *s, const char *req, enum raw_end *end);

/* Occurrences of needle in hay. */
int raw_count(const char *hay, const char *needle);

/* The status code of the first status line in text, or -1. */
int raw_status(const char *text);

/* Sums a metric (a line prefix, see itest_metric_sum) from /metrics;
 * -1 when absent or unreadable. */
double raw_metric(const gs_srv *s, const char *prefix);

/* Polls raw_metric until it reaches at least want; returns the last
 * value. */
double raw_wait_metric(const gs_srv *s, const char *prefix, double want,
                       long timeout_ms);

#endif
