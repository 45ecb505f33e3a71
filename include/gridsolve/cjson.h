/* cjson.h - cJSON, loaded at its first use.
 *
 * Linked normally, libcjson is mapped and relocated at every start of
 * the binary, though judge text (`gridsolve solve` without --json) never
 * touches JSON: on the holedox batch of `make bench-compare` that load was
 * about 0.09 ms of a 1.1 ms run. So the sources include this header
 * instead of <cjson/cJSON.h>: types and macros are the library's own, and
 * every function they call goes through a table that the first call fills
 * with dlopen/dlsym, with the signatures the header declares
 * (__typeof__), so a mismatch cannot compile. Same scheme as mhd.h.
 */
#ifndef GRIDSOLVE_CJSON_H
#define GRIDSOLVE_CJSON_H

#include <stdatomic.h>
#include <stdbool.h>

#include <cjson/cJSON.h>

/* Every cJSON function the sources call. */
#define GS_CJSON_FUNCS(X)                                                      \
    X(cJSON_AddArrayToObject)                                                  \
    X(cJSON_AddItemToArray)                                                    \
    X(cJSON_AddItemToObject)                                                   \
    X(cJSON_AddNumberToObject)                                                 \
    X(cJSON_AddStringToObject)                                                 \
    X(cJSON_CreateObject)                                                      \
    X(cJSON_CreateString)                                                      \
    X(cJSON_Delete)                                                            \
    X(cJSON_GetArrayItem)                                                      \
    X(cJSON_GetArraySize)                                                      \
    X(cJSON_GetObjectItemCaseSensitive)                                        \
    X(cJSON_InitHooks)                                                         \
    X(cJSON_IsArray)                                                           \
    X(cJSON_IsNull)                                                            \
    X(cJSON_IsNumber)                                                          \
    X(cJSON_IsObject)                                                          \
    X(cJSON_IsString)                                                          \
    X(cJSON_Parse)                                                             \
    X(cJSON_ParseWithLengthOpts)                                               \
    X(cJSON_PrintUnformatted)                                                  \
    X(cJSON_free)

#define GS_CJSON_MEMBER(f) __typeof__(f) *f;
typedef struct gs_cjson_api {
    GS_CJSON_FUNCS(GS_CJSON_MEMBER)
} gs_cjson_api;
#undef GS_CJSON_MEMBER

/* Filled by gs_cjson_load(); gs_cjson_ready says when. */
extern gs_cjson_api gs_cjson;
extern atomic_bool gs_cjson_ready;

/* Loads libcjson (its Debian soname, then the development link) once,
 * whichever thread comes first, and fills gs_cjson. A process that cannot
 * load it stops with status 127 and a message, as the dynamic linker
 * would have stopped it at start when the library was linked. */
void gs_cjson_load(void);

/* The table, loaded. One predictable branch a call. */
static inline const gs_cjson_api *gs_cjson_get(void)
{
    if (!atomic_load_explicit(&gs_cjson_ready, memory_order_acquire))
        gs_cjson_load();
    return &gs_cjson;
}

/* Installs cJSON's allocation hooks: now when the table is loaded, else
 * at its load, before any tree exists. Call from one thread at start. A
 * program that also calls libcjson directly (the tests) loads the table
 * first, so that the hooks are in place for its own calls too. */
void gs_cjson_set_hooks(const cJSON_Hooks *hooks);

/* From here on, cJSON_xxx(...) calls go through the table. (A macro is
 * not expanded inside its own replacement, so the member keeps its
 * name.) */
#ifndef GS_CJSON_IMPL
#define cJSON_AddArrayToObject (*gs_cjson_get()->cJSON_AddArrayToObject)
#define cJSON_AddItemToArray (*gs_cjson_get()->cJSON_AddItemToArray)
#define cJSON_AddItemToObject (*gs_cjson_get()->cJSON_AddItemToObject)
#define cJSON_AddNumberToObject (*gs_cjson_get()->cJSON_AddNumberToObject)
#define cJSON_AddStringToObject (*gs_cjson_get()->cJSON_AddStringToObject)
#define cJSON_CreateObject (*gs_cjson_get()->cJSON_CreateObject)
#define cJSON_CreateString (*gs_cjson_get()->cJSON_CreateString)
#define cJSON_Delete (*gs_cjson_get()->cJSON_Delete)
#define cJSON_GetArrayItem (*gs_cjson_get()->cJSON_GetArrayItem)
#define cJSON_GetArraySize (*gs_cjson_get()->cJSON_GetArraySize)
#define cJSON_GetObjectItemCaseSensitive                                       \
    (*gs_cjson_get()->cJSON_GetObjectItemCaseSensitive)
#define cJSON_InitHooks (*gs_cjson_get()->cJSON_InitHooks)
#define cJSON_IsArray (*gs_cjson_get()->cJSON_IsArray)
#define cJSON_IsNull (*gs_cjson_get()->cJSON_IsNull)
#define cJSON_IsNumber (*gs_cjson_get()->cJSON_IsNumber)
#define cJSON_IsObject (*gs_cjson_get()->cJSON_IsObject)
#define cJSON_IsString (*gs_cjson_get()->cJSON_IsString)
#define cJSON_Parse (*gs_cjson_get()->cJSON_Parse)
#define cJSON_ParseWithLengthOpts (*gs_cjson_get()->cJSON_ParseWithLengthOpts)
#define cJSON_PrintUnformatted (*gs_cjson_get()->cJSON_PrintUnformatted)
#define cJSON_free (*gs_cjson_get()->cJSON_free)
#endif

#endif
