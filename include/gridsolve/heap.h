/* heap.h - a binary min-heap of (prio, id) entries over the caller's
 * array, ordered by prio, then id: equal priorities pop in a fixed order,
 * so a search expands the same states run after run. The search core's
 * open list and the Sokoban pattern search's queue share it; the caller
 * owns the array and its room.
 */
#ifndef GRIDSOLVE_HEAP_H
#define GRIDSOLVE_HEAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct gs_heap_ent {
    uint64_t prio;
    uint32_t id;
    uint8_t tag; /* the caller's, free in the padding: not ordered on */
} gs_heap_ent;

static inline bool gs_heap_less(const gs_heap_ent *a, const gs_heap_ent *b)
{
    return a->prio < b->prio || (a->prio == b->prio && a->id < b->id);
}

/* Adds e to h[0..*n); h must have room for *n + 1 entries. */
static inline void gs_heap_push(gs_heap_ent *h, size_t *n, gs_heap_ent e)
{
    size_t i = (*n)++;
    while (i > 0) {
        size_t p = (i - 1) / 2;
        if (!gs_heap_less(&e, &h[p]))
            break;
        h[i] = h[p];
        i = p;
    }
    h[i] = e;
}

/* Removes and returns the least entry of the non-empty h[0..*n). */
static inline gs_heap_ent gs_heap_pop(gs_heap_ent *h, size_t *n)
{
    gs_heap_ent top = h[0], last = h[--*n];
    size_t i = 0, len = *n;
    for (;;) {
        size_t c = 2 * i + 1;
        if (c >= len)
            break;
        if (c + 1 < len && gs_heap_less(&h[c + 1], &h[c]))
            c++;
        if (!gs_heap_less(&h[c], &last))
            break;
        h[i] = h[c];
        i = c;
    }
    if (len)
        h[i] = last;
    return top;
}

#endif
