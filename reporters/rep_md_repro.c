/* rep_md_repro: notes, the Reproduction section, published figures (see
 * rep_md_repro.h). */
#include "rep_md_repro.h"

#include <math.h>
#include <string.h>

#include "expect_row.h"
#include "rep_fmt.h"
#include "rep_text.h"

void rep_md_notes(FILE *f, const struct node *notes)
{
	size_t n = !notes ? 0 : notes->kind == NODE_SEQ ? notes->n : notes->kind == NODE_SCALAR ? 1 : 0;
	if (n == 0)
		return;
	fputs("**Notes**\n\n", f);
	for (size_t i = 0; i < n; i++) {
		const struct node *v = notes->kind == NODE_SEQ ? notes->items[i] : notes;
		if (v->kind != NODE_SCALAR)
			continue;
		fputs("- ", f);
		rep_md_text(f, v->text);
		fputc('\n', f);
	}
	fputc('\n', f);
}

double rep_md_published(const struct md *m, size_t ci, const char *ref)
{
	for (size_t i = 0; i < m->exp.n; i++) {
		const struct expect_row *row = &m->exp.rows[i];
		if (row->kind == EXPECT_ABSOLUTE && row->cell == (long)ci && strcmp(row->ref, ref) == 0)
			return row->expected;
	}
	return NAN;
}

/* "0.66 [0.495, 0.825]", "< 1" (order), ">= 0.9" (min:/max:). */
static void published_text(const struct expect_row *row, char *buf, size_t len)
{
	char a[24], b[24], c[24];
	if (row->kind == EXPECT_ORDER) {
		snprintf(buf, len, "%s", row->rel == '<' ? "left < right" : "left > right");
		return;
	}
	if (!isfinite(row->expected)) { /* min:/max: bounds without a published figure */
		rep_fmt_bound(row->lower, b, sizeof(b));
		rep_fmt_bound(row->upper, c, sizeof(c));
		if (!isfinite(row->upper))
			snprintf(buf, len, ">= %s", b);
		else if (!isfinite(row->lower))
			snprintf(buf, len, "<= %s", c);
		else
			snprintf(buf, len, "[%s, %s]", b, c);
		return;
	}
	rep_fmt_human(row->expected, a, sizeof(a));
	rep_fmt_bound(row->lower, b, sizeof(b));
	rep_fmt_bound(row->upper, c, sizeof(c));
	snprintf(buf, len, "%s [%s, %s]", a, b, c);
}

static size_t measured_pairs(const struct expect_row *row, size_t *nholds)
{
	size_t n = 0;
	*nholds = 0;
	for (size_t k = 0; k < row->npairs; k++) {
		n += !row->pairs[k].note;
		*nholds += !row->pairs[k].note && row->pairs[k].holds;
	}
	return n;
}

static void claim_row(FILE *f, const struct run *r, const struct rep_strs *vary, const struct expect_row *row)
{
	char a[64], b[128], label[512];
	fprintf(f, "| %zu | ", row->entry + 1);
	rep_md_cell(f, row->claim ? row->claim : "-");
	fputs(" | ", f);
	if (row->kind == EXPECT_ABSOLUTE) {
		rep_md_code(f, row->ref);
		fputc(' ', f);
		if (row->cell >= 0) {
			rep_cell_label_of(&r->cells[row->cell], vary, label, sizeof(label));
			fprintf(f, "of cell %zu (", r->cells[row->cell].index);
			rep_md_cell(f, label);
			fputs("), absolute: on this machine", f);
		} else {
			fputs("absolute: on this machine", f);
		}
	} else if (row->to_ref) { /* two metrics of each cell: check names both */
		fprintf(f, "%s ", row->kind == EXPECT_RATIO ? "ratio" : "order");
		fputs(row->check ? row->check : "", f); /* escaped Markdown */
	} else {
		fprintf(f, "%s of ", row->kind == EXPECT_RATIO ? "ratio" : "order");
		rep_md_code(f, row->ref);
		fputs(": ", f);
		fputs(row->check ? row->check : "", f); /* escaped Markdown */
	}
	fputs(" | ", f);
	rep_fmt_human(row->measured, a, sizeof(a));
	if (row->kind == EXPECT_ABSOLUTE) {
		fprintf(f, "%s", isfinite(row->measured) ? a : "-");
		if (isfinite(row->measured) && row->unit && *row->unit) {
			fputc(' ', f);
			rep_md_cell(f, row->unit);
		}
	} else if (isfinite(row->measured)) {
		size_t nh, nm = measured_pairs(row, &nh);
		fprintf(f, "%s%s (median of %zu pair%s", row->kind == EXPECT_ORDER ? "ratio " : "", a, nm,
		        nm == 1 ? "" : "s");
		if (row->kind == EXPECT_ORDER)
			fprintf(f, "; %zu hold", nh);
		fputc(')', f);
	} else {
		fputc('-', f);
	}
	published_text(row, b, sizeof(b));
	fprintf(f, " | %s | %s%s | ", b, expect_status_name(row->status),
	        expect_row_strict_fail(row) ? " (strict)" : "");
	rep_md_cell(f, row->note && (!row->claim || strcmp(row->note, row->claim)) ? row->note : "");
	fprintf(f, " | %s |\n", expect_role_name(row->role));
}

static void cell_ref(FILE *f, const struct run *r, const struct rep_strs *vary, size_t ci)
{
	char label[512];
	rep_cell_label_of(&r->cells[ci], vary, label, sizeof(label));
	fprintf(f, "%zu (", r->cells[ci].index);
	rep_md_cell(f, label);
	fputc(')', f);
}

static void value_text(FILE *f, double v, const char *unit)
{
	char a[64];
	if (!isfinite(v)) {
		fputc('-', f);
		return;
	}
	rep_fmt_human(v, a, sizeof(a));
	fputs(a, f);
	if (unit && *unit) {
		fputc(' ', f);
		rep_md_cell(f, unit);
	}
}

/* Every pair of the ratio and order rows, one table. */
static void pairs_table(FILE *f, const struct run *r, const struct rep_strs *vary,
                        const struct expect_result *res)
{
	size_t n = 0;
	for (size_t i = 0; i < res->n; i++)
		n += res->rows[i].npairs;
	if (n == 0)
		return;
	fputs("### Pairs\n\nEach cell matching `where` (an order's left side) with the cell matching `to` "
	      "(its right side) that has the same value for every parameter `to` does not name. Between "
	      "two metrics of each cell, the cell stands once (cell (to) is \"same\"), `where` holds "
	      "its `of` (left) metric and `to` its `to` (right) metric.\n\n"
	      "| # | cell (where) | cell (to) | where | to | ratio | holds |\n",
	      f);
	rep_md_row_sep(f, 7);
	for (size_t i = 0; i < res->n; i++) {
		const struct expect_row *row = &res->rows[i];
		for (size_t k = 0; k < row->npairs; k++) {
			const struct expect_pair *p = &row->pairs[k];
			char a[64];
			fprintf(f, "| %zu | ", row->entry + 1);
			cell_ref(f, r, vary, p->a);
			fputs(" | ", f);
			if (row->to_ref)
				fputs("same", f);
			else
				cell_ref(f, r, vary, p->b);
			fputs(" | ", f);
			value_text(f, p->va, row->unit);
			fputs(" | ", f);
			value_text(f, p->vb, row->to_ref ? row->unit_to : row->unit);
			rep_fmt_human(p->ratio, a, sizeof(a));
			fprintf(f, " | %s | ", isfinite(p->ratio) ? a : "-");
			if (p->note)
				rep_md_cell(f, p->note);
			else
				fputs(p->holds ? "yes" : "no", f);
			fputs(" |\n", f);
		}
	}
	fputc('\n', f);
}

/* "2 PASS, 1 INCONCLUSIVE" of the shape (or absolute) rows; "none". */
static void tally(FILE *f, const struct expect_result *res, bool shape)
{
	size_t count[EXPECT_NSTATUS] = {0}, n = 0;
	for (size_t i = 0; i < res->n; i++)
		if (expect_row_is_shape(&res->rows[i]) == shape) {
			count[res->rows[i].status]++;
			n++;
		}
	bool first = true;
	for (int s = 0; s < EXPECT_NSTATUS; s++)
		if (count[s]) {
			fprintf(f, "%s%zu %s", first ? "" : ", ", count[s],
			        expect_status_name((enum expect_status)s));
			first = false;
		}
	if (n == 0)
		fputs("none", f);
}

/* The cells run without their models (the control arm) and the scale of
 * the models, from the cells' facts (devmodel.h). */
static void models_text(FILE *f, const struct run *r)
{
	size_t off = 0, on = 0;
	const char *scale = NULL;
	bool mixed = false;
	for (size_t i = 0; i < r->ncells; i++) {
		const char *mo = result_info_get(&r->cells[i].facts, "models");
		const char *sc = result_info_get(&r->cells[i].facts, "model.scale");
		off += mo && !strcmp(mo, "off");
		on += mo && !strcmp(mo, "on");
		if (mo && !strcmp(mo, "on") && sc) {
			mixed |= scale && strcmp(scale, sc) != 0;
			scale = scale ? scale : sc;
		}
	}
	if (off) {
		fprintf(f,
		        "%zu cell%s ran with `models: false`: the control arm, without the device models "
		        "(memory limits and sysctls kept):",
		        off, off == 1 ? "" : "s");
		for (size_t i = 0; i < r->ncells; i++) {
			const char *mo = result_info_get(&r->cells[i].facts, "models");
			if (mo && !strcmp(mo, "off"))
				fprintf(f, " %zu", r->cells[i].index);
		}
		fputs(".\n\n", f);
	}
	if (on && scale && (mixed || strcmp(scale, "1") != 0)) {
		fputs("The device models are scaled by `model_scale`", f);
		if (mixed) {
			fputs(" (cell: factor —", f);
			bool first = true;
			for (size_t i = 0; i < r->ncells; i++) {
				const char *sc = result_info_get(&r->cells[i].facts, "model.scale");
				const char *mo = result_info_get(&r->cells[i].facts, "models");
				if (!sc || !mo || strcmp(mo, "on") != 0)
					continue;
				fprintf(f, "%s %zu: ", first ? "" : ",", r->cells[i].index);
				rep_md_text(f, sc);
				first = false;
			}
			fputc(')', f);
		} else {
			fputc(' ', f);
			rep_md_text(f, scale);
		}
		fputs(
		    ": it multiplies every bytes/s and IO/s limit of every model (latency service times are "
		    "divided by it; sizes stay), so the ratios between devices are kept.\n\n",
		    f);
	}
}

void rep_md_repro(struct rep_ctx *cx, struct md *m, FILE *f)
{
	const struct run *r = cx->run;
	const struct expect_result *res = &m->exp;
	size_t nrel = 0, nabs = 0;
	for (size_t i = 0; i < res->n; i++) {
		nrel += res->rows[i].kind != EXPECT_ABSOLUTE;
		nabs += res->rows[i].kind == EXPECT_ABSOLUTE;
	}
	if (nrel + nabs == 0)
		return;
	fputs("## Reproduction\n\n", f);
	fputs("Each published claim and the expectation that checks it. Ratio and order expectations compare "
	      "cells of this run with each other (or two metrics of each cell), so they carry across "
	      "machines",
	      f);
	if (r->repeat > 1)
		fprintf(f, " (cell values are medians over the %zu repeats)", r->repeat);
	fputs("; absolute figures hold only on the publication's hardware and are shown as context on this "
	      "machine.\n\n",
	      f);
	fprintf(f, "%zu PASS, %zu FAIL, %zu XFAIL, %zu XPASS, %zu SKIP", res->count[EXPECT_PASS],
	        res->count[EXPECT_FAIL], res->count[EXPECT_XFAIL], res->count[EXPECT_XPASS],
	        res->count[EXPECT_SKIP]);
	if (res->count[EXPECT_INCONCLUSIVE])
		fprintf(f, ", %zu INCONCLUSIVE", res->count[EXPECT_INCONCLUSIVE]);
	if (res->nstrict)
		fprintf(f, "; %zu strict failure%s", res->nstrict, res->nstrict == 1 ? "" : "s");
	fputs(" (all expectations).\n\n", f);
	if (nrel) {
		fputs("- shape checks (ratio and order: they carry across machines): ", f);
		tally(f, res, true);
		fputs("\n", f);
	}
	if (nabs) {
		fputs("- absolute checks (on this machine only): ", f);
		tally(f, res, false);
		fputs("\n", f);
	}
	fputs("\n", f);
	if (res->count[EXPECT_INCONCLUSIVE])
		fputs(
		    "INCONCLUSIVE: the shape was measured, but a compared cell's device models did not limit "
		    "it (no model at its `bind:` utilisation, 80 % unless the entry says), or a compared "
		    "cell was CPU-bound (idle + iowait below 5 %) while other processes took more than 10 % "
		    "of the CPUs (a busy machine); the note says which, and the verdict the shape alone "
		    "had.\n\n",
		    f);
	models_text(f, r);
	/* the shapes; the absolute figures once, in *Published vs measured* */
	if (nrel) {
		fputs("| # | published claim | checked by | measured | published | verdict | note | role |\n",
		      f);
		rep_md_row_sep(f, 8);
		for (size_t i = 0; i < res->n; i++)
			if (res->rows[i].kind != EXPECT_ABSOLUTE)
				claim_row(f, r, &m->vary, &res->rows[i]);
		fputc('\n', f);
	}
	if (nabs)
		fprintf(f, "The %zu absolute figure%s: *Published vs measured* below.\n\n", nabs,
		        nabs == 1 ? "" : "s");
	pairs_table(f, r, &m->vary, res);
}
