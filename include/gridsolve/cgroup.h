/* cgroup.h - this process's cgroup directories, v1 and v2, for the limits
 * that size it: the CPU quota (the worker count) and the memory limit
 * (the default memory budget).
 *
 * A limit may sit on any ancestor of the process's own cgroup: a systemd
 * unit's MemoryMax= is on the unit's slice, not on the hierarchy's root.
 * Inside a container the listed path often does not exist under the
 * mount (the container sees its own cgroup as the root), so every
 * ancestor that exists is consulted, the root last.
 */
#ifndef GRIDSOLVE_CGROUP_H
#define GRIDSOLVE_CGROUP_H

#include <stdbool.h>

/* Called with one cgroup directory; v2 tells the hierarchy's version. */
typedef void (*gs_cgroup_visit)(const char *dir, bool v2, void *ud);

/* Calls visit for each directory from this process's cgroup up to its
 * hierarchy's root: for the v2 hierarchy (mounted at `root`) and for the
 * v1 hierarchy that lists controller `ctrl`, mounted at root/M for each
 * name M of the NULL-ended v1_mounts. `self` is the membership file
 * (/proc/self/cgroup); when it cannot be read, only the roots are
 * visited. */
void gs_cgroup_each(const char *self, const char *root, const char *ctrl,
                    const char *const *v1_mounts, gs_cgroup_visit visit,
                    void *ud);

#endif
