/* sokoban.c - push every box onto a goal.
 *
 * The search runs over PUSHES, not single steps: a state is the set of box
 * cells (sorted, so each configuration has one key) plus the player's cell
 * right after the last push. One expansion floods the player's free region
 * and offers every push the player can walk to; the walk is not stored but
 * recomputed (shortest, by BFS) when the answer is rebuilt. This keeps the
 * visited set in the search core small: no state for every step of a walk.
 *
 * Objectives, all on the search core's priority queue:
 *   - moves (default): A*, edge cost = walk + 1, heuristic = minimum-cost
 *     matching of boxes to goals by relaxed push distance (a lower bound on
 *     pushes, hence on moves). One push changes one box's distance to any
 *     goal by at most 1 and costs at least 1, so the heuristic is consistent
 *     and the first expansion of a goal state is optimal.
 *   - pushes: the same graph with cost (pushes, moves) packed
 *     lexicographically into one integer; exact for both components because
 *     the player's exact cell is part of the state.
 *   - any: greedy best-first on the heuristic with the player normalized to
 *     the smallest cell of its region (fewer states; answers not minimal).
 *
 * Pruning (sound, so "impossible" stays a proof): dead squares (a box there
 * can never be pulled back from a goal), matchings with no finite cost, and
 * freeze deadlocks (boxes blocked on both axes by walls, dead pairs or other
 * frozen boxes, one of them off goal).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/json.h"
#include "gridsolve/puzzle.h"

/* Cell flags of a parsed instance. */
enum { SOK_WALL = 1, SOK_GOAL = 2, SOK_BOX = 4 };

typedef enum { SOK_MOVES = 0, SOK_PUSHES = 1, SOK_ANY = 2 } sok_objective;

/* A parsed level: the grid as flags, the player, the objective. */
typedef struct gs_sokoban {
    int rows, cols;
    uint8_t *cell; /* rows*cols SOK_* flags */
    int player;    /* r*cols + c */
    int nboxes, ngoals;
    sok_objective objective;
} gs_sokoban;

/* Directions: U D L R, so that d^1 is the opposite direction. */
static const int DR[4] = {-1, 1, 0, 0};
static const int DC[4] = {0, 0, -1, 1};
static const char STEP[4] = {'u', 'd', 'l', 'r'};
static const char PUSH[4] = {'U', 'D', 'L', 'R'};

#define SOK_INF 0xFFFFFFFFu
#define SOK_GDIST_INF 0xFFFFu
/* Per-goal distance tables above this many entries fall back to the sum of
 * nearest-goal distances (memory stays bounded on huge levels). */
#define SOK_GDIST_MAX_ENTRIES (8u << 20)
/* Matching is O(boxes^2 * goals) per state; beyond this, use the sum. */
#define SOK_MATCH_MAX_BOXES 64
/* Calls allowed per freeze test; past it the box counts as not frozen. */
#define SOK_FREEZE_BUDGET 256
/* Pushes objective: cost = pushes << SOK_PUSH_SHIFT | moves. */
#define SOK_PUSH_SHIFT 32

/* ------------------------------------------------------------ parsing */

/* Describes character ch for an error message. */
static const char *show_char(char ch, char *buf, size_t n)
{
    if (ch >= 0x20 && ch < 0x7f)
        snprintf(buf, n, "'%c'", ch);
    else
        snprintf(buf, n, "byte 0x%02x", (unsigned char)ch);
    return buf;
}

/* Maps one XSB character to flags plus a player mark; -1 when unknown. */
static int xsb_flags(char ch, int *player)
{
    *player = 0;
    switch (ch) {
    case '#':
        return SOK_WALL;
    case ' ':
    case '-':
    case '_':
        return 0;
    case '@':
        *player = 1;
        return 0;
    case '+':
        *player = 1;
        return SOK_GOAL;
    case '$':
        return SOK_BOX;
    case '*':
        return SOK_BOX | SOK_GOAL;
    case '.':
        return SOK_GOAL;
    default:
        return -1;
    }
}

/* The seed problem's notation: anything unknown is floor. */
static int seed_flags(char ch, int *player)
{
    *player = ch == 'X';
    switch (ch) {
    case '#':
        return SOK_WALL;
    case '*':
        return SOK_BOX;
    case '@':
        return SOK_GOAL;
    default:
        return 0;
    }
}

static void sokoban_free(void *inst)
{
    gs_sokoban *g = inst;
    if (!g)
        return;
    free(g->cell);
    free(g);
}

/* Builds an instance from nrows rows (row i is lens[i] bytes, not
 * necessarily NUL-terminated). Missing cells of short rows are floor.
 * Validates characters, one player, at least one box, enough goals. */
static int sok_build(const char *const *rows, const size_t *lens, int nrows,
                     bool seed, const gs_caps *caps, gs_sokoban **out,
                     gs_error *err)
{
    size_t cols = 0;
    for (int r = 0; r < nrows; r++)
        if (lens[r] > cols)
            cols = lens[r];
    if (cols == 0)
        return gs_error_set(err, GS_EINVALID, "grid has no cells");
    uint64_t cells = (uint64_t)nrows * cols;
    if (cols > 0x7fffffff || cells > 0x7fffffff ||
        (caps && caps->max_cells && cells > caps->max_cells))
        return gs_error_set(err, GS_EINVALID,
                            "grid is %d x %zu = %llu cells, above the maximum "
                            "of %llu",
                            nrows, cols, (unsigned long long)cells,
                            (unsigned long long)(caps ? caps->max_cells : 0));
    gs_sokoban *g = calloc(1, sizeof *g);
    if (!g || !(g->cell = calloc((size_t)cells, 1))) {
        free(g);
        return gs_error_set(err, GS_ENOMEM, "out of memory for the grid");
    }
    g->rows = nrows;
    g->cols = (int)cols;
    g->player = -1;
    for (int r = 0; r < nrows; r++) {
        for (size_t c = 0; c < lens[r]; c++) {
            int is_player;
            char buf[16];
            int f = seed ? seed_flags(rows[r][c], &is_player)
                         : xsb_flags(rows[r][c], &is_player);
            int at = r * g->cols + (int)c;
            if (f < 0) {
                sokoban_free(g);
                return gs_error_set(
                    err, GS_EINVALID,
                    "grid row %d, column %zu: unknown cell character %s", r, c,
                    show_char(rows[r][c], buf, sizeof buf));
            }
            if (is_player && g->player >= 0) {
                int pr = g->player / g->cols, pc = g->player % g->cols;
                sokoban_free(g);
                return gs_error_set(err, GS_EINVALID,
                                    "grid row %d, column %zu: a second player "
                                    "(the first is at row %d, column %d)",
                                    r, c, pr, pc);
            }
            if (is_player)
                g->player = at;
            g->cell[at] = (uint8_t)f;
            g->nboxes += (f & SOK_BOX) != 0;
            g->ngoals += (f & SOK_GOAL) != 0;
        }
    }
    const char *pl = seed ? "'X'" : "'@' or '+'";
    const char *bx = seed ? "'*'" : "'$' or '*'";
    int rc = GS_OK;
    if (g->player < 0)
        rc = gs_error_set(err, GS_EINVALID, "grid has no player (%s)", pl);
    else if (g->nboxes == 0)
        rc = gs_error_set(err, GS_EINVALID, "grid has no box (%s)", bx);
    else if (g->ngoals < g->nboxes)
        rc = gs_error_set(err, GS_EINVALID,
                          "grid has more boxes (%d) than goals (%d)", g->nboxes,
                          g->ngoals);
    if (rc) {
        sokoban_free(g);
        return rc;
    }
    *out = g;
    return GS_OK;
}

static int sokoban_parse_json(const cJSON *body, const gs_caps *caps,
                              void **inst, gs_error *err)
{
    *inst = NULL;
    const char *notation = "xsb", *optimize = "moves";
    int rc = gs_json_string(body, "notation", false, &notation, err);
    if (!rc)
        rc = gs_json_string(body, "optimize", false, &optimize, err);
    if (rc)
        return rc;
    bool seed = strcmp(notation, "seed") == 0;
    if (!seed && strcmp(notation, "xsb") != 0)
        return gs_error_set(err, GS_EINVALID,
                            "field \"notation\" must be \"xsb\" or \"seed\", "
                            "not \"%.64s\"",
                            notation);
    sok_objective obj;
    if (strcmp(optimize, "moves") == 0)
        obj = SOK_MOVES;
    else if (strcmp(optimize, "pushes") == 0)
        obj = SOK_PUSHES;
    else if (strcmp(optimize, "any") == 0)
        obj = SOK_ANY;
    else
        return gs_error_set(err, GS_EINVALID,
                            "field \"optimize\" must be \"moves\", \"pushes\" "
                            "or \"any\", not \"%.64s\"",
                            optimize);
    const char **rows;
    int nrows;
    rc = gs_json_grid(body, "grid", &rows, &nrows, err);
    if (rc)
        return rc;
    size_t *lens = malloc(sizeof *lens * (size_t)nrows);
    if (!lens) {
        free(rows);
        return gs_error_set(err, GS_ENOMEM, "out of memory for the grid");
    }
    for (int r = 0; r < nrows; r++)
        lens[r] = strlen(rows[r]);
    gs_sokoban *g = NULL;
    rc = sok_build(rows, lens, nrows, seed, caps, &g, err);
    free(lens);
    free(rows);
    if (rc)
        return rc;
    g->objective = obj;
    *inst = g;
    return GS_OK;
}

/* Judge text: `N M` then N rows in seed notation, of which the first M
 * characters count; cases follow each other until the end of input. A
 * `0 0` header is accepted as an explicit end. */
static int sokoban_parse_text(gs_text *in, const gs_caps *caps, void **inst,
                              gs_error *err)
{
    *inst = NULL;
    long n, m;
    int rc = gs_text_int(in, &n, "row count N", err);
    if (rc <= 0)
        return rc;
    int hline = in->line;
    rc = gs_text_need_int(in, &m, "column count M", err);
    if (rc)
        return rc;
    if (n == 0 && m == 0)
        return 0;
    if (n < 1 || m < 1 || n > 0x7fffffff || m > 0x7fffffff)
        return gs_error_set(err, GS_EINVALID,
                            "line %d: grid size %ld x %ld must be positive",
                            hline, n, m);
    if (caps && caps->max_cells && (uint64_t)n * (uint64_t)m > caps->max_cells)
        return gs_error_set(err, GS_EINVALID,
                            "line %d: grid is %ld x %ld = %llu cells, above "
                            "the maximum of %llu",
                            hline, n, m,
                            (unsigned long long)((uint64_t)n * (uint64_t)m),
                            (unsigned long long)caps->max_cells);
    gs_text_skip_line(in);
    /* Each row takes at least one byte (its newline) but the last: refuse
     * before allocating for rows the input cannot hold. */
    if ((uint64_t)n > (uint64_t)(in->end - in->p) + 1)
        return gs_error_set(err, GS_EINVALID,
                            "line %d: %ld grid rows announced but the input "
                            "ends first",
                            hline, n);
    const char **rows = malloc(sizeof *rows * (size_t)n);
    size_t *lens = malloc(sizeof *lens * (size_t)n);
    if (!rows || !lens) {
        free(rows);
        free(lens);
        return gs_error_set(err, GS_ENOMEM, "out of memory for the grid");
    }
    for (long r = 0; r < n; r++) {
        if (!gs_text_line(in, &rows[r], &lens[r])) {
            free(rows);
            free(lens);
            return gs_error_set(err, GS_EINVALID,
                                "line %d: input ends after %ld of %ld grid "
                                "rows",
                                in->line, r, n);
        }
        if (lens[r] > (size_t)m)
            lens[r] = (size_t)m;
    }
    gs_sokoban *g = NULL;
    rc = sok_build(rows, lens, (int)n, true, caps, &g, err);
    free(rows);
    free(lens);
    if (rc)
        return rc;
    *inst = g;
    return 1;
}

static void sokoban_format_text(const void *inst, const gs_result *res,
                                int index, gs_buf *out)
{
    gs_judge_line(out, res, "", "-1", false);
}

/* ------------------------------------------------------------ the solver */

/* Everything one solve needs: the player's region renumbered 0..n-1 with
 * its neighbour table, distance tables, and scratch buffers. */
typedef struct sok_ctx {
    const gs_sokoban *g;
    int n;      /* cells in the player's region */
    int nboxes; /* boxes inside the region (the others never move) */
    int w;      /* bytes per cell number in a key: 1, 2 or 4 */
    size_t key_size;
    int32_t *nb;    /* n*4 neighbours, -1 = wall */
    uint8_t *goal;  /* n: 1 on a goal */
    uint8_t *dead;  /* n: 1 when no goal can be reached by pushes */
    uint32_t *near; /* n: relaxed pushes to the nearest goal */
    int ngoals;     /* goals inside the region */
    int32_t *goals;
    uint16_t *gdist; /* ngoals*n relaxed pushes per goal, or NULL */
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
    uint8_t *hused;
    struct sok_push {
        int32_t box;   /* slot in boxes[] */
        uint8_t dir;   /* push direction */
        uint32_t walk; /* steps to the cell behind the box */
    } * pushes;        /* 4*nboxes candidate pushes of one expansion */
    char *walk;        /* n: one walk's letters while rebuilding */
} sok_ctx;

static void ctx_free(sok_ctx *x)
{
    free(x->nb);
    free(x->goal);
    free(x->dead);
    free(x->near);
    free(x->goals);
    free(x->gdist);
    free(x->occ);
    free(x->mark);
    free(x->seen);
    free(x->dist);
    free(x->how);
    free(x->queue);
    free(x->boxes);
    free(x->child);
    free(x->start_boxes);
    free(x->key);
    free(x->hu);
    free(x->hv);
    free(x->hminv);
    free(x->hp);
    free(x->hway);
    free(x->hused);
    free(x->pushes);
    free(x->walk);
}

static void key_put(unsigned char *k, int w, int slot, uint32_t v)
{
    unsigned char *p = k + (size_t)slot * (size_t)w;
    for (int i = 0; i < w; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static uint32_t key_get(const unsigned char *k, int w, int slot)
{
    const unsigned char *p = k + (size_t)slot * (size_t)w;
    uint32_t v = 0;
    for (int i = 0; i < w; i++)
        v |= (uint32_t)p[i] << (8 * i);
    return v;
}

/* Key = [player][boxes in ascending order]; boxes must be sorted. */
static void key_pack(sok_ctx *x, int player, const int32_t *boxes)
{
    key_put(x->key, x->w, 0, (uint32_t)player);
    for (int i = 0; i < x->nboxes; i++)
        key_put(x->key, x->w, i + 1, (uint32_t)boxes[i]);
}

static int key_unpack(const sok_ctx *x, const unsigned char *k, int32_t *boxes)
{
    for (int i = 0; i < x->nboxes; i++)
        boxes[i] = (int32_t)key_get(k, x->w, i + 1);
    return (int)key_get(k, x->w, 0);
}

static void occ_set(sok_ctx *x, const int32_t *boxes, uint8_t v)
{
    for (int i = 0; i < x->nboxes; i++)
        x->occ[boxes[i]] = v;
}

/* Floods the free cells (no wall, no box) from `from`, filling dist/how for
 * cells with seen == gen. Returns the smallest cell number reached. */
static int flood(sok_ctx *x, int from)
{
    if (++x->gen == 0) { /* wrapped: old stamps could collide */
        memset(x->seen, 0, sizeof *x->seen * (size_t)x->n);
        x->gen = 1;
    }
    int head = 0, tail = 0, lo = from;
    x->seen[from] = x->gen;
    x->dist[from] = 0;
    x->queue[tail++] = from;
    while (head < tail) {
        int c = x->queue[head++];
        for (int d = 0; d < 4; d++) {
            int t = x->nb[c * 4 + d];
            if (t < 0 || x->occ[t] || x->seen[t] == x->gen)
                continue;
            x->seen[t] = x->gen;
            x->dist[t] = x->dist[c] + 1;
            x->how[t] = (uint8_t)d;
            x->queue[tail++] = t;
            if (t < lo)
                lo = t;
        }
    }
    return lo;
}

/* Relaxed pull BFS from the goals (all of them when goal < 0, else one):
 * a box reaches y from y+d when y and y-d are floor. Fills out[] (SOK_INF
 * for cells that no push sequence brings to those goals). */
static void pull_bfs(sok_ctx *x, int goal, uint32_t *out)
{
    int head = 0, tail = 0;
    for (int i = 0; i < x->n; i++)
        out[i] = SOK_INF;
    for (int i = 0; i < x->ngoals; i++) {
        if (goal >= 0 && i != goal)
            continue;
        out[x->goals[i]] = 0;
        x->queue[tail++] = x->goals[i];
    }
    while (head < tail) {
        int z = x->queue[head++];
        for (int d = 0; d < 4; d++) {
            int y = x->nb[z * 4 + (d ^ 1)];
            if (y < 0 || x->nb[y * 4 + (d ^ 1)] < 0 || out[y] != SOK_INF)
                continue;
            out[y] = out[z] + 1;
            x->queue[tail++] = y;
        }
    }
}

/* Sets up the per-goal distance tables and the matching scratch when the
 * level is small enough; otherwise the bound is the sum of nearest-goal
 * distances. One pull BFS per goal can take long on a big level, so past
 * the deadline it stops and keeps the sum (the search then answers limit
 * at its first tick). Returns false only when an allocation failed. */
static bool sok_init_matching(sok_ctx *x, const gs_limits *lim)
{
    size_t un = (size_t)x->n, ng = (size_t)x->ngoals;
    if (x->nboxes == 0 || x->nboxes > SOK_MATCH_MAX_BOXES ||
        x->ngoals < x->nboxes || x->n >= (int)SOK_GDIST_INF ||
        ng * un > SOK_GDIST_MAX_ENTRIES)
        return true;
    x->gdist = malloc(sizeof *x->gdist * ng * un);
    x->hu = malloc(sizeof *x->hu * ((size_t)x->nboxes + 1));
    x->hv = malloc(sizeof *x->hv * (ng + 1));
    x->hminv = malloc(sizeof *x->hminv * (ng + 1));
    x->hp = malloc(sizeof *x->hp * (ng + 1));
    x->hway = malloc(sizeof *x->hway * (ng + 1));
    x->hused = malloc(ng + 1);
    if (!x->gdist || !x->hu || !x->hv || !x->hminv || !x->hp || !x->hway ||
        !x->hused)
        return false;
    for (int gi = 0; gi < x->ngoals; gi++) {
        if (gs_limits_expired(lim)) {
            free(x->gdist);
            x->gdist = NULL;
            return true;
        }
        pull_bfs(x, gi, x->dist); /* dist is free scratch here */
        uint16_t *row = x->gdist + (size_t)gi * un;
        for (int i = 0; i < x->n; i++)
            row[i] =
                x->dist[i] == SOK_INF ? SOK_GDIST_INF : (uint16_t)x->dist[i];
    }
    return true;
}

/* The cheap case of match_cost: when each box's nearest goal (first in
 * goal order on ties) is a different goal, the sum of those distances is
 * the minimum (no assignment beats every box's own minimum). Returns
 * false when two boxes share their nearest goal. */
static bool nearest_distinct(sok_ctx *x, const int32_t *boxes, uint32_t *cost)
{
    size_t un = (size_t)x->n;
    uint32_t sum = 0;
    memset(x->hused, 0, (size_t)x->ngoals);
    for (int i = 0; i < x->nboxes; i++) {
        int best = -1;
        uint16_t bd = SOK_GDIST_INF;
        for (int j = 0; j < x->ngoals; j++) {
            uint16_t d = x->gdist[(size_t)j * un + boxes[i]];
            if (d < bd) {
                bd = d;
                best = j;
            }
        }
        if (best < 0 || x->hused[best])
            return false; /* unreachable boxes: let the matching decide */
        x->hused[best] = 1;
        sum += bd;
    }
    *cost = sum;
    return true;
}

/* Minimum-cost assignment of boxes to distinct goals (Hungarian method
 * with potentials, O(boxes^2 * goals)). Returns SOK_INF when every
 * assignment needs a goal some box cannot reach. */
static uint32_t match_cost(sok_ctx *x, const int32_t *boxes)
{
    uint32_t quick;
    if (nearest_distinct(x, boxes, &quick))
        return quick;
    const int64_t big = (int64_t)1 << 40, unreachable = (int64_t)1 << 30;
    int nb = x->nboxes, ng = x->ngoals;
    size_t un = (size_t)x->n;
    int64_t *u = x->hu, *v = x->hv, *minv = x->hminv;
    int *p = x->hp, *way = x->hway;
    for (int j = 0; j <= ng; j++) {
        v[j] = 0;
        p[j] = 0;
    }
    for (int i = 0; i <= nb; i++)
        u[i] = 0;
    for (int i = 1; i <= nb; i++) {
        p[0] = i;
        int j0 = 0;
        for (int j = 0; j <= ng; j++) {
            minv[j] = big;
            x->hused[j] = 0;
        }
        do {
            x->hused[j0] = 1;
            int i0 = p[j0], j1 = 0;
            int64_t delta = big;
            for (int j = 1; j <= ng; j++) {
                if (x->hused[j])
                    continue;
                uint16_t d = x->gdist[(size_t)(j - 1) * un + boxes[i0 - 1]];
                int64_t a = d == SOK_GDIST_INF ? unreachable : d;
                int64_t cur = a - u[i0] - v[j];
                if (cur < minv[j]) {
                    minv[j] = cur;
                    way[j] = j0;
                }
                if (minv[j] < delta) {
                    delta = minv[j];
                    j1 = j;
                }
            }
            for (int j = 0; j <= ng; j++) {
                if (x->hused[j]) {
                    u[p[j]] += delta;
                    v[j] -= delta;
                } else {
                    minv[j] -= delta;
                }
            }
            j0 = j1;
        } while (p[j0] != 0);
        do {
            int j1 = way[j0];
            p[j0] = p[j1];
            j0 = j1;
        } while (j0);
    }
    int64_t cost = -v[0];
    return cost >= unreachable ? SOK_INF : (uint32_t)cost;
}

/* A lower bound on the pushes still needed (each push moves one box one
 * cell, changing its distance to any goal by at most one); SOK_INF when the
 * boxes cannot all reach distinct goals. */
static uint32_t lower_bound(sok_ctx *x, const int32_t *boxes)
{
    if (x->gdist)
        return match_cost(x, boxes);
    uint64_t sum = 0;
    for (int i = 0; i < x->nboxes; i++) {
        if (x->near[boxes[i]] == SOK_INF)
            return SOK_INF;
        sum += x->near[boxes[i]];
    }
    return sum >= SOK_INF ? SOK_INF - 1 : (uint32_t)sum;
}

/* Renumbers the player's region, finds the boxes and builds the tables
 * (within lim's deadline where they are costly). Returns GS_OK or
 * GS_ENOMEM. */
static int ctx_init(sok_ctx *x, const gs_sokoban *g, const gs_limits *lim,
                    gs_error *err)
{
    memset(x, 0, sizeof *x);
    x->g = g;
    size_t cells = (size_t)g->rows * (size_t)g->cols;
    int32_t *num = malloc(sizeof *num * cells);
    int32_t *stack = malloc(sizeof *stack * cells);
    if (!num || !stack) {
        free(num);
        free(stack);
        return gs_error_set(err, GS_ENOMEM, "out of memory for the level");
    }
    /* Flood the non-wall cells from the player (boxes count as floor: the
     * player may move them), then number the region in row-major order. */
    for (size_t i = 0; i < cells; i++)
        num[i] = -1;
    size_t top = 0;
    num[g->player] = 0;
    stack[top++] = g->player;
    while (top > 0) {
        int c = stack[--top], r = c / g->cols, col = c % g->cols;
        for (int d = 0; d < 4; d++) {
            int rr = r + DR[d], cc = col + DC[d];
            if (rr < 0 || rr >= g->rows || cc < 0 || cc >= g->cols)
                continue;
            int t = rr * g->cols + cc;
            if (num[t] >= 0 || (g->cell[t] & SOK_WALL))
                continue;
            num[t] = 0;
            stack[top++] = t;
        }
    }
    int n = 0;
    for (size_t i = 0; i < cells; i++) {
        if (num[i] >= 0)
            num[i] = n++;
        else if ((g->cell[i] & SOK_BOX) && !(g->cell[i] & SOK_GOAL))
            x->start_dead = true; /* walled in off goal: never moves */
    }
    x->n = n;
    for (size_t i = 0; i < cells; i++) {
        if (num[i] < 0)
            continue;
        x->nboxes += (g->cell[i] & SOK_BOX) != 0;
        x->ngoals += (g->cell[i] & SOK_GOAL) != 0;
    }
    if (x->ngoals < x->nboxes)
        x->start_dead = true; /* the other goals are out of reach */
    size_t un = (size_t)n, nbx = (size_t)x->nboxes + 1;
    x->w = n <= 0xff ? 1 : n <= 0xffff ? 2 : 4;
    x->key_size = (size_t)x->w * nbx;
    x->nb = malloc(sizeof *x->nb * un * 4);
    x->goal = calloc(un, 1);
    x->dead = calloc(un, 1);
    x->near = malloc(sizeof *x->near * un);
    x->goals = malloc(sizeof *x->goals * ((size_t)x->ngoals + 1));
    x->occ = calloc(un, 1);
    x->mark = calloc(un, 1);
    x->seen = calloc(un, sizeof *x->seen);
    x->dist = malloc(sizeof *x->dist * un);
    x->how = malloc(un);
    x->queue = malloc(sizeof *x->queue * un);
    x->boxes = malloc(sizeof *x->boxes * nbx);
    x->child = malloc(sizeof *x->child * nbx);
    x->start_boxes = malloc(sizeof *x->start_boxes * nbx);
    x->key = malloc(x->key_size);
    x->pushes = malloc(sizeof *x->pushes * 4 * nbx);
    x->walk = malloc(un);
    bool ok = x->nb && x->goal && x->dead && x->near && x->goals && x->occ &&
              x->mark && x->seen && x->dist && x->how && x->queue && x->boxes &&
              x->child && x->start_boxes && x->key && x->pushes && x->walk;
    if (ok) {
        int gi = 0, bi = 0;
        for (size_t i = 0; i < cells; i++) {
            int c = num[i];
            if (c < 0)
                continue;
            int r = (int)(i / (size_t)g->cols),
                col = (int)(i % (size_t)g->cols);
            for (int d = 0; d < 4; d++) {
                int rr = r + DR[d], cc = col + DC[d];
                bool in = rr >= 0 && rr < g->rows && cc >= 0 && cc < g->cols;
                x->nb[c * 4 + d] = in ? num[rr * g->cols + cc] : -1;
            }
            if (g->cell[i] & SOK_GOAL) {
                x->goal[c] = 1;
                x->goals[gi++] = c;
            }
            if (g->cell[i] & SOK_BOX)
                x->start_boxes[bi++] = c; /* row-major: already sorted */
        }
        x->start_player = num[g->player];
        pull_bfs(x, -1, x->near);
        for (int i = 0; i < n; i++)
            x->dead[i] = x->near[i] == SOK_INF;
        ok = sok_init_matching(x, lim);
    }
    free(num);
    free(stack);
    if (!ok)
        return gs_error_set(err, GS_ENOMEM, "out of memory for the level");
    return GS_OK;
}

/* ------------------------------------------------------------ deadlocks */

static int frozen(sok_ctx *x, int b, int *budget);

/* Whether box b cannot move along one axis (d = 0 vertical, 2 horizontal):
 * a wall on either side, dead squares on both, or a frozen box beside it.
 * Returns 0 (may move), 1 (blocked, all boxes of the proof on goals) or 2
 * (blocked, some box of the proof off goal). */
static int axis_blocked(sok_ctx *x, int b, int d, int *budget)
{
    int a = x->nb[b * 4 + d], c = x->nb[b * 4 + d + 1];
    if (a < 0 || c < 0 || (x->dead[a] && x->dead[c]))
        return 1;
    int r;
    /* A box whose test is in progress counts as a wall: the proof is a set
     * of boxes each blocked by walls or other members, so none moves
     * first. */
    if (x->occ[a] && (r = x->mark[a] ? 1 : frozen(x, a, budget)) > 0)
        return r;
    if (x->occ[c] && (r = x->mark[c] ? 1 : frozen(x, c, budget)) > 0)
        return r;
    return 0;
}

/* Whether box b can never move again; same returns as axis_blocked. Past
 * the budget it answers 0 (losing a prune, never a solution). */
static int frozen(sok_ctx *x, int b, int *budget)
{
    if (--*budget < 0)
        return 0;
    x->mark[b] = 1;
    int v = axis_blocked(x, b, 0, budget);
    int h = v ? axis_blocked(x, b, 2, budget) : 0;
    x->mark[b] = 0;
    if (!v || !h)
        return 0;
    return v == 2 || h == 2 || !x->goal[b] ? 2 : 1;
}

/* Whether the box just pushed onto `to` froze itself or a neighbour with
 * a box off goal (x->occ holds the new position). */
static bool freeze_deadlock(sok_ctx *x, int to)
{
    int budget = SOK_FREEZE_BUDGET;
    if (frozen(x, to, &budget) == 2)
        return true;
    for (int d = 0; d < 4; d++) {
        int t = x->nb[to * 4 + d];
        if (t >= 0 && x->occ[t] && !x->goal[t]) {
            budget = SOK_FREEZE_BUDGET;
            if (frozen(x, t, &budget) == 2)
                return true;
        }
    }
    return false;
}

/* ------------------------------------------------------------ search */

/* Writes boxes with slot i moved to `to` into x->child, kept sorted. */
static void move_box(sok_ctx *x, int i, int to)
{
    int32_t *c = x->child;
    memcpy(c, x->boxes, sizeof *c * (size_t)x->nboxes);
    c[i] = to;
    while (i > 0 && c[i - 1] > c[i]) {
        int32_t t = c[i - 1];
        c[i - 1] = c[i];
        c[i] = t;
        i--;
    }
    while (i + 1 < x->nboxes && c[i + 1] < c[i]) {
        int32_t t = c[i + 1];
        c[i + 1] = c[i];
        c[i] = t;
        i++;
    }
}

static bool all_on_goals(const sok_ctx *x, const int32_t *boxes)
{
    for (int i = 0; i < x->nboxes; i++)
        if (!x->goal[boxes[i]])
            return false;
    return true;
}

/* The queue priority of a state with path cost `cost` and bound h. Ties
 * on f go to the smaller h (deeper states) where bits allow it. */
static uint64_t priority(sok_objective obj, uint64_t cost, uint32_t h)
{
    switch (obj) {
    case SOK_MOVES:
        return (cost + h) << 16 | (h < 0xffff ? h : 0xffff);
    case SOK_PUSHES:
        return cost + ((uint64_t)h << SOK_PUSH_SHIFT) + h;
    default: /* greedy: the bound first, fewer pushes on ties */
        return (uint64_t)h << 32 | (cost < 0xffffffffu ? cost : 0xffffffffu);
    }
}

/* The cost of one push after a walk of `walk` steps. */
static uint64_t push_cost(sok_objective obj, uint32_t walk)
{
    switch (obj) {
    case SOK_MOVES:
        return (uint64_t)walk + 1;
    case SOK_PUSHES:
        return ((uint64_t)1 << SOK_PUSH_SHIFT) + walk + 1;
    default:
        return 1;
    }
}

/* Lists the pushes the player at `player` can walk to (x->occ holds the
 * boxes): the cell behind the box reachable, the cell ahead free and live.
 * Returns how many. */
static int list_pushes(sok_ctx *x, int player)
{
    flood(x, player);
    int k = 0;
    for (int i = 0; i < x->nboxes; i++) {
        int b = x->boxes[i];
        for (int d = 0; d < 4; d++) {
            int from = x->nb[b * 4 + (d ^ 1)], to = x->nb[b * 4 + d];
            if (from < 0 || to < 0 || x->seen[from] != x->gen || x->occ[to] ||
                x->dead[to])
                continue;
            x->pushes[k].box = i;
            x->pushes[k].dir = (uint8_t)d;
            x->pushes[k].walk = x->dist[from];
            k++;
        }
    }
    return k;
}

/* Expands state `id` (player, x->boxes, path cost g): queues every push
 * that leads to a state not known to be dead. Returns GS_OK or the
 * search core's error. */
static int expand(sok_ctx *x, gs_search *s, uint64_t id, int player, uint64_t g)
{
    sok_objective obj = x->g->objective;
    occ_set(x, x->boxes, 1);
    int k = list_pushes(x, player), rc = GS_OK;
    for (int j = 0; j < k && rc >= 0; j++) {
        int i = x->pushes[j].box, d = x->pushes[j].dir;
        int b = x->boxes[i], to = x->nb[b * 4 + d];
        x->occ[b] = 0;
        x->occ[to] = 1;
        uint32_t h = SOK_INF;
        if (!freeze_deadlock(x, to)) {
            move_box(x, i, to);
            h = lower_bound(x, x->child);
        }
        if (h != SOK_INF) {
            /* After a push the player stands where the box was; `any`
             * keeps only the region, named by its smallest cell. */
            int p = obj == SOK_ANY ? flood(x, b) : b;
            uint64_t cost = g + push_cost(obj, x->pushes[j].walk);
            key_pack(x, p, x->child);
            rc = gs_search_add_prio(s, x->key, id, (unsigned char)d, cost,
                                    priority(obj, cost, h), NULL);
        }
        x->occ[to] = 0;
        x->occ[b] = 1;
    }
    occ_set(x, x->boxes, 0);
    return rc < 0 ? rc : GS_OK;
}

/* Runs the search. Returns 1 with *goal set when solved, 0 when the space
 * is exhausted, or the search core's GS_ELIMIT / GS_ENOMEM. */
static int search(sok_ctx *x, gs_search *s, uint64_t *goal)
{
    sok_objective obj = x->g->objective;
    uint32_t h = x->start_dead ? SOK_INF : lower_bound(x, x->start_boxes);
    if (h != SOK_INF) {
        int p = x->start_player;
        if (obj == SOK_ANY) {
            occ_set(x, x->start_boxes, 1);
            p = flood(x, p);
            occ_set(x, x->start_boxes, 0);
        }
        key_pack(x, p, x->start_boxes);
        int rc = gs_search_add_prio(s, x->key, GS_NO_PARENT, 0, 0,
                                    priority(obj, 0, h), NULL);
        if (rc < 0)
            return rc;
    }
    for (;;) {
        uint64_t id;
        int rc = gs_search_pop(s, &id);
        if (rc <= 0)
            return rc;
        int player = key_unpack(x, gs_search_key(s, id), x->boxes);
        if (all_on_goals(x, x->boxes)) {
            *goal = id;
            return 1;
        }
        rc = expand(x, s, id, player, gs_search_cost(s, id));
        if (rc < 0)
            return rc;
    }
}

static int cmp_cell(const void *a, const void *b)
{
    int32_t u = *(const int32_t *)a, v = *(const int32_t *)b;
    return (u > v) - (u < v);
}

/* Appends the shortest walk from `from` to `to` in lowercase (x->occ holds
 * the boxes). Returns false when `to` is unreachable (a bug). */
static bool append_walk(sok_ctx *x, int from, int to, gs_buf *out)
{
    flood(x, from);
    if (x->seen[to] != x->gen)
        return false;
    uint32_t len = x->dist[to];
    for (uint32_t i = len; i > 0; i--) {
        int d = x->how[to];
        x->walk[i - 1] = STEP[d];
        to = x->nb[to * 4 + (d ^ 1)];
    }
    gs_buf_append(out, x->walk, len);
    return true;
}

/* Rebuilds the full LURD answer for goal state `goal`: each push state
 * records only its push direction, so the walks between pushes are
 * recomputed by the same shortest flood the search costed them with. */
static int rebuild(sok_ctx *x, gs_search *s, uint64_t goal, gs_result *res,
                   gs_error *err)
{
    size_t k = 0;
    unsigned char d;
    for (uint64_t id = goal; gs_search_parent(s, id, &d) != GS_NO_PARENT;
         id = gs_search_parent(s, id, &d))
        k++;
    uint64_t *chain = malloc(sizeof *chain * (k + 1));
    if (!chain)
        return gs_error_set(err, GS_ENOMEM, "out of memory for the answer");
    uint64_t id = goal;
    for (size_t i = k + 1; i > 0; i--) {
        chain[i - 1] = id;
        id = gs_search_parent(s, id, &d);
    }
    gs_buf out = GS_BUF_INIT;
    int player = x->start_player, rc = GS_OK;
    if (x->nboxes > 0)
        memcpy(x->boxes, x->start_boxes, sizeof *x->boxes * (size_t)x->nboxes);
    for (size_t t = 1; t <= k && rc == GS_OK; t++) {
        gs_search_parent(s, chain[t], &d);
        key_unpack(x, gs_search_key(s, chain[t]), x->child);
        /* The pushed box: the one cell in the old set but not the new. */
        int old = -1;
        for (int i = 0; i < x->nboxes && old < 0; i++)
            if (!bsearch(&x->boxes[i], x->child, (size_t)x->nboxes,
                         sizeof *x->child, cmp_cell))
                old = x->boxes[i];
        int from = old >= 0 ? x->nb[old * 4 + (d ^ 1)] : -1;
        occ_set(x, x->boxes, 1);
        bool ok = from >= 0 && append_walk(x, player, from, &out);
        occ_set(x, x->boxes, 0);
        if (!ok) {
            rc = gs_error_set(err, GS_EINTERNAL,
                              "sokoban: push %zu of the answer is not "
                              "reachable",
                              t);
            break;
        }
        gs_buf_append(&out, &PUSH[d], 1);
        player = old;
        memcpy(x->boxes, x->child, sizeof *x->boxes * (size_t)x->nboxes);
    }
    free(chain);
    if (rc == GS_OK && gs_buf_status(&out))
        rc = gs_error_set(err, GS_ENOMEM, "out of memory for the answer");
    if (rc) {
        gs_buf_free(&out);
        return rc;
    }
    res->moves = gs_buf_take(&out, &res->steps);
    res->pushes = (long)k;
    res->status = GS_SOLVED;
    return GS_OK;
}

static int sokoban_solve(void *inst, const gs_limits *lim, gs_result *res,
                         gs_error *err)
{
    const gs_sokoban *g = inst;
    res->pushes = -1;
    sok_ctx x;
    int rc = ctx_init(&x, g, lim, err);
    if (rc) {
        ctx_free(&x);
        return rc;
    }
    gs_search_config cfg = {
        .key_size = x.key_size,
        .queue = GS_QUEUE_PRIORITY,
        .limits = lim,
    };
    gs_search *s = NULL;
    rc = gs_search_new(&cfg, &s);
    if (rc) {
        ctx_free(&x);
        return gs_error_set(err, rc, "sokoban: cannot start the search");
    }
    uint64_t goal = 0;
    rc = search(&x, s, &goal);
    if (rc == 1) {
        rc = rebuild(&x, s, goal, res, err);
        /* Both exact objectives expand a goal first at its optimal cost;
         * greedy answers are only known optimal when empty. */
        res->optimal =
            rc == GS_OK && (g->objective != SOK_ANY || res->steps == 0);
        res->expanded = gs_search_expanded(s);
    } else {
        rc = gs_search_finish(s, rc, false, 0, NULL, false, res);
        if (rc)
            gs_error_set(err, rc, "sokoban: out of memory in the search");
    }
    gs_search_free(s);
    ctx_free(&x);
    return rc;
}

const gs_puzzle gs_puzzle_sokoban = {
    .name = "sokoban",
    .summary = "push every box onto a goal (XSB levels, LURD moves)",
    .options = "{\"optimize\": \"moves (default): fewest steps | pushes: "
               "fewest pushes, then fewest steps | any: a solution fast, "
               "not necessarily shortest\", \"notation\": \"xsb (default) | "
               "seed: X player, * box, @ goal, # wall\"}",
    .example = "{\"grid\": [\"#######\", \"#@ $ .#\", \"#######\"], "
               "\"optimize\": \"moves\"}",
    .reports_pushes = true,
    .fields = (const char *const[]){"grid", "optimize", "notation", NULL},
    .text_format =
        "'N M', then N rows in seed notation (X player, * box, @ goal, # "
        "wall), repeated to the end; prints the steps or '-1'",
    .parse_json = sokoban_parse_json,
    .parse_text = sokoban_parse_text,
    .format_text = sokoban_format_text,
    .solve = sokoban_solve,
    .free = sokoban_free,
};
