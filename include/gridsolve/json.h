/* json.h - field readers over cJSON with precise 400 messages.
 *
 * A missing required field or one of the wrong type is a 400 (GS_EBADREQ)
 * naming the field; a value of the right type that makes no sense for the
 * puzzle (off the board, too large) is left to the puzzle as a 422.
 */
#ifndef GRIDSOLVE_JSON_H
#define GRIDSOLVE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "gridsolve/cjson.h"

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
/* gs_json_grid without the copy: the same checks and errors, and *arr is
 * the array itself (its rows are strings), to walk with
 * cJSON_ArrayForEach. */
int gs_json_grid_array(const cJSON *obj, const char *name, const cJSON **arr,
                       int *nrows, gs_error *err);

/* Reads item as a [row, col] pair of integers; `what` names it in errors,
 * e.g. "snake[3]". Type errors are 400. */
int gs_json_cell(const cJSON *item, const char *what, long *row, long *col,
                 gs_error *err);

/* Optimal string alignment distance between a and b (insertions,
 * deletions, substitutions and swaps of neighbours each cost 1), ASCII
 * case ignored. Names longer than 64 bytes count as far from anything. */
size_t gs_edit_distance(const char *a, const char *b);

/* The name in the NULL-terminated lists `known` and `more` (either may be
 * NULL) closest to `name`, when close enough to be a likely typo (at most
 * a third of the known name's length, at least 1); else NULL. */
const char *gs_closest_name(const char *name, const char *const *known,
                            const char *const *more);

/* Fills err with a 400 for the unknown `name` of kind `what` ("field",
 * "query parameter"): `unknown field "<prefix><name>"; did you mean
 * "<prefix><best>"?`, or the known names when none is close. Returns
 * GS_EBADREQ. */
int gs_unknown_name(gs_error *err, const char *what, const char *prefix,
                    const char *name, const char *const *known,
                    const char *const *more);

/* GS_OK when every member of obj is in `known` or `more`; else the 400 of
 * gs_unknown_name for the first one that is not. */
int gs_json_only_fields(const cJSON *obj, const char *prefix,
                        const char *const *known, const char *const *more,
                        gs_error *err);

#endif
