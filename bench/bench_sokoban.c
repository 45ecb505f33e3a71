/* bench_sokoban.c - benchmark for sokoban (to be written). */
#include <stdio.h>

#include "benches.h"

int gs_bench_sokoban(void)
{
    printf("no benchmark yet\n");
    return 0;
}
