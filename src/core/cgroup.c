/* cgroup.c - walks this process's cgroup directories (see cgroup.h).
 * Plain open/read, no stdio: the CLI reads its memory limit at every
 * start, and this keeps that cheap. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gridsolve/cgroup.h"

/* Visits mnt + rel, then each ancestor up to mnt itself. */
static void walk(const char *mnt, const char *rel, bool v2,
                 gs_cgroup_visit visit, void *ud)
{
    char dir[512];
    size_t base = strlen(mnt);
    int n = snprintf(dir, sizeof dir, "%s%s", mnt, rel);

    if (n < 0 || (size_t)n >= sizeof dir || base >= sizeof dir)
        n = snprintf(dir, sizeof dir, "%s", mnt); /* too deep: the root */
    if (n < 0 || (size_t)n >= sizeof dir)
        return;
    for (;;) {
        size_t len = strlen(dir);
        while (len > base && dir[len - 1] == '/')
            dir[--len] = '\0';
        visit(dir, v2, ud);
        char *slash = len > base ? strrchr(dir + base, '/') : NULL;
        if (!slash)
            break;
        *slash = '\0';
    }
}

/* True when the comma-separated list names ctrl. */
static bool lists(const char *list, const char *ctrl)
{
    size_t n = strlen(ctrl);
    for (const char *p = list; *p;) {
        const char *end = strchr(p, ',');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == n && strncmp(p, ctrl, n) == 0)
            return true;
        if (!end)
            break;
        p = end + 1;
    }
    return false;
}

/* Walks rel in every v1 mount of the list. */
static void walk_v1(const char *root, const char *const *mounts,
                    const char *rel, gs_cgroup_visit visit, void *ud)
{
    char mnt[256];
    for (; mounts && *mounts; mounts++) {
        int n = snprintf(mnt, sizeof mnt, "%s/%s", root, *mounts);
        if (n > 0 && (size_t)n < sizeof mnt)
            walk(mnt, rel, false, visit, ud);
    }
}

void gs_cgroup_each(const char *self, const char *root, const char *ctrl,
                    const char *const *v1_mounts, gs_cgroup_visit visit,
                    void *ud)
{
    char text[4096];
    ssize_t len = -1;
    int fd = open(self, O_RDONLY | O_CLOEXEC);

    if (fd >= 0) {
        len = read(fd, text, sizeof text - 1);
        close(fd);
    }
    if (len <= 0) {
        walk(root, "/", true, visit, ud);
        walk_v1(root, v1_mounts, "/", visit, ud);
        return;
    }
    text[len] = '\0';
    /* Lines "hierarchy-id:controllers:path"; v2's is "0::path". */
    for (char *line = text, *next; line && *line; line = next) {
        next = strchr(line, '\n');
        if (next)
            *next++ = '\0';
        char *c1 = strchr(line, ':');
        char *c2 = c1 ? strchr(c1 + 1, ':') : NULL;
        if (!c2 || c2[1] != '/')
            continue;
        *c1 = *c2 = '\0';
        if (strcmp(line, "0") == 0 && c1[1] == '\0')
            walk(root, c2 + 1, true, visit, ud);
        else if (lists(c1 + 1, ctrl))
            walk_v1(root, v1_mounts, c2 + 1, visit, ud);
    }
}
