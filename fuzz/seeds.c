/* seeds.c - writes the fuzzers' seed corpora and dictionaries.
 *
 *   fuzz_seeds DIR   writes DIR/<puzzle>-<mode>/seed-N and DIR/<puzzle>.dict
 *                    for every puzzle of the registry, and prints one
 *                    "<puzzle> <mode>" line per corpus written (modes json,
 *                    text, and text-F for each notation F of the puzzle's
 *                    text_formats, with the same text seeds); also
 *                    DIR/http/ and DIR/http.dict: raw HTTP requests for
 *                    fuzz_http (every route, every puzzle, both modes);
 *                    DIR/config/ and DIR/config.dict for fuzz_config
 *
 * The seeds are each puzzle's `example` body (plus variants with limits),
 * and the judge samples of tests/samples.h, whole and case by case, so
 * nothing large is committed: the corpora are generated at build time.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <cjson/cJSON.h>

#include "../tests/samples.h"
#include "gridsolve/config.h"
#include "gridsolve/puzzle.h"

/* Judge text samples by puzzle name. */
static const struct {
    const char *puzzle;
    const char *text;
} text_samples[] = {
    {"bloxorz", GS_SAMPLE_BLOXORZ_IN},
    {"curling", GS_SAMPLE_CURLING_IN},
    {"wallpushers", GS_SAMPLE_WALLPUSHERS_IN},
    {"holedox", GS_SAMPLE_HOLEDOX_IN},
    {"holedox", GS_SAMPLE_HOLEDOX_TRICKY_IN},
    {"sokoban", GS_SAMPLE_SOKOBAN_SEED_IN},
    /* XSB as collections publish it: comments, titles, a player and a
     * box on goals, an impossible level. */
    {"sokoban", "; Microban 5\n #######\n #     #\n # .$. #\n## $@$ #\n"
                "#  .$. #\n#      #\n########\nTitle: two\n\n#####\n"
                "#@$.#\n#####\n\n######\n#+*$.#\n######\n\n"
                "######\n#+ $ #\n######\n"},
};

/* Extra JSON bodies by puzzle name (the examples come from the registry). */
static const struct {
    const char *puzzle;
    const char *json;
} json_samples[] = {
    {"bloxorz", GS_SAMPLE_BLOXORZ_JSON},
    {"sokoban", "{\"grid\":[\"#####\",\"#@$.#\",\"#####\"],"
                "\"optimize\":\"pushes\"}"},
    {"sokoban", "{\"grid\":[\" #######\",\" #     #\",\" # .$. #\","
                "\"## $@$ #\",\"#  .$. #\",\"#      #\",\"########\"],"
                "\"optimize\":\"any\"}"},
};

static int mkdir_p(const char *path)
{
    if (mkdir(path, 0777) == 0 || errno == EEXIST)
        return 0;
    perror(path);
    return -1;
}

/* Writes len bytes to dir/seed-<n>. */
static int write_seed(const char *dir, int n, const char *data, size_t len)
{
    char path[512];
    snprintf(path, sizeof path, "%s/seed-%d", dir, n);
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(data, 1, len, f) != len || fclose(f) != 0) {
        perror(path);
        return -1;
    }
    return 0;
}

/* The example body, the same with a "limits" object added, and bodies
 * the service refuses before the puzzle sees them. */
static int json_seeds(const gs_puzzle *p, const char *dir)
{
    int n = 0, rc = 0;
    if (p->example) {
        rc |= write_seed(dir, n++, p->example, strlen(p->example));
        cJSON *doc = cJSON_Parse(p->example);
        cJSON *lim = doc ? cJSON_AddObjectToObject(doc, "limits") : NULL;
        if (lim && cJSON_AddNumberToObject(lim, "timeout_ms", 3) &&
            cJSON_AddNumberToObject(lim, "max_states", 50)) {
            char *s = cJSON_PrintUnformatted(doc);
            if (s)
                rc |= write_seed(dir, n++, s, strlen(s));
            cJSON_free(s);
        }
        cJSON_Delete(doc);
    }
    /* Limits the service refuses, and arrays nested past cJSON's limit. */
    static const char bad_limits[] =
        "{\"limits\":{\"timeout_ms\":\"5\",\"max_states\":1.5}}";
    rc |= write_seed(dir, n++, bad_limits, sizeof bad_limits - 1);
    char deep[1200];
    memset(deep, '[', sizeof deep);
    rc |= write_seed(dir, n++, deep, sizeof deep);
    for (size_t i = 0; i < sizeof json_samples / sizeof *json_samples; i++)
        if (strcmp(json_samples[i].puzzle, p->name) == 0)
            rc |= write_seed(dir, n++, json_samples[i].json,
                             strlen(json_samples[i].json));
    return rc ? -1 : n;
}

/* Each judge sample whole, and its first case alone (the text up to the
 * second case is hard to find generically, so: the first half of the
 * lines, which libFuzzer's mutations extend). */
static int text_seeds(const gs_puzzle *p, const char *dir)
{
    int n = 0, rc = 0;
    for (size_t i = 0; i < sizeof text_samples / sizeof *text_samples; i++) {
        const char *t = text_samples[i].text;
        if (strcmp(text_samples[i].puzzle, p->name) != 0)
            continue;
        rc |= write_seed(dir, n++, t, strlen(t));
        rc |= write_seed(dir, n++, t, strlen(t) / 2);
    }
    return rc ? -1 : n;
}

/* Adds "key" tokens of a JSON object text (example or options) to f. */
static void dict_keys(FILE *f, const char *json)
{
    cJSON *doc = json ? cJSON_Parse(json) : NULL;
    const cJSON *it;
    cJSON_ArrayForEach(it, doc)
    {
        if (it->string)
            fprintf(f, "\"\\\"%s\\\"\"\n", it->string);
    }
    cJSON_Delete(doc);
}

static int write_dict(const gs_puzzle *p, const char *root)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s.dict", root, p->name);
    FILE *f = fopen(path, "w");
    if (!f) {
        perror(path);
        return -1;
    }
    static const char *const common[] = {"\"\\\"limits\\\"\"",
                                         "\"\\\"timeout_ms\\\"\"",
                                         "\"\\\"max_states\\\"\"",
                                         "\"null\"",
                                         "\"true\"",
                                         "\"false\"",
                                         "\"-1\"",
                                         "\"1e300\"",
                                         "\"4096\"",
                                         "\"0 0\\x0a\"",
                                         "\"\\\\u0000\""};
    for (size_t i = 0; i < sizeof common / sizeof *common; i++)
        fprintf(f, "%s\n", common[i]);
    dict_keys(f, p->example);
    dict_keys(f, p->options);
    return fclose(f) == 0 ? 0 : -1;
}

/* Writes one raw HTTP request with a body to dir/seed-<n>. */
static int write_request(const char *dir, int n, const char *method,
                         const char *path, const char *ctype, const char *body)
{
    char head[512];
    size_t blen = body ? strlen(body) : 0;
    int hl = snprintf(head, sizeof head,
                      "%s %s HTTP/1.1\r\nHost: fuzz\r\n%s%s%s"
                      "Content-Length: %zu\r\n\r\n",
                      method, path, ctype ? "Content-Type: " : "",
                      ctype ? ctype : "", ctype ? "\r\n" : "", blen);
    char *req = malloc((size_t)hl + blen);
    if (!req)
        return -1;
    memcpy(req, head, (size_t)hl);
    if (blen)
        memcpy(req + hl, body, blen);
    int rc = write_seed(dir, n, req, (size_t)hl + blen);
    free(req);
    return rc;
}

/* Raw requests for fuzz_http: the service routes, a preflight, a chunked
 * body, and for every puzzle its example (JSON) and judge sample (text). */
static int http_seeds(const char *root)
{
    static const char *const fixed[] = {
        "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /readyz HTTP/1.1\r\nHost: x\r\nX-Request-Id: abc-1\r\n\r\n",
        "GET /puzzles HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET /version HTTP/1.1\r\nHost: x\r\n\r\n",
        "GET / HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"x\"\r\n\r\n",
        "POST /solve/holedox HTTP/1.1\r\nHost: x\r\nAccept: "
        "text/event-stream\r\nContent-Type: application/json\r\n"
        "Content-Length: 2\r\n\r\n{}",
        "GET /metrics HTTP/1.0\r\n\r\n",
        "HEAD /openapi.yaml HTTP/1.1\r\nHost: x\r\n\r\n",
        "OPTIONS /solve/bloxorz HTTP/1.1\r\nHost: x\r\nOrigin: "
        "https://a.example\r\nAccess-Control-Request-Method: POST\r\n\r\n",
        /* Chunk sizes are hex: "a" is the 10 bytes "2 1\n3 2\n0 ". */
        "POST /solve/curling?timeout_ms=3&max_states=50 HTTP/1.1\r\nHost: "
        "x\r\nContent-Type: text/plain\r\nTransfer-Encoding: "
        "chunked\r\n\r\na\r\n2 1\n3 2\n0 \r\n2\r\n0\n\r\n0\r\n\r\n",
        "GET /healthz HTTP/1.1\r\nHost: x\r\n\r\nGET /puzzles "
        "HTTP/1.1\r\nHost: x\r\n\r\n",
        /* Judge text in a named notation, and one the puzzle lacks. */
        "POST /solve/sokoban?format=xsb&timeout_ms=3 HTTP/1.1\r\nHost: "
        "x\r\nContent-Type: text/plain\r\nContent-Length: 18\r\n\r\n"
        "#####\n#@$.#\n#####\n",
        "POST /solve/sokoban?format=contest HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: text/plain\r\nContent-Length: 21\r\n\r\n"
        "3 5\n#####\n#X*@#\n#####",
        "POST /solve/bloxorz?format=xsb HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: text/plain\r\nContent-Length: 0\r\n\r\n",
        /* Query values the server refuses; a query in JSON mode. */
        "POST /solve/curling?timeout_ms=x&max_states=0 HTTP/1.1\r\nHost: "
        "x\r\nContent-Type: text/plain\r\nContent-Length: 4\r\n\r\n0 0\n",
        "POST /solve/curling?max_states=1 HTTP/1.1\r\nHost: x\r\n"
        "Content-Type: application/json\r\nContent-Length: 2\r\n\r\n{}",
        /* Framing the server refuses: two lengths, both framings, an
         * unknown coding, a body over --max-body. */
        "POST /solve/holedox HTTP/1.1\r\nHost: x\r\nContent-Type: "
        "application/json\r\nContent-Length: 2\r\nContent-Length: "
        "2\r\n\r\n{}",
        "POST /solve/holedox HTTP/1.1\r\nHost: x\r\nContent-Type: "
        "application/json\r\nTransfer-Encoding: chunked\r\n"
        "Content-Length: 7\r\n\r\n2\r\n{}\r\n0\r\n\r\n",
        "POST /solve/holedox HTTP/1.1\r\nHost: x\r\nContent-Type: "
        "application/json\r\nTransfer-Encoding: gzip\r\n\r\n",
        "POST /solve/wallpushers HTTP/1.1\r\nHost: x\r\nContent-Type: "
        "application/json\r\nContent-Length: 99999999\r\n\r\n{",
        /* Tracing and CORS headers (fuzz_http allows two origins). */
        "POST /solve/bloxorz HTTP/1.1\r\nHost: x\r\ntraceparent: "
        "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01\r\n"
        "Origin: http://b.example:8080\r\nContent-Type: "
        "application/json; charset=utf-8\r\nContent-Length: 2\r\n\r\n{}",
        "OPTIONS /solve/sokoban HTTP/1.1\r\nHost: x\r\nOrigin: "
        "https://evil.example\r\nAccess-Control-Request-Method: POST\r\n"
        "Access-Control-Request-Headers: content-type\r\n\r\n",
    };
    char dir[512];
    int n = 0, rc = 0;
    snprintf(dir, sizeof dir, "%s/http", root);
    if (mkdir_p(dir))
        return -1;
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed; i++)
        rc |= write_seed(dir, n++, fixed[i], strlen(fixed[i]));
    for (size_t i = 0; i < gs_puzzle_count; i++) {
        const gs_puzzle *p = gs_puzzles[i];
        char path[128];
        snprintf(path, sizeof path, "/solve/%s", p->name);
        if (p->example)
            rc |= write_request(dir, n++, "POST", path, "application/json",
                                p->example);
        for (size_t k = 0; k < sizeof text_samples / sizeof *text_samples; k++)
            if (strcmp(text_samples[k].puzzle, p->name) == 0) {
                snprintf(path, sizeof path, "/solve/%s?timeout_ms=3", p->name);
                rc |= write_request(dir, n++, "POST", path, "text/plain",
                                    text_samples[k].text);
                break;
            }
    }
    snprintf(dir, sizeof dir, "%s/http.dict", root);
    FILE *f = fopen(dir, "w");
    if (!f)
        return -1;
    static const char *const tokens[] = {"POST ",
                                         "GET ",
                                         "OPTIONS ",
                                         " HTTP/1.1\\x0d\\x0a",
                                         "\\x0d\\x0a",
                                         "Content-Length: ",
                                         "Content-Type: application/json",
                                         "Content-Type: text/plain",
                                         "Transfer-Encoding: chunked",
                                         "Connection: keep-alive",
                                         "Expect: 100-continue",
                                         "X-Request-Id: ",
                                         "Origin: ",
                                         "?timeout_ms=",
                                         "&max_states=",
                                         "&format=",
                                         "?format=xsb",
                                         "contest",
                                         "seed",
                                         "traceparent: ",
                                         "Accept: text/event-stream",
                                         "Origin: https://a.example",
                                         "If-None-Match: ",
                                         "/solve/",
                                         "/metrics"};
    for (size_t i = 0; i < sizeof tokens / sizeof *tokens; i++)
        fprintf(f, "\"%s\"\n", tokens[i]);
    if (fclose(f) != 0)
        rc = -1;
    return rc ? -1 : 0;
}

/* fuzz_config seeds: argv pieces, an empty piece, then NAME=VALUE
 * entries; and config.dict with every flag and variable name. */
static int config_seeds(const char *root)
{
    /* Literals with embedded NULs: the length comes from sizeof. */
#define SEED(s)                                                                \
    {                                                                          \
        s, sizeof s - 1                                                        \
    }
    static const struct {
        const char *data;
        size_t len;
    } seeds[] = {
        SEED("--port\0"
             "8080\0--workers\0"
             "4\0--max-body\0"
             "4M"),
        SEED("--bind=127.0.0.1\0--queue=0\0--max-solve-memory\0"
             "2G"),
        SEED("--timeout-ms\0"
             "10\0--max-timeout-ms\0"
             "5\0\0"
             "GRIDSOLVE_WORKERS=3"),
        SEED("\0GRIDSOLVE_PORT=99999\0GRIDSOLVE_MAX_BODY=1K"),
        SEED("--max-states\0"
             "18446744073709551615\0--grace-ms\0-1"),
        SEED("--cors-origin\0*\0--max-cells\0"
             "16777216"),
        SEED("--cors-origin=https://a.example, http://[::1]:8080\0"
             "--cors-headers\0X-A, traceparent\0--log-format\0json\0\0"
             "GRIDSOLVE_MIN_BODY_RATE=1K\0GRIDSOLVE_MAX_CONNECTIONS=2"),
    };
#undef SEED
    char dir[512];
    int rc = 0;
    snprintf(dir, sizeof dir, "%s/config", root);
    if (mkdir_p(dir))
        return -1;
    for (size_t i = 0; i < sizeof seeds / sizeof *seeds; i++)
        rc |= write_seed(dir, (int)i, seeds[i].data, seeds[i].len);
    snprintf(dir, sizeof dir, "%s/config.dict", root);
    FILE *f = fopen(dir, "w");
    if (!f)
        return -1;
    static const char *const tokens[] = {
        "--help", "=", "K", "M", "G", "KiB", "MB", "18446744073709551616",
        "\\x00",  "*", "https://a.example", "http://[::1]:8080", ",",
        "json",   "text"};
    for (size_t i = 0; i < sizeof tokens / sizeof *tokens; i++)
        fprintf(f, "\"%s\"\n", tokens[i]);
    /* Every flag and variable `serve --help` names, so that a new option
     * is fuzzed without a change here. */
    char *usage = NULL;
    size_t usage_len = 0;
    FILE *u = open_memstream(&usage, &usage_len);
    if (!u) {
        fclose(f);
        return -1;
    }
    gs_config_usage(u);
    if (fclose(u) != 0 || !usage) {
        free(usage);
        fclose(f);
        return -1;
    }
    for (const char *p = usage; *p; p++) {
        size_t n = 0;
        if (strncmp(p, "--", 2) == 0 && (p == usage || p[-1] == ' '))
            n = 2 + strspn(p + 2, "abcdefghijklmnopqrstuvwxyz-");
        else if (strncmp(p, "GRIDSOLVE_", 10) == 0)
            n = 10 + strspn(p + 10, "ABCDEFGHIJKLMNOPQRSTUVWXYZ_");
        if (n > 2) {
            fprintf(f, "\"%.*s\"\n", (int)n, p);
            p += n - 1;
        }
    }
    free(usage);
    return fclose(f) == 0 && !rc ? 0 : -1;
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    if (mkdir_p(argv[1]) || http_seeds(argv[1]) || config_seeds(argv[1]))
        return 1;
    for (size_t i = 0; i < gs_puzzle_count; i++) {
        const gs_puzzle *p = gs_puzzles[i];
        static const char *const modes[] = {"json", "text"};
        if (write_dict(p, argv[1]))
            return 1;
        for (int m = 0; m < 2; m++) {
            char dir[512];
            snprintf(dir, sizeof dir, "%s/%s-%s", argv[1], p->name, modes[m]);
            if (mkdir_p(dir))
                return 1;
            int n = m ? text_seeds(p, dir) : json_seeds(p, dir);
            if (n < 0)
                return 1;
            /* A puzzle without samples still gets an (empty) seed. */
            if (n == 0 && write_seed(dir, 0, "", 0))
                return 1;
            printf("%s %s\n", p->name, modes[m]);
        }
        /* Judge text read in each notation the puzzle names, as
         * ?format=F asks: the same seeds, whichever notation they are. */
        for (const char *const *f = p->text_formats; f && *f; f++) {
            char dir[512];
            snprintf(dir, sizeof dir, "%s/%s-text-%s", argv[1], p->name, *f);
            if (mkdir_p(dir))
                return 1;
            int n = text_seeds(p, dir);
            if (n < 0 || (n == 0 && write_seed(dir, 0, "", 0)))
                return 1;
            printf("%s text-%s\n", p->name, *f);
        }
    }
    return 0;
}
