/* etag.c - strong ETags and If-None-Match (see etag.h). */
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "gridsolve/etag.h"

/* 64-bit FNV-1a from two offset bases: two independent-enough hashes,
 * 128 bits in all, cheap and stable. It guards caches against stale
 * copies, not against an adversary, so no cryptographic hash is needed. */
static uint64_t fnv1a(const unsigned char *p, size_t len, uint64_t h)
{
    for (size_t i = 0; i < len; i++) {
        h ^= p[i];
        h *= UINT64_C(0x100000001b3);
    }
    return h;
}

void gs_etag_make(const void *data, size_t len, char out[GS_ETAG_MAX])
{
    const unsigned char *p = data;
    uint64_t a = fnv1a(p, len, UINT64_C(0xcbf29ce484222325));
    uint64_t b = fnv1a(p, len, UINT64_C(0x84222325cbf29ce4) ^ (uint64_t)len);

    snprintf(out, GS_ETAG_MAX, "\"%016" PRIx64 "%016" PRIx64 "\"", a, b);
}

bool gs_etag_matches(const char *if_none_match, const char *etag)
{
    const char *p = if_none_match;
    size_t elen = strlen(etag);

    if (!p)
        return false;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!*p)
            return false;
        if (*p == '*')
            return true;
        if (strncmp(p, "W/", 2) == 0)
            p += 2;
        /* One entity tag: a quoted string without inner quotes. */
        const char *end = *p == '"' ? strchr(p + 1, '"') : NULL;
        if (!end)
            return false; /* malformed: treat as no match */
        size_t n = (size_t)(end + 1 - p);
        if (n == elen && memcmp(p, etag, n) == 0)
            return true;
        p = end + 1;
    }
}
