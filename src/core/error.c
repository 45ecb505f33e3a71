/* error.c - error values and their HTTP problem types. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "gridsolve/error.h"

int gs_error_set(gs_error *err, int code, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        err->code = code;
        va_start(ap, fmt);
        vsnprintf(err->detail, sizeof err->detail, fmt, ap);
        va_end(ap);
    }
    return code;
}

void gs_error_prefix(gs_error *err, const char *fmt, ...)
{
    char prefix[128];
    va_list ap;

    if (!err)
        return;
    va_start(ap, fmt);
    int n = vsnprintf(prefix, sizeof prefix, fmt, ap);
    va_end(ap);
    if (n <= 0)
        return;
    size_t plen = (size_t)n < sizeof prefix ? (size_t)n : sizeof prefix - 1;
    size_t dlen = strlen(err->detail);
    if (plen + dlen >= sizeof err->detail)
        dlen = sizeof err->detail - 1 - plen; /* keep the prefix, cut the end */
    memmove(err->detail + plen, err->detail, dlen);
    memcpy(err->detail, prefix, plen);
    err->detail[plen + dlen] = '\0';
}

int gs_error_http_status(int code)
{
    switch (code) {
    case GS_EBADREQ:
        return 400;
    case GS_EINVALID:
        return 422;
    case GS_EBUSY:
        return 503;
    default:
        return 500;
    }
}

/* One row per HTTP status the service answers with; the type URIs are
 * stable and documented in api/openapi.yaml. */
static const struct {
    int status;
    const char *type;
    const char *title;
} problems[] = {
    {400, "https://gridsolve.dev/problems/bad-request", "Bad request"},
    {404, "https://gridsolve.dev/problems/not-found", "Not found"},
    {405, "https://gridsolve.dev/problems/method-not-allowed",
     "Method not allowed"},
    {413, "https://gridsolve.dev/problems/payload-too-large",
     "Payload too large"},
    {414, "https://gridsolve.dev/problems/uri-too-long", "URI too long"},
    {415, "https://gridsolve.dev/problems/unsupported-media-type",
     "Unsupported media type"},
    {422, "https://gridsolve.dev/problems/invalid-puzzle", "Invalid puzzle"},
    {431, "https://gridsolve.dev/problems/request-header-fields-too-large",
     "Request header fields too large"},
    {503, "https://gridsolve.dev/problems/unavailable", "Service unavailable"},
    {500, "https://gridsolve.dev/problems/internal", "Internal server error"},
};

/* The row for status; unknown statuses map to the 500 row (the last). */
static size_t problem_row(int status)
{
    size_t n = sizeof problems / sizeof problems[0];
    for (size_t i = 0; i < n; i++)
        if (problems[i].status == status)
            return i;
    return n - 1;
}

const char *gs_problem_type(int http_status)
{
    return problems[problem_row(http_status)].type;
}

const char *gs_problem_title(int http_status)
{
    return problems[problem_row(http_status)].title;
}

const char *gs_error_type(int code)
{
    return gs_problem_type(gs_error_http_status(code));
}

const char *gs_error_title(int code)
{
    return gs_problem_title(gs_error_http_status(code));
}
