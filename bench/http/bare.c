/* bare.c - the reference for `make bench-http`: a bare libmicrohttpd
 * server that reads the request body and answers a fixed JSON (the size
 * of gridsolve's answer to the README's tiny bloxorz example), on a
 * thread pool with epoll. What any server on MHD could reach on this
 * machine; gridsolve's requests per second are compared to it.
 *
 *   bare PORT [THREADS]   (prints "listening on 127.0.0.1:PORT" when bound)
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char bare_answer[] =
    "{\"puzzle\":\"bloxorz\",\"status\":\"solved\",\"steps\":10,\"moves\":"
    "\"LDDDDRURRU\",\"optimal\":true,\"stats\":{\"expanded\":31,"
    "\"elapsed_ms\":0.005}}";

/* Marks a request whose body is being read. */
static int bare_reading;

/* Reads and drops the body; answers once it is all in. */
static enum MHD_Result bare_handle(void *cls, struct MHD_Connection *c,
                                   const char *url, const char *method,
                                   const char *version, const char *data,
                                   size_t *size, void **state)
{
    if (*state == NULL) {
        *state = &bare_reading;
        return MHD_YES;
    }
    if (*size) {
        *size = 0; /* consumed */
        return MHD_YES;
    }
    struct MHD_Response *r = MHD_create_response_from_buffer(
        sizeof bare_answer - 1, (void *)bare_answer, MHD_RESPMEM_PERSISTENT);
    if (r == NULL)
        return MHD_NO;
    MHD_add_response_header(r, "Content-Type", "application/json");
    enum MHD_Result ok = MHD_queue_response(c, MHD_HTTP_OK, r);
    MHD_destroy_response(r);
    return ok;
}

static volatile sig_atomic_t bare_stop;

static void bare_on_signal(int sig)
{
    (void)sig;
    bare_stop = 1;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: bare PORT [THREADS]\n");
        return 2;
    }
    unsigned port = (unsigned)atoi(argv[1]);
    unsigned threads = argc > 2 ? (unsigned)atoi(argv[2])
                                : (unsigned)sysconf(_SC_NPROCESSORS_ONLN);
    /* Loopback only, as gridsolve's side of the bench: wrk runs here. */
    struct sockaddr_in lo = {.sin_family = AF_INET,
                             .sin_port = htons((uint16_t)port),
                             .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    struct MHD_Daemon *d = MHD_start_daemon(
        MHD_USE_EPOLL_INTERNAL_THREAD | MHD_USE_ERROR_LOG, (uint16_t)port, NULL,
        NULL, bare_handle, NULL, MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&lo,
        MHD_OPTION_THREAD_POOL_SIZE, threads, MHD_OPTION_CONNECTION_LIMIT,
        10000u, MHD_OPTION_END);
    if (d == NULL) {
        fprintf(stderr, "bare: cannot listen on port %u\n", port);
        return 1;
    }
    const union MHD_DaemonInfo *info =
        MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    printf("listening on 127.0.0.1:%u\n", info ? (unsigned)info->port : port);
    fflush(stdout);
    signal(SIGTERM, bare_on_signal);
    signal(SIGINT, bare_on_signal);
    while (!bare_stop)
        pause();
    MHD_stop_daemon(d);
    return 0;
}
