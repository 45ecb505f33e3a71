/* bench_sokoban.c - sokoban solve times.
 *
 * 1. The seed's 8x8 three-box boards (judge text), each solved many times:
 *    the target is milliseconds per board.
 * 2. A few Microban I levels (David W. Skinner) under each objective:
 *    time, steps, pushes, expanded states.
 * 3. A 64 x 64 room with 30 boxes (the size the service promises), with
 *    `any` and `moves` under a 10 s limit.
 * 4. Memory: bytes per stored state, and a solve under a small
 *    max_bytes budget that must answer `limit` inside it.
 * bench/sokoban.sh measures whole level files through the CLI.
 */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "benches.h"
#include "gridsolve/puzzle.h"
#include "../src/puzzles/sokoban/sokoban.h"
#include "../tests/samples.h"

extern const gs_puzzle gs_puzzle_sokoban;

/* Microban I levels 113 and 117 (level 5 is in samples.h). */
static const char *const MB113[] = {"   #####",       "  ##   #",
                                    "###  # #",       "#    . #",
                                    "#  ## #####",    "#  . . #  ##",
                                    "#  # @ $   ###", "#####. #  $  #",
                                    "    ####  $  #", "       ## $ ##",
                                    "        #  ##",  "        #  #",
                                    "        ####",   NULL};
static const char *const MB117[] = {" #### ####",  " #  ###  ##", " #      @ #",
                                    "##..###   #", "#      #  #", "#...#$  # #",
                                    "# ## $$ $ #", "#  $    ###", "####  ###",
                                    "   ####",     NULL};

/* Solves every board of the seed text `reps` times; prints ms per board. */
static int bench_seed(int reps)
{
    double total = 0, worst = 0;
    int boards = 0;
    for (int rep = 0; rep < reps; rep++) {
        gs_text in;
        gs_text_init(&in, GS_SAMPLE_SOKOBAN_SEED_IN,
                     strlen(GS_SAMPLE_SOKOBAN_SEED_IN));
        for (;;) {
            void *inst = NULL;
            gs_error err = {0};
            int rc = gs_puzzle_sokoban.parse_text(&in, NULL, &inst, &err);
            if (rc == 0)
                break;
            if (rc < 0) {
                fprintf(stderr, "sokoban bench: seed: %s\n", err.detail);
                return 1;
            }
            gs_result res;
            gs_result_clear(&res);
            int64_t t0 = gs_now_ns();
            rc = gs_puzzle_sokoban.solve(inst, NULL, &res, &err);
            double ms = (double)(gs_now_ns() - t0) / 1e6;
            gs_result_free(&res);
            gs_puzzle_sokoban.free(inst);
            if (rc) {
                fprintf(stderr, "sokoban bench: seed: %s\n", err.detail);
                return 1;
            }
            total += ms;
            worst = ms > worst ? ms : worst;
            boards++;
        }
    }
    if (boards == 0) {
        fprintf(stderr, "sokoban bench: seed: no boards\n");
        return 1;
    }
    printf("sokoban seed boards (8x8, 3 boxes): %d solves, mean %.3f ms, "
           "worst %.3f ms (target: milliseconds)\n",
           boards, total / boards, worst);
    return 0;
}

/* Solves one level under one objective within timeout_ms; prints a line.
 * Returns nonzero when the level failed to parse or solve. */
static int bench_level(const char *name, const char *const *rows,
                       const char *objective, double timeout_ms,
                       uint64_t max_bytes)
{
    int n = 0;
    while (rows[n])
        n++;
    /* Checked: a body missing its grid would read as the puzzle's own
     * complaint about the level. */
    cJSON *body = cJSON_CreateObject();
    cJSON *grid = cJSON_CreateStringArray(rows, n);
    bool owned = body && grid && cJSON_AddItemToObject(body, "grid", grid);
    if (!owned)
        cJSON_Delete(grid);
    if (!owned || !cJSON_AddStringToObject(body, "optimize", objective)) {
        cJSON_Delete(body);
        fprintf(stderr, "sokoban bench: %s: out of memory\n", name);
        return 1;
    }
    gs_caps caps = {.max_cells = 1u << 20};
    void *inst = NULL;
    gs_error err = {0};
    int rc = gs_puzzle_sokoban.parse_json(body, &caps, &inst, &err);
    cJSON_Delete(body);
    if (rc) {
        fprintf(stderr, "sokoban bench: %s: %s\n", name, err.detail);
        return 1;
    }
    gs_limits lim = {.deadline_ns = gs_deadline_after_ms(timeout_ms),
                     .max_bytes = max_bytes};
    gs_result res;
    gs_sokoban_stats st = {0};
    gs_result_clear(&res);
    int64_t t0 = gs_now_ns();
    rc = gs_sokoban_solve_stats(inst, &lim, &res, &st, &err);
    double ms = (double)(gs_now_ns() - t0) / 1e6;
    gs_puzzle_sokoban.free(inst);
    if (rc) {
        fprintf(stderr, "sokoban bench: %s: %s\n", name, err.detail);
        gs_result_free(&res);
        return 1;
    }
    const char *status = res.status == GS_SOLVED       ? "solved"
                         : res.status == GS_IMPOSSIBLE ? "impossible"
                                                       : "limit";
    printf("sokoban %-14s %-7s %-10s steps %5zu pushes %4ld optimal %-3s "
           "%9.1f ms  expanded %9llu (%.0f/s)  stored %9llu, %.1f bytes/state, "
           "tables %llu bytes\n",
           name, objective, status, res.status == GS_SOLVED ? res.steps : 0,
           res.status == GS_SOLVED ? res.pushes : 0, res.optimal ? "yes" : "no",
           ms, (unsigned long long)res.expanded,
           ms > 0 ? (double)res.expanded / (ms / 1000) : 0,
           (unsigned long long)st.states,
           st.states ? (double)st.store_bytes / (double)st.states : 0.0,
           (unsigned long long)st.table_bytes);
    if (max_bytes) {
        /* The verdict, not only the figures: `limit`, and the store and
         * tables together inside the budget. */
        bool met = res.status == GS_LIMIT &&
                   st.store_bytes + st.table_bytes <= max_bytes;
        printf("sokoban %-14s budget %llu bytes: %s, store %llu + tables %llu "
               "bytes (target: limit within the budget: %s)\n",
               name, (unsigned long long)max_bytes, status,
               (unsigned long long)st.store_bytes,
               (unsigned long long)st.table_bytes, met ? "met" : "NOT met");
    }
    gs_result_free(&res);
    return 0;
}

/* A 64 x 64 room with 30 boxes in a spaced grid, each with a goal two
 * cells to its right. The rows are static storage. */
static const char *const *big_room(void)
{
    static char cells[64][65];
    static const char *rows[65];
    for (int r = 0; r < 64; r++) {
        for (int c = 0; c < 64; c++)
            cells[r][c] = r == 0 || r == 63 || c == 0 || c == 63 ? '#' : ' ';
        cells[r][64] = '\0';
        rows[r] = cells[r];
    }
    for (int i = 0; i < 30; i++) {
        int r = 6 + (i / 6) * 10, c = 6 + (i % 6) * 9;
        cells[r][c] = '$';
        cells[r][c + 2] = '.';
    }
    cells[1][1] = '@';
    rows[64] = NULL;
    return rows;
}

int gs_bench_sokoban(void)
{
    int failed = bench_seed(20);
    const char *objectives[] = {"moves", "pushes", "any"};
    for (int i = 0; i < 3; i++) {
        failed |= bench_level("microban-5", GS_SAMPLE_MICROBAN5, objectives[i],
                              10000, 0);
        failed |= bench_level("microban-113", MB113, objectives[i], 10000, 0);
        failed |= bench_level("microban-117", MB117, objectives[i], 10000, 0);
    }
    failed |= bench_level("room-64x64-30", big_room(), "any", 10000, 0);
    failed |= bench_level("room-64x64-30", big_room(), "moves", 10000, 0);
    failed |= bench_level("microban-117", MB117, "moves", 10000, 4u << 20);
    return failed;
}
