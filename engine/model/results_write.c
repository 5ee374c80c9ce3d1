/* results_write: results.json and journal lines (see results_write.h). */
#include "results_write.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cell_summary.h"
#include "jsonio.h"

#ifndef BENCHGRID_VERSION
#define BENCHGRID_VERSION "0"
#endif

static json_t *scalar_json(const struct node *n)
{
	const char *t = n->text ? n->text : "";
	json_t *num = !n->quoted && jsonio_is_number_text(t) ? jsonio_number_text(t) : NULL;
	if (num)
		return num;
	if (!n->quoted && (strcmp(t, "true") == 0 || strcmp(t, "false") == 0))
		return json_boolean(t[0] == 't');
	return jsonio_str(t);
}

json_t *results_node_json(const struct node *n)
{
	json_t *v;
	if (!n)
		return json_null();
	switch (n->kind) {
	case NODE_SCALAR: return scalar_json(n);
	case NODE_SEQ:
		v = json_array();
		for (size_t i = 0; i < n->n; i++)
			jsonio_push(v, results_node_json(n->items[i]));
		return v;
	case NODE_MAP:
		v = json_object();
		for (size_t i = 0; i < n->n; i++)
			jsonio_set(v, n->keys[i], results_node_json(n->items[i]));
		return v;
	default: return json_null();
	}
}

/* Info as an object; a key that repeats ("warning") becomes an array. */
static json_t *info_json(const struct step_result *r)
{
	json_t *o = json_object();
	for (size_t i = 0; i < r->ni; i++) {
		const char *key = r->info[i].key;
		if (json_object_get(o, key))
			continue;
		bool many = false;
		for (size_t k = i + 1; k < r->ni && !many; k++)
			many = strcmp(r->info[k].key, key) == 0;
		if (!many) {
			jsonio_set(o, key, jsonio_str(r->info[i].value));
			continue;
		}
		json_t *a = json_array();
		for (size_t k = i; k < r->ni; k++)
			if (strcmp(r->info[k].key, key) == 0)
				jsonio_push(a, jsonio_str(r->info[k].value));
		jsonio_set(o, key, a);
	}
	return o;
}

/* "metrics" and "info" of a step result (also for env and facts) into o. */
static void add_metrics_info(json_t *o, const struct step_result *r)
{
	json_t *m = json_object();
	for (size_t i = 0; i < r->nm; i++) {
		json_t *e = json_object();
		jsonio_set(e, "value", jsonio_num(r->m[i].value));
		jsonio_set(e, "unit", jsonio_str(r->m[i].unit ? r->m[i].unit : ""));
		jsonio_set(m, r->m[i].name, e);
	}
	jsonio_set(o, "metrics", m);
	jsonio_set(o, "info", info_json(r));
}

static json_t *numbers_json(const double *v, size_t n)
{
	json_t *a = json_array();
	for (size_t k = 0; k < n; k++)
		jsonio_push(a, jsonio_num(v[k]));
	return a;
}

static json_t *step_json(const struct step_result *r)
{
	json_t *o = json_object(), *series = json_object();
	jsonio_set(o, "name", jsonio_str(r->step ? r->step : ""));
	jsonio_set(o, "workload", jsonio_str(r->workload ? r->workload : ""));
	jsonio_set(o, "failed", json_boolean(r->failed));
	jsonio_set(o, "error", jsonio_str(r->error));
	jsonio_set(o, "started", jsonio_num(r->started));
	jsonio_set(o, "elapsed", jsonio_num(r->elapsed));
	add_metrics_info(o, r);
	for (size_t i = 0; i < r->ns; i++) {
		const struct series *s = &r->s[i];
		json_t *e = json_object();
		jsonio_set(e, "unit", jsonio_str(s->unit ? s->unit : ""));
		jsonio_set(e, "t", numbers_json(s->t, s->n));
		jsonio_set(e, "v", numbers_json(s->v, s->n));
		jsonio_set(series, s->name, e);
	}
	jsonio_set(o, "series", series);
	return o;
}

static json_t *metric_summary_json(const struct step_summary *ss, const struct metric_summary *m)
{
	json_t *o = json_object();
	jsonio_set(o, "value", jsonio_num(m->st.mean));
	jsonio_set(o, "unit", jsonio_str(m->unit));
	jsonio_set(o, "n", json_integer((json_int_t)m->st.n));
	jsonio_set(o, "mean", jsonio_num(m->st.mean));
	jsonio_set(o, "stddev", jsonio_num(m->st.stddev));
	jsonio_set(o, "median", jsonio_num(m->st.median));
	jsonio_set(o, "min", jsonio_num(m->st.min));
	jsonio_set(o, "max", jsonio_num(m->st.max));
	jsonio_set(o, "cv", jsonio_num(m->st.cv));
	if (m->warned) {
		char ref[256], msg[768];
		snprintf(ref, sizeof(ref), "%s.%s", ss->step, m->name);
		stats_warning_text(&m->warn, m->st.n, ref, msg, sizeof(msg));
		jsonio_set(o, "warning", jsonio_str(msg));
	}
	return o;
}

static json_t *summary_json(const struct run_cell *c)
{
	struct cell_summary *s = run_cell_summarize(c);
	json_t *a = json_array();
	for (size_t i = 0; s && i < s->nsteps; i++) {
		const struct step_summary *ss = &s->steps[i];
		json_t *o = json_object(), *m = json_object();
		jsonio_set(o, "step", jsonio_str(ss->step));
		jsonio_set(o, "workload", jsonio_str(ss->workload));
		jsonio_set(o, "failed", json_boolean(ss->failed));
		jsonio_set(o, "error", jsonio_str(ss->error));
		jsonio_set(o, "elapsed", jsonio_num(ss->elapsed));
		for (size_t j = 0; j < ss->nm; j++)
			jsonio_set(m, ss->m[j].name, metric_summary_json(ss, &ss->m[j]));
		jsonio_set(o, "metrics", m);
		jsonio_push(a, o);
	}
	cell_summary_free(s);
	return a;
}

json_t *results_cell_json(const struct run_cell *c)
{
	json_t *o = json_object(), *facts = json_object(), *reps = json_array();
	jsonio_set(o, "index", json_integer((json_int_t)c->index));
	jsonio_set(o, "id", jsonio_str(c->id));
	jsonio_set(o, "params", c->params ? results_node_json(c->params) : json_object());
	jsonio_set(o, "status", jsonio_str(run_status_name(c->status)));
	jsonio_set(o, "error", jsonio_str(c->error));
	jsonio_set(o, "started", jsonio_num(c->started));
	jsonio_set(o, "elapsed", jsonio_num(c->elapsed));
	add_metrics_info(facts, &c->facts);
	jsonio_set(o, "facts", facts);
	jsonio_set(o, "summary", summary_json(c));
	for (size_t r = 0; r < c->nreps; r++) {
		json_t *rep = json_array();
		for (size_t k = 0; k < c->reps[r].nsteps; k++)
			jsonio_push(rep, step_json(&c->reps[r].steps[k]));
		jsonio_push(reps, rep);
	}
	jsonio_set(o, "reps", reps);
	return o;
}

json_t *results_run_json(const struct run *r)
{
	json_t *o = json_object(), *sc = json_object(), *env = json_object(), *cells = json_array();
	jsonio_set(o, "format", jsonio_str(RESULTS_FORMAT));
	jsonio_set(o, "version", json_integer(RESULTS_VERSION));
	jsonio_set(o, "tool", jsonio_str(r->tool_version ? r->tool_version : "benchgrid " BENCHGRID_VERSION));
	jsonio_set(sc, "file", jsonio_str(r->scenario_file));
	jsonio_set(sc, "name", jsonio_str(r->name));
	jsonio_set(sc, "description", jsonio_str(r->description));
	jsonio_set(sc, "hash", jsonio_str(r->scenario_hash));
	jsonio_set(o, "scenario", sc);
	jsonio_set(o, "started", jsonio_num(r->started));
	jsonio_set(o, "finished", jsonio_num(r->finished));
	jsonio_set(o, "planned_cells", json_integer((json_int_t)r->nplanned));
	jsonio_set(o, "repeat", json_integer((json_int_t)r->repeat));
	jsonio_set(o, "warmup", json_integer((json_int_t)r->warmup));
	add_metrics_info(env, &r->env);
	jsonio_set(o, "environment", env);
	jsonio_set(o, "report", results_node_json(r->report_cfg));
	jsonio_set(o, "expect", results_node_json(r->expect_cfg));
	for (size_t i = 0; i < r->ncells; i++)
		jsonio_push(cells, results_cell_json(&r->cells[i]));
	jsonio_set(o, "cells", cells);
	return o;
}

static int fsync_dir_of(const char *path)
{
	char *copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd < 0)
		return -errno;
	int rc = fsync(fd) < 0 ? -errno : 0;
	close(fd);
	return rc;
}

int results_write_json(const struct run *r, const char *path, struct diag *d)
{
	char *tmp = NULL;
	int rc = 0;

	if (asprintf(&tmp, "%s.tmp", path) < 0)
		return -ENOMEM;
	FILE *f = fopen(tmp, "w");
	if (!f) {
		rc = -errno;
		diag_error(d, NULL, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return rc;
	}
	json_t *v = results_run_json(r);
	rc = jsonio_dump(v, f, true);
	json_decref(v);
	if (rc == 0 && (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0))
		rc = -(errno ? errno : EIO);
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc == 0)
		rc = fsync_dir_of(path);
	if (rc < 0) {
		diag_error(d, NULL, "cannot write %s: %s", path, strerror(-rc));
		unlink(tmp);
	}
	free(tmp);
	return rc;
}

int results_cell_write_line(FILE *f, const struct run_cell *c)
{
	json_t *v = results_cell_json(c);
	int rc = jsonio_dump(v, f, false);
	json_decref(v);
	fputc('\n', f);
	return rc < 0 || ferror(f) ? -EIO : 0;
}
