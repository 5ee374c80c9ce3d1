/* spec: scenario loading, variables and top-level validation (see spec.h). */
#include "spec.h"

#include <errno.h>
#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "interp.h"
#include "run_order.h"
#include "spec_check.h"
#include "spec_opts_table.h"
#include "spec_hooks.h"
#include "spec_include.h"
#include "spec_steps.h"
#include "spec_load.h"

/* `repeat:` (a count or {min, max, until, metrics}) and `run_order:`. */
static void check_repeat_and_order(const struct node *root, struct diag *d)
{
	struct repeat_spec r;
	repeat_spec_read(root, &r, d);
	repeat_spec_free(&r);
	enum run_order o;
	bool has_seed;
	uint64_t seed;
	run_order_read(root, &o, &has_seed, &seed, d);
}

/* `notes:` (the scenario's caveats, printed under report.md's title): a
 * text or a list of texts. */
static void check_notes(const struct node *v, struct diag *d)
{
	const char *str;
	if (!v || v->kind == NODE_NULL)
		return;
	if (v->kind != NODE_SEQ) {
		if (v->kind != NODE_SCALAR)
			diag_error(d, &v->pos, "notes: expected a text or a list of texts, found %s",
			           node_kind_name(v->kind));
		else
			node_as_string(v, "notes", &str, d);
		return;
	}
	for (size_t i = 0; i < v->n; i++)
		if (v->items[i]->kind != NODE_SCALAR)
			diag_error(d, &v->items[i]->pos, "notes: each note must be a text, found %s",
			           node_kind_name(v->items[i]->kind));
}

int defines_add(struct defines *D, const char *arg)
{
	const char *eq = strchr(arg, '=');
	if (!eq || eq == arg)
		return -EINVAL;
	D->names = realloc(D->names, (D->n + 1) * sizeof(*D->names));
	D->values = realloc(D->values, (D->n + 1) * sizeof(*D->values));
	D->names[D->n] = strndup(arg, (size_t)(eq - arg));
	D->values[D->n] = strdup(eq + 1);
	D->n++;
	return 0;
}

void defines_free(struct defines *D)
{
	for (size_t i = 0; i < D->n; i++) {
		free(D->names[i]);
		free(D->values[i]);
	}
	free(D->names);
	free(D->values);
	memset(D, 0, sizeof(*D));
}

void spec_free(struct spec *s)
{
	if (!s)
		return;
	spec_hooks_free_lua(s);
	node_free(s->root);
	node_free(s->vars);
	free(s->file);
	free(s->dir);
	free(s);
}

static int check_scalar_map(const struct node *m, const char *what, struct diag *d)
{
	if (!m)
		return 0;
	if (m->kind != NODE_MAP) {
		diag_error(d, &m->pos, "%s: expected a map of name: value, found %s", what,
		           node_kind_name(m->kind));
		return -EINVAL;
	}
	int bad = 0;
	for (size_t i = 0; i < m->n; i++) {
		if (m->items[i]->kind == NODE_SEQ || m->items[i]->kind == NODE_MAP) {
			diag_error(d, &m->items[i]->pos, "%s: '%s' must be a plain value, found %s", what,
			           m->keys[i], node_kind_name(m->items[i]->kind));
			bad = -EINVAL;
		}
	}
	return bad;
}

/* Adds to *names (NULL-terminated) each NAME of a `${NAME}` in the tree n. */
static void add_refs(const struct node *n, const char ***names, size_t *len)
{
	if (!n)
		return;
	for (const char *p = n->kind == NODE_SCALAR ? n->text : NULL; p && (p = strstr(p, "${")); p += 2) {
		size_t k = strcspn(p + 2, "}");
		char *name = p[2 + k] && k ? strndup(p + 2, k) : NULL;
		const char **nv = name ? realloc(*names, (*len + 2) * sizeof(*nv)) : NULL;
		if (!nv) {
			free(name);
			continue;
		}
		*names = nv;
		(*names)[(*len)++] = name;
		(*names)[*len] = NULL;
	}
	for (size_t i = 0; n->kind != NODE_SCALAR && i < n->n; i++)
		add_refs(n->items[i], names, len);
}

static bool in_names(const char *const *v, size_t n, const char *x)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(v[i], x))
			return true;
	return false;
}

/* Every -D names a variable the scenario has: one of vars:, of a profile's
 * vars, `profile`, or a `${NAME}` it writes somewhere (given only by -D). A
 * misspelt -D would otherwise change nothing, silently. */
static void check_defines(const struct node *root, const struct defines *D, struct diag *d)
{
	const char **known = NULL, **refs = NULL;
	size_t nk = 0, nr = 0;
	const struct node *vars = node_get(root, "vars"), *profiles = node_get(root, "profiles");
	if (!D || !D->n)
		return;
	known = calloc(2 + (vars && vars->kind == NODE_MAP ? vars->n : 0), sizeof(*known));
	if (!known)
		return;
	known[nk++] = "profile";
	for (size_t i = 0; vars && vars->kind == NODE_MAP && i < vars->n; i++)
		known[nk++] = vars->keys[i];
	for (size_t p = 0; profiles && profiles->kind == NODE_MAP && p < profiles->n; p++) {
		const struct node *pv = profiles->items[p];
		for (size_t i = 0; pv->kind == NODE_MAP && i < pv->n; i++) {
			const char **nv =
			    in_names(known, nk, pv->keys[i]) ? NULL : realloc(known, (nk + 2) * sizeof(*nv));
			if (nv) {
				known = nv;
				known[nk++] = pv->keys[i];
				known[nk] = NULL;
			}
		}
	}
	add_refs(root, &refs, &nr);
	for (size_t i = 0; i < D->n; i++) {
		if (in_names(known, nk, D->names[i]) || in_names(refs, nr, D->names[i]))
			continue;
		char list[512];
		size_t k = 0;
		for (size_t j = 1; j < nk && k < sizeof(list); j++)
			k +=
			    (size_t)snprintf(list + k, sizeof(list) - k, "%s%s", j > 1 ? ", " : "", known[j]);
		const char *sug = node_suggest(D->names[i], known);
		struct src_pos p = {diag_intern("-D"), 0, 0};
		diag_error(d, &p,
		           "-D %s: the scenario has no variable '%s' (%s%s); declare it in vars: to pass "
		           "it%s%s%s",
		           D->names[i], D->names[i],
		           nk > 1 ? "vars: " : "it has no vars:", nk > 1 ? list : "",
		           sug ? "; did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
	}
	for (size_t i = 0; i < nr; i++)
		free((char *)refs[i]);
	free(refs);
	free(known);
}

/* vars, then the selected profile's vars, then -D overrides. */
static struct node *merge_vars(const struct node *root, const struct defines *D, struct diag *d)
{
	const struct node *vars = node_get(root, "vars");
	struct node *out = vars && vars->kind == NODE_MAP ? node_clone(vars) : node_new(NODE_MAP, NULL);
	check_scalar_map(vars, "vars", d);
	const char *profile = NULL;
	for (size_t i = 0; D && i < D->n; i++)
		if (!strcmp(D->names[i], "profile"))
			profile = D->values[i];
	const struct node *pv = node_get(out, "profile");
	if (!profile && pv && pv->kind == NODE_SCALAR)
		profile = pv->text;
	const struct node *profiles = node_get(root, "profiles");
	if (profiles) {
		if (profiles->kind != NODE_MAP || profiles->n == 0) {
			diag_error(d, &profiles->pos, "profiles: expected a map of profile name: {vars}");
		} else {
			if (!profile)
				profile = profiles->keys[0];
			const struct node *sel = node_get(profiles, profile);
			if (!sel) {
				const char **names = calloc(profiles->n + 1, sizeof(*names));
				for (size_t i = 0; i < profiles->n; i++)
					names[i] = profiles->keys[i];
				const char *sug = node_suggest(profile, names);
				diag_error(d, &profiles->pos, "profile '%s' is not defined%s%s%s", profile,
				           sug ? "; did you mean '" : "", sug ? sug : "", sug ? "'?" : "");
				free(names);
			} else if (check_scalar_map(sel, "profiles", d) == 0 && sel->kind == NODE_MAP) {
				for (size_t i = 0; i < sel->n; i++)
					node_map_put(out, sel->keys[i], &sel->kpos[i],
					             node_clone(sel->items[i]));
			}
			if (!node_get(out, "profile"))
				node_map_put(out, "profile", NULL, node_new_scalar(profile, &profiles->pos));
		}
	}
	for (size_t i = 0; D && i < D->n; i++) {
		struct src_pos p = {diag_intern("-D"), 0, 0};
		node_map_put(out, D->names[i], &p, node_new_scalar(D->values[i], &p));
	}
	return out;
}

static const struct node *var_lookup(void *ud, const char *name, bool *defer)
{
	(void)defer;
	return node_get(((const struct spec *)ud)->vars, name);
}

/* `${var}` in `name:` takes the variables (after profiles and -D); an
 * undefined one is an error at its position. */
static void interp_name(struct spec *s, struct diag *d)
{
	struct node *root = s->root;
	for (size_t i = 0; i < root->n; i++) {
		struct node *v = root->items[i];
		if (strcmp(root->keys[i], "name") || v->kind != NODE_SCALAR || !interp_has_ref(v->text))
			continue;
		char *out = NULL;
		const struct node *whole = NULL;
		struct spec_budget b;
		interp_budget_for(&b, root);
		if (interp_text(v->text, &v->pos, v->quoted, var_lookup, s, &b, &out, &whole, d) < 0)
			return;
		free(v->text);
		v->text = out;
		s->name = v->text;
	}
}

struct spec *spec_open(const char *path, const struct defines *D, struct diag *d)
{
	struct node *root = spec_load_scenario(path, d); /* with its include: files */
	if (!root)
		return NULL;
	struct spec *s = calloc(1, sizeof(*s));
	s->file = strdup(path);
	char *tmp = strdup(path);
	s->dir = strdup(dirname(tmp));
	free(tmp);
	s->root = root;
	if (root->kind != NODE_MAP) {
		diag_error(d, &root->pos,
		           "a scenario must be a map of sections (name:, matrix:, steps:, ...), found %s",
		           node_kind_name(root->kind));
		s->vars = node_new(NODE_MAP, NULL);
		return s;
	}
	opt_check_keys(root, "scenario", &spec_top_table, d);
	spec_steps_flatten(root, d); /* parallel: groups to marked steps */
	const struct node *v;
	int64_t iv;
	if ((v = node_get(root, "benchgrid")) &&
	    node_as_int(v, "benchgrid (format version)", 1, 1, &iv, d) < 0) {
		/* reported */
	}
	const char *str;
	if ((v = node_get(root, "name")) && node_as_string(v, "name", &str, d) == 0)
		s->name = str;
	if ((v = node_get(root, "description")) && node_as_string(v, "description", &str, d) == 0)
		s->description = str;
	check_notes(node_get(root, "notes"), d);
	if (!s->name) {
		const char *base = strrchr(path, '/');
		s->name = base ? base + 1 : path;
	}
	check_repeat_and_order(root, d);
	if ((v = node_get(root, "warmup")))
		node_as_int(v, "warmup", 0, 1000000, &iv, d);
	double t;
	if ((v = node_get(root, "timeout")))
		node_as_duration(v, "timeout", false, &t, d);
	check_defines(root, D, d);
	s->vars = merge_vars(root, D, d);
	interp_name(s, d);
	spec_hooks_load_lua(s, d);
	opt_check_values(root, "", &spec_top_table, d);
	return s;
}

/* ---- per-cell interpolation ---- */

struct cell_lookup {
	const struct spec *s;
	const struct node *params;
	const struct node *runtime; /* map of run-time names, or NULL */
	bool defer;
};

static bool is_runtime_name(const char *name)
{
	static const char *const prefixes[] = {"target.", "targets.", "cell.", "pg.", "step.", "run.", NULL};
	for (int i = 0; prefixes[i]; i++)
		if (!strncmp(name, prefixes[i], strlen(prefixes[i])))
			return true;
	return !strcmp(name, "outdir");
}

static const struct node *cell_lookup_fn(void *ud, const char *name, bool *defer)
{
	struct cell_lookup *cl = ud;
	const struct node *v;
	if ((v = node_get(cl->params, name)))
		return v;
	if ((v = node_get(cl->s->vars, name)))
		return v;
	if ((v = node_get(cl->runtime, name)))
		return v;
	if (cl->defer && is_runtime_name(name))
		*defer = true;
	return NULL;
}

/* models and model_scale are per cell (a matrix axis may switch them) */
static const char *const cell_sections[] = {"target", "targets", "postgres",    "sysctl", "queue",
                                            "steps",  "models",  "model_scale", NULL};

struct node *spec_cell_tree_rt(const struct spec *s, const struct cell *c, const struct node *runtime,
                               bool defer_runtime, struct diag *d)
{
	struct cell_lookup cl = {s, c ? c->params : NULL, runtime, defer_runtime};
	struct node *out = node_new(NODE_MAP, &s->root->pos);
	struct spec_budget b; /* what this cell's references may copy */
	interp_budget_for(&b, s->root);
	int bad = 0;
	for (int i = 0; cell_sections[i]; i++) {
		const struct node *sec = node_get(s->root, cell_sections[i]);
		if (!sec)
			continue;
		struct node *v = interp_tree(sec, cell_lookup_fn, &cl, &b, d);
		if (!v) {
			bad = 1;
			continue;
		}
		node_map_put(out, cell_sections[i], node_key_pos(s->root, cell_sections[i]), v);
	}
	/* over the whole map: a section that is itself !lua (models:) too */
	if (s->lua && spec_hooks_eval_lua(s, out, c ? c->params : NULL, d) < 0)
		bad = 1;
	if (bad) {
		node_free(out);
		return NULL;
	}
	return out;
}

struct node *spec_cell_tree(const struct spec *s, const struct cell *c, bool defer_runtime, struct diag *d)
{
	return spec_cell_tree_rt(s, c, NULL, defer_runtime, d);
}

/* Scalars that use ${...} in the per-cell sections; used to check each
 * distinct combination of referenced parameters once. */
static void collect_refs(const struct node *n, const struct node *params, char ***names, size_t *nn)
{
	if (!n)
		return;
	if (n->kind == NODE_SCALAR) {
		for (const char *p = n->text; (p = strstr(p, "${")); p += 2) {
			const char *e = strchr(p, '}');
			if (!e)
				return;
			char *name = strndup(p + 2, (size_t)(e - p - 2));
			/* Names that are plain variables are the same for every cell. */
			bool dup = node_get(params, name) != NULL;
			for (size_t i = 0; i < *nn && !dup; i++)
				dup = !strcmp((*names)[i], name);
			if (dup) {
				free(name);
				continue;
			}
			*names = realloc(*names, (*nn + 1) * sizeof(**names));
			(*names)[(*nn)++] = name;
		}
		return;
	}
	for (size_t i = 0; i < n->n; i++)
		collect_refs(n->items[i], params, names, nn);
}

void spec_cell_refs(const struct spec *s, const struct node *params, char ***names, size_t *nn)
{
	*names = NULL;
	*nn = 0;
	for (int i = 0; cell_sections[i]; i++)
		collect_refs(node_get(s->root, cell_sections[i]), params, names, nn);
}

/* ---- when: on steps ---- */

bool spec_step_skipped(const struct spec *s, const struct node *tree, size_t i, char *why, size_t len)
{
	const struct node *steps = node_get(tree, "steps");
	const struct node *v =
	    steps && steps->kind == NODE_SEQ && i < steps->n ? node_get(steps->items[i], "when") : NULL;
	const struct node *ss = node_get(s->root, "steps");
	const struct node *w =
	    ss && ss->kind == NODE_SEQ && i < ss->n ? node_get(ss->items[i], "when") : NULL;
	bool run = true;
	if (v && spec_check_when(v, w, &run))
		run = true;
	if (run)
		return false;
	snprintf(why, len, "when: %s", w && w->kind == NODE_SCALAR ? w->text : "false");
	return true;
}

bool spec_has_when(const struct spec *s)
{
	const struct node *ss = node_get(s->root, "steps");
	for (size_t i = 0; ss && ss->kind == NODE_SEQ && i < ss->n; i++)
		if (node_get(ss->items[i], "when"))
			return true;
	return false;
}

void spec_step_name(const struct node *step, size_t i, char *buf, size_t len)
{
	const struct node *nn = node_get(step, "name");
	if (nn && nn->kind == NODE_SCALAR)
		snprintf(buf, len, "%s", nn->text);
	else
		snprintf(buf, len, "step%zu", i + 1);
}
