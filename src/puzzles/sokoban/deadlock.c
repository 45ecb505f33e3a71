/* deadlock.c - pruning rules: freeze deadlocks (sound for every
 * objective) and PI-corral pruning (keeps solvability; `any` only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sokoban.h"

static int frozen(sok_ctx *x, int b, int *budget);

/* Whether box b cannot move along one axis (d = 0 vertical, 2 horizontal):
 * a wall on either side, dead squares on both, or a frozen box beside it.
 * Returns 0 (may move), 1 (blocked, all boxes of the proof on goals) or 2
 * (blocked, some box of the proof off goal). */
static int axis_blocked(sok_ctx *x, int b, int d, int *budget)
{
    int a = x->nb[b * 4 + d], c = x->nb[b * 4 + d + 1];
    if (a < 0 || c < 0 || (x->dead[a] && x->dead[c]))
        return 1;
    int r;
    /* A box whose test is in progress counts as a wall: the proof is a set
     * of boxes each blocked by walls or other members, so none moves
     * first. */
    if (x->occ[a] && (r = x->mark[a] ? 1 : frozen(x, a, budget)) > 0)
        return r;
    if (x->occ[c] && (r = x->mark[c] ? 1 : frozen(x, c, budget)) > 0)
        return r;
    return 0;
}

/* Whether box b can never move again; same returns as axis_blocked. Past
 * the budget it answers 0 (losing a prune, never a solution). */
static int frozen(sok_ctx *x, int b, int *budget)
{
    if (--*budget < 0)
        return 0;
    x->mark[b] = 1;
    int v = axis_blocked(x, b, 0, budget);
    int h = v ? axis_blocked(x, b, 2, budget) : 0;
    x->mark[b] = 0;
    if (!v || !h)
        return 0;
    return v == 2 || h == 2 || !x->goal[b] ? 2 : 1;
}

/* Whether the box just pushed onto `to` froze itself or a neighbour with
 * a box off goal (x->occ holds the new position). */
bool gs_sokoban_freeze_deadlock(sok_ctx *x, int to)
{
    int budget = SOK_FREEZE_BUDGET;
    if (frozen(x, to, &budget) == 2)
        return true;
    for (int d = 0; d < 4; d++) {
        int t = x->nb[to * 4 + d];
        if (t >= 0 && x->occ[t] && !x->goal[t]) {
            budget = SOK_FREEZE_BUDGET;
            if (frozen(x, t, &budget) == 2)
                return true;
        }
    }
    return false;
}

int gs_sokoban_box_frozen(sok_ctx *x, int b)
{
    int budget = SOK_FREEZE_BUDGET;
    return frozen(x, b, &budget);
}

/* ------------------------------------------------------------ corrals */

/* Whether an empty goal in a corral needs work: only when every goal
 * must be filled. With goals to spare a corral of boxes on goals may be
 * left alone for good, so its pushes need not come first. */
static bool empty_goal_needs_work(const sok_ctx *x)
{
    return x->ngoals == x->nboxes;
}

/* Labels the corral holding the unreachable empty cell `start` with `id`
 * (x->seen == gen marks the player's region, x->occ the boxes) and marks
 * the slots of the boxes next to it in x->inb. Returns whether the corral
 * needs work: an empty goal inside (empty_goal_needs_work), or a box next
 * to it off goal. */
static bool corral_fill(sok_ctx *x, int start, int id)
{
    int head = 0, tail = 0;
    bool work = false, goals = empty_goal_needs_work(x);
    x->corral[start] = id;
    x->queue[tail++] = start;
    memset(x->inb, 0, (size_t)x->nboxes);
    while (head < tail) {
        int c = x->queue[head++];
        work |= goals && x->goal[c];
        for (int d = 0; d < 4; d++) {
            int t = x->nb[c * 4 + d];
            if (t < 0 || x->corral[t] >= 0)
                continue;
            if (x->occ[t]) {
                int i = -2 - x->corral[t]; /* the box's slot */
                if (!x->inb[i]) {
                    x->inb[i] = 1;
                    work |= !x->goal[t];
                }
                continue;
            }
            if (x->seen[t] == x->gen)
                continue;
            x->corral[t] = id;
            x->queue[tail++] = t;
        }
    }
    return work;
}

/* Whether the corral `id` (its boxes in x->inb) is a PI-corral: every push
 * of one of its boxes that the player could make without entering the
 * corral goes into the corral (I), and each of them can be made now (P).
 * Pushes from inside the corral need a push into it first; a push whose
 * player cell is a box or another unreachable area might open up later,
 * so it disqualifies the corral. Counts the pushes in *n. lab[] holds
 * each free cell's corral (x->corral, or the areas' analysis), pa the
 * player's area there (-1: the cells the last flood reached). */
static bool corral_is_pi(sok_ctx *x, const int32_t *lab, int32_t pa, int id,
                         int *n)
{
    *n = 0;
    for (int i = 0; i < x->nboxes; i++) {
        if (!x->inb[i])
            continue;
        int b = x->boxes[i];
        for (int d = 0; d < 4; d++) {
            int from = x->nb[b * 4 + (d ^ 1)], to = x->nb[b * 4 + d];
            if (from < 0 || to < 0 || x->occ[to] || x->dead[to])
                continue; /* never a useful push while `to` is as it is */
            if (!x->occ[from] && lab[from] == id)
                continue; /* from inside: the corral is entered first */
            if (x->occ[from] ||
                (pa < 0 ? x->seen[from] != x->gen : lab[from] != pa))
                return false; /* not possible now, maybe later (P) */
            if (lab[to] != id)
                return false; /* a push out of or along the corral (I) */
            (*n)++;
        }
    }
    return *n > 0;
}

/* Keeps, of x->pushes[0..k), those into corral `best` (lab[] naming each
 * free cell's corral) when it has fewer than k pushes; returns the count
 * kept. */
static int keep_corral(sok_ctx *x, const int32_t *lab, int best, int best_n,
                       int k)
{
    if (best < 0 || best_n >= k)
        return k;
    int m = 0;
    for (int j = 0; j < k; j++) {
        int b = x->boxes[x->pushes[j].box];
        if (lab[x->nb[b * 4 + x->pushes[j].dir]] == best)
            x->pushes[m++] = x->pushes[j];
    }
    return m;
}

/* PI-corral pruning (for `any` only; it keeps solvability, not lengths):
 * when an area the player cannot reach needs work and every push of the
 * boxes around it goes into it and can be made now, some such push comes
 * first in some solution, so the other pushes of this state are dropped.
 * Keeps, of x->pushes[0..k), the pushes of the PI-corral with the fewest
 * pushes, if any; returns the new count. */
int gs_sokoban_pi_corral_prune(sok_ctx *x, int k)
{
    int best_id = -1, best_n = 0, id = 0;
    for (int c = 0; c < x->n; c++)
        x->corral[c] = -1;
    /* A box's cell holds -2 - its slot (corral_fill reads it there). */
    for (int i = 0; i < x->nboxes; i++)
        x->corral[x->boxes[i]] = -2 - i;
    for (int c = 0; c < x->n; c++) {
        if (x->corral[c] >= 0 || x->occ[c] || x->seen[c] == x->gen)
            continue;
        int n;
        if (corral_fill(x, c, id) && corral_is_pi(x, x->corral, -1, id, &n) &&
            (best_id < 0 || n < best_n)) {
            best_id = id;
            best_n = n;
        }
        id++;
    }
    return keep_corral(x, x->corral, best_id, best_n, k);
}

/* corral_fill for area a of the areas' analysis z (its cells are
 * z->order[cstart, cend]): marks the slots of the boxes next to it in
 * x->inb (x->corral holding each box cell's slot); returns whether it
 * needs work. */
static bool corral_scan(sok_ctx *x, const sok_zone *z, int a)
{
    bool work = false, goals = empty_goal_needs_work(x);
    memset(x->inb, 0, (size_t)x->nboxes);
    for (int32_t t = z->cstart[a]; t <= z->cend[a]; t++) {
        int c = z->order[t];
        work |= goals && x->goal[c];
        for (int d = 0; d < 4; d++) {
            int b = x->nb[c * 4 + d];
            if (b < 0 || !x->occ[b] || x->inb[x->corral[b]])
                continue;
            x->inb[x->corral[b]] = 1;
            work |= !x->goal[b];
        }
    }
    return work;
}

int gs_sokoban_pi_corral_prune_zone(sok_ctx *x, const sok_zone *z, int player,
                                    int k)
{
    /* The areas other than the player's are the corrals, numbered as
     * gs_sokoban_pi_corral_prune numbers them (by their smallest cells),
     * so both keep the same pushes. */
    int best_id = -1, best_n = 0, pa = z->comp[player];
    for (int i = 0; i < x->nboxes; i++)
        x->corral[x->boxes[i]] = i;
    for (int a = 0; a < z->ncomp; a++) {
        int n;
        if (a != pa && corral_scan(x, z, a) &&
            corral_is_pi(x, z->comp, pa, a, &n) &&
            (best_id < 0 || n < best_n)) {
            best_id = a;
            best_n = n;
        }
    }
    return keep_corral(x, z->comp, best_id, best_n, k);
}
