/* rep_html: see rep_html.h. */
#include "rep_html.h"

#include "rep_md.h"

static int html_begin(struct rep_ctx *cx)
{
	return rep_md_open(cx, true);
}

const struct reporter_ops rep_html_ops = {
    .name = "html",
    .file = "report.html",
    .begin = html_begin,
    .cell = rep_md_cell_row,
    .end = rep_md_close,
};
