/* pull.c - `any`'s search backwards: from the boxes on the goals, pulling
 * them, to the start.
 *
 * A push read backwards is a pull: the player steps away from a box and
 * drags it one cell along. Levels whose hard part is the packing (a goal
 * room filled in the one order that does not wall off its back) are easy
 * backwards, where the room is emptied from its door in any order; the
 * strong solvers search both ways (Festival, Sokolution). This search
 * goes over (boxes, the player's area) from every area of the solved
 * position, to the start's boxes with the start's player in the area.
 * Its estimate is a minimum matching of the boxes to the start's box
 * cells by pulls of a box alone. Its order is fess.c's: feature cells
 * by the boxes already on start cells, picked round robin (each its best
 * estimate, then fewest pulls), every other pick the best estimate of
 * all. Plain greedy on the estimate solved XSokoban 13, 14, 45 and 46 at
 * 20 s a level; the cells solve those and 26, 35, 41, 71 and 87, which
 * no forward search solves at 60 s. Cells also keyed by the boxes in
 * one-wide passages (`doors`) solve 22, 43 and 44 instead. The answer is
 * the path read back to front, each pull a push, the walks rebuilt by
 * flood.
 *
 * It needs as many goals as boxes (the solved position is then one box
 * set) and bound.c's matching (its scratch, which levels of at most
 * SOK_MATCH_MAX_BOXES boxes have); on other levels it answers `limit` at
 * once. Running dry proves nothing here either: the caller keeps
 * `impossible` to the forward searches.
 */
#include <stdlib.h>
#include <string.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

static const char PUSH[4] = {'U', 'D', 'L', 'R'};

/* One child of an expansion: slot i pulled onto `to` along d. */
typedef struct pull_kid {
    int i, to, d;
    bool done;
    uint32_t feat;
} pull_kid;

/* The backward search's tables, held for one solve. */
typedef struct sok_pull {
    sok_ctx *x;
    int nb;          /* boxes = start cells = goals */
    uint16_t *sdist; /* n * nb: pushes of a box alone from start cell j to c,
                        a distance row per cell for bound.c's matching */
    uint8_t *dead;   /* n: no start cell pulls back to c (SOK_GDIST_INF) */
    int32_t *boxes, *child;
    pull_kid *kids; /* 4 * nb: one expansion's children */
    uint8_t *cellf; /* n: PULL_START, PULL_DOOR bits */
    bool doors;     /* the cells keyed by the boxes on PULL_DOOR too */
    bool most;      /* ties to the most pulls (SOK_PULL_MOST) */
    sok_fess *open; /* the open lists, by feature cell (fess.c) */
    uint64_t expanded;
} sok_pull;

/* Fills row j of the distances: a box alone pushed from start cell s
 * (the player behind it, walls only), which is the pull distance back
 * from every cell to s. */
static void pull_row(sok_pull *P, int j, int s)
{
    sok_ctx *x = P->x;
    uint16_t *row = P->sdist;
    size_t nb = (size_t)P->nb;
    for (int c = 0; c < x->n; c++)
        row[(size_t)c * nb + (size_t)j] = SOK_GDIST_INF;
    int head = 0, tail = 0;
    row[(size_t)s * nb + (size_t)j] = 0;
    x->queue[tail++] = s;
    while (head < tail) {
        int c = x->queue[head++];
        for (int d = 0; d < 4; d++) {
            int to = x->nb[c * 4 + d], back = x->nb[c * 4 + (d ^ 1)];
            if (to < 0 || back < 0 ||
                row[(size_t)to * nb + (size_t)j] != SOK_GDIST_INF)
                continue;
            /* Saturated below "unreachable" on huge levels: only the
             * estimate loses, never a cell. */
            uint32_t nd = row[(size_t)c * nb + (size_t)j] + 1u;
            row[(size_t)to * nb + (size_t)j] =
                (uint16_t)(nd < SOK_GDIST_INF ? nd : SOK_GDIST_INF - 1);
            x->queue[tail++] = to;
        }
    }
}

static void pull_free(sok_pull *P)
{
    gs_mem_free(P->sdist);
    gs_mem_free(P->dead);
    gs_mem_free(P->boxes);
    gs_mem_free(P->kids);
    gs_mem_free(P->cellf);
    gs_sokoban_fess_free(P->open);
}

/* Bits of a cell (sok_pull.cellf): a start box cell; a one-wide passage
 * (gs_sokoban_fess_passage). */
#define PULL_START 1
#define PULL_DOOR 2

/* Marks the cells of x in f (n bytes): PULL_START, PULL_DOOR. */
static void pull_cells(const sok_ctx *x, uint8_t *f)
{
    for (int c = 0; c < x->n; c++)
        f[c] = gs_sokoban_fess_passage(x, c) ? PULL_DOOR : 0;
    for (int j = 0; j < x->nboxes; j++)
        f[x->start_boxes[j]] |= PULL_START;
}

/* Allocates and fills P's tables; false when the budget refuses one. */
static bool pull_init(sok_ctx *x, sok_pull *P)
{
    memset(P, 0, sizeof *P);
    P->x = x;
    P->nb = x->nboxes;
    size_t un = (size_t)x->n, nb = (size_t)P->nb;
    P->sdist = gs_sokoban_tab_alloc(x, sizeof *P->sdist * un * nb, false);
    P->dead = gs_sokoban_tab_alloc(x, un, false);
    P->boxes = gs_sokoban_tab_alloc(x, sizeof *P->boxes * 2 * nb, false);
    P->kids = gs_sokoban_tab_alloc(x, sizeof *P->kids * 4 * nb, false);
    P->cellf = gs_sokoban_tab_alloc(x, un, false);
    if (!P->sdist || !P->dead || !P->boxes || !P->kids || !P->cellf)
        return false;
    pull_cells(x, P->cellf);
    P->child = P->boxes + nb;
    for (int j = 0; j < P->nb; j++)
        pull_row(P, j, x->start_boxes[j]);
    for (int c = 0; c < x->n; c++) {
        P->dead[c] = 1;
        for (int j = 0; j < P->nb && P->dead[c]; j++)
            if (P->sdist[(size_t)c * (size_t)P->nb + (size_t)j] !=
                SOK_GDIST_INF)
                P->dead[c] = 0;
    }
    return true;
}

/* The distance row of a box on cell c (bound.c's matching). */
static const uint16_t *pull_row_of(const sok_pull *P, int c)
{
    return P->sdist + (size_t)c * (size_t)P->nb;
}

/* The least total pulls that bring boxes onto distinct start cells, each
 * box alone (SOK_INF: no such matching), by bound.c's matching, which
 * keeps it for the children (gs_sokoban_child_rows). */
static uint32_t pull_cost(sok_pull *P, const int32_t *boxes)
{
    for (int i = 0; i < P->nb; i++)
        P->x->crow[i] = pull_row_of(P, boxes[i]);
    return gs_sokoban_parent_rows(P->x);
}

/* The feature cell of boxes: how many stand on start cells (the
 * packing feature read backwards) and, with P->doors, how many stand in
 * one-wide passages off them (FESS's room connectivity, as fess.c
 * counts it). The areas shut off the player (FESS's connectivity) as a
 * feature solved fewer of the levels missed (none, or 29 and 87), at
 * 20 s a level. */
static uint32_t pull_feat(const sok_pull *P, const int32_t *boxes)
{
    uint32_t on = 0, doors = 0;
    for (int i = 0; i < P->nb; i++) {
        on += P->cellf[boxes[i]] & PULL_START;
        doors += (P->cellf[boxes[i]] & (PULL_START | PULL_DOOR)) == PULL_DOOR;
    }
    return P->doors ? on << 8 | (doors < 0xff ? doors : 0xff) : on;
}

/* Whether boxes are the start's, the player's area holding the start's
 * player (`here`). */
static bool pull_done(const sok_ctx *x, const int32_t *boxes, bool here)
{
    return here && memcmp(boxes, x->start_boxes,
                          sizeof *boxes * (size_t)x->nboxes) == 0;
}

/* The smallest cell of the player's area once the box on b is pulled onto
 * `to` with the player on pl (x->occ and, with row masks, their free
 * cells hold the position before); *here: the area holds the start's
 * player. */
static int child_area(sok_ctx *x, int b, int to, int pl, bool *here)
{
    sok_bits *m = x->bits;
    if (!m) {
        x->occ[b] = 0;
        x->occ[to] = 1;
        int lo = gs_sokoban_flood(x, pl);
        x->occ[to] = 0;
        x->occ[b] = 1;
        *here = x->seen[x->start_player] == x->gen;
        return lo;
    }
    gs_sokoban_bits_flip(m, b);
    gs_sokoban_bits_flip(m, to);
    int lo = gs_sokoban_bits_area(x, pl);
    gs_sokoban_bits_flip(m, to);
    gs_sokoban_bits_flip(m, b);
    *here = gs_sokoban_bits_has(m, x->start_player);
    return lo;
}

/* Stores the position of `key` from parent by pull direction d and,
 * unless it was known or is dead, queues it in feature cell `feat`: its
 * matching is that of the last pull_cost (hp) with box slot moved onto
 * `to`, or hp itself for a start (slot < 0). `done`: it is the start.
 * 1 when it is (*goal set), 0 otherwise, or a store's limit or error. */
static int pull_add(sok_pull *P, gs_search *s, const unsigned char *key,
                    uint32_t hp, int slot, int to, uint64_t parent, int d,
                    uint64_t g, bool done, uint64_t *goal, uint32_t feat)
{
    uint64_t id;
    /* Known: greedy, a shorter way there changes nothing. The add comes
     * first, as it also watches the deadline. */
    int rc = gs_search_add(s, key, parent, (unsigned char)d, &id);
    if (rc <= 0)
        return rc;
    uint32_t h = slot < 0 ? hp
                          : gs_sokoban_child_rows(P->x, hp, slot,
                                                  pull_row_of(P, to), true);
    if (h == SOK_INF)
        return 0; /* stored, never expanded */
    rc = gs_sokoban_fess_push(P->open, feat, id, h, g, false);
    if (rc < 0)
        return rc;
    if (done) {
        *goal = id;
        return 1;
    }
    return 0;
}

/* The solved position from each area of its free cells. */
static int pull_starts(sok_pull *P, gs_search *s, uint64_t *goal)
{
    sok_ctx *x = P->x;
    for (int i = 0; i < P->nb; i++)
        P->boxes[i] = x->goals[i]; /* ascending, as numbered */
    uint32_t h = pull_cost(P, P->boxes);
    gs_sokoban_occ_set(x, P->boxes, 1);
    int rc = 0;
    for (int c = 0; c < x->n && rc == 0; c++) {
        if (x->occ[c])
            continue;
        /* In cell order the first cell of an area is its smallest;
         * mark[] keeps the others out. */
        if (x->mark[c])
            continue;
        gs_sokoban_flood(x, c);
        for (int t = 0; t < x->n; t++)
            if (x->seen[t] == x->gen)
                x->mark[t] = 1;
        bool dn = pull_done(x, P->boxes, x->seen[x->start_player] == x->gen);
        gs_sokoban_key_pack(x, c, P->boxes);
        rc = pull_add(P, s, x->key, h, -1, 0, GS_NO_PARENT, 0, 0, dn, goal,
                      pull_feat(P, P->boxes));
    }
    for (int c = 0; c < x->n; c++)
        x->mark[c] = 0;
    gs_sokoban_occ_set(x, P->boxes, 0);
    return rc;
}

/* Expands state id (g pulls): every pull the player can walk to. The
 * children's keys are made first and their index slots prefetched, so
 * that the look-ups' cache misses overlap (as search.c's expand). */
static int pull_expand(sok_pull *P, gs_search *s, uint64_t id, uint64_t g,
                       uint64_t *goal)
{
    sok_ctx *x = P->x;
    int lo = gs_sokoban_key_unpack(x, gs_search_key(s, id), P->boxes);
    gs_sokoban_occ_set(x, P->boxes, 1);
    if (x->bits)
        gs_sokoban_bits_load(x, P->boxes);
    gs_sokoban_flood(x, lo);
    /* Which cells the player reaches, before the children's areas. */
    for (int c = 0; c < x->n; c++)
        x->mark[c] = x->seen[c] == x->gen;
    int nk = 0;
    for (int i = 0; i < P->nb; i++) {
        int b = P->boxes[i];
        for (int d = 0; d < 4; d++) {
            int to = x->nb[b * 4 + d];
            if (to < 0 || !x->mark[to] || P->dead[to])
                continue;
            int pl = x->nb[to * 4 + d];
            if (pl < 0 || x->occ[pl])
                continue;
            gs_sokoban_boxes_move(x, P->boxes, i, to, P->child);
            bool here;
            int clo = child_area(x, b, to, pl, &here);
            P->kids[nk] = (pull_kid){i, to, d, pull_done(x, P->child, here),
                                     pull_feat(P, P->child)};
            gs_sokoban_key_pack(x, clo, P->child);
            unsigned char *k = x->pkeys + (size_t)nk * x->key_size;
            memcpy(k, x->key, x->key_size);
            gs_search_prefetch(s, k);
            nk++;
        }
    }
    gs_sokoban_occ_set(x, P->boxes, 0);
    for (int c = 0; c < x->n; c++)
        x->mark[c] = 0;
    uint32_t h = pull_cost(P, P->boxes); /* the children's start from it */
    int rc = 0;
    for (int j = 0; j < nk && rc == 0; j++) {
        const pull_kid *k = &P->kids[j];
        rc = pull_add(P, s, x->pkeys + (size_t)j * x->key_size, h, k->i, k->to,
                      id, k->d, g + 1, k->done, goal, k->feat);
    }
    return rc;
}

/* Push t of the answer (sok_step_fn): the pull chain[k-t] -> chain[k-t+1]
 * moved a box from b to `to` along d; forwards, the player behind `to`
 * pushes it back (x->occ holds the boxes before the push). */
static bool pull_step(sok_ctx *x, gs_search *s, const uint64_t *chain, size_t k,
                      size_t t, int *player, gs_buf *out, long *pushes,
                      void *arg)
{
    (void)arg;
    unsigned char d;
    gs_search_parent(s, chain[k - t + 1], &d);
    gs_sokoban_key_unpack(x, gs_search_key(s, chain[k - t]), x->boxes);
    gs_sokoban_key_unpack(x, gs_search_key(s, chain[k - t + 1]), x->child);
    int b = gs_sokoban_left_cell(x, x->boxes, x->child);
    int to = b >= 0 ? x->nb[b * 4 + d] : -1;
    int behind = to >= 0 ? x->nb[to * 4 + d] : -1;
    if (behind < 0 || !x->occ[to] || x->occ[b] ||
        !gs_sokoban_append_walk(x, *player, behind, out))
        return false;
    gs_buf_append(out, &PUSH[d ^ 1], 1);
    (*pushes)++;
    x->occ[to] = 0;
    x->occ[b] = 1;
    *player = to;
    return true;
}

/* Spells out the pulls from the solved position to `goal` as pushes from
 * the start, back to front. GS_OK with res solved, or an error. */
static int pull_answer(sok_ctx *x, gs_search *s, uint64_t goal, gs_result *res,
                       gs_error *err)
{
    gs_sokoban_occ_set(x, x->start_boxes, 1);
    int rc = gs_sokoban_rebuild(x, s, goal, pull_step, NULL, res, err);
    for (int c = 0; c < x->n; c++)
        x->occ[c] = 0;
    return rc;
}

/* The search loop: GS_OK with res filled (solved, or a limit; running
 * dry, which proves nothing here, is a limit on states), or an error. */
static int pull_run(sok_pull *P, gs_search *s, gs_result *res, gs_error *err)
{
    uint64_t goal = 0, id;
    bool dry = false;
    int rc = pull_starts(P, s, &goal);
    while (rc == 0 && !dry) {
        uint64_t g = 0;
        rc = gs_sokoban_fess_pop(P->open, &id, &g);
        if (rc == 1) {
            P->expanded++;
            rc = pull_expand(P, s, id, g, &goal);
        } else {
            dry = rc == 0;
        }
    }
    res->expanded = P->expanded;
    if (rc == 1)
        return pull_answer(P->x, s, goal, res, err);
    res->status = GS_LIMIT;
    res->limit = dry                             ? GS_LIMIT_STATES
                 : gs_sokoban_fess_over(P->open) ? GS_LIMIT_MEMORY
                                                 : gs_search_limit(s);
    if (dry || rc == GS_ELIMIT)
        return GS_OK;
    return gs_error_set(err, rc, "sokoban: out of memory in the search");
}

/* Opens the store and the open lists within l (the lists a quarter of
 * its bytes, as fess.c's in any.c) and runs the search: GS_OK with
 * res filled, or an error. */
static int pull_search(sok_pull *P, const gs_limits *lim, gs_limits *l,
                       gs_result *res, gs_sokoban_stats *st, gs_error *err)
{
    sok_ctx *x = P->x;
    P->open = gs_sokoban_fess_new(x, l->max_bytes / 4);
    if (!P->open)
        return gs_error_set(err, GS_ENOMEM, "sokoban: out of memory");
    gs_sokoban_fess_plain_all(P->open, P->most);
    l->max_bytes -= l->max_bytes / 4;
    gs_search_config cfg = {
        .key_size = x->key_size,
        .queue = GS_QUEUE_FIFO, /* a store: P->open is the queue */
        .limits = l,
    };
    gs_search *s = NULL;
    int rc = gs_search_new(&cfg, &s);
    if (rc)
        return gs_error_set(err, rc, "sokoban: cannot start the search");
    rc = pull_run(P, s, res, err);
    gs_progress_add_expanded(lim, P->expanded);
    if (st) {
        st->states = gs_search_count(s);
        st->store_bytes = gs_search_bytes(s);
        st->table_bytes = x->bytes;
    }
    gs_search_free(s);
    return rc;
}

int gs_sokoban_pull(sok_ctx *x, const gs_limits *lim, unsigned order,
                    gs_result *res, gs_sokoban_stats *st, gs_error *err)
{
    res->status = GS_LIMIT;
    res->limit = GS_LIMIT_STATES;
    /* The pulls see only the boxes of the player's region: one walled in
     * off its goal elsewhere (start_dead) would go unnoticed. */
    if (x->start_dead)
        return GS_OK;
    if (x->nboxes == 0) { /* every box on a goal out of reach: solved */
        res->moves = calloc(1, 1);
        if (!res->moves)
            return gs_error_set(err, GS_ENOMEM, "sokoban: out of memory");
        res->status = GS_SOLVED;
        res->steps = 0;
        res->pushes = 0;
        res->optimal = true;
        return GS_OK;
    }
    if (x->ngoals != x->nboxes || !x->crow)
        return GS_OK;
    x->sq_ok = false; /* the duals kept are of another search's rows */
    uint64_t before = x->bytes;
    sok_pull P;
    int rc = GS_OK;
    gs_limits l = *lim;
    bool room = pull_init(x, &P);
    P.doors = order & SOK_PULL_DOORS;
    P.most = order & SOK_PULL_MOST;
    uint64_t held = x->bytes - before;
    if (room && (!l.max_bytes || held < l.max_bytes)) {
        if (l.max_bytes)
            l.max_bytes -= held;
        rc = pull_search(&P, lim, &l, res, st, err);
    } else {
        res->limit = GS_LIMIT_MEMORY;
    }
    pull_free(&P);
    x->bytes = before;
    x->sq_ok = false; /* its duals are of rows now freed */
    return rc;
}
