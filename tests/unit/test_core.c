/* test_core.c - unit tests for the buffer, judge-text cursor, errors and
 * JSON field readers. */
#include <stdlib.h>
#include <string.h>

#include "gridsolve/buf.h"
#include "gridsolve/json.h"
#include "gridsolve/text.h"
#include "suites.h"

START_TEST(buf_appends_and_formats)
{
    gs_buf b = GS_BUF_INIT;
    gs_buf_puts(&b, "steps ");
    gs_buf_printf(&b, "%d", 42);
    for (int i = 0; i < 1000; i++)
        gs_buf_puts(&b, "x");
    ck_assert_int_eq(gs_buf_status(&b), GS_OK);
    ck_assert_uint_eq(b.len, 8 + 1000);
    ck_assert(strncmp(b.data, "steps 42x", 9) == 0);
    size_t len;
    char *p = gs_buf_take(&b, &len);
    ck_assert_uint_eq(len, 1008);
    ck_assert_ptr_null(b.data);
    free(p);
}
END_TEST

START_TEST(buf_puts_decimal)
{
    gs_buf b = GS_BUF_INIT;
    gs_buf_put_u64(&b, 0);
    gs_buf_puts(&b, " ");
    gs_buf_put_u64(&b, 1907);
    gs_buf_puts(&b, " ");
    gs_buf_put_u64(&b, 18446744073709551615ULL);
    ck_assert_int_eq(gs_buf_status(&b), GS_OK);
    ck_assert_str_eq(b.data, "0 1907 18446744073709551615");
    gs_buf_free(&b);
}
END_TEST

START_TEST(buf_long_printf)
{
    gs_buf b = GS_BUF_INIT;
    char big[1000];
    memset(big, 'a', sizeof big - 1);
    big[sizeof big - 1] = '\0';
    gs_buf_printf(&b, "<%s>", big);
    ck_assert_uint_eq(b.len, 1001);
    ck_assert_int_eq(b.data[1000], '>');
    gs_buf_free(&b);
}
END_TEST

/* A buffer on the caller's storage keeps what fits there, moves to the
 * heap (budgeted or not) past it, and hands out or frees either. */
START_TEST(buf_fixed_storage)
{
    char small[8];
    gs_buf b;
    gs_buf_init_fixed(&b, small, sizeof small);
    gs_buf_puts(&b, "abc");
    ck_assert_ptr_eq(b.data, small);
    ck_assert_str_eq(b.data, "abc");
    size_t len;
    char *p = gs_buf_take(&b, &len); /* a heap copy */
    ck_assert_ptr_ne(p, small);
    ck_assert_uint_eq(len, 3);
    ck_assert_str_eq(p, "abc");
    free(p);

    for (int budget = 0; budget < 2; budget++) {
        gs_buf_init_fixed(&b, small, sizeof small);
        b.budget = budget;
        gs_buf_puts(&b, "1234567");
        ck_assert_ptr_eq(b.data, small);
        gs_buf_puts(&b, "89");
        ck_assert_ptr_ne(b.data, small);
        ck_assert_str_eq(b.data, "123456789");
        ck_assert_int_eq(gs_buf_status(&b), GS_OK);
        if (budget) {
            gs_buf_free(&b);
            ck_assert_ptr_null(b.data);
        } else {
            p = gs_buf_take(&b, &len);
            ck_assert_uint_eq(len, 9);
            ck_assert_str_eq(p, "123456789");
            free(p);
        }
    }
    gs_buf_init_fixed(&b, small, sizeof small);
    gs_buf_free(&b); /* nothing to free */
    ck_assert_ptr_null(b.data);
}
END_TEST

START_TEST(text_reads_ints_and_lines)
{
    const char *in = "3 4\n#..#\r\n\n  \n-7 x";
    gs_text t;
    gs_error err = {0};
    long v;
    gs_text_init(&t, in, strlen(in));
    ck_assert_int_eq(gs_text_int(&t, &v, "rows", &err), 1);
    ck_assert_int_eq(v, 3);
    ck_assert_int_eq(gs_text_need_int(&t, &v, "cols", &err), GS_OK);
    ck_assert_int_eq(v, 4);
    gs_text_skip_line(&t);
    const char *s;
    size_t n;
    ck_assert_int_eq(gs_text_line(&t, &s, &n), 1);
    ck_assert_uint_eq(n, 4);
    ck_assert(memcmp(s, "#..#", 4) == 0);
    gs_text_skip_blank_lines(&t);
    ck_assert_int_eq(t.line, 5);
    ck_assert_int_eq(gs_text_int(&t, &v, "k", &err), 1);
    ck_assert_int_eq(v, -7);
    ck_assert_int_eq(gs_text_int(&t, &v, "stones", &err), GS_EINVALID);
    ck_assert_str_eq(err.detail,
                     "line 5: expected an integer (stones), found 'x'");
}
END_TEST

START_TEST(text_end_of_input)
{
    gs_text t;
    gs_error err = {0};
    long v;
    gs_text_init(&t, "  \n ", 4);
    ck_assert_int_eq(gs_text_int(&t, &v, "rows", &err), 0);
    ck_assert_int_eq(gs_text_need_int(&t, &v, "rows", &err), GS_EINVALID);
    ck_assert_str_eq(err.detail, "line 2: input ends where rows was expected");
}
END_TEST

/* gs_text_ints reads a row of numbers in one call; everything it does not
 * take on its fast path (no digit, a stray byte, 19 digits or more) must
 * come out as gs_text_need_int would have it. */
START_TEST(text_reads_rows_of_ints)
{
    const char *in = "1 -2\n+3\t 4567890123456789012 5";
    gs_text t;
    gs_error err = {0};
    long v[4] = {0};
    gs_text_init(&t, in, strlen(in));
    ck_assert_int_eq(gs_text_ints(&t, v, 4, "row", &err), GS_OK);
    ck_assert_int_eq(v[0], 1);
    ck_assert_int_eq(v[1], -2);
    ck_assert_int_eq(v[2], 3);
    ck_assert_int_eq(v[3], 4567890123456789012L);
    ck_assert_int_eq(t.line, 2);
    ck_assert_int_eq(gs_text_ints(&t, v, 2, "pair", &err), GS_EINVALID);
    ck_assert_int_eq(v[0], 5);
    ck_assert_str_eq(err.detail, "line 2: input ends where pair was expected");

    const char *big = "\n\n99999999999999999999";
    gs_text_init(&t, big, strlen(big));
    ck_assert_int_eq(gs_text_ints(&t, v, 1, "n", &err), GS_EINVALID);
    ck_assert_str_eq(err.detail, "line 3: integer too large (n)");

    const char *stray = "7 8x";
    gs_text_init(&t, stray, strlen(stray));
    ck_assert_int_eq(gs_text_ints(&t, v, 2, "cell", &err), GS_EINVALID);
    ck_assert_str_eq(err.detail,
                     "line 1: expected an integer (cell), found 'x'");
    const char *sign = "-";
    gs_text_init(&t, sign, 1);
    ck_assert_int_eq(gs_text_ints(&t, v, 1, "k", &err), GS_EINVALID);
    ck_assert_str_eq(err.detail, "line 1: expected an integer (k), found the "
                                 "end of the input");
    const char *sign_eol = "-\n5";
    gs_text_init(&t, sign_eol, strlen(sign_eol));
    ck_assert_int_eq(gs_text_ints(&t, v, 1, "k", &err), GS_EINVALID);
    ck_assert_str_eq(err.detail, "line 1: expected an integer (k), found the "
                                 "end of the line");
}
END_TEST

START_TEST(error_prefix_keeps_detail)
{
    gs_error err;
    ck_assert_int_eq(gs_error_set(&err, GS_EINVALID, "row %d bad", 3),
                     GS_EINVALID);
    gs_error_prefix(&err, "case %d: ", 2);
    ck_assert_str_eq(err.detail, "case 2: row 3 bad");
    ck_assert_int_eq(gs_error_http_status(GS_EINVALID), 422);
    ck_assert_int_eq(gs_error_http_status(GS_EBADREQ), 400);
    ck_assert_str_eq(gs_problem_type(413),
                     "https://gridsolve.dev/problems/payload-too-large");
    ck_assert_str_eq(gs_problem_type(999),
                     "https://gridsolve.dev/problems/internal");
}
END_TEST

START_TEST(json_fields_typed)
{
    cJSON *o = cJSON_Parse("{\"n\": 5, \"f\": 1.5, \"s\": \"x\", \"a\": [1],"
                           " \"g\": [\"ab\", 3], \"c\": [1, \"2\"]}");
    gs_error err = {0};
    long v = -1;
    const char *s = NULL;
    const cJSON *a;
    ck_assert_int_eq(gs_json_int(o, "n", true, 0, 10, &v, &err), GS_OK);
    ck_assert_int_eq(v, 5);
    ck_assert_int_eq(gs_json_int(o, "n", true, 0, 4, &v, &err), GS_EINVALID);
    ck_assert_int_eq(gs_json_int(o, "f", true, 0, 4, &v, &err), GS_EBADREQ);
    ck_assert_str_eq(err.detail, "field \"f\" must be an integer");
    ck_assert_int_eq(gs_json_int(o, "zz", true, 0, 4, &v, &err), GS_EBADREQ);
    ck_assert_str_eq(err.detail, "missing required field \"zz\"");
    v = 9;
    ck_assert_int_eq(gs_json_int(o, "zz", false, 0, 4, &v, &err), GS_OK);
    ck_assert_int_eq(v, 9);
    ck_assert_int_eq(gs_json_string(o, "s", true, &s, &err), GS_OK);
    ck_assert_str_eq(s, "x");
    ck_assert_int_eq(gs_json_string(o, "n", true, &s, &err), GS_EBADREQ);
    ck_assert_int_eq(gs_json_array(o, "a", true, &a, &err), GS_OK);
    ck_assert_int_eq(gs_json_array(o, "s", true, &a, &err), GS_EBADREQ);
    const char **rows;
    int nrows;
    ck_assert_int_eq(gs_json_grid(o, "g", &rows, &nrows, &err), GS_EBADREQ);
    ck_assert_str_eq(err.detail, "g row 1 must be a string");
    long r, c;
    ck_assert_int_eq(
        gs_json_cell(cJSON_GetObjectItem(o, "c"), "snake[0]", &r, &c, &err),
        GS_EBADREQ);
    ck_assert_str_eq(err.detail,
                     "snake[0] must be a [row, col] pair of integers");
    cJSON_Delete(o);
    /* Integers too large for any board: off the board (422), not a
     * malformed pair (400). */
    o = cJSON_Parse("[2000000000, -3]");
    ck_assert_int_eq(gs_json_cell(o, "target", &r, &c, &err), GS_EINVALID);
    ck_assert_str_eq(err.detail, "target [2000000000, -3] is off the board");
    cJSON_Delete(o);
}
END_TEST

Suite *gs_test_core_suite(void)
{
    Suite *s = suite_create("core");
    TCase *tc = tcase_create("core");
    tcase_add_test(tc, buf_appends_and_formats);
    tcase_add_test(tc, buf_long_printf);
    tcase_add_test(tc, buf_puts_decimal);
    tcase_add_test(tc, buf_fixed_storage);
    tcase_add_test(tc, text_reads_ints_and_lines);
    tcase_add_test(tc, text_end_of_input);
    tcase_add_test(tc, text_reads_rows_of_ints);
    tcase_add_test(tc, error_prefix_keeps_detail);
    tcase_add_test(tc, json_fields_typed);
    suite_add_tcase(s, tc);
    return s;
}
