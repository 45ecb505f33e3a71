/* test_api.c - unit tests for the API surface outside the puzzles: the
 * CORS and log-format options (syntax checks, origin matching), the
 * traceparent parser, the build version and the ETag helper. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "gridsolve/config.h"
#include "gridsolve/etag.h"
#include "gridsolve/log.h"
#include "gridsolve/metrics.h"
#include "gridsolve/version.h"
#include "suites.h"

/* Parses `serve ARGS...` with an empty environment. */
static int parse_args(gs_server_config *c, const char *const *args, char *msg,
                      size_t len)
{
    char *argv[16] = {"serve"};
    int argc = 1;
    for (; args[argc - 1]; argc++)
        argv[argc] = (char *)args[argc - 1];
    gs_config_default(c);
    return gs_config_parse(c, argc, argv, NULL, msg, len);
}

START_TEST(cors_defaults)
{
    gs_server_config c;
    gs_config_default(&c);
    ck_assert_str_eq(c.cors_origin, "*");
    ck_assert_str_eq(c.cors_hdrs, "Content-Type, X-Request-Id, traceparent, "
                                  "tracestate, Authorization");
    ck_assert_str_eq(c.log_format, "text");
}
END_TEST

START_TEST(origin_matching)
{
    const char *list = "https://a.example, http://localhost:3000,https://B.EX";

    ck_assert(gs_config_origin_allowed("*", "https://any.where"));
    ck_assert(gs_config_origin_allowed("*", NULL)); /* not a CORS request */
    ck_assert(gs_config_origin_allowed(list, "https://a.example"));
    ck_assert(gs_config_origin_allowed(list, "http://localhost:3000"));
    ck_assert(gs_config_origin_allowed(list, "https://b.ex")); /* case */
    ck_assert(!gs_config_origin_allowed(list, "https://a.example.evil"));
    ck_assert(!gs_config_origin_allowed(list, "https://a.exampl"));
    ck_assert(!gs_config_origin_allowed(list, "http://localhost"));
    ck_assert(!gs_config_origin_allowed(list, "null"));
    ck_assert(!gs_config_origin_allowed(list, ""));
    ck_assert(!gs_config_origin_allowed(list, NULL));
}
END_TEST

START_TEST(cors_options_accepted)
{
    gs_server_config c;
    char msg[256];
    const char *a1[] = {"--cors-origin",
                        "https://a.example,http://[::1]:8080, http://x:1",
                        "--cors-headers",
                        "Content-Type, X-Custom_1",
                        "--log-format",
                        "json",
                        NULL};

    ck_assert_int_eq(parse_args(&c, a1, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_str_eq(c.cors_hdrs, "Content-Type, X-Custom_1");
    ck_assert_str_eq(c.log_format, "json");
}
END_TEST

START_TEST(cors_options_refused)
{
    static const struct {
        const char *flag, *value, *want;
    } cases[] = {
        {"--cors-origin", "https://a.example/",
         "--cors-origin: 'https://a.example/' is not an origin"},
        {"--cors-origin", "a.example", "'a.example' is not an origin"},
        {"--cors-origin", "https://a.example,*", "'*' is not an origin"},
        {"--cors-origin", "https://:80", "is not an origin"},
        {"--cors-origin", "https://a:", "is not an origin"},
        {"--cors-headers", "Content-Type, X Bad", "'X Bad' is not a header"},
        {"--cors-headers", "A,,B", "'' is not a header name"},
        {"--log-format", "yaml", "--log-format: 'yaml' is not text or json"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gs_server_config c;
        char msg[256];
        const char *args[] = {cases[i].flag, cases[i].value, NULL};
        ck_assert_int_eq(parse_args(&c, args, msg, sizeof msg),
                         GS_CONFIG_ERROR);
        ck_assert_msg(strstr(msg, cases[i].want), "case %zu: '%s' lacks '%s'",
                      i, msg, cases[i].want);
    }
}
END_TEST

/* The version is the VERSION file's (make runs the tests from the top of
 * the tree); the commit is a hex hash, possibly "-dirty", or empty. */
START_TEST(version_from_build)
{
    char want[64] = "";
    FILE *f = fopen("VERSION", "r");
    if (f) {
        if (fgets(want, sizeof want, f))
            want[strcspn(want, "\n")] = '\0';
        fclose(f);
        ck_assert_str_eq(gs_version(), want);
    }
    ck_assert(gs_version()[0] != '\0');
    const char *c = gs_commit();
    size_t hex = strspn(c, "0123456789abcdef");
    ck_assert_msg(c[hex] == '\0' || strcmp(c + hex, "-dirty") == 0,
                  "commit '%s'", c);
}
END_TEST

START_TEST(build_info_metric)
{
    gs_metrics *m;
    gs_buf b = GS_BUF_INIT;
    gs_metrics_gauges g = {0};
    char want[256];

    ck_assert_int_eq(gs_metrics_new(&m), GS_OK);
    ck_assert_int_eq(gs_metrics_render(m, &g, &b), GS_OK);
    snprintf(want, sizeof want,
             "\n# TYPE gridsolve_build_info gauge\n"
             "gridsolve_build_info{version=\"%s\",commit=\"%s\"} 1\n",
             gs_version(), gs_commit());
    ck_assert_msg(strstr(b.data, want), "no build info in:\n%.300s", b.data);
    gs_buf_free(&b);
    gs_metrics_free(m);
}
END_TEST

/* ---- traceparent and log lines ----------------------------------------- */

#define TP_OK "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

START_TEST(traceparent_valid)
{
    char out[GS_TRACEPARENT_LEN + 1];

    ck_assert(gs_traceparent_parse(TP_OK, out));
    ck_assert_str_eq(out, TP_OK);
    ck_assert(gs_traceparent_parse(
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00", out));
    /* A later version may carry more fields; only ours are kept. */
    ck_assert(gs_traceparent_parse(
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-ext", out));
    ck_assert_str_eq(out, "01-4bf92f3577b34da6a3ce929d0e0e4736-"
                          "00f067aa0ba902b7-01");
}
END_TEST

START_TEST(traceparent_invalid)
{
    static const char *const bad[] = {
        NULL,
        "",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",    /* short */
        "00-4BF92F3577B34DA6A3CE929D0E0E4736-00f067aa0ba902b7-01", /* case */
        "00-00000000000000000000000000000000-00f067aa0ba902b7-01", /* zero */
        "00-4bf92f3577b34da6a3ce929d0e0e4736-0000000000000000-01", /* zero */
        "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01", /* ff */
        "0g-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-0x",
        "00_4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
        "00-4bf92f3577b34da6a3ce929d0e0e473-600f067aa0ba902b7-01",
        TP_OK "-", /* version 00 is exactly 55 characters */
        "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01x",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char out[GS_TRACEPARENT_LEN + 1] = "";
        ck_assert_msg(!gs_traceparent_parse(bad[i], out), "case %zu", i);
    }
}
END_TEST

static const gs_log_entry sample = {
    .time = "2026-11-29T16:04:50.904Z",
    .method = "POST",
    .path = "/solve/bloxorz",
    .status = 200,
    .ms = 0.3084,
    .id = "bce2254e-000003",
    .result = "solved",
    .expanded = 33,
    .traceparent = TP_OK,
};

START_TEST(log_text_line)
{
    char buf[512];
    gs_log_entry e = sample;

    gs_log_format(&e, false, buf, sizeof buf);
    ck_assert_str_eq(buf, "2026-11-29T16:04:50.904Z POST /solve/bloxorz 200 "
                          "0.308ms id=bce2254e-000003 result=solved "
                          "expanded=33 traceparent=" TP_OK "\n");
    e.result = NULL;
    e.traceparent = NULL;
    e.status = 0;
    e.outcome = " aborted"; /* leading blanks ignored */
    gs_log_format(&e, false, buf, sizeof buf);
    ck_assert_str_eq(buf, "2026-11-29T16:04:50.904Z POST /solve/bloxorz - "
                          "0.308ms id=bce2254e-000003 aborted\n");
    /* A client's spaces cannot forge the fields after its path or id. */
    e = sample;
    e.result = NULL;
    e.traceparent = NULL;
    e.path = "/a 200 1.0ms id=fake%";
    e.id = "x result=solved";
    gs_log_format(&e, false, buf, sizeof buf);
    ck_assert_str_eq(buf, "2026-11-29T16:04:50.904Z POST "
                          "/a%20200%201.0ms%20id=fake%25 200 0.308ms "
                          "id=x%20result=solved\n");
}
END_TEST

START_TEST(log_json_line)
{
    char buf[512];
    gs_log_entry e = sample;

    size_t n = gs_log_format(&e, true, buf, sizeof buf);
    ck_assert_uint_eq(n, strlen(buf));
    ck_assert_str_eq(buf,
                     "{\"time\":\"2026-11-29T16:04:50.904Z\",\"method\":"
                     "\"POST\",\"path\":\"/solve/bloxorz\",\"status\":200,"
                     "\"ms\":0.308,\"id\":\"bce2254e-000003\",\"result\":"
                     "\"solved\",\"expanded\":33,\"traceparent\":\"" TP_OK
                     "\",\"trace_id\":\"4bf92f3577b34da6a3ce929d0e0e4736\"}"
                     "\n");
    /* Quotes and backslashes from the request are escaped. */
    e.path = "/a\"b\\c";
    e.status = 0;
    e.result = NULL;
    e.traceparent = NULL;
    e.outcome = "abandoned";
    gs_log_format(&e, true, buf, sizeof buf);
    cJSON *j = cJSON_Parse(buf);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(cJSON_GetObjectItem(j, "path")->valuestring, "/a\"b\\c");
    ck_assert(cJSON_IsNull(cJSON_GetObjectItem(j, "status")));
    ck_assert_str_eq(cJSON_GetObjectItem(j, "outcome")->valuestring,
                     "abandoned");
    ck_assert_ptr_null(cJSON_GetObjectItem(j, "result"));
    ck_assert_ptr_null(cJSON_GetObjectItem(j, "trace_id"));
    cJSON_Delete(j);
}
END_TEST

/* A buffer too small still yields one line, cut short. */
START_TEST(log_line_truncated)
{
    char buf[24];
    size_t n = gs_log_format(&sample, true, buf, sizeof buf);
    ck_assert_uint_eq(n, sizeof buf - 1);
    ck_assert_int_eq(buf[n - 1], '\n');
    ck_assert_int_eq(buf[n], '\0');
}
END_TEST

/* ---- ETag --------------------------------------------------------------- */

START_TEST(etag_make)
{
    char a[GS_ETAG_MAX], b[GS_ETAG_MAX], c[GS_ETAG_MAX], e[GS_ETAG_MAX];

    gs_etag_make("openapi: 3.0.3\n", 15, a);
    gs_etag_make("openapi: 3.0.3\n", 15, b);
    gs_etag_make("openapi: 3.0.4\n", 15, c);
    gs_etag_make("", 0, e);
    ck_assert_str_eq(a, b); /* stable */
    ck_assert_str_ne(a, c); /* one byte differs */
    ck_assert_str_ne(a, e);
    /* Strong (no W/), quoted, 32 hex digits. */
    ck_assert_uint_eq(strlen(a), 34);
    ck_assert_int_eq(a[0], '"');
    ck_assert_int_eq(a[33], '"');
    ck_assert_uint_eq(strspn(a + 1, "0123456789abcdef"), 32);
}
END_TEST

START_TEST(etag_if_none_match)
{
    const char *tag = "\"0123abcd\"";

    ck_assert(gs_etag_matches("\"0123abcd\"", tag));
    ck_assert(gs_etag_matches("W/\"0123abcd\"", tag)); /* weak compare */
    ck_assert(gs_etag_matches("\"x\", \"0123abcd\"", tag));
    ck_assert(gs_etag_matches(" \"x\" ,W/\"0123abcd\" ", tag));
    ck_assert(gs_etag_matches("*", tag));
    ck_assert(!gs_etag_matches(NULL, tag));
    ck_assert(!gs_etag_matches("", tag));
    ck_assert(!gs_etag_matches("\"0123abc\"", tag));
    ck_assert(!gs_etag_matches("\"0123abcd", tag)); /* unterminated */
    ck_assert(!gs_etag_matches("0123abcd", tag));   /* unquoted */
    ck_assert(!gs_etag_matches("\"x\" \"y\"", tag));
}
END_TEST

Suite *gs_test_api_suite(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("api");
    tcase_add_test(tc, cors_defaults);
    tcase_add_test(tc, origin_matching);
    tcase_add_test(tc, cors_options_accepted);
    tcase_add_test(tc, cors_options_refused);
    tcase_add_test(tc, version_from_build);
    tcase_add_test(tc, build_info_metric);
    tcase_add_test(tc, traceparent_valid);
    tcase_add_test(tc, traceparent_invalid);
    tcase_add_test(tc, log_text_line);
    tcase_add_test(tc, log_json_line);
    tcase_add_test(tc, log_line_truncated);
    tcase_add_test(tc, etag_make);
    tcase_add_test(tc, etag_if_none_match);
    suite_add_tcase(s, tc);
    return s;
}
