/* noise: foreign load during a step (see noise.h). */
#include "noise.h"

#include <ctype.h>
#include <dirent.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "clock.h"
#include "contain.h"
#include "grow.h"
#include "proc_stat.h"

#define PF_KTHREAD 0x00200000u

struct proc_ticks {
	pid_t pid, ppid;
	unsigned long long start; /* starttime: tells a reused pid apart */
	unsigned long long ticks; /* utime + stime */
	bool kernel;
	char comm[32];
};

struct foreign {
	pid_t pid;
	unsigned long long start, ticks; /* ticks counted during the step */
	char comm[32];
};

struct noise {
	double t0;
	double load_start, load_max;
	double psi_max;                /* NaN: no PSI */
	unsigned long long cpu0[2];    /* total, steal at the start */
	unsigned long long boot_start; /* starttime (ticks since boot) at the start */
	struct proc_ticks *prev;
	size_t nprev;
	struct foreign *f;
	size_t nf, capf;
};

static double read_load1(void)
{
	double l = NAN;
	FILE *f = fopen("/proc/loadavg", "re");
	if (f) {
		if (fscanf(f, "%lf", &l) != 1)
			l = NAN;
		fclose(f);
	}
	return l;
}

static double read_psi_mem(void)
{
	double v = NAN;
	FILE *f = fopen("/proc/pressure/memory", "re");
	if (f) {
		if (fscanf(f, "some avg10=%lf", &v) != 1)
			v = NAN;
		fclose(f);
	}
	return v;
}

/* total and steal ticks of all CPUs */
static bool read_cpu(unsigned long long out[2])
{
	unsigned long long v[8] = {0};
	FILE *f = fopen("/proc/stat", "re");
	if (!f)
		return false;
	int k = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3], &v[4],
	               &v[5], &v[6], &v[7]);
	fclose(f);
	if (k < 4)
		return false;
	out[0] = 0;
	for (int i = 0; i < 8; i++)
		out[0] += v[i];
	out[1] = v[7];
	return true;
}

/* One process's ticks from /proc/PID/stat. */
static bool read_proc(pid_t pid, struct proc_ticks *p)
{
	struct proc_stat st;
	if (!proc_stat_read(pid, &st))
		return false;
	snprintf(p->comm, sizeof(p->comm), "%.*s", (int)sizeof(p->comm) - 1, st.comm); /* cut to fit */
	p->pid = pid;
	p->ppid = (pid_t)st.ppid;
	p->ticks = st.utime + st.stime;
	p->start = st.start;
	p->kernel = (st.flags & PF_KTHREAD) || pid == 2 || st.ppid == 2;
	return true;
}

static struct proc_ticks *scan(size_t *n)
{
	*n = 0;
	DIR *d = opendir("/proc");
	if (!d)
		return NULL;
	size_t cap = 0;
	struct proc_ticks *v = NULL;
	struct dirent *e;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		if (GROW(v, cap, *n + 1, 256) < 0)
			break;
		if (read_proc((pid_t)atoi(e->d_name), &v[*n]))
			(*n)++;
	}
	closedir(d);
	return v;
}

static int cmp_pid(const void *a, const void *b)
{
	const struct proc_ticks *x = a, *y = b;
	return (x->pid > y->pid) - (x->pid < y->pid);
}

/* v sorted by pid (account sorts every scan). */
static const struct proc_ticks *find(const struct proc_ticks *v, size_t n, pid_t pid)
{
	struct proc_ticks key = {.pid = pid};
	return v ? bsearch(&key, v, n, sizeof(*v), cmp_pid) : NULL;
}

/* In the run's cgroup (a step's process that left our process tree)? */
static bool in_run_cgroup(pid_t pid)
{
	const char *cg = contain_cgroup();
	const char *base = cg ? strrchr(cg, '/') : NULL;
	if (!base || !base[1])
		return false;
	char path[64], line[1024];
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	FILE *f = fopen(path, "re");
	bool ours = false;
	while (f && !ours && fgets(line, sizeof(line), f))
		ours = strstr(line, base) != NULL;
	if (f)
		fclose(f);
	return ours;
}

/* benchgrid's: a descendant of this process (steps, the managed server,
 * which is our child), or in the run's cgroup. */
static bool is_ours(const struct proc_ticks *v, size_t n, const struct proc_ticks *p)
{
	pid_t self = getpid();
	const struct proc_ticks *q = p;
	for (int depth = 0; q && depth < 64; depth++) {
		if (q->pid == self)
			return true;
		if (q->ppid <= 1)
			break;
		q = find(v, n, q->ppid);
	}
	return in_run_cgroup(p->pid);
}

static struct foreign *foreign_of(struct noise *ns, const struct proc_ticks *p)
{
	for (size_t i = 0; i < ns->nf; i++)
		if (ns->f[i].pid == p->pid && ns->f[i].start == p->start)
			return &ns->f[i];
	if (GROW(ns->f, ns->capf, ns->nf + 1, 16) < 0)
		return NULL;
	struct foreign *f = &ns->f[ns->nf++];
	*f = (struct foreign){.pid = p->pid, .start = p->start};
	snprintf(f->comm, sizeof(f->comm), "%s", p->comm);
	return f;
}

/* Count what each foreign process used since the previous sample (all of
 * it for one that started since). */
static void account(struct noise *ns, struct proc_ticks *cur, size_t ncur)
{
	qsort(cur, ncur, sizeof(*cur), cmp_pid);
	for (size_t i = 0; i < ncur; i++) {
		const struct proc_ticks *p = &cur[i];
		if (p->kernel)
			continue;
		const struct proc_ticks *was = find(ns->prev, ns->nprev, p->pid);
		unsigned long long used;
		if (was && was->start == p->start)
			used = p->ticks >= was->ticks ? p->ticks - was->ticks : 0;
		else if (p->start >= ns->boot_start)
			used = p->ticks;
		else
			continue;
		/* whose it is only matters for what used the CPU */
		struct foreign *f = used && !is_ours(cur, ncur, p) ? foreign_of(ns, p) : NULL;
		if (f)
			f->ticks += used;
	}
	free(ns->prev);
	ns->prev = cur;
	ns->nprev = ncur;
}

static void sample_levels(struct noise *ns)
{
	double l = read_load1();
	if (l > ns->load_max || isnan(ns->load_max))
		ns->load_max = l;
	double p = read_psi_mem();
	if (!isnan(p) && (isnan(ns->psi_max) || p > ns->psi_max))
		ns->psi_max = p;
}

struct noise *noise_start(void)
{
	struct noise *ns = calloc(1, sizeof(*ns));
	if (!ns)
		return NULL;
	ns->t0 = clock_mono();
	ns->load_start = ns->load_max = read_load1();
	ns->psi_max = NAN;
	sample_levels(ns);
	if (!read_cpu(ns->cpu0))
		ns->cpu0[0] = ns->cpu0[1] = 0;
	/* starttime is in clock ticks since boot: now, from /proc/uptime */
	double up = 0;
	FILE *f = fopen("/proc/uptime", "re");
	if (f) {
		if (fscanf(f, "%lf", &up) != 1)
			up = 0;
		fclose(f);
	}
	ns->boot_start = (unsigned long long)(up * (double)sysconf(_SC_CLK_TCK));
	ns->prev = scan(&ns->nprev);
	if (ns->prev)
		qsort(ns->prev, ns->nprev, sizeof(*ns->prev), cmp_pid);
	return ns;
}

void noise_sample(struct noise *ns)
{
	if (!ns)
		return;
	size_t n;
	struct proc_ticks *cur = scan(&n);
	if (cur)
		account(ns, cur, n);
	sample_levels(ns);
}

static void noise_results(struct noise *ns, struct step_result *res)
{
	double elapsed = clock_mono() - ns->t0;
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	double tck = (double)sysconf(_SC_CLK_TCK);
	if (cpus < 1)
		cpus = 1;
	result_info(res, "noise.cpus", "%ld", cpus);
	if (!isnan(ns->load_start))
		result_info(res, "noise.load1_start", "%.2f", ns->load_start);
	if (!isnan(ns->load_max))
		result_info(res, "noise.load1_max", "%.2f", ns->load_max);
	unsigned long long cpu1[2];
	/* A step shorter than a clock tick saw no time pass, and no steal. */
	if (ns->cpu0[0] && read_cpu(cpu1))
		result_info(res, "noise.steal_pct", "%.2f",
		            cpu1[0] > ns->cpu0[0]
		                ? 100.0 * (double)(cpu1[1] - ns->cpu0[1]) / (double)(cpu1[0] - ns->cpu0[0])
		                : 0.0);
	double all = elapsed * tck * (double)cpus;
	unsigned long long sum = 0;
	const struct foreign *top = NULL;
	for (size_t i = 0; i < ns->nf; i++) {
		sum += ns->f[i].ticks;
		if (!top || ns->f[i].ticks > top->ticks)
			top = &ns->f[i];
	}
	if (all > 0) {
		result_info(res, "noise.foreign_cpu_pct", "%.2f", 100.0 * (double)sum / all);
		if (top)
			result_info(res, "noise.foreign_top", "%s (%d) %.1f%%", top->comm, (int)top->pid,
			            100.0 * (double)top->ticks / all);
	}
	if (isnan(ns->psi_max))
		result_info(res, "noise.psi_mem_some_avg10", "unavailable");
	else
		result_info(res, "noise.psi_mem_some_avg10", "%.2f", ns->psi_max);
}

void noise_stop(struct noise *ns, struct step_result *res)
{
	if (!ns)
		return;
	noise_sample(ns);
	if (res)
		noise_results(ns, res);
	free(ns->prev);
	free(ns->f);
	free(ns);
}
