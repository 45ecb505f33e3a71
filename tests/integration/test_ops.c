/* test_ops.c - the service under load and at its edges: body size limits
 * (413, with and without Content-Length), a full queue (503 with
 * Retry-After), deadlines and their clamping, and a SIGTERM drain while a
 * solve is in flight. Slow solves use itest_slow_sokoban_* (an open room
 * with eight boxes), always bounded by a timeout_ms. */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "itest.h"
#include "suites.h"
#include "../samples.h"

static const char small_json[] =
    "{\"grid\":[\"######\",\"#X..O#\",\"######\"]}";

/* A filler body of n bytes: well-formed JSON that is not a valid puzzle,
 * so a parsed one would get a 422: a 413 shows it was refused unparsed. */
static char *big_body(size_t n)
{
    char *b = malloc(n + 1);
    ck_assert_ptr_nonnull(b);
    memset(b, 'a', n);
    memcpy(b, "{\"grid\":[\"", 10);
    memcpy(b + n - 3, "\"]}", 3);
    b[n] = '\0';
    return b;
}

/* Sends only the headers of a POST whose Content-Length is `declared`
 * (plus `extra`, a header line or ""), never a byte of its body, and
 * returns the status of the first response line, or -1 when none came
 * within 5 s (a server that waits for the body never answers). */
static int status_before_body(const gs_srv *s, long declared, const char *extra)
{
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)s->port)};
    char head[512], resp[1024];
    int status = -1, fd = socket(AF_INET, SOCK_STREAM, 0);

    ck_assert_int_ge(fd, 0);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    ck_assert_int_eq(connect(fd, (struct sockaddr *)&a, sizeof a), 0);
    int n = snprintf(head, sizeof head,
                     "POST /solve/bloxorz HTTP/1.1\r\nHost: x\r\n"
                     "Content-Type: application/json\r\n"
                     "Content-Length: %ld\r\n%s\r\n",
                     declared, extra);
    ck_assert_int_eq(send(fd, head, (size_t)n, MSG_NOSIGNAL), n);
    struct pollfd p = {fd, POLLIN, 0};
    if (poll(&p, 1, 5000) == 1) {
        ssize_t got = recv(fd, resp, sizeof resp - 1, 0);
        if (got > 0) {
            resp[got] = '\0';
            if (sscanf(resp, "HTTP/1.1 %d", &status) != 1)
                status = -1;
        }
    }
    close(fd);
    return status;
}

START_TEST(payload_too_large_413)
{
    gs_srv s;
    ITEST_START(&s, "--max-body", "1024", NULL);
    char *body = big_body(8192);
    gs_resp r;
    gs_req req = {.method = "POST",
                  .path = "/solve/bloxorz",
                  .content_type = "application/json",
                  .body = body,
                  .headers = {"Origin: https://env.example"}};
    gs_http(&s, &req, &r);
    cJSON_Delete(itest_problem(&r, 413, "payload-too-large", "/solve/bloxorz"));
    gs_resp_free(&r);

    /* Refused before the body is sent: the 413 comes for the headers
     * alone, and a client that asks first (Expect: 100-continue) gets the
     * 413 instead of a 100. A body within the limit is waited for. */
    ck_assert_int_eq(status_before_body(&s, 8192, ""), 413);
    ck_assert_int_eq(status_before_body(&s, 8192, "Expect: 100-continue\r\n"),
                     413);
    ck_assert_int_eq(status_before_body(&s, 512, "Expect: 100-continue\r\n"),
                     100);

    /* Chunked: no Content-Length, so the server must count as it reads. */
    gs_req chunked = {.method = "POST",
                      .path = "/solve/bloxorz",
                      .content_type = "application/json",
                      .body = body,
                      .chunked = true};
    gs_http(&s, &chunked, &r);
    cJSON_Delete(itest_problem(&r, 413, "payload-too-large", "/solve/bloxorz"));
    gs_resp_free(&r);

    /* Text mode is bounded the same way. */
    gs_post(&s, "/solve/curling", "text/plain", body, &r);
    cJSON_Delete(itest_problem(&r, 413, "payload-too-large", "/solve/curling"));
    gs_resp_free(&r);
    free(body);

    /* A body under the limit is still served, chunked or not. */
    gs_post(&s, "/solve/bloxorz", "application/json", small_json, &r);
    cJSON_Delete(itest_solve_ok(&r, "bloxorz", "solved", 2, "UDLR"));
    gs_resp_free(&r);
    chunked.body = small_json;
    gs_http(&s, &chunked, &r);
    cJSON_Delete(itest_solve_ok(&r, "bloxorz", "solved", 2, "UDLR"));
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* Every flag is also a GRIDSOLVE_* variable; a flag wins over it. */
START_TEST(config_from_environment)
{
    gs_srv s;
    setenv("GRIDSOLVE_MAX_BODY", "1024", 1);
    setenv("GRIDSOLVE_CORS_ORIGIN", "https://env.example", 1);
    char why[512] = "";
    int rc = gs_srv_start(&s, NULL, why, sizeof(why));
    ck_assert_msg(rc == 0, "server did not start: %s", why);
    char *body = big_body(8192);
    gs_resp r;
    gs_req req = {.method = "POST",
                  .path = "/solve/bloxorz",
                  .content_type = "application/json",
                  .body = body,
                  .headers = {"Origin: https://env.example"}};
    gs_http(&s, &req, &r);
    cJSON_Delete(itest_problem(&r, 413, "payload-too-large", "/solve/bloxorz"));
    ck_assert_str_eq(r.cors_origin, "https://env.example");
    gs_resp_free(&r);
    ITEST_STOP(&s);

    const char *const flags[] = {"--max-body", "1M", NULL};
    rc = gs_srv_start(&s, flags, why, sizeof(why));
    unsetenv("GRIDSOLVE_MAX_BODY");
    unsetenv("GRIDSOLVE_CORS_ORIGIN");
    ck_assert_msg(rc == 0, "server did not start: %s", why);
    gs_post(&s, "/solve/bloxorz", "application/json", body, &r);
    ck_assert_msg(r.status == 422, "8 KiB under a 1M flag: HTTP %ld", r.status);
    gs_resp_free(&r);
    free(body);
    ITEST_STOP(&s);
}
END_TEST

/* A body far over the limit, streamed chunked: the server answers 413 (or
 * drops the connection mid-upload, which curl reports as a send error) and
 * stays healthy. */
START_TEST(payload_too_large_early)
{
    gs_srv s;
    ITEST_START(&s, "--max-body", "4096", NULL);
    size_t n = 16u << 20;
    char *body = big_body(n);
    gs_req chunked = {.method = "POST",
                      .path = "/solve/sokoban",
                      .content_type = "application/json",
                      .body = body,
                      .len = n,
                      .chunked = true,
                      .timeout_ms = 10000};
    gs_resp r;
    gs_http(&s, &chunked, &r);
    /* The server may close while we still send: then curl reports a send
     * error, but a response, if read, must be the 413. */
    if (r.curl_rc == 0)
        cJSON_Delete(
            itest_problem(&r, 413, "payload-too-large", "/solve/sokoban"));
    else
        ck_assert_msg(r.status == 0 || r.status == 413,
                      "HTTP %ld for an oversized body", r.status);
    gs_resp_free(&r);
    free(body);
    gs_get(&s, "/healthz", &r);
    ck_assert_int_eq(r.status, 200);
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* POSTs the slow instance with `extra` limits; asserts a time limit and
 * returns the solve's stats.elapsed_ms. */
static double assert_time_limit(const gs_srv *s, const char *extra,
                                double max_wall_ms)
{
    char *body = itest_slow_sokoban_json(extra);
    ck_assert_ptr_nonnull(body);
    gs_resp r;
    itest_post_json(s, "sokoban", body, &r);
    cJSON *j = itest_solve_ok(&r, "sokoban", "limit", -1, "");
    ck_assert_str_eq(itest_str(j, "limit"), "time");
    ck_assert_msg(r.wall_ms < itest_slack(max_wall_ms),
                  "answered after %.0f ms", r.wall_ms);
    const cJSON *stats = cJSON_GetObjectItemCaseSensitive(j, "stats");
    double elapsed =
        cJSON_GetObjectItemCaseSensitive(stats, "elapsed_ms")->valuedouble;
    cJSON_Delete(j);
    gs_resp_free(&r);
    free(body);
    return elapsed;
}

/* Posts the slow sokoban case as judge text to path and expects it to
 * print "limit" within 1.5 s. */
static void assert_text_limit(gs_srv *s, const char *path)
{
    char *text = itest_slow_sokoban_text();
    ck_assert_ptr_nonnull(text);
    gs_resp r;
    gs_post(s, path, "text/plain", text, &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, "limit\n");
    ck_assert_msg(r.wall_ms < itest_slack(1500), "answered after %.0f ms",
                  r.wall_ms);
    gs_resp_free(&r);
    free(text);
}

START_TEST(deadline_time_limit)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    double t0 = gs_now_ms();
    /* Parse and reply included, the answer comes soon after 300 ms... */
    assert_time_limit(&s, ",\"limits\":{\"timeout_ms\":300}", 1500);
    /* ...and not before it. */
    ck_assert_msg(gs_now_ms() - t0 >= 290, "limit after %.0f ms",
                  gs_now_ms() - t0);
    ITEST_STOP(&s);
}
END_TEST

/* A request asking for an hour is held to --max-timeout-ms; one asking
 * for nothing gets --timeout-ms. */
START_TEST(deadline_clamped)
{
    gs_srv s;
    ITEST_START(&s, "--timeout-ms", "100", "--max-timeout-ms", "400", NULL);
    double t0 = gs_now_ms();
    assert_time_limit(&s, ",\"limits\":{\"timeout_ms\":3600000}", 1500);
    ck_assert_msg(gs_now_ms() - t0 >= 390, "clamped to less than 400 ms");
    double dflt = assert_time_limit(&s, NULL, 1000);
    ck_assert_msg(dflt < itest_slack(350),
                  "default deadline 100 ms, solve ran %.0f ms", dflt);

    /* Judge mode: the same clamp, and a case at its limit prints "limit". */
    assert_text_limit(&s, "/solve/sokoban?timeout_ms=3600000");
    ITEST_STOP(&s);
}
END_TEST

/* Judge mode's ?timeout_ms= is the deadline of the request. */
START_TEST(deadline_query)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    assert_text_limit(&s, "/solve/sokoban?timeout_ms=200");
    ITEST_STOP(&s);
}
END_TEST

START_TEST(queue_full_503)
{
    gs_srv s;
    ITEST_START(&s, "--workers", "1", "--queue", "1", NULL);
    enum { N = 5 };
    char *body = itest_slow_sokoban_json(",\"limits\":{\"timeout_ms\":800}");
    ck_assert_ptr_nonnull(body);
    gs_req reqs[N];
    gs_resp resps[N];
    for (int i = 0; i < N; i++)
        reqs[i] = (gs_req){.method = "POST",
                           .path = "/solve/sokoban",
                           .content_type = "application/json",
                           .body = body,
                           .timeout_ms = 15000};
    gs_http_parallel(&s, reqs, resps, N);
    int ok = 0, busy = 0;
    for (int i = 0; i < N; i++) {
        ck_assert_msg(resps[i].curl_rc == 0, "request %d: curl %d", i,
                      resps[i].curl_rc);
        if (resps[i].status == 503) {
            cJSON_Delete(
                itest_problem(&resps[i], 503, "unavailable", "/solve/sokoban"));
            ck_assert_msg(resps[i].retry_after[0] != '\0' &&
                              atoi(resps[i].retry_after) >= 1,
                          "503 with Retry-After '%s'", resps[i].retry_after);
            /* Refused at once, not after waiting for a slot. */
            ck_assert_msg(resps[i].wall_ms < itest_slack(600),
                          "503 after %.0f ms", resps[i].wall_ms);
            busy++;
        } else {
            cJSON *j = itest_solve_ok(&resps[i], "sokoban", "limit", -1, "");
            cJSON_Delete(j);
            ok++;
        }
    }
    /* One worker and one queue slot: at most two are served at once, the
     * rest are turned away immediately rather than left waiting. */
    ck_assert_msg(busy >= 1, "no 503 out of %d concurrent slow solves", N);
    ck_assert_msg(ok >= 1, "no request was served");
    ck_assert_msg(ok <= 2, "%d served at once with 1 worker + 1 queue slot",
                  ok);
    for (int i = 0; i < N; i++)
        gs_resp_free(&resps[i]);
    free(body);

    /* Once the queue drains, requests are served again. */
    gs_resp r;
    itest_post_json(&s, "bloxorz", small_json, &r);
    cJSON_Delete(itest_solve_ok(&r, "bloxorz", "solved", 2, "UDLR"));
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* A solve running in a thread while the main thread signals the server. */
typedef struct inflight {
    const gs_srv *s;
    const char *body;
    gs_resp resp;
} inflight;

static void *inflight_main(void *ud)
{
    inflight *f = ud;
    gs_req r = {.method = "POST",
                .path = "/solve/sokoban",
                .content_type = "application/json",
                .body = f->body,
                .timeout_ms = 15000};
    gs_http(f->s, &r, &f->resp);
    return NULL;
}

START_TEST(sigterm_drains_inflight)
{
    gs_srv s;
    ITEST_START(&s, "--grace-ms", "5000", NULL);
    char *body = itest_slow_sokoban_json(",\"limits\":{\"timeout_ms\":1500}");
    ck_assert_ptr_nonnull(body);
    inflight f = {.s = &s, .body = body};
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, inflight_main, &f), 0);
    ck_assert_msg(itest_wait_busy(&s, 1, 5000), "the solve never started");
    double t0 = gs_now_ms();
    ck_assert_int_eq(kill(s.pid, SIGTERM), 0);

    /* While draining the listener stays open: readiness is 503 and new
     * solves are refused with 503 + Retry-After. The signal is taken on
     * the server's own thread: on a loaded machine (a sanitizer build
     * beside other work) that may take longer than a fixed sleep, so
     * readiness is polled for up to 2 s. */
    gs_resp r;
    gs_req rq = {.path = "/readyz", .timeout_ms = 2000};
    long status = 0;
    for (double t1 = gs_now_ms(); gs_now_ms() - t1 < 2000;) {
        gs_http(&s, &rq, &r);
        ck_assert_msg(r.curl_rc == 0, "readyz while draining: curl %d",
                      r.curl_rc);
        status = r.status;
        gs_resp_free(&r);
        if (status == 503)
            break;
        gs_sleep_ms(10);
    }
    ck_assert_msg(status == 503, "readyz %ld 2 s after SIGTERM", status);
    gs_req sq = {.method = "POST",
                 .path = "/solve/bloxorz",
                 .content_type = "application/json",
                 .body = small_json,
                 .timeout_ms = 2000};
    gs_http(&s, &sq, &r);
    cJSON_Delete(itest_problem(&r, 503, "unavailable", "/solve/bloxorz"));
    ck_assert_msg(r.retry_after[0], "503 without Retry-After");
    gs_resp_free(&r);

    pthread_join(th, NULL);
    ck_assert_msg(f.resp.curl_rc == 0, "in-flight solve lost (curl %d)",
                  f.resp.curl_rc);
    /* The grace period outlasts the solve: it ran to its own deadline. */
    cJSON *j = itest_solve_ok(&f.resp, "sokoban", "limit", -1, "");
    ck_assert_str_eq(itest_str(j, "limit"), "time");
    const cJSON *stats = cJSON_GetObjectItemCaseSensitive(j, "stats");
    double ran =
        cJSON_GetObjectItemCaseSensitive(stats, "elapsed_ms")->valuedouble;
    ck_assert_msg(ran >= 1400, "solve cut short at %.0f ms by the drain", ran);
    cJSON_Delete(j);
    gs_resp_free(&f.resp);
    int rc = gs_srv_wait(&s, 6000);
    ck_assert_msg(rc == 0, "exit status %d after SIGTERM", rc);
    ck_assert_msg(gs_now_ms() - t0 < itest_slack(6000), "drain took %.0f ms",
                  gs_now_ms() - t0);
    free(body);
    gs_srv_kill(&s);
}
END_TEST

/* A grace period shorter than the solve: the solve is cancelled, still
 * answered (503 with Retry-After: cut short by the drain, not by its own
 * limits, and worth retrying elsewhere), and the process still exits 0 on
 * time. */
START_TEST(sigterm_grace_cancels)
{
    gs_srv s;
    ITEST_START(&s, "--grace-ms", "200", NULL);
    char *body = itest_slow_sokoban_json(",\"limits\":{\"timeout_ms\":8000}");
    ck_assert_ptr_nonnull(body);
    inflight f = {.s = &s, .body = body};
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, inflight_main, &f), 0);
    ck_assert_msg(itest_wait_busy(&s, 1, 5000), "the solve never started");
    double t0 = gs_now_ms();
    ck_assert_int_eq(kill(s.pid, SIGTERM), 0);
    pthread_join(th, NULL);
    double answered = gs_now_ms() - t0;
    int rc = gs_srv_wait(&s, 5000);
    ck_assert_msg(f.resp.curl_rc == 0, "in-flight solve lost (curl %d)",
                  f.resp.curl_rc);
    cJSON *p = itest_problem(&f.resp, 503, "unavailable", "/solve/sokoban");
    ck_assert_str_eq(itest_str(p, "detail"),
                     "server is shutting down; the solve was cancelled after "
                     "the grace period");
    cJSON_Delete(p);
    ck_assert_msg(atoi(f.resp.retry_after) >= 1, "503 without Retry-After");
    ck_assert_msg(answered < itest_slack(3000),
                  "cancelled solve answered after %.0f ms", answered);
    ck_assert_msg(rc == 0, "exit status %d after SIGTERM", rc);
    gs_resp_free(&f.resp);
    free(body);
    gs_srv_kill(&s);
}
END_TEST

/* SIGHUP is not a stop: the settings are read only at start, so it is
 * logged and ignored, and a solve in flight is answered as if it never
 * came (its default action would kill the server with no drain). */
START_TEST(sighup_ignored_and_logged)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    char *body = itest_slow_sokoban_json(",\"limits\":{\"timeout_ms\":1500}");
    ck_assert_ptr_nonnull(body);
    inflight f = {.s = &s, .body = body};
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, inflight_main, &f), 0);
    ck_assert_msg(itest_wait_busy(&s, 1, 5000), "the solve never started");
    ck_assert_int_eq(kill(s.pid, SIGHUP), 0);

    /* The line shows the signal was taken; the server still serves. */
    char log[8192];
    bool logged = false;
    for (double t0 = gs_now_ms(); !logged && gs_now_ms() - t0 < 2000;) {
        logged = gs_srv_log(&s, log, sizeof log) > 0 &&
                 strstr(log, "SIGHUP received: ignored") != NULL;
        if (!logged)
            gs_sleep_ms(10);
    }
    ck_assert_msg(logged, "no SIGHUP line in the log");
    gs_resp r;
    gs_get(&s, "/readyz", &r);
    ck_assert_msg(r.curl_rc == 0 && r.status == 200,
                  "readyz after SIGHUP: curl %d, HTTP %ld", r.curl_rc,
                  r.status);
    gs_resp_free(&r);

    pthread_join(th, NULL);
    ck_assert_msg(f.resp.curl_rc == 0, "in-flight solve lost (curl %d)",
                  f.resp.curl_rc);
    cJSON *j = itest_solve_ok(&f.resp, "sokoban", "limit", -1, "");
    ck_assert_str_eq(itest_str(j, "limit"), "time");
    cJSON_Delete(j);
    gs_resp_free(&f.resp);
    free(body);
    ITEST_STOP(&s);
}
END_TEST

/* A bad request in the middle of good ones affects none of them. */
START_TEST(bad_requests_isolated)
{
    gs_srv s;
    ITEST_START(&s, "--workers", "2", NULL);
    enum { N = 8 };
    gs_req reqs[N];
    gs_resp resps[N];
    for (int i = 0; i < N; i++) {
        int bad = i % 2;
        reqs[i] =
            (gs_req){.method = "POST",
                     .path = "/solve/bloxorz",
                     .content_type = "application/json",
                     .body = bad ? "{\"grid\":[\"#X" : GS_SAMPLE_BLOXORZ_JSON};
    }
    gs_http_parallel(&s, reqs, resps, N);
    for (int i = 0; i < N; i++) {
        if (i % 2)
            cJSON_Delete(
                itest_problem(&resps[i], 400, "bad-request", "/solve/bloxorz"));
        else
            cJSON_Delete(
                itest_solve_ok(&resps[i], "bloxorz", "solved", 10, "UDLR"));
        gs_resp_free(&resps[i]);
    }
    ITEST_STOP(&s);
}
END_TEST

Suite *gs_itest_ops_suite(void)
{
    Suite *s = suite_create("ops");
    TCase *tc = tcase_create("limits");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, payload_too_large_413);
    tcase_add_test(tc, payload_too_large_early);
    tcase_add_test(tc, config_from_environment);
    tcase_add_test(tc, deadline_time_limit);
    tcase_add_test(tc, deadline_clamped);
    tcase_add_test(tc, deadline_query);
    suite_add_tcase(s, tc);

    tc = tcase_create("load");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, queue_full_503);
    tcase_add_test(tc, bad_requests_isolated);
    suite_add_tcase(s, tc);

    tc = tcase_create("shutdown");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, sigterm_drains_inflight);
    tcase_add_test(tc, sigterm_grace_cancels);
    tcase_add_test(tc, sighup_ignored_and_logged);
    suite_add_tcase(s, tc);
    return s;
}
