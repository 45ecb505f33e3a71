/* test_http.c - the service endpoints over HTTP: health, readiness, the
 * puzzle list, metrics, the OpenAPI document, routing errors (404, 405),
 * CORS and request ids. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <unistd.h>

#include "itest.h"
#include "raw.h"
#include "suites.h"
#include "../samples.h"

static const char *const all_puzzles[] = {"bloxorz", "wallpushers", "sokoban",
                                          "curling", "holedox"};

START_TEST(healthz_and_readyz)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    gs_get(&s, "/healthz", &r);
    ck_assert_int_eq(r.curl_rc, 0);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.content_type, "application/json");
    ck_assert_str_eq(r.body, "{\"status\":\"ok\"}\n");
    gs_resp_free(&r);
    gs_get(&s, "/readyz", &r);
    ck_assert_int_eq(r.curl_rc, 0);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.content_type, "application/json");
    ck_assert_str_eq(r.body, "{\"status\":\"ready\"}\n");
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(puzzles_lists_all_five)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    gs_get(&s, "/puzzles", &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_msg(strncmp(r.content_type, "application/json", 16) == 0,
                  "Content-Type '%s'", r.content_type);
    cJSON *j = gs_resp_json(&r);
    ck_assert_msg(j != NULL, "not JSON: %s", r.body);
    /* {"puzzles": [...]}, as openapi.yaml documents (PuzzleList). */
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(j, "puzzles");
    ck_assert_msg(cJSON_IsArray(list), "no puzzle array: %s", r.body);
    ck_assert_int_eq(cJSON_GetArraySize(list), 5);
    for (size_t i = 0; i < 5; i++) {
        const cJSON *found = NULL, *it;
        cJSON_ArrayForEach(it, list)
        {
            const char *name = itest_str(it, "name");
            if (name && strcmp(name, all_puzzles[i]) == 0)
                found = it;
        }
        ck_assert_msg(found, "%s is not listed", all_puzzles[i]);
        const char *desc = itest_str(found, "description");
        ck_assert_msg(desc && *desc, "%s has no description", all_puzzles[i]);
        ck_assert_msg(
            cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(found, "options")),
            "%s has no options object", all_puzzles[i]);
        ck_assert_msg(
            cJSON_IsObject(cJSON_GetObjectItemCaseSensitive(found, "example")),
            "%s has no example body", all_puzzles[i]);
    }
    cJSON_Delete(j);
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* Every puzzle's advertised example is a body its endpoint accepts. */
START_TEST(puzzles_examples_are_solvable)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    gs_get(&s, "/puzzles", &r);
    cJSON *j = gs_resp_json(&r);
    ck_assert_msg(j != NULL, "not JSON");
    const cJSON *list = cJSON_GetObjectItemCaseSensitive(j, "puzzles");
    const cJSON *it;
    cJSON_ArrayForEach(it, list)
    {
        const char *name = itest_str(it, "name");
        ck_assert_ptr_nonnull(name);
        char *ex = cJSON_PrintUnformatted(
            cJSON_GetObjectItemCaseSensitive(it, "example"));
        ck_assert_ptr_nonnull(ex);
        gs_resp sr;
        itest_post_json(&s, name, ex, &sr);
        ck_assert_msg(sr.status == 200, "%s example: HTTP %ld %s", name,
                      sr.status, sr.body ? sr.body : "");
        free(ex);
        gs_resp_free(&sr);
    }
    cJSON_Delete(j);
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* The metric families API.md promises, by the names openapi.yaml
 * documents. */
static const char *const metric_names[] = {
    "gridsolve_http_requests_total",
    "gridsolve_solves_total",
    "gridsolve_solve_duration_seconds",
    "gridsolve_states_expanded_total",
    "gridsolve_queue_depth",
    "gridsolve_workers_busy",
};

/* Asserts the metric sample starting with `prefix` grew by at least `by`
 * between two scrapes (a sample absent before counts as 0). */
static void assert_grew(const char *before, const char *after,
                        const char *prefix, double by)
{
    double a = itest_metric_sum(before, prefix);
    double b = itest_metric_sum(after, prefix);
    ck_assert_msg(b >= (a < 0 ? 0 : a) + by, "%s did not grow (%g -> %g)",
                  prefix, a, b);
}

START_TEST(metrics_documented_and_counting)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp before, solve, after;
    gs_get(&s, "/metrics", &before);
    ck_assert_int_eq(before.status, 200);
    ck_assert_msg(strncmp(before.content_type, "text/plain", 10) == 0,
                  "Content-Type '%s'", before.content_type);
    for (size_t i = 0; i < sizeof(metric_names) / sizeof(*metric_names); i++) {
        char want[128];
        snprintf(want, sizeof(want), "# TYPE %s ", metric_names[i]);
        ck_assert_msg(strstr(before.body, want),
                      "metrics lack a '%s' family:\n%s", want, before.body);
    }
    ck_assert_msg(strstr(before.body, "# TYPE gridsolve_solve_duration_seconds"
                                      " histogram"),
                  "solve latency is not a histogram");
    ck_assert_msg(strstr(before.body, "le=\"+Inf\""),
                  "latency histogram has no +Inf bucket");

    itest_post_json(&s, "bloxorz", GS_SAMPLE_BLOXORZ_JSON, &solve);
    ck_assert_int_eq(solve.status, 200);
    gs_get(&s, "/metrics", &after);
    ck_assert_int_eq(after.status, 200);

    /* Requests by puzzle and status code. */
    assert_grew(before.body, after.body,
                "gridsolve_http_requests_total{route=\"/solve/{puzzle}\","
                "puzzle=\"bloxorz\",code=\"200\"}",
                1);
    assert_grew(before.body, after.body,
                "gridsolve_solves_total{puzzle=\"bloxorz\","
                "result=\"solved\"}",
                1);
    assert_grew(before.body, after.body,
                "gridsolve_solve_duration_seconds_count{puzzle=\"bloxorz\"}",
                1);
    assert_grew(before.body, after.body,
                "gridsolve_states_expanded_total{puzzle=\"bloxorz\"}", 1);
    /* Idle again: nothing queued and, once the worker has finished its
     * bookkeeping (it may lag the response by a moment), no worker busy. */
    ck_assert_msg(itest_metric_sum(after.body, "gridsolve_queue_depth ") == 0,
                  "queue_depth not 0 when idle");
    double busy = itest_metric_sum(after.body, "gridsolve_workers_busy ");
    for (int i = 0; i < 50 && busy != 0; i++) {
        gs_resp m;
        gs_sleep_ms(20);
        gs_get(&s, "/metrics", &m);
        busy = itest_metric_sum(m.body, "gridsolve_workers_busy ");
        gs_resp_free(&m);
    }
    ck_assert_msg(busy == 0, "workers_busy %g when idle", busy);
    gs_resp_free(&before);
    gs_resp_free(&solve);
    gs_resp_free(&after);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(openapi_served)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    gs_get(&s, "/openapi.yaml", &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_ptr_nonnull(r.body);
    ck_assert_msg(strncmp(r.body, "openapi:", 8) == 0,
                  "document starts with '%.20s'", r.body);
    /* The document covers what the service really does. */
    static const char *const must[] = {"/solve/{puzzle}",
                                       "/puzzles",
                                       "/healthz",
                                       "/readyz",
                                       "/metrics",
                                       "/openapi.yaml",
                                       "text/plain",
                                       "application/problem+json",
                                       "X-Request-Id",
                                       "Retry-After",
                                       "Allow",
                                       "Access-Control-Allow-Origin",
                                       "timeout_ms",
                                       "max_states",
                                       GS_PROBLEM_BASE "bad-request",
                                       GS_PROBLEM_BASE "not-found",
                                       GS_PROBLEM_BASE "method-not-allowed",
                                       GS_PROBLEM_BASE "payload-too-large",
                                       GS_PROBLEM_BASE "unsupported-media-type",
                                       GS_PROBLEM_BASE "invalid-puzzle",
                                       GS_PROBLEM_BASE "unavailable",
                                       GS_PROBLEM_BASE "internal"};
    for (size_t i = 0; i < sizeof(must) / sizeof(*must); i++)
        ck_assert_msg(strstr(r.body, must[i]), "openapi.yaml lacks '%s'",
                      must[i]);
    for (size_t i = 0; i < 5; i++)
        ck_assert_msg(strstr(r.body, all_puzzles[i]),
                      "openapi.yaml lacks puzzle %s", all_puzzles[i]);
    for (size_t i = 0; i < sizeof(metric_names) / sizeof(*metric_names); i++)
        ck_assert_msg(strstr(r.body, metric_names[i]),
                      "openapi.yaml does not document metric %s",
                      metric_names[i]);
    ck_assert_msg(strstr(r.content_type, "yaml") ||
                      strncmp(r.content_type, "text/", 5) == 0,
                  "Content-Type '%s'", r.content_type);
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* GET / is the playground: one self-contained HTML page (web/). */
START_TEST(playground_served)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    gs_get(&s, "/", &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.content_type, "text/html; charset=utf-8");
    ck_assert_ptr_nonnull(r.body);
    ck_assert_msg(strncmp(r.body, "<!doctype html>", 15) == 0,
                  "page starts with '%.20s'", r.body);
    ck_assert_ptr_nonnull(strstr(r.body, "data-testid=\"puzzle-select\""));
    ck_assert_ptr_nonnull(strstr(r.body, "<script>"));
    /* Nothing is loaded from elsewhere: the page works offline. */
    ck_assert_ptr_null(strstr(r.body, "src=\"http"));
    ck_assert_ptr_null(strstr(r.body, "href=\"http"));
    gs_resp_free(&r);
    gs_post(&s, "/", "application/json", "{}", &r);
    ck_assert_int_eq(r.status, 405);
    ck_assert_str_eq(r.allow, "GET, HEAD, OPTIONS");
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(not_found)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    gs_post(&s, "/solve/nosuch", "application/json", "{}", &r);
    cJSON_Delete(itest_problem(&r, 404, "not-found", "/solve/nosuch"));
    gs_resp_free(&r);
    gs_get(&s, "/nope", &r);
    cJSON_Delete(itest_problem(&r, 404, "not-found", "/nope"));
    gs_resp_free(&r);
    gs_get(&s, "/solve", &r);
    ck_assert_int_eq(r.status, 404);
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(method_not_allowed)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    gs_get(&s, "/solve/bloxorz", &r);
    cJSON_Delete(
        itest_problem(&r, 405, "method-not-allowed", "/solve/bloxorz"));
    ck_assert_msg(strstr(r.allow, "POST"), "Allow '%s' lacks POST", r.allow);
    gs_resp_free(&r);

    gs_req put = {.method = "PUT",
                  .path = "/solve/bloxorz",
                  .content_type = "application/json",
                  .body = GS_SAMPLE_BLOXORZ_JSON};
    gs_http(&s, &put, &r);
    cJSON_Delete(
        itest_problem(&r, 405, "method-not-allowed", "/solve/bloxorz"));
    ck_assert_msg(strstr(r.allow, "POST"), "Allow '%s' lacks POST", r.allow);
    gs_resp_free(&r);

    gs_req del = {.method = "DELETE", .path = "/healthz"};
    gs_http(&s, &del, &r);
    cJSON_Delete(itest_problem(&r, 405, "method-not-allowed", "/healthz"));
    ck_assert_msg(strstr(r.allow, "GET"), "Allow '%s' lacks GET", r.allow);
    gs_resp_free(&r);

    gs_post(&s, "/puzzles", "application/json", "{}", &r);
    ck_assert_int_eq(r.status, 405);
    ck_assert_msg(strstr(r.allow, "GET"), "Allow '%s' lacks GET", r.allow);
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(cors_default_origin)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_req pre = {.method = "OPTIONS",
                  .path = "/solve/bloxorz",
                  .headers = {"Origin: https://app.example",
                              "Access-Control-Request-Method: POST",
                              "Access-Control-Request-Headers: content-type"}};
    gs_resp r;
    gs_http(&s, &pre, &r);
    ck_assert_int_eq(r.curl_rc, 0);
    ck_assert_msg(r.status == 204 || r.status == 200, "preflight HTTP %ld",
                  r.status);
    ck_assert_str_eq(r.cors_origin, "*");
    ck_assert_msg(strstr(r.cors_methods, "POST"),
                  "Access-Control-Allow-Methods '%s'", r.cors_methods);
    ck_assert_msg(itest_icontains(r.cors_headers, "content-type"),
                  "Access-Control-Allow-Headers '%s'", r.cors_headers);
    gs_resp_free(&r);

    /* Simple and error responses carry the origin header too. */
    gs_req get = {.path = "/healthz", .headers = {"Origin: https://a.b"}};
    gs_http(&s, &get, &r);
    ck_assert_str_eq(r.cors_origin, "*");
    gs_resp_free(&r);
    gs_req bad = {.method = "POST",
                  .path = "/solve/bloxorz",
                  .content_type = "application/json",
                  .body = "{",
                  .headers = {"Origin: https://a.b"}};
    gs_http(&s, &bad, &r);
    ck_assert_int_eq(r.status, 400);
    ck_assert_str_eq(r.cors_origin, "*");
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(cors_configured_origin)
{
    gs_srv s;
    ITEST_START(&s, "--cors-origin", "https://front.example", NULL);
    gs_req pre = {.method = "OPTIONS",
                  .path = "/solve/curling",
                  .headers = {"Origin: https://front.example",
                              "Access-Control-Request-Method: POST"}};
    gs_resp r;
    gs_http(&s, &pre, &r);
    ck_assert_msg(r.status == 204 || r.status == 200, "preflight HTTP %ld",
                  r.status);
    ck_assert_str_eq(r.cors_origin, "https://front.example");
    gs_resp_free(&r);
    gs_req get = {.path = "/puzzles",
                  .headers = {"Origin: https://front.example"}};
    gs_http(&s, &get, &r);
    ck_assert_str_eq(r.cors_origin, "https://front.example");
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* Answers on one keep-alive connection (the server reuses its response
 * objects there, per answer length): each answer is its own, whole, with
 * every header once, its own id and the client's id when it sent one,
 * whatever came before on the connection (other lengths, a 422). */
START_TEST(keep_alive_answers_are_each_their_own)
{
    static const struct {
        const char *path, *body, *id;
        int status, steps; /* steps -1: impossible */
    } q[] = {
        {"/solve/bloxorz", "{\"grid\":[\"######\",\"#X..O#\",\"######\"]}",
         NULL, 200, -2},
        {"/solve/bloxorz", "{\"grid\":[\"X.O\"]}", NULL, 200, -1},
        {"/solve/bloxorz", "{\"grid\":[\"######\",\"#X..O#\",\"######\"]}",
         "keep-1", 200, -2},
        {"/solve/bloxorz", "{\"grid\":[\"X.Q\"]}", NULL, 422, 0},
        {"/solve/bloxorz",
         "{\"grid\":[\"#######\",\"#..X###\",\"#..##O#\","
         "\"#....E#\",\"#....E#\",\"#.....#\",\"#######\"]}",
         NULL, 200, 10},
        {"/solve/bloxorz", "{\"grid\":[\"X.O\"]}", NULL, 200, -1},
        {"/solve/bloxorz",
         "{\"grid\":[\"#######\",\"#..X###\",\"#..##O#\","
         "\"#....E#\",\"#....E#\",\"#.....#\",\"#######\"]}",
         "keep-2", 200, 10},
    };
    gs_srv s;
    ITEST_START(&s, NULL);
    int fd = raw_connect(&s, NULL);
    ck_assert_msg(fd >= 0, "cannot connect");
    char ids[2][160] = {"", ""};
    for (size_t i = 0; i < sizeof q / sizeof *q; i++) {
        char extra[64] = "";
        if (q[i].id)
            snprintf(extra, sizeof extra, "X-Request-Id: %s\r\n", q[i].id);
        char *req = raw_request("POST", q[i].path, "application/json",
                                q[i].body, extra);
        ck_assert(raw_send_str(fd, req));
        free(req);
        char *got = raw_read_response(fd, 5000);
        ck_assert_msg(got, "answer %zu: none", i);
        ck_assert_msg(raw_status(got) == q[i].status, "answer %zu: status %d",
                      i, raw_status(got));
        ck_assert_msg(raw_count(got, "HTTP/1.") == 1, "answer %zu", i);
        static const char *const once[] = {
            "\r\nDate: ",
            "\r\nX-Request-Id: ",
            "\r\nAccess-Control-Allow-Origin: *\r\n",
            "\r\nAccess-Control-Expose-Headers: X-Request-Id, Retry-After\r\n",
            "\r\nCache-Control: no-store\r\n",
            "\r\nContent-Length: "};
        for (size_t k = 0; k < sizeof once / sizeof *once; k++)
            ck_assert_msg(raw_count(got, once[k]) == 1,
                          "answer %zu: %d x '%s' in:\n%s", i,
                          raw_count(got, once[k]), once[k] + 2, got);
        const char *id = strstr(got, "\r\nX-Request-Id: ") + 16;
        size_t idn = strcspn(id, "\r");
        ck_assert_uint_lt(idn, sizeof ids[0]);
        if (q[i].id)
            ck_assert_msg(idn == strlen(q[i].id) &&
                              strncmp(id, q[i].id, idn) == 0,
                          "answer %zu: id %.*s", i, (int)idn, id);
        else /* a generated id differs from the one before */
            ck_assert_msg(strncmp(id, ids[(i + 1) % 2], idn) != 0 ||
                              strlen(ids[(i + 1) % 2]) != idn,
                          "answer %zu: id %.*s again", i, (int)idn, id);
        snprintf(ids[i % 2], sizeof ids[0], "%.*s", (int)idn, id);
        const char *json = strstr(got, "\r\n\r\n") + 4;
        cJSON *doc = cJSON_Parse(json);
        ck_assert_msg(doc, "answer %zu: body %s", i, json);
        if (q[i].status == 200) {
            ck_assert_msg(raw_count(got, "Content-Type: application/json\r") ==
                              1,
                          "answer %zu", i);
            const cJSON *st = cJSON_GetObjectItem(doc, "status");
            const cJSON *steps = cJSON_GetObjectItem(doc, "steps");
            if (q[i].steps == -1)
                ck_assert_str_eq(st->valuestring, "impossible");
            else
                ck_assert_str_eq(st->valuestring, "solved");
            if (q[i].steps >= 0)
                ck_assert_int_eq(steps->valueint, q[i].steps);
        }
        cJSON_Delete(doc);
        free(got);
    }
    close(fd);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(request_id_echoed_and_generated)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    gs_req echo = {.path = "/healthz",
                   .headers = {"X-Request-Id: itest-7f3a-0001"}};
    gs_http(&s, &echo, &r);
    ck_assert_str_eq(r.request_id, "itest-7f3a-0001");
    gs_resp_free(&r);

    /* Echoed on errors and solves as well. */
    gs_req err = {.method = "POST",
                  .path = "/solve/nosuch",
                  .content_type = "application/json",
                  .body = "{}",
                  .headers = {"X-Request-Id: itest-err-2"}};
    gs_http(&s, &err, &r);
    ck_assert_int_eq(r.status, 404);
    ck_assert_str_eq(r.request_id, "itest-err-2");
    gs_resp_free(&r);
    gs_req solve = {.method = "POST",
                    .path = "/solve/bloxorz",
                    .content_type = "application/json",
                    .body = GS_SAMPLE_BLOXORZ_JSON,
                    .headers = {"X-Request-Id: itest-solve-3"}};
    gs_http(&s, &solve, &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.request_id, "itest-solve-3");
    gs_resp_free(&r);

    gs_resp a, b;
    gs_get(&s, "/healthz", &a);
    gs_get(&s, "/healthz", &b);
    ck_assert_msg(a.request_id[0] && b.request_id[0],
                  "no generated X-Request-Id");
    ck_assert_str_ne(a.request_id, b.request_id);
    gs_resp_free(&a);
    gs_resp_free(&b);
    ITEST_STOP(&s);
}
END_TEST

/* raw_exchange, which must answer. */
static char *exchange(const gs_srv *s, const char *req)
{
    char *got = raw_exchange(s, req);
    ck_assert_ptr_nonnull(got);
    return got;
}

/* RFC 9112 3.2.2: a server MUST accept a target in absolute-form, as a
 * client that takes the service for its proxy sends it. */
START_TEST(absolute_form_target)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    char *req = raw_request("POST", "http://127.0.0.1/solve/bloxorz",
                            "application/json", GS_SAMPLE_BLOXORZ_JSON, NULL);
    ck_assert_ptr_nonnull(req);
    char *got = exchange(&s, req);
    ck_assert_msg(raw_status(got) == 200 && strstr(got, "\"solved\""),
                  "absolute-form solve: %s", got);
    free(got);
    free(req);
    got = exchange(&s, "GET HTTP://example.test:8080/healthz HTTP/1.1\r\n"
                       "Host: example.test\r\n\r\n");
    ck_assert_msg(raw_status(got) == 200, "absolute-form GET: %s", got);
    free(got);
    ITEST_STOP(&s);
}
END_TEST

/* RFC 9110 9.3.7: OPTIONS * asks what the server supports: 204 with
 * Allow, not a 404. */
START_TEST(options_asterisk)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    char *got = exchange(&s, "OPTIONS * HTTP/1.1\r\nHost: x\r\n\r\n");
    ck_assert_msg(raw_status(got) == 204 &&
                      itest_icontains(got, "Allow: GET, HEAD, POST, OPTIONS"),
                  "OPTIONS *: %s", got);
    free(got);
    ITEST_STOP(&s);
}
END_TEST

/* A repeated query option is a 400 whichever copy is bad: the server
 * took the first, and a filter in front may have checked the last. */
START_TEST(repeated_query_refused)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    const char *paths[] = {"/solve/bloxorz?timeout_ms=5&timeout_ms=abc",
                           "/solve/bloxorz?max_states=9&timeout_ms=5&"
                           "max_states=100"};
    for (int i = 0; i < 2; i++) {
        char *req = raw_request("POST", paths[i], "text/plain",
                                GS_SAMPLE_BLOXORZ_IN, NULL);
        ck_assert_ptr_nonnull(req);
        char *got = exchange(&s, req);
        ck_assert_msg(raw_status(got) == 400 && strstr(got, "repeated"),
                      "%s: %s", paths[i], got);
        free(got);
        free(req);
    }
    ITEST_STOP(&s);
}
END_TEST

/* A percent-encoded NUL does not end the path: /healthz%00/x is not
 * /healthz (a filter in front saw another path), while other escapes
 * still decode (blox%6Frz is bloxorz). */
START_TEST(percent_nul_not_truncated)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    const struct {
        const char *method, *path;
        int want;
    } cases[] = {{"GET", "/healthz%00/secret", 404},
                 {"GET", "/metrics%00", 404},
                 {"POST", "/solve/bloxorz%00.json", 404},
                 {"POST", "/solve/blox%6Frz", 200}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        bool post = cases[i].method[0] == 'P';
        char *req = raw_request(cases[i].method, cases[i].path,
                                post ? "application/json" : NULL,
                                post ? GS_SAMPLE_BLOXORZ_JSON : NULL, NULL);
        ck_assert_ptr_nonnull(req);
        char *got = exchange(&s, req);
        ck_assert_msg(raw_status(got) == cases[i].want, "%s %s: %s",
                      cases[i].method, cases[i].path, got);
        free(got);
        free(req);
    }
    ITEST_STOP(&s);
}
END_TEST

/* Bodies are read as UTF-8: a declared charset other than UTF-8 or
 * US-ASCII is a 415, not a 400 or 422 about misread content; the media
 * type and charset match in any case, quoted or not. */
START_TEST(charset_other_than_utf8_is_415)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    const struct {
        const char *ctype, *body;
        int want;
    } cases[] = {
        {"text/plain; charset=utf-16", GS_SAMPLE_BLOXORZ_IN, 415},
        {"application/json; charset=iso-8859-15", GS_SAMPLE_BLOXORZ_JSON, 415},
        {"Application/JSON; charset=UTF-8", GS_SAMPLE_BLOXORZ_JSON, 200},
        {"application/json;charset=\"utf-8\"", GS_SAMPLE_BLOXORZ_JSON, 200},
        {"text/plain; charset=us-ascii", GS_SAMPLE_BLOXORZ_IN, 200},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char *req = raw_request("POST", "/solve/bloxorz", cases[i].ctype,
                                cases[i].body, NULL);
        ck_assert_ptr_nonnull(req);
        char *got = exchange(&s, req);
        ck_assert_msg(
            raw_status(got) == cases[i].want &&
                (cases[i].want == 200 || strstr(got, "unsupported charset")),
            "%s: %s", cases[i].ctype, got);
        free(got);
        free(req);
    }
    ITEST_STOP(&s);
}
END_TEST

/* The Content-Length of a HEAD answer is the GET's (RFC 9110 9.3.2),
 * errors included: a 404 or 405 whose detail names the method. */
START_TEST(head_error_length_is_gets)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    const char *paths[] = {"/nope", "/solve/bloxorz", "/solve/chess"};
    for (size_t i = 0; i < sizeof paths / sizeof *paths; i++) {
        char *len[2];
        for (int head = 0; head < 2; head++) {
            char *req = raw_request(head ? "HEAD" : "GET", paths[i], NULL, NULL,
                                    "Connection: close\r\n");
            ck_assert_ptr_nonnull(req);
            enum raw_end end;
            char *got = raw_exchange_all(&s, req, &end);
            ck_assert_ptr_nonnull(got);
            char *cl = strstr(got, "Content-Length: ");
            ck_assert_msg(cl, "%s: no Content-Length: %s", paths[i], got);
            len[head] = strndup(cl, strcspn(cl, "\r"));
            ck_assert_ptr_nonnull(len[head]);
            free(got);
            free(req);
        }
        ck_assert_msg(strcmp(len[0], len[1]) == 0, "%s: GET %s, HEAD %s",
                      paths[i], len[0], len[1]);
        free(len[0]);
        free(len[1]);
    }
    ITEST_STOP(&s);
}
END_TEST

Suite *gs_itest_http_suite(void)
{
    Suite *s = suite_create("http");
    TCase *tc = tcase_create("endpoints");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, healthz_and_readyz);
    tcase_add_test(tc, puzzles_lists_all_five);
    tcase_add_test(tc, puzzles_examples_are_solvable);
    tcase_add_test(tc, metrics_documented_and_counting);
    tcase_add_test(tc, openapi_served);
    tcase_add_test(tc, playground_served);
    suite_add_tcase(s, tc);

    tc = tcase_create("routing");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, not_found);
    tcase_add_test(tc, method_not_allowed);
    tcase_add_test(tc, cors_default_origin);
    tcase_add_test(tc, cors_configured_origin);
    tcase_add_test(tc, request_id_echoed_and_generated);
    tcase_add_test(tc, keep_alive_answers_are_each_their_own);
    tcase_add_test(tc, absolute_form_target);
    tcase_add_test(tc, options_asterisk);
    tcase_add_test(tc, repeated_query_refused);
    tcase_add_test(tc, percent_nul_not_truncated);
    tcase_add_test(tc, charset_other_than_utf8_is_415);
    tcase_add_test(tc, head_error_length_is_gets);
    suite_add_tcase(s, tc);
    return s;
}
