/* expect_json: expect.json, the verdicts of `expect:` for programs (the
 * repro tests read it instead of report.md's tables; docs/results.md).
 * A JSON array, one object per row of the evaluation (expect_row.h): a
 * ratio or order entry is one row, an absolute entry one row per matching
 * cell and metric (or one SKIP row):
 *   {"n": 2, "role": "headline", "kind": "shape", "check": "ratio",
 *    "ref": "load.tps", "cell": null, "status": "INCONCLUSIVE",
 *    "reason": "models did not bind: ...", "measured": 1.08,
 *    "published": 0.66, "lo": 0.495, "hi": 0.825, "strict": false,
 *    "note": "the entry's note:"}
 * n is the entry's number in `expect:` (from 1, as report.md's #); kind
 * "shape" (ratio, order: check names which) or "absolute"; published, lo
 * and hi are null when there are none (an order, min:/max: bounds, open
 * sides); cell is the cell's index for absolute rows. Written only when
 * the scenario has `expect:`. */
#ifndef BENCHGRID_EXPECT_JSON_H
#define BENCHGRID_EXPECT_JSON_H

#include "expect_row.h"
#include "jsonio.h"
#include "rep_ops.h"

extern const struct reporter_ops rep_expect_json_ops;

/* The array above for res (a new reference). */
json_t *expect_json_rows(const struct run *r, const struct expect_result *res);

#endif
