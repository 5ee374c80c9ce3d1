/* store_runs: runs' folders and commits, a scenario's cells (see
 * store_runs.h). */
#include "store_runs.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "store_db.h"
#include "store_query.h"

struct meta_acc {
	struct store_run_meta *v;
	size_t n, cap;
	bool oom;
};

static char *dupn(const char *s)
{
	return s && *s ? strdup(s) : NULL;
}

static int meta_row(void *arg, int ncol, const char *const *v)
{
	struct meta_acc *a = arg;
	if (ncol < 5 || !v[0])
		return 0;
	if (GROW(a->v, a->cap, a->n + 1, 16) < 0) {
		a->oom = true;
		return 1;
	}
	struct store_run_meta *m = &a->v[a->n++];
	memset(m, 0, sizeof(*m));
	snprintf(m->run_id, sizeof(m->run_id), "%s", v[0]);
	m->started = v[1] ? strtod(v[1], NULL) : 0;
	m->dir = dupn(v[2]);
	/* the software under test's commit before benchgrid's own */
	m->commit = dupn(v[3] ? v[3] : v[4]);
	return 0;
}

int store_runs_meta(struct store *s, const char *scenario, struct store_run_meta **out, size_t *n, char *err,
                    size_t errlen)
{
	/* MIN: one value when several cells record one (they normally agree) */
	static const char sql[] =
	    "SELECT r.run_id, r.started, r.output_dir,"
	    " (SELECT MIN(v) FROM (SELECT f.value AS v FROM facts f WHERE f.run_id = r.run_id"
	    "   AND (f.key = 'commit' OR f.key LIKE '%.commit') AND f.key <> 'benchgrid.commit'"
	    "   UNION ALL SELECT e.value FROM environment e WHERE e.run_id = r.run_id"
	    "   AND (e.key = 'commit' OR e.key LIKE '%.commit') AND e.key <> 'benchgrid.commit') AS c),"
	    " (SELECT MIN(e.value) FROM environment e WHERE e.run_id = r.run_id"
	    "   AND e.key = 'benchgrid.commit')"
	    " FROM runs r WHERE r.scenario = $1 ORDER BY r.started, r.run_id";
	struct meta_acc a = {0};
	const char *p[] = {scenario};
	long rc = sdb_exec(s, sql, 1, p, meta_row, &a);
	if (rc < 0 || a.oom) {
		snprintf(err, errlen, "%s", rc < 0 ? s->err : "out of memory");
		store_runs_meta_free(a.v, a.n);
		return -1;
	}
	*out = a.v;
	*n = a.n;
	return 0;
}

void store_runs_meta_free(struct store_run_meta *m, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(m[i].dir);
		free(m[i].commit);
	}
	free(m);
}

struct lines {
	char **v;
	size_t n, cap;
	bool oom;
};

static int cell_row(void *arg, int ncol, const char *const *v)
{
	struct lines *L = arg;
	if (ncol < 3)
		return 0;
	char *line = NULL;
	if (GROW(L->v, L->cap, L->n + 1, 16) < 0 ||
	    asprintf(&line, "%s\t%s\t%s", v[0] && *v[0] ? v[0] : "all", v[1] ? v[1] : "", v[2] ? v[2] : "0") <
	        0) {
		L->oom = true;
		return 1;
	}
	L->v[L->n++] = line;
	return 0;
}

int store_list_cells(struct store *s, const char *scenario, char ***out, size_t *n, char *err, size_t errlen)
{
	static const char sql[] = "SELECT MAX(c.label), c.host, COUNT(*) FROM cells c JOIN runs r"
	                          " ON r.run_id = c.run_id WHERE r.scenario = $1"
	                          " GROUP BY c.cell_id, c.host ORDER BY MIN(c.cell_index), c.host";
	struct lines L = {0};
	const char *p[] = {scenario};
	long rc = sdb_exec(s, sql, 1, p, cell_row, &L);
	if (rc < 0 || L.oom) {
		snprintf(err, errlen, "%s", rc < 0 ? s->err : "out of memory");
		store_names_free(L.v, L.n);
		return -1;
	}
	*out = L.v;
	*n = L.n;
	return 0;
}

/* A fact row (key "headline.STEP", value "m1 m2"): each "STEP.m" not yet
 * listed. */
static int headline_row(void *arg, int ncol, const char *const *v)
{
	struct lines *L = arg;
	if (ncol < 2 || !v[0] || !v[1] || strncmp(v[0], "headline.", 9) != 0)
		return 0;
	const char *step = v[0] + 9;
	for (const char *m = v[1]; *m; m += strspn(m, " ")) {
		size_t len = strcspn(m, " ");
		char *name = NULL;
		if (len && asprintf(&name, "%s.%.*s", step, (int)len, m) < 0) {
			L->oom = true;
			return 1;
		}
		m += len;
		if (!name)
			continue;
		size_t k = 0;
		while (k < L->n && strcmp(L->v[k], name))
			k++;
		if (k < L->n || GROW(L->v, L->cap, L->n + 1, 16) < 0) {
			L->oom |= k == L->n;
			free(name);
			if (L->oom)
				return 1;
			continue;
		}
		L->v[L->n++] = name;
	}
	return 0;
}

int store_headlines(struct store *s, const char *scenario, char ***out, size_t *n, char *err, size_t errlen)
{
	static const char sql[] =
	    "SELECT DISTINCT f.key, f.value FROM facts f JOIN runs r ON r.run_id = f.run_id"
	    " WHERE r.scenario = $1 AND f.key LIKE 'headline.%' ORDER BY f.key, f.value";
	struct lines L = {0};
	const char *p[] = {scenario};
	long rc = sdb_exec(s, sql, 1, p, headline_row, &L);
	if (rc < 0 || L.oom) {
		snprintf(err, errlen, "%s", rc < 0 ? s->err : "out of memory");
		store_names_free(L.v, L.n);
		return -1;
	}
	*out = L.v;
	*n = L.n;
	return 0;
}
