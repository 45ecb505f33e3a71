/* test_api.c - unit tests for the API surface outside the puzzles: the
 * CORS and log-format options (syntax checks, origin matching), the
 * traceparent parser, the build version and the ETag helper. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/config.h"
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
    suite_add_tcase(s, tc);
    return s;
}
