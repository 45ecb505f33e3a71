/* buf.h - a growable byte buffer for building responses and judge output.
 *
 * Allocation failure is sticky: once an append fails, `oom` is set, later
 * appends are no-ops, and gs_buf_status() reports GS_ENOMEM. This lets
 * formatting code append freely and check once at the end.
 */
#ifndef GRIDSOLVE_BUF_H
#define GRIDSOLVE_BUF_H

#include <stddef.h>

typedef struct gs_buf {
    char *data; /* always NUL-terminated when len > 0 */
    size_t len;
    size_t cap;
    int oom;
    int budget;  /* set before the first append: the data is allocated
                    from the process memory budget (mem.h), and an append
                    the budget refuses sets oom */
    char *fixed; /* the caller's storage (gs_buf_init_fixed), or NULL */
} gs_buf;

#define GS_BUF_INIT                                                            \
    {                                                                          \
        NULL, 0, 0, 0, 0, NULL                                                 \
    }

/* Starts b empty on the caller's storage of cap bytes (cap >= 1), which
 * must outlive b: what fits stays there, with no allocation and nothing
 * drawn from the budget (like the stack); a longer buffer moves to the
 * heap. Set b->budget afterwards if the heap part should draw on it. */
void gs_buf_init_fixed(gs_buf *b, char *storage, size_t cap);

/* Makes room for `extra` more bytes plus a NUL (the capacity grows by
 * doubling): 0, or -1 with oom set when it cannot. */
int gs_buf_reserve(gs_buf *b, size_t extra);
void gs_buf_append(gs_buf *b, const void *data, size_t len);
void gs_buf_puts(gs_buf *b, const char *s);
/* Appends v in decimal (no printf: the CLI's output path stays off
 * stdio's formatting code). */
void gs_buf_put_u64(gs_buf *b, unsigned long long v);
void gs_buf_printf(gs_buf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
/* GS_OK, or GS_ENOMEM when any append failed. */
int gs_buf_status(const gs_buf *b);
/* Hands the data to the caller (who frees it with free()) and resets the
 * buffer. A budgeted buffer hands over a plain copy (NULL when out of
 * memory). */
char *gs_buf_take(gs_buf *b, size_t *len);
void gs_buf_free(gs_buf *b);

#endif
