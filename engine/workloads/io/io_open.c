/* io_open: open flags and the page cache before the timed part (see
 * io_open.h). */
#include "io_open.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <string.h>
#include <unistd.h>

#include "io_job.h"
#include "result.h"

int io_open_flags(const struct io_opts *o, bool create, bool truncate)
{
	int flags = O_CLOEXEC | (io_rw_writes(o->rw) ? O_RDWR : O_RDONLY);
	if (create)
		flags |= O_CREAT;
	if (truncate)
		flags |= O_TRUNC;
	if (o->sync == IO_SYNC_DSYNC)
		flags |= O_DSYNC;
	if (o->sync == IO_SYNC_SYNC)
		flags |= O_SYNC;
	if (o->direct)
		flags |= O_DIRECT;
	return flags;
}

int io_cache_invalidate(const struct io_opts *o, struct io_job *j)
{
	char at[PATH_MAX + 32];
	fdatasync(j->fd); /* dirty pages are not dropped */
	int e = posix_fadvise(j->fd, 0, 0, POSIX_FADV_DONTNEED);
	if (!e)
		return 0;
	io_job_fail(j, -e, "%scache: invalidate: posix_fadvise on %s: %s",
	            src_pos_prefix(&o->cache_pos, at, sizeof(at)), j->path, strerror(e));
	return -e;
}

int io_cache_drop(const struct io_opts *o, struct step_result *res)
{
	char at[PATH_MAX + 32];
	sync(); /* drop_caches leaves dirty pages */
	int fd = open("/proc/sys/vm/drop_caches", O_WRONLY | O_CLOEXEC);
	if (fd >= 0 && write(fd, "3\n", 2) == 2) {
		close(fd);
		return 0;
	}
	int e = errno;
	if (fd >= 0)
		close(fd);
	result_fail(res, "%scache: drop needs root (writing /proc/sys/vm/drop_caches: %s)",
	            src_pos_prefix(&o->cache_pos, at, sizeof(at)), strerror(e));
	return -e;
}
