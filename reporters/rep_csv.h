/* rep_csv: results.csv: one row per cell and step (docs/results.md). */
#ifndef BENCHGRID_REP_CSV_H
#define BENCHGRID_REP_CSV_H

#include "rep_ops.h"

extern const struct reporter_ops rep_csv_ops;

#endif
