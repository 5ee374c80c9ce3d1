/* monitor: /proc/stat and /proc/diskstats sampled in a background thread
 * (see monitor.h for the figures and their definitions).
 *
 * The thread wakes at fixed deadlines (start + k * interval, so sampling does
 * not drift) on a CLOCK_MONOTONIC condition variable, which monitor_stop()
 * signals to end it at once. It keeps only the per-interval figures; the
 * whole-step figures come from the first and the last snapshot, so they are
 * exact whatever the interval. Nothing is written to the step result until
 * monitor_stop(), in the caller's thread. */
#include "monitor.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>

#include "clock.h"

/* CPU counters of the "cpu" line of /proc/stat, in this order. */
enum { MON_USER, MON_NICE, MON_SYSTEM, MON_IDLE, MON_IOWAIT, MON_IRQ, MON_SOFTIRQ, MON_STEAL, MON_NCPU };

/* Fields of a /proc/diskstats line that iostat -x uses. */
struct mon_disk {
	unsigned long long rd, rsec, rticks;
	unsigned long long wr, wsec, wticks;
	unsigned long long io_ticks, weighted;
};

struct mon_snap {
	double t; /* monotonic seconds */
	bool cpu_ok, disk_ok;
	unsigned long long cpu[MON_NCPU];
	struct mon_disk d;
};

/* The figures, in the order of monitor_names[]. */
enum {
	MON_V_USR,
	MON_V_SYS,
	MON_V_IOWAIT,
	MON_V_IDLE,
	MON_V_STEAL,
	MON_V_BUSY,
	MON_V_NCPU_FIGS,
	MON_V_UTIL = MON_V_NCPU_FIGS,
	MON_V_AWAIT,
	MON_V_RAWAIT,
	MON_V_WAWAIT,
	MON_V_AQU,
	MON_V_RMB,
	MON_V_WMB,
	MON_V_RIOPS,
	MON_V_WIOPS,
	MON_NV
};

static const struct {
	const char *name, *unit;
} monitor_names[MON_NV] = {
    {"sys_usr_pct", "%"},        {"sys_sys_pct", "%"},    {"sys_iowait_pct", "%"},
    {"sys_idle_pct", "%"},       {"sys_steal_pct", "%"},  {"sys_busy_pct", "%"},
    {"disk_util_pct", "%"},      {"disk_await_ms", "ms"}, {"disk_r_await_ms", "ms"},
    {"disk_w_await_ms", "ms"},   {"disk_aqu_sz", ""},     {"disk_read_mb_s", "MB/s"},
    {"disk_write_mb_s", "MB/s"}, {"disk_r_iops", "IOPS"}, {"disk_w_iops", "IOPS"},
};

struct mon_point {
	double t; /* seconds since start, end of the interval */
	bool cpu_ok, disk_ok;
	double v[MON_NV];
};

struct monitor {
	bool has_disk;
	unsigned int major, minor;
	char name[64];
	double interval;
	struct mon_snap first, prev;

	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop;

	struct mon_point *pts;
	size_t npts, cappts;
	bool oom;
};

static bool monitor_read_cpu(unsigned long long cpu[MON_NCPU])
{
	FILE *f = fopen("/proc/stat", "re");
	char line[512];
	bool ok = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "cpu ", 4) != 0)
			continue;
		memset(cpu, 0, sizeof(cpu[0]) * MON_NCPU);
		/* steal appeared in 2.6.11; older kernels give fewer fields */
		ok = sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &cpu[0], &cpu[1], &cpu[2],
		            &cpu[3], &cpu[4], &cpu[5], &cpu[6], &cpu[7]) >= 4;
		break;
	}
	fclose(f);
	return ok;
}

/* Find the device's line by major:minor, or by name when major is 0 and a
 * name is set (then the numbers are filled in). */
static bool monitor_read_disk(struct monitor *m, struct mon_disk *d)
{
	FILE *f = fopen("/proc/diskstats", "re");
	char line[512];
	bool ok = false;

	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned int maj, min;
		char name[64];
		struct mon_disk x;
		if (sscanf(line, "%u %u %63s %llu %*u %llu %llu %llu %*u %llu %llu %*u %llu %llu", &maj, &min,
		           name, &x.rd, &x.rsec, &x.rticks, &x.wr, &x.wsec, &x.wticks, &x.io_ticks,
		           &x.weighted) != 11)
			continue;
		if (m->major == 0 && m->minor == 0) {
			if (strcmp(name, m->name) != 0)
				continue;
			m->major = maj;
			m->minor = min;
		} else if (maj != m->major || min != m->minor) {
			continue;
		} else {
			snprintf(m->name, sizeof(m->name), "%s", name);
		}
		*d = x;
		ok = true;
		break;
	}
	fclose(f);
	return ok;
}

static void monitor_snap(struct monitor *m, struct mon_snap *s)
{
	s->t = clock_mono();
	s->cpu_ok = monitor_read_cpu(s->cpu);
	s->disk_ok = m->has_disk && monitor_read_disk(m, &s->d);
}

/* Counters only grow; a smaller value (a wrap, a device re-created) is 0. */
static double monitor_delta(unsigned long long a, unsigned long long b)
{
	return b >= a ? (double)(b - a) : 0.0;
}

/* Figures between two snapshots; cpu_ok is false when no clock tick passed. */
static void monitor_figures(const struct mon_snap *a, const struct mon_snap *b, struct mon_point *p)
{
	double dt = b->t - a->t;

	memset(p->v, 0, sizeof(p->v));
	p->cpu_ok = false;
	p->disk_ok = false;
	if (a->cpu_ok && b->cpu_ok) {
		double c[MON_NCPU], total = 0;
		for (int i = 0; i < MON_NCPU; i++) {
			c[i] = monitor_delta(a->cpu[i], b->cpu[i]);
			total += c[i];
		}
		if (total > 0) {
			p->cpu_ok = true;
			p->v[MON_V_USR] = 100.0 * (c[MON_USER] + c[MON_NICE]) / total;
			p->v[MON_V_SYS] = 100.0 * (c[MON_SYSTEM] + c[MON_IRQ] + c[MON_SOFTIRQ]) / total;
			p->v[MON_V_IOWAIT] = 100.0 * c[MON_IOWAIT] / total;
			p->v[MON_V_IDLE] = 100.0 * c[MON_IDLE] / total;
			p->v[MON_V_STEAL] = 100.0 * c[MON_STEAL] / total;
			p->v[MON_V_BUSY] = p->v[MON_V_USR] + p->v[MON_V_SYS] + p->v[MON_V_STEAL];
		}
	}
	if (a->disk_ok && b->disk_ok && dt > 0) {
		const struct mon_disk *x = &a->d, *y = &b->d;
		double rd = monitor_delta(x->rd, y->rd), wr = monitor_delta(x->wr, y->wr);
		double rt = monitor_delta(x->rticks, y->rticks), wt = monitor_delta(x->wticks, y->wticks);
		double util = 100.0 * monitor_delta(x->io_ticks, y->io_ticks) / (dt * 1000.0);

		p->disk_ok = true;
		/* io_ticks is counted in jiffies-rounded ms; clamp as iostat does */
		p->v[MON_V_UTIL] = util > 100.0 ? 100.0 : util;
		p->v[MON_V_AWAIT] = rd + wr > 0 ? (rt + wt) / (rd + wr) : 0.0;
		p->v[MON_V_RAWAIT] = rd > 0 ? rt / rd : 0.0;
		p->v[MON_V_WAWAIT] = wr > 0 ? wt / wr : 0.0;
		p->v[MON_V_AQU] = monitor_delta(x->weighted, y->weighted) / (dt * 1000.0);
		p->v[MON_V_RMB] = monitor_delta(x->rsec, y->rsec) * 512.0 / dt / 1e6;
		p->v[MON_V_WMB] = monitor_delta(x->wsec, y->wsec) * 512.0 / dt / 1e6;
		p->v[MON_V_RIOPS] = rd / dt;
		p->v[MON_V_WIOPS] = wr / dt;
	}
}

/* A snapshot missing a figure it should have is useless. */
static bool monitor_snap_ok(const struct monitor *m, const struct mon_snap *s)
{
	return s->cpu_ok && (!m->has_disk || s->disk_ok);
}

static void monitor_add_point(struct monitor *m, const struct mon_snap *s)
{
	struct mon_point p;

	/* a failed read (the device went away) is skipped: the next good
	 * snapshot then covers the longer interval */
	if (!monitor_snap_ok(m, s))
		return;
	monitor_figures(&m->prev, s, &p);
	p.t = s->t - m->first.t;
	if (m->npts == m->cappts) {
		size_t cap = m->cappts ? m->cappts * 2 : 64;
		struct mon_point *n = realloc(m->pts, cap * sizeof(*n));
		if (!n) {
			m->oom = true;
			return;
		}
		m->pts = n;
		m->cappts = cap;
	}
	m->pts[m->npts++] = p;
	m->prev = *s;
}

static void monitor_abs_deadline(double mono, struct timespec *ts)
{
	ts->tv_sec = (time_t)mono;
	ts->tv_nsec = (long)((mono - (double)ts->tv_sec) * 1e9);
	if (ts->tv_nsec >= 1000000000L) {
		ts->tv_sec++;
		ts->tv_nsec -= 1000000000L;
	}
}

static void *monitor_thread(void *arg)
{
	struct monitor *m = arg;
	unsigned long k = 1;

	pthread_mutex_lock(&m->lock);
	while (!m->stop) {
		double due = m->first.t + (double)k * m->interval;
		struct timespec ts;
		monitor_abs_deadline(due, &ts);
		int rc = pthread_cond_timedwait(&m->cond, &m->lock, &ts);
		if (m->stop)
			break;
		if (rc != ETIMEDOUT && clock_mono() < due)
			continue; /* spurious wake-up */
		pthread_mutex_unlock(&m->lock);
		struct mon_snap s;
		monitor_snap(m, &s);
		monitor_add_point(m, &s);
		/* after a long stall (a suspended VM), skip the missed deadlines */
		k = (unsigned long)((s.t - m->first.t) / m->interval) + 1;
		pthread_mutex_lock(&m->lock);
	}
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

/* Resolve a device node or a kernel name to its /proc/diskstats line. */
static int monitor_resolve(struct monitor *m, const char *blockdev)
{
	struct stat st;
	struct mon_disk d;

	if (strchr(blockdev, '/')) {
		if (stat(blockdev, &st) != 0)
			return -errno;
		if (!S_ISBLK(st.st_mode))
			return -ENOTBLK;
		m->major = major(st.st_rdev);
		m->minor = minor(st.st_rdev);
	} else {
		if (!*blockdev || strlen(blockdev) >= sizeof(m->name))
			return -EINVAL;
		snprintf(m->name, sizeof(m->name), "%s", blockdev);
	}
	m->has_disk = true;
	if (!monitor_read_disk(m, &d))
		return -ENODEV;
	return 0;
}

struct monitor *monitor_start(const char *blockdev, double interval_s)
{
	struct monitor *m;
	pthread_condattr_t ca;
	int rc;

	if (!(interval_s > 0) || interval_s > 86400) {
		errno = EINVAL;
		return NULL;
	}
	m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->interval = interval_s;
	if (blockdev && (rc = monitor_resolve(m, blockdev)) < 0) {
		free(m);
		errno = -rc;
		return NULL;
	}
	monitor_snap(m, &m->first);
	if (!m->first.cpu_ok || (m->has_disk && !m->first.disk_ok)) {
		free(m);
		errno = ENOENT;
		return NULL;
	}
	m->prev = m->first;
	pthread_mutex_init(&m->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&m->cond, &ca);
	pthread_condattr_destroy(&ca);
	rc = pthread_create(&m->thread, NULL, monitor_thread, m);
	if (rc != 0) {
		pthread_cond_destroy(&m->cond);
		pthread_mutex_destroy(&m->lock);
		free(m);
		errno = rc;
		return NULL;
	}
	return m;
}

void monitor_stop(struct monitor *m, struct step_result *res)
{
	struct mon_snap last;
	struct mon_point whole;

	if (!m)
		return;
	pthread_mutex_lock(&m->lock);
	m->stop = true;
	pthread_cond_signal(&m->cond);
	pthread_mutex_unlock(&m->lock);
	pthread_join(m->thread, NULL);

	monitor_snap(m, &last);
	if (!monitor_snap_ok(m, &last))
		last = m->prev; /* the whole-step figures end at the last good one */
	else if (last.t - m->prev.t >= m->interval / 4)
		/* a last partial interval counts when it is a quarter long */
		monitor_add_point(m, &last);

	if (res) {
		monitor_figures(&m->first, &last, &whole);
		for (int i = 0; i < MON_NV; i++) {
			bool ok = i < MON_V_NCPU_FIGS ? whole.cpu_ok : whole.disk_ok;
			if (ok)
				result_metric(res, monitor_names[i].name, whole.v[i], monitor_names[i].unit);
		}
		for (size_t k = 0; k < m->npts; k++) {
			const struct mon_point *p = &m->pts[k];
			for (int i = 0; i < MON_NV; i++) {
				bool ok = i < MON_V_NCPU_FIGS ? p->cpu_ok : p->disk_ok;
				if (ok)
					result_sample(res, monitor_names[i].name, monitor_names[i].unit, p->t,
					              p->v[i]);
			}
		}
		if (m->has_disk)
			result_info(res, "monitor.device", "%s (%u:%u)", m->name, m->major, m->minor);
		if (m->oom)
			result_info(res, "warning", "monitor: out of memory, some samples were lost");
	}
	pthread_cond_destroy(&m->cond);
	pthread_mutex_destroy(&m->lock);
	free(m->pts);
	free(m);
}
