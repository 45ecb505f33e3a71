/* search.c - the sokoban solver: push every box onto a goal.
 *
 * The search runs over PUSHES, not single steps: a state is the set of box
 * cells (sorted, so each configuration has one key) plus the player's cell
 * right after the last push. One expansion floods the player's free region
 * and offers every push the player can walk to; the walk is not stored but
 * recomputed (shortest, by BFS) when the answer is rebuilt. This keeps the
 * visited set in the search core small: no state for every step of a walk.
 *
 * Objectives, all on the search core's priority queue:
 *   - moves (default): A*, edge cost = walk + 1, heuristic = minimum-cost
 *     matching of boxes to goals by push distance of each box alone with
 *     the player where it is (bound.c; a lower bound on pushes, hence on
 *     moves). One push changes one box's distance to any goal by at most 1
 *     and costs at least 1, so the heuristic is consistent and the first
 *     expansion of a goal state is optimal.
 *   - pushes: the same graph with cost (pushes, moves) packed
 *     lexicographically into one integer; exact for both components because
 *     the player's exact cell is part of the state. It runs second, over
 *     the positions a first search (A* on pushes alone, the player's area
 *     in the state) marked as on solutions of the fewest pushes
 *     (pushes_two_phase).
 *   - any: the player normalized to the smallest cell of its region (fewer
 *     states; answers not minimal). With a deadline, A* on pushes for 1/10
 *     of it (the exact objectives' rounds with the perimeter table),
 *     plain greedy on the bound plus a packing-order penalty to
 *     SOK_PLAIN_END percent, then the greedy phase (without a deadline,
 *     that alone): a weighted A* on pushes whose estimate is the bound
 *     plus penalties for goals filled out of packing order and for areas
 *     the player is shut out of (pack.c), with tunnel and goal-area
 *     macros (macro.c), to SOK_GREEDY_END percent; then the same children
 *     and macros in a feature-space search (fess.c) with the A*'s table
 *     in the estimate to SOK_TABLE_FESS_END percent, the search
 *     backwards (pull.c), then the feature-space search without the
 *     table after a burst of one whose cells also pick by weight
 *     (SOK_FESS_BURST). Past 10 s, after these as at 10 s, the search
 *     backwards again and the two feature-space searches in turns
 *     (fess_pair), kept from their slice at 10 s (pair_hold).
 *     When a macro search runs out of states, the plain search decides.
 *
 * Pruning (sound, so "impossible" stays a proof): dead squares (a box there
 * can never be pushed to a goal from any side), matchings with no finite
 * cost, and freeze deadlocks (boxes blocked on both axes by walls, dead
 * pairs or other frozen boxes, one of them off goal) and deadlock
 * patterns learned as they go (learn.c; of `any`'s feature-space
 * searches only the one with the A*'s table); the exact objectives and
 * `any`'s A* also store one position per class of the level's
 * symmetries (sym.c; answer.c then finds the real path again). Every
 * objective takes boxes frozen on goals as walls (frozen.c), and the
 * exact ones push a box entering a one-wide dead end on to the goal it
 * must end on when that costs nothing (corridor macros, macro.c). `any`
 * also applies PI-corral pruning, which keeps some solution whenever one
 * exists (so its "impossible" is a proof too) but not the shortest one.
 *
 * Files: parse.c (levels in), ctx.c (tables), bound.c (lower bound),
 * deadlock.c (pruning), frozen.c (frozen goal boxes as walls), learn.c
 * (learned deadlock patterns), sym.c
 * (symmetries), pack.c (packing order, connectivity), macro.c
 * (tunnel, goal-area and corridor macros), perim.c (the perimeter table:
 * exact distances near the solved positions), area.c (its keys' player
 * areas without a flood), fess.c (the feature-space search's
 * open lists), zone.c (`any`'s children's areas without a flood), answer.c
 * (the moves spelled out from the stored pushes), search.c (this: the
 * searches and their phases).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

/* `pushes`' first search (pushes_two_phase): its store, kept for
 * look-ups, every edge that was a shortest way to its child when seen
 * (and the goals popped), then the states on a solution of the fewest
 * pushes. */
struct sok_trace {
    gs_search *store;
    struct sok_edge {
        uint32_t from, to, cost; /* cost: the child's when seen, or
                                    SOK_EDGE_GOAL (`from` a goal) */
    } * edges;
    size_t nedges, cap;
    uint64_t max_bytes; /* the solve's budget, tables and stores (0: none) */
    uint64_t goal;      /* the first goal popped */
    uint32_t pstar;     /* its pushes */
    bool found, over;   /* a goal popped; the edges passed the budget */
    uint8_t *onpath;    /* a byte per stored state: on such a solution */
    size_t onpath_n;
};
#define SOK_EDGE_GOAL UINT32_MAX

/* Writes boxes with slot i moved to `to` into x->child, kept sorted. */
static void move_box(sok_ctx *x, int i, int to)
{
    gs_sokoban_boxes_move(x, x->boxes, i, to, x->child);
}

/* The queue priority of a state with path cost `cost` and bound h. Ties
 * on f go to the smaller h (deeper states) where bits allow it. */
static uint64_t priority(const sok_ctx *x, uint64_t cost, uint32_t h)
{
    switch (x->obj) {
    case SOK_MOVES:
        return (cost + h) << 16 | (h < 0xffff ? h : 0xffff);
    case SOK_PUSHES: {
        /* f on pushes, then f on moves (each push is a move too), then
         * the smaller h, in the fields of SOK_PRIO_*. */
        uint64_t pf = (cost >> SOK_PUSH_SHIFT) + h;
        uint64_t mf = (cost & 0xffffffffu) + h;
        uint64_t mmax = ((uint64_t)1 << (SOK_PRIO_PUSH_SHIFT - 16)) - 1;
        return pf << SOK_PRIO_PUSH_SHIFT | (mf < mmax ? mf : mmax) << 16 |
               (h < 0xffff ? h : 0xffff);
    }
    case SOK_ANY_ASTAR:
        return (cost + h) << 16 | (h < 0xffff ? h : 0xffff);
    default:
        if (x->plain) /* the bound first, fewer pushes on ties */
            return (uint64_t)h << 32 |
                   (cost < 0xffffffffu ? cost : 0xffffffffu);
        /* weighted A* on pushes (the estimate weighted, sokoban.h) */
        return (SOK_GREEDY_WEIGHT * (uint64_t)h + cost) << 16 |
               (h < 0xffff ? h : 0xffff);
    }
}

/* How far priority() shifts the bound that progress events should show:
 * the f value (or greedy's h) without the tie-break bits. */
static unsigned bound_shift(sok_objective obj)
{
    switch (obj) {
    case SOK_MOVES:
    case SOK_ANY_ASTAR:
        return 16;
    case SOK_PUSHES:
        return SOK_PRIO_PUSH_SHIFT;
    default:
        return 32;
    }
}

/* `any`'s key of (player, boxes), x->occ holding the boxes: the
 * player's area by its smallest cell, from a flood of it (with
 * x->sym_store, the class of its images). */
static void area_key(sok_ctx *x, int player, const int32_t *boxes)
{
    int p = gs_sokoban_flood(x, player);
    if (x->sym && x->sym_store)
        gs_sokoban_sym_canon_area(x, p, boxes);
    else
        gs_sokoban_key_pack(x, p, boxes);
}

void gs_sokoban_store_key(sok_ctx *x, int p, const int32_t *boxes)
{
    if (!x->sym || !x->sym_store)
        gs_sokoban_key_pack(x, p, boxes);
    else if (x->obj >= SOK_ANY)
        area_key(x, p, boxes);
    else
        gs_sokoban_sym_canon(x, p, boxes);
}

uint64_t gs_sokoban_push_cost(sok_objective obj, uint32_t walk)
{
    switch (obj) {
    case SOK_MOVES:
        return (uint64_t)walk + 1;
    case SOK_PUSHES:
        return ((uint64_t)1 << SOK_PUSH_SHIFT) + walk + 1;
    default:
        return 1;
    }
}

/* Lists in x->pushes the pushes whose cell behind the box the player
 * reaches: with comp, the free cells labelled pa there (the walks left 0);
 * without, those the last flood reached (the walks its distances).
 * Returns how many. */
static int list_reached(sok_ctx *x, const int32_t *comp, int32_t pa)
{
    int k = 0;
    for (int i = 0; i < x->nboxes; i++) {
        int b = x->boxes[i];
        for (int d = 0; d < 4; d++) {
            int from = x->nb[b * 4 + (d ^ 1)], to = x->nb[b * 4 + d];
            if (from < 0 || to < 0 || x->occ[to] || x->dead[to] ||
                (comp ? comp[from] != pa : x->seen[from] != x->gen))
                continue;
            x->pushes[k].box = i;
            x->pushes[k].dir = (uint8_t)d;
            x->pushes[k].walk = comp ? 0 : x->dist[from];
            k++;
        }
    }
    return k;
}

int gs_sokoban_list_pushes(sok_ctx *x, int player)
{
    gs_sokoban_flood(x, player);
    return list_reached(x, NULL, 0);
}

/* The player's region of a child (its smallest cell), one box moved from
 * b to `to` and the player then on pl (x->occ holding the child's boxes):
 * read off x->zone when `zone` (the analysis of the expanded state), else
 * by a flood. *regions, when not NULL, gets the areas of free cells. */
static int child_region(sok_ctx *x, bool zone, int to, int b, int pl,
                        int *regions)
{
    int r = 0, p = zone ? gs_sokoban_zone_push(x, &x->zone, to, b, pl, &r) : -1;
    if (p < 0) {
        p = gs_sokoban_flood(x, pl);
        if (regions)
            r = gs_sokoban_regions(x);
    }
    if (regions)
        *regions = r;
    return p;
}

/* FESS's packing advisor, one more child of the state being expanded
 * (x->occ and x->boxes holding its boxes, bound hp): the box it names
 * taken to the next goal of the packing order in one macro move (tag bit
 * 3; answer.c spells the pushes out). Appends to x->pend and x->pkeys;
 * returns the new count. */
static int advise_pack(sok_ctx *x, gs_search *s, int player, uint64_t g,
                       uint32_t hp, bool zone, int npend)
{
    int i, pl, pushes;
    int to = gs_sokoban_fess_pack_move(x, x->fess, player, &i, &pl, &pushes);
    if (to < 0)
        return npend;
    int b = x->boxes[i];
    x->occ[b] = 0;
    x->occ[to] = 1;
    uint32_t h = SOK_INF, feat = 0;
    if (!gs_sokoban_freeze_deadlock(x, to) &&
        !gs_sokoban_frozen_goal_dead(x, i, to)) {
        move_box(x, i, to);
        h = gs_sokoban_child_bound(x, hp, i, b, to, pl);
    }
    if (h < SOK_INF / 2) {
        uint32_t pen = gs_sokoban_pack_child(x, b, to);
        h += SOK_PACK_WEIGHT * pen;
        int regions, p = child_region(x, zone, to, b, pl, &regions);
        h += SOK_CONN_WEIGHT * (uint32_t)(regions - 1);
        feat = gs_sokoban_fess_features(x, x->fess, x->child, pen, regions);
        gs_sokoban_key_pack(x, p, x->child);
        memcpy(x->pkeys + x->key_size * (size_t)npend, x->key, x->key_size);
        gs_search_prefetch(s, x->key);
        uint64_t cost = g + (uint64_t)pushes;
        x->pend[npend++] = (struct sok_pend){.cost = cost,
                                             .prio = priority(x, cost, h),
                                             .h = h,
                                             .feat = feat,
                                             .tag = 8,
                                             .advised = true};
    }
    x->occ[to] = 0;
    x->occ[b] = 1;
    return npend;
}

/* The bound of the child where box i moved from b to `to` (the player
 * on pl, run pushes), SOK_INF when it is dead; the parent's matching hp.
 * Sets x->child to the child's boxes when it is not dead at once. */
static uint32_t child_h(sok_ctx *x, int i, int b, int to, int pl, uint32_t hp,
                        bool steps_table, int run)
{
    if (gs_sokoban_freeze_deadlock(x, to) ||
        (x->learning && gs_sokoban_learn_dead(x, to, pl)) ||
        gs_sokoban_frozen_goal_dead(x, i, to))
        return SOK_INF;
    move_box(x, i, to);
    /* Where the moves table decides the bound anyway, an upper bound on
     * the matching spares solving it (h = 0: the table gives the child's
     * bound in expand's second loop). */
    if (steps_table && run == 1 &&
        gs_sokoban_perim_settles(x, gs_sokoban_child_upper(x, hp, i, to, pl)))
        return 0;
    uint32_t h = gs_sokoban_child_bound(x, hp, i, b, to, pl);
    if (x->perim && !steps_table)
        h = gs_sokoban_perim_bound_push(x, h, b, to, pl, x->child);
    return h;
}

/* Whether `more` bytes fit t's budget beside x's tables and the first
 * search's store s (always, without a budget). */
static bool trace_fits(const sok_ctx *x, const struct sok_trace *t,
                       const gs_search *s, uint64_t more)
{
    return !t->max_bytes ||
           x->bytes + gs_search_bytes(s) + more <= t->max_bytes;
}

/* Records in x->trace the edge from state `from` to `to`, which the
 * child's cost `cost` makes a shortest way to it for now (or, with cost
 * SOK_EDGE_GOAL, the goal `from`). GS_OK, or GS_ELIMIT past the solve's
 * budget or the process's (x->trace->over set). */
static int trace_edge(sok_ctx *x, const gs_search *s, uint64_t from,
                      uint64_t to, uint64_t cost)
{
    struct sok_trace *t = x->trace;
    if (t->nedges == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4096, add = cap - t->cap;
        uint64_t more = add * sizeof *t->edges;
        void *p = NULL;
        if (trace_fits(x, t, s, more))
            p = gs_mem_realloc(t->edges, cap * sizeof *t->edges);
        if (!p) {
            t->over = true;
            return GS_ELIMIT;
        }
        t->edges = p;
        t->cap = cap;
        x->bytes += more;
    }
    t->edges[t->nedges++] = (struct sok_edge){
        (uint32_t)from, (uint32_t)to,
        (uint32_t)(cost > SOK_EDGE_GOAL ? SOK_EDGE_GOAL - 1 : cost)};
    return GS_OK;
}

/* Frees x->trace's edges and takes their bytes off x->bytes. */
static void trace_drop_edges(sok_ctx *x, struct sok_trace *t)
{
    gs_mem_free(t->edges);
    x->bytes -= t->cap * sizeof *t->edges;
    t->edges = NULL;
    t->nedges = t->cap = 0;
}

/* Lists the pushes expand() makes from `player` into x->pushes (x->occ
 * holding the boxes): `any` prunes them to a PI-corral's and (with zone)
 * first analyses the areas into x->zone; with goal macros, a push into a
 * goal room from outside is listed twice, once plain (SOK_PUSH_PLAIN),
 * since the room macro alone would take every box entering the room to
 * the one goal it picks. Returns how many. */
static int expand_pushes(sok_ctx *x, int player, bool *zone)
{
    sok_objective obj = x->obj;
    /* `any`: one analysis of the areas gives the player's area (no flood:
     * `any` counts a push as one, so the walks' lengths are not needed),
     * spares most children a flood, and names the corrals. */
    *zone = obj >= SOK_ANY && x->zone_ok;
    if (*zone)
        gs_sokoban_zone_analyse(x, &x->zone);
    int k = *zone ? list_reached(x, x->zone.comp, x->zone.comp[player])
                  : gs_sokoban_list_pushes(x, player);
    if (obj >= SOK_ANY && k > 1 && !x->no_pi)
        k = *zone ? gs_sokoban_pi_corral_prune_zone(x, &x->zone, player, k)
                  : gs_sokoban_pi_corral_prune(x, k);
    if (!x->goal_macros)
        return k;
    for (int j = 0, k0 = k; j < k0; j++) {
        int b = x->boxes[x->pushes[j].box];
        int to = x->nb[b * 4 + x->pushes[j].dir];
        if (!x->goal[to] && x->garea[to] >= 0 && x->garea[b] != x->garea[to]) {
            x->pushes[k] = x->pushes[j];
            x->pushes[k++].dir |= SOK_PUSH_PLAIN;
        }
    }
    return k;
}

/* One child of expand(): push j of x->pushes made (x->occ updated: the
 * box off b, onto the returned cell), then carried on by a tunnel,
 * corridor or goal macro where one applies. Sets the player's cell
 * behind the box (*pl), the pushes made (*run), the move byte (*tag: the
 * direction, bit 2 a goal macro) and the bound or estimate (*h, SOK_INF
 * when dead); a goal macro that leaves the child dead gives way to the
 * push alone. */
static int expand_child(sok_ctx *x, int j, bool zone, uint32_t hp,
                        bool steps_table, int *pl, int *run, unsigned char *tag,
                        uint32_t *h)
{
    int i = x->pushes[j].box, d = x->pushes[j].dir & 3;
    bool plain_push = x->pushes[j].dir & SOK_PUSH_PLAIN;
    int b = x->boxes[i], to = x->nb[b * 4 + d];
    *pl = b;
    *run = 1;
    x->occ[b] = 0;
    x->occ[to] = 1;
    if (x->tunnels || x->corridors) {
        /* A tunnel or corridor macro: the box goes on to `end`, the
         * player to the cell behind it; the state records direction d
         * only. */
        int end = x->tunnels ? gs_sokoban_tunnel_end(x, b, to, d)
                             : gs_sokoban_corridor_end(x, to, d);
        while (to != end) {
            x->occ[to] = 0;
            *pl = to;
            to = x->nb[to * 4 + d];
            (*run)++;
        }
        x->occ[to] = 1;
    }
    *tag = (unsigned char)d;
    int to0 = to, pl0 = *pl, run0 = *run;
    if (x->goal_macros && !plain_push &&
        ((!x->goal[b] && x->goal[to]) ||
         (x->garea[to] >= 0 && x->garea[b] != x->garea[to]))) {
        /* A goal macro: the box goes on inside its goal area to the goal
         * the packing order wants next; the state's tag says so (bit 2)
         * for answer.c. */
        int node;
        int at = gs_sokoban_goal_macro(x, to, *pl, zone ? b : -1, &node, pl);
        if (at != to) {
            *run += x->gmdep[node];
            x->occ[to] = 0;
            to = at;
            x->occ[to] = 1;
            *tag |= 4;
        }
    }
    *h = child_h(x, i, b, to, *pl, hp, steps_table, *run);
    if (*h == SOK_INF && (*tag & 4)) {
        /* The goal macro's goal left the position dead (the packing order
         * does not see every way in: on SokHard Rachelle the first box
         * taken to the deepest goal shut the player out of the cell it
         * must push a box down from): the push alone. */
        x->occ[to] = 0;
        to = to0;
        *pl = pl0;
        *run = run0;
        *tag = (unsigned char)d;
        x->occ[to] = 1;
        *h = child_h(x, i, b, to, *pl, hp, steps_table, *run);
    }
    return to;
}

/* Adds expand()'s npend children (x->pend, their keys in x->pkeys) to
 * the store as children of `id`: the moves table's bound first where it
 * is keyed like the store; the feature-space search queues a state once,
 * in its own lists. Returns GS_OK or the search core's error. */
static int expand_queue(sok_ctx *x, gs_search *s, uint64_t id, int npend,
                        bool steps_table)
{
    int rc = GS_OK;
    for (int j = 0; j < npend && rc >= 0; j++) {
        const unsigned char *key = x->pkeys + x->key_size * (size_t)j;
        struct sok_pend *c = &x->pend[j];
        if (steps_table) {
            /* The moves table's slots were prefetched with the store's. */
            uint32_t h = gs_sokoban_perim_bound_key(x, c->h, key);
            if (h == SOK_INF)
                continue;
            c->prio = priority(x, c->cost, h);
        }
        uint64_t cid;
        if (!x->fess) {
            rc = gs_search_add_prio(s, key, id, c->tag, c->cost, c->prio, &cid);
            if (rc >= 0 && x->trace && gs_search_cost(s, cid) == c->cost)
                rc = trace_edge(x, s, id, cid, c->cost);
            continue;
        }
        rc = gs_search_add(s, key, id, c->tag, &cid);
        if (rc == 1)
            rc = gs_sokoban_fess_push(x->fess, c->feat, cid, c->h, c->cost,
                                      c->advised);
    }
    return rc < 0 ? rc : GS_OK;
}

/* What the children of one expansion share. */
typedef struct sok_exp {
    gs_search *s;
    uint64_t g; /* the parent's path cost */
    bool zone;  /* x->zone holds the parent's areas */
    bool sym_moved, steps_table;
} sok_exp;

/* One child of expand(), made by expand_child(). */
typedef struct sok_kid {
    int b, to, pl, run;
    unsigned char tag;
    uint32_t h, pen; /* bound or estimate; `any`'s packing penalty */
} sok_kid;

/* Appends live child c of push j to x->pend (its key to x->pkeys, the
 * store's slot prefetched); returns the new count. */
static int expand_pend(sok_ctx *x, const sok_exp *e, int j, sok_kid *c,
                       int npend)
{
    sok_objective obj = x->obj;
    uint32_t feat = 0;
    /* `any` keeps only the player's region (child_region); the weighted
     * searches also count the areas. */
    bool weigh = obj == SOK_ANY && !x->plain && c->h < SOK_INF / 2;
    int regions = 0;
    int p = obj >= SOK_ANY ? child_region(x, e->zone, c->to, c->b, c->pl,
                                          weigh ? &regions : NULL)
                           : c->pl;
    if (weigh) {
        c->h += SOK_CONN_WEIGHT * (uint32_t)(regions - 1);
        if (x->fess)
            feat =
                gs_sokoban_fess_features(x, x->fess, x->child, c->pen, regions);
    }
    uint64_t cost = e->g + gs_sokoban_push_cost(obj, x->pushes[j].walk) +
                    (uint64_t)(c->run - 1) * gs_sokoban_push_cost(obj, 0);
    if (e->sym_moved)
        gs_sokoban_sym_canon_moved(x, p, x->child, c->b, c->to);
    else
        gs_sokoban_store_key(x, p, x->child);
    memcpy(x->pkeys + x->key_size * (size_t)npend, x->key, x->key_size);
    gs_search_prefetch(e->s, x->key);
    if (e->steps_table)
        gs_sokoban_perim_prefetch(x, x->key);
    x->pend[npend++] = (struct sok_pend){.cost = cost,
                                         .prio = priority(x, cost, c->h),
                                         .h = c->h,
                                         .feat = feat,
                                         .tag = c->tag};
    return npend;
}

/* Expands state `id` (player, x->boxes, path cost g): queues every push
 * that leads to a state not known to be dead. Returns GS_OK or the
 * search core's error. */
static int expand(sok_ctx *x, gs_search *s, uint64_t id, int player, uint64_t g,
                  bool have_hp, uint32_t hp)
{
    sok_objective obj = x->obj;
    sok_exp e = {.s = s, .g = g};
    gs_sokoban_occ_set(x, x->boxes, 1);
    int k = expand_pushes(x, player, &e.zone), npend = 0;
    if (!have_hp)
        hp = k > 0 ? gs_sokoban_parent_bound(x, player, x->boxes) : 0;
    if (obj == SOK_ANY && k > 0)
        gs_sokoban_pack_parent(x, x->boxes);
    /* The exact objectives' children's images, made from the parent's
     * (the pushes table's look-ups use the same note). */
    e.sym_moved = x->sym && x->sym_store && obj < SOK_ANY && k > 0;
    if (e.sym_moved)
        gs_sokoban_sym_parent(x, x->boxes);
    e.steps_table = gs_sokoban_perim_steps(x);
    if (x->perim && !e.steps_table)
        gs_sokoban_perim_parent(x, player, e.sym_moved);
    for (int j = 0; j < k; j++) {
        sok_kid c = {.b = x->boxes[x->pushes[j].box]};
        c.to = expand_child(x, j, e.zone, hp, e.steps_table, &c.pl, &c.run,
                            &c.tag, &c.h);
        if (c.h < SOK_INF / 2 && obj == SOK_ANY) { /* no overflow into INF */
            c.pen = gs_sokoban_pack_child(x, c.b, c.to);
            c.h += SOK_PACK_WEIGHT * c.pen;
        }
        if (c.h != SOK_INF)
            npend = expand_pend(x, &e, j, &c, npend);
        x->occ[c.to] = 0;
        x->occ[c.b] = 1;
    }
    if (x->fess && k > 0 && gs_sokoban_fess_advise(x->fess)) {
        npend = advise_pack(x, s, player, g, hp, e.zone, npend);
        /* The areas are counted only with the analysis (zone). */
        int j = e.zone ? gs_sokoban_fess_conn_advice(x->fess, x->pend, npend,
                                                     x->zone.ncomp)
                       : -1;
        if (j >= 0)
            x->pend[j].advised = true;
    }
    gs_sokoban_occ_set(x, x->boxes, 0);
    /* The store's index is far bigger than the caches: one miss per
     * child, overlapped by the prefetches above. */
    return expand_queue(x, s, id, npend, e.steps_table);
}

static int add_start(sok_ctx *x, gs_search *s);

/* Whether the state just popped (id, player, x->boxes, cost g) was put
 * back because its bound rose since it was queued (the perimeter table
 * grew while the search went on), or dropped as dead; else false with
 * *hp its matching (gs_sokoban_parent_bound, kept for its children).
 * The bound it was queued with (the priority's low bits) is a lower
 * bound still, so the table alone decides most of them before any
 * matching is solved. Sets *rc on errors. Exact objectives with a
 * perimeter table only. */
static bool bound_rose(sok_ctx *x, gs_search *s, uint64_t id, int player,
                       uint64_t g, uint32_t *hp, int *rc)
{
    uint64_t popped = gs_search_popped_prio(s);
    uint32_t old = (uint32_t)(popped & 0xffff), h, m;
    bool steps = gs_sokoban_perim_steps(x);
    if (!steps)
        gs_sokoban_occ_set(x, x->boxes, 1);
    bool keyed;
    h = gs_sokoban_perim_floor(x, old, player, x->boxes, &keyed);
    if (h != SOK_INF && priority(x, g, h) <= popped) {
        /* The full bound: the matching, with the table's gap. */
        m = gs_sokoban_parent_bound(x, player, x->boxes);
        *hp = m;
        if (m == SOK_INF)
            h = m;
        else if (steps)
            h = gs_sokoban_perim_bound_key(x, m, gs_search_key(s, id));
        else if (keyed) /* (the matching leaves x->key alone) */
            h = gs_sokoban_perim_bound_key(x, m, x->key);
        else
            h = gs_sokoban_perim_bound(x, m, player, x->boxes);
    }
    if (!steps)
        gs_sokoban_occ_set(x, x->boxes, 0);
    if (h == SOK_INF)
        return true; /* no matching, or the whole table lacks it: dead */
    uint64_t prio = priority(x, g, h);
    if (prio <= popped)
        return false;
    *rc = gs_search_requeue(s, id, prio);
    return true;
}

/* `pushes`' second search: whether the position (player, x->boxes) after
 * g's pushes lies on a solution of the fewest pushes, as the first search
 * found them (its key: the player's area, as `any`'s A* stores it). */
static bool on_path(sok_ctx *x, int player, uint64_t g)
{
    const struct sok_trace *t = x->onpath;
    gs_sokoban_occ_set(x, x->boxes, 1);
    area_key(x, player, x->boxes);
    gs_sokoban_occ_set(x, x->boxes, 0);
    uint64_t id;
    return gs_search_find(t->store, x->key, &id) && id < t->onpath_n &&
           t->onpath[id] && gs_search_cost(t->store, id) == g >> SOK_PUSH_SHIFT;
}

/* `pushes`' first search, once a goal was popped: whether the goal's
 * layer is whole, the pop (its return rc) having found the queue empty
 * or a state past it (f > the goal's pushes). */
static bool trace_done(const sok_ctx *x, const gs_search *s, int rc)
{
    return x->trace && x->trace->found &&
           (rc == 0 ||
            (rc > 0 && gs_search_popped_prio(s) >> 16 > x->trace->pstar));
}

/* Runs the search. Returns 1 with *goal set when solved, 0 when the space
 * is exhausted, or the search core's GS_ELIMIT / GS_ENOMEM; with a cap,
 * 2 (nothing lost: no expansion is cut short) once the store holds so
 * many states that one more expansion might pass it; SOK_PAUSED
 * (nothing lost either) after the first expansion that ends once
 * x->pause_ns, when set, has come. An empty store gets
 * the start state first. States numbered below `reeval` (exact
 * objectives: those stored before the perimeter table last grew) have
 * their bound looked up again when popped, and are put back when it
 * rose (bound_rose); the others were queued with the table as it is. */
static int search(sok_ctx *x, gs_search *s, uint64_t cap, uint64_t reeval,
                  uint64_t *goal)
{
    sok_objective obj = x->obj;
    if (gs_search_count(s) == 0) {
        int rc = add_start(x, s);
        if (rc < 0)
            return rc;
    }
    uint64_t room = (uint64_t)x->nboxes * 4 + 2; /* children, at most */
    for (;;) {
        if (cap && gs_search_count(s) + room > cap)
            return 2;

        uint64_t id, g = 0;
        int rc = x->fess ? gs_sokoban_fess_pop(x->fess, &id, &g)
                         : gs_search_pop(s, &id);
        if (trace_done(x, s, rc)) {
            *goal = x->trace->goal;
            return 1;
        }
        if (rc <= 0)
            return rc;
        if (x->fess)
            x->fess_expanded++;
        else
            g = gs_search_cost(s, id);
        int player = gs_sokoban_key_unpack(x, gs_search_key(s, id), x->boxes);
        if (x->onpath && !on_path(x, player, g))
            continue;
        if (gs_sokoban_all_on_goals(x, x->boxes)) {
            if (!x->trace) {
                *goal = id;
                return 1;
            }
            /* The first search goes on to the end of the goal's layer,
             * which holds the last states of other such solutions. */
            if (!x->trace->found) {
                x->trace->found = true;
                x->trace->goal = id;
                x->trace->pstar = (uint32_t)g;
            }
            rc = trace_edge(x, s, id, id, SOK_EDGE_GOAL);
            if (rc < 0)
                return rc;
            continue;
        }
        uint32_t hp = 0;
        bool have_hp = id < reeval && x->perim && obj != SOK_ANY && !x->fess;
        if (have_hp && bound_rose(x, s, id, player, g, &hp, &rc)) {
            if (rc < 0)
                return rc;
            continue;
        }
        rc = expand(x, s, id, player, g, have_hp, hp);
        if (rc < 0)
            return rc;
        if (x->pause_ns && gs_now_ns() >= x->pause_ns)
            return SOK_PAUSED;
    }
}

/* Queues the start state (none when it is dead). GS_OK or the search
 * core's error. */
static int add_start(sok_ctx *x, gs_search *s)
{
    sok_objective obj = x->obj;
    uint32_t h = x->start_dead ? SOK_INF
                               : gs_sokoban_lower_bound(x, x->start_player,
                                                        x->start_boxes);
    if (h != SOK_INF && x->perim) {
        gs_sokoban_occ_set(x, x->start_boxes, 1);
        h = gs_sokoban_perim_bound(x, h, x->start_player, x->start_boxes);
        gs_sokoban_occ_set(x, x->start_boxes, 0);
    }
    if (h != SOK_INF) {
        int p = x->start_player;
        gs_sokoban_occ_set(x, x->start_boxes, 1);
        if (obj >= SOK_ANY)
            p = gs_sokoban_flood(x, p);
        gs_sokoban_store_key(x, p, x->start_boxes);
        gs_sokoban_occ_set(x, x->start_boxes, 0);
        uint64_t id = 0;
        int rc = x->fess ? gs_search_add(s, x->key, GS_NO_PARENT, 0, &id)
                         : gs_search_add_prio(s, x->key, GS_NO_PARENT, 0, 0,
                                              priority(x, 0, h), NULL);
        if (rc >= 0 && x->fess)
            rc = gs_sokoban_fess_push(x->fess, 0, id, h, 0, false);
        if (rc < 0)
            return rc;
    }
    return GS_OK;
}

/* Writes the outcome of search s into res: rc is search()'s (1: found,
 * the goal record `goal`). Returns GS_OK or an error (err filled). */
static int finish_search(sok_ctx *x, gs_search *s, int rc, uint64_t goal,
                         gs_result *res, gs_error *err)
{
    if (rc == 1) {
        rc = gs_sokoban_answer(x, s, goal, res, err);
        /* Both exact objectives expand a goal first at its optimal cost;
         * `any` answers (SOK_ANY_ASTAR's too: tests) are only known
         * optimal when empty. */
        res->optimal = rc == GS_OK && (x->obj < SOK_ANY || res->steps == 0);
        return rc;
    }
    rc = gs_search_finish(s, rc, false, 0, NULL, false, res);
    if (rc)
        gs_error_set(err, rc, "sokoban: out of memory in the search");
    return rc;
}

/* Records search s's size in st (may be NULL) and frees s. */
static void search_close(const sok_ctx *x, gs_search *s, gs_sokoban_stats *st)
{
    if (st) {
        st->states = gs_search_count(s);
        st->store_bytes = gs_search_bytes(s);
        st->table_bytes = x->bytes;
    }
    gs_search_free(s);
}

/* One search over x with limits lim: fills res (and st). Returns GS_OK
 * or an error. */
static int run_phase(sok_ctx *x, const gs_limits *lim, gs_result *res,
                     gs_sokoban_stats *st, gs_error *err)
{
    gs_search_config cfg = {
        .key_size = x->key_size,
        .queue = GS_QUEUE_PRIORITY,
        .limits = lim,
        .bound_shift = bound_shift(x->obj),
    };
    gs_search *s = NULL;
    int rc = gs_search_new(&cfg, &s);
    if (rc)
        return gs_error_set(err, rc, "sokoban: cannot start the search");
    uint64_t goal = 0;
    rc = search(x, s, 0, 0, &goal);
    uint64_t here = gs_search_expanded(s);
    rc = finish_search(x, s, rc, goal, res, err);
    /* Phases and rounds each run a search of their own: the callers sum
     * the answer's count, and the progress reports go on from this one's
     * (they never go back). */
    res->expanded = here;
    gs_progress_add_expanded(lim, here);
    search_close(x, s, st);
    return rc;
}

/* `any`'s feature-weighted greedy phase: with tunnel and goal-area macros
 * first; when that search runs out of states (the macros may have skipped the
 * only way) the plain one decides, so `impossible` stays a proof. */
static int greedy_phase(sok_ctx *x, const gs_limits *lim, gs_result *res,
                        gs_sokoban_stats *st, gs_error *err)
{
    x->obj = SOK_ANY;
    x->plain = false;
    x->tunnels = true;
    x->goal_macros = x->garea != NULL;
    int rc = run_phase(x, lim, res, st, err);
    x->tunnels = false;
    x->goal_macros = false;
    if (rc == GS_OK && res->status == GS_IMPOSSIBLE && !x->g->macros_alone) {
        uint64_t expanded = res->expanded;
        gs_result_clear(res);
        rc = run_phase(x, lim, res, st, err);
        res->expanded += expanded;
    }
    return rc;
}

/* One of `any`'s two feature-space searches kept between its turns
 * (fess_pair): its store, open lists and limits (the store's config
 * points at lim, so a run stays where it was opened). */
typedef struct sok_frun {
    gs_search *s;
    sok_fess *fess;
    gs_limits lim;
    uint64_t goal, expanded;
    int64_t ns; /* the time it has run */
    int rc;     /* search()'s last answer; SOK_PAUSED while it may go on */
} sok_frun;

/* Shares max_bytes (0: no cap) out within run r: its open lists take a
 * quarter; the store, which serves only as the visited set, the rest. */
static void frun_budget(sok_frun *r, uint64_t max_bytes)
{
    gs_sokoban_fess_set_budget(r->fess, max_bytes / 4);
    r->lim.max_bytes = max_bytes - max_bytes / 4;
}

/* Opens run r within lim, by weight too when dual. GS_OK or an error. */
static int frun_open(sok_ctx *x, sok_frun *r, const gs_limits *lim, bool dual,
                     gs_error *err)
{
    memset(r, 0, sizeof *r);
    r->lim = *lim;
    x->fess_dual = dual;
    r->fess = gs_sokoban_fess_new(x, lim->max_bytes / 4);
    x->fess_dual = false;
    if (!r->fess)
        return gs_error_set(err, GS_ENOMEM, "sokoban: out of memory");
    frun_budget(r, lim->max_bytes);
    gs_search_config cfg = {
        .key_size = x->key_size,
        .queue = GS_QUEUE_FIFO,
        .limits = &r->lim,
        .bound_shift = bound_shift(SOK_ANY),
    };
    int rc = gs_search_new(&cfg, &r->s);
    if (rc) {
        gs_sokoban_fess_free(r->fess);
        r->fess = NULL;
        return gs_error_set(err, rc, "sokoban: cannot start the search");
    }
    r->rc = SOK_PAUSED;
    return GS_OK;
}

/* Runs r until `until` (between two expansions), its end or its limits. */
static void frun_turn(sok_ctx *x, sok_frun *r, int64_t until)
{
    int64_t t0 = gs_now_ns();
    x->fess = r->fess;
    x->fess_expanded = 0;
    x->pause_ns = until;
    r->rc = search(x, r->s, 0, 0, &r->goal);
    x->pause_ns = 0;
    r->ns += gs_now_ns() - t0;
    r->expanded += x->fess_expanded;
    x->fess = NULL;
}

/* Closes r; with res, first writes its outcome there (GS_OK or an
 * error), else only adds its states expanded to *expanded. */
static int frun_close(sok_ctx *x, sok_frun *r, const gs_limits *lim,
                      gs_result *res, uint64_t *expanded, gs_sokoban_stats *st,
                      gs_error *err)
{
    int rc = GS_OK;
    if (!r->s)
        return rc;
    uint64_t here = gs_search_expanded(r->s) + r->expanded;
    if (res) {
        x->fess = r->fess; /* answer.c spells out the advisor's moves */
        rc = finish_search(x, r->s, r->rc, r->goal, res, err);
        if (gs_sokoban_fess_over(r->fess) && res->status == GS_LIMIT)
            res->limit = GS_LIMIT_MEMORY;
        res->expanded = here;
        x->fess = NULL;
    } else {
        *expanded += here;
    }
    gs_progress_add_expanded(lim, here);
    gs_sokoban_fess_free(r->fess);
    search_close(x, r->s, st);
    memset(r, 0, sizeof *r);
    return rc;
}

/* The length of a turn of run i (0: by estimate) when the two take turns
 * (fess_pair). */
static int64_t fess_turn(int i)
{
    return SOK_FESS_TURN_NS / 100 *
           (i == 0 ? SOK_FESS_SHARE : 100 - SOK_FESS_SHARE);
}

int64_t gs_sokoban_fess_until(int run, int64_t now, int64_t burst_end,
                              int64_t alone)
{
    if (now < burst_end)
        return run == 1 ? burst_end : now;
    if (now < alone)
        return run == 0 ? alone : now;
    return now + fess_turn(run);
}

/* fess_pair's two runs, their schedule and where they stand. */
typedef struct sok_pair {
    sok_frun run[2];
    int64_t burst_end, alone, solo_turn; /* see fess_pair */
    int64_t stop; /* 0, or when both pause for another slice (pair_hold) */
    bool live[2];
    int found;       /* the run that answers (solved or the deadline) */
    bool dry;        /* a run ran dry */
    uint64_t others; /* states expanded by the runs not answering */
} sok_pair;

/* Gives run i of p its turn (see fess_pair for the schedule) and acts on
 * how it ended. GS_OK, or an error (err filled). */
static int pair_turn(sok_ctx *x, sok_pair *p, int i, const gs_limits *lim,
                     gs_sokoban_stats *st, gs_error *err)
{
    int64_t now = gs_now_ns(), until;
    if (p->live[0] && p->live[1])
        until = gs_sokoban_fess_until(i, now, p->burst_end, p->alone);
    else /* one: it runs to its end */
        until = p->solo_turn ? now + p->solo_turn : 0;
    if (p->stop && (!until || until > p->stop))
        until = p->stop;
    sok_frun *r = &p->run[i];
    frun_turn(x, r, until);
    bool last = i == 1 && r->rc == SOK_PAUSED && p->alone == INT64_MAX &&
                gs_now_ns() >= p->burst_end;
    if (r->rc < 0 && r->rc != GS_ELIMIT)
        return gs_error_set(err, r->rc, "sokoban: out of memory in the search");
    if (r->rc == 1) {
        p->found = i;
    } else if (gs_limits_expired(lim)) {
        /* The deadline: `limit` (a run gone dry proves nothing, its
         * macros may have skipped the only way). */
        r->rc = GS_ELIMIT;
        p->found = i;
    } else if (r->rc == 0) {
        /* Ran dry: the other has the same children and macros, so it
         * would too, only later (SokHard Eiligh: each run expands 563,195
         * states); the plain search decides now. */
        p->dry = true;
        p->live[0] = p->live[1] = false;
    } else if (r->rc != SOK_PAUSED || last) {
        /* Refused memory, or its burst was its last turn: its store goes,
         * and the other may use the whole budget. */
        p->live[i] = false;
        frun_close(x, r, lim, NULL, &p->others, st, err);
        if (p->live[1 - i])
            frun_budget(&p->run[1 - i], lim->max_bytes);
    }
    return GS_OK;
}

/* The context's settings for the feature-space searches; returns the
 * learning flag pair_leave puts back. They go without the learned
 * patterns: their pruning sends them elsewhere and they find fewer
 * answers in time (Microban II 109: 293,232 -> 362,128 states expanded;
 * 131: 8.8 s -> past 10 s at 10 s each); the other searches keep them,
 * and so does the one with the A*'s table (x->perim), which solves
 * Microban I 153 with them in about 0.7 s (the weighted greedy's slice
 * is the only other way, and a slow machine misses it) and SokHard Disa
 * and Romy at 10 s, and leaves 109 to it within 0.2 s of before. */
static bool pair_enter(sok_ctx *x)
{
    bool learning = x->learning;
    x->obj = SOK_ANY;
    x->plain = false;
    x->tunnels = true;
    x->goal_macros = x->garea != NULL;
    x->learning = learning && x->perim;
    return learning;
}

static void pair_leave(sok_ctx *x, bool learning)
{
    x->tunnels = false;
    x->goal_macros = false;
    x->learning = learning;
}

/* Opens p's runs within lim on fess_pair's schedule. GS_OK or an error;
 * either way pair_end (or pair_drop) closes what it opened. */
static int pair_open(sok_ctx *x, sok_pair *p, const gs_limits *lim,
                     int64_t burst_end, int64_t alone, int64_t solo_turn,
                     gs_error *err)
{
    memset(p, 0, sizeof *p);
    p->found = -1;
    p->burst_end = burst_end;
    p->alone = alone;
    p->solo_turn = solo_turn;
    bool pair = burst_end > 0 || alone < INT64_MAX;
    gs_limits each = *lim;
    if (pair && each.max_bytes)
        each.max_bytes /= 2;
    bool learning = pair_enter(x);
    int rc = frun_open(x, &p->run[0], &each, false, err);
    if (!rc && pair)
        rc = frun_open(x, &p->run[1], &each, true, err);
    pair_leave(x, learning);
    p->live[0] = !rc;
    p->live[1] = !rc && pair;
    return rc;
}

/* Whether p's runs only paused at p->stop: none answered or ran dry, and
 * one at least goes on. */
static bool pair_held(const sok_pair *p)
{
    return p->found < 0 && !p->dry && (p->live[0] || p->live[1]);
}

/* The runs of p take their turns until one answers, runs dry or refuses
 * memory, or p->stop (each live run has a turn first, even past it).
 * GS_OK or an error. */
static int pair_go(sok_ctx *x, sok_pair *p, const gs_limits *lim,
                   gs_sokoban_stats *st, gs_error *err)
{
    bool learning = pair_enter(x);
    int rc = GS_OK;
    do
        for (int i = 0; i < 2 && !rc && p->found < 0; i++)
            if (p->live[i])
                rc = pair_turn(x, p, i, lim, st, err);
    while (!rc && pair_held(p) && !(p->stop && gs_now_ns() >= p->stop));
    pair_leave(x, learning);
    return rc;
}

/* Closes every run of p but the one answering (p->found), their states
 * expanded added to p->others; none goes on after. */
static void pair_close_others(sok_ctx *x, sok_pair *p, const gs_limits *lim,
                              gs_sokoban_stats *st)
{
    for (int i = 0; i < 2; i++)
        if (i != p->found)
            frun_close(x, &p->run[i], lim, NULL, &p->others, st, NULL);
    p->live[0] = p->live[1] = false;
}

/* Closes p's runs (after pair_go gave rc) and writes the outcome to res:
 * the answering run's; when a run ran dry, the plain search's (the macros
 * may have skipped the only way); else `limit` (refused memory). */
static int pair_end(sok_ctx *x, sok_pair *p, int rc, const gs_limits *lim,
                    gs_result *res, gs_sokoban_stats *st, gs_error *err)
{
    bool learning = pair_enter(x);
    pair_close_others(x, p, lim, st);
    if (!rc && p->found >= 0) {
        rc = frun_close(x, &p->run[p->found], lim, res, NULL, st, err);
    } else if (!rc && p->dry) {
        pair_leave(x, learning);
        rc = run_phase(x, lim, res, st, err);
    } else if (!rc) {
        res->status = GS_LIMIT; /* refused memory */
        res->limit = GS_LIMIT_MEMORY;
    }
    res->expanded += p->others;
    p->others = 0;
    pair_leave(x, learning);
    return rc;
}

/* `any`'s feature-space slices: the search by estimate, and with a
 * burst_end or an `alone` before INT64_MAX the one whose cells also pick
 * by weight, on the schedule of gs_sokoban_fess_until (the search by
 * weight alone until burst_end, the one by estimate alone until `alone`,
 * INT64_MAX: to the end; then turns, from the start when both are 0; the
 * memory budget is halved between them); else alone, in turns of
 * solo_turn when not 0, which tests use. Both
 * are kept between turns, so no work is lost: each finds whatever it finds
 * alone, at the time it would alone divided by its share, roughly. The search
 * by weight solves within about a second XSokoban levels the other misses in a
 * minute (21, 37, 47, 61, 70, 76, 81), the one by estimate Microban II 131,
 * which the other misses. When a run ran dry (the macros may have skipped
 * the only way) the plain search decides (as in greedy_phase); when both
 * ended otherwise, they refused memory: `limit`. */
static int fess_pair(sok_ctx *x, const gs_limits *lim, int64_t burst_end,
                     int64_t alone, int64_t solo_turn, gs_result *res,
                     gs_sokoban_stats *st, gs_error *err)
{
    sok_pair p;
    int rc = pair_open(x, &p, lim, burst_end, alone, solo_turn, err);
    if (!rc)
        rc = pair_go(x, &p, lim, st, err);
    return pair_end(x, &p, rc, lim, res, st, err);
}

/* `any`'s feature-space slice past SOK_ANY_SHORT_NS: as fess_pair's (the
 * search by weight to burst_end, then the one by estimate alone), but
 * both are opened for the whole solve (deadline whole's), pause at part's
 * deadline and are kept in *p for the last slice (pair_resume), which
 * goes on where they stopped: from scratch, the search by estimate did
 * its 9.5 s here again first, more than its share of the last slice at
 * 60 s (6 s). Returns as
 * fess_pair; the slice's result is a limit on time while p is held
 * (pair_held), and the states expanded are counted when p ends. */
static int pair_hold(sok_ctx *x, sok_pair *p, const gs_limits *part,
                     const gs_limits *whole, int64_t burst_end, gs_result *res,
                     gs_sokoban_stats *st, gs_error *err)
{
    gs_limits l = *part;
    l.deadline_ns = whole->deadline_ns;
    int rc = pair_open(x, p, &l, burst_end, part->deadline_ns, 0, err);
    p->stop = part->deadline_ns;
    if (!rc)
        rc = pair_go(x, p, &l, st, err);
    if (!rc && pair_held(p)) {
        res->status = GS_LIMIT;
        res->limit = GS_LIMIT_TIME;
        return GS_OK;
    }
    return pair_end(x, p, rc, part, res, st, err);
}

/* Ends p, held by pair_hold, within lim: from where they stopped, the
 * search by weight first runs alone until it has run as long as the one
 * by estimate, which had pair_hold's slice to itself, then the two take
 * turns. On XSokoban at 60 s the search by weight solves the levels this
 * slice solves (alone: 32 in 2.1 s, 76 in 8.4, 18 in 18.9, 75 in 27.8);
 * the search by estimate alone solved none of 18, 75 and the 26 missed
 * within 25 s (December 5), so it gains only on longer limits. Either
 * answer ends both. */
static int pair_resume(sok_ctx *x, sok_pair *p, const gs_limits *lim,
                       gs_result *res, gs_sokoban_stats *st, gs_error *err)
{
    int64_t behind = p->run[0].ns - p->run[1].ns;
    p->burst_end =
        p->live[0] && p->live[1] && behind > 0 ? gs_now_ns() + behind : 0;
    p->stop = p->alone = 0;
    int rc = pair_go(x, p, lim, st, err);
    return pair_end(x, p, rc, lim, res, st, err);
}

/* Closes the runs of p, held by pair_hold, when a slice between answers;
 * adds their states expanded to *expanded. */
static void pair_drop(sok_ctx *x, sok_pair *p, const gs_limits *lim,
                      uint64_t *expanded, gs_sokoban_stats *st)
{
    pair_close_others(x, p, lim, st); /* held: none answered */
    *expanded += p->others;
    p->others = 0;
}

/* The bytes the runs of p hold: their stores and open lists. */
static uint64_t pair_bytes(const sok_pair *p)
{
    uint64_t n = 0;
    for (int i = 0; i < 2; i++)
        if (p->run[i].s)
            n += gs_search_bytes(p->run[i].s) +
                 gs_sokoban_fess_bytes(p->run[i].fess);
    return n;
}

/* Tests (gs_sokoban.fess_hold_ns): the search by estimate alone, held as
 * pair_hold holds it, every hold_ns, with the search backwards run to its
 * end in between (the two share the context). */
static int fess_held(sok_ctx *x, const gs_limits *lim, int64_t hold_ns,
                     gs_result *res, gs_sokoban_stats *st, gs_error *err)
{
    sok_pair p;
    int rc = pair_open(x, &p, lim, 0, INT64_MAX, 0, err);
    while (!rc) {
        p.stop = gs_now_ns() + hold_ns;
        rc = pair_go(x, &p, lim, st, err);
        if (rc || !pair_held(&p))
            break;
        gs_result between;
        gs_result_clear(&between);
        rc = gs_sokoban_pull(x, lim, 0, &between, st, err);
        gs_result_free(&between);
    }
    return pair_end(x, &p, rc, lim, res, st, err);
}

/* The search by weight's burst at the start of `any`'s last slice, for a
 * deadline span ns away: SOK_FESS_BURST percent of it, up to short_ns
 * (SOK_ANY_SHORT_NS but in tests). */
static int64_t fess_burst(int64_t span, int64_t short_ns)
{
    if (span > short_ns)
        span = short_ns;
    return span > 0 ? span / 100 * SOK_FESS_BURST : 0;
}

/* The time `pct` percent of the way from `from` to `deadline`; deadline
 * itself when it is not after from (0: none). */
static int64_t deadline_share(int64_t from, int64_t deadline, int64_t pct)
{
    return deadline > from ? from + (deadline - from) / 100 * pct : deadline;
}

/* The perimeter table's rounds between the exact search's (exact_phases):
 * their limits, and the round under way. */
typedef struct {
    gs_limits plim; /* the table's: its bytes, its first round's time */
    int share;      /* percent of the time left a later round may take */
    bool exact;     /* an exact objective's rounds (not `any`'s A* slice) */
    bool first;     /* the first round is still to come */
} table_rounds;

/* The table: at most a quarter of what the store may use, and its growth
 * within a share of the time left (the search goes on between rounds, so
 * its work is never lost to the table's). */
static table_rounds table_rounds_init(const sok_ctx *x, const gs_limits *slim)
{
    table_rounds r = {.plim = *slim, .first = true};
    r.plim.max_bytes = slim->max_bytes / 4;
    if (!r.plim.max_bytes || r.plim.max_bytes > SOK_PERIM_MAX_BYTES)
        r.plim.max_bytes = SOK_PERIM_MAX_BYTES;
    /* (`pushes`' first search is `any`'s A*, with its rounds.) */
    bool pushes = x->obj == SOK_PUSHES || x->trace;
    r.share = x->g->perim_share ? x->g->perim_share
              : pushes          ? SOK_PERIM_SHARE_PUSHES
                                : SOK_PERIM_SHARE;
    if (r.share < 0)
        r.share = 0;
    r.plim.deadline_ns =
        deadline_share(gs_now_ns(), slim->deadline_ns, r.share);
    /* The exact objectives give each later round the share of the time
     * left at its start, not of the time left at the first: a share fixed
     * at the first ended the table at whichever layer the machine's speed
     * reached by then, and the search went on to the end without the
     * next one (Microban I 139 `moves` at 10 s on a slow day: 5 runs of
     * 12 past the limit, the table ending at depth 180 to 185 when traced;
     * with the share per round 18 of 18 solved, 395,398 to 512,489 states
     * expanded, depth 217 to 225 when traced).
     * `any`'s A* keeps the fixed share: its slice hands the table on
     * (table_finish), and its rounds were set with SokHard. */
    r.exact = x->obj != SOK_ANY_ASTAR || pushes;
    return r;
}

/* Grows the table by a round started at round_ns, up to `upto` positions.
 * Returns whether it is the last round: the table stopped growing, its
 * time ran out, or not even its next layer would be whole in time. */
static bool table_round(sok_ctx *x, const gs_limits *slim, table_rounds *r,
                        int64_t round_ns, uint64_t upto)
{
    /* Only a whole layer adds to the bound, so a round ends at a layer's
     * boundary (perim.c); when not even the next layer would be whole in
     * the table's time, the search goes on to the end instead (Microban I
     * 144 `pushes` at a 10 s limit: 7.7 to 7.8 s -> 5.3 to 5.8 s, the 2 s
     * of a layer the deadline cut spared).
     * The first round, small (SOK_PERIM_FIRST), is cut by the solve's
     * deadline only: cut by the share, its depth followed the machine's
     * load (SokHard Zandra `any`: its whole table of 514,902 positions
     * took 0.32 s alone and up to 0.52 s beside another solve, against a
     * share of 0.45 s; the A* slice solved it at 0.5 s, or nothing did
     * within 10 s). */
    gs_limits rlim = r->plim;
    if (r->first)
        rlim.deadline_ns = slim->deadline_ns;
    else if (r->exact)
        rlim.deadline_ns =
            deadline_share(round_ns, slim->deadline_ns, r->share);
    /* (Once `pushes`' first search has its goal, only the rest of the
     * goal's layer is left: no table grows for it.) */
    bool last =
        (x->trace && x->trace->found) || !gs_sokoban_perim_layer_fits(x, &rlim);
    if (!last) {
        gs_sokoban_perim_build(x, &rlim, upto);
        /* (Past the first round, rlim is plim or the round's share.) */
        last = !gs_sokoban_perim_growing(x) ||
               gs_limits_expired(r->first ? &r->plim : &rlim);
    }
    r->first = false;
    return last;
}

/* A moves table not deep enough to matter at the start (it grows by a
 * few layers a round): freed, and the search started afresh without it,
 * since the bounds it queued are too high now. *expanded gets the old
 * search's count. 0, or the new store's error. */
static int drop_moves_table(sok_ctx *x, const gs_limits *slim,
                            const gs_search_config *cfg, uint64_t tables,
                            gs_search **s, uint64_t *expanded)
{
    gs_sokoban_perim_free(x);
    x->bytes = tables; /* the table was all that came since */
    *expanded += gs_search_expanded(*s);
    gs_progress_add_expanded(slim, gs_search_expanded(*s));
    gs_search_free(*s);
    *s = NULL;
    return gs_search_new(cfg, s);
}

/* The next round's store limits (*lim: its bytes what the tables leave of
 * the budget) and state cap (0: none, in the last round). */
static uint64_t round_limits(const sok_ctx *x, const gs_limits *slim,
                             gs_search *s, uint64_t tables, uint64_t upto,
                             bool last, gs_limits *lim)
{
    if (slim->max_bytes) {
        uint64_t more = x->bytes > tables ? x->bytes - tables : 0;
        lim->max_bytes = slim->max_bytes > more ? slim->max_bytes - more : 1;
    }
    uint64_t cap = gs_search_count(s) + upto / SOK_PERIM_RATIO;
    if (last || (slim->max_states && cap >= slim->max_states))
        cap = 0;
    return cap;
}

/* The exact objectives: a first search capped at SOK_PERIM_TRIGGER states
 * solves most levels at once. Past it, rounds: the perimeter table
 * (perim.c) grows to about SOK_PERIM_FIRST positions (a layer's
 * boundary), doubling each round, and the search goes on with its
 * stronger bound, allowed 1/SOK_PERIM_RATIO as many more states as the
 * table holds and, with a deadline, no more time than the table's round
 * took; the last round (the table full, or its share of the time gone)
 * searches up to the limits. Both sides cost time exponential in their
 * depth, so the rounds keep them in balance: in time, since a state costs
 * the search 4 to 90 times what a position costs the table (Microban I
 * 139 `moves`: 3 us against 0.14 us; 144 `pushes`: 12 us against 0.8 us).
 * Without a deadline the rounds count states only; only the table's gap
 * is still found within a time bound (perim.c), so a solve cut by a state
 * cap may expand a few states more or fewer from run to run (Microban I
 * 144 `moves` capped at 400,000 states stored: 166,298 to 166,604
 * expanded in 24 runs of two builds). The search is not restarted: the
 * table's bound only rises as it grows (perim.c keeps the larger gap), so
 * every queued priority stays a lower bound, and each popped state's
 * bound is looked up again and the state put back when it rose
 * (bound_rose); the first goal popped stays optimal. A moves table that
 * neither is whole nor lifts the start's bound is dropped, and the last
 * round starts a search afresh without it (the bounds fell). A pushes
 * table is kept: it grows about one layer a round, its k + 1 soon passes
 * the start's matching, and its exact distances near the goals prune the
 * deep states (Microban I 144 `pushes`: solved in 16.5 s at a 30 s limit,
 * not at 60 s when dropped; 145: 49,008 -> 16,020 states, 146: 22,473 ->
 * 7,654); the moves table kept loses 139. `any`'s A* on a rearrangement
 * (SOK_REARRANGE_DIV) goes without a table. */
static int exact_phases(sok_ctx *x, const gs_limits *slim, gs_result *res,
                        gs_sokoban_stats *st, gs_error *err)
{
    /* The store's limits: the solve's, its bytes less the tables'. */
    gs_limits lim = *slim;
    gs_search_config cfg = {
        .key_size = x->key_size,
        .queue = GS_QUEUE_PRIORITY,
        .limits = &lim,
        .bound_shift = bound_shift(x->obj),
    };
    uint64_t trig =
        x->g->perim_trigger ? x->g->perim_trigger : SOK_PERIM_TRIGGER;
    uint64_t cap =
        (slim->max_states && slim->max_states <= trig) || x->rearrange ? 0
                                                                       : trig;
    gs_search *s = NULL;
    int rc = gs_search_new(&cfg, &s);
    if (rc)
        return gs_error_set(err, rc, "sokoban: cannot start the search");
    uint64_t goal = 0, expanded = 0;
    rc = search(x, s, cap, 0, &goal);
    table_rounds rounds = table_rounds_init(x, slim);
    uint64_t tables = x->bytes,
             upto = x->g->perim_first ? x->g->perim_first : SOK_PERIM_FIRST;
    while (rc == 2) {
        int64_t round_ns = gs_now_ns();
        bool last = table_round(x, slim, &rounds, round_ns, upto);
        if (!x->perim) {
            last = true; /* no table for this level: the search goes on */
        } else if (x->obj == SOK_MOVES && !gs_sokoban_perim_lifts_start(x)) {
            last = true;
            rc = drop_moves_table(x, slim, &cfg, tables, &s, &expanded);
            if (rc)
                return gs_error_set(err, rc,
                                    "sokoban: cannot start the search");
        }
        /* `any`'s A* leaves a table cut within a layer to the slice
         * that uses it next (gs_sokoban_perim_finish_layer). */
        if (last && rounds.exact)
            gs_sokoban_perim_seal(x);
        cap = round_limits(x, slim, s, tables, upto, last, &lim);
        /* (139 `moves` at 10 s: 5.2 to 5.4 s -> 4.1 to 4.2 s.) */
        if (!last && slim->deadline_ns) {
            int64_t now = gs_now_ns();
            x->pause_ns = now + (now - round_ns);
        }
        rc = search(x, s, cap, gs_search_count(s), &goal);
        x->pause_ns = 0;
        if (rc == SOK_PAUSED)
            rc = 2; /* nothing lost: the next round goes on */
        upto *= 2;
    }
    uint64_t here = gs_search_expanded(s);
    if (rc == 1 && x->trace) {
        x->trace->store = s; /* the caller's now (pushes_two_phase) */
        res->expanded = here + expanded;
        gs_progress_add_expanded(slim, here);
        return GS_OK;
    }
    rc = finish_search(x, s, rc, goal, res, err);
    res->expanded = here + expanded;
    gs_progress_add_expanded(slim, here);
    search_close(x, s, st);
    return rc;
}

/* Marks in t->onpath the states of t's store on a solution of t->pstar
 * pushes: the goals popped at that cost, then, parents by falling cost,
 * each whose recorded edge is still a shortest way to a marked child.
 * Frees the edges. GS_OK, or GS_ELIMIT when the marks and their sort
 * would pass the solve's memory budget or the process's. */
static int trace_mark(sok_ctx *x, struct sok_trace *t)
{
    const gs_search *s = t->store;
    size_t n = gs_search_count(s), ne = t->nedges, top = t->pstar;
    uint64_t need =
        n + (top + 2) * sizeof(size_t) + (ne ? ne : 1) * sizeof(uint32_t);
    if (!trace_fits(x, t, s, need))
        return GS_ELIMIT;
    t->onpath = gs_sokoban_tab_alloc(x, n, true);
    t->onpath_n = t->onpath ? n : 0;
    size_t *at = gs_mem_calloc(top + 2, sizeof *at);
    uint32_t *order = gs_mem_malloc((ne ? ne : 1) * sizeof *order);
    if (!t->onpath || !at || !order) {
        gs_mem_free(at);
        gs_mem_free(order);
        return GS_ELIMIT;
    }
    /* The edges by their parent's cost, highest first (counting sort). */
    for (size_t e = 0; e < ne; e++) {
        uint64_t c = gs_search_cost(s, t->edges[e].from);
        at[top - (c < top ? c : top) + 1]++;
    }
    for (size_t c = 1; c <= top + 1; c++)
        at[c] += at[c - 1];
    for (size_t e = 0; e < ne; e++) {
        uint64_t c = gs_search_cost(s, t->edges[e].from);
        order[at[top - (c < top ? c : top)]++] = (uint32_t)e;
    }
    for (size_t e = 0; e < ne; e++) {
        const struct sok_edge *d = &t->edges[order[e]];
        if (d->cost == SOK_EDGE_GOAL)
            t->onpath[d->from] |= gs_search_cost(s, d->from) == t->pstar;
        else if (t->onpath[d->to] && gs_search_cost(s, d->to) == d->cost)
            t->onpath[d->from] = 1;
    }
    gs_mem_free(at);
    gs_mem_free(order);
    trace_drop_edges(x, t);
    return GS_OK;
}

/* `pushes` in two searches. The first, `any`'s A* (the player's area in
 * the state, so a few times fewer states; without PI-corral pruning,
 * which may lose the shortest solutions), finds the fewest pushes and
 * goes on to the end of that layer, recording its shortest edges; the
 * states on a solution of those pushes are marked (trace_mark). The
 * second, the `pushes` A* over exact cells, expands only positions whose
 * area is marked at the same pushes, so it ranks those solutions by
 * moves alone. (Microban I 144: the one search expands every position of
 * fewer pushes, 499,398 pops.) */
static int pushes_two_phase(sok_ctx *x, const gs_limits *slim, gs_result *res,
                            gs_sokoban_stats *st, gs_error *err)
{
    uint64_t tables = x->bytes;
    struct sok_trace t = {.max_bytes =
                              slim->max_bytes ? slim->max_bytes + tables : 0};
    if (!x->zone_ok) /* (without, its children's areas are flooded) */
        x->zone_ok = gs_sokoban_zone_alloc(x, &x->zone);
    x->trace = &t;
    x->obj = SOK_ANY_ASTAR;
    x->no_pi = true;
    int rc = exact_phases(x, slim, res, st, err);
    x->trace = NULL;
    x->no_pi = false;
    x->obj = SOK_PUSHES;
    if (t.over && res->status == GS_LIMIT)
        res->limit = GS_LIMIT_MEMORY;
    if (rc == GS_OK && t.store) {
        uint64_t first = res->expanded;
        rc = trace_mark(x, &t);
        gs_result_clear(res);
        if (rc) {
            /* A limit, as when a table is refused. */
            res->status = GS_LIMIT;
            res->limit = GS_LIMIT_MEMORY;
            res->expanded = first;
            rc = GS_OK;
        } else {
            gs_limits lim = *slim;
            uint64_t held = x->bytes - tables + gs_search_bytes(t.store);
            if (lim.max_bytes)
                lim.max_bytes = lim.max_bytes > held ? lim.max_bytes - held : 1;
            /* (The state cap is the solve's: both stores count.) */
            uint64_t first_n = gs_search_count(t.store);
            if (lim.max_states)
                lim.max_states =
                    lim.max_states > first_n ? lim.max_states - first_n : 1;
            x->onpath = &t;
            rc = run_phase(x, &lim, res, st, err);
            x->onpath = NULL;
            res->expanded += first;
            if (st) {
                st->states += gs_search_count(t.store);
                st->store_bytes += gs_search_bytes(t.store);
            }
            /* The first search proved a solution of these pushes, whose
             * states the marks keep: never `impossible`. */
            if (rc == GS_OK && res->status == GS_IMPOSSIBLE)
                rc = gs_error_set(err, GS_EINTERNAL,
                                  "sokoban: the second search lost the "
                                  "solution the first found");
        }
    }
    gs_search_free(t.store);
    trace_drop_edges(x, &t);
    gs_mem_free(t.onpath);
    x->bytes -= t.onpath_n;
    return rc;
}

/* `any`: before the slice of the feature-space search with the A*'s
 * table (from `start` to lim's deadline). The A* slice's deadline cut the
 * table's last round within a layer, at a depth that depends on the
 * machine's speed; that layer is finished, in at most
 * SOK_TABLE_FINISH_SHARE percent of the slice and only when the build's
 * rate says it fits (Microban II 109: solved at about 2.5 s at a 10 s
 * limit with layer 13 whole, else at 7.5 s or past the limit). The table
 * may grow: the caller gives the slice's store what is left after. */
static void table_finish(sok_ctx *x, const gs_limits *lim, int64_t start)
{
    gs_limits flim = *lim;
    flim.deadline_ns =
        deadline_share(start, lim->deadline_ns, SOK_TABLE_FINISH_SHARE);
    gs_sokoban_perim_finish_layer(x, &flim);
    gs_sokoban_perim_seal(x);
}

/* gs_sokoban_any_slices up to SOK_ANY_SHORT_NS. */
static void any_short_slices(int64_t span, bool rearrange,
                             int64_t end[SOK_ANY_SLICES])
{
    /* (The long slices end at 100: empty.) */
    static const int64_t pct[SOK_ANY_SLICES] = {SOK_ASTAR_END,
                                                SOK_PLAIN_END,
                                                SOK_GREEDY_END,
                                                SOK_TABLE_FESS_END,
                                                SOK_TABLE_FESS_END +
                                                    SOK_PULL_SHORT_SHARE,
                                                100,
                                                100,
                                                100,
                                                100};
    /* A rearrangement: the A* to `a` percent, the others squeezed into
     * the rest in the same proportions. */
    int64_t a = rearrange ? SOK_REARRANGE_ASTAR_END : SOK_ASTAR_END;
    for (int i = 0; i < SOK_ANY_SLICES; i++) {
        int64_t p = i == 0 ? a
                           : a + (pct[i] - SOK_ASTAR_END) * (100 - a) /
                                     (100 - SOK_ASTAR_END);
        end[i] = span > 0 ? span / 100 * p : 0;
    }
}

/* gs_sokoban_any_slices past SOK_ANY_SHORT_NS: the slices of a solve at
 * SOK_ANY_SHORT_NS first, unchanged, so that a longer limit does not
 * delay what they find (when each slice grew with the limit, the A*
 * slice did too, and at 60 s nearly every XSokoban level the greedy
 * slices solve came 5 s later than at 10 s); then, from scratch, for a
 * rearrangement the A* for SOK_REARRANGE_ASTAR_END percent of the time
 * past it, the search backwards for SOK_PULL_SHARE percent of what is
 * left (none when that is not longer than its slice before: it would
 * only do that slice's work again), and the two feature-space searches,
 * kept from their slice (pair_hold), in turns to the deadline. */
static void any_long_slices(int64_t span, int64_t short_ns, bool rearrange,
                            int64_t end[SOK_ANY_SLICES])
{
    any_short_slices(short_ns, rearrange, end);
    int64_t past = span - short_ns;
    int b = SOK_SLICE_PULL, lb = SOK_SLICE_LONG_PULL;
    end[lb - 1] =
        short_ns + (rearrange ? past / 100 * SOK_REARRANGE_ASTAR_END : 0);
    int64_t pull = (span - end[lb - 1]) / 100 * SOK_PULL_SHARE;
    if (pull <= end[b] - end[b - 1])
        pull = 0;
    end[lb] = end[lb - 1] + pull;
    end[SOK_SLICE_PAIR] = span;
}

/* gs_sokoban_any_slices with the long slices past short_ns (tests: not
 * SOK_ANY_SHORT_NS). */
static void any_slices(int64_t span, int64_t short_ns, bool rearrange,
                       int64_t end[SOK_ANY_SLICES])
{
    if (span > short_ns)
        any_long_slices(span, short_ns, rearrange, end);
    else
        any_short_slices(span, rearrange, end);
}

void gs_sokoban_any_slices(int64_t span, bool rearrange,
                           int64_t end[SOK_ANY_SLICES])
{
    any_slices(span, SOK_ANY_SHORT_NS, rearrange, end);
}

bool gs_sokoban_any_slice_runs(const int64_t end[SOK_ANY_SLICES], int phase)
{
    return phase == 0 || end[phase] > end[phase - 1];
}

bool gs_sokoban_rearranges(sok_ctx *x)
{
    uint32_t h = gs_sokoban_lower_bound(x, x->start_player, x->start_boxes);
    return h != SOK_INF &&
           (uint64_t)h * SOK_REARRANGE_DIV < (uint64_t)x->nboxes;
}

int gs_sokoban_solve(void *inst, const gs_limits *lim, gs_result *res,
                     gs_error *err)
{
    return gs_sokoban_solve_stats(inst, lim, res, NULL, err);
}

/* The tables every objective may use beside the level's own: the learned
 * deadlock patterns and the symmetries, each a help, not a need (without
 * memory for it the search goes on without). Returns false when the
 * tables alone fill slim's memory budget; else takes their bytes off it,
 * so that the store gets the rest. */
static bool solve_tables(sok_ctx *x, const gs_sokoban *g, gs_limits *slim)
{
    /* The learned deadlock patterns, every objective (`any` too: on
     * Microban I 153 they prune the boxes stuck at the goal room's door;
     * fess_pair keeps them from the feature-space searches without the
     * A*'s table); on levels of few boxes (small solves) more cost than
     * help. */
    uint64_t before = x->bytes;
    if (x->nboxes >= SOK_LEARN_MIN_BOXES || g->learn_always) {
        if (gs_sokoban_learn_init(x, slim->max_bytes)) {
            gs_sokoban_learn_start(x);
        } else {
            gs_sokoban_learn_free(x);
            x->bytes = before;
        }
    }
    if (g->objective <= SOK_ANY_ASTAR) {
        /* Symmetries: one position stored for each class of images by
         * the exact objectives and `any`'s A* (the slices of `any` set
         * sym_store in turn; the perimeter table keys classes always). */
        x->sym_store = g->objective != SOK_ANY;
        before = x->bytes;
        if (!gs_sokoban_sym_init(x)) {
            gs_sokoban_sym_free(x);
            x->bytes = before;
        }
    }
    if (slim->max_bytes && x->bytes >= slim->max_bytes)
        return false;
    if (slim->max_bytes)
        slim->max_bytes -= x->bytes;
    return true;
}

int gs_sokoban_pull_slice(sok_ctx *x, const gs_limits *part, gs_result *res,
                          gs_sokoban_stats *st, gs_error *err)
{
    /* Its cells by the boxes on start cells, ties to the fewest pulls,
     * then to the most for SOK_PULL_MOST_SHARE percent of the slice,
     * then, for the last SOK_PULL_DOORS_SHARE percent, also by the boxes
     * in passages. */
    static const struct {
        unsigned order;
        int64_t end; /* percent of the slice */
    } orders[] = {
        {0, 100 - SOK_PULL_MOST_SHARE - SOK_PULL_DOORS_SHARE},
        {SOK_PULL_MOST, 100 - SOK_PULL_DOORS_SHARE},
        {SOK_PULL_DOORS, 100},
    };
    int64_t start = gs_now_ns();
    uint64_t expanded = 0;
    int rc = GS_OK;
    bool solved = false;
    for (size_t i = 0; i < sizeof orders / sizeof *orders; i++) {
        if (gs_limits_expired(part))
            break;
        gs_limits l = *part;
        l.deadline_ns = deadline_share(start, part->deadline_ns, orders[i].end);
        gs_result_clear(res);
        rc = gs_sokoban_pull(x, &l, orders[i].order, res, st, err);
        expanded += res->expanded;
        res->expanded = expanded;
        solved = rc == GS_OK && res->status == GS_SOLVED;
        if (rc != GS_OK || solved)
            break;
    }
    /* Also when no order ran (the slice started past its deadline, after
     * a slice before it overran): a cleared result reads as solved. */
    if (rc == GS_OK && !solved) {
        res->status = GS_LIMIT;
        res->limit = GS_LIMIT_TIME;
    }
    return rc;
}

/* Runs `any`'s slice `phase` (gs_sokoban_any_slices) within part, whose
 * deadline is the slice's end; whole is the portfolio's limits, burst the
 * search by weight's (fess_burst), and held, past SOK_ANY_SHORT_NS, the
 * feature-space searches the slice SOK_SLICE_FESS keeps for the last
 * (pair_hold; NULL up to it). */
static int any_slice(sok_ctx *x, int phase, const gs_limits *part,
                     const gs_limits *whole, int64_t burst, sok_pair *held,
                     gs_result *res, gs_sokoban_stats *st, gs_error *err)
{
    bool astar = phase == SOK_SLICE_ASTAR || phase == SOK_SLICE_LONG_ASTAR;
    x->obj = astar ? SOK_ANY_ASTAR : SOK_ANY;
    x->sym_store = astar;
    x->plain = phase == SOK_SLICE_PLAIN;
    x->tunnels = false;
    x->goal_macros = false;
    /* Only the first A* and the first feature-space search see the A*'s
     * table: the others are the searches of old (it leads some levels
     * astray: Microban II 109); the A* past SOK_ANY_SHORT_NS is a
     * rearrangement's, which builds none. */
    struct sok_perim *table = x->perim;
    bool hide = phase != SOK_SLICE_ASTAR && phase != SOK_SLICE_TABLE_FESS;
    if (hide)
        x->perim = NULL;
    int rc;
    if (astar)
        rc = exact_phases(x, part, res, st, err);
    else if (phase == SOK_SLICE_PLAIN)
        rc = run_phase(x, part, res, st, err);
    else if (phase == SOK_SLICE_GREEDY)
        rc = greedy_phase(x, part, res, st, err);
    else if (phase == SOK_SLICE_TABLE_FESS)
        rc = fess_pair(x, part, 0, INT64_MAX, 0, res, st, err);
    else if (phase == SOK_SLICE_PULL || phase == SOK_SLICE_LONG_PULL)
        rc = gs_sokoban_pull_slice(x, part, res, st, err);
    else if (phase == SOK_SLICE_FESS && held)
        rc = pair_hold(x, held, part, whole, gs_now_ns() + burst, res, st, err);
    else if (phase == SOK_SLICE_FESS) /* a burst by weight, then estimate */
        rc =
            fess_pair(x, part, gs_now_ns() + burst, INT64_MAX, 0, res, st, err);
    else if (held && pair_held(held)) /* the two in turns, where they were */
        rc = pair_resume(x, held, part, res, st, err);
    else
        rc = fess_pair(x, part, 0, 0, 0, res, st, err);
    if (hide)
        x->perim = table;
    return rc;
}

/* `any` with a deadline: a portfolio in time slices
 * (gs_sokoban_any_slices), each search from scratch but the last's: A*
 * on pushes (greedy
 * gets lost on some levels whose short solutions A* finds at once), the
 * plain greedy (bound + packing order: it finds some short answers the
 * weighted one misses, Microban II 74, 115), the feature-weighted greedy
 * phase (it dives straight to many answers), then the feature-space
 * search (fess.c: it spreads its effort over ways of packing the greedy
 * ones never leave) with the A*'s table, the search backwards (pull.c:
 * levels whose packing traps the forward searches), the feature-space
 * search without the table after a burst of the one whose cells pick by
 * weight every other time; past SOK_ANY_SHORT_NS, after all these as at
 * that limit, longer searches: a rearrangement's A*, the search
 * backwards and the two feature-space searches in turns, from where they
 * stopped in their slice before (pair_hold). A phase
 * exhausting the space proves the level impossible (greedy_phase and
 * fess_pair re-check without macros; the search backwards proves
 * nothing). The next slice runs only after a slice's time ran out. */
static int any_portfolio(sok_ctx *x, const gs_limits *slim, gs_result *res,
                         gs_sokoban_stats *st, gs_error *err)
{
    int64_t now = gs_now_ns(), span = slim->deadline_ns - now;
    int64_t short_ns =
        x->g->any_short_ns > 0 ? x->g->any_short_ns : SOK_ANY_SHORT_NS;
    int64_t end[SOK_ANY_SLICES];
    x->rearrange = gs_sokoban_rearranges(x);
    any_slices(span, short_ns, x->rearrange, end);
    uint64_t expanded = 0, tables = x->bytes;
    sok_pair held;
    memset(&held, 0, sizeof held);
    sok_pair *keep = span > short_ns ? &held : NULL;
    int64_t burst = fess_burst(span, short_ns);
    int rc = GS_OK;
    for (int phase = 0; phase < SOK_ANY_SLICES; phase++) {
        gs_limits part = *slim;
        if (phase < SOK_ANY_SLICES - 1 && span > 0)
            part.deadline_ns = now + end[phase];
        if (span > 0 && !gs_sokoban_any_slice_runs(end, phase))
            continue; /* an empty slice */
        if (phase == SOK_SLICE_TABLE_FESS && !x->perim)
            continue; /* no table: the same search as the next */
        if (phase > 0) {
            if (rc != GS_OK || res->status != GS_LIMIT ||
                res->limit != GS_LIMIT_TIME || gs_limits_expired(slim))
                break;
            expanded += res->expanded;
            gs_result_clear(res);
        }
        if (phase == SOK_SLICE_TABLE_FESS)
            table_finish(x, &part, now + end[phase - 1]);
        else if (phase > SOK_SLICE_TABLE_FESS)
            gs_sokoban_perim_seal(x); /* no slice uses it more */
        /* The A*'s perimeter table stays (it serves a later search's
         * estimate), and so do the held feature-space searches until
         * their slice: the other stores get the rest. */
        uint64_t more = x->bytes > tables ? x->bytes - tables : 0;
        if (phase != SOK_SLICE_PAIR)
            more += pair_bytes(&held);
        if (slim->max_bytes && more)
            part.max_bytes =
                slim->max_bytes > more ? slim->max_bytes - more : 1;
        rc = any_slice(x, phase, &part, slim, burst, keep, res, st, err);
    }
    if (pair_held(&held)) /* a slice between answered, or an error */
        pair_drop(x, &held, slim, &expanded, st);
    res->expanded += expanded;
    return rc;
}

/* Shortens `any`'s answer (improve.c) in at most a quarter of the time
 * the solve took so far (SOK_IMPROVE_MIN_NS at least, within its
 * deadline): `any` asks for an answer fast, so the polish stays a small
 * part of it. */
static int improve_answer(sok_ctx *x, const gs_limits *lim, int64_t t0,
                          gs_result *res, gs_sokoban_stats *st, gs_error *err)
{
    int64_t now = gs_now_ns(), span = (now - t0) / 4;
    gs_limits l = lim ? *lim : (gs_limits){0};
    int64_t cap = now + (span > SOK_IMPROVE_MIN_NS ? span : SOK_IMPROVE_MIN_NS);
    if (!l.deadline_ns || cap < l.deadline_ns)
        l.deadline_ns = cap;
    return gs_sokoban_improve(x, &l, res, st, err);
}

int gs_sokoban_solve_stats(void *inst, const gs_limits *lim, gs_result *res,
                           gs_sokoban_stats *st, gs_error *err)
{
    const gs_sokoban *g = inst;
    int64_t t0 = gs_now_ns();
    res->pushes = -1;
    sok_ctx x;
    /* The tables refused by the memory budget (or the system), or the
     * tables alone past it: a limit, not an error. */
    gs_limits slim = lim ? *lim : (gs_limits){0};
    if (gs_sokoban_ctx_init(&x, g, lim, err) || !solve_tables(&x, g, &slim)) {
        gs_sokoban_ctx_free(&x);
        res->status = GS_LIMIT;
        res->limit = GS_LIMIT_MEMORY;
        return GS_OK;
    }
    int rc;
    if (g->objective == SOK_ANY && slim.deadline_ns > 0) {
        rc = any_portfolio(&x, &slim, res, st, err);
    } else if (g->objective == SOK_ANY_FESS && g->fess_hold_ns) {
        rc = fess_held(&x, &slim, g->fess_hold_ns, res, st, err);
    } else if (g->objective == SOK_ANY_FESS) {
        rc = fess_pair(&x, &slim, 0, g->fess_paired ? 0 : INT64_MAX,
                       g->fess_turn_ns, res, st, err);
    } else if (g->objective == SOK_ANY_PULL) {
        rc = gs_sokoban_pull(&x, &slim, g->pull_order, res, st, err);
    } else if (g->objective == SOK_ANY) {
        rc = greedy_phase(&x, &slim, res, st, err);
    } else {
        x.corridors = !g->no_corridors;
        rc = g->objective == SOK_PUSHES && !g->one_search
                 ? pushes_two_phase(&x, &slim, res, st, err)
                 : exact_phases(&x, &slim, res, st, err);
    }
    if (rc == GS_OK && g->objective == SOK_ANY)
        rc = improve_answer(&x, lim, t0, res, st, err);
    gs_sokoban_ctx_free(&x);
    return rc;
}
