/* compare_html: compare.html (see compare_html.h). */
#include "compare_html.h"

#include <errno.h>
#include <libgen.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "compare_bars.h"
#include "compare_forest.h"
#include "rep_file.h"
#include "rep_html_md.h"

/* The charts' section, in Markdown with svg:N marks; svgs[] gets the SVGs. */
static int charts_md(const struct cmp_html *h, FILE *md, char ***svgs, size_t *nsvg)
{
	*svgs = calloc(h->nr + 2, sizeof(char *));
	*nsvg = 0;
	if (!*svgs)
		return -ENOMEM;
	char *buf = NULL;
	size_t len = 0, nodraw = 0;
	FILE *f = open_memstream(&buf, &len);
	if (!f)
		return -ENOMEM;
	size_t drawn = cmp_forest_svg(f, h);
	fclose(f);
	fputs("## Charts\n\n### B/A with 95% intervals\n\n", md);
	fputs("Each metric's ratio of medians B/A (log scale) with its 95% interval, the largest "
	      "change first; the colour is the verdict of the table (red slower, green faster, blue "
	      "higher or lower, grey no significant difference) and the text on the right names the "
	      "noise it was judged against. An interval that crosses 1 is no evidence of a change.\n\n",
	      md);
	for (size_t k = 0; k < h->nr; k++)
		nodraw += !(isfinite(h->r[k].m.ratio) && h->r[k].m.ratio > 0);
	if (drawn) {
		(*svgs)[(*nsvg)++] = buf;
		fprintf(md, "\x01svg:%zu\x02\n\n", *nsvg - 1);
	} else {
		free(buf);
	}
	if (nodraw)
		fprintf(md, "%zu metric%s without a ratio (a median of 0) %s not drawn.\n\n", nodraw,
		        nodraw == 1 ? "" : "s", nodraw == 1 ? "is" : "are");
	fputs("### A and B per metric\n\n", md);
	fputs("The medians of A and B per cell, each with its 95% interval (bootstrap, n >= 5; none "
	      "with fewer repetitions or with several runs on a side, where a side's figure is the "
	      "geometric mean of its runs' medians); B's bar is coloured by the verdict.\n\n",
	      md);
	for (size_t k = 0; k < h->nr; k++) {
		bool first = true;
		for (size_t j = 0; j < k; j++)
			first &= strcmp(h->r[j].ref, h->r[k].ref) != 0;
		if (!first)
			continue;
		buf = NULL;
		len = 0;
		if (!(f = open_memstream(&buf, &len)))
			return -ENOMEM;
		cmp_bars_svg(f, h, h->r[k].ref);
		fclose(f);
		(*svgs)[(*nsvg)++] = buf;
		fprintf(md, "\x01svg:%zu\x02\n\n", *nsvg - 1);
	}
	return 0;
}

/* Where the charts go: before the table of metrics, after the verdicts. */
static size_t charts_at(const char *md, size_t len)
{
	static const char key[] = "\n## Metrics\n";
	for (size_t i = 0; i + sizeof(key) - 1 <= len; i++)
		if (memcmp(md + i, key, sizeof(key) - 1) == 0)
			return i + 1;
	return len;
}

int cmp_html_write(const struct cmp_html *h, const char *md, size_t len, const char *path, struct diag *d)
{
	char *dcopy = strdup(path), *bcopy = strdup(path);
	char **svgs = NULL, *head = NULL;
	size_t nsvg = 0, hlen = 0;
	int rc = dcopy && bcopy ? 0 : -ENOMEM;
	FILE *hf = rc == 0 ? open_memstream(&head, &hlen) : NULL;
	if (rc == 0 && !hf)
		rc = -ENOMEM;
	size_t at = charts_at(md, len);
	if (rc == 0) {
		fwrite(md, 1, at, hf);
		if (at == len)
			fputc('\n', hf);
		if (h->nr) /* nothing compared: no charts */
			rc = charts_md(h, hf, &svgs, &nsvg);
	}
	if (hf)
		fclose(hf);
	struct rep_file rf;
	const char *name = bcopy ? basename(bcopy) : "";
	if (rc == 0 &&
	    (!*name || strcmp(name, "/") == 0 || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)) {
		diag_error(d, NULL, "compare: --html %s: not a file name", path);
		rc = -EINVAL;
	}
	if (rc == 0)
		rc = rep_file_open(&rf, dirname(dcopy), name, d);
	if (rc == 0) {
		rep_html_md_write(rf.f, head, hlen, md + at, len - at, (const char *const *)svgs, nsvg);
		rc = rep_file_commit(&rf, d);
	} else if (rc == -ENOMEM) {
		diag_error(d, NULL, "compare: out of memory writing %s", path);
	}
	for (size_t i = 0; i < nsvg; i++)
		free(svgs[i]);
	free(svgs);
	free(head);
	free(dcopy);
	free(bcopy);
	return rc;
}
