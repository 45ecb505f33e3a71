/* pool.h - bounded job queues served by fixed sets of worker threads.
 *
 * The HTTP threads only do I/O; every solve runs here. A job is accepted
 * only while there is room for it (a free worker or a free queue slot), so
 * overload turns into an immediate 503 instead of unbounded waiting.
 *
 * Two lanes. The main lane runs jobs to the end with their full limits.
 * The fast lane (one thread by default) runs a first, cheap attempt of a
 * lane job (gs_pool_submit_lane) under a small budget: most requests are
 * small and are answered there, however many slow solves hold the main
 * workers. An attempt that runs out of its budget is moved to the main
 * lane and run again from the start, which costs at most that budget.
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

/* Threads and queue slots of the fast lane made by gs_pool_new. */
#define GS_POOL_FAST_WORKERS 1
#define GS_POOL_FAST_QUEUE 4

typedef void (*gs_pool_fn)(void *arg);
typedef struct gs_pool gs_pool;

/* Where a lane job is being run. */
enum gs_pool_lane {
    GS_POOL_LANE_FAST = 0, /* first attempt, small budget */
    GS_POOL_LANE_MAIN = 1, /* full limits */
    GS_POOL_LANE_FULL = 2, /* the fast attempt ran out and the main lane
                              has no room: answer 503, do not solve */
};

/* What a lane job returns. */
enum gs_pool_ret {
    GS_POOL_DONE = 0,  /* answered: the job is over */
    GS_POOL_AGAIN = 1, /* (fast lane only) ran out of the small budget:
                          run me again on the main lane */
};

typedef enum gs_pool_ret (*gs_pool_lane_fn)(void *arg, enum gs_pool_lane lane);

/* Starts `workers` (>= 1) main threads, `capacity` jobs may wait while all
 * of them are busy, plus the fast lane (GS_POOL_FAST_WORKERS threads,
 * GS_POOL_FAST_QUEUE slots). The threads inherit the caller's signal mask.
 * Returns GS_OK, GS_ENOMEM, or GS_EINTERNAL when a thread cannot be
 * created. */
int gs_pool_new(unsigned workers, unsigned capacity, gs_pool **out);

/* The same with an explicit fast lane; fast_workers 0 means none (lane
 * jobs then go straight to the main lane). */
int gs_pool_new_lanes(unsigned workers, unsigned capacity,
                      unsigned fast_workers, unsigned fast_capacity,
                      gs_pool **out);

/* Queues fn(arg) on the main lane. GS_OK, GS_POOL_EFULL or
 * GS_POOL_ECLOSED; on refusal fn is not called and arg stays the
 * caller's. */
int gs_pool_submit(gs_pool *p, gs_pool_fn fn, void *arg);

/* Queues a lane job: on the fast lane when it has room (fn(arg, FAST)),
 * else on the main lane when it has room (fn(arg, MAIN)), else refused
 * with GS_POOL_EFULL (GS_POOL_ECLOSED once closed), fn not called. Once
 * accepted, fn is called until it returns GS_POOL_DONE: a fast attempt
 * that returns GS_POOL_AGAIN is queued on the main lane, or, when that is
 * full, called once more with GS_POOL_LANE_FULL (on the fast thread; it
 * must answer without solving). */
int gs_pool_submit_lane(gs_pool *p, gs_pool_lane_fn fn, void *arg);

/* Refuses further submissions; queued jobs still run, and fast attempts
 * already accepted may still move to the main lane. */
void gs_pool_close(gs_pool *p);

/* Waits until no job is queued or running on either lane, or until
 * deadline_ns (gs_now_ns() clock; 0 = forever). True when the pool went
 * idle. */
bool gs_pool_wait_idle(gs_pool *p, int64_t deadline_ns);

/* Main lane: jobs waiting for a worker, and workers running a job. */
unsigned gs_pool_queued(gs_pool *p);
unsigned gs_pool_busy(gs_pool *p);
unsigned gs_pool_workers(const gs_pool *p);
unsigned gs_pool_capacity(const gs_pool *p);

/* Fast lane: attempts waiting or running; moves to the main lane so far. */
unsigned gs_pool_fast_pending(gs_pool *p);
uint64_t gs_pool_requeued(gs_pool *p);

/* Closes the pool, runs what is still queued, joins and frees. */
void gs_pool_free(gs_pool *p);

#endif
