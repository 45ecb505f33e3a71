/* parse.c - reading sokoban levels: JSON bodies (XSB or the contest's
 * seed notation), judge text in the contest notation (`N M` and N rows),
 * and judge text as XSB collections are published on the web (levels
 * separated by blank, title or `;` comment lines). Writes the judge lines.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "gridsolve/json.h"
#include "sokoban.h"

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

void gs_sokoban_free(void *inst)
{
    gs_sokoban *g = inst;
    if (!g)
        return;
    free(g->cell);
    free(g);
}

/* Reads the cells of rows into g (its grid allocated and cleared): the
 * flags, the player, the counts of boxes and goals. GS_OK or an error
 * naming the row and column. */
static int build_cells(gs_sokoban *g, const char *const *rows,
                       const size_t *lens, bool seed, gs_error *err)
{
    for (int r = 0; r < g->rows; r++) {
        for (size_t c = 0; c < lens[r]; c++) {
            int is_player;
            char buf[16];
            int f = seed ? seed_flags(rows[r][c], &is_player)
                         : xsb_flags(rows[r][c], &is_player);
            int at = r * g->cols + (int)c;
            if (f < 0)
                return gs_error_set(
                    err, GS_EINVALID,
                    "grid row %d, column %zu: unknown cell character %s", r, c,
                    show_char(rows[r][c], buf, sizeof buf));
            if (is_player && g->player >= 0)
                return gs_error_set(err, GS_EINVALID,
                                    "grid row %d, column %zu: a second player "
                                    "(the first is at row %d, column %d)",
                                    r, c, g->player / g->cols,
                                    g->player % g->cols);
            if (is_player)
                g->player = at;
            g->cell[at] = (uint8_t)f;
            g->nboxes += (f & SOK_BOX) != 0;
            g->ngoals += (f & SOK_GOAL) != 0;
        }
    }
    const char *pl = seed ? "'X'" : "'@' or '+'";
    const char *bx = seed ? "'*'" : "'$' or '*'";
    if (g->player < 0)
        return gs_error_set(err, GS_EINVALID, "grid has no player (%s)", pl);
    if (g->nboxes == 0)
        return gs_error_set(err, GS_EINVALID, "grid has no box (%s)", bx);
    if (g->ngoals < g->nboxes)
        return gs_error_set(err, GS_EINVALID,
                            "grid has more boxes (%d) than goals (%d)",
                            g->nboxes, g->ngoals);
    return GS_OK;
}

int gs_sokoban_build(const char *const *rows, const size_t *lens, int nrows,
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
    /* The cell index is an int: past that, whatever the caps say. */
    uint64_t most = 0x7fffffff;
    if (caps && caps->max_cells && caps->max_cells < most)
        most = caps->max_cells;
    if (cells > most)
        return gs_error_set(err, GS_EINVALID,
                            "grid is %d x %zu = %llu cells, above the maximum "
                            "of %llu",
                            nrows, cols, (unsigned long long)cells,
                            (unsigned long long)most);
    gs_sokoban *g = calloc(1, sizeof *g);
    if (!g || !(g->cell = calloc((size_t)cells, 1))) {
        free(g);
        return gs_error_set(err, GS_ENOMEM, "out of memory for the grid");
    }
    g->rows = nrows;
    g->cols = (int)cols;
    g->player = -1;
    int rc = build_cells(g, rows, lens, seed, err);
    if (rc) {
        gs_sokoban_free(g);
        return rc;
    }
    *out = g;
    return GS_OK;
}

/* JSON body: "grid" rows, optional "notation" (xsb | seed) and "optimize"
 * (moves | pushes | any). 400 for mistyped fields, 422 for bad levels. */
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
    rc = gs_sokoban_build(rows, lens, nrows, seed, caps, &g, err);
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
static int parse_contest(gs_text *in, const gs_caps *caps, void **inst,
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
    if (n == 0 && m == 0) /* the end, whatever follows, as for a judge */
        return 0;
    rc = gs_text_end_line(in, "the grid size N M", err);
    if (rc)
        return rc;
    if (n < 1 || m < 1)
        return gs_error_set(err, GS_EINVALID,
                            "line %d: grid size %ld x %ld must be positive",
                            hline, n, m);
    /* Sides past int could wrap the product: named without it. */
    if (n > 0x7fffffff || m > 0x7fffffff)
        return gs_error_set(err, GS_EINVALID,
                            "line %d: grid size %ld x %ld is too large", hline,
                            n, m);
    if (caps && caps->max_cells && (uint64_t)n * (uint64_t)m > caps->max_cells)
        return gs_error_set(err, GS_EINVALID,
                            "line %d: grid is %ld x %ld = %llu cells, above "
                            "the maximum of %llu",
                            hline, n, m,
                            (unsigned long long)((uint64_t)n * (uint64_t)m),
                            (unsigned long long)caps->max_cells);
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
    rc = gs_sokoban_build(rows, lens, (int)n, true, caps, &g, err);
    free(rows);
    free(lens);
    if (rc) { /* the case's header line, as bloxorz and curling name it */
        gs_error_prefix(err, "line %d: ", hline);
        return rc;
    }
    *inst = g;
    return 1;
}

/* ------------------------------------------------------------ XSB text */

/* Longest title kept for error messages. */
#define SOK_TITLE_MAX 80

/* Whether a line is a row of an XSB level: past any leading floor padding
 * (` `, `-`, `_`, and tabs, which the build then refuses) it starts with a
 * wall. Other characters of the row are checked when the level is built,
 * so a typo is an error, not a comment, and an indented level is not
 * skipped as one. */
static bool is_grid_row(const char *s, size_t n)
{
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t' || s[i] == '-' || s[i] == '_'))
        i++;
    return i < n && s[i] == '#';
}

/* Whether a line holds only whitespace. */
static bool is_blank(const char *s, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isspace((unsigned char)s[i]))
            return false;
    return true;
}

/* Copies a title line (`; text` or `Title: text`) into title, trimmed. */
static void keep_title(const char *s, size_t n, char *title)
{
    size_t skip = s[0] == ';' ? 1 : 6; /* ";" or "Title:" */
    s += skip;
    n -= skip;
    while (n > 0 && isspace((unsigned char)*s)) {
        s++;
        n--;
    }
    while (n > 0 && isspace((unsigned char)s[n - 1]))
        n--;
    if (n > SOK_TITLE_MAX)
        n = SOK_TITLE_MAX;
    memcpy(title, s, n);
    title[n] = '\0';
}

/* Reads the next level of an XSB collection: metadata lines before it
 * (`;` comments, `Title:`, `Author:`, blank lines, any text) are skipped,
 * the last `;` or `Title:` line naming it; the level is the following run
 * of grid rows. Returns 1 with *inst set, 0 when no level is left. */
static int parse_xsb(gs_text *in, const gs_caps *caps, void **inst,
                     gs_error *err)
{
    char title[SOK_TITLE_MAX + 1] = "";
    const char *s;
    size_t n;
    gs_text at;
    for (;;) { /* up to the first row of the level */
        at = *in;
        if (!gs_text_line(in, &s, &n))
            return 0;
        if (is_grid_row(s, n))
            break;
        if (n > 0 && s[0] == ';')
            keep_title(s, n, title);
        else if (n >= 6 && strncasecmp(s, "Title:", 6) == 0)
            keep_title(s, n, title);
    }
    int first = at.line, nrows = 0, cap = 16;
    const char **rows = malloc(sizeof *rows * (size_t)cap);
    size_t *lens = malloc(sizeof *lens * (size_t)cap);
    int rc = rows && lens ? GS_OK : GS_ENOMEM;
    *in = at;
    while (rc == GS_OK) {
        at = *in;
        if (!gs_text_line(in, &s, &n))
            break;
        if (!is_grid_row(s, n)) {
            *in = at; /* the next level's metadata starts here */
            break;
        }
        if (nrows == cap) {
            cap *= 2;
            const char **nr = realloc(rows, sizeof *nr * (size_t)cap);
            if (nr)
                rows = nr;
            size_t *nl = nr ? realloc(lens, sizeof *nl * (size_t)cap) : NULL;
            if (nl)
                lens = nl;
            if (!nr || !nl) {
                rc = GS_ENOMEM;
                break;
            }
        }
        rows[nrows] = s;
        lens[nrows++] = n;
    }
    gs_sokoban *g = NULL;
    if (rc == GS_OK)
        rc = gs_sokoban_build(rows, lens, nrows, false, caps, &g, err);
    else
        gs_error_set(err, rc, "out of memory for the grid");
    free(rows);
    free(lens);
    if (rc) {
        if (title[0])
            gs_error_prefix(err, "level \"%s\" at line %d: ", title, first);
        else
            gs_error_prefix(err, "level at line %d: ", first);
        return rc;
    }
    g->text_format = SOK_TEXT_XSB;
    *inst = g;
    return 1;
}

/* Whether the first non-blank line of the input is two integers: the
 * contest notation's `N M` header. No XSB row or title looks like that. */
static bool starts_with_header(const gs_text *in)
{
    gs_text t = *in;
    const char *s;
    size_t n;
    while (gs_text_line(&t, &s, &n)) {
        if (is_blank(s, n))
            continue;
        int ints = 0;
        size_t i = 0;
        for (;;) {
            while (i < n && isspace((unsigned char)s[i]))
                i++;
            if (i == n)
                break;
            if (s[i] == '-' || s[i] == '+')
                i++;
            if (i == n || !isdigit((unsigned char)s[i]))
                return false;
            while (i < n && isdigit((unsigned char)s[i]))
                i++;
            ints++;
        }
        return ints == 2;
    }
    return false;
}

/* Judge text: the request names the notation (`xsb` or `contest`), or the
 * first case decides it once for the whole body: contest text starts with
 * its `N M` header line, anything else is read as XSB. */
static int sokoban_parse_text(gs_text *in, const gs_caps *caps, void **inst,
                              gs_error *err)
{
    *inst = NULL;
    if (in->format == NULL)
        in->format = starts_with_header(in) ? "contest" : "xsb";
    if (strcmp(in->format, "contest") == 0 || strcmp(in->format, "seed") == 0)
        return parse_contest(in, caps, inst, err);
    if (strcmp(in->format, "xsb") != 0)
        return gs_error_set(err, GS_EBADREQ,
                            "unknown text format \"%.32s\"; sokoban reads "
                            "xsb, contest or seed",
                            in->format);
    const char *start = in->p;
    int rc = parse_xsb(in, caps, inst, err);
    if (rc == 0 && in->cases == 0) {
        /* Lines but no level: say which notations were expected rather
         * than answer an empty page (an empty body has no case, as for
         * every puzzle). */
        gs_text t;
        const char *s;
        size_t n;
        bool comments = false;
        gs_text_init(&t, start, (size_t)(in->end - start));
        while (gs_text_line(&t, &s, &n)) {
            if (is_blank(s, n))
                continue;
            if (s[0] != ';')
                return gs_error_set(err, GS_EINVALID,
                                    "line %d: no XSB level found (its rows "
                                    "start with '#'); contest text starts "
                                    "with a line \"N M\"",
                                    t.line - 1);
            comments = true;
        }
        if (comments)
            return gs_error_set(err, GS_EINVALID,
                                "no XSB level found, only ';' comments (a "
                                "level's rows start with '#')");
    }
    return rc;
}

/* Contest text prints the steps or -1; XSB text the LURD moves or
 * `impossible`; both print `limit` for a case that hit a limit. */
static void sokoban_format_text(const void *inst, const gs_result *res,
                                int index, gs_buf *out)
{
    const gs_sokoban *g = inst;
    if (g && g->text_format == SOK_TEXT_XSB)
        gs_judge_line(out, res, "", "impossible", true);
    else
        gs_judge_line(out, res, "", "-1", false);
}

const gs_puzzle gs_puzzle_sokoban = {
    .name = "sokoban",
    .summary = "push every box onto a goal (XSB levels, LURD moves)",
    .options = "{\"optimize\": \"moves (default): fewest steps | pushes: "
               "fewest pushes, then fewest steps | any: a solution fast, "
               "not necessarily shortest\", \"notation\": \"xsb (default) | "
               "seed: X player, * box, @ goal, # wall\", \"format\": "
               "\"judge text only (query ?format=): xsb (collections as "
               "published; answers LURD moves) | contest (N M and seed "
               "rows; answers steps); default: contest when the text "
               "starts with a line of two integers, else xsb\"}",
    .example = "{\"grid\": [\"#######\", \"#@ $ .#\", \"#######\"], "
               "\"optimize\": \"moves\"}",
    .reports_pushes = true,
    .fields = (const char *const[]){"grid", "optimize", "notation", NULL},
    .text_format =
        "XSB levels as published (rows of # $ . @ * + and floor, levels "
        "apart by blank, ';' or 'Title:' lines), one answer line each: the "
        "LURD moves or 'impossible'; or the contest's 'N M' then N rows in "
        "seed notation (X player, * box, @ goal, # wall), printing the "
        "steps or '-1'; ?format=xsb|contest (--format) instead of "
        "detecting",
    .text_options = (const char *const[]){"format", NULL},
    /* `seed` names the contest notation as JSON's "notation" does. */
    .text_formats = (const char *const[]){"xsb", "contest", "seed", NULL},
    .parse_json = sokoban_parse_json,
    .parse_text = sokoban_parse_text,
    .format_text = sokoban_format_text,
    .solve = gs_sokoban_solve,
    .free = gs_sokoban_free,
};
