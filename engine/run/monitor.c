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
#include "grow.h"
#include "noise.h"

/* CPU counters of the "cpu" line of /proc/stat, in this order. */
enum { MON_USER, MON_NICE, MON_SYSTEM, MON_IDLE, MON_IOWAIT, MON_IRQ, MON_SOFTIRQ, MON_STEAL, MON_NCPU };

/* At most this many devices (targets and the disks under their images). */
#define MON_MAXDEV 32

/* One device's counters in a snapshot, with the time they were read. */
struct mon_dsnap {
	bool ok;
	double t;
	struct monitor_diskstat d;
};

struct mon_snap {
	double t; /* monotonic seconds */
	bool cpu_ok;
	unsigned long long cpu[MON_NCPU];
	struct mon_dsnap d[MON_MAXDEV];
};

/* The CPU figures, then the quantities of each device. */
enum { MON_V_USR, MON_V_SYS, MON_V_IOWAIT, MON_V_IDLE, MON_V_STEAL, MON_V_BUSY, MON_NCPU_V };
enum {
	MON_Q_UTIL,
	MON_Q_AWAIT,
	MON_Q_RAWAIT,
	MON_Q_WAWAIT,
	MON_Q_AQU,
	MON_Q_RMB,
	MON_Q_WMB,
	MON_Q_RIOPS,
	MON_Q_WIOPS,
	MON_NQ
};

static const struct {
	const char *name, *unit;
} monitor_cpu_names[MON_NCPU_V] = {
    {"sys_usr_pct", "%"},  {"sys_sys_pct", "%"},   {"sys_iowait_pct", "%"},
    {"sys_idle_pct", "%"}, {"sys_steal_pct", "%"}, {"sys_busy_pct", "%"},
};

static const struct {
	const char *name, *unit;
} monitor_quantities[MON_NQ] = {
    {"util_pct", "%"},     {"await_ms", "ms"},     {"r_await_ms", "ms"}, {"w_await_ms", "ms"}, {"aqu_sz", ""},
    {"read_mb_s", "MB/s"}, {"write_mb_s", "MB/s"}, {"r_iops", "IOPS"},   {"w_iops", "IOPS"},
};

/* A device sampled: what to look for and its column names. */
struct mon_col_dev {
	unsigned int major, minor; /* 0:0 = look up by name (monitor_start) */
	char name[64];
	char prefix[160];
	bool main;
	char col[MON_NQ][192];
};

struct monitor {
	struct mon_col_dev dev[MON_MAXDEV];
	int ndev;
	char warn[MON_MAXDEV][256];
	int nwarn;
	double interval;
	struct mon_snap first, prev;

	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	bool stop;

	/* points: time, ok flags (CPU, then each device) and values (the CPU
	 * figures, then MON_NQ per device), stride nok and nv */
	double *pt, *pv;
	unsigned char *pok;
	size_t npts, cappts, nv, nok;
	bool oom;
	struct noise *noise; /* foreign load (noise.h), monitor_start_devs only */
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

bool monitor_parse_diskstats(const char *line, struct monitor_diskstat *d)
{
	return sscanf(line, "%u %u %63s %llu %*u %llu %llu %llu %*u %llu %llu %*u %llu %llu", &d->major,
	              &d->minor, d->name, &d->rd, &d->rsec, &d->rticks, &d->wr, &d->wsec, &d->wticks,
	              &d->io_ticks, &d->weighted) == 11;
}

/* One read of /proc/diskstats for every device: by major:minor, or by name
 * when major:minor is 0:0 (then the numbers are filled in). A device shared
 * by two names gets the same line twice. */
static void monitor_read_disks(struct monitor *m, struct mon_snap *s)
{
	FILE *f = m->ndev ? fopen("/proc/diskstats", "re") : NULL;
	char line[512];

	for (int i = 0; i < m->ndev; i++)
		s->d[i].ok = false;
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		struct monitor_diskstat x;
		if (!monitor_parse_diskstats(line, &x))
			continue;
		for (int i = 0; i < m->ndev; i++) {
			struct mon_col_dev *dv = &m->dev[i];
			if (dv->major == 0 && dv->minor == 0) {
				if (strcmp(x.name, dv->name) != 0)
					continue;
				dv->major = x.major;
				dv->minor = x.minor;
			} else if (x.major != dv->major || x.minor != dv->minor) {
				continue;
			} else {
				snprintf(dv->name, sizeof(dv->name), "%s", x.name);
			}
			s->d[i].ok = true;
			s->d[i].t = s->t;
			s->d[i].d = x;
		}
	}
	fclose(f);
}

static void monitor_snap(struct monitor *m, struct mon_snap *s)
{
	s->t = clock_mono();
	s->cpu_ok = monitor_read_cpu(s->cpu);
	monitor_read_disks(m, s);
}

/* Counters only grow; a smaller value (a wrap, a device re-created) is 0. */
static double monitor_delta(unsigned long long a, unsigned long long b)
{
	return b >= a ? (double)(b - a) : 0.0;
}

/* CPU figures between two snapshots; false when no clock tick passed. */
static bool monitor_cpu_figures(const struct mon_snap *a, const struct mon_snap *b, double *v)
{
	double c[MON_NCPU], total = 0;

	memset(v, 0, sizeof(*v) * MON_NCPU_V);
	if (!a->cpu_ok || !b->cpu_ok)
		return false;
	for (int i = 0; i < MON_NCPU; i++) {
		c[i] = monitor_delta(a->cpu[i], b->cpu[i]);
		total += c[i];
	}
	if (total <= 0)
		return false;
	v[MON_V_USR] = 100.0 * (c[MON_USER] + c[MON_NICE]) / total;
	v[MON_V_SYS] = 100.0 * (c[MON_SYSTEM] + c[MON_IRQ] + c[MON_SOFTIRQ]) / total;
	v[MON_V_IOWAIT] = 100.0 * c[MON_IOWAIT] / total;
	v[MON_V_IDLE] = 100.0 * c[MON_IDLE] / total;
	v[MON_V_STEAL] = 100.0 * c[MON_STEAL] / total;
	v[MON_V_BUSY] = v[MON_V_USR] + v[MON_V_SYS] + v[MON_V_STEAL];
	return true;
}

/* One device's figures between two readings; false without both. */
static bool monitor_disk_figures(const struct mon_dsnap *a, const struct mon_dsnap *b, double *v)
{
	double dt = b->t - a->t;

	memset(v, 0, sizeof(*v) * MON_NQ);
	if (!a->ok || !b->ok || !(dt > 0))
		return false;
	const struct monitor_diskstat *x = &a->d, *y = &b->d;
	double rd = monitor_delta(x->rd, y->rd), wr = monitor_delta(x->wr, y->wr);
	double rt = monitor_delta(x->rticks, y->rticks), wt = monitor_delta(x->wticks, y->wticks);
	double util = 100.0 * monitor_delta(x->io_ticks, y->io_ticks) / (dt * 1000.0);

	/* io_ticks is counted in jiffies-rounded ms; clamp as iostat does */
	v[MON_Q_UTIL] = util > 100.0 ? 100.0 : util;
	v[MON_Q_AWAIT] = rd + wr > 0 ? (rt + wt) / (rd + wr) : 0.0;
	v[MON_Q_RAWAIT] = rd > 0 ? rt / rd : 0.0;
	v[MON_Q_WAWAIT] = wr > 0 ? wt / wr : 0.0;
	v[MON_Q_AQU] = monitor_delta(x->weighted, y->weighted) / (dt * 1000.0);
	v[MON_Q_RMB] = monitor_delta(x->rsec, y->rsec) * 512.0 / dt / 1e6;
	v[MON_Q_WMB] = monitor_delta(x->wsec, y->wsec) * 512.0 / dt / 1e6;
	v[MON_Q_RIOPS] = rd / dt;
	v[MON_Q_WIOPS] = wr / dt;
	return true;
}

/* Take what s read into prev: a failed read (the device went away) keeps
 * the last good one, so the next good reading covers the longer interval. */
static void monitor_merge(const struct monitor *m, struct mon_snap *prev, const struct mon_snap *s)
{
	if (s->cpu_ok) {
		prev->t = s->t;
		prev->cpu_ok = true;
		memcpy(prev->cpu, s->cpu, sizeof(prev->cpu));
	}
	for (int i = 0; i < m->ndev; i++)
		if (s->d[i].ok)
			prev->d[i] = s->d[i];
}

/* Room for one more point in the three arrays that grow together: the
 * times, the values (nv a point) and the ok flags (nok a point). */
static bool monitor_grow(struct monitor *m)
{
	size_t capt = m->cappts, capv = m->cappts, capo = m->cappts;
	if (GROW(m->pt, capt, m->npts + 1, 64) < 0 ||
	    grow_array(&m->pv, &capv, m->npts + 1, m->nv * sizeof(*m->pv), 64) < 0 ||
	    grow_array(&m->pok, &capo, m->npts + 1, m->nok * sizeof(*m->pok), 64) < 0) {
		m->oom = true;
		return false;
	}
	m->cappts = capt;
	return true;
}

static void monitor_add_point(struct monitor *m, const struct mon_snap *s)
{
	bool any = s->cpu_ok;
	for (int i = 0; i < m->ndev; i++)
		any = any || s->d[i].ok;
	if (!any || !monitor_grow(m))
		return;
	double *v = m->pv + m->npts * m->nv;
	unsigned char *ok = m->pok + m->npts * m->nok;
	m->pt[m->npts] = s->t - m->first.t;
	ok[0] = s->cpu_ok && monitor_cpu_figures(&m->prev, s, v);
	for (int i = 0; i < m->ndev; i++)
		ok[1 + i] = monitor_disk_figures(&m->prev.d[i], &s->d[i], v + MON_NCPU_V + i * MON_NQ);
	m->npts++;
	monitor_merge(m, &m->prev, s);
}

static void *monitor_thread(void *arg)
{
	struct monitor *m = arg;
	unsigned long k = 1;

	pthread_mutex_lock(&m->lock);
	while (!m->stop) {
		double due = m->first.t + (double)k * m->interval;
		struct timespec ts;
		clock_mono_timespec(due, &ts);
		int rc = pthread_cond_timedwait(&m->cond, &m->lock, &ts);
		if (m->stop)
			break;
		if (rc != ETIMEDOUT && clock_mono() < due)
			continue; /* spurious wake-up */
		pthread_mutex_unlock(&m->lock);
		struct mon_snap s;
		monitor_snap(m, &s);
		monitor_add_point(m, &s);
		noise_sample(m->noise);
		/* after a long stall (a suspended VM), skip the missed deadlines */
		k = (unsigned long)((s.t - m->first.t) / m->interval) + 1;
		pthread_mutex_lock(&m->lock);
	}
	pthread_mutex_unlock(&m->lock);
	return NULL;
}

static void monitor_warn(struct monitor *m, const char *fmt, const char *a, const char *b)
{
	if (m->nwarn < MON_MAXDEV)
		snprintf(m->warn[m->nwarn++], sizeof(m->warn[0]), fmt, a, b);
}

/* Add a device to sample under prefix (main: today's disk_* names). */
static struct mon_col_dev *monitor_add_dev(struct monitor *m, const char *prefix, bool main)
{
	if (m->ndev == MON_MAXDEV) {
		monitor_warn(m, "monitor: more than 32 devices, %s%s not sampled", prefix, "");
		return NULL;
	}
	struct mon_col_dev *dv = &m->dev[m->ndev++];
	memset(dv, 0, sizeof(*dv));
	dv->main = main;
	snprintf(dv->prefix, sizeof(dv->prefix), "%s", prefix);
	for (int q = 0; q < MON_NQ; q++)
		if (main)
			snprintf(dv->col[q], sizeof(dv->col[q]), "disk_%s", monitor_quantities[q].name);
		else
			snprintf(dv->col[q], sizeof(dv->col[q]), "%.160s.%s", prefix,
			         monitor_quantities[q].name);
	return dv;
}

/* Resolve a device node or a kernel name for monitor_start. */
static int monitor_resolve(struct monitor *m, const char *blockdev)
{
	struct stat st;
	unsigned int ma = 0, mi = 0;

	if (strchr(blockdev, '/')) {
		if (stat(blockdev, &st) != 0)
			return -errno;
		if (!S_ISBLK(st.st_mode))
			return -ENOTBLK;
		ma = major(st.st_rdev);
		mi = minor(st.st_rdev);
	} else if (!*blockdev || strlen(blockdev) >= sizeof(m->dev[0].name)) {
		return -EINVAL;
	}
	struct mon_col_dev *dv = monitor_add_dev(m, "disk", true);
	dv->major = ma;
	dv->minor = mi;
	if (!ma && !mi)
		snprintf(dv->name, sizeof(dv->name), "%s", blockdev);
	return 0;
}

static struct monitor *monitor_new(double interval_s)
{
	if (!(interval_s > 0) || interval_s > 86400) {
		errno = EINVAL;
		return NULL;
	}
	struct monitor *m = calloc(1, sizeof(*m));
	if (m)
		m->interval = interval_s;
	return m;
}

/* The first snapshot and the thread; frees m on failure. */
static struct monitor *monitor_begin(struct monitor *m)
{
	pthread_condattr_t ca;
	int rc;

	m->nv = MON_NCPU_V + (size_t)m->ndev * MON_NQ;
	m->nok = 1 + (size_t)m->ndev;
	monitor_snap(m, &m->first);
	if (!m->first.cpu_ok) {
		noise_stop(m->noise, NULL);
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
		noise_stop(m->noise, NULL);
		free(m);
		errno = rc;
		return NULL;
	}
	return m;
}

struct monitor *monitor_start(const char *blockdev, double interval_s)
{
	struct monitor *m = monitor_new(interval_s);
	int rc;

	if (!m)
		return NULL;
	if (blockdev && (rc = monitor_resolve(m, blockdev)) < 0) {
		free(m);
		errno = -rc;
		return NULL;
	}
	if (m->ndev) {
		struct mon_snap *s = malloc(sizeof(*s));
		int err = ENOMEM;
		if (s) {
			monitor_read_disks(m, s);
			err = s->d[0].ok ? 0 : ENODEV;
			free(s);
		}
		if (err) {
			free(m);
			errno = err;
			return NULL;
		}
	}
	return monitor_begin(m);
}

struct monitor *monitor_start_devs(const struct mon_devs *devs, double interval_s)
{
	struct monitor *m = monitor_new(interval_s);

	if (!m)
		return NULL;
	for (size_t i = 0; devs && i < devs->n; i++) {
		const struct mon_dev *d = &devs->v[i];
		struct mon_col_dev *dv = monitor_add_dev(m, d->prefix, !strcmp(d->prefix, "disk"));
		if (!dv)
			break;
		dv->major = d->major;
		dv->minor = d->minor;
		snprintf(dv->name, sizeof(dv->name), "%s", d->kname);
	}
	m->noise = noise_start();
	m = monitor_begin(m);
	if (!m)
		return NULL;
	/* a device the kernel does not list is left out, with a warning */
	for (int i = 0; i < m->ndev; i++)
		if (!m->first.d[i].ok)
			monitor_warn(m, "monitor: %s (%s) is not in /proc/diskstats, not sampled",
			             m->dev[i].prefix, m->dev[i].name);
	return m;
}

static void monitor_results(struct monitor *m, const struct mon_snap *last, struct step_result *res)
{
	double v[MON_NCPU_V + MON_NQ];

	if (monitor_cpu_figures(&m->first, last, v))
		for (int i = 0; i < MON_NCPU_V; i++)
			result_metric(res, monitor_cpu_names[i].name, v[i], monitor_cpu_names[i].unit);
	for (int d = 0; d < m->ndev; d++)
		if (monitor_disk_figures(&m->first.d[d], &last->d[d], v))
			for (int q = 0; q < MON_NQ; q++)
				result_metric(res, m->dev[d].col[q], v[q], monitor_quantities[q].unit);
	for (size_t k = 0; k < m->npts; k++) {
		const double *pv = m->pv + k * m->nv;
		const unsigned char *ok = m->pok + k * m->nok;
		double t = m->pt[k];
		if (ok[0])
			for (int i = 0; i < MON_NCPU_V; i++)
				result_sample(res, monitor_cpu_names[i].name, monitor_cpu_names[i].unit, t,
				              pv[i]);
		for (int d = 0; d < m->ndev; d++)
			if (ok[1 + d])
				for (int q = 0; q < MON_NQ; q++)
					result_sample(res, m->dev[d].col[q], monitor_quantities[q].unit, t,
					              pv[MON_NCPU_V + d * MON_NQ + q]);
	}
	for (int d = 0; d < m->ndev; d++) {
		const struct mon_col_dev *dv = &m->dev[d];
		if (!m->first.d[d].ok)
			continue;
		if (dv->main)
			result_info(res, "monitor.device", "%s (%u:%u)", dv->name, dv->major, dv->minor);
		else {
			char key[200];
			snprintf(key, sizeof(key), "monitor.%s", dv->prefix);
			result_info(res, key, "%s (%u:%u)", dv->name, dv->major, dv->minor);
		}
	}
	for (int i = 0; i < m->nwarn; i++)
		result_info(res, "warning", "%s", m->warn[i]);
	if (m->oom)
		result_info(res, "warning", "monitor: out of memory, some samples were lost");
}

void monitor_stop(struct monitor *m, struct step_result *res)
{
	if (!m)
		return;
	pthread_mutex_lock(&m->lock);
	m->stop = true;
	pthread_cond_signal(&m->cond);
	pthread_mutex_unlock(&m->lock);
	pthread_join(m->thread, NULL);

	struct mon_snap *last = malloc(sizeof(*last));
	if (last) {
		monitor_snap(m, last);
		/* a last partial interval counts when it is a quarter long */
		if (last->t - m->prev.t >= m->interval / 4)
			monitor_add_point(m, last);
		/* the whole-step figures end at each part's last good reading */
		monitor_merge(m, &m->prev, last);
		if (res)
			monitor_results(m, &m->prev, res);
		free(last);
	}
	noise_stop(m->noise, res);
	pthread_cond_destroy(&m->cond);
	pthread_mutex_destroy(&m->lock);
	free(m->pt);
	free(m->pv);
	free(m->pok);
	free(m);
}
