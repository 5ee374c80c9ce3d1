/* compare_by: `benchgrid compare DIR --by P` — within one run, each cell
 * against the cell that differs from it only in parameter P and has P's
 * baseline value. The baseline value is P's value in the run's first cell
 * (by index: the matrix's first value of P, unless filtered out). Cells
 * with the baseline value are the A side; every other cell whose other
 * parameters all equal a baseline cell's is a B. Cells without P, or with
 * no baseline cell to pair with, are listed. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compare_by.h"
#include "compare.h"
#include "compare_render.h"
#include "rep_text.h"

/* Do the cells have the same parameters with the same values, P aside? */
static bool same_but(const struct run_cell *x, const struct run_cell *y, const char *p)
{
	size_t nx = 0, ny = 0;
	for (size_t i = 0; x->params && i < x->params->n; i++) {
		const char *k = x->params->keys[i];
		if (strcmp(k, p) == 0)
			continue;
		nx++;
		const char *vx = run_cell_param(x, k), *vy = run_cell_param(y, k);
		if (!vx || !vy || strcmp(vx, vy) != 0)
			return false;
	}
	for (size_t i = 0; y->params && i < y->params->n; i++)
		ny += strcmp(y->params->keys[i], p) != 0;
	return nx == ny;
}

/* The label of cell c without P: "fs=ext4, bs=4k" or "" */
static void label_without(const struct run_cell *c, const char *p, FILE *f)
{
	bool first = true;
	for (size_t i = 0; c->params && i < c->params->n; i++) {
		const char *k = c->params->keys[i], *v = run_cell_param(c, k);
		if (strcmp(k, p) == 0 || !v)
			continue;
		fputs(first ? "" : ", ", f);
		rep_md_cell(f, k);
		fputc('=', f);
		rep_md_cell(f, v);
		first = false;
	}
}

static int pair_text(struct cmp_pair *pr, const char *p)
{
	char *rest = NULL, *va = NULL, *vb = NULL, *ids = NULL, *pm = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&rest, &len);
	if (!f)
		return -ENOMEM;
	label_without(pr->a, p, f);
	fclose(f);
	f = open_memstream(&va, &len);
	if (f) {
		rep_md_cell(f, run_cell_param(pr->a, p));
		fclose(f);
	}
	f = open_memstream(&vb, &len);
	if (f) {
		rep_md_cell(f, run_cell_param(pr->b, p));
		fclose(f);
	}
	f = open_memstream(&ids, &len);
	if (f) {
		cmp_md_id(f, pr->a->id, true);
		fputs(" -> ", f);
		cmp_md_id(f, pr->b->id, true);
		fclose(f);
	}
	f = open_memstream(&pm, &len);
	if (f) {
		rep_md_cell(f, p);
		fclose(f);
	}
	int r1 = -1, r2 = -1;
	if (rest && va && vb && ids && pm) {
		r1 = asprintf(&pr->label, "%s=%s -> %s=%s%s%s%s (%s)", pm, va, pm, vb, *rest ? " (" : "",
		              rest, *rest ? ")" : "", ids);
		r2 = asprintf(&pr->row_head, "%s -> %s | %zu -> %zu | %s", va, vb, pr->a->index, pr->b->index,
		              *rest ? rest : "-");
	}
	if (r1 < 0)
		pr->label = NULL;
	if (r2 < 0)
		pr->row_head = NULL;
	free(rest);
	free(va);
	free(vb);
	free(ids);
	free(pm);
	return r1 < 0 || r2 < 0 ? -ENOMEM : 0;
}

static const struct run_cell *first_with(const struct run *r, const char *p)
{
	const struct run_cell *best = NULL;
	for (size_t i = 0; i < r->ncells; i++)
		if (run_cell_param(&r->cells[i], p) && (!best || r->cells[i].index < best->index))
			best = &r->cells[i];
	return best;
}

/* Cells left out: without P, or with no baseline partner. */
static void list_left_out(FILE *out, const struct run *r, const char *p, const char *base, const bool *paired)
{
	char label[512];
	bool any = false;
	for (size_t i = 0; i < r->ncells; i++) {
		const char *v = run_cell_param(&r->cells[i], p);
		if (paired[i] || (v && strcmp(v, base) == 0))
			continue;
		if (!any)
			fputs("## Not compared\n\n", out);
		any = true;
		run_cell_label(&r->cells[i], label, sizeof(label));
		fprintf(out, "- %zu ", r->cells[i].index);
		cmp_md_id(out, r->cells[i].id, true);
		fputc(' ', out);
		rep_md_cell(out, label);
		fputs(v ? ": no cell with the baseline value and the same other parameters\n"
		        : ": no such parameter\n",
		      out);
	}
	if (any)
		fputc('\n', out);
}

static int by_body(FILE *out, const struct run *r, const struct compare_opts *o, const char *base,
                   struct cmp_outcome *res)
{
	const char *p = o->by;
	size_t nbase = 0; /* each baseline cell pairs with at most every cell */
	for (size_t i = 0; i < r->ncells; i++) {
		const char *v = run_cell_param(&r->cells[i], p);
		nbase += v && strcmp(v, base) == 0;
	}
	struct cmp_pair *pairs = calloc(r->ncells * nbase + 1, sizeof(*pairs));
	bool *paired = calloc(r->ncells + 1, sizeof(*paired));
	size_t n = 0;
	int rc = pairs && paired ? 0 : -ENOMEM;
	/* The store's earlier runs of each cell: those before this run. */
	char id[17];
	const char *skip[] = {id};
	run_id(r, id);
	struct cmp_hist_ctx hist = {.scenario = r->name, .before = r->started, .skip = skip, .nskip = 1};
	for (size_t i = 0; rc == 0 && i < r->ncells; i++) {
		const char *vi = run_cell_param(&r->cells[i], p);
		if (!vi || strcmp(vi, base) != 0)
			continue;
		for (size_t j = 0; rc == 0 && j < r->ncells; j++) {
			const char *vj = run_cell_param(&r->cells[j], p);
			if (!vj || strcmp(vj, base) == 0 || !same_but(&r->cells[i], &r->cells[j], p))
				continue;
			pairs[n] = (struct cmp_pair){.a = &r->cells[i],
			                             .b = &r->cells[j],
			                             .host_a = compare_store_host(r, &r->cells[i]),
			                             .host_b = compare_store_host(r, &r->cells[j]),
			                             .hist = &hist};
			paired[j] = true;
			rc = pair_text(&pairs[n++], p);
		}
	}
	if (rc == 0) {
		fprintf(out, "- Pairs: %zu (A: the cell with the baseline value, B: the other)\n", n);
		char head[300];
		snprintf(head, sizeof(head), "%s | # | other parameters", p);
		rc = cmp_render(out, pairs, n, o, head, 3, res);
	}
	if (rc == 0)
		list_left_out(out, r, p, base, paired);
	cmp_pairs_free(pairs, n);
	free(paired);
	return rc;
}

int rep_compare_by(const char *dir, const struct compare_opts *o, FILE *out, struct diag *d,
                   struct cmp_outcome *res)
{
	struct run r;
	if (res)
		*res = (struct cmp_outcome){0};
	int rc = compare_load(dir, &r, d);
	if (rc < 0) {
		run_free(&r);
		return rc;
	}
	const struct run_cell *first = first_with(&r, o->by);
	if (!first) {
		diag_add(d, DIAG_ERROR, NULL, "compare --by %s: no cell of %s has the parameter %s", o->by,
		         dir, o->by);
		run_free(&r);
		return -EINVAL;
	}
	const char *base = run_cell_param(first, o->by);
	fputs("# Compare by ", out);
	rep_md_cell(out, o->by);
	fputs("\n\n- Run: `", out);
	rep_md_cell(out, dir);
	fputs("`", out);
	if (r.name) {
		fputs(" (", out);
		rep_md_cell(out, r.name);
		fputc(')', out);
	}
	fputs("\n- Baseline: ", out);
	rep_md_cell(out, o->by);
	fputc('=', out);
	rep_md_cell(out, base);
	fputs(" (the value of the run's first cell)\n", out);
	rc = by_body(out, &r, o, base, res);
	run_free(&r);
	if (rc < 0)
		return rc;
	return ferror(out) ? -EIO : 0;
}
