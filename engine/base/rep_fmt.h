/* rep_fmt: numbers as benchgrid prints them: for people in report.md,
 * report.html, compare and the terminal's lines of a run (run/step_run,
 * run/progress), exact in results.csv and timeseries.csv. In base because
 * both the reporters and run use it; the escapes of text are the
 * reporters' (reporters/rep_text.h). */
#ifndef BENCHGRID_REP_FMT_H
#define BENCHGRID_REP_FMT_H

#include <stddef.h>

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

#endif
