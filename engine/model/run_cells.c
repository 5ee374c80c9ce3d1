/* run_cells: the model of one run and its cells (see run_cells.h). */
#include "run_cells.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "hash.h"
#include "jsonio.h"

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

void run_set(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

void run_id(const struct run *r, char out[17])
{
	char started[64];
	snprintf(started, sizeof(started), "%.6f", r->started);
	const char *host = result_info_get(&r->env, "machine.host");
	const char *parts[] = {r->name ? r->name : "", r->scenario_hash ? r->scenario_hash : "", started,
	                       host ? host : ""};
	uint64_t h = HASH_FNV1A_INIT;
	for (size_t i = 0; i < 4; i++)
		h = hash_fnv1a(h, parts[i], strlen(parts[i]) + 1);
	snprintf(out, 17, "%016" PRIx64, h);
}

void run_init(struct run *r)
{
	memset(r, 0, sizeof(*r));
	result_init(&r->env, "environment", "");
}

void run_cell_init(struct run_cell *c)
{
	memset(c, 0, sizeof(*c));
	result_init(&c->facts, "facts", "");
	c->setup_fs_s = c->setup_pg_s = c->setup_data_s = -1;
}

void run_cell_free(struct run_cell *c)
{
	node_free(c->params);
	free(c->error);
	for (size_t i = 0; i < c->nreps; i++) {
		for (size_t k = 0; k < c->reps[i].nsteps; k++)
			result_free(&c->reps[i].steps[k]);
		free(c->reps[i].steps);
	}
	free(c->reps);
	result_free(&c->facts);
	memset(c, 0, sizeof(*c));
}

void run_free(struct run *r)
{
	free(r->scenario_file);
	free(r->name);
	free(r->description);
	free(r->scenario_hash);
	free(r->tool_version);
	node_free(r->report_cfg);
	node_free(r->expect_cfg);
	node_free(r->notes_cfg);
	result_free(&r->env);
	for (size_t i = 0; i < r->ncells; i++)
		run_cell_free(&r->cells[i]);
	free(r->cells);
	memset(r, 0, sizeof(*r));
}

static struct run_cell *grow_cells(struct run *r)
{
	if (GROW(r->cells, r->cap, r->ncells + 1, 16) < 0)
		return NULL;
	return &r->cells[r->ncells++];
}

/* Unquoted numbers in the text results.json gives back (1e-3 -> 0.001,
 * 4.50 -> 4.5): reports written during the run and those rebuilt from
 * results.json, or completed by --resume, then show the same text. */
static void canonical_numbers(struct node *n)
{
	if (!n)
		return;
	if (n->kind != NODE_SCALAR) {
		for (size_t i = 0; i < n->n; i++)
			canonical_numbers(n->items[i]);
		return;
	}
	if (n->quoted || !jsonio_is_number_text(n->text))
		return;
	json_t *num = jsonio_number_text(n->text);
	char buf[48];
	if (!num)
		return;
	jsonio_number_canonical(num, buf, sizeof(buf));
	json_decref(num);
	if (strcmp(buf, n->text) != 0) {
		char *t = strdup(buf);
		if (t) {
			free(n->text);
			n->text = t;
		}
	}
}

struct run_cell *run_add_cell(struct run *r, const struct cell *c)
{
	struct run_cell *rc = grow_cells(r);
	if (!rc)
		return NULL;
	run_cell_init(rc);
	rc->index = c->index;
	memcpy(rc->id, c->id, sizeof(rc->id));
	rc->id[sizeof(rc->id) - 1] = '\0';
	rc->params = c->params ? node_clone(c->params) : NULL;
	canonical_numbers(rc->params);
	return rc;
}

struct run_cell *run_take_cell(struct run *r, struct run_cell *c)
{
	struct run_cell *rc = grow_cells(r);
	if (!rc)
		return NULL;
	*rc = *c;
	memset(c, 0, sizeof(*c));
	return rc;
}

struct run_cell *run_find_cell(const struct run *r, const char *id)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (strcmp(r->cells[i].id, id) == 0)
			return &r->cells[i];
	return NULL;
}

static int cmp_cell(const void *a, const void *b)
{
	const struct run_cell *x = a, *y = b;
	return (x->index > y->index) - (x->index < y->index);
}

void run_sort_cells(struct run *r)
{
	if (r->ncells > 1)
		qsort(r->cells, r->ncells, sizeof(*r->cells), cmp_cell);
}

/* Repetition `rep`, created (empty) with all before it as needed. */
struct run_rep *run_cell_rep(struct run_cell *c, size_t rep)
{
	if (rep >= c->nreps) {
		struct run_rep *v = realloc(c->reps, (rep + 1) * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + c->nreps, 0, (rep + 1 - c->nreps) * sizeof(*v));
		c->reps = v;
		c->nreps = rep + 1;
	}
	return &c->reps[rep];
}

void run_cell_take_step(struct run_cell *c, size_t rep, struct step_result *res)
{
	struct run_rep *rp = run_cell_rep(c, rep);
	if (!rp)
		return;
	if (GROW(rp->steps, rp->cap, rp->nsteps + 1, 4) < 0)
		return;
	rp->steps[rp->nsteps++] = *res;
	memset(res, 0, sizeof(*res));
}

void run_cell_set_status(struct run_cell *c, enum run_status st, const char *fmt, ...)
{
	c->status = st;
	if (!fmt || c->error)
		return;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&c->error, fmt, ap) < 0)
		c->error = NULL;
	va_end(ap);
}

const char *run_cell_param(const struct run_cell *c, const char *name)
{
	const struct node *n = node_get(c->params, name);
	return n && n->kind == NODE_SCALAR ? n->text : NULL;
}

void run_cell_label(const struct run_cell *c, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	if (!c->params || c->params->kind != NODE_MAP)
		return;
	for (size_t i = 0; i < c->params->n && k < len; i++) {
		const struct node *v = c->params->items[i];
		int w = snprintf(buf + k, len - k, "%s%s=%s", i ? ", " : "", c->params->keys[i],
		                 v->kind == NODE_SCALAR ? v->text : "?");
		if (w < 0)
			break;
		k += (size_t)w;
	}
}

static const char *const status_names[] = {"ok", "failed", "skipped", NULL};

const char *run_status_name(enum run_status s)
{
	return (unsigned)s <= RUN_SKIPPED ? status_names[s] : "?";
}

int run_status_parse(const char *s, enum run_status *out)
{
	for (int i = 0; status_names[i]; i++)
		if (s && strcmp(s, status_names[i]) == 0) {
			*out = (enum run_status)i;
			return 0;
		}
	return -EINVAL;
}
