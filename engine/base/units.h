/* units: sizes and durations as users write them.
 *
 * Sizes are binary, as fio and PostgreSQL read them: 4096, 4k = 4K = 4kB =
 * 4KiB = 4096; M/MB/MiB, G/GB/GiB, T/TB/TiB likewise (suffixes are case
 * insensitive; a trailing B alone means bytes). Durations: us, ms, s, min, h;
 * a bare number is seconds. Fractions are allowed where they give a whole
 * number of bytes ("1.5k"). Negative values, garbage and overflow fail. */
#ifndef BENCHGRID_UNITS_H
#define BENCHGRID_UNITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 0 on success; -EINVAL for garbage, -ERANGE for overflow. When `err` is not
 * NULL it receives a short reason ("unknown unit 'XB'"). */
int units_parse_size(const char *s, uint64_t *out, char *err, size_t errlen);
int units_parse_duration(const char *s, double *secs, char *err, size_t errlen);

/* Does the text carry a size unit / a duration unit (not a bare number)? */
bool units_has_size_suffix(const char *s);
bool units_has_duration_suffix(const char *s);

/* Plain numbers as YAML writes them: integer / floating point. */
bool units_is_int(const char *s, int64_t *out);
bool units_is_number(const char *s, double *out);

/* Human formatting: "4 KiB", "1.5 GiB", "250 ms". */
void units_format_size(uint64_t bytes, char *buf, size_t len);
void units_format_duration(double secs, char *buf, size_t len);

#endif
