/* fuzz_service.c - libFuzzer harness for the request path.
 *
 * The input is a request body for /solve/<puzzle>, run end to end through
 * gs_service_json (JSON mode) or gs_service_text (judge text mode) with
 * small limits, as the server's workers run it: with the query's limits
 * and a first attempt on a tighter budget, as a byte of the input picks
 * (LLVMFuzzerTestOneInput). Oracles beyond the
 * sanitizers: a success in JSON mode is a JSON object naming the puzzle
 * and a status; a failure is a 400, 422 or out-of-memory error (never
 * GS_EINTERNAL) whose problem document is valid JSON; text output is
 * whole lines; the memory budget is back where it started; no request
 * runs seconds past its millisecond deadline.
 */
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "fuzz.h"
#include "gridsolve/mem.h"
#include "gridsolve/service.h"

static gs_fuzz_target target;
static gs_solve_opts opts;
/* Refusals before this input: a check's own parse may be refused only
 * when the budget refused something during the input. */
static uint64_t refused_before;

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    gs_fuzz_setup(&target);
    gs_solve_opts_default(&opts);
    opts.timeout_ms = GS_FUZZ_TIMEOUT_MS;
    opts.max_timeout_ms = 2 * GS_FUZZ_TIMEOUT_MS;
    opts.max_states = GS_FUZZ_MAX_STATES;
    opts.max_states_limit = 2 * GS_FUZZ_MAX_STATES;
    opts.max_solve_bytes = 16u << 20;
    /* Larger boards than fuzz_parse allows: a body declaring one must
     * still stop at the deadline (checked below). */
    opts.caps.max_cells = GS_FUZZ_SERVICE_MAX_CELLS;
    opts.text_format = target.format;
    return 0;
}

/* A JSON-mode response: one object with the puzzle's name and a status. */
static void check_json_response(const gs_buf *out)
{
    gs_fuzz_check(out->len > 0, "empty JSON response");
    cJSON *doc = cJSON_ParseWithLength(out->data, out->len);
    if (!doc && gs_mem_refused() > refused_before)
        return; /* the budget refused the check's own parse */
    gs_fuzz_check(doc != NULL, "JSON response does not parse");
    const cJSON *p = cJSON_GetObjectItemCaseSensitive(doc, "puzzle");
    const cJSON *s = cJSON_GetObjectItemCaseSensitive(doc, "status");
    gs_fuzz_check(cJSON_IsString(p) &&
                      strcmp(p->valuestring, target.puzzle->name) == 0,
                  "response names another puzzle");
    gs_fuzz_check(cJSON_IsString(s), "response has no status");
    cJSON_Delete(doc);
}

/* An error: a client error or out of memory, with a parseable problem. */
static void check_error(int rc, const gs_error *err)
{
    gs_fuzz_check(rc == GS_EBADREQ || rc == GS_EINVALID || rc == GS_ENOMEM,
                  "request failed with an unexpected code");
    gs_fuzz_check(err->detail[0] != '\0', "error without a detail");
    gs_buf prob = GS_BUF_INIT;
    gs_service_problem_json(err, gs_error_http_status(rc), "/solve/x", &prob);
    if (gs_buf_status(&prob) == GS_OK) {
        cJSON *doc = cJSON_ParseWithLength(prob.data, prob.len);
        gs_fuzz_check(doc != NULL || gs_mem_refused() > refused_before,
                      "problem document does not parse");
        cJSON_Delete(doc);
    }
    gs_buf_free(&prob);
}

/* Runs the request once with o; checks the time it took. */
static int run_once(const uint8_t *data, size_t size, const gs_solve_opts *o,
                    double q_timeout, long long q_states, gs_buf *out,
                    gs_error *err)
{
    gs_solve_info info;
    int rc;
    double t0 = (double)gs_now_ns();
    if (target.text)
        rc = gs_service_text(target.puzzle, (const char *)data, size, o,
                             q_timeout, q_states, out, &info, err);
    else
        rc = gs_service_json(target.puzzle, (const char *)data, size, o, out,
                             &info, err);
    /* Deadlines of milliseconds: seconds mean a limit went unchecked. */
    gs_fuzz_check(((double)gs_now_ns() - t0) / 1e6 < GS_FUZZ_OVERRUN_MS,
                  "request overran its deadline by seconds");
    return rc;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    uint64_t before = gs_mem_used();
    refused_before = gs_mem_refused();
    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    /* A byte of the input picks what the server may add: the query's
     * timeout_ms and max_states (judge text; clamped to opts), and a
     * first attempt on a budget tighter than the request's, run again in
     * full when it runs out (the server's fast lane). */
    uint8_t v = size ? data[size / 2] : 0;
    static const double q_timeouts[] = {-1, 0, 1, 1e300};
    static const long long q_states[] = {-1, 1, 50, 9000000000000000000LL};
    double q_timeout = q_timeouts[(v >> 1) & 3];
    long long q_state = q_states[(v >> 3) & 3];
    int rc = GS_SERVICE_AGAIN;
    if (v & 1) {
        gs_solve_opts probe = opts;
        probe.probe.timeout_ms = 1;
        probe.probe.max_states = GS_FUZZ_MAX_STATES / 4;
        probe.probe.max_bytes = 1u << 20;
        rc = run_once(data, size, &probe, q_timeout, q_state, &out, &err);
        if (rc == GS_SERVICE_AGAIN) {
            gs_fuzz_check(out.len == 0, "a probe run out left output");
            err = (gs_error){0};
        }
    }
    if (rc == GS_SERVICE_AGAIN)
        rc = run_once(data, size, &opts, q_timeout, q_state, &out, &err);
    if (rc != GS_OK)
        check_error(rc, &err);
    else if (!target.text)
        check_json_response(&out);
    else
        gs_fuzz_check(out.len == 0 || out.data[out.len - 1] == '\n',
                      "judge output ends mid-line");
    gs_buf_free(&out);
    gs_fuzz_check(gs_mem_used() == before, "memory budget not released");
    return 0;
}
