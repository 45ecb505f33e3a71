/* improve.c - shorter answers for `any`: the fewest moves near the answer
 * the search found.
 *
 * `any`'s searches stop at their first answer, and its walks between
 * pushes are often long: a box pushed once, the player off to another
 * box, then back. The positions the answer passes through, and those
 * with one box moved a cell or two off them (not onto a dead cell), make
 * its neighbourhood; a search for the fewest moves, then pushes, through the
 * pushes that stay inside it (Dijkstra on the shared core) gives the
 * best answer there. The answer lies inside, so the result is never
 * longer. As a box may stay off its cell for any stretch of the answer,
 * one push can move earlier or later past the others, and a push undone
 * later can be left out. The rounds repeat around each better answer
 * while they gain. (After YASS's optimizer, its "vicinity search", in
 * its smallest form.) The stores live only while a round runs, after the
 * search's were freed: with the solve's tables they stay within its
 * memory budget and state cap, and a limit only ends the polish.
 */
#include <stdlib.h>
#include <string.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

/* Rounds at most. Microban I `any`'s answers (bench/sokoban.sh, 10 s a
 * level), 23,131 moves in all before: one round one cell off 20,020; up to
 * four 18,847, ten 18,629; one cell off until no gain, then two cells off
 * until no gain, eight in all, 18,228; up to four two cells off 18,120;
 * one round one cell off, then two cells off, 18,023 (XSokoban 1 to 9, 15
 * and 17: 7,902 before, 5,684 the one before, 5,334 this one). */
#define IMPROVE_ROUNDS 8
/* The most cells a box may stand off the answer's positions. Further
 * gains little: Microban I 18,017 moves at 2, 17,864 at 3, 17,798 at 4;
 * the XSokoban levels above 5,288, 5,294 and 5,255 (December 5). */
#define IMPROVE_RADIUS 2
/* A path's cost: moves above, pushes below (the tie-break). */
#define IMPROVE_SHIFT 24

static const char PUSH[4] = {'U', 'D', 'L', 'R'};

/* One round's stores and keys. Keys are cell numbers of w bytes: a box
 * set (the neighbourhood) or the player then the boxes (the search). */
typedef struct imp {
    sok_ctx *x;
    int w;
    gs_search *near; /* the neighbourhood's box sets, as a set */
    gs_search *best; /* Dijkstra over (player, boxes) */
    int radius;      /* cells a box may stand off the answer */
    unsigned char *key;
} imp;

/* Packs the player (none when player < 0) and boxes into m->key, which
 * it returns. */
static const unsigned char *imp_key(imp *m, int player, const int32_t *boxes)
{
    int slot = 0;
    if (player >= 0)
        gs_sokoban_key_put(m->key, m->w, slot++, (uint32_t)player);
    for (int i = 0; i < m->x->nboxes; i++)
        gs_sokoban_key_put(m->key, m->w, slot++, (uint32_t)boxes[i]);
    return m->key;
}

/* Reads the search's state id into its player (returned) and boxes. */
static int imp_unpack(const imp *m, uint64_t id, int32_t *boxes)
{
    const unsigned char *k = gs_search_key(m->best, id);
    for (int i = 0; i < m->x->nboxes; i++)
        boxes[i] = (int32_t)gs_sokoban_key_get(k, m->w, i + 1);
    return (int)gs_sokoban_key_get(k, m->w, 0);
}

/* Direction of a LURD letter, or -1. */
static int imp_dir(char c)
{
    switch (c | 0x20) {
    case 'u':
        return 0;
    case 'd':
        return 1;
    case 'l':
        return 2;
    case 'r':
        return 3;
    default:
        return -1;
    }
}

/* The slot of the box on cell c in boxes (sorted), or -1. */
static int imp_slot(const sok_ctx *x, const int32_t *boxes, int c)
{
    int lo = 0, hi = x->nboxes - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        if (boxes[mid] == c)
            return mid;
        if (boxes[mid] < c)
            lo = mid + 1;
        else
            hi = mid - 1;
    }
    return -1;
}

/* The boxes after each push of `moves` (`pushes` of them), start first,
 * into pos ((pushes + 1) * nboxes). False when the moves do not replay
 * (a bug: every answer replays). Leaves x->occ clear. */
static bool imp_replay(sok_ctx *x, const char *moves, long pushes, int32_t *pos)
{
    size_t nb = (size_t)x->nboxes;
    int p = x->start_player;
    long k = 0;
    bool ok = true;
    memcpy(pos, x->start_boxes, sizeof *pos * nb);
    gs_sokoban_occ_set(x, pos, 1);
    for (const char *c = moves; *c && ok; c++) {
        bool push = *c >= 'A' && *c <= 'Z';
        int d = imp_dir(*c), t = d < 0 ? -1 : x->nb[p * 4 + d];
        ok = t >= 0 && x->occ[t] == push;
        if (ok && push) {
            int a = x->nb[t * 4 + d];
            int32_t *cur = pos + (size_t)k * nb;
            int i = imp_slot(x, cur, t);
            ok = a >= 0 && !x->occ[a] && k < pushes && i >= 0;
            if (ok) {
                gs_sokoban_boxes_move(x, cur, i, a, cur + nb);
                x->occ[t] = 0;
                x->occ[a] = 1;
                k++;
            }
        }
        p = t;
    }
    memset(x->occ, 0, (size_t)x->n);
    return ok && k == pushes;
}

/* Adds to m->near the box sets of cur with box slot i moved to each
 * free, live cell within m->radius steps of its own (through such
 * cells; x->occ holds cur). GS_OK, GS_ELIMIT or GS_ENOMEM. */
static int imp_near_box(imp *m, const int32_t *cur, int i)
{
    sok_ctx *x = m->x;
    int head = 0, tail = 0, rc = GS_OK;
    gs_sokoban_next_gen(x);
    x->seen[cur[i]] = x->gen;
    x->queue[tail++] = cur[i];
    for (int depth = 0; depth < m->radius && rc >= 0; depth++)
        for (int end = tail; head < end && rc >= 0; head++)
            for (int d = 0; d < 4 && rc >= 0; d++) {
                int t = x->nb[x->queue[head] * 4 + d];
                if (t < 0 || x->occ[t] || x->dead[t] || x->seen[t] == x->gen)
                    continue;
                x->seen[t] = x->gen;
                x->queue[tail++] = t;
                gs_sokoban_boxes_move(x, cur, i, t, x->child);
                rc = gs_search_add(m->near, imp_key(m, -1, x->child),
                                   GS_NO_PARENT, 0, NULL);
            }
    return rc < 0 ? rc : GS_OK;
}

/* Adds the box sets of pos[0..npos), and those with one box moved off
 * (imp_near_box), to m->near. GS_OK, GS_ELIMIT or GS_ENOMEM. */
static int imp_near(imp *m, const int32_t *pos, size_t npos)
{
    sok_ctx *x = m->x;
    size_t nb = (size_t)x->nboxes;
    int rc = GS_OK;
    for (size_t k = 0; k < npos && rc >= 0; k++) {
        const int32_t *cur = pos + k * nb;
        rc = gs_search_add(m->near, imp_key(m, -1, cur), GS_NO_PARENT, 0, NULL);
        gs_sokoban_occ_set(x, cur, 1);
        for (int i = 0; i < x->nboxes && rc >= 0; i++)
            rc = imp_near_box(m, cur, i);
        gs_sokoban_occ_set(x, cur, 0);
    }
    return rc < 0 ? rc : GS_OK;
}

/* Queues the children of the state `id` (player p, boxes x->boxes, path
 * cost `cost`) that stay in the neighbourhood. GS_OK, GS_ELIMIT or
 * GS_ENOMEM. */
static int imp_expand(imp *m, uint64_t id, int p, uint64_t cost)
{
    sok_ctx *x = m->x;
    int rc = GS_OK;
    gs_sokoban_occ_set(x, x->boxes, 1);
    gs_sokoban_flood(x, p);
    for (int i = 0; i < x->nboxes && rc >= 0; i++)
        for (int d = 0; d < 4 && rc >= 0; d++) {
            int b = x->boxes[i], from = x->nb[b * 4 + (d ^ 1)];
            int to = x->nb[b * 4 + d];
            if (from < 0 || to < 0 || x->occ[to] || x->seen[from] != x->gen)
                continue;
            gs_sokoban_boxes_move(x, x->boxes, i, to, x->child);
            uint64_t near;
            if (!gs_search_find(m->near, imp_key(m, -1, x->child), &near))
                continue;
            uint64_t c =
                cost + ((uint64_t)(x->dist[from] + 1) << IMPROVE_SHIFT) + 1;
            rc = gs_search_add_prio(m->best, imp_key(m, b, x->child), id,
                                    (unsigned char)d, c, c, NULL);
        }
    gs_sokoban_occ_set(x, x->boxes, 0);
    return rc < 0 ? rc : GS_OK;
}

/* Dijkstra from the start through the neighbourhood: 1 with *goal the
 * first solved state popped (the fewest moves, then pushes, inside it),
 * 0 when none, or GS_ELIMIT / GS_ENOMEM. */
static int imp_search(imp *m, uint64_t *goal)
{
    sok_ctx *x = m->x;
    int rc =
        gs_search_add_prio(m->best, imp_key(m, x->start_player, x->start_boxes),
                           GS_NO_PARENT, 0, 0, 0, NULL);
    uint64_t id;
    while (rc >= 0 && (rc = gs_search_pop(m->best, &id)) == 1) {
        int p = imp_unpack(m, id, x->boxes);
        if (gs_sokoban_all_on_goals(x, x->boxes)) {
            *goal = id;
            return 1;
        }
        rc = imp_expand(m, id, p, gs_search_cost(m->best, id));
    }
    return rc;
}

/* Push t of the answer (sok_step_fn) along m->best's (arg's) chain: the
 * boxes before it in x->boxes, after it in x->child. */
static bool imp_step(sok_ctx *x, gs_search *s, const uint64_t *chain, size_t k,
                     size_t t, int *player, gs_buf *out, long *pushes,
                     void *arg)
{
    (void)k;
    unsigned char d;
    gs_search_parent(s, chain[t], &d);
    int b = imp_unpack(arg, chain[t], x->child);
    gs_sokoban_occ_set(x, x->boxes, 1);
    bool ok = gs_sokoban_append_walk(x, *player, x->nb[b * 4 + (d ^ 1)], out);
    gs_sokoban_occ_set(x, x->boxes, 0);
    gs_buf_append(out, &PUSH[d], 1);
    (*pushes)++;
    memcpy(x->boxes, x->child, sizeof *x->boxes * (size_t)x->nboxes);
    *player = b;
    return ok;
}

/* lim less the bytes and states already held into *out: false when
 * nothing is left of a limit that is set. */
static bool imp_rest(const gs_limits *lim, uint64_t bytes, uint64_t states,
                     gs_limits *out)
{
    *out = *lim;
    if (out->max_bytes)
        out->max_bytes = out->max_bytes > bytes ? out->max_bytes - bytes : 0;
    if (out->max_states)
        out->max_states =
            out->max_states > states ? out->max_states - states : 0;
    return (!lim->max_bytes || out->max_bytes) &&
           (!lim->max_states || out->max_states);
}

/* Puts the shorter answer to m->best's `goal` (`steps` moves) in res.
 * GS_OK, GS_ENOMEM or GS_EINTERNAL (a bug). */
static int imp_take(imp *m, uint64_t goal, size_t steps, gs_result *res)
{
    sok_ctx *x = m->x;
    gs_result out;
    gs_result_clear(&out);
    memcpy(x->boxes, x->start_boxes, sizeof *x->boxes * (size_t)x->nboxes);
    int rc = gs_sokoban_rebuild(x, m->best, goal, imp_step, m, &out, NULL);
    if (!rc && out.steps != steps)
        rc = GS_EINTERNAL; /* the walks are not the ones costed */
    if (!rc) {
        free(res->moves);
        res->moves = out.moves;
        res->steps = out.steps;
        res->pushes = out.pushes;
        out.moves = NULL;
    }
    gs_result_free(&out);
    return rc;
}

/* Records in st (may be NULL) the round's stores with `held` bytes
 * besides, when they are larger than what st holds. */
static void imp_record(const imp *m, uint64_t held, gs_sokoban_stats *st)
{
    uint64_t bytes = held, states = 0;
    if (m->near) {
        bytes += gs_search_bytes(m->near);
        states += gs_search_count(m->near);
    }
    if (m->best) {
        bytes += gs_search_bytes(m->best);
        states += gs_search_count(m->best);
    }
    if (st && bytes > st->store_bytes) {
        st->store_bytes = bytes;
        st->states = states;
    }
}

/* One round around res's answer within lim, the stores' largest size
 * recorded in st (may be NULL): 1 when the neighbourhood held a shorter
 * answer, now in res; 0 when not; GS_ELIMIT or GS_ENOMEM when a store
 * was refused; GS_EINTERNAL when the answer, or the new one, does not
 * replay (a bug). The two stores and the positions share lim. */
static int imp_round(sok_ctx *x, const gs_limits *lim, int radius,
                     gs_result *res, gs_sokoban_stats *st)
{
    imp m = {.x = x,
             .w = x->n <= 256     ? 1
                  : x->n <= 65536 ? 2
                                  : 4,
             .radius = radius};
    size_t nb = (size_t)x->nboxes, npos = (size_t)res->pushes + 1;
    uint64_t held = sizeof(int32_t) * nb * npos + (nb + 1) * (size_t)m.w;
    int32_t *pos = gs_mem_malloc(sizeof *pos * nb * npos);
    m.key = gs_mem_malloc((nb + 1) * (size_t)m.w);
    gs_limits nlim, blim;
    bool room = imp_rest(lim, held, 0, &nlim);
    blim = nlim;
    gs_search_config near = {
        .key_size = nb * (size_t)m.w, .queue = GS_QUEUE_FIFO, .limits = &nlim};
    gs_search_config best = {.key_size = (nb + 1) * (size_t)m.w,
                             .queue = GS_QUEUE_PRIORITY,
                             .limits = &blim,
                             .bound_shift = IMPROVE_SHIFT};
    int rc = !room ? GS_ELIMIT : pos && m.key ? GS_OK : GS_ENOMEM, found = 0;
    if (!rc && !imp_replay(x, res->moves, res->pushes, pos))
        rc = GS_EINTERNAL;
    if (!rc)
        rc = gs_search_new(&near, &m.near);
    if (!rc)
        rc = imp_near(&m, pos, npos);
    if (!rc && !imp_rest(&nlim, gs_search_bytes(m.near),
                         gs_search_count(m.near), &blim))
        rc = GS_ELIMIT;
    if (!rc)
        rc = gs_search_new(&best, &m.best);
    uint64_t goal = 0;
    if (!rc && (found = imp_search(&m, &goal)) < 0)
        rc = found;
    size_t steps =
        found == 1 ? gs_search_cost(m.best, goal) >> IMPROVE_SHIFT : 0;
    if (!rc && found == 1 && steps < res->steps &&
        !(rc = imp_take(&m, goal, steps, res)))
        rc = 1;
    imp_record(&m, held, st);
    if (m.best)
        res->expanded += gs_search_expanded(m.best);
    gs_search_free(m.best);
    gs_search_free(m.near);
    gs_mem_free(m.key);
    gs_mem_free(pos);
    return rc;
}

int gs_sokoban_improve(sok_ctx *x, const gs_limits *lim, gs_result *res,
                       gs_sokoban_stats *st, gs_error *err)
{
    if (res->status != GS_SOLVED || res->pushes <= 0 || x->nboxes == 0)
        return GS_OK;
    /* The search's own counters stay the solve's progress. */
    gs_limits l;
    if (!imp_rest(lim, x->bytes, 0, &l))
        return GS_OK;
    l.progress = NULL;
    memset(x->occ, 0, (size_t)x->n);
    /* One round one cell off the answer, then rounds a cell further off
     * each time one does not gain: the small rounds' gains are in before
     * the larger rounds, which may not end within the time given, start.
     * Rounds one cell off until they stop gaining got stuck sooner. */
    int rc = 1, radius = 1;
    for (int r = 0; r < IMPROVE_ROUNDS && rc >= 0 && radius <= IMPROVE_RADIUS;
         r++) {
        rc = imp_round(x, &l, radius, res, st);
        if (rc == 0 || radius == 1)
            radius++;
    }
    /* A limit or a refused store ends the polish; the answer stands. */
    if (rc == GS_EINTERNAL)
        return gs_error_set(
            err, GS_EINTERNAL,
            "sokoban: an answer being shortened does not replay");
    return GS_OK;
}
