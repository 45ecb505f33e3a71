/* perim.c - the perimeter table of the exact objectives: the exact number
 * of pushes left from every position near the solved ones, found by a
 * breadth-first search of pulls backwards from the solved positions.
 *
 * A push and a pull are inverses: pushing a box from b to b + d with the
 * player on b - d leaves the player on b; pulling it back from b + d to b
 * with the player on b puts the player on b - d. So a breadth-first
 * search of pulls from every solved position (all boxes on goals, the
 * player in any area of the free cells) meets each position (boxes, the
 * player's area) first at its exact push distance to a solution. The
 * pushes left do not depend on where in its area the player stands, so a
 * position is keyed by the area's smallest cell.
 *
 * When the search has finished every layer up to k, a position the table
 * does not hold needs at least k + 1 pushes; when it ran out of positions
 * altogether, such a position cannot be solved. Either way the bound
 * min(exact pushes, k + 1), taken together with the matching by max, is
 * consistent (one push changes the exact distance by at most one), so
 * the A* of both exact objectives stays exact with it. It helps where the
 * matching is weakest: boxes packed among the goals that must make room
 * for one another (Microban I 145, 146: a bound of 12 against 18 and 14
 * pushes).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

/* Slots hold a key and its depth inline, so that a look-up costs one cache
 * miss; a depth of SOK_PERIM_EMPTY marks a free slot. */
#define SOK_PERIM_EMPTY 0xffffu
/* Children of one expansion whose slots are prefetched together. */
#define SOK_PERIM_BATCH 64

struct sok_perim {
    size_t cap, count;    /* positions held, at most cap */
    uint64_t mask;        /* slots - 1 (a power of two - 1) */
    size_t ss;            /* bytes per slot: key_size + 2 */
    unsigned char *slots; /* [key][depth, 2 bytes] per slot */
    unsigned char *queue; /* cap keys in breadth-first order (build only) */
    uint64_t qbytes;      /* the queue's bytes in x->bytes */
    uint8_t *area;        /* n: scratch, the expanded position's area */
    int32_t *boxes;       /* nboxes: scratch, a child's boxes */
    unsigned char *ckeys; /* SOK_PERIM_BATCH keys: one expansion's children */
    uint64_t *chash;      /* their hashes */
    uint32_t k;           /* every position within k is held */
    uint32_t gap;         /* see perim_gap */
    bool complete;        /* the search ran out: the others are dead */
    bool steps;           /* moves: keyed by the player's cell, depth in
                             steps (else pushes, keyed by its area) */
};

/* 64-bit mix over a key (splitmix-style finalizers per word). */
static uint64_t perim_hash(const unsigned char *p, size_t n)
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

static uint16_t slot_depth(const struct sok_perim *t, const unsigned char *sl,
                           size_t ks)
{
    uint16_t d;
    memcpy(&d, sl + ks, sizeof d);
    (void)t;
    return d;
}

/* Whether keys a and b of ks bytes are equal (short keys: word loads
 * instead of a call to memcmp). */
static inline bool key_eq(const unsigned char *a, const unsigned char *b,
                          size_t ks)
{
    while (ks >= 8) {
        uint64_t u, v;
        memcpy(&u, a, 8);
        memcpy(&v, b, 8);
        if (u != v)
            return false;
        a += 8;
        b += 8;
        ks -= 8;
    }
    while (ks > 0) {
        if (*a++ != *b++)
            return false;
        ks--;
    }
    return true;
}

/* The slot holding `key` (hash h), or the free slot where it would go. */
static unsigned char *perim_slot(const struct sok_perim *t,
                                 const unsigned char *key, size_t ks,
                                 uint64_t h)
{
    uint64_t i = h & t->mask;
    for (;;) {
        unsigned char *sl = t->slots + i * t->ss;
        if (slot_depth(t, sl, ks) == SOK_PERIM_EMPTY || key_eq(sl, key, ks))
            return sl;
        i = (i + 1) & t->mask;
    }
}

/* Adds key (hash h) at `depth` when new. Returns 1 new, 0 known, -1
 * full. */
static int perim_add(sok_ctx *x, struct sok_perim *t, const unsigned char *key,
                     uint64_t h, uint16_t depth)
{
    size_t ks = x->key_size;
    unsigned char *sl = perim_slot(t, key, ks, h);
    if (slot_depth(t, sl, ks) != SOK_PERIM_EMPTY)
        return 0;
    if (t->count == t->cap)
        return -1;
    memcpy(sl, key, ks);
    memcpy(sl + ks, &depth, sizeof depth);
    if (t->queue)
        memcpy(t->queue + t->count * ks, key, ks);
    t->count++;
    return 1;
}

/* Queues x->key as a child of the expansion under way (*nc so far). */
static void perim_child(sok_ctx *x, struct sok_perim *t, int *nc)
{
    size_t ks = x->key_size;
    memcpy(t->ckeys + (size_t)*nc * ks, x->key, ks);
    t->chash[*nc] = perim_hash(x->key, ks);
    __builtin_prefetch(t->slots + (t->chash[*nc] & t->mask) * t->ss);
    (*nc)++;
}

/* Adds the nc queued children at `depth`. False when the table is full. */
static bool perim_flush(sok_ctx *x, struct sok_perim *t, int nc, uint16_t depth)
{
    for (int j = 0; j < nc; j++)
        if (perim_add(x, t, t->ckeys + (size_t)j * x->key_size, t->chash[j],
                      depth) < 0)
            return false;
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
        gs_sokoban_key_pack(x, lo, t->boxes);
        ok = perim_add(x, t, x->key, perim_hash(x->key, x->key_size), 0) >= 0;
    }
    gs_sokoban_occ_set(x, t->boxes, 0);
    return ok;
}

/* Writes boxes with box i moved to `to` into out, kept sorted. */
static void perim_move(const sok_ctx *x, const int32_t *boxes, int i, int to,
                       int32_t *out)
{
    memcpy(out, boxes, sizeof *out * (size_t)x->nboxes);
    out[i] = to;
    while (i > 0 && out[i - 1] > out[i]) {
        int32_t s = out[i - 1];
        out[i - 1] = out[i];
        out[i] = s;
        i--;
    }
    while (i + 1 < x->nboxes && out[i + 1] < out[i]) {
        int32_t s = out[i + 1];
        out[i + 1] = out[i];
        out[i] = s;
        i++;
    }
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
    gs_sokoban_flood(x, p);
    for (int v = 0; v < x->n; v++)
        t->area[v] = x->seen[v] == x->gen;
    int nc = 0;
    bool ok = true;
    for (int i = 0; i < x->nboxes && ok; i++) {
        int b = x->boxes[i];
        for (int d = 0; d < 4; d++) {
            /* The player on c1 (beside b, in its area) steps on to c2
             * and pulls the box onto c1. */
            int c1 = x->nb[b * 4 + d];
            if (c1 < 0 || !t->area[c1])
                continue;
            int c2 = x->nb[c1 * 4 + d];
            if (c2 < 0 || x->occ[c2])
                continue;
            x->occ[b] = 0;
            x->occ[c1] = 1;
            int lo = gs_sokoban_flood(x, c2);
            perim_move(x, x->boxes, i, c1, t->boxes);
            gs_sokoban_key_pack(x, lo, t->boxes);
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

/* Moves mode: expands queued position r by one step backwards: the
 * player steps back onto a free neighbour q, either alone or pulling the
 * box on its other side onto its own cell (the inverse of pushing that
 * box from the player's cell with the player coming from q). */
static void perim_expand_steps(sok_ctx *x, struct sok_perim *t, size_t r,
                               int *nc)
{
    size_t ks = x->key_size;
    int p = gs_sokoban_key_unpack(x, t->queue + r * ks, x->boxes);
    gs_sokoban_occ_set(x, x->boxes, 1);
    for (int d = 0; d < 4; d++) {
        int q = x->nb[p * 4 + d];
        if (q < 0 || x->occ[q])
            continue;
        gs_sokoban_key_pack(x, q, x->boxes);
        perim_child(x, t, nc);
        int bx = x->nb[p * 4 + (d ^ 1)];
        if (bx < 0 || !x->occ[bx])
            continue;
        int i = 0;
        while (x->boxes[i] != bx)
            i++;
        perim_move(x, x->boxes, i, p, t->boxes);
        gs_sokoban_key_pack(x, q, t->boxes);
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
    gs_mem_free(t);
    x->perim = NULL;
}

/* Bytes the table takes for `cap` positions (*slots: its slot count). */
static uint64_t perim_bytes(const sok_ctx *x, size_t cap, size_t *slots)
{
    size_t n = 16;
    while (n < cap * 2)
        n *= 2;
    *slots = n;
    return (uint64_t)n * (x->key_size + 2) + (uint64_t)cap * x->key_size;
}

/* Allocates a table of up to `cap` positions; false when out of memory. */
static bool perim_alloc(sok_ctx *x, size_t cap)
{
    struct sok_perim *t = gs_sokoban_tab_alloc(x, sizeof *t, true);
    if (!t)
        return false;
    x->perim = t;
    size_t slots, ks = x->key_size;
    perim_bytes(x, cap, &slots);
    t->cap = cap;
    t->mask = slots - 1;
    t->ss = ks + sizeof(uint16_t);
    t->slots = gs_sokoban_tab_alloc(x, slots * t->ss, false);
    t->qbytes = cap * ks;
    t->queue = gs_sokoban_tab_alloc(x, t->qbytes, false);
    t->area = gs_sokoban_tab_alloc(x, (size_t)x->n, false);
    t->boxes = gs_sokoban_tab_alloc(
        x, sizeof *t->boxes * ((size_t)x->nboxes + 1), false);
    t->ckeys = gs_sokoban_tab_alloc(x, SOK_PERIM_BATCH * ks, false);
    t->chash =
        gs_sokoban_tab_alloc(x, sizeof *t->chash * SOK_PERIM_BATCH, false);
    if (!t->slots || !t->queue || !t->area || !t->boxes || !t->ckeys ||
        !t->chash)
        return false;
    /* Look-ups are random over hundreds of MB: huge pages spare a TLB
     * miss on most of them (a hint; the kernel may ignore it). */
    uintptr_t a =
        ((uintptr_t)t->slots + (2u << 20) - 1) & ~(uintptr_t)((2u << 20) - 1);
    uintptr_t e =
        ((uintptr_t)t->slots + slots * t->ss) & ~(uintptr_t)((2u << 20) - 1);
    if (e > a)
        (void)madvise((void *)a, e - a, MADV_HUGEPAGE);
    /* All bytes 0xff: every depth reads SOK_PERIM_EMPTY. */
    memset(t->slots, 0xff, slots * t->ss);
    return true;
}

/* The gap: the least (k - matching) over the positions of layer k
 * (queue[ls, le)). Every way out of a position that the table does not
 * hold enters it through layer k, and the matching drops by at most one
 * a step (or push), so such a position needs at least its matching +
 * gap. Past lim's deadline the gap stays 0 (no claim). */
static void perim_gap(sok_ctx *x, struct sok_perim *t, size_t ls, size_t le,
                      const gs_limits *lim)
{
    uint32_t gap = t->k;
    for (size_t r = ls; r < le && gap > 0; r++) {
        if ((r - ls) % 1024 == 1023 && gs_limits_expired(lim))
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

int gs_sokoban_perim_build(sok_ctx *x, const gs_limits *lim, size_t cap)
{
    size_t slots;
    while (lim && lim->max_bytes && cap >= 16 &&
           perim_bytes(x, cap, &slots) > lim->max_bytes)
        cap /= 2;
    if (x->nboxes == 0 || x->nboxes != x->ngoals || x->start_dead || cap < 16 ||
        cap > 0x7fffffffu)
        return GS_OK;
    uint64_t before = x->bytes;
    if (!perim_alloc(x, cap)) {
        gs_sokoban_perim_free(x);
        x->bytes = before;
        return GS_ENOMEM;
    }
    struct sok_perim *t = x->perim;
    t->steps = x->obj == SOK_MOVES;
    if (!perim_roots(x, t)) {
        /* Not even the solved positions fit: no table. */
        gs_sokoban_perim_free(x);
        x->bytes = before;
        return GS_OK;
    }
    /* Layer by layer: layer `dep` is queue[ls, le). */
    size_t ls = 0, le = t->count, done = 0;
    uint32_t dep = 0;
    bool stop = false;
    while (ls < le && !stop && dep + 1 < SOK_PERIM_EMPTY) {
        uint16_t next = (uint16_t)(dep + 1);
        for (size_t r = ls; r < le && !stop;) {
            if (++done % 64 == 0 && gs_limits_expired(lim)) {
                stop = true;
                break;
            }
            if (t->steps) {
                /* Several positions, their children's slots prefetched
                 * together. */
                int nc = 0;
                while (r < le && nc <= SOK_PERIM_BATCH - 8)
                    perim_expand_steps(x, t, r++, &nc);
                stop = !perim_flush(x, t, nc, next);
            } else {
                stop = !perim_expand_pulls(x, t, r++, next);
            }
        }
        if (stop)
            break; /* layer dep is complete, the next one is not */
        ls = le;
        le = t->count;
        dep++;
    }
    t->complete = !stop && ls == le;
    t->k = dep;
    if (!t->complete)
        perim_gap(x, t, ls, le, lim);
    /* The queue is needed no more. */
    gs_mem_free(t->queue);
    t->queue = NULL;
    x->bytes -= t->qbytes;
    return GS_OK;
}

void gs_sokoban_perim_prefetch(const sok_ctx *x, const unsigned char *key)
{
    const struct sok_perim *t = x->perim;
    __builtin_prefetch(t->slots +
                       (perim_hash(key, x->key_size) & t->mask) * t->ss);
}

/* The bound of a position the table does not hold, h its matching. */
static uint32_t perim_outside(const struct sok_perim *t, uint32_t h)
{
    uint32_t o = h + t->gap;
    return o > t->k + 1 ? o : t->k + 1;
}

/* The bound h raised by the entry of `key` (see sokoban.h). */
static uint32_t perim_bound_key(const sok_ctx *x, uint32_t h,
                                const unsigned char *key)
{
    const struct sok_perim *t = x->perim;
    size_t ks = x->key_size;
    const unsigned char *sl = perim_slot(t, key, ks, perim_hash(key, ks));
    uint32_t d = slot_depth(t, sl, ks);
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
    gs_sokoban_key_pack(x, t->steps ? pl : gs_sokoban_flood(x, pl), boxes);
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

size_t gs_sokoban_perim_count(const sok_ctx *x)
{
    return x->perim ? x->perim->count : 0;
}

uint32_t gs_sokoban_perim_gap(const sok_ctx *x)
{
    return x->perim ? x->perim->gap : 0;
}

uint32_t gs_sokoban_perim_depth(const sok_ctx *x, bool *complete)
{
    *complete = x->perim && x->perim->complete;
    return x->perim ? x->perim->k : 0;
}
