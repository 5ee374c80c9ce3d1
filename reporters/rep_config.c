/* rep_config: the `report:` section (see rep_config.h). */
#include "rep_config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "rep_metric_axis.h"
#include "report_opts_table.h"
#include "results.h"

static int opt_str(const struct node *map, const char *key, const char *what, bool required, const char **out,
                   struct diag *d)
{
	const struct node *n = node_get(map, key);
	*out = NULL;
	if (!n) {
		if (required) {
			diag_error(d, &map->pos, "%s: missing '%s'", what, key);
			return -EINVAL;
		}
		return 0;
	}
	char full[128];
	snprintf(full, sizeof(full), "%s.%s", what, key);
	return node_as_string(n, full, out, d);
}

static int check_ref(const struct node *map, const char *key, const char *ref, struct diag *d)
{
	char step[128];
	const char *metric;
	if (ref && !results_split_ref(ref, step, sizeof(step), &metric)) {
		const struct node *n = key ? node_get(map, key) : map;
		diag_error(d, &n->pos, "'%s' must be step.metric (e.g. ro.tps)", ref);
		return -EINVAL;
	}
	return 0;
}

/* A {NAME} in the metric of `key` must be well formed and be the dimension
 * dim_a or dim_b (either may be NULL). */
static int check_axis(const struct node *map, const char *key, const char *ref, const char *dim_a,
                      const char *dim_b, const char *dims_text, struct diag *d)
{
	char step[128];
	const char *metric;
	struct metric_axis ax;
	bool bad;
	if (!ref || !results_split_ref(ref, step, sizeof(step), &metric))
		return 0;
	const struct node *n = key ? node_get(map, key) : map;
	if (!metric_axis_parse(metric, &ax, &bad)) {
		if (!bad)
			return 0;
		diag_error(d, &n->pos,
		           "'%s': write one {NAME} for an axis taken from metric names (e.g. dd.mb_s_{bs}k)",
		           ref);
		return -EINVAL;
	}
	if ((dim_a && strcmp(dim_a, ax.name) == 0) || (dim_b && strcmp(dim_b, ax.name) == 0))
		return 0;
	diag_error(d, &n->pos, "'%s' takes the axis {%s} from metric names, so %s must be %s", ref, ax.name,
	           dims_text, ax.name);
	return -EINVAL;
}

static int check_where(const struct node *w, struct diag *d)
{
	if (w && w->kind != NODE_MAP) {
		diag_error(d, &w->pos, "where must be a map of parameter: value");
		return -EINVAL;
	}
	return 0;
}

int rep_config_pivot(const struct node *n, struct pivot_cfg *p, struct diag *d)
{
	int rc = 0, st = 0;
	memset(p, 0, sizeof(*p));
	/* An unknown key is one error among the others, not the only one. */
	rc = opt_check_keys(n, "report.pivot", &report_pivot_table, d) < 0 ? -EINVAL : 0;
	if (rc && n->kind != NODE_MAP)
		return -EINVAL;
	rc |= opt_str(n, "rows", "report.pivot", true, &p->rows, d);
	rc |= opt_str(n, "cols", "report.pivot", false, &p->cols, d);
	rc |= opt_str(n, "value", "report.pivot", true, &p->value, d);
	rc |= opt_str(n, "title", "report.pivot", false, &p->title, d);
	if (node_get(n, "stat")) {
		rc |= node_as_enum(node_get(n, "stat"), "report.pivot.stat", report_stat_values, &st, d);
		p->stat = report_stat_values[st];
	}
	p->where = node_get(n, "where");
	rc |= check_where(p->where, d);
	if (rc == 0)
		rc = check_ref(n, "value", p->value, d);
	if (rc == 0)
		rc = check_axis(n, "value", p->value, p->rows, p->cols, "rows or cols", d);
	return rc ? -EINVAL : 0;
}

/* y: one step.metric, or a list of them (several metrics on one chart). */
static int chart_ys(const struct node *n, struct chart_cfg *c, struct diag *d)
{
	const struct node *y = node_get(n, "y");
	if (!y) {
		diag_error(d, &n->pos, "report.charts: missing 'y'");
		return -EINVAL;
	}
	if (y->kind != NODE_SEQ) {
		c->ny = 1;
		return node_as_string(y, "report.charts.y", &c->ys[0], d);
	}
	if (y->n == 0 || y->n > CHART_MAX_Y) {
		diag_error(d, &y->pos, "report.charts.y: give 1 to %d metrics", CHART_MAX_Y);
		return -EINVAL;
	}
	int rc = 0;
	for (size_t i = 0; i < y->n; i++)
		rc |= node_as_string(y->items[i], "report.charts.y", &c->ys[i], d);
	c->ny = y->n;
	return rc;
}

int rep_config_chart(const struct node *n, struct chart_cfg *c, struct diag *d)
{
	static const char *const log_values[] = {"x", "y", "both", NULL};
	int rc = 0, lg = -1;
	memset(c, 0, sizeof(*c));
	c->kind = CHART_AUTO;
	/* An unknown key is one error among the others, not the only one. */
	rc = opt_check_keys(n, "report.charts", &report_chart_table, d) < 0 ? -EINVAL : 0;
	if (rc && n->kind != NODE_MAP)
		return -EINVAL;
	if (node_get(n, "kind"))
		rc |=
		    node_as_enum(node_get(n, "kind"), "report.charts.kind", report_kind_values, &c->kind, d);
	/* the latency kinds need no x: time (heatmap, percentiles) or latency */
	rc |= opt_str(n, "x", "report.charts", !chart_kind_latency(c->kind), &c->x, d);
	if (!c->x)
		c->x = "time";
	rc |= chart_ys(n, c, d);
	c->y = c->ys[0];
	rc |= opt_str(n, "series", "report.charts", false, &c->series, d);
	rc |= opt_str(n, "title", "report.charts", false, &c->title, d);
	if (node_get(n, "log"))
		rc |= node_as_enum(node_get(n, "log"), "report.charts.log", log_values, &lg, d);
	/* heatmap and percentiles have time from 0 on x: no log x (issue 31) */
	if ((lg == 0 || lg == 2) && (c->kind == CHART_HEATMAP || c->kind == CHART_PERCENTILES)) {
		diag_error(d, &node_get(n, "log")->pos,
		           "report.charts.log: a %s chart's x is time from 0; give log: y (or none)",
		           report_kind_values[c->kind]);
		rc = -EINVAL;
	}
	if (lg < 0 && chart_kind_latency(c->kind)) /* the latency axis: log */
		lg = c->kind == CHART_CDF || c->kind == CHART_HISTOGRAM ? 0 : 1;
	c->xlog = lg == 0 || lg == 2;
	c->ylog = lg == 1 || lg == 2;
	c->where = node_get(n, "where");
	rc |= check_where(c->where, d);
	if (rc == 0 && c->ny > 1 && chart_kind_latency(c->kind)) {
		diag_error(d, &node_get(n, "y")->pos, "report.charts.y: a %s chart draws one latency metric",
		           report_kind_values[c->kind]);
		rc = -EINVAL;
	}
	/* a list draws each item on the same x; an axis taken from metric names
	 * ({bs}) is read from the first item only, so it is refused (review B2) */
	for (size_t i = 0; c->ny > 1 && i < c->ny; i++)
		if (strchr(c->ys[i], '{')) {
			diag_error(d, &node_get(n, "y")->items[i]->pos,
			           "report.charts.y: '%s': a list of metrics cannot take an axis from metric "
			           "names; give it as the only y",
			           c->ys[i]);
			rc = -EINVAL;
		}
	for (size_t i = 0; rc == 0 && i < c->ny; i++) {
		/* check_ref and check_axis name the key; for a list, its item */
		const struct node *y = node_get(n, "y");
		rc = check_ref(c->ny > 1 ? y->items[i] : n, c->ny > 1 ? NULL : "y", c->ys[i], d);
		if (rc == 0)
			rc = check_axis(c->ny > 1 ? y->items[i] : n, c->ny > 1 ? NULL : "y", c->ys[i], c->x,
			                NULL, "x", d);
	}
	return rc ? -EINVAL : 0;
}

size_t rep_config_count(const struct node *n)
{
	return !n ? 0 : n->kind == NODE_SEQ ? n->n : 1;
}

const struct node *rep_config_at(const struct node *n, size_t i)
{
	return n->kind == NODE_SEQ ? n->items[i] : n;
}

int rep_check_config(const struct node *report, struct diag *d)
{
	int rc = 0;
	if (!report || report->kind == NODE_NULL)
		return 0;
	rc = opt_check_keys(report, "report", &report_table, d) < 0 ? -EINVAL : 0;
	if (rc && report->kind != NODE_MAP)
		return -EINVAL;
	if (opt_check_value(report, "formats", "report", &report_table, d) < 0) /* names: rep_table.h */
		rc = -EINVAL;
	const struct node *pv = node_get(report, "pivot"), *ch = node_get(report, "charts");
	for (size_t i = 0; i < rep_config_count(pv); i++) {
		struct pivot_cfg p;
		if (rep_config_pivot(rep_config_at(pv, i), &p, d) < 0)
			rc = -EINVAL;
	}
	for (size_t i = 0; i < rep_config_count(ch); i++) {
		struct chart_cfg c;
		if (rep_config_chart(rep_config_at(ch, i), &c, d) < 0)
			rc = -EINVAL;
	}
	return rc;
}
