/* tset.h - a set of byte-string states for the unit tests' brute forces:
 * states numbered in the order first seen (so a BFS needs no other
 * queue), each with a cost and a closed flag, found through a hash index.
 * Written apart from the search core (src/search/) on purpose: the brute
 * forces must not share code with what they check. */
#ifndef GS_TEST_TSET_H
#define GS_TEST_TSET_H

#include <stddef.h>

typedef struct tset {
    size_t ksize, n, cap;
    unsigned char *keys;   /* n keys of ksize bytes */
    int *g;                /* BFS depth or A* cost; -1 when new */
    unsigned char *closed; /* A*: expanded */
    size_t *index;         /* state number + 1; 0 = empty */
    size_t mask;
} tset;

/* An empty set of keys of ksize bytes; fails the test when out of
 * memory, as every function here does. */
void tset_init(tset *s, size_t ksize);

void tset_free(tset *s);

/* The number of state k, added (g = -1, not closed) when new; *isnew
 * says which. */
size_t tset_add(tset *s, const unsigned char *k, int *isnew);

#endif
