/* client.h - what the stress tool needs to drive a real `gridsolve serve`:
 * a raw-socket HTTP/1.1 client (keep-alive, source-address binding,
 * deadlines, telling a reset from a clean close), a child server started
 * on a free port, and readers for /proc/<pid>/status and /metrics.
 *
 * Raw sockets rather than libcurl because the scenarios need control over
 * half-sent requests, abrupt closes and thousands of idle connections.
 */
#ifndef GS_STRESS_CLIENT_H
#define GS_STRESS_CLIENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Monotonic milliseconds, and a sleep. */
double st_now_ms(void);
void st_sleep_ms(double ms);

/* Outcome of one exchange. */
enum st_err {
    ST_OK = 0,
    ST_ECONNECT = -1, /* connect failed (refused, no route, fd limit) */
    ST_ETIMEOUT = -2, /* the deadline passed */
    ST_ERESET = -3,   /* ECONNRESET / EPIPE */
    ST_EEOF = -4,     /* clean close before a complete response */
    ST_EPARSE = -5,   /* not an HTTP response */
};
const char *st_err_name(int e);

/* Connects to 127.0.0.1:port from `src` (NULL = any), blocking up to
 * timeout_ms. Returns the fd or ST_ECONNECT. */
int st_connect(const char *src, int port, double timeout_ms);
/* The same but returns at once with a non-blocking fd whose connect is in
 * progress (for thousands of slow connections); ST_ECONNECT on failure. */
int st_connect_nb(const char *src, int port);

/* Writes everything by the deadline (st_now_ms() clock). ST_OK or error. */
int st_send_all(int fd, const void *data, size_t len, double deadline);

/* A parsed response; body holds at most ST_BODY_MAX bytes. */
#define ST_BODY_MAX 4096
typedef struct st_resp {
    int status;
    bool close;       /* the server said Connection: close */
    char retry_after; /* a Retry-After header was present */
    char body[ST_BODY_MAX + 1];
    size_t body_len; /* bytes kept (the whole body may be longer) */
    /* Bytes of the response that arrived, set on errors too: a close
     * before the first byte on a reused connection is the server dropping
     * an idle keep-alive (safe to retry), a close after it a cut answer. */
    size_t received;
} st_resp;

/* Reads one complete response (Content-Length, chunked or close
 * delimited) by the deadline. ST_OK or error; r->received either way. */
int st_read_resp(int fd, st_resp *r, double deadline);

/* Formats a request; returns its length (body not included). */
size_t st_format_req(char *buf, size_t cap, const char *method,
                     const char *path, const char *ctype, size_t body_len,
                     bool keep_alive);

/* One request on a fresh connection (Connection: close). Returns ST_OK
 * with r filled, or an error; *ms gets the latency when not NULL. */
int st_request(const char *src, int port, const char *method, const char *path,
               const char *ctype, const char *body, size_t body_len,
               double timeout_ms, st_resp *r, double *ms);

/* A `gridsolve serve` child. */
typedef struct st_server {
    pid_t pid;
    int port;
    bool reaped;        /* waited for: pid may belong to another process */
    int exit_status;    /* once reaped: as st_server_stop returns it */
    char log_path[256]; /* its stderr */
} st_server;

/* Starts BIN serve --port 0 ARGS (NULL-terminated) --bind 127.0.0.1 with
 * the RLIMIT_NOFILE this process had at start (st_limits_init), waits for
 * `listening on`. The bind comes last so that ARGS cannot move the server
 * off the loopback (the last flag wins). 0, or -1 with a message on
 * stderr. */
int st_server_start(st_server *s, const char *bin, const char *const *args);
/* SIGTERM then st_server_wait. */
int st_server_stop(st_server *s, double timeout_ms, double *exit_ms);
/* Waits up to timeout_ms without signalling (the caller sent the signal;
 * a second SIGTERM would cut the server's grace short), SIGKILL after.
 * Exit status, or 128+signal, or -1 when it had to be killed. *exit_ms:
 * time to exit. */
int st_server_wait(st_server *s, double timeout_ms, double *exit_ms);
/* True when the server has exited; reaps it (and forgets its pid, which
 * the system may reuse) and sets s->exit_status. */
bool st_server_exited(st_server *s);
/* Removes the server's log, or with `keep` leaves it and prints its path
 * (a comment line of the figures). */
void st_server_log_done(const st_server *s, bool keep);
/* Kills every child still running (atexit). */
void st_server_kill_all(void);

/* Saves the original RLIMIT_NOFILE (for children) and raises the soft
 * limit to the hard one. Returns the new soft limit. */
unsigned long st_limits_init(void);

/* VmRSS / VmHWM of pid in KiB; 0 when unreadable. */
uint64_t st_proc_kb(pid_t pid, const char *field);

/* Sum of the /metrics samples whose line starts with `prefix` and holds
 * `contains` (NULL: any). -1 when /metrics cannot be read or has no such
 * sample. */
double st_metric(int port, const char *prefix, const char *contains);

/* True when `bin serve --help` mentions `flag`. */
bool st_server_has_flag(const char *bin, const char *flag);

#endif
