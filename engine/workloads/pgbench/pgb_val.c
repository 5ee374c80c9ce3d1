/* pgb_val: values of pgbench variables — text storage, pgbench's reading
 * of a text value, and formatting for SQL (see pgb_expr.h). */
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include "pgb_val.h"

int pgb_val_set_text(struct pgb_val *v, const char *s, size_t len)
{
	if (len + 1 > v->cap) {
		size_t cap = len + 1 < 32 ? 32 : len + 1;
		char *nb = malloc(cap);

		if (!nb)
			return -ENOMEM;
		free(v->buf);
		v->buf = nb;
		v->cap = cap;
	}
	memmove(v->buf, s, len); /* s may point into v->buf */
	v->buf[len] = '\0';
	v->type = PGB_V_TEXT;
	v->len = len;
	return 0;
}

int pgb_val_set(struct pgb_val *dst, const struct pgb_val *src)
{
	if (src == dst)
		return 0;
	if (src->type == PGB_V_TEXT)
		return pgb_val_set_text(dst, src->buf, src->len);
	dst->type = src->type;
	switch (src->type) {
	case PGB_V_BOOL: dst->b = src->b; break;
	case PGB_V_DOUBLE: dst->d = src->d; break;
	default: dst->i = src->i; break;
	}
	return 0;
}

void pgb_val_clear(struct pgb_val *v)
{
	free(v->buf);
	*v = (struct pgb_val){.type = PGB_V_UNSET};
}

/* pgbench's is_an_int: optional spaces, an optional sign, then only
 * digits to the end (no trailing spaces). */
static bool pgbv_looks_int(const char *s)
{
	while (*s && isspace((unsigned char)*s))
		s++;
	if (*s == '+' || *s == '-')
		s++;
	if (*s && !isdigit((unsigned char)*s))
		return false;
	while (*s && isdigit((unsigned char)*s))
		s++;
	return *s == '\0';
}

/* A decimal int64 (spaces, sign, digits, trailing spaces); false on
 * overflow or syntax. */
static bool pgbv_parse_int(const char *s, int64_t *out)
{
	bool neg = false;
	uint64_t acc = 0, lim;

	while (*s && isspace((unsigned char)*s))
		s++;
	if (*s == '-' || *s == '+')
		neg = *s++ == '-';
	if (!isdigit((unsigned char)*s))
		return false;
	lim = neg ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	while (isdigit((unsigned char)*s)) {
		unsigned dgt = (unsigned)(*s++ - '0');

		if (acc > (lim - dgt) / 10)
			return false;
		acc = acc * 10 + dgt;
	}
	while (*s && isspace((unsigned char)*s))
		s++;
	if (*s)
		return false;
	*out = neg ? (int64_t)(0 - acc) : (int64_t)acc;
	return true;
}

static bool pgbv_prefix_of(const char *s, size_t n, const char *word)
{
	return n <= strlen(word) && strncasecmp(s, word, n) == 0;
}

int pgb_val_from_text(const struct pgb_val *v, const char *name, struct pgb_val *out, char *err,
                      size_t errlen)
{
	if (v->type != PGB_V_TEXT) {
		out->type = v->type;
		out->i = v->i;
		if (v->type == PGB_V_DOUBLE)
			out->d = v->d;
		return 0;
	}
	const char *s = v->buf;
	size_t n = v->len;

	if (n == 0) {
		snprintf(err, errlen, "malformed variable \"%s\" value: \"\"", name);
		return -1;
	}
	if (!strcasecmp(s, "null")) {
		out->type = PGB_V_NULL;
		out->i = 0;
	} else if (pgbv_prefix_of(s, n, "true") || pgbv_prefix_of(s, n, "yes") || !strcasecmp(s, "on")) {
		out->type = PGB_V_BOOL;
		out->b = true;
	} else if (pgbv_prefix_of(s, n, "false") || pgbv_prefix_of(s, n, "no") || !strcasecmp(s, "off") ||
	           !strcasecmp(s, "of")) {
		out->type = PGB_V_BOOL;
		out->b = false;
	} else if (pgbv_looks_int(s)) {
		if (!pgbv_parse_int(s, &out->i)) {
			snprintf(err, errlen, "value \"%.64s\" is out of range for type bigint", s);
			return -1;
		}
		out->type = PGB_V_INT;
	} else {
		char *end;

		errno = 0;
		out->d = strtod(s, &end);
		if (errno != 0 || end == s || *end != '\0') {
			snprintf(err, errlen, "malformed variable \"%s\" value: \"%.64s\"", name, s);
			return -1;
		}
		out->type = PGB_V_DOUBLE;
	}
	return 0;
}

/* Decimal digits of an int64, hand-rolled: this runs for every parameter
 * of every statement. */
static size_t pgbv_int(int64_t i, char *buf, size_t len)
{
	if (!len)
		return 0;
	char tmp[24];
	size_t n = 0, k = 0;
	uint64_t u = i < 0 ? -(uint64_t)i : (uint64_t)i;

	do {
		tmp[n++] = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (i < 0 && k + 1 < len)
		buf[k++] = '-';
	while (n && k + 1 < len)
		buf[k++] = tmp[--n];
	buf[k] = '\0';
	return k;
}

static size_t pgbv_copy(const char *s, size_t n, char *buf, size_t len)
{
	if (!len)
		return 0;
	if (n > len - 1)
		n = len - 1;
	memcpy(buf, s, n);
	buf[n] = '\0';
	return n;
}

size_t pgb_val_format_double(double d, char *buf, size_t len)
{
	/* PostgreSQL's snprintf, which pgbench uses, spells these out */
	if (isnan(d))
		return pgbv_copy("NaN", 3, buf, len);
	if (isinf(d))
		return d < 0 ? pgbv_copy("-Infinity", 9, buf, len) : pgbv_copy("Infinity", 8, buf, len);
	int n = snprintf(buf, len, "%.*g", DBL_DIG, d);

	return n < 0 ? 0 : (size_t)n >= len ? len - 1 : (size_t)n;
}

size_t pgb_val_format(const struct pgb_val *v, char *buf, size_t len)
{
	switch (v->type) {
	case PGB_V_INT: return pgbv_int(v->i, buf, len);
	case PGB_V_DOUBLE: return pgb_val_format_double(v->d, buf, len);
	case PGB_V_BOOL: return pgbv_copy(v->b ? "true" : "false", v->b ? 4 : 5, buf, len);
	case PGB_V_NULL: return pgbv_copy("NULL", 4, buf, len);
	case PGB_V_TEXT: return pgbv_copy(v->buf, v->len, buf, len);
	default: return pgbv_copy("", 0, buf, len);
	}
}

const char *pgb_val_str(const struct pgb_val *v, char *buf, size_t len, size_t *n)
{
	if (v->type == PGB_V_TEXT) {
		*n = v->len;
		return v->buf;
	}
	*n = pgb_val_format(v, buf, len);
	return buf;
}
