/* store: opening a store and writing a run into it. */
#include "store.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cell_summary.h"
#include "diag.h"
#include "results_read.h"
#include "safe_file.h"
#include "store_db.h"
#include "store_schema.h"

bool store_is_url(const char *spec)
{
	return !strncmp(spec, "postgresql://", 13) || !strncmp(spec, "postgres://", 11);
}

const char *store_resolve(const char *spec, char *buf, size_t len)
{
	if (!spec || !*spec)
		spec = getenv("BENCHGRID_STORE");
	if (spec && *spec) {
		if (!strcmp(spec, "none")) {
			snprintf(buf, len, "switched off (BENCHGRID_STORE=none)");
			return NULL;
		}
		snprintf(buf, len, "%s", spec);
		return buf;
	}
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	if (xdg && *xdg == '/')
		snprintf(buf, len, "%s/benchgrid/results.db", xdg);
	else if (home && *home)
		snprintf(buf, len, "%s/.local/share/benchgrid/results.db", home);
	else {
		snprintf(buf, len, "no HOME to put the default store in: give --store");
		return NULL;
	}
	return buf;
}

/* mkdir -p of path's parents, each one made with mode 0700. */
static int make_parents(const char *path)
{
	char *p = strdup(path);
	if (!p)
		return -ENOMEM;
	int rc = 0;
	for (char *q = strchr(p + 1, '/'); q && rc == 0; q = strchr(q + 1, '/')) {
		*q = 0;
		if (mkdir(p, 0700) < 0 && errno != EEXIST)
			rc = -errno;
		*q = '/';
	}
	free(p);
	return rc;
}

/* The output folder's ownership rules (run/outdir.h) for a store written
 * to: the file is the effective user's and not writable by its group or
 * others, or another user could read and change the history, or have it
 * written into a file of theirs. */
static int check_owner(const char *path, const struct stat *st, char *err, size_t errlen)
{
	if (st->st_uid != geteuid()) {
		snprintf(err, errlen,
		         "%s: is owned by uid %u, not by the user writing to it (uid %u): not written "
		         "(the store must be your own file; move it away or chown it)",
		         path, (unsigned)st->st_uid, (unsigned)geteuid());
		return -EPERM;
	}
	if (st->st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(err, errlen,
		         "%s: is writable by %s: not written (chmod go-w %s: nobody else may change the "
		         "history)",
		         path, st->st_mode & S_IWOTH ? "others" : "its group", path);
		return -EPERM;
	}
	return 0;
}

/* The store file itself must be a regular file: never a symbolic link
 * (only the last component is checked: links among its folders are the
 * user's own) nor a FIFO or device, which would hang SQLite's open; one
 * written to must pass check_owner. */
static int check_file(const char *path, bool readonly, char *err, size_t errlen)
{
	struct stat st;
	if (lstat(path, &st) < 0) {
		int e = errno;
		snprintf(err, errlen, "%s: %s", path, strerror(e));
		return -e;
	}
	if (S_ISLNK(st.st_mode)) {
		snprintf(err, errlen, "%s: is a symbolic link, not followed: give the file it points to",
		         path);
		return -ELOOP;
	}
	if (!S_ISREG(st.st_mode)) {
		snprintf(err, errlen, "%s: not a regular file", path);
		return -EINVAL;
	}
	return readonly ? 0 : check_owner(path, &st, err, errlen);
}

/* A new store file is made here, private (0600), before SQLite opens it;
 * an existing one is left as it is. Never through a symbolic link. 1 when
 * made, 0 when it was there, or a negative errno. */
static int create_file(const char *path)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	return errno == EEXIST ? 0 : -errno;
}

/* path with the symbolic links of its folders resolved (realpath of the
 * parent): SQLITE_OPEN_NOFOLLOW refuses a link in any component, and then
 * only guards the file itself. NULL: out of memory or no such folder. */
static char *resolve_folders(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = slash ? strndup(path, slash == path ? 1 : (size_t)(slash - path)) : strdup(".");
	char *real = dir ? realpath(dir, NULL) : NULL;
	char *out = NULL;
	if (real && asprintf(&out, "%s/%s", strcmp(real, "/") ? real : "", slash ? slash + 1 : path) < 0)
		out = NULL;
	free(dir);
	free(real);
	return out;
}

/* Open the SQLite file spec (made first unless readonly). */
static int open_file(struct store *s, const char *spec, bool readonly, char *err, size_t errlen)
{
	int rc, made = 0;
	if (!readonly && ((rc = make_parents(spec)) < 0 || (made = rc = create_file(spec)) < 0)) {
		snprintf(err, errlen, "%s: %s", spec, strerror(-rc));
		return rc;
	}
	if ((rc = check_file(spec, readonly, err, errlen)) < 0)
		return rc;
	char *real = resolve_folders(spec);
	if (!real) {
		rc = -errno;
		snprintf(err, errlen, "%s: %s", spec, strerror(errno));
	} else {
		rc = sdb_open_sqlite(s, real, readonly);
		if (rc < 0)
			snprintf(err, errlen, "%s", s->err);
		free(real);
	}
	struct stat st;
	/* not left behind empty by a failed open (unless another writer filled it) */
	if (rc < 0 && made && lstat(spec, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0)
		unlink(spec);
	return rc;
}

int store_open(const char *spec, bool readonly, struct store **out, char *err, size_t errlen)
{
	*out = NULL;
	struct store *s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	int rc;
	if (store_is_url(spec)) {
		rc = sdb_open_pg(s, spec, readonly);
	} else if ((rc = open_file(s, spec, readonly, err, errlen)) < 0) {
		store_close(s);
		return rc;
	}
	if (rc == 0 && !readonly && store_schema_migrate(s, store_schema_latest()) < 0)
		rc = -EIO;
	if (rc == 0 && readonly) {
		int v = store_schema_version(s);
		if (v <= 0)
			rc = v == 0 ? -ENOENT : -EIO;
		if (v == 0)
			snprintf(s->err, sizeof(s->err), "%s: holds no benchgrid results", spec);
	}
	if (rc < 0) {
		snprintf(err, errlen, "%s", s->err);
		store_close(s);
		return rc;
	}
	*out = s;
	return 0;
}

void store_close(struct store *s)
{
	if (!s)
		return;
	sdb_close(s);
	free(s);
}

void store_run_id(const struct run *r, char out[17])
{
	run_id(r, out);
}

/* Numbers as statement parameters: shortest text that reads back the same;
 * NULL (SQL NULL) for NaN and infinities. */
struct numbuf {
	char b[8][40];
};

static const char *num(struct numbuf *nb, int slot, double v)
{
	if (!isfinite(v))
		return NULL;
	snprintf(nb->b[slot], sizeof(nb->b[slot]), "%.17g", v);
	return nb->b[slot];
}

static const char *inum(struct numbuf *nb, int slot, long long v)
{
	snprintf(nb->b[slot], sizeof(nb->b[slot]), "%lld", v);
	return nb->b[slot];
}

static int put(struct store *s, const char *sql, int n, const char *const *p)
{
	return sdb_exec(s, sql, n, p, NULL, NULL) < 0 ? -1 : 0;
}

/* One fact of a cell, or of the run (cell_id NULL: environment). A key
 * seen twice keeps its first value. */
static int put_fact(struct store *s, const char *run_id, const char *cell_id, const char *key,
                    const char *value)
{
	if (!cell_id) {
		const char *p[] = {run_id, key, value};
		return put(s,
		           "INSERT INTO environment (run_id, key, value) VALUES ($1, $2, $3)"
		           " ON CONFLICT DO NOTHING",
		           3, p);
	}
	const char *p[] = {run_id, cell_id, key, value};
	return put(s,
	           "INSERT INTO facts (run_id, cell_id, key, value) VALUES ($1, $2, $3, $4)"
	           " ON CONFLICT DO NOTHING",
	           4, p);
}

/* Facts of a cell or of the run: info keys ("warning" may repeat: the
 * second is "warning.2"), then metrics as text. */
static int put_facts(struct store *s, const char *run_id, const char *cell_id, const struct step_result *f)
{
	for (size_t i = 0; i < f->ni; i++) {
		char key[512];
		size_t dup = 0;
		for (size_t j = 0; j < i; j++)
			dup += !strcmp(f->info[j].key, f->info[i].key);
		if (dup)
			snprintf(key, sizeof(key), "%s.%zu", f->info[i].key, dup + 1);
		else
			snprintf(key, sizeof(key), "%s", f->info[i].key);
		if (put_fact(s, run_id, cell_id, key, f->info[i].value) < 0)
			return -1;
	}
	struct numbuf nb;
	for (size_t i = 0; i < f->nm; i++)
		if (put_fact(s, run_id, cell_id, f->m[i].name, num(&nb, 0, f->m[i].value)) < 0)
			return -1;
	return 0;
}

/* The cell's "setup_seconds" {"fs", "pg", "data"} in results.json, when
 * written (NaN otherwise). */
static void setup_seconds(const json_t *root, const char *cell_id, double out[3])
{
	static const char *const keys[] = {"fs", "pg", "data"};
	out[0] = out[1] = out[2] = NAN;
	const json_t *cells = root ? json_object_get(root, "cells") : NULL;
	size_t i;
	const json_t *c;
	json_array_foreach(cells, i, c)
	{
		const char *id = json_string_value(json_object_get(c, "id"));
		const json_t *ss = json_object_get(c, "setup_seconds");
		if (!id || strcmp(id, cell_id) || !json_is_object(ss))
			continue;
		for (size_t k = 0; k < 3; k++) {
			const json_t *v = json_object_get(ss, keys[k]);
			if (json_is_number(v))
				out[k] = json_number_value(v);
		}
	}
}

static int put_steps(struct store *s, const char *run_id, const struct run_cell *c)
{
	struct numbuf nb;
	for (size_t r = 0; r < c->nreps; r++)
		for (size_t i = 0; i < c->reps[r].nsteps; i++) {
			const struct step_result *st = &c->reps[r].steps[i];
			const char *p[] = {run_id,
			                   c->id,
			                   inum(&nb, 0, (long long)r + 1),
			                   inum(&nb, 1, (long long)i),
			                   st->step ? st->step : "",
			                   st->workload,
			                   st->failed ? "1" : "0",
			                   st->error,
			                   num(&nb, 2, st->started),
			                   num(&nb, 3, st->elapsed)};
			if (put(s,
			        "INSERT INTO steps (run_id, cell_id, rep, step_index, step, workload, "
			        "failed, error,"
			        " started, elapsed) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
			        10, p) < 0)
				return -1;
		}
	return 0;
}

/* Each metric's summary over the repetitions, and one sample per
 * repetition that has it. */
/* The fact headline.STEP: the step's headline metrics by the one rule
 * (headline.h), space-separated; history's default metric is the first
 * one of the first step. */
static int put_headline(struct store *s, const char *run_id, const char *cell_id,
                        const struct step_summary *ss)
{
	const struct metric_summary *h[HEADLINE_MAX];
	size_t n = step_headlines(ss, h), used = 0;
	char key[512], names[1024] = "";
	for (size_t i = 0; i < n && used < sizeof(names); i++)
		used +=
		    (size_t)snprintf(names + used, sizeof(names) - used, "%s%s", i ? " " : "", h[i]->name);
	snprintf(key, sizeof(key), "headline.%s", ss->step);
	return n ? put_fact(s, run_id, cell_id, key, names) : 0;
}

static int put_metrics(struct store *s, const char *run_id, const struct run_cell *c)
{
	struct cell_summary *cs = run_cell_summarize(c);
	if (!cs) {
		snprintf(s->err, sizeof(s->err), "out of memory");
		return -1;
	}
	struct numbuf nb;
	int rc = 0;
	for (size_t i = 0; i < cs->nsteps && rc == 0; i++) {
		const struct step_summary *ss = &cs->steps[i];
		rc = put_headline(s, run_id, c->id, ss);
		for (size_t j = 0; j < ss->nm && rc == 0; j++) {
			const struct metric_summary *m = &ss->m[j];
			const char *p[] = {run_id,
			                   c->id,
			                   ss->step,
			                   m->name,
			                   m->unit,
			                   num(&nb, 0, m->st.mean),
			                   inum(&nb, 1, (long long)m->st.n),
			                   num(&nb, 2, m->st.stddev),
			                   num(&nb, 3, m->st.median),
			                   num(&nb, 4, m->st.min),
			                   num(&nb, 5, m->st.max)};
			rc = put(
			    s,
			    "INSERT INTO metrics (run_id, cell_id, step, metric, unit, value, n, stddev, "
			    "median,"
			    " min_value, max_value) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
			    11, p);
			for (size_t k = 0; k < m->n && rc == 0; k++) {
				if (!isfinite(m->v[k]))
					continue;
				const char *q[] = {run_id,
				                   c->id,
				                   ss->step,
				                   m->name,
				                   inum(&nb, 0, (long long)k + 1),
				                   num(&nb, 1, m->v[k])};
				rc = put(s,
				         "INSERT INTO samples (run_id, cell_id, step, metric, rep, value)"
				         " VALUES ($1, $2, $3, $4, $5, $6)",
				         6, q);
			}
		}
	}
	cell_summary_free(cs);
	return rc;
}

static int put_cell(struct store *s, const char *run_id, const struct run *r, const json_t *root,
                    const struct run_cell *c)
{
	struct numbuf nb;
	char label[1024];
	double setup[3];
	run_cell_label(c, label, sizeof(label));
	setup_seconds(root, c->id, setup);
	const char *host = result_info_get(&c->facts, "host");
	if (!host)
		host = result_info_get(&r->env, "machine.host");
	const char *p[] = {run_id,
	                   c->id,
	                   inum(&nb, 0, (long long)c->index),
	                   label,
	                   host,
	                   run_status_name(c->status),
	                   c->error,
	                   num(&nb, 1, c->started),
	                   num(&nb, 2, c->elapsed),
	                   num(&nb, 3, setup[0]),
	                   num(&nb, 4, setup[1]),
	                   num(&nb, 5, setup[2])};
	if (put(s,
	        "INSERT INTO cells (run_id, cell_id, cell_index, label, host, status, error, started, "
	        "elapsed,"
	        " setup_fs_s, setup_pg_s, setup_data_s) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11,"
	        " $12)",
	        12, p) < 0)
		return -1;
	const struct node *params = c->params;
	for (size_t i = 0; params && params->kind == NODE_MAP && i < params->n; i++) {
		const struct node *v = params->items[i];
		const char *q[] = {run_id, c->id, params->keys[i],
		                   v && v->kind == NODE_SCALAR ? v->text : NULL};
		if (put(s, "INSERT INTO params (run_id, cell_id, name, value) VALUES ($1, $2, $3, $4)", 4,
		        q) < 0)
			return -1;
	}
	if (put_facts(s, run_id, c->id, &c->facts) < 0 || put_steps(s, run_id, c) < 0)
		return -1;
	return put_metrics(s, run_id, c);
}

/* Write the run's rows; -1 with why in s->err. */
static int put_rows(struct store *s, const char *run_id, const struct run *r, const json_t *root)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (put_cell(s, run_id, r, root, &r->cells[i]) < 0)
			return -1;
	if (put_facts(s, run_id, NULL, &r->env) < 0)
		return -1;
	/* The build (results.json "build"), which the model does not keep: a
	 * regression between two commits of benchgrid itself shows there. */
	const json_t *build = root ? json_object_get(root, "build") : NULL;
	const char *commit = json_string_value(json_object_get(build, "commit"));
	if (commit && put_fact(s, run_id, NULL, "benchgrid.commit", commit) < 0)
		return -1;
	const char *p[] = {run_id, "benchgrid.version", r->tool_version};
	return r->tool_version
	           ? put(s, "INSERT INTO environment (run_id, key, value) VALUES ($1, $2, $3)", 3, p)
	           : 0;
}

int store_put_run(struct store *s, const struct run *r, const json_t *root, const char *run_dir, char *err,
                  size_t errlen)
{
	char run_id[17], absdir[4096];
	store_run_id(r, run_id);
	if (!realpath(run_dir, absdir))
		snprintf(absdir, sizeof(absdir), "%s", run_dir);
	struct numbuf nb;
	const char *host = result_info_get(&r->env, "machine.host");
	const char *p[] = {run_id,
	                   r->name ? r->name : "",
	                   r->scenario_file,
	                   r->scenario_hash,
	                   r->description,
	                   host,
	                   num(&nb, 0, r->started),
	                   num(&nb, 1, r->finished),
	                   inum(&nb, 2, (long long)r->nplanned),
	                   inum(&nb, 3, (long long)r->repeat),
	                   inum(&nb, 4, (long long)r->warmup),
	                   r->tool_version,
	                   absdir,
	                   num(&nb, 5, (double)time(NULL))};
	if (sdb_begin(s) < 0)
		goto fail;
	/* Two processes storing the same run: the second's insert waits for
	 * the first's transaction, then adds no row and stops here. */
	long added =
	    sdb_exec(s,
	             "INSERT INTO runs (run_id, scenario, scenario_file, scenario_hash, description, host,"
	             " started, finished, planned_cells, repeat_count, warmup, tool_version, output_dir,"
	             " stored_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)"
	             " ON CONFLICT (run_id) DO NOTHING",
	             14, p, NULL, NULL);
	if (added < 0)
		goto fail;
	if (added == 0) {
		sdb_rollback(s);
		return 1;
	}
	if (put_rows(s, run_id, r, root) < 0 || sdb_commit(s) < 0)
		goto fail;
	return 0;
fail:
	snprintf(err, errlen, "%s", s->err);
	sdb_rollback(s);
	return -EIO;
}

int store_put_dir(struct store *s, const char *dir, char *err, size_t errlen)
{
	char path[4096];
	snprintf(path, sizeof(path), "%s/results.json", dir);
	json_error_t je;
	size_t len;
	/* the folder the user named; a regular file, capped (util/safe_file) */
	char *text = safe_file_read(path, SAFE_FILE_FOLLOW | SAFE_FILE_PRIVATE_OK, SAFE_FILE_RESULTS_MAX,
	                            &len, err, errlen);
	if (!text)
		return -ENOENT;
	json_t *root = json_loadb(text, len, 0, &je);
	free(text);
	if (!root) {
		snprintf(err, errlen, "%s:%d:%d: %s", path, je.line, je.column, je.text);
		return -ENOENT;
	}
	struct run r;
	struct diag d;
	diag_init(&d);
	int rc = results_from_json(&r, root, path, &d);
	if (rc < 0) {
		if (d.n)
			diag_format_one(&d.v[0], err, errlen);
		else
			snprintf(err, errlen, "%s: not a benchgrid results file", path);
		rc = -EINVAL;
	} else if (r.finished <= 0) {
		snprintf(err, errlen, "%s: the run did not finish (complete it with run --resume)", path);
		rc = -EAGAIN;
	} else {
		rc = store_put_run(s, &r, root, dir, err, errlen);
	}
	run_free(&r);
	diag_free(&d);
	json_decref(root);
	return rc;
}
