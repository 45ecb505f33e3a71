/* json.h - field readers over cJSON with precise 400 messages.
 *
 * A missing required field or one of the wrong type is a 400 (GS_EBADREQ)
 * naming the field; a value of the right type that makes no sense for the
 * puzzle (off the board, too large) is left to the puzzle as a 422.
 */
#ifndef GRIDSOLVE_JSON_H
#define GRIDSOLVE_JSON_H

#include <stdbool.h>
#include <stdint.h>

#include <cjson/cJSON.h>

#include "gridsolve/error.h"

/* Object member `name` (NULL when absent and !required). */
int gs_json_field(const cJSON *obj, const char *name, bool required,
                  const cJSON **out, gs_error *err);

/* Integer member in [min, max]; *out keeps its value when absent and
 * !required. Non-integers are 400; out of range is 422. */
int gs_json_int(const cJSON *obj, const char *name, bool required, long min,
                long max, long *out, gs_error *err);

/* Array member; *out NULL when absent and !required. */
int gs_json_array(const cJSON *obj, const char *name, bool required,
                  const cJSON **out, gs_error *err);

/* String member; *out keeps its value when absent and !required. */
int gs_json_string(const cJSON *obj, const char *name, bool required,
                   const char **out, gs_error *err);

/* Reads `name` as a non-empty array of strings (a grid). On success
 * *rows is a malloc'd array of *nrows borrowed string pointers. Empty grid
 * is 422; a non-string row is 400 naming its index. */
int gs_json_grid(const cJSON *obj, const char *name, const char ***rows,
                 int *nrows, gs_error *err);

/* Reads item as a [row, col] pair of integers; `what` names it in errors,
 * e.g. "snake[3]". Type errors are 400. */
int gs_json_cell(const cJSON *item, const char *what, long *row, long *col,
                 gs_error *err);

#endif
