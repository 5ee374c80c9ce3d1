/* test_outdir: the output directory's rules (engine/run/outdir.h) on real
 * folders: a new one is created with its parents, mode 0755; a planted
 * symbolic link (the folder itself, cells/, scenario.yaml) is refused or
 * replaced, never followed (nothing lands where it points); a folder writable by others, or owned by
 * another user (root only: chown), is refused; --resume needs the folder
 * and clears a killed run's temporary files whatever their age, while a
 * fresh run leaves young ones (a live writer's) alone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <dirent.h>
#include <sys/time.h>
#include <cmocka.h>

#include "run_fixture.h"
#include "test_cases.h"
#include "test_util.h"

static char dir[256];

static int setup(void **state)
{
	(void)state;
	rf_tmpdir(dir, sizeof(dir));
	umask(022);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	rf_rmtree(dir);
	return 0;
}

static void test_creates_with_parents(void **state)
{
	(void)state;
	char path[512];
	snprintf(path, sizeof(path), "%s/a/b/out", dir);
	struct diag d;
	diag_init(&d);
	int fd = outdir_open(path, false, &d);
	assert_true(fd >= 0);
	assert_int_equal(d.nerrors, 0);
	struct stat st;
	assert_int_equal(fstat(fd, &st), 0);
	assert_true(S_ISDIR(st.st_mode));
	assert_int_equal(st.st_mode & 07777, 0755);
	assert_int_equal(st.st_uid, geteuid());
	/* The fd is the folder itself: a file made through it lands there. */
	int f = openat(fd, "probe", O_WRONLY | O_CREAT | O_EXCL, 0644);
	assert_true(f >= 0);
	close(f);
	snprintf(path, sizeof(path), "%s/a/b/out/probe", dir);
	assert_int_equal(access(path, F_OK), 0);
	/* An existing folder of ours is opened again (a share joins it). */
	snprintf(path, sizeof(path), "%s/a/b/out", dir);
	int fd2 = outdir_open(path, false, &d);
	assert_true(fd2 >= 0);
	close(fd2);
	close(fd);
	diag_free(&d);
}

/* outdir_open refuses path with an error containing want. */
static void expect_refused(const char *path, bool resume, const char *want)
{
	struct diag d;
	diag_init(&d);
	int fd = outdir_open(path, resume, &d);
	if (fd >= 0)
		fail_msg("%s was accepted (resume %d)", path, resume);
	assert_int_equal(fd, -EINVAL);
	if (!strstr(diag_text(&d), want))
		fail_msg("expected '%s' in: %s", want, diag_text(&d));
	diag_free(&d);
}

static void test_refuses_planted_symlink(void **state)
{
	(void)state;
	char real[512], link[512], probe[600];
	snprintf(real, sizeof(real), "%s/elsewhere", dir);
	snprintf(link, sizeof(link), "%s/out", dir);
	assert_int_equal(mkdir(real, 0755), 0);
	assert_int_equal(symlink(real, link), 0);
	/* O_DIRECTORY|O_NOFOLLOW on a link to a folder fails with ENOTDIR
	 * (not ELOOP): said as "is not a directory" (cli_select.sh's words). */
	expect_refused(link, false, "out is not a directory");
	expect_refused(link, true, "out is not a directory");
	/* --dry-run's probe says the same without writing. */
	struct diag d;
	diag_init(&d);
	assert_int_equal(outdir_probe(link, false, &d), -EINVAL);
	diag_free(&d);
	/* Nothing went through the link. */
	snprintf(probe, sizeof(probe), "%s/cells", real);
	assert_int_equal(access(probe, F_OK), -1);
}

static size_t entries_of(const char *path)
{
	size_t n = 0;
	DIR *w = opendir(path);
	assert_non_null(w);
	struct dirent *e;
	while ((e = readdir(w)))
		n += e->d_name[0] != '.';
	closedir(w);
	return n;
}

static void test_subdir_refuses_planted_symlink(void **state)
{
	(void)state;
	char out[512], victim[512], cells[600], err[4600];
	snprintf(out, sizeof(out), "%s/out", dir);
	snprintf(victim, sizeof(victim), "%s/victim", dir);
	snprintf(cells, sizeof(cells), "%s/cells", out);
	struct diag d;
	diag_init(&d);
	int fd = outdir_open(out, false, &d);
	assert_true(fd >= 0);
	assert_int_equal(mkdir(victim, 0755), 0);
	assert_int_equal(symlink(victim, cells), 0);
	int sub = outdir_subdir(fd, "cells", cells, err, sizeof(err));
	assert_true(sub < 0);
	if (!strstr(err, "cells is not a directory"))
		fail_msg("err: %s", err);
	assert_int_equal(entries_of(victim), 0);
	/* A real sub-folder is made 0755 and opened. */
	sub = outdir_subdir(fd, "shards", "shards", err, sizeof(err));
	assert_true(sub >= 0);
	struct stat st;
	assert_int_equal(fstat(sub, &st), 0);
	assert_int_equal(st.st_mode & 07777, 0755);
	close(sub);
	/* A planted scenario.yaml link is replaced by the copy, not followed. */
	char scen[600], planted[600], target[600];
	snprintf(scen, sizeof(scen), "%s/src.yaml", dir);
	snprintf(target, sizeof(target), "%s/victim/file", dir);
	snprintf(planted, sizeof(planted), "%s/scenario.yaml", out);
	rf_write(scen, "name: x\n");
	rf_write(target, "precious\n");
	assert_int_equal(symlink(target, planted), 0);
	assert_int_equal(outdir_copy_scenario(fd, scen), 0);
	char *t = rf_read(target);
	assert_string_equal(t, "precious\n");
	free(t);
	assert_int_equal(lstat(planted, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	t = rf_read(planted);
	assert_string_equal(t, "name: x\n");
	free(t);
	close(fd);
	diag_free(&d);
}

static void test_refuses_writable_by_others(void **state)
{
	(void)state;
	char out[512];
	snprintf(out, sizeof(out), "%s/out", dir);
	assert_int_equal(mkdir(out, 0755), 0);
	assert_int_equal(chmod(out, 0775), 0);
	expect_refused(out, false, "writable by its group or by others");
	assert_int_equal(chmod(out, 0757), 0);
	expect_refused(out, true, "writable by its group or by others");
	assert_int_equal(chmod(out, 0755), 0);
	struct diag d;
	diag_init(&d);
	int fd = outdir_open(out, true, &d);
	assert_true(fd >= 0);
	close(fd);
	diag_free(&d);
}

/* Root only: a folder given to another user (chown) is not ours. */
static void test_refuses_foreign_owner(void **state)
{
	(void)state;
	if (geteuid() != 0)
		skip();
	char out[512];
	snprintf(out, sizeof(out), "%s/out", dir);
	assert_int_equal(mkdir(out, 0755), 0);
	assert_int_equal(chown(out, 65534, 65534), 0);
	expect_refused(out, false, "is owned by uid 65534");
	expect_refused(out, true, "is owned by uid 65534");
}

static void test_resume_needs_the_folder(void **state)
{
	(void)state;
	char out[512];
	snprintf(out, sizeof(out), "%s/never", dir);
	expect_refused(out, true, "nothing to resume");
	/* and creates nothing */
	assert_int_equal(access(out, F_OK), -1);
}

/* A file at path with mtime `age` seconds ago. */
static void plant(const char *path, long age)
{
	rf_write(path, "x");
	struct timeval tv[2];
	gettimeofday(&tv[0], NULL);
	tv[0].tv_sec -= age;
	tv[1] = tv[0];
	assert_int_equal(utimes(path, tv), 0);
}

/* A killed run's folder: its journal, a finished results.json, and the
 * temporary files of writes it did not finish (young and old). */
static void test_resume_reads_partial_folder(void **state)
{
	(void)state;
	char out[512], p[5][700];
	snprintf(out, sizeof(out), "%s/out", dir);
	assert_int_equal(mkdir(out, 0755), 0);
	snprintf(p[0], sizeof(p[0]), "%s/journal.jsonl", out);
	snprintf(p[1], sizeof(p[1]), "%s/results.json", out);
	snprintf(p[2], sizeof(p[2]), "%s/.results.json.a1B2c3.tmp", out); /* young */
	snprintf(p[3], sizeof(p[3]), "%s/.report.md.Zz9yX8.tmp", out);    /* old */
	snprintf(p[4], sizeof(p[4]), "%s/.notours.tmp", out);             /* not results_file's name */
	for (int i = 0; i < 5; i++)
		plant(p[i], i == 3 ? 2 * OUTDIR_LEFTOVER_AGE : 0);
	/* A fresh open (a share may be writing): only the old leftover goes. */
	struct diag d;
	diag_init(&d);
	int fd = outdir_open(out, false, &d);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(access(p[2], F_OK), 0);
	assert_int_equal(access(p[3], F_OK), -1);
	/* --resume: the run's own leftovers, whatever their age. */
	fd = outdir_open(out, true, &d);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(access(p[2], F_OK), -1);
	/* What the run finished, and any other file, stays. */
	assert_int_equal(access(p[0], F_OK), 0);
	assert_int_equal(access(p[1], F_OK), 0);
	assert_int_equal(access(p[4], F_OK), 0);
	assert_int_equal(d.nerrors, 0);
	diag_free(&d);
}

static void test_default_name(void **state)
{
	(void)state;
	char *p = outdir_default("my-scenario");
	assert_non_null(p);
	/* benchgrid-out/NAME-YYYYmmdd-HHMMSS */
	assert_int_equal(strncmp(p, "benchgrid-out/my-scenario-", 26), 0);
	assert_int_equal(strlen(p), 26 + 15);
	assert_int_equal(p[26 + 8], '-');
	free(p);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_creates_with_parents, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_refuses_planted_symlink, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_subdir_refuses_planted_symlink, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_refuses_writable_by_others, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_refuses_foreign_owner, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_resume_needs_the_folder, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_resume_reads_partial_folder, setup, teardown),
	    cmocka_unit_test(test_default_name),
	};
	return bg_run_cases("test_outdir", tests, sizeof(tests) / sizeof(tests[0]), NULL, NULL, argc, argv);
}
