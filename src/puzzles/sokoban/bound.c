/* bound.c - the lower bound on pushes: a minimum-cost matching of boxes
 * to goals by push distance (Hungarian method), with the cheap cases taken
 * first (distinct nearest goals; a push towards the matched goal), or the
 * sum of nearest distances on levels too big for tables.
 *
 * A box's push distance is that of the box alone on the level with the
 * player where it is: a push needs the player behind the box, and with
 * the box's own cell blocked the player reaches only some of its sides
 * (the side's "group": sides joined around the box). The distances are
 * kept per (cell, group, goal), and a table says which group of a box
 * cell any player cell is in. Between two pushes of one box the player
 * never crosses that box's cell, so a box's group changes only when the
 * box itself is pushed: a child's matching differs from its parent's in
 * the pushed box's row only, and the bound stays consistent.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

/* Groups the sides of every cell c: two sides are in one group when the
 * player can walk between them with c blocked (walls only otherwise), and
 * x->plab[c * n + p] says which group player cell p is in. One flood per
 * cell per group (without x->plab, into scratch: n bytes); false when
 * past the deadline. */
static bool init_groups(sok_ctx *x, const gs_limits *lim, uint8_t *scratch)
{
    size_t un = (size_t)x->n;
    for (int c = 0; c < x->n; c++) {
        if ((c & 63) == 0 && gs_limits_expired(lim))
            return false;
        uint8_t *lab = x->plab ? x->plab + (size_t)c * un : scratch;
        memset(lab, 0xff, un);
        uint8_t ng = 0;
        for (int s = 0; s < 4; s++) {
            int t = x->nb[c * 4 + s];
            x->pgrp[c * 4 + s] = 0xff;
            if (t < 0)
                continue;
            if (lab[t] != 0xff) {
                x->pgrp[c * 4 + s] = lab[t];
                continue;
            }
            /* A new group: flood from t around c. */
            int head = 0, tail = 0;
            lab[t] = ng;
            x->queue[tail++] = t;
            while (head < tail) {
                int u = x->queue[head++];
                for (int d = 0; d < 4; d++) {
                    int v = x->nb[u * 4 + d];
                    if (v < 0 || v == c || lab[v] != 0xff)
                        continue;
                    lab[v] = ng;
                    x->queue[tail++] = v;
                }
            }
            x->pgrp[c * 4 + s] = ng++;
        }
    }
    return true;
}

/* Pushes to goal `gi` of a box on each (cell, group), alone on the level:
 * a BFS backwards from the goal over (cell, group) states, into
 * x->gdist. A push in direction d from cell c needs the player on c's
 * side d^1, and leaves the box on t = c + d with the player on t's side
 * d^1 (the cell c). */
static void group_bfs(sok_ctx *x, int gi)
{
    size_t ng = (size_t)x->ngoals;
    int32_t *q = x->gqueue;
    int head = 0, tail = 0;
    for (int c = 0; c < x->n; c++)
        for (int k = 0; k < SOK_GROUPS; k++)
            x->gdist[((size_t)c * SOK_GROUPS + (size_t)k) * ng + (size_t)gi] =
                SOK_GDIST_INF;
    int g = x->goals[gi];
    for (int k = 0; k < 4; k++) {
        x->gdist[((size_t)g * SOK_GROUPS + (size_t)k) * ng + (size_t)gi] = 0;
        q[tail++] = g * 4 + k;
    }
    while (head < tail) {
        int t = q[head] / 4, kt = q[head] % 4;
        uint16_t dt =
            x->gdist[((size_t)t * SOK_GROUPS + (size_t)kt) * ng + (size_t)gi];
        head++;
        for (int d = 0; d < 4; d++) {
            /* The box came from c = t - d, the player from c - d. */
            int c = x->nb[t * 4 + (d ^ 1)];
            if (c < 0 || x->pgrp[t * 4 + (d ^ 1)] != kt ||
                x->nb[c * 4 + (d ^ 1)] < 0)
                continue;
            int kc = x->pgrp[c * 4 + (d ^ 1)];
            uint16_t *e = &x->gdist[((size_t)c * SOK_GROUPS + (size_t)kc) * ng +
                                    (size_t)gi];
            if (*e != SOK_GDIST_INF)
                continue;
            *e = (uint16_t)(dt + 1);
            q[tail++] = c * 4 + kc;
        }
    }
    /* The last slot: the nearest group, for when the player's group is
     * not known (no x->plab). */
    for (int c = 0; c < x->n; c++) {
        uint16_t *e = x->gdist + (size_t)c * SOK_GROUPS * ng + (size_t)gi;
        uint16_t m = SOK_GDIST_INF;
        for (int k = 0; k < 4; k++)
            if (e[(size_t)k * ng] < m)
                m = e[(size_t)k * ng];
        e[4 * ng] = m;
    }
}

/* Allocates the matching's scratch (the Hungarian method's rows and
 * columns, the square problem's duals, the kept assignments); false
 * when one allocation failed. */
static bool matching_scratch(sok_ctx *x)
{
    size_t ng = (size_t)x->ngoals, nb = (size_t)x->nboxes;
    x->prow = gs_sokoban_tab_alloc(x, sizeof *x->prow * nb, false);
    x->crow = gs_sokoban_tab_alloc(x, sizeof *x->crow * nb, false);
    x->hu = gs_sokoban_tab_alloc(x, sizeof *x->hu * (ng + 1), false);
    x->hv = gs_sokoban_tab_alloc(x, sizeof *x->hv * (ng + 1), false);
    x->hminv = gs_sokoban_tab_alloc(x, sizeof *x->hminv * (ng + 1), false);
    x->hp = gs_sokoban_tab_alloc(x, sizeof *x->hp * (ng + 1), false);
    x->hway = gs_sokoban_tab_alloc(x, sizeof *x->hway * (ng + 1), false);
    x->hused = gs_sokoban_tab_alloc(x, ng + 1, false);
    x->hzero = gs_sokoban_tab_alloc(x, sizeof *x->hzero * ng, true);
    x->hcols = gs_sokoban_tab_alloc(x, sizeof *x->hcols * 3 * (ng + 1), false);
    x->assign = gs_sokoban_tab_alloc(x, sizeof *x->assign * nb, false);
    x->passign = gs_sokoban_tab_alloc(x, sizeof *x->passign * nb, false);
    if (!x->prow || !x->crow || !x->hu || !x->hv || !x->hminv || !x->hp ||
        !x->hway || !x->hused || !x->hzero || !x->hcols || !x->assign ||
        !x->passign)
        return false;
    if (x->ngoals <= SOK_SQUARE_MAX_GOALS) {
        x->su = gs_sokoban_tab_alloc(x, sizeof *x->su * (ng + 1), false);
        x->sv = gs_sokoban_tab_alloc(x, sizeof *x->sv * (ng + 1), false);
        x->sp = gs_sokoban_tab_alloc(x, sizeof *x->sp * (ng + 1), false);
        if (!x->su || !x->sv || !x->sp)
            return false;
    }
    return true;
}

/* Fills the distance tables, goal by goal, until lim's deadline: 1 when
 * done, 0 when the deadline passed first, -1 when out of memory. */
static int matching_tables(sok_ctx *x, const gs_limits *lim)
{
    uint8_t *scratch = x->plab ? NULL : malloc((size_t)x->n);
    if (!x->plab && !scratch)
        return -1;
    bool done = init_groups(x, lim, scratch);
    free(scratch);
    for (int gi = 0; gi < x->ngoals && done; gi++) {
        if (gs_limits_expired(lim))
            done = false;
        else
            group_bfs(x, gi);
    }
    return done;
}

/* Sets up the per-goal distance tables and the matching scratch when the
 * level is small enough; otherwise the bound is the sum of nearest-goal
 * distances. The tables can take long on a big level, so past the
 * deadline it stops and keeps the sum (the search then answers limit at
 * its first tick). Cells from which no group reaches a goal join the
 * dead squares. Returns false only when an allocation failed. */
bool gs_sokoban_init_matching(sok_ctx *x, const gs_limits *lim)
{
    size_t un = (size_t)x->n, ng = (size_t)x->ngoals;
    if (x->nboxes == 0 || x->nboxes > SOK_MATCH_MAX_BOXES ||
        x->ngoals < x->nboxes || x->n >= (int)SOK_GDIST_INF ||
        ng * un > SOK_GDIST_MAX_ENTRIES)
        return true;
    x->gdist =
        gs_sokoban_tab_alloc(x, sizeof *x->gdist * ng * un * SOK_GROUPS, false);
    x->pgrp = gs_sokoban_tab_alloc(x, un * 4, false);
    /* Huge levels: no table of player groups; boxes take their nearest
     * group's row (the relaxed distance, still a bound). */
    if (un * un <= SOK_GROUP_MAX_ENTRIES) {
        x->plab = gs_sokoban_tab_alloc(x, un * un, false);
        if (!x->plab)
            return false;
    }
    x->gqueue = gs_sokoban_tab_alloc(x, sizeof *x->gqueue * un * 4, false);
    if (!x->gdist || !x->pgrp || !x->gqueue || !matching_scratch(x))
        return false;
    int done = matching_tables(x, lim);
    if (done < 0)
        return false;
    if (!done) {
        gs_mem_free(x->gdist);
        x->gdist = NULL;
        return true;
    }
    for (int c = 0; c < x->n; c++) {
        bool live = false;
        const uint16_t *row = x->gdist + (size_t)c * SOK_GROUPS * ng;
        for (size_t j = 0; j < SOK_GROUPS * ng && !live; j++)
            live = row[j] != SOK_GDIST_INF;
        if (!live)
            x->dead[c] = 1;
    }
    return true;
}

/* The distance row (one entry per goal) of a box on `cell` with the
 * player on `player`. */
static const uint16_t *row_of(const sok_ctx *x, int cell, int player)
{
    size_t k =
        x->plab ? x->plab[(size_t)cell * (size_t)x->n + (size_t)player] : 4;
    return x->gdist + ((size_t)cell * SOK_GROUPS + k) * (size_t)x->ngoals;
}

/* Fills rows[i] for each box with the player on `player`. */
static void fill_rows(const sok_ctx *x, int player, const int32_t *boxes,
                      const uint16_t **rows)
{
    for (int i = 0; i < x->nboxes; i++)
        rows[i] = row_of(x, boxes[i], player);
}

/* The cheap case of match_cost: when each box's nearest goal (first in
 * goal order on ties) is a different goal, the sum of those distances is
 * the minimum (no assignment beats every box's own minimum). Returns
 * false when two boxes share their nearest goal. */
static bool nearest_distinct(sok_ctx *x, const uint16_t *const *rows,
                             uint32_t *cost)
{
    uint32_t sum = 0;
    memset(x->hused, 0, (size_t)x->ngoals);
    for (int i = 0; i < x->nboxes; i++) {
        int best = -1;
        uint16_t bd = SOK_GDIST_INF;
        const uint16_t *row = rows[i];
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

/* The square problem: rows 1..ngoals are the boxes (rows[r-1]) and then
 * dummy rows that cost 0 anywhere, so that every goal ends up matched and
 * a row can be taken out and put back (the duals of a perfect matching
 * stay optimal for the others). Costs of unreachable goals: SOK_UNREACH. */
#define SOK_UNREACH ((int64_t)1 << 30)

/* The cost of row r (a box, or a dummy row past nboxes) to goal j. */
static int64_t sq_cost(const sok_ctx *x, const uint16_t *const *rows, int r,
                       int j)
{
    if (r > x->nboxes)
        return 0;
    uint16_t d = rows[r - 1][j - 1];
    return d == SOK_GDIST_INF ? SOK_UNREACH : d;
}

/* Adds row i to the partial matching p (goal -> row, 0 = free) with
 * feasible duals u, v whose matched pairs are tight: one shortest
 * augmenting path (Hungarian method). Row i's old dual may be anything;
 * the first step makes it feasible. */
static void sq_add_row(sok_ctx *x, const uint16_t *const *rows, int i,
                       int64_t *u, int64_t *v, int *p)
{
    const int64_t big = (int64_t)1 << 50;
    int n = x->ngoals, j0 = 0;
    /* Dijkstra over the columns by reduced cost: dist[j] is column j's
     * distance from row i, absolute, so that a step touches only the
     * columns not reached yet (kept in a list, `open`); the potentials
     * of the columns reached (`done`) move once at the end by how much
     * sooner than the free one they were reached. The textbook form moves
     * them, and every other distance, at each step over all columns:
     * Microban II 131's feature-space search alone, three quarters of
     * its time in here, went from 5.7 to 4.3 s of CPU with the same
     * states. */
    int64_t *dist = x->hminv, d0 = 0;
    int *way = x->hway, *open = x->hcols, *done = x->hcols + n + 1;
    int nopen = n, ndone = 0;
    p[0] = i;
    dist[0] = 0;
    for (int j = 1; j <= n; j++) {
        dist[j] = big;
        open[j - 1] = j;
    }
    do {
        done[ndone++] = j0;
        int i0 = p[j0], j1 = 0, k1 = -1;
        int64_t delta = big, base = d0 - u[i0];
        /* Row i0's distances, read once per step (a dummy row: zeros).
         * The first column at the least distance is taken: which of the
         * optimal matchings comes out does not change its cost, the
         * bound. */
        const uint16_t *row = (i0 <= x->nboxes ? rows[i0 - 1] : x->hzero) - 1;
        for (int k = 0; k < nopen; k++) {
            int j = open[k];
            int64_t c = row[j] == SOK_GDIST_INF ? SOK_UNREACH : row[j];
            int64_t cand = base + c - v[j], dj = dist[j];
            if (cand < dj) {
                dj = dist[j] = cand;
                way[j] = j0;
            }
            if (dj < delta) {
                delta = dj;
                k1 = k;
            }
        }
        j1 = open[k1];
        open[k1] = open[--nopen];
        d0 = delta;
        j0 = j1;
    } while (p[j0] != 0);
    for (int k = 0; k < ndone; k++) {
        int j = done[k];
        u[p[j]] += d0 - dist[j];
        v[j] -= d0 - dist[j];
    }
    do {
        int j1 = way[j0];
        p[j0] = p[j1];
        j0 = j1;
    } while (j0);
}

/* Starts a matching from scratch (u, v, p cleared over ngoals + 1): each
 * box row's dual is its smallest cost, and the row takes that goal (the
 * first on ties) when no earlier row took it. The duals are feasible (v
 * is 0 and no cost is below its row's minimum) and every pair taken is
 * tight, which is all sq_add_row asks; sq_match then adds only the
 * rows left out. On a level whose boxes mostly stand on goals (Microban
 * II 130) nearly every row is matched here, and the whole matching costs
 * little more than one pass over the rows. Returns how many rows it left
 * out, listed in `left`. */
static int sq_seed(sok_ctx *x, const uint16_t *const *rows, int64_t *u, int *p,
                   int *left)
{
    int nleft = 0;
    for (int r = 1; r <= x->nboxes; r++) {
        const uint16_t *row = rows[r - 1];
        int best = 0;
        uint16_t bd = row[0];
        for (int j = 1; j < x->ngoals; j++)
            if (row[j] < bd) {
                bd = row[j];
                best = j;
            }
        u[r] = bd == SOK_GDIST_INF ? SOK_UNREACH : bd;
        if (!p[best + 1])
            p[best + 1] = r;
        else
            left[nleft++] = r;
    }
    return nleft;
}

/* Matches every box row (u, v, p cleared over ngoals + 1): sq_seed, then
 * an augmenting path for each row it left out. */
static void sq_match(sok_ctx *x, const uint16_t *const *rows, int64_t *u,
                     int64_t *v, int *p)
{
    int *left = x->hcols + 2 * (size_t)x->ngoals + 2;
    int nleft = sq_seed(x, rows, u, p, left);
    for (int k = 0; k < nleft; k++)
        sq_add_row(x, rows, left[k], u, v, p);
}

/* The cost of the perfect matching p over the box rows, SOK_INF when it
 * uses an unreachable goal; fills x->assign. */
static uint32_t sq_total(sok_ctx *x, const uint16_t *const *rows, const int *p)
{
    int64_t sum = 0;
    for (int j = 1; j <= x->ngoals; j++) {
        if (p[j] < 1 || p[j] > x->nboxes)
            continue;
        sum += sq_cost(x, rows, p[j], j);
        x->assign[p[j] - 1] = j - 1;
    }
    return sum >= SOK_UNREACH ? SOK_INF : (uint32_t)sum;
}

/* Minimum-cost assignment of boxes (their distance rows) to distinct
 * goals: sq_match from an empty matching (the Hungarian method, at most
 * O(boxes^2 * goals)). Returns SOK_INF when every
 * assignment needs a goal some box cannot reach. */
static uint32_t match_cost(sok_ctx *x, const uint16_t *const *rows)
{
    uint32_t quick;
    if (nearest_distinct(x, rows, &quick))
        return quick;
    size_t n1 = (size_t)x->ngoals + 1;
    memset(x->hu, 0, sizeof *x->hu * n1);
    memset(x->hv, 0, sizeof *x->hv * n1);
    memset(x->hp, 0, sizeof *x->hp * n1);
    sq_match(x, rows, x->hu, x->hv, x->hp);
    return sq_total(x, rows, x->hp);
}

/* A lower bound on the pushes still needed (each push moves one box one
 * cell, changing its distance to any goal by at most one); SOK_INF when the
 * boxes cannot all reach distinct goals. */
uint32_t gs_sokoban_lower_bound(sok_ctx *x, int player, const int32_t *boxes)
{
    if (x->gdist) {
        fill_rows(x, player, boxes, x->crow);
        return match_cost(x, x->crow);
    }
    uint64_t sum = 0;
    for (int i = 0; i < x->nboxes; i++) {
        if (x->near[boxes[i]] == SOK_INF)
            return SOK_INF;
        sum += x->near[boxes[i]];
    }
    return sum >= SOK_INF ? SOK_INF - 1 : (uint32_t)sum;
}

/* ---------------------------------------------- incremental matching */

/* Makes su/sv/sp the optimal square matching of the rows in x->crow.
 * `warm`: they hold it for the rows in x->prow (x->passign its
 * assignment), and the rows that changed (the boxes pushed since, or the
 * player gone to another side of a box: a row is a pointer into the
 * distance tables) are taken out and put back, O(goals^2) each: the next
 * state expanded is mostly a child of the last one (the greedy searches
 * dive), so one or two rows, where a fresh matching adds most rows anew
 * (Microban I 153, `any`'s greedy: the nearest goal is the same for
 * every box). */
static void sq_parent(sok_ctx *x, bool warm)
{
    size_t n1 = (size_t)x->ngoals + 1;
    /* (sq_add_row's scratch is the first two thirds of hcols.) */
    int *changed = x->hcols + 2 * n1, nch = 0;
    for (int i = 0; warm && i < x->nboxes; i++)
        if (x->crow[i] != x->prow[i])
            changed[nch++] = i;
    if (warm && 2 * nch <= x->nboxes) {
        for (int k = 0; k < nch; k++)
            x->sp[x->passign[changed[k]] + 1] = 0;
        for (int k = 0; k < nch; k++)
            sq_add_row(x, x->crow, changed[k] + 1, x->su, x->sv, x->sp);
        return;
    }
    memset(x->su, 0, sizeof *x->su * n1);
    memset(x->sv, 0, sizeof *x->sv * n1);
    memset(x->sp, 0, sizeof *x->sp * n1);
    sq_match(x, x->crow, x->su, x->sv, x->sp);
    for (int r = x->nboxes + 1; r <= x->ngoals; r++)
        sq_add_row(x, x->crow, r, x->su, x->sv, x->sp);
}

/* See sokoban.h: the square solve, duals kept in su/sv/sp, the rows in
 * x->prow. */
uint32_t gs_sokoban_parent_rows(sok_ctx *x)
{
    uint32_t h;
    bool warm = x->sq_ok; /* su/sv/sp match x->prow */
    x->sq_ok = false;
    if (!x->su) {
        h = match_cost(x, x->crow);
    } else if (!nearest_distinct(x, x->crow, &h)) {
        /* Distinct nearest goals need no duals: the children take the
         * cheap paths of match_cost too. */
        x->sq_ok = true;
        sq_parent(x, warm);
        h = sq_total(x, x->crow, x->sp);
    }
    memcpy(x->prow, x->crow, sizeof *x->prow * (size_t)x->nboxes);
    memcpy(x->passign, x->assign, sizeof *x->assign * (size_t)x->nboxes);
    return h;
}

uint32_t gs_sokoban_parent_bound(sok_ctx *x, int player, const int32_t *boxes)
{
    if (!x->gdist)
        return gs_sokoban_lower_bound(x, player, boxes);
    fill_rows(x, player, boxes, x->crow);
    return gs_sokoban_parent_rows(x);
}

/* The child's matching from the parent's: box row i taken out, its goal
 * freed, the row put back as x->crow[i]. O(goals^2). */
static uint32_t sq_child(sok_ctx *x, int i)
{
    size_t n1 = (size_t)x->ngoals + 1;
    memcpy(x->hu, x->su, sizeof *x->hu * n1);
    memcpy(x->hv, x->sv, sizeof *x->hv * n1);
    memcpy(x->hp, x->sp, sizeof *x->hp * n1);
    x->hp[x->passign[i] + 1] = 0;
    sq_add_row(x, x->crow, i + 1, x->hu, x->hv, x->hp);
    return sq_total(x, x->crow, x->hp);
}

/* Whether the parent's matching stays optimal once a box's row is
 * replaced by `row`, the box keeping its goal gi: the row's least
 * reduced cost under the parent's column duals (sv) falls on gi. Then
 * the new row's dual can be that least cost, every dual stays feasible
 * and every matched pair tight, so the matching is optimal
 * (complementary slackness) and only its cost changes. O(goals), against
 * sq_child's copies and augmenting path. */
static bool sq_still_tight(const sok_ctx *x, const uint16_t *row, size_t gi)
{
    const int64_t *v = x->sv + 1;
    int64_t at = (int64_t)row[gi] - v[gi];
    for (int j = 0; j < x->ngoals; j++) {
        int64_t c = row[j] == SOK_GDIST_INF ? SOK_UNREACH : row[j];
        if (c - v[j] < at)
            return false;
    }
    return true;
}

/* See sokoban.h. One step changes each distance by at least -1, so the
 * matching cost by at least -1 (the old matching, re-costed, is a
 * matching of the parent): when the box stepped one closer to its own
 * matched goal the new cost is exactly hp - 1 without a new matching. */
uint32_t gs_sokoban_child_rows(sok_ctx *x, uint32_t hp, int i,
                               const uint16_t *row, bool step)
{
    size_t gi = (size_t)x->passign[i];
    memcpy(x->crow, x->prow, sizeof *x->crow * (size_t)x->nboxes);
    x->crow[i] = row;
    uint16_t dto = row[gi];
    if (step && hp != SOK_INF && dto != SOK_GDIST_INF &&
        dto + 1 == x->prow[i][gi])
        return hp - 1;
    if (x->sq_ok && hp != SOK_INF) {
        if (dto != SOK_GDIST_INF && sq_still_tight(x, row, gi))
            return hp - x->prow[i][gi] + dto;
        return sq_child(x, i);
    }
    return match_cost(x, x->crow);
}

/* The bound after box slot i of the expanded state (bound hp, matching in
 * x->passign) moved from b to `to`, the player then on pl. The other
 * boxes keep their rows (the player did not cross their cells). Without
 * the per-goal tables the sum of nearest distances is updated. */
uint32_t gs_sokoban_child_bound(sok_ctx *x, uint32_t hp, int i, int b, int to,
                                int pl)
{
    if (!x->gdist) {
        if (x->near[to] == SOK_INF)
            return SOK_INF;
        return hp - x->near[b] + x->near[to];
    }
    /* (The shortcut needs a single push: a tunnel macro moves the box
     * further, and its distance to other goals by more than one.) */
    bool step = x->nb[b * 4] == to || x->nb[b * 4 + 1] == to ||
                x->nb[b * 4 + 2] == to || x->nb[b * 4 + 3] == to;
    return gs_sokoban_child_rows(x, hp, i, row_of(x, to, pl), step);
}

/* See sokoban.h: the parent's assignment re-costed with box i's new row. */
uint32_t gs_sokoban_child_upper(const sok_ctx *x, uint32_t hp, int i, int to,
                                int pl)
{
    if (!x->gdist || hp == SOK_INF)
        return SOK_INF;
    size_t gi = (size_t)x->passign[i];
    uint16_t dto = row_of(x, to, pl)[gi];
    if (dto == SOK_GDIST_INF)
        return SOK_INF;
    return hp - x->prow[i][gi] + dto;
}
