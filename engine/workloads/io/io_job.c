/* io_job: the start gate, errors, short transfers and syncs of the io
 * step's workers, whatever their engine (see io_job.h). */
#include "io_job.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include "io_engine.h"
#include "io_sched.h"

void io_job_fail(struct io_job *j, int err, const char *fmt, ...)
{
	if (j->err)
		return;
	j->err = err < 0 ? err : -EIO;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(j->errmsg, sizeof(j->errmsg), fmt, ap);
	va_end(ap);
	__atomic_store_n(&j->sh->abort, 1, __ATOMIC_RELAXED);
}

static void io_fail_errno(struct io_job *j, int err, bool is_write, uint64_t off)
{
	if (err == -ENOSPC || err == -EDQUOT)
		io_job_fail(j, err, "%s: %s after %llu bytes written to the file", j->path, strerror(-err),
		            (unsigned long long)j->written_total);
	else
		io_job_fail(j, err, "%s: %s at offset %llu: %s (%llu bytes written)", j->path,
		            is_write ? "write" : "read", (unsigned long long)off, strerror(-err),
		            (unsigned long long)j->written_total);
}

int io_full(struct io_job *j, bool rd, unsigned char *buf, uint64_t len, uint64_t off, uint64_t done)
{
	int err = 0;
	while (done < len && !err) {
		ssize_t r = rd ? pread(j->fd, buf + done, len - done, (off_t)(off + done))
		               : pwrite(j->fd, buf + done, len - done, (off_t)(off + done));
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			err = -errno;
		else if (r == 0)
			err = rd ? -ENODATA : -ENOSPC;
		else
			done += (uint64_t)r;
	}
	/* a complete I/O is counted by io_done; a failed one by what it wrote */
	if (err && !rd)
		j->written_total += done;
	return err;
}

void io_short(struct io_job *j, bool rd, int err, uint64_t off)
{
	if (err == -ENODATA)
		io_job_fail(j, -EIO,
		            "%s: read at offset %llu hit the end of the file (shorter than size %llu)",
		            j->path, (unsigned long long)off, (unsigned long long)j->fsize);
	else
		io_fail_errno(j, err, !rd, off);
}

int io_sync_file(struct io_job *j)
{
	if (fdatasync(j->fd) == 0)
		return 0;
	int e = -errno;
	if (e == -ENOSPC || e == -EDQUOT)
		io_fail_errno(j, e, true, 0);
	else
		io_job_fail(j, e, "%s: fdatasync failed: %s", j->path, strerror(-e));
	return e;
}

void io_finish(struct io_job *j)
{
	const struct io_opts *o = j->sh->o;
	if (o->sync == IO_SYNC_END && j->written_total && !j->err &&
	    !__atomic_load_n(&j->sh->interrupted, __ATOMIC_RELAXED)) {
		uint64_t t = io_now_ns();
		if (j->mf)
			j->mf_hooks->sync(j);
		else
			io_sync_file(j);
		j->sync_s = (double)(io_now_ns() - t) / 1e9;
	}
	if (o->dev.fsync_on_close && !j->err && j->written_total && fsync(j->fd) < 0)
		io_job_fail(j, -errno, "%s: fsync_on_close: %s", j->path, strerror(errno));
	j->t_end = io_now_ns();
}

void io_rusage(double *usr, double *sys)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	*usr = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6;
	*sys = (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

int64_t io_runq_wait_ns(void)
{
	FILE *f = fopen("/proc/thread-self/schedstat", "re");
	if (!f)
		return -1;
	unsigned long long run, wait;
	int n = fscanf(f, "%llu %llu", &run, &wait);
	fclose(f);
	return n == 2 ? (int64_t)wait : -1;
}

void *io_worker(void *arg)
{
	struct io_job *j = arg;
	struct io_shared *sh = j->sh;
	const struct io_engine_ops *eng = sh->engine;
	void *ctx = NULL;
	char why[160]; /* cpus_allowed, nice, ioprio (io_sched.c) */
	int e = io_sched_apply(&sh->o->rt, j->sched_got, sizeof(j->sched_got), why, sizeof(why));
	if (e)
		io_job_fail(j, e, "job %u: %s", j->idx, why);
	if (!j->err && eng->setup) {
		int ret = eng->setup(j, &ctx);
		if (ret < 0 && !j->err)
			io_job_fail(j, ret, "%s set-up failed: %s", eng->name, strerror(-ret));
	}
	/* every thread passes the gate, also after a failed set-up */
	pthread_mutex_lock(&sh->gate_mu);
	sh->ready++;
	pthread_cond_broadcast(&sh->gate_cv);
	while (!sh->go)
		pthread_cond_wait(&sh->gate_cv, &sh->gate_mu);
	pthread_mutex_unlock(&sh->gate_mu);
	/* the CPU time it was denied explains a rate it fell short of */
	int64_t wait0 = io_runq_wait_ns();
	if (!j->err && !__atomic_load_n(&sh->abort, __ATOMIC_RELAXED))
		eng->run(j, ctx);
	else
		j->t_end = io_now_ns();
	int64_t wait1 = wait0 < 0 ? -1 : io_runq_wait_ns();
	if (!j->runq_own)
		j->runq_ns = wait1 < 0 ? -1 : wait1 - wait0;
	if (eng->cleanup)
		eng->cleanup(j, ctx);
	return NULL;
}
