/* tset.c - the tests' state set (see tset.h). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>

#include "tset.h"

void tset_init(tset *s, size_t ksize)
{
    s->ksize = ksize;
    s->n = 0;
    s->cap = 256;
    s->mask = 511;
    s->keys = malloc(s->cap * ksize);
    s->g = malloc(s->cap * sizeof *s->g);
    s->closed = malloc(s->cap);
    s->index = calloc(s->mask + 1, sizeof *s->index);
    ck_assert(s->keys && s->g && s->closed && s->index);
}

void tset_free(tset *s)
{
    free(s->keys);
    free(s->g);
    free(s->closed);
    free(s->index);
}

/* FNV-1a. */
static size_t thash(const unsigned char *k, size_t n)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ k[i]) * 1099511628211ull;
    return (size_t)(h ^ h >> 29);
}

/* The first empty index slot on k's probe path, or the one holding k. */
static size_t tset_slot(const tset *s, const unsigned char *k)
{
    size_t h = thash(k, s->ksize) & s->mask;
    while (s->index[h] &&
           memcmp(s->keys + (s->index[h] - 1) * s->ksize, k, s->ksize) != 0)
        h = (h + 1) & s->mask;
    return h;
}

size_t tset_add(tset *s, const unsigned char *k, int *isnew)
{
    size_t h = tset_slot(s, k);
    *isnew = !s->index[h];
    if (!*isnew)
        return s->index[h] - 1;
    if (s->n == s->cap) {
        s->cap *= 2;
        s->keys = realloc(s->keys, s->cap * s->ksize);
        s->g = realloc(s->g, s->cap * sizeof *s->g);
        s->closed = realloc(s->closed, s->cap);
        ck_assert(s->keys && s->g && s->closed);
    }
    size_t id = s->n++;
    memcpy(s->keys + id * s->ksize, k, s->ksize);
    s->g[id] = -1;
    s->closed[id] = 0;
    s->index[h] = id + 1;
    if (s->n * 2 > s->mask) { /* load 1/2: rebuild twice as large */
        free(s->index);
        s->mask = s->mask * 2 + 1;
        s->index = calloc(s->mask + 1, sizeof *s->index);
        ck_assert_ptr_nonnull(s->index);
        for (size_t i = 0; i < s->n; i++)
            s->index[tset_slot(s, s->keys + i * s->ksize)] = i + 1;
    }
    return id;
}
