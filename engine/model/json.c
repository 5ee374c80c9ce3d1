/* json: streaming JSON writer (see json.h). */
#include "json.h"

#include <math.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

void json_init(struct json_w *w, FILE *f, bool pretty)
{
	memset(w, 0, sizeof(*w));
	w->f = f;
	w->pretty = pretty;
	w->first[0] = true;
}

static void indent(struct json_w *w)
{
	if (!w->pretty)
		return;
	fputc('\n', w->f);
	for (int i = 0; i < w->depth; i++)
		fputs("  ", w->f);
}

/* Called before every value or key: writes the separator. */
static void before_value(struct json_w *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (!w->first[w->depth])
		fputc(',', w->f);
	w->first[w->depth] = false;
	if (w->depth > 0)
		indent(w);
}

static void open(struct json_w *w, char c)
{
	before_value(w);
	fputc(c, w->f);
	if (w->depth + 1 < JSON_MAX_DEPTH)
		w->depth++;
	w->first[w->depth] = true;
}

static void close_(struct json_w *w, char c)
{
	bool empty = w->first[w->depth];
	if (w->depth > 0)
		w->depth--;
	if (!empty)
		indent(w);
	fputc(c, w->f);
	if (w->depth == 0 && w->pretty)
		fputc('\n', w->f);
}

void json_obj_begin(struct json_w *w)
{
	open(w, '{');
}
void json_obj_end(struct json_w *w)
{
	close_(w, '}');
}
void json_arr_begin(struct json_w *w)
{
	open(w, '[');
}
void json_arr_end(struct json_w *w)
{
	close_(w, ']');
}

void json_write_string(FILE *f, const char *s, size_t n)
{
	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		switch (c) {
		case '"': fputs("\\\"", f); break;
		case '\\': fputs("\\\\", f); break;
		case '\n': fputs("\\n", f); break;
		case '\r': fputs("\\r", f); break;
		case '\t': fputs("\\t", f); break;
		case '\b': fputs("\\b", f); break;
		case '\f': fputs("\\f", f); break;
		default:
			if (c < 0x20)
				fprintf(f, "\\u%04x", c);
			else
				fputc(c, f);
		}
	}
	fputc('"', f);
}

void json_key(struct json_w *w, const char *k)
{
	before_value(w);
	json_write_string(w->f, k, strlen(k));
	fputs(w->pretty ? ": " : ":", w->f);
	w->after_key = true;
}

void json_strn(struct json_w *w, const char *s, size_t n)
{
	before_value(w);
	json_write_string(w->f, s, n);
}

void json_str(struct json_w *w, const char *s)
{
	if (!s) {
		json_null(w);
		return;
	}
	json_strn(w, s, strlen(s));
}

void json_int(struct json_w *w, int64_t v)
{
	before_value(w);
	fprintf(w->f, "%" PRId64, v);
}

void json_uint(struct json_w *w, uint64_t v)
{
	before_value(w);
	fprintf(w->f, "%" PRIu64, v);
}

void json_num(struct json_w *w, double v)
{
	before_value(w);
	if (!isfinite(v))
		fputs("null", w->f);
	else if (v == (double)(int64_t)v && fabs(v) < 9e15)
		fprintf(w->f, "%" PRId64, (int64_t)v);
	else {
		/* Shortest text that reads back as the same double. */
		char buf[40];
		snprintf(buf, sizeof(buf), "%.15g", v);
		if (strtod(buf, NULL) != v)
			snprintf(buf, sizeof(buf), "%.17g", v);
		fputs(buf, w->f);
	}
}

void json_bool(struct json_w *w, bool v)
{
	before_value(w);
	fputs(v ? "true" : "false", w->f);
}

void json_null(struct json_w *w)
{
	before_value(w);
	fputs("null", w->f);
}

void json_raw(struct json_w *w, const char *text)
{
	before_value(w);
	fputs(text, w->f);
}
