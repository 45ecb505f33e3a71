/* test_service.c - unit tests for the request-level logic: JSON and judge
 * text modes over a fake puzzle, limit clamping, error details, /puzzles
 * and problem documents. */
#include <stdlib.h>
#include <string.h>

#include "gridsolve/json.h"
#include "gridsolve/service.h"
#include "suites.h"

/* The fake puzzle: {"n": N} or judge text "N" per case (0 ends); the
 * solution is N times 'R'; N < 0 is impossible; N == 99 hits a limit. */
static gs_limits seen_limits;

static int fake_parse_json(const cJSON *body, const gs_caps *caps, void **inst,
                           gs_error *err)
{
    long n = 0;
    int rc = gs_json_int(body, "n", true, -5, 100, &n, err);
    if (rc)
        return rc;
    long *p = malloc(sizeof *p);
    if (!p)
        return GS_ENOMEM;
    *p = n;
    *inst = p;
    return GS_OK;
}

static int fake_parse_text(gs_text *in, const gs_caps *caps, void **inst,
                           gs_error *err)
{
    long n;
    int rc = gs_text_int(in, &n, "n", err);
    if (rc <= 0)
        return rc;
    if (n == 0)
        return 0;
    long *p = malloc(sizeof *p);
    if (!p)
        return GS_ENOMEM;
    *p = n;
    *inst = p;
    return 1;
}

static void fake_format(const void *inst, const gs_result *res, int index,
                        gs_buf *out)
{
    if (res->status == GS_SOLVED)
        gs_buf_printf(out, "%d:%zu\n", index, res->steps);
    else
        gs_buf_printf(out, "%d:%s\n", index,
                      res->status == GS_LIMIT ? "limit" : "-1");
}

static int fake_solve(void *inst, const gs_limits *lim, gs_result *res,
                      gs_error *err)
{
    long n = *(long *)inst;
    seen_limits = *lim;
    if (n == 99) {
        res->status = GS_LIMIT;
        res->limit = GS_LIMIT_STATES;
        return GS_OK;
    }
    if (n < 0) {
        res->status = GS_IMPOSSIBLE;
        return GS_OK;
    }
    res->moves = malloc((size_t)n + 1);
    if (!res->moves)
        return GS_ENOMEM;
    memset(res->moves, 'R', (size_t)n);
    res->moves[n] = '\0';
    res->steps = (size_t)n;
    res->status = GS_SOLVED;
    res->optimal = true;
    res->expanded = 7;
    return GS_OK;
}

static const gs_puzzle fake = {
    .name = "fake",
    .summary = "a test double",
    .options = "{}",
    .example = "{\"n\": 2}",
    .parse_json = fake_parse_json,
    .parse_text = fake_parse_text,
    .format_text = fake_format,
    .solve = fake_solve,
    .free = free,
};

/* Runs JSON mode on body; returns rc and leaves the response in *doc. */
static int run_json(const char *body, cJSON **doc, gs_error *err)
{
    gs_solve_opts o;
    gs_solve_opts_default(&o);
    o.max_timeout_ms = 1000;
    o.max_states_limit = 500;
    gs_buf out = GS_BUF_INIT;
    int rc = gs_service_json(&fake, body, strlen(body), &o, &out, NULL, err);
    *doc = rc ? NULL : cJSON_Parse(out.data);
    gs_buf_free(&out);
    return rc;
}

START_TEST(json_solved_response)
{
    cJSON *d;
    gs_error err = {0};
    ck_assert_int_eq(run_json("{\"n\": 3}", &d, &err), GS_OK);
    ck_assert_ptr_nonnull(d);
    ck_assert_str_eq(cJSON_GetObjectItem(d, "puzzle")->valuestring, "fake");
    ck_assert_str_eq(cJSON_GetObjectItem(d, "status")->valuestring, "solved");
    ck_assert_int_eq(cJSON_GetObjectItem(d, "steps")->valueint, 3);
    ck_assert_str_eq(cJSON_GetObjectItem(d, "moves")->valuestring, "RRR");
    ck_assert(cJSON_IsTrue(cJSON_GetObjectItem(d, "optimal")));
    ck_assert_ptr_null(cJSON_GetObjectItem(d, "pushes"));
    cJSON *st = cJSON_GetObjectItem(d, "stats");
    ck_assert_int_eq(cJSON_GetObjectItem(st, "expanded")->valueint, 7);
    ck_assert(cJSON_IsNumber(cJSON_GetObjectItem(st, "elapsed_ms")));
    cJSON_Delete(d);
}
END_TEST

START_TEST(json_impossible_and_limit)
{
    cJSON *d;
    gs_error err = {0};
    ck_assert_int_eq(run_json("{\"n\": -1}", &d, &err), GS_OK);
    ck_assert_str_eq(cJSON_GetObjectItem(d, "status")->valuestring,
                     "impossible");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(d, "steps")));
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(d, "moves")));
    ck_assert(cJSON_IsFalse(cJSON_GetObjectItem(d, "optimal")));
    cJSON_Delete(d);
    ck_assert_int_eq(run_json("{\"n\": 99}", &d, &err), GS_OK);
    ck_assert_str_eq(cJSON_GetObjectItem(d, "status")->valuestring, "limit");
    ck_assert_str_eq(cJSON_GetObjectItem(d, "limit")->valuestring, "states");
    cJSON_Delete(d);
}
END_TEST

START_TEST(json_limits_are_clamped)
{
    cJSON *d;
    gs_error err = {0};
    int64_t before = gs_now_ns();
    ck_assert_int_eq(run_json("{\"n\": 1, \"limits\": {\"timeout_ms\": 1e9, "
                              "\"max_states\": 100000}}",
                              &d, &err),
                     GS_OK);
    cJSON_Delete(d);
    ck_assert_uint_eq(seen_limits.max_states, 500);
    ck_assert_int_le(seen_limits.deadline_ns - before, 1100 * 1000000LL);
    ck_assert_int_eq(
        run_json("{\"n\": 1, \"limits\": {\"max_states\": 20}}", &d, &err),
        GS_OK);
    cJSON_Delete(d);
    ck_assert_uint_eq(seen_limits.max_states, 20);
}
END_TEST

START_TEST(json_errors_are_precise)
{
    cJSON *d;
    gs_error err = {0};
    ck_assert_int_eq(run_json("{\"n\": 1,\n  oops}", &d, &err), GS_EBADREQ);
    ck_assert_ptr_nonnull(
        strstr(err.detail, "body is not valid JSON (line 2, "));
    ck_assert_int_eq(run_json("[1]", &d, &err), GS_EBADREQ);
    ck_assert_str_eq(err.detail, "body must be a JSON object");
    ck_assert_int_eq(run_json("{\"n\": 1} x", &d, &err), GS_EBADREQ);
    ck_assert_int_eq(run_json("{}", &d, &err), GS_EBADREQ);
    ck_assert_str_eq(err.detail, "missing required field \"n\"");
    ck_assert_int_eq(run_json("{\"n\": \"2\"}", &d, &err), GS_EBADREQ);
    ck_assert_int_eq(run_json("{\"n\": 1, \"limits\": 5}", &d, &err),
                     GS_EBADREQ);
    ck_assert_str_eq(err.detail, "field \"limits\" must be an object");
    ck_assert_int_eq(
        run_json("{\"n\": 1, \"limits\": {\"timeout_ms\": \"x\"}}", &d, &err),
        GS_EBADREQ);
    ck_assert_int_eq(
        run_json("{\"n\": 1, \"limits\": {\"max_states\": 0}}", &d, &err),
        GS_EINVALID);
    ck_assert_int_eq(
        run_json("{\"n\": 1, \"limits\": {\"timeout\": 5}}", &d, &err),
        GS_EBADREQ);
    ck_assert_str_eq(err.detail, "unknown field \"limits.timeout\"; did you "
                                 "mean \"limits.timeout_ms\"?");
    ck_assert_int_eq(run_json("{\"n\": 101}", &d, &err), GS_EINVALID);
    ck_assert_int_eq(run_json("", &d, &err), GS_EBADREQ);
}
END_TEST

START_TEST(text_mode_all_cases)
{
    gs_solve_opts o;
    gs_solve_opts_default(&o);
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    gs_solve_info info;
    const char *in = "2\n-1\n\n99 5\n0\n7\n";
    ck_assert_int_eq(
        gs_service_text(&fake, in, strlen(in), &o, -1, 3, &out, &info, &err),
        GS_OK);
    ck_assert_str_eq(out.data, "1:2\n2:-1\n3:limit\n4:5\n");
    ck_assert_uint_eq(seen_limits.max_states, 3);
    ck_assert_uint_eq(info.expanded, 14);
    gs_buf_free(&out);
}
END_TEST

START_TEST(text_mode_error_names_case)
{
    gs_solve_opts o;
    gs_solve_opts_default(&o);
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    const char *in = "2\nx\n";
    ck_assert_int_eq(
        gs_service_text(&fake, in, strlen(in), &o, -1, -1, &out, NULL, &err),
        GS_EINVALID);
    ck_assert_str_eq(err.detail, "case 2: line 2: expected an integer (n)");
    ck_assert_uint_eq(out.len, 0);
    gs_buf_free(&out);
}
END_TEST

START_TEST(puzzles_document_lists_registry)
{
    gs_buf out = GS_BUF_INIT;
    ck_assert_int_eq(gs_service_puzzles_json(&out), GS_OK);
    cJSON *d = cJSON_Parse(out.data);
    ck_assert_ptr_nonnull(d);
    cJSON *arr = cJSON_GetObjectItem(d, "puzzles");
    ck_assert_int_eq(cJSON_GetArraySize(arr), (int)gs_puzzle_count);
    const char *names[] = {"bloxorz", "wallpushers", "sokoban", "curling",
                           "holedox"};
    for (size_t i = 0; i < 5; i++) {
        ck_assert_ptr_nonnull(gs_puzzle_find(names[i], strlen(names[i])));
        cJSON *p = cJSON_GetArrayItem(arr, (int)i);
        ck_assert_str_eq(cJSON_GetObjectItem(p, "name")->valuestring,
                         gs_puzzles[i]->name);
        ck_assert(cJSON_IsObject(cJSON_GetObjectItem(p, "example")));
        ck_assert(cJSON_IsObject(cJSON_GetObjectItem(p, "options")));
    }
    ck_assert_ptr_null(gs_puzzle_find("chess", 5));
    cJSON_Delete(d);
    gs_buf_free(&out);
}
END_TEST

START_TEST(problem_document_fields)
{
    gs_buf out = GS_BUF_INIT;
    gs_error err;
    gs_error_set(&err, GS_EINVALID, "grid row 3 has 6 cells, expected 7");
    gs_service_problem_json(&err, 422, "/solve/bloxorz", &out);
    cJSON *d = cJSON_Parse(out.data);
    ck_assert_str_eq(cJSON_GetObjectItem(d, "type")->valuestring,
                     "https://gridsolve.dev/problems/invalid-puzzle");
    ck_assert_str_eq(cJSON_GetObjectItem(d, "title")->valuestring,
                     "Invalid puzzle");
    ck_assert_int_eq(cJSON_GetObjectItem(d, "status")->valueint, 422);
    ck_assert_str_eq(cJSON_GetObjectItem(d, "detail")->valuestring,
                     "grid row 3 has 6 cells, expected 7");
    ck_assert_str_eq(cJSON_GetObjectItem(d, "instance")->valuestring,
                     "/solve/bloxorz");
    cJSON_Delete(d);
    gs_buf_free(&out);
}
END_TEST

Suite *gs_test_service_suite(void)
{
    Suite *s = suite_create("service");
    TCase *tc = tcase_create("service");
    tcase_add_test(tc, json_solved_response);
    tcase_add_test(tc, json_impossible_and_limit);
    tcase_add_test(tc, json_limits_are_clamped);
    tcase_add_test(tc, json_errors_are_precise);
    tcase_add_test(tc, text_mode_all_cases);
    tcase_add_test(tc, text_mode_error_names_case);
    tcase_add_test(tc, puzzles_document_lists_registry);
    tcase_add_test(tc, problem_document_fields);
    suite_add_tcase(s, tc);
    return s;
}
