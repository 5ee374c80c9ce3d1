/* io_device: raw devices, trims, fsync_on_close (see io_device.h). */
#include "io_device.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io_job.h"
#include "io_open.h"

/* The device's size and logical block size. 0 or a negative errno (res failed). */
static int dev_geometry(const struct io_opts *o, const char *dev, uint64_t *size, unsigned *lbs,
                        struct step_result *res)
{
	char a[512];
	struct stat st;
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &st) < 0 || !S_ISBLK(st.st_mode)) {
		int e = fd < 0 ? errno : ENOTBLK;
		if (fd >= 0)
			close(fd);
		result_fail(res, "%sio.file: \"@device\": cannot open %s: %s",
		            src_pos_prefix(&o->file_pos, a, sizeof(a)), dev, strerror(e));
		return -e;
	}
	int ssz = 0;
	if (ioctl(fd, BLKGETSIZE64, size) < 0 || ioctl(fd, BLKSSZGET, &ssz) < 0 || ssz <= 0) {
		int e = errno ? errno : EIO;
		close(fd);
		result_fail(res, "io: cannot read the size of %s: %s", dev, strerror(e));
		return -e;
	}
	close(fd);
	*lbs = (unsigned)ssz;
	return 0;
}

/* size against the device: defaulted to it, or within it. */
static int dev_fit(struct io_opts *o, const char *dev, uint64_t dsize, unsigned lbs, struct step_result *res)
{
	char a[512];
	if (!o->dev.size_given) {
		o->size = dsize - dsize % o->bs;
		if (!o->size) {
			result_fail(res, "%sio.bs: %llu bytes is larger than %s (%llu bytes)",
			            src_pos_prefix(&o->pos, a, sizeof(a)), (unsigned long long)o->bs, dev,
			            (unsigned long long)dsize);
			return -EINVAL;
		}
	} else if (o->size > dsize) {
		result_fail(res, "%sio.size: %llu bytes goes beyond the end of %s (%llu bytes)",
		            src_pos_prefix(&o->dev.size_pos, a, sizeof(a)), (unsigned long long)o->size, dev,
		            (unsigned long long)dsize);
		return -EINVAL;
	}
	if (!o->dev.io_size_given)
		o->io_size = o->size;
	if (o->direct && (o->bs % lbs || o->size % lbs)) {
		result_fail(res,
		            "%sdirect: bs %llu and size %llu must be multiples of %u, the logical block "
		            "size of %s",
		            src_pos_prefix(&o->direct_pos, a, sizeof(a)), (unsigned long long)o->bs,
		            (unsigned long long)o->size, lbs, dev);
		return -EINVAL;
	}
	return 0;
}

int io_dev_setup(struct io_opts *o, const struct step_ctx *cx, struct step_result *res)
{
	char a[512];
	if (!cx->device) {
		result_fail(res,
		            "%sio.file: \"@device\" needs a raw device target (target: {kind: device, path: "
		            "/dev/...} without fs:)",
		            src_pos_prefix(&o->file_pos, a, sizeof(a)));
		return -EINVAL;
	}
	uint64_t dsize = 0;
	unsigned lbs = 512;
	int r = dev_geometry(o, cx->device, &dsize, &lbs, res);
	if (r || (r = dev_fit(o, cx->device, dsize, lbs, res)))
		return r;
	if ((io_rw_writes(o->rw) || o->dev.precondition) && cx->device_refuse) {
		result_fail(res, "%s (io step with rw: %s%s)", cx->device_refuse, io_rw_name(o->rw),
		            o->dev.precondition ? " and precondition" : "");
		return -EPERM;
	}
	result_info(res, "device", "%s", cx->device);
	result_info(res, "device.size", "%llu", (unsigned long long)dsize);
	result_info(res, "device.logical_block_size", "%u", lbs);
	return 0;
}

int io_dev_open(const struct io_opts *o, struct io_job *j)
{
	j->fd = open(j->path, io_open_flags(o, false, false)); /* no create, no truncate */
	if (j->fd < 0) {
		int e = errno;
		io_job_fail(j, -e, "cannot open %s: %s", j->path, strerror(e));
		return -e;
	}
	return o->cache == IO_CACHE_INVALIDATE ? io_cache_invalidate(o, j) : 0;
}
