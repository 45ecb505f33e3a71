/* bench_bloxorz.c - benchmark for bloxorz (to be written). */
#include <stdio.h>

#include "benches.h"

int gs_bench_bloxorz(void)
{
    printf("no benchmark yet\n");
    return 0;
}
