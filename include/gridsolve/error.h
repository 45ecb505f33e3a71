/* error.h - errors as values.
 *
 * Every fallible function returns 0 (GS_OK) or a negative gs_errcode and,
 * when it has a gs_error to fill, a precise human message naming the row,
 * column or field at fault. Callers propagate with `if (rc) return rc;`.
 */
#ifndef GRIDSOLVE_ERROR_H
#define GRIDSOLVE_ERROR_H

#include <stddef.h>

enum gs_errcode {
    GS_OK = 0,
    GS_EBADREQ = -1,   /* 400: not JSON, wrong field type, missing field */
    GS_EINVALID = -2,  /* 422: well-formed but not a valid puzzle */
    GS_ENOMEM = -3,    /* 500: an allocation failed */
    GS_ELIMIT = -4,    /* search stopped by a deadline or state cap */
    GS_EINTERNAL = -5, /* 500: a bug; never expected */
    GS_EBUSY = -6,     /* 503: the process memory budget cannot hold the
                          request now; retrying later may succeed */
};

#define GS_ERROR_DETAIL_MAX 512

typedef struct gs_error {
    int code;
    char detail[GS_ERROR_DETAIL_MAX];
} gs_error;

/* Fills err (when not NULL) and returns code, so callers can write
 * `return gs_error_set(err, GS_EINVALID, "grid row %d ...", r);`. */
int gs_error_set(gs_error *err, int code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Prefixes the existing detail, e.g. "case 3: " in judge text mode. */
void gs_error_prefix(gs_error *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* HTTP status, problem type URI and title for an error code. */
int gs_error_http_status(int code);
const char *gs_error_type(int code);
const char *gs_error_title(int code);

/* Problem type URI and title for an HTTP status (RFC 9457). */
const char *gs_problem_type(int http_status);
const char *gs_problem_title(int http_status);

#endif
