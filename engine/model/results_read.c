/* results_read: results.json and journal lines back into the model (see
 * results_read.h). jansson keeps no positions of values, so errors about the
 * content name the file only; syntax errors carry line and column. */
#include "results_read.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "jsonio.h"
#include "safe_file.h"

static int bad(struct diag *d, const char *file, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int bad(struct diag *d, const char *file, const char *fmt, ...)
{
	struct src_pos pos = {diag_intern(file ? file : "<json>"), 0, 0};
	va_list ap;
	va_start(ap, fmt);
	diag_vadd(d, DIAG_ERROR, &pos, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static struct node *scalar_node(const json_t *v, const struct src_pos *pos)
{
	char buf[48];
	switch (json_typeof(v)) {
	case JSON_TRUE: return node_new_scalar("true", pos);
	case JSON_FALSE: return node_new_scalar("false", pos);
	case JSON_INTEGER:
	case JSON_REAL: jsonio_number_canonical(v, buf, sizeof(buf)); return node_new_scalar(buf, pos);
	case JSON_STRING: {
		struct node *n = node_new_scalar(json_string_value(v), pos);
		if (n)
			n->quoted = true;
		return n;
	}
	default: return node_new(NODE_NULL, pos);
	}
}

struct node *results_node_from_json(const json_t *v, const char *file)
{
	struct src_pos pos = {diag_intern(file ? file : "<json>"), 0, 0};
	struct node *n;
	size_t i;
	const char *key;
	json_t *item;

	if (json_is_array(v)) {
		n = node_new(NODE_SEQ, &pos);
		json_array_foreach(v, i, item)
		{
			struct node *c = n ? results_node_from_json(item, file) : NULL;
			if (!c) {
				node_free(n);
				return NULL;
			}
			node_seq_push(n, c);
		}
		return n;
	}
	if (json_is_object(v)) {
		n = node_new(NODE_MAP, &pos);
		json_object_foreach((json_t *)v, key, item)
		{
			struct node *c = n ? results_node_from_json(item, file) : NULL;
			if (!c) {
				node_free(n);
				return NULL;
			}
			node_map_put(n, key, &pos, c);
		}
		return n;
	}
	return scalar_node(v, &pos);
}

static int read_metrics(const json_t *m, struct step_result *r, const char *file, struct diag *d)
{
	const char *key;
	json_t *e;
	if (m && !json_is_object(m))
		return bad(d, file, "\"metrics\" must be an object");
	json_object_foreach((json_t *)m, key, e)
	{
		if (!json_is_object(e))
			return bad(d, file, "metric \"%s\" must be an object {value, unit}", key);
		const json_t *val = json_object_get(e, "value");
		if (!json_is_number(val) && !json_is_null(val))
			return bad(d, file, "metric \"%s\" needs a numeric \"value\"", key);
		result_metric(r, key, jsonio_num_value(val), jsonio_get_str(e, "unit", ""));
	}
	return 0;
}

static int read_info(const json_t *in, struct step_result *r, const char *file, struct diag *d)
{
	const char *key;
	json_t *e, *item;
	size_t k;
	if (in && !json_is_object(in))
		return bad(d, file, "\"info\" must be an object");
	json_object_foreach((json_t *)in, key, e)
	{
		if (json_is_string(e)) {
			result_info(r, key, "%s", json_string_value(e));
		} else if (json_is_array(e)) {
			json_array_foreach(e, k, item)
			{
				if (!json_is_string(item))
					return bad(d, file, "info values must be strings");
				result_info(r, key, "%s", json_string_value(item));
			}
		} else {
			return bad(d, file, "info \"%s\" must be a string or an array of strings", key);
		}
	}
	return 0;
}

static int read_metrics_info(const json_t *o, struct step_result *r, const char *file, struct diag *d)
{
	int rc = read_metrics(json_object_get(o, "metrics"), r, file, d);
	return rc < 0 ? rc : read_info(json_object_get(o, "info"), r, file, d);
}

static int read_series(const json_t *ser, struct step_result *r, const char *file, struct diag *d)
{
	const char *key;
	json_t *s;
	if (ser && !json_is_object(ser))
		return bad(d, file, "\"series\" must be an object");
	json_object_foreach((json_t *)ser, key, s)
	{
		const json_t *t = json_object_get(s, "t"), *v = json_object_get(s, "v");
		if (!json_is_array(t) || !json_is_array(v) || json_array_size(t) != json_array_size(v))
			return bad(d, file, "series \"%s\" needs arrays \"t\" and \"v\" of equal length",
			           key);
		const char *unit = jsonio_get_str(s, "unit", "");
		for (size_t k = 0; k < json_array_size(t); k++)
			result_sample(r, key, unit, jsonio_num_value(json_array_get(t, k)),
			              jsonio_num_value(json_array_get(v, k)));
	}
	return 0;
}

static int read_step(const json_t *o, struct step_result *r, const char *file, struct diag *d)
{
	if (!json_is_object(o))
		return bad(d, file, "a step result must be an object");
	const char *name = jsonio_get_str(o, "name", NULL);
	if (!name)
		return bad(d, file, "step result lacks \"name\"");
	result_init(r, name, jsonio_get_str(o, "workload", ""));
	r->failed = jsonio_get_bool(o, "failed", false);
	const char *err = jsonio_get_str(o, "error", NULL);
	if (err)
		r->error = strdup(err);
	if (jsonio_get_bool(o, "skipped", false))
		result_skip(r, jsonio_get_str(o, "skip_reason", ""));
	r->started = jsonio_get_num(o, "started", 0);
	r->elapsed = jsonio_get_num(o, "elapsed", 0);
	int rc = read_metrics_info(o, r, file, d);
	return rc < 0 ? rc : read_series(json_object_get(o, "series"), r, file, d);
}

static int read_reps(const json_t *reps, struct run_cell *c, const char *file, struct diag *d)
{
	size_t r, k;
	json_t *rep, *item;
	if (reps && !json_is_array(reps))
		return bad(d, file, "\"reps\" must be an array of arrays of steps");
	json_array_foreach(reps, r, rep)
	{
		if (!json_is_array(rep))
			return bad(d, file, "each repetition must be an array of steps");
		if (!run_cell_rep(c, r)) /* also keeps empty repetitions */
			return -ENOMEM;
		json_array_foreach(rep, k, item)
		{
			struct step_result sr;
			memset(&sr, 0, sizeof(sr));
			int rc = read_step(item, &sr, file, d);
			if (rc < 0) {
				result_free(&sr);
				return rc;
			}
			run_cell_take_step(c, r, &sr);
		}
	}
	return 0;
}

int results_cell_from_json(const json_t *o, struct run_cell *c, const char *file, struct diag *d)
{
	run_cell_init(c);
	if (!json_is_object(o))
		return bad(d, file, "a cell must be an object");
	const json_t *idx = json_object_get(o, "index"), *params = json_object_get(o, "params");
	const char *id = jsonio_get_str(o, "id", NULL);
	if (!json_is_integer(idx) || json_integer_value(idx) < 0)
		return bad(d, file, "cell needs a non-negative integer \"index\"");
	if (!id || strlen(id) >= sizeof(c->id))
		return bad(d, file, "cell needs a string \"id\" of at most 12 characters");
	if (!json_is_object(params))
		return bad(d, file, "cell needs an object \"params\"");
	c->index = (size_t)json_integer_value(idx);
	strcpy(c->id, id);
	c->params = results_node_from_json(params, file);
	if (run_status_parse(jsonio_get_str(o, "status", NULL), &c->status) < 0)
		return bad(d, file, "cell \"status\" must be \"ok\", \"failed\" or \"skipped\"");
	const char *err = jsonio_get_str(o, "error", NULL);
	if (err)
		c->error = strdup(err);
	c->started = jsonio_get_num(o, "started", 0);
	c->elapsed = jsonio_get_num(o, "elapsed", 0);
	const json_t *setup = json_object_get(o, "setup_seconds");
	c->setup_fs_s = jsonio_get_num(setup, "fs", -1);
	c->setup_pg_s = jsonio_get_num(setup, "pg", -1);
	c->setup_data_s = jsonio_get_num(setup, "data", -1);
	const json_t *facts = json_object_get(o, "facts");
	if (facts) {
		int rc = read_metrics_info(facts, &c->facts, file, d);
		if (rc < 0)
			return rc;
	}
	return read_reps(json_object_get(o, "reps"), c, file, d);
}

int results_cell_parse_line(const char *line, size_t len, struct run_cell *c, struct diag *d)
{
	json_t *v = jsonio_parse(line, len, "<journal>", d);
	if (!v) {
		run_cell_init(c);
		return -EINVAL;
	}
	int rc = results_cell_from_json(v, c, "<journal>", d);
	json_decref(v);
	return rc;
}

/* A non-negative whole number, 0 when absent or not one. */
static size_t get_count(const json_t *v, const char *key)
{
	double x = jsonio_get_num(v, key, 0);
	return x >= 0 && x < 9e15 ? (size_t)x : 0;
}

static int read_cells(struct run *r, const json_t *cells, const char *file, struct diag *d)
{
	size_t i;
	json_t *item;
	if (!json_is_array(cells))
		return bad(d, file, "results need an array \"cells\"");
	json_array_foreach(cells, i, item)
	{
		struct run_cell c;
		int rc = results_cell_from_json(item, &c, file, d);
		if (rc < 0) {
			run_cell_free(&c);
			return rc;
		}
		if (!run_take_cell(r, &c)) {
			run_cell_free(&c);
			return -ENOMEM;
		}
	}
	return 0;
}

int results_from_json(struct run *r, const json_t *v, const char *file, struct diag *d)
{
	run_init(r);
	if (!json_is_object(v))
		return bad(d, file, "results must be a JSON object");
	const char *fmt = jsonio_get_str(v, "format", NULL);
	if (!fmt || strcmp(fmt, RESULTS_FORMAT) != 0)
		return bad(d, file, "not a benchgrid results file (\"format\" is not \"%s\")",
		           RESULTS_FORMAT);
	double ver = jsonio_get_num(v, "version", 0);
	if (ver != RESULTS_VERSION)
		return bad(d, file, "results format version %g is not supported (expected %d)", ver,
		           RESULTS_VERSION);
	run_set(&r->tool_version, jsonio_get_str(v, "tool", NULL));
	const json_t *sc = json_object_get(v, "scenario");
	run_set(&r->scenario_file, jsonio_get_str(sc, "file", NULL));
	run_set(&r->name, jsonio_get_str(sc, "name", NULL));
	run_set(&r->description, jsonio_get_str(sc, "description", NULL));
	run_set(&r->scenario_hash, jsonio_get_str(sc, "hash", NULL));
	r->started = jsonio_get_num(v, "started", 0);
	r->finished = jsonio_get_num(v, "finished", 0);
	r->nplanned = get_count(v, "planned_cells");
	r->repeat = get_count(v, "repeat");
	r->warmup = get_count(v, "warmup");
	const json_t *env = json_object_get(v, "environment");
	if (env) {
		int rc = read_metrics_info(env, &r->env, file, d);
		if (rc < 0)
			return rc;
	}
	const json_t *rep = json_object_get(v, "report"), *exp = json_object_get(v, "expect");
	if (rep && !json_is_null(rep))
		r->report_cfg = results_node_from_json(rep, file);
	if (exp && !json_is_null(exp))
		r->expect_cfg = results_node_from_json(exp, file);
	const json_t *notes = json_object_get(v, "notes");
	if (notes && !json_is_null(notes))
		r->notes_cfg = results_node_from_json(notes, file);
	return read_cells(r, json_object_get(v, "cells"), file, d);
}

int results_read_json(struct run *r, const char *path, struct diag *d)
{
	/* safe_file's rules: results.json is written by renameat, never a
	 * link; a planted one (or a FIFO, /dev/zero) is refused unread */
	char err[4096 + 512];
	size_t len;
	char *text =
	    safe_file_read(path, SAFE_FILE_PRIVATE_OK, SAFE_FILE_RESULTS_MAX, &len, err, sizeof(err));
	if (!text)
		diag_error(d, NULL, "%s", err);
	json_t *v = text ? jsonio_parse(text, len, path, d) : NULL;
	free(text);
	if (!v) {
		run_init(r);
		return -EINVAL;
	}
	int rc = results_from_json(r, v, path, d);
	json_decref(v);
	return rc;
}
