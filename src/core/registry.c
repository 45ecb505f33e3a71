/* registry.c - the table of puzzles. Adding a puzzle: its file under
 * src/puzzles/ and one line in each list below. */
#include <string.h>

#include "gridsolve/puzzle.h"

extern const gs_puzzle gs_puzzle_bloxorz;
extern const gs_puzzle gs_puzzle_wallpushers;
extern const gs_puzzle gs_puzzle_sokoban;
extern const gs_puzzle gs_puzzle_curling;
extern const gs_puzzle gs_puzzle_holedox;

const gs_puzzle *const gs_puzzles[] = {
    &gs_puzzle_bloxorz, &gs_puzzle_wallpushers, &gs_puzzle_sokoban,
    &gs_puzzle_curling, &gs_puzzle_holedox,
};
const size_t gs_puzzle_count = sizeof gs_puzzles / sizeof gs_puzzles[0];

const gs_puzzle *gs_puzzle_find(const char *name, size_t len)
{
    for (size_t i = 0; i < gs_puzzle_count; i++) {
        const char *n = gs_puzzles[i]->name;
        if (strlen(n) == len && memcmp(n, name, len) == 0)
            return gs_puzzles[i];
    }
    return NULL;
}
