/* blkdev: block devices as sysfs and /proc see them.
 *
 * Small helpers shared by the target fixture (fx_fs), the knobs and the
 * device facts: find the sysfs name of a device node, the whole disk of a
 * partition, the queue directory that governs a device, the device under a
 * directory, the /proc/self/mountinfo line of a mount point, and the safety
 * rules that decide whether a device may be formatted (blkdev_check_safe).
 * Nothing here changes the system. */
#ifndef BENCHGRID_BLKDEV_H
#define BENCHGRID_BLKDEV_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* One line of /proc/self/mountinfo (strings are unescaped). */
struct mountinfo_ent {
	unsigned major, minor; /* st_dev of the mounted fs (anonymous for btrfs) */
	char mnt[4096];        /* mount point */
	char opts[1024];       /* per-mount options (rw,noatime,...) */
	char fstype[64];
	char source[4096];    /* e.g. /dev/loop3 */
	char superopts[1024]; /* per-superblock options */
};

/* Find the mount whose mount point is exactly `mnt` (the last, i.e. topmost,
 * if stacked). 0, or -ENOENT when it is not a mount point. */
int mountinfo_find(const char *mnt, struct mountinfo_ent *out);

/* Sysfs name ("sda1", "loop3", "dm-0") of the block device node `dev`.
 * -ENOTBLK when it is not a block device, -errno on other failures. */
int blkdev_sysname(const char *dev, char *name, size_t len);
/* Sysfs name of the whole disk holding sysfs name `name` (itself when it is
 * not a partition). */
int blkdev_disk_of(const char *name, char *disk, size_t len);
/* The queue directory (/sys/block/<disk>/queue) governing device `dev`:
 * for a partition, its disk's queue. */
int blkdev_queue_dir(const char *dev, char *out, size_t len);
/* The block device under directory `path` ("/dev/vda"), from mountinfo; for
 * btrfs and others whose st_dev is anonymous the mount source is used.
 * -ENODEV when the directory is on no block device (tmpfs, overlay). */
int blkdev_of_path(const char *path, char *dev, size_t len);

/* The device safety rules for formatting `dev` (kind: device targets):
 * a block device; neither it nor any of its partitions holds the root file
 * system, is mounted, is active swap, or has holders (LVM, RAID, dm-crypt),
 * nor is a RAID member in /proc/mdstat; and it can be opened exclusively.
 * Returns 0 when safe; otherwise a negative errno and `why` names the rule
 * and what was found, e.g. "rule 'mounted': /dev/loop3p1 is mounted on /mnt". */
int blkdev_check_safe(const char *dev, char *why, size_t len);

/* Read a sysfs attribute of a block device (by sysfs name) into buf, with the
 * trailing newline removed. 0 or -errno. */
int blkdev_attr(const char *name, const char *attr, char *buf, size_t len);

#endif
