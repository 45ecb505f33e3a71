/* test_framing.c - request framing a proxy in front of the service might
 * read differently (request smuggling): duplicate Content-Length headers,
 * a Transfer-Encoding other than chunked, both headers at once, a
 * Content-Length that is not a number (-1, abc, an overflow). Each must
 * get exactly one well-formed 400 problem document, and the connection is
 * closed (a raw socket counts the status lines and sees the EOF), both as
 * a connection's first request and as a later one on a kept-alive
 * connection (libmicrohttpd 0.9 sees those without the gate). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "itest.h"
#include "raw.h"
#include "suites.h"

static const char body[] = "{\"grid\":[\"######\",\"#X..O#\",\"######\"]}";

/* Sends one good solve on fd and reads its whole 200: the connection
 * stays open for the next request. */
static void good_first(int fd)
{
    char *req =
        raw_request("POST", "/solve/bloxorz", "application/json", body, NULL);
    ck_assert_ptr_nonnull(req);
    ck_assert(raw_send_str(fd, req));
    free(req);
    char *got = raw_read_response(fd, 3000);
    ck_assert_ptr_nonnull(got);
    ck_assert_msg(raw_status(got) == 200, "first request: %s", got);
    ck_assert_msg(!itest_icontains(got, "Connection: close"),
                  "first request closes:\n%s", got);
    free(got);
}

/* Sends head + payload on a fresh connection, after one good request on
 * it when kept_alive; asserts one 400 problem answer followed by the
 * server closing the connection. With `others`, that many kept-alive
 * connections each send a request line between this request's line and
 * its headers (some share its I/O thread). */
static void expect_one_400(const gs_srv *s, const char *name, const char *head,
                           const char *payload, bool kept_alive, int others)
{
    int fd = raw_connect(s, NULL), ofd[8];
    ck_assert_msg(fd >= 0, "cannot connect");
    ck_assert_int_le(others, 8);
    if (kept_alive)
        good_first(fd);
    char *req = malloc(strlen(head) + strlen(payload) + 256);
    ck_assert_ptr_nonnull(req);
    sprintf(req,
            "POST /solve/bloxorz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "X-Request-Id: framing-%d\r\nOrigin: http://a.example\r\n"
            "Content-Type: application/json\r\n%s\r\n%s",
            (int)kept_alive, head, payload);
    size_t line = (size_t)(strstr(req, "\r\n") + 2 - req);
    ck_assert(raw_send(fd, req, line));
    for (int i = 0; i < others; i++) {
        ofd[i] = raw_connect(s, NULL);
        ck_assert(ofd[i] >= 0);
        good_first(ofd[i]);
        ck_assert(raw_send_str(ofd[i], "GET /healthz HTTP/1.1\r\n"));
    }
    if (others)
        gs_sleep_ms(50); /* the lines read before this request's headers */
    ck_assert(raw_send_str(fd, req + line));
    enum raw_end end;
    char *got = raw_read(fd, 3000, NULL, &end);
    close(fd);
    for (int i = 0; i < others; i++)
        close(ofd[i]);
    ck_assert_ptr_nonnull(got);
    ck_assert_msg(
        raw_count(got, "HTTP/1.") == 1, "%s%s: %d status lines in:\n%s", name,
        kept_alive ? " (later request)" : "", raw_count(got, "HTTP/1."), got);
    ck_assert_msg(raw_status(got) == 400, "%s: status %d", name,
                  raw_status(got));
    ck_assert_msg(
        itest_icontains(got, "Content-Type: application/problem+json"),
        "%s: not a problem document:\n%s", name, got);
    ck_assert_msg(strstr(got, GS_PROBLEM_BASE "bad-request"),
                  "%s: problem type:\n%s", name, got);
    /* The headers every response carries, whoever wrote the 400. */
    char id[48];
    snprintf(id, sizeof id, "X-Request-Id: framing-%d\r\n", (int)kept_alive);
    ck_assert_msg(itest_icontains(got, id), "%s: request id not echoed:\n%s",
                  name, got);
    ck_assert_msg(itest_icontains(got, "Access-Control-Allow-Origin: *"),
                  "%s: no CORS header:\n%s", name, got);
    ck_assert_msg(end == RAW_EOF, "%s: connection not closed cleanly (%d)",
                  name, (int)end);
    free(got);
    free(req);
}

START_TEST(smuggling_framing_refused)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    char cl[24], chunk[256];
    snprintf(cl, sizeof cl, "%zu", strlen(body));
    snprintf(chunk, sizeof chunk, "%zx\r\n%s\r\n0\r\n\r\n", strlen(body), body);
    char two[128], same[128];
    snprintf(two, sizeof two, "Content-Length: %s\r\nContent-Length: 5\r\n",
             cl);
    snprintf(same, sizeof same, "Content-Length: %s\r\nContent-Length: %s\r\n",
             cl, cl);
    /* The malformed lengths are ones libmicrohttpd would answer itself,
     * with its header block written twice; the server answers first. */
    const struct {
        const char *name, *head, *payload;
    } cases[] = {
        {"two different Content-Length", two, body},
        {"two equal Content-Length", same, body},
        {"Transfer-Encoding gzip", "Transfer-Encoding: gzip\r\n", body},
        {"Transfer-Encoding gzip, chunked",
         "Transfer-Encoding: gzip, chunked\r\n", chunk},
        {"Transfer-Encoding twice",
         "Transfer-Encoding: chunked\r\nTransfer-Encoding: identity\r\n",
         chunk},
        {"Transfer-Encoding with Content-Length",
         "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n", chunk},
        {"Content-Length '-1'", "Content-Length: -1\r\n", body},
        {"Content-Length 'abc'", "Content-Length: abc\r\n", body},
        {"Content-Length overflow",
         "Content-Length: 99999999999999999999999\r\n", body},
        {"Content-Length '5, 5'", "Content-Length: 5, 5\r\n", body},
        {"Content-Length ''", "Content-Length: \r\n", body},
    };
    for (int later = 0; later < 2; later++)
        for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
            expect_one_400(&s, cases[i].name, cases[i].head, cases[i].payload,
                           later, 0);
    /* A later request whose line and headers other connections' request
     * lines come between: the server still finds the one refused. */
    for (int k = 0; k < 3; k++)
        expect_one_400(&s, "Content-Length 'abc', interleaved",
                       "Content-Length: abc\r\n", body, true, 4);

    /* Well-framed requests are still served, chunked included. */
    gs_req q = {.method = "POST",
                .path = "/solve/bloxorz",
                .content_type = "application/json",
                .body = body,
                .chunked = true};
    gs_resp r;
    gs_http(&s, &q, &r);
    cJSON_Delete(itest_solve_ok(&r, "bloxorz", "solved", 2, "UDLR"));
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* A first request's head that would leave libmicrohttpd too little of
 * the connection's memory for the answer's headers (it then closed the
 * connection without any) gets one 431 problem document; one header of
 * 13 KiB is still served. */
START_TEST(head_too_large_431)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    static const int sizes[] = {13000, 15000, 16100};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++) {
        char *big = malloc((size_t)sizes[i] + 64);
        ck_assert_ptr_nonnull(big);
        int n = sprintf(big, "X-Big: ");
        memset(big + n, 'a', (size_t)sizes[i]);
        strcpy(big + n + sizes[i], "\r\nX-Request-Id: big-1\r\n");
        char *req = raw_request("GET", "/healthz", NULL, NULL, big);
        enum raw_end end;
        char *got = raw_exchange_all(&s, req, &end);
        ck_assert_ptr_nonnull(got);
        ck_assert_msg(raw_count(got, "HTTP/1.") == 1, "%d: %.300s", sizes[i],
                      got);
        if (sizes[i] < 14000) {
            ck_assert_int_eq(raw_status(got), 200);
        } else {
            ck_assert_msg(raw_status(got) == 431, "%d: %.300s", sizes[i], got);
            ck_assert(itest_icontains(got, "Content-Type: "
                                           "application/problem+json"));
            ck_assert_ptr_nonnull(
                strstr(got, "request-header-fields-too-large"));
            ck_assert(itest_icontains(got, "X-Request-Id: big-1\r\n"));
            ck_assert_int_eq(end, RAW_EOF);
        }
        free(got);
        free(req);
        free(big);
    }
    ITEST_STOP(&s);
}
END_TEST

/* A HEAD the gate refuses gets the status and headers, no content (the
 * problem document would be read as a next response's bytes): a bad
 * Content-Length (400) and a head too large (431). */
START_TEST(head_refusal_has_no_content)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    char *big = malloc(15100);
    ck_assert_ptr_nonnull(big);
    memset(big, 'a', 15000);
    memcpy(big, "X-Big: ", 7);
    strcpy(big + 15000, "\r\n");
    const struct {
        const char *extra;
        int status;
    } cases[] = {{"Content-Length: abc\r\n", 400}, {big, 431}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *req = raw_request("HEAD", "/healthz", NULL, NULL, cases[i].extra);
        ck_assert_ptr_nonnull(req);
        enum raw_end end;
        char *got = raw_exchange_all(&s, req, &end);
        ck_assert_ptr_nonnull(got);
        ck_assert_msg(raw_status(got) == cases[i].status, "%zu: %.300s", i,
                      got);
        const char *blank = strstr(got, "\r\n\r\n");
        ck_assert_msg(blank && blank[4] == '\0',
                      "%zu: content after HEAD's "
                      "headers:\n%s",
                      i, got);
        ck_assert_int_eq(end, RAW_EOF);
        free(got);
        free(req);
    }
    free(big);
    ITEST_STOP(&s);
}
END_TEST

/* Heads RFC 9112 says a server must refuse with a 400, each of which
 * libmicrohttpd 0.9 takes: a blank before a header's colon (5.1: it then
 * ignores that Content-Length and reads the body as the next request),
 * two Host headers or none in HTTP/1.1 (3.2), and obsolete line folding
 * (5.2: it glues " chunked" onto the name "Transfer-Encoding", so no
 * body is read). Folding is seen by the gate, on a connection's first
 * request only; the others on later requests too. HTTP/1.0 needs no Host
 * but may not be chunked. */
START_TEST(rfc9112_head_errors_refused)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    char cl[64], chunk[256], fold[64];
    snprintf(cl, sizeof cl, "Content-Length : %zu\r\n", strlen(body));
    snprintf(chunk, sizeof chunk, "%zx\r\n%s\r\n0\r\n\r\n", strlen(body), body);
    snprintf(fold, sizeof fold, "Transfer-Encoding:\r\n chunked\r\n");
    char two[96];
    snprintf(two, sizeof two, "Host: other\r\nContent-Length: %zu\r\n",
             strlen(body));
    for (int later = 0; later < 2; later++) {
        expect_one_400(&s, "blank before colon", cl, body, later, 0);
        expect_one_400(&s, "two Host headers", two, body, later, 0);
    }
    expect_one_400(&s, "folded Transfer-Encoding", fold, chunk, false, 0);
    for (int later = 0; later < 2; later++) {
        int fd = raw_connect(&s, NULL);
        ck_assert(fd >= 0);
        if (later)
            good_first(fd);
        ck_assert(raw_send_str(fd, "GET /healthz HTTP/1.1\r\n\r\n"));
        enum raw_end end;
        char *got = raw_read(fd, 3000, NULL, &end);
        close(fd);
        ck_assert_ptr_nonnull(got);
        ck_assert_msg(raw_count(got, "HTTP/1.") == 1 &&
                          strstr(got, "0 Host headers"),
                      "no Host%s: %s", later ? " (later)" : "", got);
        free(got);
    }
    /* HTTP/1.0 has no chunked framing: refused, the connection closed,
     * even when the client asked to keep it (RFC 9112 6.1). */
    char te10[512];
    snprintf(te10, sizeof te10,
             "POST /solve/bloxorz HTTP/1.0\r\nConnection: keep-alive\r\n"
             "Content-Type: application/json\r\n"
             "Transfer-Encoding: chunked\r\n\r\n%s"
             "GET /healthz HTTP/1.0\r\n\r\n",
             chunk);
    enum raw_end end;
    char *all = raw_exchange_all(&s, te10, &end);
    ck_assert_msg(all && raw_count(all, "HTTP/1.") == 1 &&
                      raw_status(all) == 400 && end == RAW_EOF,
                  "chunked HTTP/1.0 (end %d): %s", (int)end, all);
    free(all);
    char *got = raw_exchange(&s, "GET /healthz HTTP/1.0\r\n\r\n");
    ck_assert_msg(got && raw_status(got) == 200, "HTTP/1.0: %s", got);
    free(got);
    ITEST_STOP(&s);
}
END_TEST

/* A malformed request line or header line of a connection's first
 * request gets a problem document with the request's id, not
 * libmicrohttpd's HTML 400; an empty line before the request line is
 * skipped (RFC 9112 2.2). */
START_TEST(malformed_lines_problem_json)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    const struct {
        const char *req;
        int want;
    } cases[] = {
        {"GET /healthz\r\nX-Request-Id: bad-1\r\n\r\n", 400},
        {"GET /healthz HTTP/1.1 x\r\nHost: a\r\nX-Request-Id: bad-1\r\n\r\n",
         400},
        {"GET /healthz HTTP/1.1\r\nHost: a\r\nX-Request-Id: bad-1\r\n"
         "No colon here\r\n\r\n",
         400},
        {"\r\nGET /healthz HTTP/1.1\r\nHost: a\r\nX-Request-Id: bad-1\r\n\r\n",
         200},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *got = raw_exchange(&s, cases[i].req);
        ck_assert_ptr_nonnull(got);
        ck_assert_msg(raw_status(got) == cases[i].want &&
                          (cases[i].want == 200 ||
                           itest_icontains(got, "Content-Type: "
                                                "application/problem+json")) &&
                          itest_icontains(got, "X-Request-Id: bad-1\r\n"),
                      "%zu: %s", i, got);
        free(got);
    }
    ITEST_STOP(&s);
}
END_TEST

/* A first head longer than libmicrohttpd's 16 KiB of connection memory
 * is refused by the gate as a problem document, not libmicrohttpd's HTML
 * page: 414 for a request line alone that long, 431 for many headers.
 * Each gate refusal carries a Date (RFC 9110 6.6.1), the 400 too, and
 * its problem's instance is the path without the query. */
START_TEST(head_over_16k_is_problem_json)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    size_t n = 20000;
    char *path = malloc(n + 1), *hdrs = malloc(n + 64);
    ck_assert(path && hdrs);
    memset(path, 'a', n);
    path[0] = '/';
    path[n] = '\0';
    size_t at = 0;
    for (int i = 0; at < n; i++)
        at += (size_t)sprintf(hdrs + at, "X-H-%d: vvvvvvvvvvvvvvvvvvvv\r\n", i);
    char *reqs[] = {raw_request("GET", path, NULL, NULL, NULL),
                    raw_request("GET", "/healthz", NULL, NULL, hdrs),
                    raw_request("GET", "/healthz?x=1", NULL, NULL,
                                "Content-Length: abc\r\n")};
    const int want[] = {414, 431, 400};
    const char *type[] = {"uri-too-long", "request-header-fields-too-large",
                          "bad-request"};
    for (int i = 0; i < 3; i++) {
        ck_assert_ptr_nonnull(reqs[i]);
        enum raw_end end;
        char *got = raw_exchange_all(&s, reqs[i], &end);
        ck_assert_ptr_nonnull(got);
        ck_assert_msg(raw_status(got) == want[i], "%d: %.300s", i, got);
        ck_assert_msg(itest_icontains(got, "Content-Type: "
                                           "application/problem+json") &&
                          strstr(got, type[i]) &&
                          itest_icontains(got, "\r\nDate: "),
                      "%d: not a dated problem document:\n%.600s", i, got);
        ck_assert_msg(i == 0 || strstr(got, "\"instance\":\"/healthz\""),
                      "%d: the instance is not the path:\n%.600s", i, got);
        free(got);
        free(reqs[i]);
    }
    free(path);
    free(hdrs);
    ITEST_STOP(&s);
}
END_TEST

/* With an origin list the gate's 400 grants a listed origin, as every
 * other answer does, and says that it depends on Origin. */
START_TEST(refusal_cors_origin_list)
{
    gs_srv s;
    ITEST_START(&s, "--cors-origin", "http://a.example", NULL);
    for (int later = 0; later < 2; later++) {
        int fd = raw_connect(&s, NULL);
        ck_assert_msg(fd >= 0, "cannot connect");
        if (later)
            good_first(fd);
        ck_assert(raw_send_str(fd, "POST /solve/bloxorz HTTP/1.1\r\n"
                                   "Host: 127.0.0.1\r\n"
                                   "Origin: http://a.example\r\n"
                                   "Content-Length: abc\r\n\r\n"));
        enum raw_end end;
        char *got = raw_read(fd, 3000, NULL, &end);
        close(fd);
        ck_assert_ptr_nonnull(got);
        ck_assert_msg(raw_status(got) == 400 &&
                          itest_icontains(got, "Vary: Origin") &&
                          itest_icontains(got, "Access-Control-Allow-Origin: "
                                               "http://a.example"),
                      "%s: %s", later ? "later request" : "first", got);
        free(got);
    }
    ITEST_STOP(&s);
}
END_TEST

Suite *gs_itest_framing_suite(void)
{
    Suite *s = suite_create("framing");
    TCase *tc = tcase_create("framing");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, smuggling_framing_refused);
    tcase_add_test(tc, refusal_cors_origin_list);
    tcase_add_test(tc, head_too_large_431);
    tcase_add_test(tc, head_refusal_has_no_content);
    tcase_add_test(tc, head_over_16k_is_problem_json);
    tcase_add_test(tc, rfc9112_head_errors_refused);
    tcase_add_test(tc, malformed_lines_problem_json);
    suite_add_tcase(s, tc);
    return s;
}
