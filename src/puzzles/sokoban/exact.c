/* exact.c - the exact objectives' phases: `moves`, `pushes`, and `any`'s
 * A* slice (the same search on pushes alone).
 *
 * A first search capped at SOK_PERIM_TRIGGER states solves most levels;
 * past it the perimeter table (perim.c) and the search grow in rounds
 * (gs_sokoban_exact_phases). `pushes` runs two searches: the first, over
 * the player's areas, records its shortest edges so that the positions on
 * solutions of the fewest pushes can be marked; the second ranks those by
 * moves (gs_sokoban_pushes_two_phase).
 */
#include "gridsolve/mem.h"
#include "sokoban.h"

/* `pushes`' first search (gs_sokoban_pushes_two_phase): its store, kept for
 * look-ups, every edge that was a shortest way to its child when seen
 * (and the goals popped), then the states on a solution of the fewest
 * pushes. */
struct sok_trace {
    gs_search *store;
    struct sok_edge {
        uint32_t from, to, cost; /* cost: the child's when seen, or
                                    SOK_EDGE_GOAL (`from` a goal) */
    } * edges;
    size_t nedges, cap;
    uint64_t max_bytes; /* the solve's budget, tables and stores (0: none) */
    uint64_t goal;      /* the first goal popped */
    uint32_t pstar;     /* its pushes */
    bool found, over;   /* a goal popped; the edges passed the budget */
    uint8_t *onpath;    /* a byte per stored state: on such a solution */
    size_t onpath_n;
};
#define SOK_EDGE_GOAL UINT32_MAX

/* Whether `more` bytes fit t's budget beside x's tables and the first
 * search's store s (always, without a budget). */
static bool trace_fits(const sok_ctx *x, const struct sok_trace *t,
                       const gs_search *s, uint64_t more)
{
    return !t->max_bytes ||
           x->bytes + gs_search_bytes(s) + more <= t->max_bytes;
}

int gs_sokoban_trace_edge(sok_ctx *x, const gs_search *s, uint64_t from,
                          uint64_t to, uint64_t cost)
{
    struct sok_trace *t = x->trace;
    if (t->nedges == t->cap) {
        size_t cap = t->cap ? t->cap * 2 : 4096, add = cap - t->cap;
        uint64_t more = add * sizeof *t->edges;
        void *p = NULL;
        if (trace_fits(x, t, s, more))
            p = gs_mem_realloc(t->edges, cap * sizeof *t->edges);
        if (!p) {
            t->over = true;
            return GS_ELIMIT;
        }
        t->edges = p;
        t->cap = cap;
        x->bytes += more;
    }
    t->edges[t->nedges++] = (struct sok_edge){
        (uint32_t)from, (uint32_t)to,
        (uint32_t)(cost > SOK_EDGE_GOAL ? SOK_EDGE_GOAL - 1 : cost)};
    return GS_OK;
}

/* Frees x->trace's edges and takes their bytes off x->bytes. */
static void trace_drop_edges(sok_ctx *x, struct sok_trace *t)
{
    gs_mem_free(t->edges);
    x->bytes -= t->cap * sizeof *t->edges;
    t->edges = NULL;
    t->nedges = t->cap = 0;
}

bool gs_sokoban_on_path(sok_ctx *x, int player, uint64_t g)
{
    const struct sok_trace *t = x->onpath;
    gs_sokoban_occ_set(x, x->boxes, 1);
    gs_sokoban_area_key(x, player, x->boxes);
    gs_sokoban_occ_set(x, x->boxes, 0);
    uint64_t id;
    return gs_search_find(t->store, x->key, &id) && id < t->onpath_n &&
           t->onpath[id] && gs_search_cost(t->store, id) == g >> SOK_PUSH_SHIFT;
}

bool gs_sokoban_trace_done(const sok_ctx *x, const gs_search *s, int rc,
                           uint64_t *goal)
{
    const struct sok_trace *t = x->trace;
    if (!t->found ||
        !(rc == 0 || (rc > 0 && gs_search_popped_prio(s) >> 16 > t->pstar)))
        return false;
    *goal = t->goal;
    return true;
}

int gs_sokoban_trace_goal(sok_ctx *x, const gs_search *s, uint64_t id,
                          uint64_t g)
{
    struct sok_trace *t = x->trace;
    if (!t->found) {
        t->found = true;
        t->goal = id;
        t->pstar = (uint32_t)g;
    }
    return gs_sokoban_trace_edge(x, s, id, id, SOK_EDGE_GOAL);
}

/* The perimeter table's rounds between the exact search's
 * (gs_sokoban_exact_phases): their limits, and the round under way. */
typedef struct {
    gs_limits plim; /* the table's: its bytes, its first round's time */
    int share;      /* percent of the time left a later round may take */
    bool exact;     /* an exact objective's rounds (not `any`'s A* slice) */
    bool first;     /* the first round is still to come */
} table_rounds;

/* The table: at most a quarter of what the store may use, and its growth
 * within a share of the time left (the search goes on between rounds, so
 * its work is never lost to the table's). */
static table_rounds table_rounds_init(const sok_ctx *x, const gs_limits *slim)
{
    table_rounds r = {.plim = *slim, .first = true};
    r.plim.max_bytes = slim->max_bytes / 4;
    if (!r.plim.max_bytes || r.plim.max_bytes > SOK_PERIM_MAX_BYTES)
        r.plim.max_bytes = SOK_PERIM_MAX_BYTES;
    /* (`pushes`' first search is `any`'s A*, with its rounds.) */
    bool pushes = x->obj == SOK_PUSHES || x->trace;
    r.share = x->g->perim_share ? x->g->perim_share
              : pushes          ? SOK_PERIM_SHARE_PUSHES
                                : SOK_PERIM_SHARE;
    if (r.share < 0)
        r.share = 0;
    r.plim.deadline_ns =
        gs_sokoban_deadline_share(gs_now_ns(), slim->deadline_ns, r.share);
    /* The exact objectives give each later round the share of the time
     * left at its start, not of the time left at the first: a share fixed
     * at the first ended the table at whichever layer the machine's speed
     * reached by then, and the search went on to the end without the
     * next one (Microban I 139 `moves` at 10 s on a slow day: 5 runs of
     * 12 past the limit, the table ending at depth 180 to 185 when traced;
     * with the share per round 18 of 18 solved, 395,398 to 512,489 states
     * expanded, depth 217 to 225 when traced).
     * `any`'s A* keeps the fixed share: its slice hands the table on
     * (table_finish), and its rounds were set with SokHard. */
    r.exact = x->obj != SOK_ANY_ASTAR || pushes;
    return r;
}

/* Grows the table by a round started at round_ns, up to `upto` positions.
 * Returns whether it is the last round: the table stopped growing, its
 * time ran out, or not even its next layer would be whole in time. */
static bool table_round(sok_ctx *x, const gs_limits *slim, table_rounds *r,
                        int64_t round_ns, uint64_t upto)
{
    /* Only a whole layer adds to the bound, so a round ends at a layer's
     * boundary (perim.c); when not even the next layer would be whole in
     * the table's time, the search goes on to the end instead (Microban I
     * 144 `pushes` at a 10 s limit: 7.7 to 7.8 s -> 5.3 to 5.8 s, the 2 s
     * of a layer the deadline cut spared).
     * The first round, small (SOK_PERIM_FIRST), is cut by the solve's
     * deadline only: cut by the share, its depth followed the machine's
     * load (SokHard Zandra `any`: its whole table of 514,902 positions
     * took 0.32 s alone and up to 0.52 s beside another solve, against a
     * share of 0.45 s; the A* slice solved it at 0.5 s, or nothing did
     * within 10 s). */
    gs_limits rlim = r->plim;
    if (r->first)
        rlim.deadline_ns = slim->deadline_ns;
    else if (r->exact)
        rlim.deadline_ns =
            gs_sokoban_deadline_share(round_ns, slim->deadline_ns, r->share);
    /* (Once `pushes`' first search has its goal, only the rest of the
     * goal's layer is left: no table grows for it.) */
    bool last =
        (x->trace && x->trace->found) || !gs_sokoban_perim_layer_fits(x, &rlim);
    if (!last) {
        gs_sokoban_perim_build(x, &rlim, upto);
        /* (Past the first round, rlim is plim or the round's share.) */
        last = !gs_sokoban_perim_growing(x) ||
               gs_limits_expired(r->first ? &r->plim : &rlim);
    }
    r->first = false;
    return last;
}

/* A moves table not deep enough to matter at the start (it grows by a
 * few layers a round): freed, and the search started afresh without it,
 * since the bounds it queued are too high now. *expanded gets the old
 * search's count. 0, or the new store's error. */
static int drop_moves_table(sok_ctx *x, const gs_limits *slim,
                            const gs_search_config *cfg, uint64_t tables,
                            gs_search **s, uint64_t *expanded)
{
    gs_sokoban_perim_free(x);
    x->bytes = tables; /* the table was all that came since */
    *expanded += gs_search_expanded(*s);
    gs_progress_add_expanded(slim, gs_search_expanded(*s));
    gs_search_free(*s);
    *s = NULL;
    return gs_search_new(cfg, s);
}

/* The next round's store limits (*lim: its bytes what the tables leave of
 * the budget) and state cap (0: none, in the last round). */
static uint64_t round_limits(const sok_ctx *x, const gs_limits *slim,
                             gs_search *s, uint64_t tables, uint64_t upto,
                             bool last, gs_limits *lim)
{
    if (slim->max_bytes) {
        uint64_t more = x->bytes > tables ? x->bytes - tables : 0;
        lim->max_bytes = slim->max_bytes > more ? slim->max_bytes - more : 1;
    }
    uint64_t cap = gs_search_count(s) + upto / SOK_PERIM_RATIO;
    if (last || (slim->max_states && cap >= slim->max_states))
        cap = 0;
    return cap;
}

int gs_sokoban_exact_phases(sok_ctx *x, const gs_limits *slim, gs_result *res,
                            gs_sokoban_stats *st, gs_error *err)
{
    /* The store's limits: the solve's, its bytes less the tables'. */
    gs_limits lim = *slim;
    gs_search_config cfg = {
        .key_size = x->key_size,
        .queue = GS_QUEUE_PRIORITY,
        .limits = &lim,
        .bound_shift = gs_sokoban_bound_shift(x->obj),
    };
    uint64_t trig =
        x->g->perim_trigger ? x->g->perim_trigger : SOK_PERIM_TRIGGER;
    uint64_t cap =
        (slim->max_states && slim->max_states <= trig) || x->rearrange ? 0
                                                                       : trig;
    gs_search *s = NULL;
    int rc = gs_search_new(&cfg, &s);
    if (rc)
        return gs_error_set(err, rc, "sokoban: cannot start the search");
    uint64_t goal = 0, expanded = 0;
    rc = gs_sokoban_search(x, s, cap, 0, &goal);
    table_rounds rounds = table_rounds_init(x, slim);
    uint64_t tables = x->bytes,
             upto = x->g->perim_first ? x->g->perim_first : SOK_PERIM_FIRST;
    while (rc == 2) {
        int64_t round_ns = gs_now_ns();
        bool last = table_round(x, slim, &rounds, round_ns, upto);
        if (!x->perim) {
            last = true; /* no table for this level: the search goes on */
        } else if (x->obj == SOK_MOVES && !gs_sokoban_perim_lifts_start(x)) {
            last = true;
            rc = drop_moves_table(x, slim, &cfg, tables, &s, &expanded);
            if (rc)
                return gs_error_set(err, rc,
                                    "sokoban: cannot start the search");
        }
        /* `any`'s A* leaves a table cut within a layer to the slice
         * that uses it next (gs_sokoban_perim_finish_layer). */
        if (last && rounds.exact)
            gs_sokoban_perim_seal(x);
        cap = round_limits(x, slim, s, tables, upto, last, &lim);
        /* (139 `moves` at 10 s: 5.2 to 5.4 s -> 4.1 to 4.2 s.) */
        if (!last && slim->deadline_ns) {
            int64_t now = gs_now_ns();
            x->pause_ns = now + (now - round_ns);
        }
        rc = gs_sokoban_search(x, s, cap, gs_search_count(s), &goal);
        x->pause_ns = 0;
        if (rc == SOK_PAUSED)
            rc = 2; /* nothing lost: the next round goes on */
        upto *= 2;
    }
    uint64_t here = gs_search_expanded(s);
    if (rc == 1 && x->trace) {
        /* The caller's now (gs_sokoban_pushes_two_phase). */
        x->trace->store = s;
        res->expanded = here + expanded;
        gs_progress_add_expanded(slim, here);
        return GS_OK;
    }
    rc = gs_sokoban_finish_search(x, s, rc, goal, res, err);
    res->expanded = here + expanded;
    gs_progress_add_expanded(slim, here);
    gs_sokoban_search_close(x, s, st);
    return rc;
}

/* Marks in t->onpath the states of t's store on a solution of t->pstar
 * pushes: the goals popped at that cost, then, parents by falling cost,
 * each whose recorded edge is still a shortest way to a marked child.
 * Frees the edges. GS_OK, or GS_ELIMIT when the marks and their sort
 * would pass the solve's memory budget or the process's. */
static int trace_mark(sok_ctx *x, struct sok_trace *t)
{
    const gs_search *s = t->store;
    size_t n = gs_search_count(s), ne = t->nedges, top = t->pstar;
    uint64_t need =
        n + (top + 2) * sizeof(size_t) + (ne ? ne : 1) * sizeof(uint32_t);
    if (!trace_fits(x, t, s, need))
        return GS_ELIMIT;
    t->onpath = gs_sokoban_tab_alloc(x, n, true);
    t->onpath_n = t->onpath ? n : 0;
    size_t *at = gs_mem_calloc(top + 2, sizeof *at);
    uint32_t *order = gs_mem_malloc((ne ? ne : 1) * sizeof *order);
    if (!t->onpath || !at || !order) {
        gs_mem_free(at);
        gs_mem_free(order);
        return GS_ELIMIT;
    }
    /* The edges by their parent's cost, highest first (counting sort). */
    for (size_t e = 0; e < ne; e++) {
        uint64_t c = gs_search_cost(s, t->edges[e].from);
        at[top - (c < top ? c : top) + 1]++;
    }
    for (size_t c = 1; c <= top + 1; c++)
        at[c] += at[c - 1];
    for (size_t e = 0; e < ne; e++) {
        uint64_t c = gs_search_cost(s, t->edges[e].from);
        order[at[top - (c < top ? c : top)]++] = (uint32_t)e;
    }
    for (size_t e = 0; e < ne; e++) {
        const struct sok_edge *d = &t->edges[order[e]];
        if (d->cost == SOK_EDGE_GOAL)
            t->onpath[d->from] |= gs_search_cost(s, d->from) == t->pstar;
        else if (t->onpath[d->to] && gs_search_cost(s, d->to) == d->cost)
            t->onpath[d->from] = 1;
    }
    gs_mem_free(at);
    gs_mem_free(order);
    trace_drop_edges(x, t);
    return GS_OK;
}

int gs_sokoban_pushes_two_phase(sok_ctx *x, const gs_limits *slim,
                                gs_result *res, gs_sokoban_stats *st,
                                gs_error *err)
{
    uint64_t tables = x->bytes;
    struct sok_trace t = {.max_bytes =
                              slim->max_bytes ? slim->max_bytes + tables : 0};
    if (!x->zone_ok) /* (without, its children's areas are flooded) */
        x->zone_ok = gs_sokoban_zone_alloc(x, &x->zone);
    x->trace = &t;
    x->obj = SOK_ANY_ASTAR;
    x->no_pi = true;
    int rc = gs_sokoban_exact_phases(x, slim, res, st, err);
    x->trace = NULL;
    x->no_pi = false;
    x->obj = SOK_PUSHES;
    if (t.over && res->status == GS_LIMIT)
        res->limit = GS_LIMIT_MEMORY;
    if (rc == GS_OK && t.store) {
        uint64_t first = res->expanded;
        rc = trace_mark(x, &t);
        gs_result_clear(res);
        if (rc) {
            /* A limit, as when a table is refused. */
            res->status = GS_LIMIT;
            res->limit = GS_LIMIT_MEMORY;
            res->expanded = first;
            rc = GS_OK;
        } else {
            gs_limits lim = *slim;
            uint64_t held = x->bytes - tables + gs_search_bytes(t.store);
            if (lim.max_bytes)
                lim.max_bytes = lim.max_bytes > held ? lim.max_bytes - held : 1;
            /* (The state cap is the solve's: both stores count.) */
            uint64_t first_n = gs_search_count(t.store);
            if (lim.max_states)
                lim.max_states =
                    lim.max_states > first_n ? lim.max_states - first_n : 1;
            x->onpath = &t;
            rc = gs_sokoban_run_phase(x, &lim, res, st, err);
            x->onpath = NULL;
            res->expanded += first;
            if (st) {
                st->states += gs_search_count(t.store);
                st->store_bytes += gs_search_bytes(t.store);
            }
            /* The first search proved a solution of these pushes, whose
             * states the marks keep: never `impossible`. */
            if (rc == GS_OK && res->status == GS_IMPOSSIBLE)
                rc = gs_error_set(err, GS_EINTERNAL,
                                  "sokoban: the second search lost the "
                                  "solution the first found");
        }
    }
    gs_search_free(t.store);
    trace_drop_edges(x, &t);
    gs_mem_free(t.onpath);
    x->bytes -= t.onpath_n;
    return rc;
}
