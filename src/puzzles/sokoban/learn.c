/* learn.c - a deadlock pattern table learned during the search (the
 * exact objectives', and `any`'s but the feature-space search's).
 *
 * After a push, the boxes near the pushed one (its cluster: boxes joined
 * by side or corner contact, up to SOK_LEARN_MAX of them, the pushed box
 * first) are taken alone onto the level, the other boxes removed, with
 * the player wherever it stands. If that smaller problem cannot put
 * every one of its boxes on a goal, neither can the whole position: any
 * solution of the whole, with the other boxes' pushes read as plain
 * steps (their cells are empty), solves the smaller problem, since
 * fewer boxes block no push and no walk of the cluster's boxes. So the
 * position is dead and pruned; that holds for every objective, the
 * exact ones included, and `impossible` stays a proof.
 *
 * The smaller problem is searched exhaustively (its states: the boxes
 * and the player's area, dead squares and freeze deadlocks pruned) until
 * it is solved, or its boxes come apart (none touching another: taken as
 * alive, which claims nothing), or it has stored SOK_LEARN_BUDGET states
 * (proves nothing: alive too). Only a search that runs out of states
 * proves the cluster dead. Each cluster (its boxes and the player's
 * area) is searched once: the answer goes into a table (the pattern),
 * and so do all the states a dead search reached (every state reachable
 * from a dead one is dead). A player's area is named by the smallest
 * free cell beside a box that it holds (areas share no cell, and the
 * player stands beside the box it just pushed), so its flood stops once
 * every cell beside a box is reached. Box sets whose searches found no
 * dead area are taken as alive without a flood (a prune lost at worst).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/heap.h"
#include "gridsolve/mem.h"
#include "sokoban.h"

/* A pattern or sub-search state: v[0] = boxes (low byte) | flags, v[1]
 * the player (the smallest cell beside a box in its area, or its exact
 * cell with SOK_LEARN_EXACT, or SOK_LEARN_SET), v[2..] the boxes in
 * ascending order. */
#define SOK_LEARN_WORDS (SOK_LEARN_MAX + 2)
#define SOK_LEARN_DEAD 0x100u
#define SOK_LEARN_EXACT 0x80000000u
/* v[1] of a box set's own entry (no player): whether some area of those
 * boxes was found dead (SOK_LEARN_DEAD), or none of those searched. */
#define SOK_LEARN_SET 0x7fffffffu

typedef struct learn_key {
    uint32_t v[SOK_LEARN_WORDS];
} learn_key;

/* A sub-search slot: its key and the generation that wrote it. */
typedef struct learn_sub {
    learn_key k;
    uint32_t gen;
} learn_sub;

/* Slots of the sub-search's set: a power of two, at least twice the
 * states it may hold (SOK_LEARN_BUDGET). */
#define SOK_LEARN_SUB_SLOTS ((size_t)1 << 10)
_Static_assert(SOK_LEARN_SUB_SLOTS >= 2 * (size_t)SOK_LEARN_BUDGET,
               "the sub-search's set must stay at most half full");
/* The pattern table's first slots and its largest size. */
#define SOK_LEARN_FIRST_SLOTS ((size_t)1 << 12)
#define SOK_LEARN_MAX_SLOTS ((size_t)1 << 18)

struct sok_learn {
    learn_key *tab; /* patterns; v[0] == 0: free */
    size_t mask, count;
    learn_sub *sub; /* the sub-search's states */
    uint32_t gen;
    size_t nsub;   /* states in it (both kinds), at most SOK_LEARN_BUDGET */
    learn_key *st; /* the sub-search's stored states, in order */
    learn_key *ar; /* the area-keyed states it expanded */
    size_t nar;
    gs_heap_ent *heap; /* its queue: prio h, id the index into st */
    size_t nst, nheap;
    uint8_t *occ;   /* n: the sub-problem's boxes */
    uint32_t *seen; /* n: flood stamps */
    uint32_t *side; /* n: the flood's stamp on free cells beside a box */
    uint32_t fgen;
    int32_t *q;       /* n: flood queue */
    bool off;         /* its tables were refused: no more learning */
    bool on;          /* gs_sokoban_learn_start was called */
    size_t max_slots; /* the pattern table's largest size */
    uint64_t tests, dead, unknown, hits, subexp, deadexp;
};

static uint64_t key_hash(const learn_key *k)
{
    uint64_t h = 0x9E3779B97F4A7C15ull;
    int m = (int)(k->v[0] & 0xff) + 2;
    for (int i = 0; i < m; i++) {
        h ^= (k->v[i] & ~SOK_LEARN_DEAD) + 0x9E3779B97F4A7C15ull;
        h *= 0xbf58476d1ce4e5b9ull;
        h ^= h >> 31;
    }
    return h;
}

static bool key_eq(const learn_key *a, const learn_key *b)
{
    if ((a->v[0] & 0xff) != (b->v[0] & 0xff))
        return false;
    int m = (int)(a->v[0] & 0xff) + 2;
    for (int i = 1; i < m; i++)
        if (a->v[i] != b->v[i])
            return false;
    return true;
}

bool gs_sokoban_learn_init(sok_ctx *x, uint64_t max_bytes)
{
    struct sok_learn *L = gs_sokoban_tab_alloc(x, sizeof *L, true);
    if (!L)
        return false;
    x->learn = L;
    /* The pattern table's slots at most: SOK_LEARN_MAX_SLOTS, and within
     * 1/16 of the solve's memory budget (the search store has the rest;
     * the table grows between the rounds that hand it its share). */
    L->max_slots = SOK_LEARN_MAX_SLOTS;
    while (max_bytes && L->max_slots > SOK_LEARN_FIRST_SLOTS &&
           L->max_slots * sizeof *L->tab > max_bytes / 16)
        L->max_slots /= 2;
    /* The tables it allocates as it learns are counted in x->bytes now,
     * at their most (the pattern table while it doubles: 1.5 times its
     * largest), so that the stores' budgets, worked out from x->bytes,
     * leave room for them; at most half the budget, else no learning. */
    uint64_t most = sizeof *L->tab * (L->max_slots + L->max_slots / 2) +
                    sizeof *L->sub * SOK_LEARN_SUB_SLOTS +
                    (sizeof *L->st + sizeof *L->heap + sizeof *L->ar) *
                        (uint64_t)SOK_LEARN_BUDGET;
    if (max_bytes && x->bytes + most > max_bytes / 2)
        return false;
    x->bytes += most;
    size_t un = (size_t)x->n;
    L->occ = gs_sokoban_tab_alloc(x, un, true);
    L->seen = gs_sokoban_tab_alloc(x, sizeof *L->seen * un, true);
    L->side = gs_sokoban_tab_alloc(x, sizeof *L->side * un, true);
    L->q = gs_sokoban_tab_alloc(x, sizeof *L->q * un, false);
    return L->occ && L->seen && L->side && L->q;
}

/* The tables of the first sub-search, allocated then (most solves never
 * need them); false when out of memory: then learning stops. */
static bool learn_tables(struct sok_learn *L)
{
    if (L->tab)
        return true;
    if (L->off)
        return false;
    /* (Counted in x->bytes by gs_sokoban_learn_init already.) */
    L->tab = gs_mem_calloc(SOK_LEARN_FIRST_SLOTS, sizeof *L->tab);
    L->mask = SOK_LEARN_FIRST_SLOTS - 1;
    L->sub = gs_mem_calloc(SOK_LEARN_SUB_SLOTS, sizeof *L->sub);
    L->st = gs_mem_malloc(sizeof *L->st * SOK_LEARN_BUDGET);
    L->heap = gs_mem_malloc(sizeof *L->heap * SOK_LEARN_BUDGET);
    L->ar = gs_mem_malloc(sizeof *L->ar * SOK_LEARN_BUDGET);
    if (L->tab && L->sub && L->st && L->heap && L->ar)
        return true;
    gs_mem_free(L->tab);
    gs_mem_free(L->sub);
    gs_mem_free(L->st);
    gs_mem_free(L->heap);
    gs_mem_free(L->ar);
    L->tab = NULL;
    L->sub = NULL;
    L->st = NULL;
    L->heap = NULL;
    L->ar = NULL;
    L->off = true;
    return false;
}

void gs_sokoban_learn_free(sok_ctx *x)
{
    struct sok_learn *L = x->learn;
    if (!L)
        return;
#ifdef SOK_LEARN_STATS
    fprintf(stderr,
            "learn: %llu tests, %llu dead, %llu unknown, %llu hits, "
            "%zu patterns, %llu sub-expansions, %llu in dead proofs\n",
            (unsigned long long)L->tests, (unsigned long long)L->dead,
            (unsigned long long)L->unknown, (unsigned long long)L->hits,
            L->count, (unsigned long long)L->subexp,
            (unsigned long long)L->deadexp);
#endif
    gs_mem_free(L->tab);
    gs_mem_free(L->sub);
    gs_mem_free(L->st);
    gs_mem_free(L->heap);
    gs_mem_free(L->ar);
    gs_mem_free(L->occ);
    gs_mem_free(L->seen);
    gs_mem_free(L->side);
    gs_mem_free(L->q);
    gs_mem_free(L);
    x->learn = NULL;
    x->learning = false;
}

/* The pattern slot of k: its entry, or the free slot where it would go. */
static learn_key *tab_slot(const struct sok_learn *L, const learn_key *k)
{
    size_t i = key_hash(k) & L->mask;
    for (;;) {
        learn_key *e = &L->tab[i];
        if (e->v[0] == 0 || key_eq(e, k))
            return e;
        i = (i + 1) & L->mask;
    }
}

/* Doubles the pattern table; false when it may not grow. */
static bool tab_grow(struct sok_learn *L)
{
    size_t old = L->mask + 1, n = old * 2;
    if (n > L->max_slots)
        return false;
    /* (Counted in x->bytes by gs_sokoban_learn_init already.) */
    learn_key *t = gs_mem_calloc(n, sizeof *t), *from = L->tab;
    if (!t)
        return false;
    L->tab = t;
    L->mask = n - 1;
    for (size_t i = 0; i < old; i++)
        if (from[i].v[0])
            *tab_slot(L, &from[i]) = from[i];
    gs_mem_free(from);
    return true;
}

/* Records pattern k (its dead flag in v[0]) unless the table is full. */
static void tab_put(struct sok_learn *L, const learn_key *k)
{
    if (L->count + 1 > (L->mask + 1) / 2 && !tab_grow(L))
        return;
    learn_key *e = tab_slot(L, k);
    if (e->v[0] == 0)
        L->count++;
    *e = *k;
}

/* Cell c's neighbour d of eight (sides U D L R, then the corners UL UR
 * DL DR, reached through a side that is not a wall), or -1. */
static int near8(const sok_ctx *x, int c, int d)
{
    if (d < 4)
        return x->nb[c * 4 + d];
    int vd = d < 6 ? 0 : 1, hd = d & 1 ? 3 : 2;
    int v = x->nb[c * 4 + vd], u = x->nb[c * 4 + hd];
    if (v >= 0 && x->nb[v * 4 + hd] >= 0)
        return x->nb[v * 4 + hd];
    return u >= 0 ? x->nb[u * 4 + vd] : -1;
}

/* Whether some box of state k (in L->occ) touches another, by a side or
 * a corner. */
static bool sub_touching(const sok_ctx *x, const struct sok_learn *L,
                         const learn_key *k)
{
    int m = (int)(k->v[0] & 0xff);
    for (int i = 0; i < m; i++)
        for (int d = 0; d < 8; d++) {
            int t = near8(x, (int)k->v[2 + i], d);
            if (t >= 0 && L->occ[t])
                return true;
        }
    return false;
}

/* Floods the sub-problem's free cells from p (walls and the m boxes of
 * k, set in L->occ, block) until every free cell beside a box is either
 * reached (L->seen == L->fgen) or known out of reach: the player's pushes
 * start from those cells only. Returns the smallest of them reached, which
 * names the player's area (p always lies beside a box, and two areas
 * share no cell), or -1 when the player reaches no box. */
static int sub_flood(const sok_ctx *x, struct sok_learn *L, const learn_key *k,
                     int p)
{
    if (++L->fgen == 0) {
        memset(L->seen, 0, sizeof *L->seen * (size_t)x->n);
        memset(L->side, 0, sizeof *L->side * (size_t)x->n);
        L->fgen = 1;
    }
    uint32_t gen = L->fgen;
    int m = (int)(k->v[0] & 0xff), left = 0, lo = -1;
    for (int i = 0; i < m; i++)
        for (int d = 0; d < 4; d++) {
            int t = x->nb[(int)k->v[2 + i] * 4 + d];
            if (t >= 0 && !L->occ[t] && L->side[t] != gen) {
                L->side[t] = gen;
                left++;
            }
        }
    int head = 0, tail = 0;
    L->seen[p] = gen;
    L->q[tail++] = p;
    while (head < tail && left > 0) {
        int c = L->q[head++];
        if (L->side[c] == gen) {
            left--;
            if (lo < 0 || c < lo)
                lo = c;
        }
        for (int d = 0; d < 4; d++) {
            int t = x->nb[c * 4 + d];
            if (t < 0 || L->occ[t] || L->seen[t] == gen)
                continue;
            L->seen[t] = gen;
            L->q[tail++] = t;
        }
    }
    /* Cells queued but not yet taken when the count ran out are none of
     * the box sides (all were counted), so the smallest stands. */
    return lo;
}

/* Inserts k into the sub-search's set: 1 when new, 0 when known, -1 when
 * the set holds SOK_LEARN_BUDGET states already. */
static int sub_insert(struct sok_learn *L, const learn_key *k)
{
    size_t i = key_hash(k) & (SOK_LEARN_SUB_SLOTS - 1);
    for (;;) {
        learn_sub *e = &L->sub[i];
        if (e->gen != L->gen) {
            if (L->nsub >= SOK_LEARN_BUDGET)
                return -1;
            L->nsub++;
            e->gen = L->gen;
            e->k = *k;
            return 1;
        }
        if (key_eq(&e->k, k))
            return 0;
        i = (i + 1) & (SOK_LEARN_SUB_SLOTS - 1);
    }
}

/* Relaxed pushes of the state's boxes to their nearest goals. */
static uint32_t sub_h(const sok_ctx *x, const learn_key *k)
{
    int m = (int)(k->v[0] & 0xff);
    uint32_t h = 0;
    for (int i = 0; i < m; i++)
        h += x->near[k->v[2 + i]];
    return h;
}

/* Stores state k (player exact) when new and queues it; false when the
 * store is full. */
static bool sub_add(const sok_ctx *x, struct sok_learn *L, const learn_key *k)
{
    int r = sub_insert(L, k);
    if (r <= 0)
        return r == 0;
    L->st[L->nst] = *k;
    gs_heap_push(L->heap, &L->nheap,
                 (gs_heap_ent){.prio = sub_h(x, k), .id = (uint32_t)L->nst});
    L->nst++;
    return true;
}

/* Key c with its box i moved to cell `to`, the m box cells kept sorted. */
static void sub_key_move(learn_key *c, int i, int to, int m)
{
    int j = 2 + i;
    while (j > 2 && c->v[j - 1] > (uint32_t)to) {
        c->v[j] = c->v[j - 1];
        j--;
    }
    while (j < m + 1 && c->v[j + 1] < (uint32_t)to) {
        c->v[j] = c->v[j + 1];
        j++;
    }
    c->v[j] = (uint32_t)to;
}

/* Adds the children of state k (its m boxes on L->occ, the player's reach
 * flooded into L->seen): every push that leaves no dead square or frozen
 * box. False when the store is full. */
static bool sub_expand(sok_ctx *x, struct sok_learn *L, const learn_key *k,
                       int m)
{
    for (int i = 0; i < m; i++) {
        int b = (int)k->v[2 + i];
        for (int d = 0; d < 4; d++) {
            int from = x->nb[b * 4 + (d ^ 1)], to = x->nb[b * 4 + d];
            if (from < 0 || to < 0 || L->seen[from] != L->fgen || L->occ[to] ||
                x->dead[to])
                continue;
            L->occ[b] = 0;
            L->occ[to] = 1;
            bool frozen = gs_sokoban_freeze_deadlock(x, to);
            L->occ[to] = 0;
            L->occ[b] = 1;
            if (frozen)
                continue;
            learn_key c = *k;
            c.v[1] = (uint32_t)b | SOK_LEARN_EXACT;
            sub_key_move(&c, i, to, m);
            if (!sub_add(x, L, &c))
                return false;
        }
    }
    return true;
}

/* The sub-problem was not solved: every state reached is dead. Records the
 * area-keyed ones, each also by its boxes alone (some area is dead). */
static void sub_record_dead(struct sok_learn *L)
{
    L->deadexp += L->nar;
    for (size_t i = 0; i < L->nar; i++) {
        learn_key d = L->ar[i];
        d.v[0] |= SOK_LEARN_DEAD;
        tab_put(L, &d);
        d.v[1] = SOK_LEARN_SET;
        tab_put(L, &d);
    }
}

/* Searches the sub-problem from start (its player exact): best-first on
 * the relaxed pushes left, to find a solution soon when there is one.
 * Returns 1 when it cannot be solved (then every area-keyed state it
 * expanded is added to the table as dead), 0 when solved, -1 when out of
 * budget. */
static int sub_search(sok_ctx *x, struct sok_learn *L, const learn_key *start)
{
    int m = (int)(start->v[0] & 0xff), rc = 1;
    if (++L->gen == 0) {
        for (size_t i = 0; i < SOK_LEARN_SUB_SLOTS; i++)
            L->sub[i].gen = 0;
        L->gen = 1;
    }
    L->nst = L->nheap = L->nsub = L->nar = 0;
    sub_add(x, L, start);
    uint8_t *mainocc = x->occ;
    x->occ = L->occ; /* the freeze test reads x->occ */
    while (L->nheap > 0 && rc == 1) {
        learn_key k = L->st[gs_heap_pop(L->heap, &L->nheap).id];
        bool all = true;
        for (int i = 0; i < m; i++)
            all = all && x->goal[k.v[2 + i]];
        if (all) {
            rc = 0;
            break;
        }
        for (int i = 0; i < m; i++)
            L->occ[k.v[2 + i]] = 1;
        if (!sub_touching(x, L, &k)) {
            /* The cluster came apart: taken as alive (no claim; a dead
             * answer is the only one that must be proven). */
            for (int i = 0; i < m; i++)
                L->occ[k.v[2 + i]] = 0;
            rc = 0;
            break;
        }
        int p = (int)(k.v[1] & ~SOK_LEARN_EXACT);
        /* The same boxes with the player in the same area: once. */
        learn_key a = k;
        int lo = sub_flood(x, L, &k, p);
        a.v[1] = (uint32_t)lo;
        /* (lo < 0: no box in reach, nothing to push; never so after a
         * push, the player beside the box.) */
        int fresh = lo < 0 ? 0 : sub_insert(L, &a);
        if (fresh < 0)
            rc = -1;
        else if (fresh > 0)
            L->ar[L->nar++] = a;
        L->subexp++;
        if (fresh > 0 && rc == 1 && !sub_expand(x, L, &k, m))
            rc = -1;
        for (int i = 0; i < m; i++)
            L->occ[k.v[2 + i]] = 0;
    }
    x->occ = mainocc;
    if (rc == 1)
        sub_record_dead(L);
    return rc;
}

void gs_sokoban_learn_start(sok_ctx *x)
{
    if (x->learn) {
        x->learn->on = true;
        x->learning = true;
    }
}

/* The cluster of the box on `to` into cl: boxes joined to it by sides
 * or corners, nearest first (breadth-first), at most SOK_LEARN_MAX, then
 * sorted by cell; returns how many, or 0 when every one is on a goal. */
static int learn_cluster(const sok_ctx *x, int to, int32_t *cl)
{
    int m = 0;
    bool off = false;
    cl[m++] = to;
    for (int h = 0; h < m && m < SOK_LEARN_MAX; h++) {
        int c = cl[h];
        for (int d = 0; d < 8 && m < SOK_LEARN_MAX; d++) {
            int t = near8(x, c, d);
            if (t < 0 || !x->occ[t])
                continue;
            bool have = false;
            for (int i = 0; i < m; i++)
                have = have || cl[i] == t;
            if (!have)
                cl[m++] = t;
        }
    }
    for (int i = 0; i < m; i++)
        off = off || !x->goal[cl[i]];
    if (!off)
        return 0;
    for (int i = 1; i < m; i++)
        for (int j = i; j > 0 && cl[j - 1] > cl[j]; j--) {
            int32_t t = cl[j];
            cl[j] = cl[j - 1];
            cl[j - 1] = t;
        }
    return m;
}

/* Searches the cluster of key k (its player's area found) for the first
 * time, the player on pl, and records what it found; whether dead. */
static bool learn_search(sok_ctx *x, struct sok_learn *L, learn_key *k, int pl)
{
    L->tests++;
    learn_key s = *k;
    s.v[1] = (uint32_t)pl | SOK_LEARN_EXACT;
    int rc = sub_search(x, L, &s);
    if (rc == 1) {
        L->dead++;
        return true; /* the table holds k and its boxes' entry now */
    }
    if (rc < 0)
        L->unknown++;
    tab_put(L, k); /* alive, or not known: not searched again */
    k->v[1] = SOK_LEARN_SET;
    if (!tab_slot(L, k)->v[0])
        tab_put(L, k); /* the boxes' first search: alive */
    return false;
}

bool gs_sokoban_learn_dead(sok_ctx *x, int to, int pl)
{
    struct sok_learn *L = x->learn;
    if (!L || !L->on)
        return false;
    int32_t cl[SOK_LEARN_MAX];
    int m = learn_cluster(x, to, cl);
    if (m < 2 || !learn_tables(L))
        return false;
    /* The sorted cells, then the player's area among them alone. */
    learn_key k;
    memset(&k, 0, sizeof k);
    k.v[0] = (uint32_t)m;
    k.v[1] = SOK_LEARN_SET;
    for (int i = 0; i < m; i++)
        k.v[2 + i] = (uint32_t)cl[i];
    /* Boxes searched before with no area found dead: taken as alive
     * without the flood (a claim of nothing, so always safe). */
    const learn_key *se = tab_slot(L, &k);
    if (se->v[0] && !(se->v[0] & SOK_LEARN_DEAD)) {
        L->hits++;
        return false;
    }
    for (int i = 0; i < m; i++)
        L->occ[cl[i]] = 1;
    int lo = sub_flood(x, L, &k, pl);
    k.v[1] = (uint32_t)lo;
    for (int i = 0; i < m; i++)
        L->occ[cl[i]] = 0;
    if (lo < 0)
        return false; /* (pl lies beside `to`: never) */
    learn_key *e = tab_slot(L, &k);
    if (e->v[0]) {
        L->hits++;
        return (e->v[0] & SOK_LEARN_DEAD) != 0;
    }
    return learn_search(x, L, &k, pl);
}
