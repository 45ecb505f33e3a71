/* test_solve.c - POST /solve/{puzzle} end to end: JSON mode and judge text
 * mode on the classic samples (answers known from the judges), request
 * errors 400/415/422 with their problem details, and the state cap. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "itest.h"
#include "suites.h"
#include "../samples.h"

/* ---- judge samples: the shared ones are in ../samples.h; these rows
 * and cells (for the replayers) are used here only. ---- */

static const char *const blox_grid[] = {"#######", "#..X###", "#..##O#",
                                        "#....E#", "#....E#", "#.....#",
                                        "#######"};

static const int wall_cells[4 * 6] = {10, 2,  10, 10, 2,  6,  3,  12,
                                      11, 14, 9,  4,  13, 15, 3,  6,
                                      15, 13, 14, 11, 12, 9,  14, 11};

static const char *const soko_case1[] = {"######", "#..#X#", "#@.**#",
                                         "#..*@#", "##..##", "#..@.#",
                                         "#....#", "######"};

/* Builds {"grid":[rows...]<extra>} into buf. */
static void grid_json(char *buf, size_t cap, const char *const *rows, int n,
                      const char *extra)
{
    size_t k = (size_t)snprintf(buf, cap, "{\"grid\":[");
    for (int i = 0; i < n && k < cap; i++)
        k += (size_t)snprintf(buf + k, cap - k, "%s\"%s\"", i ? "," : "",
                              rows[i]);
    if (k < cap)
        snprintf(buf + k, cap - k, "]%s}", extra ? extra : "");
}

/* POSTs body as judge text and asserts the exact output. */
static void judge_exact(const gs_srv *s, const char *path, const char *body,
                        const char *want)
{
    gs_resp r;
    gs_post(s, path, "text/plain", body, &r);
    ck_assert_int_eq(r.curl_rc, 0);
    ck_assert_msg(r.status == 200, "%s: HTTP %ld %s", path, r.status,
                  r.body ? r.body : "");
    ck_assert_msg(strncmp(r.content_type, "text/plain", 10) == 0,
                  "Content-Type '%s'", r.content_type);
    ck_assert_msg(r.body && strcmp(r.body, want) == 0,
                  "%s: judge output\n%s\nexpected\n%s", path,
                  r.body ? r.body : "(empty)", want);
    gs_resp_free(&r);
}

/* ---- JSON mode ---- */

START_TEST(bloxorz_json)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    itest_post_json(&s, "bloxorz", GS_SAMPLE_BLOXORZ_JSON, &r);
    cJSON *j = itest_solve_ok(&r, "bloxorz", "solved", 10, "UDLR");
    char why[128];
    ck_assert_msg(itest_bloxorz_replay(blox_grid, 7, itest_str(j, "moves"), why,
                                       sizeof(why)),
                  "moves %s do not replay: %s", itest_str(j, "moves"), why);
    cJSON_Delete(j);
    gs_resp_free(&r);

    itest_post_json(&s, "bloxorz",
                    "{\"grid\":[\"#########\",\"#X..E..O#\",\"#########\"]}",
                    &r);
    cJSON_Delete(itest_solve_ok(&r, "bloxorz", "impossible", -1, ""));
    gs_resp_free(&r);

    /* Two adjacent X: the block starts lying; 3 moves on the judge's
     * tricky board. */
    itest_post_json(&s, "bloxorz",
                    "{\"grid\":[\"#######\",\"#.XX..#\",\"#.....#\","
                    "\"#...O.#\",\"#######\"]}",
                    &r);
    cJSON_Delete(itest_solve_ok(&r, "bloxorz", "solved", 3, "UDLR"));
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(curling_json)
{
    static const struct {
        const char *body;
        const char *status;
        int steps;
    } cases[] = {
        {"{\"board\":[[3,2]]}", "solved", 1},
        {"{\"board\":[[1,0,0,2,1,0],[1,1,0,0,0,0],[0,0,0,0,0,3],"
         "[0,0,0,0,0,0],[1,0,0,0,0,1],[0,1,1,1,1,1]]}",
         "solved", 4},
        {"{\"board\":[[1,1,2,1,1,3]]}", "impossible", -1},
        {"{\"board\":[[1,0,2,1,1,3]]}", "solved", 4},
        {"{\"board\":[[2,0,1,1,1,1,1,1,1,1,1,3]]}", "solved", 10},
        {"{\"board\":[[2,0,1,1,1,1,1,1,1,1,1,1,3]]}", "impossible", -1},
        /* max_throws lifts the judge's cap of 10. */
        {"{\"board\":[[2,0,1,1,1,1,1,1,1,1,1,1,3]],\"max_throws\":11}",
         "solved", 11},
    };
    gs_srv s;
    ITEST_START(&s, NULL);
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        gs_resp r;
        itest_post_json(&s, "curling", cases[i].body, &r);
        cJSON_Delete(itest_solve_ok(&r, "curling", cases[i].status,
                                    cases[i].steps, "UDLR"));
        gs_resp_free(&r);
    }
    ITEST_STOP(&s);
}
END_TEST

START_TEST(wallpushers_json)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    /* The judge's `2 3` is column 2, row 3 (1-based): [row 2, col 1]. */
    itest_post_json(&s, "wallpushers",
                    "{\"start\":[2,1],\"walls\":[[10,2,10,10,2,6],"
                    "[3,12,11,14,9,4],[13,15,3,6,15,13],"
                    "[14,11,12,9,14,11]]}",
                    &r);
    cJSON *j = itest_solve_ok(&r, "wallpushers", "solved", 16, "NSWE");
    char why[128];
    ck_assert_msg(itest_wallpushers_replay(wall_cells, 4, 6, 2, 1,
                                           itest_str(j, "moves"), why,
                                           sizeof(why)),
                  "moves %s do not replay: %s", itest_str(j, "moves"), why);
    cJSON_Delete(j);
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(holedox_json)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    itest_post_json(&s, "holedox",
                    "{\"rows\":5,\"cols\":6,"
                    "\"snake\":[[3,0],[3,1],[2,1],[2,0]],"
                    "\"blocks\":[[1,2],[2,2],[2,3]]}",
                    &r);
    cJSON_Delete(itest_solve_ok(&r, "holedox", "solved", 9, "UDLR"));
    gs_resp_free(&r);
    itest_post_json(&s, "holedox",
                    "{\"rows\":4,\"cols\":4,"
                    "\"snake\":[[1,2],[0,2],[0,3],[1,3]],"
                    "\"blocks\":[[1,0],[1,1],[2,3],[3,1]],\"target\":[0,0]}",
                    &r);
    cJSON_Delete(itest_solve_ok(&r, "holedox", "impossible", -1, ""));
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(sokoban_json)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    char body[1024];
    grid_json(body, sizeof(body), soko_case1, 8, ",\"notation\":\"seed\"");
    gs_resp r;
    itest_post_json(&s, "sokoban", body, &r);
    cJSON *j = itest_solve_ok(&r, "sokoban", "solved", 6, "udlrUDLR");
    const cJSON *pushes = cJSON_GetObjectItemCaseSensitive(j, "pushes");
    ck_assert_msg(cJSON_IsNumber(pushes), "sokoban answer without pushes");
    const char *mv = itest_str(j, "moves");
    int upper = 0;
    for (const char *m = mv; *m; m++)
        upper += *m >= 'A' && *m <= 'Z';
    ck_assert_int_eq(pushes->valueint, upper);
    char why[128];
    ck_assert_msg(
        itest_sokoban_seed_replay(soko_case1, 8, mv, why, sizeof(why)),
        "moves %s do not replay: %s", mv, why);
    cJSON_Delete(j);
    gs_resp_free(&r);

    /* Standard XSB notation. */
    itest_post_json(&s, "sokoban", "{\"grid\":[\"#####\",\"#@$.#\",\"#####\"]}",
                    &r);
    j = itest_solve_ok(&r, "sokoban", "solved", 1, "udlrUDLR");
    ck_assert_str_eq(itest_str(j, "moves"), "R");
    pushes = cJSON_GetObjectItemCaseSensitive(j, "pushes");
    ck_assert_msg(cJSON_IsNumber(pushes) && pushes->valueint == 1,
                  "pushes should be 1");
    cJSON_Delete(j);
    gs_resp_free(&r);

    /* Seed case 14: boxes stuck on the top row. */
    static const char *const stuck[] = {"#####", "#***#", "#X@##",
                                        "##@@#", "#.#.#", "#####"};
    grid_json(body, sizeof(body), stuck, 6, ",\"notation\":\"seed\"");
    itest_post_json(&s, "sokoban", body, &r);
    cJSON_Delete(itest_solve_ok(&r, "sokoban", "impossible", -1, ""));
    gs_resp_free(&r);

    /* optimize=pushes still gives a valid, push-minimal answer: 1 push. */
    grid_json(body, sizeof(body), soko_case1, 8,
              ",\"notation\":\"seed\",\"optimize\":\"pushes\"");
    itest_post_json(&s, "sokoban", body, &r);
    j = itest_solve_ok(&r, "sokoban", "solved", -1, "udlrUDLR");
    mv = itest_str(j, "moves");
    ck_assert_msg(
        itest_sokoban_seed_replay(soko_case1, 8, mv, why, sizeof(why)),
        "optimize=pushes moves %s do not replay: %s", mv, why);
    cJSON_Delete(j);
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* `any` under deadlines of a few milliseconds: its portfolio's slices
 * start late, and every answer is still a 200 that is solved or a limit
 * (a slice started past its deadline once read as solved without moves,
 * and the server answered 500). */
START_TEST(sokoban_any_tiny_deadlines)
{
    static const char *const even[] = {
        " ######### ", "##   #   ##", "#    #    #", "#  $ # $  #",
        "#   *.*   #", "####.@.####", "#   *.*   #", "#  $ # $  #",
        "#    #    #", "##   #   ##", " ######### "};
    gs_srv s;
    ITEST_START(&s, NULL);
    char body[1024], extra[128];
    for (int ms = 1; ms <= 6; ms++) {
        snprintf(extra, sizeof extra,
                 ",\"optimize\":\"any\",\"limits\":{\"timeout_ms\":%d}", ms);
        grid_json(body, sizeof body, even, 11, extra);
        for (int k = 0; k < 5; k++) {
            gs_resp r;
            itest_post_json(&s, "sokoban", body, &r);
            ck_assert_msg(r.status == 200, "%d ms: %ld %s", ms, r.status,
                          r.body ? r.body : "");
            cJSON *j = cJSON_Parse(r.body);
            ck_assert_ptr_nonnull(j);
            const char *st = itest_str(j, "status");
            ck_assert_msg(st && (!strcmp(st, "limit") || !strcmp(st, "solved")),
                          "%d ms: status %s", ms, st ? st : "(none)");
            /* The whole answer's contract for that status. */
            cJSON_Delete(itest_solve_ok(&r, "sokoban", st, -1, "udlrUDLR"));
            cJSON_Delete(j);
            gs_resp_free(&r);
        }
    }
    ITEST_STOP(&s);
}
END_TEST

/* A JSON content type with parameters is still JSON. */
START_TEST(json_charset_parameter)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    gs_post(&s, "/solve/bloxorz", "application/json; charset=utf-8",
            GS_SAMPLE_BLOXORZ_JSON, &r);
    cJSON_Delete(itest_solve_ok(&r, "bloxorz", "solved", 10, "UDLR"));
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* ---- judge text mode ---- */

START_TEST(judge_text_samples)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    judge_exact(&s, "/solve/bloxorz", GS_SAMPLE_BLOXORZ_IN, "10\n");
    judge_exact(&s, "/solve/curling", GS_SAMPLE_CURLING_IN,
                "1\n4\n-1\n4\n10\n-1\n");
    judge_exact(&s, "/solve/holedox", GS_SAMPLE_HOLEDOX_IN,
                "Case 1: 9\nCase 2: -1\n");
    judge_exact(&s, "/solve/sokoban", GS_SAMPLE_SOKOBAN_SEED_IN,
                GS_SAMPLE_SOKOBAN_SEED_OUT);
    ITEST_STOP(&s);
}
END_TEST

/* Any shortest wallpushers path is right: check length and replay. */
START_TEST(judge_text_wallpushers)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    gs_post(&s, "/solve/wallpushers", "text/plain", GS_SAMPLE_WALLPUSHERS_IN,
            &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_ptr_nonnull(r.body);
    ck_assert_msg(r.len == 17 && r.body[16] == '\n',
                  "expected one 16-move line, got '%s'", r.body);
    r.body[16] = '\0';
    char why[128];
    ck_assert_msg(itest_wallpushers_replay(wall_cells, 4, 6, 2, 1, r.body, why,
                                           sizeof(why)),
                  "moves %s do not replay: %s", r.body, why);
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(judge_text_query_limit)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    /* Five states cannot reach a 10-move answer. */
    judge_exact(&s, "/solve/bloxorz?max_states=5", GS_SAMPLE_BLOXORZ_IN,
                "limit\n");
    judge_exact(&s, "/solve/bloxorz?timeout_ms=10000", GS_SAMPLE_BLOXORZ_IN,
                "10\n");
    ITEST_STOP(&s);
}
END_TEST

START_TEST(judge_text_invalid)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    /* Second case: row 2 is one cell short. */
    gs_post(&s, "/solve/bloxorz", "text/plain",
            "3 5\n#####\n#X.O#\n#####\n3 5\n#####\n#X.O\n#####\n0 0\n", &r);
    cJSON *j = itest_problem(&r, 422, "invalid-puzzle", "/solve/bloxorz");
    const char *d = itest_str(j, "detail");
    ck_assert_msg(itest_icontains(d, "case 2"), "detail '%s' names no case", d);
    cJSON_Delete(j);
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* ---- request errors ---- */

START_TEST(bad_request_400)
{
    static const struct {
        const char *puzzle, *body, *field;
    } cases[] = {
        {"bloxorz", "{\"grid\": [\"#####\"", NULL}, /* truncated JSON */
        {"bloxorz", "not json at all", NULL},
        {"bloxorz", "{\"grid\": 5}", "grid"}, /* wrong type */
        {"bloxorz", "{}", "grid"},            /* missing */
        {"curling", "{\"board\": \"0 2 3\"}", "board"},
        {"holedox", "{\"rows\":5,\"cols\":6,\"blocks\":[]}", "snake"},
        {"wallpushers", "{\"start\":[0,0]}", "walls"},
        {"sokoban", "{\"grid\":[\"#####\",7,\"#####\"]}", "grid"},
        {"curling", "{\"board\":[[2,3]],\"max_throws\":\"ten\"}", "max_throws"},
        {"bloxorz", "[1,2,3]", NULL}, /* not an object */
        {"bloxorz", "", NULL},        /* empty body */
        {"bloxorz", "{\"grid\":[\"#X..O#\"]} trailing", NULL},
        {"bloxorz", "{\"grid\":[\"#X..O#\"],\"limits\":5}", "limits"},
        {"bloxorz", "{\"grid\":[\"#X..O#\"],\"limits\":{\"timeout_ms\":\"x\"}}",
         "timeout_ms"},
    };
    gs_srv s;
    ITEST_START(&s, NULL);
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        char path[64];
        snprintf(path, sizeof(path), "/solve/%s", cases[i].puzzle);
        gs_resp r;
        gs_post(&s, path, "application/json", cases[i].body, &r);
        cJSON *j = itest_problem(&r, 400, "bad-request", path);
        const char *d = itest_str(j, "detail");
        if (cases[i].field)
            ck_assert_msg(strstr(d, cases[i].field),
                          "case %zu: detail '%s' does not name '%s'", i, d,
                          cases[i].field);
        cJSON_Delete(j);
        gs_resp_free(&r);
    }
    ITEST_STOP(&s);
}
END_TEST

/* Judge mode's query options are validated like JSON fields. */
START_TEST(judge_text_bad_query)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    static const struct {
        const char *path, *name;
    } cases[] = {
        {"/solve/bloxorz?timeout_ms=abc", "timeout_ms"},
        {"/solve/bloxorz?max_states=-1", "max_states"},
        {"/solve/bloxorz?max_states=1.5", "max_states"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        gs_resp r;
        gs_post(&s, cases[i].path, "text/plain", GS_SAMPLE_BLOXORZ_IN, &r);
        cJSON *j = itest_problem(&r, 400, "bad-request", "/solve/bloxorz");
        const char *d = itest_str(j, "detail");
        ck_assert_msg(strstr(d, cases[i].name), "detail '%s' does not name %s",
                      d, cases[i].name);
        cJSON_Delete(j);
        gs_resp_free(&r);
    }
    /* An unknown puzzle is a 404 in judge mode too. */
    gs_resp r;
    gs_post(&s, "/solve/chess", "text/plain", "0 0\n", &r);
    cJSON_Delete(itest_problem(&r, 404, "not-found", "/solve/chess"));
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(unsupported_media_type_415)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    const char *types[] = {"application/xml",
                           "application/x-www-form-urlencoded", "image/png"};
    for (size_t i = 0; i < 3; i++) {
        gs_resp r;
        gs_post(&s, "/solve/bloxorz", types[i], GS_SAMPLE_BLOXORZ_JSON, &r);
        cJSON_Delete(
            itest_problem(&r, 415, "unsupported-media-type", "/solve/bloxorz"));
        gs_resp_free(&r);
    }
    /* No Content-Type at all ("Content-Type:" makes curl drop its own). */
    gs_req none = {.method = "POST",
                   .path = "/solve/bloxorz",
                   .body = GS_SAMPLE_BLOXORZ_JSON,
                   .headers = {"Content-Type:"}};
    gs_resp r;
    gs_http(&s, &none, &r);
    cJSON_Delete(
        itest_problem(&r, 415, "unsupported-media-type", "/solve/bloxorz"));
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(invalid_puzzle_422)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    /* Ragged grid: the fourth row (index 3, 1-based 4) is short. */
    itest_post_json(&s, "bloxorz",
                    "{\"grid\":[\"#######\",\"#..X###\",\"#..##O#\","
                    "\"#....E\",\"#....E#\",\"#.....#\",\"#######\"]}",
                    &r);
    cJSON *j = itest_problem(&r, 422, "invalid-puzzle", "/solve/bloxorz");
    const char *d = itest_str(j, "detail");
    ck_assert_msg(strstr(d, "row 3") || strstr(d, "row 4"),
                  "detail '%s' does not name the ragged row", d);
    cJSON_Delete(j);
    gs_resp_free(&r);

    static const struct {
        const char *puzzle, *body;
    } cases[] = {
        {"bloxorz", "{\"grid\":[\"#####\",\"#X.?#\",\"#####\"]}"},
        {"bloxorz", "{\"grid\":[\"#####\",\"#X..#\",\"#####\"]}"}, /* no O */
        {"bloxorz", "{\"grid\":[]}"},
        {"bloxorz", "{\"grid\":[\"#####\",\"#X.X#\",\"#O..#\"]}"},
        {"curling", "{\"board\":[[0,0,3]]}"},       /* no start */
        {"curling", "{\"board\":[[2,0,3],[0,0]]}"}, /* ragged */
        {"curling", "{\"board\":[[2,7,3]]}"},
        {"holedox", "{\"rows\":5,\"cols\":6,\"snake\":[[3,0],[1,1]],"
                    "\"blocks\":[]}"}, /* not chained */
        {"holedox", "{\"rows\":5,\"cols\":6,\"snake\":[[3,0],[3,1]],"
                    "\"blocks\":[[3,1]]}"}, /* on a stone */
        {"holedox", "{\"rows\":5,\"cols\":6,\"snake\":[[9,0],[8,0]],"
                    "\"blocks\":[]}"}, /* off the board */
        {"wallpushers", "{\"start\":[0,0],\"walls\":[[4,0]]}"}, /* disagree */
        {"wallpushers", "{\"start\":[5,5],\"walls\":[[0,0]]}"},
        {"sokoban", "{\"grid\":[\"#######\",\"#@$$.#\",\"#######\"]}"},
        {"sokoban", "{\"grid\":[\"#####\",\"#@ .#\",\"#####\"]}"}, /* no box */
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
        char path[64];
        snprintf(path, sizeof(path), "/solve/%s", cases[i].puzzle);
        itest_post_json(&s, cases[i].puzzle, cases[i].body, &r);
        ck_assert_msg(r.status == 422, "case %zu %s: HTTP %ld %s", i,
                      cases[i].body, r.status, r.body ? r.body : "");
        cJSON_Delete(itest_problem(&r, 422, "invalid-puzzle", path));
        gs_resp_free(&r);
    }
    ITEST_STOP(&s);
}
END_TEST

START_TEST(wallpushers_disagreeing_wall_names_both)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    gs_resp r;
    /* (0,0) says east wall, (0,1) has no west wall. */
    itest_post_json(&s, "wallpushers",
                    "{\"start\":[0,0],\"walls\":[[4,0],[0,0]]}", &r);
    cJSON *j = itest_problem(&r, 422, "invalid-puzzle", "/solve/wallpushers");
    const char *d = itest_str(j, "detail");
    ck_assert_msg(strstr(d, "0") && strstr(d, "1"),
                  "detail '%s' does not name both cells", d);
    cJSON_Delete(j);
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* ---- state cap ---- */

START_TEST(max_states_limit)
{
    gs_srv s;
    ITEST_START(&s, NULL);
    char body[512];
    grid_json(body, sizeof(body), blox_grid, 7,
              ",\"limits\":{\"max_states\":5}");
    gs_resp r;
    itest_post_json(&s, "bloxorz", body, &r);
    cJSON *j = itest_solve_ok(&r, "bloxorz", "limit", -1, "");
    const char *lim = itest_str(j, "limit");
    ck_assert_msg(lim && strcmp(lim, "states") == 0, "limit '%s'",
                  lim ? lim : "(none)");
    cJSON_Delete(j);
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* The server's --max-states-limit clamps a larger request. */
START_TEST(max_states_clamped)
{
    gs_srv s;
    ITEST_START(&s, "--max-states", "3", "--max-states-limit", "5", NULL);
    char body[512];
    grid_json(body, sizeof(body), blox_grid, 7,
              ",\"limits\":{\"max_states\":100000000}");
    gs_resp r;
    itest_post_json(&s, "bloxorz", body, &r);
    cJSON *j = itest_solve_ok(&r, "bloxorz", "limit", -1, "");
    ck_assert_str_eq(itest_str(j, "limit"), "states");
    cJSON_Delete(j);
    gs_resp_free(&r);
    ITEST_STOP(&s);
}
END_TEST

Suite *gs_itest_solve_suite(void)
{
    Suite *s = suite_create("solve");
    TCase *tc = tcase_create("json");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, bloxorz_json);
    tcase_add_test(tc, curling_json);
    tcase_add_test(tc, wallpushers_json);
    tcase_add_test(tc, holedox_json);
    tcase_add_test(tc, sokoban_json);
    tcase_add_test(tc, sokoban_any_tiny_deadlines);
    tcase_add_test(tc, json_charset_parameter);
    suite_add_tcase(s, tc);

    tc = tcase_create("judge");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, judge_text_samples);
    tcase_add_test(tc, judge_text_wallpushers);
    tcase_add_test(tc, judge_text_query_limit);
    tcase_add_test(tc, judge_text_invalid);
    tcase_add_test(tc, judge_text_bad_query);
    suite_add_tcase(s, tc);

    tc = tcase_create("errors");
    tcase_set_timeout(tc, 20);
    tcase_add_test(tc, bad_request_400);
    tcase_add_test(tc, unsupported_media_type_415);
    tcase_add_test(tc, invalid_puzzle_422);
    tcase_add_test(tc, wallpushers_disagreeing_wall_names_both);
    tcase_add_test(tc, max_states_limit);
    tcase_add_test(tc, max_states_clamped);
    suite_add_tcase(s, tc);
    return s;
}
