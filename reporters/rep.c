/* rep: the table of reporters and rep_write_all (see rep.h). */
#include "rep.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "expect_json.h"
#include "rep_csv.h"
#include "rep_html.h"
#include "rep_md.h"
#include "rep_timeseries.h"

static const struct reporter_ops *const reporters[] = {&rep_csv_ops,  &rep_timeseries_ops,  &rep_md_ops,
                                                       &rep_html_ops, &rep_expect_json_ops, NULL};

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
