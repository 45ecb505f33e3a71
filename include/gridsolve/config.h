/* config.h - `gridsolve serve` configuration: flags and GRIDSOLVE_*
 * environment variables (a flag wins over its variable, which wins over
 * the default), plus the CPU count used as the default worker count. */
#ifndef GRIDSOLVE_CONFIG_H
#define GRIDSOLVE_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GS_CONFIG_STR_MAX 256

typedef struct gs_server_config {
    char bind[GS_CONFIG_STR_MAX];        /* address or host name */
    char cors_origin[GS_CONFIG_STR_MAX]; /* "*" or origins, comma-separated */
    char cors_hdrs[GS_CONFIG_STR_MAX];   /* headers a preflight allows */
    char log_format[GS_CONFIG_STR_MAX];  /* "text" or "json" */
    uint64_t port;                       /* 0 = pick a free port */
    uint64_t workers;                    /* solver threads */
    uint64_t queue;                      /* solves allowed to wait */
    uint64_t max_body;                   /* bytes */
    uint64_t timeout_ms;                 /* default per-request deadline */
    uint64_t max_timeout_ms;             /* ceiling for a requested one */
    uint64_t max_states;                 /* default state cap */
    uint64_t max_states_limit;           /* ceiling for a requested one */
    uint64_t max_solve_memory;           /* bytes of one solve's states */
    uint64_t max_memory;             /* process-wide budget (mem.h); 0 = none */
    uint64_t max_cells;              /* largest grid, rows * cols */
    uint64_t grace_ms;               /* drain period after SIGTERM */
    uint64_t header_timeout_ms;      /* request head within; 0 none */
    uint64_t min_body_rate;          /* body bytes/s; 0 none */
    uint64_t max_connections;        /* 0: from RLIMIT_NOFILE */
    uint64_t max_connections_per_ip; /* 0: no limit */
} gs_server_config;

enum gs_config_result {
    GS_CONFIG_OK = 0,    /* run the server */
    GS_CONFIG_HELP = 1,  /* --help was given: print usage, exit 0 */
    GS_CONFIG_ERROR = -1 /* bad value: msg says which, exit 2 */
};

/* Fills c with the built-in defaults (workers = gs_config_cpu_count()). */
void gs_config_default(gs_server_config *c);

/* Applies GRIDSOLVE_* variables read through getenv_fn (getenv when NULL),
 * then the flags argv[1..argc-1] (argv[0] is "serve"), then cross-checks.
 * On error returns GS_CONFIG_ERROR with a one-line message in msg. On
 * success msg is empty, or holds a notice to log (a value was clamped:
 * --max-solve-memory above --max-memory). */
int gs_config_parse(gs_server_config *c, int argc, char **argv,
                    const char *(*getenv_fn)(const char *), char *msg,
                    size_t msglen);

/* The default of --max-memory, in percent of gs_mem_system_limit(): the
 * rest is left for what the budget does not count (thread stacks, the
 * HTTP library's buffers, allocator slack). */
#define GS_CONFIG_MEMORY_PERCENT 75

/* Parses a byte count: digits with an optional K/M/G suffix (binary; "4M",
 * "4MB" and "4MiB" alike). False on anything else, overflow included. */
bool gs_config_parse_bytes(const char *s, uint64_t *out);

/* Prints the usage text with every flag, variable and default. */
void gs_config_usage(FILE *f);

/* CPUs this process may use: the affinity mask, further bounded by a
 * cgroup v2 cpu.max or v1 cfs quota when one is set; at least 1. */
unsigned gs_config_cpu_count(void);

/* ceil(quota / period) from cgroup v2 cpu.max text ("max 100000" or
 * "150000 100000"); 0 when unlimited or unreadable. */
unsigned gs_config_cpu_max_quota(const char *text);

/* The same from cgroup v1 cpu.cfs_quota_us / cpu.cfs_period_us texts
 * (quota -1 = unlimited -> 0). */
unsigned gs_config_cfs_quota(const char *quota, const char *period);

/* True when `origin` (a request's Origin header, may be NULL) may read
 * responses under `allowed` ("*", or comma-separated origins compared
 * ASCII case-insensitively; blanks around commas ignored). */
bool gs_config_origin_allowed(const char *allowed, const char *origin);

#endif
