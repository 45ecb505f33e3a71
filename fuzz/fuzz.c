/* fuzz.c - target selection shared by the harnesses (see fuzz.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "gridsolve/cjson.h"
#include "gridsolve/mem.h"

static void usage(void)
{
    fprintf(stderr, "set GS_FUZZ_PUZZLE to one of:");
    for (size_t i = 0; i < gs_puzzle_count; i++)
        fprintf(stderr, " %s", gs_puzzles[i]->name);
    fprintf(stderr, "\nand GS_FUZZ_MODE to json, text or text-F (F one of "
                    "the puzzle's text formats:");
    for (size_t i = 0; i < gs_puzzle_count; i++)
        for (const char *const *f = gs_puzzles[i]->text_formats; f && *f; f++)
            fprintf(stderr, " %s:%s", gs_puzzles[i]->name, *f);
    fprintf(stderr, ")\n");
    exit(2);
}

/* The entry of p's text_formats named `name`, or NULL. */
static const char *find_format(const gs_puzzle *p, const char *name)
{
    for (const char *const *f = p->text_formats; f && *f; f++)
        if (strcmp(*f, name) == 0)
            return *f;
    return NULL;
}

void gs_fuzz_setup(gs_fuzz_target *t)
{
    const char *name = getenv("GS_FUZZ_PUZZLE");
    const char *mode = getenv("GS_FUZZ_MODE");
    if (!name || !mode)
        usage();
    t->puzzle = gs_puzzle_find(name, strlen(name));
    if (!t->puzzle)
        usage();
    t->format = NULL;
    if (strcmp(mode, "text") == 0)
        t->text = true;
    else if (strcmp(mode, "json") == 0)
        t->text = false;
    else if (strncmp(mode, "text-", 5) == 0 &&
             (t->format = find_format(t->puzzle, mode + 5)) != NULL)
        t->text = true;
    else
        usage();
    gs_mem_set_budget(GS_FUZZ_BUDGET);
    /* The harnesses call libcjson directly too: the table is loaded, and
     * the hooks with it, before any tree exists. */
    gs_cjson_load();
    gs_mem_install_cjson_hooks();
}

void gs_fuzz_check(bool cond, const char *what)
{
    if (cond)
        return;
    fprintf(stderr, "gs_fuzz_check failed: %s\n", what);
    abort();
}
