/* rep_fmt: numbers and text as the reporters print them. */
#ifndef BENCHGRID_REP_FMT_H
#define BENCHGRID_REP_FMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

/* A number as the shortest text that reads back to the same double; "" for
 * NaN/inf. */
void rep_fmt_exact(double v, char *buf, size_t len);
/* A number for people, the one format of report.md, report.html and the
 * terminal's lines (docs/reports.md): "-" for NaN/inf; whole numbers from
 * 1000 on (10270, 25800); 4 significant digits below, trailing zeros
 * dropped (512.3, 1.5, 0.0123); an exponent only below 1e-4 or from 1e15. */
void rep_fmt_human(double v, char *buf, size_t len);
/* A value with its unit for people: "1.234 ms", "25800 iops"; a time in
 * ns, us, ms or s is rescaled to the unit that puts it between 1 and 1000
 * (1234 us -> "1.234 ms", 0.5 ms -> "500 us"). No unit: rep_fmt_human. */
void rep_fmt_quantity(double v, const char *unit, char *buf, size_t len);
/* A bound of a tolerance: rep_fmt_human, or "-inf" / "inf" for an open side. */
void rep_fmt_bound(double v, char *buf, size_t len);
/* One CSV field, RFC 4180 (quoted when it holds , " CR LF or edge spaces).
 * Invalid UTF-8, NUL, DEL and the C0 controls other than TAB, CR and LF
 * are written as U+FFFD. */
void rep_csv_field(FILE *f, const char *s);
/* Text for a Markdown table cell: | escaped, CR and LF as spaces; invalid
 * UTF-8, NUL, DEL and the other C0 controls but TAB as U+FFFD. */
void rep_md_cell(FILE *f, const char *s);

#endif
