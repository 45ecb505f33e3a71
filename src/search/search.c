/* search.c - the shared search core: visited set, open list, parent links
 * and limits for every solver (see search.h).
 *
 * Hashed records live in fixed-size chunks so that growing the arena never
 * moves a record (keys returned by gs_search_key stay valid across adds
 * within a chunk's life) and never needs a giant realloc. A record is
 * [key | parent u32 | move u8] plus [cost u64 | state u8] in priority
 * mode; ids are arena indices, so in FIFO mode the arena itself is the
 * queue: states are expanded in the order they were discovered.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gridsolve/heap.h"
#include "gridsolve/mem.h"
#include "gridsolve/search.h"

#define CHUNK_SHIFT 16
#define CHUNK_RECS (1u << CHUNK_SHIFT)
#define FIRST_RECS 256u
#define NONE32 UINT32_MAX
#define CHECK_EVERY 128 /* most adds + pops between clock reads */
/* Longest we aim to run between two clock reads: the stride shrinks when
 * ticks turn out slower than this allows. */
#define CHECK_SLACK_NS 1000000

struct gs_search {
    gs_search_config cfg;
    bool prio;
    uint64_t expanded;
    enum gs_limit_kind limit;
    uint32_t tick;
    uint32_t stride;          /* ticks between clock reads, 1..CHECK_EVERY */
    int64_t last_check;       /* gs_now_ns() at the last clock read */
    const atomic_int *cancel; /* limits->cancel, or a flag never set */
    uint64_t bytes;   /* held by the state store, against limits->max_bytes
                         and reserved from the process budget (mem.h) */
    bool over_budget; /* the initial store was refused: every call fails */
    uint64_t bound;   /* priority of the last popped state, shifted */
    uint64_t popped;  /* that priority as it was queued */

    size_t rec_size;
    unsigned char **chunks;
    size_t nchunks, chunks_cap;
    uint32_t count;
    uint64_t *table; /* fingerprint << 32 | (id + 1); 0 = empty */
    uint64_t table_mask;
    uint64_t grow_at;     /* count at which the index doubles (load 0.7) */
    unsigned table_shift; /* a hash's home slot: hash >> table_shift */
    uint64_t fifo_head;
    gs_heap_ent *heap;
    size_t heap_len, heap_cap;
};

void gs_result_clear(gs_result *res)
{
    memset(res, 0, sizeof *res);
    res->pushes = -1;
}

const char *gs_limit_name(enum gs_limit_kind k)
{
    switch (k) {
    case GS_LIMIT_STATES:
        return "states";
    case GS_LIMIT_MEMORY:
        return "memory";
    default:
        return "time";
    }
}

const char *gs_status_name(enum gs_status s)
{
    switch (s) {
    case GS_SOLVED:
        return "solved";
    case GS_IMPOSSIBLE:
        return "impossible";
    default:
        return "limit";
    }
}

void gs_result_free(gs_result *res)
{
    free(res->moves);
    res->moves = NULL;
}

int64_t gs_now_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* Deadlines further out than this (about 126 years) are clamped to
 * "never": converting them to int64_t nanoseconds would overflow. */
#define DEADLINE_MAX_NS 4e18

int64_t gs_deadline_after_ms(double ms)
{
    if (!(ms > 0)) /* also NaN */
        return 0;
    double ns = ms * 1e6;
    if (ns >= DEADLINE_MAX_NS)
        return INT64_MAX;
    return gs_now_ns() + (int64_t)ns;
}

void gs_progress_report(const gs_limits *lim, uint64_t expanded,
                        uint64_t stored, uint64_t bound)
{
    gs_progress *p = lim ? lim->progress : NULL;

    if (!p)
        return;
    atomic_store_explicit(&p->expanded, p->expanded_base + expanded,
                          memory_order_relaxed);
    atomic_store_explicit(&p->stored, stored, memory_order_relaxed);
    atomic_store_explicit(&p->bound, bound, memory_order_relaxed);
}

void gs_progress_add_expanded(const gs_limits *lim, uint64_t n)
{
    if (lim && lim->progress)
        lim->progress->expanded_base += n;
}

void gs_progress_report_bytes(const gs_limits *lim, uint64_t bytes)
{
    if (lim && lim->progress)
        atomic_store_explicit(&lim->progress->bytes, bytes,
                              memory_order_relaxed);
}

bool gs_limits_expired(const gs_limits *lim)
{
    if (!lim)
        return false;
    if (lim->cancel && atomic_load_explicit(lim->cancel, memory_order_relaxed))
        return true;
    return lim->deadline_ns && gs_now_ns() >= lim->deadline_ns;
}

static inline uint64_t load8(const unsigned char *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* A key of n <= 8 bytes as one word, by fixed-size loads that together
 * cover every byte (overlapping when n < 8), so it is one-to-one for a
 * given n, for hashing without a libc memcpy call of the key's variable
 * length (with gs_key_eq and copy_key: the holedox bench's 12 boards,
 * 4-byte keys, 1.321 M -> 1.300 M instructions by callgrind). */
static inline uint64_t small_key(const unsigned char *p, size_t n)
{
    if (n >= 4) {
        uint32_t a, b;
        memcpy(&a, p, 4);
        memcpy(&b, p + n - 4, 4);
        return (uint64_t)b << 32 | a;
    }
    return n ? (uint64_t)p[0] | (uint64_t)p[n >> 1] << 8 |
                   (uint64_t)p[n - 1] << 16
             : 0;
}

/* Copies the n-byte key src to dst by fixed-size moves, overlapping as
 * small_key reads, never past n bytes. */
static inline void copy_key(unsigned char *dst, const unsigned char *src,
                            size_t n)
{
    if (n >= 8) {
        size_t i = 0;
        for (; i + 8 < n; i += 8)
            memcpy(dst + i, src + i, 8);
        memcpy(dst + n - 8, src + n - 8, 8);
    } else if (n >= 4) {
        memcpy(dst, src, 4);
        memcpy(dst + n - 4, src + n - 4, 4);
    } else if (n) {
        dst[0] = src[0];
        dst[n >> 1] = src[n >> 1];
        dst[n - 1] = src[n - 1];
    }
}

/* 64-bit mix over the packed key (splitmix-style finalizers per word);
 * past 8 bytes the last word is read overlapping the one before. */
static inline uint64_t hash_key(const unsigned char *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n, v;

    if (n <= 8) {
        v = small_key(p, n);
    } else {
        const unsigned char *last = p + n - 8;
        for (; p < last; p += 8) {
            h = (h ^ load8(p)) * 0xbf58476d1ce4e5b9ull;
            h ^= h >> 31;
        }
        v = load8(last);
    }
    h = (h ^ v) * 0x94d049bb133111ebull;
    h ^= h >> 29;
    h *= 0xbf58476d1ce4e5b9ull;
    h ^= h >> 32;
    return h;
}

/* Chunk 0 holds the first FIRST_RECS records, chunk 1 + j the next
 * CHUNK_RECS each: a tiny solve reserves and touches a few KB, not a
 * whole chunk (1.5 MB for a 24-byte record). */
static inline unsigned char *rec_at(const gs_search *s, uint32_t id)
{
    if (id < FIRST_RECS)
        return s->chunks[0] + (size_t)id * s->rec_size;
    id -= FIRST_RECS;
    return s->chunks[1 + (id >> CHUNK_SHIFT)] +
           (size_t)(id & (CHUNK_RECS - 1)) * s->rec_size;
}

static inline uint32_t rec_parent(const gs_search *s, const unsigned char *r)
{
    uint32_t p;
    memcpy(&p, r + s->cfg.key_size, 4);
    return p;
}

static inline void rec_set_link(const gs_search *s, unsigned char *r,
                                uint32_t parent, unsigned char move)
{
    memcpy(r + s->cfg.key_size, &parent, 4);
    r[s->cfg.key_size + 4] = move;
}

static inline uint64_t rec_cost(const gs_search *s, const unsigned char *r)
{
    uint64_t c;
    memcpy(&c, r + s->cfg.key_size + 5, 8);
    return c;
}

static inline void rec_set_cost(const gs_search *s, unsigned char *r,
                                uint64_t c)
{
    memcpy(r + s->cfg.key_size + 5, &c, 8);
}

/* A priority record's last byte: REC_CLOSED once expanded, and below it
 * the tag of the one heap entry that is live. Improving or re-queueing a
 * state pushes a new entry under the next tag, so its older entries are
 * stale even after gs_search_requeue opens it again, and do not pop it at
 * a priority it no longer has. (The tags wrap after 128 pushes of one
 * state; a stale entry that matches then pops it early, out of order but
 * no worse than that.) */
#define REC_CLOSED 0x80u
#define REC_TAG 0x7fu

static inline unsigned char *rec_state(const gs_search *s, unsigned char *r)
{
    return r + s->cfg.key_size + 13;
}

/* The tag r's next heap entry goes under. */
static inline uint8_t rec_next_tag(const gs_search *s, unsigned char *r)
{
    return (uint8_t)((*rec_state(s, r) + 1u) & REC_TAG);
}

/* Sets the index size to mask + 1 slots (a power of two) and the shift
 * that takes a hash's top bits as its home slot. The top bits: up to
 * 2^32 slots they are the fingerprint's, so that doubling the index
 * needs no record (table_grow), and the slots of one old home land side
 * by side in the new index, which it then fills in order. */
static void table_size(gs_search *s, uint64_t mask)
{
    unsigned bits = 0;
    while (bits < 64 && (mask >> bits))
        bits++;
    s->table_mask = mask;
    s->table_shift = 64 - bits;
    s->grow_at = (mask + 1) / 10 * 7 + (mask + 1) % 10 * 7 / 10;
}

/* Never set: the cancel flag of a search without one, so that time_up
 * always has a flag to load. */
static atomic_int no_cancel;

/* Reserves the store's first block from both budgets; on refusal the
 * search is marked over budget instead of failing, so that solvers report
 * it as a limit through their usual add/pop path. */
static bool reserve_initial(gs_search *s, uint64_t n)
{
    const gs_limits *lim = s->cfg.limits;

    if ((lim && lim->max_bytes && n > lim->max_bytes) || !gs_mem_reserve(n)) {
        s->over_budget = true;
        s->stride = 0; /* every tick reports it (time_up) */
        s->limit = GS_LIMIT_MEMORY;
        return false;
    }
    s->bytes = n;
    return true;
}

int gs_search_new(const gs_search_config *cfg, gs_search **out)
{
    *out = NULL;
    if (cfg->key_size == 0)
        return GS_EINTERNAL;
    gs_search *s = calloc(1, sizeof *s);
    if (!s)
        return GS_ENOMEM;
    s->cfg = *cfg;
    s->stride = 1;
    s->cancel =
        cfg->limits && cfg->limits->cancel ? cfg->limits->cancel : &no_cancel;
    s->last_check = gs_now_ns();
    s->prio = cfg->queue == GS_QUEUE_PRIORITY;
    s->rec_size = cfg->key_size + 5 + (s->prio ? 9 : 0);
    /* Small at first: many solves are tiny, and a fresh index is zeroed
     * (a large one costs a tiny solve a page fault per state stored); it
     * doubles as the store grows, which reads the old index in order. */
    table_size(s, 255);
    if (reserve_initial(s, (s->table_mask + 1) * sizeof *s->table)) {
        s->table = calloc(s->table_mask + 1, sizeof *s->table);
        if (!s->table) {
            gs_search_free(s);
            return GS_ENOMEM;
        }
    }
    *out = s;
    return GS_OK;
}

void gs_search_free(gs_search *s)
{
    if (!s)
        return;
    for (size_t i = 0; i < s->nchunks; i++)
        free(s->chunks[i]);
    free(s->chunks);
    free(s->table);
    free(s->heap);
    gs_mem_release(s->bytes);
    free(s);
}

/* A table entry: the hash's high half filters probes without touching
 * the arena (records are scattered; the index is not). */
static inline uint64_t entry_of(uint64_t h, uint32_t id)
{
    return (h & 0xFFFFFFFF00000000ull) | ((uint64_t)id + 1);
}

static inline uint32_t entry_id(uint64_t e)
{
    return (uint32_t)e - 1;
}

/* Accounts for the store growing from `from` to `to` bytes. False (and
 * the limit recorded as memory) when that would pass the solve's budget
 * or the process's: the solve then answers `limit` instead of exhausting
 * the process, which serves other requests too. */
static bool budget_grow(gs_search *s, size_t from, size_t to)
{
    const gs_limits *lim = s->cfg.limits;
    uint64_t next = s->bytes - from + to;
    if (to > from && ((lim && lim->max_bytes && next > lim->max_bytes) ||
                      !gs_mem_reserve(to - from))) {
        s->limit = GS_LIMIT_MEMORY;
        return false;
    }
    if (to < from)
        gs_mem_release(from - to);
    s->bytes = next;
    return true;
}

/* Records rehashed between two deadline checks of table_grow. */
#define REHASH_CHECK_EVERY 65536u

/* Doubles the hash index; called at load 0.7. Rehashing reads the arena
 * sequentially, which is cheap next to random probes; but tens of millions
 * of records take a second or more, so the deadline is watched here too
 * (a store that doubles just before it would otherwise overrun it). */
static int table_grow(gs_search *s)
{
    uint64_t old_bytes = (s->table_mask + 1) * sizeof *s->table;
    uint64_t mask = s->table_mask * 2 + 1;
    if (!budget_grow(s, old_bytes, (mask + 1) * sizeof *s->table))
        return GS_ELIMIT;
    uint64_t *t = calloc(mask + 1, sizeof *t);
    if (!t) {
        budget_grow(s, (mask + 1) * sizeof *t, old_bytes);
        return GS_ENOMEM;
    }
    gs_mem_advise_huge(t, (mask + 1) * sizeof *t); /* probed at random */
    unsigned shift = s->table_shift - 1;
    /* Up to 2^32 slots an entry's fingerprint holds its new home: the old
     * index is read in order, and written nearly in order. Past that,
     * each record is hashed again. */
    uint64_t n = shift >= 32 ? s->table_mask + 1 : s->count;
    for (uint64_t k = 0; k < n; k++) {
        if (k % REHASH_CHECK_EVERY == REHASH_CHECK_EVERY - 1 &&
            gs_limits_expired(s->cfg.limits)) {
            free(t);
            budget_grow(s, (mask + 1) * sizeof *t, old_bytes);
            s->limit = GS_LIMIT_TIME;
            return GS_ELIMIT;
        }
        uint64_t e;
        if (shift >= 32) {
            e = s->table[k];
            if (!e)
                continue;
        } else {
            e = entry_of(hash_key(rec_at(s, (uint32_t)k), s->cfg.key_size),
                         (uint32_t)k);
        }
        uint64_t i = (e & 0xFFFFFFFF00000000ull) >> shift;
        if (shift < 32) /* the home's low bits are not in the entry */
            i = hash_key(rec_at(s, entry_id(e)), s->cfg.key_size) >> shift;
        while (t[i])
            i = (i + 1) & mask;
        t[i] = e;
    }
    free(s->table);
    s->table = t;
    table_size(s, mask);
    return GS_OK;
}

/* Allocates the chunk that record `id`, the first of its chunk, goes in:
 * GS_OK, GS_ELIMIT (memory budget) or GS_ENOMEM. */
static __attribute__((noinline)) int arena_grow(gs_search *s, uint32_t id)
{
    uint32_t j = id - FIRST_RECS;
    size_t c = id == 0 ? 0 : 1 + (j >> CHUNK_SHIFT);
    size_t chunk_bytes =
        (size_t)(id == 0 ? FIRST_RECS : CHUNK_RECS) * s->rec_size;
    if (!budget_grow(s, 0, chunk_bytes))
        return GS_ELIMIT;
    if (c == s->chunks_cap) {
        size_t cap = s->chunks_cap ? s->chunks_cap * 2 : 16;
        unsigned char **p = realloc(s->chunks, cap * sizeof *p);
        if (!p) {
            budget_grow(s, chunk_bytes, 0);
            return GS_ENOMEM;
        }
        s->chunks = p;
        s->chunks_cap = cap;
    }
    s->chunks[c] = malloc(chunk_bytes);
    if (!s->chunks[c]) {
        budget_grow(s, chunk_bytes, 0);
        return GS_ENOMEM;
    }
    s->nchunks = c + 1;
    return GS_OK;
}

/* Appends a record slot and sets *id. Returns GS_OK, GS_ELIMIT (memory
 * budget) or GS_ENOMEM. */
static inline int arena_push(gs_search *s, uint32_t *id)
{
    *id = s->count;
    uint32_t j = *id - FIRST_RECS;
    if (*id == 0 || (*id >= FIRST_RECS && (j & (CHUNK_RECS - 1)) == 0)) {
        int rc = arena_grow(s, *id);
        if (rc)
            return rc;
    }
    s->count++;
    return GS_OK;
}

/* Finds key; returns its table slot and sets *hash. *found tells whether
 * it is there. */
static inline uint64_t table_find(const gs_search *s, const void *key,
                                  bool *found, uint64_t *hash)
{
    uint64_t h = hash_key(key, s->cfg.key_size);
    uint64_t fp = h & 0xFFFFFFFF00000000ull;
    uint64_t i = h >> s->table_shift;
    *hash = h;
    for (;;) {
        uint64_t e = s->table[i];
        if (!e) {
            *found = false;
            return i;
        }
        if ((e & 0xFFFFFFFF00000000ull) == fp &&
            gs_key_eq(rec_at(s, entry_id(e)), key, s->cfg.key_size)) {
            *found = true;
            return i;
        }
        i = (i + 1) & s->table_mask;
    }
}

/* Reads the clock; adapts the stride so that about CHECK_SLACK_NS pass
 * between reads. Ticks are usually cheap and the stride grows to
 * CHECK_EVERY; a solver with a costly step per add (a matching heuristic
 * over many goals) gets a read every tick instead of overshooting its
 * deadline by CHECK_EVERY costly steps. */
static bool clock_up(gs_search *s, int64_t deadline_ns)
{
    int64_t now = gs_now_ns();
    uint64_t gap = now > s->last_check ? (uint64_t)(now - s->last_check) : 0;
    s->last_check = now;
    if (gap > CHECK_SLACK_NS) {
        uint64_t st = (uint64_t)s->stride * CHECK_SLACK_NS / gap;
        s->stride = st ? (uint32_t)st : 1;
    } else if (gap < CHECK_SLACK_NS / 4 && s->stride < CHECK_EVERY) {
        s->stride *= 2;
    }
    return deadline_ns && now >= deadline_ns;
}

/* Publishes the search's counters and store size to lim->progress. */
static void publish(const gs_search *s)
{
    const gs_limits *lim = s->cfg.limits;
    gs_progress_report(lim, s->expanded, gs_search_count(s), s->bound);
    gs_progress_report_bytes(lim, s->bytes);
}

/* The slow part of time_up: the clock (every `stride` ticks), a refused
 * store, a cancel. */
static __attribute__((noinline)) bool time_up_slow(gs_search *s)
{
    const gs_limits *lim = s->cfg.limits;
    if (s->over_budget)
        return true; /* s->limit already says memory */
    bool up = atomic_load_explicit(s->cancel, memory_order_relaxed);
    if (!up && s->tick >= s->stride) {
        s->tick = 0;
        if (lim && (lim->deadline_ns || lim->progress)) {
            up = clock_up(s, lim->deadline_ns);
            publish(s);
        } else if (s->stride < CHECK_EVERY) {
            /* Nothing to watch yet; a deadline set later (through
             * cfg.limits) is seen within CHECK_EVERY ticks. */
            s->stride = CHECK_EVERY;
        }
    }
    if (up)
        s->limit = GS_LIMIT_TIME;
    return up;
}

/* True once the deadline passed or cancel is set; records the limit.
 * Both adds and pops tick it, so a solver whose expansions are slow (many
 * successors, costly heuristics) still overshoots its deadline by at most
 * a few expansions. Cancel is one load, checked always; the clock every
 * `stride` ticks (see clock_up). Inline: it runs on every add and pop. A
 * refused store sets the stride to 0, so that every tick takes the slow
 * path. */
static inline bool time_up(gs_search *s)
{
    if (__builtin_expect(++s->tick < s->stride, 1) &&
        !atomic_load_explicit(s->cancel, memory_order_relaxed))
        return false;
    return time_up_slow(s);
}

static bool states_full(gs_search *s, uint64_t stored)
{
    const gs_limits *lim = s->cfg.limits;
    if (lim && lim->max_states && stored >= lim->max_states) {
        s->limit = GS_LIMIT_STATES;
        return true;
    }
    return false;
}

/* Inserts a new hashed record at table slot `slot`. */
static inline __attribute__((always_inline)) int
hashed_insert(gs_search *s, uint64_t slot, uint64_t hash, const void *key,
              uint64_t parent, unsigned char move, uint32_t *out)
{
    if (states_full(s, s->count))
        return GS_ELIMIT;
    if (s->count >= NONE32 - 1) { /* ids are 32 bits: the store's ceiling */
        s->limit = GS_LIMIT_STATES;
        return GS_ELIMIT;
    }
    /* Grow the index first, so that a failure leaves no half-made record;
     * the key is known to be absent, so its new slot is the first free one
     * on its probe path. */
    if (s->count >= s->grow_at) {
        int rc = table_grow(s);
        if (rc)
            return rc;
        slot = hash >> s->table_shift;
        while (s->table[slot])
            slot = (slot + 1) & s->table_mask;
    }
    uint32_t id;
    int rc = arena_push(s, &id);
    if (rc)
        return rc;
    unsigned char *r = rec_at(s, id);
    copy_key(r, key, s->cfg.key_size);
    rec_set_link(s, r, parent == GS_NO_PARENT ? NONE32 : (uint32_t)parent,
                 move);
    s->table[slot] = entry_of(hash, id);
    *out = id;
    return GS_OK;
}

int gs_search_add(gs_search *s, const void *key, uint64_t parent,
                  unsigned char move, uint64_t *id)
{
    if (time_up(s))
        return GS_ELIMIT;
    if (s->prio)
        return GS_EINTERNAL;
    bool found;
    uint64_t hash;
    uint64_t slot = table_find(s, key, &found, &hash);
    if (found) {
        if (id)
            *id = entry_id(s->table[slot]);
        return 0;
    }
    uint32_t nid;
    int rc = hashed_insert(s, slot, hash, key, parent, move, &nid);
    if (rc)
        return rc;
    if (id)
        *id = nid;
    return 1;
}

void gs_search_prefetch(const gs_search *s, const void *key)
{
    if (!s->table)
        return;
    uint64_t h = hash_key(key, s->cfg.key_size);
    __builtin_prefetch(&s->table[h >> s->table_shift]);
}

/* Doubles the heap's room (from the budget). GS_OK, GS_ELIMIT or
 * GS_ENOMEM. Apart from heap_push, which then inlines into its callers. */
static __attribute__((noinline)) int heap_grow(gs_search *s)
{
    size_t cap = s->heap_cap ? s->heap_cap * 2 : 64;
    if (!budget_grow(s, s->heap_cap * sizeof *s->heap, cap * sizeof *s->heap))
        return GS_ELIMIT;
    gs_heap_ent *h = realloc(s->heap, cap * sizeof *h);
    if (!h) {
        budget_grow(s, cap * sizeof *h, s->heap_cap * sizeof *h);
        return GS_ENOMEM;
    }
    gs_mem_advise_huge(h, cap * sizeof *h); /* sifts reach deep at random */
    s->heap = h;
    s->heap_cap = cap;
    return GS_OK;
}

static inline int heap_push(gs_search *s, uint64_t prio, uint32_t id,
                            uint8_t tag)
{
    if (s->heap_len == s->heap_cap) {
        int rc = heap_grow(s);
        if (rc)
            return rc;
    }
    gs_heap_push(s->heap, &s->heap_len,
                 (gs_heap_ent){.prio = prio, .id = id, .tag = tag});
    return GS_OK;
}

int gs_search_add_prio(gs_search *s, const void *key, uint64_t parent,
                       unsigned char move, uint64_t cost, uint64_t prio,
                       uint64_t *id)
{
    if (!s->prio)
        return GS_EINTERNAL;
    if (time_up(s))
        return GS_ELIMIT;
    bool found;
    uint64_t hash;
    uint64_t slot = table_find(s, key, &found, &hash);
    uint32_t rid;
    uint8_t tag = 0;
    if (found) {
        rid = entry_id(s->table[slot]);
        if (id)
            *id = rid;
        unsigned char *r = rec_at(s, rid);
        if ((*rec_state(s, r) & REC_CLOSED) || cost >= rec_cost(s, r))
            return 0;
        rec_set_link(s, r, parent == GS_NO_PARENT ? NONE32 : (uint32_t)parent,
                     move);
        rec_set_cost(s, r, cost);
        tag = rec_next_tag(s, r);
    } else {
        int rc = hashed_insert(s, slot, hash, key, parent, move, &rid);
        if (rc)
            return rc;
        unsigned char *r = rec_at(s, rid);
        rec_set_cost(s, r, cost);
        *rec_state(s, r) = 0; /* open, under tag 0 */
        if (id)
            *id = rid;
    }
    int rc = heap_push(s, prio, rid, tag);
    if (rc)
        return rc;
    *rec_state(s, rec_at(s, rid)) = tag;
    return 1;
}

int gs_search_pop(gs_search *s, uint64_t *id)
{
    if (time_up(s))
        return GS_ELIMIT;
    if (!s->prio) {
        if (s->fifo_head == s->count)
            return 0;
        *id = s->fifo_head++;
    } else {
        for (;;) {
            if (s->heap_len == 0)
                return 0;
            gs_heap_ent e = gs_heap_pop(s->heap, &s->heap_len);
            unsigned char *st = rec_state(s, rec_at(s, e.id));
            if (*st != e.tag)
                continue; /* stale: expanded, improved or re-queued since */
            *st |= REC_CLOSED;
            *id = e.id;
            s->popped = e.prio;
            s->bound = e.prio >> s->cfg.bound_shift;
            break;
        }
    }
    s->expanded++;
    return 1;
}

uint64_t gs_search_popped_prio(const gs_search *s)
{
    return s->popped;
}

int gs_search_requeue(gs_search *s, uint64_t id, uint64_t prio)
{
    if (!s->prio || id >= s->count)
        return GS_EINTERNAL;
    uint8_t tag = rec_next_tag(s, rec_at(s, (uint32_t)id));
    int rc = heap_push(s, prio, (uint32_t)id, tag);
    if (rc)
        return rc;
    *rec_state(s, rec_at(s, (uint32_t)id)) = tag;
    s->expanded--;
    return GS_OK;
}

const void *gs_search_key(const gs_search *s, uint64_t id)
{
    return rec_at(s, (uint32_t)id);
}

uint64_t gs_search_cost(const gs_search *s, uint64_t id)
{
    return s->prio ? rec_cost(s, rec_at(s, (uint32_t)id)) : 0;
}

uint64_t gs_search_parent(const gs_search *s, uint64_t id, unsigned char *move)
{
    const unsigned char *r = rec_at(s, (uint32_t)id);
    uint32_t p = rec_parent(s, r);
    if (move)
        *move = r[s->cfg.key_size + 4];
    return p == NONE32 ? GS_NO_PARENT : p;
}

int gs_search_find(const gs_search *s, const void *key, uint64_t *id)
{
    if (!s->table)
        return 0; /* the budget refused the store */
    bool found;
    uint64_t hash, slot = table_find(s, key, &found, &hash);
    if (found)
        *id = entry_id(s->table[slot]);
    return found;
}

uint64_t gs_search_count(const gs_search *s)
{
    return s->count;
}

uint64_t gs_search_expanded(const gs_search *s)
{
    return s->expanded;
}

uint64_t gs_search_bytes(const gs_search *s)
{
    return s->bytes;
}

enum gs_limit_kind gs_search_limit(const gs_search *s)
{
    return s->limit;
}

int gs_search_path(const gs_search *s, uint64_t id, const char *suffix,
                   char **moves, size_t *len)
{
    size_t n = 0, extra = suffix ? strlen(suffix) : 0;
    unsigned char m;
    for (uint64_t v = id; (v = gs_search_parent(s, v, &m)) != GS_NO_PARENT;)
        n++;
    char *out = malloc(n + extra + 1);
    if (!out)
        return GS_ENOMEM;
    size_t i = n;
    for (uint64_t v = id, p; (p = gs_search_parent(s, v, &m)) != GS_NO_PARENT;
         v = p)
        out[--i] = (char)m;
    memcpy(out + n, suffix ? suffix : "", extra);
    out[n + extra] = '\0';
    *moves = out;
    if (len)
        *len = n + extra;
    return GS_OK;
}

int gs_search_finish(gs_search *s, int rc, bool found, uint64_t goal_id,
                     const char *suffix, bool optimal, gs_result *res)
{
    res->expanded = s->expanded;
    publish(s);
    if (found) {
        int prc = gs_search_path(s, goal_id, suffix, &res->moves, &res->steps);
        if (prc)
            return prc;
        res->status = GS_SOLVED;
        res->optimal = optimal;
        return GS_OK;
    }
    if (rc == GS_ELIMIT) {
        res->status = GS_LIMIT;
        res->limit = s->limit ? s->limit : GS_LIMIT_TIME;
        return GS_OK;
    }
    if (rc < 0)
        return rc;
    res->status = GS_IMPOSSIBLE;
    return GS_OK;
}
