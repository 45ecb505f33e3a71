/* pack.c - a packing order for `any`'s greedy phase: goal rooms must be
 * filled from the inside out, and a box parked on the goal at a room's
 * door walls the deeper goals off. The minimum-cost matching does not see
 * this (it ignores other boxes), so greedy happily fills the door first.
 *
 * The order comes from a retrograde sweep: with a box on every goal, the
 * boxes the player can pull off their goal from outside come out first
 * (layer 0), then those freed by their removal (layer 1), and so on. Goals
 * of deeper layers should be filled earlier. The order only steers the
 * greedy search (an inadmissible penalty); it prunes nothing, so it
 * cannot cost a solution, and the exact objectives never use it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sokoban.h"

/* Marks seen == gen on every free cell (no wall, x->occ clear) reachable
 * from the x->queue[0..tail) seeds, which are marked already. */
static void spread(sok_ctx *x, int tail)
{
    for (int head = 0; head < tail;) {
        int c = x->queue[head++];
        for (int d = 0; d < 4; d++) {
            int t = x->nb[c * 4 + d];
            if (t < 0 || x->occ[t] || x->seen[t] == x->gen)
                continue;
            x->seen[t] = x->gen;
            x->queue[tail++] = t;
        }
    }
}

/* Floods, into x->seen == gen, the free cells reachable from any free
 * non-goal cell: where the player can stand outside the goal area. */
static void flood_outside(sok_ctx *x)
{
    gs_sokoban_next_gen(x);
    int tail = 0;
    for (int c = 0; c < x->n; c++)
        if (!x->goal[c] && !x->occ[c]) {
            x->seen[c] = x->gen;
            x->queue[tail++] = c;
        }
    spread(x, tail);
}

/* Whether the box on goal g can be pulled off by a player standing in the
 * flooded area: some neighbour a is reachable and the cell beyond it free
 * for the player to step back onto. */
static bool pullable(const sok_ctx *x, int g)
{
    for (int d = 0; d < 4; d++) {
        int a = x->nb[g * 4 + d];
        if (a < 0 || x->occ[a] || x->seen[a] != x->gen)
            continue;
        int a2 = x->nb[a * 4 + d];
        if (a2 >= 0 && !x->occ[a2])
            return true;
    }
    return false;
}

void gs_sokoban_pack_layers(sok_ctx *x)
{
    x->pack_layers = 0;
    if (!x->glayer)
        return;
    for (int i = 0; i < x->ngoals; i++) {
        x->glayer[i] = 0;
        x->occ[x->goals[i]] = 1;
    }
    int left = x->ngoals, layer = 0;
    uint8_t *out = x->mark; /* removed in this round; zero between rounds */
    while (left > 0) {
        flood_outside(x);
        int n = 0;
        for (int i = 0; i < x->ngoals; i++) {
            int g = x->goals[i];
            if (x->occ[g] && pullable(x, g)) {
                x->glayer[i] = (uint16_t)layer;
                out[g] = 1;
                n++;
            }
        }
        if (n == 0)
            break;
        for (int i = 0; i < x->ngoals; i++)
            if (out[x->goals[i]]) {
                out[x->goals[i]] = 0;
                x->occ[x->goals[i]] = 0;
            }
        left -= n;
        layer++;
    }
    /* Goals nothing frees are the innermost: the last layer. */
    for (int i = 0; i < x->ngoals; i++)
        if (x->occ[x->goals[i]]) {
            x->glayer[i] = (uint16_t)layer;
            x->occ[x->goals[i]] = 0;
        }
    x->pack_layers = left > 0 ? layer + 1 : layer;
    for (int i = 0; i < x->ngoals; i++)
        x->gindex[x->goals[i]] = i;
}

/* The layers the penalty tells apart (SOK_PACK_MAX_LAYERS at most). */
static int pack_lim(const sok_ctx *x)
{
    return x->pack_layers < SOK_PACK_MAX_LAYERS ? x->pack_layers
                                                : SOK_PACK_MAX_LAYERS;
}

uint32_t gs_sokoban_pack_penalty(const sok_ctx *x, const int32_t *boxes)
{
    if (x->pack_layers <= 1)
        return 0;
    /* Deepest layer still empty: filled goals of shallower layers are out
     * of order. occ is not needed: a goal is filled when a box is on it. */
    int deepest = -1;
    uint32_t filled_below[SOK_PACK_MAX_LAYERS] = {0};
    int lim = pack_lim(x);
    unsigned char *full = x->pmark;
    for (int i = 0; i < x->nboxes; i++)
        if (x->goal[boxes[i]])
            full[x->gindex[boxes[i]]] = 1;
    for (int i = 0; i < x->ngoals; i++) {
        int l = x->glayer[i] < lim ? x->glayer[i] : lim - 1;
        if (full[i])
            filled_below[l]++;
        else if (l > deepest)
            deepest = l;
    }
    uint32_t pen = 0;
    for (int l = 0; l < deepest; l++)
        pen += filled_below[l];
    for (int i = 0; i < x->nboxes; i++)
        if (x->goal[boxes[i]])
            full[x->gindex[boxes[i]]] = 0;
    return pen;
}

/* Goal i's layer as the penalty counts it (the deep ones in the last). */
static int pack_layer(const sok_ctx *x, int i)
{
    int lim = pack_lim(x);
    return x->glayer[i] < lim ? x->glayer[i] : lim - 1;
}

void gs_sokoban_pack_parent(sok_ctx *x, const int32_t *boxes)
{
    if (x->pack_layers <= 1)
        return;
    memset(x->pfull, 0, sizeof x->pfull);
    memset(x->pempty, 0, sizeof x->pempty);
    for (int i = 0; i < x->ngoals; i++)
        x->pempty[pack_layer(x, i)]++;
    for (int i = 0; i < x->nboxes; i++) {
        if (!x->goal[boxes[i]])
            continue;
        int l = pack_layer(x, x->gindex[boxes[i]]);
        x->pfull[l]++;
        x->pempty[l]--;
    }
}

uint32_t gs_sokoban_pack_child(const sok_ctx *x, int from, int to)
{
    if (x->pack_layers <= 1)
        return 0;
    /* The parent's counts with `from` emptied and `to` filled. */
    int lf = x->goal[from] ? pack_layer(x, x->gindex[from]) : -1;
    int lt = x->goal[to] ? pack_layer(x, x->gindex[to]) : -1;
    int deepest = pack_lim(x);
    while (--deepest >= 0 &&
           x->pempty[deepest] + (deepest == lf) - (deepest == lt) == 0)
        ;
    uint32_t pen = 0;
    for (int l = 0; l < deepest; l++)
        pen += x->pfull[l] - (l == lf) + (l == lt);
    return pen;
}

int gs_sokoban_regions(sok_ctx *x)
{
    /* The last flood marked the player's area: count the others. */
    int regions = 1;
    for (int s = 0; s < x->n; s++) {
        if (x->occ[s] || x->seen[s] == x->gen)
            continue;
        regions++;
        x->seen[s] = x->gen;
        x->queue[0] = s;
        spread(x, 1);
    }
    return regions;
}
