/* Unit tests: the server activity sampler's arithmetic (pg_act_math.c) and
 * its reading of /proc (pg_act_proc.c): deltas and rates between
 * snapshots, the sampler's own transactions taken out, counters that went
 * down or are missing, wait-event tallies, and the CPU of live and of
 * exited, reaped children (/proc/PID/stat itself: test_proc_stat). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "pg_act_math.h"
#include "pg_act_proc.h"

static void snap_set(struct pga_snap *s, double t, unsigned long own)
{
	memset(s, 0, sizeof(*s));
	s->t = t;
	s->sampler_xacts = own;
}

static void put(struct pga_snap *s, int k, double v)
{
	s->ok[k] = true;
	s->v[k] = v;
}

static void test_rates(void **state)
{
	(void)state;
	struct pga_snap a, b;
	snap_set(&a, 10.0, 3);
	snap_set(&b, 12.0, 5);
	put(&a, PGA_XACTS, 1000);
	put(&b, PGA_XACTS, 3002); /* 2002 of which 2 are the sampler's */
	put(&a, PGA_CKPT_TIMED, 4);
	put(&b, PGA_CKPT_TIMED, 5);
	put(&a, PGA_CKPT_REQ, 1);
	put(&b, PGA_CKPT_REQ, 2);
	put(&a, PGA_BUF_CKPT, 100);
	put(&b, PGA_BUF_CKPT, 500);
	put(&a, PGA_WAL_BYTES, 1e6);
	put(&b, PGA_WAL_BYTES, 5e6);
	put(&a, PGA_CPU_TICKS, 50);
	put(&b, PGA_CPU_TICKS, 350);
	double v[PGA_NRATES];
	bool ok[PGA_NRATES];
	pga_interval(&a, &b, 100.0, v, ok);
	assert_true(ok[PGA_R_TPS]);
	assert_true(fabs(v[PGA_R_TPS] - 1000.0) < 1e-9);
	assert_true(ok[PGA_R_CHECKPOINTS]);
	assert_true(v[PGA_R_CHECKPOINTS] == 2.0);
	assert_true(fabs(v[PGA_R_BUF_CKPT_S] - 200.0) < 1e-9);
	assert_true(fabs(v[PGA_R_WAL_MB_S] - 2.0) < 1e-9);
	/* 300 ticks at 100/s over 2 s: 1.5 CPUs */
	assert_true(fabs(v[PGA_R_CPU_PCT] - 150.0) < 1e-9);
	/* counters that were not read give no figure */
	assert_false(ok[PGA_R_BLKS_READ_S]);
	assert_false(ok[PGA_R_BUF_BACKEND_S]);
	assert_false(ok[PGA_R_WAL_SYNC_S]);
}

static void test_reset_and_own(void **state)
{
	(void)state;
	struct pga_snap a, b;
	double x;
	snap_set(&a, 1.0, 0);
	snap_set(&b, 2.0, 4);
	put(&a, PGA_BLKS_READ, 500);
	put(&b, PGA_BLKS_READ, 20); /* pg_stat_reset() in between */
	assert_false(pga_delta(&a, &b, PGA_BLKS_READ, &x));
	assert_true(x == 0);
	/* the sampler ran 4 transactions the view does not show yet: 0, not -2 */
	put(&a, PGA_XACTS, 10);
	put(&b, PGA_XACTS, 12);
	assert_true(pga_xacts(&a, &b, &x));
	assert_true(x == 0);
	/* no time passed: nothing */
	double v[PGA_NRATES];
	bool ok[PGA_NRATES];
	pga_interval(&a, &a, 100.0, v, ok);
	for (int r = 0; r < PGA_NRATES; r++)
		assert_false(ok[r]);
	/* one of the two checkpoint counters missing: no checkpoint figure */
	put(&a, PGA_CKPT_TIMED, 1);
	put(&b, PGA_CKPT_TIMED, 1);
	pga_interval(&a, &b, 100.0, v, ok);
	assert_false(ok[PGA_R_CHECKPOINTS]);
}

static void test_waits(void **state)
{
	(void)state;
	struct pga_waits w = {0};
	assert_int_equal(pga_waits_add(&w, "LWLock", "WALWrite", 2), 0);
	assert_int_equal(pga_waits_add(&w, "Timeout", "PgSleep", 1), 0);
	assert_int_equal(pga_waits_add(&w, "IO", "WALSync", 2), 0);
	assert_int_equal(pga_waits_add(&w, "Timeout", "PgSleep", 4), 0);
	for (int i = 0; i < 40; i++) { /* growth past the first allocation */
		char ev[16];
		snprintf(ev, sizeof(ev), "E%d", i);
		assert_int_equal(pga_waits_add(&w, "Extension", ev, 1), 0);
	}
	pga_waits_sort(&w);
	assert_int_equal(w.n, 43);
	assert_string_equal(w.v[0].name, "Timeout:PgSleep");
	assert_int_equal(w.v[0].n, 5);
	/* equal counts by name */
	assert_string_equal(w.v[1].name, "IO:WALSync");
	assert_string_equal(w.v[2].name, "LWLock:WALWrite");
	pga_waits_free(&w);
	assert_int_equal(w.n, 0);
}

static void burn(double s)
{
	struct timespec a, b;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &a);
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &b);
	while ((double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9 < s);
}

/* This process stands for a postmaster: a child burning CPU counts while it
 * lives, and still counts (as our cutime) once it exited and was reaped. */
static void test_server_ticks(void **state)
{
	(void)state;
	double hz = (double)sysconf(_SC_CLK_TCK), t0, t1, t2;
	assert_true(pga_server_ticks(getpid(), 0, &t0));
	int go[2], done[2];
	assert_int_equal(pipe(go), 0);
	assert_int_equal(pipe(done), 0);
	pid_t c = fork();
	assert_true(c >= 0);
	if (c == 0) {
		char x;
		/* only the parent's ends: a parent that fails gives EOF, not a hang */
		close(go[1]);
		close(done[0]);
		burn(0.3);
		(void)!write(done[1], "x", 1);
		(void)!read(go[0], &x, 1); /* stay alive until told */
		_exit(0);
	}
	close(go[0]);
	close(done[1]);
	char x;
	assert_int_equal(read(done[0], &x, 1), 1); /* the child has burnt its CPU */
	assert_true(pga_server_ticks(getpid(), 0, &t1));
	assert_true((t1 - t0) / hz >= 0.2);
	/* the child left out by pid (as the sampler's backend is) */
	double tx;
	assert_true(pga_server_ticks(getpid(), c, &tx));
	assert_true(tx < t1 - 0.2 * hz);
	assert_int_equal(write(go[1], "x", 1), 1);
	assert_int_equal(waitpid(c, NULL, 0), c);
	assert_true(pga_server_ticks(getpid(), 0, &t2));
	assert_true(t2 >= t1);
	close(go[1]);
	close(done[0]);
	assert_false(pga_server_ticks(0, 0, &t2));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_rates),
	    cmocka_unit_test(test_reset_and_own),
	    cmocka_unit_test(test_waits),
	    cmocka_unit_test(test_server_ticks),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
