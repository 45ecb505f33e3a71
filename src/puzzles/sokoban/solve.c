/* solve.c - the sokoban solver's entry: push every box onto a goal.
 *
 * The search itself is search.c's: it runs over pushes, a state being
 * the boxes and the player's cell (or area) after the last push.
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
 *     (exact.c).
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
 *     (any.c), kept from their slice at 10 s (pair_hold).
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
 * (learned deadlock patterns), sym.c (symmetries), pack.c (packing order,
 * connectivity), macro.c (tunnel, goal-area and corridor macros), perim.c
 * (the perimeter table: exact distances near the solved positions),
 * area.c (its keys' player areas without a flood), bits.c (areas as row
 * masks), zone.c (`any`'s children's areas without a flood), fess.c (the
 * feature-space search's open lists), pull.c (the search backwards),
 * search.c (the push search), exact.c (the exact objectives' phases),
 * any.c (`any`'s portfolio), improve.c (`any`'s answers shortened),
 * answer.c (the moves spelled out from the stored pushes), solve.c (this:
 * the entry, which picks the phases).
 */
#include "sokoban.h"

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
     * gs_sokoban_fess_pair keeps them from the feature-space searches
     * without the A*'s table); on levels of few boxes (small solves) more
     * cost than help. */
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
        rc = gs_sokoban_any_portfolio(&x, &slim, res, st, err);
    } else if (g->objective == SOK_ANY_FESS && g->fess_hold_ns) {
        rc = gs_sokoban_fess_held(&x, &slim, g->fess_hold_ns, res, st, err);
    } else if (g->objective == SOK_ANY_FESS) {
        rc = gs_sokoban_fess_pair(&x, &slim, 0, g->fess_paired ? 0 : INT64_MAX,
                                  g->fess_turn_ns, res, st, err);
    } else if (g->objective == SOK_ANY_PULL) {
        rc = gs_sokoban_pull(&x, &slim, g->pull_order, res, st, err);
    } else if (g->objective == SOK_ANY) {
        rc = gs_sokoban_greedy_phase(&x, &slim, res, st, err);
    } else {
        x.corridors = !g->no_corridors;
        rc = g->objective == SOK_PUSHES && !g->one_search
                 ? gs_sokoban_pushes_two_phase(&x, &slim, res, st, err)
                 : gs_sokoban_exact_phases(&x, &slim, res, st, err);
    }
    if (rc == GS_OK && g->objective == SOK_ANY)
        rc = improve_answer(&x, lim, t0, res, st, err);
    gs_sokoban_ctx_free(&x);
    return rc;
}
