/* test_sokoban.c - unit tests for sokoban (to be written). */
#include "suites.h"

Suite *gs_test_sokoban_suite(void)
{
    Suite *s = suite_create("sokoban");
    return s;
}
