/* io_engine_trim: the engine of trim jobs (rw: trim | randtrim), chosen by
 * the step for them whatever `engine:` says; not in io_engines[].
 *
 * Trims are issued synchronously one at a time, whatever the engine, as fio's
 * io_uring engine does: BLKDISCARD on a block device, fallocate(PUNCH_HOLE |
 * KEEP_SIZE) on a file. */
#include <errno.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_engine.h"
#include "io_job.h"

/* One discard: BLKDISCARD on a device, a punched hole in a file. */
static int trim_one(int fd, bool blk, uint64_t off, uint64_t len)
{
	if (blk) {
		uint64_t range[2] = {off, len};
		return ioctl(fd, BLKDISCARD, range) < 0 ? -errno : 0;
	}
	return fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)off, (off_t)len) < 0 ? -errno
	                                                                                             : 0;
}

static void trim_run(struct io_job *j, void *ctx)
{
	(void)ctx;
	struct stat st;
	bool blk = fstat(j->fd, &st) == 0 && S_ISBLK(st.st_mode);
	uint64_t now = io_now_ns(), issued = 0, ms = j->sh->measure_start;
	while (io_may_issue(j, now, issued)) {
		uint64_t off, len;
		io_next(j, &off, &len);
		int err = trim_one(j->fd, blk, off, len);
		uint64_t t = io_now_ns();
		if (err == -EINTR) {
			now = t;
			continue;
		}
		if (err) {
			io_job_fail(j, err, "%s: %s at offset %llu: %s%s", j->path,
			            blk ? "discard (BLKDISCARD)" : "trim (fallocate PUNCH_HOLE)",
			            (unsigned long long)off, strerror(-err),
			            err == -EOPNOTSUPP
			                ? " (the device or file system does not support discard)"
			                : "");
			break;
		}
		if (now >= ms)
			issued += len;
		io_done(j, false, j->bufs, off, len, t - now, t);
		now = t;
		io_publish(j);
	}
	io_finish(j);
}

const struct io_engine_ops io_engine_trim = {
    .version = IO_ENGINE_OPS_VERSION,
    .name = "trim",
    .queued = false,
    .run = trim_run,
};
