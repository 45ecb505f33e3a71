/* harness.c - runs `gridsolve serve` as a child and talks HTTP to it.
 *
 * The server's stdout is a pipe (we read its one `listening on ADDR:PORT`
 * line); its stderr goes to an unlinked temporary file we keep a descriptor
 * on, so logs never litter /tmp yet can be printed when a start fails. Set
 * GS_ITEST_SERVER_LOG=1 to let the server's log through to our stderr.
 */
#include "harness.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>

#define GS_MAX_SERVERS 16
#define GS_MAX_ARGS 40
#define GS_START_TIMEOUT_MS 10000

/* Children not reaped yet (pid 0: a free slot), for the kill-everything
 * paths, with the descriptor of each one's log. */
static struct {
    pid_t pid;
    int log_fd;
} live[GS_MAX_SERVERS];
static int atexit_done;

double gs_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e3 + ts.tv_nsec / 1e6;
}

void gs_sleep_ms(long ms)
{
    struct timespec ts = {ms / 1000, (ms % 1000) * 1000000L};
    while (nanosleep(&ts, &ts) == -1 && errno == EINTR)
        ;
}

const char *gs_itest_bin(void)
{
    const char *b = getenv("GRIDSOLVE_BIN");
    return b && *b ? b : "build/gridsolve";
}

static void why_set(char *why, size_t len, const char *fmt, ...)
{
    if (!why || len == 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, len, fmt, ap);
    va_end(ap);
}

/* Records pid (and its log descriptor) as live; 0 when the table is
 * full. */
static int live_add(pid_t pid, int log_fd)
{
    for (int i = 0; i < GS_MAX_SERVERS; i++) {
        if (live[i].pid == 0) {
            live[i].pid = pid;
            live[i].log_fd = log_fd;
            return 1;
        }
    }
    return 0;
}

/* Forgets pid and closes its log. */
static void live_remove(pid_t pid)
{
    for (int i = 0; i < GS_MAX_SERVERS; i++) {
        if (live[i].pid == pid) {
            close(live[i].log_fd);
            live[i].pid = 0;
        }
    }
}

static int live_log_fd(pid_t pid)
{
    for (int i = 0; i < GS_MAX_SERVERS; i++)
        if (pid > 0 && live[i].pid == pid)
            return live[i].log_fd;
    return -1;
}

void gs_srv_kill_all(void)
{
    for (int i = 0; i < GS_MAX_SERVERS; i++) {
        if (live[i].pid > 0) {
            kill(live[i].pid, SIGKILL);
            waitpid(live[i].pid, NULL, 0);
            live_remove(live[i].pid);
        }
    }
}

/* Maps a waitpid status to the documented return of gs_srv_stop. */
static int exit_code(int st)
{
    if (WIFEXITED(st))
        return WEXITSTATUS(st);
    if (WIFSIGNALED(st))
        return 128 + WTERMSIG(st);
    return -1;
}

/* Reads the first stdout line of the child into line (NUL-terminated,
 * without '\n'). Returns 0, or -1 on EOF, error or timeout. */
static int read_line(int fd, char *line, size_t cap, long timeout_ms)
{
    size_t n = 0;
    double end = gs_now_ms() + timeout_ms;
    while (n + 1 < cap) {
        int left = (int)(end - gs_now_ms());
        if (left <= 0)
            return -1;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int rc = poll(&p, 1, left);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0)
            return -1;
        /* One byte at a time: the rest of stdout is not ours to consume. */
        ssize_t got = read(fd, line + n, 1);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            return -1;
        if (line[n] == '\n') {
            line[n] = '\0';
            return 0;
        }
        n++;
    }
    return -1;
}

/* In the forked child: wire up descriptors and exec the server. */
static void exec_child(int out_w, int log_fd, pid_t parent, char *const *argv)
{
    /* Die with the test process: no stray servers even after a crash. */
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent)
        _exit(127);
    int devnull = open("/dev/null", O_RDONLY);
    if (devnull >= 0 && dup2(devnull, 0) == 0 && devnull != 0)
        close(devnull);
    dup2(out_w, 1);
    const char *pass = getenv("GS_ITEST_SERVER_LOG");
    if (!(pass && *pass == '1'))
        dup2(log_fd, 2);
    execv(argv[0], argv);
    dprintf(2, "exec %s: %s\n", argv[0], strerror(errno));
    _exit(127);
}

int gs_srv_start(gs_srv *s, const char *const *args, char *why, size_t why_len)
{
    memset(s, 0, sizeof(*s));
    s->out_fd = -1;
    if (!atexit_done) {
        atexit(gs_srv_kill_all);
        atexit_done = 1;
    }

    char *argv[GS_MAX_ARGS];
    int argc = 0;
    const char *fixed[] = {gs_itest_bin(), "serve",  "--bind",
                           "127.0.0.1",    "--port", "0"};
    for (size_t i = 0; i < sizeof(fixed) / sizeof(fixed[0]); i++)
        argv[argc++] = (char *)fixed[i];
    for (int i = 0; args && args[i]; i++) {
        if (argc + 1 >= GS_MAX_ARGS) {
            why_set(why, why_len, "too many server arguments");
            return -1;
        }
        argv[argc++] = (char *)args[i];
    }
    argv[argc] = NULL;

    char tmpl[] = "/tmp/gs-itest-XXXXXX";
    int log_fd = mkstemp(tmpl);
    if (log_fd < 0) {
        why_set(why, why_len, "mkstemp: %s", strerror(errno));
        return -1;
    }
    unlink(tmpl); /* we keep the descriptor; nothing to clean up later */
    fcntl(log_fd, F_SETFD, FD_CLOEXEC);

    int out[2];
    if (pipe(out) != 0) {
        why_set(why, why_len, "pipe: %s", strerror(errno));
        close(log_fd);
        return -1;
    }
    fcntl(out[0], F_SETFD, FD_CLOEXEC);
    fcntl(out[1], F_SETFD, FD_CLOEXEC);

    pid_t parent = getpid();
    pid_t pid = fork();
    if (pid < 0) {
        why_set(why, why_len, "fork: %s", strerror(errno));
        close(out[0]);
        close(out[1]);
        close(log_fd);
        return -1;
    }
    if (pid == 0)
        exec_child(out[1], log_fd, parent, argv);
    close(out[1]);
    s->pid = pid;
    s->out_fd = out[0];
    if (!live_add(pid, log_fd)) {
        gs_srv_kill(s);
        close(log_fd);
        why_set(why, why_len, "too many live servers");
        return -1;
    }

    char line[256];
    if (read_line(s->out_fd, line, sizeof(line), GS_START_TIMEOUT_MS) != 0) {
        gs_srv_dump_log(s);
        int rc = gs_srv_wait(s, 200);
        if (rc >= 0)
            why_set(why, why_len,
                    "server exited with status %d before listening (log "
                    "above)",
                    rc);
        else
            why_set(why, why_len,
                    "no `listening on ADDR:PORT` line on stdout within %d ms",
                    GS_START_TIMEOUT_MS);
        gs_srv_kill(s);
        return -1;
    }
    const char *colon = strrchr(line, ':');
    if (strncmp(line, "listening on ", 13) != 0 || !colon ||
        (s->port = atoi(colon + 1)) <= 0 || s->port > 65535) {
        why_set(why, why_len, "unexpected first stdout line: '%s'", line);
        gs_srv_kill(s);
        return -1;
    }
    snprintf(s->base, sizeof(s->base), "http://127.0.0.1:%d", s->port);
    return 0;
}

/* Drops everything held for a reaped (or never started) child. */
static void forget(gs_srv *s)
{
    if (s->pid > 0)
        live_remove(s->pid);
    s->pid = 0;
    if (s->out_fd >= 0) {
        close(s->out_fd);
        s->out_fd = -1;
    }
}

/* gs_srv_wait; with dump, a server that exits other than 0 has its log's
 * tail printed first (a sanitizer's report, say), before it is gone. */
static int wait_exit(gs_srv *s, long timeout_ms, bool dump)
{
    if (s->pid <= 0)
        return -1;
    double end = gs_now_ms() + timeout_ms;
    for (;;) {
        int st;
        pid_t r = waitpid(s->pid, &st, WNOHANG);
        if (r == s->pid) {
            int rc = exit_code(st);
            if (dump && rc != 0)
                gs_srv_dump_log(s);
            forget(s);
            return rc;
        }
        if (r < 0 && errno != EINTR)
            return -1;
        if (gs_now_ms() >= end)
            return -1;
        gs_sleep_ms(5);
    }
}

int gs_srv_wait(gs_srv *s, long timeout_ms)
{
    return wait_exit(s, timeout_ms, false);
}

int gs_srv_stop(gs_srv *s, long timeout_ms)
{
    if (s->pid <= 0)
        return -1;
    kill(s->pid, SIGTERM);
    int rc = wait_exit(s, timeout_ms, true);
    if (s->pid > 0) {
        fprintf(stderr, "itest: server %d ignored SIGTERM for %ld ms\n",
                (int)s->pid, timeout_ms);
        gs_srv_dump_log(s);
        gs_srv_kill(s);
        return -1;
    }
    return rc;
}

void gs_srv_kill(gs_srv *s)
{
    if (s->pid > 0) {
        kill(s->pid, SIGKILL);
        waitpid(s->pid, NULL, 0);
    }
    forget(s);
}

void gs_srv_dump_log(const gs_srv *s)
{
    int fd = live_log_fd(s->pid);
    if (fd < 0)
        return;
    off_t size = lseek(fd, 0, SEEK_END);
    off_t from = size > 4096 ? size - 4096 : 0;
    char buf[4097];
    ssize_t n = pread(fd, buf, sizeof(buf) - 1, from);
    if (n <= 0)
        return;
    buf[n] = '\0';
    fprintf(stderr, "---- server %d stderr (last %zd bytes) ----\n%s\n----\n",
            (int)s->pid, n, buf);
}

long gs_srv_log(const gs_srv *s, char *buf, size_t len)
{
    int fd = live_log_fd(s->pid);
    if (fd < 0 || len == 0)
        return -1;
    ssize_t n = pread(fd, buf, len - 1, 0);
    if (n < 0)
        return -1;
    buf[n] = '\0';
    return (long)n;
}

/* ---- HTTP ---- */

typedef struct body_acc {
    char *data;
    size_t len, cap;
    int oom;
} body_acc;

static size_t on_body(char *ptr, size_t size, size_t nmemb, void *ud)
{
    body_acc *b = ud;
    size_t n = size * nmemb;
    if (b->len + n + 1 > b->cap) {
        size_t cap = b->cap ? b->cap : 1024;
        while (cap < b->len + n + 1)
            cap *= 2;
        char *p = realloc(b->data, cap);
        if (!p) {
            b->oom = 1;
            return 0;
        }
        b->data = p;
        b->cap = cap;
    }
    memcpy(b->data + b->len, ptr, n);
    b->len += n;
    b->data[b->len] = '\0';
    return n;
}

/* Copies the value of header line `line` into dst when its name is name. */
static void take_header(const char *line, size_t n, const char *name, char *dst,
                        size_t cap)
{
    size_t nl = strlen(name);
    if (n <= nl || strncasecmp(line, name, nl) != 0 || line[nl] != ':')
        return;
    const char *v = line + nl + 1;
    const char *end = line + n;
    while (v < end && (*v == ' ' || *v == '\t'))
        v++;
    while (end > v && (end[-1] == '\r' || end[-1] == '\n' || end[-1] == ' ' ||
                       end[-1] == '\t'))
        end--;
    size_t len = (size_t)(end - v);
    if (len >= cap)
        len = cap - 1;
    memcpy(dst, v, len);
    dst[len] = '\0';
}

static size_t on_header(char *ptr, size_t size, size_t nmemb, void *ud)
{
    gs_resp *r = ud;
    size_t n = size * nmemb;
    /* A new status line (after a 100 Continue) starts a fresh header set. */
    if (n >= 5 && strncmp(ptr, "HTTP/", 5) == 0) {
        r->content_type[0] = r->allow[0] = r->retry_after[0] = '\0';
        r->request_id[0] = r->cors_origin[0] = '\0';
        r->cors_methods[0] = r->cors_headers[0] = '\0';
        return n;
    }
    take_header(ptr, n, "Content-Type", r->content_type,
                sizeof(r->content_type));
    take_header(ptr, n, "Allow", r->allow, sizeof(r->allow));
    take_header(ptr, n, "Retry-After", r->retry_after, sizeof(r->retry_after));
    take_header(ptr, n, "X-Request-Id", r->request_id, sizeof(r->request_id));
    take_header(ptr, n, "Access-Control-Allow-Origin", r->cors_origin,
                sizeof(r->cors_origin));
    take_header(ptr, n, "Access-Control-Allow-Methods", r->cors_methods,
                sizeof(r->cors_methods));
    take_header(ptr, n, "Access-Control-Allow-Headers", r->cors_headers,
                sizeof(r->cors_headers));
    return n;
}

/* Feeds a chunked upload in small pieces, so it really is chunked. */
typedef struct upload {
    const char *data;
    size_t len, off;
} upload;

static size_t on_read(char *buf, size_t size, size_t nitems, void *ud)
{
    upload *u = ud;
    size_t n = size * nitems;
    if (n > 16384)
        n = 16384;
    if (n > u->len - u->off)
        n = u->len - u->off;
    memcpy(buf, u->data + u->off, n);
    u->off += n;
    return n;
}

int gs_http(const gs_srv *s, const gs_req *req, gs_resp *resp)
{
    memset(resp, 0, sizeof(*resp));
    CURL *c = curl_easy_init();
    if (!c) {
        resp->curl_rc = CURLE_FAILED_INIT;
        return resp->curl_rc;
    }
    char url[1024];
    snprintf(url, sizeof(url), "%s%s", s->base, req->path);
    const char *method = req->method ? req->method : "GET";
    size_t len = req->body ? (req->len ? req->len : strlen(req->body)) : 0;

    struct curl_slist *hdrs = NULL;
    char ct[256];
    /* Libcurl's automatic `Expect: 100-continue` would let the server
     * refuse before any byte is sent; the tests want the body on the wire. */
    hdrs = curl_slist_append(hdrs, "Expect:");
    if (req->content_type) {
        snprintf(ct, sizeof(ct), "Content-Type: %s", req->content_type);
        hdrs = curl_slist_append(hdrs, ct);
    }
    for (int i = 0; i < 8 && req->headers[i]; i++)
        hdrs = curl_slist_append(hdrs, req->headers[i]);

    body_acc acc = {0};
    upload up = {req->body, len, 0};
    curl_easy_setopt(c, CURLOPT_URL, url);
    curl_easy_setopt(c, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(c, CURLOPT_NOPROXY, "*");
    curl_easy_setopt(c, CURLOPT_TIMEOUT_MS,
                     req->timeout_ms > 0 ? req->timeout_ms : 30000L);
    curl_easy_setopt(c, CURLOPT_CONNECTTIMEOUT_MS, 5000L);
    curl_easy_setopt(c, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(c, CURLOPT_WRITEDATA, &acc);
    curl_easy_setopt(c, CURLOPT_HEADERFUNCTION, on_header);
    curl_easy_setopt(c, CURLOPT_HEADERDATA, resp);

    if (req->body && req->chunked) {
        hdrs = curl_slist_append(hdrs, "Transfer-Encoding: chunked");
        curl_easy_setopt(c, CURLOPT_POST, 1L);
        curl_easy_setopt(c, CURLOPT_READFUNCTION, on_read);
        curl_easy_setopt(c, CURLOPT_READDATA, &up);
    } else if (req->body) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, req->body);
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)len);
    } else if (strcmp(method, "POST") == 0) {
        curl_easy_setopt(c, CURLOPT_POSTFIELDS, "");
        curl_easy_setopt(c, CURLOPT_POSTFIELDSIZE, 0L);
    } else if (strcmp(method, "HEAD") == 0) {
        curl_easy_setopt(c, CURLOPT_NOBODY, 1L);
    }
    if (strcmp(method, "GET") != 0 && strcmp(method, "POST") != 0 &&
        strcmp(method, "HEAD") != 0)
        curl_easy_setopt(c, CURLOPT_CUSTOMREQUEST, method);
    curl_easy_setopt(c, CURLOPT_HTTPHEADER, hdrs);

    double t0 = gs_now_ms();
    resp->curl_rc = (int)curl_easy_perform(c);
    resp->wall_ms = gs_now_ms() - t0;
    curl_easy_getinfo(c, CURLINFO_RESPONSE_CODE, &resp->status);
    if (acc.oom)
        resp->curl_rc = CURLE_OUT_OF_MEMORY;
    resp->body = acc.data;
    resp->len = acc.len;
    curl_slist_free_all(hdrs);
    curl_easy_cleanup(c);
    return resp->curl_rc;
}

typedef struct par_job {
    const gs_srv *s;
    const gs_req *req;
    gs_resp *resp;
} par_job;

static void *par_main(void *ud)
{
    par_job *j = ud;
    gs_http(j->s, j->req, j->resp);
    return NULL;
}

void gs_http_parallel(const gs_srv *s, const gs_req *reqs, gs_resp *resps,
                      size_t n)
{
    pthread_t th[64];
    par_job jobs[64];
    int started[64] = {0};
    if (n > 64)
        n = 64;
    for (size_t i = 0; i < n; i++) {
        jobs[i] = (par_job){s, &reqs[i], &resps[i]};
        started[i] = pthread_create(&th[i], NULL, par_main, &jobs[i]) == 0;
        if (!started[i])
            par_main(&jobs[i]); /* no thread: still answer, serially */
    }
    for (size_t i = 0; i < n; i++)
        if (started[i])
            pthread_join(th[i], NULL);
}

int gs_get(const gs_srv *s, const char *path, gs_resp *resp)
{
    gs_req r = {.method = "GET", .path = path};
    return gs_http(s, &r, resp);
}

int gs_post(const gs_srv *s, const char *path, const char *content_type,
            const char *body, gs_resp *resp)
{
    gs_req r = {.method = "POST",
                .path = path,
                .content_type = content_type,
                .body = body};
    return gs_http(s, &r, resp);
}

void gs_resp_free(gs_resp *resp)
{
    free(resp->body);
    resp->body = NULL;
    resp->len = 0;
}

cJSON *gs_resp_json(const gs_resp *resp)
{
    if (!resp->body)
        return NULL;
    return cJSON_ParseWithLength(resp->body, resp->len);
}
