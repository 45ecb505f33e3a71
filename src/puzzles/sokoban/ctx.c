/* ctx.c - the tables of one sokoban solve: the player's region renumbered
 * with its neighbour table, goals, dead squares, packed state keys, and
 * the player flood and relaxed pull distances every other file uses.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

/* Directions: U D L R, so that d^1 is the opposite direction. */
static const int DR[4] = {-1, 1, 0, 0};
static const int DC[4] = {0, 0, -1, 1};

/* Allocates one of the solve's tables (zeroed when asked) and counts it,
 * so that the tables and the search store share the solve's memory
 * budget; the one place a process-wide budget would hook in. */
void *gs_sokoban_tab_alloc(sok_ctx *x, size_t n, bool zero)
{
    void *p = zero ? gs_mem_calloc(n ? n : 1, 1) : gs_mem_malloc(n ? n : 1);
    if (p)
        x->bytes += n;
    return p;
}

void gs_sokoban_ctx_free(sok_ctx *x)
{
    gs_sokoban_bits_free(x);
    gs_mem_free(x->nb);
    gs_mem_free(x->goal);
    gs_mem_free(x->dead);
    gs_mem_free(x->near);
    gs_mem_free(x->goals);
    gs_mem_free(x->gdist);
    gs_mem_free(x->occ);
    gs_mem_free(x->mark);
    gs_mem_free(x->seen);
    gs_mem_free(x->dist);
    gs_mem_free(x->how);
    gs_mem_free(x->queue);
    gs_mem_free(x->boxes);
    gs_mem_free(x->child);
    gs_mem_free(x->start_boxes);
    gs_mem_free(x->key);
    gs_mem_free(x->hu);
    gs_mem_free(x->hv);
    gs_mem_free(x->hminv);
    gs_mem_free(x->hp);
    gs_mem_free(x->hway);
    gs_mem_free(x->hcols);
    gs_mem_free(x->hzero);
    gs_mem_free(x->hused);
    gs_mem_free(x->su);
    gs_mem_free(x->sv);
    gs_mem_free(x->sp);
    gs_mem_free(x->pgrp);
    gs_mem_free(x->plab);
    gs_mem_free(x->gqueue);
    gs_mem_free(x->prow);
    gs_mem_free(x->crow);
    gs_mem_free(x->assign);
    gs_mem_free(x->corral);
    gs_mem_free(x->inb);
    gs_mem_free(x->passign);
    gs_mem_free(x->pushes);
    gs_mem_free(x->walk);
    gs_mem_free(x->pend);
    gs_mem_free(x->pkeys);
    gs_mem_free(x->glayer);
    gs_mem_free(x->gindex);
    gs_mem_free(x->pmark);
    gs_mem_free(x->garea);
    gs_mem_free(x->rindex);
    gs_mem_free(x->rcell);
    gs_mem_free(x->gmseen);
    gs_mem_free(x->gmpar);
    gs_mem_free(x->gmq);
    gs_mem_free(x->gmdep);
    gs_sokoban_zone_free(&x->zone);
    gs_sokoban_perim_free(x);
    gs_sokoban_learn_free(x);
    gs_sokoban_sym_free(x);
    gs_sokoban_frozen_free(x);
}

/* Key = [player][boxes in ascending order], or with x->bitkey
 * [player][one bit per cell, set under a box]; boxes must be sorted. */
void gs_sokoban_key_pack(sok_ctx *x, int player, const int32_t *boxes)
{
    gs_sokoban_key_put(x->key, x->w, 0, (uint32_t)player);
    if (x->bitkey) {
        unsigned char *set = x->key + x->w;
        memset(set, 0, x->key_size - (size_t)x->w);
        for (int i = 0; i < x->nboxes; i++)
            set[boxes[i] >> 3] |= (unsigned char)(1u << (boxes[i] & 7));
        return;
    }
    for (int i = 0; i < x->nboxes; i++)
        gs_sokoban_key_put(x->key, x->w, i + 1, (uint32_t)boxes[i]);
}

int gs_sokoban_key_unpack(const sok_ctx *x, const unsigned char *k,
                          int32_t *boxes)
{
    if (x->bitkey) {
        const unsigned char *set = k + x->w;
        size_t nbytes = x->key_size - (size_t)x->w;
        int o = 0;
        /* Eight bytes at a time, the bits in ascending order. */
        for (size_t at = 0; at < nbytes; at += 8) {
            uint64_t v = 0;
            size_t len = nbytes - at < 8 ? nbytes - at : 8;
            memcpy(&v, set + at, len);
            for (; v; v &= v - 1)
                boxes[o++] = (int32_t)(at * 8 + (size_t)__builtin_ctzll(v));
        }
        return (int)gs_sokoban_key_get(k, x->w, 0);
    }
    for (int i = 0; i < x->nboxes; i++)
        boxes[i] = (int32_t)gs_sokoban_key_get(k, x->w, i + 1);
    return (int)gs_sokoban_key_get(k, x->w, 0);
}

void gs_sokoban_boxes_move(const sok_ctx *x, const int32_t *boxes, int i,
                           int to, int32_t *out)
{
    memcpy(out, boxes, sizeof *out * (size_t)x->nboxes);
    out[i] = to;
    /* One slot changed: a single insertion pass restores the order. */
    while (i > 0 && out[i - 1] > out[i]) {
        int32_t s = out[i - 1];
        out[i - 1] = out[i];
        out[i] = s;
        i--;
    }
    while (i + 1 < x->nboxes && out[i + 1] < out[i]) {
        int32_t s = out[i + 1];
        out[i + 1] = out[i];
        out[i] = s;
        i++;
    }
}

void gs_sokoban_occ_set(sok_ctx *x, const int32_t *boxes, uint8_t v)
{
    for (int i = 0; i < x->nboxes; i++)
        x->occ[boxes[i]] = v;
}

/* Floods the free cells (no wall, no box) from `from`, filling dist/how for
 * cells with seen == gen. Returns the smallest cell number reached. */
void gs_sokoban_next_gen(sok_ctx *x)
{
    if (++x->gen == 0) { /* wrapped: old stamps could collide */
        memset(x->seen, 0, sizeof *x->seen * (size_t)x->n);
        x->gen = 1;
    }
}

int gs_sokoban_flood(sok_ctx *x, int from)
{
    gs_sokoban_next_gen(x);
    int head = 0, tail = 0, lo = from;
    x->seen[from] = x->gen;
    x->dist[from] = 0;
    x->queue[tail++] = from;
    while (head < tail) {
        int c = x->queue[head++];
        for (int d = 0; d < 4; d++) {
            int t = x->nb[c * 4 + d];
            if (t < 0 || x->occ[t] || x->seen[t] == x->gen)
                continue;
            x->seen[t] = x->gen;
            x->dist[t] = x->dist[c] + 1;
            x->how[t] = (uint8_t)d;
            x->queue[tail++] = t;
            if (t < lo)
                lo = t;
        }
    }
    return lo;
}

/* Relaxed pull BFS from the goals (all of them when goal < 0, else one):
 * a box reaches y from y+d when y and y-d are floor. Fills out[] (SOK_INF
 * for cells that no push sequence brings to those goals). */
void gs_sokoban_pull_bfs(sok_ctx *x, int goal, uint32_t *out)
{
    int head = 0, tail = 0;
    for (int i = 0; i < x->n; i++)
        out[i] = SOK_INF;
    for (int i = 0; i < x->ngoals; i++) {
        if (goal >= 0 && i != goal)
            continue;
        out[x->goals[i]] = 0;
        x->queue[tail++] = x->goals[i];
    }
    while (head < tail) {
        int z = x->queue[head++];
        for (int d = 0; d < 4; d++) {
            int y = x->nb[z * 4 + (d ^ 1)];
            if (y < 0 || x->nb[y * 4 + (d ^ 1)] < 0 || out[y] != SOK_INF)
                continue;
            out[y] = out[z] + 1;
            x->queue[tail++] = y;
        }
    }
}

/* The packing order tables, for `any` only (its greedy phase; and the
 * areas for its A*, also when tests run that alone). Returns false when
 * out of memory. */
static bool init_packing(sok_ctx *x)
{
    if (x->obj < SOK_ANY || x->ngoals == 0)
        return true;
    size_t ng = (size_t)x->ngoals;
    x->glayer = gs_sokoban_tab_alloc(x, sizeof *x->glayer * ng, false);
    x->gindex =
        gs_sokoban_tab_alloc(x, sizeof *x->gindex * (size_t)x->n, false);
    x->pmark = gs_sokoban_tab_alloc(x, ng, true);
    if (!x->glayer || !x->gindex || !x->pmark)
        return false;
    x->zone_ok = gs_sokoban_zone_alloc(x, &x->zone);
    if (!x->zone_ok)
        return false;
    gs_sokoban_pack_layers(x);
    return gs_sokoban_goal_areas_init(x);
}

int gs_sokoban_number_region(const gs_sokoban *g, int32_t *num, int32_t *stack)
{
    size_t cells = (size_t)g->rows * (size_t)g->cols, top = 0;
    for (size_t i = 0; i < cells; i++)
        num[i] = -1;
    num[g->player] = 0;
    stack[top++] = g->player;
    while (top > 0) {
        int c = stack[--top], r = c / g->cols, col = c % g->cols;
        for (int d = 0; d < 4; d++) {
            int rr = r + DR[d], cc = col + DC[d];
            if (rr < 0 || rr >= g->rows || cc < 0 || cc >= g->cols)
                continue;
            int t = rr * g->cols + cc;
            if (num[t] >= 0 || (g->cell[t] & SOK_WALL))
                continue;
            num[t] = 0;
            stack[top++] = t;
        }
    }
    int n = 0;
    for (size_t i = 0; i < cells; i++)
        if (num[i] >= 0)
            num[i] = n++;
    return n;
}

/* Counts the boxes and goals of the region numbered by num; a box walled
 * in off its goal, or too few goals, make the start dead. */
static void count_cells(sok_ctx *x, const gs_sokoban *g, const int32_t *num)
{
    size_t cells = (size_t)g->rows * (size_t)g->cols;
    for (size_t i = 0; i < cells; i++) {
        if (num[i] >= 0) {
            x->nboxes += (g->cell[i] & SOK_BOX) != 0;
            x->ngoals += (g->cell[i] & SOK_GOAL) != 0;
        } else if ((g->cell[i] & SOK_BOX) && !(g->cell[i] & SOK_GOAL)) {
            x->start_dead = true; /* walled in off goal: never moves */
        }
    }
    if (x->ngoals < x->nboxes)
        x->start_dead = true; /* the other goals are out of reach */
}

/* Chooses the state key's shape: the player's cell, then the boxes as a
 * sorted list of cell numbers or as a set of cells. */
static void key_shape(sok_ctx *x)
{
    size_t un = (size_t)x->n, nbx = (size_t)x->nboxes + 1;
    x->w = x->n <= 0xff ? 1 : x->n <= 0xffff ? 2 : 4;
    x->key_size = (size_t)x->w * nbx;
    /* A set of cells is the shorter key when boxes crowd the level (Microban
     * I 144: 16 boxes on 60 cells, 9 bytes against 17): smaller keys make
     * the store and the perimeter table smaller and their probes cheaper. */
    size_t set = (un + 7) / 8;
    if (set < (size_t)x->w * (size_t)x->nboxes) {
        x->bitkey = true;
        x->key_size = (size_t)x->w + set;
    }
}

/* Allocates the tables sized by the region and the boxes, and the scratch
 * buffers. False when one could not be had. */
static bool alloc_tables(sok_ctx *x)
{
    size_t un = (size_t)x->n, nbx = (size_t)x->nboxes + 1;
    x->nb = gs_sokoban_tab_alloc(x, sizeof *x->nb * un * 4, false);
    x->goal = gs_sokoban_tab_alloc(x, un * 1, true);
    x->dead = gs_sokoban_tab_alloc(x, un * 1, true);
    x->near = gs_sokoban_tab_alloc(x, sizeof *x->near * un, false);
    x->goals = gs_sokoban_tab_alloc(
        x, sizeof *x->goals * ((size_t)x->ngoals + 1), false);
    x->occ = gs_sokoban_tab_alloc(x, un * 1, true);
    x->mark = gs_sokoban_tab_alloc(x, un * 1, true);
    x->seen = gs_sokoban_tab_alloc(x, un * sizeof *x->seen, true);
    x->dist = gs_sokoban_tab_alloc(x, sizeof *x->dist * un, false);
    x->how = gs_sokoban_tab_alloc(x, un, false);
    x->queue = gs_sokoban_tab_alloc(x, sizeof *x->queue * un, false);
    x->boxes = gs_sokoban_tab_alloc(x, sizeof *x->boxes * nbx, false);
    x->child = gs_sokoban_tab_alloc(x, sizeof *x->child * nbx, false);
    x->start_boxes =
        gs_sokoban_tab_alloc(x, sizeof *x->start_boxes * nbx, false);
    x->key = gs_sokoban_tab_alloc(x, x->key_size, false);
    x->pushes =
        gs_sokoban_tab_alloc(x, sizeof *x->pushes * SOK_PEND_MAX(nbx), false);
    x->walk = gs_sokoban_tab_alloc(x, un, false);
    x->corral = gs_sokoban_tab_alloc(x, sizeof *x->corral * un, false);
    x->inb = gs_sokoban_tab_alloc(x, nbx, false);
    x->pend =
        gs_sokoban_tab_alloc(x, sizeof *x->pend * SOK_PEND_MAX(nbx), false);
    x->pkeys = gs_sokoban_tab_alloc(x, x->key_size * SOK_PEND_MAX(nbx), false);
    return x->pend && x->pkeys && x->nb && x->goal && x->dead && x->near &&
           x->goals && x->occ && x->mark && x->seen && x->dist && x->how &&
           x->queue && x->boxes && x->child && x->start_boxes && x->key &&
           x->pushes && x->walk && x->corral && x->inb;
}

/* Fills the neighbour table, the goals and the start from the level's
 * cells numbered by num (gs_sokoban_number_region). */
static void fill_region(sok_ctx *x, const gs_sokoban *g, const int32_t *num)
{
    size_t cells = (size_t)g->rows * (size_t)g->cols;
    int gi = 0, bi = 0;
    for (size_t i = 0; i < cells; i++) {
        int c = num[i];
        if (c < 0)
            continue;
        int r = (int)(i / (size_t)g->cols), col = (int)(i % (size_t)g->cols);
        for (int d = 0; d < 4; d++) {
            int rr = r + DR[d], cc = col + DC[d];
            bool in = rr >= 0 && rr < g->rows && cc >= 0 && cc < g->cols;
            x->nb[c * 4 + d] = in ? num[rr * g->cols + cc] : -1;
        }
        if (g->cell[i] & SOK_GOAL) {
            x->goal[c] = 1;
            x->goals[gi++] = c;
        }
        if (g->cell[i] & SOK_BOX)
            x->start_boxes[bi++] = c; /* row-major: already sorted */
    }
    x->start_player = num[g->player];
}

/* Renumbers the player's region, finds the boxes and builds the tables
 * (within lim's deadline where they are costly). Returns GS_OK or
 * GS_ENOMEM. */
int gs_sokoban_ctx_init(sok_ctx *x, const gs_sokoban *g, const gs_limits *lim,
                        gs_error *err)
{
    memset(x, 0, sizeof *x);
    x->g = g;
    /* The feature-space and backward searches on their own are `any` for
     * the tables. */
    x->obj = g->objective >= SOK_ANY_FESS ? SOK_ANY : g->objective;
    size_t cells = (size_t)g->rows * (size_t)g->cols;
    int32_t *num = malloc(sizeof *num * cells);
    int32_t *stack = malloc(sizeof *stack * cells);
    bool ok = num && stack;
    if (ok) {
        x->n = gs_sokoban_number_region(g, num, stack);
        count_cells(x, g, num);
        key_shape(x);
        ok = alloc_tables(x);
    }
    if (ok) {
        fill_region(x, g, num);
        gs_sokoban_pull_bfs(x, -1, x->near);
        for (int i = 0; i < x->n; i++)
            x->dead[i] = x->near[i] == SOK_INF;
        ok = gs_sokoban_init_matching(x, lim) && init_packing(x) &&
             gs_sokoban_frozen_init(x) && gs_sokoban_bits_init(x, g, num);
    }
    free(num);
    free(stack);
    if (!ok)
        return gs_error_set(err, GS_ENOMEM, "out of memory for the level");
    return GS_OK;
}
