/* sokoban.h - what the files of the sokoban puzzle share: the parsed level
 * and the entry points between parsing (parse.c) and solving (solve.c).
 * Internal to src/puzzles/sokoban/.
 */
#ifndef GRIDSOLVE_SOKOBAN_INTERNAL_H
#define GRIDSOLVE_SOKOBAN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "gridsolve/puzzle.h"

/* Cell flags of a parsed instance. */
enum { SOK_WALL = 1, SOK_GOAL = 2, SOK_BOX = 4 };

typedef enum { SOK_MOVES = 0, SOK_PUSHES = 1, SOK_ANY = 2 } sok_objective;

/* Judge text notations: the contest's `N M` header with `X` player, `*`
 * box, `@` goal; or XSB collections as published. */
typedef enum { SOK_TEXT_CONTEST = 0, SOK_TEXT_XSB = 1 } sok_text_format;

/* A parsed level: the grid as flags, the player, the objective. */
typedef struct gs_sokoban {
    int rows, cols;
    uint8_t *cell; /* rows*cols SOK_* flags */
    int player;    /* r*cols + c */
    int nboxes, ngoals;
    sok_objective objective;
    sok_text_format text_format; /* how format_text answers */
} gs_sokoban;

/* Builds an instance from nrows rows (row i is lens[i] bytes, not
 * necessarily NUL-terminated). Missing cells of short rows are floor.
 * Validates characters, one player, at least one box, enough goals.
 * `seed` selects the contest notation. Returns GS_OK or an error. */
int gs_sokoban_build(const char *const *rows, const size_t *lens, int nrows,
                     bool seed, const gs_caps *caps, gs_sokoban **out,
                     gs_error *err);

void gs_sokoban_free(void *inst);

/* The puzzle's solve entry (solve.c): solves one level for its objective
 * within lim. Returns GS_OK with res filled, or an error. */
int gs_sokoban_solve(void *inst, const gs_limits *lim, gs_result *res,
                     gs_error *err);

/* What one solve held, for benchmarks: states stored, bytes of the search
 * store, bytes of the solver's own tables. */
typedef struct gs_sokoban_stats {
    uint64_t states;
    uint64_t store_bytes;
    uint64_t table_bytes;
} gs_sokoban_stats;

/* gs_sokoban_solve that also fills *st (when not NULL) on GS_OK. */
int gs_sokoban_solve_stats(void *inst, const gs_limits *lim, gs_result *res,
                           gs_sokoban_stats *st, gs_error *err);

#endif
