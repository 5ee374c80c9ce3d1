/* spawn: the one way benchgrid starts a process.
 *
 * Every child gets the same hygiene, whoever starts it (mkfs, initdb and
 * postgres, exec steps, bench.sh, cleanup's pg_ctl):
 *   - every signal disposition back to SIG_DFL (benchgrid ignores SIGPIPE)
 *     and an empty signal mask;
 *   - no benchgrid descriptor: everything above 2 is closed at exec;
 *   - stdin on /dev/null, stdout/stderr where the caller says;
 *   - its own process group (or session), so that a timeout or a stop can
 *     end everything it started with one kill(-pid, ...);
 *   - never a shell: argv is executed as given.
 * Exec failures (no such program, chdir, setuid) come back over a
 * close-on-exec pipe as an errno, so "not found" is distinct from "exit 127". */
#ifndef BENCHGRID_SPAWN_H
#define BENCHGRID_SPAWN_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* How the child is set up. */
struct spawn_child {
	const char *const *argv; /* argv[0]: a path, or a name looked up in PATH */
	char *const *envp;       /* NULL: benchgrid's environment */
	const char *cwd;         /* NULL: inherit */
	int out_fd, err_fd;      /* where stdout/stderr go; -1: /dev/null */
	bool new_session;        /* setsid() rather than a new process group */
	bool as_user;            /* drop to uid/gid/groups before exec */
	uid_t uid;
	gid_t gid;
	const gid_t *groups;
	size_t ngroups;
	const char *cgroup; /* NULL, or a cgroup-v2 directory to join before exec */
};

/* Why the child could not become the program (0: it did). */
struct spawn_failure {
	int exec_errno;   /* execve failed (ENOENT, EACCES, ...) */
	int cwd_errno;    /* chdir(cwd) failed */
	int setid_errno;  /* setgroups/setgid/setuid failed */
	int cgroup_errno; /* joining c->cgroup failed */
};

/* Start the child and return its pid (> 0), or a negative errno when fork
 * or a pipe failed. Returns after the child has exec'd or failed; a failure
 * is in *why (the child has then exited with 126 or 127: wait for it). */
pid_t spawn_start(const struct spawn_child *c, struct spawn_failure *why);

/* Wait for pid: its exit status, 128 + signal when a signal ended it, or a
 * negative errno. */
int spawn_wait(pid_t pid);

/* Run to completion, capturing stdout and stderr (c.out_fd/err_fd ignored). */
struct spawn_run {
	/* in */
	struct spawn_child c;
	double timeout;              /* seconds, 0 = none: SIGTERM, then SIGKILL */
	volatile sig_atomic_t *stop; /* may be NULL: when set, the group is ended */
	size_t max_capture;          /* bytes kept per stream; 0 = 64 MiB */
	bool merge_err;              /* stderr into the stdout capture */
	/* out */
	pid_t pid;
	int status;      /* exit code, or 128 + signal number */
	int term_signal; /* the signal that ended it, 0 if it exited */
	bool timed_out;  /* killed at the timeout */
	bool stopped;    /* killed because *stop was set */
	struct spawn_failure why;
	double elapsed;  /* seconds */
	char *out, *err; /* captured streams, NUL-terminated */
	size_t nout, nerr;
	bool out_truncated, err_truncated;
};

/* Returns 0 when the process was started (whatever its status; exec
 * failures are in r->why), a negative errno when it could not be set up. */
int spawn_run(struct spawn_run *r);
void spawn_run_free(struct spawn_run *r);

/* Containment of the commands spawn_run starts (steps, bench.sh, mkfs, ...),
 * set once by the run. spawn_start's children (servers, pg_ctl) are left
 * out: they are stopped their own way.
 *
 * spawn_set_cgroup(dir): every spawn_run child then runs in a cgroup of its
 * own below dir (a cgroup-v2 directory; a setsid() cannot leave it), which a
 * timeout or a stop ends with cgroup.kill, and which is removed when it is
 * empty again. The join is tried at once by a throwaway child: 0, or a
 * negative errno and no setting. NULL clears the setting. */
int spawn_set_cgroup(const char *dir);
const char *spawn_get_cgroup(void);

/* watch(pgid, true, ud) right after a spawn_run child started (its process
 * group is pgid = its pid), watch(pgid, false, ud) once nothing of that
 * group is left. NULL clears it. */
typedef void (*spawn_watch_fn)(pid_t pgid, bool started, void *ud);
void spawn_set_watch(spawn_watch_fn watch, void *ud);

/* SIGKILL every process in the cgroup dir and below it (cgroup.kill, or
 * each pid of cgroup.procs where the kernel lacks it, Linux < 5.14). 0 or a
 * negative errno. */
int spawn_cgroup_kill(const char *dir);

/* Find a program in PATH, then in the sbin directories (root's tools live
 * there even when PATH lacks them). Writes the path to out; false if none. */
bool spawn_find_program(const char *name, char *out, size_t len);

#endif
