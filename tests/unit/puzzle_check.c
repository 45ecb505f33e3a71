/* puzzle_check.c - helpers shared by the puzzle unit tests: judge text
 * runs, JSON parsing and solving, expected refusals. See puzzle_check.h. */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <check.h>
#include <cjson/cJSON.h>

#include "puzzle_check.h"

/* No size cap: the tests' inputs are small, and those that probe the caps
 * pass their own to gs_check_parse_json. */
static const gs_caps no_caps = {.max_cells = 0};

/* Stands in *inst before a parse that must fail, so the check that the
 * puzzle clears it on error means something. */
static char not_cleared;

/* Runs the cases of input into out. Returns the number of cases, or the
 * negative parse status with *failed the 1-based case that failed. */
static int run_cases(const gs_puzzle *p, const char *input,
                     const gs_limits *lim, gs_buf *out, int *failed,
                     gs_error *err)
{
    gs_text in;
    gs_text_init(&in, input, strlen(input));
    memset(err, 0, sizeof *err);
    for (int index = 1;; index++) {
        void *inst = NULL;
        int rc = p->parse_text(&in, &no_caps, &inst, err);
        if (rc <= 0) {
            *failed = index;
            return rc < 0 ? rc : index - 1;
        }
        gs_result res;
        gs_result_clear(&res);
        rc = p->solve(inst, lim, &res, err);
        ck_assert_msg(rc == GS_OK, "%s case %d: solve error %d: %s", p->name,
                      index, rc, err->detail);
        p->format_text(inst, &res, index, out);
        gs_result_free(&res);
        p->free(inst);
    }
}

int gs_check_run_text(const gs_puzzle *p, const char *input,
                      const gs_limits *lim, char **out, gs_error *err)
{
    gs_buf buf = GS_BUF_INIT;
    int failed = 0;
    int rc = run_cases(p, input, lim, &buf, &failed, err);
    if (rc < 0) {
        gs_buf_free(&buf);
        *out = NULL;
        return rc;
    }
    ck_assert_int_eq(gs_buf_status(&buf), GS_OK);
    *out = gs_buf_take(&buf, NULL);
    ck_assert_ptr_nonnull(*out);
    return rc;
}

char *gs_check_judge(const gs_puzzle *p, const char *input,
                     const gs_limits *lim)
{
    gs_buf buf = GS_BUF_INIT;
    gs_error err;
    int failed = 0;
    int rc = run_cases(p, input, lim, &buf, &failed, &err);
    ck_assert_msg(rc >= 0, "%s case %d: parse error %d: %s", p->name, failed,
                  rc, err.detail);
    ck_assert_int_eq(gs_buf_status(&buf), GS_OK);
    char *s = gs_buf_take(&buf, NULL);
    ck_assert_ptr_nonnull(s);
    return s;
}

/* Asserts the common shape of a refusal: the status (returned and in
 * err), a cleared instance, and a detail that names what is wrong. */
static void check_refusal(const char *what, const char *input, int rc,
                          void *inst, const gs_error *err, int code,
                          const char *want)
{
    ck_assert_msg(rc == code, "%s %s: got %d (%s), expected %d", what, input,
                  rc, err->detail, code);
    ck_assert_msg(inst == NULL, "%s %s: *inst not cleared on error", what,
                  input);
    ck_assert_msg(err->code == code, "%s %s: err.code %d, expected %d", what,
                  input, err->code, code);
    ck_assert_msg(err->detail[0] != '\0', "%s %s: empty detail", what, input);
    ck_assert_msg(want == NULL || strstr(err->detail, want) != NULL,
                  "%s %s: detail \"%s\" lacks \"%s\"", what, input, err->detail,
                  want);
}

gs_error gs_check_expect_text_error(const gs_puzzle *p, const char *text,
                                    int code, const char *want)
{
    gs_text in;
    gs_text_init(&in, text, strlen(text));
    gs_error err = {0};
    void *inst = &not_cleared;
    int rc = p->parse_text(&in, &no_caps, &inst, &err);
    check_refusal("text", text, rc, inst, &err, code, want);
    return err;
}

/* Parses json with cJSON; the test's own JSON must be well-formed. */
static cJSON *parse_body(const char *json)
{
    cJSON *body = cJSON_Parse(json);
    ck_assert_msg(body != NULL, "test JSON does not parse: %s", json);
    return body;
}

int gs_check_parse_json(const gs_puzzle *p, const char *json,
                        const gs_caps *caps, void **inst, gs_error *err)
{
    cJSON *body = parse_body(json);
    memset(err, 0, sizeof *err);
    *inst = NULL;
    int rc = p->parse_json(body, caps ? caps : &no_caps, inst, err);
    cJSON_Delete(body);
    return rc;
}

gs_error gs_check_expect_error(const gs_puzzle *p, const char *json, int code,
                               const char *want)
{
    cJSON *body = parse_body(json);
    gs_error err = {0};
    void *inst = &not_cleared;
    int rc = p->parse_json(body, &no_caps, &inst, &err);
    cJSON_Delete(body);
    check_refusal("body", json, rc, inst, &err, code, want);
    return err;
}

gs_result gs_check_solve_json(const gs_puzzle *p, const char *json,
                              const gs_limits *lim)
{
    void *inst;
    gs_error err;
    int rc = gs_check_parse_json(p, json, NULL, &inst, &err);
    ck_assert_msg(rc == GS_OK, "%s: parse error %d: %s", json, rc, err.detail);
    gs_result res;
    gs_result_clear(&res);
    rc = p->solve(inst, lim, &res, &err);
    ck_assert_msg(rc == GS_OK, "%s: solve error %d: %s", json, rc, err.detail);
    p->free(inst);
    return res;
}

void gs_check_format(const gs_puzzle *p, const void *inst, const gs_result *res,
                     int index, const char *want)
{
    gs_buf out = GS_BUF_INIT;
    p->format_text(inst, res, index, &out);
    ck_assert_int_eq(gs_buf_status(&out), GS_OK);
    const char *got = out.data ? out.data : "";
    ck_assert_str_eq(got, want);
    gs_buf_free(&out);
}

void gs_check_limit(const gs_puzzle *p, const char *json, const gs_limits *lim,
                    enum gs_limit_kind kind, int index, const char *want)
{
    void *inst;
    gs_error err;
    int rc = gs_check_parse_json(p, json, NULL, &inst, &err);
    ck_assert_msg(rc == GS_OK, "%s: parse error %d: %s", json, rc, err.detail);
    gs_result res;
    gs_result_clear(&res);
    rc = p->solve(inst, lim, &res, &err);
    ck_assert_msg(rc == GS_OK, "%s: solve error %d: %s", json, rc, err.detail);
    ck_assert_int_eq(res.status, GS_LIMIT);
    ck_assert_int_eq(res.limit, kind);
    ck_assert_ptr_null(res.moves);
    if (want)
        gs_check_format(p, inst, &res, index, want);
    gs_result_free(&res);
    p->free(inst);
}

void gs_check_limits_in_search(const gs_puzzle *p, const char *json, int index,
                               const char *want)
{
    /* The search does start: the state cap stops it past the first
     * expansions, not before. */
    gs_limits lim = {.max_states = 20000};
    gs_result res = gs_check_solve_json(p, json, &lim);
    ck_assert_int_eq(res.status, GS_LIMIT);
    ck_assert_int_eq(res.limit, GS_LIMIT_STATES);
    ck_assert_uint_gt(res.expanded, 1000);
    gs_result_free(&res);

    lim = (gs_limits){.deadline_ns = gs_now_ns() - 1};
    gs_check_limit(p, json, &lim, GS_LIMIT_TIME, index, want);
    lim.deadline_ns = gs_deadline_after_ms(20);
    gs_check_limit(p, json, &lim, GS_LIMIT_TIME, index, want);

    lim = (gs_limits){.max_bytes = 1024};
    gs_check_limit(p, json, &lim, GS_LIMIT_MEMORY, index, want);
    lim.max_bytes = 64 << 10;
    gs_check_limit(p, json, &lim, GS_LIMIT_MEMORY, index, want);
    res = gs_check_solve_json(p, json, &lim);
    ck_assert_uint_gt(res.expanded, 0); /* outgrown while searching */
    gs_result_free(&res);
}

void gs_check_judge_line(const gs_puzzle *p, const char *input,
                         const char *want)
{
    char *out = gs_check_judge(p, input, NULL);
    ck_assert_msg(strcmp(out, want) == 0,
                  "judge text\n%sprinted %s, expected %s", input, out, want);
    free(out);
}

uint64_t gs_check_status(const gs_puzzle *p, void *inst, const gs_limits *lim,
                         enum gs_status status, enum gs_limit_kind kind,
                         const char *limit_line)
{
    gs_result res;
    gs_error err = {0};
    gs_result_clear(&res);
    ck_assert_int_eq(p->solve(inst, lim, &res, &err), GS_OK);
    ck_assert_int_eq(res.status, status);
    if (status == GS_LIMIT) {
        ck_assert_int_eq(res.limit, kind);
        ck_assert_ptr_null(res.moves);
        if (limit_line)
            gs_check_format(p, inst, &res, 1, limit_line);
    }
    uint64_t expanded = res.expanded;
    gs_result_free(&res);
    return expanded;
}

void gs_check_memory_peak(const gs_puzzle *p, void *inst)
{
    gs_progress prog = {0};
    gs_limits watch = {.progress = &prog};
    uint64_t all =
        gs_check_status(p, inst, &watch, GS_SOLVED, GS_LIMIT_NONE, NULL);
    uint64_t peak = atomic_load(&prog.bytes);
    ck_assert_uint_gt(peak, 0);
    gs_limits lim = {.max_bytes = peak - 1};
    uint64_t part =
        gs_check_status(p, inst, &lim, GS_LIMIT, GS_LIMIT_MEMORY, NULL);
    ck_assert_uint_gt(part, 0);
    ck_assert_uint_lt(part, all);
    lim.max_bytes = peak;
    ck_assert_uint_eq(
        gs_check_status(p, inst, &lim, GS_SOLVED, GS_LIMIT_NONE, NULL), all);
}

void gs_check_past_deadline_and_cancel(const gs_puzzle *p, void *inst,
                                       const char *limit_line)
{
    gs_check_status(p, inst, NULL, GS_SOLVED, GS_LIMIT_NONE, NULL);
    gs_limits lim = {.deadline_ns = gs_now_ns() - 1000000};
    gs_check_status(p, inst, &lim, GS_LIMIT, GS_LIMIT_TIME, limit_line);
    atomic_int cancel = 1;
    gs_limits stop = {.cancel = &cancel};
    gs_check_status(p, inst, &stop, GS_LIMIT, GS_LIMIT_TIME, limit_line);
}

/* ---- property tests' deep mode */

/* Environment variable name as an integer in [lo, hi], def when it is
 * unset or empty; anything else fails the running test. */
static uint64_t env_uint(const char *name, uint64_t lo, uint64_t hi,
                         uint64_t def)
{
    const char *s = getenv(name);
    if (s == NULL || *s == '\0')
        return def;
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    /* strtoull would take a sign or leading blanks: digits only. */
    ck_assert_msg(isdigit((unsigned char)*s) && *end == '\0' && errno == 0 &&
                      v >= lo && v <= hi,
                  "%s=\"%s\": expected a decimal integer from %llu to %llu",
                  name, s, (unsigned long long)lo, (unsigned long long)hi);
    return v;
}

static uint64_t prop_scale(void)
{
    return env_uint("GS_PROP_SCALE", 1, GS_PROP_SCALE_MAX, 1);
}

int gs_prop_iters(int base)
{
    uint64_t n = (uint64_t)base * prop_scale();
    ck_assert_msg(base >= 0 && n <= INT_MAX, "%d iterations times %llu", base,
                  (unsigned long long)prop_scale());
    return (int)n;
}

/* splitmix64's finaliser: a bijection, so that different bases (or seeds)
 * start their generators from different states, and each bit of the seed
 * flips about half the bits of every test's. */
static uint64_t mix64(uint64_t z)
{
    z += 0x9E3779B97F4A7C15ull;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

uint64_t gs_prop_seed(uint64_t base)
{
    const char *s = getenv("GS_PROP_SEED");
    if (s == NULL || *s == '\0')
        return base;
    return mix64(mix64(env_uint("GS_PROP_SEED", 0, UINT64_MAX, 0)) ^ base);
}

bool gs_prop_deep(void)
{
    const char *s = getenv("GS_PROP_SEED");
    if (s != NULL && *s != '\0') {
        env_uint("GS_PROP_SEED", 0, UINT64_MAX, 0); /* fails when bad */
        return true;
    }
    return prop_scale() != 1;
}

/* The note, "\n" first; a level or a JSON body fits many times over. */
static char note[8192];

void gs_prop_note(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    note[0] = '\n';
    vsnprintf(note + 1, sizeof note - 1, fmt, ap);
    va_end(ap);
}

const char *gs_prop_noted(void)
{
    return note;
}

void gs_prop_unnote(void)
{
    note[0] = '\0';
}

const char *gs_prop_fmt(const char *fmt, ...)
{
    static char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    return msg;
}
