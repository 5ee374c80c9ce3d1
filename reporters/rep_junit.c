/* rep_junit: junit.xml (see rep_junit.h). */
#include "rep_junit.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "expect.h"
#include "rep_file.h"
#include "utf8.h"

/* ---- XML 1.0 text ---- */

/* U+FFFE and U+FFFF: valid UTF-8, but not characters of XML 1.0. */
static bool xml_nonchar(const char *s, size_t k)
{
	const unsigned char *u = (const unsigned char *)s;
	return k == 3 && u[0] == 0xef && u[1] == 0xbf && (u[2] == 0xbe || u[2] == 0xbf);
}

/* s[0..n) as element text (attr false) or as an attribute value in double
 * quotes: a byte that starts no valid UTF-8 character, and a character XML
 * 1.0 does not allow (C0 controls but TAB, LF and CR, which not even a
 * reference may name; U+FFFE, U+FFFF), becomes U+FFFD; markup is escaped.
 * In an attribute TAB, LF and CR are references, which a parser gives back
 * (it turns the characters into spaces); CR is one in text too, since a
 * parser drops it from CR LF. */
static void xml_putn(FILE *f, const char *s, size_t n, bool attr)
{
	for (size_t i = 0; i < n;) {
		size_t k = utf8_char_len(s + i, n - i, UTF8_NO_CONTROLS);
		if (k == 0 || xml_nonchar(s + i, k)) {
			fputs(UTF8_REPLACEMENT, f);
			i += k ? k : 1;
			continue;
		}
		const char *esc = NULL;
		switch (s[i]) {
		case '&': esc = "&amp;"; break;
		case '<': esc = "&lt;"; break;
		case '>': esc = "&gt;"; break;
		case '"': esc = attr ? "&quot;" : NULL; break;
		case '\t': esc = attr ? "&#9;" : NULL; break;
		case '\n': esc = attr ? "&#10;" : NULL; break;
		case '\r': esc = "&#13;"; break;
		default: break;
		}
		if (esc)
			fputs(esc, f);
		else
			fwrite(s + i, 1, k, f);
		i += k;
	}
}

static void xml_text(FILE *f, const char *s)
{
	xml_putn(f, s ? s : "", s ? strlen(s) : 0, false);
}

/* ` name="value"` */
static void xml_attr(FILE *f, const char *name, const char *value)
{
	fprintf(f, " %s=\"", name);
	xml_putn(f, value ? value : "", value ? strlen(value) : 0, true);
	fputc('"', f);
}

/* A message attribute: the first line of s, at most 240 bytes, cut
 * before a character (xml_putn would turn half of one into U+FFFD). */
static void xml_message(FILE *f, const char *s)
{
	size_t n = s ? strcspn(s, "\r\n") : 0;
	if (n > 240) {
		n = 240;
		while (n > 0 && ((unsigned char)s[n] & 0xc0) == 0x80)
			n--;
	}
	fputs(" message=\"", f);
	xml_putn(f, s ? s : "", n, true);
	fputc('"', f);
}

/* ---- the suites ---- */

enum verdict { V_PASSED, V_FAILURE, V_ERROR, V_SKIPPED };

struct suite {
	size_t tests, failures, errors, skipped;
	double time;
};

static void suite_add(struct suite *s, enum verdict v, double time)
{
	s->tests++;
	s->failures += v == V_FAILURE;
	s->errors += v == V_ERROR;
	s->skipped += v == V_SKIPPED;
	s->time += isfinite(time) && time > 0 ? time : 0;
}

/* As pytest reports them: an unexpected pass fails only a strict entry;
 * an expected failure, a row without a cell and an inconclusive one are
 * skipped, with the reason. */
static enum verdict row_verdict(const struct expect_row *row)
{
	switch (row->status) {
	case EXPECT_PASS: return V_PASSED;
	case EXPECT_FAIL: return V_FAILURE;
	case EXPECT_XPASS: return row->strict ? V_FAILURE : V_PASSED;
	default: return V_SKIPPED; /* XFAIL, SKIP, INCONCLUSIVE */
	}
}

static const char *scenario_name(const struct run *r)
{
	return r->name && *r->name ? r->name : "benchgrid";
}

/* SCENARIO.what, the scenario's own dots as _: Jenkins splits a classname
 * at its dots into packages, and the scenario is one. */
static void put_classname(FILE *f, const struct run *r, const char *what)
{
	char buf[512];
	snprintf(buf, sizeof(buf) - 16, "%s", scenario_name(r)); /* room for .what */
	for (char *p = buf; *p; p++)
		if (*p == '.')
			*p = '_';
	size_t n = strlen(buf);
	snprintf(buf + n, sizeof(buf) - n, ".%s", what);
	xml_attr(f, "classname", buf);
}

static void suite_open(FILE *f, const struct run *r, const char *what, const struct suite *s)
{
	char name[512], stamp[32] = "";
	time_t t = (time_t)r->started;
	struct tm tm;
	snprintf(name, sizeof(name), "%s: %s", scenario_name(r), what);
	fputs("  <testsuite", f);
	xml_attr(f, "name", name);
	fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\"", s->tests,
	        s->failures, s->errors, s->skipped, s->time);
	if (r->started > 0 && gmtime_r(&t, &tm))
		strftime(stamp, sizeof(stamp), "%Y-%m-%dT%H:%M:%SZ", &tm);
	if (*stamp)
		xml_attr(f, "timestamp", stamp);
	const char *host = result_info_get(&r->env, "machine.host");
	if (host)
		xml_attr(f, "hostname", host);
	fputs(s->tests ? ">\n" : "/>\n", f);
}

/* ---- expectations ---- */

/* A side of a ratio or order: {param: value} or a step.metric. */
static void side_text(const struct node *n, char *buf, size_t len)
{
	if (n && n->kind == NODE_MAP)
		expect_where_text(n, buf, len);
	else if (n && n->kind == NODE_SCALAR)
		snprintf(buf, len, "%s", n->text);
	else
		snprintf(buf, len, "all cells");
}

/* The testcase's name: the entry's number (report.md's #), what it checks
 * and, for an absolute entry, the cell: stable from run to run, so CI
 * follows a test case's history; the figures are in the message. */
static void row_name(const struct run *r, const struct expect_row *row, char *buf, size_t len)
{
	const struct node *ex = r->expect_cfg;
	const struct node *e =
	    ex && ex->kind == NODE_SEQ && row->entry < ex->n ? ex->items[row->entry] : NULL;
	char a[256], b[256], label[512];
	if (row->kind == EXPECT_ABSOLUTE && row->cell >= 0) {
		run_cell_label(&r->cells[row->cell], label, sizeof(label));
		snprintf(buf, len, "#%zu %s, cell %zu%s%s%s", row->entry + 1, row->ref,
		         r->cells[row->cell].index, *label ? " (" : "", label, *label ? ")" : "");
		return;
	}
	if (row->kind == EXPECT_ABSOLUTE) {
		snprintf(buf, len, "#%zu %s", row->entry + 1, row->ref);
		return;
	}
	const char *what = row->kind == EXPECT_RATIO ? "ratio" : "order";
	const char *op = row->kind == EXPECT_RATIO ? "/" : row->rel == '>' ? ">" : "<";
	const struct node *spec = e ? node_get(e, what) : NULL;
	if (row->to_ref) { /* two metrics of each cell */
		const struct node *w =
		    row->kind == EXPECT_RATIO ? node_get(spec, "where") : node_get(e, "where");
		side_text(w, a, sizeof(a));
		snprintf(buf, len, "#%zu %s %s %s %s in %s", row->entry + 1, what, row->ref, op, row->to_ref,
		         a);
		return;
	}
	if (row->kind == EXPECT_RATIO) {
		side_text(node_get(spec, "where"), a, sizeof(a));
		side_text(node_get(spec, "to"), b, sizeof(b));
	} else {
		bool three = spec && spec->kind == NODE_SEQ && spec->n == 3;
		side_text(three ? spec->items[0] : NULL, a, sizeof(a));
		side_text(three ? spec->items[2] : NULL, b, sizeof(b));
	}
	snprintf(buf, len, "#%zu %s of %s: %s %s %s", row->entry + 1, what, row->ref, a, op, b);
}

static void put_num(FILE *f, double v)
{
	if (isnan(v))
		fputs("-", f);
	else if (isinf(v))
		fputs(v < 0 ? "-inf" : "+inf", f);
	else
		fprintf(f, "%.6g", v);
}

/* What was measured against what was expected, one line. */
static void row_figures(FILE *f, const struct expect_row *row)
{
	if (!isfinite(row->measured)) {
		fputs("not measured", f);
	} else if (row->kind == EXPECT_ABSOLUTE) {
		fputs("measured ", f);
		put_num(f, row->measured);
		if (row->unit && *row->unit) {
			fputc(' ', f);
			xml_text(f, row->unit);
		}
	} else {
		size_t nm = 0, nh = 0;
		for (size_t k = 0; k < row->npairs; k++) {
			nm += !row->pairs[k].note;
			nh += !row->pairs[k].note && row->pairs[k].holds;
		}
		fputs("measured ratio ", f);
		put_num(f, row->measured);
		fprintf(f, " (median of %zu pair%s", nm, nm == 1 ? "" : "s");
		if (row->kind == EXPECT_ORDER)
			fprintf(f, "; the order holds in %zu", nh);
		fputc(')', f);
	}
	if (row->kind == EXPECT_ORDER)
		return;
	if (isfinite(row->expected)) {
		fputs(", expected ", f);
		put_num(f, row->expected);
	}
	fputs(", bounds [", f);
	put_num(f, row->lower);
	fputs(", ", f);
	put_num(f, row->upper);
	fputc(']', f);
}

/* The row's own note (not measured, xfail's reason, why inconclusive),
 * unless it only repeats the entry's note. */
static const char *row_reason(const struct expect_row *row)
{
	return row->note && (!row->claim || strcmp(row->note, row->claim) != 0) ? row->note : NULL;
}

static void put_row(FILE *f, const struct run *r, const struct expect_row *row)
{
	char name[1200];
	enum verdict v = row_verdict(row);
	const char *reason = row_reason(row);
	row_name(r, row, name, sizeof(name));
	fputs("    <testcase", f);
	xml_attr(f, "name", name);
	put_classname(f, r, "expect");
	fputs(" time=\"0\">\n", f);
	if (v != V_PASSED) {
		/* message: STATUS: the reason, else the figures */
		char *msg = NULL;
		size_t len = 0;
		FILE *m = open_memstream(&msg, &len);
		if (m) {
			fprintf(m, "%s%s: ", expect_status_name(row->status), row->strict ? " (strict)" : "");
			if (reason)
				fputs(reason, m);
			else
				row_figures(m, row);
			fclose(m);
		}
		fprintf(f, "      <%s", v == V_FAILURE ? "failure" : "skipped");
		xml_message(f, msg ? msg : expect_status_name(row->status));
		free(msg);
		if (v == V_FAILURE)
			xml_attr(f, "type", expect_status_name(row->status));
		fputs(v == V_FAILURE ? ">" : "/>\n", f);
		if (v == V_FAILURE) { /* the figures, and why */
			row_figures(f, row);
			if (reason) {
				fputc('\n', f);
				xml_text(f, reason);
			}
			fputs("</failure>\n", f);
		}
	}
	/* the figures, the role and the claim, for every row */
	fputs("      <system-out>", f);
	fprintf(f, "%s: ", expect_status_name(row->status));
	row_figures(f, row);
	fprintf(f, "\nrole: %s%s", expect_role_name(row->role), row->strict ? ", strict" : "");
	if (reason) {
		fputs("\nreason: ", f);
		xml_text(f, reason);
	}
	if (row->claim) {
		fputs("\nnote: ", f);
		xml_text(f, row->claim);
	}
	fputs("</system-out>\n    </testcase>\n", f);
}

/* ---- failed cells ---- */

static void put_cell(FILE *f, const struct run *r, const struct run_cell *c)
{
	char label[512], name[600];
	run_cell_label(c, label, sizeof(label));
	snprintf(name, sizeof(name), "cell %zu%s%s%s", c->index, *label ? " (" : "", label,
	         *label ? ")" : "");
	const char *err = c->error && *c->error ? c->error : "(no error recorded)";
	fputs("    <testcase", f);
	xml_attr(f, "name", name);
	put_classname(f, r, "cells");
	fprintf(f, " time=\"%.3f\">\n      <error",
	        isfinite(c->elapsed) && c->elapsed > 0 ? c->elapsed : 0.0);
	xml_message(f, err);
	xml_attr(f, "type", "cell failed");
	fputs(">", f);
	xml_text(f, err);
	fprintf(f, "</error>\n      <system-out>id: %s</system-out>\n    </testcase>\n", c->id);
}

/* ---- the file ---- */

static void write_xml(FILE *f, const struct run *r, const struct expect_result *res)
{
	struct suite ex = {0}, cells = {0}, all = {0};
	for (size_t i = 0; i < res->n; i++)
		suite_add(&ex, row_verdict(&res->rows[i]), 0);
	for (size_t i = 0; i < r->ncells; i++)
		if (r->cells[i].status == RUN_FAILED)
			suite_add(&cells, V_ERROR, r->cells[i].elapsed);
	all = (struct suite){ex.tests + cells.tests, ex.failures + cells.failures, ex.errors + cells.errors,
	                     ex.skipped + cells.skipped, 0};
	all.time = r->finished > r->started ? r->finished - r->started : cells.time;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites", f);
	xml_attr(f, "name", scenario_name(r));
	fprintf(f, " tests=\"%zu\" failures=\"%zu\" errors=\"%zu\" skipped=\"%zu\" time=\"%.3f\">\n",
	        all.tests, all.failures, all.errors, all.skipped, all.time);
	suite_open(f, r, "expect", &ex);
	for (size_t i = 0; i < res->n; i++)
		put_row(f, r, &res->rows[i]);
	if (ex.tests)
		fputs("  </testsuite>\n", f);
	suite_open(f, r, "cells", &cells);
	for (size_t i = 0; i < r->ncells; i++)
		if (r->cells[i].status == RUN_FAILED)
			put_cell(f, r, &r->cells[i]);
	if (cells.tests)
		fputs("  </testsuite>\n", f);
	fputs("</testsuites>\n", f);
}

static int junit_end(struct rep_ctx *cx, bool ok)
{
	const struct node *ex = cx->run->expect_cfg;
	struct expect_result res = {0};
	if (!ok)
		return 0;
	if (ex && ex->kind != NODE_NULL) {
		struct diag quiet; /* `check` and report.md report a bad entry */
		diag_init(&quiet);
		int erc = expect_evaluate(ex, cx->run, cx->sum, &res, &quiet);
		diag_free(&quiet);
		if (erc == -ENOMEM) {
			expect_result_free(&res);
			return erc;
		}
	}
	struct rep_file rf;
	int rc = rep_file_open(&rf, cx->outdir, "junit.xml", cx->d);
	if (rc == 0) {
		write_xml(rf.f, cx->run, &res);
		rc = rep_file_commit(&rf, cx->d);
	}
	expect_result_free(&res);
	return rc;
}

const struct reporter_ops rep_junit_ops = {
    .name = "junit",
    .file = "junit.xml",
    .end = junit_end,
};
