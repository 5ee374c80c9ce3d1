/* compare: `benchgrid compare A B` — the cells two runs share, side by side.
 *
 * A and B are result directories (holding results.json) or results.json
 * files. Cells are matched by id (the hash of their parameters), so the two
 * runs may come from different scenarios or machines. For every shared cell,
 * step and metric present in both, one Markdown table row gives A, B and the
 * ratio B/A (means over repetitions). A last table gives per metric the
 * geometric mean of the ratios over the shared cells (ratios of positive
 * values only), which is the fair single figure for "B is x times A".
 * Cells record the host they ran on: a shared cell that ran on different
 * hosts in A and B is flagged, unless all of A ran on one host and all of B
 * on another (then one line says two machines are compared). */
#include "compare.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rep_fmt.h"
#include "rep_hosts.h"
#include "results.h"

static int load(const char *path, struct run *r, struct diag *d)
{
	struct stat st;
	char *file = NULL;
	int rc;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		if (asprintf(&file, "%s/results.json", path) < 0)
			return -ENOMEM;
	} else {
		file = strdup(path);
		if (!file)
			return -ENOMEM;
	}
	rc = results_read_json(r, file, d);
	free(file);
	return rc;
}

struct geo {
	char *ref, *unit;
	double logsum;
	size_t n;
};

static void geo_add(struct geo **g, size_t *ng, const char *ref, const char *unit, double ratio)
{
	size_t i;
	for (i = 0; i < *ng; i++)
		if (strcmp((*g)[i].ref, ref) == 0)
			break;
	if (i == *ng) {
		struct geo *v = realloc(*g, (*ng + 1) * sizeof(*v));
		if (!v)
			return;
		*g = v;
		v[i] = (struct geo){strdup(ref), strdup(unit), 0, 0};
		(*ng)++;
	}
	if (ratio > 0 && isfinite(ratio)) {
		(*g)[i].logsum += log(ratio);
		(*g)[i].n++;
	}
}

/* The cells of x that y lacks, one line each. */
static void list_unshared(FILE *out, const char *name, const struct run *x, const struct run *y)
{
	char label[512];
	bool any = false;
	for (size_t i = 0; i < x->ncells; i++) {
		if (run_find_cell(y, x->cells[i].id))
			continue;
		if (!any)
			fprintf(out, "## Only in %s\n\n", name);
		any = true;
		run_cell_label(&x->cells[i], label, sizeof(label));
		fprintf(out, "- %zu `%s` ", x->cells[i].index, x->cells[i].id);
		rep_md_cell(out, label);
		fputc('\n', out);
	}
	if (any)
		fputc('\n', out);
}

/* "- A: `path` (name)" */
static void compare_run_line(FILE *out, const char *label, const char *path, const char *name)
{
	fprintf(out, "- %s: `", label);
	rep_md_cell(out, path);
	fputs("`", out);
	if (name) {
		fputs(" (", out);
		rep_md_cell(out, name);
		fputs(")", out);
	}
	fputc('\n', out);
}

/* "- Hosts of A: a (4 cells), b (2 cells) ..." when x's cells ran on
 * more than one host. */
static void run_hosts_note(FILE *out, const char *name, const struct rep_hosts *h)
{
	if (h->names.n < 2)
		return;
	fprintf(out, "- Hosts of %s: ", name);
	rep_hosts_list(out, h);
	fprintf(out, "; comparisons between cells of %s may be the hardware's\n", name);
}

/* Shared cells whose hosts (both known) differ. */
static bool hosts_differ(const struct run_cell *ca, const struct run_cell *cb)
{
	const char *ha = rep_cell_host(ca), *hb = rep_cell_host(cb);
	return ha && hb && strcmp(ha, hb) != 0;
}

/* The lines on hosts under the cell counts; nothing when A and B ran on
 * one and the same host (or recorded none). When every cell of A ran on
 * one host and every cell of B on another, one line says that the two
 * machines are compared; else shared cells that ran on different hosts
 * are counted here and flagged in the table (returns true). */
static bool compare_hosts_note(FILE *out, const struct run *a, const struct run *b, size_t shared)
{
	struct rep_hosts ha = {0}, hb = {0};
	bool flag = false;
	if (rep_hosts_count(a, NULL, 0, &ha) == 0 && rep_hosts_count(b, NULL, 0, &hb) == 0) {
		if (ha.names.n == 1 && hb.names.n == 1 && strcmp(ha.names.v[0], hb.names.v[0]) != 0) {
			fputs("- Hosts: every cell of A ran on ", out);
			rep_md_cell(out, ha.names.v[0]);
			fputs(", every cell of B on ", out);
			rep_md_cell(out, hb.names.v[0]);
			fputs(": this compares two machines as well as the runs\n", out);
		} else {
			run_hosts_note(out, "A", &ha);
			run_hosts_note(out, "B", &hb);
			size_t n = 0;
			for (size_t i = 0; i < a->ncells; i++) {
				const struct run_cell *cb = run_find_cell(b, a->cells[i].id);
				n += cb && hosts_differ(&a->cells[i], cb);
			}
			if (n)
				fprintf(out, "- **Warning:** %zu of %zu shared cells %s\n", n, shared,
				        "ran on a different host in B than in A (marked in the table); their "
				        "ratios may be the hardware's");
			flag = n > 0;
		}
	}
	rep_hosts_free(&ha);
	rep_hosts_free(&hb);
	return flag;
}

/* " (A on a, B on b)" after the label of a cell whose hosts differ. */
static void cell_hosts_flag(FILE *out, const struct run_cell *ca, const struct run_cell *cb)
{
	if (!hosts_differ(ca, cb))
		return;
	fputs(" (A on ", out);
	rep_md_cell(out, rep_cell_host(ca));
	fputs(", B on ", out);
	rep_md_cell(out, rep_cell_host(cb));
	fputc(')', out);
}

int rep_compare(const char *pa, const char *pb, FILE *out, struct diag *d)
{
	struct run a, b;
	int rc = load(pa, &a, d);
	if (rc < 0) {
		run_free(&a);
		return rc;
	}
	rc = load(pb, &b, d);
	if (rc < 0) {
		run_free(&a);
		run_free(&b);
		return rc;
	}

	size_t shared = 0, only_a = 0, only_b = 0;
	for (size_t i = 0; i < a.ncells; i++)
		if (run_find_cell(&b, a.cells[i].id))
			shared++;
		else
			only_a++;
	for (size_t i = 0; i < b.ncells; i++)
		only_b += run_find_cell(&a, b.cells[i].id) == NULL;

	fputs("# Compare\n\n", out);
	compare_run_line(out, "A", pa, a.name);
	compare_run_line(out, "B", pb, b.name);
	fprintf(out, "- Cells: %zu shared, %zu only in A, %zu only in B\n", shared, only_a, only_b);
	bool flag_hosts = compare_hosts_note(out, &a, &b, shared);
	fputc('\n', out);

	struct geo *geo = NULL;
	size_t ngeo = 0;
	char label[512], ref[300], va[64], vb[64], vr[64];
	if (shared) {
		fputs("| # | id | cell | metric | A | B | B/A |\n|---|---|---|---|---|---|---|\n", out);
		for (size_t i = 0; i < a.ncells; i++) {
			const struct run_cell *ca = &a.cells[i], *cb = run_find_cell(&b, ca->id);
			if (!cb)
				continue;
			struct cell_summary *sa = run_cell_summarize(ca), *sb = run_cell_summarize(cb);
			run_cell_label(ca, label, sizeof(label));
			for (size_t s = 0; sa && sb && s < sa->nsteps; s++) {
				const struct step_summary *ss = &sa->steps[s];
				for (size_t k = 0; k < ss->nm; k++) {
					const struct metric_summary *ma = &ss->m[k];
					const struct metric_summary *mb =
					    cell_summary_metric(sb, ss->step, ma->name);
					if (!mb)
						continue;
					snprintf(ref, sizeof(ref), "%s.%s", ss->step, ma->name);
					double ratio = ma->st.mean != 0 ? mb->st.mean / ma->st.mean : NAN;
					rep_fmt_human(ma->st.mean, va, sizeof(va));
					rep_fmt_human(mb->st.mean, vb, sizeof(vb));
					if (isfinite(ratio))
						snprintf(vr, sizeof(vr), "%.3f", ratio);
					else
						snprintf(vr, sizeof(vr), "-");
					fprintf(out, "| %zu | %s | ", ca->index, ca->id);
					rep_md_cell(out, label);
					if (flag_hosts)
						cell_hosts_flag(out, ca, cb);
					fputs(" | ", out);
					rep_md_cell(out, ref);
					if (*ma->unit) {
						fputs(" (", out);
						rep_md_cell(out, ma->unit);
						fputs(")", out);
					}
					fprintf(out, " | %s | %s | %s |\n", va, vb, vr);
					geo_add(&geo, &ngeo, ref, ma->unit, ratio);
				}
			}
			cell_summary_free(sa);
			cell_summary_free(sb);
		}
		fputc('\n', out);
	}
	if (ngeo) {
		fputs("## Geometric mean of B/A per metric\n\n| metric | cells | B/A |\n|---|---|---|\n",
		      out);
		for (size_t i = 0; i < ngeo; i++) {
			fputs("| ", out);
			rep_md_cell(out, geo[i].ref);
			if (geo[i].n)
				fprintf(out, " | %zu | %.3f |\n", geo[i].n,
				        exp(geo[i].logsum / (double)geo[i].n));
			else
				fputs(" | 0 | - |\n", out);
		}
		fputc('\n', out);
	}
	list_unshared(out, "A", &a, &b);
	list_unshared(out, "B", &b, &a);
	for (size_t i = 0; i < ngeo; i++) {
		free(geo[i].ref);
		free(geo[i].unit);
	}
	free(geo);
	run_free(&a);
	run_free(&b);
	return ferror(out) ? -EIO : 0;
}
