/* client.c - raw-socket HTTP client, child server and /proc readers for
 * the stress tool (see client.h). */
#define _GNU_SOURCE /* memmem, pipe2 */
#include <arpa/inet.h>
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "client.h"

double st_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

void st_sleep_ms(double ms)
{
    if (ms <= 0)
        return;
    struct timespec ts = {
        (time_t)(ms / 1e3),
        (long)((ms - (double)(time_t)(ms / 1e3) * 1e3) * 1e6)};
    while (nanosleep(&ts, &ts) != 0 && errno == EINTR)
        ;
}

const char *st_err_name(int e)
{
    switch (e) {
    case ST_OK:
        return "ok";
    case ST_ECONNECT:
        return "connect";
    case ST_ETIMEOUT:
        return "timeout";
    case ST_ERESET:
        return "reset";
    case ST_EEOF:
        return "eof";
    default:
        return "parse";
    }
}

/* Waits for `events` on fd until the deadline: 1 ready, 0 timed out. */
static int wait_fd(int fd, short events, double deadline)
{
    for (;;) {
        double left = deadline - st_now_ms();
        if (left <= 0)
            return 0;
        struct pollfd p = {.fd = fd, .events = events};
        int n = poll(&p, 1, left > 1000 ? 1000 : (int)left + 1);
        if (n > 0)
            return 1;
        if (n < 0 && errno != EINTR)
            return 1; /* let the caller's read or write report it */
    }
}

static int make_socket(const char *src)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return ST_ECONNECT;
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (src) {
        struct sockaddr_in a = {.sin_family = AF_INET};
        if (inet_pton(AF_INET, src, &a.sin_addr) != 1 ||
            bind(fd, (struct sockaddr *)&a, sizeof a) != 0) {
            close(fd);
            return ST_ECONNECT;
        }
    }
    return fd;
}

int st_connect_nb(const char *src, int port)
{
    int fd = make_socket(src);
    if (fd < 0)
        return fd;
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((uint16_t)port),
                            .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0 &&
        errno != EINPROGRESS) {
        close(fd);
        return ST_ECONNECT;
    }
    return fd;
}

int st_connect(const char *src, int port, double timeout_ms)
{
    int fd = st_connect_nb(src, port);
    if (fd < 0)
        return fd;
    int soerr = 0;
    socklen_t sl = sizeof soerr;
    if (!wait_fd(fd, POLLOUT, st_now_ms() + timeout_ms) ||
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &soerr, &sl) != 0 || soerr) {
        close(fd);
        return ST_ECONNECT;
    }
    return fd;
}

static int io_err(int e)
{
    return e == ECONNRESET || e == EPIPE ? ST_ERESET : ST_EEOF;
}

int st_send_all(int fd, const void *data, size_t len, double deadline)
{
    const char *p = data;
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n > 0) {
            p += n;
            len -= (size_t)n;
            continue;
        }
        if (n < 0 && errno == EINTR)
            continue;
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            if (!wait_fd(fd, POLLOUT, deadline))
                return ST_ETIMEOUT;
            continue;
        }
        return io_err(errno);
    }
    return ST_OK;
}

/* A growable receive buffer. */
typedef struct rbuf {
    char *d;
    size_t len, cap;
} rbuf;

/* Reads more bytes into b: >0 read, ST_EEOF on close, or an error. */
static int fill(int fd, rbuf *b, double deadline)
{
    if (b->cap - b->len < 4096) {
        size_t ncap = b->cap ? b->cap * 2 : 16384;
        char *nd = realloc(b->d, ncap);
        if (!nd)
            return ST_EPARSE;
        b->d = nd;
        b->cap = ncap;
    }
    for (;;) {
        ssize_t n = recv(fd, b->d + b->len, b->cap - b->len - 1, 0);
        if (n > 0) {
            b->len += (size_t)n;
            b->d[b->len] = '\0';
            return (int)n;
        }
        if (n == 0)
            return ST_EEOF;
        if (errno == EINTR)
            continue;
        if (errno == EAGAIN || errno == EWOULDBLOCK) {
            if (!wait_fd(fd, POLLIN, deadline))
                return ST_ETIMEOUT;
            continue;
        }
        return io_err(errno);
    }
}

/* The value of header `name` in the header block h (NUL-terminated), or
 * NULL. */
static const char *header(const char *h, const char *name)
{
    size_t n = strlen(name);
    for (const char *p = strstr(h, "\r\n"); p; p = strstr(p + 2, "\r\n")) {
        if (strncasecmp(p + 2, name, n) == 0 && p[2 + n] == ':') {
            const char *v = p + 3 + n;
            while (*v == ' ')
                v++;
            return v;
        }
    }
    return NULL;
}

/* Largest chunk dechunk takes: the server's answers are far smaller, and
 * a bound keeps `data + n + 2` below SIZE_MAX. */
#define ST_CHUNK_MAX (64ul << 20)

/* Decodes a chunked body in place. The decoded bytes so far are
 * b->d[start .. start + *done), raw chunks follow them. Returns 1 when the
 * body is complete (*done = its length), 0 when more input is needed, -1
 * on junk (an oversized chunk included). Called again after more input, it
 * resumes where it stopped. */
static int dechunk(rbuf *b, size_t start, size_t *done)
{
    for (;;) {
        size_t in = start + *done;
        char *eol = memmem(b->d + in, b->len - in, "\r\n", 2);
        if (!eol)
            return 0;
        char *end;
        errno = 0;
        unsigned long n = strtoul(b->d + in, &end, 16);
        if (end == b->d + in || errno == ERANGE || n > ST_CHUNK_MAX ||
            !(*end == '\r' || *end == ';' || *end == ' '))
            return -1;
        size_t data = (size_t)(eol - b->d) + 2;
        if (n == 0) /* the last chunk; trailers end at an empty line */
            return memmem(b->d + data - 2, b->len - (data - 2), "\r\n\r\n",
                          4) != NULL;
        if (b->len < data + n + 2)
            return 0;
        /* Move the chunk's data down over its size line, and the rest of
         * the input after it. */
        memmove(b->d + in, b->d + data, n);
        memmove(b->d + in + n, b->d + data + n + 2, b->len - (data + n + 2));
        b->len -= (data - in) + 2;
        b->d[b->len] = '\0';
        *done += n;
    }
}

/* Reads one response into r, and the whole body into *full when not NULL
 * (malloc'd, NUL-terminated). */
static int read_resp(int fd, st_resp *r, double deadline, char **full)
{
    rbuf b = {0};
    int rc;
    char *hend;
    size_t received = 0; /* b.len shrinks as chunks are decoded */
    memset(r, 0, sizeof *r);
    while (!(b.d && (hend = strstr(b.d, "\r\n\r\n")))) {
        if ((rc = fill(fd, &b, deadline)) < 0)
            goto out;
        received += (size_t)rc;
    }
    *hend = '\0';
    size_t start = (size_t)(hend - b.d) + 4;
    if (sscanf(b.d, "HTTP/1.%*d %d", &r->status) != 1) {
        rc = ST_EPARSE;
        goto out;
    }
    const char *cl = header(b.d, "Content-Length");
    const char *te = header(b.d, "Transfer-Encoding");
    const char *conn = header(b.d, "Connection");
    r->close = conn && strncasecmp(conn, "close", 5) == 0;
    r->retry_after = header(b.d, "Retry-After") != NULL;
    bool chunked = te && strncasecmp(te, "chunked", 7) == 0;
    size_t body_len = 0;
    if (chunked) {
        int d;
        while ((d = dechunk(&b, start, &body_len)) == 0) {
            if ((rc = fill(fd, &b, deadline)) < 0)
                goto out;
            received += (size_t)rc;
        }
        if (d < 0) {
            rc = ST_EPARSE;
            goto out;
        }
    } else if (cl) {
        body_len = strtoull(cl, NULL, 10);
        while (b.len - start < body_len) {
            if ((rc = fill(fd, &b, deadline)) < 0)
                goto out;
            received += (size_t)rc;
        }
    } else if (r->status >= 200 && r->status != 204 && r->status != 304) {
        /* Close delimited. */
        while ((rc = fill(fd, &b, deadline)) > 0)
            received += (size_t)rc;
        if (rc != ST_EEOF)
            goto out;
        body_len = b.len - start;
        r->close = true;
    }
    r->body_len = body_len < ST_BODY_MAX ? body_len : ST_BODY_MAX;
    memcpy(r->body, b.d + start, r->body_len);
    r->body[r->body_len] = '\0';
    if (full) {
        *full = malloc(body_len + 1);
        if (*full) {
            memcpy(*full, b.d + start, body_len);
            (*full)[body_len] = '\0';
        }
    }
    rc = ST_OK;
out:
    r->received = received;
    free(b.d);
    return rc;
}

int st_read_resp(int fd, st_resp *r, double deadline)
{
    return read_resp(fd, r, deadline, NULL);
}

size_t st_format_req(char *buf, size_t cap, const char *method,
                     const char *path, const char *ctype, size_t body_len,
                     bool keep_alive)
{
    int n = snprintf(buf, cap, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n%s%s%s",
                     method, path, ctype ? "Content-Type: " : "",
                     ctype ? ctype : "", ctype ? "\r\n" : "");
    if (body_len || strcmp(method, "POST") == 0)
        n += snprintf(buf + n, cap - (size_t)n, "Content-Length: %zu\r\n",
                      body_len);
    n += snprintf(buf + n, cap - (size_t)n, "Connection: %s\r\n\r\n",
                  keep_alive ? "keep-alive" : "close");
    return (size_t)n;
}

/* One exchange on a fresh connection; *full as in read_resp. */
static int request(const char *src, int port, const char *method,
                   const char *path, const char *ctype, const char *body,
                   size_t body_len, double timeout_ms, st_resp *r, double *ms,
                   char **full)
{
    double t0 = st_now_ms(), deadline = t0 + timeout_ms;
    char head[1024];
    int fd = st_connect(src, port, timeout_ms);
    if (fd < 0)
        return fd;
    size_t hl =
        st_format_req(head, sizeof head, method, path, ctype, body_len, false);
    int rc = st_send_all(fd, head, hl, deadline);
    if (!rc && body_len)
        rc = st_send_all(fd, body, body_len, deadline);
    if (!rc)
        rc = read_resp(fd, r, deadline, full);
    close(fd);
    if (ms)
        *ms = st_now_ms() - t0;
    return rc;
}

int st_request(const char *src, int port, const char *method, const char *path,
               const char *ctype, const char *body, size_t body_len,
               double timeout_ms, st_resp *r, double *ms)
{
    return request(src, port, method, path, ctype, body, body_len, timeout_ms,
                   r, ms, NULL);
}

/* ---- child servers */

#define MAX_CHILDREN 16
static pid_t children[MAX_CHILDREN];
static struct rlimit orig_nofile;
static bool have_orig_nofile;

unsigned long st_limits_init(void)
{
    struct rlimit rl;
    if (getrlimit(RLIMIT_NOFILE, &rl) != 0)
        return 0;
    orig_nofile = rl;
    have_orig_nofile = true;
    rl.rlim_cur = rl.rlim_max;
    setrlimit(RLIMIT_NOFILE, &rl);
    getrlimit(RLIMIT_NOFILE, &rl);
    return (unsigned long)rl.rlim_cur;
}

void st_server_kill_all(void)
{
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (children[i] > 0) {
            kill(children[i], SIGKILL);
            waitpid(children[i], NULL, 0);
            children[i] = 0;
        }
}

static void forget_child(pid_t pid)
{
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (children[i] == pid)
            children[i] = 0;
}

/* Child side of st_server_start: never returns. */
static void exec_server(int out_fd, int log_fd, char **argv)
{
    /* The server is to raise its own descriptor limit: give it the one
     * this tool started with, not the one it raised for itself. */
    if (have_orig_nofile)
        setrlimit(RLIMIT_NOFILE, &orig_nofile);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    dup2(out_fd, STDOUT_FILENO);
    dup2(log_fd, STDERR_FILENO);
    execv(argv[0], argv);
    _exit(127);
}

/* Reads the first stdout line within timeout_ms. */
static int read_line(int fd, char *line, size_t cap, double timeout_ms)
{
    double deadline = st_now_ms() + timeout_ms;
    size_t n = 0;
    while (n + 1 < cap) {
        if (!wait_fd(fd, POLLIN, deadline))
            return -1;
        char c;
        ssize_t r = read(fd, &c, 1);
        if (r <= 0)
            return -1;
        if (c == '\n')
            break;
        line[n++] = c;
    }
    line[n] = '\0';
    return 0;
}

int st_server_start(st_server *s, const char *bin, const char *const *args)
{
    static int seq;
    char *argv[64];
    int argc = 0;
    const char *head[] = {bin, "serve", "--port", "0"};
    for (size_t i = 0; i < sizeof head / sizeof *head; i++)
        argv[argc++] = (char *)head[i];
    for (int i = 0; args && args[i] && argc < 61; i++)
        argv[argc++] = (char *)args[i];
    /* Last, so that it wins over a --bind among args. */
    argv[argc++] = "--bind";
    argv[argc++] = "127.0.0.1";
    argv[argc] = NULL;

    memset(s, 0, sizeof *s);
    snprintf(s->log_path, sizeof s->log_path, "/tmp/gs-stress-%d-%d.log",
             (int)getpid(), seq++);
    int log_fd =
        open(s->log_path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    int out[2];
    if (log_fd < 0 || pipe2(out, O_CLOEXEC) != 0) {
        perror("stress: server log or pipe");
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0)
        exec_server(out[1], log_fd, argv);
    close(out[1]);
    close(log_fd);
    if (pid < 0) {
        close(out[0]);
        perror("stress: fork");
        return -1;
    }
    for (int i = 0; i < MAX_CHILDREN; i++)
        if (children[i] == 0) {
            children[i] = pid;
            break;
        }
    s->pid = pid;
    char line[256];
    int rc = read_line(out[0], line, sizeof line, 10000);
    close(out[0]); /* later stdout writes get EPIPE, which is harmless */
    const char *colon = rc == 0 ? strrchr(line, ':') : NULL;
    if (!colon || strncmp(line, "listening on ", 13) != 0 ||
        (s->port = atoi(colon + 1)) <= 0) {
        fprintf(stderr, "stress: %s did not start (log %s)\n", bin,
                s->log_path);
        kill(pid, SIGKILL);
        waitpid(pid, NULL, 0);
        forget_child(pid);
        return -1;
    }
    return 0;
}

/* Records the exit of a reaped server. */
static void reaped(st_server *s, int st)
{
    forget_child(s->pid);
    s->reaped = true;
    s->exit_status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

bool st_server_exited(st_server *s)
{
    int st;
    if (s->reaped)
        return true;
    if (waitpid(s->pid, &st, WNOHANG) != s->pid)
        return false;
    reaped(s, st);
    return true;
}

int st_server_wait(st_server *s, double timeout_ms, double *exit_ms)
{
    double t0 = st_now_ms();
    while (!st_server_exited(s)) {
        if (st_now_ms() - t0 > timeout_ms) {
            int st;
            kill(s->pid, SIGKILL);
            waitpid(s->pid, &st, 0);
            reaped(s, st);
            s->exit_status = -1;
            break;
        }
        st_sleep_ms(5);
    }
    if (exit_ms)
        *exit_ms = st_now_ms() - t0;
    return s->exit_status;
}

int st_server_stop(st_server *s, double timeout_ms, double *exit_ms)
{
    if (!s->reaped)
        kill(s->pid, SIGTERM);
    return st_server_wait(s, timeout_ms, exit_ms);
}

void st_server_log_done(const st_server *s, bool keep)
{
    if (keep)
        printf("# server log kept: %s\n", s->log_path);
    else
        unlink(s->log_path);
}

uint64_t st_proc_kb(pid_t pid, const char *field)
{
    char path[64], line[256];
    snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
    FILE *f = fopen(path, "r");
    uint64_t v = 0;
    size_t n = strlen(field);
    if (!f)
        return 0;
    while (fgets(line, sizeof line, f))
        if (strncmp(line, field, n) == 0 && line[n] == ':') {
            v = strtoull(line + n + 1, NULL, 10);
            break;
        }
    fclose(f);
    return v;
}

double st_metric(int port, const char *prefix, const char *contains)
{
    st_resp r;
    char *text = NULL;
    int rc = request(NULL, port, "GET", "/metrics", NULL, NULL, 0, 5000, &r,
                     NULL, &text);
    if (rc || r.status != 200 || !text) {
        free(text);
        return -1;
    }
    double sum = 0;
    bool found = false;
    size_t n = strlen(prefix);
    for (char *line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (strncmp(line, prefix, n) != 0 ||
            (contains && !strstr(line, contains)))
            continue;
        char *sp = strrchr(line, ' ');
        if (sp) {
            sum += strtod(sp + 1, NULL);
            found = true;
        }
    }
    free(text);
    return found ? sum : -1;
}

bool st_server_has_flag(const char *bin, const char *flag)
{
    char cmd[1024], line[512];
    snprintf(cmd, sizeof cmd, "'%s' serve --help 2>&1", bin);
    FILE *p = popen(cmd, "r");
    bool found = false;
    if (!p)
        return false;
    while (fgets(line, sizeof line, p))
        if (strstr(line, flag))
            found = true;
    pclose(p);
    return found;
}
