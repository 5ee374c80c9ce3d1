/* safe_file: reading a file somebody else named (see safe_file.h). */
#include "safe_file.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/vfs.h>
#include <unistd.h>

/* The kernel's pseudo file systems (statfs f_type): their "regular" files
 * report size 0 and are the kernel's state (kallsyms, kcore, memory maps). */
static const struct {
	unsigned long magic;
	const char *name;
} pseudo_fs[] = {
    {0x9fa0, "procfs"},       {0x62656572, "sysfs"},       {0x64626720, "debugfs"},
    {0x74726163, "tracefs"},  {0x73636673, "securityfs"},  {0x62656570, "configfs"},
    {0x27e0eb, "cgroup"},     {0x63677270, "cgroup2"},     {0xcafe4a11, "bpf"},
    {0xde5e81e4, "efivarfs"}, {0x42494e4d, "binfmt_misc"},
};

static const char *pseudo_fs_name(int fd)
{
	struct statfs sf;
	if (fstatfs(fd, &sf) < 0)
		return NULL;
	for (size_t i = 0; i < sizeof(pseudo_fs) / sizeof(pseudo_fs[0]); i++)
		if ((unsigned long)sf.f_type == pseudo_fs[i].magic)
			return pseudo_fs[i].name;
	return NULL;
}

static const char *kind_of(mode_t m)
{
	if (S_ISDIR(m))
		return "a directory";
	if (S_ISFIFO(m))
		return "a FIFO";
	if (S_ISCHR(m))
		return "a character device";
	if (S_ISBLK(m))
		return "a block device";
	if (S_ISSOCK(m))
		return "a socket";
	return "not a regular file";
}

/* May every user enter each directory above the file opened as fd (path)?
 * No when one is closed: dir then names it. */
static bool reachable_by_everyone(int fd, const char *path, char *dir, size_t len)
{
	char link[64], real[PATH_MAX];
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, real, sizeof(real) - 1);
	if (n <= 0 || real[0] != '/') {
		if (!realpath(path, real)) {
			snprintf(dir, len, "%s", path);
			return false;
		}
	} else {
		real[n] = 0;
	}
	for (char *slash = strrchr(real, '/'); slash; slash = strrchr(real, '/')) {
		if (slash == real)
			slash[1] = 0; /* the root directory */
		else
			*slash = 0;
		struct stat st;
		if (stat(real, &st) < 0 || !S_ISDIR(st.st_mode) || !(st.st_mode & S_IXOTH)) {
			snprintf(dir, len, "%s", real);
			return false;
		}
		if (slash == real)
			break;
	}
	return true;
}

bool safe_file_everyone_may_read(int fd, const char *path, const struct stat *st, char *err, size_t errlen)
{
	uid_t uid = getuid();
	if (uid != 0 && st->st_uid == uid)
		return true;
	const char *who = uid == 0 ? " (run as root)" : " and not yours";
	char dir[PATH_MAX];
	if (!(st->st_mode & S_IROTH)) {
		snprintf(err, errlen,
		         "%s is not readable by everyone%s; a file a scenario names must be, so that a "
		         "scenario cannot show a private file's lines",
		         path, who);
		return false;
	}
	if (!reachable_by_everyone(fd, path, dir, sizeof(dir))) {
		snprintf(err, errlen,
		         "%s is not readable by everyone%s: not everyone may enter %s; a file a scenario "
		         "names must be, so that a scenario cannot show a private file's lines",
		         path, who, dir);
		return false;
	}
	return true;
}

int safe_file_open(const char *path, unsigned flags, struct stat *st, char *err, size_t errlen)
{
	return safe_file_openat(AT_FDCWD, path, flags, st, err, errlen);
}

int safe_file_openat(int dirfd, const char *path, unsigned flags, struct stat *st, char *err, size_t errlen)
{
	int oflags = O_RDONLY | O_NONBLOCK | O_CLOEXEC;
	if (!(flags & SAFE_FILE_FOLLOW))
		oflags |= O_NOFOLLOW;
	int fd = openat(dirfd, path, oflags);
	if (fd < 0) {
		int e = errno;
		if (e == ELOOP && !(flags & SAFE_FILE_FOLLOW))
			snprintf(err, errlen,
			         "%s is a symbolic link: not followed (name the file it points to)", path);
		else
			snprintf(err, errlen, "cannot open %s: %s", path, strerror(e));
		return -e;
	}
	int rc = 0;
	const char *pseudo = NULL;
	if (fstat(fd, st) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot open %s: %s", path, strerror(errno));
	} else if (!S_ISREG(st->st_mode)) {
		rc = S_ISDIR(st->st_mode) ? -EISDIR : -EINVAL;
		snprintf(err, errlen, "%s is %s: only regular files are read", path, kind_of(st->st_mode));
	} else if ((pseudo = pseudo_fs_name(fd))) {
		rc = -EINVAL;
		snprintf(err, errlen,
		         "%s is on %s, a file of the kernel's state: only regular files of real file "
		         "systems are read",
		         path, pseudo);
	} else if (!(flags & SAFE_FILE_PRIVATE_OK) &&
	           !safe_file_everyone_may_read(fd, path, st, err, errlen)) {
		rc = -EACCES;
	} else {
		int fl = fcntl(fd, F_GETFL);
		if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
			rc = -errno;
			snprintf(err, errlen, "cannot read %s: %s", path, strerror(errno));
		}
	}
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

char *safe_file_read_fd(int fd, const char *path, size_t max, size_t *len, char *err, size_t errlen)
{
	size_t cap = 0, n = 0;
	char *buf = NULL;
	for (;;) {
		if (n + 65536 + 1 > cap) {
			cap = cap ? cap * 2 : 65536 * 2;
			if (cap > max + 65536 + 1)
				cap = max + 65536 + 1; /* one read past max tells that it is over */
			char *nb = realloc(buf, cap);
			if (!nb) {
				snprintf(err, errlen, "cannot read %s: out of memory", path);
				free(buf);
				close(fd);
				errno = ENOMEM;
				return NULL;
			}
			buf = nb;
		}
		ssize_t r = read(fd, buf + n, cap - n - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			int e = errno;
			snprintf(err, errlen, "cannot read %s: %s", path, strerror(e));
			free(buf);
			close(fd);
			errno = e;
			return NULL;
		}
		if (r == 0)
			break;
		n += (size_t)r;
		if (n > max) {
			snprintf(err, errlen,
			         "%s is larger than %zu bytes (%zu MiB), the limit for this file", path, max,
			         max >> 20);
			free(buf);
			close(fd);
			errno = EFBIG;
			return NULL;
		}
	}
	close(fd);
	buf[n] = 0;
	*len = n;
	return buf;
}

char *safe_file_read(const char *path, unsigned flags, size_t max, size_t *len, char *err, size_t errlen)
{
	struct stat st;
	int fd = safe_file_open(path, flags, &st, err, errlen);
	if (fd < 0) {
		errno = -fd;
		return NULL;
	}
	return safe_file_read_fd(fd, path, max, len, err, errlen);
}
