/* test_exec: the exec step with real processes — success with captured
 * output and environment, the three distinct failures (non-zero exit,
 * timeout, missing program), the stop flag, option checks, and parsing real
 * dd output and output through a Lua function. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "lb.h"
#include "spec.h"
#include "wl_exec.h"

static char tdir[64];

#include "test_timing.h"
#include "test_util.h"

struct run {
	struct node *root;
	struct step_result res;
	struct diag d;
	int rc;
	struct stopwatch sw; /* the run, its deadline marked (test_timing.h) */
};

/* The scenario's Lua state the steps get (step_ctx.lua), NULL: none. */
static struct lb *scenario_lua;

/* Run `exec:` options given as YAML (the value of key `exec`) in a cell
 * with parameters bs=4k, fs=ext4, "my-param"=x y; r->sw times it, with its
 * deadline marked `deadline` s after the start (< 0: none). */
static void run_exec_by(struct run *r, const char *yaml, volatile sig_atomic_t *stop, double deadline)
{
	diag_init(&r->d);
	r->root = spec_load_string("exec.yaml", yaml, &r->d);
	assert_non_null(r->root);
	struct node *params = node_new(NODE_MAP, NULL);
	node_map_put(params, "bs", NULL, node_new_scalar("4k", NULL));
	node_map_put(params, "fs", NULL, node_new_scalar("ext4", NULL));
	node_map_put(params, "my-param", NULL, node_new_scalar("x y", NULL));
	struct cell c = {.index = 2, .params = params};
	strcpy(c.id, "0123456789ab");
	/* the fixtures' names a step may read (step_ctx_name) */
	struct node *names = node_new(NODE_MAP, NULL);
	node_map_put(names, "pg.conninfo", NULL,
	             node_new_scalar("host=/tmp/pgsock port=5999 dbname=bench", NULL));
	struct step_ctx cx = {.cell = &c,
	                      .target_dir = tdir,
	                      .cell_dir = tdir,
	                      .step_name = "cmd",
	                      .scenario_dir = tdir,
	                      .names = names,
	                      .lua = scenario_lua,
	                      .stop = stop};
	result_init(&r->res, "cmd", "exec");
	const struct node *opts = node_get(r->root, "exec");
	assert_int_equal(wl_exec_ops.check(opts, &r->d), 0);
	stopwatch_start(&r->sw);
	if (deadline >= 0)
		assert_int_equal(stopwatch_mark_in(&r->sw, deadline), 0);
	r->rc = wl_exec_ops.run(opts, &cx, &r->res, &r->d);
	stopwatch_stop(&r->sw);
	node_free(params);
	node_free(names);
}

static void run_exec(struct run *r, const char *yaml, volatile sig_atomic_t *stop)
{
	run_exec_by(r, yaml, stop, -1);
}

/* A timeout or a stop is a wall-clock feature: the time past the deadline
 * is judged less what the thread waited for a CPU on a loaded machine
 * (it waits for the killed process group, whose exit needs CPUs of its
 * own: hence seconds, not milliseconds). */
static void expect_ended_within(const struct run *r, double margin, const char *what)
{
	double waited, given = stopwatch_given(&r->sw, &waited);
	if (given > margin)
		fail_msg(
		    "%s: ended %.2f s after its deadline (%.2f s of it waiting for a CPU), more than %.2f s",
		    what, given, waited, margin);
}

static void run_free(struct run *r)
{
	result_free(&r->res);
	node_free(r->root);
	diag_free(&r->d);
}

static void test_success_env_cwd(void **state)
{
	struct run r;
	run_exec(&r,
	         "exec:\n"
	         "  command: 'echo \"$BENCHGRID_BS $bs $fs $BENCHGRID_MY_PARAM $BENCHGRID_CELL_INDEX "
	         "$BENCHGRID_CELL_ID $PGHOST $PGPORT $PGDATABASE $EXTRA\"; pwd; echo warn >&2'\n"
	         "  env: {EXTRA: hello}\n",
	         NULL);
	if (r.rc)
		fail_msg("rc %d: %s / %s", r.rc, r.res.error, diag_text(&r.d));
	assert_false(r.res.failed);
	char want[256];
	snprintf(want, sizeof(want), "4k 4k ext4 x y 2 0123456789ab /tmp/pgsock 5999 bench hello\n%s\n",
	         tdir);
	assert_string_equal(result_info_get(&r.res, "stdout_tail"), want);
	assert_string_equal(result_info_get(&r.res, "stderr_tail"), "warn\n");
	assert_true(result_get(&r.res, "exit_status")->value == 0);
	assert_non_null(result_get(&r.res, "elapsed_s"));
	/* full output kept in the cell folder */
	char path[128];
	snprintf(path, sizeof(path), "%s/cmd.stdout", tdir);
	assert_int_equal(access(path, R_OK), 0);
	unlink(path);
	snprintf(path, sizeof(path), "%s/cmd.stderr", tdir);
	unlink(path);
	run_free(&r);

	/* argv form: no shell, arguments passed as they are */
	run_exec(&r, "exec: {command: [printf, '%s|', 'a b', '$bs']}\n", NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(result_info_get(&r.res, "stdout_tail"), "a b|$bs|");
	run_free(&r);
	snprintf(path, sizeof(path), "%s/cmd.stdout", tdir);
	unlink(path);
}

static void test_no_fd_leak(void **state)
{
	int fd = open("/dev/null", O_RDONLY); /* inheritable on purpose */
	assert_true(fd > 2);
	char yaml[128];
	snprintf(yaml, sizeof(yaml), "exec: {command: 'test ! -e /proc/self/fd/%d || echo leaked >&2'}\n",
	         fd);
	struct run r;
	run_exec(&r, yaml, NULL);
	assert_int_equal(r.rc, 0);
	assert_string_equal(result_info_get(&r.res, "stderr_tail"), "");
	run_free(&r);
	close(fd);
}

static void test_nonzero_exit(void **state)
{
	struct run r;
	run_exec(&r, "exec: {command: 'echo partial; echo \"disk on fire\" >&2; exit 3'}\n", NULL);
	assert_int_equal(r.rc, -EIO);
	assert_true(r.res.failed);
	assert_non_null(strstr(r.res.error, "exit status 3"));
	assert_non_null(strstr(r.res.error, "disk on fire"));
	assert_true(result_get(&r.res, "exit_status")->value == 3);
	run_free(&r);
}

static void test_timeout(void **state)
{
	struct run r;
	/* The background sleep is in the same process group: killed too. */
	run_exec_by(&r, "exec: {command: 'echo started; sleep 30 & sleep 30', timeout: 300ms}\n", NULL, 0.3);
	assert_int_equal(r.rc, -ETIMEDOUT);
	assert_true(r.res.failed);
	assert_non_null(strstr(r.res.error, "timed out after 0.3 s"));
	assert_non_null(strstr(r.res.error, "started"));
	expect_ended_within(&r, 2.2, "timeout 300ms");
	run_free(&r);
	/* A command that ignores SIGTERM is killed a second later. */
	run_exec_by(&r, "exec: {command: \"trap '' TERM; sleep 30\", timeout: 200ms}\n", NULL, 0.2);
	assert_int_equal(r.rc, -ETIMEDOUT);
	expect_ended_within(&r, 2.8, "timeout 200ms, SIGTERM ignored");
	run_free(&r);
}

static void test_missing_binary(void **state)
{
	struct run r;
	run_exec(&r, "exec: {command: [no-such-tool-xyz, --fast]}\n", NULL);
	assert_int_equal(r.rc, -ENOENT);
	assert_string_equal(r.res.error, "exec: command not found: no-such-tool-xyz");
	run_free(&r);
	run_exec(&r, "exec: {command: 'no-such-tool-xyz --fast'}\n", NULL);
	assert_int_equal(r.rc, -ENOENT);
	assert_non_null(strstr(r.res.error, "exec: command not found: no-such-tool-xyz"));
	run_free(&r);
}

static void test_three_errors_distinct(void **state)
{
	struct run a, b, c;
	run_exec(&a, "exec: {command: 'exit 1'}\n", NULL);
	run_exec(&b, "exec: {command: 'sleep 5', timeout: 100ms}\n", NULL);
	run_exec(&c, "exec: {command: [no-such-tool-xyz]}\n", NULL);
	assert_true(a.rc != b.rc && b.rc != c.rc && a.rc != c.rc);
	assert_true(strcmp(a.res.error, b.res.error) && strcmp(b.res.error, c.res.error));
	run_free(&a);
	run_free(&b);
	run_free(&c);
}

static void test_stop_flag(void **state)
{
	volatile sig_atomic_t stop = 1;
	struct run r;
	run_exec_by(&r, "exec: {command: 'sleep 30'}\n", &stop, 0);
	assert_int_equal(r.rc, -EINTR);
	assert_non_null(strstr(r.res.error, "interrupted"));
	expect_ended_within(&r, 2.5, "stop flag");
	run_free(&r);
}

static void test_check_errors(void **state)
{
	struct diag d;
	diag_init(&d);
	struct node *root = spec_load_string("c.yaml",
	                                     "a: {command: 'x', parse: 'dd!', tmeout: 5s}\n"
	                                     "b: {command: []}\n"
	                                     "c: {timeout: 5s}\n"
	                                     "e: {command: x, parse: fioo}\n"
	                                     "d: {command: x, env: {1BAD: x}, timeout: forever}\n",
	                                     &d);
	assert_int_equal(wl_exec_ops.check(node_get(root, "a"), &d), -EINVAL);
	const char *t = diag_text(&d);
	assert_non_null(strstr(t, "c.yaml:1:26: error: exec.parse: 'dd!' is neither"));
	assert_non_null(strstr(t, "did you mean 'dd'"));
	assert_non_null(strstr(t, "tmeout"));
	assert_int_equal(wl_exec_ops.check(node_get(root, "b"), &d), -EINVAL);
	assert_non_null(
	    strstr(diag_text(&d), "c.yaml:2:14: error: exec.command: the argument list is empty"));
	assert_int_equal(wl_exec_ops.check(node_get(root, "c"), &d), -EINVAL);
	assert_non_null(strstr(diag_text(&d), "`command:` is required"));
	assert_int_equal(wl_exec_ops.check(node_get(root, "d"), &d), -EINVAL);
	assert_non_null(strstr(diag_text(&d), "'1BAD' is not a valid"));
	assert_non_null(strstr(diag_text(&d), "exec.timeout"));
	/* A name close to a shipped parser may be a typo: a warning, since
	 * it may also be a function in the hooks. */
	diag_free(&d);
	diag_init(&d);
	assert_int_equal(wl_exec_ops.check(node_get(root, "e"), &d), 0);
	assert_non_null(
	    strstr(diag_text(&d), "c.yaml:4:24: warning: exec.parse: 'fioo' is not a shipped parser"));
	node_free(root);
	diag_free(&d);
}

static void test_parse_real_dd(void **state)
{
	struct run r;
	run_exec(&r,
	         "exec: {command: 'dd if=/dev/zero of=ddfile bs=64k count=16 conv=fdatasync', parse: dd}\n",
	         NULL);
	if (r.rc)
		fail_msg("%s", r.res.error);
	assert_true(result_get(&r.res, "bytes")->value == 1048576);
	assert_true(result_get(&r.res, "mb_s")->value > 0);
	char path[128];
	snprintf(path, sizeof(path), "%s/ddfile", tdir);
	assert_int_equal(access(path, F_OK), 0); /* ran in the target directory */
	unlink(path);
	snprintf(path, sizeof(path), "%s/cmd.stderr", tdir);
	unlink(path);
	run_free(&r);

	/* Output the parser cannot read fails the step with the position. */
	run_exec(&r, "exec: {command: 'echo nothing here', parse: dd}\n", NULL);
	assert_int_equal(r.rc, -EINVAL);
	assert_non_null(strstr(r.res.error, "exec.yaml:1:45: error: parse: dd: no summary line"));
	run_free(&r);
	snprintf(path, sizeof(path), "%s/cmd.stdout", tdir);
	unlink(path);
}

static void test_parse_lua_function(void **state)
{
	struct diag d;
	diag_init(&d);
	struct lb *L = lb_new("exec.yaml", 0, &d);
	assert_int_equal(lb_run_string(L, "h.lua",
	                               "function count_words(text, result)\n"
	                               "  local n = 0\n"
	                               "  for _ in text:gmatch('%S+') do n = n + 1 end\n"
	                               "  result:metric('words', n, '')\n"
	                               "end\n",
	                               &d),
	                 0);
	struct run r;
	run_exec(&r, "exec: {command: 'echo one two three', parse: count_words}\n", NULL);
	assert_int_equal(r.rc, -ENOENT); /* no Lua state given: clear error */
	assert_non_null(strstr(r.res.error, "'count_words' is not a shipped parser"));
	run_free(&r);
	scenario_lua = L;
	run_exec(&r, "exec: {command: 'echo one two three', parse: count_words}\n", NULL);
	assert_int_equal(r.rc, 0);
	assert_true(result_get(&r.res, "words")->value == 3);
	run_free(&r);
	scenario_lua = NULL;
	lb_free(L);
	diag_free(&d);
	char path[128];
	snprintf(path, sizeof(path), "%s/cmd.stdout", tdir);
	unlink(path);
}

static int setup(void **state)
{
	strcpy(tdir, "/tmp/test_execXXXXXX");
	return mkdtemp(tdir) ? 0 : -1;
}

static int teardown(void **state)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tdir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_success_env_cwd), cmocka_unit_test(test_nonzero_exit),
	    cmocka_unit_test(test_no_fd_leak),      cmocka_unit_test(test_timeout),
	    cmocka_unit_test(test_missing_binary),  cmocka_unit_test(test_three_errors_distinct),
	    cmocka_unit_test(test_stop_flag),       cmocka_unit_test(test_check_errors),
	    cmocka_unit_test(test_parse_real_dd),   cmocka_unit_test(test_parse_lua_function),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
