/* ref_check: what `report:` and `expect:` refer to (see ref_check.h). */
#include "ref_check.h"

#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "group_total.h"
#include "rep_config.h"
#include "results.h"
#include "spec_steps.h"
#include "workload_table.h"

/* Metrics any step may carry, whatever its kind: the system monitor's
 * (monitor.c, monitor_devs.c) and the device models' (devmodel.c). */
static const char *const every_step[] = {"sys_*_pct", "disk_*", "disk.*.*", "model.*.*", NULL};
/* The server activity's (pg_act_results.c), during pgbench and exec steps. */
static const char *const server_activity[] = {"pg_*", NULL};

struct ref_step {
	char *name;
	const char *kind;                 /* its workload's key (io, pgbench, exec) */
	const struct workload_metrics *m; /* NULL: a kind the steps' check refuses */
	bool dynamic;
	const struct node *headline; /* its `headline:`, or NULL */
};

struct names {
	const char **v;
	size_t n;
};

struct refs {
	struct names params;
	struct ref_step *steps;
	size_t nsteps;
	struct names lua; /* result:metric("NAME", ...), result:sample in hooks: */
	bool lua_dynamic; /* a hook names a metric otherwise, or hooks_file: */
	bool names_vary;  /* a step name: takes ${...} or !lua: other cells name other steps */
	char *lua_owned;  /* lua.v point into it */
};

static bool has(const struct names *l, const char *x)
{
	for (size_t i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], x))
			return true;
	return false;
}

static void add(struct names *l, const char *x)
{
	if (has(l, x))
		return;
	const char **nv = realloc(l->v, (l->n + 2) * sizeof(*nv));
	if (!nv)
		return;
	l->v = nv;
	l->v[l->n++] = x;
	l->v[l->n] = NULL;
}

static void add_keys(struct names *l, const struct node *map)
{
	for (size_t i = 0; map && map->kind == NODE_MAP && i < map->n; i++)
		add(l, map->keys[i]);
}

/* The parameters: the keys of matrix:, of its zips and includes. */
static void read_params(const struct node *m, struct names *out)
{
	for (size_t i = 0; m && m->kind == NODE_MAP && i < m->n; i++) {
		const char *k = m->keys[i];
		const struct node *v = m->items[i];
		if (!strcmp(k, "zip") || !strcmp(k, "include")) {
			for (size_t z = 0; z < (v->kind == NODE_SEQ ? v->n : 1); z++)
				add_keys(out, v->kind == NODE_SEQ ? v->items[z] : v);
		} else if (strcmp(k, "exclude") != 0 && strcmp(k, "filter") != 0) {
			add(out, k);
		}
	}
}

/* The names the hooks give to result:metric(...) and result:sample(...)
 * (parsers defined there too): a string literal is
 * declared; anything else (a variable, a concatenation) may be any name. */
static void read_lua(const struct node *scenario, struct refs *r)
{
	const struct node *h = node_get(scenario, "hooks");
	/* The file is not read here: its metrics are not known. */
	r->lua_dynamic = node_get(scenario, "hooks_file") != NULL;
	if (!h || h->kind != NODE_SCALAR || !h->text || !(r->lua_owned = strdup(h->text)))
		return;
	for (char *p = r->lua_owned; (p = strpbrk(p, ":"));) {
		p++;
		if (strncmp(p, "metric(", 7) && strncmp(p, "sample(", 7))
			continue;
		p += 7;
		while (*p == ' ' || *p == '\t')
			p++;
		char q = *p;
		char *end = q == '"' || q == '\'' ? strchr(p + 1, q) : NULL;
		char *after = end ? end + 1 : NULL;
		while (after && (*after == ' ' || *after == '\t'))
			after++;
		if (!end || *after != ',' || memchr(p + 1, '\\', (size_t)(end - p - 1))) {
			r->lua_dynamic = true;
			continue;
		}
		*end = '\0';
		add(&r->lua, p + 1);
		p = end + 1;
	}
}

/* A parallel group's total (group_reporting: true) is one more step: with
 * read.* and write.* when its steps may move data both ways. */
static const struct workload_metrics group_metrics = {.names = group_total_names};
static const struct workload_metrics group_metrics_one_way = {.names = group_total_names_one_way};

/* Which ways a step's rw moves data: 1 read, 2 write, 3 both or not known
 * before it runs (${...}, !lua). */
static int ways(const struct node *step)
{
	const struct node *io = node_get(step, "io"), *rw = io ? node_get(io, "rw") : NULL;
	if (!rw)
		return 1; /* the io step's default rw: read */
	if (rw->kind != NODE_SCALAR || strstr(rw->text, "${") || !strcmp(rw->text, "randrw") ||
	    !strcmp(rw->text, "rw") || !strcmp(rw->text, "readwrite"))
		return 3;
	return strstr(rw->text, "read") ? 1 : 2;
}

static void read_total(const struct node *s, const struct node *all, struct refs *r)
{
	bool first;
	const char *g = spec_step_group(s, &first);
	if (!g || !spec_step_group_totals(s))
		return;
	long gi = spec_step_group_index(s);
	int w = 0;
	for (size_t i = 0; i < r->nsteps; i++)
		if ((r->steps[i].m == &group_metrics || r->steps[i].m == &group_metrics_one_way) &&
		    !strcmp(r->steps[i].name, g))
			return;
	for (size_t i = 0; i < all->n; i++)
		if (spec_step_group_index(all->items[i]) == gi)
			w |= ways(all->items[i]);
	struct ref_step *st = &r->steps[r->nsteps];
	if (!(st->name = strdup(g)))
		return;
	st->kind = "io";
	st->m = w == 3 ? &group_metrics : &group_metrics_one_way;
	r->nsteps++;
}

static void read_steps(const struct node *steps, struct refs *r)
{
	/* room for each step and each group's total */
	if (!steps || steps->kind != NODE_SEQ || !(r->steps = calloc(2 * steps->n + 1, sizeof(*r->steps))))
		return;
	for (size_t i = 0; i < steps->n; i++) {
		const struct node *s = steps->items[i], *nn = node_get(s, "name");
		struct ref_step *st = &r->steps[r->nsteps];
		if (nn && nn->kind == NODE_SCALAR)
			st->name = strdup(nn->text);
		else if (asprintf(&st->name, "step%zu", i + 1) < 0)
			st->name = NULL;
		if (!st->name)
			continue;
		for (size_t k = 0; s->kind == NODE_MAP && k < s->n && !st->m; k++)
			if ((st->m = workload_metrics_of(s->keys[k]))) {
				st->kind = s->keys[k];
				st->dynamic = st->m->dynamic && st->m->dynamic(s->items[k]);
			}
		st->headline = node_get(s, "headline");
		r->nsteps++;
		read_total(s, steps, r);
	}
}

static void refs_free(struct refs *r)
{
	for (size_t i = 0; i < r->nsteps; i++)
		free(r->steps[i].name);
	free(r->steps);
	free(r->params.v);
	free(r->lua.v);
	free(r->lua_owned);
}

static const struct ref_step *find_step(const struct refs *r, const char *name)
{
	for (size_t i = 0; i < r->nsteps; i++)
		if (!strcmp(r->steps[i].name, name))
			return &r->steps[i];
	return NULL;
}

static bool matches(const char *const *pats, const char *metric)
{
	for (size_t i = 0; pats && pats[i]; i++)
		if (fnmatch(pats[i], metric, 0) == 0)
			return true;
	return false;
}

/* over_time: a chart over time, which draws a series. */
static bool produces(const struct refs *r, const struct ref_step *st, const char *metric, bool over_time)
{
	/* {NAME}: an axis taken from metric names (dd.mb_s_{bs}k), a template. */
	if (!st->m || st->dynamic || r->lua_dynamic || strstr(metric, "{"))
		return true;
	if (over_time && matches(st->m->series, metric))
		return true;
	return matches(st->m->names, metric) || matches(every_step, metric) ||
	       (st->m->server_activity && matches(server_activity, metric)) || has(&r->lua, metric);
}

/* ", did you mean 'X'?" or "" into buf. */
static const char *suggestion(const char *word, const char *const *cands, char *buf, size_t len)
{
	const char *s = cands ? node_suggest(word, cands) : NULL;
	if (s)
		snprintf(buf, len, "; did you mean '%s'?", s);
	else
		buf[0] = '\0';
	return buf;
}

/* The concrete names a step's kind writes, and the hooks' names. */
static void candidates(const struct refs *r, const struct ref_step *st, bool over_time, struct names *out)
{
	for (size_t i = 0; over_time && st->m && st->m->series && st->m->series[i]; i++)
		if (!strchr(st->m->series[i], '*'))
			add(out, st->m->series[i]);
	for (size_t i = 0; st->m && st->m->names[i]; i++)
		if (!strchr(st->m->names[i], '*'))
			add(out, st->m->names[i]);
	for (size_t i = 0; i < r->lua.n; i++)
		add(out, r->lua.v[i]);
}

/* ref: a step.metric at pos; what: where it stands, for the message.
 * unknown_steps: whether an unknown step is this check's error (expect's
 * ratio and order entries say so themselves). */
static int check_ref(const struct refs *r, const char *ref, const struct src_pos *pos, const char *what,
                     bool unknown_steps, bool over_time, struct diag *d)
{
	char step[128], sug[200];
	const char *metric;
	if (!ref || !results_split_ref(ref, step, sizeof(step), &metric))
		return 0; /* the section's own check says what the form must be */
	const struct ref_step *st = find_step(r, step);
	if (!st) {
		if (!unknown_steps || !r->steps || r->names_vary)
			return 0;
		struct names all = {0};
		char list[512];
		size_t k = 0;
		list[0] = '\0';
		for (size_t i = 0; i < r->nsteps; i++) {
			add(&all, r->steps[i].name);
			int w = snprintf(list + k, sizeof(list) - k, "%s%s", i ? ", " : "", r->steps[i].name);
			k = w > 0 && k + (size_t)w < sizeof(list) ? k + (size_t)w : k;
		}
		diag_error(d, pos, "%s: '%s' names no step of the scenario (steps: %s)%s", what, ref,
		           r->nsteps ? list : "none", suggestion(step, all.v, sug, sizeof(sug)));
		free(all.v);
		return -EINVAL;
	}
	if (produces(r, st, metric, over_time))
		return 0;
	struct names c = {0};
	candidates(r, st, over_time, &c);
	suggestion(metric, c.v, sug, sizeof(sug));
	diag_error(d, pos, "%s: '%s': step '%s' never writes a metric '%s'%s", what, ref, step, metric,
	           sug[0] ? sug : "; see its metrics in docs/steps/");
	free(c.v);
	return -EINVAL;
}

static int check_node_ref(const struct refs *r, const struct node *v, const char *what, bool unknown_steps,
                          bool over_time, struct diag *d)
{
	if (!v || v->kind != NODE_SCALAR)
		return 0;
	return check_ref(r, v->text, &v->pos, what, unknown_steps, over_time, d);
}

/* The axis {NAME} of a metric reference, into buf ("" without one). */
static const char *axis_of(const char *ref, char *buf, size_t len)
{
	const char *a = ref ? strstr(ref, "{") : NULL, *b = a ? strstr(a, "}") : NULL;
	buf[0] = '\0';
	if (a && b && (size_t)(b - a) < len)
		snprintf(buf, len, "%.*s", (int)(b - a - 1), a + 1);
	return buf;
}

/* v (the value of key in a pivot or chart) must be a parameter, the axis of
 * the entry's metric, or one of extra. */
static int check_param(const struct refs *r, const struct node *entry, const char *key, const char *ref,
                       const char *what, const char *const *extra, struct diag *d)
{
	const struct node *v = node_get(entry, key);
	char axis[128], sug[200], list[512];
	if (!v || v->kind != NODE_SCALAR || !v->text || has(&r->params, v->text) ||
	    !strcmp(v->text, axis_of(ref, axis, sizeof(axis))))
		return 0;
	for (size_t i = 0; extra && extra[i]; i++)
		if (!strcmp(v->text, extra[i]))
			return 0;
	size_t k = 0;
	list[0] = '\0';
	for (size_t i = 0; i < r->params.n; i++) {
		int w = snprintf(list + k, sizeof(list) - k, "%s%s", i ? ", " : "", r->params.v[i]);
		k = w > 0 && k + (size_t)w < sizeof(list) ? k + (size_t)w : k;
	}
	diag_error(d, &v->pos, "%s.%s: '%s' is not a parameter of the matrix (%s%s)%s", what, key, v->text,
	           r->params.n ? "parameters: " : "it has none", list,
	           suggestion(v->text, r->params.v, sug, sizeof(sug)));
	return -EINVAL;
}

static int check_report(const struct refs *r, const struct node *report, struct diag *d)
{
	static const char *const chart_x[] = {"time", "t", NULL};
	int rc = 0;
	if (!report || report->kind != NODE_MAP)
		return 0;
	const struct node *pv = node_get(report, "pivot"), *ch = node_get(report, "charts");
	for (size_t i = 0; i < rep_config_count(pv); i++) {
		const struct node *e = rep_config_at(pv, i), *val = node_get(e, "value");
		const char *ref = val && val->kind == NODE_SCALAR ? val->text : NULL;
		rc |= check_param(r, e, "rows", ref, "report.pivot", NULL, d);
		rc |= check_param(r, e, "cols", ref, "report.pivot", NULL, d);
		rc |= check_node_ref(r, val, "report.pivot.value", true, false, d);
	}
	for (size_t i = 0; i < rep_config_count(ch); i++) {
		const struct node *e = rep_config_at(ch, i), *y = node_get(e, "y"), *x = node_get(e, "x");
		const char *ref = y && y->kind == NODE_SCALAR ? y->text : NULL;
		/* a list item with an axis ({bs}) is rep_config's error at that
		 * item; its axis still names x or series here, so that one mistake
		 * is not reported again as "'bs' is not a parameter" */
		for (size_t k = 0; !ref && y && y->kind == NODE_SEQ && k < y->n; k++)
			if (y->items[k]->kind == NODE_SCALAR && y->items[k]->text &&
			    strchr(y->items[k]->text, '{'))
				ref = y->items[k]->text;
		bool over_time = x && x->kind == NODE_SCALAR && x->text &&
		                 (!strcmp(x->text, "time") || !strcmp(x->text, "t"));
		rc |= check_param(r, e, "x", ref, "report.charts", chart_x, d);
		rc |= check_param(r, e, "series", ref, "report.charts", NULL, d);
		rc |= check_node_ref(r, y, "report.charts.y", true, over_time, d);
		for (size_t k = 0; y && y->kind == NODE_SEQ && k < y->n; k++) /* y: [a, b] */
			rc |= check_node_ref(r, y->items[k], "report.charts.y", true, over_time, d);
	}
	return rc ? -EINVAL : 0;
}

/* The metrics of one expect: entry: an absolute entry's step.metric keys, a
 * ratio's of and to, an order's metric or sides. */
static int check_expect_entry(const struct refs *r, const struct node *e, struct diag *d)
{
	int rc = 0;
	const struct node *ra = node_get(e, "ratio"), *o = node_get(e, "order");
	if (ra) {
		rc |= check_node_ref(r, node_get(ra, "of"), "expect: ratio.of", false, false, d);
		rc |= check_node_ref(r, node_get(ra, "to"), "expect: ratio.to", false, false, d);
	} else if (o) {
		rc |= check_node_ref(r, node_get(e, "metric"), "expect: metric", false, false, d);
		for (size_t i = 0; o->kind == NODE_SEQ && o->n == 3 && i < 3; i += 2)
			rc |= check_node_ref(r, o->items[i], "expect: order", false, false, d);
	} else {
		for (size_t i = 0; i < e->n; i++)
			if (strchr(e->keys[i], '.'))
				rc |= check_ref(r, e->keys[i], &e->kpos[i], "expect", true, false, d);
	}
	return rc ? -EINVAL : 0;
}

/* Each step's `headline:` names (their form is spec_check.c's): metrics the
 * step itself writes, by the rules of produces(). */
static int check_headlines(const struct refs *r, struct diag *d)
{
	int rc = 0;
	for (size_t i = 0; i < r->nsteps; i++) {
		const struct ref_step *st = &r->steps[i];
		const struct node *h = st->headline;
		for (size_t k = 0; h && h->kind == NODE_SEQ && k < h->n; k++) {
			const struct node *v = h->items[k];
			if (v->kind != NODE_SCALAR || !v->text || !v->text[0] ||
			    produces(r, st, v->text, false))
				continue;
			struct names c = {0};
			candidates(r, st, false, &c);
			const char *hint = c.v ? node_suggest(v->text, c.v) : NULL;
			diag_error(d, &v->pos, "step.headline: '%s' is not a metric of %s steps%s%s%s",
			           v->text, st->kind, hint ? " (did you mean " : "", hint ? hint : "",
			           hint ? "?)" : "");
			free(c.v);
			rc = -EINVAL;
		}
	}
	return rc;
}

int ref_check(const struct node *cell, const struct node *scenario, struct diag *d)
{
	const struct node *report = node_get(scenario, "report"), *expect = node_get(scenario, "expect");
	struct refs r = {0};
	read_params(node_get(scenario, "matrix"), &r.params);
	read_steps(node_get(cell, "steps"), &r);
	const struct node *steps = node_get(scenario, "steps");
	for (size_t i = 0; steps && steps->kind == NODE_SEQ && i < steps->n; i++) {
		const struct node *nn = node_get(steps->items[i], "name");
		r.names_vary |= nn && ((nn->tag && !strcmp(nn->tag, "!lua")) ||
		                       (nn->kind == NODE_SCALAR && nn->text && strstr(nn->text, "${")));
	}
	read_lua(scenario, &r);
	int rc = check_headlines(&r, d);
	rc |= check_report(&r, report, d);
	for (size_t i = 0; expect && expect->kind == NODE_SEQ && i < expect->n; i++)
		if (expect->items[i]->kind == NODE_MAP)
			rc |= check_expect_entry(&r, expect->items[i], d);
	refs_free(&r);
	return rc ? -EINVAL : 0;
}
