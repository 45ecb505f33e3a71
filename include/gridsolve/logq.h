/* logq.h - the access log's writer: batches log lines from many threads
 * into few writes.
 *
 * One write(2) per request line costs a system call on the I/O thread for
 * every request, which under load is a good part of the request's cost.
 * Here any thread appends its line to a shared buffer (a copy under a
 * mutex, no system call), and one writer thread writes what accumulated
 * at most `flush_ms` after the first line of a batch was queued, or at
 * once when the buffer is half full. Lines are never dropped and never
 * interleaved: when the buffer is full the caller waits for the writer,
 * as it would have waited for a blocking write. gs_logq_flush and
 * gs_logq_free write everything queued before they return.
 */
#ifndef GRIDSOLVE_LOGQ_H
#define GRIDSOLVE_LOGQ_H

#include <stddef.h>

typedef struct gs_logq gs_logq;

/* Starts the writer thread for fd (not closed by the queue), with
 * `cap` bytes of buffer (0: a default) and flush_ms (>= 1) of delay.
 * GS_OK, GS_ENOMEM or GS_EINTERNAL. */
int gs_logq_new(int fd, size_t cap, int flush_ms, gs_logq **out);

/* Queues line (len bytes, its '\n' included). A line longer than the
 * buffer is written at once, after what is queued. q NULL: written to
 * stderr directly. */
void gs_logq_put(gs_logq *q, const char *line, size_t len);

/* Returns once every line queued before the call has been written. */
void gs_logq_flush(gs_logq *q);

/* Flushes, stops the writer and frees. NULL is fine. */
void gs_logq_free(gs_logq *q);

#endif
