/* perim.c - the perimeter table of the exact objectives: the exact
 * distance to a solution of every position near the solved ones, found by
 * a breadth-first search backwards from the solved positions (all boxes
 * on goals, the player anywhere).
 *
 * `moves`: the search runs over single steps. Backwards, the player steps
 * onto a free neighbour, alone or pulling the box on its other side onto
 * the cell it leaves (the inverse of a push). Positions are keyed like the
 * search's store, [player cell][boxes], but held one slot per box set,
 * with a byte per cell for the player's depths there: the children that
 * only move the player find their slot in the cache, and a slot takes
 * less room than the keys it stands for (Microban I 139: 8.4 M positions
 * in 331 K box sets; set_sparse turns a table whose sets hold few into
 * one slot per position).
 *
 * `pushes`: the search runs over pulls, and since the pushes left do not
 * depend on where in its area the player stands, a position is keyed by
 * the area's smallest cell (area.c finds it without a flood where it can).
 *
 * A breadth-first search meets each position first at its exact distance.
 * Once every layer up to k is complete, a position the table lacks needs
 * at least k + 1; and since every way out of it enters the table through
 * layer k while the matching drops by at most one a step, at least its
 * matching + gap, gap being the least (k - matching) over layer k. When
 * the search ran out of positions, one the table lacks cannot be solved.
 * Taken by max with the matching, the bound stays consistent (one step
 * changes an exact distance by at most one), so the A* of both exact
 * objectives stays exact. It helps where the matching sees least: boxes
 * packed among the goals that must make room for one another, and the
 * walking (Microban I 145: a matching of 12 against 47 moves).
 *
 * The search can pause and go on (the table doubles as it grows), so that
 * exact.c can alternate it with the forward search in rounds.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

/* Slots hold a key and its depth inline, so that a look-up costs one cache
 * miss; the depth is stored plus one, so that the zeros of fresh memory
 * read SOK_PERIM_EMPTY (no pass over a new array, hundreds of MB). */
#define SOK_PERIM_EMPTY 0xffffu
/* Slots of a new table: it doubles as it fills. */
#define SOK_PERIM_FIRST_SLOTS ((size_t)1 << 20)
/* The least slots a table starts with. */
#define SOK_PERIM_MIN_SLOTS 16
/* Moves: positions held by box set, or bytes of its slots (a level of
 * many cells has big ones), before set_sparse is asked; the most bytes
 * of its first slots. */
#define SOK_PERIM_DENSITY_AT ((size_t)1 << 16)
#define SOK_PERIM_DENSITY_BYTES ((uint64_t)64 << 20)
#define SOK_PERIM_SET_FIRST_BYTES ((uint64_t)4 << 20)
/* Positions a build call must expand for its rate to count (last_ns). */
#define SOK_PERIM_RATE_MIN 1000
/* Children of one expansion whose slots are prefetched together. */
#define SOK_PERIM_BATCH 64

struct sok_perim {
    size_t cap, count;    /* positions held, at most cap */
    size_t room;          /* positions (moves: box sets) before the slots
                             must grow */
    uint64_t max_bytes;   /* slots and queue together, at most */
    uint64_t mask;        /* slots - 1 (a power of two - 1) */
    size_t ss;            /* bytes per slot (perim_slot_size) */
    unsigned char *slots; /* [key][depth, 2 bytes] per slot; moves:
                             [boxes][base, 2 bytes][a byte per cell] */
    unsigned char *queue; /* cap keys in breadth-first order (build only) */
    size_t qcap;          /* moves: keys the queue has room for */
    size_t sets;          /* moves: box sets held */
    size_t kb;            /* moves: bytes of a key's boxes */
    int w;                /* moves: bytes of a key's player cell */
    bool by_set;          /* moves: held by box set (set_unpack ends it) */
    bool density_seen;    /* moves: set_unpack's question was asked */
    uint64_t qbytes;      /* the queue's bytes in x->bytes */
    uint8_t *area;        /* n: scratch, the expanded position's area */
    sok_area an;          /* pushes: the expanded position's areas */
    bool an_ok;           /* an holds the search's expanded position */
    int an_player;        /* its player */
    bool sym_noted;       /* its boxes noted by the caller (sym.c) */
    int32_t *boxes;       /* nboxes: scratch, a child's boxes */
    unsigned char *ckeys; /* SOK_PERIM_BATCH keys: one expansion's children */
    uint64_t *chash;      /* their hashes */
    uint32_t k;           /* every position within k is held */
    uint32_t gap;         /* see perim_gap */
    uint32_t gap_k;       /* the k the gap was found for */
    uint32_t dep;         /* the build: layer dep is queue[ls, le), */
    size_t ls, le, r;     /* expanded before r */
    uint64_t done;        /* batches, for the clock */
    int64_t spent_ns;     /* in the build's layers, for the rate */
    double last_ns;       /* per position, in the last call that expanded
                             many (deeper layers cost more a position) */
    double growth;        /* the last layer's size over the one before */
    bool full;            /* out of room: the build is over */
    bool complete;        /* the search ran out: the others are dead */
    bool steps;           /* moves: keyed by the player's cell, depth in
                             steps (else pushes, keyed by its area) */
    bool one_layer;       /* the build pauses once a layer completes */
};

/* 64-bit mix over a key (splitmix-style finalizers; short keys as two
 * words). */
static inline uint64_t perim_hash(const unsigned char *p, size_t n)
{
    uint64_t a, b = 0;
    if (n >= 8 && n <= 16) {
        /* Two loads that overlap cover every byte. */
        memcpy(&a, p, 8);
        memcpy(&b, p + n - 8, 8);
    } else if (n >= 4 && n < 8) {
        uint32_t u, v;
        memcpy(&u, p, 4);
        memcpy(&v, p + n - 4, 4);
        a = u;
        b = v;
    } else if (n > 16) {
        /* Words, the last one overlapping the one before. */
        a = 0x9E3779B97F4A7C15ull;
        const unsigned char *last = p + n - 8;
        for (; p < last; p += 8) {
            uint64_t w;
            memcpy(&w, p, 8);
            a = (a ^ w) * 0xbf58476d1ce4e5b9ull;
            a ^= a >> 31;
        }
        memcpy(&b, last, 8);
    } else {
        a = 0x9E3779B97F4A7C15ull;
        for (size_t i = 0; i < n; i++)
            a = (a ^ p[i]) * 0x100000001b3ull;
    }
    uint64_t h = (a ^ n) * 0xbf58476d1ce4e5b9ull ^ b * 0x9E3779B97F4A7C15ull;
    h ^= h >> 31;
    h *= 0x94d049bb133111ebull;
    h ^= h >> 29;
    return h;
}

/* The depth stored in slot sl (SOK_PERIM_EMPTY: free). */
static uint16_t slot_depth(const struct sok_perim *t, const unsigned char *sl,
                           size_t ks)
{
    uint16_t d;
    (void)t;
    memcpy(&d, sl + ks, sizeof d);
    return (uint16_t)(d - 1);
}

/* The slot holding `key` (hash h), or the free slot where it would go. */
static unsigned char *perim_slot(const struct sok_perim *t,
                                 const unsigned char *key, size_t ks,
                                 uint64_t h)
{
    uint64_t i = h & t->mask;
    for (;;) {
        unsigned char *sl = t->slots + i * t->ss;
        if (slot_depth(t, sl, ks) == SOK_PERIM_EMPTY || gs_key_eq(sl, key, ks))
            return sl;
        i = (i + 1) & t->mask;
    }
}

/* Moves. A box set's slot holds the least depth of its positions plus one
 * (0: a free slot), the first one met (a breadth-first search meets
 * depths in order), and a byte per cell: the player's depth there less
 * that base, plus one (0: not held). A position 255 or more steps past
 * the base ends the table at the layer before (set_add): its bound stays
 * a bound, only shallower. */
static inline int key_player(const struct sok_perim *t,
                             const unsigned char *key)
{
    return (int)gs_sokoban_key_get(key, t->w, 0);
}

/* The hash of key's box set. */
static inline uint64_t set_hash(const struct sok_perim *t,
                                const unsigned char *key)
{
    return perim_hash(key + t->w, t->kb);
}

/* The base of slot sl, plus one (0: a free slot). */
static inline uint16_t set_base(const struct sok_perim *t,
                                const unsigned char *sl)
{
    uint16_t b;
    memcpy(&b, sl + t->kb, sizeof b);
    return b;
}

/* Slot sl's bytes per cell. */
static inline unsigned char *set_cells(const struct sok_perim *t,
                                       const unsigned char *sl)
{
    return (unsigned char *)sl + t->kb + sizeof(uint16_t);
}

/* The slot of box set `boxes` (hash h), or the free slot where it would
 * go. */
static unsigned char *set_slot(const struct sok_perim *t,
                               const unsigned char *boxes, uint64_t h)
{
    uint64_t i = h & t->mask;
    for (;;) {
        unsigned char *sl = t->slots + i * t->ss;
        if (!set_base(t, sl) || gs_key_eq(sl, boxes, t->kb))
            return sl;
        i = (i + 1) & t->mask;
    }
}

/* The depth held for `key` (h: set_hash), or SOK_PERIM_EMPTY. */
static uint32_t set_depth(const struct sok_perim *t, const unsigned char *key,
                          uint64_t h)
{
    const unsigned char *sl = set_slot(t, key + t->w, h);
    uint16_t base = set_base(t, sl);
    unsigned off = set_cells(t, sl)[key_player(t, key)];
    if (!base || !off)
        return SOK_PERIM_EMPTY;
    return (uint32_t)base + off - 2;
}

/* The hash a child's look-up starts from (for perim_add or set_add). */
static inline uint64_t child_hash(const struct sok_perim *t,
                                  const unsigned char *key, size_t ks)
{
    return t->by_set ? set_hash(t, key) : perim_hash(key, ks);
}

/* Prefetches the slot of `key` (hash h from child_hash); moves: also its
 * player's byte, which may lie on the next cache line. Always inlined:
 * GCC takes a prefetch for no side effect, finds an outlined
 * child_prefetch pure and drops the calls (GCC 12 at -O2 did: no
 * prefetch was made until December 4). */
static inline __attribute__((always_inline)) void
child_prefetch(const struct sok_perim *t, const unsigned char *key, uint64_t h)
{
    const unsigned char *sl = t->slots + (h & t->mask) * t->ss;
    __builtin_prefetch(sl);
    if (t->by_set)
        __builtin_prefetch(set_cells(t, sl) + key_player(t, key));
}

/* A slot array of n slots, all free, counted in x->bytes; NULL when out
 * of memory. */
static unsigned char *perim_slots_new(sok_ctx *x, size_t n, size_t ss)
{
    unsigned char *p = gs_sokoban_tab_alloc(x, n * ss, true);
    if (p) /* look-ups are random over hundreds of MB */
        gs_mem_advise_huge(p, n * ss);
    return p;
}

/* Puts a fresh array of n free slots of ss bytes in t's place and
 * returns the old one, whose entries the caller moves over before
 * slots_free; NULL (t unchanged) when out of memory. */
static unsigned char *slots_swap(sok_ctx *x, struct sok_perim *t, size_t n,
                                 size_t ss)
{
    unsigned char *sl = perim_slots_new(x, n, ss), *from = t->slots;
    if (!sl)
        return NULL;
    t->slots = sl;
    t->mask = n - 1;
    t->ss = ss;
    return from;
}

/* Frees an array slots_swap replaced: n slots of ss bytes. */
static void slots_free(sok_ctx *x, unsigned char *from, size_t n, size_t ss)
{
    gs_mem_free(from);
    x->bytes -= (uint64_t)n * ss;
}

/* Room for the positions a table of `slots` slots takes (load 5/8). */
static size_t perim_room(size_t slots)
{
    return slots / 8 * 5;
}

/* Bytes of a table of n slots of ss bytes and its queue (keys of ks). */
static uint64_t perim_bytes(size_t n, size_t ss, size_t ks)
{
    return (uint64_t)n * ss + (uint64_t)perim_room(n) * ks;
}

/* Gives the queue room for n keys (it holds t->count), counted in
 * x->bytes. False (the queue as it was) when out of memory. */
static bool queue_resize(sok_ctx *x, struct sok_perim *t, size_t n)
{
    size_t ks = x->key_size;
    unsigned char *q = gs_mem_realloc(t->queue, n * ks);
    if (!q)
        return false;
    t->queue = q;
    x->bytes = x->bytes - t->qbytes + (uint64_t)n * ks;
    t->qbytes = (uint64_t)n * ks;
    t->qcap = n;
    return true;
}

/* Moves: doubles the queue (at most cap keys), within t->max_bytes. False
 * when it cannot: the table is full. */
static bool queue_grow(sok_ctx *x, struct sok_perim *t)
{
    size_t n = t->qcap * 2 < t->cap ? t->qcap * 2 : t->cap;
    uint64_t bytes =
        (uint64_t)(t->mask + 1) * t->ss + (uint64_t)n * x->key_size;
    if (n <= t->qcap || (t->max_bytes && bytes > t->max_bytes))
        return false;
    return queue_resize(x, t, n);
}

/* Moves: doubles the slots, within t->max_bytes. False when that refuses
 * or memory runs out: the table is full. */
static bool set_grow(sok_ctx *x, struct sok_perim *t)
{
    size_t old = t->mask + 1, n = old * 2;
    uint64_t bytes = (uint64_t)n * t->ss + t->qbytes;
    if (t->max_bytes && bytes > t->max_bytes)
        return false;
    unsigned char *from = slots_swap(x, t, n, t->ss);
    if (!from)
        return false;
    for (size_t i = 0; i < old; i++) {
        const unsigned char *e = from + i * t->ss;
        if (set_base(t, e))
            memcpy(set_slot(t, e, perim_hash(e, t->kb)), e, t->ss);
    }
    slots_free(x, from, old, t->ss);
    t->room = perim_room(n);
    return true;
}

/* Moves: adds key (h: set_hash) at `depth` when new. Returns 1 new, 0
 * known, -1 full. */
static int set_add(sok_ctx *x, struct sok_perim *t, const unsigned char *key,
                   uint64_t h, uint16_t depth)
{
    size_t ks = x->key_size;
    if (t->count >= t->cap || (t->count == t->qcap && !queue_grow(x, t)))
        return -1;
    unsigned char *sl = set_slot(t, key + t->w, h);
    uint16_t base = set_base(t, sl);
    if (!base) {
        if (t->sets == t->room) {
            if (!set_grow(x, t))
                return -1;
            sl = set_slot(t, key + t->w, h);
        }
        base = (uint16_t)(depth + 1);
        memcpy(sl, key + t->w, t->kb);
        memcpy(sl + t->kb, &base, sizeof base);
        t->sets++;
    }
    unsigned char *off = set_cells(t, sl) + key_player(t, key);
    if (*off)
        return 0;
    unsigned d = (unsigned)depth + 1 - base; /* base <= depth + 1 */
    if (d >= 255)
        return -1; /* past what a byte holds: the table ends here */
    *off = (unsigned char)(d + 1);
    memcpy(t->queue + t->count * ks, key, ks);
    t->count++;
    return 1;
}

/* Doubles the slots (and the queue), within t->cap and t->max_bytes.
 * False when either refuses or memory runs out: the table is full. */
static bool perim_grow(sok_ctx *x, struct sok_perim *t)
{
    size_t ks = x->key_size, old = t->mask + 1, n = old * 2;
    uint64_t bytes = perim_bytes(n, t->ss, ks);
    if (t->count >= t->cap || !t->queue ||
        (t->max_bytes && bytes > t->max_bytes))
        return false;
    if (!queue_resize(x, t, perim_room(n)))
        return false;
    unsigned char *from = slots_swap(x, t, n, t->ss);
    if (!from)
        return false;
    for (size_t i = 0; i < old; i++) {
        const unsigned char *e = from + i * t->ss;
        if (slot_depth(t, e, ks) != SOK_PERIM_EMPTY)
            memcpy(perim_slot(t, e, ks, perim_hash(e, ks)), e, t->ss);
    }
    slots_free(x, from, old, t->ss);
    t->room = perim_room(n);
    if (t->room > t->cap)
        t->room = t->cap;
    return true;
}

/* Adds key (hash h) at `depth` when new. Returns 1 new, 0 known, -1
 * full. */
static int perim_add(sok_ctx *x, struct sok_perim *t, const unsigned char *key,
                     uint64_t h, uint16_t depth)
{
    size_t ks = x->key_size;
    if (t->count == t->room && !perim_grow(x, t))
        return -1;
    unsigned char *sl = perim_slot(t, key, ks, h);
    if (slot_depth(t, sl, ks) != SOK_PERIM_EMPTY)
        return 0;
    uint16_t stored = (uint16_t)(depth + 1);
    memcpy(sl, key, ks);
    memcpy(sl + ks, &stored, sizeof stored);
    if (t->queue)
        memcpy(t->queue + t->count * ks, key, ks);
    t->count++;
    return 1;
}

/* Adds key (h: child_hash) at `depth` in the table's layout. Returns 1
 * new, 0 known, -1 full. */
static int table_add(sok_ctx *x, struct sok_perim *t, const unsigned char *key,
                     uint64_t h, uint16_t depth)
{
    return t->by_set ? set_add(x, t, key, h, depth)
                     : perim_add(x, t, key, h, depth);
}

/* Moves: whether the table, held by box set, would take less room with a
 * slot per position: its box sets hold few positions each (Microban I
 * 144: about 6 of 64 cells, against 25 of 58 in 139). */
static bool set_sparse(const sok_ctx *x, const struct sok_perim *t)
{
    return (uint64_t)t->count * (x->key_size + sizeof(uint16_t)) <
           (uint64_t)t->sets * t->ss;
}

/* Moves: holds the table by position from now on, one slot per key as
 * in pushes mode. False (the table as it was) when memory refuses. */
static bool set_unpack(sok_ctx *x, struct sok_perim *t)
{
    size_t ks = x->key_size, ss = ks + sizeof(uint16_t),
           n = SOK_PERIM_MIN_SLOTS;
    while (perim_room(n) <= t->count)
        n *= 2;
    if (t->max_bytes && perim_bytes(n, ss, ks) > t->max_bytes)
        return false;
    /* (Its bound, qcap, moves with it: set_add's, should the slots
     * fail.) */
    if (!queue_resize(x, t, perim_room(n)))
        return false;
    size_t old = t->mask + 1, oss = t->ss;
    unsigned char *from = slots_swap(x, t, n, ss), *key = x->key;
    if (!from)
        return false;
    t->by_set = false;
    for (size_t i = 0; i < old; i++) {
        const unsigned char *e = from + i * oss, *cells = set_cells(t, e);
        uint16_t base = set_base(t, e);
        if (!base)
            continue;
        memcpy(key + t->w, e, t->kb);
        for (int p = 0; p < x->n; p++) {
            unsigned off = cells[p];
            if (!off)
                continue;
            gs_sokoban_key_put(key, t->w, 0, (uint32_t)p);
            uint16_t stored = (uint16_t)(base + off - 1); /* depth + 1 */
            unsigned char *dst = perim_slot(t, key, ks, perim_hash(key, ks));
            memcpy(dst, key, ks);
            memcpy(dst + ks, &stored, sizeof stored);
        }
    }
    slots_free(x, from, old, oss);
    t->room = perim_room(n) < t->cap ? perim_room(n) : t->cap;
    return true;
}

/* Moves: asks set_sparse once, when the table held by box set holds
 * SOK_PERIM_DENSITY_AT positions or its slots SOK_PERIM_DENSITY_BYTES
 * (tests: at g->perim_unpack_at positions, then unpacks whatever the
 * answer), and unpacks the table if so. */
static void set_check(sok_ctx *x, struct sok_perim *t)
{
    size_t at = x->g->perim_unpack_at;
    bool due =
        at ? t->count >= at
           : t->count >= SOK_PERIM_DENSITY_AT ||
                 (uint64_t)(t->mask + 1) * t->ss >= SOK_PERIM_DENSITY_BYTES;
    if (!t->by_set || t->density_seen || !due)
        return;
    t->density_seen = true;
    if (at || set_sparse(x, t))
        set_unpack(x, t);
}

/* Packs the table's key of a position into x->key: one position for each
 * class of images under the level's symmetries. Moves: the player's
 * cell, as the search's store keys it. Pushes: the player's area, flooded
 * from `player` (x->occ holding the boxes), named by its smallest cell
 * (with symmetries each image by its own). */
static void perim_pack(sok_ctx *x, const struct sok_perim *t, int player,
                       const int32_t *boxes)
{
    if (t->steps) {
        gs_sokoban_sym_canon(x, player, boxes);
        return;
    }
    int lo = gs_sokoban_flood(x, player);
    if (x->sym)
        gs_sokoban_sym_canon_area(x, lo, boxes);
    else
        gs_sokoban_key_pack(x, lo, boxes);
}

/* Pushes mode: packs the key of the position in x->occ, boxes `boxes`,
 * the player on `pl`, which differs from the analysed one (an) by the box
 * on `out` moved onto `in`: from the analysis where it can tell, else by
 * a flood from pl. */
static void perim_pack_after(sok_ctx *x, const struct sok_perim *t,
                             sok_area *an, int in, int out, int pl,
                             const int32_t *boxes)
{
    sok_after af;
    if (!gs_sokoban_area_after(x, an, in, out, pl, &af))
        perim_pack(x, t, pl, boxes);
    else if (x->sym)
        gs_sokoban_sym_canon_after(x, &af, boxes);
    else
        gs_sokoban_key_pack(x, gs_sokoban_after_min(x, &af), boxes);
}

/* Queues x->key as a child of the expansion under way (*nc so far). */
static void perim_child(sok_ctx *x, struct sok_perim *t, int *nc)
{
    size_t ks = x->key_size;
    memcpy(t->ckeys + (size_t)*nc * ks, x->key, ks);
    t->chash[*nc] = child_hash(t, x->key, ks);
    child_prefetch(t, x->key, t->chash[*nc]);
    (*nc)++;
}

/* Adds the nc queued children at `depth`. False when the table is full. */
static bool perim_flush(sok_ctx *x, struct sok_perim *t, int nc, uint16_t depth)
{
    for (int j = 0; j < nc; j++) {
        const unsigned char *k = t->ckeys + (size_t)j * x->key_size;
        if (table_add(x, t, k, t->chash[j], depth) < 0)
            return false;
    }
    return true;
}

/* Adds the solved positions: boxes on every goal, the player on any free
 * cell (moves) or in each area of the free cells (pushes). Returns false
 * when the table is full. */
static bool perim_roots(sok_ctx *x, struct sok_perim *t)
{
    memcpy(t->boxes, x->goals, sizeof *t->boxes * (size_t)x->nboxes);
    gs_sokoban_occ_set(x, t->boxes, 1);
    memset(t->area, 0, (size_t)x->n);
    bool ok = true;
    for (int c = 0; c < x->n && ok; c++) {
        if (x->occ[c] || t->area[c])
            continue;
        int lo = c;
        if (!t->steps) {
            lo = gs_sokoban_flood(x, c);
            for (int v = 0; v < x->n; v++)
                if (x->seen[v] == x->gen)
                    t->area[v] = 1;
        }
        perim_pack(x, t, lo, t->boxes);
        ok =
            table_add(x, t, x->key, child_hash(t, x->key, x->key_size), 0) >= 0;
    }
    gs_sokoban_occ_set(x, t->boxes, 0);
    return ok;
}

/* Pushes mode: expands queued position r by every pull, adding its
 * children at `depth`. Returns false when the table is full. Uses
 * x->boxes, x->occ and the flood scratch. */
static bool perim_expand_pulls(sok_ctx *x, struct sok_perim *t, size_t r,
                               uint16_t depth)
{
    size_t ks = x->key_size;
    int p = gs_sokoban_key_unpack(x, t->queue + r * ks, x->boxes);
    gs_sokoban_occ_set(x, x->boxes, 1);
    gs_sokoban_area_analyse(x, &t->an, p);
    gs_sokoban_sym_parent(x, x->boxes);
    int nc = 0;
    bool ok = true;
    for (int i = 0; i < x->nboxes && ok; i++) {
        int b = x->boxes[i];
        for (int d = 0; d < 4; d++) {
            /* The player on c1 (beside b, in its area) steps on to c2
             * and pulls the box onto c1. */
            int c1 = x->nb[b * 4 + d];
            if (c1 < 0 || t->an.comp[c1] != t->an.pc)
                continue;
            int c2 = x->nb[c1 * 4 + d];
            if (c2 < 0 || x->occ[c2])
                continue;
            x->occ[b] = 0;
            x->occ[c1] = 1;
            gs_sokoban_boxes_move(x, x->boxes, i, c1, t->boxes);
            perim_pack_after(x, t, &t->an, c1, b, c2, t->boxes);
            perim_child(x, t, &nc);
            x->occ[c1] = 0;
            x->occ[b] = 1;
        }
        if (nc > SOK_PERIM_BATCH - 4) {
            ok = perim_flush(x, t, nc, depth);
            nc = 0;
        }
    }
    gs_sokoban_occ_set(x, x->boxes, 0);
    return ok && perim_flush(x, t, nc, depth);
}

/* Queues the child key made so far in t->ckeys slot *nc. */
static void perim_child_made(struct sok_perim *t, size_t ks, int *nc)
{
    const unsigned char *k = t->ckeys + (size_t)*nc * ks;
    t->chash[*nc] = child_hash(t, k, ks);
    child_prefetch(t, k, t->chash[*nc]);
    (*nc)++;
}

/* perim_expand_steps for one-byte cell numbers: the children's keys are
 * edited in place (the player byte; one box taken out of the sorted list
 * and put back in) instead of unpacked and packed. */
static void perim_expand_steps1(sok_ctx *x, struct sok_perim *t,
                                const unsigned char *key, int *nc)
{
    size_t ks = x->key_size;
    int nbx = x->nboxes, p = key[0];
    for (int i = 1; i <= nbx; i++)
        x->occ[key[i]] = 1;
    for (int d = 0; d < 4; d++) {
        int q = x->nb[p * 4 + d];
        if (q < 0 || x->occ[q])
            continue;
        unsigned char *c = t->ckeys + (size_t)*nc * ks;
        memcpy(c, key, ks);
        c[0] = (unsigned char)q;
        perim_child_made(t, ks, nc);
        int bx = x->nb[p * 4 + (d ^ 1)];
        if (bx < 0 || !x->occ[bx])
            continue;
        /* The box on bx comes onto p: the sorted list without bx, with
         * p in its place. */
        c = t->ckeys + (size_t)*nc * ks;
        c[0] = (unsigned char)q;
        int o = 1;
        bool put = false;
        for (int i = 1; i <= nbx; i++) {
            int b = key[i];
            if (b == bx)
                continue;
            if (!put && p < b) {
                c[o++] = (unsigned char)p;
                put = true;
            }
            c[o++] = (unsigned char)b;
        }
        if (!put)
            c[o++] = (unsigned char)p;
        perim_child_made(t, ks, nc);
    }
    for (int i = 1; i <= nbx; i++)
        x->occ[key[i]] = 0;
}

/* Moves mode: queues the children of position r (*nc so far), one step
 * backwards: the player steps back onto a free neighbour q, either alone
 * or pulling the box on its other side onto its own cell (the inverse of
 * pushing that box from the player's cell with the player coming from
 * q). At most 8 children. */
static void perim_expand_steps(sok_ctx *x, struct sok_perim *t, size_t r,
                               int *nc)
{
    size_t ks = x->key_size;
    if (x->w == 1 && !x->sym && !x->bitkey) {
        perim_expand_steps1(x, t, t->queue + r * ks, nc);
        return;
    }
    int p = gs_sokoban_key_unpack(x, t->queue + r * ks, x->boxes);
    gs_sokoban_occ_set(x, x->boxes, 1);
    /* The children's images are made from the parent's: made from
     * scratch, they took 38 % of Microban I 93 `moves` (perf). */
    gs_sokoban_sym_parent(x, x->boxes);
    for (int d = 0; d < 4; d++) {
        int q = x->nb[p * 4 + d];
        if (q < 0 || x->occ[q])
            continue;
        gs_sokoban_sym_canon_moved(x, q, x->boxes, -1, -1);
        perim_child(x, t, nc);
        int bx = x->nb[p * 4 + (d ^ 1)];
        if (bx < 0 || !x->occ[bx])
            continue;
        int i = 0;
        while (x->boxes[i] != bx)
            i++;
        gs_sokoban_boxes_move(x, x->boxes, i, p, t->boxes);
        gs_sokoban_sym_canon_moved(x, q, t->boxes, bx, p);
        perim_child(x, t, nc);
    }
    gs_sokoban_occ_set(x, x->boxes, 0);
}

void gs_sokoban_perim_free(sok_ctx *x)
{
    struct sok_perim *t = x->perim;
    if (!t)
        return;
    gs_mem_free(t->slots);
    gs_mem_free(t->queue);
    gs_mem_free(t->area);
    gs_mem_free(t->boxes);
    gs_mem_free(t->ckeys);
    gs_mem_free(t->chash);
    gs_sokoban_area_free(&t->an);
    gs_mem_free(t);
    x->perim = NULL;
}

/* Bytes of a slot: a key and its depth; moves: a box set, its base and
 * a byte per cell. */
static size_t perim_slot_size(const sok_ctx *x, bool steps)
{
    return steps ? x->key_size - (size_t)x->w + sizeof(uint16_t) + (size_t)x->n
                 : x->key_size + sizeof(uint16_t);
}

/* Allocates a table for up to `cap` positions and max_bytes (0: no
 * limit), small at first (it grows), its first slots within max_bytes
 * too (the caller checked that the least table fits); false when out of
 * memory. */
static bool perim_alloc(sok_ctx *x, size_t cap, uint64_t max_bytes, bool steps)
{
    struct sok_perim *t = gs_sokoban_tab_alloc(x, sizeof *t, true);
    if (!t)
        return false;
    x->perim = t;
    t->steps = steps;
    t->by_set = steps;
    t->w = x->w;
    t->kb = x->key_size - (size_t)x->w;
    size_t slots = SOK_PERIM_MIN_SLOTS, ks = x->key_size;
    size_t ss = perim_slot_size(x, steps);
    /* Moves: a slot holds many positions; fewer slots to start with. */
    size_t first = steps ? SOK_PERIM_FIRST_SLOTS / 16 : SOK_PERIM_FIRST_SLOTS;
    while (perim_room(slots) < cap && slots < first &&
           (!steps || (uint64_t)slots * 2 * ss <= SOK_PERIM_SET_FIRST_BYTES) &&
           (!max_bytes || perim_bytes(slots * 2, ss, ks) <= max_bytes))
        slots *= 2;
    t->cap = cap;
    t->max_bytes = max_bytes;
    t->mask = slots - 1;
    t->ss = ss;
    t->room = perim_room(slots) < cap ? perim_room(slots) : cap;
    t->qcap = t->room;
    t->slots = perim_slots_new(x, slots, t->ss);
    t->qbytes = perim_room(slots) * ks;
    t->queue = gs_sokoban_tab_alloc(x, t->qbytes, false);
    t->area = gs_sokoban_tab_alloc(x, (size_t)x->n, false);
    t->boxes = gs_sokoban_tab_alloc(
        x, sizeof *t->boxes * ((size_t)x->nboxes + 1), false);
    t->ckeys = gs_sokoban_tab_alloc(x, SOK_PERIM_BATCH * ks, false);
    t->chash =
        gs_sokoban_tab_alloc(x, sizeof *t->chash * SOK_PERIM_BATCH, false);
    return t->slots && t->queue && t->area && t->boxes && t->ckeys && t->chash;
}

/* The gap: the least (k - matching) over the positions of layer k
 * (queue[ls, le)). Every way out of a position that the table does not
 * hold enters it through layer k, and the matching drops by at most one
 * a step (or push), so such a position needs at least its matching +
 * gap. Past lim's deadline the gap stays 0 (no claim). */
static void perim_gap(sok_ctx *x, struct sok_perim *t, size_t ls, size_t le,
                      const gs_limits *lim)
{
    /* A gap of at most k + 1 - (the start's matching) does not lift the
     * start's bound: once the least gap so far is that small, the
     * matchings of the rest of the layer are not worth their time. */
    uint32_t h0 = gs_sokoban_lower_bound(x, x->start_player, x->start_boxes);
    uint32_t useless = h0 < t->k + 1 ? t->k + 1 - h0 : 0;
    uint32_t gap = t->k;
    for (size_t r = ls; r < le; r++) {
        if (gap <= useless ||
            ((r - ls) % 1024 == 1023 && gs_limits_expired(lim)))
            return;
        int p = gs_sokoban_key_unpack(x, t->queue + r * x->key_size, x->boxes);
        uint32_t m = gs_sokoban_lower_bound(x, p, x->boxes);
        if (m >= t->k) /* (m <= k: the table holds the exact k) */
            gap = 0;
        else if (t->k - m < gap)
            gap = t->k - m;
    }
    t->gap = gap;
}

/* Creates the table with its solved positions; false when there is none
 * to make (GS_ENOMEM in *rc when out of memory). */
static bool perim_start(sok_ctx *x, const gs_limits *lim, int *rc)
{
    size_t cap = x->g->perim_cap ? x->g->perim_cap : SOK_PERIM_MAX_STATES;
    *rc = GS_OK;
    memset(x->occ, 0, (size_t)x->n); /* the roots mark the goals */
    if (x->nboxes == 0 || x->nboxes != x->ngoals || x->start_dead || cap < 16 ||
        cap > 0x7fffffffu)
        return false;
    uint64_t before = x->bytes, max_bytes = lim ? lim->max_bytes : 0;
    size_t ks = x->key_size;
    bool steps = x->obj == SOK_MOVES;
    if (max_bytes && perim_bytes(SOK_PERIM_MIN_SLOTS, perim_slot_size(x, steps),
                                 ks) > max_bytes)
        return false; /* not even the least table fits the budget */
    if (!perim_alloc(x, cap, max_bytes, steps)) {
        gs_sokoban_perim_free(x);
        x->bytes = before;
        *rc = GS_ENOMEM;
        return false;
    }
    struct sok_perim *t = x->perim;
    if (!t->steps && !gs_sokoban_area_alloc(x, &t->an)) {
        gs_sokoban_perim_free(x);
        x->bytes = before;
        *rc = GS_ENOMEM;
        return false;
    }
    if (!perim_roots(x, t)) {
        /* Not even the solved positions fit: no table. */
        gs_sokoban_perim_free(x);
        x->bytes = before;
        return false;
    }
    t->ls = t->r = 0;
    t->le = t->count;
    t->gap_k = SOK_INF;
    return true;
}

/* Whether the rest of the layer under way (the next one when none is)
 * would be whole by lim's deadline: at the build's rate so far (the
 * queue's first r positions were expanded in spent_ns), or at the last
 * call's when slower; true before anything was measured. */
static bool rest_fits(const struct sok_perim *t, const gs_limits *lim)
{
    if (!lim->deadline_ns || t->r == 0 || t->spent_ns <= 0)
        return true;
    double rate = (double)t->spent_ns / (double)t->r;
    if (t->last_ns > rate)
        rate = t->last_ns;
    double need = (double)(t->le - t->r) * rate;
    return (double)gs_now_ns() + need <= (double)lim->deadline_ns;
}

/* Whether a layer is under way and its rest fits (rest_fits). */
static bool layer_fits(const struct sok_perim *t, const gs_limits *lim)
{
    return t->r > t->ls && rest_fits(t, lim);
}

/* At the start of layer dep: whether the build call with target `upto`
 * expands it whole. Only a whole layer adds to the bound (a position the
 * table lacks is at k + 1 already, as are the next layer's), so a call
 * ends at the layer boundary nearest its target: it takes the layer when
 * the count it would reach (at the last layer's growth) is nearer upto
 * than the count now, and the layer fits lim's deadline. */
static bool layer_worth(const struct sok_perim *t, const gs_limits *lim,
                        size_t upto)
{
    if (t->count >= upto)
        return false;
    if (t->growth > 0) {
        double after = (double)t->count + (double)(t->le - t->ls) * t->growth;
        if (after - (double)upto > (double)(upto - t->count))
            return false;
    }
    return rest_fits(t, lim);
}

/* Expands layer t->dep from t->r on, its children into layer `next`,
 * until it is done, the table is full, or the round's share or lim's
 * deadline is spent; true when it stopped for the last two. */
static bool perim_layer(sok_ctx *x, struct sok_perim *t, const gs_limits *lim,
                        size_t upto, uint16_t next)
{
    while (t->r < t->le && !t->full) {
        /* (A layer far past its estimate is cut: the round has spent its
         * share.) */
        if (t->count / 2 >= upto ||
            (++t->done % 64 == 0 && gs_limits_expired(lim)))
            return true;
        if (t->steps) {
            /* Several positions, their children's slots prefetched
             * together. */
            int nc = 0;
            while (t->r < t->le && nc <= SOK_PERIM_BATCH - 8)
                perim_expand_steps(x, t, t->r++, &nc);
            t->full = !perim_flush(x, t, nc, next);
            set_check(x, t);
        } else {
            t->full = !perim_expand_pulls(x, t, t->r++, next);
        }
    }
    return false;
}

/* Grows the table layer by layer (layer dep is queue[ls, le), expanded
 * up to r) while the next one is worth it; true when it paused with
 * layers still to come. */
static bool perim_layers(sok_ctx *x, struct sok_perim *t, const gs_limits *lim,
                         size_t upto)
{
    while (!t->full && t->ls < t->le) {
        if (t->dep + 1 >= SOK_PERIM_EMPTY) {
            t->full = true;
            break;
        }
        if (t->r == t->ls && !t->one_layer && !layer_worth(t, lim, upto))
            return true;
        if (perim_layer(x, t, lim, upto, (uint16_t)(t->dep + 1)))
            return true; /* layer dep is complete, the next one is not */
        if (t->full)
            break;
        size_t was = t->le - t->ls;
        t->ls = t->r = t->le;
        t->le = t->count;
        t->dep++;
        if (was)
            t->growth = (double)(t->le - t->ls) / (double)was;
        if (t->one_layer && t->ls < t->le)
            return true; /* (an empty next layer: the table is whole) */
    }
    return false;
}

/* The gap of the new depth t->k, in at most half the time the layers
 * took since t0 (0 until found). */
static void perim_new_gap(sok_ctx *x, struct sok_perim *t, const gs_limits *lim,
                          int64_t t0)
{
    gs_limits glim = lim ? *lim : (gs_limits){0};
    int64_t now = gs_now_ns(), until = now + (now - t0) / 2 + 1000000;
    if (!glim.deadline_ns || until < glim.deadline_ns)
        glim.deadline_ns = until;
    /* An earlier gap still holds (a position outside the table now was
     * outside it then): keeping the larger one keeps the bound from
     * falling as the table grows, which a search that goes on across
     * rounds needs (exact.c). */
    uint32_t old = t->gap;
    t->gap = 0;
    t->gap_k = t->k;
    perim_gap(x, t, t->ls, t->le, &glim);
    if (old > t->gap)
        t->gap = old;
}

int gs_sokoban_perim_build(sok_ctx *x, const gs_limits *lim, size_t upto)
{
    int rc;
    if (!x->perim && !perim_start(x, lim, &rc))
        return rc;
    struct sok_perim *t = x->perim;
    if (!t->queue)
        return GS_OK;                /* complete or full: nothing to add */
    memset(x->occ, 0, (size_t)x->n); /* the expansions mark their boxes */
    int64_t t0 = gs_now_ns();
    size_t r0 = t->r;
    bool paused = perim_layers(x, t, lim, upto);
    int64_t spent = gs_now_ns() - t0;
    t->spent_ns += spent;
    if (t->r > r0 + SOK_PERIM_RATE_MIN)
        t->last_ns = (double)spent / (double)(t->r - r0);
    t->complete = !paused && !t->full && t->ls == t->le;
    t->k = t->dep;
    if (!t->complete && t->gap_k != t->k)
        perim_new_gap(x, t, lim, t0);
    if (t->complete || t->full)
        gs_sokoban_perim_seal(x);
    return GS_OK;
}

bool gs_sokoban_perim_layer_fits(const sok_ctx *x, const gs_limits *lim)
{
    const struct sok_perim *t = x->perim;
    return !t || !t->queue || rest_fits(t, lim);
}

void gs_sokoban_perim_finish_layer(sok_ctx *x, const gs_limits *lim)
{
    struct sok_perim *t = x->perim;
    /* A layer that would not be whole in time would only take the time of
     * the slice: its positions are left out. */
    if (t && t->queue && layer_fits(t, lim)) {
        /* The table exists: the build cannot fail, only stop. */
        t->one_layer = true;
        (void)gs_sokoban_perim_build(x, lim, SIZE_MAX);
        t->one_layer = false;
    }
}

void gs_sokoban_perim_seal(sok_ctx *x)
{
    struct sok_perim *t = x->perim;
    if (!t || !t->queue)
        return;
    gs_mem_free(t->queue);
    t->queue = NULL;
    x->bytes -= t->qbytes;
}

bool gs_sokoban_perim_lifts_start(sok_ctx *x)
{
    const struct sok_perim *t = x->perim;
    if (!t || t->complete)
        return t != NULL;
    uint32_t h = gs_sokoban_lower_bound(x, x->start_player, x->start_boxes);
    gs_sokoban_occ_set(x, x->start_boxes, 1);
    uint32_t b = gs_sokoban_perim_bound(x, h, x->start_player, x->start_boxes);
    gs_sokoban_occ_set(x, x->start_boxes, 0);
    return b > h;
}

bool gs_sokoban_perim_growing(const sok_ctx *x)
{
    return x->perim && x->perim->queue;
}

void gs_sokoban_perim_prefetch(const sok_ctx *x, const unsigned char *key)
{
    const struct sok_perim *t = x->perim;
    child_prefetch(t, key, child_hash(t, key, x->key_size));
}

/* The bound of a position the table does not hold, h its matching. */
static uint32_t perim_outside(const struct sok_perim *t, uint32_t h)
{
    uint32_t o = h + t->gap;
    return o > t->k + 1 ? o : t->k + 1;
}

/* The depth the table holds for `key`, or SOK_PERIM_EMPTY. */
static uint32_t key_depth(const sok_ctx *x, const unsigned char *key)
{
    const struct sok_perim *t = x->perim;
    size_t ks = x->key_size;
    if (t->by_set)
        return set_depth(t, key, set_hash(t, key));
    return slot_depth(t, perim_slot(t, key, ks, perim_hash(key, ks)), ks);
}

/* The bound h raised by the entry of `key` (see sokoban.h). */
static uint32_t perim_bound_key(const sok_ctx *x, uint32_t h,
                                const unsigned char *key)
{
    const struct sok_perim *t = x->perim;
    uint32_t d = key_depth(x, key);
    if (d == SOK_PERIM_EMPTY)
        return t->complete ? SOK_INF : perim_outside(t, h);
    return d > h ? d : h;
}

uint32_t gs_sokoban_perim_bound(sok_ctx *x, uint32_t h, int pl,
                                const int32_t *boxes)
{
    const struct sok_perim *t = x->perim;
    if (!t || h == SOK_INF)
        return h;
    if (h > t->k && !t->complete)
        return perim_outside(t, h);
    perim_pack(x, t, pl, boxes);
    return perim_bound_key(x, h, x->key);
}

void gs_sokoban_perim_parent(sok_ctx *x, int player, bool sym_noted)
{
    struct sok_perim *t = x->perim;
    if (t && !t->steps) {
        t->an_ok = false; /* analysed on the first look-up that needs it */
        t->an_player = player;
        t->sym_noted = sym_noted;
    }
}

uint32_t gs_sokoban_perim_bound_push(sok_ctx *x, uint32_t h, int b, int to,
                                     int pl, const int32_t *boxes)
{
    struct sok_perim *t = x->perim;
    if (!t || t->steps)
        return gs_sokoban_perim_bound(x, h, pl, boxes);
    if (h == SOK_INF)
        return h;
    if (h > t->k && !t->complete)
        return perim_outside(t, h);
    if (!t->an_ok) {
        /* The analysis wants the expanded position: x->occ before the
         * push. */
        x->occ[to] = 0;
        x->occ[b] = 1;
        gs_sokoban_area_analyse(x, &t->an, t->an_player);
        if (!t->sym_noted)
            gs_sokoban_sym_parent(x, x->boxes);
        x->occ[b] = 0;
        x->occ[to] = 1;
        t->an_ok = true;
    }
    perim_pack_after(x, t, &t->an, to, b, pl, boxes);
    return perim_bound_key(x, h, x->key);
}

uint32_t gs_sokoban_perim_bound_key(const sok_ctx *x, uint32_t h,
                                    const unsigned char *key)
{
    const struct sok_perim *t = x->perim;
    if (!t || h == SOK_INF)
        return h;
    if (h > t->k && !t->complete)
        return perim_outside(t, h);
    return perim_bound_key(x, h, key);
}

uint32_t gs_sokoban_perim_floor(sok_ctx *x, uint32_t h, int pl,
                                const int32_t *boxes, bool *keyed)
{
    const struct sok_perim *t = x->perim;
    *keyed = false;
    if (!t || h == SOK_INF)
        return h;
    if (h > t->k && !t->complete)
        return h; /* outside: at least k + 1 < h */
    perim_pack(x, t, pl, boxes);
    *keyed = true;
    uint32_t d = key_depth(x, x->key);
    if (d == SOK_PERIM_EMPTY)
        return t->complete ? SOK_INF : (h > t->k + 1 ? h : t->k + 1);
    return d > h ? d : h;
}

bool gs_sokoban_perim_settles(const sok_ctx *x, uint32_t m)
{
    /* In the table: its exact distance, at least the matching. Outside:
     * max(k + 1, matching + gap) = k + 1 when matching + gap <= k + 1. */
    const struct sok_perim *t = x->perim;
    return t && t->steps && !t->complete && m != SOK_INF &&
           m + t->gap <= t->k + 1;
}

bool gs_sokoban_perim_steps(const sok_ctx *x)
{
    return x->perim && x->perim->steps;
}

uint32_t gs_sokoban_perim_depth(const sok_ctx *x, bool *complete)
{
    *complete = x->perim && x->perim->complete;
    return x->perim ? x->perim->k : 0;
}
