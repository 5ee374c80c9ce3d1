/* interrupt: signals and step timeouts (see interrupt.h). */
#include "interrupt.h"

#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static volatile sig_atomic_t g_stop;      /* SIGINT or SIGTERM seen */
static volatile sig_atomic_t g_step_stop; /* the running step must end: 1 signal, 2 timeout */

static void on_signal(int sig)
{
	(void)sig;
	/* The first signal stops the run, which tears down and exits. The second
	 * only says so: a habitual second Ctrl-C must not leave loop devices and
	 * mounts behind. The third leaves at once (the teardown is stuck, or
	 * something does not look at the flag); the state journal lists what is
	 * still set up, for `benchgrid cleanup`. */
	static volatile sig_atomic_t seen;
	if (seen < 3)
		seen++;
	if (seen == 2) {
		static const char msg[] = "\nbenchgrid: tearing down; a third signal exits without "
		                          "finishing the teardown (then `benchgrid cleanup`)\n";
		ssize_t w = write(STDERR_FILENO, msg, sizeof(msg) - 1);
		(void)w;
	} else if (seen == 3) {
		static const char msg[] = "\nbenchgrid: a third signal: exiting without finishing the "
		                          "teardown; `benchgrid cleanup` undoes what is left\n";
		ssize_t w = write(STDERR_FILENO, msg, sizeof(msg) - 1);
		(void)w;
		_exit(130);
	}
	g_stop = 1;
	g_step_stop = 1;
}

static void on_alarm(int sig)
{
	(void)sig;
	if (!g_step_stop)
		g_step_stop = 2;
}

void interrupt_install(void)
{
	struct sigaction sa = {0};
	sa.sa_handler = on_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

bool interrupt_requested(void)
{
	return g_stop != 0;
}

static void arm_timeout(double secs)
{
	struct itimerval it = {0};
	if (secs > 0) {
		it.it_value.tv_sec = (time_t)secs;
		it.it_value.tv_usec = (suseconds_t)((secs - (double)(time_t)secs) * 1e6);
		if (!it.it_value.tv_sec && !it.it_value.tv_usec)
			it.it_value.tv_usec = 1;
	}
	setitimer(ITIMER_REAL, &it, NULL);
}

void interrupt_step_begin(double secs)
{
	g_step_stop = g_stop;
	arm_timeout(secs);
}

void interrupt_step_end(void)
{
	arm_timeout(0);
}

bool interrupt_step_timed_out(void)
{
	return g_step_stop == 2 && !g_stop;
}

volatile sig_atomic_t *interrupt_stop_flag(void)
{
	return &g_stop;
}

volatile sig_atomic_t *interrupt_step_flag(void)
{
	return &g_step_stop;
}
