/* results: run model, statistics over repeats, results.json (see results.h). */
#include "results.h"

#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef BENCHGRID_VERSION
#define BENCHGRID_VERSION "0"
#endif

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

void run_set(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

void run_init(struct run *r)
{
	memset(r, 0, sizeof(*r));
	result_init(&r->env, "environment", "");
}

void run_cell_init(struct run_cell *c)
{
	memset(c, 0, sizeof(*c));
	result_init(&c->facts, "facts", "");
}

void run_cell_free(struct run_cell *c)
{
	node_free(c->params);
	free(c->error);
	for (size_t i = 0; i < c->nreps; i++) {
		for (size_t k = 0; k < c->reps[i].nsteps; k++)
			result_free(&c->reps[i].steps[k]);
		free(c->reps[i].steps);
	}
	free(c->reps);
	result_free(&c->facts);
	memset(c, 0, sizeof(*c));
}

void run_free(struct run *r)
{
	free(r->scenario_file);
	free(r->name);
	free(r->description);
	free(r->scenario_hash);
	free(r->tool_version);
	node_free(r->report_cfg);
	node_free(r->expect_cfg);
	result_free(&r->env);
	for (size_t i = 0; i < r->ncells; i++)
		run_cell_free(&r->cells[i]);
	free(r->cells);
	memset(r, 0, sizeof(*r));
}

static struct run_cell *grow_cells(struct run *r)
{
	if (r->ncells == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 16;
		struct run_cell *v = realloc(r->cells, cap * sizeof(*v));
		if (!v)
			return NULL;
		r->cells = v;
		r->cap = cap;
	}
	return &r->cells[r->ncells++];
}

struct run_cell *run_add_cell(struct run *r, const struct cell *c)
{
	struct run_cell *rc = grow_cells(r);
	if (!rc)
		return NULL;
	run_cell_init(rc);
	rc->index = c->index;
	memcpy(rc->id, c->id, sizeof(rc->id));
	rc->id[sizeof(rc->id) - 1] = '\0';
	rc->params = c->params ? node_clone(c->params) : NULL;
	return rc;
}

struct run_cell *run_take_cell(struct run *r, struct run_cell *c)
{
	struct run_cell *rc = grow_cells(r);
	if (!rc)
		return NULL;
	*rc = *c;
	memset(c, 0, sizeof(*c));
	return rc;
}

struct run_cell *run_find_cell(const struct run *r, const char *id)
{
	for (size_t i = 0; i < r->ncells; i++)
		if (strcmp(r->cells[i].id, id) == 0)
			return &r->cells[i];
	return NULL;
}

static int cmp_cell(const void *a, const void *b)
{
	const struct run_cell *x = a, *y = b;
	return (x->index > y->index) - (x->index < y->index);
}

void run_sort_cells(struct run *r)
{
	if (r->ncells > 1)
		qsort(r->cells, r->ncells, sizeof(*r->cells), cmp_cell);
}

/* Repetition `rep`, created (empty) with all before it as needed. */
static struct run_rep *get_rep(struct run_cell *c, size_t rep)
{
	if (rep >= c->nreps) {
		struct run_rep *v = realloc(c->reps, (rep + 1) * sizeof(*v));
		if (!v)
			return NULL;
		memset(v + c->nreps, 0, (rep + 1 - c->nreps) * sizeof(*v));
		c->reps = v;
		c->nreps = rep + 1;
	}
	return &c->reps[rep];
}

void run_cell_take_step(struct run_cell *c, size_t rep, struct step_result *res)
{
	struct run_rep *rp = get_rep(c, rep);
	if (!rp)
		return;
	if (rp->nsteps == rp->cap) {
		size_t cap = rp->cap ? rp->cap * 2 : 4;
		struct step_result *v = realloc(rp->steps, cap * sizeof(*v));
		if (!v)
			return;
		rp->steps = v;
		rp->cap = cap;
	}
	rp->steps[rp->nsteps++] = *res;
	memset(res, 0, sizeof(*res));
}

void run_cell_set_status(struct run_cell *c, enum run_status st, const char *fmt, ...)
{
	c->status = st;
	if (!fmt || c->error)
		return;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&c->error, fmt, ap) < 0)
		c->error = NULL;
	va_end(ap);
}

const char *run_cell_param(const struct run_cell *c, const char *name)
{
	const struct node *n = node_get(c->params, name);
	return n && n->kind == NODE_SCALAR ? n->text : NULL;
}

void run_cell_label(const struct run_cell *c, char *buf, size_t len)
{
	size_t k = 0;
	buf[0] = '\0';
	if (!c->params || c->params->kind != NODE_MAP)
		return;
	for (size_t i = 0; i < c->params->n && k < len; i++) {
		const struct node *v = c->params->items[i];
		int w = snprintf(buf + k, len - k, "%s%s=%s", i ? ", " : "", c->params->keys[i],
		                 v->kind == NODE_SCALAR ? v->text : "?");
		if (w < 0)
			break;
		k += (size_t)w;
	}
}

static const char *const status_names[] = {"ok", "failed", "skipped", NULL};

const char *run_status_name(enum run_status s)
{
	return (unsigned)s <= RUN_SKIPPED ? status_names[s] : "?";
}

int run_status_parse(const char *s, enum run_status *out)
{
	for (int i = 0; status_names[i]; i++)
		if (s && strcmp(s, status_names[i]) == 0) {
			*out = (enum run_status)i;
			return 0;
		}
	return -EINVAL;
}

/* ---- statistics ---- */

bool results_split_ref(const char *ref, char *step, size_t steplen, const char **metric)
{
	const char *dot = ref ? strchr(ref, '.') : NULL;
	if (!dot || dot == ref || !dot[1] || (size_t)(dot - ref) >= steplen)
		return false;
	memcpy(step, ref, (size_t)(dot - ref));
	step[dot - ref] = '\0';
	*metric = dot + 1;
	return true;
}

struct occ {
	const struct step_result **r; /* the step in each rep that has it */
	size_t n;
};

void cell_summary_free(struct cell_summary *s)
{
	if (!s)
		return;
	for (size_t i = 0; i < s->nsteps; i++) {
		for (size_t k = 0; k < s->steps[i].nm; k++)
			free(s->steps[i].m[k].v);
		free(s->steps[i].m);
	}
	free(s->steps);
	free(s);
}

struct cell_summary *run_cell_summarize(const struct run_cell *c)
{
	struct cell_summary *s = calloc(1, sizeof(*s));
	size_t maxsteps = 0;
	struct occ *occ = NULL;

	if (!s)
		return NULL;
	for (size_t r = 0; r < c->nreps; r++)
		maxsteps += c->reps[r].nsteps;
	s->steps = calloc(maxsteps ? maxsteps : 1, sizeof(*s->steps));
	occ = calloc(maxsteps ? maxsteps : 1, sizeof(*occ));
	if (!s->steps || !occ)
		goto oom;

	/* Group step results by step name, in first-seen order. */
	for (size_t r = 0; r < c->nreps; r++) {
		for (size_t k = 0; k < c->reps[r].nsteps; k++) {
			const struct step_result *sr = &c->reps[r].steps[k];
			const char *name = sr->step ? sr->step : "";
			size_t i;
			for (i = 0; i < s->nsteps; i++)
				if (strcmp(s->steps[i].step, name) == 0)
					break;
			if (i == s->nsteps) {
				s->steps[i].step = name;
				s->steps[i].workload = sr->workload ? sr->workload : "";
				s->steps[i].first = sr;
				occ[i].r = calloc(c->nreps, sizeof(*occ[i].r));
				if (!occ[i].r)
					goto oom;
				s->nsteps++;
			}
			if (occ[i].n < c->nreps)
				occ[i].r[occ[i].n++] = sr;
		}
	}

	for (size_t i = 0; i < s->nsteps; i++) {
		struct step_summary *ss = &s->steps[i];
		size_t cap = 0;
		double el = 0;
		for (size_t o = 0; o < occ[i].n; o++) {
			const struct step_result *sr = occ[i].r[o];
			if (sr->failed && !ss->failed) {
				ss->failed = true;
				ss->error = sr->error;
			}
			el += sr->elapsed;
			cap += sr->nm;
		}
		ss->elapsed = occ[i].n ? el / (double)occ[i].n : 0;
		ss->m = calloc(cap ? cap : 1, sizeof(*ss->m));
		if (!ss->m)
			goto oom;
		for (size_t o = 0; o < occ[i].n; o++) {
			const struct step_result *sr = occ[i].r[o];
			for (size_t k = 0; k < sr->nm; k++) {
				size_t j;
				for (j = 0; j < ss->nm; j++)
					if (strcmp(ss->m[j].name, sr->m[k].name) == 0)
						break;
				if (j == ss->nm) {
					struct metric_summary *ms = &ss->m[j];
					ms->name = sr->m[k].name;
					ms->unit = sr->m[k].unit ? sr->m[k].unit : "";
					ms->n = occ[i].n;
					ms->v = malloc(ms->n * sizeof(*ms->v));
					if (!ms->v)
						goto oom;
					for (size_t q = 0; q < ms->n; q++)
						ms->v[q] = NAN;
					ss->nm++;
				}
				ss->m[j].v[o] = sr->m[k].value;
			}
		}
		for (size_t j = 0; j < ss->nm; j++) {
			struct metric_summary *ms = &ss->m[j];
			stats_compute(ms->v, ms->n, &ms->st);
			ms->warned = stats_check(ms->v, ms->n, ms->unit, &ms->warn);
		}
	}
	for (size_t i = 0; i < s->nsteps; i++)
		free(occ[i].r);
	free(occ);
	return s;
oom:
	if (occ)
		for (size_t i = 0; i < maxsteps; i++)
			free(occ[i].r);
	free(occ);
	cell_summary_free(s);
	return NULL;
}

const struct step_summary *cell_summary_step(const struct cell_summary *s, const char *step)
{
	for (size_t i = 0; s && i < s->nsteps; i++)
		if (strcmp(s->steps[i].step, step) == 0)
			return &s->steps[i];
	return NULL;
}

const struct metric_summary *cell_summary_metric(const struct cell_summary *s, const char *step,
                                                 const char *metric)
{
	const struct step_summary *ss = cell_summary_step(s, step);
	for (size_t i = 0; ss && i < ss->nm; i++)
		if (strcmp(ss->m[i].name, metric) == 0)
			return &ss->m[i];
	return NULL;
}

size_t run_cell_warnings(const struct cell_summary *s, void (*fn)(void *arg, const char *msg), void *arg)
{
	size_t count = 0;
	/* One message per step, naming every metric concerned. */
	for (size_t i = 0; s && i < s->nsteps; i++) {
		const struct step_summary *ss = &s->steps[i];
		char *msg = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&msg, &len);
		size_t nout = 0, nslow = 0;
		if (!f)
			return count;
		fprintf(f, "%s:", ss->step);
		for (size_t j = 0; j < ss->nm; j++) {
			const struct metric_summary *ms = &ss->m[j];
			if (ms->warned && ms->warn.noutliers) {
				fprintf(f, "%s %s (sample %zu%s)", nout ? "," : " statistical outliers in",
				        ms->name, ms->warn.first_outlier + 1,
				        ms->warn.noutliers > 1 ? " and more" : "");
				nout++;
			}
		}
		if (nout)
			fputs(" (a busy machine? consider more repeats)", f);
		for (size_t j = 0; j < ss->nm; j++) {
			const struct metric_summary *ms = &ss->m[j];
			if (ms->warned && ms->warn.first_slow) {
				fprintf(f, "%s %s",
				        nslow  ? ","
				        : nout ? "; the first run was much slower in"
				               : " the first run was much slower in",
				        ms->name);
				nslow++;
			}
		}
		if (nslow)
			fputs(" (cold caches? consider `warmup:`)", f);
		fclose(f);
		if ((nout || nslow) && fn)
			fn(arg, msg);
		count += nout || nslow;
		free(msg);
	}
	return count;
}

/* ---- JSON writing ---- */

/* Is s exactly a JSON number (so it may be written raw)? */
static bool is_json_number(const char *s)
{
	const char *p = s;
	if (*p == '-')
		p++;
	if (*p == '0')
		p++;
	else if (*p >= '1' && *p <= '9')
		while (*p >= '0' && *p <= '9')
			p++;
	else
		return false;
	if (*p == '.') {
		p++;
		if (!(*p >= '0' && *p <= '9'))
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!(*p >= '0' && *p <= '9'))
			return false;
		while (*p >= '0' && *p <= '9')
			p++;
	}
	return *p == '\0' && p - s < 40;
}

void results_write_node(struct json_w *w, const struct node *n)
{
	if (!n || n->kind == NODE_NULL) {
		json_null(w);
		return;
	}
	switch (n->kind) {
	case NODE_SCALAR:
		if (!n->quoted && is_json_number(n->text))
			json_raw(w, n->text);
		else if (!n->quoted && (strcmp(n->text, "true") == 0 || strcmp(n->text, "false") == 0))
			json_bool(w, n->text[0] == 't');
		else
			json_str(w, n->text ? n->text : "");
		break;
	case NODE_SEQ:
		json_arr_begin(w);
		for (size_t i = 0; i < n->n; i++)
			results_write_node(w, n->items[i]);
		json_arr_end(w);
		break;
	case NODE_MAP:
		json_obj_begin(w);
		for (size_t i = 0; i < n->n; i++) {
			json_key(w, n->keys[i]);
			results_write_node(w, n->items[i]);
		}
		json_obj_end(w);
		break;
	default: json_null(w);
	}
}

/* metrics and info of a step_result (also used for env and facts). */
static void write_metrics_info(struct json_w *w, const struct step_result *r)
{
	json_key(w, "metrics");
	json_obj_begin(w);
	for (size_t i = 0; i < r->nm; i++) {
		json_key(w, r->m[i].name);
		json_obj_begin(w);
		json_key(w, "value");
		json_num(w, r->m[i].value);
		json_key(w, "unit");
		json_str(w, r->m[i].unit ? r->m[i].unit : "");
		json_obj_end(w);
	}
	json_obj_end(w);

	/* Info as an object; a key that repeats ("warning") becomes an array. */
	json_key(w, "info");
	json_obj_begin(w);
	for (size_t i = 0; i < r->ni; i++) {
		bool seen = false, many = false;
		for (size_t k = 0; k < i && !seen; k++)
			seen = strcmp(r->info[k].key, r->info[i].key) == 0;
		if (seen)
			continue;
		for (size_t k = i + 1; k < r->ni && !many; k++)
			many = strcmp(r->info[k].key, r->info[i].key) == 0;
		json_key(w, r->info[i].key);
		if (!many) {
			json_str(w, r->info[i].value);
			continue;
		}
		json_arr_begin(w);
		for (size_t k = i; k < r->ni; k++)
			if (strcmp(r->info[k].key, r->info[i].key) == 0)
				json_str(w, r->info[k].value);
		json_arr_end(w);
	}
	json_obj_end(w);
}

/* A series as one line even in pretty output: thousands of samples would
 * otherwise take a line each. */
static void write_numbers(struct json_w *w, const double *v, size_t n)
{
	bool pretty = w->pretty;
	w->pretty = false;
	json_arr_begin(w);
	for (size_t k = 0; k < n; k++)
		json_num(w, v[k]);
	json_arr_end(w);
	w->pretty = pretty;
}

static void write_step(struct json_w *w, const struct step_result *r)
{
	json_obj_begin(w);
	json_key(w, "name");
	json_str(w, r->step ? r->step : "");
	json_key(w, "workload");
	json_str(w, r->workload ? r->workload : "");
	json_key(w, "failed");
	json_bool(w, r->failed);
	json_key(w, "error");
	json_str(w, r->error);
	json_key(w, "started");
	json_num(w, r->started);
	json_key(w, "elapsed");
	json_num(w, r->elapsed);
	write_metrics_info(w, r);
	json_key(w, "series");
	json_obj_begin(w);
	for (size_t i = 0; i < r->ns; i++) {
		const struct series *s = &r->s[i];
		json_key(w, s->name);
		json_obj_begin(w);
		json_key(w, "unit");
		json_str(w, s->unit ? s->unit : "");
		json_key(w, "t");
		write_numbers(w, s->t, s->n);
		json_key(w, "v");
		write_numbers(w, s->v, s->n);
		json_obj_end(w);
	}
	json_obj_end(w);
	json_obj_end(w);
}

static void write_summary(struct json_w *w, const struct run_cell *c)
{
	struct cell_summary *s = run_cell_summarize(c);
	char ref[256], msg[768];

	json_arr_begin(w);
	for (size_t i = 0; s && i < s->nsteps; i++) {
		const struct step_summary *ss = &s->steps[i];
		json_obj_begin(w);
		json_key(w, "step");
		json_str(w, ss->step);
		json_key(w, "workload");
		json_str(w, ss->workload);
		json_key(w, "failed");
		json_bool(w, ss->failed);
		json_key(w, "error");
		json_str(w, ss->error);
		json_key(w, "elapsed");
		json_num(w, ss->elapsed);
		json_key(w, "metrics");
		json_obj_begin(w);
		for (size_t j = 0; j < ss->nm; j++) {
			const struct metric_summary *m = &ss->m[j];
			json_key(w, m->name);
			json_obj_begin(w);
			json_key(w, "value");
			json_num(w, m->st.mean);
			json_key(w, "unit");
			json_str(w, m->unit);
			json_key(w, "n");
			json_uint(w, m->st.n);
			json_key(w, "mean");
			json_num(w, m->st.mean);
			json_key(w, "stddev");
			json_num(w, m->st.stddev);
			json_key(w, "median");
			json_num(w, m->st.median);
			json_key(w, "min");
			json_num(w, m->st.min);
			json_key(w, "max");
			json_num(w, m->st.max);
			json_key(w, "cv");
			json_num(w, m->st.cv);
			if (m->warned) {
				snprintf(ref, sizeof(ref), "%s.%s", ss->step, m->name);
				stats_warning_text(&m->warn, m->st.n, ref, msg, sizeof(msg));
				json_key(w, "warning");
				json_str(w, msg);
			}
			json_obj_end(w);
		}
		json_obj_end(w);
		json_obj_end(w);
	}
	json_arr_end(w);
	cell_summary_free(s);
}

void results_write_cell(struct json_w *w, const struct run_cell *c)
{
	json_obj_begin(w);
	json_key(w, "index");
	json_uint(w, c->index);
	json_key(w, "id");
	json_str(w, c->id);
	json_key(w, "params");
	if (c->params)
		results_write_node(w, c->params);
	else {
		json_obj_begin(w);
		json_obj_end(w);
	}
	json_key(w, "status");
	json_str(w, run_status_name(c->status));
	json_key(w, "error");
	json_str(w, c->error);
	json_key(w, "started");
	json_num(w, c->started);
	json_key(w, "elapsed");
	json_num(w, c->elapsed);
	json_key(w, "facts");
	json_obj_begin(w);
	write_metrics_info(w, &c->facts);
	json_obj_end(w);
	json_key(w, "summary");
	write_summary(w, c);
	json_key(w, "reps");
	json_arr_begin(w);
	for (size_t r = 0; r < c->nreps; r++) {
		json_arr_begin(w);
		for (size_t k = 0; k < c->reps[r].nsteps; k++)
			write_step(w, &c->reps[r].steps[k]);
		json_arr_end(w);
	}
	json_arr_end(w);
	json_obj_end(w);
}

void results_write_run(struct json_w *w, const struct run *r)
{
	json_obj_begin(w);
	json_key(w, "format");
	json_str(w, RESULTS_FORMAT);
	json_key(w, "version");
	json_int(w, RESULTS_VERSION);
	json_key(w, "tool");
	json_str(w, r->tool_version ? r->tool_version : "benchgrid " BENCHGRID_VERSION);
	json_key(w, "scenario");
	json_obj_begin(w);
	json_key(w, "file");
	json_str(w, r->scenario_file);
	json_key(w, "name");
	json_str(w, r->name);
	json_key(w, "description");
	json_str(w, r->description);
	json_key(w, "hash");
	json_str(w, r->scenario_hash);
	json_obj_end(w);
	json_key(w, "started");
	json_num(w, r->started);
	json_key(w, "finished");
	json_num(w, r->finished);
	json_key(w, "planned_cells");
	json_uint(w, r->nplanned);
	json_key(w, "repeat");
	json_uint(w, r->repeat);
	json_key(w, "warmup");
	json_uint(w, r->warmup);
	json_key(w, "environment");
	json_obj_begin(w);
	write_metrics_info(w, &r->env);
	json_obj_end(w);
	json_key(w, "report");
	results_write_node(w, r->report_cfg);
	json_key(w, "expect");
	results_write_node(w, r->expect_cfg);
	json_key(w, "cells");
	json_arr_begin(w);
	for (size_t i = 0; i < r->ncells; i++)
		results_write_cell(w, &r->cells[i]);
	json_arr_end(w);
	json_obj_end(w);
}

static int fsync_dir_of(const char *path)
{
	char *copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	int fd = open(dirname(copy), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(copy);
	if (fd < 0)
		return -errno;
	int rc = fsync(fd) < 0 ? -errno : 0;
	close(fd);
	return rc;
}

int results_write_json(const struct run *r, const char *path, struct diag *d)
{
	char *tmp = NULL;
	int rc = 0;

	if (asprintf(&tmp, "%s.tmp", path) < 0)
		return -ENOMEM;
	FILE *f = fopen(tmp, "w");
	if (!f) {
		rc = -errno;
		diag_error(d, NULL, "%s: %s", tmp, strerror(errno));
		free(tmp);
		return rc;
	}
	struct json_w w;
	json_init(&w, f, true);
	results_write_run(&w, r);
	if (fflush(f) != 0 || ferror(f) || fsync(fileno(f)) != 0)
		rc = -(errno ? errno : EIO);
	if (fclose(f) != 0 && rc == 0)
		rc = -errno;
	if (rc == 0 && rename(tmp, path) != 0)
		rc = -errno;
	if (rc == 0)
		rc = fsync_dir_of(path);
	if (rc < 0) {
		diag_error(d, NULL, "cannot write %s: %s", path, strerror(-rc));
		unlink(tmp);
	}
	free(tmp);
	return rc;
}

int results_cell_write_line(FILE *f, const struct run_cell *c)
{
	struct json_w w;
	json_init(&w, f, false);
	results_write_cell(&w, c);
	fputc('\n', f);
	return ferror(f) ? -EIO : 0;
}

/* ---- JSON reading ---- */

static int bad(struct diag *d, const char *file, const struct jv *v, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static int bad(struct diag *d, const char *file, const struct jv *v, const char *fmt, ...)
{
	struct src_pos pos = {diag_intern(file ? file : "<json>"), v ? v->line : 0, v ? v->col : 0};
	va_list ap;
	va_start(ap, fmt);
	diag_vadd(d, DIAG_ERROR, &pos, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

struct node *results_node_from_jv(const struct jv *v, const char *file)
{
	struct src_pos pos = {diag_intern(file ? file : "<json>"), v->line, v->col};
	struct node *n = NULL;

	switch (v->kind) {
	case JV_NULL: n = node_new(NODE_NULL, &pos); break;
	case JV_BOOL: n = node_new_scalar(v->b ? "true" : "false", &pos); break;
	case JV_NUM: n = node_new_scalar(v->str, &pos); break;
	case JV_STR:
		n = node_new_scalar(v->str, &pos);
		if (n)
			n->quoted = true;
		break;
	case JV_ARR:
		n = node_new(NODE_SEQ, &pos);
		for (size_t i = 0; n && i < v->n; i++) {
			struct node *c = results_node_from_jv(v->items[i], file);
			if (!c) {
				node_free(n);
				return NULL;
			}
			node_seq_push(n, c);
		}
		break;
	case JV_OBJ:
		n = node_new(NODE_MAP, &pos);
		for (size_t i = 0; n && i < v->n; i++) {
			struct node *c = results_node_from_jv(v->items[i], file);
			if (!c) {
				node_free(n);
				return NULL;
			}
			struct src_pos kp = {pos.file, v->items[i]->line, v->items[i]->col};
			node_map_put(n, v->keys[i], &kp, c);
		}
		break;
	}
	return n;
}

static double num_or_nan(const struct jv *v)
{
	return v && v->kind == JV_NUM ? v->num : NAN;
}

static int read_metrics_info(const struct jv *o, struct step_result *r, const char *file, struct diag *d)
{
	const struct jv *m = jv_get(o, "metrics"), *in = jv_get(o, "info");
	if (m && m->kind != JV_OBJ)
		return bad(d, file, m, "\"metrics\" must be an object");
	for (size_t i = 0; m && i < m->n; i++) {
		const struct jv *e = m->items[i];
		if (e->kind != JV_OBJ)
			return bad(d, file, e, "metric \"%s\" must be an object {value, unit}", m->keys[i]);
		const struct jv *val = jv_get(e, "value");
		if (!val || (val->kind != JV_NUM && val->kind != JV_NULL))
			return bad(d, file, e, "metric \"%s\" needs a numeric \"value\"", m->keys[i]);
		result_metric(r, m->keys[i], num_or_nan(val), jv_get_str(e, "unit", ""));
	}
	if (in && in->kind != JV_OBJ)
		return bad(d, file, in, "\"info\" must be an object");
	for (size_t i = 0; in && i < in->n; i++) {
		const struct jv *e = in->items[i];
		if (e->kind == JV_STR) {
			result_info(r, in->keys[i], "%s", e->str);
		} else if (e->kind == JV_ARR) {
			for (size_t k = 0; k < e->n; k++) {
				if (e->items[k]->kind != JV_STR)
					return bad(d, file, e->items[k], "info values must be strings");
				result_info(r, in->keys[i], "%s", e->items[k]->str);
			}
		} else {
			return bad(d, file, e, "info \"%s\" must be a string or an array of strings",
			           in->keys[i]);
		}
	}
	return 0;
}

static int read_step(const struct jv *o, struct step_result *r, const char *file, struct diag *d)
{
	if (o->kind != JV_OBJ)
		return bad(d, file, o, "a step result must be an object");
	const char *name = jv_get_str(o, "name", NULL);
	if (!name)
		return bad(d, file, o, "step result lacks \"name\"");
	result_init(r, name, jv_get_str(o, "workload", ""));
	r->failed = jv_get_bool(o, "failed", false);
	const char *err = jv_get_str(o, "error", NULL);
	if (err)
		r->error = strdup(err);
	r->started = jv_get_num(o, "started", 0);
	r->elapsed = jv_get_num(o, "elapsed", 0);
	int rc = read_metrics_info(o, r, file, d);
	if (rc < 0)
		return rc;
	const struct jv *ser = jv_get(o, "series");
	if (ser && ser->kind != JV_OBJ)
		return bad(d, file, ser, "\"series\" must be an object");
	for (size_t i = 0; ser && i < ser->n; i++) {
		const struct jv *s = ser->items[i];
		const struct jv *t = jv_get(s, "t"), *v = jv_get(s, "v");
		if (!t || !v || t->kind != JV_ARR || v->kind != JV_ARR || t->n != v->n)
			return bad(d, file, s, "series \"%s\" needs arrays \"t\" and \"v\" of equal length",
			           ser->keys[i]);
		const char *unit = jv_get_str(s, "unit", "");
		for (size_t k = 0; k < t->n; k++)
			result_sample(r, ser->keys[i], unit, num_or_nan(t->items[k]),
			              num_or_nan(v->items[k]));
	}
	return 0;
}

int results_cell_from_jv(const struct jv *o, struct run_cell *c, const char *file, struct diag *d)
{
	run_cell_init(c);
	if (o->kind != JV_OBJ)
		return bad(d, file, o, "a cell must be an object");
	const struct jv *idx = jv_get(o, "index"), *id = jv_get(o, "id"), *params = jv_get(o, "params");
	const struct jv *reps = jv_get(o, "reps");
	if (!idx || idx->kind != JV_NUM || !(idx->num >= 0 && idx->num < 9e15) || idx->num != floor(idx->num))
		return bad(d, file, idx ? idx : o, "cell needs a non-negative integer \"index\"");
	if (!id || id->kind != JV_STR || strlen(id->str) >= sizeof(c->id))
		return bad(d, file, id ? id : o, "cell needs a string \"id\" of at most 12 characters");
	if (!params || params->kind != JV_OBJ)
		return bad(d, file, params ? params : o, "cell needs an object \"params\"");
	c->index = (size_t)idx->num;
	strcpy(c->id, id->str);
	c->params = results_node_from_jv(params, file);
	if (run_status_parse(jv_get_str(o, "status", NULL), &c->status) < 0)
		return bad(d, file, jv_get(o, "status") ? jv_get(o, "status") : o,
		           "cell \"status\" must be \"ok\", \"failed\" or \"skipped\"");
	const char *err = jv_get_str(o, "error", NULL);
	if (err)
		c->error = strdup(err);
	c->started = jv_get_num(o, "started", 0);
	c->elapsed = jv_get_num(o, "elapsed", 0);
	const struct jv *facts = jv_get(o, "facts");
	if (facts) {
		int rc = read_metrics_info(facts, &c->facts, file, d);
		if (rc < 0)
			return rc;
	}
	if (reps && reps->kind != JV_ARR)
		return bad(d, file, reps, "\"reps\" must be an array of arrays of steps");
	for (size_t r = 0; reps && r < reps->n; r++) {
		const struct jv *rep = reps->items[r];
		if (rep->kind != JV_ARR)
			return bad(d, file, rep, "each repetition must be an array of steps");
		if (!get_rep(c, r)) /* also keeps empty repetitions */
			return -ENOMEM;
		for (size_t k = 0; k < rep->n; k++) {
			struct step_result sr;
			memset(&sr, 0, sizeof(sr));
			int rc = read_step(rep->items[k], &sr, file, d);
			if (rc < 0) {
				result_free(&sr);
				return rc;
			}
			run_cell_take_step(c, r, &sr);
		}
	}
	return 0;
}

int results_cell_parse_line(const char *line, size_t len, struct run_cell *c, struct diag *d)
{
	struct jv *v = jv_parse(line, len, "<journal>", d);
	if (!v) {
		run_cell_init(c);
		return -EINVAL;
	}
	int rc = results_cell_from_jv(v, c, "<journal>", d);
	jv_free(v);
	return rc;
}

/* A non-negative whole number, 0 when absent or not one. */
static size_t get_count(const struct jv *v, const char *key)
{
	double x = jv_get_num(v, key, 0);
	return x >= 0 && x < 9e15 ? (size_t)x : 0;
}

int results_from_jv(struct run *r, const struct jv *v, const char *file, struct diag *d)
{
	run_init(r);
	if (v->kind != JV_OBJ)
		return bad(d, file, v, "results must be a JSON object");
	const char *fmt = jv_get_str(v, "format", NULL);
	if (!fmt || strcmp(fmt, RESULTS_FORMAT) != 0)
		return bad(d, file, v, "not a benchgrid results file (\"format\" is not \"%s\")",
		           RESULTS_FORMAT);
	double ver = jv_get_num(v, "version", 0);
	if (ver != RESULTS_VERSION)
		return bad(d, file, jv_get(v, "version"),
		           "results format version %g is not supported (expected %d)", ver, RESULTS_VERSION);
	run_set(&r->tool_version, jv_get_str(v, "tool", NULL));
	const struct jv *sc = jv_get(v, "scenario");
	run_set(&r->scenario_file, jv_get_str(sc, "file", NULL));
	run_set(&r->name, jv_get_str(sc, "name", NULL));
	run_set(&r->description, jv_get_str(sc, "description", NULL));
	run_set(&r->scenario_hash, jv_get_str(sc, "hash", NULL));
	r->started = jv_get_num(v, "started", 0);
	r->finished = jv_get_num(v, "finished", 0);
	r->nplanned = get_count(v, "planned_cells");
	r->repeat = get_count(v, "repeat");
	r->warmup = get_count(v, "warmup");
	const struct jv *env = jv_get(v, "environment");
	if (env) {
		int rc = read_metrics_info(env, &r->env, file, d);
		if (rc < 0)
			return rc;
	}
	const struct jv *rep = jv_get(v, "report"), *exp = jv_get(v, "expect");
	if (rep && rep->kind != JV_NULL)
		r->report_cfg = results_node_from_jv(rep, file);
	if (exp && exp->kind != JV_NULL)
		r->expect_cfg = results_node_from_jv(exp, file);
	const struct jv *cells = jv_get(v, "cells");
	if (!cells || cells->kind != JV_ARR)
		return bad(d, file, cells ? cells : v, "results need an array \"cells\"");
	for (size_t i = 0; i < cells->n; i++) {
		struct run_cell c;
		int rc = results_cell_from_jv(cells->items[i], &c, file, d);
		if (rc < 0) {
			run_cell_free(&c);
			return rc;
		}
		if (!run_take_cell(r, &c)) {
			run_cell_free(&c);
			return -ENOMEM;
		}
	}
	return 0;
}

int results_read_json(struct run *r, const char *path, struct diag *d)
{
	struct jv *v = jv_parse_file(path, d);
	if (!v) {
		run_init(r);
		return -EINVAL;
	}
	int rc = results_from_jv(r, v, path, d);
	jv_free(v);
	return rc;
}
