/* fess.c - a feature-space search for `any` (after Shoham and Schaeffer's
 * FESS, the search of the Festival solver).
 *
 * Every state is projected onto a few features: boxes packed in the
 * packing order (pack.c), areas the player is shut out of, and boxes
 * sitting in one-wide passages (a box there cuts one room off another).
 * The states of one feature cell share one open list, ordered by the
 * greedy estimate. Instead of always expanding the state with the best
 * estimate, the search visits the non-empty cells round robin and
 * expands the best state of each: a level whose bound leads greedy into
 * a huge basin of deadlocked or hopeless states (all in a few cells)
 * still gets effort spent on the other ways of packing it, e.g. the
 * states that fill one more goal at the price of a worse bound.
 *
 * The search core only stores the states (FIFO mode: its arena is the
 * queue, which this file never pops); the open lists are here. Every
 * child is queued once, so when all lists run dry the whole space was
 * seen, exactly as in the other searches (search.c decides what that
 * proves).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/mem.h"
#include "sokoban.h"

/* One queued state: its estimate << 16 | pushes so far (both saturated),
 * and its id in the store. */
typedef struct fess_ent {
    uint32_t prio;
    uint32_t id;
} fess_ent;

/* The states of one feature cell, as a binary min-heap on prio. */
typedef struct fess_cell {
    uint32_t key; /* the packed features, see gs_sokoban_fess_features */
    uint32_t len, cap;
    fess_ent *heap;
} fess_cell;

struct sok_fess {
    fess_cell *cells;
    uint32_t ncells, cells_cap;
    uint32_t *index; /* open addressing: cell number + 1, 0 = empty */
    uint32_t index_mask;
    uint32_t cursor; /* the next cell of the round */
    uint64_t bytes;  /* held by the tables above */
    uint64_t max_bytes;
    bool over;     /* the memory budget refused a table */
    uint8_t *door; /* n: a one-wide passage cell off goal */
    /* Every other pick is greedy's: the best estimate of all cells, from
     * one heap over every queued state (ordered as greedy orders them);
     * `done` marks the states already expanded by either kind of pick. */
    fess_cell all;
    uint8_t *done;
    uint64_t done_cap;
    uint64_t picks;
};

/* Counts bytes against the budget; false when it is spent. */
static bool fess_reserve(sok_fess *f, size_t n)
{
    if (f->max_bytes && f->bytes + n > f->max_bytes) {
        f->over = true;
        return false;
    }
    f->bytes += n;
    return true;
}

void gs_sokoban_fess_free(sok_fess *f)
{
    if (!f)
        return;
    for (uint32_t i = 0; i < f->ncells; i++)
        gs_mem_free(f->cells[i].heap);
    gs_mem_free(f->cells);
    gs_mem_free(f->index);
    gs_mem_free(f->door);
    gs_mem_free(f->all.heap);
    gs_mem_free(f->done);
    gs_mem_free(f);
}

sok_fess *gs_sokoban_fess_new(const sok_ctx *x, uint64_t max_bytes)
{
    sok_fess *f = gs_mem_calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->max_bytes = max_bytes;
    f->index_mask = 255;
    f->index = gs_mem_calloc(f->index_mask + 1, sizeof *f->index);
    f->door = gs_mem_calloc((size_t)x->n + 1, 1);
    if (!f->index || !f->door) {
        gs_sokoban_fess_free(f);
        return NULL;
    }
    f->bytes = (f->index_mask + 1) * sizeof *f->index + (size_t)x->n;
    /* A door: floor with walls on both sides across one axis and open
     * along it. A box parked there shuts the rooms on either side off
     * each other (FESS's room connectivity, counted cheaply). */
    for (int c = 0; c < x->n; c++) {
        if (x->goal[c])
            continue;
        const int32_t *nb = x->nb + c * 4;
        bool vert = nb[2] < 0 && nb[3] < 0 && nb[0] >= 0 && nb[1] >= 0;
        bool horiz = nb[0] < 0 && nb[1] < 0 && nb[2] >= 0 && nb[3] >= 0;
        f->door[c] = vert || horiz;
    }
    return f;
}

uint32_t gs_sokoban_fess_features(const sok_ctx *x, const sok_fess *f,
                                  const int32_t *boxes, uint32_t pen,
                                  int regions)
{
    uint32_t on = 0, doors = 0;
    for (int i = 0; i < x->nboxes; i++) {
        on += x->goal[boxes[i]];
        doors += f->door[boxes[i]];
    }
    /* Packed: boxes on goals less those out of order (never below 0). */
    uint32_t packed = on > pen ? on - pen : 0;
    uint32_t conn = regions > 0 ? (uint32_t)regions - 1 : 0;
    if (packed > 0xfff)
        packed = 0xfff;
    if (conn > 0xff)
        conn = 0xff;
    if (doors > 0xff)
        doors = 0xff;
    return packed << 16 | conn << 8 | doors;
}

/* The cell of features `key`, made when new; NULL when out of memory. */
static fess_cell *cell_of(sok_fess *f, uint32_t key)
{
    uint32_t h = key * 2654435761u;
    for (uint32_t i = h & f->index_mask;; i = (i + 1) & f->index_mask) {
        uint32_t v = f->index[i];
        if (v == 0)
            break;
        if (f->cells[v - 1].key == key)
            return &f->cells[v - 1];
    }
    if (f->ncells == f->cells_cap) {
        uint32_t cap = f->cells_cap ? f->cells_cap * 2 : 64;
        if (!fess_reserve(f, (size_t)(cap - f->cells_cap) * sizeof *f->cells))
            return NULL;
        fess_cell *c = gs_mem_realloc(f->cells, sizeof *c * cap);
        if (!c) {
            f->over = true;
            return NULL;
        }
        f->cells = c;
        f->cells_cap = cap;
    }
    if ((f->ncells + 1) * 2 > f->index_mask + 1) {
        /* Keep the index at most half full: rebuild it twice as big. */
        uint32_t size = (f->index_mask + 1) * 2;
        if (!fess_reserve(f, (size_t)size / 2 * sizeof *f->index))
            return NULL;
        uint32_t *idx = gs_mem_calloc(size, sizeof *idx);
        if (!idx) {
            f->over = true;
            return NULL;
        }
        gs_mem_free(f->index);
        f->index = idx;
        f->index_mask = size - 1;
        for (uint32_t c = 0; c < f->ncells; c++) {
            uint32_t i = (f->cells[c].key * 2654435761u) & f->index_mask;
            while (f->index[i])
                i = (i + 1) & f->index_mask;
            f->index[i] = c + 1;
        }
    }
    uint32_t i = h & f->index_mask;
    while (f->index[i])
        i = (i + 1) & f->index_mask;
    f->index[i] = f->ncells + 1;
    fess_cell *c = &f->cells[f->ncells++];
    memset(c, 0, sizeof *c);
    c->key = key;
    return c;
}

/* Adds e to cell c's heap; GS_OK or GS_ELIMIT (memory). */
static int heap_push(sok_fess *f, fess_cell *c, fess_ent e)
{
    if (c->len == c->cap) {
        uint32_t cap = c->cap ? c->cap * 2 : 16;
        if (!fess_reserve(f, (size_t)(cap - c->cap) * sizeof *c->heap))
            return GS_ELIMIT;
        fess_ent *hp = gs_mem_realloc(c->heap, sizeof *hp * cap);
        if (!hp) {
            f->over = true;
            return GS_ELIMIT;
        }
        c->heap = hp;
        c->cap = cap;
    }
    uint32_t i = c->len++;
    while (i > 0) {
        uint32_t p = (i - 1) / 2;
        if (c->heap[p].prio <= e.prio)
            break;
        c->heap[i] = c->heap[p];
        i = p;
    }
    c->heap[i] = e;
    return GS_OK;
}

/* Removes and returns the top of a non-empty heap. */
static fess_ent heap_pop(fess_cell *c)
{
    fess_ent top = c->heap[0], e = c->heap[--c->len];
    uint32_t i = 0;
    for (;;) {
        uint32_t l = 2 * i + 1, r = l + 1, m = i;
        uint32_t mp = e.prio;
        if (l < c->len && c->heap[l].prio < mp) {
            m = l;
            mp = c->heap[l].prio;
        }
        if (r < c->len && c->heap[r].prio < mp)
            m = r;
        if (m == i)
            break;
        c->heap[i] = c->heap[m];
        i = m;
    }
    if (c->len > 0)
        c->heap[i] = e;
    return top;
}

/* Saturates v to 16 bits. */
static uint32_t sat16(uint64_t v)
{
    return v < 0xffff ? (uint32_t)v : 0xffff;
}

int gs_sokoban_fess_push(sok_fess *f, uint32_t key, uint64_t id, uint32_t h,
                         uint64_t g)
{
    fess_cell *c = cell_of(f, key);
    if (!c)
        return GS_ELIMIT;
    if (id >= f->done_cap) {
        uint64_t cap = f->done_cap ? f->done_cap * 2 : 4096;
        while (cap <= id)
            cap *= 2;
        if (!fess_reserve(f, cap - f->done_cap))
            return GS_ELIMIT;
        uint8_t *d = gs_mem_realloc(f->done, cap);
        if (!d) {
            f->over = true;
            return GS_ELIMIT;
        }
        memset(d + f->done_cap, 0, cap - f->done_cap);
        f->done = d;
        f->done_cap = cap;
    }
    int rc = heap_push(
        f, c,
        (fess_ent){.prio = sat16(h) << 16 | sat16(g), .id = (uint32_t)id});
    if (rc == GS_OK)
        rc = heap_push(
            f, &f->all,
            (fess_ent){.prio = sat16(2 * (uint64_t)h + g) << 16 | sat16(h),
                       .id = (uint32_t)id});
    return rc;
}

int gs_sokoban_fess_pop(sok_fess *f, uint64_t *id, uint64_t *g)
{
    if (++f->picks % SOK_FESS_GREEDY_EVERY == 0) {
        while (f->all.len > 0) {
            fess_ent e = heap_pop(&f->all);
            if (f->done[e.id])
                continue;
            f->done[e.id] = 1;
            *id = e.id;
            /* g: the pushes are not in this heap's key; the caller's
             * costs only order states, so the estimate's slack will do. */
            uint32_t fv = e.prio >> 16, h = e.prio & 0xffff;
            *g = fv > 2 * h ? fv - 2 * h : 0;
            return 1;
        }
    }
    for (uint32_t tried = 0; tried < f->ncells;) {
        if (f->cursor >= f->ncells)
            f->cursor = 0;
        fess_cell *c = &f->cells[f->cursor];
        if (c->len == 0) {
            f->cursor++;
            tried++;
            continue;
        }
        fess_ent top = heap_pop(c);
        if (f->done[top.id])
            continue; /* greedy took it: the same cell picks again */
        f->cursor++;
        f->done[top.id] = 1;
        *id = top.id;
        *g = top.prio & 0xffff;
        return 1;
    }
    return 0;
}

bool gs_sokoban_fess_over(const sok_fess *f)
{
    return f->over;
}
