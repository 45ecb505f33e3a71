/* main.c - runs every unit suite listed in suites.h. */
#include <stdlib.h>

#include "gridsolve/cjson.h"
#include "suites.h"

int main(void)
{
    /* The tests call libcjson directly too: the table (and with it the
     * memory hooks tests install) is loaded before any tree exists. */
    gs_cjson_load();
    SRunner *sr = srunner_create(NULL);
#define GS_ADD_SUITE(name) srunner_add_suite(sr, gs_test_##name##_suite());
    GS_UNIT_SUITES(GS_ADD_SUITE)
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
