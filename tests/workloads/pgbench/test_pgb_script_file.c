/* test_pgb_script_file: a pgbench step's script files are read under
 * util/safe_file's rules when the step runs (no server is needed: the
 * scripts are read before it connects): a FIFO does not hang (alarm: 20 s),
 * a link is refused, /dev/zero is refused, a private file (0600 in a 0700
 * folder) is refused without a line of it shown (as root), a plain file is
 * taken. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "spec.h"
#include "test_util.h"
#include "wl_pgbench.h"

static char dir[] = "/tmp/test_pgb_fileXXXXXX";

/* Run a pgbench step whose script is `file` (relative to dir); the errors. */
static char *run_script(const char *file)
{
	char yaml[512];
	snprintf(yaml, sizeof(yaml), "pgbench: {script: \"%s\", transactions: 1}\n", file);
	struct diag d;
	diag_init(&d);
	struct node *root = spec_load_string("p.yaml", yaml, &d);
	assert_non_null(root);
	struct cell c = {.index = 0};
	strcpy(c.id, "0123456789ab");
	struct step_ctx cx = {
	    .cell = &c, .target_dir = dir, .cell_dir = dir, .step_name = "p", .scenario_dir = dir};
	struct step_result res;
	result_init(&res, "p", "pgbench");
	alarm(20); /* a FIFO opened for reading would wait for a writer */
	wl_pgbench_ops.run(node_get(root, "pgbench"), &cx, &res, &d);
	alarm(0);
	char *text = strdup(diag_text(&d));
	result_free(&res);
	node_free(root);
	diag_free(&d);
	return text;
}

static void expect_error(const char *file, const char *want)
{
	char *text = run_script(file);
	if (!strstr(text, want))
		fail_msg("script %s: want '%s' in the errors, got '%s'", file, want, text);
	if (strstr(text, "SECRET"))
		fail_msg("script %s: a private line shown: %s", file, text);
	free(text);
}

static void test_script_files(void **state)
{
	(void)state;
	char p[256], q[256];
	snprintf(p, sizeof(p), "%s/fifo.sql", dir);
	assert_int_equal(mkfifo(p, 0644), 0);
	expect_error("fifo.sql", "fifo.sql is a FIFO: only regular files are read");
	snprintf(q, sizeof(q), "%s/link.sql", dir);
	assert_int_equal(symlink(p, q), 0);
	expect_error("link.sql", "link.sql is a symbolic link: not followed");
	expect_error("/dev/zero", "/dev/zero is a character device");
	snprintf(p, sizeof(p), "%s/ok.sql", dir);
	FILE *f = fopen(p, "w");
	fputs("SELECT 1;\n", f);
	fclose(f);
	chmod(p, 0644);
	/* read and parsed (the step then fails for want of a server) */
	char *text = run_script("ok.sql");
	if (strstr(text, "pgbench script"))
		fail_msg("ok.sql refused: %s", text);
	free(text);
	if (getuid() == 0) {
		snprintf(p, sizeof(p), "%s/closed", dir);
		assert_int_equal(mkdir(p, 0700), 0);
		snprintf(p, sizeof(p), "%s/closed/secret.sql", dir);
		f = fopen(p, "w");
		fputs("\\SECRET_TOKEN_4711 x\n", f);
		fclose(f);
		chmod(p, 0600);
		expect_error("closed/secret.sql", "secret.sql is not readable by everyone (run as root)");
	}
}

static int setup(void **state)
{
	(void)state;
	if (!mkdtemp(dir))
		return -1;
	return chmod(dir, 0755);
}

static int teardown(void **state)
{
	(void)state;
	char cmd[300];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {cmocka_unit_test(test_script_files)};
	return cmocka_run_group_tests(tests, setup, teardown);
}
