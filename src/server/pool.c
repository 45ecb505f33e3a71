/* pool.c - bounded job queues + worker threads, in two lanes (see pool.h).
 *
 * One mutex guards both lanes. Each lane has a ring of capacity + workers
 * slots: a job may wait only when a worker of its lane is idle to take it
 * or a queue slot is free, which is the admission rule of every submit and
 * of a move from the fast lane to the main one, so a ring never overflows.
 * Each lane has a `work` condition for its workers; `idle` wakes
 * gs_pool_wait_idle().
 *
 * Shutdown order: fast workers exit once the pool is closed and their lane
 * is empty; main workers also wait for the fast lane to drain, since a
 * fast attempt may still move its job to them.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <time.h>

#include "gridsolve/error.h"
#include "gridsolve/pool.h"

typedef struct job {
    gs_pool_fn fn;       /* a plain job, or */
    gs_pool_lane_fn lfn; /* a lane job */
    void *arg;
} job;

typedef struct lane {
    gs_pool *pool;
    enum gs_pool_lane kind; /* FAST or MAIN */
    pthread_cond_t work;
    job *ring;
    unsigned slots;    /* ring size: capacity + workers */
    unsigned head;     /* next job to run */
    unsigned len;      /* jobs waiting */
    unsigned busy;     /* workers running a job */
    unsigned capacity; /* jobs allowed to wait for a busy worker */
    unsigned workers;
    unsigned started; /* threads actually created */
    pthread_t *threads;
} lane;

struct gs_pool {
    pthread_mutex_t lock;
    pthread_cond_t idle;
    lane main, fast;
    bool closed;
    uint64_t requeued;
};

/* True when the lane can take one more job now. Jobs already waiting will
 * take every idle worker first. */
static bool has_room(const lane *l)
{
    return l->workers && l->len < l->capacity + (l->workers - l->busy);
}

/* Appends a job; the caller checked has_room() under the lock. */
static void push(lane *l, job j)
{
    l->ring[(l->head + l->len) % l->slots] = j;
    l->len++;
    pthread_cond_signal(&l->work);
}

static bool lane_drained(const lane *l)
{
    return l->len == 0 && l->busy == 0;
}

/* Whether a worker of l should stop waiting for work and exit. */
static bool lane_done(const gs_pool *p, const lane *l)
{
    if (!p->closed || l->len)
        return false;
    return l->kind == GS_POOL_LANE_FAST || lane_drained(&p->fast);
}

/* After a fast attempt ran out: moves the job to the main lane, or, when
 * that has no room, lets it answer 503. Called without the lock. */
static void move_to_main(gs_pool *p, job j)
{
    bool moved = false;

    pthread_mutex_lock(&p->lock);
    /* Allowed after close: the job was accepted before it. */
    if (has_room(&p->main)) {
        push(&p->main, j);
        p->requeued++;
        moved = true;
    }
    pthread_mutex_unlock(&p->lock);
    if (!moved)
        j.lfn(j.arg, GS_POOL_LANE_FULL);
}

/* Runs one job taken from lane l (without the lock). */
static void run_job(gs_pool *p, const lane *l, job j)
{
    if (j.fn) {
        j.fn(j.arg);
        return;
    }
    enum gs_pool_ret r = j.lfn(j.arg, l->kind);
    if (r == GS_POOL_AGAIN && l->kind == GS_POOL_LANE_FAST)
        move_to_main(p, j);
    /* AGAIN from the main lane would loop forever: it counts as done. */
}

/* Runs jobs of one lane until the pool is closed and the lane is empty. */
static void *worker_main(void *arg)
{
    lane *l = arg;
    gs_pool *p = l->pool;

    pthread_mutex_lock(&p->lock);
    for (;;) {
        while (l->len == 0 && !lane_done(p, l))
            pthread_cond_wait(&l->work, &p->lock);
        if (l->len == 0)
            break;
        job j = l->ring[l->head];
        l->head = (l->head + 1) % l->slots;
        l->len--;
        l->busy++;
        pthread_mutex_unlock(&p->lock);
        run_job(p, l, j);
        pthread_mutex_lock(&p->lock);
        l->busy--;
        /* Main workers waiting to exit watch the fast lane drain. */
        if (l->kind == GS_POOL_LANE_FAST && p->closed)
            pthread_cond_broadcast(&p->main.work);
        if (lane_drained(&p->main) && lane_drained(&p->fast))
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
    if (pthread_cond_init(&p->main.work, NULL))
        goto fail_idle;
    if (pthread_cond_init(&p->fast.work, NULL))
        goto fail_main;
    pthread_condattr_destroy(&ca);
    return GS_OK;
fail_main:
    pthread_cond_destroy(&p->main.work);
fail_idle:
    pthread_cond_destroy(&p->idle);
fail_attr:
    pthread_condattr_destroy(&ca);
fail_lock:
    pthread_mutex_destroy(&p->lock);
    return GS_EINTERNAL;
}

/* Sizes a lane and allocates its ring and thread handles. */
static int lane_alloc(gs_pool *p, lane *l, enum gs_pool_lane kind,
                      unsigned workers, unsigned capacity)
{
    l->pool = p;
    l->kind = kind;
    l->workers = workers;
    l->capacity = workers ? capacity : 0;
    l->slots = l->capacity + workers;
    if (!workers)
        return GS_OK;
    l->ring = calloc(l->slots, sizeof *l->ring);
    l->threads = calloc(workers, sizeof *l->threads);
    return l->ring && l->threads ? GS_OK : GS_ENOMEM;
}

static void lane_release(lane *l)
{
    free(l->threads);
    free(l->ring);
}

static bool lane_start(lane *l)
{
    for (; l->started < l->workers; l->started++)
        if (pthread_create(&l->threads[l->started], NULL, worker_main, l))
            return false;
    return true;
}

int gs_pool_new_lanes(unsigned workers, unsigned capacity,
                      unsigned fast_workers, unsigned fast_capacity,
                      gs_pool **out)
{
    gs_pool *p;

    *out = NULL;
    if (workers == 0 || capacity > UINT32_MAX - workers ||
        fast_capacity > UINT32_MAX - fast_workers)
        return GS_EINTERNAL;
    p = calloc(1, sizeof *p);
    if (!p)
        return GS_ENOMEM;
    if (lane_alloc(p, &p->main, GS_POOL_LANE_MAIN, workers, capacity) ||
        lane_alloc(p, &p->fast, GS_POOL_LANE_FAST, fast_workers,
                   fast_capacity)) {
        lane_release(&p->main);
        lane_release(&p->fast);
        free(p);
        return GS_ENOMEM;
    }
    if (init_sync(p)) {
        lane_release(&p->main);
        lane_release(&p->fast);
        free(p);
        return GS_EINTERNAL;
    }
    if (!lane_start(&p->main) || !lane_start(&p->fast)) {
        gs_pool_free(p);
        return GS_EINTERNAL;
    }
    *out = p;
    return GS_OK;
}

int gs_pool_new(unsigned workers, unsigned capacity, gs_pool **out)
{
    return gs_pool_new_lanes(workers, capacity, GS_POOL_FAST_WORKERS,
                             GS_POOL_FAST_QUEUE, out);
}

int gs_pool_submit(gs_pool *p, gs_pool_fn fn, void *arg)
{
    int rc = GS_OK;

    pthread_mutex_lock(&p->lock);
    if (p->closed)
        rc = GS_POOL_ECLOSED;
    else if (!has_room(&p->main))
        rc = GS_POOL_EFULL;
    else
        push(&p->main, (job){fn, NULL, arg});
    pthread_mutex_unlock(&p->lock);
    return rc;
}

int gs_pool_submit_lane(gs_pool *p, gs_pool_lane_fn fn, void *arg)
{
    int rc = GS_OK;

    pthread_mutex_lock(&p->lock);
    if (p->closed)
        rc = GS_POOL_ECLOSED;
    else if (has_room(&p->fast))
        push(&p->fast, (job){NULL, fn, arg});
    else if (has_room(&p->main))
        push(&p->main, (job){NULL, fn, arg});
    else
        rc = GS_POOL_EFULL;
    pthread_mutex_unlock(&p->lock);
    return rc;
}

void gs_pool_close(gs_pool *p)
{
    pthread_mutex_lock(&p->lock);
    p->closed = true;
    pthread_cond_broadcast(&p->main.work);
    pthread_cond_broadcast(&p->fast.work);
    pthread_mutex_unlock(&p->lock);
}

bool gs_pool_wait_idle(gs_pool *p, int64_t deadline_ns)
{
    struct timespec ts = {(time_t)(deadline_ns / 1000000000),
                          (long)(deadline_ns % 1000000000)};
    bool idle;

    pthread_mutex_lock(&p->lock);
    while (!lane_drained(&p->main) || !lane_drained(&p->fast)) {
        if (!deadline_ns) {
            pthread_cond_wait(&p->idle, &p->lock);
        } else if (pthread_cond_timedwait(&p->idle, &p->lock, &ts) ==
                   ETIMEDOUT) {
            break;
        }
    }
    idle = lane_drained(&p->main) && lane_drained(&p->fast);
    pthread_mutex_unlock(&p->lock);
    return idle;
}

unsigned gs_pool_queued(gs_pool *p)
{
    pthread_mutex_lock(&p->lock);
    unsigned n = p->main.len;
    pthread_mutex_unlock(&p->lock);
    return n;
}

unsigned gs_pool_busy(gs_pool *p)
{
    pthread_mutex_lock(&p->lock);
    unsigned n = p->main.busy;
    pthread_mutex_unlock(&p->lock);
    return n;
}

unsigned gs_pool_fast_pending(gs_pool *p)
{
    pthread_mutex_lock(&p->lock);
    unsigned n = p->fast.len + p->fast.busy;
    pthread_mutex_unlock(&p->lock);
    return n;
}

uint64_t gs_pool_requeued(gs_pool *p)
{
    pthread_mutex_lock(&p->lock);
    uint64_t n = p->requeued;
    pthread_mutex_unlock(&p->lock);
    return n;
}

unsigned gs_pool_workers(const gs_pool *p)
{
    return p->main.workers;
}

unsigned gs_pool_capacity(const gs_pool *p)
{
    return p->main.capacity;
}

void gs_pool_free(gs_pool *p)
{
    if (!p)
        return;
    gs_pool_close(p);
    /* Fast first: its last attempts may still move jobs to the main lane,
     * whose workers stay until the fast lane has drained. */
    for (unsigned i = 0; i < p->fast.started; i++)
        pthread_join(p->fast.threads[i], NULL);
    pthread_mutex_lock(&p->lock);
    pthread_cond_broadcast(&p->main.work);
    pthread_mutex_unlock(&p->lock);
    for (unsigned i = 0; i < p->main.started; i++)
        pthread_join(p->main.threads[i], NULL);
    pthread_cond_destroy(&p->main.work);
    pthread_cond_destroy(&p->fast.work);
    pthread_cond_destroy(&p->idle);
    pthread_mutex_destroy(&p->lock);
    lane_release(&p->main);
    lane_release(&p->fast);
    free(p);
}
