/* puzzle_check.h - helpers shared by the puzzle unit tests (test_bloxorz.c,
 * test_curling.c, test_wallpushers.c, test_holedox.c, test_sokoban.c): run
 * judge text through a puzzle, parse and solve JSON bodies, expect a
 * refusal with a given code and detail, check one judge output line.
 *
 * Every helper takes the puzzle as its first argument and fails the running
 * Check test on anything unexpected, with a message naming the input or the
 * case and the puzzle's detail. None applies a size cap (gs_caps of 0): the
 * tests that probe the caps call gs_check_parse_json with their own. */
#ifndef GS_TEST_PUZZLE_CHECK_H
#define GS_TEST_PUZZLE_CHECK_H

#include <stdbool.h>
#include <stdint.h>

#include <check.h>

#include "gridsolve/puzzle.h"

/* Runs every case of a judge text through parse_text / solve / format_text
 * within lim (NULL: none). Returns the number of cases with *out set to the
 * output (caller frees; "" when there were none), or the first case's
 * negative parse status with err filled and *out NULL. A solve error fails
 * the test. */
int gs_check_run_text(const gs_puzzle *p, const char *input,
                      const gs_limits *lim, char **out, gs_error *err);

/* Like gs_check_run_text, but a parse error fails the test (naming the
 * case and the detail). Returns the output (caller frees). */
char *gs_check_judge(const gs_puzzle *p, const char *input,
                     const gs_limits *lim);

/* Expects parse_text to refuse the first case of text with `code`: it must
 * set *inst to NULL, set err.code, and give a non-empty detail containing
 * want (NULL: any detail). Returns the error so callers can assert more. */
gs_error gs_check_expect_text_error(const gs_puzzle *p, const char *text,
                                    int code, const char *want);

/* Parses json with cJSON (failing the test when it is not JSON) and hands
 * it to parse_json with caps (NULL: no cap). Clears *inst and err first,
 * and returns the puzzle's status; on GS_OK the caller frees *inst. */
int gs_check_parse_json(const gs_puzzle *p, const char *json,
                        const gs_caps *caps, void **inst, gs_error *err);

/* Expects parse_json to refuse json with `code` (400 GS_EBADREQ or 422
 * GS_EINVALID): it must set *inst to NULL, set err.code, and give a
 * non-empty detail containing want (NULL: any detail). Returns the error
 * so callers can assert more (e.g. the exact detail). */
gs_error gs_check_expect_error(const gs_puzzle *p, const char *json, int code,
                               const char *want);

/* Parses json (which must be valid) and solves it within lim (NULL: none);
 * a parse or solve error fails the test. Returns the result (caller frees
 * it with gs_result_free); the instance is already freed. */
gs_result gs_check_solve_json(const gs_puzzle *p, const char *json,
                              const gs_limits *lim);

/* Parses json, solves it within lim and expects a `limit` answer of the
 * given kind with no moves; when want is not NULL, also that format_text
 * prints exactly want for case `index`. */
void gs_check_limit(const gs_puzzle *p, const char *json, const gs_limits *lim,
                    enum gs_limit_kind kind, int index, const char *want);

/* For json, an instance whose search runs far past 20 ms and 20,000
 * states: a state cap, a deadline already past, one that passes while
 * searching, a memory budget below the store's first block and one the
 * store outgrows each give a `limit` of their kind, printed as want for
 * case `index` (want NULL: not printed). */
void gs_check_limits_in_search(const gs_puzzle *p, const char *json, int index,
                               const char *want);
/* Solves the parsed inst within lim (NULL: none) and expects status; a
 * limit must be of kind `kind` with no moves, and print as limit_line
 * for case 1 (NULL: not printed). Returns the states expanded. */
uint64_t gs_check_status(const gs_puzzle *p, void *inst, const gs_limits *lim,
                         enum gs_status status, enum gs_limit_kind kind,
                         const char *limit_line);
/* Solves the parsed inst (which must be solvable) without limits; then
 * a deadline already past, and a set cancel flag with no deadline, must
 * each stop it as a time limit printed as limit_line. */
void gs_check_past_deadline_and_cancel(const gs_puzzle *p, void *inst,
                                       const char *limit_line);
/* Solves the parsed inst (which must be solvable) with its bytes watched
 * through the progress record; then a budget one byte short of the peak
 * must stop it part way as a memory limit, and exactly the peak must
 * solve it again with the same states expanded. */
void gs_check_memory_peak(const gs_puzzle *p, void *inst);
/* Runs the judge text input (gs_check_judge) and expects exactly want. */
void gs_check_judge_line(const gs_puzzle *p, const char *input,
                         const char *want);
/* Expects format_text(inst, res, index) to print exactly want. */
void gs_check_format(const gs_puzzle *p, const void *inst, const gs_result *res,
                     int index, const char *want);

/* ---- property tests and their deep mode (make check-deep)
 *
 * A property test draws random instances from a fixed seed and checks each
 * against a brute force written in the test. With no variable set it runs
 * exactly as written; GS_PROP_SCALE (1 to GS_PROP_SCALE_MAX) multiplies
 * its iterations and GS_PROP_SEED (a decimal integer) gives it instances
 * nobody has run yet, to hunt for bugs for longer. A value that is not
 * such an integer fails the test that reads it: a typo must not quietly
 * run the default. */
enum { GS_PROP_SCALE_MAX = 100000 };

/* base times GS_PROP_SCALE (default 1). */
int gs_prop_iters(int base);

/* base when GS_PROP_SEED is unset, else a mix of base and GS_PROP_SEED:
 * each test (each base) still draws a stream of its own. */
uint64_t gs_prop_seed(uint64_t base);

/* True when GS_PROP_SEED is set or GS_PROP_SCALE is not 1: the counts
 * measured on the fixed seeds (at least so many solvable, an exact
 * tally) are then not asserted, only each instance's agreement. */
bool gs_prop_deep(void);

/* Notes the instance a property test is on (printf-style), so that the
 * failure messages of GS_PROP_ASSERT, and of helpers that do not see the
 * instance, show what to rerun. */
void gs_prop_note(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* The noted instance after a newline, or "" when none is noted. */
const char *gs_prop_noted(void);

/* Forgets the note: the property cases' checked fixture, before and after
 * each test, so that no note outlives its test when the tests share one
 * process (CK_FORK=no, as under valgrind). */
void gs_prop_unnote(void);

/* printf into a buffer of its own (overwritten by the next call): the
 * message part of GS_PROP_ASSERT, formatted only when it fails. */
const char *gs_prop_fmt(const char *fmt, ...)
    __attribute__((format(printf, 1, 2)));

/* ck_assert_msg(cond, fmt, ...) with the noted instance after the
 * message. */
#define GS_PROP_ASSERT(cond, ...)                                              \
    ck_assert_msg(cond, "%s%s", gs_prop_fmt(__VA_ARGS__), gs_prop_noted())

#endif
