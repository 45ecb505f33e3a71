/* mhd.c - loads libmicrohttpd at run time (see mhd.h). */
#define GS_MHD_IMPL
#include <dlfcn.h>
#include <stdbool.h>
#include <stdio.h>

#include "gridsolve/error.h"
#include "gridsolve/mhd.h"

gs_mhd_api gs_mhd;

/* The Debian runtime package's soname first (libmicrohttpd12: what the
 * container's runtime stage installs), then the -dev package's link. */
static const char *const mhd_names[] = {"libmicrohttpd.so.12",
                                        "libmicrohttpd.so"};

/* Resolves every function of GS_MHD_FUNCS in lib. False with msg filled
 * naming the first one missing. */
static bool resolve(void *lib, char *msg, size_t len)
{
    /* POSIX's way to store dlsym's object pointer in a function pointer. */
#define GS_MHD_RESOLVE(f)                                                      \
    *(void **)(&gs_mhd.f) = dlsym(lib, #f);                                    \
    if (!gs_mhd.f) {                                                           \
        snprintf(msg, len, "libmicrohttpd lacks %s", #f);                      \
        return false;                                                          \
    }
    GS_MHD_FUNCS(GS_MHD_RESOLVE)
#undef GS_MHD_RESOLVE
    return true;
}

int gs_mhd_load(char *msg, size_t len)
{
    static bool loaded;
    void *lib = NULL;

    if (loaded)
        return GS_OK;
    for (size_t i = 0; !lib && i < sizeof mhd_names / sizeof *mhd_names; i++)
        lib = dlopen(mhd_names[i], RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        snprintf(msg, len, "cannot load libmicrohttpd: %s", dlerror());
        return GS_EINTERNAL;
    }
    if (!resolve(lib, msg, len)) {
        gs_mhd = (gs_mhd_api){0};
        dlclose(lib);
        return GS_EINTERNAL;
    }
    loaded = true; /* the library stays loaded for the process's life */
    return GS_OK;
}
