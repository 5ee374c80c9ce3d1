/* jsonio: benchgrid's JSON on top of jansson (see jsonio.h). */
#include "jsonio.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

json_t *jsonio_string(const char *s, size_t n)
{
	if (utf8_is_clean(s, n, 0))
		return json_stringn_nocheck(s, n);
	size_t o;
	char *buf = utf8_clean(s, n, 0, &o);
	if (!buf)
		return NULL;
	json_t *v = json_stringn_nocheck(buf, o);
	free(buf);
	return v;
}

json_t *jsonio_str(const char *s)
{
	return s ? jsonio_string(s, strlen(s)) : json_null();
}

json_t *jsonio_num(double v)
{
	if (!isfinite(v))
		return json_null();
	if (v == floor(v) && fabs(v) < 9e15)
		return json_integer((json_int_t)v);
	return json_real(v);
}

json_t *jsonio_number_text(const char *text)
{
	char *end;
	if (!text || !*text || isspace((unsigned char)*text))
		return NULL;
	errno = 0;
	long long i = strtoll(text, &end, 10);
	if (!*end && errno == 0)
		return json_integer(i);
	double x = strtod(text, &end);
	if (*end || !isfinite(x))
		return NULL;
	return json_real(x);
}

bool jsonio_is_number_text(const char *s)
{
	const char *p = s;
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return false;
	if (*p == '.') {
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0' && p - s < 40;
}

void jsonio_number_canonical(const json_t *num, char *buf, size_t len)
{
	if (json_is_integer(num))
		snprintf(buf, len, "%" JSON_INTEGER_FORMAT, json_integer_value(num));
	else
		jsonio_format_real(json_number_value(num), buf, len);
}

void jsonio_set(json_t *obj, const char *key, json_t *value)
{
	if (!value)
		value = json_null();
	if (!key) {
		json_decref(value);
		return;
	}
	size_t n = strlen(key);
	if (utf8_is_clean(key, n, 0)) {
		json_object_set_new_nocheck(obj, key, value);
		return;
	}
	char *clean = utf8_clean(key, n, 0, NULL);
	if (clean)
		json_object_set_new_nocheck(obj, clean, value);
	else
		json_decref(value);
	free(clean);
}

void jsonio_push(json_t *arr, json_t *value)
{
	json_array_append_new(arr, value ? value : json_null());
}

void jsonio_format_real(double v, char *buf, size_t len)
{
	for (int prec = 15; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			break;
	}
	if (!strpbrk(buf, ".eEn")) /* "3" would read back as an integer */
		snprintf(buf + strlen(buf), len - strlen(buf), ".0");
}

/* ---- output: jansson's text with reals rewritten ---- */

/* Index just past the string literal that starts at s[i] ('"'). */
static size_t string_end(const char *s, size_t i)
{
	for (i++; s[i] && s[i] != '"'; i++)
		if (s[i] == '\\' && s[i + 1])
			i++;
	return s[i] ? i + 1 : i;
}

static size_t number_end(const char *s, size_t i)
{
	while (s[i] && strchr("+-.0123456789eE", s[i]))
		i++;
	return i;
}

static bool is_real(const char *s, size_t n)
{
	return memchr(s, '.', n) || memchr(s, 'e', n) || memchr(s, 'E', n);
}

/* A number token as jansson wrote it; reals (printed with 17 digits) are
 * written again in their shortest form. */
static void put_number(FILE *f, const char *s, size_t n)
{
	char tok[64], buf[40];
	if (!is_real(s, n) || n >= sizeof(tok)) {
		fwrite(s, 1, n, f);
		return;
	}
	memcpy(tok, s, n);
	tok[n] = 0;
	jsonio_format_real(strtod(tok, NULL), buf, sizeof(buf));
	fputs(buf, f);
}

static size_t skip_space(const char *s, size_t i)
{
	while (s[i] == ' ' || s[i] == '\n')
		i++;
	return i;
}

/* Is the array at s[i] ('[') made only of numbers and nulls? Then *end is
 * the index of its ']'. */
static bool plain_array(const char *s, size_t i, size_t *end)
{
	size_t j = skip_space(s, i + 1);
	while (s[j] != ']') {
		if (s[j] == '-' || isdigit((unsigned char)s[j]))
			j = number_end(s, j);
		else if (strncmp(s + j, "null", 4) == 0)
			j += 4;
		else
			return false;
		j = skip_space(s, j);
		if (s[j] == ',')
			j = skip_space(s, j + 1);
		else if (s[j] != ']')
			return false;
	}
	*end = j;
	return true;
}

/* Write s[i..end] (a plain array) on one line. */
static void put_plain_array(FILE *f, const char *s, size_t i, size_t end)
{
	fputc('[', f);
	for (size_t j = skip_space(s, i + 1); j < end;) {
		if (s[j] == ',') {
			fputc(',', f);
			j = skip_space(s, j + 1);
		} else if (s[j] == 'n') {
			fputs("null", f);
			j = skip_space(s, j + 4);
		} else {
			size_t k = number_end(s, j);
			put_number(f, s + j, k - j);
			j = skip_space(s, k);
		}
	}
	fputc(']', f);
}

int jsonio_dump(const json_t *v, FILE *f, bool pretty)
{
	char *s = json_dumps(v, (pretty ? JSON_INDENT(2) : JSON_COMPACT) | JSON_ENCODE_ANY);
	if (!s)
		return -ENOMEM;
	/* Copy jansson's text, rewriting only reals and plain arrays. */
	size_t done = 0, i = 0, j, end;
	while (s[i]) {
		if (s[i] == '"') {
			i = string_end(s, i);
			continue;
		}
		if (s[i] == '-' || isdigit((unsigned char)s[i])) {
			j = number_end(s, i);
			if (is_real(s + i, j - i)) {
				fwrite(s + done, 1, i - done, f);
				put_number(f, s + i, j - i);
				done = j;
			}
		} else if (s[i] == '[' && pretty && plain_array(s, i, &end)) {
			fwrite(s + done, 1, i - done, f);
			put_plain_array(f, s, i, end);
			done = j = end + 1;
		} else {
			j = i + 1;
		}
		i = j;
	}
	fwrite(s + done, 1, i - done, f);
	if (pretty)
		fputc('\n', f);
	free(s);
	return ferror(f) ? -EIO : 0;
}

/* ---- input ---- */

static json_t *parsed(json_t *v, const json_error_t *err, const char *name, struct diag *d)
{
	if (v)
		return v;
	struct src_pos pos = {diag_intern(name ? name : "<json>"), err->line > 0 ? err->line : 0,
	                      err->column > 0 ? err->column : 1};
	diag_error(d, &pos, "invalid JSON: %s", err->text);
	return NULL;
}

json_t *jsonio_parse(const char *text, size_t len, const char *name, struct diag *d)
{
	json_error_t err;
	return parsed(json_loadb(text, len, JSON_REJECT_DUPLICATES, &err), &err, name, d);
}

json_t *jsonio_parse_file(const char *path, struct diag *d)
{
	FILE *f = fopen(path, "rb");
	if (!f) {
		diag_error(d, NULL, "%s: %s", path, strerror(errno));
		return NULL;
	}
	json_error_t err;
	json_t *v = json_loadf(f, JSON_REJECT_DUPLICATES, &err);
	fclose(f);
	return parsed(v, &err, path, d);
}

const char *jsonio_get_str(const json_t *obj, const char *key, const char *def)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_string(v) ? json_string_value(v) : def;
}

double jsonio_num_value(const json_t *v)
{
	return json_is_number(v) ? json_number_value(v) : NAN;
}

double jsonio_get_num(const json_t *obj, const char *key, double def)
{
	const json_t *v = json_object_get(obj, key);
	if (json_is_null(v))
		return NAN;
	return json_is_number(v) ? json_number_value(v) : def;
}

bool jsonio_get_bool(const json_t *obj, const char *key, bool def)
{
	const json_t *v = json_object_get(obj, key);
	return json_is_boolean(v) ? json_is_true(v) : def;
}
