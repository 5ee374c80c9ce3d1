/* report_opts_table: `report:` and `expect:` (docs/results.md). */
#include "report_opts_table.h"

#include "rep_table.h"

#define ROWS(a) (a), sizeof(a) / sizeof((a)[0])

const char *const report_stat_values[] = {"mean", "median", "min", "max", "stddev", "cv", "n", NULL};
#define NAME_OF(name, ops, on) name,
const char *const report_format_values[] = {REP_TABLE(NAME_OF) NULL};
const char *const report_kind_values[] = {"line", "bar", "cdf", "histogram", "heatmap", "percentiles", NULL};
static const char *const report_log_values[] = {"x", "y", "both", NULL};
const char *const expect_role_values[] = {"headline", "control", "held-out", "self-test", "info", NULL};

#define WHERE                                                                                                \
	"{\"type\":\"object\",\"additionalProperties\":{\"type\":[\"string\",\"number\",\"boolean\","        \
	"\"array\"]}}"
#define XFAIL "{\"type\":[\"boolean\",\"string\"]}"
#define NOTE_ROW                                                                                             \
	{                                                                                                    \
		"note", OPT_STRING, NULL, NULL, NULL,                                                        \
		    "free text: the source of the figure or the published claim", 0, NULL, NULL, NULL        \
	}
#define STRICT_ROW                                                                                           \
	{                                                                                                    \
		"strict", OPT_BOOL, NULL, "false", NULL,                                                     \
		    "a FAIL (or XPASS) of this entry makes benchgrid run exit non-zero", 0, NULL, NULL, NULL \
	}
#define XFAIL_ROW                                                                                            \
	{                                                                                                    \
		"xfail", OPT_ANY, NULL, "false", NULL,                                                       \
		    "the measurement is expected not to match: true, or the reason", 0, NULL, XFAIL, NULL    \
	}

/* clang-format off */
#define BOUND_ROWS \
    {"min", OPT_NUMBER, NULL, NULL, NULL, "the lowest value that passes (instead of published and tolerance)", 0, NULL, NULL, NULL}, \
    {"max", OPT_NUMBER, NULL, NULL, NULL, "the highest value that passes (instead of published and tolerance)", 0, NULL, NULL, NULL}
#define ROLE_ROW(def) \
    {"role", OPT_ENUM, NULL, def, expect_role_values, "what the entry proves: the publication's claim (headline), the shape without the model (control), a figure no model was fitted to (held-out), a test of the tool (self-test) or context (info)", 0, NULL, NULL, NULL}
#define BIND_ROW \
    {"bind", OPT_ANY, NULL, "80% when a compared cell has models", NULL, "INCONCLUSIVE unless each compared cell with models on had a model at or above this utilisation (N%, or a fraction), and no compared cell was CPU-bound; none: off", 0, NULL, \
     "{\"anyOf\":[{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":1},{\"type\":\"string\"}]}", NULL}

static const struct opt_desc report_rows[] = {
    {"formats", OPT_ENUM, NULL, REPORT_FORMATS_DEFAULT, report_format_values, "the reports written: one name, or a list ([] writes none; results.json is always written)", OPT_OR_LIST, NULL, NULL, NULL},
    {"pivot", OPT_LIST, NULL, NULL, NULL, "pivot tables of report.md: one, or a list", OPT_OR_LIST, "report.pivot", NULL, NULL},
    {"charts", OPT_LIST, NULL, NULL, NULL, "SVG charts of report.md: one, or a list", OPT_OR_LIST, "report.charts", NULL, NULL},
};

static const struct opt_desc pivot_rows[] = {
    {"rows", OPT_STRING, NULL, NULL, NULL, "parameter name: one row per value", OPT_REQUIRED, NULL, NULL, NULL},
    {"cols", OPT_STRING, NULL, "one column", NULL, "parameter name: one column per value", 0, NULL, NULL, NULL},
    {"value", OPT_STRING, NULL, NULL, NULL, "step.metric: the metric in the cells", OPT_REQUIRED, NULL, NULL, NULL},
    {"stat", OPT_ENUM, NULL, "mean", report_stat_values, "which statistic over the repeats", 0, NULL, NULL, NULL},
    {"where", OPT_MAP, NULL, "all cells", NULL, "restrict to matching cells: parameter: value or [values]", 0, NULL, WHERE, NULL},
    {"title", OPT_STRING, NULL, "the value", NULL, "table heading", 0, NULL, NULL, NULL},
};

static const struct opt_desc chart_rows[] = {
    {"x", OPT_STRING, NULL, "time for the latency kinds", NULL, "time, a parameter name, or the {NAME} of y (required for line and bar)", 0, NULL, NULL, NULL},
    {"y", OPT_STRING, NULL, NULL, NULL, "step.metric, or a list of them on one chart (a second y axis when their units differ); for x: time, series of the step; for the latency kinds, one latency metric of the step (rr.read.lat_p99_us, tpcb.lat_p99_ms): its distribution is drawn", OPT_REQUIRED | OPT_OR_LIST, NULL, NULL, NULL},
    {"series", OPT_STRING, NULL, NULL, NULL, "parameter name: one line (or bar colour) per value", 0, NULL, NULL, NULL},
    {"where", OPT_MAP, NULL, "all cells", NULL, "restrict to matching cells", 0, NULL, WHERE, NULL},
    {"title", OPT_STRING, NULL, "Y by X (and SERIES)", NULL, "chart title", 0, NULL, NULL, NULL},
    {"kind", OPT_ENUM, NULL, "line when every x is a plain number, else bar", report_kind_values, "drawing: line or bar; or a latency chart (docs/reports.md): cdf (one line per cell), histogram, heatmap (time x latency, one per cell), percentiles (p50, p99, p99.9 per interval, one per cell)", 0, NULL, NULL, NULL},
    {"log", OPT_ENUM, NULL, "linear; x for cdf and histogram, y for heatmap and percentiles", report_log_values, "logarithmic axes: x, y or both", 0, NULL, NULL, NULL},
};

static const struct opt_desc expect_rows[] = {
    {"where", OPT_MAP, NULL, "all cells", NULL, "the cells this entry applies to: parameter: value or [values]", 0, NULL, WHERE, NULL},
    ROLE_ROW("info"),
    XFAIL_ROW,
    STRICT_ROW,
    NOTE_ROW,
};

static const struct opt_desc ratio_rows[] = {
    {"ratio", OPT_MAP, NULL, NULL, NULL, "{of: step.metric, where: {param: value}, to: {param: value} or step.metric}", OPT_REQUIRED, "expect.ratio.of", NULL, NULL},
    {"published", OPT_NUMBER, NULL, NULL, NULL, "the published ratio (where / to); with tolerance, or give min/max instead", 0, NULL, NULL, NULL},
    {"tolerance", OPT_ANY, NULL, NULL, NULL, "N% of published, a plain number (absolute), or [lower, upper]", 0, NULL,
     "{\"type\":[\"string\",\"number\",\"array\"]}", NULL},
    BOUND_ROWS,
    ROLE_ROW("headline"),
    BIND_ROW,
    NOTE_ROW,
    XFAIL_ROW,
    STRICT_ROW,
};

static const struct opt_desc order_rows[] = {
    {"order", OPT_LIST, NULL, NULL, NULL, "[{param: value}, \"<\" or \">\", {param: value}], or [step.metric, \"<\", step.metric]", OPT_REQUIRED, NULL,
     "{\"type\":\"array\",\"minItems\":3,\"maxItems\":3}", NULL},
    {"metric", OPT_STRING, NULL, NULL, NULL, "step.metric compared between the two cells", 0, NULL, NULL, NULL},
    {"where", OPT_MAP, NULL, "all cells", NULL, "the cells to compare (two metrics of each cell)", 0, NULL, WHERE, NULL},
    ROLE_ROW("headline"),
    BIND_ROW,
    NOTE_ROW,
    XFAIL_ROW,
    STRICT_ROW,
};

static const struct opt_desc ratio_of_rows[] = {
    {"of", OPT_STRING, NULL, NULL, NULL, "step.metric", OPT_REQUIRED, NULL, NULL, NULL},
    {"where", OPT_MAP, NULL, NULL, NULL, "the cells of the numerator: parameter: value", 0, NULL, WHERE, NULL},
    {"to", OPT_ANY, NULL, NULL, NULL, "the denominator: {param: value} (other cells) or step.metric (same cell)", OPT_REQUIRED, NULL,
     "{\"type\":[\"object\",\"string\"]}", NULL},
};
/* clang-format on */

const struct opt_table report_table = {
    "report", "report:", "Which reports are written; the pivot tables and charts of report.md.",
    ROWS(report_rows), false};
const struct opt_table report_pivot_table = {"report.pivot", "report: pivot:", "", ROWS(pivot_rows), false};
const struct opt_table report_chart_table = {"report.charts", "report: charts:", "", ROWS(chart_rows), false};
const struct opt_table expect_table = {"expect", "expect: (a published value)",
                                       "Any other key is step.metric: [value, lower, upper] or [value, tol]. "
                                       "An entry with ratio: or order: is one of the two below.",
                                       ROWS(expect_rows), true};
const struct opt_table expect_ratio_table = {"expect.ratio", "expect: (a ratio)", "", ROWS(ratio_rows),
                                             false};
const struct opt_table expect_order_table = {"expect.order", "expect: (an order)", "", ROWS(order_rows),
                                             false};
const struct opt_table expect_ratio_of_table = {"expect.ratio.of", "expect: ratio:", "", ROWS(ratio_of_rows),
                                                false};
