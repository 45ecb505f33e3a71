/* test_strict.c - unit tests for strict input: unknown JSON fields (top
 * level of every puzzle's body and the nested "limits") and unknown query
 * parameters are a 400 naming the field, with the closest known name
 * suggested when one is close. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/json.h"
#include "gridsolve/service.h"
#include "suites.h"

START_TEST(edit_distance)
{
    ck_assert_uint_eq(gs_edit_distance("", ""), 0);
    ck_assert_uint_eq(gs_edit_distance("grid", "grid"), 0);
    ck_assert_uint_eq(gs_edit_distance("Grid", "grid"), 0); /* case */
    ck_assert_uint_eq(gs_edit_distance("max_throw", "max_throws"), 1);
    ck_assert_uint_eq(gs_edit_distance("gird", "grid"), 1); /* swap */
    ck_assert_uint_eq(gs_edit_distance("bord", "board"), 1);
    ck_assert_uint_eq(gs_edit_distance("kitten", "sitting"), 3);
    ck_assert_uint_eq(gs_edit_distance("", "abc"), 3);
    ck_assert_uint_eq(gs_edit_distance("abc", ""), 3);
    /* Past the table size: far from everything, no work. */
    char big[100];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    ck_assert_uint_eq(gs_edit_distance(big, "a"), (size_t)-1);
}
END_TEST

START_TEST(closest_name)
{
    const char *const known[] = {"board", "max_throws", NULL};
    const char *const more[] = {"limits", NULL};

    ck_assert_str_eq(gs_closest_name("max_throw", known, more), "max_throws");
    ck_assert_str_eq(gs_closest_name("maxthrows", known, more), "max_throws");
    ck_assert_str_eq(gs_closest_name("limit", known, more), "limits");
    ck_assert_str_eq(gs_closest_name("Board", known, NULL), "board");
    /* Too far from anything to be a typo: no suggestion. */
    ck_assert_ptr_null(gs_closest_name("grid", known, more));
    ck_assert_ptr_null(gs_closest_name("x", known, more));
    ck_assert_ptr_null(gs_closest_name("max_throws_per_round", known, more));
    ck_assert_ptr_null(gs_closest_name("board", NULL, NULL));
}
END_TEST

START_TEST(unknown_name_details)
{
    const char *const known[] = {"board", "max_throws", NULL};
    const char *const more[] = {"limits", NULL};
    gs_error err = {0};

    ck_assert_int_eq(
        gs_unknown_name(&err, "field", "", "max_throw", known, more),
        GS_EBADREQ);
    ck_assert_str_eq(err.detail, "unknown field \"max_throw\"; did you mean "
                                 "\"max_throws\"?");
    ck_assert_int_eq(gs_unknown_name(&err, "field", "", "zzz", known, more),
                     GS_EBADREQ);
    ck_assert_str_eq(err.detail, "unknown field \"zzz\"; known: board, "
                                 "max_throws, limits");
    ck_assert_int_eq(
        gs_unknown_name(&err, "query parameter", "", "q", NULL, NULL),
        GS_EBADREQ);
    ck_assert_str_eq(err.detail, "unknown query parameter \"q\"; known: none");
}
END_TEST

/* Runs body through JSON mode of the puzzle called name. */
static int run(const char *name, const char *body, gs_error *err)
{
    const gs_puzzle *p = gs_puzzle_find(name, strlen(name));
    gs_solve_opts o;
    gs_buf out = GS_BUF_INIT;

    ck_assert_ptr_nonnull(p);
    gs_solve_opts_default(&o);
    memset(err, 0, sizeof *err);
    int rc = gs_service_json(p, body, strlen(body), &o, &out, NULL, err);
    gs_buf_free(&out);
    return rc;
}

/* The case: a misspelt max_throws is refused, not defaulted. */
START_TEST(curling_typo_is_400)
{
    gs_error err;

    ck_assert_int_eq(
        run("curling", "{\"board\": [[2,0,3]], \"max_throw\": 1}", &err),
        GS_EBADREQ);
    ck_assert_str_eq(err.detail, "unknown field \"max_throw\"; did you mean "
                                 "\"max_throws\"?");
    ck_assert_int_eq(
        run("curling", "{\"board\": [[2,0,3]], \"max_throws\": 1}", &err),
        GS_OK);
}
END_TEST

/* Every puzzle: its example is accepted, and each of its fields, and
 * "limits", misspelt (last letter dropped) is a 400 suggesting it. */
START_TEST(every_puzzle_every_field)
{
    for (size_t i = 0; i < gs_puzzle_count; i++) {
        const gs_puzzle *p = gs_puzzles[i];
        gs_error err;
        ck_assert_msg(p->fields && p->fields[0], "%s has no fields", p->name);
        ck_assert_msg(run(p->name, p->example, &err) == GS_OK,
                      "%s example refused: %s", p->name, err.detail);
        for (size_t f = 0; p->fields[f] || f == 0; f++) {
            const char *field = p->fields[f] ? p->fields[f] : "limits";
            char body[128], want[160];
            snprintf(body, sizeof body, "{\"%.*s\": 1}", (int)strlen(field) - 1,
                     field);
            snprintf(want, sizeof want,
                     "unknown field \"%.*s\"; did you mean \"%s\"?",
                     (int)strlen(field) - 1, field, field);
            ck_assert_int_eq(run(p->name, body, &err), GS_EBADREQ);
            ck_assert_str_eq(err.detail, want);
            if (!p->fields[f])
                break;
        }
        /* A name near nothing lists what is known instead. */
        ck_assert_int_eq(run(p->name, "{\"zzzzzzzzzz\": 1}", &err), GS_EBADREQ);
        ck_assert_msg(strstr(err.detail, "unknown field \"zzzzzzzzzz\"; "
                                         "known: ") &&
                          strstr(err.detail, p->fields[0]) &&
                          strstr(err.detail, "limits"),
                      "%s: %s", p->name, err.detail);
    }
}
END_TEST

START_TEST(limits_are_strict)
{
    gs_error err;

    ck_assert_int_eq(run("bloxorz",
                         "{\"grid\": [\"XO\"], \"limits\": {\"max_state\": 5}}",
                         &err),
                     GS_EBADREQ);
    ck_assert_str_eq(err.detail, "unknown field \"limits.max_state\"; did you "
                                 "mean \"limits.max_states\"?");
    ck_assert_int_eq(
        run("holedox",
            "{\"rows\": 2, \"cols\": 2, \"snake\": [[1,1]], \"limits\": "
            "{\"timeout_ms\": 100, \"depth\": 3}}",
            &err),
        GS_EBADREQ);
    ck_assert_str_eq(err.detail, "unknown field \"limits.depth\"; known: "
                                 "timeout_ms, max_states");
    ck_assert_int_eq(run("bloxorz",
                         "{\"grid\": [\"XO\"], \"limits\": {\"timeout_ms\": "
                         "1000, \"max_states\": 50}}",
                         &err),
                     GS_OK);
}
END_TEST

START_TEST(query_parameters)
{
    const gs_puzzle *p = gs_puzzle_find("bloxorz", 7);
    const char *const extra[] = {"format", NULL};
    gs_puzzle with_opt = *p;
    gs_error err = {0};

    with_opt.text_options = extra;
    ck_assert_int_eq(gs_service_check_query(p, true, "timeout_ms", &err),
                     GS_OK);
    ck_assert_int_eq(gs_service_check_query(p, true, "max_states", &err),
                     GS_OK);
    ck_assert_int_eq(gs_service_check_query(p, true, "timeout", &err),
                     GS_EBADREQ);
    ck_assert_str_eq(err.detail, "unknown query parameter \"timeout\"; did "
                                 "you mean \"timeout_ms\"?");
    ck_assert_int_eq(gs_service_check_query(p, true, "format", &err),
                     GS_EBADREQ);
    /* A puzzle's own text options extend the list. */
    ck_assert_int_eq(gs_service_check_query(&with_opt, true, "format", &err),
                     GS_OK);
    ck_assert_int_eq(gs_service_check_query(&with_opt, true, "fromat", &err),
                     GS_EBADREQ);
    ck_assert_str_eq(err.detail, "unknown query parameter \"fromat\"; did "
                                 "you mean \"format\"?");
    /* JSON mode takes no query parameters at all. */
    ck_assert_int_eq(gs_service_check_query(p, false, "timeout_ms", &err),
                     GS_EBADREQ);
    ck_assert_str_eq(err.detail,
                     "query parameter \"timeout_ms\" is for judge text mode; "
                     "in JSON mode send \"limits\": {\"timeout_ms\": N} in "
                     "the body");
    ck_assert_int_eq(gs_service_check_query(p, false, "x", &err), GS_EBADREQ);
}
END_TEST

START_TEST(puzzles_document_lists_fields)
{
    gs_buf b = GS_BUF_INIT;
    ck_assert_int_eq(gs_service_puzzles_json(&b), GS_OK);
    cJSON *doc = cJSON_Parse(b.data);
    ck_assert_ptr_nonnull(doc);
    const cJSON *arr = cJSON_GetObjectItemCaseSensitive(doc, "puzzles"), *it;
    size_t n = 0;
    cJSON_ArrayForEach(it, arr)
    {
        const gs_puzzle *p = gs_puzzles[n++];
        const cJSON *fields = cJSON_GetObjectItemCaseSensitive(it, "fields");
        ck_assert(cJSON_IsArray(fields));
        size_t k = 0;
        for (; p->fields[k]; k++)
            ck_assert_str_eq(cJSON_GetArrayItem(fields, (int)k)->valuestring,
                             p->fields[k]);
        ck_assert_str_eq(cJSON_GetArrayItem(fields, (int)k)->valuestring,
                         "limits");
        ck_assert_int_eq(cJSON_GetArraySize(fields), (int)k + 1);
    }
    ck_assert_uint_eq(n, gs_puzzle_count);
    cJSON_Delete(doc);
    gs_buf_free(&b);
}
END_TEST

Suite *gs_test_strict_suite(void)
{
    Suite *s = suite_create("strict");
    TCase *tc = tcase_create("strict");
    tcase_add_test(tc, edit_distance);
    tcase_add_test(tc, closest_name);
    tcase_add_test(tc, unknown_name_details);
    tcase_add_test(tc, curling_typo_is_400);
    tcase_add_test(tc, every_puzzle_every_field);
    tcase_add_test(tc, limits_are_strict);
    tcase_add_test(tc, query_parameters);
    tcase_add_test(tc, puzzles_document_lists_fields);
    suite_add_tcase(s, tc);
    return s;
}
