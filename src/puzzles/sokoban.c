/* sokoban.c - placeholder until the solver lands: every call reports
 * "not implemented" as an internal error. */
#include "gridsolve/puzzle.h"

static int sokoban_parse_json(const cJSON *body, const gs_caps *caps, void **inst,
                      gs_error *err)
{
    *inst = NULL;
    return gs_error_set(err, GS_EINTERNAL, "sokoban is not implemented yet");
}

static int sokoban_parse_text(gs_text *in, const gs_caps *caps, void **inst,
                      gs_error *err)
{
    *inst = NULL;
    return gs_error_set(err, GS_EINTERNAL, "sokoban is not implemented yet");
}

static void sokoban_format_text(const void *inst, const gs_result *res, int index,
                        gs_buf *out)
{
    gs_buf_puts(out, "limit\n");
}

static int sokoban_solve(void *inst, const gs_limits *lim, gs_result *res,
                 gs_error *err)
{
    return gs_error_set(err, GS_EINTERNAL, "sokoban is not implemented yet");
}

static void sokoban_free(void *inst)
{
}

const gs_puzzle gs_puzzle_sokoban = {
    .name = "sokoban",
    .summary = "not implemented yet",
    .options = "{}",
    .example = "{}",
    .parse_json = sokoban_parse_json,
    .parse_text = sokoban_parse_text,
    .format_text = sokoban_format_text,
    .solve = sokoban_solve,
    .free = sokoban_free,
};
