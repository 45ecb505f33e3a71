/* sokoban.h - what the files of the sokoban puzzle share: the parsed level
 * and the entry points between parsing (parse.c) and solving (solve.c).
 * Internal to src/puzzles/sokoban/.
 */
#ifndef GRIDSOLVE_SOKOBAN_INTERNAL_H
#define GRIDSOLVE_SOKOBAN_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>

#include "gridsolve/buf.h"
#include "gridsolve/puzzle.h"
#include "gridsolve/search.h"

/* Cell flags of a parsed instance. */
enum { SOK_WALL = 1, SOK_GOAL = 2, SOK_BOX = 4 };

/* The objectives a request names, and two phases of `any` on their own
 * (for tests): SOK_ANY_ASTAR, A* on pushes with the player's region in
 * the state; SOK_ANY_FESS, the feature-space search (fess.c);
 * SOK_ANY_PULL, the search backwards (pull.c). */
typedef enum {
    SOK_MOVES = 0,
    SOK_PUSHES = 1,
    SOK_ANY = 2,
    SOK_ANY_ASTAR = 3,
    SOK_ANY_FESS = 4,
    SOK_ANY_PULL = 5
} sok_objective;

/* Judge text notations: the contest's `N M` header with `X` player, `*`
 * box, `@` goal; or XSB collections as published. */
typedef enum { SOK_TEXT_CONTEST = 0, SOK_TEXT_XSB = 1 } sok_text_format;

/* A parsed level: the grid as flags, the player, the objective. */
typedef struct gs_sokoban {
    int rows, cols;
    uint8_t *cell; /* rows*cols SOK_* flags */
    int player;    /* r*cols + c */
    int nboxes, ngoals;
    sok_objective objective;
    sok_text_format text_format; /* how format_text answers */
    /* Tests only (0: the defaults SOK_PERIM_TRIGGER, SOK_PERIM_MAX_STATES):
     * states before the perimeter table is built, and its size. */
    uint64_t perim_trigger;
    size_t perim_cap;
    size_t perim_first; /* the table's first round (SOK_PERIM_FIRST) */
    int perim_share;    /* tests: percent of the time left to the table's
                         * rounds after the first (0: SOK_PERIM_SHARE...;
                         * negative: none) */
    /* Tests: the moves table turns from a slot per box set into a slot per
     * position once it holds so many (0: when it would take less room so,
     * asked once, perim.c). */
    size_t perim_unpack_at;
    bool learn_always; /* tests: learn deadlock patterns with few boxes */
    bool no_corridors; /* tests: the exact searches without corridor macros */
    bool one_search;   /* tests: `pushes` in one search, not two */
    int64_t fess_turn_ns; /* tests: SOK_ANY_FESS paused and resumed so often */
    bool fess_paired;     /* tests: SOK_ANY_FESS in turns with the search by
                           * weight from the start (any.c) */
    int64_t fess_hold_ns; /* tests: SOK_ANY_FESS alone, held so often with
                           * the search backwards run between (pair_hold) */
    int64_t any_short_ns; /* tests: `any`'s slices past this span as past
                           * SOK_ANY_SHORT_NS (0: that) */
    bool macros_alone;    /* tests: SOK_ANY without a deadline answers with the
                           * macro search's own end (impossible when it ran
                           * dry), not the plain search's */
    unsigned pull_order;  /* tests: SOK_ANY_PULL's order (SOK_PULL_* bits,
                           * gs_sokoban_pull) */
} gs_sokoban;

/* Builds an instance from nrows rows (row i is lens[i] bytes, not
 * necessarily NUL-terminated). Missing cells of short rows are floor.
 * Validates characters, one player, at least one box, enough goals.
 * `seed` selects the contest notation. Returns GS_OK or an error. */
int gs_sokoban_build(const char *const *rows, const size_t *lens, int nrows,
                     bool seed, const gs_caps *caps, gs_sokoban **out,
                     gs_error *err);

void gs_sokoban_free(void *inst);

/* The puzzle's solve entry (solve.c): solves one level for its objective
 * within lim. Returns GS_OK with res filled, or an error. */
int gs_sokoban_solve(void *inst, const gs_limits *lim, gs_result *res,
                     gs_error *err);

/* What one solve held, for benchmarks: states stored, bytes of the search
 * store, bytes of the solver's own tables. */
typedef struct gs_sokoban_stats {
    uint64_t states;
    uint64_t store_bytes;
    uint64_t table_bytes;
} gs_sokoban_stats;

/* gs_sokoban_solve that also fills *st (when not NULL) on GS_OK. */
int gs_sokoban_solve_stats(void *inst, const gs_limits *lim, gs_result *res,
                           gs_sokoban_stats *st, gs_error *err);

#define SOK_INF 0xFFFFFFFFu
#define SOK_GDIST_INF 0xFFFFu
/* Levels with more than this many cells * goals fall back to the sum of
 * nearest-goal distances (the tables hold SOK_GROUPS entries for each;
 * memory stays bounded on huge levels); past SOK_GROUP_MAX_ENTRIES
 * cells^2 there is no table of player groups. */
#define SOK_GDIST_MAX_ENTRIES (8u << 20)
#define SOK_GROUP_MAX_ENTRIES (4u << 20)
/* Distance rows per cell: one per group of sides, and their minimum. */
#define SOK_GROUPS 5
/* Goals up to which the matching is kept as a square problem and updated
 * per child in O(goals^2) rather than solved afresh. */
#define SOK_SQUARE_MAX_GOALS 96
/* Matching is O(boxes^2 * goals) per state; beyond this, use the sum. */
#define SOK_MATCH_MAX_BOXES 64
/* Calls allowed per freeze test; past it the box counts as not frozen. */
#define SOK_FREEZE_BUDGET 256
/* Greedy phase of `any`: its estimate is the bound + SOK_PACK_WEIGHT *
 * boxes out of packing order + SOK_CONN_WEIGHT * areas the player is shut
 * out of; the queue orders states by SOK_GREEDY_WEIGHT * estimate +
 * pushes. Chosen by measurement: greedy alone, capped at 300,000 states
 * (deterministic on a shared machine), on XSokoban 1-40 and the hard
 * Microban II levels; then checked at 10 s per level. */
#define SOK_PACK_WEIGHT 3
/* Packing layers the penalty tells apart; deeper ones count as the last. */
#define SOK_PACK_MAX_LAYERS 64
#define SOK_CONN_WEIGHT 3
#define SOK_GREEDY_WEIGHT 2
/* The feature-space search (fess.c) takes every SOK_FESS_GREEDY_EVERY-th
 * state greedy's way (the best estimate over all cells), the others
 * round robin over the feature cells. */
#define SOK_FESS_GREEDY_EVERY 2
/* Empty goals the packing advisor tries (fess.c), deepest first. */
#define SOK_FESS_TARGETS 3
/* `any` with a deadline (any.c, gs_sokoban_any_slices): nine slices,
 * each search from scratch but the last's: A* on pushes (with the perimeter
 * table and the learned deadlock patterns of the exact objectives), plain
 * greedy, weighted greedy, the feature-space search (fess.c) with the A*'s
 * table in its estimate, the search backwards (pull.c), the feature-space
 * search without the table after a burst of the one whose cells also
 * pick by weight; past SOK_ANY_SHORT_NS a rearrangement's A* again, the
 * search backwards again and the two feature-space searches without the
 * table in turns. Up to SOK_ANY_SHORT_NS the first four end at
 * SOK_ASTAR_END, SOK_PLAIN_END, SOK_GREEDY_END and SOK_TABLE_FESS_END
 * percent of the time, the search backwards has the next
 * SOK_PULL_SHORT_SHARE percent and the feature-space search without the
 * table the rest. At 10 s on Microban I
 * and II: the A* slice solves 278 of the 290 levels; the plain slice those the
 * others miss (Microban II 115, 118, 120) within 0.13 s, the weighted one (104,
 * 126) within 0.26 s; the search with the table solves Microban I 93 in 1.06 s,
 * Microban II 124 in 0.4 s (without: none and 4.8 s) and 109 at about 2.5 s
 * once the table's layer 13 is whole (table_finish finishes the layer the A*
 * slice's deadline cut), and the one without needs 5.9 s for Microban II 131.
 * The search by weight has the slice after the search backwards alone
 * first, for SOK_FESS_BURST percent of the time up to SOK_ANY_SHORT_NS
 * (0.5 s at 10 s): on its own it solves XSokoban 37, 61 and 70 within
 * that. Past SOK_ANY_SHORT_NS the portfolio's first 10 s are these
 * slices as at 10 s, so a longer limit does not delay what they find;
 * then a
 * rearrangement's A* has SOK_REARRANGE_ASTAR_END percent of the time past
 * it, the search backwards SOK_PULL_SHARE percent of what is left, and the
 * two feature-space searches the rest, kept from their slice at 10 s
 * (pair_hold): the one by weight alone until it has run as long as the
 * other, then in turns (any.c: SOK_FESS_SHARE percent of every
 * SOK_FESS_TURN_NS goes to the search by estimate). */
#define SOK_ANY_SLICES 9
#define SOK_SLICE_ASTAR 0
#define SOK_SLICE_PLAIN 1
#define SOK_SLICE_GREEDY 2
#define SOK_SLICE_TABLE_FESS 3
#define SOK_SLICE_PULL 4
#define SOK_SLICE_FESS 5
#define SOK_SLICE_LONG_ASTAR 6
#define SOK_SLICE_LONG_PULL 7
#define SOK_SLICE_PAIR 8
/* Up to SOK_ANY_SHORT_NS the search backwards has this percent of the
 * time after the table's slice (2 s at 10 s; past it never less than
 * that): at 1 s alone it solves 154 of Microban I's 155 levels, 130 of
 * Microban II's 135 and XSokoban 12 in 0.01 s, 14 in 0.2 s. At 10 s
 * (December 5, two chains side by side), against 0 % and the table's
 * slice to 35 %: XSokoban 47 of 90 against 42, SokHard 103 of 163
 * against 73, Sasquatch 32 of 50 against 22, Holland 55 of 81 against
 * 51; at 10 % 44, 96, 29 and 54.
 * Microban II 131, the forward searches' slowest, came at 7.8 s against
 * 7.1 s. */
#ifndef SOK_PULL_SHORT_SHARE
#define SOK_PULL_SHORT_SHARE 20
#endif
/* Past SOK_ANY_SHORT_NS the search backwards (pull.c) has a second slice
 * after the slices at 10 s: this percent of the time past it (26 s at
 * 60 s), of what a rearrangement's A* leaves, and none when that is not
 * longer than its slice at 10 s. Alone, one level at
 * a time, 20 s each, it solves XSokoban 13, 14, 26, 35, 41, 45, 46, 71
 * and 87, none of which the forward searches solve in 60 s. XSokoban at
 * 60 s (December 5): 62 of 90 at 46 % in two orders (below), 60 at 40 %
 * in one, 58 at 25 %; in three orders 62 at 46 % (16 in, 26 out), 63 at
 * 52 % (16 and 20 in, 46 out), 18 then at 51.4 s; 64 with the search
 * backwards below 10 s too (26 and 46 in, 18 at 50.6 s). */
#ifndef SOK_PULL_SHARE
#define SOK_PULL_SHARE 52
#endif
/* The search backwards' last order (its cells also by the boxes in
 * passages) has the last this percent of its slice (3.1 s of 26 at
 * 60 s): alone it solves XSokoban 43 and 44 in 1.2 and 0.4 s, which no
 * other search solves in 60 s, and 22 in 5.1 s (two solves side by side;
 * row masks, bits.c); the first misses all three. */
#ifndef SOK_PULL_DOORS_SHARE
#define SOK_PULL_DOORS_SHARE 12
#endif
/* Before it, ties to the most pulls have this percent of the slice (9.9 s
 * of 26 at 60 s): alone that order solves XSokoban 16 and 20 in 7.9 and
 * 8.4 s, which no other search solves in 60 s, but not 35; the first
 * order (ties to the fewest) keeps 13 s for 26 and 46 (9.7 to 11.9 s
 * alone, two solves side by side; 26 came at 12.4 s into the slice). */
#ifndef SOK_PULL_MOST_SHARE
#define SOK_PULL_MOST_SHARE 38
#endif
#ifndef SOK_ASTAR_END
#define SOK_ASTAR_END 10
#endif
#ifndef SOK_PLAIN_END
#define SOK_PLAIN_END 13
#endif
#ifndef SOK_GREEDY_END
#define SOK_GREEDY_END 18
#endif
/* Microban II 109 needs about 0.85 s of the table's slice alone and
 * 1.3 to 1.5 s with three solves at a time on 2 cores (at 31, a slice
 * of 1.3 s at 10 s, that solved 0 of 9, at 35 9 of 9); the search
 * backwards after it now solves 109 in under 0.01 s, so 31 gives the rest
 * back to the forward searches. */
#ifndef SOK_TABLE_FESS_END
#define SOK_TABLE_FESS_END 31
#endif
/* Percent of the table slice that may go to finishing the A*'s table
 * (any.c, table_finish). */
#ifndef SOK_TABLE_FINISH_SHARE
#define SOK_TABLE_FINISH_SHARE 25
#endif
/* Percent of each turn of the two feature-space searches (past
 * SOK_ANY_SHORT_NS only) that goes to the one by estimate, which has had
 * the slice before the long ones alone (measured when both started over
 * in the last slice; since pair_hold keeps them, the one by weight
 * first runs alone until it has run as long). XSokoban at 60 s (December 5),
 * 25 against 75, two solves side by side: 18 at 50.0 s against not in
 * 60 s, 32 at 37.8 against 39.6 s, 76 at 42.9 against 56.0 s (at 50, in
 * the whole set's two runs: 18 at 54.8 s or not solved, 32 at 38.6 and
 * 38.9 s, 76 at 46.4 s); the whole set at 25, 64 of 90 against 62 in each
 * run at 50 (75 new, at 54.2 s). */
#ifndef SOK_FESS_SHARE
#define SOK_FESS_SHARE 25
#endif
/* The search by weight's burst at the start of the slice after the
 * search backwards (any.c, fess_burst): percent of the time, up to
 * SOK_ANY_SHORT_NS. */
#ifndef SOK_FESS_BURST
#define SOK_FESS_BURST 5
#endif
/* The turns of the two feature-space searches in the last slice past
 * SOK_ANY_SHORT_NS (any.c, gs_sokoban_fess_pair). */
#define SOK_FESS_TURN_NS 200000000LL
/* gs_sokoban_search paused at x->pause_ns. */
#define SOK_PAUSED 3
#define SOK_ANY_SHORT_NS 10000000000LL
/* A rearrangement (gs_sokoban_rearranges): a level whose bound at the
 * start is below one push per SOK_REARRANGE_DIV boxes, nearly every box
 * on a goal already. Its answer takes boxes off goals before any comes
 * closer, and what guides the greedy and feature-space searches (the
 * bound, the boxes packed) only gets worse on the way: the A* on pushes,
 * which spends its time by cost, gets the slices up to
 * SOK_REARRANGE_ASTAR_END percent, without the perimeter table (built
 * backwards from the goals it meets a level full of boxes around them,
 * any of which may step off: Microban II 130, 8 M positions at depth 7).
 * Microban II 130: the A* alone solves it in 4.6 s, with the table in
 * 9.7 s; neither feature-space search within 30 s. Of the 881 levels of
 * the eight collections in bench/levels, it fires on Microban II 65
 * and 130 and SokEvo 11. */
#define SOK_REARRANGE_DIV 3
#define SOK_REARRANGE_ASTAR_END 75
/* Pushes objective: cost = pushes << SOK_PUSH_SHIFT | moves; its queue
 * priority = f on pushes << SOK_PRIO_PUSH_SHIFT | f on moves << 16 | h
 * (moves saturate at 2^28 - 1: far past what memory allows a solve). */
#define SOK_PUSH_SHIFT 32
#define SOK_PRIO_PUSH_SHIFT 44
/* `any`: the least time the answer's polish (improve.c) may take, in ns,
 * however fast the search was. */
#define SOK_IMPROVE_MIN_NS 20000000
/* Exact objectives: states the first search may store before the
 * perimeter table (perim.c) is built and the search restarted, and the
 * most positions that table holds. */
#define SOK_PERIM_TRIGGER 50000u
#define SOK_PERIM_MAX_STATES (64u << 20)
#define SOK_PERIM_MAX_BYTES ((uint64_t)1 << 30)
/* The table's first size; it doubles each round while the search between
 * rounds may store 1/SOK_PERIM_RATIO of it. */
#define SOK_PERIM_FIRST (512u << 10)
#define SOK_PERIM_RATIO 16
/* Percent of the time left at a round's start that the table may take
 * in it (the first round is cut by the deadline alone; `any`'s A* gives
 * every later round that share of the time left at the first):
 * `pushes`, whose table is kept and grows about a layer a round (Microban
 * I 144: the round that solves it ends at about 8 s); the others (the
 * `moves` table is often dropped, and its search then starts afresh:
 * Microban I 139). */
#define SOK_PERIM_SHARE_PUSHES 65
#define SOK_PERIM_SHARE 50

/* The depth-first search of one area of free cells that area.c and
 * zone.c share (gs_sokoban_dfs): Tarjan's low links, iterative. comp[] is
 * SOK_DFS_BOX under a box, SOK_DFS_UNSEEN on a free cell no search has
 * reached, else the cell's area number. */
#define SOK_DFS_BOX (-1)
#define SOK_DFS_UNSEEN (-2)
typedef struct sok_dfs {
    int32_t *comp;
    int32_t *disc, *low, *par; /* n: discovery time, low link, tree parent
                                  (-1 at the root) */
    int32_t *fin;              /* n: the last discovery time in the subtree */
    int32_t *stack;
    uint8_t *it;    /* n: the next direction to try from a cell */
    int32_t *order; /* time -> cell; NULL: not kept */
    int32_t *smin;  /* n: the subtree's smallest cell; NULL: not kept */
} sok_dfs;

/* The player's area before one box moves (area.c). */
typedef struct sok_area {
    int32_t *comp; /* n: area number of a free cell (the player's: 0;
                      others once needed, else SOK_DFS_UNSEEN),
                      SOK_DFS_BOX under a box */
    int32_t ncomp; /* areas numbered so far */
    int32_t *cmin; /* area number -> its smallest cell */
    int32_t *disc, *low, *par, *fin, *stack; /* n: the depth-first search of
                                                the player's area (sok_dfs) */
    uint8_t *it;
    int32_t pc;         /* the player's area number */
    int32_t min1, min2; /* its two smallest cells (-1: none) */
} sok_area;

/* The player's area once cell `in` fills and the box on `out` leaves it,
 * read off an analysis (gs_sokoban_area_after), so that a key needs no
 * flood: gs_sokoban_after_has tells its cells. When `in` is an
 * articulation point, A \ {in} falls apart: the pieces cut off are the
 * search subtrees of discovery times [cut_lo, cut_hi], the rest is the
 * piece of A's other cells. */
typedef struct sok_after {
    const sok_area *a;
    int in, out;
    int min;     /* its smallest cell (-1: not known yet) */
    bool beside; /* `out` is in it, and with `out` the areas adj[] */
    int nadj, ncut;
    int32_t adj[4];
    int32_t cut_lo[4], cut_hi[4];
    unsigned keep; /* bit i: cut piece i is in it; bit 4: the rest */
} sok_after;

/* The piece of A \ {in} cell c (of A) lies in: a cut index, or 4. */
static inline int gs_sokoban_after_piece(const sok_after *af, int c)
{
    int32_t t = af->a->disc[c];
    for (int i = 0; i < af->ncut; i++)
        if (t >= af->cut_lo[i] && t <= af->cut_hi[i])
            return i;
    return 4;
}

/* Whether cell c lies in af's area. */
static inline bool gs_sokoban_after_has(const sok_after *af, int c)
{
    if (c == af->in)
        return false;
    if (c == af->out)
        return af->beside;
    int32_t k = af->a->comp[c];
    if (k == af->a->pc)
        return af->keep >> gs_sokoban_after_piece(af, c) & 1;
    for (int i = 0; i < af->nadj; i++)
        if (af->adj[i] == k)
            return true;
    return false;
}

/* The areas of free cells of one position, for `any`'s children (zone.c). */
typedef struct sok_zone {
    int32_t *comp;          /* n: area number of a free cell, -1 under a box */
    int32_t *cmin;          /* area -> its smallest cell */
    int32_t *cstart, *cend; /* area -> its first and last discovery time */
    int32_t *disc, *low, *par, *fin; /* n: the depth-first search (fin: the
                                        last time in the cell's subtree) */
    int32_t *smin;                   /* n: the smallest cell of the subtree */
    int32_t *order;                  /* time -> cell */
    int32_t *pre, *suf; /* time -> smallest cell of the area up to it,
                           from it on */
    int32_t *stack;
    uint8_t *it;  /* n: the search's next direction per cell */
    uint8_t *cut; /* n: filling the cell cuts off some child's subtree
                     (cut_off in zone.c) */
    int32_t ncomp;
} sok_zone;

/* Everything one solve needs: the player's region renumbered 0..n-1 with
 * its neighbour table, distance tables, and scratch buffers. */
typedef struct sok_ctx {
    const gs_sokoban *g;
    sok_objective obj; /* what this search phase optimises */
    int n;             /* cells in the player's region */
    int nboxes;        /* boxes inside the region (the others never move) */
    int w;             /* bytes per cell number in a key: 1, 2 or 4 */
    bool bitkey;       /* a key's boxes as a set of cells, not a list */
    size_t key_size;
    int32_t *nb;    /* n*4 neighbours, -1 = wall */
    uint8_t *goal;  /* n: 1 on a goal */
    uint8_t *dead;  /* n: 1 when no goal can be reached by pushes */
    uint32_t *near; /* n: relaxed pushes to the nearest goal */
    int ngoals;     /* goals inside the region */
    int32_t *goals;
    /* Push distances of a box alone on the level (bound.c), or NULL:
     * gdist[((cell * SOK_GROUPS + group) * ngoals + goal], the group
     * being that of the box's sides the player stands in (pgrp: a cell's
     * side -> its group, 0xff at a wall; plab[cell * n + p]: player cell
     * p's group, NULL on huge levels: then group 4, the nearest). */
    uint16_t *gdist;
    uint8_t *pgrp;
    uint8_t *plab;
    int32_t *gqueue;       /* n*4: the distance BFS's queue */
    const uint16_t **prow; /* nboxes: the expanded state's rows */
    const uint16_t **crow; /* nboxes: a child's rows (parent order) */
    int start_player;
    bool start_dead; /* a box that can never move sits off goal */
    /* Scratch. */
    uint8_t *occ;  /* n: 1 where a box stands */
    uint8_t *mark; /* n: freeze test in progress */
    uint32_t *seen, gen;
    uint32_t *dist;
    uint8_t *how; /* direction that reached a cell in the last flood */
    int32_t *queue;
    int32_t *boxes, *child, *start_boxes;
    unsigned char *key;
    int64_t *hu, *hv, *hminv;
    int *hp, *hway;
    int *hcols; /* 3 * (goals + 1): the columns a step scans, those done, the
                   rows sq_seed left */
    uint8_t *hused;
    uint16_t *hzero; /* goals: a dummy row's distances, all 0 */
    /* The expanded state's square matching (see bound.c): duals, goal ->
     * row; NULL when there are too many goals to square the problem. */
    int64_t *su, *sv;
    int *sp;
    bool sq_ok;       /* su/sv/sp hold the expanded state's matching */
    uint64_t bytes;   /* held by the tables above, counted against lim */
    int32_t *corral;  /* n: corral number of an unreachable cell, or -1;
                         -2 - its slot under a box */
    uint8_t *inb;     /* nboxes: box slot borders the corral being tested */
    int32_t *assign;  /* nboxes: goal of each box in the last matching */
    int32_t *passign; /* the expanded state's matching, kept for children */
    struct sok_push {
        int32_t box;   /* slot in boxes[] */
        uint8_t dir;   /* push direction */
        uint32_t walk; /* steps to the cell behind the box */
    } * pushes;        /* 4*nboxes candidate pushes of one expansion */
    char *walk;        /* n: one walk's letters while rebuilding */
    /* The children of one expansion, added to the store together after
     * their index slots were prefetched (search.c). */
    struct sok_pend {
        uint64_t cost, prio;
        /* The bound (exact objectives: before the perimeter table's) or
         * the estimate (`any`), and the features (fess.c). */
        uint32_t h, feat;
        uint8_t tag;  /* the move byte: direction, bit 2 a goal macro */
        bool advised; /* an advisor's move (fess.c): weight 0 */
    } * pend;
    unsigned char *pkeys; /* 4*nboxes keys of key_size bytes */
    /* Packing order for `any` (pack.c): NULL on the exact objectives. */
    uint16_t *glayer; /* ngoals: retrograde layer, deeper = fill earlier */
    int32_t *gindex;  /* n: goal number of a goal cell */
    uint8_t *pmark;   /* ngoals: scratch, zero between calls */
    int pack_layers;  /* layers found; <= 1 means no order to keep */
    /* The expanded state's goals filled and empty per layer (layers past
     * SOK_PACK_MAX_LAYERS counted in the last): gs_sokoban_pack_parent. */
    uint32_t pfull[SOK_PACK_MAX_LAYERS], pempty[SOK_PACK_MAX_LAYERS];
    bool tunnels;     /* tunnel macros on (macro.c): greedy phase only */
    bool corridors;   /* corridor macros on (macro.c): exact objectives */
    bool goal_macros; /* goal-area macros on (macro.c): greedy phase only */
    /* Goal-area macros for `any` (macro.c): NULL on the exact objectives. */
    int32_t *garea;  /* n: goal area of a goal cell (>= 2 goals) or of a
                        room cell beside it (see rcell), else -1 */
    int32_t *rindex; /* n: node cell number of a goal (its goal number) or
                        room cell (ngoals on), else -1 */
    int32_t *rcell;  /* nrcell: the cell of a node cell number */
    int nrcell;      /* goals + room cells */
    uint32_t *gmseen, gmgen; /* nrcell*4: box-path nodes seen (gmgen) */
    int32_t *gmpar;        /* nrcell*4: a node's parent node, -1 at the root */
    int32_t *gmq;          /* nrcell*4: the box-path queue, then a chain */
    uint16_t *gmdep;       /* nrcell*4: pushes from the root */
    bool plain;            /* plain greedy: bound + packing order, no weights */
    bool rearrange;        /* `any` on a rearrangement: A* without the table */
    bool sym_store;        /* the store keys classes of images (x->sym): the
                              exact objectives and `any`'s A*; the other
                              searches key positions, x->sym serving only
                              the perimeter table they look up */
    bool fess_dual;        /* its cells' picks alternate estimate, weight */
    struct sok_fess *fess; /* its open lists (fess.c) while it runs */
    /* `any`: the expanded position's areas (area.c), so that most
     * children need no flood; zone_ok when its tables exist. */
    sok_zone zone;
    bool zone_ok;
    uint64_t fess_expanded; /* states it expanded */
    int64_t pause_ns;       /* gs_sokoban_search pauses then (0: never) */
    /* Exact pushes left near the solved positions (perim.c), or NULL. */
    struct sok_perim *perim;
    /* The learned deadlock patterns (learn.c), or NULL; `learning` once
     * gs_sokoban_learn_start was called. */
    struct sok_learn *learn;
    bool learning;
    /* The level's symmetries (sym.c), or NULL when it has none. */
    struct sok_sym *sym;
    /* Frozen goal boxes as walls (frozen.c), or NULL. */
    struct sok_frozen *frozen;
    /* `pushes` in two searches (exact.c): the first records its edges
     * in `trace`, the second expands only what `onpath` marks. */
    struct sok_trace *trace;
    const struct sok_trace *onpath;
    bool no_pi; /* `any`'s A* without PI-corral pruning (the first) */
    /* The region as row masks (bits.c), or NULL when it is too wide. */
    struct sok_bits *bits;
} sok_ctx;

/* bits.c: the player's area as a 64-bit mask per row (see there). */
typedef struct sok_bits {
    int rows;        /* rows of the region's bounding box */
    uint64_t *floor; /* rows: the region's cells */
    uint64_t *free;  /* rows: floor less the boxes (gs_sokoban_bits_load) */
    uint64_t *reach; /* rows: the last gs_sokoban_bits_area */
    int32_t *first;  /* rows: the number of the row's first cell */
    uint16_t *row;   /* n: a cell's row */
    uint8_t *bit;    /* n: a cell's bit in its row */
} sok_bits;
/* Builds x->bits from the region numbered by num, or leaves it NULL when
 * the region spans more than 64 columns. False when out of memory. */
bool gs_sokoban_bits_init(sok_ctx *x, const gs_sokoban *g, const int32_t *num);
void gs_sokoban_bits_free(sok_ctx *x);
/* Sets x->bits->free to the floor less boxes (x->nboxes of them). */
void gs_sokoban_bits_load(sok_ctx *x, const int32_t *boxes);
/* Toggles cell c in x->bits->free: a box leaves it or comes onto it. */
static inline void gs_sokoban_bits_flip(sok_bits *b, int c)
{
    b->free[b->row[c]] ^= (uint64_t)1 << b->bit[c];
}
/* The area of free cell `from` in b->reach; returns its smallest cell. */
int gs_sokoban_bits_area(sok_ctx *x, int from);
/* Whether cell c lies in the last gs_sokoban_bits_area. */
static inline bool gs_sokoban_bits_has(const sok_bits *b, int c)
{
    return b->reach[b->row[c]] >> b->bit[c] & 1;
}

/* ctx.c */
/* Allocates one of the solve's tables (zeroed when asked) from the process
 * memory budget (gs_mem) and counts it in x->bytes against the solve's
 * own budget; free with gs_mem_free. NULL when either refuses. */
void *gs_sokoban_tab_alloc(sok_ctx *x, size_t n, bool zero);
/* Numbers the cells the player can reach from the level's start (boxes
 * count as floor: the player may move them) in row-major order into num
 * (rows*cols entries, -1 off the region), using stack (rows*cols) for
 * the flood; the numbering every table of a solve uses. Returns the
 * count. */
int gs_sokoban_number_region(const gs_sokoban *g, int32_t *num, int32_t *stack);
/* Renumbers the player's region, finds the boxes and builds the tables
 * (within lim's deadline where they are costly). GS_OK or GS_ENOMEM;
 * gs_sokoban_ctx_free() afterwards either way. */
int gs_sokoban_ctx_init(sok_ctx *x, const gs_sokoban *g, const gs_limits *lim,
                        gs_error *err);
void gs_sokoban_ctx_free(sok_ctx *x);
/* Key = [player][boxes in ascending order] into x->key; boxes sorted. */
void gs_sokoban_key_pack(sok_ctx *x, int player, const int32_t *boxes);
/* Writes v into slot `slot` of key k, w bytes little-endian (slot 0: the
 * player; then the boxes, unless the key holds them as a set). */
static inline void gs_sokoban_key_put(unsigned char *k, int w, int slot,
                                      uint32_t v)
{
    unsigned char *p = k + (size_t)slot * (size_t)w;
    for (int i = 0; i < w; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}
/* Reads slot `slot` of key k (w bytes little-endian). */
static inline uint32_t gs_sokoban_key_get(const unsigned char *k, int w,
                                          int slot)
{
    const unsigned char *p = k + (size_t)slot * (size_t)w;
    uint32_t v = 0;
    for (int i = 0; i < w; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}
/* Reads a key's boxes into boxes[]; returns its player cell. */
int gs_sokoban_key_unpack(const sok_ctx *x, const unsigned char *k,
                          int32_t *boxes);
/* Writes boxes (x->nboxes, sorted) with slot i moved to `to` into out,
 * kept sorted (out != boxes). */
void gs_sokoban_boxes_move(const sok_ctx *x, const int32_t *boxes, int i,
                           int to, int32_t *out);
/* Whether every box of boxes (x->nboxes) stands on a goal (inline: the
 * exact searches ask it at every pop). */
static inline bool gs_sokoban_all_on_goals(const sok_ctx *x,
                                           const int32_t *boxes)
{
    for (int i = 0; i < x->nboxes; i++)
        if (!x->goal[boxes[i]])
            return false;
    return true;
}
/* Sets x->occ to v under each box. */
void gs_sokoban_occ_set(sok_ctx *x, const int32_t *boxes, uint8_t v);
/* A fresh x->gen: no cell counts as seen any more. */
void gs_sokoban_next_gen(sok_ctx *x);
/* Floods the free cells (no wall, no box) from `from`, filling dist/how
 * for cells with seen == gen. Returns the smallest cell number reached. */
int gs_sokoban_flood(sok_ctx *x, int from);
/* Relaxed pull BFS from the goals (all when goal < 0, else that one). */
void gs_sokoban_pull_bfs(sok_ctx *x, int goal, uint32_t *out);

/* bound.c */
/* Builds the per-goal distance tables (and marks more dead squares);
 * false only when out of memory. */
bool gs_sokoban_init_matching(sok_ctx *x, const gs_limits *lim);
/* Lower bound on pushes left for boxes with the player on `player` (any
 * cell of its region; SOK_INF: no matching exists); leaves the matching
 * in x->assign when the tables exist. */
uint32_t gs_sokoban_lower_bound(sok_ctx *x, int player, const int32_t *boxes);
/* The bound of the state being expanded (x->boxes, the player), keeping
 * its matching (x->passign and the duals) for gs_sokoban_child_bound;
 * worked out from the last call's where at most half the rows changed. */
uint32_t gs_sokoban_parent_bound(sok_ctx *x, int player, const int32_t *boxes);
/* The bound after box slot i of x->boxes (bound hp from
 * gs_sokoban_parent_bound) moved from b to `to`, the player then on pl.
 * Equals gs_sokoban_lower_bound(x, pl, x->child). */
uint32_t gs_sokoban_child_bound(sok_ctx *x, uint32_t hp, int i, int b, int to,
                                int pl);

/* The same matching over any distance rows (one row of x->ngoals entries
 * a box, SOK_GDIST_INF where it cannot go; x->ngoals == x->nboxes unless
 * they are the goal tables'): the rows put in x->crow, their matching
 * kept for gs_sokoban_child_rows. Needs the matching's scratch (x->crow
 * not NULL). */
uint32_t gs_sokoban_parent_rows(sok_ctx *x);
/* The matching of the last gs_sokoban_parent_rows' rows (cost hp) with
 * row i replaced by `row`; `step`: the box moved one cell, each of its
 * distances one less at most. */
uint32_t gs_sokoban_child_rows(sok_ctx *x, uint32_t hp, int i,
                               const uint16_t *row, bool step);

/* An upper bound on gs_sokoban_child_bound(x, hp, i, b, to, pl) for a
 * single push (the parent's assignment re-costed), without a matching;
 * SOK_INF when there is none to give. */
uint32_t gs_sokoban_child_upper(const sok_ctx *x, uint32_t hp, int i, int to,
                                int pl);

/* search.c */
/* Lists in x->pushes the pushes the player at `player` can walk to (x->occ
 * and x->boxes hold the boxes; floods from the player): the cell behind
 * the box reachable, the cell ahead free and live. Returns how many. */
int gs_sokoban_list_pushes(sok_ctx *x, int player);
/* Packs the store's key of (p, boxes) into x->key, x->occ holding the
 * boxes: the position, or with x->sym_store the class of its images;
 * `any` (p the smallest cell of the player's area) names each image's area by
 * its own smallest cell, from a flood of the area. */
void gs_sokoban_store_key(sok_ctx *x, int p, const int32_t *boxes);
/* `any`'s key of (player, boxes), x->occ holding the boxes: the
 * player's area by its smallest cell, from a flood of it (with
 * x->sym_store, the class of its images). */
void gs_sokoban_area_key(sok_ctx *x, int player, const int32_t *boxes);
/* The cost of one push after a walk of `walk` steps, for the objective's
 * store (pushes: packed above the moves). */
uint64_t gs_sokoban_push_cost(sok_objective obj, uint32_t walk);
/* Runs the push search on store s. Returns 1 with *goal set when
 * solved, 0 when the space is exhausted, or the search core's GS_ELIMIT
 * / GS_ENOMEM; with a cap,
 * 2 (nothing lost: no expansion is cut short) once the store holds so
 * many states that one more expansion might pass it; SOK_PAUSED
 * (nothing lost either) after the first expansion that ends once
 * x->pause_ns, when set, has come. An empty store gets
 * the start state first. States numbered below `reeval` (exact
 * objectives: those stored before the perimeter table last grew) have
 * their bound looked up again when popped, and are put back when it
 * rose (bound_rose); the others were queued with the table as it is. */
int gs_sokoban_search(sok_ctx *x, gs_search *s, uint64_t cap, uint64_t reeval,
                      uint64_t *goal);
/* Writes the outcome of search s into res: rc is gs_sokoban_search's (1:
 * found, the goal record `goal`). Returns GS_OK or an error (err filled). */
int gs_sokoban_finish_search(sok_ctx *x, gs_search *s, int rc, uint64_t goal,
                             gs_result *res, gs_error *err);
/* Records search s's size in st (may be NULL) and frees s. */
void gs_sokoban_search_close(const sok_ctx *x, gs_search *s,
                             gs_sokoban_stats *st);
/* One search over x with limits lim: fills res (and st). Returns GS_OK
 * or an error. */
int gs_sokoban_run_phase(sok_ctx *x, const gs_limits *lim, gs_result *res,
                         gs_sokoban_stats *st, gs_error *err);
/* `any`'s feature-weighted greedy phase: with tunnel and goal-area macros
 * first; when that search runs out of states (the macros may have skipped the
 * only way) the plain one decides, so `impossible` stays a proof. */
int gs_sokoban_greedy_phase(sok_ctx *x, const gs_limits *lim, gs_result *res,
                            gs_sokoban_stats *st, gs_error *err);
/* How far priority() shifts the bound that progress events should show:
 * the f value (or greedy's h) without the tie-break bits. */
unsigned gs_sokoban_bound_shift(sok_objective obj);
/* The time `pct` percent of the way from `from` to `deadline`; deadline
 * itself when it is not after from (0: none). */
int64_t gs_sokoban_deadline_share(int64_t from, int64_t deadline, int64_t pct);

/* exact.c */
/* The exact objectives: a first search capped at SOK_PERIM_TRIGGER states
 * solves most levels at once. Past it, rounds: the perimeter table
 * (perim.c) grows to about SOK_PERIM_FIRST positions (a layer's
 * boundary), doubling each round, and the search goes on with its
 * stronger bound, allowed 1/SOK_PERIM_RATIO as many more states as the
 * table holds and, with a deadline, no more time than the table's round
 * took; the last round (the table full, or its share of the time gone)
 * searches up to the limits. Both sides cost time exponential in their
 * depth, so the rounds keep them in balance: in time, since a state costs
 * the search 4 to 90 times what a position costs the table (Microban I
 * 139 `moves`: 3 us against 0.14 us; 144 `pushes`: 12 us against 0.8 us).
 * Without a deadline the rounds count states only; only the table's gap
 * is still found within a time bound (perim.c), so a solve cut by a state
 * cap may expand a few states more or fewer from run to run (Microban I
 * 144 `moves` capped at 400,000 states stored: 166,298 to 166,604
 * expanded in 24 runs of two builds). The search is not restarted: the
 * table's bound only rises as it grows (perim.c keeps the larger gap), so
 * every queued priority stays a lower bound, and each popped state's
 * bound is looked up again and the state put back when it rose
 * (bound_rose); the first goal popped stays optimal. A moves table that
 * neither is whole nor lifts the start's bound is dropped, and the last
 * round starts a search afresh without it (the bounds fell). A pushes
 * table is kept: it grows about one layer a round, its k + 1 soon passes
 * the start's matching, and its exact distances near the goals prune the
 * deep states (Microban I 144 `pushes`: solved in 16.5 s at a 30 s limit,
 * not at 60 s when dropped; 145: 49,008 -> 16,020 states, 146: 22,473 ->
 * 7,654); the moves table kept loses 139. `any`'s A* on a rearrangement
 * (SOK_REARRANGE_DIV) goes without a table. */
int gs_sokoban_exact_phases(sok_ctx *x, const gs_limits *slim, gs_result *res,
                            gs_sokoban_stats *st, gs_error *err);
/* `pushes` in two searches. The first, `any`'s A* (the player's area in
 * the state, so a few times fewer states; without PI-corral pruning,
 * which may lose the shortest solutions), finds the fewest pushes and
 * goes on to the end of that layer, recording its shortest edges; the
 * states on a solution of those pushes are marked (trace_mark). The
 * second, the `pushes` A* over exact cells, expands only positions whose
 * area is marked at the same pushes, so it ranks those solutions by
 * moves alone. (Microban I 144: the one search expands every position of
 * fewer pushes, 499,398 pops.) */
int gs_sokoban_pushes_two_phase(sok_ctx *x, const gs_limits *slim,
                                gs_result *res, gs_sokoban_stats *st,
                                gs_error *err);
/* `pushes`' first search: records in x->trace the edge from state `from`
 * to `to`, which the child's cost `cost` makes a shortest way to it for
 * now. GS_OK, or GS_ELIMIT past the solve's budget or the process's (the
 * trace's memory then over). */
int gs_sokoban_trace_edge(sok_ctx *x, const gs_search *s, uint64_t from,
                          uint64_t to, uint64_t cost);
/* `pushes`' first search: records goal state id, popped at cost g (the
 * first one popped is the answer's), as the end of an edge. GS_OK, or
 * GS_ELIMIT as gs_sokoban_trace_edge. */
int gs_sokoban_trace_goal(sok_ctx *x, const gs_search *s, uint64_t id,
                          uint64_t g);
/* `pushes`' second search: whether the position (player, x->boxes) after
 * g's pushes lies on a solution of the fewest pushes, as the first search
 * found them (its key: the player's area, as `any`'s A* stores it). */
bool gs_sokoban_on_path(sok_ctx *x, int player, uint64_t g);
/* `pushes`' first search (x->trace set), once a goal was popped: whether
 * the goal's layer is whole, the pop (its return rc) having found the queue
 * empty or a state past it (f > the goal's pushes); then *goal is the first
 * goal popped. */
bool gs_sokoban_trace_done(const sok_ctx *x, const gs_search *s, int rc,
                           uint64_t *goal);

/* answer.c */
/* Spells out the moves from the start to the stored goal state `goal` of
 * s into res (steps, moves, pushes, status solved). GS_OK, GS_ENOMEM, or
 * GS_EINTERNAL when a step cannot be replayed (a bug); err filled. */
int gs_sokoban_answer(sok_ctx *x, gs_search *s, uint64_t goal, gs_result *res,
                      gs_error *err);
/* Appends the shortest walk from `from` to `to` in lowercase (x->occ holds
 * the boxes). Returns false when `to` is unreachable (a bug). */
bool gs_sokoban_append_walk(sok_ctx *x, int from, int to, gs_buf *out);
/* The cell of box set `from` that is not in `to` (both sorted, x->nboxes
 * each): the box a step moved; -1 when none. */
int gs_sokoban_left_cell(const sok_ctx *x, const int32_t *from,
                         const int32_t *to);
/* One push of an answer's rebuild: from the stored states chain[0..k]
 * (goal last), spells out push t (1..k) into out from *player, which it
 * moves, counting it in *pushes; arg is the rebuild's. False when it
 * cannot be replayed. */
typedef bool (*sok_step_fn)(sok_ctx *x, gs_search *s, const uint64_t *chain,
                            size_t k, size_t t, int *player, gs_buf *out,
                            long *pushes, void *arg);
/* Rebuilds the answer from the start along the stored path to goal, one
 * step call a push, into res (steps, moves, pushes, status solved).
 * GS_OK, GS_ENOMEM, or GS_EINTERNAL when a step fails (a bug); err may
 * be NULL. */
int gs_sokoban_rebuild(sok_ctx *x, gs_search *s, uint64_t goal,
                       sok_step_fn step, void *arg, gs_result *res,
                       gs_error *err);
/* The states from the start to goal, start first, in a malloc'd array
 * of *k + 1 (*k pushes); NULL when out of memory. */
uint64_t *gs_sokoban_path_chain(const gs_search *s, uint64_t goal, size_t *k);

/* improve.c */
/* Shortens res's answer (`any`, solved) by a search for the fewest moves,
 * then pushes, over the positions with a box at most a few cells off the
 * answer's own, repeated while it gains and lim allows (its stores
 * together within lim's bytes and states, x's tables counted): res is
 * replaced only by a shorter answer and left alone on a limit or a
 * refused allocation. st (may be NULL) gets the stores' size when they
 * outgrow what it holds. GS_OK, or GS_EINTERNAL (err filled) when an
 * answer does not replay (a bug). */
int gs_sokoban_improve(sok_ctx *x, const gs_limits *lim, gs_result *res,
                       gs_sokoban_stats *st, gs_error *err);

/* pull.c */
/* The orders of the search backwards (gs_sokoban_pull), as bits: its
 * cells also keyed by the boxes in one-wide passages; ties going to the
 * most pulls, not the fewest. */
enum { SOK_PULL_DOORS = 1, SOK_PULL_MOST = 2 };
/* `any`'s search backwards: over pulls from the solved position to the
 * start, within lim, in feature cells by the boxes on start cells (and
 * the order's other bits). GS_OK with res solved or a limit (also when
 * it ran dry, which proves nothing, or the level has more goals than
 * boxes); st (may be NULL) gets its store's size. An error otherwise. */
int gs_sokoban_pull(sok_ctx *x, const gs_limits *lim, unsigned order,
                    gs_result *res, gs_sokoban_stats *st, gs_error *err);

/* deadlock.c */
/* Whether the box just pushed onto `to` froze itself or a neighbour off
 * goal (x->occ holds the new position). */
bool gs_sokoban_freeze_deadlock(sok_ctx *x, int to);
/* PI-corral pruning of x->pushes[0..k) after a flood from the player
 * (x->occ, x->boxes set); returns how many pushes are kept. */
int gs_sokoban_pi_corral_prune(sok_ctx *x, int k);
/* The same with the corrals read off z, the analysis of the areas of the
 * position (gs_sokoban_zone_analyse), instead of a flood each. */
int gs_sokoban_pi_corral_prune_zone(sok_ctx *x, const sok_zone *z, int player,
                                    int k);
/* The freeze test of the box on b (x->occ holding every box): 0 when it
 * may move, 1 when it never moves again and every box of the proof is on
 * a goal, 2 when some box of the proof is off goal (a deadlock). */
int gs_sokoban_box_frozen(sok_ctx *x, int b);

/* frozen.c: boxes frozen on goals are walls (every objective). */
typedef struct sok_frozen sok_frozen;
/* Allocates x->frozen (left NULL, the rule off, on levels without
 * goals); false when out of memory. */
bool gs_sokoban_frozen_init(sok_ctx *x);
void gs_sokoban_frozen_free(sok_ctx *x);
/* Whether the position in x->occ (x->boxes with slot `slot` pushed onto
 * `to`, which passed gs_sokoban_freeze_deadlock) is dead because the
 * push froze a box on a goal and, the frozen goal boxes taken as walls,
 * some box off goal reaches no goal or (every goal needed) some empty
 * goal no box. False when the push froze no goal box, or without
 * x->frozen. Uses x->mark and x->queue. */
bool gs_sokoban_frozen_goal_dead(sok_ctx *x, int slot, int to);

/* perim.c */
/* Builds the perimeter table (see perim.c), or goes on building it, to
 * about `upto` positions: to the layer boundary nearest it, a layer begun
 * only when the build's rate says it is whole by lim's deadline (cut
 * there all the same, or at twice upto). At most g->perim_cap or
 * SOK_PERIM_MAX_STATES positions, and lim->max_bytes when set; nothing
 * when the level has more goals than boxes. Clears x->occ and uses the
 * flood scratch. GS_OK, or GS_ENOMEM with no table. */
int gs_sokoban_perim_build(sok_ctx *x, const gs_limits *lim, size_t upto);
/* Whether gs_sokoban_perim_build can still add positions. */
bool gs_sokoban_perim_growing(const sok_ctx *x);
/* Whether the table is whole or raises the start's bound above the
 * matching (else it is not worth its look-ups). Uses the flood scratch
 * and x->occ. */
bool gs_sokoban_perim_lifts_start(sok_ctx *x);
/* Ends the build: frees what only growing needs. */
void gs_sokoban_perim_seal(sok_ctx *x);
/* Goes on with a build paused within a layer until that layer is whole
 * (k one more) or lim's deadline, when the build's rate says it will be
 * whole by then. */
void gs_sokoban_perim_finish_layer(sok_ctx *x, const gs_limits *lim);
/* Whether the build's rate says the layer under way (or the next one)
 * would be whole by lim's deadline; true before anything was measured. */
bool gs_sokoban_perim_layer_fits(const sok_ctx *x, const gs_limits *lim);
void gs_sokoban_perim_free(sok_ctx *x);
/* The bound h (the matching) raised by the table for the boxes (sorted,
 * in x->occ) with the player on pl: max(h, min(exact pushes, k + 1)), or
 * SOK_INF when the table holds every solvable position and not this one.
 * Floods from pl (x->seen, x->dist) and overwrites x->key. */
uint32_t gs_sokoban_perim_bound(sok_ctx *x, uint32_t h, int pl,
                                const int32_t *boxes);
/* Pushes: the expanded position (x->occ, the player on `player`) is
 * about to make children for gs_sokoban_perim_bound_push; sym_noted: the
 * caller noted its boxes (gs_sokoban_sym_parent) already. */
void gs_sokoban_perim_parent(sok_ctx *x, int player, bool sym_noted);
/* gs_sokoban_perim_bound for the child of that position whose box went
 * from b to `to` (one push; x->occ holds the child), the player on pl
 * (b): its area from one analysis of the position, not a flood. */
uint32_t gs_sokoban_perim_bound_push(sok_ctx *x, uint32_t h, int b, int to,
                                     int pl, const int32_t *boxes);
/* Moves: the same for a child's store key (player cell, boxes), which
 * is the table's key too; no flood. */
uint32_t gs_sokoban_perim_bound_key(const sok_ctx *x, uint32_t h,
                                    const unsigned char *key);
/* Starts loading key's slot (moves), for gs_sokoban_perim_bound_key. */
void gs_sokoban_perim_prefetch(const sok_ctx *x, const unsigned char *key);
/* Whether the table alone decides the bound of a position whose matching
 * is at most m (moves): then gs_sokoban_perim_bound_key(x, 0, key) is
 * that position's bound, and the matching need not be solved. */
bool gs_sokoban_perim_settles(const sok_ctx *x, uint32_t m);
/* Whether the table is keyed by the player's cell (moves). */
bool gs_sokoban_perim_steps(const sok_ctx *x);
/* The table's depth k (every position within k pushes held); *complete
 * says whether it holds every solvable position. 0 without a table. */
uint32_t gs_sokoban_perim_depth(const sok_ctx *x, bool *complete);

/* sokopt2: the exact objectives' search going on across table rounds. */
/* A cheap lower bound for a position (boxes sorted, in x->occ when the
 * table is keyed by area: pushes floods from pl) that some admissible
 * bound h (not necessarily its matching) was known for: max(h, exact
 * distance) when the table holds it, max(h, k + 1) when not, SOK_INF
 * when the table is whole and lacks it. Overwrites x->key; *keyed tells
 * whether it now holds the position's table key (for
 * gs_sokoban_perim_bound_key, sparing a second flood). */
uint32_t gs_sokoban_perim_floor(sok_ctx *x, uint32_t h, int pl,
                                const int32_t *boxes, bool *keyed);

/* learn.c: deadlock patterns learned during the search. */
/* Boxes in a pattern at most, and the states one pattern's search may
 * store (past them it proves nothing). */
#ifndef SOK_LEARN_MAX
#define SOK_LEARN_MAX 4
#endif
#ifndef SOK_LEARN_BUDGET
#define SOK_LEARN_BUDGET 256
#endif
/* Allocates x->learn, its pattern table kept within 1/16 of max_bytes
 * (0: no budget), and counts in x->bytes what its tables may take as it
 * learns; false when out of memory, or when that would pass half of
 * max_bytes. It learns nothing until
 * gs_sokoban_learn_start. */
bool gs_sokoban_learn_init(sok_ctx *x, uint64_t max_bytes);
/* From now on gs_sokoban_learn_dead looks and learns. The searches (the
 * exact ones, and `any`'s but the feature-space one) learn from their
 * start (a cluster is looked at when a push forms it)
 * on levels of at least SOK_LEARN_MIN_BOXES boxes, or when the level
 * says learn_always (tests): on fewer (the contest's 8 x 8 boards of 3
 * boxes) the sub-searches cost more than they save. */
#ifndef SOK_LEARN_MIN_BOXES
#define SOK_LEARN_MIN_BOXES 4
#endif
void gs_sokoban_learn_start(sok_ctx *x);
void gs_sokoban_learn_free(sok_ctx *x);
/* Whether the position in x->occ (a box just pushed onto `to`, the
 * player on pl) is dead by a pattern: the cluster of boxes around `to`
 * alone cannot all reach goals (looked up, or searched and learned). */
bool gs_sokoban_learn_dead(sok_ctx *x, int to, int pl);

/* sym.c: the level's mirrors and turns (exact objectives). */
/* Finds them and allocates x->sym when there is one besides the
 * identity; false when out of memory. */
bool gs_sokoban_sym_init(sok_ctx *x);
void gs_sokoban_sym_free(sok_ctx *x);
/* How many symmetries besides the identity x->sym holds (0: none). */
int gs_sokoban_sym_count(const sok_ctx *x);
/* Packs into x->key the key of the position (player, boxes sorted) or
 * of the image of it with the smallest key, the same for every image
 * (gs_sokoban_key_pack without symmetries). */
void gs_sokoban_sym_canon(sok_ctx *x, int player, const int32_t *boxes);
/* The same for a position keyed by its player's area, named by the
 * area's smallest cell lo: the area just flooded (x->seen == x->gen),
 * each image named by its own smallest cell (pushes tables). */
void gs_sokoban_sym_canon_area(sok_ctx *x, int lo, const int32_t *boxes);
/* Notes the boxes of a parent position (sorted) for
 * gs_sokoban_sym_canon_moved and gs_sokoban_sym_canon_after. */
void gs_sokoban_sym_parent(sok_ctx *x, const int32_t *boxes);
/* gs_sokoban_sym_canon for a child of the noted parent: its boxes (sorted)
 * are the parent's with the box on `out` moved onto `in` (out < 0: none
 * moved), their images made from the parent's. */
void gs_sokoban_sym_canon_moved(sok_ctx *x, int player, const int32_t *boxes,
                                int out, int in);
/* The same as gs_sokoban_sym_canon_area for the child that af describes
 * (boxes: its boxes, sorted), without a flood, its box sets made from
 * the parent's (gs_sokoban_sym_parent). */
void gs_sokoban_sym_canon_after(sok_ctx *x, sok_after *af,
                                const int32_t *boxes);

/* area.c */
/* Allocates a's tables (n each); false when out of memory. */
bool gs_sokoban_area_alloc(sok_ctx *x, sok_area *a);
void gs_sokoban_area_free(sok_area *a);
/* Analyses the position in x->occ with the player on p. */
void gs_sokoban_area_analyse(sok_ctx *x, sok_area *a, int p);
/* The player's area once cell `in` (free) fills and the box on `out`
 * leaves it, the player then on `pl` (a cell of the old area A other
 * than `in`, or `out` beside `in`), in *af (a stays in use); false when
 * the analysis cannot tell (flood instead). */
bool gs_sokoban_area_after(const sok_ctx *x, sok_area *a, int in, int out,
                           int pl, sok_after *af);
/* af's smallest cell. */
int gs_sokoban_after_min(const sok_ctx *x, sok_after *af);

/* zone.c */
/* Searches the area of free cell r (sok_dfs), numbering it nc and its
 * cells' times from t on; returns the time after the last. O(cells of
 * the area). */
int32_t gs_sokoban_dfs(const sok_ctx *x, const sok_dfs *d, int r, int32_t nc,
                       int32_t t);
/* Allocates z's tables (n each); false when out of memory. */
bool gs_sokoban_zone_alloc(sok_ctx *x, sok_zone *z);
void gs_sokoban_zone_free(sok_zone *z);
/* Analyses the areas of free cells of the position in x->occ. */
void gs_sokoban_zone_analyse(sok_ctx *x, sok_zone *z);
/* After the box on `out` moves onto free cell `in` (a push, or a macro's
 * run of them), the player then on pl (`out` after a push, else a cell
 * free after the move): the smallest cell of the player's area (what
 * gs_sokoban_flood would return) with *regions the areas of free cells
 * (gs_sokoban_regions' count); -1 when in is not free, out not a box, or
 * pl not free after the move. */
int gs_sokoban_zone_push(const sok_ctx *x, const sok_zone *z, int in, int out,
                         int pl, int *regions);
/* gs_sokoban_box_sides for a box on free cell `in` that came from `out`
 * (the analysed position with `in` filled and `out` freed): the sides the
 * player reaches from `side`, read off the analysis; SOK_SIDES_UNKNOWN
 * when it cannot tell (in not free, out not a box, or the same cell). */
#define SOK_SIDES_UNKNOWN 0x100u
unsigned gs_sokoban_zone_sides(const sok_ctx *x, const sok_zone *z, int in,
                               int out, int side);

/* macro.c */
/* Where a box pushed from b onto `to` in direction d ends when tunnel
 * macros push it on through a one-wide tunnel (the player walled in
 * behind it, no goal on the way, the next cell free and live): `to`
 * itself when the macro does not apply. x->occ holds the boxes (the box
 * on `to` or on b: neither cell is read). */
int gs_sokoban_tunnel_end(const sok_ctx *x, int b, int to, int d);

/* Where a box pushed onto `to` in direction d ends when the exact
 * searches' corridor macro pushes it on into a one-wide straight dead end
 * (cells walled across d up to a wall): on the deepest goal of the free
 * cells ahead, when a goal short of that one is left for a later box and
 * the player's way back to the mouth is free; `to` itself otherwise.
 * Some optimal answer of each exact objective always survives it. x->occ
 * holds the boxes with the pushed one on `to`. */
int gs_sokoban_corridor_end(const sok_ctx *x, int to, int d);

/* The sides of the box on c (x->occ[c] set) that the player on its side
 * `side` can walk to, as bits 1 << direction (side's own included; 0
 * when side is a wall or a box). Uses x->seen and x->queue. */
unsigned gs_sokoban_box_sides(sok_ctx *x, int c, int side);

/* Goal-area macros (Junghanns and Schaeffer's goal macros, with the
 * packing order as the plan): allocates and fills x->garea and the
 * box-path tables. False only when out of memory; no-op without
 * x->glayer. */
bool gs_sokoban_goal_areas_init(sok_ctx *x);
/* Where a box just pushed from off goal onto goal cell `to`, or from
 * outside its area onto a room cell `to` of it (the player on pl behind
 * it, x->occ holding every box), should go on to: the goal of the
 * deepest packing layer (then the most pushes) that it can be pushed to
 * inside its goal area, the other boxes fixed. Returns that goal, or
 * `to` when there is no better one or when, with no goal to spare, an
 * empty goal of the area lies in a deeper layer (parked there, the box
 * might wall it off); *node names the box-path node for
 * gs_sokoban_goal_macro_chain and *player the cell behind the box.
 * `from`: the box's cell before the push when x->zone holds the analysis
 * of that position (expand: its sides come from gs_sokoban_zone_sides),
 * else -1. */
int gs_sokoban_goal_macro(sok_ctx *x, int to, int pl, int from, int *node,
                          int *player);
/* The box cells of the box path from the root to `node` of the last
 * gs_sokoban_goal_macro call, into x->gmq (the root first). Returns how
 * many. */
int gs_sokoban_goal_macro_chain(sok_ctx *x, int node);

/* pack.c */
/* Computes x->glayer by a retrograde sweep (boxes on every goal, pulled
 * off from the outside layer by layer); no-op without x->glayer. */
void gs_sokoban_pack_layers(sok_ctx *x);
/* Boxes on goals of a shallower layer than some empty goal: the greedy
 * phase's penalty for filling a goal room from the door. */
uint32_t gs_sokoban_pack_penalty(const sok_ctx *x, const int32_t *boxes);
/* The same for the children of one expansion, each one box moved from
 * `from` to `to`, in O(layers): gs_sokoban_pack_parent counts the goals
 * filled and empty per layer of the expanded state (boxes), then
 * gs_sokoban_pack_child reads each child's penalty off the counts. */
void gs_sokoban_pack_parent(sok_ctx *x, const int32_t *boxes);
uint32_t gs_sokoban_pack_child(const sok_ctx *x, int from, int to);
/* Connected areas of free cells (x->occ marks the boxes), right after a
 * flood from the player (its area counts as one, the others are marked
 * in x->seen too): more than one means the player is shut out of some
 * (FESS's connectivity feature). */
int gs_sokoban_regions(sok_ctx *x);

/* fess.c */
typedef struct sok_fess sok_fess;
/* The open lists of a feature-space search over x's level, allowed
 * max_bytes (0: no cap) for themselves; NULL when out of memory. */
sok_fess *gs_sokoban_fess_new(const sok_ctx *x, uint64_t max_bytes);
/* Whether floor cell c is a one-wide passage: walled on both sides across
 * one axis, open along it (a box there parts the rooms either side). */
bool gs_sokoban_fess_passage(const sok_ctx *x, int c);
void gs_sokoban_fess_free(sok_fess *f);
/* The feature cell of a state with boxes, pen boxes out of packing order
 * and `regions` areas of free cells (gs_sokoban_regions), packed in one
 * number. */
uint32_t gs_sokoban_fess_features(const sok_ctx *x, const sok_fess *f,
                                  const int32_t *boxes, uint32_t pen,
                                  int regions);
/* Queues state id (estimate h, g pushes) in cell `key`; an `advised`
 * state (the packing advisor's child) first in its cell. GS_OK, or
 * GS_ELIMIT when the memory budget refuses (gs_sokoban_fess_over). */
int gs_sokoban_fess_push(sok_fess *f, uint32_t key, uint64_t id, uint32_t h,
                         uint64_t g, bool advised);
/* Takes the best state of the next non-empty cell of the round: 1 with
 * *id and *g (its g as pushed, saturated at 0xffff) set, 0 when every
 * cell is empty. */
int gs_sokoban_fess_pop(sok_fess *f, uint64_t *id, uint64_t *g);
/* Whether the memory budget stopped the search. */
bool gs_sokoban_fess_over(const sok_fess *f);
/* Orders the picks taken greedy's way by the estimate, then the pushes
 * (the search backwards, pull.c), instead of 2 x estimate + pushes; with
 * `most`, ties there and in the cells go to the most pushes. Call before
 * the first push. */
void gs_sokoban_fess_plain_all(sok_fess *f, bool most);
/* Sets the open lists' budget (0: no cap), as gs_sokoban_fess_new's
 * max_bytes: a search given the whole budget once its twin is gone. */
void gs_sokoban_fess_set_budget(sok_fess *f, uint64_t max_bytes);
/* The bytes the open lists hold (counted against that budget). */
uint64_t gs_sokoban_fess_bytes(const sok_fess *f);
/* Whether the last pick was the first round-robin pick of its cell or an
 * advised state: the packing advisor's turn (gs_sokoban_fess_pack_move). */
bool gs_sokoban_fess_advise(const sok_fess *f);
/* FESS's connectivity advisor, in the search by weight only: of the n
 * children in pend, the one that leaves the fewest areas of free cells,
 * when fewer than the parent's `areas` (ties: the lower estimate), not
 * counting children already advised or dead. Its index, or -1 when no
 * child joins areas or f searches by estimate. */
int gs_sokoban_fess_conn_advice(const sok_fess *f, const struct sok_pend *pend,
                                int n, int areas);
/* FESS's packing advisor: the box off goal (slot in x->boxes, x->occ
 * holding them, the player on `player`) with the fewest pushes to the
 * deepest empty goal of the packing order (of the first SOK_FESS_TARGETS
 * that some box reaches), the others fixed. Returns that goal with
 * *slot, *pl (the player after the last push) and *pushes set, or -1.
 * Floods (x->seen). */
int gs_sokoban_fess_pack_move(sok_ctx *x, sok_fess *f, int player, int *slot,
                              int *pl, int *pushes);
/* The box cells of the same search's path from b to target (b first)
 * into cells[] (room for x->n * 4); returns how many, or -1. */
int gs_sokoban_fess_pack_path(sok_ctx *x, sok_fess *f, int b, int player,
                              int target, int32_t *cells);

/* Goal rooms (macro.c): floor cells off goal within SOK_ROOM_REACH
 * steps of a goal area (not through a door: a cell walled on both sides
 * across one axis) join the area, when there are at most as many of them
 * as goals in it, at most SOK_ROOM_EXITS live cells lead into it and no
 * other goal lies beside it; a box pushed into the area from outside is
 * taken on to the goal the packing order wants, like one pushed onto a
 * goal (and kept as a plain push too, SOK_PUSH_PLAIN). */
#ifndef SOK_ROOM_REACH
#define SOK_ROOM_REACH 2
#endif
#ifndef SOK_ROOM_EXITS
#define SOK_ROOM_EXITS 2
#endif
/* Children one expansion may make (x->pushes, x->pend, x->pkeys): four
 * pushes a box, each push into a goal room twice (the plain push beside
 * the room macro), and the packing advisor's move. */
#define SOK_PEND_MAX(nboxes) ((size_t)(nboxes)*8 + 1)
/* x->pushes[].dir flag: this copy of a push into a goal room stays a
 * plain push (no goal macro). */
#define SOK_PUSH_PLAIN 4

/* any.c: `any`'s portfolio */
/* `any` with a deadline: a portfolio in time slices (gs_sokoban_any_slices),
 * each search from scratch but the last's: A* on pushes (greedy gets lost on
 * some levels whose short solutions A* finds at once), the plain greedy
 * (bound + packing order: it finds some short answers the weighted one
 * misses, Microban II 74, 115), the feature-weighted greedy phase (it dives
 * straight to many answers), then the feature-space search (fess.c: it
 * spreads its effort over ways of packing the greedy ones never leave) with
 * the A*'s table, the search backwards (pull.c: levels whose packing traps
 * the forward searches), the feature-space search without the table after a
 * burst of the one whose cells pick by weight every other time; past
 * SOK_ANY_SHORT_NS, after all these as at that limit, longer searches: a
 * rearrangement's A*, the search backwards and the two feature-space
 * searches in turns, from where they stopped in their slice before
 * (pair_hold). A phase exhausting the space proves the level impossible
 * (gs_sokoban_greedy_phase and gs_sokoban_fess_pair re-check without macros;
 * the search backwards proves nothing). The next slice runs only after a
 * slice's time ran out. */
int gs_sokoban_any_portfolio(sok_ctx *x, const gs_limits *slim, gs_result *res,
                             gs_sokoban_stats *st, gs_error *err);
/* `any`'s feature-space slices: the search by estimate, and with a burst_end
 * or an `alone` before INT64_MAX the one whose cells also pick by weight, on
 * the schedule of gs_sokoban_fess_until (the search by weight alone until
 * burst_end, the one by estimate alone until `alone`, INT64_MAX: to the end;
 * then turns, from the start when both are 0; the memory budget is halved
 * between them); else alone, in turns of solo_turn when not 0, which tests
 * use. Both are kept between turns, so no work is lost: each finds whatever
 * it finds alone, at the time it would alone divided by its share, roughly.
 * The search by weight solves within about a second XSokoban levels the
 * other misses in a minute (21, 37, 47, 61, 70, 76, 81), the one by estimate
 * Microban II 131, which the other misses. When a run ran dry (the macros
 * may have skipped the only way) the plain search decides (as in
 * gs_sokoban_greedy_phase); when both ended otherwise, they refused memory:
 * `limit`. */
int gs_sokoban_fess_pair(sok_ctx *x, const gs_limits *lim, int64_t burst_end,
                         int64_t alone, int64_t solo_turn, gs_result *res,
                         gs_sokoban_stats *st, gs_error *err);
/* Tests (gs_sokoban.fess_hold_ns): the search by estimate alone, held as
 * pair_hold holds it, every hold_ns, with the search backwards run to its
 * end in between (the two share the context). */
int gs_sokoban_fess_held(sok_ctx *x, const gs_limits *lim, int64_t hold_ns,
                         gs_result *res, gs_sokoban_stats *st, gs_error *err);
/* The ends of `any`'s SOK_ANY_SLICES slices (A* on pushes, plain greedy,
 * weighted greedy, feature-space search with the table, search
 * backwards, by estimate after a burst by weight; past SOK_ANY_SHORT_NS
 * a rearrangement's A*, search backwards, by estimate and by weight in
 * turns: gs_sokoban_fess_pair) in nanoseconds after the start, for a
 * deadline span ns away (all 0 when span <= 0; a slice ending where the
 * one before does is empty; the last ends at the deadline); see
 * SOK_ANY_SHORT_NS. */
void gs_sokoban_any_slices(int64_t span, bool rearrange,
                           int64_t end[SOK_ANY_SLICES]);
/* Whether slice `phase` of a portfolio with these ends runs: one ending
 * where the one before does is empty. */
bool gs_sokoban_any_slice_runs(const int64_t end[SOK_ANY_SLICES], int phase);
/* `any`'s slice of the search backwards (pull.c) within part: with
 * all_orders (the slice past SOK_ANY_SHORT_NS) in its three orders, each
 * from scratch, else in its first order alone. It proves nothing, so
 * whatever stops an order short of an answer (its share of the time, a
 * limit, running dry) hands over to the next. GS_OK with res solved, or
 * a limit on time (also when part's deadline had passed before it
 * started); an error otherwise.
 * The slice below SOK_ANY_SHORT_NS (2 s at 10 s) gives its first order
 * the whole of it. At 10 s, against the three orders' shares (1 s to the
 * first), the two builds side by side (December 6): SokHard 123 of 163
 * against 102 (21 more, none lost), XSokoban 48 against 45 (13 and 35
 * more; 33, which comes and goes, too), Grigr2001 93 against 92,
 * Sasquatch 32 either way (18 in, 46 out), Holland 55 either way. */
int gs_sokoban_pull_slice(sok_ctx *x, const gs_limits *part, bool all_orders,
                          gs_result *res, gs_sokoban_stats *st, gs_error *err);
/* When the turn of `run` (0: the feature-space search by estimate, 1: by
 * weight) that starts at `now` ends, when the two take turns (any.c):
 * run 1 alone until burst_end, then run 0 alone until `alone`, then each
 * SOK_FESS_SHARE and the rest percent of every SOK_FESS_TURN_NS. A turn
 * ending at `now` is one expansion. */
int64_t gs_sokoban_fess_until(int run, int64_t now, int64_t burst_end,
                              int64_t alone);

/* Whether the level is a rearrangement (SOK_REARRANGE_DIV): its bound at
 * the start times SOK_REARRANGE_DIV is below its boxes. */
bool gs_sokoban_rearranges(sok_ctx *x);

#endif
