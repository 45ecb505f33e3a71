/* test_search.c - unit tests for the shared search core: the same grid
 * walk solved in FIFO and priority mode, parent
 * links, improvement of queued states, and every limit. */
#include <stdlib.h>
#include <string.h>

#include "gridsolve/heap.h"
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
    ck_assert_int_eq(gs_search_add(s, &k, GS_NO_PARENT, 0, NULL), GS_ELIMIT);
    ck_assert_int_eq(gs_search_pop(s, &id), GS_ELIMIT);
    ck_assert_int_eq(gs_search_limit(s), GS_LIMIT_TIME);
    ck_assert(gs_limits_expired(&lc));
    gs_search_free(s);
}
END_TEST

/* The memory budget stops a hashed search as a full state store, before
 * the store passes it, in either queue mode. */
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
    ck_assert_int_eq(gs_search_limit(s), GS_LIMIT_MEMORY);
    ck_assert_uint_le(gs_search_bytes(s), lim.max_bytes);
    ck_assert_uint_gt(gs_search_count(s), 50000);
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

/* Keys of every length from 1 to 40 bytes: each of 256 keys that differ
 * in one byte only (each position in turn) is new once, then found, and
 * stored byte for byte (the core reads and copies short keys by
 * overlapping fixed-size moves; none may blur two positions). */
START_TEST(every_key_length_keeps_keys_apart)
{
    for (size_t n = 1; n <= 40; n++) {
        gs_search *s;
        gs_search_config cfg = {.key_size = n};
        ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
        unsigned char key[40];
        uint64_t id, want = 0;
        for (size_t pos = 0; pos < n; pos++)
            for (unsigned v = 1; v < 256; v += 37) {
                memset(key, 0xA5, n);
                key[pos] = (unsigned char)(0xA5 ^ v);
                ck_assert_int_eq(gs_search_add(s, key, GS_NO_PARENT, 'a', &id),
                                 1);
                ck_assert_uint_eq(id, want++);
            }
        memset(key, 0xA5, n);
        ck_assert_int_eq(gs_search_add(s, key, GS_NO_PARENT, 'a', &id), 1);
        want++;
        for (size_t pos = 0; pos < n; pos++)
            for (unsigned v = 1; v < 256; v += 37) {
                memset(key, 0xA5, n);
                key[pos] = (unsigned char)(0xA5 ^ v);
                ck_assert_int_eq(gs_search_add(s, key, 0, 'b', &id), 0);
                ck_assert_int_eq(memcmp(gs_search_key(s, id), key, n), 0);
            }
        ck_assert_uint_eq(gs_search_count(s), want);
        gs_search_free(s);
    }
}
END_TEST

/* A popped state put back at a higher priority is not expanded: a state
 * of lower priority comes first, then it pops again and counts once. */
START_TEST(requeue_puts_back_unexpanded)
{
    gs_search *s;
    gs_search_config cfg = {.key_size = 4, .queue = GS_QUEUE_PRIORITY};
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    uint32_t a = 1, b = 2;
    uint64_t ia, ib, id;
    ck_assert_int_eq(gs_search_add_prio(s, &a, GS_NO_PARENT, 0, 0, 3, &ia), 1);
    ck_assert_int_eq(gs_search_add_prio(s, &b, GS_NO_PARENT, 0, 0, 5, &ib), 1);
    ck_assert_int_eq(gs_search_pop(s, &id), 1);
    ck_assert_uint_eq(id, ia);
    ck_assert_uint_eq(gs_search_popped_prio(s), 3);
    ck_assert_int_eq(gs_search_requeue(s, ia, 9), GS_OK);
    ck_assert_uint_eq(gs_search_expanded(s), 0);
    ck_assert_int_eq(gs_search_pop(s, &id), 1);
    ck_assert_uint_eq(id, ib);
    ck_assert_uint_eq(gs_search_popped_prio(s), 5);
    /* Still open: a path no cheaper is refused. */
    ck_assert_int_eq(gs_search_add_prio(s, &a, ib, 'x', 0, 9, NULL), 0);
    ck_assert_int_eq(gs_search_pop(s, &id), 1);
    ck_assert_uint_eq(id, ia);
    ck_assert_uint_eq(gs_search_popped_prio(s), 9);
    ck_assert_int_eq(gs_search_pop(s, &id), 0);
    ck_assert_uint_eq(gs_search_expanded(s), 2);
    gs_search_free(s);
}
END_TEST

/* A re-queued state does not pop again under a heap entry it left
 * behind when a cheaper path improved it: it waits for its new priority.
 * And while re-queued it is open, so a cheaper path still improves it. */
START_TEST(requeue_leaves_older_entries_stale)
{
    gs_search *s;
    gs_search_config cfg = {.key_size = 4, .queue = GS_QUEUE_PRIORITY};
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    uint32_t a = 1, b = 2, c = 3;
    uint64_t ia, ib, ic, id;
    ck_assert_int_eq(gs_search_add_prio(s, &a, GS_NO_PARENT, 0, 7, 7, &ia), 1);
    ck_assert_int_eq(gs_search_add_prio(s, &a, GS_NO_PARENT, 0, 5, 5, NULL),
                     1); /* its entry at 7 is now stale */
    ck_assert_int_eq(gs_search_add_prio(s, &b, GS_NO_PARENT, 0, 8, 8, &ib), 1);
    ck_assert_int_eq(gs_search_add_prio(s, &c, GS_NO_PARENT, 0, 11, 11, &ic),
                     1);
    ck_assert_int_eq(gs_search_pop(s, &id), 1);
    ck_assert_uint_eq(id, ia);
    ck_assert_uint_eq(gs_search_popped_prio(s), 5);
    ck_assert_int_eq(gs_search_requeue(s, ia, 9), GS_OK);
    ck_assert_int_eq(gs_search_pop(s, &id), 1);
    ck_assert_uint_eq(id, ib); /* not a, under its old entry at 7 */
    ck_assert_uint_eq(gs_search_popped_prio(s), 8);
    /* Re-queued at 9 with cost 5; cost 4 from b improves it to 6. */
    ck_assert_int_eq(gs_search_add_prio(s, &a, ib, 'x', 4, 6, NULL), 1);
    ck_assert_int_eq(gs_search_pop(s, &id), 1);
    ck_assert_uint_eq(id, ia);
    ck_assert_uint_eq(gs_search_popped_prio(s), 6);
    ck_assert_uint_eq(gs_search_cost(s, ia), 4);
    ck_assert_int_eq(gs_search_pop(s, &id), 1); /* a's entry at 9 is stale */
    ck_assert_uint_eq(id, ic);
    ck_assert_int_eq(gs_search_pop(s, &id), 0);
    ck_assert_uint_eq(gs_search_expanded(s), 3);
    gs_search_free(s);
}
END_TEST

/* The shared heap pops by prio, then id, whatever the order of pushes. */
START_TEST(heap_pops_in_order)
{
    gs_heap_ent h[64];
    size_t n = 0;
    uint32_t seed = 7;
    for (uint32_t i = 0; i < 64; i++) {
        seed = seed * 1103515245u + 12345u;
        gs_heap_push(h, &n, (gs_heap_ent){.prio = (seed >> 16) % 8, .id = i});
    }
    gs_heap_ent prev = gs_heap_pop(h, &n);
    while (n > 0) {
        gs_heap_ent e = gs_heap_pop(h, &n);
        ck_assert(gs_heap_less(&prev, &e));
        prev = e;
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
    tcase_add_test(tc, heap_pops_in_order);
    tcase_add_test(tc, priority_astar_finds_shortest);
    tcase_add_test(tc, priority_improves_unexpanded_state);
    tcase_add_test(tc, unreachable_goal_is_impossible);
    tcase_add_test(tc, state_cap_gives_limit_states);
    tcase_add_test(tc, deadline_and_cancel_give_limit_time);
    tcase_add_test(tc, memory_budget_gives_limit_states);
    tcase_add_test(tc, many_states_grow_index);
    tcase_add_test(tc, every_key_length_keeps_keys_apart);
    tcase_add_test(tc, requeue_puts_back_unexpanded);
    tcase_add_test(tc, requeue_leaves_older_entries_stale);
    suite_add_tcase(s, tc);
    return s;
}
