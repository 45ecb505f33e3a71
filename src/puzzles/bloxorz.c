/* bloxorz.c - the 1x1x2 block rolling puzzle (POJ 3322 "Bloxorz I").
 *
 * A state is the block's anchor cell plus its orientation: standing on
 * (r,c), lying horizontally on (r,c)+(r,c+1), or lying vertically on
 * (r,c)+(r+1,c). Every roll moves the anchor by a fixed offset and changes
 * the orientation the same way wherever the block is, so the BFS runs on
 * bitsets, many states per machine word (the tiled BFS below): this is
 * the puzzle's specialised inner loop, and it keeps to the search core's
 * interface for everything else: the deadline and cancel flag
 * (gs_limits_expired), the progress counters (gs_progress_report*), the
 * state cap counted as bytes (GS_DENSE_STATE_BYTES per state allowed)
 * and the memory budget (mem.h). The board
 * itself is kept at 2 bits per cell; the search takes 1.5 bytes per cell
 * (4096x4096: about 25 MB plus the frontier).
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "gridsolve/json.h"
#include "gridsolve/mem.h"
#include "gridsolve/puzzle.h"

/* Cell kinds as stored in the instance. */
enum { CELL_HOLE = 0, CELL_FLOOR = 1, CELL_FRAGILE = 2 };

/* Orientations. */
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

/* Largest board taken: its tiles are numbered in 32 bits with a wide
 * margin; the memory budget is the bound that matters below it. */
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
    gs_mem_free(p); /* the cells come in the same block */
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
    /* One block for the instance and its cells: a tiny board's request
     * makes one allocation here, not two. */
    gs_bloxorz *b = gs_mem_calloc(1, sizeof *b + (size_t)(ncells + 3) / 4);
    if (b == NULL)
        return gs_error_set(err, GS_ENOMEM,
                            "out of memory (or memory budget) for a %ldx%ld "
                            "bloxorz grid",
                            rows, cols);
    b->cells = (uint8_t *)(b + 1);
    b->rows = rows;
    b->cols = cols;
    *out = b;
    return GS_OK;
}

/* The eight-cell path of blox_fill_row reads bytes as words: byte i of
 * the text at bits 8i (other hosts take the cell-by-cell path). */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define BLOX_LITTLE_ENDIAN 1
#else
#define BLOX_LITTLE_ENDIAN 0
#endif

/* The high bit of every byte. */
#define BLOX_HIGH 0x8080808080808080ull

/* The high bit of each byte of v that equals ch, exactly (no carry from
 * one byte into the next). */
static inline uint64_t blox_bytes_eq(uint64_t v, char ch)
{
    const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
    uint64_t t = v ^ (0x0101010101010101ull * (unsigned char)ch);
    return ~(((t & low7) + low7) | t | low7);
}

/* Packs eight bytes of 2-bit values (byte i holds cell i) into 16 bits,
 * cell i at bits 2i, 2i+1: the packed board's layout. */
static inline uint16_t blox_pack2(uint64_t x)
{
    x = (x | x >> 6) & 0x000F000F000F000Full;
    x = (x | x >> 12) & 0x000000FF000000FFull;
    return (uint16_t)(x | x >> 24);
}

/* 1 + the CELL_* value of the cells that are nothing else; 0 for the
 * rest (X, O and anything unknown). */
static const uint8_t blox_common[256] = {
    ['#'] = 1 + CELL_HOLE, ['.'] = 1 + CELL_FLOOR, ['E'] = 1 + CELL_FRAGILE};

/* Records the cell at row r, column c that is none of the common ones:
 * the start (X, at most two), the goal (O, one) or an unknown byte. */
static int blox_put_special(gs_bloxorz *b, long r, long c, unsigned char ch,
                            gs_error *err)
{
    size_t at = (size_t)r * (size_t)b->cols + (size_t)c;
    switch (ch) {
    case 'X':
        if (b->nx == 2)
            return gs_error_set(err, GS_EINVALID,
                                "grid has more than two X cells: row %ld "
                                "column %ld is a third",
                                r, c);
        b->xr[b->nx] = r;
        b->xc[b->nx] = c;
        b->nx++;
        cell_put(b->cells, at, CELL_FLOOR);
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
        cell_put(b->cells, at, CELL_FLOOR);
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
        /* Eight common cells (# . E) at a time, two whole bytes of the
         * packed board, without a branch per cell: rows of a large board
         * are millions of cells, and the branches on a random board's
         * cells were mispredicted often enough to make this loop a fifth
         * of a 4000 x 4000 solve. */
        size_t at = row + (size_t)c;
        if (BLOX_LITTLE_ENDIAN && (at & 3) == 0 && c + 8 <= b->cols) {
            uint64_t v;
            memcpy(&v, s + c, 8);
            uint64_t dot = blox_bytes_eq(v, '.'), frag = blox_bytes_eq(v, 'E');
            if ((dot | frag | blox_bytes_eq(v, '#')) == BLOX_HIGH) {
                uint16_t k = blox_pack2(dot >> 7 | frag >> 6);
                memcpy(b->cells + (at >> 2), &k, 2); /* little-endian */
                c += 7;
                continue;
            }
        }
        /* Four common cells starting a byte of the board, by table: a
         * short row (a tiny board's) never has eight. */
        if ((at & 3) == 0 && c + 4 <= b->cols) {
            unsigned k0 = blox_common[(unsigned char)s[c]],
                     k1 = blox_common[(unsigned char)s[c + 1]],
                     k2 = blox_common[(unsigned char)s[c + 2]],
                     k3 = blox_common[(unsigned char)s[c + 3]];
            if (k0 && k1 && k2 && k3) { /* a byte no other cell shares */
                b->cells[at >> 2] = (uint8_t)((k0 - 1) | (k1 - 1) << 2 |
                                              (k2 - 1) << 4 | (k3 - 1) << 6);
                c += 3;
                continue;
            }
        }
        unsigned char ch = (unsigned char)s[c];
        /* The common cells by table: a short row (a tiny board's) takes
         * this path for most cells, and a switch on a random board's
         * cells mispredicts. */
        unsigned k = blox_common[ch];
        if (k) {
            cell_put(b->cells, row + (size_t)c, k - 1);
            continue;
        }
        int rc = blox_put_special(b, r, c, ch, err);
        if (rc)
            return rc;
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
    const cJSON *arr = NULL, *it;
    int nrows = 0;
    int rc = gs_json_grid_array(body, "grid", &arr, &nrows, err);
    if (rc)
        return rc;
    gs_bloxorz *b = NULL;
    const char *first = arr->child->valuestring;
    if (first[0] == '\0')
        rc = gs_error_set(err, GS_EINVALID, "grid row 0 is empty");
    else
        rc = blox_new(nrows, (long)strlen(first), caps, &b, err);
    long r = 0;
    cJSON_ArrayForEach(it, arr)
    {
        if (rc != GS_OK)
            break;
        rc = blox_fill_row(b, r++, it->valuestring, strlen(it->valuestring),
                           err);
    }
    if (rc == GS_OK)
        rc = blox_finish(b, err);
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
    if (n == 0 && m == 0) /* the end, whatever follows, as for a judge */
        return 0;
    rc = gs_text_end_line(in, "the grid size N M", err);
    if (rc)
        return rc;
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

/* ------------------------------------------------------------ tiled BFS
 *
 * The BFS runs layer by layer over bitsets, many states per word: the
 * board is cut into tiles of 8 x 8 cells, one 64-bit word per tile and
 * orientation, bit (r & 7) * 8 + (c & 7). Every roll moves the block by a
 * fixed (dr, dc) of at most 2 cells and sets a fixed orientation, so the
 * successors of all the states of a frontier word are two shifted copies
 * of it (one in its own tile, one spilling into the tile beside, above or
 * below), masked by the open (legal, unreached) states there. A BFS
 * wavefront crosses a tile along a diagonal, several cells wide, so a word
 * carries several states and a roll costs a few instructions for all of
 * them, with no branch that depends on the board. A queue of single
 * states (10 ns per state on a 500 x 500 board) spent most of its time
 * on mispredicted "already seen?" branches.
 *
 * Memory: 12 bits per cell (open, next layer, and the distance mod 3 of
 * every reached state in two bits) plus the frontier lists. No parent is
 * stored: rolls are reversible (U/D, L/R undo each other) and legality is
 * a property of the state, so a neighbour's distance differs by at most
 * one, and the path is walked back from the goal through the neighbour
 * whose distance mod 3 is one less.
 */

/* One tile's words; the board sits in a ring of empty tiles, so a roll
 * from any legal state lands in a tile that exists. */
typedef struct blox_tile {
    uint64_t open[3];      /* legal and not reached yet, per orientation */
    uint64_t next[3];      /* reached in the layer being built */
    uint64_t lo[3], hi[3]; /* distance mod 3 of every reached state */
} blox_tile;

/* A frontier entry: one tile's states of the current layer. */
typedef struct blox_front {
    uint64_t bits[3];
    uint32_t tile;
} blox_front;

typedef struct blox_bfs {
    const gs_bloxorz *b;
    const gs_limits *lim;
    blox_tile *t;
    size_t tcols, ntiles; /* tiles per row (board + 2), tiles */
    blox_front *cur;      /* the current layer */
    uint32_t *nl;         /* tiles of the layer being built */
    size_t cap;           /* entries of cur and of nl */
    uint64_t bytes;       /* held: tiles and lists, reserved (mem.h) */
    uint64_t cap_bytes;   /* the state cap counted as bytes; 0 = none */
    enum gs_limit_kind limit;
    /* A small board's tables and lists live in the solve's stack frame
     * (blox_small): no allocation at all for a tiny request. The bytes
     * are taken from the limits all the same, so every answer and limit
     * stays as with heap tables. */
    bool t_small, lists_small;
} blox_bfs;

/* A board of at most BLOX_SMALL_TILES tiles (a 40 x 40 board, say)
 * searches in a blox_small: its lists never need more than 64 entries
 * (five per entry of a layer, at most one per tile, and the first growth
 * already makes 64). About 8 KB of stack. */
#define BLOX_SMALL_TILES 56
#define BLOX_SMALL_LIST 64

typedef struct blox_small {
    blox_tile t[BLOX_SMALL_TILES];
    blox_front cur[BLOX_SMALL_LIST];
    uint32_t nl[BLOX_SMALL_LIST];
} blox_small;

/* Tables past this are mapped directly with huge-page advice: a wavefront
 * touches a few lines in each of thousands of tile rows. */
#define BLOX_BIG_BYTES ((size_t)4 << 20)
#define BLOX_HUGE_PAGE ((size_t)2 << 20)

/* Zeroed memory for the tiles (the budget is reserved by the caller). */
static void *blox_table_alloc(size_t n)
{
    if (n < BLOX_BIG_BYTES)
        return calloc(n, 1);
    size_t len = (n + BLOX_HUGE_PAGE - 1) & ~(BLOX_HUGE_PAGE - 1);
    void *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
#ifdef MADV_HUGEPAGE
    madvise(p, len, MADV_HUGEPAGE); /* advice only: fine if refused */
#endif
    return p;
}

/* Frees a blox_table_alloc(n) block (NULL is fine). */
static void blox_table_free(void *p, size_t n)
{
    if (p == NULL)
        return;
    if (n < BLOX_BIG_BYTES)
        free(p);
    else
        munmap(p, (n + BLOX_HUGE_PAGE - 1) & ~(BLOX_HUGE_PAGE - 1));
}

/* Takes n more bytes for the search: GS_OK, or GS_ELIMIT with f->limit
 * set when the state cap (as bytes), the solve's memory limit or the
 * process budget refuses them. */
static int blox_take(blox_bfs *f, uint64_t n)
{
    if (f->cap_bytes && f->bytes + n > f->cap_bytes) {
        f->limit = GS_LIMIT_STATES;
        return GS_ELIMIT;
    }
    if ((f->lim && f->lim->max_bytes && f->bytes + n > f->lim->max_bytes) ||
        !gs_mem_reserve(n)) {
        f->limit = GS_LIMIT_MEMORY;
        return GS_ELIMIT;
    }
    f->bytes += n;
    return GS_OK;
}

/* Frees the search's tables and returns its bytes to the budget. */
static void blox_bfs_free(blox_bfs *f)
{
    if (!f->t_small)
        blox_table_free(f->t, f->ntiles * sizeof *f->t);
    if (!f->lists_small) {
        free(f->cur);
        free(f->nl);
    }
    gs_mem_release(f->bytes);
}

/* Grows the frontier lists to hold at least `want` entries. GS_OK,
 * GS_ELIMIT (f->limit says which) or GS_ENOMEM. */
static int blox_lists_grow(blox_bfs *f, size_t want)
{
    if (want <= f->cap)
        return GS_OK;
    size_t cap = f->cap ? f->cap : 64;
    while (cap < want)
        cap *= 2;
    int rc = blox_take(f, (uint64_t)(cap - f->cap) *
                              (sizeof *f->cur + sizeof *f->nl));
    if (rc)
        return rc;
    if (f->lists_small && cap <= BLOX_SMALL_LIST) {
        f->cap = cap; /* the stack's lists hold that many */
        return GS_OK;
    }
    if (f->lists_small) { /* cannot happen (see blox_small); still right */
        blox_front *cur = malloc(cap * sizeof *cur);
        uint32_t *nl = malloc(cap * sizeof *nl);
        if (cur == NULL || nl == NULL) {
            free(cur);
            free(nl);
            return GS_ENOMEM;
        }
        memcpy(cur, f->cur, f->cap * sizeof *cur);
        memcpy(nl, f->nl, f->cap * sizeof *nl);
        f->cur = cur;
        f->nl = nl;
        f->lists_small = false;
        f->cap = cap;
        return GS_OK;
    }
    blox_front *cur = realloc(f->cur, cap * sizeof *cur);
    if (cur != NULL)
        f->cur = cur;
    uint32_t *nl = realloc(f->nl, cap * sizeof *nl);
    if (nl != NULL)
        f->nl = nl;
    if (cur == NULL || nl == NULL)
        return GS_ENOMEM; /* the bytes stay counted; freed with f */
    f->cap = cap;
    return GS_OK;
}

/* The tile and bit of cell (r, c) of the board. */
static inline size_t blox_tile_of(const blox_bfs *f, long r, long c)
{
    return ((size_t)(r >> 3) + 1) * f->tcols + (size_t)(c >> 3) + 1;
}

static inline uint64_t blox_bit_of(long r, long c)
{
    return 1ull << ((r & 7) * 8 + (c & 7));
}

/* Packs the low bits of 8 bytes (each 0 or 1) into one byte, byte i to
 * bit i. */
static inline uint64_t blox_pack8(uint64_t v)
{
    return (v * 0x0102040810204080ull) >> 56;
}

/* Unpacks row r into out[0..cols), holes from cols on (out has cols + 16
 * bytes) and for the row below the board: cell by cell up to a byte
 * boundary, then four cells a byte. */
static void blox_unpack_row(const gs_bloxorz *b, long r, uint8_t *out)
{
    size_t cols = (size_t)b->cols;
    memset(out + cols, CELL_HOLE, 16);
    if (r >= b->rows) {
        memset(out, CELL_HOLE, cols);
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
}

/* Sets the open bits of every legal state: standing on rigid floor
 * (CELL_FLOOR, bit 0 of a cell), lying on two cells that are not holes
 * (a cell's two bits not both zero), the far one inside the board. Eight
 * cells at a time from unpacked rows. GS_ENOMEM when the two row buffers
 * cannot be had. */
static int blox_fill_open(blox_bfs *f)
{
    const gs_bloxorz *b = f->b;
    size_t cols = (size_t)b->cols;
    /* A narrow board's two rows fit here: no allocation. */
    uint8_t small[2][256 + 16];
    bool heap = cols > 256;
    uint8_t *cur = heap ? gs_mem_malloc(cols + 16) : small[0];
    uint8_t *next = heap ? gs_mem_malloc(cols + 16) : small[1];
    if (cur == NULL || next == NULL) {
        if (heap) {
            gs_mem_free(cur);
            gs_mem_free(next);
        }
        return GS_ENOMEM;
    }
    const uint64_t ones = 0x0101010101010101ull;
    blox_unpack_row(b, 0, cur);
    for (long r = 0; r < b->rows; r++) {
        blox_unpack_row(b, r + 1, next);
        blox_tile *t = &f->t[blox_tile_of(f, r, 0)];
        unsigned sh = (unsigned)(r & 7) * 8;
        for (size_t c = 0; c < cols; c += 8, t++) {
            uint64_t here, right, below;
            memcpy(&here, cur + c, 8);
            memcpy(&right, cur + c + 1, 8);
            memcpy(&below, next + c, 8);
            uint64_t solid = (here | here >> 1) & ones;
            t->open[STAND] |= blox_pack8(here & ones) << sh;
            t->open[HORIZ] |= blox_pack8(solid & (right | right >> 1)) << sh;
            t->open[VERT] |= blox_pack8(solid & (below | below >> 1)) << sh;
        }
        uint8_t *tmp = cur;
        cur = next;
        next = tmp;
    }
    if (heap) {
        gs_mem_free(cur);
        gs_mem_free(next);
    }
    return GS_OK;
}

/* States y[o] reach tile u in orientation o: the open ones among them
 * are cleared from open and added to the next layer, and u is listed
 * once. No branch: whether a word gains states is as random as the
 * board. */
static inline __attribute__((always_inline)) size_t
blox_reach(blox_tile *T, size_t u, const uint64_t y[3], uint32_t *nl, size_t n)
{
    blox_tile *tu = &T[u];
    uint64_t c0 = y[0] & tu->open[0], c1 = y[1] & tu->open[1],
             c2 = y[2] & tu->open[2];
    uint64_t was = tu->next[0] | tu->next[1] | tu->next[2];
    tu->open[0] ^= c0;
    tu->open[1] ^= c1;
    tu->open[2] ^= c2;
    tu->next[0] |= c0;
    tu->next[1] |= c1;
    tu->next[2] |= c2;
    nl[n] = (uint32_t)u; /* kept only when u was not listed yet */
    return n + ((was == 0) & ((c0 | c1 | c2) != 0));
}

/* Lane mask: the same 8-bit mask in every row of a tile. */
#define BLOX_LANES(m) (0x0101010101010101ull * (uint64_t)(m))

/* Where a roll sends states, as the tile they leave: their own or the
 * one above, below, left or right. */
enum { DIR_SELF = 0, DIR_UP, DIR_DOWN, DIR_LEFT, DIR_RIGHT };

/* Adds the states x of a tile, rolled by (dr, dc) into orientation `to`,
 * to y[DIR_SELF] (the part staying in the tile) and y[dir] (the part
 * crossing into the neighbour). dr, dc and to are constants in each
 * call, so every branch here folds away. */
static inline __attribute__((always_inline)) void
blox_roll(uint64_t y[5][3], uint64_t x, const int dr, const int dc,
          const unsigned to)
{
    if (dc > 0) {
        uint64_t keep = BLOX_LANES(0xFFu >> dc);
        y[DIR_SELF][to] |= (x & keep) << dc;
        y[DIR_RIGHT][to] |= (x & ~keep) >> (8 - dc);
    } else if (dc < 0) {
        uint64_t keep = BLOX_LANES((0xFFu << -dc) & 0xFFu);
        y[DIR_SELF][to] |= (x & keep) >> -dc;
        y[DIR_LEFT][to] |= (x & ~keep) << (8 + dc);
    } else if (dr > 0) {
        y[DIR_SELF][to] |= x << (8 * dr);
        y[DIR_DOWN][to] |= x >> (64 - 8 * dr);
    } else if (dr < 0) { /* (0, 0) is no roll: never called so */
        y[DIR_SELF][to] |= x >> (-8 * dr);
        y[DIR_UP][to] |= x << (64 + 8 * dr);
    }
}

/* Expands the current layer (ncur entries) into the next: returns the
 * number of tiles listed in f->nl. Each entry's twelve rolls are merged
 * per target tile first, so each of the five tiles is read and written
 * once. With `one_tile` (a board of at most 8 x 8 cells: every legal
 * state in one tile, the rest of the ring) the rolls into the four
 * neighbours, which hold no legal state, are not even tried: for the
 * README's boards they were most of the search. */
static inline __attribute__((always_inline)) size_t
blox_layer_as(blox_bfs *f, size_t ncur, const bool one_tile)
{
    blox_tile *T = f->t;
    size_t tcols = f->tcols, n = 0;
    uint32_t *nl = f->nl;
    for (size_t i = 0; i < ncur; i++) {
        const blox_front *e = &f->cur[i];
        size_t t = e->tile;
        uint64_t y[5][3] = {{0}};
#pragma GCC unroll 3
        for (unsigned o = 0; o < 3; o++)
#pragma GCC unroll 4
            for (unsigned m = 0; m < 4; m++)
                blox_roll(y, e->bits[o], blox_delta[o][m][0],
                          blox_delta[o][m][1], (unsigned)blox_delta[o][m][2]);
        n = blox_reach(T, t, y[DIR_SELF], nl, n);
        if (one_tile)
            continue;
        n = blox_reach(T, t - tcols, y[DIR_UP], nl, n);
        n = blox_reach(T, t + tcols, y[DIR_DOWN], nl, n);
        n = blox_reach(T, t - 1, y[DIR_LEFT], nl, n);
        n = blox_reach(T, t + 1, y[DIR_RIGHT], nl, n);
    }
    return n;
}

static size_t blox_layer(blox_bfs *f, size_t ncur)
{
    if (f->b->rows <= 8 && f->b->cols <= 8)
        return blox_layer_as(f, ncur, true);
    return blox_layer_as(f, ncur, false);
}

/* Number of set bits (no popcnt instruction in the baseline x86-64). */
static inline uint64_t blox_popcount(uint64_t x)
{
    x -= (x >> 1) & 0x5555555555555555ull;
    x = (x & 0x3333333333333333ull) + (x >> 2 & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0Full;
    return (x * 0x0101010101010101ull) >> 56;
}

/* Turns the n tiles listed for the next layer into the current layer,
 * recording its distance mod 3 (cls); returns its number of states. */
static uint64_t blox_gather(blox_bfs *f, size_t n, unsigned cls)
{
    uint64_t mlo = -(uint64_t)(cls & 1), mhi = -(uint64_t)(cls >> 1 & 1);
    uint64_t states = 0;
    for (size_t i = 0; i < n; i++) {
        blox_tile *t = &f->t[f->nl[i]];
        blox_front *e = &f->cur[i];
        e->tile = f->nl[i];
        for (unsigned o = 0; o < 3; o++) {
            uint64_t x = t->next[o];
            t->next[o] = 0;
            e->bits[o] = x;
            t->lo[o] |= x & mlo;
            t->hi[o] |= x & mhi;
            states += blox_popcount(x);
        }
    }
    return states;
}

/* True when (r, c, o) is a legal state of the board. */
static bool blox_legal_state(const gs_bloxorz *b, long r, long c, unsigned o)
{
    long r2 = r + (o == VERT), c2 = c + (o == HORIZ);
    if (r < 0 || c < 0 || r2 >= b->rows || c2 >= b->cols)
        return false;
    size_t cols = (size_t)b->cols;
    unsigned k = cell_at(b->cells, (size_t)r * cols + (size_t)c);
    unsigned k2 = cell_at(b->cells, (size_t)r2 * cols + (size_t)c2);
    return o == STAND ? k == CELL_FLOOR : k != CELL_HOLE && k2 != CELL_HOLE;
}

/* True when (r, c, o), a roll away from a state of the board, was
 * reached at a distance of `want` mod 3. A state never reached (illegal,
 * or in the ring of empty tiles around the board) has no marks, so for
 * want 1 or 2 the marks alone decide; class 0 is also what no marks
 * mean, so then the state must be legal and reached. */
static bool blox_class_is(const blox_bfs *f, long r, long c, unsigned o,
                          int want)
{
    const blox_tile *t = &f->t[blox_tile_of(f, r, c)];
    uint64_t bit = blox_bit_of(r, c);
    bool lo = (t->lo[o] & bit) != 0, hi = (t->hi[o] & bit) != 0;
    if (lo != (want & 1) || hi != (want >> 1))
        return false;
    return want != 0 ||
           (blox_legal_state(f->b, r, c, o) && !(t->open[o] & bit));
}

/* The rolls that end in each orientation, as (move, orientation before)
 * in the order the walk back tries them: moves U D L R, then the
 * orientation before, so that the path is the same whatever the table. */
static const uint8_t blox_into[3][4][2] = {
    /* into standing: from vertical U D, from horizontal L R */
    {{0, VERT}, {1, VERT}, {2, HORIZ}, {3, HORIZ}},
    /* into horizontal: U D lying horizontally, L R from standing */
    {{0, HORIZ}, {1, HORIZ}, {2, STAND}, {3, STAND}},
    /* into vertical: U D from standing, L R lying vertically */
    {{0, STAND}, {1, STAND}, {2, VERT}, {3, VERT}},
};

/* Walks back from the goal, reached at distance `dist`, to the start:
 * each step takes a neighbour whose distance is one less (by its
 * distance mod 3). GS_OK with res->moves set, GS_ENOMEM, or GS_EINTERNAL
 * when the marks do not lead back (cannot happen). */
static int blox_path(const blox_bfs *f, uint64_t dist, gs_result *res)
{
    char *moves = malloc(dist + 1);
    if (moves == NULL)
        return GS_ENOMEM;
    long r = f->b->gr, c = f->b->gc;
    unsigned o = STAND;
    int want = (int)(dist % 3);
    for (uint64_t d = dist; d > 0; d--) {
        want = want ? want - 1 : 2; /* (d - 1) mod 3 */
        bool stepped = false;
        for (unsigned i = 0; i < 4 && !stepped; i++) {
            unsigned m = blox_into[o][i][0], k = blox_into[o][i][1];
            const int *dl = blox_delta[k][m];
            long pr = r - dl[0], pc = c - dl[1];
            if (!blox_class_is(f, pr, pc, k, want))
                continue;
            moves[d - 1] = blox_moves[m];
            r = pr;
            c = pc;
            o = k;
            stepped = true;
        }
        if (!stepped) {
            free(moves);
            return GS_EINTERNAL;
        }
    }
    moves[dist] = '\0';
    res->moves = moves;
    res->steps = (size_t)dist;
    return GS_OK;
}

/* Publishes the counters to the progress record, if any. */
static void blox_progress(const blox_bfs *f, uint64_t expanded, uint64_t stored,
                          uint64_t depth)
{
    gs_progress_report(f->lim, expanded, stored, depth);
    gs_progress_report_bytes(f->lim, f->bytes);
}

/* Frontier entries expanded between two limit checks (about 50 us). */
#define BLOX_CHECK_EVERY 2048

/* The BFS proper, from the start to the goal state: GS_OK with res
 * filled, GS_ELIMIT (f->limit), GS_ENOMEM or GS_EINTERNAL. */
static int blox_bfs_run(blox_bfs *f, gs_result *res)
{
    const gs_bloxorz *b = f->b;
    size_t st = blox_tile_of(f, b->xr[0], b->xc[0]);
    uint64_t sbit = blox_bit_of(b->xr[0], b->xc[0]);
    unsigned so = (unsigned)b->start_o;
    size_t gt = blox_tile_of(f, b->gr, b->gc);
    uint64_t gbit = blox_bit_of(b->gr, b->gc);
    if (!(f->t[st].open[so] & sbit))
        return GS_EINTERNAL; /* X cells are floor: the start is legal */
    f->t[st].open[so] &= ~sbit;
    memset(&f->cur[0], 0, sizeof f->cur[0]);
    f->cur[0].tile = (uint32_t)st;
    f->cur[0].bits[so] = sbit;
    size_t ncur = 1;
    uint64_t expanded = 0, stored = 1, depth = 0, layer = 1;
    size_t work = BLOX_CHECK_EVERY; /* checked before the first layer */
    for (;;) {
        /* The clock every few thousand entries: a small board's layers
         * take well under a microsecond each. */
        work += ncur;
        if (work >= BLOX_CHECK_EVERY && (work = 0, gs_limits_expired(f->lim))) {
            f->limit = GS_LIMIT_TIME;
            blox_progress(f, expanded, stored, depth);
            res->expanded = expanded;
            return GS_ELIMIT;
        }
        /* A tile's successors lie in it and its four neighbours. */
        size_t room = ncur * 5 < f->ntiles ? ncur * 5 : f->ntiles;
        int rc = blox_lists_grow(f, room + 1);
        if (rc) {
            blox_progress(f, expanded, stored, depth);
            res->expanded = expanded;
            return rc;
        }
        size_t n = blox_layer(f, ncur);
        expanded += layer;
        depth++;
        bool found = (f->t[gt].next[STAND] & gbit) != 0;
        /* The last layer's marks too: the walk back reads them. */
        layer = blox_gather(f, n, (unsigned)(depth % 3));
        stored += layer;
        ncur = n;
        if (found || n == 0) {
            blox_progress(f, expanded, stored, depth);
            res->expanded = expanded;
            if (!found) {
                res->status = GS_IMPOSSIBLE;
                return GS_OK;
            }
            rc = blox_path(f, depth, res);
            if (rc == GS_OK) {
                res->status = GS_SOLVED;
                res->optimal = true;
            }
            return rc;
        }
    }
}

/* Contract: see gs_puzzle.solve. The tables are sized from the board and
 * taken from the state cap (as bytes) and the memory budgets first: a
 * refusal is a `limit` result, not an error. */
static int blox_solve(void *inst, const gs_limits *lim, gs_result *res,
                      gs_error *err)
{
    gs_bloxorz *b = inst;
    blox_bfs f = {.b = b, .lim = lim};
    f.tcols = (size_t)((b->cols + 7) / 8) + 2;
    f.ntiles = ((size_t)((b->rows + 7) / 8) + 2) * f.tcols;
    if (lim && lim->max_states)
        f.cap_bytes = lim->max_states > UINT64_MAX / GS_DENSE_STATE_BYTES
                          ? UINT64_MAX
                          : lim->max_states * GS_DENSE_STATE_BYTES;
    blox_small small; /* zeroed below only when used */
    int rc = blox_take(&f, (uint64_t)f.ntiles * sizeof *f.t);
    if (rc == GS_OK && f.ntiles <= BLOX_SMALL_TILES) {
        memset(small.t, 0, f.ntiles * sizeof *f.t);
        f.t = small.t;
        f.cur = small.cur;
        f.nl = small.nl;
        f.t_small = f.lists_small = true;
        rc = blox_lists_grow(&f, 16);
    } else if (rc == GS_OK) {
        f.t = blox_table_alloc(f.ntiles * sizeof *f.t);
        rc = f.t == NULL ? GS_ENOMEM : blox_lists_grow(&f, 16);
    }
    if (rc == GS_OK)
        rc = blox_fill_open(&f) == GS_OK ? GS_OK : GS_ELIMIT;
    if (rc == GS_ELIMIT && f.limit == GS_LIMIT_NONE)
        f.limit = GS_LIMIT_MEMORY; /* the fill's row buffers were refused */
    if (rc == GS_OK)
        rc = blox_bfs_run(&f, res);
    blox_bfs_free(&f);
    res->pushes = -1;
    /* res->elapsed_ms is left to the caller, who times every solve
     * (service.c): two clock reads of a tiny request's few. */
    if (rc == GS_ELIMIT) {
        res->status = GS_LIMIT;
        res->limit = f.limit;
        return GS_OK;
    }
    if (rc)
        return gs_error_set(err, rc, "bloxorz search failed: %s",
                            rc == GS_ENOMEM ? "out of memory" : "internal");
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
