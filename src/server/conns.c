/* conns.c - connection registry and watcher thread (see conns.h).
 *
 * One mutex guards a doubly linked list of records. The watcher takes it
 * once per tick, polls the watched sockets with a zero timeout (so the
 * lock is held for microseconds), runs the hooks and applies deadlines.
 * A hang-up is POLLRDHUP/POLLHUP/POLLERR, never mere readability: a
 * client may pipeline its next request while waiting for this answer.
 */
#define _GNU_SOURCE /* POLLRDHUP */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

#include "gridsolve/conns.h"
#include "gridsolve/error.h"
#include "gridsolve/search.h"

/* What a connection is doing, for the deadlines. */
enum phase {
    PH_HEAD, /* receiving a request head: header deadline */
    PH_BODY, /* receiving a body: minimum rate */
    PH_BUSY, /* being served: no deadline of ours */
    PH_IDLE  /* keep-alive, between requests: idle deadline */
};

/* A connection's phase and its time in one word, (ns << 3) | STAMP |
 * phase, so that its I/O thread changes both with one store and no lock,
 * and the watcher never reads a phase with another's time. The time is
 * the deadline of PH_HEAD and PH_IDLE (0: none) and the start of the body
 * for PH_BODY. The I/O thread reads no clock per request: it sets STAMP
 * instead of a time, and the watcher, at its next tick, replaces that
 * word with one holding the time it saw (by compare-and-swap: a newer
 * phase wins). A deadline thus starts at most one tick late, which is
 * the precision of its check anyway. */
#define PHASE_MASK 3u
#define STAMP 4u /* the time is not set yet: the watcher sets it */

static uint64_t phase_word(enum phase ph, int64_t ns)
{
    return ((uint64_t)(ns > 0 ? ns : 0) << 3) | (uint64_t)ph;
}

static enum phase word_phase(uint64_t w)
{
    return (enum phase)(w & PHASE_MASK);
}

static int64_t word_ns(uint64_t w)
{
    return (int64_t)(w >> 3);
}

struct gs_conn {
    int fd;
    struct sockaddr_storage peer; /* for the per-address limit */
    atomic_uint_fast64_t phase;   /* phase_word() */
    atomic_uint_fast64_t body_bytes;
    bool killed; /* shut down by us; MHD will close it */
    void *watch;
    void *user; /* gs_conn_user */
    gs_conn *prev, *next;
};

struct gs_conns {
    gs_conns_cfg cfg;
    gs_conns_hooks hooks;
    pthread_mutex_t lock;
    pthread_cond_t wake; /* only for a prompt stop */
    bool stop;
    gs_conn *head;
    size_t count;
    struct pollfd *pfd; /* watcher scratch, grown as needed */
    gs_conn **pconn;
    size_t pcap;
    pthread_t thread;
    bool started;
};

/* ---- watcher ------------------------------------------------------------ */

/* Grows the poll scratch arrays to hold n entries. */
static bool scratch_reserve(gs_conns *cs, size_t n)
{
    if (n <= cs->pcap)
        return true;
    size_t cap = cs->pcap ? cs->pcap * 2 : 64;
    while (cap < n)
        cap *= 2;
    struct pollfd *p = realloc(cs->pfd, cap * sizeof *p);
    if (!p)
        return false;
    cs->pfd = p;
    gs_conn **c = realloc(cs->pconn, cap * sizeof *c);
    if (!c)
        return false;
    cs->pconn = c;
    cs->pcap = cap;
    return true;
}

/* Shuts c down for `why`: MHD reads EOF and closes it itself. */
static void kill_conn(gs_conns *cs, gs_conn *c, enum gs_conn_kill why)
{
    c->killed = true;
    shutdown(c->fd, SHUT_RDWR);
    if (cs->hooks.killed)
        cs->hooks.killed(cs->hooks.ud, why);
}

/* Applies the header/idle deadline and the body rate to c. */
static void check_deadlines(gs_conns *cs, gs_conn *c, int64_t now)
{
    if (c->killed || c->watch)
        return;
    uint64_t w = atomic_load_explicit(&c->phase, memory_order_acquire);
    enum phase ph = word_phase(w);
    int64_t t = word_ns(w);
    if (w & STAMP) { /* first sight of this phase: its time starts now */
        t = ph == PH_HEAD   ? now + cs->cfg.header_timeout_ns
            : ph == PH_IDLE ? now + cs->cfg.idle_timeout_ns
                            : now;
        atomic_compare_exchange_strong(&c->phase, &w, phase_word(ph, t));
        return;
    }
    if ((ph == PH_HEAD || ph == PH_IDLE) && t && now >= t) {
        kill_conn(cs, c, ph == PH_IDLE ? GS_CONN_IDLE : GS_CONN_HEADER_TIMEOUT);
        return;
    }
    if (ph != PH_BODY || !cs->cfg.min_body_rate)
        return;
    int64_t ran = now - t;
    if (ran < cs->cfg.body_grace_ns)
        return;
    double want = (double)cs->cfg.min_body_rate * (double)ran / 1e9;
    if ((double)atomic_load_explicit(&c->body_bytes, memory_order_relaxed) <
        want)
        kill_conn(cs, c, GS_CONN_SLOW_BODY);
}

/* One tick: deadlines for all, hang-ups and ticks for the watched. */
static void tick(gs_conns *cs)
{
    int64_t now = gs_now_ns();
    size_t n = 0;

    for (gs_conn *c = cs->head; c; c = c->next) {
        check_deadlines(cs, c, now);
        if (c->watch && scratch_reserve(cs, n + 1)) {
            cs->pfd[n] = (struct pollfd){c->fd, POLLRDHUP, 0};
            cs->pconn[n++] = c;
        }
    }
    if (n == 0 || poll(cs->pfd, (nfds_t)n, 0) < 0)
        n = 0;
    for (size_t i = 0; i < n; i++) {
        gs_conn *c = cs->pconn[i];
        if (cs->pfd[i].revents & (POLLRDHUP | POLLHUP | POLLERR)) {
            void *w = c->watch;
            c->watch = NULL; /* reported once; the owner takes it on */
            if (cs->hooks.hangup)
                cs->hooks.hangup(cs->hooks.ud, w);
        } else if (cs->hooks.tick &&
                   !cs->hooks.tick(cs->hooks.ud, c->watch, now)) {
            c->watch = NULL;
        }
    }
}

static void *watcher_main(void *arg)
{
    gs_conns *cs = arg;
    struct timespec ts;

    pthread_mutex_lock(&cs->lock);
    while (!cs->stop) {
        clock_gettime(CLOCK_MONOTONIC, &ts);
        ts.tv_nsec += (long)cs->cfg.tick_ms * 1000000L;
        ts.tv_sec += ts.tv_nsec / 1000000000L;
        ts.tv_nsec %= 1000000000L;
        while (!cs->stop &&
               pthread_cond_timedwait(&cs->wake, &cs->lock, &ts) != ETIMEDOUT)
            ;
        if (!cs->stop)
            tick(cs);
    }
    pthread_mutex_unlock(&cs->lock);
    return NULL;
}

/* ---- lifecycle ---------------------------------------------------------- */

/* The wake condition waits against CLOCK_MONOTONIC, like the ticks. */
static int init_sync(gs_conns *cs)
{
    pthread_condattr_t ca;
    int rc = GS_EINTERNAL;

    if (pthread_mutex_init(&cs->lock, NULL))
        return GS_EINTERNAL;
    if (pthread_condattr_init(&ca) == 0) {
        pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
        if (pthread_cond_init(&cs->wake, &ca) == 0)
            rc = GS_OK;
        pthread_condattr_destroy(&ca);
    }
    if (rc)
        pthread_mutex_destroy(&cs->lock);
    return rc;
}

int gs_conns_new(const gs_conns_cfg *cfg, const gs_conns_hooks *hooks,
                 gs_conns **out)
{
    gs_conns *cs = calloc(1, sizeof *cs);

    *out = NULL;
    if (!cs)
        return GS_ENOMEM;
    cs->cfg = *cfg;
    if (cs->cfg.tick_ms <= 0)
        cs->cfg.tick_ms = 25;
    if (hooks)
        cs->hooks = *hooks;
    if (init_sync(cs)) {
        free(cs);
        return GS_EINTERNAL;
    }
    if (pthread_create(&cs->thread, NULL, watcher_main, cs)) {
        pthread_cond_destroy(&cs->wake);
        pthread_mutex_destroy(&cs->lock);
        free(cs);
        return GS_EINTERNAL;
    }
    cs->started = true;
    *out = cs;
    return GS_OK;
}

void gs_conns_free(gs_conns *cs)
{
    if (!cs)
        return;
    pthread_mutex_lock(&cs->lock);
    cs->stop = true;
    pthread_cond_signal(&cs->wake);
    pthread_mutex_unlock(&cs->lock);
    if (cs->started)
        pthread_join(cs->thread, NULL);
    while (cs->head) {
        gs_conn *c = cs->head;
        cs->head = c->next;
        free(c);
    }
    pthread_cond_destroy(&cs->wake);
    pthread_mutex_destroy(&cs->lock);
    free(cs->pfd);
    free(cs->pconn);
    free(cs);
}

/* ---- records ------------------------------------------------------------ */

void **gs_conn_user(gs_conn *c)
{
    return &c->user;
}

gs_conn *gs_conns_open(gs_conns *cs, int fd)
{
    gs_conn *c = calloc(1, sizeof *c);

    if (!c)
        return NULL;
    c->fd = fd;
    socklen_t len = sizeof c->peer;
    if (getpeername(fd, (struct sockaddr *)&c->peer, &len) != 0)
        c->peer.ss_family = AF_UNSPEC;
    atomic_init(
        &c->phase,
        phase_word(PH_HEAD, cs->cfg.header_timeout_ns
                                ? gs_now_ns() + cs->cfg.header_timeout_ns
                                : 0));
    atomic_init(&c->body_bytes, 0);
    pthread_mutex_lock(&cs->lock);
    c->next = cs->head;
    if (cs->head)
        cs->head->prev = c;
    cs->head = c;
    cs->count++;
    pthread_mutex_unlock(&cs->lock);
    return c;
}

void gs_conns_close(gs_conns *cs, gs_conn *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&cs->lock);
    if (c->prev)
        c->prev->next = c->next;
    else
        cs->head = c->next;
    if (c->next)
        c->next->prev = c->prev;
    cs->count--;
    pthread_mutex_unlock(&cs->lock);
    free(c);
}

size_t gs_conns_count(gs_conns *cs)
{
    pthread_mutex_lock(&cs->lock);
    size_t n = cs->count;
    pthread_mutex_unlock(&cs->lock);
    return n;
}

bool gs_conns_same_ip(const struct sockaddr *a, const struct sockaddr *b)
{
    if (a->sa_family != b->sa_family)
        return false;
    if (a->sa_family == AF_INET)
        return memcmp(&((const struct sockaddr_in *)a)->sin_addr,
                      &((const struct sockaddr_in *)b)->sin_addr,
                      sizeof(struct in_addr)) == 0;
    if (a->sa_family == AF_INET6)
        return memcmp(&((const struct sockaddr_in6 *)a)->sin6_addr,
                      &((const struct sockaddr_in6 *)b)->sin6_addr,
                      sizeof(struct in6_addr)) == 0;
    return false;
}

size_t gs_conns_count_addr(gs_conns *cs, const struct sockaddr *addr)
{
    size_t n = 0;

    pthread_mutex_lock(&cs->lock);
    for (gs_conn *c = cs->head; c; c = c->next)
        n += gs_conns_same_ip((const struct sockaddr *)&c->peer, addr);
    pthread_mutex_unlock(&cs->lock);
    return n;
}

/* Sets c's phase, its time to be stamped by the watcher when `stamp`,
 * else none (see phase_word). Only c's I/O thread calls it: no lock, the
 * watcher reads the word atomically. */
static void set_phase(gs_conn *c, enum phase ph, bool stamp)
{
    if (ph == PH_BODY) /* counted afresh before the body's time shows */
        atomic_store_explicit(&c->body_bytes, 0, memory_order_relaxed);
    atomic_store_explicit(&c->phase, phase_word(ph, 0) | (stamp ? STAMP : 0u),
                          memory_order_release);
}

void gs_conn_request_line(gs_conns *cs, gs_conn *c)
{
    if (!c || !cs->cfg.header_timeout_ns)
        return;
    uint64_t w = atomic_load_explicit(&c->phase, memory_order_relaxed);
    /* A head begun on a fresh connection keeps its accept-time deadline. */
    if (word_phase(w) == PH_HEAD && (word_ns(w) || (w & STAMP)))
        return;
    set_phase(c, PH_HEAD, true);
}

void gs_conn_headers_done(gs_conns *cs, gs_conn *c, bool body)
{
    if (c)
        set_phase(c, body ? PH_BODY : PH_BUSY, body);
}

void gs_conn_body_bytes(gs_conn *c, size_t n)
{
    if (c)
        atomic_fetch_add_explicit(&c->body_bytes, n, memory_order_relaxed);
}

void gs_conn_body_done(gs_conns *cs, gs_conn *c)
{
    if (c)
        set_phase(c, PH_BUSY, false);
}

void gs_conn_request_done(gs_conns *cs, gs_conn *c)
{
    if (!c)
        return;
    set_phase(c, PH_IDLE, cs->cfg.idle_timeout_ns != 0);
}

void gs_conns_watch(gs_conns *cs, gs_conn *c, void *watch)
{
    if (!c)
        return;
    pthread_mutex_lock(&cs->lock);
    c->watch = watch;
    pthread_mutex_unlock(&cs->lock);
}

void gs_conns_each_watched(gs_conns *cs, void (*fn)(void *watch, void *arg),
                           void *arg)
{
    pthread_mutex_lock(&cs->lock);
    for (gs_conn *c = cs->head; c; c = c->next)
        if (c->watch)
            fn(c->watch, arg);
    pthread_mutex_unlock(&cs->lock);
}

size_t gs_conns_close_idle(gs_conns *cs)
{
    size_t n = 0;

    pthread_mutex_lock(&cs->lock);
    for (gs_conn *c = cs->head; c; c = c->next) {
        if (word_phase(atomic_load(&c->phase)) == PH_IDLE && !c->killed &&
            !c->watch) {
            /* FIN only: the client reads EOF and closes; MHD then sees
             * its EOF and cleans up. Nothing unread, so no reset. */
            shutdown(c->fd, SHUT_WR);
            c->killed = true;
            n++;
        }
    }
    pthread_mutex_unlock(&cs->lock);
    return n;
}
