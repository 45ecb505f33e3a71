/* macro.c - tunnel macros for `any`'s greedy phase: a box pushed into a
 * one-wide tunnel, with the player in the tunnel behind it, is pushed on
 * until it leaves (Junghanns and Schaeffer's tunnel macro). The pushes in
 * between can only be followed by the same push or a retreat, so one
 * state stands for the whole run. It changes which states are stored, so
 * the search that uses it never claims `impossible` on its own (search.c
 * falls back to the plain search).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sokoban.h"

/* Whether cell c has walls on both sides across direction d. */
static bool walled_across(const sok_ctx *x, int c, int d)
{
    int q = d < 2 ? 2 : 0; /* U D are 0 1; L R are 2 3 */
    return x->nb[c * 4 + q] < 0 && x->nb[c * 4 + q + 1] < 0;
}

int gs_sokoban_tunnel_end(const sok_ctx *x, int b, int to, int d)
{
    /* A goal in the tunnel may be where the box belongs; a run is also
     * bounded by the region's size (no cycle along a straight line, but
     * cheap insurance). */
    for (int steps = 0; steps < x->n; steps++) {
        if (x->goal[to] || !walled_across(x, to, d) ||
            !walled_across(x, b, d))
            return to;
        int next = x->nb[to * 4 + d];
        if (next < 0 || x->occ[next] || x->dead[next])
            return to;
        b = to;
        to = next;
    }
    return to;
}
