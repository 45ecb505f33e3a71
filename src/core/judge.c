/* judge.c - the judge output line shared by every puzzle's format_text. */
#include "gridsolve/puzzle.h"

void gs_judge_line(gs_buf *out, const gs_result *res, const char *prefix,
                   const char *impossible, bool print_moves)
{
    gs_buf_puts(out, prefix);
    switch (res->status) {
    case GS_SOLVED:
        if (print_moves)
            gs_buf_puts(out, res->moves ? res->moves : "");
        else
            gs_buf_put_u64(out, res->steps);
        break;
    case GS_IMPOSSIBLE:
        gs_buf_puts(out, impossible);
        break;
    default:
        gs_buf_puts(out, "limit");
        break;
    }
    gs_buf_puts(out, "\n");
}
