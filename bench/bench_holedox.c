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
#include "../tests/samples.h"

extern const gs_puzzle gs_puzzle_holedox;

#define BFS_CAP 3000000u /* plain-BFS state cap: memory, not patience */
#define MAXL 16

/* A board as the bench reads it, for the plain BFS. */
typedef struct bboard {
    int rows, cols, len, target;
    int snake[MAXL];
    unsigned char *stone;
} bboard;

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
 * states it expanded, or 0 when it hit BFS_CAP. *steps gets the answer,
 * -1 for none, -2 when the search failed (out of memory: no figure). */
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
    if (gs_search_new(&cfg, &s)) {
        *steps = -2;
        return 0;
    }
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
    if (rc < 0 && rc != GS_ELIMIT)
        *steps = -2;
    expanded = rc < 0 ? 0 : gs_search_expanded(s);
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
    if (bsteps == -2) {
        printf(" | plain BFS: failed (out of memory)\n");
        return 1;
    }
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

/* Runs the tricky file's 20x20 cases (5 to 9; the first four are tiny).
 * The puzzle's own parser walks the text to find where each case starts. */
static int bench_judge(void)
{
    const char *text = GS_SAMPLE_HOLEDOX_TRICKY_IN;
    gs_caps caps = {1u << 20};
    gs_text in;
    int failed = 0;

    gs_text_init(&in, text, strlen(text));
    for (int i = 1;; i++) {
        gs_error err = {0};
        const char *start = in.p;
        void *inst;
        int rc = gs_puzzle_holedox.parse_text(&in, &caps, &inst, &err);
        if (rc < 0)
            printf("judge case %d: parse failed: %s\n", i, err.detail);
        if (rc <= 0)
            return failed | (rc < 0);
        gs_puzzle_holedox.free(inst);
        if (i < 5)
            continue;

        bboard b;
        char name[64];
        snprintf(name, sizeof name, "judge 20x20 L=8 case %d", i);
        if (bboard_read(start, &b))
            return 1;
        failed |= bench_case(name, start, &b);
        free(b.stone);
    }
}

int gs_bench_holedox(void)
{
    int failed = bench_judge();
    failed |= bench_generated("64x64 L=16 28% stones", big_board());
    failed |= bench_generated("64x64 L=16 corridor U-turn", uturn_board());
    return failed;
}
