/* test_holedox.c - unit tests for holedox (to be written). */
#include "suites.h"

Suite *gs_test_holedox_suite(void)
{
    Suite *s = suite_create("holedox");
    return s;
}
