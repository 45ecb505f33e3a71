/* itest.c - assertions and replayers shared by the integration suites.
 *
 * The replayers re-implement each puzzle's move rules from PUZZLES.md in
 * the plainest way so a test can accept any shortest answer (several are
 * equally short) while still proving the answer is a real solution.
 */
#include "itest.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

const char *itest_str(const cJSON *obj, const char *name)
{
    const cJSON *v = cJSON_GetObjectItemCaseSensitive(obj, name);
    return cJSON_IsString(v) ? v->valuestring : NULL;
}

cJSON *itest_problem(const gs_resp *resp, long status, const char *kind,
                     const char *instance)
{
    ck_assert_msg(resp->curl_rc == 0, "transfer failed (curl %d)",
                  resp->curl_rc);
    ck_assert_msg(resp->status == status, "HTTP %ld, expected %ld: %s",
                  resp->status, status, resp->body ? resp->body : "");
    ck_assert_msg(strncmp(resp->content_type, "application/problem+json", 24) ==
                      0,
                  "Content-Type '%s' for a %ld", resp->content_type, status);
    cJSON *j = gs_resp_json(resp);
    ck_assert_msg(j && cJSON_IsObject(j), "problem body is not a JSON object");
    char want[256];
    snprintf(want, sizeof(want), GS_PROBLEM_BASE "%s", kind);
    const char *type = itest_str(j, "type");
    ck_assert_msg(type && strcmp(type, want) == 0, "type '%s', expected '%s'",
                  type ? type : "(none)", want);
    const char *title = itest_str(j, "title");
    ck_assert_msg(title && *title, "problem without a title");
    const char *detail = itest_str(j, "detail");
    ck_assert_msg(detail && *detail, "problem without a detail");
    const cJSON *st = cJSON_GetObjectItemCaseSensitive(j, "status");
    ck_assert_msg(cJSON_IsNumber(st) && st->valuedouble == (double)status,
                  "problem status field does not say %ld", status);
    const char *inst = itest_str(j, "instance");
    ck_assert_msg(inst != NULL, "problem without an instance");
    if (instance)
        ck_assert_msg(strcmp(inst, instance) == 0,
                      "instance '%s', expected '%s'", inst, instance);
    return j;
}

bool itest_icontains(const char *hay, const char *needle)
{
    size_t n = strlen(needle);
    for (; *hay; hay++)
        if (strncasecmp(hay, needle, n) == 0)
            return true;
    return n == 0;
}

int itest_post_json(const gs_srv *s, const char *puzzle, const char *body,
                    gs_resp *resp)
{
    char path[128];
    snprintf(path, sizeof(path), "/solve/%s", puzzle);
    return gs_post(s, path, "application/json", body, resp);
}

/* Stats must always be present and sane. */
static void check_stats(const cJSON *j)
{
    const cJSON *stats = cJSON_GetObjectItemCaseSensitive(j, "stats");
    ck_assert_msg(cJSON_IsObject(stats), "no stats object");
    const cJSON *e = cJSON_GetObjectItemCaseSensitive(stats, "expanded");
    ck_assert_msg(cJSON_IsNumber(e) && e->valuedouble >= 0,
                  "stats.expanded missing or negative");
    const cJSON *t = cJSON_GetObjectItemCaseSensitive(stats, "elapsed_ms");
    ck_assert_msg(cJSON_IsNumber(t) && t->valuedouble >= 0,
                  "stats.elapsed_ms missing or negative");
}

cJSON *itest_solve_ok(const gs_resp *resp, const char *puzzle,
                      const char *status, int want_steps, const char *alphabet)
{
    ck_assert_msg(resp->curl_rc == 0, "transfer failed (curl %d)",
                  resp->curl_rc);
    ck_assert_msg(resp->status == 200, "HTTP %ld: %s", resp->status,
                  resp->body ? resp->body : "");
    ck_assert_msg(strncmp(resp->content_type, "application/json", 16) == 0,
                  "Content-Type '%s'", resp->content_type);
    cJSON *j = gs_resp_json(resp);
    ck_assert_msg(j && cJSON_IsObject(j), "body is not a JSON object: %s",
                  resp->body ? resp->body : "");
    const char *p = itest_str(j, "puzzle");
    ck_assert_msg(p && strcmp(p, puzzle) == 0, "puzzle '%s'", p ? p : "");
    const char *st = itest_str(j, "status");
    ck_assert_msg(st && strcmp(st, status) == 0, "status '%s', expected %s: %s",
                  st ? st : "(none)", status, resp->body);
    const cJSON *steps = cJSON_GetObjectItemCaseSensitive(j, "steps");
    const cJSON *moves = cJSON_GetObjectItemCaseSensitive(j, "moves");
    const cJSON *opt = cJSON_GetObjectItemCaseSensitive(j, "optimal");
    ck_assert_msg(cJSON_IsBool(opt), "optimal is not a boolean");
    check_stats(j);
    if (strcmp(status, "solved") != 0) {
        ck_assert_msg(cJSON_IsNull(steps) && cJSON_IsNull(moves),
                      "steps/moves must be null when %s: %s", status,
                      resp->body);
        if (strcmp(status, "limit") == 0)
            ck_assert_msg(cJSON_IsFalse(opt), "a limit cannot be optimal");
        else
            ck_assert_msg(cJSON_GetObjectItemCaseSensitive(j, "limit") == NULL,
                          "\"limit\" only belongs to status limit");
        return j;
    }
    ck_assert_msg(cJSON_GetObjectItemCaseSensitive(j, "limit") == NULL,
                  "\"limit\" only belongs to status limit");
    ck_assert_msg(cJSON_IsNumber(steps), "steps is not a number");
    ck_assert_msg(cJSON_IsString(moves), "moves is not a string");
    ck_assert_msg((size_t)steps->valueint == strlen(moves->valuestring),
                  "steps %d but %zu moves", steps->valueint,
                  strlen(moves->valuestring));
    if (want_steps >= 0) {
        ck_assert_msg(steps->valueint == want_steps, "steps %d, expected %d",
                      steps->valueint, want_steps);
        ck_assert_msg(cJSON_IsTrue(opt), "a BFS answer must be optimal");
    }
    for (const char *m = moves->valuestring; *m; m++)
        ck_assert_msg(strchr(alphabet, *m) != NULL,
                      "move '%c' is not one of %s", *m, alphabet);
    return j;
}

static bool bad_move(char *why, size_t len, const char *msg, size_t i)
{
    snprintf(why, len, "%s at move %zu", msg, i + 1);
    return false;
}

/* Sums every sample whose line starts with `prefix` (a metric name plus,
 * optionally, label text); -1 when no line matches. */
double itest_metric_sum(const char *text, const char *prefix)
{
    double sum = -1;
    size_t pl = strlen(prefix);
    while (text && *text) {
        const char *nl = strchr(text, '\n');
        size_t n = nl ? (size_t)(nl - text) : strlen(text);
        if (n > pl && strncmp(text, prefix, pl) == 0) {
            char line[1024];
            snprintf(line, sizeof(line), "%.*s", (int)n, text);
            const char *v = strrchr(line, ' '); /* value is the last field */
            if (v)
                sum = (sum < 0 ? 0 : sum) + strtod(v + 1, NULL);
        }
        text = nl ? nl + 1 : NULL;
    }
    return sum;
}

double itest_slack(double bound)
{
    const char *v = getenv("GS_ITEST_SLOWDOWN");
    double k = v ? strtod(v, NULL) : 1;
    return k > 1 ? bound * k : bound;
}

bool itest_wait_busy(const gs_srv *s, int n, long timeout_ms)
{
    double end = gs_now_ms() + timeout_ms;
    do {
        gs_resp m;
        gs_get(s, "/metrics", &m);
        double busy =
            m.body ? itest_metric_sum(m.body, "gridsolve_workers_busy ") : -1;
        gs_resp_free(&m);
        if (busy >= n)
            return true;
        gs_sleep_ms(10);
    } while (gs_now_ms() < end);
    return false;
}

/* ---- bloxorz ---- */

static char blox_cell(const char *const *g, int rows, int r, int c)
{
    if (r < 0 || r >= rows || c < 0 || c >= (int)strlen(g[r]))
        return '#';
    return g[r][c];
}

bool itest_bloxorz_replay(const char *const *g, int rows, const char *moves,
                          char *why, size_t why_len)
{
    /* o: 0 standing, 1 lying horizontally (c, c+1), 2 vertically (r, r+1) */
    int r = -1, c = -1, o = 0, goal_r = -1, goal_c = -1;
    for (int i = 0; i < rows; i++) {
        for (int j = 0; g[i][j]; j++) {
            if (g[i][j] == 'O') {
                goal_r = i;
                goal_c = j;
            }
            if (g[i][j] == 'X' && r < 0) {
                r = i;
                c = j;
                o = blox_cell(g, rows, i, j + 1) == 'X'   ? 1
                    : blox_cell(g, rows, i + 1, j) == 'X' ? 2
                                                          : 0;
            }
        }
    }
    for (size_t i = 0; moves[i]; i++) {
        char m = moves[i];
        if (o == 0) {
            if (m == 'L')
                c -= 2, o = 1;
            else if (m == 'R')
                c += 1, o = 1;
            else if (m == 'U')
                r -= 2, o = 2;
            else if (m == 'D')
                r += 1, o = 2;
        } else if (o == 1) {
            if (m == 'L')
                c -= 1, o = 0;
            else if (m == 'R')
                c += 2, o = 0;
            else
                r += m == 'U' ? -1 : 1;
        } else {
            if (m == 'U')
                r -= 1, o = 0;
            else if (m == 'D')
                r += 2, o = 0;
            else
                c += m == 'L' ? -1 : 1;
        }
        char a = blox_cell(g, rows, r, c);
        char b = o == 1   ? blox_cell(g, rows, r, c + 1)
                 : o == 2 ? blox_cell(g, rows, r + 1, c)
                          : a;
        if (a == '#' || b == '#')
            return bad_move(why, why_len, "block off the floor", i);
        if (o == 0 && a == 'E')
            return bad_move(why, why_len, "block standing on fragile floor", i);
    }
    if (!(o == 0 && r == goal_r && c == goal_c)) {
        snprintf(why, why_len, "block not standing on the goal at the end");
        return false;
    }
    return true;
}

/* ---- wallpushers ---- */

bool itest_wallpushers_replay(const int *walls_in, int rows, int cols, int r,
                              int c, const char *moves, char *why,
                              size_t why_len)
{
    int walls[64];
    if (rows * cols > 64) {
        snprintf(why, why_len, "board too large for the replayer");
        return false;
    }
    memcpy(walls, walls_in, sizeof(int) * rows * cols);
    for (size_t i = 0; moves[i]; i++) {
        const char *dirs = "WNES"; /* bit order: 1 west, 2 north, 4 east... */
        const char *d = strchr(dirs, moves[i]);
        if (!d)
            return bad_move(why, why_len, "unknown move", i);
        int k = (int)(d - dirs);
        int bit = 1 << k, opp = 1 << ((k + 2) % 4);
        int dr = k == 1 ? -1 : k == 3 ? 1 : 0;
        int dc = k == 0 ? -1 : k == 2 ? 1 : 0;
        int br = r + dr, bc = c + dc;
        bool b_in = br >= 0 && br < rows && bc >= 0 && bc < cols;
        if (!(walls[r * cols + c] & bit)) {
            if (!b_in) {
                if (moves[i + 1])
                    return bad_move(why, why_len, "moves after leaving", i);
                return true;
            }
            r = br, c = bc;
            continue;
        }
        if (!b_in)
            return bad_move(why, why_len, "pushing an edge wall", i);
        if (walls[br * cols + bc] & bit)
            return bad_move(why, why_len, "pushing two walls in a row", i);
        walls[r * cols + c] &= ~bit;
        walls[br * cols + bc] &= ~opp;
        walls[br * cols + bc] |= bit;
        int cr = br + dr, cc = bc + dc;
        if (cr >= 0 && cr < rows && cc >= 0 && cc < cols)
            walls[cr * cols + cc] |= opp;
        r = br, c = bc;
    }
    snprintf(why, why_len, "still inside the maze after the last move");
    return false;
}

/* ---- sokoban (seed notation: X player, * box, @ goal, # wall) ---- */

bool itest_sokoban_seed_replay(const char *const *g, int rows,
                               const char *moves, char *why, size_t why_len)
{
    enum { W = 32 };
    char box[W][W] = {{0}};
    int pr = -1, pc = -1;
    if (rows > W)
        return bad_move(why, why_len, "board too large for the replayer", 0);
    for (int i = 0; i < rows; i++) {
        for (int j = 0; g[i][j] && j < W; j++) {
            box[i][j] = g[i][j] == '*';
            if (g[i][j] == 'X')
                pr = i, pc = j;
        }
    }
    for (size_t i = 0; moves[i]; i++) {
        char m = moves[i];
        char l = (char)(m | 0x20);
        int dr = l == 'u' ? -1 : l == 'd' ? 1 : 0;
        int dc = l == 'l' ? -1 : l == 'r' ? 1 : 0;
        if (dr == 0 && dc == 0)
            return bad_move(why, why_len, "unknown move", i);
        int nr = pr + dr, nc = pc + dc;
        if (nr < 0 || nr >= rows || nc < 0 || nc >= (int)strlen(g[nr]) ||
            g[nr][nc] == '#')
            return bad_move(why, why_len, "walking into a wall", i);
        bool push = m != l;
        if (push != (box[nr][nc] != 0))
            return bad_move(why, why_len, "push letter case disagrees with box",
                            i);
        if (push) {
            int br = nr + dr, bc = nc + dc;
            if (br < 0 || br >= rows || bc < 0 || bc >= (int)strlen(g[br]) ||
                g[br][bc] == '#' || box[br][bc])
                return bad_move(why, why_len, "box pushed into wall or box", i);
            box[nr][nc] = 0;
            box[br][bc] = 1;
        }
        pr = nr, pc = nc;
    }
    for (int i = 0; i < rows; i++)
        for (int j = 0; g[i][j] && j < W; j++)
            if (box[i][j] && g[i][j] != '@') {
                snprintf(why, why_len, "box at (%d,%d) not on a goal", i, j);
                return false;
            }
    return true;
}

/* ---- slow instances ---- */

static const char *const slow_rows[] = {
    "############", "#.   .    .#", "#          #", "#  $ $ $   #",
    "#          #", "#. $ $ $  .#", "#          #", "#  $ $     #",
    "#       @  #", "#          #", "#.   .    .#", "############"};
enum { SLOW_ROWS = sizeof(slow_rows) / sizeof(slow_rows[0]) };

char *itest_slow_sokoban_json(const char *extra)
{
    size_t cap = 64 + SLOW_ROWS * 16 + (extra ? strlen(extra) : 0);
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t k = (size_t)snprintf(s, cap, "{\"grid\":[");
    for (int r = 0; r < SLOW_ROWS; r++)
        k += (size_t)snprintf(s + k, cap - k, "%s\"%s\"", r ? "," : "",
                              slow_rows[r]);
    snprintf(s + k, cap - k, "]%s}", extra ? extra : "");
    return s;
}

char *itest_slow_sokoban_text(void)
{
    size_t cap = 16 + SLOW_ROWS * 16;
    char *s = malloc(cap);
    if (!s)
        return NULL;
    size_t k =
        (size_t)snprintf(s, cap, "%d %zu\n", SLOW_ROWS, strlen(slow_rows[0]));
    for (int r = 0; r < SLOW_ROWS; r++) {
        /* XSB to the seed's notation: X player, * box, @ goal. */
        for (const char *c = slow_rows[r]; *c; c++)
            s[k++] = *c == '$'   ? '*'
                     : *c == '.' ? '@'
                     : *c == '@' ? 'X'
                     : *c == ' ' ? '.'
                                 : *c;
        s[k++] = '\n';
    }
    s[k] = '\0';
    return s;
}
