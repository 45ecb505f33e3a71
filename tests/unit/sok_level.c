/* sok_level.c - loads small hand-made Sokoban levels for the rule tests
 * (sok_level.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sok_level.h"
#include "suites.h"

void sok_level_load(sok_level *L, const char *const *rows, int n,
                    sok_objective obj)
{
    for (int r = 0; r < n; r++) /* see sok_level_cell */
        ck_assert_uint_eq(strlen(rows[r]), strlen(rows[0]));
    L->g = sok_level_build(rows, n);
    L->g->objective = obj;
    gs_error err = {0};
    gs_limits lim = {0};
    ck_assert_int_eq(gs_sokoban_ctx_init(&L->x, L->g, &lim, &err), GS_OK);
    sok_ctx *x = &L->x;
    memcpy(x->boxes, x->start_boxes, sizeof *x->boxes * (size_t)x->nboxes);
    gs_sokoban_occ_set(x, x->boxes, 1);
}

void sok_level_free(sok_level *L)
{
    gs_sokoban_ctx_free(&L->x);
    gs_sokoban_free(L->g);
}

gs_sokoban *sok_level_build(const char *const *rows, int n)
{
    size_t lens[32];
    ck_assert_int_le(n, 32);
    for (int r = 0; r < n; r++)
        lens[r] = strlen(rows[r]);
    gs_sokoban *g;
    gs_error err = {0};
    ck_assert_int_eq(gs_sokoban_build(rows, lens, n, false, NULL, &g, &err),
                     GS_OK);
    return g;
}

void sok_level_solve_with(const char *const *rows, int n, sok_objective obj,
                          const gs_limits *lim, bool learn_always,
                          gs_result *res)
{
    gs_sokoban *g = sok_level_build(rows, n);
    gs_error err = {0};
    g->objective = obj;
    g->learn_always = learn_always;
    gs_limits none = {0};
    gs_result_clear(res);
    ck_assert_int_eq(gs_sokoban_solve(g, lim ? lim : &none, res, &err), GS_OK);
    gs_sokoban_free(g);
}

void sok_level_solve(const char *const *rows, int n, sok_objective obj,
                     gs_result *res)
{
    sok_level_solve_with(rows, n, obj, NULL, false, res);
}

int sok_level_cell(const sok_level *L, int r, int c)
{
    int want = r * L->g->cols + c, k = 0;
    for (int i = 0; i < L->g->rows * L->g->cols; i++) {
        if (L->g->cell[i] & SOK_WALL)
            continue;
        if (i == want)
            return k;
        k++;
    }
    return -1;
}

const char *sok_level_show(const sok_level *L, const uint8_t *occ, int pl)
{
    static char out[4096];
    const gs_sokoban *g = L->g;
    size_t len = 0;
    /* Cells numbered as sok_level_cell numbers them. */
    for (int r = 0, k = 0; r < g->rows && len + g->cols + 5 < sizeof out; r++) {
        len += (size_t)snprintf(out + len, sizeof out - len, "%s\"",
                                r ? ", " : "");
        for (int c = 0; c < g->cols; c++) {
            uint8_t f = g->cell[r * g->cols + c];
            bool goal = f & SOK_GOAL;
            if (f & SOK_WALL) {
                out[len++] = '#';
                continue;
            }
            bool box = k < L->x.n && occ[k];
            out[len++] = k == pl ? (goal ? '+' : '@')
                         : box   ? (goal ? '*' : '$')
                         : goal  ? '.'
                                 : ' ';
            k++;
        }
        out[len++] = '"';
        out[len] = '\0';
    }
    return out;
}
