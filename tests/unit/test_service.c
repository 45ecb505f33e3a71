/* test_service.c - unit tests for the request-level logic: JSON and judge
 * text modes over a fake puzzle, limit clamping, error details, /puzzles
 * and problem documents. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/json.h"
#include "gridsolve/mem.h"
#include "gridsolve/service.h"
#include "suites.h"

/* The fake puzzle: {"n": N} or judge text "N" per case (0 ends); the
 * solution is N times 'R'; N < 0 is impossible; N == 99 hits a limit;
 * N == 98 first needs a 1 MiB table from the memory budget; N == 97 fails
 * with GS_ENOMEM as if malloc had failed; N == 96 needs 1000 states (a
 * lower cap: limit "states"); N == 95 needs 100 ms (a nearer deadline:
 * limit "time", without waiting for it). */
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
    if (n == 97)
        return gs_error_set(err, GS_ENOMEM, "out of memory");
    if (n == 96 && lim->max_states && lim->max_states < 1000) {
        res->status = GS_LIMIT;
        res->limit = GS_LIMIT_STATES;
        return GS_OK;
    }
    if (n == 95 && lim->deadline_ns &&
        lim->deadline_ns - gs_now_ns() < 100 * 1000000LL) {
        res->status = GS_LIMIT;
        res->limit = GS_LIMIT_TIME;
        return GS_OK;
    }
    if (n == 98) {
        void *table = gs_mem_malloc(1 << 20);
        if (!table)
            return gs_error_set(err, GS_ENOMEM, "out of memory");
        gs_mem_free(table);
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
static int run_json_len(const char *body, size_t len, cJSON **doc,
                        gs_error *err)
{
    gs_solve_opts o;
    gs_solve_opts_default(&o);
    o.max_timeout_ms = 1000;
    o.max_states_limit = 500;
    gs_buf out = GS_BUF_INIT;
    int rc = gs_service_json(&fake, body, len, &o, &out, NULL, err);
    *doc = rc ? NULL : cJSON_Parse(out.data);
    gs_buf_free(&out);
    return rc;
}

static int run_json(const char *body, cJSON **doc, gs_error *err)
{
    return run_json_len(body, strlen(body), doc, err);
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
    /* 1e400 reads as infinity: a huge timeout, clamped like 1e9. */
    before = gs_now_ns();
    ck_assert_int_eq(
        run_json("{\"n\": 1, \"limits\": {\"timeout_ms\": 1e400}}", &d, &err),
        GS_OK);
    cJSON_Delete(d);
    ck_assert_int_gt(seen_limits.deadline_ns, before);
    ck_assert_int_le(seen_limits.deadline_ns - before, 1100 * 1000000LL);
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
    /* JSON allows only space, tab, CR and LF after the document. */
    ck_assert_int_eq(run_json_len("{\"n\": 1}\n\0", 10, &d, &err), GS_EBADREQ);
    ck_assert_str_eq(err.detail, "body is not valid JSON: trailing data");
    ck_assert_int_eq(run_json_len("{\"n\": 1} \r\n", 11, &d, &err), GS_OK);
    cJSON_Delete(d);
    /* A \u0000 would cut a C string short: refused wherever it is; an
     * escaped backslash before "u0000" is plain text. */
    ck_assert_int_eq(run_json("{\"n\": 1,\n \"s\": \"a\\u0000b\"}", &d, &err),
                     GS_EINVALID);
    ck_assert_str_eq(err.detail, "\\u0000 (a NUL character) at line 2, "
                                 "column 9: no field takes one");
    ck_assert_int_eq(run_json("{\"n\": 1, \"s\": \"a\\\\u0000\"}", &d, &err),
                     GS_OK);
    cJSON_Delete(d);
    ck_assert_int_eq(
        run_json("{\"n\": 1, \"limits\": {\"timeout_ms\": -1}}", &d, &err),
        GS_EINVALID);
    ck_assert_str_eq(err.detail, "field \"limits.timeout_ms\" must be >= 0");
    ck_assert_int_eq(run_json("{}", &d, &err), GS_EBADREQ);
    ck_assert_str_eq(err.detail, "missing required field \"n\"");
    ck_assert_int_eq(run_json("{\"n\": \"2\"}", &d, &err), GS_EBADREQ);
    ck_assert_int_eq(run_json("{\"n\": 1, \"limits\": 5}", &d, &err),
                     GS_EBADREQ);
    ck_assert_str_eq(err.detail, "field \"limits\" must be an object");
    /* null is the wrong type too, as for every other field. */
    ck_assert_int_eq(run_json("{\"n\": 1, \"limits\": null}", &d, &err),
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
    ck_assert_str_eq(err.detail,
                     "case 2: line 2: expected an integer (n), found 'x'");
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

/* Parses the problem document `text` and checks its five fields (type
 * after the base address); frees it. */
static void check_problem(const char *text, const char *kind, const char *title,
                          int status, const char *detail, const char *instance)
{
    char type[128];
    snprintf(type, sizeof type, "https://gridsolve.dev/problems/%s", kind);
    cJSON *d = cJSON_Parse(text);
    ck_assert_ptr_nonnull(d);
    ck_assert_str_eq(cJSON_GetObjectItem(d, "type")->valuestring, type);
    ck_assert_str_eq(cJSON_GetObjectItem(d, "title")->valuestring, title);
    ck_assert_int_eq(cJSON_GetObjectItem(d, "status")->valueint, status);
    ck_assert_str_eq(cJSON_GetObjectItem(d, "detail")->valuestring, detail);
    ck_assert_str_eq(cJSON_GetObjectItem(d, "instance")->valuestring, instance);
    cJSON_Delete(d);
}

START_TEST(problem_document_fields)
{
    gs_buf out = GS_BUF_INIT;
    gs_error err;
    gs_error_set(&err, GS_EINVALID, "grid row 3 has 6 cells, expected 7");
    gs_service_problem_json(&err, 422, "/solve/bloxorz", &out);
    check_problem(out.data, "invalid-puzzle", "Invalid puzzle", 422,
                  "grid row 3 has 6 cells, expected 7", "/solve/bloxorz");
    gs_buf_free(&out);
}
END_TEST

START_TEST(problem_fallback_document)
{
    /* The document written without allocating: the same fields, the
     * detail and instance escaped into printable ASCII. */
    char buf[GS_PROBLEM_FALLBACK_MAX];
    gs_error err;
    gs_error_set(&err, GS_EINVALID, "row 2: \"x\" \\ \x01 caf\xc3\xa9");
    size_t n = gs_service_problem_fallback(&err, 503, "/solve/so\"ko\\ban", buf,
                                           sizeof buf);
    ck_assert_uint_eq(n, strlen(buf));
    check_problem(buf, "unavailable", "Service unavailable", 503,
                  "row 2: \"x\" \\ ? caf??", "/solve/so\"ko\\ban");

    /* Without an error the detail is the title; a long instance is cut
     * (at 160 bytes escaped: 80 quotes) and the document stays whole. */
    char path[2000];
    memset(path, '"', sizeof path - 1);
    path[sizeof path - 1] = '\0';
    n = gs_service_problem_fallback(NULL, 422, path, buf, sizeof buf);
    ck_assert_uint_lt(n, sizeof buf);
    cJSON *d = cJSON_Parse(buf);
    ck_assert_ptr_nonnull(d);
    ck_assert_str_eq(cJSON_GetObjectItem(d, "detail")->valuestring,
                     "Invalid puzzle");
    ck_assert_uint_eq(strlen(cJSON_GetObjectItem(d, "instance")->valuestring),
                      80);
    cJSON_Delete(d);
}
END_TEST

/* ---- the process memory budget ---------------------------------------- */

/* A budget that leaves `room` bytes free now. */
static void budget_room(uint64_t room)
{
    gs_mem_set_budget(gs_mem_used() + room);
}

/* {"n": 1, "pad": [0, 0, ...]}: a valid body whose tree takes about
 * 64 bytes per pad element. */
static char *padded_body(size_t pad)
{
    char *b = malloc(32 + 2 * pad);
    ck_assert_ptr_nonnull(b);
    size_t i = (size_t)sprintf(b, "{\"n\": 1, \"pad\": [");
    for (size_t k = 0; k < pad; k++)
        i += (size_t)sprintf(b + i, k ? ",0" : "0");
    strcpy(b + i, "]}");
    return b;
}

/* A JSON tree the budget cannot hold: 503 (retry later), not a 400 and
 * not a crash; the same body fits once memory is free, and every byte
 * reserved on the way is given back. */
START_TEST(budget_refused_parse_is_503)
{
    uint64_t used0 = gs_mem_used();
    char *body = padded_body(2000);
    cJSON *d;
    gs_error err = {0};

    gs_mem_install_cjson_hooks();
    budget_room(4096);
    ck_assert_int_eq(run_json(body, &d, &err), GS_EBUSY);
    ck_assert_int_eq(gs_error_http_status(GS_EBUSY), 503);
    ck_assert_msg(strstr(err.detail, "retry later"), "%s", err.detail);
    ck_assert_uint_eq(gs_mem_used(), used0);
    /* A syntax error under the same budget is still the client's: 400. */
    ck_assert_int_eq(run_json("{\"n\": ", &d, &err), GS_EBADREQ);

    gs_mem_set_budget(0);
    ck_assert_int_eq(run_json(body, &d, &err), GS_OK);
    ck_assert_str_eq(cJSON_GetObjectItem(d, "status")->valuestring, "solved");
    cJSON_Delete(d);
    cJSON_InitHooks(NULL);
    ck_assert_uint_eq(gs_mem_used(), used0);
    free(body);
}
END_TEST

/* A solve whose own tables the budget refuses answers 200 `limit` with
 * "limit": "memory"; an allocation failure the budget did not cause
 * stays an internal error. */
START_TEST(budget_refused_solve_is_limit_memory)
{
    cJSON *d;
    gs_error err = {0};

    budget_room(64 * 1024);
    ck_assert_int_eq(run_json("{\"n\": 98}", &d, &err), GS_OK);
    ck_assert_str_eq(cJSON_GetObjectItem(d, "status")->valuestring, "limit");
    ck_assert_str_eq(cJSON_GetObjectItem(d, "limit")->valuestring, "memory");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(d, "moves")));
    cJSON_Delete(d);
    ck_assert_int_eq(run_json("{\"n\": 97}", &d, &err), GS_ENOMEM);

    gs_mem_set_budget(0);
    ck_assert_int_eq(run_json("{\"n\": 98}", &d, &err), GS_OK);
    ck_assert_str_eq(cJSON_GetObjectItem(d, "status")->valuestring, "solved");
    cJSON_Delete(d);
}
END_TEST

/* Judge text: the case that runs out prints `limit`, the others solve. */
START_TEST(budget_refused_text_case_is_limit)
{
    const char in[] = "2\n98\n1\n0\n";
    gs_solve_opts o;
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};

    gs_solve_opts_default(&o);
    budget_room(64 * 1024);
    ck_assert_int_eq(
        gs_service_text(&fake, in, strlen(in), &o, -1, -1, &out, NULL, &err),
        GS_OK);
    gs_mem_set_budget(0);
    ck_assert_str_eq(out.data, "1:2\n2:limit\n3:1\n");
    gs_buf_free(&out);
}
END_TEST

/* A real solver: the state store of a 300 x 300 bloxorz board (about
 * 270 KB) does not fit a 64 KB budget. */
START_TEST(budget_refused_search_store)
{
    const gs_puzzle *p = gs_puzzle_find("bloxorz", 7);
    enum { N = 300 };
    gs_buf body = GS_BUF_INIT;
    gs_solve_opts o;
    gs_error err = {0};
    gs_buf out = GS_BUF_INIT;

    ck_assert_ptr_nonnull(p);
    gs_buf_puts(&body, "{\"grid\": [");
    for (int r = 0; r < N; r++) {
        gs_buf_puts(&body, r ? ",\"" : "\"");
        for (int c = 0; c < N; c++) {
            char ch = r == 0 || c == 0 || r == N - 1 || c == N - 1 ? '#' : '.';
            if (r == 1 && c == 1)
                ch = 'X';
            if (r == N - 2 && c == N - 2)
                ch = 'O';
            gs_buf_append(&body, &ch, 1);
        }
        gs_buf_puts(&body, "\"");
    }
    gs_buf_puts(&body, "]}");
    ck_assert_int_eq(gs_buf_status(&body), GS_OK);
    gs_solve_opts_default(&o);
    budget_room(64 * 1024);
    ck_assert_int_eq(
        gs_service_json(p, body.data, body.len, &o, &out, NULL, &err), GS_OK);
    gs_mem_set_budget(0);
    cJSON *d = cJSON_Parse(out.data);
    ck_assert_ptr_nonnull(d);
    ck_assert_str_eq(cJSON_GetObjectItem(d, "status")->valuestring, "limit");
    ck_assert_str_eq(cJSON_GetObjectItem(d, "limit")->valuestring, "memory");
    cJSON_Delete(d);
    gs_buf_free(&out);
    gs_buf_free(&body);
}
END_TEST

/* A budgeted buffer reserves what it holds and refuses past the budget. */
START_TEST(budget_buffer)
{
    uint64_t used0 = gs_mem_used();
    gs_buf b = GS_BUF_INIT;
    char chunk[1024] = {0};

    b.budget = 1;
    gs_buf_append(&b, chunk, sizeof chunk);
    ck_assert_uint_gt(gs_mem_used(), used0 + sizeof chunk);
    budget_room(4096);
    for (int i = 0; i < 16; i++)
        gs_buf_append(&b, chunk, sizeof chunk);
    ck_assert_int_eq(gs_buf_status(&b), GS_ENOMEM);
    gs_buf_free(&b);
    ck_assert_uint_eq(gs_mem_used(), used0);
    gs_mem_set_budget(0);
    b.budget = 1;
    gs_buf_puts(&b, "abc");
    size_t n = 0;
    char *t = gs_buf_take(&b, &n);
    ck_assert_str_eq(t, "abc");
    ck_assert_uint_eq(n, 3);
    free(t); /* a plain copy */
    ck_assert_uint_eq(gs_mem_used(), used0);
}
END_TEST

/* ---- probes (the fast lane's first attempts) ---------------------------- */

/* A probe that stops at a bound it tightened asks to be run again and
 * writes nothing; one that finishes, or stops at the request's own
 * bound, is final. */
START_TEST(probe_again_or_final)
{
    gs_solve_opts full, probe;
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    const char *b;

    gs_solve_opts_default(&full);
    gs_solve_opts_probe(&full, &probe);
    ck_assert_double_eq(probe.probe.timeout_ms, GS_PROBE_TIMEOUT_MS);
    ck_assert_uint_eq(probe.probe.max_states, GS_PROBE_MAX_STATES);
    probe.probe.max_states = 10;

    b = "{\"n\": 96}";
    ck_assert_int_eq(
        gs_service_json(&fake, b, strlen(b), &probe, &out, NULL, &err),
        GS_SERVICE_AGAIN);
    ck_assert_uint_eq(out.len, 0);
    ck_assert_int_eq(
        gs_service_json(&fake, b, strlen(b), &full, &out, NULL, &err), GS_OK);
    ck_assert_ptr_nonnull(strstr(out.data, "\"solved\""));
    gs_buf_free(&out);

    /* The request's own cap (5) is below the probe's: that limit is the
     * answer, however many times it runs. */
    b = "{\"n\": 96, \"limits\": {\"max_states\": 5}}";
    ck_assert_int_eq(
        gs_service_json(&fake, b, strlen(b), &probe, &out, NULL, &err), GS_OK);
    ck_assert_ptr_nonnull(strstr(out.data, "\"limit\":\"states\""));
    gs_buf_free(&out);

    /* The probe's deadline (20 ms) is the nearer one. */
    b = "{\"n\": 95}";
    ck_assert_int_eq(
        gs_service_json(&fake, b, strlen(b), &probe, &out, NULL, &err),
        GS_SERVICE_AGAIN);
    ck_assert_int_eq(
        gs_service_json(&fake, b, strlen(b), &full, &out, NULL, &err), GS_OK);
    ck_assert_ptr_nonnull(strstr(out.data, "\"solved\""));
    gs_buf_free(&out);

    /* Small requests are answered by the probe itself. */
    b = "{\"n\": 2}";
    ck_assert_int_eq(
        gs_service_json(&fake, b, strlen(b), &probe, &out, NULL, &err), GS_OK);
    ck_assert_ptr_nonnull(strstr(out.data, "\"RR\""));
    gs_buf_free(&out);
}
END_TEST

/* Judge text: one case over the probe's budget redoes the whole body, and
 * the output buffer is left as it was. */
START_TEST(probe_text_mode)
{
    gs_solve_opts full, probe;
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    const char in[] = "2\n96\n0\n";

    gs_solve_opts_default(&full);
    gs_solve_opts_probe(&full, &probe);
    probe.probe.max_states = 10;
    gs_buf_puts(&out, "before\n");
    ck_assert_int_eq(gs_service_text(&fake, in, strlen(in), &probe, -1, -1,
                                     &out, NULL, &err),
                     GS_SERVICE_AGAIN);
    ck_assert_str_eq(out.data, "before\n");
    ck_assert_int_eq(
        gs_service_text(&fake, in, strlen(in), &full, -1, -1, &out, NULL, &err),
        GS_OK);
    ck_assert_str_eq(out.data, "before\n1:2\n2:96\n");
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
    tcase_add_test(tc, problem_fallback_document);
    tcase_add_test(tc, budget_refused_parse_is_503);
    tcase_add_test(tc, budget_refused_solve_is_limit_memory);
    tcase_add_test(tc, budget_refused_text_case_is_limit);
    tcase_add_test(tc, budget_refused_search_store);
    tcase_add_test(tc, budget_buffer);
    tcase_add_test(tc, probe_again_or_final);
    tcase_add_test(tc, probe_text_mode);
    suite_add_tcase(s, tc);
    return s;
}
