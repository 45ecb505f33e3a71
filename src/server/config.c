/* config.c - `gridsolve serve` flags, GRIDSOLVE_* variables and the CPU
 * count (affinity mask and cgroup quota) that sizes the worker pool.
 *
 * Every option lives in one table, so the parser, the environment lookup
 * and --help can never disagree about names, ranges or defaults.
 */
#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "gridsolve/cgroup.h"
#include "gridsolve/config.h"
#include "gridsolve/mem.h"
#include "gridsolve/service.h"

enum opt_kind { OPT_STR, OPT_UINT, OPT_BYTES };

typedef struct opt {
    const char *flag; /* without the leading "--" */
    const char *env;
    enum opt_kind kind;
    size_t offset;
    uint64_t min, max; /* numbers only */
    const char *arg;   /* metavariable for --help */
    const char *help;
} opt;

/* Where an option's value came from. */
typedef enum { SRC_NONE, SRC_ENV, SRC_FLAG } src_t;

#define OFF(field) offsetof(gs_server_config, field)
#define MIB (1024ull * 1024ull)

static const opt opts[] = {
    {"bind", "GRIDSOLVE_BIND", OPT_STR, OFF(bind), 0, 0, "ADDR",
     "address or host name to listen on"},
    {"port", "GRIDSOLVE_PORT", OPT_UINT, OFF(port), 0, 65535, "N",
     "TCP port; 0 picks a free one"},
    {"workers", "GRIDSOLVE_WORKERS", OPT_UINT, OFF(workers), 1, 1024, "N",
     "solver threads; default: CPU cores (cgroup-aware)"},
    {"queue", "GRIDSOLVE_QUEUE", OPT_UINT, OFF(queue), 0, 1000000, "N",
     "solves that may wait for a busy worker; beyond: 503"},
    {"max-body", "GRIDSOLVE_MAX_BODY", OPT_BYTES, OFF(max_body), 1, 1024 * MIB,
     "BYTES", "largest request body (K/M/G suffix); beyond: 413"},
    {"timeout-ms", "GRIDSOLVE_TIMEOUT_MS", OPT_UINT, OFF(timeout_ms), 1,
     86400000, "MS", "deadline of a solve that asks for none"},
    {"max-timeout-ms", "GRIDSOLVE_MAX_TIMEOUT_MS", OPT_UINT,
     OFF(max_timeout_ms), 1, 86400000, "MS",
     "ceiling for a requested timeout_ms"},
    {"max-states", "GRIDSOLVE_MAX_STATES", OPT_UINT, OFF(max_states), 1,
     UINT64_C(1) << 40, "N", "state cap of a solve that asks for none"},
    {"max-states-limit", "GRIDSOLVE_MAX_STATES_LIMIT", OPT_UINT,
     OFF(max_states_limit), 1, UINT64_C(1) << 40, "N",
     "ceiling for a requested max_states"},
    {"max-solve-memory", "GRIDSOLVE_MAX_SOLVE_MEMORY", OPT_BYTES,
     OFF(max_solve_memory), MIB, UINT64_C(1) << 50, "BYTES",
     "memory one solve's states may hold (K/M/G); beyond: limit"},
    {"max-memory", "GRIDSOLVE_MAX_MEMORY", OPT_BYTES, OFF(max_memory), 0,
     UINT64_C(1) << 50, "BYTES",
     "memory budget of the whole process (K/M/G; 0 = none)"},
    {"max-cells", "GRIDSOLVE_MAX_CELLS", OPT_UINT, OFF(max_cells), 1,
     UINT64_C(1) << 32, "N", "largest grid (rows x cols); beyond: 422"},
    {"grace-ms", "GRIDSOLVE_GRACE_MS", OPT_UINT, OFF(grace_ms), 0, 3600000,
     "MS", "drain: time in-flight solves get before cancel"},
    {"cors-origin", "GRIDSOLVE_CORS_ORIGIN", OPT_STR, OFF(cors_origin), 0, 0,
     "ORIGINS", "* or comma-separated origins allowed by CORS"},
    {"cors-headers", "GRIDSOLVE_CORS_HEADERS", OPT_STR, OFF(cors_hdrs), 0, 0,
     "NAMES", "request headers a CORS preflight allows"},
    {"log-format", "GRIDSOLVE_LOG_FORMAT", OPT_STR, OFF(log_format), 0, 0,
     "FORMAT", "request log lines: text or json (one object a line)"},
    {"header-timeout-ms", "GRIDSOLVE_HEADER_TIMEOUT_MS", OPT_UINT,
     OFF(header_timeout_ms), 0, 3600000, "MS",
     "close connections without a complete request head by then; 0: never"},
    {"min-body-rate", "GRIDSOLVE_MIN_BODY_RATE", OPT_BYTES, OFF(min_body_rate),
     0, 1024 * MIB, "BYTES",
     "close uploads slower than this per second (after the header "
     "timeout); 0: never"},
    {"max-connections", "GRIDSOLVE_MAX_CONNECTIONS", OPT_UINT,
     OFF(max_connections), 0, 1000000, "N",
     "open connections at once; 0: RLIMIT_NOFILE (raised to its hard "
     "limit) minus a reserve"},
    {"max-connections-per-ip", "GRIDSOLVE_MAX_CONNECTIONS_PER_IP", OPT_UINT,
     OFF(max_connections_per_ip), 0, 1000000, "N",
     "open connections per client address; 0: no limit"},
};

#define NOPTS (sizeof opts / sizeof opts[0])

void gs_config_default(gs_server_config *c)
{
    gs_solve_opts so;

    gs_solve_opts_default(&so);
    memset(c, 0, sizeof *c);
    snprintf(c->bind, sizeof c->bind, "127.0.0.1");
    snprintf(c->cors_origin, sizeof c->cors_origin, "*");
    snprintf(c->cors_hdrs, sizeof c->cors_hdrs, "%s",
             "Content-Type, X-Request-Id, traceparent, tracestate, "
             "Authorization");
    snprintf(c->log_format, sizeof c->log_format, "text");
    c->port = 8080;
    c->workers = gs_config_cpu_count();
    c->queue = 64;
    c->max_body = 4 * MIB;
    c->timeout_ms = so.timeout_ms >= 1 ? (uint64_t)so.timeout_ms : 10000;
    c->max_timeout_ms =
        so.max_timeout_ms >= 1 ? (uint64_t)so.max_timeout_ms : 60000;
    c->max_states = so.max_states ? so.max_states : 20000000;
    c->max_states_limit =
        so.max_states_limit ? so.max_states_limit : c->max_states;
    c->max_solve_memory = so.max_solve_bytes ? so.max_solve_bytes : 2048 * MIB;
    c->max_cells = so.caps.max_cells ? so.caps.max_cells : 1000000;
    c->max_memory = gs_mem_default_budget(GS_CONFIG_MEMORY_PERCENT);
    c->grace_ms = 5000;
    c->header_timeout_ms = 10000;
    c->min_body_rate = 1024;
}

/* Parses a decimal number with an optional binary K/M/G suffix (bytes
 * only). Returns false on anything else, overflow included. */
static bool parse_number(const char *s, bool suffix, uint64_t *out)
{
    char *end;
    uint64_t mult = 1;

    if (!isdigit((unsigned char)s[0]))
        return false;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno == ERANGE)
        return false;
    if (suffix && *end) {
        switch (toupper((unsigned char)*end)) {
        case 'K':
            mult = 1024;
            break;
        case 'M':
            mult = MIB;
            break;
        case 'G':
            mult = 1024 * MIB;
            break;
        default:
            return false;
        }
        end++;
        /* Accept "4M", "4MB" and "4MiB" alike. */
        if (*end == 'i' || *end == 'I')
            end++;
        if (*end == 'b' || *end == 'B')
            end++;
    }
    if (*end || v > UINT64_MAX / mult)
        return false;
    *out = (uint64_t)v * mult;
    return true;
}

bool gs_config_parse_bytes(const char *s, uint64_t *out)
{
    return parse_number(s, true, out);
}

/* A header value we will send verbatim: printable ASCII, no CR/LF. */
static bool header_safe(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < 0x20 || *s > 0x7e)
            return false;
    return true;
}

/* The next comma-separated item of *list, blanks trimmed: sets *item and
 * *len, advances *list. False at the end. */
static bool next_item(const char **list, const char **item, size_t *len)
{
    const char *p = *list;
    while (*p == ' ' || *p == '\t')
        p++;
    if (!*p)
        return false;
    const char *end = strchr(p, ',');
    if (!end)
        end = p + strlen(p);
    *list = *end ? end + 1 : end;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    *item = p;
    *len = (size_t)(end - p);
    return true;
}

bool gs_config_origin_allowed(const char *allowed, const char *origin)
{
    const char *item;
    size_t len;

    if (strcmp(allowed, "*") == 0)
        return true;
    if (!origin || !*origin)
        return false;
    while (next_item(&allowed, &item, &len))
        if (len == strlen(origin) && strncasecmp(item, origin, len) == 0)
            return true;
    return false;
}

/* An origin as browsers send it: scheme "://" host [":" port], nothing
 * after (no path, no trailing slash). */
static bool origin_syntax(const char *s, size_t len)
{
    size_t i = 0;
    if (i >= len || !isalpha((unsigned char)s[i]))
        return false;
    while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '+' ||
                       s[i] == '-' || s[i] == '.'))
        i++;
    if (len - i < 4 || strncmp(s + i, "://", 3) != 0)
        return false;
    i += 3;
    size_t host = i;
    while (i < len && (isalnum((unsigned char)s[i]) || s[i] == '-' ||
                       s[i] == '.' || s[i] == '[' || s[i] == ']' ||
                       (s[i] == ':' && memchr(s + host, '[', i - host))))
        i++;
    if (i == host)
        return false;
    if (i < len && s[i] == ':') {
        size_t port = ++i;
        while (i < len && isdigit((unsigned char)s[i]))
            i++;
        if (i == port)
            return false;
    }
    return i == len;
}

/* A header name: an RFC 9110 token. */
static bool token_syntax(const char *s, size_t len)
{
    if (!len)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!isalnum((unsigned char)s[i]) && !strchr("!#$%&'*+-.^_`|~", s[i]))
            return false;
    return true;
}

/* Checks the options whose values have a syntax of their own; a bad one
 * is refused at start rather than misbehaving on every request. */
static int check_str(const opt *o, const char *value, const char *who,
                     char *msg, size_t msglen)
{
    const char *list = value, *item;
    size_t len;

    if (o->offset == OFF(log_format)) {
        if (strcmp(value, "text") == 0 || strcmp(value, "json") == 0)
            return GS_CONFIG_OK;
        snprintf(msg, msglen, "%s: '%s' is not text or json", who, value);
        return GS_CONFIG_ERROR;
    }
    if (o->offset == OFF(cors_origin) && strcmp(value, "*") != 0) {
        while (next_item(&list, &item, &len))
            if (!origin_syntax(item, len)) {
                snprintf(msg, msglen,
                         "%s: '%.*s' is not an origin (scheme://host[:port])"
                         "; use * alone for any origin",
                         who, (int)len, item);
                return GS_CONFIG_ERROR;
            }
    }
    if (o->offset == OFF(cors_hdrs)) {
        while (next_item(&list, &item, &len))
            if (!token_syntax(item, len)) {
                snprintf(msg, msglen, "%s: '%.*s' is not a header name", who,
                         (int)len, item);
                return GS_CONFIG_ERROR;
            }
    }
    return GS_CONFIG_OK;
}

/* Stores `value` for option o; `who` names its source in messages. */
static int set_opt(gs_server_config *c, const opt *o, const char *value,
                   const char *who, src_t *given, char *msg, size_t msglen)
{
    char *field = (char *)c + o->offset;
    uint64_t v;

    if (o->kind == OPT_STR) {
        if (strlen(value) >= GS_CONFIG_STR_MAX) {
            snprintf(msg, msglen, "%s: value is longer than %d characters", who,
                     GS_CONFIG_STR_MAX - 1);
            return GS_CONFIG_ERROR;
        }
        if (!header_safe(value)) {
            snprintf(msg, msglen, "%s: '%s' must be non-empty printable ASCII",
                     who, value);
            return GS_CONFIG_ERROR;
        }
        if (check_str(o, value, who, msg, msglen))
            return GS_CONFIG_ERROR;
        memcpy(field, value, strlen(value) + 1);
        given[o - opts] = who[0] == '-' ? SRC_FLAG : SRC_ENV;
        return GS_CONFIG_OK;
    }
    if (!parse_number(value, o->kind == OPT_BYTES, &v)) {
        snprintf(msg, msglen, "%s: '%s' is not a %s", who, value,
                 o->kind == OPT_BYTES
                     ? "byte count (digits, optional K/M/G suffix)"
                     : "non-negative integer");
        return GS_CONFIG_ERROR;
    }
    if (v < o->min || v > o->max) {
        snprintf(msg, msglen,
                 "%s: %" PRIu64 " is out of range %" PRIu64 "..%" PRIu64, who,
                 v, o->min, o->max);
        return GS_CONFIG_ERROR;
    }
    memcpy(field, &v, sizeof v);
    given[o - opts] = who[0] == '-' ? SRC_FLAG : SRC_ENV;
    return GS_CONFIG_OK;
}

static const opt *find_flag(const char *name, size_t len)
{
    for (size_t i = 0; i < NOPTS; i++)
        if (strlen(opts[i].flag) == len && memcmp(opts[i].flag, name, len) == 0)
            return &opts[i];
    return NULL;
}

static int apply_env(gs_server_config *c,
                     const char *(*getenv_fn)(const char *), src_t *given,
                     char *msg, size_t msglen)
{
    for (size_t i = 0; i < NOPTS; i++) {
        const char *v = given[i] ? NULL : getenv_fn(opts[i].env);
        if (v && set_opt(c, &opts[i], v, opts[i].env, given, msg, msglen))
            return GS_CONFIG_ERROR;
    }
    return GS_CONFIG_OK;
}

/* Accepts `--flag value` and `--flag=value`. */
static int apply_flags(gs_server_config *c, int argc, char **argv, src_t *given,
                       char *msg, size_t msglen)
{
    char who[64];

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0)
            return GS_CONFIG_HELP;
        if (strncmp(a, "--", 2) != 0) {
            snprintf(msg, msglen,
                     "unexpected argument '%s' (see gridsolve serve --help)",
                     a);
            return GS_CONFIG_ERROR;
        }
        const char *name = a + 2, *eq = strchr(name, '=');
        size_t len = eq ? (size_t)(eq - name) : strlen(name);
        const opt *o = find_flag(name, len);
        if (!o) {
            snprintf(msg, msglen,
                     "unknown option '%.*s' (see gridsolve serve --help)",
                     (int)(len + 2 > 64 ? 64 : len + 2), a);
            return GS_CONFIG_ERROR;
        }
        snprintf(who, sizeof who, "--%s", o->flag);
        const char *value = eq ? eq + 1 : NULL;
        if (!value) {
            if (i + 1 >= argc) {
                snprintf(msg, msglen, "%s needs a value (%s)", who, o->arg);
                return GS_CONFIG_ERROR;
            }
            value = argv[++i];
        }
        if (set_opt(c, o, value, who, given, msg, msglen))
            return GS_CONFIG_ERROR;
    }
    return GS_CONFIG_OK;
}

/* Index of the option stored at offset off. */
static size_t opt_at(size_t off)
{
    size_t i = 0;
    while (i < NOPTS && opts[i].offset != off)
        i++;
    return i;
}

/* How the operator named option i: "--flag" or ENV_VAR, or "--flag (its
 * default)" when not at all. */
static const char *source_name(size_t i, const src_t *given, char *buf,
                               size_t len)
{
    if (given[i] == SRC_ENV)
        snprintf(buf, len, "%s", opts[i].env);
    else
        snprintf(buf, len, "--%s%s", opts[i].flag,
                 given[i] ? "" : " (its default)");
    return buf;
}

/* A default above its ceiling: when only the ceiling was set, the default
 * follows it down; otherwise the operator asked for the default (and
 * maybe the ceiling): an error naming where each value came from. */
static int check_ceiling(uint64_t *value, size_t off, uint64_t ceiling,
                         size_t ceiling_off, const src_t *given, char *msg,
                         size_t msglen)
{
    size_t i = opt_at(off), k = opt_at(ceiling_off);
    char a[64], b[64];

    if (*value <= ceiling)
        return GS_CONFIG_OK;
    if (given[k] && !given[i]) {
        *value = ceiling;
        return GS_CONFIG_OK;
    }
    snprintf(msg, msglen, "%s %" PRIu64 " exceeds %s %" PRIu64,
             source_name(i, given, a, sizeof a), *value,
             source_name(k, given, b, sizeof b), ceiling);
    return GS_CONFIG_ERROR;
}

static int cross_check(gs_server_config *c, const src_t *given, char *msg,
                       size_t msglen)
{
    if (check_ceiling(&c->timeout_ms, OFF(timeout_ms), c->max_timeout_ms,
                      OFF(max_timeout_ms), given, msg, msglen) ||
        check_ceiling(&c->max_states, OFF(max_states), c->max_states_limit,
                      OFF(max_states_limit), given, msg, msglen))
        return GS_CONFIG_ERROR;
    /* One solve can never hold more than the whole process may: clamped
     * rather than refused, since the default of --max-solve-memory is a
     * constant and the process budget follows the machine. */
    if (c->max_memory && c->max_solve_memory > c->max_memory) {
        snprintf(msg, msglen,
                 "--max-solve-memory %" PRIu64 " exceeds --max-memory %" PRIu64
                 "; clamped to it",
                 c->max_solve_memory, c->max_memory);
        c->max_solve_memory = c->max_memory;
    }
    return GS_CONFIG_OK;
}

static const char *real_getenv(const char *name)
{
    return getenv(name);
}

int gs_config_parse(gs_server_config *c, int argc, char **argv,
                    const char *(*getenv_fn)(const char *), char *msg,
                    size_t msglen)
{
    src_t given[NOPTS] = {SRC_NONE};
    int rc;

    msg[0] = '\0';
    /* --help must work even when the environment holds a bad value. */
    for (int i = 1; i < argc; i++)
        if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0)
            return GS_CONFIG_HELP;
    /* Flags first: a flag wins over its variable, whose value is then
     * not even read (a bad one must not stop a corrected start). */
    rc = apply_flags(c, argc, argv, given, msg, msglen);
    if (rc == GS_CONFIG_OK)
        rc = apply_env(c, getenv_fn ? getenv_fn : real_getenv, given, msg,
                       msglen);
    if (rc == GS_CONFIG_OK)
        rc = cross_check(c, given, msg, msglen);
    /* Messages echo argv and environment bytes: keep them one printable
     * line (found by make fuzz). */
    for (char *p = msg; rc == GS_CONFIG_ERROR && *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
    return rc;
}

/* The default of option o, as text, for --help. */
static void default_text(const gs_server_config *d, const opt *o, char *buf,
                         size_t len)
{
    const char *field = (const char *)d + o->offset;
    uint64_t v;

    if (o->kind == OPT_STR) {
        snprintf(buf, len, "%s", field);
        return;
    }
    memcpy(&v, field, sizeof v);
    if (o->offset == OFF(max_memory)) {
        snprintf(buf, len,
                 "%" PRIu64 " = %d%% of %" PRIu64 ", the cgroup "
                 "limit or physical memory",
                 v, GS_CONFIG_MEMORY_PERCENT, gs_mem_system_limit());
        return;
    }
    snprintf(buf, len, "%" PRIu64, v);
}

void gs_config_usage(FILE *f)
{
    gs_server_config d;
    char def[GS_CONFIG_STR_MAX], left[64];

    gs_config_default(&d);
    fprintf(f, "usage: gridsolve serve [options]\n\n"
               "Serves POST /solve/{puzzle} and the service endpoints over "
               "HTTP. Every option\nmay also be set by its environment "
               "variable; a flag wins over the variable.\n\n");
    for (size_t i = 0; i < NOPTS; i++) {
        default_text(&d, &opts[i], def, sizeof def);
        snprintf(left, sizeof left, "--%s %s", opts[i].flag, opts[i].arg);
        fprintf(f, "  %-25s %s\n  %-25s [%s; default %s]\n", left, opts[i].help,
                "", opts[i].env, def);
    }
    fprintf(f, "  %-25s %s\n", "-h, --help", "show this help");
    fprintf(f, "\nPrints 'listening on ADDR:PORT' on stdout once bound. "
               "SIGTERM/SIGINT drains:\nreadiness turns 503, in-flight "
               "solves finish or are cancelled after the\ngrace period, "
               "then the process exits 0. SIGHUP is logged and ignored\n"
               "(settings are read only at start).\n");
}

/* ---- CPU count ---------------------------------------------------------- */

unsigned gs_config_cpu_max_quota(const char *text)
{
    unsigned long long quota, period;

    if (!text || strncmp(text, "max", 3) == 0)
        return 0;
    if (sscanf(text, "%llu %llu", &quota, &period) != 2 || period == 0 ||
        quota == 0)
        return 0;
    return (unsigned)((quota + period - 1) / period);
}

unsigned gs_config_cfs_quota(const char *quota, const char *period)
{
    long long q;
    unsigned long long p;

    if (!quota || !period || sscanf(quota, "%lld", &q) != 1 ||
        sscanf(period, "%llu", &p) != 1 || q <= 0 || p == 0)
        return 0;
    return (unsigned)(((unsigned long long)q + p - 1) / p);
}

/* Reads the first line of a small file into buf; false when unreadable. */
static bool read_line(const char *path, char *buf, size_t len)
{
    FILE *f = fopen(path, "r");
    bool ok;

    if (!f)
        return false;
    ok = fgets(buf, (int)len, f) != NULL;
    fclose(f);
    return ok;
}

/* Smallest non-zero of a and b (0 = no limit). */
static unsigned min_limit(unsigned a, unsigned b)
{
    if (!a)
        return b;
    if (!b)
        return a;
    return a < b ? a : b;
}

/* gs_cgroup_each's visitor: the tightest CPU quota so far. */
static void visit_cpu(const char *dir, bool v2, void *ud)
{
    unsigned *best = ud;
    char path[640], a[64], b[64];

    if (v2) {
        snprintf(path, sizeof path, "%s/cpu.max", dir);
        if (read_line(path, a, sizeof a))
            *best = min_limit(*best, gs_config_cpu_max_quota(a));
        return;
    }
    snprintf(path, sizeof path, "%s/cpu.cfs_quota_us", dir);
    bool qa = read_line(path, a, sizeof a);
    snprintf(path, sizeof path, "%s/cpu.cfs_period_us", dir);
    if (qa && read_line(path, b, sizeof b))
        *best = min_limit(*best, gs_config_cfs_quota(a, b));
}

/* The cgroup CPU limit of this process, or 0 when none is set. */
static unsigned cgroup_cpus(void)
{
    static const char *const v1[] = {"cpu,cpuacct", "cpu", NULL};
    unsigned best = 0;

    gs_cgroup_each("/proc/self/cgroup", "/sys/fs/cgroup", "cpu", v1, visit_cpu,
                   &best);
    return best;
}

unsigned gs_config_cpu_count(void)
{
    unsigned n = 0;
    cpu_set_t set;

    if (sched_getaffinity(0, sizeof set, &set) == 0)
        n = (unsigned)CPU_COUNT(&set);
    if (n == 0) {
        long online = sysconf(_SC_NPROCESSORS_ONLN);
        n = online > 0 ? (unsigned)online : 1;
    }
    unsigned quota = cgroup_cpus();
    if (quota && quota < n)
        n = quota;
    return n ? n : 1;
}
