/* fuzz_parse.c - libFuzzer harness for one puzzle's parsers.
 *
 * JSON mode: the input is parsed by cJSON and, when it is an object, handed
 * to the puzzle's parse_json. Text mode: the input is judge text, read case
 * by case with parse_text. Every instance that parses is solved with a tiny
 * state cap and deadline (so solver set-up meets odd but valid inputs),
 * solved again with larger limits when it finished, formatted as a judge
 * line, and freed. Oracles: no crash, leak or UB (sanitizers), a parse
 * error always has a detail, a parse success always yields an instance, a
 * solved result carries steps == strlen(moves), a sokoban answer replays
 * on the parsed level (sokoban_replay), and the second solve agrees with
 * the first (solve_again).
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "../src/puzzles/sokoban/sokoban.h"
#include "fuzz.h"
#include "gridsolve/mem.h"

static gs_fuzz_target target;
/* A byte of the current input: picks the variant of the second solve. */
static uint8_t variant;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    gs_fuzz_setup(&target);
    return 0;
}

/* Replays a sokoban answer on the parsed level, independently of the
 * solver's own replay (answer.c): every letter one of udlrUDLR, uppercase
 * exactly when it pushes a box onto a free cell, the grid's edge a wall,
 * every box on a goal at the end, and res->pushes the pushes counted. */
static void sokoban_replay(const gs_sokoban *g, const gs_result *res)
{
    size_t n = (size_t)g->rows * (size_t)g->cols;
    uint8_t *cell = malloc(n ? n : 1);
    gs_fuzz_check(cell != NULL, "replay: out of memory");
    memcpy(cell, g->cell, n);
    int player = g->player;
    long pushes = 0;
    static const int dr[] = {-1, 1, 0, 0}, dc[] = {0, 0, -1, 1};
    for (const char *m = res->moves; *m; m++) {
        const char *dirs = "udlrUDLR", *at = strchr(dirs, *m);
        gs_fuzz_check(at != NULL, "sokoban answer: a letter not in udlrUDLR");
        int d = (int)(at - dirs) % 4;
        bool push = at - dirs >= 4;
        int r = player / g->cols + dr[d], c = player % g->cols + dc[d];
        gs_fuzz_check(r >= 0 && r < g->rows && c >= 0 && c < g->cols &&
                          !(cell[r * g->cols + c] & SOK_WALL),
                      "sokoban answer: a step into a wall");
        int t = r * g->cols + c;
        gs_fuzz_check(push == ((cell[t] & SOK_BOX) != 0),
                      "sokoban answer: uppercase not exactly the pushes");
        if (push) {
            int r2 = r + dr[d], c2 = c + dc[d];
            gs_fuzz_check(r2 >= 0 && r2 < g->rows && c2 >= 0 &&
                              c2 < g->cols &&
                              !(cell[r2 * g->cols + c2] & (SOK_WALL | SOK_BOX)),
                          "sokoban answer: a box pushed into a wall or box");
            cell[t] &= (uint8_t)~SOK_BOX;
            cell[r2 * g->cols + c2] |= SOK_BOX;
            pushes++;
        }
        player = t;
    }
    for (size_t i = 0; i < n; i++)
        gs_fuzz_check(!(cell[i] & SOK_BOX) || (cell[i] & SOK_GOAL),
                      "sokoban answer: a box off its goal at the end");
    gs_fuzz_check(pushes == res->pushes, "sokoban answer: pushes miscounted");
    free(cell);
}

/* Solves inst within max_states and ms milliseconds into res; checks what
 * holds of any result (and replays a sokoban answer). Returns the
 * solver's code. */
static int solve_within(void *inst, uint64_t max_states, double ms,
                        gs_result *res)
{
    gs_limits lim = {
        .max_states = max_states,
        .max_bytes = 16u << 20,
        .deadline_ns = gs_deadline_after_ms(ms),
    };
    gs_error err = {0};
    gs_result_clear(res);
    int rc = target.puzzle->solve(inst, &lim, res, &err);
    if (rc == GS_OK && res->status == GS_SOLVED) {
        gs_fuzz_check(res->moves != NULL, "solved without moves");
        gs_fuzz_check(strlen(res->moves) == res->steps,
                      "steps != strlen(moves)");
        if (strcmp(target.puzzle->name, "sokoban") == 0)
            sokoban_replay(inst, res);
    }
    if (rc != GS_OK)
        gs_fuzz_check(rc == GS_ENOMEM || rc == GS_ELIMIT,
                      "solve failed with an unexpected code");
    return rc;
}

/* Sokoban's perimeter table (perim.c, area.c) is built only after
 * SOK_PERIM_TRIGGER states, far past the fuzz cap: the second solve
 * builds it from the first few states, small, with the test knobs of
 * sokoban.h, and sometimes also learns deadlocks whatever the boxes or
 * runs `pushes` as one search. None of them may change the answer. */
static void tune_again(void *inst)
{
    if (strcmp(target.puzzle->name, "sokoban") != 0)
        return;
    gs_sokoban *g = inst;
    g->perim_trigger = 1 + variant % 5;
    g->perim_cap = 1u << 12;
    g->perim_first = 16;
    g->learn_always = variant & 8;
    g->one_search = variant & 16;
}

/* The instance solved again with four times the limits, after a first
 * solve that finished (solved or impossible): a solve must not depend on
 * an earlier one of the same instance (the server's probe runs twice),
 * and larger limits (or tune_again's knobs) must not change the verdict,
 * nor the length of an answer both solves proved minimal. */
static void solve_again(void *inst, const gs_result *first)
{
    gs_result res;
    tune_again(inst);
    int rc = solve_within(inst, 4 * GS_FUZZ_MAX_STATES, 4 * GS_FUZZ_TIMEOUT_MS,
                          &res);
    if (rc == GS_OK && res.status != GS_LIMIT) {
        gs_fuzz_check(res.status == first->status,
                      "solved once, impossible with larger limits (or back)");
        if (res.status == GS_SOLVED && res.optimal && first->optimal) {
            gs_fuzz_check(res.steps == first->steps,
                          "two minimal answers of different lengths");
            gs_fuzz_check(res.pushes == first->pushes,
                          "two minimal answers with different pushes");
        }
    }
    gs_result_free(&res);
}

/* Solves inst with tiny limits, then again (solve_again), and formats its
 * judge line. */
static void tiny_solve(void *inst, int index)
{
    gs_result res;
    int rc = solve_within(inst, GS_FUZZ_MAX_STATES, GS_FUZZ_TIMEOUT_MS, &res);
    if (rc == GS_OK && res.status != GS_LIMIT)
        solve_again(inst, &res);
    if (rc == GS_OK) {
        gs_buf out = GS_BUF_INIT;
        target.puzzle->format_text(inst, &res, index, &out);
        gs_fuzz_check(gs_buf_status(&out) != GS_OK ||
                          (out.len > 0 && out.data[out.len - 1] == '\n'),
                      "judge line does not end in a newline");
        gs_buf_free(&out);
    }
    gs_result_free(&res);
}

static void run_json(const uint8_t *data, size_t size)
{
    gs_caps caps = {.max_cells = GS_FUZZ_MAX_CELLS};
    cJSON *doc = cJSON_ParseWithLength((const char *)data, size);
    if (!doc)
        return;
    void *inst = NULL;
    gs_error err = {0};
    int rc = target.puzzle->parse_json(doc, &caps, &inst, &err);
    cJSON_Delete(doc);
    if (rc == GS_OK) {
        gs_fuzz_check(inst != NULL, "parse_json: GS_OK without an instance");
        tiny_solve(inst, 1);
    } else {
        gs_fuzz_check(err.detail[0] != '\0', "parse_json: error, no detail");
    }
    if (inst)
        target.puzzle->free(inst);
}

static void run_text(const uint8_t *data, size_t size)
{
    gs_caps caps = {.max_cells = GS_FUZZ_MAX_CELLS};
    gs_text t;
    gs_text_init(&t, (const char *)data, size);
    t.format = target.format;
    /* Bounded: each case consumes input, but a bug could loop forever. */
    for (int index = 1; index <= 1000; index++) {
        void *inst = NULL;
        gs_error err = {0};
        int rc = target.puzzle->parse_text(&t, &caps, &inst, &err);
        if (rc == 1) {
            gs_fuzz_check(inst != NULL, "parse_text: 1 without an instance");
            tiny_solve(inst, index);
        } else if (rc < 0) {
            gs_fuzz_check(err.detail[0] != '\0',
                          "parse_text: error, no detail");
        }
        if (inst)
            target.puzzle->free(inst);
        if (rc != 1)
            break;
        t.cases++; /* as the service counts them (parse_cases) */
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t before = gs_mem_used();
    variant = size ? data[size / 2] : 0;
    if (target.text)
        run_text(data, size);
    else
        run_json(data, size);
    /* Every reservation taken for this input must be given back. */
    gs_fuzz_check(gs_mem_used() == before, "memory budget not released");
    return 0;
}
