/* pgb_log: the transaction logs and the stderr log of the pgbench step
 * (see pgb_log.h). */
#include "pgb_log.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "results_write.h"

/* The files of one run and the directory they are renamed in. */
struct pgb_log_set {
	int dirfd;
	bool own_dirfd;
	bool err_open;
	struct results_file err;
	int n;
	struct results_file *rf; /* n of them */
};

static int64_t pgb_log_clock_ns(clockid_t id)
{
	struct timespec ts;

	clock_gettime(id, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* The cell's directory, or -1 with res failed when `need` (else -1 quietly). */
static int pgb_log_dir(struct pgb_log_set *s, const struct step_ctx *cx, bool need, struct step_result *res)
{
	if (cx->cell_dirfd > 0) {
		s->dirfd = cx->cell_dirfd;
		return 0;
	}
	if (!cx->cell_dir) {
		if (need)
			result_fail(res,
			            "pgbench: log: true needs the cell's directory, and this step has none "
			            "(run it with benchgrid run)");
		return -1;
	}
	s->dirfd = open(cx->cell_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (s->dirfd < 0) {
		result_fail(res, "pgbench: cannot open the cell's directory %s: %s", cx->cell_dir,
		            strerror(errno));
		return -1;
	}
	s->own_dirfd = true;
	return 0;
}

static void pgb_log_free(struct pgb_fail_cfg *f)
{
	struct pgb_log_set *s = f->set;

	if (!s)
		return;
	for (int i = 0; i < s->n; i++)
		if (s->rf[i].f)
			results_file_abort(&s->rf[i]);
	if (s->err_open && s->err.f)
		results_file_abort(&s->err);
	if (s->own_dirfd)
		close(s->dirfd);
	free(s->rf);
	free(f->logs);
	free(s);
	f->set = NULL;
	f->logs = NULL;
	f->nlogs = 0;
	f->err_log = NULL;
}

/* Open the threads' logs (log: true). */
static int pgb_log_open_threads(struct pgb_fail_cfg *f, const char *base, int nthreads,
                                struct step_result *res)
{
	struct pgb_log_set *s = f->set;
	char name[200];

	s->rf = calloc(nthreads, sizeof(*s->rf));
	f->logs = calloc(nthreads, sizeof(*f->logs));
	if (!s->rf || !f->logs) {
		result_fail(res, "pgbench: out of memory");
		return -ENOMEM;
	}
	for (int i = 0; i < nthreads; i++) {
		snprintf(name, sizeof(name), "%s.log.%d", base, i);
		int rc = results_file_open(&s->rf[i], s->dirfd, name);

		if (rc < 0) {
			result_fail(res, "pgbench: log: cannot create %s: %s", name, strerror(-rc));
			return rc;
		}
		s->n = i + 1;
		setvbuf(s->rf[i].f, NULL, _IOFBF, 1 << 18);
		f->logs[i].rf = &s->rf[i];
	}
	f->nlogs = nthreads;
	return 0;
}

int pgb_log_start(struct pgb_fail_cfg *f, const struct step_ctx *cx, int nthreads, struct step_result *res)
{
	char base[160], name[200];

	f->epoch_shift_ns = pgb_log_clock_ns(CLOCK_REALTIME) - pgb_log_clock_ns(CLOCK_MONOTONIC);
	f->err_log = stderr;
	if (!f->log && !cx->cell_dir)
		return 0; /* the stderr lines go to stderr */
	if (!(f->set = calloc(1, sizeof(*f->set)))) {
		result_fail(res, "pgbench: out of memory");
		return -ENOMEM;
	}
	f->set->dirfd = -1;
	step_file_stem(cx, base, sizeof(base), 40);
	if (pgb_log_dir(f->set, cx, f->log, res) < 0) {
		bool failed = res->failed;

		pgb_log_free(f);
		f->err_log = stderr;
		return failed ? -ENOENT : 0; /* verbose_errors only: to stderr */
	}
	{ /* the step's stderr log: verbose_errors, debug(), \shell; kept when not empty */
		snprintf(name, sizeof(name), "%s.stderr", base);
		int rc = results_file_open(&f->set->err, f->set->dirfd, name);

		if (rc < 0) {
			result_fail(res, "pgbench: cannot create %s: %s", name, strerror(-rc));
			pgb_log_free(f);
			return rc;
		}
		f->set->err_open = true;
		setvbuf(f->set->err.f, NULL, _IOLBF, 0);
		f->err_log = f->set->err.f;
	}
	if (f->log) {
		int rc = pgb_log_open_threads(f, base, nthreads, res);

		if (rc < 0) {
			pgb_log_free(f);
			return rc;
		}
	}
	return 0;
}

static void pgb_log_agg_reset(struct pgb_log_agg *a, int64_t start_us)
{
	memset(a, 0, sizeof(*a));
	a->start_us = start_us;
}

static void pgb_log_stat(double v, int64_t n, double *sum, double *sum2, double *min, double *max)
{
	if (n == 0 || v < *min)
		*min = v;
	if (n == 0 || v > *max)
		*max = v;
	*sum += v;
	*sum2 += v * v;
}

/* Write the intervals that ended by now_us (epoch); start the first one at
 * the whole second the thread started in. */
static void pgb_log_agg_flush(struct pgb_log_file *lf, const struct pgb_fail_cfg *f, int64_t thread_start_ns,
                              int64_t now_us)
{
	struct pgb_log_agg *a = &lf->agg;
	int64_t step = f->agg_interval * 1000000;

	if (!lf->agg_on) {
		pgb_log_agg_reset(a, (thread_start_ns + f->epoch_shift_ns) / 1000000000 * 1000000);
		lf->agg_on = true;
	}
	while (a->start_us + step <= now_us) {
		bool lag = f->throttled, retries = pgb_fail_retries(f), det = f->failures_detailed;

		fprintf(lf->rf->f,
		        "%" PRId64 " %" PRId64 " %.0f %.0f %.0f %.0f %.0f %.0f %.0f %.0f %" PRId64 " %" PRId64
		        " %" PRId64 " %" PRId64 " %" PRId64 "\n",
		        a->start_us / 1000000, a->cnt, a->lat_sum, a->lat_sum2, a->lat_min, a->lat_max,
		        lag ? a->lag_sum : 0, lag ? a->lag_sum2 : 0, lag ? a->lag_min : 0,
		        lag ? a->lag_max : 0, f->latency_limit_ns ? a->skipped : 0, retries ? a->retried : 0,
		        retries ? a->retries : 0, det ? a->ser : 0, det ? a->dl : 0);
		pgb_log_agg_reset(a, a->start_us + step);
	}
}

static void pgb_log_agg_add(struct pgb_log_agg *a, const struct pgb_fail_cfg *f, const struct pgb_log_txn *x)
{
	if (x->status == PGB_TXN_SKIPPED) {
		a->skipped++;
		return;
	}
	if (x->tries > 1) {
		a->retries += x->tries - 1;
		a->retried++;
	}
	if (x->status == PGB_TXN_SERIALIZATION) {
		a->ser++;
	} else if (x->status == PGB_TXN_DEADLOCK) {
		a->dl++;
	} else {
		pgb_log_stat((double)(x->lat_ns / 1000), a->cnt, &a->lat_sum, &a->lat_sum2, &a->lat_min,
		             &a->lat_max);
		if (f->throttled)
			pgb_log_stat((double)(x->lag_ns / 1000), a->cnt, &a->lag_sum, &a->lag_sum2,
			             &a->lag_min, &a->lag_max);
		a->cnt++;
	}
}

static const char *pgb_log_status(const struct pgb_fail_cfg *f, enum pgb_txn_status st)
{
	if (st == PGB_TXN_SKIPPED)
		return "skipped";
	if (!f->failures_detailed)
		return "failed";
	return st == PGB_TXN_SERIALIZATION ? "serialization" : "deadlock";
}

void pgb_log_txn(struct pgb_log_file *lf, const struct pgb_fail_cfg *f, int64_t thread_start_ns,
                 const struct pgb_log_txn *x)
{
	int64_t now_us = (x->end_ns + f->epoch_shift_ns) / 1000;

	if (f->sampling_rate > 0 && lf->sample && pgb_rng_double(lf->sample) > f->sampling_rate)
		return;
	if (f->agg_interval > 0) {
		pgb_log_agg_flush(lf, f, thread_start_ns, now_us);
		pgb_log_agg_add(&lf->agg, f, x);
		return;
	}
	FILE *o = lf->rf->f;

	if (x->status == PGB_TXN_OK)
		fprintf(o, "%d %" PRId64 " %" PRId64 " %d %" PRId64 " %" PRId64, x->client, x->txn_no,
		        x->lat_ns / 1000, x->script, now_us / 1000000, now_us % 1000000);
	else
		fprintf(o, "%d %" PRId64 " %s %d %" PRId64 " %" PRId64, x->client, x->txn_no,
		        pgb_log_status(f, x->status), x->script, now_us / 1000000, now_us % 1000000);
	if (f->throttled)
		fprintf(o, " %" PRId64, x->lag_ns / 1000);
	if (pgb_fail_retries(f))
		fprintf(o, " %" PRId64, x->tries - 1);
	fputc('\n', o);
}

void pgb_log_thread_end(struct pgb_log_file *lf, const struct pgb_fail_cfg *f, int64_t thread_start_ns,
                        int64_t end_ns)
{
	if (f->agg_interval > 0)
		pgb_log_agg_flush(lf, f, thread_start_ns, (end_ns + f->epoch_shift_ns) / 1000);
}

int pgb_log_end(struct pgb_fail_cfg *f, const struct step_ctx *cx, struct step_result *res)
{
	struct pgb_log_set *s = f->set;
	int rc = 0;
	const char *dir = cx->cell_dir ? cx->cell_dir : ".";

	if (!s)
		return 0;
	if (s->err_open && ftell(s->err.f) == 0) { /* nothing was written: no file */
		results_file_abort(&s->err);
		s->err_open = false;
		f->err_log = stderr;
	}
	if (s->err_open) {
		int e = results_file_commit(&s->err);

		if (e < 0) {
			rc = e;
			if (!res->failed)
				result_fail(res, "pgbench: cannot write %s/%s: %s", dir, s->err.name,
				            strerror(-e));
		} else {
			result_info(res, "stderr_file", "%s/%s", dir, s->err.name);
		}
		s->err_open = false;
		f->err_log = stderr;
	}
	for (int i = 0; i < s->n; i++) {
		int e = results_file_commit(&s->rf[i]);

		if (e < 0 && !rc) {
			rc = e;
			if (!res->failed)
				result_fail(res, "pgbench: log: cannot write %s/%s: %s", dir, s->rf[i].name,
				            strerror(-e));
		}
	}
	if (s->n) {
		char base[160];

		step_file_stem(cx, base, sizeof(base), 40);
		result_info(res, "pgbench.log", "%s/%s.log.N, N = 0..%d (one file per thread)", dir, base,
		            s->n - 1);
	}
	pgb_log_free(f);
	return rc;
}
