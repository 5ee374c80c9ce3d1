/* rep_md: report.md and its SVG charts (sections listed in rep_md.c). */
#ifndef BENCHGRID_REP_MD_H
#define BENCHGRID_REP_MD_H

#include "rep_ops.h"

extern const struct reporter_ops rep_md_ops;

/* The reporter's begin, cell and end; with html, the same sections go to
 * report.html (rep_html.c): charts kept for the page, tables with the marks of
 * rep_md_doc.h, errors in report: left to report.md. */
int rep_md_open(struct rep_ctx *cx, bool html);
int rep_md_cell_row(struct rep_ctx *cx, size_t i);
int rep_md_close(struct rep_ctx *cx, bool ok);

#endif
