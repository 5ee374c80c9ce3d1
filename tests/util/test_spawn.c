/* test_spawn: util/spawn's child hygiene, whoever starts a process: no
 * benchgrid descriptor survives into the child, every signal disposition and
 * the mask are the defaults, the child leads its own process group; plus
 * capture, timeouts, the stop flag, and the three start failures. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "spawn.h"
#include "tail.h"

/* The value of "Key:" in /proc/<child>/status text, or NULL. */
static const char *status_field(const char *text, const char *key, char *buf, size_t len)
{
	const char *p = strstr(text, key);
	if (!p)
		return NULL;
	p += strlen(key);
	while (*p == ' ' || *p == '\t')
		p++;
	size_t n = strcspn(p, "\n");
	snprintf(buf, len, "%.*s", (int)n, p);
	return buf;
}

/* benchgrid's own state the child must not see: an inheritable descriptor
 * (as the journal once was), an ignored SIGPIPE, a blocked SIGUSR1. */
static void test_child_hygiene(void **state)
{
	int leaked = open("/dev/null", O_RDONLY); /* no O_CLOEXEC on purpose */
	assert_true(leaked >= 0);
	assert_int_equal(dup2(leaked, 57), 57);
	void (*old_pipe)(int) = signal(SIGPIPE, SIG_IGN);
	void (*old_hup)(int) = signal(SIGHUP, SIG_IGN);
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGUSR1);
	sigprocmask(SIG_BLOCK, &block, &old);

	/* Each child reads its own /proc entries, with no shell in between (a
	 * shell blocks signals around its own forks and waits). */
	const char *status_argv[] = {"cat", "/proc/self/status", NULL};
	struct spawn_run r = {.c = {.argv = status_argv, .out_fd = -1, .err_fd = -1}, .timeout = 10};
	assert_int_equal(spawn_run(&r), 0);
	assert_int_equal(r.status, 0);
	char buf[256];
	assert_non_null(status_field(r.out, "SigIgn:", buf, sizeof(buf)));
	assert_string_equal(buf, "0000000000000000");
	assert_non_null(status_field(r.out, "SigBlk:", buf, sizeof(buf)));
	assert_string_equal(buf, "0000000000000000");
	spawn_run_free(&r);

	/* 0, 1, 2 and ls's own handle on the directory: nothing of ours (fd 57,
	 * the leaked one, or the capture pipes). */
	const char *fd_argv[] = {"ls", "/proc/self/fd", NULL};
	struct spawn_run f = {.c = {.argv = fd_argv}, .timeout = 10};
	assert_int_equal(spawn_run(&f), 0);
	assert_int_equal(f.status, 0);
	char *line, *save = NULL;
	int n = 0;
	for (line = strtok_r(f.out, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		assert_true(atoi(line) != 57);
		n++;
	}
	assert_int_equal(n, 4);
	spawn_run_free(&f);

	/* Its own process group: field 5 of /proc/self/stat is the pid (field 1). */
	const char *stat_argv[] = {"cat", "/proc/self/stat", NULL};
	struct spawn_run g = {.c = {.argv = stat_argv}, .timeout = 10};
	assert_int_equal(spawn_run(&g), 0);
	long pid = 0, ppid = 0, pgrp = 0;
	const char *rest = strrchr(g.out, ')');
	assert_non_null(rest);
	assert_int_equal(sscanf(g.out, "%ld", &pid), 1);
	assert_int_equal(sscanf(rest, ") %*c %ld %ld", &ppid, &pgrp), 2);
	assert_int_equal(pgrp, pid);
	assert_int_equal(ppid, getpid());
	spawn_run_free(&g);

	sigprocmask(SIG_SETMASK, &old, NULL);
	signal(SIGPIPE, old_pipe);
	signal(SIGHUP, old_hup);
	close(57);
	close(leaked);
}

static void test_capture_and_merge(void **state)
{
	const char *argv[] = {"/bin/sh", "-c", "echo out; echo err >&2; exit 3", NULL};
	struct spawn_run r = {.c = {.argv = argv}, .timeout = 10};
	assert_int_equal(spawn_run(&r), 0);
	assert_int_equal(r.status, 3);
	assert_string_equal(r.out, "out\n");
	assert_string_equal(r.err, "err\n");
	spawn_run_free(&r);
	struct spawn_run m = {.c = {.argv = argv}, .timeout = 10, .merge_err = true};
	assert_int_equal(spawn_run(&m), 0);
	assert_string_equal(m.out, "out\nerr\n");
	assert_string_equal(m.err, "");
	spawn_run_free(&m);
}

static void test_timeout_kills_group(void **state)
{
	/* The background sleep is in the group too: the timeout ends both. */
	const char *argv[] = {"/bin/sh", "-c", "sleep 30 & sleep 30", NULL};
	struct spawn_run r = {.c = {.argv = argv}, .timeout = 0.3};
	assert_int_equal(spawn_run(&r), 0);
	assert_true(r.timed_out);
	assert_int_equal(r.term_signal, SIGTERM);
	assert_true(r.elapsed < 5);
	/* No one left in the group (a killed orphan may stay a zombie until
	 * init reaps it: give that a moment). */
	int left = 0;
	for (int i = 0; i < 200 && (left = kill(-r.pid, 0)) == 0; i++)
		usleep(10000);
	assert_int_equal(left, -1);
	assert_int_equal(errno, ESRCH);
	spawn_run_free(&r);
}

static void test_stop_flag(void **state)
{
	volatile sig_atomic_t stop = 1;
	const char *argv[] = {"sleep", "30", NULL};
	struct spawn_run r = {.c = {.argv = argv}, .stop = &stop};
	assert_int_equal(spawn_run(&r), 0);
	assert_true(r.stopped);
	spawn_run_free(&r);
}

static void test_start_failures(void **state)
{
	const char *missing[] = {"benchgrid-no-such-program", NULL};
	struct spawn_run r = {.c = {.argv = missing}};
	assert_int_equal(spawn_run(&r), 0);
	assert_int_equal(r.why.exec_errno, ENOENT);
	assert_int_equal(r.status, 127);
	spawn_run_free(&r);

	const char *pwd[] = {"/bin/pwd", NULL};
	struct spawn_run c = {.c = {.argv = pwd, .cwd = "/nonexistent/dir"}};
	assert_int_equal(spawn_run(&c), 0);
	assert_int_equal(c.why.cwd_errno, ENOENT);
	assert_int_equal(c.why.exec_errno, 0);
	spawn_run_free(&c);

	struct spawn_run w = {.c = {.argv = pwd, .cwd = "/tmp"}};
	assert_int_equal(spawn_run(&w), 0);
	assert_string_equal(w.out, "/tmp\n");
	spawn_run_free(&w);
}

static void test_start_and_wait(void **state)
{
	int p[2];
	assert_int_equal(pipe(p), 0);
	const char *argv[] = {"/bin/sh", "-c", "echo hello; exit 5", NULL};
	struct spawn_child c = {.argv = argv, .out_fd = p[1], .err_fd = -1, .new_session = true};
	struct spawn_failure why;
	pid_t pid = spawn_start(&c, &why);
	close(p[1]);
	assert_true(pid > 0);
	char buf[32] = {0};
	assert_int_equal(read(p[0], buf, sizeof(buf) - 1), 6);
	assert_string_equal(buf, "hello\n");
	close(p[0]);
	assert_int_equal(spawn_wait(pid), 5);
}

static void test_find_program_and_tail(void **state)
{
	char path[4096];
	assert_true(spawn_find_program("sh", path, sizeof(path)));
	assert_int_equal(access(path, X_OK), 0);
	assert_false(spawn_find_program("benchgrid-no-such-program", path, sizeof(path)));
	const char *t = "line1\nline2\nline3\n";
	assert_string_equal(tail_text(t, strlen(t), 8), "line3\n");
	assert_string_equal(tail_text(t, strlen(t), 100), t);
	char *ind = tail_indent("a\nb", "  ");
	assert_string_equal(ind, "  a\n  b");
	free(ind);
	char name[] = "/tmp/benchgrid-tail-XXXXXX";
	int fd = mkstemp(name);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "one\ntwo\nthree\n\n", 15), 15);
	close(fd);
	char *last = tail_file(name, 0, 2, 4096);
	assert_string_equal(last, "two\nthree");
	free(last);
	assert_null(tail_file(name, 15, 2, 4096)); /* nothing after the offset */
	unlink(name);
}

/* The containment hooks without a cgroup: a directory that is not a cgroup
 * is refused (and nothing is set); the watch sees each spawn_run child start
 * and, once nothing of its group is left, end; a group that leaves a process
 * in the background is not reported ended (its journal entry stays). */
static pid_t watched[4];
static bool watched_start[4];
static int nwatched;

static void watch(pid_t pgid, bool started, void *ud)
{
	(void)ud;
	if (nwatched < 4) {
		watched[nwatched] = pgid;
		watched_start[nwatched++] = started;
	}
}

static void test_watch_and_cgroup_refused(void **state)
{
	assert_true(spawn_set_cgroup("/tmp") < 0);
	assert_null(spawn_get_cgroup());
	spawn_set_watch(watch, NULL);
	const char *quick[] = {"/bin/sh", "-c", "exit 0", NULL};
	struct spawn_run r = {.c = {.argv = quick}, .timeout = 10};
	assert_int_equal(spawn_run(&r), 0);
	spawn_run_free(&r);
	assert_int_equal(nwatched, 2);
	assert_int_equal(watched[0], r.pid);
	assert_true(watched_start[0]);
	assert_int_equal(watched[1], r.pid);
	assert_false(watched_start[1]);
	const char *bg[] = {"/bin/sh", "-c", "sleep 30 </dev/null >/dev/null 2>&1 &", NULL};
	struct spawn_run b = {.c = {.argv = bg}, .timeout = 10};
	assert_int_equal(spawn_run(&b), 0);
	spawn_run_free(&b);
	spawn_set_watch(NULL, NULL);
	assert_int_equal(nwatched, 3); /* started, never ended: the sleep is left */
	assert_int_equal(watched[2], b.pid);
	assert_int_equal(kill(-b.pid, SIGKILL), 0);
}

/* A child that cannot join its cgroup does not run, and says why. */
static void test_cgroup_join_failure(void **state)
{
	const char *argv[] = {"/bin/true", NULL};
	struct spawn_child c = {.argv = argv, .out_fd = -1, .err_fd = -1, .cgroup = "/nonexistent-cg"};
	struct spawn_failure why;
	pid_t pid = spawn_start(&c, &why);
	assert_true(pid > 0);
	assert_int_equal(why.cgroup_errno, ENOENT);
	assert_int_equal(why.exec_errno, 0);
	assert_int_equal(spawn_wait(pid), 126);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_child_hygiene),         cmocka_unit_test(test_capture_and_merge),
	    cmocka_unit_test(test_timeout_kills_group),   cmocka_unit_test(test_stop_flag),
	    cmocka_unit_test(test_start_failures),        cmocka_unit_test(test_start_and_wait),
	    cmocka_unit_test(test_find_program_and_tail), cmocka_unit_test(test_watch_and_cgroup_refused),
	    cmocka_unit_test(test_cgroup_join_failure),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
