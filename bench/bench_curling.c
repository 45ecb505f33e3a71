/* bench_curling.c - benchmark for curling (to be written). */
#include <stdio.h>

#include "benches.h"

int gs_bench_curling(void)
{
    printf("no benchmark yet\n");
    return 0;
}
