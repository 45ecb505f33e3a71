/* pool.c - bounded job queue + worker threads (see pool.h).
 *
 * One mutex guards a ring of capacity + workers slots: a job may wait only
 * when a worker is idle to take it or a queue slot is free, which is the
 * admission rule of gs_pool_submit. Two condition variables: `work` wakes
 * workers, `idle` wakes gs_pool_wait_idle().
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "gridsolve/error.h"
#include "gridsolve/pool.h"

typedef struct job {
    gs_pool_fn fn;
    void *arg;
} job;

struct gs_pool {
    pthread_mutex_t lock;
    pthread_cond_t work;
    pthread_cond_t idle;
    job *ring;
    unsigned slots;    /* ring size: capacity + workers */
    unsigned head;     /* next job to run */
    unsigned len;      /* jobs waiting */
    unsigned busy;     /* workers running a job */
    unsigned capacity; /* jobs allowed to wait for a busy worker */
    unsigned workers;
    unsigned started; /* threads actually created */
    bool closed;
    pthread_t *threads;
};

/* Runs jobs until the pool is closed and the ring is empty. */
static void *worker_main(void *arg)
{
    gs_pool *p = arg;

    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (p->len == 0 && !p->closed)
            pthread_cond_wait(&p->work, &p->lock);
        if (p->len == 0)
            break;
        job j = p->ring[p->head];
        p->head = (p->head + 1) % p->slots;
        p->len--;
        p->busy++;
        pthread_mutex_unlock(&p->lock);
        j.fn(j.arg);
        pthread_mutex_lock(&p->lock);
        p->busy--;
        if (p->len == 0 && p->busy == 0)
            pthread_cond_broadcast(&p->idle);
    }
    pthread_mutex_unlock(&p->lock);
    return NULL;
}

/* The idle condition waits against CLOCK_MONOTONIC, like gs_now_ns(). */
static int init_sync(gs_pool *p)
{
    pthread_condattr_t ca;

    if (pthread_mutex_init(&p->lock, NULL))
        return GS_EINTERNAL;
    if (pthread_condattr_init(&ca))
        goto fail_lock;
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    if (pthread_cond_init(&p->idle, &ca))
        goto fail_attr;
    if (pthread_cond_init(&p->work, NULL))
        goto fail_idle;
    pthread_condattr_destroy(&ca);
    return GS_OK;
fail_idle:
    pthread_cond_destroy(&p->idle);
fail_attr:
    pthread_condattr_destroy(&ca);
fail_lock:
    pthread_mutex_destroy(&p->lock);
    return GS_EINTERNAL;
}

int gs_pool_new(unsigned workers, unsigned capacity, gs_pool **out)
{
    gs_pool *p;

    *out = NULL;
    if (workers == 0 || capacity > UINT32_MAX - workers)
        return GS_EINTERNAL;
    p = calloc(1, sizeof *p);
    if (!p)
        return GS_ENOMEM;
    p->workers = workers;
    p->capacity = capacity;
    p->slots = capacity + workers;
    p->ring = calloc(p->slots, sizeof *p->ring);
    p->threads = calloc(workers, sizeof *p->threads);
    if (!p->ring || !p->threads) {
        free(p->ring);
        free(p->threads);
        free(p);
        return GS_ENOMEM;
    }
    if (init_sync(p)) {
        free(p->ring);
        free(p->threads);
        free(p);
        return GS_EINTERNAL;
    }
    for (; p->started < workers; p->started++)
        if (pthread_create(&p->threads[p->started], NULL, worker_main, p))
            break;
    if (p->started < workers) {
        gs_pool_free(p);
        return GS_EINTERNAL;
    }
    *out = p;
    return GS_OK;
}

int gs_pool_submit(gs_pool *p, gs_pool_fn fn, void *arg)
{
    int rc = GS_OK;

    pthread_mutex_lock(&p->lock);
    if (p->closed) {
        rc = GS_POOL_ECLOSED;
    } else if (p->len >= p->capacity + (p->workers - p->busy)) {
        /* Jobs already waiting will take every idle worker first. */
        rc = GS_POOL_EFULL;
    } else {
        p->ring[(p->head + p->len) % p->slots] = (job){fn, arg};
        p->len++;
        pthread_cond_signal(&p->work);
    }
    pthread_mutex_unlock(&p->lock);
    return rc;
}

void gs_pool_close(gs_pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->closed = true;
    pthread_cond_broadcast(&p->work);
    pthread_mutex_unlock(&p->lock);
}

bool gs_pool_wait_idle(gs_pool *p, int64_t deadline_ns)
{
    struct timespec ts = {(time_t)(deadline_ns / 1000000000),
                          (long)(deadline_ns % 1000000000)};
    bool idle;

    pthread_mutex_lock(&p->lock);
    while (p->len || p->busy) {
        if (!deadline_ns) {
            pthread_cond_wait(&p->idle, &p->lock);
        } else if (pthread_cond_timedwait(&p->idle, &p->lock, &ts) ==
                   ETIMEDOUT) {
            break;
        }
    }
    idle = p->len == 0 && p->busy == 0;
    pthread_mutex_unlock(&p->lock);
    return idle;
}

unsigned gs_pool_queued(gs_pool *p)
{
    pthread_mutex_lock(&p->lock);
    unsigned n = p->len;
    pthread_mutex_unlock(&p->lock);
    return n;
}

unsigned gs_pool_busy(gs_pool *p)
{
    pthread_mutex_lock(&p->lock);
    unsigned n = p->busy;
    pthread_mutex_unlock(&p->lock);
    return n;
}

unsigned gs_pool_workers(const gs_pool *p)
{
    return p->workers;
}

unsigned gs_pool_capacity(const gs_pool *p)
{
    return p->capacity;
}

void gs_pool_free(gs_pool *p)
{
    if (!p)
        return;
    gs_pool_close(p);
    for (unsigned i = 0; i < p->started; i++)
        pthread_join(p->threads[i], NULL);
    pthread_cond_destroy(&p->work);
    pthread_cond_destroy(&p->idle);
    pthread_mutex_destroy(&p->lock);
    free(p->threads);
    free(p->ring);
    free(p);
}
