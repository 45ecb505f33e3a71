/* fuzz_config.c - libFuzzer harness for `gridsolve serve`'s flags and
 * GRIDSOLVE_* variables (gs_config_parse).
 *
 * The input is split at NUL bytes: the pieces before the first empty one
 * are argv[1..], the pieces after it are NAME=VALUE environment entries,
 * looked up through the parser's getenv hook. Oracles: an error always
 * has a one-line message, and an accepted configuration keeps the
 * invariants the server relies on.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "gridsolve/config.h"

#define MAX_PIECES 32

static char *env_names[MAX_PIECES];
static size_t env_count;

/* The getenv hook: the input's NAME=VALUE entries, first match wins. */
static const char *fuzz_getenv(const char *name)
{
    size_t n = strlen(name);
    for (size_t i = 0; i < env_count; i++)
        if (strncmp(env_names[i], name, n) == 0 && env_names[i][n] == '=')
            return env_names[i] + n + 1;
    return NULL;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* A NUL-terminated copy, so every piece is a C string. */
    char *buf = malloc(size + 1);
    if (!buf)
        return 0;
    memcpy(buf, data, size);
    buf[size] = '\0';
    char *argv[MAX_PIECES + 2] = {"serve"};
    int argc = 1;
    bool in_env = false;
    env_count = 0;
    for (char *p = buf; p <= buf + size && argc <= MAX_PIECES;
         p += strlen(p) + 1) {
        if (!*p && !in_env) {
            in_env = true;
            continue;
        }
        if (in_env && env_count < MAX_PIECES)
            env_names[env_count++] = p;
        else if (!in_env)
            argv[argc++] = p;
    }
    argv[argc] = NULL;

    gs_server_config c;
    char msg[512];
    gs_config_default(&c);
    int rc = gs_config_parse(&c, argc, argv, fuzz_getenv, msg, sizeof msg);
    if (rc == GS_CONFIG_ERROR) {
        gs_fuzz_check(msg[0] != '\0', "config error without a message");
        gs_fuzz_check(strchr(msg, '\n') == NULL, "config error spans lines");
    } else if (rc == GS_CONFIG_OK) {
        gs_fuzz_check(c.workers >= 1, "accepted zero workers");
        gs_fuzz_check(c.port <= 65535, "accepted a port above 65535");
        gs_fuzz_check(memchr(c.bind, '\0', sizeof c.bind) != NULL,
                      "--bind not terminated");
    }
    free(buf);
    return 0;
}
