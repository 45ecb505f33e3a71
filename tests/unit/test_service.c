/* test_service.c - unit tests for service (to be written). */
#include "suites.h"

Suite *gs_test_service_suite(void)
{
    Suite *s = suite_create("service");
    return s;
}
