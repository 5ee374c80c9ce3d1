/* rep: the table of reporters and rep_write_all (see rep.h). */
#include "rep.h"

#include <errno.h>
#include <stdlib.h>

#include "expect_json.h"
#include "rep_csv.h"
#include "rep_html.h"
#include "rep_junit.h"
#include "rep_md.h"
#include "rep_table.h"
#include "rep_timeseries.h"
#include "report_opts_table.h"

#define OPS_OF(name, ops, on)     &ops,
#define DEFAULT_OF(name, ops, on) on,
const struct reporter_ops *const rep_format_ops[] = {REP_TABLE(OPS_OF) NULL};
const bool rep_format_default[] = {REP_TABLE(DEFAULT_OF) false};
#define NREPORTERS (sizeof(rep_format_ops) / sizeof(rep_format_ops[0]) - 1)

/* on[i]: does rep_format_ops[i] run for `report:`? An unknown name is
 * reported (with the known ones) and -EINVAL returned; the names that are
 * known still run. */
static int select_formats(const struct node *report, bool *on, struct diag *d)
{
	const struct node *f = report && report->kind == NODE_MAP ? node_get(report, "formats") : NULL;
	for (size_t i = 0; i < NREPORTERS; i++)
		on[i] = !f && rep_format_default[i];
	if (!f)
		return 0;
	size_t n = f->kind == NODE_SEQ ? f->n : 1;
	int rc = 0;
	for (size_t i = 0; i < n; i++) {
		int k;
		if (node_as_enum(f->kind == NODE_SEQ ? f->items[i] : f, "report.formats",
		                 report_format_values, &k, d) < 0)
			rc = -EINVAL;
		else
			on[k] = true;
	}
	return rc;
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

int rep_write_all(const struct run *r, const char *outdir, struct diag *d)
{
	bool on[NREPORTERS];
	int rc = select_formats(r->report_cfg, on, d);
	struct cell_summary **sum = summarize_all(r, d);
	if (!sum)
		return -ENOMEM;
	for (size_t i = 0; i < NREPORTERS; i++) {
		if (!on[i])
			continue;
		int k = run_reporter(rep_format_ops[i], r, sum, outdir, d);
		/* An I/O error wins over a configuration error. */
		if (k < 0 && (rc == 0 || rc == -EINVAL))
			rc = k;
	}
	free_sums(sum, r->ncells);
	return rc;
}
