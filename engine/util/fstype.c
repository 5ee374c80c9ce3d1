/* fstype: see fstype.h. Values from linux/magic.h and the file systems'
 * own headers (f2fs, nilfs2, jfs, zfs and bcachefs are not in magic.h). */
#include "fstype.h"

#include <stdio.h>
#include <string.h>
#include <sys/vfs.h>

static const struct {
	unsigned long magic;
	const char *name;
} fstypes[] = {
    {0xEF53, "ext4"},         {0xEF53, "ext3"},          {0xEF53, "ext2"},      {0x58465342, "xfs"},
    {0x9123683E, "btrfs"},    {0xF2F52010, "f2fs"},      {0x3434, "nilfs2"},    {0x3153464a, "jfs"},
    {0x01021994, "tmpfs"},    {0x794c7630, "overlayfs"}, {0x6969, "nfs"},       {0x2fc12fc1, "zfs"},
    {0x65735546, "fuse"},     {0x858458f6, "ramfs"},     {0x4d44, "vfat"},      {0x5346544e, "ntfs"},
    {0xca451a4e, "bcachefs"}, {0x73717368, "squashfs"},  {0x62656572, "sysfs"}, {0x9fa0, "proc"},
};

unsigned long fstype_magic(const char *name)
{
	for (size_t i = 0; i < sizeof(fstypes) / sizeof(fstypes[0]); i++)
		if (!strcmp(fstypes[i].name, name))
			return fstypes[i].magic;
	return 0;
}

const char *fstype_name(unsigned long magic)
{
	for (size_t i = 0; i < sizeof(fstypes) / sizeof(fstypes[0]); i++)
		if (fstypes[i].magic == magic)
			return fstypes[i].name;
	return NULL;
}

const char *fstype_of_path(const char *path, char *buf, size_t len)
{
	struct statfs st;
	if (statfs(path, &st) < 0) {
		snprintf(buf, len, "unknown");
		return buf;
	}
	const char *name = fstype_name((unsigned long)st.f_type);
	if (name)
		snprintf(buf, len, "%s", name);
	else
		snprintf(buf, len, "type 0x%lx", (unsigned long)st.f_type);
	return buf;
}
