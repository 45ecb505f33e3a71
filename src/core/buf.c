/* buf.c - growable byte buffer with sticky allocation failure. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/buf.h"
#include "gridsolve/error.h"
#include "gridsolve/mem.h"

int gs_buf_reserve(gs_buf *b, size_t extra)
{
    if (b->oom)
        return -1;
    if (extra > SIZE_MAX / 2 - b->len - 1) {
        b->oom = 1;
        return -1;
    }
    size_t need = b->len + extra + 1;
    if (need <= b->cap)
        return 0;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap *= 2;
    bool on_fixed = b->data && b->data == b->fixed;
    char *old = on_fixed ? NULL : b->data;
    char *p = b->budget ? gs_mem_realloc(old, cap) : realloc(old, cap);
    if (!p) {
        b->oom = 1;
        return -1;
    }
    if (on_fixed) /* leaves the caller's storage */
        memcpy(p, b->data, b->len);
    b->data = p;
    b->cap = cap;
    return 0;
}

void gs_buf_init_fixed(gs_buf *b, char *storage, size_t cap)
{
    *b = (gs_buf)GS_BUF_INIT;
    storage[0] = '\0';
    b->data = b->fixed = storage;
    b->cap = cap;
}

void gs_buf_append(gs_buf *b, const void *data, size_t len)
{
    if (gs_buf_reserve(b, len))
        return;
    if (len)
        memcpy(b->data + b->len, data, len);
    b->len += len;
    b->data[b->len] = '\0';
}

void gs_buf_puts(gs_buf *b, const char *s)
{
    gs_buf_append(b, s, strlen(s));
}

void gs_buf_put_u64(gs_buf *b, unsigned long long v)
{
    char digits[24];
    char *p = digits + sizeof digits;
    do
        *--p = (char)('0' + v % 10);
    while (v /= 10);
    gs_buf_append(b, p, (size_t)(digits + sizeof digits - p));
}

void gs_buf_printf(gs_buf *b, const char *fmt, ...)
{
    va_list ap;
    char small[256];

    va_start(ap, fmt);
    int n = vsnprintf(small, sizeof small, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->oom = 1;
        return;
    }
    if ((size_t)n < sizeof small) {
        gs_buf_append(b, small, (size_t)n);
        return;
    }
    if (gs_buf_reserve(b, (size_t)n))
        return;
    va_start(ap, fmt);
    vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

int gs_buf_status(const gs_buf *b)
{
    return b->oom ? GS_ENOMEM : GS_OK;
}

char *gs_buf_take(gs_buf *b, size_t *len)
{
    char *p = b->data;
    size_t n = b->len;
    int failed = b->oom;
    if (p && (b->budget || p == b->fixed)) {
        p = malloc(n + 1);
        if (p)
            memcpy(p, b->data, n + 1);
        else
            failed = 1;
        if (b->data != b->fixed)
            gs_mem_free(b->data);
    }
    if (len)
        *len = p ? n : 0;
    if (!p && !failed)
        p = calloc(1, 1);
    b->data = b->fixed = NULL;
    b->len = b->cap = 0;
    b->oom = 0;
    return p;
}

void gs_buf_free(gs_buf *b)
{
    if (b->data == b->fixed)
        ; /* the caller's storage */
    else if (b->budget)
        gs_mem_free(b->data);
    else
        free(b->data);
    b->data = b->fixed = NULL;
    b->len = b->cap = 0;
    b->oom = 0;
}
