/* cjson.c - loads libcjson at its first use (see cjson.h). */
#define GS_CJSON_IMPL
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <unistd.h>

#include "gridsolve/cjson.h"

gs_cjson_api gs_cjson;
atomic_bool gs_cjson_ready;

static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static cJSON_Hooks pending_hooks;
static bool have_hooks;

/* The Debian runtime package's soname first (libcjson1: what the
 * container's runtime stage installs), then the -dev package's link. */
static const char *const cjson_names[] = {"libcjson.so.1", "libcjson.so"};

/* Stops the process the way a missing linked library would have. */
static void give_up(const char *what, const char *detail)
{
    fprintf(stderr, "gridsolve: cannot load libcjson: %s%s\n", what,
            detail ? detail : "");
    _exit(127);
}

static void load(void)
{
    void *lib = NULL;

    for (size_t i = 0; !lib && i < sizeof cjson_names / sizeof *cjson_names;
         i++)
        lib = dlopen(cjson_names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib)
        give_up("", dlerror());
        /* POSIX's way to store dlsym's object pointer in a function pointer. */
#define GS_CJSON_RESOLVE(f)                                                    \
    *(void **)(&gs_cjson.f) = dlsym(lib, #f);                                  \
    if (!gs_cjson.f)                                                           \
        give_up("it lacks ", #f);
    GS_CJSON_FUNCS(GS_CJSON_RESOLVE)
#undef GS_CJSON_RESOLVE
    if (have_hooks)
        gs_cjson.cJSON_InitHooks(&pending_hooks);
    /* The library stays loaded for the process's life. */
    atomic_store_explicit(&gs_cjson_ready, true, memory_order_release);
}

void gs_cjson_load(void)
{
    pthread_once(&load_once, load);
}

void gs_cjson_set_hooks(const cJSON_Hooks *hooks)
{
    if (atomic_load_explicit(&gs_cjson_ready, memory_order_acquire)) {
        gs_cjson.cJSON_InitHooks((cJSON_Hooks *)hooks);
        return;
    }
    pending_hooks = *hooks;
    have_hooks = true;
}
