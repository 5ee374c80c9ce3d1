/* compare_chart: what compare.html draws (see compare_chart.h). */
#include "compare_chart.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "cell_summary.h"
#include "grow.h"
#include "svg.h"

const char *cmp_html_colour(enum cmp_verdict v)
{
	switch (v) {
	case CMP_SLOWER: return "#d62728";
	case CMP_FASTER: return "#2ca02c";
	case CMP_HIGHER:
	case CMP_LOWER: return "#1f77b4";
	case CMP_SAME: return "#7f7f7f";
	default: return "#bbbbbb";
	}
}

void cmp_html_text(FILE *f, const char *label, size_t max)
{
	size_t n = strlen(label);
	if (n <= max) {
		svg_escape(f, label);
		return;
	}
	n = max > 2 ? max - 2 : 0;
	while (n > 0 && ((unsigned char)label[n] & 0xC0) == 0x80) /* not inside a character */
		n--;
	char *cut = strndup(label, n);
	if (cut)
		svg_escape(f, cut);
	free(cut);
	fputs("..", f);
}

static void summaries_free(struct cmp_html *h)
{
	for (size_t i = 0; i < h->np; i++) {
		if (h->sa && h->sa[i])
			cell_summary_free(h->sa[i]);
		if (h->sb && h->sb[i])
			cell_summary_free(h->sb[i]);
	}
	free(h->sa);
	free(h->sb);
	h->sa = h->sb = NULL;
}

void cmp_html_free(struct cmp_html *h)
{
	summaries_free(h);
	for (size_t i = 0; h->label && i < h->np; i++)
		free(h->label[i]);
	free(h->label);
	for (size_t i = 0; i < h->nr; i++) {
		free(h->r[i].ref);
		free(h->r[i].unit);
	}
	free(h->r);
	memset(h, 0, sizeof(*h));
}

/* "0 k=x" for two runs' shared cell; "0->1 fs=xfs" for --by's pair. */
static char *pair_label(const struct run_cell *a, const struct run_cell *b)
{
	char label[512], *s = NULL;
	int rc;
	run_cell_label(b, label, sizeof(label));
	if (strcmp(a->id, b->id) == 0)
		rc = asprintf(&s, "%zu %s", a->index, label);
	else
		rc = asprintf(&s, "%zu->%zu %s", a->index, b->index, label);
	return rc < 0 ? NULL : s;
}

int cmp_html_pairs(struct cmp_html *h, size_t n)
{
	summaries_free(h);
	for (size_t i = 0; h->label && i < h->np; i++)
		free(h->label[i]);
	free(h->label);
	h->np = 0;
	h->label = calloc(n + 1, sizeof(*h->label));
	h->sa = calloc(n + 1, sizeof(*h->sa));
	h->sb = calloc(n + 1, sizeof(*h->sb));
	if (!h->label || !h->sa || !h->sb)
		return -ENOMEM;
	h->np = n;
	return 0;
}

int cmp_html_pair(struct cmp_html *h, size_t i, const struct run_cell *a, const struct run_cell *b,
                  bool several)
{
	if (i >= h->np || !(h->label[i] = pair_label(a, b)))
		return -ENOMEM;
	/* The medians' intervals: one run per side only (with several, each
	 * side's figure is the geometric mean of the runs' medians) */
	if (several)
		return 0;
	h->sa[i] = run_cell_summarize_opt(a, true);
	h->sb[i] = run_cell_summarize_opt(b, true);
	return h->sa[i] && h->sb[i] ? 0 : -ENOMEM;
}

static void med_ci(const struct cell_summary *s, const char *step, const char *metric, double *lo, double *hi)
{
	const struct metric_summary *m = s ? cell_summary_metric(s, step, metric) : NULL;
	*lo = m ? m->med_lo : NAN;
	*hi = m ? m->med_hi : NAN;
}

int cmp_html_row(struct cmp_html *h, size_t pair, const char *step, const char *metric, const char *unit,
                 bool headline, const struct cmp_metric *m)
{
	if (GROW(h->r, h->cap, h->nr + 1, 32) < 0)
		return -ENOMEM;
	struct cmp_html_row *r = &h->r[h->nr];
	*r = (struct cmp_html_row){.pair = pair, .headline = headline, .m = *m};
	if (asprintf(&r->ref, "%s.%s", step, metric) < 0)
		return -ENOMEM;
	if (!(r->unit = strdup(unit ? unit : ""))) {
		free(r->ref);
		return -ENOMEM;
	}
	h->nr++;
	bool one = pair < h->np && m->runs_a <= 1 && m->runs_b <= 1;
	med_ci(one ? h->sa[pair] : NULL, step, metric, &r->lo_a, &r->hi_a);
	med_ci(one ? h->sb[pair] : NULL, step, metric, &r->lo_b, &r->hi_b);
	return 0;
}
