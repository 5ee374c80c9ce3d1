/* wl_io: the `io:` step: set-up, threads, monitor, metrics (see wl_io.h).
 *
 * A run goes: parse options again (values may only be known now), choose
 * the engine (psync with a warning when the kernel refuses the one asked
 * for), open or prepare every job's file untimed (layout for reads,
 * preallocation for random writes, cache drop/invalidate), start the
 * workers, which set up their rings and meet at a barrier; then this thread
 * stamps t0, releases them and samples their counters every `interval`
 * until they are done. Figures cover the time from t0 + ramp to the end of
 * the last job, its fdatasync for `sync: end` included. Verification of
 * written blocks is done after the timed part. */
#include "wl_io.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "fstype.h"
#include "io_device.h"
#include "io_engine.h"
#include "io_files.h"
#include "io_job.h"
#include "io_metrics.h"
#include "io_meta.h"
#include "io_open.h"
#include "io_lat.h"
#include "io_opts.h"
#include "io_estimate.h"
#include "io_opts_table.h"
#include "io_pattern.h"
#include "io_rate.h"
#include "io_shape.h"
#include "io_precond.h"
#include "io_ss.h"
#include "result.h"

#define IO_LAYOUT_CHUNK (1u << 20)

struct io_run {
	struct io_opts o;
	struct io_shared sh;
	struct io_job *jobs;
	const struct step_ctx *cx;
	struct step_result *res;
	pthread_barrier_t go;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	unsigned ndone;
	/* CPU of the whole process (workers and the kernel's io-wq threads
	 * working for them) over the measured part */
	bool cpu_taken;
	double usr0, sys0, usr, sys;
	struct io_lat_mon *latm; /* latency over time (io_lat.c) */
	struct io_ss ss;         /* steady_state (io_ss.c) */
};

struct io_thread_arg {
	struct io_run *run;
	struct io_job *job;
};

static int wl_io_check(const struct node *opts, struct diag *d)
{
	struct io_opts o;
	return io_opts_parse(opts, &o, d);
}

static void io_fill_random(unsigned char *p, uint64_t len, uint64_t seed)
{
	uint64_t s = seed * 0x9e3779b97f4a7c15ull + 0x632be59bd9b4e019ull;
	for (uint64_t i = 0; i + 8 <= len; i += 8) {
		uint64_t w = io_xorshift(&s);
		memcpy(p + i, &w, 8);
	}
}

/* Write the whole file, untimed: the verify pattern, or the data kind. */
static int io_layout(struct io_run *run, struct io_job *j)
{
	const struct io_opts *o = &run->o;
	uint64_t chunk = o->bs > IO_LAYOUT_CHUNK ? o->bs : IO_LAYOUT_CHUNK / o->bs * o->bs;
	unsigned char *buf = NULL;
	if (posix_memalign((void **)&buf, 4096, chunk))
		return io_job_fail(j, -ENOMEM, "out of memory"), -ENOMEM;
	if (o->data == IO_DATA_ZERO)
		memset(buf, 0, chunk);
	else
		io_fill_random(buf, chunk, o->seed + 1000 + j->idx);
	int fd = open(j->path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	int ret = 0;
	if (fd < 0) {
		ret = -errno;
		io_job_fail(j, ret, "cannot create %s: %s", j->path, strerror(-ret));
		free(buf);
		return ret;
	}
	for (uint64_t off = 0; off < j->fsize && !ret; off += chunk) {
		uint64_t n = j->fsize - off < chunk ? j->fsize - off : chunk;
		if (o->verify)
			for (uint64_t b = 0; b < n; b += o->bs)
				io_pattern_fill(buf + b, o->bs, off + b, o->seed);
		uint64_t done = 0;
		while (done < n) {
			ssize_t w = pwrite(fd, buf + done, n - done, (off_t)(off + done));
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				ret = w < 0 ? -errno : -ENOSPC;
				j->written_total = off + done;
				io_job_fail(
				    j, ret,
				    "%s: %s while laying out the file (prepare), after %llu of %llu bytes",
				    j->path, strerror(-ret), (unsigned long long)(off + done),
				    (unsigned long long)j->fsize);
				break;
			}
			done += (uint64_t)w;
		}
		if (run->cx->stop &&
		    __atomic_load_n(run->cx->stop, __ATOMIC_ACQUIRE)) { /* set by another thread */
			ret = -EINTR;
			io_job_fail(j, ret, "interrupted while laying out %s", j->path);
		}
	}
	if (!ret && fdatasync(fd) < 0) {
		ret = -errno;
		io_job_fail(j, ret, "%s: fdatasync after layout: %s", j->path, strerror(-ret));
	}
	close(fd);
	free(buf);
	j->written_total = 0;
	return ret;
}

/* The target's file system refuses O_DIRECT for the job's file. */
static int io_refuse_direct(struct io_run *run, struct io_job *j)
{
	char at[256], fsn[64];
	io_job_fail(j, -EINVAL, "%sdirect: the %s filesystem of %s refuses O_DIRECT",
	            src_pos_prefix(&run->o.direct_pos, at, sizeof(at)),
	            fstype_of_path(run->cx->target_dir, fsn, sizeof(fsn)), run->cx->target_dir);
	return -EINVAL;
}

static int io_open_job(struct io_run *run, struct io_job *j, bool *created)
{
	const struct io_opts *o = &run->o;
	char at[PATH_MAX + 32];
	struct stat st;
	if (o->dev.device) /* a raw device: nothing laid out, truncated or allocated */
		return *created = false, io_dev_open(o, j);
	bool exists = stat(j->path, &st) == 0;
	*created = !exists;
	bool reads = io_rw_reads(o->rw), writes = io_rw_writes(o->rw);

	if (exists && !S_ISREG(st.st_mode))
		return io_job_fail(j, -EINVAL, "%s%s exists and is not a regular file",
		                   src_pos_prefix(&o->file_pos, at, sizeof(at)), j->path),
		       -EINVAL;
	bool layout = o->prepare == IO_PREPARE_LAYOUT;
	if (reads && o->prepare == IO_PREPARE_AUTO &&
	    (!exists || (uint64_t)st.st_size < j->fsize || o->verify))
		layout = true;
	if (reads && o->prepare == IO_PREPARE_NONE && (!exists || (uint64_t)st.st_size < j->fsize))
		return io_job_fail(j, -ENOENT, "%s%s is %s, and prepare: none does not lay it out",
		                   src_pos_prefix(&o->file_pos, at, sizeof(at)), j->path,
		                   exists ? "shorter than size" : "missing"),
		       -ENOENT;
	if (layout) {
		int ret = io_layout(run, j);
		if (ret)
			return ret;
	}

	/* rw: write without a layout: dd semantics, a fresh file */
	int flags = io_open_flags(o, writes, o->rw == IO_RW_WRITE && !layout);
	j->fd = open(j->path, flags, 0644);
	if (j->fd < 0) {
		int e = errno;
		if (e == EINVAL && o->direct) {
			int fd = open(j->path, flags & ~O_DIRECT, 0644);
			if (fd >= 0) {
				close(fd);
				if (!exists)
					unlink(j->path);
				return io_refuse_direct(run, j);
			}
		}
		if (e == EACCES || e == EPERM || e == EROFS)
			return io_job_fail(j, -e, "cannot %s %s: %s (the target directory is not writable)",
			                   writes ? "create" : "open", j->path, strerror(e)),
			       -e;
		return io_job_fail(j, -e, "cannot open %s: %s", j->path, strerror(e)), -e;
	}
	if (o->direct) {
		struct statx sx;
		if (statx(j->fd, "", AT_EMPTY_PATH, STATX_DIOALIGN, &sx) == 0 &&
		    (sx.stx_mask & STATX_DIOALIGN)) {
			if (!sx.stx_dio_offset_align)
				return io_refuse_direct(run, j);
			if (o->bs % sx.stx_dio_offset_align)
				return io_job_fail(j, -EINVAL,
				                   "%sdirect: bs %llu is not a multiple of %u, the O_DIRECT "
				                   "alignment of %s",
				                   src_pos_prefix(&o->direct_pos, at, sizeof(at)),
				                   (unsigned long long)o->bs, sx.stx_dio_offset_align,
				                   j->path),
				       -EINVAL;
		}
	}
	if (fstat(j->fd, &st) == 0 && writes && io_rw_random(o->rw) && (uint64_t)st.st_size < j->fsize) {
		/* random writes need the whole file; allocate it as fio does */
		int e = posix_fallocate(j->fd, 0, (off_t)j->fsize);
		if (e == EOPNOTSUPP || e == EINVAL)
			e = ftruncate(j->fd, (off_t)j->fsize) ? errno : 0;
		if (e)
			return io_job_fail(j, -e, "%s: cannot allocate %llu bytes: %s (0 bytes written)",
			                   j->path, (unsigned long long)j->fsize, strerror(e)),
			       -e;
	}
	return o->cache == IO_CACHE_INVALIDATE ? io_cache_invalidate(o, j) : 0;
}

/* Read back every block a write job wrote, untimed. */
static void io_verify_written(struct io_run *run, struct io_job *j)
{
	const struct io_opts *o = &run->o;
	unsigned char *buf;
	if (!j->written || posix_memalign((void **)&buf, 4096, o->bs))
		return;
	int fd = open(j->path, O_RDONLY | O_CLOEXEC | (o->direct ? O_DIRECT : 0));
	if (fd < 0) {
		io_job_fail(j, -errno, "verify: cannot open %s: %s", j->path, strerror(errno));
		free(buf);
		return;
	}
	for (uint64_t b = 0; b < j->nblocks; b++) {
		if (!(j->written[b / 64] & (1ull << (b % 64))))
			continue;
		uint64_t off = b * o->bs;
		ssize_t r = pread(fd, buf, o->bs, (off_t)off);
		if (r != (ssize_t)o->bs || io_pattern_check(buf, o->bs, off, o->seed)) {
			if (!j->verify_errors)
				j->verify_first = off;
			j->verify_errors++;
		}
	}
	close(fd);
	free(buf);
}

static void *io_thread(void *arg)
{
	struct io_thread_arg *a = arg;
	io_worker(a->job);
	pthread_mutex_lock(&a->run->mu);
	a->run->ndone++;
	pthread_cond_signal(&a->run->cv);
	pthread_mutex_unlock(&a->run->mu);
	return NULL;
}

/* Sample the workers' counters since the previous sample. */
static void io_sample(struct io_run *run, uint64_t now, uint64_t *last_t, uint64_t *last_b, uint64_t *last_i)
{
	uint64_t b = 0, n = 0;
	for (unsigned i = 0; i < run->o.jobs; i++) {
		const struct io_job *j = io_job_published(&run->jobs[i]);
		b += __atomic_load_n(&j->mon_bytes, __ATOMIC_RELAXED);
		n += __atomic_load_n(&j->mon_ios, __ATOMIC_RELAXED);
	}
	double dt = (double)(now - *last_t) / 1e9, t = (double)(now - run->sh.t0) / 1e9;
	if (dt <= 0)
		return;
	double mb_s = (double)(b - *last_b) / dt / 1e6;
	result_sample(run->res, "mb_s", "MB/s", t, mb_s);
	result_sample(run->res, "iops", "IOPS", t, (double)(n - *last_i) / dt);
	io_lat_series(run->latm, run->res, t);
	if (run->o.dev.ss.on && io_ss_add(&run->ss, ((double)now - (double)run->sh.measure_start) / 1e9, dt,
	                                  mb_s, (double)(n - *last_i) / dt))
		__atomic_store_n(&run->sh.run_end, now, __ATOMIC_RELAXED); /* steady: stop */
	if (run->cx && run->cx->progress) { /* the live figure: the step's headline rate */
		if (io_headline_by_iops(io_rw_random(run->o.rw),
		                        run->o.bssplit.n ? run->o.bssplit.max : run->o.bs))
			run->cx->progress(run->cx->progress_ud, "IOPS", (double)(n - *last_i) / dt);
		else
			run->cx->progress(run->cx->progress_ud, "MB/s", mb_s);
	}
	*last_t = now;
	*last_b = b;
	*last_i = n;
}

static void io_monitor(struct io_run *run)
{
	uint64_t step = (uint64_t)(run->o.interval * 1e9), next = run->sh.t0 + step;
	uint64_t last_t = run->sh.t0, last_b = 0, last_i = 0;
	pthread_mutex_lock(&run->mu);
	while (run->ndone < run->o.jobs) {
		uint64_t wake = next;
		if (!run->cpu_taken && run->sh.measure_start < wake)
			wake = run->sh.measure_start;
		if (io_lat_hist_due(run->latm) < wake)
			wake = io_lat_hist_due(run->latm);
		struct timespec ts = {(time_t)(wake / 1000000000ull), (long)(wake % 1000000000ull)};
		pthread_cond_timedwait(&run->cv, &run->mu, &ts);
		uint64_t now = io_now_ns();
		if (!run->cpu_taken && now >= run->sh.measure_start) {
			run->cpu_taken = true;
			io_rusage(&run->usr0, &run->sys0);
		}
		if (run->ndone < run->o.jobs && now >= next) {
			pthread_mutex_unlock(&run->mu);
			io_sample(run, now, &last_t, &last_b, &last_i);
			pthread_mutex_lock(&run->mu);
			while (next <= now)
				next += step;
		}
		io_lat_hist_tick(run->latm, now, false);
	}
	pthread_mutex_unlock(&run->mu);
	if (run->cpu_taken)
		io_rusage(&run->usr, &run->sys);
	uint64_t now = io_now_ns();
	/* the last partial interval, unless it is a sliver; a sliver's I/Os
	 * still go into the latency histograms (lat_hist: every measured I/O) */
	if (now - last_t >= step / 4 || last_t == run->sh.t0)
		io_sample(run, now, &last_t, &last_b, &last_i);
	else
		io_lat_tail(run->latm, (double)(now - run->sh.t0) / 1e9);
	io_lat_hist_tick(run->latm, now, true);
}

static double io_unix_time(uint64_t mono)
{
	return clock_wall() - ((double)io_now_ns() - (double)mono) / 1e9;
}

/* The engine asked for, or psync with a warning when this kernel cannot run
 * it (io_uring or AIO missing, disabled, or refused by a seccomp filter). */
static void io_pick_engine(struct io_run *run)
{
	const struct io_engine_ops *eng = run->o.engine;
	if (io_rw_trims(run->o.rw)) { /* synchronous discards, as fio's io_uring engine does */
		run->sh.engine = &io_engine_trim;
		return;
	}
	int ret = eng->probe ? eng->probe() : 0;
	run->sh.engine = ret == 0 ? eng : &io_engine_psync;
	if (ret == 0)
		return;
	char at[PATH_MAX + 32];
	const char *why = ret == -EPERM ? " (disabled by a sysctl such as kernel.io_uring_disabled, or by a "
	                                  "seccomp filter)"
	                                : "";
	result_info(run->res, "warning", "%s is unavailable: %s%s; fell back to psync", eng->name,
	            strerror(-ret), why);
	fprintf(stderr, "%swarning: %s is unavailable: %s%s; falling back to psync\n",
	        src_pos_prefix(&run->o.engine_pos, at, sizeof(at)), eng->name, strerror(-ret), why);
}

/* randrw: read.* and write.* as fio reports each direction: bytes, mb_s,
 * mib_s, iops over the same measured seconds, and the latency figures. */
static void io_metrics_dirs(struct io_run *run, double div)
{
	static const char *const dir_names[2] = {"write", "read"};
	struct hist *h = run->jobs[0].lat_dir[0] ? malloc(sizeof(*h)) : NULL;
	for (int d = 1; h && d >= 0; d--) {
		uint64_t bytes = 0, ios = 0;
		hist_init(h);
		for (unsigned i = 0; i < run->o.jobs; i++) {
			hist_merge(h, run->jobs[i].lat_dir[d]);
			bytes += run->jobs[i].bytes_dir[d];
			ios += run->jobs[i].ios_dir[d];
		}
		char name[64];
		const char *dn = dir_names[d];
		snprintf(name, sizeof(name), "%s.bytes", dn);
		result_metric(run->res, name, (double)bytes, "bytes");
		snprintf(name, sizeof(name), "%s.mb_s", dn);
		result_metric(run->res, name, (double)bytes / div / 1e6, "MB/s");
		snprintf(name, sizeof(name), "%s.mib_s", dn);
		result_metric(run->res, name, (double)bytes / div / 1048576.0, "MiB/s");
		snprintf(name, sizeof(name), "%s.iops", dn);
		result_metric(run->res, name, (double)ios / div, "IOPS");
		snprintf(name, sizeof(name), "%s.lat", dn);
		io_lat_metrics(run->res, name, h);
	}
	free(h);
}

static void io_metrics(struct io_run *run, uint64_t t_end)
{
	struct step_result *res = run->res;
	const struct io_opts *o = &run->o;
	struct hist *h = malloc(sizeof(*h));
	if (!h)
		return;
	hist_init(h);
	uint64_t bytes = 0, ios = 0, verr = 0;
	double usr = run->usr - run->usr0, sys = run->sys - run->sys0, sync_s = 0;
	int64_t runq_ns = 0;
	for (unsigned i = 0; i < o->jobs; i++) {
		struct io_job *j = &run->jobs[i];
		hist_merge(h, j->lat);
		bytes += j->bytes;
		ios += j->ios;
		verr += j->verify_errors;
		if (j->sync_s > sync_s)
			sync_s = j->sync_s;
		runq_ns = runq_ns < 0 || j->runq_ns < 0 ? -1 : runq_ns + j->runq_ns;
		usr += j->child_usr; /* a job in its own process (io_child.c) */
		sys += j->child_sys;
	}
	double secs = t_end > run->sh.measure_start ? (double)(t_end - run->sh.measure_start) / 1e9 : 0;
	double div = secs > 0 ? secs : 1;
	result_metric(res, "bytes", (double)bytes, "bytes");
	result_metric(res, "seconds", secs, "s");
	result_metric(res, "mb_s", (double)bytes / div / 1e6, "MB/s");
	result_metric(res, "mib_s", (double)bytes / div / 1048576.0, "MiB/s");
	result_metric(res, "iops", (double)ios / div, "IOPS");
	io_lat_metrics(res, "lat", h);
	io_metrics_dirs(run, div);
	result_metric(res, "cpu_usr", usr / div * 100, "%");
	result_metric(res, "cpu_sys", sys / div * 100, "%");
	if (runq_ns >= 0)
		result_metric(res, "cpu_wait_s", (double)runq_ns / 1e9, "s");
	if (o->sync == IO_SYNC_END)
		result_metric(res, "sync_s", sync_s, "s");
	if (o->verify)
		result_metric(res, "verify_errors", (double)verr, "");
	io_rate_results(res, o, run->jobs); /* rate, thinktime, cpus, priority */
	io_ss_metrics(&run->ss, res);
	result_info(res, "measure_start", "%.6f", io_unix_time(run->sh.measure_start));
	result_info(res, "measure_end", "%.6f", io_unix_time(t_end));
	free(h);
}

static void io_cleanup(struct io_run *run, bool *created)
{
	for (unsigned i = 0; i < run->o.jobs; i++) {
		struct io_job *j = &run->jobs[i];
		io_files_free(j, run->o.keep, run->o.prepare == IO_PREPARE_NONE);
		if (j->fd >= 0)
			close(j->fd);
		/* a file that was there and that we did not touch (prepare: none) stays */
		bool user_file = !created[i] && run->o.prepare == IO_PREPARE_NONE;
		if (!run->o.keep && !user_file && j->path[0] && !run->o.dev.device)
			unlink(j->path);
		free(j->bufs);
		free(j->lat);
		free(j->lat_dir[0]);
		free(j->lat_dir[1]);
		free(j->written);
		io_lat_job_free(j);
		io_pace_free(j);
		io_shape_job_free(j);
	}
	free(run->ss.y);
	free(run->jobs);
}

static int io_setup_job(struct io_run *run, struct io_job *j, unsigned i)
{
	const struct io_opts *o = &run->o;
	j->idx = i;
	j->sh = &run->sh;
	j->fd = -1;
	j->fsize = o->size;
	j->nblocks = o->size / o->bs;
	j->nslots = run->sh.engine->queued ? o->iodepth : 1;
	j->slot_sz = ((o->bssplit.n ? o->bssplit.max : o->bs) + 4095) / 4096 * 4096;
	j->rng = io_mix64_seed(o->seed, i);
	j->perm_key = io_xorshift(&j->rng);
	unsigned bits = 0;
	while (bits < 64 && (1ull << bits) < j->nblocks)
		bits++;
	j->perm_mask = bits >= 64 ? UINT64_MAX : (1ull << bits) - 1;
	j->perm_shift = bits / 2 ? bits / 2 : 1;
	if (o->dev.device)
		snprintf(j->path, sizeof(j->path), "%s", run->cx->device);
	else if (o->jobs > 1)
		snprintf(j->path, sizeof(j->path), "%s/%s.%u", run->cx->target_dir, o->file, i);
	else
		snprintf(j->path, sizeof(j->path), "%s/%s", run->cx->target_dir, o->file);
	j->lat = malloc(sizeof(*j->lat));
	if (!j->lat || posix_memalign((void **)&j->bufs, 4096, j->slot_sz * j->nslots))
		return -ENOMEM;
	hist_init(j->lat);
	for (int d = 0; o->rw == IO_RW_RANDRW && d < 2; d++) { /* per-direction figures */
		if (!(j->lat_dir[d] = malloc(sizeof(*j->lat_dir[d]))))
			return -ENOMEM;
		hist_init(j->lat_dir[d]);
	}
	if (io_lat_job_setup(j, o))
		return -ENOMEM;
	if (o->data == IO_DATA_ZERO)
		memset(j->bufs, 0, j->slot_sz * j->nslots);
	else
		io_fill_random(j->bufs, j->slot_sz * j->nslots, o->seed + i);
	if (io_pace_init(j, o, j->nslots)) /* rate, thinktime */
		return -ENOMEM;
	if (o->verify && io_rw_writes(o->rw)) {
		j->written = calloc((j->nblocks + 63) / 64, 8);
		if (!j->written)
			return -ENOMEM;
	}
	return io_shape_job_init(j);
}

static int io_open_one(void *run, struct io_job *j, bool *created)
{
	return io_open_job(run, j, created);
}

/* Before the threads: every job's buffers and file (laid out or allocated,
 * untimed), then the cache drop. 0, or a negative errno with res failed. */
static int io_prepare_jobs(struct io_run *run, bool *created)
{
	const struct io_opts *o = &run->o;
	int ret = 0;
	for (unsigned i = 0; i < o->jobs; i++)
		run->jobs[i].fd = -1;
	for (unsigned i = 0; i < o->jobs && !ret; i++) {
		ret = io_setup_job(run, &run->jobs[i], i);
		if (ret == -ENOMEM)
			result_fail(run->res, "io: out of memory setting up job %u", i);
		if (!ret && (ret = o->many_files ? io_files_prepare(&run->jobs[i], run->cx->target_dir,
		                                                    io_open_one, run)
		                                 : io_open_job(run, &run->jobs[i], &created[i])))
			result_fail(run->res, "%s", run->jobs[i].errmsg);
	}
	if (!ret && o->cache == IO_CACHE_DROP)
		ret = io_cache_drop(o, run->res);
	return ret;
}

static void io_sync_init(struct io_run *run)
{
	pthread_mutex_init(&run->sh.gate_mu, NULL);
	pthread_cond_init(&run->sh.gate_cv, NULL);
	pthread_mutex_init(&run->mu, NULL);
	pthread_condattr_t ca;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&run->cv, &ca);
	pthread_condattr_destroy(&ca);
}

static void io_sync_destroy(struct io_run *run)
{
	pthread_cond_destroy(&run->sh.gate_cv);
	pthread_mutex_destroy(&run->sh.gate_mu);
	pthread_cond_destroy(&run->cv);
	pthread_mutex_destroy(&run->mu);
}

/* Wait until the `started` workers have set up (their rings), stamp t0, the
 * ramp and the runtime, and release them together. */
static void io_release(struct io_run *run, unsigned started)
{
	const struct io_opts *o = &run->o;
	pthread_mutex_lock(&run->sh.gate_mu);
	while (run->sh.ready < started)
		pthread_cond_wait(&run->sh.gate_cv, &run->sh.gate_mu);
	uint64_t t0 = io_now_ns();
	run->sh.t0 = t0;
	run->sh.measure_start = t0 + (uint64_t)(o->ramp * 1e9);
	if (o->ramp <= 0) {
		run->cpu_taken = true;
		io_rusage(&run->usr0, &run->sys0);
	}
	if (o->runtime > 0)
		run->sh.run_end = run->sh.measure_start + (uint64_t)(o->runtime * 1e9);
	run->sh.go = true;
	pthread_cond_broadcast(&run->sh.gate_cv);
	pthread_mutex_unlock(&run->sh.gate_mu);
}

/* Start the workers, release them, sample them until they are done, join.
 * 0, or -EAGAIN (res failed) when not every thread could be started. */
static int io_run_threads(struct io_run *run, uint64_t t_entry)
{
	const struct io_opts *o = &run->o;
	const struct step_ctx *cx = run->cx;
	int ret = 0;
	io_sync_init(run);
	pthread_t *tid = calloc(o->jobs, sizeof(*tid));
	struct io_thread_arg *args = calloc(o->jobs, sizeof(*args));
	unsigned started = 0;
	run->sh.t0 = UINT64_MAX; /* nothing measured until t0 is set */
	run->sh.measure_start = UINT64_MAX;
	run->sh.run_end = UINT64_MAX;
	run->sh.timeout_at = cx->timeout > 0 ? t_entry + (uint64_t)(cx->timeout * 1e9) : UINT64_MAX;
	for (unsigned i = 0; tid && args && i < o->jobs; i++) {
		args[i].run = run;
		args[i].job = &run->jobs[i];
		if (pthread_create(&tid[i], NULL, io_thread, &args[i]))
			break;
		started++;
	}
	if (started < o->jobs) {
		/* let the started ones through the barrier and stop at once */
		__atomic_store_n(&run->sh.abort, 1, __ATOMIC_RELAXED);
		result_fail(run->res, "io: cannot start %u threads", o->jobs);
		ret = -EAGAIN;
	}
	io_release(run, started);
	if (started == o->jobs)
		io_monitor(run);
	for (unsigned i = 0; i < started; i++)
		pthread_join(tid[i], NULL);
	free(tid);
	free(args);
	io_sync_destroy(run);
	return ret;
}

/* The step's outcome after the metrics: the first job error, an interrupt,
 * the timeout, or bad blocks found by verify. */
static int io_outcome(struct io_run *run)
{
	const struct io_opts *o = &run->o;
	struct step_result *res = run->res;
	for (unsigned i = 0; i < o->jobs; i++)
		if (run->jobs[i].err) {
			result_fail(res, "%s", run->jobs[i].errmsg);
			return run->jobs[i].err;
		}
	if (run->sh.interrupted) {
		result_fail(res, "io: interrupted");
		return -EINTR;
	}
	if (run->sh.timed_out) {
		result_fail(res, "io: step timed out after %g s", run->cx->timeout);
		return -ETIMEDOUT;
	}
	if (!o->verify)
		return 0;
	uint64_t verr = 0;
	struct io_job *first = NULL;
	for (unsigned i = 0; i < o->jobs; i++) {
		verr += run->jobs[i].verify_errors;
		if (!first && run->jobs[i].verify_errors)
			first = &run->jobs[i];
	}
	if (!verr)
		return 0;
	result_fail(res, "io: verify found %llu bad block(s); the first in %s at offset %llu",
	            (unsigned long long)verr, first->path, (unsigned long long)first->verify_first);
	return -EILSEQ;
}

/* After the join: infos, the untimed verification of written blocks, the
 * metrics, and the outcome. */
static int io_results(struct io_run *run)
{
	const struct io_opts *o = &run->o;
	struct step_result *res = run->res;
	uint64_t t_end = 0;
	for (unsigned i = 0; i < o->jobs; i++)
		if (run->jobs[i].t_end > t_end)
			t_end = run->jobs[i].t_end;
	if (run->jobs[0].engine_setup[0])
		result_info(res, run->sh.engine->name, "%s", run->jobs[0].engine_setup);
	result_info(res, "file", "%s%s", run->jobs[0].path,
	            o->jobs > 1 ? " (and one per job: .0, .1, ...)" : "");
	for (unsigned i = 0; i < o->jobs; i++) {
		struct io_job *j = &run->jobs[i];
		if (o->verify && !j->err && io_rw_writes(o->rw))
			io_verify_written(run, j);
	}
	io_metrics(run, t_end);
	int lret = io_lat_write(run->latm, run->cx, res);
	int ret = io_outcome(run);
	return ret ? ret : lret;
}

/* The target directory must exist; 0, or -ENOENT with res failed. */
static int io_check_target(const struct step_ctx *cx, struct step_result *res)
{
	struct stat st;
	if (cx->target_dir && stat(cx->target_dir, &st) == 0 && S_ISDIR(st.st_mode))
		return 0;
	result_fail(res, "io: the target directory %s %s", cx->target_dir ? cx->target_dir : "(none)",
	            cx->target_dir && stat(cx->target_dir, &st) == 0 ? "is not a directory"
	                                                             : "does not exist");
	return -ENOENT;
}

/* A step beside others that names no file gets one of its own,
 * benchgrid-io.STEP.dat: steps one after another share the default file (a
 * write, then reads of it), but a writer beside a reader would change the
 * reader's file under it. */
static void io_file_own(struct io_opts *o, const char *step)
{
	char name[sizeof(o->file)];
	int n = snprintf(name, sizeof(name), "benchgrid-io.%.64s.dat", step && *step ? step : "step");
	for (int i = (int)strlen("benchgrid-io."); i < n - 4 && name[i]; i++)
		if (!isalnum((unsigned char)name[i]) && name[i] != '-' && name[i] != '_')
			name[i] = '_';
	snprintf(o->file, sizeof(o->file), "%s", name);
}

static int wl_io_run(const struct node *opts, const struct step_ctx *cx, struct step_result *res,
                     struct diag *d)
{
	struct io_run *run = calloc(1, sizeof(*run));
	if (!run)
		return -ENOMEM;
	if (io_opts_parse(opts, &run->o, d)) {
		free(run);
		return -EINVAL;
	}
	if (cx->overlaps && !node_get(opts, "file"))
		io_file_own(&run->o, cx->step_name);
	const struct io_opts *o = &run->o;
	uint64_t t_entry = io_now_ns();
	run->cx = cx;
	run->res = res;
	run->sh.o = o;
	run->sh.stop = cx->stop;
	int ret = o->dev.device ? io_dev_setup(&run->o, cx, res) : io_check_target(cx, res);
	if (!ret && o->op == IO_OP_NONE && io_ss_init(&run->ss, o))
		ret = -ENOMEM;
	if (ret || o->op != IO_OP_NONE) { /* metadata operations: io_meta.c */
		ret = ret ? ret : io_meta_run(o, cx, res);
		free(run);
		return ret;
	}
	io_pick_engine(run);
	result_info(res, "engine", "%s", run->sh.engine->name);
	/* what the headline rule reads (io_metrics.h): IOPS or MB/s */
	result_info(res, "rw", "%s", io_rw_name(o->rw));
	result_info(res, "bs", "%llu", (unsigned long long)(o->bssplit.n ? o->bssplit.max : o->bs));

	run->jobs = calloc(o->jobs, sizeof(*run->jobs));
	bool *created = calloc(o->jobs, sizeof(bool));
	run->latm = io_lat_mon_new(run->jobs, o->jobs, o, &run->sh);
	if (!run->jobs || !created || !run->latm) {
		io_lat_mon_free(run->latm);
		free(run->jobs);
		free(created);
		free(run);
		return -ENOMEM;
	}
	ret = io_prepare_jobs(run, created);
	if (!ret)
		ret = io_precondition(o, cx, res, run->jobs);
	if (!ret)
		ret = io_run_threads(run, t_entry);
	if (!ret)
		ret = io_results(run);
	io_cleanup(run, created);
	io_lat_mon_free(run->latm);
	free(created);
	free(run);
	return ret;
}

/* file: "@device": the step opens the target's block device raw
 * (io_device.c), read as the cell's tree has it (workload_ops). */
static const struct node *wl_io_opens_device(const struct node *opts)
{
	const struct node *f = node_get(opts, "file");
	return est_is(f, "@device") ? f : NULL;
}

static const struct opt_desc wl_io_step_row = {
    .name = "io", .type = OPT_MAP, .doc = "the native I/O workload", .ref = "io"};

const struct workload_ops wl_io_ops = {
    .version = WORKLOAD_OPS_VERSION,
    .name = "io",
    .help = "native storage workload (read, write, random, mixed) through one of its engines",
    .step_row = &wl_io_step_row,
    .tables = (const struct opt_table *const[]){&io_opt_table, &io_precondition_table, &io_steady_state_table,
                                                NULL},
    .metrics = &io_metric_names,
    .check = wl_io_check,
    .run = wl_io_run,
    .estimate = io_estimate,
    .opens_device = wl_io_opens_device,
    .device_how = "file: \"@device\"",
};
