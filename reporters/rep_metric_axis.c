/* rep_metric_axis: see rep_metric_axis.h. */
#include "rep_metric_axis.h"

#include <stdio.h>
#include <string.h>

static bool copy_part(char *dst, size_t len, const char *src, size_t n)
{
	if (n >= len)
		return false;
	memcpy(dst, src, n);
	dst[n] = '\0';
	return true;
}

bool metric_axis_parse(const char *metric, struct metric_axis *ax, bool *bad)
{
	const char *open = metric ? strchr(metric, '{') : NULL, *close = open ? strchr(open, '}') : NULL;
	bool malformed = false;
	if (bad)
		*bad = false;
	if (!open) {
		malformed = metric && strchr(metric, '}');
	} else if (!close || close == open + 1 || strchr(close + 1, '{') || strchr(close + 1, '}') ||
	           memchr(open + 1, '{', (size_t)(close - open - 1)) ||
	           !copy_part(ax->name, sizeof(ax->name), open + 1, (size_t)(close - open - 1)) ||
	           !copy_part(ax->prefix, sizeof(ax->prefix), metric, (size_t)(open - metric)) ||
	           !copy_part(ax->suffix, sizeof(ax->suffix), close + 1, strlen(close + 1))) {
		malformed = true;
	} else {
		return true;
	}
	if (bad)
		*bad = malformed;
	return false;
}

void metric_axis_metric(const struct metric_axis *ax, const char *value, char *buf, size_t len)
{
	snprintf(buf, len, "%s%s%s", ax->prefix, value, ax->suffix);
}

/* The part of `name` between the axis's prefix and suffix, or NULL. */
static bool axis_value_of(const struct metric_axis *ax, const char *name, char *buf, size_t len)
{
	size_t n = strlen(name), p = strlen(ax->prefix), s = strlen(ax->suffix);
	if (n <= p + s || strncmp(name, ax->prefix, p) != 0 || strcmp(name + n - s, ax->suffix) != 0)
		return false;
	return copy_part(buf, len, name + p, n - p - s);
}

void metric_axis_values(const struct rep_ctx *cx, const struct rep_group *g, const char *step,
                        const struct metric_axis *ax, struct rep_strs *out)
{
	char v[128];
	for (size_t k = 0; k < g->n; k++) {
		const struct step_summary *ss = cell_summary_step(cx->sum[g->cells[k]], step);
		for (size_t j = 0; ss && j < ss->nm; j++)
			if (axis_value_of(ax, ss->m[j].name, v, sizeof(v)))
				rep_strs_add(out, v);
	}
	rep_strs_sort_values(out);
}
