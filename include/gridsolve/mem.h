/* mem.h - the process-wide memory budget.
 *
 * Every large allocation a request causes (a solve's state store, a
 * solver's own tables, JSON trees, buffered request bodies) reserves its
 * bytes here first. A reservation that would pass the budget fails, and the
 * caller answers `limit` ("limit": "memory") or 503 instead of letting the
 * kernel's OOM killer end the whole process, which serves other requests.
 *
 * The budget is one atomic counter: reservations are lock-free and cheap
 * enough to take per chunk (tens of KB). Code that makes many small
 * blocks (a request's JSON tree) runs in a scope, where the thread
 * reserves in chunks and hands out its own credit without atomics.
 */
#ifndef GRIDSOLVE_MEM_H
#define GRIDSOLVE_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Sets the budget in bytes; 0 means unlimited (the default). */
void gs_mem_set_budget(uint64_t bytes);
/* The budget of `percent` of the system's memory, less what the process
 * holds (gs_mem_process_budget(gs_mem_default_budget(percent))), worked
 * out only once the reservations pass GS_MEM_LAZY_FLOOR or the budget is
 * asked for: a small run (`gridsolve solve` on a judge file) then never
 * reads the cgroup and /proc files at all. gs_mem_set_budget cancels it. */
#define GS_MEM_LAZY_FLOOR (4u << 20)
void gs_mem_defer_default_budget(unsigned percent);
/* True while a deferred budget waits to be worked out. */
bool gs_mem_budget_pending(void);
uint64_t gs_mem_budget(void);
/* Bytes reserved now, and the most ever reserved at once. */
uint64_t gs_mem_used(void);
uint64_t gs_mem_peak(void);
/* Reservations refused so far (for metrics). */
uint64_t gs_mem_refused(void);
/* Reservations refused so far on the calling thread. Read before and after
 * a call, it tells a failure caused by the budget from any other (a syntax
 * error, a real malloc failure) without racing with other threads. */
uint64_t gs_mem_refused_here(void);

/* Reserves n bytes. False, with nothing reserved, when that would pass the
 * budget. */
bool gs_mem_reserve(uint64_t n);
/* Returns n bytes reserved earlier. */
void gs_mem_release(uint64_t n);

/* A scope on the calling thread, until the matching gs_mem_scope_end
 * (scopes nest). Inside, reservations draw on a per-thread credit taken
 * from the budget in chunks of tens of KB, and releases (of any block,
 * wherever it was reserved) go back to that credit; the end gives the
 * credit back. What other threads see is conservative: gs_mem_used()
 * counts the credit, so a scope holds up to a chunk or two more than it
 * uses (near a full budget it reserves exact amounts instead, and never
 * holds more than MEM_CREDIT_MAX, mem.c). Refusals are as outside. Keep
 * a scope short: a request's service call, not a thread's life. */
void gs_mem_scope_begin(void);
void gs_mem_scope_end(void);

/* A JSON parse's allocator. While `a` is open on the calling thread
 * (gs_mem_arena_begin until gs_mem_arena_close), the cJSON hooks carve
 * the new tree's blocks out of `buf` instead of the heap: one bump of a
 * pointer instead of a malloc, a budget reservation and, at the tree's
 * deletion, a free each. What does not fit comes from the heap as usual.
 * Freeing a block of buf is a no-op until gs_mem_arena_end, by which time
 * every tree made in it must be deleted. buf is the caller's, 16-byte
 * aligned, typically a few KB on its stack: like the stack, it is not
 * counted in the budget. One arena per thread at a time. */
typedef struct gs_mem_arena {
    unsigned char *buf;
    size_t size, used;
    bool open;
    bool spilled; /* a block came from the heap while open */
} gs_mem_arena;
void gs_mem_arena_begin(gs_mem_arena *a, void *buf, size_t size);
void gs_mem_arena_close(gs_mem_arena *a);
void gs_mem_arena_end(gs_mem_arena *a);
/* True when the cJSON hooks carved blocks out of `a` while it was open
 * and none came from the heap: a tree made then need not be deleted (its
 * nodes go with the arena). False without the hooks installed. */
bool gs_mem_arena_holds_all(const gs_mem_arena *a);

/* malloc/calloc/realloc/free that reserve what they hold: the block carries
 * its size in a small header. NULL when the budget or the system refuses.
 * gs_mem_realloc(p, 0) frees p and returns NULL. */
void *gs_mem_malloc(size_t n);
void *gs_mem_calloc(size_t count, size_t size);
void *gs_mem_realloc(void *p, size_t n);
void gs_mem_free(void *p);

/* Fixes the C library's threshold above which a block is mapped on its
 * own (glibc), so that freeing a large block gives its pages back. Call
 * once, first thing in main. */
void gs_mem_fix_map_threshold(void);

/* Asks the kernel to back the 2 MB-aligned part of [p, p + n) with huge
 * pages (MADV_HUGEPAGE): random probes over tables of hundreds of MB
 * then spare most TLB misses. Advice only; best made before the pages
 * are first written, as those already there keep their size. */
void gs_mem_advise_huge(void *p, size_t n);

/* The memory this process may use: the smallest cgroup limit (v2
 * memory.max or v1 memory.limit_in_bytes) on the path from its own cgroup
 * up to the root, when one is set, else physical memory. */
uint64_t gs_mem_system_limit(void);
/* The smallest memory limit of gs_cgroup_each(self, root, ...) (cgroup.h:
 * the membership file, the mount root); 0 when none is set. */
uint64_t gs_mem_cgroup_limit(const char *self, const char *root);
/* The default budget: `percent` of gs_mem_system_limit(). */
uint64_t gs_mem_default_budget(unsigned percent);

/* What requests may reserve when the whole process is to stay within
 * `bytes` (--max-memory): bytes less what the accounting cannot see, the
 * memory resident now (image, libraries, start-up tables) and a slack of
 * 1/32 (GS_MEM_SLACK_MIN to GS_MEM_SLACK_MAX) for thread stacks, the HTTP
 * library's connection buffers and the allocator's own overhead. 0 stays
 * 0 (no budget). Call at start-up, before threads. */
#define GS_MEM_SLACK_MIN (1u << 20)
#define GS_MEM_SLACK_MAX (64u << 20)
uint64_t gs_mem_process_budget(uint64_t bytes);

/* The least a --max-memory may leave requests past the process's own
 * size: below it a start would fail later, on a table it cannot hold. */
#define GS_MEM_MIN_REQUESTS (1u << 20)

/* Makes cJSON allocate through the budget, or an open arena (process-
 * wide; call once at start-up, before any thread parses JSON). A parse that
 * runs out of budget fails like one that runs out of memory; gs_mem_refused()
 * read before and after tells it from a syntax error. */
void gs_mem_install_cjson_hooks(void);

#endif
