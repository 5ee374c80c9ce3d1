/* expect_row: what an evaluation of `expect:` gives (one row per cell and
 * metric of an absolute entry, one per ratio or order entry, see expect.h)
 * and what every kind of entry shares: tolerances, where maps, the common
 * keys (xfail, strict, note). */
#ifndef BENCHGRID_EXPECT_ROW_H
#define BENCHGRID_EXPECT_ROW_H

#include <stdbool.h>
#include <stddef.h>

#include "diag.h"
#include "node.h"

/* INCONCLUSIVE: measured, but the run cannot say (expect_bind.h: no model
 * limited a compared cell, or a compared cell was CPU-bound). */
enum expect_status { EXPECT_PASS, EXPECT_FAIL, EXPECT_XFAIL, EXPECT_XPASS, EXPECT_SKIP, EXPECT_INCONCLUSIVE };
#define EXPECT_NSTATUS 6
enum expect_kind { EXPECT_ABSOLUTE, EXPECT_RATIO, EXPECT_ORDER };
/* What an entry proves (`role:`): the publication's claim, the shape
 * without the model (the control arm), a figure no model was fitted to,
 * a test of the tool itself, or context. */
enum expect_role { EXPECT_HEADLINE, EXPECT_CONTROL, EXPECT_HELD_OUT, EXPECT_SELF_TEST, EXPECT_INFO };

/* One pair of a ratio or order row: cell a matches `where` (the order's
 * left side), cell b matches `to` (its right side) and has a's value for
 * every parameter `to` does not name; or, between two metrics of each cell,
 * a == b, va is its `of` (left) and vb its `to` (right) metric. Values are
 * medians over repeats. */
struct expect_pair {
	size_t a, b;   /* indices into run->cells */
	double va, vb; /* NaN when not measured */
	double ratio;  /* va / vb; NaN when undefined */
	bool holds;    /* order: va < vb (or >); ratio: within the bounds */
	char *note;    /* why it is not measured, or NULL */
	bool skipped;  /* not measured because a when: skipped the step */
};

struct expect_row {
	size_t entry;                  /* index of the expect: entry */
	long cell;                     /* index into run->cells, -1 for SKIP */
	char *ref;                     /* "ro.tps" */
	char *unit;                    /* measured metric's unit ("" when missing) */
	double expected, lower, upper; /* lower/upper: absolute bounds, +-inf when open */
	double measured;               /* mean; NaN when not measured */
	double diff_pct;               /* (measured - expected) / |expected| * 100 */
	enum expect_status status;
	enum expect_role role;
	bool strict;
	char *note; /* why (not measured, xfail reason, no cell), or NULL */
	/* ratio and order rows (cell -1; ref = the metric; measured = the
	 * median of the pairs' ratios; expected = published, NaN for order) */
	enum expect_kind kind;
	char *check; /* "{wal: separate} / {wal: data}", "{sb: 2MB} < {sb: 4GB}",
	              * "`a.x` / `b.y` in {drive: usb}" (two metrics of each cell):
	              * Markdown, its parts from the scenario already escaped */
	char *claim; /* the entry's note: the published claim, or NULL */
	char rel;    /* order: '<' or '>' */
	/* between two metrics of each cell (`to: step.metric`, an order of
	 * metrics): the right side's metric and unit; NULL between cells, where
	 * both sides are `ref`. Each pair is then one cell (a == b). */
	char *to_ref, *unit_to;
	struct expect_pair *pairs;
	size_t npairs;
};

/* A strict entry that did not come out as published: fails the run. */
static inline bool expect_row_strict_fail(const struct expect_row *row)
{
	return row->strict && (row->status == EXPECT_FAIL || row->status == EXPECT_XPASS);
}

struct expect_result {
	struct expect_row *rows;
	size_t n, cap;
	size_t count[EXPECT_NSTATUS]; /* per status */
	size_t nstrict;               /* strict failures */
};

/* What a scenario names: its parameters and step names, for the checks of
 * ratio and order entries (NULL lists: not checked). */
struct expect_names {
	const char *const *params;
	size_t nparams;
	const char *const *steps;
	size_t nsteps;
};

void expect_result_free(struct expect_result *res);
/* Free what one row holds (the last row of a result, taken back on failure). */
void expect_row_free(struct expect_row *row);
const char *expect_status_name(enum expect_status s);
/* "headline", "control", "held-out", "self-test", "info" */
const char *expect_role_name(enum expect_role r);
/* Shape checks (ratio and order) carry across machines; absolute ones hold
 * on this machine only. */
static inline bool expect_row_is_shape(const struct expect_row *row)
{
	return row->kind != EXPECT_ABSOLUTE;
}
/* The entry's role: (default headline for ratio and order, info for an
 * absolute entry). 0 or -EINVAL. */
int expect_entry_role(const struct node *e, enum expect_kind kind, enum expect_role *role, struct diag *d);
/* A min:/max: pair of bounds (either may be absent: open): lo, hi. what
 * names it in messages. 1 when at least one is given, 0 when neither,
 * -EINVAL. */
int expect_parse_minmax(const struct node *map, const char *what, double *lo, double *hi, struct diag *d);
/* Parse one tolerance ("-20%", "+5", "null") relative to value into an
 * absolute offset; lower says which side it is. 0 or -EINVAL with d. */
int expect_parse_tolerance(const struct node *n, double value, bool lower, double *offset, struct diag *d);
/* `[value, tol]` / `[value, lower, upper]` bounds from a tolerance node:
 * one tolerance (symmetric) or a list [lower, upper]. */
int expect_parse_bounds(const struct node *tol, double value, double *lo, double *hi, struct diag *d);
/* A `where:` map of parameter: value or list of values; what names the
 * key in messages ("where", "to"). */
int expect_check_where(const struct node *where, const char *what, struct diag *d);
/* "{fs: btrfs, bs: [4k, 8k]}" */
void expect_where_text(const struct node *where, char *buf, size_t len);
/* Check key k (xfail, strict or note) of entry e; fills the outputs. */
int expect_entry_common(const struct node *e, const char *k, bool *xfail, const char **reason, bool *strict,
                        struct diag *d);
/* A new zeroed row (NULL when out of memory), and its count once judged. */
struct expect_row *expect_add_row(struct expect_result *res);
void expect_finish_row(struct expect_result *res, struct expect_row *row);

#endif
