/* bloxorz.c - the 1x1x2 block rolling puzzle (POJ 3322 "Bloxorz I").
 *
 * A state is the block's anchor cell plus its orientation: standing on
 * (r,c), lying horizontally on (r,c)+(r,c+1), or lying vertically on
 * (r,c)+(r+1,c). Every roll moves the anchor by a fixed offset and changes
 * the orientation the same way wherever the block is, so the solver runs
 * the search core in LATTICE mode: three layers (orientations) over the
 * board padded with two hole rows above and below and two hole columns on
 * the right (a roll from a legal state then never leaves the array), one
 * bit per state marking it legal and unvisited, 2 bits for the move that
 * reached it, and the core's BFS loop. The board itself is kept at 2 bits
 * per cell. About 0.6 bytes per cell in all (4096x4096: about 10 MB plus
 * the frontier), drawn from the memory budget (mem.h).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/json.h"
#include "gridsolve/mem.h"
#include "gridsolve/puzzle.h"

/* Cell kinds as stored in the instance. */
enum { CELL_HOLE = 0, CELL_FLOOR = 1, CELL_FRAGILE = 2 };

/* Orientations, the low part of a dense state id. */
enum { STAND = 0, HORIZ = 1, VERT = 2 };

typedef struct gs_bloxorz {
    long rows, cols;
    uint8_t *cells; /* rows*cols CELL_* values, 2 bits each, 4 per byte */
    /* Start and goal, filled while rows are read. */
    int nx; /* X cells seen so far (0..2) */
    long xr[2], xc[2];
    int no; /* O cells seen so far */
    long gr, gc;
    int start_o; /* orientation of the start */
} gs_bloxorz;

/* Largest board the core's lattice numbers (3 padded layers in 2^30
 * states), with room for the padding. */
#define BLOX_MAX_CELLS ((uint64_t)300000000)

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

/* Cell i of the packed board. */
static inline unsigned cell_at(const uint8_t *cells, size_t i)
{
    return cells[i >> 2] >> ((i & 3) * 2) & 3;
}

static inline void cell_put(uint8_t *cells, size_t i, unsigned k)
{
    cells[i >> 2] |= (uint8_t)(k << ((i & 3) * 2));
}

static void blox_free(void *p)
{
    gs_bloxorz *b = p;
    if (b == NULL)
        return;
    gs_mem_free(b->cells);
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
    b->cells = gs_mem_calloc((size_t)(ncells + 3) / 4, 1);
    if (b->cells == NULL) {
        free(b);
        return gs_error_set(err, GS_ENOMEM,
                            "out of memory (or memory budget) for a %ldx%ld "
                            "bloxorz grid",
                            rows, cols);
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
    size_t row = (size_t)r * (size_t)b->cols;
    for (long c = 0; c < b->cols; c++) {
        unsigned char ch = (unsigned char)s[c];
        /* The common cells first, without the switch: rows of a large
         * board are millions of them. */
        if (ch == '.') {
            cell_put(b->cells, row + (size_t)c, CELL_FLOOR);
            continue;
        }
        switch (ch) {
        case '#':
            break; /* CELL_HOLE: the calloc'd zero */
        case '.':
            cell_put(b->cells, row + (size_t)c, CELL_FLOOR);
            break;
        case 'E':
            cell_put(b->cells, row + (size_t)c, CELL_FRAGILE);
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
            cell_put(b->cells, row + (size_t)c, CELL_FLOOR);
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
            cell_put(b->cells, row + (size_t)c, CELL_FLOOR);
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

/* Checks the start and goal once every row is in; sets the start's
 * orientation. */
static int blox_finish(gs_bloxorz *b, gs_error *err)
{
    if (b->nx == 0)
        return gs_error_set(err, GS_EINVALID, "grid has no X (start) cell");
    if (b->no == 0)
        return gs_error_set(err, GS_EINVALID, "grid has no O (goal) cell");
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
    b->start_o = o;
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

/* The padded board the lattice runs on: two hole rows above and below,
 * two hole columns on the right (a roll left from column 0 or 1 lands in
 * the previous row's right padding). */
typedef struct blox_pad {
    uint64_t w;     /* padded row length: cols + 2 */
    uint32_t cells; /* (rows + 4) * w */
} blox_pad;

static uint64_t pad_cell(const blox_pad *p, long r, long c)
{
    return (uint64_t)(r + 2) * p->w + (uint64_t)c;
}

/* The rolls as a lattice: offsets from blox_delta on the padded board. */
static void blox_lattice(const gs_bloxorz *b, const blox_pad *p, gs_lattice *l)
{
    memset(l, 0, sizeof *l);
    l->layers = 3;
    l->moves = 4;
    l->cells = p->cells;
    for (int o = 0; o < 3; o++)
        for (int m = 0; m < 4; m++) {
            const int *d = blox_delta[o][m];
            l->offset[o][m] = (int64_t)d[0] * (int64_t)p->w + d[1];
            l->to[o][m] = (unsigned char)d[2];
        }
    memcpy(l->name, blox_moves, 4);
}

/* Legal orientations (bits STAND, HORIZ, VERT) of a cell of kind k whose
 * right and lower neighbours are of kinds right and below, indexed by
 * k | right << 2 | below << 4: standing needs rigid floor, lying needs
 * the cell and its far neighbour not to be holes. A table, because the
 * board's every cell goes through it. */
static const uint8_t blox_legal[64] = {
    0, 1, 0, 0, 0, 3, 2, 0, 0, 3, 2, 0, 0, 1, 0, 0, 0, 5, 4, 0, 0, 7,
    6, 0, 0, 7, 6, 0, 0, 5, 4, 0, 0, 5, 4, 0, 0, 7, 6, 0, 0, 7, 6, 0,
    0, 5, 4, 0, 0, 1, 0, 0, 0, 3, 2, 0, 0, 3, 2, 0, 0, 1, 0, 0,
};

/* Unpacks row r into out[0..cols], holes past the end and below the
 * board: cell by cell up to a byte boundary, then four cells a byte. */
static void blox_unpack_row(const gs_bloxorz *b, long r, uint8_t *out)
{
    size_t cols = (size_t)b->cols;
    if (r >= b->rows) {
        memset(out, CELL_HOLE, cols + 1);
        return;
    }
    size_t at = (size_t)r * cols, c = 0;
    for (; c < cols && ((at + c) & 3); c++)
        out[c] = (uint8_t)cell_at(b->cells, at + c);
    for (const uint8_t *p = b->cells + ((at + c) >> 2); c + 4 <= cols;
         c += 4, p++) {
        out[c] = *p & 3;
        out[c + 1] = *p >> 2 & 3;
        out[c + 2] = *p >> 4 & 3;
        out[c + 3] = *p >> 6;
    }
    for (; c < cols; c++)
        out[c] = (uint8_t)cell_at(b->cells, at + c);
    out[cols] = CELL_HOLE;
}

/* Sets the legal states of each cell in the core's lattice bitset:
 * standing on rigid floor, lying on two cells that are not holes (the far
 * one inside the board). Row by row from unpacked rows, 16 cells to a
 * bitset word. GS_ENOMEM when the two row buffers cannot be had. */
static int blox_fill_bits(const gs_bloxorz *b, const blox_pad *p,
                          uint64_t *bits)
{
    size_t cols = (size_t)b->cols;
    uint8_t *cur = gs_mem_malloc(cols + 1), *next = gs_mem_malloc(cols + 1);
    if (cur == NULL || next == NULL) {
        gs_mem_free(cur);
        gs_mem_free(next);
        return GS_ENOMEM;
    }
    blox_unpack_row(b, 0, cur);
    for (long r = 0; r < b->rows; r++) {
        blox_unpack_row(b, r + 1, next);
        uint64_t i = gs_lattice_id(pad_cell(p, r, 0), 0);
        uint64_t acc = bits[i >> 6];
        for (size_t c = 0; c < cols; c++, i += GS_LATTICE_MAX) {
            acc |= (uint64_t)blox_legal[cur[c] | cur[c + 1] << 2 | next[c] << 4]
                   << (i & 63);
            if ((i & 63) == 64 - GS_LATTICE_MAX) {
                bits[i >> 6] = acc;
                acc = 0;
            }
        }
        if (i & 63)
            bits[i >> 6] |= acc;
        uint8_t *t = cur;
        cur = next;
        next = t;
    }
    gs_mem_free(cur);
    gs_mem_free(next);
    return GS_OK;
}

static int blox_solve(void *inst, const gs_limits *lim, gs_result *res,
                      gs_error *err)
{
    gs_bloxorz *b = inst;
    int64_t t0 = gs_now_ns();
    blox_pad pad = {.w = (uint64_t)b->cols + 2};
    pad.cells = (uint32_t)(((uint64_t)b->rows + 4) * pad.w);
    gs_lattice lat;
    blox_lattice(b, &pad, &lat);
    gs_search_config cfg = {
        .queue = GS_QUEUE_FIFO, .limits = lim, .lattice = &lat};
    gs_search *s = NULL;
    int rc = gs_search_new(&cfg, &s);
    if (rc)
        return gs_error_set(err, rc,
                            "cannot allocate the bloxorz search for "
                            "a %ldx%ld grid",
                            b->rows, b->cols);
    uint64_t start =
        gs_lattice_id(pad_cell(&pad, b->xr[0], b->xc[0]), (unsigned)b->start_o);
    uint64_t goal = gs_lattice_id(pad_cell(&pad, b->gr, b->gc), STAND);
    uint64_t *bits = gs_search_lattice_bits(s);
    bool found = false;
    rc = bits ? blox_fill_bits(b, &pad, bits) : GS_OK;
    if (rc != GS_OK) {
        /* Two rows of scratch refused: the budget is exhausted. */
        gs_search_free(s);
        res->status = GS_LIMIT;
        res->limit = GS_LIMIT_MEMORY;
        res->elapsed_ms = (double)(gs_now_ns() - t0) / 1e6;
        return GS_OK;
    }
    rc = gs_search_lattice_run(s, start, goal, &found);
    if (rc < 0 && rc != GS_ELIMIT) {
        gs_search_free(s);
        return gs_error_set(err, rc, "bloxorz search failed: %s",
                            rc == GS_ENOMEM ? "out of memory" : "internal");
    }
    rc = gs_search_finish(s, rc, found, goal, NULL, true, res);
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
