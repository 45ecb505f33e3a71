/* frozen.c - boxes frozen on goals are walls (every objective).
 *
 * A box on a goal that can never move again (deadlock.c's freeze test:
 * blocked on both axes by walls, dead pairs or other such boxes) is a
 * wall for the rest of the solve. The dead squares and the bound were
 * worked out without that wall, so they miss what it shuts off: on
 * Microban I 153 a box parked on the goal at the foot of a one-wide goal
 * column stands where the player must stand to push the column's boxes
 * up, and every goal above it is out of reach; the searches spent
 * millions of states behind such a wall (and the goal macro puts a box
 * there at once: the deepest goal that box can reach).
 *
 * The rule: when a push freezes a box on a goal, every goal box frozen
 * in the new position becomes a wall; then each other box off goal must
 * still be able to reach some goal, and (when every goal must be
 * filled) each empty goal must be reachable by some box, a box moving
 * alone on the level with those walls and the player anywhere (a
 * relaxation of every real push sequence). When not, the position is
 * dead. Sound: in any solution from it the frozen boxes stay put, so
 * every box reaches a goal and every goal gets a box along such pushes.
 * (These are Hall's conditions for single boxes and goals, not a whole
 * matching: a matching per test cost Microban II 131, 44 boxes, a sixth
 * of its time.)
 *
 * Only a push that freezes a goal box is tested (the pushed box or one
 * beside it), and each search stops at the first box or goal it meets,
 * so the rule costs under 1 % of 131's time.
 *
 * A box's reach depends on the walls alone, so the answers for each cell
 * are kept while the walls stay the same (on Microban I 139 `moves`, whose
 * goal block freezes boxes all the time, the rule's share of the profile
 * went from 4.9 to 3.5 %).
 *
 * The exact objectives prune with it too: a dead position has no answer,
 * shortest or not (Microban I 102 `moves`: 12,959 -> 8,573 states
 * expanded, the same answer).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

struct sok_frozen {
    uint8_t *wall;  /* n: 1 on a frozen goal box */
    uint32_t *seen; /* n: search stamps */
    uint32_t gen;
    /* box_placed's answers for the walls of the last test (a box's
     * reach depends on the walls alone): per cell 0 unknown, 1 a goal is
     * reachable, 2 none; the walls they hold for, in order. */
    uint8_t *placed;
    int32_t *walls;
    int nwalls;
    int32_t *cur; /* nboxes: scratch, the walls of the test under way */
};

bool gs_sokoban_frozen_init(sok_ctx *x)
{
    x->frozen = NULL;
    if (x->ngoals == 0)
        return true;
    sok_frozen *z = gs_sokoban_tab_alloc(x, sizeof *z, true);
    if (!z)
        return false;
    x->frozen = z;
    z->wall = gs_sokoban_tab_alloc(x, (size_t)x->n + 1, true);
    z->seen =
        gs_sokoban_tab_alloc(x, sizeof *z->seen * ((size_t)x->n + 1), true);
    z->placed = gs_sokoban_tab_alloc(x, (size_t)x->n + 1, true);
    z->walls = gs_sokoban_tab_alloc(
        x, sizeof *z->walls * ((size_t)x->nboxes + 1), false);
    z->cur = gs_sokoban_tab_alloc(x, sizeof *z->cur * ((size_t)x->nboxes + 1),
                                  false);
    z->nwalls = -1; /* no answers yet */
    return z->wall && z->seen && z->placed && z->walls && z->cur;
}

void gs_sokoban_frozen_free(sok_ctx *x)
{
    sok_frozen *z = x->frozen;
    if (!z)
        return;
    gs_mem_free(z->wall);
    gs_mem_free(z->seen);
    gs_mem_free(z->placed);
    gs_mem_free(z->walls);
    gs_mem_free(z->cur);
    gs_mem_free(z);
    x->frozen = NULL;
}

/* A fresh search stamp. */
static void next_gen(sok_frozen *z, int n)
{
    if (++z->gen == 0) {
        memset(z->seen, 0, sizeof *z->seen * (size_t)n);
        z->gen = 1;
    }
}

/* Whether a box (no wall) can be pushed onto goal g, alone on the level
 * with the walls (the player anywhere): a backward search over pulls
 * (the box from c onto p beside it, the player from p on to the cell
 * beyond, neither a wall) that stops at the first box. Uses x->queue. */
static bool goal_fed(sok_ctx *x, sok_frozen *z, int g)
{
    int head = 0, tail = 0;
    next_gen(z, x->n);
    z->seen[g] = z->gen;
    x->queue[tail++] = g;
    while (head < tail) {
        int c = x->queue[head++];
        for (int d = 0; d < 4; d++) {
            int p = x->nb[c * 4 + d];
            if (p < 0 || z->wall[p] || z->seen[p] == z->gen)
                continue;
            int pp = x->nb[p * 4 + d];
            if (pp < 0 || z->wall[pp])
                continue;
            if (x->occ[p])
                return true;
            z->seen[p] = z->gen;
            x->queue[tail++] = p;
        }
    }
    return false;
}

/* Whether the box on b can be pushed onto some goal (no wall), alone on
 * the level with the walls: a forward search that stops at the first
 * goal. Uses x->queue. */
static bool box_placed(sok_ctx *x, sok_frozen *z, int b)
{
    int head = 0, tail = 0;
    next_gen(z, x->n);
    z->seen[b] = z->gen;
    x->queue[tail++] = b;
    while (head < tail) {
        int c = x->queue[head++];
        for (int d = 0; d < 4; d++) {
            int t = x->nb[c * 4 + d], from = x->nb[c * 4 + (d ^ 1)];
            if (t < 0 || from < 0 || z->wall[t] || z->wall[from] ||
                z->seen[t] == z->gen)
                continue;
            if (x->goal[t])
                return true;
            z->seen[t] = z->gen;
            x->queue[tail++] = t;
        }
    }
    return false;
}

/* box_placed through z->placed: the walls (their cells, in the order
 * the test met them) are those of the answers kept, or the answers are
 * dropped. */
static void placed_walls(sok_ctx *x, sok_frozen *z, const int32_t *walls,
                         int nw)
{
    if (nw == z->nwalls &&
        memcmp(walls, z->walls, sizeof *walls * (size_t)nw) == 0)
        return;
    memset(z->placed, 0, (size_t)x->n);
    memcpy(z->walls, walls, sizeof *walls * (size_t)nw);
    z->nwalls = nw;
}

static bool box_placed_memo(sok_ctx *x, sok_frozen *z, int b)
{
    if (!z->placed[b])
        z->placed[b] = box_placed(x, z, b) ? 1 : 2;
    return z->placed[b] == 1;
}

/* Whether the goal box on c is frozen (never moves again). */
static bool goal_frozen(sok_ctx *x, int c)
{
    return x->goal[c] && x->occ[c] && gs_sokoban_box_frozen(x, c) == 1;
}

bool gs_sokoban_frozen_goal_dead(sok_ctx *x, int slot, int to)
{
    sok_frozen *z = x->frozen;
    if (!z)
        return false;
    /* Only a push that froze a goal box can shut goals off: the box
     * itself, or one beside it that it now blocks. */
    bool fresh = goal_frozen(x, to);
    for (int d = 0; d < 4 && !fresh; d++) {
        int t = x->nb[to * 4 + d];
        fresh = t >= 0 && goal_frozen(x, t);
    }
    if (!fresh)
        return false;
    /* The walls: every frozen goal box of the position. */
    int nw = 0;
    for (int i = 0; i < x->nboxes; i++) {
        int c = i == slot ? to : x->boxes[i];
        if (goal_frozen(x, c)) {
            z->wall[c] = 1;
            z->cur[nw++] = c;
        }
    }
    placed_walls(x, z, z->cur, nw);
    bool dead = false;
    /* Each box off goal needs a goal it can reach... */
    for (int i = 0; i < x->nboxes && !dead; i++) {
        int c = i == slot ? to : x->boxes[i];
        dead = !x->goal[c] && !box_placed_memo(x, z, c);
    }
    /* ... and, when every goal must be filled, each empty goal a box. */
    for (int gi = 0; gi < x->ngoals && !dead && x->ngoals <= x->nboxes; gi++) {
        int g = x->goals[gi];
        dead = !x->occ[g] && !goal_fed(x, z, g);
    }
    for (int i = 0; i < x->nboxes; i++)
        z->wall[i == slot ? to : x->boxes[i]] = 0;
    return dead;
}
