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
 * The first pick of each cell also asks FESS's packing advisor: the box
 * with the fewest pushes (the others fixed) to the next goal of the
 * packing order is taken there in one macro move, so that a chain of
 * such moves, each opening a new cell, packs the level in order when
 * nothing is in the way.
 * In the search by weight, a connectivity advisor asked at the same picks
 * names the push that joins the most areas of free cells, when one joins
 * any: it frees the player to reach boxes shut in (XSokoban 75: solved by
 * that search alone in 10.6 s, not in 15 s without it; asked at every pick
 * instead, it solved none of the 39 levels `any` missed). The search by
 * estimate goes without: there it lost XSokoban 4 and 12 at 10 s.
 * An advised move costs no weight and comes first in its cell.
 *
 * The search core only stores the states (FIFO mode: its arena is the
 * queue, which this file never pops); the open lists are here. Every
 * child is queued once, so when all lists run dry the whole space was
 * seen, exactly as in the other searches (any.c decides what that
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
    uint32_t picks; /* round-robin picks so far */
    fess_ent *heap;
} fess_cell;

struct sok_fess {
    fess_cell *cells;
    uint32_t ncells, cells_cap;
    /* The same cells' states ordered by weight (the moves on a state's
     * path that no advisor made), then estimate: FESS's own order. */
    fess_cell *wcells;
    uint32_t wcells_cap;
    bool dual;       /* every other pick of a cell from wcells (x->fess_dual) */
    bool plain_all;  /* `all` by estimate, then pushes (pull.c) */
    bool most;       /* ties go to the most pushes, not the fewest */
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
    uint16_t *wt; /* done_cap: a state's moves not advised, on its path */
    uint16_t *gv; /* done_cap: its pushes (saturated) */
    uint64_t done_cap;
    uint16_t cur_w; /* the weight of the state being expanded */
    uint64_t picks;
    bool advise; /* the last pick was the first of its cell */
    /* The packing advisor's box-path search: (cell, side of the player)
     * nodes, stamped with bgen; parents; the queue. */
    uint32_t *bseen, bgen;
    int32_t *bpar, *bq;
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
    for (uint32_t i = 0; i < f->ncells; i++) {
        gs_mem_free(f->cells[i].heap);
        gs_mem_free(f->wcells[i].heap);
    }
    gs_mem_free(f->cells);
    gs_mem_free(f->wcells);
    gs_mem_free(f->index);
    gs_mem_free(f->door);
    gs_mem_free(f->all.heap);
    gs_mem_free(f->done);
    gs_mem_free(f->wt);
    gs_mem_free(f->gv);
    gs_mem_free(f->bseen);
    gs_mem_free(f->bpar);
    gs_mem_free(f->bq);
    gs_mem_free(f);
}

sok_fess *gs_sokoban_fess_new(const sok_ctx *x, uint64_t max_bytes)
{
    sok_fess *f = gs_mem_calloc(1, sizeof *f);
    if (!f)
        return NULL;
    f->max_bytes = max_bytes;
    f->dual = x->fess_dual;
    f->index_mask = 255;
    f->index = gs_mem_calloc(f->index_mask + 1, sizeof *f->index);
    f->door = gs_mem_calloc((size_t)x->n + 1, 1);
    size_t nodes = (size_t)x->n * 4 + 1;
    f->bseen = gs_mem_calloc(nodes, sizeof *f->bseen);
    f->bpar = gs_mem_malloc(nodes * sizeof *f->bpar);
    f->bq = gs_mem_malloc(nodes * sizeof *f->bq);
    if (!f->index || !f->door || !f->bseen || !f->bpar || !f->bq) {
        gs_sokoban_fess_free(f);
        return NULL;
    }
    f->bytes =
        (f->index_mask + 1) * sizeof *f->index + (size_t)x->n + nodes * 12;
    /* A door: a passage off the goals. A box parked there shuts the
     * rooms on either side off each other (FESS's room connectivity,
     * counted cheaply). */
    for (int c = 0; c < x->n; c++)
        f->door[c] = !x->goal[c] && gs_sokoban_fess_passage(x, c);
    return f;
}

bool gs_sokoban_fess_passage(const sok_ctx *x, int c)
{
    const int32_t *nb = x->nb + c * 4;
    bool vert = nb[2] < 0 && nb[3] < 0 && nb[0] >= 0 && nb[1] >= 0;
    bool horiz = nb[0] < 0 && nb[1] < 0 && nb[2] >= 0 && nb[3] >= 0;
    return vert || horiz;
}

/* Where a feature key keeps the connectivity feature, and its largest
 * value (8 bits). */
#define FEAT_CONN_SHIFT 8
#define FEAT_CONN_MAX 0xffu

/* The connectivity feature of `regions` areas of free cells: the areas
 * the player is shut out of, saturated to its 8 bits. */
static uint32_t conn_feature(int regions)
{
    uint32_t conn = regions > 0 ? (uint32_t)regions - 1 : 0;
    return conn < FEAT_CONN_MAX ? conn : FEAT_CONN_MAX;
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
    if (packed > 0xfff)
        packed = 0xfff;
    if (doors > 0xff)
        doors = 0xff;
    return packed << 16 | conn_feature(regions) << FEAT_CONN_SHIFT | doors;
}

int gs_sokoban_fess_conn_advice(const sok_fess *f, const struct sok_pend *pend,
                                int n, int areas)
{
    if (!f->dual)
        return -1;
    /* Compared as the features store them, saturation included. */
    int best = -1;
    uint32_t fewest = conn_feature(areas), h = 0;
    for (int j = 0; j < n; j++) {
        if (pend[j].advised || pend[j].h >= SOK_INF / 2)
            continue;
        uint32_t a = pend[j].feat >> FEAT_CONN_SHIFT & FEAT_CONN_MAX;
        if (a < fewest || (best >= 0 && a == fewest && pend[j].h < h)) {
            best = j;
            fewest = a;
            h = pend[j].h;
        }
    }
    return best;
}

/* Array p of *cap elements of `size` bytes, doubled (to `first` when
 * empty), its bytes reserved from the open lists' budget first: the new
 * array, *cap updated; NULL (p kept, f->over set) when either refuses. */
static void *fess_grow(sok_fess *f, void *p, uint32_t *cap, size_t size,
                       uint32_t first)
{
    uint32_t n = *cap ? *cap * 2 : first;
    if (!fess_reserve(f, (size_t)(n - *cap) * size))
        return NULL;
    void *q = gs_mem_realloc(p, size * n);
    if (!q) {
        f->over = true;
        return NULL;
    }
    /* A cell's heap and `all` grow to millions of entries, read at
     * random: huge pages spare most TLB misses (the small tables stay
     * below one, where this does nothing). */
    gs_mem_advise_huge(q, size * n);
    *cap = n;
    return q;
}

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
        fess_cell *c =
            fess_grow(f, f->cells, &f->cells_cap, sizeof *f->cells, 64);
        if (!c)
            return NULL;
        f->cells = c;
    }
    if (f->ncells == f->wcells_cap) {
        fess_cell *c =
            fess_grow(f, f->wcells, &f->wcells_cap, sizeof *f->wcells, 64);
        if (!c)
            return NULL;
        f->wcells = c;
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
    memset(&f->wcells[f->ncells], 0, sizeof *f->wcells);
    fess_cell *c = &f->cells[f->ncells++];
    memset(c, 0, sizeof *c);
    c->key = key;
    return c;
}

/* Adds e to cell c's heap; GS_OK or GS_ELIMIT (memory). */
static int heap_push(sok_fess *f, fess_cell *c, fess_ent e)
{
    if (c->len == c->cap) {
        fess_ent *hp = fess_grow(f, c->heap, &c->cap, sizeof *c->heap, 16);
        if (!hp)
            return GS_ELIMIT;
        c->heap = hp;
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
        /* The next level's four entries share a cache line or two: asked
         * for now, they arrive while this level is compared. */
        if (4 * i + 3 < c->len)
            __builtin_prefetch(&c->heap[4 * i + 3]);
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
                         uint64_t g, bool advised)
{
    fess_cell *c = cell_of(f, key);
    if (!c)
        return GS_ELIMIT;
    if (id >= f->done_cap) {
        uint64_t cap = f->done_cap ? f->done_cap * 2 : 4096;
        while (cap <= id)
            cap *= 2;
        if (!fess_reserve(f, (cap - f->done_cap) * (1 + 2 * sizeof *f->wt)))
            return GS_ELIMIT;
        uint8_t *d = gs_mem_realloc(f->done, cap);
        if (d)
            f->done = d;
        uint16_t *w = d ? gs_mem_realloc(f->wt, cap * sizeof *w) : NULL;
        if (w)
            f->wt = w;
        uint16_t *gv = w ? gs_mem_realloc(f->gv, cap * sizeof *gv) : NULL;
        if (!gv) {
            f->over = true;
            return GS_ELIMIT;
        }
        f->gv = gv;
        memset(d + f->done_cap, 0, cap - f->done_cap);
        f->done_cap = cap;
    }
    uint32_t w = f->cur_w + !advised;
    f->wt[id] = (uint16_t)(w < 0xffff ? w : 0xffff);
    f->gv[id] = (uint16_t)sat16(g);
    /* An advised state comes first in its cell (FESS's weight 0), and
     * its own pick asks the advisor again: a chain of advice. */
    f->done[id] = advised ? 2 : 0;
    uint32_t tie = f->most ? 0xffff - sat16(g) : sat16(g);
    uint32_t prio = advised ? 0 : sat16(h) << 16 | tie;
    uint32_t wprio = advised ? 0 : (uint32_t)f->wt[id] << 16 | sat16(h);
    int rc = heap_push(f, c, (fess_ent){.prio = prio, .id = (uint32_t)id});
    if (rc == GS_OK && f->dual)
        rc = heap_push(f, &f->wcells[c - f->cells],
                       (fess_ent){.prio = wprio, .id = (uint32_t)id});
    uint32_t aprio = f->plain_all ? sat16(h) << 16 | tie
                                  : sat16(2 * (uint64_t)h + g) << 16 | sat16(h);
    if (rc == GS_OK)
        rc = heap_push(f, &f->all,
                       (fess_ent){.prio = aprio, .id = (uint32_t)id});
    return rc;
}

int gs_sokoban_fess_pop(sok_fess *f, uint64_t *id, uint64_t *g)
{
    f->advise = false;
    if (++f->picks % SOK_FESS_GREEDY_EVERY == 0) {
        while (f->all.len > 0) {
            fess_ent e = heap_pop(&f->all);
            if (f->done[e.id] == 1)
                continue;
            f->advise = f->done[e.id] == 2;
            f->done[e.id] = 1;
            f->cur_w = f->wt[e.id];
            *id = e.id;
            *g = f->gv[e.id];
            return 1;
        }
    }
    for (uint32_t tried = 0; tried < f->ncells;) {
        if (f->cursor >= f->ncells)
            f->cursor = 0;
        fess_cell *c = &f->cells[f->cursor], *wc = &f->wcells[f->cursor];
        if (c->len == 0 && wc->len == 0) {
            f->cursor++;
            tried++;
            continue;
        }
        /* Every other pick of a cell goes by weight. */
        fess_cell *from = (c->picks & 1) && wc->len > 0 ? wc : c;
        if (from->len == 0)
            from = wc;
        fess_ent top = heap_pop(from);
        if (f->done[top.id] == 1)
            continue; /* greedy took it: the same cell picks again */
        f->advise = c->picks++ == 0 || f->done[top.id] == 2;
        f->cursor++;
        f->done[top.id] = 1;
        f->cur_w = f->wt[top.id];
        *id = top.id;
        *g = f->gv[top.id];
        return 1;
    }
    return 0;
}

void gs_sokoban_fess_plain_all(sok_fess *f, bool most)
{
    f->plain_all = true;
    f->most = most;
}

bool gs_sokoban_fess_over(const sok_fess *f)
{
    return f->over;
}

void gs_sokoban_fess_set_budget(sok_fess *f, uint64_t max_bytes)
{
    f->max_bytes = max_bytes;
}

uint64_t gs_sokoban_fess_bytes(const sok_fess *f)
{
    return f->bytes;
}

bool gs_sokoban_fess_advise(const sok_fess *f)
{
    return f->advise;
}

/* Breadth-first search of the pushes that take the box on b to `target`,
 * the other boxes fixed (x->occ holds every box, b included), the player
 * starting on `player`. Nodes are box cell * 4 + the side the player
 * stands on. Returns the target's node (parents in f->bpar, -1 at the
 * roots), or -1. Leaves x->occ as it found it. */
static int box_path(sok_ctx *x, sok_fess *f, int b, int player, int target)
{
    if (++f->bgen == 0) {
        memset(f->bseen, 0, sizeof *f->bseen * (size_t)x->n * 4);
        f->bgen = 1;
    }
    int head = 0, tail = 0, found = -1;
    gs_sokoban_flood(x, player);
    for (int d = 0; d < 4; d++) {
        int a = x->nb[b * 4 + d];
        if (a >= 0 && x->seen[a] == x->gen) {
            int v = b * 4 + d;
            f->bseen[v] = f->bgen;
            f->bpar[v] = -1;
            f->bq[tail++] = v;
        }
    }
    x->occ[b] = 0;
    while (head < tail && found < 0) {
        int v = f->bq[head++], c = v / 4;
        x->occ[c] = 1;
        unsigned sides = gs_sokoban_box_sides(x, c, v % 4);
        x->occ[c] = 0;
        for (int d = 0; d < 4 && found < 0; d++) {
            int t = x->nb[c * 4 + d];
            if (!(sides >> (d ^ 1) & 1) || t < 0 || x->occ[t] || x->dead[t])
                continue;
            int w = t * 4 + (d ^ 1);
            if (f->bseen[w] == f->bgen)
                continue;
            f->bseen[w] = f->bgen;
            f->bpar[w] = v;
            f->bq[tail++] = w;
            if (t == target)
                found = w;
        }
    }
    x->occ[b] = 1;
    return found;
}

/* The box off goal with the fewest pushes to `target` (the others
 * fixed): its slot, with *pl and *pushes as gs_sokoban_fess_pack_move
 * sets them; -1 when no box gets there. */
static int advise_to(sok_ctx *x, sok_fess *f, int player, int target, int *pl,
                     int *pushes)
{
    /* Boxes in order of their pushes to the target alone on the level
     * (a lower bound on the path with the others in place): once a path
     * is no longer than the next box's bound, no later box beats it. The
     * order borrows x->queue (n >= boxes) and x->dist. */
    int tg = x->gindex[target], m = 0;
    for (int i = 0; i < x->nboxes; i++) {
        int b = x->boxes[i];
        if (x->goal[b])
            continue; /* boxes on goals stay: the plan fills around them */
        uint32_t lb = 0;
        if (x->gdist) {
            lb = x->gdist[((size_t)b * SOK_GROUPS + SOK_GROUPS - 1) *
                              (size_t)x->ngoals +
                          (size_t)tg];
            if (lb == SOK_GDIST_INF)
                continue;
        }
        int j = m++;
        while (j > 0 && x->dist[j - 1] > lb) {
            x->queue[j] = x->queue[j - 1];
            x->dist[j] = x->dist[j - 1];
            j--;
        }
        x->queue[j] = i;
        x->dist[j] = lb;
    }
    int order[m > 0 ? m : 1];
    uint32_t bound[m > 0 ? m : 1];
    for (int j = 0; j < m; j++) {
        order[j] = x->queue[j];
        bound[j] = x->dist[j];
    }
    int best = -1, best_len = 0;
    for (int j = 0; j < m; j++) {
        int i = order[j], b = x->boxes[i];
        if (best >= 0 && (uint32_t)best_len <= bound[j])
            break;
        int node = box_path(x, f, b, player, target);
        if (node < 0)
            continue;
        int len = 0;
        for (int v = node; f->bpar[v] >= 0; v = f->bpar[v])
            len++;
        if (best < 0 || len < best_len) {
            best = i;
            best_len = len;
            *pl = x->nb[target * 4 + node % 4];
        }
    }
    *pushes = best_len;
    return best;
}

int gs_sokoban_fess_pack_move(sok_ctx *x, sok_fess *f, int player, int *slot,
                              int *pl, int *pushes)
{
    if (x->pack_layers < 1 || !x->glayer)
        return -1;
    /* The targets: the empty goals deepest in the packing order first
     * (the first goal of a layer first); the first few only, since each
     * try costs a box-path search per box. A goal blocked for now (a
     * box in the way) leaves the advice to the next. */
    int tried[SOK_FESS_TARGETS], nt = 0;
    while (nt < SOK_FESS_TARGETS) {
        int target = -1;
        for (int i = 0; i < x->ngoals; i++) {
            int g = x->goals[i];
            bool done = false;
            for (int k = 0; k < nt; k++)
                done = done || tried[k] == g;
            if (!x->occ[g] && !done &&
                (target < 0 || x->glayer[i] > x->glayer[x->gindex[target]]))
                target = g;
        }
        if (target < 0)
            return -1;
        tried[nt++] = target;
        int i = advise_to(x, f, player, target, pl, pushes);
        if (i >= 0) {
            *slot = i;
            return target;
        }
    }
    return -1;
}

int gs_sokoban_fess_pack_path(sok_ctx *x, sok_fess *f, int b, int player,
                              int target, int32_t *cells)
{
    int node = box_path(x, f, b, player, target);
    if (node < 0)
        return -1;
    int k = 0;
    for (int v = node; v >= 0; v = f->bpar[v])
        k++;
    int i = k;
    for (int v = node; v >= 0; v = f->bpar[v])
        cells[--i] = v / 4;
    return k;
}
