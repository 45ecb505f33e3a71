/* bloxorz.c - the 1x1x2 block rolling puzzle (POJ 3322 "Bloxorz I").
 *
 * A state is the block's anchor cell plus its orientation: standing on
 * (r,c), lying horizontally on (r,c)+(r,c+1), or lying vertically on
 * (r,c)+(r+1,c). That numbers every state as 3*cell + orientation, so the
 * solver runs the search core in DENSE mode: one byte per state holding the
 * move that reached it, FIFO BFS, and the predecessor recomputed by rolling
 * back (every roll is undone by the opposite roll). Memory stays
 * proportional to the board (one byte per cell for the grid, three for the
 * visited set, plus a 32-bit queue slot per live state), so boards far past
 * the judge's 500x500 fit: 4096x4096 peaks at about 85 MB.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/json.h"
#include "gridsolve/puzzle.h"

/* Cell kinds as stored in the instance. */
enum { CELL_HOLE = 0, CELL_FLOOR = 1, CELL_FRAGILE = 2 };

/* Orientations, the low part of a dense state id. */
enum { STAND = 0, HORIZ = 1, VERT = 2 };

typedef struct gs_bloxorz {
    long rows, cols;
    uint8_t *cells; /* rows*cols CELL_* values */
    /* Start and goal, filled while rows are read. */
    int nx; /* X cells seen so far (0..2) */
    long xr[2], xc[2];
    int no; /* O cells seen so far */
    long gr, gc;
    uint64_t start; /* dense id of the start state */
    uint64_t goal;  /* dense id of standing on O */
} gs_bloxorz;

/* Largest board the 32-bit dense state numbering of the core covers. */
#define BLOX_MAX_CELLS ((uint64_t)UINT32_MAX / 3)

static const char blox_moves[4] = {'U', 'D', 'L', 'R'};

/* Row, column and orientation deltas of each move, per orientation:
 * blox_delta[o][m] = {dr, dc, new orientation}. Matches PUZZLES.md. */
static const int blox_delta[3][4][3] = {
    /* standing: U, D, L, R */
    {{-2, 0, VERT}, {1, 0, VERT}, {0, -2, HORIZ}, {0, 1, HORIZ}},
    /* lying horizontally */
    {{-1, 0, HORIZ}, {1, 0, HORIZ}, {0, -1, STAND}, {0, 2, STAND}},
    /* lying vertically */
    {{-1, 0, STAND}, {2, 0, STAND}, {0, -1, VERT}, {0, 1, VERT}},
};

/* Index of a move letter in blox_moves, or -1. */
static int move_index(unsigned char m)
{
    switch (m) {
    case 'U':
        return 0;
    case 'D':
        return 1;
    case 'L':
        return 2;
    case 'R':
        return 3;
    default:
        return -1;
    }
}

/* The opposite roll: U<->D, L<->R. */
static int opposite(int mi)
{
    return mi ^ 1;
}

static void blox_free(void *p)
{
    gs_bloxorz *b = p;
    if (b == NULL)
        return;
    free(b->cells);
    free(b);
}

/* Allocates an empty rows x cols instance after checking the size against
 * the configured cap. */
static int blox_new(long rows, long cols, const gs_caps *caps, gs_bloxorz **out,
                    gs_error *err)
{
    *out = NULL;
    if (rows < 1 || cols < 1)
        return gs_error_set(err, GS_EINVALID,
                            "grid size %ldx%ld is invalid, rows and columns "
                            "must be at least 1",
                            rows, cols);
    /* Each side is below 2^32 here, so the product cannot overflow. */
    uint64_t ncells =
        (uint64_t)rows > BLOX_MAX_CELLS || (uint64_t)cols > BLOX_MAX_CELLS
            ? UINT64_MAX
            : (uint64_t)rows * (uint64_t)cols;
    if (caps != NULL && caps->max_cells > 0 && ncells > caps->max_cells)
        return gs_error_set(err, GS_EINVALID,
                            "grid %ldx%ld is above the maximum of %llu cells",
                            rows, cols, (unsigned long long)caps->max_cells);
    /* The dense search numbers states 3*cell+o in 32 bits. */
    if (ncells > BLOX_MAX_CELLS)
        return gs_error_set(err, GS_EINVALID,
                            "grid %ldx%ld is above the %llu cells the bloxorz "
                            "solver supports",
                            rows, cols, (unsigned long long)BLOX_MAX_CELLS);
    gs_bloxorz *b = calloc(1, sizeof *b);
    if (b == NULL)
        return gs_error_set(err, GS_ENOMEM, "out of memory for bloxorz");
    b->cells = malloc((size_t)ncells);
    if (b->cells == NULL) {
        free(b);
        return gs_error_set(err, GS_ENOMEM,
                            "out of memory for a %ldx%ld bloxorz grid", rows,
                            cols);
    }
    b->rows = rows;
    b->cols = cols;
    *out = b;
    return GS_OK;
}

/* Reads grid row r (0-based) from s[0..n). Records X and O positions and
 * rejects unknown characters, a third X and a second O. */
static int blox_fill_row(gs_bloxorz *b, long r, const char *s, size_t n,
                         gs_error *err)
{
    if (n != (size_t)b->cols)
        return gs_error_set(err, GS_EINVALID,
                            "grid row %ld has %zu cells, expected %ld", r, n,
                            b->cols);
    uint8_t *row = b->cells + (size_t)r * (size_t)b->cols;
    for (long c = 0; c < b->cols; c++) {
        unsigned char ch = (unsigned char)s[c];
        switch (ch) {
        case '#':
            row[c] = CELL_HOLE;
            break;
        case '.':
            row[c] = CELL_FLOOR;
            break;
        case 'E':
            row[c] = CELL_FRAGILE;
            break;
        case 'X':
            if (b->nx == 2)
                return gs_error_set(err, GS_EINVALID,
                                    "grid has more than two X cells: row %ld "
                                    "column %ld is a third",
                                    r, c);
            b->xr[b->nx] = r;
            b->xc[b->nx] = c;
            b->nx++;
            row[c] = CELL_FLOOR;
            break;
        case 'O':
            if (b->no == 1)
                return gs_error_set(err, GS_EINVALID,
                                    "grid has two O cells: row %ld column %ld "
                                    "and row %ld column %ld",
                                    b->gr, b->gc, r, c);
            b->gr = r;
            b->gc = c;
            b->no = 1;
            row[c] = CELL_FLOOR;
            break;
        default:
            if (ch >= 0x20 && ch < 0x7f)
                return gs_error_set(err, GS_EINVALID,
                                    "grid row %ld column %ld has unknown cell "
                                    "'%c', expected one of # . E X O",
                                    r, c, ch);
            return gs_error_set(err, GS_EINVALID,
                                "grid row %ld column %ld has unknown cell "
                                "byte 0x%02x, expected one of # . E X O",
                                r, c, ch);
        }
    }
    return GS_OK;
}

/* Checks the start and goal once every row is in and sets the dense ids. */
static int blox_finish(gs_bloxorz *b, gs_error *err)
{
    if (b->nx == 0)
        return gs_error_set(err, GS_EINVALID, "grid has no X (start) cell");
    if (b->no == 0)
        return gs_error_set(err, GS_EINVALID, "grid has no O (goal) cell");
    uint64_t cols = (uint64_t)b->cols;
    uint64_t cell = (uint64_t)b->xr[0] * cols + (uint64_t)b->xc[0];
    int o = STAND;
    if (b->nx == 2) {
        /* Rows are scanned in order, so the second X is right or below. */
        if (b->xr[0] == b->xr[1] && b->xc[1] == b->xc[0] + 1)
            o = HORIZ;
        else if (b->xc[0] == b->xc[1] && b->xr[1] == b->xr[0] + 1)
            o = VERT;
        else
            return gs_error_set(err, GS_EINVALID,
                                "X cells at row %ld column %ld and row %ld "
                                "column %ld are not adjacent",
                                b->xr[0], b->xc[0], b->xr[1], b->xc[1]);
    }
    b->start = 3 * cell + (uint64_t)o;
    b->goal = 3 * ((uint64_t)b->gr * cols + (uint64_t)b->gc) + STAND;
    return GS_OK;
}

static int blox_parse_json(const cJSON *body, const gs_caps *caps, void **inst,
                           gs_error *err)
{
    *inst = NULL;
    const char **rows = NULL;
    int nrows = 0;
    int rc = gs_json_grid(body, "grid", &rows, &nrows, err);
    if (rc)
        return rc;
    gs_bloxorz *b = NULL;
    if (rows[0][0] == '\0')
        rc = gs_error_set(err, GS_EINVALID, "grid row 0 is empty");
    else
        rc = blox_new(nrows, (long)strlen(rows[0]), caps, &b, err);
    for (int r = 0; rc == GS_OK && r < nrows; r++)
        rc = blox_fill_row(b, r, rows[r], strlen(rows[r]), err);
    if (rc == GS_OK)
        rc = blox_finish(b, err);
    free(rows);
    if (rc) {
        blox_free(b);
        return rc;
    }
    *inst = b;
    return GS_OK;
}

/* Trims surrounding blanks (and a stray '\r') off a judge grid line. */
static void trim(const char **s, size_t *n)
{
    while (*n > 0 && ((*s)[0] == ' ' || (*s)[0] == '\t')) {
        (*s)++;
        (*n)--;
    }
    while (*n > 0 && ((*s)[*n - 1] == ' ' || (*s)[*n - 1] == '\t' ||
                      (*s)[*n - 1] == '\r'))
        (*n)--;
}

static int blox_parse_text(gs_text *in, const gs_caps *caps, void **inst,
                           gs_error *err)
{
    *inst = NULL;
    long n, m;
    int rc = gs_text_int(in, &n, "grid rows N", err);
    if (rc <= 0)
        return rc; /* 0: end of input */
    rc = gs_text_need_int(in, &m, "grid columns M", err);
    if (rc < 0)
        return rc;
    int header_line = in->line;
    gs_text_skip_line(in);
    if (n == 0 && m == 0)
        return 0;
    gs_bloxorz *b = NULL;
    rc = blox_new(n, m, caps, &b, err);
    if (rc) {
        gs_error_prefix(err, "line %d: ", header_line);
        return rc;
    }
    for (long r = 0; r < n; r++) {
        const char *s;
        size_t len;
        gs_text_skip_blank_lines(in);
        int line = in->line;
        if (!gs_text_line(in, &s, &len)) {
            gs_error_set(err, GS_EINVALID,
                         "line %d: input ended after %ld of %ld grid rows",
                         line, r, n);
            blox_free(b);
            return GS_EINVALID;
        }
        trim(&s, &len);
        rc = blox_fill_row(b, r, s, len, err);
        if (rc) {
            gs_error_prefix(err, "line %d: ", line);
            blox_free(b);
            return rc;
        }
    }
    rc = blox_finish(b, err);
    if (rc) {
        gs_error_prefix(err, "line %d: ", header_line);
        blox_free(b);
        return rc;
    }
    *inst = b;
    return 1;
}

static void blox_format_text(const void *inst, const gs_result *res, int index,
                             gs_buf *out)
{
    gs_judge_line(out, res, "", "Impossible", false);
}

/* Rolls state (cell, o) by move mi. Returns 1 with *next set when the
 * result is legal: every covered cell on the board and not a hole, and a
 * standing block not on fragile floor. */
static int blox_roll(const gs_bloxorz *b, uint64_t id, int mi, uint64_t *next)
{
    uint64_t cell = id / 3;
    int o = (int)(id % 3);
    long r = (long)(cell / (uint64_t)b->cols);
    long c = (long)(cell % (uint64_t)b->cols);
    const int *d = blox_delta[o][mi];
    long nr = r + d[0], nc = c + d[1];
    int no = d[2];
    /* The far cell covered by a lying block. */
    long fr = nr + (no == VERT), fc = nc + (no == HORIZ);
    if (nr < 0 || nc < 0 || fr >= b->rows || fc >= b->cols)
        return 0;
    size_t at = (size_t)nr * (size_t)b->cols + (size_t)nc;
    size_t far = (size_t)fr * (size_t)b->cols + (size_t)fc;
    uint8_t k = b->cells[at];
    if (k == CELL_HOLE || b->cells[far] == CELL_HOLE)
        return 0;
    if (no == STAND && k == CELL_FRAGILE)
        return 0;
    *next = 3 * (uint64_t)at + (uint64_t)no;
    return 1;
}

/* dense_parent for the search core: the state that `move` was applied to
 * is the one the opposite roll leads back to. Only called on states the
 * search reached, so the roll back stays on the board. */
static uint64_t blox_dense_parent(void *ctx, uint64_t id, unsigned char move)
{
    const gs_bloxorz *b = ctx;
    int mi = move_index(move);
    if (mi < 0)
        return GS_NO_PARENT;
    uint64_t cell = id / 3;
    int o = (int)(id % 3);
    long r = (long)(cell / (uint64_t)b->cols);
    long c = (long)(cell % (uint64_t)b->cols);
    const int *d = blox_delta[o][opposite(mi)];
    uint64_t at =
        (uint64_t)(r + d[0]) * (uint64_t)b->cols + (uint64_t)(c + d[1]);
    return 3 * at + (uint64_t)d[2];
}

/* Expands every state of the BFS until the goal is generated, the space is
 * exhausted (0) or a limit/error stops it (negative). Sets *found. */
static int blox_bfs(const gs_bloxorz *b, gs_search *s, bool *found)
{
    uint64_t id;
    int rc;
    *found = false;
    while ((rc = gs_search_pop(s, &id)) == 1) {
        for (int mi = 0; mi < 4; mi++) {
            uint64_t next;
            if (!blox_roll(b, id, mi, &next))
                continue;
            rc = gs_search_add(s, &next, id, (unsigned char)blox_moves[mi],
                               NULL);
            if (rc < 0)
                return rc;
            if (rc == 1 && next == b->goal) {
                *found = true;
                return 0;
            }
        }
    }
    return rc;
}

static int blox_solve(void *inst, const gs_limits *lim, gs_result *res,
                      gs_error *err)
{
    gs_bloxorz *b = inst;
    int64_t t0 = gs_now_ns();
    gs_search_config cfg = {
        .dense_count = 3 * (uint64_t)b->rows * (uint64_t)b->cols,
        .dense_parent = blox_dense_parent,
        .ctx = b,
        .queue = GS_QUEUE_FIFO,
        .limits = lim,
    };
    gs_search *s = NULL;
    int rc = gs_search_new(&cfg, &s);
    if (rc)
        return gs_error_set(err, rc,
                            "cannot allocate the bloxorz search for "
                            "a %ldx%ld grid",
                            b->rows, b->cols);
    bool found = false;
    rc = gs_search_add(s, &b->start, GS_NO_PARENT, 0, NULL);
    if (rc >= 0)
        rc = blox_bfs(b, s, &found);
    if (rc < 0 && rc != GS_ELIMIT) {
        gs_search_free(s);
        return gs_error_set(err, rc, "bloxorz search failed: %s",
                            rc == GS_ENOMEM ? "out of memory" : "internal");
    }
    rc = gs_search_finish(s, rc, found, b->goal, NULL, true, res);
    gs_search_free(s);
    if (rc)
        return gs_error_set(err, rc,
                            "out of memory building the bloxorz "
                            "move string");
    res->pushes = -1;
    res->elapsed_ms = (double)(gs_now_ns() - t0) / 1e6;
    return GS_OK;
}

const gs_puzzle gs_puzzle_bloxorz = {
    .name = "bloxorz",
    .summary = "Roll a 1x1x2 block to stand on the goal (POJ 3322 Bloxorz I)",
    .options = "{}",
    .example = "{\"grid\": [\"#######\", \"#..X###\", \"#..##O#\", "
               "\"#....E#\", \"#....E#\", \"#.....#\", \"#######\"]}",
    .reports_pushes = false,
    .fields = (const char *const[]){"grid", NULL},
    .text_format = "'N M', then N rows of cells; ends with '0 0'; prints the "
                   "steps or 'Impossible'",
    .parse_json = blox_parse_json,
    .parse_text = blox_parse_text,
    .format_text = blox_format_text,
    .solve = blox_solve,
    .free = blox_free,
};
