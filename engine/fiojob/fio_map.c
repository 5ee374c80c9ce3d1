/* fio_map: jobs of a fio job file -> steps of a scenario (see fio_map.h).
 *
 * fio runs the jobs between two stonewalls at the same time (a run group);
 * `new_group` (and stonewall) start a new reporting group. Jobs of one
 * reporting group with the same options become one step of `jobs` = the
 * sum of their numjobs (the same I/O by the same number of threads, which
 * the step reports together as group_reporting does); the other jobs each
 * become a step. A run group of more than one step becomes a `parallel:`
 * group (until: all: fio's next group waits for all of them). The
 * reporters do not sum a group's figures: a comment says so where fio's
 * group_reporting would have. */
#include "fio_map.h"

#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fio_mem.h"
#include "fio_opts.h"

static bool kv_equal(const struct fio_kv *a, const struct fio_kv *b)
{
	if (strcmp(a->key, b->key) || (a->val == NULL) != (b->val == NULL) || a->nsub != b->nsub)
		return false;
	if (a->val && strcmp(a->val, b->val))
		return false;
	for (size_t i = 0; i < a->nsub; i++)
		if (!kv_equal(&a->sub[i], &b->sub[i]))
			return false;
	return true;
}

/* The same io options, `jobs` aside. */
static bool same_io(const struct fio_kvl *a, const struct fio_kvl *b)
{
	size_t na = a->n - (fio_kv_get(a, "jobs") ? 1 : 0), nb = b->n - (fio_kv_get(b, "jobs") ? 1 : 0);
	if (na != nb)
		return false;
	for (size_t i = 0; i < a->n; i++) {
		if (!strcmp(a->kv[i].key, "jobs"))
			continue;
		const struct fio_kv *o = fio_kv_get(b, a->kv[i].key);
		if (!o || !kv_equal(&a->kv[i], o))
			return false;
	}
	return true;
}

static void problem(struct diag *d, bool partial, const struct src_pos *pos, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void problem(struct diag *d, bool partial, const struct src_pos *pos, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	char *msg = NULL;
	if (vasprintf(&msg, fmt, ap) < 0)
		abort();
	va_end(ap);
	/* an option of [global] is reported once, not once per job */
	for (size_t i = 0; i < d->n; i++)
		if (d->v[i].pos.file == pos->file && d->v[i].pos.line == pos->line &&
		    !strcmp(d->v[i].msg, msg)) {
			free(msg);
			return;
		}
	diag_add(d, partial ? DIAG_WARNING : DIAG_ERROR, pos, "%s", msg);
	free(msg);
}

/* The options of one job: the [global] sections above it, then its own;
 * the last value of an option wins, as in fio. */
static void effective(const struct fio_ini *ini, size_t job, const struct fio_opt ***out, size_t *n)
{
	size_t cap = 0;
	*out = NULL;
	*n = 0;
	for (size_t i = 0; i <= job; i++) {
		const struct fio_sec *s = &ini->sec[i];
		if (i != job && !s->global)
			continue;
		for (size_t k = 0; k < s->n; k++) {
			size_t at = 0;
			while (at < *n && strcmp((*out)[at]->key, s->opt[k].key))
				at++;
			if (at < *n) /* overridden: it moves to where it is set last */
				memmove(&(*out)[at], &(*out)[at + 1], (*n - at - 1) * sizeof(**out));
			else
				FIO_XGROW(*out, cap, *n + 1, 32);
			if (at == *n)
				(*n)++;
			(*out)[*n - 1] = &s->opt[k];
		}
	}
}

/* kb_base first: the sizes of every other option depend on it. */
static unsigned find_kb_base(const struct fio_opt **opts, size_t n, bool partial, struct diag *d)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(opts[i]->key, "kb_base")) {
			if (opts[i]->val && (!strcmp(opts[i]->val, "1000") || !strcmp(opts[i]->val, "1024")))
				return (unsigned)atoi(opts[i]->val);
			problem(d, partial, &opts[i]->pos, "unsupported value 'kb_base=%s': 1000 or 1024",
			        opts[i]->val ? opts[i]->val : "");
		}
	return 1024;
}

static void job_free(struct fio_job *j)
{
	free(j->name);
	fio_kvl_free(&j->io);
	fio_strs_free(&j->notes);
	free(j->dir);
	free(j->device);
	free(j->ss);
	free(j->ss_dur);
	free(j->ss_ramp);
}

/* Map job `k` of the file into j. Unsupported options and values are
 * reported (and become comments with partial). */
static void map_job(const struct fio_ini *ini, size_t k, bool partial, fio_engine_fn engine_of,
                    struct fio_job *j, struct diag *d)
{
	const struct fio_opt **opts;
	size_t n;
	effective(ini, k, &opts, &n);
	memset(j, 0, sizeof(*j));
	j->name = fio_xstrdup(ini->sec[k].name);
	j->numjobs = 1;
	j->invalidate = -1;
	j->prio = -1;
	j->target_pos = ini->sec[k].pos;
	j->engine_of = engine_of;
	j->kb_base = find_kb_base(opts, n, partial, d);
	for (size_t i = 0; i < n; i++) {
		const struct fio_opt *o = opts[i];
		char err[512] = "";
		char *had_dir = j->dir, *had_dev = j->device;
		int rc = fio_opt_apply(j, o, err, sizeof(err));
		if (j->dir != had_dir || j->device != had_dev)
			j->target_pos = o->pos;
		if (rc > 0)
			problem(d, partial, &o->pos, "unsupported option '%s'", o->key);
		else if (rc < 0)
			problem(d, partial, &o->pos, "unsupported value '%s%s%s': %s", o->key,
			        o->val ? "=" : "", o->val ? o->val : "", err);
		if (rc)
			fio_strs_add(&j->notes, "unsupported: %s%s%s (%s:%d)", o->key, o->val ? "=" : "",
			             o->val ? o->val : "", o->pos.file, o->pos.line);
	}
	char err[512];
	if (fio_job_finish(j, err, sizeof(err))) {
		problem(d, partial, &ini->sec[k].pos, "job '%s': %s", j->name, err);
		fio_strs_add(&j->notes, "unsupported: %s", err);
	}
	free(opts);
}

/* Names as the scenario takes them: letters, digits, '-', '_', '.'. */
static char *clean_name(const char *s)
{
	char *r = fio_xstrdup(*s ? s : "job");
	for (char *c = r; *c; c++)
		if (!isalnum((unsigned char)*c) && *c != '-' && *c != '_' && *c != '.')
			*c = '-';
	return r;
}

static bool name_taken(const struct fio_scenario *sc, const char *name)
{
	for (size_t i = 0; i < sc->n; i++)
		if ((sc->step[i].name && !strcmp(sc->step[i].name, name)) ||
		    (sc->step[i].group && !strcmp(sc->step[i].group, name)))
			return true;
	return false;
}

/* A name no step or group has yet: NAME, NAME-2, NAME-3, ... */
static char *unique_name(const struct fio_scenario *sc, const char *name)
{
	char *base = clean_name(name), *r = fio_xstrdup(base);
	for (int k = 2; name_taken(sc, r); k++) {
		free(r);
		if (asprintf(&r, "%s-%d", base, k) < 0)
			abort();
	}
	free(base);
	return r;
}

static struct fio_step *add_step(struct fio_scenario *sc, const char *name)
{
	char *uniq = unique_name(sc, name);
	FIO_XGROW(sc->step, sc->cap, sc->n + 1, 8);
	struct fio_step *st = &sc->step[sc->n++];
	memset(st, 0, sizeof(*st));
	st->name = uniq;
	return st;
}

static bool writes(const struct fio_kvl *io)
{
	const struct fio_kv *rw = fio_kv_get(io, "rw");
	return rw && strcmp(rw->val, "read") && strcmp(rw->val, "randread");
}

/* One target for the scenario: the first job's directory or device; a job
 * that names another one is reported. */
static void take_target(struct fio_scenario *sc, const struct fio_job *j, bool partial, struct diag *d)
{
	const char *kind = j->device ? "device" : j->dir ? "dir" : NULL;
	const char *path = j->device ? j->device : j->dir;
	if (!kind)
		return;
	if (!sc->target_path) {
		free(sc->target_kind);
		sc->target_kind = fio_xstrdup(kind);
		sc->target_path = fio_xstrdup(path);
	} else if (strcmp(sc->target_kind, kind) || strcmp(sc->target_path, path)) {
		problem(d, partial, &j->target_pos,
		        "job '%s' uses %s but an earlier job uses %s: a scenario has one target", j->name,
		        path, sc->target_path);
		fio_strs_add(&sc->notes, "unsupported: job '%s' uses %s (%s:%d)", j->name, path,
		             j->target_pos.file, j->target_pos.line);
	}
	if (j->device && writes(&j->io))
		sc->destroy = true;
}

static void step_from_job(struct fio_scenario *sc, struct fio_job *j, size_t k, size_t rgroup)
{
	struct fio_step *st = add_step(sc, j->name);
	st->io = j->io;
	st->job = k;
	st->rgroup = rgroup;
	memset(&j->io, 0, sizeof(j->io));
	for (size_t i = 0; i < j->notes.n; i++)
		fio_strs_add(&st->notes, "%s", j->notes.s[i]);
}

static void set_jobs(struct fio_step *st, uint64_t jobs)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%" PRIu64, jobs);
	if (jobs > 1)
		fio_kv_set(&st->io, "jobs", buf);
}

/* Whether fio prints reporting group rgroup of jobs [a, b) as one entry:
 * a job with group_reporting joins the entry before it when that entry is
 * of its group; one without starts its own (fio's stat.c). */
static bool fio_rgroup_merged(const struct fio_job *jobs, const size_t *rg, size_t a, size_t b, size_t rgroup)
{
	bool seen = false;
	for (size_t k = a; k < b; k++) {
		if (rg[k] != rgroup)
			continue;
		if (seen && !jobs[k].group_reporting)
			return false;
		seen = true;
	}
	return seen;
}

/* The jobs of one run group [a, b) (no stonewall between them); rg[k] is
 * job k's reporting group. */
static void map_group(struct fio_scenario *sc, struct fio_job *jobs, size_t a, size_t b, const size_t *rg)
{
	size_t first = sc->n;
	uint64_t *threads = fio_xrealloc(NULL, (b - a) * sizeof(*threads));
	for (size_t k = a; k < b; k++) {
		size_t s = first;
		while (s < sc->n && !(sc->step[s].rgroup == rg[k] && same_io(&sc->step[s].io, &jobs[k].io)))
			s++;
		if (s < sc->n) { /* the same options in the same reporting group */
			threads[s - first] += jobs[k].numjobs;
			set_jobs(&sc->step[s], threads[s - first]);
			fio_strs_add(&sc->step[s].notes,
			             "fio job '%s' runs with this step's other jobs as threads",
			             jobs[k].name);
			continue;
		}
		step_from_job(sc, &jobs[k], k, rg[k]);
		threads[sc->n - 1 - first] = jobs[k].numjobs;
	}
	free(threads);
	size_t n = sc->n - first;
	if (n < 2)
		return;
	struct fio_step *lead = &sc->step[first];
	char gname[48];
	snprintf(gname, sizeof(gname), "group%zu", rg[a]);
	lead->group = unique_name(sc, gname);
	lead->group_len = n;
	fio_strs_add(&lead->group_notes,
	             "fio runs these jobs at the same time (no stonewall between them): a parallel "
	             "group, which ends when all its steps have");
	/* fio's group_reporting sums the jobs of a reporting group; a step
	 * sums its own threads, and group_reporting: true sums a parallel
	 * group's steps, so a group that is one reporting group gets it */
	bool one_rg = true, data = true;
	for (size_t s = first; s < sc->n; s++) {
		one_rg = one_rg && sc->step[s].rgroup == lead->rgroup;
		data = data && !fio_kv_get(&sc->step[s].io, "op"); /* file operations add no I/O */
	}
	if (one_rg && data && fio_rgroup_merged(jobs, rg, a, b, lead->rgroup)) {
		lead->group_reporting = true;
		fio_strs_add(&lead->group_notes,
		             "fio reports these jobs as one group (group_reporting, groupid %zu): so does "
		             "the group's total, %s.iops, %s.lat_p99_us, ...",
		             lead->rgroup, lead->group, lead->group);
	}
	for (size_t s = first; s < sc->n && !(one_rg && data); s++) {
		bool rep = fio_rgroup_merged(jobs, rg, a, b, sc->step[s].rgroup), others = false;
		for (size_t t = first; t < sc->n; t++)
			others = others || (t != s && sc->step[t].rgroup == sc->step[s].rgroup);
		bool lead_of_rg = true;
		for (size_t t = first; t < s; t++)
			lead_of_rg = lead_of_rg && sc->step[t].rgroup != sc->step[s].rgroup;
		if (!rep || !others || !lead_of_rg)
			continue;
		char *names = NULL;
		for (size_t t = s; t < sc->n; t++) {
			if (sc->step[t].rgroup != sc->step[s].rgroup)
				continue;
			char *more;
			if (asprintf(&more, "%s%s%s", names ? names : "", names ? ", " : "",
			             sc->step[t].name) < 0)
				abort();
			free(names);
			names = more;
		}
		fio_strs_add(&lead->group_notes,
		             "fio reports steps %s as one group (group_reporting, groupid %zu): benchgrid "
		             "totals a whole parallel group of data I/O only (group_reporting: true), so "
		             "it reports each step",
		             names, sc->step[s].rgroup);
		free(names);
	}
	/* fio gives each job its own files (JOB.N.M); steps of a group that name
	 * none would share the io step's default file */
	for (size_t s = first; s < sc->n; s++)
		if (!fio_kv_get(&sc->step[s].io, "file")) {
			char buf[300];
			snprintf(buf, sizeof(buf), "%s.dat", sc->step[s].name);
			fio_kv_set(&sc->step[s].io, "file", buf);
		}
}

/* The io step's ranges of the whole-number keys an fio value can exceed
 * (engine/workloads/io: io_opts.c, io_files.c, io_rate_opts.c; the test
 * import_fio_limits runs `check` on what import writes): import writes
 * nothing `check` refuses. */
static const struct {
	const char *key;
	uint64_t lo, hi;
} io_limits[] = {
    {"jobs", 1, 256},          {"iodepth", 1, 4096},   {"nrfiles", 1, 1000000},
    {"openfiles", 1, 1000000}, {"seed", 0, INT64_MAX}, {"thinktime_blocks", 1, INT32_MAX},
};

/* Each step made from a group of jobs (steps first..): a value out of its
 * range is a problem at the step's first job, or with --partial left out
 * with a comment. */
static void check_limits(struct fio_scenario *sc, size_t first, const struct fio_job *jobs,
                         const struct src_pos *pos, bool partial, struct diag *d)
{
	for (size_t k = first; k < sc->n; k++) {
		struct fio_step *st = &sc->step[k];
		size_t job = st->job;
		for (size_t i = 0; i < sizeof(io_limits) / sizeof(io_limits[0]); i++) {
			const struct fio_kv *kv = fio_kv_get(&st->io, io_limits[i].key);
			if (!kv || !kv->val)
				continue;
			char *end;
			errno = 0;
			unsigned long long v = strtoull(kv->val, &end, 10);
			if (!errno && !*end && v >= io_limits[i].lo && v <= io_limits[i].hi)
				continue;
			problem(d, partial, &pos[job],
			        "job '%s': %s: %s is outside the io step's range %" PRIu64 "..%" PRIu64
			        " (benchgrid check would refuse it)%s",
			        jobs[job].name, io_limits[i].key, kv->val, io_limits[i].lo, io_limits[i].hi,
			        strcmp(io_limits[i].key, "jobs")
			            ? ""
			            : " (numjobs, summed over the identical jobs of a reporting group)");
			fio_strs_add(&st->notes,
			             "fio's %s=%s is outside the io step's range %" PRIu64 "..%" PRIu64
			             ": left out",
			             io_limits[i].key, kv->val, io_limits[i].lo, io_limits[i].hi);
			fio_kv_del(&st->io, io_limits[i].key);
		}
	}
}

static char *scenario_name(const char *source)
{
	const char *base = strrchr(source, '/');
	base = base ? base + 1 : source;
	char *r = clean_name(base);
	char *dot = strrchr(r, '.');
	if (dot && dot != r)
		*dot = 0;
	return r;
}

int fio_map(const struct fio_ini *ini, const char *source, bool partial, fio_engine_fn engine_of,
            struct fio_scenario *sc, struct diag *d)
{
	memset(sc, 0, sizeof(*sc));
	sc->source = fio_xstrdup(source);
	sc->name = scenario_name(source);
	sc->target_kind = fio_xstrdup("dir");
	size_t before = d->nerrors, n = 0;
	struct fio_job *jobs = fio_xrealloc(NULL, (ini->n + 1) * sizeof(*jobs));
	struct src_pos *pos = fio_xrealloc(NULL, (ini->n + 1) * sizeof(*pos));
	size_t *rg = fio_xrealloc(NULL, (ini->n + 1) * sizeof(*rg));
	for (size_t k = 0; k < ini->n; k++) {
		if (ini->sec[k].global)
			continue;
		map_job(ini, k, partial, engine_of, &jobs[n], d);
		pos[n++] = ini->sec[k].pos;
	}
	if (!n) {
		struct src_pos p = {diag_intern(source), 0, 0};
		diag_error(d, &p, "no jobs: the file has no section other than [global]");
	}
	/* fio's groupid: a stonewall or new_group after a job starts the next */
	for (size_t k = 0; k < n; k++)
		rg[k] = !k ? 0 : rg[k - 1] + (jobs[k].stonewall || jobs[k].new_group);
	for (size_t a = 0; a < n;) {
		size_t b = a + 1;
		while (b < n && !jobs[b].stonewall)
			b++;
		for (size_t k = a; k < b; k++)
			take_target(sc, &jobs[k], partial, d);
		size_t first = sc->n;
		map_group(sc, jobs, a, b, rg);
		check_limits(sc, first, jobs, pos, partial, d);
		a = b;
	}
	for (size_t k = 0; k < n; k++)
		job_free(&jobs[k]);
	free(jobs);
	free(pos);
	free(rg);
	return d->nerrors > before ? -1 : 0;
}

void fio_scenario_free(struct fio_scenario *sc)
{
	for (size_t i = 0; i < sc->n; i++) {
		free(sc->step[i].name);
		fio_kvl_free(&sc->step[i].io);
		fio_strs_free(&sc->step[i].notes);
		free(sc->step[i].group);
		fio_strs_free(&sc->step[i].group_notes);
	}
	free(sc->step);
	fio_strs_free(&sc->notes);
	free(sc->source);
	free(sc->name);
	free(sc->target_kind);
	free(sc->target_path);
	memset(sc, 0, sizeof(*sc));
}
