/* wallpushers.c - placeholder until the solver lands: every call reports
 * "not implemented" as an internal error. */
#include "gridsolve/puzzle.h"

static int wallpushers_parse_json(const cJSON *body, const gs_caps *caps, void **inst,
                      gs_error *err)
{
    *inst = NULL;
    return gs_error_set(err, GS_EINTERNAL, "wallpushers is not implemented yet");
}

static int wallpushers_parse_text(gs_text *in, const gs_caps *caps, void **inst,
                      gs_error *err)
{
    *inst = NULL;
    return gs_error_set(err, GS_EINTERNAL, "wallpushers is not implemented yet");
}

static void wallpushers_format_text(const void *inst, const gs_result *res, int index,
                        gs_buf *out)
{
    gs_buf_puts(out, "limit\n");
}

static int wallpushers_solve(void *inst, const gs_limits *lim, gs_result *res,
                 gs_error *err)
{
    return gs_error_set(err, GS_EINTERNAL, "wallpushers is not implemented yet");
}

static void wallpushers_free(void *inst)
{
}

const gs_puzzle gs_puzzle_wallpushers = {
    .name = "wallpushers",
    .summary = "not implemented yet",
    .options = "{}",
    .example = "{}",
    .parse_json = wallpushers_parse_json,
    .parse_text = wallpushers_parse_text,
    .format_text = wallpushers_format_text,
    .solve = wallpushers_solve,
    .free = wallpushers_free,
};
