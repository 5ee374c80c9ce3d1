/* raw_device: steps on a raw block device (io's `file: "@device"`).
 *
 * A `target: {kind: device, device: /dev/X}` is formatted and mounted; the
 * same target used by a step that opens its device (its workload says so:
 * workload_ops.opens_device) is used raw instead (as if it said
 * `fs: none`): no mkfs, no mount, reads with no consent, writes under the
 * device rules (destroy: true, --yes, blkdev_check_safe). */
#ifndef BENCHGRID_RAW_DEVICE_H
#define BENCHGRID_RAW_DEVICE_H

#include <stdbool.h>

#include "diag.h"
#include "node.h"

/* Does the cell's tree use its `target` (kind: device, no fs:) raw? */
bool raw_device_wanted(const struct node *tree, const struct node *target);
/* A copy of target with fs: none. */
struct node *raw_device_target(const struct node *target);
/* The validator: a step that opens the device needs a device target (no
 * fs:, or fs: none), and a raw target (fs: none) has no directory for the
 * files of the steps whose workload could open the device but does not. */
int raw_device_check(const struct node *cell, const struct node *scenario, struct diag *d);

#endif
