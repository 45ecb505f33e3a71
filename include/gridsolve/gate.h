/* gate.h - the accept loop in front of libmicrohttpd.
 *
 * libmicrohttpd 0.9.75 answers a malformed Content-Length value (`-1`,
 * `abc`, an overflow) itself, and writes that answer's header block twice
 * without ever calling the application. So new connections are accepted
 * here first: the gate waits (peeking, nothing consumed) until the first
 * request head is complete, answers a malformed Content-Length with one
 * well-formed 400 problem document and closes, and hands every other
 * connection to MHD (MHD_add_connection), which then reads the request
 * from the socket as if it had accepted it.
 *
 * The gate also keeps heads that never complete away from MHD: they are
 * closed at the header deadline. And it stops accepting while the open
 * connections are at the limit, so newcomers wait in the listen backlog.
 * (Later requests on a kept-alive connection are MHD's alone; a
 * malformed Content-Length there still gets MHD's own answer.)
 */
#ifndef GRIDSOLVE_GATE_H
#define GRIDSOLVE_GATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

typedef struct gs_gate gs_gate;

/* Callbacks, all on the gate's thread. */
typedef struct gs_gate_hooks {
    /* Takes the connection (fd and address); false when refused (the
     * callee closed fd). */
    bool (*pass)(void *ud, int fd, const struct sockaddr *addr, socklen_t len);
    /* Writes the refusal (`status` 400, 414 or 431) of a head (`method` and
     * `path` from its request line, printable; `id` and `origin` its
     * X-Request-Id and Origin, NULL when absent; `detail` says what is
     * wrong) on the non-blocking fd. The gate closes fd afterwards. */
    void (*refuse)(void *ud, int fd, int status, const char *method,
                   const char *path, const char *id, const char *origin,
                   const char *detail);
    /* A connection was closed for not completing its head in time. */
    void (*timed_out)(void *ud);
    /* The open connections reached the limit: accepting pauses. */
    void (*at_limit)(void *ud, size_t open);
    /* Connections open in MHD now, for the limit. */
    size_t (*open)(void *ud);
    /* Of those, the ones from addr's IP (per-address limit). */
    size_t (*open_from)(void *ud, const struct sockaddr *addr);
    /* A connection was refused at the per-address limit. */
    void (*rejected)(void *ud);
    void *ud;
} gs_gate_hooks;

typedef struct gs_gate_cfg {
    int64_t head_timeout_ns; /* 0: wait forever */
    size_t head_room;        /* gs_gate_check_head's; 0: no check */
    size_t max_connections;  /* MHD's plus the gate's */
    size_t max_per_ip;       /* the same per client IP; 0: no limit */
} gs_gate_cfg;

/* Starts the gate's thread on the listening socket listen_fd (which it
 * owns from now on). GS_OK, GS_ENOMEM or GS_EINTERNAL. */
int gs_gate_new(int listen_fd, const gs_gate_cfg *cfg,
                const gs_gate_hooks *hooks, gs_gate **out);

/* Stops accepting and closes the listening socket (drain). */
void gs_gate_stop_listening(gs_gate *g);

/* Connections the gate holds (accepted, head not complete). */
size_t gs_gate_pending(gs_gate *g);

/* Stops the thread, closes what it still holds. NULL is fine. */
void gs_gate_free(gs_gate *g);

/* What MHD holds of a head in a connection's memory: its text and about
 * this much more a header line. */
#define GS_GATE_HEADER_COST 64

/* Checks a complete request head (text up to and excluding the blank
 * line, len bytes): a Content-Length MHD would refuse itself (400), or a
 * head that takes more than `room` bytes of MHD's connection memory
 * (GS_GATE_HEADER_COST; 0: no limit) and would leave too little for the
 * answer's headers (431: MHD then closes the connection without any).
 * Returns NULL when acceptable, else a problem detail with *status set.
 * Pure, for unit tests. */
const char *gs_gate_check_head(const char *head, size_t len, size_t room,
                               int *status);

/* Copies the value of the first header `name` (any case) of a request
 * head into out (blanks trimmed, NUL-ended). False when absent, or when
 * the value does not fit cap - 1 bytes. Pure, for unit tests. */
bool gs_gate_header(const char *head, size_t len, const char *name, char *out,
                    size_t cap);

/* True when v (n bytes, blanks trimmed) is a Content-Length MHD takes:
 * 1 to 19 digits, nothing else (20 digits may pass 2^64). */
bool gs_gate_length_ok(const char *v, size_t n);

/* The problem detail of a head too large. */
#define GS_GATE_HEAD_TOO_LARGE                                                 \
    "request head too large: its text and header lines take more than the "    \
    "connection holds (each header line counts 64 bytes more)"

/* The problem detail of a request line longer than the gate reads. */
#define GS_GATE_URI_TOO_LONG                                                   \
    "request line too long: the request target must be shorter than 16 KiB"

/* The problem detail of a head with obsolete line folding. */
#define GS_GATE_OBS_FOLD                                                       \
    "a header line starts with a blank (obsolete line folding); send each "    \
    "header on one line"

/* The problem details of a malformed request line and header line. */
#define GS_GATE_BAD_REQUEST_LINE                                               \
    "malformed request line; send METHOD, a space, the target, a space "       \
    "and the HTTP version"
#define GS_GATE_BAD_HEADER_LINE                                                \
    "malformed header line; send each header as Name: value"

/* The problem detail of a refused Content-Length. */
#define GS_GATE_BAD_LENGTH                                                     \
    "Content-Length must be a decimal byte count below 2^64"

#endif
