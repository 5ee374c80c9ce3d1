/* jsonio: benchgrid's JSON, on top of jansson.
 *
 * Values are jansson's json_t; this module adds what jansson leaves to us:
 *  - strings from arbitrary C bytes: jansson refuses invalid UTF-8, so
 *    jsonio_string() replaces every invalid byte (and NUL) by U+FFFD instead
 *    of failing (util/utf8.h), and jsonio_set() does the same for keys
 *    (jansson would drop the member); control characters are kept, and
 *    jansson's output escapes them (\n, \u001b);
 *  - numbers as our files write them: a double that is a whole number below
 *    9e15 is an integer, NaN and infinities are null, and every real prints in
 *    its shortest form that reads back equal (jansson would print 231.7 as
 *    231.69999999999999);
 *  - output: jsonio_dump() prints compact or pretty (two spaces) text, and in
 *    pretty text an array of plain numbers stays on one line (a series of
 *    thousands of samples would otherwise take a line each);
 *  - parsing with errors as diagnostics at "name:line:col".
 * Nesting depth is not limited by the writer; jansson's parser accepts 2048
 * levels. */
#ifndef BENCHGRID_JSONIO_H
#define BENCHGRID_JSONIO_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "diag.h"

/* A JSON string from n bytes of s (invalid UTF-8 and NUL become U+FFFD). */
json_t *jsonio_string(const char *s, size_t n);
/* The same for a C string; NULL gives null. */
json_t *jsonio_str(const char *s);
/* A number: whole values below 9e15 as integers, non-finite as null. */
json_t *jsonio_num(double v);
/* A JSON number given as text (e.g. a scenario's unquoted "10" or "1.5"): an
 * integer when it is one and fits 64 bits, else a real. NULL when the text is
 * not a number strtod reads whole. */
json_t *jsonio_number_text(const char *text);
/* Is s exactly a JSON number (RFC 8259's grammar, under 40 characters)? */
bool jsonio_is_number_text(const char *s);
/* The text a number reads back as from results.json: integers as "%lld",
 * reals in their shortest round-trip form (see jsonio_format_real). */
void jsonio_number_canonical(const json_t *num, char *buf, size_t len);
/* Add value to obj under key (the reference is taken; NULL values are null).
 * Invalid bytes of the key become U+FFFD; a NULL key drops the value. */
void jsonio_set(json_t *obj, const char *key, json_t *value);
/* Append value to arr (the reference is taken; NULL values are null). */
void jsonio_push(json_t *arr, json_t *value);

/* Shortest "%.15g".."%.17g" text of v that reads back equal; ".0" is added
 * when that text would read as an integer, so a real stays a real. */
void jsonio_format_real(double v, char *buf, size_t len);
/* Write v to f, compact (one line) or pretty (two-space indent, ending with
 * a newline). Returns 0 or -ENOMEM / -EIO. */
int jsonio_dump(const json_t *v, FILE *f, bool pretty);

/* Parse text[0..len) (an object or array). On error returns NULL and adds
 * "name:line:col: error: invalid JSON: ..." to d. Duplicate keys are
 * refused, as are NUL characters (\u0000). */
json_t *jsonio_parse(const char *text, size_t len, const char *name, struct diag *d);
/* Read and parse a whole file; NULL with a diagnostic on failure. */
json_t *jsonio_parse_file(const char *path, struct diag *d);

/* Typed members of an object, with a default for absent or mistyped ones. */
const char *jsonio_get_str(const json_t *obj, const char *key, const char *def);
double jsonio_get_num(const json_t *obj, const char *key, double def); /* null -> NaN */
bool jsonio_get_bool(const json_t *obj, const char *key, bool def);
/* A number's value, NaN for null or anything that is not a number. */
double jsonio_num_value(const json_t *v);

#endif
