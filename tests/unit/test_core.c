/* test_core.c - unit tests for core (to be written). */
#include "suites.h"

Suite *gs_test_core_suite(void)
{
    Suite *s = suite_create("core");
    return s;
}
