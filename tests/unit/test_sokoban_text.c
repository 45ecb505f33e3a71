/* test_sokoban_text.c - sokoban judge text in both notations: XSB
 * collections as published (titles, `;` comments, blank lines, metadata),
 * the contest's `N M` notation, detection between them, the `format`
 * option through gs_service_text, and the errors a bad level gives. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/puzzle.h"
#include "gridsolve/service.h"
#include "puzzle_check.h"
#include "suites.h"

extern const gs_puzzle gs_puzzle_sokoban;
#define SOK (&gs_puzzle_sokoban)

/* Three levels the way collections write them: a file comment, `;` titles,
 * a `Title:` line with author metadata, blank lines with spaces, CRLF. */
static const char COLLECTION[] = "; A small collection\n"
                                 "; with a two-line header comment\n"
                                 " \n"
                                 "; 1\n"
                                 "\n"
                                 "#####\n"
                                 "#@$.#\n"
                                 "#####\n"
                                 "\n"
                                 "Title: Two\r\n"
                                 "Author: someone\r\n"
                                 "\r\n"
                                 "######\r\n"
                                 "#. $@#\r\n"
                                 "######\r\n"
                                 "; 3 (impossible: the box is in a corner)\n"
                                 "#####\n"
                                 "#$ .#\n"
                                 "#@  #\n"
                                 "#####\n";

/* Runs text through the service with the `format` option (NULL: detect).
 * Returns the service status; *out holds the output when GS_OK. */
static int run_service_caps(const char *text, const char *format,
                            uint64_t max_cells, char **out, gs_error *err)
{
    gs_solve_opts o;
    gs_solve_opts_default(&o);
    o.text_format = format;
    if (max_cells)
        o.caps.max_cells = max_cells;
    gs_buf b = GS_BUF_INIT;
    int rc =
        gs_service_text(SOK, text, strlen(text), &o, 10000, -1, &b, NULL, err);
    *out = NULL;
    if (rc == GS_OK) {
        size_t n;
        *out = gs_buf_take(&b, &n);
    }
    gs_buf_free(&b);
    return rc;
}

static int run_service(const char *text, const char *format, char **out,
                       gs_error *err)
{
    return run_service_caps(text, format, 0, out, err);
}

START_TEST(test_xsb_collection)
{
    char *out = gs_check_judge(SOK, COLLECTION, NULL);
    ck_assert_str_eq(out, "R\nLL\nimpossible\n");
    free(out);
    /* Levels back to back with only a `;` line between them, no final
     * newline, floor padding written as `-`. */
    out = gs_check_judge(SOK,
                         "#####\n#@$.#\n#####\n;x\n--#####\n--#.$@#\n"
                         "--#####",
                         NULL);
    ck_assert_str_eq(out, "R\nL\n");
    free(out);
}
END_TEST

START_TEST(test_detection)
{
    /* Contest text starts with `N M`: the answer is the step count. */
    char *out = NULL;
    gs_error err = {0};
    ck_assert_int_eq(
        run_service("\n3 5\n#####\n#X*@#\n#####\n", NULL, &out, &err), GS_OK);
    ck_assert_str_eq(out, "1\n");
    free(out);
    /* The same characters as XSB would differ: detection must not guess
     * them from the cells. */
    ck_assert_int_eq(run_service(COLLECTION, NULL, &out, &err), GS_OK);
    ck_assert_str_eq(out, "R\nLL\nimpossible\n");
    free(out);
    /* A title line that happens to start with digits is not a header. */
    ck_assert_int_eq(
        run_service("1 A level\n#####\n#@$.#\n#####\n", NULL, &out, &err),
        GS_OK);
    ck_assert_str_eq(out, "R\n");
    free(out);
}
END_TEST

START_TEST(test_explicit_format)
{
    char *out = NULL;
    gs_error err = {0};
    ck_assert_int_eq(run_service(COLLECTION, "xsb", &out, &err), GS_OK);
    ck_assert_str_eq(out, "R\nLL\nimpossible\n");
    free(out);
    ck_assert_int_eq(
        run_service("3 5\n#####\n#X*@#\n#####\n", "contest", &out, &err),
        GS_OK);
    ck_assert_str_eq(out, "1\n");
    free(out);
    /* Asked for contest, XSB text is an error naming what was expected. */
    ck_assert_int_eq(run_service(COLLECTION, "contest", &out, &err),
                     GS_EINVALID);
    ck_assert_ptr_nonnull(strstr(err.detail, "expected an integer"));
    /* Asked for XSB, contest text is not read as a level. */
    ck_assert_int_eq(
        run_service("3 5\n#####\n#X*@#\n#####\n", "xsb", &out, &err),
        GS_EINVALID);
    ck_assert_ptr_nonnull(strstr(err.detail, "unknown cell character 'X'"));
    /* An unknown notation is the request's fault, not a case's. */
    ck_assert_int_eq(run_service(COLLECTION, "sok", &out, &err), GS_EBADREQ);
    ck_assert_str_eq(err.detail, "unknown text format \"sok\"; sokoban reads "
                                 "xsb, contest or seed");
    ck_assert_int_eq(
        run_service("3 5\n#####\n#X*@#\n#####\n", "seed", &out, &err), GS_OK);
    ck_assert_str_eq(out, "1\n");
    free(out);
    ck_assert_int_eq(
        gs_service_check_format(gs_puzzle_find("bloxorz", 7), "xsb", &err),
        GS_EBADREQ);
    ck_assert_str_eq(err.detail, "bloxorz judge text has one notation: there "
                                 "is no format to choose");
    ck_assert_int_eq(
        gs_service_check_format(gs_puzzle_find("bloxorz", 7), NULL, &err),
        GS_OK);
    /* Asked for XSB, text with no level is an error, as when detected,
     * not an empty answer. */
    ck_assert_int_eq(
        run_service("Hello, here is no level\n", "xsb", &out, &err),
        GS_EINVALID);
    ck_assert_ptr_nonnull(strstr(err.detail, "no XSB level found"));
}
END_TEST

START_TEST(test_xsb_errors)
{
    /* A typo inside a level is an error naming the level, not a comment
     * line that silently splits it. */
    gs_error e = gs_check_expect_text_error(
        SOK, "; Typo\n#####\n#@$x#\n#####\n", GS_EINVALID,
        "level \"Typo\" at line 2: grid row 1, column 3: unknown cell "
        "character 'x'");
    (void)e;
    gs_check_expect_text_error(SOK, "Title: T\n#####\n#@ .#\n#####\n",
                               GS_EINVALID, "grid has no box");
    gs_check_expect_text_error(SOK, "Hello, here is no level\n", GS_EINVALID,
                               "no XSB level found");
    /* An indented level is a level with a bad cell, not metadata skipped
     * (which would shift every later answer line). */
    char *out;
    gs_error err;
    ck_assert_int_eq(run_service("#####\n#@$.#\n#####\n\n\t#####\n"
                                 "\t#@$.#\n\t#####\n",
                                 NULL, &out, &err),
                     GS_EINVALID);
    ck_assert_str_eq(err.detail,
                     "case 2: level at line 5: grid row 0, column 0: unknown "
                     "cell character byte 0x09");
    /* Contest text names the case's header line too. */
    ck_assert_int_eq(
        run_service("3 5\n#####\n#X*X#\n#####\n", NULL, &out, &err),
        GS_EINVALID);
    ck_assert_str_eq(err.detail, "case 1: line 1: grid row 1, column 3: a "
                                 "second player (the first is at row 1, "
                                 "column 1)");
    /* Past the int cell index the message names that limit, not a larger
     * --max-cells. */
    enum { ROWS = 50001, COLS = 50000 };
    char *big = malloc((size_t)ROWS * 2 + COLS + 1), *p = big;
    ck_assert_ptr_nonnull(big);
    memset(p, '#', COLS);
    p += COLS;
    for (int r = 1; r < ROWS; r++, p += 2)
        memcpy(p, "\n#", 2);
    *p = '\0';
    ck_assert_int_eq(run_service_caps(big, "xsb", 1ull << 32, &out, &err),
                     GS_EINVALID);
    ck_assert_str_eq(err.detail, "case 1: level at line 1: grid is 50001 x "
                                 "50000 = 2500050000 cells, above the "
                                 "maximum of 2147483647");
    free(big);
    /* Nothing but comments: no level, a 422 as for other text, detected
     * or named; an empty or blank body has no case, as for every puzzle. */
    gs_check_expect_text_error(SOK, "; only a comment\n\n", GS_EINVALID,
                               "no XSB level found, only ';' comments");
    ck_assert_int_eq(run_service("; only a comment\n", "xsb", &out, &err),
                     GS_EINVALID);
    ck_assert_str_eq(err.detail, "case 1: no XSB level found, only ';' "
                                 "comments (a level's rows start with '#')");
    out = gs_check_judge(SOK, " \n\n", NULL);
    ck_assert_str_eq(out, "");
    free(out);
    /* A UTF-8 byte order mark is not part of the first row (the level
     * below is impossible; read without its first row it was solvable). */
    out = gs_check_judge(SOK, "\xef\xbb\xbf#$ .#\n#@$.#\n#####\n", NULL);
    ck_assert_str_eq(out, "impossible\n");
    free(out);
    ck_assert_int_eq(
        run_service("\xef\xbb\xbf#####\n#@$!#\n#####\n", NULL, &out, &err),
        GS_EINVALID);
    ck_assert_str_eq(err.detail, "case 1: level at line 1: grid row 1, "
                                 "column 3: unknown cell character '!'");
    /* Contest text: text after the header is an error on that line, not
     * a missing row later; a size past int is named as such. */
    ck_assert_int_eq(
        run_service("3 5 #####\n#X*X#\n#####\n", "contest", &out, &err),
        GS_EINVALID);
    ck_assert_str_eq(err.detail, "case 1: line 1: unexpected '#####' after "
                                 "the grid size N M");
    ck_assert_int_eq(run_service("3000000000 1\n", NULL, &out, &err),
                     GS_EINVALID);
    ck_assert_str_eq(err.detail,
                     "case 1: line 1: grid size 3000000000 x 1 is too large");
}
END_TEST

START_TEST(test_xsb_limit_line)
{
    gs_result res;
    gs_result_clear(&res);
    gs_buf b = GS_BUF_INIT;
    void *inst = NULL;
    gs_error err = {0};
    gs_text t;
    gs_text_init(&t, COLLECTION, strlen(COLLECTION));
    ck_assert_int_eq(SOK->parse_text(&t, NULL, &inst, &err), 1);
    res.status = GS_LIMIT;
    SOK->format_text(inst, &res, 1, &b);
    res.status = GS_IMPOSSIBLE;
    SOK->format_text(inst, &res, 2, &b);
    ck_assert_str_eq(b.data, "limit\nimpossible\n");
    gs_buf_free(&b);
    SOK->free(inst);
}
END_TEST

Suite *gs_test_sokoban_text_suite(void)
{
    Suite *s = suite_create("sokoban_text");
    TCase *tc = tcase_create("text");
    tcase_add_test(tc, test_xsb_collection);
    tcase_add_test(tc, test_detection);
    tcase_add_test(tc, test_explicit_format);
    tcase_add_test(tc, test_xsb_errors);
    tcase_add_test(tc, test_xsb_limit_line);
    suite_add_tcase(s, tc);
    return s;
}
