/* benches.h - every benchmark, registered in one list. Each
 * bench/bench_<name>.c defines int gs_bench_<name>(void), printing its
 * figures (beside the target where there is one) and returning
 * nonzero when something failed to run. */
#ifndef GS_BENCHES_H
#define GS_BENCHES_H

#define GS_BENCHES(X)                                                          \
    X(bloxorz)                                                                 \
    X(curling)                                                                 \
    X(wallpushers)                                                             \
    X(holedox)                                                                 \
    X(sokoban)                                                                 \
    X(perstate) /* last: its 16 MB input would set the others' peak RSS */

#define GS_DECLARE_BENCH(name) int gs_bench_##name(void);
GS_BENCHES(GS_DECLARE_BENCH)

#endif
