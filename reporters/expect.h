/* expect: published figures beside measured ones.
 *
 *   expect:
 *     - where: {fs: ext4, fs_block: 4KiB}   # which cells (all when absent)
 *       ro.tps: [7000, -20%, +20%]          # [value, lower, upper]
 *       seqwrite.mb_s: [389, -50, null]     # absolute tolerance; null = unbounded
 *       xfail: "SLC cache exhausted"        # true or a reason
 *       strict: true                        # a FAIL fails the run
 *
 * The bounds follow ReFrame: lower <= 0 <= upper; "N%" is relative to |value|,
 * a plain number is absolute in the metric's unit, null (or ~) is unbounded.
 * [value, tol] means [value, -tol, +tol]. Every matched cell and metric gives
 * a row:
 *   PASS   measured within bounds          XPASS  within bounds, but xfail
 *   FAIL   outside bounds, or not measured XFAIL  outside bounds, and xfail
 *   SKIP   `where` matches no cell of this run (e.g. filtered by --only)
 * A metric that is missing (or its step failed) is a FAIL even with xfail.
 * With strict: true a FAIL, and an XPASS, count as strict failures that make
 * `benchgrid run` exit non-zero.
 *
 * Published absolute figures only hold on the publication's hardware; ratio
 * and order entries (expect_rel.h) compare cells of this run with each other,
 * so they carry across machines:
 *     - ratio: {of: rw.tps, where: {wal: separate}, to: {wal: data}}
 *       published: 0.66
 *       tolerance: 25%                  # or 0.1 (absolute), or [-10%, +30%]
 *     - order: [{shared_buffers: 2MB}, "<", {shared_buffers: 4GB}]
 *       metric: rw.tps
 * or two metrics of each cell (`to: step.metric`, [step.metric, "<",
 * step.metric] with an optional where:). Each gives one row (kind EXPECT_RATIO or EXPECT_ORDER) with its pairs. */
#ifndef BENCHGRID_EXPECT_H
#define BENCHGRID_EXPECT_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "node.h"
#include "expect_row.h"
#include "results.h"

/* Validate an `expect:` section with positions. */
int expect_check(const struct node *expect, struct diag *d);
/* The same, with names (may be NULL) to check references against. */
int expect_check_names(const struct node *expect, const struct expect_names *names, struct diag *d);

/* Evaluate `expect` against the run. sums may be NULL (computed here) or one
 * summary per cell. Invalid entries are reported to d and skipped
 * (-EINVAL returned after evaluating the rest). */
int expect_evaluate(const struct node *expect, const struct run *r, struct cell_summary *const *sums,
                    struct expect_result *out, struct diag *d);

/* For the exit status of `benchgrid run`: the number of strict failures of
 * r->expect_cfg against r (0 without expect:), or a negative errno. */
long expect_strict_failures(const struct run *r, struct diag *d);

/* Check `expect:` of a scenario against its parameters (the keys of
 * `matrix:`, its zips and includes) and the step names of one cell's tree
 * (name:, or stepN). */
int expect_check_scenario(const struct node *scenario, const struct node *cell, struct diag *d);

#endif
