/* rep_md_statements: see rep_md_statements.h.
 *
 * The pgbench step records statement k's mean latency as the metric
 * stmtK_ms and its text as the fact stmtK; the table takes the text from
 * the first cell that has it. Cells are columns (labelled by the
 * parameters that vary), at most COLS_PER_TABLE a table so that the SQL
 * column stays readable. */
#include "rep_md_statements.h"

#include <stdio.h>
#include <string.h>

#include "rep_text.h"

#define COLS_PER_TABLE 6

/* Steps (by name, first-seen order) that recorded statement latencies. */
static void statement_steps(const struct rep_ctx *cx, struct rep_strs *out)
{
	for (size_t ci = 0; ci < cx->run->ncells; ci++) {
		const struct cell_summary *s = cx->sum[ci];
		for (size_t k = 0; s && k < s->nsteps; k++) {
			const struct step_summary *ss = &s->steps[k];
			if (ss->first && result_info_get(ss->first, "stmt1"))
				rep_strs_add(out, ss->step);
		}
	}
}

/* Number of statements of `step`: the highest K with a stmtK fact. */
static size_t statement_count(const struct rep_ctx *cx, const char *step)
{
	size_t most = 0;
	char key[32];
	for (size_t ci = 0; ci < cx->run->ncells; ci++) {
		const struct step_summary *ss = cell_summary_step(cx->sum[ci], step);
		if (!ss || !ss->first)
			continue;
		size_t k = most;
		do
			snprintf(key, sizeof(key), "stmt%zu", ++k);
		while (result_info_get(ss->first, key));
		if (k - 1 > most)
			most = k - 1;
	}
	return most;
}

static const char *statement_text(const struct rep_ctx *cx, const char *step, size_t k)
{
	char key[32];
	snprintf(key, sizeof(key), "stmt%zu", k);
	for (size_t ci = 0; ci < cx->run->ncells; ci++) {
		const struct step_summary *ss = cell_summary_step(cx->sum[ci], step);
		const char *t = ss && ss->first ? result_info_get(ss->first, key) : NULL;
		if (t)
			return t;
	}
	return "";
}

/* One table: statements of `step` by the cells of groups [from, to). */
static void statement_table(struct rep_ctx *cx, FILE *f, const char *step, size_t nstmt,
                            const struct rep_group *g, size_t from, size_t to)
{
	char buf[128], key[32];
	fputs("| # | statement |", f);
	for (size_t gi = from; gi < to; gi++) {
		fputc(' ', f);
		rep_md_cell(f, *g[gi].label ? g[gi].label : "all cells");
		fputs(" |", f);
	}
	fputc('\n', f);
	rep_md_row_sep(f, 2 + to - from);
	for (size_t k = 1; k <= nstmt; k++) {
		fprintf(f, "| %zu | ", k);
		rep_md_code(f, statement_text(cx, step, k));
		fputs(" |", f);
		snprintf(key, sizeof(key), "stmt%zu_ms", k);
		for (size_t gi = from; gi < to; gi++) {
			const struct metric_summary *ms =
			    cell_summary_metric(cx->sum[g[gi].cells[0]], step, key);
			snprintf(buf, sizeof(buf), "-");
			if (ms)
				rep_md_fmt_metric(ms, buf, sizeof(buf));
			fprintf(f, " %s |", buf);
		}
		fputc('\n', f);
	}
	fputc('\n', f);
}

void rep_md_statements(struct rep_ctx *cx, struct md *m)
{
	FILE *f = m->rf.f;
	struct rep_strs steps = {0};
	struct rep_group *g = NULL;
	size_t ng = 0;
	statement_steps(cx, &steps);
	/* No parameter is "used": every cell is a group of its own, labelled by
	 * the parameters that vary. */
	bool ok = steps.n && rep_group_cells(cx->run, NULL, NULL, 0, &g, &ng) == 0;
	for (size_t si = 0; ok && si < steps.n; si++) {
		const char *step = steps.v[si];
		size_t nstmt = statement_count(cx, step);
		if (nstmt == 0)
			continue;
		fputs("## Per-statement latencies: ", f);
		rep_md_cell(f, step);
		fputs(" (ms, mean over the run; pgbench -r)\n\n", f);
		for (size_t from = 0; from < ng; from += COLS_PER_TABLE)
			statement_table(cx, f, step, nstmt, g, from,
			                from + COLS_PER_TABLE < ng ? from + COLS_PER_TABLE : ng);
	}
	rep_groups_free(g, ng);
	rep_strs_free(&steps);
}
