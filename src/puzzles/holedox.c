/* holedox.c - POJ 1324 "Holedox Moving": bring a snake's head to a target.
 *
 * A state is the head cell plus, for every following body cell, the 2-bit
 * direction from the cell before it. That packs a 20x20 board with an 8-cell
 * snake into 4 bytes and a 64x64 board with a 16-cell snake into 6, so the
 * hashed visited set of the search core stays small.
 *
 * A plain BFS expands over half a million states on the judge's worst 20x20
 * board and millions on larger ones, so the solver is A* rather than BFS: the
 * heuristic is the distance from the head to the target on the board without
 * the body (one BFS from the target, computed once). It is admissible (the body
 * only adds obstacles) and consistent (one move changes the head's distance by
 * at most one), so the first goal found is a shortest one and no state is ever
 * expanded twice. Cells from which the target cannot be reached at all are
 * pruned, and a head that cannot reach the target even without its body answers
 * `impossible` at once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/json.h"
#include "gridsolve/mem.h"
#include "gridsolve/puzzle.h"

/* Longest snake accepted (the judge's is 8). The directions of the body then
 * fit in 62 bits. */
#define GS_HOLEDOX_MAX_SNAKE 32
/* Longest board side and most cells, whatever the configured caps say: the
 * solver keeps a few bytes per cell. */
#define GS_HOLEDOX_MAX_SIDE 32768L
#define GS_HOLEDOX_MAX_CELLS (1UL << 24)

/* dist[] holds moves + 1, so that a zeroed (lazily mapped) table starts
 * out all unreachable; a stone (the border too) holds HOLEDOX_STONE, so
 * one load tells a cell the BFS or the snake may enter. */
#define HOLEDOX_UNREACHABLE 0
#define HOLEDOX_STONE UINT32_MAX

typedef struct gs_holedox {
    int rows, cols;
    int len;                         /* snake cells */
    int snake[GS_HOLEDOX_MAX_SNAKE]; /* cell r * cols + c, head first */
    int target;                      /* cell index */
    /* Stone cells as given (a repeat is harmless). The board itself is
     * only built by the solver: its size is declared, not spelled out, so
     * a judge body of many short cases must not hold a large board for
     * each of them. */
    int *stones;
    size_t nstones, stones_cap;
} gs_holedox;

/* Moves in the order they are tried: U D L R. Opposites are d ^ 1. */
static const char holedox_moves[4] = {'U', 'D', 'L', 'R'};

/* ------------------------------------------------------------------------
 * Building and validating an instance. JSON and judge text share this code;
 * only the naming in error messages differs (JSON: 0-based `snake[3]`,
 * text: the judge's 1-based numbering).
 * ---------------------------------------------------------------------- */

typedef struct holedox_build {
    gs_holedox *h;
    int text; /* 1: judge text (1-based), 0: JSON (0-based) */
    /* Bit cell % 64 of each snake cell: a stone whose bit is clear is
     * off the snake without a look at its cells (most stones). */
    uint64_t snake_bits;
} holedox_build;

static void holedox_free(void *inst)
{
    gs_holedox *h = inst;
    if (!h)
        return;
    free(h->stones);
    free(h);
}

/* Writes the name of item `idx` of `list` at (r, c), both 0-based, in the
 * numbering of the input it came from. */
static void name_item(const holedox_build *b, char *out, size_t n,
                      const char *list, long idx, long r, long c)
{
    if (b->text)
        snprintf(out, n, "%s %ld (row %ld, col %ld)", list, idx + 1, r + 1,
                 c + 1);
    else
        snprintf(out, n, "%s[%ld] [%ld, %ld]", list, idx, r, c);
}

/* Allocates an empty rows x cols board after checking its size. */
static int holedox_begin(holedox_build *b, long rows, long cols, long len,
                         const gs_caps *caps, gs_error *err)
{
    b->h = NULL;
    if (rows < 1 || cols < 1 || rows > GS_HOLEDOX_MAX_SIDE ||
        cols > GS_HOLEDOX_MAX_SIDE)
        return gs_error_set(err, GS_EINVALID,
                            "board size %ldx%ld: rows and cols must be "
                            "between 1 and %ld",
                            rows, cols, GS_HOLEDOX_MAX_SIDE);
    unsigned long cells = (unsigned long)rows * (unsigned long)cols;
    unsigned long max = GS_HOLEDOX_MAX_CELLS;
    if (caps && caps->max_cells && caps->max_cells < max)
        max = (unsigned long)caps->max_cells;
    if (cells > max)
        return gs_error_set(err, GS_EINVALID,
                            "board %ldx%ld has %lu cells, above the maximum "
                            "of %lu",
                            rows, cols, cells, max);
    if (len < 2 || len > GS_HOLEDOX_MAX_SNAKE)
        return gs_error_set(err, GS_EINVALID,
                            "snake has %ld cells, expected 2 to %d", len,
                            GS_HOLEDOX_MAX_SNAKE);
    gs_holedox *h = calloc(1, sizeof *h);
    if (!h)
        return gs_error_set(err, GS_ENOMEM, "out of memory");
    h->rows = (int)rows;
    h->cols = (int)cols;
    h->len = (int)len;
    b->h = h;
    return GS_OK;
}

/* Index of `cell` among the first `placed` snake cells, or -1. */
static int snake_index(const gs_holedox *h, int placed, int cell)
{
    for (int j = 0; j < placed; j++)
        if (h->snake[j] == cell)
            return j;
    return -1;
}

/* Names snake cell j, which lies on `cell`. */
static void name_snake_at(const holedox_build *b, char *out, size_t n, int j,
                          int cell)
{
    const gs_holedox *h = b->h;
    name_item(b, out, n, "snake", j, cell / h->cols, cell % h->cols);
}

static int on_board(const gs_holedox *h, long r, long c)
{
    return r >= 0 && c >= 0 && r < h->rows && c < h->cols;
}

/* Places snake cell `i` (cells must come head first, in order): on the
 * board, not repeated, side-adjacent to cell i - 1. */
static int holedox_snake_cell(holedox_build *b, int i, long r, long c,
                              gs_error *err)
{
    gs_holedox *h = b->h;
    char me[96], other[96];

    /* Items are named only on an error: a judge file has hundreds of
     * them, and formatting each name was most of a small run's parse. */
    if (!on_board(h, r, c)) {
        name_item(b, me, sizeof me, "snake", i, r, c);
        return gs_error_set(err, GS_EINVALID, "%s is off the %dx%d board", me,
                            h->rows, h->cols);
    }
    int cell = (int)(r * h->cols + c);
    int j = snake_index(h, i, cell);
    if (j >= 0) {
        name_item(b, me, sizeof me, "snake", i, r, c);
        name_snake_at(b, other, sizeof other, j, cell);
        return gs_error_set(err, GS_EINVALID, "%s repeats %s", me, other);
    }
    if (i > 0) {
        int prev = h->snake[i - 1];
        long pr = prev / h->cols, pc = prev % h->cols;
        if (labs(pr - r) + labs(pc - c) != 1) {
            name_item(b, me, sizeof me, "snake", i, r, c);
            name_item(b, other, sizeof other, "snake", i - 1, pr, pc);
            return gs_error_set(err, GS_EINVALID,
                                "%s is not side-adjacent to %s", me, other);
        }
    }
    h->snake[i] = cell;
    b->snake_bits |= UINT64_C(1) << (cell & 63);
    return GS_OK;
}

/* The error of stone `i` at (r, c): off the board, or on snake cell j.
 * Apart from holedox_stone so that the names' buffers (and the stack
 * guard they bring) stay out of the per-stone path. */
static __attribute__((noinline, cold)) int stone_error(const holedox_build *b,
                                                       long i, long r, long c,
                                                       int j, gs_error *err)
{
    const gs_holedox *h = b->h;
    const char *list = b->text ? "stone" : "blocks";
    char me[96], other[96];

    name_item(b, me, sizeof me, list, i, r, c);
    if (j < 0)
        return gs_error_set(err, GS_EINVALID, "%s is off the %dx%d board", me,
                            h->rows, h->cols);
    name_snake_at(b, other, sizeof other, j, h->snake[j]);
    return gs_error_set(err, GS_EINVALID, "%s lies on %s", me, other);
}

/* Places stone `i` (after the whole snake): on the board, not under the
 * snake. A repeated stone is harmless and accepted. */
static int holedox_stone(holedox_build *b, long i, long r, long c,
                         gs_error *err)
{
    gs_holedox *h = b->h;

    if (!on_board(h, r, c))
        return stone_error(b, i, r, c, -1, err);
    int cell = (int)(r * h->cols + c);
    int j =
        (b->snake_bits >> (cell & 63) & 1) ? snake_index(h, h->len, cell) : -1;
    if (j >= 0)
        return stone_error(b, i, r, c, j, err);
    if (h->nstones == h->stones_cap) {
        size_t cap = h->stones_cap ? h->stones_cap * 2 : 16;
        int *p = realloc(h->stones, cap * sizeof *p);
        if (!p)
            return gs_error_set(err, GS_ENOMEM, "out of memory");
        h->stones = p;
        h->stones_cap = cap;
    }
    h->stones[h->nstones++] = cell;
    return GS_OK;
}

/* Sets the target once the snake and the stones are in. */
static int holedox_end(holedox_build *b, long tr, long tc, gs_error *err)
{
    gs_holedox *h = b->h;

    if (!on_board(h, tr, tc)) {
        long base = b->text ? 1 : 0;
        return gs_error_set(err, GS_EINVALID,
                            "target [%ld, %ld] is off the %dx%d board",
                            tr + base, tc + base, h->rows, h->cols);
    }
    h->target = (int)(tr * h->cols + tc);
    return GS_OK;
}

/* Frees a half-built instance and passes rc on. */
static int holedox_abort(holedox_build *b, int rc)
{
    holedox_free(b->h);
    b->h = NULL;
    return rc;
}

/* Checks that every item of `arr` (may be NULL) is a [row, col] pair, so
 * that type errors (400) win over validity (422) whatever the field order. */
static int holedox_json_shapes(const cJSON *arr, const char *list,
                               gs_error *err)
{
    const cJSON *item;
    char what[48];
    long i = 0, r, c;
    int rc;

    cJSON_ArrayForEach(item, arr)
    {
        snprintf(what, sizeof what, "%s[%ld]", list, i++);
        if ((rc = gs_json_cell(item, what, &r, &c, err)))
            return rc;
    }
    return GS_OK;
}

/* Places the snake and the stones of a JSON body whose shapes were
 * checked. */
static int holedox_json_place(holedox_build *b, const cJSON *snake,
                              const cJSON *blocks, gs_error *err)
{
    const cJSON *item;
    long i = 0, r, c;
    int rc;

    cJSON_ArrayForEach(item, snake)
    {
        gs_json_cell(item, "snake", &r, &c, err);
        if ((rc = holedox_snake_cell(b, (int)i++, r, c, err)))
            return rc;
    }
    i = 0;
    cJSON_ArrayForEach(item, blocks)
    {
        gs_json_cell(item, "blocks", &r, &c, err);
        if ((rc = holedox_stone(b, i++, r, c, err)))
            return rc;
    }
    return GS_OK;
}

/* Contract: see gs_puzzle.parse_json. */
static int holedox_parse_json(const cJSON *body, const gs_caps *caps,
                              void **inst, gs_error *err)
{
    holedox_build b = {.h = NULL, .text = 0};
    const cJSON *snake, *blocks = NULL, *target = NULL;
    long rows, cols, tr = 0, tc = 0;
    int rc;

    *inst = NULL;
    if ((rc = gs_json_int(body, "rows", true, 1, GS_HOLEDOX_MAX_SIDE, &rows,
                          err)) ||
        (rc = gs_json_int(body, "cols", true, 1, GS_HOLEDOX_MAX_SIDE, &cols,
                          err)) ||
        (rc = gs_json_array(body, "snake", true, &snake, err)) ||
        (rc = gs_json_array(body, "blocks", false, &blocks, err)) ||
        (rc = gs_json_field(body, "target", false, &target, err)) ||
        (rc = holedox_json_shapes(snake, "snake", err)) ||
        (rc = holedox_json_shapes(blocks, "blocks", err)) ||
        (target && (rc = gs_json_cell(target, "target", &tr, &tc, err))))
        return rc;
    if ((rc = holedox_begin(&b, rows, cols, cJSON_GetArraySize(snake), caps,
                            err)))
        return rc;
    if ((rc = holedox_json_place(&b, snake, blocks, err)) ||
        (rc = holedox_end(&b, tr, tc, err)))
        return holedox_abort(&b, rc);
    *inst = b.h;
    return GS_OK;
}

/* Reads one `row col` pair of judge text (1-based) as 0-based values. */
static int read_pair(gs_text *in, long *r, long *c, const char *what,
                     gs_error *err)
{
    long v[2];
    int rc = gs_text_ints(in, v, 2, what, err);
    *r = v[0] - 1;
    *c = v[1] - 1;
    return rc;
}

/* Contract: see gs_puzzle.parse_text. Format: `R C L`, L pairs (head
 * first), K, K pairs; `0 0 0` ends the input. */
static int holedox_parse_text(gs_text *in, const gs_caps *caps, void **inst,
                              gs_error *err)
{
    holedox_build b = {.h = NULL, .text = 1};
    long rows, cols, len, k, r, c;
    int rc;

    *inst = NULL;
    rc = gs_text_int(in, &rows, "board rows", err);
    if (rc <= 0)
        return rc;
    int hline = in->line; /* the case's header */
    if ((rc = gs_text_need_int(in, &cols, "board columns", err)) ||
        (rc = gs_text_need_int(in, &len, "snake length", err)))
        return rc;
    if (rows == 0 && cols == 0 && len == 0)
        return 0;
    if ((rc = holedox_begin(&b, rows, cols, len, caps, err))) {
        gs_error_prefix(err, "line %d: ", hline);
        return rc;
    }
    for (int i = 0; i < len; i++)
        if ((rc = read_pair(in, &r, &c, "snake cell", err)) ||
            (rc = holedox_snake_cell(&b, i, r, c, err)))
            return holedox_abort(&b, rc);
    if ((rc = gs_text_need_int(in, &k, "stone count", err)))
        return holedox_abort(&b, rc);
    if (k < 0)
        return holedox_abort(&b, gs_error_set(err, GS_EINVALID,
                                              "line %d: stone count %ld is "
                                              "negative",
                                              in->line, k));
    /* One allocation of the stated size (no doubling's copies and
     * holes), bounded by the board (a repeated stone is legal) and by the
     * text left (a stone takes at least 4 bytes): a huge count must not
     * reserve memory before its lines are there. */
    size_t want = (size_t)(k < rows * cols ? k : rows * cols);
    if (want > (size_t)(in->end - in->p) / 4 + 1)
        want = (size_t)(in->end - in->p) / 4 + 1;
    if (want && !(b.h->stones = malloc(want * sizeof *b.h->stones)))
        return holedox_abort(&b, gs_error_set(err, GS_ENOMEM, "out of memory"));
    b.h->stones_cap = want;
    for (long i = 0; i < k; i++)
        if ((rc = read_pair(in, &r, &c, "stone", err)) ||
            (rc = holedox_stone(&b, i, r, c, err)))
            return holedox_abort(&b, rc);
    if ((rc = holedox_end(&b, 0, 0, err)))
        return holedox_abort(&b, rc);
    *inst = b.h;
    return 1;
}

/* Contract: see gs_puzzle.format_text. */
static void holedox_format_text(const void *inst, const gs_result *res,
                                int index, gs_buf *out)
{
    gs_buf_puts(out, "Case ");
    gs_buf_put_u64(out, (unsigned)index);
    gs_judge_line(out, res, ": ", "-1", false);
}

/* ------------------------------------------------------------------------
 * Solving.
 * ---------------------------------------------------------------------- */

typedef struct holedox_solver {
    const gs_holedox *h;
    /* The solver works on the board with a border of stones around it:
     * cell (r, c) is (r + 1) * width + c + 1, and a neighbour is one add
     * away with no bounds check (the border is a stone). */
    int width;    /* cols + 2 */
    int delta[4]; /* U D L R as cell steps */
    /* (rows + 2) * width: body-free moves + 1 from each cell to the
     * target, HOLEDOX_UNREACHABLE or HOLEDOX_STONE */
    uint32_t *dist;
    size_t cells;      /* entries of dist (budget_alloc'd) */
    size_t head_bytes; /* key: head cell, then the body directions */
    size_t dir_bytes;
    uint64_t dir_mask; /* 2 * (len - 1) bits */
} holedox_solver;

/* calloc (zero) or malloc that reserves its bytes from the memory budget
 * (mem.h) first. Not gs_mem_calloc: that one writes every byte, and the
 * distances rely on calloc's untouched zero pages (a declared 16M-cell
 * board whose BFS stays small must not cost its full table). NULL when
 * the budget or the system refuses. */
static void *budget_alloc(size_t n, size_t size, bool zero)
{
    if (size && n > SIZE_MAX / size)
        return NULL;
    if (!gs_mem_reserve((uint64_t)n * size))
        return NULL;
    void *p = zero ? calloc(n, size) : malloc(n * size);
    if (!p)
        gs_mem_release((uint64_t)n * size);
    return p;
}

/* Frees a budget_alloc(n, size) block (NULL is fine). */
static void budget_free(void *p, size_t n, size_t size)
{
    if (!p)
        return;
    free(p);
    gs_mem_release((uint64_t)n * size);
}

/* The padded cell of instance cell i (r * cols + c). */
static int padded(const holedox_solver *sv, int i)
{
    int cols = sv->h->cols;
    return (i / cols + 1) * sv->width + i % cols + 1;
}

/* Cells dequeued between two deadline checks of the distance BFS. */
#define HOLEDOX_BFS_CHECK_EVERY 4096

/* Builds the padded board (stones and border, in dist) and fills dist by a
 * BFS from the target over the cells without a stone. A board is declared
 * by its size, not spelled out, so a short request can ask for 16M cells:
 * the tables are zeroed allocations (what the BFS never reaches costs
 * nothing but the border's two entries a row) and the BFS watches the
 * deadline, returning GS_ELIMIT past it. Else GS_OK or GS_ENOMEM. */
static int holedox_distances(holedox_solver *sv, const gs_limits *lim)
{
    const gs_holedox *h = sv->h;
    const int w = sv->width;
    size_t rows = (size_t)h->rows + 2, cells = rows * (size_t)w;
    /* The queue is written before it is read: not zeroed. */
    uint32_t *queue = budget_alloc(cells + 1, sizeof *queue, false);
    size_t head = 0, tail = 0;

    sv->cells = cells;
    sv->dist = budget_alloc(cells, sizeof *sv->dist, true);
    if (!queue || !sv->dist) {
        budget_free(queue, cells + 1, sizeof *queue);
        return GS_ENOMEM;
    }
    uint32_t *dist = sv->dist;
    for (size_t i = 0; i < (size_t)w; i++)
        dist[i] = dist[cells - 1 - i] = HOLEDOX_STONE;
    for (size_t r = 1; r + 1 < rows; r++)
        dist[r * (size_t)w] = dist[r * (size_t)w + (size_t)w - 1] =
            HOLEDOX_STONE;
    for (size_t i = 0; i < h->nstones; i++)
        dist[padded(sv, h->stones[i])] = HOLEDOX_STONE;
    int target = padded(sv, h->target);
    if (dist[target] != HOLEDOX_STONE) {
        dist[target] = 1;
        queue[tail++] = (uint32_t)target;
    }
    /* Stones and random walls make the branches of a plain neighbour loop
     * unpredictable; here each neighbour is written unconditionally and
     * the queue tail advances by 0 or 1 (the holedox bench input 100
     * times over: 11.4 -> 9.5 ms of CPU branch-free). The border spares
     * every bounds check. */
/* Labels neighbour n when it is free and new. */
#define HOLEDOX_VISIT(n)                                                       \
    do {                                                                       \
        uint32_t nn = (n);                                                     \
        int take = dist[nn] == HOLEDOX_UNREACHABLE;                            \
        dist[nn] = take ? next : dist[nn];                                     \
        queue[tail] = nn; /* one spare entry past the last */                  \
        tail += (size_t)take;                                                  \
    } while (0)
    while (head < tail) {
        if (head % HOLEDOX_BFS_CHECK_EVERY == 0 && gs_limits_expired(lim)) {
            budget_free(queue, cells + 1, sizeof *queue);
            return GS_ELIMIT;
        }
        uint32_t cur = queue[head++];
        uint32_t next = dist[cur] + 1;
        HOLEDOX_VISIT(cur - (uint32_t)w);
        HOLEDOX_VISIT(cur + (uint32_t)w);
        HOLEDOX_VISIT(cur - 1);
        HOLEDOX_VISIT(cur + 1);
    }
#undef HOLEDOX_VISIT
    budget_free(queue, cells + 1, sizeof *queue);
    return GS_OK;
}

/* Number of bytes that hold values below 2^bits. */
static size_t bytes_for_bits(unsigned bits)
{
    return bits == 0 ? 1 : (bits + 7) / 8;
}

static void put_le(unsigned char *p, uint64_t v, size_t n)
{
    for (size_t i = 0; i < n; i++, v >>= 8)
        p[i] = (unsigned char)v;
}

static uint64_t get_le(const unsigned char *p, size_t n)
{
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

static void holedox_pack(const holedox_solver *sv, unsigned char *key, int head,
                         uint64_t dirs)
{
    put_le(key, (uint64_t)head, sv->head_bytes);
    put_le(key + sv->head_bytes, dirs, sv->dir_bytes);
}

/* Direction code d (0..3) such that cell b is one step from a towards d. */
static int dir_between(const holedox_solver *sv, int a, int b)
{
    for (int d = 0; d < 3; d++)
        if (b == a + sv->delta[d])
            return d;
    return 3;
}

/* Unpacks a key into the body cells, head first. */
static void holedox_unpack(const holedox_solver *sv, const unsigned char *key,
                           int *body, uint64_t *dirs)
{
    body[0] = (int)get_le(key, sv->head_bytes);
    *dirs = get_le(key + sv->head_bytes, sv->dir_bytes);
    for (int i = 1; i < sv->h->len; i++)
        body[i] = body[i - 1] + sv->delta[(*dirs >> (2 * (i - 1))) & 3];
}

/* The packed key of the instance's starting snake. */
static void holedox_start_key(const holedox_solver *sv, unsigned char *key)
{
    const gs_holedox *h = sv->h;
    uint64_t dirs = 0;

    for (int i = h->len - 1; i >= 1; i--)
        dirs =
            dirs << 2 | (uint64_t)dir_between(sv, padded(sv, h->snake[i - 1]),
                                              padded(sv, h->snake[i]));
    holedox_pack(sv, key, padded(sv, h->snake[0]), dirs);
}

/* Head-move legality: no stone (the border is one), no body cell as it
 * stands now (the tail's cell too: that is the judge's rule). Returns the
 * new head cell or -1. */
static int holedox_step(const holedox_solver *sv, const int *body, int d)
{
    int n = body[0] + sv->delta[d];

    /* Unreachable (0) and stone (max) in one compare. */
    if (sv->dist[n] - 1 >= HOLEDOX_STONE - 1)
        return -1;
    for (int i = 1; i < sv->h->len; i++)
        if (body[i] == n)
            return -1;
    return n;
}

/* A* priority: f = g + h first, then the deeper state (fewer ties to
 * expand before the goal). */
static uint64_t holedox_prio(uint64_t g, uint32_t h)
{
    return (g + h) << 32 | (UINT32_MAX - (g & UINT32_MAX));
}

/* Expands states until the goal is generated (*goal, *last set), the space
 * is exhausted (0) or a limit/error stops the search (< 0). */
static int holedox_astar(holedox_solver *sv, gs_search *s, int target,
                         uint64_t *goal, char *last)
{
    unsigned char key[16];
    int body[GS_HOLEDOX_MAX_SNAKE];
    uint64_t id, dirs;
    int rc;

    while ((rc = gs_search_pop(s, &id)) == 1) {
        uint64_t g = gs_search_cost(s, id);
        holedox_unpack(sv, gs_search_key(s, id), body, &dirs);
        for (int d = 0; d < 4; d++) {
            int n = holedox_step(sv, body, d);
            if (n < 0)
                continue;
            if (n == target) {
                /* f of this child equals f of its parent, the least f in
                 * the open list: nothing can be shorter. */
                *goal = id;
                *last = holedox_moves[d];
                return 1;
            }
            holedox_pack(sv, key, n,
                         (dirs << 2 | (uint64_t)(d ^ 1)) & sv->dir_mask);
            rc = gs_search_add_prio(s, key, id, (unsigned char)holedox_moves[d],
                                    g + 1, holedox_prio(g + 1, sv->dist[n] - 1),
                                    NULL);
            if (rc < 0)
                return rc;
        }
    }
    return rc;
}

/* Runs the search proper once the distances are known. */
static int holedox_run(holedox_solver *sv, const gs_limits *lim, gs_result *res,
                       gs_error *err)
{
    const gs_holedox *h = sv->h;
    gs_search_config cfg = {0};
    gs_search *s = NULL;
    unsigned char key[16];
    uint64_t start = 0, goal = 0;
    char suffix[2] = {0, 0};
    int rc, found = 0;
    int head = padded(sv, h->snake[0]), target = padded(sv, h->target);

    cfg.key_size = sv->head_bytes + sv->dir_bytes;
    cfg.queue = GS_QUEUE_PRIORITY;
    cfg.limits = lim;
    if ((rc = gs_search_new(&cfg, &s)))
        return gs_error_set(err, rc, "cannot allocate the search");
    uint32_t h0 = sv->dist[head];
    if (head == target) {
        holedox_start_key(sv, key);
        rc = gs_search_add_prio(s, key, GS_NO_PARENT, 0, 0, 0, &start);
        found = rc >= 0;
        goal = start;
    } else if (h0 != HOLEDOX_UNREACHABLE) {
        holedox_start_key(sv, key);
        rc = gs_search_add_prio(s, key, GS_NO_PARENT, 0, 0,
                                holedox_prio(0, h0 - 1), &start);
        if (rc >= 0)
            rc = holedox_astar(sv, s, target, &goal, &suffix[0]);
        found = rc == 1;
    } else {
        rc = 0; /* even a body-free head cannot reach the target */
    }
    if (rc == GS_ENOMEM) {
        gs_search_free(s);
        return gs_error_set(err, GS_ENOMEM, "out of memory while searching");
    }
    rc =
        gs_search_finish(s, found ? GS_OK : rc, found, goal, suffix, true, res);
    gs_search_free(s);
    if (rc)
        return gs_error_set(err, rc, "out of memory building the moves");
    return GS_OK;
}

/* Contract: see gs_puzzle.solve. */
static int holedox_solve(void *inst, const gs_limits *lim, gs_result *res,
                         gs_error *err)
{
    holedox_solver sv = {0};
    int64_t t0 = gs_now_ns();
    unsigned head_bits = 0;
    int rc;

    sv.h = inst;
    sv.width = sv.h->cols + 2;
    sv.delta[0] = -sv.width;
    sv.delta[1] = sv.width;
    sv.delta[2] = -1;
    sv.delta[3] = 1;
    unsigned long cells = (unsigned long)(sv.h->rows + 2) * (unsigned)sv.width;
    while (head_bits < 32 && (1UL << head_bits) < cells)
        head_bits++;
    sv.head_bytes = bytes_for_bits(head_bits);
    sv.dir_bytes = bytes_for_bits(2 * (unsigned)(sv.h->len - 1));
    sv.dir_mask = (UINT64_C(1) << (2 * (sv.h->len - 1))) - 1;
    gs_result_clear(res);
    rc = holedox_distances(&sv, lim);
    if (rc == GS_ELIMIT || rc == GS_ENOMEM) {
        /* Past the deadline, or the tables refused by the memory budget
         * (or the system): a limit, not an error. */
        res->status = GS_LIMIT;
        res->limit = rc == GS_ELIMIT ? GS_LIMIT_TIME : GS_LIMIT_MEMORY;
        rc = GS_OK;
    } else {
        rc = holedox_run(&sv, lim, res, err);
    }
    budget_free(sv.dist, sv.cells, sizeof *sv.dist);
    res->elapsed_ms = (double)(gs_now_ns() - t0) / 1e6;
    return rc;
}

const gs_puzzle gs_puzzle_holedox = {
    .name = "holedox",
    .summary = "Move a snake's head to the target on a board with stones "
               "(POJ 1324 Holedox Moving)",
    .options =
        "{\"target\": \"[row, col] the head must reach (default [0, 0])\"}",
    .example = "{\"rows\": 5, \"cols\": 6, \"snake\": [[3,0],[3,1],[2,1],"
               "[2,0]], \"blocks\": [[1,2],[2,2],[2,3]], \"target\": [0,0]}",
    .fields = (const char *const[]){"rows", "cols", "snake", "blocks", "target",
                                    NULL},
    .text_format =
        "'R C L', L lines 'row col' (1-based, head first), 'K', K stone lines; "
        "ends with '0 0 0'; prints 'Case i: steps' or 'Case i: -1'",
    .parse_json = holedox_parse_json,
    .parse_text = holedox_parse_text,
    .format_text = holedox_format_text,
    .solve = holedox_solve,
    .free = holedox_free,
};
