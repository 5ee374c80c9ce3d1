/* io_sched: cpus_allowed, nice and ioprio of the io step's job threads
 * (see io_sched.h). */
#include "io_sched.h"

#include <errno.h>
#include <stdarg.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "io_rate_opts.h"
#include "result.h"

#define IO_NCPU            1024
#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_CLASS_SHIFT 13

static const char *const ioprio_names[] = {"none", "rt", "be", "idle"};

/* The message of a refusal, as a negative errno. */
static int refused(char *err, size_t errlen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int refused(char *err, size_t errlen, const char *fmt, ...)
{
	int e = errno;
	va_list ap;
	va_start(ap, fmt);
	size_t n = (size_t)vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	if (n < errlen)
		snprintf(err + n, errlen - n, ": %s", strerror(e));
	return -e;
}

/* What the kernel holds for the calling thread. */
static void read_back(pid_t tid, char *got, size_t gotlen)
{
	cpu_set_t set;
	uint64_t m[16] = {0};
	char cpus[96];
	CPU_ZERO(&set);
	if (sched_getaffinity(0, sizeof(set), &set) == 0)
		for (unsigned c = 0; c < IO_NCPU && c < CPU_SETSIZE; c++)
			if (CPU_ISSET(c, &set))
				m[c / 64] |= 1ull << (c % 64);
	io_sched_format_cpus(m, cpus, sizeof(cpus));
	errno = 0;
	int nice = getpriority(PRIO_PROCESS, (id_t)tid);
	long pr = syscall(SYS_ioprio_get, IOPRIO_WHO_PROCESS, tid);
	int cls = pr < 0 ? 0 : (int)(pr >> IOPRIO_CLASS_SHIFT) & 3;
	snprintf(got, gotlen, "cpus %s, nice %d, ioprio %s/%ld", cpus, nice, ioprio_names[cls],
	         pr < 0 ? -1 : pr & 7);
}

int io_sched_apply(const struct io_rate_opts *o, char *got, size_t gotlen, char *err, size_t errlen)
{
	if (!o->cpus_allowed[0] && !o->has_nice && !o->has_ioprio)
		return 0;
	pid_t tid = (pid_t)syscall(SYS_gettid);
	if (o->cpus_allowed[0]) {
		cpu_set_t set;
		CPU_ZERO(&set);
		for (unsigned c = 0; c < IO_NCPU && c < CPU_SETSIZE; c++)
			if (o->cpus_mask[c / 64] >> (c % 64) & 1)
				CPU_SET(c, &set);
		if (sched_setaffinity(0, sizeof(set), &set))
			return refused(err, errlen, "cpus_allowed: cannot pin to CPUs %s", o->cpus_allowed);
	}
	if (o->has_nice && setpriority(PRIO_PROCESS, (id_t)tid, o->nice))
		return refused(err, errlen, "nice: cannot set nice %d", o->nice);
	if (o->has_ioprio && syscall(SYS_ioprio_set, IOPRIO_WHO_PROCESS, tid,
	                             o->ioprio_class << IOPRIO_CLASS_SHIFT | o->ioprio_level))
		return refused(err, errlen, "ioprio: cannot set %s/%d", ioprio_names[o->ioprio_class],
		               o->ioprio_level);
	read_back(tid, got, gotlen);
	return 0;
}

void io_sched_results(struct step_result *res, const struct io_rate_opts *o, const char *got)
{
	if (o->cpus_allowed[0])
		result_info(res, "cpus_allowed", "%s", o->cpus_allowed);
	if (o->has_nice)
		result_info(res, "nice", "%d", o->nice);
	if (o->has_ioprio) {
		if (o->ioprio_class == 3)
			result_info(res, "ioprio", "idle");
		else
			result_info(res, "ioprio", "%s/%d", ioprio_names[o->ioprio_class], o->ioprio_level);
	}
	if (got[0])
		result_info(res, "sched_applied", "%s", got);
}
