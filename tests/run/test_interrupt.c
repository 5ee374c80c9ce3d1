/* test_interrupt: the run's signal handling (engine/run/interrupt.h) in a
 * real child process: the first SIGTERM or SIGINT only sets the flags (the
 * run tears down and exits by itself), a second one only says that the run
 * is tearing down (a habitual double Ctrl-C must not skip the teardown), a
 * third ends the process at once with status 130 and a message, even while
 * its main thread spins in C code that never looks at the flags (issue 29,
 * item 5). */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "interrupt.h"

/* The child: install the handlers, say so, spin without looking at the
 * flags; report on the pipe whether the first signal set the stop flag. */
static void child_spin(int ready_fd, int err_fd)
{
	dup2(err_fd, STDERR_FILENO);
	interrupt_install();
	if (write(ready_fd, "r", 1) != 1)
		_exit(3);
	bool told = false;
	for (volatile unsigned long i = 0;; i++)
		if (!told && interrupt_requested()) {
			told = write(ready_fd, "s", 1) == 1;
		}
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* Wait up to `secs` for pid to end; its wait status, or -1 when it has not. */
static int wait_up_to(pid_t pid, double secs)
{
	double end = now_s() + secs;
	int st;
	do {
		pid_t r = waitpid(pid, &st, WNOHANG);
		if (r == pid)
			return st;
		usleep(10 * 1000);
	} while (now_s() < end);
	return -1;
}

static void expect_third_signal_ends(int first, int second)
{
	int ready[2], err[2];
	assert_int_equal(pipe(ready), 0);
	assert_int_equal(pipe(err), 0);
	pid_t pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		close(ready[0]);
		close(err[0]);
		child_spin(ready[1], err[1]);
	}
	close(ready[1]);
	close(err[1]);
	char c = 0;
	assert_int_equal(read(ready[0], &c, 1), 1);
	assert_int_equal(c, 'r');
	assert_int_equal(kill(pid, first), 0);
	/* The first signal sets the stop flag and leaves the process running. */
	assert_int_equal(read(ready[0], &c, 1), 1);
	assert_int_equal(c, 's');
	assert_int_equal(wait_up_to(pid, 0.3), -1);
	/* The second one only says so: the process goes on with its teardown. */
	assert_int_equal(kill(pid, second), 0);
	assert_int_equal(wait_up_to(pid, 0.3), -1);
	assert_int_equal(kill(pid, second), 0);
	/* Generous: the machine may be busy; "never" is what this tells apart. */
	int st = wait_up_to(pid, 30);
	if (st == -1) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		fail_msg("a third signal (%d after %d) did not end a spinning process within 30 s", second,
		         first);
	}
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 130);
	char msg[512] = {0};
	ssize_t n = read(err[0], msg, sizeof(msg) - 1);
	assert_true(n > 0);
	if (!strstr(msg, "tearing down") || !strstr(msg, "third signal: exiting") ||
	    !strstr(msg, "benchgrid cleanup"))
		fail_msg("message: %s", msg);
	close(ready[0]);
	close(err[0]);
}

static void test_second_sigterm(void **state)
{
	(void)state;
	expect_third_signal_ends(SIGTERM, SIGTERM);
}

static void test_sigint_then_sigterm(void **state)
{
	(void)state;
	expect_third_signal_ends(SIGINT, SIGTERM);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_second_sigterm),
	    cmocka_unit_test(test_sigint_then_sigterm),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
