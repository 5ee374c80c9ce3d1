/* spec_check: the table of registered checks and the step checks (see
 * spec_check.h). */
#include "spec_check.h"

#include <errno.h>
#include <string.h>

#include "spec_opts_table.h"
#include "spec_steps.h"

#define SPEC_CHECK_MAX 12

struct step_kind {
	const char *name;
	spec_step_check_fn check;
};

static struct step_kind step_kinds[SPEC_CHECK_MAX];
static size_t nstep_kinds;
static spec_validator_fn validators[SPEC_CHECK_MAX];
static size_t nvalidators;

int spec_check_add_step_kind(const char *name, spec_step_check_fn check)
{
	for (size_t i = 0; i < nstep_kinds; i++)
		if (!strcmp(step_kinds[i].name, name))
			return 0;
	if (nstep_kinds == SPEC_CHECK_MAX)
		return -ENOSPC;
	step_kinds[nstep_kinds++] = (struct step_kind){name, check};
	return 0;
}

int spec_check_add_validator(spec_validator_fn check)
{
	for (size_t i = 0; i < nvalidators; i++)
		if (validators[i] == check)
			return 0;
	if (nvalidators == SPEC_CHECK_MAX)
		return -ENOSPC;
	validators[nvalidators++] = check;
	return 0;
}

static const struct step_kind *step_kind_find(const char *name)
{
	for (size_t i = 0; i < nstep_kinds; i++)
		if (!strcmp(step_kinds[i].name, name))
			return &step_kinds[i];
	return NULL;
}

/* The workload key of a step: exactly one, with its own check. */
static int check_step_workload(const struct node *st, struct diag *d)
{
	int bad = 0;
	const struct step_kind *found = NULL;
	for (size_t k = 0; k < st->n; k++) {
		const struct step_kind *w = step_kind_find(st->keys[k]);
		if (!w)
			continue;
		if (found) {
			diag_error(d, &st->kpos[k],
			           "step: '%s' and '%s' in one step; use one workload per step", found->name,
			           w->name);
			bad = -EINVAL;
			continue;
		}
		found = w;
		if (w->check && w->check(st->items[k], d) < 0)
			bad = -EINVAL;
	}
	if (!found) {
		char list[128] = "";
		for (size_t w = 0; w < nstep_kinds; w++) {
			strncat(list, w ? ", " : "", sizeof(list) - strlen(list) - 1);
			strncat(list, step_kinds[w].name, sizeof(list) - strlen(list) - 1);
		}
		diag_error(d, &st->pos, "step: no workload given (one of: %s)", list);
		bad = -EINVAL;
	}
	return bad;
}

const char *spec_check_when(const struct node *v, const struct node *orig, bool *run)
{
	if (orig && orig->tag && !strcmp(orig->tag, "!lua") && v->kind == NODE_SCALAR) {
		/* lb_eval gives a Lua boolean as an unquoted true or false, a
		 * string quoted, a number as its digits */
		if (!v->quoted && (!strcmp(v->text, "true") || !strcmp(v->text, "false"))) {
			*run = v->text[0] == 't';
			return NULL;
		}
		return v->quoted ? "a string is not a predicate" : "a number is not a predicate";
	}
	struct diag ignored;
	diag_init(&ignored);
	int rc = node_as_bool(v, "step.when", run, &ignored);
	diag_free(&ignored);
	return rc < 0 ? "expected true or false" : NULL;
}

/* when: after ${...} and !lua, a boolean (spec.h: spec_step_skipped); the
 * error points at `when:`, as "${x}" takes the position of x's value. */
static int check_when(const struct node *st, const struct node *orig_st, struct diag *d)
{
	const struct node *v = node_get(st, "when"), *orig = node_get(orig_st, "when");
	bool b;
	const char *bad = v ? spec_check_when(v, orig, &b) : NULL;
	if (!bad)
		return 0;
	if (v->kind == NODE_SCALAR && orig && orig->tag && !strcmp(orig->tag, "!lua"))
		diag_error(d, node_key_pos(st, "when"),
		           "step.when: !lua \"%s\" gave %s%s%s: %s (write a comparison, such as x ~= 0)",
		           orig->kind == NODE_SCALAR ? orig->text : "?", v->quoted ? "'" : "", v->text,
		           v->quoted ? "'" : "", bad);
	else
		diag_error(d, node_key_pos(st, "when"),
		           "step.when: expected true or false (a boolean, a !lua predicate or a ${...} "
		           "that gives one), found %s%s%s",
		           v->kind == NODE_SCALAR ? "'" : "",
		           v->kind == NODE_SCALAR ? v->text : node_kind_name(v->kind),
		           v->kind == NODE_SCALAR ? "'" : "");
	return -EINVAL;
}

/* headline: a non-empty list of metric names (model/headline.h). Whether
 * the step's kind can produce each is the reference check's question
 * (run/ref_check.c), with the workloads' tables of metrics. */
static int check_headline(const struct node *st, struct diag *d)
{
	const struct node *h = node_get(st, "headline");
	if (!h)
		return 0;
	if (h->kind != NODE_SEQ || h->n == 0) {
		diag_error(
		    d, &h->pos,
		    "step.headline: expected a non-empty list of metric names, e.g. [iops, lat_p99_us]");
		return -EINVAL;
	}
	int bad = 0;
	for (size_t i = 0; i < h->n; i++) {
		const struct node *v = h->items[i];
		if (v->kind != NODE_SCALAR || !v->text[0]) {
			diag_error(d, &v->pos, "step.headline: expected a metric name, found %s",
			           v->kind == NODE_SCALAR ? "an empty string" : node_kind_name(v->kind));
			bad = -EINVAL;
		}
	}
	return bad;
}

/* A step's name names its files in the output folder (and its metrics,
 * step.metric): no '/', not "." or "..", not empty, no control characters,
 * so it can never point outside the cell's folder. */
static int check_step_name(const struct node *v, const char *s, struct diag *d)
{
	const char *why = !*s                                   ? "is empty"
	                  : strchr(s, '/')                      ? "holds a '/'"
	                  : !strcmp(s, ".") || !strcmp(s, "..") ? "is '.' or '..'"
	                                                        : NULL;
	for (const char *p = s; !why && *p; p++)
		if ((unsigned char)*p < 0x20 || *p == 0x7f)
			why = "holds a control character";
	if (!why)
		return 0;
	diag_error(d, &v->pos,
	           "step.name %s: it names the step's files in the output folder and its "
	           "metrics (step.metric); use letters, digits, '-', '_' and '.'",
	           why);
	return -EINVAL;
}

static int check_step(const struct node *st, const struct node *orig_st, struct diag *d)
{
	if (st->kind != NODE_MAP) {
		diag_error(d, &st->pos,
		           "steps: each step must be a map (name:, and one of io:, pgbench:, exec:)");
		return -EINVAL;
	}
	int bad = 0;
	/* The common keys from the step table, then the registered workloads. */
	const char *known[SPEC_CHECK_MAX + 21]; /* 16 common keys, the kinds, 4 internal ones, NULL */
	size_t nk = 0;
	for (size_t i = 0; i < spec_step_table.n && nk < 16; i++)
		if (!spec_step_table.rows[i].ref && opt_known(&spec_step_table, spec_step_table.rows[i].name))
			known[nk++] = spec_step_table.rows[i].name;
	for (size_t w = 0; w < nstep_kinds; w++)
		known[nk++] = step_kinds[w].name;
	known[nk++] = SPEC_STEP_GROUP; /* a group's step, flattened (spec_steps.h) */
	known[nk++] = SPEC_STEP_UNTIL;
	known[nk++] = SPEC_STEP_INDEX;
	known[nk++] = SPEC_STEP_TOTALS;
	known[nk] = NULL;
	if (node_check_keys(st, "step", known, d) < 0)
		bad = -EINVAL;
	if (check_step_workload(st, d) < 0)
		bad = -EINVAL;
	const struct node *v;
	bool b;
	double t;
	const char *s;
	if ((v = node_get(st, "name")) && node_as_string(v, "step.name", &s, d) < 0)
		bad = -EINVAL;
	else if (v && check_step_name(v, s, d) < 0)
		bad = -EINVAL;
	if ((v = node_get(st, "record")) && node_as_bool(v, "step.record", &b, d) < 0)
		bad = -EINVAL;
	if ((v = node_get(st, "timeout")) && node_as_duration(v, "step.timeout", false, &t, d) < 0)
		bad = -EINVAL;
	if ((v = node_get(st, "server_stats")) && node_as_bool(v, "step.server_stats", &b, d) < 0)
		bad = -EINVAL;
	if ((v = node_get(st, "background")) && node_as_bool(v, "step.background", &b, d) < 0)
		bad = -EINVAL;
	if (check_headline(st, d) < 0)
		bad = -EINVAL;
	if (check_when(st, orig_st, d) < 0)
		bad = -EINVAL;
	if (opt_check_values(st, "step", &spec_step_table, d) < 0)
		bad = -EINVAL;
	return bad;
}

/* orig: the steps as the scenario writes them (for their `when:`). */
static int check_steps(const struct node *steps, const struct node *orig, const struct src_pos *file,
                       struct diag *d)
{
	if (!steps) {
		struct src_pos p = {file ? file->file : NULL, 0, 0};
		diag_error(d, &p, "steps: the scenario has no steps (add a steps: list)");
		return -EINVAL;
	}
	if (steps->kind != NODE_SEQ || steps->n == 0) {
		diag_error(d, &steps->pos, "steps: expected a non-empty list of steps");
		return -EINVAL;
	}
	int bad = 0;
	for (size_t i = 0; i < steps->n; i++)
		if (check_step(steps->items[i],
		               orig && orig->kind == NODE_SEQ && i < orig->n ? orig->items[i] : NULL, d) < 0)
			bad = -EINVAL;
	/* Step names must be unique: metrics are addressed as step.metric. */
	for (size_t i = 0; i < steps->n; i++)
		for (size_t j = 0; j < i; j++) {
			const struct node *a = node_get(steps->items[i], "name"),
			                  *b = node_get(steps->items[j], "name");
			if (a && b && a->kind == NODE_SCALAR && b->kind == NODE_SCALAR &&
			    !strcmp(a->text, b->text)) {
				diag_error(d, &a->pos, "step name '%s' is used twice (also at line %d)",
				           a->text, b->pos.line);
				bad = -EINVAL;
			}
		}
	return bad;
}

int spec_check_cell(const struct spec *s, const struct node *tree, struct diag *d)
{
	int bad = 0;
	if (check_steps(node_get(tree, "steps"), node_get(s->root, "steps"), &s->root->pos, d) < 0)
		bad = -EINVAL;
	for (size_t i = 0; i < nvalidators; i++)
		if (validators[i](tree, s->root, d) < 0)
			bad = -EINVAL;
	return bad;
}
