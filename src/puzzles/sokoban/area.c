/* area.c - where the player's area goes when one box moves, without a
 * flood per move: the pushes table (perim.c) names a position by the
 * smallest cell of the player's area, and one expansion makes many
 * positions that differ from it by one box each.
 *
 * One analysis of the position before the moves (O(cells)) runs a
 * depth-first search of the player's area A (gs_sokoban_dfs, which
 * zone.c shares), which finds its
 * articulation points (cells whose loss splits it) and the discovery
 * times of every subtree; other areas of free cells are labelled with
 * their smallest cell only when a move frees a cell beside them. A move
 * fills a cell `in` of A and frees a box cell `out`. When `in` is no
 * articulation point, A \ {in} stays in one piece with the player in it;
 * `out` joins it when beside it, and with `out` every other area beside
 * `out`, so the new smallest cell is a minimum over at most five numbers.
 * When it is one, the pieces cut off are the subtrees of `in`'s children
 * that cannot reach above it: a cell's piece is read off its discovery
 * time, and the smallest cell is the first one found in the area. Either
 * way a cell's membership costs a few compares (gs_sokoban_after_has),
 * which is all sym.c needs to name the images. (zone.c does the like for
 * `any`'s pushes, where it also counts the areas.)
 */
#include <string.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

bool gs_sokoban_area_alloc(sok_ctx *x, sok_area *a)
{
    size_t n = (size_t)x->n;
    a->comp = gs_sokoban_tab_alloc(x, sizeof *a->comp * n, false);
    a->cmin = gs_sokoban_tab_alloc(x, sizeof *a->cmin * n, false);
    a->disc = gs_sokoban_tab_alloc(x, sizeof *a->disc * n, false);
    a->low = gs_sokoban_tab_alloc(x, sizeof *a->low * n, false);
    a->par = gs_sokoban_tab_alloc(x, sizeof *a->par * n, false);
    a->fin = gs_sokoban_tab_alloc(x, sizeof *a->fin * n, false);
    a->stack = gs_sokoban_tab_alloc(x, sizeof *a->stack * n, false);
    a->it = gs_sokoban_tab_alloc(x, n, false);
    return a->comp && a->cmin && a->disc && a->low && a->par && a->fin &&
           a->stack && a->it;
}

void gs_sokoban_area_free(sok_area *a)
{
    gs_mem_free(a->comp);
    gs_mem_free(a->cmin);
    gs_mem_free(a->disc);
    gs_mem_free(a->low);
    gs_mem_free(a->par);
    gs_mem_free(a->fin);
    gs_mem_free(a->stack);
    gs_mem_free(a->it);
    memset(a, 0, sizeof *a);
}

/* The area number of free cell c, labelling its area first when no
 * search has (areas other than the player's are labelled only when a
 * move frees a cell beside them). */
static int32_t area_label(const sok_ctx *x, sok_area *a, int c)
{
    if (a->comp[c] != SOK_DFS_UNSEEN)
        return a->comp[c];
    int32_t k = a->ncomp++;
    int head = 0, tail = 0, lo = c;
    a->comp[c] = k;
    a->stack[tail++] = c;
    while (head < tail) {
        int u = a->stack[head++];
        for (int d = 0; d < 4; d++) {
            int w = x->nb[u * 4 + d];
            if (w < 0 || a->comp[w] != SOK_DFS_UNSEEN)
                continue;
            a->comp[w] = k;
            a->stack[tail++] = w;
            lo = w < lo ? w : lo;
        }
    }
    a->cmin[k] = lo;
    return k;
}

void gs_sokoban_area_analyse(sok_ctx *x, sok_area *a, int p)
{
    int n = x->n;
    for (int c = 0; c < n; c++)
        a->comp[c] = x->occ[c] ? SOK_DFS_BOX : SOK_DFS_UNSEEN;
    a->pc = 0;
    a->ncomp = 1;
    const sok_dfs d = {a->comp,  a->disc, a->low, a->par, a->fin,
                       a->stack, a->it,   NULL,   NULL};
    gs_sokoban_dfs(x, &d, p, 0, 0);
    /* The two smallest cells of A, for when the smallest one fills. */
    a->min1 = a->min2 = -1;
    for (int c = 0; c < n; c++) {
        if (a->comp[c] != 0)
            continue;
        if (a->min1 < 0)
            a->min1 = c;
        else if (a->min2 < 0)
            a->min2 = c;
        else
            break;
    }
    a->cmin[0] = a->min1;
}

/* Fills af's cuts: the subtrees of in's children that cannot reach above
 * `in` (for the root, every child's), none when `in` is no articulation
 * point (a root with one child). */
static void after_cuts(const sok_ctx *x, const sok_area *a, int in,
                       sok_after *af)
{
    af->ncut = 0;
    for (int d = 0; d < 4; d++) {
        int w = x->nb[in * 4 + d];
        if (w < 0 || a->comp[w] != a->pc || a->par[w] != in ||
            a->low[w] < a->disc[in])
            continue;
        af->cut_lo[af->ncut] = a->disc[w];
        af->cut_hi[af->ncut++] = a->fin[w];
    }
    if (a->par[in] < 0 && af->ncut < 2)
        af->ncut = 0;
}

bool gs_sokoban_area_after(const sok_ctx *x, sok_area *a, int in, int out,
                           int pl, sok_after *af)
{
    if (in < 0 || a->comp[in] != a->pc || a->min2 < 0)
        return false;
    af->a = a;
    af->in = in;
    af->out = out;
    af->nadj = 0;
    af->ncut = 0;
    af->keep = 0x1f;
    af->min = -1;
    after_cuts(x, a, in, af);
    /* The pieces beside `out`; `out` joins the player's area when the
     * player stands on it or its piece is among them. */
    unsigned near = 0;
    for (int d = 0; d < 4; d++) {
        int y = x->nb[out * 4 + d];
        if (y >= 0 && y != in && a->comp[y] == a->pc)
            near |= 1u << gs_sokoban_after_piece(af, y);
    }
    if (pl == out) {
        af->beside = near != 0;
        if (!af->beside)
            return false; /* the player shut in on `out` alone */
    } else {
        if (pl == in || a->comp[pl] != a->pc)
            return false;
        unsigned mine = 1u << gs_sokoban_after_piece(af, pl);
        af->beside = (near & mine) != 0;
        near = af->beside ? near : mine;
    }
    if (af->ncut)
        af->keep = near;
    if (!af->beside) {
        if (!af->ncut)
            af->min = in == a->min1 ? a->min2 : a->min1;
        return true;
    }
    for (int d = 0; d < 4; d++) {
        int y = x->nb[out * 4 + d];
        if (y < 0 || a->comp[y] == SOK_DFS_BOX || a->comp[y] == a->pc)
            continue;
        int32_t k = area_label(x, a, y);
        bool have = false;
        for (int i = 0; i < af->nadj; i++)
            have |= af->adj[i] == k;
        if (!have)
            af->adj[af->nadj++] = k;
    }
    if (!af->ncut) {
        /* A \ {in} whole, out, and the areas beside out. */
        int m = in == a->min1 ? a->min2 : a->min1;
        if (out < m)
            m = out;
        for (int i = 0; i < af->nadj; i++)
            if (a->cmin[af->adj[i]] < m)
                m = a->cmin[af->adj[i]];
        af->min = m;
    }
    return true;
}

int gs_sokoban_after_min(const sok_ctx *x, sok_after *af)
{
    if (af->min < 0)
        for (int c = 0; c < x->n; c++)
            if (gs_sokoban_after_has(af, c)) {
                af->min = c;
                break;
            }
    return af->min;
}
