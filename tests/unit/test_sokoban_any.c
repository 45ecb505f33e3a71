/* test_sokoban_any.c - the rules only `any`'s greedy search uses, on small
 * hand-made levels through the solver's internal interface
 * (src/puzzles/sokoban/sokoban.h): goal-area macros where they must fire
 * and where they must not, and whole solves whose answers spell every
 * push of a macro out (each replayed here). */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "puzzle_check.h"
#include "sok_level.h"
#include "suites.h"

#define NROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Goal rooms that several tests solve whole: four goals and two boxes;
 * six goals and three boxes, two of them to bring round. */
static const char *const GOAL_ROOM[] = {"########", "#..$ @ #", "#..$   #",
                                        "########"};
static const char *const GOAL_TUNNEL[] = {"##########", "#..  ### #",
                                          "#..$     #", "#.. #$$  #",
                                          "####  @  #", "##########"};
/* Two boxes and their goals at the two ends of one row, the player below. */
static const char *const SPLIT[] = {"#########", "#. $ $ .#", "#### ####",
                                    "#   @   #", "#########"};

/* Pushes the box at (r, c) one step in direction d (U D L R = 0 1 2 3)
 * in x->occ and asks the goal macro where it goes on to; *player gets
 * the cell behind it there. Puts the box back. The macro gives the same
 * answer with its box paths' sides read off the analysis of the position
 * before the push (as expand() asks, on levels that have it) as with
 * floods. */
static int macro_from(sok_level *L, int r, int c, int d, int *player)
{
    sok_ctx *x = &L->x;
    int b = sok_level_cell(L, r, c), to = x->nb[b * 4 + d], node;
    if (x->zone_ok)
        gs_sokoban_zone_analyse(x, &x->zone);
    x->occ[b] = 0;
    x->occ[to] = 1;
    int at = gs_sokoban_goal_macro(x, to, b, -1, &node, player);
    if (x->zone_ok) {
        int node2, player2;
        ck_assert_int_eq(gs_sokoban_goal_macro(x, to, b, b, &node2, &player2),
                         at);
        ck_assert_int_eq(node2, node);
        ck_assert_int_eq(player2, *player);
    }
    ck_assert_int_eq(x->occ[to], 1); /* the boxes as they were */
    x->occ[to] = 0;
    x->occ[b] = 1;
    return at;
}

/* Whether (r, c) lies on one of the n rows of g, short rows as typed. */
static bool on_rows(char g[][21], int n, int r, int c)
{
    return r >= 0 && r < n && c >= 0 && c < (int)strlen(g[r]);
}

/* Replays moves on rows: each letter legal, uppercase exactly when it
 * pushes, every box on a goal at the end. Returns the pushes, or -1. */
static long any_replay(const char *const *rows, int n, const char *moves)
{
    char g[20][21];
    int pr = -1, pc = -1;
    ck_assert_int_le(n, 20);
    for (int r = 0; r < n; r++) {
        ck_assert_uint_le(strlen(rows[r]), 20);
        strcpy(g[r], rows[r]);
        char *at = strpbrk(g[r], "@+");
        if (at) {
            pr = r;
            pc = (int)(at - g[r]);
            *at = *at == '+' ? '.' : ' ';
        }
    }
    static const int DR[4] = {-1, 1, 0, 0}, DC[4] = {0, 0, -1, 1};
    long pushes = 0;
    for (const char *m = moves; *m; m++) {
        const char *dirs = "udlrUDLR", *p = strchr(dirs, *m);
        if (!p)
            return -1;
        int d = (int)(p - dirs) % 4, r = pr + DR[d], c = pc + DC[d];
        if (!on_rows(g, n, r, c))
            return -1;
        bool push = p - dirs >= 4, box = g[r][c] == '$' || g[r][c] == '*';
        if (g[r][c] == '#' || push != box)
            return -1;
        if (box) {
            if (!on_rows(g, n, r + DR[d], c + DC[d]))
                return -1;
            char *t = &g[r + DR[d]][c + DC[d]];
            if (*t != ' ' && *t != '.')
                return -1;
            *t = *t == '.' ? '*' : '$';
            g[r][c] = g[r][c] == '*' ? '.' : ' ';
            pushes++;
        }
        pr = r;
        pc = c;
    }
    for (int r = 0; r < n; r++)
        if (strchr(g[r], '$'))
            return -1;
    return pushes;
}

/* Asserts that res is solved and its moves replay on rows with its
 * pushes; frees res. */
static void assert_solved_replays(const char *const *rows, int n,
                                  gs_result *res)
{
    ck_assert_int_eq(res->status, GS_SOLVED);
    ck_assert_ptr_nonnull(res->moves);
    ck_assert_uint_eq(strlen(res->moves), res->steps);
    long pushes = any_replay(rows, n, res->moves);
    ck_assert_msg(pushes == res->pushes, "%s does not replay", res->moves);
    gs_result_free(res);
}

/* ------------------------------------------------------- goal macros */

START_TEST(test_goal_macro_fires)
{
    /* A goal room of four, open to the right: a box pushed onto its door
     * goal goes on to the innermost goal of its row, the player behind
     * it. */
    sok_level L;
    sok_level_load(&L, GOAL_ROOM, NROWS(GOAL_ROOM), SOK_ANY);
    sok_ctx *x = &L.x;
    ck_assert_ptr_nonnull(x->garea);
    ck_assert_int_ge(x->garea[sok_level_cell(&L, 1, 1)], 0);
    ck_assert_int_eq(x->garea[sok_level_cell(&L, 1, 1)],
                     x->garea[sok_level_cell(&L, 2, 2)]);
    /* The floor within two steps of the goals is the room's (as many
     * cells as goals); the third column out is not. */
    ck_assert_int_eq(x->garea[sok_level_cell(&L, 1, 3)],
                     x->garea[sok_level_cell(&L, 1, 1)]);
    ck_assert_int_eq(x->garea[sok_level_cell(&L, 2, 4)],
                     x->garea[sok_level_cell(&L, 1, 1)]);
    ck_assert_int_eq(x->garea[sok_level_cell(&L, 1, 5)], -1);
    int player;
    ck_assert_int_eq(macro_from(&L, 1, 3, 2, &player),
                     sok_level_cell(&L, 1, 1));
    ck_assert_int_eq(player, sok_level_cell(&L, 1, 2));
    sok_level_free(&L);
    /* Two rows of goals, no floor above the room to push down from:
     * the box goes to the far end of the row it enters, though the
     * lower row's goals lie deeper: with three goals to spare they need
     * not be filled. */
    static const char *const bend[] = {"#######", "###  @#", "#..$  #",
                                       "#.. # #", "#######"};
    sok_level_load(&L, bend, NROWS(bend), SOK_ANY);
    x = &L.x;
    int at = macro_from(&L, 2, 3, 2, &player);
    ck_assert_int_eq(at, sok_level_cell(&L, 2, 1));
    ck_assert_int_eq(player, sok_level_cell(&L, 2, 2));
    sok_level_free(&L);
}
END_TEST

START_TEST(test_goal_macro_not)
{
    sok_level L;
    int player;
    /* The deeper goal of the row is taken: nothing better than the door
     * goal, so the push stays a single push. */
    static const char *const full[] = {"#######", "#*.$ @#", "#######"};
    sok_level_load(&L, full, NROWS(full), SOK_ANY);
    ck_assert_int_eq(macro_from(&L, 1, 3, 2, &player),
                     sok_level_cell(&L, 1, 2));
    sok_level_free(&L);
    /* A lone goal is no area. */
    static const char *const lone[] = {"#######", "# .$ @#", "#######"};
    sok_level_load(&L, lone, NROWS(lone), SOK_ANY);
    ck_assert_int_eq(L.x.garea[sok_level_cell(&L, 1, 2)], -1);
    ck_assert_int_eq(macro_from(&L, 1, 3, 2, &player),
                     sok_level_cell(&L, 1, 2));
    sok_level_free(&L);
    /* The other goal of the area lies across the push, and the player
     * cannot get below the box (a box stands there) nor round it through
     * the room: no macro. */
    static const char *const across[] = {"######", "# #. #", "#@$. #", "#  $ #",
                                         "######"};
    sok_level_load(&L, across, NROWS(across), SOK_ANY);
    ck_assert_int_eq(macro_from(&L, 2, 2, 3, &player),
                     sok_level_cell(&L, 2, 3));
    sok_level_free(&L);
    /* Two goals of one layer in an open room: the box pushed down onto
     * (3, 3) may go on to (3, 4), but never "on" round and back to (3, 3)
     * from the other side (the push's cell with another player). */
    static const char *const open[] = {"########", "#  @   #", "#  $   #",
                                       "#  ..  #", "#      #", "########"};
    sok_level_load(&L, open, NROWS(open), SOK_ANY);
    int at = macro_from(&L, 2, 3, 1, &player);
    ck_assert_int_eq(at, sok_level_cell(&L, 3, 4));
    ck_assert_int_eq(player, sok_level_cell(&L, 3, 3));
    sok_level_free(&L);
    /* A goal column entered from below through a block of four goals,
     * no goal to spare. A box pushed onto the block's lower door goal
     * can reach only the corner under the column, a shallower layer
     * than the column's empty goals: parked there it would shut the
     * player out from below the column, so the push stays a push. */
    static const char *const column[] = {"##########", "#.#      #",
                                         "#.# $$$  #", "#..      #",
                                         "#..$  $$@#", "##########"};
    sok_level_load(&L, column, NROWS(column), SOK_ANY);
    ck_assert_int_eq(L.x.ngoals, L.x.nboxes);
    ck_assert_int_eq(macro_from(&L, 4, 3, 2, &player),
                     sok_level_cell(&L, 4, 2));
    sok_level_free(&L);
    /* Must fire: the same box let in through the upper door goal goes on
     * to the top of the column, the deepest empty goal. */
    static const char *const upper[] = {"##########", "#.#      #",
                                        "#.# $$$  #", "#..$     #",
                                        "#..   $$@#", "##########"};
    sok_level_load(&L, upper, NROWS(upper), SOK_ANY);
    ck_assert_int_eq(macro_from(&L, 3, 3, 2, &player),
                     sok_level_cell(&L, 1, 1));
    ck_assert_int_eq(player, sok_level_cell(&L, 2, 1));
    sok_level_free(&L);
    /* The exact objectives have no goal areas at all. */
    sok_level_load(&L, GOAL_ROOM, NROWS(GOAL_ROOM), SOK_MOVES);
    ck_assert_ptr_null(L.x.garea);
    ck_assert_int_eq(macro_from(&L, 1, 3, 2, &player),
                     sok_level_cell(&L, 1, 2));
    sok_level_free(&L);
}
END_TEST

START_TEST(test_goal_room)
{
    sok_level L;
    int player;
    /* A goal room of six behind a door (2, 6): its floor within two steps
     * of the goals joins the area, and a box pushed in from outside onto
     * that floor goes on to a goal of the innermost column. */
    static const char *const room[] = {"##########", "#..   #  #", "#..  $  @#",
                                       "#..   #  #", "##########"};
    sok_level_load(&L, room, NROWS(room), SOK_ANY);
    sok_ctx *x = &L.x;
    int area = x->garea[sok_level_cell(&L, 1, 1)];
    ck_assert_int_ge(area, 0);
    ck_assert_int_eq(x->garea[sok_level_cell(&L, 2, 4)], area);
    ck_assert_int_eq(x->garea[sok_level_cell(&L, 3, 3)], area);
    ck_assert_int_eq(x->garea[sok_level_cell(&L, 2, 5)], -1);
    ck_assert_int_eq(x->garea[sok_level_cell(&L, 2, 6)], -1);
    int at = macro_from(&L, 2, 5, 2, &player);
    ck_assert(at == sok_level_cell(&L, 1, 1) ||
              at == sok_level_cell(&L, 2, 1) || at == sok_level_cell(&L, 3, 1));
    ck_assert_int_eq(x->goal[at], 1);
    bool beside = false;
    for (int d = 0; d < 4; d++)
        beside = beside || x->nb[at * 4 + d] == player;
    ck_assert(beside);
    /* The chain spells the path out cell by cell, from the push's cell
     * to the goal. */
    int node;
    x->occ[sok_level_cell(&L, 2, 5)] = 0;
    x->occ[sok_level_cell(&L, 2, 4)] = 1;
    ck_assert_int_eq(gs_sokoban_goal_macro(x, sok_level_cell(&L, 2, 4),
                                           sok_level_cell(&L, 2, 5), -1, &node,
                                           &player),
                     at);
    int k = gs_sokoban_goal_macro_chain(x, node);
    ck_assert_int_ge(k, 4);
    ck_assert_int_eq(x->gmq[0], sok_level_cell(&L, 2, 4));
    ck_assert_int_eq(x->gmq[k - 1], at);
    sok_level_free(&L);

    /* Must not: goals in the open (more floor near them than goals) get
     * no room; a door ends the room (nothing past it, nor the door). */
    static const char *const open[] = {"#########", "#       #", "#  ..   #",
                                       "#  $  @ #", "#       #", "#########"};
    sok_level_load(&L, open, NROWS(open), SOK_ANY);
    ck_assert_int_ge(L.x.garea[sok_level_cell(&L, 2, 3)], 0);
    ck_assert_int_eq(L.x.garea[sok_level_cell(&L, 2, 2)], -1);
    ck_assert_int_eq(L.x.garea[sok_level_cell(&L, 3, 3)], -1);
    ck_assert_int_eq(L.x.nrcell, L.x.ngoals);
    sok_level_free(&L);
    static const char *const shut[] = {"#######", "#..#  #", "#..  @#",
                                       "#..#$ #", "#######"};
    sok_level_load(&L, shut, NROWS(shut), SOK_ANY);
    ck_assert_int_eq(L.x.garea[sok_level_cell(&L, 2, 3)], -1);
    ck_assert_int_eq(L.x.garea[sok_level_cell(&L, 2, 4)], -1);
    sok_level_free(&L);

    /* Few floor cells, but four ways in (left, up, down twice): goals at
     * a crossing, not a room. */
    static const char *const cross[] = {
        "###########", "###   #####", "#    ....##", "#    ....##",
        "###   #####", "###   #####", "###  @$####", "###########"};
    sok_level_load(&L, cross, NROWS(cross), SOK_ANY);
    ck_assert_int_ge(L.x.garea[sok_level_cell(&L, 2, 5)], 0);
    ck_assert_int_eq(L.x.garea[sok_level_cell(&L, 2, 4)], -1);
    ck_assert_int_eq(L.x.nrcell, L.x.ngoals);
    sok_level_free(&L);

    /* Two goal areas in one room (the floor between them): the packing
     * plan of one would fill it before the other, so no room at all. */
    static const char *const pair[] = {"##########", "#.. ..#  #", "#.. ..$ @#",
                                       "#.. ..#  #", "##########"};
    sok_level_load(&L, pair, NROWS(pair), SOK_ANY);
    ck_assert_int_ge(L.x.garea[sok_level_cell(&L, 2, 1)], 0);
    ck_assert_int_ge(L.x.garea[sok_level_cell(&L, 2, 4)], 0);
    ck_assert_int_ne(L.x.garea[sok_level_cell(&L, 2, 1)],
                     L.x.garea[sok_level_cell(&L, 2, 4)]);
    ck_assert_int_eq(L.x.garea[sok_level_cell(&L, 2, 3)], -1);
    ck_assert_int_eq(L.x.nrcell, L.x.ngoals);
    sok_level_free(&L);

    /* Whole solves through the room, each answer replayed. */
    static const char *const two[] = {"##########", "#..   #  #", "#..$  $ @#",
                                      "#..   #  #", "##########"};
    sok_objective objs[2] = {SOK_ANY, SOK_ANY_FESS};
    for (int i = 0; i < 2; i++) {
        gs_result res;
        sok_level_solve(two, NROWS(two), objs[i], &res);
        ck_assert_int_eq(res.status, GS_SOLVED);
        long pushes = any_replay(two, NROWS(two), res.moves);
        ck_assert_msg(pushes == res.pushes, "%s does not replay", res.moves);
        gs_result_free(&res);
    }
}
END_TEST

START_TEST(test_goal_macro_solve)
{
    /* Whole `any` solves with goal macros (the second with spare goals
     * and boxes to bring round): every push spelled out, the answer
     * replays. */
    const char *const *levels[2] = {GOAL_ROOM, GOAL_TUNNEL};
    int n[2] = {NROWS(GOAL_ROOM), NROWS(GOAL_TUNNEL)}, boxes[2] = {2, 3};
    for (int i = 0; i < 2; i++) {
        gs_result res;
        sok_level_solve(levels[i], n[i], SOK_ANY, &res);
        ck_assert_int_eq(res.status, GS_SOLVED);
        ck_assert_uint_eq(strlen(res.moves), res.steps);
        long pushes = any_replay(levels[i], n[i], res.moves);
        ck_assert_msg(pushes == res.pushes, "level %d: %s does not replay", i,
                      res.moves);
        ck_assert_int_ge(pushes, boxes[i]);
        gs_result_free(&res);
    }
}
END_TEST

START_TEST(test_goal_macro_dead)
{
    /* The box pushed up the tunnel into the goal column ((3,2)) is taken
     * by the goal macro to the deepest goal of the packing order, (1,5),
     * which shuts the player out of (1,6), where the box on (2,6) must be
     * pushed down from. That child is dead; the push alone stays a child,
     * so the macro search solves the level on its own (macros_alone: no
     * plain search after it; without the rule it ran dry in 3 states). */
    static const char *const pocket[] = {
        "###########", "# .... ####", "# . #*$####", "# .  $ ####",
        "## # #  ###", "## # $  ###", "## # $$  ##", "#  ###    #",
        "# $ @#    #", "##   ###  #", "###########"};
    gs_sokoban *g = sok_level_build(pocket, NROWS(pocket));
    g->objective = SOK_ANY;
    g->macros_alone = true;
    gs_limits none = {0};
    gs_result res;
    gs_error err = {0};
    gs_result_clear(&res);
    ck_assert_int_eq(gs_sokoban_solve(g, &none, &res, &err), GS_OK);
    gs_sokoban_free(g);
    assert_solved_replays(pocket, NROWS(pocket), &res);
}
END_TEST

/* ------------------------------------------------------ the portfolio */

START_TEST(test_any_short_deadlines)
{
    /* `any` under deadlines too short for its slices: every answer is a
     * limit or replays, whether the A* slice left a perimeter table or
     * not (with a spare goal there is none; its slice is then skipped). */
    static const char *const even[] = {
        " #########",  "##   #   ##", "#    #    #", "#  $ # $  #",
        "#   *.*   #", "####.@.####", "#   *.*   #", "#  $ # $  #",
        "#    #    #", "##   #   ##", " #########"};
    static const char *const spare[] = {
        " #########",  "##   #   ##", "#    #    #", "#  $ # $  #",
        "#   *.*   #", "####.@.####", "#   *.*   #", "#  $ # $  #",
        "#    #    #", "##.  #   ##", " #########"};
    const char *const *levels[2] = {even, spare};
    for (int l = 0; l < 2; l++) {
        for (int ms = 1; ms <= 40; ms += 3) {
            gs_limits lim = {.deadline_ns = gs_deadline_after_ms(ms)};
            gs_result res;
            sok_level_solve_with(levels[l], NROWS(even), SOK_ANY, &lim, false,
                                 &res);
            ck_assert(res.status == GS_LIMIT || res.status == GS_SOLVED);
            if (res.status == GS_SOLVED)
                assert_solved_replays(levels[l], NROWS(even), &res);
            else
                gs_result_free(&res);
        }
    }
}
END_TEST

START_TEST(test_any_long_held)
{
    /* Past its first span (10 s; here 20 ms, any_short_ns) `any` keeps
     * the feature-space searches from their slice through the search
     * backwards' (pair_hold), then goes on with them (pair_resume), or
     * closes them when the search backwards answers (pair_drop). On this
     * machine XSokoban 5 is usually solved at 100 ms after they resume, 12 at
     * 300 ms by the search backwards while they are held, and 6 not at 100 ms:
     * every answer replays or is a limit, and the sanitizer builds check
     * the memory of each way. */
    static const char *const x5[] = {
        "        #####",     "        #   #####", "        # #$##  #",
        "        #     $ #", "######### ###   #", "#....  ## $  $###",
        "#....    $ $$ ##",  "#....  ##$  $ @#",  "#########  $  ##",
        "        # $ $  #",  "        ### ## #",  "          #    #",
        "          ######"};
    static const char *const x6[] = {
        "######  ###",  "#..  # ##@##", "#..  ###   #", "#..     $$ #",
        "#..  # # $ #", "#..### # $ #", "#### $ #$  #", "   #  $# $ #",
        "   # $  $  #", "   #  ##   #", "   #########"};
    static const char *const x12[] = {
        "################",  "#              #",  "# # ######     #",
        "# #  $ $ $ $#  #",  "# #   $@$   ## ##", "# #  $ $ $###...#",
        "# #   $ $  ##...#", "# ###$$$ $ ##...#", "#     # ## ##...#",
        "#####   ## ##...#", "    #####     ###", "        #     #",
        "        #######"};
    const char *const *levels[3] = {x5, x12, x6};
    int n[3] = {NROWS(x5), NROWS(x12), NROWS(x6)}, ms[3] = {100, 300, 100};
    for (int l = 0; l < 3; l++) {
        gs_sokoban *g = sok_level_build(levels[l], n[l]);
        g->objective = SOK_ANY;
        g->any_short_ns = 20000000;
        gs_limits lim = {.deadline_ns = gs_deadline_after_ms(ms[l])};
        gs_result res;
        gs_error err = {0};
        gs_result_clear(&res);
        ck_assert_int_eq(gs_sokoban_solve(g, &lim, &res, &err), GS_OK);
        gs_sokoban_free(g);
        ck_assert(res.status == GS_LIMIT || res.status == GS_SOLVED);
        ck_assert_uint_gt(res.expanded, 0);
        if (res.status == GS_SOLVED)
            assert_solved_replays(levels[l], n[l], &res);
        else
            gs_result_free(&res);
    }
}
END_TEST

/* ------------------------------------------------ the answer's polish */

/* Runs gs_sokoban_improve on `moves` for the level of n rows (`any`)
 * within lim (NULL: none) into res; returns its status. */
static int improve_rows(const char *const *rows, int n, const char *moves,
                        const gs_limits *lim, gs_result *res)
{
    sok_level L;
    sok_level_load(&L, rows, n, SOK_ANY);
    gs_result_clear(res);
    res->status = GS_SOLVED;
    res->moves = strdup(moves);
    ck_assert_ptr_nonnull(res->moves);
    res->steps = strlen(moves);
    res->pushes = 0;
    for (const char *c = moves; *c; c++)
        res->pushes += *c >= 'A' && *c <= 'Z';
    gs_limits none = {0};
    gs_error err = {0};
    int rc = gs_sokoban_improve(&L.x, lim ? lim : &none, res, NULL, &err);
    sok_level_free(&L);
    return rc;
}

START_TEST(test_improve_shortens)
{
    /* A box pushed away and back before it goes home: the answer one
     * push from the start is in the neighbourhood. */
    static const char *const back[] = {"######", "#.$ @#", "#    #", "######"};
    gs_result res;
    ck_assert_int_eq(
        improve_rows(back, NROWS(back), "dllluRdrruLL", NULL, &res), GS_OK);
    ck_assert_str_eq(res.moves, "lL");
    assert_solved_replays(back, NROWS(back), &res);
    /* One push, then the other box, then back to the first: the first
     * box's second push moves before the walk (a box one cell off). */
    static const char *const two[] = {"##########", "#. $@ $. #", "##########"};
    ck_assert_int_eq(improve_rows(two, NROWS(two), "LrrRlllL", NULL, &res),
                     GS_OK);
    ck_assert_uint_eq(res.steps, 6);
    ck_assert_int_eq(res.pushes, 3);
    gs_result opt;
    sok_level_solve(two, NROWS(two), SOK_MOVES, &opt);
    ck_assert_uint_eq(opt.steps, res.steps);
    gs_result_free(&opt);
    assert_solved_replays(two, NROWS(two), &res);
}
END_TEST

START_TEST(test_improve_not)
{
    /* A shortest answer stays as it is, as does every answer when the
     * deadline has passed: the polish never returns a limit. */
    static const char *const back[] = {"######", "#.$ @#", "#    #", "######"};
    gs_result res;
    ck_assert_int_eq(improve_rows(back, NROWS(back), "lL", NULL, &res), GS_OK);
    ck_assert_str_eq(res.moves, "lL");
    gs_result_free(&res);
    gs_limits past = {.deadline_ns = gs_now_ns() - 1};
    ck_assert_int_eq(
        improve_rows(back, NROWS(back), "dllluRdrruLL", &past, &res), GS_OK);
    ck_assert_str_eq(res.moves, "dllluRdrruLL");
    ck_assert_int_eq(res.status, GS_SOLVED);
    gs_result_free(&res);
    /* An answer that does not replay is a bug, reported as such. */
    ck_assert_int_eq(improve_rows(back, NROWS(back), "rL", NULL, &res),
                     GS_EINTERNAL);
    gs_result_free(&res);
}
END_TEST

/* ------------------------------------------------ feature-space search */

START_TEST(test_fess_features)
{
    /* A goal room of two at the left end of a one-wide corridor (row 1:
     * passage cells, (1, 2) the door goal, (1, 1) the inner one), joined
     * by the passage (2, 5) to an open room below. */
    static const char *const lvl[] = {"#########", "#..$    #", "##### ###",
                                      "# $ @   #", "#       #", "#########"};
    sok_level L;
    sok_level_load(&L, lvl, NROWS(lvl), SOK_ANY);
    sok_ctx *x = &L.x;
    sok_fess *f = gs_sokoban_fess_new(x, 0);
    ck_assert_ptr_nonnull(f);
    int32_t b[2];
    /* Both boxes in the open room: no feature set. */
    b[0] = sok_level_cell(&L, 3, 2);
    b[1] = sok_level_cell(&L, 4, 6);
    ck_assert_uint_eq(gs_sokoban_fess_features(x, f, b, 0, 1), 0);
    /* One in the corridor, the player shut out of two areas; the corridor
     * cell below the other end of it counts as a passage too. */
    b[0] = sok_level_cell(&L, 1, 4);
    ck_assert_uint_eq(gs_sokoban_fess_features(x, f, b, 0, 3), 2u << 8 | 1);
    b[0] = sok_level_cell(&L, 2, 5);
    ck_assert_uint_eq(gs_sokoban_fess_features(x, f, b, 0, 1), 1);
    /* A box on the open corridor junction (1, 5) is in no passage. */
    b[0] = sok_level_cell(&L, 1, 5);
    ck_assert_uint_eq(gs_sokoban_fess_features(x, f, b, 0, 1), 0);
    /* The inner goal filled: one packed. The door goal filled first (out
     * of order: pack.c's penalty says one): none packed, and a goal is
     * never a passage. */
    b[0] = sok_level_cell(&L, 1, 1);
    b[1] = sok_level_cell(&L, 3, 2);
    ck_assert_uint_eq(gs_sokoban_pack_penalty(x, b), 0);
    ck_assert_uint_eq(gs_sokoban_fess_features(x, f, b, 0, 1), 1u << 16);
    b[0] = sok_level_cell(&L, 1, 2);
    ck_assert_uint_eq(gs_sokoban_pack_penalty(x, b), 1);
    ck_assert_uint_eq(gs_sokoban_fess_features(x, f, b, 1, 1), 0);
    gs_sokoban_fess_free(f);
    sok_level_free(&L);
}
END_TEST

/* The connectivity advisor (search by weight) names the child that joins
 * the most areas, only when it joins any, never a dead or already advised
 * child. */
START_TEST(test_fess_conn_advisor)
{
    static const char *const lvl[] = {"#########", "#..$    #", "##### ###",
                                      "# $ @   #", "#       #", "#########"};
    sok_level L;
    sok_level_load(&L, lvl, NROWS(lvl), SOK_ANY);
    L.x.fess_dual = true; /* the search by weight */
    sok_fess *f = gs_sokoban_fess_new(&L.x, 0);
    L.x.fess_dual = false;
    ck_assert_ptr_nonnull(f);
    int32_t b[2] = {sok_level_cell(&L, 3, 2), sok_level_cell(&L, 4, 6)};
    struct sok_pend p[4];
    memset(p, 0, sizeof p);
    const int areas[4] = {3, 2, 2, 1};
    const uint32_t h[4] = {5, 9, 7, 4};
    for (int i = 0; i < 4; i++) {
        p[i].feat = gs_sokoban_fess_features(&L.x, f, b, 0, areas[i]);
        p[i].h = h[i];
    }
    /* The parent has 3 areas: the child left with 1 joins the most. */
    ck_assert_int_eq(gs_sokoban_fess_conn_advice(f, p, 4, 3), 3);
    /* That one dead, or advised already: of the two left with 2 areas,
     * the lower estimate. */
    p[3].h = SOK_INF;
    ck_assert_int_eq(gs_sokoban_fess_conn_advice(f, p, 4, 3), 2);
    p[3].h = 4;
    p[3].advised = true;
    ck_assert_int_eq(gs_sokoban_fess_conn_advice(f, p, 4, 3), 2);
    /* No child joins areas: no advice. */
    ck_assert_int_eq(gs_sokoban_fess_conn_advice(f, p, 3, 2), -1);
    ck_assert_int_eq(gs_sokoban_fess_conn_advice(f, p, 1, 3), -1);
    ck_assert_int_eq(gs_sokoban_fess_conn_advice(f, p, 0, 3), -1);
    gs_sokoban_fess_free(f);
    /* The search by estimate never asks it. */
    p[3].advised = false;
    f = gs_sokoban_fess_new(&L.x, 0);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(gs_sokoban_fess_conn_advice(f, p, 4, 3), -1);
    gs_sokoban_fess_free(f);
    sok_level_free(&L);
}
END_TEST

/* A one-row level for the feature-space search's open lists alone. */
static const char *const ONE_ROW[] = {"#####", "#@$.#", "#####"};

START_TEST(test_fess_order)
{
    /* Three cells A, B, C; every other pick is greedy's (the best estimate
     * over all, with SOK_FESS_GREEDY_EVERY 2), the others round robin over
     * the cells, best of each first; no state is handed out twice. */
    sok_level L;
    sok_level_load(&L, ONE_ROW, NROWS(ONE_ROW), SOK_ANY);
    sok_fess *f = gs_sokoban_fess_new(&L.x, 0);
    ck_assert_ptr_nonnull(f);
    const uint32_t A = 1, B = 2, C = 3;
    ck_assert_int_eq(gs_sokoban_fess_push(f, A, 1, 5, 0, false), GS_OK);
    ck_assert_int_eq(gs_sokoban_fess_push(f, A, 2, 3, 0, false), GS_OK);
    ck_assert_int_eq(gs_sokoban_fess_push(f, B, 3, 9, 0, false), GS_OK);
    ck_assert_int_eq(gs_sokoban_fess_push(f, B, 4, 7, 0, false), GS_OK);
    ck_assert_int_eq(gs_sokoban_fess_push(f, C, 5, 1, 0, false), GS_OK);
    static const uint64_t want[5] = {2, 5, 4, 1, 3};
    for (int i = 0; i < 5; i++) {
        uint64_t id, g;
        ck_assert_int_eq(gs_sokoban_fess_pop(f, &id, &g), 1);
        ck_assert_uint_eq(id, want[i]);
    }
    uint64_t id, g;
    ck_assert_int_eq(gs_sokoban_fess_pop(f, &id, &g), 0);
    gs_sokoban_fess_free(f);
    /* A memory cap too small for a cell: a limit, not a crash. */
    f = gs_sokoban_fess_new(&L.x, 1);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(gs_sokoban_fess_push(f, A, 1, 5, 0, false), GS_ELIMIT);
    ck_assert(gs_sokoban_fess_over(f));
    /* Given a larger budget (its twin gone, any.c), it takes more. */
    gs_sokoban_fess_set_budget(f, 1 << 20);
    ck_assert_int_eq(gs_sokoban_fess_push(f, A, 1, 5, 0, false), GS_OK);
    uint64_t got, gv;
    ck_assert_int_eq(gs_sokoban_fess_pop(f, &got, &gv), 1);
    ck_assert_uint_eq(got, 1);
    ck_assert_int_eq(gs_sokoban_fess_pop(f, &got, &gv), 0);
    gs_sokoban_fess_free(f);
    /* Greedy's picks by 2 x estimate + pushes, or by the estimate, then
     * the pushes (the search backwards): (h, g) = A (5, 0), A (4, 4),
     * B (6, 0), B (3, 9). The cells pick by estimate either way. */
    static const uint64_t twice[4] = {2, 1, 4, 3}, plain[4] = {2, 4, 3, 1};
    for (int k = 0; k < 2; k++) {
        f = gs_sokoban_fess_new(&L.x, 0);
        ck_assert_ptr_nonnull(f);
        if (k == 1)
            gs_sokoban_fess_plain_all(f, false);
        ck_assert_int_eq(gs_sokoban_fess_push(f, A, 1, 5, 0, false), GS_OK);
        ck_assert_int_eq(gs_sokoban_fess_push(f, A, 2, 4, 4, false), GS_OK);
        ck_assert_int_eq(gs_sokoban_fess_push(f, B, 3, 6, 0, false), GS_OK);
        ck_assert_int_eq(gs_sokoban_fess_push(f, B, 4, 3, 9, false), GS_OK);
        for (int i = 0; i < 4; i++) {
            ck_assert_int_eq(gs_sokoban_fess_pop(f, &got, &gv), 1);
            ck_assert_uint_eq(got, (k ? plain : twice)[i]);
            if (got == 4)
                ck_assert_uint_eq(gv, 9); /* its pushes, either heap */
        }
        ck_assert_int_eq(gs_sokoban_fess_pop(f, &got, &gv), 0);
        gs_sokoban_fess_free(f);
    }
    /* Ties of the estimate go to the fewest pushes, or with `most` to
     * the most, in a cell and in greedy's heap alike. */
    for (int most = 0; most < 2; most++) {
        f = gs_sokoban_fess_new(&L.x, 0);
        ck_assert_ptr_nonnull(f);
        gs_sokoban_fess_plain_all(f, most);
        ck_assert_int_eq(gs_sokoban_fess_push(f, A, 1, 5, 2, false), GS_OK);
        ck_assert_int_eq(gs_sokoban_fess_push(f, A, 2, 5, 6, false), GS_OK);
        ck_assert_int_eq(gs_sokoban_fess_push(f, A, 3, 5, 4, false), GS_OK);
        ck_assert_int_eq(gs_sokoban_fess_push(f, A, 4, 4, 9, false), GS_OK);
        static const uint64_t fewest[4] = {4, 1, 3, 2}, most_[4] = {4, 2, 3, 1};
        for (int i = 0; i < 4; i++) {
            ck_assert_int_eq(gs_sokoban_fess_pop(f, &got, &gv), 1);
            ck_assert_uint_eq(got, (most ? most_ : fewest)[i]);
        }
        gs_sokoban_fess_free(f);
    }
    /* An advised state's heap key is 0, yet a cell's pick of it hands
     * out its pushes, as greedy's picks do: its children's count on. */
    f = gs_sokoban_fess_new(&L.x, 0);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(gs_sokoban_fess_push(f, A, 1, 5, 7, true), GS_OK);
    ck_assert_int_eq(gs_sokoban_fess_pop(f, &got, &gv), 1);
    ck_assert_uint_eq(got, 1);
    ck_assert_uint_eq(gv, 7);
    gs_sokoban_fess_free(f);
    sok_level_free(&L);
}
END_TEST

START_TEST(test_fess_pack_advisor)
{
    /* Goals (1, 1) (inner, filled first) and (1, 2). The box on (1, 4)
     * needs 3 pushes to the inner goal, the one on (2, 4) 4: the advisor
     * names the first, the player ending behind it on (1, 2). */
    static const char *const lvl[] = {"########", "#.. $ @#", "#   $  #",
                                      "#      #", "########"};
    sok_level L;
    sok_level_load(&L, lvl, NROWS(lvl), SOK_ANY);
    sok_ctx *x = &L.x;
    sok_fess *f = gs_sokoban_fess_new(x, 0);
    ck_assert_ptr_nonnull(f);
    int slot, pl, pushes;
    int to =
        gs_sokoban_fess_pack_move(x, f, x->start_player, &slot, &pl, &pushes);
    ck_assert_int_eq(to, sok_level_cell(&L, 1, 1));
    ck_assert_int_eq(x->boxes[slot], sok_level_cell(&L, 1, 4));
    ck_assert_int_eq(pl, sok_level_cell(&L, 1, 2));
    ck_assert_int_eq(pushes, 3);
    int32_t cells[64];
    ck_assert_int_eq(gs_sokoban_fess_pack_path(x, f, x->boxes[slot],
                                               x->start_player, to, cells),
                     4);
    ck_assert_int_eq(cells[0], sok_level_cell(&L, 1, 4));
    ck_assert_int_eq(cells[3], to);
    for (int i = 0; i < x->nboxes; i++) /* x->occ as it was */
        ck_assert_int_eq(x->occ[x->boxes[i]], 1);
    gs_sokoban_fess_free(f);
    sok_level_free(&L);
    /* The inner goal (1, 1) is walled off by the box on the door goal:
     * the advice goes to the next goal, (1, 6), by 4 pushes (e.g. 3 right
     * along row 2, then 1 up). */
    static const char *const next[] = {"#########", "#.*   . #", "## $ @  #",
                                       "#       #", "#########"};
    sok_level_load(&L, next, NROWS(next), SOK_ANY);
    x = &L.x;
    f = gs_sokoban_fess_new(x, 0);
    ck_assert_ptr_nonnull(f);
    to = gs_sokoban_fess_pack_move(x, f, x->start_player, &slot, &pl, &pushes);
    ck_assert_int_eq(to, sok_level_cell(&L, 1, 6));
    ck_assert_int_eq(x->boxes[slot], sok_level_cell(&L, 2, 3));
    ck_assert_int_eq(pushes, 4); /* or 2 right, 1 up, 1 right */
    ck_assert(pl == sok_level_cell(&L, 2, 6) || pl == sok_level_cell(&L, 1, 5));
    gs_sokoban_fess_free(f);
    sok_level_free(&L);
    /* The inner goal is walled off by the box on the door goal and no
     * other goal is empty: no advice. */
    static const char *const shut[] = {"#######", "#.*$ @#", "#######"};
    sok_level_load(&L, shut, NROWS(shut), SOK_ANY);
    x = &L.x;
    f = gs_sokoban_fess_new(x, 0);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(
        gs_sokoban_fess_pack_move(x, f, x->start_player, &slot, &pl, &pushes),
        -1);
    gs_sokoban_fess_free(f);
    sok_level_free(&L);
}
END_TEST

START_TEST(test_fess_solve)
{
    /* Whole solves by the feature-space phase alone: the answers replay,
     * an unsolvable level is impossible (its space exhausted). */
    const char *const *levels[3] = {GOAL_ROOM, GOAL_TUNNEL, SPLIT};
    int n[3] = {NROWS(GOAL_ROOM), NROWS(GOAL_TUNNEL), NROWS(SPLIT)};
    for (int i = 0; i < 3; i++) {
        gs_result res;
        sok_level_solve(levels[i], n[i], SOK_ANY_FESS, &res);
        ck_assert_int_eq(res.status, GS_SOLVED);
        ck_assert(!res.optimal);
        long pushes = any_replay(levels[i], n[i], res.moves);
        ck_assert_msg(pushes == res.pushes, "level %d: %s does not replay", i,
                      res.moves);
        gs_result_free(&res);
    }
    /* The box in the corner room can reach neither goal. */
    static const char *const stuck[] = {"#######", "#$#  .#", "# # $ #",
                                        "#  @ .#", "#######"};
    gs_result res;
    sok_level_solve(stuck, NROWS(stuck), SOK_ANY_FESS, &res);
    ck_assert_int_eq(res.status, GS_IMPOSSIBLE);
    gs_result_free(&res);
}
END_TEST

START_TEST(test_pull_solve)
{
    /* The search backwards alone (pull.c): its answers, read back to
     * front, replay; a level solved at the start takes no move. */
    static const char *const turn[] = {"#######", "#.    #", "# $ # #",
                                       "#  @$.#", "#######"};
    static const char *const done[] = {"#####", "#@* #", "#####"};
    const char *const *levels[3] = {SPLIT, turn, done};
    int n[3] = {NROWS(SPLIT), NROWS(turn), NROWS(done)};
    for (int i = 0; i < 3; i++) {
        gs_result res;
        sok_level_solve(levels[i], n[i], SOK_ANY_PULL, &res);
        ck_assert(!res.optimal || res.steps == 0);
        ck_assert_uint_eq(res.steps == 0, i == 2);
        assert_solved_replays(levels[i], n[i], &res);
    }
    /* It proves nothing: a level no pushes solve (the box in the corner
     * room reaches neither goal) is `limit`, as is one with more goals
     * than boxes, which it does not search. */
    static const char *const stuck[] = {"#######", "#$#  .#", "# # $ #",
                                        "#  @ .#", "#######"};
    const char *const *other[2] = {stuck, GOAL_ROOM};
    int on[2] = {NROWS(stuck), NROWS(GOAL_ROOM)};
    for (int i = 0; i < 2; i++) {
        gs_result res;
        sok_level_solve(other[i], on[i], SOK_ANY_PULL, &res);
        ck_assert_int_eq(res.status, GS_LIMIT);
        if (i == 1)
            ck_assert_uint_eq(res.expanded, 0);
        gs_result_free(&res);
    }
    /* The pulls see only the player's region (found by make check-deep):
     * a box walled in off its goal outside it made them answer `solved`
     * on an impossible level, and a region without a box (every box on
     * a goal out of reach) answered `limit` on a solved one. */
    static const char *const walled[] = {"########", "#@   # #", "#  # #.#",
                                         "##   # #", "##. $ ##", "#$#    #",
                                         "########"};
    gs_result res;
    sok_level_solve(walled, NROWS(walled), SOK_ANY_PULL, &res);
    ck_assert_int_eq(res.status, GS_LIMIT);
    gs_result_free(&res);
    static const char *const apart[] = {"########", "#      #", "#  # # #",
                                        "#* #   #", "###    #", "# @# # #",
                                        "########"};
    sok_level_solve(apart, NROWS(apart), SOK_ANY_PULL, &res);
    ck_assert_int_eq(res.status, GS_SOLVED);
    ck_assert_uint_eq(res.steps, 0);
    assert_solved_replays(apart, NROWS(apart), &res);
}
END_TEST

START_TEST(test_pull_slice_late)
{
    /* `any`'s slice of the search backwards started past its deadline
     * (a slice before it overran): no order runs, and the answer is a
     * limit on time, not the cleared result, which reads as solved
     * without moves (the server then answered 500). */
    sok_level L;
    sok_level_load(&L, SPLIT, NROWS(SPLIT), SOK_ANY);
    gs_limits late = {.deadline_ns = gs_now_ns() - 1};
    gs_result res;
    gs_error err = {0};
    for (int all = 0; all < 2; all++) {
        gs_result_clear(&res);
        ck_assert_int_eq(
            gs_sokoban_pull_slice(&L.x, &late, all, &res, NULL, &err), GS_OK);
        ck_assert_int_eq(res.status, GS_LIMIT);
        ck_assert_int_eq(res.limit, GS_LIMIT_TIME);
        ck_assert_ptr_null(res.moves);
        ck_assert_uint_eq(res.expanded, 0);
    }
    sok_level_free(&L);
}
END_TEST

/* Solves rows with the feature-space search alone (SOK_ANY_FESS), paused
 * and resumed every turn_ns (0: never) as `any`'s last slices do
 * (gs_sokoban_fess_pair), or when paired in turns with the search by
 * weight from the start; held every hold_ns (0: never) with the search
 * backwards run to its end in between, as `any` holds it past 10 s
 * (pair_hold). */
static void fess_solve(const char *const *rows, int n, int64_t turn_ns,
                       bool paired, int64_t hold_ns, gs_result *res)
{
    gs_sokoban *g = sok_level_build(rows, n);
    gs_error err = {0};
    g->objective = SOK_ANY_FESS;
    g->fess_turn_ns = turn_ns;
    g->fess_paired = paired;
    g->fess_hold_ns = hold_ns;
    gs_limits none = {0};
    gs_result_clear(res);
    ck_assert_int_eq(gs_sokoban_solve(g, &none, res, &err), GS_OK);
    gs_sokoban_free(g);
}

START_TEST(test_fess_turns)
{
    /* A search paused after every expansion and resumed (turns of 1 ns)
     * loses nothing: the same answer after the same expansions as the
     * search run through, also where it proves a level impossible; so
     * does one held after every expansion while the search backwards
     * runs, which shares the context with it. */
    static const char *const mb60[] = {
        " #########", " #       #", "##@##### #", "#  #   # #", "#  #   $.#",
        "#  ##$##.#", "##$##  #.#", "#   $  #.#", "#   #  ###", "########"};
    static const char *const stuck[] = {"#######", "#$#  .#", "# # $ #",
                                        "#  @ .#", "#######"};
    const char *const *levels[3] = {mb60, GOAL_TUNNEL, stuck};
    int n[3] = {NROWS(mb60), NROWS(GOAL_TUNNEL), NROWS(stuck)};
    for (int i = 0; i < 3; i++) {
        gs_result whole, turns, held;
        fess_solve(levels[i], n[i], 0, false, 0, &whole);
        fess_solve(levels[i], n[i], 1, false, 0, &turns);
        fess_solve(levels[i], n[i], 0, false, 1, &held);
        ck_assert_int_eq(turns.status, whole.status);
        ck_assert_uint_eq(turns.expanded, whole.expanded);
        ck_assert_int_eq(held.status, whole.status);
        ck_assert_uint_eq(held.expanded, whole.expanded);
        if (whole.status == GS_SOLVED) {
            ck_assert_str_eq(turns.moves, whole.moves);
            ck_assert_str_eq(held.moves, whole.moves);
            ck_assert(i > 0 || whole.expanded > 200); /* many turns */
        }
        gs_result_free(&whole);
        gs_result_free(&turns);
        gs_result_free(&held);
    }
}
END_TEST

START_TEST(test_fess_pair)
{
    /* In turns with the search by weight the answers still replay. */
    const char *const *levels[2] = {GOAL_ROOM, GOAL_TUNNEL};
    int n[2] = {NROWS(GOAL_ROOM), NROWS(GOAL_TUNNEL)};
    for (int i = 0; i < 2; i++) {
        gs_result res;
        fess_solve(levels[i], n[i], 0, true, 0, &res);
        ck_assert_int_eq(res.status, GS_SOLVED);
        long pushes = any_replay(levels[i], n[i], res.moves);
        ck_assert_msg(pushes == res.pushes, "level %d: %s does not replay", i,
                      res.moves);
        gs_result_free(&res);
    }
    /* Once the first run runs dry the plain search decides at once: the
     * second run, which would only run dry too, adds no expansions (it
     * used to: SokHard Eiligh, 563,195 states each, twice the time). */
    static const char *const stuck[] = {"########", "#..$$ @#", "########"};
    gs_result alone, paired;
    fess_solve(stuck, NROWS(stuck), 0, false, 0, &alone);
    fess_solve(stuck, NROWS(stuck), 0, true, 0, &paired);
    ck_assert_int_eq(alone.status, GS_IMPOSSIBLE);
    ck_assert_int_eq(paired.status, GS_IMPOSSIBLE);
    ck_assert_uint_gt(alone.expanded, 0);
    ck_assert_uint_eq(paired.expanded, alone.expanded);
    gs_result_free(&alone);
    gs_result_free(&paired);
}
END_TEST

START_TEST(test_fess_until)
{
    /* The search by weight alone in its burst (the search by estimate one
     * expansion), then the search by estimate alone, then turns. */
    const int64_t burst = 500, alone = 10000, T = SOK_FESS_TURN_NS;
    ck_assert(gs_sokoban_fess_until(1, 100, burst, alone) == burst);
    ck_assert(gs_sokoban_fess_until(0, 100, burst, alone) == 100);
    ck_assert(gs_sokoban_fess_until(0, burst, burst, alone) == alone);
    ck_assert(gs_sokoban_fess_until(1, burst, burst, alone) == burst);
    ck_assert(gs_sokoban_fess_until(0, alone, burst, alone) ==
              alone + T / 100 * SOK_FESS_SHARE);
    ck_assert(gs_sokoban_fess_until(1, alone, burst, alone) ==
              alone + T / 100 * (100 - SOK_FESS_SHARE));
    /* No burst, the search by estimate alone to the end. */
    ck_assert(gs_sokoban_fess_until(0, 7, 0, INT64_MAX) == INT64_MAX);
    /* Turns from the start. */
    ck_assert(gs_sokoban_fess_until(1, 7, 0, 0) ==
              7 + T / 100 * (100 - SOK_FESS_SHARE));
}
END_TEST

/* ------------------------------------------------ frozen goal boxes */

/* Pushes the box at (r, c) one step in direction d in x->occ and asks
 * whether the frozen-goal rule finds the child dead. Puts the box back. */
static bool frozen_after(sok_level *L, int r, int c, int d)
{
    sok_ctx *x = &L->x;
    int b = sok_level_cell(L, r, c), to = x->nb[b * 4 + d], slot = -1;
    for (int i = 0; i < x->nboxes; i++)
        if (x->boxes[i] == b)
            slot = i;
    ck_assert_int_ge(slot, 0);
    ck_assert(!x->occ[to]);
    x->occ[b] = 0;
    x->occ[to] = 1;
    ck_assert(!gs_sokoban_freeze_deadlock(x, to));
    bool dead = gs_sokoban_frozen_goal_dead(x, slot, to);
    x->occ[to] = 0;
    x->occ[b] = 1;
    return dead;
}

/* A goal column (column 1, rows 1-4) filled from its foot: the player
 * stands on the corner goal (4, 1) to push a box up the column. */
static const char *const column[] = {"########", "#.######", "#.######",
                                     "#.   $ #", "#.$    #", "### $$ #",
                                     "#    @ #", "########"};

START_TEST(test_frozen_goal_fires)
{
    /* A box pushed onto the corner goal first freezes there (walls below
     * and left), and the goals above it are out of every other box's
     * reach. */
    sok_level L;
    sok_level_load(&L, column, NROWS(column), SOK_ANY);
    ck_assert_ptr_nonnull(L.x.frozen);
    ck_assert(frozen_after(&L, 4, 2, 2)); /* left, onto the corner goal */
    sok_level_free(&L);
    /* The exact objectives prune with it too (a dead position has no
     * answer, shortest or not). */
    sok_level_load(&L, column, NROWS(column), SOK_MOVES);
    ck_assert(frozen_after(&L, 4, 2, 2));
    sok_level_free(&L);
}
END_TEST

START_TEST(test_frozen_goal_not)
{
    sok_level L;
    /* A push that freezes no goal box is not looked at. */
    sok_level_load(&L, column, NROWS(column), SOK_ANY);
    ck_assert(!frozen_after(&L, 3, 5, 2)); /* along row 3 */
    sok_level_free(&L);
    /* The same push onto the corner with the column above already full:
     * every goal box is frozen, and no box is left without a goal. */
    static const char *const full[] = {"########", "#*######", "#*######",
                                       "#*     #", "#.$    #", "###    #",
                                       "#    @ #", "########"};
    sok_level_load(&L, full, NROWS(full), SOK_ANY);
    ck_assert(!frozen_after(&L, 4, 2, 2));
    sok_level_free(&L);
    /* A box frozen on a corner goal of an open room walls nothing off:
     * the other box still reaches the other goal. */
    static const char *const open[] = {"#######", "#.    #", "#$  $ #",
                                       "#  @ .#", "#######"};
    sok_level_load(&L, open, NROWS(open), SOK_ANY);
    ck_assert(!frozen_after(&L, 2, 1, 0)); /* up, into the corner */
    sok_level_free(&L);
}
END_TEST

/* The rule keeps each cell's reach while the walls (the frozen goal boxes)
 * stay the same: one level's tables asked about many positions in turn
 * must answer as fresh tables asked about each alone. */
START_TEST(test_frozen_goal_memo)
{
    static const char *const room[] = {"#########", "#..   ..#", "#.     .#",
                                       "#       #", "#.     .#", "#..   ..#",
                                       "#########"};
    enum { R = 7, C = 9 };
    sok_level A; /* loaded with the first position */
    bool loaded = false;
    uint64_t seed = gs_prop_seed(31);
    int dead = 0, alive = 0;
    for (int iter = 0, iters = gs_prop_iters(3000); iter < iters; iter++) {
        /* 12 boxes on the 35 free cells, the player on another. */
        char buf[R][C + 1];
        const char *rows[R];
        for (int r = 0; r < R; r++) {
            memcpy(buf[r], room[r], C + 1);
            rows[r] = buf[r];
        }
        int boxes = 0;
        while (boxes < 12) {
            seed = seed * 6364136223846793005ull + 1442695040888963407ull;
            int r = 1 + (int)((seed >> 33) % (R - 2));
            int c = 1 + (int)((seed >> 40) % (C - 2));
            char *q = &buf[r][c];
            if (*q == ' ' || *q == '.') {
                *q = *q == '.' ? '*' : '$';
                boxes++;
            }
        }
        char *pl = strchr(buf[3], ' '); /* the player: row 3 */
        if (!pl)
            continue;
        *pl = '@';
        sok_level B;
        sok_level_load(&B, rows, R, SOK_MOVES);
        gs_prop_note("iter %d: {%s}", iter,
                     sok_level_show(&B, B.x.occ, B.x.start_player));
        if (!loaded)
            sok_level_load(&A, rows, R, SOK_MOVES);
        loaded = true;
        /* The same boxes in A's tables. */
        sok_ctx *a = &A.x, *b = &B.x;
        gs_sokoban_occ_set(a, a->boxes, 0);
        memcpy(a->boxes, b->boxes, sizeof *a->boxes * (size_t)b->nboxes);
        gs_sokoban_occ_set(a, a->boxes, 1);
        /* Each push of each box (the player's side free) in both. */
        for (int i = 0; i < b->nboxes; i++) {
            for (int d = 0; d < 4; d++) {
                int at = b->boxes[i], to = b->nb[at * 4 + d];
                int from = b->nb[at * 4 + (d ^ 1)];
                if (to < 0 || from < 0 || b->occ[to] || b->occ[from])
                    continue;
                a->occ[at] = b->occ[at] = 0;
                a->occ[to] = b->occ[to] = 1;
                bool fa = gs_sokoban_frozen_goal_dead(a, i, to);
                bool fb = gs_sokoban_frozen_goal_dead(b, i, to);
                GS_PROP_ASSERT(fa == fb, "box %d dir %d: %d, fresh tables %d",
                               i, d, fa, fb);
                dead += fb;
                alive += !fb;
                a->occ[to] = b->occ[to] = 0;
                a->occ[at] = b->occ[at] = 1;
            }
        }
        sok_level_free(&B);
    }
    if (!gs_prop_deep())
        ck_assert_msg(dead > 50 && alive > 50, "%d dead, %d alive", dead,
                      alive);
    ck_assert(loaded);
    sok_level_free(&A);
}
END_TEST

START_TEST(test_frozen_goal_solve)
{
    /* The column level solved by each `any` search and both exact
     * objectives (the rule on): the answers replay. With a box on the
     * corner goal at the start it is impossible, and each still proves
     * it. */
    sok_objective objs[5] = {SOK_ANY, SOK_ANY_FESS, SOK_ANY_ASTAR, SOK_MOVES,
                             SOK_PUSHES};
    for (int i = 0; i < 5; i++) {
        gs_result res;
        sok_level_solve(column, NROWS(column), objs[i], &res);
        assert_solved_replays(column, NROWS(column), &res);
    }
    static const char *const shut[] = {"########", "#.######", "#.######",
                                       "#.   $ #", "#*     #", "### $$ #",
                                       "#    @ #", "########"};
    for (int i = 0; i < 5; i++) {
        gs_result res;
        sok_level_solve(shut, NROWS(shut), objs[i], &res);
        ck_assert_int_eq(res.status, GS_IMPOSSIBLE);
        gs_result_free(&res);
    }
}
END_TEST

/* Solves rows for `any`'s objective obj with the learned patterns on
 * whatever the box count, without limits, into res. */
static void solve_learning(const char *const *rows, int n, sok_objective obj,
                           gs_result *res)
{
    sok_level_solve_with(rows, n, obj, NULL, true, res);
}

START_TEST(test_any_learns)
{
    /* `any` learns deadlock patterns too (all but the feature-space
     * search): a dead pair (see test_learn_fires) stays impossible for
     * each search, and the column level is solved with answers that
     * replay. */
    static const char *const three[] = {"#######", "#@    #", "#$  $ #",
                                        "#.$ ..#", "#######"};
    sok_objective objs[3] = {SOK_ANY, SOK_ANY_FESS, SOK_ANY_ASTAR};
    for (int i = 0; i < 3; i++) {
        gs_result res;
        solve_learning(three, NROWS(three), objs[i], &res);
        ck_assert_int_eq(res.status, GS_IMPOSSIBLE);
        gs_result_free(&res);
        solve_learning(column, NROWS(column), objs[i], &res);
        assert_solved_replays(column, NROWS(column), &res);
    }
}
END_TEST

/* `any`'s time split: up to 10 s A*, plain and weighted greedy, the
 * feature-space search with the table and the search backwards end at
 * their percentages and the one by estimate has the rest, the long
 * slices none. Past 10 s the first 10 s are the slices at 10 s, unchanged
 * (a longer limit does not delay what they find); then a rearrangement's
 * A* has its share of the time past 10 s, the search backwards its share
 * of what is left when that is longer than its slice at 10 s, and the two
 * feature-space searches the rest. The ends never fall and the last is
 * the deadline. */
START_TEST(test_any_slices)
{
    const int64_t S = 1000000000LL;
    int64_t end[SOK_ANY_SLICES], at10[2][SOK_ANY_SLICES];
    static const int64_t pct[] = {SOK_ASTAR_END, SOK_PLAIN_END, SOK_GREEDY_END,
                                  SOK_TABLE_FESS_END,
                                  SOK_TABLE_FESS_END + SOK_PULL_SHORT_SHARE};
    int b = SOK_SLICE_PULL, la = SOK_SLICE_LONG_ASTAR, lb = SOK_SLICE_LONG_PULL,
        pr = SOK_SLICE_PAIR;
    gs_sokoban_any_slices(10 * S, false, end);
    for (int i = 0; i <= SOK_SLICE_PULL; i++)
        ck_assert(end[i] == 10 * S / 100 * pct[i]);
    ck_assert(end[b] > end[b - 1]);
    for (int i = SOK_SLICE_FESS; i < SOK_ANY_SLICES; i++)
        ck_assert(end[i] == 10 * S);
    for (int i = la; i < SOK_ANY_SLICES; i++)
        ck_assert(!gs_sokoban_any_slice_runs(end, i));
    for (int re = 0; re < 2; re++)
        gs_sokoban_any_slices(10 * S, re, at10[re]);
    gs_sokoban_any_slices(60 * S, false, end);
    ck_assert(end[la] == 10 * S); /* no A* past 10 s */
    ck_assert(end[lb] - end[la] == 50 * S / 100 * SOK_PULL_SHARE);
    ck_assert(end[pr] == 60 * S);
    gs_sokoban_any_slices(60 * S, true, end);
    ck_assert(end[la] == 10 * S + 50 * S / 100 * SOK_REARRANGE_ASTAR_END);
    ck_assert(end[lb] - end[la] == (60 * S - end[la]) / 100 * SOK_PULL_SHARE);
    ck_assert(end[pr] == 60 * S);
    /* At 11 s the search backwards would have less than at 10 s: none. */
    gs_sokoban_any_slices(11 * S, false, end);
    ck_assert(!gs_sokoban_any_slice_runs(end, lb));
    ck_assert(gs_sokoban_any_slice_runs(end, pr));
    int64_t spans[] = {0,      1,      5 * S,  10 * S + 1, 11 * S,
                       15 * S, 20 * S, 62 * S, 120 * S,    600 * S};
    for (size_t i = 0; i < sizeof spans / sizeof *spans; i++) {
        for (int re = 0; re < 2; re++) {
            int64_t span = spans[i];
            gs_sokoban_any_slices(span, re, end);
            for (int k = 1; k < SOK_ANY_SLICES; k++)
                ck_assert(end[k] >= end[k - 1]);
            ck_assert(end[0] == (span > 10 * S ? at10[re][0]
                                 : span > 0    ? span / 100 *
                                                  (re ? SOK_REARRANGE_ASTAR_END
                                                      : SOK_ASTAR_END)
                                            : 0));
            if (span <= 10 * S) {
                ck_assert(end[SOK_ANY_SLICES - 1] ==
                          (span > 0 ? span / 100 * 100 : 0));
                /* The feature-space search by estimate runs to the
                 * deadline (a last slice once skipped as empty made a
                 * 120 s solve answer `limit` after 15 s). */
                if (span >= S)
                    ck_assert(end[SOK_SLICE_FESS] == span &&
                              gs_sokoban_any_slice_runs(end, SOK_SLICE_FESS));
                continue;
            }
            ck_assert(end[SOK_ANY_SLICES - 1] == span);
            for (int k = 0; k <= SOK_SLICE_FESS; k++)
                ck_assert(end[k] == at10[re][k]);
            ck_assert(gs_sokoban_any_slice_runs(end, pr));
            ck_assert(end[la] == 10 * S + (re ? (span - 10 * S) / 100 *
                                                    SOK_REARRANGE_ASTAR_END
                                              : 0));
            int64_t pull = end[lb] - end[la];
            ck_assert(pull == 0 || pull > at10[re][b] - at10[re][b - 1]);
            ck_assert(pull == 0 ||
                      pull == (span - end[la]) / 100 * SOK_PULL_SHARE);
            if (span >= 20 * S)
                ck_assert(pull > 0);
        }
    }
    gs_sokoban_any_slices(120 * S, false, end);
    end[SOK_SLICE_GREEDY] = end[SOK_SLICE_PLAIN];
    ck_assert(!gs_sokoban_any_slice_runs(end, SOK_SLICE_GREEDY));
    ck_assert(gs_sokoban_any_slice_runs(end, SOK_SLICE_ASTAR));
}
END_TEST

/* gs_sokoban_rearranges: fires where the bound at the start is below a
 * third of the boxes (every box but one on a goal, one push to go), not
 * where it reaches it; and `any` solves such a level (its A* without the
 * perimeter table) with an answer that replays. */
START_TEST(test_rearranges)
{
    /* Four boxes, three on goals; the fourth is one push from the last
     * goal, but only once it has stepped around. */
    static const char *const zip[] = {"#########", "#       #", "#       #",
                                      "# ***$. #", "#       #", "#   @   #",
                                      "#########"};
    /* Three boxes, bound 1: 3 is not below 3. */
    static const char *const near[] = {"#########", "#       #", "# **$.  #",
                                       "#   @   #", "#########"};
    static const char *const far[] = {"#########", "#  $  . #", "# $   . #",
                                      "#   @   #", "#########"};
    const char *const *levels[] = {zip, near, far};
    int nrows[] = {NROWS(zip), NROWS(near), NROWS(far)};
    bool want[] = {true, false, false};
    for (int i = 0; i < 3; i++) {
        sok_level L;
        sok_level_load(&L, levels[i], nrows[i], SOK_ANY);
        ck_assert_msg(gs_sokoban_rearranges(&L.x) == want[i], "level %d", i);
        sok_level_free(&L);
    }
    gs_limits lim = {.deadline_ns = gs_now_ns() + 60000000000LL};
    gs_result res;
    sok_level_solve_with(zip, NROWS(zip), SOK_ANY, &lim, false, &res);
    assert_solved_replays(zip, NROWS(zip), &res);
}
END_TEST

/* A level of rooms, doors and corridors for the area analyses' tests. */
static const char *const ROOMS[] = {
    "###########", "#   #  $ .#", "# # # #   #", "#   $   # #", "### # ##  #",
    "#@ .  #   #", "# ## ##.# #", "#         #", "###########",
};

/* gs_sokoban_zone_push for the box on `out` moved onto free cell `in`,
 * the player then on pl, against a flood and gs_sokoban_regions of the
 * position after the move (x->zone analysed before it). */
static void check_zone_move(sok_ctx *x, int in, int out, int pl)
{
    int regions = -1;
    int lo = gs_sokoban_zone_push(x, &x->zone, in, out, pl, &regions);
    x->occ[out] = 0;
    x->occ[in] = 1;
    int want = gs_sokoban_flood(x, pl);
    int want_regions = gs_sokoban_regions(x);
    x->occ[in] = 0;
    x->occ[out] = 1;
    GS_PROP_ASSERT(lo == want && regions == want_regions,
                   "box %d to %d, player %d: area %d of %d, flood %d of %d",
                   out, in, pl, lo, regions, want, want_regions);
}

/* Loads ROOMS for `any`; its tables. */
static sok_ctx *rooms_load(sok_level *L)
{
    sok_level_load(L, ROOMS, NROWS(ROOMS), SOK_ANY);
    return &L->x;
}

/* The tests' generator: the next of a linear congruential sequence. */
static uint32_t lcg_next(uint32_t *seed)
{
    *seed = *seed * 1103515245u + 12345u;
    return *seed;
}

/* A box on each cell of x->occ with probability pct %. */
static void random_boxes(sok_ctx *x, uint32_t *seed, int pct)
{
    for (int c = 0; c < x->n; c++)
        x->occ[c] = (int)(lcg_next(seed) >> 16) % 100 < pct;
}

/* A cell drawn at random. */
static int random_cell(const sok_ctx *x, uint32_t *seed)
{
    return (int)((lcg_next(seed) >> 8) % (uint32_t)x->n);
}

/* zone.c: after any box moves onto a free neighbour (the player then on
 * the box's old cell), or onto any free cell with the player anywhere
 * free (a macro), the smallest cell of the player's area and the
 * count of areas equal what a flood and gs_sokoban_regions find; on a
 * hand-made level with rooms, doors and corridors, under many random
 * box layouts (articulation points, one-cell areas, areas merging). */
START_TEST(test_zone_push)
{
    sok_level L;
    sok_ctx *x = rooms_load(&L);
    ck_assert(x->zone_ok);
    uint32_t seed = (uint32_t)gs_prop_seed(12345);
    int checked = 0, moved = 0;
    for (int round = 0, rounds = gs_prop_iters(300); round < rounds; round++) {
        /* Random boxes, 10 to 50 % of the cells (round 0: the level's). */
        if (round > 0) {
            random_boxes(x, &seed, 10 + round % 5 * 10);
        }
        gs_prop_note("round %d: {%s}", round, sok_level_show(&L, x->occ, -1));
        gs_sokoban_zone_analyse(x, &x->zone);
        for (int out = 0; out < x->n; out++) {
            if (!x->occ[out])
                continue;
            for (int d = 0; d < 4; d++) {
                int in = x->nb[out * 4 + d], regions = -1;
                if (in < 0)
                    continue;
                if (x->occ[in]) { /* no room to push */
                    int lo = gs_sokoban_zone_push(x, &x->zone, in, out, out,
                                                  &regions);
                    GS_PROP_ASSERT(lo == -1, "box %d to box %d: area %d", out,
                                   in, lo);
                    continue;
                }
                check_zone_move(x, in, out, out);
                checked++;
            }
        }
        /* A macro's move: the box from `out` to any free cell, the
         * player on any cell free after it. */
        for (int k = 0; k < 40; k++) {
            int out = random_cell(x, &seed);
            int in = random_cell(x, &seed);
            int pl = random_cell(x, &seed);
            if (!x->occ[out] || x->occ[in] || pl == in ||
                (x->occ[pl] && pl != out))
                continue;
            check_zone_move(x, in, out, pl);
            moved++;
        }
    }
    if (!gs_prop_deep()) {
        ck_assert_int_gt(checked, 1000);
        ck_assert_int_gt(moved, 500);
    }
    sok_level_free(&L);
}
END_TEST

/* A level whose region spans 64 columns (the row masks' every bit, the
 * carry off the top one), with walls that cut the rows into runs, and a
 * run of 46 cells (the occluded fill's last round). */
static const char *const WIDE[] = {
    "##################################################################",
    "#@   #      #        #     #         #   #      #     #    #    .#",
    "# $      #     ##  #    #     ##   #   #    #      #    ##       #",
    "##############################################################  ##",
    "#     #      #    #                                              #",
    "##################################################################",
};

/* bits.c on the level in x under random boxes: for every free cell, the
 * area's smallest cell and its cells are what a flood finds. Returns the
 * areas checked. */
static int check_bits(sok_level *L, uint32_t *seed, int rounds)
{
    sok_ctx *x = &L->x;
    sok_bits *b = x->bits;
    int checked = 0;
    for (int round = 0; round < rounds; round++) {
        random_boxes(x, seed, round % 6 * 10);
        gs_prop_note("round %d: {%s}", round, sok_level_show(L, x->occ, -1));
        memcpy(b->free, b->floor, sizeof *b->free * (size_t)b->rows);
        for (int c = 0; c < x->n; c++)
            if (x->occ[c])
                gs_sokoban_bits_flip(b, c);
        for (int from = 0; from < x->n; from++) {
            if (x->occ[from])
                continue;
            int lo = gs_sokoban_bits_area(x, from);
            int want = gs_sokoban_flood(x, from);
            GS_PROP_ASSERT(lo == want, "from %d: area %d, flood %d", from, lo,
                           want);
            for (int c = 0; c < x->n; c++)
                GS_PROP_ASSERT(
                    gs_sokoban_bits_has(b, c) == (x->seen[c] == x->gen),
                    "from %d: cell %d in the masks %d, flood %d", from, c,
                    gs_sokoban_bits_has(b, c), x->seen[c] == x->gen);
            checked++;
        }
    }
    for (int c = 0; c < x->n; c++)
        x->occ[c] = 0;
    return checked;
}

/* bits.c: the row masks' area equals a flood's (its smallest cell and
 * every cell in it) under random boxes, on rooms and corridors and on a
 * region 64 columns wide; a region of 65 columns has no masks. */
START_TEST(test_bits_area)
{
    sok_level L;
    uint32_t seed = (uint32_t)gs_prop_seed(777);
    sok_ctx *x = rooms_load(&L);
    ck_assert_ptr_nonnull(x->bits);
    int checked = check_bits(&L, &seed, gs_prop_iters(60));
    if (!gs_prop_deep())
        ck_assert_int_gt(checked, 1000);
    sok_level_free(&L);
    sok_level_load(&L, WIDE, NROWS(WIDE), SOK_ANY);
    ck_assert_ptr_nonnull(L.x.bits);
    ck_assert_uint_eq(L.x.bits->floor[0] >> 63, 1); /* the top bit used */
    checked = check_bits(&L, &seed, gs_prop_iters(12));
    if (!gs_prop_deep())
        ck_assert_int_gt(checked, 500);
    sok_level_free(&L);
    /* One column more: the last run reaches past 64 bits. */
    char *rows[NROWS(WIDE)];
    for (size_t i = 0; i < NROWS(WIDE); i++) {
        size_t n = strlen(WIDE[i]);
        rows[i] = malloc(n + 2);
        ck_assert_ptr_nonnull(rows[i]);
        memcpy(rows[i], WIDE[i], n - 1);
        rows[i][n - 1] = i == 0 || i + 1 == NROWS(WIDE) ? '#' : ' ';
        rows[i][n] = '#';
        rows[i][n + 1] = 0;
    }
    sok_level_load(&L, (const char *const *)rows, NROWS(WIDE), SOK_ANY);
    ck_assert_ptr_null(L.x.bits);
    sok_level_free(&L);
    for (size_t i = 0; i < NROWS(WIDE); i++)
        free(rows[i]);
}
END_TEST

/* The search by weight (x->fess_dual): every other pick of a cell takes
 * its state of least weight (moves on its path no advisor made), where
 * the search by estimate takes the best estimate. */
START_TEST(test_fess_dual_order)
{
    sok_level L;
    sok_level_load(&L, ONE_ROW, NROWS(ONE_ROW), SOK_ANY);
    for (int dual = 0; dual < 2; dual++) {
        L.x.fess_dual = dual;
        sok_fess *f = gs_sokoban_fess_new(&L.x, 0);
        ck_assert_ptr_nonnull(f);
        const uint32_t A = 1;
        uint64_t id, g;
        /* Two states of weight 1; the better one's children weigh 2. */
        ck_assert_int_eq(gs_sokoban_fess_push(f, A, 1, 30, 0, false), GS_OK);
        ck_assert_int_eq(gs_sokoban_fess_push(f, A, 2, 40, 0, false), GS_OK);
        ck_assert_int_eq(gs_sokoban_fess_pop(f, &id, &g), 1); /* A's best */
        ck_assert_uint_eq(id, 1);
        ck_assert_int_eq(gs_sokoban_fess_push(f, A, 3, 5, 1, false), GS_OK);
        ck_assert_int_eq(gs_sokoban_fess_push(f, A, 4, 6, 1, false), GS_OK);
        ck_assert_int_eq(gs_sokoban_fess_pop(f, &id, &g), 1); /* greedy's */
        ck_assert_uint_eq(id, 3);
        /* A's second pick: by weight state 2 (weight 1, estimate 40),
         * by estimate state 4 (weight 2, estimate 6). */
        ck_assert_int_eq(gs_sokoban_fess_pop(f, &id, &g), 1);
        ck_assert_uint_eq(id, dual ? 2 : 4);
        ck_assert_int_eq(gs_sokoban_fess_pop(f, &id, &g), 1);
        ck_assert_uint_eq(id, dual ? 4 : 2);
        ck_assert_int_eq(gs_sokoban_fess_pop(f, &id, &g), 0);
        gs_sokoban_fess_free(f);
    }
    L.x.fess_dual = false;
    sok_level_free(&L);
}
END_TEST

/* gs_sokoban_box_sides (the goal macros' and the packing advisor's box
 * paths): the sides of a box the player reaches from one side, as a
 * flood from that side finds them, under random box layouts; 0 from a
 * wall or a box. */
START_TEST(test_box_sides)
{
    sok_level L;
    sok_ctx *x = rooms_load(&L);
    uint32_t seed = (uint32_t)gs_prop_seed(777);
    int checked = 0;
    for (int round = 0, rounds = gs_prop_iters(200); round < rounds; round++) {
        random_boxes(x, &seed, 10 + round % 4 * 10);
        gs_prop_note("round %d: {%s}", round, sok_level_show(&L, x->occ, -1));
        for (int c = 0; c < x->n; c++) {
            if (!x->occ[c])
                continue;
            for (int side = 0; side < 4; side++) {
                unsigned got = gs_sokoban_box_sides(x, c, side);
                int s0 = x->nb[c * 4 + side];
                if (s0 < 0 || x->occ[s0]) {
                    GS_PROP_ASSERT(got == 0, "box %d side %d blocked: %#x", c,
                                   side, got);
                    continue;
                }
                gs_sokoban_flood(x, s0);
                unsigned want = 0;
                for (int d = 0; d < 4; d++) {
                    int t = x->nb[c * 4 + d];
                    if (t >= 0 && !x->occ[t] && x->seen[t] == x->gen)
                        want |= 1u << d;
                }
                GS_PROP_ASSERT(got == want, "box %d side %d: %#x, flood %#x", c,
                               side, got, want);
                checked++;
            }
        }
    }
    if (!gs_prop_deep())
        ck_assert_int_gt(checked, 1000);
    sok_level_free(&L);
}
END_TEST

/* gs_sokoban_zone_sides (the goal macros' box paths without a flood):
 * for a box moved from a box cell `out` onto a free cell `in`, the sides
 * read off the analysis of the position before equal what
 * gs_sokoban_box_sides finds in the position after, under random
 * layouts (areas split and joined, the box's old cell among the sides). */
START_TEST(test_zone_sides)
{
    sok_level L;
    sok_ctx *x = rooms_load(&L);
    ck_assert(x->zone_ok);
    uint32_t seed = (uint32_t)gs_prop_seed(4242);
    int checked = 0, beside = 0;
    for (int round = 0, rounds = gs_prop_iters(300); round < rounds; round++) {
        random_boxes(x, &seed, 10 + round % 5 * 10);
        gs_prop_note("round %d: {%s}", round, sok_level_show(&L, x->occ, -1));
        gs_sokoban_zone_analyse(x, &x->zone);
        for (int k = 0; k < 20; k++) {
            int in = random_cell(x, &seed);
            int out = random_cell(x, &seed);
            /* Half the time a box beside `in`: a push. */
            if (k % 2 == 0)
                for (int d = 0; d < 4; d++) {
                    int y = x->nb[in * 4 + d];
                    if (y >= 0 && x->occ[y])
                        out = y;
                }
            if (x->occ[in] || !x->occ[out])
                continue;
            x->occ[in] = 1;
            x->occ[out] = 0;
            for (int side = 0; side < 4; side++) {
                unsigned got =
                    gs_sokoban_zone_sides(x, &x->zone, in, out, side);
                unsigned want = gs_sokoban_box_sides(x, in, side);
                GS_PROP_ASSERT(got == want,
                               "box %d to %d, side %d: %#x, box_sides %#x", out,
                               in, side, got, want);
                beside += x->nb[in * 4 + side] == out;
                checked++;
            }
            x->occ[in] = 0;
            x->occ[out] = 1;
        }
    }
    if (!gs_prop_deep()) {
        ck_assert_int_gt(checked, 2000);
        ck_assert_int_gt(beside, 200);
    }
    sok_level_free(&L);
}
END_TEST

Suite *gs_test_sokoban_any_suite(void)
{
    Suite *s = suite_create("sokoban_any");
    TCase *tc = tcase_create("any");
    tcase_add_test(tc, test_goal_macro_fires);
    tcase_add_test(tc, test_goal_macro_not);
    tcase_add_test(tc, test_goal_macro_solve);
    tcase_add_test(tc, test_goal_macro_dead);
    tcase_add_test(tc, test_goal_room);
    tcase_add_test(tc, test_fess_features);
    tcase_add_test(tc, test_fess_conn_advisor);
    tcase_add_test(tc, test_fess_order);
    tcase_add_test(tc, test_fess_dual_order);
    tcase_add_test(tc, test_fess_pack_advisor);
    tcase_add_test(tc, test_fess_solve);
    tcase_add_test(tc, test_fess_turns);
    tcase_add_test(tc, test_fess_pair);
    tcase_add_test(tc, test_fess_until);
    tcase_add_test(tc, test_any_slices);
    tcase_add_test(tc, test_any_long_held);
    tcase_add_test(tc, test_pull_solve);
    tcase_add_test(tc, test_pull_slice_late);
    tcase_add_test(tc, test_rearranges);
    tcase_add_test(tc, test_any_short_deadlines);
    tcase_add_test(tc, test_improve_shortens);
    tcase_add_test(tc, test_improve_not);
    tcase_add_test(tc, test_frozen_goal_fires);
    tcase_add_test(tc, test_frozen_goal_not);
    tcase_add_test(tc, test_frozen_goal_solve);
    tcase_add_test(tc, test_any_learns);
    suite_add_tcase(s, tc);
    /* Random positions against floods and fresh tables. Named "property"
     * in every suite: make check-deep runs these. */
    tc = tcase_create("property");
    tcase_add_checked_fixture(tc, gs_prop_unnote, gs_prop_unnote);
    tcase_add_test(tc, test_zone_push);
    tcase_add_test(tc, test_bits_area);
    tcase_add_test(tc, test_box_sides);
    tcase_add_test(tc, test_zone_sides);
    tcase_add_test(tc, test_frozen_goal_memo);
    suite_add_tcase(s, tc);
    return s;
}
