/* run_fixture: what the runner core's unit tests (tests/run/) share: a
 * scratch folder per test, a scenario written there and planned as `run`
 * plans it (spec_open, plan_build), a run_env for cell_run/step_run as
 * runner.c builds one, and readers of what a run wrote (results.json and
 * journal lines through the model's readers). Real files, real processes:
 * no mocks. Include after <cmocka.h>. */
#ifndef BENCHGRID_RUN_FIXTURE_H
#define BENCHGRID_RUN_FIXTURE_H

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal.h"
#include "matrix.h"
#include "outdir.h"
#include "plan.h"
#include "results.h"
#include "runner.h"
#include "shard.h"
#include "run_env.h"
#include "spec.h"
#include "validators.h"

/* A fresh folder /tmp/bg-run-XXXXXX (dir holds its path); the state
 * journal of the undo actions goes into it (BENCHGRID_STATE), so a test
 * never shares /run/benchgrid/state with a real run. */
static inline void rf_tmpdir(char *dir, size_t len)
{
	snprintf(dir, len, "/tmp/bg-run-XXXXXX");
	assert_non_null(mkdtemp(dir));
	char state[512];
	snprintf(state, sizeof(state), "%s/state", dir);
	setenv("BENCHGRID_STATE", state, 1);
}

static int rf_rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DP)
		return rmdir(p) < 0 ? 0 : 0;
	return unlink(p) < 0 ? 0 : 0;
}

/* Remove a scratch folder with everything in it (never following a link). */
static inline void rf_rmtree(const char *dir)
{
	nftw(dir, rf_rm_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT);
}

static inline void rf_write(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

/* The whole of a file (malloc'd), or NULL when it cannot be read. */
static inline char *rf_read(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0;
	char *buf = malloc(cap);
	size_t got;
	while ((got = fread(buf + n, 1, cap - n - 1, f)) > 0) {
		n += got;
		if (n + 1 == cap)
			buf = realloc(buf, cap *= 2);
	}
	fclose(f);
	buf[n] = 0;
	return buf;
}

static inline size_t rf_count(const char *text, const char *what)
{
	size_t n = 0;
	for (const char *p = text; (p = strstr(p, what)); p += strlen(what))
		n++;
	return n;
}

/* A planned scenario: yaml written to DIR/scenario.yaml, opened and
 * planned (cells in run order) with no error. */
struct rf_plan {
	struct spec *s;
	struct cell *cells;
	size_t n;
};

static inline void rf_plan(struct rf_plan *p, const char *dir, const char *yaml)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/scenario.yaml", dir);
	rf_write(path, yaml);
	struct diag d;
	diag_init(&d);
	static bool registered;
	if (!registered) /* the workloads' and targets' checks, as main() does */
		validators_register();
	registered = true;
	p->s = spec_open(path, NULL, &d);
	assert_non_null(p->s);
	p->cells = NULL;
	p->n = 0;
	plan_build(p->s, &p->cells, &p->n, &d);
	if (d.nerrors) {
		diag_print(&d, stderr);
		fail_msg("the test's scenario does not check");
	}
	diag_free(&d);
}

static inline void rf_plan_free(struct rf_plan *p)
{
	matrix_free(p->cells, p->n);
	spec_free(p->s);
}

/* A run_env as runner.c's runner_run and start() build it: the output
 * directory DIR/out opened with its cells/ folder, a work folder DIR/work,
 * repeat, warmup and timeout of the scenario, no progress output. */
static inline void rf_env(struct run_env *E, const struct spec *s, const char *dir)
{
	memset(E, 0, sizeof(*E));
	struct diag d;
	diag_init(&d);
	E->s = s;
	assert_true(asprintf(&E->outdir, "%s/out", dir) > 0);
	assert_true(asprintf(&E->work, "%s/work", dir) > 0);
	assert_int_equal(mkdir(E->work, 0755), 0);
	E->outfd = outdir_open(E->outdir, false, &d);
	assert_true(E->outfd >= 0);
	char err[4600], path[4200];
	snprintf(path, sizeof(path), "%s/cells", E->outdir);
	E->cellsfd = outdir_subdir(E->outfd, "cells", path, err, sizeof(err));
	assert_true(E->cellsfd >= 0);
	E->cellfd = -1;
	E->quiet = 1;
	assert_int_equal(repeat_spec_read(s->root, &E->rs, &d), 0);
	E->repeat = E->rs.max;
	const struct node *v;
	if ((v = node_get(s->root, "warmup")))
		assert_int_equal(node_as_int(v, "warmup", 0, 1000000, &E->warmup, &d), 0);
	if ((v = node_get(s->root, "timeout")))
		assert_int_equal(node_as_duration(v, "timeout", false, &E->default_timeout, &d), 0);
	E->lua = s->lua;
	progress_init(&E->prog, 1);
	assert_int_equal(d.nerrors, 0);
	diag_free(&d);
}

/* Everything down (fixture_set_down, as runner.c's finish), fds closed. */
static inline void rf_env_free(struct run_env *E)
{
	struct diag d;
	diag_init(&d);
	fixture_set_down(&E->fx, &d);
	mon_devs_free(&E->devs);
	progress_end(&E->prog);
	assert_int_equal(E->fx.down_failures, 0);
	diag_free(&d);
	close(E->cellsfd);
	close(E->outfd);
	repeat_spec_free(&E->rs);
	free(E->outdir);
	free(E->work);
}

/* DIR/results.json back through the model's reader. */
static inline void rf_read_results(struct run *r, const char *outdir)
{
	char path[4200];
	snprintf(path, sizeof(path), "%s/results.json", outdir);
	struct diag d;
	diag_init(&d);
	if (results_read_json(r, path, &d) < 0) {
		diag_print(&d, stderr);
		fail_msg("cannot read %s", path);
	}
	diag_free(&d);
}

/* The cells of a journal (every line through results_cell_parse_line),
 * in the order of its lines, into r (initialised here); the number of
 * lines, or -1 when a line does not parse. */
static inline long rf_read_journal(struct run *r, const char *path)
{
	run_init(r);
	char *text = rf_read(path);
	if (!text)
		return 0;
	long lines = 0;
	for (char *p = text, *nl; *p; p = nl + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			break; /* a torn last line is not a cell */
		struct run_cell c;
		struct diag d;
		diag_init(&d);
		int rc = results_cell_parse_line(p, (size_t)(nl - p), &c, &d);
		diag_free(&d);
		if (rc < 0) {
			run_cell_free(&c);
			free(text);
			return -1;
		}
		run_take_cell(r, &c);
		lines++;
	}
	free(text);
	return lines;
}

/* The parameter text of a cell, or "" (for assertions). */
static inline const char *rf_param(const struct run_cell *c, const char *name)
{
	const char *v = run_cell_param(c, name);
	return v ? v : "";
}

/* runner_run of the whole plan (or of share `share` of sp) into outdir,
 * quiet, with temporary targets under dir; its exit status. */
static inline int rf_runner(struct rf_plan *p, const char *dir, const char *outdir, bool resume,
                            const struct shard_plan *sp, size_t share)
{
	struct runner_opts o = {
	    .outdir = outdir, .resume = resume, .quiet = 1, .work_dir = dir, .shards = sp, .share = share};
	struct diag d;
	diag_init(&d);
	int rc = runner_run(p->s, p->cells, p->n, &o, &d);
	if (rc != 0 && rc != 1)
		diag_print(&d, stderr);
	diag_free(&d);
	return rc;
}

/* stderr into a file while f runs (what merge and the runner say there). */
static inline char *rf_stderr_of(const char *dir, int (*f)(void *), void *arg, int *rc)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/stderr.txt", dir);
	fflush(stderr);
	int saved = dup(STDERR_FILENO);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	assert_true(fd >= 0 && saved >= 0);
	dup2(fd, STDERR_FILENO);
	close(fd);
	*rc = f(arg);
	fflush(stderr);
	dup2(saved, STDERR_FILENO);
	close(saved);
	return rf_read(path);
}

#endif
