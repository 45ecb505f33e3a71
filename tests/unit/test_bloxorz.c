/* test_bloxorz.c - unit tests for the bloxorz puzzle: the judge samples
 * through the text interface, JSON validation (400 vs 422 and the detail
 * text), the tricky rules, limits, and a property test against a plain
 * brute-force BFS written here with its own move rules and replay. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/puzzle.h"
#include "puzzle_check.h"
#include "suites.h"
#include "../samples.h"

extern const gs_puzzle gs_puzzle_bloxorz;
static const gs_puzzle *P = &gs_puzzle_bloxorz;

/* ------------------------------------------------ brute force and replay */

/* The block as the cells it covers; a standing block covers (r1,c1) only
 * (r2,c2 equal to it). Kept apart from the solver's orientation tables. */
typedef struct blk {
    int r1, c1, r2, c2;
} blk;

static int standing(blk b)
{
    return b.r1 == b.r2 && b.c1 == b.c2;
}

/* Rolls b by move m as PUZZLES.md words it. */
static blk roll(blk b, char m)
{
    int dr = m == 'U' ? -1 : m == 'D' ? 1 : 0;
    int dc = m == 'L' ? -1 : m == 'R' ? 1 : 0;
    blk n;
    if (standing(b)) {
        /* Lies down on the two cells next to it in direction m. */
        n.r1 = b.r1 + dr;
        n.c1 = b.c1 + dc;
        n.r2 = b.r1 + 2 * dr;
        n.c2 = b.c1 + 2 * dc;
    } else {
        int horiz = b.r1 == b.r2;
        int along = horiz ? (dc != 0) : (dr != 0);
        if (along) {
            /* Stands up on the cell beyond the end it rolls over. */
            int far = (dr + dc) > 0;
            int r =
                far ? (b.r1 > b.r2 ? b.r1 : b.r2) : (b.r1 < b.r2 ? b.r1 : b.r2);
            int c =
                far ? (b.c1 > b.c2 ? b.c1 : b.c2) : (b.c1 < b.c2 ? b.c1 : b.c2);
            n.r1 = n.r2 = r + dr;
            n.c1 = n.c2 = c + dc;
        } else {
            n.r1 = b.r1 + dr;
            n.c1 = b.c1 + dc;
            n.r2 = b.r2 + dr;
            n.c2 = b.c2 + dc;
        }
    }
    /* Normalise so the first cell is the upper-left one. */
    if (n.r2 < n.r1 || n.c2 < n.c1) {
        blk t = {n.r2, n.c2, n.r1, n.c1};
        n = t;
    }
    return n;
}

static char at(char **g, int rows, int cols, int r, int c)
{
    if (r < 0 || c < 0 || r >= rows || c >= cols)
        return '#';
    return g[r][c];
}

static int legal(char **g, int rows, int cols, blk b)
{
    if (at(g, rows, cols, b.r1, b.c1) == '#' ||
        at(g, rows, cols, b.r2, b.c2) == '#')
        return 0;
    return !(standing(b) && at(g, rows, cols, b.r1, b.c1) == 'E');
}

static blk find_start(char **g, int rows, int cols)
{
    blk b = {-1, -1, -1, -1};
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            if (g[r][c] == 'X') {
                if (b.r1 < 0) {
                    b.r1 = b.r2 = r;
                    b.c1 = b.c2 = c;
                } else {
                    b.r2 = r;
                    b.c2 = c;
                }
            }
    return b;
}

static int is_goal(char **g, blk b)
{
    return standing(b) && g[b.r1][b.c1] == 'O';
}

/* Replays moves from the start; true when every state is legal and the
 * last one stands on O. */
static int replay(char **g, int rows, int cols, const char *moves)
{
    blk b = find_start(g, rows, cols);
    for (const char *m = moves; *m; m++) {
        if (!strchr("UDLR", *m))
            return 0;
        b = roll(b, *m);
        if (!legal(g, rows, cols, b))
            return 0;
    }
    return is_goal(g, b);
}

/* Plain BFS over blocks, with a linear-scan visited list: -1 when
 * impossible, else the minimum number of moves. *seen (may be NULL) gets
 * the number of states it stored: 1 when the start cannot roll at all. */
static int brute(char **g, int rows, int cols, int *seen)
{
    size_t cap = (size_t)rows * cols * 3 + 1, head = 0, tail = 0;
    blk *q = malloc(cap * sizeof *q);
    int *dist = malloc(cap * sizeof *dist);
    ck_assert(q && dist);
    q[tail] = find_start(g, rows, cols);
    dist[tail++] = 0;
    int answer = -1;
    while (head < tail && answer < 0) {
        blk b = q[head];
        int d = dist[head++];
        if (is_goal(g, b)) {
            answer = d;
            break;
        }
        for (const char *m = "UDLR"; *m; m++) {
            blk n = roll(b, *m);
            if (!legal(g, rows, cols, n))
                continue;
            size_t i;
            for (i = 0; i < tail; i++)
                if (memcmp(&q[i], &n, sizeof n) == 0)
                    break;
            if (i == tail) {
                ck_assert(tail < cap);
                q[tail] = n;
                dist[tail++] = d + 1;
            }
        }
    }
    free(q);
    free(dist);
    if (seen)
        *seen = (int)tail;
    return answer;
}

/* Builds {"grid": [...]} for rows g. */
static char *grid_json(char **g, int rows)
{
    cJSON *body = cJSON_CreateObject();
    cJSON *arr = cJSON_AddArrayToObject(body, "grid");
    for (int r = 0; r < rows; r++)
        cJSON_AddItemToArray(arr, cJSON_CreateString(g[r]));
    char *s = cJSON_PrintUnformatted(body);
    cJSON_Delete(body);
    ck_assert_ptr_nonnull(s);
    return s;
}

/* Solves rows g through JSON; checks the answer against want (the brute
 * force's) and replays the moves. Returns the steps or -1. */
static int check_json(char **g, int rows, int cols, int want)
{
    char *json = grid_json(g, rows);
    gs_result res = gs_check_solve_json(P, json, NULL);
    int got = -1;
    if (want < 0) {
        ck_assert_msg(res.status == GS_IMPOSSIBLE, "%s: expected impossible",
                      json);
        ck_assert_msg(res.moves == NULL, "%s: moves %s when impossible", json,
                      res.moves);
    } else {
        ck_assert_msg(res.status == GS_SOLVED, "%s: expected %d steps", json,
                      want);
        ck_assert_msg(res.steps == (size_t)want, "%s: %zu steps, expected %d",
                      json, res.steps, want);
        ck_assert_msg(strlen(res.moves) == res.steps, "%s: moves %s for %zu",
                      json, res.moves, res.steps);
        ck_assert_msg(replay(g, rows, cols, res.moves),
                      "%s: moves %s do not replay", json, res.moves);
        ck_assert_msg(res.optimal, "%s: not marked optimal", json);
        got = (int)res.steps;
    }
    gs_result_free(&res);
    free(json);
    return got;
}

static int solve_checked(char **g, int rows, int cols)
{
    return check_json(g, rows, cols, brute(g, rows, cols, NULL));
}

/* Writes rows g as one judge case ("N M", rows first, then the rows),
 * runs it through parse_text / solve / format_text, and expects the line
 * the brute force's answer want makes. Every other case ends with the
 * "0 0" terminator, the rest at the end of input. */
static void check_text(char **g, int rows, int cols, int want, int terminate)
{
    gs_buf in = GS_BUF_INIT;
    gs_buf_printf(&in, "%d %d\n", rows, cols);
    for (int r = 0; r < rows; r++)
        gs_buf_printf(&in, "%s\n", g[r]);
    if (terminate)
        gs_buf_puts(&in, "0 0\n");
    ck_assert_int_eq(gs_buf_status(&in), GS_OK);
    char line[32];
    if (want < 0)
        snprintf(line, sizeof line, "Impossible\n");
    else
        snprintf(line, sizeof line, "%d\n", want);
    gs_check_judge_line(P, in.data, line);
    gs_buf_free(&in);
}

/* How the random instances came out: each property test insists that
 * the kinds that exercise the solver are well represented, and that the
 * trivial ones do not crowd them out. */
typedef struct mix {
    int cases, solved, impossible;
    int one_step; /* solved by a single roll */
    int stuck;    /* impossible because the start cannot roll at all */
    int deep;     /* solved in 6 rolls or more */
} mix;

/* Notes the random board of iteration iter for the failure messages. */
static void note_board(int iter, char **g, int rows)
{
    gs_buf b = GS_BUF_INIT;
    for (int r = 0; r < rows; r++)
        gs_buf_printf(&b, "%s%s", r ? "\n" : "", g[r]);
    ck_assert_int_eq(gs_buf_status(&b), GS_OK);
    gs_prop_note("iter %d:\n%s", iter, b.data);
    gs_buf_free(&b);
}

/* Checks rows g through JSON and judge text against the brute force,
 * and tallies the instance in m. */
static void check_random(char **g, int rows, int cols, mix *m)
{
    int seen;
    int want = brute(g, rows, cols, &seen);
    ck_assert_int_eq(check_json(g, rows, cols, want), want);
    check_text(g, rows, cols, want, m->cases % 2);
    m->cases++;
    m->solved += want >= 0;
    m->impossible += want < 0;
    m->one_step += want == 1;
    m->stuck += want < 0 && seen == 1;
    m->deep += want >= 6;
}

/* ---------------------------------------------------------------- tests */

/* The conformance set's tricky bloxorz cases (judge text). */
static const char TRICKY_IN[] = "5 7\n#######\n#.XX..#\n#.....#\n#...O.#\n"
                                "#######\n"
                                "6 7\n#######\n#..X..#\n#..X..#\n#.....#\n"
                                "#...O.#\n#######\n"
                                "3 6\n######\n#XEEO#\n######\n"
                                "3 9\n#########\n#X..E..O#\n#########\n"
                                "3 9\n#########\n#X.....O#\n#########\n"
                                "3 7\n#######\n#XX..O#\n#######\n"
                                "3 5\n#####\n#X#O#\n#####\n"
                                "7 7\n#######\n#..X###\n#..##O#\n#....E#\n"
                                "#....E#\n#.....#\n#######\n"
                                "0 0\n";

START_TEST(test_judge_sample)
{
    char *out = gs_check_judge(P, GS_SAMPLE_BLOXORZ_IN, NULL);
    ck_assert_str_eq(out, "10\n");
    free(out);
}
END_TEST

START_TEST(test_judge_tricky)
{
    char *out = gs_check_judge(P, TRICKY_IN, NULL);
    ck_assert_str_eq(out, "3\n5\n2\nImpossible\n4\nImpossible\nImpossible\n"
                          "10\n");
    free(out);
}
END_TEST

START_TEST(test_judge_blank_lines_crlf_eof)
{
    /* Blank lines between and inside cases, CRLF, no terminator. */
    char *out = gs_check_judge(P,
                               "\n3 6\r\n\r\n######\r\n#XEEO#\r\n\n######\r\n\n"
                               "  \n3 5\n#####\n#X#O#\n#####\n",
                               NULL);
    ck_assert_str_eq(out, "2\nImpossible\n");
    free(out);
}
END_TEST

START_TEST(test_judge_errors)
{
    static const struct {
        const char *in;
        const char *want;
    } cases[] = {
        {"3 6\n######\n#XEEO\n######\n0 0\n",
         "line 3: grid row 1 has 5 cells, expected 6"},
        {"3 6\n######\n#XEZO#\n######\n", "line 3: grid row 1 column 3"},
        {"3 6\n######\n#XEEO#\n", "input ended after 2 of 3 grid rows"},
        {"3 x\n", "line 1"},
        {"-3 6\n", "invalid"},
        {"3 6\n######\n#X.XO#\n######\n", "not adjacent"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        gs_check_expect_text_error(P, cases[i].in, GS_EINVALID, cases[i].want);
}
END_TEST

START_TEST(test_json_errors)
{
    gs_check_expect_error(P, "{}", GS_EBADREQ, "\"grid\"");
    gs_check_expect_error(P, "{\"grid\": \"#X.O#\"}", GS_EBADREQ, "\"grid\"");
    gs_check_expect_error(P, "{\"grid\": [\"#XO#\", 5]}", GS_EBADREQ, "row 1");
    gs_check_expect_error(P, "{\"grid\": []}", GS_EINVALID, "empty");
    gs_check_expect_error(P, "{\"grid\": [\"\"]}", GS_EINVALID,
                          "grid row 0 is empty");
    /* Ragged: the exact message of the spec. */
    gs_check_expect_error(P,
                          "{\"grid\": [\"#######\", \"#..X..#\", \"#.....#\", "
                          "\"#..O..\", \"#######\"]}",
                          GS_EINVALID, "grid row 3 has 6 cells, expected 7");
    gs_check_expect_error(P, "{\"grid\": [\"#####\", \"#X?O#\", \"#####\"]}",
                          GS_EINVALID,
                          "grid row 1 column 2 has unknown cell '?'");
    gs_check_expect_error(P, "{\"grid\": [\"#####\", \"#X O#\", \"#####\"]}",
                          GS_EINVALID,
                          "grid row 1 column 2 has unknown cell ' '");
    gs_check_expect_error(
        P, "{\"grid\": [\"#####\", \"#X.O#\", \"#\\u0001###\"]}", GS_EINVALID,
        "grid row 2 column 1 has unknown cell byte 0x01");
    gs_check_expect_error(
        P, "{\"grid\": [\"#####\", \"#X.X#\", \"#O..#\"]}", GS_EINVALID,
        "X cells at row 1 column 1 and row 1 column 3 are not "
        "adjacent");
    gs_check_expect_error(P, "{\"grid\": [\"#X..#\", \"#..X#\", \"#O..#\"]}",
                          GS_EINVALID, "not adjacent");
    gs_check_expect_error(P, "{\"grid\": [\"#XX.#\", \"#X..#\", \"#O..#\"]}",
                          GS_EINVALID,
                          "more than two X cells: row 1 column 1 is a third");
    gs_check_expect_error(P, "{\"grid\": [\"#...#\", \"#..O#\"]}", GS_EINVALID,
                          "no X");
    gs_check_expect_error(P, "{\"grid\": [\"#X..#\", \"#...#\"]}", GS_EINVALID,
                          "no O");
    gs_check_expect_error(P, "{\"grid\": [\"#X.O#\", \"#..O#\"]}", GS_EINVALID,
                          "two O cells: row 0 column 3 and row 1 column 3");
}
END_TEST

START_TEST(test_json_cap)
{
    void *inst;
    gs_error err;
    gs_caps caps = {.max_cells = 14};
    int rc = gs_check_parse_json(
        P, "{\"grid\": [\"#X.O#\", \"#...#\", \"#...#\"]}", &caps, &inst, &err);
    ck_assert_int_eq(rc, GS_EINVALID);
    ck_assert_ptr_null(inst);
    ck_assert_msg(strstr(err.detail, "maximum of 14 cells"), "%s", err.detail);
    caps.max_cells = 15;
    rc = gs_check_parse_json(P, "{\"grid\": [\"#X.O#\", \"#...#\", \"#...#\"]}",
                             &caps, &inst, &err);
    ck_assert_int_eq(rc, GS_OK);
    P->free(inst);
}
END_TEST

/* Each rule of PUZZLES.md on a board built to isolate it. */
START_TEST(test_rules)
{
    /* Lying start, horizontal and vertical. */
    char *h[] = {"#######", "#.XX..#", "#.....#", "#...O.#", "#######"};
    ck_assert_int_eq(solve_checked(h, 5, 7), 3);
    char *v[] = {"#######", "#..X..#", "#..X..#",
                 "#.....#", "#...O.#", "#######"};
    ck_assert_int_eq(solve_checked(v, 6, 7), 5);
    /* Lying across fragile floor is fine; standing on it is not. */
    char *across[] = {"######", "#XEEO#", "######"};
    ck_assert_int_eq(solve_checked(across, 3, 6), 2);
    char *stand[] = {"#########", "#X..E..O#", "#########"};
    ck_assert_int_eq(solve_checked(stand, 3, 9), -1);
    /* The same corridor with rigid floor is solvable. */
    char *rigid[] = {"#########", "#X.....O#", "#########"};
    ck_assert_int_eq(solve_checked(rigid, 3, 9), 4);
    /* The goal is only ever covered lying: impossible. */
    char *lying[] = {"#######", "#XX..O#", "#######"};
    ck_assert_int_eq(solve_checked(lying, 3, 7), -1);
    /* The edge of the grid behaves like a hole (no border walls). */
    char *edge[] = {"X..O"};
    ck_assert_int_eq(solve_checked(edge, 1, 4), 2);
    char *edge2[] = {".X.O"};
    ck_assert_int_eq(solve_checked(edge2, 1, 4), -1);
}
END_TEST

START_TEST(test_moves_json)
{
    gs_result res = gs_check_solve_json(P, GS_SAMPLE_BLOXORZ_JSON, NULL);
    ck_assert_int_eq(res.status, GS_SOLVED);
    ck_assert_uint_eq(res.steps, 10);
    ck_assert_int_eq(res.pushes, -1);
    ck_assert(res.expanded > 0);
    char *g[] = {"#######", "#..X###", "#..##O#", "#....E#",
                 "#....E#", "#.....#", "#######"};
    ck_assert(replay(g, 7, 7, res.moves));
    gs_result_free(&res);
}
END_TEST

START_TEST(test_limit_states)
{
    gs_limits lim = {.max_states = 3};
    gs_check_limit(P, GS_SAMPLE_BLOXORZ_JSON, &lim, GS_LIMIT_STATES, 1,
                   "limit\n");
}
END_TEST

/* Fills rows x cols random cells into fresh rows g[]: walls% '#',
 * weak% 'E', the rest '.' (one rand() per cell, row by row). */
static void random_rows(char **g, int rows, int cols, int walls, int weak)
{
    for (int r = 0; r < rows; r++) {
        g[r] = calloc((size_t)cols + 1, 1);
        ck_assert_ptr_nonnull(g[r]);
        for (int c = 0; c < cols; c++) {
            int k = rand() % 100;
            g[r][c] = k < walls ? '#' : k < walls + weak ? 'E' : '.';
        }
    }
}

/* Puts into rows g a start (standing, or lying either way where it
 * fits) and a goal on a cell the start does not cover. Needs rows * cols
 * >= 3, so that every draw places both. */
static void place(char **g, int rows, int cols)
{
    int o;
    do
        o = rand() % 3;
    while ((o == 1 && cols < 2) || (o == 2 && rows < 2));
    int sr = rand() % (rows - (o == 2)), sc = rand() % (cols - (o == 1));
    int er = sr + (o == 2), ec = sc + (o == 1);
    int gr, gc;
    do {
        gr = rand() % rows;
        gc = rand() % cols;
    } while ((gr == sr && gc == sc) || (gr == er && gc == ec));
    g[sr][sc] = g[er][ec] = 'X';
    g[gr][gc] = 'O';
}

static void free_rows(char **g, int rows)
{
    for (int r = 0; r < rows; r++)
        free(g[r]);
}

/* Property: random small boards, solver == brute force, moves replay. */
START_TEST(test_random_vs_brute)
{
    srand((unsigned)gs_prop_seed(20240611));
    mix m = {0};
    for (int iter = 0, iters = gs_prop_iters(600); iter < iters; iter++) {
        int rows, cols;
        do {
            rows = 1 + rand() % 8;
            cols = 1 + rand() % 8;
        } while (rows * cols < 3);
        char *g[8];
        random_rows(g, rows, cols, 20, 15);
        place(g, rows, cols);
        note_board(iter, g, rows);
        check_random(g, rows, cols, &m);
        free_rows(g, rows);
    }
    /* Both outcomes must be well represented, most of them settled by a
     * search (seed 20240611 gives 189 solved past one roll, 273
     * impossible with a start that can roll, 100 of 6 rolls or more). */
    if (!gs_prop_deep()) {
        ck_assert_int_ge(m.solved - m.one_step, 120);
        ck_assert_int_ge(m.impossible - m.stuck, 160);
        ck_assert_int_ge(m.deep, 60);
    }
}
END_TEST

/* Property: random boards of several 8 x 8 tiles each way, solver ==
 * brute force and moves replay: rolls that cross a tile's edge, and walks
 * back across them, on every side. */
START_TEST(test_random_multi_tile_vs_brute)
{
    srand((unsigned)gs_prop_seed(20261201));
    mix m = {0};
    for (int iter = 0, iters = gs_prop_iters(40); iter < iters; iter++) {
        int rows = 9 + rand() % 18, cols = 9 + rand() % 18;
        char *g[26];
        random_rows(g, rows, cols, 10 + rand() % 30, 10);
        place(g, rows, cols);
        note_board(iter, g, rows);
        check_random(g, rows, cols, &m);
        free_rows(g, rows);
    }
    /* 27 solved (25 deep) and 13 impossible (11 with a start that can
     * roll). */
    if (!gs_prop_deep()) {
        ck_assert_int_ge(m.deep, 15);
        ck_assert_int_ge(m.impossible - m.stuck, 6);
    }
}
END_TEST

/* A larger open board: the dense search still agrees with brute force. */
START_TEST(test_open_board)
{
    enum { N = 24 };
    char *g[N];
    for (int r = 0; r < N; r++) {
        g[r] = malloc(N + 1);
        ck_assert_ptr_nonnull(g[r]);
        memset(g[r], '.', N);
        g[r][N] = '\0';
    }
    g[0][0] = 'X';
    g[N - 1][N - 2] = 'O';
    g[20][5] = '#';
    g[21][7] = 'E';
    ck_assert_int_gt(solve_checked(g, N, N), 0);
    for (int r = 0; r < N; r++)
        free(g[r]);
}
END_TEST

/* The n x n open board of the limit tests, read as judge text: the block
 * stands top left, the goal is bottom right. At n = 300 the BFS takes 400
 * layers and 269,400 states, over 14,000 frontier entries: its loop
 * checks the limits (every 2048 entries) 8 times before it could finish,
 * not only before its first layer. */
static void *open_board(int n)
{
    gs_buf text = GS_BUF_INIT;
    gs_buf_printf(&text, "%d %d\n", n, n);
    for (int r = 0; r < n; r++)
        for (int c = 0; c <= n; c++)
            gs_buf_puts(&text, c == n                     ? "\n"
                               : r == 0 && c == 0         ? "X"
                               : r == n - 1 && c == n - 1 ? "O"
                                                          : ".");
    ck_assert_int_eq(gs_buf_status(&text), GS_OK);
    gs_text in;
    gs_text_init(&in, text.data, text.len);
    void *inst = NULL;
    gs_error err = {0};
    ck_assert_int_eq(P->parse_text(&in, NULL, &inst, &err), 1);
    gs_buf_free(&text);
    return inst;
}

/* gs_check_status, with a limit printed as judge text's "limit". */
static uint64_t expect_status(void *inst, const gs_limits *lim,
                              enum gs_status status, enum gs_limit_kind kind)
{
    return gs_check_status(P, inst, lim, status, kind, "limit\n");
}

/* The bitset store counts against the state cap as bytes: a 300x300
 * open board (about 270,000 states) solves under a cap of 20,000 states,
 * while the memory budget still stops it as a memory limit. */
START_TEST(test_cap_counts_bytes)
{
    void *inst = open_board(300);
    gs_limits lim = {.max_states = 20000};
    ck_assert_uint_gt(expect_status(inst, &lim, GS_SOLVED, GS_LIMIT_NONE),
                      lim.max_states);
    /* Refused before the search: the tiles alone need more. */
    gs_limits tight = {.max_bytes = 4096};
    ck_assert_uint_eq(expect_status(inst, &tight, GS_LIMIT, GS_LIMIT_MEMORY),
                      0);
    P->free(inst);
}
END_TEST

/* The solver runs its own BFS loop, so the core's deadline check never
 * sees it: its loop must stop on a deadline already past, and on a cancel
 * (the server's, when the client left; no deadline set), each as a time
 * limit. */
START_TEST(test_limit_deadline_and_cancel)
{
    void *inst = open_board(300);
    gs_check_past_deadline_and_cancel(P, inst, "limit\n");
    P->free(inst);
}
END_TEST

/* A budget one byte short of what the search holds at its end stops it
 * inside the loop, when the frontier lists grow (not up front, as in
 * test_cap_counts_bytes); exactly that many bytes are enough. The solver
 * publishes the bytes it holds through the progress record. */
START_TEST(test_limit_memory_in_search)
{
    void *inst = open_board(300);
    gs_check_memory_peak(P, inst);
    P->free(inst);
}
END_TEST

Suite *gs_test_bloxorz_suite(void)
{
    Suite *s = suite_create("bloxorz");
    TCase *tc = tcase_create("bloxorz");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_judge_sample);
    tcase_add_test(tc, test_judge_tricky);
    tcase_add_test(tc, test_judge_blank_lines_crlf_eof);
    tcase_add_test(tc, test_judge_errors);
    tcase_add_test(tc, test_json_errors);
    tcase_add_test(tc, test_json_cap);
    tcase_add_test(tc, test_rules);
    tcase_add_test(tc, test_moves_json);
    tcase_add_test(tc, test_limit_states);
    tcase_add_test(tc, test_open_board);
    tcase_add_test(tc, test_cap_counts_bytes);
    tcase_add_test(tc, test_limit_deadline_and_cancel);
    tcase_add_test(tc, test_limit_memory_in_search);
    suite_add_tcase(s, tc);
    /* Named "property" in every suite: make check-deep runs these. */
    tc = tcase_create("property");
    tcase_set_timeout(tc, 120);
    tcase_add_checked_fixture(tc, gs_prop_unnote, gs_prop_unnote);
    tcase_add_test(tc, test_random_vs_brute);
    tcase_add_test(tc, test_random_multi_tile_vs_brute);
    suite_add_tcase(s, tc);
    return s;
}
