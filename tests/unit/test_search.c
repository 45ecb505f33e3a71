/* test_search.c - unit tests for the shared search core: the same grid
 * walk solved in hashed FIFO, dense, lattice and priority mode, parent
 * links, improvement of queued states, and every limit. */
#include <stdlib.h>
#include <string.h>

#include "gridsolve/search.h"
#include "suites.h"

/* A 6x7 maze; '#' blocks. Start S, goal G. Shortest path: 11 moves (the
 * Manhattan distance). */
static const char *maze[] = {
    "S..#...", ".#.#.#.", ".#...#.", ".####..", "......#", "#####.G",
};
#define MR 6
#define MC 7
static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
static const char dname[] = "UDLR";

static int dir_of(unsigned char m)
{
    return (int)(strchr(dname, m) - dname);
}

static bool open_cell(int r, int c)
{
    return r >= 0 && c >= 0 && r < MR && c < MC && maze[r][c] != '#';
}

/* Replays moves from S; true when they end on G through open cells. */
static bool replay(const char *moves)
{
    int r = 0, c = 0;
    for (const char *m = moves; *m; m++) {
        int d = dir_of((unsigned char)*m);
        r += dr[d];
        c += dc[d];
        if (!open_cell(r, c))
            return false;
    }
    return r == MR - 1 && c == MC - 1;
}

typedef struct cell {
    uint16_t r, c;
} cell;

/* Expands hashed states until G; returns the loop's last rc. */
static int walk_hashed(gs_search *s, bool prio, uint64_t *goal, bool *found)
{
    cell start = {0, 0};
    int rc = prio ? gs_search_add_prio(s, &start, GS_NO_PARENT, 0, 0, 0, NULL)
                  : gs_search_add(s, &start, GS_NO_PARENT, 0, NULL);
    *found = false;
    uint64_t id;
    while (rc >= 0 && (rc = gs_search_pop(s, &id)) == 1) {
        cell cur;
        memcpy(&cur, gs_search_key(s, id), sizeof cur);
        if (cur.r == MR - 1 && cur.c == MC - 1) {
            *found = true;
            *goal = id;
            return 0;
        }
        for (int d = 0; d < 4 && rc >= 0; d++) {
            int nr = cur.r + dr[d], nc = cur.c + dc[d];
            if (!open_cell(nr, nc))
                continue;
            cell n = {(uint16_t)nr, (uint16_t)nc};
            uint64_t g = gs_search_cost(s, id) + 1;
            uint64_t h = (uint64_t)(MR - 1 - nr + MC - 1 - nc);
            rc = prio ? gs_search_add_prio(s, &n, id, dname[d], g, g + h, NULL)
                      : gs_search_add(s, &n, id, dname[d], NULL);
        }
    }
    return rc;
}

static void check_solution(gs_search *s, int rc, bool found, uint64_t goal)
{
    gs_result res;
    gs_result_clear(&res);
    ck_assert(found);
    ck_assert_int_eq(gs_search_finish(s, rc, found, goal, NULL, true, &res),
                     GS_OK);
    ck_assert_int_eq(res.status, GS_SOLVED);
    ck_assert_uint_eq(res.steps, 11);
    ck_assert_uint_eq(strlen(res.moves), 11);
    ck_assert(replay(res.moves));
    ck_assert(res.optimal);
    ck_assert_uint_gt(res.expanded, 0);
    gs_result_free(&res);
}

START_TEST(fifo_hashed_finds_shortest)
{
    gs_search *s;
    gs_search_config cfg = {.key_size = sizeof(cell)};
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    uint64_t goal = 0;
    bool found;
    int rc = walk_hashed(s, false, &goal, &found);
    check_solution(s, rc, found, goal);
    gs_search_free(s);
}
END_TEST

START_TEST(priority_astar_finds_shortest)
{
    gs_search *s;
    gs_search_config cfg = {.key_size = sizeof(cell),
                            .queue = GS_QUEUE_PRIORITY};
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    uint64_t goal = 0;
    bool found;
    int rc = walk_hashed(s, true, &goal, &found);
    check_solution(s, rc, found, goal);
    ck_assert_uint_eq(gs_search_cost(s, goal), 11);
    gs_search_free(s);
}
END_TEST

START_TEST(priority_improves_unexpanded_state)
{
    gs_search *s;
    gs_search_config cfg = {.key_size = 4, .queue = GS_QUEUE_PRIORITY};
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    uint32_t a = 1, b = 2, c = 3;
    uint64_t ia, ib, ic, id;
    ck_assert_int_eq(gs_search_add_prio(s, &a, GS_NO_PARENT, 0, 0, 0, &ia), 1);
    ck_assert_int_eq(gs_search_pop(s, &id), 1);
    ck_assert_uint_eq(id, ia);
    ck_assert_int_eq(gs_search_add_prio(s, &b, ia, 'x', 5, 5, &ib), 1);
    ck_assert_int_eq(gs_search_add_prio(s, &c, ia, 'y', 1, 1, &ic), 1);
    /* A worse path to b changes nothing; a better one replaces the link. */
    ck_assert_int_eq(gs_search_add_prio(s, &b, ic, 'z', 7, 7, NULL), 0);
    ck_assert_int_eq(gs_search_pop(s, &id), 1);
    ck_assert_uint_eq(id, ic);
    ck_assert_int_eq(gs_search_add_prio(s, &b, ic, 'z', 2, 2, NULL), 1);
    unsigned char m;
    ck_assert_uint_eq(gs_search_parent(s, ib, &m), ic);
    ck_assert_int_eq(m, 'z');
    ck_assert_uint_eq(gs_search_cost(s, ib), 2);
    /* b pops once (the stale entry is skipped), then the list is empty. */
    ck_assert_int_eq(gs_search_pop(s, &id), 1);
    ck_assert_uint_eq(id, ib);
    ck_assert_int_eq(gs_search_pop(s, &id), 0);
    /* An expanded state is never re-opened. */
    ck_assert_int_eq(gs_search_add_prio(s, &c, ia, 'w', 0, 0, NULL), 0);
    char *path;
    size_t len;
    ck_assert_int_eq(gs_search_path(s, ib, "!", &path, &len), GS_OK);
    ck_assert_str_eq(path, "yz!");
    ck_assert_uint_eq(len, 3);
    free(path);
    ck_assert_uint_eq(gs_search_expanded(s), 3);
    gs_search_free(s);
}
END_TEST

/* Dense ids: r * MC + c; the parent is one step back against the move. */
static uint64_t dense_parent(void *ctx, uint64_t id, unsigned char move)
{
    int d = dir_of(move);
    int r = (int)(id / MC) - dr[d], c = (int)(id % MC) - dc[d];
    return (uint64_t)(r * MC + c);
}

START_TEST(dense_mode_finds_shortest)
{
    gs_search *s;
    gs_search_config cfg = {.dense_count = MR * MC,
                            .dense_parent = dense_parent};
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    uint64_t start = 0, id, goal = 0;
    bool found = false;
    int rc = gs_search_add(s, &start, GS_NO_PARENT, 0, NULL);
    ck_assert_int_eq(rc, 1);
    ck_assert_int_eq(gs_search_add(s, &start, GS_NO_PARENT, 0, NULL), 0);
    while (!found && (rc = gs_search_pop(s, &id)) == 1) {
        if (id == MR * MC - 1) {
            found = true;
            goal = id;
            break;
        }
        int r = (int)(id / MC), c = (int)(id % MC);
        for (int d = 0; d < 4; d++) {
            if (!open_cell(r + dr[d], c + dc[d]))
                continue;
            uint64_t n = (uint64_t)((r + dr[d]) * MC + c + dc[d]);
            ck_assert_int_ge(gs_search_add(s, &n, id, dname[d], NULL), 0);
        }
    }
    check_solution(s, rc, found, goal);
    gs_search_free(s);
}
END_TEST

START_TEST(unreachable_goal_is_impossible)
{
    gs_search *s;
    gs_search_config cfg = {.key_size = 4};
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    uint32_t k = 7;
    uint64_t id;
    ck_assert_int_eq(gs_search_add(s, &k, GS_NO_PARENT, 0, NULL), 1);
    ck_assert_int_eq(gs_search_pop(s, &id), 1);
    int rc = gs_search_pop(s, &id);
    ck_assert_int_eq(rc, 0);
    gs_result res;
    gs_result_clear(&res);
    ck_assert_int_eq(gs_search_finish(s, rc, false, 0, NULL, true, &res),
                     GS_OK);
    ck_assert_int_eq(res.status, GS_IMPOSSIBLE);
    ck_assert_ptr_null(res.moves);
    gs_search_free(s);
}
END_TEST

START_TEST(state_cap_gives_limit_states)
{
    gs_limits lim = {.max_states = 10};
    gs_search *s;
    gs_search_config cfg = {.key_size = 4, .limits = &lim};
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    int rc = 0;
    uint32_t k;
    for (k = 0; k < 100 && rc >= 0; k++)
        rc = gs_search_add(s, &k, GS_NO_PARENT, 0, NULL);
    ck_assert_int_eq(rc, GS_ELIMIT);
    ck_assert_uint_eq(gs_search_count(s), 10);
    gs_result res;
    gs_result_clear(&res);
    ck_assert_int_eq(gs_search_finish(s, rc, false, 0, NULL, true, &res),
                     GS_OK);
    ck_assert_int_eq(res.status, GS_LIMIT);
    ck_assert_int_eq(res.limit, GS_LIMIT_STATES);
    gs_search_free(s);
}
END_TEST

START_TEST(deadline_and_cancel_give_limit_time)
{
    gs_limits lim = {0};
    gs_search *s;
    gs_search_config cfg = {.key_size = 4, .limits = &lim};
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    for (uint32_t k = 0; k < 2000; k++)
        ck_assert_int_eq(gs_search_add(s, &k, GS_NO_PARENT, 0, NULL), 1);
    lim.deadline_ns = gs_now_ns() - 1; /* the search reads it through cfg */
    int rc;
    uint64_t id;
    int pops = 0;
    while ((rc = gs_search_pop(s, &id)) == 1)
        pops++;
    ck_assert_int_eq(rc, GS_ELIMIT);
    ck_assert_int_lt(pops, 200); /* the clock is read every 128 ticks */
    ck_assert_int_eq(gs_search_limit(s), GS_LIMIT_TIME);
    /* Adds see the deadline too: a slow expansion cannot outlive it. */
    uint32_t more = 5000;
    for (rc = 1; rc == 1 && more < 6000; more++)
        rc = gs_search_add(s, &more, GS_NO_PARENT, 0, NULL);
    ck_assert_int_eq(rc, GS_ELIMIT);
    gs_search_free(s);

    atomic_int cancel = 1;
    gs_limits lc = {.cancel = &cancel};
    cfg.limits = &lc;
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    uint32_t k = 1;
    gs_search_add(s, &k, GS_NO_PARENT, 0, NULL);
    ck_assert_int_eq(gs_search_pop(s, &id), GS_ELIMIT);
    ck_assert(gs_limits_expired(&lc));
    gs_search_free(s);
}
END_TEST

/* The memory budget stops a hashed search as a full state store, before
 * the store passes it; a dense search's queue is held to it too. */
START_TEST(memory_budget_gives_limit_states)
{
    gs_limits lim = {.max_bytes = 4 << 20};
    gs_search *s;
    gs_search_config cfg = {.key_size = 8, .limits = &lim};
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    int rc = 1;
    uint64_t k;
    for (k = 0; k < 1000000 && rc == 1; k++)
        rc = gs_search_add(s, &k, GS_NO_PARENT, 0, NULL);
    ck_assert_int_eq(rc, GS_ELIMIT);
    ck_assert_int_eq(gs_search_limit(s), GS_LIMIT_MEMORY);
    ck_assert_uint_le(gs_search_bytes(s), lim.max_bytes);
    ck_assert_uint_gt(gs_search_count(s), 100000);
    /* The states already stored are intact. */
    for (uint64_t j = 0; j < gs_search_count(s); j += 97)
        ck_assert_int_eq(gs_search_add(s, &j, GS_NO_PARENT, 0, NULL), 0);
    gs_search_free(s);

    gs_search_config pcfg = {
        .key_size = 8, .queue = GS_QUEUE_PRIORITY, .limits = &lim};
    ck_assert_int_eq(gs_search_new(&pcfg, &s), GS_OK);
    for (rc = 1, k = 0; k < 1000000 && rc == 1; k++)
        rc = gs_search_add_prio(s, &k, GS_NO_PARENT, 0, k, k, NULL);
    ck_assert_int_eq(rc, GS_ELIMIT);
    ck_assert_uint_le(gs_search_bytes(s), lim.max_bytes);
    gs_search_free(s);

    gs_search_config dcfg = {
        .dense_count = 2000000, .dense_parent = dense_parent, .limits = &lim};
    ck_assert_int_eq(gs_search_new(&dcfg, &s), GS_OK);
    for (rc = 1, k = 0; k < 2000000 && rc == 1; k++)
        rc = gs_search_add(s, &k, GS_NO_PARENT, 0, NULL);
    ck_assert_int_eq(rc, GS_ELIMIT);
    ck_assert_int_eq(gs_search_limit(s), GS_LIMIT_MEMORY);
    ck_assert_uint_le(gs_search_bytes(s), lim.max_bytes);
    gs_search_free(s);
}
END_TEST

START_TEST(many_states_grow_index)
{
    gs_search *s;
    gs_search_config cfg = {.key_size = 8};
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    for (uint64_t k = 0; k < 200000; k++) {
        uint64_t key = k * 2654435761u, id;
        ck_assert_int_eq(
            gs_search_add(s, &key, k ? k - 1 : GS_NO_PARENT, 'a', &id), 1);
        ck_assert_uint_eq(id, k);
    }
    for (uint64_t k = 0; k < 200000; k += 7) {
        uint64_t key = k * 2654435761u, id;
        ck_assert_int_eq(gs_search_add(s, &key, 0, 'b', &id), 0);
        ck_assert_uint_eq(id, k);
        ck_assert_int_eq(memcmp(gs_search_key(s, id), &key, 8), 0);
    }
    ck_assert_uint_eq(gs_search_count(s), 200000);
    gs_search_free(s);
}
END_TEST

/* ---------------------------------------------------------------- lattice */

/* The maze as a lattice: padded with one wall column on the right and
 * one wall row above and below (a step from a legal cell stays inside),
 * cell (r, c) at (r + 1) * W + c. `layers` 2 makes every step flip the
 * layer (a parity lattice), so layer changes and parents are exercised;
 * the goal is then G on the layer of the path's parity (11: layer 1). */
#define LW (MC + 1)
static void maze_lattice(gs_lattice *l, unsigned layers)
{
    memset(l, 0, sizeof *l);
    l->layers = layers;
    l->moves = 4;
    l->cells = (MR + 2) * LW;
    for (unsigned k = 0; k < layers; k++)
        for (int d = 0; d < 4; d++) {
            l->offset[k][d] = dr[d] * LW + dc[d];
            l->to[k][d] = (unsigned char)((k + 1) % layers);
        }
    memcpy(l->name, dname, 4);
}

static uint64_t maze_cell(int r, int c)
{
    return (uint64_t)(r + 1) * LW + (uint64_t)c;
}

/* Marks every open maze cell legal on every layer. */
static void maze_fill(gs_search *s, unsigned layers)
{
    uint64_t *bits = gs_search_lattice_bits(s);
    ck_assert_ptr_nonnull(bits);
    for (int r = 0; r < MR; r++)
        for (int c = 0; c < MC; c++)
            if (open_cell(r, c))
                for (unsigned k = 0; k < layers; k++) {
                    uint64_t id = gs_lattice_id(maze_cell(r, c), k);
                    bits[id >> 6] |= 1ull << (id & 63);
                }
}

START_TEST(lattice_mode_finds_shortest)
{
    for (unsigned layers = 1; layers <= 2; layers++) {
        gs_lattice lat;
        maze_lattice(&lat, layers);
        gs_search_config cfg = {.lattice = &lat};
        gs_search *s;
        ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
        maze_fill(s, layers);
        uint64_t start = gs_lattice_id(maze_cell(0, 0), 0);
        uint64_t goal = gs_lattice_id(maze_cell(MR - 1, MC - 1), layers - 1);
        bool found;
        int rc = gs_search_lattice_run(s, start, goal, &found);
        ck_assert_int_eq(rc, 0);
        ck_assert(found);
        /* The other calls of the core refuse a lattice search. */
        uint64_t id = 0;
        ck_assert_int_eq(gs_search_add(s, &id, GS_NO_PARENT, 'a', NULL),
                         GS_EINTERNAL);
        ck_assert_int_eq(gs_search_pop(s, &id), GS_EINTERNAL);
        ck_assert_ptr_null(gs_search_key(s, goal));
        check_solution(s, rc, found, goal);
        ck_assert_uint_ge(gs_search_count(s), gs_search_expanded(s));
        gs_search_free(s);
    }
}
END_TEST

/* A wall around G: every reachable state is visited, then 0. */
START_TEST(lattice_exhausts_to_impossible)
{
    gs_lattice lat;
    maze_lattice(&lat, 1);
    gs_search_config cfg = {.lattice = &lat};
    gs_search *s;
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    maze_fill(s, 1);
    uint64_t *bits = gs_search_lattice_bits(s);
    uint64_t goal = gs_lattice_id(maze_cell(MR - 1, MC - 1), 0);
    uint64_t cut = gs_lattice_id(maze_cell(MR - 1, MC - 2), 0);
    bits[cut >> 6] &= ~(1ull << (cut & 63));
    bool found = true;
    ck_assert_int_eq(gs_search_lattice_run(s, gs_lattice_id(maze_cell(0, 0), 0),
                                           goal, &found),
                     0);
    ck_assert(!found);
    int open = 0;
    for (int r = 0; r < MR; r++)
        for (int c = 0; c < MC; c++)
            open += open_cell(r, c);
    /* All open cells but the cut one and G behind it. */
    ck_assert_uint_eq(gs_search_count(s), (uint64_t)open - 2);
    ck_assert_uint_eq(gs_search_expanded(s), gs_search_count(s));
    gs_search_free(s);
}
END_TEST

/* An open 3000 x 3000 grid (padded like the maze), searched from its
 * centre: the frontier, a diamond, outgrows the ring while states are
 * being expanded, and the counters stay exact across the growths. The
 * corner (0, 0) is the one state at the largest distance, so it is found
 * last. */
START_TEST(lattice_counts_across_ring_growth)
{
    enum { N = 3000, W = N + 1 };
    gs_lattice lat = {.layers = 1, .moves = 4, .cells = (N + 2) * W};
    for (int d = 0; d < 4; d++)
        lat.offset[0][d] = dr[d] * W + dc[d];
    memcpy(lat.name, dname, 4);
    gs_search_config cfg = {.lattice = &lat};
    gs_search *s;
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    uint64_t *bits = gs_search_lattice_bits(s);
    for (int r = 0; r < N; r++)
        for (int c = 0; c < N; c++) {
            uint64_t id = gs_lattice_id((uint64_t)(r + 1) * W + c, 0);
            bits[id >> 6] |= 1ull << (id & 63);
        }
    bool found;
    uint64_t start = gs_lattice_id((uint64_t)(N / 2 + 1) * W + N / 2, 0);
    uint64_t goal = gs_lattice_id(W, 0);
    ck_assert_int_eq(gs_search_lattice_run(s, start, goal, &found), 0);
    ck_assert(found);
    ck_assert_uint_eq(gs_search_count(s), (uint64_t)N * N);
    ck_assert_uint_lt(gs_search_expanded(s), gs_search_count(s));
    ck_assert_uint_gt(gs_search_expanded(s), (uint64_t)N * N - 4 * N);
    gs_result res;
    gs_result_clear(&res);
    ck_assert_int_eq(gs_search_finish(s, 0, true, goal, NULL, true, &res),
                     GS_OK);
    ck_assert_uint_eq(res.steps, N);
    gs_result_free(&res);
    gs_search_free(s);
}
END_TEST

/* Cancel and an expired deadline stop a lattice run as a time limit. */
START_TEST(lattice_cancel_gives_limit_time)
{
    gs_lattice lat;
    maze_lattice(&lat, 1);
    atomic_int cancel = 1;
    gs_limits lim = {.cancel = &cancel};
    gs_search_config cfg = {.lattice = &lat, .limits = &lim};
    for (int pass = 0; pass < 2; pass++) {
        gs_search *s;
        ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
        maze_fill(s, 1);
        bool found;
        ck_assert_int_eq(
            gs_search_lattice_run(s, gs_lattice_id(maze_cell(0, 0), 0),
                                  gs_lattice_id(maze_cell(MR - 1, MC - 1), 0),
                                  &found),
            GS_ELIMIT);
        ck_assert(!found);
        ck_assert_int_eq(gs_search_limit(s), GS_LIMIT_TIME);
        gs_search_free(s);
        cancel = 0;
        lim.deadline_ns = 1; /* long past */
    }
}
END_TEST

/* Layer maps that are not permutations, too many layers or no cells are
 * refused: parents could not be recomputed. */
START_TEST(lattice_rejects_bad_shapes)
{
    gs_lattice lat;
    gs_search *s = NULL;
    gs_search_config cfg = {.lattice = &lat};
    maze_lattice(&lat, 2);
    lat.to[0][1] = 1;
    lat.to[1][1] = 1;
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_EINTERNAL);
    ck_assert_ptr_null(s);
    maze_lattice(&lat, 2);
    lat.layers = GS_LATTICE_MAX + 1;
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_EINTERNAL);
    maze_lattice(&lat, 1);
    lat.cells = 0;
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_EINTERNAL);
}
END_TEST

/* In lattice mode the state cap counts bytes: a cap far below the number
 * of states still lets the search run when the store fits in
 * max_states * GS_LATTICE_STATE_BYTES, and a smaller one stops it as a
 * state limit; the memory budget stops it as a memory limit. */
START_TEST(lattice_caps_count_bytes)
{
    enum { N = 512 };
    gs_lattice lat = {.layers = 1, .moves = 2, .cells = N * N + N};
    lat.offset[0][0] = 1; /* right; row ends run into the next row */
    lat.offset[0][1] = N; /* down */
    memcpy(lat.name, "RD", 2);
    /* The store: N * N / 2 bytes of bitset, N * N of moves, a ring: it
     * fits in 2 * N * N bytes, the cap's worth of N * N / 8 states. */
    gs_limits lim = {.max_states = N * N / 8};
    gs_search_config cfg = {.lattice = &lat, .limits = &lim};
    gs_search *s;
    for (int pass = 0; pass < 3; pass++) {
        ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
        uint64_t *bits = gs_search_lattice_bits(s);
        bool found;
        uint64_t goal = gs_lattice_id((uint64_t)N * N - 1, 0);
        if (pass == 0) {
            /* Fits: every state reached although there are N * N of them
             * and the cap says N * N / 8. */
            ck_assert_ptr_nonnull(bits);
            for (uint64_t c = 0; c < (uint64_t)N * N; c++)
                bits[c >> 4] |= 1ull << ((c & 15) * 4);
            ck_assert_int_eq(gs_search_lattice_run(s, 0, goal, &found), 0);
            ck_assert(found);
            ck_assert_uint_gt(gs_search_count(s), lim.max_states);
            ck_assert_uint_le(gs_search_bytes(s),
                              lim.max_states * GS_LATTICE_STATE_BYTES);
        } else {
            ck_assert_ptr_null(bits);
            ck_assert_int_eq(gs_search_lattice_run(s, 0, goal, &found),
                             GS_ELIMIT);
            ck_assert_int_eq(gs_search_limit(s),
                             pass == 1 ? GS_LIMIT_STATES : GS_LIMIT_MEMORY);
            gs_result res;
            gs_result_clear(&res);
            ck_assert_int_eq(
                gs_search_finish(s, GS_ELIMIT, false, 0, NULL, true, &res),
                GS_OK);
            ck_assert_int_eq(res.status, GS_LIMIT);
        }
        gs_search_free(s);
        if (pass == 0) {
            lim.max_states = N * N / 64; /* 16 bytes each: too few */
        } else {
            lim.max_states = 0;
            lim.max_bytes = N * N / 8;
        }
    }
}
END_TEST

Suite *gs_test_search_suite(void)
{
    Suite *s = suite_create("search");
    TCase *tc = tcase_create("search");
    /* Not a timing assertion: room for sanitizers on a loaded machine. */
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, fifo_hashed_finds_shortest);
    tcase_add_test(tc, priority_astar_finds_shortest);
    tcase_add_test(tc, priority_improves_unexpanded_state);
    tcase_add_test(tc, dense_mode_finds_shortest);
    tcase_add_test(tc, lattice_mode_finds_shortest);
    tcase_add_test(tc, lattice_exhausts_to_impossible);
    tcase_add_test(tc, lattice_counts_across_ring_growth);
    tcase_add_test(tc, lattice_cancel_gives_limit_time);
    tcase_add_test(tc, lattice_rejects_bad_shapes);
    tcase_add_test(tc, lattice_caps_count_bytes);
    tcase_add_test(tc, unreachable_goal_is_impossible);
    tcase_add_test(tc, state_cap_gives_limit_states);
    tcase_add_test(tc, deadline_and_cancel_give_limit_time);
    tcase_add_test(tc, memory_budget_gives_limit_states);
    tcase_add_test(tc, many_states_grow_index);
    suite_add_tcase(s, tc);
    return s;
}
