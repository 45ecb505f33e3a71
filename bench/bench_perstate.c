/* bench_perstate.c - cost per state of every puzzle on the bench-compare
 * workloads: nanoseconds per state expanded and bytes per state stored.
 *
 * Reads the judge-text inputs that `make bench` generates with
 * bench-gen (fixed seeds) into $GS_BENCH_INPUTS (default
 * build/bench-compare), solves every case under the service's default
 * limits with a progress counter (the core publishes the states stored at
 * each clock read), and prints per puzzle:
 *   - ns/state: solve time over states expanded, summed over the cases;
 *   - B/state: the bytes of the core's state store over the states it
 *     holds, as the core publishes them at the end of the solve, for the
 *     case that stored the most states (the solvers' own tables, such as
 *     the bloxorz board or curling's bounds, are not in it).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "benches.h"
#include "gridsolve/puzzle.h"
#include "gridsolve/service.h"

/* Reads a whole file; NULL when absent. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    gs_buf b = GS_BUF_INIT;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        gs_buf_append(&b, chunk, n);
    fclose(f);
    return gs_buf_status(&b) ? NULL : gs_buf_take(&b, len);
}

typedef struct per_state {
    int cases;
    uint64_t expanded, max_stored, max_bytes;
    double ms;
} per_state;

/* Solves one parsed case, adding to the totals. */
static int solve_case(const gs_puzzle *p, void *inst, per_state *t)
{
    gs_solve_opts o;
    gs_solve_opts_default(&o);
    gs_progress prog = {0};
    gs_limits lim = {.max_states = o.max_states,
                     .max_bytes = o.max_solve_bytes,
                     .deadline_ns = gs_deadline_after_ms(o.timeout_ms),
                     .progress = &prog};
    gs_result res;
    gs_result_clear(&res);
    gs_error err = {0};
    int64_t t0 = gs_now_ns();
    int rc = p->solve(inst, &lim, &res, &err);
    t->ms += (double)(gs_now_ns() - t0) / 1e6;
    if (rc) {
        fprintf(stderr, "%s: %s\n", p->name, err.detail);
        gs_result_free(&res);
        return 1;
    }
    uint64_t stored = atomic_load(&prog.stored);
    t->expanded += res.expanded;
    if (stored > t->max_stored) {
        t->max_stored = stored;
        t->max_bytes = atomic_load(&prog.bytes);
    }
    t->cases++;
    gs_result_free(&res);
    return 0;
}

/* Every case of one workload file. */
static int run(const char *dir, const char *file, const char *puzzle)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.txt", dir, file);
    size_t len;
    char *text = slurp(path, &len);
    if (!text) {
        printf("%-12s (no %s: run `make bench`, which generates it)\n", file,
               path);
        return 0;
    }
    const gs_puzzle *p = gs_puzzle_find(puzzle, strlen(puzzle));
    gs_text in;
    gs_text_init(&in, text, len);
    gs_caps caps = {.max_cells = 0};
    per_state t = {0};
    int failed = 0;
    for (;;) {
        void *inst = NULL;
        gs_error err = {0};
        int rc = p->parse_text(&in, &caps, &inst, &err);
        if (rc <= 0) {
            if (rc < 0) {
                fprintf(stderr, "%s: %s\n", path, err.detail);
                failed = 1;
            }
            break;
        }
        failed |= solve_case(p, inst, &t);
        p->free(inst);
    }
    free(text);
    printf("%-11s %-11s %4d cases %10llu expanded %8.1f ms %7.1f ns/state "
           "%7.2f B/state (store %llu KB, %llu states)\n",
           file, puzzle, t.cases, (unsigned long long)t.expanded, t.ms,
           t.expanded ? t.ms * 1e6 / (double)t.expanded : 0.0,
           t.max_stored ? (double)t.max_bytes / (double)t.max_stored : 0.0,
           (unsigned long long)(t.max_bytes >> 10),
           (unsigned long long)t.max_stored);
    fflush(stdout);
    return failed;
}

int gs_bench_perstate(void)
{
    const char *dir = getenv("GS_BENCH_INPUTS");
    if (!dir)
        dir = "build/bench-compare";
    static const char *const w[][2] = {
        {"wallpushers", "wallpushers"}, {"sokoban", "sokoban"},
        {"holedox", "holedox"},         {"curling", "curling"},
        {"blox-batch", "bloxorz"},      {"blox-big", "bloxorz"},
    };
    int failed = 0;
    for (size_t i = 0; i < sizeof w / sizeof w[0]; i++)
        failed |= run(dir, w[i][0], w[i][1]);
    return failed;
}
