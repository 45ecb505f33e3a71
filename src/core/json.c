/* json.c - typed field readers over cJSON with precise messages, and the
 * unknown-name check (with a closest-name suggestion) behind strict input. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gridsolve/json.h"

int gs_json_field(const cJSON *obj, const char *name, bool required,
                  const cJSON **out, gs_error *err)
{
    *out = cJSON_GetObjectItemCaseSensitive(obj, name);
    if (!*out && required)
        return gs_error_set(err, GS_EBADREQ, "missing required field \"%s\"",
                            name);
    return GS_OK;
}

int gs_json_int(const cJSON *obj, const char *name, bool required, long min,
                long max, long *out, gs_error *err)
{
    const cJSON *it;
    int rc = gs_json_field(obj, name, required, &it, err);
    if (rc || !it)
        return rc;
    if (!cJSON_IsNumber(it) || it->valuedouble != floor(it->valuedouble))
        return gs_error_set(err, GS_EBADREQ, "field \"%s\" must be an integer",
                            name);
    double d = it->valuedouble;
    if (d < (double)min || d > (double)max)
        return gs_error_set(err, GS_EINVALID,
                            "field \"%s\" is %.15g, must be in %ld..%ld", name,
                            d, min, max);
    *out = (long)d;
    return GS_OK;
}

int gs_json_array(const cJSON *obj, const char *name, bool required,
                  const cJSON **out, gs_error *err)
{
    int rc = gs_json_field(obj, name, required, out, err);
    if (rc || !*out)
        return rc;
    if (!cJSON_IsArray(*out))
        return gs_error_set(err, GS_EBADREQ, "field \"%s\" must be an array",
                            name);
    return GS_OK;
}

int gs_json_string(const cJSON *obj, const char *name, bool required,
                   const char **out, gs_error *err)
{
    const cJSON *it;
    int rc = gs_json_field(obj, name, required, &it, err);
    if (rc || !it)
        return rc;
    if (!cJSON_IsString(it))
        return gs_error_set(err, GS_EBADREQ, "field \"%s\" must be a string",
                            name);
    *out = it->valuestring;
    return GS_OK;
}

int gs_json_grid_array(const cJSON *obj, const char *name, const cJSON **arr,
                       int *nrows, gs_error *err)
{
    const cJSON *a, *it;
    int rc = gs_json_array(obj, name, true, &a, err);
    if (rc)
        return rc;
    int n = 0;
    cJSON_ArrayForEach(it, a)
    {
        if (!cJSON_IsString(it))
            return gs_error_set(err, GS_EBADREQ, "%s row %d must be a string",
                                name, n);
        n++;
    }
    if (n == 0)
        return gs_error_set(err, GS_EINVALID, "field \"%s\" is empty", name);
    *arr = a;
    *nrows = n;
    return GS_OK;
}

int gs_json_grid(const cJSON *obj, const char *name, const char ***rows,
                 int *nrows, gs_error *err)
{
    const cJSON *arr, *it;
    int n = 0;
    int rc = gs_json_grid_array(obj, name, &arr, &n, err);
    if (rc)
        return rc;
    const char **out = malloc(sizeof *out * (size_t)n);
    if (!out)
        return gs_error_set(err, GS_ENOMEM, "out of memory reading \"%s\"",
                            name);
    int i = 0;
    cJSON_ArrayForEach(it, arr)
    {
        out[i++] = it->valuestring;
    }
    *rows = out;
    *nrows = n;
    return GS_OK;
}

int gs_json_cell(const cJSON *item, const char *what, long *row, long *col,
                 gs_error *err)
{
    if (!cJSON_IsArray(item) || cJSON_GetArraySize(item) != 2)
        return gs_error_set(err, GS_EBADREQ,
                            "%s must be a [row, col] pair of integers", what);
    const cJSON *r = cJSON_GetArrayItem(item, 0);
    const cJSON *c = cJSON_GetArrayItem(item, 1);
    if (!cJSON_IsNumber(r) || !cJSON_IsNumber(c) ||
        r->valuedouble != floor(r->valuedouble) ||
        c->valuedouble != floor(c->valuedouble))
        return gs_error_set(err, GS_EBADREQ,
                            "%s must be a [row, col] pair of integers", what);
    /* No board is this large (a long holds the rest on every platform):
     * like any cell off the board, a 422. */
    if (fabs(r->valuedouble) > 1e9 || fabs(c->valuedouble) > 1e9)
        return gs_error_set(err, GS_EINVALID,
                            "%s [%.15g, %.15g] is off the board", what,
                            r->valuedouble, c->valuedouble);
    *row = (long)r->valuedouble;
    *col = (long)c->valuedouble;
    return GS_OK;
}

/* ---- unknown names ------------------------------------------------------ */

#define NAME_MAX_DIST 64 /* longer names: no table, no suggestion */

size_t gs_edit_distance(const char *a, const char *b)
{
    size_t la = strlen(a), lb = strlen(b);
    /* Three rows of the optimal string alignment table on the stack: the
     * names compared are field names, so a bound keeps this O(1) space
     * and a hostile 4 MB key costs nothing. */
    size_t rows[3][NAME_MAX_DIST + 1];

    if (la > NAME_MAX_DIST || lb > NAME_MAX_DIST)
        return (size_t)-1;
    for (size_t j = 0; j <= lb; j++)
        rows[0][j] = j;
    for (size_t i = 1; i <= la; i++) {
        size_t *cur = rows[i % 3], *prev = rows[(i - 1) % 3];
        size_t *prev2 = rows[(i + 1) % 3]; /* row i - 2 */
        cur[0] = i;
        for (size_t j = 1; j <= lb; j++) {
            int ca = tolower((unsigned char)a[i - 1]);
            int cb = tolower((unsigned char)b[j - 1]);
            size_t d = prev[j - 1] + (ca != cb);
            if (prev[j] + 1 < d)
                d = prev[j] + 1;
            if (cur[j - 1] + 1 < d)
                d = cur[j - 1] + 1;
            if (i > 1 && j > 1 && ca == tolower((unsigned char)b[j - 2]) &&
                tolower((unsigned char)a[i - 2]) == cb && prev2[j - 2] + 1 < d)
                d = prev2[j - 2] + 1;
            cur[j] = d;
        }
    }
    return rows[la % 3][lb];
}

/* Updates *best with the closest acceptable name of one list. */
static void closest_in(const char *name, const char *const *list,
                       const char **best, size_t *best_d)
{
    for (; list && *list; list++) {
        size_t len = strlen(*list), d = gs_edit_distance(name, *list);
        size_t max = len / 3 > 0 ? len / 3 : 1;
        if (d <= max && d < *best_d) {
            *best = *list;
            *best_d = d;
        }
    }
}

const char *gs_closest_name(const char *name, const char *const *known,
                            const char *const *more)
{
    const char *best = NULL;
    size_t best_d = (size_t)-1;

    closest_in(name, known, &best, &best_d);
    closest_in(name, more, &best, &best_d);
    return best;
}

/* Appends the names of list to buf as ", "-separated text. */
static void list_names(char *buf, size_t len, const char *const *list)
{
    for (; list && *list; list++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", used ? ", " : "", *list);
    }
}

int gs_unknown_name(gs_error *err, const char *what, const char *prefix,
                    const char *name, const char *const *known,
                    const char *const *more)
{
    const char *best = gs_closest_name(name, known, more);
    char names[256] = "";

    if (best)
        return gs_error_set(err, GS_EBADREQ,
                            "unknown %s \"%s%.64s\"; did you mean \"%s%s\"?",
                            what, prefix, name, prefix, best);
    list_names(names, sizeof names, known);
    list_names(names, sizeof names, more);
    return gs_error_set(err, GS_EBADREQ, "unknown %s \"%s%.64s\"; known: %s",
                        what, prefix, name, names[0] ? names : "none");
}

/* True when name is in the NULL-terminated list (which may be NULL). */
static bool in_list(const char *name, const char *const *list)
{
    for (; list && *list; list++)
        if (strcmp(name, *list) == 0)
            return true;
    return false;
}

int gs_json_only_fields(const cJSON *obj, const char *prefix,
                        const char *const *known, const char *const *more,
                        gs_error *err)
{
    const cJSON *f;

    cJSON_ArrayForEach(f, obj)
    {
        if (!in_list(f->string, known) && !in_list(f->string, more))
            return gs_unknown_name(err, "field", prefix, f->string, known,
                                   more);
    }
    return GS_OK;
}
