/* test_stream.c - POST /solve/{puzzle} with Accept: text/event-stream:
 * `progress` events about every 250 ms, then one `result` (or `problem`)
 * event whose data is the plain answer, and a solve cancelled as soon as
 * its client hangs up. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "itest.h"
#include "raw.h"
#include "suites.h"
#include "../samples.h"

#define ACCEPT_SSE "Accept: text/event-stream"

/* One parsed event: its name and its data lines joined by '\n'. */
typedef struct sse_event {
    char name[32];
    char *data;
} sse_event;

/* Splits an event-stream body into events (at most cap); returns the
 * count. Fails the test on a line that is neither event: nor data:. */
static int parse_events(const char *body, sse_event *ev, int cap)
{
    int n = 0;
    const char *p = body;
    while (p && *p && n < cap) {
        const char *end = strstr(p, "\n\n");
        ck_assert_msg(end, "unterminated event: %s", p);
        sse_event *e = &ev[n++];
        e->name[0] = '\0';
        e->data = calloc(1, (size_t)(end - p) + 1);
        ck_assert_ptr_nonnull(e->data);
        for (const char *l = p; l < end;) {
            const char *nl = memchr(l, '\n', (size_t)(end - l));
            size_t len = nl ? (size_t)(nl - l) : (size_t)(end - l);
            if (strncmp(l, "event: ", 7) == 0) {
                snprintf(e->name, sizeof e->name, "%.*s", (int)len - 7, l + 7);
            } else {
                ck_assert_msg(strncmp(l, "data: ", 6) == 0,
                              "unexpected line '%.*s'", (int)len, l);
                if (e->data[0])
                    strcat(e->data, "\n");
                strncat(e->data, l + 6, len - 6);
            }
            l += len + 1;
        }
        ck_assert_msg(e->name[0], "event without a name");
        p = end + 2;
    }
    return n;
}

static void free_events(sse_event *ev, int n)
{
    for (int i = 0; i < n; i++)
        free(ev[i].data);
}

/* POSTs body to path asking for a stream; asserts a 200 event stream. */
static void post_stream(const gs_srv *s, const char *path, const char *ctype,
                        const char *body, gs_resp *r)
{
    gs_req q = {.method = "POST",
                .path = path,
                .content_type = ctype,
                .body = body,
                .headers = {ACCEPT_SSE},
                .timeout_ms = 10000};
    gs_http(s, &q, r);
    ck_assert_msg(r->curl_rc == 0, "stream transfer failed (curl %d)",
                  r->curl_rc);
    ck_assert_msg(r->status == 200, "stream status %ld", r->status);
    ck_assert_msg(strncmp(r->content_type, "text/event-stream", 17) == 0,
                  "Content-Type '%s'", r->content_type);
}

/* The number value of obj[name], asserting it is a whole number >= 0. */
static double count_field(const cJSON *obj, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    ck_assert_msg(cJSON_IsNumber(v) && v->valuedouble >= 0 &&
                      v->valuedouble == (double)(long long)v->valuedouble,
                  "progress field %s missing or not a count", name);
    return v->valuedouble;
}

START_TEST(stream_progress_then_result)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    char *body = itest_slow_sokoban_json(",\"limits\":{\"timeout_ms\":1200}");
    gs_resp r;
    post_stream(&s, "/solve/sokoban", "application/json", body, &r);
    sse_event ev[64];
    int n = parse_events(r.body, ev, 64);
    fprintf(stderr, "stream: %d events for a 1.2 s solve\n", n);
    /* About every 250 ms over 1.2 s: 3 to 5 progress events. */
    ck_assert_msg(n >= 4 && n <= itest_slack(7), "%d events", n);
    double last_ms = 0, last_expanded = 0;
    for (int i = 0; i < n - 1; i++) {
        ck_assert_str_eq(ev[i].name, "progress");
        cJSON *j = cJSON_Parse(ev[i].data);
        ck_assert_msg(j && cJSON_IsObject(j), "progress data: %s", ev[i].data);
        double ms = count_field(j, "elapsed_ms");
        double ex = count_field(j, "expanded");
        count_field(j, "stored");
        count_field(j, "bound");
        ck_assert_msg(ms > last_ms && ex >= last_expanded,
                      "progress went backwards: %s", ev[i].data);
        ck_assert_msg(ms >= 200 * (i + 1) &&
                          ms <= itest_slack(250 * (i + 1) + 400),
                      "progress event %d at %.0f ms", i + 1, ms);
        last_ms = ms;
        last_expanded = ex;
        cJSON_Delete(j);
    }
    ck_assert_msg(last_expanded > 0, "progress never counted a state");
    ck_assert_str_eq(ev[n - 1].name, "result");
    cJSON *res = cJSON_Parse(ev[n - 1].data);
    ck_assert_msg(res, "result data is not JSON: %s", ev[n - 1].data);
    ck_assert_str_eq(itest_str(res, "status"), "limit");
    ck_assert_str_eq(itest_str(res, "limit"), "time");
    cJSON_Delete(res);
    free_events(ev, n);
    gs_resp_free(&r);
    free(body);
    ITEST_STOP(&s);
}
END_TEST

/* Removes stats.elapsed_ms, the one field two runs may disagree on. */
static char *without_elapsed(const char *json)
{
    cJSON *j = cJSON_Parse(json);
    ck_assert_msg(j, "not JSON: %s", json);
    cJSON_DeleteItemFromObject(cJSON_GetObjectItem(j, "stats"), "elapsed_ms");
    char *out = cJSON_PrintUnformatted(j);
    cJSON_Delete(j);
    return out;
}

/* The single event of a quick answer; returns its data (caller frees). */
static char *only_event(const gs_resp *r, const char *name)
{
    sse_event ev[4];
    int n = parse_events(r->body, ev, 4);
    ck_assert_msg(n >= 1, "no event in: %s", r->body);
    ck_assert_str_eq(ev[n - 1].name, name);
    for (int i = 0; i < n - 1; i++)
        ck_assert_str_eq(ev[i].name, "progress");
    char *d = strdup(ev[n - 1].data);
    free_events(ev, n);
    return d;
}

START_TEST(stream_result_equals_plain)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp plain, streamed;

    /* JSON mode: the same document (elapsed time aside). */
    itest_post_json(&s, "bloxorz", GS_SAMPLE_BLOXORZ_JSON, &plain);
    cJSON_Delete(itest_solve_ok(&plain, "bloxorz", "solved", 10, "UDLR"));
    post_stream(&s, "/solve/bloxorz", "application/json",
                GS_SAMPLE_BLOXORZ_JSON, &streamed);
    char *data = only_event(&streamed, "result");
    char *a = without_elapsed(plain.body), *b = without_elapsed(data);
    ck_assert_str_eq(a, b);
    free(a), free(b), free(data);
    gs_resp_free(&plain), gs_resp_free(&streamed);

    /* An invalid puzzle: the problem document, byte for byte. */
    const char *bad = "{\"grid\":[\"#X#\",\"#Q#\"]}";
    itest_post_json(&s, "bloxorz", bad, &plain);
    cJSON_Delete(itest_problem(&plain, 422, "invalid-puzzle", NULL));
    post_stream(&s, "/solve/bloxorz", "application/json", bad, &streamed);
    data = only_event(&streamed, "problem");
    ck_assert_uint_eq(strlen(data) + 1, plain.len); /* its newline */
    ck_assert(strncmp(data, plain.body, strlen(data)) == 0);
    free(data);
    gs_resp_free(&plain), gs_resp_free(&streamed);

    /* Judge mode: the output lines, one data line each. */
    gs_post(&s, "/solve/bloxorz", "text/plain", GS_SAMPLE_BLOXORZ_IN, &plain);
    ck_assert_int_eq(plain.status, 200);
    post_stream(&s, "/solve/bloxorz", "text/plain", GS_SAMPLE_BLOXORZ_IN,
                &streamed);
    data = only_event(&streamed, "result");
    ck_assert_uint_eq(strlen(data) + 1, plain.len);
    ck_assert(strncmp(data, plain.body, strlen(data)) == 0);
    free(data);
    gs_resp_free(&plain), gs_resp_free(&streamed);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(stream_hangup_frees_worker)
{
    gs_srv s;
    ITEST_START(&s, "--workers", "1", NULL);
    char *body = itest_slow_sokoban_json(",\"limits\":{\"timeout_ms\":20000}");
    char *req = raw_request("POST", "/solve/sokoban", "application/json", body,
                            ACCEPT_SSE "\r\n");
    int fd = raw_connect(&s, NULL);
    ck_assert(fd >= 0 && raw_send_str(fd, req));
    /* Read until the first progress event: the solve is running. */
    char buf[8192] = "";
    size_t got = 0;
    double t0 = gs_now_ms();
    while (!strstr(buf, "event: progress") && gs_now_ms() - t0 < 5000) {
        ssize_t k = recv(fd, buf + got, sizeof buf - got - 1, 0);
        ck_assert_msg(k > 0, "stream ended before any progress");
        got += (size_t)k;
        buf[got] = '\0';
    }
    ck_assert_msg(strstr(buf, "HTTP/1.1 200"), "stream head: %s", buf);
    ck_assert_msg(raw_metric(&s, "gridsolve_workers_busy ") == 1,
                  "the streamed solve is not on the worker");
    double t1 = gs_now_ms();
    close(fd);
    /* The main worker runs the stream's solve (streams skip the fast
     * lane): it must be idle again soon after the hang-up. */
    double freed = -1;
    while (gs_now_ms() - t1 < 2000) {
        if (raw_metric(&s, "gridsolve_workers_busy ") == 0) {
            freed = gs_now_ms() - t1;
            break;
        }
        gs_sleep_ms(2);
    }
    fprintf(stderr, "stream: worker free %.0f ms after the hang-up\n", freed);
    ck_assert_msg(freed >= 0, "worker still busy 2 s after the hang-up");
    ck_assert_msg(freed < itest_slack(200), "worker freed after %.0f ms",
                  freed);
    gs_resp r;
    itest_post_json(&s, "bloxorz", GS_SAMPLE_BLOXORZ_JSON, &r);
    cJSON_Delete(itest_solve_ok(&r, "bloxorz", "solved", 10, "UDLR"));
    gs_resp_free(&r);
    double n = raw_wait_metric(
        &s, "gridsolve_solves_total{puzzle=\"sokoban\",result=\"abandoned\"}",
        1, 2000);
    ck_assert_msg(n == 1, "abandoned stream counted %.0f times", n);
    free(req);
    free(body);
    ITEST_STOP(&s);
}
END_TEST

/* Opens a raw connection posting a slow solve (deadline 20 s, cancelled
 * when the socket is closed); returns the socket. */
static int post_slow_raw(const gs_srv *s)
{
    char *body = itest_slow_sokoban_json(",\"limits\":{\"timeout_ms\":20000}");
    char *req =
        raw_request("POST", "/solve/sokoban", "application/json", body, NULL);
    int fd = raw_connect(s, NULL);
    ck_assert_msg(fd >= 0 && raw_send_str(fd, req), "cannot post");
    free(req);
    free(body);
    return fd;
}

/* A stream refused for a full queue gets the plain 503 with Retry-After,
 * as a plain request would, not a 200 stream ending in a problem event:
 * streams skip the fast lane, which would have started them. */
START_TEST(stream_queue_full_plain_503)
{
    gs_srv s;
    ITEST_START(&s, "--workers", "1", "--queue", "1", NULL);
    int running = post_slow_raw(&s);
    ck_assert_msg(itest_wait_busy(&s, 1, 5000), "the solve never started");
    int queued = post_slow_raw(&s);
    ck_assert_msg(raw_wait_metric(&s, "gridsolve_queue_depth ", 1, 2000) == 1,
                  "a solve should wait for the worker");
    char *body = itest_slow_sokoban_json(NULL);
    gs_req q = {.method = "POST",
                .path = "/solve/sokoban",
                .content_type = "application/json",
                .body = body,
                .headers = {ACCEPT_SSE},
                .timeout_ms = 10000};
    gs_resp r;
    gs_http(&s, &q, &r);
    fprintf(stderr, "stream: full queue answered %ld in %.0f ms\n", r.status,
            r.wall_ms);
    cJSON_Delete(itest_problem(&r, 503, "unavailable", "/solve/sokoban"));
    ck_assert_msg(atoi(r.retry_after) >= 1, "503 with Retry-After '%s'",
                  r.retry_after);
    ck_assert_msg(r.wall_ms < itest_slack(2000), "503 after %.0f ms",
                  r.wall_ms);
    gs_resp_free(&r);
    free(body);
    close(queued);
    close(running);
    ITEST_STOP(&s);
}
END_TEST

/* Accept's q values choose between the stream and the plain answer
 * (RFC 9110 12.5.1): a client that prefers JSON, or text, gets it even
 * when it also lists the stream; a named stream wins a tie. */
START_TEST(stream_accept_q_values)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    const struct {
        const char *ctype, *body, *accept, *want;
    } cases[] = {
        {"application/json", GS_SAMPLE_BLOXORZ_JSON,
         "Accept: application/json, text/event-stream;q=0.1",
         "application/json"},
        {"application/json", GS_SAMPLE_BLOXORZ_JSON,
         "Accept: text/event-stream;q=0.5, application/json;q=0.9",
         "application/json"},
        {"application/json", GS_SAMPLE_BLOXORZ_JSON,
         "Accept: text/event-stream;q=0.5, */*;q=0.9", "application/json"},
        {"application/json", GS_SAMPLE_BLOXORZ_JSON,
         "Accept: text/event-stream;q=0", "application/json"},
        {"text/plain", GS_SAMPLE_BLOXORZ_IN,
         "Accept: text/plain, text/event-stream;q=0.3", "text/plain"},
        {"application/json", GS_SAMPLE_BLOXORZ_JSON,
         "Accept: application/json;q=0.5, text/event-stream;q=0.5",
         "text/event-stream"},
        {"text/plain", GS_SAMPLE_BLOXORZ_IN,
         "Accept: text/*;q=0.2, text/event-stream;q=0.4", "text/event-stream"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gs_req q = {.method = "POST",
                    .path = "/solve/bloxorz",
                    .content_type = cases[i].ctype,
                    .body = cases[i].body,
                    .headers = {cases[i].accept},
                    .timeout_ms = 10000};
        gs_resp r;
        gs_http(&s, &q, &r);
        ck_assert_int_eq(r.status, 200);
        ck_assert_msg(
            strncmp(r.content_type, cases[i].want, strlen(cases[i].want)) == 0,
            "%s: Content-Type '%s', want %s", cases[i].accept, r.content_type,
            cases[i].want);
        gs_resp_free(&r);
    }
    ITEST_STOP(&s);
}
END_TEST

Suite *gs_itest_stream_suite(void)
{
    Suite *s = suite_create("stream");
    TCase *tc = tcase_create("events");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, stream_progress_then_result);
    tcase_add_test(tc, stream_result_equals_plain);
    tcase_add_test(tc, stream_hangup_frees_worker);
    tcase_add_test(tc, stream_queue_full_plain_503);
    tcase_add_test(tc, stream_accept_q_values);
    suite_add_tcase(s, tc);
    return s;
}
