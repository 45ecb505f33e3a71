/* main.c - the gridsolve command line: `serve` runs the HTTP service,
 * `solve` runs one puzzle's solver on judge text or one JSON body, so the
 * solvers are usable without a server; `health` probes a running server.
 *
 * Exit status (the same for every command, see usage()): 0 done (every
 * case solved or proven impossible), 1 error, 2 usage, 3 a case hit a
 * limit (its answer is still printed).
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gridsolve/config.h"
#include "gridsolve/mem.h"
#include "gridsolve/server.h"
#include "gridsolve/service.h"
#include "gridsolve/version.h"
#include "probe.h"

#define EXIT_ERROR 1
#define EXIT_USAGE 2
#define EXIT_LIMIT 3

static void usage(FILE *f)
{
    fprintf(f, "usage: gridsolve serve [options]          the HTTP service "
               "(serve --help)\n"
               "       gridsolve solve PUZZLE [FILE] [--json] [--timeout-ms MS]"
               " [--max-states N]\n"
               "                       [--max-memory BYTES] [--format NAME]\n"
               "       gridsolve health [--host H] [--port N] [--path P]\n"
               "       gridsolve --version | --help\n"
               "\n"
               "solve reads judge text (or with --json one JSON request body)"
               " from FILE or\nstandard input and prints the judge output (or"
               " the JSON response); solve --help\nlists the formats. health"
               " exits 0 when GET P answers 200.\n"
               "puzzles:");
    for (size_t i = 0; i < gs_puzzle_count; i++)
        fprintf(f, " %s", gs_puzzles[i]->name);
    fprintf(f, "\n\nexit status: 0 done (solved or proven impossible),"
               " 1 error (bad input,\nunreadable file, server unhealthy),"
               " 2 usage error, 3 a case hit a limit\n(its answer,"
               " 'limit', is still printed).\n");
}

/* `solve --help`: the options, then each puzzle's two input formats. */
static void solve_usage(FILE *f)
{
    fprintf(f,
            "usage: gridsolve solve PUZZLE [FILE] [--json] [--timeout-ms MS]"
            " [--max-states N]\n"
            "                       [--max-memory BYTES] [--format NAME]\n\n"
            "Reads FILE (or standard input, also for FILE '-') and prints the"
            " answer.\n"
            "  --json            one JSON request body in, the JSON response"
            " out;\n"
            "                    without it: the classic judge text, any"
            " number of cases\n"
            "  --timeout-ms MS   deadline of the whole input; given, also the"
            " most a JSON\n                    body's limits may ask (0: none;"
            " default 10000)\n"
            "  --max-states N    state cap of each solve; given, also the most"
            " a body may\n                    ask (0: none; default"
            " 20000000)\n"
            "  --max-memory B    memory budget of the process (K/M/G; 0: none;"
            "\n                    default 75%% of the cgroup or physical"
            " memory)\n"
            "  --format NAME     the judge text notation where a puzzle has"
            " several\n                    (sokoban: xsb or contest, also"
            " named seed;\n                    default: detected)\n"
            "  -h, --help        this help\n\n"
            "Formats, per puzzle (JSON: the body's fields; every body may add"
            "\n\"limits\": {\"timeout_ms\": N, \"max_states\": N}):\n");
    for (size_t i = 0; i < gs_puzzle_count; i++) {
        const gs_puzzle *p = gs_puzzles[i];
        fprintf(f, "\n  %s: %s\n    JSON fields:", p->name, p->summary);
        for (const char *const *n = p->fields; n && *n; n++)
            fprintf(f, "%s %s", n == p->fields ? "" : ",", *n);
        fprintf(f, "\n    e.g. %s\n    judge text: %s\n", p->example,
                p->text_format ? p->text_format : "see the docs");
    }
    fprintf(f, "\nexit status: 0 solved or proven impossible, 1 error (bad"
               " input, unreadable\nfile), 2 usage error, 3 a case hit a"
               " limit (its answer is still printed).\n");
}

static void print_version(void)
{
    const char *commit = gs_commit();
    if (commit[0])
        printf("gridsolve %s (commit %s)\n", gs_version(), commit);
    else
        printf("gridsolve %s\n", gs_version());
}

/* The exit status once stdout's buffered text is written: a help or
 * version sent to a full disk must not exit 0. */
static int flushed_stdout(void)
{
    if (fflush(stdout) == 0 && !ferror(stdout))
        return 0;
    fprintf(stderr, "gridsolve: cannot write to standard output: %s\n",
            strerror(errno));
    return EXIT_ERROR;
}

static bool is_help(const char *a)
{
    return strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0;
}

/* Reads all of file descriptor fd into a malloc'd buffer. read(2) into
 * the buffer itself, sized from fstat when fd is a file: no stdio and no
 * bounce buffer, whose fresh pages cost a fault each at every start. */
static int read_all(int fd, char **data, size_t *len)
{
    gs_buf b = GS_BUF_INIT;
    struct stat st;
    size_t want = 4096;

    if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
        (uintmax_t)st.st_size < SIZE_MAX / 2)
        want = (size_t)st.st_size + 1; /* + 1: the read that sees the end */
    for (;;) {
        if (gs_buf_reserve(&b, want)) {
            errno = ENOMEM;
            break;
        }
        ssize_t n = read(fd, b.data + b.len, b.cap - b.len - 1);
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0)
            break;
        if (n == 0) {
            *data = gs_buf_take(&b, len);
            if (!*data)
                errno = ENOMEM;
            return *data ? 0 : -1;
        }
        b.len += (size_t)n;
        b.data[b.len] = '\0';
        want = 1; /* the next read gets the room left, or a doubling */
    }
    gs_buf_free(&b);
    return -1;
}

/* Writes all of data[0..len) to fd: 0, or -1 on a write error. write(2),
 * not stdout: nothing else of `solve` prints there, and stdio's buffer
 * is one more page at every start. */
static int write_all(int fd, const char *data, size_t len)
{
    while (len > 0) {
        ssize_t n = write(fd, data, len);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return -1;
        data += n;
        len -= (size_t)n;
    }
    return 0;
}

/* Parses a non-negative number option value; -1 on junk (NaN too). */
static double number_arg(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || !(v >= 0))
        return -1;
    return v;
}

/* The options of `solve` that take a value (the next argument). */
static bool takes_value(const char *a)
{
    static const char *const names[] = {"--format", "--max-memory",
                                        "--timeout-ms", "--max-states"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++)
        if (strcmp(a, names[i]) == 0)
            return true;
    return false;
}

/* The options and arguments of `gridsolve solve`. */
typedef struct {
    const char *name, *path, *format;
    bool json;
    double timeout_ms;    /* -1: the default */
    long long max_states; /* -1: the default */
    /* The same process-wide budget as `serve`: without it one solve can
     * take every byte of the machine. The default is worked out when a
     * solve grows past a few MB (gs_mem_defer_default_budget). */
    uint64_t max_memory;
    bool max_memory_set;
} solve_args;

/* Reads `solve`'s command line into *sa. Returns -1 to go on, or the exit
 * status (0 after --help, EXIT_USAGE with a message on stderr). */
static int solve_parse(int argc, char **argv, solve_args *sa)
{
    *sa = (solve_args){.timeout_ms = -1, .max_states = -1};
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (takes_value(a) && i + 1 == argc) {
            fprintf(stderr, "gridsolve: %s needs a value\n", a);
            return EXIT_USAGE;
        }
        if (strcmp(a, "--json") == 0) {
            sa->json = true;
        } else if (strcmp(a, "--format") == 0) {
            sa->format = argv[++i];
        } else if (strcmp(a, "--max-memory") == 0) {
            sa->max_memory_set = true;
            if (!gs_config_parse_bytes(argv[++i], &sa->max_memory)) {
                fprintf(stderr, "gridsolve: --max-memory needs a byte count "
                                "(digits, optional K/M/G suffix)\n");
                return EXIT_USAGE;
            }
        } else if (strcmp(a, "--timeout-ms") == 0 ||
                   strcmp(a, "--max-states") == 0) {
            double v = number_arg(argv[++i]);
            if (v < 0) {
                fprintf(stderr, "gridsolve: %s needs a number >= 0\n", a);
                return EXIT_USAGE;
            }
            if (a[2] == 't') {
                sa->timeout_ms = v;
            } else if (v != floor(v)) {
                fprintf(stderr, "gridsolve: %s needs a whole number\n", a);
                return EXIT_USAGE;
            } else {
                /* Past the server's limits anyway; the cast stays defined. */
                sa->max_states =
                    v < 9e18 ? (long long)v : 9000000000000000000LL;
            }
        } else if (is_help(a)) {
            solve_usage(stdout);
            return flushed_stdout();
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "gridsolve: unknown option %s\n", a);
            return EXIT_USAGE;
        } else if (!sa->name) {
            sa->name = a;
        } else if (!sa->path) {
            sa->path = a;
        } else {
            fprintf(stderr,
                    "gridsolve: unexpected argument '%s' (see "
                    "gridsolve solve --help)\n",
                    a);
            return EXIT_USAGE;
        }
    }
    if (!sa->name) {
        solve_usage(stderr);
        return EXIT_USAGE;
    }
    return -1;
}

/* Reads the whole of path (standard input when NULL or "-") into a new
 * buffer *data of *len bytes. Returns 0, or EXIT_ERROR with a message. */
static int solve_input(const char *path, char **data, size_t *len)
{
    int fd = STDIN_FILENO;
    if (path && strcmp(path, "-") != 0 &&
        (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
        fprintf(stderr, "gridsolve: %s: %s\n", path, strerror(errno));
        return EXIT_ERROR;
    }
    int rrc = read_all(fd, data, len);
    int read_errno = errno;
    if (fd != STDIN_FILENO)
        close(fd);
    errno = read_errno;
    if (rrc) {
        fprintf(stderr, "gridsolve: cannot read %s: %s\n",
                path ? path : "standard input", strerror(errno));
        return EXIT_ERROR;
    }
    return 0;
}

static int cmd_solve(int argc, char **argv)
{
    solve_args sa;
    int prc = solve_parse(argc, argv, &sa);
    if (prc >= 0)
        return prc;
    const gs_puzzle *p = gs_puzzle_find(sa.name, strlen(sa.name));
    if (!p) {
        fprintf(stderr,
                "gridsolve: unknown puzzle '%s' (see gridsolve solve "
                "--help)\n",
                sa.name);
        return EXIT_USAGE;
    }
    if (sa.format) {
        gs_error ferr = {0};
        if (sa.json) {
            fprintf(stderr, "gridsolve: --format names a judge text "
                            "notation; --json reads a JSON body\n");
            return EXIT_USAGE;
        }
        if (gs_service_check_format(p, sa.format, &ferr)) {
            fprintf(stderr, "gridsolve: --format: %s\n", ferr.detail);
            return EXIT_USAGE;
        }
    }
    char *data = NULL;
    size_t len = 0;
    if (solve_input(sa.path, &data, &len))
        return EXIT_ERROR;

    if (sa.max_memory_set) {
        gs_mem_set_budget(gs_mem_process_budget(sa.max_memory));
        if (sa.max_memory && gs_mem_budget() < GS_MEM_MIN_REQUESTS) {
            fprintf(stderr,
                    "gridsolve: --max-memory %" PRIu64
                    " leaves the solve less than %u bytes once the "
                    "process's own size and slack are set aside\n",
                    sa.max_memory, GS_MEM_MIN_REQUESTS);
            free(data);
            return EXIT_USAGE;
        }
    } else {
        gs_mem_defer_default_budget(GS_CONFIG_MEMORY_PERCENT);
    }
    gs_mem_install_cjson_hooks();
    gs_solve_opts opts;
    gs_solve_opts_default(&opts);
    /* The command line is trusted: no server ceilings. A limit given on
     * it is the default and the ceiling of a JSON body's "limits", so
     * that --timeout-ms bounds the run whatever the body asks; without
     * the flag the body's own limits hold (they are the user's too). */
    opts.max_timeout_ms = 0;
    opts.max_states_limit = 0;
    opts.max_solve_bytes = 0;
    if (sa.timeout_ms >= 0)
        opts.timeout_ms = opts.max_timeout_ms = sa.timeout_ms;
    if (sa.max_states >= 0)
        opts.max_states = opts.max_states_limit = (uint64_t)sa.max_states;
    opts.text_format = sa.format;

    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    gs_solve_info info = {0};
    int rc = sa.json ? gs_service_json(p, data, len, &opts, &out, &info, &err)
                     : gs_service_text(p, data, len, &opts, -1, -1, &out, &info,
                                       &err);
    free(data);
    if (rc) {
        fprintf(stderr, "gridsolve: %s (%d %s)\n", err.detail,
                gs_error_http_status(rc), gs_error_title(rc));
        gs_buf_free(&out);
        return EXIT_ERROR;
    }
    int wrc = write_all(STDOUT_FILENO, out.data, out.len);
    gs_buf_free(&out);
    if (wrc) {
        fprintf(stderr, "gridsolve: cannot write the answer: %s\n",
                strerror(errno));
        return EXIT_ERROR;
    }
    /* Scripts must tell "no answer in time" from "no answer exists". */
    return info.status == GS_LIMIT ? EXIT_LIMIT : 0;
}

int main(int argc, char **argv)
{
    gs_mem_fix_map_threshold();
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "serve") == 0)
        return gs_server_main(argc - 1, argv + 1);
    if (strcmp(cmd, "solve") == 0)
        return cmd_solve(argc - 1, argv + 1);
    if (strcmp(cmd, "health") == 0)
        return gs_probe_main(argc - 1, argv + 1);
    bool help = is_help(cmd) || strcmp(cmd, "help") == 0;
    bool version = strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0;
    if ((help || version) && argc > 2) {
        fprintf(stderr, "gridsolve: unexpected argument '%s' after %s\n",
                argv[2], cmd);
        return EXIT_USAGE;
    }
    if (help) {
        usage(stdout);
        return flushed_stdout();
    }
    if (version) {
        print_version();
        return flushed_stdout();
    }
    fprintf(stderr, "gridsolve: unknown command '%s'\n", cmd);
    usage(stderr);
    return EXIT_USAGE;
}
