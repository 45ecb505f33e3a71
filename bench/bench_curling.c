/* bench_curling.c - curling with the judge's budget and far above it.
 *
 * Runs the judge samples (max_throws 10), then 20x20 boards with
 * max_throws 30: a judge board, random boards whose answers are deep, and
 * a board with no solution, so the whole pruned space within 30 throws is
 * searched. Prints time, expanded and stored states and the outcome under
 * a 10 s deadline and a 20 M state cap (the service's kind of limits).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "benches.h"
#include "gridsolve/puzzle.h"
#include "../tests/samples.h"

extern const gs_puzzle gs_puzzle_curling;

static long peak_rss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024;
}

/* A 20x20 judge board (answer 5). */
static const int JUDGE20[20][20] = {
    {1, 1, 0, 1, 0, 0, 1, 0, 1, 0, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0},
    {0, 1, 0, 1, 1, 1, 1, 0, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 0},
    {0, 1, 0, 0, 1, 0, 0, 0, 2, 1, 0, 1, 0, 0, 1, 0, 1, 0, 0, 0},
    {0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 1, 0},
    {1, 1, 1, 0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1},
    {1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0},
    {0, 0, 1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 0, 1, 1, 1},
    {0, 1, 0, 0, 0, 0, 1, 1, 1, 1, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0},
    {0, 0, 1, 0, 1, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 1},
    {1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0},
    {1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1, 0, 0},
    {1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 0},
    {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 1, 1, 0, 1, 0},
    {0, 0, 1, 0, 0, 3, 1, 0, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},
    {0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 1, 0, 1, 1, 1, 0, 0, 0},
    {1, 0, 0, 1, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 0, 1},
    {0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 1, 1, 0, 1, 1, 0, 0, 0, 1},
    {1, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0, 0},
    {1, 1, 0, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, 1, 1, 1, 1, 0, 0},
    {1, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 1},
};

/* Builds a JSON body for a 20x20 board; NULL when out of memory (a
 * board short of rows would be measured as another board). */
static cJSON *board_json(int b[20][20], int max_throws)
{
    cJSON *body = cJSON_CreateObject();
    cJSON *rows = cJSON_AddArrayToObject(body, "board");
    for (int r = 0; rows && r < 20; r++) {
        cJSON *row = cJSON_CreateIntArray(b[r], 20);
        if (!row || !cJSON_AddItemToArray(rows, row)) {
            cJSON_Delete(row);
            rows = NULL;
        }
    }
    if (!rows || !cJSON_AddNumberToObject(body, "max_throws", max_throws)) {
        cJSON_Delete(body);
        return NULL;
    }
    return body;
}

/* Solves one instance under the bench limits; prints a line. */
static int run(const char *name, void *inst)
{
    gs_limits lim = {.max_states = 20000000,
                     .deadline_ns = gs_deadline_after_ms(10000)};
    gs_result res;
    gs_error err = {0};
    gs_result_clear(&res);
    int64_t t0 = gs_now_ns();
    int rc = gs_puzzle_curling.solve(inst, &lim, &res, &err);
    double ms = (double)(gs_now_ns() - t0) / 1e6;
    if (rc != GS_OK) {
        fprintf(stderr, "curling bench: %s: %s\n", name, err.detail);
        gs_result_free(&res);
        return 1;
    }
    char out[32];
    if (res.status == GS_SOLVED)
        snprintf(out, sizeof out, "%zu throws", res.steps);
    else
        snprintf(out, sizeof out, "%s",
                 res.status == GS_IMPOSSIBLE    ? "-1 (none)"
                 : res.limit == GS_LIMIT_STATES ? "limit (states)"
                                                : "limit (time)");
    printf("curling %-40s %-15s %9.2f ms  expanded %9llu  peak RSS %ld MB\n",
           name, out, ms, (unsigned long long)res.expanded, peak_rss_mb());
    fflush(stdout);
    gs_result_free(&res);
    return 0;
}

static int run_json(const char *name, int b[20][20], int max_throws)
{
    cJSON *body = board_json(b, max_throws);
    gs_caps caps = {.max_cells = 0};
    void *inst = NULL;
    gs_error err = {0};
    if (!body) {
        fprintf(stderr, "curling bench: %s: out of memory\n", name);
        return 1;
    }
    int rc = gs_puzzle_curling.parse_json(body, &caps, &inst, &err);
    cJSON_Delete(body);
    if (rc != GS_OK) {
        fprintf(stderr, "curling bench: %s: %s\n", name, err.detail);
        return 1;
    }
    rc = run(name, inst);
    gs_puzzle_curling.free(inst);
    return rc;
}

/* A random 20x20 board from a fixed seed (blocks at `density` percent). */
static void random_board(int b[20][20], unsigned seed, int density)
{
    srand(seed);
    for (int r = 0; r < 20; r++)
        for (int c = 0; c < 20; c++)
            b[r][c] = rand() % 100 < density;
    b[rand() % 20][rand() % 20] = 2;
    int gr, gc;
    do {
        gr = rand() % 20;
        gc = rand() % 20;
    } while (b[gr][gc] == 2);
    b[gr][gc] = 3;
}

int gs_bench_curling(void)
{
    int failed = 0;
    gs_text in;
    gs_text_init(&in, GS_SAMPLE_CURLING_IN, strlen(GS_SAMPLE_CURLING_IN));
    gs_caps caps = {.max_cells = 0};
    for (int i = 1;; i++) {
        void *inst = NULL;
        gs_error err = {0};
        int rc = gs_puzzle_curling.parse_text(&in, &caps, &inst, &err);
        if (rc <= 0) {
            if (rc < 0)
                fprintf(stderr, "curling bench: judge sample %d: %s\n", i,
                        err.detail);
            failed |= rc < 0;
            break;
        }
        char name[48];
        snprintf(name, sizeof name, "judge sample %d (max 10)", i);
        failed |= run(name, inst);
        gs_puzzle_curling.free(inst);
    }

    int b[20][20];
    memcpy(b, JUDGE20, sizeof b);
    failed |= run_json("20x20 judge board (max 30)", b, 30);

    /* The same board with the goal ringed by blocks: one must vanish
     * before the goal can be reached, so the answer is deeper. */
    b[12][5] = b[14][5] = b[13][4] = 1;
    failed |= run_json("20x20 judge board, goal ringed (max 30)", b, 30);
    /* And with the goal open on one side only. */
    b[13][4] = 0;
    failed |= run_json("20x20 judge board, goal 1 side (max 30)", b, 30);

    /* Random boards from a fixed seed, picked from a sweep of 1800 for the
     * largest searches: deep answers, and one with no answer within 30
     * throws, where the whole pruned space is searched. */
    static const struct {
        int density;
        unsigned seed;
    } hard[] = {{35, 3}, {40, 152}, {30, 100}, {15, 100}};
    for (size_t i = 0; i < sizeof hard / sizeof hard[0]; i++) {
        char name[64];
        random_board(b, hard[i].seed, hard[i].density);
        snprintf(name, sizeof name, "20x20 random %d%% seed %u (max 30)",
                 hard[i].density, hard[i].seed);
        failed |= run_json(name, b, 30);
    }
    return failed;
}
