/* store_query: the history, the facts of a run, the setups' seconds. */
#include "store_query.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "store_db.h"

static char *dupn(const char *s)
{
	return s ? strdup(s) : NULL;
}

static double numv(const char *s)
{
	return s ? strtod(s, NULL) : NAN;
}

struct setup_acc {
	char run_id[64];
	double v[3];
	bool found;
};

static int first_run(void *arg, int ncol, const char *const *vals)
{
	struct setup_acc *a = arg;
	if (ncol >= 1 && vals[0]) {
		snprintf(a->run_id, sizeof(a->run_id), "%s", vals[0]);
		a->found = true;
	}
	return 1;
}

static int setup_row(void *arg, int ncol, const char *const *vals)
{
	struct setup_acc *a = arg;
	for (int i = 0; i < 3 && i < ncol; i++)
		a->v[i] = numv(vals[i]);
	return 1;
}

int store_last_setup_seconds(const char *store_spec, const char *scenario_name, double *fs_s, double *pg_s,
                             double *data_s)
{
	char spec[4096], err[512];
	*fs_s = *pg_s = *data_s = NAN;
	if (!store_resolve(store_spec, spec, sizeof(spec)))
		return -ENOENT;
	struct store *s;
	int rc = store_open(spec, true, &s, err, sizeof(err));
	if (rc < 0)
		return rc == -ENOENT ? -ENOENT : rc;
	struct setup_acc a = {.v = {NAN, NAN, NAN}};
	const char *p[] = {scenario_name};
	rc = -EIO;
	if (sdb_exec(s,
	             "SELECT r.run_id FROM runs r WHERE r.scenario = $1 AND EXISTS (SELECT 1 FROM cells c"
	             " WHERE c.run_id = r.run_id AND (c.setup_fs_s IS NOT NULL OR c.setup_pg_s IS NOT NULL"
	             " OR c.setup_data_s IS NOT NULL)) ORDER BY r.started DESC LIMIT 1",
	             1, p, first_run, &a) < 0)
		goto out;
	rc = -ENOENT;
	if (!a.found)
		goto out;
	const char *q[] = {a.run_id};
	rc = -EIO;
	if (sdb_exec(
	        s, "SELECT avg(setup_fs_s), avg(setup_pg_s), avg(setup_data_s) FROM cells WHERE run_id = $1",
	        1, q, setup_row, &a) < 0)
		goto out;
	*fs_s = a.v[0];
	*pg_s = a.v[1];
	*data_s = a.v[2];
	rc = 0;
out:
	store_close(s);
	return rc;
}

struct points {
	struct store_point *p;
	size_t n, cap;
	bool oom;
};

static int point_row(void *arg, int ncol, const char *const *v)
{
	struct points *P = arg;
	if (ncol < 9)
		return 1;
	if (GROW(P->p, P->cap, P->n + 1, 64) < 0) {
		P->oom = true;
		return 1;
	}
	struct store_point *pt = &P->p[P->n++];
	memset(pt, 0, sizeof(*pt));
	snprintf(pt->run_id, sizeof(pt->run_id), "%s", v[0] ? v[0] : "");
	pt->started = numv(v[1]);
	pt->host = dupn(v[2] ? v[2] : "?");
	pt->cell_id = dupn(v[3] ? v[3] : "");
	pt->label = dupn(v[4] ? v[4] : "");
	pt->value = numv(v[5]);
	pt->unit = dupn(v[6] ? v[6] : "");
	pt->n = v[7] ? atol(v[7]) : 0;
	pt->tool_version = dupn(v[8] ? v[8] : "?");
	return 0;
}

int store_history(struct store *s, const char *scenario, const char *step, const char *metric,
                  const struct store_where *w, size_t nw, struct store_point **out, size_t *n, char *err,
                  size_t errlen)
{
	*out = NULL;
	*n = 0;
	if (nw > 16) {
		snprintf(err, errlen, "at most 16 --where filters");
		return -1;
	}
	char sql[4096];
	int len = snprintf(sql, sizeof(sql),
	                   "SELECT r.run_id, r.started, c.host, c.cell_id, c.label, m.value, m.unit, m.n,"
	                   " r.tool_version FROM runs r JOIN cells c ON c.run_id = r.run_id JOIN metrics m"
	                   " ON m.run_id = c.run_id AND m.cell_id = c.cell_id"
	                   " WHERE r.scenario = $1 AND m.step = $2 AND m.metric = $3");
	const char *p[3 + 2 * 16] = {scenario, step, metric};
	for (size_t i = 0; i < nw; i++) {
		len += snprintf(sql + len, sizeof(sql) - (size_t)len,
		                " AND EXISTS (SELECT 1 FROM params p WHERE p.run_id = c.run_id"
		                " AND p.cell_id = c.cell_id AND p.name = $%zu AND p.value = $%zu)",
		                4 + 2 * i, 5 + 2 * i);
		p[3 + 2 * i] = w[i].name;
		p[4 + 2 * i] = w[i].value;
	}
	snprintf(sql + len, sizeof(sql) - (size_t)len, " ORDER BY r.started, r.run_id, c.cell_index");
	struct points P = {0};
	if (sdb_exec(s, sql, 3 + 2 * (int)nw, p, point_row, &P) < 0 || P.oom) {
		snprintf(err, errlen, "%s", P.oom ? "out of memory" : s->err);
		store_points_free(P.p, P.n);
		return -1;
	}
	*out = P.p;
	*n = P.n;
	return 0;
}

int store_cell_runs(struct store *s, const char *scenario, const char *cell_id, const char *host,
                    const char *fingerprint, const char *step, const char *metric, double before,
                    const char *const *skip, size_t nskip, size_t max, struct store_point **out, size_t *n,
                    char *err, size_t errlen)
{
	char b[64];
	*out = NULL;
	*n = 0;
	snprintf(b, sizeof(b), "%.17g", before);
	const char *p[] = {scenario, cell_id, host, step, metric, b, fingerprint ? fingerprint : ""};
	struct points P = {0};
	if (sdb_exec(s,
	             "SELECT r.run_id, r.started, c.host, c.cell_id, c.label, COALESCE(m.median, m.value),"
	             " m.unit, m.n, r.tool_version FROM runs r JOIN cells c ON c.run_id = r.run_id"
	             " JOIN metrics m ON m.run_id = c.run_id AND m.cell_id = c.cell_id"
	             " WHERE r.scenario = $1 AND c.cell_id = $2 AND c.host = $3 AND m.step = $4"
	             " AND m.metric = $5 AND r.started < CAST($6 AS DOUBLE PRECISION) AND c.status = 'ok'"
	             " AND ($7 = '' OR EXISTS (SELECT 1 FROM facts f WHERE f.run_id = c.run_id"
	             " AND f.cell_id = c.cell_id AND f.key = 'fingerprint' AND f.value = $7))"
	             " ORDER BY r.started DESC, r.run_id",
	             7, p, point_row, &P) < 0 ||
	    P.oom) {
		snprintf(err, errlen, "%s", P.oom ? "out of memory" : s->err);
		store_points_free(P.p, P.n);
		return -1;
	}
	/* Keep the first `max` with a value that are not skipped; free the rest. */
	size_t k = 0;
	for (size_t i = 0; i < P.n; i++) {
		bool keep = k < max && isfinite(P.p[i].value);
		for (size_t j = 0; keep && j < nskip; j++)
			keep = strcmp(P.p[i].run_id, skip[j]) != 0;
		if (keep) {
			struct store_point t = P.p[k];
			P.p[k++] = P.p[i];
			P.p[i] = t;
		}
	}
	for (size_t i = k; i < P.n; i++) {
		free(P.p[i].host);
		free(P.p[i].cell_id);
		free(P.p[i].label);
		free(P.p[i].unit);
		free(P.p[i].tool_version);
	}
	*out = P.p;
	*n = k;
	return 0;
}

void store_points_free(struct store_point *p, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(p[i].host);
		free(p[i].cell_id);
		free(p[i].label);
		free(p[i].unit);
		free(p[i].tool_version);
	}
	free(p);
}

struct metric_pick {
	char step[256], metric[256];
	int rank; /* 0 none yet; lower is better */
	char first_step[256];
};

static int pick_row(void *arg, int ncol, const char *const *v)
{
	static const char *const pref[] = {"tps", "iops", "mb_s"};
	struct metric_pick *m = arg;
	if (ncol < 2 || !v[0] || !v[1])
		return 0;
	if (!*m->first_step)
		snprintf(m->first_step, sizeof(m->first_step), "%s", v[0]);
	if (strcmp(m->first_step, v[0]))
		return 1; /* the first step only */
	int rank = 4;
	for (int i = 0; i < 3; i++)
		if (!strcmp(v[1], pref[i]))
			rank = i + 1;
	if (!m->rank || rank < m->rank) {
		snprintf(m->step, sizeof(m->step), "%s", v[0]);
		snprintf(m->metric, sizeof(m->metric), "%s", v[1]);
		m->rank = rank;
	}
	return 0;
}

/* A row "step", "headline names": the first name. */
static int pick_headline(void *arg, int ncol, const char *const *v)
{
	struct metric_pick *m = arg;
	if (ncol < 2 || !v[0] || !v[1] || !*v[1] || m->rank)
		return 0;
	snprintf(m->step, sizeof(m->step), "%s", v[0]);
	snprintf(m->metric, sizeof(m->metric), "%.*s", (int)strcspn(v[1], " "), v[1]);
	m->rank = 1;
	return 0;
}

int store_default_metric(struct store *s, const char *scenario, char *step, size_t steplen, char *metric,
                         size_t metriclen, char *err, size_t errlen)
{
	struct metric_pick m = {.rank = 0};
	const char *p[] = {scenario};
	/* The headline rule's first metric of the first step (headline.h), as
	 * recorded with the latest run's first cell; runs stored before it was
	 * recorded: the first step's tps, iops or mb_s. */
	if (sdb_exec(s,
	             "SELECT st.step, f.value FROM steps st JOIN facts f ON f.run_id = st.run_id"
	             " AND f.cell_id = st.cell_id AND f.key = 'headline.' || st.step WHERE st.rep = 1"
	             " AND st.run_id = (SELECT run_id FROM runs WHERE scenario = $1 ORDER BY started DESC"
	             " LIMIT 1) AND st.cell_id = (SELECT c.cell_id FROM cells c JOIN runs r ON r.run_id ="
	             " c.run_id WHERE r.scenario = $1 ORDER BY r.started DESC, c.cell_index LIMIT 1)"
	             " ORDER BY st.step_index LIMIT 1",
	             1, p, pick_headline, &m) < 0) {
		snprintf(err, errlen, "%s", s->err);
		return -1;
	}
	if (m.rank) {
		snprintf(step, steplen, "%s", m.step);
		snprintf(metric, metriclen, "%s", m.metric);
		return 0;
	}
	/* The steps in the order of the latest run's first cell. */
	if (sdb_exec(s,
	             "SELECT st.step, m.metric FROM steps st JOIN metrics m ON m.run_id = st.run_id"
	             " AND m.cell_id = st.cell_id AND m.step = st.step WHERE st.rep = 1 AND st.run_id ="
	             " (SELECT run_id FROM runs WHERE scenario = $1 ORDER BY started DESC LIMIT 1)"
	             " AND st.cell_id = (SELECT c.cell_id FROM cells c JOIN runs r ON r.run_id = c.run_id"
	             " WHERE r.scenario = $1 ORDER BY r.started DESC, c.cell_index LIMIT 1)"
	             " ORDER BY st.step_index, m.metric",
	             1, p, pick_row, &m) < 0) {
		snprintf(err, errlen, "%s", s->err);
		return -1;
	}
	if (!m.rank)
		return -ENOENT;
	snprintf(step, steplen, "%s", m.step);
	snprintf(metric, metriclen, "%s", m.metric);
	return 0;
}

struct facts {
	struct store_fact *f;
	size_t n, cap;
	bool oom;
};

static int fact_row(void *arg, int ncol, const char *const *v)
{
	struct facts *F = arg;
	if (ncol < 2 || !v[0])
		return 0;
	if (GROW(F->f, F->cap, F->n + 1, 64) < 0) {
		F->oom = true;
		return 1;
	}
	F->f[F->n].key = strdup(v[0]);
	F->f[F->n].value = dupn(v[1] ? v[1] : "");
	F->n++;
	return 0;
}

int store_facts(struct store *s, const char *run_id, const char *cell_id, struct store_fact **out, size_t *n,
                char *err, size_t errlen)
{
	struct facts F = {0};
	const char *p[] = {run_id, cell_id};
	*out = NULL;
	*n = 0;
	if (sdb_exec(s,
	             "SELECT key, value FROM (SELECT key, value FROM environment WHERE run_id = $1"
	             " UNION ALL SELECT key, value FROM facts WHERE run_id = $1 AND cell_id = $2) AS f"
	             " ORDER BY key",
	             2, p, fact_row, &F) < 0 ||
	    F.oom) {
		snprintf(err, errlen, "%s", F.oom ? "out of memory" : s->err);
		store_facts_free(F.f, F.n);
		return -1;
	}
	*out = F.f;
	*n = F.n;
	return 0;
}

void store_facts_free(struct store_fact *f, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(f[i].key);
		free(f[i].value);
	}
	free(f);
}

struct names {
	char **v;
	size_t n, cap;
	bool oom;
};

/* One row as its columns joined by tabs. */
static int name_row(void *arg, int ncol, const char *const *v)
{
	struct names *N = arg;
	if (ncol < 1 || !v[0])
		return 0;
	if (GROW(N->v, N->cap, N->n + 1, 32) < 0) {
		N->oom = true;
		return 1;
	}
	char *line = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&line, &len);
	for (int i = 0; f && i < ncol; i++)
		fprintf(f, "%s%s", i ? "\t" : "", v[i] ? v[i] : "");
	if (!f || fclose(f) != 0) {
		N->oom = true;
		return 1;
	}
	N->v[N->n++] = line;
	return 0;
}

static int list_rows(struct store *s, const char *sql, int np, const char *const *p, char ***out, size_t *n,
                     char *err, size_t errlen)
{
	struct names N = {0};
	long rc = sdb_exec(s, sql, np, p, name_row, &N);
	if (rc < 0 || N.oom) {
		snprintf(err, errlen, "%s", rc < 0 ? s->err : "out of memory");
		store_names_free(N.v, N.n);
		return -1;
	}
	*out = N.v;
	*n = N.n;
	return 0;
}

int store_list_scenarios(struct store *s, char ***out, size_t *n, char *err, size_t errlen)
{
	return list_rows(s,
	                 "SELECT scenario, COUNT(*), CAST(MAX(started) AS BIGINT) FROM runs GROUP BY scenario"
	                 " ORDER BY scenario",
	                 0, NULL, out, n, err, errlen);
}

int store_list_metrics(struct store *s, const char *scenario, char ***out, size_t *n, char *err,
                       size_t errlen)
{
	const char *p[] = {scenario};
	return list_rows(s,
	                 "SELECT m.step || '.' || m.metric, MAX(m.unit) FROM metrics m JOIN runs r"
	                 " ON r.run_id = m.run_id WHERE r.scenario = $1 GROUP BY m.step, m.metric"
	                 " ORDER BY m.step, m.metric",
	                 1, p, out, n, err, errlen);
}

void store_names_free(char **v, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(v[i]);
	free(v);
}
