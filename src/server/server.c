/* server.c - placeholder for `gridsolve serve`. */
#include <stdio.h>

#include "gridsolve/server.h"

int gs_server_main(int argc, char **argv)
{
    fprintf(stderr, "gridsolve serve: not implemented yet\n");
    return 1;
}
