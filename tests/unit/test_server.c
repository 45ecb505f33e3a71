/* test_server.c - unit tests for the server's building blocks: option
 * parsing (flags, GRIDSOLVE_* variables, ranges), cgroup CPU quotas, the
 * bounded worker pool, the batched log writer and the Prometheus
 * rendering. The HTTP behaviour
 * itself is covered black-box by tests/integration. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "gridsolve/config.h"
#include "gridsolve/conns.h"
#include "gridsolve/gate.h"
#include "gridsolve/logq.h"
#include "gridsolve/stream.h"
#include "gridsolve/mem.h"
#include "gridsolve/metrics.h"
#include "gridsolve/mhd.h"
#include "gridsolve/pool.h"
#include "gridsolve/puzzle.h"
#include "suites.h"

/* ---- config ------------------------------------------------------------- */

/* A fake environment: NULL-terminated "NAME=value" strings. */
static const char *const *fake_env;

static const char *fake_getenv(const char *name)
{
    size_t n = strlen(name);
    for (const char *const *e = fake_env; e && *e; e++)
        if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
            return *e + n + 1;
    return NULL;
}

/* Parses argv (after "serve") under env; returns the result code. */
static int parse(gs_server_config *c, const char *const *env,
                 const char *const *args, char *msg, size_t len)
{
    char *argv[32] = {"serve"};
    int argc = 1;
    for (; args && args[argc - 1]; argc++)
        argv[argc] = (char *)args[argc - 1];
    fake_env = env;
    gs_config_default(c);
    return gs_config_parse(c, argc, argv, fake_getenv, msg, len);
}

START_TEST(config_defaults)
{
    gs_server_config c;
    char msg[256];
    ck_assert_int_eq(parse(&c, NULL, NULL, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_str_eq(c.bind, "127.0.0.1");
    ck_assert_str_eq(c.cors_origin, "*");
    ck_assert_uint_eq(c.port, 8080);
    ck_assert_uint_eq(c.max_body, 4u * 1024 * 1024);
    ck_assert_uint_ge(c.workers, 1);
    ck_assert_uint_eq(c.workers, gs_config_cpu_count());
    ck_assert_uint_le(c.timeout_ms, c.max_timeout_ms);
    ck_assert_uint_le(c.max_states, c.max_states_limit);
    ck_assert_uint_eq(c.max_solve_memory, 2048ull << 20);
}
END_TEST

START_TEST(config_env_and_flags)
{
    gs_server_config c;
    char msg[256];
    const char *env[] = {"GRIDSOLVE_PORT=9000", "GRIDSOLVE_WORKERS=3",
                         "GRIDSOLVE_BIND=0.0.0.0",
                         "GRIDSOLVE_CORS_ORIGIN=https://x.example", NULL};
    const char *args[] = {"--port", "0", "--queue=7", "--max-body", "2K", NULL};
    ck_assert_int_eq(parse(&c, env, args, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_uint_eq(c.port, 0);    /* the flag wins */
    ck_assert_uint_eq(c.workers, 3); /* the variable applies */
    ck_assert_uint_eq(c.queue, 7);
    ck_assert_uint_eq(c.max_body, 2048);
    ck_assert_str_eq(c.bind, "0.0.0.0");
    ck_assert_str_eq(c.cors_origin, "https://x.example");
    /* A flag wins over a variable it overrides even when that one is
     * bad: the variable is not read. */
    const char *bad[] = {"GRIDSOLVE_PORT=abc", NULL};
    const char *fix[] = {"--port", "0", NULL};
    ck_assert_int_eq(parse(&c, bad, fix, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_uint_eq(c.port, 0);
    ck_assert_int_eq(parse(&c, bad, NULL, msg, sizeof msg), GS_CONFIG_ERROR);
}
END_TEST

START_TEST(config_byte_suffixes)
{
    gs_server_config c;
    char msg[256];
    const char *a1[] = {"--max-body", "4MiB", NULL};
    const char *a2[] = {"--max-body", "1g", NULL};
    const char *a3[] = {"--max-body", "3MB", NULL};
    ck_assert_int_eq(parse(&c, NULL, a1, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_uint_eq(c.max_body, 4u << 20);
    ck_assert_int_eq(parse(&c, NULL, a2, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_uint_eq(c.max_body, 1u << 30);
    ck_assert_int_eq(parse(&c, NULL, a3, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_uint_eq(c.max_body, 3u << 20);
    const char *env[] = {"GRIDSOLVE_MAX_SOLVE_MEMORY=768M", NULL};
    ck_assert_int_eq(parse(&c, env, NULL, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_uint_eq(c.max_solve_memory, 768u << 20);
}
END_TEST

/* Each bad input is refused with a message naming its source. */
START_TEST(config_errors)
{
    static const struct {
        const char *env;
        const char *args[4];
        const char *want;
    } cases[] = {
        {NULL, {"--port", "70000"}, "--port: 70000 is out of range 0..65535"},
        {NULL, {"--workers", "0"}, "--workers: 0 is out of range"},
        {NULL, {"--workers", "-2"}, "--workers: '-2' is not"},
        {NULL, {"--queue", "12x"}, "--queue: '12x' is not"},
        {NULL, {"--max-body", "5T"}, "--max-body: '5T' is not a byte count"},
        {NULL, {"--port"}, "--port needs a value"},
        {NULL, {"--nope", "1"}, "unknown option '--nope'"},
        {NULL, {"stray"}, "unexpected argument 'stray'"},
        {NULL, {"--cors-origin", "a\nb"}, "printable ASCII"},
        {"GRIDSOLVE_GRACE_MS=soon", {NULL}, "GRIDSOLVE_GRACE_MS: 'soon'"},
        {NULL,
         {"--timeout-ms", "500", "--max-timeout-ms", "100"},
         "--timeout-ms 500 exceeds --max-timeout-ms 100"},
        /* A default set above a ceiling left at its own default. */
        {NULL,
         {"--timeout-ms", "70000"},
         "--timeout-ms 70000 exceeds --max-timeout-ms (its default) 60000"},
        {NULL,
         {"--max-states", "200000000"},
         "--max-states 200000000 exceeds --max-states-limit (its default)"},
        {"GRIDSOLVE_TIMEOUT_MS=70000",
         {"--max-timeout-ms", "60000"},
         "GRIDSOLVE_TIMEOUT_MS 70000 exceeds --max-timeout-ms 60000"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        gs_server_config c;
        char msg[256];
        const char *env[] = {cases[i].env, NULL};
        const char *args[5] = {cases[i].args[0], cases[i].args[1],
                               cases[i].args[2], cases[i].args[3], NULL};
        ck_assert_int_eq(parse(&c, env, args, msg, sizeof msg),
                         GS_CONFIG_ERROR);
        ck_assert_msg(strstr(msg, cases[i].want), "case %zu: '%s' lacks '%s'",
                      i, msg, cases[i].want);
    }
}
END_TEST

/* Setting only a ceiling pulls the default down instead of failing. */
START_TEST(config_ceiling_only)
{
    gs_server_config c;
    char msg[256];
    const char *args[] = {"--max-timeout-ms", "300", "--max-states-limit", "5",
                          NULL};
    ck_assert_int_eq(parse(&c, NULL, args, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_uint_eq(c.timeout_ms, 300);
    ck_assert_uint_eq(c.max_states, 5);
}
END_TEST

START_TEST(config_help)
{
    gs_server_config c;
    char msg[256];
    const char *env[] = {"GRIDSOLVE_PORT=bad", NULL};
    const char *args[] = {"--port", "1", "--help", NULL};
    ck_assert_int_eq(parse(&c, env, args, msg, sizeof msg), GS_CONFIG_HELP);
}
END_TEST

START_TEST(config_cgroup_quotas)
{
    ck_assert_uint_eq(gs_config_cpu_max_quota("max 100000\n"), 0);
    ck_assert_uint_eq(gs_config_cpu_max_quota("200000 100000\n"), 2);
    ck_assert_uint_eq(gs_config_cpu_max_quota("150000 100000"), 2);
    ck_assert_uint_eq(gs_config_cpu_max_quota("50000 100000"), 1);
    ck_assert_uint_eq(gs_config_cpu_max_quota("garbage"), 0);
    ck_assert_uint_eq(gs_config_cpu_max_quota(NULL), 0);
    ck_assert_uint_eq(gs_config_cfs_quota("-1\n", "100000\n"), 0);
    ck_assert_uint_eq(gs_config_cfs_quota("400000", "100000"), 4);
    ck_assert_uint_eq(gs_config_cfs_quota("250000", "100000"), 3);
    ck_assert_uint_eq(gs_config_cfs_quota("x", "100000"), 0);
    ck_assert_uint_ge(gs_config_cpu_count(), 1);
}
END_TEST

/* ---- pool --------------------------------------------------------------- */

/* Jobs that block until the gate opens, so a test controls occupancy. */
typedef struct gate {
    pthread_mutex_t lock;
    pthread_cond_t cond;
    bool open;
    atomic_int started, done;
} gate;

static void gate_job(void *arg)
{
    gate *g = arg;
    atomic_fetch_add(&g->started, 1);
    pthread_mutex_lock(&g->lock);
    while (!g->open)
        pthread_cond_wait(&g->cond, &g->lock);
    pthread_mutex_unlock(&g->lock);
    atomic_fetch_add(&g->done, 1);
}

static void gate_open(gate *g)
{
    pthread_mutex_lock(&g->lock);
    g->open = true;
    pthread_cond_broadcast(&g->cond);
    pthread_mutex_unlock(&g->lock);
}

static void wait_started(gate *g, int n)
{
    struct timespec ts = {0, 1000000};
    for (int i = 0; i < 5000 && atomic_load(&g->started) < n; i++)
        nanosleep(&ts, NULL);
    ck_assert_int_eq(atomic_load(&g->started), n);
}

static gate *gate_new(void)
{
    gate *g = calloc(1, sizeof *g);
    ck_assert_ptr_nonnull(g);
    pthread_mutex_init(&g->lock, NULL);
    pthread_cond_init(&g->cond, NULL);
    return g;
}

static void gate_free(gate *g)
{
    pthread_cond_destroy(&g->cond);
    pthread_mutex_destroy(&g->lock);
    free(g);
}

START_TEST(pool_admission)
{
    gs_pool *p;
    gate *g = gate_new();

    ck_assert_int_eq(gs_pool_new(2, 1, &p), GS_OK);
    ck_assert_uint_eq(gs_pool_workers(p), 2);
    ck_assert_uint_eq(gs_pool_capacity(p), 1);
    /* Two run, one waits, the fourth is refused. */
    ck_assert_int_eq(gs_pool_submit(p, gate_job, g), GS_OK);
    ck_assert_int_eq(gs_pool_submit(p, gate_job, g), GS_OK);
    wait_started(g, 2);
    ck_assert_int_eq(gs_pool_submit(p, gate_job, g), GS_OK);
    ck_assert_int_eq(gs_pool_submit(p, gate_job, g), GS_POOL_EFULL);
    ck_assert_uint_eq(gs_pool_busy(p), 2);
    ck_assert_uint_eq(gs_pool_queued(p), 1);
    /* Not idle while the gate is shut: the deadline ends the wait. */
    ck_assert(!gs_pool_wait_idle(p, gs_now_ns() + 20 * 1000000LL));
    gs_pool_close(p);
    ck_assert_int_eq(gs_pool_submit(p, gate_job, g), GS_POOL_ECLOSED);
    gate_open(g);
    /* Closing refuses new jobs but still runs the queued one. */
    ck_assert(gs_pool_wait_idle(p, 0));
    ck_assert_int_eq(atomic_load(&g->done), 3);
    ck_assert_uint_eq(gs_pool_busy(p), 0);
    gs_pool_free(p);
    gate_free(g);
}
END_TEST

/* With a zero-length queue a job is taken only by an idle worker. */
START_TEST(pool_zero_queue)
{
    gs_pool *p;
    gate *g = gate_new();

    ck_assert_int_eq(gs_pool_new(1, 0, &p), GS_OK);
    ck_assert_int_eq(gs_pool_submit(p, gate_job, g), GS_OK);
    wait_started(g, 1);
    ck_assert_int_eq(gs_pool_submit(p, gate_job, g), GS_POOL_EFULL);
    gate_open(g);
    ck_assert(gs_pool_wait_idle(p, 0));
    ck_assert_int_eq(gs_pool_submit(p, gate_job, g), GS_OK);
    gs_pool_free(p); /* runs or finishes what was accepted */
    ck_assert_int_eq(atomic_load(&g->done), 2);
    gate_free(g);
}
END_TEST

static void count_job(void *arg)
{
    atomic_fetch_add((atomic_int *)arg, 1);
}

START_TEST(pool_runs_everything)
{
    gs_pool *p;
    atomic_int n = 0;
    int accepted = 0;

    ck_assert_int_eq(gs_pool_new(4, 64, &p), GS_OK);
    for (int i = 0; i < 1000; i++) {
        int rc = gs_pool_submit(p, count_job, &n);
        ck_assert(rc == GS_OK || rc == GS_POOL_EFULL);
        if (rc == GS_OK)
            accepted++;
        else
            gs_pool_wait_idle(p, 0);
    }
    gs_pool_free(p);
    ck_assert_int_eq(atomic_load(&n), accepted);
    ck_assert_int_ge(accepted, 64);
}
END_TEST

/* --max-memory: a share of the machine by default, any byte count (0 =
 * none) from a flag or variable; --max-solve-memory is clamped to it with
 * a notice. */
START_TEST(config_max_memory)
{
    gs_server_config c;
    char msg[256];

    ck_assert_int_eq(parse(&c, NULL, NULL, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_uint_eq(c.max_memory,
                      gs_mem_default_budget(GS_CONFIG_MEMORY_PERCENT));
    ck_assert_uint_gt(c.max_memory, 0);

    const char *const env[] = {"GRIDSOLVE_MAX_MEMORY=3G", NULL};
    const char *const flag[] = {"--max-memory", "64M", NULL};
    ck_assert_int_eq(parse(&c, env, NULL, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_uint_eq(c.max_memory, 3ull << 30);
    ck_assert_int_eq(parse(&c, env, flag, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_uint_eq(c.max_memory, 64ull << 20);
    /* The 2G per-solve default does not fit 64M: clamped, with a notice. */
    ck_assert_uint_eq(c.max_solve_memory, 64ull << 20);
    ck_assert_msg(strstr(msg, "clamped"), "%s", msg);

    const char *const fits[] = {"--max-memory", "8G", "--max-solve-memory",
                                "1G", NULL};
    ck_assert_int_eq(parse(&c, NULL, fits, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_uint_eq(c.max_solve_memory, 1ull << 30);
    ck_assert_str_eq(msg, "");

    const char *const none[] = {"--max-memory=0", NULL};
    ck_assert_int_eq(parse(&c, NULL, none, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_uint_eq(c.max_memory, 0);
    ck_assert_uint_eq(c.max_solve_memory, 2ull << 30);

    const char *const bad[] = {"--max-memory", "lots", NULL};
    ck_assert_int_eq(parse(&c, NULL, bad, msg, sizeof msg), GS_CONFIG_ERROR);
    ck_assert_msg(strstr(msg, "--max-memory"), "%s", msg);

    uint64_t v;
    ck_assert(gs_config_parse_bytes("4MiB", &v) && v == 4ull << 20);
    ck_assert(!gs_config_parse_bytes("-1", &v));
}
END_TEST

/* ---- pool lanes ---------------------------------------------------------- */

/* A lane job that logs where it ran. On the fast lane it may first wait
 * on a gate, and returns `fast_ret`; elsewhere it returns DONE. */
typedef struct lane_job {
    gate *g;         /* NULL: do not wait */
    int fast_ret;    /* GS_POOL_DONE or GS_POOL_AGAIN */
    int log[4];      /* lanes in call order */
    atomic_int n;    /* calls so far */
    atomic_int done; /* 1 once a call returned DONE */
} lane_job;

static enum gs_pool_ret lane_fn(void *arg, enum gs_pool_lane lane)
{
    lane_job *j = arg;
    int i = atomic_load(&j->n);
    if (i < 4)
        j->log[i] = (int)lane;
    atomic_store(&j->n, i + 1);
    if (lane == GS_POOL_LANE_FAST && j->g)
        gate_job(j->g);
    if (lane == GS_POOL_LANE_FAST && j->fast_ret == GS_POOL_AGAIN)
        return GS_POOL_AGAIN;
    atomic_store(&j->done, 1);
    return GS_POOL_DONE;
}

static void wait_done(lane_job *j)
{
    struct timespec ts = {0, 1000000};
    for (int i = 0; i < 5000 && !atomic_load(&j->done); i++)
        nanosleep(&ts, NULL);
    ck_assert_int_eq(atomic_load(&j->done), 1);
}

/* Every main worker busy: a lane job still runs, on the fast lane. */
START_TEST(pool_fast_lane_serves_while_main_busy)
{
    gs_pool *p;
    gate *g = gate_new();
    lane_job j = {.fast_ret = GS_POOL_DONE};

    ck_assert_int_eq(gs_pool_new_lanes(1, 0, 1, 0, &p), GS_OK);
    ck_assert_int_eq(gs_pool_submit(p, gate_job, g), GS_OK);
    wait_started(g, 1);
    ck_assert_int_eq(gs_pool_submit(p, gate_job, g), GS_POOL_EFULL);
    ck_assert_int_eq(gs_pool_submit_lane(p, lane_fn, &j), GS_OK);
    wait_done(&j);
    ck_assert_int_eq(atomic_load(&j.n), 1);
    ck_assert_int_eq(j.log[0], GS_POOL_LANE_FAST);
    ck_assert_uint_eq(gs_pool_busy(p), 1); /* the slow job still runs */
    ck_assert_uint_eq(gs_pool_requeued(p), 0);
    gate_open(g);
    gs_pool_free(p);
    gate_free(g);
}
END_TEST

/* A fast attempt that runs out is run again on the main lane, or, with
 * the main lane full, told so (FULL) to answer 503. */
START_TEST(pool_fast_lane_requeue)
{
    gs_pool *p;
    gate *g = gate_new();
    lane_job a = {.fast_ret = GS_POOL_AGAIN};
    lane_job b = {.fast_ret = GS_POOL_AGAIN};

    ck_assert_int_eq(gs_pool_new_lanes(1, 0, 1, 0, &p), GS_OK);
    ck_assert_int_eq(gs_pool_submit_lane(p, lane_fn, &a), GS_OK);
    wait_done(&a);
    ck_assert_int_eq(atomic_load(&a.n), 2);
    ck_assert_int_eq(a.log[0], GS_POOL_LANE_FAST);
    ck_assert_int_eq(a.log[1], GS_POOL_LANE_MAIN);
    ck_assert(gs_pool_wait_idle(p, 0));
    ck_assert_uint_eq(gs_pool_requeued(p), 1);

    ck_assert_int_eq(gs_pool_submit(p, gate_job, g), GS_OK);
    wait_started(g, 1);
    ck_assert_int_eq(gs_pool_submit_lane(p, lane_fn, &b), GS_OK);
    wait_done(&b);
    ck_assert_int_eq(atomic_load(&b.n), 2);
    ck_assert_int_eq(b.log[0], GS_POOL_LANE_FAST);
    ck_assert_int_eq(b.log[1], GS_POOL_LANE_FULL);
    ck_assert_uint_eq(gs_pool_requeued(p), 1);
    gate_open(g);
    gs_pool_free(p);
    gate_free(g);
}
END_TEST

/* Admission over both lanes: fast worker and slot, then main worker and
 * slot, then 503; closed, nothing more, but what was accepted runs. */
START_TEST(pool_lane_admission)
{
    gs_pool *p;
    gate *g = gate_new();
    lane_job j[5];

    memset(j, 0, sizeof j);
    for (int i = 0; i < 5; i++) {
        j[i].g = g;
        j[i].fast_ret = GS_POOL_DONE;
    }
    ck_assert_int_eq(gs_pool_new_lanes(1, 1, 1, 1, &p), GS_OK);
    ck_assert_int_eq(gs_pool_submit_lane(p, lane_fn, &j[0]), GS_OK);
    wait_started(g, 1); /* the fast worker holds j[0] */
    ck_assert_int_eq(gs_pool_submit_lane(p, lane_fn, &j[1]), GS_OK);
    ck_assert_uint_eq(gs_pool_fast_pending(p), 2);
    /* The fast lane is full: j[2] runs on the main worker, j[3] waits. */
    ck_assert_int_eq(gs_pool_submit_lane(p, lane_fn, &j[2]), GS_OK);
    wait_done(&j[2]);
    ck_assert_int_eq(j[2].log[0], GS_POOL_LANE_MAIN);
    ck_assert_int_eq(gs_pool_submit(p, gate_job, g), GS_OK);
    wait_started(g, 2);
    ck_assert_int_eq(gs_pool_submit_lane(p, lane_fn, &j[3]), GS_OK);
    ck_assert_uint_eq(gs_pool_queued(p), 1);
    ck_assert_int_eq(gs_pool_submit_lane(p, lane_fn, &j[4]), GS_POOL_EFULL);
    gs_pool_close(p);
    ck_assert_int_eq(gs_pool_submit_lane(p, lane_fn, &j[4]), GS_POOL_ECLOSED);
    gate_open(g);
    ck_assert(gs_pool_wait_idle(p, 0));
    for (int i = 0; i < 4; i++)
        ck_assert_int_eq(atomic_load(&j[i].done), 1);
    ck_assert_int_eq(atomic_load(&j[4].n), 0);
    ck_assert_int_eq(j[1].log[0], GS_POOL_LANE_FAST);
    ck_assert_int_eq(j[3].log[0], GS_POOL_LANE_MAIN);
    gs_pool_free(p);
    gate_free(g);
}
END_TEST

/* An attempt accepted before close may still move to the main lane, and
 * gs_pool_free waits for it there. Without a fast lane, lane jobs go
 * straight to the main one. */
START_TEST(pool_lane_close_and_none)
{
    gs_pool *p;
    gate *g = gate_new();
    lane_job a = {.g = g, .fast_ret = GS_POOL_AGAIN};
    lane_job b = {.fast_ret = GS_POOL_AGAIN};

    ck_assert_int_eq(gs_pool_new_lanes(1, 0, 1, 0, &p), GS_OK);
    ck_assert_int_eq(gs_pool_submit_lane(p, lane_fn, &a), GS_OK);
    wait_started(g, 1);
    gs_pool_close(p);
    gate_open(g);
    gs_pool_free(p);
    ck_assert_int_eq(atomic_load(&a.n), 2);
    ck_assert_int_eq(a.log[1], GS_POOL_LANE_MAIN);
    ck_assert_int_eq(atomic_load(&a.done), 1);

    ck_assert_int_eq(gs_pool_new_lanes(1, 0, 0, 0, &p), GS_OK);
    ck_assert_int_eq(gs_pool_submit_lane(p, lane_fn, &b), GS_OK);
    wait_done(&b);
    ck_assert_int_eq(atomic_load(&b.n), 1);
    ck_assert_int_eq(b.log[0], GS_POOL_LANE_MAIN);
    gs_pool_free(p);
    gate_free(g);
}
END_TEST

/* ---- metrics ------------------------------------------------------------ */

START_TEST(metrics_render)
{
    gs_metrics *m;
    gs_buf b = GS_BUF_INIT;
    gs_solve_info solved = {
        .status = GS_SOLVED, .expanded = 100, .elapsed_ms = 1.0};
    gs_solve_info limit = {
        .status = GS_LIMIT, .expanded = 50, .elapsed_ms = 2.0};
    gs_metrics_gauges g = {.queued = 3,
                           .capacity = 64,
                           .busy = 2,
                           .workers = 4,
                           .ready = true,
                           .fast_pending = 1,
                           .requeued = 7,
                           .connections = 7,
                           .max_connections = 100};

    ck_assert_int_eq(gs_metrics_new(&m), GS_OK);
    gs_metrics_request(m, GS_ROUTE_SOLVE, 0, 200);
    gs_metrics_request(m, GS_ROUTE_SOLVE, 0, 200);
    gs_metrics_request(m, GS_ROUTE_HEALTHZ, -1, 200);
    gs_metrics_request(m, GS_ROUTE_OTHER, -1, 404);
    gs_metrics_request(m, GS_ROUTE_SOLVE, 0, 999); /* ignored */
    gs_metrics_solve(m, 0, true, &solved, 0.003);
    gs_metrics_solve(m, 0, true, &limit, 7.0);
    gs_metrics_solve(m, 0, false, NULL, 0.0001);
    gs_metrics_abandoned(m, 0);
    gs_metrics_conn_killed(m, false);
    gs_metrics_conn_limit(m, false);
    gs_metrics_conn_limit(m, true);
    ck_assert_int_eq(gs_metrics_render(m, &g, &b), GS_OK);

    char want[256];
    const char *name = gs_puzzles[0]->name;
    snprintf(want, sizeof want,
             "gridsolve_http_requests_total{route=\"/solve/{puzzle}\","
             "puzzle=\"%s\",code=\"200\"} 2\n",
             name);
    ck_assert_ptr_nonnull(strstr(b.data, want));
    ck_assert_ptr_nonnull(
        strstr(b.data, "gridsolve_http_requests_total{route=\"/healthz\","
                       "code=\"200\"} 1\n"));
    ck_assert_ptr_nonnull(
        strstr(b.data, "gridsolve_http_requests_total{route=\"other\","
                       "code=\"404\"} 1\n"));
    ck_assert_ptr_null(strstr(b.data, "code=\"999\""));
    snprintf(want, sizeof want,
             "gridsolve_solves_total{puzzle=\"%s\",result=\"limit\"} 1\n",
             name);
    ck_assert_ptr_nonnull(strstr(b.data, want));
    snprintf(want, sizeof want,
             "gridsolve_solves_total{puzzle=\"%s\",result=\"error\"} 1\n",
             name);
    ck_assert_ptr_nonnull(strstr(b.data, want));
    snprintf(want, sizeof want,
             "gridsolve_solves_total{puzzle=\"%s\",result=\"abandoned\"} 1\n",
             name);
    ck_assert_ptr_nonnull(strstr(b.data, want));
    ck_assert_ptr_nonnull(
        strstr(b.data, "gridsolve_connections_closed_total{reason=\"header_"
                       "timeout\"} 1\n"));
    ck_assert_ptr_nonnull(
        strstr(b.data, "gridsolve_connections_rejected_total 1\n"));
    ck_assert_ptr_nonnull(
        strstr(b.data, "gridsolve_connection_limit_reached_total 1\n"));
    ck_assert_ptr_nonnull(strstr(b.data, "gridsolve_connections 7\n"));
    /* Cumulative buckets: 0.0001 and 0.003 fall under le=0.005. */
    snprintf(want, sizeof want,
             "gridsolve_solve_duration_seconds_bucket{puzzle=\"%s\","
             "le=\"0.005\"} 2\n",
             name);
    ck_assert_ptr_nonnull(strstr(b.data, want));
    snprintf(want, sizeof want,
             "gridsolve_solve_duration_seconds_bucket{puzzle=\"%s\","
             "le=\"+Inf\"} 3\n",
             name);
    ck_assert_ptr_nonnull(strstr(b.data, want));
    snprintf(want, sizeof want,
             "gridsolve_states_expanded_total{puzzle=\"%s\"} 150\n", name);
    ck_assert_ptr_nonnull(strstr(b.data, want));
    ck_assert_ptr_nonnull(strstr(b.data, "\ngridsolve_queue_depth 3\n"));
    ck_assert_ptr_nonnull(strstr(b.data, "\ngridsolve_workers_busy 2\n"));
    ck_assert_ptr_nonnull(strstr(b.data, "\ngridsolve_fast_lane_pending 1\n"));
    ck_assert_ptr_nonnull(
        strstr(b.data, "\ngridsolve_fast_lane_requeued_total 7\n"));
    ck_assert_ptr_nonnull(strstr(b.data, "# TYPE gridsolve_solve_duration_"
                                         "seconds histogram\n"));
    gs_buf_free(&b);

    /* The memory budget's gauges and refusals come from mem.h. */
    gs_mem_set_budget(gs_mem_used() + 100);
    ck_assert(!gs_mem_reserve(1000));
    ck_assert_int_eq(gs_metrics_render(m, &g, &b), GS_OK);
    snprintf(want, sizeof want,
             "\ngridsolve_memory_bytes{kind=\"budget\"} %llu\n",
             (unsigned long long)gs_mem_budget());
    ck_assert_ptr_nonnull(strstr(b.data, want));
    ck_assert_ptr_nonnull(
        strstr(b.data, "gridsolve_memory_bytes{kind=\"used\"} "));
    ck_assert_ptr_nonnull(
        strstr(b.data, "gridsolve_memory_bytes{kind=\"peak\"} "));
    snprintf(want, sizeof want, "\ngridsolve_memory_refusals_total %llu\n",
             (unsigned long long)gs_mem_refused());
    ck_assert_ptr_nonnull(strstr(b.data, want));
    gs_mem_set_budget(0);
    gs_buf_free(&b);
    gs_metrics_free(m);
}
END_TEST

/* The connection flags: defaults, variables, flags, ranges. */
START_TEST(config_connection_flags)
{
    gs_server_config c;
    char msg[256];
    ck_assert_int_eq(parse(&c, NULL, NULL, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_uint_eq(c.header_timeout_ms, 10000);
    ck_assert_uint_eq(c.min_body_rate, 1024);
    ck_assert_uint_eq(c.max_connections, 0);
    ck_assert_uint_eq(c.max_connections_per_ip, 0);
    const char *env[] = {"GRIDSOLVE_HEADER_TIMEOUT_MS=500",
                         "GRIDSOLVE_MAX_CONNECTIONS_PER_IP=8", NULL};
    const char *args[] = {"--min-body-rate", "2K", "--max-connections=300",
                          NULL};
    ck_assert_int_eq(parse(&c, env, args, msg, sizeof msg), GS_CONFIG_OK);
    ck_assert_uint_eq(c.header_timeout_ms, 500);
    ck_assert_uint_eq(c.min_body_rate, 2048);
    ck_assert_uint_eq(c.max_connections, 300);
    ck_assert_uint_eq(c.max_connections_per_ip, 8);
    const char *bad[] = {"--header-timeout-ms", "-1", NULL};
    ck_assert_int_eq(parse(&c, NULL, bad, msg, sizeof msg), GS_CONFIG_ERROR);
}
END_TEST

/* Heads the gate must answer itself (libmicrohttpd would write its own
 * answer's header block twice) and heads it passes on. */
START_TEST(gate_content_length)
{
    static const struct {
        const char *head;
        bool ok;
    } cases[] = {
        {"POST / HTTP/1.1\r\nContent-Length: 12\r\n", true},
        {"POST / HTTP/1.1\r\ncontent-length:7\r\n", true},
        {"POST / HTTP/1.1\r\nContent-Length:  0 \r\n", true},
        {"GET / HTTP/1.1\r\nHost: x\r\n", true},
        {"POST / HTTP/1.1\r\nX-Content-Length: abc\r\n", true},
        {"POST / HTTP/1.1\r\nContent-Length: -1\r\n", false},
        {"POST / HTTP/1.1\r\nContent-Length: abc\r\n", false},
        {"POST / HTTP/1.1\r\nContent-Length: 5, 5\r\n", false},
        {"POST / HTTP/1.1\r\nContent-Length: \r\n", false},
        {"POST / HTTP/1.1\r\nContent-Length: 18446744073709551616\r\n", false},
        {"POST / HTTP/1.1\nHost: x\nContent-Length: 1x\n", false},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        int status;
        const char *why = gs_gate_check_head(cases[i].head,
                                             strlen(cases[i].head), 0, &status);
        ck_assert_int_eq(status, 400);
        ck_assert_msg((why == NULL) == cases[i].ok, "case %zu: %s", i,
                      why ? why : "accepted");
    }
    /* A head that would leave MHD too little room for the answer's
     * headers: its bytes plus 64 a line, against the room. */
    int status;
    const char *three = "GET / HTTP/1.1\r\nHost: x\r\nA: b\r\n";
    size_t n3 = strlen(three);
    ck_assert_ptr_null(gs_gate_check_head(three, n3, n3 + 3 * 64, &status));
    ck_assert_str_eq(gs_gate_check_head(three, n3, n3 + 3 * 64 - 1, &status),
                     GS_GATE_HEAD_TOO_LARGE);
    ck_assert_int_eq(status, 431);
    /* A bad length is a 400 whatever the size. */
    const char *bad = "POST / HTTP/1.1\r\nContent-Length: x\r\n";
    ck_assert_str_eq(gs_gate_check_head(bad, strlen(bad), 1, &status),
                     GS_GATE_BAD_LENGTH);
    ck_assert_int_eq(status, 400);
    /* The refusal echoes the head's X-Request-Id and Origin. */
    const char *head = "POST /x-request-id: no HTTP/1.1\r\n"
                       "x-request-id:  abc 1 \r\nOrigin:\thttp://a\r\n"
                       "X-Request-Id: second\r\n";
    char v[16];
    ck_assert(gs_gate_header(head, strlen(head), "X-Request-Id", v, sizeof v));
    ck_assert_str_eq(v, "abc 1");
    ck_assert(gs_gate_header(head, strlen(head), "origin", v, sizeof v));
    ck_assert_str_eq(v, "http://a");
    ck_assert(!gs_gate_header(head, strlen(head), "Host", v, sizeof v));
    ck_assert(!gs_gate_header(head, strlen(head), "X-Request-Id", v, 5));
}
END_TEST

/* Event framing: one data line per line, the final newline dropped. */
START_TEST(sse_format)
{
    gs_buf b = GS_BUF_INIT;
    gs_sse_format(&b, "result", "{\"a\":1}\n", 8);
    ck_assert_str_eq(b.data, "event: result\ndata: {\"a\":1}\n\n");
    gs_buf_free(&b);
    gs_sse_format(&b, "result", "10\n2\n", 5);
    ck_assert_str_eq(b.data, "event: result\ndata: 10\ndata: 2\n\n");
    gs_buf_free(&b);
    gs_sse_format(&b, "progress", "", 0);
    ck_assert_str_eq(b.data, "event: progress\ndata: \n\n");
    gs_buf_free(&b);
}
END_TEST

/* A producer racing the stream's end: whatever it sends, the result is
 * the stream's last event (the answer and the close are one step). */
static void *stream_spam(void *p)
{
    gs_stream *st = p;
    for (int i = 0; i < 200000 && !gs_stream_finished(st); i++)
        gs_stream_event(st, "progress", "{}", 2, 0);
    return NULL;
}

START_TEST(stream_end_is_last)
{
    for (int round = 0; round < 50; round++) {
        gs_stream *st;
        pthread_t t;
        ck_assert_int_eq(gs_stream_new(NULL, &st), GS_OK);
        ck_assert_int_eq(pthread_create(&t, NULL, stream_spam, st), 0);
        gs_stream_event(st, "progress", "{}", 2, 0);
        gs_stream_end(st, "result", "{\"a\":1}", 7);
        gs_stream_event(st, "progress", "{}", 2, 0); /* ignored */
        pthread_join(t, NULL);
        gs_buf all = GS_BUF_INIT;
        char chunk[4096];
        ssize_t n;
        while ((n = gs_stream_read(st, chunk, sizeof chunk)) > 0)
            gs_buf_append(&all, chunk, (size_t)n);
        ck_assert_int_eq(n, MHD_CONTENT_READER_END_OF_STREAM);
        static const char tail[] = "event: result\ndata: {\"a\":1}\n\n";
        ck_assert_uint_ge(all.len, sizeof tail - 1);
        ck_assert_msg(memcmp(all.data + all.len - (sizeof tail - 1), tail,
                             sizeof tail - 1) == 0,
                      "round %d: the stream ends with %.60s", round,
                      all.data + all.len - (sizeof tail - 1));
        gs_buf_free(&all);
        gs_stream_free(st);
    }
}
END_TEST

/* ---- log writer --------------------------------------------------------- */

enum { LOGQ_THREADS = 4, LOGQ_LINES = 3000 };

typedef struct logq_arg {
    gs_logq *q;
    int who;
} logq_arg;

static void *logq_writer(void *p)
{
    logq_arg *a = p;
    char line[64];

    for (int i = 0; i < LOGQ_LINES; i++) {
        int n =
            snprintf(line, sizeof line, "t%d line %05d ........\n", a->who, i);
        gs_logq_put(a->q, line, (size_t)n);
    }
    return NULL;
}

/* Lines from several threads through a small buffer (so producers wait
 * for the writer): each line whole, none lost, each thread's in order;
 * a flush writes what was queued; free writes the rest. */
START_TEST(logq_batches_whole_lines)
{
    FILE *f = tmpfile();
    ck_assert_ptr_nonnull(f);
    gs_logq *q;
    ck_assert_int_eq(gs_logq_new(fileno(f), 4096, 5, &q), 0);
    gs_logq_put(q, "first\n", 6);
    gs_logq_flush(q);
    ck_assert_int_eq((int)lseek(fileno(f), 0, SEEK_END), 6);
    pthread_t th[LOGQ_THREADS];
    logq_arg args[LOGQ_THREADS];
    for (int i = 0; i < LOGQ_THREADS; i++) {
        args[i] = (logq_arg){q, i};
        ck_assert_int_eq(pthread_create(&th[i], NULL, logq_writer, &args[i]),
                         0);
    }
    for (int i = 0; i < LOGQ_THREADS; i++)
        pthread_join(th[i], NULL);
    char big[6000];
    memset(big, 'x', sizeof big);
    big[sizeof big - 1] = '\n';
    gs_logq_put(q, big, sizeof big); /* longer than the buffer */
    gs_logq_free(q);

    rewind(f);
    int next[LOGQ_THREADS] = {0}, bigs = 0;
    char line[8192];
    ck_assert_ptr_nonnull(fgets(line, sizeof line, f));
    ck_assert_str_eq(line, "first\n");
    while (fgets(line, sizeof line, f)) {
        int who, i;
        if (line[0] == 'x') {
            ck_assert_int_eq((int)strlen(line), (int)sizeof big);
            bigs++;
            continue;
        }
        ck_assert_int_eq(sscanf(line, "t%d line %d", &who, &i), 2);
        ck_assert_msg(who >= 0 && who < LOGQ_THREADS, "bad line %s", line);
        ck_assert_int_eq(i, next[who]);
        ck_assert_str_eq(line + strlen(line) - 9, "........\n");
        next[who]++;
    }
    for (int i = 0; i < LOGQ_THREADS; i++)
        ck_assert_int_eq(next[i], LOGQ_LINES);
    ck_assert_int_eq(bigs, 1);
    fclose(f);
}
END_TEST

static _Atomic int kills[3]; /* by enum gs_conn_kill */

static void count_kill(void *ud, enum gs_conn_kill why)
{
    (void)ud;
    kills[why]++;
}

/* Waits up to 2 s for kills[why] to reach want. */
static int wait_kills(enum gs_conn_kill why, int want)
{
    for (int i = 0; i < 400 && kills[why] < want; i++)
        usleep(5000);
    return kills[why];
}

/* The watcher closes a kept-alive connection left idle as GS_CONN_IDLE,
 * which the server neither logs nor counts, and one that never completes
 * its head as a header timeout. */
START_TEST(conns_idle_close_is_not_a_header_timeout)
{
    gs_conns_cfg cfg = {.header_timeout_ns = 40000000,
                        .idle_timeout_ns = 40000000,
                        .tick_ms = 5};
    gs_conns_hooks hooks = {.killed = count_kill};
    gs_conns *cs;
    ck_assert_int_eq(gs_conns_new(&cfg, &hooks, &cs), 0);
    int idle[2], head[2];
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, idle), 0);
    ck_assert_int_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, head), 0);
    gs_conn *c = gs_conns_open(cs, idle[0]);
    ck_assert_ptr_nonnull(c);
    gs_conn_request_line(cs, c);
    gs_conn_headers_done(cs, c, false);
    gs_conn_request_done(cs, c);
    ck_assert_int_eq(wait_kills(GS_CONN_IDLE, 1), 1);
    ck_assert_int_eq(kills[GS_CONN_HEADER_TIMEOUT], 0);
    char b;
    ck_assert_int_eq((int)read(idle[1], &b, 1), 0); /* shut down: EOF */
    gs_conn *d = gs_conns_open(cs, head[0]);
    ck_assert_ptr_nonnull(d);
    ck_assert_int_eq(wait_kills(GS_CONN_HEADER_TIMEOUT, 1), 1);
    ck_assert_int_eq(kills[GS_CONN_IDLE], 1);
    gs_conns_close(cs, c);
    gs_conns_close(cs, d);
    gs_conns_free(cs);
    for (int i = 0; i < 2; i++) {
        close(idle[i]);
        close(head[i]);
    }
}
END_TEST

Suite *gs_test_server_suite(void)
{
    Suite *s = suite_create("server");
    TCase *tc = tcase_create("config");
    tcase_add_test(tc, config_defaults);
    tcase_add_test(tc, config_env_and_flags);
    tcase_add_test(tc, config_byte_suffixes);
    tcase_add_test(tc, config_errors);
    tcase_add_test(tc, config_ceiling_only);
    tcase_add_test(tc, config_help);
    tcase_add_test(tc, config_cgroup_quotas);
    tcase_add_test(tc, config_max_memory);
    tcase_add_test(tc, config_connection_flags);
    suite_add_tcase(s, tc);
    tc = tcase_create("http");
    tcase_add_test(tc, gate_content_length);
    tcase_add_test(tc, sse_format);
    tcase_add_test(tc, stream_end_is_last);
    tcase_add_test(tc, conns_idle_close_is_not_a_header_timeout);
    suite_add_tcase(s, tc);
    tc = tcase_create("pool");
    tcase_add_test(tc, pool_admission);
    tcase_add_test(tc, pool_zero_queue);
    tcase_add_test(tc, pool_runs_everything);
    tcase_add_test(tc, pool_fast_lane_serves_while_main_busy);
    tcase_add_test(tc, pool_fast_lane_requeue);
    tcase_add_test(tc, pool_lane_admission);
    tcase_add_test(tc, pool_lane_close_and_none);
    suite_add_tcase(s, tc);
    tc = tcase_create("logq");
    tcase_add_test(tc, logq_batches_whole_lines);
    suite_add_tcase(s, tc);
    tc = tcase_create("metrics");
    tcase_add_test(tc, metrics_render);
    suite_add_tcase(s, tc);
    return s;
}
