/* stream.c - Server-Sent Events buffered between producer threads and
 * libmicrohttpd's content reader (see stream.h). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/error.h"
#include "gridsolve/mhd.h"
#include "gridsolve/stream.h"

struct gs_stream {
    pthread_mutex_t lock;
    struct MHD_Connection *conn;
    gs_buf out;   /* formatted events not yet read */
    size_t off;   /* bytes of out already read */
    bool waiting; /* the reader suspended the connection */
    bool closed;  /* no more events */
    bool failed;  /* client gone */
};

int gs_stream_new(struct MHD_Connection *conn, gs_stream **out)
{
    gs_stream *s = calloc(1, sizeof *s);

    *out = NULL;
    if (!s)
        return GS_ENOMEM;
    if (pthread_mutex_init(&s->lock, NULL)) {
        free(s);
        return GS_EINTERNAL;
    }
    s->conn = conn;
    *out = s;
    return GS_OK;
}

void gs_stream_free(gs_stream *s)
{
    if (!s)
        return;
    pthread_mutex_destroy(&s->lock);
    gs_buf_free(&s->out);
    free(s);
}

/* Resumes a reader that waits (lock held). */
static void wake(gs_stream *s)
{
    if (!s->waiting)
        return;
    s->waiting = false;
    MHD_resume_connection(s->conn);
}

ssize_t gs_stream_read(gs_stream *s, char *buf, size_t max)
{
    ssize_t n;

    pthread_mutex_lock(&s->lock);
    if (s->failed) {
        n = MHD_CONTENT_READER_END_WITH_ERROR;
    } else if (s->off < s->out.len) {
        size_t k = s->out.len - s->off;
        if (k > max)
            k = max;
        memcpy(buf, s->out.data + s->off, k);
        s->off += k;
        if (s->off == s->out.len)
            s->off = s->out.len = 0; /* keep the allocation for reuse */
        n = (ssize_t)k;
    } else if (s->closed) {
        n = MHD_CONTENT_READER_END_OF_STREAM;
    } else {
        /* Under the lock: no producer can resume before this suspend. */
        s->waiting = true;
        MHD_suspend_connection(s->conn);
        n = 0;
    }
    pthread_mutex_unlock(&s->lock);
    return n;
}

void gs_sse_format(gs_buf *out, const char *event, const char *data, size_t len)
{
    if (len && data[len - 1] == '\n')
        len--;
    gs_buf_printf(out, "event: %s\n", event);
    do {
        const char *nl = memchr(data, '\n', len);
        size_t line = nl ? (size_t)(nl - data) : len;
        gs_buf_puts(out, "data: ");
        gs_buf_append(out, data, line);
        gs_buf_puts(out, "\n");
        data += nl ? line + 1 : line;
        len -= nl ? line + 1 : line;
        if (!nl)
            break;
    } while (1);
    gs_buf_puts(out, "\n");
}

/* Appends one event unless the stream is over or the client lags (lock
 * held). True when something changed for the reader. */
static bool append(gs_stream *s, const char *event, const char *data,
                   size_t len, size_t max_buffered)
{
    if (s->closed || s->failed ||
        (max_buffered && s->out.len - s->off >= max_buffered))
        return false;
    gs_sse_format(&s->out, event, data ? data : "", data ? len : 0);
    if (gs_buf_status(&s->out))
        s->failed = true; /* a stream with a hole is worse than none */
    return true;
}

void gs_stream_event(gs_stream *s, const char *event, const char *data,
                     size_t len, size_t max_buffered)
{
    pthread_mutex_lock(&s->lock);
    if (append(s, event, data, len, max_buffered))
        wake(s);
    pthread_mutex_unlock(&s->lock);
}

void gs_stream_end(gs_stream *s, const char *event, const char *data,
                   size_t len)
{
    pthread_mutex_lock(&s->lock);
    if (event)
        append(s, event, data, len, 0);
    s->closed = true;
    wake(s);
    pthread_mutex_unlock(&s->lock);
}

void gs_stream_close(gs_stream *s)
{
    gs_stream_end(s, NULL, NULL, 0);
}

void gs_stream_fail(gs_stream *s)
{
    pthread_mutex_lock(&s->lock);
    s->failed = true;
    wake(s);
    pthread_mutex_unlock(&s->lock);
}

bool gs_stream_finished(gs_stream *s)
{
    pthread_mutex_lock(&s->lock);
    bool done = s->closed || s->failed;
    pthread_mutex_unlock(&s->lock);
    return done;
}
