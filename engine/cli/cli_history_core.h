/* cli_history_core: what `history`'s text and its dashboard (history.html)
 * share: the flagging rule (a point outside the 95% prediction interval of
 * the same cell and host in the runs before it), the order of the runs (by
 * date, or by commit), dates and the facts that changed between two runs. */
#ifndef BENCHGRID_CLI_HISTORY_CORE_H
#define BENCHGRID_CLI_HISTORY_CORE_H

#include <stdbool.h>
#include <stddef.h>

#include "store_query.h"
#include "store_runs.h"

#define HISTORY_LEVEL      0.95
#define HISTORY_MIN_BEFORE 3

/* Per point: the interval it was judged against and the verdict. */
struct judged {
	double lo, hi;
	size_t nbefore;
	int flag;  /* -1 below, +1 above, 0 inside or not judged */
	long prev; /* index of the same series' point before, or -1 */
};

/* The same cell on the same host. */
bool hist_same_series(const struct store_point *a, const struct store_point *b);
/* Judge each of p[0..n) (in the order given) against the `window` points
 * of its series before it. */
void hist_judge(const struct store_point *p, size_t n, long window, struct judged *j);
/* Index of the first point of the last `last` runs (0: all). */
size_t hist_first_shown(const struct store_point *p, size_t n, long last);
/* "2026-12-07 14:05" (local time). */
void hist_date_text(double t, char *buf, size_t len);
/* Facts that describe this run's temporary paths, not the machine. */
bool hist_fact_ignored(const char *key);
const char *hist_fact_find(const struct store_fact *f, size_t n, const char *key);
/* The facts that differ between two runs of a cell, "key: old -> new"
 * lines (malloc'd, "" when none), or NULL with why in err. */
char *hist_changed_text(struct store *s, const struct store_point *now, const struct store_point *before,
                        char *err, size_t errlen);
/* The run of run_id in m[0..n), or NULL. */
const struct store_run_meta *hist_run_meta(const struct store_run_meta *m, size_t n, const char *run_id);
/* Reorder p (oldest run first, as store_history gives it) by commit: the
 * commits in the order of the first run that recorded each, the runs of
 * one commit together (by date); a run without a commit stays in its place
 * among the commits' first runs. Returns how many runs had none. */
size_t hist_order_by_commit(struct store_point *p, size_t n, const struct store_run_meta *m, size_t nm);

#endif
