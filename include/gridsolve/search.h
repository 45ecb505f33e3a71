/* search.h - the shared search core used by every solver.
 *
 * One engine holds the visited set, the open queue and the parent links.
 * Each state is a fixed-width packed key of key_size bytes, stored once in
 * a chunked arena and found through an open-addressing hash index. A
 * record holds the key, the parent id and the move byte that led to it
 * (and the cost in priority mode).
 *
 * The open list is FIFO (BFS: states pop in discovery order) or a binary
 * min-heap on a 64-bit priority (A*, best-first). Limits (deadline, state
 * cap, cancel flag) are checked inside gs_search_add/gs_search_pop, so no
 * solver can forget them: on a limit those return GS_ELIMIT and
 * gs_search_finish() turns that into a `limit` result.
 *
 * A puzzle whose states fit a dense board may run its own specialised
 * inner loop instead (bloxorz: a BFS over bitsets, many states per
 * word), on the core's limits and counters: gs_limits_expired,
 * gs_progress_report, gs_progress_report_bytes, GS_DENSE_STATE_BYTES.
 */
#ifndef GRIDSOLVE_SEARCH_H
#define GRIDSOLVE_SEARCH_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "gridsolve/error.h"

#define GS_NO_PARENT UINT64_MAX

/* Live counters of a running solve, written by the solving thread about
 * once a millisecond and read by another (the server's progress events).
 * Relaxed atomics: each value is exact when written, the set is a
 * snapshot only approximately. */
typedef struct gs_progress {
    atomic_uint_fast64_t expanded; /* states popped */
    atomic_uint_fast64_t stored;   /* states in the store */
    atomic_uint_fast64_t bound;    /* priority of the last popped state (A*:
                                      the f bound) or BFS depth; 0 unknown */
    atomic_uint_fast64_t bytes;    /* bytes of the state store (set by
                                      the core, or through
                                      gs_progress_report_bytes by a solver
                                      with its own store; gs_search_finish
                                      publishes the final counters) */
    /* The solving thread's own (never read by another): states expanded
     * by the earlier searches of a solve that runs several (phases),
     * added to every report so that `expanded` never goes back. */
    uint64_t expanded_base;
} gs_progress;

/* Limits of one solve. All optional (0 / NULL = none). */
typedef struct gs_limits {
    uint64_t max_states;      /* states stored before giving up */
    uint64_t max_bytes;       /* memory of the state store and the solver's
                                 tables (past it: limit "memory") */
    int64_t deadline_ns;      /* CLOCK_MONOTONIC, from gs_now_ns() */
    const atomic_int *cancel; /* set by the server when it must stop */
    gs_progress *progress;    /* updated while searching; may be NULL */
} gs_limits;

enum gs_status { GS_SOLVED = 0, GS_IMPOSSIBLE = 1, GS_LIMIT = 2 };
enum gs_limit_kind {
    GS_LIMIT_NONE = 0,
    GS_LIMIT_TIME = 1,
    GS_LIMIT_STATES = 2,
    GS_LIMIT_MEMORY = 3 /* the solve's or the process's memory budget */
};

/* "time", "states" or "memory", as in responses and logs. */
const char *gs_limit_name(enum gs_limit_kind k);

/* What a solver reports. gs_result_clear() before use, gs_result_free() after.
 */
typedef struct gs_result {
    enum gs_status status;
    enum gs_limit_kind limit; /* which limit, when status == GS_LIMIT */
    char *moves;              /* malloc'd and NUL-terminated when solved */
    size_t steps;             /* == strlen(moves) when solved */
    long pushes;              /* sokoban: pushes in moves; else -1 */
    bool optimal;             /* steps proven minimal for the objective */
    uint64_t expanded;        /* states expanded (popped) */
    double elapsed_ms;        /* wall time of the solve */
} gs_result;

void gs_result_clear(gs_result *res);
/* "solved", "impossible" or "limit", as in responses and logs. */
const char *gs_status_name(enum gs_status s);
void gs_result_free(gs_result *res);

/* Monotonic clock in nanoseconds. */
int64_t gs_now_ns(void);

/* Deadline `ms` milliseconds from now (0 ms = no deadline). */
int64_t gs_deadline_after_ms(double ms);

enum gs_queue_kind { GS_QUEUE_FIFO = 0, GS_QUEUE_PRIORITY = 1 };

/* A puzzle with its own dense store counts the state cap in bytes: this
 * many per state of limits.max_states (about a small hashed record),
 * since its states cost a fraction of a byte each. */
#define GS_DENSE_STATE_BYTES 16

typedef struct gs_search_config {
    size_t key_size;          /* bytes per packed state, > 0 */
    enum gs_queue_kind queue; /* FIFO (BFS) or priority (A*) */
    const gs_limits *limits;  /* may be NULL */
    /* Priority mode: progress reports a popped priority shifted right by
     * this, for priorities that pack tie-breaks into their low bits. */
    unsigned bound_shift;
} gs_search_config;

/* Whether the packed keys a and b of n bytes are equal. Keys up to 32
 * bytes are compared by overlapping fixed-size loads, not by a call to
 * memcmp (a libc call per probe: 13% of Microban I 139's CPU with its
 * 7-byte keys). For the core's index and solvers' own tables. */
static inline bool gs_key_eq(const void *a, const void *b, size_t n)
{
    const unsigned char *p = a, *q = b;
    if (n >= 8 && n <= 16) {
        uint64_t u, v, w, z;
        memcpy(&u, p, 8);
        memcpy(&v, q, 8);
        memcpy(&w, p + n - 8, 8);
        memcpy(&z, q + n - 8, 8);
        return u == v && w == z;
    }
    if (n > 16 && n <= 32) {
        /* Two words from each end, overlapping in the middle. */
        uint64_t u[4], v[4];
        memcpy(&u[0], p, 8);
        memcpy(&u[1], p + 8, 8);
        memcpy(&u[2], p + n - 16, 8);
        memcpy(&u[3], p + n - 8, 8);
        memcpy(&v[0], q, 8);
        memcpy(&v[1], q + 8, 8);
        memcpy(&v[2], q + n - 16, 8);
        memcpy(&v[3], q + n - 8, 8);
        return ((u[0] ^ v[0]) | (u[1] ^ v[1]) | (u[2] ^ v[2]) |
                (u[3] ^ v[3])) == 0;
    }
    if (n >= 4 && n < 8) {
        uint32_t u, v, w, z;
        memcpy(&u, p, 4);
        memcpy(&v, q, 4);
        memcpy(&w, p + n - 4, 4);
        memcpy(&z, q + n - 4, 4);
        return u == v && w == z;
    }
    return memcmp(p, q, n) == 0;
}

typedef struct gs_search gs_search;

/* Allocates a search. Returns GS_OK or GS_ENOMEM/GS_EINTERNAL. When the
 * memory budget (lim->max_bytes or the process budget, mem.h) refuses the
 * initial store, the search is still made, and its first add or pop
 * returns GS_ELIMIT with the limit GS_LIMIT_MEMORY. */
int gs_search_new(const gs_search_config *cfg, gs_search **out);
void gs_search_free(gs_search *s);

/* Adds a state reached from `parent` (GS_NO_PARENT for a start state) by
 * `move`. `key` points to key_size bytes.
 * Returns 1 when the state is new, 0 when it was already known (*id is set
 * either way when id != NULL), GS_ELIMIT when the state cap is reached, or
 * GS_ENOMEM. In FIFO mode a new state is queued; a known one is left alone. */
int gs_search_add(gs_search *s, const void *key, uint64_t parent,
                  unsigned char move, uint64_t *id);

/* Priority mode: adds or improves a state with path cost `cost` and queues
 * it with priority `prio` (e.g. cost + heuristic). A known state is
 * re-queued only when `cost` is lower than its recorded cost and it has not
 * been expanded yet; its parent and move are then replaced. Same returns as
 * gs_search_add (1 also when an existing state was improved). */
int gs_search_add_prio(gs_search *s, const void *key, uint64_t parent,
                       unsigned char move, uint64_t cost, uint64_t prio,
                       uint64_t *id);

/* A hint that `key` is about to be added; starts loading its
 * index slot so that a solver adding a batch of states (all children of
 * one expansion) waits for one cache miss instead of one per state. */
void gs_search_prefetch(const gs_search *s, const void *key);

/* Takes the next state to expand. Returns 1 with *id set, 0 when the open
 * list is empty (space exhausted), GS_ELIMIT on deadline or cancel. Stale
 * heap entries are skipped; a popped state counts as expanded. */
int gs_search_pop(gs_search *s, uint64_t *id);

/* Priority mode: the priority the last gs_search_pop took its state at. */
uint64_t gs_search_popped_prio(const gs_search *s);

/* Priority mode: puts the state id that gs_search_pop just returned back
 * in the open list, not expanded, at priority `prio` (higher than it was
 * popped at: its heuristic rose since it was queued, as when a solver's
 * bound grows while the search goes on). It no longer counts as
 * expanded. GS_OK, GS_ELIMIT (memory budget) or GS_ENOMEM. */
int gs_search_requeue(gs_search *s, uint64_t id, uint64_t prio);

/* Finds the state stored under `key`: 1 with *id set, 0 when it is not
 * stored. Counts nothing and checks no limit (a solver reading a finished
 * search). */
int gs_search_find(const gs_search *s, const void *key, uint64_t *id);

/* The packed key of a hashed state. Records never move, so the pointer
 * stays valid until gs_search_free(). */
const void *gs_search_key(const gs_search *s, uint64_t id);
/* Recorded cost of a state (priority mode; 0 in FIFO mode). */
uint64_t gs_search_cost(const gs_search *s, uint64_t id);
/* Parent id and move of a state; GS_NO_PARENT for start states. */
uint64_t gs_search_parent(const gs_search *s, uint64_t id, unsigned char *move);

uint64_t gs_search_count(const gs_search *s);    /* states stored */
uint64_t gs_search_expanded(const gs_search *s); /* states popped */
/* Bytes the state store holds (records, index, queue or heap), all of
 * them reserved from the process-wide budget (mem.h). */
uint64_t gs_search_bytes(const gs_search *s);
/* Why the search stopped when a call returned GS_ELIMIT. */
enum gs_limit_kind gs_search_limit(const gs_search *s);

/* Builds the move string from the start to `id`, then appends `suffix`
 * (may be NULL; e.g. the final move that leaves the board). */
int gs_search_path(const gs_search *s, uint64_t id, const char *suffix,
                   char **moves, size_t *len);

/* Fills res from a finished search: rc is the last return of the search
 * loop (GS_ELIMIT -> limit, 0 -> impossible); when `found` is true the path
 * to goal_id plus suffix is the solution. Sets optimal as given, expanded.
 * Returns GS_OK or GS_ENOMEM. Does not free the search. */
int gs_search_finish(gs_search *s, int rc, bool found, uint64_t goal_id,
                     const char *suffix, bool optimal, gs_result *res);

/* True once the deadline passed or cancel is set (for solvers with their
 * own inner loops, e.g. a reachability flood inside one expansion). */
bool gs_limits_expired(const gs_limits *lim);

/* Publishes a solver's own counters to lim->progress (no-op without one);
 * for solvers that search outside the core or want to report a depth. */
void gs_progress_report(const gs_limits *lim, uint64_t expanded,
                        uint64_t stored, uint64_t bound);
/* Counts n states expanded by a search that has ended into every later
 * report of the same solve (lim->progress->expanded_base; no-op without
 * one). */
void gs_progress_add_expanded(const gs_limits *lim, uint64_t n);
/* Publishes the bytes of a solver's own state store to lim->progress
 * (no-op without one), for solvers that search outside the core. */
void gs_progress_report_bytes(const gs_limits *lim, uint64_t bytes);

#endif
