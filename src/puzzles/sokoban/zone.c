/* zone.c - the areas of free cells after one push of `any`, without a
 * flood per child: `any` names a state's player by the smallest cell of
 * its area, and the greedy and feature-space searches count the areas the
 * player is shut out of (pack.c, gs_sokoban_regions); both took a flood
 * of the whole level per child.
 *
 * One depth-first search of every area of the expanded position (O(cells);
 * gs_sokoban_dfs, which area.c shares for the player's area) records each
 * cell's area, discovery time, subtree (the times [disc, fin]), low link and
 * subtree minimum, and per area the minimum of every prefix and suffix of its
 * cells in discovery order. A push fills one free cell `in` and frees the box's
 * cell `out`, where the player then stands. Filling `in` splits its area into
 * pieces: one per child v of `in` in the search tree that cannot reach above it
 * (low[v] >= disc[in]; at the root every child), and the rest (the parent's
 * piece: the area's times before and after in's subtree, with the subtrees of
 * in's other children). `out` joins every piece or area beside it. Each piece's
 * smallest cell comes from the subtree minima and the prefix and suffix
 * minima, so a child costs a look at the cells around `in` and `out`.
 */
#include <string.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

bool gs_sokoban_zone_alloc(sok_ctx *x, sok_zone *z)
{
    size_t n = (size_t)x->n;
    int32_t **tabs[] = {&z->comp, &z->cmin, &z->cstart, &z->cend, &z->disc,
                        &z->low,  &z->par,  &z->fin,    &z->smin, &z->order,
                        &z->pre,  &z->suf,  &z->stack};
    bool ok = true;
    for (size_t i = 0; i < sizeof tabs / sizeof *tabs; i++) {
        *tabs[i] = gs_sokoban_tab_alloc(x, sizeof(int32_t) * n, false);
        ok = ok && *tabs[i];
    }
    z->it = gs_sokoban_tab_alloc(x, n, false);
    z->cut = gs_sokoban_tab_alloc(x, n, false);
    return ok && z->it && z->cut;
}

void gs_sokoban_zone_free(sok_zone *z)
{
    int32_t *tabs[] = {z->comp, z->cmin, z->cstart, z->cend, z->disc,
                       z->low,  z->par,  z->fin,    z->smin, z->order,
                       z->pre,  z->suf,  z->stack};
    for (size_t i = 0; i < sizeof tabs / sizeof *tabs; i++)
        gs_mem_free(tabs[i]);
    gs_mem_free(z->it);
    gs_mem_free(z->cut);
    memset(z, 0, sizeof *z);
}

/* gs_sokoban_dfs for fixed choices of the optional tables (the compiler
 * makes one copy each, without their tests). The cell being searched and
 * its next direction stay in registers; the stack holds its ancestors,
 * each with its own next direction in it[]. */
static inline __attribute__((always_inline)) int32_t
dfs_area(const sok_ctx *x, const sok_dfs *d, int r, int32_t nc, int32_t t,
         bool keep_order, bool keep_smin)
{
    int32_t *comp = d->comp, *disc = d->disc, *low = d->low, *par = d->par;
    const int32_t *nb = x->nb;
    int top = 0, v = r, i = 0;
    comp[r] = nc;
    disc[r] = low[r] = t;
    if (keep_order)
        d->order[t] = r;
    t++;
    par[r] = -1;
    if (keep_smin)
        d->smin[r] = r;
    for (;;) {
        if (i < 4) {
            int w = nb[v * 4 + i++];
            if (w < 0 || comp[w] == SOK_DFS_BOX)
                continue;
            if (comp[w] == SOK_DFS_UNSEEN) {
                d->it[v] = (uint8_t)i;
                d->stack[top++] = v;
                comp[w] = nc;
                disc[w] = low[w] = t;
                if (keep_order)
                    d->order[t] = w;
                t++;
                par[w] = v;
                if (keep_smin)
                    d->smin[w] = w;
                v = w;
                i = 0;
            } else if (w != par[v] && disc[w] < low[v]) {
                low[v] = disc[w];
            }
            continue;
        }
        d->fin[v] = t - 1;
        if (top == 0)
            return t;
        int u = d->stack[--top];
        if (low[v] < low[u])
            low[u] = low[v];
        if (keep_smin && d->smin[v] < d->smin[u])
            d->smin[u] = d->smin[v];
        v = u;
        i = d->it[u];
    }
}

int32_t gs_sokoban_dfs(const sok_ctx *x, const sok_dfs *d, int r, int32_t nc,
                       int32_t t)
{
    if (d->order && d->smin)
        return dfs_area(x, d, r, nc, t, true, true);
    if (d->order)
        return dfs_area(x, d, r, nc, t, true, false);
    if (d->smin)
        return dfs_area(x, d, r, nc, t, false, true);
    return dfs_area(x, d, r, nc, t, false, false);
}

/* Whether child v of `in` (in the search tree) is cut off from the rest
 * of the area when `in` fills. */
static bool cut_off(const sok_zone *z, int in, int v)
{
    return z->par[in] < 0 || z->low[v] >= z->disc[in];
}

void gs_sokoban_zone_analyse(sok_ctx *x, sok_zone *z)
{
    int n = x->n;
    for (int c = 0; c < n; c++)
        z->comp[c] = x->occ[c] ? SOK_DFS_BOX : SOK_DFS_UNSEEN;
    const sok_dfs d = {z->comp,  z->disc, z->low,   z->par, z->fin,
                       z->stack, z->it,   z->order, z->smin};
    int32_t nc = 0, t = 0;
    for (int c = 0; c < n; c++) {
        if (z->comp[c] != SOK_DFS_UNSEEN)
            continue;
        /* Cells are visited in increasing order: c is its area's
         * smallest. */
        z->cmin[nc] = c;
        z->cstart[nc] = t;
        int32_t end = gs_sokoban_dfs(x, &d, c, nc, t);
        z->cend[nc] = end - 1;
        int32_t m = n;
        for (int32_t i = t; i < end; i++) {
            if (z->order[i] < m)
                m = z->order[i];
            z->pre[i] = m;
        }
        m = n;
        for (int32_t i = end; i-- > t;) {
            if (z->order[i] < m)
                m = z->order[i];
            z->suf[i] = m;
        }
        t = end;
        nc++;
    }
    z->ncomp = nc;
    /* Whether filling each cell cuts a child's subtree off (at the root,
     * any child's): piece_of then looks at no neighbour of most cells. */
    for (int c = 0; c < n; c++)
        z->cut[c] = 0;
    for (int c = 0; c < n; c++) {
        int u = z->comp[c] >= 0 ? z->par[c] : -1;
        if (u >= 0 && cut_off(z, u, c))
            z->cut[u] = 1;
    }
}

/* The piece holding free cell y (y != in) once `in` fills: another area
 * (its number), a cut-off child's subtree (-2 - child), or the rest of
 * in's area (-1). */
static int32_t piece_of(const sok_ctx *x, const sok_zone *z, int in, int y)
{
    int32_t area = z->comp[in];
    if (z->comp[y] != area)
        return z->comp[y];
    if (!z->cut[in])
        return -1;
    for (int d = 0; d < 4; d++) {
        int w = x->nb[in * 4 + d];
        if (w >= 0 && z->comp[w] == area && z->par[w] == in &&
            cut_off(z, in, w) && z->disc[w] <= z->disc[y] &&
            z->disc[y] <= z->fin[w])
            return -2 - w;
    }
    return -1;
}

/* The smallest cell of piece `key` (piece_of) once `in` fills. The rest
 * of in's area: its cells before in's subtree and after it (prefix and
 * suffix minima). (It also holds the subtrees of in's children not cut
 * off, but those never hold its smallest cell: the search starts each
 * area at its smallest cell, which comes before in unless in is the
 * root, and at the root every child is cut off.) */
static int32_t piece_min(const sok_ctx *x, const sok_zone *z, int in,
                         int32_t key)
{
    if (key >= 0)
        return z->cmin[key];
    if (key <= -2)
        return z->smin[-2 - key];
    int32_t area = z->comp[in];
    int32_t lo = z->disc[in] > z->cstart[area] ? z->pre[z->disc[in] - 1] : x->n;
    if (z->fin[in] < z->cend[area] && z->suf[z->fin[in] + 1] < lo)
        lo = z->suf[z->fin[in] + 1];
    return lo;
}

/* Whether the analysis can tell a move of the box on `out` onto `in`:
 * in free, out a box, not the same cell. */
static bool box_moves(const sok_zone *z, int in, int out)
{
    return in >= 0 && out >= 0 && in != out && z->comp[in] >= 0 &&
           z->comp[out] < 0;
}

/* The distinct pieces (piece_of) beside `out`, which join it once the box
 * leaves it, into grp; returns how many. */
static int pieces_beside(const sok_ctx *x, const sok_zone *z, int in, int out,
                         int32_t grp[4])
{
    int ng = 0;
    for (int d = 0; d < 4; d++) {
        int y = x->nb[out * 4 + d];
        if (y < 0 || y == in || z->comp[y] < 0)
            continue;
        int32_t key = piece_of(x, z, in, y);
        bool dup = false;
        for (int j = 0; j < ng; j++)
            dup |= grp[j] == key;
        if (!dup)
            grp[ng++] = key;
    }
    return ng;
}

int gs_sokoban_zone_push(const sok_ctx *x, const sok_zone *z, int in, int out,
                         int pl, int *regions)
{
    if (!box_moves(z, in, out) || pl < 0 || pl == in ||
        (pl != out && z->comp[pl] < 0))
        return -1;
    int32_t area = z->comp[in];
    /* Pieces of in's area once it fills: the cut-off children, and the
     * rest when in is not the root. */
    int m = z->par[in] >= 0;
    for (int d = 0; d < 4; d++) {
        int w = x->nb[in * 4 + d];
        if (w >= 0 && z->comp[w] == area && z->par[w] == in)
            m += cut_off(z, in, w);
    }
    /* The pieces beside out join it. */
    int32_t grp[4];
    int ng = pieces_beside(x, z, in, out, grp);
    *regions = z->ncomp - 1 + m + 1 - ng;
    if (pl != out) {
        /* The player's piece, unless it is one of those that join. */
        int32_t pkey = piece_of(x, z, in, pl);
        bool joins = false;
        for (int j = 0; j < ng; j++)
            joins |= grp[j] == pkey;
        if (!joins)
            return piece_min(x, z, in, pkey);
    }
    int32_t lo = out;
    for (int j = 0; j < ng; j++) {
        int32_t gmin = piece_min(x, z, in, grp[j]);
        if (gmin < lo)
            lo = gmin;
    }
    return lo;
}

unsigned gs_sokoban_zone_sides(const sok_ctx *x, const sok_zone *z, int in,
                               int out, int side)
{
    if (!box_moves(z, in, out))
        return SOK_SIDES_UNKNOWN;
    /* The pieces beside `out` join it: one key for them all. */
    const int32_t joined = INT32_MIN;
    int32_t grp[4];
    int ng = pieces_beside(x, z, in, out, grp);
    int32_t key[4];
    for (int d = 0; d < 4; d++) {
        int y = x->nb[in * 4 + d];
        if (y < 0 || (y != out && z->comp[y] < 0)) {
            key[d] = joined + 1; /* a wall or a box: no side */
            continue;
        }
        key[d] = y == out ? joined : piece_of(x, z, in, y);
        for (int j = 0; j < ng; j++)
            if (key[d] == grp[j])
                key[d] = joined;
    }
    if (key[side] == joined + 1)
        return 0;
    unsigned got = 0;
    for (int d = 0; d < 4; d++)
        if (key[d] != joined + 1 && key[d] == key[side])
            got |= 1u << d;
    return got;
}
