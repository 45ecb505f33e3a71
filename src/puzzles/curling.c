/* curling.c - slide a stone to the goal (POJ 3009 "Curling 2.0").
 *
 * A state is the stone's cell plus the set of blocks that vanished. Every
 * throw that does not reach the goal stops against a block and removes it,
 * so a state's throw count equals the size of its removed set: the same
 * state can never be reached at two depths, and a FIFO BFS over the hashed
 * search core (one fixed-width key per state: cell, depth, then the removed
 * set as a bitset over the blocks or as a sorted padded list of block
 * indices, whichever is shorter) is exact: the first throw found to reach
 * the goal gives the minimum.
 *
 * How the search copes with many throws (e.g. 30 on a 20x20 board): the
 * removed-set dimension makes the space grow roughly geometrically with
 * depth, so two things bound it. First, a lower bound prunes every state
 * that cannot finish within max_throws. Before the search, one backward
 * BFS over cells (each cell and direction swept once, so linear in the
 * board) computes the throws the stone would need from each cell in a
 * relaxed game where it slides through blocks freely and may stop in front
 * of any cell that held a block at the start; every real throw is a
 * relaxed throw, so this never overestimates. A state at depth d on a cell
 * with bound h is stored only when d + h <= max_throws: the last throw
 * must start in the goal's row or column, so the deepest layers, the
 * largest ones, shrink to the few cells that can still finish. Second,
 * the request's limits (state cap and deadline, checked by the core on
 * every add and pop) turn a search that is still too large into a `limit`
 * result instead of exhausting memory or time; retrying with larger limits
 * may succeed. Measured by bench/bench_curling.c with max_throws 30: the
 * judge's 20x20 boards and most random ones finish in under 1 ms; the
 * deepest answers in a sweep of 1800 random 20x20 boards (15 and 17
 * throws) take 40-240 ms and 48K-187K states; a board with no answer
 * within 30 throws is proven impossible after 4.1M states in 3-5 s and
 * about 110 MB (16.9M states without the bound), inside the service's
 * default limits (20M states, 10 s).
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/json.h"
#include "gridsolve/mem.h"
#include "gridsolve/puzzle.h"

#define CURL_DEFAULT_THROWS 10 /* the judge's rule */
#define CURL_MAX_THROWS 64     /* ceiling for "max_throws" */
#define CURL_NO_BLOCK UINT32_MAX
#define CURL_FAR 0xFF /* lower bound: not finishable within the budget */

enum { VACANT = 0, BLOCK = 1, START = 2, GOAL = 3 };

typedef struct gs_curling {
    long w, h;       /* columns, rows */
    uint8_t *cells;  /* w*h values 0..3 */
    uint32_t *block; /* cell -> block index, CURL_NO_BLOCK for others */
    uint32_t nblocks;
    uint32_t start, goal;
    int max_throws;
    int nstart, ngoal; /* seen while reading */
} gs_curling;

static const char curl_moves[4] = {'U', 'D', 'L', 'R'};
static const int curl_dr[4] = {-1, 1, 0, 0};
static const int curl_dc[4] = {0, 0, -1, 1};

static void curl_free(void *p)
{
    gs_curling *cu = p;
    if (cu == NULL)
        return;
    gs_mem_free(cu->cells);
    gs_mem_free(cu->block);
    free(cu);
}

/* Allocates an empty h x w board after checking the size against caps. */
static int curl_new(long w, long h, const gs_caps *caps, gs_curling **out,
                    gs_error *err)
{
    *out = NULL;
    if (w < 1 || h < 1)
        return gs_error_set(err, GS_EINVALID,
                            "board size %ld wide x %ld high is invalid, both "
                            "must be at least 1",
                            w, h);
    /* Cells are numbered in 32 bits; each side is checked first so the
     * product cannot overflow. */
    uint64_t n = (uint64_t)w >= UINT32_MAX || (uint64_t)h >= UINT32_MAX
                     ? UINT64_MAX
                     : (uint64_t)w * (uint64_t)h;
    if (caps != NULL && caps->max_cells > 0 && n > caps->max_cells)
        return gs_error_set(err, GS_EINVALID,
                            "board %ld wide x %ld high is above the maximum "
                            "of %llu cells",
                            w, h, (unsigned long long)caps->max_cells);
    if (n >= UINT32_MAX)
        return gs_error_set(err, GS_EINVALID,
                            "board %ld wide x %ld high is above the %u cells "
                            "the curling solver supports",
                            w, h, UINT32_MAX - 1);
    gs_curling *cu = calloc(1, sizeof *cu);
    if (cu == NULL)
        return gs_error_set(err, GS_ENOMEM, "out of memory for curling");
    /* The board draws from the memory budget (mem.h): a refusal is an
     * allocation failure the service answers with 503. */
    cu->cells = gs_mem_malloc((size_t)n);
    cu->block = gs_mem_malloc((size_t)n * sizeof *cu->block);
    if (cu->cells == NULL || cu->block == NULL) {
        curl_free(cu);
        return gs_error_set(err, GS_ENOMEM,
                            "out of memory for a %ldx%ld curling board", w, h);
    }
    cu->w = w;
    cu->h = h;
    cu->max_throws = CURL_DEFAULT_THROWS;
    *out = cu;
    return GS_OK;
}

/* Stores value v at (r, c), numbering blocks and recording the start and
 * goal. Rejects values outside 0..3 and a second start or goal. */
static int curl_set(gs_curling *cu, long r, long c, long v, gs_error *err)
{
    if (v < VACANT || v > GOAL)
        return gs_error_set(err, GS_EINVALID,
                            "board row %ld column %ld has value %ld, expected "
                            "0 (vacant), 1 (block), 2 (start) or 3 (goal)",
                            r, c, v);
    uint32_t at = (uint32_t)(r * cu->w + c);
    cu->cells[at] = (uint8_t)v;
    cu->block[at] = v == BLOCK ? cu->nblocks++ : CURL_NO_BLOCK;
    if (v == START) {
        if (cu->nstart++)
            return gs_error_set(err, GS_EINVALID,
                                "board has two starts (value 2): row %ld "
                                "column %ld and row %ld column %ld",
                                (long)(cu->start / (uint32_t)cu->w),
                                (long)(cu->start % (uint32_t)cu->w), r, c);
        cu->start = at;
    } else if (v == GOAL) {
        if (cu->ngoal++)
            return gs_error_set(err, GS_EINVALID,
                                "board has two goals (value 3): row %ld "
                                "column %ld and row %ld column %ld",
                                (long)(cu->goal / (uint32_t)cu->w),
                                (long)(cu->goal % (uint32_t)cu->w), r, c);
        cu->goal = at;
    }
    return GS_OK;
}

/* Checks that the board has its start and goal once every cell is in. */
static int curl_finish(const gs_curling *cu, gs_error *err)
{
    if (cu->nstart == 0)
        return gs_error_set(err, GS_EINVALID, "board has no start (value 2)");
    if (cu->ngoal == 0)
        return gs_error_set(err, GS_EINVALID, "board has no goal (value 3)");
    return GS_OK;
}

/* Reads JSON row r (an array of w integers) into the board. */
static int curl_json_row(gs_curling *cu, const cJSON *row, long r,
                         gs_error *err)
{
    if (!cJSON_IsArray(row))
        return gs_error_set(err, GS_EBADREQ,
                            "board row %ld must be an array of integers", r);
    int n = cJSON_GetArraySize(row);
    if (n != cu->w)
        return gs_error_set(err, GS_EINVALID,
                            "board row %ld has %d cells, expected %ld", r, n,
                            cu->w);
    const cJSON *it;
    long c = 0;
    cJSON_ArrayForEach(it, row)
    {
        double d = it->valuedouble;
        if (!cJSON_IsNumber(it) || d != floor(d))
            return gs_error_set(err, GS_EBADREQ,
                                "board row %ld column %ld must be an integer",
                                r, c);
        /* Clamp before converting so a huge value is a 422, not UB. */
        long v = d < -1 ? -1 : d > 4 ? 4 : (long)d;
        if (v < VACANT || v > GOAL)
            return gs_error_set(err, GS_EINVALID,
                                "board row %ld column %ld has value %g, "
                                "expected 0 (vacant), 1 (block), 2 (start) or "
                                "3 (goal)",
                                r, c, d);
        int rc = curl_set(cu, r, c, v, err);
        if (rc)
            return rc;
        c++;
    }
    return GS_OK;
}

static int curl_parse_json(const cJSON *body, const gs_caps *caps, void **inst,
                           gs_error *err)
{
    *inst = NULL;
    const cJSON *board;
    long throws = CURL_DEFAULT_THROWS;
    int rc = gs_json_array(body, "board", true, &board, err);
    if (rc)
        return rc;
    rc = gs_json_int(body, "max_throws", false, 1, CURL_MAX_THROWS, &throws,
                     err);
    if (rc)
        return rc;
    int h = cJSON_GetArraySize(board);
    if (h == 0)
        return gs_error_set(err, GS_EINVALID, "field \"board\" is empty");
    const cJSON *first = cJSON_GetArrayItem(board, 0);
    if (!cJSON_IsArray(first))
        return gs_error_set(err, GS_EBADREQ,
                            "board row 0 must be an array of integers");
    int w = cJSON_GetArraySize(first);
    if (w == 0)
        return gs_error_set(err, GS_EINVALID, "board row 0 is empty");
    gs_curling *cu = NULL;
    rc = curl_new(w, h, caps, &cu, err);
    if (rc)
        return rc;
    cu->max_throws = (int)throws;
    const cJSON *row;
    long r = 0;
    cJSON_ArrayForEach(row, board)
    {
        rc = curl_json_row(cu, row, r++, err);
        if (rc)
            break;
    }
    if (rc == GS_OK)
        rc = curl_finish(cu, err);
    if (rc) {
        curl_free(cu);
        return rc;
    }
    *inst = cu;
    return GS_OK;
}

static int curl_parse_text(gs_text *in, const gs_caps *caps, void **inst,
                           gs_error *err)
{
    *inst = NULL;
    long w, h;
    int rc = gs_text_int(in, &w, "board width W", err);
    if (rc <= 0)
        return rc; /* 0: end of input */
    rc = gs_text_need_int(in, &h, "board height H", err);
    if (rc < 0)
        return rc;
    if (w == 0 && h == 0)
        return 0;
    int header_line = in->line;
    gs_curling *cu = NULL;
    rc = curl_new(w, h, caps, &cu, err);
    if (rc) {
        gs_error_prefix(err, "line %d: ", header_line);
        return rc;
    }
    for (long r = 0; r < h; r++) {
        for (long c = 0; c < w; c++) {
            long v;
            rc = gs_text_need_int(in, &v, "a board value 0..3", err);
            if (rc == GS_OK) {
                rc = curl_set(cu, r, c, v, err);
                if (rc)
                    gs_error_prefix(err, "line %d: ", in->line);
            }
            if (rc) {
                curl_free(cu);
                return rc;
            }
        }
    }
    rc = curl_finish(cu, err);
    if (rc) {
        gs_error_prefix(err, "line %d: ", header_line);
        curl_free(cu);
        return rc;
    }
    *inst = cu;
    return 1;
}

static void curl_format_text(const void *inst, const gs_result *res, int index,
                             gs_buf *out)
{
    gs_judge_line(out, res, "", "-1", false);
}

/* ------------------------------------------------------------------ solve */

/* Key layout: [cell u32][depth u8][removed set]. The set is a bitset over
 * block indices or a sorted list of `list_len` indices of `idx_w` bytes
 * padded with 0xFF bytes, whichever is shorter for this board. */
#define KEY_HEAD 5

typedef struct curl_ctx {
    const gs_curling *cu;
    uint8_t *lb;       /* per cell: lower bound on throws left, CURL_FAR */
    bool list;         /* list encoding (else bitset) */
    unsigned idx_w;    /* list: bytes per block index (2 or 4) */
    uint32_t list_len; /* list: entries */
    size_t key_size;
    unsigned char *cur; /* the state being expanded */
    unsigned char *kid; /* a child being built */
    uint8_t *mark;      /* list: removed flags of cur, one per block */
} curl_ctx;

static uint32_t key_cell(const unsigned char *k)
{
    uint32_t v;
    memcpy(&v, k, 4);
    return v;
}

static uint32_t list_get(const curl_ctx *x, const unsigned char *k, uint32_t i)
{
    const unsigned char *p = k + KEY_HEAD + (size_t)i * x->idx_w;
    if (x->idx_w == 2) {
        uint16_t v;
        memcpy(&v, p, 2);
        return v == UINT16_MAX ? CURL_NO_BLOCK : v;
    }
    uint32_t v;
    memcpy(&v, p, 4);
    return v;
}

static void list_put(const curl_ctx *x, unsigned char *k, uint32_t i,
                     uint32_t b)
{
    unsigned char *p = k + KEY_HEAD + (size_t)i * x->idx_w;
    if (x->idx_w == 2) {
        uint16_t v = (uint16_t)b;
        memcpy(p, &v, 2);
    } else {
        memcpy(p, &b, 4);
    }
}

/* Is block b removed in the state being expanded? */
static bool removed(const curl_ctx *x, uint32_t b)
{
    if (x->list)
        return x->mark[b] != 0;
    return (x->cur[KEY_HEAD + b / 8] >> (b % 8)) & 1;
}

/* Builds in x->kid the child of x->cur: stone on `cell`, block b removed.
 * The depth byte grows by one; the list stays sorted. */
static void make_child(curl_ctx *x, uint32_t cell, uint32_t b)
{
    unsigned char *k = x->kid;
    memcpy(k, x->cur, x->key_size);
    memcpy(k, &cell, 4);
    uint8_t d = x->cur[4];
    k[4] = (uint8_t)(d + 1);
    if (!x->list) {
        k[KEY_HEAD + b / 8] |= (unsigned char)(1u << (b % 8));
        return;
    }
    uint32_t i = d;
    while (i > 0 && list_get(x, x->cur, i - 1) > b) {
        list_put(x, k, i, list_get(x, x->cur, i - 1));
        i--;
    }
    list_put(x, k, i, b);
}

/* Computes x->lb: the throws needed from each cell in the relaxed game
 * where the stone passes through every block but can stop in front of any
 * cell that was a block. A backward BFS from the goal's row and column;
 * each (cell, direction) is swept once, since a source met earlier in BFS
 * order already covered everything beyond it with a bound no larger. */
static int curl_bounds(curl_ctx *x)
{
    const gs_curling *cu = x->cu;
    size_t n = (size_t)cu->w * (size_t)cu->h;
    uint32_t *q = gs_mem_malloc(n * sizeof *q);
    uint8_t *swept = gs_mem_calloc(n, 1);
    if (q == NULL || swept == NULL) {
        gs_mem_free(q);
        gs_mem_free(swept);
        return GS_ENOMEM;
    }
    memset(x->lb, CURL_FAR, n);
    size_t qh = 0, qt = 0;
    long gr = (long)(cu->goal / (uint32_t)cu->w);
    long gc = (long)(cu->goal % (uint32_t)cu->w);
    for (long c = 0; c < cu->w; c++)
        if (c != gc) {
            x->lb[gr * cu->w + c] = 1;
            q[qt++] = (uint32_t)(gr * cu->w + c);
        }
    for (long r = 0; r < cu->h; r++)
        if (r != gr) {
            x->lb[r * cu->w + gc] = 1;
            q[qt++] = (uint32_t)(r * cu->w + gc);
        }
    while (qh < qt) {
        uint32_t s = q[qh++];
        uint8_t k = x->lb[s];
        if (k >= cu->max_throws)
            continue; /* predecessors would need more than allowed */
        long sr = (long)(s / (uint32_t)cu->w), sc = (long)(s % (uint32_t)cu->w);
        for (int d = 0; d < 4; d++) {
            long br = sr + curl_dr[d], bc = sc + curl_dc[d];
            if (br < 0 || bc < 0 || br >= cu->h || bc >= cu->w ||
                cu->cells[br * cu->w + bc] != BLOCK)
                continue;
            /* Every cell behind s can be thrown towards that block. */
            for (long r = sr - curl_dr[d], c = sc - curl_dc[d];
                 r >= 0 && c >= 0 && r < cu->h && c < cu->w;
                 r -= curl_dr[d], c -= curl_dc[d]) {
                size_t at = (size_t)(r * cu->w + c);
                if (swept[at] & (1u << d))
                    break;
                swept[at] |= (uint8_t)(1u << d);
                if (x->lb[at] == CURL_FAR && at != cu->goal) {
                    x->lb[at] = (uint8_t)(k + 1);
                    q[qt++] = (uint32_t)at;
                }
            }
        }
    }
    gs_mem_free(q);
    gs_mem_free(swept);
    return GS_OK;
}

/* Picks the shorter removed-set encoding and allocates the buffers. */
static int curl_ctx_init(curl_ctx *x, const gs_curling *cu)
{
    memset(x, 0, sizeof *x);
    x->cu = cu;
    /* Stored states have depth <= max_throws - 1: a deeper one could not
     * finish (every bound is at least 1). */
    uint32_t deepest = (uint32_t)cu->max_throws - 1;
    x->idx_w = cu->nblocks < UINT16_MAX ? 2 : 4;
    x->list_len = deepest < cu->nblocks ? deepest : cu->nblocks;
    size_t list_bytes = (size_t)x->list_len * x->idx_w;
    size_t bit_bytes = ((size_t)cu->nblocks + 7) / 8;
    x->list = list_bytes < bit_bytes;
    x->key_size = KEY_HEAD + (x->list ? list_bytes : bit_bytes);
    size_t n = (size_t)cu->w * (size_t)cu->h;
    /* The per-solve tables draw from the memory budget (mem.h). */
    x->lb = gs_mem_malloc(n);
    x->cur = malloc(x->key_size);
    x->kid = malloc(x->key_size);
    x->mark = x->list ? gs_mem_calloc(cu->nblocks ? cu->nblocks : 1, 1) : NULL;
    if (x->lb == NULL || x->cur == NULL || x->kid == NULL ||
        (x->list && x->mark == NULL))
        return GS_ENOMEM;
    return curl_bounds(x);
}

static void curl_ctx_free(curl_ctx *x)
{
    gs_mem_free(x->lb);
    free(x->cur);
    free(x->kid);
    gs_mem_free(x->mark);
}

/* The start state: stone on start, nothing removed. */
static void start_key(curl_ctx *x)
{
    memset(x->cur, 0, x->key_size);
    if (x->list)
        memset(x->cur + KEY_HEAD, 0xFF, x->key_size - KEY_HEAD);
    memcpy(x->cur, &x->cu->start, 4);
}

/* Throws the stone of x->cur in direction d. Returns 2 when it reaches the
 * goal, 1 when it stops on *stop against block *hit, 0 when the throw is
 * not allowed or the stone leaves the board. */
static int throw_stone(const curl_ctx *x, int d, uint32_t *stop, uint32_t *hit)
{
    const gs_curling *cu = x->cu;
    uint32_t cell = key_cell(x->cur);
    long r = (long)(cell / (uint32_t)cu->w), c = (long)(cell % (uint32_t)cu->w);
    bool first = true;
    for (;;) {
        long nr = r + curl_dr[d], nc = c + curl_dc[d];
        if (nr < 0 || nc < 0 || nr >= cu->h || nc >= cu->w)
            return 0;
        size_t at = (size_t)(nr * cu->w + nc);
        uint32_t b = cu->block[at];
        if (b != CURL_NO_BLOCK && !removed(x, b)) {
            if (first)
                return 0; /* a block right next to the stone */
            *stop = (uint32_t)(r * cu->w + c);
            *hit = b;
            return 1;
        }
        if (at == cu->goal)
            return 2;
        r = nr;
        c = nc;
        first = false;
    }
}

/* Expands state id (its key already in x->cur). Returns 1 with *dir set
 * when a throw reaches the goal, 0 when done, or a negative search error. */
static int curl_expand(curl_ctx *x, gs_search *s, uint64_t id, int *dir)
{
    uint8_t depth = x->cur[4];
    for (int d = 0; d < 4; d++) {
        uint32_t stop, hit;
        int t = throw_stone(x, d, &stop, &hit);
        if (t == 2) {
            *dir = d;
            return 1;
        }
        /* Keep only children that can still finish within the budget. */
        if (t == 0 || (int)depth + 1 + x->lb[stop] > x->cu->max_throws)
            continue;
        if (x->list && depth + 1u > x->list_len)
            continue; /* unreachable given the bound; keeps the key safe */
        make_child(x, stop, hit);
        int rc =
            gs_search_add(s, x->kid, id, (unsigned char)curl_moves[d], NULL);
        if (rc < 0)
            return rc;
    }
    return 0;
}

/* Runs the BFS. Returns 0 (exhausted or found), or a negative error /
 * GS_ELIMIT; *found and *from / *dir describe a solution. */
static int curl_bfs(curl_ctx *x, gs_search *s, bool *found, uint64_t *from,
                    int *dir)
{
    uint64_t id;
    int rc;
    *found = false;
    while ((rc = gs_search_pop(s, &id)) == 1) {
        memcpy(x->cur, gs_search_key(s, id), x->key_size);
        if (x->list)
            for (uint32_t i = 0; i < x->cur[4]; i++)
                x->mark[list_get(x, x->cur, i)] = 1;
        rc = curl_expand(x, s, id, dir);
        if (x->list)
            for (uint32_t i = 0; i < x->cur[4]; i++)
                x->mark[list_get(x, x->cur, i)] = 0;
        if (rc < 0)
            return rc;
        if (rc == 1) {
            *found = true;
            *from = id;
            return 0;
        }
    }
    return rc;
}

static int curl_solve(void *inst, const gs_limits *lim, gs_result *res,
                      gs_error *err)
{
    gs_curling *cu = inst;
    int64_t t0 = gs_now_ns();
    curl_ctx x;
    int rc = curl_ctx_init(&x, cu);
    if (rc) {
        /* The tables refused by the memory budget (or the system): a
         * limit, not an error. */
        curl_ctx_free(&x);
        res->status = GS_LIMIT;
        res->limit = GS_LIMIT_MEMORY;
        res->elapsed_ms = (double)(gs_now_ns() - t0) / 1e6;
        return GS_OK;
    }
    gs_search_config cfg = {
        .key_size = x.key_size,
        .queue = GS_QUEUE_FIFO,
        .limits = lim,
    };
    gs_search *s = NULL;
    rc = gs_search_new(&cfg, &s);
    if (rc) {
        curl_ctx_free(&x);
        return gs_error_set(err, rc, "cannot allocate the curling search");
    }
    bool found = false;
    uint64_t from = 0;
    int dir = 0;
    start_key(&x);
    rc = gs_search_add(s, x.cur, GS_NO_PARENT, 0, NULL);
    if (rc >= 0)
        rc = curl_bfs(&x, s, &found, &from, &dir);
    curl_ctx_free(&x);
    if (rc < 0 && rc != GS_ELIMIT) {
        gs_search_free(s);
        return gs_error_set(err, rc, "curling search failed: %s",
                            rc == GS_ENOMEM ? "out of memory" : "internal");
    }
    char suffix[2] = {curl_moves[dir], '\0'};
    rc = gs_search_finish(s, rc, found, from, suffix, true, res);
    gs_search_free(s);
    if (rc)
        return gs_error_set(err, rc,
                            "out of memory building the curling "
                            "move string");
    res->pushes = -1;
    res->elapsed_ms = (double)(gs_now_ns() - t0) / 1e6;
    return GS_OK;
}

const gs_puzzle gs_puzzle_curling = {
    .name = "curling",
    .summary = "Throw a stone that slides until it hits a block, which "
               "vanishes, to reach the goal (POJ 3009 Curling 2.0)",
    .options = "{\"max_throws\": \"most throws allowed, 1..64 (default 10, "
               "the judge's rule)\"}",
    .example = "{\"board\": [[1,0,0,2,1,0], [1,1,0,0,0,0], [0,0,0,0,0,3], "
               "[0,0,0,0,0,0], [1,0,0,0,0,1], [0,1,1,1,1,1]], "
               "\"max_throws\": 10}",
    .reports_pushes = false,
    .fields = (const char *const[]){"board", "max_throws", NULL},
    .text_format = "'W H', then H rows of W numbers (0 vacant, 1 block, 2 "
                   "start, 3 goal); ends with '0 0'; prints the throws or '-1'",
    .parse_json = curl_parse_json,
    .parse_text = curl_parse_text,
    .format_text = curl_format_text,
    .solve = curl_solve,
    .free = curl_free,
};
