/* json.c - typed field readers over cJSON with precise messages. */
#include <math.h>
#include <stdlib.h>

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
                            "field \"%s\" is %.0f, must be in %ld..%ld", name,
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

int gs_json_grid(const cJSON *obj, const char *name, const char ***rows,
                 int *nrows, gs_error *err)
{
    const cJSON *arr, *it;
    int rc = gs_json_array(obj, name, true, &arr, err);
    if (rc)
        return rc;
    int n = cJSON_GetArraySize(arr);
    if (n == 0)
        return gs_error_set(err, GS_EINVALID, "field \"%s\" is empty", name);
    const char **out = malloc(sizeof *out * (size_t)n);
    if (!out)
        return gs_error_set(err, GS_ENOMEM, "out of memory reading \"%s\"",
                            name);
    int i = 0;
    cJSON_ArrayForEach(it, arr)
    {
        if (!cJSON_IsString(it)) {
            free(out);
            return gs_error_set(err, GS_EBADREQ, "%s row %d must be a string",
                                name, i);
        }
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
        c->valuedouble != floor(c->valuedouble) || fabs(r->valuedouble) > 1e9 ||
        fabs(c->valuedouble) > 1e9)
        return gs_error_set(err, GS_EBADREQ,
                            "%s must be a [row, col] pair of integers", what);
    *row = (long)r->valuedouble;
    *col = (long)c->valuedouble;
    return GS_OK;
}
