/* state: the crash-safe journal of undo actions (see state.h).
 *
 * The journal is a text file with one record per line, appended with
 * O_APPEND and fsync'd after each write:
 *
 *   P <token> <pid> <starttime> <kind> <arg1> <arg2>    an undo action
 *   D <token>                                           that action is done
 *
 * Arguments are percent-encoded (space, '%', control bytes) and "-" stands
 * for NULL, so every field is one word. A line without its final newline
 * (kill -9 inside write) is ignored. Several processes may share a journal:
 * each record is written under flock(LOCK_EX), tokens are allocated under that
 * lock as one more than the highest in the file, and pid + process start time
 * say which run pushed an action, so that `cleanup` leaves alone the actions
 * of a run that is still alive. When every action in the file is done, the
 * file is truncated so it does not grow forever. */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <grp.h>
#include <limits.h>
#include <linux/loop.h>
#include <pwd.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "diag.h"
#include "state.h"

static struct {
	int fd; /* -1: journalling disabled */
	char *path;
	int next_off; /* tokens handed out while disabled */
	unsigned long long starttime;
} st = {.fd = -1};

/* One parsed "P" record. */
struct state_rec {
	int token;
	long pid;
	unsigned long long starttime;
	char *kind, *arg1, *arg2;
	bool done;
};

/* Field 22 of /proc/<pid>/stat: start time in clock ticks since boot; 0 when
 * the process does not exist. Together with the pid it names one process. */
static unsigned long long state_proc_starttime(long pid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%ld/stat", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	/* comm may contain spaces and parentheses: skip to the last ')'. */
	char *p = strrchr(buf, ')');
	if (!p)
		return 0;
	for (int field = 2; field < 22 && p; field++) {
		p = strchr(p + 1, ' ');
	}
	if (!p)
		return 0;
	return strtoull(p + 1, NULL, 10);
}

static void state_encode(FILE *f, const char *s)
{
	if (!s) {
		fputc('-', f);
		return;
	}
	if (strcmp(s, "-") == 0 || *s == '\0') {
		fputs(*s ? "%2D" : "%", f); /* "%" alone = empty string */
		return;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p <= ' ' || *p == '%' || *p == 0x7f)
			fprintf(f, "%%%02X", *p);
		else
			fputc(*p, f);
	}
}

static char *state_decode(const char *w)
{
	if (strcmp(w, "-") == 0)
		return NULL;
	if (strcmp(w, "%") == 0)
		return strdup("");
	char *out = malloc(strlen(w) + 1), *o = out;
	if (!out)
		return NULL;
	for (const char *p = w; *p; p++) {
		if (p[0] == '%' && isxdigit((unsigned char)p[1]) && isxdigit((unsigned char)p[2])) {
			char hex[3] = {p[1], p[2], 0};
			*o++ = (char)strtol(hex, NULL, 16);
			p += 2;
		} else {
			*o++ = *p;
		}
	}
	*o = '\0';
	return out;
}

static void state_recs_free(struct state_rec *v, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(v[i].kind);
		free(v[i].arg1);
		free(v[i].arg2);
	}
	free(v);
}

/* Parse the whole journal from fd (read from offset 0). *maxtok receives the
 * highest token seen. Returns 0 or -errno. */
static int state_parse(int fd, struct state_rec **out, size_t *nout, int *maxtok)
{
	struct state_rec *v = NULL;
	size_t n = 0, cap = 0;
	*maxtok = 0;
	int dfd = dup(fd);
	if (dfd < 0)
		return -errno;
	FILE *f = fdopen(dfd, "r");
	if (!f) {
		close(dfd);
		return -errno;
	}
	rewind(f);
	char *line = NULL;
	size_t lcap = 0;
	ssize_t len;
	while ((len = getline(&line, &lcap, f)) > 0) {
		if (line[len - 1] != '\n')
			break; /* torn last line */
		line[len - 1] = '\0';
		/* split into at most 8 words: encoded fields never contain blanks */
		char *w[8], *save = NULL;
		int nw = 0;
		for (char *t = strtok_r(line, " ", &save); t && nw < 8; t = strtok_r(NULL, " ", &save))
			w[nw++] = t;
		if (nw >= 2 && strcmp(w[0], "D") == 0) {
			int tok = atoi(w[1]);
			for (size_t i = n; i-- > 0;) {
				if (v[i].token == tok) {
					v[i].done = true;
					break;
				}
			}
			if (tok > *maxtok)
				*maxtok = tok;
			continue;
		}
		if (nw != 7 || strcmp(w[0], "P") != 0)
			continue;
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			struct state_rec *nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				free(line);
				fclose(f);
				state_recs_free(v, n);
				return -ENOMEM;
			}
			v = nv;
		}
		struct state_rec *r = &v[n++];
		r->token = atoi(w[1]);
		r->pid = atol(w[2]);
		r->starttime = strtoull(w[3], NULL, 10);
		r->kind = state_decode(w[4]);
		r->arg1 = state_decode(w[5]);
		r->arg2 = state_decode(w[6]);
		r->done = false;
		if (r->token > *maxtok)
			*maxtok = r->token;
	}
	free(line);
	fclose(f);
	*out = v;
	*nout = n;
	return 0;
}

/* Append one line under the lock; fsync so that it survives a crash. */
static int state_append(int fd, const char *text)
{
	size_t len = strlen(text);
	ssize_t w = write(fd, text, len);
	if (w < 0)
		return -errno;
	if ((size_t)w != len)
		return -EIO;
	if (fsync(fd) < 0)
		return -errno;
	return 0;
}

/* When every action in the file is done, empty the file. Caller holds the lock. */
static void state_compact_locked(int fd)
{
	struct state_rec *v;
	size_t n;
	int maxtok;
	if (state_parse(fd, &v, &n, &maxtok) < 0)
		return;
	bool all_done = true;
	for (size_t i = 0; i < n; i++)
		all_done = all_done && v[i].done;
	state_recs_free(v, n);
	if (all_done && ftruncate(fd, 0) == 0)
		fsync(fd);
}

/* The journal says what to delete and unmount: only trust one that is ours
 * and that nobody else may write. */
static bool state_owned(int fd)
{
	struct stat sb;
	return fstat(fd, &sb) == 0 && S_ISREG(sb.st_mode) && sb.st_uid == geteuid() &&
	       !(sb.st_mode & (S_IWGRP | S_IWOTH));
}

static int state_mkdirs(const char *path)
{
	char *dup = strdup(path);
	if (!dup)
		return -ENOMEM;
	for (char *p = dup + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(dup, 0755) < 0 && errno != EEXIST) {
			int e = -errno;
			free(dup);
			return e;
		}
		*p = '/';
	}
	free(dup);
	return 0;
}

int state_open(const char *path)
{
	state_close();
	st.starttime = state_proc_starttime(getpid());
	if (!path)
		return 0;
	int r = state_mkdirs(path);
	if (r < 0)
		return r;
	int fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (!state_owned(fd)) {
		close(fd);
		return -EPERM;
	}
	st.fd = fd;
	st.path = strdup(path);
	if (!st.path) {
		state_close();
		return -ENOMEM;
	}
	return 0;
}

void state_close(void)
{
	if (st.fd >= 0) {
		if (flock(st.fd, LOCK_EX) == 0) {
			state_compact_locked(st.fd);
			flock(st.fd, LOCK_UN);
		}
		close(st.fd);
	}
	st.fd = -1;
	free(st.path);
	st.path = NULL;
}

const char *state_path(void)
{
	return st.path;
}

int state_push(const char *kind, const char *arg1, const char *arg2)
{
	if (!kind)
		return -EINVAL;
	if (st.fd < 0)
		return ++st.next_off;
	if (flock(st.fd, LOCK_EX) < 0)
		return -errno;
	struct state_rec *v;
	size_t n;
	int maxtok, r = state_parse(st.fd, &v, &n, &maxtok);
	if (r < 0)
		goto out;
	state_recs_free(v, n);
	int tok = maxtok + 1;
	char *buf = NULL;
	size_t blen = 0;
	FILE *m = open_memstream(&buf, &blen);
	if (!m) {
		r = -ENOMEM;
		goto out;
	}
	fprintf(m, "P %d %ld %llu ", tok, (long)getpid(), st.starttime);
	state_encode(m, kind);
	fputc(' ', m);
	state_encode(m, arg1);
	fputc(' ', m);
	state_encode(m, arg2);
	fputc('\n', m);
	fclose(m);
	r = state_append(st.fd, buf);
	free(buf);
	if (r == 0)
		r = tok;
out:
	flock(st.fd, LOCK_UN);
	return r;
}

int state_done(int token)
{
	if (token <= 0)
		return -EINVAL;
	if (st.fd < 0)
		return 0;
	if (flock(st.fd, LOCK_EX) < 0)
		return -errno;
	char line[32];
	snprintf(line, sizeof(line), "D %d\n", token);
	int r = state_append(st.fd, line);
	flock(st.fd, LOCK_UN);
	return r;
}

const char *state_default_path(void)
{
	const char *e = getenv("BENCHGRID_STATE");
	if (e && *e)
		return e;
	if (geteuid() == 0)
		return "/run/benchgrid/state";
	/* Without root only dir targets work; keep their journal per user. */
	static char path[PATH_MAX];
	const char *rt = getenv("XDG_RUNTIME_DIR");
	if (rt && *rt)
		snprintf(path, sizeof(path), "%s/benchgrid/state", rt);
	else
		snprintf(path, sizeof(path), "/tmp/benchgrid-%u/state", (unsigned)geteuid());
	return path;
}

/* ---- undo actions ---- */

static int state_write_file(const char *path, const char *value)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	size_t len = strlen(value);
	ssize_t w = write(fd, value, len);
	int e = w < 0 ? -errno : 0;
	if (close(fd) < 0 && e == 0)
		e = -errno;
	return e;
}

static int state_undo_umount(const char *mnt, struct diag *d)
{
	if (umount2(mnt, 0) == 0)
		return 0;
	if (errno == EINVAL || errno == ENOENT)
		return 0; /* not (or no longer) a mount point */
	if (errno == EBUSY) {
		/* Something still has files open there: detach now, the kernel
		 * finishes the unmount when the last user goes away. */
		if (umount2(mnt, MNT_DETACH) == 0) {
			diag_warn(d, NULL, "%s was busy: detached lazily", mnt);
			return 0;
		}
	}
	int e = -errno;
	diag_error(d, NULL, "cannot unmount %s: %s", mnt, strerror(errno));
	return e;
}

/* The loop device is detached only if it is still bound to our image, so a
 * journal entry never detaches a device that another program attached since. */
static int state_undo_losetup(const char *dev, const char *backing, struct diag *d)
{
	const char *name = strrchr(dev, '/');
	name = name ? name + 1 : dev;
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "/sys/block/%s/loop/backing_file", name);
	FILE *f = fopen(path, "re");
	if (!f)
		return 0; /* not bound to anything: nothing to do */
	char bf[PATH_MAX] = "";
	if (!fgets(bf, sizeof(bf), f))
		bf[0] = '\0';
	fclose(f);
	bf[strcspn(bf, "\n")] = '\0';
	if (backing && *backing) {
		size_t bl = strlen(backing);
		bool same =
		    strncmp(bf, backing, bl) == 0 && (bf[bl] == '\0' || strcmp(bf + bl, " (deleted)") == 0);
		if (!same) {
			diag_warn(d, NULL, "%s is now bound to %s, not %s: left alone", dev, bf, backing);
			return 0;
		}
	}
	int fd = open(dev, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		int e = -errno;
		diag_error(d, NULL, "cannot open %s: %s", dev, strerror(errno));
		return e;
	}
	int r = 0;
	/* EBUSY can happen right after an unmount while the kernel still holds
	 * the device for a moment: retry briefly. */
	for (int i = 0; i < 50; i++) {
		if (ioctl(fd, LOOP_CLR_FD, 0) == 0 || errno == ENXIO) {
			r = 0;
			break;
		}
		r = -errno;
		if (errno != EBUSY && errno != EAGAIN)
			break;
		struct timespec ts = {0, 20 * 1000 * 1000};
		nanosleep(&ts, NULL);
	}
	close(fd);
	if (r < 0)
		diag_error(d, NULL, "cannot detach loop device %s: %s", dev, strerror(-r));
	return r;
}

static int state_rmtree_cb(const char *path, const struct stat *sb, int type, struct FTW *ftw)
{
	(void)sb;
	(void)ftw;
	if (type == FTW_DP)
		return rmdir(path) < 0 && errno != ENOENT ? -1 : 0;
	return unlink(path) < 0 && errno != ENOENT ? -1 : 0;
}

static int state_undo_rmtree(const char *dir, struct diag *d)
{
	struct stat sb;
	if (lstat(dir, &sb) < 0)
		return errno == ENOENT ? 0 : -errno;
	/* FTW_MOUNT: never descend into a file system mounted below dir. */
	if (nftw(dir, state_rmtree_cb, 32, FTW_DEPTH | FTW_PHYS | FTW_MOUNT) < 0) {
		int e = errno ? -errno : -EIO;
		diag_error(d, NULL, "cannot remove %s: %s", dir, strerror(-e));
		return e;
	}
	return 0;
}

/* pg_ctl refuses to run as root: run it as the owner of the data directory. */
static int state_undo_pgstop(const char *datadir, const char *pg_ctl, struct diag *d)
{
	char pidfile[PATH_MAX];
	snprintf(pidfile, sizeof(pidfile), "%s/postmaster.pid", datadir);
	struct stat sb;
	if (stat(pidfile, &sb) < 0)
		return 0; /* not running */
	if (stat(datadir, &sb) < 0)
		return 0;
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0) {
		int nul = open("/dev/null", O_RDWR);
		if (nul >= 0) {
			dup2(nul, 0);
			dup2(nul, 1);
		}
		if (getuid() == 0 && sb.st_uid != 0) {
			struct passwd *pw = getpwuid(sb.st_uid);
			if (pw)
				initgroups(pw->pw_name, sb.st_gid);
			if (setgid(sb.st_gid) < 0 || setuid(sb.st_uid) < 0)
				_exit(126);
		}
		const char *ctl = pg_ctl && *pg_ctl ? pg_ctl : "pg_ctl";
		execlp(ctl, ctl, "stop", "-D", datadir, "-m", "fast", "-w", "-t", "60", (char *)NULL);
		_exit(127);
	}
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		/* pg_ctl also fails when the server is already gone (stale pid file). */
		if (stat(pidfile, &sb) < 0)
			return 0;
		diag_error(d, NULL, "pg_ctl stop -D %s failed (status %d)", datadir,
		           WIFEXITED(status) ? WEXITSTATUS(status) : -1);
		return -ECHILD;
	}
	return 0;
}

static int state_undo_kill(const char *pidtext, const char *start, struct diag *d)
{
	long pid = pidtext ? atol(pidtext) : 0;
	if (pid <= 1)
		return -EINVAL;
	unsigned long long want = start ? strtoull(start, NULL, 10) : 0;
	unsigned long long have = state_proc_starttime(pid);
	if (have == 0 || (want && have != want))
		return 0; /* gone, or the pid was reused by another process */
	kill((pid_t)pid, SIGTERM);
	for (int i = 0; i < 100; i++) {
		struct timespec ts = {0, 50 * 1000 * 1000};
		nanosleep(&ts, NULL);
		waitpid((pid_t)pid, NULL, WNOHANG); /* reap if it is our child */
		if (state_proc_starttime(pid) != have)
			return 0;
	}
	kill((pid_t)pid, SIGKILL);
	diag_warn(d, NULL, "process %ld did not stop on SIGTERM within 5 s: killed", pid);
	return 0;
}

int state_undo_action(const char *kind, const char *arg1, const char *arg2, struct diag *d)
{
	if (!kind || !arg1)
		return -EINVAL;
	if (strcmp(kind, "umount") == 0)
		return state_undo_umount(arg1, d);
	if (strcmp(kind, "losetup-d") == 0)
		return state_undo_losetup(arg1, arg2, d);
	if (strcmp(kind, "rm") == 0) {
		if (unlink(arg1) == 0 || errno == ENOENT)
			return 0;
		int e = -errno;
		diag_error(d, NULL, "cannot remove %s: %s", arg1, strerror(errno));
		return e;
	}
	if (strcmp(kind, "rmdir") == 0) {
		if (rmdir(arg1) == 0 || errno == ENOENT)
			return 0;
		int e = -errno;
		if (errno == ENOTEMPTY || errno == EEXIST) {
			diag_warn(d, NULL, "directory %s is not empty: left in place", arg1);
			return 0;
		}
		diag_error(d, NULL, "cannot remove directory %s: %s", arg1, strerror(errno));
		return e;
	}
	if (strcmp(kind, "rmtree") == 0)
		return state_undo_rmtree(arg1, d);
	if (strcmp(kind, "sysctl") == 0 || strcmp(kind, "sysfs") == 0) {
		char path[PATH_MAX];
		if (kind[1] == 'y' && kind[3] == 'c') { /* sysctl: name -> /proc/sys path */
			snprintf(path, sizeof(path), "/proc/sys/%s", arg1);
			for (char *p = path + 10; *p; p++)
				if (*p == '.')
					*p = '/';
		} else {
			snprintf(path, sizeof(path), "%s", arg1);
		}
		int r = state_write_file(path, arg2 ? arg2 : "");
		if (r < 0)
			diag_error(d, NULL, "cannot restore %s to '%s': %s", arg1, arg2 ? arg2 : "",
			           strerror(-r));
		return r;
	}
	if (strcmp(kind, "pg-stop") == 0)
		return state_undo_pgstop(arg1, arg2, d);
	if (strcmp(kind, "kill") == 0)
		return state_undo_kill(arg1, arg2, d);
	diag_error(d, NULL, "unknown undo action '%s'", kind);
	return -EINVAL;
}

int state_cleanup(const char *path, struct diag *d)
{
	if (!path)
		path = state_default_path();
	int fd = open(path, O_RDWR | O_APPEND | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;
	if (!state_owned(fd)) {
		close(fd);
		diag_error(d, NULL, "%s is not owned by this user or is writable by others: not used", path);
		return -EPERM;
	}
	if (flock(fd, LOCK_EX) < 0) {
		int e = -errno;
		close(fd);
		return e;
	}
	struct state_rec *v;
	size_t n;
	int maxtok, r = state_parse(fd, &v, &n, &maxtok);
	if (r < 0) {
		flock(fd, LOCK_UN);
		close(fd);
		return r;
	}
	int undone = 0, failed = 0;
	for (size_t i = n; i-- > 0;) {
		struct state_rec *rec = &v[i];
		if (rec->done)
			continue;
		/* The run that pushed this is still alive: it will undo it itself. */
		if (rec->pid != getpid() && rec->starttime &&
		    state_proc_starttime(rec->pid) == rec->starttime) {
			diag_warn(d, NULL, "run %ld is still active: its '%s %s' is left alone", rec->pid,
			          rec->kind, rec->arg1 ? rec->arg1 : "");
			continue;
		}
		int ur = state_undo_action(rec->kind, rec->arg1, rec->arg2, d);
		if (ur < 0) {
			failed++;
			continue;
		}
		char line[32];
		snprintf(line, sizeof(line), "D %d\n", rec->token);
		state_append(fd, line);
		undone++;
	}
	state_recs_free(v, n);
	state_compact_locked(fd);
	flock(fd, LOCK_UN);
	close(fd);
	return failed ? -EIO : undone;
}
