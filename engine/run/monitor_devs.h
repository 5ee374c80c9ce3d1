/* monitor_devs: the block devices the system monitor samples for a cell,
 * and the names their figures get.
 *
 *   - the main target's device (`target:`): prefix "disk", columns
 *     disk_util_pct, disk_write_mb_s, ... (the names from before there were
 *     several);
 *   - each `targets.NAME`'s device: prefix "disk.NAME", columns
 *     disk.NAME.util_pct, disk.NAME.write_mb_s, ...;
 *   - each distinct device holding the image file of a loop device among
 *     them (st_dev of the image, so a partition when the image is on one):
 *     prefix "disk.under.KNAME" (disk.under.vda.util_pct).
 * A target's device is the loop device of a loop target, the device (or
 * partition) of a device target, the device under the directory of a dir
 * target. Two targets on one device are sampled under both names.
 * Each prefix is described for people (the cell fact devices.PREFIX):
 *   "/dev/loop3 (target main: ext4 on loop image /work/img-x)"
 *   "/dev/vda (under the loop images of main, wal)"
 * Nothing here changes the system. */
#ifndef BENCHGRID_MONITOR_DEVS_H
#define BENCHGRID_MONITOR_DEVS_H

#include <stdbool.h>
#include <stddef.h>

#include "result.h"

struct fixture_set;

struct mon_dev {
	char prefix[160]; /* "disk", "disk.wal", "disk.under.vda" */
	char target[128]; /* "main", "wal"; "" for a disk under images */
	char kname[64];   /* its name in /proc/diskstats and /sys/class/block */
	unsigned major, minor;
	char desc[1024]; /* the fact's text, see above */
};

struct mon_devs {
	struct mon_dev *v;
	size_t n, cap;
};

/* Add target `target`'s device (NULL = the main target): `blockdev` is a
 * device node ("/dev/loop3") or a kernel name ("vda1"); `what` says what
 * the target is ("ext4 on loop image /x"), may be NULL. 0, or -errno when
 * the device cannot be found (-ENOTBLK for a node that is no block device). */
int mon_devs_add_target(struct mon_devs *L, const char *target, const char *blockdev, const char *what);
/* Add the devices under the loop devices added so far, once each. */
void mon_devs_add_under(struct mon_devs *L);
/* All of a cell's: its targets (those with a block device) and the disks
 * under their images. */
void mon_devs_of_fixtures(struct mon_devs *L, const struct fixture_set *fx);
void mon_devs_free(struct mon_devs *L);

/* The column of quantity q ("util_pct") of d: "disk_util_pct" for the main
 * target, else "PREFIX.util_pct". */
void mon_devs_column(const struct mon_dev *d, const char *q, char *out, size_t len);
/* The cell facts devices.PREFIX = desc. */
void mon_devs_facts(const struct mon_devs *L, struct step_result *facts);

#endif
