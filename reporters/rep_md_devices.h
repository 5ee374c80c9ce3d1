/* rep_md_devices: the "Devices" section of report.md, a legend of the
 * system monitor's disk columns: column prefix -> device -> what it is,
 * from the cells' devices.PREFIX facts (docs/sections/monitor.md). */
#ifndef BENCHGRID_REP_MD_DEVICES_H
#define BENCHGRID_REP_MD_DEVICES_H

#include "rep_md_doc.h"

/* Nothing when no cell recorded a devices.* fact. */
void rep_md_devices(struct rep_ctx *cx, struct md *m);

#endif
