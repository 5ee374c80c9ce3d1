/* rep_html_page: what report.html holds besides the report's text: the
 * head (a Content-Security-Policy that allows nothing from outside the
 * file and no script but its own, by hash; the style) and the script (tables sorted by any column, charts
 * checked as drawn, folds opened for a link to a cell). */
#ifndef BENCHGRID_REP_HTML_PAGE_H
#define BENCHGRID_REP_HTML_PAGE_H

#include <stdio.h>

/* Everything up to <body>; title is already HTML-escaped. */
void rep_html_page_start(FILE *out, const char *title);
/* The script and the end of the page. */
void rep_html_page_end(FILE *out);

#endif
