/* test_api.c - the API surface over HTTP: strict input (unknown fields and
 * query parameters), CORS origins and headers, GET /version and the
 * build-info metric, JSON logs with traceparent, and the cacheable
 * OpenAPI document (ETag, If-None-Match).
 *
 * Requests go through api_req below rather than the harness's gs_http:
 * these tests look at headers the harness does not keep (Vary, ETag,
 * Cache-Control, ...), so every response header is kept here. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/wait.h>
#include <unistd.h>

#include <curl/curl.h>

#include "itest.h"
#include "suites.h"

/* A response with all its header lines. */
typedef struct api_resp {
    long status;
    char headers[8192]; /* "name: value\r\n" lines, as received */
    size_t hlen;
    char *body;
    size_t len;
} api_resp;

static size_t api_on_header(char *ptr, size_t size, size_t nmemb, void *ud)
{
    api_resp *r = ud;
    size_t n = size * nmemb;
    if (n >= 5 && strncmp(ptr, "HTTP/", 5) == 0)
        r->hlen = 0; /* a new response (after 100 Continue) */
    if (r->hlen + n < sizeof r->headers) {
        memcpy(r->headers + r->hlen, ptr, n);
        r->hlen += n;
        r->headers[r->hlen] = '\0';
    }
    return n;
}

static size_t api_on_body(char *ptr, size_t size, size_t nmemb, void *ud)
{
    api_resp *r = ud;
    size_t n = size * nmemb;
    char *p = realloc(r->body, r->len + n + 1);
    if (!p)
        return 0;
    memcpy(p + r->len, ptr, n);
    r->body = p;
    r->len += n;
    r->body[r->len] = '\0';
    return n;
}

/* One request: method, path, extra header lines (NULL-ended, may be NULL),
 * and an optional body with its Content-Type. Fails the test when the
 * transfer fails. */
static void api_req(const gs_srv *s, const char *method, const char *path,
                    const char *const *headers, const char *ctype,
                    const char *body, api_resp *r)
{
    char url[1024], ct[128];
    struct curl_slist *h = curl_slist_append(NULL, "Expect:");
    CURL *c = curl_easy_init();

    memset(r, 0, sizeof *r);
    ck_assert_ptr_nonnull(c);
    snprintf(url, sizeof url, "%s%s", s->base, path);
    for (size_t i = 0; headers && headers[i]; i++)
        h = curl_slist_append(h, headers[i]);
    if (ctype) {
        snprintf(ct, sizeof ct, "Content-Type: %s", ctype);
        h = curl_slist_append(h, ct);
    }
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS, 20000L);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, h);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, api_on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, r);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, api_on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, r);
    if (body) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, body);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE,
                         (curl_off_t)strlen(body));
    }
    if (strcmp(method, "HEAD") == 0)
        curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    else if (strcmp(method, "GET") != 0 && strcmp(method, "POST") != 0)
        curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    CURLcode rc = curl_easy_perform(c);
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &r->status);
    curl_slist_free_all(h);
    curl_easy_cleanup(c);
    ck_assert_msg(rc == CURLE_OK, "%s %s: curl %d", method, path, (int)rc);
}

static void api_free(api_resp *r)
{
    free(r->body);
    r->body = NULL;
}

/* The value of header `name` (copied into out), or NULL when absent. */
static const char *api_header(const api_resp *r, const char *name, char *out,
                              size_t outlen)
{
    size_t nl = strlen(name);
    for (const char *line = r->headers; *line;) {
        const char *eol = strstr(line, "\r\n");
        size_t n = eol ? (size_t)(eol - line) : strlen(line);
        if (n > nl && strncasecmp(line, name, nl) == 0 && line[nl] == ':') {
            const char *v = line + nl + 1;
            while (*v == ' ')
                v++;
            size_t vl = n - (size_t)(v - line);
            if (vl >= outlen)
                vl = outlen - 1;
            memcpy(out, v, vl);
            out[vl] = '\0';
            return out;
        }
        line += n;
        if (*line == '\r')
            line += 2;
    }
    return NULL;
}

/* Asserts a 400 problem whose detail is exactly `detail`. */
static void assert_400(const api_resp *r, const char *detail)
{
    ck_assert_msg(r->status == 400, "HTTP %ld: %s", r->status,
                  r->body ? r->body : "");
    cJSON *j = cJSON_Parse(r->body);
    ck_assert_ptr_nonnull(j);
    ck_assert_str_eq(itest_str(j, "type"), GS_PROBLEM_BASE "bad-request");
    ck_assert_str_eq(itest_str(j, "detail"), detail);
    cJSON_Delete(j);
}

/* ---- strict input ------------------------------------------------------- */

START_TEST(unknown_fields_are_400)
{
    gs_srv s;
    api_resp r;
    ITEST_START(&s, NULL);

    api_req(&s, "POST", "/solve/curling", NULL, "application/json",
            "{\"board\": [[2,0,3]], \"max_throw\": 3}", &r);
    assert_400(&r, "unknown field \"max_throw\"; did you mean "
                   "\"max_throws\"?");
    api_free(&r);
    api_req(&s, "POST", "/solve/sokoban", NULL, "application/json",
            "{\"grid\": [\"#@$.#\"], \"optimise\": \"pushes\"}", &r);
    assert_400(&r, "unknown field \"optimise\"; did you mean \"optimize\"?");
    api_free(&r);
    api_req(&s, "POST", "/solve/bloxorz", NULL, "application/json",
            "{\"grid\": [\"XO\"], \"limits\": {\"timeout\": 5}}", &r);
    assert_400(&r, "unknown field \"limits.timeout\"; did you mean "
                   "\"limits.timeout_ms\"?");
    api_free(&r);
    /* The same body spelt right is solved. */
    api_req(&s, "POST", "/solve/curling", NULL, "application/json",
            "{\"board\": [[2,0,3]], \"max_throws\": 3}", &r);
    ck_assert_int_eq(r.status, 200);
    api_free(&r);
    ITEST_STOP(&s);
}
END_TEST

START_TEST(unknown_query_parameters_are_400)
{
    gs_srv s;
    api_resp r;
    ITEST_START(&s, NULL);

    api_req(&s, "POST", "/solve/curling?timeout=50", NULL, "text/plain",
            "2 1\n3 2\n0 0\n", &r);
    assert_400(&r, "unknown query parameter \"timeout\"; did you mean "
                   "\"timeout_ms\"?");
    api_free(&r);
    api_req(&s, "POST", "/solve/bloxorz?timeout_ms=500", NULL,
            "application/json", "{\"grid\": [\"XO\"]}", &r);
    assert_400(&r, "query parameter \"timeout_ms\" is for judge text mode; "
                   "in JSON mode send \"limits\": {\"timeout_ms\": N} in "
                   "the body");
    api_free(&r);
    api_req(&s, "POST", "/solve/curling?max_states=1000&timeout_ms=500", NULL,
            "text/plain", "2 1\n3 2\n0 0\n", &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, "1\n");
    api_free(&r);
    /* A notation the puzzle does not read: the CLI's message, no case. */
    api_req(&s, "POST", "/solve/sokoban?format=XSB", NULL, "text/plain",
            "#####\n#@$.#\n#####\n", &r);
    assert_400(&r, "unknown text format \"XSB\"; sokoban reads xsb, contest "
                   "or seed");
    api_free(&r);
    /* A byte order mark before judge text is not part of its first row. */
    api_req(&s, "POST", "/solve/sokoban?format=seed", NULL, "text/plain",
            "\xef\xbb\xbf"
            "1 4\nX*@.\n",
            &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_str_eq(r.body, "1\n");
    api_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* ---- command line ------------------------------------------------------ */

/* Runs `ENV $GRIDSOLVE_BIN ARGS` (env, args: shell words, trusted test
 * text) with stdin from `input` (NULL: /dev/null); stdout and stderr go
 * to out. Returns the exit status. */
static int cli_env(const char *env, const char *args, const char *input,
                   char *out, size_t outlen)
{
    char in_path[] = "/tmp/gs-itest-cli-XXXXXX", cmd[1024];
    int fd = mkstemp(in_path);

    ck_assert_int_ge(fd, 0);
    if (input)
        ck_assert_int_eq(write(fd, input, strlen(input)),
                         (ssize_t)strlen(input));
    close(fd);
    /* The shell opens the input and removes it at once: a CLI that hangs
     * until Check's timeout leaves no file behind. */
    /* A group, so that redirections in args apply after its 2>&1. */
    snprintf(cmd, sizeof cmd, "exec <%s; rm -f %s; { %s '%s' %s; } 2>&1",
             input ? in_path : "/dev/null", in_path, env, gs_itest_bin(), args);
    FILE *p = popen(cmd, "r");
    ck_assert_ptr_nonnull(p);
    size_t n = fread(out, 1, outlen - 1, p);
    out[n] = '\0';
    int st = pclose(p);
    unlink(in_path); /* when the shell did not start */
    ck_assert_msg(WIFEXITED(st), "%s: no normal exit", args);
    return WEXITSTATUS(st);
}

static int cli(const char *args, const char *input, char *out, size_t outlen)
{
    return cli_env("", args, input, out, outlen);
}

/* Judge text starts without libcjson: its first JSON call loads it
 * (include/gridsolve/cjson.h), which a JSON body then does. The dynamic
 * linker's own trace says which libraries a run maps. */
START_TEST(cli_loads_cjson_on_demand)
{
    static char out[65536];

    ck_assert_int_eq(cli_env("LD_DEBUG=files", "solve curling",
                             "2 1\n3 2\n0 0\n", out, sizeof out),
                     0);
    ck_assert_msg(!strstr(out, "libcjson"), "judge text loaded libcjson:\n%s",
                  out);
    ck_assert_msg(strstr(out, "\n1\n") || strncmp(out, "1\n", 2) == 0,
                  "no answer:\n%s", out);
    ck_assert_int_eq(cli_env("LD_DEBUG=files", "solve curling --json",
                             "{\"board\": [[2,1,1,3]], \"max_throws\": 1}", out,
                             sizeof out),
                     0);
    ck_assert_msg(strstr(out, "libcjson"), "JSON without libcjson?\n%s", out);
    ck_assert_ptr_nonnull(strstr(out, "\"status\":\"impossible\""));
}
END_TEST

START_TEST(cli_version_and_help)
{
    static char out[65536];
    char want[64] = "gridsolve ";
    FILE *vf = fopen("VERSION", "r");

    /* make runs the tests from the top of the tree, where VERSION is. */
    if (vf) {
        size_t n = strlen(want);
        if (fgets(want + n, (int)(sizeof want - n), vf))
            want[strcspn(want, "\n")] = '\0';
        fclose(vf);
    }
    ck_assert_int_eq(cli("--version", NULL, out, sizeof out), 0);
    ck_assert_msg(strncmp(out, want, strlen(want)) == 0, "'%s' for '%s'", out,
                  want);
    ck_assert_int_eq(cli("version", NULL, out, sizeof out), 0);
    ck_assert_msg(strncmp(out, want, strlen(want)) == 0, "%s", out);
    for (int i = 0; i < 3; i++) {
        const char *h[] = {"-h", "--help", "help"};
        ck_assert_int_eq(cli(h[i], NULL, out, sizeof out), 0);
        ck_assert_msg(strstr(out, "usage: gridsolve serve") &&
                          strstr(out, "exit status") &&
                          strstr(out, "3 a case hit a limit"),
                      "%s: %s", h[i], out);
    }
    ck_assert_int_eq(cli("serve -h", NULL, out, sizeof out), 0);
    ck_assert_ptr_nonnull(strstr(out, "--cors-origin"));
    ck_assert_int_eq(cli("health -h", NULL, out, sizeof out), 0);
    ck_assert_ptr_nonnull(strstr(out, "usage: gridsolve health"));
    ck_assert_int_eq(cli("bogus", NULL, out, sizeof out), 2);
    ck_assert_int_eq(cli("", NULL, out, sizeof out), 2);
}
END_TEST

/* solve --help names every puzzle with both of its input formats. */
START_TEST(cli_solve_help_lists_formats)
{
    static char out[65536];
    const char *names[] = {"bloxorz", "wallpushers", "sokoban", "curling",
                           "holedox"};

    ck_assert_int_eq(cli("solve --help", NULL, out, sizeof out), 0);
    for (size_t i = 0; i < 5; i++) {
        char head[32];
        snprintf(head, sizeof head, "\n  %s: ", names[i]);
        const char *at = strstr(out, head);
        ck_assert_msg(at, "%s missing from solve --help", names[i]);
        const char *next = strstr(at + 1, "\n\n");
        const char *fields = strstr(at, "JSON fields: ");
        const char *text = strstr(at, "judge text: ");
        ck_assert_msg(fields && text && (!next || text < next),
                      "%s lacks a format", names[i]);
    }
    ck_assert_ptr_nonnull(strstr(out, "JSON fields: board, max_throws"));
    ck_assert_ptr_nonnull(strstr(out, "exit status"));
    ck_assert_int_eq(cli("solve -h", NULL, out, sizeof out), 0);
}
END_TEST

/* 0 solved or impossible, 1 bad input, 2 usage, 3 a limit. */
START_TEST(cli_exit_status)
{
    static char out[65536];

    ck_assert_int_eq(cli("solve curling", "2 1\n3 2\n0 0\n", out, sizeof out),
                     0);
    ck_assert_str_eq(out, "1\n");
    ck_assert_int_eq(cli("solve curling --json",
                         "{\"board\": [[2,1,1,3]], \"max_throws\": 1}", out,
                         sizeof out),
                     0);
    ck_assert_ptr_nonnull(strstr(out, "\"status\":\"impossible\""));
    ck_assert_int_eq(cli("solve curling --json",
                         "{\"board\": [[2,0,1,0,3]], \"limits\": "
                         "{\"max_states\": 1}}",
                         out, sizeof out),
                     3);
    ck_assert_ptr_nonnull(strstr(out, "\"status\":\"limit\""));
    /* Judge text: one case of two hits the cap; the output is complete. */
    ck_assert_int_eq(cli("solve curling --max-states 1",
                         "2 1\n3 2\n5 1\n2 0 1 0 3\n0 0\n", out, sizeof out),
                     3);
    ck_assert_str_eq(out, "1\nlimit\n");
    /* A limit early in the body counts as much as one at its end. */
    ck_assert_int_eq(cli("solve curling --max-states 1",
                         "5 1\n2 0 1 0 3\n2 1\n3 2\n0 0\n", out, sizeof out),
                     3);
    ck_assert_str_eq(out, "limit\n1\n");
    ck_assert_int_eq(
        cli("solve curling --json", "{\"board\": 1}", out, sizeof out), 1);
    ck_assert_int_eq(cli("solve curling --json",
                         "{\"board\": [[2,3]], \"max_throw\": 2}", out,
                         sizeof out),
                     1);
    ck_assert_ptr_nonnull(strstr(out, "did you mean \"max_throws\"?"));
    ck_assert_int_eq(cli("solve chess", "", out, sizeof out), 2);
    ck_assert_int_eq(cli("solve curling --timeout-ms", "", out, sizeof out), 2);
    ck_assert_str_eq(out, "gridsolve: --timeout-ms needs a value\n");
    ck_assert_int_eq(cli("solve curling --max-states 2.5", "", out, sizeof out),
                     2);
    ck_assert_str_eq(out, "gridsolve: --max-states needs a whole number\n");
    ck_assert_int_eq(cli("solve curling --timeout-ms nan", "", out, sizeof out),
                     2);
    /* Past every limit: clamped, not undefined. */
    ck_assert_int_eq(cli("solve curling --max-states 1e30", "2 1\n3 2\n0 0\n",
                         out, sizeof out),
                     0);
    ck_assert_str_eq(out, "1\n");
    ck_assert_int_eq(cli("solve curling a b", "", out, sizeof out), 2);
    ck_assert_int_eq(cli("solve curling --nope", "", out, sizeof out), 2);
}
END_TEST

/* The options' own errors are usage errors (2), named before any input
 * is read; I/O failures say why (1); the flags bound a JSON body. */
START_TEST(cli_option_and_io_errors)
{
    static char out[65536];
    const char *xsb = "#####\n#@$.#\n#####\n";

    ck_assert_int_eq(cli("solve sokoban --format XSB", xsb, out, sizeof out),
                     2);
    ck_assert_str_eq(out, "gridsolve: --format: unknown text format \"XSB\"; "
                          "sokoban reads xsb, contest or seed\n");
    ck_assert_int_eq(
        cli("solve bloxorz --format xsb", "0 0\n", out, sizeof out), 2);
    ck_assert_ptr_nonnull(strstr(out, "bloxorz judge text has one notation"));
    ck_assert_int_eq(
        cli("solve sokoban --json --format xsb", "{}", out, sizeof out), 2);
    ck_assert_int_eq(cli("solve sokoban --format xsb", xsb, out, sizeof out),
                     0);
    ck_assert_str_eq(out, "R\n");
    ck_assert_int_eq(cli("--version x", NULL, out, sizeof out), 2);
    ck_assert_str_eq(out,
                     "gridsolve: unexpected argument 'x' after --version\n");
    ck_assert_int_eq(cli("--help x", NULL, out, sizeof out), 2);
    ck_assert_int_eq(cli("solve curling /", NULL, out, sizeof out), 1);
    ck_assert_str_eq(out, "gridsolve: cannot read /: Is a directory\n");
    /* A full disk is an error, for an answer and for the help alike. */
    ck_assert_int_eq(
        cli("solve curling >/dev/full", "2 1\n3 2\n0 0\n", out, sizeof out), 1);
    ck_assert_str_eq(
        out, "gridsolve: cannot write the answer: No space left on device\n");
    ck_assert_int_eq(cli("--help >/dev/full", NULL, out, sizeof out), 1);
    ck_assert_str_eq(out, "gridsolve: cannot write to standard output: No "
                          "space left on device\n");
    ck_assert_int_eq(cli("solve --help >/dev/full", NULL, out, sizeof out), 1);
    ck_assert_int_eq(cli("solve curling --max-memory 1M", "2 1\n3 2\n0 0\n",
                         out, sizeof out),
                     2);
    ck_assert_ptr_nonnull(strstr(out, "--max-memory 1048576 leaves the solve"));
    /* The body asks more states than --max-states allows: the flag wins. */
    ck_assert_int_eq(cli("solve curling --json --max-states 1",
                         "{\"board\": [[2,0,1,0,3]], \"limits\": "
                         "{\"max_states\": 100000}}",
                         out, sizeof out),
                     3);
    ck_assert_ptr_nonnull(strstr(out, "\"limit\":\"states\""));
    /* A byte order mark does not hide XSB's first row (the level is
     * impossible; without that row it was not). */
    ck_assert_int_eq(cli("solve sokoban", "\xef\xbb\xbf#$ .#\n#@$.#\n#####\n",
                         out, sizeof out),
                     0);
    ck_assert_str_eq(out, "impossible\n");
}
END_TEST

/* health parses its arguments strictly and reports the server's state. */
START_TEST(cli_health)
{
    static char out[4096];
    char args[256];
    gs_srv s;

    ck_assert_int_eq(cli("health extra", NULL, out, sizeof out), 2);
    ck_assert_int_eq(cli("health --port", NULL, out, sizeof out), 2);
    ck_assert_int_eq(cli("health --port 99999", NULL, out, sizeof out), 2);
    ck_assert_int_eq(cli("health --port x1", NULL, out, sizeof out), 2);
    ck_assert_int_eq(cli("health --path healthz", NULL, out, sizeof out), 2);
    ck_assert_int_eq(cli("health --verbose", NULL, out, sizeof out), 2);
    ITEST_START(&s, NULL);
    snprintf(args, sizeof args, "health --port %d", s.port);
    ck_assert_int_eq(cli(args, NULL, out, sizeof out), 0);
    ck_assert_str_eq(out, "200\n");
    snprintf(args, sizeof args, "health --port %d --path /nope", s.port);
    ck_assert_int_eq(cli(args, NULL, out, sizeof out), 1);
    snprintf(args, sizeof args, "health --port %d --path", s.port);
    ck_assert_int_eq(cli(args, NULL, out, sizeof out), 2);
    ITEST_STOP(&s);
}
END_TEST

/* ---- CORS --------------------------------------------------------------- */

/* Asserts header `name` is absent from r. */
static void assert_no_header(const api_resp *r, const char *name)
{
    char v[256];
    ck_assert_msg(!api_header(r, name, v, sizeof v), "%s: %s present", name, v);
}

/* Asserts header `name` of r equals want. */
static void assert_header(const api_resp *r, const char *name, const char *want)
{
    char v[1024];
    ck_assert_msg(api_header(r, name, v, sizeof v), "no %s header", name);
    ck_assert_str_eq(v, want);
}

/* With a list, a listed origin is echoed with Vary: Origin, in preflights,
 * answers and errors alike; any other origin is granted nothing. */
START_TEST(cors_origin_list)
{
    gs_srv s;
    api_resp r;
    ITEST_START(&s, "--cors-origin",
                "https://app.example, http://localhost:3000", NULL);
    const char *pre_a[] = {"Origin: http://localhost:3000",
                           "Access-Control-Request-Method: POST",
                           "Access-Control-Request-Headers: traceparent", NULL};
    api_req(&s, "OPTIONS", "/solve/curling", pre_a, NULL, NULL, &r);
    ck_assert_int_eq(r.status, 204);
    assert_header(&r, "Access-Control-Allow-Origin", "http://localhost:3000");
    assert_header(&r, "Vary", "Origin");
    assert_header(&r, "Access-Control-Allow-Methods", "POST, OPTIONS");
    assert_header(&r, "Access-Control-Allow-Headers",
                  "Content-Type, X-Request-Id, traceparent, tracestate, "
                  "Authorization");
    api_free(&r);

    const char *app[] = {"Origin: https://app.example", NULL};
    api_req(&s, "POST", "/solve/curling", app, "application/json",
            "{\"board\": [[2,0,3]]}", &r);
    ck_assert_int_eq(r.status, 200);
    assert_header(&r, "Access-Control-Allow-Origin", "https://app.example");
    assert_header(&r, "Vary", "Origin");
    assert_header(&r, "Access-Control-Expose-Headers",
                  "X-Request-Id, Retry-After");
    api_free(&r);
    api_req(&s, "GET", "/nope", app, NULL, NULL, &r);
    ck_assert_int_eq(r.status, 404);
    assert_header(&r, "Access-Control-Allow-Origin", "https://app.example");
    api_free(&r);

    /* Not listed (a look-alike included): no grant, still Vary. */
    const char *evil[] = {"Origin: https://app.example.evil",
                          "Access-Control-Request-Method: POST", NULL};
    api_req(&s, "OPTIONS", "/solve/curling", evil, NULL, NULL, &r);
    assert_no_header(&r, "Access-Control-Allow-Origin");
    assert_no_header(&r, "Access-Control-Allow-Headers");
    assert_no_header(&r, "Access-Control-Allow-Methods");
    assert_header(&r, "Vary", "Origin");
    api_free(&r);
    api_req(&s, "GET", "/healthz", evil, NULL, NULL, &r);
    ck_assert_int_eq(r.status, 200);
    assert_no_header(&r, "Access-Control-Allow-Origin");
    api_free(&r);
    /* No Origin at all: not a CORS request. */
    api_req(&s, "GET", "/healthz", NULL, NULL, NULL, &r);
    assert_no_header(&r, "Access-Control-Allow-Origin");
    assert_header(&r, "Vary", "Origin");
    api_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* "*" (the default) grants every origin without Vary; the allowed request
 * headers are configurable. */
START_TEST(cors_any_and_headers)
{
    gs_srv s;
    api_resp r;
    ITEST_START(&s, "--cors-headers", "Content-Type, X-Api-Key", NULL);
    const char *pre[] = {"Origin: https://x.example",
                         "Access-Control-Request-Method: GET", NULL};
    api_req(&s, "OPTIONS", "/puzzles", pre, NULL, NULL, &r);
    ck_assert_int_eq(r.status, 204);
    assert_header(&r, "Access-Control-Allow-Origin", "*");
    assert_header(&r, "Access-Control-Allow-Headers",
                  "Content-Type, X-Api-Key");
    assert_header(&r, "Access-Control-Allow-Methods", "GET, HEAD, OPTIONS");
    assert_no_header(&r, "Vary");
    api_free(&r);
    ITEST_STOP(&s);
}
END_TEST

/* A bad origin list stops the server at start with a usage error. */
START_TEST(cors_bad_origin_refused)
{
    static char out[4096];
    ck_assert_int_eq(cli("serve --port 0 --cors-origin https://a.example/",
                         NULL, out, sizeof out),
                     2);
    ck_assert_msg(strstr(out, "is not an origin"), "%s", out);
}
END_TEST

/* A --max-memory too small for the process itself is a usage error at
 * start, not a failure to build its tables; a flag also wins over a bad
 * variable it overrides. */
START_TEST(serve_refuses_tiny_memory_budget)
{
    static char out[4096];
    ck_assert_int_eq(
        cli("serve --port 0 --max-memory 1K", NULL, out, sizeof out), 2);
    ck_assert_msg(strstr(out, "--max-memory 1024 leaves requests less than"),
                  "%s", out);
    ck_assert_int_eq(cli_env("GRIDSOLVE_TIMEOUT_MS=70000", "serve --port 0",
                             NULL, out, sizeof out),
                     2);
    ck_assert_msg(strstr(out, "GRIDSOLVE_TIMEOUT_MS 70000 exceeds "
                              "--max-timeout-ms (its default) 60000"),
                  "%s", out);
}
END_TEST

/* ---- version ------------------------------------------------------------ */

/* GET /version agrees with --version, and /metrics carries the same build
 * in gridsolve_build_info. */
START_TEST(version_endpoint_and_metric)
{
    static char out[256];
    char want[512];
    gs_srv s;
    api_resp r;

    ck_assert_int_eq(cli("--version", NULL, out, sizeof out), 0);
    out[strcspn(out, "\n")] = '\0';
    ITEST_START(&s, NULL);
    api_req(&s, "GET", "/version", NULL, NULL, NULL, &r);
    ck_assert_int_eq(r.status, 200);
    assert_header(&r, "Content-Type", "application/json");
    cJSON *j = cJSON_Parse(r.body);
    ck_assert_ptr_nonnull(j);
    ck_assert_int_eq(cJSON_GetArraySize(j), 3);
    ck_assert_str_eq(itest_str(j, "name"), "gridsolve");
    const char *version = itest_str(j, "version");
    const char *commit = itest_str(j, "commit");
    ck_assert_ptr_nonnull(version);
    ck_assert_ptr_nonnull(commit);
    if (strcmp(commit, "unknown") == 0)
        snprintf(want, sizeof want, "gridsolve %s", version);
    else
        snprintf(want, sizeof want, "gridsolve %s (commit %s)", version,
                 commit);
    ck_assert_str_eq(out, want);
    api_free(&r);

    api_req(&s, "HEAD", "/version", NULL, NULL, NULL, &r);
    ck_assert_int_eq(r.status, 200);
    api_free(&r);
    api_req(&s, "DELETE", "/version", NULL, NULL, NULL, &r);
    ck_assert_int_eq(r.status, 405);
    api_free(&r);

    api_req(&s, "GET", "/metrics", NULL, NULL, NULL, &r);
    snprintf(want, sizeof want,
             "\ngridsolve_build_info{version=\"%s\",commit=\"%s\"} 1\n",
             version, strcmp(commit, "unknown") ? commit : "");
    ck_assert_msg(strstr(r.body, want), "no '%s' in /metrics", want);
    ck_assert_ptr_nonnull(strstr(r.body, "gridsolve_http_requests_total{"
                                         "route=\"/version\",code=\"200\"}"));
    api_free(&r);
    cJSON_Delete(j);
    ITEST_STOP(&s);
}
END_TEST

/* ---- logs --------------------------------------------------------------- */

#define TP "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"

/* Waits up to 3 s for the server's log to hold a line containing
 * `needle`; copies that line into out. False on timeout. */
static bool log_line(const gs_srv *s, const char *needle, char *out,
                     size_t outlen)
{
    static char log[65536];
    for (int i = 0; i < 300; i++) {
        if (gs_srv_log(s, log, sizeof log) > 0) {
            const char *at = strstr(log, needle);
            if (at) {
                const char *start = at, *end = strchr(at, '\n');
                while (start > log && start[-1] != '\n')
                    start--;
                size_t n = end ? (size_t)(end - start) : strlen(start);
                snprintf(out, outlen, "%.*s", (int)n, start);
                return true;
            }
        }
        gs_sleep_ms(10);
    }
    return false;
}

/* --log-format json: one parseable object a line, with the documented
 * fields, the traceparent and its trace id. */
START_TEST(json_log_with_traceparent)
{
    gs_srv s;
    api_resp r;
    char line[2048];
    ITEST_START(&s, "--log-format", "json", NULL);
    const char *h[] = {"X-Request-Id: log-json-1", "traceparent: " TP, NULL};
    api_req(&s, "POST", "/solve/curling", h, "application/json",
            "{\"board\": [[2,0,3]]}", &r);
    ck_assert_int_eq(r.status, 200);
    api_free(&r);
    ck_assert_msg(log_line(&s, "\"log-json-1\"", line, sizeof line),
                  "no log line for the request");
    cJSON *j = cJSON_Parse(line);
    ck_assert_msg(j != NULL, "not JSON: %s", line);
    ck_assert_str_eq(itest_str(j, "method"), "POST");
    ck_assert_str_eq(itest_str(j, "path"), "/solve/curling");
    ck_assert_str_eq(itest_str(j, "result"), "solved");
    ck_assert_str_eq(itest_str(j, "traceparent"), TP);
    ck_assert_str_eq(itest_str(j, "trace_id"),
                     "4bf92f3577b34da6a3ce929d0e0e4736");
    ck_assert_int_eq(cJSON_GetObjectItem(j, "status")->valueint, 200);
    ck_assert(cJSON_IsNumber(cJSON_GetObjectItem(j, "ms")));
    ck_assert(cJSON_IsNumber(cJSON_GetObjectItem(j, "expanded")));
    const char *t = itest_str(j, "time");
    ck_assert_msg(t && strlen(t) == 24 && t[10] == 'T' && t[23] == 'Z',
                  "time '%s'", t ? t : "");
    cJSON_Delete(j);

    /* An invalid traceparent (upper case) is ignored, not refused. */
    const char *h2[] = {"X-Request-Id: log-json-2",
                        "traceparent: 00-4BF92F3577B34DA6A3CE929D0E0E4736-"
                        "00f067aa0ba902b7-01",
                        NULL};
    api_req(&s, "GET", "/healthz", h2, NULL, NULL, &r);
    ck_assert_int_eq(r.status, 200);
    api_free(&r);
    ck_assert(log_line(&s, "\"log-json-2\"", line, sizeof line));
    j = cJSON_Parse(line);
    ck_assert_ptr_nonnull(j);
    ck_assert_ptr_null(cJSON_GetObjectItem(j, "traceparent"));
    ck_assert_ptr_null(cJSON_GetObjectItem(j, "result"));
    cJSON_Delete(j);

    /* The server's own lines too (start, signal, drain, stop): a JSON log
     * is one object a line from start to end. */
    ck_assert_int_eq(kill(s.pid, SIGTERM), 0);
    static char all[65536];
    ck_assert_msg(log_line(&s, "\"msg\":\"stopped\"", line, sizeof line),
                  "no stop line");
    ck_assert_int_gt(gs_srv_log(&s, all, sizeof all), 0); /* read before the
                                                              reap drops it */
    ck_assert_int_eq(gs_srv_wait(&s, 5000), 0);
    int notes = 0;
    for (char *ln = all, *nl; *ln; ln = nl + 1) {
        nl = strchr(ln, '\n');
        ck_assert_msg(nl != NULL, "last line not ended: %s", ln);
        *nl = '\0';
        j = cJSON_Parse(ln);
        ck_assert_msg(j != NULL, "not JSON: %s", ln);
        const char *msg = itest_str(j, "msg");
        if (msg) {
            ck_assert_str_eq(itest_str(j, "level"), "info");
            ck_assert_uint_eq(strlen(itest_str(j, "time")), 24);
            notes += strncmp(msg, "listening on 127.0.0.1:", 23) == 0 ||
                     strcmp(msg, "SIGTERM received") == 0 ||
                     strcmp(msg, "stopped") == 0;
        }
        cJSON_Delete(j);
    }
    ck_assert_int_eq(notes, 3);
    gs_srv_kill(&s);
}
END_TEST

/* The default text line gains traceparent=... when one is given. */
START_TEST(text_log_with_traceparent)
{
    gs_srv s;
    api_resp r;
    char line[2048];
    ITEST_START(&s, NULL);
    const char *h[] = {"X-Request-Id: log-text-1", "traceparent: " TP, NULL};
    api_req(&s, "GET", "/healthz", h, NULL, NULL, &r);
    api_free(&r);
    ck_assert(log_line(&s, "id=log-text-1", line, sizeof line));
    ck_assert_msg(strstr(line, " GET /healthz 200 ") &&
                      strstr(line, "id=log-text-1 traceparent=" TP),
                  "%s", line);
    ITEST_STOP(&s);
}
END_TEST

/* ---- the OpenAPI document ---------------------------------------------- */

/* GET /openapi.yaml is cacheable with a strong ETag; If-None-Match with
 * that tag is a 304 without a body; other answers stay no-store. */
START_TEST(openapi_etag)
{
    gs_srv s, s2;
    api_resp r;
    char etag[128], etag2[128], hdr[200], v[256];
    ITEST_START(&s, NULL);

    api_req(&s, "GET", "/openapi.yaml", NULL, NULL, NULL, &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_msg(r.body && strncmp(r.body, "openapi:", 8) == 0, "body %.40s",
                  r.body ? r.body : "");
    ck_assert_ptr_nonnull(api_header(&r, "ETag", etag, sizeof etag));
    ck_assert_msg(etag[0] == '"' && etag[strlen(etag) - 1] == '"',
                  "not a strong tag: %s", etag);
    assert_header(&r, "Cache-Control", "public, max-age=300");
    api_free(&r);

    snprintf(hdr, sizeof hdr, "If-None-Match: %s", etag);
    const char *inm[] = {hdr, NULL};
    api_req(&s, "GET", "/openapi.yaml", inm, NULL, NULL, &r);
    ck_assert_int_eq(r.status, 304);
    ck_assert_uint_eq(r.len, 0);
    assert_header(&r, "ETag", etag);
    assert_header(&r, "Cache-Control", "public, max-age=300");
    api_free(&r);
    api_req(&s, "HEAD", "/openapi.yaml", inm, NULL, NULL, &r);
    ck_assert_int_eq(r.status, 304);
    api_free(&r);

    /* A list holding the tag, weak or not, matches; another tag does not. */
    snprintf(hdr, sizeof hdr, "If-None-Match: \"old\", W/%s", etag);
    api_req(&s, "GET", "/openapi.yaml", inm, NULL, NULL, &r);
    ck_assert_int_eq(r.status, 304);
    api_free(&r);
    const char *other[] = {"If-None-Match: \"0000\"", NULL};
    api_req(&s, "GET", "/openapi.yaml", other, NULL, NULL, &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_uint_gt(r.len, 100);
    api_free(&r);

    /* Other answers are not cacheable and carry no tag. */
    api_req(&s, "GET", "/puzzles", NULL, NULL, NULL, &r);
    assert_header(&r, "Cache-Control", "no-store");
    ck_assert_ptr_null(api_header(&r, "ETag", v, sizeof v));
    api_free(&r);

    /* The tag is a hash of the bytes: another process gives the same. */
    ITEST_START(&s2, NULL);
    api_req(&s2, "HEAD", "/openapi.yaml", NULL, NULL, NULL, &r);
    ck_assert_int_eq(r.status, 200);
    ck_assert_ptr_nonnull(api_header(&r, "ETag", etag2, sizeof etag2));
    ck_assert_str_eq(etag, etag2);
    api_free(&r);
    ITEST_STOP(&s2);
    ITEST_STOP(&s);
}
END_TEST

Suite *gs_itest_api_suite(void)
{
    Suite *s = suite_create("api");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, unknown_fields_are_400);
    tcase_add_test(tc, unknown_query_parameters_are_400);
    tcase_add_test(tc, cli_version_and_help);
    tcase_add_test(tc, cli_loads_cjson_on_demand);
    tcase_add_test(tc, cli_solve_help_lists_formats);
    tcase_add_test(tc, cli_exit_status);
    tcase_add_test(tc, cli_option_and_io_errors);
    tcase_add_test(tc, cli_health);
    tcase_add_test(tc, cors_origin_list);
    tcase_add_test(tc, cors_any_and_headers);
    tcase_add_test(tc, cors_bad_origin_refused);
    tcase_add_test(tc, serve_refuses_tiny_memory_budget);
    tcase_add_test(tc, version_endpoint_and_metric);
    tcase_add_test(tc, json_log_with_traceparent);
    tcase_add_test(tc, text_log_with_traceparent);
    tcase_add_test(tc, openapi_etag);
    suite_add_tcase(s, tc);
    return s;
}
