/* rep_md: report.md and its SVG charts.
 *
 * Sections, in order (docs/results.md):
 *   title, notes (`notes:`), description, run facts (scenario, times, cells,
 *   hosts when more than one, repeat)
 *   ## Reproduction        published claims: ratio/order, then absolute (rep_md_repro)
 *   ## Headline            one row per cell: its parameters, each step's headline
 *                          metrics (rep_md_headline)
 *   ## Environment         machine facts (kernel, CPU, PostgreSQL, ...)
 *   ## Summary             one row per cell: #, id, parameters, status, elapsed
 *   ## Pivot tables        report.pivot: rows x cols of one step.metric (without
 *                          report:, each headline rate by each varying parameter)
 *   ## Charts              report.charts: chart-N.svg, linked (the same default)
 *   ## Devices             the monitor's disk columns -> device (rep_md_devices)
 *   ## Steps               per step name its metrics in tables of at most 10
 *                          columns by group (throughput and latency, CPU and
 *                          system, device, PostgreSQL); folded in report.html
 *   ## Confidence intervals  the headline metrics' (rep_md_ci)
 *   ## Cell facts          when cells recorded facts (fs type, device, settings)
 *   ## Per-statement latencies   pgbench -r statements by cell (rep_md_statements)
 *   ## Server activity     tps with checkpoints, writers, wait events (rep_md_activity)
 *   ## Published vs measured (on this machine)   the absolute expectations
 *   ## Warnings            outliers and cold first runs over repeats
 *   ## Failed cells        every failed cell with its error
 * The summary rows are written as cells arrive (cell()); the rest at end().
 * report.html (rep_html.c) is the same text written in html mode (struct md)
 * and turned into HTML by rep_html_md.
 * The head (title to run facts, then Reproduction) is a second memory
 * stream written before the rest. */
#include "rep_md.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "expect.h"
#include "grow.h"
#include "rep_fmt.h"
#include "rep_text.h"
#include "rep_hosts.h"
#include "rep_html_md.h"
#include "rep_md_activity.h"
#include "rep_md_noise.h"
#include "rep_md_charts.h"
#include "rep_md_devices.h"
#include "rep_md_ci.h"
#include "rep_md_doc.h"
#include "rep_md_headline.h"
#include "rep_md_pivots.h"
#include "rep_md_repro.h"
#include "rep_md_statements.h"
#include "rep_md_steps.h"
#include "utf8.h"

static void fmt_time(double t, char *buf, size_t len)
{
	time_t s = (time_t)t;
	struct tm tm;
	if (t <= 0 || !gmtime_r(&s, &tm)) {
		snprintf(buf, len, "-");
		return;
	}
	strftime(buf, len, "%Y-%m-%d %H:%M:%S UTC", &tm);
}

/* The scenario's description as plain Markdown text: neither HTML nor
 * Markdown syntax (headings, lists, quotes, tables, links, emphasis, code)
 * can start in it. Characters that open such syntax anywhere are backslash-
 * escaped, and those that open it at a line's start (`-`, `+`, `=`, `1.`)
 * there; `&`, `<` and `>` become entities; leading blanks are dropped (no code
 * blocks) and other control characters shown as '?'. Line breaks are kept,
 * so a blank line still separates paragraphs. */
static void md_description(FILE *f, const char *s)
{
	bool line_start = true;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\n' || c == '\r') {
			if (c == '\r' && s[1] == '\n')
				continue;
			fputc('\n', f);
			line_start = true;
			continue;
		}
		if (line_start && (c == ' ' || c == '\t'))
			continue;
		bool at_start = line_start;
		line_start = false;
		if (at_start && c >= '0' && c <= '9') { /* "1." or "1)" opens a list */
			while (*s >= '0' && *s <= '9')
				fputc(*s++, f);
			c = (unsigned char)*s;
			if (c == '.' || c == ')')
				fputc('\\', f);
			s--;
			continue;
		}
		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<' || c == '>')
			fputs(c == '<' ? "&lt;" : "&gt;", f);
		else if (c < 0x20 || c == 0x7f)
			fputc('?', f);
		else if (strchr("\\`*_[]<>|~#!", c) || (at_start && strchr("-+=", c)))
			fprintf(f, "\\%c", c);
		else
			fputc(c, f);
	}
	fputs("\n\n", f);
}

/* ---- begin / cell ---- */

/* "- Hosts: a (4 cells), b (2 cells)" when the cells ran on more than one
 * host (a sharded run); nothing for one host or none recorded. */
static void run_hosts_line(FILE *f, const struct run *r)
{
	struct rep_hosts h;
	if (rep_hosts_count(r, NULL, 0, &h) == 0 && h.names.n > 1) {
		fputs("- Hosts: ", f);
		rep_hosts_list(f, &h);
		fputs("; pivot tables and charts whose cells ran on more than one host say so\n", f);
	}
	rep_hosts_free(&h);
}

int rep_md_open(struct rep_ctx *cx, bool html)
{
	const struct run *r = cx->run;
	struct md *m = calloc(1, sizeof(*m));
	char a[64], b[64];
	if (!m)
		return -ENOMEM;
	cx->priv = m;
	m->html = html;
	if (html) { /* errors in report: are report.md's to tell */
		diag_init(&m->quiet);
		m->real_d = cx->d;
		cx->d = &m->quiet;
	}
	rep_param_names(r, &m->params);
	int rc =
	    rep_file_open(&m->rf, cx->outdir, html ? "report.html" : "report.md", html ? m->real_d : cx->d);
	if (rc < 0)
		return rc;
	FILE *mem = open_memstream(&m->buf, &m->len);
	if (!mem)
		return -ENOMEM;
	m->file = m->rf.f;
	m->rf.f = mem;
	m->head = open_memstream(&m->hbuf, &m->hlen);
	if (!m->head)
		return -ENOMEM;
	FILE *f = m->head;

	fputs("# ", f);
	rep_md_cell(f, r->name && *r->name ? r->name : "benchgrid run");
	fputs("\n\n", f);
	rep_md_notes(f, r->notes_cfg);
	if (r->description && *r->description)
		md_description(f, r->description);

	size_t nok = 0, nfail = 0, nskip = 0;
	for (size_t i = 0; i < r->ncells; i++) {
		nok += r->cells[i].status == RUN_OK;
		nfail += r->cells[i].status == RUN_FAILED;
		nskip += r->cells[i].status == RUN_SKIPPED;
	}
	if (r->scenario_file) {
		fputs("- Scenario: ", f);
		rep_md_code(f, r->scenario_file);
		fputc('\n', f);
	}
	fmt_time(r->started, a, sizeof(a));
	fmt_time(r->finished, b, sizeof(b));
	fprintf(f, "- Started: %s; finished: %s", a, r->finished > 0 ? b : "not finished");
	if (r->finished > r->started && r->started > 0)
		fprintf(f, " (%.0f s)", r->finished - r->started);
	fputs("\n", f);
	fprintf(f, "- Cells: %zu recorded", r->ncells);
	if (r->nplanned)
		fprintf(f, " of %zu planned", r->nplanned);
	fprintf(f, " (%zu ok, %zu failed, %zu skipped)\n", nok, nfail, nskip);
	run_hosts_line(f, r);
	if (r->repeat > 2)
		fprintf(f,
		        "- Repeat: %zu (values are means ± the half-width of their 95%% confidence "
		        "interval%s), warmup: %zu\n",
		        r->repeat,
		        r->repeat < 5 ? "; below 5 repetitions an interval of the median is not meaningful"
		                      : "",
		        r->warmup);
	else if (r->repeat == 2)
		fprintf(f,
		        "- Repeat: 2 (values are means with the range of the two in parentheses: a 95%% "
		        "interval from 2 samples is wider than the data; repeat 5 for intervals), "
		        "warmup: %zu\n",
		        r->warmup);
	else if (r->warmup)
		fprintf(f, "- Repeat: %zu, warmup: %zu\n", r->repeat, r->warmup);
	fputs("- Tool: ", f);
	rep_md_text(f, r->tool_version ? r->tool_version : "benchgrid");
	fputs("\n\n", f);
	f = m->rf.f;

	if (r->env.ni || r->env.nm) {
		fputs("## Environment\n\n| fact | value |\n|---|---|\n", f);
		for (size_t i = 0; i < r->env.ni; i++) {
			fputs("| ", f);
			rep_md_cell(f, r->env.info[i].key);
			fputs(" | ", f);
			rep_md_cell(f, r->env.info[i].value);
			fputs(" |\n", f);
		}
		for (size_t i = 0; i < r->env.nm; i++) {
			rep_fmt_human(r->env.m[i].value, a, sizeof(a));
			fputs("| ", f);
			rep_md_cell(f, r->env.m[i].name);
			fprintf(f, " | %s ", a);
			rep_md_cell(f, r->env.m[i].unit);
			fputs(" |\n", f);
		}
		fputc('\n', f);
	}

	fputs("## Summary\n\n| # | id |", f);
	rep_md_param_heads(f, &m->params);
	fputs(" status | elapsed (s) |\n", f);
	rep_md_row_sep(f, m->params.n + 4);
	return 0;
}

int rep_md_cell_row(struct rep_ctx *cx, size_t i)
{
	struct md *m = cx->priv;
	const struct run_cell *c = &cx->run->cells[i];
	FILE *f = m->rf.f;
	char buf[64];

	snprintf(buf, sizeof(buf), "%zu", c->index);
	fputs("| ", f);
	rep_md_mark(m, f, "id", buf);
	fprintf(f, "%zu | ", c->index);
	rep_md_cell(f, c->id);
	fputs(" |", f);
	for (size_t k = 0; k < m->params.n; k++) {
		fputc(' ', f);
		rep_md_mark_param(m, f, run_cell_param(c, m->params.v[k]));
		rep_md_cell(f, run_cell_param(c, m->params.v[k]));
		fputs(" |", f);
	}
	rep_fmt_human(c->elapsed, buf, sizeof(buf));
	fprintf(f, " %s | ", run_status_name(c->status));
	rep_md_mark_value(m, f, c->elapsed);
	fprintf(f, "%s |\n", buf);
	return 0;
}

/* ---- end: the sections that need every cell ---- */

/* A cell's fact as text (info, or metric with unit), "-" when absent. */
static void fact_text(const struct step_result *fa, const char *key, char *out, size_t len)
{
	const char *v = result_info_get(fa, key);
	const struct metric *mt = result_get(fa, key);
	char buf[64];
	if (v) {
		snprintf(out, len, "%s", v);
	} else if (mt) {
		rep_fmt_human(mt->value, buf, sizeof(buf));
		snprintf(out, len, "%s%s%s", buf, mt->unit && *mt->unit ? " " : "", mt->unit ? mt->unit : "");
	} else {
		snprintf(out, len, "-");
	}
}

/* Facts equal in every cell are listed once ("Common to all cells"); the
 * table has only the facts that differ, so it stays readable. */
static void section_facts(struct rep_ctx *cx, struct md *m)
{
	const struct run *r = cx->run;
	FILE *f = m->rf.f;
	struct rep_strs keys = {0}, common = {0}, differ = {0};
	char a[512], b[512];

	for (size_t i = 0; i < r->ncells; i++) {
		for (size_t k = 0; k < r->cells[i].facts.ni; k++)
			/* devices.*: the Devices legend; fingerprint: for --resume */
			if (strncmp(r->cells[i].facts.info[k].key, "devices.", 8) != 0 &&
			    strcmp(r->cells[i].facts.info[k].key, "fingerprint") != 0)
				rep_strs_add(&keys, r->cells[i].facts.info[k].key);
		for (size_t k = 0; k < r->cells[i].facts.nm; k++)
			rep_strs_add(&keys, r->cells[i].facts.m[k].name);
	}
	if (keys.n == 0)
		return;
	for (size_t k = 0; k < keys.n; k++) {
		bool same = true;
		fact_text(&r->cells[0].facts, keys.v[k], a, sizeof(a));
		for (size_t i = 1; i < r->ncells && same; i++) {
			fact_text(&r->cells[i].facts, keys.v[k], b, sizeof(b));
			same = strcmp(a, b) == 0;
		}
		rep_strs_add(same && r->ncells > 1 ? &common : &differ, keys.v[k]);
	}
	fputs("## Cell facts\n\n", f);
	if (common.n) {
		fputs("Common to all cells:\n\n| fact | value |\n|---|---|\n", f);
		for (size_t k = 0; k < common.n; k++) {
			fact_text(&r->cells[0].facts, common.v[k], a, sizeof(a));
			fputs("| ", f);
			rep_md_cell(f, common.v[k]);
			fputs(" | ", f);
			rep_md_cell(f, a);
			fputs(" |\n", f);
		}
		fputc('\n', f);
	}
	if (differ.n) {
		if (common.n)
			fputs("Per cell:\n\n", f);
		fputs("| # |", f);
		rep_md_head_rest(f, differ.v, differ.n);
		for (size_t i = 0; i < r->ncells; i++) {
			fprintf(f, "| %zu |", r->cells[i].index);
			for (size_t k = 0; k < differ.n; k++) {
				fact_text(&r->cells[i].facts, differ.v[k], a, sizeof(a));
				fputc(' ', f);
				rep_md_cell(f, a);
				fputs(" |", f);
			}
			fputc('\n', f);
		}
		fputc('\n', f);
	}
	rep_strs_free(&keys);
	rep_strs_free(&common);
	rep_strs_free(&differ);
}

static void section_expect(struct rep_ctx *cx, struct md *m)
{
	const struct run *r = cx->run;
	FILE *f = m->rf.f;
	const struct expect_result *res = &m->exp;
	char a[64], b[64], c[64], d[64];
	size_t count[EXPECT_NSTATUS] = {0}, nstrict = 0, n = 0;

	for (size_t i = 0; i < res->n; i++) {
		const struct expect_row *row = &res->rows[i];
		if (row->kind != EXPECT_ABSOLUTE)
			continue;
		n++;
		count[row->status]++;
		nstrict += expect_row_strict_fail(row);
	}
	if (n == 0)
		return;
	fputs("## Published vs measured (on this machine)\n\n", f);
	fputs("Published absolute figures hold on the publication's hardware; here they are context.\n\n", f);
	fprintf(f, "%zu PASS, %zu FAIL, %zu XFAIL, %zu XPASS, %zu SKIP", count[EXPECT_PASS],
	        count[EXPECT_FAIL], count[EXPECT_XFAIL], count[EXPECT_XPASS], count[EXPECT_SKIP]);
	if (nstrict)
		fprintf(f, "; %zu strict failure%s", nstrict, nstrict == 1 ? "" : "s");
	fputs(".\n\n| # | cell | metric | expected | bounds | measured | diff % | status | note |\n", f);
	rep_md_row_sep(f, 9);
	for (size_t i = 0; i < res->n; i++) {
		const struct expect_row *row = &res->rows[i];
		char label[512];
		if (row->kind != EXPECT_ABSOLUTE)
			continue;
		if (row->cell >= 0)
			rep_cell_label_of(&r->cells[row->cell], &m->vary, label, sizeof(label));
		else
			snprintf(label, sizeof(label), "-");
		rep_fmt_human(row->expected, a, sizeof(a));
		rep_fmt_bound(row->lower, b, sizeof(b));
		rep_fmt_bound(row->upper, c, sizeof(c));
		if (row->cell >= 0)
			fprintf(f, "| %zu | ", r->cells[row->cell].index);
		else
			fputs("| - | ", f);
		rep_md_cell(f, label);
		fputs(" | ", f);
		rep_md_cell(f, row->ref);
		fprintf(f, " | %s | [%s, %s] | ", a, b, c);
		rep_fmt_human(row->measured, d, sizeof(d));
		fprintf(f, "%s%s", d, row->unit && *row->unit && isfinite(row->measured) ? " " : "");
		rep_md_cell(f, isfinite(row->measured) && row->unit ? row->unit : "");
		fputs(" | ", f);
		if (isfinite(row->diff_pct))
			fprintf(f, "%+.1f%%", row->diff_pct);
		else
			fputc('-', f);
		fprintf(f, " | %s%s | ", expect_status_name(row->status),
		        expect_row_strict_fail(row) ? " (strict)" : "");
		rep_md_cell(f, row->note ? row->note : "");
		fputs(" |\n", f);
	}
	fputc('\n', f);
}

static void warn_line(void *arg, const char *msg)
{
	FILE *f = arg;
	fputs("  - ", f);
	rep_md_cell(f, msg);
	fputc('\n', f);
}

static void section_warnings(struct rep_ctx *cx, struct md *m)
{
	const struct run *r = cx->run;
	FILE *f = m->rf.f;
	bool any = false;
	char label[512];
	for (size_t i = 0; i < r->ncells; i++) {
		if (run_cell_warnings(cx->sum[i], NULL, NULL) == 0)
			continue;
		if (!any)
			fputs("## Warnings\n\n", f);
		any = true;
		run_cell_label(&r->cells[i], label, sizeof(label));
		fprintf(f, "- cell %zu (", r->cells[i].index);
		rep_md_cell(f, label);
		fputs("):\n", f);
		run_cell_warnings(cx->sum[i], warn_line, f);
	}
	if (any)
		fputc('\n', f);
}

static size_t longest_backtick_run(const char *s)
{
	size_t best = 0, run = 0;
	for (; *s; s++) {
		run = *s == '`' ? run + 1 : 0;
		if (run > best)
			best = run;
	}
	return best;
}

static void put_ticks(FILE *f, size_t n)
{
	while (n-- > 0)
		fputc('`', f);
}

static void section_failed(struct rep_ctx *cx, struct md *m)
{
	const struct run *r = cx->run;
	FILE *f = m->rf.f;
	bool any = false;
	char label[512];
	for (size_t i = 0; i < r->ncells; i++) {
		const struct run_cell *c = &r->cells[i];
		if (c->status != RUN_FAILED)
			continue;
		if (!any)
			fputs("## Failed cells\n\n", f);
		any = true;
		run_cell_label(c, label, sizeof(label));
		fprintf(f, "- cell %zu ", c->index);
		rep_md_code(f, c->id);
		fputs(" (", f);
		rep_md_cell(f, label);
		const char *e = c->error ? c->error : "(no error recorded)";
		/* the fence is longer than any run of backticks in the error, so a
		 * line of ``` in a command's output cannot end it (CommonMark) */
		size_t ticks = longest_backtick_run(e) + 1;
		fputs("):\n\n  ", f);
		put_ticks(f, ticks < 3 ? 3 : ticks);
		fputc('\n', f);
		/* indent every line of the error into the fenced block; CR LF
		 * and a lone CR (progress lines) end a line too */
		fputs("  ", f);
		for (const char *p = e; *p; p++) {
			if (*p == '\r' && p[1] == '\n')
				continue;
			fputc(*p == '\r' ? '\n' : *p, f);
			if ((*p == '\n' || *p == '\r') && p[1])
				fputs("  ", f);
		}
		fputs("\n  ", f);
		put_ticks(f, ticks < 3 ? 3 : ticks);
		fputs("\n\n", f);
	}
}

/* report.md is written to memory, then to the file as valid UTF-8 text:
 * whatever a scenario, a command's output or a parser put in the strings,
 * invalid UTF-8, NUL and every control character but LF and TAB become
 * U+FFFD. Without write, the memory is dropped. rf.f is the file again. */
static int md_flush(struct md *m, bool write)
{
	int rc = 0;
	if (m->head && fclose(m->head) != 0)
		rc = -ENOMEM;
	m->head = NULL;
	if (m->file) {
		if (fclose(m->rf.f) != 0)
			rc = -ENOMEM;
		m->rf.f = m->file;
		m->file = NULL;
		if (rc == 0 && write && m->html) {
			rep_html_md_write(m->rf.f, m->hbuf, m->hlen, m->buf, m->len,
			                  (const char *const *)m->svgs, m->nsvg);
		} else if (rc == 0 && write) {
			utf8_fput(m->rf.f, m->hbuf, m->hlen, UTF8_NO_CONTROLS | UTF8_NO_CR);
			utf8_fput(m->rf.f, m->buf, m->len, UTF8_NO_CONTROLS | UTF8_NO_CR);
		}
	}
	free(m->buf);
	free(m->hbuf);
	m->buf = m->hbuf = NULL;
	for (size_t i = 0; i < m->nsvg; i++)
		free(m->svgs[i]);
	free(m->svgs);
	m->svgs = NULL;
	m->nsvg = 0;
	return rc;
}

/* `benchgrid report` after editing report.charts may draw fewer charts than
 * before: remove the numbered ones that report.md no longer links. */
static void remove_stale_charts(const char *outdir, int from)
{
	char path[4096];
	for (int i = from;; i++) {
		snprintf(path, sizeof(path), "%s/chart-%d.svg", outdir, i);
		if (unlink(path) != 0)
			break;
	}
}

int rep_md_close(struct rep_ctx *cx, bool ok)
{
	struct md *m = cx->priv;
	int rc = 0;
	if (!m)
		return 0;
	if (ok && m->rf.f) {
		FILE *f = m->rf.f;
		const struct node *ex = cx->run->expect_cfg;
		fputc('\n', f);
		if (ex && ex->kind != NODE_NULL && expect_evaluate(ex, cx->run, cx->sum, &m->exp, cx->d) < 0)
			m->bad_config = true;
		rep_varying_params(cx->run, &m->vary);
		const struct node *rep = cx->run->report_cfg;
		struct node *dflt = NULL; /* no report: block: pivots and charts of the headlines */
		if (!rep || rep->kind == NODE_NULL)
			rep = dflt = rep_md_default_report(cx, m);
		if (rep && rep->kind == NODE_MAP) {
			rep_md_pivots(cx, m, node_get(rep, "pivot"));
			rc = rep_md_charts(cx, m, node_get(rep, "charts"));
		} else if (rep && rep->kind != NODE_NULL) {
			diag_error(cx->d, &rep->pos, "report: must be a map with pivot and charts");
			m->bad_config = true;
		}
		node_free(dflt);
		rep_md_devices(cx, m); /* legend of the monitor's disk columns */
		rep_md_steps(cx, m);
		rep_md_ci(cx, m); /* confidence intervals of the headline metrics */
		section_facts(cx, m);
		rep_md_statements(cx, m);
		if (rc == 0) /* server activity: tps and checkpoints, writers, waits */
			rc = rep_md_activity(cx, m);
		section_expect(cx, m);
		section_warnings(cx, m);
		rep_md_noise(cx, m); /* repetitions until converged, a busy machine */
		section_failed(cx, m);
		if (m->head) {
			rep_md_repro(cx, m, m->head);
			rep_md_headline(cx, m, m->head);
		}
	}
	int frc = md_flush(m, ok && rc == 0);
	if (rc == 0)
		rc = frc;
	if (m->html) { /* the caller's diag again; report.md tells of report: */
		cx->d = m->real_d;
		diag_free(&m->quiet);
		m->bad_config = false;
	}
	if (ok && rc == 0 && m->rf.f) {
		rc = rep_file_commit(&m->rf, cx->d);
		if (!m->html)
			remove_stale_charts(cx->outdir, m->nchart + 1);
	} else {
		rep_file_abort(&m->rf);
	}
	if (rc == 0 && m->bad_config)
		rc = -EINVAL;
	rep_strs_free(&m->params);
	rep_strs_free(&m->vary);
	expect_result_free(&m->exp);
	free(m);
	cx->priv = NULL;
	return rc;
}

static int md_begin(struct rep_ctx *cx)
{
	return rep_md_open(cx, false);
}

const struct reporter_ops rep_md_ops = {
    .name = "markdown",
    .file = "report.md",
    .begin = md_begin,
    .cell = rep_md_cell_row,
    .end = rep_md_close,
};
