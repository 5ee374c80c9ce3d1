/* test_results: the run model, statistics over repeats, results.json
 * round trip and the journal's one-line cell records. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "jsonio.h"
#include "rep.h"
#include "rep_config.h"
#include "rep_group.h"
#include "report_fixture.h"
#include "utf8.h"

static char tmpdir[256];

#define assert_near(a, b, eps) assert_near_(a, b, eps, #a, __LINE__)
static void assert_near_(double a, double b, double eps, const char *what, int line)
{
	if (!(fabs(a - b) <= eps))
		fail_msg("line %d: %s = %.17g, expected %.17g", line, what, a, b);
}

static int setup(void **state)
{
	snprintf(tmpdir, sizeof(tmpdir), "/tmp/bg-test-results-XXXXXX");
	if (!mkdtemp(tmpdir))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *s = malloc((size_t)n + 1);
	size_t got = fread(s, 1, (size_t)n, f);
	s[got] = '\0';
	fclose(f);
	if (len)
		*len = got;
	return s;
}

static void assert_nodes_equal(const struct node *a, const struct node *b)
{
	if (!a || !b) {
		assert_true(a == b || (a ? a->kind == NODE_NULL : b->kind == NODE_NULL));
		return;
	}
	assert_int_equal(a->kind, b->kind);
	if (a->kind == NODE_SCALAR)
		assert_string_equal(a->text, b->text);
	assert_int_equal(a->n, b->n);
	for (size_t i = 0; i < a->n; i++) {
		if (a->kind == NODE_MAP)
			assert_string_equal(a->keys[i], b->keys[i]);
		assert_nodes_equal(a->items[i], b->items[i]);
	}
}

static void assert_num_equal(double a, double b)
{
	if (isnan(a))
		assert_true(isnan(b));
	else
		assert_true(a == b);
}

static void assert_steps_equal(const struct step_result *a, const struct step_result *b)
{
	assert_string_equal(a->step, b->step);
	assert_string_equal(a->workload, b->workload);
	assert_int_equal(a->failed, b->failed);
	if (a->error)
		assert_string_equal(a->error, b->error);
	else
		assert_null(b->error);
	assert_num_equal(a->started, b->started);
	assert_num_equal(a->elapsed, b->elapsed);
	assert_int_equal(a->nm, b->nm);
	for (size_t i = 0; i < a->nm; i++) {
		assert_string_equal(a->m[i].name, b->m[i].name);
		assert_string_equal(a->m[i].unit, b->m[i].unit);
		assert_num_equal(a->m[i].value, b->m[i].value);
	}
	assert_int_equal(a->ns, b->ns);
	for (size_t i = 0; i < a->ns; i++) {
		assert_string_equal(a->s[i].name, b->s[i].name);
		assert_string_equal(a->s[i].unit, b->s[i].unit);
		assert_int_equal(a->s[i].n, b->s[i].n);
		for (size_t k = 0; k < a->s[i].n; k++) {
			assert_num_equal(a->s[i].t[k], b->s[i].t[k]);
			assert_num_equal(a->s[i].v[k], b->s[i].v[k]);
		}
	}
	assert_int_equal(a->ni, b->ni);
	for (size_t i = 0; i < a->ni; i++) {
		assert_string_equal(a->info[i].key, b->info[i].key);
		assert_string_equal(a->info[i].value, b->info[i].value);
	}
}

static void assert_cells_equal(const struct run_cell *a, const struct run_cell *b)
{
	assert_int_equal(a->index, b->index);
	assert_string_equal(a->id, b->id);
	assert_nodes_equal(a->params, b->params);
	assert_int_equal(a->status, b->status);
	if (a->error)
		assert_string_equal(a->error, b->error);
	else
		assert_null(b->error);
	assert_num_equal(a->started, b->started);
	assert_num_equal(a->elapsed, b->elapsed);
	assert_steps_equal(&a->facts, &b->facts);
	assert_int_equal(a->nreps, b->nreps);
	for (size_t r = 0; r < a->nreps; r++) {
		assert_int_equal(a->reps[r].nsteps, b->reps[r].nsteps);
		for (size_t k = 0; k < a->reps[r].nsteps; k++)
			assert_steps_equal(&a->reps[r].steps[k], &b->reps[r].steps[k]);
	}
}

static void test_roundtrip(void **state)
{
	struct run a, b;
	struct diag d;
	char path[512], path2[512];

	diag_init(&d);
	fixture_build(&a);
	/* values JSON cannot hold: NaN becomes null and comes back as NaN */
	result_metric(&a.cells[0].reps[0].steps[0], "nan_metric", NAN, "");
	snprintf(path, sizeof(path), "%s/results.json", tmpdir);
	assert_int_equal(results_write_json(&a, path, &d), 0);
	assert_int_equal(d.nerrors, 0);
	char tmp[600];
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	assert_int_equal(access(tmp, F_OK), -1); /* renamed away */

	assert_int_equal(results_read_json(&b, path, &d), 0);
	if (d.nerrors)
		diag_print(&d, stderr);
	assert_int_equal(d.nerrors, 0);
	assert_string_equal(a.scenario_file, b.scenario_file);
	assert_string_equal(a.name, b.name);
	assert_string_equal(a.description, b.description);
	assert_string_equal(a.scenario_hash, b.scenario_hash);
	assert_string_equal(a.tool_version, b.tool_version);
	assert_num_equal(a.started, b.started);
	assert_num_equal(a.finished, b.finished);
	assert_int_equal(a.nplanned, b.nplanned);
	assert_int_equal(a.repeat, b.repeat);
	assert_int_equal(a.warmup, b.warmup);
	assert_steps_equal(&a.env, &b.env);
	assert_nodes_equal(a.report_cfg, b.report_cfg);
	assert_nodes_equal(a.expect_cfg, b.expect_cfg);
	assert_int_equal(a.ncells, b.ncells);
	for (size_t i = 0; i < a.ncells; i++)
		assert_cells_equal(&a.cells[i], &b.cells[i]);

	/* Writing what was read gives the same bytes. */
	snprintf(path2, sizeof(path2), "%s/results2.json", tmpdir);
	assert_int_equal(results_write_json(&b, path2, &d), 0);
	char *s1 = slurp(path, NULL), *s2 = slurp(path2, NULL);
	assert_non_null(s1);
	assert_non_null(s2);
	assert_string_equal(s1, s2);
	/* The repeated "warning" info is an array; the note param keeps its newline. */
	assert_non_null(strstr(s1, "\"warning\": [\n"));
	assert_non_null(strstr(s1, "\"note\": \"a, \\\"quoted\\\"\\nsecond line\""));
	assert_non_null(strstr(s1, "\"nan_metric\": {\n"));
	free(s1);
	free(s2);
	run_free(&a);
	run_free(&b);
	diag_free(&d);
}

static void test_journal_line(void **state)
{
	struct run a;
	struct diag d;
	char *buf = NULL;
	size_t len = 0;

	diag_init(&d);
	fixture_build(&a);
	for (size_t i = 0; i < a.ncells; i++) {
		FILE *f = open_memstream(&buf, &len);
		assert_int_equal(results_cell_write_line(f, &a.cells[i]), 0);
		fclose(f);
		/* one line: the only newline is the last byte */
		assert_true(len > 2);
		assert_int_equal(buf[len - 1], '\n');
		assert_null(memchr(buf, '\n', len - 1));
		struct run_cell c;
		assert_int_equal(results_cell_parse_line(buf, len, &c, &d), 0);
		assert_cells_equal(&a.cells[i], &c);
		run_cell_free(&c);
		free(buf);
		buf = NULL;
	}
	/* A torn line (kill -9 during the append) is an error, not a crash. */
	FILE *f = open_memstream(&buf, &len);
	results_cell_write_line(f, &a.cells[0]);
	fclose(f);
	struct run_cell c;
	assert_int_equal(results_cell_parse_line(buf, len / 2, &c, &d), -EINVAL);
	assert_true(d.nerrors > 0);
	run_cell_free(&c);
	free(buf);

	/* Moving a parsed cell into a run and sorting by index. */
	struct run r;
	run_init(&r);
	for (size_t i = a.ncells; i-- > 0;) {
		struct diag d2;
		diag_init(&d2);
		buf = NULL;
		f = open_memstream(&buf, &len);
		results_cell_write_line(f, &a.cells[i]);
		fclose(f);
		assert_int_equal(results_cell_parse_line(buf, len, &c, &d2), 0);
		assert_non_null(run_take_cell(&r, &c));
		free(buf);
		diag_free(&d2);
	}
	run_sort_cells(&r);
	for (size_t i = 0; i < r.ncells; i++)
		assert_int_equal(r.cells[i].index, i);
	assert_non_null(run_find_cell(&r, "a1b2c3d4e5f2"));
	assert_null(run_find_cell(&r, "ffffffffffff"));
	run_free(&r);
	run_free(&a);
	diag_free(&d);
}

/* The messages so far, one a line. */
static void add_msg(void *arg, const char *msg)
{
	char **out = arg, *more = NULL;
	if (asprintf(&more, "%s%s%s", *out ? *out : "", *out ? "\n" : "", msg) < 0)
		more = NULL;
	free(*out);
	*out = more;
}

static void test_summary(void **state)
{
	struct run a;
	fixture_build(&a);

	/* cell 0: ro.tps samples 500, 1000, 1002 */
	struct cell_summary *s = run_cell_summarize(&a.cells[0]);
	assert_non_null(s);
	assert_int_equal(s->nsteps, 2);
	assert_string_equal(s->steps[0].step, "seqwrite");
	assert_string_equal(s->steps[1].step, "ro");
	const struct metric_summary *m = cell_summary_metric(s, "ro", "tps");
	assert_non_null(m);
	assert_int_equal(m->st.n, 3);
	assert_near(m->st.mean, 834.0, 1e-9);
	assert_near(m->st.median, 1000.0, 1e-9);
	assert_near(m->st.min, 500.0, 1e-9);
	assert_near(m->st.max, 1002.0, 1e-9);
	assert_near(m->st.stddev, sqrt(((334. * 334) + (166. * 166) + (168. * 168)) / 2), 1e-9);
	assert_true(m->warned);
	assert_true(m->warn.first_slow);
	assert_string_equal(m->unit, "tps");
	/* latency of the same cold run: higher is slower, also flagged */
	m = cell_summary_metric(s, "ro", "lat_avg");
	assert_true(m->warn.first_slow);
	assert_null(cell_summary_metric(s, "ro", "nosuch"));
	assert_null(cell_summary_step(s, "nosuch"));
	char *msg = NULL;
	/* one line per step of statistics, then the step's own warnings (of its
	 * first repetition) */
	assert_int_equal(run_cell_warnings(s, add_msg, &msg), 3);
	assert_string_equal(
	    msg, "ro: statistical outliers in tps (sample 1), lat_avg (sample 1) (a busy machine? "
	         "consider more repeats); the first run was much slower in tps, lat_avg (cold caches? "
	         "consider `warmup:`)\nro: first warning, rep 0\nro: second warning");
	free(msg);
	cell_summary_free(s);

	/* cell 3: failed in ro of its first repetition, one rep only */
	s = run_cell_summarize(&a.cells[3]);
	assert_int_equal(s->nsteps, 2);
	assert_true(s->steps[1].failed);
	assert_non_null(strstr(s->steps[1].error, "connection to server lost"));
	assert_int_equal(cell_summary_metric(s, "seqwrite", "mb_s")->st.n, 1);
	assert_near(cell_summary_metric(s, "seqwrite", "mb_s")->st.stddev, 0, 0);
	cell_summary_free(s);

	char step[16];
	const char *metric;
	assert_true(results_split_ref("ro.lat.p99", step, sizeof(step), &metric));
	assert_string_equal(step, "ro");
	assert_string_equal(metric, "lat.p99");
	assert_false(results_split_ref("tps", step, sizeof(step), &metric));
	assert_false(results_split_ref(".tps", step, sizeof(step), &metric));
	assert_false(results_split_ref("averyveryverylongstepname.tps", step, sizeof(step), &metric));

	assert_true(rep_value_equal("4k", "4096"));
	assert_true(rep_value_equal("4KiB", "4k"));
	assert_true(rep_value_equal("1s", "1000ms"));
	assert_true(rep_value_equal("10", "10.0"));
	assert_false(rep_value_equal("4k", "4M"));
	assert_false(rep_value_equal("ext4", "xfs"));
	struct rep_strs v = {0};
	const char *in[] = {"1M", "4k", "64KiB", "4k", "512"};
	for (size_t i = 0; i < 5; i++)
		rep_strs_add(&v, in[i]);
	assert_int_equal(v.n, 4);
	rep_strs_sort_values(&v);
	assert_string_equal(v.v[0], "512");
	assert_string_equal(v.v[1], "4k");
	assert_string_equal(v.v[2], "64KiB");
	assert_string_equal(v.v[3], "1M");
	rep_strs_add(&v, "auto"); /* not a number: first-seen order stays */
	rep_strs_sort_values(&v);
	assert_string_equal(v.v[0], "512");
	assert_string_equal(v.v[4], "auto");
	rep_strs_free(&v);

	char label[128];
	run_cell_label(&a.cells[1], label, sizeof(label));
	assert_string_equal(label, "fs=ext4, fs_block=4KiB, note=" FIXTURE_NOTE);
	assert_string_equal(run_cell_param(&a.cells[2], "fs"), "xfs");
	assert_null(run_cell_param(&a.cells[2], "nosuch"));
	run_free(&a);
}

static void test_read_errors(void **state)
{
	struct diag d;
	struct run r;
	char path[512];
	static const struct {
		const char *text, *want;
	} cases[] = {
	    {"{\"format\": \"other\"}", "not a benchgrid results file"},
	    {"{\"format\": \"benchgrid-results\", \"version\": 99, \"cells\": []}", "version 99"},
	    {"{\"format\": \"benchgrid-results\", \"version\": 1}", "array \"cells\""},
	    {"{\"format\": \"benchgrid-results\", \"version\": 1, \"cells\": [{\"index\": 0}]}", "\"id\""},
	    {"{\"format\": \"benchgrid-results\", \"version\": 1, \"cells\": [{\"index\": 0, \"id\": \"x\", "
	     "\"params\": {}, \"status\": \"weird\"}]}",
	     "status"},
	    {"{\"format\": \"benchgrid-results\", \"version\": 1,\n \"cells\": [}", "2:12"},
	    {"{\"format\": \"benchgrid-results\", \"version\": 1, \"planned_cells\": null, \"cells\": "
	     "[{\"index\": 1.5, \"id\": \"x\", \"params\": {}, \"status\": \"ok\"}]}",
	     "integer \"index\""},
	    {"{\"format\": \"benchgrid-results\", \"version\": 1, \"cells\": "
	     "[{\"index\": 1e999, \"id\": \"x\", \"params\": {}, \"status\": \"ok\"}]}",
	     "overflow"},
	};
	snprintf(path, sizeof(path), "%s/bad.json", tmpdir);
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		FILE *f = fopen(path, "w");
		fputs(cases[i].text, f);
		fclose(f);
		diag_init(&d);
		assert_true(results_read_json(&r, path, &d) < 0);
		assert_true(d.nerrors > 0);
		char msg[512];
		diag_format_one(&d.v[0], msg, sizeof(msg));
		if (!strstr(msg, cases[i].want))
			fail_msg("case %zu: '%s' lacks '%s'", i, msg, cases[i].want);
		run_free(&r);
		diag_free(&d);
	}
	diag_init(&d);
	snprintf(path, sizeof(path), "%s/missing.json", tmpdir);
	assert_true(results_read_json(&r, path, &d) < 0);
	run_free(&r);
	diag_free(&d);
}

static void test_node_json(void **state)
{
	struct diag d;
	diag_init(&d);
	struct node *n = spec_load_string(
	    "n.yaml", "a: 10\nb: '10'\nc: 4KiB\nd: true\ne: ~\nf: [1.5, -2e3, x]\ng: 010\n", &d);
	assert_non_null(n);
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	json_t *j = results_node_json(n);
	jsonio_dump(j, f, false);
	json_decref(j);
	fclose(f);
	/* numbers stay numbers (a real in its shortest form), quoted text stays
	 * text, 010 is not JSON */
	assert_string_equal(buf, "{\"a\":10,\"b\":\"10\",\"c\":\"4KiB\",\"d\":true,\"e\":null,"
	                         "\"f\":[1.5,-2000.0,\"x\"],\"g\":\"010\"}");
	json_t *v = jsonio_parse(buf, len, "x", &d);
	assert_non_null(v);
	struct node *back = results_node_from_json(v, "x");
	assert_string_equal(node_get(back, "a")->text, "10");
	assert_string_equal(node_get(back, "b")->text, "10");
	assert_true(node_get(back, "b")->quoted);
	assert_string_equal(node_get(back, "f")->items[0]->text, "1.5");
	assert_string_equal(node_get(back, "f")->items[1]->text, "-2000.0");
	assert_int_equal(node_get(back, "e")->kind, NODE_NULL);
	node_free(back);
	json_decref(v);
	free(buf);
	node_free(n);
	diag_free(&d);
}

/* kill -9 at random moments while results.json is rewritten: the file is
 * always absent or complete (tmp file, fsync, rename). */
static void test_kill_during_write(void **state)
{
	struct run a;
	char path[512];
	unsigned seed = 12345;
	int complete = 0;

	fixture_build(&a);
	for (int k = 0; k < 20000; k++) /* a big file: each write takes a while */
		result_sample(&a.cells[0].reps[0].steps[1], "big", "", k, k * 0.5);
	snprintf(path, sizeof(path), "%s/kill.json", tmpdir);
	/* One complete write first, timed, so kills land before, during and
	 * after the rename of the following writes. */
	struct timespec t0, t1;
	struct diag d0;
	diag_init(&d0);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(results_write_json(&a, path, &d0), 0);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	diag_free(&d0);
	long us = (t1.tv_sec - t0.tv_sec) * 1000000L + (t1.tv_nsec - t0.tv_nsec) / 1000 + 1;
	for (int round = 0; round < 15; round++) {
		pid_t pid = fork();
		assert_true(pid >= 0);
		if (pid == 0) {
			struct diag d;
			diag_init(&d);
			for (;;)
				results_write_json(&a, path, &d);
		}
		usleep((useconds_t)(rand_r(&seed) % (3 * us)));
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		struct run b;
		struct diag d;
		diag_init(&d);
		if (results_read_json(&b, path, &d) != 0) {
			diag_print(&d, stderr);
			fail_msg("round %d: results.json is damaged", round);
		}
		assert_int_equal(b.ncells, a.ncells);
		assert_int_equal(b.cells[0].reps[0].steps[1].s[2].n, 20000);
		run_free(&b);
		diag_free(&d);
		complete++;
	}
	assert_int_equal(complete, 15);
	run_free(&a);
}

/* Damaged journal lines (valid JSON of the wrong shape, or not JSON):
 * an error or a cell, never a crash (ASan in CI). */
/* Links planted where results.json and its old temporary name go are never
 * written through; a failed write (a file-size limit: EFBIG, as ENOSPC
 * would) leaves the old file whole and no temporary file behind. */
static int count_tmp_files(const char *dir)
{
	char cmd[600];
	snprintf(cmd, sizeof(cmd), "test -z \"$(find '%s' -name '*.tmp*')\"", dir);
	return system(cmd) == 0 ? 0 : 1;
}

static void test_write_no_follow(void **state)
{
	struct run a;
	struct diag d;
	char dir[300], victim[400], path[400], tmp[420];
	diag_init(&d);
	fixture_build(&a);
	snprintf(dir, sizeof(dir), "%s/nofollow", tmpdir);
	assert_int_equal(mkdir(dir, 0755), 0);
	snprintf(victim, sizeof(victim), "%s/victim", tmpdir);
	FILE *v = fopen(victim, "w");
	fputs("precious\n", v);
	fclose(v);
	snprintf(path, sizeof(path), "%s/results.json", dir);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	assert_int_equal(symlink(victim, tmp), 0);
	assert_int_equal(symlink(victim, path), 0);
	assert_int_equal(results_write_json(&a, path, &d), 0);
	char *text = slurp(victim, NULL);
	assert_string_equal(text, "precious\n");
	free(text);
	struct stat st;
	assert_int_equal(lstat(path, &st), 0);
	assert_true(S_ISREG(st.st_mode)); /* the link was replaced */
	assert_int_equal(unlink(tmp), 0);
	assert_int_equal(count_tmp_files(dir), 0);

	/* The API: a plain name only; abort leaves nothing. */
	int dfd = open(dir, O_RDONLY | O_DIRECTORY);
	assert_true(dfd >= 0);
	struct results_file rf;
	assert_int_equal(results_file_open(&rf, dfd, "../x"), -EINVAL);
	assert_int_equal(results_file_open(&rf, dfd, "other.txt"), 0);
	fputs("half", rf.f);
	results_file_abort(&rf);
	assert_int_equal(faccessat(dfd, "other.txt", F_OK, 0), -1);
	assert_int_equal(count_tmp_files(dir), 0);

	/* A write that fails: the error is returned, the old file stays. */
	char *before = slurp(path, NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		signal(SIGXFSZ, SIG_IGN);
		struct rlimit rl = {.rlim_cur = 1024, .rlim_max = 1024};
		setrlimit(RLIMIT_FSIZE, &rl);
		struct diag cd;
		diag_init(&cd);
		int rc = results_write_json(&a, path, &cd);
		int rc2 = results_file_write(dfd, "big.txt", before, strlen(before));
		if (rc != -EFBIG || rc2 != -EFBIG || cd.nerrors == 0)
			fprintf(stderr, "rc %d rc2 %d errors %zu\n", rc, rc2, (size_t)cd.nerrors);
		_exit(rc == -EFBIG && rc2 == -EFBIG && cd.nerrors > 0 ? 0 : 1);
	}
	int wst;
	assert_int_equal(waitpid(pid, &wst, 0), pid);
	assert_true(WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
	char *after = slurp(path, NULL);
	assert_string_equal(before, after);
	assert_int_equal(faccessat(dfd, "big.txt", F_OK, 0), -1);
	assert_int_equal(count_tmp_files(dir), 0);
	free(before);
	free(after);
	close(dfd);
	run_free(&a);
	diag_free(&d);
}

static void test_damaged_lines(void **state)
{
	struct run a;
	char *buf = NULL;
	size_t len = 0;
	static const char alphabet[] = "{}[]\",:0123456789e-.tfn ";
	unsigned seed = 99;
	size_t parsed = 0;

	fixture_build(&a);
	FILE *f = open_memstream(&buf, &len);
	results_cell_write_line(f, &a.cells[3]);
	fclose(f);
	char *m = malloc(len);
	for (int round = 0; round < 3000; round++) {
		memcpy(m, buf, len);
		for (int k = 0; k < 2; k++)
			m[rand_r(&seed) % (len - 1)] = alphabet[rand_r(&seed) % (sizeof(alphabet) - 1)];
		struct run_cell c;
		struct diag d;
		diag_init(&d);
		int rc = results_cell_parse_line(m, len, &c, &d);
		assert_true(rc == 0 ? d.nerrors == 0 : d.nerrors > 0);
		parsed += rc == 0;
		run_cell_free(&c);
		diag_free(&d);
	}
	assert_true(parsed > 0 && parsed < 3000);
	free(m);
	free(buf);
	run_free(&a);
}

static bool file_has(const char *path, const char *needle)
{
	char *s = slurp(path, NULL);
	bool ok = s && strstr(s, needle);
	free(s);
	return ok;
}

/* Unquoted numbers are kept in the text results.json gives back, so that a
 * report written during the run and one rebuilt from results.json agree. */
static void test_param_numbers_canonical(void **state)
{
	struct run r, back;
	struct diag d;
	char path[512];
	static const char *const in[][2] = {
	    {"ratio", "1e-3"}, {"half", "4.50"}, {"big", "-2e3"}, {"one", "1.0"}, {"n", "42"}, {"size", "4k"},
	};
	static const char *const want[] = {"0.001", "4.5", "-2000.0", "1.0", "42", "4k"};
	diag_init(&d);
	run_init(&r);
	struct cell c = {.index = 1, .id = "0123456789ab"};
	c.params = node_new(NODE_MAP, NULL);
	for (size_t i = 0; i < sizeof(in) / sizeof(in[0]); i++)
		node_map_put(c.params, in[i][0], NULL, node_new_scalar(in[i][1], NULL));
	struct node *quoted = node_new_scalar("1e-3", NULL);
	quoted->quoted = true;
	node_map_put(c.params, "label", NULL, quoted);
	struct run_cell *rc = run_add_cell(&r, &c);
	node_free(c.params);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_string_equal(node_get(rc->params, in[i][0])->text, want[i]);
	assert_string_equal(node_get(rc->params, "label")->text, "1e-3");
	run_cell_set_status(rc, RUN_OK, NULL);

	snprintf(path, sizeof(path), "%s/canonical.json", tmpdir);
	assert_int_equal(results_write_json(&r, path, &d), 0);
	assert_int_equal(results_read_json(&back, path, &d), 0);
	assert_int_equal(back.ncells, 1);
	for (size_t i = 0; i < sizeof(want) / sizeof(want[0]); i++)
		assert_string_equal(node_get(back.cells[0].params, in[i][0])->text, want[i]);
	assert_string_equal(node_get(back.cells[0].params, "label")->text, "1e-3");
	run_free(&r);
	run_free(&back);
}

static void test_reports_edge_cases(void **state)
{
	struct run r;
	struct diag d;
	char path[512];

	/* An empty run (everything filtered out) still gets its reports. */
	diag_init(&d);
	run_init(&r);
	assert_int_equal(rep_write_all(&r, tmpdir, &d), 0);
	assert_int_equal(d.nerrors, 0);
	snprintf(path, sizeof(path), "%s/report.md", tmpdir);
	assert_true(file_has(path, "- Cells: 0 recorded (0 ok, 0 failed, 0 skipped)"));
	snprintf(path, sizeof(path), "%s/results.csv", tmpdir);
	assert_true(file_has(path, "index,id,step,status,error\r\n"));

	/* A skipped cell without steps: one CSV row with an empty step. */
	struct cell c = {.index = 7, .id = "0123456789ab"};
	c.params = node_new(NODE_MAP, NULL);
	node_map_put(c.params, "step", NULL, node_new_scalar("x", NULL)); /* clashes with a column */
	struct run_cell *rc = run_add_cell(&r, &c);
	node_free(c.params);
	run_cell_set_status(rc, RUN_SKIPPED, "skipped: %s", "needs root");
	run_cell_set_status(rc, RUN_SKIPPED, "second error is not kept");
	assert_string_equal(rc->error, "skipped: needs root");
	assert_int_equal(rep_write_all(&r, tmpdir, &d), 0);
	assert_true(file_has(
	    path,
	    "index,id,param.step,step,status,error\r\n7,0123456789ab,x,,skipped,skipped: needs root\r\n"));
	run_free(&r);

	/* Invalid report: sections are skipped with an error; the rest is written. */
	fixture_build(&r);
	node_free(r.report_cfg);
	r.report_cfg = spec_load_string("bad.yaml",
	                                "pivot: [{rows: nosuch, value: ro.tps}, {rows: fs, value: tps}]\n"
	                                "charts: [{x: time, y: ro.tps, series: fss}]\n",
	                                &d);
	assert_int_equal(d.nerrors, 0);
	assert_int_equal(rep_write_all(&r, tmpdir, &d), -EINVAL);
	assert_int_equal(d.nerrors, 3);
	assert_non_null(strstr(d.v[0].msg, "'nosuch' is not a parameter of this run"));
	assert_int_equal(d.v[0].pos.line, 1);
	assert_non_null(strstr(d.v[1].msg, "'tps' must be step.metric"));
	assert_non_null(strstr(d.v[2].msg, "'fss' is not a parameter"));
	snprintf(path, sizeof(path), "%s/report.md", tmpdir);
	assert_true(file_has(path, "## Published vs measured"));
	assert_true(file_has(path, "*(skipped: 'nosuch' is not a parameter of this run)*"));
	run_free(&r);
	diag_free(&d);

	/* rep_check_config: positions and suggestions. */
	static const struct {
		const char *yaml, *msg;
		int line;
	} bad[] = {
	    {"pivots: []\n", "did you mean", 1},
	    {"pivot: [{rows: fs, value: ro.tps, stat: avg}]\n", "stat", 1},
	    {"pivot: [{cols: fs, value: ro.tps}]\n", "missing 'rows'", 1},
	    {"charts:\n  - {x: bs, y: io.mb_s, kind: pie}\n", "kind", 2},
	    {"charts:\n  - {x: bs, y: io.mb_s, colour: red}\n", "colour", 2},
	    {"charts:\n  - {x: bs, y: io.mb_s, where: [a]}\n", "where must be a map", 2},
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		diag_init(&d);
		struct node *n = spec_load_string("r.yaml", bad[i].yaml, &d);
		assert_int_equal(rep_check_config(n, &d), -EINVAL);
		if (d.nerrors < 1 || !strstr(d.v[0].msg, bad[i].msg) || d.v[0].pos.line != bad[i].line)
			fail_msg("case %zu: %d:%s", i, d.nerrors ? d.v[0].pos.line : 0,
			         d.nerrors ? d.v[0].msg : "");
		node_free(n);
		diag_free(&d);
	}
	diag_init(&d);
	fixture_build(&r);
	assert_int_equal(rep_check_config(r.report_cfg, &d), 0);
	assert_int_equal(d.nerrors, 0);
	run_free(&r);
	diag_free(&d);
}

/* A file benchgrid writes is valid UTF-8 without control characters but
 * those its format allows (LF; CR LF in the CSVs; TAB). */
static void assert_file_clean(const char *name, unsigned flags)
{
	char path[512];
	size_t len;
	snprintf(path, sizeof(path), "%s/%s", tmpdir, name);
	char *s = slurp(path, &len);
	assert_non_null(s);
	if (!utf8_is_clean(s, len, flags))
		fail_msg("%s is not clean text", name);
	free(s);
}

/* Strings with invalid UTF-8 and control characters everywhere a command's
 * output or a parser can put them (metric and series names and units, info
 * keys and values, errors, parameters): every file is valid, nothing is
 * dropped, and the replaced bytes show as U+FFFD. */
static void test_invalid_bytes(void **state)
{
	static const char bad[] = "x\377\376\x01\x1b[31m\r\n\xed\xa0\x80|,\"\xe2\x82";
	struct run r;
	struct diag d;
	char path[512];

	diag_init(&d);
	fixture_build(&r);
	run_set(&r.name, bad);
	struct step_result *st = &r.cells[0].reps[0].steps[0];
	result_metric(st, bad, 1, bad);
	result_sample(st, bad, bad, 1, 2);
	result_info(st, bad, "%s", bad);
	node_map_put(r.cells[1].params, "fs", NULL, node_new_scalar(bad, NULL));
	free(r.cells[3].error);
	r.cells[3].error = strdup(bad);

	snprintf(path, sizeof(path), "%s/results.json", tmpdir);
	assert_int_equal(results_write_json(&r, path, &d), 0);
	assert_file_clean("results.json", UTF8_NO_CONTROLS | UTF8_NO_CR);
	json_t *v = jsonio_parse_file(path, &d);
	assert_non_null(v);
	const json_t *cell0 = json_array_get(json_object_get(v, "cells"), 0);
	const json_t *step0 = json_array_get(json_array_get(json_object_get(cell0, "reps"), 0), 0);
	const json_t *info = json_object_get(step0, "info");
	const char *want =
	    "x\xef\xbf\xbd\xef\xbf\xbd\x01\x1b[31m\r\n\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd|,\"\xef\xbf\xbd"
	    "\xef\xbf\xbd";
	assert_string_equal(jsonio_get_str(info, want, ""), want); /* key and value kept */
	json_decref(v);

	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);
	assert_int_equal(results_cell_write_line(f, &r.cells[0]), 0);
	fclose(f);
	assert_true(utf8_is_clean(line, len, UTF8_NO_CONTROLS | UTF8_NO_CR));
	assert_null(memchr(line, '\n', len - 1));
	free(line);

	assert_int_equal(rep_write_all(&r, tmpdir, &d), 0);
	assert_int_equal(d.nerrors, 0);
	assert_file_clean("results.csv", UTF8_NO_CONTROLS);
	assert_file_clean("timeseries.csv", UTF8_NO_CONTROLS);
	assert_file_clean("report.md", UTF8_NO_CONTROLS | UTF8_NO_CR);
	for (int i = 1; i <= 3; i++) {
		char name[32];
		snprintf(name, sizeof(name), "chart-%d.svg", i);
		assert_file_clean(name, UTF8_NO_CONTROLS | UTF8_NO_CR);
	}
	snprintf(path, sizeof(path), "%s/report.md", tmpdir);
	/* [ is escaped in report.md (rep_md_text) */
	assert_true(file_has(path, "# x\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\\[31m  "));
	snprintf(path, sizeof(path), "%s/results.csv", tmpdir);
	/* the CSV field is quoted (comma, quote, CR LF) with controls replaced */
	assert_true(file_has(path, ",\"x\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd\xef\xbf\xbd[31m\r\n"));
	run_free(&r);
	diag_free(&d);
	(void)state;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_roundtrip),
	    cmocka_unit_test(test_journal_line),
	    cmocka_unit_test(test_summary),
	    cmocka_unit_test(test_read_errors),
	    cmocka_unit_test(test_node_json),
	    cmocka_unit_test(test_param_numbers_canonical),
	    cmocka_unit_test(test_reports_edge_cases),
	    cmocka_unit_test(test_kill_during_write),
	    cmocka_unit_test(test_damaged_lines),
	    cmocka_unit_test(test_invalid_bytes),
	    cmocka_unit_test(test_write_no_follow),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
