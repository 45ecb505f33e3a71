/* stream.h - a Server-Sent Events stream fed by other threads and read by
 * libmicrohttpd through a content-reader callback.
 *
 * MHD pulls a response body from a reader; a reader that has nothing yet
 * must not return 0 over and over (MHD's polling thread would spin).
 * Instead gs_stream_read suspends the connection and returns 0, and the
 * next producer call (an event, the end, a failure) resumes it. One mutex
 * orders the two, so a resume never precedes its suspend.
 */
#ifndef GRIDSOLVE_STREAM_H
#define GRIDSOLVE_STREAM_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "gridsolve/buf.h"

struct MHD_Connection;
typedef struct gs_stream gs_stream;

/* A stream for the response of conn. GS_OK or GS_ENOMEM/GS_EINTERNAL. */
int gs_stream_new(struct MHD_Connection *conn, gs_stream **out);
void gs_stream_free(gs_stream *s);

/* MHD thread, from the content reader: copies up to max buffered bytes
 * into buf; when none is buffered returns MHD_CONTENT_READER_END_OF_STREAM
 * after gs_stream_close, END_WITH_ERROR after gs_stream_fail, else
 * suspends the connection and returns 0. */
ssize_t gs_stream_read(gs_stream *s, char *buf, size_t max);

/* Appends one event (data split into `data:` lines, one final newline of
 * data dropped). Ignored after close or fail. `max_buffered` > 0 drops the
 * event when that many bytes already wait for a slow client (for
 * progress events, which the next one supersedes). */
void gs_stream_event(gs_stream *s, const char *event, const char *data,
                     size_t len, size_t max_buffered);

/* Appends a last event (skipped when event is NULL) and closes, under
 * one lock: no other thread's event can land after the last one. */
void gs_stream_end(gs_stream *s, const char *event, const char *data,
                   size_t len);

/* No more events: the stream ends once the client has read them. */
void gs_stream_close(gs_stream *s);

/* The client is gone: the reader ends the response with an error. */
void gs_stream_fail(gs_stream *s);

/* True after gs_stream_close or gs_stream_fail. */
bool gs_stream_finished(gs_stream *s);

/* Formats one event into out: "event: NAME\n", a "data: " line per line
 * of data (without data's final newline, if any), and a blank line. */
void gs_sse_format(gs_buf *out, const char *event, const char *data,
                   size_t len);

#endif
