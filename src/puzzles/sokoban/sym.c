/* sym.c - the level's symmetries, for the exact objectives, `any`'s A*
 * and the perimeter table.
 *
 * A mirror or rotation of the grid that maps the player's region onto
 * itself, goals onto goals (walls then onto walls, sides onto sides),
 * maps every position to one with the same moves and pushes left: the
 * rules, the goal test and every bound and deadlock rule are the same
 * on both. So the search may store one position for each class, keyed by
 * the smallest of the keys its images have (gs_sokoban_sym_canon); the
 * optimal cost stays the same (a path to a position's image costs what
 * the path to the position costs, mirrored). The answer is rebuilt from
 * the real start along the stored classes (answer.c).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

struct sok_sym {
    int count;       /* symmetries other than the identity */
    int32_t *map;    /* count * n: the image of each cell */
    int32_t *inv;    /* count * n: the cell whose image each cell is */
    int32_t *ties;   /* count + 1: images whose boxes tie for the least */
    uint64_t *pbits; /* (count + 1) * nw: a parent's boxes under the
                        identity, then under each image */
    /* The parent's own least set and its ties (box_ties), once asked:
     * every child that only moves the player has them too. */
    uint64_t *pbest; /* nw */
    int32_t *pties;  /* count + 1 */
    int pnt;         /* how many pties hold; 0: not worked out yet */
    int32_t *best;   /* nboxes: the chosen image's boxes, sorted */
    int nw;          /* 64-bit words of a set of cells */
    uint64_t *bits;  /* 2 * nw: the best image's boxes, one image's */
};

/* Levels past this many cells keep every position (the images' sets of
 * cells would cost more than they save). */
#define SOK_SYM_MAX_CELLS 1024

/* The image of grid cell (r, c) under transform t of the box
 * [r0, r0 + h) x [c0, c0 + w); false when it leaves the box. */
static bool transform(int t, int r, int c, int r0, int c0, int h, int w,
                      int *rr, int *cc)
{
    int a = r - r0, b = c - c0, y, z;
    switch (t) {
    case 0: /* mirror left-right */
        y = a;
        z = w - 1 - b;
        break;
    case 1: /* mirror top-bottom */
        y = h - 1 - a;
        z = b;
        break;
    case 2: /* half turn */
        y = h - 1 - a;
        z = w - 1 - b;
        break;
    case 3: /* transpose */
        y = b;
        z = a;
        break;
    case 4: /* quarter turn */
        y = b;
        z = h - 1 - a;
        break;
    case 5: /* three quarters */
        y = w - 1 - b;
        z = a;
        break;
    default: /* anti-transpose */
        y = w - 1 - b;
        z = h - 1 - a;
        break;
    }
    if (y < 0 || z < 0 || y >= h || z >= w)
        return false;
    *rr = r0 + y;
    *cc = c0 + z;
    return true;
}

/* Fills map (7 * n) with the transforms of the region's bounding box
 * that map it onto itself and goals onto goals, each a cell -> image
 * row; returns how many (0 to 7), or -1 when out of memory (or when
 * the region's numbering disagrees with ctx.c's, which never happens). */
static int sym_maps(const sok_ctx *x, int32_t *map)
{
    const gs_sokoban *g = x->g;
    int n = x->n;
    size_t cells = (size_t)g->rows * (size_t)g->cols;
    /* The region's cells in row-major order, as ctx.c numbered them. */
    int32_t *idx = malloc(sizeof *idx * cells);
    int32_t *stack = malloc(sizeof *stack * cells);
    int32_t *pos = malloc(sizeof *pos * (size_t)n);
    int count = -1;
    if (idx && stack && pos && gs_sokoban_number_region(g, idx, stack) == n) {
        int r0 = g->rows, c0 = g->cols, r1 = -1, c1 = -1;
        for (size_t i = 0; i < cells; i++) {
            if (idx[i] < 0)
                continue;
            int r = (int)(i / (size_t)g->cols), c = (int)(i % (size_t)g->cols);
            pos[idx[i]] = (int32_t)i;
            r0 = r < r0 ? r : r0;
            c0 = c < c0 ? c : c0;
            r1 = r > r1 ? r : r1;
            c1 = c > c1 ? c : c1;
        }
        int h = r1 - r0 + 1, w = c1 - c0 + 1;
        count = 0;
        for (int t = 0; t < 7 && (t < 3 || h == w); t++) {
            int32_t *m = map + (size_t)count * (size_t)n;
            bool sym = true;
            for (int c = 0; c < n && sym; c++) {
                int r = pos[c] / g->cols, col = pos[c] % g->cols, rr, cc;
                sym = transform(t, r, col, r0, c0, h, w, &rr, &cc);
                int to = sym ? idx[rr * g->cols + cc] : -1;
                sym = to >= 0 && x->goal[to] == x->goal[c];
                m[c] = to;
            }
            if (sym)
                count++;
        }
    }
    free(idx);
    free(stack);
    free(pos);
    return count;
}

/* Allocates x->sym for the count maps found (map: count * n) and their
 * inverses; false when out of memory. */
static bool sym_tables(sok_ctx *x, const int32_t *map, int count)
{
    int n = x->n;
    struct sok_sym *S = gs_sokoban_tab_alloc(x, sizeof *S, true);
    if (!S)
        return false;
    x->sym = S;
    S->count = count;
    S->map = gs_sokoban_tab_alloc(x, sizeof *S->map * (size_t)n * count, false);
    S->nw = (n + 63) / 64;
    S->best = gs_sokoban_tab_alloc(x, sizeof *S->best * ((size_t)x->nboxes + 1),
                                   false);
    S->bits =
        gs_sokoban_tab_alloc(x, sizeof *S->bits * 2 * (size_t)S->nw, false);
    S->inv = gs_sokoban_tab_alloc(x, sizeof *S->inv * (size_t)n * count, false);
    S->ties =
        gs_sokoban_tab_alloc(x, sizeof *S->ties * (size_t)(count + 1), false);
    S->pbits = gs_sokoban_tab_alloc(
        x, sizeof *S->pbits * (size_t)(count + 1) * (size_t)S->nw, false);
    S->pbest = gs_sokoban_tab_alloc(x, sizeof *S->pbest * (size_t)S->nw, false);
    S->pties =
        gs_sokoban_tab_alloc(x, sizeof *S->pties * (size_t)(count + 1), false);
    if (S->map && S->inv) {
        /* A transform of the bounding box is one to one, and the region
         * maps into itself: each map is a permutation. */
        memcpy(S->map, map, sizeof *S->map * (size_t)n * count);
        for (int t = 0; t < count; t++)
            for (int c = 0; c < n; c++)
                S->inv[(size_t)t * (size_t)n + (size_t)map[(size_t)t * n + c]] =
                    c;
    }
    return S->map && S->best && S->bits && S->inv && S->ties && S->pbits &&
           S->pbest && S->pties;
}

bool gs_sokoban_sym_init(sok_ctx *x)
{
    int n = x->n;
    if (n == 0 || x->nboxes == 0 || n > SOK_SYM_MAX_CELLS)
        return true;
    int32_t *map = malloc(sizeof *map * (size_t)n * 7);
    int count = map ? sym_maps(x, map) : -1;
    bool ok = count == 0 || (count > 0 && sym_tables(x, map, count));
    free(map);
    return ok;
}

void gs_sokoban_sym_free(sok_ctx *x)
{
    struct sok_sym *S = x->sym;
    if (!S)
        return;
    gs_mem_free(S->map);
    gs_mem_free(S->inv);
    gs_mem_free(S->ties);
    gs_mem_free(S->pbits);
    gs_mem_free(S->pbest);
    gs_mem_free(S->pties);
    gs_mem_free(S->best);
    gs_mem_free(S->bits);
    gs_mem_free(S);
    x->sym = NULL;
}

int gs_sokoban_sym_count(const sok_ctx *x)
{
    return x->sym ? x->sym->count : 0;
}

/* Compares two sets of cells as numbers, the highest word first. */
static int cmp_bits(const uint64_t *a, const uint64_t *b, int nw)
{
    for (int i = nw - 1; i >= 0; i--)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* The set of cells m maps the boxes to (m NULL: the boxes' own) into
 * cur[nw]. Up to 128 cells the words stay in registers: or-ing into
 * memory chains every box through a store and a load. */
static void image_bits(const int32_t *m, const int32_t *boxes, int nb, int nw,
                       uint64_t *cur)
{
    if (nw <= 2) {
        uint64_t lo = 0, hi = 0;
        for (int i = 0; i < nb; i++) {
            int c = m ? m[boxes[i]] : boxes[i];
            uint64_t bit = (uint64_t)1 << (c & 63);
            lo |= c < 64 ? bit : 0;
            hi |= c < 64 ? 0 : bit;
        }
        cur[0] = lo;
        if (nw == 2)
            cur[1] = hi;
        return;
    }
    memset(cur, 0, sizeof *cur * (size_t)nw);
    for (int i = 0; i < nb; i++) {
        int c = m ? m[boxes[i]] : boxes[i];
        cur[c >> 6] |= (uint64_t)1 << (c & 63);
    }
}

/* Image t's player: the image of the exact cell, or (area) the smallest
 * image of the area's cells: those af tells, or (af NULL) those x->seen
 * marks with x->gen. The cells are tried in the order of their images,
 * so the scan stops at the area's first (an area is mostly large). */
static int image_player(const sok_ctx *x, int t, int player, bool area,
                        const sok_after *af)
{
    const struct sok_sym *S = x->sym;
    size_t n = (size_t)x->n;
    if (!area)
        return S->map[(size_t)t * n + (size_t)player];
    const int32_t *inv = S->inv + (size_t)t * n;
    for (int v = 0; v < x->n; v++) {
        int c = inv[v];
        if (af ? gs_sokoban_after_has(af, c) : x->seen[c] == x->gen)
            return v;
    }
    return x->n;
}

/* Image i's set of box cells (i = 0: the identity, else map i - 1) into
 * cur[nw]: from the boxes, or (mv) from the parent's set (pbits) with
 * the box on mv[0] moved onto mv[1] (mv[0] < 0: none moved). */
static void image_set(const sok_ctx *x, int i, const int32_t *boxes,
                      const int *mv, uint64_t *cur)
{
    const struct sok_sym *S = x->sym;
    int nw = S->nw;
    const int32_t *m = i ? S->map + (size_t)(i - 1) * (size_t)x->n : NULL;
    if (!mv) {
        image_bits(m, boxes, x->nboxes, nw, cur);
        return;
    }
    const uint64_t *p = S->pbits + (size_t)i * (size_t)nw;
    for (int w = 0; w < nw; w++) /* a word or two: no call to memcpy */
        cur[w] = p[w];
    if (mv[0] < 0)
        return;
    int a = m ? m[mv[0]] : mv[0], b = m ? m[mv[1]] : mv[1];
    cur[a >> 6] &= ~((uint64_t)1 << (a & 63));
    cur[b >> 6] |= (uint64_t)1 << (b & 63);
}

void gs_sokoban_sym_parent(sok_ctx *x, const int32_t *boxes)
{
    struct sok_sym *S = x->sym;
    if (!S)
        return;
    for (int i = 0; i <= S->count; i++)
        image_bits(i ? S->map + (size_t)(i - 1) * (size_t)x->n : NULL, boxes,
                   x->nboxes, S->nw, S->pbits + (size_t)i * (size_t)S->nw);
    S->pnt = 0;
}

/* Finds the least of the images' box sets into S->bits and the images
 * that tie for it into S->ties (-1: the identity); returns how many. The
 * sets come from the boxes, or (mv) from the parent's (image_set). */
static int box_ties(sok_ctx *x, const int32_t *boxes, const int *mv)
{
    struct sok_sym *S = x->sym;
    int nw = S->nw;
    uint64_t *best = S->bits, *cur = S->bits + nw;
    image_set(x, 0, boxes, mv, best);
    int nt = 0;
    S->ties[nt++] = -1; /* the identity */
    for (int t = 0; t < S->count; t++) {
        image_set(x, t + 1, boxes, mv, cur);
        int r = cmp_bits(cur, best, nw);
        if (r > 0)
            continue;
        if (r < 0) {
            for (int w = 0; w < nw; w++)
                best[w] = cur[w];
            nt = 0;
        }
        S->ties[nt++] = t;
    }
    return nt;
}

/* box_ties for the parent's own boxes (mv[0] < 0), worked out once per
 * parent and copied after. */
static int parent_ties(sok_ctx *x, const int32_t *boxes, const int *mv)
{
    struct sok_sym *S = x->sym;
    int nw = S->nw;
    if (!S->pnt) {
        S->pnt = box_ties(x, boxes, mv);
        memcpy(S->pbest, S->bits, sizeof *S->pbest * (size_t)nw);
        memcpy(S->pties, S->ties, sizeof *S->pties * (size_t)S->pnt);
        return S->pnt;
    }
    for (int w = 0; w < nw; w++)
        S->bits[w] = S->pbest[w];
    for (int i = 0; i < S->pnt; i++)
        S->ties[i] = S->pties[i];
    return S->pnt;
}

/* Packs the chosen image of (player, boxes) into x->key: the smallest set
 * of box cells, then the smallest player cell (or area's smallest cell:
 * `player` is the area's own); sets as bit sets, so no image needs
 * sorting. The player's images are only worked out for the images whose
 * boxes tie for the least. */
static void canon(sok_ctx *x, int player, const int32_t *boxes, bool area,
                  const sok_after *af, const int *mv)
{
    struct sok_sym *S = x->sym;
    int nw = S ? S->nw : 0;
    if (!S) {
        gs_sokoban_key_pack(x, player, boxes);
        return;
    }
    const uint64_t *best = S->bits;
    int nt =
        mv && mv[0] < 0 ? parent_ties(x, boxes, mv) : box_ties(x, boxes, mv);
    int bp = x->n, t0 = -1;
    for (int i = 0; i < nt; i++) {
        int t = S->ties[i];
        int ip = t < 0 ? player : image_player(x, t, player, area, af);
        if (ip < bp) {
            bp = ip;
            t0 = t;
        }
    }
    if (t0 < 0) {
        gs_sokoban_key_pack(x, player, boxes);
        return;
    }
    int k = 0;
    for (int w = 0; w < nw; w++)
        for (uint64_t v = best[w]; v; v &= v - 1)
            S->best[k++] = w * 64 + __builtin_ctzll(v);
    gs_sokoban_key_pack(x, bp, S->best);
}

void gs_sokoban_sym_canon(sok_ctx *x, int player, const int32_t *boxes)
{
    canon(x, player, boxes, false, NULL, NULL);
}

void gs_sokoban_sym_canon_moved(sok_ctx *x, int player, const int32_t *boxes,
                                int out, int in)
{
    int mv[2] = {out, in};
    canon(x, player, boxes, false, NULL, mv);
}

void gs_sokoban_sym_canon_area(sok_ctx *x, int lo, const int32_t *boxes)
{
    canon(x, lo, boxes, true, NULL, NULL);
}

void gs_sokoban_sym_canon_after(sok_ctx *x, sok_after *af, const int32_t *boxes)
{
    int mv[2] = {af->out, af->in};
    canon(x, gs_sokoban_after_min(x, af), boxes, true, af, mv);
}
