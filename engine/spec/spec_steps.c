/* spec_steps: parallel: groups flattened, background: checked (see
 * spec_steps.h). */
#include "spec_steps.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lb_parse.h"

static const char *const until_names[] = {"all", "first", NULL};

/* The keys a group step may have besides parallel:, and those its steps
 * take from it when they do not set them. */
static const char *const group_keys[] = {"name",   "parallel",     "when", "timeout",
                                         "record", "server_stats", NULL};
static const char *const inherited[] = {"when", "timeout", "record", "server_stats", NULL};

/* exec.parse: naming a scenario Lua function: such a step cannot run beside
 * others (the Lua state is the main thread's; the steps run on their own). */
static int check_lua_parse(const struct node *st, const char *what, struct diag *d)
{
	if (!spec_step_background(st) && spec_step_group_index(st) < 0)
		return 0; /* it runs alone */
	const struct node *ex = st->kind == NODE_MAP ? node_get(st, "exec") : NULL;
	const struct node *p = ex && ex->kind == NODE_MAP ? node_get(ex, "parse") : NULL;
	if (!p || p->kind != NODE_SCALAR || lb_is_shipped_parser(p->text))
		return 0; /* a bad value: the exec workload's check says so */
	diag_error(d, &p->pos,
	           "exec.parse: '%s' is not a shipped parser, and a %s runs on a thread of its own "
	           "while the scenario's Lua functions run on the main thread only; use a shipped "
	           "parser, or make it a step that runs alone",
	           p->text, what);
	return -EINVAL;
}

/* One step of a group: a map, not a group, not background, no when:. */
static int check_member(const struct node *m, struct diag *d)
{
	if (m->kind != NODE_MAP) {
		diag_error(
		    d, &m->pos,
		    "parallel.steps: each step must be a map (name:, and one of io:, pgbench:, exec:)");
		return -EINVAL;
	}
	int bad = 0;
	const struct src_pos *p;
	if ((p = node_key_pos(m, "parallel"))) {
		diag_error(d, p, "parallel: a group cannot hold another group; list its steps in this one");
		bad = -EINVAL;
	}
	if ((p = node_key_pos(m, "background"))) {
		diag_error(d, p,
		           "background: a step of a parallel group runs beside its siblings already; "
		           "a background step is a step of its own in steps:");
		bad = -EINVAL;
	}
	if ((p = node_key_pos(m, "when"))) {
		diag_error(d, p, "when: write it on the group (its steps start together or not at all)");
		bad = -EINVAL;
	}
	return bad;
}

/* The bool v (dflt when absent), read leniently: check reports a bad value. */
static bool lenient_bool(const struct node *v, const char *what, bool dflt)
{
	bool b = dflt;
	struct diag q;
	diag_init(&q);
	if (v)
		node_as_bool(v, what, &b, &q);
	diag_free(&q);
	return b;
}

/* record: false, or NULL. */
static const struct node *not_recorded(const struct node *map)
{
	const struct node *rec = node_get(map, "record");
	return lenient_bool(rec, "step.record", true) ? NULL : rec;
}

/* A step of a group with group_reporting: an io step of data I/O, recorded. */
static int check_total_member(const struct node *m, struct diag *d)
{
	const struct node *nn = node_get(m, "name"), *io = node_get(m, "io"), *rec = not_recorded(m);
	const char *name = nn && nn->kind == NODE_SCALAR ? nn->text : "?";
	if (!io) {
		diag_error(d, &m->pos,
		           "parallel.group_reporting: step %s is not an io step (a group total sums the I/O "
		           "of io steps, as fio's group_reporting)",
		           name);
		return -EINVAL;
	}
	if (node_get(io, "op")) {
		diag_error(d, node_key_pos(io, "op"),
		           "parallel.group_reporting: step %s does file operations (io.op), not data I/O: "
		           "its figures do not add to a total",
		           name);
		return -EINVAL;
	}
	if (rec) {
		diag_error(d, &rec->pos,
		           "parallel.group_reporting: step %s is not recorded (record: false), so the "
		           "group's total could not be made",
		           name);
		return -EINVAL;
	}
	return 0;
}

/* group_reporting: true sums io steps (model/group_total.h). */
static int check_totals(const struct node *g, const struct node *par, bool *totals, struct diag *d)
{
	const struct node *v = node_get(par, "group_reporting"), *steps = node_get(par, "steps");
	*totals = false;
	if (!v)
		return 0;
	if (node_as_bool(v, "parallel.group_reporting", totals, d) < 0)
		return -EINVAL;
	int bad = 0;
	const struct node *rec = *totals ? not_recorded(g) : NULL;
	if (rec) {
		diag_error(d, &rec->pos,
		           "parallel.group_reporting: the group is not recorded (record: false), so its "
		           "total could not be made");
		bad = -EINVAL;
	}
	for (size_t k = 0; *totals && steps && steps->kind == NODE_SEQ && k < steps->n; k++)
		if (steps->items[k]->kind == NODE_MAP && check_total_member(steps->items[k], d) < 0)
			bad = -EINVAL;
	return bad;
}

/* The group step g (index i): its keys, until:, its steps. */
static int check_group(const struct node *g, const struct node *par, int *until, bool *totals, struct diag *d)
{
	int bad = node_check_keys(g, "step (a parallel group)", group_keys, d) < 0 ? -EINVAL : 0;
	*until = 0;
	if (par->kind != NODE_MAP) {
		diag_error(d, &par->pos,
		           "parallel: expected a map {until: all|first, steps: [...]}, found %s",
		           node_kind_name(par->kind));
		return -EINVAL;
	}
	static const char *const keys[] = {"until", "steps", "group_reporting", NULL};
	if (node_check_keys(par, "parallel", keys, d) < 0)
		bad = -EINVAL;
	const struct node *u = node_get(par, "until"), *steps = node_get(par, "steps");
	if (u && node_as_enum(u, "parallel.until", until_names, until, d) < 0)
		bad = -EINVAL;
	if (!steps) {
		diag_error(d, &par->pos, "parallel: no steps: (the steps that start together)");
		return -EINVAL;
	}
	if (steps->kind != NODE_SEQ || steps->n < 2) {
		diag_error(d, &steps->pos,
		           "parallel.steps: expected a list of at least two steps (one step alone is a "
		           "step of steps:)");
		return -EINVAL;
	}
	for (size_t k = 0; k < steps->n; k++)
		if (check_member(steps->items[k], d) < 0)
			bad = -EINVAL;
	if (check_totals(g, par, totals, d) < 0)
		bad = -EINVAL;
	return bad;
}

/* The group's steps into out, each marked and given the group's settings. */
static void push_members(struct node *out, const struct node *g, const struct node *par, size_t i, int until,
                         bool totals)
{
	char name[128];
	const struct node *nn = node_get(g, "name");
	if (nn && nn->kind == NODE_SCALAR)
		snprintf(name, sizeof(name), "%s", nn->text);
	else
		snprintf(name, sizeof(name), "group%zu", i + 1);
	const struct node *steps = node_get(par, "steps");
	for (size_t k = 0; k < steps->n; k++) {
		struct node *m = node_clone(steps->items[k]);
		for (size_t h = 0; inherited[h]; h++) {
			const struct node *v = node_get(g, inherited[h]);
			if (v && !node_get(m, inherited[h]))
				node_map_put(m, inherited[h], node_key_pos(g, inherited[h]), node_clone(v));
		}
		node_map_put(m, SPEC_STEP_GROUP, node_key_pos(g, "parallel"),
		             node_new_scalar(name, &par->pos));
		node_map_put(m, SPEC_STEP_UNTIL, node_key_pos(g, "parallel"),
		             node_new_scalar(until_names[until], &par->pos));
		/* the group's identity: its name may be another group's default one */
		char idx[32];
		snprintf(idx, sizeof(idx), "%zu", i);
		node_map_put(m, SPEC_STEP_INDEX, node_key_pos(g, "parallel"),
		             node_new_scalar(idx, &par->pos));
		if (totals)
			node_map_put(m, SPEC_STEP_TOTALS, node_key_pos(par, "group_reporting"),
			             node_new_scalar("true", &par->pos));
		node_seq_push(out, m);
	}
}

/* A background step needs a foreground step after it to run beside; a
 * step that runs beside others cannot use a Lua parser. */
static int check_background(const struct node *steps, struct diag *d)
{
	int bad = 0;
	for (size_t i = 0; i < steps->n; i++) {
		const struct node *st = steps->items[i];
		const struct node *v = st->kind == NODE_MAP ? node_get(st, "background") : NULL;
		bool bg = spec_step_background(st); /* a bad value: check_step says so */
		bool fg_after = false;
		for (size_t j = i + 1; j < steps->n && !fg_after; j++)
			fg_after = !spec_step_background(steps->items[j]);
		if (bg && !fg_after && v) {
			diag_error(d, &v->pos,
			           "step.background: no foreground step after it to run beside (a "
			           "background step runs until the cell's next foreground steps end)");
			bad = -EINVAL;
		}
		if (check_lua_parse(st, bg ? "background step" : "step of a parallel group", d) < 0)
			bad = -EINVAL;
	}
	return bad;
}

/* The name a (flattened) step i is recorded under: its name:, else stepN. */
static const char *step_name(const struct node *st, size_t i, char *buf, size_t len)
{
	const struct node *nn = node_get(st, "name");
	if (nn && nn->kind == NODE_SCALAR)
		return nn->text;
	snprintf(buf, len, "step%zu", i + 1);
	return buf;
}

/* A group total is recorded as a step named after its group: no step, and
 * no other group's total, may have that name (a group's default name
 * groupN may be another's explicit one; a step's default stepN a group's). */
static int check_total_names(const struct node *steps, struct diag *d)
{
	int bad = 0;
	for (size_t i = 0; i < steps->n; i++) {
		const struct node *st = steps->items[i];
		bool first;
		const char *g = spec_step_group(st, &first);
		long gi = spec_step_group_index(st);
		if (!g || !spec_step_group_totals(st) ||
		    (i > 0 && spec_step_group_index(steps->items[i - 1]) == gi))
			continue; /* not a total, or its group's second step */
		for (size_t j = 0; j < steps->n; j++) {
			const struct node *o = steps->items[j];
			char buf[32];
			const char *other = step_name(o, j, buf, sizeof(buf));
			bool total = spec_step_group_totals(o) && spec_step_group_index(o) != gi &&
			             (j == 0 ||
			              spec_step_group_index(steps->items[j - 1]) != spec_step_group_index(o));
			const char *og = total ? spec_step_group(o, &first) : NULL;
			if (strcmp(other, g) && !(og && !strcmp(og, g) && j > i))
				continue;
			bool step = !strcmp(other, g);
			const struct node *at = step ? node_get(o, "name") : node_get(o, SPEC_STEP_GROUP);
			diag_error(
			    d, at ? &at->pos : &o->pos,
			    "step name '%s' is also the name of %s, whose total (group_reporting: true) is "
			    "recorded under that name (line %d); rename one",
			    g, step ? "a group" : "another group", st->pos.line);
			bad = -EINVAL;
		}
	}
	return bad;
}

int spec_steps_flatten(struct node *root, struct diag *d)
{
	size_t at = 0;
	while (at < root->n && strcmp(root->keys[at], "steps"))
		at++;
	if (at == root->n || root->items[at]->kind != NODE_SEQ)
		return 0; /* spec_check reports it */
	struct node *steps = root->items[at];
	bool any = false;
	for (size_t i = 0; i < steps->n; i++)
		any |= steps->items[i]->kind == NODE_MAP && node_get(steps->items[i], "parallel");
	int bad = 0;
	/* A group's name marks its steps: two groups of one name would be one. */
	for (size_t i = 0; any && i < steps->n; i++)
		for (size_t j = 0; j < i; j++) {
			const struct node *a = steps->items[i], *b = steps->items[j];
			const struct node *na = a->kind == NODE_MAP ? node_get(a, "name") : NULL;
			const struct node *nb = b->kind == NODE_MAP ? node_get(b, "name") : NULL;
			if (na && nb && na->kind == NODE_SCALAR && nb->kind == NODE_SCALAR &&
			    node_get(a, "parallel") && !strcmp(na->text, nb->text)) {
				diag_error(d, &na->pos, "step name '%s' is used twice (also at line %d)",
				           na->text, nb->pos.line);
				bad = -EINVAL;
			}
		}
	if (any) {
		struct node *out = node_new(NODE_SEQ, &steps->pos);
		for (size_t i = 0; i < steps->n; i++) {
			const struct node *st = steps->items[i];
			const struct node *par = st->kind == NODE_MAP ? node_get(st, "parallel") : NULL;
			int until = 0;
			bool totals = false;
			if (!par) {
				node_seq_push(out, node_clone(st));
			} else if (check_group(st, par, &until, &totals, d) < 0) {
				bad = -EINVAL;
			} else {
				push_members(out, st, par, i, until, totals);
			}
		}
		node_free(steps);
		root->items[at] = steps = out;
	}
	if (check_background(steps, d) < 0)
		bad = -EINVAL;
	if (check_total_names(steps, d) < 0)
		bad = -EINVAL;
	return bad;
}

const char *spec_step_group(const struct node *step, bool *first)
{
	const struct node *g = node_get(step, SPEC_STEP_GROUP), *u = node_get(step, SPEC_STEP_UNTIL);
	*first = u && u->kind == NODE_SCALAR && !strcmp(u->text, "first");
	return g && g->kind == NODE_SCALAR ? g->text : NULL;
}

bool spec_step_group_totals(const struct node *step)
{
	const struct node *v = step && step->kind == NODE_MAP ? node_get(step, SPEC_STEP_TOTALS) : NULL;
	return v != NULL;
}

long spec_step_group_index(const struct node *step)
{
	const struct node *v = step && step->kind == NODE_MAP ? node_get(step, SPEC_STEP_INDEX) : NULL;
	return v && v->kind == NODE_SCALAR ? strtol(v->text, NULL, 10) : -1;
}

bool spec_step_background(const struct node *step)
{
	const struct node *v = step && step->kind == NODE_MAP ? node_get(step, "background") : NULL;
	return lenient_bool(v, "step.background", false);
}
