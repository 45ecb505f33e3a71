/* itest.h - helpers shared by the integration suites: server start/stop
 * assertions, problem+json checks, solve-result checks, move replayers and
 * instance generators. */
#ifndef GS_ITEST_H
#define GS_ITEST_H

#include <check.h>
#include <stdbool.h>

#include <cjson/cJSON.h>

#include "harness.h"

#define GS_PROBLEM_BASE "https://gridsolve.dev/problems/"

/* Starts a server with the given extra flags or fails the test. */
#define ITEST_START(srv, ...)                                                  \
    do {                                                                       \
        const char *itest_args_[] = {__VA_ARGS__};                             \
        char itest_why_[512] = "";                                             \
        ck_assert_msg(gs_srv_start((srv), itest_args_, itest_why_,             \
                                   sizeof(itest_why_)) == 0,                   \
                      "server did not start: %s", itest_why_);                 \
    } while (0)

/* SIGTERMs the server and asserts a clean exit 0 within 5 s. */
#define ITEST_STOP(srv)                                                        \
    do {                                                                       \
        int itest_rc_ = gs_srv_stop((srv), 5000);                              \
        ck_assert_msg(itest_rc_ == 0, "server exit status %d after SIGTERM",   \
                      itest_rc_);                                              \
    } while (0)

/* Asserts that resp is a complete RFC 9457 answer of the given status and
 * problem kind (the suffix of the type URI, e.g. "not-found") for
 * `instance` (NULL: not checked). Returns the parsed body (caller frees)
 * so a test can check detail further. */
cJSON *itest_problem(const gs_resp *resp, long status, const char *kind,
                     const char *instance);

/* Asserts a 200 JSON solve answer for puzzle with the given status
 * ("solved", "impossible", "limit"); for "solved", steps == want_steps
 * (when >= 0) and moves has that length, only letters from alphabet.
 * Returns the parsed body (caller frees). */
cJSON *itest_solve_ok(const gs_resp *resp, const char *puzzle,
                      const char *status, int want_steps, const char *alphabet);

/* The string value of obj[name], or NULL. */
const char *itest_str(const cJSON *obj, const char *name);

/* True when hay contains needle, ignoring ASCII case. */
bool itest_icontains(const char *hay, const char *needle);

/* Sums the samples of a Prometheus text whose lines start with prefix (a
 * metric name, optionally with label text); -1 when none matches. */
double itest_metric_sum(const char *text, const char *prefix);

/* An upper bound of a test on wall-clock time (ms, or a count of timed
 * events), stretched by GS_ITEST_SLOWDOWN: the Makefile's sanitizer
 * builds set it, since their server runs several times slower and those
 * builds look for memory and thread errors, not for speed. */
double itest_slack(double bound);

/* Polls /metrics until at least n workers are busy; false on timeout. */
bool itest_wait_busy(const gs_srv *s, int n, long timeout_ms);

/* POSTs a JSON body to /solve/<puzzle>. */
int itest_post_json(const gs_srv *s, const char *puzzle, const char *body,
                    gs_resp *resp);

/* Replays moves on an instance; true when legal and ending at the goal.
 * why gets the reason on failure. */
bool itest_bloxorz_replay(const char *const *grid, int rows, const char *moves,
                          char *why, size_t why_len);
bool itest_wallpushers_replay(const int *walls, int rows, int cols, int start_r,
                              int start_c, const char *moves, char *why,
                              size_t why_len);
bool itest_sokoban_seed_replay(const char *const *grid, int rows,
                               const char *moves, char *why, size_t why_len);

/* A JSON body for an open 12x12 sokoban room with eight boxes: far more
 * states than any deadline used in the tests lets a solver visit, with a
 * small memory footprint (measured: ~60k states in 5 s, ~20 MB). `extra`
 * is appended inside the object (e.g. ",\"limits\":{...}") or NULL. The
 * judge text variant (seed notation, one case) needs no terminator.
 * Callers free both. */
char *itest_slow_sokoban_json(const char *extra);
char *itest_slow_sokoban_text(void);

#endif
