/* suites.h - every integration suite, registered in one list. */
#ifndef GS_ITEST_SUITES_H
#define GS_ITEST_SUITES_H

#include <check.h>

#define GS_INTEGRATION_SUITES(X)                                               \
    X(http)                                                                    \
    X(solve) X(ops) X(api) X(limits) X(lifecycle) X(framing) X(stream) X(slow)

#define GS_DECLARE_SUITE(name) Suite *gs_itest_##name##_suite(void);
GS_INTEGRATION_SUITES(GS_DECLARE_SUITE)

#endif
