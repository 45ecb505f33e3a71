/* curling.c - placeholder until the solver lands: every call reports
 * "not implemented" as an internal error. */
#include "gridsolve/puzzle.h"

static int curling_parse_json(const cJSON *body, const gs_caps *caps, void **inst,
                      gs_error *err)
{
    *inst = NULL;
    return gs_error_set(err, GS_EINTERNAL, "curling is not implemented yet");
}

static int curling_parse_text(gs_text *in, const gs_caps *caps, void **inst,
                      gs_error *err)
{
    *inst = NULL;
    return gs_error_set(err, GS_EINTERNAL, "curling is not implemented yet");
}

static void curling_format_text(const void *inst, const gs_result *res, int index,
                        gs_buf *out)
{
    gs_buf_puts(out, "limit\n");
}

static int curling_solve(void *inst, const gs_limits *lim, gs_result *res,
                 gs_error *err)
{
    return gs_error_set(err, GS_EINTERNAL, "curling is not implemented yet");
}

static void curling_free(void *inst)
{
}

const gs_puzzle gs_puzzle_curling = {
    .name = "curling",
    .summary = "not implemented yet",
    .options = "{}",
    .example = "{}",
    .parse_json = curling_parse_json,
    .parse_text = curling_parse_text,
    .format_text = curling_format_text,
    .solve = curling_solve,
    .free = curling_free,
};
