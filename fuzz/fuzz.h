/* fuzz.h - what the libFuzzer harnesses under fuzz/ share.
 *
 * Every harness binary serves every puzzle: the puzzle and the mode come
 * from the environment (GS_FUZZ_PUZZLE = a registry name, GS_FUZZ_MODE =
 * "json", "text", or "text-F" for judge text read in the notation F of the
 * puzzle's text_formats, as ?format=F asks), read once in
 * LLVMFuzzerInitialize. fuzz/run.sh runs
 * one binary per (harness, puzzle, mode) with its own corpus directory, so
 * coverage feedback stays per puzzle. The limits below keep each input to
 * milliseconds: the fuzzer looks for crashes and undefined behaviour in
 * parsing and solver set-up, not for hard puzzles.
 */
#ifndef GS_FUZZ_H
#define GS_FUZZ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gridsolve/puzzle.h"

/* Largest grid a fuzz input may declare: big enough for every sample,
 * small enough that allocating and scanning it costs microseconds. */
#define GS_FUZZ_MAX_CELLS 4096u
/* fuzz_service: boards up to 1M cells, so that a body declaring a large
 * one meets the deadline checks of parsing and set-up; and the time past
 * which a request (deadline 5-10 ms) counts as having ignored it. */
#define GS_FUZZ_SERVICE_MAX_CELLS (1u << 20)
#define GS_FUZZ_OVERRUN_MS 3000.0
/* A tiny solve: a few thousand states or a few milliseconds. */
#define GS_FUZZ_MAX_STATES 2000u
#define GS_FUZZ_TIMEOUT_MS 5.0
/* The process-wide budget (mem.h) the harnesses run under, so that the
 * budget's refusal paths are exercised and no input can grow without
 * bound. */
#define GS_FUZZ_BUDGET (256ull << 20)

typedef struct gs_fuzz_target {
    const gs_puzzle *puzzle;
    bool text;          /* judge text mode, else JSON mode */
    const char *format; /* text mode: the notation asked for, NULL = detect */
} gs_fuzz_target;

/* Reads GS_FUZZ_PUZZLE and GS_FUZZ_MODE, installs the memory budget and
 * cJSON's budget hooks as the server does. Exits with a message listing
 * the puzzles when the environment names none. */
void gs_fuzz_setup(gs_fuzz_target *t);

/* Aborts (a fuzzer finding) with `what` when cond is false: the harnesses'
 * oracles beyond "no crash". */
void gs_fuzz_check(bool cond, const char *what);

#endif
