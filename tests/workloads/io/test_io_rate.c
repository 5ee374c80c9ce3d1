/* test_io_rate: the options of rate limits, thinktime, cpus_allowed, nice
 * and ioprio; the pacing schedule (linear and poisson inter-arrival times,
 * catch-up, thinktime's wait for idle); CPU lists. The timed runs against
 * fio are tests/workloads/io/io_rate.sh. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <cmocka.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io_job.h"
#include "io_opts.h"
#include "io_rate.h"
#include "io_rate_opts.h"
#include "spec.h"

/* Parse `yaml` as the io options; returns 0 or -EINVAL, errors into err. */
/* The length io_pace_gate gives (bs: these tests set no bssplit). */
static uint64_t len_sink;

static int parse(const char *yaml, struct io_opts *o, char *err, size_t errlen)
{
	struct diag d;
	diag_init(&d);
	struct node *n = spec_load_string("opts.yaml", yaml, &d);
	assert_non_null(n);
	int ret = io_opts_parse(n, o, &d);
	err[0] = 0;
	if (d.nerrors) {
		FILE *f = fmemopen(err, errlen, "w");
		diag_print(&d, f);
		fclose(f);
	}
	node_free(n);
	diag_free(&d);
	return ret;
}

static void parse_err(const char *yaml, const char *want)
{
	struct io_opts o;
	char err[2048];
	assert_int_not_equal(parse(yaml, &o, err, sizeof(err)), 0);
	if (!strstr(err, want))
		fail_msg("for %s: wanted '%s' in:\n%s", yaml, want, err);
}

static void test_options(void **state)
{
	(void)state;
	struct io_opts o;
	char err[2048];
	assert_int_equal(parse("{rw: randrw}", &o, err, sizeof(err)), 0);
	assert_false(o.rt.paced);
	assert_false(o.rt.cpus_allowed[0] || o.rt.has_nice || o.rt.has_ioprio);

	/* one value: both directions, as fio's rate=1m */
	assert_int_equal(parse("{rw: randrw, rate: 1m}", &o, err, sizeof(err)), 0);
	assert_true(o.rt.paced);
	assert_int_equal(o.rt.rate[0], 1 << 20);
	assert_int_equal(o.rt.rate[1], 1 << 20);
	/* per direction; a limit on a direction rw does not do is no limit */
	assert_int_equal(
	    parse("{rw: randrw, rate_iops: {write: 500}, rate_process: poisson}", &o, err, sizeof(err)), 0);
	assert_int_equal(o.rt.rate_iops[0], 0);
	assert_int_equal(o.rt.rate_iops[1], 500);
	assert_true(o.rt.poisson);
	assert_int_equal(parse("{rw: randread, rate_iops: 2000}", &o, err, sizeof(err)), 0);
	assert_int_equal(o.rt.rate_iops[0], 2000);
	assert_int_equal(o.rt.rate_iops[1], 0);
	/* rate for reads, rate_iops for writes: fine */
	assert_int_equal(
	    parse("{rw: randrw, rate: {read: 4m}, rate_iops: {write: 10}}", &o, err, sizeof(err)), 0);

	assert_int_equal(parse("{thinktime: 100us, thinktime_blocks: 8}", &o, err, sizeof(err)), 0);
	assert_true(o.rt.paced);
	assert_true(fabs(o.rt.thinktime - 100e-6) < 1e-12);
	assert_int_equal(o.rt.thinktime_blocks, 8);
	assert_int_equal(parse("{thinktime: 1ms}", &o, err, sizeof(err)), 0);
	assert_int_equal(o.rt.thinktime_blocks, 1);

	assert_int_equal(parse("{cpus_allowed: \"0\", nice: -5, ioprio: be/4}", &o, err, sizeof(err)), 0);
	assert_string_equal(o.rt.cpus_allowed, "0");
	assert_int_equal(o.rt.cpus_mask[0], 1);
	assert_true(o.rt.has_nice);
	assert_int_equal(o.rt.nice, -5);
	assert_int_equal(o.rt.ioprio_class, 2);
	assert_int_equal(o.rt.ioprio_level, 4);
	assert_int_equal(parse("{ioprio: idle}", &o, err, sizeof(err)), 0);
	assert_int_equal(o.rt.ioprio_class, 3);
	assert_int_equal(parse("{ioprio: rt/0}", &o, err, sizeof(err)), 0);
	assert_int_equal(o.rt.ioprio_class, 1);
	assert_false(o.rt.paced);
}

static void test_bad_options(void **state)
{
	(void)state;
	parse_err("{rate: fast}", "opts.yaml:1:8: error: io.rate:");
	parse_err("{rate: 0}", "io.rate:");
	parse_err("{rw: randrw, rate: {reads: 1m}}", "unknown key 'reads'; did you mean 'read'?");
	parse_err("{rw: randread, rate: {write: 1m}}",
	          "opts.yaml:1:30: error: io.rate.write: rw: randread does no writes");
	parse_err("{rw: write, rate_iops: {read: 10}}", "io.rate_iops.read: rw: write does no reads");
	parse_err("{rate_iops: 0}", "io.rate_iops:");
	parse_err("{rate_iops: 1.5}", "io.rate_iops:");
	parse_err("{rw: randwrite, rate: 1m, rate_iops: 100}",
	          "io.rate_iops: writes have both rate and rate_iops; give one");
	parse_err("{rate_process: poisson}", "io.rate_process: needs rate or rate_iops");
	parse_err("{rate_iops: 10, rate_process: exponential}", "unknown value 'exponential'");
	parse_err("{thinktime_blocks: 4}", "io.thinktime_blocks: needs thinktime");
	parse_err("{thinktime: 1ms, thinktime_blocks: 0}", "io.thinktime_blocks:");
	parse_err("{thinktime: soon}", "io.thinktime:");
	parse_err("{cpus_allowed: \"0-\"}", "io.cpus_allowed: expected CPU numbers and ranges");
	parse_err("{cpus_allowed: \"a\"}", "io.cpus_allowed: expected CPU numbers and ranges");
	parse_err("{cpus_allowed: \"3-1\"}", "io.cpus_allowed: '3-1' is an empty range");
	parse_err("{cpus_allowed: \"5000\"}", "io.cpus_allowed: CPU 5000 is beyond 1023");
	parse_err("{cpus_allowed: \"1023\"}", "io.cpus_allowed: CPU 1023 is not available on this machine");
	parse_err("{nice: 20}", "io.nice: 20 is out of range");
	parse_err("{nice: -21}", "io.nice:");
	parse_err("{ioprio: be}", "io.ioprio: expected rt/N, be/N");
	parse_err("{ioprio: be/8}", "io.ioprio: expected rt/N, be/N");
	parse_err("{ioprio: idle/3}", "io.ioprio: expected rt/N, be/N");
	parse_err("{ioprio: low}", "io.ioprio: expected rt/N, be/N");
}

static void test_cpus(void **state)
{
	(void)state;
	uint64_t m[16];
	char err[160], buf[128];
	assert_int_equal(io_sched_parse_cpus("0-1,3", m, err, sizeof(err)), 0);
	assert_int_equal(m[0], 0xb);
	io_sched_format_cpus(m, buf, sizeof(buf));
	assert_string_equal(buf, "0-1,3");
	assert_int_equal(io_sched_parse_cpus(" 7 , 64-66,1023", m, err, sizeof(err)), 0);
	io_sched_format_cpus(m, buf, sizeof(buf));
	assert_string_equal(buf, "7,64-66,1023");
	assert_int_not_equal(io_sched_parse_cpus("", m, err, sizeof(err)), 0);
	assert_int_not_equal(io_sched_parse_cpus("1,,2", m, err, sizeof(err)), 0);
	assert_int_not_equal(io_sched_parse_cpus("1-2-3", m, err, sizeof(err)), 0);
}

/* Mean and coefficient of variation of n inter-arrival steps. */
static void steps(struct io_pace *p, int n, double *mean, double *cv)
{
	double s = 0, s2 = 0;
	for (int i = 0; i < n; i++) {
		double x = io_pace_step(p, 1, 4096);
		assert_true(x >= 0);
		s += x;
		s2 += x * x;
	}
	*mean = s / n;
	double var = s2 / n - *mean * *mean;
	*cv = sqrt(var > 0 ? var : 0) / *mean;
}

/* Poisson arrivals: exponential gaps, so the CV is 1 and the mean is the
 * linear step; linear: the step exactly, CV 0. Also the count of arrivals
 * in fixed windows has variance = mean (the Poisson dispersion index). */
static void test_poisson(void **state)
{
	(void)state;
	struct io_pace p;
	memset(&p, 0, sizeof(p));
	p.step[1] = 500000; /* 2000 IOPS */
	p.rng = 0x1234567;
	double mean, cv;
	steps(&p, 200000, &mean, &cv);
	assert_true(fabs(mean - 500000) < 500000 * 0.001);
	assert_true(cv < 1e-9);
	p.poisson = true;
	steps(&p, 200000, &mean, &cv);
	print_message("poisson: mean %.0f ns, cv %.4f\n", mean, cv);
	assert_true(fabs(mean - 500000) < 500000 * 0.01);
	assert_true(fabs(cv - 1) < 0.02);
	/* counts per 10 ms window (mean 20): dispersion index ~1 */
	double t = 0, w = 1e7, s = 0, s2 = 0;
	int nw = 5000, cnt = 0, k = 0;
	while (k < nw) {
		t += io_pace_step(&p, 1, 4096);
		while (t >= (k + 1) * w && k < nw) {
			s += cnt;
			s2 += (double)cnt * cnt;
			cnt = 0;
			k++;
		}
		cnt++;
	}
	double m = s / nw, var = s2 / nw - m * m;
	print_message("poisson: %.2f arrivals per window, dispersion %.3f\n", m, var / m);
	assert_true(fabs(m - 20) < 0.5);
	assert_true(fabs(var / m - 1) < 0.1);

	/* a byte rate: the gap is the I/O's length at the rate, whatever its size */
	memset(&p, 0, sizeof(p));
	p.step[0] = 1e9 / (8.0 * 1048576); /* 8 MiB/s */
	p.by_bytes[0] = true;
	assert_true(fabs(io_pace_step(&p, 0, 4096) - 488281.25) < 1e-3);
	assert_true(fabs(io_pace_step(&p, 0, 65536) - 16 * 488281.25) < 1e-3);
}

/* A job on a sequential file with a pace, without threads or files. */
struct fake {
	struct io_opts o;
	struct io_shared sh;
	struct io_job j;
};

static void fake_init(struct fake *f, const char *yaml)
{
	char err[1024];
	memset(f, 0, sizeof(*f));
	assert_int_equal(parse(yaml, &f->o, err, sizeof(err)), 0);
	f->sh.o = &f->o;
	f->sh.t0 = 1000000000ull;
	f->sh.measure_start = f->sh.t0;
	f->sh.run_end = UINT64_MAX;
	f->sh.timeout_at = UINT64_MAX;
	f->j.sh = &f->sh;
	f->j.fsize = f->o.size;
	assert_int_equal(io_pace_init(&f->j, &f->o, 4), 0);
}

/* Linear 1000 IOPS: due every 1 ms from t0; an early call waits for the due
 * time with the I/O kept (same offset); a late one goes at once and does
 * not move the schedule (catch-up); the planned time is the due time. */
static void test_gate_linear(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f, "{rw: write, bs: 4k, size: 1m, rate_iops: 1000}");
	uint64_t t0 = f.sh.t0, off, off2;
	bool rd;
	assert_int_equal(io_pace_gate(&f.j, t0, 0, &off, &len_sink, &rd), 0);
	assert_false(rd);
	assert_int_equal(off, 0);
	assert_int_equal(f.j.pace->plan, t0);
	assert_int_equal(io_pace_gate(&f.j, t0 + 10, 0, &off, &len_sink, &rd), t0 + 1000000);
	assert_int_equal(io_pace_gate(&f.j, t0 + 999999, 0, &off, &len_sink, &rd), t0 + 1000000);
	assert_int_equal(io_pace_gate(&f.j, t0 + 1000000, 0, &off, &len_sink, &rd), 0);
	assert_int_equal(off, 4096); /* the I/O held while waiting */
	assert_int_equal(f.j.pace->plan, t0 + 1000000);
	/* 5.5 ms late: the I/Os due at 2, 3, 4, 5, 6 ms go at once, with
	 * their planned times */
	uint64_t late = t0 + 6500000;
	for (int i = 2; i <= 6; i++) {
		assert_int_equal(io_pace_gate(&f.j, late, 0, &off2, &len_sink, &rd), 0);
		assert_int_equal(f.j.pace->plan, t0 + (uint64_t)i * 1000000);
	}
	assert_int_equal(io_pace_gate(&f.j, late, 0, &off2, &len_sink, &rd), t0 + 7000000);
	/* sched_lat: completion - planned, only when a rate is set */
	io_pace_done(&f.j, t0 + 2000000, late + 100);
	assert_int_equal(hist_count(f.j.pace->sched), 1);
	assert_true(hist_max(f.j.pace->sched) >= 4500000);
	/* psync records the last I/O let through once, at its completion */
	io_pace_prev(&f.j, late + 200);
	assert_int_equal(hist_count(f.j.pace->sched), 2);
	io_pace_prev(&f.j, late + 300);
	assert_int_equal(hist_count(f.j.pace->sched), 2);
	io_pace_free(&f.j);
	assert_null(f.j.pace);

	/* a byte rate: 4 KiB at 4 MiB/s = every 976.5625 us */
	fake_init(&f, "{rw: write, bs: 4k, size: 1m, rate: 4m}");
	assert_int_equal(io_pace_gate(&f.j, t0, 0, &off, &len_sink, &rd), 0);
	assert_int_equal(io_pace_gate(&f.j, t0, 0, &off, &len_sink, &rd), t0 + 976562);
	io_pace_free(&f.j);
}

/* thinktime: after thinktime_blocks I/Os, wait for the in-flight ones, then
 * pause; no sched_lat without a rate. */
static void test_gate_think(void **state)
{
	(void)state;
	struct fake f;
	fake_init(&f, "{rw: write, bs: 4k, size: 1m, thinktime: 100us, thinktime_blocks: 2}");
	uint64_t now = f.sh.t0, off;
	bool rd;
	assert_int_equal(io_pace_gate(&f.j, now, 0, &off, &len_sink, &rd), 0);
	assert_int_equal(io_pace_gate(&f.j, now, 1, &off, &len_sink, &rd), 0);
	assert_int_equal(io_pace_gate(&f.j, now, 2, &off, &len_sink, &rd),
	                 UINT64_MAX); /* busy: drain first */
	now += 50000;
	assert_int_equal(io_pace_gate(&f.j, now, 0, &off, &len_sink, &rd), now + 100000); /* idle: think */
	assert_int_equal(io_pace_gate(&f.j, now + 99999, 0, &off, &len_sink, &rd), now + 100000);
	assert_int_equal(io_pace_gate(&f.j, now + 100000, 0, &off, &len_sink, &rd), 0);
	assert_int_equal(f.j.pace->plan, now + 100000);
	assert_false(f.j.pace->rated);
	io_pace_done(&f.j, now, now + 5);
	assert_int_equal(hist_count(f.j.pace->sched), 0);
	io_pace_free(&f.j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(test_options),     cmocka_unit_test(test_bad_options),
	    cmocka_unit_test(test_cpus),        cmocka_unit_test(test_poisson),
	    cmocka_unit_test(test_gate_linear), cmocka_unit_test(test_gate_think),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
