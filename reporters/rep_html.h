/* rep_html: report.html, report.md's sections as one self-contained page
 * (docs/reports.md): the text rep_md writes in html mode, turned into HTML
 * by rep_html_md, with rep_html_page's style and script. */
#ifndef BENCHGRID_REP_HTML_H
#define BENCHGRID_REP_HTML_H

#include "rep_ops.h"

extern const struct reporter_ops rep_html_ops;

#endif
