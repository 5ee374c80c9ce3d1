/* Unit tests: the state journal (engine/state.c) with real files and
 * processes: reverse-order undo, done marks, encoding, torn lines, live
 * owners, compaction, token allocation across processes, kill by start time. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>
#include "test_cases.h"

#include "diag.h"
#include "spawn.h"
#include "state.h"
#include "undo_proc.h"

static char tmp[256];
static char journal[300];

static int setup(void **state)
{
	(void)state;
	snprintf(tmp, sizeof(tmp), "/tmp/test_state.XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	snprintf(journal, sizeof(journal), "%s/sub/journal", tmp);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	state_close();
	char cmd[1200];
	/* a failed test_pg_stop must not leave its server running */
	snprintf(
	    cmd, sizeof(cmd),
	    "if [ -f '%s/pg/postmaster.pid' ]; then runuser -u postgres -- "
	    "/usr/lib/postgresql/15/bin/pg_ctl -D '%s/pg' -m immediate stop >/dev/null 2>&1; fi; rm -rf '%s'",
	    tmp, tmp, tmp);
	return system(cmd) == 0 ? 0 : -1;
}

static void touch(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static char *slurp(const char *path)
{
	static char buf[4096];
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static bool proc_is_zombie(pid_t pid)
{
	char path[64], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return false;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' && p[2] == 'Z';
}

static off_t fsize(const char *path)
{
	struct stat sb;
	return stat(path, &sb) == 0 ? sb.st_size : -1;
}

static unsigned long long starttime(pid_t pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "r");
	if (!f)
		return 0;
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	for (int i = 2; i < 22 && p; i++)
		p = strchr(p + 1, ' ');
	return p ? strtoull(p + 1, NULL, 10) : 0;
}

/* Actions are undone newest first: the file inside the directory goes
 * before the directory; done actions are left alone. */
static void test_reverse_order_and_done(void **state)
{
	(void)state;
	char dir[300], file[400], keep[400];
	snprintf(dir, sizeof(dir), "%s/d", tmp);
	snprintf(file, sizeof(file), "%s/f", dir);
	snprintf(keep, sizeof(keep), "%s/keep", tmp);
	assert_int_equal(state_open(journal), 0);
	assert_string_equal(state_path(), journal);
	int t1 = state_push("rmdir", dir, NULL);
	assert_true(t1 > 0);
	assert_int_equal(mkdir(dir, 0755), 0);
	int t2 = state_push("rm", file, NULL);
	assert_true(t2 > t1);
	touch(file, "x");
	int t3 = state_push("rm", keep, NULL);
	touch(keep, "x");
	assert_int_equal(state_done(t3), 0); /* pretend it was undone: cleanup must not touch it */
	state_close();

	struct diag d;
	diag_init(&d);
	assert_int_equal(state_cleanup(journal, &d), 2);
	assert_int_equal(d.nerrors, 0);
	assert_int_equal(access(file, F_OK), -1);
	assert_int_equal(access(dir, F_OK), -1);
	assert_int_equal(access(keep, F_OK), 0);
	/* everything is done now: the journal is emptied, a second run is a no-op */
	assert_int_equal(fsize(journal), 0);
	assert_int_equal(state_cleanup(journal, &d), 0);
	diag_free(&d);
}

/* cleanup lists each action with the run (pid) that set it up; --dry-run
 * lists the same and changes nothing: not the files, not the journal. */
static void test_list_and_dry_run(void **state)
{
	(void)state;
	char file[400], listed[4096], expect[1024];
	snprintf(file, sizeof(file), "%s/img", tmp);
	assert_int_equal(state_open(journal), 0);
	assert_true(state_push("rm", file, NULL) > 0);
	touch(file, "x");
	state_close();
	off_t before = fsize(journal);
	snprintf(expect, sizeof(expect), "run %ld: rm %s\n", (long)getpid(), file);

	struct diag d;
	diag_init(&d);
	FILE *out = fmemopen(listed, sizeof(listed), "w");
	struct state_cleanup_opts dry = {.dry_run = true, .list = out};
	assert_int_equal(state_cleanup_opts(journal, &dry, &d), 1);
	fclose(out);
	assert_int_equal(strncmp(listed, "would undo ", 11), 0);
	assert_string_equal(listed + 11, expect);
	assert_int_equal(access(file, F_OK), 0);
	assert_int_equal(fsize(journal), before);

	out = fmemopen(listed, sizeof(listed), "w");
	struct state_cleanup_opts real = {.list = out};
	assert_int_equal(state_cleanup_opts(journal, &real, &d), 1);
	fclose(out);
	assert_int_equal(strncmp(listed, "undone ", 7), 0);
	assert_string_equal(listed + 7, expect);
	assert_int_equal(access(file, F_OK), -1);
	assert_int_equal(d.nerrors, 0);
	diag_free(&d);
}

/* A named run (state_set_run) is listed with its id and output folder, in
 * the dry run and the real one; the name survives compaction while the run
 * has pending actions, and comes back after a compaction dropped it. */
static void test_list_names_run(void **state)
{
	(void)state;
	char file[400], file2[400], dir[400], listed[4096], expect[1024];
	snprintf(file, sizeof(file), "%s/img", tmp);
	snprintf(file2, sizeof(file2), "%s/img2", tmp);
	snprintf(dir, sizeof(dir), "%s/d", tmp);
	assert_int_equal(state_open(journal), 0);
	assert_int_equal(state_set_run("0123456789abcdef", "/out/my run"), 0);
	/* 70 finished actions: state_push compacts, every action done, so
	 * the name goes with them and must be written again for img */
	for (int i = 0; i < 70; i++) {
		int t = state_push("rmdir", dir, NULL);
		assert_true(t > 0);
		assert_int_equal(state_done(t), 0);
	}
	assert_true(state_push("rm", file, NULL) > 0);
	/* 70 more while img is pending: the compaction keeps the name */
	for (int i = 0; i < 70; i++) {
		int t = state_push("rmdir", dir, NULL);
		assert_true(t > 0);
		assert_int_equal(state_done(t), 0);
	}
	assert_true(state_push("rm", file2, NULL) > 0);
	touch(file, "x");
	touch(file2, "x");
	state_close();
	off_t before = fsize(journal);
	snprintf(expect, sizeof(expect),
	         "would undo run %ld (id 0123456789abcdef, output /out/my run): rm %s\n"
	         "would undo run %ld (id 0123456789abcdef, output /out/my run): rm %s\n",
	         (long)getpid(), file2, (long)getpid(), file);

	struct diag d;
	diag_init(&d);
	FILE *out = fmemopen(listed, sizeof(listed), "w");
	struct state_cleanup_opts dry = {.dry_run = true, .list = out};
	assert_int_equal(state_cleanup_opts(journal, &dry, &d), 2);
	fclose(out);
	assert_string_equal(listed, expect);
	assert_int_equal(access(file, F_OK), 0);
	assert_int_equal(fsize(journal), before);

	out = fmemopen(listed, sizeof(listed), "w");
	struct state_cleanup_opts real = {.list = out};
	assert_int_equal(state_cleanup_opts(journal, &real, &d), 2);
	fclose(out);
	snprintf(expect, sizeof(expect), "undone run %ld (id 0123456789abcdef, output /out/my run): rm %s\n",
	         (long)getpid(), file2);
	assert_int_equal(strncmp(listed, expect, strlen(expect)), 0);
	assert_int_equal(access(file, F_OK), -1);
	assert_int_equal(access(file2, F_OK), -1);
	assert_int_equal(fsize(journal), 0);
	assert_int_equal(d.nerrors, 0);
	diag_free(&d);
}

/* Values with spaces, tabs, newlines, '%', "-" and "" survive the journal. */
static void test_encoding_roundtrip(void **state)
{
	(void)state;
	/* and a long one: 3000 characters, a third of them encoded as %20 */
	static char longv[3001];
	for (int i = 0; i < 3000; i++)
		longv[i] = i % 3 ? 'x' : ' ';
	const char *values[] = {"a b\tc%d\ne", "-", "", "4096\t131072\t6291456", "100%", longv};
	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		char path[400];
		snprintf(path, sizeof(path), "%s/knob%zu", tmp, i);
		touch(path, "changed");
		assert_int_equal(state_open(journal), 0);
		assert_true(state_push("sysfs", path, values[i]) > 0);
		state_close();
		struct diag d;
		diag_init(&d);
		assert_int_equal(state_cleanup(journal, &d), 1);
		assert_string_equal(slurp(path), values[i]);
		diag_free(&d);
	}
}

/* kill -9 in the middle of a write leaves a line without newline: ignored. */
static void test_torn_line(void **state)
{
	(void)state;
	char victim[400], other[400];
	snprintf(victim, sizeof(victim), "%s/victim", tmp);
	snprintf(other, sizeof(other), "%s/other", tmp);
	touch(victim, "x");
	touch(other, "x");
	assert_int_equal(state_open(journal), 0);
	assert_true(state_push("rm", other, NULL) > 0);
	state_close();
	int fd = open(journal, O_WRONLY | O_APPEND);
	assert_true(fd >= 0);
	char line[600];
	snprintf(line, sizeof(line), "P 7 1 1 rm %s -", victim); /* no newline */
	assert_int_equal(write(fd, line, strlen(line)), (ssize_t)strlen(line));
	close(fd);
	struct diag d;
	diag_init(&d);
	assert_int_equal(state_cleanup(journal, &d), 1);
	assert_int_equal(access(other, F_OK), -1);
	assert_int_equal(access(victim, F_OK), 0);
	diag_free(&d);
}

/* Actions of a run that is still alive are not undone by cleanup. */
static void test_live_owner_skipped(void **state)
{
	(void)state;
	char path[400];
	snprintf(path, sizeof(path), "%s/live", tmp);
	touch(path, "x");
	pid_t parent = getppid();
	char sub[300];
	snprintf(sub, sizeof(sub), "%s/sub", tmp);
	mkdir(sub, 0755);
	FILE *f = fopen(journal, "a");
	assert_non_null(f);
	fprintf(f, "R %d %llu feedc0de00000000 /out\n", (int)parent, starttime(parent));
	fprintf(f, "P 1 %d %llu rm %s -\n", (int)parent, starttime(parent), path);
	/* the same pid with another start time is a dead run whose pid was reused */
	fprintf(f, "P 2 %d %llu rm %s.x -\n", (int)parent, starttime(parent) + 1, path);
	fclose(f);
	struct diag d;
	diag_init(&d);
	assert_int_equal(state_cleanup(journal, &d), 1);
	assert_int_equal(access(path, F_OK), 0);
	assert_true(d.n >= 1);
	assert_non_null(strstr(d.v[0].msg, "still active"));
	assert_non_null(strstr(d.v[0].msg, "(id feedc0de00000000)")); /* the live run, named */
	assert_true(fsize(journal) > 0); /* not compacted: one action is pending */
	diag_free(&d);
	unlink(journal);
}

/* Two processes appending to one journal get distinct tokens. */
static void test_tokens_across_processes(void **state)
{
	(void)state;
	assert_int_equal(state_open(journal), 0);
	int a = state_push("rm", "/nonexistent/a", NULL);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		state_close();
		if (state_open(journal) < 0)
			_exit(1);
		int b = state_push("rm", "/nonexistent/b", NULL);
		_exit(b == a + 1 ? 0 : 2);
	}
	int status;
	waitpid(pid, &status, 0);
	assert_true(WIFEXITED(status));
	assert_int_equal(WEXITSTATUS(status), 0);
	int c = state_push("rm", "/nonexistent/c", NULL);
	assert_int_equal(c, a + 2);
	state_close();
	struct diag d;
	diag_init(&d);
	assert_int_equal(state_cleanup(journal, &d), 3);
	diag_free(&d);
}

/* "kill" stops the process only when its start time matches. */
static void test_kill_by_starttime(void **state)
{
	(void)state;
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) {
		for (;;)
			pause();
	}
	char pidtext[32], st[32], wrong[32];
	snprintf(pidtext, sizeof(pidtext), "%d", (int)child);
	unsigned long long s = 0;
	for (int i = 0; i < 100 && !s; i++)
		s = starttime(child);
	snprintf(st, sizeof(st), "%llu", s);
	snprintf(wrong, sizeof(wrong), "%llu", s + 12345);
	struct diag d;
	diag_init(&d);
	assert_int_equal(state_undo_action("kill", pidtext, wrong, &d), 0);
	assert_int_equal(kill(child, 0), 0); /* still alive: start time did not match */
	assert_int_equal(state_undo_action("kill", pidtext, st, &d), 0);
	waitpid(child, NULL, WNOHANG); /* state reaps its own children already */
	assert_int_equal(kill(child, 0), -1);
	diag_free(&d);
}

/* "kill" of a process-group leader ends the whole group, also after the
 * leader itself has exited (what `cmd &` in an exec step leaves behind). */
static void test_kill_group_after_leader(void **state)
{
	(void)state;
	int pfd[2];
	assert_int_equal(pipe(pfd), 0);
	const char *argv[] = {"/bin/sh", "-c", "sleep 30 </dev/null >/dev/null 2>&1 & echo $!", NULL};
	struct spawn_child c = {.argv = argv, .out_fd = pfd[1], .err_fd = -1};
	struct spawn_failure why;
	pid_t leader = spawn_start(&c, &why);
	close(pfd[1]);
	assert_true(leader > 0);
	char buf[64] = "";
	ssize_t n = read(pfd[0], buf, sizeof(buf) - 1);
	close(pfd[0]);
	assert_true(n > 0);
	pid_t member = (pid_t)atol(buf);
	assert_true(member > 0);
	unsigned long long s = undo_proc_starttime(leader); /* a zombie at worst */
	assert_true(s > 0);
	assert_int_equal(spawn_wait(leader), 0);
	assert_int_equal(kill(member, 0), 0);
	char pidtext[32], st[32];
	snprintf(pidtext, sizeof(pidtext), "%d", (int)leader);
	snprintf(st, sizeof(st), "%llu", s);
	struct diag d;
	diag_init(&d);
	assert_int_equal(state_undo_action("kill", pidtext, st, &d), 0);
	/* gone (or a zombie until its new parent reaps it) */
	int i = 0;
	while (i++ < 200 && kill(member, 0) == 0 && !proc_is_zombie(member))
		usleep(10000);
	assert_true(kill(member, 0) < 0 || proc_is_zombie(member));
	diag_free(&d);
}

/* "cgroup" refuses a directory that is not in a cgroup-v2 file system; and
 * cleanup ends processes before anything else, whatever their age in the
 * journal: the older "cgroup" action is reported before the newer "rmdir". */
static void test_cgroup_and_process_order(void **state)
{
	(void)state;
	char dir[400], file[450];
	snprintf(dir, sizeof(dir), "%s/notcg", tmp);
	snprintf(file, sizeof(file), "%s/f", dir);
	mkdir(dir, 0755);
	touch(file, "x");
	struct diag d;
	diag_init(&d);
	assert_int_equal(state_undo_action("cgroup", dir, NULL, &d), -EINVAL);
	assert_int_equal(access(file, F_OK), 0);
	assert_non_null(strstr(d.v[0].msg, "not a cgroup-v2 directory"));
	diag_free(&d);

	assert_int_equal(state_open(journal), 0);
	assert_true(state_push("cgroup", dir, NULL) > 0);
	assert_true(state_push("rmdir", dir, NULL) > 0);
	state_close();
	diag_init(&d);
	assert_int_equal(state_cleanup(journal, &d), -EIO); /* the cgroup action failed */
	assert_int_equal(d.n, 2);
	assert_non_null(strstr(d.v[0].msg, "not a cgroup-v2 directory"));
	assert_non_null(strstr(d.v[1].msg, "not empty"));
	diag_free(&d);
}

static int count_lines(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	int n = 0, c;
	while ((c = fgetc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	return n;
}

/* The journal does not grow without bound while some actions stay pending
 * (a long run, or another live run's): finished records are dropped, the
 * pending ones kept, also those of another process that holds the journal
 * open across the compaction and appends afterwards (into the new file). */
static void test_compaction(void **state)
{
	(void)state;
	char fa[400], fb[400], fc[400], fd[400];
	snprintf(fa, sizeof(fa), "%s/a", tmp);
	snprintf(fb, sizeof(fb), "%s/b", tmp);
	snprintf(fc, sizeof(fc), "%s/c", tmp);
	snprintf(fd, sizeof(fd), "%s/d", tmp);
	touch(fa, "a");
	touch(fb, "b");
	touch(fc, "c");
	touch(fd, "d");
	int ready[2], go[2];
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	pid_t child = fork();
	assert_true(child >= 0);
	if (child == 0) { /* another run: one action before, one after the compaction */
		char c = 0;
		alarm(20); /* never outlive a failed test */
		close(go[1]);
		if (state_open(journal) < 0 || state_push("rm", fa, NULL) <= 0)
			_exit(1);
		(void)!write(ready[1], "r", 1);
		(void)!read(go[0], &c, 1);
		_exit(state_push("rm", fb, NULL) > 0 ? 0 : 2); /* then "killed": no close */
	}
	char c;
	assert_int_equal(read(ready[0], &c, 1), 1);
	assert_int_equal(state_open(journal), 0);
	assert_true(state_push("rm", fc, NULL) > 0);
	int most = 0;
	for (int i = 0; i < 400; i++) {
		int tok = state_push("rmdir", "/nonexistent/x", NULL);
		assert_true(tok > 0);
		assert_int_equal(state_done(tok), 0);
		int n = count_lines(journal);
		most = n > most ? n : most;
	}
	state_close();
	int pending = count_lines(journal);
	/* one more in the new file, before the other run writes again */
	assert_int_equal(state_open(journal), 0);
	assert_true(state_push("rm", fd, NULL) > 0);
	state_close();
	assert_int_equal(write(go[1], "g", 1), 1);
	int wst;
	assert_int_equal(waitpid(child, &wst, 0), child);
	assert_true(most <= 2 * 64 + 8); /* 800 lines without compaction */
	assert_int_equal(pending, 2);    /* the two pending actions */
	assert_true(WIFEXITED(wst) && WEXITSTATUS(wst) == 0);
	assert_int_equal(count_lines(journal), 4);
	struct diag d;
	diag_init(&d);
	assert_int_equal(state_cleanup(journal, &d), 4);
	diag_free(&d);
	assert_int_equal(access(fa, F_OK), -1);
	assert_int_equal(access(fb, F_OK), -1);
	assert_int_equal(access(fc, F_OK), -1);
	assert_int_equal(access(fd, F_OK), -1);
	assert_int_equal(fsize(journal), 0);
	close(ready[0]);
	close(ready[1]);
	close(go[0]);
	close(go[1]);
}

static void test_disabled_and_errors(void **state)
{
	(void)state;
	assert_int_equal(state_open(NULL), 0);
	assert_null(state_path());
	int t = state_push("rm", "/x", NULL);
	assert_true(t > 0);
	assert_int_equal(state_done(t), 0);
	assert_true(state_push(NULL, "/x", NULL) < 0);
	struct diag d;
	diag_init(&d);
	assert_int_equal(state_undo_action("bogus", "x", NULL, &d), -EINVAL);
	assert_int_equal(d.nerrors, 1);
	/* undoing what is already gone is not an error */
	assert_int_equal(state_undo_action("rm", "/nonexistent/file", NULL, &d), 0);
	assert_int_equal(state_undo_action("rmdir", "/nonexistent/dir", NULL, &d), 0);
	assert_int_equal(state_undo_action("rmtree", "/nonexistent/dir", NULL, &d), 0);
	assert_int_equal(state_undo_action("umount", "/nonexistent/mnt", NULL, &d), 0);
	assert_int_equal(state_undo_action("losetup-d", "/dev/loop_nonexistent", NULL, &d), 0);
	assert_int_equal(state_undo_action("pg-stop", "/nonexistent/pgdata", NULL, &d), 0);
	assert_int_equal(d.nerrors, 1);
	/* a missing journal is nothing to clean */
	char missing[400];
	snprintf(missing, sizeof(missing), "%s/none", tmp);
	assert_int_equal(state_cleanup(missing, &d), 0);
	diag_free(&d);
	setenv("BENCHGRID_STATE", "/tmp/x-state", 1);
	assert_string_equal(state_default_path(), "/tmp/x-state");
	unsetenv("BENCHGRID_STATE");
	if (geteuid() == 0)
		assert_string_equal(state_default_path(), "/run/benchgrid/state");
	else
		assert_non_null(strstr(state_default_path(), "benchgrid"));
}

static void test_rmtree(void **state)
{
	(void)state;
	char dir[400], sub[450], file[500];
	snprintf(dir, sizeof(dir), "%s/tree", tmp);
	snprintf(sub, sizeof(sub), "%s/a", dir);
	snprintf(file, sizeof(file), "%s/f", sub);
	mkdir(dir, 0755);
	mkdir(sub, 0700);
	touch(file, "x");
	char link[500];
	snprintf(link, sizeof(link), "%s/link", dir);
	assert_int_equal(symlink("/etc", link), 0); /* must not follow it */
	struct diag d;
	diag_init(&d);
	assert_int_equal(state_undo_action("rmtree", dir, NULL, &d), 0);
	assert_int_equal(access(dir, F_OK), -1);
	assert_int_equal(access("/etc/passwd", F_OK), 0);
	diag_free(&d);
}

/* "pg-stop" stops a real server as the data directory's owner (root only:
 * PostgreSQL refuses to run as root, so the test needs to switch users). */
static void test_pg_stop(void **state)
{
	(void)state;
	const char *bin = "/usr/lib/postgresql/15/bin";
	char initdb[128];
	snprintf(initdb, sizeof(initdb), "%s/initdb", bin);
	if (getuid() != 0 || access(initdb, X_OK) != 0 || system("id postgres >/dev/null 2>&1") != 0) {
		print_message("skipped: needs root, user postgres and %s\n", initdb);
		skip();
	}
	char cmd[4096], data[400], pidfile[450];
	snprintf(data, sizeof(data), "%s/pg", tmp);
	snprintf(pidfile, sizeof(pidfile), "%s/postmaster.pid", data);
	snprintf(
	    cmd, sizeof(cmd),
	    "chmod 755 %s && mkdir %s && chown postgres %s && "
	    "runuser -u postgres -- %s -D %s -A trust --no-sync >/dev/null 2>&1 && "
	    "runuser -u postgres -- %s/pg_ctl -D %s -w -l %s/log -o \"-k %s -c listen_addresses= -p 54329\" "
	    "start >/dev/null 2>&1",
	    tmp, data, data, initdb, data, bin, data, data, data);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(access(pidfile, F_OK), 0);
	char pg_ctl[160];
	snprintf(pg_ctl, sizeof(pg_ctl), "%s/pg_ctl", bin);
	assert_int_equal(state_open(journal), 0);
	assert_true(state_push("pg-stop", data, pg_ctl) > 0);
	state_close();
	struct diag d;
	diag_init(&d);
	assert_int_equal(state_cleanup(journal, &d), 1);
	assert_int_equal(d.nerrors, 0);
	assert_int_equal(access(pidfile, F_OK), -1); /* stopped cleanly */
	/* stopping a stopped server is nothing to do */
	assert_int_equal(state_undo_action("pg-stop", data, pg_ctl, &d), 0);
	diag_free(&d);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test_setup_teardown(test_reverse_order_and_done, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_list_and_dry_run, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_list_names_run, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_encoding_roundtrip, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_torn_line, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_live_owner_skipped, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_tokens_across_processes, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_kill_by_starttime, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_kill_group_after_leader, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_cgroup_and_process_order, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_compaction, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_disabled_and_errors, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_rmtree, setup, teardown),
	    cmocka_unit_test_setup_teardown(test_pg_stop, setup, teardown),
	};
	return bg_run_cases("test_state", tests, sizeof(tests) / sizeof(tests[0]), NULL, NULL, argc, argv);
}
