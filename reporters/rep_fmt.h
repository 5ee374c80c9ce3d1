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
 * are written as U+FFFD. A field a spreadsheet would take for a formula
 * (first character = + - @ TAB or CR, and not a plain decimal number such
 * as -3.5 or +1e3) gets a leading ' (docs/results.md). */
void rep_csv_field(FILE *f, const char *s);
/* Text from a scenario, a results.json or a command as one line of plain
 * Markdown text, for a table cell, a heading or a list item: no HTML and
 * no Markdown syntax can open in it. & < > as entities; \ ` * [ ] | ~ # !
 * backslash-escaped, and _ too unless it follows a letter or digit (or
 * such a kept _): there CommonMark never lets it open emphasis, so lat_ms
 * and mb_s_{bs}k stay as they are; CR, LF
 * and TAB as spaces; invalid UTF-8, NUL, DEL and the other C0 controls as
 * U+FFFD. report.html reads the same escapes back (rep_html_md). */
void rep_md_text(FILE *f, const char *s);
/* The same for a table cell (| is escaped by rep_md_text). */
void rep_md_cell(FILE *f, const char *s);
/* s as a code span `s`, or as rep_md_text when it holds a character that
 * would end or break one (` | \ < > & or a control character). */
void rep_md_code(FILE *f, const char *s);

#endif
