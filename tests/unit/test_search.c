/* test_search.c - unit tests for search (to be written). */
#include "suites.h"

Suite *gs_test_search_suite(void)
{
    Suite *s = suite_create("search");
    return s;
}
