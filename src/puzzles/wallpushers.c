/* wallpushers.c - UVa 10384 "The Wall Pushers": walk out of a maze whose
 * walls slide when pushed.
 *
 * Walls live on edges, not in cells: (R + 1) * C horizontal edges (edge
 * r * C + c lies above cell (r, c)) followed by R * (C + 1) vertical ones
 * (edge H + r * (C + 1) + c lies left of cell (r, c)). A state is the
 * player's cell plus the whole wall layout as a bitset, so a push followed
 * by a step back is a new state, as it must be: nothing that could lie on a
 * shortest path is pruned. The move that leaves the maze is not a state
 * but the suffix of the path.
 *
 * The search is A* in the shared core. Walls on the grid's edge never move
 * and an inner wall can only be pushed onto the edge, so exits close but
 * never open: the Manhattan distance to the nearest exit still open, plus
 * the move that leaves, never overestimates, and it rises by at most one per
 * move (consistent). A state with no exit left is dropped: it can never
 * leave. The first state expanded that stands on an open exit therefore
 * gives a shortest answer, exactly as BFS would, after far fewer states.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/json.h"
#include "gridsolve/puzzle.h"

/* The key holds the whole layout (about 2 bits per cell), so mazes are
 * kept to 64 x 64 cells whatever the configured caps say. */
#define GS_WP_MAX_CELLS 4096L
#define WP_CELL_BYTES 2 /* the player's cell in the key */
/* The judge's mazes are 4 x 6. */
#define GS_WP_TEXT_ROWS 4
#define GS_WP_TEXT_COLS 6

/* Cell bits and moves, indexed by direction 0..3 = N S W E. */
enum { WP_WEST = 1, WP_NORTH = 2, WP_EAST = 4, WP_SOUTH = 8 };
static const char wp_moves[4] = {'N', 'S', 'W', 'E'};
static const int wp_dr[4] = {-1, 1, 0, 0};
static const int wp_dc[4] = {0, 0, -1, 1};

typedef struct gs_wallpushers {
    int rows, cols;
    int start;             /* cell r * cols + c */
    size_t layout_bytes;   /* bytes of the edge bitset */
    unsigned char *layout; /* the walls at the start */
} gs_wallpushers;

static void wallpushers_free(void *inst)
{
    gs_wallpushers *w = inst;
    if (!w)
        return;
    free(w->layout);
    free(w);
}

/* Edge index of side d (0..3 = N S W E) of cell (r, c). */
static size_t wp_edge(const gs_wallpushers *w, int r, int c, int d)
{
    size_t vbase = (size_t)(w->rows + 1) * w->cols;
    switch (d) {
    case 0:
        return (size_t)r * w->cols + c;
    case 1:
        return (size_t)(r + 1) * w->cols + c;
    case 2:
        return vbase + (size_t)r * (w->cols + 1) + c;
    default:
        return vbase + (size_t)r * (w->cols + 1) + c + 1;
    }
}

static int bit_get(const unsigned char *set, size_t i)
{
    return (set[i >> 3] >> (i & 7)) & 1;
}

static void bit_set(unsigned char *set, size_t i)
{
    set[i >> 3] |= (unsigned char)(1u << (i & 7));
}

static void bit_clear(unsigned char *set, size_t i)
{
    set[i >> 3] &= (unsigned char)~(1u << (i & 7));
}

/* ------------------------------------------------------------------------
 * Building and validating an instance from a grid of cell numbers. JSON
 * names cells `walls[r][c]` (0-based); judge text by its 1-based row and
 * column.
 * ---------------------------------------------------------------------- */

/* Writes the name of cell (r, c), 0-based, in the input's numbering. */
static void name_cell(bool text, char *out, size_t n, int r, int c)
{
    if (text)
        snprintf(out, n, "cell at row %d, col %d", r + 1, c + 1);
    else
        snprintf(out, n, "walls[%d][%d]", r, c);
}

/* The 422 of a wall on one side only: a has it (a != 0) or b has. */
static int wp_wall_error(gs_error *err, long a, const char *na, const char *nb,
                         const char *side_a, const char *side_b)
{
    if (a)
        return gs_error_set(err, GS_EINVALID,
                            "inconsistent wall: %s has a wall on its %s side "
                            "but %s has none on its %s side",
                            na, side_a, nb, side_b);
    return gs_error_set(err, GS_EINVALID,
                        "inconsistent wall: %s has no wall on its %s side "
                        "but %s has one on its %s side",
                        na, side_a, nb, side_b);
}

/* 422 when the wall between two neighbouring cells is on one side only.
 * `bit_a` is a's side facing b, `bit_b` is b's side facing a. */
static int wp_check_pair(const long *cells, int cols, const int *lines, int ra,
                         int ca, int rb, int cb, int bit_a, int bit_b,
                         gs_error *err)
{
    static const char *side[16] = {[WP_WEST] = "west",
                                   [WP_NORTH] = "north",
                                   [WP_EAST] = "east",
                                   [WP_SOUTH] = "south"};
    long a = cells[ra * cols + ca] & bit_a, b = cells[rb * cols + cb] & bit_b;
    char na[48], nb[48];

    if (!a == !b)
        return GS_OK;
    name_cell(lines != NULL, na, sizeof na, ra, ca);
    name_cell(lines != NULL, nb, sizeof nb, rb, cb);
    int rc = wp_wall_error(err, a, na, nb, side[bit_a], side[bit_b]);
    if (lines) /* the line of the cell named first */
        gs_error_prefix(err, "line %d: ", lines[ra * cols + ca]);
    return rc;
}

/* Checks every cell value and every inner wall. */
static int wp_check_cells(const long *cells, int rows, int cols,
                          const int *lines, gs_error *err)
{
    char name[48];
    int rc;

    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            long v = cells[r * cols + c];
            if (v < 0 || v > 15) {
                name_cell(lines != NULL, name, sizeof name, r, c);
                gs_error_set(err, GS_EINVALID, "%s is %ld, expected 0 to 15",
                             name, v);
                if (lines)
                    gs_error_prefix(err, "line %d: ", lines[r * cols + c]);
                return GS_EINVALID;
            }
        }
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++) {
            if (c + 1 < cols &&
                (rc = wp_check_pair(cells, cols, lines, r, c, r, c + 1, WP_EAST,
                                    WP_WEST, err)))
                return rc;
            if (r + 1 < rows &&
                (rc = wp_check_pair(cells, cols, lines, r, c, r + 1, c,
                                    WP_SOUTH, WP_NORTH, err)))
                return rc;
        }
    return GS_OK;
}

/* Builds an instance from rows x cols cell numbers and a 0-based start.
 * lines: judge text's line of each cell, then of the start; NULL: JSON. */
static int wp_build(const long *cells, int rows, int cols, long sr, long sc,
                    const int *lines, gs_wallpushers **out, gs_error *err)
{
    static const int bits[4] = {WP_NORTH, WP_SOUTH, WP_WEST, WP_EAST};
    int rc = wp_check_cells(cells, rows, cols, lines, err);

    *out = NULL;
    if (rc)
        return rc;
    if (sr < 0 || sc < 0 || sr >= rows || sc >= cols) {
        if (lines) /* 1-based; its line is kept after the cells' */
            return gs_error_set(err, GS_EINVALID,
                                "line %d: start (row %ld, col %ld) is off the "
                                "%dx%d maze",
                                lines[rows * cols], sr + 1, sc + 1, rows, cols);
        return gs_error_set(err, GS_EINVALID,
                            "start (row %ld, col %ld) is off the %dx%d maze",
                            sr, sc, rows, cols);
    }
    gs_wallpushers *w = calloc(1, sizeof *w);
    if (!w)
        return gs_error_set(err, GS_ENOMEM, "out of memory");
    w->rows = rows;
    w->cols = cols;
    w->start = (int)(sr * cols + sc);
    size_t edges = (size_t)(rows + 1) * cols + (size_t)rows * (cols + 1);
    w->layout_bytes = (edges + 7) / 8;
    w->layout = calloc(w->layout_bytes, 1);
    if (!w->layout) {
        free(w);
        return gs_error_set(err, GS_ENOMEM, "out of memory");
    }
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            for (int d = 0; d < 4; d++)
                if (cells[r * cols + c] & bits[d])
                    bit_set(w->layout, wp_edge(w, r, c, d));
    *out = w;
    return GS_OK;
}

/* 400 unless every row of `walls` is an array of integers. */
static int wp_json_types(const cJSON *walls, gs_error *err)
{
    const cJSON *row, *item;
    int r = 0;

    cJSON_ArrayForEach(row, walls)
    {
        int c = 0;
        if (!cJSON_IsArray(row))
            return gs_error_set(err, GS_EBADREQ,
                                "walls[%d] must be an array of integers", r);
        cJSON_ArrayForEach(item, row)
        {
            double d = item->valuedouble;
            if (!cJSON_IsNumber(item) || d != floor(d))
                return gs_error_set(err, GS_EBADREQ,
                                    "walls[%d][%d] must be an integer", r, c);
            c++;
        }
        r++;
    }
    return GS_OK;
}

/* Reads `walls` (types checked) into a malloc'd rows x cols array. */
static int wp_json_cells(const cJSON *walls, const gs_caps *caps, long **out,
                         int *rows, int *cols, gs_error *err)
{
    int nr = cJSON_GetArraySize(walls), nc = 0, r = 0;
    const cJSON *row, *item;

    *out = NULL;
    if (nr == 0 || (nc = cJSON_GetArraySize(walls->child)) == 0)
        return gs_error_set(err, GS_EINVALID,
                            nr ? "walls[0] is empty" : "walls is empty");
    cJSON_ArrayForEach(row, walls)
    {
        int n = cJSON_GetArraySize(row);
        if (n != nc)
            return gs_error_set(err, GS_EINVALID,
                                "walls row %d has %d cells, expected %d", r, n,
                                nc);
        r++;
    }
    long max = GS_WP_MAX_CELLS;
    if (caps && caps->max_cells && caps->max_cells < (uint64_t)max)
        max = (long)caps->max_cells;
    if ((long)nr * nc > max)
        return gs_error_set(err, GS_EINVALID,
                            "maze %dx%d has %ld cells, above the maximum of "
                            "%ld",
                            nr, nc, (long)nr * nc, max);
    long *cells = malloc((size_t)nr * nc * sizeof *cells);
    if (!cells)
        return gs_error_set(err, GS_ENOMEM, "out of memory");
    long i = 0;
    r = 0;
    cJSON_ArrayForEach(row, walls)
    {
        int c = 0;
        cJSON_ArrayForEach(item, row)
        {
            /* Checked on the double: a long would not hold every value,
             * and the detail names the one sent. */
            double d = item->valuedouble;
            if (d < 0 || d > 15) {
                char name[40];
                free(cells);
                name_cell(false, name, sizeof name, r, c);
                return gs_error_set(err, GS_EINVALID,
                                    "%s is %.17g, expected 0 to 15", name, d);
            }
            cells[i++] = (long)d;
            c++;
        }
        r++;
    }
    *out = cells;
    *rows = nr;
    *cols = nc;
    return GS_OK;
}

/* Contract: see gs_puzzle.parse_json. */
static int wallpushers_parse_json(const cJSON *body, const gs_caps *caps,
                                  void **inst, gs_error *err)
{
    const cJSON *start, *walls;
    long sr, sc;
    long *cells = NULL;
    int rows = 0, cols = 0, rc;

    *inst = NULL;
    if ((rc = gs_json_field(body, "start", true, &start, err)) ||
        (rc = gs_json_cell(start, "start", &sr, &sc, err)) ||
        (rc = gs_json_array(body, "walls", true, &walls, err)) ||
        (rc = wp_json_types(walls, err)) ||
        (rc = wp_json_cells(walls, caps, &cells, &rows, &cols, err)))
        return rc;
    rc =
        wp_build(cells, rows, cols, sr, sc, NULL, (gs_wallpushers **)inst, err);
    free(cells);
    return rc;
}

/* Contract: see gs_puzzle.parse_text. Format: `col row` (1-based), then
 * 4 rows of 6 numbers; `0 0` ends the input. */
static int wallpushers_parse_text(gs_text *in, const gs_caps *caps, void **inst,
                                  gs_error *err)
{
    long cells[GS_WP_TEXT_ROWS * GS_WP_TEXT_COLS];
    /* Each cell's line, then the start's, for errors. */
    int lines[GS_WP_TEXT_ROWS * GS_WP_TEXT_COLS + 1];
    long col, row;
    char what[48];
    int rc;

    *inst = NULL;
    rc = gs_text_int(in, &col, "start column", err);
    if (rc <= 0)
        return rc;
    if ((rc = gs_text_need_int(in, &row, "start row", err)))
        return rc;
    if (col == 0 && row == 0)
        return 0;
    lines[GS_WP_TEXT_ROWS * GS_WP_TEXT_COLS] = in->line;
    /* The text maze has a fixed size, still bound by --max-cells. */
    uint64_t size = GS_WP_TEXT_ROWS * GS_WP_TEXT_COLS;
    if (caps && caps->max_cells && size > caps->max_cells)
        return gs_error_set(err, GS_EINVALID,
                            "line %d: maze %dx%d has %llu cells, above the "
                            "maximum of %llu",
                            in->line, GS_WP_TEXT_ROWS, GS_WP_TEXT_COLS,
                            (unsigned long long)size,
                            (unsigned long long)caps->max_cells);
    for (int i = 0; i < GS_WP_TEXT_ROWS * GS_WP_TEXT_COLS; i++) {
        gs_text at = *in;
        if (gs_text_need_int(in, &cells[i], "a maze cell", err) == GS_OK) {
            lines[i] = in->line;
            continue;
        }
        /* Only now name the cell: formatting every cell's name up front
         * cost a third of a small judge run. Re-reading from the same
         * place gives the same error, with the precise name. */
        *in = at;
        snprintf(what, sizeof what, "maze row %d, col %d",
                 i / GS_WP_TEXT_COLS + 1, i % GS_WP_TEXT_COLS + 1);
        return gs_text_need_int(in, &cells[i], what, err);
    }
    rc = wp_build(cells, GS_WP_TEXT_ROWS, GS_WP_TEXT_COLS, row - 1, col - 1,
                  lines, (gs_wallpushers **)inst, err);
    return rc ? rc : 1;
}

/* Contract: see gs_puzzle.format_text. */
static void wallpushers_format_text(const void *inst, const gs_result *res,
                                    int index, gs_buf *out)
{
    gs_judge_line(out, res, "", "Impossible", true);
}

/* ------------------------------------------------------------------------
 * Solving. Key: the player's cell (2 bytes, little-endian: at most
 * GS_WP_MAX_CELLS cells), then the edge bitset.
 * ---------------------------------------------------------------------- */

static void put_cell(unsigned char *key, int cell)
{
    key[0] = (unsigned char)cell;
    key[1] = (unsigned char)(cell >> 8);
}

static int get_cell(const unsigned char *key)
{
    return key[0] | key[1] << 8;
}

/* Applies move d to the state in cur, writing the successor to next.
 * Returns 1 for a state inside the maze, 2 when the move leaves the maze,
 * 0 when the move is illegal. */
static int wp_move(const gs_wallpushers *w, const unsigned char *cur,
                   unsigned char *next, size_t ksize, int d)
{
    const unsigned char *walls = cur + WP_CELL_BYTES;
    int pos = get_cell(cur), r = pos / w->cols, c = pos % w->cols;
    int nr = r + wp_dr[d], nc = c + wp_dc[d];
    int inside = nr >= 0 && nc >= 0 && nr < w->rows && nc < w->cols;
    size_t e = wp_edge(w, r, c, d);

    if (!bit_get(walls, e)) {
        if (!inside)
            return 2;
        memcpy(next, cur, ksize);
    } else {
        /* Edge walls never move; two walls in a row do not either. */
        if (!inside)
            return 0;
        size_t e2 = wp_edge(w, nr, nc, d);
        if (bit_get(walls, e2))
            return 0;
        memcpy(next, cur, ksize);
        bit_clear(next + WP_CELL_BYTES, e);
        bit_set(next + WP_CELL_BYTES, e2);
    }
    put_cell(next, nr * w->cols + nc);
    return 1;
}

#define WP_NO_EXIT UINT32_MAX

/* Lower bound on the moves left from the state in key: Manhattan distance
 * to the nearest open exit plus the leaving move; WP_NO_EXIT when every
 * exit is closed. */
static uint32_t wp_bound(const gs_wallpushers *w, const unsigned char *key)
{
    const unsigned char *walls = key + WP_CELL_BYTES;
    int pos = get_cell(key), r = pos / w->cols, c = pos % w->cols;
    uint32_t best = WP_NO_EXIT;
    for (int d = 0; d < 4; d++) {
        /* Cells along the side d of the grid: a row or a column. */
        int n = d < 2 ? w->cols : w->rows;
        for (int i = 0; i < n; i++) {
            int er = d == 0 ? 0 : d == 1 ? w->rows - 1 : i;
            int ec = d < 2 ? i : d == 2 ? 0 : w->cols - 1;
            if (bit_get(walls, wp_edge(w, er, ec, d)))
                continue;
            uint32_t dist = (uint32_t)(abs(er - r) + abs(ec - c)) + 1;
            if (dist < best)
                best = dist;
        }
    }
    return best;
}

/* Priority: f first; among equal f the deeper state, then discovery. */
static uint64_t wp_prio(uint64_t g, uint32_t h)
{
    return ((g + h) << 32) | (0xFFFFFFFFu - (uint32_t)g);
}

/* A* until a move leaves the maze (returns 1 with *from and *last set),
 * the space is exhausted (0) or a limit or error stops it (< 0). */
static int wp_astar(const gs_wallpushers *w, gs_search *s, unsigned char *cur,
                    unsigned char *next, size_t ksize, uint64_t *from,
                    char *last)
{
    uint64_t id;
    int rc;

    while ((rc = gs_search_pop(s, &id)) == 1) {
        memcpy(cur, gs_search_key(s, id), ksize);
        uint64_t g = gs_search_cost(s, id) + 1;
        for (int d = 0; d < 4; d++) {
            int m = wp_move(w, cur, next, ksize, d);
            if (m == 2) {
                *from = id;
                *last = wp_moves[d];
                return 1;
            }
            if (m != 1)
                continue;
            uint32_t h = wp_bound(w, next);
            if (h == WP_NO_EXIT)
                continue;
            rc = gs_search_add_prio(s, next, id, (unsigned char)wp_moves[d], g,
                                    wp_prio(g, h), NULL);
            if (rc < 0)
                return rc;
        }
    }
    return rc;
}

/* Contract: see gs_puzzle.solve. */
static int wallpushers_solve(void *inst, const gs_limits *lim, gs_result *res,
                             gs_error *err)
{
    const gs_wallpushers *w = inst;
    int64_t t0 = gs_now_ns();
    size_t ksize = WP_CELL_BYTES + w->layout_bytes;
    gs_search_config cfg = {0};
    gs_search *s = NULL;
    uint64_t from = 0;
    char suffix[2] = {0, 0};
    int rc;

    gs_result_clear(res);
    unsigned char *cur = malloc(ksize), *next = malloc(ksize);
    cfg.key_size = ksize;
    cfg.queue = GS_QUEUE_PRIORITY;
    cfg.limits = lim;
    if (!cur || !next || (rc = gs_search_new(&cfg, &s)) != GS_OK) {
        free(cur);
        free(next);
        return gs_error_set(err, GS_ENOMEM, "cannot allocate the search");
    }
    put_cell(cur, w->start);
    memcpy(cur + WP_CELL_BYTES, w->layout, w->layout_bytes);
    uint32_t h0 = wp_bound(w, cur);
    rc = h0 == WP_NO_EXIT ? 0
                          : gs_search_add_prio(s, cur, GS_NO_PARENT, 0, 0,
                                               wp_prio(0, h0), NULL);
    if (rc >= 0 && h0 != WP_NO_EXIT)
        rc = wp_astar(w, s, cur, next, ksize, &from, &suffix[0]);
    free(cur);
    free(next);
    if (rc == GS_ENOMEM) {
        gs_search_free(s);
        return gs_error_set(err, GS_ENOMEM, "out of memory while searching");
    }
    int found = rc == 1;
    rc =
        gs_search_finish(s, found ? GS_OK : rc, found, from, suffix, true, res);
    gs_search_free(s);
    res->elapsed_ms = (double)(gs_now_ns() - t0) / 1e6;
    if (rc)
        return gs_error_set(err, rc, "out of memory building the moves");
    return GS_OK;
}

const gs_puzzle gs_puzzle_wallpushers = {
    .name = "wallpushers",
    .summary = "Walk out of a maze whose walls slide when pushed (UVa 10384 "
               "The Wall Pushers)",
    .options = "{}",
    .example = "{\"start\": [2, 1], \"walls\": [[10,2,10,10,2,6],"
               "[3,12,11,14,9,4],[13,15,3,6,15,13],[14,11,12,9,14,11]]}",
    .fields = (const char *const[]){"start", "walls", NULL},
    .text_format = "'col row' of the start (1-based), then 4 rows of 6 wall "
                   "numbers; ends with '0 0'; prints the moves or 'Impossible'",
    .parse_json = wallpushers_parse_json,
    .parse_text = wallpushers_parse_text,
    .format_text = wallpushers_format_text,
    .solve = wallpushers_solve,
    .free = wallpushers_free,
};
