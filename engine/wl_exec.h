/* wl_exec: the `exec:` step, which runs an external command in the cell.
 *
 * The command runs in its own process group with the target directory as
 * working directory and the cell's parameters in the environment
 * (BENCHGRID_<NAME> and NAME). stdout and stderr are captured (and written
 * to the cell folder); the step records the exit status, the duration, the
 * tails of both streams, and the metrics a parser reads from the output.
 * Failures are distinct: a non-zero exit, a timeout (the whole process group
 * is killed), and a program that does not exist.
 *
 * wl_exec_spawn() is the process runner underneath, also used by the Lua
 * bridge for bench.sh(). */
#ifndef BENCHGRID_WL_EXEC_H
#define BENCHGRID_WL_EXEC_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include "workload.h"

struct lb;

extern const struct workload_ops wl_exec_ops;

/* The Lua state used for `parse:` functions defined in hooks (the runner
 * sets it per scenario; NULL: shipped parsers run in a private state). */
void wl_exec_set_lua(struct lb *L);

struct wl_exec_proc {
	/* in */
	const char *const *argv;     /* argv[0] is looked up in PATH */
	const char *cwd;             /* NULL: inherit */
	char *const *envp;           /* NULL: inherit */
	double timeout;              /* seconds, 0 = none */
	volatile sig_atomic_t *stop; /* may be NULL */
	size_t max_capture;          /* bytes kept per stream; 0 = 64 MiB */
	/* out */
	int status;      /* exit code, or 128 + signal number */
	int term_signal; /* the signal that ended it, 0 if it exited */
	bool timed_out;  /* killed at the timeout */
	bool stopped;    /* killed because *stop was set */
	int exec_errno;  /* the program could not be started (ENOENT, EACCES) */
	int cwd_errno;   /* chdir(cwd) failed */
	double elapsed;  /* seconds */
	char *out, *err; /* captured streams, NUL-terminated */
	size_t nout, nerr;
	bool out_truncated, err_truncated;
};

/* Run argv to completion (or timeout/stop). Returns 0 when the process ran
 * (whatever its status), a negative errno when it could not be set up
 * (fork or pipe failed). exec failures are reported in p->exec_errno. */
int wl_exec_spawn(struct wl_exec_proc *p);
void wl_exec_proc_free(struct wl_exec_proc *p);

/* The last `max` bytes of text, starting at a line boundary when possible. */
const char *wl_exec_tail(const char *text, size_t len, size_t max);

#endif
