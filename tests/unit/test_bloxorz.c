/* test_bloxorz.c - unit tests for bloxorz (to be written). */
#include "suites.h"

Suite *gs_test_bloxorz_suite(void)
{
    Suite *s = suite_create("bloxorz");
    return s;
}
