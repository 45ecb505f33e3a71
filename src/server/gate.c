/* gate.c - accept loop in front of libmicrohttpd (see gate.h).
 *
 * One thread, one epoll set: the listening socket and the connections
 * whose first request head is not complete yet, edge-triggered (each new
 * segment is an edge, and peeking leaves the bytes for MHD). A refused
 * connection is answered, its head consumed, its write side shut down,
 * and it lingers here briefly, reading, so that closing it never resets
 * the answer away.
 */
#define _GNU_SOURCE /* accept4 */
#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "gridsolve/conns.h"
#include "gridsolve/error.h"
#include "gridsolve/gate.h"
#include "gridsolve/search.h"

#define MAX_HEAD 16384        /* a longer head is refused: 431 or 414 */
#define LINGER_NS 1000000000L /* a refused connection is read this long */
#define BACKOFF_NS 100000000L /* accept paused this long after EMFILE */
#define WAIT_MS 50

typedef struct pending {
    int fd;
    struct sockaddr_storage addr;
    socklen_t alen;
    int64_t deadline_ns;
    bool lingering; /* answered; reading until EOF before the close */
    struct pending *prev, *next;
} pending;

struct gs_gate {
    gs_gate_cfg cfg;
    gs_gate_hooks hooks;
    int lfd, ep, wake_fd;
    atomic_bool listener_closed;
    bool was_full;     /* at the limit at the last check */
    bool accepting;    /* the listener is in the epoll set */
    int64_t resume_ns; /* accept again after a descriptor shortage */
    atomic_bool stop, stop_listening;
    atomic_size_t npending;
    pending *head;
    pthread_t thread;
    bool started;
};

/* Markers of the two special entries of the epoll set. */
static char listen_tag, wake_tag;

/* ---- head checks ----------------------------------------------------------
 */

bool gs_gate_length_ok(const char *v, size_t n)
{
    while (n && (*v == ' ' || *v == '\t'))
        v++, n--;
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    if (n == 0 || n > 19)
        return false;
    for (size_t i = 0; i < n; i++)
        if (!isdigit((unsigned char)v[i]))
            return false;
    return true;
}

/* The next header line of a head named `name` (any case) from *at on
 * (NULL: none left): its value after the colon, a final CR dropped, in
 * *v and *vlen; *at moves past the line. Start with *at at the line after
 * the request line. */
static bool next_header(const char **at, const char *end, const char *name,
                        const char **v, size_t *vlen)
{
    size_t nlen = strlen(name);
    for (const char *line = *at; line && line < end; line = *at) {
        const char *nl = memchr(line, '\n', (size_t)(end - line));
        const char *stop = nl ? nl : end;
        *at = nl ? nl + 1 : NULL;
        if ((size_t)(stop - line) > nlen && line[nlen] == ':' &&
            strncasecmp(line, name, nlen) == 0) {
            *v = line + nlen + 1;
            *vlen = (size_t)(stop - *v);
            if (*vlen && (*v)[*vlen - 1] == '\r')
                (*vlen)--;
            return true;
        }
    }
    return false;
}

/* The line after a head's request line, or NULL. */
static const char *first_header(const char *head, size_t len)
{
    const char *nl = memchr(head, '\n', len);
    return nl ? nl + 1 : NULL;
}

bool gs_gate_header(const char *head, size_t len, const char *name, char *out,
                    size_t cap)
{
    const char *at = first_header(head, len), *v;
    size_t n;
    if (!next_header(&at, head + len, name, &v, &n))
        return false;
    while (n && (*v == ' ' || *v == '\t'))
        v++, n--;
    while (n && (v[n - 1] == ' ' || v[n - 1] == '\t'))
        n--;
    if (n + 1 > cap)
        return false;
    memcpy(out, v, n);
    out[n] = '\0';
    return true;
}

/* The end of the line at p (before its CR LF or LF) and, in *next, the
 * start of the next one (end: none). */
static const char *line_end(const char *p, const char *end, const char **next)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    const char *e = nl ? nl : end;

    *next = nl ? nl + 1 : end;
    return e > p && e[-1] == '\r' ? e - 1 : e;
}

/* NULL when the request line is `method SP target SP HTTP/...` and each
 * header line has a name and a colon, else the detail of the 400 (which
 * libmicrohttpd would answer with an HTML page and none of the headers
 * every answer carries). The version itself is libmicrohttpd's to judge
 * (its 505). Empty lines before the request line are skipped (RFC 9112
 * 2.2), as libmicrohttpd does. */
static const char *check_lines(const char *head, size_t len)
{
    const char *p = head, *end = head + len, *next;

    while (p < end && (*p == '\r' || *p == '\n'))
        p++;
    const char *e = line_end(p, end, &next);
    const char *sp1 = memchr(p, ' ', (size_t)(e - p));
    const char *sp2 = sp1 ? memchr(sp1 + 1, ' ', (size_t)(e - sp1 - 1)) : NULL;
    if (!sp1 || sp1 == p || !sp2 || sp2 == sp1 + 1 ||
        memchr(sp2 + 1, ' ', (size_t)(e - sp2 - 1)) || e - sp2 - 1 < 6 ||
        strncmp(sp2 + 1, "HTTP/", 5) != 0)
        return GS_GATE_BAD_REQUEST_LINE;
    for (p = next; p < end; p = next) {
        e = line_end(p, end, &next);
        const char *colon = memchr(p, ':', (size_t)(e - p));
        if (e > p && (!colon || colon == p))
            return GS_GATE_BAD_HEADER_LINE;
    }
    return NULL;
}

const char *gs_gate_check_head(const char *head, size_t len, size_t room,
                               int *status)
{
    const char *at = first_header(head, len), *v;
    size_t n, lines = 0;
    *status = 400;
    while (next_header(&at, head + len, "content-length", &v, &n))
        if (!gs_gate_length_ok(v, n))
            return GS_GATE_BAD_LENGTH;
    /* RFC 9112 5.2: obsolete line folding is refused. libmicrohttpd 0.9
     * glues the continuation onto the name ("Transfer-Encoding:" then
     * " chunked" becomes a header "Transfer-Encodingchunked"), so it
     * would read no body where a proxy that unfolds reads a chunked one. */
    for (at = first_header(head, len); at && at < head + len;) {
        if (*at == ' ' || *at == '\t')
            return GS_GATE_OBS_FOLD;
        const char *nl = memchr(at, '\n', (size_t)(head + len - at));
        at = nl ? nl + 1 : NULL;
    }
    const char *bad = check_lines(head, len);
    if (bad)
        return bad;
    for (const char *p = head; (p = memchr(p, '\n', len - (size_t)(p - head)));
         p++)
        lines++;
    if (room && len + lines * GS_GATE_HEADER_COST > room) {
        *status = 431;
        return GS_GATE_HEAD_TOO_LARGE;
    }
    return NULL;
}

/* Word `k` (0: method, 1: path) of the request line, printable, into
 * buf; `dflt` when there is none. */
static void request_word(const char *head, size_t len, int k, const char *dflt,
                         char *buf, size_t cap)
{
    const char *p = head, *end = head + len;
    size_t i = 0;

    for (; k > 0 && p < end; k--) {
        const char *sp = memchr(p, ' ', (size_t)(end - p));
        p = sp ? sp + 1 : end;
    }
    for (; p < end && *p != ' ' && *p != '\r' && *p != '\n' && i + 1 < cap; p++)
        buf[i++] = (*p >= 0x20 && *p < 0x7f) ? *p : '?';
    buf[i] = '\0';
    if (!i)
        snprintf(buf, cap, "%s", dflt);
}

/* ---- pending connections ---------------------------------------------- */

static void forget(gs_gate *g, pending *p)
{
    if (p->prev)
        p->prev->next = p->next;
    else
        g->head = p->next;
    if (p->next)
        p->next->prev = p->prev;
    atomic_fetch_sub(&g->npending, 1);
    free(p);
}

static void drop(gs_gate *g, pending *p)
{
    epoll_ctl(g->ep, EPOLL_CTL_DEL, p->fd, NULL);
    close(p->fd);
    forget(g, p);
}

/* Hands p's connection to MHD. */
static void pass(gs_gate *g, pending *p)
{
    epoll_ctl(g->ep, EPOLL_CTL_DEL, p->fd, NULL);
    g->hooks.pass(g->hooks.ud, p->fd, (struct sockaddr *)&p->addr, p->alen);
    forget(g, p);
}

/* Answers p's refused head: consumes it, writes the 400 or 431, sends FIN
 * and lingers reading until the client closes. */
static void refuse(gs_gate *g, pending *p, const char *buf, size_t head_len,
                   int status, const char *detail)
{
    char method[16], path[256], id[160], origin[256], sink[4096];
    size_t left = head_len;

    request_word(buf, head_len, 0, "-", method, sizeof method);
    request_word(buf, head_len, 1, "/", path, sizeof path);
    /* The problem's instance is the path, as in every other answer. */
    path[strcspn(path, "?#")] = '\0';
    if (!path[0])
        snprintf(path, sizeof path, "/");
    bool has_id = gs_gate_header(buf, head_len, "X-Request-Id", id, sizeof id);
    bool has_origin =
        gs_gate_header(buf, head_len, "Origin", origin, sizeof origin);
    while (left) {
        ssize_t k =
            recv(p->fd, sink, left < sizeof sink ? left : sizeof sink, 0);
        if (k <= 0)
            break;
        left -= (size_t)k;
    }
    g->hooks.refuse(g->hooks.ud, p->fd, status, method, path,
                    has_id ? id : NULL, has_origin ? origin : NULL, detail);
    shutdown(p->fd, SHUT_WR);
    p->lingering = true;
    p->deadline_ns = gs_now_ns() + LINGER_NS;
}

/* Reads and discards what a lingering connection sends; closes on EOF. */
static void linger_read(gs_gate *g, pending *p)
{
    char sink[4096];

    for (;;) {
        ssize_t k = recv(p->fd, sink, sizeof sink, 0);
        if (k > 0)
            continue;
        if (k < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
            return;
        drop(g, p);
        return;
    }
}

/* Looks at what p has sent so far. */
static void examine(gs_gate *g, pending *p)
{
    char buf[MAX_HEAD];

    if (p->lingering) {
        linger_read(g, p);
        return;
    }
    ssize_t n = recv(p->fd, buf, sizeof buf, MSG_PEEK);
    if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
        return;
    if (n <= 0) {
        drop(g, p); /* gone before a request */
        return;
    }
    const char *eoh = NULL;
    for (ssize_t i = 0; i + 1 < n && !eoh; i++)
        if (buf[i] == '\n' &&
            (buf[i + 1] == '\n' ||
             (buf[i + 1] == '\r' && i + 2 < n && buf[i + 2] == '\n')))
            eoh = buf + i + 1;
    if (!eoh) {
        /* A head that fills the buffer cannot fit MHD's connection
         * memory either: refused here, as a problem document, not with
         * MHD's HTML page. 414 when the request line alone is that long. */
        if (n == (ssize_t)sizeof buf) {
            bool line = memchr(buf, '\n', sizeof buf) != NULL;
            refuse(g, p, buf, sizeof buf, line ? 431 : 414,
                   line ? GS_GATE_HEAD_TOO_LARGE : GS_GATE_URI_TOO_LONG);
        }
        return;
    }
    size_t head_len = (size_t)(eoh - buf) + (*eoh == '\r' ? 2 : 1);
    int status;
    const char *bad =
        gs_gate_check_head(buf, (size_t)(eoh - buf), g->cfg.head_room, &status);
    if (bad)
        refuse(g, p, buf, head_len, status, bad);
    else
        pass(g, p);
}

/* ---- accepting ---------------------------------------------------------- */

static void listen_enable(gs_gate *g, bool on)
{
    if (g->lfd < 0 || on == g->accepting)
        return;
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &listen_tag};
    epoll_ctl(g->ep, on ? EPOLL_CTL_ADD : EPOLL_CTL_DEL, g->lfd, &ev);
    g->accepting = on;
}

/* True while one more connection fits under the limit; reports each
 * arrival at the limit. */
static bool has_room(gs_gate *g)
{
    size_t open = g->hooks.open(g->hooks.ud) + atomic_load(&g->npending);
    bool room = !g->cfg.max_connections || open < g->cfg.max_connections;
    if (!room && !g->was_full && g->hooks.at_limit)
        g->hooks.at_limit(g->hooks.ud, open);
    g->was_full = !room;
    return room;
}

/* True when p's address is at the per-address limit already. */
static bool over_ip_limit(gs_gate *g, const pending *p)
{
    const struct sockaddr *a = (const struct sockaddr *)&p->addr;
    size_t n = 0;

    if (!g->cfg.max_per_ip)
        return false;
    for (const pending *q = g->head; q; q = q->next)
        n += gs_conns_same_ip(a, (const struct sockaddr *)&q->addr);
    return n + g->hooks.open_from(g->hooks.ud, a) >= g->cfg.max_per_ip;
}

static void accept_all(gs_gate *g)
{
    while (has_room(g)) {
        pending *p = calloc(1, sizeof *p);
        if (!p)
            return;
        p->alen = sizeof p->addr;
        p->fd = accept4(g->lfd, (struct sockaddr *)&p->addr, &p->alen,
                        SOCK_NONBLOCK | SOCK_CLOEXEC);
        if (p->fd < 0) {
            int e = errno;
            free(p);
            if (e == EMFILE || e == ENFILE || e == ENOBUFS || e == ENOMEM) {
                listen_enable(g, false); /* else epoll wakes us at once */
                g->resume_ns = gs_now_ns() + BACKOFF_NS;
            }
            return;
        }
        if (over_ip_limit(g, p)) {
            close(p->fd);
            free(p);
            g->hooks.rejected(g->hooks.ud);
            continue;
        }
        if (g->cfg.head_timeout_ns)
            p->deadline_ns = gs_now_ns() + g->cfg.head_timeout_ns;
        struct epoll_event ev = {.events = EPOLLIN | EPOLLRDHUP | EPOLLET,
                                 .data.ptr = p};
        if (epoll_ctl(g->ep, EPOLL_CTL_ADD, p->fd, &ev) != 0) {
            close(p->fd);
            free(p);
            continue;
        }
        p->next = g->head;
        if (g->head)
            g->head->prev = p;
        g->head = p;
        atomic_fetch_add(&g->npending, 1);
    }
}

/* Closes connections past their deadline. */
static void expire(gs_gate *g, int64_t now)
{
    pending *p = g->head;

    while (p) {
        pending *next = p->next;
        if (p->deadline_ns && now >= p->deadline_ns) {
            bool answered = p->lingering;
            drop(g, p);
            if (!answered && g->hooks.timed_out)
                g->hooks.timed_out(g->hooks.ud);
        }
        p = next;
    }
}

static void *gate_main(void *arg)
{
    gs_gate *g = arg;
    struct epoll_event evs[64];

    while (!atomic_load(&g->stop)) {
        if (atomic_load(&g->stop_listening) && g->lfd >= 0) {
            listen_enable(g, false);
            close(g->lfd);
            g->lfd = -1;
            atomic_store(&g->listener_closed, true);
        }
        int64_t now = gs_now_ns();
        listen_enable(g, has_room(g) && now >= g->resume_ns);
        int n = epoll_wait(g->ep, evs, 64, WAIT_MS);
        for (int i = 0; i < n; i++) {
            void *tag = evs[i].data.ptr;
            if (tag == &wake_tag) {
                uint64_t v;
                if (read(g->wake_fd, &v, sizeof v) < 0)
                    continue;
            } else if (tag == &listen_tag) {
                accept_all(g);
            } else {
                examine(g, tag);
            }
        }
        expire(g, gs_now_ns());
    }
    return NULL;
}

/* ---- lifecycle ---------------------------------------------------------- */

int gs_gate_new(int listen_fd, const gs_gate_cfg *cfg,
                const gs_gate_hooks *hooks, gs_gate **out)
{
    gs_gate *g = calloc(1, sizeof *g);

    *out = NULL;
    if (!g)
        return GS_ENOMEM;
    g->cfg = *cfg;
    g->hooks = *hooks;
    g->lfd = listen_fd;
    atomic_init(&g->stop, false);
    atomic_init(&g->stop_listening, false);
    atomic_init(&g->listener_closed, false);
    atomic_init(&g->npending, 0);
    g->ep = epoll_create1(EPOLL_CLOEXEC);
    g->wake_fd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
    struct epoll_event ev = {.events = EPOLLIN, .data.ptr = &wake_tag};
    if (g->ep < 0 || g->wake_fd < 0 ||
        epoll_ctl(g->ep, EPOLL_CTL_ADD, g->wake_fd, &ev) != 0 ||
        pthread_create(&g->thread, NULL, gate_main, g) != 0) {
        if (g->ep >= 0)
            close(g->ep);
        if (g->wake_fd >= 0)
            close(g->wake_fd);
        free(g);
        return GS_EINTERNAL;
    }
    g->started = true;
    *out = g;
    return GS_OK;
}

static void wake(gs_gate *g)
{
    uint64_t one = 1;
    if (write(g->wake_fd, &one, sizeof one) < 0)
        return; /* the loop wakes within WAIT_MS anyway */
}

void gs_gate_stop_listening(gs_gate *g)
{
    if (!g)
        return;
    atomic_store(&g->stop_listening, true);
    wake(g);
    /* Closed by the gate's thread; wait so the caller may rely on it. */
    for (int i = 0; i < 200 && !atomic_load(&g->listener_closed); i++) {
        struct timespec ts = {0, 5000000L};
        nanosleep(&ts, NULL);
    }
}

size_t gs_gate_pending(gs_gate *g)
{
    return g ? atomic_load(&g->npending) : 0;
}

void gs_gate_free(gs_gate *g)
{
    if (!g)
        return;
    atomic_store(&g->stop, true);
    wake(g);
    if (g->started)
        pthread_join(g->thread, NULL);
    while (g->head)
        drop(g, g->head);
    if (g->lfd >= 0)
        close(g->lfd);
    close(g->wake_fd);
    close(g->ep);
    free(g);
}
