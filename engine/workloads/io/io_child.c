/* io_child: a job's timed loop in a process of its own (see io_child.h). */
#include "io_child.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "io_job.h"

/* What the child writes and the parent reads, and the other way round: one
 * shared anonymous mapping per job. The child's job (job) points into it
 * for everything its loop writes through a pointer. */
struct io_child_shm {
	struct io_job job;
	struct io_shared sh;
	volatile sig_atomic_t stop;
	double usr0, sys0, usr1, sys1; /* the child's CPU time at go and at its end */
	struct hist lat, lat_dir[2];
	uint64_t ivl[2][HIST_NBUCKETS];
	uint64_t written[]; /* the verify bitmap, when the job has one */
};

struct io_child {
	pid_t pid;
	int go_fd;   /* the parent writes one byte: go (or closes it: never) */
	int live_fd; /* the child's end closes when it exits: POLLHUP */
	struct io_child_shm *shm;
	size_t shm_len, nwritten;
};

bool io_child_fits(const struct io_job *j)
{
	return !j->lat_log && !j->pace && !j->mf;
}

/* The child's copy of j: its pointers to what the loop writes go into shm. */
static void child_job(struct io_child *c, const struct io_job *j)
{
	struct io_child_shm *s = c->shm;
	memcpy(&s->job, j, sizeof(*j));
	memcpy(&s->sh, j->sh, sizeof(s->sh)); /* the gate's mutex is not used after the fork */
	s->sh.stop = &s->stop;
	s->job.sh = &s->sh;
	s->lat = *j->lat;
	s->job.lat = &s->lat;
	for (int d = 0; d < 2; d++) {
		if (j->lat_dir[d]) {
			s->lat_dir[d] = *j->lat_dir[d];
			s->job.lat_dir[d] = &s->lat_dir[d];
		}
		if (j->lat_ivl[d]) {
			memcpy(s->ivl[d], j->lat_ivl[d], sizeof(s->ivl[d]));
			s->job.lat_ivl[d] = s->ivl[d];
		}
	}
	if (j->written) {
		memcpy(s->written, j->written, c->nwritten * sizeof(uint64_t));
		s->job.written = s->written;
	}
}

static _Noreturn void child_main(struct io_child *c, int go_rd, pid_t parent,
                                 void (*run)(struct io_job *j, void *arg), void *arg)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() != parent)
		_exit(1);
	signal(SIGINT, SIG_IGN); /* the relay passes the step's stop in */
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	char b;
	ssize_t n;
	while ((n = read(go_rd, &b, 1)) < 0 && errno == EINTR)
		;
	if (n != 1)
		_exit(0); /* never run */
	struct io_child_shm *s = c->shm;
	io_rusage(&s->usr0, &s->sys0);
	int64_t wait0 = io_runq_wait_ns();
	run(&s->job, arg);
	int64_t wait1 = wait0 < 0 ? -1 : io_runq_wait_ns();
	s->job.runq_ns = wait1 < 0 ? -1 : wait1 - wait0;
	io_rusage(&s->usr1, &s->sys1);
	_exit(0);
}

struct io_child *io_child_start(struct io_job *j, void (*run)(struct io_job *j, void *arg), void *arg,
                                char *why, unsigned whylen)
{
	struct io_child *c = calloc(1, sizeof(*c));
	int go[2] = {-1, -1}, live[2] = {-1, -1};
	if (!c || pipe2(go, O_CLOEXEC) || pipe2(live, O_CLOEXEC)) {
		snprintf(why, whylen, "no pipe: %s", strerror(errno));
		goto fail;
	}
	c->nwritten = j->written ? (j->nblocks + 63) / 64 : 0;
	c->shm_len = sizeof(*c->shm) + c->nwritten * sizeof(uint64_t);
	c->shm = mmap(NULL, c->shm_len, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (c->shm == MAP_FAILED) {
		c->shm = NULL;
		snprintf(why, whylen, "no shared memory: %s", strerror(errno));
		goto fail;
	}
	child_job(c, j);
	pid_t parent = getpid();
	c->pid = fork();
	if (c->pid < 0) {
		snprintf(why, whylen, "fork: %s", strerror(errno));
		goto fail;
	}
	if (c->pid == 0) {
		close(go[1]);
		close(live[0]); /* live[1] stays open until _exit: the parent's POLLHUP */
		child_main(c, go[0], parent, run, arg);
	}
	close(go[0]);
	close(live[1]);
	c->go_fd = go[1];
	c->live_fd = live[0];
	return c;
fail:
	for (int i = 0; i < 2; i++) {
		if (go[i] >= 0)
			close(go[i]);
		if (live[i] >= 0)
			close(live[i]);
	}
	if (c && c->shm)
		munmap(c->shm, c->shm_len);
	free(c);
	return NULL;
}

/* The relay off the child's CPUs (this thread's, which the child took),
 * when the process has others. */
static void relay_elsewhere(void)
{
	cpu_set_t mine, all;
	if (sched_getaffinity(0, sizeof(mine), &mine) || sched_getaffinity(getpid(), sizeof(all), &all))
		return;
	cpu_set_t rest;
	CPU_XOR(&rest, &all, &mine);
	CPU_AND(&rest, &rest, &all);
	sched_setaffinity(0, sizeof(rest), CPU_COUNT(&rest) ? &rest : &all);
}

/* One turn of the relay: the stop, the abort and the end in, a failed
 * child's abort out. */
static void relay(struct io_child *c, struct io_job *j)
{
	struct io_child_shm *s = c->shm;
	struct io_shared *sh = j->sh;
	if (sh->stop && __atomic_load_n(sh->stop, __ATOMIC_ACQUIRE))
		__atomic_store_n(&s->stop, 1, __ATOMIC_RELEASE);
	if (__atomic_load_n(&sh->abort, __ATOMIC_RELAXED))
		__atomic_store_n(&s->sh.abort, 1, __ATOMIC_RELAXED);
	else if (__atomic_load_n(&s->sh.abort, __ATOMIC_RELAXED)) /* the child failed: stop the others */
		__atomic_store_n(&sh->abort, 1, __ATOMIC_RELAXED);
	__atomic_store_n(&s->sh.run_end, __atomic_load_n(&sh->run_end, __ATOMIC_RELAXED), __ATOMIC_RELAXED);
}

/* The child's results into j; its pointers stay j's own. */
static void take_back(struct io_child *c, struct io_job *j, int status)
{
	struct io_child_shm *s = c->shm;
	/* j's counters get the child's final ones before the sampler goes back
	 * to them: the cumulative counts it reads never go back */
	for (int d = 0; d < 2; d++)
		if (j->lat_ivl[d])
			memcpy(j->lat_ivl[d], s->ivl[d], sizeof(s->ivl[d]));
	__atomic_store_n(&j->mon_bytes, s->job.mon_bytes, __ATOMIC_RELAXED);
	__atomic_store_n(&j->mon_ios, s->job.mon_ios, __ATOMIC_RELAXED);
	__atomic_store_n(&j->live, NULL, __ATOMIC_RELEASE);
	struct io_job keep = *j;
	*j = s->job;
	j->sh = keep.sh;
	j->lat = keep.lat;
	j->written = keep.written;
	/* written by the engine's set-up after the child's copy was made */
	memcpy(j->engine_setup, keep.engine_setup, sizeof(j->engine_setup));
	for (int d = 0; d < 2; d++) {
		j->lat_dir[d] = keep.lat_dir[d];
		j->lat_ivl[d] = keep.lat_ivl[d];
		if (j->lat_dir[d])
			*j->lat_dir[d] = s->lat_dir[d];
	}
	*j->lat = s->lat;
	if (j->written)
		memcpy(j->written, s->written, c->nwritten * sizeof(uint64_t));
	if (s->sh.interrupted)
		__atomic_store_n(&j->sh->interrupted, 1, __ATOMIC_RELAXED);
	if (s->sh.timed_out)
		__atomic_store_n(&j->sh->timed_out, 1, __ATOMIC_RELAXED);
	/* CPU of the measured part: all of it without a ramp, else its share
	 * of the child's run (the loop is busy throughout) */
	double usr = s->usr1 - s->usr0, sys = s->sys1 - s->sys0;
	uint64_t t0 = j->sh->t0, ms = j->sh->measure_start;
	if (ms > t0 && j->t_end > t0) {
		double share = j->t_end > ms ? (double)(j->t_end - ms) / (double)(j->t_end - t0) : 0;
		usr *= share;
		sys *= share;
	}
	j->child_usr = usr;
	j->child_sys = sys;
	j->runq_own = true;
	if (WIFSIGNALED(status) && !j->err)
		io_job_fail(j, -EIO, "job %u: its process (pid %d) was killed by signal %d (%s)", j->idx,
		            (int)c->pid, WTERMSIG(status), strsignal(WTERMSIG(status)));
	else if (WIFEXITED(status) && WEXITSTATUS(status) && !j->err)
		io_job_fail(j, -EIO, "job %u: its process (pid %d) exited with status %d", j->idx,
		            (int)c->pid, WEXITSTATUS(status));
}

void io_child_run(struct io_child *c, struct io_job *j)
{
	struct io_child_shm *s = c->shm;
	/* the gate's figures, stamped after the fork */
	s->sh.t0 = j->sh->t0;
	s->sh.measure_start = j->sh->measure_start;
	s->sh.timeout_at = j->sh->timeout_at;
	relay(c, j);
	__atomic_store_n(&j->live, &s->job, __ATOMIC_RELEASE); /* the sampler reads it until take_back */
	ssize_t n;
	while ((n = write(c->go_fd, "g", 1)) < 0 && errno == EINTR)
		;
	close(c->go_fd);
	c->go_fd = -1;
	relay_elsewhere();
	for (;;) {
		struct pollfd p = {.fd = c->live_fd, .events = POLLIN};
		int r = poll(&p, 1, IO_CHILD_TICK_MS);
		relay(c, j);
		if (r > 0 && (p.revents & (POLLHUP | POLLIN | POLLERR)))
			break;
	}
	int status = 0;
	pid_t pid = c->pid;
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	take_back(c, j, status);
	c->pid = 0;
}

void io_child_free(struct io_child *c)
{
	if (!c)
		return;
	if (c->go_fd >= 0)
		close(c->go_fd); /* a child still waiting reads EOF and exits */
	if (c->pid > 0)
		while (waitpid(c->pid, NULL, 0) < 0 && errno == EINTR)
			;
	close(c->live_fd);
	munmap(c->shm, c->shm_len);
	free(c);
}
