/* samples.h - the single copy of the public judge samples (and a few JSON
 * bodies and level rows) that the unit tests, the integration tests and the
 * benchmarks share.
 *
 * They come from the puzzles' public judge samples (and Microban I),
 * copied here because the tests and benches read nothing outside the
 * repository at run time.
 * Only data used in at least two places lives here: a sample one file
 * uses stays in that file. Expected answers written inline in assertions
 * stay with their assertions.
 *
 * Include it from tests/unit and tests/integration as "../samples.h" and
 * from bench as "../tests/samples.h". Everything is static const, so each
 * file gets its own copy of what it uses and the linker sees no symbols.
 */
#ifndef GRIDSOLVE_TESTS_SAMPLES_H
#define GRIDSOLVE_TESTS_SAMPLES_H

#include <stddef.h>

/* Rows in a NULL-terminated rows array (the NULL not counted). */
#define GS_SAMPLE_NROWS(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

/* ---- bloxorz */

/* conformance/bloxorz/sample.in (answer 10). */
static const char GS_SAMPLE_BLOXORZ_IN[] = "7 7\n"
                                           "#######\n"
                                           "#..X###\n"
                                           "#..##O#\n"
                                           "#....E#\n"
                                           "#....E#\n"
                                           "#.....#\n"
                                           "#######\n"
                                           "0 0\n";

/* The same board as a JSON body (no options). */
static const char GS_SAMPLE_BLOXORZ_JSON[] =
    "{\"grid\":[\"#######\",\"#..X###\",\"#..##O#\",\"#....E#\","
    "\"#....E#\",\"#.....#\",\"#######\"]}";

/* ---- curling */

/* conformance/curling/sample.in: six boards, max_throws 10. */
static const char GS_SAMPLE_CURLING_IN[] =
    "2 1\n3 2\n"
    "6 6\n"
    "1 0 0 2 1 0\n1 1 0 0 0 0\n0 0 0 0 0 3\n"
    "0 0 0 0 0 0\n1 0 0 0 0 1\n0 1 1 1 1 1\n"
    "6 1\n1 1 2 1 1 3\n"
    "6 1\n1 0 2 1 1 3\n"
    "12 1\n2 0 1 1 1 1 1 1 1 1 1 3\n"
    "13 1\n2 0 1 1 1 1 1 1 1 1 1 1 3\n"
    "0 0\n";

/* ---- wallpushers */

/* conformance/wallpushers/sample.in (a 16-move answer). */
static const char GS_SAMPLE_WALLPUSHERS_IN[] =
    "2 3\n10 2 10 10 2 6\n3 12 11 14 9 4\n"
    "13 15 3 6 15 13\n14 11 12 9 14 11\n0 0\n";

/* ---- holedox */

/* conformance/holedox/sample.in (Case 1: 9, Case 2: -1). */
static const char GS_SAMPLE_HOLEDOX_IN[] =
    "5 6 4\n4 1\n4 2\n3 2\n3 1\n3\n2 3\n3 3\n3 4\n"
    "\n4 4 4\n2 3\n1 3\n1 4\n2 4\n4\n\n2 1\n2 2\n"
    "3 4\n4 2\n\n0 0 0\n";

/* conformance/holedox/tricky.in: four tiny cases, then five 20x20 boards
 * with 8-cell snakes (cases 5 to 9). */
static const char GS_SAMPLE_HOLEDOX_TRICKY_IN[] =
    "3 3 2\n1 1\n1 2\n0\n\n1 5 2\n1 2\n1 1\n0\n\n2 2 2\n1 2\n1 1\n0\n\n"
    "3 3 2\n3 3\n3 2\n3\n1 2\n2 1\n2 2\n\n"
    "20 20 8\n20 20\n20 19\n20 18\n20 17\n20 16\n20 15\n20 14\n20 13\n0\n\n"
    "20 20 8\n15 18\n15 17\n14 17\n14 16\n14 15\n15 15\n16 15\n16 14\n108\n"
    "1 4\n1 6\n1 17\n1 18\n2 4\n2 5\n2 7\n2 8\n2 13\n2 17\n2 19\n2 20\n3 2\n"
    "3 3\n3 5\n3 7\n3 12\n3 16\n3 19\n4 1\n4 5\n4 13\n4 18\n4 19\n5 3\n5 4\n"
    "5 6\n5 10\n5 11\n5 13\n5 16\n5 19\n6 3\n6 6\n6 12\n6 13\n6 14\n7 5\n"
    "7 9\n7 10\n7 13\n7 15\n7 16\n7 20\n8 1\n8 12\n8 14\n8 15\n8 17\n8 18\n"
    "9 1\n9 4\n9 7\n9 9\n9 12\n9 14\n9 17\n9 18\n9 19\n9 20\n10 12\n10 13\n"
    "10 15\n11 1\n11 8\n11 14\n11 15\n11 16\n11 18\n11 19\n12 2\n12 3\n"
    "12 6\n13 7\n13 13\n13 14\n13 18\n13 19\n14 5\n14 6\n14 12\n14 18\n"
    "15 3\n15 5\n15 13\n15 20\n16 1\n16 3\n16 9\n16 11\n16 18\n17 1\n17 19\n"
    "18 8\n18 13\n18 14\n18 17\n19 1\n19 2\n19 3\n19 9\n19 16\n19 18\n20 2\n"
    "20 3\n20 4\n20 7\n20 16\n\n"
    "20 20 8\n18 7\n17 7\n17 6\n17 5\n17 4\n18 4\n19 4\n19 3\n98\n1 4\n1 7\n"
    "1 9\n1 10\n1 12\n1 13\n1 19\n2 2\n2 14\n2 19\n2 20\n3 1\n3 2\n3 6\n3 8\n"
    "3 9\n3 13\n3 16\n3 17\n4 3\n4 6\n4 12\n4 17\n4 19\n5 1\n5 6\n5 7\n5 8\n"
    "5 11\n5 15\n5 19\n6 1\n6 2\n6 5\n6 6\n6 9\n6 10\n6 11\n6 16\n7 4\n8 8\n"
    "8 14\n9 1\n9 5\n9 6\n9 9\n9 11\n9 13\n9 15\n9 18\n9 20\n10 8\n10 10\n"
    "10 20\n11 2\n11 6\n11 9\n11 11\n11 12\n11 13\n11 17\n11 18\n12 4\n"
    "12 14\n12 15\n13 1\n13 12\n14 1\n14 14\n14 18\n14 20\n15 7\n15 9\n"
    "15 10\n15 14\n15 15\n15 16\n15 18\n16 6\n16 8\n16 10\n17 1\n17 8\n"
    "17 10\n17 14\n17 16\n17 19\n18 1\n18 2\n18 6\n18 8\n18 19\n19 5\n19 9\n"
    "20 9\n20 12\n20 13\n20 19\n\n"
    "20 20 8\n1 16\n1 17\n1 18\n2 18\n2 17\n2 16\n3 16\n3 17\n98\n1 2\n1 11\n"
    "1 13\n1 20\n2 3\n2 13\n2 15\n3 1\n3 5\n3 11\n3 19\n4 2\n4 5\n4 8\n4 18\n"
    "5 6\n5 7\n5 8\n5 11\n5 15\n5 16\n5 17\n5 18\n5 20\n6 10\n6 17\n7 1\n"
    "7 7\n7 13\n7 19\n8 2\n8 3\n8 4\n8 11\n8 13\n9 3\n9 7\n9 10\n9 12\n9 13\n"
    "9 14\n10 4\n10 5\n10 7\n10 10\n10 16\n10 18\n11 20\n12 8\n12 9\n12 13\n"
    "12 16\n12 19\n12 20\n13 7\n13 11\n13 13\n13 16\n13 17\n13 20\n14 6\n"
    "14 7\n14 14\n14 18\n15 2\n15 5\n15 7\n15 9\n15 10\n15 16\n15 20\n16 1\n"
    "16 4\n16 5\n16 6\n16 13\n16 19\n17 4\n17 9\n17 12\n17 15\n17 18\n18 4\n"
    "18 16\n18 18\n18 20\n19 5\n19 7\n19 10\n19 15\n19 16\n19 17\n20 3\n"
    "20 8\n20 9\n20 11\n20 17\n20 19\n\n"
    "20 20 8\n6 16\n6 15\n7 15\n7 16\n7 17\n6 17\n6 18\n6 19\n106\n1 2\n1 4\n"
    "1 8\n1 11\n1 12\n1 14\n1 18\n1 19\n2 3\n2 6\n2 13\n2 16\n3 7\n3 9\n"
    "3 11\n3 12\n3 13\n3 20\n4 2\n4 6\n4 7\n4 14\n4 20\n5 3\n5 8\n5 10\n"
    "5 11\n5 12\n5 14\n5 18\n6 3\n6 4\n6 10\n6 13\n6 14\n6 20\n7 8\n7 13\n"
    "7 18\n8 1\n8 6\n8 9\n8 11\n8 12\n8 15\n8 20\n9 3\n9 5\n9 11\n9 17\n"
    "10 14\n10 15\n10 20\n11 1\n11 2\n11 4\n11 5\n11 8\n12 5\n12 13\n12 14\n"
    "12 16\n12 18\n12 19\n12 20\n13 1\n13 3\n13 7\n13 10\n14 9\n14 12\n"
    "14 13\n14 14\n14 18\n15 5\n15 7\n15 8\n15 12\n15 14\n16 10\n16 11\n"
    "16 12\n16 16\n16 18\n16 20\n17 3\n17 7\n17 8\n17 11\n17 12\n17 15\n"
    "18 1\n18 12\n18 13\n18 14\n18 15\n18 16\n19 1\n19 2\n19 4\n19 14\n"
    "19 20\n20 2\n20 13\n20 16\n20 20\n\n0 0 0\n";

/* ---- sokoban */

/* conformance/sokoban/seed.in and seed.out: sixteen small boards in the
 * seed notation (X player, * box, @ goal), and their answers. */
static const char GS_SAMPLE_SOKOBAN_SEED_IN[] =
    "8 6\n######\n#..#X#\n#@.**#\n#..*@#\n##..##\n#..@.#\n#....#\n######\n"
    "6 7\n#######\n#...*@#\n##.X*.#\n#..*@.#\n#...@.#\n#######\n"
    "8 6\n######\n#@...#\n#.*..#\n#*..@#\n#X.*##\n#..@.#\n#...##\n######\n"
    "8 8\n########\n#.#.X#.#\n##.#**@#\n#......#\n##..@.##\n#..*.@.#\n"
    "#...#..#\n########\n"
    "6 5\n#####\n#X*@#\n#**##\n#.@.#\n#@..#\n#####\n"
    "8 6\n######\n#....#\n#.@..#\n#.*.##\n#....#\n#.@*.#\n#@*X.#\n######\n"
    "8 7\n#######\n###...#\n#.@#.@#\n##*.#*#\n##....#\n#.#X.##\n#@*...#\n"
    "#######\n"
    "8 6\n######\n#@...#\n#...@#\n#*X..#\n#.*..#\n#@.*.#\n#..###\n######\n"
    "7 8\n########\n#.....@#\n#.....*#\n#...#*X#\n#....@*#\n#.....@#\n"
    "########\n"
    "6 5\n#####\n#.@@#\n#.**#\n#@*X#\n#..##\n#####\n"
    "5 6\n######\n##X..#\n#@***#\n#..@@#\n######\n"
    "7 8\n########\n#.*@...#\n#....#.#\n#.#.*@.#\n#.X..#.#\n##..*@.#\n"
    "########\n"
    "8 8\n########\n##*....#\n#...####\n#..@..##\n###..@.#\n#..@**.#\n"
    "##..#X.#\n########\n"
    "6 5\n#####\n#***#\n#X@##\n##@@#\n#.#.#\n#####\n"
    "5 5\n#####\n##.@#\n#@**#\n#*X@#\n#####\n"
    "6 6\n######\n#*@@##\n##...#\n#*.X.#\n#@*..#\n######\n";

static const char GS_SAMPLE_SOKOBAN_SEED_OUT[] =
    "6\n8\n10\n10\n6\n8\n12\n14\n5\n4\n7\n13\n-1\n-1\n-1\n-1\n";

/* Microban I level 5 (David W. Skinner), XSB rows, NULL-terminated: the
 * fewest moves (25, 8 pushes) and the fewest pushes (6, 27 moves) differ. */
static const char *const GS_SAMPLE_MICROBAN5[] = {
    " #######", " #     #", " # .$. #", "## $@$ #",
    "#  .$. #", "#      #", "########", NULL,
};

#endif
