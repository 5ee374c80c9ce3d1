/* rmtree: see rmtree.h. nftw with FTW_PHYS (links are removed, not
 * followed) and FTW_MOUNT (other file systems are left alone; their mount
 * point's rmdir then fails, which is reported). */
#include "rmtree.h"

#include <errno.h>
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

static char rmtree_failed[PATH_MAX];
static int rmtree_errno;

static int rmtree_one(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	int rc = type == FTW_DP ? rmdir(path) : unlink(path);
	if (rc < 0 && errno != ENOENT && !rmtree_errno) {
		rmtree_errno = errno;
		snprintf(rmtree_failed, sizeof(rmtree_failed), "%s", path);
	}
	return 0; /* go on: remove what can be removed */
}

int rmtree(const char *path, const char **failed)
{
	struct stat sb;
	if (failed)
		*failed = NULL;
	if (lstat(path, &sb) < 0)
		return errno == ENOENT ? 0 : -errno;
	rmtree_errno = 0;
	if (nftw(path, rmtree_one, 16, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0 && !rmtree_errno) {
		rmtree_errno = errno ? errno : EIO;
		snprintf(rmtree_failed, sizeof(rmtree_failed), "%s", path);
	}
	if (rmtree_errno && failed)
		*failed = rmtree_failed;
	return rmtree_errno ? -rmtree_errno : 0;
}
