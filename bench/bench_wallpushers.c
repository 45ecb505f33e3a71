/* bench_wallpushers.c - benchmark for wallpushers (to be written). */
#include <stdio.h>

#include "benches.h"

int gs_bench_wallpushers(void)
{
    printf("no benchmark yet\n");
    return 0;
}
