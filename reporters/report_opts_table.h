/* report_opts_table: the options of `report:` and `expect:` (see
 * base/opt_table.h). */
#ifndef BENCHGRID_REPORT_OPTS_TABLE_H
#define BENCHGRID_REPORT_OPTS_TABLE_H

#include "opt_table.h"

extern const struct opt_table report_table;          /* "report" */
extern const struct opt_table report_pivot_table;    /* "report.pivot" */
extern const struct opt_table report_chart_table;    /* "report.charts" */
extern const struct opt_table expect_table;          /* "expect": an absolute entry */
extern const struct opt_table expect_ratio_table;    /* "expect.ratio": a ratio entry */
extern const struct opt_table expect_order_table;    /* "expect.order": an order entry */
extern const struct opt_table expect_ratio_of_table; /* "expect.ratio.of": its ratio: map */

/* report.formats' default as the docs show it: the names of rep_table.h
 * that run by default (test_rep_junit holds the two together). */
#define REPORT_FORMATS_DEFAULT "csv, timeseries, markdown, html, expect-json"

extern const char *const report_stat_values[];
extern const char *const report_kind_values[];
extern const char *const report_format_values[]; /* the names of rep_table.h */
extern const char *const expect_role_values[];   /* headline, control, held-out, self-test, info */

#endif
