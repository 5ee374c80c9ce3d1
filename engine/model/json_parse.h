/* json_parse: a small strict JSON parser (RFC 8259) into a tree.
 *
 * Used to read results.json back (`benchgrid report DIR`, `compare`) and the
 * runner's one-cell-per-line journal. Strict: no comments, no trailing
 * commas, no NaN, no leading zeros, no control characters in strings, one
 * value then only whitespace. \uXXXX escapes (with surrogate pairs) become
 * UTF-8; \u0000 is refused (our strings are C strings). Numbers keep their
 * text as written besides the double, so a parameter "10" round-trips as
 * "10". Errors carry line and column. Nesting depth is limited to 256. */
#ifndef BENCHGRID_JSON_PARSE_H
#define BENCHGRID_JSON_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include "diag.h"

enum jv_kind { JV_NULL, JV_BOOL, JV_NUM, JV_STR, JV_ARR, JV_OBJ };

struct jv {
	enum jv_kind kind;
	int line, col;     /* where the value starts, 1-based */
	bool b;            /* JV_BOOL */
	double num;        /* JV_NUM */
	char *str;         /* JV_STR: the string; JV_NUM: the number's text */
	size_t n;          /* JV_ARR items / JV_OBJ members */
	struct jv **items; /* JV_ARR items; JV_OBJ values */
	char **keys;       /* JV_OBJ keys (duplicates refused) */
};

/* Parse text[0..len) (need not be NUL-terminated). On error returns NULL and
 * adds "file:line:col: error: ..." to d (file is `name`). */
struct jv *jv_parse(const char *text, size_t len, const char *name, struct diag *d);
/* Read and parse a whole file; NULL with a diagnostic on failure. */
struct jv *jv_parse_file(const char *path, struct diag *d);
void jv_free(struct jv *v);

/* Member of an object, NULL when v is not an object or lacks it. */
const struct jv *jv_get(const struct jv *v, const char *key);
/* Typed getters with a default for absent/mistyped members. */
const char *jv_get_str(const struct jv *v, const char *key, const char *def);
double jv_get_num(const struct jv *v, const char *key, double def); /* null -> NaN */
bool jv_get_bool(const struct jv *v, const char *key, bool def);
const char *jv_kind_name(enum jv_kind k);

#endif
