/* search.c - the shared search core: visited set, open list, parent links
 * and limits for every solver (see search.h for the two state modes).
 *
 * Hashed records live in fixed-size chunks so that growing the arena never
 * moves a record (keys returned by gs_search_key stay valid across adds
 * within a chunk's life) and never needs a giant realloc. A record is
 * [key | parent u32 | move u8] plus [cost u64 | closed u8] in priority
 * mode; ids are arena indices, so in FIFO mode the arena itself is the
 * queue: states are expanded in the order they were discovered.
 *
 * Lattice mode runs its BFS here, in one tight loop: the puzzle's legal
 * states form one bitset ("open": legal and not yet visited) with a cell's
 * layers side by side, a move is an add to the state id, a visit clears
 * one bit and ORs a 2-bit move in (moves are stored layer by layer: they
 * are written once, read only for the path), and the FIFO is a ring of
 * 32-bit ids. No callback, no record, no hash. The BFS is bound by cache
 * misses: interleaving the layers makes a wavefront touch about a third
 * of the cache lines that one bitset per layer did.
 */
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>

#include "gridsolve/mem.h"
#include "gridsolve/search.h"

#define CHUNK_SHIFT 16
#define CHUNK_RECS (1u << CHUNK_SHIFT)
#define FIRST_RECS 256u
#define NONE32 UINT32_MAX
#define DENSE_UNSEEN 0
#define DENSE_START 0xFF
#define CHECK_EVERY 128 /* most adds + pops between clock reads */
/* Longest we aim to run between two clock reads: the stride shrinks when
 * ticks turn out slower than this allows. */
#define CHECK_SLACK_NS 1000000

typedef struct heap_ent {
    uint64_t prio;
    uint32_t id;
} heap_ent;

struct gs_search {
    gs_search_config cfg;
    bool dense;
    bool prio;
    uint64_t expanded;
    enum gs_limit_kind limit;
    uint32_t tick;
    uint32_t stride;    /* ticks between clock reads, 1..CHECK_EVERY */
    int64_t last_check; /* gs_now_ns() at the last clock read */
    uint64_t bytes;     /* held by the state store, against limits->max_bytes
                           and reserved from the process budget (mem.h) */
    bool over_budget;   /* the initial store was refused: every call fails */
    uint64_t bound;     /* priority of the last popped state */

    /* dense mode */
    unsigned char *dmove;
    uint32_t *dq;
    size_t dq_head, dq_len, dq_cap;
    uint64_t dcount;

    /* hashed mode */
    size_t rec_size;
    unsigned char **chunks;
    size_t nchunks, chunks_cap;
    uint32_t count;
    uint64_t *table; /* fingerprint << 32 | (id + 1); 0 = empty */
    uint64_t table_mask;
    uint64_t fifo_head;
    heap_ent *heap;
    size_t heap_len, heap_cap;

    /* lattice mode */
    const gs_lattice *lat;
    uint64_t *lopen; /* legal, unvisited */
    size_t lopen_bytes, lmove_bytes;
    uint8_t *lmove; /* 2 bits per state id: one byte per cell */
    int64_t ldelta[GS_LATTICE_MAX][GS_LATTICE_MAX];      /* id change */
    unsigned char lfrom[GS_LATTICE_MAX][GS_LATTICE_MAX]; /* [to][m] -> k */
    uint8_t lmbits[GS_LATTICE_MAX][GS_LATTICE_MAX];      /* move m's bits */
    uint32_t *lq;                                        /* ring, power of 2 */
    size_t lq_cap;
    uint64_t lq_most; /* states the lattice has: the ring's useful size */
    uint64_t lstart, lcount;
    uint64_t lcap_bytes; /* the state cap as bytes; 0 = none */
};

#define LQ_MAX_CELLS (1u << 30)
#define LQ_FIRST 4096     /* first ring size */
#define LATTICE_TICK 1024 /* expansions between limit checks */

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
    atomic_store_explicit(&p->expanded, expanded, memory_order_relaxed);
    atomic_store_explicit(&p->stored, stored, memory_order_relaxed);
    atomic_store_explicit(&p->bound, bound, memory_order_relaxed);
}

bool gs_limits_expired(const gs_limits *lim)
{
    if (!lim)
        return false;
    if (lim->cancel && atomic_load_explicit(lim->cancel, memory_order_relaxed))
        return true;
    return lim->deadline_ns && gs_now_ns() >= lim->deadline_ns;
}

/* 64-bit mix over the packed key (splitmix-style finalizers per word). */
static uint64_t hash_key(const unsigned char *p, size_t n)
{
    uint64_t h = 0x9E3779B97F4A7C15ull ^ n;
    while (n >= 8) {
        uint64_t v;
        memcpy(&v, p, 8);
        h = (h ^ v) * 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
        p += 8;
        n -= 8;
    }
    uint64_t v = 0;
    memcpy(&v, p, n);
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

static inline unsigned char *rec_closed(const gs_search *s, unsigned char *r)
{
    return r + s->cfg.key_size + 13;
}

/* Reserves the store's first block from both budgets; on refusal the
 * search is marked over budget instead of failing, so that solvers report
 * it as a limit through their usual add/pop path. */
static bool reserve_initial(gs_search *s, uint64_t n)
{
    const gs_limits *lim = s->cfg.limits;

    if ((lim && lim->max_bytes && n > lim->max_bytes) || !gs_mem_reserve(n)) {
        s->over_budget = true;
        s->limit = GS_LIMIT_MEMORY;
        return false;
    }
    s->bytes = n;
    return true;
}

static int lattice_new(gs_search *s);

int gs_search_new(const gs_search_config *cfg, gs_search **out)
{
    *out = NULL;
    if (cfg->lattice) {
        gs_search *s = calloc(1, sizeof *s);
        if (!s)
            return GS_ENOMEM;
        s->cfg = *cfg;
        s->stride = 1;
        s->last_check = gs_now_ns();
        int rc = lattice_new(s);
        if (rc) {
            gs_search_free(s);
            return rc;
        }
        *out = s;
        return GS_OK;
    }
    if (cfg->dense_count ? (!cfg->dense_parent || cfg->queue != GS_QUEUE_FIFO ||
                            cfg->dense_count > NONE32)
                         : cfg->key_size == 0)
        return GS_EINTERNAL;
    gs_search *s = calloc(1, sizeof *s);
    if (!s)
        return GS_ENOMEM;
    s->cfg = *cfg;
    s->stride = 1;
    s->last_check = gs_now_ns();
    s->dense = cfg->dense_count > 0;
    s->prio = cfg->queue == GS_QUEUE_PRIORITY;
    if (s->dense) {
        if (reserve_initial(s, cfg->dense_count)) {
            s->dmove = calloc(cfg->dense_count, 1);
            if (!s->dmove) {
                gs_search_free(s);
                return GS_ENOMEM;
            }
        }
    } else {
        s->rec_size = cfg->key_size + 5 + (s->prio ? 9 : 0);
        /* Small at first: many solves are tiny, and a fresh index is
         * zeroed; it doubles as the store grows. */
        s->table_mask = 255;
        if (reserve_initial(s, (s->table_mask + 1) * sizeof *s->table)) {
            s->table = calloc(s->table_mask + 1, sizeof *s->table);
            if (!s->table) {
                gs_search_free(s);
                return GS_ENOMEM;
            }
        }
    }
    *out = s;
    return GS_OK;
}

/* Zeroed memory for the lattice's tables. Past BIG_BYTES it is mapped
 * directly and the kernel is asked for huge pages: a BFS wavefront on a
 * large board touches a few lines in each of thousands of rows, and with
 * 4 KB pages nearly every one of those accesses missed the TLB. */
#define BIG_BYTES (4u << 20)
#define HUGE_PAGE (2u << 20)

static void *big_calloc(size_t n)
{
    if (n < BIG_BYTES)
        return calloc(n, 1);
    size_t len = (n + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1);
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, len, MADV_HUGEPAGE); /* advice only: fine if refused */
#endif
    return p;
}

static void big_free(void *p, size_t n)
{
    if (!p)
        return;
    if (n < BIG_BYTES) {
        free(p);
        return;
    }
    munmap(p, (n + HUGE_PAGE - 1) & ~(size_t)(HUGE_PAGE - 1));
}

void gs_search_free(gs_search *s)
{
    if (!s)
        return;
    free(s->dmove);
    free(s->dq);
    for (size_t i = 0; i < s->nchunks; i++)
        free(s->chunks[i]);
    free(s->chunks);
    free(s->table);
    free(s->heap);
    big_free(s->lopen, s->lopen_bytes);
    big_free(s->lmove, s->lmove_bytes);
    free(s->lq);
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

/* Doubles the hash index; called at load 0.7. Rehashing reads the arena
 * sequentially, which is cheap next to random probes. */
static int table_grow(gs_search *s)
{
    uint64_t mask = s->table_mask * 2 + 1;
    if (!budget_grow(s, (s->table_mask + 1) * sizeof *s->table,
                     (mask + 1) * sizeof *s->table))
        return GS_ELIMIT;
    uint64_t *t = calloc(mask + 1, sizeof *t);
    if (!t)
        return GS_ENOMEM;
    for (uint32_t id = 0; id < s->count; id++) {
        uint64_t h = hash_key(rec_at(s, id), s->cfg.key_size);
        uint64_t i = h & mask;
        while (t[i])
            i = (i + 1) & mask;
        t[i] = entry_of(h, id);
    }
    free(s->table);
    s->table = t;
    s->table_mask = mask;
    return GS_OK;
}

/* Appends a record slot and sets *id. Returns GS_OK, GS_ELIMIT (memory
 * budget) or GS_ENOMEM. */
static int arena_push(gs_search *s, uint32_t *id)
{
    *id = s->count;
    uint32_t j = *id - FIRST_RECS;
    if (*id == 0 || (*id >= FIRST_RECS && (j & (CHUNK_RECS - 1)) == 0)) {
        size_t c = *id == 0 ? 0 : 1 + (j >> CHUNK_SHIFT);
        size_t chunk_bytes =
            (size_t)(*id == 0 ? FIRST_RECS : CHUNK_RECS) * s->rec_size;
        if (!budget_grow(s, 0, chunk_bytes))
            return GS_ELIMIT;
        if (c == s->chunks_cap) {
            size_t cap = s->chunks_cap ? s->chunks_cap * 2 : 16;
            unsigned char **p = realloc(s->chunks, cap * sizeof *p);
            if (!p)
                return GS_ENOMEM;
            s->chunks = p;
            s->chunks_cap = cap;
        }
        s->chunks[c] = malloc(chunk_bytes);
        if (!s->chunks[c])
            return GS_ENOMEM;
        s->nchunks = c + 1;
    }
    s->count++;
    return GS_OK;
}

/* Finds key; returns its table slot and sets *hash. *found tells whether
 * it is there. */
static uint64_t table_find(const gs_search *s, const void *key, bool *found,
                           uint64_t *hash)
{
    uint64_t h = hash_key(key, s->cfg.key_size);
    uint64_t fp = h & 0xFFFFFFFF00000000ull;
    uint64_t i = h & s->table_mask;
    *hash = h;
    for (;;) {
        uint64_t e = s->table[i];
        if (!e) {
            *found = false;
            return i;
        }
        if ((e & 0xFFFFFFFF00000000ull) == fp &&
            memcmp(rec_at(s, entry_id(e)), key, s->cfg.key_size) == 0) {
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
    if (lim && lim->progress)
        atomic_store_explicit(&lim->progress->bytes, s->bytes,
                              memory_order_relaxed);
}

/* True once the deadline passed or cancel is set; records the limit.
 * Both adds and pops tick it, so a solver whose expansions are slow (many
 * successors, costly heuristics) still overshoots its deadline by at most
 * a few expansions. Cancel is one load, checked always; the clock every
 * `stride` ticks (see clock_up). */
static bool time_up(gs_search *s)
{
    const gs_limits *lim = s->cfg.limits;
    if (s->over_budget)
        return true; /* s->limit already says memory */
    if (!lim)
        return false;
    bool up =
        lim->cancel && atomic_load_explicit(lim->cancel, memory_order_relaxed);
    if (!up && (lim->deadline_ns || lim->progress) && ++s->tick >= s->stride) {
        s->tick = 0;
        up = clock_up(s, lim->deadline_ns);
        publish(s);
    }
    if (up)
        s->limit = GS_LIMIT_TIME;
    return up;
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

static int dense_add(gs_search *s, uint64_t sid, uint64_t parent,
                     unsigned char move, uint64_t *id)
{
    if (sid >= s->cfg.dense_count)
        return GS_EINTERNAL;
    if (id)
        *id = sid;
    if (s->dmove[sid] != DENSE_UNSEEN)
        return 0;
    if (states_full(s, s->dcount))
        return GS_ELIMIT;
    if (s->dq_len == s->dq_cap) {
        size_t cap = s->dq_cap ? s->dq_cap * 2 : 1024;
        if (cap > s->cfg.dense_count)
            cap = s->cfg.dense_count;
        /* Compact the consumed prefix before growing. */
        if (s->dq_head > 0) {
            memmove(s->dq, s->dq + s->dq_head,
                    (s->dq_len - s->dq_head) * sizeof *s->dq);
            s->dq_len -= s->dq_head;
            s->dq_head = 0;
        }
        if (s->dq_len == s->dq_cap) {
            if (!budget_grow(s, s->dq_cap * sizeof *s->dq, cap * sizeof *s->dq))
                return GS_ELIMIT;
            uint32_t *q = realloc(s->dq, cap * sizeof *q);
            if (!q)
                return GS_ENOMEM;
            s->dq = q;
            s->dq_cap = cap;
        }
    }
    s->dq[s->dq_len++] = (uint32_t)sid;
    s->dmove[sid] = parent == GS_NO_PARENT ? DENSE_START : move;
    s->dcount++;
    return 1;
}

/* Inserts a new hashed record at table slot `slot`. */
static int hashed_insert(gs_search *s, uint64_t slot, uint64_t hash,
                         const void *key, uint64_t parent, unsigned char move,
                         uint32_t *out)
{
    if (states_full(s, s->count))
        return GS_ELIMIT;
    if (s->count >= NONE32 - 1)
        return GS_ENOMEM;
    /* Grow the index first, so that a failure leaves no half-made record;
     * the key is known to be absent, so its new slot is the first free one
     * on its probe path. */
    if ((uint64_t)(s->count + 1) * 10 > (s->table_mask + 1) * 7) {
        int rc = table_grow(s);
        if (rc)
            return rc;
        slot = hash & s->table_mask;
        while (s->table[slot])
            slot = (slot + 1) & s->table_mask;
    }
    uint32_t id;
    int rc = arena_push(s, &id);
    if (rc)
        return rc;
    unsigned char *r = rec_at(s, id);
    memcpy(r, key, s->cfg.key_size);
    rec_set_link(s, r, parent == GS_NO_PARENT ? NONE32 : (uint32_t)parent,
                 move);
    s->table[slot] = entry_of(hash, id);
    *out = id;
    return GS_OK;
}

int gs_search_add(gs_search *s, const void *key, uint64_t parent,
                  unsigned char move, uint64_t *id)
{
    if (s->lat)
        return GS_EINTERNAL;
    if (time_up(s))
        return GS_ELIMIT;
    if (s->dense)
        return dense_add(s, *(const uint64_t *)key, parent, move, id);
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
    if (s->dense || s->lat || !s->table)
        return;
    uint64_t h = hash_key(key, s->cfg.key_size);
    __builtin_prefetch(&s->table[h & s->table_mask]);
}

static bool heap_less(const heap_ent *a, const heap_ent *b)
{
    return a->prio < b->prio || (a->prio == b->prio && a->id < b->id);
}

static int heap_push(gs_search *s, uint64_t prio, uint32_t id)
{
    if (s->heap_len == s->heap_cap) {
        size_t cap = s->heap_cap ? s->heap_cap * 2 : 1024;
        if (!budget_grow(s, s->heap_cap * sizeof *s->heap,
                         cap * sizeof *s->heap))
            return GS_ELIMIT;
        heap_ent *h = realloc(s->heap, cap * sizeof *h);
        if (!h)
            return GS_ENOMEM;
        s->heap = h;
        s->heap_cap = cap;
    }
    size_t i = s->heap_len++;
    heap_ent e = {prio, id};
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!heap_less(&e, &s->heap[p]))
            break;
        s->heap[i] = s->heap[p];
        i = p;
    }
    s->heap[i] = e;
    return GS_OK;
}

static heap_ent heap_pop(gs_search *s)
{
    heap_ent top = s->heap[0];
    heap_ent last = s->heap[--s->heap_len];
    size_t i = 0, n = s->heap_len;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= n)
            break;
        if (c + 1 < n && heap_less(&s->heap[c + 1], &s->heap[c]))
            c++;
        if (!heap_less(&s->heap[c], &last))
            break;
        s->heap[i] = s->heap[c];
        i = c;
    }
    if (n)
        s->heap[i] = last;
    return top;
}

int gs_search_add_prio(gs_search *s, const void *key, uint64_t parent,
                       unsigned char move, uint64_t cost, uint64_t prio,
                       uint64_t *id)
{
    if (!s->prio || s->lat)
        return GS_EINTERNAL;
    if (time_up(s))
        return GS_ELIMIT;
    bool found;
    uint64_t hash;
    uint64_t slot = table_find(s, key, &found, &hash);
    uint32_t rid;
    if (found) {
        rid = entry_id(s->table[slot]);
        if (id)
            *id = rid;
        unsigned char *r = rec_at(s, rid);
        if (*rec_closed(s, r) || cost >= rec_cost(s, r))
            return 0;
        rec_set_link(s, r, parent == GS_NO_PARENT ? NONE32 : (uint32_t)parent,
                     move);
        rec_set_cost(s, r, cost);
    } else {
        int rc = hashed_insert(s, slot, hash, key, parent, move, &rid);
        if (rc)
            return rc;
        unsigned char *r = rec_at(s, rid);
        rec_set_cost(s, r, cost);
        *rec_closed(s, r) = 0;
        if (id)
            *id = rid;
    }
    int rc = heap_push(s, prio, rid);
    return rc ? rc : 1;
}

int gs_search_pop(gs_search *s, uint64_t *id)
{
    if (s->lat)
        return GS_EINTERNAL;
    if (time_up(s))
        return GS_ELIMIT;
    if (s->dense) {
        if (s->dq_head == s->dq_len)
            return 0;
        *id = s->dq[s->dq_head++];
    } else if (!s->prio) {
        if (s->fifo_head == s->count)
            return 0;
        *id = s->fifo_head++;
    } else {
        for (;;) {
            if (s->heap_len == 0)
                return 0;
            heap_ent e = heap_pop(s);
            unsigned char *closed = rec_closed(s, rec_at(s, e.id));
            if (*closed)
                continue; /* stale: improved and expanded already */
            *closed = 1;
            *id = e.id;
            s->bound = e.prio >> s->cfg.bound_shift;
            break;
        }
    }
    s->expanded++;
    return 1;
}

/* ------------------------------------------------------------ lattice */

/* Checks the lattice's shape and derives the id deltas and the inverse
 * layer maps. False when it is not a valid lattice. */
static bool lattice_shape(gs_search *s)
{
    const gs_lattice *l = s->lat;
    if (l->layers < 1 || l->layers > GS_LATTICE_MAX || l->moves < 1 ||
        l->moves > GS_LATTICE_MAX || l->cells == 0 || l->cells >= LQ_MAX_CELLS)
        return false;
    for (unsigned m = 0; m < l->moves; m++) {
        unsigned seen = 0;
        for (unsigned k = 0; k < l->layers; k++) {
            unsigned t = l->to[k][m];
            if (t >= l->layers || (seen >> t & 1))
                return false; /* not a permutation: parents unknowable */
            seen |= 1u << t;
            s->lfrom[t][m] = (unsigned char)k;
            s->ldelta[k][m] =
                l->offset[k][m] * GS_LATTICE_MAX + ((int64_t)t - (int64_t)k);
            /* The target's id ends in its layer t, so its move bits sit
             * at 2 * t in its cell's byte: known before the loop. */
            s->lmbits[k][m] = (uint8_t)(m << (2 * t));
        }
    }
    return true;
}

/* Allocates the open bitset, the move array and the first ring, all from
 * the budgets; a refusal is recorded (memory, or states when the state cap
 * counted as bytes is passed) and reported by the run. */
static int lattice_new(gs_search *s)
{
    const gs_limits *lim = s->cfg.limits;
    s->lat = s->cfg.lattice;
    if (!lattice_shape(s))
        return GS_EINTERNAL;
    uint64_t cells = ((uint64_t)s->lat->cells + 15) & ~(uint64_t)15;
    /* The ring never holds more than every state once: a tiny board (an
     * HTTP request's) gets a ring of its size, not LQ_FIRST entries. */
    s->lq_most = (uint64_t)s->lat->cells * s->lat->layers;
    size_t ring = 16;
    while (ring < LQ_FIRST && ring <= s->lq_most)
        ring *= 2;
    uint64_t bytes = cells / 2 + cells + ring * sizeof *s->lq;
    if (lim && lim->max_states)
        s->lcap_bytes = lim->max_states > UINT64_MAX / GS_LATTICE_STATE_BYTES
                            ? UINT64_MAX
                            : lim->max_states * GS_LATTICE_STATE_BYTES;
    if (s->lcap_bytes && bytes > s->lcap_bytes) {
        s->over_budget = true;
        s->limit = GS_LIMIT_STATES;
        return GS_OK;
    }
    if (!reserve_initial(s, bytes))
        return GS_OK;
    s->lopen_bytes = cells / 16 * sizeof *s->lopen;
    s->lmove_bytes = cells;
    s->lopen = big_calloc(s->lopen_bytes);
    s->lmove = big_calloc(s->lmove_bytes);
    s->lq = malloc(ring * sizeof *s->lq);
    s->lq_cap = ring;
    if (!s->lopen || !s->lmove || !s->lq)
        return GS_ENOMEM;
    return GS_OK;
}

uint64_t *gs_search_lattice_bits(gs_search *s)
{
    return s->lat ? s->lopen : NULL;
}

/* Doubles the ring, unrolling it so that head is at 0. */
static int lattice_ring_grow(gs_search *s, uint64_t *head, uint64_t *tail)
{
    size_t cap = s->lq_cap * 2, from = s->lq_cap * sizeof *s->lq;
    if (s->lcap_bytes && s->bytes + from > s->lcap_bytes) {
        s->limit = GS_LIMIT_STATES;
        return GS_ELIMIT;
    }
    if (!budget_grow(s, from, cap * sizeof *s->lq))
        return GS_ELIMIT;
    uint32_t *q = malloc(cap * sizeof *q);
    if (!q)
        return GS_ENOMEM;
    uint64_t n = *tail - *head;
    for (uint64_t i = 0; i < n; i++)
        q[i] = s->lq[(*head + i) & (s->lq_cap - 1)];
    free(s->lq);
    s->lq = q;
    s->lq_cap = cap;
    *head = 0;
    *tail = n;
    return GS_OK;
}

/* Expands up to `budget` states from the ring, with `nm` moves (a
 * constant in each caller, so the move loop unrolls). Returns 1 when the
 * goal was reached, 0 otherwise (ring empty or budget spent), or an
 * error. Plain locals only: nothing in the loop has its address taken, so
 * everything stays in registers. */
static inline __attribute__((always_inline)) int
lattice_burst_n(gs_search *s, uint64_t *head, uint64_t *tail, uint64_t goal,
                uint64_t budget, const unsigned nm)
{
    int64_t delta[GS_LATTICE_MAX][GS_LATTICE_MAX];
    uint8_t mbits[GS_LATTICE_MAX][GS_LATTICE_MAX];
    memcpy(delta, s->ldelta, sizeof delta);
    memcpy(mbits, s->lmbits, sizeof mbits);
    uint64_t *open = s->lopen;
    uint8_t *move = s->lmove;
    uint32_t *q = s->lq;
    uint64_t cap = s->lq_cap, qmask = cap - 1;
    uint64_t h = *head, t = *tail, end = h + budget;
    int rc = 0;
    /* Room for every successor of the whole burst, checked once; a ring
     * larger than the lattice holds every state already. */
    while (cap <= s->lq_most && t - h + nm * budget >= cap) {
        if ((rc = lattice_ring_grow(s, &h, &t)) != 0) {
            *head = h;
            *tail = t;
            return rc;
        }
        q = s->lq;
        cap = s->lq_cap;
        qmask = cap - 1;
        end = h + budget;
    }
    /* Counted from here: a grow above renumbers h and t from 0. */
    const uint64_t h0 = h, t0 = t;
    while (h != t && h != end) {
        uint64_t id = q[h & qmask];
        const int64_t *d = delta[id % GS_LATTICE_MAX];
        const uint8_t *mb = mbits[id % GS_LATTICE_MAX];
        h++;
#pragma GCC unroll 4
        for (unsigned m = 0; m < nm; m++) {
            uint64_t n = id + (uint64_t)d[m];
            uint64_t w = open[n >> 6], bit = 1ull << (n & 63);
            if (!(w & bit))
                continue;
            /* Visit: move bits start at zero, so move 0 writes nothing;
             * visited states are told from unseen ones by the open
             * bitset, not by their move bits. */
            open[n >> 6] = w & ~bit;
            move[n >> 2] |= mb[m];
            q[t & qmask] = (uint32_t)n;
            t++;
            rc |= n == goal;
        }
        if (rc)
            break;
    }
    s->expanded += h - h0;
    s->lcount += t - t0;
    *head = h;
    *tail = t;
    return rc;
}

static int lattice_burst(gs_search *s, uint64_t *head, uint64_t *tail,
                         uint64_t goal, uint64_t budget)
{
    switch (s->lat->moves) {
    case 4:
        return lattice_burst_n(s, head, tail, goal, budget, 4);
    case 3:
        return lattice_burst_n(s, head, tail, goal, budget, 3);
    case 2:
        return lattice_burst_n(s, head, tail, goal, budget, 2);
    default:
        return lattice_burst_n(s, head, tail, goal, budget, 1);
    }
}

int gs_search_lattice_run(gs_search *s, uint64_t start, uint64_t goal,
                          bool *found)
{
    *found = false;
    if (!s->lat)
        return GS_EINTERNAL;
    if (s->over_budget || !s->lopen)
        return s->over_budget ? GS_ELIMIT : GS_ENOMEM;
    if (start / GS_LATTICE_MAX >= s->lat->cells ||
        !(s->lopen[start >> 6] >> (start & 63) & 1))
        return GS_EINTERNAL;
    uint64_t head = 0, tail = 0;
    s->lstart = start;
    s->lopen[start >> 6] &= ~(1ull << (start & 63));
    s->lq[tail++] = (uint32_t)start;
    s->lcount = 1;
    if (start == goal) {
        *found = true;
        return 0;
    }
    for (;;) {
        if (time_up(s))
            return GS_ELIMIT;
        int rc = lattice_burst(s, &head, &tail, goal, LATTICE_TICK);
        if (rc < 0)
            return rc;
        if (rc == 1) {
            *found = true;
            return 0;
        }
        if (head == tail)
            return 0;
    }
}

/* Parent of a visited lattice state: undo its move's offset and layer. */
static uint64_t lattice_parent(const gs_search *s, uint64_t id,
                               unsigned char *move)
{
    if (id == s->lstart)
        return GS_NO_PARENT;
    unsigned t = (unsigned)(id % GS_LATTICE_MAX);
    unsigned m = s->lmove[id >> 2] >> ((id & 3) * 2) & 3;
    unsigned k = s->lfrom[t][m];
    if (move)
        *move = (unsigned char)s->lat->name[m];
    return id - (uint64_t)s->ldelta[k][m];
}

const void *gs_search_key(const gs_search *s, uint64_t id)
{
    return s->dense || s->lat ? NULL : rec_at(s, (uint32_t)id);
}

uint64_t gs_search_cost(const gs_search *s, uint64_t id)
{
    return s->prio ? rec_cost(s, rec_at(s, (uint32_t)id)) : 0;
}

uint64_t gs_search_parent(const gs_search *s, uint64_t id, unsigned char *move)
{
    if (s->lat)
        return lattice_parent(s, id, move);
    if (s->dense) {
        unsigned char m = s->dmove[id];
        if (m == DENSE_START || m == DENSE_UNSEEN)
            return GS_NO_PARENT;
        if (move)
            *move = m;
        return s->cfg.dense_parent(s->cfg.ctx, id, m);
    }
    const unsigned char *r = rec_at(s, (uint32_t)id);
    uint32_t p = rec_parent(s, r);
    if (move)
        *move = r[s->cfg.key_size + 4];
    return p == NONE32 ? GS_NO_PARENT : p;
}

uint64_t gs_search_count(const gs_search *s)
{
    if (s->lat)
        return s->lcount;
    return s->dense ? s->dcount : s->count;
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
