/* logq.c - batched log writer (see logq.h).
 *
 * Each producing thread appends to a shard of its own (threads are given
 * shards round robin, SHARDS of them), under the shard's mutex, which
 * only the writer otherwise takes: two I/O threads appending to one
 * shared buffer passed its lock and cache lines back and forth on every
 * request. A shard has two buffers: the writer swaps them and writes the
 * full one without any lock. The writer is woken only when a batch
 * begins (the `active` flag turns on), when a shard is half full, and for
 * a flush or stop; otherwise appending is a memcpy.
 *
 * The writer works in cycles: it clears `active`, empties every shard,
 * writes what it took, and counts the cycle done. A line appended before
 * a cycle starts is written by it, so a flush waits for one cycle begun
 * after its call. A thread's lines keep their order (one shard, drained
 * in order); lines of different threads may be reordered within a batch.
 *
 * Batches are written in pieces of at most PIPE_BUF bytes that end at a
 * line end: stderr is often a pipe (a container's log driver), where a
 * larger write may be interleaved with another writer's (the server's
 * other messages go to stderr directly), cutting a line in two. A regular
 * file takes each batch in one write: the kernel serialises writes to one
 * open file, and 4 KB pieces that end mid-page cost the file system a
 * partial page each (a tenth of the writer's time at 100k lines/s).
 */
#define _GNU_SOURCE /* memrchr */
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gridsolve/error.h"
#include "gridsolve/logq.h"

#define LOGQ_DEFAULT_CAP (256u * 1024)
#define SHARDS 8

typedef struct shard {
    pthread_mutex_t lock;
    char *buf;   /* takes new lines; NULL until the shard's first line */
    char *spare; /* the writer's */
    size_t len;  /* bytes in buf */
} shard;

struct gs_logq {
    int fd;
    size_t piece; /* bytes per write at most: PIPE_BUF, or any (a file) */
    int flush_ms;
    size_t cap;         /* of each buffer */
    atomic_bool active; /* lines wait in some shard: a batch is on */
    bool urgent;        /* a flush, a half-full shard: write without delay */
    bool stop;
    uint64_t started, done; /* writer cycles begun, finished */
    pthread_mutex_t lock;   /* the fields above but active, and the conds */
    pthread_cond_t work;    /* to the writer */
    pthread_cond_t room;    /* from the writer: a cycle is done */
    pthread_mutex_t out;    /* one writer of fd at a time */
    shard shards[SHARDS];
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

/* Writes a batch of whole lines in pieces of at most `max` bytes (at
 * least PIPE_BUF), each ending at a line end (a longer line goes in one
 * piece). */
static void write_lines(int fd, const char *data, size_t n, size_t max)
{
    while (n) {
        size_t piece = n;
        if (piece > max) {
            const char *nl = memrchr(data, '\n', max);
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
 * flush_ms unless it must go at once. False when stopped. */
static bool wait_batch(gs_logq *q)
{
    while (!atomic_load(&q->active) && !q->stop && !q->urgent)
        pthread_cond_wait(&q->work, &q->lock);
    if (q->stop)
        return false;
    struct timespec until = after_ms(q->flush_ms);
    while (!q->stop && !q->urgent &&
           pthread_cond_timedwait(&q->work, &q->lock, &until) != ETIMEDOUT)
        ;
    return true;
}

/* Writer, no lock held: empties every shard and writes what it held. */
static void drain(gs_logq *q)
{
    for (size_t i = 0; i < SHARDS; i++) {
        shard *s = &q->shards[i];
        pthread_mutex_lock(&s->lock);
        char *full = s->buf;
        size_t n = s->len;
        if (n) {
            s->buf = s->spare;
            s->spare = full;
            s->len = 0;
        }
        pthread_mutex_unlock(&s->lock);
        if (n) {
            pthread_mutex_lock(&q->out);
            write_lines(q->fd, full, n, q->piece);
            pthread_mutex_unlock(&q->out);
        }
    }
}

/* One cycle, lock held (released while draining). */
static void cycle(gs_logq *q)
{
    uint64_t c = ++q->started;
    q->urgent = false;
    atomic_store(&q->active, false); /* later lines start a new batch */
    pthread_mutex_unlock(&q->lock);
    drain(q);
    pthread_mutex_lock(&q->lock);
    q->done = c;
    pthread_cond_broadcast(&q->room);
}

static void *writer_main(void *arg)
{
    gs_logq *q = arg;

    pthread_mutex_lock(&q->lock);
    while (wait_batch(q))
        cycle(q);
    cycle(q); /* stopped: whatever is left */
    pthread_mutex_unlock(&q->lock);
    return NULL;
}

/* Lock held: wakes the writer at once and waits for a whole cycle begun
 * after this call, which writes every line queued before it. */
static void wait_written(gs_logq *q)
{
    uint64_t target = q->started + 1;

    q->urgent = true;
    pthread_cond_signal(&q->work);
    while (q->done < target)
        pthread_cond_wait(&q->room, &q->lock);
}

/* This thread's shard. */
static shard *my_shard(gs_logq *q)
{
    static atomic_uint next;
    static _Thread_local unsigned idx = UINT_MAX;

    if (idx == UINT_MAX)
        idx = atomic_fetch_add(&next, 1);
    return &q->shards[idx % SHARDS];
}

void gs_logq_put(gs_logq *q, const char *line, size_t len)
{
    if (!q) {
        write_all(STDERR_FILENO, line, len);
        return;
    }
    shard *s = my_shard(q);
    pthread_mutex_lock(&s->lock);
    if (!s->buf && len <= q->cap) { /* the shard's first line */
        s->buf = malloc(q->cap);
        s->spare = malloc(q->cap);
        if (!s->buf || !s->spare) {
            free(s->buf);
            free(s->spare);
            s->buf = s->spare = NULL;
        }
    }
    if (len > q->cap || !s->buf) {
        /* Rare (a line of more than the buffer, or no memory for one):
         * in order, at once. */
        pthread_mutex_unlock(&s->lock);
        gs_logq_flush(q);
        pthread_mutex_lock(&q->out);
        write_lines(q->fd, line, len, q->piece);
        pthread_mutex_unlock(&q->out);
        return;
    }
    while (s->len + len > q->cap) { /* the writer is behind: wait */
        pthread_mutex_unlock(&s->lock);
        pthread_mutex_lock(&q->lock);
        wait_written(q);
        pthread_mutex_unlock(&q->lock);
        pthread_mutex_lock(&s->lock);
    }
    size_t was = s->len;
    memcpy(s->buf + was, line, len);
    s->len += len;
    pthread_mutex_unlock(&s->lock);
    /* Wake the writer only when a batch begins or should go now. */
    bool half = was < q->cap / 2 && was + len >= q->cap / 2;
    if (half || (was == 0 && !atomic_exchange(&q->active, true))) {
        pthread_mutex_lock(&q->lock);
        atomic_store(&q->active, true);
        if (half)
            q->urgent = true;
        pthread_cond_signal(&q->work);
        pthread_mutex_unlock(&q->lock);
    }
}

void gs_logq_flush(gs_logq *q)
{
    if (!q)
        return;
    pthread_mutex_lock(&q->lock);
    wait_written(q);
    pthread_mutex_unlock(&q->lock);
}

/* Mutexes and conditions, the conditions on CLOCK_MONOTONIC. */
static int init_sync(gs_logq *q)
{
    pthread_condattr_t ca;
    int rc = GS_EINTERNAL;

    if (pthread_mutex_init(&q->lock, NULL))
        return GS_EINTERNAL;
    if (pthread_mutex_init(&q->out, NULL)) {
        pthread_mutex_destroy(&q->lock);
        return GS_EINTERNAL;
    }
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
    for (size_t i = 0; rc == GS_OK && i < SHARDS; i++) {
        if (pthread_mutex_init(&q->shards[i].lock, NULL)) {
            while (i--)
                pthread_mutex_destroy(&q->shards[i].lock);
            pthread_cond_destroy(&q->work);
            pthread_cond_destroy(&q->room);
            rc = GS_EINTERNAL;
        }
    }
    if (rc) {
        pthread_mutex_destroy(&q->out);
        pthread_mutex_destroy(&q->lock);
    }
    return rc;
}

static void destroy_sync(gs_logq *q)
{
    for (size_t i = 0; i < SHARDS; i++)
        pthread_mutex_destroy(&q->shards[i].lock);
    pthread_cond_destroy(&q->work);
    pthread_cond_destroy(&q->room);
    pthread_mutex_destroy(&q->out);
    pthread_mutex_destroy(&q->lock);
}

static void free_q(gs_logq *q)
{
    for (size_t i = 0; i < SHARDS; i++) {
        free(q->shards[i].buf);
        free(q->shards[i].spare);
    }
    free(q);
}

int gs_logq_new(int fd, size_t cap, int flush_ms, gs_logq **out)
{
    gs_logq *q = calloc(1, sizeof *q);

    *out = NULL;
    if (!q)
        return GS_ENOMEM;
    q->fd = fd;
    struct stat st;
    q->piece = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) ? SIZE_MAX : PIPE_BUF;
    q->cap = cap ? cap : LOGQ_DEFAULT_CAP;
    q->flush_ms = flush_ms > 0 ? flush_ms : 1;
    atomic_init(&q->active, false);
    if (init_sync(q)) {
        free(q);
        return GS_EINTERNAL;
    }
    if (pthread_create(&q->thread, NULL, writer_main, q)) {
        destroy_sync(q);
        free(q);
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
    destroy_sync(q);
    free_q(q);
}
