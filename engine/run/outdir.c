/* outdir: the run's output directory (see outdir.h). */
#include "outdir.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "results_write.h"

char *outdir_default(const char *scenario_name)
{
	char stamp[32];
	time_t t = time(NULL);
	strftime(stamp, sizeof(stamp), "%Y%m%d-%H%M%S", localtime(&t));
	char *name = strdup(scenario_name);
	for (char *p = name; *p; p++)
		if (*p == '/' || *p == ' ')
			*p = '_';
	char *dot = strstr(name, ".yaml");
	if (dot)
		*dot = 0;
	char *out;
	if (asprintf(&out, "benchgrid-out/%s-%s", name, stamp) < 0)
		out = NULL;
	free(name);
	return out;
}

/* mkdir -p of the parents of path: 0 or a negative errno. */
static int mkdir_parents(const char *path)
{
	char tmp[4096];
	if (snprintf(tmp, sizeof(tmp), "%s", path) >= (int)sizeof(tmp))
		return -ENAMETOOLONG;
	char *last = strrchr(tmp, '/');
	for (char *p = tmp + 1; last && p <= last; p++) {
		if (*p != '/')
			continue;
		*p = 0;
		if (mkdir(tmp, 0755) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	return 0;
}

/* Set by outdir_open when the files this process creates in the output
 * directory get another owner than the effective user (root squashed on a
 * shared file system): that owner counts as us. */
static bool squashed;
static uid_t squashed_uid;

bool outdir_owned_by_us(const struct stat *st)
{
	return st->st_uid == geteuid() || (squashed && st->st_uid == squashed_uid);
}

/* Ours and not writable by anyone else: 0, or -EPERM with the reason. */
static int check_owner(int fd, const char *path, char *err, size_t errlen)
{
	struct stat st;
	if (fstat(fd, &st) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -errno;
	}
	if (!outdir_owned_by_us(&st)) {
		char also[96] = "";
		if (squashed)
			snprintf(also, sizeof(also), " nor by uid %u, the owner its files get here",
			         (unsigned)squashed_uid);
		snprintf(err, errlen,
		         "%s is owned by uid %u, not by the user running benchgrid (uid %u)%s: "
		         "refusing to write into it",
		         path, (unsigned)st.st_uid, (unsigned)geteuid(), also);
		return -EPERM;
	}
	if (st.st_mode & (S_IWGRP | S_IWOTH)) {
		snprintf(err, errlen,
		         "%s is writable by its group or by others (mode %04o): refusing to write into "
		         "it; chmod go-w it or choose another directory",
		         path, (unsigned)(st.st_mode & 07777));
		return -EPERM;
	}
	return 0;
}

/* The owner a new file in dirfd gets (a fresh O_EXCL|O_NOFOLLOW name that
 * outdir_remove_leftovers would clear, removed at once): 0, or a negative errno. */
static int probe_owner(int dirfd, uid_t *uid)
{
	struct results_file rf;
	int rc = results_file_open(&rf, dirfd, "ownerprobe");
	if (rc < 0)
		return rc;
	struct stat st;
	rc = fstat(rf.fd, &st) < 0 ? -errno : 0;
	results_file_abort(&rf);
	if (rc == 0)
		*uid = st.st_uid;
	return rc;
}

#define SQUASH_DOC "see docs/results.md#ownership"

/* The output directory fd (with st) is not the effective user's: when the
 * files we create there get its owner too (root squashed to it), that
 * owner counts as ours from now on, with a note in d unless the directory
 * is writable by others (refused all the same). Otherwise hint gets a
 * clause for the refusal when root squash may be what the user is up
 * against. */
static void accept_squashed(int fd, const char *path, const struct stat *st, char *hint, size_t hlen,
                            struct diag *d)
{
	uid_t euid = geteuid(), probe = 0;
	int rc = probe_owner(fd, &probe);
	if (rc == 0 && probe == st->st_uid) {
		squashed = true;
		squashed_uid = probe;
		if (st->st_mode & (S_IWGRP | S_IWOTH))
			snprintf(hint, hlen,
			         " (%s squashed to uid %u on this shared file system: keep the directory "
			         "owned by uid %u and not writable by others, " SQUASH_DOC ")",
			         euid == 0 ? "root is" : "the user is", (unsigned)probe, (unsigned)probe);
		else
			diag_add(d, DIAG_NOTE, NULL,
			         "output directory %s and the files benchgrid creates in it are owned by uid "
			         "%u, not by the user running it (uid %u): %s squashed on this shared file "
			         "system; uid %u counts as benchgrid's own there (" SQUASH_DOC ")",
			         path, (unsigned)probe, (unsigned)euid, euid == 0 ? "root is" : "the user is",
			         (unsigned)probe);
		return;
	}
	if (rc < 0)
		snprintf(hint, hlen, "; benchgrid cannot create a file in it either (%s)%s", strerror(-rc),
		         euid == 0 && (rc == -EACCES || rc == -EPERM)
		             ? ": root is probably squashed on this file system and the user it is squashed "
		               "to may not write there (" SQUASH_DOC ")"
		             : "");
	else if (probe != euid)
		snprintf(hint, hlen,
		         "; the files benchgrid creates there get uid %u (%s squashed on this file "
		         "system): the directory must be owned by uid %u, e.g. created by benchgrid "
		         "itself (" SQUASH_DOC ")",
		         (unsigned)probe, euid == 0 ? "root is" : "the user is", (unsigned)probe);
	else if (euid == 0 && st->st_uid == 65534)
		snprintf(hint, hlen,
		         "; files root creates there are owned by root, so root is not squashed on this "
		         "file system and the directory belongs to nobody (" SQUASH_DOC ")");
}

static void open_error(const char *path, int e, char *err, size_t errlen)
{
	if (e == ELOOP)
		snprintf(err, errlen, "%s is a symbolic link: refusing to follow it", path);
	else if (e == ENOTDIR)
		snprintf(err, errlen, "%s is not a directory", path);
	else
		snprintf(err, errlen, "%s: %s", path, strerror(e));
}

int outdir_subdir(int dirfd, const char *name, const char *path, char *err, size_t errlen)
{
	if (mkdirat(dirfd, name, 0755) < 0 && errno != EEXIST) {
		int e = errno;
		snprintf(err, errlen, "cannot create %s: %s", path, strerror(e));
		return -e;
	}
	int fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		int e = errno;
		open_error(path, e, err, errlen);
		return -e;
	}
	int rc = check_owner(fd, path, err, errlen);
	if (rc < 0) {
		close(fd);
		return rc;
	}
	return fd;
}

/* ".NAME.XXXXXX.tmp": results_file's temporary names. */
static bool is_temporary(const char *name)
{
	size_t n = strlen(name);
	if (name[0] != '.' || n < 13 || strcmp(name + n - 4, ".tmp") != 0 || name[n - 11] != '.')
		return false;
	for (size_t i = n - 10; i < n - 4; i++)
		if (!isalnum((unsigned char)name[i]))
			return false;
	return true;
}

/* The temporary files of a killed run. In a directory the shares of a
 * sweep write into at once, only old ones: a temporary file of a live
 * writer is renamed within seconds. */
void outdir_remove_leftovers(int dirfd, int min_age)
{
	int fd = dup(dirfd);
	DIR *dir = fd >= 0 ? fdopendir(fd) : NULL;
	if (!dir) {
		if (fd >= 0)
			close(fd);
		return;
	}
	struct dirent *e;
	while ((e = readdir(dir))) {
		struct stat st;
		if (!is_temporary(e->d_name))
			continue;
		if (fstatat(dirfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISREG(st.st_mode) &&
		    st.st_mtime + min_age <= time(NULL))
			unlinkat(dirfd, e->d_name, 0);
	}
	closedir(dir);
}

int outdir_open(const char *path, bool resume, struct diag *d)
{
	char err[4600];
	int rc = 0;
	squashed = false;
	if (!resume && (rc = mkdir_parents(path)) == 0 && mkdir(path, 0755) < 0 && errno != EEXIST)
		rc = -errno;
	if (rc < 0) {
		diag_error(
		    d, NULL, "cannot create output directory %s: %s%s", path, strerror(-rc),
		    geteuid() == 0 && (rc == -EACCES || rc == -EPERM)
		        ? " (root refused: root may be squashed on this shared file system, " SQUASH_DOC ")"
		        : "");
		return -EINVAL;
	}
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		if (resume && errno == ENOENT)
			snprintf(err, sizeof(err),
			         "--resume %s: no such directory (nothing to resume; use -o to start a "
			         "new run)",
			         path);
		else
			open_error(path, errno, err, sizeof(err));
		diag_error(d, NULL, "output directory: %s", err);
		return -EINVAL;
	}
	char hint[512] = "";
	struct stat st;
	if (fstat(fd, &st) == 0 && st.st_uid != geteuid())
		accept_squashed(fd, path, &st, hint, sizeof(hint), d);
	if (check_owner(fd, path, err, sizeof(err)) < 0) {
		diag_error(d, NULL, "output directory: %s%s", err, hint);
		close(fd);
		return -EINVAL;
	}
	/* --resume of a run that is not a sweep's shares: its own leftovers,
	 * whatever their age (a resume of a share directory is refused later). */
	struct stat sh;
	bool shares = fstatat(fd, SHARES_DIR, &sh, AT_SYMLINK_NOFOLLOW) == 0;
	outdir_remove_leftovers(fd, resume && !shares ? 0 : OUTDIR_LEFTOVER_AGE);
	return fd;
}

/* The nearest existing folder above a path that does not exist must be a
 * directory for mkdir_parents to succeed: 0, or a negative errno. */
static int creatable(const char *path)
{
	char *p = strdup(path);
	int rc = p ? 0 : -ENOMEM;
	struct stat st;
	for (char *slash; rc == 0 && (slash = strrchr(p, '/'));) {
		while (slash > p && slash[-1] == '/')
			slash--;
		*slash = '\0';
		if (!*p)
			break; /* the root */
		if (stat(p, &st) == 0) {
			rc = S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
			break;
		}
		if (errno != ENOENT)
			rc = -errno;
	}
	free(p);
	return rc;
}

int outdir_probe(const char *path, bool resume, struct diag *d)
{
	char err[4600];
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	struct stat st;
	/* ENOTDIR for a path that is not there: a folder above it is a file. */
	bool missing = fd < 0 && (errno == ENOENT || (errno == ENOTDIR && lstat(path, &st) < 0));
	if (missing && !resume) {
		int rc = creatable(path);
		if (rc == 0)
			return -ENOENT;
		diag_error(d, NULL, "cannot create output directory %s: %s", path, strerror(-rc));
		return -EINVAL;
	}
	if (fd < 0) {
		if (resume && errno == ENOENT)
			snprintf(
			    err, sizeof(err),
			    "--resume %s: no such directory (nothing to resume; use -o to start a new run)",
			    path);
		else
			open_error(path, errno, err, sizeof(err));
		diag_error(d, NULL, "output directory: %s", err);
		return -EINVAL;
	}
	if (check_owner(fd, path, err, sizeof(err)) < 0) {
		diag_error(d, NULL, "output directory: %s", err);
		close(fd);
		return -EINVAL;
	}
	return fd;
}

int outdir_copy_scenario(int dirfd, const char *scenario_file)
{
	FILE *in = fopen(scenario_file, "rbe");
	if (!in)
		return -errno;
	char *buf = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&buf, &len);
	if (!m) {
		fclose(in);
		return -ENOMEM;
	}
	char chunk[8192];
	size_t r;
	while ((r = fread(chunk, 1, sizeof(chunk), in)) > 0)
		fwrite(chunk, 1, r, m);
	fclose(m);
	fclose(in);
	int rc = results_file_write_changed(dirfd, "scenario.yaml", buf, len);
	free(buf);
	return rc;
}
