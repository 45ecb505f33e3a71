/* probe.h - `gridsolve health [--host H] [--port N] [--path P]`: exits 0
 * when GET P answers 200 (default 127.0.0.1:$GRIDSOLVE_PORT/healthz). */
#ifndef GRIDSOLVE_CLI_PROBE_H
#define GRIDSOLVE_CLI_PROBE_H

int gs_probe_main(int argc, char **argv);

#endif
