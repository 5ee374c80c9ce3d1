/* io_rate: the options, schedules, waits and metrics of rate limits and
 * thinktime (see io_rate.h; docs/steps/io.md, "Rate limits and pacing"). */
#include "io_metrics.h"
#include "io_rate.h"

#include <errno.h>
#include <liburing.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <time.h>

#include "io_sched.h"
#include "result.h"
#include "units.h"

#define IO_PACE_MAX_SLEEP 50000000ull /* ns: stop, timeout and the end are seen this soon */

int io_pace_init(struct io_job *j, const struct io_opts *o, unsigned nslots)
{
	if (!o->rt.paced)
		return 0;
	struct io_pace *p = calloc(1, sizeof(*p));
	j->pace = p;
	if (!p)
		return -ENOMEM;
	for (int k = 0; k < 2; k++) {
		if (o->rt.rate_iops[k])
			p->step[k] = 1e9 / (double)o->rt.rate_iops[k];
		else if (o->rt.rate[k]) {
			p->step[k] = 1e9 / (double)o->rt.rate[k];
			p->by_bytes[k] = true;
		}
		p->rated |= p->step[k] > 0;
	}
	p->poisson = o->rt.poisson;
	p->rng = io_mix64_seed(o->seed ^ 0x7261746570616365ull, j->idx);
	p->think_ns = (uint64_t)llround(o->rt.thinktime * 1e9);
	p->think_blocks = o->rt.thinktime_blocks;
	p->slot_plan = calloc(nslots, sizeof(uint64_t));
	p->sched = malloc(sizeof(*p->sched));
	if (!p->slot_plan || !p->sched)
		return -ENOMEM;
	hist_init(p->sched);
	return 0;
}

void io_pace_free(struct io_job *j)
{
	if (!j->pace)
		return;
	free(j->pace->slot_plan);
	free(j->pace->sched);
	free(j->pace);
	j->pace = NULL;
}

double io_pace_step(struct io_pace *p, int wr, uint64_t len)
{
	double mean = p->by_bytes[wr] ? p->step[wr] * (double)len : p->step[wr];
	if (!p->poisson)
		return mean;
	/* u in (0, 1]: -ln(u) is exponential with mean 1 */
	double u = (double)((io_xorshift(&p->rng) >> 11) + 1) * 0x1.0p-53;
	return -log(u) * mean;
}

/* How far to wait: not past `until`, the end of the run or the timeout,
 * and not longer than IO_PACE_MAX_SLEEP at a time. */
static uint64_t pace_deadline(struct io_job *j, uint64_t now, uint64_t until)
{
	const struct io_shared *sh = j->sh;
	if (until > now + IO_PACE_MAX_SLEEP)
		until = now + IO_PACE_MAX_SLEEP;
	if (until > sh->run_end)
		until = sh->run_end;
	if (until > sh->timeout_at)
		until = sh->timeout_at;
	return until;
}

/* Waits shorter than the default 50 us timer slack would be late. */
static void pace_slack(struct io_pace *p)
{
	if (!p->slack) {
		prctl(PR_SET_TIMERSLACK, 1ul, 0, 0, 0);
		p->slack = true;
	}
}

uint64_t io_pace_wait_until(struct io_job *j, uint64_t now, uint64_t until)
{
	pace_slack(j->pace);
	return pace_deadline(j, now, until);
}

uint64_t io_pace_sleep(struct io_job *j, uint64_t until)
{
	uint64_t now = io_now_ns();
	pace_slack(j->pace);
	until = pace_deadline(j, now, until);
	if (until > now) {
		struct timespec ts = {(time_t)(until / 1000000000ull), (long)(until % 1000000000ull)};
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
	}
	return io_now_ns();
}

int io_pace_submit_wait(struct io_job *j, struct io_uring *ring, uint64_t now, uint64_t until)
{
	if (until == UINT64_MAX)
		return io_uring_submit_and_wait(ring, 1);
	pace_slack(j->pace);
	until = pace_deadline(j, now, until);
	if (until <= now)
		return io_uring_submit(ring);
	uint64_t rel = until - now;
	struct __kernel_timespec ts = {(long long)(rel / 1000000000ull), (long long)(rel % 1000000000ull)};
	struct io_uring_cqe *cqe;
	int ret = io_uring_submit_and_wait_timeout(ring, &cqe, 1, &ts, NULL);
	return ret == -ETIME ? 0 : ret;
}

/* "2000 IOPS" or "100 MiB/s" for a direction, or "" */
static void rate_text(const struct io_opts *o, int k, char *buf, size_t len)
{
	char sz[32];
	if (o->rt.rate_iops[k]) {
		snprintf(buf, len, "%llu IOPS", (unsigned long long)o->rt.rate_iops[k]);
	} else if (o->rt.rate[k]) {
		units_format_size(o->rt.rate[k], sz, sizeof(sz));
		snprintf(buf, len, "%s/s", sz);
	} else {
		buf[0] = 0;
	}
}

void io_rate_results(struct step_result *res, const struct io_opts *o, struct io_job *jobs)
{
	io_sched_results(res, &o->rt, jobs[0].sched_got);
	if (!o->rt.paced || !jobs[0].pace)
		return;
	if (o->rt.thinktime > 0)
		result_info(res, "thinktime", "%g us after every %llu I/O(s)", o->rt.thinktime * 1e6,
		            (unsigned long long)o->rt.thinktime_blocks);
	if (!jobs[0].pace->rated)
		return;
	char r[48], w[48];
	rate_text(o, 0, r, sizeof(r));
	rate_text(o, 1, w, sizeof(w));
	result_info(res, "rate", "per job: %s%s%s%s%s, %s", r[0] ? "read " : "", r, r[0] && w[0] ? ", " : "",
	            w[0] ? "write " : "", w, o->rt.poisson ? "poisson" : "linear");
	struct hist *h = malloc(sizeof(*h));
	if (!h)
		return;
	hist_init(h);
	for (unsigned i = 0; i < o->jobs; i++)
		if (jobs[i].pace)
			hist_merge(h, jobs[i].pace->sched);
	io_lat_metrics(res, "sched_lat", h);
	free(h);
}
