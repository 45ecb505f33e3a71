/* test_wallpushers.c - unit tests for wallpushers (to be written). */
#include "suites.h"

Suite *gs_test_wallpushers_suite(void)
{
    Suite *s = suite_create("wallpushers");
    return s;
}
