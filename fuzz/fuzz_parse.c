/* fuzz_parse.c - libFuzzer harness for one puzzle's parsers.
 *
 * JSON mode: the input is parsed by cJSON and, when it is an object, handed
 * to the puzzle's parse_json. Text mode: the input is judge text, read case
 * by case with parse_text. Every instance that parses is solved with a tiny
 * state cap and deadline (so solver set-up meets odd but valid inputs),
 * formatted as a judge line, and freed. Oracles: no crash, leak or UB
 * (sanitizers), a parse error always has a detail, a parse success always
 * yields an instance, a solved result carries steps == strlen(moves).
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fuzz.h"
#include "gridsolve/mem.h"

static gs_fuzz_target target;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    gs_fuzz_setup(&target);
    return 0;
}

/* Solves inst with tiny limits and formats its judge line. */
static void tiny_solve(void *inst, int index)
{
    gs_limits lim = {
        .max_states = GS_FUZZ_MAX_STATES,
        .max_bytes = 16u << 20,
        .deadline_ns = gs_deadline_after_ms(GS_FUZZ_TIMEOUT_MS),
    };
    gs_result res;
    gs_error err = {0};
    gs_result_clear(&res);
    int rc = target.puzzle->solve(inst, &lim, &res, &err);
    if (rc == GS_OK && res.status == GS_SOLVED) {
        gs_fuzz_check(res.moves != NULL, "solved without moves");
        gs_fuzz_check(strlen(res.moves) == res.steps, "steps != strlen(moves)");
    }
    if (rc == GS_OK) {
        gs_buf out = GS_BUF_INIT;
        target.puzzle->format_text(inst, &res, index, &out);
        gs_fuzz_check(gs_buf_status(&out) != GS_OK ||
                          (out.len > 0 && out.data[out.len - 1] == '\n'),
                      "judge line does not end in a newline");
        gs_buf_free(&out);
    } else {
        gs_fuzz_check(rc == GS_ENOMEM || rc == GS_ELIMIT,
                      "solve failed with an unexpected code");
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
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t before = gs_mem_used();
    if (target.text)
        run_text(data, size);
    else
        run_json(data, size);
    /* Every reservation taken for this input must be given back. */
    gs_fuzz_check(gs_mem_used() == before, "memory budget not released");
    return 0;
}
