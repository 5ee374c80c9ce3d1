/* spawn: see spawn.h.
 *
 * The exec status travels over a close-on-exec pipe: reading 0 bytes means
 * the exec succeeded. spawn_run() polls both output pipes with a short
 * timeout, so a deadline or the stop flag is noticed within 50 ms; a timeout
 * sends SIGTERM to the group, then SIGKILL one second later.
 *
 * With a cgroup set (spawn_set_cgroup), each spawn_run child first joins a
 * cgroup of its own, "s<pid>-<n>" below the run's: the SIGKILL of a timeout
 * or a stop goes to that cgroup too (cgroup.kill), so that what left the
 * process group (setsid) ends with it. The cgroup is removed when it is
 * empty; one with processes left in the background stays for the run's own
 * cleanup. */
#include "spawn.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <limits.h>
#include <dirent.h>
#include <linux/close_range.h>

#include "clock.h"
#include "grow.h"

#define SPAWN_DEFAULT_CAPTURE ((size_t)64 << 20)
#define SPAWN_KILL_GRACE      1.0

enum { SPAWN_FAIL_EXEC = 1, SPAWN_FAIL_CWD, SPAWN_FAIL_SETID, SPAWN_FAIL_CGROUP };

static struct {
	char cgroup[PATH_MAX]; /* "": none */
	unsigned counter;
	spawn_watch_fn watch;
	void *watch_ud;
} spawn_g;

/* In the child: report why we cannot go on, and leave. Async-signal-safe. */
static void spawn_child_fail(int status_fd, int kind, int err)
{
	int msg[2] = {kind, err};
	(void)!write(status_fd, msg, sizeof(msg));
	_exit(kind == SPAWN_FAIL_EXEC ? 127 : 126);
}

/* In the child: move into the cgroup whose cgroup.procs is procs (first of
 * all, before anything can fork). Async-signal-safe. 0 or an errno. */
static int spawn_join(const char *procs)
{
	int fd = open(procs, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	int e = write(fd, "0", 1) == 1 ? 0 : errno;
	close(fd);
	return e;
}

/* In the child, between fork and exec: only async-signal-safe calls. */
static void spawn_child(const struct spawn_child *c, int status_fd, const char *procs)
{
	int e = procs ? spawn_join(procs) : 0;
	if (e)
		spawn_child_fail(status_fd, SPAWN_FAIL_CGROUP, e);
	if (c->new_session)
		setsid();
	else
		setpgid(0, 0);
	struct sigaction dfl;
	memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (int sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &dfl, NULL); /* fails harmlessly for the RT signals libc reserves */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);

	int nul = open("/dev/null", O_RDWR);
	if (nul >= 0)
		dup2(nul, 0);
	dup2(c->out_fd >= 0 ? c->out_fd : nul, 1);
	dup2(c->err_fd >= 0 ? c->err_fd : nul, 2);
	/* Whatever benchgrid has open (the journal, a server log, a device) is
	 * none of the child's business; the status pipe closes at exec too. */
	if (close_range(3, ~0U, CLOSE_RANGE_CLOEXEC) != 0)
		for (int fd = 3; fd < 4096; fd++)
			if (fd != status_fd)
				close(fd);

	if (c->as_user && (setgroups(c->ngroups, c->groups) || setgid(c->gid) || setuid(c->uid)))
		spawn_child_fail(status_fd, SPAWN_FAIL_SETID, errno);
	if (c->cwd && chdir(c->cwd) < 0)
		spawn_child_fail(status_fd, SPAWN_FAIL_CWD, errno);
	char *const *envp = c->envp;
	if (strchr(c->argv[0], '/'))
		execve(c->argv[0], (char *const *)c->argv, envp ? envp : environ);
	else
		execvpe(c->argv[0], (char *const *)c->argv, envp ? envp : environ);
	spawn_child_fail(status_fd, SPAWN_FAIL_EXEC, errno);
}

pid_t spawn_start(const struct spawn_child *c, struct spawn_failure *why)
{
	memset(why, 0, sizeof(*why));
	if (!c->argv || !c->argv[0])
		return -EINVAL;
	char procs[PATH_MAX];
	if (c->cgroup && snprintf(procs, sizeof(procs), "%s/cgroup.procs", c->cgroup) >= (int)sizeof(procs))
		return -ENAMETOOLONG;
	int st[2];
	if (pipe2(st, O_CLOEXEC) < 0)
		return -errno;
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		close(st[0]);
		close(st[1]);
		return -e;
	}
	if (pid == 0)
		spawn_child(c, st[1], c->cgroup ? procs : NULL);
	if (!c->new_session)
		setpgid(pid, pid); /* also here: no race with a kill before the child ran */
	close(st[1]);
	int msg[2];
	ssize_t r;
	do
		r = read(st[0], msg, sizeof(msg));
	while (r < 0 && errno == EINTR);
	close(st[0]);
	if (r == (ssize_t)sizeof(msg)) {
		if (msg[0] == SPAWN_FAIL_CWD)
			why->cwd_errno = msg[1];
		else if (msg[0] == SPAWN_FAIL_SETID)
			why->setid_errno = msg[1];
		else if (msg[0] == SPAWN_FAIL_CGROUP)
			why->cgroup_errno = msg[1];
		else
			why->exec_errno = msg[1];
	}
	return pid;
}

static int spawn_status(int wst)
{
	if (WIFEXITED(wst))
		return WEXITSTATUS(wst);
	if (WIFSIGNALED(wst))
		return 128 + WTERMSIG(wst);
	return -ECHILD;
}

int spawn_wait(pid_t pid)
{
	int wst;
	while (waitpid(pid, &wst, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return spawn_status(wst);
}

/* --- spawn_run: capture both streams under a deadline --- */

struct spawn_buf {
	char *p;
	size_t n, cap, max;
	bool truncated;
};

static void spawn_buf_add(struct spawn_buf *b, const char *s, size_t n)
{
	if (b->n + n > b->max) {
		b->truncated = true;
		n = b->max - b->n;
	}
	if (GROW(b->p, b->cap, b->n + n + 1, 4096) < 0) {
		b->truncated = true;
		return;
	}
	memcpy(b->p + b->n, s, n);
	b->n += n;
	b->p[b->n] = 0;
}

struct spawn_loop {
	struct pollfd fds[2];
	struct spawn_buf bufs[2];
	double t0, deadline, term_at, reaped_at;
	bool reaped;
	int wst;
	char cgroup[PATH_MAX]; /* the child's own cgroup, "" if none */
};

/* SIGKILL the child's group and its cgroup. */
static void spawn_kill_all(struct spawn_run *r, struct spawn_loop *l)
{
	kill(-r->pid, SIGKILL);
	if (l->cgroup[0])
		spawn_cgroup_kill(l->cgroup);
}

/* Time to end the group: the deadline passed or the stop flag is set. */
static void spawn_check_deadline(struct spawn_run *r, struct spawn_loop *l, double now)
{
	/* The stop flag may be set by another thread (a concurrent step's
	 * watcher): read it atomically. */
	bool stop = r->stop && __atomic_load_n(r->stop, __ATOMIC_ACQUIRE);
	if (!l->reaped && !l->term_at && ((l->deadline && now >= l->deadline) || stop)) {
		if (stop)
			r->stopped = true;
		else
			r->timed_out = true;
		kill(-r->pid, SIGTERM);
		l->term_at = now;
	}
	if (l->term_at && now - l->term_at >= SPAWN_KILL_GRACE)
		spawn_kill_all(r, l);
}

static void spawn_read_ready(struct spawn_loop *l)
{
	char buf[65536];
	for (int i = 0; i < 2; i++) {
		if (l->fds[i].fd < 0 || !(l->fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
			continue;
		ssize_t n = read(l->fds[i].fd, buf, sizeof(buf));
		if (n < 0 && (errno == EINTR || errno == EAGAIN))
			continue;
		if (n <= 0) {
			close(l->fds[i].fd);
			l->fds[i].fd = -1;
			continue;
		}
		spawn_buf_add(&l->bufs[i], buf, (size_t)n);
	}
}

static void spawn_loop_run(struct spawn_run *r, struct spawn_loop *l)
{
	while (l->fds[0].fd >= 0 || l->fds[1].fd >= 0 || !l->reaped) {
		double now = clock_mono();
		spawn_check_deadline(r, l, now);
		/* Processes left in the background keep the pipes open: stop
		 * waiting for them a moment after the command itself ended. */
		if (l->reaped && now - l->reaped_at >= SPAWN_KILL_GRACE) {
			spawn_kill_all(r, l);
			break;
		}
		if (l->fds[0].fd < 0 && l->fds[1].fd < 0) {
			struct timespec ts = {0, 10 * 1000 * 1000};
			nanosleep(&ts, NULL);
		} else if (poll(l->fds, 2, 50) < 0 && errno != EINTR) {
			break;
		}
		spawn_read_ready(l);
		if (!l->reaped) {
			pid_t w = waitpid(r->pid, &l->wst, WNOHANG);
			if (w == r->pid || (w < 0 && errno == ECHILD)) {
				l->reaped = true;
				l->reaped_at = clock_mono();
				r->elapsed = l->reaped_at - l->t0;
			}
		}
	}
	for (int i = 0; i < 2; i++)
		if (l->fds[i].fd >= 0)
			close(l->fds[i].fd);
}

static void spawn_run_finish(struct spawn_run *r, struct spawn_loop *l)
{
	if (WIFEXITED(l->wst)) {
		r->status = WEXITSTATUS(l->wst);
	} else if (WIFSIGNALED(l->wst)) {
		r->term_signal = WTERMSIG(l->wst);
		r->status = 128 + r->term_signal;
	}
	for (int i = 0; i < 2; i++)
		if (!l->bufs[i].p)
			spawn_buf_add(&l->bufs[i], "", 0);
	r->out = l->bufs[0].p;
	r->nout = l->bufs[0].n;
	r->out_truncated = l->bufs[0].truncated;
	r->err = l->bufs[1].p;
	r->nerr = l->bufs[1].n;
	r->err_truncated = l->bufs[1].truncated;
}

/* The child's own cgroup below the run's (or the run's itself when it
 * cannot be made); none when the caller chose one or no cgroup is set. */
static void spawn_leaf_make(struct spawn_child *c, char *leaf, size_t len)
{
	leaf[0] = '\0';
	if (c->cgroup || !spawn_g.cgroup[0])
		return;
	int n = snprintf(leaf, len, "%s/s%ld-%u", spawn_g.cgroup, (long)getpid(),
	                 /* concurrent steps spawn at once: two leaves must not share a name */
	                 __atomic_add_fetch(&spawn_g.counter, 1, __ATOMIC_RELAXED));
	if (n > 0 && (size_t)n < len && mkdir(leaf, 0755) == 0) {
		c->cgroup = leaf;
	} else {
		leaf[0] = '\0';
		c->cgroup = spawn_g.cgroup;
	}
}

int spawn_run(struct spawn_run *r)
{
	r->out = r->err = NULL;
	r->nout = r->nerr = 0;
	r->status = r->term_signal = 0;
	r->timed_out = r->stopped = r->out_truncated = r->err_truncated = false;
	r->elapsed = 0;
	int outp[2], errp[2];
	if (pipe2(outp, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(errp, O_CLOEXEC) < 0) {
		int e = errno;
		close(outp[0]);
		close(outp[1]);
		return -e;
	}
	struct spawn_loop l = {.fds = {{.fd = outp[0], .events = POLLIN}, {.fd = errp[0], .events = POLLIN}}};
	size_t max = r->max_capture ? r->max_capture : SPAWN_DEFAULT_CAPTURE;
	l.bufs[0].max = l.bufs[1].max = max;
	struct spawn_child c = r->c;
	c.out_fd = outp[1];
	c.err_fd = r->merge_err ? outp[1] : errp[1];
	spawn_leaf_make(&c, l.cgroup, sizeof(l.cgroup));
	l.t0 = clock_mono();
	r->pid = spawn_start(&c, &r->why);
	close(outp[1]);
	close(errp[1]);
	if (r->pid < 0) {
		close(outp[0]);
		close(errp[0]);
		if (l.cgroup[0])
			rmdir(l.cgroup);
		return r->pid;
	}
	if (spawn_g.watch)
		spawn_g.watch(r->pid, true, spawn_g.watch_ud);
	l.deadline = r->timeout > 0 ? l.t0 + r->timeout : 0;
	spawn_loop_run(r, &l);
	spawn_run_finish(r, &l);
	/* Still busy (background processes): left for the run's cleanup. */
	if (l.cgroup[0])
		rmdir(l.cgroup);
	if (spawn_g.watch && kill(-r->pid, 0) < 0 && errno == ESRCH)
		spawn_g.watch(r->pid, false, spawn_g.watch_ud);
	return 0;
}

void spawn_run_free(struct spawn_run *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
	r->nout = r->nerr = 0;
}

bool spawn_find_program(const char *name, char *out, size_t len)
{
	if (strchr(name, '/')) {
		snprintf(out, len, "%s", name);
		return access(out, X_OK) == 0;
	}
	const char *path = getenv("PATH");
	char buf[4096];
	snprintf(buf, sizeof(buf), "%s:/usr/local/sbin:/usr/sbin:/sbin:/usr/bin:/bin", path ? path : "");
	char *save = NULL;
	for (char *dir = strtok_r(buf, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", dir, name);
		if (access(out, X_OK) == 0)
			return true;
	}
	return false;
}

/* --- containment --- */

int spawn_set_cgroup(const char *dir)
{
	spawn_g.cgroup[0] = '\0';
	if (!dir)
		return 0;
	char procs[PATH_MAX];
	if (strlen(dir) + 32 >= sizeof(spawn_g.cgroup))
		return -ENAMETOOLONG;
	snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
	/* Can a child join it? Try with one that does nothing else. */
	pid_t pid = fork();
	if (pid < 0)
		return -errno;
	if (pid == 0)
		_exit(spawn_join(procs) & 0x7f);
	int st = spawn_wait(pid);
	if (st != 0)
		return st > 0 ? -st : st;
	snprintf(spawn_g.cgroup, sizeof(spawn_g.cgroup), "%s", dir);
	return 0;
}

const char *spawn_get_cgroup(void)
{
	return spawn_g.cgroup[0] ? spawn_g.cgroup : NULL;
}

void spawn_set_watch(spawn_watch_fn watch, void *ud)
{
	spawn_g.watch = watch;
	spawn_g.watch_ud = ud;
}

/* Without cgroup.kill: SIGKILL each pid listed in dir and its descendants. */
static int spawn_cgroup_kill_procs(const char *dir, int depth)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/cgroup.procs", dir);
	FILE *f = fopen(path, "re");
	if (!f)
		return -errno;
	long pid;
	while (fscanf(f, "%ld", &pid) == 1)
		if (pid > 1 && pid != getpid())
			kill((pid_t)pid, SIGKILL);
	fclose(f);
	DIR *d = depth < 32 ? opendir(dir) : NULL;
	struct dirent *e;
	while (d && (e = readdir(d)))
		if (e->d_type == DT_DIR && e->d_name[0] != '.') {
			snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
			spawn_cgroup_kill_procs(path, depth + 1);
		}
	if (d)
		closedir(d);
	return 0;
}

int spawn_cgroup_kill(const char *dir)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/cgroup.kill", dir);
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? spawn_cgroup_kill_procs(dir, 0) : -errno;
	int e = write(fd, "1", 1) == 1 ? 0 : -errno;
	close(fd);
	return e;
}
