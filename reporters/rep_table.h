/* rep_table: the table of reporters, one row each, in the order they run:
 * X(name, ops, by_default): the name `report.formats` gives (the ops'
 * name), the struct reporter_ops, and whether it runs when report.formats
 * is absent. rep.c expands it into the ops it runs, report_opts_table.c
 * into report.formats' values (one list for both: a static table cannot
 * read another object's field, and the option table must not include the
 * reporters, which include it). A new reporter is one row here and its
 * header in rep.c. */
#ifndef BENCHGRID_REP_TABLE_H
#define BENCHGRID_REP_TABLE_H

#define REP_TABLE(X)                                                                                         \
	X("csv", rep_csv_ops, true)                                                                          \
	X("timeseries", rep_timeseries_ops, true)                                                            \
	X("markdown", rep_md_ops, true)                                                                      \
	X("html", rep_html_ops, true)                                                                        \
	X("expect-json", rep_expect_json_ops, true)                                                          \
	X("junit", rep_junit_ops, false)

#endif
