/* results_write: results.json and journal lines (see results_write.h). */
#include "results_write.h"

#include <math.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "build_info.h"
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
	if (r->skipped) { /* only then: results.json of other runs is unchanged */
		jsonio_set(o, "skipped", json_true());
		jsonio_set(o, "skip_reason", jsonio_str(r->skip_reason));
	}
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
	/* 95% intervals (stats_ci.h), only where they mean something */
	if (isfinite(m->ci_half))
		jsonio_set(o, "ci_half", jsonio_num(m->ci_half));
	if (isfinite(m->med_lo) && isfinite(m->med_hi)) {
		jsonio_set(o, "median_lo", jsonio_num(m->med_lo));
		jsonio_set(o, "median_hi", jsonio_num(m->med_hi));
	}
	if (m->warned) {
		char ref[256], msg[768];
		snprintf(ref, sizeof(ref), "%s.%s", ss->step, m->name);
		stats_warning_text(&m->warn, m->st.n, ref, msg, sizeof(msg));
		jsonio_set(o, "warning", jsonio_str(msg));
	}
	return o;
}

static json_t *summary_json(const struct run_cell *c, bool median_ci)
{
	struct cell_summary *s = run_cell_summarize_opt(c, median_ci);
	json_t *a = json_array();
	for (size_t i = 0; s && i < s->nsteps; i++) {
		const struct step_summary *ss = &s->steps[i];
		json_t *o = json_object(), *m = json_object();
		jsonio_set(o, "step", jsonio_str(ss->step));
		jsonio_set(o, "workload", jsonio_str(ss->workload));
		jsonio_set(o, "failed", json_boolean(ss->failed));
		jsonio_set(o, "error", jsonio_str(ss->error));
		if (ss->skipped) {
			jsonio_set(o, "skipped", json_true());
			jsonio_set(o, "skip_reason", jsonio_str(ss->skip_reason));
		}
		jsonio_set(o, "elapsed", jsonio_num(ss->elapsed));
		for (size_t j = 0; j < ss->nm; j++)
			jsonio_set(m, ss->m[j].name, metric_summary_json(ss, &ss->m[j]));
		jsonio_set(o, "metrics", m);
		jsonio_push(a, o);
	}
	cell_summary_free(s);
	return a;
}

/* "setup_seconds": {"fs": s, "pg": s, "data": s}: the parts the cell set
 * up (absent ones left out; no key when it reused everything). */
static void setup_seconds_json(json_t *o, const struct run_cell *c)
{
	json_t *s = json_object();
	if (c->setup_fs_s >= 0)
		jsonio_set(s, "fs", jsonio_num(c->setup_fs_s));
	if (c->setup_pg_s >= 0)
		jsonio_set(s, "pg", jsonio_num(c->setup_pg_s));
	if (c->setup_data_s >= 0)
		jsonio_set(s, "data", jsonio_num(c->setup_data_s));
	if (json_object_size(s))
		jsonio_set(o, "setup_seconds", s);
	else
		json_decref(s);
}

static json_t *cell_json(const struct run_cell *c, bool median_ci);

json_t *results_cell_json(const struct run_cell *c)
{
	return cell_json(c, true);
}

static json_t *cell_json(const struct run_cell *c, bool median_ci)
{
	json_t *o = json_object(), *facts = json_object(), *reps = json_array();
	jsonio_set(o, "index", json_integer((json_int_t)c->index));
	jsonio_set(o, "id", jsonio_str(c->id));
	jsonio_set(o, "params", c->params ? results_node_json(c->params) : json_object());
	jsonio_set(o, "status", jsonio_str(run_status_name(c->status)));
	jsonio_set(o, "error", jsonio_str(c->error));
	jsonio_set(o, "started", jsonio_num(c->started));
	jsonio_set(o, "elapsed", jsonio_num(c->elapsed));
	setup_seconds_json(o, c);
	add_metrics_info(facts, &c->facts);
	jsonio_set(o, "facts", facts);
	jsonio_set(o, "summary", summary_json(c, median_ci));
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
	/* The build that wrote this file (build_info.h). */
	json_t *build = json_object();
	const struct build_info *b = build_info();
	jsonio_set(build, "version", jsonio_str(b->version));
	jsonio_set(build, "commit", jsonio_str(b->commit));
	jsonio_set(build, "type", jsonio_str(b->type));
	jsonio_set(build, "compiler", jsonio_str(b->compiler));
	jsonio_set(o, "build", build);
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
	if (r->notes_cfg)
		jsonio_set(o, "notes", results_node_json(r->notes_cfg));
	for (size_t i = 0; i < r->ncells; i++)
		jsonio_push(cells, cell_json(&r->cells[i], !r->in_progress));
	jsonio_set(o, "cells", cells);
	return o;
}

/* ---- output files written whole, inside a directory fd ---- */

/* ".NAME.XXXXXX.tmp" with XXXXXX random: hidden, and never a name a
 * reader looks for. */
static void tmp_name(char *buf, size_t len, const char *name)
{
	static const char abc[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
	unsigned char rnd[6];
	if (getrandom(rnd, sizeof(rnd), GRND_NONBLOCK) != (ssize_t)sizeof(rnd)) {
		uint64_t x = (uint64_t)clock() ^ ((uint64_t)getpid() << 20) ^ (uint64_t)(uintptr_t)buf;
		for (size_t i = 0; i < sizeof(rnd); i++, x >>= 7)
			rnd[i] = (unsigned char)(x ^ (uint64_t)rand());
	}
	char suffix[7];
	for (size_t i = 0; i < 6; i++)
		suffix[i] = abc[rnd[i] % (sizeof(abc) - 1)];
	suffix[6] = 0;
	snprintf(buf, len, ".%s.%s.tmp", name, suffix);
}

int results_file_open(struct results_file *rf, int dirfd, const char *name)
{
	memset(rf, 0, sizeof(*rf));
	rf->fd = -1;
	rf->dirfd = dirfd;
	size_t n = strlen(name);
	if (!n || strchr(name, '/') || n >= sizeof(rf->name))
		return -EINVAL;
	memcpy(rf->name, name, n + 1);
	for (int tries = 0; tries < 100; tries++) {
		tmp_name(rf->tmp, sizeof(rf->tmp), name);
		rf->fd = openat(dirfd, rf->tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
		if (rf->fd >= 0 || errno != EEXIST)
			break;
	}
	if (rf->fd < 0)
		return -errno;
	rf->f = fdopen(rf->fd, "w");
	if (!rf->f) {
		int e = errno;
		results_file_abort(rf);
		return -e;
	}
	return 0;
}

int results_file_commit(struct results_file *rf)
{
	if (!rf->f)
		return -EINVAL;
	int rc = 0;
	errno = 0;
	if (fflush(rf->f) != 0 || ferror(rf->f))
		rc = -(errno ? errno : EIO);
	else if (fsync(rf->fd) != 0)
		rc = -errno;
	if (fclose(rf->f) != 0 && rc == 0)
		rc = -(errno ? errno : EIO);
	rf->f = NULL;
	rf->fd = -1;
	/* renameat replaces NAME itself, even when it is a symlink. */
	if (rc == 0 && renameat(rf->dirfd, rf->tmp, rf->dirfd, rf->name) != 0)
		rc = -errno;
	if (rc == 0 && fsync(rf->dirfd) != 0 && errno != EINVAL)
		rc = -errno;
	if (rc < 0)
		unlinkat(rf->dirfd, rf->tmp, 0);
	rf->tmp[0] = 0;
	return rc;
}

void results_file_abort(struct results_file *rf)
{
	if (rf->f)
		fclose(rf->f);
	else if (rf->fd >= 0)
		close(rf->fd);
	if (rf->tmp[0])
		unlinkat(rf->dirfd, rf->tmp, 0);
	rf->f = NULL;
	rf->fd = -1;
	rf->tmp[0] = 0;
}

int results_file_write(int dirfd, const char *name, const void *buf, size_t len)
{
	struct results_file rf;
	int rc = results_file_open(&rf, dirfd, name);
	if (rc < 0)
		return rc;
	if (len && fwrite(buf, 1, len, rf.f) != len) {
		rc = -(errno ? errno : EIO);
		results_file_abort(&rf);
		return rc;
	}
	return results_file_commit(&rf);
}

/* Does NAME (a regular file, not followed if a link) hold buf exactly? */
static bool holds_bytes(int dirfd, const char *name, const void *buf, size_t len)
{
	int fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return false;
	struct stat st;
	bool same = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && (size_t)st.st_size == len;
	char chunk[8192];
	for (size_t off = 0; same && off < len;) {
		ssize_t r = read(fd, chunk, sizeof(chunk));
		same =
		    r > 0 && (size_t)r <= len - off && memcmp(chunk, (const char *)buf + off, (size_t)r) == 0;
		off += r > 0 ? (size_t)r : 0;
	}
	close(fd);
	return same;
}

int results_file_write_changed(int dirfd, const char *name, const void *buf, size_t len)
{
	return holds_bytes(dirfd, name, buf, len) ? 0 : results_file_write(dirfd, name, buf, len);
}

int results_open_dir_of(const char *path, const char **base)
{
	const char *slash = strrchr(path, '/');
	*base = slash ? slash + 1 : path;
	if (!slash)
		return open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	char *dir = strndup(path, slash == path ? 1 : (size_t)(slash - path));
	if (!dir)
		return -1;
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	return fd;
}

int results_write_json_at(const struct run *r, int dirfd, const char *name, struct diag *d)
{
	struct results_file rf;
	int rc = results_file_open(&rf, dirfd, name);
	if (rc == 0) {
		json_t *v = results_run_json(r);
		errno = 0;
		rc = jsonio_dump(v, rf.f, true);
		if (rc == -EIO && errno) /* the write's own error: ENOSPC, EFBIG... */
			rc = -errno;
		json_decref(v);
		if (rc < 0) {
			results_file_abort(&rf);
		} else {
			rc = results_file_commit(&rf);
		}
	}
	if (rc < 0)
		diag_error(d, NULL, "cannot write %s: %s", name, strerror(-rc));
	return rc;
}

int results_write_json(const struct run *r, const char *path, struct diag *d)
{
	const char *base;
	int dirfd = results_open_dir_of(path, &base);
	if (dirfd < 0) {
		int rc = -errno;
		diag_error(d, NULL, "cannot write %s: %s", path, strerror(errno));
		return rc;
	}
	struct diag wd;
	diag_init(&wd);
	int rc = results_write_json_at(r, dirfd, base, &wd);
	if (rc < 0)
		diag_error(d, NULL, "cannot write %s: %s", path, strerror(-rc));
	diag_free(&wd);
	close(dirfd);
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
