/* conns.h - the connection registry and watcher of `gridsolve serve`.
 *
 * libmicrohttpd neither bounds how long a client may take to send its
 * request head (its idle timeout is reset by every byte) nor notices that
 * the client of a suspended connection hung up. This module keeps one
 * record per TCP connection (created and dropped from MHD's connection
 * notifications) and one thread that, every few tens of milliseconds:
 *
 * - shuts down connections past their header deadline, or sending their
 *   body slower than the minimum rate (MHD then sees EOF and cleans up);
 * - polls the sockets of "watched" connections (a suspended solve, an
 *   event stream) for a hang-up and reports it to the owner;
 * - gives every watched connection a tick (progress events).
 *
 * A socket is only touched under the registry lock and only until its
 * record is dropped, which MHD's close notification does before it closes
 * the descriptor: the watcher never acts on a reused descriptor.
 */
#ifndef GRIDSOLVE_CONNS_H
#define GRIDSOLVE_CONNS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

typedef struct gs_conns gs_conns;
typedef struct gs_conn gs_conn;

/* Why the watcher closed a connection. An idle keep-alive connection's
 * close is routine, not a client's fault: the hook need not report it. */
enum gs_conn_kill {
    GS_CONN_HEADER_TIMEOUT = 0,
    GS_CONN_SLOW_BODY = 1,
    GS_CONN_IDLE = 2
};

typedef struct gs_conns_cfg {
    int64_t header_timeout_ns; /* request head complete within; 0 = none */
    int64_t idle_timeout_ns;   /* keep-alive: next request begun within */
    uint64_t min_body_rate;    /* bytes/s averaged; 0 = none */
    int64_t body_grace_ns;     /* before the body rate is enforced */
    int tick_ms;               /* watcher period */
} gs_conns_cfg;

/* Callbacks, run on the watcher thread with the registry lock held: they
 * must not call back into gs_conns. `watch` is the pointer given to
 * gs_conns_watch; `ud` is hooks.ud. After a hang-up, or a tick that
 * returns false, the connection is no longer watched. */
typedef struct gs_conns_hooks {
    void (*hangup)(void *ud, void *watch); /* the client went away */
    bool (*tick)(void *ud, void *watch, int64_t now_ns);
    void (*killed)(void *ud, enum gs_conn_kill why); /* logs, metrics */
    void *ud;
} gs_conns_hooks;

/* Starts the watcher thread. GS_OK, GS_ENOMEM or GS_EINTERNAL. */
int gs_conns_new(const gs_conns_cfg *cfg, const gs_conns_hooks *hooks,
                 gs_conns **out);
/* Stops the thread and frees every record. NULL is fine. */
void gs_conns_free(gs_conns *cs);

/* A new connection on socket fd; NULL when out of memory (the connection
 * then simply goes unwatched). Its header deadline starts now. */
gs_conn *gs_conns_open(gs_conns *cs, int fd);
/* The connection is closing: drops its record (and any watch). */
void gs_conns_close(gs_conns *cs, gs_conn *c);
/* A slot for the caller's own state of connection c (NULL at first),
 * for the I/O thread that owns c only; the caller releases what it put
 * there before gs_conns_close. */
void **gs_conn_user(gs_conn *c);
/* Connections open now. */
size_t gs_conns_count(gs_conns *cs);

/* Connections open now from the IP address of addr (port ignored). */
size_t gs_conns_count_addr(gs_conns *cs, const struct sockaddr *addr);

/* True when a and b hold the same IP address (ports ignored). */
bool gs_conns_same_ip(const struct sockaddr *a, const struct sockaddr *b);

/* Request-phase marks, from MHD's thread. Each accepts c == NULL. */
void gs_conn_request_line(gs_conns *cs, gs_conn *c); /* head begun */
void gs_conn_headers_done(gs_conns *cs, gs_conn *c, bool body);
void gs_conn_body_bytes(gs_conn *c, size_t n);
void gs_conn_body_done(gs_conns *cs, gs_conn *c);
void gs_conn_request_done(gs_conns *cs, gs_conn *c); /* idle keep-alive */

/* Starts (watch != NULL) or stops (NULL) watching c for a hang-up, with
 * ticks. After gs_conns_watch(cs, c, NULL) returns no hook runs for the
 * old pointer any more. */
void gs_conns_watch(gs_conns *cs, gs_conn *c, void *watch);

/* Calls fn(watch, arg) for every watched connection, under the lock. */
void gs_conns_each_watched(gs_conns *cs, void (*fn)(void *watch, void *arg),
                           void *arg);

/* Drain: sends FIN on every idle keep-alive connection (no request in
 * progress), so clients stop reusing them and close on their side.
 * Returns how many were shut down. */
size_t gs_conns_close_idle(gs_conns *cs);

#endif
