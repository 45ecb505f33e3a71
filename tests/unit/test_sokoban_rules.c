/* test_sokoban_rules.c - the sokoban solver's pruning rules and bound on
 * small hand-made levels, through the solver's internal interface
 * (src/puzzles/sokoban/sokoban.h): each rule where it must fire and where
 * it must not, and the incremental bound against a fresh matching. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "puzzle_check.h"
#include "sok_level.h"
#include "suites.h"

static void rule_load(sok_level *L, const char *const *rows, int n)
{
    sok_level_load(L, rows, n, SOK_MOVES);
}

/* Moves the box at (r0, c0) to (r1, c1) in x->occ only (freeze tests). */
static void shift_box(sok_level *L, int r0, int c0, int r1, int c1)
{
    L->x.occ[sok_level_cell(L, r0, c0)] = 0;
    L->x.occ[sok_level_cell(L, r1, c1)] = 1;
}

/* ---------------------------------------------------------- freeze */

START_TEST(test_freeze_fires)
{
    /* The right box is pushed up beside the other against the top wall:
     * both are blocked on both axes (the wall, each other), off goal.
     * The goal in the top row keeps its squares live, so only the pair
     * makes the deadlock. */
    static const char *const rows[] = {"#######", "# $  .#", "#  $  #",
                                       "#  @ .#", "#######"};
    sok_level L;
    rule_load(&L, rows, 5);
    shift_box(&L, 2, 3, 1, 3);
    ck_assert(gs_sokoban_freeze_deadlock(&L.x, sok_level_cell(&L, 1, 3)));
    sok_level_free(&L);
}
END_TEST

START_TEST(test_freeze_not)
{
    /* The same pair on goals is solved, not dead. */
    static const char *const on_goals[] = {"#######", "# *.  #", "#  $  #",
                                           "#  @ .#", "#######"};
    sok_level L;
    rule_load(&L, on_goals, 5);
    shift_box(&L, 2, 3, 1, 3);
    ck_assert(!gs_sokoban_freeze_deadlock(&L.x, sok_level_cell(&L, 1, 3)));
    sok_level_free(&L);
    /* Against the wall with a gap beside it (the other box rests on its
     * goal in the corner): the pushed box can still slide along the wall
     * to the goals on the right. */
    static const char *const apart[] = {"#######", "#*  ..#", "#  $  #",
                                        "#  @ .#", "#######"};
    rule_load(&L, apart, 5);
    shift_box(&L, 2, 3, 1, 3);
    ck_assert(!gs_sokoban_freeze_deadlock(&L.x, sok_level_cell(&L, 1, 3)));
    sok_level_free(&L);
}
END_TEST

/* ---------------------------------------------------------- PI-corral */

/* Whether the last flood left empty cells out of the player's reach: the
 * must-not-fire cases need a corral that the rule rejects. */
static bool has_corral(const sok_level *L)
{
    for (int c = 0; c < L->x.n; c++)
        if (!L->x.occ[c] && L->x.seen[c] != L->x.gen)
            return true;
    return false;
}

/* Prunes the pushes of the position in x->occ (player on pl) both ways,
 * by floods and off the areas' analysis, checks that they keep the same
 * pushes, and returns the count kept; *before gets the count listed. */
static int prune_both(sok_level *L, int pl, int *before)
{
    sok_ctx *x = &L->x;
    ck_assert(x->zone_ok); /* `any`'s tables */
    int k = gs_sokoban_list_pushes(x, pl);
    struct sok_push listed[4 * 32];
    ck_assert_int_le(k, 4 * 32);
    memcpy(listed, x->pushes, sizeof *listed * (size_t)k);
    int kz = k > 1 ? gs_sokoban_pi_corral_prune(x, k) : k;
    struct sok_push kept[4 * 32];
    memcpy(kept, x->pushes, sizeof *kept * (size_t)kz);
    memcpy(x->pushes, listed, sizeof *listed * (size_t)k);
    gs_sokoban_flood(x, pl); /* the player's region, as expand() has it */
    gs_sokoban_zone_analyse(x, &x->zone);
    int kf = k > 1 ? gs_sokoban_pi_corral_prune_zone(x, &x->zone, pl, k) : k;
    GS_PROP_ASSERT(kf == kz, "%d pushes kept off the areas, %d by floods", kf,
                   kz);
    for (int j = 0; j < kz; j++)
        GS_PROP_ASSERT(
            x->pushes[j].box == kept[j].box && x->pushes[j].dir == kept[j].dir,
            "push %d: box %d dir %d off the areas, box %d dir %d "
            "by floods",
            j, x->pushes[j].box, x->pushes[j].dir, kept[j].box, kept[j].dir);
    *before = k;
    return kz;
}

/* prune_both at the start position. */
static int prune_start(sok_level *L, int *before)
{
    return prune_both(L, L->x.start_player, before);
}

START_TEST(test_pi_corral_fires)
{
    /* Three boxes seal the top room, which holds goals; each can only be
     * pushed up into it, and the player can make all three pushes now.
     * The two pushes of the lower box are dropped. */
    static const char *const rows[] = {"#########", "#  ..   #", "#    .  #",
                                       "##$$$####", "#  @ $ .#", "#       #",
                                       "#########"};
    sok_level L;
    sok_level_load(&L, rows, 7, SOK_ANY);
    int before, after = prune_start(&L, &before);
    ck_assert_int_eq(before, 5);
    ck_assert_int_eq(after, 3);
    for (int j = 0; j < after; j++)
        ck_assert_int_eq(L.x.pushes[j].dir, 0); /* up, into the room */
    sok_level_free(&L);
}
END_TEST

START_TEST(test_pi_corral_not)
{
    sok_level L;
    int before;
    /* The room needs no work: its boxes are on goals, no goal is empty. */
    static const char *const done[] = {"#########", "#       #", "#       #",
                                       "##***####", "#  @ $ .#", "#       #",
                                       "#########"};
    sok_level_load(&L, done, 7, SOK_ANY);
    ck_assert_int_eq(prune_start(&L, &before), before);
    ck_assert(has_corral(&L));
    sok_level_free(&L);
    /* Nor with an empty goal in it when there are goals to spare: no box
     * has to go there (Microban-like levels may have more goals than
     * boxes; pruning here made `any` answer impossible on solvable ones). */
    static const char *const spare[] = {"#########", "#   .   #", "#       #",
                                        "##***####", "#  @ $ .#", "#       #",
                                        "#########"};
    sok_level_load(&L, spare, 7, SOK_ANY);
    ck_assert_int_gt(L.x.ngoals, L.x.nboxes);
    ck_assert_int_eq(prune_start(&L, &before), before);
    ck_assert(has_corral(&L));
    sok_level_free(&L);
    static const char *const tiny[] = {"######", "#@*  #", "#$##.#", "#.####",
                                       "######"};
    gs_result res;
    sok_level_solve(tiny, 5, SOK_ANY, &res);
    ck_assert_int_eq(res.status, GS_SOLVED);
    ck_assert_str_eq(res.moves, "D");
    gs_result_free(&res);
    /* P fails: the middle box cannot be pushed up while a box stands
     * below it, so the room is not a PI-corral. */
    static const char *const blocked[] = {"#########", "#  ..   #", "#    .  #",
                                          "##$$$####", "#  $@$ .#", "#.      #",
                                          "#########"};
    sok_level_load(&L, blocked, 7, SOK_ANY);
    ck_assert_int_eq(prune_start(&L, &before), before);
    ck_assert(has_corral(&L));
    sok_level_free(&L);
    /* I fails: the box under the room's door can also be pushed left or
     * right, along the door, from where the player stands. */
    static const char *const along[] = {"#######", "#  .  #", "###.###",
                                        "#  $  #", "#  @  #", "#######"};
    sok_level_load(&L, along, 6, SOK_ANY);
    ck_assert_int_eq(prune_start(&L, &before), 3);
    ck_assert(has_corral(&L));
    sok_level_free(&L);
}
END_TEST

/* Random positions in a walled room: pruning by floods and off the areas'
 * analysis keep the same pushes, and corrals are pruned often. */
START_TEST(test_pi_corral_zone_same)
{
    static const char *const room[] = {"#########", "#.. #  .#", "#   #   #",
                                       "#.      #", "##  ## .#", "#.      #",
                                       "#########"};
    uint64_t seed = gs_prop_seed(4711);
    int pruned = 0;
    for (int iter = 0, iters = gs_prop_iters(2000); iter < iters; iter++) {
        char buf[7][10];
        const char *rows[7];
        for (int r = 0; r < 7; r++) {
            memcpy(buf[r], room[r], 10);
            rows[r] = buf[r];
        }
        int placed = 0;
        while (placed < 8) { /* 6 boxes, then the player */
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            char *q = &buf[1 + (seed >> 33) % 5][1 + (seed >> 45) % 7];
            if (*q != ' ' && *q != '.')
                continue;
            *q = placed < 6 ? (*q == '.' ? '*' : '$') : (*q == '.' ? '+' : '@');
            placed += placed < 6 ? 1 : 2;
        }
        sok_level L;
        sok_level_load(&L, rows, 7, SOK_ANY);
        gs_prop_note("iter %d: {%s}", iter,
                     sok_level_show(&L, L.x.occ, L.x.start_player));
        int before, after = prune_start(&L, &before);
        pruned += after < before;
        sok_level_free(&L);
    }
    if (!gs_prop_deep())
        ck_assert_int_gt(pruned, 100);
}
END_TEST

/* ---------------------------------------------------------- bound */

START_TEST(test_child_bound_exact)
{
    /* For every push of every position reached by a few random pushes,
     * the incremental bound equals a fresh matching of the child. Both
     * ways of gs_sokoban_child_rows past its one-step shortcut run here:
     * 105 children keep the parent's matching (its duals still optimal)
     * and 68 take a new augmenting path (counted once with a temporary
     * counter). One walk from the start (make check-deep: more). */
    static const char *const rows[] = {"##########", "#  .  .  #", "# $$ $ $ #",
                                       "#  .##.  #", "# $ @  $ #", "#  . . . #",
                                       "##########"};
    uint64_t seed = gs_prop_seed(7);
    int checked = 0;
    for (int walk = 0, walks = gs_prop_iters(1); walk < walks; walk++) {
        sok_level L;
        rule_load(&L, rows, 7);
        sok_ctx *x = &L.x;
        int player = x->start_player;
        for (int step = 0; step < 40; step++) {
            int k = gs_sokoban_list_pushes(x, player);
            if (k == 0)
                break;
            gs_prop_note("walk %d step %d: {%s}", walk, step,
                         sok_level_show(&L, x->occ, player));
            uint32_t hp = gs_sokoban_parent_bound(x, player, x->boxes);
            uint32_t h = gs_sokoban_lower_bound(x, player, x->boxes);
            GS_PROP_ASSERT(hp == h, "parent bound %u, lower bound %u", hp, h);
            /* A fresh seed's walk may strand a box for good: it ends. */
            if (hp == SOK_INF && gs_prop_deep())
                break;
            GS_PROP_ASSERT(hp != SOK_INF, "the walk stranded a box");
            for (int j = 0; j < k; j++) {
                int i = x->pushes[j].box, b = x->boxes[i];
                int to = x->nb[b * 4 + x->pushes[j].dir];
                memcpy(x->child, x->boxes,
                       sizeof *x->child * (size_t)x->nboxes);
                x->child[i] = to;
                /* Sorted order is not needed by the bound itself. */
                uint32_t inc = gs_sokoban_child_bound(x, hp, i, b, to, b);
                uint32_t full = gs_sokoban_lower_bound(x, b, x->child);
                GS_PROP_ASSERT(inc == full,
                               "box %d to %d: child bound %u, fresh %u", b, to,
                               inc, full);
                checked++;
            }
            /* Take a random push. */
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            int j = (int)((seed >> 33) % (uint64_t)k);
            int i = x->pushes[j].box, b = x->boxes[i];
            int to = x->nb[b * 4 + x->pushes[j].dir];
            x->occ[b] = 0;
            x->occ[to] = 1;
            x->boxes[i] = to;
            player = b;
        }
        sok_level_free(&L);
    }
    if (!gs_prop_deep())
        ck_assert_int_gt(checked, 100);
}
END_TEST

/* The fewest pushes that take a box alone from row/column index b to
 * goal index g with the player starting at p, on a level of h rows of w
 * (walls only: '#'), for every g at once: a 0-1 breadth-first search over
 * (box, player) written here, apart from the solver's tables. dist gets
 * one entry per cell index (r * w + c), SOK_GDIST_INF where unreachable. */
static void bf_push_dist(const char *const *rows, int h, int w, int b, int p,
                         uint16_t *dist)
{
    enum { MAXC = 128 };
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    static uint16_t seen[MAXC * MAXC];
    static int dq[2 * MAXC * MAXC];
    ck_assert_int_le(h * w, MAXC);
    int nc = h * w;
    for (int i = 0; i < nc * nc; i++)
        seen[i] = SOK_GDIST_INF;
    for (int i = 0; i < nc; i++)
        dist[i] = SOK_GDIST_INF;
    int head = MAXC * MAXC, tail = head; /* a deque in dq */
    seen[b * nc + p] = 0;
    dq[tail++] = b * nc + p;
    while (head < tail) {
        int s = dq[head++], bb = s / nc, pp = s % nc;
        uint16_t d = seen[s];
        if (d < dist[bb])
            dist[bb] = d;
        for (int k = 0; k < 4; k++) {
            int r = pp / w + dr[k], c = pp % w + dc[k];
            if (r < 0 || r >= h || c < 0 || c >= w || rows[r][c] == '#')
                continue;
            int np = r * w + c, nb = bb, nd = d;
            if (np == bb) { /* a push */
                int r2 = r + dr[k], c2 = c + dc[k];
                if (r2 < 0 || r2 >= h || c2 < 0 || c2 >= w ||
                    rows[r2][c2] == '#')
                    continue;
                nb = r2 * w + c2;
                nd = d + 1;
            }
            int ns = nb * nc + np;
            if (seen[ns] <= nd)
                continue;
            seen[ns] = (uint16_t)nd;
            if (nd == d)
                dq[--head] = ns; /* a walk costs nothing: the front */
            else
                dq[tail++] = ns;
        }
    }
}

/* The solver's push distances (x->gdist through the player's group of
 * sides, x->plab) against bf_push_dist, for every box cell, player cell
 * and goal of two levels: the matching tests below take them as given. */
START_TEST(test_push_distances_brute_force)
{
    static const char *const ROOMS[] = {
        "##########", "#  .  .  #", "# $$ $ $ #", "#  .##.  #",
        "# $ @  $ #", "#  . . . #", "##########"};
    static const char *const PILLARS[] = {"########", "#. #   #", "#  $ # #",
                                          "## #$  #", "#   @. #", "########"};
    struct {
        const char *const *rows;
        int h;
    } lv[] = {{ROOMS, 7}, {PILLARS, 6}};
    uint16_t dist[128];
    int finite = 0, infinite = 0;
    for (size_t v = 0; v < sizeof lv / sizeof lv[0]; v++) {
        const char *const *rows = lv[v].rows;
        int h = lv[v].h, w = (int)strlen(rows[0]);
        sok_level L;
        rule_load(&L, rows, h);
        sok_ctx *x = &L.x;
        ck_assert_ptr_nonnull(x->gdist);
        for (int b = 0; b < h * w; b++) {
            int cb = sok_level_cell(&L, b / w, b % w);
            if (cb < 0)
                continue;
            for (int p = 0; p < h * w; p++) {
                int cp = sok_level_cell(&L, p / w, p % w);
                if (cp < 0 || cp == cb)
                    continue;
                bf_push_dist(rows, h, w, b, p, dist);
                size_t k = x->plab
                               ? x->plab[(size_t)cb * (size_t)x->n + (size_t)cp]
                               : 4;
                const uint16_t *row = x->gdist + ((size_t)cb * SOK_GROUPS + k) *
                                                     (size_t)x->ngoals;
                for (int j = 0; j < x->ngoals; j++) {
                    int g = -1;
                    for (int c = 0; c < h * w && g < 0; c++)
                        if (sok_level_cell(&L, c / w, c % w) == x->goals[j])
                            g = c;
                    ck_assert_int_ge(g, 0);
                    ck_assert_uint_eq(row[j], dist[g]);
                    if (dist[g] == SOK_GDIST_INF)
                        infinite++;
                    else
                        finite++;
                }
            }
        }
        sok_level_free(&L);
    }
    ck_assert_int_gt(finite, 4000);
    ck_assert_int_gt(infinite,
                     4000); /* dead cells, sides the player cannot reach */
}
END_TEST

/* The smallest sum of x's distance rows over every way of giving boxes
 * i..nboxes-1 distinct goals not in `used` (a plain recursion). */
static uint32_t brute_match(const sok_ctx *x, int player, const int32_t *boxes,
                            int i, uint32_t used)
{
    if (i == x->nboxes)
        return 0;
    size_t k =
        x->plab ? x->plab[(size_t)boxes[i] * (size_t)x->n + (size_t)player] : 4;
    const uint16_t *row =
        x->gdist + ((size_t)boxes[i] * SOK_GROUPS + k) * (size_t)x->ngoals;
    uint32_t best = SOK_INF;
    for (int j = 0; j < x->ngoals; j++) {
        if ((used >> j & 1) || row[j] == SOK_GDIST_INF)
            continue;
        uint32_t rest = brute_match(x, player, boxes, i + 1, used | 1u << j);
        if (rest != SOK_INF && row[j] + rest < best)
            best = row[j] + rest;
    }
    return best;
}

/* The matching tests' level: 5 boxes, 6 goals, a dead corner. */
static const char *const MATCH_ROWS[] = {"#########", "#.  .   #", "# $$$ $ #",
                                         "#. ## . #", "#  $   .#", "#.  @   #",
                                         "#########"};

/* A cell x->occ leaves free, drawn from *seed. */
static int random_free_cell(const sok_ctx *x, uint64_t *seed)
{
    int c;
    do {
        *seed = *seed * 6364136223846793005ull + 1442695040888963407ull;
        c = (int)((*seed >> 33) % (uint64_t)x->n);
    } while (x->occ[c]);
    return c;
}

START_TEST(test_matching_brute_force)
{
    /* The matching (from its seed of nearest goals, then augmenting
     * paths) against every assignment, on random placements of 5 boxes
     * over 6 goals: boxes often share a nearest goal, some sit on goals,
     * some cannot reach a goal at all (a dead corner). */
    sok_level L;
    rule_load(&L, MATCH_ROWS, 7);
    sok_ctx *x = &L.x;
    ck_assert_int_eq(x->nboxes, 5);
    ck_assert_int_eq(x->ngoals, 6);
    uint64_t seed = gs_prop_seed(11);
    int shared = 0, unreachable = 0;
    for (int t = 0, trials = gs_prop_iters(2000); t < trials; t++) {
        int32_t boxes[5];
        int player = -1;
        memset(x->occ, 0, (size_t)x->n);
        for (int i = 0; i <= 5; i++) {
            int c = random_free_cell(x, &seed);
            x->occ[c] = 1;
            if (i < 5)
                boxes[i] = c;
            else
                player = c;
        }
        gs_prop_note("trial %d: {%s}", t, sok_level_show(&L, x->occ, player));
        uint32_t want = brute_match(x, player, boxes, 0, 0);
        uint32_t lower = gs_sokoban_lower_bound(x, player, boxes);
        GS_PROP_ASSERT(lower == want, "lower bound %u, every assignment %u",
                       lower, want);
        uint32_t parent = gs_sokoban_parent_bound(x, player, boxes);
        GS_PROP_ASSERT(parent == want, "parent bound %u, every assignment %u",
                       parent, want);
        unreachable += want == SOK_INF;
        int near[5];
        for (int i = 0; i < 5; i++) {
            near[i] = 0;
            for (int j = 1; j < x->ngoals; j++)
                if (x->prow[i][j] < x->prow[i][near[i]])
                    near[i] = j;
            for (int h = 0; h < i; h++)
                shared += near[h] == near[i];
        }
    }
    /* Both cases the seed must handle came up. */
    if (!gs_prop_deep()) {
        ck_assert_int_gt(shared, 100);
        ck_assert_int_gt(unreachable, 10);
    }
    sok_level_free(&L);
}
END_TEST

START_TEST(test_matching_warm)
{
    /* gs_sokoban_parent_bound keeps the last matching and puts back only
     * the rows that changed (one box moved, or the player gone round):
     * along a random walk of one or two boxes at a time, and now and then
     * all of them, it stays the least assignment. */
    sok_level L;
    rule_load(&L, MATCH_ROWS, 7);
    sok_ctx *x = &L.x;
    uint64_t seed = gs_prop_seed(29);
    int32_t boxes[5];
    int player = x->start_player, matched = 0;
    memcpy(boxes, x->start_boxes, sizeof boxes);
    memset(x->occ, 0, (size_t)x->n);
    for (int t = 0, trials = gs_prop_iters(3000); t < trials; t++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        int moves = (int)(seed >> 60) % 8 == 0 ? 6 : 1 + (int)(seed >> 40) % 2;
        for (int m = 0; m < moves; m++) {
            /* A box (or, once in six, the player) to a random free cell. */
            for (int i = 0; i < 5; i++)
                x->occ[boxes[i]] = 1;
            x->occ[player] = 1;
            int c = random_free_cell(x, &seed);
            int which = (int)((seed >> 20) % 6);
            if (which == 5)
                player = c;
            else
                boxes[which] = c;
            memset(x->occ, 0, (size_t)x->n);
        }
        gs_prop_note("trial %d: boxes on cells %d %d %d %d %d, player on %d", t,
                     boxes[0], boxes[1], boxes[2], boxes[3], boxes[4], player);
        uint32_t want = brute_match(x, player, boxes, 0, 0);
        uint32_t parent = gs_sokoban_parent_bound(x, player, boxes);
        GS_PROP_ASSERT(parent == want, "parent bound %u, every assignment %u",
                       parent, want);
        matched += x->sq_ok;
    }
    /* The matching (not the distinct nearest goals) decided most. */
    if (!gs_prop_deep())
        ck_assert_int_gt(matched, 1000);
    sok_level_free(&L);
}
END_TEST

START_TEST(test_player_side_fires)
{
    /* A one-wide corridor: the player is right of the box and cannot get
     * round it, so the goal on the right is out of reach (the relaxed
     * distance would say 3). With the player on the left it is 3. */
    static const char *const rows[] = {"#########", "#   $@ .#", "#########"};
    sok_level L;
    rule_load(&L, rows, 3);
    sok_ctx *x = &L.x;
    ck_assert_ptr_nonnull(x->gdist);
    ck_assert_uint_eq(gs_sokoban_lower_bound(x, x->start_player, x->boxes),
                      SOK_INF);
    ck_assert_uint_eq(
        gs_sokoban_lower_bound(x, sok_level_cell(&L, 1, 1), x->boxes), 3);
    /* The box's cell itself stays live: from the left it gets there. */
    ck_assert(!x->dead[sok_level_cell(&L, 1, 4)]);
    sok_level_free(&L);
}
END_TEST

START_TEST(test_player_side_not)
{
    /* The same corridor with a way round below: the player reaches the
     * box's left side, and the bound is the 3 pushes. */
    static const char *const rows[] = {"#########", "#   $@ .#", "# ##### #",
                                       "#       #", "#########"};
    sok_level L;
    rule_load(&L, rows, 5);
    sok_ctx *x = &L.x;
    ck_assert_uint_eq(gs_sokoban_lower_bound(x, x->start_player, x->boxes), 3);
    sok_level_free(&L);
}
END_TEST

/* --------------------------------------------------- packing order */

/* The layer of the goal at row r, column c. */
static int layer_of(const sok_level *L, int r, int c)
{
    return L->x.glayer[L->x.gindex[sok_level_cell(L, r, c)]];
}

START_TEST(test_pack_order_fires)
{
    /* A dead-end goal corridor: the goal at its mouth comes out first in
     * the retrograde sweep, the one at the end last, so a box parked at
     * the mouth while the end is empty is out of order. */
    static const char *const rows[] = {"########", "#...$ @#", "####$  #",
                                       "####$  #", "########"};
    sok_level L;
    sok_level_load(&L, rows, 5, SOK_ANY);
    sok_ctx *x = &L.x;
    ck_assert_int_eq(x->pack_layers, 3);
    ck_assert_int_eq(layer_of(&L, 1, 3), 0);
    ck_assert_int_eq(layer_of(&L, 1, 2), 1);
    ck_assert_int_eq(layer_of(&L, 1, 1), 2);
    int32_t mouth[3] = {sok_level_cell(&L, 1, 3), sok_level_cell(&L, 2, 4),
                        sok_level_cell(&L, 3, 4)};
    ck_assert_uint_eq(gs_sokoban_pack_penalty(x, mouth), 1);
    int32_t inside[3] = {sok_level_cell(&L, 1, 1), sok_level_cell(&L, 2, 4),
                         sok_level_cell(&L, 3, 4)};
    ck_assert_uint_eq(gs_sokoban_pack_penalty(x, inside), 0);
    int32_t two[3] = {sok_level_cell(&L, 1, 1), sok_level_cell(&L, 1, 2),
                      sok_level_cell(&L, 3, 4)};
    ck_assert_uint_eq(gs_sokoban_pack_penalty(x, two), 0);
    /* The scratch marks are left clear for the next call. */
    for (int i = 0; i < x->ngoals; i++)
        ck_assert_uint_eq(x->pmark[i], 0);
    sok_level_free(&L);
}
END_TEST

/* gs_sokoban_pack_child (one box moved off the counts of
 * gs_sokoban_pack_parent) equals gs_sokoban_pack_penalty of the child,
 * over random placements and moves on a level of several goal rooms. */
START_TEST(test_pack_child)
{
    static const char *const rows[] = {"##########", "#....  $ #",
                                       "####.# $ #", "#..  $ @ #",
                                       "#.## $ $ #", "##########"};
    sok_level L;
    sok_level_load(&L, rows, (int)(sizeof rows / sizeof *rows), SOK_ANY);
    sok_ctx *x = &L.x;
    ck_assert_int_ge(x->pack_layers, 3);
    uint32_t seed = (uint32_t)gs_prop_seed(99);
    int32_t boxes[5], child[5];
    int nonzero = 0;
    for (int round = 0, rounds = gs_prop_iters(3000); round < rounds; round++) {
        /* nboxes distinct cells, then one of them moved to a free one. */
        for (int i = 0; i < x->nboxes; i++) {
            bool again;
            do {
                seed = seed * 1103515245u + 12345u;
                boxes[i] = (int32_t)((seed >> 8) % (uint32_t)x->n);
                again = false;
                for (int j = 0; j < i; j++)
                    again |= boxes[j] == boxes[i];
            } while (again);
        }
        seed = seed * 1103515245u + 12345u;
        int k = (int)((seed >> 8) % (uint32_t)x->nboxes), to;
        bool taken;
        do {
            seed = seed * 1103515245u + 12345u;
            to = (int)((seed >> 8) % (uint32_t)x->n);
            taken = false;
            for (int j = 0; j < x->nboxes; j++)
                taken |= boxes[j] == to;
        } while (taken);
        memcpy(child, boxes, sizeof boxes);
        child[k] = to;
        gs_prop_note("round %d: boxes on cells %d %d %d %d %d, box %d to %d",
                     round, boxes[0], boxes[1], boxes[2], boxes[3], boxes[4], k,
                     to);
        gs_sokoban_pack_parent(x, boxes);
        uint32_t want = gs_sokoban_pack_penalty(x, child);
        uint32_t got = gs_sokoban_pack_child(x, boxes[k], to);
        GS_PROP_ASSERT(got == want, "pack_child %u, pack_penalty %u", got,
                       want);
        nonzero += want > 0;
    }
    if (!gs_prop_deep())
        ck_assert_int_gt(nonzero, 100);
    sok_level_free(&L);
}
END_TEST

START_TEST(test_pack_order_not)
{
    /* Goals in the open: each can be pulled off from outside at once, so
     * there is one layer and no penalty anywhere; the exact objectives
     * have no packing tables at all. */
    static const char *const rows[] = {"#######", "#. . .#", "#  $$ #",
                                       "# $ @ #", "#######"};
    sok_level L;
    sok_level_load(&L, rows, 5, SOK_ANY);
    ck_assert_int_le(L.x.pack_layers, 1);
    int32_t some[3] = {sok_level_cell(&L, 1, 1), sok_level_cell(&L, 2, 3),
                       sok_level_cell(&L, 2, 4)};
    ck_assert_uint_eq(gs_sokoban_pack_penalty(&L.x, some), 0);
    sok_level_free(&L);
    rule_load(&L, rows, 5);
    ck_assert_ptr_null(L.x.glayer);
    ck_assert_int_eq(L.x.pack_layers, 0);
    sok_level_free(&L);
}
END_TEST

/* ---------------------------------------------------- tunnel macros */

/* Where the tunnel macro (corridor: the exact searches' corridor macro)
 * takes the box at (r, c) pushed in direction d (U D L R = 0 1 2 3) by a
 * player behind it. */
static int macro_from(sok_level *L, int r, int c, int d, bool corridor)
{
    sok_ctx *x = &L->x;
    int b = sok_level_cell(L, r, c), to = x->nb[b * 4 + d];
    x->occ[b] = 0;
    x->occ[to] = 1;
    int end = corridor ? gs_sokoban_corridor_end(x, to, d)
                       : gs_sokoban_tunnel_end(x, b, to, d);
    x->occ[to] = 0;
    x->occ[b] = 1;
    return end;
}

START_TEST(test_tunnel_fires)
{
    /* A one-wide corridor: the box goes on to the goal at its end. */
    static const char *const rows[] = {"########", "#@$   .#", "########"};
    sok_level L;
    sok_level_load(&L, rows, 3, SOK_ANY);
    ck_assert_int_eq(macro_from(&L, 1, 2, 3, false), sok_level_cell(&L, 1, 6));
    sok_level_free(&L);
    /* A tunnel between two rooms: the box leaves it and stops on the
     * first cell of the far room (not walled across). */
    static const char *const rooms[] = {"###########", "#  #####  #",
                                        "# @$     .#", "#  #####  #",
                                        "###########"};
    sok_level_load(&L, rooms, 5, SOK_ANY);
    ck_assert_int_eq(macro_from(&L, 2, 3, 3, false), sok_level_cell(&L, 2, 8));
    sok_level_free(&L);
    /* The whole solve: one state for the run, every push in the answer. */
    gs_result res;
    sok_level_solve(rows, 3, SOK_ANY, &res);
    ck_assert_int_eq(res.status, GS_SOLVED);
    ck_assert_str_eq(res.moves, "RRRR");
    ck_assert_int_eq(res.pushes, 4);
    gs_result_free(&res);
}
END_TEST

START_TEST(test_tunnel_not)
{
    sok_level L;
    /* In the open the push is a single push. */
    static const char *const open[] = {"#######", "#     #", "#@$  .#",
                                       "#     #", "#######"};
    sok_level_load(&L, open, 5, SOK_ANY);
    ck_assert_int_eq(macro_from(&L, 2, 2, 3, false), sok_level_cell(&L, 2, 3));
    sok_level_free(&L);
    /* A goal inside the tunnel stops the run on it; a box in the tunnel
     * stops it in front of that box. */
    static const char *const goal[] = {"########", "#@$ . .#", "########"};
    sok_level_load(&L, goal, 3, SOK_ANY);
    ck_assert_int_eq(macro_from(&L, 1, 2, 3, false), sok_level_cell(&L, 1, 4));
    sok_level_free(&L);
    static const char *const box[] = {"##########", "#@$  $ ..#", "##########"};
    sok_level_load(&L, box, 3, SOK_ANY);
    ck_assert_int_eq(macro_from(&L, 1, 2, 3, false), sok_level_cell(&L, 1, 4));
    sok_level_free(&L);
    /* The box enters a tunnel but the player behind it stands in the
     * open: no macro. */
    static const char *const mouth[] = {"########", "#   ####", "# @$  .#",
                                        "#   ####", "########"};
    sok_level_load(&L, mouth, 5, SOK_ANY);
    ck_assert_int_eq(macro_from(&L, 2, 3, 3, false), sok_level_cell(&L, 2, 4));
    sok_level_free(&L);
}
END_TEST

/* --------------------------------------------------- corridor macros */

/* Three goals at the foot of a one-wide dead end below a room. */
static const char *const DEAD_END[] = {"#######", "#  @  #", "# $$$ #",
                                       "#     #", "###.###", "###.###",
                                       "###.###", "#######"};

START_TEST(test_corridor_fires)
{
    sok_level L;
    rule_load(&L, DEAD_END, 8);
    /* The first box in goes to the deepest goal... */
    shift_box(&L, 2, 3, 3, 3);
    ck_assert_int_eq(macro_from(&L, 3, 3, 1, true), sok_level_cell(&L, 6, 3));
    /* ...the next one to the deepest goal left free. */
    shift_box(&L, 3, 3, 6, 3);
    shift_box(&L, 2, 2, 3, 3);
    ck_assert_int_eq(macro_from(&L, 3, 3, 1, true), sok_level_cell(&L, 5, 3));
    sok_level_free(&L);
    /* Both exact objectives still find the optimum the searches without
     * the macro find (fewer states). */
    for (int obj = SOK_MOVES; obj <= SOK_PUSHES; obj++) {
        gs_result with, without;
        sok_level_solve(DEAD_END, 8, (sok_objective)obj, &with);
        gs_sokoban *g = sok_level_build(DEAD_END, 8);
        g->objective = (sok_objective)obj;
        g->no_corridors = true;
        gs_error err = {0};
        gs_limits none = {0};
        gs_result_clear(&without);
        ck_assert_int_eq(gs_sokoban_solve(g, &none, &without, &err), GS_OK);
        gs_sokoban_free(g);
        ck_assert_int_eq(with.status, GS_SOLVED);
        ck_assert_uint_eq(with.steps, without.steps);
        ck_assert_int_eq(with.pushes, without.pushes);
        ck_assert_uint_lt(with.expanded, without.expanded);
        gs_result_free(&with);
        gs_result_free(&without);
    }
}
END_TEST

START_TEST(test_corridor_not)
{
    sok_level L;
    /* The last goal free is the first cell in: the box stays there. */
    rule_load(&L, DEAD_END, 8);
    shift_box(&L, 2, 2, 6, 3);
    shift_box(&L, 2, 3, 5, 3);
    shift_box(&L, 2, 4, 3, 3);
    ck_assert_int_eq(macro_from(&L, 3, 3, 1, true), sok_level_cell(&L, 4, 3));
    sok_level_free(&L);
    /* The dead end's one goal is its foot, and no goal short of it is
     * left for a later box: the box's last push may end the solution, so
     * it may stop halfway. Here it must: the other box then passes the
     * mouth to its goal, ending with the player back on the mouth, and
     * the answer is 12 moves (the macro would make it 14). */
    static const char *const last[] = {"#######", "#     #", "#  @  #",
                                       "#.$ $ #", "## ####", "## ####",
                                       "##.####", "#######"};
    rule_load(&L, last, 8);
    ck_assert_int_eq(macro_from(&L, 3, 2, 1, true), sok_level_cell(&L, 4, 2));
    sok_level_free(&L);
    gs_result res;
    sok_level_solve(last, 8, SOK_MOVES, &res);
    ck_assert_int_eq(res.status, GS_SOLVED);
    ck_assert_uint_eq(res.steps, 12);
    gs_result_free(&res);
    /* A goal to spare: none of them has to be filled. */
    static const char *const spare[] = {"#######", "#  @  #", "# $ $ #",
                                        "#     #", "###.###", "###.###",
                                        "###.###", "#######"};
    rule_load(&L, spare, 8);
    shift_box(&L, 2, 2, 3, 3);
    ck_assert_int_eq(macro_from(&L, 3, 3, 1, true), sok_level_cell(&L, 4, 3));
    sok_level_free(&L);
    /* The player's way back out is shut by a box on the mouth. */
    static const char *const shut[] = {"#######", "#     #", "#     #",
                                       "#  $  #", "###@###", "###$###",
                                       "###.###", "###.###", "#######"};
    rule_load(&L, shut, 9);
    ck_assert_int_eq(macro_from(&L, 5, 3, 1, true), sok_level_cell(&L, 6, 3));
    sok_level_free(&L);
    /* A corridor that opens into a room below is no dead end. */
    static const char *const open[] = {"#######", "#  @  #", "#  $  #",
                                       "#     #", "###.###", "###.###",
                                       "#     #", "#######"};
    rule_load(&L, open, 8);
    ck_assert_int_eq(macro_from(&L, 2, 3, 1, true), sok_level_cell(&L, 3, 3));
    shift_box(&L, 2, 3, 3, 3);
    ck_assert_int_eq(macro_from(&L, 3, 3, 1, true), sok_level_cell(&L, 4, 3));
    sok_level_free(&L);
}
END_TEST

/* ---------------------------------------------------- connectivity */

START_TEST(test_regions)
{
    sok_level L;
    /* A wall of boxes shuts the player out of the left part: two areas
     * (the left one, a single area of three cells). */
    static const char *const split[] = {"#######", "# $ . #", "# $ .@#",
                                        "# $ . #", "#######"};
    sok_level_load(&L, split, 5, SOK_ANY);
    gs_sokoban_flood(&L.x, L.x.start_player);
    ck_assert_int_eq(gs_sokoban_regions(&L.x), 2);
    sok_level_free(&L);
    /* With a gap in that wall the player reaches everything: one area. */
    static const char *const gap[] = {"#######", "# $ . #", "#   .@#",
                                      "# $ . #", "#######"};
    sok_level_load(&L, gap, 5, SOK_ANY);
    gs_sokoban_flood(&L.x, L.x.start_player);
    ck_assert_int_eq(gs_sokoban_regions(&L.x), 1);
    sok_level_free(&L);
}
END_TEST

/* ---------------------------------------------------------- perimeter */

/* Loads rows for obj and builds the perimeter table of at most cap
 * positions (`moves`: turned into a slot per position once it holds
 * unpack_at, 0: never in a test's small table). */
static void perim_table(sok_level *L, const char *const *rows, int n,
                        sok_objective obj, size_t cap, size_t unpack_at)
{
    sok_level_load(L, rows, n, obj);
    L->g->perim_cap = cap;
    L->g->perim_unpack_at = unpack_at;
    gs_limits lim = {0};
    ck_assert_int_eq(gs_sokoban_perim_build(&L->x, &lim, cap), GS_OK);
    ck_assert_ptr_nonnull(L->x.perim);
}

/* perim_table, then the start's bound with the table (h: the
 * matching). */
static uint32_t perim_start_bound(sok_level *L, const char *const *rows, int n,
                                  sok_objective obj, size_t cap, uint32_t *h)
{
    perim_table(L, rows, n, obj, cap, 0);
    sok_ctx *x = &L->x;
    gs_sokoban_occ_set(x, x->start_boxes, 1);
    *h = gs_sokoban_lower_bound(x, x->start_player, x->start_boxes);
    return gs_sokoban_perim_bound(x, *h, x->start_player, x->start_boxes);
}

START_TEST(test_perimeter_fires)
{
    /* A walk of 5 and one push: the matching sees the push only; the
     * whole table (moves) knows the 6 moves exactly, the pull table
     * (pushes) the one push. */
    static const char *const walk[] = {"##########", "#@     $.#",
                                       "##########"};
    sok_level L;
    uint32_t h;
    ck_assert_uint_eq(perim_start_bound(&L, walk, 3, SOK_MOVES, 1000, &h), 6);
    ck_assert_uint_eq(h, 1);
    bool complete;
    gs_sokoban_perim_depth(&L.x, &complete);
    ck_assert(complete);
    sok_level_free(&L);
    ck_assert_uint_eq(perim_start_bound(&L, walk, 3, SOK_PUSHES, 1000, &h), 1);
    sok_level_free(&L);
    /* Two boxes in a row in a corridor: neither can ever move, yet the
     * matching is finite. The whole table does not hold the position:
     * dead. */
    static const char *const stuck[] = {"########", "#@$$ ..#", "########"};
    ck_assert_uint_eq(perim_start_bound(&L, stuck, 3, SOK_MOVES, 1000, &h),
                      SOK_INF);
    ck_assert_uint_lt(h, SOK_INF);
    sok_level_free(&L);
}
END_TEST

START_TEST(test_perimeter_not)
{
    /* A table too small to reach the start: the bound rises to its depth
     * + 1 but stays within the 6 moves of the solution, and the table
     * claims nothing dead. */
    static const char *const walk[] = {"##########", "#@     $.#",
                                       "##########"};
    sok_level L;
    uint32_t h;
    uint32_t b = perim_start_bound(&L, walk, 3, SOK_MOVES, 16, &h);
    bool complete;
    uint32_t k = gs_sokoban_perim_depth(&L.x, &complete);
    ck_assert(!complete);
    ck_assert_uint_lt(k, 6);
    ck_assert_uint_ge(b, k + 1);
    ck_assert_uint_gt(b, h);
    ck_assert_uint_le(b, 6);
    sok_level_free(&L);
    /* More goals than boxes: no table (the solved positions are many). */
    static const char *const spare[] = {"##########", "#@     $.#",
                                        "#.      .#", "##########"};
    sok_level_load(&L, spare, 4, SOK_MOVES);
    gs_limits lim = {0};
    ck_assert_int_eq(gs_sokoban_perim_build(&L.x, &lim, 1000), GS_OK);
    ck_assert_ptr_null(L.x.perim);
    sok_level_free(&L);
}
END_TEST

/* The moves table held by box set (a byte per cell for the player's
 * depths) and the same table turned into a slot per position after its
 * first children hold the same depth for every position of a small room,
 * and both, whole, hold none of the dead ones. */
START_TEST(test_perimeter_layouts)
{
    static const char *const room[] = {"#######", "#  .  #", "# $ $ #",
                                       "#. @  #", "#######"};
    sok_level S, P;
    perim_table(&S, room, 5, SOK_MOVES, 1u << 16, 0);
    perim_table(&P, room, 5, SOK_MOVES, 1u << 16, 1);
    bool complete;
    gs_sokoban_perim_depth(&S.x, &complete);
    ck_assert(complete);
    gs_sokoban_perim_depth(&P.x, &complete);
    ck_assert(complete);
    int n = S.x.n, held = 0, dead = 0;
    ck_assert_int_eq(S.x.nboxes, 2);
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            for (int p = 0; p < n; p++) {
                if (p == a || p == b)
                    continue;
                int32_t boxes[2] = {a, b};
                uint32_t ds = gs_sokoban_perim_bound(&S.x, 0, p, boxes);
                uint32_t dp = gs_sokoban_perim_bound(&P.x, 0, p, boxes);
                ck_assert_uint_eq(ds, dp);
                held += ds != SOK_INF;
                dead += ds == SOK_INF;
            }
    ck_assert_int_gt(held, 100);
    ck_assert_int_gt(dead, 100);
    sok_level_free(&S);
    sok_level_free(&P);
}
END_TEST

/* Solves rows for obj with the perimeter table built in one round of at
 * most cap positions once the search stores `trigger` states (0: no
 * table); returns the bytes of the solver's tables at the end. */
static uint64_t perim_solve_tables(const char *const *rows, int n,
                                   sok_objective obj, uint64_t trigger,
                                   size_t cap, gs_result *res)
{
    sok_level L;
    sok_level_load(&L, rows, n, obj);
    L.g->perim_trigger = trigger ? trigger : UINT64_MAX;
    L.g->perim_cap = cap;
    L.g->perim_first = cap;
    gs_limits lim = {0};
    gs_sokoban_stats st = {0};
    gs_error err = {0};
    gs_result_clear(res);
    ck_assert_int_eq(gs_sokoban_solve_stats(L.g, &lim, res, &st, &err), GS_OK);
    sok_level_free(&L);
    return st.table_bytes;
}

/* A position of a box set more than 254 steps past the set's first one
 * does not fit its byte: the moves table ends at the layer before, and
 * the search still finds the 259 moves (a walk of 258, one push). */
START_TEST(test_perimeter_offset_limit)
{
    static char mid[264];
    memset(mid, ' ', sizeof mid - 1);
    mid[0] = '#';
    mid[1] = '@';
    mid[260] = '$';
    mid[261] = '.';
    mid[262] = '#';
    char wall[264];
    memset(wall, '#', sizeof wall - 1);
    wall[263] = 0;
    const char *const rows[] = {wall, mid, wall};
    sok_level L;
    uint32_t h;
    uint32_t b = perim_start_bound(&L, rows, 3, SOK_MOVES, 1u << 20, &h);
    ck_assert_int_eq(L.x.w, 2);
    bool complete;
    ck_assert_uint_eq(gs_sokoban_perim_depth(&L.x, &complete), 255);
    ck_assert(!complete);
    ck_assert_uint_ge(b, 256);
    ck_assert_uint_le(b, 259);
    sok_level_free(&L);
    gs_result res;
    perim_solve_tables(rows, 3, SOK_MOVES, 1, 1u << 20, &res);
    ck_assert_int_eq(res.status, GS_SOLVED);
    ck_assert_uint_eq(res.steps, 259);
    ck_assert(res.optimal);
    gs_result_free(&res);
}
END_TEST

/* Microban I level 5: the fewest pushes are 6 (27 moves), the fewest
 * moves 25. */
static const char *const MB5[] = {" #######", " #     #", " # .$. #",
                                  "## $@$ #", "#  .$. #", "#      #",
                                  "########"};

START_TEST(test_perimeter_kept_pushes)
{
    /* A pull table of 40 positions: neither whole nor lifting the start's
     * bound. The pushes search keeps it all the same (its depth passes
     * the matching within a few rounds on big levels; Microban I 144),
     * and the answer stays optimal. */
    sok_level L;
    uint32_t h, b = perim_start_bound(&L, MB5, 7, SOK_PUSHES, 40, &h);
    bool complete;
    gs_sokoban_perim_depth(&L.x, &complete);
    ck_assert(!complete);
    ck_assert_uint_eq(b, h);
    ck_assert(!gs_sokoban_perim_lifts_start(&L.x));
    sok_level_free(&L);
    gs_result with, without;
    uint64_t tw = perim_solve_tables(MB5, 7, SOK_PUSHES, 1, 40, &with);
    uint64_t to = perim_solve_tables(MB5, 7, SOK_PUSHES, 0, 40, &without);
    ck_assert_uint_gt(tw, to);
    ck_assert_int_eq(with.status, GS_SOLVED);
    ck_assert(with.optimal);
    ck_assert_uint_eq(with.pushes, 6);
    ck_assert_uint_eq(with.steps, 27);
    ck_assert_uint_eq(without.pushes, 6);
    gs_result_free(&with);
    gs_result_free(&without);
}
END_TEST

START_TEST(test_perimeter_round_layers)
{
    /* Only a whole layer adds to the bound, so a build given a target
     * count ends at a layer's boundary, never within one: finishing the
     * layer afterwards adds nothing, whatever the target. The depth grows
     * with the target, and a build to the same target again adds
     * nothing. */
    sok_level L;
    perim_table(&L, MB5, 7, SOK_PUSHES, 1u << 16, 0);
    bool complete;
    uint32_t whole = gs_sokoban_perim_depth(&L.x, &complete);
    ck_assert(complete);
    sok_level_free(&L);
    uint32_t before = 0;
    for (size_t upto = 1; upto < (1u << 16); upto += 1 + upto / 16) {
        sok_level_load(&L, MB5, 7, SOK_PUSHES);
        gs_limits lim = {0};
        ck_assert_int_eq(gs_sokoban_perim_build(&L.x, &lim, upto), GS_OK);
        uint32_t k = gs_sokoban_perim_depth(&L.x, &complete);
        ck_assert_uint_ge(k, before);
        ck_assert_uint_le(k, whole);
        gs_sokoban_perim_finish_layer(&L.x, &lim);
        ck_assert_uint_eq(gs_sokoban_perim_depth(&L.x, &complete), k);
        ck_assert_int_eq(gs_sokoban_perim_build(&L.x, &lim, upto), GS_OK);
        ck_assert_uint_eq(gs_sokoban_perim_depth(&L.x, &complete), k);
        before = k;
        sok_level_free(&L);
    }
    ck_assert_uint_eq(before, whole);
}
END_TEST

START_TEST(test_perimeter_finish_layer)
{
    /* A pull table whose deadline passed: the build stops within its
     * first 64 positions, in the middle of a layer (as `any`'s A* slice
     * may leave it when its time runs out). Finishing it adds that layer
     * and no more; a second call adds nothing. The start's bound stays
     * within its 6 pushes. With no time for the rest of the layer at the
     * build's rate, nothing is added, and no layer is begun. */
    sok_level L;
    sok_level_load(&L, MB5, 7, SOK_PUSHES);
    gs_limits past = {.deadline_ns = gs_now_ns()}, none = {0};
    ck_assert_int_eq(gs_sokoban_perim_build(&L.x, &past, SIZE_MAX), GS_OK);
    bool complete;
    uint32_t k = gs_sokoban_perim_depth(&L.x, &complete);
    ck_assert(!complete);
    ck_assert(gs_sokoban_perim_growing(&L.x));
    ck_assert(!gs_sokoban_perim_layer_fits(&L.x, &past));
    ck_assert(gs_sokoban_perim_layer_fits(&L.x, &none));
    gs_sokoban_perim_finish_layer(&L.x, &none);
    ck_assert_uint_eq(gs_sokoban_perim_depth(&L.x, &complete), k + 1);
    ck_assert(!complete);
    ck_assert(gs_sokoban_perim_growing(&L.x));
    gs_sokoban_perim_finish_layer(&L.x, &none);
    ck_assert_uint_eq(gs_sokoban_perim_depth(&L.x, &complete), k + 1);
    sok_ctx *x = &L.x;
    gs_sokoban_occ_set(x, x->start_boxes, 1);
    uint32_t h = gs_sokoban_lower_bound(x, x->start_player, x->start_boxes);
    uint32_t b = gs_sokoban_perim_bound(x, h, x->start_player, x->start_boxes);
    ck_assert_uint_ge(b, h);
    ck_assert_uint_le(b, 6);
    gs_sokoban_occ_set(x, x->start_boxes, 0);
    /* At a boundary now, with the time measured: a passed deadline
     * begins no layer (had it begun one, finishing would add it). */
    past.deadline_ns = gs_now_ns();
    ck_assert(!gs_sokoban_perim_layer_fits(&L.x, &past));
    ck_assert_int_eq(gs_sokoban_perim_build(&L.x, &past, SIZE_MAX), GS_OK);
    gs_sokoban_perim_finish_layer(&L.x, &none);
    ck_assert_uint_eq(gs_sokoban_perim_depth(&L.x, &complete), k + 1);
    sok_level_free(&L);
    /* Cut again; no time for the rest: nothing is added. */
    sok_level_load(&L, MB5, 7, SOK_PUSHES);
    past.deadline_ns = gs_now_ns();
    ck_assert_int_eq(gs_sokoban_perim_build(&L.x, &past, SIZE_MAX), GS_OK);
    ck_assert_uint_eq(gs_sokoban_perim_depth(&L.x, &complete), k);
    gs_sokoban_perim_finish_layer(&L.x, &past);
    ck_assert_uint_eq(gs_sokoban_perim_depth(&L.x, &complete), k);
    sok_level_free(&L);
}
END_TEST

START_TEST(test_perimeter_dropped_moves)
{
    /* A box 8 pushes from its goal down a corridor: a moves table of 16
     * positions neither is whole nor lifts the start's bound, and is
     * dropped (kept, such tables cost Microban I 139 its solve); the
     * answer is the same. */
    static const char *const corridor[] = {"##############", "#@  $       .#",
                                           "##############"};
    sok_level L;
    uint32_t h, b = perim_start_bound(&L, corridor, 3, SOK_MOVES, 16, &h);
    bool complete;
    gs_sokoban_perim_depth(&L.x, &complete);
    ck_assert(!complete);
    ck_assert_uint_eq(h, 8);
    ck_assert_uint_eq(b, h);
    sok_level_free(&L);
    gs_result with, without;
    uint64_t tw = perim_solve_tables(corridor, 3, SOK_MOVES, 1, 16, &with);
    uint64_t to = perim_solve_tables(corridor, 3, SOK_MOVES, 0, 16, &without);
    ck_assert_uint_eq(tw, to);
    /* The same table for pushes is kept. */
    gs_result p, p0;
    ck_assert_uint_gt(perim_solve_tables(corridor, 3, SOK_PUSHES, 1, 16, &p),
                      perim_solve_tables(corridor, 3, SOK_PUSHES, 0, 16, &p0));
    gs_result_free(&p0);
    ck_assert_uint_eq(p.pushes, 8);
    ck_assert_uint_eq(p.steps, 10);
    ck_assert_int_eq(with.status, GS_SOLVED);
    ck_assert(with.optimal);
    ck_assert_uint_eq(with.steps, 10);
    ck_assert_uint_eq(without.steps, 10);
    gs_result_free(&with);
    gs_result_free(&without);
    gs_result_free(&p);
}
END_TEST

/* ------------------------------------------------- learned patterns */

/* Loads rows for the exact objective obj with the pattern table on. */
static void learn_load(sok_level *L, const char *const *rows, int n,
                       sok_objective obj)
{
    sok_level_load(L, rows, n, obj);
    ck_assert(gs_sokoban_learn_init(&L->x, 0));
    gs_sokoban_learn_start(&L->x);
}

START_TEST(test_learn_fires)
{
    /* The box on the left wall was just pushed down (the player above
     * it): it can only go on down to the goal in the corner, and then
     * the player can never get behind the other box to push it right to
     * the far goal; pushed left onto the corner goal instead, it leaves
     * the first box nowhere to go. No box is frozen and the matching
     * (3 pushes) is finite, yet the pair is dead. */
    static const char *const pair[] = {"######", "#@   #", "#$   #", "#.$ .#",
                                       "######"};
    sok_objective objs[2] = {SOK_MOVES, SOK_PUSHES};
    for (int o = 0; o < 2; o++) {
        sok_level L;
        learn_load(&L, pair, 5, objs[o]);
        sok_ctx *x = &L.x;
        int to = sok_level_cell(&L, 2, 1), pl = sok_level_cell(&L, 1, 1);
        ck_assert(!gs_sokoban_freeze_deadlock(x, to));
        ck_assert_uint_eq(gs_sokoban_lower_bound(x, pl, x->boxes), 3);
        ck_assert(gs_sokoban_learn_dead(x, to, pl));
        /* Learned: the same cluster is dead again (from the table). */
        ck_assert(gs_sokoban_learn_dead(x, to, pl));
        sok_level_free(&L);
    }
    /* A third box and goal elsewhere: the pair alone decides. */
    static const char *const three[] = {"#######", "#@    #", "#$  $ #",
                                        "#.$ ..#", "#######"};
    sok_level L;
    learn_load(&L, three, 5, SOK_MOVES);
    int to = sok_level_cell(&L, 2, 1), pl = sok_level_cell(&L, 1, 1);
    ck_assert_uint_lt(gs_sokoban_lower_bound(&L.x, pl, L.x.boxes), SOK_INF);
    ck_assert(gs_sokoban_learn_dead(&L.x, to, pl));
    sok_level_free(&L);
    /* The solver agrees that both levels are impossible. */
    gs_result res;
    sok_level_solve(pair, 5, SOK_MOVES, &res);
    ck_assert_int_eq(res.status, GS_IMPOSSIBLE);
    gs_result_free(&res);
    sok_level_solve(three, 5, SOK_PUSHES, &res);
    ck_assert_int_eq(res.status, GS_IMPOSSIBLE);
    gs_result_free(&res);
}
END_TEST

START_TEST(test_learn_not)
{
    sok_level L;
    /* The other box one row up: the corner box goes down first, then the
     * player pushes the other right along the middle row and down onto
     * the far goal. Alive: no pattern. */
    static const char *const pair[] = {"######", "#@   #", "#$$  #", "#.  .#",
                                       "######"};
    learn_load(&L, pair, 5, SOK_MOVES);
    int to = sok_level_cell(&L, 2, 1), pl = sok_level_cell(&L, 1, 1);
    ck_assert(!gs_sokoban_learn_dead(&L.x, to, pl));
    ck_assert(!gs_sokoban_learn_dead(&L.x, to, pl)); /* the table's answer */
    sok_level_free(&L);
    gs_result res;
    sok_level_solve(pair, 5, SOK_MOVES, &res);
    ck_assert_int_eq(res.status, GS_SOLVED);
    ck_assert(res.optimal);
    gs_result_free(&res);
    /* A box alone (no other box beside it, even in a dead spot for the
     * pair above): no cluster, nothing to learn. */
    static const char *const lone[] = {"######", "#@   #", "#$   #",
                                       "#.  .#", "#  $ #", "######"};
    learn_load(&L, lone, 6, SOK_MOVES);
    to = sok_level_cell(&L, 2, 1);
    pl = sok_level_cell(&L, 1, 1);
    ck_assert(!gs_sokoban_learn_dead(&L.x, to, pl));
    sok_level_free(&L);
    /* Every box of the cluster on a goal: solved as it stands. */
    static const char *const home[] = {"######", "#@   #", "#*   #", "#.*  #",
                                       "######"};
    learn_load(&L, home, 5, SOK_MOVES);
    to = sok_level_cell(&L, 2, 1);
    pl = sok_level_cell(&L, 1, 1);
    ck_assert(!gs_sokoban_learn_dead(&L.x, to, pl));
    sok_level_free(&L);
}
END_TEST

/* ------------------------------------------------------- symmetries */

START_TEST(test_sym_fires)
{
    /* A room mirrored left-right (goals too): a position and its mirror
     * image get one key; so does a third, unrelated one not. */
    static const char *const rows[] = {"#######", "#.   .#", "#  #  #",
                                       "# $ $ #", "#  @  #", "#######"};
    sok_level L;
    sok_level_load(&L, rows, 6, SOK_MOVES);
    sok_ctx *x = &L.x;
    ck_assert(gs_sokoban_sym_init(x));
    ck_assert_int_eq(gs_sokoban_sym_count(x), 1);
    int32_t a[2] = {sok_level_cell(&L, 3, 1), sok_level_cell(&L, 3, 4)};
    int32_t b[2] = {sok_level_cell(&L, 3, 2), sok_level_cell(&L, 3, 5)};
    int32_t c[2] = {sok_level_cell(&L, 3, 2), sok_level_cell(&L, 3, 4)};
    unsigned char ka[16], kb[16];
    gs_sokoban_sym_canon(x, sok_level_cell(&L, 4, 1), a);
    memcpy(ka, x->key, x->key_size);
    gs_sokoban_sym_canon(x, sok_level_cell(&L, 4, 5), b);
    memcpy(kb, x->key, x->key_size);
    ck_assert_mem_eq(ka, kb, x->key_size);
    gs_sokoban_sym_canon(x, sok_level_cell(&L, 4, 1), c);
    ck_assert(memcmp(ka, x->key, x->key_size) != 0);
    sok_level_free(&L);
    /* A square room with a goal in each corner and one in the middle:
     * all seven turns and mirrors. */
    static const char *const square[] = {"#######", "#.   .#", "# $   #",
                                         "#  .  #", "#     #", "#. @ .#",
                                         "#######"};
    sok_level_load(&L, square, 7, SOK_MOVES);
    ck_assert(gs_sokoban_sym_init(&L.x));
    ck_assert_int_eq(gs_sokoban_sym_count(&L.x), 7);
    sok_level_free(&L);
}
END_TEST

/* Packs boxes with the player on `pl`, unpacks the key and checks that
 * both come back. */
static void check_key_round_trip(sok_ctx *x, int pl, const int32_t *boxes)
{
    int32_t back[8];
    ck_assert_int_le(x->nboxes, 8);
    gs_sokoban_key_pack(x, pl, boxes);
    ck_assert_int_eq(gs_sokoban_key_unpack(x, x->key, back), pl);
    for (int i = 0; i < x->nboxes; i++)
        ck_assert_int_eq(back[i], boxes[i]);
}

START_TEST(test_key_formats)
{
    /* Five boxes on 16 cells: a set of cells (1 + 2 bytes) is shorter
     * than the list (1 + 5 bytes). */
    static const char *const crowded[] = {"######", "#.$. #", "#$$ .#",
                                          "#.$@ #", "# .$ #", "######"};
    sok_level L;
    sok_level_load(&L, crowded, 6, SOK_MOVES);
    sok_ctx *x = &L.x;
    ck_assert_int_eq(x->nboxes, 5);
    ck_assert_int_eq(x->n, 16);
    ck_assert(x->bitkey);
    ck_assert_uint_eq(x->key_size, 1 + 2);
    check_key_round_trip(x, x->start_player, x->start_boxes);
    /* The first and the last cells, which sit at the set's two ends. */
    int32_t ends[5] = {0, 1, 2, 3, x->n - 1};
    check_key_round_trip(x, 5, ends);
    sok_level_free(&L);
    /* Two boxes in a larger room: the list. */
    static const char *const sparse[] = {"########", "#.   . #", "#      #",
                                         "# $ $  #", "#  @   #", "########"};
    sok_level_load(&L, sparse, 6, SOK_MOVES);
    x = &L.x;
    ck_assert(!x->bitkey);
    ck_assert_uint_eq(x->key_size, 1 + 2);
    check_key_round_trip(x, x->start_player, x->start_boxes);
    sok_level_free(&L);
}
END_TEST

START_TEST(test_sym_not)
{
    /* The same room with one goal moved: no symmetry, keys as packed. */
    static const char *const rows[] = {"#######", "#.  . #", "#  #  #",
                                       "# $ $ #", "#  @  #", "#######"};
    sok_level L;
    sok_level_load(&L, rows, 6, SOK_MOVES);
    sok_ctx *x = &L.x;
    ck_assert(gs_sokoban_sym_init(x));
    ck_assert_int_eq(gs_sokoban_sym_count(x), 0);
    int32_t b[2] = {sok_level_cell(&L, 3, 2), sok_level_cell(&L, 3, 5)};
    gs_sokoban_sym_canon(x, sok_level_cell(&L, 4, 5), b);
    unsigned char kb[16];
    memcpy(kb, x->key, x->key_size);
    gs_sokoban_key_pack(x, sok_level_cell(&L, 4, 5), b);
    ck_assert_mem_eq(kb, x->key, x->key_size);
    sok_level_free(&L);
    /* The goals mirrored again, but a wall breaks the mirror. */
    static const char *const wall[] = {"#######", "#.   .#", "#  #  #",
                                       "# $ $##", "#  @  #", "#######"};
    sok_level_load(&L, wall, 6, SOK_MOVES);
    ck_assert(gs_sokoban_sym_init(&L.x));
    ck_assert_int_eq(gs_sokoban_sym_count(&L.x), 0);
    sok_level_free(&L);
}
END_TEST

/* Into moved[]: boxes[0..nb), sorted, with the box on `out` put on
 * `in`, sorted again. */
static void boxes_moved(const int32_t *boxes, int nb, int out, int in,
                        int32_t *moved)
{
    int k = 0;
    for (int i = 0; i < nb; i++)
        if (boxes[i] != out)
            moved[k++] = boxes[i];
    moved[k++] = in;
    for (int i = 1; i < k; i++)
        for (int j = i; j > 0 && moved[j - 1] > moved[j]; j--) {
            int32_t t = moved[j];
            moved[j] = moved[j - 1];
            moved[j - 1] = t;
        }
}

/* The child's key made from the noted parent's images
 * (gs_sokoban_sym_canon_moved) equals the one made from scratch: random
 * parents on a room with all seven turns and mirrors, and on one mirrored
 * left-right; every player-only child (the parent's ties, worked out once,
 * asked between box moves that overwrite the scratch sets) and every box
 * moved onto every free cell. */
START_TEST(test_sym_moved_matches_canon)
{
    static const char *const square[] = {"#######", "#.   .#", "# $   #",
                                         "#  .$ #", "# $  $#", "#. @$.#",
                                         "#######"};
    static const char *const mirror[] = {"#######", "#.   .#", "#  #  #",
                                         "# $ $ #", "#  @  #", "#######"};
    const char *const *levels[] = {square, mirror};
    const int nrows[] = {7, 6}, nsym[] = {7, 1};
    unsigned seed = (unsigned)gs_prop_seed(4242);
    for (int lv = 0; lv < 2; lv++) {
        sok_level L;
        sok_level_load(&L, levels[lv], nrows[lv], SOK_MOVES);
        sok_ctx *x = &L.x;
        ck_assert(gs_sokoban_sym_init(x));
        ck_assert_int_eq(gs_sokoban_sym_count(x), nsym[lv]);
        int nb = x->nboxes;
        for (int trial = 0, trials = gs_prop_iters(200); trial < trials;
             trial++) {
            int32_t boxes[8], child[8];
            unsigned char want[64], want_child[64];
            memset(x->occ, 0, (size_t)x->n);
            for (int i = 0; i < nb; i++) {
                int c;
                do
                    c = rand_r(&seed) % x->n;
                while (x->occ[c]);
                x->occ[c] = 1;
            }
            for (int c = 0, k = 0; c < x->n; c++)
                if (x->occ[c])
                    boxes[k++] = c;
            gs_prop_note("level %d trial %d: {%s}", lv, trial,
                         sok_level_show(&L, x->occ, -1));
            gs_sokoban_sym_parent(x, boxes);
            for (int pl = 0; pl < x->n; pl++) {
                if (x->occ[pl])
                    continue;
                /* The keys from scratch first, so that the calls under
                 * test find the scratch sets holding another position. */
                gs_sokoban_sym_canon(x, pl, boxes);
                memcpy(want, x->key, x->key_size);
                int i = rand_r(&seed) % nb, in = rand_r(&seed) % x->n;
                bool move = !x->occ[in] && in != pl;
                if (move) {
                    boxes_moved(boxes, nb, boxes[i], in, child);
                    gs_sokoban_sym_canon(x, pl, child);
                    memcpy(want_child, x->key, x->key_size);
                    gs_sokoban_sym_canon_moved(x, pl, child, boxes[i], in);
                    GS_PROP_ASSERT(memcmp(want_child, x->key, x->key_size) == 0,
                                   "player %d, box %d to %d: keys differ", pl,
                                   boxes[i], in);
                }
                gs_sokoban_sym_canon_moved(x, pl, boxes, -1, -1);
                GS_PROP_ASSERT(memcmp(want, x->key, x->key_size) == 0,
                               "player %d: keys differ", pl);
            }
        }
        sok_level_free(&L);
    }
}
END_TEST

/* ---------------------------------------------------- area after a move */

/* Compares gs_sokoban_area_after with a flood after the move (box `out`
 * onto `in`, the player then on pl), cell by cell, and the keys sym.c
 * makes from either. Returns 1 when the analysis told (2 when `in` was an
 * articulation point), 0 when it declined. Leaves x->occ as it was. */
static int check_after(sok_ctx *x, sok_area *an, const int32_t *boxes, int in,
                       int out, int pl)
{
    sok_after af;
    bool told = gs_sokoban_area_after(x, an, in, out, pl, &af);
    x->occ[out] = 0;
    x->occ[in] = 1;
    int32_t moved[8];
    boxes_moved(boxes, x->nboxes, out, in, moved);
    int rc = 0;
    if (told) {
        int lo = gs_sokoban_flood(x, pl);
        for (int c = 0; c < x->n; c++)
            GS_PROP_ASSERT(gs_sokoban_after_has(&af, c) ==
                               (x->seen[c] == x->gen),
                           "box %d to %d, player %d: cell %d in the area %d, "
                           "flood %d",
                           out, in, pl, c, gs_sokoban_after_has(&af, c),
                           x->seen[c] == x->gen);
        int min = gs_sokoban_after_min(x, &af);
        GS_PROP_ASSERT(min == lo,
                       "box %d to %d, player %d: smallest cell %d, flood %d",
                       out, in, pl, min, lo);
        unsigned char want[64];
        gs_sokoban_sym_canon_area(x, lo, moved);
        memcpy(want, x->key, x->key_size);
        gs_sokoban_sym_canon_after(x, &af, moved);
        GS_PROP_ASSERT(memcmp(want, x->key, x->key_size) == 0,
                       "box %d to %d, player %d: keys differ", out, in, pl);
        rc = af.ncut ? 2 : 1;
    }
    x->occ[in] = 0;
    x->occ[out] = 1;
    return rc;
}

START_TEST(test_area_after_matches_flood)
{
    /* Mirrored rooms joined by one-cell doors: many articulation points.
     * Random positions; every pull and push of every box is checked. */
    static const char *const rows[] = {"#########", "#.  #  .#", "# # # # #",
                                       "# $ @ $ #", "### # ###", "#.$ # $.#",
                                       "#########"};
    sok_level L;
    sok_level_load(&L, rows, 7, SOK_PUSHES);
    sok_ctx *x = &L.x;
    ck_assert(gs_sokoban_sym_init(x));
    ck_assert_int_eq(gs_sokoban_sym_count(x), 1);
    sok_area an;
    memset(&an, 0, sizeof an);
    ck_assert(gs_sokoban_area_alloc(x, &an));
    unsigned seed = (unsigned)gs_prop_seed(12345);
    int told = 0, cut = 0;
    for (int trial = 0, trials = gs_prop_iters(3000); trial < trials; trial++) {
        int32_t boxes[8];
        memset(x->occ, 0, (size_t)x->n);
        for (int i = 0; i < x->nboxes; i++) {
            int c;
            do
                c = rand_r(&seed) % x->n;
            while (x->occ[c]);
            x->occ[c] = 1;
        }
        int k = 0, p;
        for (int c = 0; c < x->n; c++)
            if (x->occ[c])
                boxes[k++] = c;
        do
            p = rand_r(&seed) % x->n;
        while (x->occ[p]);
        gs_prop_note("trial %d: {%s}", trial, sok_level_show(&L, x->occ, p));
        gs_sokoban_area_analyse(x, &an, p);
        gs_sokoban_sym_parent(x, boxes);
        for (int i = 0; i < x->nboxes; i++) {
            int b = boxes[i];
            for (int d = 0; d < 4; d++) {
                int c1 = x->nb[b * 4 + d], rc;
                /* A pull: the player on c1 steps to c2, the box to c1. */
                if (c1 >= 0 && !x->occ[c1]) {
                    int c2 = x->nb[c1 * 4 + d];
                    if (c2 >= 0 && !x->occ[c2] && an.comp[c1] == an.pc) {
                        rc = check_after(x, &an, boxes, c1, b, c2);
                        told += rc > 0;
                        cut += rc == 2;
                        /* Never declined: c1, c2 in A. */
                        GS_PROP_ASSERT(rc > 0, "pull of box %d to %d declined",
                                       b, c1);
                    }
                }
                /* A push from the other side onto c1: the player on b. */
                int q = x->nb[b * 4 + (d ^ 1)];
                if (c1 >= 0 && !x->occ[c1] && q >= 0 && !x->occ[q] &&
                    an.comp[q] == an.pc) {
                    /* (Declined when c1 lies outside A.) */
                    rc = check_after(x, &an, boxes, c1, b, b);
                    told += rc > 0;
                    cut += rc == 2;
                }
            }
        }
    }
    /* Both kinds were met (every pull was told: asserted above). */
    if (!gs_prop_deep()) {
        ck_assert_int_gt(cut, 100);
        ck_assert_int_gt(told - cut, 100);
    }
    gs_sokoban_area_free(&an);
    sok_level_free(&L);
}
END_TEST

Suite *gs_test_sokoban_rules_suite(void)
{
    Suite *s = suite_create("sokoban_rules");
    TCase *tc = tcase_create("rules");
    tcase_add_test(tc, test_freeze_fires);
    tcase_add_test(tc, test_freeze_not);
    tcase_add_test(tc, test_pi_corral_fires);
    tcase_add_test(tc, test_pi_corral_not);
    tcase_add_test(tc, test_push_distances_brute_force);
    tcase_add_test(tc, test_player_side_fires);
    tcase_add_test(tc, test_player_side_not);
    tcase_add_test(tc, test_pack_order_fires);
    tcase_add_test(tc, test_pack_order_not);
    tcase_add_test(tc, test_tunnel_fires);
    tcase_add_test(tc, test_tunnel_not);
    tcase_add_test(tc, test_corridor_fires);
    tcase_add_test(tc, test_corridor_not);
    tcase_add_test(tc, test_regions);
    tcase_add_test(tc, test_perimeter_fires);
    tcase_add_test(tc, test_perimeter_not);
    tcase_add_test(tc, test_perimeter_layouts);
    tcase_add_test(tc, test_perimeter_offset_limit);
    tcase_add_test(tc, test_perimeter_kept_pushes);
    tcase_add_test(tc, test_perimeter_round_layers);
    tcase_add_test(tc, test_perimeter_finish_layer);
    tcase_add_test(tc, test_perimeter_dropped_moves);
    tcase_add_test(tc, test_learn_fires);
    tcase_add_test(tc, test_learn_not);
    tcase_add_test(tc, test_sym_fires);
    tcase_add_test(tc, test_sym_not);
    tcase_add_test(tc, test_key_formats);
    suite_add_tcase(s, tc);
    /* Random positions against floods, fresh matchings and every
     * assignment. Named "property" in every suite: make check-deep runs
     * these. */
    tc = tcase_create("property");
    tcase_add_checked_fixture(tc, gs_prop_unnote, gs_prop_unnote);
    tcase_add_test(tc, test_pi_corral_zone_same);
    tcase_add_test(tc, test_child_bound_exact);
    tcase_add_test(tc, test_matching_brute_force);
    tcase_add_test(tc, test_matching_warm);
    tcase_add_test(tc, test_pack_child);
    tcase_add_test(tc, test_sym_moved_matches_canon);
    tcase_add_test(tc, test_area_after_matches_flood);
    suite_add_tcase(s, tc);
    return s;
}
