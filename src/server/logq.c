/* logq.c - batched log writer (see logq.h).
 *
 * Two buffers: threads append to the current one under the lock while the
 * writer writes the other without it. The writer is woken only when a
 * batch begins (the buffer turns non-empty), when the buffer is half
 * full, and for a flush or stop; otherwise appending is a memcpy.
 *
 * Batches are written in pieces of at most PIPE_BUF bytes that end at a
 * line end: stderr is often a pipe (a container's log driver), where a
 * larger write may be interleaved with another writer's (the server's
 * other messages go to stderr directly), cutting a line in two.
 */
#define _GNU_SOURCE /* memrchr */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "gridsolve/error.h"
#include "gridsolve/logq.h"

#define LOGQ_DEFAULT_CAP (256u * 1024)

struct gs_logq {
    int fd;
    int flush_ms;
    size_t cap;
    char *buf[2];
    int cur;        /* buf[cur] takes new lines */
    size_t len;     /* bytes in buf[cur] */
    uint64_t added; /* bytes ever queued */
    uint64_t done;  /* bytes ever written (or given up on) */
    bool urgent;    /* a flush or a full buffer: write without delay */
    bool stop;
    pthread_mutex_t lock;
    pthread_cond_t work; /* to the writer */
    pthread_cond_t room; /* from the writer: a batch is out */
    pthread_t thread;
};

/* Writes all of data, retrying interrupted and partial writes; gives up
 * on an error (a closed stderr must not stop the server). */
static void write_all(int fd, const char *data, size_t n)
{
    while (n) {
        ssize_t w = write(fd, data, n);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            return;
        data += w;
        n -= (size_t)w;
    }
}

/* Writes a batch of whole lines in pieces of at most PIPE_BUF bytes, each
 * ending at a line end (a longer line goes in one piece). */
static void write_lines(int fd, const char *data, size_t n)
{
    while (n) {
        size_t piece = n;
        if (piece > PIPE_BUF) {
            const char *nl = memrchr(data, '\n', PIPE_BUF);
            if (!nl)
                nl = memchr(data, '\n', n);
            piece = nl ? (size_t)(nl - data) + 1 : n;
        }
        write_all(fd, data, piece);
        data += piece;
        n -= piece;
    }
}

/* An absolute CLOCK_MONOTONIC time ms from now. */
static struct timespec after_ms(int ms)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    ts.tv_nsec += (long)ms * 1000000L;
    ts.tv_sec += ts.tv_nsec / 1000000000L;
    ts.tv_nsec %= 1000000000L;
    return ts;
}

/* Writer, lock held: waits for a batch to begin, then lets it grow for
 * flush_ms unless it must go at once. False when stopped with nothing
 * left to write. */
static bool wait_batch(gs_logq *q)
{
    while (q->len == 0 && !q->stop)
        pthread_cond_wait(&q->work, &q->lock);
    if (q->len == 0)
        return false;
    struct timespec until = after_ms(q->flush_ms);
    while (!q->stop && !q->urgent && q->len < q->cap / 2 &&
           pthread_cond_timedwait(&q->work, &q->lock, &until) != ETIMEDOUT)
        ;
    return true;
}

static void *writer_main(void *arg)
{
    gs_logq *q = arg;

    pthread_mutex_lock(&q->lock);
    while (wait_batch(q)) {
        char *out = q->buf[q->cur];
        size_t n = q->len;
        q->cur ^= 1;
        q->len = 0;
        q->urgent = false;
        pthread_mutex_unlock(&q->lock);
        write_lines(q->fd, out, n);
        pthread_mutex_lock(&q->lock);
        q->done += n;
        pthread_cond_broadcast(&q->room);
    }
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

/* Lock held: waits until every byte queued so far is written. */
static void wait_written(gs_logq *q)
{
    uint64_t target = q->added;

    while (q->done < target) {
        q->urgent = true;
        pthread_cond_signal(&q->work);
        pthread_cond_wait(&q->room, &q->lock);
    }
}

void gs_logq_put(gs_logq *q, const char *line, size_t len)
{
    if (!q) {
        write_all(STDERR_FILENO, line, len);
        return;
    }
    pthread_mutex_lock(&q->lock);
    if (len > q->cap) {
        /* Rare (a line of more than the buffer): in order, at once. */
        wait_written(q);
        write_lines(q->fd, line, len);
        q->added += len;
        q->done += len;
        pthread_mutex_unlock(&q->lock);
        return;
    }
    while (q->len + len > q->cap) { /* the writer is behind: wait */
        q->urgent = true;
        pthread_cond_signal(&q->work);
        pthread_cond_wait(&q->room, &q->lock);
    }
    size_t was = q->len;
    memcpy(q->buf[q->cur] + was, line, len);
    q->len += len;
    q->added += len;
    /* Wake the writer only when a batch begins or should go now. */
    if (was == 0 || (was < q->cap / 2 && q->len >= q->cap / 2))
        pthread_cond_signal(&q->work);
    pthread_mutex_unlock(&q->lock);
}

void gs_logq_flush(gs_logq *q)
{
    if (!q)
        return;
    pthread_mutex_lock(&q->lock);
    wait_written(q);
    pthread_mutex_unlock(&q->lock);
}

/* Mutex and conditions, the conditions on CLOCK_MONOTONIC. */
static int init_sync(gs_logq *q)
{
    pthread_condattr_t ca;
    int rc = GS_EINTERNAL;

    if (pthread_mutex_init(&q->lock, NULL))
        return GS_EINTERNAL;
    if (pthread_condattr_init(&ca) == 0) {
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        if (pthread_cond_init(&q->work, &ca) == 0) {
            if (pthread_cond_init(&q->room, &ca) == 0)
                rc = GS_OK;
            else
                pthread_cond_destroy(&q->work);
        }
        pthread_condattr_destroy(&ca);
    }
    if (rc)
        pthread_mutex_destroy(&q->lock);
    return rc;
}

static void free_bufs(gs_logq *q)
{
    free(q->buf[0]);
    free(q->buf[1]);
    free(q);
}

int gs_logq_new(int fd, size_t cap, int flush_ms, gs_logq **out)
{
    gs_logq *q = calloc(1, sizeof *q);

    *out = NULL;
    if (!q)
        return GS_ENOMEM;
    q->fd = fd;
    q->cap = cap ? cap : LOGQ_DEFAULT_CAP;
    q->flush_ms = flush_ms > 0 ? flush_ms : 1;
    q->buf[0] = malloc(q->cap);
    q->buf[1] = malloc(q->cap);
    if (!q->buf[0] || !q->buf[1]) {
        free_bufs(q);
        return GS_ENOMEM;
    }
    if (init_sync(q)) {
        free_bufs(q);
        return GS_EINTERNAL;
    }
    if (pthread_create(&q->thread, NULL, writer_main, q)) {
        pthread_cond_destroy(&q->work);
        pthread_cond_destroy(&q->room);
        pthread_mutex_destroy(&q->lock);
        free_bufs(q);
        return GS_EINTERNAL;
    }
    *out = q;
    return GS_OK;
}

void gs_logq_free(gs_logq *q)
{
    if (!q)
        return;
    pthread_mutex_lock(&q->lock);
    q->stop = true; /* the writer writes what is left, then returns */
    pthread_cond_signal(&q->work);
    pthread_mutex_unlock(&q->lock);
    pthread_join(q->thread, NULL);
    pthread_cond_destroy(&q->work);
    pthread_cond_destroy(&q->room);
    pthread_mutex_destroy(&q->lock);
    free_bufs(q);
}
