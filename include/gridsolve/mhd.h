/* mhd.h - libmicrohttpd, loaded at run time by `gridsolve serve` only.
 *
 * Linked normally, libmicrohttpd and what it links (gnutls, p11-kit,
 * nettle, gmp, ...) are loaded and relocated at every start of the binary,
 * about 2 ms: more than a small judge batch takes through `gridsolve
 * solve`, which never uses them. So the server's sources include this
 * header instead of <microhttpd.h>: types and constants are the
 * library's own, and every function they call goes through a table that
 * gs_mhd_load() fills with dlopen/dlsym, with the signatures the header
 * declares (__typeof__), so a mismatch cannot compile.
 */
#ifndef GRIDSOLVE_MHD_H
#define GRIDSOLVE_MHD_H

#include <stddef.h>

#include <microhttpd.h>

/* Every libmicrohttpd function the server calls. */
#define GS_MHD_FUNCS(X)                                                        \
    X(MHD_add_connection)                                                      \
    X(MHD_add_response_header)                                                 \
    X(MHD_create_response_from_buffer)                                         \
    X(MHD_create_response_from_callback)                                       \
    X(MHD_del_response_header)                                                 \
    X(MHD_destroy_response)                                                    \
    X(MHD_get_connection_info)                                                 \
    X(MHD_get_connection_values)                                               \
    X(MHD_get_version)                                                         \
    X(MHD_is_feature_supported)                                                \
    X(MHD_lookup_connection_value)                                             \
    X(MHD_queue_response)                                                      \
    X(MHD_resume_connection)                                                   \
    X(MHD_start_daemon)                                                        \
    X(MHD_stop_daemon)                                                         \
    X(MHD_suspend_connection)

#define GS_MHD_MEMBER(f) __typeof__(f) *f;
typedef struct gs_mhd_api {
    GS_MHD_FUNCS(GS_MHD_MEMBER)
} gs_mhd_api;
#undef GS_MHD_MEMBER

/* Filled by gs_mhd_load(); all NULL before. */
extern gs_mhd_api gs_mhd;

/* Loads libmicrohttpd (its Debian soname, then the development link) and
 * fills gs_mhd. Call from one thread before any MHD call; later calls
 * return at once. GS_OK, or GS_EINTERNAL with msg (len bytes) saying
 * what is missing. */
int gs_mhd_load(char *msg, size_t len);

/* From here on, MHD_xxx(...) calls go through the table. (A macro is not
 * expanded inside its own replacement, so the member keeps its name.) */
#ifndef GS_MHD_IMPL
#define MHD_add_connection (*gs_mhd.MHD_add_connection)
#define MHD_add_response_header (*gs_mhd.MHD_add_response_header)
#define MHD_create_response_from_buffer                                        \
    (*gs_mhd.MHD_create_response_from_buffer)
#define MHD_create_response_from_callback                                      \
    (*gs_mhd.MHD_create_response_from_callback)
#define MHD_del_response_header (*gs_mhd.MHD_del_response_header)
#define MHD_destroy_response (*gs_mhd.MHD_destroy_response)
#define MHD_get_connection_info (*gs_mhd.MHD_get_connection_info)
#define MHD_get_connection_values (*gs_mhd.MHD_get_connection_values)
#define MHD_get_version (*gs_mhd.MHD_get_version)
#define MHD_is_feature_supported (*gs_mhd.MHD_is_feature_supported)
#define MHD_lookup_connection_value (*gs_mhd.MHD_lookup_connection_value)
#define MHD_queue_response (*gs_mhd.MHD_queue_response)
#define MHD_resume_connection (*gs_mhd.MHD_resume_connection)
#define MHD_start_daemon (*gs_mhd.MHD_start_daemon)
#define MHD_stop_daemon (*gs_mhd.MHD_stop_daemon)
#define MHD_suspend_connection (*gs_mhd.MHD_suspend_connection)
#endif

#endif
