/* io_child: a job's timed loop in a process of its own, as fio runs its
 * jobs (fio's default; `--thread` is the exception).
 *
 * Why: a job that copies through a large mapping (engine: mmap) walks the
 * page tables on nearly every I/O, and on some virtual machines those walks
 * slow down when the process's other threads run now and then on another
 * CPU (the step's sampler and the monitor wake once an interval): on the
 * development VM, a PVM guest whose page tables the host shadows, by 20 %
 * and more (bench/mmap-sibling), while wake-ups of another process on the
 * other CPU cost nothing.
 *
 * How: after the engine's set-up, the job thread forks. The child has the
 * job's file, mapping and buffers (fork copies the address space) and runs
 * the engine's loop on a copy of the job that lives in memory shared with
 * the parent, so the sampler reads its live counters (mon_bytes, mon_ios,
 * the time series' latency buckets) there, through j->live. The job thread stays as the child's relay, off the child's
 * CPU when it can be (a process switch on that CPU costs the child as much
 * as a thread's wake-up): every IO_CHILD_TICK_MS it passes the step's
 * stop, the other jobs' abort and the steady-state end in; at the end it
 * takes the results back into the job. The child's CPU time is added to
 * the step's (cpu_usr, cpu_sys), its run-queue wait is the job's
 * cpu_wait_s. The child dies with the job thread (PR_SET_PDEATHSIG), is in
 * the run's cgroup, and leaves stops to the relay (it ignores SIGINT,
 * SIGTERM and SIGHUP).
 *
 * Not for a job with a latency log (its records are allocated as the job
 * runs), a paced job (rate, thinktime: the pacing figures live in the
 * job's pacing state) or one of many files (their table is the job's):
 * those stay threads. */
#ifndef BENCHGRID_IO_CHILD_H
#define BENCHGRID_IO_CHILD_H

#include <stdbool.h>

struct io_job;
struct io_child;

/* The relay's period: how late a stop or a steady-state end reaches the child. */
#define IO_CHILD_TICK_MS 20

/* Whether job j can run in a child process (see above). */
bool io_child_fits(const struct io_job *j);

/* Fork the child, which waits for io_child_run and then calls
 * run(child's copy of j, arg). NULL when it cannot (the job then runs as a
 * thread; why says why, for the job's info). */
struct io_child *io_child_start(struct io_job *j, void (*run)(struct io_job *j, void *arg), void *arg,
                                char *why, unsigned whylen);

/* After the start gate: let the child go, relay until it has exited, and
 * take its results back into j (a child that died is the job's error). */
void io_child_run(struct io_child *c, struct io_job *j);

/* Stop and reap a child that has not been run (a failed set-up elsewhere);
 * free c. NULL is fine. */
void io_child_free(struct io_child *c);

#endif
