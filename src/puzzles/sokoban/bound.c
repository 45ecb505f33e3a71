/* bound.c - the lower bound on pushes: a minimum-cost matching of boxes
 * to goals by relaxed push distance (Hungarian method), with the cheap
 * cases taken first (distinct nearest goals; a push towards the matched
 * goal), or the sum of nearest distances on levels too big for tables.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

/* Sets up the per-goal distance tables and the matching scratch when the
 * level is small enough; otherwise the bound is the sum of nearest-goal
 * distances. One pull BFS per goal can take long on a big level, so past
 * the deadline it stops and keeps the sum (the search then answers limit
 * at its first tick). Returns false only when an allocation failed. */
bool gs_sokoban_init_matching(sok_ctx *x, const gs_limits *lim)
{
    size_t un = (size_t)x->n, ng = (size_t)x->ngoals;
    if (x->nboxes == 0 || x->nboxes > SOK_MATCH_MAX_BOXES ||
        x->ngoals < x->nboxes || x->n >= (int)SOK_GDIST_INF ||
        ng * un > SOK_GDIST_MAX_ENTRIES)
        return true;
    x->gdist = gs_sokoban_tab_alloc(x, sizeof *x->gdist * ng * un, false);
    x->hu = gs_sokoban_tab_alloc(x, sizeof *x->hu * (ng + 1), false);
    x->hv = gs_sokoban_tab_alloc(x, sizeof *x->hv * (ng + 1), false);
    x->hminv = gs_sokoban_tab_alloc(x, sizeof *x->hminv * (ng + 1), false);
    x->hp = gs_sokoban_tab_alloc(x, sizeof *x->hp * (ng + 1), false);
    x->hway = gs_sokoban_tab_alloc(x, sizeof *x->hway * (ng + 1), false);
    x->hused = gs_sokoban_tab_alloc(x, ng + 1, false);
    x->assign =
        gs_sokoban_tab_alloc(x, sizeof *x->assign * (size_t)x->nboxes, false);
    x->passign =
        gs_sokoban_tab_alloc(x, sizeof *x->passign * (size_t)x->nboxes, false);
    if (!x->gdist || !x->hu || !x->hv || !x->hminv || !x->hp || !x->hway ||
        !x->hused || !x->assign || !x->passign)
        return false;
    if (x->ngoals <= SOK_SQUARE_MAX_GOALS) {
        x->su = gs_sokoban_tab_alloc(x, sizeof *x->su * (ng + 1), false);
        x->sv = gs_sokoban_tab_alloc(x, sizeof *x->sv * (ng + 1), false);
        x->sp = gs_sokoban_tab_alloc(x, sizeof *x->sp * (ng + 1), false);
        x->rowcell = gs_sokoban_tab_alloc(
            x, sizeof *x->rowcell * (size_t)x->nboxes, false);
        if (!x->su || !x->sv || !x->sp || !x->rowcell)
            return false;
    }
    for (int gi = 0; gi < x->ngoals; gi++) {
        if (gs_limits_expired(lim)) {
            gs_mem_free(x->gdist);
            x->gdist = NULL;
            return true;
        }
        gs_sokoban_pull_bfs(x, gi, x->dist); /* dist is free scratch here */
        /* Cell-major, so one box's distances to all goals are adjacent. */
        for (int i = 0; i < x->n; i++)
            x->gdist[(size_t)i * ng + (size_t)gi] =
                x->dist[i] == SOK_INF ? SOK_GDIST_INF : (uint16_t)x->dist[i];
    }
    return true;
}

/* The cheap case of match_cost: when each box's nearest goal (first in
 * goal order on ties) is a different goal, the sum of those distances is
 * the minimum (no assignment beats every box's own minimum). Returns
 * false when two boxes share their nearest goal. */
static bool nearest_distinct(sok_ctx *x, const int32_t *boxes, uint32_t *cost)
{
    uint32_t sum = 0;
    memset(x->hused, 0, (size_t)x->ngoals);
    for (int i = 0; i < x->nboxes; i++) {
        int best = -1;
        uint16_t bd = SOK_GDIST_INF;
        const uint16_t *row = x->gdist + (size_t)boxes[i] * (size_t)x->ngoals;
        for (int j = 0; j < x->ngoals; j++) {
            uint16_t d = row[j];
            if (d < bd) {
                bd = d;
                best = j;
            }
        }
        if (best < 0 || x->hused[best])
            return false; /* unreachable boxes: let the matching decide */
        x->hused[best] = 1;
        x->assign[i] = best;
        sum += bd;
    }
    *cost = sum;
    return true;
}

/* ------------------------------------------------------------- matching */

/* The square problem: rows 1..ngoals are the boxes (cells[r-1]) and then
 * dummy rows that cost 0 anywhere, so that every goal ends up matched and
 * a row can be taken out and put back (the duals of a perfect matching
 * stay optimal for the others). Costs of unreachable goals: SOK_UNREACH. */
#define SOK_UNREACH ((int64_t)1 << 30)

/* The cost of row r (a box, or a dummy row past nboxes) to goal j. */
static int64_t sq_cost(const sok_ctx *x, const int32_t *cells, int r, int j)
{
    if (r > x->nboxes)
        return 0;
    uint16_t d = x->gdist[(size_t)cells[r - 1] * (size_t)x->ngoals + j - 1];
    return d == SOK_GDIST_INF ? SOK_UNREACH : d;
}

/* Adds row i to the partial matching p (goal -> row, 0 = free) with
 * feasible duals u, v whose matched pairs are tight: one shortest
 * augmenting path (Hungarian method). Row i's old dual may be anything;
 * the first step makes it feasible. */
static void sq_add_row(sok_ctx *x, const int32_t *cells, int i, int64_t *u,
                       int64_t *v, int *p)
{
    const int64_t big = (int64_t)1 << 50;
    int n = x->ngoals, j0 = 0;
    int64_t *minv = x->hminv;
    int *way = x->hway;
    p[0] = i;
    for (int j = 0; j <= n; j++) {
        minv[j] = big;
        x->hused[j] = 0;
    }
    do {
        x->hused[j0] = 1;
        int i0 = p[j0], j1 = 0;
        int64_t delta = big;
        /* Row i0's distances, read once per step (NULL: a dummy row). */
        const uint16_t *row =
            i0 <= x->nboxes ? x->gdist + (size_t)cells[i0 - 1] * (size_t)n - 1
                            : NULL;
        for (int j = 1; j <= n; j++) {
            if (x->hused[j])
                continue;
            int64_t c = !row                      ? 0
                        : row[j] == SOK_GDIST_INF ? SOK_UNREACH
                                                  : row[j];
            int64_t cur = c - u[i0] - v[j];
            if (cur < minv[j]) {
                minv[j] = cur;
                way[j] = j0;
            }
            if (minv[j] < delta) {
                delta = minv[j];
                j1 = j;
            }
        }
        for (int j = 0; j <= n; j++) {
            if (x->hused[j]) {
                u[p[j]] += delta;
                v[j] -= delta;
            } else {
                minv[j] -= delta;
            }
        }
        j0 = j1;
    } while (p[j0] != 0);
    do {
        int j1 = way[j0];
        p[j0] = p[j1];
        j0 = j1;
    } while (j0);
}

/* The cost of the perfect matching p over the box rows, SOK_INF when it
 * uses an unreachable goal; fills x->assign. */
static uint32_t sq_total(sok_ctx *x, const int32_t *cells, const int *p)
{
    int64_t sum = 0;
    for (int j = 1; j <= x->ngoals; j++) {
        if (p[j] < 1 || p[j] > x->nboxes)
            continue;
        sum += sq_cost(x, cells, p[j], j);
        x->assign[p[j] - 1] = j - 1;
    }
    return sum >= SOK_UNREACH ? SOK_INF : (uint32_t)sum;
}

/* Minimum-cost assignment of boxes to distinct goals: the boxes' rows
 * added one by one to an empty matching (sq_add_row, the Hungarian
 * method, O(boxes^2 * goals)). Returns SOK_INF when every assignment
 * needs a goal some box cannot reach. */
static uint32_t match_cost(sok_ctx *x, const int32_t *boxes)
{
    uint32_t quick;
    if (nearest_distinct(x, boxes, &quick))
        return quick;
    size_t n1 = (size_t)x->ngoals + 1;
    memset(x->hu, 0, sizeof *x->hu * n1);
    memset(x->hv, 0, sizeof *x->hv * n1);
    memset(x->hp, 0, sizeof *x->hp * n1);
    for (int r = 1; r <= x->nboxes; r++)
        sq_add_row(x, boxes, r, x->hu, x->hv, x->hp);
    return sq_total(x, boxes, x->hp);
}

/* A lower bound on the pushes still needed (each push moves one box one
 * cell, changing its distance to any goal by at most one); SOK_INF when the
 * boxes cannot all reach distinct goals. */
uint32_t gs_sokoban_lower_bound(sok_ctx *x, const int32_t *boxes)
{
    if (x->gdist)
        return match_cost(x, boxes);
    uint64_t sum = 0;
    for (int i = 0; i < x->nboxes; i++) {
        if (x->near[boxes[i]] == SOK_INF)
            return SOK_INF;
        sum += x->near[boxes[i]];
    }
    return sum >= SOK_INF ? SOK_INF - 1 : (uint32_t)sum;
}

/* ---------------------------------------------- incremental matching */

/* See sokoban.h: the full square solve, duals kept in su/sv/sp. */
uint32_t gs_sokoban_parent_bound(sok_ctx *x, const int32_t *boxes)
{
    if (!x->gdist)
        return gs_sokoban_lower_bound(x, boxes);
    uint32_t h;
    x->sq_ok = false;
    if (!x->su) {
        h = match_cost(x, boxes);
    } else if (!nearest_distinct(x, boxes, &h)) {
        /* Distinct nearest goals need no duals: the children take the
         * cheap paths of match_cost too. */
        x->sq_ok = true;
        size_t n1 = (size_t)x->ngoals + 1;
        memset(x->su, 0, sizeof *x->su * n1);
        memset(x->sv, 0, sizeof *x->sv * n1);
        memset(x->sp, 0, sizeof *x->sp * n1);
        for (int r = 1; r <= x->ngoals; r++)
            sq_add_row(x, boxes, r, x->su, x->sv, x->sp);
        h = sq_total(x, boxes, x->sp);
    }
    memcpy(x->passign, x->assign, sizeof *x->assign * (size_t)x->nboxes);
    return h;
}

/* The child's matching from the parent's: box row i taken out, its goal
 * freed, the row put back with the box on `to`. O(goals^2). */
static uint32_t sq_child(sok_ctx *x, int i, int to)
{
    size_t n1 = (size_t)x->ngoals + 1;
    memcpy(x->hu, x->su, sizeof *x->hu * n1);
    memcpy(x->hv, x->sv, sizeof *x->hv * n1);
    memcpy(x->hp, x->sp, sizeof *x->hp * n1);
    memcpy(x->rowcell, x->boxes, sizeof *x->rowcell * (size_t)x->nboxes);
    x->rowcell[i] = to;
    x->hp[x->passign[i] + 1] = 0;
    sq_add_row(x, x->rowcell, i + 1, x->hu, x->hv, x->hp);
    return sq_total(x, x->rowcell, x->hp);
}

/* The bound after box slot i of the expanded state (bound hp, matching in
 * x->passign) moved from b to `to`; x->child holds the new boxes. One push
 * changes the matching cost by at least -1 (the old matching, re-costed,
 * is a matching of the parent), so when the box stepped one closer to its
 * own matched goal the new cost is exactly hp - 1 without a new matching.
 * Without the per-goal tables the sum of nearest distances is updated. */
uint32_t gs_sokoban_child_bound(sok_ctx *x, uint32_t hp, int i, int b, int to)
{
    if (!x->gdist) {
        if (x->near[to] == SOK_INF)
            return SOK_INF;
        return hp - x->near[b] + x->near[to];
    }
    size_t ng = (size_t)x->ngoals, gi = (size_t)x->passign[i];
    uint16_t dto = x->gdist[(size_t)to * ng + gi];
    /* (The shortcut needs a single push: a tunnel macro moves the box
     * further, and its distance to other goals by more than one.) */
    if (hp != SOK_INF && dto != SOK_GDIST_INF &&
        dto + 1 == x->gdist[(size_t)b * ng + gi] &&
        (x->nb[b * 4] == to || x->nb[b * 4 + 1] == to ||
         x->nb[b * 4 + 2] == to || x->nb[b * 4 + 3] == to))
        return hp - 1;
    if (x->sq_ok && hp != SOK_INF)
        return sq_child(x, i, to);
    return match_cost(x, x->child);
}
