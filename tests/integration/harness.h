/* harness.h - black-box harness for the integration tests.
 *
 * Starts the real `gridsolve serve` binary ($GRIDSOLVE_BIN, default
 * build/gridsolve) as a child process on a free port, talks to it over HTTP
 * with libcurl, and stops it with SIGTERM. Every started server is recorded
 * so that it is killed whatever happens to the test: a failed assertion, a
 * Check timeout (Check kills the test's process group, which the server
 * shares) or the test process dying (PR_SET_PDEATHSIG).
 */
#ifndef GS_ITEST_HARNESS_H
#define GS_ITEST_HARNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include <cjson/cJSON.h>

/* A running server. */
typedef struct gs_srv {
    pid_t pid;  /* 0 once reaped */
    int out_fd; /* read end of the child's stdout */
    int port;
    char base[64]; /* "http://127.0.0.1:PORT" */
} gs_srv;

/* One HTTP request. Fields left zero take defaults: GET, no body. */
typedef struct gs_req {
    const char *method;       /* "GET", "POST", "OPTIONS", ... */
    const char *path;         /* "/solve/bloxorz?timeout_ms=5" */
    const char *content_type; /* NULL: no Content-Type header */
    const char *body;         /* NULL: no body */
    size_t len;               /* body length; 0 with a body: strlen */
    bool chunked;             /* send the body chunked, no Content-Length */
    const char *headers[8];   /* extra "Name: value" lines, NULL-ended */
    long timeout_ms;          /* whole-transfer cap; 0: 30 s */
} gs_req;

/* What came back. Header values are "" when absent. */
typedef struct gs_resp {
    int curl_rc; /* CURLcode; 0 when a response was read */
    long status;
    char content_type[128];
    char allow[128];
    char retry_after[32];
    char request_id[128];
    char cors_origin[128];
    char cors_methods[128];
    char cors_headers[256];
    char *body; /* NUL-terminated, may be NULL when empty */
    size_t len;
    double wall_ms; /* request start to last byte */
} gs_resp;

/* Path of the binary under test. */
const char *gs_itest_bin(void);

/* Starts `gridsolve serve --bind 127.0.0.1 --port 0 ARGS...` (args is
 * NULL-terminated, may be NULL) and waits up to 10 s for its
 * `listening on ADDR:PORT` line. Returns 0, or -1 with the server killed
 * and a reason in why (when not NULL). Call it from the thread that lives
 * as long as the server should: PR_SET_PDEATHSIG fires when the forking
 * thread exits. */
int gs_srv_start(gs_srv *s, const char *const *args, char *why, size_t why_len);

/* Sends SIGTERM and waits up to timeout_ms for the exit. Returns the exit
 * status (0..255), 128+signal when killed by a signal, or -1 on a timeout
 * (the child is then SIGKILLed and reaped). */
int gs_srv_stop(gs_srv *s, long timeout_ms);

/* SIGKILLs and reaps the child if it still runs; removes its log. */
void gs_srv_kill(gs_srv *s);

/* Kills every server this process started and did not reap. */
void gs_srv_kill_all(void);

/* Waits up to timeout_ms for the child to exit on its own. Same return as
 * gs_srv_stop, -1 when it still runs. */
int gs_srv_wait(gs_srv *s, long timeout_ms);

/* Prints the last bytes of the server's stderr log, for diagnosis. */
void gs_srv_dump_log(const gs_srv *s);

/* Copies the start of the server's stderr log (at most len - 1 bytes,
 * NUL-ended) into buf; returns the bytes copied, -1 when there is none. */
long gs_srv_log(const gs_srv *s, char *buf, size_t len);

/* Performs one request. Always fills resp (free it with gs_resp_free);
 * returns resp->curl_rc. */
int gs_http(const gs_srv *s, const gs_req *req, gs_resp *resp);

/* Runs n requests at once, one thread each; resps[i] answers reqs[i]. */
void gs_http_parallel(const gs_srv *s, const gs_req *reqs, gs_resp *resps,
                      size_t n);

/* Shorthands for gs_http. */
int gs_get(const gs_srv *s, const char *path, gs_resp *resp);
int gs_post(const gs_srv *s, const char *path, const char *content_type,
            const char *body, gs_resp *resp);

void gs_resp_free(gs_resp *resp);

/* Parses the body as JSON; NULL when it is not JSON. Caller frees. */
cJSON *gs_resp_json(const gs_resp *resp);

/* Milliseconds on a monotonic clock. */
double gs_now_ms(void);

void gs_sleep_ms(long ms);

#endif
