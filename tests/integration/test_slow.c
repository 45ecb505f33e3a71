/* test_slow.c - clients that are slow or many: the header deadline, the
 * minimum body rate, the connection limit (and its counter), the
 * per-address limit, and 2,000 slowloris connections from 127.0.0.1 that
 * must not keep a client from 127.0.0.2 waiting. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "itest.h"
#include "raw.h"
#include "suites.h"

#define CLOSED_HEAD                                                            \
    "gridsolve_connections_closed_total{reason=\"header_timeout\"}"
#define CLOSED_BODY "gridsolve_connections_closed_total{reason=\"slow_body\"}"
#define REJECTED "gridsolve_connections_rejected_total "

static const char small_json[] =
    "{\"grid\":[\"######\",\"#X..O#\",\"######\"]}";

/* Waits for the server to close fd; returns the ms it took, -1 when it
 * stayed open for timeout_ms. Bytes the server sends are ignored. */
static double wait_closed(int fd, long timeout_ms)
{
    double t0 = gs_now_ms();
    enum raw_end end;
    char *got = raw_read(fd, timeout_ms, NULL, &end);
    free(got);
    return end == RAW_TIMEOUT ? -1 : gs_now_ms() - t0;
}

/* GET /healthz on a fresh connection from `from`; returns the wall ms of
 * a 200 answer, or fails the test. */
static double healthz_from(const gs_srv *s, const char *from)
{
    double t0 = gs_now_ms();
    int fd = raw_connect(s, from);
    ck_assert_msg(fd >= 0, "cannot connect from %s", from ? from : "any");
    char *req = raw_request("GET", "/healthz", NULL, NULL, NULL);
    ck_assert(raw_send_str(fd, req));
    char *r = raw_read_response(fd, 5000);
    double ms = gs_now_ms() - t0;
    ck_assert_msg(raw_status(r) == 200, "healthz from %s: %s",
                  from ? from : "any", r ? r : "(nothing)");
    free(r);
    free(req);
    close(fd);
    return ms;
}

START_TEST(header_deadline_closes)
{
    gs_srv s;
    ITEST_START(&s, "--header-timeout-ms", "300", NULL);
    int fd = raw_connect(&s, NULL);
    ck_assert(fd >= 0);
    /* A head that never ends, one byte at a time (each byte would reset
     * an idle timeout). */
    ck_assert(raw_send_str(fd, "GET /healthz HTTP/1.1\r\nHost: x\r\n"));
    double t0 = gs_now_ms(), ms = -1;
    for (int i = 0; i < 40 && ms < 0; i++) {
        raw_send_str(fd, "X");
        ms = wait_closed(fd, 50);
    }
    double total = gs_now_ms() - t0;
    close(fd);
    fprintf(stderr, "slow: dribbled head closed after %.0f ms\n", total);
    ck_assert_msg(ms >= 0, "a head dribbled for 2 s was never closed");
    ck_assert_msg(total >= 200, "closed after %.0f ms, deadline 300", total);
    ck_assert(raw_wait_metric(&s, CLOSED_HEAD, 1, 2000) == 1);
    /* A prompt client is unaffected. */
    healthz_from(&s, NULL);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(slow_body_closes)
{
    gs_srv s;
    ITEST_START(&s, "--header-timeout-ms", "300", "--min-body-rate", "1000",
                NULL);
    int fd = raw_connect(&s, NULL);
    ck_assert(fd >= 0);
    ck_assert(raw_send_str(fd, "POST /solve/bloxorz HTTP/1.1\r\nHost: x\r\n"
                               "Content-Type: application/json\r\n"
                               "Content-Length: 5000\r\n\r\n{\"grid\":"));
    double t0 = gs_now_ms(), ms = -1;
    for (int i = 0; i < 20 && ms < 0; i++) {
        raw_send_str(fd, "          "); /* 100 bytes/s */
        ms = wait_closed(fd, 100);
    }
    double total = gs_now_ms() - t0;
    close(fd);
    fprintf(stderr, "slow: 100 B/s upload closed after %.0f ms\n", total);
    ck_assert_msg(ms >= 0, "a 100 B/s upload was not closed in 2 s");
    ck_assert(raw_wait_metric(&s, CLOSED_BODY, 1, 2000) == 1);
    /* A body sent at once is served. */
    gs_resp r;
    itest_post_json(&s, "bloxorz", small_json, &r);
    cJSON_Delete(itest_solve_ok(&r, "bloxorz", "solved", 2, "UDLR"));
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* At --max-connections the server stops accepting: a newcomer waits in
 * the listen backlog (not refused, not reset) until a connection closes;
 * reaching the limit is counted. */
START_TEST(connection_limit_counted)
{
    enum { LIMIT = 20 };
    gs_srv s;
    ITEST_START(&s, "--max-connections", "20", NULL);
    int fds[LIMIT];
    for (int i = 0; i < LIMIT; i++) {
        fds[i] = raw_connect(&s, NULL);
        ck_assert(fds[i] >= 0);
    }
    gs_sleep_ms(100); /* let the server accept them all */
    int extra = raw_connect(&s, NULL);
    ck_assert(extra >= 0);
    char *req = raw_request("GET", "/healthz", NULL, NULL, NULL);
    ck_assert(raw_send_str(extra, req));
    char *r = raw_read_response(extra, 300);
    ck_assert_msg(r == NULL, "served over the limit: %s", r);
    for (int i = 0; i < 5; i++)
        close(fds[i]);
    r = raw_read_response(extra, 3000);
    ck_assert_msg(raw_status(r) == 200, "after room was made: %s",
                  r ? r : "(nothing)");
    free(r);
    free(req);
    close(extra);
    for (int i = 5; i < LIMIT; i++)
        close(fds[i]);
    double n = raw_wait_metric(&s, "gridsolve_connection_limit_reached_total ",
                               1, 2000);
    ck_assert_msg(n >= 1, "limit reached counted %.0f times", n);
    ITEST_STOP(&s);
}
END_TEST

/* Bursts of connections that close at once, beside keep-alive ones
 * that hold the server near --max-connections, are all served in turn:
 * the limit never reaches libmicrohttpd, whose own count runs behind the
 * gate's (0.9.75 stalls a polling thread for good at its limit). */
START_TEST(connection_limit_bursts_served)
{
    enum { LIMIT = 16, HELD = 14, BURST = 32, ROUNDS = 3 };
    gs_srv s;
    ITEST_START(&s, "--max-connections", "16", NULL);
    const char *get = "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    const char *get_close =
        "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n";
    int held[HELD];
    for (int i = 0; i < HELD; i++) {
        held[i] = raw_connect(&s, NULL);
        ck_assert(held[i] >= 0);
        ck_assert(raw_send_str(held[i], get));
        char *r = raw_read_response(held[i], 3000);
        ck_assert_int_eq(raw_status(r), 200);
        free(r);
    }
    for (int round = 0; round < ROUNDS; round++) {
        int fds[BURST], served = 0;
        for (int i = 0; i < BURST; i++) {
            fds[i] = raw_connect(&s, NULL);
            ck_assert(fds[i] >= 0);
            ck_assert(raw_send_str(fds[i], get_close));
        }
        for (int i = 0; i < BURST; i++) {
            char *r = raw_read_response(fds[i], 5000);
            served += raw_status(r) == 200;
            free(r);
            close(fds[i]);
        }
        ck_assert_msg(served == BURST, "round %d: %d of %d served", round,
                      served, BURST);
    }
    for (int i = 0; i < HELD; i++)
        close(held[i]);
    healthz_from(&s, "127.0.0.1");
    ITEST_STOP(&s);
}
END_TEST

START_TEST(per_address_limit)
{
    gs_srv s;
    ITEST_START(&s, "--max-connections-per-ip", "3", NULL);
    int fds[3];
    for (int i = 0; i < 3; i++) {
        fds[i] = raw_connect(&s, "127.0.0.1");
        ck_assert(fds[i] >= 0);
    }
    gs_sleep_ms(100);
    int extra = raw_connect(&s, "127.0.0.1");
    ck_assert(extra >= 0);
    raw_send_str(extra, "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n");
    enum raw_end end;
    char *got = raw_read(extra, 3000, NULL, &end);
    ck_assert_msg(end != RAW_TIMEOUT && got && !got[0],
                  "a 4th connection from one address was served: %s", got);
    free(got);
    close(extra);
    /* Another address is not affected. */
    healthz_from(&s, "127.0.0.2");
    for (int i = 0; i < 3; i++)
        close(fds[i]);
    ck_assert(raw_wait_metric(&s, REJECTED, 1, 2000) >= 1);
    ITEST_STOP(&s);
}
END_TEST

/* Raises this process's descriptor limit; returns the connections the
 * test may open. */
static int usable_fds(int want)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
        rl.rlim_cur = rl.rlim_max;
        setrlimit(RLIMIT_NOFILE, &rl);
    }
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 0;
    long room = (long)rl.rlim_cur - 128;
    return room < want ? (int)(room > 0 ? room : 0) : want;
}

START_TEST(slowloris_2000)
{
    enum { WANT = 2000 };
    int n = usable_fds(WANT);
    gs_srv s;
    ITEST_START(&s, NULL);
    double max = raw_metric(&s, "gridsolve_connections_max ");
    fprintf(stderr, "slow: %d slowloris connections (server limit %.0f)\n", n,
            max);
    ck_assert_msg(n == WANT, "only %d descriptors for the test", n);
    /* A server whose descriptor limit is below 2,000 connections cannot
     * hold them all; its defence is then the per-address limit. */
    if (max < WANT + 100) {
        ITEST_STOP(&s);
        char per[32];
        snprintf(per, sizeof per, "%d", (int)max / 2);
        ITEST_START(&s, "--max-connections-per-ip", per, NULL);
    }
    int *fds = malloc(sizeof(int) * WANT);
    ck_assert_ptr_nonnull(fds);
    double t0 = gs_now_ms();
    int opened = 0;
    for (int i = 0; i < WANT; i++) {
        fds[i] = raw_connect(&s, "127.0.0.1");
        if (fds[i] >= 0) {
            opened++;
            raw_send_str(fds[i], "GET /healthz HTTP/1.1\r\nHost: x\r\n");
        }
    }
    fprintf(stderr, "slow: opened %d in %.0f ms\n", opened, gs_now_ms() - t0);
    double ms = healthz_from(&s, "127.0.0.2");
    fprintf(stderr, "slow: healthz from 127.0.0.2 amid them: %.1f ms\n", ms);
    ck_assert_msg(ms < itest_slack(1000), "answered after %.0f ms", ms);
    /* A solve, too. */
    char *req = raw_request("POST", "/solve/bloxorz", "application/json",
                            small_json, NULL);
    t0 = gs_now_ms();
    int fd = raw_connect(&s, "127.0.0.2");
    ck_assert(fd >= 0 && raw_send_str(fd, req));
    char *r = raw_read_response(fd, 5000);
    ms = gs_now_ms() - t0;
    fprintf(stderr, "slow: solve from 127.0.0.2 amid them: %.1f ms\n", ms);
    ck_assert_msg(raw_status(r) == 200, "solve: %s", r ? r : "(nothing)");
    ck_assert_msg(ms < itest_slack(1000), "solve answered after %.0f ms", ms);
    free(r);
    free(req);
    close(fd);
    for (int i = 0; i < WANT; i++)
        if (fds[i] >= 0)
            close(fds[i]);
    free(fds);
    ITEST_STOP(&s);
}
END_TEST

Suite *gs_itest_slow_suite(void)
{
    Suite *s = suite_create("slow");
    TCase *tc = tcase_create("slow");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, header_deadline_closes);
    tcase_add_test(tc, slow_body_closes);
    tcase_add_test(tc, connection_limit_counted);
    tcase_add_test(tc, connection_limit_bursts_served);
    tcase_add_test(tc, per_address_limit);
    tcase_add_test(tc, slowloris_2000);
    suite_add_tcase(s, tc);
    return s;
}
