/* text.h - a cursor over classic judge text input.
 *
 * Judge formats mix whitespace-separated integers with raw grid lines;
 * the cursor offers both and tracks the 1-based line number so that parse
 * errors can say where they are.
 */
#ifndef GRIDSOLVE_TEXT_H
#define GRIDSOLVE_TEXT_H

#include <stddef.h>

#include "gridsolve/error.h"

typedef struct gs_text {
    const char *p;   /* next unread byte */
    const char *end; /* one past the last byte */
    int line;        /* 1-based line of p */
    /* The text notation the request named (e.g. sokoban's "xsb" or
     * "contest"), NULL to let the puzzle detect it; a puzzle may set it
     * after detecting, so later cases of the body read the same way. */
    const char *format;
    unsigned cases; /* cases read before this one (the service counts) */
} gs_text;

void gs_text_init(gs_text *t, const char *data, size_t len);

/* Skips whitespace (newlines included) and reads a decimal integer.
 * Returns 1 when read, 0 at end of input, GS_EINVALID (err filled, naming
 * `what` and the line) when the next token is not an integer. */
int gs_text_int(gs_text *t, long *v, const char *what, gs_error *err);

/* Like gs_text_int but end of input is an error too: returns GS_OK when
 * an integer was read, else GS_EINVALID with err filled. */
int gs_text_need_int(gs_text *t, long *v, const char *what, gs_error *err);

/* Reads n integers as gs_text_need_int would, into v[0..n-1]: GS_OK,
 * or GS_EINVALID with err filled (v partly written). One call for a
 * row of numbers: the cursor stays in registers between them. */
int gs_text_ints(gs_text *t, long *v, size_t n, const char *what,
                 gs_error *err);

/* Skips the rest of the current line, newline included. */
void gs_text_skip_line(gs_text *t);

/* Skips the rest of the current line, newline included, when it holds
 * only whitespace: a line of numbers followed by rows (a grid's `N M`
 * header) must not hide text after them. Else GS_EINVALID naming the
 * text and `what` it follows. */
int gs_text_end_line(gs_text *t, const char *what, gs_error *err);

/* Skips lines that hold only whitespace. */
void gs_text_skip_blank_lines(gs_text *t);

/* Returns the next raw line (without its newline or a trailing '\r') in
 * *s and *n and advances past it. Returns 1, or 0 at end of input. */
int gs_text_line(gs_text *t, const char **s, size_t *n);

#endif
