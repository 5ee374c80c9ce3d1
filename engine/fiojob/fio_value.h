/* fio_value: fio's value forms (HOWTO "Parameter types"), read exactly as fio
 * reads them, and written back in benchgrid's units.
 *
 * Sizes: a decimal or 0x number with an optional unit prefix k/m/g/t/p (and
 * an optional 'i' and 'b'), case insensitive. With kb_base=1024 (fio's
 * default) the prefixes are fio's "compatibility" ones: k = kb = ki = 1024,
 * kib = 1000; with kb_base=1000: k = kb = ki = 1000, kib = 1024. That is
 * what fio 3.33 does (tests/fiojob/import_fio.sh e2e asks it); fio's
 * HOWTO says "ki" swaps too, but only the full "kib" form does.
 * Times: d, h, m (minutes), s/sec, ms/msec, us/usec, case insensitive; a
 * bare number is in the option's default unit (seconds, or microseconds for
 * thinktime). Booleans: 0 or 1, as fio accepts them. */
#ifndef BENCHGRID_FIO_VALUE_H
#define BENCHGRID_FIO_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* 0, or -1 with a reason in err. */
int fio_parse_size(const char *s, unsigned kb_base, uint64_t *out, char *err, size_t errlen);
/* Time in microseconds; default_us is the unit of a bare number. */
int fio_parse_time(const char *s, uint64_t default_us, uint64_t *out_us, char *err, size_t errlen);
int fio_parse_bool(const char *s, bool *out);
int fio_parse_uint(const char *s, uint64_t *out);

/* Exact benchgrid forms: "4KiB", "1GiB", "1000" (bytes); "10min", "250ms". */
void fio_format_size(uint64_t bytes, char *buf, size_t len);
void fio_format_time(uint64_t us, char *buf, size_t len);

#endif
