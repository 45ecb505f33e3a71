/* test_mem.c - unit tests for the process-wide memory budget and the
 * search core's use of it (limit "memory", progress counters). Each test
 * leaves the budget unlimited again, so the suite also runs unforked
 * (CK_FORK=no, as under valgrind). */
#include <stdio.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cjson/cJSON.h>

#include "gridsolve/cgroup.h"
#include "gridsolve/mem.h"
#include "gridsolve/search.h"
#include "suites.h"

START_TEST(reserve_respects_budget)
{
    uint64_t base = gs_mem_used();
    uint64_t refused = gs_mem_refused();

    gs_mem_set_budget(base + 1000);
    ck_assert(gs_mem_reserve(600));
    ck_assert(!gs_mem_reserve(600));
    ck_assert_uint_eq(gs_mem_refused(), refused + 1);
    ck_assert(gs_mem_reserve(400));
    ck_assert_uint_eq(gs_mem_used(), base + 1000);
    gs_mem_release(1000);
    ck_assert_uint_eq(gs_mem_used(), base);
    ck_assert_uint_ge(gs_mem_peak(), base + 1000);
    gs_mem_set_budget(0);
    ck_assert(gs_mem_reserve(UINT64_MAX / 4)); /* unlimited: only counted */
    gs_mem_release(UINT64_MAX / 4);
}
END_TEST

/* The CLI's default budget is worked out only once the reservations pass
 * GS_MEM_LAZY_FLOOR (a small run never reads the cgroup files), and then
 * it is the budget `serve` would start with. */
START_TEST(deferred_default_budget)
{
    uint64_t base = gs_mem_used();
    ck_assert_uint_lt(base, GS_MEM_LAZY_FLOOR / 2);
    gs_mem_defer_default_budget(80);
    ck_assert(gs_mem_budget_pending());
    ck_assert(gs_mem_reserve(GS_MEM_LAZY_FLOOR / 2 - base));
    ck_assert(gs_mem_budget_pending());
    ck_assert(gs_mem_reserve(GS_MEM_LAZY_FLOOR / 2 + 1));
    ck_assert(!gs_mem_budget_pending());
    uint64_t want = gs_mem_process_budget(gs_mem_default_budget(80));
    uint64_t got = gs_mem_budget();
    /* Resident memory moves a little between the two readings. */
    ck_assert_uint_gt(got, 0);
    ck_assert_uint_le(got > want ? got - want : want - got, 64u << 20);
    gs_mem_release(GS_MEM_LAZY_FLOOR + 1 - base);

    /* Asking for the budget works it out too; setting one cancels it. */
    gs_mem_defer_default_budget(80);
    ck_assert_uint_gt(gs_mem_budget(), 0);
    ck_assert(!gs_mem_budget_pending());
    gs_mem_defer_default_budget(80);
    gs_mem_set_budget(0);
    ck_assert(!gs_mem_budget_pending());
    ck_assert_uint_eq(gs_mem_budget(), 0);
}
END_TEST

START_TEST(accounting_allocator)
{
    uint64_t base = gs_mem_used();
    char *p = gs_mem_malloc(100);

    ck_assert_ptr_nonnull(p);
    memset(p, 'x', 100);
    ck_assert_uint_gt(gs_mem_used(), base + 100 - 1);
    p = gs_mem_realloc(p, 5000);
    ck_assert_ptr_nonnull(p);
    ck_assert_int_eq(p[99], 'x');
    ck_assert_uint_ge(gs_mem_used(), base + 5000);
    p = gs_mem_realloc(p, 10);
    ck_assert_ptr_nonnull(p);
    ck_assert_uint_lt(gs_mem_used(), base + 100);
    gs_mem_free(p);
    ck_assert_uint_eq(gs_mem_used(), base);

    int *z = gs_mem_calloc(16, sizeof *z);
    ck_assert_ptr_nonnull(z);
    for (int i = 0; i < 16; i++)
        ck_assert_int_eq(z[i], 0);
    gs_mem_free(z);
    ck_assert_ptr_null(gs_mem_calloc(SIZE_MAX / 2, 4)); /* overflow */

    gs_mem_set_budget(base + 64);
    ck_assert_ptr_null(gs_mem_malloc(1000));
    gs_mem_set_budget(0);
    ck_assert_uint_eq(gs_mem_used(), base);
}
END_TEST

/* A scope reserves in chunks and keeps the rest as its thread's credit;
 * near a full budget it asks for exact amounts, so it refuses nothing
 * the plain counter would grant, and its end gives every byte back. */
START_TEST(scope_credit_stays_within_budget)
{
    uint64_t base = gs_mem_used();
    uint64_t refused = gs_mem_refused();

    gs_mem_scope_begin();
    ck_assert(gs_mem_reserve(100));
    uint64_t held = gs_mem_used();
    ck_assert_uint_ge(held, base + 100); /* a chunk, credit included */
    ck_assert(gs_mem_reserve(100));      /* from the credit */
    ck_assert_uint_eq(gs_mem_used(), held);
    gs_mem_release(200);
    gs_mem_scope_begin(); /* nested: the same credit */
    char *p = gs_mem_malloc(50);
    ck_assert_ptr_nonnull(p);
    gs_mem_scope_end();
    ck_assert_uint_eq(gs_mem_used(), held); /* p still holds its bytes */
    gs_mem_scope_end();
    ck_assert_uint_gt(gs_mem_used(), base);
    gs_mem_free(p); /* freed outside any scope: straight back */
    ck_assert_uint_eq(gs_mem_used(), base);

    /* Room for 1000 bytes: no chunk fits, exact amounts do. */
    gs_mem_set_budget(base + 1000);
    gs_mem_scope_begin();
    ck_assert(gs_mem_reserve(600));
    ck_assert_uint_eq(gs_mem_used(), base + 600);
    ck_assert(!gs_mem_reserve(600));
    ck_assert_uint_eq(gs_mem_refused(), refused + 1);
    ck_assert(gs_mem_reserve(400));
    ck_assert_uint_eq(gs_mem_used(), base + 1000);
    gs_mem_release(1000); /* kept as credit until the end */
    ck_assert(gs_mem_reserve(1000));
    gs_mem_release(1000);
    gs_mem_scope_end();
    ck_assert_uint_eq(gs_mem_used(), base);
    gs_mem_set_budget(0);

    /* A large block freed in a scope is not kept as its credit. */
    gs_mem_scope_begin();
    p = gs_mem_malloc(4u << 20);
    ck_assert_ptr_nonnull(p);
    gs_mem_free(p);
    ck_assert_uint_lt(gs_mem_used(), base + (1u << 20));
    gs_mem_scope_end();
    ck_assert_uint_eq(gs_mem_used(), base);
}
END_TEST

/* An open arena holds a small tree's blocks (no budget, no heap); a
 * tree larger than it goes on in the heap through the budget; deleting
 * either gives every reserved byte back. */
START_TEST(arena_holds_small_trees)
{
    uint64_t base = gs_mem_used();
    _Alignas(16) unsigned char buf[2048];
    gs_mem_arena a;
    char big[4000];

    gs_mem_install_cjson_hooks();
    gs_mem_arena_begin(&a, buf, sizeof buf);
    cJSON *doc = cJSON_Parse("{\"grid\": [\"#####\", \"#X.O#\", \"#####\"]}");
    gs_mem_arena_close(&a);
    ck_assert_ptr_nonnull(doc);
    ck_assert(gs_mem_arena_holds_all(&a));
    ck_assert((unsigned char *)doc >= buf && (unsigned char *)doc < buf + 2048);
    ck_assert_uint_eq((uintptr_t)doc % 16, 0);
    ck_assert_uint_eq(gs_mem_used(), base);
    cJSON *after = cJSON_CreateObject(); /* closed: from the heap */
    ck_assert_ptr_nonnull(after);
    ck_assert_uint_gt(gs_mem_used(), base);
    cJSON_Delete(after);
    ck_assert_str_eq(
        cJSON_GetArrayItem(cJSON_GetObjectItem(doc, "grid"), 1)->valuestring,
        "#X.O#");
    cJSON_Delete(doc);
    gs_mem_arena_end(&a);
    ck_assert_uint_eq(gs_mem_used(), base);

    size_t n = (size_t)sprintf(big, "[");
    for (int i = 0; i < 500; i++)
        n += (size_t)sprintf(big + n, i ? ",%d" : "%d", i);
    strcpy(big + n, "]");
    gs_mem_arena_begin(&a, buf, sizeof buf);
    doc = cJSON_Parse(big);
    gs_mem_arena_close(&a);
    ck_assert_ptr_nonnull(doc);
    ck_assert_int_eq(cJSON_GetArraySize(doc), 500);
    ck_assert_int_eq(cJSON_GetArrayItem(doc, 499)->valueint, 499);
    ck_assert(!gs_mem_arena_holds_all(&a));
    ck_assert_uint_gt(gs_mem_used(), base); /* the rest is on the heap */
    cJSON_Delete(doc);
    gs_mem_arena_end(&a);
    ck_assert_uint_eq(gs_mem_used(), base);
    cJSON_InitHooks(NULL);

    /* Without the hooks the tree is the heap's, whatever the arena. */
    gs_mem_arena_begin(&a, buf, sizeof buf);
    doc = cJSON_Parse("{\"a\": 1}");
    gs_mem_arena_close(&a);
    ck_assert_ptr_nonnull(doc);
    ck_assert(!gs_mem_arena_holds_all(&a));
    cJSON_Delete(doc);
    gs_mem_arena_end(&a);
}
END_TEST

START_TEST(system_limit_is_sane)
{
    ck_assert_uint_gt(gs_mem_system_limit(), 16u << 20);
    ck_assert_uint_le(gs_mem_default_budget(50), gs_mem_system_limit() / 2);
}
END_TEST

/* The process budget stops a search with limit "memory", and every byte
 * comes back when the search is freed. */
/* ---- cgroup limits: a fake /sys/fs/cgroup and membership file ---------- */

/* Writes text to dir/rel, making the directories on the way. */
static void put_file(const char *dir, const char *rel, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, rel);
    for (char *p = path + strlen(dir) + 1; (p = strchr(p, '/')); p++) {
        *p = '\0';
        mkdir(path, 0755);
        *p = '/';
    }
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

static void record_dir(const char *dir, bool v2, void *ud)
{
    char *out = ud;
    size_t n = strlen(out);
    snprintf(out + n, 1024 - n, "%s%s ", v2 ? "2:" : "1:", dir);
}

/* The limit may sit on any ancestor of the process's cgroup (a systemd
 * slice's MemoryMax=), or only on the root a container sees; the smallest
 * one counts, "max" and v1's huge "no limit" do not. */
START_TEST(cgroup_memory_limit_walks_ancestors)
{
    char root[] = "/tmp/gs-cgroup-XXXXXX", self[600], seen[1024] = "";
    ck_assert_ptr_nonnull(mkdtemp(root));
    snprintf(self, sizeof self, "%s/self", root);
    static const char *const v1[] = {"memory", NULL};

    /* v1: the limit is on the parent of the process's own cgroup. */
    put_file(root, "memory/memory.limit_in_bytes", "9223372036854771712\n");
    put_file(root, "memory/a/memory.limit_in_bytes", "2000000000\n");
    put_file(root, "memory/a/b/memory.limit_in_bytes", "9223372036854771712\n");
    put_file(root, "self", "9:pids:/\n4:blkio,memory:/a/b\n0::/\n");
    ck_assert_uint_eq(gs_mem_cgroup_limit(self, root), 2000000000);
    gs_cgroup_each(self, root, "memory", v1, record_dir, seen);
    char want[1024];
    snprintf(want, sizeof want,
             "1:%s/memory/a/b 1:%s/memory/a 1:%s/memory 2:%s ", root, root,
             root, root);
    ck_assert_str_eq(seen, want);

    /* v2: "max" on the leaf, a number on its parent. */
    put_file(root, "x/y/memory.max", "max\n");
    put_file(root, "x/memory.max", "3000000000\n");
    put_file(root, "self", "0::/x/y\n");
    ck_assert_uint_eq(gs_mem_cgroup_limit(self, root), 3000000000);

    /* A container: the listed path is missing, the root holds the limit,
     * as when the membership file cannot be read (only the roots are
     * read). A controller that only looks like "memory" is not it. */
    put_file(root, "memory.max", "1000000000\n");
    put_file(root, "self", "0::/kubepods/pod1/c1\n4:memoryx:/a\n");
    ck_assert_uint_eq(gs_mem_cgroup_limit(self, root), 1000000000);
    put_file(root, "memory/a/memory.limit_in_bytes", "500000000\n");
    ck_assert_uint_eq(gs_mem_cgroup_limit(self, root), 1000000000);
    unlink(self);
    ck_assert_uint_eq(gs_mem_cgroup_limit(self, root), 1000000000);

    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", root);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(search_draws_from_process_budget)
{
    uint64_t base = gs_mem_used();
    gs_search *s;
    int rc = 1;
    uint64_t k;

    gs_mem_set_budget(base + (2u << 20));
    gs_search_config cfg = {.key_size = 8};
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    for (k = 0; k < 1000000 && rc == 1; k++)
        rc = gs_search_add(s, &k, GS_NO_PARENT, 0, NULL);
    ck_assert_int_eq(rc, GS_ELIMIT);
    ck_assert_int_eq(gs_search_limit(s), GS_LIMIT_MEMORY);
    ck_assert_uint_le(gs_mem_used(), base + (2u << 20));
    gs_search_free(s);
    ck_assert_uint_eq(gs_mem_used(), base);

    /* No room for even the first index: the search is made, its first
     * add reports the limit. */
    gs_mem_set_budget(base + 1);
    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    k = 0;
    ck_assert_int_eq(gs_search_add(s, &k, GS_NO_PARENT, 0, NULL), GS_ELIMIT);
    ck_assert_int_eq(gs_search_limit(s), GS_LIMIT_MEMORY);
    uint64_t id;
    ck_assert_int_eq(gs_search_pop(s, &id), GS_ELIMIT);
    gs_result res;
    gs_result_clear(&res);
    ck_assert_int_eq(gs_search_finish(s, GS_ELIMIT, false, 0, NULL, true, &res),
                     GS_OK);
    ck_assert_int_eq(res.status, GS_LIMIT);
    ck_assert_str_eq(gs_limit_name(res.limit), "memory");
    gs_search_free(s);
    gs_mem_set_budget(0);
    ck_assert_uint_eq(gs_mem_used(), base);
}
END_TEST

/* Progress counters follow a running search without a deadline. */
START_TEST(search_reports_progress)
{
    gs_progress prog = {0};
    gs_limits lim = {.progress = &prog};
    gs_search_config cfg = {
        .key_size = 8, .queue = GS_QUEUE_PRIORITY, .limits = &lim};
    gs_search *s;
    uint64_t id;

    ck_assert_int_eq(gs_search_new(&cfg, &s), GS_OK);
    for (uint64_t k = 0; k < 20000; k++)
        ck_assert_int_eq(
            gs_search_add_prio(s, &k, GS_NO_PARENT, 0, k, k / 100, NULL), 1);
    for (int i = 0; i < 10000; i++)
        ck_assert_int_eq(gs_search_pop(s, &id), 1);
    uint64_t e = atomic_load(&prog.expanded);
    ck_assert_uint_gt(e, 0);
    ck_assert_uint_le(e, 10000);
    ck_assert_uint_eq(atomic_load(&prog.stored), 20000);
    ck_assert_uint_le(atomic_load(&prog.bound), 100);
    gs_search_free(s);

    /* A priority that packs a tie-break reports its bound without it. */
    gs_search_config scfg = cfg;
    scfg.bound_shift = 16;
    atomic_store(&prog.bound, UINT64_MAX);
    ck_assert_int_eq(gs_search_new(&scfg, &s), GS_OK);
    for (uint64_t k = 0; k < 2000; k++)
        ck_assert_int_eq(gs_search_add_prio(s, &k, GS_NO_PARENT, 0, k,
                                            (k / 10) << 16 | 0xffff, NULL),
                         1);
    for (int i = 0; i < 2000; i++)
        ck_assert_int_eq(gs_search_pop(s, &id), 1);
    ck_assert_uint_le(atomic_load(&prog.bound), 199); /* and was written */
    gs_search_free(s);

    gs_progress_report(&lim, 7, 8, 9);
    ck_assert_uint_eq(atomic_load(&prog.expanded), 7);
    ck_assert_uint_eq(atomic_load(&prog.stored), 8);
    ck_assert_uint_eq(atomic_load(&prog.bound), 9);
    gs_progress_report(NULL, 1, 1, 1); /* no limits: nothing to do */
    gs_progress_report_bytes(&lim, 4096);
    ck_assert_uint_eq(atomic_load(&prog.bytes), 4096);
    gs_progress_report_bytes(NULL, 1); /* no limits: nothing to do */
}
END_TEST

/* --max-memory is the whole process: requests get it less the resident
 * size and a slack of 1/32 between 1 and 64 MiB. */
START_TEST(process_budget_keeps_overhead_back)
{
    const uint64_t mib = 1u << 20, gib = 1024 * mib;

    ck_assert_uint_eq(gs_mem_process_budget(0), 0);    /* none stays none */
    ck_assert_uint_eq(gs_mem_process_budget(4096), 1); /* below our size */
    /* This test process is resident for a few MiB at least. */
    uint64_t b = gs_mem_process_budget(gib);
    ck_assert_uint_lt(b, gib - gib / 32);
    ck_assert_uint_gt(b, gib - gib / 32 - 512 * mib);
    uint64_t big = gs_mem_process_budget(256 * gib);
    ck_assert_uint_lt(big, 256 * gib - GS_MEM_SLACK_MAX);
    ck_assert_uint_gt(big, 256 * gib - GS_MEM_SLACK_MAX - 512 * mib);
    uint64_t small = gs_mem_process_budget(512 * mib);
    ck_assert_uint_lt(small, 512 * mib - 16 * mib);
}
END_TEST

/* Resident bytes of this process (/proc/self/statm), 0 when unknown. */
static uint64_t resident_bytes(void)
{
    FILE *f = fopen("/proc/self/statm", "r");
    unsigned long long size = 0, res = 0;
    int got = f ? fscanf(f, "%llu %llu", &size, &res) : 0;
    if (f)
        fclose(f);
    return got == 2 ? res * (uint64_t)sysconf(_SC_PAGESIZE) : 0;
}

/* With the threshold fixed, a block of a few MB freed after a larger one
 * leaves the process; glibc alone would have raised its threshold to the
 * larger one's size, served the block from the heap and kept it. */
START_TEST(freed_large_blocks_leave)
{
    /* (The sanitizers' allocators keep freed blocks in quarantine.) */
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) &&                    \
    !defined(__SANITIZE_THREAD__)
    gs_mem_fix_map_threshold();
    size_t big = (size_t)16 << 20, mid = (size_t)6 << 20;
    unsigned char *a = gs_mem_malloc(big);
    ck_assert_ptr_nonnull(a);
    memset(a, 1, big);
    gs_mem_free(a);
    uint64_t before = resident_bytes();
    unsigned char *b = gs_mem_malloc(mid);
    ck_assert_ptr_nonnull(b);
    memset(b, 1, mid);
    gs_mem_free(b);
    uint64_t after = resident_bytes();
    ck_assert_uint_gt(before, 0);
    ck_assert_uint_lt(after, before + ((uint64_t)1 << 20));
#endif
}
END_TEST

Suite *gs_test_mem_suite(void)
{
    Suite *s = suite_create("mem");
    TCase *tc = tcase_create("mem");
    tcase_add_test(tc, reserve_respects_budget);
    tcase_add_test(tc, deferred_default_budget);
    tcase_add_test(tc, accounting_allocator);
    tcase_add_test(tc, scope_credit_stays_within_budget);
    tcase_add_test(tc, arena_holds_small_trees);
    tcase_add_test(tc, system_limit_is_sane);
    tcase_add_test(tc, cgroup_memory_limit_walks_ancestors);
    tcase_add_test(tc, search_draws_from_process_budget);
    tcase_add_test(tc, search_reports_progress);
    tcase_add_test(tc, process_budget_keeps_overhead_back);
    tcase_add_test(tc, freed_large_blocks_leave);
    suite_add_tcase(s, tc);
    return s;
}
