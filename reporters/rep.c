/* rep: reporter table, rep_write_all, and helpers shared by the reporters
 * (see rep.h). */
#include "rep.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "units.h"

static const struct reporter_ops *const reporters[] = {&rep_csv_ops, &rep_timeseries_ops, &rep_md_ops, NULL};

const struct reporter_ops *const *rep_all(void)
{
	return reporters;
}

const struct reporter_ops *rep_find(const char *name)
{
	for (size_t i = 0; reporters[i]; i++)
		if (strcmp(reporters[i]->name, name) == 0)
			return reporters[i];
	return NULL;
}

static void free_sums(struct cell_summary **sum, size_t n)
{
	for (size_t i = 0; sum && i < n; i++)
		cell_summary_free(sum[i]);
	free(sum);
}

static int run_reporter(const struct reporter_ops *ops, const struct run *r, struct cell_summary **sum,
                        const char *outdir, struct diag *d)
{
	struct rep_ctx cx = {.run = r, .sum = sum, .outdir = outdir, .d = d};
	int rc = ops->begin ? ops->begin(&cx) : 0;
	for (size_t i = 0; rc >= 0 && i < r->ncells; i++)
		rc = ops->cell ? ops->cell(&cx, i) : 0;
	/* end() commits on success; -EINVAL from a section still writes the file. */
	int rc2 = ops->end ? ops->end(&cx, rc >= 0) : 0;
	return rc < 0 ? rc : rc2;
}

static struct cell_summary **summarize_all(const struct run *r, struct diag *d)
{
	struct cell_summary **sum = calloc(r->ncells ? r->ncells : 1, sizeof(*sum));
	for (size_t i = 0; sum && i < r->ncells; i++) {
		sum[i] = run_cell_summarize(&r->cells[i]);
		if (!sum[i]) {
			free_sums(sum, r->ncells);
			sum = NULL;
		}
	}
	if (!sum)
		diag_error(d, NULL, "out of memory summarising results");
	return sum;
}

int rep_write_one(const struct reporter_ops *ops, const struct run *r, const char *outdir, struct diag *d)
{
	struct cell_summary **sum = summarize_all(r, d);
	if (!sum)
		return -ENOMEM;
	int rc = run_reporter(ops, r, sum, outdir, d);
	free_sums(sum, r->ncells);
	return rc;
}

int rep_write_all(const struct run *r, const char *outdir, struct diag *d)
{
	struct cell_summary **sum = summarize_all(r, d);
	int rc = 0;
	if (!sum)
		return -ENOMEM;
	for (size_t i = 0; reporters[i]; i++) {
		int k = run_reporter(reporters[i], r, sum, outdir, d);
		/* An I/O error wins over a configuration error. */
		if (k < 0 && (rc == 0 || rc == -EINVAL))
			rc = k;
	}
	free_sums(sum, r->ncells);
	return rc;
}

/* ---- files ---- */

int rep_file_open(struct rep_file *rf, const char *outdir, const char *name, struct diag *d)
{
	memset(rf, 0, sizeof(*rf));
	if (asprintf(&rf->path, "%s/%s", outdir, name) < 0) {
		rf->path = NULL;
		return -ENOMEM;
	}
	if (asprintf(&rf->tmp, "%s.tmp", rf->path) < 0) {
		rf->tmp = NULL;
		free(rf->path);
		rf->path = NULL;
		return -ENOMEM;
	}
	rf->f = fopen(rf->tmp, "w");
	if (!rf->f) {
		int rc = -errno;
		diag_error(d, NULL, "cannot write %s: %s", rf->tmp, strerror(errno));
		free(rf->tmp);
		free(rf->path);
		memset(rf, 0, sizeof(*rf));
		return rc;
	}
	return 0;
}

int rep_file_commit(struct rep_file *rf, struct diag *d)
{
	int rc = 0;
	if (!rf->f)
		return -EINVAL;
	if (fflush(rf->f) != 0 || ferror(rf->f) || fsync(fileno(rf->f)) != 0)
		rc = -(errno ? errno : EIO);
	if (fclose(rf->f) != 0 && rc == 0)
		rc = -errno;
	rf->f = NULL;
	if (rc == 0 && rename(rf->tmp, rf->path) != 0)
		rc = -errno;
	if (rc < 0) {
		diag_error(d, NULL, "cannot write %s: %s", rf->path, strerror(-rc));
		unlink(rf->tmp);
	}
	free(rf->tmp);
	free(rf->path);
	rf->tmp = rf->path = NULL;
	return rc;
}

void rep_file_abort(struct rep_file *rf)
{
	if (rf->f) {
		fclose(rf->f);
		unlink(rf->tmp);
	}
	free(rf->tmp);
	free(rf->path);
	memset(rf, 0, sizeof(*rf));
}

/* ---- formatting ---- */

void rep_fmt_exact(double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		buf[0] = '\0';
		return;
	}
	/* Whole numbers without an exponent: 400, not 4e+02. */
	if (v == trunc(v) && fabs(v) < 1e15) {
		snprintf(buf, len, "%.0f", v);
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		snprintf(buf, len, "%.*g", prec, v);
		if (strtod(buf, NULL) == v)
			return;
	}
}

void rep_fmt_human(double v, char *buf, size_t len)
{
	if (!isfinite(v)) {
		snprintf(buf, len, "-");
		return;
	}
	double a = fabs(v);
	if (a == 0)
		snprintf(buf, len, "0");
	else if (a >= 1e15 || a < 1e-4)
		snprintf(buf, len, "%.3e", v);
	else if (a >= 1000)
		snprintf(buf, len, "%.0f", v);
	else {
		/* 4 significant digits, trailing zeros dropped. */
		int dec = 3 - (int)floor(log10(a));
		snprintf(buf, len, "%.*f", dec < 0 ? 0 : dec, v);
		if (strchr(buf, '.')) {
			char *e = buf + strlen(buf) - 1;
			while (*e == '0')
				*e-- = '\0';
			if (*e == '.')
				*e = '\0';
		}
	}
}

void rep_csv_field(FILE *f, const char *s)
{
	if (!s)
		return;
	size_t n = strlen(s);
	bool quote = n > 0 && (s[0] == ' ' || s[n - 1] == ' ');
	for (size_t i = 0; i < n && !quote; i++)
		quote = s[i] == ',' || s[i] == '"' || s[i] == '\n' || s[i] == '\r';
	if (!quote) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			fputc('"', f);
		fputc(s[i], f);
	}
	fputc('"', f);
}

void rep_md_cell(FILE *f, const char *s)
{
	for (; s && *s; s++) {
		if (*s == '|')
			fputs("\\|", f);
		else if (*s == '\n' || *s == '\r')
			fputc(' ', f);
		else
			fputc(*s, f);
	}
}

/* ---- values and matching ---- */

static bool value_number(const char *s, double *out)
{
	uint64_t sz;
	if (units_is_number(s, out))
		return true;
	if (units_parse_size(s, &sz, NULL, 0) == 0) {
		*out = (double)sz;
		return true;
	}
	return units_parse_duration(s, out, NULL, 0) == 0;
}

bool rep_value_equal(const char *a, const char *b)
{
	double x, y;
	if (!a || !b)
		return false;
	if (strcmp(a, b) == 0)
		return true;
	return value_number(a, &x) && value_number(b, &y) && x == y;
}

bool rep_cell_matches(const struct run_cell *c, const struct node *where)
{
	if (!where || where->kind != NODE_MAP)
		return true;
	for (size_t i = 0; i < where->n; i++) {
		const char *have = run_cell_param(c, where->keys[i]);
		const struct node *want = where->items[i];
		bool ok = false;
		if (!have)
			return false;
		if (want->kind == NODE_SEQ) {
			for (size_t k = 0; k < want->n && !ok; k++)
				ok = want->items[k]->kind == NODE_SCALAR &&
				     rep_value_equal(have, want->items[k]->text);
		} else if (want->kind == NODE_SCALAR) {
			ok = rep_value_equal(have, want->text);
		}
		if (!ok)
			return false;
	}
	return true;
}

/* ---- string sets ---- */

long rep_strs_find(const struct rep_strs *s, const char *x)
{
	for (size_t i = 0; i < s->n; i++)
		if (strcmp(s->v[i], x) == 0)
			return (long)i;
	return -1;
}

void rep_strs_add(struct rep_strs *s, const char *x)
{
	if (!x || rep_strs_find(s, x) >= 0)
		return;
	if (s->n == s->cap) {
		size_t cap = s->cap ? s->cap * 2 : 8;
		char **v = realloc(s->v, cap * sizeof(*v));
		if (!v)
			return;
		s->v = v;
		s->cap = cap;
	}
	char *c = strdup(x);
	if (c)
		s->v[s->n++] = c;
}

void rep_strs_free(struct rep_strs *s)
{
	for (size_t i = 0; i < s->n; i++)
		free(s->v[i]);
	free(s->v);
	memset(s, 0, sizeof(*s));
}

struct keyed {
	double k;
	size_t pos;
	char *s;
};

static int cmp_keyed(const void *a, const void *b)
{
	const struct keyed *x = a, *y = b;
	if (x->k != y->k)
		return x->k < y->k ? -1 : 1;
	return (x->pos > y->pos) - (x->pos < y->pos);
}

void rep_strs_sort_values(struct rep_strs *s)
{
	struct keyed *k = malloc((s->n ? s->n : 1) * sizeof(*k));
	if (!k)
		return;
	for (size_t i = 0; i < s->n; i++) {
		k[i].pos = i;
		k[i].s = s->v[i];
		if (!value_number(s->v[i], &k[i].k)) {
			free(k);
			return;
		}
	}
	qsort(k, s->n, sizeof(*k), cmp_keyed);
	for (size_t i = 0; i < s->n; i++)
		s->v[i] = k[i].s;
	free(k);
}

void rep_param_names(const struct run *r, struct rep_strs *out)
{
	for (size_t i = 0; i < r->ncells; i++) {
		const struct node *p = r->cells[i].params;
		for (size_t k = 0; p && p->kind == NODE_MAP && k < p->n; k++)
			rep_strs_add(out, p->keys[k]);
	}
}

void rep_groups_free(struct rep_group *g, size_t n)
{
	for (size_t i = 0; g && i < n; i++) {
		free(g[i].label);
		free(g[i].cells);
	}
	free(g);
}

int rep_group_cells(const struct run *r, const struct node *where, const char *const *used, size_t nused,
                    struct rep_group **out, size_t *nout)
{
	struct rep_strs names = {0}, vary = {0};
	size_t *match = malloc((r->ncells ? r->ncells : 1) * sizeof(*match));
	size_t nmatch = 0;
	struct rep_group *g = NULL;
	size_t ng = 0;
	int rc = 0;

	*out = NULL;
	*nout = 0;
	if (!match)
		return -ENOMEM;
	for (size_t i = 0; i < r->ncells; i++)
		if (rep_cell_matches(&r->cells[i], where))
			match[nmatch++] = i;

	/* Parameters that vary among the matching cells and are not used. */
	rep_param_names(r, &names);
	for (size_t k = 0; k < names.n; k++) {
		bool is_used = false, varies = false;
		for (size_t u = 0; u < nused; u++)
			is_used |= used[u] && strcmp(used[u], names.v[k]) == 0;
		if (is_used || nmatch == 0)
			continue;
		const char *v0 = run_cell_param(&r->cells[match[0]], names.v[k]);
		for (size_t i = 1; i < nmatch && !varies; i++) {
			const char *v = run_cell_param(&r->cells[match[i]], names.v[k]);
			varies = (v == NULL) != (v0 == NULL) || (v && strcmp(v, v0) != 0);
		}
		if (varies)
			rep_strs_add(&vary, names.v[k]);
	}

	g = calloc(nmatch ? nmatch : 1, sizeof(*g));
	if (!g) {
		rc = -ENOMEM;
		goto out;
	}
	for (size_t i = 0; i < nmatch; i++) {
		char label[1024];
		size_t len = 0;
		label[0] = '\0';
		for (size_t k = 0; k < vary.n && len < sizeof(label); k++) {
			const char *v = run_cell_param(&r->cells[match[i]], vary.v[k]);
			int w = snprintf(label + len, sizeof(label) - len, "%s%s=%s", k ? ", " : "",
			                 vary.v[k], v ? v : "");
			if (w > 0)
				len += (size_t)w;
		}
		size_t gi;
		for (gi = 0; gi < ng; gi++)
			if (strcmp(g[gi].label, label) == 0)
				break;
		if (gi == ng) {
			g[gi].label = strdup(label);
			g[gi].cells = malloc(nmatch * sizeof(size_t));
			if (!g[gi].label || !g[gi].cells) {
				free(g[gi].label);
				free(g[gi].cells);
				rc = -ENOMEM;
				goto out;
			}
			ng++;
		}
		g[gi].cells[g[gi].n++] = match[i];
	}
	*out = g;
	*nout = ng;
	g = NULL;
out:
	rep_groups_free(g, ng);
	rep_strs_free(&names);
	rep_strs_free(&vary);
	free(match);
	return rc;
}

double rep_stat(const struct metric_summary *m, const char *stat)
{
	if (!m)
		return NAN;
	if (!stat || strcmp(stat, "mean") == 0)
		return m->st.mean;
	if (strcmp(stat, "median") == 0)
		return m->st.median;
	if (strcmp(stat, "min") == 0)
		return m->st.min;
	if (strcmp(stat, "max") == 0)
		return m->st.max;
	if (strcmp(stat, "stddev") == 0)
		return m->st.stddev;
	if (strcmp(stat, "cv") == 0)
		return m->st.cv;
	if (strcmp(stat, "n") == 0)
		return (double)m->st.n;
	return NAN;
}
