/* server.h - `gridsolve serve`: the HTTP service. */
#ifndef GRIDSOLVE_SERVER_H
#define GRIDSOLVE_SERVER_H

/* Parses serve's flags and GRIDSOLVE_* variables, runs the server until
 * SIGTERM/SIGINT and a drain, returns the process exit status. */
int gs_server_main(int argc, char **argv);

#endif
