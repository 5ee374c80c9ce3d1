/* pgb_script_figs: the figures of each script of a load of several
 * (pgbench's per-script report of -b a@w -b b@w), and tpcc-like's.
 *
 * script_NAME_transactions, _tps, _lat_mean_ms, _lat_p50_ms, _lat_p90_ms,
 * _lat_p95_ms, _lat_p99_ms, _lat_max_ms and _rollbacks (transactions that
 * sent a ROLLBACK command); NAME is the script's name in letters, digits
 * and _ (a repeated name gets _2, _3 ...). With tpcc-like: nopm, tpmc and
 * new_order_rollback_pct. */
#ifndef BENCHGRID_PGB_SCRIPT_FIGS_H
#define BENCHGRID_PGB_SCRIPT_FIGS_H

#include <stdbool.h>
#include "pgb_run_cfg.h"
#include "result.h"

/* Nothing unless out has per-script figures (several scripts). */
void pgb_script_figs(const struct pgb_prog *prog, const struct pgb_run_out *out, bool tpcc,
                     struct step_result *res);

#endif
