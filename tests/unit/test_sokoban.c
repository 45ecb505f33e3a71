/* test_sokoban.c - unit tests for the sokoban puzzle: the seed's judge
 * samples through the text interface, XSB bodies, every 422/400 case, the
 * objectives, limits, and a property test against a brute-force BFS over
 * (player, boxes) written here, with every answer replayed. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "gridsolve/puzzle.h"
#include "../../src/puzzles/sokoban/sokoban.h"
#include "puzzle_check.h"
#include "sok_level.h"
#include "suites.h"
#include "../samples.h"

extern const gs_puzzle gs_puzzle_sokoban;
#define SOK (&gs_puzzle_sokoban)

/* conformance/sokoban/trivial.in: no trailing newline after the last row. */
static const char TRIVIAL_IN[] = "3 5\n#####\n#X*@#\n#####";

#define NROWS(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* ------------------------------------------------------------ helpers */

/* Limits that set none: these tests pass a struct rather than NULL. */
static const gs_limits NO_LIMITS = {0};

/* Builds {"grid": rows, "optimize": optimize (when not NULL)}. */
static cJSON *body_of(const char *const *rows, int n, const char *optimize)
{
    cJSON *b = cJSON_CreateObject();
    ck_assert_ptr_nonnull(b);
    cJSON_AddItemToObject(b, "grid", cJSON_CreateStringArray(rows, n));
    if (optimize)
        cJSON_AddStringToObject(b, "optimize",
                                strncmp(optimize, "any-", 4) == 0 ? "any"
                                                                  : optimize);
    return b;
}

/* Parses rows for the objective given ("any-astar", "any-fess",
 * "any-pull", "any-pull-doors" and "any-pull-most": one phase of `any` on
 * its own, which small levels never reach otherwise). */
static gs_sokoban *parse_rows(const char *const *rows, int n,
                              const char *optimize)
{
    cJSON *b = body_of(rows, n, optimize);
    void *inst = NULL;
    gs_error err = {0};
    gs_caps caps = {.max_cells = 1u << 20};
    int rc = SOK->parse_json(b, &caps, &inst, &err);
    cJSON_Delete(b);
    ck_assert_msg(rc == GS_OK, "parse failed: %s%s", err.detail,
                  gs_prop_noted());
    gs_sokoban *g = inst;
    if (optimize && strcmp(optimize, "any-astar") == 0)
        g->objective = SOK_ANY_ASTAR;
    if (optimize && strcmp(optimize, "any-fess") == 0)
        g->objective = SOK_ANY_FESS;
    if (optimize && strncmp(optimize, "any-pull", 8) == 0) {
        g->objective = SOK_ANY_PULL;
        g->pull_order = strcmp(optimize, "any-pull-doors") == 0 ? SOK_PULL_DOORS
                        : strcmp(optimize, "any-pull-most") == 0 ? SOK_PULL_MOST
                                                                 : 0;
    }
    return g;
}

/* Solves a parsed level within lim (NULL: none), then frees it. */
static void solve_inst(gs_sokoban *g, const gs_limits *lim, gs_result *res)
{
    gs_error err = {0};
    gs_limits none = {0};
    gs_result_clear(res);
    int rc = SOK->solve(g, lim ? lim : &none, res, &err);
    ck_assert_msg(rc == GS_OK, "solve failed: %s%s", err.detail,
                  gs_prop_noted());
    SOK->free(g);
}

/* Parses and solves rows with the objective and limits given. */
static void solve_rows(const char *const *rows, int n, const char *optimize,
                       const gs_limits *lim, gs_result *res)
{
    solve_inst(parse_rows(rows, n, optimize), lim, res);
}

/* solve_rows for an exact objective with the perimeter table (perim.c)
 * forced on: built once the first search stores `trigger` states, of at
 * most `cap` positions (small: a table that stops short of the start). */
static void solve_rows_perim_timed(const char *const *rows, int n,
                                   const char *optimize, uint64_t trigger,
                                   size_t cap, size_t first, size_t unpack_at,
                                   bool timed, gs_result *res)
{
    gs_sokoban *g = parse_rows(rows, n, optimize);
    g->perim_trigger = trigger;
    g->perim_cap = cap;
    /* `moves`: the table by box set turns into one by position there
     * (0: only when it would take less room so). */
    g->perim_unpack_at = unpack_at;
    /* Rounds: a table of `first` (0: cap / 4) positions first, then twice
     * as big each round, the search going on between them. */
    g->perim_first = first ? first : cap / 4;
    /* And the deadlock patterns learned, whatever the boxes. */
    g->learn_always = true;
    /* Each round runs a search of its own: the answer counts them all,
     * and so do the progress reports, which never go back. */
    gs_progress prog = {0};
    gs_limits lim = {.progress = &prog};
    /* With a deadline, far off: a search round also pauses once it took
     * as long as the table's round before it (exact.c). */
    if (timed)
        lim.deadline_ns = gs_now_ns() + 60000000000LL;
    solve_inst(g, &lim, res);
    GS_PROP_ASSERT(prog.expanded_base == res->expanded,
                   "%s: progress base %llu, expanded %llu", optimize,
                   (unsigned long long)prog.expanded_base,
                   (unsigned long long)res->expanded);
    GS_PROP_ASSERT(atomic_load(&prog.expanded) <= res->expanded,
                   "%s: progress %llu, expanded %llu", optimize,
                   (unsigned long long)atomic_load(&prog.expanded),
                   (unsigned long long)res->expanded);
}

/* solve_rows_perim_timed without a deadline (rounds counted in states). */
static void solve_rows_perim(const char *const *rows, int n,
                             const char *optimize, uint64_t trigger, size_t cap,
                             size_t first, size_t unpack_at, gs_result *res)
{
    solve_rows_perim_timed(rows, n, optimize, trigger, cap, first, unpack_at,
                           false, res);
}

/* An XSB level as flags, any size (missing cells of short rows: floor). */
enum { T_WALL = 1, T_GOAL = 2, T_BOX = 4 };
typedef struct t_level {
    int rows, cols, player;
    uint8_t *cell;
} t_level;

static void level_load(const char *const *rows, int n, t_level *L)
{
    int cols = 0;
    for (int r = 0; r < n; r++)
        if ((int)strlen(rows[r]) > cols)
            cols = (int)strlen(rows[r]);
    L->rows = n;
    L->cols = cols;
    L->player = -1;
    L->cell = calloc((size_t)n * (size_t)cols, 1);
    ck_assert_ptr_nonnull(L->cell);
    for (int r = 0; r < n; r++) {
        for (int c = 0; rows[r][c]; c++) {
            char ch = rows[r][c];
            int at = r * cols + c;
            L->cell[at] = ch == '#'                ? T_WALL
                          : ch == '.' || ch == '+' ? T_GOAL
                          : ch == '$'              ? T_BOX
                          : ch == '*'              ? T_BOX | T_GOAL
                                                   : 0;
            if (ch == '@' || ch == '+')
                L->player = at;
        }
    }
}

static const int TDR[4] = {-1, 1, 0, 0}, TDC[4] = {0, 0, -1, 1};

/* The cell one step from `at` in direction d, or -1 off the grid / wall. */
static int step_to(const t_level *L, int at, int d)
{
    int r = at / L->cols + TDR[d], c = at % L->cols + TDC[d];
    if (r < 0 || r >= L->rows || c < 0 || c >= L->cols)
        return -1;
    int t = r * L->cols + c;
    return (L->cell[t] & T_WALL) ? -1 : t;
}

/* Replays moves on rows: each letter legal, uppercase exactly when it
 * pushes, every box on a goal at the end. Counts pushes. */
static bool replay(const char *const *rows, int n, const char *moves,
                   long *pushes)
{
    t_level L;
    level_load(rows, n, &L);
    bool ok = true;
    *pushes = 0;
    for (const char *m = moves; *m && ok; m++) {
        const char *dirs = "udlrUDLR", *at = strchr(dirs, *m);
        if (!at) {
            ok = false;
            break;
        }
        int d = (int)(at - dirs) % 4;
        bool push = at - dirs >= 4;
        int t = step_to(&L, L.player, d);
        if (t < 0) {
            ok = false;
            break;
        }
        if (L.cell[t] & T_BOX) {
            int t2 = step_to(&L, t, d);
            if (!push || t2 < 0 || (L.cell[t2] & T_BOX)) {
                ok = false;
                break;
            }
            L.cell[t] &= (uint8_t)~T_BOX;
            L.cell[t2] |= T_BOX;
            (*pushes)++;
        } else if (push) {
            ok = false;
        }
        L.player = t;
    }
    for (int i = 0; ok && i < L.rows * L.cols; i++)
        if ((L.cell[i] & T_BOX) && !(L.cell[i] & T_GOAL))
            ok = false;
    free(L.cell);
    return ok;
}

/* The cells of the n rows whose character is one of `set`. */
static int level_count(const char *const *rows, int n, const char *set)
{
    int k = 0;
    for (int r = 0; r < n; r++)
        for (const char *c = rows[r]; *c; c++)
            k += strchr(set, *c) != NULL;
    return k;
}

/* Asserts res, the answer of objective `what`, is a replayable solution
 * with consistent counts. */
static void check_answer_of(const char *what, const char *const *rows, int n,
                            const gs_result *res)
{
    GS_PROP_ASSERT(res->status == GS_SOLVED, "%s: %s, expected solved", what,
                   gs_status_name(res->status));
    GS_PROP_ASSERT(res->moves != NULL, "%s: solved without moves", what);
    GS_PROP_ASSERT(strlen(res->moves) == res->steps, "%s: moves %s for %zu",
                   what, res->moves, res->steps);
    long pushes;
    GS_PROP_ASSERT(replay(rows, n, res->moves, &pushes),
                   "%s: answer does not replay: %s", what, res->moves);
    GS_PROP_ASSERT(pushes == res->pushes,
                   "%s: moves %s push %ld times, not %ld", what, res->moves,
                   pushes, res->pushes);
}

static void check_answer(const char *const *rows, int n, const gs_result *res)
{
    check_answer_of("answer", rows, n, res);
}

/* Notes random level `iter` of n rows for the failure messages, as a C
 * array (rows may end in floor): ready for a regression test. */
static void note_level(int iter, const char *const *rows, int n)
{
    gs_buf b = GS_BUF_INIT;
    for (int r = 0; r < n; r++)
        gs_buf_printf(&b, "%s\"%s\"", r ? ", " : "", rows[r]);
    ck_assert_int_eq(gs_buf_status(&b), GS_OK);
    gs_prop_note("iter %d: {%s}", iter, b.data);
    gs_buf_free(&b);
}

/* ------------------------------------------------ brute-force reference */

/* Plain Dijkstra over (player, box bitmask) for levels of <= 64 cells.
 * Each step costs 1; with pushes_first a push costs BF_PUSH more, so the
 * order is (pushes, steps). Returns the cost or -1 when impossible. */
#define BF_PUSH ((uint64_t)1 << 20)

typedef struct bf_state {
    uint64_t boxes, cost;
    int player;
} bf_state;

/* Best known cost per state: open addressing, doubled at half load. */
typedef struct bf_table {
    bf_state *e; /* player -1: empty */
    bool *done;
    size_t cap, len;
} bf_table;

static size_t bf_find(const bf_table *t, int player, uint64_t boxes)
{
    uint64_t h = (boxes ^ (uint64_t)player << 58) * 0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(h >> 32) & (t->cap - 1);
    while (t->e[i].player >= 0 &&
           (t->e[i].player != player || t->e[i].boxes != boxes))
        i = (i + 1) & (t->cap - 1);
    return i;
}

static void bf_grow(bf_table *t)
{
    bf_table n = {calloc(t->cap * 2, sizeof *n.e),
                  calloc(t->cap * 2, sizeof *n.done), t->cap * 2, t->len};
    ck_assert(n.e && n.done);
    for (size_t i = 0; i < n.cap; i++)
        n.e[i].player = -1;
    for (size_t i = 0; i < t->cap; i++) {
        if (t->e[i].player < 0)
            continue;
        size_t k = bf_find(&n, t->e[i].player, t->e[i].boxes);
        n.e[k] = t->e[i];
        n.done[k] = t->done[i];
    }
    free(t->e);
    free(t->done);
    *t = n;
}

/* A binary min-heap of states by cost. */
typedef struct bf_heap {
    bf_state *a;
    size_t len, cap;
} bf_heap;

static void heap_push(bf_heap *h, bf_state s)
{
    if (h->len == h->cap) {
        h->cap = h->cap ? h->cap * 2 : 1024;
        h->a = realloc(h->a, h->cap * sizeof *h->a);
        ck_assert_ptr_nonnull(h->a);
    }
    size_t i = h->len++;
    while (i > 0 && h->a[(i - 1) / 2].cost > s.cost) {
        h->a[i] = h->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->a[i] = s;
}

static bf_state heap_pop(bf_heap *h)
{
    bf_state top = h->a[0], last = h->a[--h->len];
    size_t i = 0;
    for (;;) {
        size_t k = 2 * i + 1;
        if (k >= h->len)
            break;
        if (k + 1 < h->len && h->a[k + 1].cost < h->a[k].cost)
            k++;
        if (h->a[k].cost >= last.cost)
            break;
        h->a[i] = h->a[k];
        i = k;
    }
    h->a[i] = last;
    return top;
}

static long long bf_solve(const char *const *rows, int n, bool pushes_first)
{
    t_level L;
    level_load(rows, n, &L);
    int cells = L.rows * L.cols;
    ck_assert_int_le(cells, 64);
    uint64_t boxes = 0, goals = 0;
    for (int i = 0; i < cells; i++) {
        if (L.cell[i] & T_BOX)
            boxes |= 1ull << i;
        if (L.cell[i] & T_GOAL)
            goals |= 1ull << i;
    }
    bf_table t = {calloc(1, sizeof *t.e), calloc(1, sizeof *t.done), 1, 0};
    ck_assert(t.e && t.done);
    t.e[0].player = -1;
    bf_grow(&t);
    bf_heap h = {0};
    bf_state start = {boxes, 0, L.player};
    t.e[bf_find(&t, L.player, boxes)] = start;
    t.len = 1;
    heap_push(&h, start);
    long long best = -1;
    while (h.len > 0) {
        bf_state e = heap_pop(&h);
        size_t at = bf_find(&t, e.player, e.boxes);
        if (t.done[at] || t.e[at].cost != e.cost)
            continue; /* stale: a cheaper copy came first */
        t.done[at] = true;
        if ((e.boxes & ~goals) == 0) {
            best = (long long)e.cost;
            break;
        }
        for (int d = 0; d < 4; d++) {
            int p = step_to(&L, e.player, d);
            if (p < 0)
                continue;
            bf_state nx = {e.boxes, e.cost + 1, p};
            if (nx.boxes >> p & 1) {
                int q = step_to(&L, p, d);
                if (q < 0 || (nx.boxes >> q & 1))
                    continue;
                nx.boxes = (nx.boxes & ~(1ull << p)) | 1ull << q;
                if (pushes_first)
                    nx.cost += BF_PUSH;
            }
            if (2 * (t.len + 1) > t.cap)
                bf_grow(&t);
            size_t k = bf_find(&t, p, nx.boxes);
            if (t.e[k].player < 0)
                t.len++;
            else if (t.done[k] || nx.cost >= t.e[k].cost)
                continue;
            t.e[k] = nx;
            heap_push(&h, nx);
        }
    }
    free(h.a);
    free(t.e);
    free(t.done);
    free(L.cell);
    return best;
}

/* ------------------------------------------------------------ tests */

START_TEST(test_seed_samples)
{
    char *out = gs_check_judge(SOK, GS_SAMPLE_SOKOBAN_SEED_IN, &NO_LIMITS);
    ck_assert_str_eq(out, GS_SAMPLE_SOKOBAN_SEED_OUT);
    free(out);
    out = gs_check_judge(SOK, TRIVIAL_IN, &NO_LIMITS);
    ck_assert_str_eq(out, "1\n");
    free(out);
}
END_TEST

START_TEST(test_text_format)
{
    /* Columns past M are ignored (the X here), short rows are floor, `0 0`
     * ends the input, other characters are floor in the seed notation. */
    char *out = gs_check_judge(SOK,
                               "3 5\n#X*@#X\n#####\n#####\n"
                               "3 6\n######\n#X*. @\n######\n"
                               "0 0\n3 5\n#X*@#\n",
                               &NO_LIMITS);
    ck_assert_str_eq(out, "1\n3\n");
    free(out);
    /* A parse error: a negative status, no output, and the detail. */
    gs_error err = {0};
    ck_assert_int_lt(
        gs_check_run_text(SOK, "3 5\n#####\n#X*@#\n", &NO_LIMITS, &out, &err),
        0);
    ck_assert_ptr_null(out);
    ck_assert_int_eq(err.code, GS_EINVALID);
    ck_assert_str_eq(err.detail, "line 4: input ends after 2 of 3 grid rows");
    ck_assert_int_lt(gs_check_run_text(SOK, "3 5\n#####\n#X**#\n#####\n",
                                       &NO_LIMITS, &out, &err),
                     0);
    ck_assert_ptr_null(out);
    ck_assert_str_eq(err.detail,
                     "line 1: grid has more boxes (2) than goals (0)");
    ck_assert_int_lt(
        gs_check_run_text(SOK, "2000000 1\n#\n", &NO_LIMITS, &out, &err), 0);
    ck_assert_ptr_null(out);
    ck_assert_str_eq(err.detail,
                     "line 1: 2000000 grid rows announced but the input ends "
                     "first");
    ck_assert_int_lt(gs_check_run_text(SOK, "-3 5\n", &NO_LIMITS, &out, &err),
                     0);
    ck_assert_ptr_null(out);
    ck_assert_str_eq(err.detail, "line 1: grid size -3 x 5 must be positive");

    gs_result res;
    gs_result_clear(&res);
    res.status = GS_LIMIT;
    gs_buf b = GS_BUF_INIT;
    SOK->format_text(NULL, &res, 1, &b);
    res.status = GS_IMPOSSIBLE;
    SOK->format_text(NULL, &res, 2, &b);
    ck_assert_str_eq(b.data, "limit\n-1\n");
    gs_buf_free(&b);
}
END_TEST

START_TEST(test_xsb_bodies)
{
    /* Ragged rows, `+` (player on goal), `*` (box on goal), `-` floor. */
    static const char *const ragged[] = {
        "  #####", "###-..#", "#+$$  #", "# #   #", "#", "###",
    };
    /* "#" on row 4 is short: (4,1..) are floor outside the walls, open to
     * the room through (3,1). */
    gs_result res;
    solve_rows(ragged, NROWS(ragged), NULL, NULL, &res);
    check_answer(ragged, NROWS(ragged), &res);
    ck_assert_int_eq((long long)res.steps, bf_solve(ragged, NROWS(ragged), 0));
    ck_assert(res.optimal);
    gs_result_free(&res);

    static const char *const three[] = {
        "########", "#@$ . .#", "# $*   #", "#  . $ #", "########",
    };
    solve_rows(three, NROWS(three), "moves", NULL, &res);
    check_answer(three, NROWS(three), &res);
    ck_assert_int_eq((long long)res.steps, bf_solve(three, NROWS(three), 0));
    gs_result_free(&res);

    /* Already solved: zero steps, an empty move string, proven optimal. */
    static const char *const done[] = {"#####", "#+* #", "#####"};
    solve_rows(done, NROWS(done), NULL, NULL, &res);
    ck_assert_int_eq(res.status, GS_SOLVED);
    ck_assert_str_eq(res.moves, "");
    ck_assert_int_eq(res.pushes, 0);
    ck_assert(res.optimal);
    gs_result_free(&res);

    /* A box in a corner off goal; a box walled off from the player. */
    static const char *const corner[] = {"#####", "#$ @#", "# . #", "#####"};
    solve_rows(corner, NROWS(corner), NULL, NULL, &res);
    ck_assert_int_eq(res.status, GS_IMPOSSIBLE);
    gs_result_free(&res);
    static const char *const shut[] = {"#######", "#@$.#$#", "#  .###",
                                       "#######"};
    solve_rows(shut, NROWS(shut), NULL, NULL, &res);
    ck_assert_int_eq(res.status, GS_IMPOSSIBLE);
    gs_result_free(&res);
    static const char *const shut_ok[] = {"#######", "#@$.#*#", "#   ###",
                                          "#######"};
    solve_rows(shut_ok, NROWS(shut_ok), NULL, NULL, &res);
    ck_assert_int_eq(res.status, GS_SOLVED);
    ck_assert_str_eq(res.moves, "R");
    gs_result_free(&res);

    /* The seed notation in a JSON body. */
    res = gs_check_solve_json(SOK,
                              "{\"notation\": \"seed\", \"grid\": "
                              "[\"#####\", \"#X*@#\", \"#####\"]}",
                              &NO_LIMITS);
    ck_assert_str_eq(res.moves, "R");
    gs_result_free(&res);
}
END_TEST

START_TEST(test_large_room)
{
    /* 22 x 22 room: more than 255 cells, so keys use 2-byte cell numbers. */
    static char buf[22][23];
    const char *rows[22];
    for (int r = 0; r < 22; r++) {
        for (int c = 0; c < 22; c++)
            buf[r][c] = r == 0 || r == 21 || c == 0 || c == 21 ? '#' : ' ';
        buf[r][22] = '\0';
        rows[r] = buf[r];
    }
    buf[2][2] = '@';
    buf[10][10] = '$';
    buf[10][12] = '$';
    buf[18][19] = '.';
    buf[3][15] = '.';
    gs_result res;
    solve_rows(rows, 22, NULL, NULL, &res);
    check_answer(rows, 22, &res);
    ck_assert(res.optimal);
    gs_result any;
    solve_rows(rows, 22, "any", NULL, &any);
    check_answer(rows, 22, &any);
    ck_assert_uint_ge(any.steps, res.steps);
    gs_result_free(&res);
    gs_result_free(&any);
}
END_TEST

/* One request that must fail, with the exact code and detail. */
typedef struct bad_case {
    const char *body;
    int code;
    const char *detail;
} bad_case;

static const bad_case BAD[] = {
    {"{\"grid\": [\"#####\", \"#@$x#\", \"#####\"]}", GS_EINVALID,
     "grid row 1, column 3: unknown cell character 'x'"},
    {"{\"grid\": [\"#####\", \"#@$.#\", \"#\\t@ #\"]}", GS_EINVALID,
     "grid row 2, column 1: unknown cell character byte 0x09"},
    {"{\"grid\": [\"######\", \"#@$.@#\", \"######\"]}", GS_EINVALID,
     "grid row 1, column 4: a second player (the first is at row 1, "
     "column 1)"},
    {"{\"grid\": [\"#####\", \"# $.#\", \"#####\"]}", GS_EINVALID,
     "grid has no player ('@' or '+')"},
    {"{\"grid\": [\"#####\", \"#@ .#\", \"#####\"]}", GS_EINVALID,
     "grid has no box ('$' or '*')"},
    {"{\"grid\": [\"######\", \"#@$$.#\", \"######\"]}", GS_EINVALID,
     "grid has more boxes (2) than goals (1)"},
    {"{\"grid\": [\"#####\", \"#X*.#\", \"#####\"], \"notation\": \"seed\"}",
     GS_EINVALID, "grid has more boxes (1) than goals (0)"}, /* '.' floor */
    {"{\"grid\": [\"#####\", \"#*@ #\", \"#####\"], \"notation\": \"seed\"}",
     GS_EINVALID, "grid has no player ('X')"},
    {"{\"grid\": [\"\", \"\"]}", GS_EINVALID, "grid has no cells"},
    {"{\"grid\": []}", GS_EINVALID, NULL},
    {"{\"grid\": [\"#@$.#\"], \"optimize\": \"fast\"}", GS_EINVALID,
     "field \"optimize\" must be \"moves\", \"pushes\" or \"any\", not "
     "\"fast\""},
    {"{\"grid\": [\"#@$.#\"], \"notation\": \"sok\"}", GS_EINVALID,
     "field \"notation\" must be \"xsb\" or \"seed\", not \"sok\""},
    {"{\"grid\": [\"#@$.#\"], \"optimize\": 3}", GS_EBADREQ, NULL},
    {"{\"grid\": [\"#@$.#\"], \"notation\": true}", GS_EBADREQ, NULL},
    {"{\"grid\": \"#@$.#\"}", GS_EBADREQ, NULL},
    {"{\"grid\": [\"#@$.#\", 7]}", GS_EBADREQ, NULL},
    {"{\"board\": [\"#@$.#\"]}", GS_EBADREQ, NULL},
};

START_TEST(test_invalid_bodies)
{
    for (size_t i = 0; i < sizeof BAD / sizeof BAD[0]; i++) {
        /* The code (returned and in err), a cleared *inst, a non-empty
         * detail: checked by the helper; the detail word for word here. */
        gs_error err =
            gs_check_expect_error(SOK, BAD[i].body, BAD[i].code, NULL);
        if (BAD[i].detail)
            ck_assert_str_eq(err.detail, BAD[i].detail);
    }
    void *inst = NULL;
    gs_error err = {0};
    /* Above the configured maximum of 4096 cells. */
    const gs_caps caps = {.max_cells = 4096};
    char body[8192];
    int len = snprintf(body, sizeof body, "{\"grid\": [\"@$.");
    for (int i = 0; i < 4100; i++)
        body[len++] = ' ';
    snprintf(body + len, sizeof body - (size_t)len, "\"]}");
    ck_assert_int_eq(gs_check_parse_json(SOK, body, &caps, &inst, &err),
                     GS_EINVALID);
    ck_assert_str_eq(err.detail, "grid is 1 x 4103 = 4103 cells, above the "
                                 "maximum of 4096");
}
END_TEST

START_TEST(test_objectives)
{
    int n = GS_SAMPLE_NROWS(GS_SAMPLE_MICROBAN5);
    gs_result moves, pushes, any;
    solve_rows(GS_SAMPLE_MICROBAN5, n, "moves", NULL, &moves);
    solve_rows(GS_SAMPLE_MICROBAN5, n, "pushes", NULL, &pushes);
    solve_rows(GS_SAMPLE_MICROBAN5, n, "any", NULL, &any);
    check_answer(GS_SAMPLE_MICROBAN5, n, &moves);
    check_answer(GS_SAMPLE_MICROBAN5, n, &pushes);
    check_answer(GS_SAMPLE_MICROBAN5, n, &any);
    /* Both exact objectives agree with the brute force. */
    ck_assert_int_eq((long long)moves.steps,
                     bf_solve(GS_SAMPLE_MICROBAN5, n, false));
    long long lex = bf_solve(GS_SAMPLE_MICROBAN5, n, true);
    ck_assert_int_eq(pushes.pushes, lex / (long long)BF_PUSH);
    ck_assert_int_eq((long long)pushes.steps, lex % (long long)BF_PUSH);
    /* ... and they differ here: fewer moves cost more pushes. */
    ck_assert_uint_lt(moves.steps, pushes.steps);
    ck_assert_int_gt(moves.pushes, pushes.pushes);
    ck_assert(moves.optimal && pushes.optimal);
    ck_assert(!any.optimal);
    ck_assert_uint_ge(any.steps, moves.steps);
    gs_result_free(&moves);
    gs_result_free(&pushes);
    gs_result_free(&any);
}
END_TEST

START_TEST(test_limits)
{
    int n = GS_SAMPLE_NROWS(GS_SAMPLE_MICROBAN5);
    gs_limits lim = {.max_states = 3};
    gs_result res;
    solve_rows(GS_SAMPLE_MICROBAN5, n, NULL, &lim, &res);
    ck_assert_int_eq(res.status, GS_LIMIT);
    ck_assert_int_eq(res.limit, GS_LIMIT_STATES);
    ck_assert_ptr_null(res.moves);
    gs_result_free(&res);

    atomic_int cancel = 1;
    gs_limits stop = {.cancel = &cancel};
    solve_rows(GS_SAMPLE_MICROBAN5, n, "pushes", &stop, &res);
    ck_assert_int_eq(res.status, GS_LIMIT);
    ck_assert_int_eq(res.limit, GS_LIMIT_TIME);
    gs_result_free(&res);

    /* A memory budget below what the solver's own tables take: `limit`
     * before any search; a budget the store outgrows: `limit` too. */
    gs_limits tiny = {.max_bytes = 256};
    solve_rows(GS_SAMPLE_MICROBAN5, n, NULL, &tiny, &res);
    ck_assert_int_eq(res.status, GS_LIMIT);
    ck_assert_int_eq(res.limit, GS_LIMIT_MEMORY);
    gs_result_free(&res);
    gs_limits small = {.max_bytes = 64 * 1024};
    solve_rows(GS_SAMPLE_MICROBAN5, n, NULL, &small, &res);
    ck_assert_int_eq(res.status, GS_LIMIT);
    ck_assert_int_eq(res.limit, GS_LIMIT_MEMORY);
    gs_result_free(&res);
    /* With room enough the same level is solved. */
    gs_limits ample = {.max_bytes = 64u << 20};
    solve_rows(GS_SAMPLE_MICROBAN5, n, NULL, &ample, &res);
    ck_assert_int_eq(res.status, GS_SOLVED);
    gs_result_free(&res);
}
END_TEST

/* The perimeter table starts within its share of the memory budget: the
 * store and the tables together stay inside it (a table of 2^20 slots,
 * 12 MB, once came before any check of the budget). */
START_TEST(perim_table_within_budget)
{
    int n = GS_SAMPLE_NROWS(GS_SAMPLE_MICROBAN5);
    const uint64_t budgets[] = {256u << 10, 1u << 20, 4u << 20};
    for (size_t i = 0; i < sizeof budgets / sizeof budgets[0]; i++) {
        gs_sokoban *g = parse_rows(GS_SAMPLE_MICROBAN5, n, "moves");
        g->perim_trigger = 10; /* the table from the tenth state on */
        gs_limits lim = {.max_bytes = budgets[i]};
        gs_sokoban_stats st = {0};
        gs_result res;
        gs_error err = {0};
        gs_result_clear(&res);
        ck_assert_int_eq(gs_sokoban_solve_stats(g, &lim, &res, &st, &err),
                         GS_OK);
        ck_assert_msg(st.store_bytes + st.table_bytes <= budgets[i],
                      "budget %llu: store %llu + tables %llu",
                      (unsigned long long)budgets[i],
                      (unsigned long long)st.store_bytes,
                      (unsigned long long)st.table_bytes);
        ck_assert(res.status == GS_SOLVED || res.limit == GS_LIMIT_MEMORY);
        gs_result_free(&res);
        SOK->free(g);
    }
}
END_TEST

/* Solves MICROBAN5 for `optimize` with the table from the tenth state on,
 * its first round big enough to hold it whole; with a deadline far off
 * and no share of the time for the table past its first round when
 * `timed`. */
static void solve_first_round(const char *optimize, bool timed, gs_result *res)
{
    int n = GS_SAMPLE_NROWS(GS_SAMPLE_MICROBAN5);
    gs_sokoban *g = parse_rows(GS_SAMPLE_MICROBAN5, n, optimize);
    g->perim_trigger = 10;
    g->perim_first = 1u << 20;
    g->perim_share = -1;
    gs_limits lim = {0};
    if (timed)
        lim.deadline_ns = gs_now_ns() + 60000000000LL;
    solve_inst(g, &lim, res);
    ck_assert_int_eq(res->status, GS_SOLVED);
    ck_assert(res->optimal);
}

/* The table's first round is cut by the solve's deadline alone, not by
 * the table's share of the time (exact.c, gs_sokoban_exact_phases), so
 * that its depth does not follow the machine's load: with no share at
 * all, the first round is as whole as without a deadline and the same
 * states are expanded. (Cut by the share, the table stopped short: `moves`
 * expanded 12 states instead of 9.) */
START_TEST(perim_first_round_whole)
{
    const char *objs[] = {"moves", "pushes"};
    for (int i = 0; i < 2; i++) {
        gs_result plain, timed;
        solve_first_round(objs[i], false, &plain);
        solve_first_round(objs[i], true, &timed);
        ck_assert_uint_eq(timed.expanded, plain.expanded);
        ck_assert_int_eq(timed.steps, plain.steps);
        ck_assert_int_eq(timed.pushes, plain.pushes);
        gs_result_free(&plain);
        gs_result_free(&timed);
    }
}
END_TEST

/* A tiny deterministic generator (the property test must not vary). */
static uint32_t rnd(uint64_t *s)
{
    *s = *s * 6364136223846793005ull + 1442695040888963407ull;
    return (uint32_t)(*s >> 33);
}

/* An H x W room (at most 8 x 8) walled round, each inner cell a wall
 * with probability pct %: fills buf and rows, lists the floor cells
 * (row * 9 + column) in free_cells and returns how many. */
static int random_room(uint64_t *seed, int H, int W, uint32_t pct,
                       char buf[8][9], const char *rows[8], int free_cells[64])
{
    int nfree = 0;
    for (int r = 0; r < H; r++) {
        for (int c = 0; c < W; c++) {
            bool border = r == 0 || c == 0 || r == H - 1 || c == W - 1;
            buf[r][c] = border || rnd(seed) % 100 < pct ? '#' : ' ';
            if (buf[r][c] == ' ')
                free_cells[nfree++] = r * 9 + c;
        }
        buf[r][W] = '\0';
        rows[r] = buf[r];
    }
    return nfree;
}

/* Fisher-Yates over cells[0..n). */
static void shuffle_cells(uint64_t *seed, int *cells, int n)
{
    for (int i = n - 1; i > 0; i--) {
        int j = (int)(rnd(seed) % (uint32_t)(i + 1)), t = cells[i];
        cells[i] = cells[j];
        cells[j] = t;
    }
}

/* A random room of R x C floor (5..6 each) with scattered walls, kmin to
 * kmax boxes, as many goals, sometimes a short (ragged) row. */
static int random_level(uint64_t *seed, int kmin, int kmax, char buf[8][9],
                        const char *rows[8])
{
    int R = 5 + (int)(rnd(seed) % 2), C = 5 + (int)(rnd(seed) % 2);
    int H = R + 2, W = C + 2;
    int free_cells[64];
    int nfree = random_room(seed, H, W, 15, buf, rows, free_cells);
    int k = kmin + (int)(rnd(seed) % (uint32_t)(kmax - kmin + 1));
    ck_assert_int_ge(nfree, 2 * k + 1);
    /* Shuffle, then: player, k boxes, k goals (which may sit under a box
     * or the player). */
    shuffle_cells(seed, free_cells, nfree);
    char *p = &buf[0][0];
    p[free_cells[0]] = '@';
    for (int i = 1; i <= k; i++)
        p[free_cells[i]] = '$';
    for (int i = 0; i < k; i++) {
        int at = free_cells[rnd(seed) % (uint32_t)nfree];
        while (p[at] == '.' || p[at] == '*' || p[at] == '+')
            at = free_cells[rnd(seed) % (uint32_t)nfree];
        p[at] = p[at] == '$' ? '*' : p[at] == '@' ? '+' : '.';
    }
    if (rnd(seed) % 4 == 0) /* drop a right-hand wall: floor outside */
        buf[1 + rnd(seed) % (uint32_t)R][W - 1] = '\0';
    return H;
}

/* random_level with one or two goals to spare (on floor, a box or the
 * player), which the puzzle allows: no rule may then count on every goal
 * being filled. */
static int spare_level(uint64_t *seed, int kmin, int kmax, char buf[8][9],
                       const char *rows[8])
{
    int n = random_level(seed, kmin, kmax, buf, rows);
    /* Boxes on goals now and then, so that they wall off corrals that
     * hold only goals to spare. */
    for (int r = 1; r < n - 1; r++)
        for (char *q = buf[r]; *q; q++) {
            if (*q != '$' || rnd(seed) % 2)
                continue;
            char *g = NULL;
            for (int r2 = 1; r2 < n - 1 && !g; r2++)
                g = strchr(buf[r2], '.');
            if (g) {
                *g = ' ';
                *q = '*';
            }
        }
    for (int extra = 1 + (int)(rnd(seed) % 2); extra > 0;) {
        int r = 1 + (int)(rnd(seed) % (uint32_t)(n - 2));
        int c = (int)(rnd(seed) % 9);
        if (c >= (int)strlen(buf[r]))
            continue;
        char *q = &buf[r][c];
        if (*q == ' ' || *q == '$' || *q == '@') {
            *q = *q == ' ' ? '.' : *q == '$' ? '*' : '+';
            extra--;
        }
    }
    return n;
}

/* A room of 4 x 4 to 5 x 5 floor with kmin to kmax boxes, each goal
 * with its box on it or beside it where there is room (else anywhere
 * free), so that many are solvable: with four or more boxes the keys are
 * sets of cells (ctx.c: fewer bytes than the list). */
static int crowded_level(uint64_t *seed, int kmin, int kmax, char buf[8][9],
                         const char *rows[8])
{
    int R = 4 + (int)(rnd(seed) % 2), C = 4 + (int)(rnd(seed) % 2);
    int free_cells[64];
    int nfree = random_room(seed, R + 2, C + 2, 0, buf, rows, free_cells);
    int k = kmin + (int)(rnd(seed) % (uint32_t)(kmax - kmin + 1));
    ck_assert_int_ge(nfree, 2 * k + 1);
    shuffle_cells(seed, free_cells, nfree);
    char *p = &buf[0][0];
    static const int STEP[4] = {-9, 9, -1, 1};
    for (int i = 0; i < k; i++)
        p[free_cells[i]] = '.';
    for (int i = 0; i < k; i++) {
        int goal = free_cells[i], box = -1, d = (int)(rnd(seed) % 5);
        if (d == 4 && p[goal] == '.') {
            p[goal] = '*';
            continue;
        }
        for (int t = 0; t < 4 && box < 0; t++)
            if (p[goal + STEP[(d + t) % 4]] == ' ')
                box = goal + STEP[(d + t) % 4];
        for (int j = k; box < 0 && j < nfree; j++)
            if (p[free_cells[j]] == ' ')
                box = free_cells[j];
        p[box] = '$';
    }
    for (int j = k; j < nfree; j++)
        if (p[free_cells[j]] == ' ') {
            p[free_cells[j]] = '@';
            break;
        }
    return R + 2;
}

typedef int (*level_gen)(uint64_t *seed, int kmin, int kmax, char buf[8][9],
                         const char *rows[8]);

/* Checks `iters` levels of gen (seed) against the brute force; both
 * through gs_prop_iters and gs_prop_seed (make check-deep). */
static void property_run_gen(level_gen gen, uint64_t seed, int iters, int kmin,
                             int kmax, int *solvable_out, int *impossible_out,
                             int *differ_out)
{
    int solvable = 0, impossible = 0, differ = 0;
    seed = gs_prop_seed(seed);
    iters = gs_prop_iters(iters);
    for (int iter = 0; iter < iters; iter++) {
        char buf[8][9];
        const char *rows[8];
        int n = gen(&seed, kmin, kmax, buf, rows);
        note_level(iter, rows, n);
        long long best = bf_solve(rows, n, false);
        long long lex = bf_solve(rows, n, true);
        const char *objective[] = {"moves",          "pushes",       "any",
                                   "any-astar",      "any-fess",     "any-pull",
                                   "any-pull-doors", "any-pull-most"};
        enum { NOBJ = sizeof objective / sizeof *objective };
        gs_result res[NOBJ];
        for (int m = 0; m < NOBJ; m++)
            solve_rows(rows, n, objective[m], NULL, &res[m]);
        /* The search backwards proves nothing: `limit` once it ran dry,
         * but without limits it solves every solvable level (the pulls
         * from the solved position reach the start whenever some pushes
         * reach the solved position). */
        if (best < 0) {
            impossible++;
            GS_PROP_ASSERT(lex == -1, "brute forces: %lld and %lld", best, lex);
            for (int m = 0; m < 5; m++)
                GS_PROP_ASSERT(res[m].status == GS_IMPOSSIBLE,
                               "%s: %s, brute force impossible", objective[m],
                               gs_status_name(res[m].status));
            for (int m = 5; m < NOBJ; m++)
                GS_PROP_ASSERT(res[m].status == GS_LIMIT,
                               "%s: %s, brute force impossible", objective[m],
                               gs_status_name(res[m].status));
        } else {
            solvable++;
            /* The search backwards starts from the solved position, which
             * goals to spare leave open: it declines such levels (a level
             * solved at the start aside). */
            bool spare =
                level_count(rows, n, ".+*") > level_count(rows, n, "$*");
            for (int m = 0; m < NOBJ; m++)
                if (!spare || m < 5 || res[m].status != GS_LIMIT)
                    check_answer_of(objective[m], rows, n, &res[m]);
            long long lex_pushes = lex / (long long)BF_PUSH;
            long long lex_steps = lex % (long long)BF_PUSH;
            GS_PROP_ASSERT((long long)res[0].steps == best,
                           "moves: %zu steps, brute force %lld", res[0].steps,
                           best);
            GS_PROP_ASSERT(res[0].optimal && res[1].optimal,
                           "moves or pushes not marked optimal");
            GS_PROP_ASSERT(res[1].pushes == lex_pushes &&
                               (long long)res[1].steps == lex_steps,
                           "pushes: %ld pushes %zu steps, brute force %lld "
                           "pushes %lld steps",
                           res[1].pushes, res[1].steps, lex_pushes, lex_steps);
            for (int m = 2; m < 5; m++)
                GS_PROP_ASSERT((long long)res[m].steps >= best,
                               "%s: %zu steps, brute force %lld", objective[m],
                               res[m].steps, best);
            GS_PROP_ASSERT(!res[4].optimal || res[4].steps == 0,
                           "any-fess marked optimal");
            GS_PROP_ASSERT(res[3].pushes >= lex_pushes,
                           "any-astar: %ld pushes, brute force %lld",
                           res[3].pushes, lex_pushes);
            GS_PROP_ASSERT(!res[3].optimal || res[3].steps == 0,
                           "any-astar marked optimal");
            for (int m = 5; m < NOBJ && !spare; m++) {
                GS_PROP_ASSERT((long long)res[m].steps >= best &&
                                   res[m].pushes >= lex_pushes,
                               "%s: %zu steps %ld pushes, brute force %lld "
                               "steps, %lld pushes",
                               objective[m], res[m].steps, res[m].pushes, best,
                               lex_pushes);
                GS_PROP_ASSERT(!res[m].optimal || res[m].steps == 0,
                               "%s marked optimal", objective[m]);
            }
            differ += res[0].steps != res[1].steps;
        }
        for (int m = 0; m < NOBJ; m++)
            gs_result_free(&res[m]);
    }
    *solvable_out = solvable;
    *impossible_out = impossible;
    *differ_out = differ;
}

static void property_run(uint64_t seed, int iters, int kmin, int kmax,
                         int *solvable_out, int *impossible_out,
                         int *differ_out)
{
    property_run_gen(random_level, seed, iters, kmin, kmax, solvable_out,
                     impossible_out, differ_out);
}

/* Runs the answer's polish (improve.c) on res for the level of n rows. */
static void improve_answer(const char *const *rows, int n, gs_result *res)
{
    gs_sokoban *g = sok_level_build(rows, n);
    g->objective = SOK_ANY;
    sok_ctx x;
    gs_limits none = {0};
    gs_error err = {0};
    ck_assert_int_eq(gs_sokoban_ctx_init(&x, g, &none, &err), GS_OK);
    ck_assert_int_eq(gs_sokoban_improve(&x, &none, res, NULL, &err), GS_OK);
    gs_sokoban_ctx_free(&x);
    gs_sokoban_free(g);
}

/* The answer's polish on random levels, from the answers of `pushes` and
 * of `any`'s A* (neither ranks by moves first): it replays, is never
 * longer, and never shorter than the brute force's fewest moves. */
START_TEST(test_property_improve)
{
    uint64_t seed = gs_prop_seed(20261205);
    int solvable = 0, shorter = 0;
    const char *from[2] = {"pushes", "any-astar"};
    for (int iter = 0, iters = gs_prop_iters(200); iter < iters; iter++) {
        char buf[8][9];
        const char *rows[8];
        int n = random_level(&seed, 1, 3, buf, rows);
        note_level(iter, rows, n);
        long long best = bf_solve(rows, n, false);
        if (best < 0)
            continue;
        solvable++;
        for (int m = 0; m < 2; m++) {
            gs_result res;
            solve_rows(rows, n, from[m], NULL, &res);
            size_t before = res.steps;
            improve_answer(rows, n, &res);
            check_answer_of(from[m], rows, n, &res);
            GS_PROP_ASSERT(res.steps <= before, "%s: polished %zu, before %zu",
                           from[m], res.steps, before);
            GS_PROP_ASSERT((long long)res.steps >= best,
                           "%s: polished %zu steps, brute force %lld", from[m],
                           res.steps, best);
            shorter += res.steps < before;
            gs_result_free(&res);
        }
    }
    if (!gs_prop_deep()) {
        ck_assert_int_gt(solvable, 50);
        ck_assert_int_gt(shorter, 0);
    }
}
END_TEST

START_TEST(test_property_random)
{
    int solvable, impossible, differ;
    property_run(20240601, 300, 1, 2, &solvable, &impossible, &differ);
    /* The generator must exercise both outcomes. */
    if (gs_prop_deep())
        return;
    ck_assert_int_gt(solvable, 50);
    ck_assert_int_gt(impossible, 10);
    ck_assert_int_gt(differ, 0);
}
END_TEST

/* Three boxes: room for corrals, frozen pairs and matchings that the
 * nearest goals do not settle, so every pruning rule meets the brute
 * force (PI-corral pruning in `any` must keep solvable levels solvable). */
START_TEST(test_property_three_boxes)
{
    int solvable, impossible, differ;
    property_run(77, 300, 3, 3, &solvable, &impossible, &differ);
    if (!gs_prop_deep())
        ck_assert_msg(solvable > 15 && impossible > 15, "%d solvable, %d not",
                      solvable, impossible);
}
END_TEST

/* Goals to spare: every objective still meets the brute force, which
 * counts a level solved when each box is on a goal (`any`'s PI-corral
 * pruning once took an empty goal for work that had to be done, and
 * answered `impossible` on solvable levels). */
START_TEST(test_property_spare_goals)
{
    int solvable, impossible, differ;
    property_run_gen(spare_level, 1207, 300, 2, 3, &solvable, &impossible,
                     &differ);
    if (!gs_prop_deep())
        ck_assert_msg(solvable > 50 && impossible > 15, "%d solvable, %d not",
                      solvable, impossible);
}
END_TEST

/* Levels found by a differential test against a brute force: boxes on
 * goals wall off a corral whose only goals are spare, and `any` (its
 * PI-corral pruning) answered `impossible`. Each objective solves them. */
START_TEST(test_spare_goal_corrals)
{
    static const char *const a[] = {"######", "#@*  #", "#$##.#", "#.####",
                                    "######"};
    static const char *const b[] = {"#########", "#.#*  @.#", "# . $ $.#",
                                    "# # $.  #", "#########"};
    static const char *const c[] = {"#########", "##.##@$.#", "#   #*#*#",
                                    "#   #   #", "# #    ##", "#########"};
    static const char *const d[] = {"#####", "#.  #", "### #", "# #*#",
                                    "#.$@#", "#**##", "#####"};
    const struct {
        const char *const *rows;
        int n;
    } lv[] = {{a, 5}, {b, 5}, {c, 6}, {d, 7}};
    const char *objective[] = {"moves", "pushes", "any", "any-astar",
                               "any-fess"};
    for (size_t i = 0; i < sizeof lv / sizeof lv[0]; i++) {
        long long best = bf_solve(lv[i].rows, lv[i].n, false);
        ck_assert_int_gt(best, 0);
        for (size_t m = 0; m < sizeof objective / sizeof *objective; m++) {
            gs_result res;
            solve_rows(lv[i].rows, lv[i].n, objective[m], NULL, &res);
            ck_assert_msg(res.status == GS_SOLVED, "level %zu %s: %s", i,
                          objective[m], gs_status_name(res.status));
            check_answer(lv[i].rows, lv[i].n, &res);
            ck_assert_int_ge((long long)res.steps, best);
            gs_result_free(&res);
        }
    }
}
END_TEST

/* Four and five boxes in small rooms, where positions are keyed by sets
 * of cells (test_key_formats checks that such levels get them): both
 * exact objectives and `any` still meet the brute force. */
START_TEST(test_property_crowded)
{
    int solvable, impossible, differ;
    property_run_gen(crowded_level, 4040, 200, 4, 5, &solvable, &impossible,
                     &differ);
    if (gs_prop_deep())
        return;
    ck_assert_msg(solvable > 30 && impossible > 30, "%d solvable, %d not",
                  solvable, impossible);
    /* The same levels again (the generator alone draws from the seed):
     * most are keyed by sets of cells. */
    uint64_t seed = 4040;
    int sets = 0;
    for (int iter = 0; iter < 200; iter++) {
        char buf[8][9];
        const char *rows[8];
        int n = crowded_level(&seed, 4, 5, buf, rows);
        sok_level L;
        sok_level_load(&L, rows, n, SOK_MOVES);
        sets += L.x.bitkey;
        sok_level_free(&L);
    }
    ck_assert_int_gt(sets, 150);
}
END_TEST

/* A random room as random_level's, k boxes nearly all home: k goals, a
 * box on each but the last, whose box stands beside it when there is
 * room (so that the bound at the start is often 1: what
 * gs_sokoban_rearranges looks for). Every row is as long as the first. */
static int near_level(uint64_t *seed, int k, char buf[8][9],
                      const char *rows[8])
{
    int H = 7, W = 7;
    int free_cells[64];
    int nfree = random_room(seed, H, W, 12, buf, rows, free_cells);
    ck_assert_int_ge(nfree, k + 3);
    shuffle_cells(seed, free_cells, nfree);
    char *p = &buf[0][0];
    for (int i = 0; i < k - 1; i++)
        p[free_cells[i]] = '*';
    int goal = free_cells[k - 1];
    p[goal] = '.';
    /* The last box: a free cell beside its goal, else anywhere free. */
    static const int STEP[4] = {-9, 9, -1, 1};
    int box = -1, d = (int)(rnd(seed) % 4);
    for (int t = 0; t < 4 && box < 0; t++)
        if (p[goal + STEP[(d + t) % 4]] == ' ')
            box = goal + STEP[(d + t) % 4];
    for (int i = k; box < 0 && i < nfree; i++)
        if (p[free_cells[i]] == ' ')
            box = free_cells[i];
    p[box] = '$';
    for (int i = k; i < nfree; i++)
        if (p[free_cells[i]] == ' ') {
            p[free_cells[i]] = '@';
            break;
        }
    return H;
}

/* `any` with a deadline (its portfolio of slices, gs_sokoban_any_slices)
 * on random levels of four boxes, three of them on goals: most are
 * rearrangements (their A* slice runs longest, without the perimeter
 * table), some are not, and some cannot be solved. Each answer agrees
 * with the brute force: `impossible` exactly when it finds none, else an
 * answer that replays, no shorter than the shortest. */
START_TEST(test_property_rearrange)
{
    uint64_t seed = gs_prop_seed(9001);
    int solvable = 0, impossible = 0, fired = 0;
    for (int iter = 0, iters = gs_prop_iters(60); iter < iters; iter++) {
        char buf[8][9];
        const char *rows[8];
        int n = near_level(&seed, 4, buf, rows);
        note_level(iter, rows, n);
        sok_level L;
        sok_level_load(&L, rows, n, SOK_ANY);
        fired += gs_sokoban_rearranges(&L.x);
        sok_level_free(&L);
        long long best = bf_solve(rows, n, false);
        gs_limits lim = {.deadline_ns = gs_now_ns() + 20000000000LL};
        gs_result res;
        solve_rows(rows, n, "any", &lim, &res);
        if (best < 0) {
            impossible++;
            GS_PROP_ASSERT(res.status == GS_IMPOSSIBLE,
                           "any: %s, brute force impossible",
                           gs_status_name(res.status));
        } else {
            solvable++;
            check_answer_of("any", rows, n, &res);
            GS_PROP_ASSERT((long long)res.steps >= best,
                           "any: %zu steps, brute force %lld", res.steps, best);
        }
        gs_result_free(&res);
    }
    if (!gs_prop_deep())
        ck_assert_msg(solvable > 20 && impossible > 2 && fired > 20 &&
                          fired < 60,
                      "%d solvable, %d not, %d rearrangements", solvable,
                      impossible, fired);
}
END_TEST

/* Checks the `moves` and `pushes` answers m and p of a random level
 * against the brute force (both impossible, or both optimal with the
 * brute force's counts, each replayed) and frees them. True when the
 * level is solvable. */
static bool check_exact_pair(const char *const *rows, int n, gs_result *m,
                             gs_result *p)
{
    long long best = bf_solve(rows, n, false);
    long long lex = bf_solve(rows, n, true);
    if (best < 0) {
        GS_PROP_ASSERT(m->status == GS_IMPOSSIBLE && p->status == GS_IMPOSSIBLE,
                       "moves %s, pushes %s, brute force impossible",
                       gs_status_name(m->status), gs_status_name(p->status));
    } else {
        check_answer_of("moves", rows, n, m);
        check_answer_of("pushes", rows, n, p);
        long long lex_pushes = lex / (long long)BF_PUSH;
        long long lex_steps = lex % (long long)BF_PUSH;
        GS_PROP_ASSERT((long long)m->steps == best,
                       "moves: %zu steps, brute force %lld", m->steps, best);
        GS_PROP_ASSERT(p->pushes == lex_pushes &&
                           (long long)p->steps == lex_steps,
                       "pushes: %ld pushes %zu steps, brute force %lld pushes "
                       "%lld steps",
                       p->pushes, p->steps, lex_pushes, lex_steps);
        GS_PROP_ASSERT(m->optimal && p->optimal,
                       "moves or pushes not marked optimal");
    }
    gs_result_free(m);
    gs_result_free(p);
    return best >= 0;
}

/* The perimeter table forced on from the first few states, small enough
 * that it often stops short of the start (its bound outside then counts)
 * or big enough to hold every solvable position (then it also proves
 * positions dead): both exact objectives still agree with the brute
 * force, and impossible levels stay impossible. */
static void property_perimeter(uint64_t seed, size_t first, bool timed)
{
    static const size_t CAPS[] = {24, 60, 200, 800, 1u << 16};
    static const size_t UNPACK[] = {0, 1, 30};
    int solvable = 0, impossible = 0;
    seed = gs_prop_seed(seed);
    for (int iter = 0, iters = gs_prop_iters(500); iter < iters; iter++) {
        char buf[8][9];
        const char *rows[8];
        int n = random_level(&seed, 1, 3, buf, rows);
        note_level(iter, rows, n);
        size_t cap = CAPS[iter % 5];
        uint64_t trigger = 1 + (uint64_t)(iter % 3) * 4;
        gs_result m, p;
        /* `moves`: by box set throughout, or by position from the first
         * children or a few layers on (the test's tables are too small
         * for the density's question). */
        size_t unpack = UNPACK[iter / 5 % 3];
        solve_rows_perim_timed(rows, n, "moves", trigger, cap, first, unpack,
                               timed, &m);
        solve_rows_perim_timed(rows, n, "pushes", trigger, cap, first, 0, timed,
                               &p);
        if (check_exact_pair(rows, n, &m, &p))
            solvable++;
        else
            impossible++;
    }
    if (!gs_prop_deep())
        ck_assert_msg(solvable > 30 && impossible > 10, "%d solvable, %d not",
                      solvable, impossible);
}

START_TEST(test_property_perimeter)
{
    property_perimeter(4242, 0, false);
}
END_TEST

/* The same with a table of 16 positions first: many rounds, each letting
 * the search go on by a few states with a deeper table, so that queued
 * states' bounds rise and they are put back (search.c, bound_rose). */
START_TEST(test_property_perimeter_rounds)
{
    property_perimeter(777, 16, false);
}
END_TEST

/* The rounds again with a deadline (far off): each search round also
 * pauses once it took as long as the table's round before it, and goes
 * on in the next (exact.c); with tables of 64 positions first that
 * happens in a few of the 1,000 solves (3 to 8 in runs here: it depends
 * on the clock, so it is not asserted). The answers stay exact. */
START_TEST(test_property_perimeter_timed)
{
    property_perimeter(31337, 64, true);
}
END_TEST

/* A room of 3 x 4 to 3 x 6 floor with a one-wide dead end below it (the
 * corridor macro's ground, macro.c): 2 or 3 cells deep, the deepest a
 * goal and the others at random, at most one goal more in the room; the
 * boxes off the top row (where they could never be pushed down). With
 * `mirror` the room is 3 x 5, the dead end hangs from its middle column
 * with every goal in it, and the boxes and the player are mirrored
 * left-right too (sym.c stores classes: answer.c's step_sym spells the macro
 * out). Returns the rows, 0 when the draw does not fit. */
static int corridor_level(uint64_t *seed, bool mirror, char buf[8][9],
                          const char *rows[8])
{
    int C = mirror ? 5 : 4 + (int)(rnd(seed) % 3);
    int depth = 2 + (int)(rnd(seed) % 2), H = 5 + depth, W = C + 2;
    int free_cells[64];
    random_room(seed, 5, W, 0, buf, rows, free_cells);
    int col = mirror ? 3 : 1 + (int)(rnd(seed) % (uint32_t)C);
    for (int r = 5; r < H; r++) {
        memset(buf[r], '#', (size_t)W);
        buf[r][W] = '\0';
        rows[r] = buf[r];
    }
    for (int r = 4; r < H - 1; r++)
        buf[r][col] = r == H - 2 || mirror || rnd(seed) % 3 ? '.' : ' ';
    int k = 0;
    for (int r = 4; r < H - 1; r++)
        k += buf[r][col] == '.';
    if (mirror) {
        /* Boxes in mirrored pairs (and the middle column) of rows 2, 3. */
        int boxes = 0;
        for (int tries = 0; tries < 8 && boxes < k; tries++) {
            int r = 2 + (int)(rnd(seed) % 2), c = 1 + (int)(rnd(seed) % 3);
            if (buf[r][c] != ' ' || (c < 3 && boxes + 2 > k))
                continue;
            buf[r][c] = buf[r][W - 1 - c] = '$';
            boxes += c < 3 ? 2 : 1;
        }
        if (boxes != k)
            return 0;
        buf[1][3] = '@';
        return H;
    }
    /* A goal to spare now and then: the macro must then stay off. */
    int room = rnd(seed) % 3 != 0, nfree = 0;
    int spare = k + room > 1 && rnd(seed) % 4 == 0;
    for (int r = 2; r <= 3; r++)
        for (int c = 1; c <= C; c++)
            free_cells[nfree++] = r * 9 + c;
    shuffle_cells(seed, free_cells, nfree);
    char *p = &buf[0][0];
    for (int i = 0; i < k + room - spare; i++)
        p[free_cells[i]] = '$';
    if (room && rnd(seed) % 2) { /* beside the mouth: the last box there */
        int side = col + (col > 1 && (col == C || rnd(seed) % 2) ? -1 : 1);
        p[3 * 9 + side] = p[3 * 9 + side] == '$' ? '*' : '.';
    } else if (room) {
        p[10 + (int)(rnd(seed) % (uint32_t)C)] = '.'; /* the top row */
    }
    char *pl = &p[free_cells[k + room - spare]];
    *pl = *pl == '.' ? '+' : '@';
    return H;
}

/* Levels with a dead end of goals below a room: both exact objectives,
 * whose corridor macro takes a box entering it on to the deepest free goal
 * (while a goal short of it is left for a later box), agree with the
 * brute force and with the same searches without the macro, which must
 * save states on many of them; with and without the perimeter table. */
START_TEST(test_property_corridor)
{
    uint64_t seed = gs_prop_seed(515);
    int solvable = 0, impossible = 0, saved = 0, mirrored = 0;
    for (int iter = 0, iters = gs_prop_iters(400); iter < iters; iter++) {
        char buf[8][9];
        const char *rows[8];
        bool mirror = iter % 4 == 3;
        int n = corridor_level(&seed, mirror, buf, rows);
        if (n == 0)
            continue;
        note_level(iter, rows, n);
        mirrored += mirror;
        gs_result m, p, m0, p0;
        /* Every fourth level with the perimeter table forced on (a small
         * one that stops short, or one that holds every position). */
        bool table = iter % 4 == 1;
        if (table) {
            size_t cap = iter % 8 == 1 ? 60 : (size_t)1 << 16;
            uint64_t trigger = 1 + (uint64_t)(iter % 3);
            solve_rows_perim(rows, n, "moves", trigger, cap, 0, 0, &m);
            solve_rows_perim(rows, n, "pushes", trigger, cap, 0, 0, &p);
        } else {
            solve_rows(rows, n, "moves", NULL, &m);
            solve_rows(rows, n, "pushes", NULL, &p);
        }
        gs_sokoban *g = parse_rows(rows, n, "moves");
        g->no_corridors = true;
        solve_inst(g, NULL, &m0);
        g = parse_rows(rows, n, "pushes");
        g->no_corridors = true;
        solve_inst(g, NULL, &p0);
        GS_PROP_ASSERT(m.status == m0.status && p.status == p0.status,
                       "moves %s, pushes %s; without corridors %s, %s",
                       gs_status_name(m.status), gs_status_name(p.status),
                       gs_status_name(m0.status), gs_status_name(p0.status));
        if (m.status == GS_SOLVED) {
            GS_PROP_ASSERT(m.steps == m0.steps && p.steps == p0.steps &&
                               p.pushes == p0.pushes,
                           "moves %zu steps, pushes %zu steps %ld pushes; "
                           "without corridors %zu, %zu %ld",
                           m.steps, p.steps, p.pushes, m0.steps, p0.steps,
                           p0.pushes);
            saved += !table && m.expanded < m0.expanded;
        }
        gs_result_free(&m0);
        gs_result_free(&p0);
        if (check_exact_pair(rows, n, &m, &p))
            solvable++;
        else
            impossible++;
    }
    if (!gs_prop_deep())
        ck_assert_msg(solvable > 100 && impossible > 20 && saved > 30 &&
                          mirrored > 50,
                      "%d solvable, %d not, %d saved, %d mirrored", solvable,
                      impossible, saved, mirrored);
}
END_TEST

/* A random room whose walls and goals are symmetric (sym.c): mirrored
 * left-right, top-bottom or both, or under every turn and mirror of a
 * square; the boxes and the player placed at random (one box per goal).
 * Returns the row count, 0 when the draw has too few or too many goals. */
static int symmetric_level(uint64_t *seed, char buf[8][9], const char *rows[8])
{
    int kind = (int)(rnd(seed) % 4);
    int R = kind == 3 ? 5 : 4 + (int)(rnd(seed) % 3);
    int C = kind == 3 ? 5 : 4 + (int)(rnd(seed) % 3);
    int H = R + 2, W = C + 2;
    for (int r = 0; r < H; r++) {
        for (int c = 0; c < W; c++)
            buf[r][c] =
                r == 0 || c == 0 || r == H - 1 || c == W - 1 ? '#' : ' ';
        buf[r][W] = '\0';
        rows[r] = buf[r];
    }
    /* The images of interior cell (r, c) (1-based) under the group. */
    int img[8][2], nimg;
#define SYM_IMAGES(r, c)                                                       \
    do {                                                                       \
        int a = (r)-1, b = (c)-1;                                              \
        nimg = 0;                                                              \
        img[nimg][0] = a, img[nimg++][1] = b;                                  \
        if (kind == 0 || kind == 2 || kind == 3)                               \
            img[nimg][0] = a, img[nimg++][1] = C - 1 - b;                      \
        if (kind == 1 || kind == 2 || kind == 3)                               \
            img[nimg][0] = R - 1 - a, img[nimg++][1] = b;                      \
        if (kind == 2 || kind == 3)                                            \
            img[nimg][0] = R - 1 - a, img[nimg++][1] = C - 1 - b;              \
        if (kind == 3) {                                                       \
            img[nimg][0] = b, img[nimg++][1] = a;                              \
            img[nimg][0] = b, img[nimg++][1] = R - 1 - a;                      \
            img[nimg][0] = C - 1 - b, img[nimg++][1] = a;                      \
            img[nimg][0] = C - 1 - b, img[nimg++][1] = R - 1 - a;              \
        }                                                                      \
    } while (0)
    for (int w = (int)(rnd(seed) % 2); w < 2; w++) {
        int r = 1 + (int)(rnd(seed) % (uint32_t)R);
        int c = 1 + (int)(rnd(seed) % (uint32_t)C);
        SYM_IMAGES(r, c);
        for (int i = 0; i < nimg; i++)
            buf[1 + img[i][0]][1 + img[i][1]] = '#';
    }
    int goals = 0;
    for (int tries = 0; tries < 2 && goals < 2; tries++) {
        int r = 1 + (int)(rnd(seed) % (uint32_t)R);
        int c = 1 + (int)(rnd(seed) % (uint32_t)C);
        if (buf[r][c] != ' ')
            continue;
        SYM_IMAGES(r, c);
        for (int i = 0; i < nimg; i++) {
            char *q = &buf[1 + img[i][0]][1 + img[i][1]];
            goals += *q == ' ';
            *q = '.';
        }
    }
#undef SYM_IMAGES
    if (goals < 1 || goals > 4)
        return 0;
    int free_cells[64], nfree = 0;
    for (int r = 1; r < H - 1; r++)
        for (int c = 1; c < W - 1; c++)
            if (buf[r][c] != '#')
                free_cells[nfree++] = r * 9 + c;
    if (nfree < goals + 1)
        return 0;
    shuffle_cells(seed, free_cells, nfree);
    char *p = &buf[0][0];
    p[free_cells[0]] = p[free_cells[0]] == '.' ? '+' : '@';
    for (int i = 1; i <= goals; i++)
        p[free_cells[i]] = p[free_cells[i]] == '.' ? '*' : '$';
    return H;
}

/* Symmetric levels (the search then stores one position per class of
 * images, and the moves table too): both exact objectives agree with
 * the brute force, with and without the perimeter table forced on. */
START_TEST(test_property_symmetric)
{
    uint64_t seed = gs_prop_seed(9090);
    int solvable = 0, impossible = 0;
    for (int iter = 0, iters = gs_prop_iters(600); iter < iters; iter++) {
        char buf[8][9];
        const char *rows[8];
        int n = symmetric_level(&seed, buf, rows);
        if (n == 0)
            continue;
        note_level(iter, rows, n);
        gs_result m, p;
        if (iter % 2) {
            /* Classes keyed by box set, or by position from a few
             * children on. */
            solve_rows_perim(rows, n, "moves", 1 + (uint64_t)(iter % 3), 1000,
                             0, iter % 4 == 1 ? 10 : 0, &m);
            solve_rows_perim(rows, n, "pushes", 1 + (uint64_t)(iter % 3), 1000,
                             0, 0, &p);
        } else {
            solve_rows(rows, n, "moves", NULL, &m);
            solve_rows(rows, n, "pushes", NULL, &p);
        }
        /* `any`'s A* stores classes too (with the perimeter table on
         * every other level): its answer replays, no shorter in pushes
         * than the least, and `impossible` only when there is none. */
        gs_result a;
        if (iter % 2)
            solve_rows_perim(rows, n, "any-astar", 1 + (uint64_t)(iter % 3),
                             1000, 0, 0, &a);
        else
            solve_rows(rows, n, "any-astar", NULL, &a);
        long long lex = bf_solve(rows, n, true);
        if (lex < 0) {
            GS_PROP_ASSERT(a.status == GS_IMPOSSIBLE,
                           "any-astar: %s, brute force impossible",
                           gs_status_name(a.status));
        } else {
            check_answer_of("any-astar", rows, n, &a);
            GS_PROP_ASSERT(a.pushes >= lex / (long long)BF_PUSH,
                           "any-astar: %ld pushes, brute force %lld", a.pushes,
                           lex / (long long)BF_PUSH);
        }
        gs_result_free(&a);
        if (check_exact_pair(rows, n, &m, &p))
            solvable++;
        else
            impossible++;
    }
    if (!gs_prop_deep())
        ck_assert_msg(solvable > 30 && impossible > 10, "%d solvable, %d not",
                      solvable, impossible);
}
END_TEST

/* `pushes` in two searches (exact.c, gs_sokoban_pushes_two_phase: the fewest
 * pushes over the player's areas, then moves over the positions on such
 * solutions) against the one search over exact cells: the same status,
 * pushes and moves on random levels of one to five boxes and on
 * symmetric ones, with and without the perimeter table forced on. */
START_TEST(test_property_pushes_two_searches)
{
    uint64_t seed = gs_prop_seed(6006);
    int solvable = 0, impossible = 0;
    for (int iter = 0, iters = gs_prop_iters(400); iter < iters; iter++) {
        char buf[8][9];
        const char *rows[8];
        int n = iter % 4 == 3   ? symmetric_level(&seed, buf, rows)
                : iter % 4 == 2 ? crowded_level(&seed, 4, 5, buf, rows)
                                : random_level(&seed, 1, 3, buf, rows);
        if (n == 0)
            continue;
        note_level(iter, rows, n);
        gs_result res[2];
        for (int k = 0; k < 2; k++) {
            gs_sokoban *g = parse_rows(rows, n, "pushes");
            g->one_search = k == 1;
            if (iter % 3 == 1) {
                g->perim_trigger = 1 + (uint64_t)(iter % 5);
                g->perim_cap = 1u << 12;
                g->perim_first = 16;
            }
            solve_inst(g, NULL, &res[k]);
        }
        GS_PROP_ASSERT(res[0].status == res[1].status,
                       "two searches %s, one %s", gs_status_name(res[0].status),
                       gs_status_name(res[1].status));
        if (res[0].status == GS_SOLVED) {
            solvable++;
            check_answer_of("pushes", rows, n, &res[0]);
            GS_PROP_ASSERT(res[0].optimal && res[1].optimal,
                           "pushes not marked optimal");
            GS_PROP_ASSERT(
                res[0].pushes == res[1].pushes && res[0].steps == res[1].steps,
                "two searches %ld pushes %zu steps, one %ld %zu", res[0].pushes,
                res[0].steps, res[1].pushes, res[1].steps);
        } else {
            GS_PROP_ASSERT(res[0].status == GS_IMPOSSIBLE, "pushes: %s",
                           gs_status_name(res[0].status));
            impossible++;
        }
        gs_result_free(&res[0]);
        gs_result_free(&res[1]);
    }
    /* (So small, most levels cost the two searches more than the one:
     * 1 saved and 77 costlier of the 78 solvable when written.) */
    if (!gs_prop_deep())
        ck_assert_msg(solvable > 60 && impossible > 100, "%d solvable, %d not",
                      solvable, impossible);
}
END_TEST

/* Where the marks prune: on Microban I 117 (7 boxes, 47 pushes) the two
 * searches expand fewer states in all than the one, for the same answer
 * (33,705 against 41,528 when written; no deadline, so the counts are
 * the same from run to run). */
START_TEST(pushes_two_searches_fewer_states)
{
    static const char *const mb117[] = {
        " #### ####",  " #  ###  ##", " #      @ #", "##..###   #",
        "#      #  #", "#...#$  # #", "# ## $$ $ #", "#  $    ###",
        "####  ###",   "   ####"};
    gs_result res[2];
    for (int k = 0; k < 2; k++) {
        gs_sokoban *g = parse_rows(mb117, 10, "pushes");
        g->one_search = k == 1;
        solve_inst(g, NULL, &res[k]);
        ck_assert_int_eq(res[k].status, GS_SOLVED);
        ck_assert(res[k].optimal);
    }
    check_answer(mb117, 10, &res[0]);
    ck_assert_int_eq(res[0].pushes, 47);
    ck_assert_int_eq(res[0].pushes, res[1].pushes);
    ck_assert_uint_eq(res[0].steps, res[1].steps);
    ck_assert_msg(res[0].expanded < res[1].expanded, "%llu against %llu",
                  (unsigned long long)res[0].expanded,
                  (unsigned long long)res[1].expanded);
    gs_result_free(&res[0]);
    gs_result_free(&res[1]);
}
END_TEST

/* Solves MICROBAN5 for `optimize` within lim: solved (`pushes`: with
 * the answer free_res has, without limits; `any`: an answer that
 * replays), or `limit` of the kind given. Returns whether it was solved;
 * *st gets the stores' and tables' sizes. */
static bool sample_within(const char *optimize, const gs_limits *lim,
                          const gs_result *free_res, enum gs_limit_kind kind,
                          gs_sokoban_stats *st)
{
    int n = GS_SAMPLE_NROWS(GS_SAMPLE_MICROBAN5);
    gs_sokoban *g = parse_rows(GS_SAMPLE_MICROBAN5, n, optimize);
    g->learn_always = free_res != NULL; /* `pushes`: its tables count too */
    gs_result res;
    gs_error err = {0};
    gs_result_clear(&res);
    *st = (gs_sokoban_stats){0};
    ck_assert_int_eq(gs_sokoban_solve_stats(g, lim, &res, st, &err), GS_OK);
    bool solved = res.status == GS_SOLVED;
    if (solved && free_res) {
        ck_assert(res.optimal);
        ck_assert_uint_eq(res.steps, free_res->steps);
        ck_assert_int_eq(res.pushes, free_res->pushes);
    } else if (solved) {
        check_answer(GS_SAMPLE_MICROBAN5, n, &res);
    } else {
        ck_assert_int_eq(res.status, GS_LIMIT);
        ck_assert_int_eq(res.limit, kind);
    }
    gs_result_free(&res);
    SOK->free(g);
    return solved;
}

/* sample_within under memory budgets from far too small (16 KiB) to
 * ample (16 MiB): the stores live at once and the tables never past the
 * budget. Counts the outcomes into *solved and *limited. */
static void budget_sweep(const char *optimize, const gs_result *free_res,
                         int *solved, int *limited)
{
    for (uint64_t budget = 16u << 10; budget <= 16u << 20; budget *= 2) {
        gs_limits lim = {.max_bytes = budget};
        gs_sokoban_stats st;
        bool ok = sample_within(optimize, &lim, free_res, GS_LIMIT_MEMORY, &st);
        *solved += ok;
        *limited += !ok;
        ck_assert_msg(st.store_bytes + st.table_bytes <= budget,
                      "budget %llu: stores %llu + tables %llu",
                      (unsigned long long)budget,
                      (unsigned long long)st.store_bytes,
                      (unsigned long long)st.table_bytes);
    }
}

/* The same under state caps from 8 to 4,096: the stores' states within
 * the cap (it is the solve's, not each store's). */
static void cap_sweep(const char *optimize, const gs_result *free_res,
                      int *solved, int *limited)
{
    for (uint64_t cap = 8; cap <= 4096; cap = cap * 3 / 2) {
        gs_limits lim = {.max_states = cap};
        gs_sokoban_stats st;
        bool ok = sample_within(optimize, &lim, free_res, GS_LIMIT_STATES, &st);
        *solved += ok;
        *limited += !ok;
        ck_assert_msg(st.states <= cap, "cap %llu: %llu states",
                      (unsigned long long)cap, (unsigned long long)st.states);
    }
}

/* `pushes` within memory budgets: solved with the answer it has without
 * one, or `limit` "memory"; the stores of both searches and the tables
 * (the first's edges, the marks) never past the budget. */
START_TEST(pushes_two_searches_within_budget)
{
    int n = GS_SAMPLE_NROWS(GS_SAMPLE_MICROBAN5), solved = 0, limited = 0;
    gs_result free_res;
    solve_rows(GS_SAMPLE_MICROBAN5, n, "pushes", NULL, &free_res);
    budget_sweep("pushes", &free_res, &solved, &limited);
    ck_assert_msg(solved > 0 && limited > 0, "%d solved, %d limited", solved,
                  limited);
    gs_result_free(&free_res);
}
END_TEST

/* Both sweeps for an objective whose answers need only replay: some
 * solved, some `limit`. */
static void sweeps_any(const char *optimize)
{
    int solved = 0, limited = 0;
    budget_sweep(optimize, NULL, &solved, &limited);
    cap_sweep(optimize, NULL, &solved, &limited);
    ck_assert_msg(solved > 0 && limited > 0, "%s: %d solved, %d limited",
                  optimize, solved, limited);
}

/* `any` (its greedy search, then the answer's polish) within memory
 * budgets and state caps: the search's store, then the polish's two,
 * with the tables within the budget, the stores' states within the
 * cap. The search backwards likewise: its store and tables. */
START_TEST(any_within_budget)
{
    sweeps_any("any");
    sweeps_any("any-pull");
    sweeps_any("any-pull-doors");
    sweeps_any("any-pull-most");
}
END_TEST

/* The same for the state cap: it is the solve's, so the two searches'
 * stores together stay within it. */
START_TEST(pushes_two_searches_within_state_cap)
{
    int n = GS_SAMPLE_NROWS(GS_SAMPLE_MICROBAN5), solved = 0, limited = 0;
    gs_result free_res;
    solve_rows(GS_SAMPLE_MICROBAN5, n, "pushes", NULL, &free_res);
    cap_sweep("pushes", &free_res, &solved, &limited);
    ck_assert_msg(solved > 0 && limited > 0, "%d solved, %d limited", solved,
                  limited);
    gs_result_free(&free_res);
}
END_TEST

Suite *gs_test_sokoban_suite(void)
{
    Suite *s = suite_create("sokoban");
    TCase *tc = tcase_create("sokoban");
    tcase_add_test(tc, test_seed_samples);
    tcase_add_test(tc, test_text_format);
    tcase_add_test(tc, test_xsb_bodies);
    tcase_add_test(tc, test_large_room);
    tcase_add_test(tc, test_invalid_bodies);
    tcase_add_test(tc, test_objectives);
    tcase_add_test(tc, test_limits);
    tcase_add_test(tc, perim_table_within_budget);
    tcase_add_test(tc, perim_first_round_whole);
    tcase_add_test(tc, pushes_two_searches_within_budget);
    tcase_add_test(tc, pushes_two_searches_within_state_cap);
    tcase_add_test(tc, any_within_budget);
    tcase_add_test(tc, pushes_two_searches_fewer_states);
    suite_add_tcase(s, tc);
    /* Hundreds of brute-force comparisons: correctness, not speed, so the
     * time cap only guards against hangs (sanitizers and valgrind are
     * slow). */
    /* Named "property" in every suite: make check-deep runs these. */
    TCase *prop = tcase_create("property");
    tcase_set_timeout(prop, 300);
    tcase_add_checked_fixture(prop, gs_prop_unnote, gs_prop_unnote);
    tcase_add_test(prop, test_property_random);
    tcase_add_test(prop, test_property_three_boxes);
    tcase_add_test(prop, test_property_spare_goals);
    tcase_add_test(prop, test_spare_goal_corrals);
    tcase_add_test(prop, test_property_crowded);
    tcase_add_test(prop, test_property_rearrange);
    tcase_add_test(prop, test_property_perimeter);
    tcase_add_test(prop, test_property_perimeter_rounds);
    tcase_add_test(prop, test_property_perimeter_timed);
    tcase_add_test(prop, test_property_symmetric);
    tcase_add_test(prop, test_property_corridor);
    tcase_add_test(prop, test_property_pushes_two_searches);
    tcase_add_test(prop, test_property_improve);
    suite_add_tcase(s, prop);
    return s;
}
