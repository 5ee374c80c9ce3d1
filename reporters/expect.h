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
 * `benchgrid run` exit non-zero. */
#ifndef BENCHGRID_EXPECT_H
#define BENCHGRID_EXPECT_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "node.h"
#include "results.h"

enum expect_status { EXPECT_PASS, EXPECT_FAIL, EXPECT_XFAIL, EXPECT_XPASS, EXPECT_SKIP };

struct expect_row {
	size_t entry;                  /* index of the expect: entry */
	long cell;                     /* index into run->cells, -1 for SKIP */
	char *ref;                     /* "ro.tps" */
	char *unit;                    /* measured metric's unit ("" when missing) */
	double expected, lower, upper; /* lower/upper: absolute bounds, +-inf when open */
	double measured;               /* mean; NaN when not measured */
	double diff_pct;               /* (measured - expected) / |expected| * 100 */
	enum expect_status status;
	bool strict;
	char *note; /* why (not measured, xfail reason, no cell), or NULL */
};

struct expect_result {
	struct expect_row *rows;
	size_t n, cap;
	size_t count[5]; /* per status */
	size_t nstrict;  /* strict failures */
};

/* Validate an `expect:` section with positions. */
int expect_check(const struct node *expect, struct diag *d);

/* Evaluate `expect` against the run. sums may be NULL (computed here) or one
 * summary per cell. Invalid entries are reported to d and skipped
 * (-EINVAL returned after evaluating the rest). */
int expect_evaluate(const struct node *expect, const struct run *r, struct cell_summary *const *sums,
                    struct expect_result *out, struct diag *d);
void expect_result_free(struct expect_result *res);

/* For the exit status of `benchgrid run`: the number of strict failures of
 * r->expect_cfg against r (0 without expect:), or a negative errno. */
long expect_strict_failures(const struct run *r, struct diag *d);

const char *expect_status_name(enum expect_status s);

/* Parse one tolerance ("-20%", "+5", "null") relative to value into an
 * absolute offset; lower says which side it is. 0 or -EINVAL with d. */
int expect_parse_tolerance(const struct node *n, double value, bool lower, double *offset, struct diag *d);

#endif
