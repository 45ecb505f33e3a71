/* macro.c - macro moves for `any`'s greedy phase (Junghanns and
 * Schaeffer's tunnel and goal macros) and the exact searches' corridor
 * macro.
 *
 * Tunnel macros: a box pushed into a one-wide tunnel, with the player in
 * the tunnel behind it, is pushed on until it leaves. The pushes in
 * between can only be followed by the same push or a retreat, so one
 * state stands for the whole run.
 *
 * Goal macros: a box pushed from off goal into a goal area (connected
 * goal cells) is taken on, inside the area, to the goal the packing order
 * (pack.c) wants filled next; that one move replaces the push. Goal rooms
 * are then filled from the inside out in one step a box instead of the
 * greedy search trying every order of every box's last pushes. The floor
 * of a goal room (cells off goal close to the area, short of its door)
 * belongs to the area too: a box pushed into the room is taken on at
 * once, not only when it reaches a goal. A box that can reach only goals
 * of shallower layers than an empty one is left where the push put it,
 * and so is one whose goal leaves the position dead (search.c: the
 * packing order does not see every way in).
 *
 * Both change which states are stored (the goal macro drops the plain
 * push), so the search that uses them never claims `impossible` on its
 * own (search.c falls back to the plain search).
 *
 * Corridor macros: a box pushed into a one-wide dead end goes on to the
 * goal it must end on, when pushing it there at once costs no more moves
 * than any later order. They keep an optimal answer of both exact
 * objectives, so `moves` and `pushes` use them.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sokoban.h"

/* Whether cell c has walls on both sides across direction d. */
static bool walled_across(const sok_ctx *x, int c, int d)
{
    int q = d < 2 ? 2 : 0; /* U D are 0 1; L R are 2 3 */
    return x->nb[c * 4 + q] < 0 && x->nb[c * 4 + q + 1] < 0;
}

int gs_sokoban_tunnel_end(const sok_ctx *x, int b, int to, int d)
{
    /* A goal in the tunnel may be where the box belongs; a run is also
     * bounded by the region's size (no cycle along a straight line, but
     * cheap insurance). */
    for (int steps = 0; steps < x->n; steps++) {
        if (x->goal[to] || !walled_across(x, to, d) || !walled_across(x, b, d))
            return to;
        int next = x->nb[to * 4 + d];
        if (next < 0 || x->occ[next] || x->dead[next])
            return to;
        b = to;
        to = next;
    }
    return to;
}

int gs_sokoban_corridor_end(const sok_ctx *x, int to, int d)
{
    /* Inside, the box only moves deeper (the player would have to pass
     * it to push it back) and every goal must be filled, so each box
     * ends on the deepest goal left free ahead of it: the deeper boxes
     * are frozen where they are, and the later ones cannot pass it. */
    if (x->ngoals != x->nboxes || !walled_across(x, to, d))
        return to; /* with goals to spare, none has to be filled */
    int e = x->goal[to] ? to : -1;
    bool open = true;
    for (int c = to, steps = 0; steps < x->n; steps++) {
        int next = x->nb[c * 4 + d];
        if (next < 0)
            break; /* the dead end */
        if (!walled_across(x, next, d))
            return to; /* the line opens up: no dead end */
        open = open && !x->occ[next] && !x->dead[next];
        if (open && x->goal[next])
            e = next;
        c = next;
    }
    if (e < 0 || e == to)
        return to;
    /* A later box must fill a goal short of e, so the player walks out
     * after the box's last push anyway: pushing it home now costs no
     * move more than any other order (the walk out once, the same
     * pushes). Without such a goal the box's last push may end the
     * solution, and leaving it halfway may save that walk. */
    bool later = false;
    for (int c = to; c != e; c = x->nb[c * 4 + d])
        later = later || x->goal[c];
    int c = x->nb[to * 4 + (d ^ 1)]; /* the player's cell */
    for (int steps = 0; c >= 0 && walled_across(x, c, d); steps++) {
        if (x->occ[c] || steps > x->n)
            return to;
        later = later || x->goal[c];
        c = x->nb[c * 4 + (d ^ 1)];
    }
    /* c: the mouth, which must be free so that the player gets out. */
    if (c < 0 || x->occ[c] || !later)
        return to;
    return e;
}

unsigned gs_sokoban_box_sides(sok_ctx *x, int c, int side)
{
    /* A breadth-first search from the player's side that stops once every
     * free side of the box is reached: most sides lie close together. */
    unsigned want = 0, got = 0;
    for (int d = 0; d < 4; d++) {
        int t = x->nb[c * 4 + d];
        if (t >= 0 && !x->occ[t])
            want |= 1u << d;
    }
    int start = x->nb[c * 4 + side];
    if (start < 0 || x->occ[start])
        return 0;
    got = 1u << side;
    gs_sokoban_next_gen(x);
    x->seen[start] = x->gen;
    int head = 0, tail = 0;
    x->queue[tail++] = start;
    while (head < tail && got != want) {
        int u = x->queue[head++];
        for (int d = 0; d < 4; d++) {
            int t = x->nb[u * 4 + d];
            if (t < 0 || x->occ[t] || x->seen[t] == x->gen)
                continue;
            x->seen[t] = x->gen;
            x->queue[tail++] = t;
            for (int e = 0; e < 4; e++) /* t a side of c? */
                if (x->nb[c * 4 + e] == t)
                    got |= 1u << e;
        }
    }
    return got;
}

/* Whether cell c is a door: walled on both sides across one axis, open
 * along it. */
static bool door(const sok_ctx *x, int c)
{
    const int32_t *nb = x->nb + c * 4;
    return (walled_across(x, c, 0) && nb[0] >= 0 && nb[1] >= 0) ||
           (walled_across(x, c, 2) && nb[2] >= 0 && nb[3] >= 0);
}

/* Adds to goal area `area` (its goals queued in q[0..ngoal)) the floor
 * cells off goal within SOK_ROOM_REACH steps of them, not through a door
 * nor another area, when there are at most ngoal of them, the whole has
 * at most SOK_ROOM_EXITS live cells beside it and no other goal lies
 * beside it (else none: the area lies in the open, or shares its room
 * with other goals and the plan would fill one before the other). dist and
 * rindex are scratch (-1 where unset); returns the new rcell count. */
static int room_add(sok_ctx *x, int area, int32_t *q, int ngoal, int nr)
{
    int head = 0, tail = ngoal, first = ngoal;
    bool shared = false; /* another goal within reach: no room of one area */
    for (int i = 0; i < ngoal; i++)
        x->dist[q[i]] = 0;
    while (head < tail) {
        int c = q[head++];
        if (x->dist[c] >= SOK_ROOM_REACH || (head > first && door(x, c)))
            continue;
        for (int d = 0; d < 4; d++) {
            int t = x->nb[c * 4 + d];
            if (t >= 0 && x->goal[t] && x->garea[t] != area)
                shared = true;
            if (t < 0 || x->goal[t] || x->garea[t] != -1 || door(x, t) ||
                x->dead[t])
                continue;
            x->garea[t] = -3 - area; /* pending */
            x->dist[t] = x->dist[c] + 1;
            q[tail++] = t;
        }
    }
    /* Its exits: live cells outside it beside a cell of it, where boxes
     * come in. A room has a door or two; goals in the middle of the
     * floor have more. */
    int exits = 0;
    gs_sokoban_next_gen(x);
    for (int i = 0; i < tail; i++) {
        for (int d = 0; d < 4; d++) {
            int t = x->nb[q[i] * 4 + d];
            if (t < 0 || x->goal[t] || x->dead[t] || x->garea[t] != -1 ||
                x->seen[t] == x->gen)
                continue;
            x->seen[t] = x->gen;
            exits++;
        }
    }
    bool keep = tail - first <= ngoal && exits <= SOK_ROOM_EXITS && !shared;
    for (int i = first; i < tail; i++) {
        int t = q[i];
        x->garea[t] = keep ? area : -1;
        if (keep) {
            x->rindex[t] = nr;
            x->rcell[nr++] = t;
        }
    }
    return nr;
}

bool gs_sokoban_goal_areas_init(sok_ctx *x)
{
    if (!x->glayer)
        return true;
    x->garea = gs_sokoban_tab_alloc(x, sizeof *x->garea * (size_t)x->n, false);
    x->rindex =
        gs_sokoban_tab_alloc(x, sizeof *x->rindex * (size_t)x->n, false);
    x->rcell = gs_sokoban_tab_alloc(x, sizeof *x->rcell * (size_t)x->n, false);
    if (!x->garea || !x->rindex || !x->rcell)
        return false;
    for (int c = 0; c < x->n; c++) {
        x->garea[c] = -1;
        x->rindex[c] = -1;
    }
    for (int i = 0; i < x->ngoals; i++) {
        x->rindex[x->goals[i]] = i;
        x->rcell[i] = x->goals[i];
    }
    int nr = x->ngoals;
    /* Areas: 4-connected goal cells; a lone goal has nothing to order.
     * The flood and the room search borrow x->queue (n entries). */
    int areas = 0;
    int32_t *q = x->queue;
    for (int i = 0; i < x->ngoals; i++) {
        int g0 = x->goals[i];
        if (x->garea[g0] != -1)
            continue;
        int head = 0, tail = 0;
        x->garea[g0] = areas;
        q[tail++] = g0;
        while (head < tail) {
            int c = q[head++];
            for (int d = 0; d < 4; d++) {
                int t = x->nb[c * 4 + d];
                if (t < 0 || !x->goal[t] || x->garea[t] >= 0)
                    continue;
                x->garea[t] = areas;
                q[tail++] = t;
            }
        }
        if (tail < 2) {
            x->garea[g0] = -2; /* alone: no area (fixed below) */
        } else {
            nr = room_add(x, areas, q, tail, nr);
            areas++;
        }
    }
    for (int c = 0; c < x->n; c++)
        if (x->garea[c] < -1)
            x->garea[c] = -1;
    x->nrcell = nr;
    size_t nodes = (size_t)nr * 4;
    x->gmseen = gs_sokoban_tab_alloc(x, sizeof *x->gmseen * nodes, true);
    x->gmpar = gs_sokoban_tab_alloc(x, sizeof *x->gmpar * nodes, false);
    x->gmq = gs_sokoban_tab_alloc(x, sizeof *x->gmq * nodes, false);
    x->gmdep = gs_sokoban_tab_alloc(x, sizeof *x->gmdep * nodes, false);
    if (!x->gmseen || !x->gmpar || !x->gmq || !x->gmdep)
        return false;
    x->gmgen = 0;
    return true;
}

/* Whether a box parked on a goal of packing layer `layer` may wall off
 * an empty goal of goal area `area` (the box on `to` taken off) that has
 * to be filled: one of a deeper layer, with no goal to spare. The macro
 * then leaves the push alone, as a push the search may follow or not
 * (Microban I 153: a box let into the goal room went on to the corner
 * below the goal column, where the player must stand to push boxes up
 * it; the weighted greedy with macros ran dry in 20 states and the one
 * without needed 86,471 more; with this rule the first solves it in
 * 72,833). */
static bool walls_off(const sok_ctx *x, int area, int to, uint32_t layer)
{
    if (x->ngoals != x->nboxes)
        return false;
    for (int i = 0; i < x->ngoals; i++) {
        int g = x->goals[i];
        if (x->garea[g] == area && (g == to || !x->occ[g]) &&
            x->glayer[i] > layer)
            return true;
    }
    return false;
}

/* The sides of a box on c that the player reaches from side `side`,
 * with the box on `to` lifted: read off the analysis of the position
 * before the push (a box path starting back on `from` aside), else by
 * a flood. */
static unsigned macro_sides(sok_ctx *x, int c, int side, int from)
{
    unsigned sides = from >= 0
                         ? gs_sokoban_zone_sides(x, &x->zone, c, from, side)
                         : SOK_SIDES_UNKNOWN;
    if (sides == SOK_SIDES_UNKNOWN) {
        x->occ[c] = 1;
        sides = gs_sokoban_box_sides(x, c, side);
        x->occ[c] = 0;
    }
    return sides;
}

/* Breadth-first over (box cell, side of the player) in goal area `area`
 * from node root (the box on `to`, x->occ without it): the box moves,
 * the player walks around it between pushes. Returns the node on the
 * goal of the highest layer, the fewest pushes away, with *best_key its
 * layer << 16 | pushes (root and *best_key's start when none beats it). */
static int macro_bfs(sok_ctx *x, int to, int root, int area, int from,
                     uint32_t *best_key)
{
    int head = 0, tail = 0, best = root;
    x->gmseen[root] = x->gmgen;
    x->gmpar[root] = -1;
    x->gmdep[root] = 0;
    x->gmq[tail++] = root;
    while (head < tail) {
        int v = x->gmq[head++], c = x->rcell[v / 4];
        unsigned sides = macro_sides(x, c, v % 4, from);
        for (int d = 0; d < 4; d++) {
            int t = x->nb[c * 4 + d];
            if (!(sides >> (d ^ 1) & 1) || t < 0 || x->occ[t] ||
                x->garea[t] != area)
                continue;
            int w = x->rindex[t] * 4 + (d ^ 1);
            if (x->gmseen[w] == x->gmgen)
                continue;
            x->gmseen[w] = x->gmgen;
            x->gmpar[w] = v;
            x->gmdep[w] = x->gmdep[v] < 0xffff ? x->gmdep[v] + 1 : 0xffff;
            x->gmq[tail++] = w;
            /* The box back on `to` from another side is no move: the
             * child would keep the push's cell but not its player. */
            if (!x->goal[t])
                continue;
            uint32_t key =
                (uint32_t)x->glayer[x->gindex[t]] << 16 | x->gmdep[w];
            if (key > *best_key && t != to) {
                *best_key = key;
                best = w;
            }
        }
    }
    return best;
}

int gs_sokoban_goal_macro(sok_ctx *x, int to, int pl, int from, int *node,
                          int *player)
{
    *node = -1;
    *player = pl;
    int area = x->garea ? x->garea[to] : -1;
    if (area < 0)
        return to;
    int side = -1;
    for (int d = 0; d < 4; d++)
        if (x->nb[to * 4 + d] == pl)
            side = d;
    if (side < 0)
        return to;
    if (++x->gmgen == 0) { /* wrapped: old stamps could collide */
        memset(x->gmseen, 0, sizeof *x->gmseen * (size_t)x->nrcell * 4);
        x->gmgen = 1;
    }
    /* A room's floor is no place to end on: any goal beats it. */
    int root = x->rindex[to] * 4 + side;
    uint32_t best_key =
        x->goal[to] ? (uint32_t)x->glayer[x->gindex[to]] << 16 : 0;
    x->occ[to] = 0;
    int best = macro_bfs(x, to, root, area, from, &best_key);
    x->occ[to] = 1;
    if (best == root || walls_off(x, area, to, best_key >> 16))
        return to;
    int at = x->rcell[best / 4];
    *node = best;
    *player = x->nb[at * 4 + best % 4];
    return at;
}

int gs_sokoban_goal_macro_chain(sok_ctx *x, int node)
{
    int k = 0;
    for (int v = node; v >= 0; v = x->gmpar[v])
        k++;
    int i = k;
    for (int v = node; v >= 0; v = x->gmpar[v])
        x->gmq[--i] = x->rcell[v / 4];
    return k;
}
