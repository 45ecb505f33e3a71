/* bench_wallpushers.c - wallpushers speed on a 32x32 maze.
 *
 * The maze is a perfect maze (randomised depth-first carving from a fixed
 * seed) with one exit, north of the top-left cell. Every push opens a short
 * cut, so the reachable (position, layout) space grows about eightfold with
 * each extra move of the answer; the bench walks the start down the
 * diagonal and reports, per start, the answer, the time and the states
 * expanded, and once the key size (the whole layout is in the key). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "gridsolve/puzzle.h"
#include "benches.h"

extern const gs_puzzle gs_puzzle_wallpushers;

#define N 32
#define STATE_CAP 1000000u
#define SLOW_MS 1000.0 /* stop walking the diagonal past this */

/* Carves a perfect maze into cells (bits 1 W, 2 N, 4 E, 8 S). */
static void carve(int cells[N][N], unsigned seed)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    static const int bit[4] = {2, 8, 1, 4}, opp[4] = {8, 2, 4, 1};
    static int stack[N * N];
    static unsigned char seen[N][N];
    int top = 0;

    memset(seen, 0, sizeof seen);
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++)
            cells[r][c] = 15;
    stack[top++] = 0;
    seen[0][0] = 1;
    while (top > 0) {
        int r = stack[top - 1] / N, c = stack[top - 1] % N, opts[4], n = 0;
        for (int d = 0; d < 4; d++) {
            int nr = r + dr[d], nc = c + dc[d];
            if (nr >= 0 && nc >= 0 && nr < N && nc < N && !seen[nr][nc])
                opts[n++] = d;
        }
        if (n == 0) {
            top--;
            continue;
        }
        seed = seed * 1103515245u + 12345u;
        int d = opts[(seed >> 8) % (unsigned)n];
        int nr = r + dr[d], nc = c + dc[d];
        cells[r][c] &= ~bit[d];
        cells[nr][nc] &= ~opp[d];
        seen[nr][nc] = 1;
        stack[top++] = nr * N + nc;
    }
    cells[0][0] &= ~2; /* the exit */
}

/* The JSON request for the maze with the player at (sr, sc); NULL when
 * out of memory (a maze short of a row would be measured as another). */
static cJSON *maze_json(int cells[N][N], int sr, int sc)
{
    cJSON *root = cJSON_CreateObject();
    int start[2] = {sr, sc};
    cJSON *walls = cJSON_AddArrayToObject(root, "walls");
    cJSON *at = cJSON_CreateIntArray(start, 2);
    bool ok = walls && at && cJSON_AddItemToObject(root, "start", at);
    if (!ok)
        cJSON_Delete(at);
    for (int r = 0; ok && r < N; r++) {
        cJSON *row = cJSON_CreateIntArray(cells[r], N);
        ok = row && cJSON_AddItemToArray(walls, row);
        if (!ok)
            cJSON_Delete(row);
    }
    if (!ok) {
        cJSON_Delete(root);
        return NULL;
    }
    return root;
}

int gs_bench_wallpushers(void)
{
    static int cells[N][N];
    gs_caps caps = {1u << 20};
    gs_limits lim = {.max_states = STATE_CAP};

    carve(cells, 20240601u);
    printf("32x32 perfect maze, exit north of (0,0), key %d bytes, "
           "state cap %u\n",
           2 + ((N + 1) * N * 2 + 7) / 8, STATE_CAP);
    for (int k = 2; k < N; k++) {
        cJSON *body = maze_json(cells, k, k);
        gs_error err = {0};
        gs_result res;
        void *inst;
        if (!body ||
            gs_puzzle_wallpushers.parse_json(body, &caps, &inst, &err)) {
            printf("parse failed: %s\n", body ? err.detail : "out of memory");
            cJSON_Delete(body);
            return 1;
        }
        cJSON_Delete(body);
        int rc = gs_puzzle_wallpushers.solve(inst, &lim, &res, &err);
        gs_puzzle_wallpushers.free(inst);
        if (rc) {
            printf("solve failed: %s\n", err.detail);
            return 1;
        }
        printf("start (%2d,%2d): %-10s %3zd moves %9.1f ms %9llu expanded "
               "%6.0f expanded/ms\n",
               k, k,
               res.status == GS_SOLVED       ? "solved"
               : res.status == GS_IMPOSSIBLE ? "impossible"
                                             : "limit",
               res.status == GS_SOLVED ? (ssize_t)res.steps : -1,
               res.elapsed_ms, (unsigned long long)res.expanded,
               res.elapsed_ms > 0 ? (double)res.expanded / res.elapsed_ms
                                  : 0.0);
        double ms = res.elapsed_ms;
        enum gs_status st = res.status;
        gs_result_free(&res);
        if (ms > SLOW_MS || st == GS_LIMIT)
            break;
    }
    return 0;
}
