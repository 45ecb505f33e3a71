/* test_regress.c - regression tests for bugs found by fuzzing the request
 * path (gs_service_json / gs_service_text) and by reviewing what the
 * fuzzer reached: deadlines overshot by costly steps, judge bodies whose
 * short cases declare huge boards, a deadline conversion that overflowed,
 * a cap compared through a signed cast, and error details that were cut
 * short or not UTF-8. */
#include <arpa/inet.h>
#include <fcntl.h>
#include <math.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/cjson.h"
#include "gridsolve/config.h"
#include "gridsolve/http.h"
#include "gridsolve/mem.h"
#include "gridsolve/service.h"
#include "gridsolve/text.h"
#include "suites.h"

extern const gs_puzzle gs_puzzle_bloxorz;
extern const gs_puzzle gs_puzzle_holedox;
extern const gs_puzzle gs_puzzle_sokoban;
extern const gs_puzzle gs_puzzle_wallpushers;

/* Busy-waits `ns` nanoseconds: a stand-in for a costly heuristic. */
static void spin_ns(int64_t ns)
{
    int64_t end = gs_now_ns() + ns;
    while (gs_now_ns() < end)
        ;
}

/* Runs a JSON body through the service with default options but
 * `timeout_ms`; returns the service's code, the response in out. */
static int run_json(const gs_puzzle *p, const char *body, double timeout_ms,
                    double max_timeout_ms, gs_buf *out, gs_solve_info *info,
                    gs_error *err)
{
    gs_solve_opts o;
    gs_solve_opts_default(&o);
    o.timeout_ms = timeout_ms;
    o.max_timeout_ms = max_timeout_ms;
    return gs_service_json(p, body, strlen(body), &o, out, info, err);
}

/* A deadline that passed before the search started stops its first add:
 * the clock used to be read only every 128 adds and pops. */
START_TEST(search_sees_a_past_deadline_at_once)
{
    gs_limits lim = {.deadline_ns = gs_now_ns() - 1};
    gs_search_config cfg = {.key_size = 4, .limits = &lim};
    gs_search *s;
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    uint32_t k = 7;
    ck_assert_int_eq(gs_search_add(s, &k, GS_NO_PARENT, 0, NULL), GS_ELIMIT);
    ck_assert_int_eq(gs_search_limit(s), GS_LIMIT_TIME);
    gs_search_free(s);
}
END_TEST

/* When every add is slow (a matching heuristic over many goals), the
 * clock is read on every add, so at most one add runs past the deadline
 * instead of up to 128 slow ones. */
START_TEST(search_reads_the_clock_every_slow_add)
{
    gs_limits lim = {.deadline_ns = gs_now_ns() + 20 * 1000000LL};
    gs_search_config cfg = {.key_size = 4, .limits = &lim};
    gs_search *s;
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    int rc = 1, late = 0;
    for (uint32_t k = 0; rc == 1 && k < 1000; k++) {
        spin_ns(2 * 1000000LL);
        bool past = gs_now_ns() >= lim.deadline_ns;
        rc = gs_search_add(s, &k, GS_NO_PARENT, 0, NULL);
        if (past && rc == 1)
            late++;
    }
    ck_assert_int_eq(rc, GS_ELIMIT);
    ck_assert_int_le(late, 1);
    gs_search_free(s);
}
END_TEST

/* Huge or NaN timeouts: converting ms * 1e6 to int64_t overflowed (UB,
 * and in practice a deadline in the past, so an instant "limit"). */
START_TEST(deadline_conversion_does_not_overflow)
{
    int64_t now = gs_now_ns();
    ck_assert(gs_deadline_after_ms(1e300) > now + (int64_t)1e15);
    ck_assert(gs_deadline_after_ms(1e13) > now + (int64_t)1e15);
    ck_assert(gs_deadline_after_ms(INFINITY) > now + (int64_t)1e15);
    ck_assert(gs_deadline_after_ms(NAN) == 0);
    ck_assert(gs_deadline_after_ms(-5) == 0);
    int64_t d = gs_deadline_after_ms(1000);
    ck_assert(d > now && d < now + (int64_t)1e12);
}
END_TEST

/* The CLI does not clamp limits (max_timeout_ms 0): a body asking for a
 * huge timeout must still be solved. */
START_TEST(unclamped_huge_timeout_still_solves)
{
    const char *body =
        "{\"grid\": [\"#######\", \"#..X###\", \"#..##O#\", \"#....E#\", "
        "\"#....E#\", \"#.....#\", \"#######\"], "
        "\"limits\": {\"timeout_ms\": 1e300}}";
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    int rc = run_json(&gs_puzzle_bloxorz, body, 10000, 0, &out, NULL, &err);
    ck_assert_msg(rc == GS_OK, "%s", err.detail);
    ck_assert_ptr_nonnull(strstr(out.data, "\"status\":\"solved\""));
    ck_assert_ptr_nonnull(strstr(out.data, "\"steps\":10"));
    gs_buf_free(&out);
}
END_TEST

/* A judge body of many short holedox cases, each declaring a 4096x4096
 * board. Parsing used to allocate (and zero) every board up front, and
 * every case then scanned its board past the shared deadline: 4 MiB of
 * such text took minutes and gigabytes. Now every case answers limit. */
START_TEST(holedox_many_huge_cases_answer_limit)
{
    const char *one = "4096 4096 2\n2 1\n2 2\n0\n";
    const int n = 200;
    gs_buf body = GS_BUF_INIT;
    for (int i = 0; i < n; i++)
        gs_buf_puts(&body, one);
    gs_buf_puts(&body, "0 0 0\n");
    ck_assert_int_eq(gs_buf_status(&body), GS_OK);

    gs_solve_opts o;
    gs_solve_opts_default(&o);
    o.caps.max_cells = 4096ull * 4096ull;
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    gs_solve_info info;
    int rc = gs_service_text(&gs_puzzle_holedox, body.data, body.len, &o, 1, -1,
                             &out, &info, &err);
    ck_assert_msg(rc == GS_OK, "%s", err.detail);
    gs_buf want = GS_BUF_INIT;
    for (int i = 1; i <= n; i++)
        gs_buf_printf(&want, "Case %d: limit\n", i);
    ck_assert_str_eq(out.data, want.data);
    ck_assert_int_eq(info.status, GS_LIMIT);
    gs_buf_free(&want);
    gs_buf_free(&out);
    gs_buf_free(&body);
}
END_TEST

/* One JSON holedox board of 16M cells: the distance BFS before the search
 * watches the deadline too. */
START_TEST(holedox_huge_board_respects_deadline)
{
    const char *body = "{\"rows\": 4096, \"cols\": 4096, \"snake\": [[0,1],"
                       "[0,2]], \"target\": [4095, 4095]}";
    gs_solve_opts o;
    gs_solve_opts_default(&o);
    o.timeout_ms = 1;
    o.caps.max_cells = 4096ull * 4096ull;
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    int rc = gs_service_json(&gs_puzzle_holedox, body, strlen(body), &o, &out,
                             NULL, &err);
    ck_assert_msg(rc == GS_OK, "%s", err.detail);
    ck_assert_ptr_nonnull(strstr(out.data, "\"status\":\"limit\""));
    ck_assert_ptr_nonnull(strstr(out.data, "\"limit\":\"time\""));
    gs_buf_free(&out);
}
END_TEST

/* Holedox no longer keeps a board at parse time: the checks that used it
 * (a repeated snake cell, a stone on the snake) still name both items,
 * and repeated stones are still harmless. */
START_TEST(holedox_checks_without_a_parse_board)
{
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    int rc = run_json(&gs_puzzle_holedox,
                      "{\"rows\": 3, \"cols\": 3, \"snake\": [[0,0],[0,1],"
                      "[0,0]]}",
                      10000, 60000, &out, NULL, &err);
    ck_assert_int_eq(rc, GS_EINVALID);
    ck_assert_str_eq(err.detail, "snake[2] [0, 0] repeats snake[0] [0, 0]");

    rc = run_json(&gs_puzzle_holedox,
                  "{\"rows\": 3, \"cols\": 3, \"snake\": [[0,0],[0,1]], "
                  "\"blocks\": [[2,2],[0,1]]}",
                  10000, 60000, &out, NULL, &err);
    ck_assert_int_eq(rc, GS_EINVALID);
    ck_assert_str_eq(err.detail, "blocks[1] [0, 1] lies on snake[1] [0, 1]");

    /* Head (2,0) goes up twice; the repeated stone blocks (1,1) only. */
    rc = run_json(&gs_puzzle_holedox,
                  "{\"rows\": 3, \"cols\": 3, \"snake\": [[2,0],[2,1]], "
                  "\"blocks\": [[1,1],[1,1]], \"target\": [0,0]}",
                  10000, 60000, &out, NULL, &err);
    ck_assert_msg(rc == GS_OK, "%s", err.detail);
    ck_assert_ptr_nonnull(strstr(out.data, "\"moves\":\"UU\""));
    gs_buf_free(&out);

    /* A stone on the target: no path at all. */
    rc = run_json(&gs_puzzle_holedox,
                  "{\"rows\": 3, \"cols\": 3, \"snake\": [[2,0],[2,1]], "
                  "\"blocks\": [[0,0]], \"target\": [0,0]}",
                  10000, 60000, &out, NULL, &err);
    ck_assert_msg(rc == GS_OK, "%s", err.detail);
    ck_assert_ptr_nonnull(strstr(out.data, "\"status\":\"impossible\""));
    gs_buf_free(&out);
}
END_TEST

/* A 64x64 sokoban level with 64 boxes and 2000 goals: the per-goal
 * distance tables (2000 BFS) and the matching bound per push took far
 * longer than a short deadline. Setting up stops at the deadline and the
 * search then expands nothing. */
START_TEST(sokoban_matching_respects_deadline)
{
    enum { W = 64, H = 64 };
    char grid[H][W + 1];
    for (int r = 0; r < H; r++) {
        for (int c = 0; c < W; c++)
            grid[r][c] =
                r == 0 || c == 0 || r == H - 1 || c == W - 1 ? '#' : ' ';
        grid[r][W] = '\0';
    }
    int goals = 0, boxes = 0;
    for (int r = H - 2; r > 0 && goals < 2000; r--)
        for (int c = 1; c < W - 1 && goals < 2000; c++, goals++)
            grid[r][c] = '.';
    for (int c = 2; c < W - 2; c += 3)
        for (int r = 3; r < 15 && boxes < 64; r += 3, boxes++)
            grid[r][c] = '$';
    grid[1][1] = '@';
    gs_buf body = GS_BUF_INIT;
    gs_buf_puts(&body, "{\"grid\": [");
    for (int r = 0; r < H; r++)
        gs_buf_printf(&body, "%s\"%s\"", r ? ", " : "", grid[r]);
    gs_buf_puts(&body, "]}");

    gs_solve_opts o;
    gs_solve_opts_default(&o);
    o.timeout_ms = 1;
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    gs_solve_info info;
    int rc = gs_service_json(&gs_puzzle_sokoban, body.data, body.len, &o, &out,
                             &info, &err);
    ck_assert_msg(rc == GS_OK, "%s", err.detail);
    ck_assert_ptr_nonnull(strstr(out.data, "\"limit\":\"time\""));
    ck_assert_int_eq(info.expanded, 0);
    gs_buf_free(&out);
    gs_buf_free(&body);
}
END_TEST

/* caps.max_cells above LONG_MAX went negative through a (long) cast and
 * refused every maze. */
START_TEST(wallpushers_huge_cap_accepts_mazes)
{
    const char *body =
        "{\"start\": [2, 1], \"walls\": [[10,2,10,10,2,6],"
        "[3,12,11,14,9,4],[13,15,3,6,15,13],[14,11,12,9,14,11]]}";
    cJSON *doc = cJSON_Parse(body);
    ck_assert_ptr_nonnull(doc);
    gs_caps caps = {.max_cells = UINT64_MAX};
    void *inst = NULL;
    gs_error err = {0};
    int rc = gs_puzzle_wallpushers.parse_json(doc, &caps, &inst, &err);
    cJSON_Delete(doc);
    ck_assert_msg(rc == GS_OK, "%s", err.detail);
    gs_puzzle_wallpushers.free(inst);
}
END_TEST

/* A NUL where an integer was expected cut the message short after
 * "found '"; other bytes went out raw. Both are shown as hex now. */
START_TEST(text_error_names_odd_bytes)
{
    static const char body[] = "2 3\n10 2 10 10 2 6\n3 12 11 14 9 4\n"
                               "13 15 3 6 15 13\n14 11 12 9 14 1\0\n0 0\n";
    gs_solve_opts o;
    gs_solve_opts_default(&o);
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    int rc = gs_service_text(&gs_puzzle_wallpushers, body, sizeof body - 1, &o,
                             -1, -1, &out, NULL, &err);
    ck_assert_int_eq(rc, GS_EINVALID);
    ck_assert_str_eq(err.detail, "case 1: line 5: expected an integer (maze "
                                 "row 4, col 6), found byte 0x00");

    gs_text t;
    long v;
    gs_text_init(&t, "12\xff", 3);
    ck_assert_int_eq(gs_text_int(&t, &v, "n", &err), GS_EINVALID);
    ck_assert_str_eq(err.detail,
                     "line 1: expected an integer (n), found byte 0xff");
    gs_text_init(&t, "12x", 3);
    ck_assert_int_eq(gs_text_int(&t, &v, "n", &err), GS_EINVALID);
    ck_assert_str_eq(err.detail, "line 1: expected an integer (n), found 'x'");
    gs_buf_free(&out);
}
END_TEST

/* Runs judge text through the service for puzzle p: its status, the
 * output in out (GS_OK) or the detail in err. */
static int run_text(const gs_puzzle *p, const char *body, gs_buf *out,
                    gs_error *err)
{
    gs_solve_opts o;
    gs_solve_opts_default(&o);
    out->len = 0;
    return gs_service_text(p, body, strlen(body), &o, -1, -1, out, NULL, err);
}

/* Text after bloxorz's `N M` header was dropped, so the error came rows
 * later ("grid row 2 has 3 cells"); a token that is not a number named
 * no byte; a UTF-8 byte order mark was "expected an integer". */
START_TEST(judge_text_header_errors)
{
    const gs_puzzle *b = &gs_puzzle_bloxorz;
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};

    ck_assert_int_eq(
        run_text(b, "3 6 ######\n#XEEO#\n######\n0 0\n", &out, &err),
        GS_EINVALID);
    ck_assert_str_eq(err.detail, "case 1: line 1: unexpected '######' after "
                                 "the grid size N M");
    /* `0 0` ends the input, as for a judge, whatever follows it. */
    ck_assert_int_eq(
        run_text(b, "3 6\n######\n#XEEO#\n######\n0 0 0\nx\n", &out, &err),
        GS_OK);
    ck_assert_str_eq(out.data, "2\n");
    ck_assert_int_eq(
        run_text(b, "2 6\n######\n#XEEO#\n######\n0 0\n", &out, &err),
        GS_EINVALID);
    ck_assert_str_eq(err.detail, "case 2: line 4: expected an integer (grid "
                                 "rows N), found '#'");
    /* Trailing blanks and CRLF after the numbers stay fine, as does a
     * byte order mark before them. */
    ck_assert_int_eq(run_text(b,
                              "\xef\xbb\xbf"
                              "3 6 \t\r\n######\r\n#XEEO#\r\n"
                              "######\r\n0 0 \r\n",
                              &out, &err),
                     GS_OK);
    ck_assert_str_eq(out.data, "2\n");
    /* Wallpushers' checks of the whole maze named no line. */
    const gs_puzzle *w = &gs_puzzle_wallpushers;
    ck_assert_int_eq(run_text(w,
                              "1 1\n6 2 2 2 2 6\n1 0 0 0 0 4\n1 0 0 0 0 4\n"
                              "9 8 8 8 8 12\n",
                              &out, &err),
                     GS_EINVALID);
    ck_assert_str_eq(err.detail, "case 1: line 2: inconsistent wall: cell at "
                                 "row 1, col 1 has a wall on its east side but "
                                 "cell at row 1, col 2 has none on its west "
                                 "side");
    ck_assert_int_eq(run_text(w,
                              "7 1\n2 2 2 2 2 6\n1 0 0 0 0 4\n1 0 0 0 0 4\n"
                              "9 8 8 8 8 12\n",
                              &out, &err),
                     GS_EINVALID);
    ck_assert_str_eq(err.detail, "case 1: line 1: start (row 1, col 7) is off "
                                 "the 4x6 maze");
    ck_assert_int_eq(run_text(w,
                              "1 1\n2 2 2 2 2 6\n1 0 0 0 0 4\n1 0 0 0 0 4\n"
                              "9 8 8 8 8 16\n",
                              &out, &err),
                     GS_EINVALID);
    ck_assert_str_eq(err.detail, "case 1: line 5: cell at row 4, col 6 is 16, "
                                 "expected 0 to 15");
    gs_buf_free(&out);
}
END_TEST

/* A huge number in a JSON body was printed with all its 301 digits, and
 * nesting past cJSON's limit read as an error at a column. */
START_TEST(json_errors_stay_readable)
{
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    const gs_puzzle *h = &gs_puzzle_holedox;

    ck_assert_int_eq(run_json(h,
                              "{\"rows\": 1e300, \"cols\": 3, \"snake\": "
                              "[[0,0]], \"target\": [0,1]}",
                              1000, 0, &out, NULL, &err),
                     GS_EINVALID);
    ck_assert_str_eq(err.detail,
                     "field \"rows\" is 1e+300, must be in 1..32768");
    ck_assert_int_eq(run_json(h,
                              "{\"rows\": 3, \"cols\": 3, \"snake\": "
                              "[[0,0]], \"target\": [1e200, 1]}",
                              1000, 0, &out, NULL, &err),
                     GS_EINVALID);
    ck_assert_str_eq(err.detail, "target [1e+200, 1] is off the board");
    enum { DEEP = CJSON_NESTING_LIMIT + 1 };
    char body[2 * DEEP + 16];
    for (int close = 0; close < 2; close++) {
        /* The object and n arrays: one level past the limit; at the
         * limit, a bad token. */
        int n = close ? DEEP - 1 : DEEP - 2, at = 0;
        at += sprintf(body + at, "{\"a\":");
        memset(body + at, '[', (size_t)n);
        at += n;
        if (!close)
            body[at++] = 'x';
        memset(body + at, ']', (size_t)n);
        at += n;
        strcpy(body + at, "}");
        ck_assert_int_eq(run_json(h, body, 1000, 0, &out, NULL, &err),
                         GS_EBADREQ);
        ck_assert_msg(strstr(err.detail, close ? "deeper than 1000 levels"
                                               : "is not valid JSON"),
                      "%s", err.detail);
    }
    gs_buf_free(&out);
}
END_TEST

/* Problem documents echo request bytes (field names, option values, the
 * path): invalid UTF-8 there made the JSON invalid. Bad bytes become
 * '?', valid multi-byte characters stay. */
START_TEST(problem_json_is_valid_utf8)
{
    gs_error err = {0};
    gs_error_set(&err, GS_EBADREQ,
                 "unknown field \"limits.\xff\xc3x\" "
                 "caf\xc3\xa9 \xed\xa0\x80");
    gs_buf out = GS_BUF_INIT;
    gs_service_problem_json(&err, 400, "/solve/\xe0\x80x", &out);
    ck_assert_int_eq(gs_buf_status(&out), GS_OK);
    cJSON *doc = cJSON_Parse(out.data);
    ck_assert_ptr_nonnull(doc);
    const cJSON *d = cJSON_GetObjectItemCaseSensitive(doc, "detail");
    const cJSON *i = cJSON_GetObjectItemCaseSensitive(doc, "instance");
    ck_assert_str_eq(cJSON_GetStringValue(d),
                     "unknown field \"limits.??x\" caf\xc3\xa9 ???");
    ck_assert_str_eq(cJSON_GetStringValue(i), "/solve/??x");
    cJSON_Delete(doc);
    gs_buf_free(&out);
}
END_TEST

/* make fuzz: with cJSON allocating through the memory budget (as the
 * server sets it up), the text cJSON printed (responses, GET /puzzles,
 * problem documents) was released with free(), not cJSON_free(): a bad
 * free on every request. Each path now runs under the hooks and gives the
 * budget back. */
START_TEST(cjson_hooks_printed_text_freed_by_cjson)
{
    uint64_t before = gs_mem_used();
    gs_mem_install_cjson_hooks();
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    int rc = run_json(&gs_puzzle_bloxorz,
                      "{\"grid\": [\"######\", \"#XEEO#\", \"######\"]}", 10000,
                      60000, &out, NULL, &err);
    ck_assert_msg(rc == GS_OK, "%s", err.detail);
    ck_assert_ptr_nonnull(strstr(out.data, "\"steps\":2"));
    gs_buf_free(&out);

    rc = run_json(&gs_puzzle_bloxorz, "{\"grid\": 5}", 10000, 60000, &out, NULL,
                  &err);
    ck_assert_int_eq(rc, GS_EBADREQ);
    gs_service_problem_json(&err, 400, "/solve/bloxorz", &out);
    ck_assert_int_eq(gs_buf_status(&out), GS_OK);
    ck_assert_ptr_nonnull(strstr(out.data, "\"status\":400"));
    gs_buf_free(&out);

    ck_assert_int_eq(gs_service_puzzles_json(&out), GS_OK);
    ck_assert_ptr_nonnull(strstr(out.data, "\"name\":\"holedox\""));
    gs_buf_free(&out);
    cJSON_InitHooks(NULL);
    ck_assert_uint_eq(gs_mem_used(), before);
}
END_TEST

/* Sends one raw request to 127.0.0.1:port and reads the first bytes of
 * the answer (until a close or 2 s of silence) into buf. */
static void raw_exchange(int port, const char *req, char *buf, size_t cap)
{
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    size_t got = 0;
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    ck_assert_int_eq(send(fd, req, strlen(req), 0), (ssize_t)strlen(req));
    struct pollfd p = {.fd = fd, .events = POLLIN};
    while (got < cap - 1 && poll(&p, 1, 2000) > 0) {
        ssize_t n = recv(fd, buf + got, cap - 1 - got, 0);
        if (n <= 0)
            break;
        got += (size_t)n;
    }
    buf[got] = '\0';
    close(fd);
}

/* make fuzz (fuzz_http): GET /version freed cJSON's printed text with
 * free() too, a bad free once cJSON allocates through the budget. The
 * HTTP front end in process, with the hooks, answers every cJSON-printed
 * document. */
START_TEST(http_documents_under_cjson_hooks)
{
    gs_server_config cfg;
    gs_http h;
    gs_error err = {0};
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t sl = sizeof a;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_eq(bind(fd, (struct sockaddr *)&a, sizeof a), 0);
    ck_assert_int_eq(listen(fd, 16), 0);
    ck_assert_int_eq(fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK), 0);
    ck_assert_int_eq(getsockname(fd, (struct sockaddr *)&a, &sl), 0);

    gs_mem_install_cjson_hooks();
    gs_config_default(&cfg);
    cfg.workers = 1;
    ck_assert_int_eq(gs_http_init(&h, &cfg, &err), GS_OK);
    ck_assert_int_eq(gs_http_start(&h, fd, &err), GS_OK);
    atomic_store(&h.ready, 1);
    static const char *const reqs[] = {
        "GET /version HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "GET /puzzles HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
        "POST /solve/bloxorz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n"
        "Content-Type: application/json\r\nContent-Length: 11\r\n\r\n"
        "{\"grid\": 5}",
    };
    static const char *const want[] = {"HTTP/1.1 200", "HTTP/1.1 200",
                                       "HTTP/1.1 400"};
    for (size_t i = 0; i < sizeof reqs / sizeof *reqs; i++) {
        char buf[512];
        raw_exchange(ntohs(a.sin_port), reqs[i], buf, sizeof buf);
        ck_assert_msg(strncmp(buf, want[i], strlen(want[i])) == 0,
                      "request %zu answered '%.40s'", i, buf);
    }
    gs_http_free(&h); /* closes the listening socket too */
    cJSON_InitHooks(NULL);
}
END_TEST

/* make fuzz (fuzz_config): a flag or variable holding a newline was
 * echoed raw, so the "one line on stderr" of a bad value spanned lines.
 * Control bytes in messages are '?' now. */
static const char *env_with_newline(const char *name)
{
    return strcmp(name, "GRIDSOLVE_WORKERS") == 0 ? "4\nx" : NULL;
}

START_TEST(config_error_is_one_line)
{
    gs_server_config c;
    char msg[256];
    char *argv[] = {"serve", "--cors-ori\ni", NULL};
    gs_config_default(&c);
    ck_assert_int_eq(gs_config_parse(&c, 2, argv, NULL, msg, sizeof msg),
                     GS_CONFIG_ERROR);
    ck_assert_ptr_null(strchr(msg, '\n'));
    ck_assert_ptr_nonnull(strstr(msg, "--cors-ori?i"));

    char *none[] = {"serve", NULL};
    gs_config_default(&c);
    ck_assert_int_eq(
        gs_config_parse(&c, 1, none, env_with_newline, msg, sizeof msg),
        GS_CONFIG_ERROR);
    ck_assert_ptr_null(strchr(msg, '\n'));
}
END_TEST

Suite *gs_test_regress_suite(void)
{
    Suite *s = suite_create("regress");
    TCase *tc = tcase_create("fuzz");
    /* Generous: the fixed code takes milliseconds, the old one minutes. */
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, search_sees_a_past_deadline_at_once);
    tcase_add_test(tc, search_reads_the_clock_every_slow_add);
    tcase_add_test(tc, deadline_conversion_does_not_overflow);
    tcase_add_test(tc, unclamped_huge_timeout_still_solves);
    tcase_add_test(tc, holedox_many_huge_cases_answer_limit);
    tcase_add_test(tc, holedox_huge_board_respects_deadline);
    tcase_add_test(tc, holedox_checks_without_a_parse_board);
    tcase_add_test(tc, sokoban_matching_respects_deadline);
    tcase_add_test(tc, wallpushers_huge_cap_accepts_mazes);
    tcase_add_test(tc, text_error_names_odd_bytes);
    tcase_add_test(tc, judge_text_header_errors);
    tcase_add_test(tc, json_errors_stay_readable);
    tcase_add_test(tc, problem_json_is_valid_utf8);
    tcase_add_test(tc, cjson_hooks_printed_text_freed_by_cjson);
    tcase_add_test(tc, http_documents_under_cjson_hooks);
    tcase_add_test(tc, config_error_is_one_line);
    suite_add_tcase(s, tc);
    return s;
}
