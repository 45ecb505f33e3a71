/* corral.c - corral deadlocks for `any`'s greedy phase: an area the
 * player cannot reach, fenced by boxes that can never be moved so as to
 * let the player in or to stand all on goals.
 *
 * The test is a small search of a relaxed level: only the boxes touching
 * the corral (its fence) are kept, the others removed. Removing boxes
 * only makes pushes possible, so a solution of the real level, cut down
 * to the fence's pushes, is a push sequence of the relaxed one; along it
 * either the player enters the corral (a fence box must have moved: no
 * box outside the fence touches the corral) or the fence ends on goals.
 * When the relaxed search runs out of positions without reaching either,
 * no solution exists: the state is dead. When it hits its size cap, the
 * state counts as alive. So the rule is sound, and it is only used where
 * greedy search already runs (search.c): `impossible` keeps its proof.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sokoban.h"

/* One relaxed position: the fence boxes (SOK_CORRAL_MAX_BOXES cells,
 * sorted) and the player's cell, in x->cstates. */
#define SLOT (SOK_CORRAL_MAX_BOXES + 1)

bool gs_sokoban_corral_init(sok_ctx *x)
{
    x->cmark = gs_sokoban_tab_alloc(x, sizeof *x->cmark * (size_t)x->n, true);
    x->cstates = gs_sokoban_tab_alloc(
        x, sizeof *x->cstates * SOK_CORRAL_MAX_STATES * SLOT, false);
    x->chash = gs_sokoban_tab_alloc(
        x, sizeof *x->chash * SOK_CORRAL_MAX_STATES * 2, false);
    x->cgen = 0;
    return x->cmark && x->cstates && x->chash;
}

/* The hash of a position's SLOT cells. */
static uint32_t pos_hash(const int32_t *p)
{
    uint32_t h = 2166136261u;
    for (int i = 0; i < SLOT; i++) {
        h ^= (uint32_t)p[i];
        h *= 16777619u;
    }
    return h;
}

/* Adds position `pos` (already written at slot *count of x->cstates)
 * unless it is known: returns 1 when added, 0 when known, -1 when full. */
static int pos_add(sok_ctx *x, int *count)
{
    if (*count >= SOK_CORRAL_MAX_STATES)
        return -1;
    const int32_t *p = x->cstates + (size_t)*count * SLOT;
    uint32_t mask = SOK_CORRAL_MAX_STATES * 2 - 1;
    for (uint32_t h = pos_hash(p) & mask;; h = (h + 1) & mask) {
        int32_t e = x->chash[h];
        if (e < 0) {
            x->chash[h] = *count;
            (*count)++;
            return 1;
        }
        if (memcmp(x->cstates + (size_t)e * SLOT, p, sizeof *p * SLOT) == 0)
            return 0;
    }
}

/* Sorts the k cells of a fence (insertion sort: k is small). */
static void sort_cells(int32_t *c, int k)
{
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && c[j - 1] > c[j]; j--) {
            int32_t t = c[j - 1];
            c[j - 1] = c[j];
            c[j] = t;
        }
}

/* Breadth-first search of the relaxed level from the position in slot 0
 * (x->occ holds no box). Returns 1 when the fence can open the corral or
 * stand on goals, 0 when it provably cannot, -1 at the size cap. */
static int relaxed_search(sok_ctx *x, int k)
{
    for (int i = 0; i < SOK_CORRAL_MAX_STATES * 2; i++)
        x->chash[i] = -1;
    int count = 0;
    pos_add(x, &count);
    for (int head = 0; head < count; head++) {
        int32_t *cur = x->cstates + (size_t)head * SLOT;
        for (int i = 0; i < k; i++)
            x->occ[cur[i]] = 1;
        gs_sokoban_flood(x, cur[SOK_CORRAL_MAX_BOXES]);
        int rc = 0;
        /* The player reaches a corral cell: it is open. */
        for (int c = 0; c < x->n && !rc; c++)
            if (x->cmark[c] == x->cgen && x->seen[c] == x->gen)
                rc = 1;
        for (int i = 0; i < k && !rc; i++) {
            int b = cur[i];
            for (int d = 0; d < 4 && !rc; d++) {
                int from = x->nb[b * 4 + (d ^ 1)], to = x->nb[b * 4 + d];
                if (from < 0 || to < 0 || x->seen[from] != x->gen ||
                    x->occ[to] || x->dead[to])
                    continue;
                int32_t *next = x->cstates + (size_t)count * SLOT;
                if (count >= SOK_CORRAL_MAX_STATES) {
                    rc = -1;
                    break;
                }
                memcpy(next, cur, sizeof *next * SLOT);
                next[i] = to;
                next[SOK_CORRAL_MAX_BOXES] = b;
                sort_cells(next, k);
                bool home = true;
                for (int j = 0; j < k && home; j++)
                    home = x->goal[next[j]] != 0;
                if (home)
                    rc = 1;
                else if (pos_add(x, &count) < 0)
                    rc = -1;
            }
        }
        for (int i = 0; i < k; i++)
            x->occ[cur[i]] = 0;
        if (rc)
            return rc;
    }
    return 0;
}

bool gs_sokoban_corral_deadlock(sok_ctx *x, const int32_t *boxes, int to,
                                int player)
{
    if (!x->cmark)
        return false;
    if (++x->cgen == 0) { /* wrapped: old stamps could collide */
        memset(x->cmark, 0, sizeof *x->cmark * (size_t)x->n);
        x->cgen = 1;
    }
    /* The corral cells beside the pushed box: free and out of reach. */
    int tail = 0;
    for (int d = 0; d < 4; d++) {
        int c = x->nb[to * 4 + d];
        if (c < 0 || x->occ[c] || x->seen[c] == x->gen ||
            x->cmark[c] == x->cgen)
            continue;
        x->cmark[c] = x->cgen;
        x->queue[tail++] = c;
    }
    if (tail == 0)
        return false;
    for (int head = 0; head < tail; head++) {
        int c = x->queue[head];
        for (int d = 0; d < 4; d++) {
            int t = x->nb[c * 4 + d];
            if (t < 0 || x->occ[t] || x->cmark[t] == x->cgen)
                continue;
            x->cmark[t] = x->cgen;
            x->queue[tail++] = t;
        }
    }
    /* The fence: boxes beside a corral cell. A fence on goals already
     * needs nothing (the goals inside may be some other box's). */
    int32_t *pos = x->cstates;
    int k = 0;
    bool off = false;
    for (int i = 0; i < x->nboxes; i++) {
        int b = boxes[i];
        bool touches = false;
        for (int d = 0; d < 4 && !touches; d++) {
            int t = x->nb[b * 4 + d];
            touches = t >= 0 && x->cmark[t] == x->cgen && !x->occ[t];
        }
        if (!touches)
            continue;
        if (k == SOK_CORRAL_MAX_BOXES)
            return false;
        pos[k++] = b;
        off |= !x->goal[b];
    }
    if (!off)
        return false;
    for (int i = k; i < SOK_CORRAL_MAX_BOXES; i++)
        pos[i] = -1;
    pos[SOK_CORRAL_MAX_BOXES] = player;
    /* The relaxed level: no box but the fence (boxes[] is sorted, so is
     * the fence). */
    gs_sokoban_occ_set(x, boxes, 0);
    int rc = relaxed_search(x, k);
    gs_sokoban_occ_set(x, boxes, 1);
    gs_sokoban_flood(x, player); /* the caller's flood, as it was */
    return rc == 0;
}
