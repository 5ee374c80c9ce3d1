/* fstype: the one table of file-system magic numbers (statfs f_type). */
#ifndef BENCHGRID_FSTYPE_H
#define BENCHGRID_FSTYPE_H

#include <stddef.h>

/* The statfs magic of a file system name ("ext2", "ext3" and "ext4" share
 * one), or 0 when unknown. */
unsigned long fstype_magic(const char *name);
/* The name for a statfs magic ("ext4" for the ext family), or NULL. */
const char *fstype_name(unsigned long magic);
/* The file system a path lives on: its name, "type 0x..." when the magic is
 * not in the table, "unknown" when statfs fails. Written to buf. */
const char *fstype_of_path(const char *path, char *buf, size_t len);

#endif
