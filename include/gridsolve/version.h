/* version.h - the build's version and commit, for --version, GET /version
 * and the gridsolve_build_info metric. The Makefile passes them to
 * src/core/version.c only, so a new commit recompiles one file. */
#ifndef GRIDSOLVE_VERSION_H
#define GRIDSOLVE_VERSION_H

/* The release, from the VERSION file ("0.2.0"); "unknown" when the build
 * had no VERSION file. */
const char *gs_version(void);

/* The git commit the binary was built from (short hash, "-dirty" when the
 * tree had changes), or "" when unknown (no git, or a source tarball). */
const char *gs_commit(void);

/* gs_commit(), or "unknown" when that is "": what GET /version and the
 * build_info metric show, the same in both. */
const char *gs_commit_label(void);

#endif
