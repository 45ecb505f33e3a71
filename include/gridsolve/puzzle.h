/* puzzle.h - the one interface every puzzle implements.
 *
 * A puzzle is a const gs_puzzle in its own file under src/puzzles/ plus one
 * line in src/core/registry.c. Nothing outside those files knows a puzzle
 * by name: the HTTP layer and the CLI look puzzles up in the registry.
 */
#ifndef GRIDSOLVE_PUZZLE_H
#define GRIDSOLVE_PUZZLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gridsolve/cjson.h"

#include "gridsolve/buf.h"
#include "gridsolve/error.h"
#include "gridsolve/search.h"
#include "gridsolve/text.h"

/* Configured maxima for instance sizes (422 above them). */
typedef struct gs_caps {
    uint64_t max_cells; /* rows * cols of any grid */
} gs_caps;

typedef struct gs_puzzle {
    const char *name;    /* URL segment: /solve/<name> */
    const char *summary; /* one line for GET /puzzles */
    const char *options; /* JSON object text: option name -> description */
    const char *example; /* JSON text of an example request body */
    bool reports_pushes; /* response carries "pushes" */

    /* The top-level fields a JSON body may hold, NULL-terminated ("limits"
     * is accepted for every puzzle by the service). Any other field is a
     * 400 that names it. NULL: not checked. */
    const char *const *fields;

    /* One line on the judge text input, for `gridsolve solve --help`. */
    const char *text_format;

    /* Judge text mode's query parameters beyond the common timeout_ms and
     * max_states, NULL-terminated; NULL: none. */
    const char *const *text_options;

    /* The judge text notations `format` (query parameter, CLI --format)
     * may name, NULL-terminated; NULL: one notation and no `format`. */
    const char *const *text_formats;

    /* Builds an instance from a JSON body. 400 (GS_EBADREQ) for missing or
     * mistyped fields, 422 (GS_EINVALID) for an invalid puzzle. */
    int (*parse_json)(const cJSON *body, const gs_caps *caps, void **inst,
                      gs_error *err);

    /* Reads the next case of the classic judge text. Returns 1 with *inst
     * set, 0 at the end of input (terminator line or EOF), or an error. */
    int (*parse_text)(gs_text *in, const gs_caps *caps, void **inst,
                      gs_error *err);

    /* Appends the judge output line (with '\n') for case `index` (1-based)
     * for any result status; a limit prints "limit" in the case's format. */
    void (*format_text)(const void *inst, const gs_result *res, int index,
                        gs_buf *out);

    /* Solves for the minimum steps within lim. Returns GS_OK with res
     * filled (solved/impossible/limit) or an error (GS_ENOMEM, ...). */
    int (*solve)(void *inst, const gs_limits *lim, gs_result *res,
                 gs_error *err);

    void (*free)(void *inst);
} gs_puzzle;

/* Appends the usual judge output line: `prefix` (may be ""), then the
 * steps (or the moves themselves when print_moves), `impossible`, or
 * "limit", and a newline. Puzzles' format_text build on it. */
void gs_judge_line(gs_buf *out, const gs_result *res, const char *prefix,
                   const char *impossible, bool print_moves);

/* The registry: all puzzles, in a stable order. */
extern const gs_puzzle *const gs_puzzles[];
extern const size_t gs_puzzle_count;

/* Looks a puzzle up by name; NULL when unknown. */
const gs_puzzle *gs_puzzle_find(const char *name, size_t len);

#endif
