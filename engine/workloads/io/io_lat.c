/* io_lat: latency over time for the io step: per-interval percentiles in
 * the series, the per-I/O latency log and the histogram log (see io_lat.h
 * for the hot path and why the monitor needs no lock). */
#include "io_lat.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grow.h"
#include "io_job.h"
#include "io_opts.h"
#include "results_write.h"

/* One row of the histogram log: a bucket's count in one interval. */
struct io_hist_row {
	uint32_t ivl; /* index into the intervals */
	uint16_t rd;
	uint16_t bucket;
	uint64_t count;
};

struct io_lat_mon {
	struct io_job *jobs;
	unsigned njobs;
	const struct io_opts *o;
	const struct io_shared *sh;
	uint64_t cur[HIST_NBUCKETS], diff[HIST_NBUCKETS];
	uint64_t series_prev[2][HIST_NBUCKETS];
	struct hist ivl; /* scratch: one interval's histogram */
	/* the compact per-interval histograms kept in results.json (hist.h) */
	struct hist_text keep[2];
	double keep_t; /* end of the last interval kept (s since t0) */
	/* hist_log */
	uint64_t hist_prev[2][HIST_NBUCKETS];
	uint64_t hist_from;  /* start of the interval being counted (ns), 0 before the first */
	uint64_t hist_next;  /* when it ends */
	uint64_t *ivl_t;     /* per interval: start and end (ns since t0), in pairs */
	size_t nivl, capivl; /* capivl counts uint64_t, two per interval */
	struct io_hist_row *rows;
	size_t nrows, caprows;
	bool oom;
};

int io_lat_job_setup(struct io_job *j, const struct io_opts *o)
{
	for (int d = 0; d < 2; d++)
		if (!(j->lat_ivl[d] = calloc(HIST_NBUCKETS, sizeof(uint64_t))))
			return -ENOMEM;
	if (o->lat_log && !(j->lat_log = calloc(1, sizeof(*j->lat_log))))
		return -ENOMEM;
	return 0;
}

void io_lat_job_free(struct io_job *j)
{
	free(j->lat_ivl[0]);
	free(j->lat_ivl[1]);
	j->lat_ivl[0] = j->lat_ivl[1] = NULL;
	if (!j->lat_log)
		return;
	for (struct io_lat_chunk *c = j->lat_log->head, *next; c; c = next) {
		next = c->next;
		free(c);
	}
	free(j->lat_log);
	j->lat_log = NULL;
}

struct io_lat_mon *io_lat_mon_new(struct io_job *jobs, unsigned njobs, const struct io_opts *o,
                                  const struct io_shared *sh)
{
	struct io_lat_mon *m = calloc(1, sizeof(*m));
	if (!m)
		return NULL;
	m->jobs = jobs;
	m->njobs = njobs;
	m->o = o;
	m->sh = sh;
	return m;
}

void io_lat_mon_free(struct io_lat_mon *m)
{
	if (!m)
		return;
	free(m->ivl_t);
	free(m->rows);
	hist_text_free(&m->keep[0]);
	hist_text_free(&m->keep[1]);
	free(m);
}

void io_lat_take(struct io_job *jobs, unsigned njobs, bool rd, uint64_t *cur, uint64_t *prev, uint64_t *diff)
{
	memset(cur, 0, HIST_NBUCKETS * sizeof(uint64_t));
	for (unsigned i = 0; i < njobs; i++) {
		const uint64_t *b = io_job_published(&jobs[i])->lat_ivl[rd];
		if (!b)
			continue;
		for (unsigned k = 0; k < HIST_NBUCKETS; k++)
			cur[k] += __atomic_load_n(&b[k], __ATOMIC_RELAXED);
	}
	for (unsigned k = 0; k < HIST_NBUCKETS; k++) {
		diff[k] = cur[k] - prev[k];
		prev[k] = cur[k];
	}
}

static uint64_t io_lat_mid(unsigned k)
{
	uint64_t lo = hist_bucket_low(k), hi = hist_bucket_high(k);
	return lo + (hi - lo) / 2;
}

void io_lat_ivl_hist(struct hist *h, const uint64_t *diff)
{
	hist_init(h);
	for (unsigned k = 0; k < HIST_NBUCKETS; k++) {
		if (!diff[k])
			continue;
		uint64_t mid = io_lat_mid(k);
		h->bucket[k] = diff[k];
		h->count += diff[k];
		h->sum += diff[k] * mid;
		h->sumsq += (double)diff[k] * (double)mid * (double)mid;
		if (mid < h->min)
			h->min = mid;
		h->max = mid;
	}
}

/* The I/Os since the previous call into the kept histograms, and with res
 * their percentiles as samples at t. */
static void io_lat_take_ivl(struct io_lat_mon *m, struct step_result *res, double t)
{
	static const char *const names[2][4] = {
	    {"write_lat_p50_us", "write_lat_p99_us", "write_lat_p999_us", "write_lat_max_us"},
	    {"read_lat_p50_us", "read_lat_p99_us", "read_lat_p999_us", "read_lat_max_us"},
	};
	if (!m)
		return;
	for (int rd = 0; rd < 2; rd++) {
		io_lat_take(m->jobs, m->njobs, rd, m->cur, m->series_prev[rd], m->diff);
		io_lat_ivl_hist(&m->ivl, m->diff);
		if (rd ? io_rw_reads(m->o->rw) : io_rw_writes(m->o->rw))
			hist_text_add(&m->keep[rd], m->keep_t, t, m->diff);
		if (!m->ivl.count || !res)
			continue;
		result_sample(res, names[rd][0], "us", t, (double)hist_percentile(&m->ivl, 50) / 1e3);
		result_sample(res, names[rd][1], "us", t, (double)hist_percentile(&m->ivl, 99) / 1e3);
		result_sample(res, names[rd][2], "us", t, (double)hist_percentile(&m->ivl, 99.9) / 1e3);
		result_sample(res, names[rd][3], "us", t, (double)hist_max(&m->ivl) / 1e3);
	}
	m->keep_t = t;
}

void io_lat_series(struct io_lat_mon *m, struct step_result *res, double t)
{
	io_lat_take_ivl(m, res, t);
}

void io_lat_tail(struct io_lat_mon *m, double t)
{
	if (m && t > m->keep_t)
		io_lat_take_ivl(m, NULL, t);
}

uint64_t io_lat_hist_due(const struct io_lat_mon *m)
{
	if (!m || m->o->hist_log <= 0 || m->oom)
		return UINT64_MAX;
	if (!m->hist_from) /* the first interval starts with the measured part */
		return m->sh->measure_start == UINT64_MAX
		           ? UINT64_MAX
		           : m->sh->measure_start + (uint64_t)(m->o->hist_log * 1e9);
	return m->hist_next;
}

/* Take one interval of the histogram log, [hist_from, now). */
static void io_lat_hist_take(struct io_lat_mon *m, uint64_t now)
{
	uint64_t t0 = m->sh->t0;
	if (GROW(m->ivl_t, m->capivl, 2 * m->nivl + 2, 64) < 0) {
		m->oom = true;
		return;
	}
	for (int rd = 0; rd < 2; rd++) {
		io_lat_take(m->jobs, m->njobs, rd, m->cur, m->hist_prev[rd], m->diff);
		size_t need = 0;
		for (unsigned k = 0; k < HIST_NBUCKETS; k++)
			need += m->diff[k] != 0;
		if (GROW(m->rows, m->caprows, m->nrows + need, 64) < 0) {
			m->oom = true;
			return;
		}
		for (unsigned k = 0; k < HIST_NBUCKETS; k++)
			if (m->diff[k])
				m->rows[m->nrows++] = (struct io_hist_row){(uint32_t)m->nivl, (uint16_t)rd,
				                                           (uint16_t)k, m->diff[k]};
	}
	m->ivl_t[2 * m->nivl] = m->hist_from - t0;
	m->ivl_t[2 * m->nivl + 1] = now - t0;
	m->nivl++;
}

void io_lat_hist_tick(struct io_lat_mon *m, uint64_t now, bool final)
{
	uint64_t due = io_lat_hist_due(m);
	if (due == UINT64_MAX || (!final && now < due))
		return;
	uint64_t step = (uint64_t)(m->o->hist_log * 1e9);
	if (!m->hist_from)
		m->hist_from = m->sh->measure_start;
	if (final && now <= m->hist_from)
		return;
	io_lat_hist_take(m, now);
	m->hist_from = now;
	m->hist_next = due;
	while (m->hist_next <= now)
		m->hist_next += step;
}

/* A job's place in the merge of the logs by time. */
struct io_lat_cursor {
	const struct io_lat_chunk *c;
	size_t i;
	unsigned job;
};

static const struct io_lat_rec *io_lat_at(const struct io_lat_cursor *k)
{
	return &k->c->rec[k->i];
}

static void io_lat_sift(struct io_lat_cursor *h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, r = l + 1, m = i;
		if (l < n && io_lat_at(&h[l])->t < io_lat_at(&h[m])->t)
			m = l;
		if (r < n && io_lat_at(&h[r])->t < io_lat_at(&h[m])->t)
			m = r;
		if (m == i)
			return;
		struct io_lat_cursor x = h[i];
		h[i] = h[m];
		h[m] = x;
		i = m;
	}
}

/* Every job's records in time order (a heap over the jobs' cursors). */
static int io_lat_log_rows(struct io_lat_mon *m, FILE *f)
{
	struct io_lat_cursor *h = calloc(m->njobs ? m->njobs : 1, sizeof(*h));
	size_t n = 0;
	if (!h)
		return -ENOMEM;
	for (unsigned i = 0; i < m->njobs; i++) {
		struct io_lat_log *l = m->jobs[i].lat_log;
		if (!l || !l->tail)
			continue;
		l->tail->n = (size_t)(l->cur - l->tail->rec);
		if (l->head->n)
			h[n++] = (struct io_lat_cursor){l->head, 0, i};
	}
	for (size_t i = n; i-- > 0;)
		io_lat_sift(h, n, i);
	uint64_t t0 = m->sh->t0;
	while (n) {
		const struct io_lat_rec *r = io_lat_at(&h[0]);
		uint64_t dt = r->t - t0;
		fprintf(f, "%llu.%09llu,%u,%s,%llu.%03llu,%u,%llu\r\n",
		        (unsigned long long)(dt / 1000000000u), (unsigned long long)(dt % 1000000000u),
		        h[0].job, r->rd ? "read" : "write", (unsigned long long)(r->lat / 1000),
		        (unsigned long long)(r->lat % 1000), r->len, (unsigned long long)r->off);
		if (++h[0].i == h[0].c->n) {
			h[0].c = h[0].c->next;
			h[0].i = 0;
			while (h[0].c && !h[0].c->n)
				h[0].c = h[0].c->next;
			if (!h[0].c)
				h[0] = h[--n];
		}
		io_lat_sift(h, n, 0);
	}
	free(h);
	return 0;
}

static void io_lat_secs(FILE *f, uint64_t ns)
{
	fprintf(f, "%llu.%09llu", (unsigned long long)(ns / 1000000000u),
	        (unsigned long long)(ns % 1000000000u));
}

static int io_lat_hist_rows(struct io_lat_mon *m, FILE *f)
{
	static const char *const dir[2] = {"write", "read"};
	bool uses[2] = {io_rw_writes(m->o->rw), io_rw_reads(m->o->rw)};
	size_t r = 0;
	for (size_t i = 0; i < m->nivl; i++) {
		for (int rd = 0; rd < 2; rd++) {
			bool any = false;
			for (; r < m->nrows && m->rows[r].ivl == i && m->rows[r].rd == rd; r++) {
				const struct io_hist_row *w = &m->rows[r];
				io_lat_secs(f, m->ivl_t[2 * i]);
				fputc(',', f);
				io_lat_secs(f, m->ivl_t[2 * i + 1]);
				fprintf(f, ",%s,%u,%llu,%llu,%llu\r\n", dir[rd], w->bucket,
				        (unsigned long long)hist_bucket_low(w->bucket),
				        (unsigned long long)hist_bucket_high(w->bucket),
				        (unsigned long long)w->count);
				any = true;
			}
			if (!any && uses[rd]) { /* nothing completed: an empty histogram */
				io_lat_secs(f, m->ivl_t[2 * i]);
				fputc(',', f);
				io_lat_secs(f, m->ivl_t[2 * i + 1]);
				fprintf(f, ",%s,,,,0\r\n", dir[rd]);
			}
		}
	}
	return 0;
}

/* Write one file of the cell's directory with fn; 0 or a negative errno. */
static int io_lat_file(struct io_lat_mon *m, int dfd, const char *name, const char *header,
                       int (*fn)(struct io_lat_mon *, FILE *))
{
	struct results_file rf;
	int rc = results_file_open(&rf, dfd, name);
	if (rc < 0)
		return rc;
	errno = 0;
	fputs(header, rf.f);
	rc = fn(m, rf.f);
	if (rc || ferror(rf.f)) {
		rc = rc ? rc : -(errno ? errno : EIO);
		results_file_abort(&rf);
		return rc;
	}
	return results_file_commit(&rf);
}

int io_lat_write(struct io_lat_mon *m, const struct step_ctx *cx, struct step_result *res)
{
	const struct io_opts *o = m ? m->o : NULL;
	/* the latency charts' data (docs/results.md): only when whole */
	bool kept = false;
	for (int rd = 0; m && rd < 2; rd++)
		if (m->keep[rd].count && hist_text_str(&m->keep[rd])) {
			result_info(res, rd ? "read.lat_hist" : "write.lat_hist", "%s", m->keep[rd].s);
			kept = true;
		}
	if (kept) /* what the charts count, so the reporters need not know io */
		result_info(res, "lat_hist_of", "I/Os");
	if (!o || (!o->lat_log && o->hist_log <= 0))
		return 0;
	if (m->oom) {
		result_fail(res, "io: out of memory keeping the histogram log");
		return -ENOMEM;
	}
	uint64_t dropped = 0;
	for (unsigned i = 0; i < m->njobs; i++)
		if (m->jobs[i].lat_log)
			dropped += m->jobs[i].lat_log->dropped;
	if (dropped) {
		result_fail(res, "io: out of memory keeping the latency log (%llu I/Os not logged)",
		            (unsigned long long)dropped);
		return -ENOMEM;
	}
	if (!cx->cell_dir && cx->cell_dirfd <= 0) {
		result_fail(res, "io: lat_log and hist_log need the cell's directory, and there is none");
		return -ENOENT;
	}
	int dfd = cx->cell_dirfd > 0 ? cx->cell_dirfd
	                             : open(cx->cell_dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int rc = dfd < 0 ? -errno : 0;
	char name[192] = "its files";
	const char *what = o->lat_log ? "lat_log" : "hist_log";
	if (!rc && o->lat_log) {
		step_file_name(cx, "lat.csv", name, sizeof(name));
		what = "lat_log";
		rc = io_lat_file(m, dfd, name, "time_s,job,dir,lat_us,bytes,offset\r\n", io_lat_log_rows);
		if (!rc)
			result_info(res, "lat_log", "%s/%s", cx->cell_dir ? cx->cell_dir : ".", name);
	}
	if (!rc && o->hist_log > 0) {
		step_file_name(cx, "hist.csv", name, sizeof(name));
		what = "hist_log";
		rc = io_lat_file(m, dfd, name, "start_s,end_s,dir,bucket,low_ns,high_ns,count\r\n",
		                 io_lat_hist_rows);
		if (!rc)
			result_info(res, "hist_log", "%s/%s", cx->cell_dir ? cx->cell_dir : ".", name);
	}
	if (dfd >= 0 && dfd != cx->cell_dirfd)
		close(dfd);
	if (rc < 0)
		result_fail(res, "io: %s: cannot write %s in %s: %s", what, name,
		            cx->cell_dir ? cx->cell_dir : "the cell's directory", strerror(-rc));
	return rc;
}
