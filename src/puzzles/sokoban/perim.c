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

#include "gridsolve/mem.h"
#include "sokoban.h"

/* The table: records (key, pushes) in breadth-first order, found through
 * an open-addressing index of record numbers + 1 (0: empty). */
struct sok_perim {
    size_t cap, count;
    uint64_t mask;       /* index slots - 1 (a power of two - 1) */
    unsigned char *keys; /* cap * key_size: [area's smallest cell][boxes] */
    uint16_t *depth;     /* cap: exact pushes to a solution */
    uint32_t *index;     /* mask + 1 slots */
    uint8_t *area;       /* n: scratch, the expanded position's area */
    int32_t *boxes;      /* nboxes: scratch, a child's boxes */
    uint32_t k;          /* every position within k pushes is held */
    bool complete;       /* the search ran out: the others are dead */
    bool steps;          /* moves: keyed by the player's cell, depth in
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

/* The index slot holding `key`, or the empty slot where it would go. */
static uint64_t perim_slot(const struct sok_perim *t, const unsigned char *key,
                           size_t ks)
{
    uint64_t i = perim_hash(key, ks) & t->mask;
    while (t->index[i] &&
           memcmp(t->keys + (size_t)(t->index[i] - 1) * ks, key, ks) != 0)
        i = (i + 1) & t->mask;
    return i;
}

/* Adds x->key at `depth` when new. Returns 1 new, 0 known, -1 full. */
static int perim_add(sok_ctx *x, struct sok_perim *t, uint16_t depth)
{
    uint64_t i = perim_slot(t, x->key, x->key_size);
    if (t->index[i])
        return 0;
    if (t->count == t->cap)
        return -1;
    memcpy(t->keys + t->count * x->key_size, x->key, x->key_size);
    t->depth[t->count] = depth;
    t->index[i] = (uint32_t)++t->count;
    return 1;
}

/* Adds the solved positions: boxes on every goal, the player in each area
 * of the free cells. Returns false when the table is full. */
static bool perim_roots(sok_ctx *x, struct sok_perim *t)
{
    memcpy(t->boxes, x->goals, sizeof *t->boxes * (size_t)x->nboxes);
    gs_sokoban_occ_set(x, t->boxes, 1);
    if (t->steps) {
        /* Moves: the player on any free cell. */
        bool ok = true;
        for (int c = 0; c < x->n && ok; c++) {
            if (x->occ[c])
                continue;
            gs_sokoban_key_pack(x, c, t->boxes);
            ok = perim_add(x, t, 0) >= 0;
        }
        gs_sokoban_occ_set(x, t->boxes, 0);
        return ok;
    }
    memset(t->area, 0, (size_t)x->n);
    bool ok = true;
    for (int c = 0; c < x->n && ok; c++) {
        if (x->occ[c] || t->area[c])
            continue;
        int lo = gs_sokoban_flood(x, c);
        for (int v = 0; v < x->n; v++)
            if (x->seen[v] == x->gen)
                t->area[v] = 1;
        gs_sokoban_key_pack(x, lo, t->boxes);
        ok = perim_add(x, t, 0) >= 0;
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

/* Expands record r: adds every position one pull away. Returns false
 * when the table is full. Uses x->boxes, x->occ and the flood scratch. */
static bool perim_expand(sok_ctx *x, struct sok_perim *t, size_t r)
{
    size_t ks = x->key_size;
    int p = gs_sokoban_key_unpack(x, t->keys + r * ks, x->boxes);
    uint16_t dep = (uint16_t)(t->depth[r] + 1);
    gs_sokoban_occ_set(x, x->boxes, 1);
    gs_sokoban_flood(x, p);
    for (int v = 0; v < x->n; v++)
        t->area[v] = x->seen[v] == x->gen;
    bool ok = true;
    for (int i = 0; i < x->nboxes && ok; i++) {
        int b = x->boxes[i];
        for (int d = 0; d < 4 && ok; d++) {
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
            ok = perim_add(x, t, dep) >= 0;
            x->occ[c1] = 0;
            x->occ[b] = 1;
        }
    }
    gs_sokoban_occ_set(x, x->boxes, 0);
    return ok;
}

/* Moves mode: expands record r by one step backwards: the player steps
 * back onto a free neighbour q, either alone or pulling the box on its
 * other side onto its own cell (the inverse of pushing that box from the
 * player's cell with the player coming from q). Returns false when the
 * table is full. */
static bool perim_expand_steps(sok_ctx *x, struct sok_perim *t, size_t r)
{
    size_t ks = x->key_size;
    int p = gs_sokoban_key_unpack(x, t->keys + r * ks, x->boxes);
    uint16_t dep = (uint16_t)(t->depth[r] + 1);
    gs_sokoban_occ_set(x, x->boxes, 1);
    bool ok = true;
    for (int d = 0; d < 4 && ok; d++) {
        int q = x->nb[p * 4 + d];
        if (q < 0 || x->occ[q])
            continue;
        gs_sokoban_key_pack(x, q, x->boxes);
        ok = perim_add(x, t, dep) >= 0;
        int bx = x->nb[p * 4 + (d ^ 1)];
        if (!ok || bx < 0 || !x->occ[bx])
            continue;
        int i = 0;
        while (x->boxes[i] != bx)
            i++;
        perim_move(x, x->boxes, i, p, t->boxes);
        gs_sokoban_key_pack(x, q, t->boxes);
        ok = perim_add(x, t, dep) >= 0;
    }
    gs_sokoban_occ_set(x, x->boxes, 0);
    return ok;
}

void gs_sokoban_perim_free(sok_ctx *x)
{
    struct sok_perim *t = x->perim;
    if (!t)
        return;
    gs_mem_free(t->keys);
    gs_mem_free(t->depth);
    gs_mem_free(t->index);
    gs_mem_free(t->area);
    gs_mem_free(t->boxes);
    gs_mem_free(t);
    x->perim = NULL;
}

/* Allocates a table of up to `cap` records; false when out of memory. */
static bool perim_alloc(sok_ctx *x, size_t cap)
{
    struct sok_perim *t = gs_sokoban_tab_alloc(x, sizeof *t, true);
    if (!t)
        return false;
    x->perim = t;
    size_t slots = 16;
    while (slots < cap * 2)
        slots *= 2;
    t->cap = cap;
    t->mask = slots - 1;
    t->keys = gs_sokoban_tab_alloc(x, cap * x->key_size, false);
    t->depth = gs_sokoban_tab_alloc(x, sizeof *t->depth * cap, false);
    t->index = gs_sokoban_tab_alloc(x, sizeof *t->index * slots, true);
    t->area = gs_sokoban_tab_alloc(x, (size_t)x->n, false);
    t->boxes = gs_sokoban_tab_alloc(
        x, sizeof *t->boxes * ((size_t)x->nboxes + 1), false);
    return t->keys && t->depth && t->index && t->area && t->boxes;
}

int gs_sokoban_perim_build(sok_ctx *x, const gs_limits *lim, size_t cap)
{
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
        return GS_OK;
    }
    bool full = false;
    size_t r = 0;
    while (r < t->count) {
        if (((r & 255) == 0 && gs_limits_expired(lim)) || t->depth[r] == 0xfffe)
            break;
        if (!(t->steps ? perim_expand_steps(x, t, r) : perim_expand(x, t, r))) {
            full = true; /* r's layer is complete, the next one not */
            break;
        }
        r++;
    }
    /* Record r is the first not expanded whole: its layer is complete,
     * since the layer before it was expanded whole. */
    t->complete = !full && r == t->count;
    t->k = r < t->count ? t->depth[r] : t->depth[t->count - 1];
    return GS_OK;
}

uint32_t gs_sokoban_perim_bound(sok_ctx *x, uint32_t h, int pl,
                                const int32_t *boxes)
{
    const struct sok_perim *t = x->perim;
    if (!t || h == SOK_INF || (h > t->k && !t->complete))
        return h;
    gs_sokoban_key_pack(x, t->steps ? pl : gs_sokoban_flood(x, pl), boxes);
    uint64_t i = perim_slot(t, x->key, x->key_size);
    if (!t->index[i])
        return t->complete ? SOK_INF : h > t->k + 1 ? h : t->k + 1;
    uint32_t d = t->depth[t->index[i] - 1];
    return d > h ? d : h;
}

uint32_t gs_sokoban_perim_depth(const sok_ctx *x, bool *complete)
{
    *complete = x->perim && x->perim->complete;
    return x->perim ? x->perim->k : 0;
}
