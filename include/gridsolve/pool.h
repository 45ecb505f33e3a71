/* pool.h - a bounded job queue served by a fixed set of worker threads.
 *
 * The HTTP threads only do I/O; every solve runs here. A job is accepted
 * only while there is room for it (a free worker or a free queue slot), so
 * overload turns into an immediate 503 instead of unbounded waiting.
 */
#ifndef GRIDSOLVE_POOL_H
#define GRIDSOLVE_POOL_H

#include <stdbool.h>
#include <stdint.h>

/* Submit refusals (beyond the gs_errcode range). */
enum gs_pool_err {
    GS_POOL_EFULL = -20,   /* every worker busy and the queue full */
    GS_POOL_ECLOSED = -21, /* gs_pool_close() was called */
};

typedef void (*gs_pool_fn)(void *arg);
typedef struct gs_pool gs_pool;

/* Starts `workers` (>= 1) threads; `capacity` jobs may wait while all of
 * them are busy. The threads inherit the caller's signal mask. Returns
 * GS_OK, GS_ENOMEM, or GS_EINTERNAL when a thread cannot be created. */
int gs_pool_new(unsigned workers, unsigned capacity, gs_pool **out);

/* Queues fn(arg). GS_OK, GS_POOL_EFULL or GS_POOL_ECLOSED; on refusal fn
 * is not called and arg stays the caller's. */
int gs_pool_submit(gs_pool *p, gs_pool_fn fn, void *arg);

/* Refuses further submissions; queued jobs still run. */
void gs_pool_close(gs_pool *p);

/* Waits until no job is queued or running, or until deadline_ns
 * (gs_now_ns() clock; 0 = forever). True when the pool went idle. */
bool gs_pool_wait_idle(gs_pool *p, int64_t deadline_ns);

/* Jobs waiting for a worker, and workers running a job. */
unsigned gs_pool_queued(gs_pool *p);
unsigned gs_pool_busy(gs_pool *p);
unsigned gs_pool_workers(const gs_pool *p);
unsigned gs_pool_capacity(const gs_pool *p);

/* Closes the pool, runs what is still queued, joins and frees. */
void gs_pool_free(gs_pool *p);

#endif
