/* answer.c - the sokoban answer spelled out: the LURD moves from the
 * start to a goal state of the search.
 *
 * The store keeps one record per state (its parent and the move byte:
 * a push direction, or a macro's tag), not the walks between pushes, so
 * the answer is rebuilt here: each walk by the same shortest flood the
 * search costed it with, each macro step (tunnel, corridor, goal area,
 * packing advisor) by the same rule or box-path search that made it.
 * Under symmetries (sym.c) the stored positions are class
 * representatives, so the real path is found again push by push. A step
 * that cannot be replayed is a bug, reported as GS_EINTERNAL.
 */
#include <stdlib.h>
#include <string.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

/* Move letters by direction (U D L R). */
static const char STEP[4] = {'u', 'd', 'l', 'r'};
static const char PUSH[4] = {'U', 'D', 'L', 'R'};

/* bsearch/qsort order of cell numbers. */
static int cmp_cell(const void *a, const void *b)
{
    int32_t u = *(const int32_t *)a, v = *(const int32_t *)b;
    return (u > v) - (u < v);
}

int gs_sokoban_left_cell(const sok_ctx *x, const int32_t *from,
                         const int32_t *to)
{
    for (int i = 0; i < x->nboxes; i++)
        if (!bsearch(&from[i], to, (size_t)x->nboxes, sizeof *to, cmp_cell))
            return from[i];
    return -1;
}

bool gs_sokoban_append_walk(sok_ctx *x, int from, int to, gs_buf *out)
{
    gs_sokoban_flood(x, from);
    if (x->seen[to] != x->gen)
        return false;
    uint32_t len = x->dist[to];
    for (uint32_t i = len; i > 0; i--) {
        int d = x->how[to];
        x->walk[i - 1] = STEP[d];
        to = x->nb[to * 4 + (d ^ 1)];
    }
    gs_buf_append(out, x->walk, len);
    return true;
}

/* Pushes the box on *pcur along cells[1..k) (each side-adjacent to the
 * one before), appending each walk from *pplayer and each push to out and
 * moving the box in x->occ. *pcur and *pplayer follow the box and the
 * player; false when a cell is not adjacent or a walk fails. */
static bool push_along(sok_ctx *x, const int32_t *cells, int k, int *pcur,
                       int *pplayer, gs_buf *out, long *pushes)
{
    int cur = *pcur, player = *pplayer;
    bool ok = true;

    for (int t = 1; t < k && ok; t++) {
        int next = cells[t], d = 0;
        while (d < 4 && x->nb[cur * 4 + d] != next)
            d++;
        ok = d < 4 &&
             gs_sokoban_append_walk(x, player, x->nb[cur * 4 + (d ^ 1)], out);
        if (!ok)
            break;
        gs_buf_append(out, &PUSH[d], 1);
        (*pushes)++;
        x->occ[cur] = 0;
        x->occ[next] = 1;
        player = cur;
        cur = next;
    }
    *pcur = cur;
    *pplayer = player;
    return ok;
}

/* Spells out a goal macro in the answer: the box pushed from `old` (off
 * goal, x->occ holding the boxes before the move) has reached `at` with
 * the player on *pplayer; the same box-path search as expand() takes it
 * on, and *pplayer ends behind it. Leaves x->occ as it found it. Returns false
 * if the path does not end on the child's cell (a bug). */
static bool replay_goal_macro(sok_ctx *x, int old, int at, int *pplayer,
                              gs_buf *out, long *pushes)
{
    int player = *pplayer;
    x->occ[old] = 0;
    x->occ[at] = 1;
    int node, pl, target = gs_sokoban_goal_macro(x, at, player, -1, &node, &pl);
    bool ok = target != at && bsearch(&target, x->child, (size_t)x->nboxes,
                                      sizeof *x->child, cmp_cell);
    int k = ok ? gs_sokoban_goal_macro_chain(x, node) : 0, cur = at;
    ok = ok && push_along(x, x->gmq, k, &cur, &player, out, pushes);
    x->occ[cur] = 0;
    x->occ[old] = 1;
    *pplayer = player;
    return ok && cur == target;
}

/* Spells out a packing-advisor move (advise_pack): the box on `old` to
 * `at` (x->occ holding the boxes before it, the player on *pplayer) by
 * the same box-path search, each walk and push appended to out; *pplayer
 * ends behind the box. Leaves x->occ as it found it. Returns false if
 * the path does not reach `at` (a bug). */
static bool replay_pack_macro(sok_ctx *x, int old, int at, int *pplayer,
                              gs_buf *out, long *pushes)
{
    int32_t *cells = gs_mem_malloc(sizeof *cells * ((size_t)x->n * 4 + 1));
    if (!cells || !x->fess) {
        gs_mem_free(cells);
        return false;
    }
    int k = gs_sokoban_fess_pack_path(x, x->fess, old, *pplayer, at, cells);
    bool ok = k >= 2 && cells[k - 1] == at;
    int player = *pplayer, cur = old;
    ok = ok && push_along(x, cells, k, &cur, &player, out, pushes);
    x->occ[cur] = 0;
    x->occ[old] = 1;
    gs_mem_free(cells);
    *pplayer = player;
    return ok && cur == at;
}

/* Spells out one packing-advisor step of the answer (x->boxes before it,
 * x->child after; the box left `old`): the one new cell is where it went.
 * False when it cannot be replayed (a bug). */
static bool replay_advice(sok_ctx *x, int old, int *player, gs_buf *out,
                          long *pushes)
{
    int at = -1;
    for (int i = 0; i < x->nboxes && at < 0; i++)
        if (!bsearch(&x->child[i], x->boxes, (size_t)x->nboxes,
                     sizeof *x->boxes, cmp_cell))
            at = x->child[i];
    gs_sokoban_occ_set(x, x->boxes, 1);
    bool ok = old >= 0 && at >= 0 &&
              replay_pack_macro(x, old, at, player, out, pushes);
    gs_sokoban_occ_set(x, x->boxes, 0);
    return ok;
}

/* Spells out one push step of the answer (x->boxes before it, x->child
 * after): the walk to the box on `old`, the push along d (move byte d:
 * bit 2 a macro), and the pushes a tunnel or goal macro added. False when
 * it cannot be replayed (a bug). */
static bool replay_push(sok_ctx *x, int old, int d, int *player, gs_buf *out,
                        long *pushes)
{
    bool macro = d & 4;
    d &= 3;
    int from = old >= 0 ? x->nb[old * 4 + (d ^ 1)] : -1;
    gs_sokoban_occ_set(x, x->boxes, 1);
    bool ok = from >= 0 && gs_sokoban_append_walk(x, *player, from, out);
    /* The box goes on along d to its new cell: several pushes when a
     * tunnel macro made the step. A goal macro ends the straight run
     * where expand() started it: after the tunnel macro, if any. */
    *player = old;
    int at = ok ? x->nb[old * 4 + d] : -1;
    int end = at;
    if (ok && macro && x->tunnels && at >= 0) {
        x->occ[old] = 0;
        x->occ[at] = 1;
        end = gs_sokoban_tunnel_end(x, old, at, d);
        x->occ[at] = 0;
        x->occ[old] = 1;
    }
    while (ok) {
        gs_buf_append(out, &PUSH[d], 1);
        (*pushes)++;
        if (at < 0 || (macro && at == end) ||
            bsearch(&at, x->child, (size_t)x->nboxes, sizeof *x->child,
                    cmp_cell))
            break;
        *player = at;
        at = x->nb[at * 4 + d];
    }
    ok = ok && at >= 0;
    if (ok && macro)
        ok = replay_goal_macro(x, old, at, player, out, pushes);
    gs_sokoban_occ_set(x, x->boxes, 0);
    return ok;
}

uint64_t *gs_sokoban_path_chain(const gs_search *s, uint64_t goal, size_t *k)
{
    size_t n = 0;
    for (uint64_t id = goal; gs_search_parent(s, id, NULL) != GS_NO_PARENT;
         id = gs_search_parent(s, id, NULL))
        n++;
    uint64_t *chain = malloc(sizeof *chain * (n + 1));
    if (!chain)
        return NULL;
    uint64_t id = goal;
    for (size_t i = n + 1; i > 0; i--) {
        chain[i - 1] = id;
        id = gs_search_parent(s, id, NULL);
    }
    *k = n;
    return chain;
}

/* The error of an answer whose push t cannot be replayed: a bug, not
 * the request's fault. */
static int unreachable_push(gs_error *err, size_t t)
{
    return gs_error_set(err, GS_EINTERNAL,
                        "sokoban: push %zu of the answer is not reachable", t);
}

/* Ends a rebuild: on success (rc GS_OK, out whole) the moves and pushes
 * go into res; otherwise out is dropped and the error passed on. */
static int answer_done(int rc, gs_buf *out, long pushes, gs_result *res,
                       gs_error *err)
{
    if (rc == GS_OK && gs_buf_status(out))
        rc = gs_error_set(err, GS_ENOMEM, "out of memory for the answer");
    if (rc) {
        gs_buf_free(out);
        return rc;
    }
    res->moves = gs_buf_take(out, &res->steps);
    res->pushes = pushes;
    res->status = GS_SOLVED;
    return GS_OK;
}

/* One step of the answer in a plain store (x->boxes before it): the
 * stored child unpacked into x->child, and the push or advisor move that
 * made it spelled out; the walks between pushes are recomputed by the
 * same shortest flood the search costed them with. False when it cannot
 * be replayed (a bug). */
static bool step_plain(sok_ctx *x, gs_search *s, const uint64_t *chain,
                       size_t t, int *player, gs_buf *out, long *pushes)
{
    unsigned char d;
    gs_search_parent(s, chain[t], &d);
    gs_sokoban_key_unpack(x, gs_search_key(s, chain[t]), x->child);
    int old = gs_sokoban_left_cell(x, x->boxes, x->child); /* the pushed box */
    return (d & 8) ? replay_advice(x, old, player, out, pushes)
                   : replay_push(x, old, d, player, out, pushes);
}

/* One step of the answer in a store keyed by symmetry classes (sym.c):
 * from the real position (x->boxes), a push whose result is in the next
 * stored class at the stored cost (the search made such a push from the
 * class's stored position, and the real position is an image of it);
 * its result goes into x->child. False when none is (a bug). */
static bool step_sym(sok_ctx *x, gs_search *s, const uint64_t *chain, size_t t,
                     int *player, gs_buf *out, long *pushes)
{
    const unsigned char *want = gs_search_key(s, chain[t]);
    uint64_t dc = gs_search_cost(s, chain[t]) - gs_search_cost(s, chain[t - 1]);
    gs_sokoban_occ_set(x, x->boxes, 1);
    int np = gs_sokoban_list_pushes(x, *player), found = -1;
    int run = 1;
    for (int j = 0; j < np && found < 0; j++) {
        int i = x->pushes[j].box, d = x->pushes[j].dir;
        int b = x->boxes[i], to = x->nb[b * 4 + d];
        /* The corridor macro as expand() made it. */
        x->occ[b] = 0;
        x->occ[to] = 1;
        int end = x->corridors ? gs_sokoban_corridor_end(x, to, d) : to;
        x->occ[to] = 0;
        x->occ[end] = 1;
        run = 1;
        for (int c = to; c != end; c = x->nb[c * 4 + d])
            run++;
        uint64_t cost = gs_sokoban_push_cost(x->obj, x->pushes[j].walk) +
                        (uint64_t)(run - 1) * gs_sokoban_push_cost(x->obj, 0);
        if (cost == dc) {
            gs_sokoban_boxes_move(x, x->boxes, i, end, x->child);
            gs_sokoban_store_key(x, x->nb[end * 4 + (d ^ 1)], x->child);
            if (memcmp(x->key, want, x->key_size) == 0)
                found = j;
        }
        x->occ[end] = 0;
        x->occ[b] = 1;
    }
    bool ok = found >= 0;
    if (ok) {
        /* x->child holds the push's result, `run` pushes along d. */
        int i = x->pushes[found].box, d = x->pushes[found].dir;
        int b = x->boxes[i];
        ok = gs_sokoban_append_walk(x, *player, x->nb[b * 4 + (d ^ 1)], out);
        for (int r = 0; r < run; r++) {
            gs_buf_append(out, &PUSH[d], 1);
            (*pushes)++;
            *player = b;
            b = x->nb[b * 4 + d];
        }
    }
    gs_sokoban_occ_set(x, x->boxes, 0);
    return ok;
}

int gs_sokoban_rebuild(sok_ctx *x, gs_search *s, uint64_t goal,
                       sok_step_fn step, void *arg, gs_result *res,
                       gs_error *err)
{
    size_t k;
    uint64_t *chain = gs_sokoban_path_chain(s, goal, &k);
    if (!chain)
        return gs_error_set(err, GS_ENOMEM, "out of memory for the answer");
    gs_buf out = GS_BUF_INIT;
    int player = x->start_player, rc = GS_OK;
    long pushes = 0;
    for (size_t t = 1; t <= k && !rc; t++)
        if (!step(x, s, chain, k, t, &player, &out, &pushes, arg))
            rc = unreachable_push(err, t);
    free(chain);
    return answer_done(rc, &out, pushes, res, err);
}

/* Step t of a forward store's answer (sok_step_fn): plain or, in a
 * store keyed by symmetry classes, through them; x->boxes follows. */
static bool step_forward(sok_ctx *x, gs_search *s, const uint64_t *chain,
                         size_t k, size_t t, int *player, gs_buf *out,
                         long *pushes, void *arg)
{
    (void)k;
    (void)arg;
    bool ok = x->sym && x->sym_store
                  ? step_sym(x, s, chain, t, player, out, pushes)
                  : step_plain(x, s, chain, t, player, out, pushes);
    if (ok)
        memcpy(x->boxes, x->child, sizeof *x->boxes * (size_t)x->nboxes);
    return ok;
}

int gs_sokoban_answer(sok_ctx *x, gs_search *s, uint64_t goal, gs_result *res,
                      gs_error *err)
{
    if (x->nboxes > 0)
        memcpy(x->boxes, x->start_boxes, sizeof *x->boxes * (size_t)x->nboxes);
    return gs_sokoban_rebuild(x, s, goal, step_forward, NULL, res, err);
}
