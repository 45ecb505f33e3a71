/* test_http.c - HTTP integration tests (to be written). */
#include "suites.h"

Suite *gs_itest_http_suite(void)
{
    return suite_create("http");
}
