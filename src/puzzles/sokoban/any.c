/* any.c - `any` with a deadline: a portfolio of searches in time slices
 * (gs_sokoban_any_slices), and the two feature-space searches (fess.c)
 * taking turns, kept from one slice to the last.
 */
#include <string.h>

#include "sokoban.h"

/* One of `any`'s two feature-space searches kept between its turns
 * (gs_sokoban_fess_pair): its store, open lists and limits (the store's
 * config points at lim, so a run stays where it was opened). */
typedef struct sok_frun {
    gs_search *s;
    sok_fess *fess;
    gs_limits lim;
    uint64_t goal, expanded;
    int64_t ns; /* the time it has run */
    /* gs_sokoban_search's last answer; SOK_PAUSED while it may go on. */
    int rc;
} sok_frun;

/* Shares max_bytes (0: no cap) out within run r: its open lists take a
 * quarter; the store, which serves only as the visited set, the rest. */
static void frun_budget(sok_frun *r, uint64_t max_bytes)
{
    gs_sokoban_fess_set_budget(r->fess, max_bytes / 4);
    r->lim.max_bytes = max_bytes - max_bytes / 4;
}

/* Opens run r within lim, by weight too when dual. GS_OK or an error. */
static int frun_open(sok_ctx *x, sok_frun *r, const gs_limits *lim, bool dual,
                     gs_error *err)
{
    memset(r, 0, sizeof *r);
    r->lim = *lim;
    x->fess_dual = dual;
    r->fess = gs_sokoban_fess_new(x, lim->max_bytes / 4);
    x->fess_dual = false;
    if (!r->fess)
        return gs_error_set(err, GS_ENOMEM, "sokoban: out of memory");
    frun_budget(r, lim->max_bytes);
    gs_search_config cfg = {
        .key_size = x->key_size,
        .queue = GS_QUEUE_FIFO,
        .limits = &r->lim,
        .bound_shift = gs_sokoban_bound_shift(SOK_ANY),
    };
    int rc = gs_search_new(&cfg, &r->s);
    if (rc) {
        gs_sokoban_fess_free(r->fess);
        r->fess = NULL;
        return gs_error_set(err, rc, "sokoban: cannot start the search");
    }
    r->rc = SOK_PAUSED;
    return GS_OK;
}

/* Runs r until `until` (between two expansions), its end or its limits. */
static void frun_turn(sok_ctx *x, sok_frun *r, int64_t until)
{
    int64_t t0 = gs_now_ns();
    x->fess = r->fess;
    x->fess_expanded = 0;
    x->pause_ns = until;
    r->rc = gs_sokoban_search(x, r->s, 0, 0, &r->goal);
    x->pause_ns = 0;
    r->ns += gs_now_ns() - t0;
    r->expanded += x->fess_expanded;
    x->fess = NULL;
}

/* Closes r; with res, first writes its outcome there (GS_OK or an
 * error), else only adds its states expanded to *expanded. */
static int frun_close(sok_ctx *x, sok_frun *r, const gs_limits *lim,
                      gs_result *res, uint64_t *expanded, gs_sokoban_stats *st,
                      gs_error *err)
{
    int rc = GS_OK;
    if (!r->s)
        return rc;
    uint64_t here = gs_search_expanded(r->s) + r->expanded;
    if (res) {
        x->fess = r->fess; /* answer.c spells out the advisor's moves */
        rc = gs_sokoban_finish_search(x, r->s, r->rc, r->goal, res, err);
        if (gs_sokoban_fess_over(r->fess) && res->status == GS_LIMIT)
            res->limit = GS_LIMIT_MEMORY;
        res->expanded = here;
        x->fess = NULL;
    } else {
        *expanded += here;
    }
    gs_progress_add_expanded(lim, here);
    gs_sokoban_fess_free(r->fess);
    gs_sokoban_search_close(x, r->s, st);
    memset(r, 0, sizeof *r);
    return rc;
}

/* The length of a turn of run i (0: by estimate) when the two take turns
 * (gs_sokoban_fess_pair). */
static int64_t fess_turn(int i)
{
    return SOK_FESS_TURN_NS / 100 *
           (i == 0 ? SOK_FESS_SHARE : 100 - SOK_FESS_SHARE);
}

int64_t gs_sokoban_fess_until(int run, int64_t now, int64_t burst_end,
                              int64_t alone)
{
    if (now < burst_end)
        return run == 1 ? burst_end : now;
    if (now < alone)
        return run == 0 ? alone : now;
    return now + fess_turn(run);
}

/* gs_sokoban_fess_pair's two runs, their schedule and where they stand. */
typedef struct sok_pair {
    sok_frun run[2];
    int64_t burst_end, alone, solo_turn; /* see gs_sokoban_fess_pair */
    int64_t stop; /* 0, or when both pause for another slice (pair_hold) */
    bool live[2];
    int found;       /* the run that answers (solved or the deadline) */
    bool dry;        /* a run ran dry */
    uint64_t others; /* states expanded by the runs not answering */
} sok_pair;

/* Gives run i of p its turn (see gs_sokoban_fess_pair for the schedule) and
 * acts on how it ended. GS_OK, or an error (err filled). */
static int pair_turn(sok_ctx *x, sok_pair *p, int i, const gs_limits *lim,
                     gs_sokoban_stats *st, gs_error *err)
{
    int64_t now = gs_now_ns(), until;
    if (p->live[0] && p->live[1])
        until = gs_sokoban_fess_until(i, now, p->burst_end, p->alone);
    else /* one: it runs to its end */
        until = p->solo_turn ? now + p->solo_turn : 0;
    if (p->stop && (!until || until > p->stop))
        until = p->stop;
    sok_frun *r = &p->run[i];
    frun_turn(x, r, until);
    bool last = i == 1 && r->rc == SOK_PAUSED && p->alone == INT64_MAX &&
                gs_now_ns() >= p->burst_end;
    if (r->rc < 0 && r->rc != GS_ELIMIT)
        return gs_error_set(err, r->rc, "sokoban: out of memory in the search");
    if (r->rc == 1) {
        p->found = i;
    } else if (gs_limits_expired(lim)) {
        /* The deadline: `limit` (a run gone dry proves nothing, its
         * macros may have skipped the only way). */
        r->rc = GS_ELIMIT;
        p->found = i;
    } else if (r->rc == 0) {
        /* Ran dry: the other has the same children and macros, so it
         * would too, only later (SokHard Eiligh: each run expands 563,195
         * states); the plain search decides now. */
        p->dry = true;
        p->live[0] = p->live[1] = false;
    } else if (r->rc != SOK_PAUSED || last) {
        /* Refused memory, or its burst was its last turn: its store goes,
         * and the other may use the whole budget. */
        p->live[i] = false;
        frun_close(x, r, lim, NULL, &p->others, st, err);
        if (p->live[1 - i])
            frun_budget(&p->run[1 - i], lim->max_bytes);
    }
    return GS_OK;
}

/* The context's settings for the feature-space searches; returns the
 * learning flag pair_leave puts back. They go without the learned
 * patterns: their pruning sends them elsewhere and they find fewer
 * answers in time (Microban II 109: 293,232 -> 362,128 states expanded;
 * 131: 8.8 s -> past 10 s at 10 s each); the other searches keep them,
 * and so does the one with the A*'s table (x->perim), which solves
 * Microban I 153 with them in about 0.7 s (the weighted greedy's slice
 * is the only other way, and a slow machine misses it) and SokHard Disa
 * and Romy at 10 s, and leaves 109 to it within 0.2 s of before. */
static bool pair_enter(sok_ctx *x)
{
    bool learning = x->learning;
    x->obj = SOK_ANY;
    x->plain = false;
    x->tunnels = true;
    x->goal_macros = x->garea != NULL;
    x->learning = learning && x->perim;
    return learning;
}

static void pair_leave(sok_ctx *x, bool learning)
{
    x->tunnels = false;
    x->goal_macros = false;
    x->learning = learning;
}

/* Opens p's runs within lim on gs_sokoban_fess_pair's schedule. GS_OK or an
 * error; either way pair_end (or pair_drop) closes what it opened. */
static int pair_open(sok_ctx *x, sok_pair *p, const gs_limits *lim,
                     int64_t burst_end, int64_t alone, int64_t solo_turn,
                     gs_error *err)
{
    memset(p, 0, sizeof *p);
    p->found = -1;
    p->burst_end = burst_end;
    p->alone = alone;
    p->solo_turn = solo_turn;
    bool pair = burst_end > 0 || alone < INT64_MAX;
    gs_limits each = *lim;
    if (pair && each.max_bytes)
        each.max_bytes /= 2;
    bool learning = pair_enter(x);
    int rc = frun_open(x, &p->run[0], &each, false, err);
    if (!rc && pair)
        rc = frun_open(x, &p->run[1], &each, true, err);
    pair_leave(x, learning);
    p->live[0] = !rc;
    p->live[1] = !rc && pair;
    return rc;
}

/* Whether p's runs only paused at p->stop: none answered or ran dry, and
 * one at least goes on. */
static bool pair_held(const sok_pair *p)
{
    return p->found < 0 && !p->dry && (p->live[0] || p->live[1]);
}

/* The runs of p take their turns until one answers, runs dry or refuses
 * memory, or p->stop (each live run has a turn first, even past it).
 * GS_OK or an error. */
static int pair_go(sok_ctx *x, sok_pair *p, const gs_limits *lim,
                   gs_sokoban_stats *st, gs_error *err)
{
    bool learning = pair_enter(x);
    int rc = GS_OK;
    do
        for (int i = 0; i < 2 && !rc && p->found < 0; i++)
            if (p->live[i])
                rc = pair_turn(x, p, i, lim, st, err);
    while (!rc && pair_held(p) && !(p->stop && gs_now_ns() >= p->stop));
    pair_leave(x, learning);
    return rc;
}

/* Closes every run of p but the one answering (p->found), their states
 * expanded added to p->others; none goes on after. */
static void pair_close_others(sok_ctx *x, sok_pair *p, const gs_limits *lim,
                              gs_sokoban_stats *st)
{
    for (int i = 0; i < 2; i++)
        if (i != p->found)
            frun_close(x, &p->run[i], lim, NULL, &p->others, st, NULL);
    p->live[0] = p->live[1] = false;
}

/* Closes p's runs (after pair_go gave rc) and writes the outcome to res:
 * the answering run's; when a run ran dry, the plain search's (the macros
 * may have skipped the only way); else `limit` (refused memory). */
static int pair_end(sok_ctx *x, sok_pair *p, int rc, const gs_limits *lim,
                    gs_result *res, gs_sokoban_stats *st, gs_error *err)
{
    bool learning = pair_enter(x);
    pair_close_others(x, p, lim, st);
    if (!rc && p->found >= 0) {
        rc = frun_close(x, &p->run[p->found], lim, res, NULL, st, err);
    } else if (!rc && p->dry) {
        pair_leave(x, learning);
        rc = gs_sokoban_run_phase(x, lim, res, st, err);
    } else if (!rc) {
        res->status = GS_LIMIT; /* refused memory */
        res->limit = GS_LIMIT_MEMORY;
    }
    res->expanded += p->others;
    p->others = 0;
    pair_leave(x, learning);
    return rc;
}

int gs_sokoban_fess_pair(sok_ctx *x, const gs_limits *lim, int64_t burst_end,
                         int64_t alone, int64_t solo_turn, gs_result *res,
                         gs_sokoban_stats *st, gs_error *err)
{
    sok_pair p;
    int rc = pair_open(x, &p, lim, burst_end, alone, solo_turn, err);
    if (!rc)
        rc = pair_go(x, &p, lim, st, err);
    return pair_end(x, &p, rc, lim, res, st, err);
}

/* `any`'s feature-space slice past SOK_ANY_SHORT_NS: as
 * gs_sokoban_fess_pair's (the search by weight to burst_end, then the one by
 * estimate alone), but both are opened for the whole solve (deadline
 * whole's), pause at part's deadline and are kept in *p for the last slice
 * (pair_resume), which goes on where they stopped: from scratch, the search
 * by estimate did its 9.5 s here again first, more than its share of the
 * last slice at 60 s (6 s). Returns as gs_sokoban_fess_pair; the slice's
 * result is a limit on time while p is held (pair_held), and the states
 * expanded are counted when p ends. */
static int pair_hold(sok_ctx *x, sok_pair *p, const gs_limits *part,
                     const gs_limits *whole, int64_t burst_end, gs_result *res,
                     gs_sokoban_stats *st, gs_error *err)
{
    gs_limits l = *part;
    l.deadline_ns = whole->deadline_ns;
    int rc = pair_open(x, p, &l, burst_end, part->deadline_ns, 0, err);
    p->stop = part->deadline_ns;
    if (!rc)
        rc = pair_go(x, p, &l, st, err);
    if (!rc && pair_held(p)) {
        res->status = GS_LIMIT;
        res->limit = GS_LIMIT_TIME;
        return GS_OK;
    }
    return pair_end(x, p, rc, part, res, st, err);
}

/* Ends p, held by pair_hold, within lim: from where they stopped, the
 * search by weight first runs alone until it has run as long as the one
 * by estimate, which had pair_hold's slice to itself, then the two take
 * turns. On XSokoban at 60 s the search by weight solves the levels this
 * slice solves (alone: 32 in 2.1 s, 76 in 8.4, 18 in 18.9, 75 in 27.8);
 * the search by estimate alone solved none of 18, 75 and the 26 missed
 * within 25 s (December 5), so it gains only on longer limits. Either
 * answer ends both. */
static int pair_resume(sok_ctx *x, sok_pair *p, const gs_limits *lim,
                       gs_result *res, gs_sokoban_stats *st, gs_error *err)
{
    int64_t behind = p->run[0].ns - p->run[1].ns;
    p->burst_end =
        p->live[0] && p->live[1] && behind > 0 ? gs_now_ns() + behind : 0;
    p->stop = p->alone = 0;
    int rc = pair_go(x, p, lim, st, err);
    return pair_end(x, p, rc, lim, res, st, err);
}

/* Closes the runs of p, held by pair_hold, when a slice between answers;
 * adds their states expanded to *expanded. */
static void pair_drop(sok_ctx *x, sok_pair *p, const gs_limits *lim,
                      uint64_t *expanded, gs_sokoban_stats *st)
{
    pair_close_others(x, p, lim, st); /* held: none answered */
    *expanded += p->others;
    p->others = 0;
}

/* The bytes the runs of p hold: their stores and open lists. */
static uint64_t pair_bytes(const sok_pair *p)
{
    uint64_t n = 0;
    for (int i = 0; i < 2; i++)
        if (p->run[i].s)
            n += gs_search_bytes(p->run[i].s) +
                 gs_sokoban_fess_bytes(p->run[i].fess);
    return n;
}

int gs_sokoban_fess_held(sok_ctx *x, const gs_limits *lim, int64_t hold_ns,
                         gs_result *res, gs_sokoban_stats *st, gs_error *err)
{
    sok_pair p;
    int rc = pair_open(x, &p, lim, 0, INT64_MAX, 0, err);
    while (!rc) {
        p.stop = gs_now_ns() + hold_ns;
        rc = pair_go(x, &p, lim, st, err);
        if (rc || !pair_held(&p))
            break;
        gs_result between;
        gs_result_clear(&between);
        rc = gs_sokoban_pull(x, lim, 0, &between, st, err);
        gs_result_free(&between);
    }
    return pair_end(x, &p, rc, lim, res, st, err);
}

/* The search by weight's burst at the start of `any`'s last slice, for a
 * deadline span ns away: SOK_FESS_BURST percent of it, up to short_ns
 * (SOK_ANY_SHORT_NS but in tests). */
static int64_t fess_burst(int64_t span, int64_t short_ns)
{
    if (span > short_ns)
        span = short_ns;
    return span > 0 ? span / 100 * SOK_FESS_BURST : 0;
}

/* `any`: before the slice of the feature-space search with the A*'s
 * table (from `start` to lim's deadline). The A* slice's deadline cut the
 * table's last round within a layer, at a depth that depends on the
 * machine's speed; that layer is finished, in at most
 * SOK_TABLE_FINISH_SHARE percent of the slice and only when the build's
 * rate says it fits (Microban II 109: solved at about 2.5 s at a 10 s
 * limit with layer 13 whole, else at 7.5 s or past the limit). The table
 * may grow: the caller gives the slice's store what is left after. */
static void table_finish(sok_ctx *x, const gs_limits *lim, int64_t start)
{
    gs_limits flim = *lim;
    flim.deadline_ns = gs_sokoban_deadline_share(start, lim->deadline_ns,
                                                 SOK_TABLE_FINISH_SHARE);
    gs_sokoban_perim_finish_layer(x, &flim);
    gs_sokoban_perim_seal(x);
}

/* gs_sokoban_any_slices up to SOK_ANY_SHORT_NS. */
static void any_short_slices(int64_t span, bool rearrange,
                             int64_t end[SOK_ANY_SLICES])
{
    /* (The long slices end at 100: empty.) */
    static const int64_t pct[SOK_ANY_SLICES] = {SOK_ASTAR_END,
                                                SOK_PLAIN_END,
                                                SOK_GREEDY_END,
                                                SOK_TABLE_FESS_END,
                                                SOK_TABLE_FESS_END +
                                                    SOK_PULL_SHORT_SHARE,
                                                100,
                                                100,
                                                100,
                                                100};
    /* A rearrangement: the A* to `a` percent, the others squeezed into
     * the rest in the same proportions. */
    int64_t a = rearrange ? SOK_REARRANGE_ASTAR_END : SOK_ASTAR_END;
    for (int i = 0; i < SOK_ANY_SLICES; i++) {
        int64_t p = i == 0 ? a
                           : a + (pct[i] - SOK_ASTAR_END) * (100 - a) /
                                     (100 - SOK_ASTAR_END);
        end[i] = span > 0 ? span / 100 * p : 0;
    }
}

/* gs_sokoban_any_slices past SOK_ANY_SHORT_NS: the slices of a solve at
 * SOK_ANY_SHORT_NS first, unchanged, so that a longer limit does not
 * delay what they find (when each slice grew with the limit, the A*
 * slice did too, and at 60 s nearly every XSokoban level the greedy
 * slices solve came 5 s later than at 10 s); then, from scratch, for a
 * rearrangement the A* for SOK_REARRANGE_ASTAR_END percent of the time
 * past it, the search backwards for SOK_PULL_SHARE percent of what is
 * left (none when that is not longer than its slice before: it would
 * only do that slice's work again), and the two feature-space searches,
 * kept from their slice (pair_hold), in turns to the deadline. */
static void any_long_slices(int64_t span, int64_t short_ns, bool rearrange,
                            int64_t end[SOK_ANY_SLICES])
{
    any_short_slices(short_ns, rearrange, end);
    int64_t past = span - short_ns;
    int b = SOK_SLICE_PULL, lb = SOK_SLICE_LONG_PULL;
    end[lb - 1] =
        short_ns + (rearrange ? past / 100 * SOK_REARRANGE_ASTAR_END : 0);
    int64_t pull = (span - end[lb - 1]) / 100 * SOK_PULL_SHARE;
    if (pull <= end[b] - end[b - 1])
        pull = 0;
    end[lb] = end[lb - 1] + pull;
    end[SOK_SLICE_PAIR] = span;
}

/* gs_sokoban_any_slices with the long slices past short_ns (tests: not
 * SOK_ANY_SHORT_NS). */
static void any_slices(int64_t span, int64_t short_ns, bool rearrange,
                       int64_t end[SOK_ANY_SLICES])
{
    if (span > short_ns)
        any_long_slices(span, short_ns, rearrange, end);
    else
        any_short_slices(span, rearrange, end);
}

void gs_sokoban_any_slices(int64_t span, bool rearrange,
                           int64_t end[SOK_ANY_SLICES])
{
    any_slices(span, SOK_ANY_SHORT_NS, rearrange, end);
}

bool gs_sokoban_any_slice_runs(const int64_t end[SOK_ANY_SLICES], int phase)
{
    return phase == 0 || end[phase] > end[phase - 1];
}

bool gs_sokoban_rearranges(sok_ctx *x)
{
    uint32_t h = gs_sokoban_lower_bound(x, x->start_player, x->start_boxes);
    return h != SOK_INF &&
           (uint64_t)h * SOK_REARRANGE_DIV < (uint64_t)x->nboxes;
}

int gs_sokoban_pull_slice(sok_ctx *x, const gs_limits *part, bool all_orders,
                          gs_result *res, gs_sokoban_stats *st, gs_error *err)
{
    /* Its cells by the boxes on start cells, ties to the fewest pulls
     * (alone: the whole slice), then to the most for SOK_PULL_MOST_SHARE
     * percent of the slice, then, for the last SOK_PULL_DOORS_SHARE
     * percent, also by the boxes in passages. */
    static const struct {
        unsigned order;
        int64_t end; /* percent of the slice */
    } orders[] = {
        {0, 100 - SOK_PULL_MOST_SHARE - SOK_PULL_DOORS_SHARE},
        {SOK_PULL_MOST, 100 - SOK_PULL_DOORS_SHARE},
        {SOK_PULL_DOORS, 100},
    };
    int64_t start = gs_now_ns();
    uint64_t expanded = 0;
    int rc = GS_OK;
    bool solved = false;
    size_t n = all_orders ? sizeof orders / sizeof *orders : 1;
    for (size_t i = 0; i < n; i++) {
        if (gs_limits_expired(part))
            break;
        gs_limits l = *part;
        l.deadline_ns = gs_sokoban_deadline_share(
            start, part->deadline_ns, all_orders ? orders[i].end : 100);
        gs_result_clear(res);
        rc = gs_sokoban_pull(x, &l, orders[i].order, res, st, err);
        expanded += res->expanded;
        res->expanded = expanded;
        solved = rc == GS_OK && res->status == GS_SOLVED;
        if (rc != GS_OK || solved)
            break;
    }
    /* Also when no order ran (the slice started past its deadline, after
     * a slice before it overran): a cleared result reads as solved. */
    if (rc == GS_OK && !solved) {
        res->status = GS_LIMIT;
        res->limit = GS_LIMIT_TIME;
    }
    return rc;
}

/* Runs `any`'s slice `phase` (gs_sokoban_any_slices) within part, whose
 * deadline is the slice's end; whole is the portfolio's limits, burst the
 * search by weight's (fess_burst), and held, past SOK_ANY_SHORT_NS, the
 * feature-space searches the slice SOK_SLICE_FESS keeps for the last
 * (pair_hold; NULL up to it). */
static int any_slice(sok_ctx *x, int phase, const gs_limits *part,
                     const gs_limits *whole, int64_t burst, sok_pair *held,
                     gs_result *res, gs_sokoban_stats *st, gs_error *err)
{
    bool astar = phase == SOK_SLICE_ASTAR || phase == SOK_SLICE_LONG_ASTAR;
    x->obj = astar ? SOK_ANY_ASTAR : SOK_ANY;
    x->sym_store = astar;
    x->plain = phase == SOK_SLICE_PLAIN;
    x->tunnels = false;
    x->goal_macros = false;
    /* Only the first A* and the first feature-space search see the A*'s
     * table: the others are the searches of old (it leads some levels
     * astray: Microban II 109); the A* past SOK_ANY_SHORT_NS is a
     * rearrangement's, which builds none. */
    struct sok_perim *table = x->perim;
    bool hide = phase != SOK_SLICE_ASTAR && phase != SOK_SLICE_TABLE_FESS;
    if (hide)
        x->perim = NULL;
    int rc;
    if (astar)
        rc = gs_sokoban_exact_phases(x, part, res, st, err);
    else if (phase == SOK_SLICE_PLAIN)
        rc = gs_sokoban_run_phase(x, part, res, st, err);
    else if (phase == SOK_SLICE_GREEDY)
        rc = gs_sokoban_greedy_phase(x, part, res, st, err);
    else if (phase == SOK_SLICE_TABLE_FESS)
        rc = gs_sokoban_fess_pair(x, part, 0, INT64_MAX, 0, res, st, err);
    else if (phase == SOK_SLICE_PULL || phase == SOK_SLICE_LONG_PULL)
        rc = gs_sokoban_pull_slice(x, part, phase == SOK_SLICE_LONG_PULL, res,
                                   st, err);
    else if (phase == SOK_SLICE_FESS && held)
        rc = pair_hold(x, held, part, whole, gs_now_ns() + burst, res, st, err);
    else if (phase == SOK_SLICE_FESS) /* a burst by weight, then estimate */
        rc = gs_sokoban_fess_pair(x, part, gs_now_ns() + burst, INT64_MAX, 0,
                                  res, st, err);
    else if (held && pair_held(held)) /* the two in turns, where they were */
        rc = pair_resume(x, held, part, res, st, err);
    else
        rc = gs_sokoban_fess_pair(x, part, 0, 0, 0, res, st, err);
    if (hide)
        x->perim = table;
    return rc;
}

int gs_sokoban_any_portfolio(sok_ctx *x, const gs_limits *slim, gs_result *res,
                             gs_sokoban_stats *st, gs_error *err)
{
    int64_t now = gs_now_ns(), span = slim->deadline_ns - now;
    int64_t short_ns =
        x->g->any_short_ns > 0 ? x->g->any_short_ns : SOK_ANY_SHORT_NS;
    int64_t end[SOK_ANY_SLICES];
    x->rearrange = gs_sokoban_rearranges(x);
    any_slices(span, short_ns, x->rearrange, end);
    uint64_t expanded = 0, tables = x->bytes;
    sok_pair held;
    memset(&held, 0, sizeof held);
    sok_pair *keep = span > short_ns ? &held : NULL;
    int64_t burst = fess_burst(span, short_ns);
    int rc = GS_OK;
    for (int phase = 0; phase < SOK_ANY_SLICES; phase++) {
        gs_limits part = *slim;
        if (phase < SOK_ANY_SLICES - 1 && span > 0)
            part.deadline_ns = now + end[phase];
        if (span > 0 && !gs_sokoban_any_slice_runs(end, phase))
            continue; /* an empty slice */
        if (phase == SOK_SLICE_TABLE_FESS && !x->perim)
            continue; /* no table: the same search as the next */
        if (phase > 0) {
            if (rc != GS_OK || res->status != GS_LIMIT ||
                res->limit != GS_LIMIT_TIME || gs_limits_expired(slim))
                break;
            expanded += res->expanded;
            gs_result_clear(res);
        }
        if (phase == SOK_SLICE_TABLE_FESS)
            table_finish(x, &part, now + end[phase - 1]);
        else if (phase > SOK_SLICE_TABLE_FESS)
            gs_sokoban_perim_seal(x); /* no slice uses it more */
        /* The A*'s perimeter table stays (it serves a later search's
         * estimate), and so do the held feature-space searches until
         * their slice: the other stores get the rest. */
        uint64_t more = x->bytes > tables ? x->bytes - tables : 0;
        if (phase != SOK_SLICE_PAIR)
            more += pair_bytes(&held);
        if (slim->max_bytes && more)
            part.max_bytes =
                slim->max_bytes > more ? slim->max_bytes - more : 1;
        rc = any_slice(x, phase, &part, slim, burst, keep, res, st, err);
    }
    if (pair_held(&held)) /* a slice between answered, or an error */
        pair_drop(x, &held, slim, &expanded, st);
    res->expanded += expanded;
    return rc;
}
