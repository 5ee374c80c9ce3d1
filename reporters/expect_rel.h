/* expect_rel: ratio and order expectations, which compare cells of one run
 * with each other and so carry across machines (see expect.h).
 *
 *   - ratio: {of: rw.tps, where: {wal: separate}, to: {wal: data}}
 *     published: 0.66
 *     tolerance: 25%        # of published; 0.1 = absolute; [-10%, +30%]
 *   - order: [{shared_buffers: 2MB}, "<", {shared_buffers: 4GB}]
 *     metric: rw.tps
 * (both also take note:, xfail: and strict: as absolute entries do).
 * Between two metrics of each cell, `to` (both sides of an order) is a
 * metric reference:
 *   - ratio: {of: w_sync.mb_s, to: w_cached.mb_s, where: {drive: usb}}
 *   - order: [w_sync.mb_s, ">", w_cached.mb_s]
 *     where: {drive: usb}     # optional in both; all cells when absent
 * Each cell matching `where` (not skipped) is then one pair with itself:
 * its `of` (left) and `to` (right) values; verdicts as below.
 *
 * Pairing: each cell a matching `where` (the order's left map) pairs with
 * every other cell b matching `to` (the right map) that has a's value for
 * every parameter `to` does not name (a parameter named only in `where` so
 * holds on both sides). Skipped cells are left out. A cell's value is the
 * median of the metric over its repetitions; a failed step gives none.
 *
 * Verdicts: ratio: the median of the measured pairs' ratios a/b within
 * [published + lower, published + upper]; order: the median of the pairs'
 * differences a - b below 0 ("<") or above 0 (">"), and the median ratio
 * shown. PASS/FAIL, or XPASS/XFAIL with xfail; FAIL when pairs exist but none
 * is measured (even with xfail); SKIP when there is no pair, with why. */
#ifndef BENCHGRID_EXPECT_REL_H
#define BENCHGRID_EXPECT_REL_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "expect_row.h"
#include "node.h"
#include "results.h"

/* EXPECT_RATIO with a `ratio:` key, EXPECT_ORDER with `order:`, else
 * EXPECT_ABSOLUTE. */
enum expect_kind expect_rel_kind(const struct node *entry);

/* Check a ratio or order entry (names may be NULL); fills xfail, its reason
 * and strict like the absolute entries' check. */
int expect_rel_check(const struct node *entry, const struct expect_names *names, bool *xfail,
                     const char **reason, bool *strict, struct diag *d);

/* The pairs of where -> to among r's cells (values not filled: NaN). */
int expect_rel_pairs(const struct run *r, const struct node *where, const struct node *to,
                     struct expect_pair **out, size_t *n);

/* Evaluate a checked ratio or order entry (index ei) into one row of out;
 * xfail, reason and strict as check_entry read them. */
int expect_rel_evaluate(const struct node *entry, size_t ei, const struct run *r,
                        struct cell_summary *const *sums, bool xfail, const char *reason, bool strict,
                        struct expect_result *out);

#endif
