/* test_framing.c - request framing a proxy in front of the service might
 * read differently (request smuggling): duplicate Content-Length headers,
 * a Transfer-Encoding other than chunked, both headers at once, a
 * Content-Length that is not a number (-1, abc, an overflow). Each must
 * get exactly one well-formed 400 problem document, and the connection is
 * closed (a raw socket counts the status lines and sees the EOF). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "itest.h"
#include "raw.h"
#include "suites.h"

static const char body[] = "{\"grid\":[\"######\",\"#X..O#\",\"######\"]}";

/* Sends head + payload on a fresh connection; asserts one 400 problem
 * answer followed by the server closing the connection. */
static void expect_one_400(const gs_srv *s, const char *name, const char *head,
                           const char *payload)
{
    int fd = raw_connect(s, NULL);
    ck_assert_msg(fd >= 0, "cannot connect");
    char *req = malloc(strlen(head) + strlen(payload) + 256);
    ck_assert_ptr_nonnull(req);
    sprintf(req,
            "POST /solve/bloxorz HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            "Content-Type: application/json\r\n%s\r\n%s",
            head, payload);
    ck_assert(raw_send_str(fd, req));
    enum raw_end end;
    char *got = raw_read(fd, 3000, NULL, &end);
    close(fd);
    ck_assert_ptr_nonnull(got);
    ck_assert_msg(raw_count(got, "HTTP/1.") == 1, "%s: %d status lines in:\n%s",
                  name, raw_count(got, "HTTP/1."), got);
    ck_assert_msg(raw_status(got) == 400, "%s: status %d", name,
                  raw_status(got));
    ck_assert_msg(
        itest_icontains(got, "Content-Type: application/problem+json"),
        "%s: not a problem document:\n%s", name, got);
    ck_assert_msg(strstr(got, GS_PROBLEM_BASE "bad-request"),
                  "%s: problem type:\n%s", name, got);
    ck_assert_msg(end == RAW_EOF, "%s: connection not closed cleanly (%d)",
                  name, (int)end);
    free(got);
    free(req);
}

START_TEST(smuggling_framing_refused)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    char cl[64], chunk[256];
    snprintf(cl, sizeof cl, "%zu", strlen(body));
    snprintf(chunk, sizeof chunk, "%zx\r\n%s\r\n0\r\n\r\n", strlen(body), body);
    char h[256];
    snprintf(h, sizeof h, "Content-Length: %s\r\nContent-Length: 5\r\n", cl);
    expect_one_400(&s, "two different Content-Length", h, body);
    snprintf(h, sizeof h, "Content-Length: %s\r\nContent-Length: %s\r\n", cl,
             cl);
    expect_one_400(&s, "two equal Content-Length", h, body);
    expect_one_400(&s, "Transfer-Encoding gzip", "Transfer-Encoding: gzip\r\n",
                   body);
    expect_one_400(&s, "Transfer-Encoding gzip, chunked",
                   "Transfer-Encoding: gzip, chunked\r\n", chunk);
    expect_one_400(&s, "Transfer-Encoding twice",
                   "Transfer-Encoding: chunked\r\nTransfer-Encoding: "
                   "identity\r\n",
                   chunk);
    snprintf(h, sizeof h,
             "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n");
    expect_one_400(&s, "Transfer-Encoding with Content-Length", h, chunk);

    /* Malformed values: libmicrohttpd would answer these itself (with its
     * header block written twice); the server's gate answers first. */
    const char *bad[] = {"-1", "abc", "99999999999999999999999", "5, 5", ""};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        char what[64];
        snprintf(h, sizeof h, "Content-Length: %s\r\n", bad[i]);
        snprintf(what, sizeof what, "Content-Length '%s'", bad[i]);
        expect_one_400(&s, what, h, body);
    }

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

Suite *gs_itest_framing_suite(void)
{
    Suite *s = suite_create("framing");
    TCase *tc = tcase_create("framing");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, smuggling_framing_refused);
    suite_add_tcase(s, tc);
    return s;
}
