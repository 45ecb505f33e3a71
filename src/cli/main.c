/* main.c - the gridsolve command line: `serve` runs the HTTP service,
 * `solve` runs one puzzle's solver on judge text or one JSON body, so the
 * solvers are usable without a server. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/server.h"
#include "gridsolve/service.h"
#include "probe.h"

#define EXIT_USAGE 2

static void usage(FILE *f)
{
    fprintf(f,
            "usage: gridsolve serve [--help] [options]\n"
            "       gridsolve solve PUZZLE [FILE] [--json] [--timeout-ms MS]"
            " [--max-states N]\n"
            "                        [--format NAME]\n"
            "       gridsolve health [--host H] [--port N] [--path /healthz]\n"
            "\n"
            "solve reads judge text (or with --json one JSON request body)"
            " from FILE or\nstandard input and prints the judge output (or"
            " the JSON response).\n--format names the judge text notation"
            " where a puzzle has several\n(sokoban: xsb or contest; default:"
            " detected).\npuzzles:");
    for (size_t i = 0; i < gs_puzzle_count; i++)
        fprintf(f, " %s", gs_puzzles[i]->name);
    fprintf(f, "\n");
}

/* Reads all of f into a malloc'd buffer. */
static int read_all(FILE *f, char **data, size_t *len)
{
    gs_buf b = GS_BUF_INIT;
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        gs_buf_append(&b, chunk, n);
    if (ferror(f) || gs_buf_status(&b)) {
        gs_buf_free(&b);
        return -1;
    }
    *data = gs_buf_take(&b, len);
    return *data ? 0 : -1;
}

/* Parses a non-negative number option value; -1 on junk. */
static double number_arg(const char *s)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end || v < 0)
        return -1;
    return v;
}

static int cmd_solve(int argc, char **argv)
{
    const char *name = NULL, *path = NULL, *format = NULL;
    bool json = false;
    double timeout_ms = -1;
    long long max_states = -1;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "--json") == 0) {
            json = true;
        } else if (strcmp(a, "--format") == 0 && i + 1 < argc) {
            format = argv[++i];
        } else if ((strcmp(a, "--timeout-ms") == 0 ||
                    strcmp(a, "--max-states") == 0) &&
                   i + 1 < argc) {
            double v = number_arg(argv[++i]);
            if (v < 0) {
                fprintf(stderr, "gridsolve: %s needs a number >= 0\n", a);
                return EXIT_USAGE;
            }
            if (a[2] == 't')
                timeout_ms = v;
            else
                max_states = (long long)v;
        } else if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            usage(stdout);
            return 0;
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "gridsolve: unknown option %s\n", a);
            return EXIT_USAGE;
        } else if (!name) {
            name = a;
        } else if (!path) {
            path = a;
        } else {
            usage(stderr);
            return EXIT_USAGE;
        }
    }
    if (!name) {
        usage(stderr);
        return EXIT_USAGE;
    }
    const gs_puzzle *p = gs_puzzle_find(name, strlen(name));
    if (!p) {
        fprintf(stderr, "gridsolve: unknown puzzle '%s'\n", name);
        usage(stderr);
        return EXIT_USAGE;
    }

    FILE *f = stdin;
    if (path && strcmp(path, "-") != 0 && !(f = fopen(path, "rb"))) {
        fprintf(stderr, "gridsolve: %s: %s\n", path, strerror(errno));
        return 1;
    }
    char *data = NULL;
    size_t len = 0;
    int rrc = read_all(f, &data, &len);
    if (f != stdin)
        fclose(f);
    if (rrc) {
        fprintf(stderr, "gridsolve: cannot read %s\n", path ? path : "stdin");
        return 1;
    }

    gs_solve_opts opts;
    gs_solve_opts_default(&opts);
    /* The command line is trusted: its limits are not clamped. */
    opts.max_timeout_ms = 0;
    opts.max_states_limit = 0;
    opts.max_solve_bytes = 0;
    if (timeout_ms >= 0)
        opts.timeout_ms = timeout_ms;
    if (max_states >= 0)
        opts.max_states = (uint64_t)max_states;
    opts.text_format = format;

    gs_buf out = GS_BUF_INIT;
    gs_error err = {0};
    int rc =
        json ? gs_service_json(p, data, len, &opts, &out, NULL, &err)
             : gs_service_text(p, data, len, &opts, -1, -1, &out, NULL, &err);
    free(data);
    if (rc) {
        fprintf(stderr, "gridsolve: %s (%d %s)\n", err.detail,
                gs_error_http_status(rc), gs_error_title(rc));
        gs_buf_free(&out);
        return 1;
    }
    fwrite(out.data ? out.data : "", 1, out.len, stdout);
    gs_buf_free(&out);
    return fflush(stdout) == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return EXIT_USAGE;
    }
    if (strcmp(argv[1], "serve") == 0)
        return gs_server_main(argc - 1, argv + 1);
    if (strcmp(argv[1], "solve") == 0)
        return cmd_solve(argc - 1, argv + 1);
    if (strcmp(argv[1], "health") == 0)
        return gs_probe_main(argc - 1, argv + 1);
    if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "help") == 0) {
        usage(stdout);
        return 0;
    }
    fprintf(stderr, "gridsolve: unknown command '%s'\n", argv[1]);
    usage(stderr);
    return EXIT_USAGE;
}
