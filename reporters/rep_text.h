/* rep_text: text from a scenario, a results.json or a command as the
 * reporters write it, so that it cannot carry code: one CSV field with the
 * formula guard (results.csv, timeseries.csv), plain Markdown text and code
 * spans (report.md, read back by report.html). Numbers: base/rep_fmt.h. */
#ifndef BENCHGRID_REP_TEXT_H
#define BENCHGRID_REP_TEXT_H

#include <stdio.h>

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
