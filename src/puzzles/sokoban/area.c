/* area.c - where the player's area goes when one box moves, without a
 * flood per move: the pushes table (perim.c) names a position by the
 * smallest cell of the player's area, and one expansion makes many
 * positions that differ from it by one box each.
 *
 * One analysis of the position before the moves (O(cells)) labels every
 * area of free cells with its smallest cell and finds the articulation
 * points of the player's area A (cells whose loss splits it). A move that
 * fills a cell `in` of A that is no articulation point and frees a box
 * cell `out` leaves A \ {in} in one piece, with the player in it; `out`
 * joins it when beside it, and with `out` every other area beside `out`.
 * So the new smallest cell is a minimum over at most five numbers. Other
 * moves (`in` an articulation point, or outside A) get -1: flood.
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
    a->stack = gs_sokoban_tab_alloc(x, sizeof *a->stack * n, false);
    a->it = gs_sokoban_tab_alloc(x, n, false);
    a->art = gs_sokoban_tab_alloc(x, n, false);
    return a->comp && a->cmin && a->disc && a->low && a->par && a->stack &&
           a->it && a->art;
}

void gs_sokoban_area_free(sok_area *a)
{
    gs_mem_free(a->comp);
    gs_mem_free(a->cmin);
    gs_mem_free(a->disc);
    gs_mem_free(a->low);
    gs_mem_free(a->par);
    gs_mem_free(a->stack);
    gs_mem_free(a->it);
    gs_mem_free(a->art);
    memset(a, 0, sizeof *a);
}

/* Marks the articulation points of the player's area (component a->pc,
 * rooted at p) in a->art: an iterative depth-first search (Tarjan's
 * low-link), a cell u being one when some child v of the search tree
 * cannot reach above u (low[v] >= disc[u]), the root when it has two or
 * more children. */
static void find_articulations(const sok_ctx *x, sok_area *a, int p)
{
    int32_t time = 0, top = 0, rootkids = 0;
    a->disc[p] = a->low[p] = ++time;
    a->par[p] = -1;
    a->it[p] = 0;
    a->stack[top++] = p;
    while (top > 0) {
        int v = a->stack[top - 1];
        if (a->it[v] < 4) {
            int w = x->nb[v * 4 + a->it[v]++];
            if (w < 0 || a->comp[w] != a->pc)
                continue;
            if (a->disc[w] == 0) {
                a->disc[w] = a->low[w] = ++time;
                a->par[w] = v;
                a->it[w] = 0;
                a->stack[top++] = w;
                rootkids += v == p;
            } else if (w != a->par[v] && a->disc[w] < a->low[v]) {
                a->low[v] = a->disc[w];
            }
            continue;
        }
        top--;
        int u = a->par[v];
        if (u < 0)
            continue;
        if (a->low[v] < a->low[u])
            a->low[u] = a->low[v];
        if (u != p && a->low[v] >= a->disc[u])
            a->art[u] = 1;
    }
    a->art[p] = rootkids >= 2;
}

void gs_sokoban_area_analyse(sok_ctx *x, sok_area *a, int p)
{
    int n = x->n;
    for (int c = 0; c < n; c++) {
        a->comp[c] = -1;
        a->disc[c] = 0;
        a->art[c] = 0;
    }
    int nc = 0;
    for (int c = 0; c < n; c++) {
        if (x->occ[c] || a->comp[c] >= 0)
            continue;
        /* Cells are visited in increasing order: c is its area's
         * smallest. */
        int head = 0, tail = 0;
        a->comp[c] = nc;
        a->cmin[nc] = c;
        a->stack[tail++] = c;
        while (head < tail) {
            int u = a->stack[head++];
            for (int d = 0; d < 4; d++) {
                int w = x->nb[u * 4 + d];
                if (w < 0 || x->occ[w] || a->comp[w] >= 0)
                    continue;
                a->comp[w] = nc;
                a->stack[tail++] = w;
            }
        }
        nc++;
    }
    a->pc = a->comp[p];
    /* The two smallest cells of A, for when the smallest one fills. */
    a->min1 = a->min2 = -1;
    for (int c = 0; c < n; c++) {
        if (a->comp[c] != a->pc)
            continue;
        if (a->min1 < 0)
            a->min1 = c;
        else if (a->min2 < 0)
            a->min2 = c;
        else
            break;
    }
    find_articulations(x, a, p);
}

int gs_sokoban_area_min_after(const sok_ctx *x, const sok_area *a, int in,
                              int out)
{
    if (in < 0 || a->comp[in] != a->pc || a->art[in] || a->min2 < 0)
        return -1;
    int m = in == a->min1 ? a->min2 : a->min1;
    bool beside = false;
    for (int d = 0; d < 4; d++) {
        int y = x->nb[out * 4 + d];
        beside |= y >= 0 && y != in && a->comp[y] == a->pc;
    }
    if (!beside)
        return m;
    if (out < m)
        m = out;
    for (int d = 0; d < 4; d++) {
        int y = x->nb[out * 4 + d];
        if (y >= 0 && a->comp[y] >= 0 && a->comp[y] != a->pc &&
            a->cmin[a->comp[y]] < m)
            m = a->cmin[a->comp[y]];
    }
    return m;
}
