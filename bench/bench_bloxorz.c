/* bench_bloxorz.c - bloxorz on boards far past the judge's 500x500.
 *
 * Solves open N x N boards corner to corner and with the goal walled off
 * (the whole state space is exhausted) under the service's default limits
 * (20 M states: the bitset search counts them as bytes), printing time,
 * expanded states and peak RSS (the process's so far: the boards run
 * from small to large) beside the board size: the search stays
 * proportional to the board (1.5 bytes per cell of tiles: open, next
 * layer and distance mod 3, plus the 2-bit board and the frontier).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "benches.h"
#include "gridsolve/puzzle.h"
#include "gridsolve/service.h"

extern const gs_puzzle gs_puzzle_bloxorz;

static long peak_rss_mb(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_maxrss / 1024; /* kilobytes on Linux */
}

/* Judge text for an open n x n board: X top-left, O bottom-right, and
 * when `walled` the goal is ringed by holes so no solution exists. */
static char *open_board(int n, int walled, size_t *len)
{
    size_t row = (size_t)n + 1, cap = 32 + row * (size_t)n;
    char *s = malloc(cap);
    if (s == NULL)
        return NULL;
    size_t at = (size_t)snprintf(s, cap, "%d %d\n", n, n);
    for (int r = 0; r < n; r++) {
        char *p = s + at;
        memset(p, '.', (size_t)n);
        p[n] = '\n';
        at += row;
    }
    char *grid = s + (size_t)snprintf(NULL, 0, "%d %d\n", n, n);
    grid[0] = 'X';
    grid[(size_t)(n - 2) * row + (size_t)(n - 2)] = 'O';
    if (walled)
        for (int dr = -1; dr <= 1; dr++)
            for (int dc = -1; dc <= 1; dc++)
                if (dr || dc)
                    grid[(size_t)(n - 2 + dr) * row + (size_t)(n - 2 + dc)] =
                        '#';
    *len = at;
    return s;
}

/* Parses and solves one board; prints one line of figures. */
static int run(int n, int walled)
{
    size_t len;
    char *text = open_board(n, walled, &len);
    if (text == NULL)
        return 1;
    gs_text in;
    gs_text_init(&in, text, len);
    gs_caps caps = {.max_cells = 0};
    void *inst = NULL;
    gs_error err = {0};
    if (gs_puzzle_bloxorz.parse_text(&in, &caps, &inst, &err) != 1) {
        fprintf(stderr, "bloxorz bench: parse: %s\n", err.detail);
        free(text);
        return 1;
    }
    free(text);
    gs_result res;
    gs_result_clear(&res);
    gs_solve_opts o;
    gs_solve_opts_default(&o);
    gs_limits lim = {.max_states = o.max_states,
                     .max_bytes = o.max_solve_bytes,
                     .deadline_ns = gs_deadline_after_ms(o.timeout_ms)};
    int64_t t0 = gs_now_ns();
    int rc = gs_puzzle_bloxorz.solve(inst, &lim, &res, &err);
    double ms = (double)(gs_now_ns() - t0) / 1e6;
    if (rc == GS_OK) {
        char steps[32];
        snprintf(steps, sizeof steps, "%zu", res.steps);
        printf("bloxorz %dx%d %-10s %-10s steps %-6s %8.0f ms  expanded "
               "%9llu  (%.1f M states/s)  peak RSS %ld MB (board %.1f MB, "
               "states %.1f M)\n",
               n, n, walled ? "walled" : "open",
               res.status == GS_SOLVED       ? "solved"
               : res.status == GS_IMPOSSIBLE ? "impossible"
                                             : "limit",
               res.status == GS_SOLVED ? steps : "-", ms,
               (unsigned long long)res.expanded,
               (double)res.expanded / (ms * 1e3), peak_rss_mb(),
               (double)n * n / (1 << 20), 3.0 * n * n / 1e6);
    } else {
        fprintf(stderr, "bloxorz bench: solve: %s\n", err.detail);
    }
    fflush(stdout);
    gs_result_free(&res);
    gs_puzzle_bloxorz.free(inst);
    return rc != GS_OK;
}

int gs_bench_bloxorz(void)
{
    int failed = 0;
    printf("target: boards of at least 4096x4096 in memory proportional to "
           "the board, under the default limits\n");
    static const int sizes[] = {500, 1024, 2048, 4096};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        failed |= run(sizes[i], 0);
    failed |= run(4096, 1);
    return failed;
}
