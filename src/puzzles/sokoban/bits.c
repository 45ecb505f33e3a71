/* bits.c - the player's area as one 64-bit mask per row of the level, for
 * the searches that only need to know which cells it holds and its
 * smallest cell, not the walks' lengths.
 *
 * A flood cell by cell (gs_sokoban_flood) pays a queue entry, four
 * neighbour look-ups and a distance per cell; the search backwards ran one
 * per child and spent some 40 % of its time there (XSokoban 18, perf).
 * Here a row's free cells reached from a seed are filled in a few word
 * operations (towards the higher bits by one addition, whose carry runs
 * along the free run; towards the lower by a doubling fill), and sweeps down
 * and up the rows carry the area between rows until nothing changes: as
 * many sweeps as the area's paths turn between going down and going up.
 *
 * Cells are numbered row-major over the player's region, so a row's cells
 * are numbered in the order of their bits, and a cell's number is its
 * row's first number plus the region's cells below its bit. Levels whose
 * region spans more than 64 columns (or 65,535 rows) have no masks
 * (x->bits NULL).
 */
#include <string.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

/* Bits of seed (within free) spread along the runs of free they lie in. */
static inline uint64_t row_fill(uint64_t seed, uint64_t free)
{
    /* Upwards: the carry of free + seed clears the run from each seed up
     * to the run's top and sets the bit above it, which free lacks. */
    uint64_t g = seed | (((free + seed) ^ free) & free);
    /* Downwards: an occluded fill, the run doubling each round. */
    uint64_t p = free;
    g |= p & (g >> 1);
    p &= p >> 1;
    g |= p & (g >> 2);
    p &= p >> 2;
    g |= p & (g >> 4);
    p &= p >> 4;
    g |= p & (g >> 8);
    p &= p >> 8;
    g |= p & (g >> 16);
    p &= p >> 16;
    g |= p & (g >> 32);
    return g;
}

bool gs_sokoban_bits_init(sok_ctx *x, const gs_sokoban *g, const int32_t *num)
{
    int r0 = g->rows, r1 = -1, c0 = g->cols, c1 = -1;
    for (int r = 0; r < g->rows; r++)
        for (int c = 0; c < g->cols; c++)
            if (num[r * g->cols + c] >= 0) {
                r0 = r < r0 ? r : r0;
                r1 = r > r1 ? r : r1;
                c0 = c < c0 ? c : c0;
                c1 = c > c1 ? c : c1;
            }
    if (r1 < 0 || c1 - c0 >= 64 || r1 - r0 >= UINT16_MAX)
        return true; /* no masks (a row number is 16 bits): the callers flood */
    struct sok_bits *b = gs_sokoban_tab_alloc(x, sizeof *b, true);
    if (!b)
        return false;
    x->bits = b;
    b->rows = r1 - r0 + 1;
    size_t nr = (size_t)b->rows, n = (size_t)x->n;
    b->floor = gs_sokoban_tab_alloc(x, sizeof *b->floor * nr, true);
    b->free = gs_sokoban_tab_alloc(x, sizeof *b->free * nr, false);
    b->reach = gs_sokoban_tab_alloc(x, sizeof *b->reach * nr, true);
    b->first = gs_sokoban_tab_alloc(x, sizeof *b->first * nr, false);
    b->row = gs_sokoban_tab_alloc(x, sizeof *b->row * n, false);
    b->bit = gs_sokoban_tab_alloc(x, n, false);
    if (!b->floor || !b->free || !b->reach || !b->first || !b->row || !b->bit)
        return false;
    for (int r = 0; r < b->rows; r++) {
        b->first[r] = -1;
        for (int c = c0; c <= c1; c++) {
            int v = num[(r0 + r) * g->cols + c];
            if (v < 0)
                continue;
            if (b->first[r] < 0)
                b->first[r] = v;
            b->floor[r] |= (uint64_t)1 << (c - c0);
            b->row[v] = (uint16_t)r;
            b->bit[v] = (uint8_t)(c - c0);
        }
    }
    return true;
}

void gs_sokoban_bits_free(sok_ctx *x)
{
    struct sok_bits *b = x->bits;
    if (!b)
        return;
    gs_mem_free(b->floor);
    gs_mem_free(b->free);
    gs_mem_free(b->reach);
    gs_mem_free(b->first);
    gs_mem_free(b->row);
    gs_mem_free(b->bit);
    gs_mem_free(b);
    x->bits = NULL;
}

void gs_sokoban_bits_load(sok_ctx *x, const int32_t *boxes)
{
    struct sok_bits *b = x->bits;
    memcpy(b->free, b->floor, sizeof *b->free * (size_t)b->rows);
    for (int i = 0; i < x->nboxes; i++)
        gs_sokoban_bits_flip(b, boxes[i]);
}

/* One sweep from row `from` to row `to`, down (step 1) or up (step -1):
 * each row after `from` takes what the row before it reached, filled along
 * its runs. Returns whether a row grew. */
static bool sweep(struct sok_bits *b, int from, int to, int step)
{
    bool grew = false;
    uint64_t prev = b->reach[from];
    for (int r = from + step; r != to + step; r += step) {
        uint64_t in = prev & b->free[r] & ~b->reach[r];
        if (in) {
            b->reach[r] |= row_fill(in, b->free[r]);
            grew = true;
        }
        prev = b->reach[r];
    }
    return grew;
}

int gs_sokoban_bits_area(sok_ctx *x, int from)
{
    struct sok_bits *b = x->bits;
    int last = b->rows - 1;
    memset(b->reach, 0, sizeof *b->reach * (size_t)b->rows);
    int r = b->row[from];
    b->reach[r] = row_fill((uint64_t)1 << b->bit[from], b->free[r]);
    /* Down from the seed's row, then up the whole level, then down
     * again, until a sweep finds nothing new. */
    if (r < last)
        sweep(b, r, last, 1);
    for (bool down = false; last > 0; down = !down)
        if (!(down ? sweep(b, 0, last, 1) : sweep(b, last, 0, -1)))
            break;
    for (r = 0; !b->reach[r]; r++)
        ;
    uint64_t low = b->reach[r] & -b->reach[r];
    return b->first[r] + __builtin_popcountll(b->floor[r] & (low - 1));
}
