/* rep_md: report.md and its SVG charts (sections listed in rep_md.c). */
#ifndef BENCHGRID_REP_MD_H
#define BENCHGRID_REP_MD_H

#include "rep_ops.h"

extern const struct reporter_ops rep_md_ops;

#endif
