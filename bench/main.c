/* main.c - runs every benchmark in benches.h, or those named on the
 * command line. */
#include <stdio.h>
#include <string.h>

#include "benches.h"

int main(int argc, char **argv)
{
    int failed = 0;
#define GS_RUN_BENCH(name)                                                     \
    if (argc < 2 || strcmp(argv[1], #name) == 0) {                             \
        printf("== %s\n", #name);                                              \
        fflush(stdout);                                                        \
        failed |= gs_bench_##name();                                           \
    }
    GS_BENCHES(GS_RUN_BENCH)
    return failed ? 1 : 0;
}
