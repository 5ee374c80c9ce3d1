/* compare: `benchgrid compare A B` — the cells two runs share, side by side.
 *
 * A and B are result directories (holding results.json) or results.json
 * files. Cells are matched by id (the hash of their parameters), so the two
 * runs may come from different scenarios or machines. The pairs of shared
 * cells go to compare_render (medians, ratio, test, verdicts). Cells record
 * the host and kernel they ran on: a shared cell that ran on different
 * hosts (kernels) in A and B is flagged, unless all of A ran on one host
 * (kernel) and all of B on another (then one line says so). A shared cell
 * whose loop device had direct I/O in one run and not in the other is
 * flagged too (dev.loop_direct_io). */
#include "compare.h"
#include "compare_render.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "rep_text.h"
#include "rep_hosts.h"
#include "results.h"

int compare_load(const char *path, struct run *r, struct diag *d)
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
		fprintf(out, "- %zu ", x->cells[i].index);
		cmp_md_id(out, x->cells[i].id, true);
		fputc(' ', out);
		rep_md_cell(out, label);
		fputc('\n', out);
	}
	if (any)
		fputc('\n', out);
}

/* "- A: `path` (name)" */
static void compare_run_line(FILE *out, const char *label, const char *path, const char *name)
{
	fprintf(out, "- %s: ", label);
	rep_md_code(out, path);
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

/* The kernel a cell ran on: the release, the first word of the fact
 * machine.kernel of the cell, else of the run's environment. */
static void cell_kernel(const struct run *r, const struct run_cell *c, char *buf, size_t len)
{
	const char *k = result_info_get(&c->facts, "machine.kernel");
	if (!k)
		k = result_info_get(&r->env, "machine.kernel");
	size_t n = k ? strcspn(k, " ") : 0;
	snprintf(buf, len, "%.*s", (int)n, k ? k : "");
}

static bool kernels_differ(const struct run *a, const struct run_cell *ca, const struct run *b,
                           const struct run_cell *cb)
{
	char ka[256], kb[256];
	cell_kernel(a, ca, ka, sizeof(ka));
	cell_kernel(b, cb, kb, sizeof(kb));
	return *ka && *kb && strcmp(ka, kb) != 0;
}

/* Like the hosts: one line when every shared cell differs and each run has
 * one kernel, else a warning and a flag per cell (returns true). */
static bool compare_kernels_note(FILE *out, const struct run *a, const struct run *b, size_t shared)
{
	size_t n = 0;
	bool one_a = true, one_b = true;
	char k0a[256] = "", k0b[256] = "", k[256];
	for (size_t i = 0; i < a->ncells; i++) {
		const struct run_cell *cb = run_find_cell(b, a->cells[i].id);
		if (!cb)
			continue;
		n += kernels_differ(a, &a->cells[i], b, cb);
		cell_kernel(a, &a->cells[i], k, sizeof(k));
		one_a &= !*k0a || strcmp(k, k0a) == 0;
		if (!*k0a)
			snprintf(k0a, sizeof(k0a), "%s", k);
		cell_kernel(b, cb, k, sizeof(k));
		one_b &= !*k0b || strcmp(k, k0b) == 0;
		if (!*k0b)
			snprintf(k0b, sizeof(k0b), "%s", k);
	}
	if (!n)
		return false;
	if (n == shared && one_a && one_b) {
		fputs("- Kernels: A ran on Linux ", out);
		rep_md_cell(out, k0a);
		fputs(", B on ", out);
		rep_md_cell(out, k0b);
		fputs(": differences may be the kernel's\n", out);
		return false;
	}
	fprintf(out,
	        "- **Warning:** %zu of %zu shared cells ran on a different kernel in B than in A "
	        "(marked); their ratios may be the kernel's\n",
	        n, shared);
	return true;
}

/* Whether a cell's loop device read its image with direct I/O ("1") or
 * through the page cache ("0"); NULL when not a loop target. The default
 * changed (issue 27): runs on either side of it measure different things. */
static const char *cell_loop_dio(const struct run_cell *c)
{
	return result_info_get(&c->facts, "dev.loop_direct_io");
}

static bool loop_dio_differs(const struct run_cell *ca, const struct run_cell *cb)
{
	const char *x = cell_loop_dio(ca), *y = cell_loop_dio(cb);
	return x && y && strcmp(x, y) != 0;
}

/* A warning when shared cells' loop devices read their images one way in A
 * and the other in B (each such cell is marked). */
static bool compare_loop_dio_note(FILE *out, const struct run *a, const struct run *b, size_t shared)
{
	size_t n = 0;
	for (size_t i = 0; i < a->ncells; i++) {
		const struct run_cell *cb = run_find_cell(b, a->cells[i].id);
		n += cb && loop_dio_differs(&a->cells[i], cb);
	}
	if (n)
		fprintf(out,
		        "- **Warning:** %zu of %zu shared cells read their loop image with direct I/O in "
		        "one run and through the host's page cache in the other (marked); their ratios "
		        "may be the page cache's\n",
		        n, shared);
	return n > 0;
}

/* "0 `id` fs=ext4 (A on h1, B on h2)" and the table's "0 | id | fs=ext4 ..." */
static int pair_text(struct cmp_pair *p, const struct run *a, const struct run *b, bool flag_hosts,
                     bool flag_kernels, bool flag_dio)
{
	char label[512], *flag = NULL;
	size_t flen = 0;
	FILE *f = open_memstream(&flag, &flen);
	if (!f)
		return -ENOMEM;
	if (flag_hosts)
		cell_hosts_flag(f, p->a, p->b);
	if (flag_kernels && kernels_differ(a, p->a, b, p->b)) {
		char ka[256], kb[256];
		cell_kernel(a, p->a, ka, sizeof(ka));
		cell_kernel(b, p->b, kb, sizeof(kb));
		fputs(" (kernel A ", f);
		rep_md_cell(f, ka);
		fputs(", B ", f);
		rep_md_cell(f, kb);
		fputc(')', f);
	}
	if (flag_dio && loop_dio_differs(p->a, p->b))
		fprintf(f, " (loop direct I/O A %s, B %s)", strcmp(cell_loop_dio(p->a), "1") ? "off" : "on",
		        strcmp(cell_loop_dio(p->b), "1") ? "off" : "on");
	fclose(f);
	run_cell_label(p->a, label, sizeof(label));
	char *cell = NULL;
	size_t clen = 0;
	f = open_memstream(&cell, &clen);
	if (!f) {
		free(flag);
		return -ENOMEM;
	}
	rep_md_cell(f, label);
	fclose(f);
	char *idc = NULL, *idt = NULL; /* the id in the verdict line, in the table */
	size_t ilen = 0;
	if ((f = open_memstream(&idc, &ilen))) {
		cmp_md_id(f, p->a->id, true);
		fclose(f);
	}
	if ((f = open_memstream(&idt, &ilen))) {
		cmp_md_id(f, p->a->id, false);
		fclose(f);
	}
	int r1 = -1, r2 = -1;
	if (idc && idt) {
		r1 = asprintf(&p->label, "%zu %s %s%s", p->a->index, idc, cell, flag ? flag : "");
		r2 = asprintf(&p->row_head, "%zu | %s | %s%s", p->a->index, idt, cell, flag ? flag : "");
	}
	free(idc);
	free(idt);
	free(cell);
	free(flag);
	if (r1 < 0)
		p->label = NULL;
	if (r2 < 0)
		p->row_head = NULL;
	return r1 < 0 || r2 < 0 ? -ENOMEM : 0;
}

const char *compare_store_host(const struct run *r, const struct run_cell *c)
{
	const char *h = result_info_get(&c->facts, "host");
	return h ? h : result_info_get(&r->env, "machine.host");
}

/* The same cell in every run of a side (the first run's cell first). */
static const struct run_cell **side_cells(const struct run *runs, size_t n, const char *id, size_t *k)
{
	const struct run_cell **v = calloc(n, sizeof(*v));
	*k = 0;
	for (size_t i = 0; v && i < n; i++) {
		const struct run_cell *c = run_find_cell(&runs[i], id);
		if (c)
			v[(*k)++] = c;
	}
	return v;
}

static int compare_body(FILE *out, const struct run *a, size_t na, const struct run *b, size_t nb,
                        size_t shared, bool flag_hosts, bool flag_kernels, bool flag_dio,
                        const struct cmp_hist_ctx *hist, const struct compare_opts *o,
                        struct cmp_outcome *res)
{
	struct cmp_pair *pairs = calloc(shared ? shared : 1, sizeof(*pairs));
	size_t n = 0;
	int rc = pairs ? 0 : -ENOMEM;
	for (size_t i = 0; rc == 0 && i < a->ncells; i++) {
		const struct run_cell *cb = run_find_cell(b, a->cells[i].id);
		if (!cb)
			continue;
		struct cmp_pair *p = &pairs[n++];
		*p = (struct cmp_pair){.a = &a->cells[i],
		                       .b = cb,
		                       .host_a = compare_store_host(a, &a->cells[i]),
		                       .host_b = compare_store_host(b, cb),
		                       .hist = hist};
		if (na > 1 || nb > 1) {
			p->as = side_cells(a, na, a->cells[i].id, &p->nas);
			p->bs = side_cells(b, nb, a->cells[i].id, &p->nbs);
			if (!p->as || !p->bs)
				rc = -ENOMEM;
		}
		if (rc == 0)
			rc = pair_text(p, a, b, flag_hosts, flag_kernels, flag_dio);
	}
	if (rc == 0)
		rc = cmp_render(out, pairs, n, o, "# | id | cell", 3, res);
	for (size_t i = 0; i < n; i++) {
		free((void *)pairs[i].as);
		free((void *)pairs[i].bs);
	}
	cmp_pairs_free(pairs, n);
	return rc;
}

/* "- A: `path` (name)", or "- A: 3 runs: `p1`, `p2`, `p3` (name)" */
static void side_line(FILE *out, const char *label, const char *const *paths, size_t n, const struct run *r)
{
	if (n == 1) {
		compare_run_line(out, label, paths[0], r->name);
		return;
	}
	fprintf(out, "- %s: %zu runs: ", label, n);
	for (size_t i = 0; i < n; i++) {
		fputs(i ? ", " : "", out);
		rep_md_code(out, paths[i]);
	}
	if (r->name) {
		fputs(" (", out);
		rep_md_cell(out, r->name);
		fputs(")", out);
	}
	fputc('\n', out);
}

static int load_side(const char *const *paths, size_t n, struct run **out, struct diag *d)
{
	*out = calloc(n, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		int rc = compare_load(paths[i], &(*out)[i], d);
		if (rc < 0) {
			for (size_t j = 0; j <= i; j++)
				run_free(&(*out)[j]);
			free(*out);
			*out = NULL;
			return rc;
		}
	}
	return 0;
}

static void free_side(struct run *r, size_t n)
{
	for (size_t i = 0; r && i < n; i++)
		run_free(&r[i]);
	free(r);
}

int rep_compare_sides(const char *const *pa, size_t na, const char *const *pb, size_t nb,
                      const struct compare_opts *o, FILE *out, struct diag *d, struct cmp_outcome *res)
{
	struct run *ra = NULL, *rb = NULL;
	if (res)
		*res = (struct cmp_outcome){0};
	if (!na || !nb)
		return -EINVAL;
	int rc = load_side(pa, na, &ra, d);
	if (rc == 0)
		rc = load_side(pb, nb, &rb, d);
	if (rc < 0) {
		free_side(ra, na);
		return rc;
	}
	const struct run *a = &ra[0], *b = &rb[0];

	size_t shared = 0, only_a = 0, only_b = 0;
	for (size_t i = 0; i < a->ncells; i++)
		if (run_find_cell(b, a->cells[i].id))
			shared++;
		else
			only_a++;
	for (size_t i = 0; i < b->ncells; i++)
		only_b += run_find_cell(a, b->cells[i].id) == NULL;

	/* The store's earlier runs: of A's scenario (the baseline's; its host
	 * and configuration per cell), started before the baseline (A's first
	 * run) started, none of the runs compared. Not before B: runs of the
	 * changed code made between A and B would widen A's noise and hide a
	 * real change. */
	char(*ids)[17] = calloc(na + nb, sizeof(*ids));
	const char **skip = calloc(na + nb, sizeof(*skip));
	struct cmp_hist_ctx hist = {.scenario = a->name, .skip = skip, .nskip = na + nb};
	rc = ids && skip ? 0 : -ENOMEM;
	for (size_t i = 0; rc == 0 && i < na + nb; i++) {
		const struct run *r = i < na ? &ra[i] : &rb[i - na];
		run_id(r, ids[i]);
		skip[i] = ids[i];
		if (i < na && (i == 0 || r->started < hist.before))
			hist.before = r->started;
		/* the same run twice would pass for a second, agreeing run */
		for (size_t j = 0; j < i && na + nb > 2; j++)
			if (strcmp(ids[j], ids[i]) == 0) {
				diag_add(d, DIAG_ERROR, NULL, "compare: %s and %s are the same run (id %s)",
				         j < na ? pa[j] : pb[j - na], i < na ? pa[i] : pb[i - na], ids[i]);
				rc = -EINVAL;
				break;
			}
	}
	if (rc < 0) {
		free(ids);
		free(skip);
		free_side(ra, na);
		free_side(rb, nb);
		return rc;
	}

	fputs("# Compare\n\n", out);
	side_line(out, "A", pa, na, a);
	side_line(out, "B", pb, nb, b);
	fprintf(out, "- Cells: %zu shared, %zu only in A, %zu only in B\n", shared, only_a, only_b);
	bool flag_hosts = compare_hosts_note(out, a, b, shared);
	bool flag_kernels = compare_kernels_note(out, a, b, shared);
	bool flag_dio = compare_loop_dio_note(out, a, b, shared);
	rc = compare_body(out, ra, na, rb, nb, shared, flag_hosts, flag_kernels, flag_dio, &hist, o, res);
	if (rc == 0) {
		list_unshared(out, "A", a, b);
		list_unshared(out, "B", b, a);
	}
	free(ids);
	free(skip);
	free_side(ra, na);
	free_side(rb, nb);
	if (rc < 0)
		return rc;
	return ferror(out) ? -EIO : 0;
}

int rep_compare_runs(const char *pa, const char *pb, const struct compare_opts *o, FILE *out, struct diag *d,
                     bool *failed)
{
	struct cmp_outcome res;
	int rc = rep_compare_sides(&pa, 1, &pb, 1, o, out, d, &res);
	if (failed)
		*failed = res.failed;
	return rc;
}

int rep_compare(const char *a, const char *b, FILE *out, struct diag *d)
{
	struct compare_opts o;
	compare_opts_init(&o);
	return rep_compare_runs(a, b, &o, out, d, NULL);
}
