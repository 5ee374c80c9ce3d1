/* io_meta: metadata workloads (see io_meta.h).
 *
 * Each job (thread) owns the subtree TARGET/FILE.JOB/ with directories d0..
 * d{dirs-1} and, in each, entries f0..f{files_per_dir-1}. Untimed first: the
 * job's root and its directories; for stat, unlink and open-close also every
 * file (created empty, as fio's filestat and filedelete need them). Then the
 * threads meet at a gate, the clock starts and each job makes one pass over
 * its entries (stat and open-close loop until runtime with time_based),
 * timing each operation: create = open(O_CREAT|O_EXCL) + close, stat,
 * unlink, open-close = open(O_RDONLY) + close, mkdir. The main thread
 * samples the jobs' counters every interval into the series ops_s. The
 * subtrees are removed afterwards unless keep. */
#include "io_metrics.h"
#include "io_meta.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "hist.h"
#include "io_job.h"
#include "io_open.h"
#include "rmtree.h"

struct meta_run;

struct meta_job {
	unsigned idx;
	struct meta_run *run;
	char root[PATH_MAX - 32];
	bool made; /* root created by the step */
	struct hist *lat;
	uint64_t ops; /* measured (after the ramp) */
	uint64_t t_end;
	int64_t runq_ns; /* ns it waited for a CPU while running, -1 unknown */
	int err;
	char errmsg[PATH_MAX + 128];
	_Alignas(64) uint64_t mon_ops; /* every op, published for the monitor */
};

struct meta_run {
	const struct io_opts *o;
	const struct step_ctx *cx;
	struct step_result *res;
	struct meta_job *jobs;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	bool go;
	unsigned ndone;
	uint64_t t0, measure_start, run_end, timeout_at;
	int abort, timed_out, interrupted; /* atomic */
};

static const char *const meta_op_names[] = {"none", "create", "stat", "unlink", "open-close", "mkdir"};

static uint64_t now_ns(void)
{
	return (uint64_t)clock_mono_ns();
}

static void job_fail(struct meta_job *j, int err, const char *what, const char *path)
{
	if (!j->err) {
		j->err = err ? -err : -EIO;
		snprintf(j->errmsg, sizeof(j->errmsg), "%s %s: %s", what, path, strerror(err));
	}
	__atomic_store_n(&j->run->abort, 1, __ATOMIC_RELAXED);
}

static void entry_path(const struct meta_job *j, unsigned d, unsigned f, char *buf, size_t len)
{
	snprintf(buf, len, "%s/d%u/f%u", j->root, d, f);
}

/* One operation on entry (d, f); 0 or an errno. */
static int meta_op(const struct meta_run *run, const char *path)
{
	struct stat st;
	int fd, r = 0;
	switch (run->o->op) {
	case IO_OP_CREATE:
		fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	case IO_OP_STAT: r = stat(path, &st); break;
	case IO_OP_UNLINK: r = unlink(path); break;
	case IO_OP_OPEN_CLOSE:
		fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return errno;
		close(fd);
		return 0;
	case IO_OP_MKDIR: r = mkdir(path, 0755); break;
	default: return EINVAL;
	}
	return r ? errno : 0;
}

/* May the job go on at `now`? */
static bool meta_may_go(struct meta_run *run, uint64_t now)
{
	if (__atomic_load_n(&run->abort, __ATOMIC_RELAXED))
		return false;
	if (run->cx->stop && __atomic_load_n(run->cx->stop, __ATOMIC_ACQUIRE)) { /* set by another thread */
		__atomic_store_n(&run->interrupted, 1, __ATOMIC_RELAXED);
		return false;
	}
	if (now >= run->timeout_at) {
		__atomic_store_n(&run->timed_out, 1, __ATOMIC_RELAXED);
		return false;
	}
	return now < run->run_end;
}

static void meta_pass(struct meta_job *j, uint64_t *tot, bool *go_on)
{
	struct meta_run *run = j->run;
	char path[PATH_MAX];
	uint64_t t = now_ns();
	for (unsigned d = 0; d < run->o->dirs; d++)
		for (unsigned f = 0; f < run->o->files_per_dir; f++) {
			if (!meta_may_go(run, t)) {
				*go_on = false;
				return;
			}
			entry_path(j, d, f, path, sizeof(path));
			int e = meta_op(run, path);
			uint64_t t2 = now_ns();
			if (e) {
				job_fail(j, e, meta_op_names[run->o->op], path);
				*go_on = false;
				return;
			}
			if (t >= run->measure_start) {
				hist_record(j->lat, t2 - t);
				j->ops++;
			}
			__atomic_store_n(&j->mon_ops, ++*tot, __ATOMIC_RELAXED);
			t = t2;
		}
}

static void *meta_worker(void *arg)
{
	struct meta_job *j = arg;
	struct meta_run *run = j->run;
	pthread_mutex_lock(&run->mu);
	while (!run->go)
		pthread_cond_wait(&run->cv, &run->mu);
	pthread_mutex_unlock(&run->mu);
	uint64_t tot = 0;
	bool go_on = true;
	int64_t wait0 = io_runq_wait_ns();
	do
		meta_pass(j, &tot, &go_on);
	while (go_on && run->o->time_based);
	j->t_end = now_ns();
	int64_t wait1 = wait0 < 0 ? -1 : io_runq_wait_ns();
	j->runq_ns = wait1 < 0 ? -1 : wait1 - wait0;
	pthread_mutex_lock(&run->mu);
	run->ndone++;
	pthread_cond_broadcast(&run->cv);
	pthread_mutex_unlock(&run->mu);
	return NULL;
}

/* Untimed: the job's root, its directories and, for stat, unlink and
 * open-close, its files. */
static int meta_setup_job(struct meta_run *run, struct meta_job *j)
{
	const struct io_opts *o = run->o;
	char path[PATH_MAX];
	if (snprintf(j->root, sizeof(j->root), "%s/%s.%u", run->cx->target_dir, o->file, j->idx) >=
	    (int)sizeof(j->root)) {
		snprintf(j->errmsg, sizeof(j->errmsg), "io: the path of the tree in %s is too long",
		         run->cx->target_dir);
		return -ENAMETOOLONG;
	}
	if (mkdir(j->root, 0755)) {
		int e = errno;
		snprintf(j->errmsg, sizeof(j->errmsg), "cannot create the directory %s: %s%s", j->root,
		         strerror(e), e == EEXIST ? " (remove it, or choose another io.file)" : "");
		return -e;
	}
	j->made = true;
	bool files = o->op == IO_OP_STAT || o->op == IO_OP_UNLINK || o->op == IO_OP_OPEN_CLOSE;
	for (unsigned d = 0; d < o->dirs; d++) {
		snprintf(path, sizeof(path), "%s/d%u", j->root, d);
		if (mkdir(path, 0755))
			goto fail;
		for (unsigned f = 0; files && f < o->files_per_dir; f++) {
			entry_path(j, d, f, path, sizeof(path));
			int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
			if (fd < 0)
				goto fail;
			close(fd);
		}
		if (run->cx->stop &&
		    __atomic_load_n(run->cx->stop, __ATOMIC_ACQUIRE)) { /* set by another thread */
			snprintf(j->errmsg, sizeof(j->errmsg), "interrupted while creating %s", j->root);
			return -EINTR;
		}
	}
	return 0;
fail:;
	int e = errno;
	snprintf(j->errmsg, sizeof(j->errmsg), "cannot create %s (untimed preparation): %s", path,
	         strerror(e));
	return -e;
}

static void meta_rusage(double *cpu)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	cpu[0] = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	cpu[1] = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

static void meta_sample(struct meta_run *run, uint64_t now, uint64_t *last_t, uint64_t *last_n)
{
	uint64_t n = 0;
	for (unsigned i = 0; i < run->o->jobs; i++)
		n += __atomic_load_n(&run->jobs[i].mon_ops, __ATOMIC_RELAXED);
	double dt = (double)(now - *last_t) / 1e9;
	if (dt <= 0)
		return;
	double v = (double)(n - *last_n) / dt;
	result_sample(run->res, "ops_s", "ops/s", (double)(now - run->t0) / 1e9, v);
	if (run->cx->progress)
		run->cx->progress(run->cx->progress_ud, "ops/s", v);
	*last_t = now;
	*last_n = n;
}

/* Release the workers and sample them every interval until all are done. */
static void meta_monitor(struct meta_run *run)
{
	uint64_t step = (uint64_t)(run->o->interval * 1e9), next;
	uint64_t last_t, last_n = 0;
	pthread_mutex_lock(&run->mu);
	run->t0 = now_ns();
	run->measure_start = run->t0 + (uint64_t)(run->o->ramp * 1e9);
	if (run->o->runtime > 0)
		run->run_end = run->measure_start + (uint64_t)(run->o->runtime * 1e9);
	run->go = true;
	pthread_cond_broadcast(&run->cv);
	last_t = run->t0;
	next = run->t0 + step;
	while (run->ndone < run->o->jobs) {
		struct timespec ts = {(time_t)(next / 1000000000ull), (long)(next % 1000000000ull)};
		pthread_cond_timedwait(&run->cv, &run->mu, &ts);
		uint64_t now = now_ns();
		if (run->ndone < run->o->jobs && now >= next) {
			pthread_mutex_unlock(&run->mu);
			meta_sample(run, now, &last_t, &last_n);
			pthread_mutex_lock(&run->mu);
			while (next <= now)
				next += step;
		}
	}
	pthread_mutex_unlock(&run->mu);
	uint64_t now = now_ns();
	if (now - last_t >= step / 4 || last_t == run->t0)
		meta_sample(run, now, &last_t, &last_n);
}

static void meta_metrics(struct meta_run *run, const double *cpu0, const double *cpu1)
{
	struct step_result *res = run->res;
	struct hist *h = malloc(sizeof(*h));
	if (!h)
		return;
	hist_init(h);
	uint64_t ops = 0, t_end = 0;
	int64_t runq_ns = 0;
	for (unsigned i = 0; i < run->o->jobs; i++) {
		hist_merge(h, run->jobs[i].lat);
		ops += run->jobs[i].ops;
		runq_ns = runq_ns < 0 || run->jobs[i].runq_ns < 0 ? -1 : runq_ns + run->jobs[i].runq_ns;
		if (run->jobs[i].t_end > t_end)
			t_end = run->jobs[i].t_end;
	}
	double secs = t_end > run->measure_start ? (double)(t_end - run->measure_start) / 1e9 : 0;
	double div = secs > 0 ? secs : 1;
	result_metric(res, "ops", (double)ops, "");
	result_metric(res, "seconds", secs, "s");
	result_metric(res, "ops_s", (double)ops / div, "ops/s");
	io_lat_metrics(res, "lat", h);
	result_metric(res, "cpu_usr", (cpu1[0] - cpu0[0]) / div * 100, "%");
	result_metric(res, "cpu_sys", (cpu1[1] - cpu0[1]) / div * 100, "%");
	if (runq_ns >= 0)
		result_metric(res, "cpu_wait_s", (double)runq_ns / 1e9, "s");
	free(h);
}

/* Threads: start, run, join. 0 or -EAGAIN with res failed. */
static int meta_threads(struct meta_run *run, double *cpu0, double *cpu1)
{
	unsigned n = run->o->jobs, started = 0;
	pthread_t *tid = calloc(n, sizeof(*tid));
	for (unsigned i = 0; tid && i < n; i++, started++)
		if (pthread_create(&tid[i], NULL, meta_worker, &run->jobs[i]))
			break;
	if (started < n) {
		__atomic_store_n(&run->abort, 1, __ATOMIC_RELAXED);
		pthread_mutex_lock(&run->mu);
		run->go = true;
		pthread_cond_broadcast(&run->cv);
		pthread_mutex_unlock(&run->mu);
	} else {
		meta_rusage(cpu0);
		meta_monitor(run);
		meta_rusage(cpu1);
	}
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	if (started < n) {
		result_fail(run->res, "io: cannot start %u threads", n);
		return -EAGAIN;
	}
	return 0;
}

static int meta_outcome(struct meta_run *run)
{
	for (unsigned i = 0; i < run->o->jobs; i++)
		if (run->jobs[i].err) {
			result_fail(run->res, "%s", run->jobs[i].errmsg);
			return run->jobs[i].err;
		}
	if (run->interrupted) {
		result_fail(run->res, "io: interrupted");
		return -EINTR;
	}
	if (run->timed_out) {
		result_fail(run->res, "io: step timed out after %g s", run->cx->timeout);
		return -ETIMEDOUT;
	}
	return 0;
}

/* Untimed preparation of every job, then the cache drop. */
static int meta_prepare(struct meta_run *run)
{
	int ret = 0;
	for (unsigned i = 0; i < run->o->jobs && !ret; i++) {
		struct meta_job *j = &run->jobs[i];
		j->idx = i;
		j->run = run;
		j->lat = malloc(sizeof(*j->lat));
		if (!j->lat) {
			result_fail(run->res, "io: out of memory");
			return -ENOMEM;
		}
		hist_init(j->lat);
		if ((ret = meta_setup_job(run, j)))
			result_fail(run->res, "%s", j->errmsg);
	}
	if (!ret && run->o->cache == IO_CACHE_DROP)
		ret = io_cache_drop(run->o, run->res);
	return ret;
}

int io_meta_run(const struct io_opts *o, const struct step_ctx *cx, struct step_result *res)
{
	struct meta_run run = {.o = o, .cx = cx, .res = res};
	uint64_t t_entry = now_ns();
	run.run_end = UINT64_MAX;
	run.measure_start = UINT64_MAX;
	run.timeout_at = cx->timeout > 0 ? t_entry + (uint64_t)(cx->timeout * 1e9) : UINT64_MAX;
	run.jobs = calloc(o->jobs, sizeof(*run.jobs));
	if (!run.jobs)
		return -ENOMEM;
	pthread_mutex_init(&run.mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&run.cv, &ca);
	pthread_condattr_destroy(&ca);
	result_info(res, "op", "%s", meta_op_names[o->op]);
	result_info(res, "tree", "%s/%s.0%s (%u dirs x %u entries per job)", cx->target_dir, o->file,
	            o->jobs > 1 ? " (and one per job: .1, ...)" : "", o->dirs, o->files_per_dir);
	double cpu0[2] = {0, 0}, cpu1[2] = {0, 0};
	int ret = meta_prepare(&run);
	if (!ret)
		ret = meta_threads(&run, cpu0, cpu1);
	if (!ret) {
		meta_metrics(&run, cpu0, cpu1);
		ret = meta_outcome(&run);
	}
	for (unsigned i = 0; i < o->jobs; i++) {
		if (run.jobs[i].made && !o->keep)
			rmtree(run.jobs[i].root, NULL);
		free(run.jobs[i].lat);
	}
	free(run.jobs);
	pthread_cond_destroy(&run.cv);
	pthread_mutex_destroy(&run.mu);
	return ret;
}
