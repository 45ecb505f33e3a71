/* etag.h - strong entity tags for documents built into the binary (the
 * OpenAPI file, a web page), and the If-None-Match check that turns a
 * repeated GET into a 304.
 */
#ifndef GRIDSOLVE_ETAG_H
#define GRIDSOLVE_ETAG_H

#include <stdbool.h>
#include <stddef.h>

/* Room for a tag made by gs_etag_make, quotes and NUL included. */
#define GS_ETAG_MAX 48

/* Writes the strong ETag of data[0..len) to out: a quoted hash of the
 * bytes and their length, so equal bytes always get the same tag (across
 * replicas and restarts) and changed bytes a different one. */
void gs_etag_make(const void *data, size_t len, char out[GS_ETAG_MAX]);

/* True when an If-None-Match header value (NULL: absent) matches etag:
 * "*", or any tag of its comma-separated list by the weak comparison RFC
 * 9110 prescribes for If-None-Match (a W/ prefix is ignored). */
bool gs_etag_matches(const char *if_none_match, const char *etag);

#endif
