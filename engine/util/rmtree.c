/* rmtree: see rmtree.h. Walks with directory descriptors (openat, unlinkat),
 * so a name is never resolved twice and a symlink is removed, not followed.
 * Each directory, the top included, is opened with openat2(RESOLVE_NO_XDEV |
 * RESOLVE_NO_SYMLINKS), which refuses to enter any mount point, bind mounts
 * of the same file system included; without openat2 (Linux < 5.6) statx's
 * STATX_ATTR_MOUNT_ROOT and then the device number say the same. A mount
 * point is reported as -EBUSY and nothing below it is touched.
 *
 * No recursion and no stack of descriptors (a tree 25,000 folders deep would
 * overflow either, and its full path exceeds PATH_MAX): the walk holds the
 * folder it is in open, plus the top's parent. Going down it records each
 * folder's device and inode and the names of its subfolders still to enter
 * (heap memory, not descriptors); going up through ".." it checks it arrived
 * where it came from, and that the name it removes is still the folder it
 * emptied. */
#include "rmtree.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>
#include <linux/openat2.h>

#include "grow.h"

/* One folder on the way down from the top to where the walk is. */
struct rmtree_frame {
	dev_t dev;
	ino_t ino;
	char *name;  /* its name in the folder above (NULL for the top) */
	char **subs; /* its subfolders, entered one at a time */
	size_t nsubs, next, cap;
};

struct rmtree_walk {
	const char *top;
	struct rmtree_frame *f;
	size_t depth, cap;
	int err; /* the first failure (positive errno), 0 for none */
	dev_t top_dev;
	ino_t top_ino;
};

static _Thread_local char rmtree_failed[PATH_MAX];

/* The path of the folder the walk is in (plus leaf) into rmtree_failed,
 * shortened in the middle ("top/.../a/b") when it does not fit. */
static void rmtree_name_failure(const struct rmtree_walk *w, const char *leaf)
{
	const size_t cap = sizeof(rmtree_failed);
	size_t total = strlen(w->top), from = 1;
	for (size_t i = 1; i < w->depth; i++)
		total += 1 + strlen(w->f[i].name);
	total += leaf ? 1 + strlen(leaf) : 0;
	/* Drop the components nearest the top until the rest fits. */
	while (total >= cap - 5 && from < w->depth)
		total -= 1 + strlen(w->f[from++].name);
	size_t n = (size_t)snprintf(rmtree_failed, cap, "%s%s", w->top, from > 1 ? "/..." : "");
	for (size_t i = from; i < w->depth && n < cap; i++)
		n += (size_t)snprintf(rmtree_failed + n, cap - n, "/%s", w->f[i].name);
	if (leaf && n < cap)
		snprintf(rmtree_failed + n, cap - n, "/%s", leaf);
}

/* Note a failure at leaf in the folder the walk is in (leaf NULL: that
 * folder); only the first counts. A vanished entry is not a failure. */
static void rmtree_fail(struct rmtree_walk *w, const char *leaf, int err)
{
	if (w->err || err == ENOENT)
		return;
	w->err = err;
	rmtree_name_failure(w, leaf);
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

/* Open the subdirectory name of dfd (on device dev) without crossing a
 * mount point or a symlink: the fd, -EBUSY for a mount point, or another
 * negative errno. */
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

static bool rmtree_same(const struct stat *sb, const struct rmtree_frame *fr)
{
	return sb->st_dev == fr->dev && sb->st_ino == fr->ino;
}

static void rmtree_frame_free(struct rmtree_frame *fr)
{
	for (size_t i = fr->next; i < fr->nsubs; i++)
		free(fr->subs[i]);
	free(fr->subs);
	free(fr->name);
	memset(fr, 0, sizeof(*fr));
}

static int rmtree_add_sub(struct rmtree_frame *fr, const char *name)
{
	if (GROW(fr->subs, fr->cap, fr->nsubs + 1, 8) < 0)
		return -ENOMEM;
	if (!(fr->subs[fr->nsubs] = strdup(name)))
		return -ENOMEM;
	fr->nsubs++;
	return 0;
}

/* Enter the folder open as fd (name in the folder above; taken): a new
 * frame with its device and inode. Its entries that are not folders are
 * removed now, its subfolders noted. -ENOMEM stops the walk. */
static int rmtree_enter(struct rmtree_walk *w, int fd, char *name)
{
	if (GROW(w->f, w->cap, w->depth + 1, 64) < 0) {
		free(name);
		return -ENOMEM;
	}
	struct rmtree_frame *fr = &w->f[w->depth++];
	memset(fr, 0, sizeof(*fr));
	fr->name = name;
	struct stat self;
	if (fstat(fd, &self) < 0) {
		rmtree_fail(w, NULL, errno);
		return 0;
	}
	fr->dev = self.st_dev;
	fr->ino = self.st_ino;
	if (w->depth == 1) {
		w->top_dev = self.st_dev;
		w->top_ino = self.st_ino;
	}
	/* The stream reads a duplicate: fd stays ours, to walk on from. */
	int lfd = fcntl(fd, F_DUPFD_CLOEXEC, 0);
	DIR *dir = lfd < 0 ? NULL : fdopendir(lfd);
	if (!dir) {
		rmtree_fail(w, NULL, errno);
		if (lfd >= 0)
			close(lfd);
		return 0;
	}
	int r = 0;
	struct dirent *e;
	while (r == 0 && (errno = 0, e = readdir(dir))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		struct stat sb;
		if (fstatat(fd, e->d_name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
			rmtree_fail(w, e->d_name, errno);
		else if (S_ISDIR(sb.st_mode))
			r = rmtree_add_sub(fr, e->d_name);
		else if (unlinkat(fd, e->d_name, 0) < 0)
			rmtree_fail(w, e->d_name, errno);
	}
	if (r == 0 && errno)
		rmtree_fail(w, NULL, errno);
	closedir(dir);
	return r;
}

/* Leave the (emptied) folder the walk is in for the one above, open as up:
 * remove it there if its name still leads to it. */
static void rmtree_leave(struct rmtree_walk *w, int up)
{
	struct rmtree_frame *fr = &w->f[w->depth - 1];
	struct stat sb;
	if (fstatat(up, fr->name, &sb, AT_SYMLINK_NOFOLLOW) < 0)
		rmtree_fail(w, NULL, errno);
	else if (!rmtree_same(&sb, fr))
		rmtree_fail(w, NULL, ESTALE); /* renamed and replaced meanwhile */
	else if (unlinkat(up, fr->name, AT_REMOVEDIR) < 0)
		rmtree_fail(w, NULL, errno); /* ENOTEMPTY after a failure below is not the first */
	rmtree_frame_free(fr);
	w->depth--;
}

/* Empty the folder open as fd (the top; fd is closed). */
static void rmtree_walk(struct rmtree_walk *w, int fd)
{
	if (rmtree_enter(w, fd, NULL) < 0) {
		rmtree_fail(w, NULL, ENOMEM);
		close(fd);
		return;
	}
	while (w->depth > 0) {
		struct rmtree_frame *fr = &w->f[w->depth - 1];
		if (fr->next < fr->nsubs) {
			char *name = fr->subs[fr->next++];
			int sub = rmtree_open_dir(fd, name, fr->dev);
			if (sub < 0) {
				rmtree_fail(w, name, -sub);
				free(name);
				continue;
			}
			close(fd);
			fd = sub;
			if (rmtree_enter(w, fd, name) < 0) {
				rmtree_fail(w, NULL, ENOMEM);
				break;
			}
			continue;
		}
		if (w->depth == 1)
			break; /* the top: the caller removes it through its parent */
		int up = openat(fd, "..", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		struct stat sb;
		if (up < 0 || fstat(up, &sb) < 0) {
			rmtree_fail(w, NULL, errno);
			if (up >= 0)
				close(up);
			break;
		}
		if (!rmtree_same(&sb, &w->f[w->depth - 2])) {
			/* This folder was moved out from under the walk: ".." is not
			 * where it came from. Stop: the names still to enter belong
			 * to folders this descriptor no longer leads back to. */
			rmtree_fail(w, NULL, ESTALE);
			close(up);
			break;
		}
		close(fd);
		fd = up;
		rmtree_leave(w, fd);
	}
	close(fd);
	while (w->depth > 0)
		rmtree_frame_free(&w->f[--w->depth]);
}

/* Remove the emptied top, named base in the folder open as pfd, if the name
 * still leads to the folder the walk emptied. */
static void rmtree_remove_top(struct rmtree_walk *w, int pfd, const char *base)
{
	struct stat sb;
	if (fstatat(pfd, base, &sb, AT_SYMLINK_NOFOLLOW) < 0)
		rmtree_fail(w, NULL, errno);
	else if (sb.st_dev != w->top_dev || sb.st_ino != w->top_ino)
		rmtree_fail(w, NULL, ESTALE);
	else if (unlinkat(pfd, base, AT_REMOVEDIR) < 0)
		rmtree_fail(w, NULL, errno);
}

int rmtree(const char *path, const char **failed)
{
	struct stat sb;
	if (failed)
		*failed = NULL;
	if (lstat(path, &sb) < 0)
		return errno == ENOENT ? 0 : -errno;
	struct rmtree_walk w = {.top = path};
	if (!S_ISDIR(sb.st_mode)) {
		if (unlink(path) < 0)
			rmtree_fail(&w, NULL, errno);
		goto out;
	}
	/* The top is opened from its parent like any folder below it, so a
	 * mount on it (a bind mount of the same file system too) is seen. */
	char *dup = strdup(path);
	if (!dup)
		return -ENOMEM;
	size_t len = strlen(dup);
	while (len > 1 && dup[len - 1] == '/')
		dup[--len] = '\0';
	char *slash = strrchr(dup, '/');
	const char *parent = !slash ? "." : slash == dup ? "/" : dup, *base = slash ? slash + 1 : dup;
	if (slash && slash != dup)
		*slash = '\0';
	int pfd = -1;
	if (!*base || !strcmp(base, ".") || !strcmp(base, "..")) {
		rmtree_fail(&w, NULL, EINVAL); /* "/", "x/.": no name to remove it by */
	} else if ((pfd = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)) < 0 || fstat(pfd, &sb) < 0) {
		rmtree_fail(&w, NULL, errno);
	} else {
		int fd = rmtree_open_dir(pfd, base, sb.st_dev);
		if (fd < 0) {
			rmtree_fail(&w, NULL, -fd);
		} else {
			rmtree_walk(&w, fd); /* the top's frame keeps its device and inode */
			if (w.err == 0)
				rmtree_remove_top(&w, pfd, base);
		}
	}
	if (pfd >= 0)
		close(pfd);
	free(dup);
	free(w.f);
out:
	if (w.err && failed)
		*failed = rmtree_failed;
	return w.err ? -w.err : 0;
}
