/* version.c - the build's version and commit (see version.h). */
#include "gridsolve/version.h"

/* Builds without the Makefile's flags (an IDE, a bare cc) still link. */
#ifndef GS_VERSION
#define GS_VERSION "unknown"
#endif
#ifndef GS_COMMIT
#define GS_COMMIT ""
#endif

const char *gs_version(void)
{
    return GS_VERSION[0] ? GS_VERSION : "unknown";
}

const char *gs_commit(void)
{
    return GS_COMMIT;
}

const char *gs_commit_label(void)
{
    return GS_COMMIT[0] ? GS_COMMIT : "unknown";
}
