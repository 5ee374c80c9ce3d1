/* Unit tests: report.md's Server activity section (reporters/
 * rep_md_activity.c) from a crafted run: two cells whose pgbench step
 * recorded the sampler's figures and one exec step that did not. The
 * section has a tps chart per sampled step with one dotted event line per
 * interval that counted a checkpoint, the buffers by writer, and the top
 * wait events as average backends (count / samples), sorted most frequent
 * first whatever the order of the metrics;
 * the Steps table leaves the pg_wait.* metrics out; a run without the
 * sampler's figures has no section. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "rep.h"
#include "results.h"
#include "rmtree.h"

static char tmpdir[] = "/tmp/bg-act-XXXXXX";

static int setup(void **state)
{
	(void)state;
	return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
	(void)state;
	return rmtree(tmpdir, NULL);
}

/* Cell i's pgbench step, with the sampler's figures when sampled. */
static void load_step(struct step_result *s, int i, bool sampled)
{
	result_init(s, "load", "pgbench");
	result_metric(s, "tps", 1000.0 * (i + 1), "tps");
	if (!sampled)
		return;
	result_metric(s, "pg_xacts", 5000.0 * (i + 1), "");
	result_metric(s, "pg_tps", 1000.0 * (i + 1), "tps");
	result_metric(s, "pg_checkpoints_timed", 0, "");
	result_metric(s, "pg_checkpoints_req", 2, "");
	result_metric(s, "pg_buffers_checkpoint", 1234, "buffers");
	result_metric(s, "pg_buffers_clean", 56, "buffers");
	result_metric(s, "pg_buffers_backend", 7, "buffers");
	result_metric(s, "pg_wal_bytes", 3e6, "bytes");
	result_metric(s, "pg_wait_samples", 10, "");
	/* in no order: the report sorts them */
	result_metric(s, "pg_wait.IO.WALSync", 3, "samples");
	result_metric(s, "pg_wait.CPU.running", 20, "samples");
	result_metric(s, "pg_wait.LWLock.WALWrite", 5, "samples");
	for (int k = 1; k <= 5; k++) {
		result_sample(s, "pg_tps", "tps", k, 1000.0 * (i + 1) + k);
		/* checkpoints counted at t=2 and t=4 (two at once) */
		result_sample(s, "pg_checkpoints", "", k, k == 2 ? 1 : k == 4 ? 2 : 0);
	}
}

static void build(struct run *r, bool sampled)
{
	run_init(r);
	run_set(&r->name, "activity");
	r->nplanned = 2;
	r->repeat = 1;
	for (int i = 0; i < 2; i++) {
		struct cell c = {.index = (size_t)i};
		snprintf(c.id, sizeof(c.id), "a1b2c3d4e5f%d", i);
		c.params = node_new(NODE_MAP, NULL);
		node_map_put(c.params, "sb", NULL, node_new_scalar(i ? "64MB" : "32MB", NULL));
		struct run_cell *rc = run_add_cell(r, &c);
		node_free(c.params);
		struct step_result s;
		load_step(&s, i, sampled);
		run_cell_take_step(rc, 0, &s);
		result_init(&s, "probe", "exec");
		result_metric(&s, "seconds", 0.1, "s");
		run_cell_take_step(rc, 0, &s);
		run_cell_set_status(rc, RUN_OK, NULL);
	}
}

static char *slurp(const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	char *buf = calloc(1, 1 << 20);
	size_t n = fread(buf, 1, (1 << 20) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static char *report(const struct run *r)
{
	struct diag d;
	diag_init(&d);
	assert_int_equal(rep_write_all(r, tmpdir, &d), 0);
	diag_free(&d);
	return slurp("report.md");
}

static size_t count(const char *s, const char *what)
{
	size_t n = 0;
	for (const char *p = s; (p = strstr(p, what)); p++)
		n++;
	return n;
}

static void test_section(void **state)
{
	(void)state;
	struct run r;
	build(&r, true);
	char *md = report(&r);
	assert_non_null(strstr(md, "## Server activity"));
	/* one chart, for the sampled step only */
	assert_int_equal(count(md, "![Server tps over time"), 1);
	/* its file: chart-N.svg after the default charts of the headlines */
	const char *link = strstr(md, "checkpoints dotted — load](chart-");
	assert_non_null(link);
	char name[32];
	assert_int_equal(sscanf(strchr(link, '(') + 1, "%31[^)]", name), 1);
	char *svg = slurp(name);
	assert_non_null(svg);
	assert_int_equal(count(svg, "<g class=\"series\""), 2);
	/* two cells, two intervals with checkpoints each */
	assert_int_equal(count(svg, "class=\"event-mark\""), 4);
	assert_int_equal(count(svg, "class=\"event-mark\" data-series=\"sb=32MB\""), 2);
	free(svg);
	/* writers: checkpoints timed, requested, checkpointer, bgwriter, backends, WAL MB */
	assert_non_null(strstr(md, "| 0 | sb=32MB | load | 0 | 2 | 1234 | 56 | 7 | 3 | 1000 | - |"));
	assert_non_null(strstr(md, "| 1 | sb=64MB | load | 0 | 2 | 1234 | 56 | 7 | 3 | 2000 | - |"));
	/* waits as average backends, most frequent first */
	assert_non_null(
	    strstr(md, "| 0 | sb=32MB | load | 10 | CPU:running 2, LWLock:WALWrite 0.5, IO:WALSync 0.3 |"));
	/* the exec step recorded nothing of the server: no row */
	assert_null(strstr(md, "| probe | 0 |"));
	/* the Steps table leaves the wait events to their section */
	assert_null(strstr(md, "pg_wait.CPU.running"));
	free(md);
	run_free(&r);
}

static void test_no_section(void **state)
{
	(void)state;
	struct run r;
	build(&r, false);
	char *md = report(&r);
	assert_null(strstr(md, "Server activity"));
	assert_null(strstr(md, "event-mark"));
	free(md);
	run_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_section),
	    cmocka_unit_test(test_no_section),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
