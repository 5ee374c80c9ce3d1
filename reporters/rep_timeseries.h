/* rep_timeseries: timeseries.csv: one row per cell, repetition, step and time. */
#ifndef BENCHGRID_REP_TIMESERIES_H
#define BENCHGRID_REP_TIMESERIES_H

#include "rep_ops.h"

extern const struct reporter_ops rep_timeseries_ops;

#endif
