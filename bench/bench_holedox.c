/* bench_holedox.c - benchmark for holedox (to be written). */
#include <stdio.h>

#include "benches.h"

int gs_bench_holedox(void)
{
    printf("no benchmark yet\n");
    return 0;
}
