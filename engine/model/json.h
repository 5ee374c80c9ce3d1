/* json: a small streaming JSON writer.
 *
 * Writes to a FILE* with correct string escaping and commas placed
 * automatically. Nesting is tracked on a fixed stack; `pretty` indents with
 * two spaces. Non-finite doubles are written as null (JSON has no NaN). */
#ifndef BENCHGRID_JSON_H
#define BENCHGRID_JSON_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#define JSON_MAX_DEPTH 32

struct json_w {
	FILE *f;
	bool pretty;
	int depth;
	bool first[JSON_MAX_DEPTH]; /* no element written yet at this level */
	bool after_key;
};

void json_init(struct json_w *w, FILE *f, bool pretty);
void json_obj_begin(struct json_w *w);
void json_obj_end(struct json_w *w);
void json_arr_begin(struct json_w *w);
void json_arr_end(struct json_w *w);
void json_key(struct json_w *w, const char *k);
void json_str(struct json_w *w, const char *s); /* NULL -> null */
void json_strn(struct json_w *w, const char *s, size_t n);
void json_int(struct json_w *w, int64_t v);
void json_uint(struct json_w *w, uint64_t v);
void json_num(struct json_w *w, double v);
void json_bool(struct json_w *w, bool v);
void json_null(struct json_w *w);
/* Write already-formatted JSON text as one value (e.g. a number as written). */
void json_raw(struct json_w *w, const char *text);

/* Escape s as a JSON string literal (with quotes) into f. */
void json_write_string(FILE *f, const char *s, size_t n);

#endif
