/* main.c - runs every integration suite against GRIDSOLVE_BIN.
 *
 * Each test starts its own server (see harness.h), so tests are
 * independent and may run in any order. libcurl is initialised here, once,
 * before any test thread exists, as it requires.
 */
#include <stdio.h>
#include <stdlib.h>

#include <curl/curl.h>

#include "harness.h"
#include "suites.h"

int main(void)
{
    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
        fprintf(stderr, "integration_tests: curl_global_init failed\n");
        return EXIT_FAILURE;
    }
    fprintf(stderr, "integration_tests: testing %s\n", gs_itest_bin());
    SRunner *sr = srunner_create(NULL);
#define GS_ADD_SUITE(name) srunner_add_suite(sr, gs_itest_##name##_suite());
    GS_INTEGRATION_SUITES(GS_ADD_SUITE)
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    gs_srv_kill_all();
    curl_global_cleanup();
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
