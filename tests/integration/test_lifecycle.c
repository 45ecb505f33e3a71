/* test_lifecycle.c - the life of a request at its edges: clients that hang
 * up while their solve waits or runs (the solve stops, its worker is
 * freed, nothing is answered, "abandoned" is counted), and a flood of such
 * clients leaving the server responsive. Durations are printed; the
 * bounds asserted are the ones the service promises, with slack for a
 * loaded 2-core machine. */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "itest.h"
#include "raw.h"
#include "suites.h"

#define ABANDONED                                                              \
    "gridsolve_solves_total{puzzle=\"sokoban\",result=\"abandoned\"}"
#define SOKO_LIMIT "gridsolve_solves_total{puzzle=\"sokoban\",result=\"limit\"}"
#define BUSY "gridsolve_workers_busy "
#define QUEUED "gridsolve_queue_depth "
#define REFUSED                                                                \
    "gridsolve_http_requests_total{route=\"/solve/{puzzle}\","                 \
    "puzzle=\"sokoban\",code=\"503\"}"

static const char small_json[] =
    "{\"grid\":[\"######\",\"#X..O#\",\"######\"]}";

/* Opens a raw connection and sends a slow sokoban solve (deadline
 * timeout_ms) on it; returns the socket. */
static int post_slow(const gs_srv *s, int timeout_ms)
{
    char extra[64];
    snprintf(extra, sizeof extra, ",\"limits\":{\"timeout_ms\":%d}",
             timeout_ms);
    char *body = itest_slow_sokoban_json(extra);
    char *req =
        raw_request("POST", "/solve/sokoban", "application/json", body, NULL);
    ck_assert_ptr_nonnull(req);
    int fd = raw_connect(s, NULL);
    ck_assert_msg(fd >= 0, "cannot connect");
    ck_assert(raw_send_str(fd, req));
    free(req);
    free(body);
    return fd;
}

/* A trivial solve must be answered; returns its wall time. */
static double trivial_solve(const gs_srv *s)
{
    gs_resp r;
    gs_req q = {.method = "POST",
                .path = "/solve/bloxorz",
                .content_type = "application/json",
                .body = small_json,
                .timeout_ms = 5000};
    gs_http(s, &q, &r);
    cJSON_Delete(itest_solve_ok(&r, "bloxorz", "solved", 2, "UDLR"));
    double ms = r.wall_ms;
    gs_resp_free(&r);
    return ms;
}

/* Polls until no worker is busy; returns the ms it took, -1 on timeout. */
static double wait_idle(const gs_srv *s, long timeout_ms)
{
    double t0 = gs_now_ms();
    while (gs_now_ms() - t0 < timeout_ms) {
        if (raw_metric(s, BUSY) == 0)
            return gs_now_ms() - t0;
        gs_sleep_ms(5);
    }
    return -1;
}

START_TEST(abandoned_running_solve_stops)
{
    gs_srv s;
    ITEST_START(&s, "--workers", "1", NULL);
    int fd = post_slow(&s, 20000);
    ck_assert_msg(itest_wait_busy(&s, 1, 5000), "the solve never started");
    double t0 = gs_now_ms();
    close(fd);
    double freed = wait_idle(&s, 3000);
    double counted = raw_wait_metric(&s, ABANDONED, 1, 2000);
    fprintf(stderr,
            "lifecycle: dropped running solve: worker free after "
            "%.0f ms\n",
            freed);
    ck_assert_msg(freed >= 0, "worker still busy 3 s after the hang-up");
    ck_assert_msg(gs_now_ms() - t0 < itest_slack(1000),
                  "hang-up handled after %.0f ms", gs_now_ms() - t0);
    ck_assert_msg(counted == 1, "abandoned counted %.0f times", counted);
    /* Never answered: no limit result was recorded for it. */
    ck_assert_msg(raw_metric(&s, SOKO_LIMIT) == 0, "the dropped solve ran on");
    double ms = trivial_solve(&s);
    fprintf(stderr, "lifecycle: trivial solve after it: %.1f ms\n", ms);
    ITEST_STOP(&s);
}
END_TEST

/* A solve that runs while others wait for the one worker. */
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

/* Starts f's solve on a thread; returns once it runs on the worker. */
static pthread_t start_inflight(inflight *f)
{
    pthread_t th;
    ck_assert_int_eq(pthread_create(&th, NULL, inflight_main, f), 0);
    ck_assert_msg(itest_wait_busy(f->s, 1, 5000), "the solve never started");
    return th;
}

START_TEST(abandoned_queued_solves_skipped)
{
    enum { N = 5 };
    gs_srv s;
    ITEST_START(&s, "--workers", "1", "--queue", "8", NULL);
    char *body = itest_slow_sokoban_json(",\"limits\":{\"timeout_ms\":2500}");
    inflight f = {.s = &s, .body = body};
    pthread_t th = start_inflight(&f);
    int fds[N];
    for (int i = 0; i < N; i++)
        fds[i] = post_slow(&s, 20000);
    ck_assert_msg(raw_wait_metric(&s, QUEUED, N, 2000) == N,
                  "%d solves should wait for the worker", N);
    double t0 = gs_now_ms();
    for (int i = 0; i < N; i++)
        close(fds[i]);
    double n = raw_wait_metric(&s, ABANDONED, N, 2000);
    double ms = gs_now_ms() - t0;
    fprintf(stderr, "lifecycle: %d dropped queued solves counted in %.0f ms\n",
            N, ms);
    ck_assert_msg(n == N, "abandoned %.0f of %d queued solves", n, N);
    /* Their connections are closed already, while the worker still runs
     * the live solve. */
    ck_assert_msg(raw_metric(&s, BUSY) == 1, "the live solve was disturbed");
    pthread_join(th, NULL);
    cJSON *j = itest_solve_ok(&f.resp, "sokoban", "limit", -1, "");
    ck_assert_str_eq(itest_str(j, "limit"), "time");
    cJSON_Delete(j);
    gs_resp_free(&f.resp);
    /* The skipped jobs never run: the queue empties at once. */
    ck_assert_msg(wait_idle(&s, 1000) >= 0, "skipped jobs kept the worker");
    ck_assert_msg(raw_metric(&s, SOKO_LIMIT) == 1, "a dropped solve ran");
    trivial_solve(&s);
    free(body);
    ITEST_STOP(&s);
}
END_TEST

/* Clients that hang up while their solve waits for room in a full queue
 * (ADMIT_WAIT_MS before the 503): each is counted abandoned, or, when
 * the wait ran out before the hang-up was seen, answered 503; the
 * running and the queued solve are not disturbed. Plain requests and
 * event streams alternate: a plain one holds no job's reference there,
 * so its connection may be freed as soon as the hang-up resumes it. */
START_TEST(abandoned_while_admission_waits)
{
    enum { M = 8 };
    gs_srv s;
    ITEST_START(&s, "--workers", "1", "--queue", "1", NULL);
    char *body = itest_slow_sokoban_json(",\"limits\":{\"timeout_ms\":4000}");
    inflight f = {.s = &s, .body = body};
    pthread_t th = start_inflight(&f);
    int queued = post_slow(&s, 20000);
    ck_assert_msg(raw_wait_metric(&s, QUEUED, 1, 2000) == 1,
                  "a solve should wait for the worker");
    char *plain =
        raw_request("POST", "/solve/sokoban", "application/json", body, NULL);
    char *stream = raw_request("POST", "/solve/sokoban", "application/json",
                               body, "Accept: text/event-stream\r\n");
    for (int i = 0; i < M; i++) {
        int fd = raw_connect(&s, NULL);
        ck_assert_msg(fd >= 0, "cannot connect");
        ck_assert(raw_send_str(fd, i % 2 ? stream : plain));
        close(fd);
    }
    double gone = raw_wait_metric(&s, ABANDONED, M, 3000);
    double refused = raw_metric(&s, REFUSED);
    if (refused < 0)
        refused = 0;
    fprintf(stderr,
            "lifecycle: %d hang-ups while admission waits: %.0f abandoned, "
            "%.0f answered 503\n",
            M, gone, refused);
    ck_assert_msg(gone + refused == M, "%.0f abandoned + %.0f refused of %d",
                  gone, refused, M);
    ck_assert_msg(gone >= 1, "no hang-up was seen while admission waited");
    ck_assert_msg(raw_metric(&s, BUSY) == 1, "the running solve was disturbed");
    ck_assert_msg(raw_metric(&s, QUEUED) == 1, "the queued solve was lost");
    close(queued);
    ck_assert_msg(raw_wait_metric(&s, ABANDONED, gone + 1, 2000) == gone + 1,
                  "the queued solve's hang-up was not counted");
    pthread_join(th, NULL);
    cJSON *j = itest_solve_ok(&f.resp, "sokoban", "limit", -1, "");
    ck_assert_str_eq(itest_str(j, "limit"), "time");
    cJSON_Delete(j);
    gs_resp_free(&f.resp);
    trivial_solve(&s);
    free(plain);
    free(stream);
    free(body);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(flood_of_dropped_solves)
{
    enum { N = 60 };
    gs_srv s;
    ITEST_START(&s, "--workers", "2", "--queue", "16", NULL);
    char *body = itest_slow_sokoban_json(",\"limits\":{\"timeout_ms\":30000}");
    char *req =
        raw_request("POST", "/solve/sokoban", "application/json", body, NULL);
    double t0 = gs_now_ms();
    for (int i = 0; i < N; i++) {
        int fd = raw_connect(&s, NULL);
        ck_assert_msg(fd >= 0, "cannot connect");
        raw_send_str(fd, req);
        close(fd);
    }
    double ms = trivial_solve(&s);
    fprintf(stderr,
            "lifecycle: %d dropped solves sent in %.0f ms; a trivial solve "
            "right after: %.0f ms\n",
            N, gs_now_ms() - t0 - ms, ms);
    ck_assert_msg(ms < itest_slack(1000),
                  "trivial solve after a flood took %.0f ms", ms);
    /* A dropped solve left running would hold its worker for its 30 s;
     * 10 s tells that from a slow machine (ThreadSanitizer under load). */
    double idle = wait_idle(&s, 10000);
    fprintf(stderr, "lifecycle: workers idle %.0f ms after that\n", idle);
    ck_assert_msg(idle >= 0, "workers still busy");
    ck_assert_msg(raw_metric(&s, SOKO_LIMIT) <= 0, "a dropped solve ran on");
    free(req);
    free(body);
    ITEST_STOP(&s);
}
END_TEST

/* Drain with a grace period shorter than the running solve: the running
 * solve is cancelled and the solves still queued never start; each gets a
 * 503 with Retry-After that says which; every request accepted before
 * SIGTERM gets a complete response and the process exits 0. */
START_TEST(drain_answers_queued_503)
{
    enum { N = 3 };
    gs_srv s;
    ITEST_START(&s, "--workers", "1", "--queue", "4", "--grace-ms", "300",
                NULL);
    char *body = itest_slow_sokoban_json(",\"limits\":{\"timeout_ms\":8000}");
    inflight f[N];
    pthread_t th[N];
    for (int i = 0; i < N; i++) {
        f[i] = (inflight){.s = &s, .body = body};
        ck_assert_int_eq(pthread_create(&th[i], NULL, inflight_main, &f[i]), 0);
        if (i == 0)
            ck_assert_msg(itest_wait_busy(&s, 1, 5000), "no solve started");
    }
    ck_assert_msg(raw_wait_metric(&s, QUEUED, N - 1, 3000) == N - 1,
                  "%d solves should be queued", N - 1);
    double t0 = gs_now_ms();
    ck_assert_int_eq(kill(s.pid, SIGTERM), 0);
    for (int i = 0; i < N; i++)
        pthread_join(th[i], NULL);
    fprintf(stderr, "lifecycle: drain answered %d solves in %.0f ms\n", N,
            gs_now_ms() - t0);
    int cancelled = 0, not_started = 0;
    for (int i = 0; i < N; i++) {
        ck_assert_msg(f[i].resp.curl_rc == 0, "solve %d lost (curl %d)", i,
                      f[i].resp.curl_rc);
        cJSON *p =
            itest_problem(&f[i].resp, 503, "unavailable", "/solve/sokoban");
        ck_assert_msg(atoi(f[i].resp.retry_after) >= 1,
                      "503 without Retry-After");
        const char *d = itest_str(p, "detail");
        if (strstr(d, "cancelled after the grace period"))
            cancelled++;
        else if (strstr(d, "was not started"))
            not_started++;
        else
            ck_abort_msg("solve %d: detail '%s'", i, d);
        cJSON_Delete(p);
        gs_resp_free(&f[i].resp);
    }
    ck_assert_int_eq(cancelled, 1);
    ck_assert_int_eq(not_started, N - 1);
    int rc = gs_srv_wait(&s, 5000);
    ck_assert_msg(rc == 0, "exit status %d after SIGTERM", rc);
    free(body);
    gs_srv_kill(&s);
}
END_TEST

/* Reads one answer and what follows it on fd: asserts `status`,
 * Connection: close, and a clean end (EOF, not a reset). */
static void expect_answer_then_eof(int fd, int status, const char *what)
{
    enum raw_end end;
    char *r = raw_read(fd, 5000, NULL, &end);
    ck_assert_msg(raw_status(r) == status, "%s: %s", what, r ? r : "");
    ck_assert_msg(itest_icontains(r, "Connection: close"),
                  "%s: no Connection: close while draining:\n%s", what, r);
    ck_assert_msg(end == RAW_EOF, "%s: ended with %d, not EOF", what, (int)end);
    free(r);
}

/* SIGTERM with three connections: one idle keep-alive (answered before)
 * is closed cleanly (FIN, no bytes, never a reset); one with a solve in
 * flight gets its answer with Connection: close, then the same clean
 * close; one opened during the drain is still answered, and closed. */
START_TEST(drain_closes_keepalive_cleanly)
{
    gs_srv s;
    ITEST_START(&s, "--grace-ms", "5000", NULL);
    char *get = raw_request("GET", "/healthz", NULL, NULL, NULL);
    int idle = raw_connect(&s, NULL);
    ck_assert(idle >= 0 && raw_send_str(idle, get));
    char *r = raw_read_response(idle, 2000);
    ck_assert_msg(raw_status(r) == 200, "healthz: %s", r ? r : "(none)");
    free(r);
    int solving = post_slow(&s, 800);
    ck_assert_msg(itest_wait_busy(&s, 1, 5000), "the solve never started");
    ck_assert_int_eq(kill(s.pid, SIGTERM), 0);
    gs_sleep_ms(100);

    int late = raw_connect(&s, NULL);
    ck_assert_msg(late >= 0, "listener closed during the drain");
    ck_assert(raw_send_str(late, get));
    expect_answer_then_eof(late, 200, "request during the drain");
    expect_answer_then_eof(solving, 200, "solve in flight");

    enum raw_end end;
    r = raw_read(idle, 3000, NULL, &end);
    ck_assert_msg(end == RAW_EOF, "idle connection ended with %d, not EOF",
                  (int)end);
    ck_assert_msg(r && r[0] == '\0', "unexpected bytes: %s", r);
    free(r);
    close(idle);
    close(solving);
    close(late);
    int rc = gs_srv_wait(&s, 5000);
    ck_assert_msg(rc == 0, "exit status %d after SIGTERM", rc);
    free(get);
    gs_srv_kill(&s);
}
END_TEST

Suite *gs_itest_lifecycle_suite(void)
{
    Suite *s = suite_create("lifecycle");
    TCase *tc = tcase_create("abandoned");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, abandoned_running_solve_stops);
    tcase_add_test(tc, abandoned_queued_solves_skipped);
    tcase_add_test(tc, abandoned_while_admission_waits);
    tcase_add_test(tc, flood_of_dropped_solves);
    suite_add_tcase(s, tc);

    tc = tcase_create("drain");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, drain_answers_queued_503);
    tcase_add_test(tc, drain_closes_keepalive_cleanly);
    suite_add_tcase(s, tc);
    return s;
}
