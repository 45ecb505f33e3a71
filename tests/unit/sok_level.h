/* sok_level.h - small hand-made Sokoban levels loaded into the solver's
 * tables, for the tests that drive its internal interface
 * (src/puzzles/sokoban/sokoban.h). */
#ifndef GS_TEST_SOK_LEVEL_H
#define GS_TEST_SOK_LEVEL_H

#include "../../src/puzzles/sokoban/sokoban.h"

/* A level's solver tables with the start position loaded: x->boxes and
 * x->occ set. */
typedef struct {
    gs_sokoban *g;
    sok_ctx x;
} sok_level;

/* Builds the level from n rows (at most 32, all as long as the first:
 * see sok_level_cell) for objective obj; fails the test on any error. */
void sok_level_load(sok_level *L, const char *const *rows, int n,
                    sok_objective obj);

void sok_level_free(sok_level *L);

/* The cell number of row r, column c as the tables count it (row-major
 * over the non-wall cells), or -1 for a wall. */
int sok_level_cell(const sok_level *L, int r, int c);

/* Parses the level of n rows (at most 32; the caller frees it); fails
 * the test on any error. */
gs_sokoban *sok_level_build(const char *const *rows, int n);

/* Solves the level of n rows (at most 32) for objective obj without
 * limits into res (cleared first; the caller frees it); fails the test
 * on any error. */
void sok_level_solve(const char *const *rows, int n, sok_objective obj,
                     gs_result *res);

/* The same within lim (NULL: none), with the learned deadlock patterns
 * whatever the box count when learn_always. */
void sok_level_solve_with(const char *const *rows, int n, sok_objective obj,
                          const gs_limits *lim, bool learn_always,
                          gs_result *res);

/* The position of L with a box on each cell that occ marks (x->n
 * entries, as x->occ) and the player on cell pl (-1: none), as the rows
 * of an XSB level in C quotes, comma-separated: a failure message's
 * picture of a random position. In a buffer of its own, overwritten by
 * the next call. */
const char *sok_level_show(const sok_level *L, const uint8_t *occ, int pl);

#endif
