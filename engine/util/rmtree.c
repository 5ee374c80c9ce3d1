/* rmtree: see rmtree.h. Walks with directory descriptors (openat, unlinkat),
 * so a name is never resolved twice and a symlink is removed, not followed.
 * Each directory is opened with openat2(RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS),
 * which refuses to enter any mount point, bind mounts of the same file
 * system included; without openat2 (Linux < 5.6) statx's STATX_ATTR_MOUNT_ROOT
 * and then the device number say the same. A mount point is reported as
 * -EBUSY and nothing below it is touched. */
#include "rmtree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/openat2.h>

static char rmtree_failed[PATH_MAX];
static int rmtree_errno;

static void rmtree_fail(const char *path, int err)
{
	if (rmtree_errno || err == ENOENT)
		return;
	rmtree_errno = err;
	snprintf(rmtree_failed, sizeof(rmtree_failed), "%s", path);
}

/* Is the directory open as fd the root of a mount (parent: its parent's device)? */
static bool rmtree_is_mount_root(int fd, dev_t parent_dev)
{
	struct statx sx;
	if (statx(fd, "", AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, &sx) == 0) {
#ifdef STATX_ATTR_MOUNT_ROOT
		if (sx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT)
			return (sx.stx_attributes & STATX_ATTR_MOUNT_ROOT) != 0;
#endif
		return makedev(sx.stx_dev_major, sx.stx_dev_minor) != parent_dev;
	}
	return false;
}

/* Open the subdirectory name of dfd without crossing a mount point or a
 * symlink: the fd, -EBUSY for a mount point, or another negative errno. */
static int rmtree_open_dir(int dfd, const char *name, dev_t dev)
{
#ifdef SYS_openat2
	struct open_how how = {.flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC,
	                       .resolve = RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS};
	long fd = syscall(SYS_openat2, dfd, name, &how, sizeof(how));
	if (fd >= 0)
		return (int)fd;
	if (errno == EXDEV)
		return -EBUSY;
	if (errno != ENOSYS && errno != EPERM) /* EPERM: a seccomp filter */
		return -errno;
#endif
	int f = openat(dfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (f < 0)
		return -errno;
	if (rmtree_is_mount_root(f, dev)) {
		close(f);
		return -EBUSY;
	}
	return f;
}

/* Remove everything inside the directory fd (path names it for messages). */
static void rmtree_contents(int fd, char *path, size_t plen)
{
	struct stat self;
	if (fstat(fd, &self) < 0) {
		rmtree_fail(path, errno);
		close(fd);
		return;
	}
	DIR *dir = fdopendir(fd);
	if (!dir) {
		rmtree_fail(path, errno);
		close(fd);
		return;
	}
	struct dirent *e;
	while ((errno = 0, e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path + plen, PATH_MAX - plen, "/%s", e->d_name);
		size_t clen = plen + strlen(path + plen);
		struct stat sb;
		if (fstatat(fd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0) {
			rmtree_fail(path, errno);
			continue;
		}
		if (!S_ISDIR(sb.st_mode)) {
			if (unlinkat(fd, e->d_name, 0) < 0)
				rmtree_fail(path, errno);
			continue;
		}
		int sub = rmtree_open_dir(fd, e->d_name, self.st_dev);
		if (sub < 0) {
			rmtree_fail(path, -sub);
			continue;
		}
		rmtree_contents(sub, path, clen);
		path[clen] = '\0';
		if (unlinkat(fd, e->d_name, AT_REMOVEDIR) < 0)
			rmtree_fail(path, errno);
	}
	path[plen] = '\0';
	if (errno)
		rmtree_fail(path, errno);
	closedir(dir);
}

int rmtree(const char *path, const char **failed)
{
	struct stat sb;
	if (failed)
		*failed = NULL;
	if (lstat(path, &sb) < 0)
		return errno == ENOENT ? 0 : -errno;
	rmtree_errno = 0;
	if (!S_ISDIR(sb.st_mode)) {
		if (unlink(path) < 0)
			rmtree_fail(path, errno);
	} else {
		int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			rmtree_fail(path, errno);
		} else {
			char buf[PATH_MAX];
			snprintf(buf, sizeof(buf), "%s", path);
			rmtree_contents(fd, buf, strlen(buf));
			if (!rmtree_errno && rmdir(path) < 0)
				rmtree_fail(path, errno);
		}
	}
	if (rmtree_errno && failed)
		*failed = rmtree_failed;
	return rmtree_errno ? -rmtree_errno : 0;
}
