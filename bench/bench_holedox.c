/* bench_holedox.c - holedox speed: the judge's worst 20x20 boards (the
 * conformance tricky file's 8-cell snakes) and a 64x64 board with a 16-cell
 * snake. For each: the solver's time and expanded states (A*), beside the
 * states a plain BFS expands to prove the same answer (capped, through the
 * same search core, so the difference is the heuristic alone). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/puzzle.h"
#include "benches.h"

extern const gs_puzzle gs_puzzle_holedox;

#define BFS_CAP 3000000u /* plain-BFS state cap: memory, not patience */
#define MAXL 16

/* A board as the bench reads it, for the plain BFS. */
typedef struct bboard {
    int rows, cols, len, target;
    int snake[MAXL];
    unsigned char *stone;
} bboard;

/* The tricky file's 20x20 cases (rows, cols and snake of each, then the
 * stones), in judge text. */
static const char *const judge_boards[] = {
    "20 20 8\n20 20\n20 19\n20 18\n20 17\n20 16\n20 15\n20 14\n20 13\n0\n",
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
    "20 3\n20 4\n20 7\n20 16\n",
    "20 20 8\n18 7\n17 7\n17 6\n17 5\n17 4\n18 4\n19 4\n19 3\n98\n1 4\n1 7\n"
    "1 9\n1 10\n1 12\n1 13\n1 19\n2 2\n2 14\n2 19\n2 20\n3 1\n3 2\n3 6\n3 8\n"
    "3 9\n3 13\n3 16\n3 17\n4 3\n4 6\n4 12\n4 17\n4 19\n5 1\n5 6\n5 7\n5 8\n"
    "5 11\n5 15\n5 19\n6 1\n6 2\n6 5\n6 6\n6 9\n6 10\n6 11\n6 16\n7 4\n8 8\n"
    "8 14\n9 1\n9 5\n9 6\n9 9\n9 11\n9 13\n9 15\n9 18\n9 20\n10 8\n10 10\n"
    "10 20\n11 2\n11 6\n11 9\n11 11\n11 12\n11 13\n11 17\n11 18\n12 4\n"
    "12 14\n12 15\n13 1\n13 12\n14 1\n14 14\n14 18\n14 20\n15 7\n15 9\n"
    "15 10\n15 14\n15 15\n15 16\n15 18\n16 6\n16 8\n16 10\n17 1\n17 8\n"
    "17 10\n17 14\n17 16\n17 19\n18 1\n18 2\n18 6\n18 8\n18 19\n19 5\n19 9\n"
    "20 9\n20 12\n20 13\n20 19\n",
    "20 20 8\n1 16\n1 17\n1 18\n2 18\n2 17\n2 16\n3 16\n3 17\n98\n1 2\n1 11\n"
    "1 13\n1 20\n2 3\n2 13\n2 15\n3 1\n3 5\n3 11\n3 19\n4 2\n4 5\n4 8\n4 18\n"
    "5 6\n5 7\n5 8\n5 11\n5 15\n5 16\n5 17\n5 18\n5 20\n6 10\n6 17\n7 1\n"
    "7 7\n7 13\n7 19\n8 2\n8 3\n8 4\n8 11\n8 13\n9 3\n9 7\n9 10\n9 12\n9 13\n"
    "9 14\n10 4\n10 5\n10 7\n10 10\n10 16\n10 18\n11 20\n12 8\n12 9\n12 13\n"
    "12 16\n12 19\n12 20\n13 7\n13 11\n13 13\n13 16\n13 17\n13 20\n14 6\n"
    "14 7\n14 14\n14 18\n15 2\n15 5\n15 7\n15 9\n15 10\n15 16\n15 20\n16 1\n"
    "16 4\n16 5\n16 6\n16 13\n16 19\n17 4\n17 9\n17 12\n17 15\n17 18\n18 4\n"
    "18 16\n18 18\n18 20\n19 5\n19 7\n19 10\n19 15\n19 16\n19 17\n20 3\n"
    "20 8\n20 9\n20 11\n20 17\n20 19\n",
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
    "19 20\n20 2\n20 13\n20 16\n20 20\n",
};

/* Reads judge text (one case, target (1,1)) into a bench board. */
static int bboard_read(const char *text, bboard *b)
{
    char *end;
    b->rows = (int)strtol(text, &end, 10);
    b->cols = (int)strtol(end, &end, 10);
    b->len = (int)strtol(end, &end, 10);
    if (b->len > MAXL)
        return -1;
    b->stone = calloc((size_t)b->rows * b->cols, 1);
    if (!b->stone)
        return -1;
    for (int i = 0; i < b->len; i++) {
        long r = strtol(end, &end, 10) - 1, c = strtol(end, &end, 10) - 1;
        b->snake[i] = (int)(r * b->cols + c);
    }
    long k = strtol(end, &end, 10);
    for (long i = 0; i < k; i++) {
        long r = strtol(end, &end, 10) - 1, c = strtol(end, &end, 10) - 1;
        b->stone[r * b->cols + c] = 1;
    }
    b->target = 0;
    return 0;
}

/* Plain BFS (no heuristic, no pruning) through the search core; the
 * states it expanded, or 0 when it hit BFS_CAP. *steps gets the answer. */
static uint64_t plain_bfs(const bboard *b, long *steps)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    gs_limits lim = {.max_states = BFS_CAP};
    gs_search_config cfg = {.key_size = 2 * MAXL, .limits = &lim};
    gs_search *s;
    uint16_t key[MAXL], cur[MAXL];
    uint64_t id, expanded = 0;
    int rc;

    *steps = -1;
    if (b->snake[0] == b->target) {
        *steps = 0;
        return 1;
    }
    if (gs_search_new(&cfg, &s))
        return 0;
    memset(key, 0, sizeof key);
    for (int i = 0; i < b->len; i++)
        key[i] = (uint16_t)b->snake[i];
    rc = gs_search_add(s, key, GS_NO_PARENT, 0, NULL);
    while (rc >= 0 && *steps < 0 && (rc = gs_search_pop(s, &id)) == 1) {
        memcpy(cur, gs_search_key(s, id), sizeof cur);
        for (int d = 0; d < 4 && rc >= 0; d++) {
            int r = cur[0] / b->cols + dr[d], c = cur[0] % b->cols + dc[d];
            int n = r * b->cols + c, hit = 0;
            if (r < 0 || c < 0 || r >= b->rows || c >= b->cols || b->stone[n])
                continue;
            for (int i = 0; i < b->len; i++)
                hit |= cur[i] == n;
            if (hit)
                continue;
            memset(key, 0, sizeof key);
            key[0] = (uint16_t)n;
            memcpy(key + 1, cur, (size_t)(b->len - 1) * sizeof *key);
            if (n == b->target) {
                char *moves;
                size_t len;
                if (gs_search_path(s, id, "x", &moves, &len) == GS_OK) {
                    *steps = (long)len;
                    free(moves);
                }
                break;
            }
            rc = gs_search_add(s, key, id, (unsigned char)d, NULL);
        }
    }
    expanded = rc == GS_ELIMIT ? 0 : gs_search_expanded(s);
    gs_search_free(s);
    return expanded;
}

/* Solves one judge-text case with the puzzle and prints a line. */
static int bench_case(const char *name, const char *text, const bboard *b)
{
    gs_caps caps = {1u << 20};
    gs_text in;
    gs_error err = {0};
    gs_result res;
    void *inst;

    gs_text_init(&in, text, strlen(text));
    if (gs_puzzle_holedox.parse_text(&in, &caps, &inst, &err) != 1) {
        printf("%s: parse failed: %s\n", name, err.detail);
        return 1;
    }
    int rc = gs_puzzle_holedox.solve(inst, NULL, &res, &err);
    gs_puzzle_holedox.free(inst);
    if (rc) {
        printf("%s: solve failed: %s\n", name, err.detail);
        return 1;
    }
    long steps = res.status == GS_SOLVED ? (long)res.steps : -1;
    printf("%-26s A*: %4ld steps %9.2f ms %9llu expanded", name, steps,
           res.elapsed_ms, (unsigned long long)res.expanded);
    gs_result_free(&res);

    long bsteps;
    int64_t t0 = gs_now_ns();
    uint64_t bexp = plain_bfs(b, &bsteps);
    double bms = (double)(gs_now_ns() - t0) / 1e6;
    if (bexp == 0)
        printf(" | plain BFS: > %u states (capped)\n", BFS_CAP);
    else
        printf(" | plain BFS: %4ld steps %9.2f ms %9llu expanded%s\n", bsteps,
               bms, (unsigned long long)bexp,
               bsteps == steps ? "" : "  MISMATCH");
    return bexp != 0 && bsteps != steps;
}

/* A 64x64 board, 16-cell snake coiled in the far corner, ~28% stones
 * from a fixed seed, target (1,1), as judge text. */
static char *big_board(void)
{
    enum { N = 64, L = 16 };
    gs_buf t = GS_BUF_INIT;
    unsigned seed = 20240601u;
    /* The snake: a boustrophedon coil filling the bottom-right 4x4
     * corner, head at the coil's inner end, facing the board. */
    int sr[L], sc[L];
    for (int i = 0; i < L; i++) {
        int j = L - 1 - i, row = j / 4,
            col = (row % 2 == 0) ? j % 4 : 3 - j % 4;
        sr[i] = N - row;
        sc[i] = N - col;
    }
    unsigned char stone[N + 1][N + 1] = {{0}};
    int k = 0;
    for (int r = 1; r <= N; r++)
        for (int c = 1; c <= N; c++) {
            seed = seed * 1103515245u + 12345u;
            int near = r > N - 5 && c > N - 5;
            if (!near && (r > 2 || c > 2) && (seed >> 8) % 100 < 28) {
                stone[r][c] = 1;
                k++;
            }
        }
    gs_buf_printf(&t, "%d %d %d\n", N, N, L);
    for (int i = 0; i < L; i++)
        gs_buf_printf(&t, "%d %d\n", sr[i], sc[i]);
    gs_buf_printf(&t, "%d\n", k);
    for (int r = 1; r <= N; r++)
        for (int c = 1; c <= N; c++)
            if (stone[r][c])
                gs_buf_printf(&t, "%d %d\n", r, c);
    return gs_buf_status(&t) == GS_OK ? gs_buf_take(&t, NULL) : NULL;
}

/* A 64x64 board where the heuristic misleads: the 16-cell snake lies in a
 * 1-wide dead-end corridor along the top row, tail next to the target at
 * the corridor's end, head facing out. It must leave the corridor, turn
 * round in the open and come back, and A* must rule out every state with
 * a smaller estimate first. */
static char *uturn_board(void)
{
    enum { N = 64, L = 16, CORRIDOR = 24 };
    gs_buf t = GS_BUF_INIT;
    gs_buf_printf(&t, "%d %d %d\n", N, N, L);
    for (int i = 0; i < L; i++)
        gs_buf_printf(&t, "1 %d\n", L + 1 - i);
    gs_buf_printf(&t, "%d\n", CORRIDOR);
    for (int c = 1; c <= CORRIDOR; c++)
        gs_buf_printf(&t, "2 %d\n", c);
    return gs_buf_status(&t) == GS_OK ? gs_buf_take(&t, NULL) : NULL;
}

/* Runs one generated board. */
static int bench_generated(const char *name, char *text)
{
    bboard b;
    if (!text || bboard_read(text, &b)) {
        free(text);
        return 1;
    }
    int failed = bench_case(name, text, &b);
    free(b.stone);
    free(text);
    return failed;
}

int gs_bench_holedox(void)
{
    int failed = 0;
    char name[64];

    for (size_t i = 0; i < sizeof judge_boards / sizeof judge_boards[0]; i++) {
        bboard b;
        snprintf(name, sizeof name, "judge 20x20 L=8 case %zu", i + 5);
        if (bboard_read(judge_boards[i], &b))
            return 1;
        failed |= bench_case(name, judge_boards[i], &b);
        free(b.stone);
    }
    failed |= bench_generated("64x64 L=16 28% stones", big_board());
    failed |= bench_generated("64x64 L=16 corridor U-turn", uturn_board());
    return failed;
}
