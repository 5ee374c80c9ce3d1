/* test_proc_stat: the one reader of /proc/PID/stat (util/proc_stat):
 * crafted lines (a command name with ") (" and with what looks like the
 * fields after it, an empty and an over-long name, lines cut short or
 * holding a non-number), this process's own entry against getppid(),
 * getpgrp(), getsid(), and a real child that names itself "a) (b) S 1 2 3"
 * through prctl: running, then a zombie, then gone. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "proc_stat.h"

/* Fields 3 to 22 of a line: state S, ppid 4200, pgrp 4201, session 4202,
 * flags 4194560, utime 17, stime 5, cutime 3, cstime 2, start 100; then
 * fields 23 and 24. */
#define AFTER " S 4200 4201 4202 0 -1 4194560 1 0 0 0 17 5 3 2 20 0 1 0 100 1000 10"

static void expect_fields(const struct proc_stat *st)
{
	assert_int_equal(st->state, 'S');
	assert_int_equal(st->ppid, 4200);
	assert_int_equal(st->pgrp, 4201);
	assert_int_equal(st->session, 4202);
	assert_int_equal(st->flags, 4194560);
	assert_int_equal(st->utime, 17);
	assert_int_equal(st->stime, 5);
	assert_int_equal(st->cutime, 3);
	assert_int_equal(st->cstime, 2);
	assert_int_equal(st->start, 100);
}

static void test_names(void **state)
{
	(void)state;
	static const struct {
		const char *line, *comm;
	} cases[] = {
	    {"4242 (postgres)" AFTER, "postgres"},
	    {"4242 (postgres: a) b)" AFTER, "postgres: a) b"},
	    {"4242 (x) (y)" AFTER, "x) (y"},
	    {"4242 ()) (()" AFTER, ")) (("},
	    /* a name that imitates the fields: they follow the last ')' */
	    {"4242 (a) R 1 2 3 0 -1 0 9 9 9 9 99 99 9 9 20 0 1 0 7)" AFTER,
	     "a) R 1 2 3 0 -1 0 9 9 9 9 99 99 9 9 20 0 1 0 7"},
	    {"4242 ()" AFTER, ""},
	    {"4242 (tab\there)" AFTER "\n", "tab\there"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct proc_stat st;
		if (!proc_stat_parse(cases[i].line, &st))
			fail_msg("case %zu not parsed: %s", i, cases[i].line);
		assert_int_equal(st.pid, 4242);
		assert_string_equal(st.comm, cases[i].comm);
		expect_fields(&st);
	}
	/* a name longer than comm[] is cut, the fields still found */
	char line[512], name[200];
	memset(name, 'n', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	snprintf(line, sizeof(line), "1 (%s)" AFTER, name);
	struct proc_stat st;
	assert_true(proc_stat_parse(line, &st));
	assert_int_equal(strlen(st.comm), sizeof(st.comm) - 1);
	expect_fields(&st);
}

static void test_not_a_stat_line(void **state)
{
	(void)state;
	static const char *bad[] = {
	    "",
	    "garbage",
	    "1 (x) S",                                                       /* cut short */
	    "1 (x) S 4200 4201 4202 0 -1 4194560 1 0 0 0 17 5 3 2 20 0 1 0", /* field 22 missing */
	    "1 (x)S 4200 4201 4202 0 -1 4194560 1 0 0 0 17 5 3 2 20 0 1 0 100",
	    "(x)" AFTER,    /* no pid */
	    "1x (x)" AFTER, /* pid not a number */
	    "1(x)" AFTER,
	    "1 x)" AFTER, /* no '(' */
	    "1 (x" AFTER, /* no ')' */
	    "1 (x) SS 4200 4201 4202 0 -1 4194560 1 0 0 0 17 5 3 2 20 0 1 0 100",
	    "1 (x) S 42x0 4201 4202 0 -1 4194560 1 0 0 0 17 5 3 2 20 0 1 0 100",
	    "1 (x) S 4200 4201 4202 0 -1 4194560 1 0 0 0 -17 5 3 2 20 0 1 0 100",
	    "1 (x) S 4200  4201 4202 0 -1 4194560 1 0 0 0 17 5 3 2 20 0 1 0 100",
	    "1 (x) S 4200 4201 4202 0 -1 4194560 1 0 0 0 17 5 3 2 20 0 1 0 99999999999999999999999",
	};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct proc_stat st;
		if (proc_stat_parse(bad[i], &st))
			fail_msg("case %zu parsed: \"%s\"", i, bad[i]);
	}
	/* exactly 22 fields is a whole line */
	struct proc_stat st;
	assert_true(
	    proc_stat_parse("1 (x) S 4200 4201 4202 0 -1 4194560 1 0 0 0 17 5 3 2 20 0 1 0 100", &st));
	expect_fields(&st);
}

/* Clock ticks since boot now, from /proc/uptime. */
static unsigned long long ticks_now(void)
{
	double up = 0;
	FILE *f = fopen("/proc/uptime", "re");
	assert_non_null(f);
	assert_int_equal(fscanf(f, "%lf", &up), 1);
	fclose(f);
	return (unsigned long long)(up * (double)sysconf(_SC_CLK_TCK));
}

static void test_self(void **state)
{
	(void)state;
	struct proc_stat st;
	char name[17] = "";
	assert_int_equal(prctl(PR_GET_NAME, name), 0);
	assert_true(proc_stat_read(getpid(), &st));
	assert_int_equal(st.pid, getpid());
	assert_string_equal(st.comm, name);
	assert_int_equal(st.state, 'R');
	assert_int_equal(st.ppid, getppid());
	assert_int_equal(st.pgrp, getpgrp());
	assert_int_equal(st.session, getsid(0));
	assert_true(st.start > 0 && st.start <= ticks_now() + 1);
	/* its CPU time grows as it burns some (0.3 s: more than a tick) */
	unsigned long long t0 = st.utime + st.stime;
	struct timespec a, b;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &a);
	volatile unsigned long x = 0;
	do {
		for (int i = 0; i < 100000; i++)
			x += (unsigned long)i;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &b);
	} while ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9 < 0.3);
	(void)x; /* read once: clang's -Wunused-but-set-variable */
	assert_true(proc_stat_read(getpid(), &st));
	assert_true(st.utime + st.stime > t0);
	/* pid 0 has no entry; a pid above pid_max neither */
	assert_false(proc_stat_read(0, &st));
	assert_false(proc_stat_read(99999999, &st));
}

static void test_child_named(void **state)
{
	(void)state;
	const char *name = "a) (b) S 1 2 3"; /* 14 bytes: fits the kernel's 16 */
	int ready[2], go[2];
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(go), 0);
	struct proc_stat me;
	assert_true(proc_stat_read(getpid(), &me));
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char c;
		close(ready[0]);
		close(go[1]);
		prctl(PR_SET_NAME, name);
		if (write(ready[1], "x", 1) != 1)
			_exit(1);
		ssize_t n = read(go[0], &c, 1); /* blocks: state S */
		_exit(n < 0 ? 1 : 0);
	}
	close(ready[1]);
	close(go[0]);
	char c;
	assert_int_equal(read(ready[0], &c, 1), 1);
	struct proc_stat st = {0};
	/* in read() soon after it wrote */
	for (int i = 0; i < 200 && proc_stat_read(pid, &st) && st.state != 'S'; i++)
		usleep(5000);
	assert_int_equal(st.pid, pid);
	assert_string_equal(st.comm, name);
	assert_int_equal(st.state, 'S');
	assert_int_equal(st.ppid, getpid());
	assert_int_equal(st.pgrp, getpgrp());
	assert_true(st.start >= me.start);
	unsigned long long start = st.start;
	/* let it exit, not reaped yet: a zombie still has its line */
	close(go[1]);
	for (int i = 0; i < 200 && proc_stat_read(pid, &st) && st.state != 'Z'; i++)
		usleep(5000);
	assert_int_equal(st.state, 'Z');
	assert_int_equal(st.start, start);
	int status;
	assert_int_equal(waitpid(pid, &status, 0), pid);
	assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	assert_false(proc_stat_read(pid, &st));
	close(ready[0]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_names),
	    cmocka_unit_test(test_not_a_stat_line),
	    cmocka_unit_test(test_self),
	    cmocka_unit_test(test_child_named),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
