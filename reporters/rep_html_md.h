/* rep_html_md: report.md's text, written in html mode (rep_md_doc.h), as
 * one self-contained HTML page (report.html).
 *
 * It reads only what report.md's sections write: headings, paragraphs,
 * lists, tables, fenced code, `code`, *emphasis*, **strong**, backslash
 * escapes, and the marks of html mode (values for sorting, links to cells,
 * folds, charts). Every piece of text is HTML-escaped; invalid UTF-8
 * becomes U+FFFD and control characters are dropped. A chart is only a mark
 * "svg:N" in the text; the page gets svgs[N], as svg_write wrote it
 * (svg_escape escaped its text).
 *
 * Ids the page's script and tests rely on:
 *   h2/h3   id "s-SLUG" (SLUG: the heading's letters and digits, '-' between)
 *   table   id "t-SLUG" of the heading above it ("t-summary"), "-2", "-3"
 *           for the next tables under the same heading; class "sortable"
 *   tr      id "cell-N" in the Summary table (cell N's details)
 *   td      data-v: the full-precision value when the reporter gave one
 *   figure  class "chart", id "chart-N" (from 1): one per chart, its <svg>
 *           inside */
#ifndef BENCHGRID_REP_HTML_MD_H
#define BENCHGRID_REP_HTML_MD_H

#include <stddef.h>
#include <stdio.h>

/* The page of the text head[0..hlen) then body[0..blen), with the charts
 * svgs[0..nsvg). */
void rep_html_md_write(FILE *out, const char *head, size_t hlen, const char *body, size_t blen,
                       const char *const *svgs, size_t nsvg);

#endif
