/* pgb_val: the values of pgbench variables and expressions: int, double,
 * boolean, null, and text (from \gset, \aset, \setshell, -D), with
 * pgbench's reading of a text value and its formatting for SQL. */
#ifndef BENCHGRID_PGB_VAL_H
#define BENCHGRID_PGB_VAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* UNSET: never assigned (reading it is "undefined variable"). TEXT: a
 * string from \gset, \aset, \setshell or -D, kept as pgbench keeps it and
 * converted when an expression reads it (pgb_val_from_text). */
enum pgb_vtype { PGB_V_UNSET, PGB_V_NULL, PGB_V_BOOL, PGB_V_INT, PGB_V_DOUBLE, PGB_V_TEXT };

/* A value. buf is the value's own text buffer (TEXT), kept when the value
 * changes type so that the next text reuses it: assign variables with
 * pgb_val_set / pgb_val_set_text, never with '=', and free with
 * pgb_val_clear. Expression results never use buf. */
struct pgb_val {
	enum pgb_vtype type;
	union {
		int64_t i;
		double d;
		bool b;
		size_t len; /* TEXT: length of buf's text */
	};
	char *buf;  /* TEXT: NUL-terminated text; owned */
	size_t cap; /* bytes allocated at buf */
};

/* Store a copy of s[0..len) as a TEXT value, reusing v's buffer when large
 * enough. 0 or -ENOMEM (v unchanged). */
int pgb_val_set_text(struct pgb_val *v, const char *s, size_t len);
/* dst = src (any type; a TEXT src is copied into dst's buffer). 0 or
 * -ENOMEM. */
int pgb_val_set(struct pgb_val *dst, const struct pgb_val *src);
/* Free v's buffer; v becomes UNSET. */
void pgb_val_clear(struct pgb_val *v);
/* A TEXT value as pgbench reads it (makeVariableValue): "null" -> null;
 * a prefix of "true"/"yes", or "on" -> true; a prefix of "false"/"no", or
 * "off"/"of" -> false (case-insensitive); an integer (optional spaces and
 * sign, digits) -> int, or an error if out of range; otherwise a whole
 * strtod double, or an error. 0, or -1 with a message in err. Other types
 * are copied. Never allocates. */
int pgb_val_from_text(const struct pgb_val *v, const char *name, struct pgb_val *out, char *err,
                      size_t errlen);

/* Format a value as pgbench substitutes it in SQL: integers exactly,
 * doubles "%.15g", booleans true/false, null NULL, text as is. Truncates
 * to len - 1 bytes; returns the length written. */
size_t pgb_val_format(const struct pgb_val *v, char *buf, size_t len);
/* A double as pgbench prints it: "%.15g", NaN, Infinity, -Infinity. */
size_t pgb_val_format_double(double d, char *buf, size_t len);
/* The same text without copying a TEXT value: returns v->buf for TEXT,
 * else formats into buf (>= 32 bytes). *n receives the length. */
const char *pgb_val_str(const struct pgb_val *v, char *buf, size_t len, size_t *n);

#endif
