/* raw.c - raw TCP clients for the integration tests (see raw.h). */
#include "raw.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include "itest.h"

int raw_connect(const gs_srv *s, const char *from)
{
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return -1;
    if (from) {
        struct sockaddr_in src = {.sin_family = AF_INET};
        if (inet_pton(AF_INET, from, &src.sin_addr) != 1 ||
            bind(fd, (struct sockaddr *)&src, sizeof src) != 0) {
            close(fd);
            return -1;
        }
    }
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons((unsigned short)s->port)};
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    if (connect(fd, (struct sockaddr *)&a, sizeof a) != 0) {
        close(fd);
        return -1;
    }
    return fd;
}

bool raw_send(int fd, const char *data, size_t len)
{
    while (len) {
        ssize_t n = send(fd, data, len, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return false;
        data += n;
        len -= (size_t)n;
    }
    return true;
}

bool raw_send_str(int fd, const char *s)
{
    return raw_send(fd, s, strlen(s));
}

char *raw_request(const char *method, const char *path, const char *ctype,
                  const char *body, const char *extra)
{
    size_t blen = body ? strlen(body) : 0;
    size_t cap = 256 + strlen(path) + (ctype ? strlen(ctype) : 0) + blen +
                 (extra ? strlen(extra) : 0);
    char *s = malloc(cap);
    if (!s)
        return NULL;
    int n =
        snprintf(s, cap, "%s %s HTTP/1.1\r\nHost: 127.0.0.1\r\n", method, path);
    if (ctype)
        n += snprintf(s + n, cap - (size_t)n, "Content-Type: %s\r\n", ctype);
    if (body)
        n += snprintf(s + n, cap - (size_t)n, "Content-Length: %zu\r\n", blen);
    snprintf(s + n, cap - (size_t)n, "%s\r\n%s", extra ? extra : "",
             body ? body : "");
    return s;
}

/* Room for 4 KiB more in *buf; false when out of memory. */
static bool grow(char **buf, size_t len, size_t *cap)
{
    if (len + 4097 <= *cap)
        return true;
    size_t nc = *cap ? *cap * 2 : 8192;
    char *p = realloc(*buf, nc);
    if (!p)
        return false;
    *buf = p;
    *cap = nc;
    (*buf)[len] = '\0';
    return true;
}

/* Appends what one recv gives; returns the recv result. */
static ssize_t recv_more(int fd, char **buf, size_t *len, size_t *cap)
{
    if (!grow(buf, *len, cap))
        return -1;
    ssize_t n = recv(fd, *buf + *len, 4096, 0);
    if (n > 0)
        *len += (size_t)n;
    (*buf)[*len] = '\0';
    return n;
}

char *raw_read(int fd, long timeout_ms, size_t *len, enum raw_end *end)
{
    char *buf = NULL;
    size_t n = 0, cap = 0;
    double stop = gs_now_ms() + timeout_ms;
    *end = RAW_TIMEOUT;
    if (!grow(&buf, 0, &cap))
        return NULL;
    for (;;) {
        int left = (int)(stop - gs_now_ms());
        if (left <= 0)
            break;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        int rc = poll(&p, 1, left);
        if (rc < 0 && errno == EINTR)
            continue;
        if (rc <= 0)
            break;
        ssize_t got = recv_more(fd, &buf, &n, &cap);
        if (got == 0) {
            *end = RAW_EOF;
            break;
        }
        if (got < 0) {
            *end = errno == ECONNRESET ? RAW_RESET : RAW_ERROR;
            break;
        }
    }
    if (len)
        *len = n;
    return buf;
}

/* Length of a complete response at the start of text, or 0. */
static size_t response_len(const char *text, size_t n)
{
    const char *eoh = strstr(text, "\r\n\r\n");
    if (!eoh)
        return 0;
    size_t head = (size_t)(eoh - text) + 4, body = 0;
    for (const char *l = text; l && l < eoh; l = strstr(l, "\r\n")) {
        if (*l == '\r')
            l += 2;
        if (strncasecmp(l, "Content-Length:", 15) == 0)
            body = strtoul(l + 15, NULL, 10);
        l = strstr(l, "\r\n");
    }
    return n >= head + body ? head + body : 0;
}

char *raw_read_response(int fd, long timeout_ms)
{
    char *buf = NULL;
    size_t n = 0, cap = 0;
    double stop = gs_now_ms() + timeout_ms;
    if (!grow(&buf, 0, &cap))
        return NULL;
    while (!response_len(buf, n)) {
        int left = (int)(stop - gs_now_ms());
        if (left <= 0)
            break;
        struct pollfd p = {.fd = fd, .events = POLLIN};
        if (poll(&p, 1, left) <= 0)
            break;
        if (recv_more(fd, &buf, &n, &cap) <= 0)
            break;
    }
    if (n == 0) {
        free(buf);
        return NULL;
    }
    return buf;
}

int raw_count(const char *hay, const char *needle)
{
    int k = 0;
    size_t nl = strlen(needle);
    for (const char *p = hay; p && (p = strstr(p, needle)); p += nl)
        k++;
    return k;
}

int raw_status(const char *text)
{
    const char *p = text ? strstr(text, "HTTP/1.") : NULL;
    if (!p || strlen(p) < 12)
        return -1;
    return atoi(p + 9);
}

double raw_metric(const gs_srv *s, const char *prefix)
{
    gs_resp m;
    gs_req q = {.path = "/metrics", .timeout_ms = 2000};
    gs_http(s, &q, &m);
    double v =
        m.body && m.status == 200 ? itest_metric_sum(m.body, prefix) : -1;
    gs_resp_free(&m);
    return v;
}

double raw_wait_metric(const gs_srv *s, const char *prefix, double want,
                       long timeout_ms)
{
    double end = gs_now_ms() + timeout_ms, v;
    while ((v = raw_metric(s, prefix)) < want && gs_now_ms() < end)
        gs_sleep_ms(10);
    return v;
}

/* Connects and sends req; -1 on either failure. */
static int connect_send(const gs_srv *s, const char *req)
{
    int fd = raw_connect(s, NULL);
    if (fd >= 0 && !raw_send_str(fd, req)) {
        close(fd);
        fd = -1;
    }
    return fd;
}

char *raw_exchange(const gs_srv *s, const char *req)
{
    int fd = connect_send(s, req);
    if (fd < 0)
        return NULL;
    char *got = raw_read_response(fd, 3000);
    close(fd);
    return got;
}

char *raw_exchange_all(const gs_srv *s, const char *req, enum raw_end *end)
{
    int fd = connect_send(s, req);
    if (fd < 0)
        return NULL;
    char *got = raw_read(fd, 3000, NULL, end);
    close(fd);
    return got;
}
