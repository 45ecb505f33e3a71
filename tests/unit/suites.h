/* suites.h - every unit test suite, registered in one list. Each
 * tests/unit/test_<name>.c defines Suite *gs_test_<name>_suite(void). */
#ifndef GS_TEST_SUITES_H
#define GS_TEST_SUITES_H

#include <check.h>

#define GS_UNIT_SUITES(X)                                                      \
    X(core)                                                                    \
    X(search)                                                                  \
    X(mem)                                                                     \
    X(service)                                                                 \
    X(server)                                                                  \
    X(bloxorz)                                                                 \
    X(curling)                                                                 \
    X(wallpushers)                                                             \
    X(holedox)                                                                 \
    X(sokoban)                                                                 \
    X(sokoban_text)                                                            \
    X(sokoban_rules)                                                           \
    X(sokoban_any)                                                             \
    X(regress)                                                                 \
    X(strict)                                                                  \
    X(api)

#define GS_DECLARE_SUITE(name) Suite *gs_test_##name##_suite(void);
GS_UNIT_SUITES(GS_DECLARE_SUITE)

#endif
