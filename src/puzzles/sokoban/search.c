/* search.c - the push search every Sokoban objective runs.
 *
 * The search runs over PUSHES, not single steps: a state is the set of box
 * cells (sorted, so each configuration has one key) plus the player's cell
 * right after the last push. One expansion floods the player's free region
 * and offers every push the player can walk to; the walk is not stored but
 * recomputed (shortest, by BFS) when the answer is rebuilt. This keeps the
 * visited set in the search core small: no state for every step of a walk.
 *
 * gs_sokoban_search pops a state, puts it back when its bound rose since
 * it was queued (the perimeter table grew), and expands it: every push the
 * player can walk to, each child's bound updated from the parent's
 * matching (bound.c) after the deadlock tests (deadlock.c, frozen.c,
 * learn.c), queued by the objective's priority. The phases that run it
 * are in exact.c (`moves`, `pushes`, `any`'s A*) and any.c (`any`'s
 * portfolio); solve.c picks them.
 */
#include <string.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

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

unsigned gs_sokoban_bound_shift(sok_objective obj)
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

void gs_sokoban_area_key(sok_ctx *x, int player, const int32_t *boxes)
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
        gs_sokoban_area_key(x, p, boxes);
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
                rc = gs_sokoban_trace_edge(x, s, id, cid, c->cost);
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

int gs_sokoban_search(sok_ctx *x, gs_search *s, uint64_t cap, uint64_t reeval,
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
        /* (A pointer test first: every pop of every search passes here.) */
        if (x->trace && gs_sokoban_trace_done(x, s, rc, goal))
            return 1;
        if (rc <= 0)
            return rc;
        if (x->fess)
            x->fess_expanded++;
        else
            g = gs_search_cost(s, id);
        int player = gs_sokoban_key_unpack(x, gs_search_key(s, id), x->boxes);
        if (x->onpath && !gs_sokoban_on_path(x, player, g))
            continue;
        if (gs_sokoban_all_on_goals(x, x->boxes)) {
            if (!x->trace) {
                *goal = id;
                return 1;
            }
            /* The first search goes on to the end of the goal's layer,
             * which holds the last states of other such solutions. */
            rc = gs_sokoban_trace_goal(x, s, id, g);
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

int gs_sokoban_finish_search(sok_ctx *x, gs_search *s, int rc, uint64_t goal,
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

void gs_sokoban_search_close(const sok_ctx *x, gs_search *s,
                             gs_sokoban_stats *st)
{
    if (st) {
        st->states = gs_search_count(s);
        st->store_bytes = gs_search_bytes(s);
        st->table_bytes = x->bytes;
    }
    gs_search_free(s);
}

int gs_sokoban_run_phase(sok_ctx *x, const gs_limits *lim, gs_result *res,
                         gs_sokoban_stats *st, gs_error *err)
{
    gs_search_config cfg = {
        .key_size = x->key_size,
        .queue = GS_QUEUE_PRIORITY,
        .limits = lim,
        .bound_shift = gs_sokoban_bound_shift(x->obj),
    };
    gs_search *s = NULL;
    int rc = gs_search_new(&cfg, &s);
    if (rc)
        return gs_error_set(err, rc, "sokoban: cannot start the search");
    uint64_t goal = 0;
    rc = gs_sokoban_search(x, s, 0, 0, &goal);
    uint64_t here = gs_search_expanded(s);
    rc = gs_sokoban_finish_search(x, s, rc, goal, res, err);
    /* Phases and rounds each run a search of their own: the callers sum
     * the answer's count, and the progress reports go on from this one's
     * (they never go back). */
    res->expanded = here;
    gs_progress_add_expanded(lim, here);
    gs_sokoban_search_close(x, s, st);
    return rc;
}

int gs_sokoban_greedy_phase(sok_ctx *x, const gs_limits *lim, gs_result *res,
                            gs_sokoban_stats *st, gs_error *err)
{
    x->obj = SOK_ANY;
    x->plain = false;
    x->tunnels = true;
    x->goal_macros = x->garea != NULL;
    int rc = gs_sokoban_run_phase(x, lim, res, st, err);
    x->tunnels = false;
    x->goal_macros = false;
    if (rc == GS_OK && res->status == GS_IMPOSSIBLE && !x->g->macros_alone) {
        uint64_t expanded = res->expanded;
        gs_result_clear(res);
        rc = gs_sokoban_run_phase(x, lim, res, st, err);
        res->expanded += expanded;
    }
    return rc;
}

int64_t gs_sokoban_deadline_share(int64_t from, int64_t deadline, int64_t pct)
{
    return deadline > from ? from + (deadline - from) / 100 * pct : deadline;
}
