/* main.c - runs every benchmark in benches.h, or the one named on the
 * command line; an unknown name is a usage error (exit 2), not a run of
 * nothing that passes. */
#include <stdio.h>
#include <string.h>

#include "benches.h"

int main(int argc, char **argv)
{
    int failed = 0, ran = 0;
    if (argc > 2) {
        fprintf(stderr, "usage: bench [NAME]\n");
        return 2;
    }
#define GS_RUN_BENCH(name)                                                     \
    if (argc < 2 || strcmp(argv[1], #name) == 0) {                             \
        printf("== %s\n", #name);                                              \
        fflush(stdout);                                                        \
        failed |= gs_bench_##name();                                           \
        ran++;                                                                 \
    }
    GS_BENCHES(GS_RUN_BENCH)
    if (ran == 0) {
#define GS_NAME_BENCH(name) " " #name
        fprintf(stderr, "bench: no benchmark '%s' (one of:%s)\n", argv[1],
                GS_BENCHES(GS_NAME_BENCH));
        return 2;
    }
    return failed ? 1 : 0;
}
