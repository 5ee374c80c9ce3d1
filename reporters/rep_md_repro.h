/* rep_md_repro: what report.md says about the publication a scenario
 * reproduces: the scenario's `notes:` under the title, the "Reproduction"
 * section (each published claim, the expectation that checks it, measured
 * vs published, verdict; ratio and order pairs), and the published figure
 * of a cell for the pivots and charts. */
#ifndef BENCHGRID_REP_MD_REPRO_H
#define BENCHGRID_REP_MD_REPRO_H

#include <stddef.h>
#include <stdio.h>

#include "node.h"
#include "rep_md_doc.h"

/* `notes:` (a text or a list of texts) as a list under "**Notes**". */
void rep_md_notes(FILE *f, const struct node *notes);

/* The Reproduction section from m->exp (nothing without expect:). */
void rep_md_repro(struct rep_ctx *cx, struct md *m, FILE *f);

/* The published value of step.metric `ref` for cell ci: the absolute
 * expectation whose where matches the cell (the first one); NaN if none. */
double rep_md_published(const struct md *m, size_t ci, const char *ref);

#endif
